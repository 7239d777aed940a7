/* Unit tests for the StableHLO printer on modules built by hand: float and dense spelling, MLIR's
 * value naming, pretty and generic op forms, and rejection of malformed modules. */
#include <math.h>
#include <string.h>

#include "base/numeric.h"
#include "base/strbuf.h"
#include "ir/ir.h"
#include "ir/print_internal.h"
#include "test.h"

/* ---- a tiny IR builder ---- */

enum { MAX_OPS = 32 };

static hr_type tensor(hr_dtype t, int rank, int64_t d0, int64_t d1) {
  int64_t dims[2] = {d0, d1};
  return hr_tensor_type(t, rank, dims);
}

static hr_module *new_module(void) {
  hr_module *m = NULL;
  hr_status s = hr_module_new(NULL, "test.mlir", &m);
  if (s) hr_status_free(s);
  return m;
}

/* Adds a function with the given argument and result types. */
static hr_func *add_func(hr_module *m, const char *name, int n_args, const hr_type *args, int n_res,
                         const hr_type *res) {
  hr_func *f = HR_ARENA_NEW(&m->arena, hr_func);
  hr_func **funcs = HR_ARENA_ARRAY(&m->arena, hr_func *, (size_t)m->n_funcs + 1);
  for (int i = 0; i < m->n_funcs; i++) funcs[i] = m->funcs[i];
  funcs[m->n_funcs++] = f;
  m->funcs = funcs;
  f->name = name;
  f->n_args = f->body.n_args = n_args;
  f->body.args = HR_ARENA_ARRAY(&m->arena, hr_value, n_args ? (size_t)n_args : 1);
  for (int i = 0; i < n_args; i++) {
    f->body.args[i].type = args[i];
    f->body.args[i].id = f->n_values++;
    f->body.args[i].owner = &f->body;
    f->body.args[i].index = (uint32_t)i;
  }
  f->n_results = n_res;
  f->result_types = HR_ARENA_ARRAY(&m->arena, hr_type, n_res ? (size_t)n_res : 1);
  for (int i = 0; i < n_res; i++) f->result_types[i] = res[i];
  f->body.ops = HR_ARENA_ARRAY(&m->arena, hr_op *, MAX_OPS);
  f->body.func = f;
  return f;
}

/* Appends an op to block `b` of function `f`. */
static hr_op *add_op(hr_module *m, hr_func *f, hr_block *b, hr_opcode code, int n_in, hr_value **in,
                     int n_out, const hr_type *out) {
  hr_op *op = HR_ARENA_NEW(&m->arena, hr_op);
  op->code = code;
  op->n_operands = n_in;
  op->operands = HR_ARENA_ARRAY(&m->arena, hr_value *, n_in ? (size_t)n_in : 1);
  for (int i = 0; i < n_in; i++) op->operands[i] = in[i];
  op->n_results = n_out;
  op->results = HR_ARENA_ARRAY(&m->arena, hr_value, n_out ? (size_t)n_out : 1);
  for (int i = 0; i < n_out; i++) {
    op->results[i].type = out[i];
    op->results[i].def = op;
    op->results[i].index = (uint32_t)i;
    op->results[i].id = f->n_values++;
  }
  op->attrs = HR_ARENA_ARRAY(&m->arena, hr_named_attr, 8);
  op->parent = b;
  b->ops[b->n_ops++] = op;
  return op;
}

/* Gives `op` `n` regions, each one block with `n_args` arguments of type `t`. */
static void add_regions(hr_module *m, hr_func *f, hr_op *op, int n, int n_args, hr_type t) {
  op->n_regions = n;
  op->regions = HR_ARENA_ARRAY(&m->arena, hr_block, (size_t)n);
  for (int r = 0; r < n; r++) {
    hr_block *b = &op->regions[r];
    b->n_args = n_args;
    b->args = HR_ARENA_ARRAY(&m->arena, hr_value, (size_t)n_args + 1);
    for (int i = 0; i < n_args; i++) {
      b->args[i].type = t;
      b->args[i].owner = b;
      b->args[i].index = (uint32_t)i;
      b->args[i].id = f->n_values++;
    }
    b->ops = HR_ARENA_ARRAY(&m->arena, hr_op *, MAX_OPS);
    b->parent_op = op;
    b->func = f;
  }
}

static void set_attr(hr_op *op, const char *name, hr_attr *a) {
  op->attrs[op->n_attrs].name = name;
  op->attrs[op->n_attrs].value = a;
  op->n_attrs++;
}

static hr_attr *int_attr(hr_module *m, int64_t v, hr_dtype t) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_INT);
  a->u.i.value = v;
  a->u.i.dtype = t;
  return a;
}

static hr_attr *i64_array(hr_module *m, int n, const int64_t *v) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_DENSE_ARRAY);
  a->u.dense_array.dtype = HR_I64;
  a->u.dense_array.n = n;
  a->u.dense_array.ints = HR_ARENA_ARRAY(&m->arena, int64_t, n ? (size_t)n : 1);
  for (int i = 0; i < n; i++) a->u.dense_array.ints[i] = v[i];
  return a;
}

static hr_attr *enum_attr(hr_module *m, const char *name, const char *value) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_ENUM);
  a->u.enm.dialect = "stablehlo";
  a->u.enm.name = name;
  a->u.enm.value = value;
  return a;
}

static hr_attr *string_attr(hr_module *m, hr_attr_kind kind, const char *s, size_t len) {
  hr_attr *a = hr_attr_new(m, kind);
  a->u.str.data = s;
  a->u.str.len = len;
  return a;
}

/* A dense attribute of type t holding a copy of `nbytes` bytes (one element when splat). */
static hr_attr *dense_attr(hr_module *m, hr_type t, const void *data, size_t nbytes, bool splat) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_DENSE);
  void *copy = hr_arena_alloc(&m->arena, nbytes ? nbytes : 1, 16);
  if (nbytes) memcpy(copy, data, nbytes);
  a->u.dense.type = t;
  a->u.dense.data = copy;
  a->u.dense.nbytes = nbytes;
  a->u.dense.splat = splat;
  return a;
}

/* A stablehlo.constant of the given dense value. */
static hr_op *add_constant(hr_module *m, hr_func *f, hr_attr *value) {
  hr_op *op = add_op(m, f, &f->body, HR_OP_CONSTANT, 0, NULL, 1, &value->u.dense.type);
  set_attr(op, "value", value);
  return op;
}

/* Prints the module; returns a malloc'ed copy of the text or NULL (reporting the error). */
static char *print(const hr_module *m) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = hr_module_print_to(m, &sb);
  if (s) {
    fprintf(stderr, "print failed: %s\n", hr_status_message(s));
    hr_status_free(s);
    hr_strbuf_free(&sb);
    return NULL;
  }
  char *copy = strdup(sb.data ? sb.data : "");
  hr_strbuf_free(&sb);
  return copy;
}

/* Prints one attribute into a malloc'ed string. */
static char *print_attr(const hr_attr *a) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_arena arena;
  hr_arena_init(&arena, NULL);
  hr_printer p;
  memset(&p, 0, sizeof p);
  p.out = &sb;
  p.scratch = &arena;
  hr_status s = hr_print_attr(&p, a);
  hr_arena_release(&arena);
  char *copy = NULL;
  if (s) {
    fprintf(stderr, "print failed: %s\n", hr_status_message(s));
    hr_status_free(s);
  } else {
    copy = strdup(sb.data ? sb.data : "");
  }
  hr_strbuf_free(&sb);
  return copy;
}

#define CHECK_TEXT(actual, expected)                                                        \
  do {                                                                                      \
    char *a_ = (actual);                                                                    \
    if (!a_ || strcmp(a_, (expected)) != 0) {                                               \
      fprintf(stderr, "%s:%d: text mismatch\n--- expected\n%s\n--- actual\n%s\n", __FILE__, \
              __LINE__, (expected), a_ ? a_ : "(null)");                                    \
      test_failures_++;                                                                     \
    }                                                                                       \
    free(a_);                                                                               \
  } while (0)

/* Formats a float of type t given by its bits. */
static char *float_text(hr_dtype t, uint64_t bits) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_print_float_bits(&sb, t, bits);
  char *copy = strdup(sb.data ? sb.data : "");
  hr_strbuf_free(&sb);
  return copy;
}

/* ---- floats ---- */

TEST(floats_use_the_short_form_when_it_round_trips) {
  CHECK_TEXT(float_text(HR_F32, hr_f32_bits(1.0f)), "1.000000e+00");
  CHECK_TEXT(float_text(HR_F32, hr_f32_bits(-0.0f)), "-0.000000e+00");
  CHECK_TEXT(float_text(HR_F32, 0), "0.000000e+00");
  CHECK_TEXT(float_text(HR_F16, 0x3f1e), "1.779300e+00");   /* 1.7792969 */
  CHECK_TEXT(float_text(HR_BF16, 0xbfa1), "-1.257810e+00"); /* -1.2578125, rounded half-up */
  /* APFloat truncates 1e-5f's digits to 9.99999, which does not read back: MLIR's well-known
   * `9.99999974E-6` (see the fallback test below). */
  CHECK_TEXT(float_text(HR_F32, hr_f32_bits(1e-5f)), "9.99999974E-6");
  CHECK_TEXT(float_text(HR_F64, hr_f64_bits(0.1)), "1.000000e-01");
  CHECK_TEXT(float_text(HR_F32, hr_f32_bits(3.013120f)), "3.013120e+00");
}

TEST(floats_fall_back_to_round_trip_digits) {
  CHECK_TEXT(float_text(HR_F32, 0xbf50a532), "-0.81502068");
  CHECK_TEXT(float_text(HR_F64, 0xbfe15568cc9b67da), "-0.54167594873728864");
  CHECK_TEXT(float_text(HR_F32, 0x40249547), "2.57161117");
  CHECK_TEXT(float_text(HR_F64, hr_f64_bits(1.0 / 3.0)), "0.33333333333333331");
  CHECK_TEXT(float_text(HR_F64, hr_f64_bits(1e300 / 3.0)), "3.3333333333333335E+299");
  CHECK_TEXT(float_text(HR_F64, 0xbf3ad35531a0d3de), "-4.0932493141393282E-4");
  CHECK_TEXT(float_text(HR_F32, 0x00800000), "1.17549435E-38");
}

TEST(floats_without_a_decimal_spelling_are_hex) {
  CHECK_TEXT(float_text(HR_F32, 0x7fc00000), "0x7FC00000");
  CHECK_TEXT(float_text(HR_F32, 0xff800000), "0xFF800000");
  CHECK_TEXT(float_text(HR_BF16, 0xff80), "0xFF80");
  CHECK_TEXT(float_text(HR_F16, 0x7c00), "0x7C00");
  CHECK_TEXT(float_text(HR_F64, 0x7ff8000000000000), "0x7FF8000000000000");
  CHECK_TEXT(float_text(HR_F32, hr_f32_bits(1234567.0f)), "0x4996B438"); /* "1234567" has no '.' */
}

/* ---- attributes ---- */

TEST(dense_attributes) {
  hr_module *m = new_module();
  int32_t same[4] = {7, 7, 7, 7}, vals[4] = {1, -2, 3, 4};
  CHECK_TEXT(print_attr(dense_attr(m, tensor(HR_I32, 2, 2, 2), same, 16, false)),
             "dense<7> : tensor<2x2xi32>");
  CHECK_TEXT(print_attr(dense_attr(m, tensor(HR_I32, 2, 2, 2), vals, 16, false)),
             "dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>");
  CHECK_TEXT(print_attr(dense_attr(m, tensor(HR_F32, 1, 0, 0), NULL, 0, false)),
             "dense<> : tensor<0xf32>");
  uint8_t bools[3] = {1, 0, 1};
  CHECK_TEXT(print_attr(dense_attr(m, tensor(HR_I1, 1, 3, 0), bools, 3, false)),
             "dense<[true, false, true]> : tensor<3xi1>");
  uint32_t big[2] = {4294967295u, 1};
  CHECK_TEXT(print_attr(dense_attr(m, tensor(HR_U32, 1, 2, 0), big, 8, false)),
             "dense<[4294967295, 1]> : tensor<2xui32>");
  float cplx[4] = {1.0f, -2.0f, 0.5f, 0.0f};
  CHECK_TEXT(
      print_attr(dense_attr(m, tensor(HR_C64, 1, 2, 0), cplx, 16, false)),
      "dense<[(1.000000e+00,-2.000000e+00), (5.000000e-01,0.000000e+00)]> : tensor<2xcomplex<f32>>");
  uint16_t neg_inf = 0xff80;
  CHECK_TEXT(print_attr(dense_attr(m, tensor(HR_BF16, 0, 0, 0), &neg_inf, 2, true)),
             "dense<0xFF80> : tensor<bf16>");
  hr_module_free(m);
}

TEST(large_dense_attributes_are_hex) {
  hr_module *m = new_module();
  uint8_t bytes[101];
  for (int i = 0; i < 101; i++) bytes[i] = (uint8_t)i;
  char *text = print_attr(dense_attr(m, tensor(HR_U8, 1, 101, 0), bytes, 101, false));
  CHECK_STR_CONTAINS(text, "dense<\"0x000102030405");
  CHECK_STR_CONTAINS(text, "6364\"> : tensor<101xui8>");
  free(text);
  /* 100 elements are still listed. */
  text = print_attr(dense_attr(m, tensor(HR_U8, 1, 100, 0), bytes, 100, false));
  CHECK_STR_CONTAINS(text, "dense<[0, 1, 2,");
  free(text);
  /* Sub-byte integers keep their low bits in hex, as in MLIR's storage. */
  int8_t i4[101];
  for (int i = 0; i < 101; i++) i4[i] = (int8_t)(i % 2 ? -1 : 1);
  text = print_attr(dense_attr(m, tensor(HR_I4, 1, 101, 0), i4, 101, false));
  CHECK_STR_CONTAINS(text, "dense<\"0x010F010F");
  free(text);
  hr_module_free(m);
}

TEST(scalar_and_composite_attributes) {
  hr_module *m = new_module();
  CHECK_TEXT(print_attr(int_attr(m, 3, HR_I32)), "3 : i32");
  CHECK_TEXT(print_attr(int_attr(m, -1, HR_U64)), "18446744073709551615 : ui64");
  CHECK_TEXT(print_attr(int_attr(m, 5, HR_DTYPE_INVALID)), "5");
  hr_attr *idx = int_attr(m, 2, HR_I64);
  idx->u.i.is_index = true;
  CHECK_TEXT(print_attr(idx), "2 : index");
  hr_attr *f = hr_attr_new(m, HR_ATTR_FLOAT);
  f->u.f.value = 0.5;
  f->u.f.dtype = HR_F32;
  CHECK_TEXT(print_attr(f), "5.000000e-01 : f32");
  CHECK_TEXT(print_attr(i64_array(m, 0, NULL)), "array<i64>");
  int64_t v[2] = {1, -2};
  CHECK_TEXT(print_attr(i64_array(m, 2, v)), "array<i64: 1, -2>");
  CHECK_TEXT(print_attr(string_attr(m, HR_ATTR_STRING, "a\"b\n\\\0c", 7)),
             "\"a\\22b\\0A\\\\\\00c\"");
  CHECK_TEXT(print_attr(string_attr(m, HR_ATTR_SYMBOL, "check.expect_eq", 15)), "@check.expect_eq");
  CHECK_TEXT(print_attr(string_attr(m, HR_ATTR_SYMBOL, "not-an-id", 9)), "@\"not-an-id\"");
  CHECK_TEXT(print_attr(enum_attr(m, "comparison_direction", "LT")),
             "#stablehlo<comparison_direction LT>");

  hr_attr *dict = hr_attr_new(m, HR_ATTR_DICT);
  hr_named_attr entries[3] = {{"jax.result_info", string_attr(m, HR_ATTR_STRING, "", 0)},
                              {"flag", hr_attr_new(m, HR_ATTR_UNIT)},
                              {"odd name", hr_attr_new(m, HR_ATTR_BOOL)}};
  dict->u.dict.n = 3;
  dict->u.dict.entries = entries;
  CHECK_TEXT(print_attr(dict), "{jax.result_info = \"\", flag, \"odd name\" = false}");

  hr_attr *list = hr_attr_new(m, HR_ATTR_ARRAY);
  hr_attr *items[2] = {int_attr(m, 1, HR_DTYPE_INVALID), int_attr(m, 2, HR_DTYPE_INVALID)};
  list->u.array.n = 2;
  list->u.array.items = items;
  hr_attr *dot = hr_attr_new(m, HR_ATTR_STRUCT);
  hr_named_attr fields[2] = {{"lhs_contracting_dimensions", list},
                             {"rhs_contracting_dimensions", list}};
  dot->u.strct.name = "stablehlo.dot";
  dot->u.strct.n = 2;
  dot->u.strct.fields = fields;
  CHECK_TEXT(
      print_attr(dot),
      "#stablehlo.dot<lhs_contracting_dimensions = [1, 2], rhs_contracting_dimensions = [1, 2]>");
  hr_module_free(m);
}

/* A #stablehlo.conv struct for the layouts [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]. */
static hr_attr *conv_dims(hr_module *m, int64_t in_batch) {
  static const char *const names[9] = {
      "input_batch_dimension",           "input_feature_dimension",
      "input_spatial_dimensions",        "kernel_input_feature_dimension",
      "kernel_output_feature_dimension", "kernel_spatial_dimensions",
      "output_batch_dimension",          "output_feature_dimension",
      "output_spatial_dimensions"};
  int64_t scalars[9] = {in_batch, 3, 0, 2, 3, 0, 0, 3, 0};
  int64_t spatial[3][2] = {{1, 2}, {0, 1}, {1, 2}};
  hr_attr *a = hr_attr_new(m, HR_ATTR_STRUCT);
  a->u.strct.name = "stablehlo.conv";
  a->u.strct.n = 9;
  a->u.strct.fields = HR_ARENA_ARRAY(&m->arena, hr_named_attr, 9);
  for (int i = 0; i < 9; i++) {
    a->u.strct.fields[i].name = names[i];
    if (i % 3 == 2) {
      hr_attr *l = hr_attr_new(m, HR_ATTR_ARRAY);
      l->u.array.n = 2;
      l->u.array.items = HR_ARENA_ARRAY(&m->arena, hr_attr *, 2);
      for (int k = 0; k < 2; k++)
        l->u.array.items[k] = int_attr(m, spatial[i / 3][k], HR_DTYPE_INVALID);
      a->u.strct.fields[i].value = l;
    } else {
      a->u.strct.fields[i].value = int_attr(m, scalars[i], HR_DTYPE_INVALID);
    }
  }
  return a;
}

TEST(convolution_dimension_numbers) {
  hr_module *m = new_module();
  CHECK_TEXT(print_attr(conv_dims(m, 0)),
             "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");
  /* Two dims mapped to the same position cannot use the compact form. */
  char *text = print_attr(conv_dims(m, 3));
  CHECK_STR_CONTAINS(text,
                     "#stablehlo.conv<raw input_batch_dimension = 3, input_feature_dimension = 3,");
  free(text);
  hr_module_free(m);
}

/* ---- modules ---- */

/* The module attributes {mhlo.num_partitions = 1 : i32}. */
static void set_module_header(hr_module *m) {
  m->name = "jit_main";
  m->attrs = hr_attr_new(m, HR_ATTR_DICT);
  m->attrs->u.dict.n = 1;
  m->attrs->u.dict.entries = HR_ARENA_ARRAY(&m->arena, hr_named_attr, 1);
  m->attrs->u.dict.entries[0].name = "mhlo.num_partitions";
  m->attrs->u.dict.entries[0].value = int_attr(m, 1, HR_I32);
}

TEST(module_layout_and_value_names) {
  hr_module *m = new_module();
  set_module_header(m);
  hr_type f32 = tensor(HR_F32, 1, 2, 0), i32 = tensor(HR_I32, 0, 0, 0);
  hr_type two[2] = {f32, i32}, three[3] = {f32, i32, f32};
  hr_func *inputs = add_func(m, "inputs", 0, NULL, 3, three);
  inputs->is_private = true;
  float fv[2] = {1.0f, 2.5f};
  int32_t iv = 42;
  hr_op *c1 = add_constant(m, inputs, dense_attr(m, f32, fv, 8, false));
  hr_op *c2 = add_constant(m, inputs, dense_attr(m, i32, &iv, 4, true));
  hr_op *c3 = add_constant(m, inputs, dense_attr(m, f32, fv, 4, true));
  hr_value *rets[3] = {&c1->results[0], &c2->results[0], &c3->results[0]};
  add_op(m, inputs, &inputs->body, HR_OP_FUNC_RETURN, 3, rets, 0, NULL);

  hr_func *mainf = add_func(m, "main", 1, &f32, 1, &f32);
  mainf->arg_attrs = HR_ARENA_ARRAY(&m->arena, hr_attr *, 1);
  mainf->arg_attrs[0] = hr_attr_new(m, HR_ATTR_DICT);
  hr_op *call =
      add_op(m, mainf, &mainf->body, HR_OP_FUNC_CALL, 0, NULL, 2, two); /* ignores one result */
  set_attr(call, "callee", string_attr(m, HR_ATTR_SYMBOL, "inputs", 6));
  hr_value *add_in[2] = {&call->results[0], &mainf->body.args[0]};
  hr_op *add = add_op(m, mainf, &mainf->body, HR_OP_ADD, 2, add_in, 1, &f32);
  hr_value *conv_in[1] = {&call->results[1]};
  add_op(m, mainf, &mainf->body, HR_OP_CONVERT, 1, conv_in, 1, &f32);
  hr_value *ret[1] = {&add->results[0]};
  add_op(m, mainf, &mainf->body, HR_OP_FUNC_RETURN, 1, ret, 0, NULL);

  CHECK_TEXT(print(m),
             "module @jit_main attributes {mhlo.num_partitions = 1 : i32} {\n"
             "  func.func private @inputs() -> (tensor<2xf32>, tensor<i32>, tensor<2xf32>) {\n"
             "    %cst = stablehlo.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>\n"
             "    %c = stablehlo.constant dense<42> : tensor<i32>\n"
             "    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<2xf32>\n"
             "    return %cst, %c, %cst_0 : tensor<2xf32>, tensor<i32>, tensor<2xf32>\n"
             "  }\n"
             "  func.func public @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
             "    %0:2 = call @inputs() : () -> (tensor<2xf32>, tensor<i32>)\n"
             "    %1 = stablehlo.add %0#0, %arg0 : tensor<2xf32>\n"
             "    %2 = stablehlo.convert %0#1 : (tensor<i32>) -> tensor<2xf32>\n"
             "    return %1 : tensor<2xf32>\n"
             "  }\n"
             "}\n");
  hr_module_free(m);
}

TEST(pretty_forms_of_attribute_ops) {
  hr_module *m = new_module();
  hr_type t2 = tensor(HR_F32, 1, 4, 0), t1 = tensor(HR_F32, 1, 2, 0), b = tensor(HR_I1, 1, 4, 0);
  hr_func *f = add_func(m, "main", 1, &t2, 0, NULL);
  hr_value *x = &f->body.args[0];
  hr_value *xx[2] = {x, x};
  hr_op *cmp = add_op(m, f, &f->body, HR_OP_COMPARE, 2, xx, 1, &b);
  set_attr(cmp, "comparison_direction", enum_attr(m, "comparison_direction", "LT"));
  set_attr(cmp, "compare_type", enum_attr(m, "comparison_type", "FLOAT"));
  hr_op *sl = add_op(m, f, &f->body, HR_OP_SLICE, 1, &x, 1, &t1);
  int64_t s[1] = {0}, l[1] = {4}, st[1] = {2};
  set_attr(sl, "start_indices", i64_array(m, 1, s));
  set_attr(sl, "limit_indices", i64_array(m, 1, l));
  set_attr(sl, "strides", i64_array(m, 1, st));
  hr_value *slv = &sl->results[0];
  add_op(m, f, &f->body, HR_OP_BROADCAST_IN_DIM, 1, &slv, 1, &t2); /* no dims attribute */
  hr_op *bc2 = add_op(m, f, &f->body, HR_OP_BROADCAST_IN_DIM, 1, &slv, 1, &t2);
  set_attr(bc2, "broadcast_dimensions", i64_array(m, 1, s));
  hr_op *io = add_op(m, f, &f->body, HR_OP_IOTA, 0, NULL, 1, &t2);
  set_attr(io, "iota_dimension", int_attr(m, 0, HR_I64));
  set_attr(io, "mhlo.sharding", string_attr(m, HR_ATTR_STRING, "", 0));
  hr_op *cc = add_op(m, f, &f->body, HR_OP_CUSTOM_CALL, 2, xx, 0, NULL);
  set_attr(cc, "has_side_effect", hr_attr_new(m, HR_ATTR_BOOL));
  cc->attrs[0].value->u.b = true;
  set_attr(cc, "call_target_name", string_attr(m, HR_ATTR_STRING, "check.expect_eq", 15));
  add_op(m, f, &f->body, HR_OP_FUNC_RETURN, 0, NULL, 0, NULL);

  CHECK_TEXT(
      print(m),
      "module {\n"
      "  func.func public @main(%arg0: tensor<4xf32>) {\n"
      "    %0 = stablehlo.compare  LT, %arg0, %arg0,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>\n"
      "    %1 = stablehlo.slice %arg0 [0:4:2] : (tensor<4xf32>) -> tensor<2xf32>\n"
      "    %2 = \"stablehlo.broadcast_in_dim\"(%1) : (tensor<2xf32>) -> tensor<4xf32>\n"
      "    %3 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<2xf32>) -> tensor<4xf32>\n"
      "    %4 = stablehlo.iota dim = 0 {mhlo.sharding = \"\"} : tensor<4xf32>\n"
      "    stablehlo.custom_call @check.expect_eq(%arg0, %arg0) {has_side_effect = true} : "
      "(tensor<4xf32>, tensor<4xf32>) -> ()\n"
      "    return\n"
      "  }\n"
      "}\n");
  hr_module_free(m);
}

TEST(generic_form_splits_properties_from_other_attributes) {
  hr_module *m = new_module();
  hr_type t = tensor(HR_I32, 1, 5, 0), s = tensor(HR_I32, 0, 0, 0), b = tensor(HR_I1, 0, 0, 0);
  hr_func *f = add_func(m, "main", 1, &t, 1, &t);
  hr_value *x = &f->body.args[0];
  hr_op *sort = add_op(m, f, &f->body, HR_OP_SORT, 1, &x, 1, &t);
  set_attr(sort, "mhlo.frontend_attributes", hr_attr_new(m, HR_ATTR_DICT));
  set_attr(sort, "dimension", int_attr(m, 0, HR_I64));
  add_regions(m, f, sort, 1, 2, s);
  hr_block *body = &sort->regions[0];
  hr_value *args[2] = {&body->args[0], &body->args[1]};
  hr_op *cmp = add_op(m, f, body, HR_OP_COMPARE, 2, args, 1, &b);
  set_attr(cmp, "comparison_direction", enum_attr(m, "comparison_direction", "GT"));
  hr_value *r = &cmp->results[0];
  add_op(m, f, body, HR_OP_RETURN, 1, &r, 0, NULL);
  hr_value *out = &sort->results[0];
  add_op(m, f, &f->body, HR_OP_FUNC_RETURN, 1, &out, 0, NULL);
  CHECK_TEXT(
      print(m),
      "module {\n"
      "  func.func public @main(%arg0: tensor<5xi32>) -> tensor<5xi32> {\n"
      "    %0 = \"stablehlo.sort\"(%arg0) <{dimension = 0 : i64}> ({\n"
      "    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):\n"
      "      %1 = stablehlo.compare  GT, %arg1, %arg2 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %1 : tensor<i1>\n"
      "    }) {mhlo.frontend_attributes = {}} : (tensor<5xi32>) -> tensor<5xi32>\n"
      "    return %0 : tensor<5xi32>\n"
      "  }\n"
      "}\n");
  hr_module_free(m);
}

/* Builds `reduce(x init: c)` over dimension 0 whose body applies `code` (with an extra op when
 * `extra` is set, which rules out the compact form). */
static hr_module *reduce_module(hr_opcode code, bool extra) {
  hr_module *m = new_module();
  hr_type t = tensor(HR_F32, 1, 4, 0), s = tensor(HR_F32, 0, 0, 0);
  hr_func *f = add_func(m, "main", 1, &t, 1, &s);
  float zero = 0.0f;
  hr_op *c = add_constant(m, f, dense_attr(m, s, &zero, 4, true));
  hr_value *in[2] = {&f->body.args[0], &c->results[0]};
  hr_op *red = add_op(m, f, &f->body, HR_OP_REDUCE, 2, in, 1, &s);
  int64_t dims[1] = {0};
  set_attr(red, "dimensions", i64_array(m, 1, dims));
  add_regions(m, f, red, 1, 2, s);
  hr_block *body = &red->regions[0];
  hr_value *args[2] = {&body->args[0], &body->args[1]};
  hr_op *inner = add_op(m, f, body, code, 2, args, 1, &s);
  hr_value *r = &inner->results[0];
  if (extra) {
    hr_value *rr[2] = {r, r};
    r = &add_op(m, f, body, HR_OP_ADD, 2, rr, 1, &s)->results[0];
  }
  add_op(m, f, body, HR_OP_RETURN, 1, &r, 0, NULL);
  hr_value *out = &red->results[0];
  add_op(m, f, &f->body, HR_OP_FUNC_RETURN, 1, &out, 0, NULL);
  return m;
}

TEST(reduce_compact_and_reducer_forms) {
  hr_module *m = reduce_module(HR_OP_MAXIMUM, false);
  char *text = print(m);
  CHECK_STR_CONTAINS(
      text,
      "    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] : "
      "(tensor<4xf32>, tensor<f32>) -> tensor<f32>\n    return %0");
  free(text);
  hr_module_free(m);

  m = reduce_module(HR_OP_SUBTRACT, false); /* not commutative: reducer form */
  CHECK_TEXT(
      print(m),
      "module {\n"
      "  func.func public @main(%arg0: tensor<4xf32>) -> tensor<f32> {\n"
      "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
      "    %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>\n"
      "     reducer(%arg1: tensor<f32>, %arg2: tensor<f32>)  {\n"
      "      %1 = stablehlo.subtract %arg1, %arg2 : tensor<f32>\n"
      "      stablehlo.return %1 : tensor<f32>\n"
      "    }\n"
      "    return %0 : tensor<f32>\n"
      "  }\n"
      "}\n");
  hr_module_free(m);

  m = reduce_module(HR_OP_ADD, true);
  text = print(m);
  CHECK_STR_CONTAINS(
      text,
      " reducer(%arg1: tensor<f32>, %arg2: tensor<f32>)  {\n      %1 = stablehlo.add %arg1, %arg2");
  CHECK_STR_CONTAINS(text, "      %2 = stablehlo.add %1, %1 : tensor<f32>\n");
  free(text);
  hr_module_free(m);
}

TEST(while_regions_share_iter_arg_names) {
  hr_module *m = new_module();
  hr_type s = tensor(HR_I64, 0, 0, 0), b = tensor(HR_I1, 0, 0, 0);
  hr_func *f = add_func(m, "main", 0, NULL, 1, &s);
  int64_t zero = 0, ten = 10;
  hr_op *c0 = add_constant(m, f, dense_attr(m, s, &zero, 8, true));
  hr_op *c1 = add_constant(m, f, dense_attr(m, s, &ten, 8, true));
  hr_value *in[2] = {&c0->results[0], &c1->results[0]};
  hr_type ss[2] = {s, s};
  hr_op *w = add_op(m, f, &f->body, HR_OP_WHILE, 2, in, 2, ss);
  add_regions(m, f, w, 2, 2, s);
  hr_block *cond = &w->regions[0], *body = &w->regions[1];
  hr_op *k = add_op(m, f, cond, HR_OP_CONSTANT, 0, NULL, 1, &s);
  set_attr(k, "value", dense_attr(m, s, &ten, 8, true));
  hr_value *cargs[2] = {&cond->args[0], &k->results[0]};
  hr_op *lt = add_op(m, f, cond, HR_OP_COMPARE, 2, cargs, 1, &b);
  set_attr(lt, "comparison_direction", enum_attr(m, "comparison_direction", "LT"));
  set_attr(lt, "compare_type", enum_attr(m, "comparison_type", "SIGNED"));
  hr_value *lr = &lt->results[0];
  add_op(m, f, cond, HR_OP_RETURN, 1, &lr, 0, NULL);
  hr_op *one = add_op(m, f, body, HR_OP_CONSTANT, 0, NULL, 1, &s);
  set_attr(one, "value", dense_attr(m, s, &zero, 8, true));
  hr_value *bargs[2] = {&body->args[0], &one->results[0]};
  hr_op *inc = add_op(m, f, body, HR_OP_ADD, 2, bargs, 1, &s);
  hr_value *bret[2] = {&inc->results[0], &body->args[1]};
  add_op(m, f, body, HR_OP_RETURN, 2, bret, 0, NULL);
  hr_value *out = &w->results[1];
  add_op(m, f, &f->body, HR_OP_FUNC_RETURN, 1, &out, 0, NULL);
  CHECK_TEXT(
      print(m),
      "module {\n"
      "  func.func public @main() -> tensor<i64> {\n"
      "    %c = stablehlo.constant dense<0> : tensor<i64>\n"
      "    %c_0 = stablehlo.constant dense<10> : tensor<i64>\n"
      "    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_1 = %c_0) : tensor<i64>, tensor<i64>\n"
      "     cond {\n"
      "      %c_2 = stablehlo.constant dense<10> : tensor<i64>\n"
      "      %1 = stablehlo.compare  LT, %iterArg, %c_2,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
      "      stablehlo.return %1 : tensor<i1>\n"
      "    } do {\n"
      "      %c_2 = stablehlo.constant dense<0> : tensor<i64>\n"
      "      %1 = stablehlo.add %iterArg, %c_2 : tensor<i64>\n"
      "      stablehlo.return %1, %iterArg_1 : tensor<i64>, tensor<i64>\n"
      "    }\n"
      "    return %0#1 : tensor<i64>\n"
      "  }\n"
      "}\n");
  hr_module_free(m);
}

/* ---- text round trips through the parser ---- */

/* Programs in stablehlo-opt's spelling covering pretty forms the corpus does not use. */
static const char *const text_cases[] = {
    "module {\n"
    "  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<i64>, %arg3: tensor<2x3xi32>, %arg4: tensor<2x3xi1>, %arg5: !stablehlo.token) -> tensor<2x4xf32> {\n"
    "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
    "    %0 = stablehlo.dot %arg0, %arg1, precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
    "    %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, HIGH] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
    "    %2 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
    "    %3 = stablehlo.reverse %arg0, dims = [1] : tensor<2x3xf32>\n"
    "    %4 = stablehlo.pad %arg0, %cst, low = [0, 1], high = [1, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x4xf32>\n"
    "    %5 = stablehlo.concatenate %arg0, %arg0, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n"
    "    %6 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>\n"
    "    %7 = stablehlo.dynamic_slice %arg0, %arg2, %arg2, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>\n"
    "    %8 = stablehlo.dynamic_update_slice %arg0, %7, %arg2, %arg2 : (tensor<2x3xf32>, tensor<1x2xf32>, tensor<i64>, tensor<i64>) -> tensor<2x3xf32>\n"
    "    %9 = stablehlo.broadcast %arg0, sizes = [4] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>\n"
    "    %10 = stablehlo.clamp %cst, %arg0, %cst : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>\n"
    "    %11 = stablehlo.select %arg4, %arg0, %arg0 : tensor<2x3xi1>, tensor<2x3xf32>\n"
    "    %12 = stablehlo.complex %arg0, %arg0 : tensor<2x3xcomplex<f32>>\n"
    "    %13 = stablehlo.real %12 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>\n"
    "    %14 = stablehlo.is_finite %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi1>\n"
    "    %15 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<2x3xf32>\n"
    "    %16 = stablehlo.tuple %arg0, %arg2 : tuple<tensor<2x3xf32>, tensor<i64>>\n"
    "    %17 = stablehlo.get_tuple_element %16[1] : (tuple<tensor<2x3xf32>, tensor<i64>>) -> tensor<i64>\n"
    "    %18 = stablehlo.after_all %arg5 : !stablehlo.token\n"
    "    %19 = stablehlo.after_all %18, %18 : !stablehlo.token\n"
    "    %20:2 = stablehlo.optimization_barrier %arg0, %arg2 : tensor<2x3xf32>, tensor<i64>\n"
    "    %21 = stablehlo.bitcast_convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi32>\n"
    "    %22 = stablehlo.popcnt %arg3 : tensor<2x3xi32>\n"
    "    %23 = chlo.erf %arg0 : tensor<2x3xf32> -> tensor<2x3xf32>\n"
    "    %24 = chlo.next_after %arg0, %arg0 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>\n"
    "    %25:2 = chlo.top_k(%arg0, k = 2) : tensor<2x3xf32> -> (tensor<2x2xf32>, tensor<2x2xi32>)\n"
    "    %26 = stablehlo.iota dim = 0 : tensor<4xi32>\n"
    "    %27 = stablehlo.einsum %arg0, %arg1, config = \"ab,bc->ac\" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
    "    %28 = stablehlo.replica_id : tensor<ui32>\n"
    "    %29 = stablehlo.partition_id : tensor<ui32>\n"
    "    %30 = stablehlo.compare  EQ, %arg3, %arg3 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>\n"
    "    %31 = stablehlo.slice %arg0 [0:2:2, 1:3] : (tensor<2x3xf32>) -> tensor<1x2xf32>\n"
    "    %32 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>\n"
    "    return %1 : tensor<2x4xf32>\n"
    "  }\n"
    "}\n",
    "module @m attributes {mhlo.frontend_attributes = {a = \"b\"}} {\n"
    "  func.func private @conv(%arg0: tensor<1x4x4x2xf32>, %arg1: tensor<3x3x2x5xf32>) -> tensor<1x2x2x5xf32> attributes {foo} {\n"
    "    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x4x2xf32>, tensor<3x3x2x5xf32>) -> tensor<1x2x2x5xf32>\n"
    "    return %0 : tensor<1x2x2x5xf32>\n"
    "  }\n"
    "  func.func public @misc(%arg0: tensor<4xcomplex<f32>>, %arg1: tensor<f32>, %arg2: tensor<3xi64>, %arg3: tensor<2xui64>, %arg4: tensor<3x3xf32>) -> (tensor<4xcomplex<f32>>, tensor<3x3xf32>) {\n"
    "    %0 = stablehlo.fft %arg0, type =  FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>\n"
    "    %1 = stablehlo.rng %arg1, %arg1, %arg2, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<3xi64>) -> tensor<2x3x4xf32>\n"
    "    %2:2 = stablehlo.rng_bit_generator %arg3, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)\n"
    "    %3 = stablehlo.cholesky %arg4, lower = true : tensor<3x3xf32>\n"
    "    %4 = \"stablehlo.triangular_solve\"(%arg4, %arg4) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>\n"
    "    return %0, %4 : tensor<4xcomplex<f32>>, tensor<3x3xf32>\n"
    "  }\n"
    "  func.func public @regions(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>, %arg2: tensor<i1>) -> tensor<4xf32> {\n"
    "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
    "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %0:2 = stablehlo.reduce(%arg0 init: %cst), (%arg1 init: %c) across dimensions = [0] {mhlo.sharding = \"x\"} : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
    "     reducer(%arg3: tensor<f32>, %arg5: tensor<f32>) (%arg4: tensor<i32>, %arg6: tensor<i32>)  {\n"
    "      %6 = stablehlo.add %arg3, %arg5 : tensor<f32>\n"
    "      %7 = stablehlo.add %arg4, %arg6 : tensor<i32>\n"
    "      stablehlo.return %6, %7 : tensor<f32>, tensor<i32>\n"
    "    }\n"
    "    %1 = \"stablehlo.if\"(%arg2) ({\n"
    "      stablehlo.return %arg0 : tensor<4xf32>\n"
    "    }, {\n"
    "      %6 = stablehlo.negate %arg0 : tensor<4xf32>\n"
    "      stablehlo.return %6 : tensor<4xf32>\n"
    "    }) : (tensor<i1>) -> tensor<4xf32>\n"
    "    %2:2 = \"stablehlo.sort\"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = true}> ({\n"
    "    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<i32>, %arg6: tensor<i32>):\n"
    "      %6 = stablehlo.compare  LT, %arg3, %arg4,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "      stablehlo.return %6 : tensor<i1>\n"
    "    }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)\n"
    "    %3 = \"stablehlo.map\"(%arg0, %arg0) <{dimensions = array<i64: 0>}> ({\n"
    "    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):\n"
    "      %6 = stablehlo.multiply %arg3, %arg4 : tensor<f32>\n"
    "      stablehlo.return %6 : tensor<f32>\n"
    "    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
    "    %4:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<4xf32>, tensor<i32> attributes {mhlo.frontend_attributes = {x = \"y\"}}\n"
    "     cond {\n"
    "      %6 = stablehlo.compare  LT, %iterArg_0, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "      stablehlo.return %6 : tensor<i1>\n"
    "    } do {\n"
    "      stablehlo.return %iterArg, %iterArg_0 : tensor<4xf32>, tensor<i32>\n"
    "    }\n"
    "    stablehlo.custom_call @foo(%arg0) {api_version = 2 : i32, backend_config = \"cfg\", mhlo.sharding = \"{replicated}\"} : (tensor<4xf32>) -> ()\n"
    "    %5 = stablehlo.custom_call @\"bar baz\"(%arg0, %arg1) {backend_config = {x = 1 : i64}} : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>\n"
    "    return %4#0 : tensor<4xf32>\n"
    "  }\n"
    "}\n",
    "module {\n"
    "  func.func private @add_n.impl(%arg0: tensor<f32>) -> tensor<f32> {\n"
    "    return %arg0 : tensor<f32>\n"
    "  }\n"
    "  func.func public @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
    "    %0 = stablehlo.composite \"stablehlo.add_n\" %arg0 {composite_attributes = {n = 1 : i64}, decomposition = @add_n.impl} : (tensor<f32>) -> tensor<f32>\n"
    "    return %0 : tensor<f32>\n"
    "  }\n"
    "}\n",
};

/* Parses `text`, prints it, and checks the output is the input, and that printing the reparsed
 * output is stable. */
static void check_text_round_trip(const char *text) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse("case.mlir", text, strlen(text), NULL, &m);
  if (s) {
    fprintf(stderr, "parse failed: %s\n", hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
    return;
  }
  char *once = print(m);
  hr_module_free(m);
  CHECK_TEXT(once ? strdup(once) : NULL, text);
  if (!once) return;
  s = hr_module_parse("printed.mlir", once, strlen(once), NULL, &m);
  CHECK_OK(s);
  if (!s) {
    CHECK_TEXT(print(m), once);
    hr_module_free(m);
  }
  free(once);
}

TEST(text_round_trips_outside_the_corpus) {
  for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++)
    check_text_round_trip(text_cases[i]);
}

TEST(malformed_modules_are_rejected_without_output) {
  hr_module *m = new_module();
  hr_type t = tensor(HR_F32, 1, 2, 0);
  hr_func *a = add_func(m, "a", 1, &t, 0, NULL);
  hr_func *b = add_func(m, "b", 1, &t, 0, NULL);
  hr_value *foreign = &a->body.args[0];
  add_op(m, b, &b->body, HR_OP_FUNC_RETURN, 1, &foreign, 0, NULL);
  add_op(m, a, &a->body, HR_OP_FUNC_RETURN, 0, NULL, 0, NULL);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_strbuf_puts(&sb, "keep");
  hr_status s = hr_module_print_to(m, &sb);
  CHECK(s != NULL);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(hr_status_message(s),
                     "@b: func.return: an operand is not a value of this function");
  hr_status_free(s);
  /* With a source position, the error names it. */
  b->body.ops[0]->loc = (hr_loc){"x.mlir", 3, 5};
  s = hr_module_print_to(m, &sb);
  CHECK_STR_CONTAINS(hr_status_message(s), "x.mlir:3:5: func.return: an operand is not a value");
  CHECK(strcmp(sb.data, "keep") == 0);
  hr_status_free(s);

  /* A value id beyond the function's count. */
  b->body.ops[0]->operands[0] = &b->body.args[0];
  b->body.args[0].id = 7;
  s = hr_module_print_to(m, &sb);
  CHECK(s != NULL);
  CHECK_STR_CONTAINS(hr_status_message(s), "value id 7");
  hr_status_free(s);
  b->body.args[0].id = 0;

  /* A dense attribute whose byte count does not match its type. */
  hr_attr *bad = dense_attr(m, t, "abcd", 4, false);
  add_constant(m, b, bad);
  s = hr_module_print_to(m, &sb);
  CHECK(s != NULL);
  CHECK_STR_CONTAINS(hr_status_message(s), "dense attribute holds 4 bytes for 2 elements");
  hr_status_free(s);
  CHECK(strcmp(sb.data, "keep") == 0);
  hr_strbuf_free(&sb);
  hr_module_free(m);
}

int main(void) {
  RUN(floats_use_the_short_form_when_it_round_trips);
  RUN(floats_fall_back_to_round_trip_digits);
  RUN(floats_without_a_decimal_spelling_are_hex);
  RUN(dense_attributes);
  RUN(large_dense_attributes_are_hex);
  RUN(scalar_and_composite_attributes);
  RUN(convolution_dimension_numbers);
  RUN(module_layout_and_value_names);
  RUN(pretty_forms_of_attribute_ops);
  RUN(generic_form_splits_properties_from_other_attributes);
  RUN(reduce_compact_and_reducer_forms);
  RUN(while_regions_share_iter_arg_names);
  RUN(text_round_trips_outside_the_corpus);
  RUN(malformed_modules_are_rejected_without_output);
  TEST_MAIN_END();
}

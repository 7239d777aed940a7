/* Tests for the StableHLO text parser (src/ir/parse*.c): structure, every syntax family, the
 * equivalence of pretty and generic op forms, limits, and error positions. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/numeric.h"
#include "base/strbuf.h"
#include "ir/ir.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static hr_status parse_text(const char *text, hr_module **m) {
  return hr_module_parse("t.mlir", text, strlen(text), NULL, m);
}

/* Parses text that must be accepted; returns NULL (and records a failure) otherwise. */
static hr_module *parse_ok_at(const char *text, int line) {
  hr_module *m = NULL;
  hr_status s = parse_text(text, &m);
  if (s) {
    fprintf(stderr, "%s:%d: parse failed: %s\n", __FILE__, line, hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
  }
  return m;
}
#define PARSE_OK(text) parse_ok_at((text), __LINE__)

/* Checks that parsing fails with `code` and a message containing `substr`. */
static void expect_error_at(const char *text, size_t len, hr_code code, const char *substr,
                            int line) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse("t.mlir", text, len, NULL, &m);
  if (!s) {
    fprintf(stderr, "%s:%d: expected an error containing \"%s\"\n", __FILE__, line, substr);
    test_failures_++;
    hr_module_free(m);
    return;
  }
  if (hr_status_code(s) != code || !strstr(hr_status_message(s), substr)) {
    fprintf(stderr, "%s:%d: expected %s containing \"%s\", got %s: %s\n", __FILE__, line,
            hr_code_name(code), substr, hr_code_name(hr_status_code(s)), hr_status_message(s));
    test_failures_++;
  }
  if (m) {
    fprintf(stderr, "%s:%d: *out not NULL on error\n", __FILE__, line);
    test_failures_++;
  }
  hr_status_free(s);
}
#define EXPECT_ERROR(text, code, substr) expect_error_at((text), strlen(text), (code), (substr), __LINE__)

/* Finds the first op with `code` in a block, searching nested regions depth-first. */
static const hr_op *find_in_block(const hr_block *b, hr_opcode code) {
  for (int i = 0; i < b->n_ops; i++) {
    const hr_op *op = b->ops[i];
    if (op->code == code) return op;
    for (int r = 0; r < op->n_regions; r++) {
      const hr_op *found = find_in_block(&op->regions[r], code);
      if (found) return found;
    }
  }
  return NULL;
}

static const hr_op *find_op(const hr_module *m, hr_opcode code) {
  for (int f = 0; m && f < m->n_funcs; f++) {
    const hr_op *op = find_in_block(&m->funcs[f]->body, code);
    if (op) return op;
  }
  return NULL;
}

/* Whether two ops carry the same attributes (compared by name). */
static bool same_attrs(const hr_op *a, const hr_op *b) {
  if (!a || !b || a->n_attrs != b->n_attrs) return false;
  for (int i = 0; i < a->n_attrs; i++)
    if (!hr_attr_equal(a->attrs[i].value, hr_op_attr(b, a->attrs[i].name))) return false;
  return true;
}

/* Parses two programs that must hold the op `code` with equal attributes, result types and
 * region structure (the pretty and generic spellings of the same op). */
static void check_same_op_at(const char *pretty, const char *generic, hr_opcode code, int line) {
  hr_module *a = parse_ok_at(pretty, line), *b = parse_ok_at(generic, line);
  const hr_op *x = find_op(a, code), *y = find_op(b, code);
  if (!x || !y || !same_attrs(x, y) || x->n_results != y->n_results ||
      x->n_regions != y->n_regions || x->n_operands != y->n_operands) {
    fprintf(stderr, "%s:%d: pretty and generic forms of %s differ\n", __FILE__, line,
            hr_opcode_name(code));
    test_failures_++;
  } else {
    for (int i = 0; i < x->n_results; i++)
      if (!hr_type_equal(&x->results[i].type, &y->results[i].type)) {
        fprintf(stderr, "%s:%d: result %d types differ\n", __FILE__, line, i);
        test_failures_++;
      }
  }
  hr_module_free(a);
  hr_module_free(b);
}
#define CHECK_SAME_OP(pretty, generic, code) check_same_op_at((pretty), (generic), (code), __LINE__)

/* The value of a DENSE attribute's element i as a double (float types) or integer. */
static double dense_f(const hr_attr *a, int64_t i) {
  const void *p = hr_dense_element(a, i);
  switch (a->u.dense.type.dtype) {
    case HR_F16: { uint16_t h; memcpy(&h, p, 2); return hr_f16_to_f64(h); }
    case HR_BF16: { uint16_t h; memcpy(&h, p, 2); return hr_bf16_to_f64(h); }
    case HR_F32: { float f; memcpy(&f, p, 4); return f; }
    default: { double d; memcpy(&d, p, 8); return d; }
  }
}

static int64_t dense_i(const hr_attr *a, int64_t i) {
  const void *p = hr_dense_element(a, i);
  switch (a->u.dense.type.dtype) {
    case HR_I1: case HR_U2: case HR_U4: case HR_U8: return *(const uint8_t *)p;
    case HR_I2: case HR_I4: case HR_I8: return *(const int8_t *)p;
    case HR_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case HR_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case HR_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case HR_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

/* Parses `func.func @main() -> T { %0 = stablehlo.constant LITERAL; return }` and returns the
 * constant's value attribute in *value (module kept in *m). */
static hr_module *parse_constant_at(const char *literal, const char *type, const hr_attr **value,
                                    int line) {
  char buf[4096];
  snprintf(buf, sizeof buf,
           "func.func @main() -> %s {\n  %%0 = stablehlo.constant %s : %s\n  return %%0 : %s\n}\n",
           type, literal, type, type);
  hr_module *m = parse_ok_at(buf, line);
  const hr_op *op = find_op(m, HR_OP_CONSTANT);
  *value = op ? hr_op_attr(op, "value") : NULL;
  if (!*value) test_failures_++;
  return m;
}
#define PARSE_CONSTANT(lit, type, value) parse_constant_at((lit), (type), (value), __LINE__)

/* Parses a module whose @main has attribute dictionary `dict` and returns it. */
static hr_module *parse_func_attrs_at(const char *dict, const hr_attr **attrs, int line) {
  char buf[4096];
  snprintf(buf, sizeof buf, "func.func @main() attributes %s {\n  return\n}\n", dict);
  hr_module *m = parse_ok_at(buf, line);
  *attrs = m ? m->funcs[0]->attrs : NULL;
  if (!*attrs) test_failures_++;
  return m;
}
#define PARSE_ATTRS(dict, attrs) parse_func_attrs_at((dict), (attrs), __LINE__)

/* Checks an error for a function-attribute dictionary. */
static void expect_attr_error_at(const char *dict, hr_code code, const char *substr, int line) {
  char buf[4096];
  snprintf(buf, sizeof buf, "func.func @main() attributes %s {\n  return\n}\n", dict);
  expect_error_at(buf, strlen(buf), code, substr, line);
}
#define EXPECT_ATTR_ERROR(dict, code, substr) expect_attr_error_at((dict), (code), (substr), __LINE__)

/* ---------------------------------------------------------------------------------------------- */
/* Structure                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

static const char *const k_add_module =
    "// a comment\n"
    "module @jit_f attributes {mhlo.num_partitions = 1 : i32} {\n"
    "  func.func public @main(%arg0: tensor<2x3xf32> {jax.arg_info = \"x\"}, %arg1: tensor<2x3xf32>)\n"
    "      -> (tensor<2x3xf32> {jax.result_info = \"\"}) {\n"
    "    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>\n"
    "    %1 = \"stablehlo.multiply\"(%0, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "    return %1 : tensor<2x3xf32>\n"
    "  }\n"
    "  func.func private @helper() {\n"
    "    return\n"
    "  }\n"
    "}\n";

TEST(module_structure) {
  hr_module *m = PARSE_OK(k_add_module);
  if (!m) return;
  CHECK(m->name && strcmp(m->name, "jit_f") == 0);
  CHECK(m->attrs && m->attrs->kind == HR_ATTR_DICT);
  const hr_attr *np = hr_attr_field(m->attrs, "mhlo.num_partitions");
  CHECK(np && np->kind == HR_ATTR_INT && np->u.i.value == 1 && np->u.i.dtype == HR_I32);
  CHECK_EQ_INT(m->n_funcs, 2);
  const hr_func *f = hr_module_find_func(m, "main");
  CHECK(f && !f->is_private);
  CHECK(hr_module_find_func(m, "helper") && hr_module_find_func(m, "helper")->is_private);
  if (!f) goto done;
  CHECK_EQ_INT(f->n_args, 2);
  CHECK_EQ_INT(f->body.n_args, 2);
  CHECK_EQ_INT(f->n_results, 1);
  CHECK(f->arg_attrs && f->arg_attrs[0] && !f->arg_attrs[1]);
  CHECK(f->result_attrs && hr_attr_field(f->result_attrs[0], "jax.result_info"));
  CHECK_EQ_INT(f->body.n_ops, 3);
  CHECK_EQ_INT(f->n_values, 4);
  CHECK_EQ_INT(f->loc.line, 3);
  const hr_op *add = f->body.ops[0], *mul = f->body.ops[1], *ret = f->body.ops[2];
  CHECK_EQ_INT(add->code, HR_OP_ADD);
  CHECK_EQ_INT(mul->code, HR_OP_MULTIPLY);
  CHECK_EQ_INT(ret->code, HR_OP_FUNC_RETURN);
  CHECK(add->operands[0] == &f->body.args[0] && add->operands[1] == &f->body.args[1]);
  CHECK(mul->operands[0] == &add->results[0]);
  CHECK(ret->operands[0] == &mul->results[0]);
  CHECK(add->parent == &f->body && f->body.func == f && f->body.parent_op == NULL);
  CHECK(add->results[0].def == add && add->results[0].index == 0);
  CHECK(strcmp(add->results[0].name, "0") == 0 && strcmp(f->body.args[1].name, "arg1") == 0);
  CHECK(f->body.args[1].owner == &f->body && f->body.args[1].index == 1);
  CHECK_EQ_INT(add->loc.line, 5);
  CHECK_EQ_INT(add->loc.col, 5);
  CHECK(strcmp(add->loc.file, "t.mlir") == 0);
  CHECK(add->debug_loc == NULL);
  int64_t dims[2] = {2, 3};
  hr_type want = hr_tensor_type(HR_F32, 2, dims);
  CHECK(hr_type_equal(&add->results[0].type, &want));
  /* Ids are dense and unique within the function. */
  bool seen[4] = {false};
  const hr_value *vals[4] = {&f->body.args[0], &f->body.args[1], &add->results[0], &mul->results[0]};
  for (int i = 0; i < 4; i++)
    if (vals[i]->id < 4) seen[vals[i]->id] = true;
  CHECK(seen[0] && seen[1] && seen[2] && seen[3]);
done:
  hr_module_free(m);
}

TEST(bare_functions_and_single_results) {
  hr_module *m = PARSE_OK(
      "func.func @main(%x: tensor<f32>) -> tensor<f32> {\n"
      "  %y = stablehlo.negate %x : tensor<f32>\n"
      "  func.return %y : tensor<f32>\n"
      "}\n"
      "func.func @other() -> () {\n  return\n}\n");
  if (m) {
    CHECK_EQ_INT(m->n_funcs, 2);
    CHECK(m->name == NULL && m->attrs == NULL);
    CHECK_EQ_INT(m->funcs[0]->n_results, 1);
    CHECK_EQ_INT(m->funcs[1]->n_results, 0);
    CHECK(m->funcs[0]->arg_attrs == NULL && m->funcs[0]->result_attrs == NULL);
  }
  hr_module_free(m);
  /* Empty dictionaries are fine (and empty DICT attributes). */
  m = PARSE_OK("module attributes {} {\n  func.func @f() attributes {} {\n    return\n  }\n}\n");
  if (m) CHECK(m->attrs && m->attrs->u.dict.n == 0 && m->funcs[0]->attrs->u.dict.n == 0);
  hr_module_free(m);
  /* An empty input is an empty module. */
  m = PARSE_OK("// nothing\n");
  if (m) CHECK_EQ_INT(m->n_funcs, 0);
  hr_module_free(m);
}

TEST(multi_result_values) {
  hr_module *m = PARSE_OK(
      "func.func @main(%a: tensor<4xf32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xf32>) {\n"
      "  %0:2 = \"stablehlo.sort\"(%a, %b) <{dimension = 0 : i64, is_stable = true}> ({\n"
      "  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>):\n"
      "    %c = stablehlo.compare  LT, %x, %y,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)\n"
      "  %p, %q = stablehlo.optimization_barrier %0#1, %0 : tensor<4xi32>, tensor<4xf32>\n"
      "  return %p, %q : tensor<4xi32>, tensor<4xf32>\n"
      "}\n");
  const hr_op *sort = find_op(m, HR_OP_SORT), *bar = find_op(m, HR_OP_OPTIMIZATION_BARRIER);
  CHECK(sort && bar);
  if (sort && bar) {
    CHECK_EQ_INT(sort->n_results, 2);
    CHECK(bar->operands[0] == &sort->results[1] && bar->operands[1] == &sort->results[0]);
    CHECK(strcmp(sort->results[1].name, "0") == 0);
    CHECK_EQ_INT(sort->n_regions, 1);
    const hr_block *r = &sort->regions[0];
    CHECK_EQ_INT(r->n_args, 4);
    CHECK(r->parent_op == sort && r->ops[0]->parent == r && r->args[3].owner == r);
    CHECK(strcmp(bar->results[1].name, "q") == 0);
  }
  hr_module_free(m);
}

TEST(region_scoping) {
  /* Nested regions see enclosing values; sibling regions may reuse names. */
  hr_module *m = PARSE_OK(
      "func.func @main(%p: tensor<i1>, %v: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = \"stablehlo.if\"(%p) ({\n"
      "    %t = stablehlo.negate %v : tensor<f32>\n"
      "    stablehlo.return %t : tensor<f32>\n"
      "  }, {\n"
      "    %t = stablehlo.abs %v : tensor<f32>\n"
      "    stablehlo.return %t : tensor<f32>\n"
      "  }) : (tensor<i1>) -> tensor<f32>\n"
      "  return %0 : tensor<f32>\n"
      "}\n");
  const hr_op *op = find_op(m, HR_OP_IF);
  CHECK(op && op->n_regions == 2 && op->regions[1].n_ops == 2);
  if (op) CHECK(op->regions[0].ops[0]->operands[0] == &m->funcs[0]->body.args[1]);
  if (m) CHECK_EQ_INT(m->funcs[0]->n_values, 5);
  hr_module_free(m);
  /* A region's values are not visible after it. */
  EXPECT_ERROR(
      "func.func @main(%p: tensor<i1>, %v: tensor<f32>) -> tensor<f32> {\n"
      "  %0 = \"stablehlo.if\"(%p) ({\n"
      "    %t = stablehlo.negate %v : tensor<f32>\n"
      "    stablehlo.return %t : tensor<f32>\n"
      "  }, {\n"
      "    stablehlo.return %v : tensor<f32>\n"
      "  }) : (tensor<i1>) -> tensor<f32>\n"
      "  return %t : tensor<f32>\n"
      "}\n",
      HR_PARSE_ERROR, "t.mlir:8:10: use of undefined value '%t'");
}

TEST(value_errors) {
  EXPECT_ERROR("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %0 = stablehlo.add %a, %1 : tensor<f32>\n"
               "  %1 = stablehlo.abs %a : tensor<f32>\n"
               "  return %0 : tensor<f32>\n}\n",
               HR_PARSE_ERROR, "t.mlir:2:26: use of undefined value '%1'");
  EXPECT_ERROR("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %0 = stablehlo.abs %a : tensor<f32>\n"
               "  %0 = stablehlo.abs %a : tensor<f32>\n"
               "  return %0 : tensor<f32>\n}\n",
               HR_PARSE_ERROR, "t.mlir:3:3: redefinition of SSA value '%0'");
  EXPECT_ERROR("func.func @main(%a: tensor<f32>, %a: tensor<f32>) {\n  return\n}\n",
               HR_PARSE_ERROR, "redefinition of SSA value '%a'");
  EXPECT_ERROR("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %0 = stablehlo.abs %a : tensor<f32>\n"
               "  return %0#1 : tensor<f32>\n}\n",
               HR_PARSE_ERROR, "t.mlir:3:10: result number 1 of '%0' is out of range");
  EXPECT_ERROR("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %0:2 = stablehlo.abs %a : tensor<f32>\n"
               "  return %0 : tensor<f32>\n}\n",
               HR_PARSE_ERROR, "t.mlir:2:3: operation has 1 results but 2 names are bound");
  /* Region arguments may not shadow outer names. */
  EXPECT_ERROR("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %0 = stablehlo.reduce(%a init: %a) across dimensions = [] : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
               "   reducer(%a: tensor<f32>, %b: tensor<f32>) {\n"
               "    stablehlo.return %a : tensor<f32>\n  }\n"
               "  return %0 : tensor<f32>\n}\n",
               HR_PARSE_ERROR, "redefinition of SSA value '%a'");
  EXPECT_ERROR("func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n", HR_PARSE_ERROR,
               "t.mlir:4:11: redefinition of function '@f'");
}

/* ---------------------------------------------------------------------------------------------- */
/* Types                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

TEST(types) {
  hr_module *m = PARSE_OK(
      "func.func @main(%a: tensor<?x3x0xcomplex<f64>>, %b: !stablehlo.token, %c: tensor<ui4>,\n"
      "    %d: tuple<tensor<2xbf16>, tuple<>, !stablehlo.token>) {\n  return\n}\n");
  if (m) {
    const hr_value *a = m->funcs[0]->body.args;
    CHECK_EQ_INT(a[0].type.kind, HR_TYPE_TENSOR);
    CHECK_EQ_INT(a[0].type.dtype, HR_C128);
    CHECK_EQ_INT(a[0].type.shape.rank, 3);
    CHECK_EQ_INT(a[0].type.shape.dims[0], HR_DYNAMIC);
    CHECK_EQ_INT(a[0].type.shape.dims[2], 0);
    CHECK_EQ_INT(a[1].type.kind, HR_TYPE_TOKEN);
    CHECK_EQ_INT(a[2].type.dtype, HR_U4);
    CHECK_EQ_INT(a[2].type.shape.rank, 0);
    CHECK_EQ_INT(a[3].type.kind, HR_TYPE_TUPLE);
    CHECK_EQ_INT(a[3].type.n_elems, 3);
    CHECK_EQ_INT(a[3].type.elems[1].kind, HR_TYPE_TUPLE);
    CHECK_EQ_INT(a[3].type.elems[1].n_elems, 0);
    CHECK_EQ_INT(a[3].type.elems[0].dtype, HR_BF16);
  }
  hr_module_free(m);
}

/* The element types of the spec beyond the common ones, quantized types, bounds, futures and
 * buffers: read into the IR and printed back as MLIR prints them. */
TEST(spec_types_parse_and_print) {
  static const char *const types[] = {
      "tensor<2xf8E4M3FN>", "tensor<2xf8E5M2>", "tensor<2xf8E4M3FNUZ>", "tensor<2xf8E5M2FNUZ>",
      "tensor<2xf8E4M3B11FNUZ>", "tensor<2xf8E3M4>", "tensor<2xf8E4M3>", "tensor<2xf8E8M0FNU>",
      "tensor<2xf4E2M1FN>", "tensor<2xf6E2M3FN>", "tensor<2xf6E3M2FN>", "tensor<2xtf32>", "tensor<2xindex>",
      "tensor<2x!quant.uniform<i8:f32, 3.400000e+01:16>>", "tensor<2x!quant.uniform<u8:bf16, 5.000000e-01>>",
      "tensor<2x!quant.uniform<i8<-127:127>:f32:0, {1.000000e-01:-30,5.000000e-01}>>",
      "tensor<?x2xf32, #stablehlo.type_extensions<bounds = [16, ?]>>", "!stablehlo.future<tensor<f32>, tensor<i32>>",
      "memref<2xf32>"};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
    char text[512];
    snprintf(text, sizeof text, "func.func private @f(%s) -> %s\n", types[i], types[i]);
    hr_module *m = PARSE_OK(text);
    if (!m) continue;
    const hr_func *f = m->funcs[0];
    CHECK(f->is_declaration && f->n_args == 1);
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    hr_type_print(&sb, &f->body.args[0].type);
    if (!sb.data || strcmp(sb.data, types[i]) != 0) {
      fprintf(stderr, "type %s printed as %s\n", types[i], sb.data ? sb.data : "(nothing)");
      test_failures_++;
    }
    CHECK(hr_type_equal(&f->body.args[0].type, &f->result_types[0]));
    hr_strbuf_free(&sb);
    hr_module_free(m);
  }
  /* a quantized type's parameters */
  hr_module *m = PARSE_OK("func.func private @f(tensor<2x!quant.uniform<i8<-127:127>:f32:0, {0.1:-30,0.5}>>)\n");
  const hr_quant *q = m ? m->funcs[0]->body.args[0].type.quant : NULL;
  CHECK(q && q->storage == HR_I8 && q->expressed == HR_F32 && q->axis == 0 && q->n == 2 && q->storage_min == -127);
  CHECK(q && q->scales[0] == 0.1 && q->zero_points[0] == -30 && q->zero_points[1] == 0);
  CHECK(m && m->funcs[0]->body.args[0].type.dtype == HR_I8);
  hr_module_free(m);
  /* element types and none as attribute values */
  m = PARSE_OK("func.func @f() attributes {a = tf32, b = none, c = f8E4M3FN} {\n  return\n}\n");
  const hr_attr *attrs = m ? m->funcs[0]->attrs : NULL;
  CHECK(attrs && hr_attr_field(attrs, "a")->u.type.kind == HR_TYPE_ELEMENT && hr_attr_field(attrs, "a")->u.type.dtype == HR_TF32);
  CHECK(attrs && hr_attr_field(attrs, "b")->u.type.kind == HR_TYPE_NONE);
  hr_module_free(m);
}

TEST(type_errors) {
  EXPECT_ERROR("func.func @main(%a: tensor<2xsi32>) {\n  return\n}\n", HR_UNIMPLEMENTED,
               "t.mlir:1:30: element type 'si32' is not supported");
  EXPECT_ERROR("func.func @main(%a: tensor<2xf80>) {\n  return\n}\n", HR_UNIMPLEMENTED, "element type 'f80'");
  EXPECT_ERROR("func.func @main(%a: tensor<2x!quant.any<i8:f32>>) {\n  return\n}\n", HR_UNIMPLEMENTED,
               "!quant.uniform");
  EXPECT_ERROR("func.func @main(%a: tensor<?xf32, #stablehlo.bounds<4>>) {\n  return\n}\n",
               HR_UNIMPLEMENTED, "tensor encoding '#stablehlo.bounds' is not supported");
  EXPECT_ERROR("func.func @main(%a: tensor<2x!quant.uniform<i8:f32, 1.0:200>>) {\n  return\n}\n", HR_PARSE_ERROR,
               "zero point 200 is outside the storage range [-128, 127]");
  EXPECT_ERROR("func.func @main(%a: tensor<3x!quant.uniform<i8:f32:0, {1.0, 2.0}>>) {\n  return\n}\n",
               HR_PARSE_ERROR, "per-axis scales do not match");
  EXPECT_ERROR("func.func @main(%a: tensor<2xf32, #stablehlo.type_extensions<bounds = [4]>>) {\n  return\n}\n",
               HR_PARSE_ERROR, "dimension 0 is static and cannot have a bound");
  EXPECT_ERROR("func.func @main(%a: tensor<*xf32>) {\n  return\n}\n", HR_UNIMPLEMENTED,
               "unranked");
  EXPECT_ERROR("func.func @main(%a: f32) {\n  return\n}\n", HR_UNIMPLEMENTED, "type 'f32'");
  EXPECT_ERROR("func.func @main(%a: tensor<2x3>) {\n  return\n}\n", HR_PARSE_ERROR,
               "t.mlir:1:31: expected 'x' after a dimension size");
  EXPECT_ERROR("func.func @main(%a: tensor<2x>) {\n  return\n}\n", HR_PARSE_ERROR,
               "t.mlir:1:30: expected an element type, found '>'");
  EXPECT_ERROR("func.func @main(%a: tensor<2 3xf32>) {\n  return\n}\n", HR_PARSE_ERROR,
               "t.mlir:1:29: expected 'x' after a dimension size");
  EXPECT_ERROR("func.func @main(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) {\n  return\n}\n",
               HR_RESOURCE_EXHAUSTED, "rank exceeds");
  EXPECT_ERROR("func.func @main(%a: tensor<99999999999x99999999999xf32>) {\n  return\n}\n",
               HR_RESOURCE_EXHAUSTED, "t.mlir:1:21: type tensor<99999999999x99999999999xf32> has too many elements");
  EXPECT_ERROR("func.func @main(%a: tensor<99999999999999999999xf32>) {\n  return\n}\n",
               HR_RESOURCE_EXHAUSTED, "dimension size is too large");
  EXPECT_ERROR("func.func @main(%a: tensor<complex<i32>>) {\n  return\n}\n", HR_UNIMPLEMENTED,
               "complex<i32>");
}

/* ---------------------------------------------------------------------------------------------- */
/* Attributes                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

TEST(scalar_attributes) {
  const hr_attr *d;
  hr_module *m = PARSE_ATTRS(
      "{a = 1 : i64, b = -5, c = 255 : i8, d = 18446744073709551615 : ui64, e = 1.5 : f32,"
      " f = 0x7FC00000 : f32, g = true, h, i = unit, j = 3 : index, k = 0.1 : f16, l = 2.5,"
      " \"quoted key\" = 1 : i1, m = -9223372036854775808, n = 0x3C00 : f16, o = 2 : f32}",
      &d);
  if (!d) return;
  const hr_attr *a = hr_attr_field(d, "a");
  CHECK(a && a->kind == HR_ATTR_INT && a->u.i.value == 1 && a->u.i.dtype == HR_I64);
  a = hr_attr_field(d, "b");
  CHECK(a && a->u.i.value == -5 && a->u.i.dtype == HR_DTYPE_INVALID);
  a = hr_attr_field(d, "c");
  CHECK(a && a->u.i.value == -1 && a->u.i.dtype == HR_I8); /* signless: 255 is the bits of -1 */
  a = hr_attr_field(d, "d");
  CHECK(a && (uint64_t)a->u.i.value == UINT64_MAX && a->u.i.dtype == HR_U64);
  a = hr_attr_field(d, "e");
  CHECK(a && a->kind == HR_ATTR_FLOAT && a->u.f.value == 1.5 && a->u.f.dtype == HR_F32);
  a = hr_attr_field(d, "f");
  CHECK(a && a->kind == HR_ATTR_FLOAT && isnan(a->u.f.value));
  a = hr_attr_field(d, "g");
  CHECK(a && a->kind == HR_ATTR_BOOL && a->u.b);
  CHECK(hr_attr_field(d, "h") && hr_attr_field(d, "h")->kind == HR_ATTR_UNIT);
  CHECK(hr_attr_field(d, "i") && hr_attr_field(d, "i")->kind == HR_ATTR_UNIT);
  a = hr_attr_field(d, "j");
  CHECK(a && a->u.i.is_index && a->u.i.value == 3);
  a = hr_attr_field(d, "k");
  CHECK(a && a->u.f.value == hr_f16_to_f64(hr_f64_to_f16(0.1)) && a->u.f.value != 0.1);
  a = hr_attr_field(d, "l");
  CHECK(a && a->kind == HR_ATTR_FLOAT && a->u.f.dtype == HR_DTYPE_INVALID && a->u.f.value == 2.5);
  a = hr_attr_field(d, "quoted key");
  CHECK(a && a->u.i.value == 1 && a->u.i.dtype == HR_I1);
  a = hr_attr_field(d, "m");
  CHECK(a && a->u.i.value == INT64_MIN);
  a = hr_attr_field(d, "n");
  CHECK(a && a->u.f.value == 1.0 && a->u.f.dtype == HR_F16);
  a = hr_attr_field(d, "o");
  CHECK(a && a->kind == HR_ATTR_FLOAT && a->u.f.value == 2.0);
  hr_module_free(m);
}

TEST(scalar_attribute_errors) {
  EXPECT_ATTR_ERROR("{a = 7 : i1}", HR_PARSE_ERROR, "value out of range for type i1");
  EXPECT_ATTR_ERROR("{a = 256 : i8}", HR_PARSE_ERROR, "t.mlir:1:35: value out of range for type i8");
  EXPECT_ATTR_ERROR("{a = -129 : i8}", HR_PARSE_ERROR, "out of range for type i8");
  EXPECT_ATTR_ERROR("{a = -1 : ui8}", HR_PARSE_ERROR, "negative value for unsigned type ui8");
  EXPECT_ATTR_ERROR("{a = 18446744073709551616 : ui64}", HR_PARSE_ERROR, "does not fit 64 bits");
  EXPECT_ATTR_ERROR("{a = 9223372036854775808}", HR_PARSE_ERROR, "out of the int64 range");
  EXPECT_ATTR_ERROR("{a = 1.5 : i32}", HR_PARSE_ERROR, "floating-point literal for integer type");
  EXPECT_ATTR_ERROR("{a = 0x1FFFF : f16}", HR_PARSE_ERROR, "does not fit 16 bits");
  EXPECT_ATTR_ERROR("{a = 1, a = 2}", HR_PARSE_ERROR, "t.mlir:1:30: duplicate attribute name 'a'");
  EXPECT_ATTR_ERROR("{a = }", HR_PARSE_ERROR, "expected an attribute value");
  EXPECT_ATTR_ERROR("{a = @f::@g}", HR_UNIMPLEMENTED, "nested symbol references");
  EXPECT_ATTR_ERROR("{a = dense_resource<blob> : tensor<2xf32>}", HR_UNIMPLEMENTED,
                    "'dense_resource' attributes are not supported");
  EXPECT_ATTR_ERROR("{a = #tt.layout<@mesh, [{}]>}", HR_UNIMPLEMENTED,
                    "t.mlir:1:35: attribute '#tt.layout<...>' is not supported");
  EXPECT_ATTR_ERROR("{a = #sdy.sharding<@mesh, [{}>]>}", HR_PARSE_ERROR, "the matching closing bracket");
  EXPECT_ATTR_ERROR("{a = #sdy.sharding<@mesh, [{}]}", HR_PARSE_ERROR, "the matching closing bracket");
  EXPECT_ATTR_ERROR("{a = #map}", HR_UNIMPLEMENTED, "attribute aliases ('#map')");
}

TEST(strings_symbols_arrays_dicts) {
  const hr_attr *d;
  hr_module *m = PARSE_ATTRS(
      "{s = \"a\\\"b\\\\c\\n\\t\\41\\00z\", y = @check.expect_close, q = @\"odd name\","
      " arr = [1, \"x\", [true]], dict = {inner = {k = 2 : i32}}, t = tensor<2xf32>, e = i64}",
      &d);
  if (!d) return;
  const hr_attr *s = hr_attr_field(d, "s");
  CHECK(s && s->kind == HR_ATTR_STRING && s->u.str.len == 10);
  if (s) CHECK(memcmp(s->u.str.data, "a\"b\\c\n\tA\0z", 10) == 0);
  const hr_attr *y = hr_attr_field(d, "y");
  CHECK(y && y->kind == HR_ATTR_SYMBOL && strcmp(y->u.str.data, "check.expect_close") == 0);
  const hr_attr *q = hr_attr_field(d, "q");
  CHECK(q && strcmp(q->u.str.data, "odd name") == 0);
  const hr_attr *arr = hr_attr_field(d, "arr");
  CHECK(arr && arr->kind == HR_ATTR_ARRAY && arr->u.array.n == 3);
  if (arr && arr->u.array.n == 3) CHECK(arr->u.array.items[2]->u.array.items[0]->u.b);
  const hr_attr *k = hr_attr_field(hr_attr_field(hr_attr_field(d, "dict"), "inner"), "k");
  CHECK(k && k->u.i.value == 2);
  const hr_attr *t = hr_attr_field(d, "t");
  CHECK(t && t->kind == HR_ATTR_TYPE && t->u.type.shape.dims[0] == 2);
  const hr_attr *e = hr_attr_field(d, "e");
  CHECK(e && e->kind == HR_ATTR_TYPE && e->u.type.dtype == HR_I64 && e->u.type.shape.rank == 0);
  hr_module_free(m);
}

TEST(dense_arrays) {
  const hr_attr *d;
  hr_module *m = PARSE_ATTRS(
      "{a = array<i64: 1, -2, 3>, b = array<i64>, c = array<i1: true, false>,"
      " f = array<f32: 1.5, -inf, 0x3F800000>, u = array<ui8: 255>}", &d);
  if (!d) return;
  const hr_attr *a = hr_attr_field(d, "a");
  CHECK(a && a->kind == HR_ATTR_DENSE_ARRAY && a->u.dense_array.n == 3 && a->u.dense_array.ints);
  if (a) CHECK(a->u.dense_array.ints[1] == -2);
  const hr_attr *b = hr_attr_field(d, "b");
  CHECK(b && b->u.dense_array.n == 0 && b->u.dense_array.ints && !b->u.dense_array.floats);
  const hr_attr *c = hr_attr_field(d, "c");
  CHECK(c && c->u.dense_array.dtype == HR_I1 && c->u.dense_array.ints[0] == 1 &&
        c->u.dense_array.ints[1] == 0);
  const hr_attr *f = hr_attr_field(d, "f");
  CHECK(f && f->u.dense_array.floats && f->u.dense_array.floats[0] == 1.5 &&
        isinf(f->u.dense_array.floats[1]) && f->u.dense_array.floats[2] == 1.0);
  const hr_attr *u = hr_attr_field(d, "u");
  CHECK(u && u->u.dense_array.ints[0] == 255);
  hr_module_free(m);
  EXPECT_ATTR_ERROR("{a = array<i8: 256>}", HR_PARSE_ERROR, "out of range for type i8");
  EXPECT_ATTR_ERROR("{a = array<i64: 1.5>}", HR_PARSE_ERROR, "floating-point value for integer");
}

TEST(dense_elements) {
  const hr_attr *v;
  hr_module *m = PARSE_CONSTANT("dense<[[1, 2, 3], [4, 5, -6]]>", "tensor<2x3xi32>", &v);
  if (v) {
    CHECK(!v->u.dense.splat && v->u.dense.nbytes == 24);
    CHECK_EQ_INT(dense_i(v, 5), -6);
  }
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<1.5>", "tensor<3x4xbf16>", &v);
  if (v) CHECK(v->u.dense.splat && v->u.dense.nbytes == 2 && dense_f(v, 11) == 1.5);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<\"0x0000803F00000040\">", "tensor<2xf32>", &v);
  if (v) CHECK(!v->u.dense.splat && dense_f(v, 0) == 1.0 && dense_f(v, 1) == 2.0);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<\"0x0000803F\">", "tensor<5xf32>", &v);
  if (v) CHECK(v->u.dense.splat && dense_f(v, 4) == 1.0);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<\"0x0001000100\">", "tensor<5xi1>", &v);
  if (v) CHECK(dense_i(v, 1) == 1 && dense_i(v, 2) == 0 && dense_i(v, 3) == 1);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<\"0x0F08\">", "tensor<2xi4>", &v);
  if (v) CHECK(dense_i(v, 0) == -1 && dense_i(v, 1) == -8);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<[true, false]>", "tensor<2xi1>", &v);
  if (v) CHECK(dense_i(v, 0) == 1 && dense_i(v, 1) == 0);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<[(1.0, -2.0), (0x7FC00000, inf)]>", "tensor<2xcomplex<f32>>", &v);
  if (v) {
    float c[4];
    memcpy(c, v->u.dense.data, 16);
    CHECK(c[0] == 1.0f && c[1] == -2.0f && isnan(c[2]) && isinf(c[3]));
  }
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<[0.1, -inf, nan, 65504.0]>", "tensor<4xf16>", &v);
  if (v) {
    CHECK(dense_f(v, 0) == hr_f16_to_f64(hr_f64_to_f16(0.1)));
    CHECK(isinf(dense_f(v, 1)) && dense_f(v, 1) < 0 && isnan(dense_f(v, 2)));
    CHECK(dense_f(v, 3) == 65504.0);
  }
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<[18446744073709551615, 0]>", "tensor<2xui64>", &v);
  if (v) CHECK((uint64_t)dense_i(v, 0) == UINT64_MAX);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<-9223372036854775808>", "tensor<i64>", &v);
  if (v) CHECK(dense_i(v, 0) == INT64_MIN);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<>", "tensor<0x3xf32>", &v);
  if (v) CHECK(v->u.dense.nbytes == 0);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<[]>", "tensor<0xf32>", &v);
  hr_module_free(m);
  m = PARSE_CONSTANT("dense<0x7FF8000000000001>", "tensor<f64>", &v);
  if (v) {
    uint64_t bits;
    memcpy(&bits, v->u.dense.data, 8);
    CHECK(bits == 0x7FF8000000000001ull); /* NaN payloads are kept bit for bit */
  }
  hr_module_free(m);
  /* Booleans in hex as MLIR packs them: bit i % 8 of byte i / 8. */
  m = PARSE_CONSTANT("dense<\"0x0D02\">", "tensor<12xi1>", &v);
  if (v) {
    static const uint8_t want[12] = {1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0};
    CHECK(v->u.dense.nbytes == 12 && !v->u.dense.splat && memcmp(v->u.dense.data, want, 12) == 0);
  }
  hr_module_free(m);
}

/* Wraps a constant in a function for error tests. */
static void expect_constant_error_at(const char *lit, const char *type, hr_code code,
                                     const char *substr, int line) {
  char buf[1024];
  snprintf(buf, sizeof buf,
           "func.func @main() -> %s {\n  %%0 = stablehlo.constant %s : %s\n  return %%0 : %s\n}\n",
           type, lit, type, type);
  expect_error_at(buf, strlen(buf), code, substr, line);
}
#define EXPECT_CONSTANT_ERROR(lit, type, code, substr) \
  expect_constant_error_at((lit), (type), (code), (substr), __LINE__)

TEST(dense_errors) {
  EXPECT_CONSTANT_ERROR("dense<[[1], [2, 3, 4]]>", "tensor<2x2xi32>", HR_PARSE_ERROR,
                        "t.mlir:2:34: dense literal has 1 elements in dimension 1, expected 2");
  EXPECT_CONSTANT_ERROR("dense<[1, 2, 3, 4]>", "tensor<3xi32>", HR_PARSE_ERROR,
                        "more than 3 elements");
  /* A short list is rejected before the (here 4 GB) element buffer would be allocated. */
  EXPECT_CONSTANT_ERROR("dense<[1]>", "tensor<1000000000xf32>", HR_PARSE_ERROR,
                        "t.mlir:2:33: dense literal has at most 1 elements, expected 1000000000");
  EXPECT_CONSTANT_ERROR("dense<[[1], [2]]>", "tensor<2xi32>", HR_PARSE_ERROR,
                        "nested deeper than rank 1");
  EXPECT_CONSTANT_ERROR("dense<\"0x0000803F00\">", "tensor<2xf32>", HR_PARSE_ERROR,
                        "hex data holds 5 bytes, expected 8");
  EXPECT_CONSTANT_ERROR("dense<\"0x0000803\">", "tensor<1xf32>", HR_PARSE_ERROR, "hex data");
  EXPECT_CONSTANT_ERROR("dense<\"0x000080ZZ\">", "tensor<1xf32>", HR_PARSE_ERROR, "invalid hex digit");
  EXPECT_CONSTANT_ERROR("dense<\"abc\">", "tensor<1xf32>", HR_UNIMPLEMENTED, "string elements");
  EXPECT_CONSTANT_ERROR("dense<300>", "tensor<ui8>", HR_PARSE_ERROR, "out of range for type ui8");
  EXPECT_CONSTANT_ERROR("dense<1.5>", "tensor<i32>", HR_PARSE_ERROR, "floating-point value");
  EXPECT_CONSTANT_ERROR("dense<-0x3F800000>", "tensor<f32>", HR_PARSE_ERROR, "cannot be negative");
  EXPECT_CONSTANT_ERROR("dense<0x1FFFF>", "tensor<bf16>", HR_PARSE_ERROR, "does not fit 16 bits");
  EXPECT_CONSTANT_ERROR("dense<>", "tensor<2xf32>", HR_PARSE_ERROR, "empty dense literal");
  EXPECT_CONSTANT_ERROR("dense<1.0 2.0>", "tensor<f32>", HR_PARSE_ERROR, "expected '>'");
  EXPECT_ERROR("func.func @main() -> tensor<?xf32> {\n"
               "  %0 = stablehlo.constant dense<1.0> : tensor<?xf32>\n"
               "  return %0 : tensor<?xf32>\n}\n",
               HR_PARSE_ERROR, "a dense literal needs a static shape");
}

TEST(constant_size_limit) {
  const char *text = "func.func @main() -> tensor<1000xf32> {\n"
                     "  %0 = stablehlo.constant dense<1.0> : tensor<1000xf32>\n"
                     "  return %0 : tensor<1000xf32>\n}\n";
  hr_parse_options opts = {0};
  opts.max_constant_bytes = 3999;
  hr_module *m = NULL;
  hr_status s = hr_module_parse("t.mlir", text, strlen(text), &opts, &m);
  CHECK(s && hr_status_code(s) == HR_RESOURCE_EXHAUSTED);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "t.mlir:2:27: dense constant of 1000 elements");
  hr_status_free(s);
  opts.max_constant_bytes = 4000;
  CHECK_OK(hr_module_parse("t.mlir", text, strlen(text), &opts, &m));
  hr_module_free(m);
  /* The default limit (4 GiB) rejects a splat that would need 8 GiB. */
  EXPECT_CONSTANT_ERROR("dense<0.0>", "tensor<2147483648xf32>", HR_RESOURCE_EXHAUSTED,
                        "exceeds the limit");
}

TEST(enums_and_structs) {
  const hr_attr *d;
  hr_module *m = PARSE_ATTRS(
      "{cmp = #stablehlo<comparison_direction LT>, prec = [#stablehlo<precision HIGHEST>],"
      " dot = #stablehlo.dot<rhs_contracting_dimensions = [0], lhs_contracting_dimensions = [1],"
      " lhs_batching_dimensions = []>,"
      " g = #stablehlo.gather<offset_dims = [1], index_vector_dim = 0, start_index_map = [0]>,"
      " s = #stablehlo.scatter<update_window_dims = [1], index_vector_dim = 1>,"
      " conv = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,"
      " raw = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3,"
      " input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2,"
      " kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1],"
      " output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>,"
      " alias = #stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0,"
      " operand_tuple_indices = []>, mode = #stablehlo.result_accuracy_mode<HIGHEST>,"
      " ch = #chlo<comparison_direction GE>, other = #foo.bar<x = 1, y = \"s\">, oe = #foo<kind A>}",
      &d);
  if (!d) return;
  const hr_attr *cmp = hr_attr_field(d, "cmp");
  CHECK(cmp && cmp->kind == HR_ATTR_ENUM && strcmp(cmp->u.enm.dialect, "stablehlo") == 0 &&
        strcmp(cmp->u.enm.name, "comparison_direction") == 0 && strcmp(cmp->u.enm.value, "LT") == 0);
  const hr_attr *dot = hr_attr_field(d, "dot");
  /* Canonical order, empty lists dropped. */
  CHECK(dot && dot->kind == HR_ATTR_STRUCT && strcmp(dot->u.strct.name, "stablehlo.dot") == 0 &&
        dot->u.strct.n == 2);
  if (dot && dot->u.strct.n == 2)
    CHECK(strcmp(dot->u.strct.fields[0].name, "lhs_contracting_dimensions") == 0 &&
          dot->u.strct.fields[1].value->u.array.items[0]->u.i.value == 0);
  const hr_attr *g = hr_attr_field(d, "g");
  CHECK(g && g->u.strct.n == 2 && !hr_attr_field(g, "index_vector_dim") &&
        hr_attr_field(g, "start_index_map"));
  const hr_attr *s = hr_attr_field(d, "s");
  CHECK(s && s->u.strct.n == 2 && hr_attr_field(s, "index_vector_dim")->u.i.value == 1);
  const hr_attr *conv = hr_attr_field(d, "conv"), *raw = hr_attr_field(d, "raw");
  CHECK(conv && conv->u.strct.n == 9 && hr_attr_equal(conv, raw));
  const hr_attr *ofd = hr_attr_field(conv, "output_feature_dimension");
  CHECK(ofd && ofd->kind == HR_ATTR_INT && ofd->u.i.value == 3 && ofd->u.i.dtype == HR_DTYPE_INVALID);
  const hr_attr *alias = hr_attr_field(d, "alias");
  CHECK(alias && alias->kind == HR_ATTR_STRUCT && alias->u.strct.n == 3 &&
        strcmp(alias->u.strct.name, "stablehlo.output_operand_alias") == 0);
  const hr_attr *mode = hr_attr_field(d, "mode");
  CHECK(mode && mode->kind == HR_ATTR_ENUM && strcmp(mode->u.enm.name, "result_accuracy_mode") == 0);
  const hr_attr *ch = hr_attr_field(d, "ch");
  CHECK(ch && strcmp(ch->u.enm.dialect, "chlo") == 0);
  const hr_attr *other = hr_attr_field(d, "other");
  CHECK(other && other->kind == HR_ATTR_STRUCT && strcmp(other->u.strct.name, "foo.bar") == 0 &&
        other->u.strct.n == 2);
  const hr_attr *oe = hr_attr_field(d, "oe");
  CHECK(oe && oe->kind == HR_ATTR_ENUM && strcmp(oe->u.enm.dialect, "foo") == 0 &&
        strcmp(oe->u.enm.name, "kind") == 0 && strcmp(oe->u.enm.value, "A") == 0);
  hr_module_free(m);
  EXPECT_ATTR_ERROR("{a = #stablehlo<comparison_direction XX>}", HR_PARSE_ERROR,
                    "invalid comparison_direction value 'XX'");
  EXPECT_ATTR_ERROR("{a = #stablehlo.dot<lhs_dims = [0]>}", HR_PARSE_ERROR,
                    "unknown field 'lhs_dims' in #stablehlo.dot");
  EXPECT_ATTR_ERROR("{a = #stablehlo.gather<index_vector_dim = [0]>}", HR_PARSE_ERROR,
                    "must be an integer");
  EXPECT_ATTR_ERROR("{a = #stablehlo.conv<[b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f]>}",
                    HR_PARSE_ERROR, "spatial dimension 1 is not specified");
  EXPECT_ATTR_ERROR("{a = #stablehlo.conv<[b, 0, f]x[0, i, i]->[b, 0, f]>}", HR_PARSE_ERROR,
                    "duplicate dimension 'i'");
  EXPECT_ATTR_ERROR("{a = #stablehlo.conv<[b, 0]x[0, i, o]->[b, 0, f]>}", HR_PARSE_ERROR,
                    "must name 'b' and 'f'");
}

/* ---------------------------------------------------------------------------------------------- */
/* Pretty and generic forms                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Builds "func.func @main(ARGS) -> RES { BODY return %r : RES }". */
#define FUNC(args, res, body) \
  "func.func @main(" args ") -> " res " {\n" body "\n  return %r : " res "\n}\n"

TEST(forms_broadcast_transpose_iota) {
  CHECK_SAME_OP(FUNC("%a: tensor<3xf32>", "tensor<2x3xf32>",
                     "%r = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>"),
                FUNC("%a: tensor<3xf32>", "tensor<2x3xf32>",
                     "%r = \"stablehlo.broadcast_in_dim\"(%a) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>"),
                HR_OP_BROADCAST_IN_DIM);
  CHECK_SAME_OP(FUNC("%a: tensor<2x3xf32>", "tensor<3x2xf32>",
                     "%r = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>"),
                FUNC("%a: tensor<2x3xf32>", "tensor<3x2xf32>",
                     "%r = \"stablehlo.transpose\"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>"),
                HR_OP_TRANSPOSE);
  CHECK_SAME_OP(FUNC("", "tensor<4x5xi32>", "%r = stablehlo.iota dim = 1 : tensor<4x5xi32>"),
                FUNC("", "tensor<4x5xi32>",
                     "%r = \"stablehlo.iota\"() <{iota_dimension = 1 : i64}> : () -> tensor<4x5xi32>"),
                HR_OP_IOTA);
  CHECK_SAME_OP(FUNC("%a: tensor<3xf32>", "tensor<3xf32>",
                     "%r = stablehlo.reverse %a, dims = [0] : tensor<3xf32>"),
                FUNC("%a: tensor<3xf32>", "tensor<3xf32>",
                     "%r = \"stablehlo.reverse\"(%a) <{dimensions = array<i64: 0>}> : (tensor<3xf32>) -> tensor<3xf32>"),
                HR_OP_REVERSE);
  CHECK_SAME_OP(FUNC("%a: tensor<3xf32>", "tensor<2x3xf32>",
                     "%r = stablehlo.broadcast %a, sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>"),
                FUNC("%a: tensor<3xf32>", "tensor<2x3xf32>",
                     "%r = \"stablehlo.broadcast\"(%a) <{broadcast_sizes = array<i64: 2>}> : (tensor<3xf32>) -> tensor<2x3xf32>"),
                HR_OP_BROADCAST);
}

TEST(forms_slice_concat_pad) {
  CHECK_SAME_OP(FUNC("%a: tensor<6x4xf32>", "tensor<2x2xf32>",
                     "%r = stablehlo.slice %a [1:5:2, 0:2] : (tensor<6x4xf32>) -> tensor<2x2xf32>"),
                FUNC("%a: tensor<6x4xf32>", "tensor<2x2xf32>",
                     "%r = \"stablehlo.slice\"(%a) <{start_indices = array<i64: 1, 0>, limit_indices = array<i64: 5, 2>, strides = array<i64: 2, 1>}> : (tensor<6x4xf32>) -> tensor<2x2xf32>"),
                HR_OP_SLICE);
  CHECK_SAME_OP(FUNC("%a: tensor<2xf32>, %b: tensor<3xf32>", "tensor<5xf32>",
                     "%r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>"),
                FUNC("%a: tensor<2xf32>, %b: tensor<3xf32>", "tensor<5xf32>",
                     "%r = \"stablehlo.concatenate\"(%a, %b) <{dimension = 0 : i64}> : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>"),
                HR_OP_CONCATENATE);
  CHECK_SAME_OP(FUNC("%a: tensor<2x3xf32>, %v: tensor<f32>", "tensor<6x4xf32>",
                     "%r = stablehlo.pad %a, %v, low = [1, 0], high = [2, 1], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<6x4xf32>"),
                FUNC("%a: tensor<2x3xf32>, %v: tensor<f32>", "tensor<6x4xf32>",
                     "%r = \"stablehlo.pad\"(%a, %v) <{edge_padding_high = array<i64: 2, 1>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 1, 0>}> : (tensor<2x3xf32>, tensor<f32>) -> tensor<6x4xf32>"),
                HR_OP_PAD);
  CHECK_SAME_OP(FUNC("%a: tensor<5xf32>, %i: tensor<i64>", "tensor<2xf32>",
                     "%r = stablehlo.dynamic_slice %a, %i, sizes = [2] : (tensor<5xf32>, tensor<i64>) -> tensor<2xf32>"),
                FUNC("%a: tensor<5xf32>, %i: tensor<i64>", "tensor<2xf32>",
                     "%r = \"stablehlo.dynamic_slice\"(%a, %i) <{slice_sizes = array<i64: 2>}> : (tensor<5xf32>, tensor<i64>) -> tensor<2xf32>"),
                HR_OP_DYNAMIC_SLICE);
}

TEST(forms_compare_select_clamp) {
  CHECK_SAME_OP(FUNC("%a: tensor<3xf32>, %b: tensor<3xf32>", "tensor<3xi1>",
                     "%r = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>"),
                FUNC("%a: tensor<3xf32>, %b: tensor<3xf32>", "tensor<3xi1>",
                     "%r = \"stablehlo.compare\"(%a, %b) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>"),
                HR_OP_COMPARE);
  CHECK_SAME_OP(FUNC("%a: tensor<3xi32>, %b: tensor<3xi32>", "tensor<3xi1>",
                     "%r = stablehlo.compare EQ, %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>"),
                FUNC("%a: tensor<3xi32>, %b: tensor<3xi32>", "tensor<3xi1>",
                     "%r = \"stablehlo.compare\"(%a, %b) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>"),
                HR_OP_COMPARE);
  CHECK_SAME_OP(FUNC("%p: tensor<i1>, %a: tensor<3xf32>", "tensor<3xf32>",
                     "%r = stablehlo.select %p, %a, %a : tensor<i1>, tensor<3xf32>"),
                FUNC("%p: tensor<i1>, %a: tensor<3xf32>", "tensor<3xf32>",
                     "%r = \"stablehlo.select\"(%p, %a, %a) : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>"),
                HR_OP_SELECT);
  CHECK_SAME_OP(FUNC("%l: tensor<f32>, %a: tensor<3xf32>", "tensor<3xf32>",
                     "%r = stablehlo.clamp %l, %a, %l : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>"),
                FUNC("%l: tensor<f32>, %a: tensor<3xf32>", "tensor<3xf32>",
                     "%r = \"stablehlo.clamp\"(%l, %a, %l) : (tensor<f32>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>"),
                HR_OP_CLAMP);
  CHECK_SAME_OP(FUNC("%a: tensor<3xf32>", "tensor<3xcomplex<f32>>",
                     "%r = stablehlo.complex %a, %a : tensor<3xcomplex<f32>>"),
                FUNC("%a: tensor<3xf32>", "tensor<3xcomplex<f32>>",
                     "%r = \"stablehlo.complex\"(%a, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>"),
                HR_OP_COMPLEX);
}

TEST(forms_dot_and_convolution) {
  CHECK_SAME_OP(FUNC("%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>", "tensor<2x3x5xf32>",
                     "%r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>"),
                FUNC("%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>", "tensor<2x3x5xf32>",
                     "%r = \"stablehlo.dot_general\"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>"),
                HR_OP_DOT_GENERAL);
  CHECK_SAME_OP(FUNC("%a: tensor<3x4xf32>, %b: tensor<4x5xf32>", "tensor<3x5xf32>",
                     "%r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>"),
                FUNC("%a: tensor<3x4xf32>, %b: tensor<4x5xf32>", "tensor<3x5xf32>",
                     "%r = \"stablehlo.dot_general\"(%a, %b) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>, dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>"),
                HR_OP_DOT_GENERAL);
  CHECK_SAME_OP(FUNC("%a: tensor<3x4xf32>, %b: tensor<4xf32>", "tensor<3xf32>",
                     "%r = stablehlo.dot %a, %b, precision = [HIGH, HIGH] : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>"),
                FUNC("%a: tensor<3x4xf32>, %b: tensor<4xf32>", "tensor<3xf32>",
                     "%r = \"stablehlo.dot\"(%a, %b) {precision_config = [#stablehlo<precision HIGH>, #stablehlo<precision HIGH>]} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>"),
                HR_OP_DOT);
  CHECK_SAME_OP(FUNC("%a: tensor<1x9x10x3xf32>, %k: tensor<3x3x3x4xf32>", "tensor<1x4x3x4xf32>",
                     "%r = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 3], pad = [[1, 0], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x9x10x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x3x4xf32>"),
                FUNC("%a: tensor<1x9x10x3xf32>, %k: tensor<3x3x3x4xf32>", "tensor<1x4x3x4xf32>",
                     "%r = \"stablehlo.convolution\"(%a, %k) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, lhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 2>, window_reversal = array<i1: false, true>, window_strides = array<i64: 2, 3>}> : (tensor<1x9x10x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x3x4xf32>"),
                HR_OP_CONVOLUTION);
}

TEST(forms_calls_and_misc) {
  const char *callee = "func.func private @g(%x: tensor<f32>) -> tensor<f32> {\n  return %x : tensor<f32>\n}\n";
  char a[1024], b[1024];
  snprintf(a, sizeof a, "%s%s", FUNC("%x: tensor<f32>", "tensor<f32>", "%r = call @g(%x) : (tensor<f32>) -> tensor<f32>"), callee);
  snprintf(b, sizeof b, "%s%s", FUNC("%x: tensor<f32>", "tensor<f32>", "%r = \"func.call\"(%x) <{callee = @g}> : (tensor<f32>) -> tensor<f32>"), callee);
  CHECK_SAME_OP(a, b, HR_OP_FUNC_CALL);
  CHECK_SAME_OP(FUNC("%x: tensor<f32>", "tensor<f32>",
                     "%r = stablehlo.custom_call @foo.bar(%x) {backend_config = \"\", has_side_effect = true} : (tensor<f32>) -> tensor<f32>"),
                FUNC("%x: tensor<f32>", "tensor<f32>",
                     "%r = \"stablehlo.custom_call\"(%x) {backend_config = \"\", call_target_name = \"foo.bar\", has_side_effect = true} : (tensor<f32>) -> tensor<f32>"),
                HR_OP_CUSTOM_CALL);
  /* Custom-call layouts use tensor<Nxindex>: 64-bit index elements. */
  hr_module *m = PARSE_OK(FUNC("%x: tensor<2x3xf32>", "tensor<2x3xf32>",
      "%r = stablehlo.custom_call @lapack(%x) {api_version = 4 : i32, backend_config = {mode = 1 : i64},"
      " operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]}"
      " : (tensor<2x3xf32>) -> tensor<2x3xf32>"));
  const hr_op *cc = find_op(m, HR_OP_CUSTOM_CALL);
  const hr_attr *layouts = cc ? hr_op_attr(cc, "operand_layouts") : NULL;
  CHECK(layouts && layouts->kind == HR_ATTR_ARRAY && layouts->u.array.n == 1);
  if (layouts && layouts->u.array.n == 1) {
    const hr_attr *l = layouts->u.array.items[0];
    CHECK(l->kind == HR_ATTR_DENSE && l->u.dense.type.dtype == HR_INDEX);
    int64_t dims[2];
    int n;
    CHECK_OK(hr_attr_to_i64_list(l, dims, 2, &n));
    CHECK(n == 2 && dims[0] == 0 && dims[1] == 1);
  }
  hr_module_free(m);
  CHECK_SAME_OP(FUNC("%x: tensor<2xui64>", "tensor<2x2xui32>",
                     "%s, %r = stablehlo.rng_bit_generator %x, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)"),
                FUNC("%x: tensor<2xui64>", "tensor<2x2xui32>",
                     "%s, %r = \"stablehlo.rng_bit_generator\"(%x) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)"),
                HR_OP_RNG_BIT_GENERATOR);
  CHECK_SAME_OP(FUNC("%x: tensor<8xcomplex<f32>>", "tensor<8xcomplex<f32>>",
                     "%r = stablehlo.fft %x, type = FFT, length = [8] : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>"),
                FUNC("%x: tensor<8xcomplex<f32>>", "tensor<8xcomplex<f32>>",
                     "%r = \"stablehlo.fft\"(%x) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>"),
                HR_OP_FFT);
  CHECK_SAME_OP(FUNC("%x: tensor<4xf32>", "tensor<4xf32>",
                     "%r = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>"),
                FUNC("%x: tensor<4xf32>", "tensor<4xf32>",
                     "%r = \"stablehlo.reduce_precision\"(%x) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<4xf32>) -> tensor<4xf32>"),
                HR_OP_REDUCE_PRECISION);
  CHECK_SAME_OP(FUNC("%x: tensor<3x3xf32>", "tensor<3x3xf32>",
                     "%r = stablehlo.cholesky %x, lower = true : tensor<3x3xf32>"),
                FUNC("%x: tensor<3x3xf32>", "tensor<3x3xf32>",
                     "%r = \"stablehlo.cholesky\"(%x) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>"),
                HR_OP_CHOLESKY);
  CHECK_SAME_OP(FUNC("%x: tensor<f32>, %y: tensor<2xi32>", "tensor<2xi32>",
                     "%t = stablehlo.tuple %x, %y : tuple<tensor<f32>, tensor<2xi32>>\n"
                     "  %r = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>"),
                FUNC("%x: tensor<f32>, %y: tensor<2xi32>", "tensor<2xi32>",
                     "%t = \"stablehlo.tuple\"(%x, %y) : (tensor<f32>, tensor<2xi32>) -> tuple<tensor<f32>, tensor<2xi32>>\n"
                     "  %r = \"stablehlo.get_tuple_element\"(%t) <{index = 1 : i32}> : (tuple<tensor<f32>, tensor<2xi32>>) -> tensor<2xi32>"),
                HR_OP_GET_TUPLE_ELEMENT);
  CHECK_SAME_OP(FUNC("%x: tensor<2xf32>", "tensor<2xf32>",
                     "%r = chlo.erf %x : tensor<2xf32> -> tensor<2xf32>"),
                FUNC("%x: tensor<2xf32>", "tensor<2xf32>",
                     "%r = \"chlo.erf\"(%x) : (tensor<2xf32>) -> tensor<2xf32>"),
                HR_OP_CHLO_ERF);
  CHECK_SAME_OP(FUNC("%x: tensor<5xf32>", "tensor<2xi32>",
                     "%v, %r = chlo.top_k(%x, k = 2) : tensor<5xf32> -> (tensor<2xf32>, tensor<2xi32>)"),
                FUNC("%x: tensor<5xf32>", "tensor<2xi32>",
                     "%v, %r = \"chlo.top_k\"(%x) {k = 2 : i64} : (tensor<5xf32>) -> (tensor<2xf32>, tensor<2xi32>)"),
                HR_OP_CHLO_TOP_K);
  CHECK_SAME_OP(FUNC("%x: tensor<2xf32>", "tensor<2xf32>",
                     "%r = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>"),
                FUNC("%x: tensor<2xf32>", "tensor<2xf32>",
                     "%r = \"stablehlo.constant\"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>"),
                HR_OP_CONSTANT);
}

TEST(while_and_reduce_forms) {
  const char *pretty = FUNC("%n: tensor<i64>", "tensor<i64>",
      "%r, %s = stablehlo.while(%i = %n, %acc = %n) : tensor<i64>, tensor<i64>\n"
      "  cond {\n"
      "    %c = stablehlo.compare  LT, %i, %acc : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i64>\n"
      "    %next = stablehlo.add %i, %one : tensor<i64>\n"
      "    stablehlo.return %next, %acc : tensor<i64>, tensor<i64>\n"
      "  }");
  const char *generic = FUNC("%n: tensor<i64>", "tensor<i64>",
      "%r, %s = \"stablehlo.while\"(%n, %n) ({\n"
      "  ^bb0(%i: tensor<i64>, %acc: tensor<i64>):\n"
      "    %c = stablehlo.compare  LT, %i, %acc : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
      "    stablehlo.return %c : tensor<i1>\n"
      "  }, {\n"
      "  ^bb0(%i: tensor<i64>, %acc: tensor<i64>):\n"
      "    %one = stablehlo.constant dense<1> : tensor<i64>\n"
      "    %next = stablehlo.add %i, %one : tensor<i64>\n"
      "    stablehlo.return %next, %acc : tensor<i64>, tensor<i64>\n"
      "  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)");
  CHECK_SAME_OP(pretty, generic, HR_OP_WHILE);
  hr_module *m = PARSE_OK(pretty);
  const hr_op *w = find_op(m, HR_OP_WHILE);
  CHECK(w && w->n_regions == 2 && w->regions[0].n_args == 2 && w->regions[1].n_args == 2);
  if (w) CHECK(w->regions[1].ops[1]->operands[0] == &w->regions[1].args[0]);
  hr_module_free(m);

  /* The compact reduce builds the one-op region explicitly. */
  pretty = FUNC("%x: tensor<2x3xf32>, %z: tensor<f32>", "tensor<2xf32>",
      "%r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>");
  generic = FUNC("%x: tensor<2x3xf32>, %z: tensor<f32>", "tensor<2xf32>",
      "%r = \"stablehlo.reduce\"(%x, %z) <{dimensions = array<i64: 1>}> ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>");
  CHECK_SAME_OP(pretty, generic, HR_OP_REDUCE);
  m = PARSE_OK(pretty);
  const hr_op *r = find_op(m, HR_OP_REDUCE);
  CHECK(r && r->n_regions == 1 && r->regions[0].n_ops == 2 && r->regions[0].n_args == 2);
  if (r && r->regions[0].n_ops == 2) {
    const hr_block *blk = &r->regions[0];
    const hr_op *add = blk->ops[0], *ret = blk->ops[1];
    CHECK(add->code == HR_OP_ADD && ret->code == HR_OP_RETURN);
    CHECK(add->operands[0] == &blk->args[0] && add->operands[1] == &blk->args[1]);
    CHECK(ret->operands[0] == &add->results[0] && add->parent == blk && blk->args[0].owner == blk);
    CHECK(blk->args[0].type.shape.rank == 0 && blk->args[0].type.dtype == HR_F32);
  }
  hr_module_free(m);

  /* Variadic reduce: reducer arguments pair up per input. */
  m = PARSE_OK(FUNC("%x: tensor<4xf32>, %i: tensor<4xi32>, %z: tensor<f32>, %zi: tensor<i32>", "tensor<i32>",
      "%v, %r = stablehlo.reduce(%x init: %z), (%i init: %zi) across dimensions = [0] : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)\n"
      "   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {\n"
      "    %m = stablehlo.maximum %a, %c : tensor<f32>\n"
      "    %n = stablehlo.maximum %b, %d : tensor<i32>\n"
      "    stablehlo.return %m, %n : tensor<f32>, tensor<i32>\n"
      "  }"));
  r = find_op(m, HR_OP_REDUCE);
  CHECK(r && r->n_operands == 4 && r->regions[0].n_args == 4);
  if (r && r->regions[0].n_args == 4) {
    const hr_value *args = r->regions[0].args;
    CHECK(strcmp(args[0].name, "a") == 0 && strcmp(args[1].name, "b") == 0 &&
          strcmp(args[2].name, "c") == 0 && strcmp(args[3].name, "d") == 0);
    CHECK(r->operands[1] == &m->funcs[0]->body.args[1] && r->operands[2] == &m->funcs[0]->body.args[2]);
  }
  hr_module_free(m);
  EXPECT_ERROR(FUNC("%x: tensor<2xf32>, %z: tensor<f32>", "tensor<f32>",
                    "%r = stablehlo.reduce(%x init: %z) applies stablehlo.subtract across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>"),
               HR_PARSE_ERROR, "commutative binary");
}

TEST(pretty_form_errors) {
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>, %b: tensor<2xf32>", "tensor<2xf32>",
                    "%r = stablehlo.add %a, %b : tensor<2xf64>"),
               HR_PARSE_ERROR, "t.mlir:2:29: operand #0 has type tensor<2xf32> but the type signature says tensor<2xf64>");
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>", "tensor<2xf32>",
                    "%r = stablehlo.convert %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>"),
               HR_PARSE_ERROR, "lists 2 operand types but the operation has 1 operands");
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>", "tensor<2xf32>", "%r = stablehlo.frobnicate %a : tensor<2xf32>"),
               HR_PARSE_ERROR, "t.mlir:2:6: unknown operation 'stablehlo.frobnicate'");
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>", "tensor<2xf32>", "%r = \"mhlo.add\"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>"),
               HR_PARSE_ERROR, "unknown operation 'mhlo.add'");
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>", "tensor<2xf32>", "%r = stablehlo.scatter %a : tensor<2xf32>"),
               HR_PARSE_ERROR, "'stablehlo.scatter' has no custom syntax");
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>", "tensor<2xf32>", "%r = stablehlo.transpose %a, dim = [0] : (tensor<2xf32>) -> tensor<2xf32>"),
               HR_PARSE_ERROR, "t.mlir:2:30: expected 'dims', found 'dim'");
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>", "tensor<2xf32>", "%r = stablehlo.abs %a tensor<2xf32>"),
               HR_PARSE_ERROR, "t.mlir:2:23: expected ':' and the operation's type, found 'tensor'");
  EXPECT_ERROR(FUNC("%a: tensor<2xi32>", "tensor<2xi1>", "%r = stablehlo.compare LTE, %a, %a : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>"),
               HR_PARSE_ERROR, "invalid comparison_direction value 'LTE'");
  EXPECT_ERROR(FUNC("%a: tensor<2xf32>", "tensor<2xf32>",
                    "%r = \"stablehlo.abs\"(%a) : tensor<2xf32>"),
               HR_PARSE_ERROR, "expected a function type");
  EXPECT_ERROR("func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
               "  %0 = \"stablehlo.if\"(%a) ({\n"
               "    \"stablehlo.return\"(%a) : (tensor<f32>) -> ()\n"
               "  ^bb1:\n"
               "    \"stablehlo.return\"(%a) : (tensor<f32>) -> ()\n"
               "  }, {\n  }) : (tensor<f32>) -> tensor<f32>\n"
               "  return %0 : tensor<f32>\n}\n",
               HR_UNIMPLEMENTED, "t.mlir:4:3: regions with more than one block");
  EXPECT_ERROR("func.func @decl(tensor<f32>) -> tensor<f32>\n", HR_PARSE_ERROR,
               "a function declaration (no body) must be private");
  EXPECT_ERROR("func.func private @decl(%a: tensor<f32>) -> tensor<f32>\n", HR_PARSE_ERROR,
               "a function declaration's parameters have no names");
}

/* ---------------------------------------------------------------------------------------------- */
/* Locations                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

TEST(locations) {
  hr_module *m = PARSE_OK(
      "#loc1 = loc(\"x.py\":3:5)\n"
      "module @m {\n"
      "  func.func @main(%a: tensor<f32> loc(\"a\")) -> tensor<f32> {\n"
      "    %0 = stablehlo.abs %a : tensor<f32> loc(#loc1)\n"
      "    %1 = stablehlo.negate %0 : tensor<f32> loc(#loc3)\n"
      "    %2 = stablehlo.sine %1 : tensor<f32> loc(callsite(#loc3 at fused[\"y.py\":1:2, unknown]))\n"
      "    %3 = stablehlo.cosine %2 : tensor<f32> loc(\"z.py\":7:1 to 7:9)\n"
      "    return %3 : tensor<f32> loc(#loc)\n"
      "  } loc(#loc)\n"
      "} loc(#loc)\n"
      "#loc = loc(unknown)\n"
      "#loc2 = loc(\"f\"(#loc1))\n"
      "#loc3 = loc(\"jit(f)/neg\"(#loc2))\n");
  if (!m) return;
  const hr_block *b = &m->funcs[0]->body;
  CHECK(b->ops[0]->debug_loc && strcmp(b->ops[0]->debug_loc, "\"x.py\":3:5") == 0);
  CHECK(b->ops[1]->debug_loc &&
        strcmp(b->ops[1]->debug_loc, "\"jit(f)/neg\"(\"f\"(\"x.py\":3:5))") == 0);
  CHECK(b->ops[2]->debug_loc &&
        strcmp(b->ops[2]->debug_loc,
               "callsite(\"jit(f)/neg\"(\"f\"(\"x.py\":3:5)) at fused[\"y.py\":1:2, unknown])") == 0);
  CHECK(b->ops[3]->debug_loc && strcmp(b->ops[3]->debug_loc, "\"z.py\":7:1 to 7:9") == 0);
  CHECK(b->ops[4]->debug_loc && strcmp(b->ops[4]->debug_loc, "unknown") == 0);
  CHECK_EQ_INT(b->ops[1]->loc.line, 5);
  hr_module_free(m);
  /* Op errors mention the source location. */
  hr_module *bad = NULL;
  const char *text = "func.func @main(%a: tensor<f32>) -> tensor<f32> {\n"
                     "  %0 = stablehlo.abs %a : tensor<f32> loc(\"q.py\":9:1)\n"
                     "  return %0 : tensor<f32>\n}\n";
  CHECK_OK(hr_module_parse("t.mlir", text, strlen(text), NULL, &bad));
  if (bad) {
    hr_status s = hr_op_error(bad->funcs[0]->body.ops[0], HR_VERIFY_ERROR, "boom");
    CHECK_STR_CONTAINS(hr_status_message(s), "t.mlir:2:3: stablehlo.abs (at \"q.py\":9:1): boom");
    hr_status_free(s);
  }
  hr_module_free(bad);
  EXPECT_ERROR("func.func @main() {\n  return loc(#nope)\n}\n", HR_PARSE_ERROR,
               "t.mlir:2:14: undefined location alias '#nope'");
  EXPECT_ERROR("#a = loc(#b)\n#b = loc(\"n\"(#a))\nfunc.func @main() {\n  return loc(#a)\n}\n",
               HR_PARSE_ERROR, "refers to itself");
  EXPECT_ERROR("#a = loc(unknown)\n#a = loc(unknown)\n", HR_PARSE_ERROR,
               "t.mlir:2:1: redefinition of location alias '#a'");
  EXPECT_ERROR("#map = affine_map<(d0) -> (d0)>\n", HR_UNIMPLEMENTED,
               "attribute aliases other than locations");
  EXPECT_ERROR("func.func @main() {\n  return loc(\"a\":x)\n}\n", HR_PARSE_ERROR,
               "expected a line or column number");
}

/* ---------------------------------------------------------------------------------------------- */
/* Robustness                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

TEST(nesting_limits) {
  /* 300 nested arrays exceed the default limit of 256. */
  char buf[2048];
  int n = snprintf(buf, sizeof buf, "func.func @main() attributes {a = ");
  for (int i = 0; i < 300; i++) buf[n++] = '[';
  for (int i = 0; i < 300; i++) buf[n++] = ']';
  snprintf(buf + n, sizeof buf - (size_t)n, "} {\n  return\n}\n");
  expect_error_at(buf, strlen(buf), HR_RESOURCE_EXHAUSTED, "nesting is deeper than the limit of 256",
                  __LINE__);
  /* A smaller configured limit applies to regions too. */
  const char *text = FUNC("%p: tensor<i1>, %v: tensor<f32>", "tensor<f32>",
      "%r = \"stablehlo.if\"(%p) ({\n"
      "    %t = \"stablehlo.if\"(%p) ({\n"
      "      stablehlo.return %v : tensor<f32>\n"
      "    }, {\n"
      "      stablehlo.return %v : tensor<f32>\n"
      "    }) : (tensor<i1>) -> tensor<f32>\n"
      "    stablehlo.return %t : tensor<f32>\n"
      "  }, {\n"
      "    stablehlo.return %v : tensor<f32>\n"
      "  }) : (tensor<i1>) -> tensor<f32>");
  hr_parse_options opts = {0};
  opts.max_nesting = 2;
  hr_module *m = NULL;
  hr_status s = hr_module_parse("t.mlir", text, strlen(text), &opts, &m);
  CHECK(s && hr_status_code(s) == HR_RESOURCE_EXHAUSTED);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "t.mlir:3:30: nesting is deeper than the limit of 2");
  hr_status_free(s);
  opts.max_nesting = 3;
  CHECK_OK(hr_module_parse("t.mlir", text, strlen(text), &opts, &m));
  hr_module_free(m);
}

/* A program using most syntax families, for truncation and length tests. */
static const char *const k_rich =
    "#loc1 = loc(\"a.py\":1:2)\n"
    "module @m attributes {mhlo.num_replicas = 1 : i32} {\n"
    "  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.sharding = \"{replicated}\"}) -> (tensor<2xf32> {jax.result_info = \"\"}) {\n"
    "    %cst = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>\n"
    "    %c = stablehlo.constant dense<\"0x0000000000000000\"> : tensor<2xf32>\n"
    "    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
    "    %0 = stablehlo.add %arg0, %cst : tensor<2x3xf32> loc(#loc1)\n"
    "    %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
    "    %2 = \"stablehlo.reduce_window\"(%1, %z) <{padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>}> ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %m = stablehlo.maximum %a, %b : tensor<f32>\n"
    "      stablehlo.return %m : tensor<f32>\n"
    "    }) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>\n"
    "    %3 = stablehlo.compare  GT, %2, %c,  FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>\n"
    "    %4 = stablehlo.select %3, %2, %c : tensor<2xi1>, tensor<2xf32>\n"
    "    stablehlo.custom_call @check.expect_close(%4, %4) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()\n"
    "    return %4 : tensor<2xf32> loc(#loc)\n"
    "  }\n"
    "}\n"
    "#loc = loc(unknown)\n";

TEST(truncation_never_crashes) {
  hr_module *m = PARSE_OK(k_rich);
  hr_module_free(m);
  size_t len = strlen(k_rich);
  int errors = 0;
  for (size_t cut = 0; cut < len; cut++) {
    hr_module *t = NULL;
    hr_status s = hr_module_parse("t.mlir", k_rich, cut, NULL, &t);
    if (s) {
      errors++;
      CHECK(t == NULL);
      CHECK(strncmp(hr_status_message(s), "t.mlir:", 7) == 0);
    }
    hr_status_free(s);
    hr_module_free(t);
  }
  CHECK(errors > (int)len - 40); /* only cuts in the trailing alias / whitespace can succeed */
}

TEST(length_is_honoured_and_nul_rejected) {
  /* Bytes after `len` are never read: the text below is invalid beyond the cut. */
  char buf[256];
  const char *good = "func.func @main() {\n  return\n}\n";
  snprintf(buf, sizeof buf, "%sGARBAGE(", good);
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("t.mlir", buf, strlen(good), NULL, &m));
  hr_module_free(m);
  memcpy(buf, good, strlen(good));
  buf[20] = '\0';
  expect_error_at(buf, strlen(good), HR_PARSE_ERROR, "t.mlir:2:1: embedded NUL byte", __LINE__);
  hr_status s = hr_module_parse("t.mlir", NULL, 5, NULL, &m);
  CHECK(hr_status_code(s) == HR_INVALID_ARGUMENT);
  hr_status_free(s);
  s = hr_module_parse("t.mlir", NULL, 0, NULL, &m);
  CHECK(s == NULL && m && m->n_funcs == 0);
  hr_module_free(m);
}

/* Parses `text` and checks that it prints as `want`. */
static void check_prints_as(const char *text, size_t len, const char *want, int line) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse("t.mlir", text, len, NULL, &m);
  if (s) {
    fprintf(stderr, "%s:%d: %s\n", __FILE__, line, hr_status_message(s));
    test_failures_++;
    hr_status_free(s);
    return;
  }
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(m, &sb));
  if (!sb.data || strcmp(sb.data, want) != 0) {
    fprintf(stderr, "%s:%d: printed\n%s\nexpected\n%s\n", __FILE__, line, sb.data ? sb.data : "", want);
    test_failures_++;
  }
  hr_strbuf_free(&sb);
  hr_module_free(m);
}

/* Shardy's meshes, ops and attributes read and print as MLIR writes them; the generic form of its
 * ops prints in their custom form. */
TEST(shardy_ops_and_attributes) {
  const char *want =
      "module @m {\n"
      "  sdy.mesh @mesh = <[\"a\"=2, \"b\"=1]>\n"
      "  func.func public @main(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", ?}p1, {}], replicated={\"b\"}>}) -> tensor<2x4xf32> {\n"
      "    %0 = sdy.sharding_constraint %arg0 <@mesh, [{\"a\"}, {}]> : tensor<2x4xf32>\n"
      "    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{\"a\"}, {}]>] out_shardings=[<@mesh, [{\"a\"}, {}]>] manual_axes={\"a\"} (%arg1: tensor<1x4xf32>) {\n"
      "      %2 = stablehlo.custom_call @f(%arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=1, j=4}, custom>} : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
      "      sdy.return %2 : tensor<1x4xf32>\n"
      "    } : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
      "    return %1 : tensor<2x4xf32>\n"
      "  }\n"
      "}\n";
  check_prints_as(want, strlen(want), want, __LINE__);
  const char *generic =
      "module @m {\n"
      "  sdy.mesh @mesh = <[\"a\"=2, \"b\"=1]> loc(unknown)\n"
      "  func.func public @main(%arg0: tensor<2x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\", ?}p1, {}], replicated={\"b\"}>}) -> tensor<2x4xf32> {\n"
      "    %0 = \"sdy.sharding_constraint\"(%arg0) <{sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}> : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
      "    %1 = \"sdy.manual_computation\"(%0) <{in_shardings = #sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>, "
      "manual_axes = #sdy<manual_axes{\"a\"}>, out_shardings = #sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>]>}> ({\n"
      "    ^bb0(%arg1: tensor<1x4xf32>):\n"
      "      %2 = stablehlo.custom_call @f(%arg1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=1, j=4}, custom>} : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
      "      \"sdy.return\"(%2) : (tensor<1x4xf32>) -> ()\n"
      "    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
      "    return %1 : tensor<2x4xf32>\n"
      "  }\n"
      "}\n";
  check_prints_as(generic, strlen(generic), want, __LINE__);
  EXPECT_ERROR("module {\n  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
               "    %0 = sdy.manual_computation(%x) in_shardings=[<@m, [{}]>] out_shardings=[<@m, [{}]>] manual_axes={} (%a: tensor<2xf32>) {\n"
               "      stablehlo.return %a : tensor<2xf32>\n    } : (tensor<2xf32>) -> tensor<2xf32>\n"
               "    return %0 : tensor<2xf32>\n  }\n}\n",
               HR_VERIFY_ERROR, "must end with sdy.return");
}

/* What older StableHLO text spells differently reads as today's form: integer lists written as
 * dense<...> : tensor<Nxi64> become array<i64: ...>, and raw NUL bytes stay in strings. */
TEST(older_spellings) {
  static const char text[] =
      "func.func public @main(%arg0: tensor<4xf32>) -> tensor<2xf32> {\n"
      "  %0 = \"stablehlo.slice\"(%arg0) {limit_indices = dense<4> : tensor<1xi64>, start_indices = dense<0> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} : (tensor<4xf32>) -> tensor<2xf32>\n"
      "  %1 = stablehlo.custom_call @f(%0) {backend_config = \"a\0b\"} : (tensor<2xf32>) -> tensor<2xf32>\n"
      "  return %1 : tensor<2xf32>\n"
      "}\n";
  check_prints_as(text, sizeof text - 1,
                  "module {\n"
                  "  func.func public @main(%arg0: tensor<4xf32>) -> tensor<2xf32> {\n"
                  "    %0 = stablehlo.slice %arg0 [0:4:2] : (tensor<4xf32>) -> tensor<2xf32>\n"
                  "    %1 = stablehlo.custom_call @f(%0) {backend_config = \"a\\00b\"} : (tensor<2xf32>) -> tensor<2xf32>\n"
                  "    return %1 : tensor<2xf32>\n"
                  "  }\n"
                  "}\n",
                  __LINE__);
}

TEST(parse_file) {
  char path[] = "/tmp/hlorun_test_parse_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  FILE *f = fdopen(fd, "w");
  fputs(k_add_module, f);
  fclose(f);
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse_file(path, NULL, &m));
  if (m) {
    CHECK_EQ_INT(m->n_funcs, 2);
    CHECK(strcmp(m->funcs[0]->body.ops[0]->loc.file, path) == 0);
  }
  hr_module_free(m);
  remove(path);
  hr_status s = hr_module_parse_file(path, NULL, &m);
  CHECK(hr_status_code(s) == HR_NOT_FOUND && m == NULL);
  hr_status_free(s);
}

TEST(syntax_error_positions) {
  EXPECT_ERROR("module {\n  func.func @main() {\n    return\n  }\n", HR_PARSE_ERROR,
               "t.mlir:5:1: expected 'func.func' or '}', found end of input");
  EXPECT_ERROR("module {\n  stablehlo.add\n}\n", HR_PARSE_ERROR,
               "t.mlir:2:3: unknown operation 'stablehlo.add' in module body");
  EXPECT_ERROR("func.func @main(%a tensor<f32>) {\n  return\n}\n", HR_PARSE_ERROR,
               "t.mlir:1:20: expected ':', found 'tensor'");
  EXPECT_ERROR("module {\n}\nmodule {\n}\n", HR_PARSE_ERROR, "t.mlir:3:1: expected a single module");
  EXPECT_ERROR("func.func @main() {\n  return\n} $\n", HR_PARSE_ERROR,
               "t.mlir:3:3: unexpected character '$'");
  EXPECT_ERROR("{-# dialect_resources: {} #-}\n", HR_UNIMPLEMENTED, "dialect resource");
}

int main(void) {
  RUN(module_structure);
  RUN(bare_functions_and_single_results);
  RUN(multi_result_values);
  RUN(region_scoping);
  RUN(value_errors);
  RUN(types);
  RUN(spec_types_parse_and_print);
  RUN(type_errors);
  RUN(scalar_attributes);
  RUN(scalar_attribute_errors);
  RUN(strings_symbols_arrays_dicts);
  RUN(dense_arrays);
  RUN(dense_elements);
  RUN(dense_errors);
  RUN(constant_size_limit);
  RUN(enums_and_structs);
  RUN(forms_broadcast_transpose_iota);
  RUN(forms_slice_concat_pad);
  RUN(forms_compare_select_clamp);
  RUN(forms_dot_and_convolution);
  RUN(forms_calls_and_misc);
  RUN(while_and_reduce_forms);
  RUN(pretty_form_errors);
  RUN(locations);
  RUN(nesting_limits);
  RUN(truncation_never_crashes);
  RUN(length_is_honoured_and_nul_rejected);
  RUN(shardy_ops_and_attributes);
  RUN(older_spellings);
  RUN(parse_file);
  RUN(syntax_error_positions);
  TEST_MAIN_END();
}

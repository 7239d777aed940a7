/* Unit tests for shape inference (src/ir/infer*.c) on hand-built ops. */
#include <stdarg.h>
#include <string.h>

#include "ir/infer_internal.h"
#include "test.h"

/* ---- builders --------------------------------------------------------------------------- */

#define NDIMS(...) ((int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
/* A tensor type: TY(HR_F32, 2, 3) is tensor<2x3xf32>; SC(HR_F32) is tensor<f32>. */
#define TY(dt, ...) hr_tensor_type(dt, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define SC(dt) hr_tensor_type(dt, 0, NULL)
/* An integer list attribute: INTS(m, 1, 2). */
#define INTS(m, ...) ints_attr(m, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define D HR_DYNAMIC

/* array<i64: ...> with n entries. */
static hr_attr *ints_attr(hr_module *m, int n, const int64_t *v) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_DENSE_ARRAY);
  a->u.dense_array.dtype = HR_I64;
  a->u.dense_array.n = n;
  a->u.dense_array.ints = HR_ARENA_ARRAY(&m->arena, int64_t, n ? (size_t)n : 1);
  if (n) memcpy(a->u.dense_array.ints, v, sizeof(int64_t) * (size_t)n);
  return a;
}

/* `v : i64`. */
static hr_attr *int_attr(hr_module *m, int64_t v) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_INT);
  a->u.i.value = v;
  a->u.i.dtype = HR_I64;
  return a;
}

/* #stablehlo<name value>. */
static hr_attr *enum_attr(hr_module *m, const char *name, const char *value) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_ENUM);
  a->u.enm.dialect = "stablehlo";
  a->u.enm.name = name;
  a->u.enm.value = value;
  return a;
}

/* true / false. */
static hr_attr *bool_attr(hr_module *m, bool b) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_BOOL);
  a->u.b = b;
  return a;
}

/* A struct attribute with `n` fields given as name, value pairs. */
static hr_attr *struct_attr(hr_module *m, const char *name, int n, ...) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_STRUCT);
  a->u.strct.name = name;
  a->u.strct.n = n;
  a->u.strct.fields = HR_ARENA_ARRAY(&m->arena, hr_named_attr, (size_t)n);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    a->u.strct.fields[i].name = va_arg(ap, const char *);
    a->u.strct.fields[i].value = va_arg(ap, hr_attr *);
  }
  va_end(ap);
  return a;
}

/* dense<...> : tensor<rows x 2 x i64> from 2*rows values. */
static hr_attr *pairs_attr(hr_module *m, int rows, const int64_t *v) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_DENSE);
  int64_t dims[2] = {rows, 2};
  a->u.dense.type = hr_tensor_type(HR_I64, 2, dims);
  a->u.dense.nbytes = sizeof(int64_t) * 2 * (size_t)rows;
  void *data = hr_arena_alloc(&m->arena, a->u.dense.nbytes ? a->u.dense.nbytes : 1, 8);
  memcpy(data, v, a->u.dense.nbytes);
  a->u.dense.data = data;
  return a;
}

/* Creates an op with operands of the given types (fresh values) and declared result types. */
static hr_op *op_new(hr_module *m, hr_opcode code, int n_in, const hr_type *in, int n_out,
                     const hr_type *out) {
  hr_op *op = HR_ARENA_NEW(&m->arena, hr_op);
  op->code = code;
  op->loc = (hr_loc){"t.mlir", 3, 7};
  op->n_operands = n_in;
  op->operands = HR_ARENA_ARRAY(&m->arena, hr_value *, n_in ? (size_t)n_in : 1);
  for (int i = 0; i < n_in; i++) {
    op->operands[i] = HR_ARENA_NEW(&m->arena, hr_value);
    op->operands[i]->type = in[i];
  }
  op->n_results = n_out;
  op->results = HR_ARENA_ARRAY(&m->arena, hr_value, n_out ? (size_t)n_out : 1);
  for (int i = 0; i < n_out; i++) {
    op->results[i].type = out[i];
    op->results[i].def = op;
    op->results[i].index = (uint32_t)i;
  }
  return op;
}

/* Shorthand for the common one-result op. */
static hr_op *op1(hr_module *m, hr_opcode code, int n_in, const hr_type *in, hr_type out) {
  return op_new(m, code, n_in, in, 1, &out);
}

/* Adds attribute `name` to op. */
static void set_attr(hr_module *m, hr_op *op, const char *name, hr_attr *a) {
  hr_named_attr *attrs = HR_ARENA_ARRAY(&m->arena, hr_named_attr, (size_t)op->n_attrs + 1);
  if (op->n_attrs) memcpy(attrs, op->attrs, sizeof *attrs * (size_t)op->n_attrs);
  attrs[op->n_attrs++] = (hr_named_attr){name, a};
  op->attrs = attrs;
}

/* Gives op `n` regions (initially empty blocks). */
static void add_regions(hr_module *m, hr_op *op, int n) {
  op->n_regions = n;
  op->regions = HR_ARENA_ARRAY(&m->arena, hr_block, (size_t)n);
  for (int r = 0; r < n; r++) op->regions[r].parent_op = op;
}

/* Fills region `r` with block arguments of the given types and a stablehlo.return of the
 * argument values listed in `ret` (n_ret of them, indices into the arguments), or of fresh values
 * of the types in `ret_types` when `ret` is NULL. */
static void fill_region(hr_module *m, hr_op *op, int r, int n_args, const hr_type *args, int n_ret,
                        const int *ret, const hr_type *ret_types) {
  hr_block *b = &op->regions[r];
  b->n_args = n_args;
  b->args = HR_ARENA_ARRAY(&m->arena, hr_value, n_args ? (size_t)n_args : 1);
  for (int i = 0; i < n_args; i++) {
    b->args[i].type = args[i];
    b->args[i].owner = b;
    b->args[i].index = (uint32_t)i;
  }
  hr_op *rop = op_new(m, HR_OP_RETURN, 0, NULL, 0, NULL);
  rop->n_operands = n_ret;
  rop->operands = HR_ARENA_ARRAY(&m->arena, hr_value *, n_ret ? (size_t)n_ret : 1);
  for (int i = 0; i < n_ret; i++) {
    if (ret) {
      rop->operands[i] = &b->args[ret[i]];
    } else {
      rop->operands[i] = HR_ARENA_NEW(&m->arena, hr_value);
      rop->operands[i]->type = ret_types[i];
    }
  }
  rop->parent = b;
  b->n_ops = 1;
  b->ops = HR_ARENA_ARRAY(&m->arena, hr_op *, 1);
  b->ops[0] = rop;
}

/* A reducer region over n element types: 2n scalar args, returning the first n. */
static void reducer(hr_module *m, hr_op *op, int r, int n, const hr_dtype *types) {
  hr_type args[8];
  int ret[4];
  for (int i = 0; i < n; i++) {
    args[i] = args[n + i] = SC(types[i]);
    ret[i] = i;
  }
  fill_region(m, op, r, 2 * n, args, n, ret, NULL);
}

/* ---- checks ------------------------------------------------------------------------------ */

/* Runs inference on op with its operands' declared types (and optional runtime values). */
static hr_status infer_vals(const hr_op *op, const hr_tensor *const *vals, hr_type *out) {
  hr_type in[16];
  for (int i = 0; i < op->n_operands && i < 16; i++) in[i] = op->operands[i]->type;
  return hr_infer_result_types(op, in, vals, out);
}

/* Checks that inference succeeds and result #0 equals `want`. */
#define EXPECT_TYPE(op, want) expect_type_at(__LINE__, op, NULL, 0, want)
#define EXPECT_TYPE_N(op, i, want) expect_type_at(__LINE__, op, NULL, i, want)
#define EXPECT_TYPE_V(op, vals, want) expect_type_at(__LINE__, op, vals, 0, want)
static void expect_type_at(int line, const hr_op *op, const hr_tensor *const *vals, int i, hr_type want) {
  hr_type out[8];
  hr_status s = infer_vals(op, vals, out);
  if (s) {
    fprintf(stderr, "line %d: unexpected error: %s\n", line, hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
    return;
  }
  if (!hr_type_equal(&out[i], &want)) {
    hri_tbuf b1, b2;
    fprintf(stderr, "line %d: inferred %s, expected %s\n", line, hri_type_str(&out[i], &b1),
            hri_type_str(&want, &b2));
    test_failures_++;
  }
}

/* Checks that inference fails with `code` and a message containing `needle` and the position. */
#define EXPECT_ERR(op, needle) expect_err_at(__LINE__, op, NULL, HR_VERIFY_ERROR, needle)
#define EXPECT_ERR_V(op, vals, code, needle) expect_err_at(__LINE__, op, vals, code, needle)
static void expect_err_at(int line, const hr_op *op, const hr_tensor *const *vals, hr_code code,
                          const char *needle) {
  hr_type out[8];
  hr_status s = infer_vals(op, vals, out);
  if (!s) {
    fprintf(stderr, "line %d: expected an error containing \"%s\"\n", line, needle);
    test_failures_++;
    return;
  }
  const char *msg = hr_status_message(s);
  if (hr_status_code(s) != code || !strstr(msg, needle) || !strstr(msg, "t.mlir:3:7:")) {
    fprintf(stderr, "line %d: got %s: %s; expected %s with \"%s\"\n", line, hr_code_name(hr_status_code(s)),
            msg, hr_code_name(code), needle);
    test_failures_++;
  }
  hr_status_free(s);
}

/* A fresh module for one test. */
static hr_module *new_module(void) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_new(NULL, "t.mlir", &m));
  return m;
}

/* A runtime 1-D tensor of int32 values. */
static hr_tensor *i32_tensor(int n, const int32_t *v) {
  hr_tensor *t = NULL;
  hr_shape s = {.rank = 1, .dims = {n}};
  CHECK_OK(hr_tensor_create(NULL, HR_I32, &s, 0, &t));
  if (t && n) memcpy(t->data, v, sizeof(int32_t) * (size_t)n);
  return t;
}

/* ---- elementwise -------------------------------------------------------------------------- */

TEST(unary_ops) {
  hr_module *m = new_module();
  hr_type c64 = TY(HR_C64, 2, 3), f32 = TY(HR_F32, 2, 3), i32 = TY(HR_I32, 2, 3), pred = TY(HR_I1, 2, 3);
  EXPECT_TYPE(op1(m, HR_OP_ABS, 1, &c64, f32), f32);
  EXPECT_TYPE(op1(m, HR_OP_ABS, 1, &i32, i32), i32);
  EXPECT_TYPE(op1(m, HR_OP_REAL, 1, &c64, f32), f32);
  EXPECT_TYPE(op1(m, HR_OP_IMAG, 1, &f32, f32), f32);
  EXPECT_TYPE(op1(m, HR_OP_IS_FINITE, 1, &f32, pred), pred);
  EXPECT_TYPE(op1(m, HR_OP_NOT, 1, &pred, pred), pred);
  EXPECT_TYPE(op1(m, HR_OP_POPCNT, 1, &i32, i32), i32);
  EXPECT_TYPE(op1(m, HR_OP_CHLO_ERF, 1, &f32, f32), f32);
  EXPECT_ERR(op1(m, HR_OP_SQRT, 1, &i32, i32), "element type i32 is not supported");
  EXPECT_ERR(op1(m, HR_OP_POPCNT, 1, &pred, pred), "element type i1 is not supported");
  EXPECT_ERR(op1(m, HR_OP_FLOOR, 1, &c64, c64), "not supported");
  hr_type dyn = TY(HR_F32, D, 3);
  EXPECT_TYPE(op1(m, HR_OP_EXPONENTIAL, 1, &dyn, dyn), dyn);
  hr_module_free(m);
}

TEST(binary_ops) {
  hr_module *m = new_module();
  hr_type a[2] = {TY(HR_F32, D, 3), TY(HR_F32, 2, D)};
  EXPECT_TYPE(op1(m, HR_OP_ADD, 2, a, TY(HR_F32, 2, 3)), TY(HR_F32, 2, 3));
  hr_type bad[2] = {TY(HR_F32, 2, 3), TY(HR_F32, 3, 2)};
  EXPECT_ERR(op1(m, HR_OP_MULTIPLY, 2, bad, bad[0]), "dimension 0 has sizes 2 and 3");
  hr_type mixed[2] = {TY(HR_F32, 2), TY(HR_F64, 2)};
  EXPECT_ERR(op1(m, HR_OP_ADD, 2, mixed, mixed[0]), "same element type");
  hr_type f[2] = {TY(HR_F64, 4), TY(HR_F64, 4)};
  EXPECT_TYPE(op1(m, HR_OP_COMPLEX, 2, f, TY(HR_C128, 4)), TY(HR_C128, 4));
  EXPECT_ERR(op1(m, HR_OP_SHIFT_LEFT, 2, f, f[0]), "not supported");
  hr_type rank[2] = {TY(HR_I8, 2), TY(HR_I8, 2, 1)};
  EXPECT_ERR(op1(m, HR_OP_AND, 2, rank, rank[0]), "ranks 1 and 2 differ");
  hr_module_free(m);
}

TEST(compare_select_clamp) {
  hr_module *m = new_module();
  hr_type a[2] = {TY(HR_I32, 4), TY(HR_I32, 4)};
  hr_op *op = op1(m, HR_OP_COMPARE, 2, a, TY(HR_I1, 4));
  EXPECT_ERR(op, "comparison_direction");
  set_attr(m, op, "comparison_direction", enum_attr(m, "comparison_direction", "LT"));
  EXPECT_TYPE(op, TY(HR_I1, 4));
  /* whether compare_type suits the element type is checked when the op runs (StableHLO's verifier
   * accepts any pairing); an unknown comparison type is an error here */
  set_attr(m, op, "compare_type", enum_attr(m, "comparison_type", "FLOAT"));
  EXPECT_TYPE(op, TY(HR_I1, 4));
  hr_op *fuzzy = op1(m, HR_OP_COMPARE, 2, a, TY(HR_I1, 4));
  set_attr(m, fuzzy, "comparison_direction", enum_attr(m, "comparison_direction", "LT"));
  set_attr(m, fuzzy, "compare_type", enum_attr(m, "comparison_type", "FUZZY"));
  EXPECT_ERR(fuzzy, "attribute 'compare_type' must be a comparison type");
  hr_op *bad_dir = op1(m, HR_OP_COMPARE, 2, a, TY(HR_I1, 4));
  set_attr(m, bad_dir, "comparison_direction", enum_attr(m, "comparison_direction", "XX"));
  EXPECT_ERR(bad_dir, "unknown comparison direction");

  hr_type sel[3] = {SC(HR_I1), TY(HR_F32, 2, D), TY(HR_F32, D, 5)};
  EXPECT_TYPE(op1(m, HR_OP_SELECT, 3, sel, TY(HR_F32, 2, 5)), TY(HR_F32, 2, 5));
  hr_type sel_bad[3] = {TY(HR_I1, 3), TY(HR_F32, 2), TY(HR_F32, 2)};
  EXPECT_ERR(op1(m, HR_OP_SELECT, 3, sel_bad, sel_bad[1]), "predicate shape");
  hr_type cl[3] = {SC(HR_F32), TY(HR_F32, 7), TY(HR_F32, 7)};
  EXPECT_TYPE(op1(m, HR_OP_CLAMP, 3, cl, TY(HR_F32, 7)), TY(HR_F32, 7));
  hr_type cl_bad[3] = {TY(HR_F32, 6), TY(HR_F32, 7), SC(HR_F32)};
  EXPECT_ERR(op1(m, HR_OP_CLAMP, 3, cl_bad, TY(HR_F32, 7)), "min shape");
  hr_module_free(m);
}

TEST(convert_and_bitcast) {
  hr_module *m = new_module();
  hr_type f32 = TY(HR_F32, 4, D);
  EXPECT_TYPE(op1(m, HR_OP_CONVERT, 1, &f32, TY(HR_I8, 4, 3)), TY(HR_I8, 4, D));
  hr_type v = TY(HR_F32, 4);
  EXPECT_TYPE(op1(m, HR_OP_BITCAST_CONVERT, 1, &v, TY(HR_I8, 4, 4)), TY(HR_I8, 4, 4));
  EXPECT_TYPE(op1(m, HR_OP_BITCAST_CONVERT, 1, &v, TY(HR_U32, 4)), TY(HR_U32, 4));
  hr_type bytes = TY(HR_U8, 4, 8);
  EXPECT_TYPE(op1(m, HR_OP_BITCAST_CONVERT, 1, &bytes, TY(HR_F64, 4)), TY(HR_F64, 4));
  hr_type bytes3 = TY(HR_U8, 4, 3);
  EXPECT_ERR(op1(m, HR_OP_BITCAST_CONVERT, 1, &bytes3, TY(HR_F32, 4)), "last operand dimension must be 4");
  EXPECT_ERR(op1(m, HR_OP_BITCAST_CONVERT, 1, &v, TY(HR_C64, 4)), "complex");
  hr_type max_rank = hr_tensor_type(HR_F32, HR_MAX_RANK, (int64_t[HR_MAX_RANK]){1});
  EXPECT_ERR(op1(m, HR_OP_BITCAST_CONVERT, 1, &max_rank, TY(HR_I8, 1)), "rank would exceed");
  hr_type fp = TY(HR_F16, 3);
  hr_op *rp = op1(m, HR_OP_REDUCE_PRECISION, 1, &fp, fp);
  EXPECT_ERR(rp, "exponent_bits");
  set_attr(m, rp, "exponent_bits", int_attr(m, 5));
  set_attr(m, rp, "mantissa_bits", int_attr(m, 10));
  EXPECT_TYPE(rp, fp);
  hr_module_free(m);
}

/* ---- shapes ------------------------------------------------------------------------------- */

TEST(broadcast_reshape_transpose) {
  hr_module *m = new_module();
  hr_type x = TY(HR_F32, 1, 3);
  hr_op *b = op1(m, HR_OP_BROADCAST_IN_DIM, 1, &x, TY(HR_F32, 2, 5, 3));
  set_attr(m, b, "broadcast_dimensions", INTS(m, 1, 2));
  EXPECT_TYPE(b, TY(HR_F32, 2, 5, 3));
  hr_op *b2 = op1(m, HR_OP_BROADCAST_IN_DIM, 1, &x, TY(HR_F32, 2, 5, 4));
  set_attr(m, b2, "broadcast_dimensions", INTS(m, 1, 2));
  EXPECT_ERR(b2, "cannot broadcast");
  hr_op *b3 = op1(m, HR_OP_BROADCAST_IN_DIM, 1, &x, TY(HR_F32, 2, 5, 3));
  set_attr(m, b3, "broadcast_dimensions", INTS(m, 2, 2));
  EXPECT_ERR(b3, "appears twice");
  hr_op *b4 = op1(m, HR_OP_BROADCAST_IN_DIM, 1, &x, TY(HR_F32, 2, 5, 3));
  set_attr(m, b4, "broadcast_dimensions", INTS(m, 0, 3));
  EXPECT_ERR(b4, "outside [0, 3)");
  hr_op *b5 = op1(m, HR_OP_BROADCAST_IN_DIM, 1, &x, TY(HR_F32, D, 3));
  set_attr(m, b5, "broadcast_dimensions", INTS(m, 0, 1));
  EXPECT_ERR(b5, "statically shaped");
  EXPECT_ERR(op1(m, HR_OP_BROADCAST_IN_DIM, 1, &x, TY(HR_F32, 2, 5, 3)),
             "missing attribute 'broadcast_dimensions'");

  hr_op *r = op1(m, HR_OP_RESHAPE, 1, &x, TY(HR_F32, 3, 1));
  EXPECT_TYPE(r, TY(HR_F32, 3, 1));
  EXPECT_ERR(op1(m, HR_OP_RESHAPE, 1, &x, TY(HR_F32, 4)), "cannot reshape 3 elements into 4");

  hr_type t3 = TY(HR_I8, 2, D, 4);
  hr_op *t = op1(m, HR_OP_TRANSPOSE, 1, &t3, TY(HR_I8, 4, 2, 7));
  set_attr(m, t, "permutation", INTS(m, 2, 0, 1));
  EXPECT_TYPE(t, TY(HR_I8, 4, 2, D));
  hr_op *tb = op1(m, HR_OP_TRANSPOSE, 1, &t3, t3);
  set_attr(m, tb, "permutation", INTS(m, 0, 0, 1));
  EXPECT_ERR(tb, "appears twice");
  hr_op *tl = op1(m, HR_OP_TRANSPOSE, 1, &t3, t3);
  set_attr(m, tl, "permutation", INTS(m, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16));
  EXPECT_ERR(tl, "exceeds 16");

  hr_op *bc = op1(m, HR_OP_BROADCAST, 1, &x, TY(HR_F32, 6, 1, 3));
  set_attr(m, bc, "broadcast_sizes", INTS(m, 6));
  EXPECT_TYPE(bc, TY(HR_F32, 6, 1, 3));
  hr_module_free(m);
}

TEST(slice_concat_pad_reverse) {
  hr_module *m = new_module();
  hr_type x = TY(HR_F32, 10, D);
  hr_op *s = op1(m, HR_OP_SLICE, 1, &x, TY(HR_F32, 3, 2));
  set_attr(m, s, "start_indices", INTS(m, 1, 0));
  set_attr(m, s, "limit_indices", INTS(m, 8, 2));
  set_attr(m, s, "strides", INTS(m, 3, 1));
  EXPECT_TYPE(s, TY(HR_F32, 3, 2));
  hr_op *s2 = op1(m, HR_OP_SLICE, 1, &x, x);
  set_attr(m, s2, "start_indices", INTS(m, 0, 0));
  set_attr(m, s2, "limit_indices", INTS(m, 11, 2));
  EXPECT_ERR(s2, "does not fit in size 10");
  hr_op *s3 = op1(m, HR_OP_SLICE, 1, &x, x);
  set_attr(m, s3, "start_indices", INTS(m, 0, 0));
  set_attr(m, s3, "limit_indices", INTS(m, 1, 2));
  set_attr(m, s3, "strides", INTS(m, 0, 1));
  EXPECT_ERR(s3, "must be positive");

  hr_type parts[3] = {TY(HR_I32, 2, 3), TY(HR_I32, 2, 4), TY(HR_I32, D, 1)};
  hr_op *c = op1(m, HR_OP_CONCATENATE, 3, parts, TY(HR_I32, 2, 8));
  set_attr(m, c, "dimension", int_attr(m, 1));
  EXPECT_TYPE(c, TY(HR_I32, 2, 8));
  hr_op *c2 = op1(m, HR_OP_CONCATENATE, 3, parts, TY(HR_I32, 2, 8));
  set_attr(m, c2, "dimension", int_attr(m, 0));
  EXPECT_ERR(c2, "dimension sizes 3 and 4 differ");

  hr_type pad_in[2] = {TY(HR_F32, 4, 3), SC(HR_F32)};
  hr_op *p = op1(m, HR_OP_PAD, 2, pad_in, TY(HR_F32, 6, 5));
  set_attr(m, p, "edge_padding_low", INTS(m, -1, 0));
  set_attr(m, p, "edge_padding_high", INTS(m, 0, 0));
  set_attr(m, p, "interior_padding", INTS(m, 1, 1));
  EXPECT_TYPE(p, TY(HR_F32, 6, 5));
  hr_op *p2 = op1(m, HR_OP_PAD, 2, pad_in, TY(HR_F32, 6, 5));
  set_attr(m, p2, "edge_padding_low", INTS(m, -5, 0));
  set_attr(m, p2, "edge_padding_high", INTS(m, 0, 0));
  set_attr(m, p2, "interior_padding", INTS(m, 0, 0));
  EXPECT_ERR(p2, "negative");
  hr_op *p3 = op1(m, HR_OP_PAD, 2, pad_in, TY(HR_F32, 6, 5));
  set_attr(m, p3, "edge_padding_low", INTS(m, 0, 0));
  set_attr(m, p3, "edge_padding_high", INTS(m, 0, INT64_MAX));
  set_attr(m, p3, "interior_padding", INTS(m, 0, INT64_MAX));
  EXPECT_ERR(p3, "overflows");

  hr_type r = TY(HR_F32, 2, 3);
  hr_op *rv = op1(m, HR_OP_REVERSE, 1, &r, r);
  set_attr(m, rv, "dimensions", INTS(m, 1));
  EXPECT_TYPE(rv, r);
  hr_op *rv2 = op1(m, HR_OP_REVERSE, 1, &r, r);
  set_attr(m, rv2, "dimensions", INTS(m, 2));
  EXPECT_ERR(rv2, "outside [0, 2)");
  hr_module_free(m);
}

TEST(iota_and_dimension_size) {
  hr_module *m = new_module();
  hr_op *i = op1(m, HR_OP_IOTA, 0, NULL, TY(HR_I32, 4, 5));
  set_attr(m, i, "iota_dimension", int_attr(m, 1));
  EXPECT_TYPE(i, TY(HR_I32, 4, 5));
  hr_op *i2 = op1(m, HR_OP_IOTA, 0, NULL, TY(HR_I32, 4, 5));
  set_attr(m, i2, "iota_dimension", int_attr(m, 2));
  EXPECT_ERR(i2, "iota_dimension 2 is outside");
  hr_op *huge = op1(m, HR_OP_IOTA, 0, NULL, TY(HR_I8, INT64_MAX / 2, 4));
  set_attr(m, huge, "iota_dimension", int_attr(m, 0));
  EXPECT_ERR(huge, "more than 2^63 elements");
  hr_type x = TY(HR_F32, D, 3);
  hr_op *g = op1(m, HR_OP_GET_DIMENSION_SIZE, 1, &x, SC(HR_I32));
  set_attr(m, g, "dimension", int_attr(m, 0));
  EXPECT_TYPE(g, SC(HR_I32));
  hr_module_free(m);
}

TEST(dynamic_shape_ops) {
  hr_module *m = new_module();
  hr_type bin[2] = {TY(HR_F32, 1, 3), TY(HR_I32, 3)};
  hr_op *b = op1(m, HR_OP_DYNAMIC_BROADCAST_IN_DIM, 2, bin, TY(HR_F32, D, D, D));
  set_attr(m, b, "broadcast_dimensions", INTS(m, 1, 2));
  EXPECT_TYPE(b, TY(HR_F32, D, D, 3));
  hr_tensor *shape = i32_tensor(3, (int32_t[]){2, 5, 3});
  const hr_tensor *vals[2] = {NULL, shape};
  EXPECT_TYPE_V(b, vals, TY(HR_F32, 2, 5, 3));
  hr_tensor *bad = i32_tensor(3, (int32_t[]){2, 5, 4});
  const hr_tensor *bad_vals[2] = {NULL, bad};
  EXPECT_ERR_V(b, bad_vals, HR_OUT_OF_RANGE, "do not fit");
  hr_tensor *neg = i32_tensor(3, (int32_t[]){2, -5, 3});
  const hr_tensor *neg_vals[2] = {NULL, neg};
  EXPECT_ERR_V(b, neg_vals, HR_OUT_OF_RANGE, "negative size");

  hr_type rin[2] = {TY(HR_F32, 2, 15), TY(HR_I32, 3)};
  hr_op *r = op1(m, HR_OP_DYNAMIC_RESHAPE, 2, rin, TY(HR_F32, D, D, D));
  EXPECT_TYPE(r, TY(HR_F32, D, D, D));
  const hr_tensor *rvals[2] = {NULL, shape};
  EXPECT_TYPE_V(r, rvals, TY(HR_F32, 2, 5, 3));
  const hr_tensor *rbad[2] = {NULL, bad};
  EXPECT_ERR_V(r, rbad, HR_OUT_OF_RANGE, "cannot reshape 30 elements into 40");

  hr_type iin = TY(HR_I32, 3);
  hr_op *io = op1(m, HR_OP_DYNAMIC_IOTA, 1, &iin, TY(HR_F32, D, D, D));
  set_attr(m, io, "iota_dimension", int_attr(m, 2));
  const hr_tensor *ivals[1] = {shape};
  EXPECT_TYPE_V(io, ivals, TY(HR_F32, 2, 5, 3));

  hr_type sin[4] = {TY(HR_F32, 10, 10, 10), TY(HR_I32, 3), TY(HR_I32, 3), TY(HR_I32, 3)};
  hr_op *s = op1(m, HR_OP_REAL_DYNAMIC_SLICE, 4, sin, TY(HR_F32, D, D, D));
  hr_tensor *lim = i32_tensor(3, (int32_t[]){9, 10, 8});
  hr_tensor *str = i32_tensor(3, (int32_t[]){3, 1, 2});
  const hr_tensor *svals[4] = {NULL, shape, lim, str};
  EXPECT_TYPE_V(s, svals, TY(HR_F32, 3, 5, 3));
  const hr_tensor *sbad[4] = {NULL, lim, shape, str};
  EXPECT_ERR_V(s, sbad, HR_OUT_OF_RANGE, "does not fit");

  hr_type pin[5] = {TY(HR_F32, 4, 3), SC(HR_F32), TY(HR_I32, 2), TY(HR_I32, 2), TY(HR_I32, 2)};
  hr_op *p = op1(m, HR_OP_DYNAMIC_PAD, 5, pin, TY(HR_F32, D, D));
  hr_tensor *lo = i32_tensor(2, (int32_t[]){1, -1});
  hr_tensor *interior = i32_tensor(2, (int32_t[]){1, 0});
  const hr_tensor *pvals[5] = {NULL, NULL, lo, lo, interior};
  EXPECT_TYPE_V(p, pvals, TY(HR_F32, 9, 1));
  EXPECT_TYPE(p, TY(HR_F32, D, D));
  hr_tensor_free(shape);
  hr_tensor_free(bad);
  hr_tensor_free(neg);
  hr_tensor_free(lim);
  hr_tensor_free(str);
  hr_tensor_free(lo);
  hr_tensor_free(interior);
  hr_module_free(m);
}

TEST(shape_operand_from_constant) {
  hr_module *m = new_module();
  hr_op *cst = op1(m, HR_OP_CONSTANT, 0, NULL, TY(HR_I64, 2));
  hr_attr *value = hr_attr_new(m, HR_ATTR_DENSE);
  value->u.dense.type = TY(HR_I64, 2);
  static const int64_t dims[2] = {6, 5};
  value->u.dense.data = dims;
  value->u.dense.nbytes = sizeof dims;
  set_attr(m, cst, "value", value);
  EXPECT_TYPE(cst, TY(HR_I64, 2));
  hr_type rin[2] = {TY(HR_F32, 30), TY(HR_I64, 2)};
  hr_op *r = op1(m, HR_OP_DYNAMIC_RESHAPE, 2, rin, TY(HR_F32, D, D));
  r->operands[1] = &cst->results[0];
  EXPECT_TYPE(r, TY(HR_F32, 6, 5));
  value->u.dense.nbytes = 4; /* truncated data must not be read */
  EXPECT_ERR(cst, "data size does not match");
  EXPECT_TYPE(r, TY(HR_F32, D, D));
  hr_module_free(m);
}

/* ---- indexing ----------------------------------------------------------------------------- */

TEST(gather_spec_example) {
  hr_module *m = new_module();
  hr_type in[2] = {TY(HR_I32, 2, 3, 4, 2), TY(HR_I64, 2, 2, 3, 2)};
  hr_op *g = op1(m, HR_OP_GATHER, 2, in, TY(HR_I32, 2, 2, 3, 2, 2));
  set_attr(m, g, "dimension_numbers",
           struct_attr(m, "stablehlo.gather", 6, "offset_dims", INTS(m, 3, 4), "collapsed_slice_dims",
                       INTS(m, 1), "operand_batching_dims", INTS(m, 0), "start_indices_batching_dims",
                       INTS(m, 1), "start_index_map", INTS(m, 2, 1), "index_vector_dim", int_attr(m, 3)));
  set_attr(m, g, "slice_sizes", INTS(m, 1, 1, 2, 2));
  EXPECT_TYPE(g, TY(HR_I32, 2, 2, 3, 2, 2));

  hr_op *g2 = op1(m, HR_OP_GATHER, 2, in, TY(HR_I32, 2, 2, 3, 2, 2));
  set_attr(m, g2, "dimension_numbers",
           struct_attr(m, "stablehlo.gather", 6, "offset_dims", INTS(m, 3, 4), "collapsed_slice_dims",
                       INTS(m, 1), "operand_batching_dims", INTS(m, 0), "start_indices_batching_dims",
                       INTS(m, 1), "start_index_map", INTS(m, 2, 1), "index_vector_dim", int_attr(m, 3)));
  set_attr(m, g2, "slice_sizes", INTS(m, 1, 2, 2, 2));
  EXPECT_ERR(g2, "must be at most 1");

  hr_type in2[2] = {TY(HR_F32, 10, 10, 10), TY(HR_I64, 3, 1, 1)};
  hr_op *g3 = op1(m, HR_OP_GATHER, 2, in2, TY(HR_F32, 3, 1, 10, 10));
  set_attr(m, g3, "dimension_numbers",
           struct_attr(m, "stablehlo.gather", 4, "offset_dims", INTS(m, 2, 3), "collapsed_slice_dims",
                       INTS(m, 0), "start_index_map", INTS(m, 0), "index_vector_dim", int_attr(m, 2)));
  set_attr(m, g3, "slice_sizes", INTS(m, 1, 10, 10));
  EXPECT_TYPE(g3, TY(HR_F32, 3, 1, 10, 10));
  hr_op *g4 = op1(m, HR_OP_GATHER, 2, in2, TY(HR_F32, 3, 1, 10, 10));
  set_attr(m, g4, "dimension_numbers",
           struct_attr(m, "stablehlo.gather", 4, "offset_dims", INTS(m, 2, 3), "collapsed_slice_dims",
                       INTS(m, 0), "start_index_map", INTS(m, 0, 1), "index_vector_dim", int_attr(m, 2)));
  set_attr(m, g4, "slice_sizes", INTS(m, 1, 10, 10));
  EXPECT_ERR(g4, "index vector has 1 entries but the index map has 2");
  hr_module_free(m);
}

TEST(scatter_spec_example) {
  hr_module *m = new_module();
  hr_type in[3] = {TY(HR_I64, 2, 3, 4, 2), TY(HR_I64, 2, 2, 3, 2), TY(HR_I64, 2, 2, 3, 2, 2)};
  hr_op *s = op1(m, HR_OP_SCATTER, 3, in, in[0]);
  set_attr(
      m, s, "scatter_dimension_numbers",
      struct_attr(m, "stablehlo.scatter", 6, "update_window_dims", INTS(m, 3, 4), "inserted_window_dims",
                  INTS(m, 1), "input_batching_dims", INTS(m, 0), "scatter_indices_batching_dims", INTS(m, 1),
                  "scatter_dims_to_operand_dims", INTS(m, 2, 1), "index_vector_dim", int_attr(m, 3)));
  add_regions(m, s, 1);
  reducer(m, s, 0, 1, (hr_dtype[]){HR_I64});
  EXPECT_TYPE(s, in[0]);
  reducer(m, s, 0, 1, (hr_dtype[]){HR_I32});
  EXPECT_ERR(s, "does not promote");
  hr_type big_upd[3] = {TY(HR_I64, 2, 3, 4, 2), TY(HR_I64, 2, 2, 3, 2), TY(HR_I64, 2, 2, 3, 2, 3)};
  hr_op *s2 = op1(m, HR_OP_SCATTER, 3, big_upd, in[0]);
  s2->attrs = s->attrs;
  s2->n_attrs = s->n_attrs;
  add_regions(m, s2, 1);
  reducer(m, s2, 0, 1, (hr_dtype[]){HR_I64});
  EXPECT_ERR(s2, "exceeds the input size 2");
  hr_module_free(m);
}

TEST(dynamic_slice_and_update) {
  hr_module *m = new_module();
  hr_type in[3] = {TY(HR_F32, 5, 3), SC(HR_I64), SC(HR_I64)};
  hr_op *s = op1(m, HR_OP_DYNAMIC_SLICE, 3, in, TY(HR_F32, 2, 1));
  set_attr(m, s, "slice_sizes", INTS(m, 2, 1));
  EXPECT_TYPE(s, TY(HR_F32, 2, 1));
  hr_op *s2 = op1(m, HR_OP_DYNAMIC_SLICE, 3, in, TY(HR_F32, 6, 1));
  set_attr(m, s2, "slice_sizes", INTS(m, 6, 1));
  EXPECT_ERR(s2, "outside [0, 5]");
  hr_type mixed[3] = {TY(HR_F32, 5, 3), SC(HR_I64), SC(HR_U8)};
  hr_op *s3 = op1(m, HR_OP_DYNAMIC_SLICE, 3, mixed, TY(HR_F32, 2, 1));
  set_attr(m, s3, "slice_sizes", INTS(m, 2, 1));
  EXPECT_ERR(s3, "same element type");
  hr_type up[4] = {TY(HR_F32, D, 4), TY(HR_F32, 2, 4), SC(HR_I32), SC(HR_I32)};
  EXPECT_TYPE(op1(m, HR_OP_DYNAMIC_UPDATE_SLICE, 4, up, TY(HR_F32, D, 4)), TY(HR_F32, D, 4));
  hr_type up_bad[4] = {TY(HR_F32, 3, 4), TY(HR_F32, 2, 5), SC(HR_I32), SC(HR_I32)};
  EXPECT_ERR(op1(m, HR_OP_DYNAMIC_UPDATE_SLICE, 4, up_bad, up_bad[0]), "exceeds the operand size 4");
  hr_module_free(m);
}

TEST(sort_and_top_k) {
  hr_module *m = new_module();
  hr_type in[2] = {TY(HR_F32, 4, 5), TY(HR_I32, 4, 5)};
  hr_op *s = op_new(m, HR_OP_SORT, 2, in, 2, in);
  set_attr(m, s, "dimension", int_attr(m, 1));
  add_regions(m, s, 1);
  hr_type args[4] = {SC(HR_F32), SC(HR_F32), SC(HR_I32), SC(HR_I32)};
  hr_type pred = SC(HR_I1);
  fill_region(m, s, 0, 4, args, 1, NULL, &pred);
  EXPECT_TYPE_N(s, 1, in[1]);
  fill_region(m, s, 0, 4, args, 1, (int[]){0}, NULL);
  EXPECT_ERR(s, "comparator must return one tensor<i1>");
  hr_type t = TY(HR_F32, 3, 10);
  hr_type outs[2] = {TY(HR_F32, 3, 4), TY(HR_I32, 3, 4)};
  hr_op *k = op_new(m, HR_OP_CHLO_TOP_K, 1, &t, 2, outs);
  set_attr(m, k, "k", int_attr(m, 4));
  EXPECT_TYPE_N(k, 1, outs[1]);
  hr_module_free(m);
}

/* ---- contractions ------------------------------------------------------------------------- */

TEST(dot_general_and_dot) {
  hr_module *m = new_module();
  hr_type in[2] = {TY(HR_I8, 7, 2, 3), TY(HR_I8, 7, 3, 4)};
  hr_op *d = op1(m, HR_OP_DOT_GENERAL, 2, in, TY(HR_I32, 7, 2, 4));
  set_attr(m, d, "dot_dimension_numbers",
           struct_attr(m, "stablehlo.dot", 4, "lhs_batching_dimensions", INTS(m, 0),
                       "rhs_batching_dimensions", INTS(m, 0), "lhs_contracting_dimensions", INTS(m, 2),
                       "rhs_contracting_dimensions", INTS(m, 1)));
  EXPECT_TYPE(d, TY(HR_I32, 7, 2, 4));
  hr_op *d2 = op1(m, HR_OP_DOT_GENERAL, 2, in, TY(HR_I32, 7, 2, 4));
  set_attr(m, d2, "dot_dimension_numbers",
           struct_attr(m, "stablehlo.dot", 2, "lhs_contracting_dimensions", INTS(m, 1),
                       "rhs_contracting_dimensions", INTS(m, 1)));
  EXPECT_ERR(d2, "contracting dimensions: dimension sizes 2 and 3 differ");
  hr_type mv[2] = {TY(HR_F32, 3, 4), TY(HR_F32, 4)};
  EXPECT_TYPE(op1(m, HR_OP_DOT, 2, mv, TY(HR_F32, 3)), TY(HR_F32, 3));
  hr_type mm[2] = {TY(HR_F32, 3, 4), TY(HR_F32, 5, 2)};
  EXPECT_ERR(op1(m, HR_OP_DOT, 2, mm, TY(HR_F32, 3, 2)), "differ");
  hr_module_free(m);
}

/* Sets convolution dimension numbers for [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]. */
static void conv_nchw(hr_module *m, hr_op *op) {
  set_attr(
      m, op, "dimension_numbers",
      struct_attr(m, "stablehlo.conv", 9, "input_batch_dimension", int_attr(m, 0), "input_feature_dimension",
                  int_attr(m, 1), "input_spatial_dimensions", INTS(m, 2, 3), "kernel_input_feature_dimension",
                  int_attr(m, 1), "kernel_output_feature_dimension", int_attr(m, 0),
                  "kernel_spatial_dimensions", INTS(m, 2, 3), "output_batch_dimension", int_attr(m, 0),
                  "output_feature_dimension", int_attr(m, 1), "output_spatial_dimensions", INTS(m, 2, 3)));
}

TEST(convolution) {
  hr_module *m = new_module();
  /* The spec example: [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], strides 4, lhs dilation 2. */
  hr_type in[2] = {TY(HR_I64, 1, 4, 4, 1), TY(HR_I64, 3, 3, 1, 1)};
  hr_op *c = op1(m, HR_OP_CONVOLUTION, 2, in, TY(HR_I64, 1, 2, 2, 1));
  set_attr(m, c, "window_strides", INTS(m, 4, 4));
  set_attr(m, c, "lhs_dilation", INTS(m, 2, 2));
  set_attr(m, c, "padding", pairs_attr(m, 2, (int64_t[]){0, 0, 0, 0}));
  set_attr(
      m, c, "dimension_numbers",
      struct_attr(m, "stablehlo.conv", 9, "input_batch_dimension", int_attr(m, 0), "input_feature_dimension",
                  int_attr(m, 3), "input_spatial_dimensions", INTS(m, 1, 2), "kernel_input_feature_dimension",
                  int_attr(m, 2), "kernel_output_feature_dimension", int_attr(m, 3),
                  "kernel_spatial_dimensions", INTS(m, 0, 1), "output_batch_dimension", int_attr(m, 0),
                  "output_feature_dimension", int_attr(m, 3), "output_spatial_dimensions", INTS(m, 1, 2)));
  EXPECT_TYPE(c, TY(HR_I64, 1, 2, 2, 1));

  /* Grouped convolution (feature_group_count 3) and padding, from the corpus. */
  hr_type g[2] = {TY(HR_F32, 2, 3, 9, 9), TY(HR_F32, 12, 1, 3, 3)};
  hr_op *cg = op1(m, HR_OP_CONVOLUTION, 2, g, TY(HR_F32, 2, 12, 7, 7));
  conv_nchw(m, cg);
  set_attr(m, cg, "feature_group_count", int_attr(m, 3));
  EXPECT_TYPE(cg, TY(HR_F32, 2, 12, 7, 7));
  hr_op *cp = op1(m, HR_OP_CONVOLUTION, 2, g, TY(HR_F32, 2, 12, 4, 4));
  conv_nchw(m, cp);
  set_attr(m, cp, "feature_group_count", int_attr(m, 3));
  set_attr(m, cp, "window_strides", INTS(m, 2, 2));
  set_attr(m, cp, "rhs_dilation", INTS(m, 1, 2));
  set_attr(m, cp, "padding", pairs_attr(m, 2, (int64_t[]){1, 1, 2, -1}));
  EXPECT_TYPE(cp, TY(HR_F32, 2, 12, 5, 3));
  hr_op *bad = op1(m, HR_OP_CONVOLUTION, 2, g, TY(HR_F32, 2, 12, 7, 7));
  conv_nchw(m, bad);
  EXPECT_ERR(bad, "kernel input feature size 1 must be the input feature size 3");
  hr_op *dup = op1(m, HR_OP_CONVOLUTION, 2, g, TY(HR_F32, 2, 12, 7, 7));
  set_attr(
      m, dup, "dimension_numbers",
      struct_attr(m, "stablehlo.conv", 9, "input_batch_dimension", int_attr(m, 0), "input_feature_dimension",
                  int_attr(m, 0), "input_spatial_dimensions", INTS(m, 2, 3), "kernel_input_feature_dimension",
                  int_attr(m, 1), "kernel_output_feature_dimension", int_attr(m, 0),
                  "kernel_spatial_dimensions", INTS(m, 2, 3), "output_batch_dimension", int_attr(m, 0),
                  "output_feature_dimension", int_attr(m, 1), "output_spatial_dimensions", INTS(m, 2, 3)));
  EXPECT_ERR(dup, "input dimensions: dimension 0 appears twice");
  hr_module_free(m);
}

TEST(fft_and_linalg) {
  hr_module *m = new_module();
  hr_type r = TY(HR_F32, 4, 8);
  hr_op *f = op1(m, HR_OP_FFT, 1, &r, TY(HR_C64, 4, 5));
  set_attr(m, f, "fft_type", enum_attr(m, "fft_type", "RFFT"));
  set_attr(m, f, "fft_length", INTS(m, 8));
  EXPECT_TYPE(f, TY(HR_C64, 4, 5));
  hr_type cx = TY(HR_C64, 4, 5);
  hr_op *fi = op1(m, HR_OP_FFT, 1, &cx, TY(HR_F32, 4, 8));
  set_attr(m, fi, "fft_type", enum_attr(m, "fft_type", "IRFFT"));
  set_attr(m, fi, "fft_length", INTS(m, 8));
  EXPECT_TYPE(fi, TY(HR_F32, 4, 8));
  hr_op *fb = op1(m, HR_OP_FFT, 1, &r, r);
  set_attr(m, fb, "fft_type", enum_attr(m, "fft_type", "FFT"));
  set_attr(m, fb, "fft_length", INTS(m, 8));
  EXPECT_ERR(fb, "needs a complex operand");

  hr_type ts[2] = {TY(HR_F32, 2, 3, 3), TY(HR_F32, 2, 3, 5)};
  hr_op *t = op1(m, HR_OP_TRIANGULAR_SOLVE, 2, ts, ts[1]);
  set_attr(m, t, "left_side", bool_attr(m, true));
  set_attr(m, t, "transpose_a", enum_attr(m, "transpose", "NO_TRANSPOSE"));
  EXPECT_TYPE(t, ts[1]);
  hr_op *t2 = op1(m, HR_OP_TRIANGULAR_SOLVE, 2, ts, ts[1]);
  set_attr(m, t2, "left_side", bool_attr(m, false));
  set_attr(m, t2, "transpose_a", enum_attr(m, "transpose", "NO_TRANSPOSE"));
  EXPECT_ERR(t2, "a and b sizes");
  hr_type nsq = TY(HR_F32, 3, 4);
  EXPECT_ERR(op1(m, HR_OP_CHOLESKY, 1, &nsq, nsq), "matrix dimensions");

  hr_type bn[3] = {TY(HR_F32, 8, 4, 2), TY(HR_F32, 4), TY(HR_F32, 4)};
  hr_type bo[3] = {bn[0], TY(HR_F32, 4), TY(HR_F32, 4)};
  hr_op *b = op_new(m, HR_OP_BATCH_NORM_TRAINING, 3, bn, 3, bo);
  set_attr(m, b, "feature_index", int_attr(m, 1));
  hr_attr *eps = hr_attr_new(m, HR_ATTR_FLOAT);
  eps->u.f.value = 1e-5;
  set_attr(m, b, "epsilon", eps);
  EXPECT_TYPE_N(b, 2, bo[2]);
  hr_op *b2 = op_new(m, HR_OP_BATCH_NORM_TRAINING, 3, bn, 3, bo);
  set_attr(m, b2, "feature_index", int_attr(m, 0));
  set_attr(m, b2, "epsilon", eps);
  EXPECT_ERR(b2, "feature sizes");
  hr_module_free(m);
}

/* ---- reductions and control flow --------------------------------------------------------- */

TEST(reduce_variadic) {
  hr_module *m = new_module();
  hr_type in[4] = {TY(HR_F32, 3, D, 5), TY(HR_I32, 3, 4, 5), SC(HR_F32), SC(HR_I32)};
  hr_type out[2] = {TY(HR_F32, 4), TY(HR_I32, 4)};
  hr_op *r = op_new(m, HR_OP_REDUCE, 4, in, 2, out);
  set_attr(m, r, "dimensions", INTS(m, 0, 2));
  add_regions(m, r, 1);
  reducer(m, r, 0, 2, (hr_dtype[]){HR_F32, HR_I32});
  EXPECT_TYPE(r, TY(HR_F32, 4));
  EXPECT_TYPE_N(r, 1, TY(HR_I32, 4));
  reducer(m, r, 0, 2, (hr_dtype[]){HR_F64, HR_I64}); /* promotion is allowed */
  EXPECT_TYPE(r, TY(HR_F64, 4));
  reducer(m, r, 0, 1, (hr_dtype[]){HR_F32});
  EXPECT_ERR(r, "body must take 4 arguments, got 2");
  hr_type ret_bad[2] = {TY(HR_F32, 1), SC(HR_I32)};
  hr_type args[4] = {SC(HR_F32), SC(HR_I32), SC(HR_F32), SC(HR_I32)};
  fill_region(m, r, 0, 4, args, 2, NULL, ret_bad);
  EXPECT_ERR(r, "body result #0 has type tensor<1xf32>, expected tensor<f32>");
  hr_op *r2 = op_new(m, HR_OP_REDUCE, 4, in, 2, out);
  set_attr(m, r2, "dimensions", INTS(m, 0, 0));
  add_regions(m, r2, 1);
  reducer(m, r2, 0, 2, (hr_dtype[]){HR_F32, HR_I32});
  EXPECT_ERR(r2, "appears twice");
  hr_module_free(m);
}

TEST(reduce_window_and_select_and_scatter) {
  hr_module *m = new_module();
  hr_type in[2] = {TY(HR_F32, 8, 10), SC(HR_F32)};
  hr_op *r = op1(m, HR_OP_REDUCE_WINDOW, 2, in, TY(HR_F32, 8, 5));
  set_attr(m, r, "window_dimensions", INTS(m, 8, 2));
  set_attr(m, r, "window_strides", INTS(m, 1, 2));
  set_attr(m, r, "padding", pairs_attr(m, 2, (int64_t[]){7, 0, 0, 0}));
  add_regions(m, r, 1);
  reducer(m, r, 0, 1, (hr_dtype[]){HR_F32});
  EXPECT_TYPE(r, TY(HR_F32, 8, 5));
  hr_op *r2 = op1(m, HR_OP_REDUCE_WINDOW, 2, in, TY(HR_F32, 4, 3));
  set_attr(m, r2, "window_dimensions", INTS(m, 2, 3));
  set_attr(m, r2, "base_dilations", INTS(m, 2, 1));
  set_attr(m, r2, "window_dilations", INTS(m, 1, 2));
  set_attr(m, r2, "window_strides", INTS(m, 4, 2));
  add_regions(m, r2, 1);
  reducer(m, r2, 0, 1, (hr_dtype[]){HR_F32});
  EXPECT_TYPE(r2, TY(HR_F32, 4, 3));
  hr_op *r3 = op1(m, HR_OP_REDUCE_WINDOW, 2, in, TY(HR_F32, 4, 3));
  set_attr(m, r3, "window_dimensions", INTS(m, 0, 3));
  add_regions(m, r3, 1);
  reducer(m, r3, 0, 1, (hr_dtype[]){HR_F32});
  EXPECT_ERR(r3, "must be positive");

  hr_type ss[3] = {TY(HR_F32, 4, 6), TY(HR_F32, 2, 3), SC(HR_F32)};
  hr_op *s = op1(m, HR_OP_SELECT_AND_SCATTER, 3, ss, ss[0]);
  set_attr(m, s, "window_dimensions", INTS(m, 2, 2));
  set_attr(m, s, "window_strides", INTS(m, 2, 2));
  add_regions(m, s, 2);
  hr_type sel_args[2] = {SC(HR_F32), SC(HR_F32)};
  hr_type pred = SC(HR_I1);
  fill_region(m, s, 0, 2, sel_args, 1, NULL, &pred);
  reducer(m, s, 1, 1, (hr_dtype[]){HR_F32});
  EXPECT_TYPE(s, ss[0]);
  hr_type ss_bad[3] = {TY(HR_F32, 4, 6), TY(HR_F32, 2, 2), SC(HR_F32)};
  hr_op *s2 = op1(m, HR_OP_SELECT_AND_SCATTER, 3, ss_bad, ss[0]);
  s2->attrs = s->attrs;
  s2->n_attrs = s->n_attrs;
  s2->regions = s->regions;
  s2->n_regions = 2;
  EXPECT_ERR(s2, "source shape and window count");
  hr_module_free(m);
}

TEST(while_if_case) {
  hr_module *m = new_module();
  hr_type carried[2] = {SC(HR_I32), TY(HR_F32, 3)};
  hr_op *w = op_new(m, HR_OP_WHILE, 2, carried, 2, carried);
  add_regions(m, w, 2);
  hr_type pred = SC(HR_I1);
  fill_region(m, w, 0, 2, carried, 1, NULL, &pred);
  fill_region(m, w, 1, 2, carried, 2, (int[]){0, 1}, NULL);
  EXPECT_TYPE_N(w, 1, carried[1]);
  fill_region(m, w, 1, 2, carried, 2, (int[]){1, 0}, NULL);
  EXPECT_ERR(w, "body result and loop operand");
  fill_region(m, w, 1, 2, carried, 2, (int[]){0, 1}, NULL);
  fill_region(m, w, 0, 2, carried, 1, (int[]){0}, NULL);
  EXPECT_ERR(w, "cond must return one tensor<i1>");

  hr_op *i = op1(m, HR_OP_IF, 1, &pred, TY(HR_F32, D));
  add_regions(m, i, 2);
  hr_type r1 = TY(HR_F32, D), r2 = TY(HR_F32, 4);
  fill_region(m, i, 0, 0, NULL, 1, NULL, &r1);
  fill_region(m, i, 1, 0, NULL, 1, NULL, &r2);
  EXPECT_TYPE(i, TY(HR_F32, 4));
  hr_type r3 = TY(HR_F32, 5);
  fill_region(m, i, 0, 0, NULL, 1, NULL, &r3);
  EXPECT_ERR(i, "branch results");

  hr_type idx = SC(HR_I32);
  hr_op *c = op1(m, HR_OP_CASE, 1, &idx, r2);
  add_regions(m, c, 3);
  for (int k = 0; k < 3; k++) fill_region(m, c, k, 0, NULL, 1, NULL, &r2);
  EXPECT_TYPE(c, r2);
  fill_region(m, c, 2, 0, NULL, 0, NULL, NULL);
  EXPECT_ERR(c, "branch #2 returns 0 values, expected 1");
  hr_op *c2 = op1(m, HR_OP_CASE, 1, &pred, r2);
  add_regions(m, c2, 1);
  fill_region(m, c2, 0, 0, NULL, 1, NULL, &r2);
  EXPECT_ERR(c2, "index must be a tensor<i32>");
  hr_module_free(m);
}

TEST(misc_ops) {
  hr_module *m = new_module();
  hr_type state = TY(HR_U64, 2);
  hr_type outs[2] = {state, TY(HR_U32, 4, 4)};
  hr_op *rng = op_new(m, HR_OP_RNG_BIT_GENERATOR, 1, &state, 2, outs);
  set_attr(m, rng, "rng_algorithm", enum_attr(m, "rng_algorithm", "THREE_FRY"));
  EXPECT_TYPE_N(rng, 1, outs[1]);
  hr_op *rng2 = op_new(m, HR_OP_RNG_BIT_GENERATOR, 1, &state, 2, outs);
  set_attr(m, rng2, "rng_algorithm", enum_attr(m, "rng_algorithm", "FOUR_FRY"));
  EXPECT_ERR(rng2, "must be DEFAULT, THREE_FRY or PHILOX");

  hr_type cc_in = TY(HR_F32, 2);
  hr_type cc_out = TY(HR_I8, 9, D);
  EXPECT_TYPE(op1(m, HR_OP_CUSTOM_CALL, 1, &cc_in, cc_out), cc_out);
  hr_type ob[2] = {TY(HR_F32, 2), SC(HR_I1)};
  EXPECT_TYPE_N(op_new(m, HR_OP_OPTIMIZATION_BARRIER, 2, ob, 2, ob), 1, ob[1]);
  EXPECT_TYPE(op1(m, HR_OP_REPLICA_ID, 0, NULL, SC(HR_U32)), SC(HR_U32));
  hr_module_free(m);
}

/* ---- robustness ---------------------------------------------------------------------------- */

TEST(malformed_requests) {
  hr_module *m = new_module();
  hr_type bad_rank = TY(HR_F32, 2);
  bad_rank.shape.rank = HR_MAX_RANK + 1;
  EXPECT_ERR(op1(m, HR_OP_NEGATE, 1, &bad_rank, TY(HR_F32, 2)), "rank outside");
  hr_type neg = TY(HR_F32, -7);
  EXPECT_ERR(op1(m, HR_OP_NEGATE, 1, &neg, TY(HR_F32, 2)), "negative dimension");
  hr_type two[2] = {TY(HR_F32, 2), TY(HR_F32, 2)};
  EXPECT_ERR(op1(m, HR_OP_NEGATE, 2, two, TY(HR_F32, 2)), "expected 1 operands, got 2");
  hr_op *no_out = op_new(m, HR_OP_ADD, 2, two, 0, NULL);
  EXPECT_ERR(no_out, "expected 1 results, got 0");
  hr_type tok = {.kind = HR_TYPE_TOKEN};
  EXPECT_ERR(op1(m, HR_OP_NEGATE, 1, &tok, TY(HR_F32, 2)), "must be a tensor");
  hr_op *reduce_no_region = op1(m, HR_OP_REDUCE, 2, (hr_type[]){TY(HR_F32, 2), SC(HR_F32)}, SC(HR_F32));
  EXPECT_ERR(reduce_no_region, "expected 1 regions, got 0");
  hr_op *empty_region = op1(m, HR_OP_REDUCE, 2, (hr_type[]){TY(HR_F32, 2), SC(HR_F32)}, SC(HR_F32));
  set_attr(m, empty_region, "dimensions", INTS(m, 0));
  add_regions(m, empty_region, 1);
  empty_region->regions[0].n_args = 2;
  empty_region->regions[0].args = HR_ARENA_ARRAY(&m->arena, hr_value, 2);
  empty_region->regions[0].args[0].type = empty_region->regions[0].args[1].type = SC(HR_F32);
  EXPECT_ERR(empty_region, "must end with stablehlo.return");
  hr_type pad_in[2] = {TY(HR_F32, 4), SC(HR_F32)};
  hr_op *p = op1(m, HR_OP_PAD, 2, pad_in, TY(HR_F32, 4));
  hr_attr *wrong = hr_attr_new(m, HR_ATTR_STRING);
  wrong->u.str.data = "x";
  wrong->u.str.len = 1;
  set_attr(m, p, "edge_padding_low", wrong);
  set_attr(m, p, "edge_padding_high", INTS(m, 0));
  EXPECT_ERR(p, "edge_padding_low");
  hr_module_free(m);
}

int main(void) {
  RUN(unary_ops);
  RUN(binary_ops);
  RUN(compare_select_clamp);
  RUN(convert_and_bitcast);
  RUN(broadcast_reshape_transpose);
  RUN(slice_concat_pad_reverse);
  RUN(iota_and_dimension_size);
  RUN(dynamic_shape_ops);
  RUN(shape_operand_from_constant);
  RUN(gather_spec_example);
  RUN(scatter_spec_example);
  RUN(dynamic_slice_and_update);
  RUN(sort_and_top_k);
  RUN(dot_general_and_dot);
  RUN(convolution);
  RUN(fft_and_linalg);
  RUN(reduce_variadic);
  RUN(reduce_window_and_select_and_scatter);
  RUN(while_if_case);
  RUN(misc_ops);
  RUN(malformed_requests);
  TEST_MAIN_END();
}

/* Local rewrites once an op's types are refined: dynamic ops whose shapes are now known take their
 * static forms, chlo's broadcasting ops and chlo.constant become stablehlo ops, and ops that change
 * nothing are replaced by their operand. */
#include <string.h>

#include "compiler/compiler_internal.h"
#include "ir/chlo.h"

/* Reads constant operand `i` of `op` holding exactly `n` integers; false when it is not one. */
static bool operand_ints(const hr_op *op, int i, int n, int64_t *out) {
  int got = 0;
  return i < op->n_operands && hc_constant_ints(op->operands[i], out, 2 * HR_MAX_RANK, &got) && got == n;
}

/* Sets attribute `name` of `op` to a DENSE_ARRAY<i64> of `n` integers. */
static hr_status set_i64_array(hc_ctx *c, hr_op *op, const char *name, const int64_t *v, int n) {
  hr_attr *a = NULL;
  HR_TRY(hc_i64_array(c, v, n, &a));
  return hc_op_set_attr(c, op, name, a);
}

/* Becomes `code` keeping only the first `n_operands` operands. */
static void become(hr_op *op, hr_opcode code, int n_operands) {
  op->code = code;
  op->n_operands = n_operands;
}

/* real_dynamic_slice(x, start, limit, strides) -> slice(x) when the three vectors are constant. */
static hr_status static_slice(hc_ctx *c, hr_op *op) {
  int rank = op->operands[0]->type.shape.rank;
  int64_t start[2 * HR_MAX_RANK], limit[2 * HR_MAX_RANK], strides[2 * HR_MAX_RANK];
  if (!operand_ints(op, 1, rank, start) || !operand_ints(op, 2, rank, limit) || !operand_ints(op, 3, rank, strides))
    return NULL;
  HR_TRY(set_i64_array(c, op, "start_indices", start, rank));
  HR_TRY(set_i64_array(c, op, "limit_indices", limit, rank));
  HR_TRY(set_i64_array(c, op, "strides", strides, rank));
  become(op, HR_OP_SLICE, 1);
  return NULL;
}

/* dynamic_pad(x, value, low, high, interior) -> pad(x, value) when the paddings are constant. */
static hr_status static_pad(hc_ctx *c, hr_op *op) {
  int rank = op->operands[0]->type.shape.rank;
  int64_t lo[2 * HR_MAX_RANK], hi[2 * HR_MAX_RANK], interior[2 * HR_MAX_RANK];
  if (!operand_ints(op, 2, rank, lo) || !operand_ints(op, 3, rank, hi) || !operand_ints(op, 4, rank, interior))
    return NULL;
  HR_TRY(set_i64_array(c, op, "edge_padding_low", lo, rank));
  HR_TRY(set_i64_array(c, op, "edge_padding_high", hi, rank));
  HR_TRY(set_i64_array(c, op, "interior_padding", interior, rank));
  become(op, HR_OP_PAD, 2);
  return NULL;
}

/* dynamic_gather(x, indices, slice_sizes) -> gather(x, indices) when slice_sizes is constant. */
static hr_status static_gather(hc_ctx *c, hr_op *op) {
  int rank = op->operands[0]->type.shape.rank;
  int64_t sizes[2 * HR_MAX_RANK];
  if (!operand_ints(op, 2, rank, sizes)) return NULL;
  HR_TRY(set_i64_array(c, op, "slice_sizes", sizes, rank));
  become(op, HR_OP_GATHER, 2);
  return NULL;
}

/* dynamic_conv(lhs, rhs, padding) -> convolution(lhs, rhs) with a `padding` attribute
 * (tensor<Nx2xi64>) when the padding is constant. */
static hr_status static_conv(hc_ctx *c, hr_op *op) {
  int spatial = op->operands[0]->type.shape.rank - 2;
  int64_t pad[2 * HR_MAX_RANK];
  if (spatial < 0 || !operand_ints(op, 2, 2 * spatial, pad)) return NULL;
  int64_t dims[2] = {spatial, 2};
  hr_type t = hr_tensor_type(HR_I64, 2, dims);
  hr_attr *a = hr_attr_new(c->dst, HR_ATTR_DENSE);
  void *data = HR_ARENA_ARRAY(&c->dst->arena, int64_t, spatial > 0 ? 2 * (size_t)spatial : 1);
  if (!a || !data) return hc_oom();
  memcpy(data, pad, sizeof(int64_t) * 2 * (size_t)spatial);
  a->u.dense.type = t;
  a->u.dense.data = data;
  a->u.dense.nbytes = sizeof(int64_t) * 2 * (size_t)spatial;
  HR_TRY(hc_op_set_attr(c, op, "padding", a));
  become(op, HR_OP_CONVOLUTION, 2);
  return NULL;
}

hr_status hc_rewrite_dynamic(hc_ctx *c, hr_op *op) {
  if (op->n_results != 1 || !hr_type_is_static(&op->results[0].type)) return NULL;
  switch (op->code) {
    case HR_OP_DYNAMIC_BROADCAST_IN_DIM:
      hc_op_remove_attr(op, "known_expanding_dimensions");
      hc_op_remove_attr(op, "known_nonexpanding_dimensions");
      become(op, HR_OP_BROADCAST_IN_DIM, 1);
      return NULL;
    case HR_OP_DYNAMIC_RESHAPE: become(op, HR_OP_RESHAPE, 1); return NULL;
    case HR_OP_DYNAMIC_IOTA: become(op, HR_OP_IOTA, 0); return NULL;
    case HR_OP_REAL_DYNAMIC_SLICE: return static_slice(c, op);
    case HR_OP_DYNAMIC_PAD: return static_pad(c, op);
    case HR_OP_DYNAMIC_GATHER: return static_gather(c, op);
    case HR_OP_DYNAMIC_CONV: return static_conv(c, op);
    case HR_OP_CHLO_CONSTANT: become(op, HR_OP_CONSTANT, 0); return NULL;
    default: return NULL;
  }
}

/* Whether two shapes are equal. */
static bool same_shape(const hr_shape *a, const hr_shape *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

hr_status hc_lower_chlo_broadcast(hc_ctx *c, hc_block *b, hr_op *op) {
  hr_opcode base = hr_chlo_broadcast_base(op->code);
  int n = op->n_operands;
  if (base == HR_OP_COUNT || n > 3 || op->n_results != 1 || !hr_type_is_static(&op->results[0].type)) return NULL;
  const hr_shape *shapes[3] = {NULL, NULL, NULL};
  for (int i = 0; i < n; i++) {
    if (!hr_type_is_static(&op->operands[i]->type)) return NULL;
    shapes[i] = &op->operands[i]->type.shape;
  }
  hr_chlo_broadcast plan;
  HR_TRY(hr_chlo_broadcast_plan(op, shapes, n, &plan));
  const hr_type *r = &op->results[0].type;
  for (int i = 0; i < n; i++) {
    const hr_type *t = &op->operands[i]->type;
    if (same_shape(&t->shape, &r->shape)) continue;
    hr_op *bc = NULL;
    hr_attr *dims = NULL;
    HR_TRY(hc_op_new(c, HR_OP_BROADCAST_IN_DIM, op, b->block, 1, 1, &bc));
    bc->operands[0] = op->operands[i];
    bc->results[0].type = hr_tensor_type(t->dtype, r->shape.rank, r->shape.dims);
    HR_TRY(hc_i64_array(c, plan.dims[i], t->shape.rank, &dims));
    HR_TRY(hc_op_set_attr(c, bc, "broadcast_dimensions", dims));
    HR_TRY(hc_block_push(c, b, bc));
    op->operands[i] = &bc->results[0];
  }
  hc_op_remove_attr(op, "broadcast_dimensions");
  op->code = base;
  return NULL;
}

/* Whether integer-list attribute `name` of `op` is 0, 1, ..., rank - 1. */
static bool is_iota_list(const hr_op *op, const char *name, int rank) {
  const hr_attr *a = hr_op_attr(op, name);
  int64_t v[HR_MAX_RANK];
  int n = 0;
  if (!a) return false;
  hr_status s = hr_attr_to_i64_list(a, v, HR_MAX_RANK, &n);
  if (s) {
    hr_status_free(s);
    return false;
  }
  if (n != rank) return false;
  for (int i = 0; i < n; i++)
    if (v[i] != i) return false;
  return true;
}

/* The operand of stablehlo.tuple that get_tuple_element `op` reads, or NULL: inlined callees
 * return tuples their callers take apart, and executables hold tensors only. */
static hr_value *tuple_element(const hr_op *op) {
  const hr_op *tuple = op->operands[0]->def;
  int64_t index = -1;
  if (!tuple || tuple->code != HR_OP_TUPLE) return NULL;
  hr_status s = hr_op_attr_i64(op, "index", &index);
  bool read = s == NULL;
  hr_status_free(s);
  if (!read || index < 0 || index >= tuple->n_operands) return NULL;
  hr_value *x = tuple->operands[index];
  return hr_type_equal(&x->type, &op->results[0].type) ? x : NULL;
}

hr_value *hc_identity_operand(const hr_op *op) {
  if (op->n_operands != 1 || op->n_results != 1) return NULL;
  if (op->code == HR_OP_GET_TUPLE_ELEMENT) return tuple_element(op);
  hr_value *x = op->operands[0];
  const hr_type *t = &op->results[0].type;
  if (!hr_type_is_static(t) || !hr_type_equal(&x->type, t)) return NULL;
  switch (op->code) {
    case HR_OP_CONVERT:
    case HR_OP_SDY_SHARDING_CONSTRAINT: /* a layout wish: on one device the value itself */
    case HR_OP_RESHAPE: return x;
    case HR_OP_BROADCAST_IN_DIM: return is_iota_list(op, "broadcast_dimensions", t->shape.rank) ? x : NULL;
    case HR_OP_TRANSPOSE: return is_iota_list(op, "permutation", t->shape.rank) ? x : NULL;
    default: return NULL;
  }
}

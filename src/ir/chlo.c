/* The chlo.broadcast_* ops: their stablehlo counterparts and how their operands broadcast
 * (chlo.h). */
#include "ir/chlo.h"

hr_opcode hr_chlo_broadcast_base(hr_opcode code) {
  switch (code) {
    case HR_OP_CHLO_BROADCAST_ADD: return HR_OP_ADD;
    case HR_OP_CHLO_BROADCAST_AND: return HR_OP_AND;
    case HR_OP_CHLO_BROADCAST_ATAN2: return HR_OP_ATAN2;
    case HR_OP_CHLO_BROADCAST_COMPARE: return HR_OP_COMPARE;
    case HR_OP_CHLO_BROADCAST_COMPLEX: return HR_OP_COMPLEX;
    case HR_OP_CHLO_BROADCAST_DIVIDE: return HR_OP_DIVIDE;
    case HR_OP_CHLO_BROADCAST_MAXIMUM: return HR_OP_MAXIMUM;
    case HR_OP_CHLO_BROADCAST_MINIMUM: return HR_OP_MINIMUM;
    case HR_OP_CHLO_BROADCAST_MULTIPLY: return HR_OP_MULTIPLY;
    case HR_OP_CHLO_BROADCAST_NEXT_AFTER: return HR_OP_CHLO_NEXT_AFTER;
    case HR_OP_CHLO_BROADCAST_OR: return HR_OP_OR;
    case HR_OP_CHLO_BROADCAST_POLYGAMMA: return HR_OP_CHLO_POLYGAMMA;
    case HR_OP_CHLO_BROADCAST_POWER: return HR_OP_POWER;
    case HR_OP_CHLO_BROADCAST_REMAINDER: return HR_OP_REMAINDER;
    case HR_OP_CHLO_BROADCAST_SELECT: return HR_OP_SELECT;
    case HR_OP_CHLO_BROADCAST_SHIFT_LEFT: return HR_OP_SHIFT_LEFT;
    case HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC: return HR_OP_SHIFT_RIGHT_ARITHMETIC;
    case HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL: return HR_OP_SHIFT_RIGHT_LOGICAL;
    case HR_OP_CHLO_BROADCAST_SUBTRACT: return HR_OP_SUBTRACT;
    case HR_OP_CHLO_BROADCAST_XOR: return HR_OP_XOR;
    case HR_OP_CHLO_BROADCAST_ZETA: return HR_OP_CHLO_ZETA;
    default: return HR_OP_COUNT;
  }
}

/* Operand `i`'s dimensions mapped by broadcast_dimensions, checked to be distinct result
 * dimensions, one per operand dimension. */
static hr_status explicit_dims(const hr_op *op, int i, int rank, int result_rank, int64_t *dims) {
  int n = 0;
  HR_TRY(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, &n));
  if (n != rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "broadcast_dimensions has %d entries, expected %d (the rank of operand %d)",
                       n, rank, i);
  for (int k = 0; k < n; k++) {
    if (dims[k] < 0 || dims[k] >= result_rank)
      return hr_op_error(op, HR_VERIFY_ERROR, "broadcast_dimensions[%d] = %lld is not a dimension of the rank-%d result", k,
                         (long long)dims[k], result_rank);
    for (int j = 0; j < k; j++)
      if (dims[j] == dims[k])
        return hr_op_error(op, HR_VERIFY_ERROR, "broadcast_dimensions repeats dimension %lld", (long long)dims[k]);
  }
  return NULL;
}

/* Merges operand `i`'s dimension `k` of size `d` into result dimension size *r (1 when no operand
 * has set it yet). */
static hr_status merge_dim(const hr_op *op, int i, int k, int64_t d, int64_t *r) {
  if (d == 1 || d == *r) return NULL;
  if (*r == 1 || *r == HR_DYNAMIC) {
    *r = d;
    return NULL;
  }
  if (d == HR_DYNAMIC) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "operand %d dimension %d of size %lld does not broadcast with size %lld", i, k,
                     (long long)d, (long long)*r);
}

hr_status hr_chlo_broadcast_plan(const hr_op *op, const hr_shape *const *shapes, int n, hr_chlo_broadcast *out) {
  int rank = 0;
  for (int i = 0; i < n; i++)
    if (shapes[i]->rank > rank) rank = shapes[i]->rank;
  out->result.rank = rank;
  for (int d = 0; d < rank; d++) out->result.dims[d] = 1;
  bool attr = hr_op_attr(op, "broadcast_dimensions") != NULL && n == 2 && shapes[0]->rank != shapes[1]->rank;
  for (int i = 0; i < n; i++) {
    int r = shapes[i]->rank;
    if (attr && r < rank) {
      HR_TRY(explicit_dims(op, i, r, rank, out->dims[i]));
    } else {
      for (int k = 0; k < r; k++) out->dims[i][k] = rank - r + k;
    }
    for (int k = 0; k < r; k++) HR_TRY(merge_dim(op, i, k, shapes[i]->dims[k], &out->result.dims[out->dims[i][k]]));
  }
  return NULL;
}

/* The attribute whose fields ragged_dot_dims reads, as errors name it. */
static const char kRaggedDims[] = "ragged_dot_dimension_numbers";

/* The index of v in the first n entries of list, or -1. */
static int index_of(const int64_t *list, int n, int64_t v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return i;
  return -1;
}

hr_status hr_ragged_dot_dims_read(const hr_op *op, hr_ragged_dot_dims *out) {
  const hr_attr *dn = hr_op_attr(op, "ragged_dot_dimension_numbers");
  if (!dn || (dn->kind != HR_ATTR_STRUCT && dn->kind != HR_ATTR_DICT))
    return hr_op_error(op, HR_VERIFY_ERROR, "missing or malformed attribute 'ragged_dot_dimension_numbers'");
  int nlb = 0, nrb = 0, nlc = 0, nrc = 0, nr = 0, ng = 0;
  int64_t ragged[HR_MAX_RANK], group[HR_MAX_RANK];
  HR_TRY(hr_op_struct_list(op, dn, kRaggedDims, "lhs_batching_dimensions", out->lhs_batch, &nlb));
  HR_TRY(hr_op_struct_list(op, dn, kRaggedDims, "rhs_batching_dimensions", out->rhs_batch, &nrb));
  HR_TRY(hr_op_struct_list(op, dn, kRaggedDims, "lhs_contracting_dimensions", out->lhs_contract, &nlc));
  HR_TRY(hr_op_struct_list(op, dn, kRaggedDims, "rhs_contracting_dimensions", out->rhs_contract, &nrc));
  HR_TRY(hr_op_struct_list(op, dn, kRaggedDims, "lhs_ragged_dimensions", ragged, &nr));
  HR_TRY(hr_op_struct_list(op, dn, kRaggedDims, "rhs_group_dimensions", group, &ng));
  if (nlb != nrb) return hr_op_error(op, HR_VERIFY_ERROR, "lhs and rhs batching dimensions differ in number");
  if (nlc != nrc) return hr_op_error(op, HR_VERIFY_ERROR, "lhs and rhs contracting dimensions differ in number");
  if (nr != 1) return hr_op_error(op, HR_VERIFY_ERROR, "there must be exactly one ragged dimension in the lhs, got %d", nr);
  if (ng > 1) return hr_op_error(op, HR_VERIFY_ERROR, "there must be at most one group dimension in the rhs, got %d", ng);
  out->n_batch = nlb;
  out->n_contract = nlc;
  out->lhs_ragged = ragged[0];
  out->rhs_group = ng ? group[0] : -1;
  int in_batch = index_of(out->lhs_batch, nlb, ragged[0]), in_contract = index_of(out->lhs_contract, nlc, ragged[0]);
  out->mode = in_batch >= 0 ? HR_RAGGED_BATCH : in_contract >= 0 ? HR_RAGGED_CONTRACTING : HR_RAGGED_NON_CONTRACTING;
  out->ragged_pos = in_batch >= 0 ? in_batch : in_contract;
  return NULL;
}

int hr_ragged_dot_prefix(const hr_ragged_dot_dims *d, int lhs_rank, int64_t *prefix) {
  int n = 0;
  int n_batch = d->mode == HR_RAGGED_BATCH ? d->ragged_pos : d->n_batch;
  for (int i = 0; i < n_batch; i++) prefix[n++] = d->lhs_batch[i];
  if (d->mode == HR_RAGGED_CONTRACTING)
    for (int i = 0; i < d->ragged_pos; i++) prefix[n++] = d->lhs_contract[i];
  if (d->mode == HR_RAGGED_NON_CONTRACTING)
    for (int64_t i = 0; i < d->lhs_ragged && i < lhs_rank; i++)
      if (index_of(d->lhs_batch, d->n_batch, i) < 0 && index_of(d->lhs_contract, d->n_contract, i) < 0)
        prefix[n++] = i;
  return n;
}

hr_status hr_chlo_scan_counts(const hr_op *op, int *n_inputs, int *n_inits) {
  int64_t v[2] = {0, 0};
  int n = 0;
  HR_TRY(hr_op_attr_i64_list(op, "operandSegmentSizes", v, 2, &n));
  if (n != 2 || v[0] < 0 || v[1] < 0 || v[0] + v[1] != op->n_operands || v[1] > op->n_results)
    return hr_op_error(op, HR_VERIFY_ERROR,
                       "operandSegmentSizes must split the %d operands into inputs and at most %d inits",
                       op->n_operands, op->n_results);
  *n_inputs = (int)v[0];
  *n_inits = (int)v[1];
  return NULL;
}

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

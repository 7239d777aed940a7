/* Data-movement kernels whose positions or shapes come from operand values: dynamic_slice,
 * dynamic_update_slice (start indices clamped into range, as the spec says), and the
 * shape-polymorphic ops real_dynamic_slice, dynamic_pad, dynamic_broadcast_in_dim, dynamic_iota
 * and dynamic_reshape (their result shapes were computed by the executor from the same operand
 * values; the kernels check that they agree). */
#include "base/elem.h"
#include "interp/data.h"

/* Reads a start index from the rank-0 integer tensor `t`, clamped into [0, max]. */
static hr_status clamped_start(const hr_op *op, const hr_tensor *t, int64_t max, int64_t *out) {
  HR_TRY(hr_data_check_index_tensor(op, t, "a start index"));
  if (t->shape.rank != 0) return hr_op_error(op, HR_VERIFY_ERROR, "start indices must be scalars");
  *out = hr_clamp_i64(hr_data_load_index(t->dtype, t->data, 0), 0, max);
  return NULL;
}

/* Fails unless the op has `want` operands. */
static hr_status check_operand_count(const hr_op *op, int want) {
  if (op->n_operands == want) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "expected %d operands, got %d", want, op->n_operands);
}

/* stablehlo.dynamic_slice: a slice_sizes box at clamped scalar start indices. */
hr_status hr_data_dynamic_slice(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                hr_tensor **results) {
  const hr_tensor *x = operands[0];
  int rank = x->shape.rank;
  HR_TRY(check_operand_count(op, 1 + rank));
  int64_t sizes[HR_MAX_RANK], start[HR_MAX_RANK], limit[HR_MAX_RANK], strides[HR_MAX_RANK];
  int n;
  HR_TRY(hr_op_attr_i64_list(op, "slice_sizes", sizes, HR_MAX_RANK, &n));
  if (n != rank) return hr_op_error(op, HR_VERIFY_ERROR, "'slice_sizes' must have %d entries", rank);
  for (int d = 0; d < rank; d++) {
    if (sizes[d] < 0 || sizes[d] > x->shape.dims[d])
      return hr_op_error(op, HR_VERIFY_ERROR, "slice size %lld does not fit dimension %d of size %lld",
                         (long long)sizes[d], d, (long long)x->shape.dims[d]);
    HR_TRY(clamped_start(op, operands[1 + d], x->shape.dims[d] - sizes[d], &start[d]));
    limit[d] = start[d] + sizes[d];
    strides[d] = 1;
  }
  return hr_data_slice_into(op, x, start, limit, strides, results[0]);
}

/* stablehlo.dynamic_update_slice: the operand with `update` written at clamped start indices. */
hr_status hr_data_dynamic_update_slice(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                       hr_tensor **results) {
  const hr_tensor *x = operands[0], *upd = operands[1];
  hr_tensor *r = results[0];
  int rank = x->shape.rank;
  HR_TRY(check_operand_count(op, 2 + rank));
  HR_TRY(hr_data_check_shape(op, "the result", r, &x->shape));
  if (upd->shape.rank != rank || upd->dtype != x->dtype || r->dtype != x->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "the update must have the operand's rank and type");
  hr_copy_plan p;
  hr_copy_plan_init(&p, rank, upd->shape.dims);
  hr_data_strides(&upd->shape, p.src_stride);
  hr_data_strides(&x->shape, p.dst_stride);
  for (int d = 0; d < rank; d++) {
    if (upd->shape.dims[d] > x->shape.dims[d])
      return hr_op_error(op, HR_VERIFY_ERROR, "update dimension %d (%lld) exceeds the operand's (%lld)",
                         d, (long long)upd->shape.dims[d], (long long)x->shape.dims[d]);
    int64_t start = 0;
    HR_TRY(clamped_start(op, operands[2 + d], x->shape.dims[d] - upd->shape.dims[d], &start));
    p.dst_offset += start * p.dst_stride[d];
  }
  HR_TRY(hr_data_copy_all(op, x, r));
  return hr_copy_plan_run(op, &p, upd, r);
}

/* stablehlo.real_dynamic_slice: slice with start/limit/strides from 1-D operands (not clamped:
 * out-of-range values are errors). */
hr_status hr_data_real_dynamic_slice(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                     hr_tensor **results) {
  const hr_tensor *x = operands[0];
  int rank = x->shape.rank;
  HR_TRY(check_operand_count(op, 4));
  int64_t start[HR_MAX_RANK], limit[HR_MAX_RANK], strides[HR_MAX_RANK];
  HR_TRY(hr_data_read_index_vector(op, operands[1], rank, "start_indices", start));
  HR_TRY(hr_data_read_index_vector(op, operands[2], rank, "limit_indices", limit));
  HR_TRY(hr_data_read_index_vector(op, operands[3], rank, "strides", strides));
  return hr_data_slice_into(op, x, start, limit, strides, results[0]);
}

/* stablehlo.dynamic_pad: pad with low/high/interior amounts from 1-D operands. */
hr_status hr_data_dynamic_pad(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                              hr_tensor **results) {
  int rank = operands[0]->shape.rank;
  HR_TRY(check_operand_count(op, 5));
  int64_t low[HR_MAX_RANK], high[HR_MAX_RANK], interior[HR_MAX_RANK];
  HR_TRY(hr_data_read_index_vector(op, operands[2], rank, "edge_padding_low", low));
  HR_TRY(hr_data_read_index_vector(op, operands[3], rank, "edge_padding_high", high));
  HR_TRY(hr_data_read_index_vector(op, operands[4], rank, "interior_padding", interior));
  return hr_data_pad_into(op, operands[0], operands[1], low, high, interior, results[0]);
}

/* Checks that the 1-D shape operand `t` lists exactly the dimensions of `r`. */
static hr_status check_shape_operand(const hr_op *op, const hr_tensor *t, const hr_tensor *r) {
  int64_t dims[HR_MAX_RANK];
  HR_TRY(hr_data_read_index_vector(op, t, r->shape.rank, "the shape operand", dims));
  hr_shape want = {.rank = r->shape.rank};
  for (int d = 0; d < want.rank; d++) want.dims[d] = dims[d];
  return hr_data_check_shape(op, "the result", r, &want);
}

/* stablehlo.dynamic_broadcast_in_dim: broadcast_in_dim to the shape given by an operand. */
hr_status hr_data_dynamic_broadcast_in_dim(hr_interp *in, const hr_op *op,
                                           hr_tensor *const *operands, hr_tensor **results) {
  HR_TRY(check_operand_count(op, 2));
  HR_TRY(check_shape_operand(op, operands[1], results[0]));
  int64_t dims[HR_MAX_RANK];
  int n;
  HR_TRY(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, &n));
  return hr_data_broadcast_into(op, operands[0], dims, n, results[0]);
}

/* stablehlo.dynamic_iota: iota of the shape given by an operand. */
hr_status hr_data_dynamic_iota(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                               hr_tensor **results) {
  HR_TRY(check_operand_count(op, 1));
  HR_TRY(check_shape_operand(op, operands[0], results[0]));
  int64_t dim;
  HR_TRY(hr_op_attr_i64(op, "iota_dimension", &dim));
  return hr_data_iota_into(op, dim, results[0]);
}

/* stablehlo.dynamic_reshape: reshape to the shape given by an operand. */
hr_status hr_data_dynamic_reshape(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                  hr_tensor **results) {
  HR_TRY(check_operand_count(op, 2));
  HR_TRY(check_shape_operand(op, operands[1], results[0]));
  if (operands[0]->dtype != results[0]->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "the result must have the operand's element type");
  return hr_data_copy_all(op, operands[0], results[0]);
}

/* The custom calls of JAX's top_k (custom_call.h): stablehlo.dynamic_top_k (operand, k),
 * stablehlo.dynamic_approx_top_k (operand, indices, init value, init index, k, result shapes...)
 * {reduction_dim, ...} of shape-polymorphic programs, and XLA's ApproxTopK (operand, indices,
 * init value, init index) {top_k, reduction_dim, aggregate_to_topk, recall_target, ...} of JAX's
 * TPU lowering of approx_max_k. On the CPU an approximate top-k is the exact one (XLA's CPU
 * fallback, `is_fallback`: a sort along the reduction dimension by the comparator, cut to the
 * results' size). k is the results' last dimension, which inference took from the operands
 * (ir/infer_control.c) or the program declares. */
#include <string.h>

#include "interp/custom_call.h"
#include "interp/data.h"
#include "interp/reduce.h"

/* Fails unless an approximate top-k runs over the last dimension with a greater-than comparator
 * (approx_max_k: JAX names it top_k_gt_*). */
static hr_status check_approx(const hr_cc_call *c, const hr_tensor *x) {
  int64_t dim;
  HR_TRY(hr_cc_config(c, "reduction_dim", x->shape.rank - 1, &dim));
  if (dim != x->shape.rank - 1)
    return hr_op_error(c->op, HR_UNIMPLEMENTED, "approximate top-k over dimension %lld (not the last) is not supported",
                       (long long)dim);
  const hr_attr *calls = hr_op_attr(c->op, "called_computations");
  const hr_attr *cmp = calls && calls->kind == HR_ATTR_ARRAY && calls->u.array.n == 1 ? calls->u.array.items[0] : NULL;
  if (!cmp || cmp->kind != HR_ATTR_SYMBOL || !strstr(cmp->u.str.data, "_gt_"))
    return hr_op_error(c->op, HR_UNIMPLEMENTED, "approximate top-k with a comparator other than JAX's top_k_gt_* is not supported");
  return NULL;
}

hr_status hr_cc_top_k(const hr_cc_call *c) {
  const hr_tensor *x = c->operands[0];
  if (c->op->n_results != 2 || x->shape.rank < 1 || c->results[0]->shape.rank != x->shape.rank)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "top-k needs an operand of rank >= 1 and two results of its rank");
  int64_t k = c->results[0]->shape.dims[x->shape.rank - 1];
  if (c->op->n_operands == 2) { /* dynamic_top_k: k must be the one the results were shaped by */
    int64_t want;
    HR_TRY(hr_cc_scalar(c, 1, &want));
    if (want != k) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "k = %lld but the results hold %lld", (long long)want, (long long)k);
  } else {
    HR_TRY(check_approx(c, x));
  }
  return hr_data_top_k_of(c->in, c->op, x, k, c->results);
}

/* ApproxTopK: the results hold k = top_k elements (aggregate_to_topk) or XLA's reduction output
 * size (as declared) of each row; result 1 takes the elements of operand 1 (JAX's iota: the
 * indices) where the top elements were. */
hr_status hr_cc_approx_top_k(const hr_cc_call *c) {
  if (c->op->n_operands != 4 || c->op->n_results != 2)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "ApproxTopK takes (operand, indices, init value, init index) and gives 2 results");
  const hr_tensor *x = c->operands[0], *idx = c->operands[1];
  if (x->shape.rank < 1 || !hr_red_tensor_is(idx, HR_I32, &x->shape) ||
      c->results[1]->dtype != HR_I32)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "ApproxTopK needs an operand of rank >= 1 and i32 indices of its shape");
  HR_TRY(check_approx(c, x));
  int64_t top_k, aggregate;
  HR_TRY(hr_cc_config(c, "top_k", -1, &top_k));
  HR_TRY(hr_cc_config(c, "aggregate_to_topk", 1, &aggregate));
  int r = x->shape.rank;
  int64_t k = c->results[0]->shape.rank == r ? c->results[0]->shape.dims[r - 1] : -1;
  if (top_k < 0 || (aggregate && k != top_k))
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "ApproxTopK's top_k (%lld) must be the results' last dimension (%lld)",
                       (long long)top_k, (long long)k);
  HR_TRY(hr_data_top_k_of(c->in, c->op, x, k, c->results));
  int64_t n = x->shape.dims[r - 1], rows = n ? hr_tensor_num_elements(x) / n : 0;
  const int32_t *from = idx->data;
  int32_t *at = c->results[1]->data;
  for (int64_t row = 0; row < rows; row++)
    for (int64_t j = 0; j < k; j++) at[row * k + j] = from[row * n + at[row * k + j]];
  return NULL;
}

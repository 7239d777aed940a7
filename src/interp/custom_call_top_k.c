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

/* The comparator function ApproxTopK's called_computations names. */
static hr_status comparator_of(const hr_cc_call *c, const hr_func **out) {
  const hr_attr *calls = hr_op_attr(c->op, "called_computations");
  const hr_attr *sym = calls && calls->kind == HR_ATTR_ARRAY && calls->u.array.n == 1 ? calls->u.array.items[0] : NULL;
  if (!sym || sym->kind != HR_ATTR_SYMBOL) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "needs called_computations naming its comparator");
  const hr_func *fn = c->in->module ? hr_module_find_func(c->in->module, sym->u.str.data) : NULL;
  if (!fn || fn->is_declaration) return hr_op_error(c->op, HR_NOT_FOUND, "no comparator function @%s with a body", sym->u.str.data);
  *out = fn;
  return NULL;
}

/* The first k elements along `dim` of each sorted operand into its result: XLA's slice. */
static void keep_first(hr_tensor *const *sorted, hr_tensor **results, int n, int dim, int64_t k) {
  const hr_shape *s = &sorted[0]->shape;
  int64_t inner = 1, outer = 1;
  for (int d = dim + 1; d < s->rank; d++) inner *= s->dims[d];
  for (int d = 0; d < dim; d++) outer *= s->dims[d];
  for (int i = 0; i < n; i++) {
    size_t row = (size_t)(inner * k) * hr_dtype_size(sorted[i]->dtype);
    size_t from = (size_t)(inner * s->dims[dim]) * hr_dtype_size(sorted[i]->dtype);
    for (int64_t o = 0; o < outer; o++)
      memcpy((unsigned char *)results[i]->data + (size_t)o * row, (const unsigned char *)sorted[i]->data + (size_t)o * from, row);
  }
}

/* ApproxTopK (operands..., init values...) {top_k, reduction_dim, aggregate_to_topk, ...}: XLA's
 * CPU fallback, which sorts the operands along reduction_dim by the comparator and keeps the
 * first elements along it: top_k of them with aggregate_to_topk, else as many as the results
 * declare (XLA's reduction output size). The init values are not read. */
hr_status hr_cc_approx_top_k(const hr_cc_call *c) {
  int n = c->op->n_operands / 2;
  if (n < 1 || n > HR_RED_MAX_VARIADIC || c->op->n_operands % 2 || c->op->n_results != n)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "ApproxTopK takes N operands and N init values (N = 1 to %d) and gives N results",
                       HR_RED_MAX_VARIADIC);
  const hr_tensor *x = c->operands[0];
  int64_t dim, top_k, aggregate;
  HR_TRY(hr_cc_config(c, "reduction_dim", x->shape.rank - 1, &dim));
  HR_TRY(hr_cc_config(c, "top_k", -1, &top_k));
  HR_TRY(hr_cc_config(c, "aggregate_to_topk", 1, &aggregate));
  if (dim < 0 || dim >= x->shape.rank)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "ApproxTopK's reduction_dim %lld is outside [0, %d)", (long long)dim, x->shape.rank);
  hr_shape want = x->shape;
  int64_t k = c->results[0]->shape.rank == x->shape.rank ? c->results[0]->shape.dims[dim] : -1;
  if (top_k < 0 || (aggregate && k != top_k) || k < 0 || k > x->shape.dims[dim])
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "ApproxTopK's top_k (%lld) must be the results' size along reduction_dim (%lld), at most the operand's",
                       (long long)top_k, (long long)k);
  want.dims[dim] = k;
  for (int i = 0; i < n; i++)
    if (!hr_red_tensor_is(c->results[i], c->operands[i]->dtype, &want))
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "ApproxTopK's result %d must be operand %d cut to %lld along reduction_dim", i, i, (long long)k);
  const hr_func *cmp = NULL;
  HR_TRY(comparator_of(c, &cmp));
  hr_tensor *sorted[HR_RED_MAX_VARIADIC] = {0};
  hr_status s = NULL;
  for (int i = 0; i < n && !s; i++) s = hr_interp_alloc(c->in, c->op, c->operands[i]->dtype, &x->shape, &sorted[i]);
  if (!s) s = hr_data_sort_by(c->in, c->op, cmp, dim, n, c->operands, sorted);
  if (!s) keep_first(sorted, c->results, n, (int)dim, k);
  for (int i = 0; i < n; i++) hr_tensor_free(sorted[i]);
  return s;
}

/* The custom calls of JAX's shape-polymorphic top_k (custom_call.h): stablehlo.dynamic_top_k
 * (operand, k) and stablehlo.dynamic_approx_top_k (operand, indices, init value, init index, k,
 * result shapes...) {reduction_dim, ...}. On the CPU an approximate top-k is the exact one (XLA's
 * CPU fallback, `is_fallback`). k is the results' last dimension, which inference took from the
 * operands (ir/infer_control.c). */
#include <string.h>

#include "interp/custom_call.h"
#include "interp/data.h"

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

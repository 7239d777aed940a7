/* stablehlo.dynamic_reduce_window (custom_call.h): StableHLO's experimental reduce_window whose
 * window is operands instead of attributes (JAX's TPU lowering of a reduce_window with symbolic
 * window sizes, 2023):
 *   (inputs..., init values..., window_dimensions, window_strides, base_dilations,
 *    window_dilations, padding) {called_computations = [@body]} -> results...
 * the four vectors hold one integer per input dimension, padding [rank, 2] (low, high); the body
 * function is reduce_window's region. It runs as stablehlo.reduce_window with those values (the
 * reduce_window kernel, kernels_reduce_window.c); inference gives the results their shapes from the
 * same values (ir/infer_control.c). */
#include <string.h>

#include "base/elem.h"
#include "interp/custom_call.h"
#include "interp/reduce.h"

/* The window operands that follow the inputs and init values. */
enum { WINDOW_OPERANDS = 5 };

/* Reads window operand `i` (an integer tensor of `n` elements) into out[0, n). */
static hr_status window_values(const hr_cc_call *c, int i, const char *what, int64_t n, int64_t *out) {
  const hr_tensor *t = c->operands[i];
  if ((!hr_dtype_is_signed_int(t->dtype) && !hr_dtype_is_unsigned_int(t->dtype)) || hr_tensor_num_elements(t) != n)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "operand %d (%s) must hold %lld integers", i, what, (long long)n);
  for (int64_t k = 0; k < n; k++) out[k] = hr_load_int(t->dtype, t->data, k);
  return NULL;
}

/* The window the operands after the n inputs and init values give, over inputs of rank `rank`. */
static hr_status window_of(const hr_cc_call *c, int n, int rank, hr_red_window *w) {
  int at = 2 * n;
  HR_TRY(window_values(c, at, "window_dimensions", rank, w->dims));
  HR_TRY(window_values(c, at + 1, "window_strides", rank, w->strides));
  HR_TRY(window_values(c, at + 2, "base_dilations", rank, w->base_dil));
  HR_TRY(window_values(c, at + 3, "window_dilations", rank, w->win_dil));
  int64_t pad[2 * HR_MAX_RANK];
  HR_TRY(window_values(c, at + 4, "padding", 2 * (int64_t)rank, pad));
  if (c->operands[at + 4]->shape.rank != 2)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "operand %d (padding) must have shape [%d, 2]", at + 4, rank);
  for (int d = 0; d < rank; d++) {
    w->pad_lo[d] = pad[2 * d];
    w->pad_hi[d] = pad[2 * d + 1];
  }
  return NULL;
}

/* The body function named by the op's called_computations. */
static hr_status body_of(const hr_cc_call *c, const hr_func **out) {
  const hr_attr *calls = hr_op_attr(c->op, "called_computations");
  const hr_attr *sym = calls && calls->kind == HR_ATTR_ARRAY && calls->u.array.n == 1 ? calls->u.array.items[0] : NULL;
  if (!sym || sym->kind != HR_ATTR_SYMBOL)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "needs called_computations naming its body function");
  const hr_func *fn = c->in->module ? hr_module_find_func(c->in->module, sym->u.str.data) : NULL;
  if (!fn || fn->is_declaration)
    return hr_op_error(c->op, HR_NOT_FOUND, "no function @%s with a body", sym->u.str.data);
  *out = fn;
  return NULL;
}

hr_status hr_cc_dynamic_reduce_window(const hr_cc_call *c) {
  int extra = c->op->n_operands - WINDOW_OPERANDS;
  if (extra < 2 || extra % 2 || c->op->n_results != extra / 2)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT,
                       "takes N inputs, N init values, the window's 5 operands, and gives N results");
  int n = extra / 2;
  hr_red_window w;
  HR_TRY(window_of(c, n, c->operands[0]->shape.rank, &w));
  const hr_func *body = NULL;
  HR_TRY(body_of(c, &body));
  return hr_red_reduce_window_with(c->in, c->op, body, n, &w, c->operands, c->results);
}

/* Shape inference for chlo's broadcasting ops (chlo.broadcast_*: the stablehlo op's element type
 * rules over the numpy-style broadcast shape of chlo.h) and chlo.constant_like. */
#include "base/numeric.h"
#include "ir/chlo.h"
#include "ir/infer_internal.h"

hr_status hri_infer_chlo_broadcast(const hri_ctx *c) {
  int n = c->op->n_operands;
  HR_TRY(hri_want_tensors(c, 0, n));
  hr_dtype t = HR_DTYPE_INVALID;
  HR_TRY(hri_elementwise_dtype(c, hr_chlo_broadcast_base(c->op->code), &t));
  const hr_shape *shapes[3] = {NULL, NULL, NULL};
  for (int i = 0; i < n; i++) shapes[i] = &c->in[i].shape;
  hr_chlo_broadcast b;
  HR_TRY(hr_chlo_broadcast_plan(c->op, shapes, n, &b));
  c->out[0] = hri_tensor(t, &b.result);
  return NULL;
}

/* The element type of constant_like's value: a typed integer or float, or a boolean (i1). */
static hr_status constant_like_dtype(const hri_ctx *c, hr_dtype *out) {
  const hr_attr *v = hr_op_attr(c->op, "value");
  if (!v) return hri_err(c, "missing attribute 'value'");
  hr_dtype t = v->kind == HR_ATTR_BOOL    ? HR_I1
               : v->kind == HR_ATTR_INT   ? v->u.i.dtype
               : v->kind == HR_ATTR_FLOAT ? v->u.f.dtype
                                          : HR_DTYPE_INVALID;
  bool ok = v->kind == HR_ATTR_BOOL || (v->kind == HR_ATTR_INT && (t == HR_I1 || hri_is_int(t))) ||
            (v->kind == HR_ATTR_FLOAT && hr_dtype_is_real_float(t));
  if (!ok) return hri_err(c, "attribute 'value' must be a typed integer, float or boolean scalar");
  *out = t;
  return NULL;
}

hr_status hri_infer_constant_like(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_dtype t = HR_DTYPE_INVALID;
  HR_TRY(constant_like_dtype(c, &t));
  c->out[0] = hri_tensor(t, &c->in[0].shape);
  return NULL;
}

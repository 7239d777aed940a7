/* chlo's broadcasting ops, run as their stablehlo op over operands broadcast to the result's shape
 * (chlo.h), and chlo.constant_like. */
#include "base/elem.h"
#include "interp/data.h"
#include "interp/elementwise_internal.h"
#include "interp/interp.h"
#include "ir/chlo.h"

/* chlo.broadcast_*: each operand whose shape differs from the result's is broadcast into a
 * temporary (as stablehlo.broadcast_in_dim would), then the stablehlo op's kernel runs on the op
 * with the stablehlo opcode (its attributes, comparison_direction and the like, kept). */
static hr_status kernel_broadcast_op(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  int n = op->n_operands;
  if (n < 2 || n > 3) return hr_op_error(op, HR_VERIFY_ERROR, "expected 2 or 3 operands, have %d", n);
  const hr_shape *shapes[3] = {NULL, NULL, NULL};
  for (int i = 0; i < n; i++) shapes[i] = &operands[i]->shape;
  hr_chlo_broadcast plan;
  HR_TRY(hr_chlo_broadcast_plan(op, shapes, n, &plan));
  hr_tensor *owned[3] = {NULL, NULL, NULL};
  hr_tensor *args[3] = {NULL, NULL, NULL};
  hr_status s = NULL;
  for (int i = 0; !s && i < n; i++) {
    args[i] = operands[i];
    if (ew_same_shape(&operands[i]->shape, &results[0]->shape)) continue;
    s = hr_interp_alloc(in, op, operands[i]->dtype, &results[0]->shape, &owned[i]);
    if (!s) s = hr_data_broadcast_into(op, operands[i], plan.dims[i], operands[i]->shape.rank, owned[i]);
    args[i] = owned[i];
  }
  hr_op base = *op;
  base.code = hr_chlo_broadcast_base(op->code);
  hr_kernel_fn fn = base.code != HR_OP_COUNT ? in->kernels[base.code] : NULL;
  if (!s && !fn) s = hr_op_error(op, HR_UNIMPLEMENTED, "the interpreter does not implement this op");
  if (!s) s = fn(in, &base, args, results);
  for (int i = 0; i < n; i++) hr_tensor_free(owned[i]);
  return s;
}

/* chlo.constant_like: every element the scalar `value` (its type is the result's element type). */
static hr_status kernel_constant_like(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  (void)in;
  (void)operands;
  const hr_attr *v = hr_op_attr(op, "value");
  hr_tensor *r = results[0];
  int64_t n = hr_tensor_num_elements(r);
  if (!v) return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute 'value'");
  if (n == 0) return NULL;
  if (v->kind == HR_ATTR_FLOAT && hr_dtype_is_real_float(r->dtype))
    hr_store_float(r->dtype, r->data, 0, v->u.f.value);
  else if (v->kind == HR_ATTR_INT && !hr_dtype_is_float(r->dtype) && !hr_dtype_is_complex(r->dtype))
    hr_store_int(r->dtype, r->data, 0, v->u.i.value);
  else if (v->kind == HR_ATTR_BOOL && r->dtype == HR_I1)
    hr_store_int(r->dtype, r->data, 0, v->u.b);
  else
    return hr_op_error(op, HR_VERIFY_ERROR, "attribute 'value' does not have the result's element type %s",
                       hr_dtype_name(r->dtype));
  hr_data_replicate(r->data, n, hr_dtype_size(r->dtype));
  return NULL;
}

const hr_kernel hr_kernels_chlo[] = {
    {HR_OP_CHLO_BROADCAST_ADD, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_AND, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_ATAN2, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_COMPARE, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_COMPLEX, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_DIVIDE, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_MAXIMUM, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_MINIMUM, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_MULTIPLY, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_NEXT_AFTER, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_OR, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_POLYGAMMA, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_POWER, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_REMAINDER, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SELECT, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SHIFT_LEFT, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SUBTRACT, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_XOR, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_ZETA, kernel_broadcast_op},
    {HR_OP_CHLO_CONSTANT_LIKE, kernel_constant_like},
    {HR_OP_COUNT, NULL},
};

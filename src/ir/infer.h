/* Shape and type inference for single ops, shared by the verifier and the executor. */
#ifndef HLORUN_IR_INFER_H
#define HLORUN_IR_INFER_H

#include "ir/ir.h"

/* Infers the result types of `op` from its operand types.
 *
 * `operand_types` has op->n_operands entries; they may be more precise than the operands' declared
 * types (the executor passes the concrete shapes of the runtime tensors). `operand_values` may be
 * NULL, or have NULL entries; where the value of an operand is known (the executor passes every
 * runtime tensor) result shapes that depend on operand values (dynamic_broadcast_in_dim,
 * dynamic_iota, dynamic_reshape, real_dynamic_slice, dynamic_pad, get_dimension_size users, ...)
 * are computed exactly. Dimensions that cannot be determined are HR_DYNAMIC.
 *
 * On inconsistent operands/attributes returns an HR_VERIFY_ERROR from hr_op_error. For ops whose
 * result type is not a function of the operands (custom_call, func.call, ...) the declared result
 * types are returned (func.call: the callee's declared result types). */
hr_status hr_infer_result_types(const hr_op *op, const hr_type *operand_types,
                                const hr_tensor *const *operand_values, hr_type *result_types);

/* How an op treats its quantized (`!quant.uniform`) operands and results (ir/infer_quant.c). */
typedef enum hr_quant_role {
  HR_QUANT_NONE,    /* no operand or result is quantized */
  HR_QUANT_OWN,     /* uniform_quantize, uniform_dequantize: quantization is what they do */
  HR_QUANT_STORED,  /* moves stored integers as they are (reshape over one per-tensor type,
                     * bitcast_convert, control flow, region-carrying ops whose bodies compute) */
  HR_QUANT_VALUES,  /* computes on the values elements stand for: quantized operands dequantized,
                     * the op run on their expressed type, quantized results quantized back */
} hr_quant_role;
hr_quant_role hr_quant_op_role(const hr_op *op);

#endif

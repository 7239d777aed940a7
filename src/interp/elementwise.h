/* Elementwise arithmetic on single elements, shared with kernels outside the elementwise group.
 *
 * Reduce, reduce_window, scatter and friends recognise region bodies that consist of one binary
 * op (e.g. `stablehlo.add`) and call this instead of interpreting the region per element. */
#ifndef HLORUN_INTERP_ELEMENTWISE_H
#define HLORUN_INTERP_ELEMENTWISE_H

#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* Computes `*out = a <code> b` for one element of type `t`, with exactly the semantics of the
 * elementwise kernel for `code` (integer wraparound, NaN-propagating float maximum/minimum,
 * f16/bf16 computed in f32 and rounded to nearest even, logical ops on i1).
 *
 * `a`, `b` and `out` each point to one element in the hr_dtype memory layout; `out` may alias
 * `a` or `b`. Supported codes: HR_OP_ADD, HR_OP_SUBTRACT, HR_OP_MULTIPLY, HR_OP_MAXIMUM,
 * HR_OP_MINIMUM, HR_OP_AND, HR_OP_OR, HR_OP_XOR. Other codes, or an element type the op does not
 * allow (e.g. `and` on floats), return an HR_UNIMPLEMENTED error named after `op` (which may be
 * NULL, then the message carries no position). */
hr_status hr_elementwise_binary_scalar(const hr_op *op, hr_opcode code, hr_dtype t, const void *a,
                                       const void *b, void *out);

/* hr_elementwise_binary_scalar over `n` elements: out[i] = a[i] <code> b[i] (`out` may be `a` or
 * `b`), on the elementwise kernel's loops. */
hr_status hr_elementwise_binary_array(const hr_op *op, hr_opcode code, hr_dtype t, const void *a, const void *b,
                                      void *out, int64_t n);

/* Recognises a region body `%r = <code> %arg0, %arg1` (or with the arguments swapped) followed by
 * a return of %r, where <code> is one hr_elementwise_binary_scalar serves and the arguments and
 * result are rank-0 tensors of one element type, returned in *t. Sets *body to the binary op (for
 * error positions) and *swapped when the operands are (%arg1, %arg0). */
bool hr_elementwise_binary_region(const hr_block *b, hr_opcode *code, hr_dtype *t, const hr_op **body,
                                  bool *swapped);

#endif /* HLORUN_INTERP_ELEMENTWISE_H */

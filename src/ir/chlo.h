/*
 * The chlo ops that are a stablehlo op applied after numpy-style broadcasting (chlo.broadcast_add
 * is stablehlo.add of its operands broadcast to one shape), shared by shape inference, the
 * interpreter's kernels and the compiler's lowering.
 */
#ifndef HLORUN_IR_CHLO_H
#define HLORUN_IR_CHLO_H

#include "ir/ir.h"

/* The stablehlo (or chlo elementwise) op a chlo.broadcast_* op applies once its operands have the
 * result's shape (chlo.broadcast_add: stablehlo.add), or HR_OP_COUNT when `code` is none of them. */
hr_opcode hr_chlo_broadcast_base(hr_opcode code);

/* How the operands of a chlo.broadcast_* op map into its result. Ranks are padded on the left
 * (numpy): operand dimension k of a rank-r operand is result dimension R - r + k, R the largest
 * rank. A binary op whose operands have different ranks may instead name, in broadcast_dimensions,
 * the result dimension of each dimension of its lower-rank operand (XLA's rank broadcasting); with
 * equal ranks the attribute is ignored, as StableHLO's legalization does. Result dimension d is
 * the size of the operand dimensions mapped to it that are not 1 (1 when all are), which must
 * agree; a dynamic size stays dynamic unless an operand has a static size other than 1 there. */
typedef struct hr_chlo_broadcast {
  hr_shape result;                /* the broadcast shape, of rank R */
  int64_t dims[3][HR_MAX_RANK];   /* dims[i][k]: the result dimension of operand i's dimension k */
} hr_chlo_broadcast;

/* Fills `out` for `op`, a chlo.broadcast_* op, whose n (<= 3) operands have the given shapes; a
 * malformed broadcast_dimensions or sizes that do not broadcast is an HR_VERIFY_ERROR naming op. */
hr_status hr_chlo_broadcast_plan(const hr_op *op, const hr_shape *const *shapes, int n, hr_chlo_broadcast *out);

#endif

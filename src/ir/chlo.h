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

/* chlo.ragged_dot's three modes, by the kind of the lhs ragged dimension (ChloOps.td):
 *   non-contracting (m): [b,m,k] x [g,b,k,n], group_sizes [b,g] -> [b,m,n]
 *   contracting (k):     [b,m,k] x [b,k,n],   group_sizes [b,g] -> [g,b,m,n]
 *   batch (b):           [b,m,k] x [b,k,n],   group_sizes [g]   -> [b,m,n] (a dot_general)
 * group_sizes has shape [b..., x..., g]: the lhs batching dimensions outside the ragged one, then
 * (non-contracting) the lhs non-contracting dimensions before the ragged one or (contracting) the
 * lhs contracting dimensions listed before it, then the groups; a [g] group_sizes applies to all. */
typedef enum hr_ragged_mode { HR_RAGGED_NON_CONTRACTING, HR_RAGGED_CONTRACTING, HR_RAGGED_BATCH } hr_ragged_mode;

/* chlo.ragged_dot's ragged_dot_dimension_numbers. */
typedef struct hr_ragged_dot_dims {
  int64_t lhs_batch[HR_MAX_RANK], rhs_batch[HR_MAX_RANK], lhs_contract[HR_MAX_RANK], rhs_contract[HR_MAX_RANK];
  int n_batch, n_contract;
  int64_t lhs_ragged; /* the lhs ragged dimension (not yet checked against the lhs rank) */
  int64_t rhs_group;  /* the rhs group dimension; -1 when there is none */
  hr_ragged_mode mode;
  int ragged_pos; /* where lhs_ragged is in lhs_batch (batch) or lhs_contract (contracting) */
} hr_ragged_dot_dims;

/* Reads op's ragged_dot_dimension_numbers: lhs and rhs lists of one length each, exactly one lhs
 * ragged dimension, at most one rhs group dimension; other errors are the verifier's. */
hr_status hr_ragged_dot_dims_read(const hr_op *op, hr_ragged_dot_dims *out);

/* The dimensions of the lhs that index group_sizes before its group dimension ([b..., x...]), in
 * order; returns their count. */
int hr_ragged_dot_prefix(const hr_ragged_dot_dims *d, int lhs_rank, int64_t *prefix);

/* chlo.scan's operand split from operandSegmentSizes: its first n_inputs operands are scanned
 * along `dimension`, the remaining n_inits are the carries' initial values; of its results, the
 * first op->n_results - n_inits are the outputs (one element per scan position) and the rest the
 * final carries. The sizes must be two non-negative counts adding up to the operands, with no more
 * carries than results. */
hr_status hr_chlo_scan_counts(const hr_op *op, int *n_inputs, int *n_inits);

#endif

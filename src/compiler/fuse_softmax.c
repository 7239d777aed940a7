/* Softmax over the last dimension, as jax.nn.softmax lowers it:
 *
 *   %m = reduce(%x init: -inf) applies maximum across [r - 1]
 *   %d = subtract %x, broadcast_in_dim(%m)        (the row of %m along the last dimension)
 *   %e = exponential %d
 *   %s = reduce(%e init: 0) applies add across [r - 1]
 *   %y = divide %e, broadcast_in_dim(%s)
 *
 * becomes %y = "hlorun.softmax"(%x). The broadcasts may read the reductions through reshapes
 * adding a unit dimension (keepdims). */
#include <math.h>

#include "compiler/fuse_internal.h"

hr_value *hf_match_softmax(const hf_graph *g, const hr_value *y, hf_ops *p) {
  const hr_op *div = hf_def(g, y, HR_OP_DIVIDE);
  if (!div || !hf_is_f32(y) || y->type.shape.rank < 1 || !hf_ops_add(p, div)) return NULL;
  int64_t last = y->type.shape.rank - 1;
  hr_value *e = div->operands[0], *s = hf_row_source(g, div->operands[1], p);
  const hr_op *sum = s ? hf_def(g, s, HR_OP_REDUCE) : NULL;
  if (!sum || !hf_is_reduce(g, sum, HR_OP_ADD, 0.0f, last) || sum->operands[0] != e) return NULL;
  const hr_op *exp_op = hf_def(g, e, HR_OP_EXPONENTIAL);
  const hr_op *sub = exp_op ? hf_def(g, exp_op->operands[0], HR_OP_SUBTRACT) : NULL;
  if (!sub) return NULL;
  hr_value *x = sub->operands[0], *m = hf_row_source(g, sub->operands[1], p);
  const hr_op *max = m ? hf_def(g, m, HR_OP_REDUCE) : NULL;
  if (!max || !hf_is_reduce(g, max, HR_OP_MAXIMUM, -INFINITY, last) || max->operands[0] != x || !hf_same_type(x, y))
    return NULL;
  bool added = hf_ops_add(p, sum) && hf_ops_add(p, exp_op) && hf_ops_add(p, sub) && hf_ops_add(p, max);
  return added ? x : NULL;
}

hr_status hf_fuse_softmax(hf_graph *g) {
  for (int pos = 0; pos < g->n_ops; pos++) {
    hr_op *op = hf_op_at(g, pos);
    if (op->code != HR_OP_DIVIDE) continue;
    hf_ops p = {0};
    hr_value *x = hf_match_softmax(g, &op->results[0], &p);
    if (!x || !hf_ops_closed(g, &p, op)) continue;
    hr_op *fused;
    HR_TRY(hf_new_op(g, HR_OP_HLORUN_SOFTMAX, op, &x, 1, &op->results[0].type, &fused));
    HR_TRY(hf_insert_before(g, pos, fused));
    hf_replace(g, &op->results[0], &fused->results[0]);
    g->stats.softmax++;
  }
  return NULL;
}

/* Dead-op removal and the final, dense numbering of the specialized function's values. */
#include <string.h>

#include "compiler/compiler_internal.h"

/* Whether a custom_call must stay although its results are unused: it declares a side effect, or
 * it is one of the check.* assertions of test programs. */
static bool custom_call_has_effect(const hr_op *op) {
  const hr_attr *fx = hr_op_attr(op, "has_side_effect");
  if (fx && fx->kind == HR_ATTR_BOOL && fx->u.b) return true;
  const hr_attr *target = hr_op_attr(op, "call_target_name");
  return !target || target->kind != HR_ATTR_STRING || strncmp(target->u.str.data, "check.", 6) == 0;
}

/* Whether `op` (not a terminator) has an effect beyond its results, itself or through an op
 * nested in its regions. */
static bool has_effect(const hr_op *op) {
  if (op->code == HR_OP_CUSTOM_CALL) return custom_call_has_effect(op);
  if (hr_opcode_flags(op->code) & HR_OPF_SIDE_EFFECT) return true;
  for (int r = 0; r < op->n_regions; r++) {
    const hr_block *b = &op->regions[r];
    for (int k = 0; k < b->n_ops; k++)
      if (!(hr_opcode_flags(b->ops[k]->code) & HR_OPF_TERMINATOR) && has_effect(b->ops[k])) return true;
  }
  return false;
}

/* Whether a result of `op` is used (used[] marks the values read by live ops seen so far). */
static bool results_used(const hr_op *op, const bool *used) {
  for (int i = 0; i < op->n_results; i++)
    if (used[op->results[i].id]) return true;
  return false;
}

/* Removes the dead ops of `b`, last to first, so that every user of a value (nested regions
 * included) is counted before its definition is reached. */
static void sweep_block(hr_block *b, bool *used) {
  int kept = b->n_ops;
  for (int k = b->n_ops - 1; k >= 0; k--) {
    hr_op *op = b->ops[k];
    bool live = (hr_opcode_flags(op->code) & HR_OPF_TERMINATOR) || results_used(op, used) || has_effect(op);
    if (!live) continue;
    for (int r = 0; r < op->n_regions; r++) sweep_block(&op->regions[r], used);
    for (int i = 0; i < op->n_operands; i++) used[op->operands[i]->id] = true;
    b->ops[--kept] = op;
  }
  memmove(b->ops, b->ops + kept, sizeof *b->ops * (size_t)(b->n_ops - kept));
  b->n_ops -= kept;
}

/* Gives the values of `b` (its arguments, the results of its ops and of their regions) the next
 * ids of *next. */
static void number_block(hr_block *b, uint32_t *next) {
  for (int i = 0; i < b->n_args; i++) b->args[i].id = (*next)++;
  for (int k = 0; k < b->n_ops; k++) {
    hr_op *op = b->ops[k];
    for (int i = 0; i < op->n_results; i++) op->results[i].id = (*next)++;
    for (int r = 0; r < op->n_regions; r++) number_block(&op->regions[r], next);
  }
}

hr_status hc_dce_and_number(hc_ctx *c) {
  size_t n = c->n_values ? c->n_values : 1;
  bool *used = c->heap->alloc(c->heap->ctx, n * sizeof *used, _Alignof(bool));
  if (!used) return hc_oom();
  memset(used, 0, n * sizeof *used);
  sweep_block(&c->fn->body, used);
  c->heap->free(c->heap->ctx, used);
  uint32_t next = 0;
  number_block(&c->fn->body, &next);
  c->fn->n_values = next;
  return NULL;
}

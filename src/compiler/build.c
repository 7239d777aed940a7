/* Construction of ops, attributes and blocks in the specialized module. Values get provisional
 * ids in creation order; dce.c renumbers the survivors densely at the end. */
#include <string.h>

#include "compiler/compiler_internal.h"

hr_status hc_value_init(hc_ctx *c, hr_value *v) {
  if (c->n_values == UINT32_MAX) return hr_error(HR_RESOURCE_EXHAUSTED, "the specialized function has too many values");
  v->id = c->n_values++;
  v->name = NULL;
  return NULL;
}

hr_status hc_op_new(hc_ctx *c, hr_opcode code, const hr_op *src, hr_block *parent, int n_operands, int n_results,
                    hr_op **out) {
  *out = NULL;
  if (c->n_ops >= HR_LIMIT_SPECIALIZED_OPS)
    return hr_op_error(src, HR_RESOURCE_EXHAUSTED, "the specialized function would exceed %zu ops",
                       (size_t)HR_LIMIT_SPECIALIZED_OPS);
  hr_arena *arena = &c->dst->arena;
  hr_op *op = HR_ARENA_NEW(arena, hr_op);
  if (!op) return hc_oom();
  op->code = code;
  op->parent = parent;
  op->n_operands = n_operands;
  op->n_results = n_results;
  if (n_operands > 0 && !(op->operands = HR_ARENA_ARRAY(arena, hr_value *, (size_t)n_operands))) return hc_oom();
  if (n_results > 0 && !(op->results = HR_ARENA_ARRAY(arena, hr_value, (size_t)n_results))) return hc_oom();
  for (int i = 0; i < n_results; i++) {
    hr_value *v = &op->results[i];
    HR_TRY(hc_value_init(c, v));
    v->def = op;
    v->index = (uint32_t)i;
  }
  HR_TRY(hc_loc(c, src->loc, &op->loc));
  HR_TRY(hc_strdup(c, src->debug_loc, &op->debug_loc));
  c->n_ops++;
  *out = op;
  return NULL;
}

hr_status hc_op_set_attr(hc_ctx *c, hr_op *op, const char *name, hr_attr *value) {
  for (int i = 0; i < op->n_attrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) {
      op->attrs[i].value = value;
      return NULL;
    }
  hr_named_attr *attrs = HR_ARENA_ARRAY(&c->dst->arena, hr_named_attr, (size_t)op->n_attrs + 1);
  if (!attrs) return hc_oom();
  if (op->n_attrs) memcpy(attrs, op->attrs, sizeof *attrs * (size_t)op->n_attrs);
  attrs[op->n_attrs].name = name;
  attrs[op->n_attrs].value = value;
  op->attrs = attrs;
  op->n_attrs++;
  return NULL;
}

void hc_op_remove_attr(hr_op *op, const char *name) {
  for (int i = 0; i < op->n_attrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) {
      memmove(&op->attrs[i], &op->attrs[i + 1], sizeof *op->attrs * (size_t)(op->n_attrs - i - 1));
      op->n_attrs--;
      return;
    }
}

hr_status hc_i64_array(hc_ctx *c, const int64_t *v, int n, hr_attr **out) {
  hr_attr *a = hr_attr_new(c->dst, HR_ATTR_DENSE_ARRAY);
  int64_t *ints = HR_ARENA_ARRAY(&c->dst->arena, int64_t, n > 0 ? (size_t)n : 1);
  if (!a || !ints) return hc_oom();
  if (n > 0) memcpy(ints, v, sizeof *ints * (size_t)n);
  a->u.dense_array.dtype = HR_I64;
  a->u.dense_array.n = n;
  a->u.dense_array.ints = ints;
  *out = a;
  return NULL;
}

hr_status hc_constant_op(hc_ctx *c, const hr_op *src, hr_block *parent, const hr_type *t, const void *data,
                         size_t nbytes, bool splat, hr_op **out) {
  hr_attr *a = hr_attr_new(c->dst, HR_ATTR_DENSE);
  if (!a) return hc_oom();
  a->u.dense.type = *t;
  a->u.dense.splat = splat;
  a->u.dense.nbytes = nbytes;
  /* An empty constant still gets a data pointer (consumers may hand it to memcpy). */
  void *copy = hr_arena_alloc(&c->dst->arena, nbytes ? nbytes : 1, 16);
  if (!copy) return hc_oom();
  if (nbytes) memcpy(copy, data, nbytes);
  a->u.dense.data = copy;
  HR_TRY(hc_op_new(c, HR_OP_CONSTANT, src, parent, 0, 1, out));
  (*out)->results[0].type = *t;
  return hc_op_set_attr(c, *out, "value", a);
}

void hc_block_init(hc_block *b, hr_block *block) {
  b->block = block;
  b->ops = NULL;
  b->n = b->cap = 0;
}

hr_status hc_block_push(hc_ctx *c, hc_block *b, hr_op *op) {
  if (b->n == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 16;
    if (cap > SIZE_MAX / sizeof *b->ops) return hc_oom();
    hr_op **ops = c->heap->alloc(c->heap->ctx, cap * sizeof *ops, _Alignof(hr_op *));
    if (!ops) return hc_oom();
    if (b->n) memcpy(ops, b->ops, b->n * sizeof *ops);
    if (b->ops) c->heap->free(c->heap->ctx, b->ops);
    b->ops = ops;
    b->cap = cap;
  }
  b->ops[b->n++] = op;
  return NULL;
}

hr_status hc_block_finish(hc_ctx *c, hc_block *b) {
  hr_block *block = b->block;
  if (b->n > INT32_MAX) return hr_error(HR_RESOURCE_EXHAUSTED, "a block of the specialized function is too large");
  block->n_ops = (int)b->n;
  block->ops = HR_ARENA_ARRAY(&c->dst->arena, hr_op *, b->n ? b->n : 1);
  if (!block->ops) return hc_oom();
  if (b->n) memcpy(block->ops, b->ops, b->n * sizeof *b->ops);
  hc_block_release(c, b);
  return NULL;
}

void hc_block_release(hc_ctx *c, hc_block *b) {
  if (b->ops) c->heap->free(c->heap->ctx, b->ops);
  b->ops = NULL;
  b->n = b->cap = 0;
}

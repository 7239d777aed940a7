/* Construction of the fused ops in the module's arena: ops with one result, attributes, and the
 * scalar bodies of hlorun.matmul and hlorun.fused. New values get ids from g->n_ids; the commit
 * renumbers them densely. */
#include <string.h>

#include "compiler/fuse_internal.h"

hr_type hf_scalar_f32(void) { return hr_tensor_type(HR_F32, 0, NULL); }

/* Gives `v` the next id. */
static hr_status new_id(hf_graph *g, hr_value *v) {
  if (g->n_ids == UINT32_MAX) return hr_error(HR_RESOURCE_EXHAUSTED, "@main has too many values");
  v->id = g->n_ids++;
  v->name = NULL;
  return NULL;
}

/* An op of `code` with `n_operands` operands (copied from `operands`) and one result of type `t`,
 * positioned at `at`, in block `parent`. */
static hr_status make_op(hf_graph *g, hr_opcode code, const hr_op *at, hr_value *const *operands, int n_operands,
                         const hr_type *t, hr_block *parent, hr_op **out) {
  *out = NULL;
  hr_arena *arena = &g->m->arena;
  hr_op *op = HR_ARENA_NEW(arena, hr_op);
  hr_value **ops = n_operands > 0 ? HR_ARENA_ARRAY(arena, hr_value *, (size_t)n_operands) : NULL;
  hr_value *res = HR_ARENA_NEW(arena, hr_value);
  if (!op || !res || (n_operands > 0 && !ops)) return hf_oom();
  if (n_operands > 0) memcpy(ops, operands, sizeof *ops * (size_t)n_operands);
  op->code = code;
  op->n_operands = n_operands;
  op->operands = ops;
  op->n_results = 1;
  op->results = res;
  op->parent = parent;
  op->loc = at->loc;
  op->debug_loc = at->debug_loc;
  res->type = *t;
  res->def = op;
  res->index = 0;
  HR_TRY(new_id(g, res));
  *out = op;
  return NULL;
}

hr_status hf_new_op(hf_graph *g, hr_opcode code, const hr_op *at, hr_value *const *operands, int n_operands,
                    const hr_type *t, hr_op **out) {
  return make_op(g, code, at, operands, n_operands, t, &g->fn->body, out);
}

hr_status hf_new_constant(hf_graph *g, const hr_op *at, const hr_type *t, const void *data, size_t nbytes, bool splat,
                          hr_op **out) {
  hr_attr *value = hr_attr_new(g->m, HR_ATTR_DENSE);
  void *copy = hr_arena_alloc(&g->m->arena, nbytes ? nbytes : 1, 16);
  if (!value || !copy) return hf_oom();
  if (nbytes) memcpy(copy, data, nbytes);
  value->u.dense.type = *t;
  value->u.dense.splat = splat;
  value->u.dense.data = copy;
  value->u.dense.nbytes = nbytes;
  HR_TRY(hf_new_op(g, HR_OP_CONSTANT, at, NULL, 0, t, out));
  return hf_set_attr(g, *out, "value", value);
}

hr_status hf_set_attr(hf_graph *g, hr_op *op, const char *name, hr_attr *value) {
  hr_named_attr *attrs = HR_ARENA_ARRAY(&g->m->arena, hr_named_attr, (size_t)op->n_attrs + 1);
  if (!attrs) return hf_oom();
  if (op->n_attrs) memcpy(attrs, op->attrs, sizeof *attrs * (size_t)op->n_attrs);
  attrs[op->n_attrs] = (hr_named_attr){name, value};
  op->attrs = attrs;
  op->n_attrs++;
  return NULL;
}

hr_status hf_attr_bool(hf_graph *g, bool v, hr_attr **out) {
  *out = hr_attr_new(g->m, HR_ATTR_BOOL);
  if (!*out) return hf_oom();
  (*out)->u.b = v;
  return NULL;
}

hr_status hf_attr_f32(hf_graph *g, float v, hr_attr **out) {
  *out = hr_attr_new(g->m, HR_ATTR_FLOAT);
  if (!*out) return hf_oom();
  (*out)->u.f.value = v;
  (*out)->u.f.dtype = HR_F32;
  return NULL;
}

hr_status hf_attr_i64s(hf_graph *g, const int64_t *v, int n, hr_attr **out) {
  *out = hr_attr_new(g->m, HR_ATTR_DENSE_ARRAY);
  int64_t *ints = HR_ARENA_ARRAY(&g->m->arena, int64_t, n > 0 ? (size_t)n : 1);
  if (!*out || !ints) return hf_oom();
  if (n > 0) memcpy(ints, v, sizeof *ints * (size_t)n);
  (*out)->u.dense_array.dtype = HR_I64;
  (*out)->u.dense_array.n = n;
  (*out)->u.dense_array.ints = ints;
  return NULL;
}

hr_status hf_attr_list(hf_graph *g, int n, hr_attr **out) {
  *out = hr_attr_new(g->m, HR_ATTR_ARRAY);
  hr_attr **items = HR_ARENA_ARRAY(&g->m->arena, hr_attr *, n > 0 ? (size_t)n : 1);
  if (!*out || !items) return hf_oom();
  (*out)->u.array.n = n;
  (*out)->u.array.items = items;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Scalar bodies                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

hr_status hf_body_begin(hf_graph *g, hr_op *op, int n_args, hf_body *b) {
  memset(b, 0, sizeof *b);
  hr_arena *arena = &g->m->arena;
  hr_block *block = HR_ARENA_NEW(arena, hr_block);
  hr_value *args = HR_ARENA_ARRAY(arena, hr_value, n_args > 0 ? (size_t)n_args : 1);
  if (!block || !args) return hf_oom();
  for (int i = 0; i < n_args; i++) {
    args[i].type = hf_scalar_f32();
    args[i].owner = block;
    args[i].index = (uint32_t)i;
    HR_TRY(new_id(g, &args[i]));
  }
  block->n_args = n_args;
  block->args = args;
  block->parent_op = op;
  block->func = g->fn;
  op->n_regions = 1;
  op->regions = block;
  b->block = block;
  return NULL;
}

/* Appends `op` to the body's vector. */
static hr_status body_push(hf_graph *g, hf_body *b, hr_op *op) {
  if (b->n == b->cap) {
    int cap = b->cap ? b->cap * 2 : 16;
    hr_op **grown = g->heap->alloc(g->heap->ctx, (size_t)cap * sizeof *grown, _Alignof(hr_op *));
    if (!grown) return hf_oom();
    if (b->n) memcpy(grown, b->ops, (size_t)b->n * sizeof *grown);
    if (b->ops) g->heap->free(g->heap->ctx, b->ops);
    b->ops = grown;
    b->cap = cap;
  }
  b->ops[b->n++] = op;
  return NULL;
}

hr_status hf_body_clone(hf_graph *g, hf_body *b, const hr_op *src, hr_value *const *operands, hr_value **out) {
  hr_type t = hf_scalar_f32();
  hr_op *op;
  HR_TRY(make_op(g, src->code, src, operands, src->n_operands, &t, b->block, &op));
  op->n_attrs = src->n_attrs;
  op->attrs = src->attrs;
  *out = &op->results[0];
  return body_push(g, b, op);
}

hr_status hf_body_constant(hf_graph *g, hf_body *b, const hr_op *at, float v, hr_value **out) {
  hr_type t = hf_scalar_f32();
  hr_attr *value = hr_attr_new(g->m, HR_ATTR_DENSE);
  float *data = HR_ARENA_NEW(&g->m->arena, float);
  if (!value || !data) return hf_oom();
  *data = v;
  value->u.dense.type = t;
  value->u.dense.splat = true;
  value->u.dense.data = data;
  value->u.dense.nbytes = sizeof *data;
  hr_op *op;
  HR_TRY(make_op(g, HR_OP_CONSTANT, at, NULL, 0, &t, b->block, &op));
  HR_TRY(hf_set_attr(g, op, "value", value));
  *out = &op->results[0];
  return body_push(g, b, op);
}

hr_status hf_body_finish(hf_graph *g, hf_body *b, const hr_op *at, hr_value *result) {
  hr_op *ret = HR_ARENA_NEW(&g->m->arena, hr_op);
  hr_value **operands = HR_ARENA_NEW(&g->m->arena, hr_value *);
  if (!ret || !operands) return hf_oom();
  *operands = result;
  ret->code = HR_OP_RETURN;
  ret->n_operands = 1;
  ret->operands = operands;
  ret->parent = b->block;
  ret->loc = at->loc;
  ret->debug_loc = at->debug_loc;
  HR_TRY(body_push(g, b, ret));
  hr_op **ops = HR_ARENA_ARRAY(&g->m->arena, hr_op *, (size_t)b->n);
  if (!ops) return hf_oom();
  memcpy(ops, b->ops, (size_t)b->n * sizeof *ops);
  b->block->ops = ops;
  b->block->n_ops = b->n;
  hf_body_release(g, b);
  return NULL;
}

void hf_body_release(hf_graph *g, hf_body *b) {
  if (b->ops) g->heap->free(g->heap->ctx, b->ops);
  b->ops = NULL;
  b->n = b->cap = 0;
}

/* The fusion graph over main's top-level ops: analysis (positions, uses, users), the pending
 * replacements and insertions, and the commit that applies them. */
#include <stdlib.h>
#include <string.h>

#include "compiler/compiler_internal.h"
#include "compiler/fuse_internal.h"

hr_status hf_oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory fusing ops"); }

/* Frees a heap array (NULL is fine). */
static void heap_free(const hf_graph *g, void *p) {
  if (p) g->heap->free(g->heap->ctx, p);
}

/* Allocates a zero-filled heap array of n (at least 1) elements of `size` bytes. */
static void *heap_calloc(const hf_graph *g, size_t n, size_t size) {
  n = n ? n : 1;
  if (n > SIZE_MAX / size) return NULL;
  void *p = g->heap->alloc(g->heap->ctx, n * size, 16);
  if (p) memset(p, 0, n * size);
  return p;
}

/* Frees the per-value and per-position arrays. */
static void release_arrays(hf_graph *g) {
  heap_free(g, g->pos);
  heap_free(g, g->n_uses);
  heap_free(g, g->user_start);
  heap_free(g, g->users);
  heap_free(g, g->repl);
  heap_free(g, g->claimed);
  g->pos = NULL;
  g->n_uses = g->user_start = NULL;
  g->users = NULL;
  g->repl = NULL;
  g->claimed = NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Analysis                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Raises *max to one past the largest value id of block `b` (nested regions included). */
static void max_id_block(const hr_block *b, uint32_t *max) {
  for (int i = 0; i < b->n_args; i++)
    if (b->args[i].id >= *max) *max = b->args[i].id + 1;
  for (int k = 0; k < b->n_ops; k++) {
    const hr_op *op = b->ops[k];
    for (int i = 0; i < op->n_results; i++)
      if (op->results[i].id >= *max) *max = op->results[i].id + 1;
    for (int r = 0; r < op->n_regions; r++) max_id_block(&op->regions[r], max);
  }
}

/* Counts (users == NULL) or records as used by position `user` every operand slot of `op` and
 * of the ops nested in its regions. */
static void note_uses(hf_graph *g, const hr_op *op, int user, uint32_t *fill) {
  for (int i = 0; i < op->n_operands; i++) {
    uint32_t id = op->operands[i]->id;
    if (fill) g->users[fill[id]++] = user;
    else g->n_uses[id]++;
  }
  for (int r = 0; r < op->n_regions; r++)
    for (int k = 0; k < op->regions[r].n_ops; k++) note_uses(g, op->regions[r].ops[k], user, fill);
}

/* Rebuilds positions, use counts and user lists for the current body. */
static hr_status analyze(hf_graph *g) {
  release_arrays(g);
  const hr_block *body = &g->fn->body;
  uint32_t cap = g->fn->n_values;
  max_id_block(body, &cap);
  g->cap = g->n_ids = cap;
  g->n_ops = body->n_ops;
  g->pos = heap_calloc(g, cap, sizeof *g->pos);
  g->n_uses = heap_calloc(g, cap, sizeof *g->n_uses);
  g->user_start = heap_calloc(g, (size_t)cap + 1, sizeof *g->user_start);
  g->repl = heap_calloc(g, cap, sizeof *g->repl);
  g->claimed = heap_calloc(g, (size_t)body->n_ops, sizeof *g->claimed);
  if (!g->pos || !g->n_uses || !g->user_start || !g->repl || !g->claimed) return hf_oom();
  for (uint32_t i = 0; i < cap; i++) g->pos[i] = -1;
  for (int k = 0; k < body->n_ops; k++) {
    const hr_op *op = body->ops[k];
    for (int i = 0; i < op->n_results; i++) g->pos[op->results[i].id] = k;
    note_uses(g, op, k, NULL);
  }
  uint32_t total = 0;
  for (uint32_t i = 0; i < cap; i++) {
    g->user_start[i] = total;
    total += g->n_uses[i];
  }
  g->user_start[cap] = total;
  g->users = heap_calloc(g, total, sizeof *g->users);
  uint32_t *fill = heap_calloc(g, cap, sizeof *fill);
  if (!g->users || !fill) {
    heap_free(g, fill);
    return hf_oom();
  }
  memcpy(fill, g->user_start, (size_t)cap * sizeof *fill);
  for (int k = 0; k < body->n_ops; k++) note_uses(g, body->ops[k], k, fill);
  heap_free(g, fill);
  return NULL;
}

hr_status hf_graph_init(hf_graph *g, hr_module *m, const hr_fuse_options *opts) {
  memset(g, 0, sizeof *g);
  g->m = m;
  g->opts = opts;
  g->heap = opts->allocator ? opts->allocator : hr_default_allocator();
  g->fn = hr_module_find_func(m, "main");
  if (!g->fn) return hr_error(HR_NOT_FOUND, "%s: fusion needs a function @main", m->filename ? m->filename : "?");
  return analyze(g);
}

void hf_graph_release(hf_graph *g) {
  release_arrays(g);
  heap_free(g, g->inserts);
  g->inserts = NULL;
  g->n_inserts = g->inserts_cap = 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Queries                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

hr_op *hf_op_at(const hf_graph *g, int pos) { return g->fn->body.ops[pos]; }

int hf_pos_of(const hf_graph *g, const hr_value *v) { return v->id < g->cap ? g->pos[v->id] : -1; }

uint32_t hf_uses(const hf_graph *g, const hr_value *v) { return v->id < g->cap ? g->n_uses[v->id] : 0; }

const int32_t *hf_users(const hf_graph *g, const hr_value *v, uint32_t *n) {
  *n = hf_uses(g, v);
  return *n ? g->users + g->user_start[v->id] : NULL;
}

bool hf_is_weight(const hf_graph *g, const hr_value *v) {
  const hr_fuse_options *o = g->opts;
  return !v->def && v->owner == &g->fn->body && o->bound && (int64_t)v->index < o->n_bound && o->bound[v->index];
}

/* ---------------------------------------------------------------------------------------------- */
/* Recording changes                                                                               */
/* ---------------------------------------------------------------------------------------------- */

void hf_replace(hf_graph *g, const hr_value *old, hr_value *with) {
  if (old->id < g->cap) g->repl[old->id] = with;
}

hr_status hf_insert_before(hf_graph *g, int pos, hr_op *op) {
  if (g->n_inserts == g->inserts_cap) {
    size_t cap = g->inserts_cap ? g->inserts_cap * 2 : 64;
    hf_insert *grown = heap_calloc(g, cap, sizeof *grown);
    if (!grown) return hf_oom();
    if (g->n_inserts) memcpy(grown, g->inserts, g->n_inserts * sizeof *grown);
    heap_free(g, g->inserts);
    g->inserts = grown;
    g->inserts_cap = cap;
  }
  g->inserts[g->n_inserts] = (hf_insert){pos, (int)g->n_inserts, op};
  g->n_inserts++;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Commit                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Rewrites the operands of `op` and of the ops nested in it through the replacements. */
static void rewrite_operands(const hf_graph *g, hr_op *op) {
  for (int i = 0; i < op->n_operands; i++) {
    uint32_t id = op->operands[i]->id;
    if (id < g->cap && g->repl[id]) op->operands[i] = g->repl[id];
  }
  for (int r = 0; r < op->n_regions; r++)
    for (int k = 0; k < op->regions[r].n_ops; k++) rewrite_operands(g, op->regions[r].ops[k]);
}

/* Orders insertions by position, then creation. */
static int compare_inserts(const void *a, const void *b) {
  const hf_insert *x = a, *y = b;
  if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Builds the body's new op list with the insertions in place. */
static hr_status splice_inserts(hf_graph *g) {
  hr_block *body = &g->fn->body;
  size_t n = (size_t)body->n_ops + g->n_inserts;
  if (n > INT32_MAX) return hr_error(HR_RESOURCE_EXHAUSTED, "@main would have too many ops");
  hr_op **ops = HR_ARENA_ARRAY(&g->m->arena, hr_op *, n);
  if (!ops) return hf_oom();
  qsort(g->inserts, g->n_inserts, sizeof *g->inserts, compare_inserts);
  size_t k = 0, next = 0;
  for (int i = 0; i < body->n_ops; i++) {
    for (; next < g->n_inserts && g->inserts[next].pos == i; next++) ops[k++] = g->inserts[next].op;
    ops[k++] = body->ops[i];
  }
  body->ops = ops;
  body->n_ops = (int)k;
  return NULL;
}

hr_status hf_commit(hf_graph *g) {
  if (g->n_inserts == 0) return NULL;
  HR_TRY(splice_inserts(g));
  hr_block *body = &g->fn->body;
  for (int k = 0; k < body->n_ops; k++) rewrite_operands(g, body->ops[k]);
  g->n_inserts = 0;
  hc_ctx c;
  memset(&c, 0, sizeof c);
  c.fn = g->fn;
  c.heap = g->heap;
  c.n_values = g->n_ids;
  HR_TRY(hc_dce_and_number(&c));
  return analyze(g);
}

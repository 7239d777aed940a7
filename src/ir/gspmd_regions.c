/* The manual regions of one block (gspmd_import.c) found and rewritten as sdy.manual_computation
 * ops. Each op of the block gets a role:
 *   ENTER   SPMDFullToShardShape: its result is a piece (a per-device value)
 *   LEAVE   SPMDShardToFullShape: its operand is a piece, its result global
 *   BODY    an op reading a piece or a body value (found forward, in block order), or one that a
 *           body op or a LEAVE reads (found backward): the region's ops
 *   SHARED  an op with no operands and no regions (a constant) that the body reads: moved into the
 *           region when only that region reads it, else cloned into each region reading it
 *   OUTSIDE the rest.
 * ENTER, LEAVE and BODY ops joined by what they read form one manual computation (union-find); it
 * takes the place of its first LEAVE (of its last op when it has none). Any other crossing of a
 * region's edge is an error naming the op. */
#include <string.h>

#include "base/limits.h"
#include "ir/gspmd_internal.h"
#include "ir/sdy_round_trip_internal.h"

enum { R_OUTSIDE, R_ENTER, R_LEAVE, R_BODY, R_SHARED };

/* Where a value an op of the block reads is defined. */
typedef enum dep_kind {
  DEP_OP,     /* by an op of the block */
  DEP_ARG,    /* an argument of the block */
  DEP_OUTER,  /* in a block enclosing it */
  DEP_INSIDE, /* in the reading op's own regions */
} dep_kind;

/* The analysis of one block. */
typedef struct block_ctx {
  hr_gspmd_func *c;
  hr_block *b;
  int depth;          /* enclosing blocks */
  int n;              /* ops */
  uint8_t *role;      /* per op */
  int *parent;        /* per op: union-find */
  size_t *dep_start;  /* per op and one more: its reads in deps[dep_start[i] .. dep_start[i + 1]) */
  hr_value **deps;
  int *group;         /* per op: its manual computation's index, or -1 */
  int *first_reader;  /* per SHARED op: the group first reading it */
  bool *multi;        /* per SHARED op: read by several groups */
  bool *outside;      /* per SHARED op: read outside the regions */
  int *cloned_for;    /* per SHARED op: the group whose region holds its latest clone */
  hr_op **at_place;   /* per op: the manual computation taking its place, or NULL */
} block_ctx;

/* `v`'s name for messages. */
static const char *name_of(const hr_value *v) { return v->name ? v->name : "?"; }

/* Where `v`, read by an op of the block, is defined (*index: the defining op's, for DEP_OP). */
static dep_kind classify(const block_ctx *k, const hr_value *v, int *index) {
  if (v->id >= k->c->n_ids) return DEP_INSIDE; /* made by this import, inside a region of the reader */
  const hr_block *o = k->c->owner[v->id];
  if (o == k->b) {
    if (!v->def) return DEP_ARG;
    *index = k->c->at[v->id];
    return DEP_OP;
  }
  for (int i = 0; i < k->depth; i++)
    if (k->c->ancestors[i] == o) return DEP_OUTER;
  return DEP_INSIDE;
}

/* Appends to out (counts when NULL) the values `op` reads from outside itself: its operands and the
 * values its regions read from outside them. */
static void collect_reads(const block_ctx *k, const hr_op *op, hr_value **out, size_t *n) {
  int ignored;
  for (int i = 0; i < op->n_operands; i++) {
    hr_value *v = op->operands[i];
    if (!v || classify(k, v, &ignored) == DEP_INSIDE) continue;
    if (out) out[*n] = v;
    (*n)++;
  }
  for (int r = 0; r < op->n_regions; r++)
    for (int i = 0; i < op->regions[r].n_ops; i++) collect_reads(k, op->regions[r].ops[i], out, n);
}

/* The reads of every op of the block, in k->dep_start / k->deps. */
static hr_status index_reads(block_ctx *k, hr_arena *a) {
  k->dep_start = HR_ARENA_ARRAY(a, size_t, (size_t)k->n + 1);
  if (!k->dep_start) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  size_t n = 0;
  for (int i = 0; i < k->n; i++) {
    k->dep_start[i] = n;
    collect_reads(k, k->b->ops[i], NULL, &n);
  }
  k->dep_start[k->n] = n;
  k->deps = HR_ARENA_ARRAY(a, hr_value *, n + 1);
  if (!k->deps) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  n = 0;
  for (int i = 0; i < k->n; i++) collect_reads(k, k->b->ops[i], k->deps, &n);
  return NULL;
}

/* The op of the block defining read `v` of the block's op, or -1 when no op of the block does. */
static int def_index(const block_ctx *k, const hr_value *v) {
  int j = -1;
  return classify(k, v, &j) == DEP_OP ? j : -1;
}

/* The first piece or body value op i reads, or NULL. */
static hr_value *local_read(const block_ctx *k, int i) {
  for (size_t d = k->dep_start[i]; d < k->dep_start[i + 1]; d++) {
    int j = def_index(k, k->deps[d]);
    if (j >= 0 && (k->role[j] == R_ENTER || k->role[j] == R_BODY)) return k->deps[d];
  }
  return NULL;
}

/* The roles: ENTER and LEAVE by target; BODY forward from the pieces, then backward from what body
 * ops and LEAVEs read (SHARED for constant-like ops). */
static hr_status assign_roles(block_ctx *k) {
  for (int i = 0; i < k->n; i++) {
    hr_gspmd_target t = hr_gspmd_target_of(k->b->ops[i]);
    k->role[i] = t == HR_GSPMD_FULL_TO_SHARD ? R_ENTER : t == HR_GSPMD_SHARD_TO_FULL ? R_LEAVE : R_OUTSIDE;
  }
  for (int i = 0; i < k->n; i++) {
    if (k->role[i] == R_LEAVE || !local_read(k, i)) continue;
    if (k->role[i] == R_ENTER)
      return hr_sdyrt_error(k->c->imp->m, k->b->ops[i], "a manual region inside another (a nested shard_map) is not "
                                                        "supported");
    k->role[i] = R_BODY;
  }
  for (int i = k->n - 1; i >= 0; i--) {
    if (k->role[i] != R_BODY && k->role[i] != R_LEAVE) continue;
    for (size_t d = k->dep_start[i]; d < k->dep_start[i + 1]; d++) {
      int j = def_index(k, k->deps[d]);
      if (j < 0 || k->role[j] != R_OUTSIDE) continue;
      const hr_op *op = k->b->ops[j];
      k->role[j] = op->n_operands == 0 && op->n_regions == 0 ? R_SHARED : R_BODY;
    }
  }
  return NULL;
}

static int find_root(int *parent, int i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

/* The error for read `v` of op i crossing a region's edge. */
static hr_status crossing_error(const block_ctx *k, int i, const hr_value *v) {
  const hr_op *op = k->b->ops[i];
  hr_module *m = k->c->imp->m;
  if (k->role[i] == R_LEAVE)
    return hr_sdyrt_error(m, op, "the operand of @%s (%%%s) is no per-device value of a manual region",
                          hr_gspmd_target_name(HR_GSPMD_SHARD_TO_FULL), name_of(v));
  if (k->role[i] == R_BODY && hr_opcode_flags(op->code) & HR_OPF_TERMINATOR)
    return hr_sdyrt_error(m, op, "returns %%%s, a per-device value of a manual region, without @%s", name_of(v),
                          hr_gspmd_target_name(HR_GSPMD_SHARD_TO_FULL));
  if (k->role[i] == R_BODY)
    return hr_sdyrt_error(m, op, "in a manual region, reads %%%s from outside it (a region's values enter through "
                          "@%s)", name_of(v), hr_gspmd_target_name(HR_GSPMD_FULL_TO_SHARD));
  return hr_sdyrt_error(m, op, "reads %%%s, a per-device value of a manual region, outside it (values leave "
                        "through @%s)", name_of(v), hr_gspmd_target_name(HR_GSPMD_SHARD_TO_FULL));
}

/* Checks every read against the roles and joins body ops, ENTERs and LEAVEs that read one another. */
static hr_status join_regions(block_ctx *k) {
  for (int i = 0; i < k->n; i++) k->parent[i] = i;
  for (int i = 0; i < k->n; i++) {
    bool inside = k->role[i] == R_BODY || k->role[i] == R_LEAVE;
    if (k->role[i] == R_BODY && hr_opcode_flags(k->b->ops[i]->code) & HR_OPF_TERMINATOR)
      return crossing_error(k, i, local_read(k, i));
    for (size_t d = k->dep_start[i]; d < k->dep_start[i + 1]; d++) {
      int j = def_index(k, k->deps[d]);
      bool local = j >= 0 && (k->role[j] == R_ENTER || k->role[j] == R_BODY);
      if (inside && local) k->parent[find_root(k->parent, i)] = find_root(k->parent, j);
      else if (inside != local && !(inside && j >= 0 && k->role[j] == R_SHARED))
        return crossing_error(k, i, k->deps[d]);
    }
  }
  return NULL;
}

/* Numbers the manual computations in block order, and decides for each SHARED op whether it moves
 * into the one region reading it. */
static void number_groups(block_ctx *k, int *n_groups) {
  int *index_of_root = k->cloned_for; /* free until the regions are built */
  for (int i = 0; i < k->n; i++) index_of_root[i] = -1;
  *n_groups = 0;
  for (int i = 0; i < k->n; i++) {
    k->group[i] = -1;
    k->first_reader[i] = -1;
    k->multi[i] = k->outside[i] = false;
    if (k->role[i] == R_OUTSIDE || k->role[i] == R_SHARED) continue;
    int r = find_root(k->parent, i);
    if (index_of_root[r] < 0) index_of_root[r] = (*n_groups)++;
    k->group[i] = index_of_root[r];
  }
  for (int i = 0; i < k->n; i++)
    for (size_t d = k->dep_start[i]; d < k->dep_start[i + 1]; d++) {
      int j = def_index(k, k->deps[d]);
      if (j < 0 || k->role[j] != R_SHARED) continue;
      bool inside = k->role[i] == R_BODY || k->role[i] == R_LEAVE;
      if (!inside) k->outside[j] = true;
      else if (k->first_reader[j] < 0) k->first_reader[j] = k->group[i];
      else if (k->first_reader[j] != k->group[i]) k->multi[j] = true;
    }
  for (int j = 0; j < k->n; j++) {
    k->cloned_for[j] = -1;
    if (k->role[j] == R_SHARED && !k->outside[j] && !k->multi[j]) k->group[j] = k->first_reader[j];
  }
}

/* Whether op i is one of group g's region ops (a body op or a SHARED op moved in). */
static bool in_region(const block_ctx *k, int i, int g) {
  return k->group[i] == g && (k->role[i] == R_BODY || k->role[i] == R_SHARED);
}

/* ---------------------------------------------------------------------------------------------- */
/* One manual computation                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* The manual computation being built. */
typedef struct builder {
  int g;
  int n_in, n_out, cap;         /* ENTERs, LEAVEs, and room for the region's ops */
  int place;                    /* the op whose place it takes */
  hr_op *mc;
  hr_block *region;
  hr_op **enters, **leaves;
} builder;

/* Counts group g's ENTERs and LEAVEs (room for its region's ops and their clones), finds its place
 * (its first LEAVE, else its last op), and checks that every value entering is computed before. */
static hr_status size_group(const block_ctx *k, builder *bd, hr_arena *a) {
  int first_leave = -1, last = -1;
  bd->n_in = bd->n_out = 0;
  bd->cap = 1;
  for (int i = 0; i < k->n; i++) {
    if (k->group[i] != bd->g) continue;
    last = i;
    if (k->role[i] == R_ENTER) bd->n_in++;
    if (k->role[i] == R_LEAVE && bd->n_out++ == 0) first_leave = i;
    bd->cap += 1 + (int)(k->dep_start[i + 1] - k->dep_start[i]);
  }
  bd->place = first_leave >= 0 ? first_leave : last;
  bd->enters = HR_ARENA_ARRAY(a, hr_op *, (size_t)bd->n_in + 1);
  bd->leaves = HR_ARENA_ARRAY(a, hr_op *, (size_t)bd->n_out + 1);
  if (!bd->enters || !bd->leaves) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  int ni = 0, no = 0;
  for (int i = 0; i < k->n; i++) {
    if (k->group[i] != bd->g) continue;
    if (k->role[i] == R_ENTER) {
      bd->enters[ni++] = k->b->ops[i];
      int j = def_index(k, k->b->ops[i]->operands[0]);
      if (j >= bd->place)
        return hr_sdyrt_error(k->c->imp->m, k->b->ops[i], "enters a manual region with a value computed after the "
                                                          "region's first result leaves it");
    }
    if (k->role[i] == R_LEAVE) bd->leaves[no++] = k->b->ops[i];
  }
  return NULL;
}

/* An OPAQUE attribute of the module holding the text of `sb` (which is freed). */
static hr_status opaque_of(hr_module *m, hr_strbuf *sb, hr_attr **out) {
  hr_status s = hr_strbuf_status(sb);
  hr_attr *a = s ? NULL : hr_attr_new(m, HR_ATTR_OPAQUE);
  char *text = a ? hr_arena_strndup(&m->arena, sb->data ? sb->data : "", sb->len) : NULL;
  size_t len = sb->len;
  hr_strbuf_free(sb);
  if (s) return s;
  if (!text) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  a->u.str.data = text;
  a->u.str.len = len;
  *out = a;
  return NULL;
}

/* `sdy.sharding_per_value<[...]>` of the global values through `sites`. */
static hr_status per_value(hr_gspmd_func *c, hr_op *const *sites, int n, hr_attr **out) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, c->imp->m->arena.allocator);
  hr_strbuf_puts(&sb, "sdy.sharding_per_value<[");
  for (int i = 0; i < n; i++) {
    if (i) hr_strbuf_puts(&sb, ", ");
    hr_status s = hr_gspmd_site_sharding(c, sites[i], &sb);
    if (s) {
      hr_strbuf_free(&sb);
      return s;
    }
  }
  hr_strbuf_puts(&sb, "]>");
  return opaque_of(c->imp->m, &sb, out);
}

/* The manual computation's attributes: in/out shardings, every mesh axis manual. */
static hr_status set_attrs(hr_gspmd_func *c, builder *bd) {
  hr_module *m = c->imp->m;
  hr_named_attr *attrs = HR_ARENA_ARRAY(&m->arena, hr_named_attr, 3);
  if (!attrs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  attrs[0].name = "in_shardings";
  attrs[1].name = "out_shardings";
  attrs[2].name = "manual_axes";
  HR_TRY(per_value(c, bd->enters, bd->n_in, &attrs[0].value));
  HR_TRY(per_value(c, bd->leaves, bd->n_out, &attrs[1].value));
  hr_strbuf sb;
  hr_strbuf_init(&sb, m->arena.allocator);
  hr_strbuf_puts(&sb, "sdy<manual_axes{");
  for (int a = 0; a < c->imp->mesh.n_axes; a++) hr_strbuf_printf(&sb, "%s\"%c\"", a ? ", " : "", 'a' + a);
  hr_strbuf_puts(&sb, "}>");
  HR_TRY(opaque_of(m, &sb, &attrs[2].value));
  bd->mc->attrs = attrs;
  bd->mc->n_attrs = 3;
  return NULL;
}

/* A new value of the function: of type `t`, defined by `def` (or an argument of `owner`). */
static hr_value new_value(hr_gspmd_func *c, hr_type t, hr_op *def, hr_block *owner, int index) {
  return (hr_value){t, c->f->n_values++, def, owner, (uint32_t)index, NULL};
}

/* The manual computation op with its region's arguments (the ENTERs' pieces, which the region's
 * ops will read instead) and results (standing for the LEAVEs' results). */
static hr_status new_computation(hr_gspmd_func *c, const block_ctx *k, builder *bd) {
  hr_arena *a = &c->imp->m->arena;
  bd->mc = HR_ARENA_NEW(a, hr_op);
  bd->region = HR_ARENA_NEW(a, hr_block);
  hr_value **operands = HR_ARENA_ARRAY(a, hr_value *, (size_t)bd->n_in + 1);
  hr_value *args = HR_ARENA_ARRAY(a, hr_value, (size_t)bd->n_in + 1);
  hr_value *results = HR_ARENA_ARRAY(a, hr_value, (size_t)bd->n_out + 1);
  hr_op **ops = HR_ARENA_ARRAY(a, hr_op *, (size_t)bd->cap);
  if (!bd->mc || !bd->region || !operands || !args || !results || !ops)
    return hr_error(HR_OUT_OF_MEMORY, "out of memory building a manual computation");
  const hr_op *first = bd->n_in ? bd->enters[0] : k->b->ops[bd->place];
  *bd->mc = (hr_op){.code = HR_OP_SDY_MANUAL_COMPUTATION, .n_operands = bd->n_in, .operands = operands,
                    .n_results = bd->n_out, .results = results, .n_regions = 1, .regions = bd->region,
                    .parent = k->b, .loc = first->loc, .debug_loc = first->debug_loc};
  *bd->region = (hr_block){bd->n_in, args, 0, ops, bd->mc, c->f};
  for (int i = 0; i < bd->n_in; i++) {
    const hr_op *e = bd->enters[i];
    operands[i] = e->operands[0];
    args[i] = new_value(c, e->results[0].type, NULL, bd->region, i);
    c->local[e->results[0].id] = &args[i];
  }
  for (int i = 0; i < bd->n_out; i++) {
    const hr_op *l = bd->leaves[i];
    results[i] = new_value(c, l->results[0].type, bd->mc, NULL, i);
    c->fwd[l->results[0].id] = &results[i];
  }
  return set_attrs(c, bd);
}

/* Clones into the region the SHARED ops op i reads that stay outside (or go to other regions). */
static hr_status clone_shared(block_ctx *k, builder *bd, int i) {
  for (size_t d = k->dep_start[i]; d < k->dep_start[i + 1]; d++) {
    int j = def_index(k, k->deps[d]);
    if (j < 0 || k->role[j] != R_SHARED || k->group[j] == bd->g || k->cloned_for[j] == bd->g) continue;
    const hr_op *src = k->b->ops[j];
    hr_sdyrt_cloner cl = {k->c->imp->m, k->c->f, NULL, 0};
    hr_op *clone;
    HR_TRY(hr_sdyrt_clone_op(&cl, src, bd->region, &clone));
    for (int r = 0; r < src->n_results; r++) k->c->local[src->results[r].id] = &clone->results[r];
    k->cloned_for[j] = bd->g;
    bd->region->ops[bd->region->n_ops++] = clone;
  }
  return NULL;
}

/* Points the operands of `b` (and of the regions in it) at what they are inside the region. */
static void localize(const hr_gspmd_func *c, hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int k = 0; k < op->n_operands; k++) {
      hr_value *v = op->operands[k];
      if (v && v->id < c->n_ids && c->local[v->id]) op->operands[k] = c->local[v->id];
    }
    for (int r = 0; r < op->n_regions; r++) localize(c, &op->regions[r]);
  }
}

/* Forgets what group g's values were inside its region. */
static void forget_locals(const block_ctx *k, int g) {
  for (int i = 0; i < k->n; i++) {
    const hr_op *op = k->b->ops[i];
    bool mapped = (k->group[i] == g && k->role[i] == R_ENTER) || (k->role[i] == R_SHARED && k->cloned_for[i] == g);
    for (int r = 0; mapped && r < op->n_results; r++)
      if (op->results[r].id < k->c->n_ids) k->c->local[op->results[r].id] = NULL;
  }
}

/* Builds group g's manual computation: its region's ops moved in (clones before their first
 * reader), an sdy.return of the LEAVEs' operands. */
static hr_status build_group(block_ctx *k, int g, hr_arena *a) {
  builder bd = {.g = g};
  HR_TRY(size_group(k, &bd, a));
  HR_TRY(new_computation(k->c, k, &bd));
  for (int i = 0; i < k->n; i++) {
    if (k->group[i] != g || k->role[i] == R_ENTER) continue;
    HR_TRY(clone_shared(k, &bd, i));
    if (!in_region(k, i, g)) continue;
    k->b->ops[i]->parent = bd.region;
    bd.region->ops[bd.region->n_ops++] = k->b->ops[i];
  }
  hr_arena *ma = &k->c->imp->m->arena;
  hr_op *ret = HR_ARENA_NEW(ma, hr_op);
  hr_value **values = HR_ARENA_ARRAY(ma, hr_value *, (size_t)bd.n_out + 1);
  if (!ret || !values) return hr_error(HR_OUT_OF_MEMORY, "out of memory building a manual computation");
  for (int i = 0; i < bd.n_out; i++) values[i] = bd.leaves[i]->operands[0];
  const hr_op *last = bd.n_out ? bd.leaves[bd.n_out - 1] : bd.mc;
  *ret = (hr_op){.code = HR_OP_SDY_RETURN, .n_operands = bd.n_out, .operands = values, .parent = bd.region,
                 .loc = last->loc, .debug_loc = last->debug_loc};
  bd.region->ops[bd.region->n_ops++] = ret;
  localize(k->c, bd.region);
  forget_locals(k, g);
  k->at_place[bd.place] = bd.mc;
  return NULL;
}

/* The block's ops without the regions' (and the SHARED ops only the regions read), each manual
 * computation in its place. */
static void replace_ops(block_ctx *k) {
  int kept = 0;
  for (int i = 0; i < k->n; i++) {
    hr_op *op = k->b->ops[i];
    if (k->at_place[i]) k->b->ops[kept++] = k->at_place[i];
    if (k->role[i] == R_OUTSIDE || (k->role[i] == R_SHARED && k->outside[i])) k->b->ops[kept++] = op;
  }
  k->b->n_ops = kept;
}

/* The per-op arrays of the analysis. */
static hr_status alloc_block(block_ctx *k, hr_arena *a) {
  size_t n = (size_t)k->n + 1;
  k->role = HR_ARENA_ARRAY(a, uint8_t, n);
  k->parent = HR_ARENA_ARRAY(a, int, n);
  k->group = HR_ARENA_ARRAY(a, int, n);
  k->first_reader = HR_ARENA_ARRAY(a, int, n);
  k->multi = HR_ARENA_ARRAY(a, bool, n);
  k->outside = HR_ARENA_ARRAY(a, bool, n);
  k->cloned_for = HR_ARENA_ARRAY(a, int, n);
  k->at_place = HR_ARENA_ARRAY(a, hr_op *, n);
  if (!k->role || !k->parent || !k->group || !k->first_reader || !k->multi || !k->outside || !k->cloned_for ||
      !k->at_place)
    return hr_error(HR_OUT_OF_MEMORY, "out of memory finding manual regions");
  return index_reads(k, a);
}

/* The analysis and rewrite of `b`, its temporaries in `a`. */
static hr_status rewrite(block_ctx *k, hr_arena *a) {
  for (int i = 0; i < k->n; i++)
    for (int r = 0; r < k->b->ops[i]->n_results; r++)
      if (k->b->ops[i]->results[r].id < k->c->n_ids) k->c->at[k->b->ops[i]->results[r].id] = i;
  HR_TRY(alloc_block(k, a));
  HR_TRY(assign_roles(k));
  HR_TRY(join_regions(k));
  int n_groups;
  number_groups(k, &n_groups);
  for (int g = 0; g < n_groups; g++) HR_TRY(build_group(k, g, a));
  replace_ops(k);
  return NULL;
}

hr_status hr_gspmd_rewrite_block(hr_gspmd_func *c, hr_block *b, int depth) {
  hr_arena *a = &c->imp->scratch;
  hr_arena_pos mark = hr_arena_mark(a);
  block_ctx k = {.c = c, .b = b, .depth = depth, .n = b->n_ops};
  hr_status s = rewrite(&k, a);
  hr_arena_rewind(a, mark);
  return s;
}

/* hr_sdy_import_round_trip (shardy.h): the form JAX's exports of 2023 to early 2025 (and XLA's HLO
 * round trip) give a Shardy program, rewritten into the native form as a module is read, so that
 * every later stage sees native ops only:
 *  - the module's `mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<...>}"}` becomes
 *    its meshes, and in such a module the parameters' `xla.sdy.sharding` strings become
 *    `sdy.sharding` attributes, the GSPMD `mhlo.sharding` strings beside them going
 *    (sdy_round_trip_attrs.c);
 *  - `custom_call @xla.sdy.GlobalToLocalShape(globals)` -> `call @...xla.sdy.manual_computation_body...
 *    (locals)` -> `custom_call @xla.sdy.LocalToGlobalShape(local results)` becomes one
 *    sdy.manual_computation of the globals whose region is a copy of the body function's body
 *    (its return an sdy.return); its in/out shardings and manual axes come from the strings of
 *    `mhlo.frontend_attributes` (xla.sdy.in_shardings on GlobalToLocalShape, xla.sdy.out_shardings
 *    on LocalToGlobalShape, xla.sdy.manual_axes on either; exports before April 2025 put all three
 *    on the call). A manual computation with no operands (results) has no GlobalToLocalShape
 *    (LocalToGlobalShape); an operand or result with no elements may be a constant instead of the
 *    custom call's, and a call whose results are all such is dropped. Body functions are removed
 *    once copied; each is the body of one call, as XLA's importer requires;
 *  - `custom_call @Sharding` with xla.sdy.sharding becomes sdy.sharding_constraint;
 *    `@xla.sdy.FuncResultSharding` and `@xla.sdy.PropagationBarrier` become their operands and
 *    `@xla.sdy.ShardingGroup` (no results: it only guides propagation) goes away.
 * Bodies are rewritten before they are copied, so nested shard_maps nest. */
#include <string.h>

#include "base/limits.h"
#include "ir/sdy_round_trip_internal.h"

/* The custom calls of the round-trip form. */
typedef enum target {
  T_OTHER,
  T_GLOBAL_TO_LOCAL,  /* xla.sdy.GlobalToLocalShape */
  T_LOCAL_TO_GLOBAL,  /* xla.sdy.LocalToGlobalShape */
  T_SHARDING,         /* Sharding: a sharding constraint */
  T_RESULT_SHARDING,  /* xla.sdy.FuncResultSharding: a function result's sharding */
  T_BARRIER,          /* xla.sdy.PropagationBarrier */
  T_GROUP,            /* xla.sdy.ShardingGroup */
} target;

static const char *const target_names[] = {NULL, "xla.sdy.GlobalToLocalShape", "xla.sdy.LocalToGlobalShape",
                                           "Sharding", "xla.sdy.FuncResultSharding", "xla.sdy.PropagationBarrier",
                                           "xla.sdy.ShardingGroup"};

/* What a body function's name holds (anywhere in it: `@my_model.xla.sdy.manual_computation_body_14.1`). */
static const char body_name[] = "xla.sdy.manual_computation_body";

enum { UNSEEN, ACTIVE, DONE }; /* a function's import state */

/* The import of one module. */
typedef struct importer {
  hr_module *m;
  hr_arena scratch; /* per-function maps, freed when the function is done */
  uint8_t *state;   /* per function of m->funcs */
  bool *inlined;    /* per function: a body copied into a manual computation */
} importer;

/* The import of one function. */
typedef struct func_ctx {
  importer *imp;
  hr_func *f;
  int depth;      /* body functions entered to reach it */
  hr_value **fwd; /* by value id: the value a removed op's result stands for */
  uint32_t n_fwd;
} func_ctx;

/* The round-trip custom call `op` is, or T_OTHER. */
static target target_of(const hr_op *op) {
  const hr_attr *t = op->code == HR_OP_CUSTOM_CALL ? hr_op_attr(op, "call_target_name") : NULL;
  if (!t || t->kind != HR_ATTR_STRING || !t->u.str.data) return T_OTHER;
  for (int i = T_GLOBAL_TO_LOCAL; i <= T_GROUP; i++)
    if (strcmp(t->u.str.data, target_names[i]) == 0) return (target)i;
  return T_OTHER;
}

/* The callee of a func.call of a body function, or NULL. */
static const char *body_callee(const hr_op *op) {
  const hr_attr *c = op->code == HR_OP_FUNC_CALL ? hr_op_attr(op, "callee") : NULL;
  return c && c->kind == HR_ATTR_SYMBOL && c->u.str.data && strstr(c->u.str.data, body_name) ? c->u.str.data : NULL;
}

/* Ops the import removes: what reads their results afterwards reads something else or is an error. */
static bool is_removed(const hr_op *op) {
  target t = target_of(op);
  return (t != T_OTHER && t != T_SHARDING) || body_callee(op);
}

/* Whether `b` or a region in it holds anything of the round-trip form. */
static bool has_round_trip(const hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    const hr_op *op = b->ops[i];
    if (target_of(op) != T_OTHER || body_callee(op)) return true;
    for (int r = 0; r < op->n_regions; r++)
      if (has_round_trip(&op->regions[r])) return true;
  }
  return false;
}

/* A tensor type with a dimension of size 0 (XLA replaces such values with constants). */
static bool is_empty_tensor(const hr_value *v) {
  if (!v || v->type.kind != HR_TYPE_TENSOR) return false;
  for (int d = 0; d < v->type.shape.rank; d++)
    if (v->type.shape.dims[d] == 0) return true;
  return false;
}

/* The frontend attribute `key` of `op`, or NULL. */
static const hr_attr *frontend(const hr_op *op, const char *key) {
  const hr_attr *fa = op ? hr_op_attr(op, "mhlo.frontend_attributes") : NULL;
  return fa && fa->kind == HR_ATTR_DICT ? hr_attr_field(fa, key) : NULL;
}

/* The deepest nesting of regions in `b` (0: none), counted up to `limit`. */
static int region_depth(const hr_block *b, int limit) {
  int most = 0;
  for (int i = 0; i < b->n_ops && most < limit; i++)
    for (int r = 0; r < b->ops[i]->n_regions; r++) {
      int d = 1 + region_depth(&b->ops[i]->regions[r], limit - 1);
      if (d > most) most = d;
    }
  return most;
}

/* ---------------------------------------------------------------------------------------------- */
/* Copying a body into a region                                                                    */
/* ---------------------------------------------------------------------------------------------- */

static hr_status clone_block(hr_sdyrt_cloner *k, const hr_block *src, hr_block *dst, hr_op *parent_op);

/* A new value of `f` with `src`'s type and name, recorded as `src`'s copy. */
static void clone_value(hr_sdyrt_cloner *k, const hr_value *src, hr_value *dst, hr_op *def, hr_block *owner) {
  *dst = (hr_value){src->type, k->f->n_values++, def, owner, src->index, src->name};
  if (src->id < k->n_map) k->map[src->id] = dst;
}

hr_status hr_sdyrt_clone_op(hr_sdyrt_cloner *k, const hr_op *src, hr_block *dst, hr_op **out) {
  hr_arena *a = &k->m->arena;
  hr_op *op = HR_ARENA_NEW(a, hr_op);
  hr_value **operands = HR_ARENA_ARRAY(a, hr_value *, (size_t)src->n_operands + 1);
  hr_value *results = HR_ARENA_ARRAY(a, hr_value, (size_t)src->n_results + 1);
  hr_named_attr *attrs = HR_ARENA_ARRAY(a, hr_named_attr, (size_t)src->n_attrs + 1);
  hr_block *regions = HR_ARENA_ARRAY(a, hr_block, (size_t)src->n_regions + 1);
  if (!op || !operands || !results || !attrs || !regions)
    return hr_error(HR_OUT_OF_MEMORY, "out of memory copying a body");
  *op = *src;
  op->operands = operands;
  op->results = results;
  op->attrs = attrs;
  op->regions = regions;
  op->parent = dst;
  for (int i = 0; i < src->n_operands; i++) {
    const hr_value *v = src->operands[i];
    operands[i] = v && v->id < k->n_map ? k->map[v->id] : NULL;
    if (!operands[i]) return hr_op_error(src, HR_INVALID_ARGUMENT, "operand #%d is read before it is defined", i);
  }
  for (int i = 0; i < src->n_results; i++) clone_value(k, &src->results[i], &results[i], op, NULL);
  if (src->n_attrs) memcpy(attrs, src->attrs, (size_t)src->n_attrs * sizeof *attrs);
  for (int r = 0; r < src->n_regions; r++) HR_TRY(clone_block(k, &src->regions[r], &regions[r], op));
  *out = op;
  return NULL;
}

/* A copy of block `src` as `dst`, a region of `parent_op`. */
static hr_status clone_block(hr_sdyrt_cloner *k, const hr_block *src, hr_block *dst, hr_op *parent_op) {
  hr_value *args = HR_ARENA_ARRAY(&k->m->arena, hr_value, (size_t)src->n_args + 1);
  hr_op **ops = HR_ARENA_ARRAY(&k->m->arena, hr_op *, (size_t)src->n_ops + 1);
  if (!args || !ops) return hr_error(HR_OUT_OF_MEMORY, "out of memory copying a body");
  *dst = (hr_block){src->n_args, args, src->n_ops, ops, parent_op, k->f};
  for (int i = 0; i < src->n_args; i++) clone_value(k, &src->args[i], &args[i], NULL, dst);
  for (int i = 0; i < src->n_ops; i++) HR_TRY(hr_sdyrt_clone_op(k, src->ops[i], dst, &ops[i]));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* A manual computation from its custom calls and body call                                        */
/* ---------------------------------------------------------------------------------------------- */

/* The GlobalToLocalShape giving `call` its operands (NULL when it has none): result k is operand k,
 * except operands with no elements, which may be anything. */
static hr_status find_global_to_local(const func_ctx *c, const hr_op *call, hr_op **out) {
  hr_op *g = NULL;
  *out = NULL;
  for (int k = 0; k < call->n_operands && !g; k++)
    if (call->operands[k] && call->operands[k]->def && call->operands[k]->def->code == HR_OP_CUSTOM_CALL)
      g = call->operands[k]->def;
  if (!call->n_operands) return NULL;
  if (!g || target_of(g) != T_GLOBAL_TO_LOCAL)
    return hr_sdyrt_error(c->imp->m, call, "no operand of the manual computation body call comes from "
                                           "custom_call @xla.sdy.GlobalToLocalShape");
  if (g->n_operands != call->n_operands || g->n_results != call->n_operands)
    return hr_sdyrt_error(c->imp->m, g, "@%s: %d operands and %d results, expected %d of each (the operands of the "
                          "body call)", target_names[T_GLOBAL_TO_LOCAL], g->n_operands, g->n_results, call->n_operands);
  for (int k = 0; k < call->n_operands; k++)
    if (call->operands[k] != &g->results[k] && !is_empty_tensor(call->operands[k]))
      return hr_sdyrt_error(c->imp->m, call, "operand #%d is not result #%d of its xla.sdy.GlobalToLocalShape", k, k);
  *out = g;
  return NULL;
}

/* The LocalToGlobalShape reading the results of `call` (b->ops[at]): the first op after it reading
 * one, operand k result k (except results with no elements); NULL when nothing reads them. */
static hr_status find_local_to_global(const func_ctx *c, const hr_block *b, int at, hr_op **out) {
  const hr_op *call = b->ops[at];
  hr_op *l = NULL;
  *out = NULL;
  for (int i = at + 1; i < b->n_ops && !l; i++)
    for (int k = 0; k < b->ops[i]->n_operands && !l; k++)
      if (b->ops[i]->operands[k] && b->ops[i]->operands[k]->def == call) l = b->ops[i];
  if (!l) return NULL;
  if (target_of(l) != T_LOCAL_TO_GLOBAL)
    return hr_sdyrt_error(c->imp->m, l, "reads a result of a manual computation body call; expected "
                                        "custom_call @xla.sdy.LocalToGlobalShape to read them first");
  if (l->n_operands != call->n_results || l->n_results != call->n_results)
    return hr_sdyrt_error(c->imp->m, l, "@%s: %d operands and %d results, expected %d of each (the results of the "
                          "body call)", target_names[T_LOCAL_TO_GLOBAL], l->n_operands, l->n_results, call->n_results);
  for (int k = 0; k < l->n_operands; k++)
    if (l->operands[k] != &call->results[k] && !is_empty_tensor(l->operands[k]))
      return hr_sdyrt_error(c->imp->m, l, "operand #%d is not result #%d of the body call", k, k);
  *out = l;
  return NULL;
}

/* Attribute `key` of a manual computation: the string `s` (absent: `empty`, allowed only when
 * `required` is false) as an OPAQUE attribute starting with `prefix`. */
static hr_status manual_attr(const func_ctx *c, const hr_op *op, const char *key, const hr_attr *s, const char *prefix,
                             const char *empty, bool required, hr_attr **out) {
  hr_module *m = c->imp->m;
  if (s) return hr_sdyrt_opaque(m, op, key, s, prefix, out);
  if (required) return hr_sdyrt_error(m, op, "no frontend attribute %s", key);
  hr_attr *a = hr_attr_new(m, HR_ATTR_OPAQUE);
  if (!a) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  a->u.str.data = empty;
  a->u.str.len = strlen(empty);
  *out = a;
  return NULL;
}

/* The in_shardings, out_shardings and manual_axes of the manual computation of `call`, read from
 * its custom calls `g` and `l` (either may be NULL) or, in older exports, from the call, checked
 * against its operand and result counts. */
static hr_status manual_attrs(const func_ctx *c, const hr_op *call, const hr_op *g, const hr_op *l,
                              hr_named_attr attrs[3]) {
  static const char in_key[] = "xla.sdy.in_shardings", out_key[] = "xla.sdy.out_shardings",
                    axes_key[] = "xla.sdy.manual_axes", per_value[] = "sdy.sharding_per_value<",
                    no_shardings[] = "sdy.sharding_per_value<[]>";
  /* The op holding each string: the custom calls when either has frontend attributes, else the
   * call (when it holds them); an absent custom call's strings are the call's. */
  bool on_calls = (g && hr_op_attr(g, "mhlo.frontend_attributes")) || (l && hr_op_attr(l, "mhlo.frontend_attributes"));
  bool on_call = !on_calls && frontend(call, axes_key);
  const hr_op *in_op = on_call || !g ? call : g, *out_op = on_call || !l ? call : l;
  const hr_op *axes_op = on_call ? call : g && frontend(g, axes_key) ? g : l ? l : call;
  hr_attr *in, *out, *axes;
  HR_TRY(manual_attr(c, in_op, in_key, frontend(in_op, in_key), per_value, no_shardings, call->n_operands > 0, &in));
  HR_TRY(manual_attr(c, out_op, out_key, frontend(out_op, out_key), per_value, no_shardings, call->n_results > 0, &out));
  HR_TRY(manual_attr(c, axes_op, axes_key, frontend(axes_op, axes_key), "sdy<manual_axes", "sdy<manual_axes{}>", false,
                     &axes));
  hr_module *m = c->imp->m;
  HR_TRY(hr_sdyrt_check_per_value(m, &c->imp->scratch, in_op, in_key, in, call->n_operands));
  HR_TRY(hr_sdyrt_check_per_value(m, &c->imp->scratch, out_op, out_key, out, call->n_results));
  HR_TRY(hr_sdyrt_check_manual_axes(m, axes_op, axes_key, axes));
  attrs[0] = (hr_named_attr){"in_shardings", in};
  attrs[1] = (hr_named_attr){"out_shardings", out};
  attrs[2] = (hr_named_attr){"manual_axes", axes};
  return NULL;
}

/* The function called `name` and its index in the module, or an error naming `call`. */
static hr_status find_body(const func_ctx *c, const hr_op *call, const char *name, int *index) {
  const hr_module *m = c->imp->m;
  for (int i = 0; i < m->n_funcs; i++)
    if (m->funcs[i]->name && strcmp(m->funcs[i]->name, name) == 0) {
      *index = i;
      if (m->funcs[i]->is_declaration) return hr_sdyrt_error(c->imp->m, call, "body function @%s has no body", name);
      if (c->imp->inlined[i])
        return hr_sdyrt_error(c->imp->m, call, "@%s is already the body of another manual computation (each needs "
                                               "its own body function)", name);
      return NULL;
    }
  return hr_sdyrt_error(c->imp->m, call, "calls @%s, which is not in the module", name);
}

/* Checks that body function `body` fits `call`: its parameters and results one per operand and
 * result, its body ending with a return of its results. */
static hr_status check_body(const func_ctx *c, const hr_op *call, const hr_func *body) {
  const hr_block *b = &body->body;
  const hr_op *ret = b->n_ops ? b->ops[b->n_ops - 1] : NULL;
  if (body->n_args != call->n_operands || body->n_results != call->n_results)
    return hr_sdyrt_error(c->imp->m, call, "@%s takes %d values and returns %d; the call passes %d and takes %d",
                          body->name, body->n_args, body->n_results, call->n_operands, call->n_results);
  if (!ret || ret->code != HR_OP_FUNC_RETURN || ret->n_operands != body->n_results)
    return hr_sdyrt_error(c->imp->m, call, "the body of @%s does not end with a return of its %d results", body->name,
                          body->n_results);
  return NULL;
}

static hr_status import_func(importer *imp, int index, int depth);

/* The sdy.manual_computation replacing body call b->ops[at] (of nesting level `level` in its
 * function), or NULL *out when nothing reads the call's results (all of them have no elements)
 * and it just goes. Its LocalToGlobalShape's results now stand for the manual computation's. */
static hr_status rewrite_call(func_ctx *c, hr_block *b, int at, int level, hr_op **out) {
  hr_module *m = c->imp->m;
  hr_op *call = b->ops[at];
  int bi = -1;
  HR_TRY(find_body(c, call, body_callee(call), &bi));
  HR_TRY(import_func(c->imp, bi, c->depth + 1));
  const hr_func *body = m->funcs[bi];
  HR_TRY(check_body(c, call, body));
  hr_op *g = NULL, *l = NULL;
  HR_TRY(find_global_to_local(c, call, &g));
  HR_TRY(find_local_to_global(c, b, at, &l));
  *out = NULL;
  c->imp->inlined[bi] = true;
  if (call->n_results && !l) return NULL;
  if (level + 1 + region_depth(&body->body, HR_LIMIT_NESTING_DEPTH) > HR_LIMIT_NESTING_DEPTH)
    return hr_sdyrt_error(m, call, "the manual computation would nest regions deeper than %d", HR_LIMIT_NESTING_DEPTH);

  hr_op *mc = HR_ARENA_NEW(&m->arena, hr_op);
  hr_named_attr *attrs = HR_ARENA_ARRAY(&m->arena, hr_named_attr, 3);
  hr_value *results = HR_ARENA_ARRAY(&m->arena, hr_value, (size_t)call->n_results + 1);
  hr_block *region = HR_ARENA_NEW(&m->arena, hr_block);
  hr_value **operands = HR_ARENA_ARRAY(&m->arena, hr_value *, (size_t)call->n_operands + 1);
  hr_value **map = HR_ARENA_ARRAY(&c->imp->scratch, hr_value *, (size_t)body->n_values + 1);
  if (!mc || !attrs || !results || !region || !operands || !map) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  HR_TRY(manual_attrs(c, call, g, l, attrs));
  if (g) memcpy(operands, g->operands, (size_t)call->n_operands * sizeof *operands);
  *mc = (hr_op){.code = HR_OP_SDY_MANUAL_COMPUTATION, .n_operands = call->n_operands,
                .operands = operands, .n_results = call->n_results, .results = results,
                .n_attrs = 3, .attrs = attrs, .n_regions = 1, .regions = region, .parent = b, .loc = call->loc,
                .debug_loc = call->debug_loc};
  for (int k = 0; k < call->n_results; k++) {
    results[k] = (hr_value){l->results[k].type, c->f->n_values++, mc, NULL, (uint32_t)k, NULL};
    if (l->results[k].id < c->n_fwd) c->fwd[l->results[k].id] = &results[k];
  }
  hr_sdyrt_cloner k = {m, c->f, map, body->n_values};
  HR_TRY(clone_block(&k, &body->body, region, mc));
  region->ops[region->n_ops - 1]->code = HR_OP_SDY_RETURN;
  *out = mc;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Functions                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* `v`, or what it stands for when a removed op defined it. */
static hr_value *forwarded(const func_ctx *c, hr_value *v) {
  return v && v->id < c->n_fwd && c->fwd[v->id] ? c->fwd[v->id] : v;
}

/* Removes the identity custom call `op`: its results stand for its operands. */
static hr_status forward_identity(func_ctx *c, const hr_op *op) {
  if (op->n_operands != op->n_results)
    return hr_sdyrt_error(c->imp->m, op, "@%s: %d operands and %d results, expected as many results as operands",
                          target_names[target_of(op)], op->n_operands, op->n_results);
  for (int k = 0; k < op->n_results; k++)
    if (op->results[k].id < c->n_fwd) c->fwd[op->results[k].id] = forwarded(c, op->operands[k]);
  return NULL;
}

/* custom_call @Sharding with xla.sdy.sharding (one sharding per value) as sdy.sharding_constraint;
 * one without it (a GSPMD sharding) stays as it is. */
static hr_status to_sharding_constraint(func_ctx *c, hr_op *op) {
  static const char key[] = "xla.sdy.sharding", prefix[] = "sdy.sharding_per_value<";
  const hr_attr *s = frontend(op, key);
  if (!s) return NULL;
  hr_module *m = c->imp->m;
  if (op->n_operands != 1 || op->n_results != 1)
    return hr_sdyrt_error(m, op, "@Sharding: %d operands and %d results, expected one of each", op->n_operands,
                          op->n_results);
  hr_attr *per_value, *sharding = hr_attr_new(m, HR_ATTR_OPAQUE);
  hr_named_attr *attrs = HR_ARENA_NEW(&m->arena, hr_named_attr);
  if (!sharding || !attrs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  HR_TRY(hr_sdyrt_opaque(m, op, key, s, prefix, &per_value));
  HR_TRY(hr_sdyrt_check_per_value(m, &c->imp->scratch, op, key, per_value, 1));
  /* `sdy.sharding_per_value<[<...>]>`, checked above: the one sharding is between '[' and ']'. */
  const char *text = per_value->u.str.data;
  const char *open = strchr(text, '<'), *close = strrchr(text, '>');
  while (*++open != '<') continue;
  while (*--close != '>') continue;
  char *body = hr_arena_alloc(&m->arena, sizeof "sdy.sharding" + (size_t)(close - open + 1), 1);
  if (!body) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  memcpy(body, "sdy.sharding", sizeof "sdy.sharding" - 1);
  memcpy(body + sizeof "sdy.sharding" - 1, open, (size_t)(close - open + 1));
  body[sizeof "sdy.sharding" - 1 + (size_t)(close - open + 1)] = '\0';
  sharding->u.str.data = body;
  sharding->u.str.len = strlen(body);
  *attrs = (hr_named_attr){"sharding", sharding};
  op->code = HR_OP_SDY_SHARDING_CONSTRAINT;
  op->attrs = attrs;
  op->n_attrs = 1;
  return NULL;
}

/* Rewrites op b->ops[at] (nesting level `level`): *keep false when it goes, *op_out its
 * replacement. */
static hr_status import_op(func_ctx *c, hr_block *b, int at, int level, hr_op **op_out, bool *keep) {
  hr_op *op = b->ops[at];
  *keep = true;
  switch (target_of(op)) {
    case T_GLOBAL_TO_LOCAL: /* read by the body calls, which replace them */
    case T_LOCAL_TO_GLOBAL: *keep = false; return NULL;
    case T_SHARDING: return to_sharding_constraint(c, op);
    case T_RESULT_SHARDING:
    case T_BARRIER: *keep = false; return forward_identity(c, op);
    case T_GROUP:
      *keep = false;
      return op->n_results ? hr_sdyrt_error(c->imp->m, op, "@%s: %d results, expected none", target_names[T_GROUP],
                                            op->n_results)
                           : NULL;
    case T_OTHER: break;
  }
  if (!body_callee(op)) return NULL;
  HR_TRY(rewrite_call(c, b, at, level, op_out));
  *keep = *op_out != NULL;
  return NULL;
}

/* Rewrites the ops of `b` (nesting level `level`) and of the regions in them. */
static hr_status import_block(func_ctx *c, hr_block *b, int level) {
  int kept = 0;
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int r = 0; r < op->n_regions; r++) HR_TRY(import_block(c, &op->regions[r], level + 1));
    bool keep = true;
    HR_TRY(import_op(c, b, i, level, &op, &keep));
    if (keep) b->ops[kept++] = op;
  }
  b->n_ops = kept;
  return NULL;
}

/* Points every operand in `b` at what it stands for; one still reading a removed op's result (a
 * GlobalToLocalShape read by something else than a body call, a body call's result read by
 * something else than its LocalToGlobalShape) is an error. */
static hr_status forward_operands(const func_ctx *c, hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int k = 0; k < op->n_operands; k++) {
      hr_value *v = forwarded(c, op->operands[k]);
      if (v && v->def && is_removed(v->def))
        return hr_sdyrt_error(c->imp->m, op, "operand #%d reads a result of %s %s, which only manual computations "
                                             "may read", k, hr_opcode_name(v->def->code),
                              v->def->code == HR_OP_FUNC_CALL ? body_name : target_names[target_of(v->def)]);
      op->operands[k] = v;
    }
    for (int r = 0; r < op->n_regions; r++) HR_TRY(forward_operands(c, &op->regions[r]));
  }
  return NULL;
}

/* Imports function m->funcs[index], reached through `depth` body functions; the body functions it
 * calls are imported first. */
static hr_status import_func(importer *imp, int index, int depth) {
  hr_func *f = imp->m->funcs[index];
  if (imp->state[index] == DONE) return NULL;
  if (imp->state[index] == ACTIVE)
    return hr_sdyrt_error(imp->m, NULL, "function @%s is its own manual computation body", f->name);
  if (depth > HR_LIMIT_NESTING_DEPTH)
    return hr_sdyrt_error(imp->m, NULL, "manual computation bodies nest deeper than %d", HR_LIMIT_NESTING_DEPTH);
  imp->state[index] = ACTIVE;
  if (!f->is_declaration && has_round_trip(&f->body)) {
    hr_arena_pos mark = hr_arena_mark(&imp->scratch);
    func_ctx c = {imp, f, depth, HR_ARENA_ARRAY(&imp->scratch, hr_value *, (size_t)f->n_values + 1), f->n_values};
    if (!c.fwd) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
    HR_TRY(import_block(&c, &f->body, 0));
    HR_TRY(forward_operands(&c, &f->body));
    hr_arena_rewind(&imp->scratch, mark);
  }
  imp->state[index] = DONE;
  return NULL;
}

/* Imports every function, then removes the body functions copied into manual computations. */
static hr_status import_funcs(importer *imp) {
  hr_module *m = imp->m;
  imp->state = HR_ARENA_ARRAY(&imp->scratch, uint8_t, (size_t)m->n_funcs + 1);
  imp->inlined = HR_ARENA_ARRAY(&imp->scratch, bool, (size_t)m->n_funcs + 1);
  if (!imp->state || !imp->inlined) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < m->n_funcs; i++) HR_TRY(import_func(imp, i, 0));
  int kept = 0;
  for (int i = 0; i < m->n_funcs; i++)
    if (!imp->inlined[i]) m->funcs[kept++] = m->funcs[i];
  m->n_funcs = kept;
  return NULL;
}

hr_status hr_sdy_import_round_trip(hr_module *m) {
  bool round_trip = false;
  HR_TRY(hr_sdyrt_import_meshes(m, &round_trip));
  if (round_trip) HR_TRY(hr_sdyrt_import_func_shardings(m));
  importer imp = {.m = m};
  hr_arena_init(&imp.scratch, m->arena.allocator);
  hr_status s = import_funcs(&imp);
  hr_arena_release(&imp.scratch);
  return s;
}

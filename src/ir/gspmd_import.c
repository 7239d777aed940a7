/* hr_gspmd_import (shardy.h): the form JAX's exports made before Shardy (2023 to ~2025, XLA's GSPMD
 * partitioner, and every jax2tf SavedModel of that time) give shard_map and with_sharding_constraint,
 * rewritten into the native Shardy ops as a module is read:
 *   %s = custom_call @Sharding(%x) {mhlo.sharding = "{devices=[2,1]0,1}"}      the global sharding
 *   %l = custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = "{manual}"}    enter: a device's piece
 *   ... body ops on the pieces (collectives, partition_id, a call of the body) ...
 *   %m = custom_call @Sharding(%r) {mhlo.sharding = "{manual}"}
 *   %g = custom_call @SPMDShardToFullShape(%m) {mhlo.sharding = "{devices=[2,1]0,1}"}   leave
 *  - every @Sharding custom call becomes its operand (a constraint does not change values, and
 *    hlorun computes global values on every device); `mhlo.sharding` elsewhere stays;
 *  - each manual region becomes one sdy.manual_computation: its operands the global values entering
 *    through SPMDFullToShardShape (in_shardings from the @Sharding feeding each), its results the
 *    values leaving through SPMDShardToFullShape (out_shardings from their mhlo.sharding), its
 *    body the ops between, moved in: those reading a piece or a body value, and those the leaving
 *    values are computed from, back to the pieces. A constant-like op (no operands, no regions) the
 *    body reads is moved in too, or cloned in when outside code or another region reads it. The
 *    custom calls of one shard_map are grouped by the body ops joining them; independent regions
 *    become separate manual computations;
 *  - the module gets one mesh `@mesh` of mhlo.num_partitions devices (set from the shardings when
 *    absent) whose axes are the count's prime factors, ordered so that every in/out sharding is
 *    expressed by axes (gspmd_sharding.c); every axis is manual.
 * Refused, naming the op (and the sharding string): a sharding with no such form (a device order
 * no row-major mesh gives, {maximal}, partly manual ones), a nested manual region, pieces that are
 * not the global shape over the tiles, a body reading any other value from outside its region or
 * outside code reading a body value. Errors leave the module to be freed by the reader. */
#include <string.h>

#include "base/limits.h"
#include "ir/gspmd_internal.h"
#include "ir/sdy_round_trip_internal.h"

static const char *const target_names[] = {NULL, "Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"};
static const char sharding_key[] = "mhlo.sharding";
static const char mesh_name[] = "mesh";

hr_gspmd_target hr_gspmd_target_of(const hr_op *op) {
  const hr_attr *t = op->code == HR_OP_CUSTOM_CALL ? hr_op_attr(op, "call_target_name") : NULL;
  if (!t || t->kind != HR_ATTR_STRING || !t->u.str.data) return HR_GSPMD_OTHER;
  for (int i = HR_GSPMD_SHARDING; i <= HR_GSPMD_SHARD_TO_FULL; i++)
    if (strcmp(t->u.str.data, target_names[i]) == 0) return (hr_gspmd_target)i;
  return HR_GSPMD_OTHER;
}

const char *hr_gspmd_target_name(hr_gspmd_target t) { return target_names[t]; }

/* Whether `b` or a region in it holds a custom call of the GSPMD form. */
static bool has_gspmd(const hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    if (hr_gspmd_target_of(b->ops[i]) != HR_GSPMD_OTHER) return true;
    for (int r = 0; r < b->ops[i]->n_regions; r++)
      if (has_gspmd(&b->ops[i]->regions[r])) return true;
  }
  return false;
}

/* Reads the mhlo.sharding of `op`, counting its devices against HR_LIMIT_GSPMD_EXPANDED. The
 * device list lives until the scratch arena is rewound. */
static hr_status read_sharding(hr_gspmd_importer *imp, const hr_op *op, hr_gspmd_sharding *s) {
  HR_TRY(hr_gspmd_read(imp->m, &imp->scratch, op, sharding_key, s));
  imp->expanded += s->n_devices;
  if (imp->expanded > HR_LIMIT_GSPMD_EXPANDED)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d device list entries in the GSPMD shardings",
                    imp->m->filename ? imp->m->filename : "<input>", HR_LIMIT_GSPMD_EXPANDED);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The custom calls entering and leaving manual regions, checked; the mesh                        */
/* ---------------------------------------------------------------------------------------------- */

/* The op holding the global sharding of a value entering or leaving a manual region through `op`:
 * the @Sharding feeding a SPMDFullToShardShape (read before the @Sharding ops are removed), the
 * SPMDShardToFullShape itself. */
static hr_status global_holder(const hr_gspmd_importer *imp, const hr_op *op, const hr_op **out) {
  if (op->n_operands != 1 || op->n_results != 1 || !op->operands[0])
    return hr_sdyrt_error(imp->m, op, "@%s: %d operands and %d results, expected one of each",
                          target_names[hr_gspmd_target_of(op)], op->n_operands, op->n_results);
  *out = op;
  if (hr_gspmd_target_of(op) == HR_GSPMD_SHARD_TO_FULL) return NULL;
  *out = op->operands[0]->def;
  if (!*out || hr_gspmd_target_of(*out) != HR_GSPMD_SHARDING)
    return hr_sdyrt_error(imp->m, op, "the operand of @%s is not given its sharding by custom_call @Sharding",
                          target_names[HR_GSPMD_FULL_TO_SHARD]);
  return NULL;
}

/* Reads the global sharding of a value entering or leaving through `op` (the custom call's own
 * sharding must be {manual} when it enters), refusing a manual one (a nested region). */
static hr_status global_sharding(hr_gspmd_importer *imp, const hr_op *op, hr_gspmd_sharding *s) {
  const hr_op *holder = NULL;
  HR_TRY(global_holder(imp, op, &holder));
  if (holder != op) {
    HR_TRY(read_sharding(imp, op, s));
    if (s->kind != HR_GSPMD_MANUAL)
      return hr_sdyrt_error(imp->m, op, "@%s: %s is not \"{manual}\"", target_names[HR_GSPMD_FULL_TO_SHARD],
                            sharding_key);
  }
  HR_TRY(read_sharding(imp, holder, s));
  if (s->kind == HR_GSPMD_MANUAL)
    return hr_sdyrt_error(imp->m, op, "a manual region inside another (a nested shard_map) is not supported");
  return NULL;
}

/* The device count of the module's manual computations: its mhlo.num_partitions, else the first
 * tiled sharding's (1 when there is none). */
static hr_status find_device_count(hr_gspmd_importer *imp, hr_op *const *sites, int n_sites) {
  const hr_attr *a = imp->m->attrs ? hr_attr_field(imp->m->attrs, "mhlo.num_partitions") : NULL;
  imp->n_devices = 1;
  if (a) {
    if (a->kind != HR_ATTR_INT || a->u.i.value < 1 || a->u.i.value > HR_LIMIT_GSPMD_DEVICES)
      return hr_sdyrt_error(imp->m, NULL, "mhlo.num_partitions is no device count from 1 to %d",
                            HR_LIMIT_GSPMD_DEVICES);
    imp->n_devices = a->u.i.value;
    return NULL;
  }
  for (int i = 0; i < n_sites; i++) {
    hr_arena_pos mark = hr_arena_mark(&imp->scratch);
    hr_gspmd_sharding s;
    HR_TRY(global_sharding(imp, sites[i], &s));
    hr_arena_rewind(&imp->scratch, mark);
    if (s.kind == HR_GSPMD_TILED) {
      imp->n_devices = s.n_devices;
      return NULL;
    }
  }
  return NULL;
}

/* Checks the custom call `op` entering or leaving a manual region: its shardings, and the pieces'
 * shape against the global one. */
static hr_status check_site(hr_gspmd_importer *imp, const hr_op *op) {
  hr_arena_pos mark = hr_arena_mark(&imp->scratch);
  hr_gspmd_sharding s;
  const hr_op *holder = NULL;
  HR_TRY(global_sharding(imp, op, &s));
  HR_TRY(global_holder(imp, op, &holder));
  bool enters = holder != op;
  const hr_type *global = enters ? &op->operands[0]->type : &op->results[0].type;
  const hr_type *local = enters ? &op->results[0].type : &op->operands[0]->type;
  HR_TRY(hr_gspmd_check_shapes(imp->m, holder, sharding_key, &s, global, local, imp->n_devices));
  hr_arena_rewind(&imp->scratch, mark);
  return NULL;
}

/* Whether the global sharding through every site is expressed on `mesh` (*failed: the first that
 * is not, when it is given). */
static hr_status fits_all(hr_gspmd_importer *imp, hr_op *const *sites, int n_sites, const hr_gspmd_mesh *mesh,
                          bool *fits, const hr_op **failed) {
  *fits = true;
  for (int i = 0; i < n_sites && *fits; i++) {
    hr_arena_pos mark = hr_arena_mark(&imp->scratch);
    hr_gspmd_sharding s;
    HR_TRY(global_sharding(imp, sites[i], &s));
    *fits = s.kind != HR_GSPMD_TILED || hr_gspmd_fit(mesh, &s, imp->seen, NULL);
    if (!*fits && failed) *failed = sites[i];
    hr_arena_rewind(&imp->scratch, mark);
  }
  return NULL;
}

/* The error for shardings no tried mesh expresses: naming the first that none does, or the
 * module when each fits some mesh but no mesh fits all. */
static hr_status no_mesh_error(hr_gspmd_importer *imp, hr_op *const *sites, int n_sites) {
  for (int i = 0; i < n_sites; i++) {
    bool fits = false;
    hr_gspmd_mesh mesh;
    for (int order = 0; !fits && order < HR_LIMIT_GSPMD_MESH_TRIES && hr_gspmd_mesh_order(imp->n_devices, order, &mesh);
         order++)
      HR_TRY(fits_all(imp, &sites[i], 1, &mesh, &fits, NULL));
    const hr_op *holder;
    HR_TRY(global_holder(imp, sites[i], &holder));
    const hr_attr *a = hr_op_attr(holder, sharding_key);
    if (!fits)
      return hr_sdyrt_error(imp->m, holder, "%s \"%s\": no mesh of devices 0..%lld in row-major order expresses its "
                            "device order", sharding_key, a->u.str.data, (long long)imp->n_devices - 1);
  }
  return hr_sdyrt_error(imp->m, NULL, "no one mesh of %lld devices expresses every sharding of the manual regions",
                        (long long)imp->n_devices);
}

/* Chooses the mesh: the first order of the device count's prime factors expressing every site. */
static hr_status choose_mesh(hr_gspmd_importer *imp, hr_op *const *sites, int n_sites) {
  imp->seen = HR_ARENA_ARRAY(&imp->scratch, bool, (size_t)imp->n_devices);
  if (!imp->seen) return hr_error(HR_OUT_OF_MEMORY, "out of memory choosing a mesh");
  for (int order = 0; order < HR_LIMIT_GSPMD_MESH_TRIES && hr_gspmd_mesh_order(imp->n_devices, order, &imp->mesh);
       order++) {
    bool fits;
    HR_TRY(fits_all(imp, sites, n_sites, &imp->mesh, &fits, NULL));
    if (fits) return NULL;
  }
  return no_mesh_error(imp, sites, n_sites);
}

/* Appends to sites (counts when NULL) the custom calls entering and leaving manual regions in `b`. */
static void find_sites(hr_block *b, hr_op **sites, int *n) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_gspmd_target t = hr_gspmd_target_of(b->ops[i]);
    if (t == HR_GSPMD_FULL_TO_SHARD || t == HR_GSPMD_SHARD_TO_FULL) {
      if (sites) sites[*n] = b->ops[i];
      (*n)++;
    }
    for (int r = 0; r < b->ops[i]->n_regions; r++) find_sites(&b->ops[i]->regions[r], sites, n);
  }
}

/* Adds the mesh to the module, and its device count as mhlo.num_partitions when it has none. */
static hr_status add_mesh(hr_gspmd_importer *imp) {
  hr_module *m = imp->m;
  for (int i = 0; i < m->n_meshes; i++)
    if (strcmp(m->meshes[i].name, mesh_name) == 0)
      return hr_sdyrt_error(m, NULL, "a mesh called @%s already exists; the GSPMD form's mesh takes that name",
                            mesh_name);
  hr_strbuf sb;
  hr_strbuf_init(&sb, m->arena.allocator);
  hr_gspmd_print_mesh(&sb, &imp->mesh);
  hr_mesh *meshes = HR_ARENA_ARRAY(&m->arena, hr_mesh, (size_t)m->n_meshes + 1);
  hr_attr *a = hr_attr_new(m, HR_ATTR_OPAQUE);
  char *text = sb.failed ? NULL : hr_arena_strndup(&m->arena, sb.data, sb.len);
  size_t len = sb.len;
  hr_strbuf_free(&sb);
  if (!meshes || !a || !text) return hr_error(HR_OUT_OF_MEMORY, "out of memory adding a mesh");
  a->u.str.data = text;
  a->u.str.len = len;
  if (m->n_meshes) memcpy(meshes, m->meshes, (size_t)m->n_meshes * sizeof *meshes);
  meshes[m->n_meshes] = (hr_mesh){mesh_name, a};
  m->meshes = meshes;
  m->n_meshes++;
  if (m->attrs && hr_attr_field(m->attrs, "mhlo.num_partitions")) return NULL;
  hr_attr *count = hr_attr_new(m, HR_ATTR_INT);
  if (!count) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  count->u.i.value = imp->n_devices;
  count->u.i.dtype = HR_I32;
  return hr_sdyrt_dict_set(m, m->attrs, "mhlo.num_partitions", count, &m->attrs);
}

/* Checks every custom call entering or leaving a manual region and chooses the mesh (added to the
 * module when there is any such call). */
static hr_status prepare(hr_gspmd_importer *imp) {
  int n = 0;
  for (int f = 0; f < imp->m->n_funcs; f++) find_sites(&imp->m->funcs[f]->body, NULL, &n);
  if (!n) return NULL;
  hr_op **sites = HR_ARENA_ARRAY(&imp->scratch, hr_op *, (size_t)n);
  if (!sites) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  n = 0;
  for (int f = 0; f < imp->m->n_funcs; f++) find_sites(&imp->m->funcs[f]->body, sites, &n);
  HR_TRY(find_device_count(imp, sites, n));
  for (int i = 0; i < n; i++) HR_TRY(check_site(imp, sites[i]));
  HR_TRY(choose_mesh(imp, sites, n));
  return add_mesh(imp);
}

hr_status hr_gspmd_site_sharding(hr_gspmd_func *c, const hr_op *site, hr_strbuf *sb) {
  hr_gspmd_importer *imp = c->imp;
  bool enters = hr_gspmd_target_of(site) == HR_GSPMD_FULL_TO_SHARD;
  const hr_op *holder = enters ? c->holder[site->results[0].id] : site;
  const hr_type *global = enters ? &site->operands[0]->type : &site->results[0].type;
  hr_arena_pos mark = hr_arena_mark(&imp->scratch);
  hr_gspmd_sharding s;
  hr_gspmd_axes axes = {.rank = global->shape.rank};
  hr_status st = read_sharding(imp, holder, &s);
  /* The shardings were checked and fitted to the mesh before (prepare). */
  if (!st && s.kind == HR_GSPMD_TILED && !hr_gspmd_fit(&imp->mesh, &s, imp->seen, &axes))
    st = hr_sdyrt_error(imp->m, holder, "%s does not fit the mesh", sharding_key);
  hr_arena_rewind(&imp->scratch, mark);
  if (!st) hr_gspmd_print_sharding(sb, mesh_name, &axes);
  return st;
}

/* ---------------------------------------------------------------------------------------------- */
/* Functions                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* `v`, or what it stands for when a removed op defined it. */
static hr_value *forwarded(const hr_gspmd_func *c, hr_value *v) {
  return v && v->id < c->n_ids && c->fwd[v->id] ? c->fwd[v->id] : v;
}

/* Records which block defines each value of `b` (and of the regions in it) and the @Sharding
 * feeding each SPMDFullToShardShape, and removes the @Sharding ops: their results stand for their
 * operands. */
static hr_status drop_sharding_ops(hr_gspmd_func *c, hr_block *b) {
  for (int i = 0; i < b->n_args; i++)
    if (b->args[i].id < c->n_ids) c->owner[b->args[i].id] = b;
  int kept = 0;
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int r = 0; r < op->n_regions; r++) HR_TRY(drop_sharding_ops(c, &op->regions[r]));
    for (int r = 0; r < op->n_results; r++)
      if (op->results[r].id < c->n_ids) c->owner[op->results[r].id] = b;
    hr_gspmd_target t = hr_gspmd_target_of(op);
    if (t == HR_GSPMD_FULL_TO_SHARD && op->n_results == 1 && op->results[0].id < c->n_ids && op->n_operands == 1 &&
        op->operands[0])
      c->holder[op->results[0].id] = op->operands[0]->def;
    if (t != HR_GSPMD_SHARDING) {
      b->ops[kept++] = op;
      continue;
    }
    if (op->n_operands != 1 || op->n_results != 1)
      return hr_sdyrt_error(c->imp->m, op, "@%s: %d operands and %d results, expected one of each",
                            hr_gspmd_target_name(t), op->n_operands, op->n_results);
    if (op->results[0].id < c->n_ids) c->fwd[op->results[0].id] = forwarded(c, op->operands[0]);
  }
  b->n_ops = kept;
  return NULL;
}

/* Points every operand in `b` (and in the regions in it) at what it stands for. */
static void forward_operands(const hr_gspmd_func *c, hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int k = 0; k < op->n_operands; k++) op->operands[k] = forwarded(c, op->operands[k]);
    for (int r = 0; r < op->n_regions; r++) forward_operands(c, &op->regions[r]);
  }
}

/* Whether one of the ops of `b` itself enters or leaves a manual region. */
static bool has_sites(const hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_gspmd_target t = hr_gspmd_target_of(b->ops[i]);
    if (t == HR_GSPMD_FULL_TO_SHARD || t == HR_GSPMD_SHARD_TO_FULL) return true;
  }
  return false;
}

/* Rewrites the manual regions of `b` (at nesting `depth`) and of the regions in it, inner ones
 * first. */
static hr_status rewrite_blocks(hr_gspmd_func *c, hr_block *b, int depth) {
  if (depth > HR_LIMIT_NESTING_DEPTH)
    return hr_sdyrt_error(c->imp->m, NULL, "regions nest deeper than %d", HR_LIMIT_NESTING_DEPTH);
  c->ancestors[depth] = b;
  for (int i = 0; i < b->n_ops; i++)
    for (int r = 0; r < b->ops[i]->n_regions; r++)
      if (has_gspmd(&b->ops[i]->regions[r])) HR_TRY(rewrite_blocks(c, &b->ops[i]->regions[r], depth + 1));
  return has_sites(b) ? hr_gspmd_rewrite_block(c, b, depth) : NULL;
}

/* Imports function `f`. */
static hr_status import_func(hr_gspmd_importer *imp, hr_func *f) {
  if (f->is_declaration || !has_gspmd(&f->body)) return NULL;
  hr_arena *a = &imp->scratch;
  hr_arena_pos mark = hr_arena_mark(a);
  size_t n = (size_t)f->n_values + 1;
  hr_gspmd_func c = {imp, f, f->n_values, HR_ARENA_ARRAY(a, hr_value *, n), HR_ARENA_ARRAY(a, const hr_op *, n),
                     HR_ARENA_ARRAY(a, const hr_block *, n), HR_ARENA_ARRAY(a, int32_t, n),
                     HR_ARENA_ARRAY(a, hr_value *, n), HR_ARENA_ARRAY(a, const hr_block *, HR_LIMIT_NESTING_DEPTH + 2)};
  if (!c.fwd || !c.holder || !c.owner || !c.at || !c.local || !c.ancestors)
    return hr_error(HR_OUT_OF_MEMORY, "out of memory importing @%s", f->name);
  HR_TRY(drop_sharding_ops(&c, &f->body));
  forward_operands(&c, &f->body);
  HR_TRY(rewrite_blocks(&c, &f->body, 0));
  forward_operands(&c, &f->body);
  hr_arena_rewind(a, mark);
  return NULL;
}

/* The import, its temporaries in imp->scratch. */
static hr_status import_module(hr_gspmd_importer *imp) {
  HR_TRY(prepare(imp));
  for (int f = 0; f < imp->m->n_funcs; f++) HR_TRY(import_func(imp, imp->m->funcs[f]));
  return NULL;
}

hr_status hr_gspmd_import(hr_module *m) {
  bool any = false;
  for (int f = 0; f < m->n_funcs && !any; f++)
    any = !m->funcs[f]->is_declaration && has_gspmd(&m->funcs[f]->body);
  if (!any) return NULL;
  hr_gspmd_importer imp = {.m = m};
  hr_arena_init(&imp.scratch, m->arena.allocator);
  hr_status s = import_module(&imp);
  hr_arena_release(&imp.scratch);
  return s;
}

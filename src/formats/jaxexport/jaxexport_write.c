/* The jax.export writer: an hr_jaxexport serialized as JAX's serializer lays it out (serialization.py
 * _serialize_exported): the v10 deduplicated tables (unique_avals, unique_abstract_meshes,
 * unique_named_shardings and the *_idxs into them) and, as JAX still writes them for older readers,
 * the inline in_avals/out_avals and in_shardings/out_shardings. The device count goes in both its
 * 32-bit field and the deprecated 16-bit one, so JAX releases from before 11/2025 read it too; the
 * calling convention version is the one described (9 for modules: every jax since 0.4.24 accepts
 * it). jax_version is left out: hlorun is not JAX. And hr_jaxexport_describe_module makes the
 * description JAX would of a module's @main called with positional arrays. */
#include <stdio.h>
#include <string.h>

#include "formats/jaxexport/flatbuf_write.h"
#include "formats/jaxexport/jaxexport_internal.h"
#include "ir/ir.h"

/* The serialization version written: v10's tables, v11 when a mesh names its device platform. */
enum { WRITE_VERSION = 10, WRITE_VERSION_PLATFORM = 11 };

/* ---------------------------------------------------------------------------------------------- */
/* Sub-tables                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* A vector of strings. */
static hr_fbw_ref strings(hr_fbw *b, const char *const *s, int n) {
  hr_fbw_ref *r = hr_fbw_alloc_refs(b, (size_t)n);
  for (int i = 0; r && i < n; i++) r[i] = hr_fbw_cstring(b, s[i]);
  hr_fbw_ref v = r ? hr_fbw_refs(b, r, (size_t)n) : 0;
  hr_fbw_free_refs(b, r);
  return v;
}

static hr_fbw_ref aval(hr_fbw *b, const hr_jaxexport_aval *v) {
  const char *dims[HR_LIMIT_JAXEXPORT_RANK];
  for (int i = 0; i < v->rank && i < HR_LIMIT_JAXEXPORT_RANK; i++) dims[i] = v->dims[i].text;
  hr_fbw_ref shape = strings(b, dims, v->rank < HR_LIMIT_JAXEXPORT_RANK ? v->rank : HR_LIMIT_JAXEXPORT_RANK);
  hr_fbw_table_begin(b);
  hr_fbw_add_u8(b, AVAL_KIND, (uint8_t)v->kind, 0);
  hr_fbw_add_ref(b, AVAL_SHAPE, shape);
  hr_fbw_add_u8(b, AVAL_DTYPE, (uint8_t)v->jax_dtype, 0);
  hr_fbw_add_u8(b, AVAL_MEMORY_SPACE, (uint8_t)v->memory_space, 0);
  return hr_fbw_table_end(b);
}

/* A pytree, children first (as deep as the reader lets a read one be). */
static hr_fbw_ref pytree(hr_fbw *b, const hr_jaxexport_pytree *t, int depth) {
  if (depth > HR_LIMIT_FB_DEPTH) {
    hr_fbw_fail(b, hr_error(HR_RESOURCE_EXHAUSTED, "jax.export writer: a pytree nested over %d deep", HR_LIMIT_FB_DEPTH));
    return 0;
  }
  hr_fbw_ref children = 0, names = 0, custom = 0, aux = 0;
  if (t->num_children) {
    hr_fbw_ref *r = hr_fbw_alloc_refs(b, (size_t)t->num_children);
    for (int i = 0; r && i < t->num_children; i++) r[i] = pytree(b, &t->children[i], depth + 1);
    children = r ? hr_fbw_refs(b, r, (size_t)t->num_children) : 0;
    hr_fbw_free_refs(b, r);
  }
  if (t->children_names) names = strings(b, t->children_names, t->num_children);
  if (t->custom_name) custom = hr_fbw_cstring(b, t->custom_name);
  if (t->custom_auxdata) aux = hr_fbw_scalars(b, t->custom_auxdata, t->custom_auxdata_size, 1);
  hr_fbw_table_begin(b);
  hr_fbw_add_u8(b, TREE_KIND, (uint8_t)t->kind, 0);
  hr_fbw_add_ref(b, TREE_CHILDREN, children);
  hr_fbw_add_ref(b, TREE_CHILDREN_NAMES, names);
  hr_fbw_add_ref(b, TREE_CUSTOM_NAME, custom);
  hr_fbw_add_ref(b, TREE_CUSTOM_AUXDATA, aux);
  return hr_fbw_table_end(b);
}

static hr_fbw_ref mesh(hr_fbw *b, const hr_jaxexport_mesh *m) {
  hr_fbw_ref sizes = hr_fbw_scalars(b, m->axis_sizes, (size_t)m->num_axes, 4);
  hr_fbw_ref names = strings(b, m->axis_names, m->num_axes);
  uint8_t types[HR_LIMIT_JAXEXPORT_RANK];
  int n_types = m->num_axes < HR_LIMIT_JAXEXPORT_RANK ? m->num_axes : HR_LIMIT_JAXEXPORT_RANK;
  for (int i = 0; i < n_types; i++) types[i] = (uint8_t)m->axis_types[i];
  hr_fbw_ref axis_types = hr_fbw_scalars(b, types, (size_t)n_types, 1);
  hr_fbw_ref device = 0;
  if (m->has_device) {
    hr_fbw_ref kind = m->device_kind ? hr_fbw_cstring(b, m->device_kind) : 0;
    hr_fbw_ref platform = m->device_platform ? hr_fbw_cstring(b, m->device_platform) : 0;
    hr_fbw_table_begin(b);
    hr_fbw_add_ref(b, DEVICE_KIND, kind);
    if (m->has_num_cores) hr_fbw_add_u32(b, DEVICE_NUM_CORES, m->num_cores, 0);
    hr_fbw_add_ref(b, DEVICE_PLATFORM, platform);
    device = hr_fbw_table_end(b);
  }
  hr_fbw_table_begin(b);
  hr_fbw_add_ref(b, MESH_AXIS_SIZES, sizes);
  hr_fbw_add_ref(b, MESH_AXIS_NAMES, names);
  hr_fbw_add_ref(b, MESH_AXIS_TYPES, axis_types);
  hr_fbw_add_ref(b, MESH_ABSTRACT_DEVICE, device);
  return hr_fbw_table_end(b);
}

static hr_fbw_ref named_sharding(hr_fbw *b, const hr_jaxexport_named_sharding *n, uint32_t mesh_idx) {
  hr_fbw_ref mesh_ref = mesh(b, n->mesh);
  hr_fbw_ref parts[HR_LIMIT_JAXEXPORT_RANK];
  int n_parts = n->num_partitions < HR_LIMIT_JAXEXPORT_RANK ? n->num_partitions : HR_LIMIT_JAXEXPORT_RANK;
  for (int i = 0; i < n_parts; i++) {
    hr_fbw_ref axes = strings(b, n->partitions[i].axes, n->partitions[i].num_axes);
    hr_fbw_table_begin(b);
    hr_fbw_add_ref(b, ONE_AXIS_AXES, axes);
    parts[i] = hr_fbw_table_end(b);
  }
  hr_fbw_ref partitions = hr_fbw_refs(b, parts, (size_t)n_parts);
  hr_fbw_ref reduced = n->num_reduced ? strings(b, n->reduced, n->num_reduced) : 0;
  hr_fbw_ref unreduced = n->num_unreduced ? strings(b, n->unreduced, n->num_unreduced) : 0;
  hr_fbw_table_begin(b);
  hr_fbw_add_ref(b, SPEC_PARTITIONS, partitions);
  hr_fbw_add_ref(b, SPEC_REDUCED, reduced);
  hr_fbw_add_ref(b, SPEC_UNREDUCED, unreduced);
  hr_fbw_ref spec = hr_fbw_table_end(b);
  hr_fbw_ref memory_kind = n->memory_kind ? hr_fbw_cstring(b, n->memory_kind) : 0;
  hr_fbw_table_begin(b);
  hr_fbw_add_ref(b, NAMED_MESH, mesh_ref);
  hr_fbw_add_ref(b, NAMED_SPEC, spec);
  hr_fbw_add_ref(b, NAMED_MEMORY_KIND, memory_kind);
  hr_fbw_add_u32(b, NAMED_ABSTRACT_MESH_IDX, mesh_idx, 0);
  return hr_fbw_table_end(b);
}

/* The effects: one table each, with its type name. */
static hr_fbw_ref effects(hr_fbw *b, const char *const *names, int n) {
  hr_fbw_ref *refs = hr_fbw_alloc_refs(b, (size_t)n);
  for (int i = 0; refs && i < n; i++) {
    hr_fbw_ref s = hr_fbw_cstring(b, names[i]);
    hr_fbw_table_begin(b);
    hr_fbw_add_ref(b, EFFECT_TYPE_NAME, s);
    refs[i] = hr_fbw_table_end(b);
  }
  hr_fbw_ref v = refs ? hr_fbw_refs(b, refs, (size_t)n) : 0;
  hr_fbw_free_refs(b, refs);
  return v;
}

static hr_fbw_ref disabled_checks(hr_fbw *b, const hr_jaxexport *e) {
  hr_fbw_ref *refs = hr_fbw_alloc_refs(b, (size_t)e->num_disabled_checks);
  for (int i = 0; refs && i < e->num_disabled_checks; i++) {
    const hr_jaxexport_disabled_check *c = &e->disabled_checks[i];
    hr_fbw_ref target = c->custom_call_target ? hr_fbw_cstring(b, c->custom_call_target) : 0;
    hr_fbw_table_begin(b);
    hr_fbw_add_u8(b, CHECK_KIND, (uint8_t)c->kind, 0);
    hr_fbw_add_ref(b, CHECK_CUSTOM_CALL_TARGET, target);
    refs[i] = hr_fbw_table_end(b);
  }
  hr_fbw_ref v = refs ? hr_fbw_refs(b, refs, (size_t)e->num_disabled_checks) : 0;
  hr_fbw_free_refs(b, refs);
  return v;
}

/* ---------------------------------------------------------------------------------------------- */
/* Deduplication                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static bool aval_equal(const hr_jaxexport_aval *a, const hr_jaxexport_aval *b) {
  if (a->kind != b->kind || a->rank != b->rank || a->jax_dtype != b->jax_dtype || a->memory_space != b->memory_space)
    return false;
  for (int i = 0; i < a->rank; i++)
    if (strcmp(a->dims[i].text, b->dims[i].text) != 0) return false;
  return true;
}

/* The index of `v` in uniq[0..*n), appending it when new. */
static uint32_t unique_aval(const hr_jaxexport_aval **uniq, int *n, const hr_jaxexport_aval *v) {
  for (int i = 0; i < *n; i++)
    if (aval_equal(uniq[i], v)) return (uint32_t)i;
  uniq[*n] = v;
  return (uint32_t)(*n)++;
}

/* The same for named shardings and meshes, by identity: the reader shares equal ones. */
static uint32_t unique_ptr(const void **uniq, int *n, const void *p) {
  for (int i = 0; i < *n; i++)
    if (uniq[i] == p) return (uint32_t)i;
  uniq[*n] = p;
  return (uint32_t)(*n)++;
}

/* Everything the v10 tables hold, gathered from the inputs and outputs. */
typedef struct wx_uniques {
  int n_avals, n_meshes, n_named;
  const hr_jaxexport_aval **avals;
  const void **meshes, **named;
  uint32_t *in_aval_idx, *out_aval_idx, *in_sharding_idx, *out_sharding_idx; /* sharding: 1-based, 0 none */
} wx_uniques;

static hr_status gather_uniques(const hr_jaxexport *e, hr_arena *arena, wx_uniques *u) {
  int n = e->num_in_avals + e->num_out_avals;
  memset(u, 0, sizeof *u);
  u->avals = HR_ARENA_ARRAY(arena, const hr_jaxexport_aval *, (size_t)n + 1);
  u->meshes = HR_ARENA_ARRAY(arena, const void *, (size_t)n + 1);
  u->named = HR_ARENA_ARRAY(arena, const void *, (size_t)n + 1);
  u->in_aval_idx = HR_ARENA_ARRAY(arena, uint32_t, (size_t)e->num_in_avals + 1);
  u->out_aval_idx = HR_ARENA_ARRAY(arena, uint32_t, (size_t)e->num_out_avals + 1);
  u->in_sharding_idx = HR_ARENA_ARRAY(arena, uint32_t, (size_t)e->num_in_avals + 1);
  u->out_sharding_idx = HR_ARENA_ARRAY(arena, uint32_t, (size_t)e->num_out_avals + 1);
  if (!u->avals || !u->meshes || !u->named || !u->in_aval_idx || !u->out_aval_idx || !u->in_sharding_idx ||
      !u->out_sharding_idx)
    return hr_error(HR_OUT_OF_MEMORY, "jax.export writer: out of memory");
  for (int i = 0; i < e->num_in_avals; i++) u->in_aval_idx[i] = unique_aval(u->avals, &u->n_avals, &e->in_avals[i]);
  for (int i = 0; i < e->num_out_avals; i++)
    u->out_aval_idx[i] = unique_aval(u->avals, &u->n_avals, &e->out_avals[i]);
  for (int io = 0; io < 2; io++) {
    int count = io ? e->num_out_shardings : e->num_in_shardings;
    const hr_jaxexport_sharding *sh = io ? e->out_shardings : e->in_shardings;
    uint32_t *idx = io ? u->out_sharding_idx : u->in_sharding_idx;
    for (int i = 0; i < count; i++) {
      const hr_jaxexport_named_sharding *ns = sh[i].named;
      if (!ns) continue;
      unique_ptr(u->meshes, &u->n_meshes, ns->mesh);
      idx[i] = 1 + unique_ptr(u->named, &u->n_named, ns);
    }
  }
  return NULL;
}

/* The index of a named sharding's mesh in the unique meshes. */
static uint32_t mesh_index(const wx_uniques *u, const hr_jaxexport_named_sharding *n) {
  for (int i = 0; i < u->n_meshes; i++)
    if (u->meshes[i] == n->mesh) return (uint32_t)i;
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Exported                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* A vector of avals: the pointed-to ones of `v`, else the array `inline_v`. */
static hr_fbw_ref aval_vector(hr_fbw *b, const hr_jaxexport_aval *const *v, const hr_jaxexport_aval *inline_v, int n) {
  hr_fbw_ref *refs = hr_fbw_alloc_refs(b, (size_t)n);
  for (int i = 0; refs && i < n; i++) refs[i] = aval(b, v ? v[i] : &inline_v[i]);
  hr_fbw_ref r = refs ? hr_fbw_refs(b, refs, (size_t)n) : 0;
  hr_fbw_free_refs(b, refs);
  return r;
}

/* The inline in_shardings/out_shardings: one Sharding per value, with its NamedSharding and its
 * HloSharding proto where the description has them (older files have only the proto), or empty. */
static hr_fbw_ref sharding_vector(hr_fbw *b, const hr_jaxexport_sharding *sh, int n_sh, int n, const wx_uniques *u) {
  hr_fbw_ref *refs = hr_fbw_alloc_refs(b, (size_t)n);
  for (int i = 0; refs && i < n; i++) {
    const hr_jaxexport_sharding *one = i < n_sh ? &sh[i] : NULL;
    const hr_jaxexport_named_sharding *ns = one ? one->named : NULL;
    hr_fbw_ref named = ns ? named_sharding(b, ns, mesh_index(u, ns)) : 0;
    hr_fbw_ref proto = one && one->hlo_proto ? hr_fbw_scalars(b, one->hlo_proto, one->hlo_proto_size, 1) : 0;
    hr_fbw_table_begin(b);
    hr_fbw_add_u8(b, SHARDING_KIND, one ? (uint8_t)one->kind : 0, 0);
    hr_fbw_add_ref(b, SHARDING_HLO_PROTO, proto);
    hr_fbw_add_ref(b, SHARDING_NAMED, named);
    refs[i] = hr_fbw_table_end(b);
  }
  hr_fbw_ref r = refs ? hr_fbw_refs(b, refs, (size_t)n) : 0;
  hr_fbw_free_refs(b, refs);
  return r;
}

static hr_status write_exported(hr_fbw *b, const hr_jaxexport *e, const uint8_t *module, size_t module_len,
                                hr_arena *arena, hr_fbw_ref *root) {
  wx_uniques u;
  HR_TRY(gather_uniques(e, arena, &u));
  hr_fbw_ref name = hr_fbw_cstring(b, e->function_name ? e->function_name : "main");
  hr_fbw_ref in_tree = e->in_tree ? pytree(b, e->in_tree, 0) : 0;
  hr_fbw_ref in_avals = aval_vector(b, NULL, e->in_avals, e->num_in_avals);
  hr_fbw_ref out_tree = e->out_tree ? pytree(b, e->out_tree, 0) : 0;
  hr_fbw_ref out_avals = aval_vector(b, NULL, e->out_avals, e->num_out_avals);
  hr_fbw_ref in_sh = sharding_vector(b, e->in_shardings, e->num_in_shardings, e->num_in_avals, &u);
  hr_fbw_ref out_sh = sharding_vector(b, e->out_shardings, e->num_out_shardings, e->num_out_avals, &u);
  hr_fbw_ref ordered = effects(b, e->ordered_effects, e->num_ordered_effects);
  hr_fbw_ref unordered = effects(b, e->unordered_effects, e->num_unordered_effects);
  hr_fbw_ref checks = disabled_checks(b, e);
  hr_fbw_ref platforms = strings(b, e->platforms, e->num_platforms);
  hr_fbw_ref module_ref = hr_fbw_scalars(b, module, module_len, 1);
  hr_fbw_ref kept = hr_fbw_scalars(b, e->module_kept_var_idx, (size_t)e->num_kept_var_idx, 2);
  hr_fbw_ref unique_avals = aval_vector(b, u.avals, NULL, u.n_avals);
  hr_fbw_ref *mesh_refs = HR_ARENA_ARRAY(arena, hr_fbw_ref, (size_t)u.n_meshes + 1);
  hr_fbw_ref *named_refs = HR_ARENA_ARRAY(arena, hr_fbw_ref, (size_t)u.n_named + 1);
  if (!mesh_refs || !named_refs) return hr_error(HR_OUT_OF_MEMORY, "jax.export writer: out of memory");
  bool platform_named = false;
  for (int i = 0; i < u.n_meshes; i++) {
    const hr_jaxexport_mesh *m = u.meshes[i];
    mesh_refs[i] = mesh(b, m);
    platform_named |= m->has_device && m->device_platform;
  }
  hr_fbw_ref unique_meshes = hr_fbw_refs(b, mesh_refs, (size_t)u.n_meshes);
  for (int i = 0; i < u.n_named; i++)
    named_refs[i] = named_sharding(b, u.named[i], mesh_index(&u, u.named[i]));
  hr_fbw_ref unique_named = hr_fbw_refs(b, named_refs, (size_t)u.n_named);
  hr_fbw_ref in_idx = hr_fbw_scalars(b, u.in_aval_idx, (size_t)e->num_in_avals, 4);
  hr_fbw_ref out_idx = hr_fbw_scalars(b, u.out_aval_idx, (size_t)e->num_out_avals, 4);
  /* Without a NamedSharding the indices would all be 0 ("None") and hide the HloSharding protos
   * of the inline tables, which readers use when the indices are absent. */
  hr_fbw_ref in_sh_idx = u.n_named ? hr_fbw_scalars(b, u.in_sharding_idx, (size_t)e->num_in_avals, 4) : 0;
  hr_fbw_ref out_sh_idx = u.n_named ? hr_fbw_scalars(b, u.out_sharding_idx, (size_t)e->num_out_avals, 4) : 0;

  hr_fbw_table_begin(b);
  hr_fbw_add_u16(b, EX_SERIALIZATION_VERSION, platform_named ? WRITE_VERSION_PLATFORM : WRITE_VERSION, 0);
  hr_fbw_add_ref(b, EX_FUNCTION_NAME, name);
  hr_fbw_add_ref(b, EX_IN_TREE, in_tree);
  hr_fbw_add_ref(b, EX_IN_AVALS, in_avals);
  hr_fbw_add_ref(b, EX_OUT_TREE, out_tree);
  hr_fbw_add_ref(b, EX_OUT_AVALS, out_avals);
  hr_fbw_add_u16(b, EX_NR_DEVICES_SHORT, (uint16_t)(e->nr_devices > INT16_MAX ? INT16_MAX : e->nr_devices), 0);
  hr_fbw_add_ref(b, EX_IN_SHARDINGS, in_sh);
  hr_fbw_add_ref(b, EX_OUT_SHARDINGS, out_sh);
  hr_fbw_add_ref(b, EX_PLATFORMS, platforms);
  hr_fbw_add_ref(b, EX_ORDERED_EFFECTS, ordered);
  hr_fbw_add_ref(b, EX_UNORDERED_EFFECTS, unordered);
  hr_fbw_add_ref(b, EX_DISABLED_CHECKS, checks);
  hr_fbw_add_ref(b, EX_MODULE, module_ref);
  hr_fbw_add_u16(b, EX_CALLING_CONVENTION_VERSION, e->calling_convention_version, 0);
  hr_fbw_add_ref(b, EX_MODULE_KEPT_VAR_IDX, kept);
  hr_fbw_add_u8(b, EX_USES_GLOBAL_CONSTANTS, e->uses_global_constants, 0);
  hr_fbw_add_u32(b, EX_NR_DEVICES, e->nr_devices, 0);
  hr_fbw_add_ref(b, EX_UNIQUE_AVALS, unique_avals);
  hr_fbw_add_ref(b, EX_UNIQUE_ABSTRACT_MESHES, unique_meshes);
  hr_fbw_add_ref(b, EX_UNIQUE_NAMED_SHARDINGS, unique_named);
  hr_fbw_add_ref(b, EX_IN_AVALS_IDXS, in_idx);
  hr_fbw_add_ref(b, EX_OUT_AVALS_IDXS, out_idx);
  hr_fbw_add_ref(b, EX_IN_SHARDINGS_IDXS, in_sh_idx);
  hr_fbw_add_ref(b, EX_OUT_SHARDINGS_IDXS, out_sh_idx);
  *root = hr_fbw_table_end(b);
  return NULL;
}

hr_status hr_jaxexport_write(const hr_jaxexport *e, const uint8_t *module, size_t module_len, hr_strbuf *out) {
  if (!e || !module || !out) return hr_error(HR_INVALID_ARGUMENT, "hr_jaxexport_write: NULL argument");
  if (e->has_vjp)
    return hr_error(HR_UNIMPLEMENTED, "jax.export writer: the Exported has a VJP, which is not written");
  const hr_allocator *a = e->arena.allocator ? e->arena.allocator : hr_default_allocator();
  hr_arena arena;
  hr_arena_init(&arena, a);
  hr_fbw b;
  hr_fbw_init(&b, a);
  hr_fbw_ref root = 0;
  hr_status s = write_exported(&b, e, module, module_len, &arena, &root);
  if (!s) s = hr_fbw_finish(&b, root, out);
  hr_fbw_free(&b);
  hr_arena_release(&arena);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Describing a module                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* The dimension variable a dynamic dimension gets. A module keeps no names for JAX's symbolic
 * dimensions, nor which of them are equal, so every dynamic dimension is taken as one variable, as
 * in a model exported with polymorphic_shapes=["(b, ...)"] (a batch: the jax2tf guide's case). */
#define DYNAMIC_DIM_NAME "b"

/* The aval of a tensor type; *dynamic is set when a dimension is dynamic. */
static hr_status describe_aval(hr_arena *arena, const hr_type *t, const char *what, hr_jaxexport_aval *out,
                               bool *dynamic) {
  if (t->kind != HR_TYPE_TENSOR)
    return hr_error(HR_UNIMPLEMENTED, "%s is not a tensor (tokens and tuples need an export's effects and trees)", what);
  int code = jx_dtype_code(t->dtype);
  if (code < 0) return hr_error(HR_UNIMPLEMENTED, "%s: element type %s has no jax.export dtype", what, hr_dtype_name(t->dtype));
  *out = (hr_jaxexport_aval){.kind = 0, .rank = t->shape.rank, .jax_dtype = code, .dtype = t->dtype,
                             .memory_space = HR_JAXEXPORT_MEMORY_DEVICE};
  out->dims = HR_ARENA_ARRAY(arena, hr_jaxexport_dim, (size_t)t->shape.rank + 1);
  if (!out->dims) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int d = 0; d < t->shape.rank; d++) {
    int64_t n = t->shape.dims[d];
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", (long long)n);
    *dynamic |= n == HR_DYNAMIC;
    out->dims[d] = (hr_jaxexport_dim){.text = hr_arena_strdup(arena, n == HR_DYNAMIC ? DYNAMIC_DIM_NAME : buf),
                                      .is_constant = n != HR_DYNAMIC, .value = n};
    if (!out->dims[d].text) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  return NULL;
}

/* A tuple of `n` leaves; with `kwargs`, the pair (that tuple, {}) JAX's in_tree is. */
static hr_jaxexport_pytree *leaf_tuple(hr_arena *arena, int n, bool kwargs) {
  hr_jaxexport_pytree *t = HR_ARENA_NEW(arena, hr_jaxexport_pytree);
  hr_jaxexport_pytree *leaves = HR_ARENA_ARRAY(arena, hr_jaxexport_pytree, (size_t)n + 1);
  if (!t || !leaves) return NULL;
  for (int i = 0; i < n; i++) leaves[i] = (hr_jaxexport_pytree){.kind = HR_JAXEXPORT_TREE_LEAF, .num_leaves = 1};
  *t = (hr_jaxexport_pytree){.kind = HR_JAXEXPORT_TREE_TUPLE, .num_children = n, .children = leaves, .num_leaves = n};
  if (!kwargs) return t;
  hr_jaxexport_pytree *pair = HR_ARENA_ARRAY(arena, hr_jaxexport_pytree, 2);
  hr_jaxexport_pytree *top = HR_ARENA_NEW(arena, hr_jaxexport_pytree);
  if (!pair || !top) return NULL;
  pair[0] = *t;
  pair[1] = (hr_jaxexport_pytree){.kind = HR_JAXEXPORT_TREE_DICT};
  *top = (hr_jaxexport_pytree){.kind = HR_JAXEXPORT_TREE_TUPLE, .num_children = 2, .children = pair, .num_leaves = n};
  return top;
}

/* A module attribute's integer value, `dflt` when absent. */
static int64_t module_int(const hr_module *m, const char *name, int64_t dflt) {
  const hr_attr *a = m->attrs ? hr_attr_field(m->attrs, name) : NULL;
  int64_t v;
  hr_status s = a ? hr_attr_to_i64(a, &v) : NULL;
  if (!a || s) v = dflt;
  hr_status_free(s);
  return v;
}

static hr_status describe(const hr_module *m, const hr_func *f, hr_jaxexport *e) {
  hr_arena *arena = &e->arena;
  /* JAX names the lowered module jit_<function name>: the Python function's name is fun_name. */
  const char *fun = m->name && strncmp(m->name, "jit_", 4) == 0 && m->name[4] ? m->name + 4 : f->name;
  e->function_name = hr_arena_strdup(arena, fun);
  e->num_in_avals = f->n_args;
  e->num_out_avals = f->n_results;
  hr_jaxexport_aval *in = HR_ARENA_ARRAY(arena, hr_jaxexport_aval, (size_t)f->n_args + 1);
  hr_jaxexport_aval *out = HR_ARENA_ARRAY(arena, hr_jaxexport_aval, (size_t)f->n_results + 1);
  uint16_t *kept = HR_ARENA_ARRAY(arena, uint16_t, (size_t)f->n_args + 1);
  const char **platforms = HR_ARENA_ARRAY(arena, const char *, 1);
  if (!e->function_name || !in || !out || !kept || !platforms) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (f->n_args > UINT16_MAX) return hr_error(HR_UNIMPLEMENTED, "@%s: more than 65535 arguments", f->name);
  char what[64];
  bool dynamic = false;
  for (int i = 0; i < f->n_args; i++) {
    snprintf(what, sizeof what, "@%s argument %d", f->name, i);
    HR_TRY(describe_aval(arena, &f->body.args[i].type, what, &in[i], &dynamic));
    kept[i] = (uint16_t)i;
  }
  for (int i = 0; i < f->n_results; i++) {
    snprintf(what, sizeof what, "@%s result %d", f->name, i);
    HR_TRY(describe_aval(arena, &f->result_types[i], what, &out[i], &dynamic));
  }
  e->uses_global_constants = dynamic; /* JAX refines the module's shapes when called */
  e->in_avals = in;
  e->out_avals = out;
  e->module_kept_var_idx = kept;
  e->num_kept_var_idx = f->n_args;
  const hr_jaxexport_pytree *outs = leaf_tuple(arena, f->n_results, false);
  e->in_tree = leaf_tuple(arena, f->n_args, true);
  e->out_tree = outs && f->n_results == 1 ? &outs->children[0] : outs; /* one result: a leaf */
  if (!e->in_tree || !outs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  platforms[0] = "cpu";
  e->platforms = platforms;
  e->num_platforms = 1;
  int64_t devices = module_int(m, "mhlo.num_partitions", 1) * module_int(m, "mhlo.num_replicas", 1);
  if (devices < 1 || devices > INT32_MAX) return hr_error(HR_INVALID_ARGUMENT, "the module names %lld devices", (long long)devices);
  e->nr_devices = (uint32_t)devices;
  e->has_nr_devices = true;
  e->calling_convention_version = 9;
  e->serialization_version = WRITE_VERSION;
  return NULL;
}

hr_status hr_jaxexport_describe_module(const hr_module *m, const hr_allocator *a, hr_jaxexport **out) {
  if (!m || !out) return hr_error(HR_INVALID_ARGUMENT, "hr_jaxexport_describe_module: NULL argument");
  *out = NULL;
  const hr_func *f = hr_module_find_func(m, "main");
  if (!f) return hr_error(HR_NOT_FOUND, "%s: the module has no @main to export", m->filename ? m->filename : "module");
  a = a ? a : hr_default_allocator();
  hr_jaxexport *e = a->alloc(a->ctx, sizeof *e, _Alignof(hr_jaxexport));
  if (!e) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  memset(e, 0, sizeof *e);
  hr_arena_init(&e->arena, a);
  hr_status s = describe(m, f, e);
  if (s) {
    hr_jaxexport_free(e);
    return hr_status_wrap(s, "%s: cannot describe as jax.export", m->filename ? m->filename : "module");
  }
  *out = e;
  return NULL;
}

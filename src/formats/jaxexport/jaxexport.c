/* The jax.export reader: the Exported root table (schema in jaxexport.h's sources), its scalar
 * and list fields, the choice between the v10 deduplicated tables and the older inline ones, the
 * consistency checks JAX's deserializer relies on, the sniffer, and the arena helpers every file
 * of the reader shares. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "formats/jaxexport/jaxexport_internal.h"

/* MLIR bytecode's magic number, which every StableHLO portable artifact starts with. */
static const uint8_t mlir_bytecode_magic[4] = {'M', 'L', 0xef, 'R'};

/* ---- helpers shared by the reader's files ---------------------------------------------------- */

void jx_name(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, JX_NAME, fmt, ap);
  va_end(ap);
}

void jx_saw_version(jx_reader *r, int v) {
  if (v > r->version_min) r->version_min = v;
}

hr_status jx_array(jx_reader *r, size_t n, size_t size, size_t align, const char *what, void **out) {
  *out = NULL;
  if (n == 0 || size == 0) return NULL;
  size_t used = r->e->arena.used_bytes;
  if (n > (r->mem_cap - (used < r->mem_cap ? used : r->mem_cap)) / size)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: %s: %zu entries need more memory than a %zu-byte file may take",
                    r->fb.filename, what, n, r->fb.len);
  *out = hr_arena_calloc(&r->e->arena, n, size, align);
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "%s: %s: out of memory", r->fb.filename, what);
  return NULL;
}

hr_status jx_copy_string(jx_reader *r, const hr_fb_string *s, const char *what, const char **out) {
  *out = NULL;
  if (!s->present) return NULL;
  char *p;
  HR_TRY(jx_array(r, s->len + 1, 1, 1, what, (void **)&p));
  memcpy(p, s->data, s->len);
  *out = p;
  return NULL;
}

hr_status jx_string_field(jx_reader *r, const hr_fb_table *t, int slot, const char *what, const char **out) {
  hr_fb_string s;
  HR_TRY(hr_fb_string_field(&r->fb, t, slot, what, &s));
  return jx_copy_string(r, &s, what, out);
}

hr_status jx_string_vector(jx_reader *r, const hr_fb_table *t, int slot, const char *what, int *n,
                           const char ***out) {
  hr_fb_vector v;
  *n = 0;
  *out = NULL;
  HR_TRY(hr_fb_vector_field(&r->fb, t, slot, what, 4, &v));
  const char **items;
  HR_TRY(jx_array(r, v.count, sizeof *items, _Alignof(const char *), what, (void **)&items));
  for (uint32_t i = 0; i < v.count; i++) {
    char name[JX_NAME];
    jx_name(name, "%s[%u]", what, (unsigned)i);
    hr_fb_string s;
    HR_TRY(hr_fb_vector_string(&r->fb, &v, i, name, &s));
    HR_TRY(jx_copy_string(r, &s, name, &items[i]));
  }
  *n = (int)v.count;
  *out = items;
  return NULL;
}

hr_status jx_byte_vector(jx_reader *r, const hr_fb_table *t, int slot, const char *what, const uint8_t **out,
                         size_t *size) {
  hr_fb_vector v;
  *out = NULL;
  *size = 0;
  HR_TRY(hr_fb_vector_field(&r->fb, t, slot, what, 1, &v));
  if (!v.present) return NULL;
  uint8_t *p;
  /* One byte more, so that a present empty vector still gets a non-NULL pointer. */
  HR_TRY(jx_array(r, (size_t)v.count + 1, 1, 1, what, (void **)&p));
  memcpy(p, r->fb.data + v.pos, v.count);
  *out = p;
  *size = v.count;
  return NULL;
}

hr_status jx_u32_vector(jx_reader *r, const hr_fb_table *t, int slot, const char *what, int *n, uint32_t **out,
                        size_t *pos) {
  hr_fb_vector v;
  *n = 0;
  *out = NULL;
  HR_TRY(hr_fb_vector_field(&r->fb, t, slot, what, 4, &v));
  *pos = v.pos;
  uint32_t *items;
  HR_TRY(jx_array(r, v.count, sizeof *items, _Alignof(uint32_t), what, (void **)&items));
  for (uint32_t i = 0; i < v.count; i++) items[i] = hr_fb_vector_u32(&r->fb, &v, i);
  *n = (int)v.count;
  *out = items;
  return NULL;
}

hr_status jx_keep_text(jx_reader *r, hr_strbuf *sb, const char *what, const char **out) {
  *out = NULL;
  HR_TRY(hr_strbuf_status(sb));
  char *p;
  HR_TRY(jx_array(r, sb->len + 1, 1, 1, what, (void **)&p));
  if (sb->len) memcpy(p, sb->data, sb->len);
  *out = p;
  return NULL;
}

/* ---- Exported fields ------------------------------------------------------------------------ */

/* Reads one item of a vector of tables into `out` (an element of the array being filled). */
typedef hr_status (*jx_item_reader)(jx_reader *r, const hr_fb_table *t, const char *what, void *out);

/* Reads vector field `slot` of table `t`, a vector of tables, into a new array of items of `size`
 * bytes, each read by `read` and named "field[i]" in errors; *count is 0 when it is absent. */
static hr_status read_table_list(jx_reader *r, const hr_fb_table *t, int slot, const char *field, size_t size,
                                 size_t align, jx_item_reader read, void **items, int *count) {
  hr_fb_vector v;
  *count = 0;
  HR_TRY(hr_fb_vector_field(&r->fb, t, slot, field, 4, &v));
  HR_TRY(jx_array(r, v.count, size, align, field, items));
  for (uint32_t i = 0; i < v.count; i++) {
    char name[JX_NAME];
    jx_name(name, "%s[%u]", field, (unsigned)i);
    hr_fb_table item;
    HR_TRY(hr_fb_vector_table(&r->fb, &v, i, name, &item));
    HR_TRY(read(r, &item, name, (char *)*items + (size_t)i * size));
  }
  *count = (int)v.count;
  return NULL;
}

static hr_status read_mesh_item(jx_reader *r, const hr_fb_table *t, const char *what, void *out) {
  return jx_read_mesh(r, t, what, out);
}

static hr_status read_named_sharding_item(jx_reader *r, const hr_fb_table *t, const char *what, void *out) {
  return jx_read_named_sharding(r, t, what, out);
}

/* The v10 tables: unique meshes first (named shardings refer to them), then avals and shardings. */
static hr_status read_unique_tables(jx_reader *r, hr_fb_table *root) {
  hr_jaxexport *e = r->e;
  void *meshes, *named;
  HR_TRY(read_table_list(r, root, EX_UNIQUE_ABSTRACT_MESHES, "unique_abstract_meshes", sizeof(hr_jaxexport_mesh),
                         _Alignof(hr_jaxexport_mesh), read_mesh_item, &meshes, &e->num_unique_meshes));
  e->unique_meshes = meshes;
  if (hr_fb_has(&r->fb, root, EX_UNIQUE_ABSTRACT_MESHES)) jx_saw_version(r, 10);

  hr_jaxexport_aval *avals;
  HR_TRY(jx_read_avals(r, root, EX_UNIQUE_AVALS, "unique_avals", &e->num_unique_avals, &avals));
  e->unique_avals = avals;
  if (hr_fb_has(&r->fb, root, EX_UNIQUE_AVALS)) jx_saw_version(r, 10);

  HR_TRY(read_table_list(r, root, EX_UNIQUE_NAMED_SHARDINGS, "unique_named_shardings",
                         sizeof(hr_jaxexport_named_sharding), _Alignof(hr_jaxexport_named_sharding),
                         read_named_sharding_item, &named, &e->num_unique_named_shardings));
  e->unique_named_shardings = named;
  if (hr_fb_has(&r->fb, root, EX_UNIQUE_NAMED_SHARDINGS)) jx_saw_version(r, 10);
  return NULL;
}

/* in_avals or out_avals: through the `idxs_slot` indices into unique_avals when there are any, else
 * the inline vector at `slot`. */
static hr_status read_avals(jx_reader *r, hr_fb_table *root, int slot, int idxs_slot, const char *what, int *n,
                            const hr_jaxexport_aval **out) {
  char idxs_name[JX_NAME];
  jx_name(idxs_name, "%s_idxs", what);
  int nidx;
  uint32_t *idx;
  size_t at;
  HR_TRY(jx_u32_vector(r, root, idxs_slot, idxs_name, &nidx, &idx, &at));
  if (hr_fb_has(&r->fb, root, idxs_slot)) jx_saw_version(r, 10);
  if (nidx == 0) {
    hr_jaxexport_aval *avals;
    HR_TRY(jx_read_avals(r, root, slot, what, n, &avals));
    *out = avals;
    return NULL;
  }
  hr_jaxexport_aval *avals;
  HR_TRY(jx_array(r, (size_t)nidx, sizeof *avals, _Alignof(hr_jaxexport_aval), what, (void **)&avals));
  for (int i = 0; i < nidx; i++) {
    if (idx[i] >= (uint32_t)r->e->num_unique_avals)
      return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s[%d]: index %u into the %d unique_avals", r->fb.filename,
                      at + 4 * (size_t)i, idxs_name, i, (unsigned)idx[i], r->e->num_unique_avals);
    avals[i] = r->e->unique_avals[idx[i]];
  }
  r->e->uses_unique_tables = true;
  *n = nidx;
  *out = avals;
  return NULL;
}

/* in_shardings or out_shardings: through the 1-based `idxs_slot` indices into
 * unique_named_shardings (0: unspecified) when there are any, else the inline Sharding tables. */
static hr_status read_shardings(jx_reader *r, hr_fb_table *root, int slot, int idxs_slot, const char *what,
                                const hr_jaxexport_aval *avals, int num_avals, int *n,
                                const hr_jaxexport_sharding **out) {
  char idxs_name[JX_NAME];
  jx_name(idxs_name, "%s_idxs", what);
  int nidx;
  uint32_t *idx;
  size_t at;
  HR_TRY(jx_u32_vector(r, root, idxs_slot, idxs_name, &nidx, &idx, &at));
  if (hr_fb_has(&r->fb, root, idxs_slot)) jx_saw_version(r, 10);
  hr_jaxexport_sharding *sh;
  if (nidx > 0) {
    HR_TRY(jx_array(r, (size_t)nidx, sizeof *sh, _Alignof(hr_jaxexport_sharding), what, (void **)&sh));
    for (int i = 0; i < nidx; i++) {
      char name[JX_NAME];
      jx_name(name, "%s[%d]", idxs_name, i);
      if (idx[i] > (uint32_t)r->e->num_unique_named_shardings)
        return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s: index %u into the %d unique_named_shardings (1-based)",
                        r->fb.filename, at + 4 * (size_t)i, name, (unsigned)idx[i], r->e->num_unique_named_shardings);
      if (idx[i] > 0) {
        sh[i].specified = true;
        sh[i].kind = 2;
        sh[i].named = &r->e->unique_named_shardings[idx[i] - 1];
      }
      HR_TRY(jx_finish_sharding(r, &sh[i], i < num_avals ? avals[i].rank : -1, name));
    }
    r->e->uses_unique_tables = true;
    *n = nidx;
    *out = sh;
    return NULL;
  }
  hr_fb_vector v;
  HR_TRY(hr_fb_vector_field(&r->fb, root, slot, what, 4, &v));
  HR_TRY(jx_array(r, v.count, sizeof *sh, _Alignof(hr_jaxexport_sharding), what, (void **)&sh));
  for (uint32_t i = 0; i < v.count; i++) {
    char name[JX_NAME];
    jx_name(name, "%s[%u]", what, (unsigned)i);
    hr_fb_table t;
    HR_TRY(hr_fb_vector_table(&r->fb, &v, i, name, &t));
    HR_TRY(jx_read_sharding(r, &t, i < (uint32_t)num_avals ? avals[i].rank : -1, name, &sh[i]));
  }
  *n = (int)v.count;
  *out = sh;
  return NULL;
}

/* The in_tree or out_tree at `slot` (NULL when absent); its leaves must be the `num_avals` values. */
static hr_status read_tree(jx_reader *r, hr_fb_table *root, int slot, const char *what, int num_avals,
                           const hr_jaxexport_pytree **out) {
  hr_fb_table t;
  bool present;
  *out = NULL;
  HR_TRY(hr_fb_table_field(&r->fb, root, slot, what, &t, &present));
  if (!present) return NULL;
  hr_jaxexport_pytree *tree;
  HR_TRY(jx_array(r, 1, sizeof *tree, _Alignof(hr_jaxexport_pytree), what, (void **)&tree));
  HR_TRY(jx_read_pytree(r, &t, what, tree));
  if (tree->num_leaves != num_avals)
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s: %lld leaves for %d avals", r->fb.filename, t.pos, what,
                    (long long)tree->num_leaves, num_avals);
  *out = tree;
  return NULL;
}

/* An Effect table's type name ("" when absent) into a `const char *`. */
static hr_status read_effect_item(jx_reader *r, const hr_fb_table *t, const char *what, void *out) {
  const char **name = out;
  HR_TRY(jx_string_field(r, t, EFFECT_TYPE_NAME, what, name));
  if (!*name) *name = "";
  return NULL;
}

/* ordered_effects or unordered_effects: the type names of a vector of Effect tables. */
static hr_status read_effects(jx_reader *r, hr_fb_table *root, int slot, const char *what, int *n,
                              const char ***out) {
  void *names = NULL;
  HR_TRY(read_table_list(r, root, slot, what, sizeof(const char *), _Alignof(const char *), read_effect_item, &names, n));
  *out = names;
  return NULL;
}

/* A DisabledSafetyCheck table, with JAX's text form of it, into an hr_jaxexport_disabled_check. */
static hr_status read_disabled_check_item(jx_reader *r, const hr_fb_table *t, const char *what, void *out) {
  hr_jaxexport_disabled_check *check = out;
  uint8_t kind;
  HR_TRY(hr_fb_u8(&r->fb, t, CHECK_KIND, what, 0, &kind));
  HR_TRY(jx_string_field(r, t, CHECK_CUSTOM_CALL_TARGET, what, &check->custom_call_target));
  check->kind = (int8_t)kind;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  if (kind == 0) hr_strbuf_puts(&sb, "platform");
  else if (kind == 1)
    hr_strbuf_printf(&sb, "custom_call:%s", check->custom_call_target ? check->custom_call_target : "");
  else if (kind == 2) hr_strbuf_puts(&sb, "shape_assertions");
  else hr_strbuf_printf(&sb, "unknown(%d)", (int)(int8_t)kind);
  hr_status st = jx_keep_text(r, &sb, what, &check->text);
  hr_strbuf_free(&sb);
  return st;
}

/* disabled_checks: DisabledSafetyCheck tables. */
static hr_status read_disabled_checks(jx_reader *r, hr_fb_table *root) {
  void *checks = NULL;
  HR_TRY(read_table_list(r, root, EX_DISABLED_CHECKS, "disabled_checks", sizeof(hr_jaxexport_disabled_check),
                         _Alignof(hr_jaxexport_disabled_check), read_disabled_check_item, &checks,
                         &r->e->num_disabled_checks));
  r->e->disabled_checks = checks;
  return NULL;
}

/* The device counts: nr_devices (v5+) wins over the deprecated 16-bit nr_devices_short. */
static hr_status read_nr_devices(jx_reader *r, hr_fb_table *root) {
  hr_jaxexport *e = r->e;
  HR_TRY(hr_fb_u32(&r->fb, root, EX_NR_DEVICES, "nr_devices", 0, &e->nr_devices));
  HR_TRY(hr_fb_i16(&r->fb, root, EX_NR_DEVICES_SHORT, "nr_devices_short", 0, &e->nr_devices_short));
  e->has_nr_devices = hr_fb_has(&r->fb, root, EX_NR_DEVICES);
  e->has_nr_devices_short = hr_fb_has(&r->fb, root, EX_NR_DEVICES_SHORT);
  if (e->has_nr_devices) jx_saw_version(r, 5);
  if (e->nr_devices_short < 0)
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: root table: nr_devices_short is negative (%d)", r->fb.filename,
                    root->pos, (int)e->nr_devices_short);
  if (e->nr_devices == 0) e->nr_devices = (uint32_t)e->nr_devices_short;
  return NULL;
}

/* mlir_module_serialized (required, a view into the data), module_kept_var_idx (sorted indices
 * into in_avals) and the calling convention. */
static hr_status read_module(jx_reader *r, hr_fb_table *root) {
  hr_jaxexport *e = r->e;
  hr_fb_vector v;
  HR_TRY(hr_fb_vector_field(&r->fb, root, EX_MODULE, "mlir_module_serialized", 1, &v));
  if (!v.present || v.count == 0)
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: root table: mlir_module_serialized: %s", r->fb.filename, root->pos,
                    v.present ? "empty" : "absent");
  e->module = r->fb.data + v.pos;
  e->module_offset = v.pos;
  e->module_size = v.count;
  HR_TRY(hr_fb_u16(&r->fb, root, EX_CALLING_CONVENTION_VERSION, "calling_convention_version", 0,
                   &e->calling_convention_version));
  HR_TRY(hr_fb_vector_field(&r->fb, root, EX_MODULE_KEPT_VAR_IDX, "module_kept_var_idx", 2, &v));
  uint16_t *kept;
  HR_TRY(jx_array(r, v.count, sizeof *kept, _Alignof(uint16_t), "module_kept_var_idx", (void **)&kept));
  for (uint32_t i = 0; i < v.count; i++) {
    kept[i] = hr_fb_vector_u16(&r->fb, &v, i);
    if (kept[i] >= e->num_in_avals || (i > 0 && kept[i] <= kept[i - 1]))
      return hr_error(HR_PARSE_ERROR,
                      "%s: offset %zu: module_kept_var_idx[%u] = %u: not a sorted index into the %d in_avals",
                      r->fb.filename, v.pos + (size_t)i * 2, (unsigned)i, (unsigned)kept[i], e->num_in_avals);
  }
  e->module_kept_var_idx = kept;
  e->num_kept_var_idx = (int)v.count;
  uint8_t ugc;
  HR_TRY(hr_fb_u8(&r->fb, root, EX_USES_GLOBAL_CONSTANTS, "uses_global_constants", 0, &ugc));
  e->uses_global_constants = ugc != 0;
  return NULL;
}

/* Input and output values, shardings and trees, checked against each other as JAX pairs them. */
static hr_status read_signature(jx_reader *r, hr_fb_table *root) {
  hr_jaxexport *e = r->e;
  HR_TRY(read_avals(r, root, EX_IN_AVALS, EX_IN_AVALS_IDXS, "in_avals", &e->num_in_avals, &e->in_avals));
  HR_TRY(read_avals(r, root, EX_OUT_AVALS, EX_OUT_AVALS_IDXS, "out_avals", &e->num_out_avals, &e->out_avals));
  HR_TRY(read_shardings(r, root, EX_IN_SHARDINGS, EX_IN_SHARDINGS_IDXS, "in_shardings", e->in_avals,
                        e->num_in_avals, &e->num_in_shardings, &e->in_shardings));
  HR_TRY(read_shardings(r, root, EX_OUT_SHARDINGS, EX_OUT_SHARDINGS_IDXS, "out_shardings", e->out_avals,
                        e->num_out_avals, &e->num_out_shardings, &e->out_shardings));
  if (e->num_in_shardings && e->num_in_shardings != e->num_in_avals)
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: root table: %d in_shardings for %d in_avals", r->fb.filename,
                    root->pos, e->num_in_shardings, e->num_in_avals);
  if (e->num_out_shardings && e->num_out_shardings != e->num_out_avals)
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: root table: %d out_shardings for %d out_avals", r->fb.filename,
                    root->pos, e->num_out_shardings, e->num_out_avals);
  HR_TRY(read_tree(r, root, EX_IN_TREE, "in_tree", e->num_in_avals, &e->in_tree));
  return read_tree(r, root, EX_OUT_TREE, "out_tree", e->num_out_avals, &e->out_tree);
}

/* Everything in the root table. */
static hr_status read_exported(jx_reader *r, hr_fb_table *root) {
  hr_jaxexport *e = r->e;
  e->num_slots = hr_fb_num_slots(root);
  HR_TRY(hr_fb_u16(&r->fb, root, EX_SERIALIZATION_VERSION, "serialization_version", 0, &e->serialization_version));
  r->version_min = e->serialization_version;
  for (int slot = EX_NUM_SLOTS_V12; slot < e->num_slots; slot++)
    if (hr_fb_has(&r->fb, root, slot)) jx_saw_version(r, 13); /* a field added after version 12 */
  HR_TRY(jx_string_field(r, root, EX_FUNCTION_NAME, "function_name", &e->function_name));
  if (!e->function_name)
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: root table: function_name: absent", r->fb.filename, root->pos);
  HR_TRY(jx_string_field(r, root, EX_JAX_VERSION, "jax_version", &e->jax_version));
  if (e->jax_version) jx_saw_version(r, 12);
  HR_TRY(read_unique_tables(r, root));
  HR_TRY(read_signature(r, root));
  HR_TRY(read_nr_devices(r, root));
  HR_TRY(jx_string_vector(r, root, EX_PLATFORMS, "platforms", &e->num_platforms, &e->platforms));
  HR_TRY(read_effects(r, root, EX_ORDERED_EFFECTS, "ordered_effects", &e->num_ordered_effects,
                      &e->ordered_effects));
  HR_TRY(read_effects(r, root, EX_UNORDERED_EFFECTS, "unordered_effects", &e->num_unordered_effects,
                      &e->unordered_effects));
  HR_TRY(read_disabled_checks(r, root));
  HR_TRY(read_module(r, root));
  hr_fb_table vjp;
  HR_TRY(hr_fb_table_field(&r->fb, root, EX_VJP, "vjp", &vjp, &e->has_vjp));
  e->vjp_offset = e->has_vjp ? vjp.pos : 0;
  e->serialization_version_min = r->version_min;
  return NULL;
}

hr_status hr_jaxexport_read(const char *filename, const uint8_t *data, size_t len, const hr_allocator *a,
                            hr_jaxexport **out) {
  *out = NULL;
  if (!filename) filename = "<buffer>";
  if (len % 4 != 0)
    return hr_error(HR_PARSE_ERROR, "%s: %zu bytes: not a whole FlatBuffer (its size is a multiple of 4; truncated?)",
                    filename, len);
  jx_reader r = {0};
  HR_TRY(hr_fb_init(&r.fb, filename, data, len));
  const hr_allocator *al = a ? a : hr_default_allocator();
  hr_jaxexport *e = al->alloc(al->ctx, sizeof *e, _Alignof(hr_jaxexport));
  if (!e) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", filename);
  memset(e, 0, sizeof *e);
  hr_arena_init(&e->arena, al);
  r.e = e;
  r.mem_cap = len > (SIZE_MAX - ((size_t)1 << 20)) / HR_LIMIT_JAXEXPORT_MEMORY_FACTOR
                  ? SIZE_MAX
                  : len * HR_LIMIT_JAXEXPORT_MEMORY_FACTOR + ((size_t)1 << 20);
  hr_fb_table root;
  hr_status st = hr_fb_root(&r.fb, &root);
  if (!st) st = read_exported(&r, &root);
  if (st) {
    hr_jaxexport_free(e);
    return st;
  }
  *out = e;
  return NULL;
}

void hr_jaxexport_free(hr_jaxexport *e) {
  if (!e) return;
  const hr_allocator *a = e->arena.allocator;
  hr_arena_release(&e->arena);
  a->free(a->ctx, e);
}

bool hr_jaxexport_sniff(const uint8_t *data, size_t len) {
  if (!data || len < 16 || len % 4 != 0 || len > HR_LIMIT_FB_BYTES) return false;
  /* The root offset comes first: most other formats' first four bytes (magic numbers, text) make
   * an offset past their own end, which rules them out before any message is built. */
  if (hr_fb_load_u32(data) > len - 8) return false;
  hr_fb fb;
  hr_fb_table root;
  hr_fb_string name;
  hr_fb_vector module;
  hr_status st = hr_fb_init(&fb, "", data, len);
  if (!st) st = hr_fb_root(&fb, &root);
  if (!st) st = hr_fb_string_field(&fb, &root, EX_FUNCTION_NAME, "function_name", &name);
  if (!st) st = hr_fb_vector_field(&fb, &root, EX_MODULE, "mlir_module_serialized", 1, &module);
  if (st) {
    hr_status_free(st);
    return false;
  }
  return name.present && module.present && module.count >= sizeof mlir_bytecode_magic &&
         memcmp(data + module.pos, mlir_bytecode_magic, sizeof mlir_bytecode_magic) == 0;
}

/* hr_module_parse_bytecode: a StableHLO portable artifact (MLIR bytecode of the VHLO dialect) read
 * into a verified module, as hr_module_parse reads the StableHLO text of the same module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/mlirbc/vhlo_internal.h"
#include "ir/shardy.h"

/* The index of dialect `name`, or -1. */
static int64_t find_dialect(const hr_bc_file *f, const char *name) {
  for (uint32_t i = 0; i < f->n_dialects; i++)
    if (strcmp(f->dialects[i].name.data, name) == 0) return i;
  return -1;
}

/* Allocates the per-entry and per-value tables of a conversion. */
static hr_status init_ctx(vhlo_ctx *c, hr_bc_file *f, hr_module *m, const hr_parse_options *opts) {
  memset(c, 0, sizeof *c);
  c->f = f;
  c->m = m;
  c->builtin = find_dialect(f, "builtin");
  c->vhlo = find_dialect(f, "vhlo");
  c->max_constant_bytes = opts && opts->max_constant_bytes ? opts->max_constant_bytes : HR_LIMIT_CONSTANT_BYTES;
  hr_arena *a = &f->arena; /* scratch: freed with the file */
  c->types = HR_ARENA_ARRAY(a, const vt *, (size_t)f->n_types + 1);
  c->attrs = HR_ARENA_ARRAY(a, hr_attr *, (size_t)f->n_attrs + 1);
  c->busy = HR_ARENA_ARRAY(a, uint8_t, (size_t)f->n_attrs + f->n_types + 1);
  c->values = HR_ARENA_ARRAY(a, hr_value *, (size_t)f->n_values + 1);
  if (!c->types || !c->attrs || !c->busy || !c->values)
    return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory for the bytecode's tables", f->filename);
  return NULL;
}

/* The newest StableHLO release whose artifacts this reader knows (VHLO op versions, types and
 * attribute codes up to it: vhlo_props.c, vhlo_types.c, vhlo_attrs.c). */
enum { NEWEST_MAJOR = 1, NEWEST_MINOR = 20 };

/* Refuses an artifact whose producer ("StableHLO_v1.21.0") is a StableHLO release newer than the
 * newest this reader knows, as StableHLO's own deserializer refuses artifacts from its future. */
static hr_status check_producer(const hr_bc_file *f, const void *data, size_t len) {
  const char *v = strstr(f->producer, "StableHLO_v");
  unsigned major, minor, patch;
  if (!v || sscanf(v + 11, "%u.%u.%u", &major, &minor, &patch) != 3) return NULL; /* another producer */
  if (major < NEWEST_MAJOR || (major == NEWEST_MAJOR && minor <= NEWEST_MINOR)) return NULL;
  const char *base = data;
  size_t offset = f->producer >= base && f->producer < base + len ? (size_t)(f->producer - base) : 0;
  return hr_error(HR_UNIMPLEMENTED, "%s: offset %zu: the artifact was written by StableHLO %u.%u.%u, newer than %d.%d, "
                  "the newest this reader knows", f->filename, offset, major, minor, patch, NEWEST_MAJOR, NEWEST_MINOR);
}

hr_status hr_module_parse_bytecode(const char *filename, const void *data, size_t len, const hr_parse_options *opts,
                                   hr_module **out) {
  return hr_bc_parse_module(filename, data, len, opts, false, out);
}

hr_status hr_bc_parse_module(const char *filename, const void *data, size_t len, const hr_parse_options *opts,
                             bool in_place, hr_module **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_module_parse_bytecode: `out` is NULL");
  *out = NULL;
  if (!data && len) return hr_error(HR_INVALID_ARGUMENT, "hr_module_parse_bytecode: `data` is NULL");
  const hr_allocator *a = opts && opts->allocator ? opts->allocator : hr_default_allocator();
  hr_bc_file *f;
  HR_TRY(hr_bc_read(filename, data, len, a, &f));
  hr_module *m = NULL;
  hr_status s = check_producer(f, data, len);
  if (!s) s = hr_module_new(a, filename, &m);
  vhlo_ctx c;
  if (!s) s = init_ctx(&c, f, m, opts);
  if (!s) c.in_place = in_place;
  if (!s && c.vhlo < 0) s = hr_error(HR_UNIMPLEMENTED, "%s: not a StableHLO portable artifact (no VHLO dialect; producer %s)", filename, f->producer);
  if (!s) s = vhlo_convert_module(&c);
  if (!s) s = hr_module_untuple_calls(m);
  if (!s) s = hr_sdy_import_round_trip(m);
  if (!s) s = hr_gspmd_import(m);
  if (!s && !(opts && opts->no_verify)) s = hr_module_verify(m);
  hr_bc_free(f);
  if (s) {
    hr_module_free(m);
    return s;
  }
  *out = m;
  return NULL;
}

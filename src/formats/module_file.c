/* hr_module_parse_file: a module file of any form JAX writes, told apart by its content: MLIR
 * bytecode (a StableHLO portable artifact, formats/mlirbc) by its magic, a serialized jax.export
 * Exported (formats/jaxexport) by its structure, else StableHLO text. For jax.export files the
 * calling convention is applied: the platform index bound, and the shape assertions dropped when
 * the export disabled them (they run, with JAX's messages, otherwise: interp.c). Dimension
 * variables need nothing here: @main computes them from its arguments' shapes. */
#include <string.h>
#include <strings.h>

#include "base/mapping.h"
#include "base/limits.h"
#include "formats/jaxexport/jaxexport.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/module_file.h"
#include "ir/ir.h"

/* A constant op of parameter 0's type (a scalar i32 or i64) holding `value`, first in f's body. */
static hr_status prepend_constant(hr_module *m, hr_func *f, int64_t value, hr_op **out) {
  hr_op *op = HR_ARENA_NEW(&m->arena, hr_op);
  hr_attr *a = hr_attr_new(m, HR_ATTR_DENSE);
  int64_t *data = HR_ARENA_NEW(&m->arena, int64_t);
  hr_named_attr *attrs = HR_ARENA_NEW(&m->arena, hr_named_attr);
  hr_value *result = HR_ARENA_NEW(&m->arena, hr_value);
  hr_op **ops = HR_ARENA_ARRAY(&m->arena, hr_op *, (size_t)f->body.n_ops + 1);
  if (!op || !a || !data || !attrs || !result || !ops) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  size_t bytes = hr_dtype_size(f->body.args[0].type.dtype);
  int32_t narrow = (int32_t)value;
  memcpy(data, bytes == 4 ? (const void *)&narrow : (const void *)&value, bytes);
  a->u.dense.type = f->body.args[0].type;
  a->u.dense.data = data;
  a->u.dense.nbytes = bytes;
  *attrs = (hr_named_attr){"value", a};
  *result = (hr_value){.type = f->body.args[0].type, .id = f->n_values++, .def = op};
  *op = (hr_op){.code = HR_OP_CONSTANT, .n_results = 1, .results = result, .n_attrs = 1, .attrs = attrs,
                .parent = &f->body, .loc = f->loc};
  ops[0] = op;
  if (f->body.n_ops) memcpy(ops + 1, f->body.ops, (size_t)f->body.n_ops * sizeof *ops);
  f->body.ops = ops;
  f->body.n_ops++;
  *out = op;
  return NULL;
}

hr_status hr_module_bind_platform(hr_module *m, const char *const *platforms, int n, const char *path) {
  hr_func *f = hr_module_find_func(m, "main");
  if (!f) return hr_error(HR_INVALID_ARGUMENT, "%s: the exported module has no @main", path);
  const hr_type *t = f->n_args ? &f->body.args[0].type : NULL;
  if (!t || t->kind != HR_TYPE_TENSOR || t->shape.rank != 0 || (t->dtype != HR_I32 && t->dtype != HR_I64))
    return hr_error(HR_INVALID_ARGUMENT, "%s: exported for %d platforms, @main does not take a platform index first",
                    path, n);
  int64_t index = 0;
  for (int i = 0; i < n; i++)
    if (strcasecmp(platforms[i], "cpu") == 0) index = i; /* jax.export writes "cpu", jax2tf "CPU" */
  hr_op *c = NULL;
  HR_TRY(prepend_constant(m, f, index, &c));
  hr_block_replace_uses(&f->body, &f->body.args[0], &c->results[0]);
  f->body.args++; /* the other parameters stay where they are: operands point at them */
  f->body.n_args--;
  f->n_args--;
  for (int i = 0; i < f->body.n_args; i++) f->body.args[i].index--;
  if (f->arg_attrs) f->arg_attrs++;
  return NULL;
}

/* Whether `op` is a @shape_assertion custom call. */
static bool is_shape_assertion(const hr_op *op) {
  const hr_attr *t = op->code == HR_OP_CUSTOM_CALL ? hr_op_attr(op, "call_target_name") : NULL;
  return t && t->kind == HR_ATTR_STRING && strcmp(t->u.str.data, "shape_assertion") == 0;
}

/* Removes the @shape_assertion calls (they have no results) from `b` and the regions in it. */
static void drop_shape_assertions(hr_block *b) {
  int kept = 0;
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int r = 0; r < op->n_regions; r++) drop_shape_assertions(&op->regions[r]);
    if (!is_shape_assertion(op) || op->n_results) b->ops[kept++] = op;
  }
  b->n_ops = kept;
}

void hr_module_drop_shape_assertions(hr_module *m) {
  for (int i = 0; i < m->n_funcs; i++) drop_shape_assertions(&m->funcs[i]->body);
}

/* Whether the export disabled its shape assertions (disabled_safety_checks "shape_assertions"). */
static bool assertions_disabled(const hr_jaxexport *e) {
  for (int i = 0; i < e->num_disabled_checks; i++)
    if (e->disabled_checks[i].kind == 2) return true;
  return false;
}

/* Reads the module of a jax.export file and applies its calling convention. */
static hr_status parse_exported(const char *path, const uint8_t *data, size_t len, const hr_parse_options *opts,
                                hr_module **out) {
  const hr_allocator *a = opts && opts->allocator ? opts->allocator : hr_default_allocator();
  hr_jaxexport *e;
  HR_TRY(hr_jaxexport_read(path, data, len, a, &e));
  hr_status s = hr_bc_parse_module(path, e->module, e->module_size, opts, true, out);
  if (!s && e->num_platforms > 1) {
    s = hr_module_bind_platform(*out, (const char *const *)e->platforms, e->num_platforms, path);
    if (!s && !(opts && opts->no_verify)) s = hr_module_verify(*out);
  }
  if (!s && assertions_disabled(e)) hr_module_drop_shape_assertions(*out);
  if (s && *out) {
    hr_module_free(*out);
    *out = NULL;
  }
  hr_jaxexport_free(e);
  return s;
}

hr_status hr_module_parse_file(const char *path, const hr_parse_options *opts, hr_module **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_module_parse_file: `out` is NULL");
  *out = NULL;
  if (!path) return hr_error(HR_INVALID_ARGUMENT, "hr_module_parse_file: `path` is NULL");
  /* The file is mapped, not read: a portable artifact's large constants stay where they are in it
   * and the module keeps the mapping; text is copied into the module as it is parsed. */
  void *data;
  size_t len;
  HR_TRY(hr_map_file(path, HR_LIMIT_MODULE_FILE_BYTES, &data, &len));
  const uint8_t *bytes = data;
  bool binary = hr_bc_sniff(bytes, len);
  hr_status s = binary                           ? hr_bc_parse_module(path, data, len, opts, true, out)
                : hr_jaxexport_sniff(bytes, len) ? (binary = true, parse_exported(path, bytes, len, opts, out))
                                                 : hr_module_parse(path, data ? data : "", len, opts, out);
  if (!s && binary) {
    (*out)->backing = data;
    (*out)->backing_len = len;
    (*out)->release = hr_unmap_file;
  } else if (data) {
    hr_unmap_file(data, len);
  }
  return s;
}

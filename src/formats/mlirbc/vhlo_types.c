/* Types of a portable artifact: the builtin dialect's and VHLO's encodings (each entry starts with
 * a varint code) decoded into vt (vhlo_internal.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "formats/mlirbc/vhlo_internal.h"

hr_status vhlo_entry_error(const vhlo_ctx *c, const hr_bc_entry *e, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  hr_bc_cursor at = hr_bc_entry_cursor(c->f, e->data, e->len);
  return hr_bc_error(&at, "%s", msg);
}

/* A new decoded type in the module's arena. */
static vt *new_vt(vhlo_ctx *c, vt_kind kind) {
  vt *t = HR_ARENA_NEW(&c->m->arena, vt);
  if (t) t->kind = kind;
  return t;
}

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory reading bytecode types"); }

/* An element type. */
static hr_status elem(vhlo_ctx *c, hr_dtype dtype, int bits, const char *name, const vt **out) {
  vt *t = new_vt(c, VT_ELEM);
  if (!t) return oom();
  t->dtype = dtype;
  t->bits = bits;
  t->name = name;
  *out = t;
  return NULL;
}

/* A type hlorun has no form for (decoding it is no error; using it as a value type is). */
static hr_status other(vhlo_ctx *c, const char *name, const vt **out) {
  vt *t = new_vt(c, VT_OTHER);
  if (!t) return oom();
  t->name = name;
  *out = t;
  return NULL;
}

/* Reads a type reference and decodes it. */
static hr_status type_ref(vhlo_ctx *c, hr_bc_cursor *cur, const vt **out) {
  uint32_t i;
  HR_TRY(hr_bc_index(cur, c->f->n_types, "type index", &i));
  return vhlo_type(c, i, out);
}

/* Reads a list of type references into value types (function inputs/outputs, tuple elements). */
static hr_status value_type_list(vhlo_ctx *c, hr_bc_cursor *cur, int *n, hr_type **types) {
  uint64_t count;
  HR_TRY(hr_bc_varint(cur, &count));
  if (count > (uint64_t)(cur->end - cur->p)) return hr_bc_error(cur, "a list of %llu types overruns its entry", (unsigned long long)count);
  *n = (int)count;
  *types = count ? HR_ARENA_ARRAY(&c->m->arena, hr_type, count) : NULL;
  if (count && !*types) return oom();
  for (uint64_t k = 0; k < count; k++) {
    uint32_t i;
    HR_TRY(hr_bc_index(cur, c->f->n_types, "type index", &i));
    HR_TRY(vhlo_value_type(c, i, &(*types)[k]));
  }
  return NULL;
}

/* A ranked tensor: a list of signed dims (INT64_MIN: dynamic) and an element type. */
static hr_status ranked_tensor(vhlo_ctx *c, hr_bc_cursor *cur, bool with_encoding, const vt **out) {
  if (with_encoding) {
    uint32_t enc; /* bounds of bounded dynamism, or a layout: no semantic effect here */
    HR_TRY(hr_bc_index(cur, c->f->n_attrs, "attribute index", &enc));
  }
  uint64_t rank;
  HR_TRY(hr_bc_varint(cur, &rank));
  if (rank > HR_MAX_RANK) return hr_bc_error(cur, "tensor rank %llu exceeds %d", (unsigned long long)rank, HR_MAX_RANK);
  int64_t dims[HR_MAX_RANK];
  for (uint64_t d = 0; d < rank; d++) {
    HR_TRY(hr_bc_svarint(cur, &dims[d]));
    if (dims[d] == INT64_MIN) dims[d] = HR_DYNAMIC;
    else if (dims[d] < 0) return hr_bc_error(cur, "tensor dimension %lld is negative", (long long)dims[d]);
  }
  const vt *e;
  HR_TRY(type_ref(c, cur, &e));
  bool is_index = e->kind == VT_INDEX; /* layouts (tensor<2xindex>) and shapes: held as i64 */
  if (!is_index && (e->kind != VT_ELEM || e->dtype == HR_DTYPE_INVALID))
    return hr_bc_error(cur, "tensor element type %s is not supported", e->name ? e->name : "(not an element type)");
  vt *t = new_vt(c, VT_TENSOR);
  if (!t) return oom();
  t->type = hr_tensor_type(is_index ? HR_I64 : e->dtype, (int)rank, dims);
  t->index_elems = is_index;
  *out = t;
  return NULL;
}

/* A tuple of value types. */
static hr_status tuple(vhlo_ctx *c, hr_bc_cursor *cur, const vt **out) {
  vt *t = new_vt(c, VT_TUPLE);
  if (!t) return oom();
  t->type.kind = HR_TYPE_TUPLE;
  HR_TRY(value_type_list(c, cur, &t->type.n_elems, &t->type.elems));
  *out = t;
  return NULL;
}

/* A function type: inputs, then results. */
static hr_status function(vhlo_ctx *c, hr_bc_cursor *cur, const vt **out) {
  vt *t = new_vt(c, VT_FUNC);
  if (!t) return oom();
  HR_TRY(value_type_list(c, cur, &t->n_in, &t->in));
  HR_TRY(value_type_list(c, cur, &t->n_out, &t->out));
  *out = t;
  return NULL;
}

/* A complex type of f32 or f64. */
static hr_status complex(vhlo_ctx *c, hr_bc_cursor *cur, const vt **out) {
  const vt *e;
  HR_TRY(type_ref(c, cur, &e));
  if (e->kind == VT_ELEM && e->dtype == HR_F32) return elem(c, HR_C64, 64, NULL, out);
  if (e->kind == VT_ELEM && e->dtype == HR_F64) return elem(c, HR_C128, 128, NULL, out);
  return elem(c, HR_DTYPE_INVALID, 0, "complex of another element type", out);
}

/* An integer type of `bits` bits, signed (or signless) or unsigned. */
static hr_status integer(vhlo_ctx *c, hr_bc_cursor *cur, uint64_t bits, bool is_unsigned, const vt **out) {
  static const struct {
    uint64_t bits;
    hr_dtype s, u;
  } widths[] = {{2, HR_I2, HR_U2}, {4, HR_I4, HR_U4}, {8, HR_I8, HR_U8}, {16, HR_I16, HR_U16}, {32, HR_I32, HR_U32}, {64, HR_I64, HR_U64}};
  if (bits == 1 && !is_unsigned) return elem(c, HR_I1, 1, NULL, out);
  for (size_t i = 0; i < sizeof widths / sizeof *widths; i++)
    if (widths[i].bits == bits) return elem(c, is_unsigned ? widths[i].u : widths[i].s, (int)bits, NULL, out);
  (void)cur;
  return elem(c, HR_DTYPE_INVALID, 0, "an integer of an unsupported width", out);
}

/* The builtin dialect's types (BuiltinDialectBytecode.td). */
static hr_status builtin_type(vhlo_ctx *c, hr_bc_cursor *cur, uint64_t code, const vt **out) {
  switch (code) {
    case 0: {
      uint64_t w;
      HR_TRY(hr_bc_varint(cur, &w));
      return integer(c, cur, w >> 2, (w & 3) == 2, out);
    }
    case 1: {
      vt *t = new_vt(c, VT_INDEX);
      if (!t) return oom();
      t->bits = 64;
      *out = t;
      return NULL;
    }
    case 2: return function(c, cur, out);
    case 3: return elem(c, HR_BF16, 16, NULL, out);
    case 4: return elem(c, HR_F16, 16, NULL, out);
    case 5: return elem(c, HR_F32, 32, NULL, out);
    case 6: return elem(c, HR_F64, 64, NULL, out);
    case 7: return elem(c, HR_DTYPE_INVALID, 80, "f80", out);
    case 8: return elem(c, HR_DTYPE_INVALID, 128, "f128", out);
    case 9: return complex(c, cur, out);
    case 12: {
      vt *t = new_vt(c, VT_NONE);
      if (!t) return oom();
      *out = t;
      return NULL;
    }
    case 13: return ranked_tensor(c, cur, false, out);
    case 14: return ranked_tensor(c, cur, true, out);
    case 15: return tuple(c, cur, out);
    default: return other(c, "a builtin type hlorun does not support (memref, vector, unranked tensor, ...)", out);
  }
}

/* VHLO's float types hlorun lacks, by code. */
static const char *vhlo_float_name(uint64_t code) {
  switch (code) {
    case 6: return "f8E4M3FN";
    case 7: return "f8E5M2";
    case 27: return "f8E4M3FNUZ";
    case 28: return "f8E5M2FNUZ";
    case 29: return "f8E4M3B11FNUZ";
    case 34: return "tf32";
    case 35: return "f8E4M3";
    case 36: return "f8E3M4";
    case 37: return "f4E2M1FN";
    case 38: return "f6E2M3FN";
    case 39: return "f6E3M2FN";
    case 40: return "f8E8M0FNU";
    default: return NULL;
  }
}

/* VHLO's types (VhloBytecode.cpp). Its SI types are StableHLO's signless integers. */
static hr_status vhlo_type_code(vhlo_ctx *c, hr_bc_cursor *cur, uint64_t code, const vt **out) {
  static const struct {
    uint64_t code;
    hr_dtype dtype;
    int bits;
  } scalars[] = {{0, HR_I1, 1},    {2, HR_BF16, 16}, {3, HR_F16, 16}, {4, HR_F32, 32},  {5, HR_F64, 64},
                 {10, HR_I4, 4},   {11, HR_I8, 8},   {12, HR_I16, 16}, {13, HR_I32, 32}, {14, HR_I64, 64},
                 {15, HR_U4, 4},   {16, HR_U8, 8},   {17, HR_U16, 16}, {18, HR_U32, 32}, {19, HR_U64, 64},
                 {31, HR_I2, 2},   {32, HR_U2, 2}};
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
    if (scalars[i].code == code) return elem(c, scalars[i].dtype, scalars[i].bits, NULL, out);
  const char *fname = vhlo_float_name(code);
  if (fname) return elem(c, HR_DTYPE_INVALID, 8, fname, out);
  switch (code) {
    case 1: return complex(c, cur, out);
    case 8: return function(c, cur, out);
    case 9: {
      vt *t = new_vt(c, VT_INDEX);
      if (!t) return oom();
      t->bits = 64;
      *out = t;
      return NULL;
    }
    case 20: return ranked_tensor(c, cur, false, out);
    case 21: return ranked_tensor(c, cur, true, out);
    case 22: {
      vt *t = new_vt(c, VT_TOKEN);
      if (!t) return oom();
      t->type.kind = HR_TYPE_TOKEN;
      *out = t;
      return NULL;
    }
    case 23: return tuple(c, cur, out);
    case 24:
    case 30: return other(c, "a quantized type", out);
    case 25: return other(c, "an unranked tensor", out);
    case 26: return other(c, "!vhlo.witness", out);
    case 33: {
      vt *t = new_vt(c, VT_NONE);
      if (!t) return oom();
      *out = t;
      return NULL;
    }
    case 41: return other(c, "a buffer type", out);
    case 42: return other(c, "a future type", out);
    default: return hr_bc_error(cur, "unknown VHLO type code %llu (a newer StableHLO release?)", (unsigned long long)code);
  }
}

/* Decodes entry `e` of a dialect with a custom encoding. */
static hr_status decode_type(vhlo_ctx *c, const hr_bc_entry *e, const vt **out) {
  hr_bc_cursor cur = hr_bc_entry_cursor(c->f, e->data, e->len);
  if (!e->custom) {
    const char *text;
    size_t len;
    HR_TRY(hr_bc_cstring(&cur, &text, &len));
    return other(c, text, out);
  }
  uint64_t code;
  HR_TRY(hr_bc_varint(&cur, &code));
  if ((int64_t)e->dialect == c->builtin) return builtin_type(c, &cur, code, out);
  if ((int64_t)e->dialect == c->vhlo) return vhlo_type_code(c, &cur, code, out);
  return other(c, c->f->dialects[e->dialect].name.data, out);
}

hr_status vhlo_type(vhlo_ctx *c, uint32_t i, const vt **out) {
  if (c->types[i]) {
    *out = c->types[i];
    return NULL;
  }
  const hr_bc_entry *e = &c->f->types[i];
  uint8_t *busy = &c->busy[c->f->n_attrs + i];
  if (*busy) return vhlo_entry_error(c, e, "type %u refers to itself", i);
  if (c->depth >= HR_LIMIT_NESTING_DEPTH)
    return vhlo_entry_error(c, e, "types and attributes nest deeper than %d", HR_LIMIT_NESTING_DEPTH);
  *busy = 1;
  c->depth++;
  hr_status s = decode_type(c, e, out);
  c->depth--;
  *busy = 0;
  if (!s) c->types[i] = *out;
  return s;
}

hr_status vhlo_value_type(vhlo_ctx *c, uint32_t i, hr_type *out) {
  const vt *t;
  HR_TRY(vhlo_type(c, i, &t));
  if (t->kind == VT_TENSOR && t->index_elems)
    return vhlo_entry_error(c, &c->f->types[i], "values of type tensor<...xindex> are not supported");
  if (t->kind == VT_TENSOR || t->kind == VT_TOKEN || t->kind == VT_TUPLE) {
    *out = t->type;
    return NULL;
  }
  const char *what = t->name ? t->name : t->kind == VT_INDEX ? "index" : t->kind == VT_FUNC ? "a function type"
                                                                                             : "a scalar element type";
  return vhlo_entry_error(c, &c->f->types[i], "values of type %s are not supported", what);
}

/* Types of a portable artifact: the builtin dialect's and VHLO's encodings (each entry starts with
 * a varint code) decoded into vt (vhlo_internal.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "base/numeric.h"
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

/* The index type. */
static hr_status index_type(vhlo_ctx *c, const vt **out) {
  vt *t = new_vt(c, VT_INDEX);
  if (!t) return oom();
  t->dtype = HR_INDEX;
  t->bits = 64;
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

/* The bounds of a tensor encoding: attribute entry `enc` must be VHLO's TypeExtensionsV1 (code 18,
 * a list of signed bounds, INT64_MIN for '?'), one per dimension of a rank-`rank` tensor. */
static hr_status encoding_bounds(vhlo_ctx *c, hr_bc_cursor *at, uint32_t enc, int rank, const int64_t **out) {
  const hr_bc_entry *e = &c->f->attrs[enc];
  hr_bc_cursor cur = hr_bc_entry_cursor(c->f, e->data, e->len);
  uint64_t code = 0, n = 0;
  if (!e->custom || (int64_t)e->dialect != c->vhlo || hr_bc_varint(&cur, &code) || code != 18)
    return hr_bc_error(at, "a tensor encoding other than #stablehlo.type_extensions (bounds) is not supported");
  HR_TRY(hr_bc_varint(&cur, &n));
  if (n != (uint64_t)rank) return hr_bc_error(at, "%llu bounds for a tensor of rank %d", (unsigned long long)n, rank);
  int64_t *bounds = HR_ARENA_ARRAY(&c->m->arena, int64_t, rank ? (size_t)rank : 1);
  if (!bounds) return oom();
  for (int d = 0; d < rank; d++) {
    HR_TRY(hr_bc_svarint(&cur, &bounds[d]));
    if (bounds[d] == INT64_MIN) bounds[d] = HR_DYNAMIC;
    else if (bounds[d] < 0) return hr_bc_error(at, "a negative bound %lld", (long long)bounds[d]);
  }
  *out = bounds;
  return NULL;
}

/* A ranked tensor: an encoding (bounds) when `with_encoding`, a list of signed dims (INT64_MIN:
 * dynamic) and an element type (a plain, index or quantized one). */
static hr_status ranked_tensor(vhlo_ctx *c, hr_bc_cursor *cur, bool with_encoding, const vt **out) {
  uint32_t enc = 0;
  if (with_encoding) HR_TRY(hr_bc_index(cur, c->f->n_attrs, "attribute index", &enc));
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
  bool elem = e->kind == VT_INDEX || e->kind == VT_QUANT || (e->kind == VT_ELEM && e->dtype != HR_DTYPE_INVALID);
  if (!elem) return hr_bc_error(cur, "tensor element type %s is not supported", e->name ? e->name : "(not an element type)");
  vt *t = new_vt(c, VT_TENSOR);
  if (!t) return oom();
  t->type = hr_tensor_type(e->dtype, (int)rank, dims);
  t->type.quant = e->quant;
  if (e->quant && e->quant->axis >= 0 &&
      (e->quant->axis >= (int)rank || (dims[e->quant->axis] >= 0 && dims[e->quant->axis] != e->quant->n)))
    return hr_bc_error(cur, "the per-axis scales do not match the quantized dimension %d", (int)e->quant->axis);
  if (with_encoding) HR_TRY(encoding_bounds(c, cur, enc, (int)rank, &t->type.bounds));
  *out = t;
  return NULL;
}

/* A ranked buffer (memref): a list of signed dims and a plain element type. */
static hr_status ranked_buffer(vhlo_ctx *c, hr_bc_cursor *cur, const vt **out) {
  const vt *t;
  HR_TRY(ranked_tensor(c, cur, false, &t));
  if (t->type.quant) return hr_bc_error(cur, "a buffer of quantized elements");
  vt *b = new_vt(c, VT_TENSOR);
  if (!b) return oom();
  *b = *t;
  b->type.kind = HR_TYPE_BUFFER;
  *out = b;
  return NULL;
}

/* The storage type, expressed type and signedness flags of a quantized type, into q. */
static hr_status quant_types(vhlo_ctx *c, hr_bc_cursor *cur, hr_quant *q) {
  uint64_t flags;
  const vt *storage, *expressed;
  HR_TRY(hr_bc_varint(cur, &flags));
  HR_TRY(type_ref(c, cur, &storage));
  HR_TRY(type_ref(c, cur, &expressed));
  bool is_signed = flags & 1;
  static const struct {
    int bits;
    hr_dtype s, u;
  } widths[] = {{2, HR_I2, HR_U2}, {4, HR_I4, HR_U4}, {8, HR_I8, HR_U8}, {16, HR_I16, HR_U16}, {32, HR_I32, HR_U32}, {64, HR_I64, HR_U64}};
  q->storage = HR_DTYPE_INVALID;
  for (size_t i = 0; storage->kind == VT_ELEM && i < sizeof widths / sizeof *widths; i++)
    if (widths[i].bits == storage->bits && storage->dtype != HR_I1 && !hr_dtype_is_float(storage->dtype) &&
        !hr_dtype_is_narrow_float(storage->dtype))
      q->storage = is_signed ? widths[i].s : widths[i].u;
  if (q->storage == HR_DTYPE_INVALID) return hr_bc_error(cur, "a quantized type whose storage type is not an integer");
  if (expressed->kind != VT_ELEM || !hr_dtype_is_float(expressed->dtype))
    return hr_bc_error(cur, "a quantized type whose expressed type is not f16, bf16, f32 or f64");
  q->expressed = expressed->dtype;
  return NULL;
}

/* Reads a quantized type's storage range and checks it against its storage type. */
static hr_status quant_range(hr_bc_cursor *cur, hr_quant *q) {
  int64_t min, max;
  hr_dtype_int_range(q->storage, &min, &max);
  HR_TRY(hr_bc_svarint(cur, &q->storage_min));
  HR_TRY(hr_bc_svarint(cur, &q->storage_max));
  if (q->storage_min < min || q->storage_max > max || q->storage_min > q->storage_max)
    return hr_bc_error(cur, "storage range [%lld, %lld] is not within the storage type's", (long long)q->storage_min,
                       (long long)q->storage_max);
  return NULL;
}

/* A quantized element type: UniformQuantizedV1 (flags, storage, expressed, scale, zero point,
 * range) or, `per_axis`, UniformQuantizedPerAxisV1 (flags, storage, expressed, axis, range, scales,
 * zero points). Scales are f64 APFloats. */
static hr_status quantized(vhlo_ctx *c, hr_bc_cursor *cur, bool per_axis, const vt **out) {
  hr_quant *q = HR_ARENA_NEW(&c->m->arena, hr_quant);
  vt *t = new_vt(c, VT_QUANT);
  if (!q || !t) return oom();
  HR_TRY(quant_types(c, cur, q));
  uint64_t n = 1, axis = 0;
  int64_t single_zp = 0, bits;
  double single_scale = 0;
  if (per_axis) {
    HR_TRY(hr_bc_varint(cur, &axis));
    if (axis >= HR_MAX_RANK) return hr_bc_error(cur, "quantized dimension %llu", (unsigned long long)axis);
    HR_TRY(quant_range(cur, q));
    HR_TRY(hr_bc_varint(cur, &n));
    if (n == 0 || n > (uint64_t)(cur->end - cur->p)) return hr_bc_error(cur, "a list of %llu scales", (unsigned long long)n);
  } else {
    HR_TRY(vhlo_read_apint(cur, 64, false, &bits));
    single_scale = hr_bits_f64((uint64_t)bits);
    HR_TRY(hr_bc_svarint(cur, &single_zp));
    HR_TRY(quant_range(cur, q));
  }
  double *scales = HR_ARENA_ARRAY(&c->m->arena, double, n);
  int64_t *zps = HR_ARENA_ARRAY(&c->m->arena, int64_t, n);
  if (!scales || !zps) return oom();
  scales[0] = single_scale;
  zps[0] = single_zp;
  for (uint64_t i = 0; per_axis && i < n; i++) {
    HR_TRY(vhlo_read_apint(cur, 64, false, &bits));
    scales[i] = hr_bits_f64((uint64_t)bits);
  }
  if (per_axis) {
    uint64_t nz;
    HR_TRY(hr_bc_varint(cur, &nz));
    if (nz != n) return hr_bc_error(cur, "%llu zero points for %llu scales", (unsigned long long)nz, (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++) HR_TRY(hr_bc_svarint(cur, &zps[i]));
  }
  for (uint64_t i = 0; i < n; i++)
    if (zps[i] < q->storage_min || zps[i] > q->storage_max)
      return hr_bc_error(cur, "zero point %lld is outside the storage range", (long long)zps[i]);
  q->axis = per_axis ? (int32_t)axis : -1;
  q->n = (int32_t)n;
  q->scales = scales;
  q->zero_points = zps;
  t->quant = q;
  t->dtype = q->storage;
  *out = t;
  return NULL;
}

/* A tuple (or a future, `kind` VT_FUTURE) of value types. */
static hr_status tuple(vhlo_ctx *c, hr_bc_cursor *cur, vt_kind kind, const vt **out) {
  vt *t = new_vt(c, kind);
  if (!t) return oom();
  t->type.kind = kind == VT_FUTURE ? HR_TYPE_FUTURE : HR_TYPE_TUPLE;
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
    case 1: return index_type(c, out);
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
    case 15: return tuple(c, cur, VT_TUPLE, out);
    default: return other(c, "a builtin type hlorun does not support (memref, vector, unranked tensor, ...)", out);
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
                 {31, HR_I2, 2},   {32, HR_U2, 2},
                 {6, HR_F8E4M3FN, 8},        {7, HR_F8E5M2, 8},    {27, HR_F8E4M3FNUZ, 8}, {28, HR_F8E5M2FNUZ, 8},
                 {29, HR_F8E4M3B11FNUZ, 8},  {34, HR_TF32, 19},    {35, HR_F8E4M3, 8},     {36, HR_F8E3M4, 8},
                 {37, HR_F4E2M1FN, 4},       {38, HR_F6E2M3FN, 6}, {39, HR_F6E3M2FN, 6},   {40, HR_F8E8M0FNU, 8}};
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
    if (scalars[i].code == code) return elem(c, scalars[i].dtype, scalars[i].bits, NULL, out);
  switch (code) {
    case 1: return complex(c, cur, out);
    case 8: return function(c, cur, out);
    case 9: return index_type(c, out);
    case 20: return ranked_tensor(c, cur, false, out);
    case 21: return ranked_tensor(c, cur, true, out);
    case 22: {
      vt *t = new_vt(c, VT_TOKEN);
      if (!t) return oom();
      t->type.kind = HR_TYPE_TOKEN;
      *out = t;
      return NULL;
    }
    case 23: return tuple(c, cur, VT_TUPLE, out);
    case 24: return quantized(c, cur, false, out);
    case 30: return quantized(c, cur, true, out);
    case 25: return other(c, "an unranked tensor", out);
    case 26: return other(c, "!vhlo.witness", out);
    case 33: {
      vt *t = new_vt(c, VT_NONE);
      if (!t) return oom();
      *out = t;
      return NULL;
    }
    case 41: return ranked_buffer(c, cur, out);
    case 42: return tuple(c, cur, VT_FUTURE, out);
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
  if (t->kind == VT_TENSOR || t->kind == VT_TOKEN || t->kind == VT_TUPLE || t->kind == VT_FUTURE) {
    *out = t->type;
    return NULL;
  }
  const char *what = t->name ? t->name : t->kind == VT_INDEX ? "index" : t->kind == VT_FUNC ? "a function type"
                                                                                             : "a scalar element type";
  return vhlo_entry_error(c, &c->f->types[i], "values of type %s are not supported", what);
}

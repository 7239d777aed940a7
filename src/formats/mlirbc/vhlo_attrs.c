/* Attributes of a portable artifact: the builtin dialect's and VHLO's encodings decoded into the
 * IR's hr_attr, in the form the text parser gives the StableHLO spelling of the same attribute
 * (VHLO enums become #stablehlo<...> ENUMs, TensorV1 a DENSE, IntegerV1 a typed INT ...). The
 * op-specific reshaping (lists that StableHLO keeps as array<i64>, grouped dimension numbers,
 * defaults dropped) is vhlo_ops.c's. */
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "base/numeric.h"
#include "base/strbuf.h"
#include "formats/mlirbc/vhlo_internal.h"

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory reading bytecode attributes"); }

/* ---------------------------------------------------------------------------------------------- */
/* Scalars                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

hr_status vhlo_read_apint(hr_bc_cursor *cur, int bits, bool is_signed, int64_t *out) {
  uint64_t u = 0;
  if (bits <= 8) {
    uint8_t b;
    HR_TRY(hr_bc_byte(cur, &b));
    u = b;
  } else if (bits <= 64) {
    int64_t v;
    HR_TRY(hr_bc_svarint(cur, &v));
    u = (uint64_t)v;
  } else {
    return hr_bc_error(cur, "integers of %d bits are not supported", bits);
  }
  if (bits < 64) {
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    u &= mask;
    if (is_signed && bits > 1 && (u >> (bits - 1)) & 1) u |= ~mask;
  }
  *out = (int64_t)u;
  return NULL;
}

/* An APFloat of element type `dtype`: the APInt of its bit pattern. */
static hr_status read_apfloat(hr_bc_cursor *cur, hr_dtype dtype, double *out) {
  int64_t bits = 0;
  if (!hr_dtype_is_real_float(dtype)) return hr_bc_error(cur, "floats of type %s are not supported", hr_dtype_name(dtype));
  HR_TRY(vhlo_read_apint(cur, hr_float_pattern_bits(dtype), false, &bits));
  *out = hr_float_from_pattern(dtype, (uint64_t)bits);
  return NULL;
}

/* Reads an attribute reference and decodes it. */
static hr_status attr_ref(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  uint32_t i;
  HR_TRY(hr_bc_index(cur, c->f->n_attrs, "attribute index", &i));
  HR_TRY(vhlo_attr(c, i, out));
  if (!*out) return hr_bc_error(cur, "a location where an attribute value belongs");
  return NULL;
}

/* Reads a type reference and decodes it. */
static hr_status type_ref(vhlo_ctx *c, hr_bc_cursor *cur, const vt **out) {
  uint32_t i;
  HR_TRY(hr_bc_index(cur, c->f->n_types, "type index", &i));
  return vhlo_type(c, i, out);
}

/* An integer attribute: a type reference, then the value. i1 integers are BOOLs, index ones INTs
 * marked is_index, as the parser makes `true` and `3 : index`. */
static hr_status integer_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  const vt *t;
  HR_TRY(type_ref(c, cur, &t));
  if (t->kind != VT_INDEX && (t->kind != VT_ELEM || t->dtype == HR_DTYPE_INVALID || hr_dtype_is_real_float(t->dtype) ||
                              hr_dtype_is_complex(t->dtype)))
    return hr_bc_error(cur, "an integer attribute of a non-integer type");
  int64_t v = 0;
  HR_TRY(vhlo_read_apint(cur, t->bits, t->kind == VT_INDEX || !hr_dtype_is_unsigned_int(t->dtype), &v));
  hr_attr *a = hr_attr_new(c->m, t->kind == VT_ELEM && t->dtype == HR_I1 ? HR_ATTR_BOOL : HR_ATTR_INT);
  if (!a) return oom();
  if (a->kind == HR_ATTR_BOOL) {
    a->u.b = v != 0;
  } else {
    a->u.i.value = v;
    a->u.i.dtype = t->kind == VT_INDEX ? HR_I64 : t->dtype;
    a->u.i.is_index = t->kind == VT_INDEX;
  }
  *out = a;
  return NULL;
}

/* A float attribute: a type reference, then the value. */
static hr_status float_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  const vt *t;
  HR_TRY(type_ref(c, cur, &t));
  if (t->kind != VT_ELEM || !hr_dtype_is_real_float(t->dtype)) return hr_bc_error(cur, "a float attribute of a non-float type");
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_FLOAT);
  if (!a) return oom();
  a->u.f.dtype = t->dtype;
  HR_TRY(read_apfloat(cur, t->dtype, &a->u.f.value));
  *out = a;
  return NULL;
}

/* A type as an attribute value (builtin TypeAttr, VHLO TypeV1): a value type, a bare element type
 * (`accumulation_type = f32`) or none (also what an absent optional type is written as). */
static hr_status type_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  uint32_t i;
  const vt *t;
  HR_TRY(hr_bc_index(cur, c->f->n_types, "type index", &i));
  HR_TRY(vhlo_type(c, i, &t));
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_TYPE);
  if (!a) return oom();
  if (t->kind == VT_NONE) {
    a->u.type.kind = HR_TYPE_NONE;
  } else if ((t->kind == VT_ELEM && t->dtype != HR_DTYPE_INVALID) || t->kind == VT_INDEX || t->kind == VT_QUANT) {
    a->u.type.kind = HR_TYPE_ELEMENT;
    a->u.type.dtype = t->dtype;
    a->u.type.quant = t->quant;
  } else {
    HR_TRY(vhlo_value_type(c, i, &a->u.type));
  }
  *out = a;
  return NULL;
}

/* A string (a string-table reference) as a STRING or SYMBOL attribute. */
static hr_status string_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr_kind kind, hr_attr **out) {
  uint32_t i;
  HR_TRY(hr_bc_index(cur, c->f->n_strings, "string index", &i));
  hr_attr *a = hr_attr_new(c->m, kind);
  if (!a || !(a->u.str.data = hr_arena_strndup(&c->m->arena, c->f->strings[i].data, c->f->strings[i].len))) return oom();
  a->u.str.len = c->f->strings[i].len;
  *out = a;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Aggregates                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* A count of items that each take at least one byte of the entry. */
static hr_status item_count(hr_bc_cursor *cur, uint64_t *n) {
  HR_TRY(hr_bc_varint(cur, n));
  if (*n > (uint64_t)(cur->end - cur->p) || *n > INT32_MAX)
    return hr_bc_error(cur, "a list of %llu items overruns its entry", (unsigned long long)*n);
  return NULL;
}

/* An ARRAY of the item count read at the cursor, its items still to be filled. */
static hr_status counted_array(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  uint64_t n;
  HR_TRY(item_count(cur, &n));
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_ARRAY);
  hr_attr **items = HR_ARENA_ARRAY(&c->m->arena, hr_attr *, n ? n : 1);
  if (!a || !items) return oom();
  a->u.array.n = (int)n;
  a->u.array.items = items;
  *out = a;
  return NULL;
}

/* A list of attribute references as an ARRAY. */
static hr_status array_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  HR_TRY(counted_array(c, cur, out));
  for (int k = 0; k < (*out)->u.array.n; k++) HR_TRY(attr_ref(c, cur, &(*out)->u.array.items[k]));
  return NULL;
}

/* A list of (name, value) attribute reference pairs as a DICT; names are string attributes. */
static hr_status dict_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  uint64_t n;
  HR_TRY(item_count(cur, &n));
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_DICT);
  hr_named_attr *e = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, n ? n : 1);
  if (!a || !e) return oom();
  for (uint64_t k = 0; k < n; k++) {
    hr_attr *name;
    HR_TRY(attr_ref(c, cur, &name));
    if (name->kind != HR_ATTR_STRING) return hr_bc_error(cur, "a dictionary key that is not a string");
    e[k].name = name->u.str.data;
    HR_TRY(attr_ref(c, cur, &e[k].value));
  }
  a->u.dict.n = (int)n;
  a->u.dict.entries = e;
  *out = a;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Dense elements                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* Copies MLIR's dense storage of `n` elements of `dtype` into the IR's layout at `dst`: i1 bit-packed
 * (LSB first) when the blob is that size, else a byte each; sub-byte integers a byte each,
 * sign-extended for signed types; everything else as stored. `raw_n` is how many elements the
 * blob holds (1 for a splat). */
static void copy_elements(hr_dtype dtype, const uint8_t *blob, size_t len, int64_t raw_n, uint8_t *dst) {
  if (dtype == HR_I1) {
    bool packed = (size_t)((raw_n + 7) / 8) == len && len != (size_t)raw_n;
    for (int64_t i = 0; i < raw_n; i++) dst[i] = packed ? (blob[i / 8] >> (i % 8)) & 1 : blob[i] != 0;
    return;
  }
  if (dtype == HR_I2 || dtype == HR_I4) {
    int bits = dtype == HR_I2 ? 2 : 4;
    for (int64_t i = 0; i < raw_n; i++) {
      uint8_t u = blob[i] & (uint8_t)((1u << bits) - 1);
      dst[i] = (u >> (bits - 1)) & 1 ? (uint8_t)(u | (uint8_t)(0xFFu << bits)) : u;
    }
    return;
  }
  if (dtype == HR_TF32) { /* 3-byte 19-bit patterns to float32 patterns */
    for (int64_t i = 0; i < raw_n; i++)
      hr_float_store_pattern(dtype, (uint64_t)blob[3 * i] | (uint64_t)blob[3 * i + 1] << 8 | (uint64_t)blob[3 * i + 2] << 16,
                             dst + 4 * i);
    return;
  }
  memcpy(dst, blob, len);
}

/* Whether the `nbytes` stored at `blob` can be a constant's data where they are: the file outlives
 * the module, they are the IR's layout (not i1, sub-byte integers or tf32, which are converted),
 * large enough to be worth it, and aligned for their elements (blobs sit at any offset). */
static bool in_place(const vhlo_ctx *c, hr_dtype dt, const uint8_t *blob, size_t nbytes) {
  if (!c->in_place || nbytes < HR_LIMIT_IN_PLACE_CONSTANT_BYTES || dt == HR_I1 || dt == HR_I2 || dt == HR_I4 ||
      dt == HR_TF32)
    return false;
  size_t align = hr_dtype_is_complex(dt) ? hr_dtype_size(dt) / 2 : hr_dtype_size(dt);
  return (uintptr_t)blob % (align > 8 ? 8 : align) == 0;
}

/* Bytes MLIR stores for `n` elements of `dtype` (i1 either packed or a byte each: see above). */
static bool storage_fits(hr_dtype dtype, size_t len, int64_t n) {
  if (dtype == HR_I1) return len == (size_t)n || len == (size_t)((n + 7) / 8);
  return len == (size_t)n * hr_bc_dense_storage_bytes(dtype);
}

/* A tensor type reference and a blob as a DENSE attribute (a blob of one element is a splat). */
static hr_status dense_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  const vt *t;
  HR_TRY(type_ref(c, cur, &t));
  if (t->kind != VT_TENSOR || !hr_type_is_static(&t->type)) return hr_bc_error(cur, "dense elements of a type that is not a static tensor");
  const uint8_t *blob;
  size_t len;
  HR_TRY(hr_bc_blob(cur, &blob, &len));
  int64_t n;
  hr_status s = hr_shape_num_elements(&t->type.shape, &n);
  if (s) return s;
  hr_dtype dt = t->type.dtype;
  size_t esize = hr_dtype_size(dt);
  /* MLIR's rule: one element's bytes for several elements is a splat; for i1, whose elements pack
   * 8 to a byte, only a single 0x00 or 0xFF byte is (another single byte packs up to 8 elements). */
  bool splat = n != 1 && (dt == HR_I1 ? len == 1 && (blob[0] == 0 || blob[0] == 0xFF) : len == hr_bc_dense_storage_bytes(dt));
  int64_t raw_n = splat ? 1 : n;
  if (!splat && !storage_fits(dt, len, n))
    return hr_bc_error(cur, "dense data of %zu bytes for %lld elements of %s", len, (long long)n, hr_dtype_name(dt));
  if ((uint64_t)raw_n > SIZE_MAX / esize || (size_t)raw_n * esize > c->max_constant_bytes)
    return hr_bc_error(cur, "a constant of %lld elements exceeds the limit of %zu bytes", (long long)raw_n, c->max_constant_bytes);
  size_t nbytes = (size_t)raw_n * esize;
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_DENSE);
  if (!a) return oom();
  const uint8_t *data = in_place(c, dt, blob, nbytes) ? blob : NULL;
  if (!data) {
    uint8_t *copy = hr_arena_alloc(&c->m->arena, nbytes ? nbytes : 1, 64);
    if (!copy) return oom();
    if (nbytes) copy_elements(dt, blob, len, raw_n, copy);
    data = copy;
  }
  a->u.dense.type = t->type;
  a->u.dense.splat = splat;
  a->u.dense.data = data;
  a->u.dense.nbytes = nbytes;
  *out = a;
  return NULL;
}

/* A builtin dense array: element type, count, then the elements' bytes. */
static hr_status dense_array_attr(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  const vt *t;
  HR_TRY(type_ref(c, cur, &t));
  uint64_t n;
  HR_TRY(hr_bc_varint(cur, &n));
  const uint8_t *blob;
  size_t len;
  HR_TRY(hr_bc_blob(cur, &blob, &len));
  if (t->kind != VT_ELEM || t->dtype == HR_DTYPE_INVALID || hr_dtype_is_complex(t->dtype))
    return hr_bc_error(cur, "a dense array of an unsupported element type");
  size_t esize = t->dtype == HR_I1 ? 1 : hr_bc_dense_storage_bytes(t->dtype);
  if (n > len || len != n * esize) return hr_bc_error(cur, "a dense array of %llu elements in %zu bytes", (unsigned long long)n, len);
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_DENSE_ARRAY);
  if (!a) return oom();
  a->u.dense_array.dtype = t->dtype;
  a->u.dense_array.n = (int64_t)n;
  bool is_float = hr_dtype_is_real_float(t->dtype);
  void *items = is_float ? (void *)HR_ARENA_ARRAY(&c->m->arena, double, n ? n : 1)
                         : (void *)HR_ARENA_ARRAY(&c->m->arena, int64_t, n ? n : 1);
  if (!items) return oom();
  for (uint64_t i = 0; i < n; i++) {
    const uint8_t *e = blob + i * esize;
    if (is_float) {
      uint64_t bits = 0;
      memcpy(&bits, e, esize); /* little-endian: the pattern's low bytes */
      ((double *)items)[i] = hr_float_from_pattern(t->dtype, bits);
    } else {
      int64_t v = 0;
      memcpy(&v, e, esize); /* little-endian: the low bytes */
      if (esize < 8 && !hr_dtype_is_unsigned_int(t->dtype) && (e[esize - 1] & 0x80) && t->dtype != HR_I1)
        v |= (int64_t)(~(uint64_t)0 << (8 * esize));
      ((int64_t *)items)[i] = v;
    }
  }
  if (is_float) a->u.dense_array.floats = items;
  else a->u.dense_array.ints = items;
  *out = a;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The builtin dialect                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* Whether a builtin attribute code is a location (they decode to NULL). */
static bool is_builtin_loc(uint64_t code) { return code >= 10 && code <= 15; }

static hr_status builtin_attr(vhlo_ctx *c, hr_bc_cursor *cur, uint64_t code, hr_attr **out) {
  switch (code) {
    case 0: return array_attr(c, cur, out);
    case 1: return dict_attr(c, cur, out);
    case 2: return string_attr(c, cur, HR_ATTR_STRING, out);
    case 3: {
      HR_TRY(string_attr(c, cur, HR_ATTR_STRING, out));
      const vt *t;
      return type_ref(c, cur, &t);
    }
    case 4:
    case 5: {
      hr_attr *root;
      HR_TRY(attr_ref(c, cur, &root));
      if (root->kind != HR_ATTR_STRING) return hr_bc_error(cur, "a symbol reference whose root is not a string");
      hr_attr *a = hr_attr_new(c->m, HR_ATTR_SYMBOL);
      if (!a) return oom();
      a->u.str = root->u.str;
      if (code == 5) {
        uint64_t nested;
        HR_TRY(hr_bc_varint(cur, &nested));
        if (nested) return hr_bc_error(cur, "nested symbol references are not supported");
      }
      *out = a;
      return NULL;
    }
    case 6: return type_attr(c, cur, out);
    case 7: return (*out = hr_attr_new(c->m, HR_ATTR_UNIT)) ? NULL : oom();
    case 8: return integer_attr(c, cur, out);
    case 9: return float_attr(c, cur, out);
    case 16: return hr_error(HR_UNIMPLEMENTED, "%s: dense_resource constants are not supported yet", c->f->filename);
    case 17: return dense_array_attr(c, cur, out);
    case 18: return dense_attr(c, cur, out);
    default: return hr_bc_error(cur, "builtin attribute code %llu is not supported", (unsigned long long)code);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* VHLO                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* A VHLO enum attribute: its StableHLO name and values by number. */
typedef struct vhlo_enum {
  uint64_t code;
  const char *name;
  const char *values[6];
} vhlo_enum;

static const vhlo_enum vhlo_enums[] = {
    {3, "comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}},
    {4, "comparison_type", {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
    {7, "fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
    {11, "precision", {"DEFAULT", "HIGH", "HIGHEST"}},
    {12, "rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}},
    {13, "rng_distribution", {NULL, "UNIFORM", "NORMAL"}},
    {16, "transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
    {19, "result_accuracy_mode", {"DEFAULT", "HIGHEST", "TOLERANCE"}},
};

/* An enum value as a #stablehlo<name VALUE> ENUM. */
static hr_status enum_attr(vhlo_ctx *c, hr_bc_cursor *cur, const vhlo_enum *e, hr_attr **out) {
  uint64_t v;
  HR_TRY(hr_bc_varint(cur, &v));
  if (v >= 6 || !e->values[v]) return hr_bc_error(cur, "invalid %s value %llu", e->name, (unsigned long long)v);
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_ENUM);
  if (!a) return oom();
  a->u.enm.dialect = "stablehlo";
  a->u.enm.name = e->name;
  a->u.enm.value = e->values[v];
  *out = a;
  return NULL;
}

/* A list of signed varints as an ARRAY of untyped INTs (struct fields). */
static hr_status int_list(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  HR_TRY(counted_array(c, cur, out));
  hr_attr **items = (*out)->u.array.items;
  for (int k = 0; k < (*out)->u.array.n; k++) {
    int64_t v;
    HR_TRY(hr_bc_svarint(cur, &v));
    if (!(items[k] = hr_attr_new(c->m, HR_ATTR_INT))) return oom();
    items[k]->u.i.value = v;
  }
  return NULL;
}

/* An untyped INT (a struct field). */
static hr_status untyped_int(vhlo_ctx *c, int64_t v, hr_attr **out) {
  if (!(*out = hr_attr_new(c->m, HR_ATTR_INT))) return oom();
  (*out)->u.i.value = v;
  return NULL;
}

/* #stablehlo.output_operand_alias<output_tuple_indices, operand_index, operand_tuple_indices>. */
static hr_status output_operand_alias(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  hr_named_attr *f = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, 3);
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_STRUCT);
  if (!f || !a) return oom();
  int64_t operand;
  f[0].name = "output_tuple_indices";
  HR_TRY(int_list(c, cur, &f[0].value));
  HR_TRY(hr_bc_svarint(cur, &operand));
  f[1].name = "operand_index";
  HR_TRY(untyped_int(c, operand, &f[1].value));
  f[2].name = "operand_tuple_indices";
  HR_TRY(int_list(c, cur, &f[2].value));
  a->u.strct.name = "stablehlo.output_operand_alias";
  a->u.strct.n = 3;
  a->u.strct.fields = f;
  *out = a;
  return NULL;
}

/* #stablehlo.result_accuracy<atol, rtol, ulps, mode>. */
static hr_status result_accuracy(vhlo_ctx *c, hr_bc_cursor *cur, hr_attr **out) {
  hr_named_attr *f = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, 4);
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_STRUCT);
  hr_attr *atol = hr_attr_new(c->m, HR_ATTR_FLOAT), *rtol = hr_attr_new(c->m, HR_ATTR_FLOAT);
  if (!f || !a || !atol || !rtol) return oom();
  HR_TRY(read_apfloat(cur, HR_F64, &atol->u.f.value));
  HR_TRY(read_apfloat(cur, HR_F64, &rtol->u.f.value));
  int64_t ulps;
  HR_TRY(hr_bc_svarint(cur, &ulps));
  f[0] = (hr_named_attr){"atol", atol};
  f[1] = (hr_named_attr){"rtol", rtol};
  f[2].name = "ulps";
  HR_TRY(untyped_int(c, ulps, &f[2].value));
  f[3].name = "mode";
  HR_TRY(attr_ref(c, cur, &f[3].value));
  a->u.strct.name = "stablehlo.result_accuracy";
  a->u.strct.n = 4;
  a->u.strct.fields = f;
  *out = a;
  return NULL;
}

/* A STRUCT `name` of the `n` fields given (copied into the module). */
static hr_status struct_of(vhlo_ctx *c, const char *name, const hr_named_attr *fields, int n, hr_attr **out) {
  hr_attr *a = hr_attr_new(c->m, HR_ATTR_STRUCT);
  hr_named_attr *f = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, n ? (size_t)n : 1);
  if (!a || !f) return oom();
  memcpy(f, fields, (size_t)n * sizeof *f);
  a->u.strct.name = name;
  a->u.strct.n = n;
  a->u.strct.fields = f;
  *out = a;
  return NULL;
}

/* Shardy's mesh attributes of collectives (VHLO 1.16+): SubAxisInfoV1 (pre_size, size), AxisRefV1
 * (name, optional sub_axis_info), ReplicaGroupMeshAxesV1 (mesh, axes), MeshAxisV1 (name, size),
 * MeshV1 (axes, optional device_ids), as the STRUCTs the text parser builds of
 * #stablehlo.sub_axis_info ... #stablehlo.mesh. A mesh is named by its symbol. */
static hr_status mesh_attr(vhlo_ctx *c, hr_bc_cursor *cur, uint64_t code, hr_attr **out) {
  hr_named_attr f[2] = {{NULL, NULL}, {NULL, NULL}};
  int64_t v;
  uint64_t flag = 1;
  switch (code) {
    case 21: /* SubAxisInfoV1 */
      HR_TRY(hr_bc_svarint(cur, &v));
      f[0].name = "pre_size";
      HR_TRY(untyped_int(c, v, &f[0].value));
      HR_TRY(hr_bc_svarint(cur, &v));
      f[1].name = "size";
      HR_TRY(untyped_int(c, v, &f[1].value));
      return struct_of(c, "stablehlo.sub_axis_info", f, 2, out);
    case 22: /* AxisRefV1 */
    case 24: /* MeshAxisV1 */
      f[0].name = "name";
      HR_TRY(attr_ref(c, cur, &f[0].value));
      if (code == 24) {
        HR_TRY(hr_bc_svarint(cur, &v));
        f[1].name = "size";
        HR_TRY(untyped_int(c, v, &f[1].value));
        return struct_of(c, "stablehlo.mesh_axis", f, 2, out);
      }
      HR_TRY(hr_bc_varint(cur, &flag));
      if (flag) f[1].name = "sub_axis_info";
      if (flag) HR_TRY(attr_ref(c, cur, &f[1].value));
      return struct_of(c, "stablehlo.axis_ref", f, flag ? 2 : 1, out);
    case 23: { /* ReplicaGroupMeshAxesV1 */
      hr_attr *mesh;
      HR_TRY(attr_ref(c, cur, &mesh));
      if (mesh->kind != HR_ATTR_STRING) return hr_bc_error(cur, "a mesh that is not named by a string");
      if (!(f[0].value = hr_attr_new(c->m, HR_ATTR_SYMBOL))) return oom();
      f[0].name = "mesh";
      f[0].value->u.str = mesh->u.str;
      f[1].name = "axes";
      HR_TRY(attr_ref(c, cur, &f[1].value));
      return struct_of(c, "stablehlo.replica_group_mesh_axes", f, 2, out);
    }
    default: { /* 25: MeshV1 */
      f[0].name = "axes";
      HR_TRY(attr_ref(c, cur, &f[0].value));
      uint64_t ids;
      HR_TRY(hr_bc_varint(cur, &ids)); /* (index << 1) | present */
      if (ids & 1) {
        uint32_t i;
        hr_bc_cursor at = *cur;
        if ((ids >> 1) >= c->f->n_attrs) return hr_bc_error(&at, "device_ids: attribute index out of range");
        i = (uint32_t)(ids >> 1);
        f[1].name = "device_ids";
        HR_TRY(vhlo_attr(c, i, &f[1].value));
        if (!f[1].value) return hr_bc_error(&at, "a location as a mesh's device_ids");
      }
      return struct_of(c, "stablehlo.mesh", f, ids & 1 ? 2 : 1, out);
    }
  }
}

static hr_status vhlo_attr_code(vhlo_ctx *c, hr_bc_cursor *cur, uint64_t code, hr_attr **out) {
  for (size_t i = 0; i < sizeof vhlo_enums / sizeof *vhlo_enums; i++)
    if (vhlo_enums[i].code == code) return enum_attr(c, cur, &vhlo_enums[i], out);
  switch (code) {
    case 1: return array_attr(c, cur, out);
    case 2: {
      uint64_t v;
      HR_TRY(hr_bc_varint(cur, &v));
      if (!(*out = hr_attr_new(c->m, HR_ATTR_BOOL))) return oom();
      (*out)->u.b = v != 0;
      return NULL;
    }
    case 5: { /* CustomCallApiVersion: StableHLO spells it as an i32 */
      uint64_t v;
      HR_TRY(hr_bc_varint(cur, &v));
      if (v > 4) return hr_bc_error(cur, "invalid custom call API version %llu", (unsigned long long)v);
      if (!(*out = hr_attr_new(c->m, HR_ATTR_INT))) return oom();
      (*out)->u.i.value = (int64_t)v;
      (*out)->u.i.dtype = HR_I32;
      return NULL;
    }
    case 6: return dict_attr(c, cur, out);
    case 8: return float_attr(c, cur, out);
    case 9: return integer_attr(c, cur, out);
    case 10: return output_operand_alias(c, cur, out);
    case 14: return string_attr(c, cur, HR_ATTR_STRING, out);
    case 15: return dense_attr(c, cur, out);
    case 17: return type_attr(c, cur, out); /* TypeV1 */
    case 18: return (*out = hr_attr_new(c->m, HR_ATTR_UNIT)) ? NULL : oom(); /* bounds: a tensor encoding */
    case 20: return result_accuracy(c, cur, out);
    case 0: return hr_bc_error(cur, "the deprecated ArgResultAliasV1 attribute");
    case 21:
    case 22:
    case 23:
    case 24:
    case 25: return mesh_attr(c, cur, code, out);
    default: return hr_bc_error(cur, "unknown VHLO attribute code %llu (a newer StableHLO release?)", (unsigned long long)code);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Entries                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

const char *vhlo_attr_dialect(const vhlo_ctx *c, uint32_t i) { return c->f->dialects[c->f->attrs[i].dialect].name.data; }

/* An attribute of another dialect in its own encoding: Shardy's (#sdy.sharding, ...) as an OPAQUE
 * holding the text Shardy prints for it; another dialect's is refused, naming it. */
static hr_status foreign_attr(vhlo_ctx *c, const hr_bc_entry *e, hr_attr **out) {
  const char *dialect = c->f->dialects[e->dialect].name.data;
  if (strcmp(dialect, "sdy") != 0) {
    hr_bc_cursor cur = hr_bc_entry_cursor(c->f, e->data, e->len);
    return hr_bc_error(&cur, "an attribute of dialect '%s' in its own encoding, which hlorun does not read", dialect);
  }
  hr_strbuf sb;
  hr_strbuf_init(&sb, c->m->arena.allocator);
  hr_status s = vhlo_sdy_attr_text(c, e, &sb);
  if (!s) s = hr_strbuf_status(&sb);
  if (!s && (c->sdy_text += sb.len) > HR_LIMIT_SDY_MODULE_TEXT_BYTES) {
    hr_bc_cursor cur = hr_bc_entry_cursor(c->f, e->data, e->len);
    s = hr_bc_error(&cur, "the module's Shardy attributes decode to more than %d bytes of text", HR_LIMIT_SDY_MODULE_TEXT_BYTES);
  }
  hr_attr *a = s ? NULL : hr_attr_new(c->m, HR_ATTR_OPAQUE);
  if (!s && (!a || !(a->u.str.data = hr_arena_strndup(&c->m->arena, sb.data, sb.len)))) s = oom();
  if (!s) {
    a->u.str.len = sb.len;
    *out = a;
  }
  hr_strbuf_free(&sb);
  return s;
}

/* Decodes entry `e`; a location gives NULL. */
static hr_status decode_attr(vhlo_ctx *c, const hr_bc_entry *e, hr_attr **out) {
  *out = NULL;
  hr_bc_cursor cur = hr_bc_entry_cursor(c->f, e->data, e->len);
  if (!e->custom) { /* a foreign dialect's attribute, kept as its text (OPAQUE after its '#') */
    const char *text;
    size_t len;
    HR_TRY(hr_bc_cstring(&cur, &text, &len));
    bool opaque = len > 1 && text[0] == '#' && (int64_t)e->dialect != c->builtin && (int64_t)e->dialect != c->vhlo;
    if (opaque) text++, len--;
    hr_attr *a = hr_attr_new(c->m, opaque ? HR_ATTR_OPAQUE : HR_ATTR_STRING);
    if (!a || !(a->u.str.data = hr_arena_strndup(&c->m->arena, text, len))) return oom();
    a->u.str.len = len;
    *out = a;
    return NULL;
  }
  uint64_t code;
  HR_TRY(hr_bc_varint(&cur, &code));
  if ((int64_t)e->dialect == c->builtin) {
    if (is_builtin_loc(code)) return NULL;
    HR_TRY(builtin_attr(c, &cur, code, out));
  } else if ((int64_t)e->dialect == c->vhlo) {
    HR_TRY(vhlo_attr_code(c, &cur, code, out));
  } else {
    return foreign_attr(c, e, out);
  }
  if (!hr_bc_at_end(&cur)) return hr_bc_error(&cur, "attribute entry has bytes left over");
  return NULL;
}

hr_status vhlo_enter_attr(vhlo_ctx *c, uint32_t i) {
  const hr_bc_entry *e = &c->f->attrs[i];
  if (c->busy[i]) return vhlo_entry_error(c, e, "attribute %u refers to itself", i);
  if (c->depth >= HR_LIMIT_NESTING_DEPTH)
    return vhlo_entry_error(c, e, "types and attributes nest deeper than %d", HR_LIMIT_NESTING_DEPTH);
  c->busy[i] = 1;
  c->depth++;
  return NULL;
}

void vhlo_leave_attr(vhlo_ctx *c, uint32_t i) {
  c->depth--;
  c->busy[i] = 0;
}

hr_status vhlo_attr(vhlo_ctx *c, uint32_t i, hr_attr **out) {
  if (c->attrs[i]) {
    *out = c->attrs[i];
    return NULL;
  }
  HR_TRY(vhlo_enter_attr(c, i));
  hr_status s = decode_attr(c, &c->f->attrs[i], out);
  vhlo_leave_attr(c, i);
  if (!s) c->attrs[i] = *out;
  return s;
}

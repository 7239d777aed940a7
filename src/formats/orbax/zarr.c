/* zr_read_metadata: a zarr array's metadata, `prefix`/.zarray (zarr v2) or `prefix`/zarr.json
 * (zarr v3), parsed into the one form the chunk reader (zarr_read.c) works from: element type,
 * shape, chunk grid, chunk keys, fill value and the levels of codecs (zarr_internal.h). What
 * tensorstore writes for Orbax is read, and what else it writes where hlorun can hold the result:
 *  - v2: numpy type strings ("<f4", ">i8", "|b1", "<c8") and tensorstore's names ("bfloat16",
 *    "int4"), order C or F, compressor null, zstd, zlib or gzip, no filters, fill_value null, a
 *    number, "NaN", "Infinity" or "-Infinity" (a [re, im] pair for complex types);
 *  - v3: the data_type names, a regular chunk grid, "default" or "v2" chunk keys, and the codecs
 *    transpose, bytes, sharding_indexed (nested up to HR_LIMIT_ZARR_SHARD_DEPTH), zstd, gzip and
 *    crc32c; fill values as in v2 or as a float's bit pattern ("0x7fc00000").
 * Every field is type-checked and every size checked for overflow; errors name the metadata file
 * and the field. Unsupported features (blosc, filters, float8 types) are HR_UNIMPLEMENTED, naming
 * what is missing. hr_zarr_encode_v2 writes the v2 form Orbax writes. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "base/numeric.h"
#include "formats/orbax/dtypes_internal.h"
#include "formats/orbax/zarr.h"
#include "formats/orbax/zarr_internal.h"

/* Room for a field's path in messages ("codecs[0].configuration.codecs[1].configuration.level"). */
enum { FIELD_BYTES = 256 };

/* numpy's type strings for the types zarr v2 holds, little-endian ('<'; '|' for one byte), and
 * tensorstore's names for those numpy has no letter for. hr_zarr_encode_v2 writes these. */
static const struct {
  hr_dtype dtype;
  const char *typestr;
} v2_types[] = {
    {HR_I1, "|b1"},  {HR_I8, "|i1"},   {HR_U8, "|u1"},  {HR_I16, "<i2"},   {HR_I32, "<i4"},
    {HR_I64, "<i8"}, {HR_U16, "<u2"},  {HR_U32, "<u4"}, {HR_U64, "<u8"},   {HR_F16, "<f2"},
    {HR_F32, "<f4"}, {HR_F64, "<f8"},  {HR_C64, "<c8"}, {HR_C128, "<c16"}, {HR_BF16, "bfloat16"},
    {HR_I4, "int4"}, {HR_U4, "uint4"}, {HR_I2, "int2"}, {HR_U2, "uint2"},
};

/* ---------------------------------------------------------------------------------------------- */
/* Fields                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* An error about field `field` of the metadata: "<where>: 'field': <message>". */
__attribute__((format(printf, 4, 5))) static hr_status field_error(const zr_array *z, hr_code code, const char *field,
                                                                   const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(code, "%s: '%s': %s", z->where, field, msg);
}

/* `base` followed by `suffix` ("codecs[0]" + ".configuration"), or by "[index]" (suffix NULL),
 * into out[FIELD_BYTES]; a path too long for messages is cut. */
static void field_path(char *out, const char *base, const char *suffix, size_t index) {
  int n =
      suffix ? snprintf(out, FIELD_BYTES, "%s%s", base, suffix) : snprintf(out, FIELD_BYTES, "%s[%zu]", base, index);
  if (n < 0) out[0] = '\0';
}

/* The string field `key` of object `obj` into *out (NULL when absent and !required). */
static hr_status get_string(const zr_array *z, json_t *obj, const char *key, const char *field, bool required,
                            const char **out) {
  json_t *v = json_object_get(obj, key);
  *out = json_string_value(v);
  if (v && !*out) return field_error(z, HR_PARSE_ERROR, field, "not a string");
  if (!v && required) return field_error(z, HR_PARSE_ERROR, field, "missing");
  return NULL;
}

/* A list of sizes: its rank and values, each at least `min` (0 for a shape, 1 for a chunk). */
static hr_status get_dims(const zr_array *z, json_t *v, const char *field, int64_t min, int *rank, int64_t *dims) {
  if (!json_is_array(v)) return field_error(z, HR_PARSE_ERROR, field, v ? "not a list of sizes" : "missing");
  size_t n = json_array_size(v);
  if (n > HR_MAX_RANK)
    return field_error(z, HR_UNIMPLEMENTED, field, "rank %zu exceeds the %d dimensions hlorun supports", n,
                       HR_MAX_RANK);
  for (size_t i = 0; i < n; i++) {
    json_t *d = json_array_get(v, i);
    if (!json_is_integer(d) || json_integer_value(d) < min)
      return field_error(z, HR_PARSE_ERROR, field, "dimension %zu is not an integer of at least %lld", i,
                         (long long)min);
    dims[i] = json_integer_value(d);
  }
  *rank = (int)n;
  return NULL;
}

/* Checks that an optional "configuration" is an object (NULL when absent). */
static hr_status get_config(const zr_array *z, json_t *obj, const char *field, json_t **config) {
  *config = json_object_get(obj, "configuration");
  if (*config && !json_is_object(*config))
    return field_error(z, HR_PARSE_ERROR, field, "'configuration' is not an object");
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Element type and fill value                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* A type name numpy, ml_dtypes and zarr v3 share ("bfloat16", "int32"): HR_UNIMPLEMENTED for the
 * types tensorstore knows and hlorun does not hold, a parse error for others. */
static hr_status dtype_by_name(const zr_array *z, const char *name, const char *field, hr_dtype *out) {
  *out = ob_dtype_by_name(name);
  if (*out != HR_DTYPE_INVALID) return NULL;
  if (ob_dtype_is_unsupported(name))
    return field_error(z, HR_UNIMPLEMENTED, field, "the element type '%s' is not supported", name);
  return field_error(z, HR_PARSE_ERROR, field, "unknown element type '%s'", name);
}

/* A zarr v2 dtype: a numpy type string in any byte order ('<', '>', '=' or '|') or a name;
 * *big_endian for a '>' type of more than one byte. */
static hr_status v2_dtype(const zr_array *z, json_t *v, hr_dtype *out, bool *big_endian) {
  const char *s = json_string_value(v);
  *big_endian = false;
  if (json_is_array(v)) return field_error(z, HR_UNIMPLEMENTED, "dtype", "structured types are not supported");
  if (!s) return field_error(z, HR_PARSE_ERROR, "dtype", v ? "not a string" : "missing");
  if (s[0] && strchr("<>=|", s[0])) {
    for (size_t i = 0; i < sizeof v2_types / sizeof v2_types[0]; i++) {
      const char *t = v2_types[i].typestr;
      if (strchr("<|", t[0]) && strcmp(s + 1, t + 1) == 0) {
        *out = v2_types[i].dtype;
        *big_endian = s[0] == '>' && hr_dtype_size(*out) > 1;
        return NULL;
      }
    }
    return field_error(z, HR_UNIMPLEMENTED, "dtype", "the numpy type '%s' is not supported", s);
  }
  return dtype_by_name(z, s, "dtype", out);
}

/* A floating-point fill value: a number, "NaN", "Infinity", "-Infinity", or (zarr v3) the bit
 * pattern "0x..." of a `bytes`-byte float, stored at `out` as type `t` (f16, bf16, f32, f64). */
static hr_status float_fill(const zr_array *z, json_t *v, hr_dtype t, size_t bytes, unsigned char *out) {
  const char *s = json_string_value(v);
  double d;
  if (json_is_number(v)) {
    d = json_number_value(v);
  } else if (s && strcmp(s, "NaN") == 0) {
    d = NAN;
  } else if (s && (strcmp(s, "Infinity") == 0 || strcmp(s, "-Infinity") == 0)) {
    d = s[0] == '-' ? -INFINITY : INFINITY;
  } else if (s && s[0] == '0' && s[1] == 'x' && strlen(s + 2) == 2 * bytes &&
             strspn(s + 2, "0123456789abcdefABCDEF") == 2 * bytes) {
    uint64_t bits = 0;
    for (const char *c = s + 2; *c; c++) bits = bits << 4 | (uint64_t)(*c <= '9' ? *c - '0' : (*c | 0x20) - 'a' + 10);
    memcpy(out, &bits, bytes); /* little-endian host: the low bytes */
    return NULL;
  } else {
    return field_error(z, HR_PARSE_ERROR, "fill_value",
                       "not a number, \"NaN\", \"Infinity\", \"-Infinity\" or a %zu-byte hexadecimal bit pattern",
                       bytes);
  }
  uint16_t h;
  float f = (float)d;
  switch (t) {
  case HR_F16: h = hr_f64_to_f16(d), memcpy(out, &h, 2); break;
  case HR_BF16: h = hr_f64_to_bf16(d), memcpy(out, &h, 2); break;
  case HR_F32: memcpy(out, &f, 4); break;
  default: memcpy(out, &d, 8); break;
  }
  return NULL;
}

/* An integer (or bool) fill value in the range of type `t`, stored at `out`. */
static hr_status int_fill(const zr_array *z, json_t *v, hr_dtype t, unsigned char *out) {
  int bits = hr_dtype_bits(t);
  double d = json_is_real(v) ? json_real_value(v) : 0;
  long long x;
  if (json_is_boolean(v) && t == HR_I1)
    x = json_is_true(v);
  else if (json_is_integer(v))
    x = json_integer_value(v);
  else if (json_is_real(v) && d == floor(d) && fabs(d) < 0x1p62)
    x = (long long)d; /* 0.0, as some writers put it */
  else
    return field_error(z, HR_PARSE_ERROR, "fill_value", "not an integer%s", t == HR_I1 ? " or a boolean" : "");
  bool is_signed = hr_dtype_is_signed_int(t);
  long long lo = is_signed ? (bits == 64 ? INT64_MIN : -(1LL << (bits - 1))) : 0;
  long long hi = bits >= 63 ? INT64_MAX : is_signed ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
  if (x < lo || x > hi)
    return field_error(z, HR_PARSE_ERROR, "fill_value", "%lld is out of the range of %s", x, hr_dtype_name(t));
  uint64_t u = (uint64_t)x;
  memcpy(out, &u, hr_dtype_size(t)); /* little-endian host: the low bytes */
  return NULL;
}

/* The fill value (absent or null: zero) as one element in memory layout, into z->fill. */
static hr_status parse_fill(zr_array *z, json_t *v) {
  memset(z->fill, 0, sizeof z->fill);
  size_t size = hr_dtype_size(z->dtype);
  if (!v || json_is_null(v)) {
    z->fill_nonzero = false;
    return NULL;
  }
  if (hr_dtype_is_complex(z->dtype)) {
    if (!json_is_array(v) || json_array_size(v) != 2)
      return field_error(z, HR_PARSE_ERROR, "fill_value", "not a [real, imaginary] pair");
    hr_dtype part = z->dtype == HR_C64 ? HR_F32 : HR_F64;
    HR_TRY(float_fill(z, json_array_get(v, 0), part, size / 2, z->fill));
    HR_TRY(float_fill(z, json_array_get(v, 1), part, size / 2, z->fill + size / 2));
  } else if (hr_dtype_is_float(z->dtype)) {
    HR_TRY(float_fill(z, v, z->dtype, size, z->fill));
  } else {
    HR_TRY(int_fill(z, v, z->dtype, z->fill));
  }
  static const unsigned char zero[sizeof z->fill];
  z->fill_nonzero = memcmp(z->fill, zero, size) != 0;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Levels                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Starts level `l`: chunks of `shape`, no transposes or codecs yet. */
static void begin_level(zr_array *z, int l, const int64_t *shape) {
  zr_level *lv = &z->levels[l];
  memset(lv, 0, sizeof *lv);
  for (int j = 0; j < z->shape.rank; j++) lv->shape[j] = lv->eshape[j] = shape[j], lv->perm[j] = j;
  if (l >= z->n_levels) z->n_levels = l + 1;
}

/* Applies a transpose to level `l`: encoded dimension j becomes what was encoded dimension order[j]. */
static void transpose_level(zr_array *z, int l, const int *order) {
  zr_level *lv = &z->levels[l];
  int perm[HR_MAX_RANK];
  for (int j = 0; j < z->shape.rank; j++) perm[j] = lv->perm[order[j]];
  for (int j = 0; j < z->shape.rank; j++) lv->perm[j] = perm[j], lv->eshape[j] = lv->shape[perm[j]];
}

/* The decoded bytes of one chunk of level `l` (its elements times the element size). */
static hr_status level_bytes(zr_array *z, int l, const char *field) {
  zr_level *lv = &z->levels[l];
  size_t n = hr_dtype_size(z->dtype);
  for (int j = 0; j < z->shape.rank; j++)
    if (__builtin_mul_overflow(n, (uint64_t)lv->shape[j], &n))
      return field_error(z, HR_RESOURCE_EXHAUSTED, field, "a chunk's size in bytes overflows");
  lv->bytes = n;
  return NULL;
}

/* Appends a bytes-to-bytes codec to level `l`. */
static hr_status add_codec(zr_array *z, int l, zr_codec c, const char *field) {
  zr_level *lv = &z->levels[l];
  if (lv->n_codecs == HR_LIMIT_ZARR_CODECS)
    return field_error(z, HR_RESOURCE_EXHAUSTED, field, "more than %d codecs", HR_LIMIT_ZARR_CODECS);
  lv->codecs[lv->n_codecs++] = c;
  return NULL;
}

/* The cells of the chunk grid (0 when the array is empty), bounded by HR_LIMIT_ZARR_CHUNKS. */
static hr_status count_chunks(zr_array *z) {
  int64_t n = 1;
  for (int j = 0; j < z->shape.rank; j++)
    if (z->shape.dims[j] == 0) n = 0;
  for (int j = 0; n && j < z->shape.rank; j++) {
    int64_t cells = z->shape.dims[j] / z->chunks[j] + (z->shape.dims[j] % z->chunks[j] != 0);
    if (cells > HR_LIMIT_ZARR_CHUNKS || (n *= cells) > HR_LIMIT_ZARR_CHUNKS)
      return field_error(z, HR_RESOURCE_EXHAUSTED, z->version == 2 ? "chunks" : "chunk_grid",
                         "the array has more than %d chunks", HR_LIMIT_ZARR_CHUNKS);
  }
  z->n_chunks = n;
  return NULL;
}

/* The shape: rank and sizes, whose element count must not overflow. */
static hr_status parse_shape(zr_array *z, json_t *v) {
  z->shape = (hr_shape){0};
  HR_TRY(get_dims(z, v, "shape", 0, &z->shape.rank, z->shape.dims));
  int64_t n;
  hr_status s = hr_shape_num_elements(&z->shape, &n);
  if (s) {
    hr_status_free(s);
    return field_error(z, HR_RESOURCE_EXHAUSTED, "shape", "the element count overflows");
  }
  return NULL;
}

/* The chunk shape (`field`), of the array's rank. */
static hr_status parse_chunks(zr_array *z, json_t *v, const char *field) {
  int rank;
  HR_TRY(get_dims(z, v, field, 1, &rank, z->chunks));
  if (rank != z->shape.rank)
    return field_error(z, HR_PARSE_ERROR, field, "rank %d differs from the shape's %d", rank, z->shape.rank);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* zarr v2 (.zarray)                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* The compressor: null (none), or {"id": "zstd" | "zlib" | "gzip", ...}. */
static hr_status v2_compressor(zr_array *z, json_t *v) {
  if (!v || json_is_null(v)) return NULL;
  const char *id;
  if (!json_is_object(v)) return field_error(z, HR_PARSE_ERROR, "compressor", "not null or an object");
  HR_TRY(get_string(z, v, "id", "compressor.id", true, &id));
  if (strcmp(id, "zstd") == 0) return add_codec(z, 0, ZR_ZSTD, "compressor");
  if (strcmp(id, "zlib") == 0) return add_codec(z, 0, ZR_ZLIB, "compressor");
  if (strcmp(id, "gzip") == 0) return add_codec(z, 0, ZR_GZIP, "compressor");
  return field_error(z, HR_UNIMPLEMENTED, "compressor.id",
                     "the compressor '%s' is not supported (zstd, zlib and gzip are)", id);
}

static hr_status parse_v2(zr_array *z, json_t *m) {
  json_t *filters = json_object_get(m, "filters");
  const char *order, *sep;
  HR_TRY(parse_shape(z, json_object_get(m, "shape")));
  HR_TRY(parse_chunks(z, json_object_get(m, "chunks"), "chunks"));
  bool big_endian;
  HR_TRY(v2_dtype(z, json_object_get(m, "dtype"), &z->dtype, &big_endian));
  HR_TRY(parse_fill(z, json_object_get(m, "fill_value")));
  HR_TRY(get_string(z, m, "order", "order", false, &order));
  if (order && strcmp(order, "C") != 0 && strcmp(order, "F") != 0)
    return field_error(z, HR_PARSE_ERROR, "order", "'%s' is not \"C\" or \"F\"", order);
  if (filters && !json_is_null(filters) && !(json_is_array(filters) && json_array_size(filters) == 0))
    return field_error(z, HR_UNIMPLEMENTED, "filters", "filters are not supported (only null)");
  HR_TRY(get_string(z, m, "dimension_separator", "dimension_separator", false, &sep));
  if (sep && strcmp(sep, ".") != 0 && strcmp(sep, "/") != 0)
    return field_error(z, HR_PARSE_ERROR, "dimension_separator", "'%s' is not \".\" or \"/\"", sep);
  z->separator = sep ? sep[0] : '.';
  begin_level(z, 0, z->chunks);
  z->levels[0].big_endian = big_endian;
  if (order && order[0] == 'F') { /* Fortran order: the chunk's dimensions reversed */
    int reverse[HR_MAX_RANK];
    for (int j = 0; j < z->shape.rank; j++) reverse[j] = z->shape.rank - 1 - j;
    transpose_level(z, 0, reverse);
  }
  HR_TRY(level_bytes(z, 0, "chunks"));
  return v2_compressor(z, json_object_get(m, "compressor"));
}

/* ---------------------------------------------------------------------------------------------- */
/* zarr v3 (zarr.json)                                                                             */
/* ---------------------------------------------------------------------------------------------- */

static hr_status v3_codecs(zr_array *z, json_t *list, int l, const int64_t *shape, const char *field);

/* A codec's name and configuration (NULL when it has none): {"name": ..., "configuration": {...}},
 * or the short form, its name alone. */
static hr_status codec_parts(const zr_array *z, json_t *c, const char *field, const char **name, json_t **config) {
  *config = NULL;
  if (json_is_string(c)) {
    *name = json_string_value(c);
    return NULL;
  }
  if (!json_is_object(c)) return field_error(z, HR_PARSE_ERROR, field, "not a codec object");
  char f[FIELD_BYTES];
  field_path(f, field, ".name", 0);
  HR_TRY(get_string(z, c, "name", f, true, name));
  return get_config(z, c, field, config);
}

/* The "bytes" codec's endian (required unless elements of `size` are single bytes). */
static hr_status v3_endian(const zr_array *z, json_t *config, size_t size, const char *field, bool *big) {
  char f[FIELD_BYTES];
  const char *endian;
  field_path(f, field, ".configuration.endian", 0);
  HR_TRY(get_string(z, config, "endian", f, size > 1, &endian));
  if (endian && strcmp(endian, "little") != 0 && strcmp(endian, "big") != 0)
    return field_error(z, HR_PARSE_ERROR, f, "'%s' is not \"little\" or \"big\"", endian);
  *big = endian && endian[0] == 'b' && size > 1;
  return NULL;
}

/* A transpose codec of level `l`: its order, a permutation of the dimensions ("C" and "F", as
 * older writers put them: none and reversed). */
static hr_status v3_transpose(zr_array *z, int l, json_t *config, const char *field) {
  char f[FIELD_BYTES];
  field_path(f, field, ".configuration.order", 0);
  json_t *v = json_object_get(config, "order");
  int rank = z->shape.rank, order[HR_MAX_RANK];
  const char *named = json_string_value(v);
  if (named && (strcmp(named, "C") == 0 || strcmp(named, "F") == 0)) {
    for (int j = 0; j < rank; j++) order[j] = named[0] == 'C' ? j : rank - 1 - j;
  } else {
    if (!json_is_array(v) || json_array_size(v) != (size_t)rank)
      return field_error(z, HR_PARSE_ERROR, f, "not a list of the %d dimensions", rank);
    bool seen[HR_MAX_RANK] = {false};
    for (int j = 0; j < rank; j++) {
      json_t *d = json_array_get(v, (size_t)j);
      json_int_t x = json_is_integer(d) ? json_integer_value(d) : -1;
      if (x < 0 || x >= rank || seen[x])
        return field_error(z, HR_PARSE_ERROR, f, "not a permutation of 0..%d", rank - 1);
      seen[x] = true;
      order[j] = (int)x;
    }
  }
  transpose_level(z, l, order);
  return NULL;
}

/* The index codecs of a sharding_indexed codec of level `l`: "bytes" and an optional "crc32c"
 * (what tensorstore writes and reads: the index has a fixed size). */
static hr_status v3_index_codecs(zr_array *z, int l, json_t *list, const char *field) {
  zr_level *lv = &z->levels[l];
  size_t n = json_array_size(list);
  if (!json_is_array(list) || n == 0)
    return field_error(z, HR_PARSE_ERROR, field, list ? "not a non-empty list of codecs" : "missing");
  for (size_t i = 0; i < n; i++) {
    char f[FIELD_BYTES];
    field_path(f, field, NULL, i);
    const char *name;
    json_t *config;
    HR_TRY(codec_parts(z, json_array_get(list, i), f, &name, &config));
    if (i == 0 && strcmp(name, "bytes") == 0)
      HR_TRY(v3_endian(z, config, 8, f, &lv->index_big_endian));
    else if (i == 1 && strcmp(name, "crc32c") == 0)
      lv->index_crc = true;
    else
      return field_error(z, HR_UNIMPLEMENTED, f,
                         "the index codec '%s' is not supported (\"bytes\" then \"crc32c\" are)", name);
  }
  return NULL;
}

/* A sharding_indexed codec of level `l`: its chunks become level l + 1. */
static hr_status v3_sharding(zr_array *z, int l, json_t *config, const char *field) {
  zr_level *lv = &z->levels[l];
  char f[FIELD_BYTES];
  if (l == HR_LIMIT_ZARR_SHARD_DEPTH)
    return field_error(z, HR_RESOURCE_EXHAUSTED, field, "sharding_indexed nested more than %d deep",
                       HR_LIMIT_ZARR_SHARD_DEPTH);
  if (!config) return field_error(z, HR_PARSE_ERROR, field, "sharding_indexed without a configuration");
  int64_t inner[HR_MAX_RANK];
  int rank;
  field_path(f, field, ".configuration.chunk_shape", 0);
  HR_TRY(get_dims(z, json_object_get(config, "chunk_shape"), f, 1, &rank, inner));
  if (rank != z->shape.rank)
    return field_error(z, HR_PARSE_ERROR, f, "rank %d differs from the shape's %d", rank, z->shape.rank);
  lv->n_inner = 1;
  for (int j = 0; j < rank; j++) {
    if (lv->eshape[j] % inner[j] != 0)
      return field_error(z, HR_PARSE_ERROR, f, "dimension %d (%lld) does not divide the shard's %lld", j,
                         (long long)inner[j], (long long)lv->eshape[j]);
    lv->grid[j] = lv->eshape[j] / inner[j];
    if (lv->grid[j] > HR_LIMIT_ZARR_SHARD_CHUNKS || (lv->n_inner *= lv->grid[j]) > HR_LIMIT_ZARR_SHARD_CHUNKS)
      return field_error(z, HR_RESOURCE_EXHAUSTED, f, "a shard holds more than %d chunks", HR_LIMIT_ZARR_SHARD_CHUNKS);
  }
  const char *location;
  field_path(f, field, ".configuration.index_location", 0);
  HR_TRY(get_string(z, config, "index_location", f, false, &location));
  if (location && strcmp(location, "start") != 0 && strcmp(location, "end") != 0)
    return field_error(z, HR_PARSE_ERROR, f, "'%s' is not \"start\" or \"end\"", location);
  lv->index_at_start = location && location[0] == 's';
  field_path(f, field, ".configuration.index_codecs", 0);
  HR_TRY(v3_index_codecs(z, l, json_object_get(config, "index_codecs"), f));
  lv->sharded = true;
  field_path(f, field, ".configuration.codecs", 0);
  return v3_codecs(z, json_object_get(config, "codecs"), l + 1, inner, f);
}

/* One codec of level `l` (the `i`th of its list); *have_bytes once the array-to-bytes codec (bytes
 * or sharding_indexed) is seen, which must come after the transposes and before the rest. */
static hr_status v3_codec(zr_array *z, int l, json_t *c, const char *field, bool *have_bytes) {
  const char *name;
  json_t *config;
  HR_TRY(codec_parts(z, c, field, &name, &config));
  bool array_to_bytes = strcmp(name, "bytes") == 0 || strcmp(name, "sharding_indexed") == 0;
  bool bytes_to_bytes = strcmp(name, "zstd") == 0 || strcmp(name, "gzip") == 0 || strcmp(name, "crc32c") == 0;
  if ((strcmp(name, "transpose") == 0 || array_to_bytes) && *have_bytes)
    return field_error(z, HR_PARSE_ERROR, field, "'%s' after the array-to-bytes codec", name);
  if (bytes_to_bytes && !*have_bytes)
    return field_error(z, HR_PARSE_ERROR, field, "'%s' before the array-to-bytes codec (bytes or sharding_indexed)",
                       name);
  *have_bytes |= array_to_bytes;
  if (strcmp(name, "transpose") == 0) return v3_transpose(z, l, config, field);
  if (strcmp(name, "bytes") == 0) return v3_endian(z, config, hr_dtype_size(z->dtype), field, &z->levels[l].big_endian);
  if (strcmp(name, "sharding_indexed") == 0) return v3_sharding(z, l, config, field);
  if (strcmp(name, "zstd") == 0) return add_codec(z, l, ZR_ZSTD, field);
  if (strcmp(name, "gzip") == 0) return add_codec(z, l, ZR_GZIP, field);
  if (strcmp(name, "crc32c") == 0) return add_codec(z, l, ZR_CRC32C, field);
  return field_error(z, HR_UNIMPLEMENTED, field,
                     "the codec '%s' is not supported (transpose, bytes, sharding_indexed, zstd, gzip and crc32c are)",
                     name);
}

/* The codec list of level `l`, whose chunks have `shape`. */
static hr_status v3_codecs(zr_array *z, json_t *list, int l, const int64_t *shape, const char *field) {
  size_t n = json_array_size(list);
  if (!json_is_array(list) || n == 0)
    return field_error(z, HR_PARSE_ERROR, field, list ? "not a non-empty list of codecs" : "missing");
  begin_level(z, l, shape);
  HR_TRY(level_bytes(z, l, field));
  bool have_bytes = false;
  for (size_t i = 0; i < n; i++) {
    char f[FIELD_BYTES];
    field_path(f, field, NULL, i);
    HR_TRY(v3_codec(z, l, json_array_get(list, i), f, &have_bytes));
  }
  if (!have_bytes) return field_error(z, HR_PARSE_ERROR, field, "no array-to-bytes codec (bytes or sharding_indexed)");
  return NULL;
}

/* The chunk grid: "regular", with its chunk_shape. */
static hr_status v3_grid(zr_array *z, json_t *grid) {
  const char *name;
  json_t *config;
  if (!json_is_object(grid)) return field_error(z, HR_PARSE_ERROR, "chunk_grid", grid ? "not an object" : "missing");
  HR_TRY(get_string(z, grid, "name", "chunk_grid.name", true, &name));
  if (strcmp(name, "regular") != 0)
    return field_error(z, HR_UNIMPLEMENTED, "chunk_grid.name", "the chunk grid '%s' is not supported (regular is)",
                       name);
  HR_TRY(get_config(z, grid, "chunk_grid", &config));
  return parse_chunks(z, json_object_get(config, "chunk_shape"), "chunk_grid.configuration.chunk_shape");
}

/* The chunk key encoding: "default" ("c/1/2") or "v2" ("1.2"), with an optional separator. */
static hr_status v3_keys(zr_array *z, json_t *keys) {
  const char *name = "default", *sep = NULL;
  json_t *config = NULL;
  if (keys && !json_is_object(keys)) return field_error(z, HR_PARSE_ERROR, "chunk_key_encoding", "not an object");
  if (keys) HR_TRY(get_string(z, keys, "name", "chunk_key_encoding.name", true, &name));
  if (strcmp(name, "default") != 0 && strcmp(name, "v2") != 0)
    return field_error(z, HR_UNIMPLEMENTED, "chunk_key_encoding.name", "'%s' is not \"default\" or \"v2\"", name);
  if (keys) HR_TRY(get_config(z, keys, "chunk_key_encoding", &config));
  HR_TRY(get_string(z, config, "separator", "chunk_key_encoding.configuration.separator", false, &sep));
  if (sep && strcmp(sep, ".") != 0 && strcmp(sep, "/") != 0)
    return field_error(z, HR_PARSE_ERROR, "chunk_key_encoding.configuration.separator", "'%s' is not \".\" or \"/\"",
                       sep);
  z->key_prefix_c = name[0] == 'd';
  z->separator = sep ? sep[0] : z->key_prefix_c ? '/' : '.';
  return NULL;
}

static hr_status parse_v3(zr_array *z, json_t *m) {
  const char *node, *type;
  HR_TRY(get_string(z, m, "node_type", "node_type", false, &node));
  if (node && strcmp(node, "array") != 0)
    return field_error(z, HR_PARSE_ERROR, "node_type", "'%s': not an array", node);
  HR_TRY(parse_shape(z, json_object_get(m, "shape")));
  if (json_is_object(json_object_get(m, "data_type")))
    return field_error(z, HR_UNIMPLEMENTED, "data_type", "extension data types are not supported");
  HR_TRY(get_string(z, m, "data_type", "data_type", true, &type));
  HR_TRY(dtype_by_name(z, type, "data_type", &z->dtype));
  HR_TRY(parse_fill(z, json_object_get(m, "fill_value")));
  HR_TRY(v3_grid(z, json_object_get(m, "chunk_grid")));
  HR_TRY(v3_keys(z, json_object_get(m, "chunk_key_encoding")));
  json_t *st = json_object_get(m, "storage_transformers");
  if (st && !(json_is_array(st) && json_array_size(st) == 0))
    return field_error(z, HR_UNIMPLEMENTED, "storage_transformers", "storage transformers are not supported");
  return v3_codecs(z, json_object_get(m, "codecs"), 0, z->chunks, "codecs");
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading the metadata                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Reads `prefix`/`name` ("" prefix: `name`); HR_NOT_FOUND when it does not exist. */
static hr_status read_key(hr_kvstore *kv, const char *prefix, const char *name, const hr_allocator *a,
                          unsigned char **data, size_t *len) {
  char key[HR_LIMIT_ORBAX_PATH_BYTES];
  int n = snprintf(key, sizeof key, "%s%s%s", prefix, prefix[0] ? "/" : "", name);
  if (n < 0 || (size_t)n >= sizeof key)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the array key '%.64s...' is longer than %d bytes", kv->name, prefix,
                    HR_LIMIT_ORBAX_PATH_BYTES - 1);
  return hr_kvstore_read(kv, key, a, HR_LIMIT_ZARR_METADATA_BYTES, data, len);
}

hr_status zr_read_metadata(hr_kvstore *kv, const char *prefix, const hr_allocator *a, zr_array *z) {
  memset(z, 0, sizeof *z);
  unsigned char *data = NULL;
  size_t len = 0;
  const char *name = ".zarray";
  hr_status s = read_key(kv, prefix, name, a, &data, &len);
  if (s && hr_status_code(s) == HR_NOT_FOUND) {
    hr_status_free(s);
    s = read_key(kv, prefix, name = "zarr.json", a, &data, &len);
    if (s && hr_status_code(s) == HR_NOT_FOUND) {
      hr_status_free(s);
      return hr_error(HR_NOT_FOUND, "%s/%s: no .zarray or zarr.json: not a zarr array", kv->name, prefix);
    }
  }
  HR_TRY(s);
  snprintf(z->where, sizeof z->where, "%s/%s%s%s", kv->name, prefix, prefix[0] ? "/" : "", name);
  json_error_t err;
  json_t *m = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, &err);
  a->free(a->ctx, data);
  if (!json_is_object(m)) {
    json_decref(m);
    return hr_error(HR_PARSE_ERROR, "%s: not a JSON object%s%s", z->where, m ? "" : ": ", m ? "" : err.text);
  }
  z->version = name[0] == '.' ? 2 : 3;
  json_t *format = json_object_get(m, "zarr_format");
  if (!json_is_integer(format) || json_integer_value(format) != z->version)
    s = field_error(z, HR_PARSE_ERROR, "zarr_format", "not %d", z->version);
  else
    s = z->version == 2 ? parse_v2(z, m) : parse_v3(z, m);
  json_decref(m);
  return s ? s : count_chunks(z);
}

hr_status hr_zarr_read_info(hr_kvstore *kv, const char *prefix, hr_dtype *dtype, hr_shape *shape) {
  if (!kv || !prefix || !dtype || !shape) return hr_error(HR_INVALID_ARGUMENT, "hr_zarr_read_info: NULL argument");
  zr_array z;
  HR_TRY(zr_read_metadata(kv, prefix, hr_default_allocator(), &z));
  *dtype = z.dtype;
  *shape = z.shape;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Writing (zarr v2, as Orbax writes it)                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* The .zarray of tensor `t` stored as one chunk: keys sorted and compact, as tensorstore writes it.
 * zarr has no empty chunks: a zero dimension gets chunks of 1 (no chunk of such an array is read). */
static hr_status encode_zarray(const hr_tensor *t, const char *typestr, int level, const hr_allocator *a, char **out) {
  json_t *shape = json_array(), *chunks = json_array();
  for (int d = 0; shape && chunks && d < t->shape.rank; d++) {
    json_array_append_new(shape, json_integer(t->shape.dims[d]));
    json_array_append_new(chunks, json_integer(t->shape.dims[d] ? t->shape.dims[d] : 1));
  }
  json_t *doc = json_pack("{s:o, s:{s:s, s:i}, s:s, s:s, s:n, s:n, s:s, s:o, s:i}", "chunks", chunks, "compressor",
                          "id", "zstd", "level", level, "dimension_separator", ".", "dtype", typestr, "fill_value",
                          "filters", "order", "C", "shape", shape, "zarr_format", 2);
  char *text = doc ? json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  json_decref(doc);
  size_t n = text ? strlen(text) + 1 : 0;
  *out = text ? a->alloc(a->ctx, n, 1) : NULL;
  if (*out) memcpy(*out, text, n);
  free(text);
  return *out ? NULL : hr_error(HR_OUT_OF_MEMORY, "zarr: out of memory encoding a .zarray");
}

/* One zstd frame of the tensor's bytes (C order, little-endian: its memory layout). */
static hr_status encode_chunk(const hr_tensor *t, int level, const hr_allocator *a, unsigned char **out, size_t *len) {
  size_t cap = ZSTD_compressBound(t->nbytes);
  *out = a->alloc(a->ctx, cap, 16);
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "zarr: out of memory compressing a chunk of %zu bytes", t->nbytes);
  size_t n = ZSTD_compress(*out, cap, t->data, t->nbytes, level);
  if (ZSTD_isError(n)) {
    a->free(a->ctx, *out);
    *out = NULL;
    return hr_error(HR_INTERNAL, "zarr: zstd compression failed: %s", ZSTD_getErrorName(n));
  }
  *len = n;
  return NULL;
}

hr_status hr_zarr_encode_v2(const hr_tensor *t, int zstd_level, char **zarray_json, unsigned char **chunk,
                            size_t *chunk_len, const hr_allocator *a) {
  if (!t || !zarray_json || !chunk || !chunk_len)
    return hr_error(HR_INVALID_ARGUMENT, "hr_zarr_encode_v2: NULL argument");
  *zarray_json = NULL;
  *chunk = NULL;
  *chunk_len = 0;
  a = a ? a : hr_default_allocator();
  const char *typestr = NULL;
  for (size_t i = 0; i < sizeof v2_types / sizeof v2_types[0]; i++)
    if (v2_types[i].dtype == t->dtype) typestr = v2_types[i].typestr;
  if (!typestr)
    return hr_error(HR_UNIMPLEMENTED, "zarr: the element type %s cannot be written (the zarr reader does not hold it)",
                    hr_dtype_name(t->dtype));
  HR_TRY(encode_zarray(t, typestr, zstd_level, a, zarray_json));
  hr_status s = encode_chunk(t, zstd_level, a, chunk, chunk_len);
  if (s) {
    a->free(a->ctx, *zarray_json);
    *zarray_json = NULL;
  }
  return s;
}

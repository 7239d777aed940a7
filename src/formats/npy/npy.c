/* NumPy .npy files (format versions 1.0, 2.0 and 3.0), C order, little-endian.
 *
 * dtype mapping: '|b1' <-> i1, '|i1' <-> i8, '<i2' <-> i16, '<i4' <-> i32, '<i8' <-> i64, '|u1' <-> ui8,
 * '<u2' <-> ui16, '<u4' <-> ui32, '<u8' <-> ui64, '<f2' <-> f16, '<f4' <-> f32, '<f8' <-> f64,
 * '<c8' <-> complex<f32>, '<c16' <-> complex<f64>, and '|V2' (how ml_dtypes' bfloat16 arrays are
 * saved) <-> bf16. Sub-byte integers are written one per byte as i1/u1 and read back as i8/ui8.
 * The narrow floats: tf32 is written as '<f4' (its memory form is the float32 of the same value)
 * and read back as f32; the f8/f6/f4 types are written as '|V1', the descriptor np.save gives every
 * one-byte ml_dtypes array (float8_*, float6_*, float4_e2m1fn, int2, int4: `np.load(f).view(
 * ml_dtypes.float8_e4m3fn)` reads them back). '|V1' does not say which type the bytes hold, so it
 * is read only as the type the caller expects there (hr_npy_read_file_as: a model input's type),
 * and so are '|i1' / '|u1' arrays where an i2/i4 (ui2/ui4) is expected; every byte must then be a
 * value of that type (f4/f6 and sub-byte integers stored one per byte, as ml_dtypes does). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/limits.h"
#include "hlorun/hlorun.h"

typedef struct npy_dtype {
  const char *descr;
  hr_dtype dtype;
} npy_dtype;

/* Descriptors accepted on read; the first one per dtype is the one written. */
static const npy_dtype npy_dtypes[] = {
    {"|b1", HR_I1},   {"|i1", HR_I8},   {"<i2", HR_I16}, {"<i4", HR_I32},  {"<i8", HR_I64},
    {"|u1", HR_U8},   {"<u2", HR_U16},  {"<u4", HR_U32}, {"<u8", HR_U64},  {"<f2", HR_F16},
    {"<f4", HR_F32},  {"<f8", HR_F64},  {"<c8", HR_C64}, {"<c16", HR_C128}, {"|V2", HR_BF16},
    {"<V2", HR_BF16}, {"|i2", HR_I16},  {"=f4", HR_F32}, {"=f8", HR_F64},  {"=i4", HR_I32},
    {"=i8", HR_I64},  {"<b1", HR_I1},   {"<i1", HR_I8},  {"<u1", HR_U8},
};

static const char *descr_for(hr_dtype t) {
  switch (t) {
    case HR_I2: case HR_I4: return "|i1";
    case HR_U2: case HR_U4: return "|u1";
    case HR_INDEX: return "<i8"; /* numpy has no index type: its 64-bit integers */
    case HR_TF32: return "<f4";
    default: if (hr_dtype_is_narrow_float(t)) return "|V1"; /* one byte each, as ml_dtypes stores them */
      break;
  }
  for (size_t i = 0; i < sizeof npy_dtypes / sizeof npy_dtypes[0]; i++)
    if (npy_dtypes[i].dtype == t) return npy_dtypes[i].descr;
  return NULL;
}

/* A cursor over the header dictionary text. */
typedef struct cursor {
  const char *p, *end;
} cursor;

static void skip_space(cursor *c) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n')) c->p++;
}

static bool eat(cursor *c, char ch) {
  skip_space(c);
  if (c->p < c->end && *c->p == ch) {
    c->p++;
    return true;
  }
  return false;
}

/* Reads a quoted Python string ('...' or "...") into buf. */
static bool read_string(cursor *c, char *buf, size_t cap) {
  skip_space(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return false;
  char q = *c->p++;
  size_t n = 0;
  while (c->p < c->end && *c->p != q) {
    if (n + 1 >= cap) return false;
    buf[n++] = *c->p++;
  }
  if (c->p >= c->end) return false;
  c->p++;
  buf[n] = '\0';
  return true;
}

/* Parses the shape tuple "(2, 3)" / "(5,)" / "()". */
static bool read_shape(cursor *c, hr_shape *shape) {
  shape->rank = 0;
  if (!eat(c, '(')) return false;
  for (;;) {
    skip_space(c);
    if (eat(c, ')')) return true;
    if (shape->rank >= HR_MAX_RANK) return false;
    int64_t v = 0;
    int digits = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
      if (v > (INT64_MAX - 9) / 10) return false;
      v = v * 10 + (*c->p++ - '0');
      digits++;
    }
    if (!digits) return false;
    shape->dims[shape->rank++] = v;
    skip_space(c);
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 long suffix */
    if (!eat(c, ',')) {
      if (!eat(c, ')')) return false;
      return true;
    }
  }
}

/* The type an array of descriptor `descr` is read as where the caller expects `expect`
 * (HR_DTYPE_INVALID: nothing): '|V1' as a one-byte ml_dtypes type, '|i1' / '|u1' as a sub-byte
 * integer; HR_DTYPE_INVALID when neither applies. */
static hr_dtype one_byte_as(const char *descr, hr_dtype expect) {
  bool v1 = strcmp(descr + 1, "V1") == 0, i1 = strcmp(descr + 1, "i1") == 0, u1 = strcmp(descr + 1, "u1") == 0;
  if (v1 && hr_dtype_size(expect) == 1 && (hr_dtype_is_narrow_float(expect) || hr_dtype_bits(expect) < 8) &&
      expect != HR_I1)
    return expect;
  if (i1 && (expect == HR_I2 || expect == HR_I4)) return expect;
  if (u1 && (expect == HR_U2 || expect == HR_U4)) return expect;
  return HR_DTYPE_INVALID;
}

/* Whether every byte of `t` (a one-byte type read by one_byte_as) is a value of its type: the bits
 * above an f4/f6 value clear, a sub-byte integer within its range (signed ones sign-extended).
 * Booleans pass: any non-zero byte is true (the reader normalizes them). */
static bool bytes_fit(const hr_tensor *t) {
  int bits = hr_dtype_bits(t->dtype);
  if (bits >= 8 || t->dtype == HR_I1) return true;
  const uint8_t *b = t->data;
  bool is_signed = hr_dtype_is_signed_int(t->dtype);
  for (size_t i = 0; i < t->nbytes; i++) {
    int v = is_signed ? (int)(int8_t)b[i] : (int)b[i];
    int lo = is_signed ? -(1 << (bits - 1)) : 0, hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
    if (v < lo || v > hi) return false;
  }
  return true;
}

/* Parses the header dictionary {'descr': ..., 'fortran_order': ..., 'shape': ...}; `expect` as in
 * one_byte_as. */
static hr_status parse_header(const char *text, size_t len, hr_dtype expect, hr_dtype *dtype, hr_shape *shape) {
  cursor c = {text, text + len};
  bool have_descr = false, have_shape = false, fortran = false;
  if (!eat(&c, '{')) return hr_error(HR_PARSE_ERROR, "npy header is not a dictionary");
  while (!eat(&c, '}')) {
    char key[32], descr[16];
    if (!read_string(&c, key, sizeof key) || !eat(&c, ':')) return hr_error(HR_PARSE_ERROR, "malformed npy header");
    if (strcmp(key, "descr") == 0) {
      if (!read_string(&c, descr, sizeof descr)) return hr_error(HR_UNIMPLEMENTED, "npy: structured dtypes are not supported");
      *dtype = one_byte_as(descr, expect);
      if (*dtype == HR_DTYPE_INVALID && strcmp(descr + 1, "V1") == 0)
        return hr_error(HR_UNIMPLEMENTED,
                        "npy dtype '%s' is a one-byte ml_dtypes type (float8_*, float6_*, float4_e2m1fn, int2, "
                        "int4) that the file does not name, read only where a one-byte type is expected "
                        "(expected here: %s)", descr,
                        expect == HR_DTYPE_INVALID ? "nothing" : hr_dtype_name(expect));
      for (size_t i = 0; i < sizeof npy_dtypes / sizeof npy_dtypes[0] && *dtype == HR_DTYPE_INVALID; i++)
        if (strcmp(npy_dtypes[i].descr, descr) == 0) *dtype = npy_dtypes[i].dtype;
      if (*dtype == HR_DTYPE_INVALID) return hr_error(HR_UNIMPLEMENTED, "npy dtype '%s' is not supported", descr);
      have_descr = true;
    } else if (strcmp(key, "fortran_order") == 0) {
      skip_space(&c);
      if ((size_t)(c.end - c.p) >= 4 && memcmp(c.p, "True", 4) == 0) {
        fortran = true;
        c.p += 4;
      } else if ((size_t)(c.end - c.p) >= 5 && memcmp(c.p, "False", 5) == 0) {
        c.p += 5;
      } else {
        return hr_error(HR_PARSE_ERROR, "npy: bad fortran_order");
      }
    } else if (strcmp(key, "shape") == 0) {
      if (!read_shape(&c, shape)) return hr_error(HR_PARSE_ERROR, "npy: bad shape (rank at most %d)", HR_MAX_RANK);
      have_shape = true;
    } else {
      return hr_error(HR_PARSE_ERROR, "npy: unexpected header key '%s'", key);
    }
    if (!eat(&c, ',')) {
      if (!eat(&c, '}')) return hr_error(HR_PARSE_ERROR, "malformed npy header");
      break;
    }
  }
  if (!have_descr || !have_shape) return hr_error(HR_PARSE_ERROR, "npy header lacks descr or shape");
  int nontrivial = 0;
  for (int i = 0; i < shape->rank; i++) nontrivial += shape->dims[i] > 1;
  if (fortran && nontrivial > 1) return hr_error(HR_UNIMPLEMENTED, "npy: Fortran-order arrays are not supported");
  return NULL;
}

hr_status hr_npy_read_buffer(const void *buf, size_t len, const hr_allocator *a, size_t max_bytes, hr_tensor **out) {
  return hr_npy_read_buffer_as(buf, len, HR_DTYPE_INVALID, a, max_bytes, out);
}

hr_status hr_npy_read_buffer_as(const void *buf, size_t len, hr_dtype expect, const hr_allocator *a,
                                size_t max_bytes, hr_tensor **out) {
  *out = NULL;
  const unsigned char *b = buf;
  if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0) return hr_error(HR_PARSE_ERROR, "not an npy file (bad magic)");
  int major = b[6];
  size_t header_len, offset;
  if (major == 1) {
    header_len = (size_t)b[8] | (size_t)b[9] << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (len < 12) return hr_error(HR_PARSE_ERROR, "truncated npy header");
    header_len = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    offset = 12;
  } else {
    return hr_error(HR_UNIMPLEMENTED, "npy format version %d is not supported", major);
  }
  if (header_len > HR_LIMIT_NPY_HEADER_BYTES || header_len > len - offset)
    return hr_error(HR_PARSE_ERROR, "truncated npy header");
  hr_dtype dtype = HR_DTYPE_INVALID;
  hr_shape shape = {0};
  HR_TRY(parse_header((const char *)b + offset, header_len, expect, &dtype, &shape));
  offset += header_len;
  hr_tensor *t;
  HR_TRY(hr_tensor_create(a, dtype, &shape, max_bytes, &t));
  if (len - offset != t->nbytes) {
    hr_status s = hr_error(HR_PARSE_ERROR, "npy data is %zu bytes, the header implies %zu", len - offset, t->nbytes);
    hr_tensor_free(t);
    return s;
  }
  if (t->nbytes) memcpy(t->data, b + offset, t->nbytes);
  if (!bytes_fit(t)) {
    hr_tensor_free(t);
    return hr_error(HR_INVALID_ARGUMENT, "npy data holds a byte that is not a %s value", hr_dtype_name(dtype));
  }
  if (dtype == HR_I1)
    for (size_t i = 0; i < t->nbytes; i++) ((uint8_t *)t->data)[i] = ((uint8_t *)t->data)[i] != 0;
  *out = t;
  return NULL;
}

hr_status hr_npy_read_file(const char *path, const hr_allocator *a, size_t max_bytes, hr_tensor **out) {
  return hr_npy_read_file_as(path, HR_DTYPE_INVALID, a, max_bytes, out);
}

hr_status hr_npy_read_file_as(const char *path, hr_dtype expect, const hr_allocator *a, size_t max_bytes,
                              hr_tensor **out) {
  *out = NULL;
  const hr_allocator *fa = a ? a : hr_default_allocator();
  char *data;
  size_t len;
  size_t file_limit = max_bytes ? max_bytes + HR_LIMIT_NPY_HEADER_BYTES + 16 : HR_LIMIT_NPY_FILE_BYTES;
  HR_TRY(hr_read_file(path, fa, file_limit, &data, &len));
  hr_status s = hr_npy_read_buffer_as(data, len, expect, a, max_bytes, out);
  fa->free(fa->ctx, data);
  return s ? hr_status_wrap(s, "%s", path) : NULL;
}

hr_status hr_npy_write_file(const char *path, const hr_tensor *t) {
  const char *descr = descr_for(t->dtype);
  if (!descr) return hr_error(HR_INVALID_ARGUMENT, "cannot write %s as npy", hr_dtype_name(t->dtype));
  char dict[512];
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < t->shape.rank; i++)
    n += snprintf(dict + n, sizeof dict - (size_t)n, t->shape.rank == 1 ? "%lld," : i ? ", %lld" : "%lld",
                  (long long)t->shape.dims[i]);
  n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
  /* Pad with spaces so that magic + length + header + '\n' is a multiple of 64 bytes. */
  size_t header_len = (size_t)n + 1;
  size_t total = 10 + header_len;
  size_t pad = (64 - total % 64) % 64;
  header_len += pad;
  size_t file_len = 10 + header_len + t->nbytes;
  unsigned char *buf = malloc(file_len);
  if (!buf) return hr_error(HR_OUT_OF_MEMORY, "out of memory writing %s", path);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)(header_len & 0xff);
  buf[9] = (unsigned char)(header_len >> 8);
  memcpy(buf + 10, dict, (size_t)n);
  memset(buf + 10 + n, ' ', pad);
  buf[10 + header_len - 1] = '\n';
  if (t->nbytes) memcpy(buf + 10 + header_len, t->data, t->nbytes);
  hr_status s = hr_write_file(path, buf, file_len);
  free(buf);
  return s;
}

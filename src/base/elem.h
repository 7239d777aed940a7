/* Loading and storing single tensor elements through wide C types. Kernels that are not speed
 * critical use these to handle every element type with one code path:
 *   integers (and i1, index) through int64_t (unsigned 64-bit values keep their bits),
 *   real floats through double (f16, bf16 and the narrow float types rounded to nearest even on
 *   store),
 *   complex through a (re, im) pair of doubles. */
#ifndef HLORUN_BASE_ELEM_H
#define HLORUN_BASE_ELEM_H

#include <stdint.h>
#include <string.h>

#include "base/numeric.h"
#include "hlorun/hlorun.h"

typedef struct hr_c128 {
  double re, im;
} hr_c128;

/* Integer element i of `data` (dtype an integer type or i1), sign/zero-extended. */
static inline int64_t hr_load_int(hr_dtype t, const void *data, int64_t i) {
  switch (t) {
    case HR_I1: case HR_U2: case HR_U4: case HR_U8: return ((const uint8_t *)data)[i];
    case HR_I2: case HR_I4: case HR_I8: return ((const int8_t *)data)[i];
    case HR_I16: return ((const int16_t *)data)[i];
    case HR_U16: return ((const uint16_t *)data)[i];
    case HR_I32: return ((const int32_t *)data)[i];
    case HR_U32: return ((const uint32_t *)data)[i];
    case HR_I64: case HR_U64: case HR_INDEX: return ((const int64_t *)data)[i];
    default: return 0;
  }
}

/* Stores the low bits of v as element i; sub-byte types are sign/zero-extended to their byte. */
static inline void hr_store_int(hr_dtype t, void *data, int64_t i, int64_t v) {
  uint64_t u = (uint64_t)v;
  switch (t) {
    case HR_I1: ((uint8_t *)data)[i] = (uint8_t)(u & 1u); break;
    case HR_I2: ((int8_t *)data)[i] = (int8_t)((u & 2u) ? (int)(u & 3u) - 4 : (int)(u & 3u)); break;
    case HR_I4: ((int8_t *)data)[i] = (int8_t)((u & 8u) ? (int)(u & 15u) - 16 : (int)(u & 15u)); break;
    case HR_U2: ((uint8_t *)data)[i] = (uint8_t)(u & 3u); break;
    case HR_U4: ((uint8_t *)data)[i] = (uint8_t)(u & 15u); break;
    case HR_I8: case HR_U8: ((uint8_t *)data)[i] = (uint8_t)u; break;
    case HR_I16: case HR_U16: ((uint16_t *)data)[i] = (uint16_t)u; break;
    case HR_I32: case HR_U32: ((uint32_t *)data)[i] = (uint32_t)u; break;
    case HR_I64: case HR_U64: case HR_INDEX: ((uint64_t *)data)[i] = u; break;
    default: break;
  }
}

/* Real float element i as double (any float type: hr_dtype_is_real_float). */
static inline double hr_load_float(hr_dtype t, const void *data, int64_t i) {
  switch (t) {
    case HR_F16: return hr_f16_to_f64(((const uint16_t *)data)[i]);
    case HR_BF16: return hr_bf16_to_f64(((const uint16_t *)data)[i]);
    case HR_F32: return ((const float *)data)[i];
    case HR_F64: return ((const double *)data)[i];
    default:
      return hr_dtype_is_narrow_float(t) ? hr_narrow_float_load(t, (const char *)data + (size_t)i * hr_dtype_size(t)) : 0.0;
  }
}

/* Stores v rounded to the element type (round to nearest even). */
static inline void hr_store_float(hr_dtype t, void *data, int64_t i, double v) {
  switch (t) {
    case HR_F16: ((uint16_t *)data)[i] = hr_f64_to_f16(v); break;
    case HR_BF16: ((uint16_t *)data)[i] = hr_f64_to_bf16(v); break;
    case HR_F32: ((float *)data)[i] = (float)v; break;
    case HR_F64: ((double *)data)[i] = v; break;
    default:
      if (hr_dtype_is_narrow_float(t)) hr_narrow_float_store(t, v, (char *)data + (size_t)i * hr_dtype_size(t));
      break;
  }
}

static inline hr_c128 hr_load_complex(hr_dtype t, const void *data, int64_t i) {
  hr_c128 c = {0, 0};
  if (t == HR_C64) {
    c.re = ((const float *)data)[2 * i];
    c.im = ((const float *)data)[2 * i + 1];
  } else if (t == HR_C128) {
    c.re = ((const double *)data)[2 * i];
    c.im = ((const double *)data)[2 * i + 1];
  }
  return c;
}

static inline void hr_store_complex(hr_dtype t, void *data, int64_t i, hr_c128 c) {
  if (t == HR_C64) {
    ((float *)data)[2 * i] = (float)c.re;
    ((float *)data)[2 * i + 1] = (float)c.im;
  } else if (t == HR_C128) {
    ((double *)data)[2 * i] = c.re;
    ((double *)data)[2 * i + 1] = c.im;
  }
}

/* Row-major strides (in elements) of a shape. Saturates instead of overflowing, which only
 * happens for empty tensors with huge other dimensions (whose strides are never used). */
static inline void hr_row_major_strides(const hr_shape *s, int64_t *strides) {
  int64_t acc = 1;
  for (int d = s->rank - 1; d >= 0; d--) {
    strides[d] = acc;
    if (__builtin_mul_overflow(acc, s->dims[d], &acc)) acc = INT64_MAX;
  }
}

/* Advances a multi-index over `shape` in row-major order; returns 0 after the last index. */
static inline int hr_next_index(const hr_shape *s, int64_t *idx) {
  for (int d = s->rank - 1; d >= 0; d--) {
    if (++idx[d] < s->dims[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

#endif

/* Scalar conversions for the 16-bit float formats (IEEE binary16 and bfloat16), and reading
 * integer elements of any width. All conversions to the narrow formats round to nearest, ties to
 * even, and keep NaNs quiet. */
#ifndef HLORUN_BASE_NUMERIC_H
#define HLORUN_BASE_NUMERIC_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hlorun/hlorun.h"

static inline uint32_t hr_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float hr_bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint64_t hr_f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static inline double hr_bits_f64(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static inline float hr_bf16_to_f32(uint16_t h) { return hr_bits_f32((uint32_t)h << 16); }

static inline uint16_t hr_f32_to_bf16(float f) {
  uint32_t u = hr_f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40); /* quiet NaN */
  uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)((u + rounding) >> 16);
}

float hr_f16_to_f32(uint16_t h);
uint16_t hr_f32_to_f16(float f);
/* Direct conversions from double avoid double rounding through f32. */
uint16_t hr_f64_to_f16(double d);
uint16_t hr_f64_to_bf16(double d);
static inline double hr_f16_to_f64(uint16_t h) { return (double)hr_f16_to_f32(h); }
static inline double hr_bf16_to_f64(uint16_t h) { return (double)hr_bf16_to_f32(h); }

/* The value of one element of a narrow float type (hr_dtype_is_narrow_float) stored at `p`
 * (exact: every such value is a double). */
double hr_narrow_float_load(hr_dtype t, const void *p);
/* Stores `v` at `p` as narrow float type `t`, rounded to nearest, ties to even, as MLIR's APFloat
 * converts (overflow and NaN as the type defines them: base/minifloat.h). */
void hr_narrow_float_store(hr_dtype t, double v, void *p);

/* Float elements of every float type (f16, bf16, f32, f64 and the narrow ones), as MLIR holds them:
 * its "pattern" is the APInt of the value's bits, hr_float_pattern_bits wide (16, 32, 64; 8, 6 or 4
 * for the f8/f6/f4 types; 19 for tf32, whose memory form is the float32 pattern). Conversions from
 * a double round to nearest, ties to even. */
bool hr_dtype_is_real_float(hr_dtype t); /* hr_dtype_is_float or hr_dtype_is_narrow_float */
int hr_float_pattern_bits(hr_dtype t);
uint64_t hr_float_to_pattern(hr_dtype t, double v);
double hr_float_from_pattern(hr_dtype t, uint64_t bits);
/* The pattern of the element at `p` (hr_dtype_size bytes), and the element of a pattern. */
uint64_t hr_float_load_pattern(hr_dtype t, const void *p);
void hr_float_store_pattern(hr_dtype t, uint64_t bits, void *p);
double hr_float_load(hr_dtype t, const void *p);
void hr_float_store(hr_dtype t, double v, void *p);

/* Reads one element of an integer type (i1, i2..i64, ui2..ui64, index, stored as hr_dtype_size bytes) at
 * `p`, which need not be aligned, widened to int64 (ui64 wraps). False for other types. */
bool hr_read_int_element(hr_dtype t, const void *p, int64_t *out);

#endif

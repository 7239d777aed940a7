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

/* Reads one element of an integer type (i1, i2..i64, ui2..ui64, stored as hr_dtype_size bytes) at
 * `p`, which need not be aligned, widened to int64 (ui64 wraps). False for other types. */
bool hr_read_int_element(hr_dtype t, const void *p, int64_t *out);

#endif

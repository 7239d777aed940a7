#include "base/numeric.h"

#include <math.h>

#include "base/minifloat.h"

float hr_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  uint32_t u;
  if (exp == 0x1f) {
    u = sign | 0x7f800000u | (man << 13); /* inf / NaN (payload kept) */
  } else if (exp != 0) {
    u = sign | ((exp + 112) << 23) | (man << 13);
  } else if (man == 0) {
    u = sign;
  } else {
    /* Subnormal: value = man * 2^-24, exactly representable in f32. */
    float v = (float)man * 0x1p-24f;
    u = sign | hr_f32_bits(v);
  }
  return hr_bits_f32(u);
}

/* Rounds a finite or infinite double to binary16 (RNE). Shared by the f32 and f64 entry points:
 * every f32 is exactly representable as a double, so there is no double rounding. */
static uint16_t round_to_f16(double d) {
  uint64_t u = hr_f64_bits(d);
  uint16_t sign = (uint16_t)((u >> 48) & 0x8000u);
  if (isnan(d)) return (uint16_t)(sign | 0x7e00u | ((u >> 42) & 0x1ffu));
  double a = fabs(d);
  if (a >= 65520.0) return (uint16_t)(sign | 0x7c00u); /* rounds to infinity */
  if (a < 0x1p-14) {
    /* Subnormal range: quantum is 2^-24. nearbyint uses the current mode, which is RNE. */
    double q = nearbyint(a * 0x1p24);
    return (uint16_t)(sign | (uint16_t)q); /* q == 1024 yields the smallest normal, correctly */
  }
  int e;
  double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  /* binary16 normal: a = 1.f * 2^(e-1), 10 fraction bits. */
  double scaled = nearbyint(m * 2048.0); /* in [1024, 2048] */
  int exp16 = e - 1 + 15;
  if (scaled >= 2048.0) {
    scaled /= 2.0;
    exp16 += 1;
  }
  if (exp16 >= 31) return (uint16_t)(sign | 0x7c00u);
  return (uint16_t)(sign | (uint16_t)(exp16 << 10) | ((uint16_t)scaled & 0x3ffu));
}

uint16_t hr_f32_to_f16(float f) { return round_to_f16((double)f); }

uint16_t hr_f64_to_f16(double d) { return round_to_f16(d); }

uint16_t hr_f64_to_bf16(double d) {
  if (isnan(d)) {
    uint64_t u = hr_f64_bits(d);
    return (uint16_t)(((u >> 48) & 0x8000u) | 0x7fc0u);
  }
  /* Round to the nearest bf16 directly: keep 8 significant bits from the double. */
  double a = fabs(d);
  uint16_t sign = signbit(d) ? 0x8000u : 0;
  if (a == 0.0 || isinf(a)) return (uint16_t)(sign | (isinf(a) ? 0x7f80u : 0));
  if (a < 0x1p-126) {
    double q = nearbyint(a * 0x1p133); /* subnormal quantum 2^-133 */
    return (uint16_t)(sign | (uint16_t)q);
  }
  int e;
  double m = frexp(a, &e);
  double scaled = nearbyint(m * 256.0); /* [128, 256] */
  int exp8 = e - 1 + 127;
  if (scaled >= 256.0) {
    scaled /= 2.0;
    exp8 += 1;
  }
  if (exp8 >= 255) return (uint16_t)(sign | 0x7f80u);
  return (uint16_t)(sign | (uint16_t)(exp8 << 7) | ((uint16_t)scaled & 0x7fu));
}

bool hr_read_int_element(hr_dtype t, const void *p, int64_t *out) {
  switch (t) {
    case HR_I1:
    case HR_U2:
    case HR_U4:
    case HR_U8: *out = *(const uint8_t *)p; return true;
    case HR_I2:
    case HR_I4:
    case HR_I8: *out = *(const int8_t *)p; return true;
    case HR_I16: {
      int16_t v;
      memcpy(&v, p, sizeof v);
      *out = v;
      return true;
    }
    case HR_U16: {
      uint16_t v;
      memcpy(&v, p, sizeof v);
      *out = v;
      return true;
    }
    case HR_I32: {
      int32_t v;
      memcpy(&v, p, sizeof v);
      *out = v;
      return true;
    }
    case HR_U32: {
      uint32_t v;
      memcpy(&v, p, sizeof v);
      *out = v;
      return true;
    }
    case HR_I64:
    case HR_INDEX:
    case HR_U64: memcpy(out, p, sizeof *out); return true;
    default: return false;
  }
}
/* ---------------------------------------------------------------------------------------------- */
/* Float elements of every type                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* The narrow float types are declared in hlorun.h in the order of minifloat.h's formats. */
_Static_assert(HR_F8E4M3FN + HR_MF_F8E5M2 == HR_F8E5M2 && HR_F8E4M3FN + HR_MF_F8E8M0FNU == HR_F8E8M0FNU &&
                   HR_F8E4M3FN + HR_MF_TF32 == HR_TF32 && HR_MF_COUNT == HR_TF32 - HR_F8E4M3FN + 1,
               "hr_dtype's narrow float types follow hr_mf_format's order");

static hr_mf_format mf_format(hr_dtype t) { return (hr_mf_format)(t - HR_F8E4M3FN); }

/* The bytes a narrow float occupies in memory hold its minifloat encoding (tf32: the float32 bit
 * pattern, 4 bytes; the others one byte). */
static uint32_t load_narrow_bits(hr_dtype t, const void *p) {
  uint32_t bits = 0;
  if (t == HR_TF32) memcpy(&bits, p, 4);
  else bits = *(const uint8_t *)p;
  return bits;
}

static void store_narrow_bits(hr_dtype t, uint32_t bits, void *p) {
  if (t == HR_TF32) memcpy(p, &bits, 4);
  else *(uint8_t *)p = (uint8_t)bits;
}

double hr_narrow_float_load(hr_dtype t, const void *p) { return hr_mf_to_f64(mf_format(t), load_narrow_bits(t, p)); }

void hr_narrow_float_store(hr_dtype t, double v, void *p) { store_narrow_bits(t, hr_mf_from_f64(mf_format(t), v), p); }

bool hr_dtype_is_real_float(hr_dtype t) { return hr_dtype_is_float(t) || hr_dtype_is_narrow_float(t); }

int hr_float_pattern_bits(hr_dtype t) {
  switch (t) {
    case HR_F16:
    case HR_BF16: return 16;
    case HR_F32: return 32;
    case HR_TF32: return 19;
    default: return hr_dtype_is_narrow_float(t) ? hr_dtype_bits(t) : 64;
  }
}

uint64_t hr_float_to_pattern(hr_dtype t, double v) {
  switch (t) {
    case HR_F16: return hr_f64_to_f16(v);
    case HR_BF16: return hr_f64_to_bf16(v);
    case HR_F32: return hr_f32_bits((float)v);
    case HR_TF32: return hr_mf_from_f64(HR_MF_TF32, v) >> 13;
    default: return hr_dtype_is_narrow_float(t) ? hr_mf_from_f64(mf_format(t), v) : hr_f64_bits(v);
  }
}

double hr_float_from_pattern(hr_dtype t, uint64_t bits) {
  switch (t) {
    case HR_F16: return hr_f16_to_f64((uint16_t)bits);
    case HR_BF16: return hr_bf16_to_f64((uint16_t)bits);
    case HR_F32: return (double)hr_bits_f32((uint32_t)bits);
    case HR_TF32: return hr_mf_to_f64(HR_MF_TF32, (uint32_t)bits << 13);
    default: return hr_dtype_is_narrow_float(t) ? hr_mf_to_f64(mf_format(t), (uint32_t)bits) : hr_bits_f64(bits);
  }
}

uint64_t hr_float_load_pattern(hr_dtype t, const void *p) {
  uint64_t bits = 0;
  if (hr_dtype_is_narrow_float(t)) return t == HR_TF32 ? load_narrow_bits(t, p) >> 13 : load_narrow_bits(t, p);
  memcpy(&bits, p, hr_dtype_size(t)); /* little-endian hosts: the low bytes */
  return bits;
}

void hr_float_store_pattern(hr_dtype t, uint64_t bits, void *p) {
  if (hr_dtype_is_narrow_float(t)) store_narrow_bits(t, t == HR_TF32 ? (uint32_t)bits << 13 : (uint32_t)bits, p);
  else memcpy(p, &bits, hr_dtype_size(t));
}

double hr_float_load(hr_dtype t, const void *p) { return hr_float_from_pattern(t, hr_float_load_pattern(t, p)); }

void hr_float_store(hr_dtype t, double v, void *p) { hr_float_store_pattern(t, hr_float_to_pattern(t, v), p); }

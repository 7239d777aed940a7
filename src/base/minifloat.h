/* Narrow floating-point element types of StableHLO / MLIR ("minifloats"): exact decoding to double
 * and correctly rounded encoding from double, with each format's own rules for infinity, NaN and
 * negative zero. Self-contained: the caller maps its dtypes to hr_mf_format.
 *
 * The formats (value of a finite encoding with sign s, biased exponent E, mantissa M of m bits:
 * E == 0 is subnormal, (-1)^s * M * 2^(1-bias-m); otherwise (-1)^s * (1 + M/2^m) * 2^(E-bias)):
 *
 *   MLIR name      ml_dtypes name     bits  E  M  bias  inf   NaN encodings           -0   max
 *   f8E4M3FN       float8_e4m3fn       8    4  3   7    no    S.1111.111 (0x7F, 0xFF) yes  448
 *   f8E5M2         float8_e5m2         8    5  2  15    yes   S.11111.mm, mm != 0     yes  57344
 *   f8E4M3FNUZ     float8_e4m3fnuz     8    4  3   8    no    0x80 only               no   240
 *   f8E5M2FNUZ     float8_e5m2fnuz     8    5  2  16    no    0x80 only               no   57344
 *   f8E4M3B11FNUZ  float8_e4m3b11fnuz  8    4  3  11    no    0x80 only               no   30
 *   f8E3M4         float8_e3m4         8    3  4   3    yes   S.111.mmmm, mmmm != 0   yes  15.5
 *   f8E4M3         float8_e4m3         8    4  3   7    yes   S.1111.mmm, mmm != 0    yes  240
 *   f8E8M0FNU      float8_e8m0fnu      8    8  0 127    no    0xFF only               -    2^127
 *   f4E2M1FN       float4_e2m1fn       4    2  1   1    no    none                    yes  6
 *   f6E2M3FN       float6_e2m3fn       6    2  3   1    no    none                    yes  7.5
 *   f6E3M2FN       float6_e3m2fn       6    3  2   3    no    none                    yes  28
 *   tf32           (none)             19    8 10 127    yes   as binary32             yes  below
 *
 * f8E8M0FNU is unsigned and has no zero and no subnormals: the byte is the biased exponent alone,
 * value 2^(E-127), so 0x00 is 2^-127 and 0xFE is 2^127. The FNUZ formats use 0x80 (what would be
 * -0) as their only NaN and have no -0. f4/f6 values sit in the low 4/6 bits of a byte, sign bit
 * 0x8/0x20; the upper bits are not part of the value (ignored when read, zero when written).
 * tf32 is stored as 4 bytes: the binary32 bit pattern whose low 13 mantissa bits are zero; the
 * encoding is bits 31..13 (19 significant bits) and the low 13 bits are ignored when read. Its
 * largest value is (2-2^-10)*2^127, the smallest normal 2^-126, the smallest subnormal 2^-136.
 * Sources: LLVM APFloat.cpp (fltSemantics, fltNonfiniteBehavior, fltNanEncoding), ml_dtypes
 * float8.h / mxfloat.h, the StableHLO spec's "Types" section, the OCP MX spec (FP4/FP6/E8M0).
 *
 * hr_mf_from_f64 rounds to nearest, ties to even, as LLVM APFloat::convert(rmNearestTiesToEven)
 * does (what MLIR uses to parse float literals and the StableHLO reference interpreter's convert):
 * subnormals and gradual underflow; a result that rounds to zero keeps the sign where the format
 * has -0 (FNUZ: +0). Ties to even compare the last kept significand bit, so for f8E8M0FNU, whose
 * one-bit significand is always 1, a value exactly halfway between 2^k and 2^(k+1) rounds up.
 * Overflow (the rounded magnitude is beyond the largest finite value) and the special inputs:
 *
 *   format kind            overflow / +-inf in   NaN in                    -0 in
 *   IEEE (E5M2,E4M3,E3M4,  +-inf / +-inf         quiet NaN, sign and top   -0
 *     tf32)                                      payload bits kept
 *   FN (E4M3FN)            S.1111.111 (NaN with the input's sign)          -0
 *   FNUZ                   0x80 (NaN)            0x80                      +0
 *   E8M0FNU                0xFF (NaN)            0xFF                      0x00 (= 2^-127)
 *   f4/f6 (finite only)    +-max finite          -0 encoding (0x8/0x20)    -0
 *
 * APFloat itself has no result for some inputs: converting inf or NaN to the finite-only f4/f6
 * types hits llvm_unreachable ("semantics don't support inf/NaN!"; MLIR no longer folds such
 * casts), and negative values into the unsigned f8E8M0FNU give a meaningless byte (the sign bit
 * ORed into the exponent) or llvm_unreachable. There this library follows XLA's elemental IR
 * emitter (the convert XLA's CPU backend compiles): f4/f6 +-inf -> +-max finite, NaN -> the -0
 * encoding whatever the NaN's sign; f8E8M0FNU: a negative value -> NaN (0xFF), except those
 * APFloat itself flushes to zero, -0.0 and negatives of magnitude <= 2^-128, which give 0x00
 * (2^-127) as in APFloat (a zero becomes the smallest value). Finite overflow of f4/f6 saturates
 * in APFloat too (handleOverflow for fltNonfiniteBehavior::FiniteOnly), and f8E8M0FNU's bottom is
 * APFloat's: every positive value below 1.5*2^-127 gives 0x00, [1.5*2^-127, 3*2^-127) 0x01.
 *
 * ml_dtypes (NumPy/JAX host-side casts, `T(double)` in C++) differs, so hr_mf_from_f64_ml_dtypes
 * reproduces it: an IEEE-format NaN becomes the canonical quiet NaN (payload dropped); f8E8M0FNU
 * maps +-0 and every negative value to NaN, and rounds values in (2^-127, 2^-126) to 2^-126 (it
 * treats 0x00 like a subnormal step, as XLA's convert also does); f4/f6 map +NaN to the -0
 * encoding and -NaN to +0. Everything else (rounding, overflow to inf/NaN, FN +-inf -> NaN with
 * sign) is as hr_mf_from_f64. One ml_dtypes bug is not reproduced: its float8_e8m0fnu(double)
 * wraps doubles in [1.5*2^128, 2^129) around to 0x00 (2^-127); here they overflow to NaN.
 * Note: NumPy's array cast float64 -> float8 (`x.astype(...)`) goes through float32 first; it
 * equals hr_mf_from_f64_ml_dtypes(f, (double)(float)x), which can differ from the direct
 * conversion by double rounding. ml_dtypes has no tf32; there this is hr_mf_from_f64.
 *
 * Saturating conversion (hr_mf_from_f64_saturate): as hr_mf_from_f64, but a finite value beyond
 * the range gives +-max finite in every format, and +-inf gives +-max finite in the formats without
 * infinity (IEEE formats keep +-inf); NaN still gives NaN. For f8E8M0FNU every negative value and
 * -inf give 0x00 (its smallest value). This is what "clip, then cast" quantization produces; XLA
 * and ml_dtypes do not saturate (1e6 -> float8_e4m3fn is NaN with either), and ml_dtypes' own
 * ConvertFrom<kSaturate=true> agrees for finite inputs but maps +-inf to NaN in FN/FNUZ formats. */
#ifndef HLORUN_BASE_MINIFLOAT_H
#define HLORUN_BASE_MINIFLOAT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum hr_mf_format {
  HR_MF_UNKNOWN = -1, /* hr_mf_by_name's answer for a name that is not a format here */
  HR_MF_F8E4M3FN,
  HR_MF_F8E5M2,
  HR_MF_F8E4M3FNUZ,
  HR_MF_F8E5M2FNUZ,
  HR_MF_F8E4M3B11FNUZ,
  HR_MF_F8E3M4,
  HR_MF_F8E4M3,
  HR_MF_F8E8M0FNU,
  HR_MF_F4E2M1FN,
  HR_MF_F6E2M3FN,
  HR_MF_F6E3M2FN,
  HR_MF_TF32,
  HR_MF_COUNT /* number of formats */
} hr_mf_format;

/* The exact value of the stored bits `bits` (bits outside the encoding are ignored: above a f4/f6
 * or 8-bit value, the low 13 of a tf32). A NaN encoding gives a quiet NaN: IEEE and FN formats keep the sign
 * and put the mantissa at the top of the double's payload (as APFloat converts), FNUZ and E8M0 give
 * +NaN. An invalid format gives NaN. */
double hr_mf_to_f64(hr_mf_format f, uint32_t bits);

/* `v` rounded to format `f` as APFloat does (see above), as stored bits (canonical: the upper bits
 * of a f4/f6 byte and the low 13 bits of a tf32 are zero). An invalid format gives 0. */
uint32_t hr_mf_from_f64(hr_mf_format f, double v);
/* The same for a float; equal to hr_mf_from_f64(f, (double)v) (float -> double is exact). For
 * tf32 this is binary32 rounded to 10 mantissa bits: carries into the exponent, overflows to inf,
 * and a NaN keeps its sign and top 10 payload bits with the quiet bit set. */
uint32_t hr_mf_from_f32(hr_mf_format f, float v);
/* hr_mf_from_f64 with saturation at the largest finite value (see above). */
uint32_t hr_mf_from_f64_saturate(hr_mf_format f, double v);
/* The conversion ml_dtypes performs for a double (see above for where it differs). */
uint32_t hr_mf_from_f64_ml_dtypes(hr_mf_format f, double v);

bool hr_mf_is_nan(hr_mf_format f, uint32_t bits);
bool hr_mf_is_inf(hr_mf_format f, uint32_t bits);
bool hr_mf_has_inf(hr_mf_format f); /* f8E5M2, f8E4M3, f8E3M4, tf32 */
bool hr_mf_has_nan(hr_mf_format f); /* all but the f4/f6 types */

double hr_mf_max_finite(hr_mf_format f);  /* largest finite value */
double hr_mf_min_normal(hr_mf_format f);  /* smallest positive normal value (E8M0: 2^-127) */
double hr_mf_min_positive(hr_mf_format f); /* smallest positive value: the smallest subnormal,
                                              or for f8E8M0FNU (no subnormals) 2^-127 */

/* Width of a stored value in bits: 8, 4 or 6, and 32 for tf32 (of which 19 are significant; a tf32
 * takes 4 bytes, every other format one byte). 0 for an invalid format. */
int hr_mf_bits(hr_mf_format f);

/* The format whose MLIR builtin type name is `mlir_name` ("f8E4M3FN", ..., "tf32"; exact,
 * case-sensitive), HR_MF_UNKNOWN otherwise (NULL included). */
hr_mf_format hr_mf_by_name(const char *mlir_name);
/* The MLIR builtin type name of `f`; NULL for an invalid format. */
const char *hr_mf_name(hr_mf_format f);

/* The canonical stored form of `bits`: the bits that are not part of the value cleared (above a
 * f4/f6 value, the low 13 bits of a tf32, above bit 7 of an 8-bit format), so that canonical
 * values compare bytewise. Distinct encodings stay distinct: -0 and NaN payloads are kept. */
uint32_t hr_mf_canonical(hr_mf_format f, uint32_t bits);

#endif

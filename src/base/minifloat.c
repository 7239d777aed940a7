/* Conversions between double and the narrow float formats (definitions and the behaviour at
 * overflow, infinity and NaN: minifloat.h). Every format is one row of a table, and every
 * conversion works on the "magnitude code", the encoding without its sign bit: in every format the
 * codes 0 .. max_code(d) are the finite non-negative values in increasing order. */
#include "base/minifloat.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* How a format uses the encodings IEEE 754 reserves for infinity and NaN. */
typedef enum {
  MF_IEEE,         /* exponent all ones: infinity (mantissa 0) or NaN (mantissa != 0) */
  MF_NAN_ALL_ONES, /* no infinity; the all-ones magnitude is NaN ("FN", and E8M0's 0xFF) */
  MF_NAN_NEG_ZERO, /* no infinity, no -0: the sign bit alone (0x80) is the only NaN ("FNUZ") */
  MF_FINITE_ONLY,  /* no infinity, no NaN (the MX FP4/FP6 element types) */
} mf_nonfinite;

typedef struct {
  const char *name;     /* MLIR builtin type name */
  uint8_t storage_bits; /* width of a stored value (tf32: 32) */
  uint8_t enc_bits;     /* width of the encoding (tf32: 19) */
  uint8_t shift;        /* position of the encoding in the stored bits (tf32: 13) */
  uint8_t exp_bits;
  uint8_t man_bits;
  int16_t bias;
  bool has_sign; /* false for E8M0: all 8 bits are exponent */
  bool has_zero; /* false for E8M0: exponent field 0 is 2^-127, and there are no subnormals */
  mf_nonfinite nonfinite;
} mf_desc;

static const mf_desc k_formats[HR_MF_COUNT] = {
    [HR_MF_F8E4M3FN] = {"f8E4M3FN", 8, 8, 0, 4, 3, 7, true, true, MF_NAN_ALL_ONES},
    [HR_MF_F8E5M2] = {"f8E5M2", 8, 8, 0, 5, 2, 15, true, true, MF_IEEE},
    [HR_MF_F8E4M3FNUZ] = {"f8E4M3FNUZ", 8, 8, 0, 4, 3, 8, true, true, MF_NAN_NEG_ZERO},
    [HR_MF_F8E5M2FNUZ] = {"f8E5M2FNUZ", 8, 8, 0, 5, 2, 16, true, true, MF_NAN_NEG_ZERO},
    [HR_MF_F8E4M3B11FNUZ] = {"f8E4M3B11FNUZ", 8, 8, 0, 4, 3, 11, true, true, MF_NAN_NEG_ZERO},
    [HR_MF_F8E3M4] = {"f8E3M4", 8, 8, 0, 3, 4, 3, true, true, MF_IEEE},
    [HR_MF_F8E4M3] = {"f8E4M3", 8, 8, 0, 4, 3, 7, true, true, MF_IEEE},
    [HR_MF_F8E8M0FNU] = {"f8E8M0FNU", 8, 8, 0, 8, 0, 127, false, false, MF_NAN_ALL_ONES},
    [HR_MF_F4E2M1FN] = {"f4E2M1FN", 4, 4, 0, 2, 1, 1, true, true, MF_FINITE_ONLY},
    [HR_MF_F6E2M3FN] = {"f6E2M3FN", 6, 6, 0, 2, 3, 1, true, true, MF_FINITE_ONLY},
    [HR_MF_F6E3M2FN] = {"f6E3M2FN", 6, 6, 0, 3, 2, 3, true, true, MF_FINITE_ONLY},
    [HR_MF_TF32] = {"tf32", 32, 19, 13, 8, 10, 127, true, true, MF_IEEE},
};

/* ---- the shape of a format ---- */

static const mf_desc *desc_of(hr_mf_format f) {
  return (unsigned)f < (unsigned)HR_MF_COUNT ? &k_formats[f] : NULL;
}

static uint32_t enc_mask(const mf_desc *d) { return (1u << d->enc_bits) - 1u; }
static uint32_t mag_mask(const mf_desc *d) { return (1u << (d->exp_bits + d->man_bits)) - 1u; }
static uint32_t man_mask(const mf_desc *d) { return (1u << d->man_bits) - 1u; }
static uint32_t sign_bit(const mf_desc *d) { return d->has_sign ? 1u << (d->enc_bits - 1) : 0u; }

/* The encoding inside stored bits, and back. */
static uint32_t enc_of(const mf_desc *d, uint32_t bits) { return (bits >> d->shift) & enc_mask(d); }
static uint32_t stored(const mf_desc *d, uint32_t enc) { return enc << d->shift; }

/* The magnitude code of the largest finite value. */
static uint32_t max_code(const mf_desc *d) {
  switch (d->nonfinite) {
  case MF_IEEE: /* the exponent below all ones, mantissa all ones */
    return ((((1u << d->exp_bits) - 1u) << d->man_bits) - 1u);
  case MF_NAN_ALL_ONES: /* all ones is NaN: the code below it */
    return mag_mask(d) - 1u;
  case MF_NAN_NEG_ZERO:
  case MF_FINITE_ONLY: /* every magnitude is finite */
    break;
  }
  return mag_mask(d);
}

/* The unbiased exponent of the smallest normal binade: 1 - bias, or for E8M0 (no subnormals,
 * exponent field 0 is a normal 2^-bias) -bias. */
static int min_exp(const mf_desc *d) { return d->has_zero ? 1 - d->bias : -d->bias; }

/* The exact value of finite magnitude code `code`. */
static double code_value(const mf_desc *d, uint32_t code) {
  int m = d->man_bits;
  int e = (int)(code >> m);
  uint32_t man = code & man_mask(d);
  if (e == 0 && d->has_zero) return ldexp((double)man, 1 - d->bias - m); /* subnormal or zero */
  return ldexp((double)((1u << m) | man), e - d->bias - m);
}

/* ---- classification of encodings ---- */

static bool enc_is_nan(const mf_desc *d, uint32_t enc) {
  uint32_t mag = enc & mag_mask(d);
  switch (d->nonfinite) {
  case MF_IEEE:
    return (mag >> d->man_bits) == (1u << d->exp_bits) - 1u && (mag & man_mask(d)) != 0;
  case MF_NAN_ALL_ONES:
    return mag == mag_mask(d);
  case MF_NAN_NEG_ZERO:
    return enc == sign_bit(d);
  case MF_FINITE_ONLY:
    break;
  }
  return false;
}

static bool enc_is_inf(const mf_desc *d, uint32_t enc) {
  uint32_t mag = enc & mag_mask(d);
  return d->nonfinite == MF_IEEE && mag == ((1u << d->exp_bits) - 1u) << d->man_bits;
}

/* The double for a NaN encoding: quiet, with the sign and the mantissa (moved to the top of the
 * double's payload) where the format's NaNs have them, as APFloat converts; FNUZ and E8M0 give
 * the default +NaN. */
static double nan_to_f64(const mf_desc *d, uint32_t enc) {
  bool signed_nan = d->has_sign && d->nonfinite != MF_NAN_NEG_ZERO;
  uint64_t u = 0x7ff8000000000000ull; /* exponent all ones, quiet bit */
  if (signed_nan && (enc & sign_bit(d))) u |= 1ull << 63;
  u |= (uint64_t)(enc & man_mask(d)) << (52 - d->man_bits);
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* ---- rounding a double onto a format's grid ---- */

/* The index of the highest set bit of nonzero `x`. */
static int msb_index(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return 63 - __builtin_clzll(x);
#else
  int i = 0;
  while (x >>= 1) i++;
  return i;
#endif
}

/* Splits the finite, nonzero, non-negative double with bits `a` into sig * 2^exp, sig < 2^53. */
static void split_double(uint64_t a, uint64_t *sig, int *exp) {
  int biased = (int)(a >> 52);
  uint64_t frac = a & ((1ull << 52) - 1u);
  if (biased == 0) {
    *sig = frac; /* subnormal double */
    *exp = -1074;
  } else {
    *sig = frac | (1ull << 52);
    *exp = biased - 1075;
  }
}

/* sig / 2^s rounded to the nearest integer, ties to even (s may be <= 0: then exact). */
static uint64_t shift_round(uint64_t sig, int s) {
  if (s <= 0) return sig << -s; /* callers keep the result below 2^12 */
  if (s > 53) return 0;         /* sig < 2^53 <= 2^(s-1): less than half */
  uint64_t n = sig >> s;
  uint64_t rem = sig & ((1ull << s) - 1u);
  uint64_t half = 1ull << (s - 1);
  if (rem > half || (rem == half && (n & 1u))) n++;
  return n;
}

typedef struct {
  uint32_t code; /* the magnitude code of the rounded value (when !zero && !overflow) */
  bool zero;     /* the value rounded to zero */
  bool overflow; /* the rounded value is beyond the largest finite one */
} mf_rounded;

/* Rounds the finite, nonzero magnitude with double bits `a` to format `d`, nearest, ties to even
 * on the last kept significand bit (APFloat's rule). `emin` is the exponent of the smallest binade
 * with a full significand: below it the quantum stays 2^(emin - man_bits) (gradual underflow). */
static mf_rounded round_magnitude(const mf_desc *d, uint64_t a, int emin) {
  mf_rounded r = {0, false, false};
  int m = d->man_bits;
  uint64_t sig;
  int exp;
  split_double(a, &sig, &exp);
  int top = exp + msb_index(sig);        /* floor(log2(value)) */
  int q = (top > emin ? top : emin) - m; /* exponent of the last kept bit */
  uint64_t n = shift_round(sig, q - exp);
  if (n >> (m + 1)) { /* rounding carried into the next binade */
    n >>= 1;
    q++;
  }
  if (n == 0) {
    r.zero = true;
  } else if (n < (1ull << m)) {
    r.code = (uint32_t)n; /* subnormal: exponent field 0 */
  } else {
    uint64_t e = (uint64_t)(q + m + d->bias); /* >= 0: q >= emin - m */
    uint64_t code = (e << m) | (n - (1ull << m));
    r.overflow = code > max_code(d);
    r.code = r.overflow ? 0 : (uint32_t)code;
  }
  return r;
}

/* ---- the encodings a conversion produces ---- */

typedef enum { MODE_APFLOAT, MODE_SATURATE, MODE_ML_DTYPES } mf_mode;

/* Magnitude code `code` with the sign; FNUZ formats have no -0, so a zero stays positive. */
static uint32_t with_sign(const mf_desc *d, bool neg, uint32_t code) {
  if (code == 0 && d->nonfinite == MF_NAN_NEG_ZERO) return 0;
  return neg ? (sign_bit(d) | code) : code;
}

static uint32_t inf_code(const mf_desc *d) { return ((1u << d->exp_bits) - 1u) << d->man_bits; }

/* The NaN that a NaN input with sign `neg` and double fraction `frac` becomes. */
static uint32_t nan_enc(const mf_desc *d, bool neg, uint64_t frac, mf_mode mode) {
  switch (d->nonfinite) {
  case MF_IEEE: { /* APFloat keeps the top payload bits; ml_dtypes gives its canonical quiet NaN */
    uint32_t quiet = 1u << (d->man_bits - 1); /* IEEE formats have man_bits >= 2 */
    uint32_t payload = mode == MODE_ML_DTYPES ? 0u : (uint32_t)(frac >> (52 - d->man_bits));
    return with_sign(d, neg, inf_code(d) | payload | quiet);
  }
  case MF_NAN_ALL_ONES:
    return d->has_sign && neg ? sign_bit(d) | mag_mask(d) : mag_mask(d);
  case MF_NAN_NEG_ZERO:
    return sign_bit(d);
  case MF_FINITE_ONLY:
    break;
  }
  /* no NaN: XLA's choice is -0; ml_dtypes gives +-quiet_NaN(), which is -0, negated for -NaN */
  return mode == MODE_ML_DTYPES && neg ? 0u : sign_bit(d);
}

/* What a value beyond the largest finite one becomes (APFloat's handleOverflow). */
static uint32_t overflow_enc(const mf_desc *d, bool neg, mf_mode mode) {
  if (mode == MODE_SATURATE) return with_sign(d, neg, max_code(d));
  switch (d->nonfinite) {
  case MF_IEEE:
    return with_sign(d, neg, inf_code(d));
  case MF_NAN_ALL_ONES:
  case MF_NAN_NEG_ZERO:
    return nan_enc(d, neg, 0, mode);
  case MF_FINITE_ONLY:
    break;
  }
  return with_sign(d, neg, max_code(d));
}

/* What +-inf becomes: infinity where there is one, else NaN (FN/FNUZ/E8M0) or, saturating or in
 * the finite-only formats, +-max finite. */
static uint32_t inf_enc(const mf_desc *d, bool neg, mf_mode mode) {
  if (d->nonfinite == MF_IEEE) return with_sign(d, neg, inf_code(d));
  if (mode == MODE_SATURATE || d->nonfinite == MF_FINITE_ONLY)
    return with_sign(d, neg, max_code(d));
  return nan_enc(d, neg, 0, mode);
}

/* What a negative value, -0.0 and -inf included, becomes in the unsigned E8M0 (magnitude bits
 * `a`): saturating, the smallest value; ml_dtypes, NaN; APFloat mode, 0x00 where APFloat flushes
 * to zero (a zero becomes the smallest value there), else NaN (APFloat has no defined result). */
static uint32_t unsigned_negative_enc(const mf_desc *d, uint64_t a, mf_mode mode) {
  if (mode == MODE_SATURATE) return 0;
  if (mode == MODE_ML_DTYPES) return mag_mask(d);
  if (a == 0) return 0;
  if (a < 0x7ff0000000000000ull && round_magnitude(d, a, min_exp(d)).zero) return 0;
  return mag_mask(d);
}

/* What +-0.0 becomes: the signed zero, or E8M0's smallest value (APFloat) or NaN (ml_dtypes). */
static uint32_t zero_enc(const mf_desc *d, bool neg, mf_mode mode) {
  if (!d->has_zero) return mode == MODE_ML_DTYPES ? mag_mask(d) : 0u;
  return with_sign(d, neg, 0);
}

/* The encoding of `v` in format `d` under `mode`. */
static uint32_t convert(const mf_desc *d, double v, mf_mode mode) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  bool neg = (u >> 63) != 0;
  uint64_t a = u & ~(1ull << 63);
  if (a > 0x7ff0000000000000ull) return nan_enc(d, neg, a & ((1ull << 52) - 1u), mode);
  if (neg && !d->has_sign) return unsigned_negative_enc(d, a, mode);
  if (a == 0x7ff0000000000000ull) return inf_enc(d, neg, mode);
  if (a == 0) return zero_enc(d, neg, mode);
  /* ml_dtypes rounds E8M0 as if 0x00 were a subnormal step below 2^-126 */
  int emin = mode == MODE_ML_DTYPES ? 1 - d->bias : min_exp(d);
  mf_rounded r = round_magnitude(d, a, emin);
  if (r.overflow) return overflow_enc(d, neg, mode);
  if (r.zero) return d->has_zero ? with_sign(d, neg, 0) : 0u; /* E8M0: its smallest value */
  return with_sign(d, neg, r.code);
}

/* ---- public API ---- */

double hr_mf_to_f64(hr_mf_format f, uint32_t bits) {
  const mf_desc *d = desc_of(f);
  if (!d) return NAN;
  uint32_t enc = enc_of(d, bits);
  if (enc_is_nan(d, enc)) return nan_to_f64(d, enc);
  bool neg = (enc & sign_bit(d)) != 0;
  if (enc_is_inf(d, enc)) return neg ? -INFINITY : INFINITY;
  double v = code_value(d, enc & mag_mask(d));
  return neg ? -v : v;
}

uint32_t hr_mf_from_f64(hr_mf_format f, double v) {
  const mf_desc *d = desc_of(f);
  return d ? stored(d, convert(d, v, MODE_APFLOAT)) : 0u;
}

uint32_t hr_mf_from_f32(hr_mf_format f, float v) { return hr_mf_from_f64(f, (double)v); }

uint32_t hr_mf_from_f64_saturate(hr_mf_format f, double v) {
  const mf_desc *d = desc_of(f);
  return d ? stored(d, convert(d, v, MODE_SATURATE)) : 0u;
}

uint32_t hr_mf_from_f64_ml_dtypes(hr_mf_format f, double v) {
  const mf_desc *d = desc_of(f);
  if (!d) return 0u;
  /* ml_dtypes has no tf32 */
  return stored(d, convert(d, v, f == HR_MF_TF32 ? MODE_APFLOAT : MODE_ML_DTYPES));
}

bool hr_mf_is_nan(hr_mf_format f, uint32_t bits) {
  const mf_desc *d = desc_of(f);
  return d && enc_is_nan(d, enc_of(d, bits));
}

bool hr_mf_is_inf(hr_mf_format f, uint32_t bits) {
  const mf_desc *d = desc_of(f);
  return d && enc_is_inf(d, enc_of(d, bits));
}

bool hr_mf_has_inf(hr_mf_format f) {
  const mf_desc *d = desc_of(f);
  return d && d->nonfinite == MF_IEEE;
}

bool hr_mf_has_nan(hr_mf_format f) {
  const mf_desc *d = desc_of(f);
  return d && d->nonfinite != MF_FINITE_ONLY;
}

double hr_mf_max_finite(hr_mf_format f) {
  const mf_desc *d = desc_of(f);
  return d ? code_value(d, max_code(d)) : NAN;
}

double hr_mf_min_normal(hr_mf_format f) {
  const mf_desc *d = desc_of(f);
  return d ? ldexp(1.0, min_exp(d)) : NAN;
}

double hr_mf_min_positive(hr_mf_format f) {
  const mf_desc *d = desc_of(f);
  if (!d) return NAN;
  return d->has_zero ? code_value(d, 1) : code_value(d, 0);
}

int hr_mf_bits(hr_mf_format f) {
  const mf_desc *d = desc_of(f);
  return d ? d->storage_bits : 0;
}

hr_mf_format hr_mf_by_name(const char *mlir_name) {
  if (!mlir_name) return HR_MF_UNKNOWN;
  for (int i = 0; i < HR_MF_COUNT; i++)
    if (strcmp(k_formats[i].name, mlir_name) == 0) return (hr_mf_format)i;
  return HR_MF_UNKNOWN;
}

const char *hr_mf_name(hr_mf_format f) {
  const mf_desc *d = desc_of(f);
  return d ? d->name : NULL;
}

uint32_t hr_mf_canonical(hr_mf_format f, uint32_t bits) {
  const mf_desc *d = desc_of(f);
  return d ? stored(d, enc_of(d, bits)) : 0u;
}

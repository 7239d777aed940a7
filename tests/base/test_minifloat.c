/* Tests for the narrow float formats (base/minifloat.h): the definition of every format, exhaustive
 * round trips of every encoding, ties to even at every midpoint, the overflow and underflow
 * boundaries, the special values, tf32 rounding of binary32 patterns, and a comparison with an
 * independent brute-force reference (nearest of all finite values by exact comparison with the
 * midpoints between neighbours) over many random doubles. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/minifloat.h"
#include "test.h"

static long compared_; /* conversions compared, reported at the end */
static int reported_;  /* mismatches printed so far (the first few are) */

static uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}
static double double_of(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}
static float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static void mismatch(const char *what, hr_mf_format f, double in, uint32_t got, uint32_t want) {
  if (reported_++ < 25)
    fprintf(stderr, "%s %s(%a): got 0x%x, want 0x%x\n", hr_mf_name(f), what, in, got, want);
  test_failures_++;
}

/* Compares a conversion result with the expected bits, printing the first mismatches. */
#define CHECK_BITS(what, f, in, got, want)                                                         \
  do {                                                                                             \
    uint32_t g_ = (got), w_ = (want);                                                              \
    compared_++;                                                                                   \
    if (g_ != w_) mismatch(what, f, in, g_, w_);                                                   \
  } while (0)

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545f4914f6cdd1dull;
}

/* ---- each format, stated from the sources (APFloat fltSemantics, ml_dtypes, OCP MX) ---- */

typedef struct {
  hr_mf_format f;
  const char *name;
  int bits;     /* stored width */
  int man_bits; /* explicit mantissa bits */
  double max, min_normal, min_positive;
  uint32_t one, max_bits, sign; /* encodings of 1.0 and of the max; the sign bit (0: unsigned) */
  int nan_count, inf_count;     /* encodings that are NaN / infinite */
  uint32_t neg_zero;            /* from_f64(-0.0) */
  uint32_t ovf_pos, ovf_neg;    /* from_f64 of a finite value beyond the range */
  uint32_t inf_pos, inf_neg;    /* from_f64(+-inf) */
  uint32_t nan_pos, nan_neg;    /* from_f64(+-NAN), the default quiet NaN */
} mf_fact;

static const mf_fact k_facts[] = {
    {HR_MF_F8E4M3FN, "f8E4M3FN", 8, 3, 448, 0x1p-6, 0x1p-9, 0x38, 0x7e, 0x80, 2, 0, 0x80, 0x7f,
     0xff, 0x7f, 0xff, 0x7f, 0xff},
    {HR_MF_F8E5M2, "f8E5M2", 8, 2, 57344, 0x1p-14, 0x1p-16, 0x3c, 0x7b, 0x80, 6, 2, 0x80, 0x7c,
     0xfc, 0x7c, 0xfc, 0x7e, 0xfe},
    {HR_MF_F8E4M3FNUZ, "f8E4M3FNUZ", 8, 3, 240, 0x1p-7, 0x1p-10, 0x40, 0x7f, 0x80, 1, 0, 0x00,
     0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
    {HR_MF_F8E5M2FNUZ, "f8E5M2FNUZ", 8, 2, 57344, 0x1p-15, 0x1p-17, 0x40, 0x7f, 0x80, 1, 0, 0x00,
     0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
    {HR_MF_F8E4M3B11FNUZ, "f8E4M3B11FNUZ", 8, 3, 30, 0x1p-10, 0x1p-13, 0x58, 0x7f, 0x80, 1, 0,
     0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
    {HR_MF_F8E3M4, "f8E3M4", 8, 4, 15.5, 0x1p-2, 0x1p-6, 0x30, 0x6f, 0x80, 30, 2, 0x80, 0x70,
     0xf0, 0x70, 0xf0, 0x78, 0xf8},
    {HR_MF_F8E4M3, "f8E4M3", 8, 3, 240, 0x1p-6, 0x1p-9, 0x38, 0x77, 0x80, 14, 2, 0x80, 0x78, 0xf8,
     0x78, 0xf8, 0x7c, 0xfc},
    {HR_MF_F8E8M0FNU, "f8E8M0FNU", 8, 0, 0x1p127, 0x1p-127, 0x1p-127, 0x7f, 0xfe, 0, 1, 0, 0x00,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
    {HR_MF_F4E2M1FN, "f4E2M1FN", 4, 1, 6, 1, 0.5, 0x2, 0x7, 0x8, 0, 0, 0x8, 0x7, 0xf, 0x7, 0xf, 0x8,
     0x8},
    {HR_MF_F6E2M3FN, "f6E2M3FN", 6, 3, 7.5, 1, 0.125, 0x08, 0x1f, 0x20, 0, 0, 0x20, 0x1f, 0x3f,
     0x1f, 0x3f, 0x20, 0x20},
    {HR_MF_F6E3M2FN, "f6E3M2FN", 6, 2, 28, 0.25, 0.0625, 0x0c, 0x1f, 0x20, 0, 0, 0x20, 0x1f, 0x3f,
     0x1f, 0x3f, 0x20, 0x20},
    {HR_MF_TF32, "tf32", 32, 10, 0x1.ffcp127, 0x1p-126, 0x1p-136, 0x3f800000, 0x7f7fe000,
     0x80000000, 2046, 2, 0x80000000, 0x7f800000, 0xff800000, 0x7f800000, 0xff800000, 0x7fc00000,
     0xffc00000},
};
#define N_FACTS ((int)(sizeof k_facts / sizeof k_facts[0]))
#define N_NARROW (N_FACTS - 1) /* every format but tf32 (the last row) */

/* The number of encodings of a format: 2^bits, and 2^19 for tf32 (stored as enc << 13). */
static uint32_t enc_count(const mf_fact *k) {
  return k->f == HR_MF_TF32 ? 1u << 19 : 1u << k->bits;
}
static uint32_t enc_stored(const mf_fact *k, uint32_t enc) {
  return k->f == HR_MF_TF32 ? enc << 13 : enc;
}

/* ---- the brute-force reference ---- */

/* The finite non-negative values of a format in increasing order, with their encodings. */
typedef struct {
  int n;
  double v[256];
  uint32_t code[256];
} mf_grid;

static void grid_build(const mf_fact *k, mf_grid *g) {
  g->n = 0;
  for (uint32_t c = 0; c < enc_count(k); c++) {
    double x = hr_mf_to_f64(k->f, c);
    if (isnan(x) || isinf(x) || signbit(x)) continue;
    int i = g->n++;
    while (i > 0 && g->v[i - 1] > x) { /* insertion sort: no assumption on the code order */
      g->v[i] = g->v[i - 1];
      g->code[i] = g->code[i - 1];
      i--;
    }
    g->v[i] = x;
    g->code[i] = c;
  }
}

/* The weight of the last significand bit at x > 0 (the quantum stays 2^(emin - m) below the
 * smallest normal: gradual underflow). */
static double quantum(const mf_fact *k, double x) {
  int e = ilogb(x), emin = ilogb(k->min_normal);
  return ldexp(1.0, (e > emin ? e : emin) - k->man_bits);
}

/* Whether x >= 0 has an even significand, the tie-breaking rule of round-to-nearest-even. */
static bool significand_even(const mf_fact *k, double x) {
  return x == 0 || fmod(x / quantum(k, x), 2.0) == 0.0;
}

typedef enum { REF_CODE, REF_ZERO, REF_OVERFLOW } ref_kind;

/* Rounds a > 0 to the nearest grid value by exact comparison with the midpoint between the two
 * neighbours; a tie goes to the even significand. Beyond the largest value the neighbour is the
 * value one quantum further up (overflow). Below E8M0's smallest value the neighbour is 0. */
static ref_kind ref_round(const mf_fact *k, const mf_grid *g, double a, uint32_t *code) {
  int lo = -1, hi = g->n; /* invariant: v[lo] <= a < v[hi] */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (g->v[mid] <= a) lo = mid;
    else hi = mid;
  }
  if (lo >= 0 && g->v[lo] == a) {
    *code = g->code[lo];
    return a == 0 ? REF_ZERO : REF_CODE;
  }
  double below = lo >= 0 ? g->v[lo] : 0.0;
  double above = lo + 1 < g->n ? g->v[lo + 1] : g->v[lo] + quantum(k, g->v[lo]);
  double mid = below + (above - below) / 2; /* exact: few significant bits */
  bool up = a > mid || (a == mid && !significand_even(k, below));
  if (up && lo + 1 == g->n) return REF_OVERFLOW;
  int i = up ? lo + 1 : lo;
  if (i < 0 || g->v[i] == 0) return REF_ZERO;
  *code = g->code[i];
  return REF_CODE;
}

typedef enum { MODE_APFLOAT, MODE_SATURATE, MODE_ML_DTYPES } ref_mode;

/* The expected result for E8M0's special cases: negative values, zero, and (ml_dtypes) the
 * bottom binade. Returns false when the general rule applies. */
static bool ref_e8m0_special(double v, ref_mode mode, ref_kind r, uint32_t *out) {
  if (signbit(v)) { /* every negative value, -0.0 and -inf included */
    if (mode == MODE_SATURATE) *out = 0x00;
    else if (mode == MODE_ML_DTYPES) *out = 0xff;
    else *out = (v == 0 || r == REF_ZERO) ? 0x00 : 0xff; /* APFloat flushes those to 0x00 */
    return true;
  }
  if (mode == MODE_ML_DTYPES && v <= 0x1p-127) { /* zero is NaN; 0x00 holds up to 2^-127 */
    *out = v == 0 ? 0xff : 0x00;
    return true;
  }
  if (mode == MODE_ML_DTYPES && v < 0x1p-126) {
    *out = 0x01;
    return true;
  }
  if (v == 0 || r == REF_ZERO) {
    *out = 0x00; /* no zero: the smallest value */
    return true;
  }
  return false;
}

/* The expected encoding of a finite or infinite double (not NaN). */
static uint32_t ref_convert(const mf_fact *k, const mf_grid *g, double v, ref_mode mode) {
  bool neg = signbit(v) != 0;
  double a = fabs(v);
  uint32_t code = 0, out;
  ref_kind r = a == 0 ? REF_ZERO : isinf(a) ? REF_OVERFLOW : ref_round(k, g, a, &code);
  if (k->sign == 0 && ref_e8m0_special(v, mode, r, &out)) return out;
  bool no_inf = k->inf_count == 0;
  if (isinf(a) || r == REF_OVERFLOW) {
    if (mode == MODE_SATURATE && (no_inf || !isinf(a)))
      return neg ? k->sign | k->max_bits : k->max_bits;
    if (isinf(a)) return neg ? k->inf_neg : k->inf_pos;
    return neg ? k->ovf_neg : k->ovf_pos;
  }
  if (r == REF_ZERO) return neg ? k->neg_zero : 0;
  return neg ? k->sign | code : code;
}

/* A random double around the range of a format: a random binade near it, a neighbourhood of a
 * midpoint between two grid values, or any finite bit pattern; random sign. */
static double random_value(uint64_t *s, const mf_fact *k, const mf_grid *g) {
  uint64_t r = rng_next(s);
  double v;
  int lo_e = ilogb(k->min_positive) - 4, hi_e = ilogb(k->max) + 3;
  switch (r % 4) {
  case 0:
    v = ldexp(1.0 + (double)(rng_next(s) >> 12) * 0x1p-52,
              lo_e + (int)((r >> 8) % (uint64_t)(hi_e - lo_e)));
    break;
  case 1: {
    int i = (int)((r >> 8) % (uint64_t)(g->n - 1));
    v = (g->v[i] + g->v[i + 1]) / 2;
    for (int steps = (int)(r >> 40) % 3; steps > 0; steps--)
      v = nextafter(v, (r >> 50) & 1 ? INFINITY : 0.0);
    break;
  }
  case 2:
    v = ldexp((double)(rng_next(s) >> 11), -53) * k->max * 2.5; /* [0, 2.5 max) */
    break;
  default:
    v = double_of(rng_next(s) & 0x7fefffffffffffffull); /* finite, any magnitude */
    break;
  }
  return (r >> 62) & 1 ? -v : v;
}

/* ---- the tests ---- */

TEST(minifloat_names_round_trip) {
  for (int i = 0; i < N_FACTS; i++) {
    const mf_fact *k = &k_facts[i];
    CHECK(hr_mf_name(k->f) && strcmp(hr_mf_name(k->f), k->name) == 0);
    CHECK_EQ_INT(hr_mf_by_name(k->name), k->f);
  }
  CHECK_EQ_INT(N_FACTS, HR_MF_COUNT);
  const char *unknown[] = {"F8E4M3FN", "f8e4m3fn", "f8E4M3FNU", "bf16", "f16", "f32", "", "f8"};
  for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
    CHECK_EQ_INT(hr_mf_by_name(unknown[i]), HR_MF_UNKNOWN);
  CHECK_EQ_INT(hr_mf_by_name(NULL), HR_MF_UNKNOWN);
  CHECK(hr_mf_name(HR_MF_UNKNOWN) == NULL);
  CHECK(hr_mf_name(HR_MF_COUNT) == NULL);
}

TEST(minifloat_invalid_format_is_harmless) {
  CHECK_EQ_INT(hr_mf_bits(HR_MF_UNKNOWN), 0);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_UNKNOWN, 1.0), 0);
  CHECK_EQ_INT(hr_mf_from_f64_saturate(HR_MF_COUNT, 1.0), 0);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_UNKNOWN, 1.0), 0);
  CHECK(isnan(hr_mf_to_f64(HR_MF_UNKNOWN, 0)));
  CHECK(isnan(hr_mf_max_finite(HR_MF_COUNT)));
  CHECK(!hr_mf_is_nan(HR_MF_UNKNOWN, 0x80) && !hr_mf_is_inf(HR_MF_UNKNOWN, 0x7c));
  CHECK(!hr_mf_has_inf(HR_MF_UNKNOWN) && !hr_mf_has_nan(HR_MF_UNKNOWN));
  CHECK_EQ_INT(hr_mf_canonical(HR_MF_UNKNOWN, 0xff), 0);
}

/* The range, 1.0, the largest value and the number of NaN and infinity encodings. */
TEST(minifloat_definitions) {
  for (int i = 0; i < N_FACTS; i++) {
    const mf_fact *k = &k_facts[i];
    hr_mf_format f = k->f;
    CHECK_EQ_INT(hr_mf_bits(f), k->bits);
    CHECK(hr_mf_max_finite(f) == k->max);
    CHECK(hr_mf_min_normal(f) == k->min_normal);
    CHECK(hr_mf_min_positive(f) == k->min_positive);
    CHECK(hr_mf_to_f64(f, k->one) == 1.0);
    CHECK_BITS("from_f64", f, 1.0, hr_mf_from_f64(f, 1.0), k->one);
    CHECK(hr_mf_to_f64(f, k->max_bits) == k->max);
    CHECK_BITS("from_f64", f, k->max, hr_mf_from_f64(f, k->max), k->max_bits);
    CHECK_BITS("from_f64", f, k->min_positive, hr_mf_from_f64(f, k->min_positive),
               enc_stored(k, k->sign == 0 ? 0 : 1));
    CHECK(hr_mf_has_inf(f) == (k->inf_count > 0));
    CHECK(hr_mf_has_nan(f) == (k->nan_count > 0));
    int nans = 0, infs = 0;
    for (uint32_t c = 0; c < enc_count(k); c++) {
      uint32_t b = enc_stored(k, c);
      nans += hr_mf_is_nan(f, b);
      infs += hr_mf_is_inf(f, b);
      CHECK(hr_mf_is_nan(f, b) == (isnan(hr_mf_to_f64(f, b)) != 0));
      CHECK(hr_mf_is_inf(f, b) == (isinf(hr_mf_to_f64(f, b)) != 0));
    }
    CHECK_EQ_INT(nans, k->nan_count);
    CHECK_EQ_INT(infs, k->inf_count);
  }
}

/* Specific encodings, decoded. */
TEST(minifloat_known_encodings) {
  const double e2m1[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6}; /* the whole FP4 E2M1 table */
  for (uint32_t c = 0; c < 8; c++) {
    CHECK(hr_mf_to_f64(HR_MF_F4E2M1FN, c) == e2m1[c]);
    CHECK(hr_mf_to_f64(HR_MF_F4E2M1FN, c | 8) == -e2m1[c]);
  }
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3FN, 0x01) == 0x1p-9);
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3FN, 0x08) == 0x1p-6);
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3FN, 0x7d) == 416);
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3FN, 0xfe) == -448);
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3FN, 0x78) == 256); /* exponent all ones is finite in FN */
  CHECK(isnan(hr_mf_to_f64(HR_MF_F8E4M3FN, 0x7f)) && isnan(hr_mf_to_f64(HR_MF_F8E4M3FN, 0xff)));
  CHECK(hr_mf_to_f64(HR_MF_F8E5M2, 0x7c) == INFINITY);
  CHECK(hr_mf_to_f64(HR_MF_F8E5M2, 0xfc) == -INFINITY);
  CHECK(hr_mf_to_f64(HR_MF_F8E5M2, 0x01) == 0x1p-16);
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3FNUZ, 0xff) == -240);
  CHECK(isnan(hr_mf_to_f64(HR_MF_F8E4M3FNUZ, 0x80)));
  CHECK(hr_mf_to_f64(HR_MF_F8E5M2FNUZ, 0x7f) == 57344);
  CHECK(hr_mf_to_f64(HR_MF_F8E5M2FNUZ, 0x01) == 0x1p-17);
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3B11FNUZ, 0x7f) == 30);
  CHECK(hr_mf_to_f64(HR_MF_F8E3M4, 0x6f) == 15.5 && hr_mf_to_f64(HR_MF_F8E3M4, 0x70) == INFINITY);
  CHECK(hr_mf_to_f64(HR_MF_F8E4M3, 0x77) == 240 && hr_mf_to_f64(HR_MF_F8E4M3, 0x78) == INFINITY);
  CHECK(hr_mf_to_f64(HR_MF_F8E8M0FNU, 0x00) == 0x1p-127);
  CHECK(hr_mf_to_f64(HR_MF_F8E8M0FNU, 0x80) == 2.0); /* no sign bit */
  CHECK(hr_mf_to_f64(HR_MF_F8E8M0FNU, 0xfe) == 0x1p127);
  CHECK(isnan(hr_mf_to_f64(HR_MF_F8E8M0FNU, 0xff)));
  CHECK(hr_mf_to_f64(HR_MF_F6E2M3FN, 0x1f) == 7.5 && hr_mf_to_f64(HR_MF_F6E2M3FN, 0x01) == 0.125);
  CHECK(hr_mf_to_f64(HR_MF_F6E3M2FN, 0x3f) == -28 && hr_mf_to_f64(HR_MF_F6E3M2FN, 0x01) == 0.0625);
  CHECK(hr_mf_to_f64(HR_MF_TF32, 0x3f802000) == 1 + 0x1p-10);
  CHECK(hr_mf_to_f64(HR_MF_TF32, 0x00002000) == 0x1p-136);
  /* negative zeros decode to -0.0; FNUZ's 0x80 is NaN, not -0 */
  CHECK(signbit(hr_mf_to_f64(HR_MF_F8E4M3FN, 0x80)) && hr_mf_to_f64(HR_MF_F8E4M3FN, 0x80) == 0);
  CHECK(signbit(hr_mf_to_f64(HR_MF_F4E2M1FN, 0x8)) && signbit(hr_mf_to_f64(HR_MF_F6E3M2FN, 0x20)));
}

/* NaN encodings decode to quiet NaNs: sign and payload kept in IEEE and FN formats (as APFloat
 * converts), the default +NaN for FNUZ and E8M0. */
TEST(minifloat_nan_decoding) {
  CHECK_EQ_INT(bits_of(hr_mf_to_f64(HR_MF_F8E5M2, 0x7e)), 0x7ff8000000000000ull);
  CHECK_EQ_INT(bits_of(hr_mf_to_f64(HR_MF_F8E5M2, 0xfd)), 0xfffc000000000000ull); /* sNaN quieted */
  CHECK_EQ_INT(bits_of(hr_mf_to_f64(HR_MF_F8E4M3FN, 0xff)), 0xfffe000000000000ull);
  CHECK_EQ_INT(bits_of(hr_mf_to_f64(HR_MF_F8E4M3FN, 0x7f)), 0x7ffe000000000000ull);
  CHECK_EQ_INT(bits_of(hr_mf_to_f64(HR_MF_F8E4M3FNUZ, 0x80)), 0x7ff8000000000000ull);
  CHECK_EQ_INT(bits_of(hr_mf_to_f64(HR_MF_F8E8M0FNU, 0xff)), 0x7ff8000000000000ull);
  CHECK_EQ_INT(bits_of(hr_mf_to_f64(HR_MF_TF32, 0xffc12000)), 0xfff8240000000000ull);
}

/* Every encoding converts to its value and back; NaNs come back as the quiet NaN of the same
 * payload (only IEEE formats have signalling ones). The f32 path, the saturating and the
 * ml_dtypes conversions give the same for every value a format holds. */
TEST(minifloat_every_encoding_round_trips) {
  for (int i = 0; i < N_FACTS; i++) {
    const mf_fact *k = &k_facts[i];
    hr_mf_format f = k->f;
    uint32_t quiet = k->inf_count ? enc_stored(k, 1u << (k->man_bits - 1)) : 0;
    for (uint32_t c = 0; c < enc_count(k); c++) {
      uint32_t b = enc_stored(k, c);
      double v = hr_mf_to_f64(f, b);
      uint32_t want = isnan(v) ? b | quiet : b;
      CHECK_BITS("from_f64", f, v, hr_mf_from_f64(f, v), want);
      CHECK_BITS("from_f32", f, v, hr_mf_from_f32(f, (float)v), want);
      if (isnan(v)) continue;
      CHECK_BITS("saturate", f, v, hr_mf_from_f64_saturate(f, v), b);
      CHECK_BITS("ml_dtypes", f, v, hr_mf_from_f64_ml_dtypes(f, v), b);
      CHECK_BITS("canonical", f, v, hr_mf_canonical(f, b), b);
    }
  }
}

/* The bits above a f4/f6 value (and below a tf32's 19) are not part of it. */
TEST(minifloat_unused_bits_are_ignored_and_cleared) {
  for (int i = 0; i < N_FACTS; i++) {
    const mf_fact *k = &k_facts[i];
    uint32_t junk = k->f == HR_MF_TF32 ? 0x1fffu : k->bits < 8 ? 0xffu << k->bits : 0xffffff00u;
    for (uint32_t c = 0; c < enc_count(k); c += k->f == HR_MF_TF32 ? 97 : 1) {
      uint32_t b = enc_stored(k, c);
      double v = hr_mf_to_f64(k->f, b), w = hr_mf_to_f64(k->f, b | junk);
      CHECK(bits_of(v) == bits_of(w));
      CHECK(hr_mf_is_nan(k->f, b) == hr_mf_is_nan(k->f, b | junk));
      CHECK_BITS("canonical", k->f, v, hr_mf_canonical(k->f, b | junk), b);
    }
  }
  CHECK_EQ_INT(hr_mf_canonical(HR_MF_TF32, 0x3f800fff), 0x3f800000);
  CHECK(hr_mf_to_f64(HR_MF_TF32, 0x3f800fff) == 1.0);
  CHECK(hr_mf_is_inf(HR_MF_TF32, 0x7f800001)); /* a binary32 NaN whose payload tf32 drops */
}

/* Non-negative codes are the finite values in increasing order, and negative codes mirror them. */
TEST(minifloat_values_are_ordered_and_signed) {
  for (int i = 0; i < N_NARROW; i++) {
    const mf_fact *k = &k_facts[i];
    double prev = -1;
    for (uint32_t c = 0; c < enc_count(k); c++) {
      double v = hr_mf_to_f64(k->f, c);
      if (k->sign && (c & k->sign)) {
        double pos = hr_mf_to_f64(k->f, c & ~k->sign);
        if (!isnan(v) && !isnan(pos)) CHECK(v == -pos && signbit(v));
        continue;
      }
      if (isnan(v) || isinf(v)) continue;
      CHECK(v > prev);
      prev = v;
    }
  }
}

/* Ties to even at the midpoint of every pair of neighbours, and just below/above it, both signs. */
TEST(minifloat_midpoints_round_to_even) {
  static mf_grid g;
  for (int i = 0; i < N_NARROW; i++) {
    const mf_fact *k = &k_facts[i];
    hr_mf_format f = k->f;
    grid_build(k, &g);
    for (int j = 0; j + 1 < g.n; j++) {
      double lo = g.v[j], hi = g.v[j + 1], mid = (lo + hi) / 2;
      uint32_t clo = g.code[j], chi = g.code[j + 1];
      /* even significand; E8M0's one-bit significand is always odd, so its ties go up */
      uint32_t even = k->man_bits == 0 ? chi : (clo & 1) ? chi : clo;
      CHECK_BITS("midpoint", f, mid, hr_mf_from_f64(f, mid), even);
      CHECK_BITS("below midpoint", f, mid, hr_mf_from_f64(f, nextafter(mid, 0)), clo);
      CHECK_BITS("above midpoint", f, mid, hr_mf_from_f64(f, nextafter(mid, INFINITY)), chi);
      if (!k->sign) continue;
      uint32_t neg_even = (lo == 0 && even == clo) ? k->neg_zero : k->sign | even;
      uint32_t neg_lo = lo == 0 ? k->neg_zero : k->sign | clo;
      CHECK_BITS("-midpoint", f, -mid, hr_mf_from_f64(f, -mid), neg_even);
      CHECK_BITS("-below midpoint", f, -mid, hr_mf_from_f64(f, -nextafter(mid, 0)), neg_lo);
      CHECK_BITS("-above midpoint", f, -mid, hr_mf_from_f64(f, -nextafter(mid, INFINITY)),
                 k->sign | chi);
    }
  }
  /* a few by hand */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3FN, 1.0625), 0x38);  /* 1 + 1/16: tie, to 1.0 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3FN, 1.1875), 0x3a);  /* 1 + 3/16: tie, to 1.25 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F4E2M1FN, 2.5), 0x4);      /* between 2 and 3: to 2 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F4E2M1FN, 3.5), 0x6);      /* between 3 and 4: to 4 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F4E2M1FN, 5.0), 0x6);      /* between 4 and 6: to 4 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F4E2M1FN, -0.25), 0x8);    /* half the subnormal: -0 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, 1.5), 0x80);    /* tie: up to 2 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, 1.4999), 0x7f);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, 0.75), 0x7f);   /* tie between 0.5 and 1: up */
}

/* The largest value that still rounds to the largest finite one, and what lies just beyond. */
TEST(minifloat_overflow_boundaries) {
  for (int i = 0; i < N_FACTS; i++) {
    const mf_fact *k = &k_facts[i];
    hr_mf_format f = k->f;
    double half_ulp = ldexp(1.0, ilogb(k->max) - k->man_bits - 1);
    double edge = k->max + half_ulp; /* halfway to the next binade step */
    /* the tie goes to the max only where its significand is even: FN's S.1111.110 */
    bool tie_to_max = f == HR_MF_F8E4M3FN;
    double last = tie_to_max ? edge : nextafter(edge, 0);
    CHECK_BITS("last to max", f, last, hr_mf_from_f64(f, last), k->max_bits);
    CHECK_BITS("-last to max", f, -last, hr_mf_from_f64(f, -last),
               k->sign ? k->sign | k->max_bits : 0xff);
    double first = nextafter(last, INFINITY);
    CHECK_BITS("first beyond", f, first, hr_mf_from_f64(f, first), k->ovf_pos);
    CHECK_BITS("-first beyond", f, -first, hr_mf_from_f64(f, -first), k->ovf_neg);
    CHECK_BITS("huge", f, 1e300, hr_mf_from_f64(f, 1e300), k->ovf_pos);
    CHECK_BITS("-huge", f, -1e300, hr_mf_from_f64(f, -1e300), k->ovf_neg);
    CHECK_BITS("max double", f, 1e308, hr_mf_from_f64(f, 0x1.fffffffffffffp1023), k->ovf_pos);
    /* saturating: beyond gives the max, in every format */
    uint32_t neg_max = k->sign ? k->sign | k->max_bits : 0x00;
    CHECK_BITS("saturate first", f, first, hr_mf_from_f64_saturate(f, first), k->max_bits);
    CHECK_BITS("saturate -huge", f, -1e300, hr_mf_from_f64_saturate(f, -1e300), neg_max);
  }
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3FN, 464), 0x7e);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3FN, 464.0001), 0x7f);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3FN, 500), 0x7f);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E5M2, 61439.99), 0x7b);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E5M2, 61440), 0x7c);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3FNUZ, 248), 0x80);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3FNUZ, -247.9), 0xff);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F4E2M1FN, 7), 0x7);   /* finite only: saturates */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F4E2M1FN, -1e9), 0xf);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, 0x1.8p127), 0xff);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, 0x1.7ffffp127), 0xfe);
}

/* Underflow to zero and to the smallest subnormal, and signed zeros. */
TEST(minifloat_underflow_and_signed_zero) {
  for (int i = 0; i < N_FACTS; i++) {
    const mf_fact *k = &k_facts[i];
    hr_mf_format f = k->f;
    CHECK_BITS("+0", f, 0.0, hr_mf_from_f64(f, 0.0), 0);
    CHECK_BITS("-0", f, -0.0, hr_mf_from_f64(f, -0.0), k->neg_zero);
    if (!k->sign) continue; /* E8M0: below */
    double half = k->min_positive / 2;
    uint32_t tiny = enc_stored(k, 1);
    CHECK_BITS("half min", f, half, hr_mf_from_f64(f, half), 0);
    CHECK_BITS("below half min", f, half, hr_mf_from_f64(f, nextafter(half, 0)), 0);
    CHECK_BITS("above half min", f, half, hr_mf_from_f64(f, nextafter(half, 1)), tiny);
    CHECK_BITS("-half min", f, -half, hr_mf_from_f64(f, -half), k->neg_zero);
    CHECK_BITS("-above half min", f, -half, hr_mf_from_f64(f, -nextafter(half, 1)), k->sign | tiny);
    CHECK_BITS("min double", f, 5e-324, hr_mf_from_f64(f, 5e-324), 0);
    CHECK_BITS("-min double", f, -5e-324, hr_mf_from_f64(f, -5e-324), k->neg_zero);
    CHECK_BITS("1.5 min", f, 1.5 * k->min_positive, hr_mf_from_f64(f, 1.5 * k->min_positive),
               enc_stored(k, 2)); /* tie between codes 1 and 2: to even 2 */
  }
  /* E8M0 has no zero and no sign: the smallest value 2^-127 (0x00) stands in for zero */
  const double e8m0_in[] = {0x1p-200, 0x1p-128, 0x1.4p-127, 0x1.7ffp-127, 0x1.8p-127, 0x1p-126};
  const uint32_t e8m0_out[] = {0x00, 0x00, 0x00, 0x00, 0x01, 0x01};
  for (int i = 0; i < 6; i++)
    CHECK_BITS("e8m0 tiny", HR_MF_F8E8M0FNU, e8m0_in[i],
               hr_mf_from_f64(HR_MF_F8E8M0FNU, e8m0_in[i]), e8m0_out[i]);
}

/* Infinities and NaNs in, for each conversion. */
TEST(minifloat_special_inputs) {
  for (int i = 0; i < N_FACTS; i++) {
    const mf_fact *k = &k_facts[i];
    hr_mf_format f = k->f;
    CHECK_BITS("inf", f, INFINITY, hr_mf_from_f64(f, INFINITY), k->inf_pos);
    CHECK_BITS("-inf", f, -INFINITY, hr_mf_from_f64(f, -INFINITY), k->inf_neg);
    CHECK_BITS("nan", f, NAN, hr_mf_from_f64(f, NAN), k->nan_pos);
    CHECK_BITS("-nan", f, -NAN, hr_mf_from_f64(f, -(double)NAN), k->nan_neg);
    CHECK_BITS("nan f32", f, NAN, hr_mf_from_f32(f, NAN), k->nan_pos);
    CHECK_BITS("-inf f32", f, -INFINITY, hr_mf_from_f32(f, -INFINITY), k->inf_neg);
    bool has_inf = k->inf_count > 0;
    uint32_t sat_inf = has_inf ? k->inf_pos : k->max_bits;
    uint32_t sat_ninf = has_inf ? k->inf_neg : k->sign ? k->sign | k->max_bits : 0x00;
    CHECK_BITS("saturate inf", f, INFINITY, hr_mf_from_f64_saturate(f, INFINITY), sat_inf);
    CHECK_BITS("saturate -inf", f, -INFINITY, hr_mf_from_f64_saturate(f, -INFINITY), sat_ninf);
    CHECK_BITS("saturate nan", f, NAN, hr_mf_from_f64_saturate(f, NAN), k->nan_pos);
  }
  /* IEEE formats keep the top payload bits of a NaN and quiet it (APFloat) */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E5M2, double_of(0x7ff4000000000000ull)), 0x7f);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E5M2, double_of(0xfff0000000000001ull)), 0xfe);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E4M3, double_of(0x7ffc000000000000ull)), 0x7e);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E3M4, double_of(0xfff9000000000000ull)), 0xf9);
  /* E8M0 is unsigned: negative values are NaN, except those that flush to zero (APFloat) */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, -1.0), 0xff);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, -0x1.8p-128), 0xff);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, -0x1p-128), 0x00);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, -5e-324), 0x00);
  CHECK_EQ_INT(hr_mf_from_f64_saturate(HR_MF_F8E8M0FNU, -1.0), 0x00);
}

/* tf32 from binary32: carries into the exponent, overflow, subnormals, NaN payloads. */
TEST(minifloat_tf32_rounding_cases) {
  const uint32_t in[] = {0x3f800000, 0x3f801000, 0x3f803000, 0x3f801001, 0x3fffefff, 0x3ffff000,
                         0x7f7fe000, 0x7f7fefff, 0x7f7ff000, 0xff7ff000, 0x00001000, 0x00003000,
                         0x00000fff, 0x007ff000, 0x80001001, 0x7f800000, 0xff800000, 0x7fc00001,
                         0x7f800001, 0x7fa00000, 0xff812345, 0x7fffffff};
  const uint32_t out[] = {0x3f800000, 0x3f800000, 0x3f804000, 0x3f802000, 0x3fffe000, 0x40000000,
                          0x7f7fe000, 0x7f7fe000, 0x7f800000, 0xff800000, 0x00000000, 0x00004000,
                          0x00000000, 0x00800000, 0x80002000, 0x7f800000, 0xff800000, 0x7fc00000,
                          0x7fc00000, 0x7fe00000, 0xffc12000, 0x7fffe000};
  for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
    float x = float_of(in[i]);
    CHECK_BITS("tf32 f32", HR_MF_TF32, x, hr_mf_from_f32(HR_MF_TF32, x), out[i]);
    CHECK_BITS("tf32 f64", HR_MF_TF32, x, hr_mf_from_f64(HR_MF_TF32, (double)x), out[i]);
  }
  /* from a double there is no rounding through binary32 first */
  double v = 1 + 0x1p-11 + 0x1p-40; /* just above the tie between 1 and 1 + 2^-10 */
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_TF32, v), 0x3f802000);
  CHECK_EQ_INT(hr_mf_from_f32(HR_MF_TF32, (float)v), 0x3f800000); /* (float)v is the tie */
}

/* Reference for tf32: binary32 rounded at bit 13 by integer arithmetic (ties to even, the carry
 * runs into the exponent and on to infinity); NaN: payload truncated, quiet bit set. */
static uint32_t ref_tf32(uint32_t x) {
  if ((x & 0x7fffffffu) > 0x7f800000u) return (x & 0xffffe000u) | 0x00400000u;
  return (x + 0xfffu + ((x >> 13) & 1u)) & 0xffffe000u;
}

/* Every tf32 encoding with low parts at and around the tie, and random ones. */
TEST(minifloat_tf32_matches_integer_reference) {
  uint64_t s = 0x7f32;
  for (uint32_t hi = 0; hi < (1u << 19); hi++) {
    uint32_t lows[] = {0, 1, 0xfff, 0x1000, 0x1001, 0x1fff, (uint32_t)rng_next(&s) & 0x1fffu};
    for (int j = 0; j < 7; j++) {
      uint32_t x = (hi << 13) | lows[j];
      float fx = float_of(x);
      CHECK_BITS("tf32 f32", HR_MF_TF32, fx, hr_mf_from_f32(HR_MF_TF32, fx), ref_tf32(x));
    }
    uint32_t b = hi << 13; /* decoding: the binary32 value itself */
    double d = hr_mf_to_f64(HR_MF_TF32, b), want = (double)float_of(b);
    if (isnan(want)) CHECK(isnan(d) && !signbit(d) == !signbit(want));
    else CHECK(bits_of(d) == bits_of(want));
  }
}

/* The brute-force reference against all three conversions over random doubles, per format. */
TEST(minifloat_matches_brute_force_reference) {
  static mf_grid g;
  uint64_t s = 0x5eed;
  for (int i = 0; i < N_NARROW; i++) {
    const mf_fact *k = &k_facts[i];
    hr_mf_format f = k->f;
    grid_build(k, &g);
    for (int n = 0; n < 200000; n++) {
      double v = random_value(&s, k, &g);
      CHECK_BITS("from_f64", f, v, hr_mf_from_f64(f, v), ref_convert(k, &g, v, MODE_APFLOAT));
      CHECK_BITS("saturate", f, v, hr_mf_from_f64_saturate(f, v),
                 ref_convert(k, &g, v, MODE_SATURATE));
      CHECK_BITS("ml_dtypes", f, v, hr_mf_from_f64_ml_dtypes(f, v),
                 ref_convert(k, &g, v, MODE_ML_DTYPES));
      float fv = (float)v; /* the float path on the float nearest v */
      if (!isinf(fv) || isinf(v))
        CHECK_BITS("from_f32", f, fv, hr_mf_from_f32(f, fv),
                   ref_convert(k, &g, (double)fv, MODE_APFLOAT));
    }
    const double specials[] = {INFINITY, -INFINITY, 0.0, -0.0, 1e-310, -1e-310};
    for (int j = 0; j < 6; j++) {
      double v = specials[j];
      CHECK_BITS("from_f64", f, v, hr_mf_from_f64(f, v), ref_convert(k, &g, v, MODE_APFLOAT));
      CHECK_BITS("saturate", f, v, hr_mf_from_f64_saturate(f, v),
                 ref_convert(k, &g, v, MODE_SATURATE));
      CHECK_BITS("ml_dtypes", f, v, hr_mf_from_f64_ml_dtypes(f, v),
                 ref_convert(k, &g, v, MODE_ML_DTYPES));
    }
  }
}

/* from_f32 is from_f64 of the same value, over random binary32 patterns (NaNs included). */
TEST(minifloat_f32_path_matches_f64_path) {
  uint64_t s = 0xf32;
  for (int i = 0; i < N_FACTS; i++) {
    hr_mf_format f = k_facts[i].f;
    for (int n = 0; n < 100000; n++) {
      float x = float_of((uint32_t)rng_next(&s));
      CHECK_BITS("from_f32", f, x, hr_mf_from_f32(f, x), hr_mf_from_f64(f, (double)x));
    }
  }
}

/* Where ml_dtypes' conversion differs from APFloat's. */
TEST(minifloat_ml_dtypes_differences) {
  /* IEEE NaNs: ml_dtypes gives the canonical quiet NaN, APFloat keeps the payload */
  double payload_nan = double_of(0x7ff4000000000000ull);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E5M2, payload_nan), 0x7e);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E5M2, payload_nan), 0x7f);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E4M3, -(double)NAN), 0xfc);
  /* f4/f6: ml_dtypes' NaN is the -0 encoding, negated for -NaN; inf saturates in both */
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F4E2M1FN, NAN), 0x8);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F4E2M1FN, -(double)NAN), 0x0);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F4E2M1FN, -(double)NAN), 0x8);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F6E3M2FN, -INFINITY), 0x3f);
  /* E8M0: zero and negatives are NaN; (2^-127, 2^-126) rounds up */
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E8M0FNU, 0.0), 0xff);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, 0.0), 0x00);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E8M0FNU, -0x1p-130), 0xff);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E8M0FNU, 0x1p-127), 0x00);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E8M0FNU, 0x1.4p-127), 0x01);
  CHECK_EQ_INT(hr_mf_from_f64(HR_MF_F8E8M0FNU, 0x1.4p-127), 0x00);
  /* not ml_dtypes' wrap-around bug: [1.5*2^128, 2^129) overflows to NaN */
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E8M0FNU, 0x1.cp128), 0xff);
  /* the same elsewhere: FN inf -> NaN with sign, overflow, rounding */
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E4M3FN, -INFINITY), 0xff);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E4M3FN, 1e6), 0x7f);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_F8E4M3FNUZ, -1e-9), 0x00);
  CHECK_EQ_INT(hr_mf_from_f64_ml_dtypes(HR_MF_TF32, 1 + 0x1p-11), 0x3f800000); /* no tf32 there */
}

int main(void) {
  RUN(minifloat_names_round_trip);
  RUN(minifloat_invalid_format_is_harmless);
  RUN(minifloat_definitions);
  RUN(minifloat_known_encodings);
  RUN(minifloat_nan_decoding);
  RUN(minifloat_every_encoding_round_trips);
  RUN(minifloat_unused_bits_are_ignored_and_cleared);
  RUN(minifloat_values_are_ordered_and_signed);
  RUN(minifloat_midpoints_round_to_even);
  RUN(minifloat_overflow_boundaries);
  RUN(minifloat_underflow_and_signed_zero);
  RUN(minifloat_special_inputs);
  RUN(minifloat_tf32_rounding_cases);
  RUN(minifloat_tf32_matches_integer_reference);
  RUN(minifloat_matches_brute_force_reference);
  RUN(minifloat_f32_path_matches_f64_path);
  RUN(minifloat_ml_dtypes_differences);
  printf("minifloat: %ld conversions compared\n", compared_);
  TEST_MAIN_END();
}

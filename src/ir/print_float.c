/*
 * Float literals spelled the way MLIR's AsmPrinter spells them (printFloatValue):
 *
 *  1. the value formatted like APFloat::toString(precision 6, no padding): always scientific,
 *     six digits after the point (`1.779300e+00`), used when it reads back to the same bits;
 *  2. otherwise APFloat's default toString: enough digits to round-trip for the type (4 for bf16,
 *     5 for f16, 9 for f32, 17 for f64), plain notation unless the exponent is far from zero
 *     (`-0.81502068`, `1.2345678E-10`), used when it contains a '.';
 *  3. otherwise (NaN, infinity, integers too long for plain notation) the bit pattern in hex
 *     (`0x7FC00000`).
 *
 * APFloat's decimal conversion is reproduced exactly, including its two rounding steps: the exact
 * decimal integer is first truncated to a few more digits than needed, then rounded half-up.
 * Round-tripping is decided exactly, with big integers, by checking that the decimal lies inside
 * the interval of reals that round (to nearest, ties to even) to the original value.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numeric.h"
#include "ir/print_internal.h"

/* ---- a small unsigned big integer ---- */

/* 5120 bits: the exact decimal integer of the smallest f64 subnormal needs about 2500. */
enum { BIG_LIMBS = 160 };

typedef struct big {
  int n;                    /* limbs in use; no leading zero limbs */
  uint32_t limb[BIG_LIMBS]; /* little-endian base 2^32 */
  bool overflow;            /* an operation exceeded the capacity; the value is meaningless */
} big;

/* Sets b to v. */
static void big_set(big *b, uint64_t v) {
  b->overflow = false;
  b->n = 0;
  while (v) {
    b->limb[b->n++] = (uint32_t)v;
    v >>= 32;
  }
}

/* b *= m. */
static void big_mul_small(big *b, uint32_t m) {
  uint64_t carry = 0;
  for (int i = 0; i < b->n; i++) {
    uint64_t t = (uint64_t)b->limb[i] * m + carry;
    b->limb[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) {
    if (b->n == BIG_LIMBS) {
      b->overflow = true;
      return;
    }
    b->limb[b->n++] = (uint32_t)carry;
  }
}

/* b *= 5^e. */
static void big_mul_pow5(big *b, unsigned e) {
  const uint32_t pow5_13 = 1220703125u; /* 5^13, the largest power of five below 2^32 */
  for (; e >= 13 && !b->overflow; e -= 13) big_mul_small(b, pow5_13);
  uint32_t rest = 1;
  for (; e > 0; e--) rest *= 5;
  big_mul_small(b, rest);
}

/* b <<= s. */
static void big_shl(big *b, unsigned s) {
  if (b->n == 0) return;
  unsigned words = s / 32, bits = s % 32;
  if ((unsigned)b->n + words + 1 > BIG_LIMBS) {
    b->overflow = true;
    return;
  }
  uint32_t top = bits ? b->limb[b->n - 1] >> (32 - bits) : 0;
  for (int i = b->n - 1; i >= 0; i--) {
    uint32_t hi = b->limb[i] << bits;
    uint32_t lo = (bits && i > 0) ? b->limb[i - 1] >> (32 - bits) : 0;
    b->limb[i + (int)words] = hi | lo;
  }
  for (unsigned i = 0; i < words; i++) b->limb[i] = 0;
  b->n += (int)words;
  if (top) b->limb[b->n++] = top;
}

/* b /= d, returning the remainder. */
static uint32_t big_div_small(big *b, uint32_t d) {
  uint64_t rem = 0;
  for (int i = b->n - 1; i >= 0; i--) {
    uint64_t cur = (rem << 32) | b->limb[i];
    b->limb[i] = (uint32_t)(cur / d);
    rem = cur % d;
  }
  while (b->n > 0 && b->limb[b->n - 1] == 0) b->n--;
  return (uint32_t)rem;
}

/* Number of significant bits of b. */
static unsigned big_bits(const big *b) {
  if (b->n == 0) return 0;
  uint32_t top = b->limb[b->n - 1];
  unsigned bits = 0;
  while (top) {
    bits++;
    top >>= 1;
  }
  return (unsigned)(b->n - 1) * 32 + bits;
}

/* Three-way comparison of a and b. */
static int big_cmp(const big *a, const big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->limb[i] != b->limb[i]) return a->limb[i] < b->limb[i] ? -1 : 1;
  return 0;
}

/* ---- float formats ---- */

typedef struct float_format {
  int mant_bits; /* stored fraction bits */
  int exp_bits;
  int bias;
} float_format;

/* The layout of a float dtype; false for other dtypes. The narrow types' patterns are their
 * minifloat encodings (tf32: 19 bits; f8E8M0FNU: 8 exponent bits, no sign); which of their
 * encodings are NaN or infinite is theirs to say (decompose asks hr_float_from_pattern). */
static bool format_of(hr_dtype t, float_format *f) {
  switch (t) {
    case HR_F16: *f = (float_format){10, 5, 15}; return true;
    case HR_BF16: *f = (float_format){7, 8, 127}; return true;
    case HR_F32: *f = (float_format){23, 8, 127}; return true;
    case HR_F64: *f = (float_format){52, 11, 1023}; return true;
    case HR_TF32: *f = (float_format){10, 8, 127}; return true;
    case HR_F8E4M3FN:
    case HR_F8E4M3: *f = (float_format){3, 4, 7}; return true;
    case HR_F8E4M3FNUZ: *f = (float_format){3, 4, 8}; return true;
    case HR_F8E4M3B11FNUZ: *f = (float_format){3, 4, 11}; return true;
    case HR_F8E5M2: *f = (float_format){2, 5, 15}; return true;
    case HR_F8E5M2FNUZ: *f = (float_format){2, 5, 16}; return true;
    case HR_F8E3M4: *f = (float_format){4, 3, 3}; return true;
    case HR_F8E8M0FNU: *f = (float_format){0, 8, 127}; return true;
    case HR_F4E2M1FN: *f = (float_format){1, 2, 1}; return true;
    case HR_F6E2M3FN: *f = (float_format){3, 2, 1}; return true;
    case HR_F6E3M2FN: *f = (float_format){2, 3, 3}; return true;
    default: return false;
  }
}

/* A finite nonzero float as |value| = mant * 2^exp, mant holding the full significand
 * (hidden bit included for normal numbers). */
typedef struct float_parts {
  bool negative;
  uint64_t mant;
  int exp;
  bool binade_start; /* mant == 2^mant_bits and a smaller exponent exists: the gap below is half */
} float_parts;

/* Splits bits into sign, significand and exponent; false for NaN, infinity and zero. */
static bool decompose(const float_format *f, uint64_t bits, float_parts *out) {
  int total = 1 + f->exp_bits + f->mant_bits;
  uint64_t frac = bits & ((UINT64_C(1) << f->mant_bits) - 1);
  uint64_t e = (bits >> f->mant_bits) & ((UINT64_C(1) << f->exp_bits) - 1);
  out->negative = (bits >> (total - 1)) & 1;
  if (e == (UINT64_C(1) << f->exp_bits) - 1) return false;
  if (e == 0) {
    if (frac == 0) return false;
    out->mant = frac;
    out->exp = 1 - f->bias - f->mant_bits;
    out->binade_start = false;
    return true;
  }
  out->mant = frac | (UINT64_C(1) << f->mant_bits);
  out->exp = (int)e - f->bias - f->mant_bits;
  out->binade_start = frac == 0 && e > 1;
  return true;
}

/* Splits a finite nonzero value of a narrow float type (exactly a double) into its significand and
 * exponent at the type's precision: normal values have mant_bits + 1 significant bits, values below
 * the smallest normal (2^(1 - bias); f8E8M0FNU, all normal: 2^-bias) are multiples of its quantum. */
static void decompose_narrow(hr_dtype t, const float_format *f, double v, float_parts *out) {
  int min_exp = t == HR_F8E8M0FNU ? -f->bias : 1 - f->bias; /* the smallest normal's exponent */
  double a = fabs(v);
  int e = ilogb(a);
  if (e < min_exp) e = min_exp; /* subnormal: the smallest normal's quantum */
  out->negative = signbit(v);
  out->exp = e - f->mant_bits;
  out->mant = (uint64_t)ldexp(a, -out->exp);
  out->binade_start = out->mant == (UINT64_C(1) << f->mant_bits) && e > min_exp;
}

/* ---- APFloat::toString's digit generation ---- */

enum { MAX_DIGITS = 1600 }; /* decimal digits of a 5120-bit integer */

/* A decimal: value = digits * 10^exp, digits most significant first, no trailing zeros. */
typedef struct decimal {
  char digits[MAX_DIGITS];
  int n;
  int exp;
} decimal;

/* Divides n by 10^k, truncating. */
static void big_div_pow10(big *n, unsigned k) {
  for (; k >= 9; k -= 9) big_div_small(n, 1000000000u);
  uint32_t rest = 1;
  for (; k > 0; k--) rest *= 10;
  big_div_small(n, rest);
}

/* Writes the decimal digits of n (destroying it) into d, dropping trailing zeros into d->exp. */
static void big_to_decimal(big *n, decimal *d) {
  char rev[MAX_DIGITS];
  int len = 0;
  while (n->n > 0 && len + 9 <= MAX_DIGITS) {
    uint32_t chunk = big_div_small(n, 1000000000u);
    for (int i = 0; i < 9; i++) {
      rev[len++] = (char)('0' + chunk % 10);
      chunk /= 10;
    }
  }
  while (len > 1 && rev[len - 1] == '0') len--; /* leading zeros of the top chunk */
  int skip = 0;
  while (skip < len - 1 && rev[skip] == '0') skip++; /* trailing zeros */
  d->exp += skip;
  d->n = 0;
  for (int i = len - 1; i >= skip; i--) d->digits[d->n++] = rev[i];
}

/* Rounds d half-up to at most `prec` significant digits (APFloat's buffer AdjustToPrecision). */
static void round_decimal(decimal *d, int prec) {
  if (d->n <= prec) return;
  bool up = d->digits[prec] >= '5';
  d->exp += d->n - prec;
  d->n = prec;
  if (up) {
    int i = prec - 1;
    while (i >= 0 && d->digits[i] == '9') i--;
    if (i < 0) {
      d->exp += prec;
      d->digits[0] = '1';
      d->n = 1;
      return;
    }
    d->digits[i]++;
    d->exp += prec - (i + 1); /* the 9s that became 0s are dropped */
    d->n = i + 1;
  }
  while (d->n > 1 && d->digits[d->n - 1] == '0') {
    d->n--;
    d->exp++;
  }
}

/* The decimal digits APFloat::toString computes for `v` with `prec` significant digits.
 * Returns false if the big-integer capacity was exceeded (cannot happen for these formats). */
static bool to_decimal(const float_parts *v, int prec, decimal *d) {
  uint64_t mant = v->mant;
  int exp = v->exp;
  while ((mant & 1) == 0) { /* ignore trailing binary zeros */
    mant >>= 1;
    exp++;
  }
  big n;
  big_set(&n, mant);
  d->exp = 0;
  if (exp > 0) {
    big_shl(&n, (unsigned)exp);
  } else if (exp < 0) {
    big_mul_pow5(&n, (unsigned)-exp); /* mant * 2^-e == mant * 5^e * 10^-e */
    d->exp = exp;
  }
  if (n.overflow) return false;
  /* First step: drop decimal digits by truncating division, keeping a little more than prec. */
  unsigned bits = big_bits(&n);
  unsigned required = ((unsigned)prec * 196 + 58) / 59;
  if (bits > required) {
    unsigned tens = (bits - required) * 59 / 196;
    if (tens) {
      d->exp += (int)tens;
      big_div_pow10(&n, tens);
    }
  }
  big_to_decimal(&n, d);
  round_decimal(d, prec);
  return true;
}

/* ---- exact round-trip check ---- */

/* Compares digits * 10^dexp with b * 2^bexp. */
static int compare_decimal_binary(const decimal *d, uint64_t b, int bexp, bool *overflow) {
  big l, r;
  uint64_t dv = 0;
  for (int i = 0; i < d->n; i++) dv = dv * 10 + (uint64_t)(d->digits[i] - '0');
  big_set(&l, dv);
  big_set(&r, b);
  int l2 = 0, r2 = bexp;
  if (d->exp >= 0) {
    big_mul_pow5(&l, (unsigned)d->exp);
    l2 = d->exp;
  } else {
    big_mul_pow5(&r, (unsigned)-d->exp);
    l2 = d->exp;
  }
  if (l2 >= r2)
    big_shl(&l, (unsigned)(l2 - r2));
  else
    big_shl(&r, (unsigned)(r2 - l2));
  *overflow = l.overflow || r.overflow;
  return big_cmp(&l, &r);
}

/* Whether reading the decimal (at most 18 digits) back, rounding to nearest-even, gives v. */
static bool reads_back(const decimal *d, const float_parts *v) {
  if (d->n > 18) return false;
  bool even = (v->mant & 1) == 0, ovf_lo = false, ovf_hi = false;
  /* Upper bound: v + ulp/2 = (2*mant + 1) * 2^(exp-1). */
  int hi = compare_decimal_binary(d, 2 * v->mant + 1, v->exp - 1, &ovf_hi);
  /* Lower bound: v - gap/2, where the gap below is half an ulp at the start of a binade. */
  int lo = v->binade_start ? compare_decimal_binary(d, 4 * v->mant - 1, v->exp - 2, &ovf_lo)
                           : compare_decimal_binary(d, 2 * v->mant - 1, v->exp - 1, &ovf_lo);
  if (ovf_hi || ovf_lo) return false;
  if (hi > 0 || lo < 0) return false;
  if (hi == 0 || lo == 0) return even;
  return true;
}

/* ---- spelling ---- */

/* Appends the exponent digits, at least `min_digits` of them. */
static void put_exponent(hr_strbuf *sb, int exp, int min_digits) {
  hr_strbuf_putc(sb, exp < 0 ? '-' : '+');
  hr_strbuf_printf(sb, "%0*d", min_digits, exp < 0 ? -exp : exp);
}

/* The short form: d.dddddde+XX with six digits after the point (FormatPrecision 6, no padding). */
static void put_short_form(hr_strbuf *sb, bool negative, const decimal *d) {
  if (negative) hr_strbuf_putc(sb, '-');
  hr_strbuf_putc(sb, d->digits[0]);
  hr_strbuf_putc(sb, '.');
  hr_strbuf_append(sb, d->digits + 1, (size_t)(d->n - 1));
  for (int i = d->n - 1; i < 6; i++) hr_strbuf_putc(sb, '0');
  hr_strbuf_putc(sb, 'e');
  put_exponent(sb, d->exp + d->n - 1, 2);
}

/* A fixed-size character buffer that silently stops growing when full (never overflows). */
typedef struct char_buf {
  char data[64];
  size_t len;
} char_buf;

static void put_char(char_buf *b, char c) {
  if (b->len + 1 < sizeof b->data) b->data[b->len++] = c;
  b->data[b->len] = '\0';
}

/* APFloat's default toString (FormatMaxPadding 3, truncated zeros) into b; returns false when
 * the result has no '.', which MLIR would not read back as a float. */
static bool put_default_form(char_buf *b, bool negative, const decimal *d, int prec) {
  const int max_pad = 3;
  int exp = d->exp, nd = d->n;
  b->len = 0;
  if (negative) put_char(b, '-');
  bool scientific;
  if (exp >= 0) {
    scientific = exp > max_pad || nd + exp > prec;
  } else {
    int msd = exp + nd - 1; /* power of ten of the leading digit */
    scientific = msd < 0 && -msd > max_pad;
  }
  if (scientific) {
    put_char(b, d->digits[0]);
    put_char(b, '.');
    if (nd == 1) put_char(b, '0');
    for (int i = 1; i < nd; i++) put_char(b, d->digits[i]);
    int e = exp + nd - 1;
    char eb[16];
    snprintf(eb, sizeof eb, "E%c%d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    for (const char *c = eb; *c; c++) put_char(b, *c);
    return true;
  }
  if (exp >= 0) { /* an integer: digits then zeros, no point */
    for (int i = 0; i < nd; i++) put_char(b, d->digits[i]);
    for (int i = 0; i < exp; i++) put_char(b, '0');
    return false;
  }
  int whole = exp + nd, i = 0; /* digits before the point */
  if (whole > 0) {
    for (; i < whole; i++) put_char(b, d->digits[i]);
    put_char(b, '.');
  } else {
    put_char(b, '0');
    put_char(b, '.');
    for (int z = 0; z < -whole; z++) put_char(b, '0');
  }
  for (; i < nd; i++) put_char(b, d->digits[i]);
  return true;
}

/* Appends the bit pattern as MLIR's hex float literal (`0x` and upper-case digits, no leading
 * zeros). */
static void put_hex(hr_strbuf *sb, uint64_t bits) {
  hr_strbuf_printf(sb, "0x%llX", (unsigned long long)bits);
}

void hr_print_float_bits(hr_strbuf *sb, hr_dtype t, uint64_t bits) {
  float_format f;
  if (!format_of(t, &f)) {
    put_hex(sb, bits);
    return;
  }
  int total = 1 + f.exp_bits + f.mant_bits;
  if (total < 64) bits &= (UINT64_C(1) << total) - 1;
  float_parts v;
  if (hr_dtype_is_narrow_float(t)) { /* which encodings are zero, NaN or infinite is the type's to say */
    double value = hr_float_from_pattern(t, bits);
    if (value == 0) {
      hr_strbuf_puts(sb, signbit(value) ? "-0.000000e+00" : "0.000000e+00");
      return;
    }
    if (!isfinite(value)) {
      put_hex(sb, bits);
      return;
    }
    decompose_narrow(t, &f, value, &v);
  } else {
    uint64_t magnitude = bits & ~(UINT64_C(1) << (total - 1));
    if (magnitude == 0) {
      hr_strbuf_puts(sb, bits ? "-0.000000e+00" : "0.000000e+00");
      return;
    }
    if (!decompose(&f, bits, &v)) {
      put_hex(sb, bits);
      return;
    }
  }
  decimal d;
  if (to_decimal(&v, 6, &d) && reads_back(&d, &v)) {
    put_short_form(sb, v.negative, &d);
    return;
  }
  int prec = 2 + (f.mant_bits + 1) * 59 / 196;
  char_buf text;
  if (to_decimal(&v, prec, &d) && put_default_form(&text, v.negative, &d, prec)) {
    hr_strbuf_append(sb, text.data, text.len);
    return;
  }
  put_hex(sb, bits);
}

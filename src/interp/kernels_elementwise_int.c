/* Integer (and i1) scalar functions of the elementwise ops.
 *
 * Values arrive sign- or zero-extended to 64 bits according to their element type and are
 * computed in uint64_t, so arithmetic wraps without undefined behaviour; the caller keeps the low
 * t.bits bits of the result. Semantics follow XLA's CPU backend where StableHLO leaves them open:
 * x / 0 = -1 (all ones), INT_MIN / -1 = INT_MIN, x % 0 = x, INT_MIN % -1 = 0, and shifts by at
 * least the bit width give 0 (arithmetic right shifts: the sign fill). */
#include "interp/elementwise_internal.h"

/* True when the extended value is negative in a signed element type. */
static bool is_negative(uint64_t v, ew_int_type t) { return t.is_signed && (v >> 63) != 0; }

uint64_t ew_int_abs(uint64_t x, ew_int_type t) { return is_negative(x, t) ? 0u - x : x; }

uint64_t ew_int_negate(uint64_t x, ew_int_type t) {
  (void)t;
  return 0u - x;
}

uint64_t ew_int_not(uint64_t x, ew_int_type t) {
  (void)t;
  return ~x;
}

uint64_t ew_int_popcnt(uint64_t x, ew_int_type t) {
  return (uint64_t)__builtin_popcountll(x & ew_low_mask(t.bits));
}

uint64_t ew_int_clz(uint64_t x, ew_int_type t) {
  uint64_t v = x & ew_low_mask(t.bits);
  if (v == 0) return (uint64_t)t.bits;
  return (uint64_t)(__builtin_clzll(v) - (64 - t.bits));
}

uint64_t ew_int_sign(uint64_t x, ew_int_type t) {
  if (x == 0) return 0;
  return is_negative(x, t) ? UINT64_MAX : 1u;
}

/* i1 addition is logical OR (StableHLO add on booleans); wider types wrap. */
uint64_t ew_int_add(uint64_t x, uint64_t y, ew_int_type t) { return t.bits == 1 ? (x | y) : x + y; }

uint64_t ew_int_subtract(uint64_t x, uint64_t y, ew_int_type t) {
  (void)t;
  return x - y;
}

/* For i1 the low bit of the product is logical AND, as StableHLO requires. */
uint64_t ew_int_multiply(uint64_t x, uint64_t y, ew_int_type t) {
  (void)t;
  return x * y;
}

/* chlo.mulhi: the high t.bits bits of the 2*t.bits-bit product of x and y (signed or unsigned per
 * t). Inputs arrive sign- or zero-extended to 64 bits; for widths up to 32 the full product fits
 * in 64 bits. For 64-bit operands the product is built from 32-bit halves (portable, no int128). */
uint64_t ew_int_mulhi(uint64_t x, uint64_t y, ew_int_type t) {
  if (t.bits <= 32) {
    if (t.is_signed) {
      int64_t p = ew_as_signed(x) * ew_as_signed(y); /* |p| <= 2^62: no overflow */
      /* Arithmetic shift without relying on implementation-defined >> of negatives. */
      return p >= 0 ? (uint64_t)p >> t.bits : ~(~(uint64_t)p >> t.bits);
    }
    return (x * y) >> t.bits;
  }
  uint64_t xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
  uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
  uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32); /* unsigned high half */
  if (t.is_signed) { /* signed high = unsigned high - (x<0 ? y : 0) - (y<0 ? x : 0) */
    if (x >> 63) hi -= y;
    if (y >> 63) hi -= x;
  }
  return hi;
}

uint64_t ew_int_divide(uint64_t x, uint64_t y, ew_int_type t) {
  if (y == 0) return UINT64_MAX;
  if (!t.is_signed) return x / y;
  int64_t a = ew_as_signed(x), b = ew_as_signed(y);
  if (b == -1) return 0u - x; /* negation wraps INT_MIN to itself */
  return (uint64_t)(a / b);
}

uint64_t ew_int_remainder(uint64_t x, uint64_t y, ew_int_type t) {
  if (y == 0) return x;
  if (!t.is_signed) return x % y;
  int64_t a = ew_as_signed(x), b = ew_as_signed(y);
  if (b == -1) return 0;
  return (uint64_t)(a % b);
}

int ew_int_compare(uint64_t x, uint64_t y, bool is_signed) {
  if (is_signed) {
    int64_t a = ew_as_signed(x), b = ew_as_signed(y);
    return (a > b) - (a < b);
  }
  return (x > y) - (x < y);
}

uint64_t ew_int_maximum(uint64_t x, uint64_t y, ew_int_type t) {
  return ew_int_compare(x, y, t.is_signed) >= 0 ? x : y;
}

uint64_t ew_int_minimum(uint64_t x, uint64_t y, ew_int_type t) {
  return ew_int_compare(x, y, t.is_signed) <= 0 ? x : y;
}

uint64_t ew_int_and(uint64_t x, uint64_t y, ew_int_type t) {
  (void)t;
  return x & y;
}

uint64_t ew_int_or(uint64_t x, uint64_t y, ew_int_type t) {
  (void)t;
  return x | y;
}

uint64_t ew_int_xor(uint64_t x, uint64_t y, ew_int_type t) {
  (void)t;
  return x ^ y;
}

/* The shift amount is the rhs read as an unsigned number of the element width; negative signed
 * amounts are therefore out of range, as are amounts >= the width. Extension to 64 bits keeps
 * both properties. */
static bool shift_in_range(uint64_t y, ew_int_type t) { return y < (uint64_t)t.bits; }

uint64_t ew_int_shift_left(uint64_t x, uint64_t y, ew_int_type t) {
  return shift_in_range(y, t) ? x << y : 0;
}

uint64_t ew_int_shift_right_logical(uint64_t x, uint64_t y, ew_int_type t) {
  return shift_in_range(y, t) ? (x & ew_low_mask(t.bits)) >> y : 0;
}

uint64_t ew_int_shift_right_arithmetic(uint64_t x, uint64_t y, ew_int_type t) {
  uint64_t s = ew_sign_extend(x, t.bits);
  bool negative = (s >> 63) != 0;
  if (!shift_in_range(y, t)) return negative ? UINT64_MAX : 0;
  return negative ? ~(~s >> y) : s >> y;
}

/* Exponentiation by squaring with wraparound. A negative exponent (signed types only) gives 0
 * except for the bases 1 (result 1) and -1 (result -1 for odd exponents, 1 for even ones). */
uint64_t ew_int_power(uint64_t x, uint64_t y, ew_int_type t) {
  if (is_negative(y, t)) {
    if (x == 1) return 1;
    if (t.is_signed && x == UINT64_MAX) return (y & 1u) ? UINT64_MAX : 1;
    return 0;
  }
  uint64_t result = 1, base = x;
  for (uint64_t e = y; e != 0; e >>= 1) { /* at most 64 iterations */
    if (e & 1u) result *= base;
    base *= base;
  }
  return result;
}

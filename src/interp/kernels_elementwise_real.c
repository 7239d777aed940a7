/* Real floating-point scalar functions of the elementwise ops that are not single libm calls.
 * They compute in double; callers round to the element type. */
#include <math.h>

#include "interp/elementwise_internal.h"

double ew_real_add(double x, double y) { return x + y; }
double ew_real_subtract(double x, double y) { return x - y; }
double ew_real_multiply(double x, double y) { return x * y; }
double ew_real_divide(double x, double y) { return x / y; }

/* IEEE 754-2019 maximum: NaN if either operand is NaN, and +0 is greater than -0. */
double ew_real_maximum(double x, double y) {
  if (isnan(x)) return x;
  if (isnan(y)) return y;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}

/* IEEE 754-2019 minimum: NaN if either operand is NaN, and -0 is less than +0. */
double ew_real_minimum(double x, double y) {
  if (isnan(x)) return x;
  if (isnan(y)) return y;
  if (x == y) return signbit(x) ? x : y;
  return x < y ? x : y;
}

double ew_real_negate(double x) { return -x; }

/* -1, +1, or the operand itself for zeros (keeping their sign) and NaN. */
double ew_real_sign(double x) {
  if (isnan(x) || x == 0.0) return x;
  return copysign(1.0, x);
}

double ew_real_rsqrt(double x) { return 1.0 / sqrt(x); }

/* 1 / (1 + e^-x); saturates to 0 and 1 without producing NaN. */
double ew_real_logistic(double x) { return 1.0 / (1.0 + exp(-x)); }

/* Rounds half-way cases to the even neighbour, independently of the current rounding mode. */
double ew_real_round_even(double x) {
  if (!isfinite(x) || fabs(x) >= 0x1p52) return x;
  double lower = floor(x);
  double frac = x - lower; /* exact: x and lower are within 2^52 of each other */
  double r;
  if (frac < 0.5)
    r = lower;
  else if (frac > 0.5)
    r = lower + 1.0;
  else
    r = fmod(lower, 2.0) == 0.0 ? lower : lower + 1.0;
  return copysign(r, x); /* keeps the sign of zero results, e.g. -0.4 -> -0 */
}

double ew_real_square(double x) { return x * x; }

double ew_real_identity(double x) { return x; }

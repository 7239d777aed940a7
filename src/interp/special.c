/* Special functions in double precision (see special.h). The algorithms are the classical ones:
 * Newton-Halley refinement for erf_inv, reflection + recurrence + asymptotic series for digamma,
 * Euler-Maclaurin summation for the Hurwitz zeta function, and the power series / asymptotic
 * expansion pair for the Bessel function. */
#include "interp/special.h"

#include <math.h>
#include <stdbool.h>

static const double kPi = 3.14159265358979323846264338327950288;

/* ---- erf_inv ---- */

/* A starting point within about 0.2% of erf_inv(a) for 0 < a < 1 (Winitzki's closed form). */
static double erf_inv_guess(double a) {
  const double k = 0.147;
  double l = log1p(-a * a); /* log(1 - a^2), accurate for small a */
  double b = 2.0 / (kPi * k) + 0.5 * l;
  return sqrt(sqrt(b * b - l / k) - b);
}

double hr_erf_inv(double x) {
  if (isnan(x) || fabs(x) > 1.0) return NAN;
  if (fabs(x) == 1.0) return copysign(INFINITY, x);
  if (x == 0.0) return x;
  double a = fabs(x);
  double complement = 1.0 - a; /* exact for a >= 0.5 */
  double y = erf_inv_guess(a);
  /* Halley's method on f(y) = erf(y) - a, with f''/f' = -2y. Near a = 1 the residual is taken
   * as complement - erfc(y) to avoid cancellation. Converges cubically: 4 steps are plenty. */
  for (int iter = 0; iter < 4; iter++) {
    double residual = a < 0.5 ? erf(y) - a : complement - erfc(y);
    double derivative = 2.0 / sqrt(kPi) * exp(-y * y);
    double t = residual / derivative;
    double step = t / (1.0 + y * t);
    y -= step;
    if (fabs(step) <= 1e-17 * y) break;
  }
  return copysign(y, x);
}

/* ---- lgamma, digamma, polygamma, zeta ---- */

double hr_lgamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

/* True for x in {0, -1, -2, ...}. */
static bool is_nonpositive_integer(double x) { return x <= 0.0 && x == floor(x); }

/* pi / tan(pi x), reducing x to [-1/2, 1/2] first so that large arguments stay accurate. */
static double pi_cot_pi(double x) {
  double r = x - round(x);
  return kPi / tan(kPi * r);
}

/* Asymptotic expansion of psi(x) for x >= 10; the omitted terms are below 1e-17. */
static double digamma_asymptotic(double x) {
  static const double kCoeffs[] = {
      /* B_2k / (2k), k = 1..7 */
      1.0 / 12.0, -1.0 / 120.0, 1.0 / 252.0, -1.0 / 240.0, 1.0 / 132.0, -691.0 / 32760.0, 1.0 / 12.0,
  };
  double inv2 = 1.0 / (x * x), power = inv2, series = 0.0;
  for (int k = 0; k < (int)(sizeof kCoeffs / sizeof kCoeffs[0]); k++) {
    series += kCoeffs[k] * power;
    power *= inv2;
  }
  return log(x) - 0.5 / x - series;
}

double hr_digamma(double x) {
  if (isnan(x) || x == -INFINITY || is_nonpositive_integer(x)) return NAN;
  if (x == INFINITY) return x;
  double result = 0.0;
  if (x < 0.5) { /* reflection: psi(x) = psi(1 - x) - pi cot(pi x) */
    result = -pi_cot_pi(x);
    x = 1.0 - x;
  }
  while (x < 10.0) { /* recurrence psi(x) = psi(x + 1) - 1/x; x >= 0.5 here: < 10 steps */
    result -= 1.0 / x;
    x += 1.0;
  }
  return result + digamma_asymptotic(x);
}

/* B_2j / (2j)! for j = 1..12: the Euler-Maclaurin correction coefficients. */
static const double kBernoulliOverFactorial[] = {
    8.333333333333333333333333e-2,  -1.388888888888888888888889e-3, 3.306878306878306878306878e-5,
    -8.267195767195767195767196e-7, 2.087675698786809897921009e-8,  -5.284190138687493184847682e-10,
    1.338253653068467883282698e-11, -3.389680296322582866830195e-13, 8.586062056277844564135905e-15,
    -2.174868698558061873041516e-16, 5.509002828360229515202653e-18, -1.395446468581252334070769e-19,
};

/* Terms summed directly before the Euler-Maclaurin tail, at most: a bound on the work for
 * negative q, where the sum must first be shifted to positive arguments. */
enum { ZETA_MAX_DIRECT_TERMS = 1 << 12 };

double hr_zeta(double x, double q) {
  if (isnan(x) || isnan(q)) return NAN;
  if (x == 1.0) return INFINITY;
  if (x < 1.0) return NAN;
  if (is_nonpositive_integer(q)) return INFINITY;
  if (q < 0.0 && x != floor(x)) return NAN; /* (k + q)^-x is not real */
  if (q == INFINITY) return 0.0;
  /* Sum the first n terms directly so that w = q + n is large enough for the asymptotic tail
   * to converge fast: w >= min(x, 50) + 10. */
  double target = fmin(x, 50.0) + 10.0;
  double needed = ceil(target - q);
  if (needed > ZETA_MAX_DIRECT_TERMS) return NAN; /* q far below zero: outside what we support */
  int n = needed > 0.0 ? (int)needed : 0;
  double sum = 0.0;
  for (int k = 0; k < n; k++) sum += pow(q + k, -x);
  double w = q + n;
  double w_pow = pow(w, -x);
  sum += pow(w, 1.0 - x) / (x - 1.0) + 0.5 * w_pow;
  if (w_pow == 0.0) return sum; /* the corrections underflow */
  /* Tail corrections: B_2j/(2j)! * x (x+1) ... (x+2j-2) * w^(-x-2j+1). */
  double rising = x, term_pow = w_pow / w;
  for (int j = 0; j < (int)(sizeof kBernoulliOverFactorial / sizeof kBernoulliOverFactorial[0]);
       j++) {
    double term = kBernoulliOverFactorial[j] * rising * term_pow;
    sum += term;
    if (fabs(term) <= 1e-17 * fabs(sum)) break;
    rising *= (x + 2 * j + 1) * (x + 2 * j + 2);
    term_pow /= w * w;
  }
  return sum;
}

double hr_polygamma(double n, double x) {
  if (isnan(n) || isnan(x) || n < 0.0 || n != floor(n)) return NAN;
  if (n == 0.0) return hr_digamma(x);
  /* psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) */
  double sign = fmod(n, 2.0) == 0.0 ? -1.0 : 1.0;
  return sign * exp(hr_lgamma(n + 1.0)) * hr_zeta(n + 1.0, x);
}

/* ---- bessel_i1e ---- */

/* Above this |x| the asymptotic expansion is accurate to double precision (its smallest term is
 * about e^(-2|x|)); below it the power series converges without cancellation. */
static const double kBesselAsymptoticFrom = 25.0;

/* e^-x I1(x) for 0 <= x < kBesselAsymptoticFrom from I1(x) = sum (x/2)^(2k+1) / (k! (k+1)!). */
static double bessel_i1e_series(double x) {
  double half = 0.5 * x, q = half * half;
  double term = half, sum = half;
  for (int k = 1; k < 200; k++) { /* terms fall below 1e-17 * sum well before k = 100 */
    term *= q / ((double)k * (double)(k + 1));
    sum += term;
    if (term <= 1e-17 * sum) break;
  }
  return sum * exp(-x);
}

/* e^-x I1(x) for large x: (2 pi x)^-1/2 sum_k (-1)^k a_k / x^k, where
 * a_k = prod_{i=1..k} (4 - (2i-1)^2) / (k! 8^k). Summed until the terms stop shrinking. */
static double bessel_i1e_asymptotic(double x) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 200; k++) {
    double odd = 2.0 * k - 1.0;
    double next = -term * (4.0 - odd * odd) / (8.0 * k * x);
    if (fabs(next) >= fabs(term)) break;
    term = next;
    sum += term;
    if (fabs(term) <= 1e-17 * fabs(sum)) break;
  }
  return sum / sqrt(2.0 * kPi * x);
}

double hr_bessel_i1e(double x) {
  if (isnan(x)) return x;
  double a = fabs(x);
  double r;
  if (a == INFINITY)
    r = 0.0;
  else
    r = a < kBesselAsymptoticFrom ? bessel_i1e_series(a) : bessel_i1e_asymptotic(a);
  return copysign(r, x);
}

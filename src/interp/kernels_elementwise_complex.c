/* Complex scalar functions of the elementwise ops, computed in double precision.
 *
 * Most are C99 <complex.h> functions (Annex G special values); where XLA defines a result the C
 * library leaves open (0^0, complex sign, atan2) the XLA formula is used. */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "interp/elementwise_internal.h"

/* C guarantees a double complex is laid out as double[2] = {re, im}; copying the parts keeps
 * infinities and NaNs intact (unlike re + im * I) and needs no CMPLX, which some compilers
 * lack. */
static double complex to_c(hr_c128 z) {
  double parts[2] = {z.re, z.im};
  double complex c;
  memcpy(&c, parts, sizeof c);
  return c;
}

static hr_c128 from_c(double complex z) {
  hr_c128 r = {creal(z), cimag(z)};
  return r;
}

static hr_c128 make(double re, double im) {
  hr_c128 r = {re, im};
  return r;
}

hr_c128 ew_complex_add(hr_c128 a, hr_c128 b) { return make(a.re + b.re, a.im + b.im); }

hr_c128 ew_complex_subtract(hr_c128 a, hr_c128 b) { return make(a.re - b.re, a.im - b.im); }

/* The textbook product, as XLA computes it (no NaN recovery for infinite operands). */
hr_c128 ew_complex_multiply(hr_c128 a, hr_c128 b) {
  return make(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}

/* C's complex division scales to avoid overflow; x / 0 gives infinities like XLA's. */
hr_c128 ew_complex_divide(hr_c128 a, hr_c128 b) { return from_c(to_c(a) / to_c(b)); }

double ew_complex_abs(hr_c128 z) { return hypot(z.re, z.im); }

/* a^b = exp(b log a) in polar form. 0^b is 1 for b = 0 and 0 for real b > 0 (Kahan), as in XLA. */
hr_c128 ew_complex_power(hr_c128 a, hr_c128 b) {
  double r = ew_complex_abs(a);
  if (r == 0.0 && b.im == 0.0 && b.re >= 0.0) return make(b.re == 0.0 ? 1.0 : 0.0, 0.0);
  double theta = atan2(a.im, a.re), log_r = log(r);
  double magnitude = exp(b.re * log_r - b.im * theta);
  double angle = b.re * theta + b.im * log_r;
  return make(magnitude * cos(angle), magnitude * sin(angle));
}

/* atan2(y, x) = -i log((x + iy) / sqrt(x^2 + y^2)), XLA's definition for complex operands. */
hr_c128 ew_complex_atan2(hr_c128 y, hr_c128 x) {
  double complex cx = to_c(x), cy = to_c(y);
  double complex w = clog((cx + I * cy) / csqrt(cx * cx + cy * cy));
  return from_c(-I * w);
}

/* Lexicographic order of (re, im). NaN components make the pair unordered. */
int ew_complex_compare(hr_c128 a, hr_c128 b, bool *unordered) {
  *unordered = isnan(a.re) || isnan(a.im) || isnan(b.re) || isnan(b.im);
  if (a.re != b.re) return a.re < b.re ? -1 : 1;
  if (a.im != b.im) return a.im < b.im ? -1 : 1;
  return 0;
}

hr_c128 ew_complex_maximum(hr_c128 a, hr_c128 b) {
  bool unordered;
  return ew_complex_compare(a, b, &unordered) >= 0 ? a : b;
}

hr_c128 ew_complex_minimum(hr_c128 a, hr_c128 b) {
  bool unordered;
  return ew_complex_compare(a, b, &unordered) <= 0 ? a : b;
}

hr_c128 ew_complex_negate(hr_c128 z) { return make(-z.re, -z.im); }

/* z / |z|, and 0 for z = 0. */
hr_c128 ew_complex_sign(hr_c128 z) {
  double r = ew_complex_abs(z);
  if (r == 0.0) return make(0.0, 0.0);
  return make(z.re / r, z.im / r);
}

hr_c128 ew_complex_exp(hr_c128 z) { return from_c(cexp(to_c(z))); }

/* e^z - 1 without cancellation for small z: the real part is expm1(a) cos(b) - 2 sin^2(b/2). */
hr_c128 ew_complex_expm1(hr_c128 z) {
  double half_sin = sin(0.5 * z.im);
  double re = expm1(z.re) * cos(z.im) - 2.0 * half_sin * half_sin;
  return make(re, exp(z.re) * sin(z.im));
}

hr_c128 ew_complex_log(hr_c128 z) { return from_c(clog(to_c(z))); }

/* log(1 + z): the real part is log|1 + z| = log1p(a (2 + a) + b^2) / 2, accurate near z = 0. */
hr_c128 ew_complex_log1p(hr_c128 z) {
  double im = atan2(z.im, 1.0 + z.re);
  if (fmax(fabs(z.re), fabs(z.im)) > 0x1p500) return make(log(hypot(1.0 + z.re, z.im)), im);
  return make(0.5 * log1p(z.re * (2.0 + z.re) + z.im * z.im), im);
}

hr_c128 ew_complex_sqrt(hr_c128 z) { return from_c(csqrt(to_c(z))); }

hr_c128 ew_complex_rsqrt(hr_c128 z) { return ew_complex_divide(make(1.0, 0.0), ew_complex_sqrt(z)); }

hr_c128 ew_complex_cbrt(hr_c128 z) { return ew_complex_power(z, make(1.0 / 3.0, 0.0)); }

hr_c128 ew_complex_sin(hr_c128 z) { return from_c(csin(to_c(z))); }
hr_c128 ew_complex_cos(hr_c128 z) { return from_c(ccos(to_c(z))); }
hr_c128 ew_complex_tan(hr_c128 z) { return from_c(ctan(to_c(z))); }
hr_c128 ew_complex_tanh(hr_c128 z) { return from_c(ctanh(to_c(z))); }
hr_c128 ew_complex_sinh(hr_c128 z) { return from_c(csinh(to_c(z))); }
hr_c128 ew_complex_cosh(hr_c128 z) { return from_c(ccosh(to_c(z))); }
hr_c128 ew_complex_asin(hr_c128 z) { return from_c(casin(to_c(z))); }
hr_c128 ew_complex_acos(hr_c128 z) { return from_c(cacos(to_c(z))); }
hr_c128 ew_complex_atan(hr_c128 z) { return from_c(catan(to_c(z))); }
hr_c128 ew_complex_asinh(hr_c128 z) { return from_c(casinh(to_c(z))); }
hr_c128 ew_complex_acosh(hr_c128 z) { return from_c(cacosh(to_c(z))); }
hr_c128 ew_complex_atanh(hr_c128 z) { return from_c(catanh(to_c(z))); }

/* chlo._asin_acos_kernel: sqrt(a^2 - x^2) + i log(a + sqrt(a^2 - 1)), a = (|z + 1| + |z - 1|) / 2,
 * from which asin, acos, asinh and acosh are built (ChloOps.td). a - 1 and a - |x| are formed from
 * r - (|x| + 1) = y^2 / (r + |x| + 1) and s - ||x| - 1| = y^2 / (s + ||x| - 1|) (Hull et al.), so that
 * neither part cancels near the branch points; past 2^500 the plain formulas cannot overflow. */
hr_c128 ew_complex_asin_acos_kernel(hr_c128 z) {
  double x = fabs(z.re), y = fabs(z.im);
  double r = hypot(x + 1.0, y), s = hypot(x - 1.0, y), a = 0.5 * (r + s);
  if (fmax(x, y) > 0x1p500) return make(sqrt(fmax(a - x, 0.0)) * sqrt(a + x), acosh(a));
  double y2 = y * y, rp = y2 / (r + x + 1.0), d = s + fabs(x - 1.0), sm = d > 0.0 ? y2 / d : 0.0;
  double am1 = x < 1.0 ? 0.5 * (rp + sm) : 0.5 * (rp + s + (x - 1.0));
  double amx = x < 1.0 ? 0.5 * (rp + s + (1.0 - x)) : 0.5 * (rp + sm);
  return make(sqrt(amx * (a + x)), log1p(am1 + sqrt(am1 * (a + 1.0))));
}

/* 1 / (1 + e^-z). */
hr_c128 ew_complex_logistic(hr_c128 z) {
  hr_c128 e = ew_complex_exp(ew_complex_negate(z));
  return ew_complex_divide(make(1.0, 0.0), make(1.0 + e.re, e.im));
}

hr_c128 ew_complex_square(hr_c128 z) { return ew_complex_multiply(z, z); }

hr_c128 ew_complex_conj(hr_c128 z) { return make(z.re, -z.im); }

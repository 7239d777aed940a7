/* Special functions behind the chlo ops (erf_inv, lgamma, digamma, polygamma, zeta, bessel_i1e),
 * in double precision. Results at poles and outside the domain follow XLA's decompositions of the
 * chlo ops: NaN outside the domain, +inf at poles. */
#ifndef HLORUN_INTERP_SPECIAL_H
#define HLORUN_INTERP_SPECIAL_H

/* Inverse error function on [-1, 1]: erf(hr_erf_inv(x)) == x; +-inf at +-1, NaN outside. */
double hr_erf_inv(double x);

/* log|Gamma(x)|; +inf at the poles 0, -1, -2, ... (thread-safe, unlike C's lgamma). */
double hr_lgamma(double x);

/* Digamma (psi) function, the derivative of log Gamma; NaN at the poles 0, -1, -2, ... */
double hr_digamma(double x);

/* Polygamma function psi^(n)(x) for integer n >= 0; NaN for other n. */
double hr_polygamma(double n, double x);

/* Hurwitz zeta function: sum over k >= 0 of (k + q)^-x, for x > 1 (+inf at x = 1, NaN below). */
double hr_zeta(double x, double q);

/* Exponentially scaled modified Bessel function of the first kind of order one: e^-|x| I1(x). */
double hr_bessel_i1e(double x);

#endif /* HLORUN_INTERP_SPECIAL_H */

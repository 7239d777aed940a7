/* Vectorised f32 math for AVX-512: exp, exp2, expm1, tanh, logistic, log, log1p, rsqrt, erf, sin and cos
 * on 16 lanes, each accurate to a few ulp over its whole domain (tests/backend/test_fast_vmath.c
 * measures the error against libm in double precision), with IEEE special values (NaN in, NaN out;
 * infinities and zeros as libm).
 *
 * The functions are `static inline` with a function-level target attribute: they inline into
 * callers compiled for the same target (HR_AVX512 below) and are never called on CPUs without
 * AVX-512 (callers check hr_cpu_avx512_ok(), cpu_features.h, first). The polynomial
 * coefficients are near-minimax fits computed for this file (least squares on Chebyshev nodes,
 * iteratively reweighted), not taken from a library.
 */
#ifndef HLORUN_BACKEND_CPU_VMATH_H
#define HLORUN_BACKEND_CPU_VMATH_H

#include <immintrin.h>
#include <math.h>

/* The instruction sets every fast kernel may use: AVX-512 F, BW, DQ and VL (any AVX-512 CPU since
 * Skylake-SP has all four) plus FMA. */
#define HR_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma")))

/* Polynomial a0 + a1 x + ... evaluated by Horner's rule with FMAs. */
#define HR_VPOLY3(x, a0, a1, a2, a3)                                                                               \
  _mm512_fmadd_ps(                                                                                                 \
      _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_set1_ps(a3), (x), _mm512_set1_ps(a2)), (x), _mm512_set1_ps(a1)), (x), \
      _mm512_set1_ps(a0))
#define HR_VPOLY4(x, a0, a1, a2, a3, a4) _mm512_fmadd_ps(HR_VPOLY3((x), a1, a2, a3, a4), (x), _mm512_set1_ps(a0))

/* The reduction shared by exp and expm1: x = n ln2 + r with n = round(x / ln2), |r| <= ln2 / 2
 * (Cody-Waite: ln2 in two parts), after clamping x to [-104, 89] (exp saturates beyond; NaN
 * passes through the clamp). Returns exp(r) - 1 = r + r^2 q(r) with q of degree 4 (relative error
 * 3e-9 on the interval), and n in *n. */
HR_AVX512 static inline __m512 hr_v_exp_reduce(__m512 x, __m512 *n) {
  /* min/max return their second operand when either is NaN: NaN survives the clamp. */
  x = _mm512_max_ps(_mm512_set1_ps(-104.0f), _mm512_min_ps(_mm512_set1_ps(89.0f), x));
  *n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                            _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(*n, _mm512_set1_ps(0.693145751953125f), x);
  r = _mm512_fnmadd_ps(*n, _mm512_set1_ps(1.428606765330187e-06f), r);
  __m512 q = HR_VPOLY4(r, 0.4999999403953552f, 0.1666652113199234f, 0.04166838899254799f, 0.008368710987269878f,
                       0.0013814510311931372f);
  return _mm512_fmadd_ps(_mm512_mul_ps(r, r), q, r);
}

/* exp(x) = 2^n (1 + (exp(r) - 1)), scaled with vscalefps, which also produces infinities,
 * denormals and zeros. */
HR_AVX512 static inline __m512 hr_v_exp(__m512 x) {
  __m512 n;
  __m512 p = hr_v_exp_reduce(x, &n);
  return _mm512_scalef_ps(_mm512_add_ps(_mm512_set1_ps(1.0f), p), n);
}

/* exp(x) where the result is a normal number (x >= -86), exactly 0 below: for probabilities, whose
 * terms under 1e-37 do not matter, on inputs full of -inf (masked scores). No instruction then
 * underflows: on Intel CPUs every vector instruction whose result underflows (denormal or rounded
 * to zero) takes a microcode assist of ~150 cycles, which made masked blocks cost more than the
 * rest of attention. NaN stays NaN. */
HR_AVX512 static inline __m512 hr_v_exp_flush(__m512 x) {
  const __m512 lo = _mm512_set1_ps(-86.0f);
  __mmask16 keep = _mm512_cmp_ps_mask(x, lo, _CMP_NLT_UQ);
  return _mm512_maskz_mov_ps(keep, hr_v_exp(_mm512_max_ps(lo, x)));
}

/* 2^f for f = w - floor(w) in [0, 1] by a degree-5 polynomial (relative error 8e-8; exactly 1 at
 * f = 0). */
HR_AVX512 static inline __m512 hr_v_exp2_fraction(__m512 w) {
  __m512 f = _mm512_reduce_ps(w, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  __m512 q = HR_VPOLY4(f, 0.6931512951850891f, 0.24016444385051727f, 0.05579991638660431f, 0.009017027914524078f,
                       0.001867131213657558f);
  return _mm512_fmadd_ps(q, f, _mm512_set1_ps(1.0f));
}

/* 2^w = 2^floor(w) 2^f: f = w - floor(w) by vreduceps (exact; 0 for infinities and for floats too
 * large to have a fraction), 2^floor(w) by vscalefps, which floors its exponent operand itself and
 * gives infinities, denormals and zeros where 2^w has them. Integer w give exact powers of two; NaN
 * stays NaN. */
HR_AVX512 static inline __m512 hr_v_exp2(__m512 w) { return _mm512_scalef_ps(hr_v_exp2_fraction(w), w); }

/* 2^w where the result is a normal number (w >= -126), exactly 0 below: as hr_v_exp_flush, for
 * probabilities kept in base 2 (w is raised to -126 first, so no lane computes a denormal). */
HR_AVX512 static inline __m512 hr_v_exp2_flush(__m512 w) {
  const __m512 lo = _mm512_set1_ps(-126.0f);
  __mmask16 keep = _mm512_cmp_ps_mask(w, lo, _CMP_NLT_UQ);
  /* max returns its second operand when either is NaN: NaN passes. */
  __m512 x = _mm512_max_ps(lo, w);
  return _mm512_maskz_scalef_ps(keep, hr_v_exp2_fraction(x), x);
}

/* expm1(x) = 2^n p + (2^n - 1) with p = exp(r) - 1: both parts exact up to one rounding while
 * n <= 24; beyond, exp(x) (the -1 no longer matters). */
HR_AVX512 static inline __m512 hr_v_expm1(__m512 x) {
  __m512 n;
  __m512 p = hr_v_exp_reduce(x, &n);
  __m512 t = _mm512_scalef_ps(_mm512_set1_ps(1.0f), n);
  __m512 r = _mm512_fmadd_ps(t, p, _mm512_sub_ps(t, _mm512_set1_ps(1.0f)));
  __mmask16 big = _mm512_cmp_ps_mask(n, _mm512_set1_ps(24.0f), _CMP_GT_OQ);
  return _mm512_mask_mov_ps(r, big, _mm512_scalef_ps(_mm512_add_ps(_mm512_set1_ps(1.0f), p), n));
}

/* Sets the sign of the non-negative `magnitude` to the sign of `like`. */
HR_AVX512 static inline __m512 hr_v_copysign(__m512 magnitude, __m512 like) {
  return _mm512_or_ps(magnitude, _mm512_and_ps(like, _mm512_set1_ps(-0.0f)));
}

/* tanh(x), odd. For |x| < 0.625: |x| + |x|^3 p(x^2) with p of degree 4 (relative error 4e-9);
 * above: 1 - 2 / (exp(2|x|) + 1), which is 1 once exp overflows. */
HR_AVX512 static inline __m512 hr_v_tanh(__m512 x) {
  __m512 ax = _mm512_abs_ps(x);
  __m512 e = hr_v_exp(_mm512_add_ps(ax, ax));
  __m512 big =
      _mm512_sub_ps(_mm512_set1_ps(1.0f), _mm512_div_ps(_mm512_set1_ps(2.0f), _mm512_add_ps(e, _mm512_set1_ps(1.0f))));
  __m512 x2 = _mm512_mul_ps(ax, ax);
  __m512 p = HR_VPOLY4(x2, -0.3333328068256378f, 0.13331443071365356f, -0.05373973026871681f, 0.020639127120375633f,
                       -0.005705027375370264f);
  __m512 small = _mm512_fmadd_ps(_mm512_mul_ps(x2, ax), p, ax);
  __mmask16 is_small = _mm512_cmp_ps_mask(ax, _mm512_set1_ps(0.625f), _CMP_LT_OQ);
  return hr_v_copysign(_mm512_mask_mov_ps(big, is_small, small), x);
}

/* logistic(x) = 1 / (1 + exp(-x)) for x >= 0 and exp(x) / (1 + exp(x)) below, so that the
 * exponential never overflows and tiny results keep their relative accuracy. */
HR_AVX512 static inline __m512 hr_v_logistic(__m512 x) {
  __m512 e = hr_v_exp(_mm512_sub_ps(_mm512_setzero_ps(), _mm512_abs_ps(x)));
  __m512 r = _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_add_ps(_mm512_set1_ps(1.0f), e));
  __mmask16 negative = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_LT_OQ);
  return _mm512_mask_mul_ps(r, negative, r, e);
}

/* log(x). x = m 2^k with m in [sqrt(1/2), sqrt(2)) (vgetexpps / vgetmantps, denormals included);
 * log(m) = 2f + f^3 q(f^2) with f = (m - 1) / (m + 1) and q of degree 2 (relative error 8e-10);
 * k ln2 is added in two parts. log(0) = -inf, log(x < 0) = NaN, log(inf) = inf, NaN -> NaN. */
HR_AVX512 static inline __m512 hr_v_log(__m512 x) {
  __m512 k = _mm512_getexp_ps(x);
  __m512 m = _mm512_getmant_ps(x, _MM_MANT_NORM_1_2, _MM_MANT_SIGN_zero);
  __mmask16 high = _mm512_cmp_ps_mask(m, _mm512_set1_ps(1.41421356237309505f), _CMP_GT_OQ);
  m = _mm512_mask_mul_ps(m, high, m, _mm512_set1_ps(0.5f));
  k = _mm512_mask_add_ps(k, high, k, _mm512_set1_ps(1.0f));
  __m512 f = _mm512_div_ps(_mm512_sub_ps(m, _mm512_set1_ps(1.0f)), _mm512_add_ps(m, _mm512_set1_ps(1.0f)));
  __m512 f2 = _mm512_mul_ps(f, f);
  __m512 q =
      _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_set1_ps(0.298708975315094f), f2, _mm512_set1_ps(0.39977574348449707f)), f2,
                      _mm512_set1_ps(0.6666677594184875f));
  __m512 logm = _mm512_fmadd_ps(_mm512_mul_ps(f2, f), q, _mm512_add_ps(f, f));
  __m512 r = _mm512_fmadd_ps(k, _mm512_set1_ps(1.428606765330187e-06f), logm);
  r = _mm512_fmadd_ps(k, _mm512_set1_ps(0.693145751953125f), r);
  /* Special values: zero -> -inf, inf -> inf, negative or NaN -> NaN. */
  __mmask16 zero = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_EQ_OQ);
  __mmask16 inf = _mm512_cmp_ps_mask(x, _mm512_set1_ps(__builtin_inff()), _CMP_EQ_OQ);
  __mmask16 bad = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NGE_UQ); /* x < 0 or NaN */
  r = _mm512_mask_mov_ps(r, zero, _mm512_set1_ps(-__builtin_inff()));
  r = _mm512_mask_mov_ps(r, inf, x);
  return _mm512_mask_mov_ps(r, bad, _mm512_set1_ps(__builtin_nanf("")));
}

/* log1p(x) = log(u) * x / (u - 1) with u = 1 + x (the factor corrects the rounding of u), or x
 * when u rounds to 1; log1p(inf) = inf. */
HR_AVX512 static inline __m512 hr_v_log1p(__m512 x) {
  __m512 u = _mm512_add_ps(_mm512_set1_ps(1.0f), x);
  __m512 d = _mm512_sub_ps(u, _mm512_set1_ps(1.0f));
  __m512 r = _mm512_mul_ps(hr_v_log(u), _mm512_div_ps(x, d));
  r = _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_EQ_OQ), x);
  return _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(x, _mm512_set1_ps(__builtin_inff()), _CMP_EQ_OQ), x);
}

/* erf(x), odd. For |x| < 1: x p(x^2) with p of degree 6 (relative error 1e-9); for 1 <= |x| < 4:
 * 1 - exp(-x^2) g(1/|x|) where g approximates erfc(x) exp(x^2) with degree 8 (relative error
 * 7e-8), x^2 being split into two parts so that exp(-x^2) keeps its accuracy; 1 above. */
HR_AVX512 static inline __m512 hr_v_erf(__m512 x) {
  __m512 ax = _mm512_abs_ps(x), x2 = _mm512_mul_ps(x, x);
  __m512 p = _mm512_fmadd_ps(
      _mm512_fmadd_ps(
          _mm512_fmadd_ps(_mm512_set1_ps(7.854406430851668e-05f), x2, _mm512_set1_ps(-0.0008010371238924563f)), x2,
          _mm512_set1_ps(0.005188350100070238f)),
      _mm512_mul_ps(_mm512_mul_ps(x2, x2), _mm512_mul_ps(x2, x2)),
      HR_VPOLY3(x2, 1.1283791065216064f, -0.3761262595653534f, 0.1128358542919159f, -0.02685382589697838f));
  __m512 small = _mm512_mul_ps(ax, p);
  __m512 t = _mm512_div_ps(_mm512_set1_ps(1.0f), ax);
  __m512 g = _mm512_fmadd_ps(
      HR_VPOLY4(t, 0.48099246621131897f, -0.219145730137825f, 0.004093549679964781f, 0.03796759620308876f,
                -0.011368155479431152f),
      _mm512_mul_ps(_mm512_mul_ps(t, t), _mm512_mul_ps(t, t)),
      HR_VPOLY3(t, 0.00025314511731266975f, 0.5593149662017822f, 0.04016558825969696f, -0.46468988060951233f));
  __m512 lo = _mm512_fmsub_ps(ax, ax, x2); /* x^2 = x2 + lo exactly */
  __m512 e = _mm512_mul_ps(hr_v_exp(_mm512_sub_ps(_mm512_setzero_ps(), x2)), _mm512_sub_ps(_mm512_set1_ps(1.0f), lo));
  __m512 big = _mm512_fnmadd_ps(e, g, _mm512_set1_ps(1.0f));
  __m512 r = _mm512_mask_mov_ps(big, _mm512_cmp_ps_mask(ax, _mm512_set1_ps(1.0f), _CMP_LT_OQ), small);
  r = _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(ax, _mm512_set1_ps(4.0f), _CMP_GE_OQ), _mm512_set1_ps(1.0f));
  return hr_v_copysign(r, x); /* NaN: every branch above is NaN */
}

/* sin(x + shift * pi / 2) for shift 0 (sin) or 1 (cos). x = j pi/2 + r with j = round(2x / pi),
 * |r| <= pi/4, pi/2 in four parts (the first three products exact for |x| < 8192); sin(r) = r + r^3 s(r^2) and
 * cos(r) = 1 - r^2 / 2 + r^4 c(r^2) with s, c of degree 3; the quadrant j + shift picks one and
 * the sign. Lanes with larger |x| (rare) use libm. Infinities and NaN give NaN. */
HR_AVX512 static inline __m512 hr_v_sin_shifted(__m512 x, int shift) {
  __m512 j = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(0.6366197466850281f)),
                                  _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(j, _mm512_set1_ps(1.5703125f), x);
  r = _mm512_fnmadd_ps(j, _mm512_set1_ps(0.0004837512969970703f), r);
  r = _mm512_fnmadd_ps(j, _mm512_set1_ps(7.549533620476723e-08f), r);
  r = _mm512_fnmadd_ps(j, _mm512_set1_ps(2.5633440682570896e-12f), r);
  __m512 r2 = _mm512_mul_ps(r, r);
  __m512 sn = _mm512_fmadd_ps(
      _mm512_mul_ps(r2, r),
      HR_VPOLY3(r2, -0.1666666716337204f, 0.008333329111337662f, -0.00019839312881231308f, 2.7181226869288366e-06f), r);
  __m512 cs = _mm512_fmadd_ps(
      _mm512_mul_ps(r2, r2),
      HR_VPOLY3(r2, 0.0416666679084301f, -0.0013888883404433727f, 2.4799459424684756e-05f, -2.720576048886869e-07f),
      _mm512_fnmadd_ps(_mm512_set1_ps(0.5f), r2, _mm512_set1_ps(1.0f)));
  __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(j), _mm512_set1_epi32(shift));
  __mmask16 odd = _mm512_test_epi32_mask(q, _mm512_set1_epi32(1));
  __mmask16 negative = _mm512_test_epi32_mask(q, _mm512_set1_epi32(2));
  __m512 v = _mm512_mask_mov_ps(sn, odd, cs);
  v = _mm512_mask_xor_ps(v, negative, v, _mm512_set1_ps(-0.0f));
  __mmask16 large = _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(8192.0f), _CMP_GT_OQ) &
                    _mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(__builtin_inff()), _CMP_LT_OQ);
  if (large) {
    float in[16], out[16];
    _mm512_storeu_ps(in, x);
    _mm512_storeu_ps(out, v);
    for (int i = 0; i < 16; i++)
      if (large >> i & 1) out[i] = shift ? cosf(in[i]) : sinf(in[i]);
    v = _mm512_loadu_ps(out);
  }
  return v;
}

HR_AVX512 static inline __m512 hr_v_sin(__m512 x) { return hr_v_sin_shifted(x, 0); }
HR_AVX512 static inline __m512 hr_v_cos(__m512 x) { return hr_v_sin_shifted(x, 1); }

/* 1 / sqrt(x) from the correctly rounded square root and division (at most 1.5 ulp). */
HR_AVX512 static inline __m512 hr_v_rsqrt(__m512 x) { return _mm512_div_ps(_mm512_set1_ps(1.0f), _mm512_sqrt_ps(x)); }

#endif

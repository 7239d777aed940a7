/* The vectorised math of backend/cpu/vmath.h against libm in double precision: the largest error in
 * ulp over dense sweeps of each function's domain (every 1021st float bit pattern for log and rsqrt),
 * and the special values. Skipped (77) on CPUs without AVX-512. */
#include <math.h>
#include <stdint.h>

#include "backend/cpu/cpu_features.h"
#include "backend/cpu/vmath.h"
#include "test.h"

typedef enum vfn {
  V_EXP,
  V_EXP2,
  V_EXP2_FLUSH,
  V_EXPM1,
  V_TANH,
  V_LOGISTIC,
  V_LOG,
  V_LOG1P,
  V_RSQRT,
  V_ERF,
  V_SIN,
  V_COS
} vfn;

/* Applies function `f` to 16 floats. */
HR_AVX512 static void apply16(vfn f, const float *x, float *y) {
  __m512 v = _mm512_loadu_ps(x), r = v;
  switch (f) {
    case V_EXP:
      r = hr_v_exp(v);
      break;
    case V_EXP2:
      r = hr_v_exp2(v);
      break;
    case V_EXP2_FLUSH:
      r = hr_v_exp2_flush(v);
      break;
    case V_EXPM1:
      r = hr_v_expm1(v);
      break;
    case V_TANH:
      r = hr_v_tanh(v);
      break;
    case V_LOGISTIC:
      r = hr_v_logistic(v);
      break;
    case V_LOG:
      r = hr_v_log(v);
      break;
    case V_LOG1P:
      r = hr_v_log1p(v);
      break;
    case V_RSQRT:
      r = hr_v_rsqrt(v);
      break;
    case V_ERF:
      r = hr_v_erf(v);
      break;
    case V_SIN:
      r = hr_v_sin(v);
      break;
    case V_COS:
      r = hr_v_cos(v);
      break;
  }
  _mm512_storeu_ps(y, r);
}

/* The exact value, in double precision. */
static double exact(vfn f, double x) {
  switch (f) {
    case V_EXP:
      return exp(x);
    case V_EXP2:
      return exp2(x);
    case V_EXP2_FLUSH: /* exactly 0 where 2^x is below the normal range */
      return x < -126 ? 0 : exp2(x);
    case V_EXPM1:
      return expm1(x);
    case V_TANH:
      return tanh(x);
    case V_LOGISTIC:
      return 1.0 / (1.0 + exp(-x));
    case V_LOG:
      return log(x);
    case V_LOG1P:
      return log1p(x);
    case V_RSQRT:
      return 1.0 / sqrt(x);
    case V_ERF:
      return erf(x);
    case V_SIN:
      return sin(x);
    case V_COS:
      return cos(x);
  }
  return 0;
}

/* The error of `got` in units of the last place of the float nearest `want` (denormal spacing at
 * the bottom of the range); 0 when both are the same infinity or both NaN, huge for a mismatch. */
static double ulp_error(float got, double want) {
  if (isnan(want) || isnan(got)) return isnan(want) && isnan(got) ? 0 : 1e30;
  if (isinf(want) || isinf(got)) {
    float wf = (float)want;
    return got == wf ? 0 : 1e30;
  }
  float wf = fabsf((float)want);
  double ulp = isinf(wf) ? ldexp(1.0, 104) : (double)nextafterf(wf, INFINITY) - (double)wf;
  if (ulp < ldexp(1.0, -149)) ulp = ldexp(1.0, -149);
  return fabs((double)got - want) / ulp;
}

/* The largest ulp error of `f` over `n` inputs (any n; padded to a multiple of 16). */
static double max_error(vfn f, const float *x, int64_t n, float *worst_x) {
  double worst = 0;
  for (int64_t i = 0; i < n; i += 16) {
    float in[16], out[16];
    for (int j = 0; j < 16; j++) in[j] = x[i + j < n ? i + j : n - 1];
    apply16(f, in, out);
    for (int j = 0; j < 16 && i + j < n; j++) {
      double e = ulp_error(out[j], exact(f, (double)in[j]));
      if (e > worst) {
        worst = e;
        *worst_x = in[j];
      }
    }
  }
  return worst;
}

/* Checks `f` on `n` evenly spaced points of [lo, hi] (plus the end points) within `bound` ulp. */
static void check_range(vfn f, const char *name, float lo, float hi, int64_t n, double bound) {
  float *x = malloc((size_t)(n + 1) * sizeof *x);
  if (!x) return;
  for (int64_t i = 0; i <= n; i++) x[i] = lo + (float)((double)(hi - lo) * (double)i / (double)n);
  float at = 0;
  double e = max_error(f, x, n + 1, &at);
  if (e > bound) {
    fprintf(stderr, "%s on [%g, %g]: %.2f ulp at %.9g (bound %.1f)\n", name, lo, hi, e, at, bound);
    test_failures_++;
  }
  free(x);
}

/* Checks `f` on every `stride`-th float bit pattern in [lo_bits, hi_bits]. */
static void check_bits(vfn f, const char *name, uint32_t lo_bits, uint32_t hi_bits, uint32_t stride, double bound) {
  int64_t n = (int64_t)((hi_bits - lo_bits) / stride) + 1;
  float *x = malloc((size_t)n * sizeof *x);
  if (!x) return;
  for (int64_t i = 0; i < n; i++) {
    uint32_t b = lo_bits + (uint32_t)i * stride;
    memcpy(&x[i], &b, sizeof b);
  }
  float at = 0;
  double e = max_error(f, x, n, &at);
  if (e > bound) {
    fprintf(stderr, "%s over bit patterns: %.2f ulp at %.9g (bound %.1f)\n", name, e, at, bound);
    test_failures_++;
  }
  free(x);
}

/* Checks `f` on the special values, which must match libm exactly (NaN for NaN). */
static void check_specials(vfn f, const char *name) {
  const float in[16] = {0.0f,   -0.0f,   INFINITY, -INFINITY, NAN,    -NAN,  1.0f,   -1.0f,
                        1e-45f, -1e-45f, 1e-38f,   3e38f,     -3e38f, 88.7f, -88.7f, 0.5f};
  float out[16];
  apply16(f, in, out);
  for (int j = 0; j < 16; j++) {
    double want = exact(f, (double)in[j]);
    double e = ulp_error(out[j], want);
    if (e > 4) {
      fprintf(stderr, "%s(%g) = %g, expected %g\n", name, in[j], out[j], want);
      test_failures_++;
    }
  }
}

TEST(exp_accuracy) {
  check_range(V_EXP, "exp", -104.0f, 89.0f, 400000, 2.0);
  check_range(V_EXP, "exp", -1.0f, 1.0f, 200000, 2.0);
  check_specials(V_EXP, "exp");
}

TEST(exp2_accuracy) {
  check_range(V_EXP2, "exp2", -150.0f, 128.0f, 400000, 2.5);
  check_range(V_EXP2, "exp2", -1.0f, 1.0f, 200000, 2.5);
  check_specials(V_EXP2, "exp2");
  check_range(V_EXP2_FLUSH, "exp2_flush", -140.0f, 128.0f, 400000, 2.5);
  check_bits(V_EXP2_FLUSH, "exp2_flush", 0xc2f00000u, 0xc3000000u, 1, 2.5); /* -120 .. -128 */
  check_specials(V_EXP2_FLUSH, "exp2_flush");
}

TEST(tanh_accuracy) {
  check_range(V_TANH, "tanh", -12.0f, 12.0f, 400000, 3.0);
  check_range(V_TANH, "tanh", -0.7f, 0.7f, 200000, 3.0);
  check_bits(V_TANH, "tanh", 0x00000001u, 0x3f200000u, 257, 3.0); /* 0 < x < 0.625 */
  check_specials(V_TANH, "tanh");
}

TEST(logistic_accuracy) {
  check_range(V_LOGISTIC, "logistic", -100.0f, 100.0f, 400000, 3.0);
  check_range(V_LOGISTIC, "logistic", -2.0f, 2.0f, 200000, 3.0);
  check_specials(V_LOGISTIC, "logistic");
}

TEST(log_accuracy) {
  check_bits(V_LOG, "log", 0x00000001u, 0x7f7fffffu, 1021, 2.5);
  check_range(V_LOG, "log", 0.5f, 2.0f, 200000, 2.5);
  check_specials(V_LOG, "log");
}

TEST(expm1_accuracy) {
  check_range(V_EXPM1, "expm1", -104.0f, 89.0f, 400000, 2.0);
  check_range(V_EXPM1, "expm1", -1.0f, 1.0f, 200000, 2.0);
  check_bits(V_EXPM1, "expm1", 0x00000001u, 0x3f000000u, 257, 2.0); /* 0 < x < 0.5 */
  check_specials(V_EXPM1, "expm1");
}

TEST(log1p_accuracy) {
  check_range(V_LOG1P, "log1p", -0.999f, 2.0f, 400000, 4.0);
  check_bits(V_LOG1P, "log1p", 0x00000001u, 0x7f7fffffu, 1021, 4.0);
  check_bits(V_LOG1P, "log1p", 0x80000001u, 0xbf7fffffu, 1021, 4.0); /* -1 < x < 0 */
  check_specials(V_LOG1P, "log1p");
}

TEST(erf_accuracy) {
  check_range(V_ERF, "erf", -5.0f, 5.0f, 400000, 4.0);
  check_bits(V_ERF, "erf", 0x00000001u, 0x3f800000u, 257, 4.0); /* 0 < x <= 1 */
  check_specials(V_ERF, "erf");
}

TEST(sin_cos_accuracy) {
  check_range(V_SIN, "sin", -10.0f, 10.0f, 400000, 3.0);
  check_range(V_COS, "cos", -10.0f, 10.0f, 400000, 3.0);
  check_range(V_SIN, "sin", -9000.0f, 9000.0f, 400000, 3.0); /* the libm lanes above 8192 */
  check_range(V_COS, "cos", -9000.0f, 9000.0f, 400000, 3.0);
  check_bits(V_SIN, "sin", 0x00000001u, 0x3f490fdbu, 257, 3.0); /* 0 < x <= pi/4 */
  check_specials(V_SIN, "sin");
  check_specials(V_COS, "cos");
}

TEST(rsqrt_accuracy) {
  check_bits(V_RSQRT, "rsqrt", 0x00000001u, 0x7f7fffffu, 1021, 1.5);
  check_specials(V_RSQRT, "rsqrt");
}

int main(void) {
  if (!hr_cpu_avx512_ok()) {
    printf("skipped: no AVX-512\n");
    return 77;
  }
  RUN(exp_accuracy);
  RUN(exp2_accuracy);
  RUN(tanh_accuracy);
  RUN(logistic_accuracy);
  RUN(log_accuracy);
  RUN(rsqrt_accuracy);
  RUN(expm1_accuracy);
  RUN(log1p_accuracy);
  RUN(erf_accuracy);
  RUN(sin_cos_accuracy);
  TEST_MAIN_END();
}

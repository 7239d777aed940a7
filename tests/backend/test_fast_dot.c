/* The fast stablehlo.dot_general kernel (backend/cpu/fast_dot.c): batches of small f32 products
 * read through strides equal the reference kernel bit for bit (same summation order, no fused
 * multiply-add): the decode attention's q . k and p . v over a KV cache, with tails of 16 and 64
 * columns and of 16 contraction steps, several lhs rows, unit and merged dimensions, batching
 * dimensions in any order, signed zeros, infinities and NaNs; products it does not take stay on the
 * reference kernel. Skipped (77) on CPUs without AVX-512. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>

#include "backend/cpu/cpu_features.h"
#include "runtime/exec_internal.h"
#include "test.h"

/* An f32 tensor of small values (multiples of 1/8, some zeros of both signs); `specials` also puts
 * an infinity and a NaN in. */
static hr_tensor *filled(int rank, const int64_t *dims, int seed, bool specials) {
  hr_shape s = {.rank = rank};
  for (int i = 0; i < rank; i++) s.dims[i] = dims[i];
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &s, 0, &t));
  int64_t n = t ? hr_tensor_num_elements(t) : 0;
  float *x = t ? t->data : NULL;
  for (int64_t i = 0; i < n; i++) {
    int v = (int)((i * 37 + seed * 11) % 29) - 14;
    x[i] = v == 0 && i % 2 ? -0.0f : (float)v * 0.125f + (float)((i * 13) % 7) * 1e-3f;
  }
  if (specials && n > 7) x[n / 3] = INFINITY, x[n / 2] = NAN, x[n - 5] = -INFINITY;
  return t;
}

__attribute__((format(printf, 1, 2))) static char *text_of(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* Same bits, where NaNs match any NaN. */
static bool same_bits(const hr_tensor *a, const hr_tensor *b) {
  if (a->dtype != b->dtype || a->nbytes != b->nbytes) return false;
  for (size_t i = 0; i < a->nbytes / 4; i++) {
    float x = ((const float *)a->data)[i], y = ((const float *)b->data)[i];
    if (memcmp(&x, &y, 4) != 0 && !(isnan(x) && isnan(y))) return false;
  }
  return true;
}

/* Runs dot_general `dims` of x [xshape] and y [yshape] into [rshape] (shapes in MLIR's spelling,
 * "2x3x4") with the interpreter and as an executable, checks the results bit for bit and that the
 * product ran on `impl`. */
static void check_dot(const char *xshape, const int64_t *xd, int xr, const char *yshape, const int64_t *yd, int yr,
                      const char *rshape, const char *dims, const char *impl, bool specials) {
  char *text = text_of("func.func @main(%%x: tensor<%sxf32>, %%y: tensor<%sxf32>) -> tensor<%sxf32> {\n"
                       "  %%0 = stablehlo.dot_general %%x, %%y, %s : (tensor<%sxf32>, tensor<%sxf32>) -> "
                       "tensor<%sxf32>\n"
                       "  return %%0 : tensor<%sxf32>\n}\n",
                       xshape, yshape, rshape, dims, xshape, yshape, rshape, rshape);
  hr_module *ref = NULL, *m = NULL;
  CHECK_OK(hr_module_parse("dot.mlir", text, strlen(text), NULL, &ref));
  CHECK_OK(hr_module_parse("dot.mlir", text, strlen(text), NULL, &m));
  hr_tensor *args[2] = {filled(xr, xd, 1, specials), filled(yr, yd, 2, specials)};
  hr_run_options ro = {.num_threads = 2};
  hr_exec_options eo = {.num_threads = 2};
  hr_tensor **want = NULL, **got = NULL;
  int n_want = 0, n_got = 0;
  hr_executable *e = NULL;
  if (ref && m) {
    CHECK_OK(hr_module_run(ref, "main", args, 2, &ro, &want, &n_want));
    CHECK_OK(hr_executable_create(m, NULL, NULL, &eo, &e));
  } else {
    hr_module_free(m);
  }
  if (e) {
    CHECK_OK(hr_executable_run(e, args, 2, &got, &n_got));
    const char *used = hr_executable_step_impl(e, 0);
    if (!used || strcmp(used, impl) != 0) {
      fprintf(stderr, "the product runs on %s, expected %s:\n%s", used ? used : "(none)", impl, text);
      test_failures_++;
    }
  }
  CHECK_EQ_INT(n_got, n_want);
  if (n_got == 1 && n_want == 1 && !same_bits(got[0], want[0])) {
    fprintf(stderr, "the product differs from the reference:\n%s", text);
    test_failures_++;
  }
  hr_tensors_free(want, n_want);
  hr_tensors_free(got, n_got);
  hr_executable_free(e);
  hr_module_free(ref);
  hr_tensor_free(args[0]);
  hr_tensor_free(args[1]);
  free(text);
}

/* The decode step's attention over its cache: scores = q . k, then p . v, for several cache
 * lengths, heads and head sizes (tails of the 16-wide blocks and of the 64-column passes). */
TEST(decode_attention_products) {
  static const int64_t sizes[][4] = {{16, 256, 4, 64}, {3, 37, 2, 20}, {2, 16, 1, 16}, {1, 5, 3, 70}, {4, 100, 2, 1}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    int64_t b = sizes[i][0], t = sizes[i][1], h = sizes[i][2], d = sizes[i][3];
    int64_t qd[] = {b, 1, h, d}, kd[] = {b, t, h, d}, pd[] = {b, h, 1, t};
    char q[64], k[64], s[64], p[64], o[64];
    snprintf(q, sizeof q, "%lldx1x%lldx%lld", (long long)b, (long long)h, (long long)d);
    snprintf(k, sizeof k, "%lldx%lldx%lldx%lld", (long long)b, (long long)t, (long long)h, (long long)d);
    snprintf(s, sizeof s, "%lldx%lldx1x%lld", (long long)b, (long long)h, (long long)t);
    snprintf(p, sizeof p, "%lldx%lldx1x%lld", (long long)b, (long long)h, (long long)t);
    snprintf(o, sizeof o, "%lldx%lldx1x%lld", (long long)b, (long long)h, (long long)d);
    check_dot(q, qd, 4, k, kd, 4, s, "batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3]", "dot",
              i == 1);
    check_dot(p, pd, 4, k, kd, 4, o, "batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1]", "dot",
              i == 1);
  }
}

/* Several lhs rows (prefill-like attention of 16 queries), merged and unit dimensions, batching
 * dimensions listed out of order, no batching dimension, a contraction of one element. */
TEST(other_layouts) {
  int64_t qd[] = {2, 16, 3, 24}, kd[] = {2, 40, 3, 24};
  check_dot("2x16x3x24", qd, 4, "2x40x3x24", kd, 4, "2x3x16x40",
            "batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3]", "dot", true);
  int64_t pd[] = {2, 3, 5, 40};
  check_dot("2x3x5x40", pd, 4, "2x40x3x24", kd, 4, "2x3x5x24",
            "batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1]", "dot", false);
  int64_t xd[] = {3, 4, 2, 5}, yd[] = {4, 3, 2, 5, 7};
  check_dot("3x4x2x5", xd, 4, "4x3x2x5x7", yd, 5, "4x3x7",
            "batching_dims = [1, 0] x [0, 1], contracting_dims = [2, 3] x [2, 3]", "dot", false);
  int64_t ad[] = {5, 33}, bd[] = {33, 70};
  check_dot("5x33", ad, 2, "33x70", bd, 2, "5x70", "contracting_dims = [1] x [0]", "dot", false);
  int64_t cd[] = {6, 1}, ed[] = {1, 9};
  check_dot("6x1", cd, 2, "1x9", ed, 2, "6x9", "contracting_dims = [1] x [0]", "dot", false);
  int64_t vd[] = {4, 9}, wd[] = {4, 9};
  check_dot("4x9", vd, 2, "4x9", wd, 2, "4", "batching_dims = [0] x [0], contracting_dims = [1] x [1]", "dot", true);
}

/* Products the kernel leaves to the reference: more than 16 lhs rows, a rhs contiguous along
 * neither k nor n. */
TEST(left_to_the_reference) {
  int64_t ad[] = {40, 8}, bd[] = {8, 32};
  check_dot("40x8", ad, 2, "8x32", bd, 2, "40x32", "contracting_dims = [1] x [0]", "reference", false);
  int64_t xd[] = {2, 3, 5}, yd[] = {5, 4, 3, 2};
  check_dot("2x3x5", xd, 3, "5x4x3x2", yd, 4, "2x4",
            "batching_dims = [0] x [3], contracting_dims = [1, 2] x [2, 0]", "reference", false);
}

int main(void) {
  if (!hr_cpu_avx512_ok()) {
    printf("skipped: no AVX-512\n");
    return 77;
  }
  RUN(decode_attention_products);
  RUN(other_layouts);
  RUN(left_to_the_reference);
  TEST_MAIN_END();
}

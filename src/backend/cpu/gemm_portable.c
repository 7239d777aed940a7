/* Portable f32 GEMM kernels (gemm_internal.h) for CPUs without AVX-512: the same packed layouts
 * and blocking as the AVX-512 kernels, with plain loops. Correct, not fast. */
#include <string.h>

#include "backend/cpu/gemm_internal.h"

static void pack_a_portable(const float *a, int64_t lda, int rows, int64_t kc, void *dst) {
  for (int r = 0; r < rows; r++) memcpy((float *)dst + r * HR_GEMM_A_STRIDE, a + r * lda, (size_t)kc * sizeof(float));
}

/* One tile, accumulated in a local array row by row so the compiler can vectorize across columns. */
static void tile_portable(int rows, int64_t steps, const float *a, const float *b, float *c, int64_t ldc, int cols,
                          bool accumulate, const hr_gemm_tile_addends *add, int64_t col0) {
  for (int i = 0; i < rows; i++) {
    float acc[HR_GEMM_NR] = {0};
    const float *arow = a + i * HR_GEMM_A_STRIDE;
    for (int64_t s = 0; s < steps; s++)
      for (int j = 0; j < HR_GEMM_NR; j++) acc[j] += arow[s] * b[s * HR_GEMM_NR + j];
    float *crow = c + i * ldc;
    for (int j = 0; j < cols; j++) crow[j] = accumulate ? crow[j] + acc[j] : acc[j];
    for (int t = 0; add && t < add->n; t++)
      for (int j = 0; j < cols; j++) crow[j] += add->a[t].p[i * add->a[t].ld + col0 + j];
  }
}

static void panels_portable(int rows, int64_t steps, const void *a, const void *b, int64_t panels,
                            int last_cols, float *c, int64_t ldc, bool accumulate, const hr_gemm_tile_addends *add,
                            const hr_gemm_prefetch *next) {
  const float *af = a, *bf = b;
  for (int64_t p = 0; p < panels; p++) {
    int cols = p + 1 < panels ? HR_GEMM_NR : last_cols;
    tile_portable(rows, steps, af, bf + p * steps * HR_GEMM_NR, c + p * HR_GEMM_NR, ldc, cols, accumulate, add,
                  p * HR_GEMM_NR);
  }
}

const hr_gemm_kernels *hr_gemm_portable_kernels(void) {
  static const hr_gemm_kernels portable = {HR_GEMM_MR, pack_a_portable, panels_portable, NULL};
  return &portable;
}

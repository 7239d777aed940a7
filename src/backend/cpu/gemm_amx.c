/* AMX GEMM kernels (gemm_internal.h) for bf16 on CPUs with AMX-BF16: the products run on the tile
 * unit (tdpbf16ps: a 16 x 32 bf16 tile of A times a 32 x 16 tile of B into a 16 x 16 f32 tile, 16
 * times the work of one vdpbf16ps), f32 accumulation as in the AVX-512 bf16 kernels.
 *
 * A tile of C is 32 rows by one 32-column B panel: four 16 x 16 accumulator tiles (C00 C01 / C10
 * C11) fed by two A tiles (rows 0-15, 16-31) and two B tiles (the panel's columns 0-15 and 16-31)
 * per 16 steps (32 k). Both operands are read where the driver already put them: the packed bf16
 * B panel (NR words a step) is two B tiles side by side, loaded with a 128-byte row stride, and the
 * A panel's rows (HR_GEMM_A_STRIDE words apart) are A-tile rows. K blocks have a multiple of 16
 * steps (HR_GEMM_BF16_STEP_ALIGN), zero-padded, so no partial tiles arise along K.
 *
 * Finished accumulators go to a small buffer, from which AVX-512 adds the old C (later K blocks)
 * and the addends and stores the valid columns. Tile registers are configured for the row count
 * at the start of each call, and released when a participant has finished its share of a GEMM. */
#include <immintrin.h>

#include "backend/cpu/amx.h"
#include "backend/cpu/gemm_internal.h"

enum { AMX_MR = 32 /* rows of a tile of C: two tile registers of 16 */ };
_Static_assert((int)AMX_MR <= (int)HR_GEMM_MR_MAX && HR_GEMM_NR == 2 * 16, "a C tile is 2 x 2 tile registers");
_Static_assert((int)HR_GEMM_BF16_STEP_ALIGN == (int)HR_TILE_ROWS, "a K block is a whole number of B tiles");

/* Tile registers. */
#define T_C00 0
#define T_C01 1
#define T_C10 2
#define T_C11 3
#define T_A0 4
#define T_A1 5
#define T_B0 6
#define T_B1 7

/* ---- the kernel -------------------------------------------------------------------------------- */

/* Configures the tiles for a C tile of `rows` (1..32) rows: the top tiles take the first 16 rows,
 * the bottom ones the rest (left unconfigured when there are none). */
HR_AMX static void configure(int rows) {
  uint8_t top = (uint8_t)(rows < HR_TILE_ROWS ? rows : HR_TILE_ROWS), bottom = (uint8_t)(rows - top);
  uint8_t tile_rows[8];
  tile_rows[T_C00] = tile_rows[T_C01] = tile_rows[T_A0] = top;
  tile_rows[T_C10] = tile_rows[T_C11] = tile_rows[T_A1] = bottom;
  tile_rows[T_B0] = tile_rows[T_B1] = HR_TILE_ROWS;
  hr_amx_load_config(tile_rows);
}

static inline __mmask16 lanes(int n) {
  return n >= 16 ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1);
}

/* Stores `rows` rows of a product `acc` (rows x NR floats) to C's `cols` columns, adding the old C
 * first when `accumulate`, then each addend (columns from col0 of it). */
HR_AMX static void finish(int rows, const float *acc, float *c, int64_t ldc, int cols, bool accumulate,
                          const hr_gemm_tile_addends *add, int64_t col0) {
  const __mmask16 m[2] = {lanes(cols), lanes(cols - 16)};
  for (int i = 0; i < rows; i++) {
    for (int h = 0; h < 2; h++) {
      if (!m[h]) continue;
      float *dst = c + i * ldc + 16 * h;
      __m512 v = _mm512_load_ps(acc + i * HR_GEMM_NR + 16 * h);
      if (accumulate) v = _mm512_add_ps(_mm512_maskz_loadu_ps(m[h], dst), v);
      for (int k = 0; add && k < add->n; k++)
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m[h], add->a[k].p + i * add->a[k].ld + col0 + 16 * h));
      _mm512_mask_storeu_ps(dst, m[h], v);
    }
  }
}

/* The C tiles of one row group across consecutive panels (hr_gemm_kernels.panels). No software
 * prefetching: fetching the next group's A rows, the next panel's B tiles or C's rows ahead was
 * measured and was no faster (or slower) than leaving them to the hardware prefetchers. */
HR_AMX static void panels_amx(int rows, int64_t steps, const void *a, const void *b, int64_t panels, int last_cols,
                              float *c, int64_t ldc, bool accumulate, const hr_gemm_tile_addends *add,
                              const hr_gemm_prefetch *next) {
  (void)next;
  const bool bottom = rows > HR_TILE_ROWS;
  const uint32_t *a0 = a, *a1 = a0 + HR_TILE_ROWS * HR_GEMM_A_STRIDE;
  const int64_t a_stride = HR_GEMM_A_STRIDE * (int64_t)sizeof(uint32_t);
  const int64_t b_stride = HR_GEMM_NR * (int64_t)sizeof(uint32_t);
  _Alignas(64) float acc[AMX_MR * HR_GEMM_NR];
  configure(rows);
  for (int64_t p = 0; p < panels; p++) {
    const uint32_t *bp = (const uint32_t *)b + p * steps * HR_GEMM_NR;
    HR_TILE_ZERO(T_C00);
    HR_TILE_ZERO(T_C01);
    if (bottom) {
      HR_TILE_ZERO(T_C10);
      HR_TILE_ZERO(T_C11);
    }
    for (int64_t s = 0; s < steps; s += HR_TILE_ROWS) {
      HR_TILE_LOAD(T_B0, bp + s * HR_GEMM_NR, b_stride);
      HR_TILE_LOAD(T_B1, bp + s * HR_GEMM_NR + 16, b_stride);
      HR_TILE_LOAD(T_A0, a0 + s, a_stride);
      HR_TILE_DP(T_C00, T_A0, T_B0);
      HR_TILE_DP(T_C01, T_A0, T_B1);
      if (bottom) {
        HR_TILE_LOAD(T_A1, a1 + s, a_stride);
        HR_TILE_DP(T_C10, T_A1, T_B0);
        HR_TILE_DP(T_C11, T_A1, T_B1);
      }
    }
    const int64_t acc_stride = HR_GEMM_NR * (int64_t)sizeof(float);
    HR_TILE_STORE(T_C00, acc, acc_stride);
    HR_TILE_STORE(T_C01, acc + 16, acc_stride);
    if (bottom) {
      HR_TILE_STORE(T_C10, acc + HR_TILE_ROWS * HR_GEMM_NR, acc_stride);
      HR_TILE_STORE(T_C11, acc + HR_TILE_ROWS * HR_GEMM_NR + 16, acc_stride);
    }
    int cols = p + 1 < panels ? HR_GEMM_NR : last_cols;
    finish(rows, acc, c + p * HR_GEMM_NR, ldc, cols, accumulate, add, p * HR_GEMM_NR);
  }
}

/* Returns the tile registers to their initial state once a participant is done with a GEMM (doing
 * it after every row group would cost more than the group's products). */
HR_AMX static void release_tiles(void) { _tile_release(); }

const hr_gemm_kernels *hr_gemm_amx_kernels(void) {
  static const hr_gemm_kernels amx = {AMX_MR, hr_gemm_avx512_pack_a_bf16, panels_amx, release_tiles};
  return &amx;
}

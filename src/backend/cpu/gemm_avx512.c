/* AVX-512 GEMM kernels (gemm_internal.h): the 14 x 32 register-blocked microkernels for f32
 * (vfmadd231ps) and bf16 (vdpbf16ps) with the addends applied before the store, A-panel packing, and the 16 x 16 transposes that pack a
 * transposed B. Every function carries its own target attribute; the library is built without
 * -march flags and calls these only after checking the CPU (gemm.c). */
#include <immintrin.h>

#include "backend/cpu/gemm_internal.h"
#include "backend/cpu/transpose.h"

/* prfchw (prefetchw) comes with every AVX-512 CPU. */
#define HR_TARGET_F32 __attribute__((target("avx512f,prfchw")))
#define HR_TARGET_BF16 __attribute__((target("avx512f,avx512bf16,prfchw")))
#define HR_INLINE_F32 static inline __attribute__((always_inline, target("avx512f,prfchw")))
#define HR_INLINE_BF16 static inline __attribute__((always_inline, target("avx512f,avx512bf16,prfchw")))

/* Fully unrolls a loop over the rows of a tile (a compile-time count), so that the accumulators
 * live in registers. */
#if defined(__clang__)
#define HR_UNROLL_ROWS _Pragma("unroll")
#else
#define HR_UNROLL_ROWS _Pragma("GCC unroll 14")
#endif

/* Lane masks of the two 16-column halves of a tile `cols` (1..32) wide. */
static inline __mmask16 low_mask(int cols) { return cols >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << cols) - 1); }
static inline __mmask16 high_mask(int cols) { return cols <= 16 ? 0 : low_mask(cols - 16); }

/* ---- prefetching ------------------------------------------------------------------------------ */

/* Walks the cache lines of the next group's A rows (hr_gemm_prefetch), one line per call. */
typedef struct line_cursor {
  const char *row;
  int64_t offset, bytes, stride; /* within the row; the row's length; bytes between rows */
  int rows;                      /* rows left */
} line_cursor;

static inline line_cursor cursor_start(const hr_gemm_prefetch *p) {
  return (line_cursor){(const char *)p->a, 0, p->bytes, p->lda * (int64_t)sizeof(float), p->rows};
}

static inline int64_t cursor_lines(const hr_gemm_prefetch *p) { return p->rows * ((p->bytes + 63) / 64); }

/* Prefetches the cursor's next line into L2 (the B panels streaming through L1 would evict it). */
HR_INLINE_F32 void cursor_prefetch(line_cursor *c) {
  __builtin_prefetch(c->row + c->offset, 0, 2);
  c->offset += 64;
  if (c->offset >= c->bytes) {
    c->offset = 0;
    c->row += c->stride;
    c->rows--;
  }
}

/* The prefetches of one k step of a tile: a line of the next group's A while this tile's share
 * lasts, and in the last 2 * rows steps, every other step, one row of the tile's C for writing (the
 * stores at the end then find it in L1). */
HR_INLINE_F32 void step_prefetch(int64_t s, int64_t steps, const int rows, float *c, int64_t ldc, line_cursor *next,
                                 int64_t next_lines) {
  if (s < next_lines && next->rows > 0) cursor_prefetch(next);
  int64_t left = steps - s;
  if (left <= 2 * rows && (left & 1) == 0) {
    float *row = c + (left / 2 - 1) * ldc;
    __builtin_prefetch(row, 1, 3);
    __builtin_prefetch(row + 16, 1, 3);
  }
}

/* ---- accumulator tiles ------------------------------------------------------------------------ */

/* A tile's accumulators: two vectors (columns 0..15 and 16..31) per row. */
typedef struct tile_acc {
  __m512 lo[HR_GEMM_MR], hi[HR_GEMM_MR];
} tile_acc;

/* Starts a tile from zero, or from the current C when accumulating over K blocks. */
HR_INLINE_F32 void tile_init(tile_acc *t, const int rows, const float *c, int64_t ldc, __mmask16 m0, __mmask16 m1,
                             bool accumulate) {
  HR_UNROLL_ROWS
  for (int i = 0; i < rows; i++) {
    t->lo[i] = accumulate ? _mm512_maskz_loadu_ps(m0, c + i * ldc) : _mm512_setzero_ps();
    t->hi[i] = accumulate ? _mm512_maskz_loadu_ps(m1, c + i * ldc + 16) : _mm512_setzero_ps();
  }
}

/* Adds the addends to a tile (columns col0 .. col0 + 31 of them), one after the other. */
HR_INLINE_F32 void tile_add(tile_acc *t, const int rows, const hr_gemm_tile_addends *add, int64_t col0, __mmask16 m0,
                            __mmask16 m1) {
  for (int k = 0; k < add->n; k++) {
    const float *p = add->a[k].p + col0;
    int64_t ld = add->a[k].ld;
    if (ld == 0) { /* one row for every row */
      __m512 lo = _mm512_maskz_loadu_ps(m0, p), hi = _mm512_maskz_loadu_ps(m1, p + 16);
      HR_UNROLL_ROWS
      for (int i = 0; i < rows; i++) {
        t->lo[i] = _mm512_add_ps(t->lo[i], lo);
        t->hi[i] = _mm512_add_ps(t->hi[i], hi);
      }
    } else {
      HR_UNROLL_ROWS
      for (int i = 0; i < rows; i++) {
        t->lo[i] = _mm512_add_ps(t->lo[i], _mm512_maskz_loadu_ps(m0, p + i * ld));
        t->hi[i] = _mm512_add_ps(t->hi[i], _mm512_maskz_loadu_ps(m1, p + i * ld + 16));
      }
    }
  }
}

/* Stores the valid columns of a tile to C. */
HR_INLINE_F32 void tile_store(const tile_acc *t, const int rows, float *c, int64_t ldc, __mmask16 m0, __mmask16 m1) {
  HR_UNROLL_ROWS
  for (int i = 0; i < rows; i++) {
    _mm512_mask_storeu_ps(c + i * ldc, m0, t->lo[i]);
    _mm512_mask_storeu_ps(c + i * ldc + 16, m1, t->hi[i]);
  }
}

/* ---- f32 ---------------------------------------------------------------------------------------- */

/* One tile: for every k, two B vectors times `rows` broadcast A elements, two FMAs per row. */
HR_INLINE_F32 void tile_f32(const int rows, int64_t steps, const float *a, const float *b, float *c, int64_t ldc,
                            int cols, bool accumulate, const hr_gemm_tile_addends *add, int64_t col0,
                            line_cursor *next, int64_t next_lines) {
  __mmask16 m0 = low_mask(cols), m1 = high_mask(cols);
  tile_acc t;
  tile_init(&t, rows, c, ldc, m0, m1, accumulate);
  for (int64_t s = 0; s < steps; s++) {
    step_prefetch(s, steps, rows, c, ldc, next, next_lines);
    __m512 b0 = _mm512_load_ps(b + s * HR_GEMM_NR), b1 = _mm512_load_ps(b + s * HR_GEMM_NR + 16);
    HR_UNROLL_ROWS
    for (int i = 0; i < rows; i++) {
      __m512 av = _mm512_set1_ps(a[i * HR_GEMM_A_STRIDE + s]);
      t.lo[i] = _mm512_fmadd_ps(av, b0, t.lo[i]);
      t.hi[i] = _mm512_fmadd_ps(av, b1, t.hi[i]);
    }
  }
  if (add) tile_add(&t, rows, add, col0, m0, m1);
  tile_store(&t, rows, c, ldc, m0, m1);
}

/* The tiles of one row group across consecutive panels, for a compile-time row count. */
HR_INLINE_F32 void panels_f32_rows(const int rows, int64_t steps, const void *a, const void *b,
                                   int64_t panels, int last_cols, float *c, int64_t ldc, bool accumulate,
                                   const hr_gemm_tile_addends *add, const hr_gemm_prefetch *next) {
  const float *af = a, *bf = b;
  line_cursor cursor = cursor_start(next);
  int64_t share = (cursor_lines(next) + panels - 1) / panels;
  for (int64_t p = 0; p < panels; p++) {
    int cols = p + 1 < panels ? HR_GEMM_NR : last_cols;
    tile_f32(rows, steps, af, bf + p * steps * HR_GEMM_NR, c + p * HR_GEMM_NR, ldc, cols, accumulate, add,
             p * HR_GEMM_NR, &cursor, share);
  }
}

/* One function per row count, each with its own fully unrolled microkernel, reached through a
 * table (a switch calling one inline function with different constants may be merged back into a
 * single generic copy by the compiler). */
#define HR_PANELS_PARAMS                                                                                           \
  int64_t steps, const void *a, const void *b, int64_t panels, int last_cols, float *c, int64_t ldc,              \
      bool accumulate, const hr_gemm_tile_addends *add, const hr_gemm_prefetch *next
#define HR_PANELS_ARGS steps, a, b, panels, last_cols, c, ldc, accumulate, add, next
typedef void (*panels_fn)(HR_PANELS_PARAMS);

#define HR_DEFINE_PANELS(target, name, rows) \
  target static void name##_##rows(HR_PANELS_PARAMS) { name##_rows(rows, HR_PANELS_ARGS); }
#define HR_DEFINE_PANELS_TABLE(target, name)                                                                      \
  HR_DEFINE_PANELS(target, name, 1)                                                                                \
  HR_DEFINE_PANELS(target, name, 2)                                                                                \
  HR_DEFINE_PANELS(target, name, 3)                                                                                \
  HR_DEFINE_PANELS(target, name, 4)                                                                                \
  HR_DEFINE_PANELS(target, name, 5)                                                                                \
  HR_DEFINE_PANELS(target, name, 6)                                                                                \
  HR_DEFINE_PANELS(target, name, 7)                                                                                \
  HR_DEFINE_PANELS(target, name, 8)                                                                                \
  HR_DEFINE_PANELS(target, name, 9)                                                                                \
  HR_DEFINE_PANELS(target, name, 10)                                                                               \
  HR_DEFINE_PANELS(target, name, 11)                                                                               \
  HR_DEFINE_PANELS(target, name, 12)                                                                               \
  HR_DEFINE_PANELS(target, name, 13)                                                                               \
  HR_DEFINE_PANELS(target, name, 14)                                                                               \
  static const panels_fn name##_table[HR_GEMM_MR] = {                                                            \
      name##_1, name##_2, name##_3,  name##_4,  name##_5,  name##_6,  name##_7,                                   \
      name##_8, name##_9, name##_10, name##_11, name##_12, name##_13, name##_14,                                  \
  };                                                                                                               \
  static void name(int rows, HR_PANELS_PARAMS) { name##_table[rows - 1](HR_PANELS_ARGS); }

_Static_assert(HR_GEMM_MR == 14, "the panel tables list one function per row count");

HR_DEFINE_PANELS_TABLE(HR_TARGET_F32, panels_f32)

/* Copies the rows of A into the A panel, 16 floats at a time (the tail masked). */
HR_TARGET_F32 static void pack_a_f32(const float *a, int64_t lda, int rows, int64_t kc, void *dst) {
  for (int r = 0; r < rows; r++) {
    const float *src = a + r * lda;
    float *row = (float *)dst + r * HR_GEMM_A_STRIDE;
    for (int64_t s = 0; s < kc; s += 16) {
      __mmask16 m = kc - s >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (kc - s)) - 1);
      _mm512_store_ps(row + s, _mm512_maskz_loadu_ps(m, src + s));
    }
  }
}

/* ---- bf16 --------------------------------------------------------------------------------------- */

/* One tile: for every pair of k, two B vectors of bf16 pairs times `rows` broadcast A pairs. */
HR_INLINE_BF16 void tile_bf16(const int rows, int64_t steps, const uint32_t *a, const uint32_t *b, float *c,
                              int64_t ldc, int cols, bool accumulate, const hr_gemm_tile_addends *add, int64_t col0,
                              line_cursor *next, int64_t next_lines) {
  __mmask16 m0 = low_mask(cols), m1 = high_mask(cols);
  tile_acc t;
  tile_init(&t, rows, c, ldc, m0, m1, accumulate);
  for (int64_t s = 0; s < steps; s++) {
    step_prefetch(s, steps, rows, c, ldc, next, next_lines);
    __m512bh b0 = (__m512bh)_mm512_load_si512(b + s * HR_GEMM_NR);
    __m512bh b1 = (__m512bh)_mm512_load_si512(b + s * HR_GEMM_NR + 16);
    HR_UNROLL_ROWS
    for (int i = 0; i < rows; i++) {
      __m512bh av = (__m512bh)_mm512_set1_epi32((int)a[i * HR_GEMM_A_STRIDE + s]);
      t.lo[i] = _mm512_dpbf16_ps(t.lo[i], av, b0);
      t.hi[i] = _mm512_dpbf16_ps(t.hi[i], av, b1);
    }
  }
  if (add) tile_add(&t, rows, add, col0, m0, m1);
  tile_store(&t, rows, c, ldc, m0, m1);
}

HR_INLINE_BF16 void panels_bf16_rows(const int rows, int64_t steps, const void *a, const void *b,
                                     int64_t panels, int last_cols, float *c, int64_t ldc, bool accumulate,
                                     const hr_gemm_tile_addends *add, const hr_gemm_prefetch *next) {
  const uint32_t *aw = a, *bw = b;
  line_cursor cursor = cursor_start(next);
  int64_t share = (cursor_lines(next) + panels - 1) / panels;
  for (int64_t p = 0; p < panels; p++) {
    int cols = p + 1 < panels ? HR_GEMM_NR : last_cols;
    tile_bf16(rows, steps, aw, bw + p * steps * HR_GEMM_NR, c + p * HR_GEMM_NR, ldc, cols, accumulate, add,
              p * HR_GEMM_NR, &cursor, share);
  }
}

HR_DEFINE_PANELS_TABLE(HR_TARGET_BF16, panels_bf16)

/* Rounds the rows of A to bf16 (to nearest even) into the A panel, 32 floats (16 pairs, one
 * HR_GEMM_BF16_STEP_ALIGN) at a time; an odd last k is paired with zero, the steps after it are zero. */
_Static_assert(HR_GEMM_BF16_STEP_ALIGN == 16, "pack_a_bf16 fills the A panel 16 steps at a time");
HR_TARGET_BF16 void hr_gemm_avx512_pack_a_bf16(const float *a, int64_t lda, int rows, int64_t kc, void *dst) {
  for (int r = 0; r < rows; r++) {
    const float *src = a + r * lda;
    uint32_t *row = (uint32_t *)dst + r * HR_GEMM_A_STRIDE;
    for (int64_t s = 0; s < kc; s += 32) {
      __m512 lo = _mm512_maskz_loadu_ps(low_mask((int)(kc - s > 32 ? 32 : kc - s)), src + s);
      __m512 hi = _mm512_maskz_loadu_ps(high_mask((int)(kc - s > 32 ? 32 : kc - s)), src + s + 16);
      _mm512_store_si512(row + s / 2, (__m512i)_mm512_cvtne2ps_pbh(hi, lo));
    }
  }
}

/* ---- transposed B ------------------------------------------------------------------------------- */

HR_TARGET_F32 void hr_gemm_avx512_pack_bt_panel(const float *b, int64_t ldb, int cols, int64_t kc, float *out) {
  for (int half = 0; half < HR_GEMM_NR; half += 16) {
    for (int64_t k0 = 0; k0 < kc; k0 += 16) {
      int64_t kn = kc - k0 < 16 ? kc - k0 : 16;
      __mmask16 km = (__mmask16)((1u << kn) - 1);
      __m512 r[16];
      for (int j = 0; j < 16; j++)
        r[j] = half + j < cols ? _mm512_maskz_loadu_ps(km, b + (half + j) * ldb + k0) : _mm512_setzero_ps();
      hr_transpose16(r);
      for (int64_t s = 0; s < kn; s++) _mm512_store_ps(out + (k0 + s) * HR_GEMM_NR + half, r[s]);
    }
  }
}

/* ---- tables ----------------------------------------------------------------------------------- */

const hr_gemm_kernels *hr_gemm_avx512_kernels(hr_gemm_precision precision) {
  static const hr_gemm_kernels f32 = {HR_GEMM_MR, pack_a_f32, panels_f32, NULL};
  static const hr_gemm_kernels bf16 = {HR_GEMM_MR, hr_gemm_avx512_pack_a_bf16, panels_bf16, NULL};
  return precision == HR_GEMM_BF16 ? &bf16 : &f32;
}

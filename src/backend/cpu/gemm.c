/* The GEMM (gemm.h): packing B, planning the work, and the blocked driver that runs the kernels of
 * gemm_internal.h over the pool. */
#include <stdatomic.h>
#include <string.h>

#include "backend/cpu/cpu_features.h"
#include "backend/cpu/gemm_internal.h"
#include "base/numeric.h"

/* ---- CPU features -------------------------------------------------------------------------------- */

/* (AMX-BF16 CPUs all have AVX512_BF16, which the AMX kernels' A packing uses too.) */
bool hr_gemm_supported(hr_gemm_precision precision) {
  return precision == HR_GEMM_BF16 ? hr_cpu_has_avx512bf16() : hr_cpu_has_avx512f();
}

/* The kernels `isa` names for `precision`, or NULL when this CPU lacks them. BEST: AMX for bf16
 * where the CPU has it, else AVX-512, else (f32) the portable ones. */
static const hr_gemm_kernels *select_kernels(hr_gemm_precision precision, hr_gemm_isa isa) {
  bool bf16 = precision == HR_GEMM_BF16;
  switch (isa) {
  case HR_GEMM_ISA_BEST:
    if (bf16 && hr_cpu_amx_enable()) return hr_gemm_amx_kernels();
    if (select_kernels(precision, HR_GEMM_ISA_AVX512)) return hr_gemm_avx512_kernels(precision);
    return bf16 ? NULL : hr_gemm_portable_kernels();
  case HR_GEMM_ISA_PORTABLE: return bf16 ? NULL : hr_gemm_portable_kernels();
  case HR_GEMM_ISA_AVX512:
    if (bf16 ? hr_cpu_has_avx512bf16() : hr_cpu_has_avx512f()) return hr_gemm_avx512_kernels(precision);
    return NULL;
  case HR_GEMM_ISA_AMX: return bf16 && hr_cpu_amx_enable() ? hr_gemm_amx_kernels() : NULL;
  }
  return NULL;
}

bool hr_gemm_isa_supported(hr_gemm_precision precision, hr_gemm_isa isa) {
  return select_kernels(precision, isa) != NULL;
}

/* ---- packing B ---------------------------------------------------------------------------------- */

/* The K block: the largest that keeps a block's steps within HR_GEMM_KSTEPS_MAX, evened out so the
 * blocks have (nearly) the same size; even for bf16 so that pairs never straddle blocks. */
static int64_t choose_k_block(int64_t k, hr_gemm_precision precision) {
  int64_t per_step = precision == HR_GEMM_BF16 ? 2 : 1;
  int64_t max = HR_GEMM_KSTEPS_MAX * per_step;
  if (k <= max) return k + (k & (per_step - 1));
  int64_t blocks = (k + max - 1) / max;
  int64_t kb = (k + blocks - 1) / blocks;
  return kb + (kb & (per_step - 1));
}

/* Byte offset of K block `kb` in the packed data (every block before it is full). */
static size_t block_offset(const hr_gemm_packed_b *p, int64_t kb) {
  return (size_t)(kb * hr_gemm_steps(p->precision, p->k_block) * p->n_panels) * HR_GEMM_NR * sizeof(uint32_t);
}

/* The k of K block `kb` (the last may be short). */
static int64_t block_k(const hr_gemm_packed_b *p, int64_t kb) {
  int64_t k0 = kb * p->k_block;
  return p->k - k0 < p->k_block ? p->k - k0 : p->k_block;
}

/* Element (kk, col) of the logical [K x N] matrix B. */
static inline float b_at(const float *b, int64_t ldb, bool transpose_b, int64_t kk, int64_t col) {
  return transpose_b ? b[col * ldb + kk] : b[kk * ldb + col];
}

/* Fills one f32 panel: `cols` valid columns from `col0`, k in [k0, k0 + kc); the rest zero. */
static void fill_panel_f32(const float *b, int64_t ldb, bool transpose_b, int64_t k0, int64_t kc, int64_t col0,
                           int cols, float *dst) {
  if (transpose_b && hr_cpu_has_avx512f()) {
    hr_gemm_avx512_pack_bt_panel(b + col0 * ldb + k0, ldb, cols, kc, dst);
    return;
  }
  for (int64_t s = 0; s < kc; s++) {
    float *row = dst + s * HR_GEMM_NR;
    if (transpose_b) {
      for (int j = 0; j < cols; j++) row[j] = b[(col0 + j) * ldb + k0 + s];
    } else {
      memcpy(row, b + (k0 + s) * ldb + col0, (size_t)cols * sizeof(float));
    }
    memset(row + cols, 0, (size_t)(HR_GEMM_NR - cols) * sizeof(float));
  }
}

/* Fills one bf16 panel: words of (k, k + 1) pairs rounded to bf16; past K (up to the block's
 * last step) and past the valid columns zero. */
static void fill_panel_bf16(const float *b, int64_t ldb, bool transpose_b, int64_t k0, int64_t kc, int64_t col0,
                            int cols, uint32_t *dst) {
  for (int64_t s = 0; s < hr_gemm_steps(HR_GEMM_BF16, kc); s++) {
    for (int j = 0; j < HR_GEMM_NR; j++) {
      uint32_t lo = 0, hi = 0;
      if (j < cols && 2 * s < kc) {
        lo = hr_f32_to_bf16(b_at(b, ldb, transpose_b, k0 + 2 * s, col0 + j));
        if (2 * s + 1 < kc) hi = hr_f32_to_bf16(b_at(b, ldb, transpose_b, k0 + 2 * s + 1, col0 + j));
      }
      dst[s * HR_GEMM_NR + j] = lo | hi << 16;
    }
  }
}

/* Checks that a [k x n] B can be packed: not negative, its packed words countable in size_t. */
static hr_status check_size(int64_t k, int64_t n) {
  if (k < 0 || n < 0)
    return hr_error(HR_INVALID_ARGUMENT, "gemm: negative B shape %lld x %lld", (long long)k, (long long)n);
  /* The packed words are fewer than (k + 1 + 2 * HR_GEMM_BF16_STEP_ALIGN) steps of n + NR columns
   * (bf16 blocks are padded by less than HR_GEMM_BF16_STEP_ALIGN steps, and K <= 2 * KSTEPS_MAX *
   * blocks). */
  int64_t words;
  if (k > INT64_MAX - 1 - 2 * HR_GEMM_BF16_STEP_ALIGN || n > INT64_MAX - HR_GEMM_NR ||
      __builtin_mul_overflow(k + 1 + 2 * HR_GEMM_BF16_STEP_ALIGN, n + HR_GEMM_NR, &words) ||
      (uint64_t)words > SIZE_MAX / sizeof(uint32_t))
    return hr_error(HR_INVALID_ARGUMENT, "gemm: B of %lld x %lld is too large", (long long)k, (long long)n);
  return NULL;
}

/* Checks the arguments of a pack. */
static hr_status check_pack(const float *b, int64_t ldb, int64_t k, int64_t n, bool transpose_b,
                            hr_gemm_precision precision) {
  if (precision != HR_GEMM_F32 && precision != HR_GEMM_BF16)
    return hr_error(HR_INVALID_ARGUMENT, "gemm: unknown precision %d", (int)precision);
  HR_TRY(check_size(k, n));
  int64_t row_len = transpose_b ? k : n, rows = transpose_b ? n : k;
  if (rows > 0 && row_len > 0 && (!b || ldb < row_len))
    return hr_error(HR_INVALID_ARGUMENT, "gemm: B is NULL or its leading dimension %lld is below %lld",
                    (long long)ldb, (long long)row_len);
  return NULL;
}

/* Bytes of the packed panels: full K blocks, then the last (possibly shorter) one. */
static size_t packed_bytes(const hr_gemm_packed_b *p) {
  if (p->k_blocks == 0) return 0;
  int64_t steps = (p->k_blocks - 1) * hr_gemm_steps(p->precision, p->k_block) +
                  hr_gemm_steps(p->precision, block_k(p, p->k_blocks - 1));
  return (size_t)(steps * p->n_panels) * HR_GEMM_NR * sizeof(uint32_t);
}

/* Fills panels [j0, j1) of every K block. */
static void fill_panel_range(hr_gemm_packed_b *p, const float *b, int64_t ldb, bool transpose_b, int64_t j0,
                             int64_t j1) {
  for (int64_t kb = 0; kb < p->k_blocks; kb++) {
    int64_t k0 = kb * p->k_block, kc = block_k(p, kb), steps = hr_gemm_steps(p->precision, kc);
    char *block = (char *)p->data + block_offset(p, kb);
    for (int64_t j = j0; j < j1; j++) {
      int64_t col0 = j * HR_GEMM_NR;
      int cols = p->n - col0 < HR_GEMM_NR ? (int)(p->n - col0) : HR_GEMM_NR;
      void *panel = block + (size_t)(j * steps) * HR_GEMM_NR * sizeof(uint32_t);
      if (p->precision == HR_GEMM_BF16)
        fill_panel_bf16(b, ldb, transpose_b, k0, kc, col0, cols, panel);
      else
        fill_panel_f32(b, ldb, transpose_b, k0, kc, col0, cols, panel);
    }
  }
}

/* Fills every panel of every K block. */
static void fill_panels(hr_gemm_packed_b *p, const float *b, int64_t ldb, bool transpose_b) {
  fill_panel_range(p, b, ldb, transpose_b, 0, p->n_panels);
}

/* A pack spread over a pool: each participant fills a range of panels. */
typedef struct fill_job {
  hr_gemm_packed_b *p;
  const float *b;
  int64_t ldb;
  bool transpose_b;
} fill_job;

static void fill_job_run(void *ctx, int64_t begin, int64_t end, int worker) {
  (void)worker;
  const fill_job *j = ctx;
  fill_panel_range(j->p, j->b, j->ldb, j->transpose_b, begin, end);
}

/* The f32 header of a [k x n] B (no data yet). */
static hr_gemm_packed_b f32_header(int64_t k, int64_t n) {
  hr_gemm_packed_b p = {.precision = HR_GEMM_F32, .kernels = select_kernels(HR_GEMM_F32, HR_GEMM_ISA_BEST),
                        .k = k, .n = n};
  p.n_panels = (n + HR_GEMM_NR - 1) / HR_GEMM_NR;
  p.k_block = choose_k_block(k, HR_GEMM_F32);
  p.k_blocks = p.k_block ? (k + p.k_block - 1) / p.k_block : 0;
  return p;
}

hr_status hr_gemm_pack_b_isa(const hr_allocator *a, const float *b, int64_t ldb, int64_t k, int64_t n,
                             bool transpose_b, hr_gemm_precision precision, hr_gemm_isa isa,
                             hr_gemm_packed_b **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  HR_TRY(check_pack(b, ldb, k, n, transpose_b, precision));
  const hr_gemm_kernels *kernels = select_kernels(precision, isa);
  if (!kernels)
    return hr_error(HR_UNIMPLEMENTED, "gemm: this CPU lacks the %s kernels for %s",
                    isa == HR_GEMM_ISA_AMX ? "AMX-BF16" : isa == HR_GEMM_ISA_AVX512 ? "AVX-512" : "requested",
                    precision == HR_GEMM_BF16 ? "bf16 (AVX512_BF16 or AMX-BF16 needed)" : "f32");
  hr_gemm_packed_b *p = a->alloc(a->ctx, sizeof *p, _Alignof(hr_gemm_packed_b));
  if (!p) return hr_error(HR_OUT_OF_MEMORY, "gemm: out of memory packing B");
  *p = (hr_gemm_packed_b){.allocator = a, .precision = precision, .kernels = kernels, .k = k, .n = n};
  p->n_panels = (n + HR_GEMM_NR - 1) / HR_GEMM_NR;
  p->k_block = choose_k_block(k, precision);
  p->k_blocks = p->k_block ? (k + p->k_block - 1) / p->k_block : 0;
  size_t bytes = packed_bytes(p);
  if (bytes > 0) {
    p->data = a->alloc(a->ctx, bytes, 64);
    if (!p->data) {
      hr_gemm_packed_b_free(p);
      return hr_error(HR_OUT_OF_MEMORY, "gemm: out of memory packing B (%zu bytes)", bytes);
    }
    fill_panels(p, b, ldb, transpose_b);
  }
  *out = p;
  return NULL;
}

hr_status hr_gemm_pack_b(const hr_allocator *a, const float *b, int64_t ldb, int64_t k, int64_t n, bool transpose_b,
                         hr_gemm_precision precision, hr_gemm_packed_b **out) {
  return hr_gemm_pack_b_isa(a, b, ldb, k, n, transpose_b, precision, HR_GEMM_ISA_BEST, out);
}

void hr_gemm_packed_b_free(hr_gemm_packed_b *p) {
  if (!p) return;
  if (p->data) p->allocator->free(p->allocator->ctx, p->data);
  p->allocator->free(p->allocator->ctx, p);
}

int64_t hr_gemm_packed_k(const hr_gemm_packed_b *p) { return p->k; }
int64_t hr_gemm_packed_n(const hr_gemm_packed_b *p) { return p->n; }

/* ---- the blocked driver ------------------------------------------------------------------------- */

enum { MAX_HOMES = 64 }; /* participants with a home range of their own (more share them) */

/* A participant's home: the items of the row items [row0, row0 + rows), all column blocks, in a
 * local order column block by column block; [front, back) of that order is not claimed yet, packed
 * as back << 32 | front so that the owner, taking from the front, and thieves, taking from the
 * back, each claim with one compare-and-swap and never take the same item. On a cache line of its
 * own. */
typedef struct home_range {
  _Alignas(64) atomic_uint_fast64_t span;
  int64_t row0, rows;
} home_range;

/* One call's work, cut into items: blocks of `row_groups` MR-row groups (a row item) by
 * `col_panels` panels (a column block). The row items are dealt out to `homes` participants. */
typedef struct gemm_job {
  const float *a;
  int64_t lda, m;
  const hr_gemm_packed_b *b;
  float *c;
  int64_t ldc;
  hr_gemm_addends addends; /* n == 0: none */
  hr_gemm_epilogue_fn epilogue;
  void *epilogue_ctx;
  const hr_gemm_kernels *kernels;
  int64_t mr;          /* rows of a tile (kernels->mr) */
  int64_t row_groups;  /* MR-row groups per item */
  int64_t col_panels;  /* B panels per item */
  int64_t row_items;   /* items per column block */
  int64_t col_blocks;  /* column blocks; row_items * col_blocks < 2^31 */
  int homes;           /* home ranges: 1 .. MAX_HOMES */
  home_range home[MAX_HOMES];
} gemm_job;

/* Sizes the items. Best, a column block of B over the whole K fits in L2: it then stays there
 * while a participant runs its items of that column block one row group after the other, so items
 * of one row group balance best. But every column block reads all of A again, which costs more
 * than it saves once A no longer stays in the last-level cache (HR_GEMM_A_REREAD_BYTES). Then,
 * and where K is too long for even one panel, a column block is sized by one K block and each item
 * re-reads its B blocks, so items get up to 8 row groups to reuse them. Items shrink (rows first,
 * then columns) until each participant gets about four. */
static void plan_items(gemm_job *j, int threads) {
  const hr_gemm_packed_b *b = j->b;
  int64_t step_bytes = HR_GEMM_NR * (int64_t)sizeof(uint32_t);
  int64_t block_steps = b->k_blocks ? hr_gemm_steps(b->precision, b->k_block) : 1;
  int64_t all_steps = 1;
  if (b->k_blocks)
    all_steps = (b->k_blocks - 1) * block_steps + hr_gemm_steps(b->precision, block_k(b, b->k_blocks - 1));
  int64_t max_panels = HR_GEMM_L2_BUDGET / (all_steps * step_bytes), per_item = 1, a_bytes;
  bool a_cached = !__builtin_mul_overflow(j->m, b->k * (int64_t)sizeof(float), &a_bytes) &&
                  a_bytes <= HR_GEMM_A_REREAD_BYTES;
  if (max_panels < 1 || (max_panels < b->n_panels && !a_cached)) {
    max_panels = HR_GEMM_L2_BUDGET / (block_steps * step_bytes);
    if (max_panels < 1) max_panels = 1;
    per_item = 8;
  }
  int64_t col_items = (b->n_panels + max_panels - 1) / max_panels;
  int64_t groups = (j->m + j->mr - 1) / j->mr;
  int64_t want = threads > 1 ? 4 * (int64_t)threads : 1;
  while (per_item > 1 && ((groups + per_item - 1) / per_item) * col_items < want) per_item--;
  /* Fewer than 2^31 items (a bound the home ranges rely on; only absurd M reach it). */
  int64_t room = (INT64_C(1) << 30) / b->n_panels;
  int64_t min_per_item = groups / (room > 0 ? room : 1) + 1;
  if (per_item < min_per_item) per_item = min_per_item;
  int64_t row_items = (groups + per_item - 1) / per_item;
  if (row_items * col_items < want) {
    col_items = (want + row_items - 1) / row_items;
    if (col_items > b->n_panels) col_items = b->n_panels;
  }
  j->row_groups = per_item;
  j->row_items = row_items;
  j->col_panels = (b->n_panels + col_items - 1) / col_items;
  j->col_blocks = (b->n_panels + j->col_panels - 1) / j->col_panels;
}

/* Deals the row items out to the participants (up to MAX_HOMES), in contiguous ranges. */
static void plan_homes(gemm_job *j, int threads) {
  int64_t homes = threads < MAX_HOMES ? threads : MAX_HOMES;
  if (homes > j->row_items) homes = j->row_items;
  j->homes = (int)homes;
  for (int64_t h = 0; h < homes; h++) {
    home_range *r = &j->home[h];
    r->row0 = h * j->row_items / homes;
    r->rows = (h + 1) * j->row_items / homes - r->row0;
    atomic_init(&r->span, (uint64_t)(r->rows * j->col_blocks) << 32);
  }
}

/* The A rows that follow group `r` (a row offset within the item) of K block `kb`: the item's next
 * group, else its first group in the next K block, else the first group of row item `next_item`
 * (which this participant usually runs next). */
static hr_gemm_prefetch next_group(const gemm_job *j, int64_t next_item, int64_t row0, int64_t rows, int64_t kb,
                                   int64_t r) {
  const hr_gemm_packed_b *b = j->b;
  int64_t next_row = row0 + r + j->mr, k0 = kb * b->k_block;
  if (r + j->mr >= rows) {
    if (kb + 1 < b->k_blocks) {
      next_row = row0;
      k0 += b->k_block;
    } else {
      next_row = next_item * j->row_groups * j->mr;
      k0 = 0;
    }
  }
  int64_t kc = b->k - k0 < b->k_block ? b->k - k0 : b->k_block;
  int64_t count = j->m - next_row < j->mr ? j->m - next_row : j->mr;
  if (count <= 0) return (hr_gemm_prefetch){j->a, j->lda, 0, 0};
  return (hr_gemm_prefetch){j->a + next_row * j->lda + k0, j->lda, kc * (int64_t)sizeof(float), (int)count};
}

/* The addends of the row group starting at `row` and the panels starting at column `col`. */
static hr_gemm_tile_addends tile_addends(const gemm_job *j, int64_t row, int64_t col) {
  hr_gemm_tile_addends t = {.n = j->addends.n};
  for (int i = 0; i < t.n; i++) {
    const hr_gemm_addend *a = &j->addends.a[i];
    t.a[i] = (hr_gemm_addend){a->p + row * a->ld + col, a->ld};
  }
  return t;
}

/* C = the addends alone (K == 0: the product is zero). */
static void store_addends_only(const gemm_job *j, float *c, int64_t row0, int64_t rows, int64_t col0, int64_t cols) {
  for (int64_t r = 0; r < rows; r++) {
    float *crow = c + r * j->ldc;
    memset(crow, 0, (size_t)cols * sizeof(float));
    for (int i = 0; i < j->addends.n; i++) {
      const hr_gemm_addend *a = &j->addends.a[i];
      for (int64_t q = 0; q < cols; q++) crow[q] += a->p[(row0 + r) * a->ld + col0 + q];
    }
  }
}

/* Computes the item of row item `row_item` and column block `col_block`: for each K block and each
 * MR-row group, packs the A panel and runs the microkernels across the item's panels (adding the
 * addends in the last K block); then the epilogue on the finished block. `next_item`: the row item
 * this participant runs next (its A rows are prefetched). */
static void gemm_item(const gemm_job *j, int64_t row_item, int64_t col_block, int64_t next_item, int worker) {
  const hr_gemm_packed_b *b = j->b;
  int64_t row0 = row_item * j->row_groups * j->mr;
  int64_t rows = j->m - row0 < j->row_groups * j->mr ? j->m - row0 : j->row_groups * j->mr;
  int64_t panel0 = col_block * j->col_panels;
  int64_t panels = b->n_panels - panel0 < j->col_panels ? b->n_panels - panel0 : j->col_panels;
  int64_t col0 = panel0 * HR_GEMM_NR;
  int64_t cols = b->n - col0 < panels * HR_GEMM_NR ? b->n - col0 : panels * HR_GEMM_NR;
  int last_cols = (int)(cols - (panels - 1) * HR_GEMM_NR);
  float *c = j->c + row0 * j->ldc + col0;
  _Alignas(64) union {
    float f[HR_GEMM_MR_MAX * HR_GEMM_A_STRIDE];
    uint32_t w[HR_GEMM_MR_MAX * HR_GEMM_A_STRIDE];
  } apanel;
  for (int64_t kb = 0; kb < b->k_blocks; kb++) {
    int64_t k0 = kb * b->k_block, kc = block_k(b, kb), steps = hr_gemm_steps(b->precision, kc);
    const char *bblock = (const char *)b->data + block_offset(b, kb) +
                         (size_t)(panel0 * steps) * HR_GEMM_NR * sizeof(uint32_t);
    for (int64_t r = 0; r < rows; r += j->mr) {
      int rr = rows - r < j->mr ? (int)(rows - r) : (int)j->mr;
      j->kernels->pack_a(j->a + (row0 + r) * j->lda + k0, j->lda, rr, kc, &apanel);
      hr_gemm_prefetch next = next_group(j, next_item, row0, rows, kb, r);
      bool add_now = kb + 1 == b->k_blocks && j->addends.n > 0;
      hr_gemm_tile_addends add = add_now ? tile_addends(j, row0 + r, col0) : (hr_gemm_tile_addends){0};
      j->kernels->panels(rr, steps, &apanel, bblock, panels, last_cols, c + r * j->ldc, j->ldc, kb > 0,
                         add_now ? &add : NULL, &next);
    }
  }
  if (b->k_blocks == 0) store_addends_only(j, c, row0, rows, col0, cols);
  if (j->epilogue) j->epilogue(j->epilogue_ctx, c, j->ldc, row0, rows, col0, cols, worker);
}

/* Claims the next run of home `h`'s items for its owner: a share of what is left that shrinks as
 * the home drains (guided scheduling), so runs start long (consecutive items share B blocks and
 * prefetch each other's A) and end with single items. Returns the local positions [begin, end). */
static bool claim_own(gemm_job *j, int h, int64_t *begin, int64_t *end) {
  home_range *r = &j->home[h];
  uint64_t span = atomic_load(&r->span);
  for (;;) {
    int64_t front = (int64_t)(span & 0xffffffffu), back = (int64_t)(span >> 32);
    if (front >= back) return false;
    int64_t count = (back - front) / 4;
    if (count < 1) count = 1;
    if (atomic_compare_exchange_weak(&r->span, &span, span + (uint64_t)count)) {
      *begin = front;
      *end = front + count;
      return true;
    }
  }
}

/* Steals the last unclaimed item of home `h`; returns its local position. */
static bool steal_one(gemm_job *j, int h, int64_t *pos) {
  home_range *r = &j->home[h];
  uint64_t span = atomic_load(&r->span);
  for (;;) {
    int64_t front = (int64_t)(span & 0xffffffffu), back = (int64_t)(span >> 32);
    if (front >= back) return false;
    if (atomic_compare_exchange_weak(&r->span, &span, span - (UINT64_C(1) << 32))) {
      *pos = back - 1;
      return true;
    }
  }
}

/* Runs the item at local position `pos` of home `h`. */
static void run_home_item(const gemm_job *j, int h, int64_t pos, int worker) {
  const home_range *r = &j->home[h];
  int64_t next = pos + 1 < r->rows * j->col_blocks ? pos + 1 : 0;
  gemm_item(j, r->row0 + pos % r->rows, pos / r->rows, r->row0 + next % r->rows, worker);
}

/* One participant of the pool: runs the items of its home (the same rows for the same worker in
 * every GEMM, so that where one GEMM's output is the next one's A, its rows tend to be in that
 * worker's cache), then steals the other homes' last items one at a time until none are left (a
 * participant that starts late finds its home taken instead of holding work back). */
static void gemm_participant(void *ctx, int64_t begin, int64_t end, int worker) {
  (void)begin;
  (void)end;
  gemm_job *j = ctx;
  int h = worker % j->homes;
  int64_t first, last;
  bool worked = false;
  while (claim_own(j, h, &first, &last)) {
    for (int64_t pos = first; pos < last; pos++) run_home_item(j, h, pos, worker);
    worked = true;
  }
  for (int v = 1; v < j->homes; v++) {
    int64_t pos;
    while (steal_one(j, (h + v) % j->homes, &pos)) {
      run_home_item(j, (h + v) % j->homes, pos, worker);
      worked = true;
    }
  }
  if (worked && j->kernels->done) j->kernels->done();
}

void hr_gemm(hr_threadpool *pool, const float *a, int64_t lda, int64_t m, const hr_gemm_packed_b *b, float *c,
             int64_t ldc, const hr_gemm_addends *addends, hr_gemm_epilogue_fn epilogue, void *epilogue_ctx) {
  if (m <= 0 || b->n == 0) return;
  gemm_job j = {.a = a, .lda = lda, .m = m, .b = b, .c = c, .ldc = ldc, .epilogue = epilogue,
                .epilogue_ctx = epilogue_ctx, .kernels = b->kernels, .mr = b->kernels->mr};
  if (addends) j.addends = *addends;
  int threads = hr_threadpool_size(pool);
  plan_items(&j, threads);
  plan_homes(&j, threads);
  hr_parallel_for(pool, threads, 1, gemm_participant, &j);
}

size_t hr_gemm_unpacked_bytes(int64_t k, int64_t n) {
  hr_status s = check_size(k, n);
  if (s) { /* hr_gemm_unpacked_into reports it */
    hr_status_free(s);
    return 0;
  }
  hr_gemm_packed_b p = f32_header(k, n);
  return packed_bytes(&p);
}

hr_status hr_gemm_unpacked_into(hr_threadpool *pool, void *buf, const float *A, int64_t lda, int64_t m, int64_t k,
                                const float *b, int64_t ldb, int64_t n, bool transpose_b, float *c, int64_t ldc,
                                const hr_gemm_addends *addends, hr_gemm_epilogue_fn epilogue, void *epilogue_ctx) {
  if (m < 0) return hr_error(HR_INVALID_ARGUMENT, "gemm: negative M %lld", (long long)m);
  if (m > 0 && k > 0 && (!A || lda < k))
    return hr_error(HR_INVALID_ARGUMENT, "gemm: A is NULL or its leading dimension %lld is below K = %lld",
                    (long long)lda, (long long)k);
  if (m > 0 && n > 0 && (!c || ldc < n))
    return hr_error(HR_INVALID_ARGUMENT, "gemm: C is NULL or its leading dimension %lld is below N = %lld",
                    (long long)ldc, (long long)n);
  HR_TRY(check_pack(b, ldb, k, n, transpose_b, HR_GEMM_F32));
  hr_gemm_packed_b p = f32_header(k, n);
  if (!p.kernels) return hr_error(HR_UNIMPLEMENTED, "gemm: this CPU lacks the AVX-512 kernels for f32");
  if (packed_bytes(&p) > 0 && !buf) return hr_error(HR_INVALID_ARGUMENT, "gemm: no buffer to pack B into");
  p.data = buf;
  fill_job job = {&p, b, ldb, transpose_b};
  if (p.k_blocks > 0) hr_parallel_for(pool, p.n_panels, 1, fill_job_run, &job);
  hr_gemm(pool, A, lda, m, &p, c, ldc, addends, epilogue, epilogue_ctx);
  return NULL;
}

hr_status hr_gemm_unpacked(hr_threadpool *pool, const hr_allocator *a, const float *A, int64_t lda, int64_t m,
                           int64_t k, const float *b, int64_t ldb, int64_t n, bool transpose_b, float *c, int64_t ldc,
                           const hr_gemm_addends *addends, hr_gemm_epilogue_fn epilogue, void *epilogue_ctx) {
  if (!a) a = hr_default_allocator();
  size_t bytes = hr_gemm_unpacked_bytes(k, n);
  void *buf = bytes ? a->alloc(a->ctx, bytes, 64) : NULL;
  if (bytes && !buf) return hr_error(HR_OUT_OF_MEMORY, "gemm: out of memory packing B (%zu bytes)", bytes);
  hr_status s = hr_gemm_unpacked_into(pool, buf, A, lda, m, k, b, ldb, n, transpose_b, c, ldc, addends, epilogue,
                                      epilogue_ctx);
  if (buf) a->free(a->ctx, buf);
  return s;
}

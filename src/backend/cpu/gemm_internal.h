/* Internals of the GEMM (gemm.h): the packed-B layout, the blocking constants and the kernel table
 * that the blocked driver (gemm.c) calls, implemented for AVX-512 (gemm_avx512.c) and portably
 * (gemm_portable.c).
 *
 * Blocking. C is computed in tiles of MR rows by NR columns by a microkernel: the AVX-512 one keeps
 * a 14 x 32 tile in 28 zmm accumulators; the AMX one (bf16 on CPUs with AMX-BF16) computes 32 x 32
 * tiles in tile registers. MR belongs to the kernels (hr_gemm_kernels.mr). K is cut into blocks of
 * at most kc elements. For one block of K, a group of MR rows of A is copied into a small buffer on
 * the stack (the "A panel", which stays in L1) and multiplied with consecutive NR-column panels of
 * B, which stream from L2. One work item of the parallel loop is a block of rows by a block of columns of C; its
 * columns are chosen so that the K block of B it reads fits in L2, and when it is done the epilogue
 * runs on it while it is still in cache.
 *
 * Packed B. K blocks one after the other; within a K block, the column panels one after the other;
 * within a panel, k "steps" one after the other, each NR 32-bit words wide:
 *   f32:  step = one k, word = one float;
 *   bf16: step = a pair of k (2k, 2k + 1), word = the two bf16 values, 2k in the low half (the
 *         operand layout of vdpbf16ps, and of AMX's tdpbf16ps: 16 steps of 16 columns, 64 bytes a
 *         step, are one B tile). A K block has a multiple of HR_GEMM_BF16_STEP_ALIGN steps.
 * Columns past N and steps past K are zero. The A panel uses the same step unit: row r, step s at
 * word r * HR_GEMM_A_STRIDE + s, and is zero from K to the block's last step. */
#ifndef HLORUN_BACKEND_CPU_GEMM_INTERNAL_H
#define HLORUN_BACKEND_CPU_GEMM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/cpu/gemm.h"

enum {
  HR_GEMM_MR = 14,                          /* rows of an AVX-512 microkernel tile */
  HR_GEMM_MR_MAX = 32,                      /* rows of any kernel's tile (AMX: 32) */
  HR_GEMM_NR = 32,                          /* columns of a microkernel tile and of a B panel */
  HR_GEMM_KSTEPS_MAX = 256,                 /* steps per K block: the A panel and a B panel fit in L1 */
  HR_GEMM_A_STRIDE = HR_GEMM_KSTEPS_MAX + 16, /* words between A-panel rows (not a multiple of 4 KiB
                                                 so the rows do not share L1 sets) */
  HR_GEMM_L2_BUDGET = 512 * 1024,           /* bytes of a B block (K block x column block) kept in L2 */
  HR_GEMM_A_REREAD_BYTES = 8 << 20,         /* the largest A read once per column block (it stays in L3) */
  HR_GEMM_BF16_STEP_ALIGN = 16,             /* bf16 steps per K block: a multiple of this (one AMX tile) */
};

typedef struct hr_gemm_kernels hr_gemm_kernels;

/* Which kernels a packed B is for. */
typedef enum hr_gemm_isa {
  HR_GEMM_ISA_BEST,     /* the fastest this CPU has for the precision */
  HR_GEMM_ISA_PORTABLE, /* plain C (f32 only) */
  HR_GEMM_ISA_AVX512,   /* AVX512F (f32), AVX512_BF16 (bf16) */
  HR_GEMM_ISA_AMX,      /* AMX-BF16 (bf16 only) */
} hr_gemm_isa;

struct hr_gemm_packed_b {
  const hr_allocator *allocator;
  hr_gemm_precision precision;
  const hr_gemm_kernels *kernels; /* chosen when packing */
  int64_t k, n;
  int64_t n_panels;     /* ceil(n / NR) */
  int64_t k_block;      /* k per K block (the last may be shorter); even for bf16 */
  int64_t k_blocks;     /* ceil(k / k_block); 0 when k == 0 */
  void *data;           /* the panels (see above), 64-byte aligned; NULL when empty */
};

/* Steps a K block of `kc` elements takes (bf16: pairs, rounded up to HR_GEMM_BF16_STEP_ALIGN). */
static inline int64_t hr_gemm_steps(hr_gemm_precision precision, int64_t kc) {
  if (precision != HR_GEMM_BF16) return kc;
  int64_t pairs = (kc + 1) / 2;
  return (pairs + HR_GEMM_BF16_STEP_ALIGN - 1) / HR_GEMM_BF16_STEP_ALIGN * HR_GEMM_BF16_STEP_ALIGN;
}

/* What the kernels prefetch while they compute: the A rows the next row group will pack (`rows`
 * rows of `bytes` bytes from `a`, `lda` elements apart), so that packing does not wait for memory.
 * The kernels also prefetch each C tile before they store it. */
typedef struct hr_gemm_prefetch {
  const float *a;
  int64_t lda, bytes;
  int rows;
} hr_gemm_prefetch;

/* The addends (hr_gemm_addends) of one row group of a final K block, each pointing at the group's
 * first row and the first panel's first column. */
typedef struct hr_gemm_tile_addends {
  int n;
  hr_gemm_addend a[HR_GEMM_MAX_ADDENDS];
} hr_gemm_tile_addends;

/* The kernels for one precision on one CPU. */
struct hr_gemm_kernels {
  int mr; /* rows of a tile: 1 .. HR_GEMM_MR_MAX */
  /* Copies rows x kc of A (row stride lda) into the A panel `dst` (rows HR_GEMM_A_STRIDE words
   * apart), converting to bf16 pairs for the bf16 kernels (zero up to the block's last step).
   * rows <= mr, kc <= the K block. */
  void (*pack_a)(const float *a, int64_t lda, int rows, int64_t kc, void *dst);
  /* C tiles for `panels` consecutive B panels (each steps x NR words, 64-byte aligned): C[rows x
   * cols] = A panel . B, plus the old C when `accumulate`, then plus the addends (NULL: none).
   * Every panel but the last is NR columns wide; the last has `last_cols` (1..NR) columns. rows
   * is 1..MR. */
  void (*panels)(int rows, int64_t steps, const void *a, const void *b, int64_t panels, int last_cols, float *c,
                 int64_t ldc, bool accumulate, const hr_gemm_tile_addends *add, const hr_gemm_prefetch *next);
  /* Called by each participant after its last `panels` call of a GEMM; NULL: nothing to do. */
  void (*done)(void);
};

/* hr_gemm_pack_b with the kernels chosen by `isa`; HR_UNIMPLEMENTED when this CPU (or OS) lacks
 * them. Tests and benchmarks use it to run every kernel the machine has. */
hr_status hr_gemm_pack_b_isa(const hr_allocator *a, const float *b, int64_t ldb, int64_t k, int64_t n,
                             bool transpose_b, hr_gemm_precision precision, hr_gemm_isa isa,
                             hr_gemm_packed_b **out);

/* The AVX-512 kernels (AVX512F; AVX512_BF16 for bf16). Call only when the CPU has them. */
const hr_gemm_kernels *hr_gemm_avx512_kernels(hr_gemm_precision precision);
/* The bf16 A-panel packing of the AVX-512 kernels (shared with the AMX ones); AVX512_BF16. */
void hr_gemm_avx512_pack_a_bf16(const float *a, int64_t lda, int rows, int64_t kc, void *dst);
/* Packs NR columns of a transposed B ([N x K] rows, stride ldb), the block's `cols` (1..NR) rows
 * starting at `b`, k in [0, kc), into a f32 panel; AVX512F. */
void hr_gemm_avx512_pack_bt_panel(const float *b, int64_t ldb, int cols, int64_t kc, float *dst);

/* Whether this CPU (and OS) can run the kernels `isa` names for `precision`. */
bool hr_gemm_isa_supported(hr_gemm_precision precision, hr_gemm_isa isa);

/* The AMX kernels (bf16). Call only when hr_cpu_amx_enable() (cpu_features.h) said yes. */
const hr_gemm_kernels *hr_gemm_amx_kernels(void);

/* Portable f32 kernels (any x86-64 or other CPU). */
const hr_gemm_kernels *hr_gemm_portable_kernels(void);

#endif

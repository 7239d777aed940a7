/* Single-precision GEMM for x86-64 AVX-512 (with an avx512_bf16 variant), the workhorse of the
 * fast CPU backend (docs/fast-cpu.md):
 *
 *   C[M x N] = epilogue(A[M x K] . B[K x N])
 *
 * B is usually a weight matrix: it is packed once (hr_gemm_pack_b) when an executable is created
 * and reused by every run. A and C are row-major with leading dimensions lda and ldc (in
 * elements). The epilogue runs on each finished block of C while it is still in cache. */
#ifndef HLORUN_BACKEND_CPU_GEMM_H
#define HLORUN_BACKEND_CPU_GEMM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/threadpool.h"
#include "hlorun/hlorun.h"

typedef enum hr_gemm_precision {
  HR_GEMM_F32,  /* f32 multiply-accumulate */
  HR_GEMM_BF16, /* A and B rounded to bf16, products accumulated in f32 (avx512_bf16) */
} hr_gemm_precision;

/* B packed for the microkernel: panels in the order the kernel reads them. */
typedef struct hr_gemm_packed_b hr_gemm_packed_b;

/* Packs B ([K x N] row-major with leading dimension ldb, or [N x K] when transpose_b).
 * Fails with HR_UNIMPLEMENTED when the CPU lacks what `precision` needs. */
hr_status hr_gemm_pack_b(const hr_allocator *a, const float *b, int64_t ldb, int64_t k, int64_t n, bool transpose_b,
                         hr_gemm_precision precision, hr_gemm_packed_b **out);
void hr_gemm_packed_b_free(hr_gemm_packed_b *p);
int64_t hr_gemm_packed_k(const hr_gemm_packed_b *p);
int64_t hr_gemm_packed_n(const hr_gemm_packed_b *p);

/* Matrices added to the product as its tiles are stored, in order, before the epilogue: what a
 * bias add and a residual add cost almost nothing there, while the tile is in registers. The sum
 * is rounded after each addend, ((A.B + x0) + x1), as separate f32 adds would round it. */
enum { HR_GEMM_MAX_ADDENDS = 2 };
typedef struct hr_gemm_addend {
  const float *p;
  int64_t ld;  /* row stride of a full [M x N] addend; 0: a [N] row added to every row */
} hr_gemm_addend;
typedef struct hr_gemm_addends {
  int n; /* 0 .. HR_GEMM_MAX_ADDENDS */
  hr_gemm_addend a[HR_GEMM_MAX_ADDENDS];
} hr_gemm_addends;

/* Called for every finished block of C: rows [row0, row0 + rows) and columns [col0, col0 + cols),
 * whose top-left element is at `c` (row stride ldc). May be called from any pool worker, for
 * disjoint blocks, concurrently. */
typedef void (*hr_gemm_epilogue_fn)(void *ctx, float *c, int64_t ldc, int64_t row0, int64_t rows, int64_t col0,
                                    int64_t cols, int worker);

/* C = A . B (+ the addends, then the epilogue, if any) using every participant of `pool` (NULL:
 * this thread). `addends` may be NULL. */
void hr_gemm(hr_threadpool *pool, const float *a, int64_t lda, int64_t m, const hr_gemm_packed_b *b, float *c,
             int64_t ldc, const hr_gemm_addends *addends, hr_gemm_epilogue_fn epilogue, void *epilogue_ctx);

/* C = A . B for a B that is not packed ahead (activations times activations); packs B internally
 * per call (allocating; hr_gemm_unpacked_into packs into the caller's memory). f32 only. */
hr_status hr_gemm_unpacked(hr_threadpool *pool, const hr_allocator *a, const float *A, int64_t lda, int64_t m,
                           int64_t k, const float *b, int64_t ldb, int64_t n, bool transpose_b, float *c, int64_t ldc,
                           const hr_gemm_addends *addends, hr_gemm_epilogue_fn epilogue, void *epilogue_ctx);

/* Bytes hr_gemm_unpacked_into needs to pack a [k x n] B (0 when there is nothing to pack, or when
 * the shape is too large: hr_gemm_unpacked_into then reports it). */
size_t hr_gemm_unpacked_bytes(int64_t k, int64_t n);
/* hr_gemm_unpacked with B packed into `buf` (hr_gemm_unpacked_bytes(k, n) bytes, 64-byte aligned:
 * a kernel's per-run scratch) by every participant of `pool`, so that no call allocates. */
hr_status hr_gemm_unpacked_into(hr_threadpool *pool, void *buf, const float *A, int64_t lda, int64_t m, int64_t k,
                                const float *b, int64_t ldb, int64_t n, bool transpose_b, float *c, int64_t ldc,
                                const hr_gemm_addends *addends, hr_gemm_epilogue_fn epilogue, void *epilogue_ctx);

/* Whether this CPU can run the kernels (AVX-512F; and AVX512_BF16 for HR_GEMM_BF16). */
bool hr_gemm_supported(hr_gemm_precision precision);

#endif

/* The contraction engine shared by dot_general, dot and convolution: accumulator kinds, packing
 * of strided operands into contiguous accumulator-typed matrices, and a cache-blocked batched
 * matrix multiplication that runs rows in parallel on the interpreter's thread pool.
 *
 * Each output element accumulates its products in increasing contraction index order, so results
 * do not depend on tiling or on the number of threads. */
#include <string.h>

#include "interp/reduce.h"

/* ---------------------------------------------------------------------------------------------- */
/* Accumulator kinds                                                                               */
/* ---------------------------------------------------------------------------------------------- */

hr_red_acc hr_red_acc_for(hr_dtype result) {
  /* the narrow floats' products and sums are exact in double far more often than in float; the
     sum is rounded to the result type once */
  if (hr_dtype_is_narrow_float(result)) return HR_RED_ACC_F64;
  switch (result) {
    case HR_F16: case HR_BF16: case HR_F32: return HR_RED_ACC_F32;
    case HR_F64: return HR_RED_ACC_F64;
    case HR_C64: return HR_RED_ACC_C64;
    case HR_C128: return HR_RED_ACC_C128;
    default: return HR_RED_ACC_INT;
  }
}

size_t hr_red_acc_size(hr_red_acc k) {
  switch (k) {
    case HR_RED_ACC_F32: return 4;
    case HR_RED_ACC_C128: return 16;
    default: return 8;
  }
}

hr_dtype hr_red_acc_dtype(hr_red_acc k) {
  switch (k) {
    case HR_RED_ACC_F32: return HR_F32;
    case HR_RED_ACC_F64: return HR_F64;
    case HR_RED_ACC_C64: return HR_C64;
    case HR_RED_ACC_C128: return HR_C128;
    default: return HR_I64;
  }
}

bool hr_red_acc_is_native(hr_red_acc k, hr_dtype dtype) {
  if (k == HR_RED_ACC_INT) return dtype == HR_I64 || dtype == HR_U64;
  return dtype == hr_red_acc_dtype(k);
}

hr_status hr_red_scratch(hr_interp *in, const hr_op *op, hr_red_acc k, int64_t count, hr_tensor **out) {
  hr_shape s = {.rank = 1, .dims = {count}};
  return hr_interp_alloc(in, op, hr_red_acc_dtype(k), &s, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* Packing                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Writes one element of type `t` at `p` as accumulator element j of dst. */
static void acc_from_element(hr_red_acc k, hr_dtype t, const void *p, void *dst, int64_t j) {
  switch (k) {
    case HR_RED_ACC_F32: ((float *)dst)[j] = (float)hr_load_float(t, p, 0); break;
    case HR_RED_ACC_F64: ((double *)dst)[j] = hr_load_float(t, p, 0); break;
    case HR_RED_ACC_INT: ((uint64_t *)dst)[j] = (uint64_t)hr_load_int(t, p, 0); break;
    case HR_RED_ACC_C64: hr_store_complex(HR_C64, dst, j, hr_load_complex(t, p, 0)); break;
    case HR_RED_ACC_C128: hr_store_complex(HR_C128, dst, j, hr_load_complex(t, p, 0)); break;
  }
}

/* Copies count elements src[start + i * stride] of the accumulator's own type into dst. Returns
 * false when `t` does not have the accumulator's layout. */
static bool load_run_native(hr_red_acc k, hr_dtype t, const void *src, int64_t start, int64_t stride,
                            int64_t count, void *dst) {
  if (!hr_red_acc_is_native(k, t)) return false;
  size_t es = hr_red_acc_size(k);
  const unsigned char *s = (const unsigned char *)src + (size_t)start * es;
  if (stride == 1) {
    memcpy(dst, s, (size_t)count * es);
    return true;
  }
  unsigned char *d = dst;
  for (int64_t i = 0; i < count; i++) memcpy(d + (size_t)i * es, s + (size_t)(i * stride) * es, es);
  return true;
}

/* Converts count elements src[start + i * stride] (type `from`) to `to`, then to accumulator
 * elements dst[0..count). */
static void load_run(hr_red_acc k, hr_dtype from, hr_dtype to, const void *src, int64_t start, int64_t stride,
                     int64_t count, void *dst) {
  if (from == to && load_run_native(k, from, src, start, stride, count, dst)) return;
  size_t es = hr_dtype_size(from);
  const unsigned char *s = src;
  if (from == to && k == HR_RED_ACC_F32 && (from == HR_F16 || from == HR_BF16)) {
    float *d = dst;
    for (int64_t i = 0; i < count; i++) {
      uint16_t h;
      memcpy(&h, s + (size_t)(start + i * stride) * es, 2);
      d[i] = from == HR_F16 ? hr_f16_to_f32(h) : hr_bf16_to_f32(h);
    }
    return;
  }
  unsigned char tmp[16];
  for (int64_t i = 0; i < count; i++) {
    hr_red_convert_scalar(from, s + (size_t)(start + i * stride) * es, to, tmp);
    acc_from_element(k, to, tmp, dst, i);
  }
}

void hr_red_pack(const hr_red_view *v, hr_dtype from, const void *src, hr_dtype to, hr_red_acc k, void *dst) {
  int64_t total;
  if (!hr_red_view_count(v, &total) || total == 0) return;
  if (v->rank == 0) {
    load_run(k, from, to, src, 0, 1, 1, dst);
    return;
  }
  /* Walk the outer dimensions; convert the innermost dimension as one strided run. */
  hr_red_view outer = *v;
  outer.rank = v->rank - 1;
  int64_t run = v->dims[v->rank - 1], stride = v->strides[v->rank - 1], outer_count = total / run;
  size_t es = hr_red_acc_size(k);
  unsigned char *d = dst;
  hr_red_walk w;
  hr_red_walk_init(&w, &outer);
  for (int64_t i = 0; i < outer_count; i++, hr_red_walk_next(&w))
    load_run(k, from, to, src, w.offset, stride, run, d + (size_t)(i * run) * es);
}

void hr_red_acc_store(hr_red_acc k, const void *acc, int64_t j, hr_dtype to, void *dst, int64_t i) {
  switch (k) {
    case HR_RED_ACC_F32: {
      float v = ((const float *)acc)[j];
      if (to == HR_F16) ((uint16_t *)dst)[i] = hr_f32_to_f16(v);
      else if (to == HR_BF16) ((uint16_t *)dst)[i] = hr_f32_to_bf16(v);
      else hr_store_float(to, dst, i, v);
      break;
    }
    case HR_RED_ACC_F64: hr_store_float(to, dst, i, ((const double *)acc)[j]); break;
    case HR_RED_ACC_INT: {
      uint64_t v = ((const uint64_t *)acc)[j];
      hr_store_int(to, dst, i, to == HR_I1 ? (int64_t)(v != 0) : (int64_t)v);
      break;
    }
    case HR_RED_ACC_C64: hr_store_complex(to, dst, i, hr_load_complex(HR_C64, acc, j)); break;
    case HR_RED_ACC_C128: hr_store_complex(to, dst, i, hr_load_complex(HR_C128, acc, j)); break;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Matrix multiplication                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Tile sizes: a K_TILE x N_TILE block of b (128 KiB of f32) is reused by every row of a parallel
 * chunk before moving on. */
enum { K_TILE = 128, N_TILE = 256 };

/* Adds the products for contraction indices [k0, k1) to columns [n0, n1) of output row r. */
typedef void (*row_fn)(const hr_red_matmul *mm, int64_t r, int64_t k0, int64_t k1, int64_t n0, int64_t n1);

/* Defines the row kernel of a real accumulator type T: c[r, :] += a[r, kk] * b[kk, :]. */
#define HR_RED_REAL_ROW(name, T)                                                                   \
  static void name(const hr_red_matmul *mm, int64_t r, int64_t k0, int64_t k1, int64_t n0, int64_t n1) { \
    const T *arow = (const T *)mm->a + r * mm->k;                                                  \
    const T *bmat = (const T *)mm->b + (r / mm->m) * mm->k * mm->n;                                \
    T *restrict crow = (T *)mm->c + r * mm->n;                                                     \
    for (int64_t kk = k0; kk < k1; kk++) {                                                         \
      const T av = arow[kk];                                                                       \
      const T *restrict brow = bmat + kk * mm->n;                                                  \
      for (int64_t j = n0; j < n1; j++) crow[j] += av * brow[j];                                   \
    }                                                                                              \
  }

HR_RED_REAL_ROW(row_f32, float)
HR_RED_REAL_ROW(row_f64, double)
HR_RED_REAL_ROW(row_int, uint64_t)

/* Defines the row kernel of a complex accumulator with parts of type T (interleaved re, im). */
#define HR_RED_COMPLEX_ROW(name, T)                                                                \
  static void name(const hr_red_matmul *mm, int64_t r, int64_t k0, int64_t k1, int64_t n0, int64_t n1) { \
    const T *arow = (const T *)mm->a + 2 * r * mm->k;                                              \
    const T *bmat = (const T *)mm->b + 2 * (r / mm->m) * mm->k * mm->n;                            \
    T *restrict crow = (T *)mm->c + 2 * r * mm->n;                                                 \
    for (int64_t kk = k0; kk < k1; kk++) {                                                         \
      const T ar = arow[2 * kk], ai = arow[2 * kk + 1];                                            \
      const T *restrict brow = bmat + 2 * kk * mm->n;                                              \
      for (int64_t j = n0; j < n1; j++) {                                                          \
        const T br = brow[2 * j], bi = brow[2 * j + 1];                                            \
        crow[2 * j] += ar * br - ai * bi;                                                          \
        crow[2 * j + 1] += ar * bi + ai * br;                                                      \
      }                                                                                            \
    }                                                                                              \
  }

HR_RED_COMPLEX_ROW(row_c64, float)
HR_RED_COMPLEX_ROW(row_c128, double)

static row_fn row_kernel(hr_red_acc k) {
  switch (k) {
    case HR_RED_ACC_F32: return row_f32;
    case HR_RED_ACC_F64: return row_f64;
    case HR_RED_ACC_INT: return row_int;
    case HR_RED_ACC_C64: return row_c64;
    default: return row_c128;
  }
}

/* Computes output rows [r0, r1) (of one batch) tile by tile with the row kernels. */
static void rows_generic(const hr_red_matmul *mm, int64_t r0, int64_t r1) {
  row_fn fn = row_kernel(mm->kind);
  for (int64_t n0 = 0; n0 < mm->n; n0 += N_TILE) {
    int64_t n1 = mm->n - n0 < N_TILE ? mm->n : n0 + N_TILE;
    for (int64_t k0 = 0; k0 < mm->k; k0 += K_TILE) {
      int64_t k1 = mm->k - k0 < K_TILE ? mm->k : k0 + K_TILE;
      for (int64_t r = r0; r < r1; r++) fn(mm, r, k0, k1, n0, n1);
    }
  }
}

/* The f32 micro-kernel keeps a 4 x 8 block of c in registers across a k tile. It uses GCC/Clang
 * vector types (4 floats, the SSE2 width every x86-64 has) because plain loops over a small
 * accumulator array are not kept in registers at -O2. Products and sums are the same IEEE
 * operations in the same order as the row kernel's. */
enum { MR = 4, NR = 8 };
typedef float v4f __attribute__((vector_size(16)));

static inline v4f v4f_load(const float *p) {
  v4f v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void v4f_store(float *p, v4f v) { memcpy(p, &v, sizeof v); }

static inline v4f v4f_splat(float x) { return (v4f){x, x, x, x}; }

/* c[0..4)[0..8) (row stride ldc) += a[0..4)[0..kt) (row stride lda) * panel[0..kt)[0..8). */
static void micro_f32(const float *a, int64_t lda, const float *panel, float *c, int64_t ldc, int64_t kt) {
  v4f c00 = v4f_load(c), c01 = v4f_load(c + 4), c10 = v4f_load(c + ldc), c11 = v4f_load(c + ldc + 4);
  v4f c20 = v4f_load(c + 2 * ldc), c21 = v4f_load(c + 2 * ldc + 4);
  v4f c30 = v4f_load(c + 3 * ldc), c31 = v4f_load(c + 3 * ldc + 4);
  for (int64_t kk = 0; kk < kt; kk++) {
    v4f b0 = v4f_load(panel + kk * NR), b1 = v4f_load(panel + kk * NR + 4);
    v4f a0 = v4f_splat(a[kk]), a1 = v4f_splat(a[lda + kk]);
    v4f a2 = v4f_splat(a[2 * lda + kk]), a3 = v4f_splat(a[3 * lda + kk]);
    c00 += a0 * b0;
    c01 += a0 * b1;
    c10 += a1 * b0;
    c11 += a1 * b1;
    c20 += a2 * b0;
    c21 += a2 * b1;
    c30 += a3 * b0;
    c31 += a3 * b1;
  }
  v4f_store(c, c00);
  v4f_store(c + 4, c01);
  v4f_store(c + ldc, c10);
  v4f_store(c + ldc + 4, c11);
  v4f_store(c + 2 * ldc, c20);
  v4f_store(c + 2 * ldc + 4, c21);
  v4f_store(c + 3 * ldc, c30);
  v4f_store(c + 3 * ldc + 4, c31);
}

/* Copies columns [n0, nfull) x rows [k0, k1) of b into 8-column panels, each k-major. */
static void pack_panels(const float *bmat, int64_t ldb, int64_t k0, int64_t k1, int64_t n0, int64_t nfull,
                        float *pack) {
  int64_t kt = k1 - k0;
  for (int64_t j = n0; j < nfull; j += NR)
    for (int64_t kk = k0; kk < k1; kk++) memcpy(pack + (j - n0) * kt + (kk - k0) * NR, bmat + kk * ldb + j, NR * sizeof(float));
}

/* Computes f32 output rows [r0, r1) (of one batch) with packed panels and the micro-kernel; rows
 * and columns that do not fill a 4 x 8 block use the row kernel. */
static void rows_f32_packed(const hr_red_matmul *mm, int64_t r0, int64_t r1, float *pack) {
  const float *a = mm->a, *bmat = (const float *)mm->b + (r0 / mm->m) * mm->k * mm->n;
  float *c = mm->c;
  int64_t rfull = r0 + (r1 - r0) / MR * MR;
  for (int64_t n0 = 0; n0 < mm->n; n0 += N_TILE) {
    int64_t n1 = mm->n - n0 < N_TILE ? mm->n : n0 + N_TILE, nfull = n0 + (n1 - n0) / NR * NR;
    for (int64_t k0 = 0; k0 < mm->k; k0 += K_TILE) {
      int64_t k1 = mm->k - k0 < K_TILE ? mm->k : k0 + K_TILE, kt = k1 - k0;
      pack_panels(bmat, mm->n, k0, k1, n0, nfull, pack);
      for (int64_t r = r0; r < rfull; r += MR)
        for (int64_t j = n0; j < nfull; j += NR)
          micro_f32(a + r * mm->k + k0, mm->k, pack + (j - n0) * kt, c + r * mm->n + j, mm->n, kt);
      for (int64_t r = rfull; r < r1; r++) row_f32(mm, r, k0, k1, n0, nfull);
      for (int64_t r = r0; r < r1; r++) row_f32(mm, r, k0, k1, nfull, n1);
    }
  }
}

/* Shared state of a parallel matrix multiplication. */
typedef struct matmul_job {
  const hr_red_matmul *mm;
  float *pack; /* K_TILE * N_TILE floats per worker (f32 only) */
} matmul_job;

/* Parallel-for body: computes output rows [begin, end), one batch segment at a time. */
static void matmul_rows(void *ctx, int64_t begin, int64_t end, int worker) {
  const matmul_job *job = ctx;
  const hr_red_matmul *mm = job->mm;
  for (int64_t r0 = begin; r0 < end;) {
    int64_t batch_end = (r0 / mm->m + 1) * mm->m, r1 = batch_end < end ? batch_end : end;
    if (job->pack && r1 - r0 >= MR)
      rows_f32_packed(mm, r0, r1, job->pack + (size_t)worker * K_TILE * N_TILE);
    else
      rows_generic(mm, r0, r1);
    r0 = r1;
  }
}

hr_status hr_red_matmul_run(hr_interp *in, const hr_op *op, const hr_red_matmul *mm) {
  int64_t rows = mm->batch * mm->m;
  if (rows == 0 || mm->n == 0 || mm->k == 0) return NULL;
  matmul_job job = {.mm = mm, .pack = NULL};
  hr_tensor *pack = NULL;
  if (mm->kind == HR_RED_ACC_F32 && mm->n >= NR && mm->m >= MR) {
    int workers = in->pool ? hr_threadpool_size(in->pool) : 1;
    HR_TRY(hr_red_scratch(in, op, HR_RED_ACC_F32, (int64_t)workers * K_TILE * N_TILE, &pack));
    job.pack = pack->data;
  }
  /* Aim for at least ~64k multiply-adds per chunk so small products stay on one thread. */
  int64_t per_row = mm->k * mm->n, min_chunk = per_row >= 65536 ? 1 : 65536 / per_row;
  hr_parallel_for(in->pool, rows, min_chunk, matmul_rows, &job);
  hr_tensor_free(pack);
  return NULL;
}

/* stablehlo.dot_general of f32 operands as a batch of small matrix products, read in place through
 * strides: the attention of a decode step over its KV cache (q [B, 1, H, D] . k [B, T, H, D] with
 * batching dims [0, 2] x [0, 2], then p [B, H, 1, T] . v [B, T, H, D] with [0, 1] x [0, 2]), which
 * the reference kernel first packs into contiguous matrices and then multiplies row by row.
 *
 * Each operand's dimensions are classified as the reference does (interp/kernels_reduce_dot.c):
 * batching dimensions (in the listed order), the lhs free dimensions (m), the contracting
 * dimensions (k, in the listed order), the rhs free dimensions (n); the result is [batch, m, n]
 * row-major. Unit dimensions are dropped and each of m, k and n must then merge into one strided
 * dimension (k on both sides at once), m at most MAX_M, and the rhs must be contiguous along n or
 * along k. Every result element is computed as the reference computes it: starting from +0, the
 * products a[m, k] * b[k, n] added one by one in increasing k, each product and sum rounded to f32
 * (no fused multiply-add: the build is ISO C, which does not contract), so results are the same
 * bit for bit. The vectors run across n:
 *   - rhs contiguous along n (p . v): 16 to 64 columns of c per pass over k, b's rows loaded as
 *     they lie;
 *   - rhs contiguous along k (q . k): 16 rows of b (16 columns of c) loaded 16 k at a time and
 *     transposed in registers (transpose.h), every lhs row accumulating from the same block.
 * Both prefetch the rows of b they read next (the next 16 rows, PREFETCH_ROWS rows ahead): a KV
 * cache read one head at a time is a stream of 256-byte pieces 1 KiB apart, which the hardware
 * prefetcher follows poorly. Batches (and, when there are few, blocks of n) are spread over the
 * pool. On the Zen 4 VM (2026-12-05, a busy host, minima of 200 runs over 16 caches of 4 MiB,
 * cold): q . k 1.8 ms (reference) -> 0.36 (this kernel without prefetching) -> 0.13-0.27 ms,
 * p . v 0.9 -> 0.21-0.45 -> 0.14-0.23 ms. */
#include <string.h>

#include "backend/cpu/fast_internal.h"

/* Most lhs rows (m) per batch: products with more rows are left to the GEMM and the reference. */
enum { MAX_M = 16 };
/* How far ahead rows of b are prefetched when b is read along n. */
enum { PREFETCH_ROWS = 8 };

/* One strided dimension of each operand. */
typedef struct dot_dim {
  int64_t size, lhs, rhs; /* extent, and the element stride in each operand (0 where absent) */
} dot_dim;

typedef struct dot_kernel {
  hr_fast_kernel base;
  int nb;                        /* batching dimensions (unit ones dropped) */
  dot_dim batch[HR_MAX_RANK];    /* in the listed order: the result's batch index is row-major over them */
  int64_t n_batch, m, n, k;
  int64_t am, ak;                /* lhs strides of m and k */
  int64_t bk, bn;                /* rhs strides of k and n */
  int64_t n_blocks;              /* work items per batch: blocks of n columns */
  int64_t block;                 /* columns per block (a multiple of 16) */
} dot_kernel;

/* The per-run view. */
typedef struct dot_job {
  const dot_kernel *k;
  const float *a, *b;
  float *c;
} dot_job;

/* Row-major element strides of a shape. */
static void row_strides(const hr_shape *s, int64_t *strides) {
  int64_t st = 1;
  for (int d = s->rank - 1; d >= 0; d--) {
    strides[d] = st;
    st *= s->dims[d];
  }
}

/* Appends dimension `d` (unit ones dropped) to the list `out` of *n, merging it into the last one
 * when both operands step over the pair as one dimension. */
static void push_dim(dot_dim *out, int *n, dot_dim d) {
  if (d.size == 1) return;
  dot_dim *last = *n > 0 ? &out[*n - 1] : NULL;
  if (last && last->lhs == d.lhs * d.size && last->rhs == d.rhs * d.size) {
    last->size *= d.size;
    last->lhs = d.lhs;
    last->rhs = d.rhs;
    return;
  }
  out[(*n)++] = d;
}

/* Reads one dimension list of dot_dimension_numbers (absent: empty); false when malformed. */
static bool dims_field(const hr_attr *dn, const char *field, int rank, int64_t *out, int *n) {
  *n = 0;
  const hr_attr *f = hr_attr_field(dn, field);
  if (!f) return true;
  hr_status s = hr_attr_to_i64_list(f, out, HR_MAX_RANK, n);
  if (s) {
    hr_status_free(s);
    return false;
  }
  for (int i = 0; i < *n; i++)
    if (out[i] < 0 || out[i] >= rank) return false;
  return true;
}

static bool along_n(const dot_kernel *k);

/* Classifies the operands' dimensions into k's batch, m, k and n; false when the product does not
 * take this form (see the file comment) or the attributes do not fit the shapes. */
static bool plan_dims(const hr_op *op, const hr_tensor *lhs, const hr_tensor *rhs, const hr_tensor *res,
                      dot_kernel *k) {
  const hr_attr *dn = hr_op_attr(op, "dot_dimension_numbers");
  int64_t lb[HR_MAX_RANK], rb[HR_MAX_RANK], lc[HR_MAX_RANK], rc[HR_MAX_RANK];
  int nlb, nrb, nlc, nrc;
  int lr = lhs->shape.rank, rr = rhs->shape.rank;
  if (!dn || (dn->kind != HR_ATTR_STRUCT && dn->kind != HR_ATTR_DICT) ||
      !dims_field(dn, "lhs_batching_dimensions", lr, lb, &nlb) ||
      !dims_field(dn, "rhs_batching_dimensions", rr, rb, &nrb) ||
      !dims_field(dn, "lhs_contracting_dimensions", lr, lc, &nlc) ||
      !dims_field(dn, "rhs_contracting_dimensions", rr, rc, &nrc) || nlb != nrb || nlc != nrc)
    return false;
  int64_t ls[HR_MAX_RANK], rs[HR_MAX_RANK];
  row_strides(&lhs->shape, ls);
  row_strides(&rhs->shape, rs);
  bool lused[HR_MAX_RANK] = {false}, rused[HR_MAX_RANK] = {false};
  hr_shape want = {.rank = 0};
  dot_dim kd[HR_MAX_RANK], md[HR_MAX_RANK], nd[HR_MAX_RANK];
  int nk = 0, nm = 0, nn = 0;
  for (int i = 0; i < nlb; i++) {
    if (lused[lb[i]] || rused[rb[i]] || lhs->shape.dims[lb[i]] != rhs->shape.dims[rb[i]]) return false;
    lused[lb[i]] = rused[rb[i]] = true;
    want.dims[want.rank++] = lhs->shape.dims[lb[i]];
    push_dim(k->batch, &k->nb, (dot_dim){lhs->shape.dims[lb[i]], ls[lb[i]], rs[rb[i]]});
  }
  for (int i = 0; i < nlc; i++) {
    if (lused[lc[i]] || rused[rc[i]] || lhs->shape.dims[lc[i]] != rhs->shape.dims[rc[i]]) return false;
    lused[lc[i]] = rused[rc[i]] = true;
    push_dim(kd, &nk, (dot_dim){lhs->shape.dims[lc[i]], ls[lc[i]], rs[rc[i]]});
  }
  for (int d = 0; d < lr; d++)
    if (!lused[d]) {
      if (want.rank >= HR_MAX_RANK) return false;
      want.dims[want.rank++] = lhs->shape.dims[d];
      push_dim(md, &nm, (dot_dim){lhs->shape.dims[d], ls[d], 0});
    }
  for (int d = 0; d < rr; d++)
    if (!rused[d]) {
      if (want.rank >= HR_MAX_RANK) return false;
      want.dims[want.rank++] = rhs->shape.dims[d];
      push_dim(nd, &nn, (dot_dim){rhs->shape.dims[d], 0, rs[d]});
    }
  hr_tensor_spec got = {res->dtype, res->shape}, expect = {HR_F32, want};
  if (!hr_spec_equal(&got, &expect) || nk > 1 || nm > 1 || nn > 1) return false;
  k->m = nm ? md[0].size : 1;
  k->am = nm ? md[0].lhs : 0;
  k->k = nk ? kd[0].size : 1;
  k->ak = nk ? kd[0].lhs : 0;
  k->bk = nk ? kd[0].rhs : 0;
  k->n = nn ? nd[0].size : 1;
  k->bn = nn ? nd[0].rhs : 0;
  k->n_batch = 1;
  for (int i = 0; i < k->nb; i++) k->n_batch *= k->batch[i].size;
  return k->m <= MAX_M && (along_n(k) || k->bk == 1 || k->k == 1);
}

/* Whether the rhs is read along n (else along k). */
static bool along_n(const dot_kernel *k) { return k->bn == 1 || k->n == 1; }

/* The operands' offsets of batch `i`. */
static void batch_offsets(const dot_kernel *k, int64_t i, int64_t *a, int64_t *b) {
  *a = *b = 0;
  for (int d = k->nb - 1; d >= 0; d--) {
    int64_t x = i % k->batch[d].size;
    i /= k->batch[d].size;
    *a += x * k->batch[d].lhs;
    *b += x * k->batch[d].rhs;
  }
}

/* c[m][n0, n1) of one batch with b read along n (stride 1): up to 64 columns per pass over k. */
HR_AVX512 static void block_along_n(const dot_kernel *k, const float *a, const float *b, float *c, int64_t n0,
                                    int64_t n1) {
  for (int64_t m = 0; m < k->m; m++) {
    const float *arow = a + m * k->am;
    for (int64_t j = n0; j < n1; j += 64) {
      __mmask16 mask[4];
      __m512 acc[4];
      for (int v = 0; v < 4; v++) {
        mask[v] = hr_lanes_below(n1 - j - 16 * v);
        acc[v] = _mm512_setzero_ps();
      }
      for (int64_t kk = 0; kk < k->k; kk++) {
        __m512 av = _mm512_set1_ps(arow[kk * k->ak]);
        const float *brow = b + kk * k->bk + j;
        if (kk + PREFETCH_ROWS < k->k)
          for (int v = 0; v < 4; v++)
            if (mask[v]) _mm_prefetch((const char *)(brow + PREFETCH_ROWS * k->bk + 16 * v), _MM_HINT_T0);
        for (int v = 0; v < 4; v++)
          if (mask[v]) acc[v] = _mm512_add_ps(acc[v], _mm512_mul_ps(av, _mm512_maskz_loadu_ps(mask[v], brow + 16 * v)));
      }
      for (int v = 0; v < 4; v++)
        if (mask[v]) _mm512_mask_storeu_ps(c + m * k->n + j + 16 * v, mask[v], acc[v]);
    }
  }
}

/* c[*][n0, n1) of one batch with b read along k (stride 1): 16 rows of b (columns of c) at a
 * time, 16 k at a time transposed so that the lanes run over n. */
HR_AVX512 static void block_along_k(const dot_kernel *k, const float *a, const float *b, float *c, int64_t n0,
                                    int64_t n1) {
  __m512 acc[MAX_M];
  for (int64_t j = n0; j < n1; j += 16) {
    int64_t rows = n1 - j < 16 ? n1 - j : 16;
    for (int64_t m = 0; m < k->m; m++) acc[m] = _mm512_setzero_ps();
    for (int64_t i = j + 16; i < j + 32 && i < n1; i++) /* the next block's rows */
      for (int64_t k0 = 0; k0 < k->k; k0 += 16) _mm_prefetch((const char *)(b + i * k->bn + k0), _MM_HINT_T0);
    for (int64_t k0 = 0; k0 < k->k; k0 += 16) {
      int64_t kt = k->k - k0 < 16 ? k->k - k0 : 16;
      __mmask16 kmask = hr_lanes_below(kt);
      __m512 r[16];
      for (int i = 0; i < 16; i++)
        r[i] = i < rows ? _mm512_maskz_loadu_ps(kmask, b + (j + i) * k->bn + k0) : _mm512_setzero_ps();
      hr_transpose16(r);
      for (int64_t m = 0; m < k->m; m++) {
        const float *arow = a + m * k->am + k0 * k->ak;
        __m512 s = acc[m];
        for (int64_t t = 0; t < kt; t++) s = _mm512_add_ps(s, _mm512_mul_ps(_mm512_set1_ps(arow[t * k->ak]), r[t]));
        acc[m] = s;
      }
    }
    for (int64_t m = 0; m < k->m; m++) _mm512_mask_storeu_ps(c + m * k->n + j, hr_lanes_below(rows), acc[m]);
  }
}

/* hr_parallel_fn over (batch, block of n) items. */
static void dot_items(void *ctx, int64_t begin, int64_t end, int worker) {
  const dot_job *j = ctx;
  const dot_kernel *k = j->k;
  for (int64_t it = begin; it < end; it++) {
    int64_t i = it / k->n_blocks, n0 = it % k->n_blocks * k->block, n1 = n0 + k->block < k->n ? n0 + k->block : k->n;
    int64_t ao, bo;
    batch_offsets(k, i, &ao, &bo);
    float *c = j->c + i * k->m * k->n;
    if (along_n(k))
      block_along_n(k, j->a + ao, j->b + bo, c, n0, n1);
    else
      block_along_k(k, j->a + ao, j->b + bo, c, n0, n1);
  }
}

static hr_status dot_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                         void *scratch) {
  const dot_kernel *k = (const dot_kernel *)base;
  dot_job j = {k, operands[0]->data, operands[1]->data, results[0]->data};
  if (k->k == 0) { /* an empty contraction: every sum is +0 */
    memset(j.c, 0, results[0]->nbytes);
    return NULL;
  }
  int64_t items = k->n_batch * k->n_blocks;
  if (items > 0) hr_parallel_for(base->pool, items, hr_fast_chunk(k->m * k->block * k->k), dot_items, &j);
  return NULL;
}

hr_status hr_fast_prepare_dot(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                              const hr_tensor *const *results, hr_fast_kernel **out) {
  if (op->n_operands != 2 || op->n_results != 1 || !hr_fast_is_f32(operands[0]) || !hr_fast_is_f32(operands[1]) ||
      !hr_fast_is_f32(results[0]))
    return NULL;
  dot_kernel plan;
  memset(&plan, 0, sizeof plan);
  if (!plan_dims(op, operands[0], operands[1], results[0], &plan)) return NULL;
  /* Enough items for every worker: split n into blocks of at least 64 columns when batches are few. */
  int workers = env->pool ? hr_threadpool_size(env->pool) : 1;
  plan.block = plan.n;
  if (plan.n_batch < 4 * (int64_t)workers && plan.n > 64) {
    int64_t want = (4 * (int64_t)workers + plan.n_batch - 1) / (plan.n_batch ? plan.n_batch : 1);
    int64_t block = (plan.n + want - 1) / want;
    block = (block + 63) / 64 * 64;
    plan.block = block < plan.n ? block : plan.n;
  }
  plan.n_blocks = plan.block ? (plan.n + plan.block - 1) / plan.block : 1;
  hr_fast_kernel *k = hr_fast_kernel_new(env, sizeof(dot_kernel), "dot", dot_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing a kernel");
  plan.base = *k;
  memcpy(k, &plan, sizeof plan);
  *out = k;
  return NULL;
}

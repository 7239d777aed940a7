/* hlorun.attention: blockwise multi-head attention (flash-attention style) in the
 * [batch, seq, heads, head_dim] layout.
 *
 * A task is one block of QB = 32 queries of one (batch, head). It keeps everything transposed so
 * that the 32 queries are the lanes of two AVX-512 vectors:
 *   - Q^T (head_dim x 32, pre-multiplied by the scale) is built once per task by 16 x 16 register
 *     transposes of the query rows;
 *   - for each block of at most KB keys, S^T = K Q^T (keys x 32) is computed by a register-blocked
 *     kernel (12 keys x 32 queries of accumulators, the key elements broadcast from memory), and
 *     masked (-inf where key > query) on the diagonal block when causal;
 *   - the softmax runs down the key rows, lane-wise, online across key blocks: running maximum m
 *     and sum l per query, rescaling the accumulated output by exp(m_old - m_new);
 *   - O += P V by a second register-blocked kernel (4 queries x 64 head dims of accumulators, the
 *     probabilities broadcast from P^T), O kept row-major (32 x head_dim) in scratch;
 *   - at the end each row of O / l is stored into its output row.
 * With causal masking a task only visits keys up to its last query, so the fully masked blocks
 * (about half the work) are skipped. Tasks are ordered longest first and spread over the pool.
 * Per worker, the scratch holds Q^T, O and the S^T block (KB x 32 floats): 48 KiB for head_dim
 * 64, which stays in L1/L2. */
#include "runtime/fast_internal.h"

enum {
  QB = 32,    /* queries per task: two vectors of lanes */
  KB = 256,   /* keys per block */
  QK_NR = 12, /* keys per register block of S^T = K Q^T */
  PV_NQ = 4,  /* queries per register block of O += P V ... */
  PV_NV = 4,  /* ... by vectors of 16 head dims */
};

typedef struct attention_kernel {
  hr_fast_kernel base;
  int64_t b, s, t, h, d;
  float scale;
  bool causal;
  size_t worker_floats; /* scratch floats per worker */
} attention_kernel;

/* The per-run view. */
typedef struct attention_job {
  const attention_kernel *k;
  const float *q, *kk, *v;
  float *o;
  float *scratch;
} attention_job;

/* One task's buffers and position. */
typedef struct attention_task {
  float *qt;            /* d x QB */
  float *o;             /* QB x d */
  float *st;            /* KB x QB */
  int64_t s0, ns;       /* first query and number of queries (<= QB) */
  int64_t row_stride;   /* floats between consecutive positions of one head (h * d) */
  const float *kh, *vh; /* key / value rows of this (batch, head): row t at kh + t * row_stride */
  __m512 m[2], l[2];    /* running maximum and sum per query */
} attention_task;

/* Loads the task's queries transposed and scaled into qt (lanes past ns are 0), 16 queries by 16
 * head dims at a time. */
HR_AVX512 static void load_queries(const attention_kernel *k, attention_task *t, const float *q) {
  __m512 sc = _mm512_set1_ps(k->scale);
  for (int half = 0; half < 2; half++) {
    const float *base = q + (t->s0 + 16 * half) * t->row_stride;
    for (int64_t d0 = 0; d0 < k->d; d0 += 16) {
      __mmask16 cols = hr_lanes_below(k->d - d0);
      __m512 r[16];
#pragma GCC unroll 16
      for (int i = 0; i < 16; i++)
        r[i] = 16 * half + i < t->ns ? _mm512_mul_ps(_mm512_maskz_loadu_ps(cols, base + i * t->row_stride + d0), sc)
                                     : _mm512_setzero_ps();
      hr_transpose16(r);
      for (int j = 0; j < 16 && d0 + j < k->d; j++) _mm512_store_ps(t->qt + (d0 + j) * QB + 16 * half, r[j]);
    }
  }
}

/* S^T rows [0, nr) (nr <= QK_NR) of keys starting at row `key0`: st[r] = K[key0 + r] . Q^T. */
HR_AVX512 static inline void qk_block(const attention_task *t, int64_t d, int64_t key0, int nr, float *st) {
  __m512 acc[QK_NR][2];
  const float *kr[QK_NR];
#pragma GCC unroll 12
  for (int r = 0; r < QK_NR; r++) {
    acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    kr[r] = t->kh + (key0 + (r < nr ? r : 0)) * t->row_stride;
  }
  for (int64_t i = 0; i < d; i++) {
    __m512 q0 = _mm512_load_ps(t->qt + i * QB), q1 = _mm512_load_ps(t->qt + i * QB + 16);
#pragma GCC unroll 12
    for (int r = 0; r < QK_NR; r++) {
      __m512 kv = _mm512_set1_ps(kr[r][i]);
      acc[r][0] = _mm512_fmadd_ps(kv, q0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(kv, q1, acc[r][1]);
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < QK_NR; r++) {
    if (r >= nr) break;
    _mm512_store_ps(st + r * QB, acc[r][0]);
    _mm512_store_ps(st + r * QB + 16, acc[r][1]);
  }
}

/* One key row of S^T, for the rows left over by qk_block. */
HR_AVX512 static inline void qk_row(const attention_task *t, int64_t d, int64_t key, float *st) {
  const float *kr = t->kh + key * t->row_stride;
  __m512 a0 = _mm512_setzero_ps(), a1 = a0;
  for (int64_t i = 0; i < d; i++) {
    __m512 kv = _mm512_set1_ps(kr[i]);
    a0 = _mm512_fmadd_ps(kv, _mm512_load_ps(t->qt + i * QB), a0);
    a1 = _mm512_fmadd_ps(kv, _mm512_load_ps(t->qt + i * QB + 16), a1);
  }
  _mm512_store_ps(st, a0);
  _mm512_store_ps(st + 16, a1);
}

/* Computes S^T for keys [key0, key0 + nk) into t->st and masks keys after each query. */
HR_AVX512 static void scores(const attention_kernel *k, attention_task *t, int64_t key0, int64_t nk) {
  int64_t r = 0;
  for (; r + QK_NR <= nk; r += QK_NR) qk_block(t, k->d, key0 + r, QK_NR, t->st + r * QB);
  if (nk - r >= QK_NR / 2) {
    qk_block(t, k->d, key0 + r, (int)(nk - r), t->st + r * QB);
    r = nk;
  }
  for (; r < nk; r++) qk_row(t, k->d, key0 + r, t->st + r * QB);
  if (!k->causal) return;
  /* Key key0 + r is visible to query s0 + lane when lane >= key0 + r - s0. */
  __m512 ninf = _mm512_set1_ps(-__builtin_inff());
  for (r = key0 > t->s0 ? 0 : t->s0 - key0 + 1; r < nk; r++) {
    int64_t first = key0 + r - t->s0;
    float *row = t->st + r * QB;
    _mm512_store_ps(row, _mm512_mask_mov_ps(_mm512_load_ps(row), hr_lanes_below(first), ninf));
    _mm512_store_ps(row + 16, _mm512_mask_mov_ps(_mm512_load_ps(row + 16), hr_lanes_below(first - 16), ninf));
  }
}

/* Turns the score block into probabilities relative to the new running maximum, updates m and l,
 * and returns the factors exp(m_old - m_new) by which the output accumulated so far must scale. */
HR_AVX512 static void online_softmax(attention_task *t, int64_t nk, __m512 alpha[2]) {
  __m512 bm0 = _mm512_set1_ps(-__builtin_inff()), bm1 = bm0;
  for (int64_t r = 0; r < nk; r++) {
    bm0 = _mm512_max_ps(bm0, _mm512_load_ps(t->st + r * QB));
    bm1 = _mm512_max_ps(bm1, _mm512_load_ps(t->st + r * QB + 16));
  }
  __m512 m0 = _mm512_max_ps(t->m[0], bm0), m1 = _mm512_max_ps(t->m[1], bm1);
  alpha[0] = hr_v_exp(_mm512_sub_ps(t->m[0], m0));
  alpha[1] = hr_v_exp(_mm512_sub_ps(t->m[1], m1));
  __m512 s0 = _mm512_setzero_ps(), s1 = s0;
  for (int64_t r = 0; r < nk; r++) {
    __m512 p0 = hr_v_exp(_mm512_sub_ps(_mm512_load_ps(t->st + r * QB), m0));
    __m512 p1 = hr_v_exp(_mm512_sub_ps(_mm512_load_ps(t->st + r * QB + 16), m1));
    _mm512_store_ps(t->st + r * QB, p0);
    _mm512_store_ps(t->st + r * QB + 16, p1);
    s0 = _mm512_add_ps(s0, p0);
    s1 = _mm512_add_ps(s1, p1);
  }
  t->l[0] = _mm512_fmadd_ps(t->l[0], alpha[0], s0);
  t->l[1] = _mm512_fmadd_ps(t->l[1], alpha[1], s1);
  t->m[0] = m0;
  t->m[1] = m1;
}

/* O rows [q0, q0 + PV_NQ), head dims [d0, d0 + 64) (lanes past d masked off) = alpha * O + the sum
 * over the nk keys from key0 of P^T[key][q] * V[key]. `first` means O holds nothing yet. */
HR_AVX512 static inline void pv_block(attention_task *t, int64_t d, int64_t key0, int64_t nk, int q0, int64_t d0,
                                      const float *alpha, bool first) {
  __m512 acc[PV_NQ][PV_NV];
  __mmask16 m[PV_NV];
#pragma GCC unroll 4
  for (int v = 0; v < PV_NV; v++) m[v] = hr_lanes_below(d - d0 - 16 * v);
#pragma GCC unroll 4
  for (int q = 0; q < PV_NQ; q++) {
    const float *row = t->o + (q0 + q) * d + d0;
    __m512 a = _mm512_set1_ps(alpha[q0 + q]);
#pragma GCC unroll 4
    for (int v = 0; v < PV_NV; v++)
      acc[q][v] = first ? _mm512_setzero_ps() : _mm512_mul_ps(_mm512_maskz_loadu_ps(m[v], row + 16 * v), a);
  }
  const float *vr = t->vh + key0 * t->row_stride + d0;
  const float *pr = t->st + q0;
  for (int64_t r = 0; r < nk; r++, vr += t->row_stride, pr += QB) {
    __m512 vv[PV_NV];
#pragma GCC unroll 4
    for (int v = 0; v < PV_NV; v++) vv[v] = _mm512_maskz_loadu_ps(m[v], vr + 16 * v);
#pragma GCC unroll 4
    for (int q = 0; q < PV_NQ; q++) {
      __m512 p = _mm512_set1_ps(pr[q]);
#pragma GCC unroll 4
      for (int v = 0; v < PV_NV; v++) acc[q][v] = _mm512_fmadd_ps(p, vv[v], acc[q][v]);
    }
  }
#pragma GCC unroll 4
  for (int q = 0; q < PV_NQ; q++)
#pragma GCC unroll 4
    for (int v = 0; v < PV_NV; v++) _mm512_mask_storeu_ps(t->o + (q0 + q) * d + d0 + 16 * v, m[v], acc[q][v]);
}

/* O += P V over the keys [key0, key0 + nk) after scaling O by alpha (per query). */
HR_AVX512 static void pv(attention_task *t, int64_t d, int64_t key0, int64_t nk, const __m512 alpha[2], bool first) {
  _Alignas(64) float a[QB];
  _mm512_store_ps(a, alpha[0]);
  _mm512_store_ps(a + 16, alpha[1]);
  for (int q0 = 0; q0 < t->ns; q0 += PV_NQ)
    for (int64_t d0 = 0; d0 < d; d0 += 16 * PV_NV) pv_block(t, d, key0, nk, q0, d0, a, first);
}

/* Stores each row of O / l into its output row. */
HR_AVX512 static void store_output(const attention_kernel *k, const attention_task *t, float *o) {
  _Alignas(64) float l[QB];
  _mm512_store_ps(l, t->l[0]);
  _mm512_store_ps(l + 16, t->l[1]);
  for (int64_t q = 0; q < t->ns; q++) {
    __m512 inv = _mm512_set1_ps(1.0f / l[q]);
    float *dst = o + (t->s0 + q) * t->row_stride;
    const float *src = t->o + q * k->d;
    for (int64_t i = 0; i < k->d; i += 16) {
      __mmask16 m = hr_lanes_below(k->d - i);
      _mm512_mask_storeu_ps(dst + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, src + i), inv));
    }
  }
}

/* Runs one task: queries [s0, s0 + ns) of head h of batch b. */
HR_AVX512 static void attention_task_run(const attention_job *j, int64_t b, int64_t h, int64_t s0, float *scratch) {
  const attention_kernel *k = j->k;
  attention_task t = {.qt = scratch, .o = scratch + k->d * QB, .st = scratch + 2 * k->d * QB};
  t.s0 = s0;
  t.ns = k->s - s0 < QB ? k->s - s0 : QB;
  t.row_stride = k->h * k->d;
  t.kh = j->kk + (b * k->t * k->h + h) * k->d;
  t.vh = j->v + (b * k->t * k->h + h) * k->d;
  t.m[0] = t.m[1] = _mm512_set1_ps(-__builtin_inff());
  t.l[0] = t.l[1] = _mm512_setzero_ps();
  load_queries(k, &t, j->q + (b * k->s * k->h + h) * k->d);
  int64_t t_end = k->causal && s0 + t.ns < k->t ? s0 + t.ns : k->t;
  for (int64_t key0 = 0; key0 < t_end; key0 += KB) {
    int64_t nk = t_end - key0 < KB ? t_end - key0 : KB;
    __m512 alpha[2];
    scores(k, &t, key0, nk);
    online_softmax(&t, nk, alpha);
    pv(&t, k->d, key0, nk, alpha, key0 == 0);
  }
  store_output(k, &t, j->o + (b * k->s * k->h + h) * k->d);
}

/* hr_parallel_fn over tasks, numbered so that the longest (last query blocks) come first. */
static void attention_chunk(void *ctx, int64_t begin, int64_t end, int worker) {
  const attention_job *j = ctx;
  const attention_kernel *k = j->k;
  int64_t n_qb = (k->s + QB - 1) / QB;
  float *scratch = j->scratch + (size_t)worker * k->worker_floats;
  for (int64_t i = begin; i < end; i++) {
    int64_t qb = n_qb - 1 - i % n_qb, bh = i / n_qb;
    attention_task_run(j, bh / k->h, bh % k->h, qb * QB, scratch);
  }
}

static hr_status attention_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                               void *scratch) {
  const attention_kernel *k = (const attention_kernel *)base;
  attention_job j = {k, operands[0]->data, operands[1]->data, operands[2]->data, results[0]->data, scratch};
  int64_t n_tasks = k->b * k->h * ((k->s + QB - 1) / QB);
  hr_parallel_for(base->pool, n_tasks, 1, attention_chunk, &j);
  return NULL;
}

/* Whether `t` is a rank-4 f32 tensor with dims (b, n, h, d). */
static bool bthd(const hr_tensor *t, int64_t b, int64_t n, int64_t h, int64_t d) {
  const int64_t *x = t->shape.dims;
  return hr_fast_is_f32(t) && t->shape.rank == 4 && x[0] == b && x[1] == n && x[2] == h && x[3] == d;
}

hr_status hr_fast_prepare_attention(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                    const hr_tensor *const *results, hr_fast_kernel **out) {
  if (op->n_operands != 3 || op->n_results != 1 || operands[0]->shape.rank != 4 || operands[1]->shape.rank != 4)
    return NULL;
  const int64_t *qd = operands[0]->shape.dims;
  int64_t b = qd[0], s = qd[1], h = qd[2], d = qd[3], t = operands[1]->shape.dims[1];
  float scale = 0;
  if (!bthd(operands[0], b, s, h, d) || !bthd(operands[1], b, t, h, d) || !bthd(operands[2], b, t, h, d) ||
      !bthd(results[0], b, s, h, d) || !hr_fast_attr_float(op, "scale", &scale))
    return NULL;
  /* No keys (an empty softmax) or no output: the reference kernel defines those. Lane offsets
   * are 32-bit. */
  if (t == 0 || b * s * h * d == 0 || h * d * QB > INT32_MAX) return NULL;
  bool causal = hr_fast_attr_bool(op, "causal", false);
  HR_TRY(hr_fast_prepare_attention_amx(env, b, s, t, h, d, scale, causal, out));
  if (*out) return NULL;
  attention_kernel *k = (attention_kernel *)hr_fast_kernel_new(env, sizeof *k, "attention", attention_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing an attention kernel");
  *k = (attention_kernel){.base = k->base, .b = b, .s = s, .t = t, .h = h, .d = d, .scale = scale};
  k->causal = causal;
  k->worker_floats = hr_fast_round((size_t)(2 * d * QB + KB * QB) * sizeof(float)) / sizeof(float);
  k->base.scratch_bytes = k->worker_floats * sizeof(float) * (size_t)k->base.n_workers;
  *out = &k->base;
  return NULL;
}

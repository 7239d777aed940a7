/* hlorun.attention: blockwise multi-head attention (flash-attention style) in the
 * [batch, seq, heads, head_dim] layout.
 *
 * A task is one block of QB = 32 queries of one (batch, head). It keeps everything transposed so
 * that the 32 queries are the lanes of two AVX-512 vectors:
 *   - Q^T (head_dim x 32, pre-multiplied by the scale and log2(e), so that the scores are in base 2
 *     and the softmax needs only powers of two) is built once per task by 16 x 16 register
 *     transposes of the query rows;
 *   - for each block of at most KB keys, S^T = K Q^T (keys x 32) is computed by a register-blocked
 *     kernel (12 keys x 32 queries of accumulators, the key elements broadcast from memory), and
 *     masked (-inf where key > query) on the diagonal block when causal; there, keys past the
 *     16th query are visible only to the second vector of queries, which alone they update;
 *   - the softmax runs down the key rows, lane-wise, online across key blocks: running maximum m
 *     and sum l per query, rescaling the accumulated output by 2^(m_old - m_new);
 *   - O^T += V^T P^T by a second register-blocked kernel, transposed too (12 head dims x 32
 *     queries of accumulators, the value elements broadcast from memory, P^T rows from L1), O^T
 *     (head_dim x 32) kept in scratch and rescaled lane-wise by 2^(m_old - m_new);
 *   - at the end O^T / l is transposed back, 16 x 16 at a time, into the output rows.
 * With causal masking a task only visits keys up to its last query, so the fully masked blocks
 * (about half the work) are skipped, and of the 32 x 32 diagonal block the upper 16 x 16 too. The
 * tasks of one (batch, head) are consecutive (they share its keys and values in cache), the
 * longest first, and the pool's participants claim them one at a time: they finish within about
 * one short task of each other, and one that is held up (a virtual CPU descheduled by its host)
 * holds the others up by at most one task.
 * Per worker, the scratch holds Q^T, O^T and the S^T block (KB x 32 floats): 48 KiB for
 * head_dim 64, which stays in L1/L2. */
#include <stdatomic.h>

#include "backend/cpu/fast_internal.h"

enum {
  QB = 32,    /* queries per task: two vectors of lanes */
  KB = 256,   /* keys per block */
  QK_NR = 12, /* keys per register block of S^T = K Q^T */
  PV_ND = 12, /* head dims per register block of O^T += V^T P^T (then blocks of 4, then of 1) */
};

typedef struct attention_kernel {
  hr_fast_kernel base;
  hr_attention_shape a;
  size_t worker_floats; /* scratch floats per worker */
} attention_kernel;

/* The per-run view. */
typedef struct attention_job {
  const attention_kernel *k;
  const float *q, *kk, *v;
  float *o;
  float *scratch;
  int64_t n_tasks;
  atomic_int_fast64_t next_task; /* the next task not claimed yet */
} attention_job;

/* One task's buffers and position. */
typedef struct attention_task {
  float *qt;            /* d x QB */
  float *ot;            /* d x QB: O^T */
  float *st;            /* KB x QB */
  int64_t s0, ns;       /* first query and number of queries (<= QB) */
  int64_t q_pos;        /* floats between consecutive query rows of one head */
  int64_t kv_pos;       /* ... key and value rows ... */
  int64_t o_pos;        /* ... output rows (h * d) */
  const float *kh, *vh; /* key / value rows of this (batch, head): row t at kh + t * kv_pos */
  __m512 m[2], l[2];    /* running maximum and sum per query */
} attention_task;

/* Loads the task's queries transposed and scaled into qt (lanes past ns are 0), 16 queries by 16
 * head dims at a time, by q_scale (which includes log2(e): the scores come out in base 2). */
HR_AVX512 static void load_queries(const attention_kernel *k, attention_task *t, const float *q) {
  __m512 sc = _mm512_set1_ps(k->a.q_scale);
  for (int half = 0; half < 2; half++) {
    const float *base = q + (t->s0 + 16 * half) * t->q_pos;
    for (int64_t d0 = 0; d0 < k->a.d; d0 += 16) {
      __mmask16 cols = hr_lanes_below(k->a.d - d0);
      __m512 r[16];
#pragma GCC unroll 16
      for (int i = 0; i < 16; i++)
        r[i] = 16 * half + i < t->ns ? _mm512_mul_ps(_mm512_maskz_loadu_ps(cols, base + i * t->q_pos + d0), sc)
                                     : _mm512_setzero_ps();
      hr_transpose16(r);
      for (int j = 0; j < 16 && d0 + j < k->a.d; j++) _mm512_store_ps(t->qt + (d0 + j) * QB + 16 * half, r[j]);
    }
  }
}

/* S^T rows [0, nr) (nr <= QK_NR) of keys starting at row `key0`: st[r] = K[key0 + r] . Q^T. `half`:
 * only the second vector of queries (lanes 16-31; the first is left as it was). */
HR_AVX512 static inline __attribute__((always_inline)) void qk_block(const attention_task *t, int64_t d, int64_t key0,
                                                                     int nr, const bool half, float *st) {
  __m512 acc[QK_NR][2];
  const float *kr[QK_NR];
#pragma GCC unroll 12
  for (int r = 0; r < QK_NR; r++) {
    acc[r][0] = acc[r][1] = _mm512_setzero_ps();
    kr[r] = t->kh + (key0 + (r < nr ? r : 0)) * t->kv_pos;
  }
  for (int64_t i = 0; i < d; i++) {
    __m512 q0 = half ? _mm512_setzero_ps() : _mm512_load_ps(t->qt + i * QB), q1 = _mm512_load_ps(t->qt + i * QB + 16);
#pragma GCC unroll 12
    for (int r = 0; r < QK_NR; r++) {
      __m512 kv = _mm512_set1_ps(kr[r][i]);
      if (!half) acc[r][0] = _mm512_fmadd_ps(kv, q0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(kv, q1, acc[r][1]);
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < QK_NR; r++) {
    if (r >= nr) break;
    if (!half) _mm512_store_ps(st + r * QB, acc[r][0]);
    _mm512_store_ps(st + r * QB + 16, acc[r][1]);
  }
}

/* One key row of S^T, for the rows left over by qk_block; `half` as there. */
HR_AVX512 static inline __attribute__((always_inline)) void qk_row(const attention_task *t, int64_t d, int64_t key,
                                                                   const bool half, float *st) {
  const float *kr = t->kh + key * t->kv_pos;
  __m512 a0 = _mm512_setzero_ps(), a1 = a0;
  for (int64_t i = 0; i < d; i++) {
    __m512 kv = _mm512_set1_ps(kr[i]);
    if (!half) a0 = _mm512_fmadd_ps(kv, _mm512_load_ps(t->qt + i * QB), a0);
    a1 = _mm512_fmadd_ps(kv, _mm512_load_ps(t->qt + i * QB + 16), a1);
  }
  if (!half) _mm512_store_ps(st, a0);
  _mm512_store_ps(st + 16, a1);
}

/* S^T rows [r, nk) of the keys from key0: blocks of QK_NR rows, a last block when at least half
 * full, single rows for the rest. */
HR_AVX512 static inline __attribute__((always_inline)) void score_rows(attention_task *t, int64_t d, int64_t key0,
                                                                       int64_t r, int64_t nk, const bool half) {
  for (; r + QK_NR <= nk; r += QK_NR) qk_block(t, d, key0 + r, QK_NR, half, t->st + r * QB);
  if (nk - r >= QK_NR / 2) {
    qk_block(t, d, key0 + r, (int)(nk - r), half, t->st + r * QB);
    r = nk;
  }
  for (; r < nk; r++) qk_row(t, d, key0 + r, half, t->st + r * QB);
}

/* The rows of the key block from key0 (of nk keys) that a query of the first 16 lanes sees: with
 * causal masking, none from key s0 + 16 on (those rows need only lanes 16-31). */
static int64_t full_rows(const attention_kernel *k, const attention_task *t, int64_t key0, int64_t nk) {
  if (!k->a.causal || t->ns <= 16) return nk;
  int64_t last = t->s0 + 16 - key0;
  return last < 0 ? 0 : last < nk ? last : nk;
}

/* Computes S^T for keys [key0, key0 + nk) into t->st (rows from `full` on, lanes 16-31 only) and
 * masks keys after each query. */
HR_AVX512 static void scores(const attention_kernel *k, attention_task *t, int64_t key0, int64_t nk, int64_t full) {
  score_rows(t, k->a.d, key0, 0, full, false);
  score_rows(t, k->a.d, key0, full, nk, true);
  if (!k->a.causal) return;
  /* Key key0 + r is visible to query s0 + lane when lane >= key0 + r - s0 (so rows from `full` on
   * get -inf in all of lanes 0-15, which they did not compute). */
  __m512 ninf = _mm512_set1_ps(-__builtin_inff());
  for (int64_t r = key0 > t->s0 ? 0 : t->s0 - key0 + 1; r < nk; r++) {
    int64_t first = key0 + r - t->s0;
    float *row = t->st + r * QB;
    _mm512_store_ps(row, _mm512_mask_mov_ps(_mm512_load_ps(row), hr_lanes_below(first), ninf));
    _mm512_store_ps(row + 16, _mm512_mask_mov_ps(_mm512_load_ps(row + 16), hr_lanes_below(first - 16), ninf));
  }
}

/* Turns the score block (in base 2) into probabilities relative to the new running maximum,
 * updates m and l, and returns the factors 2^(m_old - m_new) by which the output accumulated so far
 * must scale. */
HR_AVX512 static void online_softmax(attention_task *t, int64_t nk, __m512 alpha[2]) {
  __m512 bm0 = _mm512_set1_ps(-__builtin_inff()), bm1 = bm0;
  for (int64_t r = 0; r < nk; r++) {
    bm0 = _mm512_max_ps(bm0, _mm512_load_ps(t->st + r * QB));
    bm1 = _mm512_max_ps(bm1, _mm512_load_ps(t->st + r * QB + 16));
  }
  __m512 m0 = _mm512_max_ps(t->m[0], bm0), m1 = _mm512_max_ps(t->m[1], bm1);
  alpha[0] = hr_v_exp2_flush(_mm512_sub_ps(t->m[0], m0));
  alpha[1] = hr_v_exp2_flush(_mm512_sub_ps(t->m[1], m1));
  __m512 s0 = _mm512_setzero_ps(), s1 = s0;
  for (int64_t r = 0; r < nk; r++) {
    __m512 p0 = hr_v_exp2_flush(_mm512_sub_ps(_mm512_load_ps(t->st + r * QB), m0));
    __m512 p1 = hr_v_exp2_flush(_mm512_sub_ps(_mm512_load_ps(t->st + r * QB + 16), m1));
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

/* O^T rows [d0, d0 + nd) (nd <= PV_ND, a constant where inlined) = alpha * O^T + the sum over the nk
 * keys from key0 of V[key][d] * P^T[key] (32 queries as lanes); keys from key0 + full on only for
 * lanes 16-31 (P^T is 0 in lanes 0-15 there). `first` means O^T holds nothing yet. */
HR_AVX512 static inline __attribute__((always_inline)) void pv_block(attention_task *t, int64_t key0, int64_t nk,
                                                                     int64_t full, int64_t d0, const int nd,
                                                                     const __m512 alpha[2], bool first) {
  __m512 acc[PV_ND][2];
#pragma GCC unroll 12
  for (int i = 0; i < nd; i++) {
    float *row = t->ot + (d0 + i) * QB;
    acc[i][0] = first ? _mm512_setzero_ps() : _mm512_mul_ps(_mm512_load_ps(row), alpha[0]);
    acc[i][1] = first ? _mm512_setzero_ps() : _mm512_mul_ps(_mm512_load_ps(row + 16), alpha[1]);
  }
  const float *vr = t->vh + key0 * t->kv_pos + d0;
  const float *pr = t->st;
  int64_t r = 0;
  for (; r < full; r++, vr += t->kv_pos, pr += QB) {
    __m512 p0 = _mm512_load_ps(pr), p1 = _mm512_load_ps(pr + 16);
#pragma GCC unroll 12
    for (int i = 0; i < nd; i++) {
      __m512 v = _mm512_set1_ps(vr[i]);
      acc[i][0] = _mm512_fmadd_ps(v, p0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(v, p1, acc[i][1]);
    }
  }
  for (; r < nk; r++, vr += t->kv_pos, pr += QB) {
    __m512 p1 = _mm512_load_ps(pr + 16);
#pragma GCC unroll 12
    for (int i = 0; i < nd; i++) acc[i][1] = _mm512_fmadd_ps(_mm512_set1_ps(vr[i]), p1, acc[i][1]);
  }
#pragma GCC unroll 12
  for (int i = 0; i < nd; i++) {
    _mm512_store_ps(t->ot + (d0 + i) * QB, acc[i][0]);
    _mm512_store_ps(t->ot + (d0 + i) * QB + 16, acc[i][1]);
  }
}

/* O^T = alpha O^T + V^T P^T over the keys [key0, key0 + nk) (from key0 + full on, lanes 16-31 only):
 * head dims in blocks of PV_ND, then of 4, then one by one. */
HR_AVX512 static void pv(attention_task *t, int64_t d, int64_t key0, int64_t nk, int64_t full, const __m512 alpha[2],
                         bool first) {
  int64_t d0 = 0;
  for (; d0 + PV_ND <= d; d0 += PV_ND) pv_block(t, key0, nk, full, d0, PV_ND, alpha, first);
  for (; d0 + 4 <= d; d0 += 4) pv_block(t, key0, nk, full, d0, 4, alpha, first);
  for (; d0 < d; d0++) pv_block(t, key0, nk, full, d0, 1, alpha, first);
}

/* Stores O^T / l transposed into the output rows: 16 head dims of 16 queries at a time. */
HR_AVX512 static void store_output(const attention_kernel *k, const attention_task *t, float *o) {
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 inv[2] = {_mm512_div_ps(one, t->l[0]), _mm512_div_ps(one, t->l[1])};
  for (int half = 0; half < 2 && 16 * half < t->ns; half++) {
    for (int64_t d0 = 0; d0 < k->a.d; d0 += 16) {
      __m512 r[16];
#pragma GCC unroll 16
      for (int i = 0; i < 16; i++)
        r[i] = d0 + i < k->a.d ? _mm512_mul_ps(_mm512_load_ps(t->ot + (d0 + i) * QB + 16 * half), inv[half])
                             : _mm512_setzero_ps();
      hr_transpose16(r);
      __mmask16 dims = hr_lanes_below(k->a.d - d0);
      for (int j = 0; j < 16 && 16 * half + j < t->ns; j++)
        _mm512_mask_storeu_ps(o + (t->s0 + 16 * half + j) * t->o_pos + d0, dims, r[j]);
    }
  }
}

/* Runs one task: queries [s0, s0 + ns) of head h of batch b. */
HR_AVX512 static void attention_task_run(const attention_job *j, int64_t b, int64_t h, int64_t s0, float *scratch) {
  const attention_kernel *k = j->k;
  attention_task t = {.qt = scratch, .ot = scratch + k->a.d * QB, .st = scratch + 2 * k->a.d * QB};
  t.s0 = s0;
  t.ns = k->a.s - s0 < QB ? k->a.s - s0 : QB;
  t.q_pos = k->a.q_pos, t.kv_pos = k->a.kv_pos, t.o_pos = k->a.h * k->a.d;
  t.kh = j->kk + b * k->a.kv_batch + h * k->a.d;
  t.vh = j->v + b * k->a.kv_batch + h * k->a.d;
  t.m[0] = t.m[1] = _mm512_set1_ps(-__builtin_inff());
  t.l[0] = t.l[1] = _mm512_setzero_ps();
  load_queries(k, &t, j->q + b * k->a.q_batch + h * k->a.d);
  int64_t t_end = k->a.causal && s0 + t.ns < k->a.t ? s0 + t.ns : k->a.t;
  for (int64_t key0 = 0; key0 < t_end; key0 += KB) {
    int64_t nk = t_end - key0 < KB ? t_end - key0 : KB;
    int64_t full = full_rows(k, &t, key0, nk);
    __m512 alpha[2];
    scores(k, &t, key0, nk, full);
    online_softmax(&t, nk, alpha);
    pv(&t, k->a.d, key0, nk, full, alpha, key0 == 0);
  }
  store_output(k, &t, j->o + (b * k->a.s * k->a.h + h) * k->a.d);
}

/* hr_parallel_fn, one call per participant: claims and runs tasks one at a time until none are
 * left. Task i is query block n_qb - 1 - i % n_qb of (batch, head) i / n_qb: per (batch, head),
 * the last query block (the longest, when causal) first. Claiming a task costs one atomic add; a
 * participant that starts late or runs slowly simply takes fewer. */
static void attention_participant(void *ctx, int64_t begin, int64_t end, int worker) {
  (void)begin;
  (void)end;
  attention_job *j = ctx;
  const attention_kernel *k = j->k;
  int64_t n_qb = (k->a.s + QB - 1) / QB;
  float *scratch = j->scratch + (size_t)worker * k->worker_floats;
  for (int64_t i; (i = atomic_fetch_add_explicit(&j->next_task, 1, memory_order_relaxed)) < j->n_tasks;) {
    int64_t qb = n_qb - 1 - i % n_qb, bh = i / n_qb;
    attention_task_run(j, bh / k->a.h, bh % k->a.h, qb * QB, scratch);
  }
}

static hr_status attention_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                               void *scratch) {
  const attention_kernel *k = (const attention_kernel *)base;
  attention_job j = {.k = k,
                     .q = hr_attention_q(&k->a, operands),
                     .kk = hr_attention_k(&k->a, operands),
                     .v = hr_attention_v(&k->a, operands),
                     .o = results[0]->data,
                     .scratch = scratch,
                     .n_tasks = k->a.b * k->a.h * ((k->a.s + QB - 1) / QB)};
  atomic_init(&j.next_task, 0);
  hr_parallel_for(base->pool, base->n_workers, 1, attention_participant, &j);
  return NULL;
}

/* Whether `t` is an f32 tensor of `rank` dims equal to `dims`. */
static bool f32_dims(const hr_tensor *t, int rank, const int64_t *dims) {
  if (!hr_fast_is_f32(t) || t->shape.rank != rank) return false;
  for (int i = 0; i < rank; i++)
    if (t->shape.dims[i] != dims[i]) return false;
  return true;
}

/* Reads the shapes and layout of an hlorun.attention (three operands, or one qkv); false when the
 * types do not fit either form. */
static bool attention_shape(const hr_op *op, const hr_tensor *const *operands, const hr_tensor *const *results,
                            hr_attention_shape *a) {
  if (op->n_results != 1 || (op->n_operands != 1 && op->n_operands != 3)) return false;
  const int64_t *x = operands[0]->shape.dims;
  *a = (hr_attention_shape){.packed = op->n_operands == 1};
  if (a->packed) {
    if (operands[0]->shape.rank != 5) return false;
    a->b = x[0], a->s = a->t = x[1], a->h = x[3], a->d = x[4];
    int64_t want[5] = {a->b, a->s, 3, a->h, a->d};
    if (!f32_dims(operands[0], 5, want)) return false;
    a->q_pos = a->kv_pos = 3 * a->h * a->d;
    a->q_batch = a->kv_batch = a->s * a->q_pos;
    a->k_off = a->h * a->d, a->v_off = 2 * a->h * a->d;
  } else {
    if (operands[0]->shape.rank != 4 || operands[1]->shape.rank != 4) return false;
    a->b = x[0], a->s = x[1], a->h = x[2], a->d = x[3], a->t = operands[1]->shape.dims[1];
    int64_t q[4] = {a->b, a->s, a->h, a->d}, kv[4] = {a->b, a->t, a->h, a->d};
    if (!f32_dims(operands[0], 4, q) || !f32_dims(operands[1], 4, kv) || !f32_dims(operands[2], 4, kv)) return false;
    a->q_pos = a->kv_pos = a->h * a->d;
    a->q_batch = a->s * a->q_pos, a->kv_batch = a->t * a->kv_pos;
  }
  int64_t o[4] = {a->b, a->s, a->h, a->d};
  a->causal = hr_fast_attr_bool(op, "causal", false);
  float scale = 0;
  if (!f32_dims(results[0], 4, o) || !hr_fast_attr_float(op, "scale", &scale)) return false;
  a->q_scale = scale * (float)M_LOG2E;
  return true;
}

hr_status hr_fast_prepare_attention(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                    const hr_tensor *const *results, hr_fast_kernel **out) {
  if (op->n_operands == 4) return hr_fast_prepare_attention_decode(env, op, operands, results, out);
  hr_attention_shape a;
  if (!attention_shape(op, operands, results, &a)) return NULL;
  /* No keys (an empty softmax) or no output: the reference kernel defines those. Lane offsets
   * are 32-bit. */
  if (a.t == 0 || a.b * a.s * a.h * a.d == 0 || 3 * a.h * a.d * QB > INT32_MAX) return NULL;
  HR_TRY(hr_fast_prepare_attention_amx(env, &a, out));
  if (*out) return NULL;
  HR_TRY(hr_fast_prepare_attention_bf16(env, &a, out));
  if (*out) return NULL;
  attention_kernel *k = (attention_kernel *)hr_fast_kernel_new(env, sizeof *k, "attention", attention_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing an attention kernel");
  *k = (attention_kernel){.base = k->base, .a = a};
  k->worker_floats = hr_fast_round((size_t)(2 * a.d * QB + KB * QB) * sizeof(float)) / sizeof(float);
  k->base.scratch_bytes = k->worker_floats * sizeof(float) * (size_t)k->base.n_workers;
  *out = &k->base;
  return NULL;
}

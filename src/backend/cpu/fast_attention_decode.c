/* hlorun.attention(q, k, v, position): attention of a few queries per row over a KV cache, each
 * batch row b attending to the keys 0..position[b] only (a decode step: position is the number of
 * tokens before the query's). One task is one (batch, head, query) row:
 *   - the scores scale * q . k[t] for t <= last = min(position[b], T - 1), 16 keys at a time: their
 *     rows loaded 16 head dims at a time and transposed in registers (transpose.h), so that the
 *     lanes run over keys and the head dims accumulate by FMA;
 *   - the softmax over those scores (hr_v_exp_flush: probabilities below 1e-37 are 0, as in the
 *     other f32 kernels);
 *   - o = sum_t p[t] v[t] / sum_t p[t], up to 64 head dims per pass over the keys.
 * The masked keys are not read at all: in the graph the fusion replaces they had a fill of at most
 * -1e9 as scores, whose exponentials are exactly 0 next to any real score. When position[b] < 0
 * every key is masked and every key gets the same weight (as equal fill scores get). Rows of keys
 * are prefetched a block ahead (a cache read one head at a time is a stream of pieces of a row).
 * Tasks are spread over the pool; each worker's scratch holds T scores. */
#include <math.h>

#include "backend/cpu/fast_internal.h"

typedef struct decode_kernel {
  hr_fast_kernel base;
  int64_t b, s, t, h, d;
  float scale;
  size_t worker_floats; /* scratch floats per worker */
} decode_kernel;

/* The per-run view. */
typedef struct decode_job {
  const decode_kernel *k;
  const float *q, *kk, *v;
  const int32_t *position;
  float *o;
  float *scratch;
} decode_job;

/* scores[t] = scale * q . k[t] for t < n; k's rows `kv_pos` floats apart. */
HR_AVX512 static void decode_scores(const decode_kernel *k, const float *q, const float *kr, int64_t kv_pos, int64_t n,
                                    float *scores) {
  __m512 scale = _mm512_set1_ps(k->scale);
  for (int64_t t0 = 0; t0 < n; t0 += 16) {
    int64_t rows = n - t0 < 16 ? n - t0 : 16;
    for (int64_t i = t0 + 16; i < t0 + 32 && i < n; i++) /* the next block's rows */
      for (int64_t e = 0; e < k->d; e += 16) _mm_prefetch((const char *)(kr + i * kv_pos + e), _MM_HINT_T0);
    __m512 acc = _mm512_setzero_ps();
    for (int64_t e0 = 0; e0 < k->d; e0 += 16) {
      int64_t et = k->d - e0 < 16 ? k->d - e0 : 16;
      __mmask16 emask = hr_lanes_below(et);
      __m512 r[16];
      for (int i = 0; i < 16; i++)
        r[i] = i < rows ? _mm512_maskz_loadu_ps(emask, kr + (t0 + i) * kv_pos + e0) : _mm512_setzero_ps();
      hr_transpose16(r);
      for (int64_t e = 0; e < et; e++) acc = _mm512_fmadd_ps(_mm512_set1_ps(q[e0 + e]), r[e], acc);
    }
    _mm512_mask_storeu_ps(scores + t0, hr_lanes_below(rows), _mm512_mul_ps(acc, scale));
  }
}

/* scores[0..n) = exp(scores - max); returns their sum. */
HR_AVX512 static float decode_softmax(float *scores, int64_t n) {
  __m512 mx = _mm512_set1_ps(-INFINITY);
  for (int64_t t = 0; t < n; t += 16)
    mx = _mm512_max_ps(mx, _mm512_mask_loadu_ps(_mm512_set1_ps(-INFINITY), hr_lanes_below(n - t), scores + t));
  __m512 m = _mm512_set1_ps(_mm512_reduce_max_ps(mx)), sum = _mm512_setzero_ps();
  for (int64_t t = 0; t < n; t += 16) {
    __mmask16 lanes = hr_lanes_below(n - t);
    __m512 e = hr_v_exp_flush(_mm512_sub_ps(_mm512_maskz_loadu_ps(lanes, scores + t), m));
    _mm512_mask_storeu_ps(scores + t, lanes, e);
    sum = _mm512_add_ps(sum, _mm512_maskz_mov_ps(lanes, e));
  }
  return _mm512_reduce_add_ps(sum);
}

/* o[0..d) = sum_{t < n} p[t] v[t] * inv; v's rows `kv_pos` floats apart; up to 64 dims per pass. */
HR_AVX512 static void decode_values(const decode_kernel *k, const float *p, float inv, const float *vr, int64_t kv_pos,
                                    int64_t n, float *o) {
  for (int64_t e0 = 0; e0 < k->d; e0 += 64) {
    __mmask16 mask[4];
    __m512 acc[4];
    for (int j = 0; j < 4; j++) {
      mask[j] = hr_lanes_below(k->d - e0 - 16 * j);
      acc[j] = _mm512_setzero_ps();
    }
    for (int64_t t = 0; t < n; t++) {
      const float *row = vr + t * kv_pos + e0;
      if (t + 8 < n)
        for (int j = 0; j < 4; j++)
          if (mask[j]) _mm_prefetch((const char *)(row + 8 * kv_pos + 16 * j), _MM_HINT_T0);
      __m512 pt = _mm512_set1_ps(p[t]);
      for (int j = 0; j < 4; j++)
        if (mask[j]) acc[j] = _mm512_fmadd_ps(pt, _mm512_maskz_loadu_ps(mask[j], row + 16 * j), acc[j]);
    }
    __m512 scale = _mm512_set1_ps(inv);
    for (int j = 0; j < 4; j++)
      if (mask[j]) _mm512_mask_storeu_ps(o + e0 + 16 * j, mask[j], _mm512_mul_ps(acc[j], scale));
  }
}

/* Computes rows [begin, end), row ((b * H) + h) * S + i. */
HR_AVX512 static void decode_rows(void *ctx, int64_t begin, int64_t end, int worker) {
  const decode_job *j = ctx;
  const decode_kernel *k = j->k;
  float *scores = j->scratch + (size_t)worker * k->worker_floats;
  int64_t kv_pos = k->h * k->d;
  for (int64_t r = begin; r < end; r++) {
    int64_t i = r % k->s, bh = r / k->s, h = bh % k->h, b = bh / k->h;
    const float *q = j->q + ((b * k->s + i) * k->h + h) * k->d;
    const float *kr = j->kk + b * k->t * kv_pos + h * k->d, *vr = j->v + b * k->t * kv_pos + h * k->d;
    float *o = j->o + ((b * k->s + i) * k->h + h) * k->d;
    int64_t last = j->position[b], n = last < 0 ? k->t : last < k->t ? last + 1 : k->t;
    if (last < 0) { /* every key masked: equal weights */
      for (int64_t t = 0; t < n; t++) scores[t] = 1.0f;
      decode_values(k, scores, 1.0f / (float)n, vr, kv_pos, n, o);
      continue;
    }
    decode_scores(k, q, kr, kv_pos, n, scores);
    float sum = decode_softmax(scores, n);
    decode_values(k, scores, 1.0f / sum, vr, kv_pos, n, o);
  }
}

static hr_status decode_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                            void *scratch) {
  const decode_kernel *k = (const decode_kernel *)base;
  decode_job j = {k, operands[0]->data, operands[1]->data, operands[2]->data, operands[3]->data,
                  results[0]->data, scratch};
  int64_t rows = k->b * k->h * k->s;
  hr_parallel_for(base->pool, rows, hr_fast_chunk(2 * k->t * k->d), decode_rows, &j);
  return NULL;
}

/* Whether `t` is an f32 tensor of shape [d0, d1, d2, d3]. */
static bool f32_4d(const hr_tensor *t, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
  return hr_fast_is_f32(t) && t->shape.rank == 4 && t->shape.dims[0] == d0 && t->shape.dims[1] == d1 &&
         t->shape.dims[2] == d2 && t->shape.dims[3] == d3;
}

hr_status hr_fast_prepare_attention_decode(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                           const hr_tensor *const *results, hr_fast_kernel **out) {
  if (op->n_operands != 4 || op->n_results != 1 || operands[0]->shape.rank != 4 || operands[1]->shape.rank != 4)
    return NULL;
  const int64_t *x = operands[0]->shape.dims;
  int64_t b = x[0], s = x[1], h = x[2], d = x[3], t = operands[1]->shape.dims[1];
  const hr_tensor *p = operands[3];
  float scale = 0;
  if (!f32_4d(operands[0], b, s, h, d) || !f32_4d(operands[1], b, t, h, d) || !f32_4d(operands[2], b, t, h, d) ||
      !f32_4d(results[0], b, s, h, d) || p->dtype != HR_I32 || p->shape.rank != 1 || p->shape.dims[0] != b ||
      hr_fast_attr_bool(op, "causal", false) || !hr_fast_attr_float(op, "scale", &scale))
    return NULL;
  /* No keys (an empty softmax) or no output: the reference kernel defines those. */
  if (t == 0 || b * s * h * d == 0) return NULL;
  decode_kernel *k = (decode_kernel *)hr_fast_kernel_new(env, sizeof *k, "decode_attention", decode_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing an attention kernel");
  *k = (decode_kernel){.base = k->base, .b = b, .s = s, .t = t, .h = h, .d = d, .scale = scale};
  k->worker_floats = hr_fast_round((size_t)t * sizeof(float)) / sizeof(float);
  k->base.scratch_bytes = k->worker_floats * sizeof(float) * (size_t)k->base.n_workers;
  *out = &k->base;
  return NULL;
}

/* hlorun.attention in the bf16 mode on CPUs with AVX512_BF16 but no AMX (AMD Zen 4 and 5, for
 * one): both matrix products of attention, the scores Q K^T and the output P V, run on the bf16
 * GEMM microkernel (gemm_avx512.c: 14 rows x 32 columns, vdpbf16ps, f32 accumulation), the
 * softmax in f32. The pieces it shares with the AMX kernel are in attention_bf16.h, whose comment
 * gives the semantics.
 *
 * A task is one (batch, head) and a share of its query blocks (every `parts`-th block of QB
 * queries, so that causal shares cost about the same). It first packs the keys and values the
 * share needs as the microkernel's B panels: K^T in panels of 32 keys (D/2 rows of 32 pair words)
 * and V in panels of 32 dims (a row of 32 pair words per two keys). Then, per query block: Q
 * (scaled) to bf16 rows laid out as the microkernel's A panel, and per block of at most KB keys,
 * one row group of the microkernel (14 queries) at a time: the scores S (14 x keys, f32, up to the
 * group's last visible key when causal), the online softmax writing P as A-panel rows, and P V per
 * 32 dims into ot; then O = alpha O + ot. At the end each row of O / l is stored.
 *
 * Needs D a multiple of 32 up to MAX_D, T up to MAX_KEYS and T x D up to MAX_KV; other shapes use
 * the f32 kernel. */
#include "backend/cpu/attention_bf16.h"
#include "backend/cpu/gemm_internal.h"

/* What every function here needs: AVX-512 with AVX512_BF16. */
#define HR_BF16 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512bf16,fma")))

enum {
  QB = 2 * HR_GEMM_MR,  /* queries per block: two row groups of the microkernel */
  KB = HR_ATTN_BF16_KB, /* keys per softmax block */
  PANEL = HR_GEMM_NR,   /* keys per K^T panel and dims per V panel: the microkernel's columns */
  MAX_D = 128,
  MAX_KEYS = 16384, /* longer key sequences use the f32 kernel (the packed K and V grow with T) */
  MAX_KV = 1 << 20, /* T x D at most: the packed K and V of a worker take up to 4 MiB */
};
_Static_assert((int)PANEL == 32 && HR_ATTN_BF16_KPAD % 2 == 0, "K^T panels are 32 keys wide; P rows hold whole pairs");
_Static_assert(MAX_D / 2 <= (int)HR_GEMM_A_STRIDE && KB / 2 <= (int)HR_GEMM_A_STRIDE, "Q and P rows fit an A-panel row");

/* ---- shared with the AMX kernel (attention_bf16.h) ---------------------------------------------- */

int64_t hr_attn_bf16_parts(const hr_attention_shape *a, int64_t block, int n_workers) {
  int64_t n_blocks = (a->s + block - 1) / block, want = 2 * (int64_t)n_workers;
  int64_t parts = (want + a->b * a->h - 1) / (a->b * a->h);
  if (parts > n_blocks) parts = n_blocks;
  return parts < 1 ? 1 : parts;
}

int64_t hr_attn_bf16_share_keys(const hr_attention_shape *a, int64_t block, int64_t parts, int64_t part,
                                int64_t align) {
  int64_t n_blocks = (a->s + block - 1) / block;
  int64_t last = part + (n_blocks - 1 - part) / parts * parts;
  int64_t keys = a->causal && (last + 1) * block < a->t ? (last + 1) * block : a->t;
  return (keys + align - 1) / align * align;
}

/* 32 floats to 16 pair words, each float times `scale`. */
HR_BF16 static inline __m512i bf16_pairs(const float *x, __m512 scale) {
  __m512 lo = _mm512_mul_ps(_mm512_loadu_ps(x), scale), hi = _mm512_mul_ps(_mm512_loadu_ps(x + 16), scale);
  return (__m512i)_mm512_cvtne2ps_pbh(hi, lo);
}

HR_BF16 void hr_attn_bf16_pack_queries(const hr_attention_shape *a, const float *qh, int64_t s0, int rows,
                                       int64_t stride, uint32_t *q) {
  const __m512 scale = _mm512_set1_ps(a->q_scale);
  for (int i = 0; i < rows; i++)
    for (int64_t d0 = 0; d0 < a->d; d0 += 32)
      _mm512_storeu_si512(q + i * stride + d0 / 2, s0 + i < a->s ? bf16_pairs(qh + (s0 + i) * a->q_pos + d0, scale)
                                                                 : _mm512_setzero_si512());
}

/* Per 16 keys and 32 dims: the keys' pair rows, transposed so that each pair of dims becomes a
 * row of 16 keys. */
HR_BF16 void hr_attn_bf16_pack_keys(const hr_attention_shape *a, const float *kh, int64_t n, int width, uint32_t *kt) {
  const __m512 one = _mm512_set1_ps(1.0f);
  for (int64_t key0 = 0; key0 < n; key0 += 16) {
    uint32_t *panel = kt + key0 / width * (a->d / 2) * width + key0 % width;
    for (int64_t d0 = 0; d0 < a->d; d0 += 32) {
      __m512 r[16];
      for (int j = 0; j < 16; j++)
        r[j] = key0 + j < a->t ? (__m512)bf16_pairs(kh + (key0 + j) * a->kv_pos + d0, one) : _mm512_setzero_ps();
      hr_transpose16(r);
      for (int w = 0; w < 16; w++) _mm512_storeu_si512(panel + (d0 / 2 + w) * width, (__m512i)r[w]);
    }
  }
}

HR_BF16 void hr_attn_bf16_pack_values(const hr_attention_shape *a, const float *vh, int64_t n, int width,
                                      uint32_t *vp) {
  for (int64_t key = 0; key < n; key += 2) {
    const float *v0 = vh + key * a->kv_pos, *v1 = v0 + a->kv_pos;
    bool has0 = key < a->t, has1 = key + 1 < a->t;
    for (int64_t d0 = 0; d0 < a->d; d0 += 16) {
      __m512 x0 = has0 ? _mm512_loadu_ps(v0 + d0) : _mm512_setzero_ps();
      __m512 x1 = has1 ? _mm512_loadu_ps(v1 + d0) : _mm512_setzero_ps();
      __m512i lo = _mm512_cvtepu16_epi32((__m256i)_mm512_cvtneps_pbh(x0));
      __m512i hi = _mm512_slli_epi32(_mm512_cvtepu16_epi32((__m256i)_mm512_cvtneps_pbh(x1)), 16);
      uint32_t *row = vp + d0 / width * (n / 2) * width + key / 2 * width + d0 % width;
      _mm512_storeu_si512(row, _mm512_or_si512(lo, hi));
    }
  }
}

HR_BF16 void hr_attn_bf16_softmax(const hr_attention_shape *a, const float *s, int64_t s_stride, uint32_t *p,
                                  int64_t p_stride, int rows, int64_t s0, int64_t key0, int64_t nk, float *m,
                                  float *l, float *alpha) {
  const int64_t width = (nk + HR_ATTN_BF16_KPAD - 1) / HR_ATTN_BF16_KPAD * HR_ATTN_BF16_KPAD;
  const __m512 ninf = _mm512_set1_ps(-__builtin_inff());
  for (int i = 0; i < rows; i++) {
    const float *sr = s + i * s_stride;
    uint32_t *pr = p + i * p_stride;
    int64_t visible = a->causal ? s0 + i - key0 + 1 : nk;
    if (visible > nk) visible = nk;
    if (s0 + i >= a->s || visible <= 0) { /* a padding row, or no key yet: nothing to add */
      for (int64_t j = 0; j < width; j += 32) _mm512_storeu_si512(pr + j / 2, _mm512_setzero_si512());
      alpha[i] = 1.0f;
      continue;
    }
    __m512 mx = ninf;
    for (int64_t j = 0; j < visible; j += 16)
      mx = _mm512_max_ps(mx, _mm512_mask_loadu_ps(ninf, hr_lanes_below(visible - j), sr + j));
    float m_new = _mm512_reduce_max_ps(mx);
    if (m[i] > m_new) m_new = m[i];
    alpha[i] = m[i] == -__builtin_inff() ? 0.0f : _mm512_cvtss_f32(hr_v_exp2_flush(_mm512_set1_ps(m[i] - m_new)));
    __m512 mv = _mm512_set1_ps(m_new), sum = _mm512_setzero_ps();
    for (int64_t j = 0; j < width; j += 32) {
      /* Keys not visible read as -inf, whose probability hr_v_exp2_flush makes exactly 0. */
      __mmask16 lo = hr_lanes_below(visible - j), hi = hr_lanes_below(visible - j - 16);
      __m512 p0 = hr_v_exp2_flush(_mm512_sub_ps(_mm512_mask_loadu_ps(ninf, lo, sr + j), mv));
      __m512 p1 = hr_v_exp2_flush(_mm512_sub_ps(_mm512_mask_loadu_ps(ninf, hi, sr + j + 16), mv));
      sum = _mm512_add_ps(sum, _mm512_add_ps(p0, p1));
      _mm512_storeu_si512(pr + j / 2, (__m512i)_mm512_cvtne2ps_pbh(p1, p0));
    }
    l[i] = l[i] * alpha[i] + _mm512_reduce_add_ps(sum);
    m[i] = m_new;
  }
}

HR_BF16 void hr_attn_bf16_accumulate(const hr_attention_shape *a, float *o, const float *ot, int rows,
                                     const float *alpha, bool first) {
  for (int i = 0; i < rows; i++) {
    __m512 f = _mm512_set1_ps(alpha[i]);
    for (int64_t d0 = 0; d0 < a->d; d0 += 16) {
      __m512 x = _mm512_loadu_ps(ot + i * a->d + d0);
      _mm512_storeu_ps(o + i * a->d + d0, first ? x : _mm512_fmadd_ps(_mm512_loadu_ps(o + i * a->d + d0), f, x));
    }
  }
}

HR_BF16 void hr_attn_bf16_store(const hr_attention_shape *a, const float *o, const float *l, int rows, int64_t s0,
                                float *oh) {
  const int64_t stride = a->h * a->d;
  for (int i = 0; i < rows; i++) {
    __m512 inv = _mm512_set1_ps(1.0f / l[i]);
    for (int64_t d0 = 0; d0 < a->d; d0 += 16)
      _mm512_storeu_ps(oh + (s0 + i) * stride + d0, _mm512_mul_ps(_mm512_loadu_ps(o + i * a->d + d0), inv));
  }
}

/* ---- the AVX512_BF16 kernel --------------------------------------------------------------------- */

typedef struct bf16_attention {
  hr_fast_kernel base;
  hr_attention_shape a;
  const hr_gemm_kernels *mk; /* the bf16 GEMM microkernels */
  int64_t parts;             /* query-block shares per (batch, head) */
  int64_t t_pad;             /* T rounded up to PANEL */
  size_t worker_bytes;
} bf16_attention;

typedef struct bf16_job {
  const bf16_attention *k;
  const float *q, *kk, *v;
  float *o;
  char *scratch;
} bf16_job;

/* One worker's buffers (64-byte aligned), see hr_fast_prepare_attention_bf16 for their sizes. */
typedef struct bf16_buffers {
  uint32_t *kt; /* K^T panels of the task's keys */
  uint32_t *vp; /* V panels of the task's keys */
  uint32_t *q;  /* Q block: QB A-panel rows (HR_GEMM_A_STRIDE words apart) */
  float *s;     /* scores: QB rows of KB */
  uint32_t *p;  /* probabilities: QB A-panel rows */
  float *o, *ot; /* output accumulator and the last P V: QB rows of D */
} bf16_buffers;

/* C rows [0, rows) (ldc floats apart) = the A-panel rows `a` times the B panels at `b`, each
 * `steps` pair rows: the microkernel on row groups of HR_GEMM_MR. */
static void product(const bf16_attention *k, int rows, int64_t steps, const uint32_t *a, const uint32_t *b,
                    int64_t panels, int last_cols, float *c, int64_t ldc) {
  const hr_gemm_prefetch none = {0};
  for (int r = 0; r < rows; r += HR_GEMM_MR) {
    int rr = rows - r < HR_GEMM_MR ? rows - r : HR_GEMM_MR;
    k->mk->panels(rr, steps, a + r * HR_GEMM_A_STRIDE, b, panels, last_cols, c + r * ldc, ldc, false, NULL, &none);
  }
}

/* Query block `qb` of one (batch, head) whose first `keys` keys are packed. Each key block runs
 * per row group of the microkernel (14 queries) from scores to P V, so that the group's scores
 * and probabilities stay in L1, and a causal group stops at its own last visible key. */
static void query_block(const bf16_attention *k, const bf16_buffers *w, int64_t keys, const float *qh, float *oh,
                        int64_t qb) {
  const hr_attention_shape *a = &k->a;
  int64_t s0 = qb * QB, t_end = a->causal && s0 + QB < a->t ? s0 + QB : a->t;
  int rows = a->s - s0 < QB ? (int)(a->s - s0) : QB;
  _Alignas(64) float m[QB], l[QB], alpha[QB];
  for (int i = 0; i < QB; i++) m[i] = -__builtin_inff(), l[i] = 0;
  hr_attn_bf16_pack_queries(a, qh, s0, rows, HR_GEMM_A_STRIDE, w->q);
  for (int64_t key0 = 0; key0 < t_end; key0 += KB) {
    /* The first key block's P V goes straight into O; later ones into ot, then O = alpha O + ot. */
    float *pv = key0 == 0 ? w->o : w->ot;
    for (int r = 0; r < rows; r += HR_GEMM_MR) {
      int rr = rows - r < HR_GEMM_MR ? rows - r : HR_GEMM_MR;
      int64_t end = a->causal && s0 + r + rr < t_end ? s0 + r + rr : t_end;
      int64_t nk = end - key0 < KB ? end - key0 : KB;
      if (nk <= 0) nk = 1; /* no key visible yet in this block: P is all zero */
      int64_t panels = (nk + PANEL - 1) / PANEL;
      product(k, rr, a->d / 2, w->q + r * HR_GEMM_A_STRIDE, w->kt + key0 / PANEL * (a->d / 2) * PANEL, panels,
              (int)(nk - (panels - 1) * PANEL), w->s + r * KB, KB);
      hr_attn_bf16_softmax(a, w->s + r * KB, KB, w->p + r * HR_GEMM_A_STRIDE, HR_GEMM_A_STRIDE, rr, s0 + r, key0, nk,
                           m + r, l + r, alpha + r);
      for (int64_t d0 = 0; d0 < a->d; d0 += PANEL)
        product(k, rr, (nk + 1) / 2, w->p + r * HR_GEMM_A_STRIDE, w->vp + (d0 / PANEL * keys + key0) / 2 * PANEL, 1,
                PANEL, pv + r * a->d + d0, a->d);
    }
    if (key0 > 0) hr_attn_bf16_accumulate(a, w->o, w->ot, rows, alpha, false);
  }
  hr_attn_bf16_store(a, w->o, l, rows, s0, oh);
}

/* Task `task`: share `part` of the query blocks of (batch, head) task / parts. */
static void run_task(const bf16_job *j, int64_t task, const bf16_buffers *w) {
  const bf16_attention *k = j->k;
  const hr_attention_shape *a = &k->a;
  int64_t bh = task / k->parts, part = task % k->parts, b = bh / a->h, h = bh % a->h;
  int64_t n_qb = (a->s + QB - 1) / QB;
  if (part >= n_qb) return;
  int64_t keys = hr_attn_bf16_share_keys(a, QB, k->parts, part, PANEL);
  const float *qh = j->q + b * a->q_batch + h * a->d;
  const float *kh = j->kk + b * a->kv_batch + h * a->d, *vh = j->v + b * a->kv_batch + h * a->d;
  float *oh = j->o + (b * a->s * a->h + h) * a->d;
  hr_attn_bf16_pack_keys(a, kh, keys, PANEL, w->kt);
  hr_attn_bf16_pack_values(a, vh, keys, PANEL, w->vp);
  for (int64_t qb = part; qb < n_qb; qb += k->parts) query_block(k, w, keys, qh, oh, qb);
}

/* One worker's buffers: field, element type, count. */
#define BF16_BUFFERS(X)                     \
  X(kt, uint32_t, k->t_pad * k->a.d / 2)    \
  X(vp, uint32_t, k->t_pad / 2 * k->a.d)    \
  X(q, uint32_t, QB * HR_GEMM_A_STRIDE)     \
  X(s, float, QB * KB)                      \
  X(p, uint32_t, QB * HR_GEMM_A_STRIDE)     \
  X(o, float, QB * k->a.d)                  \
  X(ot, float, QB * k->a.d)

/* The bytes of one worker's buffers, each rounded up to HR_FAST_ALIGN. */
static size_t buffers_size(const bf16_attention *k) {
  size_t bytes = 0;
#define ADD(field, type, count) bytes += hr_fast_round((size_t)(count) * sizeof(type));
  BF16_BUFFERS(ADD)
#undef ADD
  return bytes;
}

/* Carves one worker's buffers out of its scratch. */
static bf16_buffers worker_buffers(const bf16_attention *k, char *base) {
  bf16_buffers w;
#define CARVE(field, type, count)                                                                                   \
  w.field = (type *)base;                                                                                           \
  base += hr_fast_round((size_t)(count) * sizeof(type));
  BF16_BUFFERS(CARVE)
#undef CARVE
  return w;
}

static void bf16_chunk(void *ctx, int64_t begin, int64_t end, int worker) {
  const bf16_job *j = ctx;
  bf16_buffers w = worker_buffers(j->k, j->scratch + (size_t)worker * j->k->worker_bytes);
  for (int64_t task = begin; task < end; task++) run_task(j, task, &w);
}

static hr_status bf16_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                          void *scratch) {
  const bf16_attention *k = (const bf16_attention *)base;
  bf16_job j = {k, hr_attention_q(&k->a, operands), hr_attention_k(&k->a, operands), hr_attention_v(&k->a, operands),
                results[0]->data, scratch};
  hr_parallel_for(base->pool, k->a.b * k->a.h * k->parts, 1, bf16_chunk, &j);
  return NULL;
}

hr_status hr_fast_prepare_attention_bf16(const hr_fast_env *env, const hr_attention_shape *a, hr_fast_kernel **out) {
  if (!env->bf16 || a->d % 32 != 0 || a->d > MAX_D || a->t > MAX_KEYS || a->t * a->d > MAX_KV ||
      !hr_gemm_isa_supported(HR_GEMM_BF16, HR_GEMM_ISA_AVX512))
    return NULL;
  bf16_attention *k = (bf16_attention *)hr_fast_kernel_new(env, sizeof *k, "attention_bf16", bf16_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing an attention kernel");
  *k = (bf16_attention){.base = k->base, .a = *a, .mk = hr_gemm_avx512_kernels(HR_GEMM_BF16)};
  k->t_pad = (a->t + PANEL - 1) / PANEL * PANEL;
  k->parts = hr_attn_bf16_parts(a, QB, k->base.n_workers);
  k->worker_bytes = buffers_size(k);
  k->base.scratch_bytes = k->worker_bytes * (size_t)k->base.n_workers;
  *out = &k->base;
  return NULL;
}

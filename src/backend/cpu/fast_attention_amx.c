/* hlorun.attention in the bf16 mode on CPUs with AMX-BF16: the two matrix products of attention
 * (scores Q K^T and output P V) run on the tile unit with bf16 inputs and f32 accumulation, the
 * softmax in f32 with AVX-512. Same semantics as fast_attention.c (blockwise, online softmax,
 * causal blocks skipped); differs from it by the bf16 rounding of Q (after scaling), K, V and the
 * probabilities P.
 *
 * q, k and v are three operands or the parts of one qkv operand (hr_attention_shape).
 *
 * A task is one (batch, head) and a share of its query blocks (every `parts`-th block of 16
 * queries, so that causal shares cost about the same). It first packs the keys and values the
 * share needs into the layouts tile products read:
 *   - K^T: per 16 keys, D/2 rows (pairs of head dims) of 16 words, word j = the key j's pair of
 *     bf16 (a B tile of the scores: 16 rows of pairs by 16 keys);
 *   - V:   per pair of keys, a row of D words, word d = the two keys' bf16 of dim d (a B tile of
 *     the output: 16 pairs of keys by 16 dims);
 * keys past T are zero. Then, per query block: Q (scaled) to bf16 rows (the A tiles of the
 * scores), and per block of at most KB keys: the scores S (16 x keys, f32) by tiles, the mask,
 * the online softmax row by row writing P as bf16 rows (the A tiles of the output), P V into four
 * accumulator tiles (D = 64), and O = alpha O + P V. At the end each row of O / l is stored.
 *
 * Packing, softmax and output updates are shared with the AVX512_BF16 kernel (attention_bf16.h).
 *
 * Needs D a multiple of 32 up to 64 (at most four output tiles); other shapes use the f32 kernel. */
#include "backend/cpu/amx.h"
#include "backend/cpu/attention_bf16.h"
#include "backend/cpu/gemm_internal.h"

enum {
  QT = 16,              /* queries per block: the rows of a tile */
  KT = 16,              /* keys per score tile (its columns) */
  KC = 32,              /* keys per step of P V (the depth of a tile product) */
  KB = HR_ATTN_BF16_KB, /* keys per softmax block */
  MAX_D = 64,           /* head_dim: a multiple of 32, at most four output tiles */
  MAX_KEYS = 16384,     /* longer key sequences use the f32 kernel (the packed K and V grow with T) */
};
_Static_assert((int)KC == (int)HR_ATTN_BF16_KPAD, "the softmax zero-fills P rows up to whole tile products");

/* Tile registers: C0..C3 accumulate (scores or output), A0/A1 hold Q (the two halves of D) or P,
 * B0/B1 (and A1 while P is in A0) hold K^T or V. */
#define C0 0
#define C1 1
#define C2 2
#define C3 3
#define A0 4
#define A1 5
#define B0 6
#define B1 7

typedef struct amx_attention {
  hr_fast_kernel base;
  hr_attention_shape a;
  int64_t parts;   /* query-block shares per (batch, head) */
  int64_t t_pad;   /* T rounded up to KC */
  size_t worker_bytes;
} amx_attention;

typedef struct amx_job {
  const amx_attention *k;
  const float *q, *kk, *v;
  float *o;
  char *scratch;
} amx_job;

/* One worker's buffers (64-byte aligned), see attention_amx_prepare for their sizes. */
typedef struct amx_buffers {
  uint32_t *kt;  /* K^T tiles: t_pad / KT tiles of D/2 rows x KT words */
  uint32_t *vp;  /* V pairs: t_pad / 2 rows of D words */
  uint32_t *qb;  /* Q block: QT rows of D/2 words (bf16 pairs) */
  float *s;      /* scores: QT rows of KB */
  uint32_t *p;   /* probabilities: QT rows of KB/2 words */
  float *o, *ot; /* output accumulator and the last P V: QT rows of D */
} amx_buffers;

/* ---- one block of keys ------------------------------------------------------------------------ */

/* Scores of the query block against keys [key0, key0 + nk) into s (QT rows of KB): Q (A0, and A1
 * for dims 32..63) times K^T tiles, four score tiles at a time. */
HR_AMX static void block_scores(const amx_attention *k, const amx_buffers *w, int64_t key0, int64_t nk) {
  const int64_t q_stride = k->a.d / 2 * 4, kt_stride = KT * 4, s_stride = KB * 4;
  const bool two = k->a.d == 64;
  HR_TILE_LOAD(A0, w->qb, q_stride);
  if (two) HR_TILE_LOAD(A1, w->qb + 16, q_stride);
  int64_t tiles = (nk + KT - 1) / KT;
  for (int64_t g = 0; g < tiles; g += 4) {
    const uint32_t *kt = w->kt + (key0 / KT + g) * (k->a.d / 2) * KT;
    float *s = w->s + g * KT;
    int64_t n = tiles - g < 4 ? tiles - g : 4;
    /* One score tile: the first 32 dims from B0, the next 32 from B1. */
#define SCORE_TILE(C, i)                                                                                            \
  if ((i) < n) {                                                                                                    \
    HR_TILE_ZERO(C);                                                                                                \
    HR_TILE_LOAD(B0, kt + (i) * (k->a.d / 2) * KT, kt_stride);                                                        \
    HR_TILE_DP(C, A0, B0);                                                                                          \
    if (two) {                                                                                                      \
      HR_TILE_LOAD(B1, kt + ((i) * (k->a.d / 2) + 16) * KT, kt_stride);                                               \
      HR_TILE_DP(C, A1, B1);                                                                                        \
    }                                                                                                               \
    HR_TILE_STORE(C, s + (i) * KT, s_stride);                                                                       \
  }
    SCORE_TILE(C0, 0)
    SCORE_TILE(C1, 1)
    SCORE_TILE(C2, 2)
    SCORE_TILE(C3, 3)
#undef SCORE_TILE
  }
}

/* ot = P V over the block's keys (KC at a time): P rows in A0, V tiles of 16 dims in B0, B1, A1. */
HR_AMX static void block_values(const amx_attention *k, const amx_buffers *w, int64_t key0, int64_t nk) {
  const int64_t p_stride = KB / 2 * 4, v_stride = k->a.d * 4, o_stride = k->a.d * 4;
  const bool four = k->a.d == 64;
  HR_TILE_ZERO(C0);
  HR_TILE_ZERO(C1);
  if (four) {
    HR_TILE_ZERO(C2);
    HR_TILE_ZERO(C3);
  }
  for (int64_t c = 0; c < nk; c += KC) {
    const uint32_t *v = w->vp + (key0 + c) / 2 * k->a.d;
    HR_TILE_LOAD(A0, w->p + c / 2, p_stride);
    HR_TILE_LOAD(B0, v, v_stride);
    HR_TILE_DP(C0, A0, B0);
    HR_TILE_LOAD(B1, v + 16, v_stride);
    HR_TILE_DP(C1, A0, B1);
    if (four) {
      HR_TILE_LOAD(A1, v + 32, v_stride);
      HR_TILE_DP(C2, A0, A1);
      HR_TILE_LOAD(B0, v + 48, v_stride);
      HR_TILE_DP(C3, A0, B0);
    }
  }
  HR_TILE_STORE(C0, w->ot, o_stride);
  HR_TILE_STORE(C1, w->ot + 16, o_stride);
  if (four) {
    HR_TILE_STORE(C2, w->ot + 32, o_stride);
    HR_TILE_STORE(C3, w->ot + 48, o_stride);
  }
}

/* ---- tasks ------------------------------------------------------------------------------------ */

/* Query block `qb` of one (batch, head), its keys and values already packed. */
HR_AMX static void query_block(const amx_attention *k, const amx_buffers *w, const float *qh, float *oh, int64_t qb) {
  int64_t s0 = qb * QT, t_end = k->a.causal && s0 + QT < k->a.t ? s0 + QT : k->a.t;
  int rows = k->a.s - s0 < QT ? (int)(k->a.s - s0) : QT;
  _Alignas(64) float m[QT], l[QT], alpha[QT];
  for (int i = 0; i < QT; i++) m[i] = -__builtin_inff(), l[i] = 0;
  hr_attn_bf16_pack_queries(&k->a, qh, s0, QT, k->a.d / 2, w->qb);
  for (int64_t key0 = 0; key0 < t_end; key0 += KB) {
    int64_t nk = t_end - key0 < KB ? t_end - key0 : KB;
    block_scores(k, w, key0, nk);
    hr_attn_bf16_softmax(&k->a, w->s, KB, w->p, KB / 2, QT, s0, key0, nk, m, l, alpha);
    block_values(k, w, key0, nk);
    hr_attn_bf16_accumulate(&k->a, w->o, w->ot, rows, alpha, key0 == 0);
  }
  hr_attn_bf16_store(&k->a, w->o, l, rows, s0, oh);
}

/* Task `task`: share `part` of the query blocks of (batch, head) task / parts. */
HR_AMX static void run_task(const amx_job *j, int64_t task, const amx_buffers *w) {
  const amx_attention *k = j->k;
  int64_t bh = task / k->parts, part = task % k->parts, b = bh / k->a.h, h = bh % k->a.h;
  int64_t n_qb = (k->a.s + QT - 1) / QT;
  if (part >= n_qb) return;
  int64_t keys = hr_attn_bf16_share_keys(&k->a, QT, k->parts, part, KC);
  const float *qh = j->q + b * k->a.q_batch + h * k->a.d;
  const float *kh = j->kk + b * k->a.kv_batch + h * k->a.d, *vh = j->v + b * k->a.kv_batch + h * k->a.d;
  float *oh = j->o + (b * k->a.s * k->a.h + h) * k->a.d;
  hr_attn_bf16_pack_keys(&k->a, kh, keys, KT, w->kt);
  hr_attn_bf16_pack_values(&k->a, vh, keys, (int)k->a.d, w->vp);
  static const uint8_t full[8] = {HR_TILE_ROWS, HR_TILE_ROWS, HR_TILE_ROWS, HR_TILE_ROWS,
                                  HR_TILE_ROWS, HR_TILE_ROWS, HR_TILE_ROWS, HR_TILE_ROWS};
  hr_amx_load_config(full); /* all eight tiles full: 16 rows of 64 bytes */
  for (int64_t qb = part; qb < n_qb; qb += k->parts) query_block(k, w, qh, oh, qb);
  _tile_release();
}

/* Carves one worker's buffers out of its scratch. */
static amx_buffers worker_buffers(const amx_attention *k, char *base) {
  amx_buffers w;
  size_t off = 0;
#define CARVE(field, type, count)                                                                                   \
  w.field = (type *)(base + off);                                                                                   \
  off += hr_fast_round((size_t)(count) * sizeof(type));
  CARVE(kt, uint32_t, k->t_pad * k->a.d / 2)
  CARVE(vp, uint32_t, k->t_pad / 2 * k->a.d)
  CARVE(qb, uint32_t, QT * k->a.d / 2)
  CARVE(s, float, QT * KB)
  CARVE(p, uint32_t, QT * KB / 2)
  CARVE(o, float, QT * k->a.d)
  CARVE(ot, float, QT * k->a.d)
#undef CARVE
  return w;
}

static void amx_chunk(void *ctx, int64_t begin, int64_t end, int worker) {
  const amx_job *j = ctx;
  amx_buffers w = worker_buffers(j->k, j->scratch + (size_t)worker * j->k->worker_bytes);
  for (int64_t task = begin; task < end; task++) run_task(j, task, &w);
}

static hr_status amx_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                         void *scratch) {
  const amx_attention *k = (const amx_attention *)base;
  amx_job j = {k, hr_attention_q(&k->a, operands), hr_attention_k(&k->a, operands), hr_attention_v(&k->a, operands),
               results[0]->data, scratch};
  hr_parallel_for(base->pool, k->a.b * k->a.h * k->parts, 1, amx_chunk, &j);
  return NULL;
}

hr_status hr_fast_prepare_attention_amx(const hr_fast_env *env, const hr_attention_shape *a, hr_fast_kernel **out) {
  const int64_t t = a->t, d = a->d;
  if (!env->bf16 || d % 32 != 0 || d > MAX_D || !hr_cpu_amx_enable()) return NULL;
  /* The scratch holds all T keys and values per worker: at most 2 MiB each (MAX_KEYS x 64 bf16). */
  if (t > MAX_KEYS) return NULL;
  amx_attention *k = (amx_attention *)hr_fast_kernel_new(env, sizeof *k, "attention_amx", amx_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing an attention kernel");
  *k = (amx_attention){.base = k->base, .a = *a};
  k->t_pad = (t + KC - 1) / KC * KC;
  k->parts = hr_attn_bf16_parts(a, QT, k->base.n_workers);
  k->worker_bytes = hr_fast_round((size_t)(k->t_pad * d / 2) * 4) * 2 + hr_fast_round((size_t)QT * d / 2 * 4) +
                    hr_fast_round((size_t)QT * KB * 4) + hr_fast_round((size_t)QT * KB / 2 * 4) +
                    2 * hr_fast_round((size_t)QT * d * 4);
  k->base.scratch_bytes = k->worker_bytes * (size_t)k->base.n_workers;
  *out = &k->base;
  return NULL;
}

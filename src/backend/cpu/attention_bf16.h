/* What the two bf16 attention kernels share (fast_attention_bf16.c, whose matrix products are
 * AVX512_BF16 dot products; fast_attention_amx.c, whose products run on AMX tiles): packing Q, K
 * and V into bf16 pairs, the online softmax of a block of score rows, and the output updates.
 * Both follow fast_attention.c (blockwise, online softmax, causal blocks skipped) and differ from
 * it by the bf16 rounding of Q (after scaling), K, V and the probabilities P.
 *
 * A "pair" word holds two bf16 values, the first in its low half (the operand layout of vdpbf16ps
 * and tdpbf16ps). Every function needs AVX512_BF16; the head dimension D is a multiple of 32. */
#ifndef HLORUN_BACKEND_CPU_ATTENTION_BF16_H
#define HLORUN_BACKEND_CPU_ATTENTION_BF16_H

#include "backend/cpu/fast_internal.h"

/* Keys per softmax block, and the multiple of keys P rows are zero-filled up to. */
enum { HR_ATTN_BF16_KB = 256, HR_ATTN_BF16_KPAD = 32 };

/* Both kernels split the query blocks (of `block` queries) of each (batch, head) into shares: share
 * `part` of `parts` takes every parts-th block from block `part`, so that causal shares cost about
 * the same. The shares per (batch, head): enough for two tasks per worker, at least one block each. */
int64_t hr_attn_bf16_parts(const hr_attention_shape *a, int64_t block, int n_workers);

/* The keys share `part` of `parts` needs (those its last block sees), rounded up to `align`. */
int64_t hr_attn_bf16_share_keys(const hr_attention_shape *a, int64_t block, int64_t parts, int64_t part,
                                int64_t align);

/* Query rows [s0, s0 + rows) of one (batch, head) from `qh` (row i at qh + i * q_pos), times
 * q_scale (the scores come out in base 2), as D/2 pair words each: row i at q + i * stride words.
 * Rows at or past S are zero. */
void hr_attn_bf16_pack_queries(const hr_attention_shape *a, const float *qh, int64_t s0, int rows, int64_t stride,
                               uint32_t *q);

/* K^T of keys [0, n) of one (batch, head) (n a multiple of `width`, which is 16 or 32): per
 * `width` keys a panel of D/2 rows (pairs of head dims) of `width` words, word j of row r = key j's
 * dims (2r, 2r + 1). Keys at or past T are zero. */
void hr_attn_bf16_pack_keys(const hr_attention_shape *a, const float *kh, int64_t n, int width, uint32_t *kt);

/* V of keys [0, n) of one (batch, head) (n even) in panels of `width` dims (a multiple of 16
 * dividing D), each n/2 rows of `width` words: word d of row r of panel p = key 2r's and key
 * 2r + 1's dim p * width + d. Keys at or past T are zero. */
void hr_attn_bf16_pack_values(const hr_attention_shape *a, const float *vh, int64_t n, int width, uint32_t *vp);

/* The online softmax of the score rows (in base 2: probabilities are powers of two) of queries
 * s0 + i, i < rows, against keys [key0, key0 + nk): row i of the scores at s + i * s_stride
 * floats. Keys after a query (causal) and rows at or past S get zero probabilities. Writes P as
 * pair words (row i at p + i * p_stride words, zero up to the next multiple of HR_ATTN_BF16_KPAD
 * keys), updates the running maximum m and sum l, and sets alpha[i] = 2^(m_old - m_new), the
 * factor for the output accumulated so far. */
void hr_attn_bf16_softmax(const hr_attention_shape *a, const float *s, int64_t s_stride, uint32_t *p,
                          int64_t p_stride, int rows, int64_t s0, int64_t key0, int64_t nk, float *m, float *l,
                          float *alpha);

/* o = alpha o + ot (o = ot when `first`), rows [0, rows) of D floats each. */
void hr_attn_bf16_accumulate(const hr_attention_shape *a, float *o, const float *ot, int rows, const float *alpha,
                             bool first);

/* Output rows [s0, s0 + rows) of one (batch, head) at `oh` (row stride H * D) = o / l. */
void hr_attn_bf16_store(const hr_attention_shape *a, const float *o, const float *l, int rows, int64_t s0, float *oh);

#endif

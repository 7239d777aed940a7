/* Fusion: rewrites a specialized module so that the work of a transformer runs as few, large
 * kernels, introducing the hlorun.* ops of docs/fast-cpu.md. */
#ifndef HLORUN_COMPILER_FUSE_H
#define HLORUN_COMPILER_FUSE_H

#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* The fusions, as bits of hr_fuse_options.disable. */
enum {
  HR_FUSE_ATTENTION = 1u << 0,   /* dot_general / mask / softmax / dot_general / transpose -> hlorun.attention */
  HR_FUSE_SOFTMAX = 1u << 1,     /* the softmax subgraph -> hlorun.softmax */
  HR_FUSE_LAYER_NORM = 1u << 2,  /* flax LayerNorm (fast or two-pass variance) -> hlorun.layer_norm */
  HR_FUSE_MATMUL = 1u << 3,      /* dot_general by a weight or constant -> hlorun.matmul */
  HR_FUSE_EPILOGUE = 1u << 4,    /* elementwise consumers of a matmul into its epilogue */
  HR_FUSE_ELEMENTWISE = 1u << 5, /* remaining elementwise chains -> hlorun.fused */
  HR_FUSE_QKV = 1u << 6,         /* self-attention's q, k, v projections -> one hlorun.matmul */
};

/* What a fusion run did (for tests, tools and measurements). */
typedef struct hr_fuse_stats {
  int ops_before, ops_after; /* top-level ops of main, the return included */
  int matmul;                /* hlorun.matmul ops created ... */
  int epilogue_ops;          /* ... and the elementwise ops moved into their epilogues */
  int layer_norm, softmax, attention;
  int qkv;                   /* attentions whose q, k and v projections became one matmul */
  int fused;                 /* hlorun.fused ops created ... */
  int fused_ops;             /* ... and the elementwise ops moved into them */
} hr_fuse_stats;

typedef struct hr_fuse_options {
  const hr_allocator *allocator; /* scratch memory; NULL: default */
  /* One entry per parameter of main: the tensor bound to it (a weight) or NULL for a runtime
   * input. hlorun.matmul's b must be a bound parameter or a constant (it is packed once when the
   * executable is created). NULL: no parameter is bound. */
  const hr_tensor *const *bound;
  int n_bound;            /* entries of `bound` */
  unsigned disable;       /* HR_FUSE_* bits of the fusions to skip */
  /* The q|k|v merge joins weights with stablehlo.concatenate, which an executable computes once
   * (folds) only up to a size: larger joined weights are not made. 0: no limit. */
  size_t max_joined_bytes;
  hr_fuse_stats *stats;   /* optional out */
} hr_fuse_options;

/* Fuses function "main" of a specialized module (see hr_specialize: static shapes, no calls) in
 * place; only its top-level ops are considered (ops nested in regions stay as they are). The
 * fusions run in this order, each over the result of the previous one:
 *   1. attention:   dot_general(q [B,S,H,D] (optionally times / divided by a scalar), k [B,T,H,D])
 *                   -> select(causal mask, scores, fill <= -1e9) (or no select: not causal)
 *                   -> softmax over T -> dot_general(p, v [B,T,H,D]) -> transpose [0,2,1,3]
 *                   becomes hlorun.attention {scale, causal}. The mask must be provably
 *                   "t <= s" (or its complement with the select's operands swapped): iota/compare
 *                   ops, broadcasts and constants are checked element by element.
 *                   A decode step's mask "t <= position[b]" (an index tensor compared with an
 *                   i32 vector [B] broadcast along the batch) gives
 *                   hlorun.attention(q, k, v, position) {causal = false} instead.
 *   2. softmax:     reduce max (init -inf) / subtract / exponential / reduce add (init 0) /
 *                   divide over the last dimension becomes hlorun.softmax.
 *   3. layer_norm:  flax's LayerNorm subgraph (mean by reduce add / D, variance either
 *                   max(0, E[x^2] - E[x]^2) or E[(x - mean)^2], + epsilon, rsqrt, times scale
 *                   [D], plus bias [D], both broadcast or folded as above) becomes
 *                   hlorun.layer_norm {epsilon}.
 *   4. matmul:      dot_general (or dot) of a [..., K] f32 (rank >= 2, last dimension
 *                   contracted, no batch dimensions) with b [K, N] ([N, K]: transpose_b) that is
 *                   a bound parameter or a constant (or a transpose of one) becomes hlorun.matmul;
 *                   its epilogue then absorbs the elementwise ops that follow as long as only
 *                   their final result is used elsewhere, taking as epilogue operands scalars,
 *                   per-column [N] vectors (broadcasts of biases, or constants whose rows are
 *                   all equal: folded broadcasts) and full-shape tensors (residuals); splat
 *                   constants become constants of the epilogue.
 *   5. qkv:         the three projections of a self-attention (hlorun.matmul ops reading the same
 *                   a, weights of one shape, identity bodies or one bias add each, each result
 *                   used only by a reshape [B, S, H*D] -> [B, S, H, D] feeding the attention)
 *                   become one hlorun.matmul by the concatenated weights (and biases, bound
 *                   parameters or constants, joined weights at most max_joined_bytes), whose
 *                   result, reshaped to [B, S, 3, H, D], is the attention's single operand.
 *   6. elementwise: remaining chains of elementwise f32 ops (with their broadcast_in_dim
 *                   producers and splat constants) become hlorun.fused when that removes at
 *                   least one intermediate tensor.
 * Each rewrite checks every operand, dimension and constant it relies on; anything else is left
 * as it is. Ops made dead (and any other dead op) are removed and values renumbered. The elementwise ops fusions move
 * into bodies are add, subtract, multiply, divide, maximum, minimum, power, negate, abs, sign,
 * floor, ceil, exponential, exponential_minus_one, log, log_plus_one, logistic, tanh, sqrt,
 * rsqrt, sine, cosine, clamp and chlo.erf, on f32.
 *
 * Linear in the module size, but for the element-by-element checks of mask constants (linear in
 * their size). The result is verified; on error `m` is still a valid module, possibly partly
 * fused. */
hr_status hr_fuse(hr_module *m, const hr_fuse_options *o);

#endif /* HLORUN_COMPILER_FUSE_H */

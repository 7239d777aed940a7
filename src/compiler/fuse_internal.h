/*
 * Internal interface of the fusion pass (hr_fuse, fuse.h).
 *
 * The pass works on a "graph": the top-level ops of main with, per value, its defining op's
 * position, its number of uses and the positions of the ops using it (uses inside nested regions
 * count as uses by the top-level op holding them). Each fusion scans the graph, matches its
 * pattern, builds the new op (with new values and its body) in the module's arena, and records a
 * replacement (the pattern's final value -> the new op's result) and an insertion (the new op
 * goes just before the pattern's last op). Nothing existing changes until the commit, which
 * rewrites every operand through the replacements, inserts the new ops, removes dead ops,
 * renumbers the values and rebuilds the graph for the next fusion. Files:
 *   fuse.c             entry point: options, the order of the fusions, verification
 *   fuse_graph.c       the graph, replacements, insertions and the commit
 *   fuse_build.c       new ops, attributes and scalar bodies in the module's arena
 *   fuse_match.c       matchers shared by the fusions: constants, broadcasts, reductions, uses
 *   fuse_softmax.c     hlorun.softmax (also used by fuse_attention.c)
 *   fuse_attention.c   hlorun.attention, with the causal mask analysis
 *   fuse_layer_norm.c  hlorun.layer_norm
 *   fuse_matmul.c      hlorun.matmul and its epilogue
 *   fuse_qkv.c         self-attention's q, k, v projections as one hlorun.matmul
 *   fuse_elementwise.c hlorun.fused
 */
#ifndef HLORUN_COMPILER_FUSE_INTERNAL_H
#define HLORUN_COMPILER_FUSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/fuse.h"
#include "ir/ir.h"

/* Most ops one pattern or one body holds (bounds the quadratic checks on small sets). */
#define HF_MAX_PATTERN 64

/* A new op waiting to be inserted before the op at position `pos`. */
typedef struct hf_insert {
  int pos;
  int seq; /* creation order, to keep insertions at one position in order */
  hr_op *op;
} hf_insert;

typedef struct hf_graph {
  hr_module *m;
  hr_func *fn;
  const hr_allocator *heap;
  const hr_fuse_options *opts;
  hr_fuse_stats stats;
  uint32_t n_ids; /* ids handed out so far (new values get ids >= cap) */
  uint32_t cap;   /* value ids the per-value arrays cover */
  int n_ops;      /* top-level ops (fn->body.ops), the return last */
  int32_t *pos;         /* per value id: position of its top-level defining op, -1 otherwise */
  uint32_t *n_uses;     /* per value id: operand slots reading it */
  uint32_t *user_start; /* per value id: its users in users[user_start[id] .. user_start[id + 1]) */
  int32_t *users;       /* positions of the ops reading each value, once per operand slot */
  hr_value **repl;      /* per value id: the value replacing it at the commit, or NULL */
  bool *claimed;        /* per position: the op belongs to a pattern of the current fusion */
  hf_insert *inserts;
  size_t n_inserts, inserts_cap;
} hf_graph;

/* A small set of top-level ops (a pattern), each op listed once. */
typedef struct hf_ops {
  int n;
  const hr_op *ops[HF_MAX_PATTERN];
} hf_ops;

/* ---- fuse_graph.c --------------------------------------------------------------------- */

/* An out-of-memory error. */
hr_status hf_oom(void);
/* Sets up the graph of m's "main" (which must exist) and analyses it. */
hr_status hf_graph_init(hf_graph *g, hr_module *m, const hr_fuse_options *opts);
void hf_graph_release(hf_graph *g);
/* Applies the recorded replacements and insertions, removes dead ops, renumbers the values and
 * analyses the result. */
hr_status hf_commit(hf_graph *g);
/* Records that every use of `old` (a value of the graph) reads `with` after the commit. */
void hf_replace(hf_graph *g, const hr_value *old, hr_value *with);
/* Records that `op` (new) goes just before the op at position `pos`. */
hr_status hf_insert_before(hf_graph *g, int pos, hr_op *op);
/* The top-level op at `pos`. */
hr_op *hf_op_at(const hf_graph *g, int pos);
/* Position of the top-level op defining `v`; -1 for parameters and values created since the
 * last analysis. */
int hf_pos_of(const hf_graph *g, const hr_value *v);
/* Number of operand slots reading `v` (0 for values created since the last analysis). */
uint32_t hf_uses(const hf_graph *g, const hr_value *v);
/* The positions of the ops reading `v` (one per operand slot) and their number. */
const int32_t *hf_users(const hf_graph *g, const hr_value *v, uint32_t *n);
/* Whether parameter `v` of main is bound to a weight. */
bool hf_is_weight(const hf_graph *g, const hr_value *v);

/* ---- fuse_build.c --------------------------------------------------------------------- */

/* A scalar body (the region of hlorun.matmul / hlorun.fused) under construction. */
typedef struct hf_body {
  hr_block *block;
  hr_op **ops; /* heap vector, moved into the arena by hf_body_finish */
  int n, cap;
} hf_body;

/* tensor<f32>. */
hr_type hf_scalar_f32(void);
/* Creates a top-level op of main with one result of type `t`, placed where `at` is (source
 * position), reading `operands` (copied). The op is not inserted anywhere yet. */
hr_status hf_new_op(hf_graph *g, hr_opcode code, const hr_op *at, hr_value *const *operands, int n_operands,
                    const hr_type *t, hr_op **out);
/* Creates a top-level stablehlo.constant of static type `t` holding `nbytes` of `data` (one
 * element when `splat`), copied into the module; not inserted anywhere yet. */
hr_status hf_new_constant(hf_graph *g, const hr_op *at, const hr_type *t, const void *data, size_t nbytes, bool splat,
                          hr_op **out);
/* Adds attribute `name` (a string literal) to a new op. */
hr_status hf_set_attr(hf_graph *g, hr_op *op, const char *name, hr_attr *value);
hr_status hf_attr_bool(hf_graph *g, bool v, hr_attr **out);
hr_status hf_attr_f32(hf_graph *g, float v, hr_attr **out);
/* An array<i64: ...> attribute. */
hr_status hf_attr_i64s(hf_graph *g, const int64_t *v, int n, hr_attr **out);
/* A list attribute of `n` items (filled by the caller). */
hr_status hf_attr_list(hf_graph *g, int n, hr_attr **out);
/* Gives `op` one region taking `n_args` tensor<f32> arguments and starts building its body. */
hr_status hf_body_begin(hf_graph *g, hr_op *op, int n_args, hf_body *b);
/* Appends to the body a copy of elementwise op `src` (attributes shared) reading `operands`
 * (values of the body); *out receives its tensor<f32> result. */
hr_status hf_body_clone(hf_graph *g, hf_body *b, const hr_op *src, hr_value *const *operands, hr_value **out);
/* Appends a tensor<f32> constant; *out receives its value. */
hr_status hf_body_constant(hf_graph *g, hf_body *b, const hr_op *at, float v, hr_value **out);
/* Ends the body with a stablehlo.return of `result`. */
hr_status hf_body_finish(hf_graph *g, hf_body *b, const hr_op *at, hr_value *result);
/* Frees the vector of an unfinished body. */
void hf_body_release(hf_graph *g, hf_body *b);

/* ---- fuse_match.c --------------------------------------------------------------------- */

/* Frees `s` and tells whether it was a success (for lookups whose failure only means "no"). */
bool hf_ok(hr_status s);
/* The op defining `v` when it is a `code` op of main's body; NULL otherwise. */
const hr_op *hf_def(const hf_graph *g, const hr_value *v, hr_opcode code);
/* Whether `v` is a statically shaped f32 tensor. */
bool hf_is_f32(const hr_value *v);
/* Whether two values have equal tensor types. */
bool hf_same_type(const hr_value *a, const hr_value *b);
/* Whether `v` holds one f32 value everywhere: a splat (or uniform) f32 constant, or a
 * broadcast_in_dim or reshape of one; *out receives the value. */
bool hf_splat_f32(const hf_graph *g, const hr_value *v, float *out);
/* Whether `v` is a splat f32 equal to `want` (+0 and -0 both match 0). */
bool hf_is_splat(const hf_graph *g, const hr_value *v, float want);
/* Whether `op` is a reshape that only adds or removes dimensions of size 1. */
bool hf_is_unit_reshape(const hr_op *op);
/* `v` without reshapes that only add or remove dimensions of size 1; the reshapes go into `p`
 * unless it is NULL (stripping stops when `p` is full). */
hr_value *hf_strip_unit_reshapes(const hf_graph *g, hr_value *v, hf_ops *p);
/* Whether `op` is a single-input reduce over exactly dimension `dim` whose body applies
 * `body_code` to its two arguments, with a splat f32 init equal to `init`. */
bool hf_is_reduce(const hf_graph *g, const hr_op *op, hr_opcode body_code, float init, int64_t dim);
/* When `v` is broadcast_in_dim(s) replicating s along the last dimension only (s of shape
 * v[:-1], or v[:-1] + [1]), adds the broadcast and the reshapes stripped from s to `p` and
 * returns s without unit reshapes; NULL otherwise. */
hr_value *hf_row_source(const hf_graph *g, const hr_value *v, hf_ops *p);
/* When `v` is broadcast_in_dim(s) of a vector along the last dimension (every other dimension
 * of s has size 1, s has as many elements as that dimension), returns s; when `v` is an f32
 * constant whose rows along the last dimension are all equal (a folded broadcast), returns v;
 * NULL otherwise. */
hr_value *hf_column_source(const hf_graph *g, hr_value *v);
/* The [n] vector equal to the first n elements (row-major) of column source `s`: s itself or the
 * operand of its unit reshapes when that has rank 1, else a new constant (s a constant) or reshape
 * inserted before position `pos`. */
hr_status hf_column_vector(hf_graph *g, hr_value *s, int64_t n, int pos, hr_value **out);
/* Whether `op` is an elementwise f32 op fusions may move into a body: one of the codes listed
 * in fuse.h, a static f32 result, f32 operands of the result's shape (clamp: or rank 0). */
bool hf_fusable(const hr_op *op);
/* The dimension numbers of a dot_general. */
typedef struct hf_dot_dims {
  int n_batch, n_contract; /* lhs and rhs lists of each kind have equal lengths */
  int64_t lhs_batch[HR_MAX_RANK], rhs_batch[HR_MAX_RANK], lhs_contract[HR_MAX_RANK], rhs_contract[HR_MAX_RANK];
} hf_dot_dims;
/* Reads the dimension numbers of dot_general `op`; false when they are malformed. */
bool hf_dot_dims_of(const hr_op *op, hf_dot_dims *d);
/* Whether list[0..n) equals want[0..n_want). */
bool hf_list_is(const int64_t *list, int n, const int64_t *want, int n_want);
/* Adds `op` to a pattern unless present; false when the pattern is full. */
bool hf_ops_add(hf_ops *p, const hr_op *op);
/* Whether the pattern `p` holds `op`. */
bool hf_ops_has(const hf_ops *p, const hr_op *op);
/* Whether every result of every op of `p` but `root` is read only by ops of `p`. */
bool hf_ops_closed(const hf_graph *g, const hf_ops *p, const hr_op *root);
/* The operand of binary op `op` other than operand `i`. */
hr_value *hf_other(const hr_op *op, int i);

/* ---- the fusions ------------------------------------------------------------------------ */

/* fuse_softmax.c: when `y` is the result of the softmax subgraph over its last dimension, adds
 * its ops to `p` and returns its input; NULL otherwise (`p` may have grown). */
hr_value *hf_match_softmax(const hf_graph *g, const hr_value *y, hf_ops *p);

hr_status hf_fuse_softmax(hf_graph *g);
hr_status hf_fuse_attention(hf_graph *g);
hr_status hf_fuse_layer_norm(hf_graph *g);
hr_status hf_fuse_matmul(hf_graph *g);
hr_status hf_fuse_qkv(hf_graph *g);
hr_status hf_fuse_elementwise(hf_graph *g);

#endif /* HLORUN_COMPILER_FUSE_INTERNAL_H */

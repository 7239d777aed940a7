/* Matrix products and their epilogues (by a weight or constant, packed once; or by a value of
 * the run, packed per run, when the product is large enough: MIN_ROWS_UNPACKED):
 *
 *   %c = dot_general %a, %b, contracting_dims = [r - 1] x [0]      (a [..., K], b [K, N])
 *   %d = add %c, broadcast_in_dim(%bias)                           (per-column [N])
 *   ... GELU ...                                                   (elementwise ops)
 *   %y = add %x, %residual                                         (full shape)
 *
 * becomes %y = "hlorun.matmul"(%a, %b, %bias, %residual) ({epilogue}). b contracting dimension 1
 * ([N, K]) sets transpose_b; so does a b that is transpose(w, [1, 0]) of a weight or constant w
 * (then w is used directly). A b that is a unit-stride slice of a matrix w (a shard of a weight,
 * as a shard_map body takes it) reads w through b_window = [row0, col0, rows, cols] instead: no
 * copy per run, and a slice of a weight is packed once like the weight. stablehlo.dot of two
 * rank-2 operands is accepted too.
 *
 * The epilogue grows from the product in program order: the next op reading a value of the
 * epilogue is absorbed when it is a fusable elementwise op (fuse.h) producing the product's shape
 * whose other operands are splat constants (moved into the body), rank-0 values, per-column
 * vectors (broadcasts of [N] values, constants with equal rows) or full-shape values. Growth stops at the first op that does
 * not qualify; since everything before it was examined, no operand taken from outside can depend
 * on the epilogue. It then shrinks to the longest prefix in which only the last value is used
 * outside the epilogue. */
#include <string.h>

#include "compiler/fuse_internal.h"

/* When a right operand known only at run time (activations times activations, or a weight given
 * as an input: one shard per device in an SPMD program) is fused: at least MIN_ROWS_UNPACKED lhs
 * rows and MIN_MACS_UNPACKED multiply-adds. The GEMM then packs it per run (hr_gemm_unpacked_into),
 * K x N copied once for M x K x N multiply-adds, which pays from a few rows on; smaller products
 * stay with the reference kernel, as fast there and equal to the interpreter bit for bit (the GEMM
 * sums in another order, with fused multiply-adds). */
enum { MIN_ROWS_UNPACKED = 16, MIN_MACS_UNPACKED = 1 << 20 };

/* Body arguments, constants and values one epilogue may need at most. */
#define MAX_MAP (5 * HF_MAX_PATTERN)

/* How an epilogue op reads a value from outside the epilogue. */
typedef enum ext_kind { EXT_NONE, EXT_CONSTANT, EXT_SCALAR, EXT_COLUMN, EXT_FULL } ext_kind;

typedef struct ext {
  ext_kind kind;
  hr_value *source; /* SCALAR: the rank-0 value; COLUMN: the broadcast's source; FULL: the value */
  float constant;   /* CONSTANT: the splat value */
} ext;

/* The product and the ops absorbed so far. */
typedef struct epilogue {
  const hr_op *dot;
  int dot_pos;
  hr_value *a, *b;
  bool transpose_b;
  bool windowed;     /* b is read through window (b_window) */
  int64_t window[4]; /* row0, col0, rows, cols of b */
  int n;
  const hr_op *ops[HF_MAX_PATTERN];
  int pos[HF_MAX_PATTERN];
} epilogue;

/* ---------------------------------------------------------------------------------------------- */
/* The product                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Whether `v` is known when the executable is created: a bound parameter or a constant. */
static bool is_fixed(const hf_graph *g, const hr_value *v) {
  return hf_is_weight(g, v) || hf_def(g, v, HR_OP_CONSTANT);
}

/* Rows of the lhs (the product of its dimensions but the last), 0 when one is dynamic. */
static int64_t lhs_rows(const hr_value *a) {
  int64_t rows = 1;
  for (int d = 0; d + 1 < a->type.shape.rank; d++) {
    int64_t n = a->type.shape.dims[d];
    if (n < 0 || (n > 0 && rows > INT64_MAX / n)) return 0;
    rows *= n;
  }
  return rows;
}

/* Whether a product of `a` by a run-time `b` is large enough to fuse (see MIN_ROWS_UNPACKED). */
static bool worth_packing_per_run(const hr_value *a, const hr_value *b) {
  int64_t rows = lhs_rows(a), k = b->type.shape.dims[0], n = b->type.shape.dims[1], macs;
  return rows >= MIN_ROWS_UNPACKED && k > 0 && n > 0 && !__builtin_mul_overflow(rows, k, &macs) &&
         !__builtin_mul_overflow(macs, n, &macs) && macs >= MIN_MACS_UNPACKED;
}

/* Whether `v` is transpose(w, [1, 0]). */
static bool is_matrix_transpose(const hf_graph *g, const hr_value *v) {
  const hr_op *op = hf_def(g, v, HR_OP_TRANSPOSE);
  int64_t perm[HR_MAX_RANK];
  int n;
  static const int64_t swap[] = {1, 0};
  return op && hf_ok(hr_op_attr_i64_list(op, "permutation", perm, HR_MAX_RANK, &n)) && hf_list_is(perm, n, swap, 2);
}

/* Whether `v` is slice(w) of a matrix w with unit strides; `window` is then its place in w. */
static bool is_matrix_window(const hf_graph *g, const hr_value *v, int64_t window[4]) {
  const hr_op *op = hf_def(g, v, HR_OP_SLICE);
  int64_t start[HR_MAX_RANK], limit[HR_MAX_RANK], strides[HR_MAX_RANK];
  int ns = 0, nl = 0, nt = 0;
  static const int64_t unit[] = {1, 1};
  if (!op || op->operands[0]->type.shape.rank != 2 ||
      !hf_ok(hr_op_attr_i64_list(op, "start_indices", start, HR_MAX_RANK, &ns)) ||
      !hf_ok(hr_op_attr_i64_list(op, "limit_indices", limit, HR_MAX_RANK, &nl)) ||
      !hf_ok(hr_op_attr_i64_list(op, "strides", strides, HR_MAX_RANK, &nt)) || ns != 2 || nl != 2 ||
      !hf_list_is(strides, nt, unit, 2))
    return false;
  for (int d = 0; d < 2; d++) {
    window[d] = start[d];
    window[2 + d] = limit[d] - start[d];
  }
  return true;
}

/* Whether `op` is a product a [..., K] . b [K, N] (or [N, K]) this fusion handles; fills a, b,
 * transpose_b and the window of `e`. */
static bool match_product(const hf_graph *g, const hr_op *op, epilogue *e) {
  if ((op->code != HR_OP_DOT_GENERAL && op->code != HR_OP_DOT) || op->n_operands != 2 || op->n_results != 1)
    return false;
  hr_value *a = op->operands[0], *b = op->operands[1];
  const hr_value *y = &op->results[0];
  int rank = a->type.shape.rank;
  if (!hf_is_f32(a) || !hf_is_f32(b) || !hf_is_f32(y) || rank < 2 || b->type.shape.rank != 2) return false;
  bool transposed = false;
  if (op->code == HR_OP_DOT_GENERAL) {
    hf_dot_dims d;
    if (!hf_dot_dims_of(op, &d) || d.n_batch != 0 || d.n_contract != 1 || d.lhs_contract[0] != rank - 1 ||
        (d.rhs_contract[0] != 0 && d.rhs_contract[0] != 1))
      return false;
    transposed = d.rhs_contract[0] == 1;
  } else if (rank != 2) {
    return false;
  }
  if (!is_fixed(g, b) && is_matrix_transpose(g, b) && is_fixed(g, b->def->operands[0])) {
    b = b->def->operands[0];
    transposed = !transposed;
  }
  e->windowed = !is_fixed(g, b) && is_matrix_window(g, b, e->window);
  hr_value *source = e->windowed ? b->def->operands[0] : b;
  if (!is_fixed(g, source) && !worth_packing_per_run(a, b)) return false;
  hr_shape want = a->type.shape;
  want.dims[rank - 1] = b->type.shape.dims[transposed ? 0 : 1];
  hr_type t = hr_tensor_type(HR_F32, want.rank, want.dims);
  if (!hr_type_equal(&t, &y->type) || a->type.shape.dims[rank - 1] != b->type.shape.dims[transposed ? 1 : 0])
    return false;
  e->a = a;
  e->b = source;
  e->transpose_b = transposed;
  return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Growing the epilogue                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* The result of the product (i < 0) or of absorbed op i. */
static const hr_value *value_of(const epilogue *e, int i) {
  return i < 0 ? &e->dot->results[0] : &e->ops[i]->results[0];
}

/* Whether `v` is the product or the result of one of the first `n` absorbed ops. */
static bool inside(const epilogue *e, int n, const hr_value *v) {
  for (int i = -1; i < n; i++)
    if (value_of(e, i) == v) return true;
  return false;
}

/* Classifies operand `w` of an epilogue op, read from outside the epilogue. */
static ext classify(const hf_graph *g, hr_value *w, const hr_value *result) {
  ext x = {EXT_NONE, NULL, 0.0f};
  const hr_op *bcast = hf_def(g, w, HR_OP_BROADCAST_IN_DIM);
  if (hf_splat_f32(g, w, &x.constant)) x.kind = EXT_CONSTANT;
  else if (w->type.shape.rank == 0) x = (ext){EXT_SCALAR, w, 0.0f};
  else if ((x.source = hf_column_source(g, w))) x.kind = EXT_COLUMN;
  else if (bcast && bcast->operands[0]->type.shape.rank == 0 && hf_is_f32(bcast->operands[0]))
    x = (ext){EXT_SCALAR, bcast->operands[0], 0.0f};
  else if (hf_same_type(w, result)) x = (ext){EXT_FULL, w, 0.0f};
  return x;
}

/* Whether `op` may join the epilogue. */
static bool absorbable(const hf_graph *g, const epilogue *e, const hr_op *op) {
  const hr_value *y = &e->dot->results[0];
  if (!hf_fusable(op) || !hf_same_type(&op->results[0], y)) return false;
  for (int i = 0; i < op->n_operands; i++)
    if (!inside(e, e->n, op->operands[i]) && classify(g, op->operands[i], y).kind == EXT_NONE) return false;
  return true;
}

/* The smallest position after `after` of an op reading a value of the epilogue; -1 if none. */
static int next_user(const hf_graph *g, const epilogue *e, int after) {
  int best = -1;
  for (int i = -1; i < e->n; i++) {
    uint32_t n;
    const int32_t *users = hf_users(g, value_of(e, i), &n);
    for (uint32_t k = 0; k < n; k++)
      if (users[k] > after && (best < 0 || users[k] < best)) best = users[k];
  }
  return best;
}

/* Whether, with the first `n` absorbed ops, only the last value is read outside the epilogue. */
static bool prefix_closed(const hf_graph *g, const epilogue *e, int n) {
  for (int i = -1; i < n - 1; i++) {
    const hr_value *v = value_of(e, i);
    uint32_t reads = 0;
    for (int k = 0; k < n; k++)
      for (int j = 0; j < e->ops[k]->n_operands; j++) reads += e->ops[k]->operands[j] == v;
    if (reads != hf_uses(g, v)) return false;
  }
  return true;
}

/* Absorbs the elementwise ops following the product (see the file comment). */
static void grow(const hf_graph *g, epilogue *e) {
  int after = e->dot_pos;
  while (e->n < HF_MAX_PATTERN) {
    int u = next_user(g, e, after);
    if (u < 0 || g->claimed[u] || !absorbable(g, e, hf_op_at(g, u))) break;
    e->ops[e->n] = hf_op_at(g, u);
    e->pos[e->n++] = u;
    after = u;
  }
  while (e->n > 0 && !prefix_closed(g, e, e->n)) e->n--;
}

/* ---------------------------------------------------------------------------------------------- */
/* Building hlorun.matmul                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Pairs of values: an original one and what stands for it in the new op or its body. */
typedef struct vmap {
  int n;
  const hr_value *from[MAX_MAP];
  hr_value *to[MAX_MAP];
} vmap;

/* What `v` maps to, or NULL. */
static hr_value *vmap_get(const vmap *m, const hr_value *v) {
  for (int i = 0; i < m->n; i++)
    if (m->from[i] == v) return m->to[i];
  return NULL;
}

/* Adds a pair (the map never overflows: MAX_MAP bounds every epilogue's values). */
static void vmap_put(vmap *m, const hr_value *from, hr_value *to) {
  m->from[m->n] = from;
  m->to[m->n++] = to;
}

/* Lists the epilogue operands: the values read from outside, each once (constants excepted), as
 * the matmul will read them (a column source becomes an [N] vector). `outer` maps each original
 * value to its position among the operands (stored as the operand itself). */
static hr_status list_operands(hf_graph *g, const epilogue *e, int root_pos, hr_value **operands, int *n,
                               vmap *outer) {
  const hr_value *y = &e->dot->results[0];
  for (int k = 0; k < e->n; k++)
    for (int j = 0; j < e->ops[k]->n_operands; j++) {
      hr_value *w = e->ops[k]->operands[j];
      if (inside(e, k, w) || vmap_get(outer, w)) continue;
      ext x = classify(g, w, y);
      if (x.kind == EXT_CONSTANT) continue;
      hr_value *operand = x.source;
      int64_t cols = y->type.shape.dims[y->type.shape.rank - 1];
      if (x.kind == EXT_COLUMN) HR_TRY(hf_column_vector(g, x.source, cols, root_pos, &operand));
      operands[(*n)++] = operand;
      vmap_put(outer, w, operand);
    }
  return NULL;
}

/* The body value standing for operand `w` of an absorbed op: an inner value, an argument, or a
 * new constant. */
static hr_status body_operand(hf_graph *g, hf_body *b, const epilogue *e, hr_value *w, vmap *inner, hr_value **out) {
  if ((*out = vmap_get(inner, w))) return NULL;
  ext x = classify(g, w, &e->dot->results[0]);
  HR_TRY(hf_body_constant(g, b, e->dot, x.constant, out));
  vmap_put(inner, w, *out);
  return NULL;
}

/* Fills the body: argument 0 is the product, then one argument per epilogue operand. */
static hr_status fill_body(hf_graph *g, hf_body *b, const epilogue *e, const hr_value *const *from, int n_from,
                           hr_value **result) {
  vmap inner = {0};
  vmap_put(&inner, &e->dot->results[0], &b->block->args[0]);
  for (int i = 0; i < n_from; i++) vmap_put(&inner, from[i], &b->block->args[i + 1]);
  *result = &b->block->args[0];
  for (int k = 0; k < e->n; k++) {
    hr_value *operands[4];
    for (int j = 0; j < e->ops[k]->n_operands; j++)
      HR_TRY(body_operand(g, b, e, e->ops[k]->operands[j], &inner, &operands[j]));
    HR_TRY(hf_body_clone(g, b, e->ops[k], operands, result));
    vmap_put(&inner, &e->ops[k]->results[0], *result);
  }
  return NULL;
}

/* Replaces the product and its epilogue with hlorun.matmul. */
static hr_status emit(hf_graph *g, const epilogue *e) {
  int root_pos = e->n ? e->pos[e->n - 1] : e->dot_pos;
  hr_op *root = hf_op_at(g, root_pos), *op;
  hr_value *operands[2 + MAX_MAP] = {e->a, e->b}, *result;
  int n = 2;
  vmap outer = {0};
  HR_TRY(list_operands(g, e, root_pos, operands, &n, &outer));
  HR_TRY(hf_new_op(g, HR_OP_HLORUN_MATMUL, root, operands, n, &root->results[0].type, &op));
  hr_attr *tb;
  HR_TRY(hf_attr_bool(g, e->transpose_b, &tb));
  HR_TRY(hf_set_attr(g, op, "transpose_b", tb));
  if (e->windowed) {
    hr_attr *w;
    HR_TRY(hf_attr_i64s(g, e->window, 4, &w));
    HR_TRY(hf_set_attr(g, op, "b_window", w));
  }
  hf_body body;
  hr_status s = hf_body_begin(g, op, n - 1, &body);
  if (!s) s = fill_body(g, &body, e, outer.from, outer.n, &result);
  if (!s) s = hf_body_finish(g, &body, root, result);
  hf_body_release(g, &body);
  HR_TRY(s);
  HR_TRY(hf_insert_before(g, root_pos, op));
  hf_replace(g, &root->results[0], &op->results[0]);
  g->claimed[e->dot_pos] = true;
  for (int k = 0; k < e->n; k++) g->claimed[e->pos[k]] = true;
  g->stats.matmul++;
  g->stats.epilogue_ops += e->n;
  return NULL;
}

hr_status hf_fuse_matmul(hf_graph *g) {
  bool epilogues = !(g->opts->disable & HR_FUSE_EPILOGUE);
  for (int pos = 0; pos < g->n_ops; pos++) {
    epilogue e;
    memset(&e, 0, sizeof e);
    e.dot = hf_op_at(g, pos);
    e.dot_pos = pos;
    if (g->claimed[pos] || !match_product(g, e.dot, &e)) continue;
    if (epilogues) grow(g, &e);
    HR_TRY(emit(g, &e));
  }
  return NULL;
}

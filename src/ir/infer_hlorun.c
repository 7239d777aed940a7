/* Shape inference and verification rules of the fused hlorun.* ops (docs/fast-cpu.md).
 *
 * Every hlorun op works on f32 tensors. The region of hlorun.matmul (its epilogue) and of
 * hlorun.fused is a "scalar body": it takes rank-0 f32 arguments and computes one rank-0 f32
 * result with rank-0 f32 elementwise ops and constants only, reading nothing but its own
 * arguments and values (no captures of enclosing values), so that kernels can evaluate it on any
 * number of elements at once. */
#include "ir/infer_internal.h"

/* Whether `t` is a tensor<f32>. */
static bool is_f32_scalar(const hr_type *t) {
  return t->kind == HR_TYPE_TENSOR && t->dtype == HR_F32 && t->shape.rank == 0;
}

/* Operand `i` must be an f32 tensor; `what` names it in errors. */
static hr_status want_f32(const hri_ctx *c, int i, const char *what) {
  HR_TRY(hri_want_tensor(c, i));
  if (c->in[i].dtype == HR_F32) return NULL;
  hri_tbuf b;
  return hri_err(c, "%s (operand #%d) must have element type f32, got %s", what, i, hri_type_str(&c->in[i], &b));
}

/* Operand `i` must be an f32 tensor of rank `rank`. */
static hr_status want_f32_rank(const hri_ctx *c, int i, int rank, const char *what) {
  HR_TRY(want_f32(c, i, what));
  return hri_want_rank(c, i, rank, what);
}

/* A required f32 FLOAT attribute. */
static hr_status attr_f32(const hri_ctx *c, const char *name) {
  const hr_attr *a = hr_op_attr(c->op, name);
  if (!a) return hri_err(c, "missing attribute '%s'", name);
  if (a->kind != HR_ATTR_FLOAT || (a->u.f.dtype != HR_F32 && a->u.f.dtype != HR_DTYPE_INVALID))
    return hri_err(c, "attribute '%s' must be an f32 float", name);
  return NULL;
}

/* Whether value `v`, used by an op of block `b`, is defined by `b` itself (an argument or the
 * result of one of its ops) rather than captured from an enclosing block. */
static bool defined_in(const hr_value *v, const hr_block *b) {
  return v->def ? v->def->parent == b : v->owner == b;
}

/* Checks one op of a scalar body: a rank-0 f32 constant, or an elementwise op without regions
 * whose operands and result are rank-0 f32 values of the body. */
static hr_status check_body_op(const hri_ctx *c, const hr_block *b, const hr_op *op) {
  const char *name = hr_opcode_name(op->code);
  if (op->n_regions != 0 || op->n_results != 1 || !op->results)
    return hri_err(c, "body op %s must have one result and no regions", name);
  if (op->code != HR_OP_CONSTANT && !(hr_opcode_flags(op->code) & HR_OPF_ELEMENTWISE))
    return hri_err(c, "body op %s is not an elementwise op or a constant", name);
  if (!is_f32_scalar(&op->results[0].type)) return hri_err(c, "body op %s must produce a tensor<f32>", name);
  for (int i = 0; i < op->n_operands; i++) {
    const hr_value *v = op->operands ? op->operands[i] : NULL;
    if (!v || !is_f32_scalar(&v->type)) return hri_err(c, "body op %s: operand #%d must be a tensor<f32>", name, i);
    if (!defined_in(v, b)) return hri_err(c, "body op %s: operand #%d is not a value of the body", name, i);
  }
  return NULL;
}

/* Checks that region 0 is a scalar body taking `n_args` rank-0 f32 arguments. */
static hr_status check_scalar_body(const hri_ctx *c, int n_args) {
  const hr_block *b = &c->op->regions[0];
  if (b->n_args != n_args || (n_args > 0 && !b->args))
    return hri_err(c, "body must take %d arguments, got %d", n_args, b->n_args);
  for (int i = 0; i < n_args; i++)
    if (!is_f32_scalar(&b->args[i].type)) {
      hri_tbuf tb;
      return hri_err(c, "body argument #%d has type %s, expected tensor<f32>", i, hri_type_str(&b->args[i].type, &tb));
    }
  const hr_op *ret;
  HR_TRY(hri_region_return(c, 0, &ret));
  for (int k = 0; k + 1 < b->n_ops; k++) {
    if (!b->ops[k]) return hri_err(c, "body with a missing op");
    HR_TRY(check_body_op(c, b, b->ops[k]));
  }
  if (ret->n_operands != 1 || !is_f32_scalar(&ret->operands[0]->type) || !defined_in(ret->operands[0], b))
    return hri_err(c, "body must return one tensor<f32> value of its own");
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.matmul                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* Checks epilogue operand `i` against the result shape: rank 0, [N], or the result's shape. */
static hr_status check_epilogue_operand(const hri_ctx *c, int i, const hr_shape *result) {
  HR_TRY(want_f32(c, i, "epilogue operand"));
  const hr_shape *s = &c->in[i].shape;
  int64_t n = result->dims[result->rank - 1], unused;
  if (s->rank == 0) return NULL;
  if (s->rank == 1) return hri_dim_merge(c, s->dims[0], n, &unused, "per-column epilogue operand and N");
  hr_shape merged;
  if (s->rank == result->rank) return hri_shape_merge(c, s, result, &merged, "epilogue operand and result");
  hri_tbuf b;
  return hri_err(c, "epilogue operand #%d has type %s; expected rank 0, [N] or the result shape", i,
                 hri_type_str(&c->in[i], &b));
}

bool hr_matmul_b_window(const hr_op *op, const hr_shape *b, int64_t window[4]) {
  int n = 0;
  hr_status s = hr_op_attr_i64_list_opt(op, "b_window", window, 4, &n);
  if (s || (n != 0 && n != 4) || b->rank != 2) {
    hr_status_free(s);
    return false;
  }
  if (n == 0) {
    window[0] = window[1] = 0;
    window[2] = b->dims[0];
    window[3] = b->dims[1];
    return true;
  }
  for (int d = 0; d < 2; d++) {
    int64_t start = window[d], size = window[2 + d], dim = b->dims[d];
    if (start < 0 || size < 0 || (dim != HR_DYNAMIC && (start > dim || size > dim - start))) return false;
  }
  return true;
}

hr_status hri_infer_hlorun_matmul(const hri_ctx *c) {
  HR_TRY(want_f32(c, 0, "a"));
  HR_TRY(want_f32_rank(c, 1, 2, "b"));
  const hr_shape *a = &c->in[0].shape, *b = &c->in[1].shape;
  if (a->rank < 2) return hri_err(c, "a (operand #0) must have rank >= 2, got %d", a->rank);
  bool transpose_b;
  HR_TRY(hri_attr_bool(c, "transpose_b", false, &transpose_b));
  int64_t w[4];
  if (!hr_matmul_b_window(c->op, b, w))
    return hri_err(c, "b_window must be 4 integers [row0, col0, rows, cols] of a window inside b");
  int64_t k_b = w[transpose_b ? 3 : 2], n = w[transpose_b ? 2 : 3], k;
  HR_TRY(hri_dim_merge(c, a->dims[a->rank - 1], k_b, &k, "contracted dimension K of a and b"));
  hr_shape result = *a;
  result.dims[a->rank - 1] = n;
  for (int i = 2; i < c->op->n_operands; i++) HR_TRY(check_epilogue_operand(c, i, &result));
  HR_TRY(check_scalar_body(c, c->op->n_operands - 1));
  c->out[0] = hri_tensor(HR_F32, &result);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.fused                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Checks operand `i` against the result shape through its broadcast dimensions `bd` (one per
 * operand dimension, strictly increasing, each operand dimension of the result's size or 1). */
static hr_status check_fused_operand(const hri_ctx *c, int i, const int64_t *bd, int n_bd, const hr_shape *result) {
  HR_TRY(want_f32(c, i, "operand"));
  const hr_shape *s = &c->in[i].shape;
  if (n_bd != s->rank)
    return hri_err(c, "broadcast_dimensions of operand #%d has %d entries for rank %d", i, n_bd, s->rank);
  for (int j = 0; j < n_bd; j++) {
    if (bd[j] < 0 || bd[j] >= result->rank || (j > 0 && bd[j] <= bd[j - 1]))
      return hri_err(c, "broadcast_dimensions of operand #%d must be increasing dimensions of the result", i);
    int64_t want = result->dims[bd[j]], have = s->dims[j];
    if (have != 1 && have != HR_DYNAMIC && want != HR_DYNAMIC && have != want)
      return hri_err(c, "operand #%d dimension %d has size %lld, expected %lld or 1", i, j, (long long)have,
                     (long long)want);
  }
  return NULL;
}

hr_status hri_infer_hlorun_fused(const hri_ctx *c) {
  hr_type result;
  HR_TRY(hri_declared_tensor(c, 0, false, &result));
  if (result.dtype != HR_F32) return hri_err(c, "the result must have element type f32");
  const hr_attr *bds = hr_op_attr(c->op, "broadcast_dimensions");
  if (!bds || bds->kind != HR_ATTR_ARRAY || bds->u.array.n != c->op->n_operands)
    return hri_err(c, "broadcast_dimensions must be a list with one entry per operand");
  for (int i = 0; i < c->op->n_operands; i++) {
    int64_t bd[HR_MAX_RANK];
    int n_bd;
    const hr_attr *item = bds->u.array.items[i];
    hr_status s = item ? hr_attr_to_i64_list(item, bd, HR_MAX_RANK, &n_bd) : hr_error(HR_VERIFY_ERROR, "missing");
    if (s) {
      hr_status_free(s);
      return hri_err(c, "broadcast_dimensions entry #%d must be a list of at most %d integers", i, HR_MAX_RANK);
    }
    HR_TRY(check_fused_operand(c, i, bd, n_bd, &result.shape));
  }
  HR_TRY(check_scalar_body(c, c->op->n_operands));
  c->out[0] = result;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.layer_norm, hlorun.softmax, hlorun.attention                                             */
/* ---------------------------------------------------------------------------------------------- */

hr_status hri_infer_hlorun_layer_norm(const hri_ctx *c) {
  HR_TRY(want_f32(c, 0, "x"));
  const hr_shape *x = &c->in[0].shape;
  if (x->rank < 1) return hri_err(c, "x (operand #0) must have rank >= 1");
  int64_t d = x->dims[x->rank - 1];
  HR_TRY(want_f32_rank(c, 1, 1, "scale"));
  HR_TRY(want_f32_rank(c, 2, 1, "bias"));
  HR_TRY(hri_dim_merge(c, c->in[1].shape.dims[0], d, &d, "scale and the last dimension of x"));
  HR_TRY(hri_dim_merge(c, c->in[2].shape.dims[0], d, &d, "bias and the last dimension of x"));
  HR_TRY(attr_f32(c, "epsilon"));
  c->out[0] = c->in[0];
  return NULL;
}

hr_status hri_infer_hlorun_softmax(const hri_ctx *c) {
  HR_TRY(want_f32(c, 0, "x"));
  if (c->in[0].shape.rank < 1) return hri_err(c, "x (operand #0) must have rank >= 1");
  c->out[0] = c->in[0];
  return NULL;
}

/* hlorun.attention(qkv): one operand [B, S, 3, H, D] holding q, k and v (self-attention). */
static hr_status infer_attention_packed(const hri_ctx *c) {
  HR_TRY(want_f32_rank(c, 0, 5, "qkv"));
  const hr_shape *x = &c->in[0].shape;
  int64_t three;
  HR_TRY(hri_dim_merge(c, x->dims[2], 3, &three, "dimension 2 of qkv (q, k, v)"));
  hr_shape out = {.rank = 4, .dims = {x->dims[0], x->dims[1], x->dims[3], x->dims[4]}};
  HR_TRY(attr_f32(c, "scale"));
  bool causal;
  HR_TRY(hri_attr_bool(c, "causal", false, &causal));
  c->out[0] = hri_tensor(HR_F32, &out);
  return NULL;
}

/* The optional fourth operand of hlorun.attention(q, k, v, position): i32 [B], the last key each
 * batch row attends to. */
static hr_status want_position(const hri_ctx *c, int64_t batch) {
  HR_TRY(hri_want_tensor(c, 3));
  HR_TRY(hri_want_rank(c, 3, 1, "position"));
  if (c->in[3].dtype != HR_I32) {
    hri_tbuf b;
    return hri_err(c, "position (operand #3) must have element type i32, got %s", hri_type_str(&c->in[3], &b));
  }
  int64_t unused;
  return hri_dim_merge(c, c->in[3].shape.dims[0], batch, &unused, "position and the batch");
}

hr_status hri_infer_hlorun_attention(const hri_ctx *c) {
  if (c->op->n_operands == 1) return infer_attention_packed(c);
  if (c->op->n_operands != 3 && c->op->n_operands != 4)
    return hri_err(c, "takes q, k and v (and a position), or one qkv operand; got %d operands", c->op->n_operands);
  HR_TRY(want_f32_rank(c, 0, 4, "q"));
  HR_TRY(want_f32_rank(c, 1, 4, "k"));
  HR_TRY(want_f32_rank(c, 2, 4, "v"));
  const hr_shape *q = &c->in[0].shape, *k = &c->in[1].shape, *v = &c->in[2].shape;
  hr_shape out = *q;
  int64_t t;
  /* q [B, S, H, D], k and v [B, T, H, D]. */
  static const int shared[] = {0, 2, 3};
  static const char *const names[] = {"batch", "heads", "head_dim"};
  for (int i = 0; i < 3; i++) {
    int d = shared[i];
    HR_TRY(hri_dim_merge(c, out.dims[d], k->dims[d], &out.dims[d], names[i]));
    HR_TRY(hri_dim_merge(c, out.dims[d], v->dims[d], &out.dims[d], names[i]));
  }
  HR_TRY(hri_dim_merge(c, k->dims[1], v->dims[1], &t, "key and value sequence lengths"));
  if (c->op->n_operands == 4) HR_TRY(want_position(c, out.dims[0]));
  HR_TRY(attr_f32(c, "scale"));
  bool causal;
  HR_TRY(hri_attr_bool(c, "causal", false, &causal));
  c->out[0] = hri_tensor(HR_F32, &out);
  return NULL;
}

/* Layer normalisation over the last dimension, as flax.nnx.LayerNorm lowers it:
 *
 *   mean = reduce_add(x) / D
 *   var  = maximum(0, reduce_add(x * x) / D - mean * mean)     (use_fast_variance, the default)
 *        | reduce_add(c * c) / D,  c = x - row(mean)            (two-pass)
 *   y    = (x - row(mean)) * (row(rsqrt(var + eps)) * col(scale)) + col(bias)
 *
 * where row() broadcasts a per-row statistic along the last dimension (possibly through a reshape
 * adding a unit dimension) and col() broadcasts a [D] vector (possibly reshaped to [1, ..., D]; or
 * is a constant with equal rows, a broadcast folded by specialization).
 * The association ((x - mean) * rsqrt) * scale is accepted too, and commutative operands in either
 * order. The result is y = "hlorun.layer_norm"(x, scale, bias) {epsilon}. Every reduction (init 0,
 * body add, dimension r - 1), divisor (exactly D), zero, broadcast and operand identity is checked;
 * anything else is not fused. */
#include "compiler/fuse_internal.h"

/* What the matcher found. */
typedef struct ln_match {
  hf_ops p;
  hr_value *x;     /* the normalised input */
  hr_value *mean;  /* the mean as read by the centring (unit reshapes stripped) */
  hr_value *scale; /* column sources of scale and bias */
  hr_value *bias;
  float eps;
} ln_match;

/* `v` = x - row(mean): records x and the mean, or checks them against those seen before. */
static bool match_centered(const hf_graph *g, const hr_value *v, ln_match *m) {
  const hr_op *op = hf_def(g, v, HR_OP_SUBTRACT);
  if (!op || !hf_ops_add(&m->p, op)) return false;
  hr_value *mean = hf_row_source(g, op->operands[1], &m->p), *x = op->operands[0];
  if (!mean || (m->x && m->x != x) || (m->mean && m->mean != mean)) return false;
  m->x = x;
  m->mean = mean;
  return true;
}

/* When `v` = reduce_add(z) / D over the last dimension of x, returns z; NULL otherwise. */
static hr_value *mean_input(const hf_graph *g, hr_value *v, ln_match *m) {
  int last = m->x->type.shape.rank - 1;
  const hr_op *div = hf_def(g, hf_strip_unit_reshapes(g, v, &m->p), HR_OP_DIVIDE);
  const hr_op *red = div ? hf_def(g, div->operands[0], HR_OP_REDUCE) : NULL;
  float d = (float)m->x->type.shape.dims[last];
  if (!red || !hf_is_splat(g, div->operands[1], d) || !hf_is_reduce(g, red, HR_OP_ADD, 0.0f, last) ||
      !hf_ops_add(&m->p, div) || !hf_ops_add(&m->p, red))
    return NULL;
  return red->operands[0];
}

/* When `v` = a * a (one value read twice), adds the multiply to the pattern and returns it. */
static const hr_op *square_of(const hf_graph *g, const hr_value *v, ln_match *m) {
  const hr_op *op = hf_def(g, v, HR_OP_MULTIPLY);
  return op && op->operands[0] == op->operands[1] && hf_ops_add(&m->p, op) ? op : NULL;
}

/* Whether `v` is the mean of x (checked once x and the mean are known). */
static bool is_mean(const hf_graph *g, hr_value *v, ln_match *m) {
  return hf_strip_unit_reshapes(g, v, &m->p) == m->mean && mean_input(g, m->mean, m) == m->x;
}

/* The fast variance: maximum(0, mean(x * x) - mean * mean), operands of maximum in either order. */
static bool match_fast_variance(const hf_graph *g, const hr_op *max, ln_match *m) {
  for (int i = 0; i < 2; i++) {
    const hr_op *sub = hf_def(g, hf_other(max, i), HR_OP_SUBTRACT);
    if (!hf_is_splat(g, max->operands[i], 0.0f) || !sub || !hf_ops_add(&m->p, sub)) continue;
    hr_value *z = mean_input(g, sub->operands[0], m);
    const hr_op *xx = z ? square_of(g, z, m) : NULL, *mm = square_of(g, sub->operands[1], m);
    return xx && xx->operands[0] == m->x && mm && is_mean(g, mm->operands[0], m);
  }
  return false;
}

/* The variance, in its fast or two-pass form. */
static bool match_variance(const hf_graph *g, hr_value *var, ln_match *m) {
  var = hf_strip_unit_reshapes(g, var, &m->p);
  const hr_op *max = hf_def(g, var, HR_OP_MAXIMUM);
  if (max) return hf_ops_add(&m->p, max) && match_fast_variance(g, max, m);
  hr_value *z = mean_input(g, var, m);
  const hr_op *cc = z ? square_of(g, z, m) : NULL;
  return cc && match_centered(g, cc->operands[0], m);
}

/* `r` = rsqrt(var + eps), the addition's operands in either order. */
static bool match_inv(const hf_graph *g, hr_value *r, ln_match *m) {
  const hr_op *rsqrt = hf_def(g, hf_strip_unit_reshapes(g, r, &m->p), HR_OP_RSQRT);
  const hr_op *add = rsqrt ? hf_def(g, hf_strip_unit_reshapes(g, rsqrt->operands[0], &m->p), HR_OP_ADD) : NULL;
  if (!add || !hf_ops_add(&m->p, rsqrt) || !hf_ops_add(&m->p, add)) return false;
  for (int i = 0; i < 2; i++)
    if (hf_splat_f32(g, add->operands[i], &m->eps)) return match_variance(g, hf_other(add, i), m);
  return false;
}

/* `w` = row(inv) * col(scale), operands in either order. */
static bool match_inv_times_scale(const hf_graph *g, const hr_value *w, ln_match *m) {
  const hr_op *op = hf_def(g, w, HR_OP_MULTIPLY);
  if (!op || !hf_ops_add(&m->p, op)) return false;
  for (int i = 0; i < 2; i++) {
    ln_match t = *m;
    hr_value *inv = (t.scale = hf_column_source(g, op->operands[i])) ? hf_row_source(g, hf_other(op, i), &t.p) : NULL;
    if (inv && match_inv(g, inv, &t)) {
      *m = t;
      return true;
    }
  }
  return false;
}

/* `w` = (x - row(mean)) * row(inv), operands in either order. */
static bool match_centered_times_inv(const hf_graph *g, const hr_value *w, ln_match *m) {
  const hr_op *op = hf_def(g, w, HR_OP_MULTIPLY);
  if (!op || !hf_ops_add(&m->p, op)) return false;
  for (int i = 0; i < 2; i++) {
    ln_match t = *m;
    hr_value *inv = match_centered(g, op->operands[i], &t) ? hf_row_source(g, hf_other(op, i), &t.p) : NULL;
    if (inv && match_inv(g, inv, &t)) {
      *m = t;
      return true;
    }
  }
  return false;
}

/* `u` = centred * (inv * scale), or (centred * inv) * scale. */
static bool match_product(const hf_graph *g, const hr_value *u, ln_match *m) {
  const hr_op *op = hf_def(g, u, HR_OP_MULTIPLY);
  if (!op || !hf_ops_add(&m->p, op)) return false;
  for (int i = 0; i < 2; i++) {
    ln_match t = *m;
    if (match_centered(g, op->operands[i], &t) && match_inv_times_scale(g, hf_other(op, i), &t)) {
      *m = t;
      return true;
    }
    t = *m;
    if ((t.scale = hf_column_source(g, op->operands[i])) && match_centered_times_inv(g, hf_other(op, i), &t)) {
      *m = t;
      return true;
    }
  }
  return false;
}

/* Matches the pattern ending in add `root` = u + col(bias). */
static bool match_layer_norm(const hf_graph *g, const hr_op *root, ln_match *m) {
  const hr_value *y = &root->results[0];
  int rank = y->type.shape.rank;
  if (root->code != HR_OP_ADD || !hf_is_f32(y) || rank < 1 || y->type.shape.dims[rank - 1] < 1) return false;
  for (int i = 0; i < 2; i++) {
    ln_match t = *m;
    if (!hf_ops_add(&t.p, root) || !(t.bias = hf_column_source(g, root->operands[i]))) continue;
    if (match_product(g, hf_other(root, i), &t) && hf_same_type(t.x, y) && mean_input(g, t.mean, &t) == t.x &&
        hf_ops_closed(g, &t.p, root)) {
      *m = t;
      return true;
    }
  }
  return false;
}

/* Replaces the pattern ending at position `pos` with hlorun.layer_norm. */
static hr_status emit(hf_graph *g, int pos, const ln_match *m) {
  hr_op *root = hf_op_at(g, pos), *op;
  hr_value *operands[3] = {m->x, NULL, NULL};
  hr_attr *eps;
  int64_t d = m->x->type.shape.dims[m->x->type.shape.rank - 1];
  HR_TRY(hf_column_vector(g, m->scale, d, pos, &operands[1]));
  HR_TRY(hf_column_vector(g, m->bias, d, pos, &operands[2]));
  HR_TRY(hf_new_op(g, HR_OP_HLORUN_LAYER_NORM, root, operands, 3, &root->results[0].type, &op));
  HR_TRY(hf_attr_f32(g, m->eps, &eps));
  HR_TRY(hf_set_attr(g, op, "epsilon", eps));
  HR_TRY(hf_insert_before(g, pos, op));
  hf_replace(g, &root->results[0], &op->results[0]);
  g->stats.layer_norm++;
  return NULL;
}

hr_status hf_fuse_layer_norm(hf_graph *g) {
  for (int pos = 0; pos < g->n_ops; pos++) {
    const hr_op *op = hf_op_at(g, pos);
    ln_match m = {0};
    if (op->code == HR_OP_ADD && match_layer_norm(g, op, &m)) HR_TRY(emit(g, pos, &m));
  }
  return NULL;
}

/* Self-attention's three projections as one GEMM (fuse.h, fusion 5):
 *
 *   %q = "hlorun.matmul"(%a, %wq[, %bq]) {body}   %q4 = reshape %q : [B, S, N] -> [B, S, H, D]
 *   %k = "hlorun.matmul"(%a, %wk[, %bk]) {body}   %k4 = reshape %k ...
 *   %v = "hlorun.matmul"(%a, %wv[, %bv]) {body}   %v4 = reshape %v ...
 *   %o = "hlorun.attention"(%q4, %k4, %v4)
 *
 * becomes
 *
 *   %w = concatenate %wq, %wk, %wv along N        %b = concatenate %bq, %bk, %bv (when biased)
 *   %y = "hlorun.matmul"(%a, %w[, %b]) {body}     -> [B, S, 3N]
 *   %x = reshape %y -> [B, S, 3, H, D]
 *   %o = "hlorun.attention"(%x)
 *
 * One GEMM of N = 3 H D instead of three: A is read and packed once, two parallel loops fewer,
 * and wider GEMMs run closer to peak; the attention kernels read q, k and v in place through
 * strides. The weights (and biases) must be bound parameters or constants, and the joined weight
 * at most hr_fuse_options.max_joined_bytes: an executable then computes the concatenations once,
 * when it is created, and the merged weight is packed like any other (the module and the files
 * made from it only grow by the ops). The bodies must be the identity or one bias add (acc + x, x
 * a [N] operand) in all three. */
#include "compiler/fuse_internal.h"

/* One projection: the matmul and the reshape feeding the attention. */
typedef struct projection {
  const hr_op *mm, *reshape;
  bool biased; /* body: acc + operand 2 ([N]) */
} projection;

/* Whether matmul `mm`'s body is the identity (2 operands) or one add of the product and a [N]
 * operand (3 operands); sets p->biased. */
static bool plain_body(const hr_op *mm, projection *p) {
  if (mm->n_regions != 1) return false;
  const hr_block *b = &mm->regions[0];
  const hr_op *ret = b->ops[b->n_ops - 1];
  if (ret->n_operands != 1) return false;
  if (mm->n_operands == 2) {
    p->biased = false;
    return b->n_ops == 1 && ret->operands[0] == &b->args[0];
  }
  if (mm->n_operands != 3 || b->n_ops != 2 || mm->operands[2]->type.shape.rank != 1) return false;
  const hr_op *add = b->ops[0];
  p->biased = true;
  return add->code == HR_OP_ADD && ret->operands[0] == &add->results[0] &&
         ((add->operands[0] == &b->args[0] && add->operands[1] == &b->args[1]) ||
          (add->operands[0] == &b->args[1] && add->operands[1] == &b->args[0]));
}

/* Whether attention operand `x` is reshape(matmul [B, S, H*D]) -> [B, S, H, D], each used once. */
static bool match_projection(const hf_graph *g, const hr_value *x, projection *p) {
  p->reshape = hf_def(g, x, HR_OP_RESHAPE);
  if (!p->reshape || hf_uses(g, x) != 1) return false;
  const hr_value *m = p->reshape->operands[0];
  p->mm = hf_def(g, m, HR_OP_HLORUN_MATMUL);
  /* a product by a window of its b (b_window) reads a weight another concatenation would copy */
  if (!p->mm || hf_uses(g, m) != 1 || !hf_is_f32(m) || !hf_is_f32(x) || hr_op_attr(p->mm, "b_window")) return false;
  const hr_shape *ms = &m->type.shape, *xs = &x->type.shape;
  int64_t hd;
  return ms->rank == 3 && xs->rank == 4 && ms->dims[0] == xs->dims[0] && ms->dims[1] == xs->dims[1] &&
         !__builtin_mul_overflow(xs->dims[2], xs->dims[3], &hd) && ms->dims[2] == hd && plain_body(p->mm, p);
}

static bool transpose_b(const hr_op *mm) {
  const hr_attr *a = hr_op_attr(mm, "transpose_b");
  return a && a->kind == HR_ATTR_BOOL && a->u.b;
}

/* Whether the three projections can be one matmul: same a, same weight types and layout, same
 * kind of body and bias types. */
static bool compatible(const projection p[3]) {
  for (int i = 1; i < 3; i++) {
    const hr_op *x = p[0].mm, *y = p[i].mm;
    if (y->operands[0] != x->operands[0] || !hf_same_type(y->operands[1], x->operands[1]) ||
        transpose_b(y) != transpose_b(x) || p[i].biased != p[0].biased ||
        (p[0].biased && !hf_same_type(y->operands[2], x->operands[2])))
      return false;
  }
  return true;
}

/* Whether `v` is a bound parameter or a constant (what the executable folds concatenations of). */
static bool fixed(const hf_graph *g, const hr_value *v) {
  return hf_is_weight(g, v) || hf_def(g, v, HR_OP_CONSTANT) != NULL;
}

/* A new stablehlo.concatenate of three values along `dim`. */
static hr_status concatenate(hf_graph *g, const hr_op *at, hr_value *const *parts, int dim, hr_op **out) {
  hr_type t = parts[0]->type;
  t.shape.dims[dim] *= 3;
  HR_TRY(hf_new_op(g, HR_OP_CONCATENATE, at, parts, 3, &t, out));
  hr_attr *d = hr_attr_new(g->m, HR_ATTR_INT);
  if (!d) return hf_oom();
  d->u.i.value = dim;
  d->u.i.dtype = HR_I64;
  return hf_set_attr(g, *out, "dimension", d);
}

/* The merged matmul: a times the concatenated weights (plus the concatenated biases). */
static hr_status merged_matmul(hf_graph *g, const hr_op *at, const projection p[3], hr_op *const *cats,
                               hr_op **out) {
  const hr_op *q = p[0].mm;
  hr_value *operands[3] = {q->operands[0], &cats[0]->results[0], p[0].biased ? &cats[1]->results[0] : NULL};
  int n = p[0].biased ? 3 : 2;
  hr_type t = q->results[0].type;
  t.shape.dims[2] *= 3;
  HR_TRY(hf_new_op(g, HR_OP_HLORUN_MATMUL, at, operands, n, &t, out));
  hr_attr *tb;
  HR_TRY(hf_attr_bool(g, transpose_b(q), &tb));
  HR_TRY(hf_set_attr(g, *out, "transpose_b", tb));
  hf_body body;
  hr_status s = hf_body_begin(g, *out, n - 1, &body);
  hr_value *result = &body.block->args[0];
  if (!s && p[0].biased) {
    /* The add, with its operands in the original order. */
    const hr_block *old = &q->regions[0];
    const hr_op *add = old->ops[0];
    hr_value *args[2];
    for (int i = 0; i < 2; i++) args[i] = &body.block->args[add->operands[i] == &old->args[0] ? 0 : 1];
    s = hf_body_clone(g, &body, add, args, &result);
  }
  if (!s) s = hf_body_finish(g, &body, at, result);
  hf_body_release(g, &body);
  return s;
}

/* Rewrites the attention at `pos` whose projections are `p`. */
static hr_status emit(hf_graph *g, int pos, const projection p[3]) {
  hr_op *att = hf_op_at(g, pos), *cats[2] = {NULL, NULL}, *mm, *reshape, *merged;
  hr_value *weights[3], *biases[3];
  for (int i = 0; i < 3; i++) {
    weights[i] = p[i].mm->operands[1];
    biases[i] = p[0].biased ? p[i].mm->operands[2] : NULL;
  }
  HR_TRY(concatenate(g, att, weights, transpose_b(p[0].mm) ? 0 : 1, &cats[0]));
  if (p[0].biased) HR_TRY(concatenate(g, att, biases, 0, &cats[1]));
  HR_TRY(merged_matmul(g, att, p, cats, &mm));
  const hr_shape *x = &att->operands[0]->type.shape;
  int64_t dims[5] = {x->dims[0], x->dims[1], 3, x->dims[2], x->dims[3]};
  hr_type t = hr_tensor_type(HR_F32, 5, dims);
  hr_value *y = &mm->results[0];
  HR_TRY(hf_new_op(g, HR_OP_RESHAPE, att, &y, 1, &t, &reshape));
  hr_value *qkv = &reshape->results[0];
  HR_TRY(hf_new_op(g, HR_OP_HLORUN_ATTENTION, att, &qkv, 1, &att->results[0].type, &merged));
  merged->n_attrs = att->n_attrs;
  merged->attrs = att->attrs;
  hr_op *const news[] = {cats[0], cats[1], mm, reshape, merged};
  for (size_t i = 0; i < sizeof news / sizeof news[0]; i++)
    if (news[i]) HR_TRY(hf_insert_before(g, pos, news[i]));
  hf_replace(g, &att->results[0], &merged->results[0]);
  g->claimed[pos] = true;
  for (int i = 0; i < 3; i++) {
    g->claimed[hf_pos_of(g, &p[i].mm->results[0])] = true;
    g->claimed[hf_pos_of(g, &p[i].reshape->results[0])] = true;
  }
  g->stats.qkv++;
  return NULL;
}

hr_status hf_fuse_qkv(hf_graph *g) {
  for (int pos = 0; pos < g->n_ops; pos++) {
    const hr_op *att = hf_op_at(g, pos);
    if (g->claimed[pos] || att->code != HR_OP_HLORUN_ATTENTION || att->n_operands != 3) continue;
    /* Self-attention: keys and queries of the same length. */
    if (!hf_same_type(att->operands[0], att->operands[1]) || !hf_same_type(att->operands[1], att->operands[2]))
      continue;
    projection p[3];
    bool ok = true;
    for (int i = 0; i < 3 && ok; i++) ok = match_projection(g, att->operands[i], &p[i]);
    if (!ok || !compatible(p)) continue;
    for (int i = 0; i < 3; i++) ok &= fixed(g, p[i].mm->operands[1]) && (!p[0].biased || fixed(g, p[i].mm->operands[2]));
    /* The joined weight's bytes (a constant's type may be huge: a splat). */
    const int64_t *wd = p[0].mm->operands[1]->type.shape.dims;
    int64_t joined;
    ok &= !__builtin_mul_overflow(wd[0], wd[1], &joined) && !__builtin_mul_overflow(joined, (int64_t)12, &joined);
    size_t limit = g->opts->max_joined_bytes;
    if (!ok || (limit && (uint64_t)joined > limit)) continue;
    bool taken = false;
    for (int i = 0; i < 3; i++)
      taken |= g->claimed[hf_pos_of(g, &p[i].mm->results[0])] || g->claimed[hf_pos_of(g, &p[i].reshape->results[0])];
    if (!taken) HR_TRY(emit(g, pos, p));
  }
  return NULL;
}

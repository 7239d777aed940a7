/* Multi-head attention in the [batch, seq, heads, head_dim] layout, as JAX/Flax lower it:
 *
 *   %q2 = multiply %q, c                       (optional: a splat scale; or divide by c)
 *   %sc = dot_general %q2, %k, batching [0, 2] x [0, 2], contracting [3] x [3]   -> [B, H, S, T]
 *   %ms = select %mask, %sc, fill              (optional: a causal mask, fill <= -1e9)
 *   %p  = softmax(%ms) over T                  (fuse_softmax.c)
 *   %o  = dot_general %p, %v, batching [0, 1] x [0, 2], contracting [3] x [1]    -> [B, H, S, D]
 *   %y  = transpose %o, dims = [0, 2, 1, 3]                                      -> [B, S, H, D]
 *
 * becomes %y = "hlorun.attention"(%q, %k, %v) {scale, causal}. A scale may also multiply (or
 * divide) the scores instead of q. The select may also be select(%m, fill, %sc) when %m marks the
 * masked positions. The mask must be provably causal: keep[b, h, s, t] = (t <= s). It is analysed
 * through broadcast_in_dim, unit reshapes, not, compare of index tensors (iota, broadcasts and
 * reshapes of iotas, constants holding indices) and constants checked element by element.
 *
 * A decode step's mask keeps the keys t <= position[b] instead (its query is the token at that
 * position of a KV cache): keep[b, h, s, t] = (t <= p[b]) for an i32 vector p [B], a compare of
 * key indices with p broadcast. That pattern becomes hlorun.attention(%q, %k, %v, %p), whose
 * kernels visit only the keys 0..p[b] of each row. */
#include <string.h>

#include "compiler/fuse_internal.h"

/* Largest fill value accepted as "minus infinity" for masked scores: exp(fill - max) is 0 in f32
 * unless the scores themselves reach about 1e9. */
#define MAX_FILL (-1e9f)
/* Deepest chain of broadcasts, reshapes and nots followed through a mask. */
#define MAX_MASK_DEPTH 16

/* ---------------------------------------------------------------------------------------------- */
/* Causal masks                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Element `i` of integer DENSE attribute `a` as int64; false for other element types. */
static bool dense_int(const hr_attr *a, int64_t i, int64_t *out) {
  const void *p = hr_dense_element(a, i);
  switch (a->u.dense.type.dtype) {
    case HR_I8: *out = *(const int8_t *)p; return true;
    case HR_U8: *out = *(const uint8_t *)p; return true;
    case HR_I16: { int16_t x; memcpy(&x, p, 2); *out = x; return true; }
    case HR_U16: { uint16_t x; memcpy(&x, p, 2); *out = x; return true; }
    case HR_I32: { int32_t x; memcpy(&x, p, 4); *out = x; return true; }
    case HR_U32: { uint32_t x; memcpy(&x, p, 4); *out = x; return true; }
    case HR_I64: { int64_t x; memcpy(&x, p, 8); *out = x; return true; }
    default: return false;
  }
}

/* Steps the row-major multi-index `idx` of `shape` to the next element. */
static void next_index(const hr_shape *shape, int64_t *idx) {
  for (int d = shape->rank - 1; d >= 0; d--) {
    if (++idx[d] < shape->dims[d]) return;
    idx[d] = 0;
  }
}

/* Whether integer constant `a` holds, at every index, the index along dimension `axis`. */
static bool constant_is_index(const hr_attr *a, int axis) {
  const hr_shape *s = &a->u.dense.type.shape;
  int64_t n, idx[HR_MAX_RANK] = {0};
  if (!hf_ok(hr_shape_num_elements(s, &n))) return false;
  for (int64_t i = 0; i < n; i++, next_index(s, idx)) {
    int64_t v;
    if (!dense_int(a, i, &v) || v != idx[axis]) return false;
  }
  return true;
}

/* The position of the k-th dimension of size > 1 in `s`, or -1. */
static int nth_big_dim(const hr_shape *s, int k) {
  for (int d = 0; d < s->rank; d++)
    if (s->dims[d] > 1 && k-- == 0) return d;
  return -1;
}

/* How many dimensions of size > 1 precede dimension `d` of `s`. */
static int big_dims_before(const hr_shape *s, int d) {
  int k = 0;
  for (int i = 0; i < d; i++) k += s->dims[i] > 1;
  return k;
}

/* Whether integer type `t` represents every index below `n` exactly. */
static bool holds_indices(hr_dtype t, int64_t n) {
  int bits = hr_dtype_bits(t) - (hr_dtype_is_signed_int(t) ? 1 : 0);
  bool is_int = hr_dtype_is_signed_int(t) || hr_dtype_is_unsigned_int(t);
  return is_int && (bits >= 62 || n <= (int64_t)1 << bits);
}

/* When integer value `v` holds at every index the index along one of its dimensions (of size
 * > 1), returns that dimension; -1 otherwise. */
static int index_axis(const hf_graph *g, const hr_value *v, int depth) {
  const hr_op *op = v->def;
  if (!op || op->parent != &g->fn->body || depth > MAX_MASK_DEPTH || !hr_type_is_static(&v->type)) return -1;
  const hr_shape *s = &v->type.shape;
  if (op->code == HR_OP_IOTA) {
    int64_t axis;
    bool ok = hf_ok(hr_op_attr_i64(op, "iota_dimension", &axis)) && axis >= 0 && axis < s->rank && s->dims[axis] > 1 &&
              holds_indices(v->type.dtype, s->dims[axis]);
    return ok ? (int)axis : -1;
  }
  if (op->code == HR_OP_CONSTANT) {
    const hr_attr *a = hr_op_attr(op, "value");
    if (!a || a->kind != HR_ATTR_DENSE) return -1;
    for (int d = 0; d < s->rank; d++)
      if (s->dims[d] > 1 && constant_is_index(a, d)) return d;
    return -1;
  }
  const hr_value *w = op->n_operands == 1 ? op->operands[0] : NULL;
  int a = w ? index_axis(g, w, depth + 1) : -1;
  if (a < 0) return -1;
  if (op->code == HR_OP_BROADCAST_IN_DIM) {
    int64_t dims[HR_MAX_RANK];
    int n;
    bool ok = hf_ok(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, &n));
    return ok && a < n && w->type.shape.dims[a] == s->dims[dims[a]] ? (int)dims[a] : -1;
  }
  if (hf_is_unit_reshape(op)) return nth_big_dim(s, big_dims_before(&w->type.shape, a));
  return -1;
}

/* The relation `x DIR y` of a compare as "keep t <= s" (1) or "keep t > s" (0) when x and y are
 * the indices along axes (as, at) or (at, as); -1 when it is neither. */
static int compare_polarity(const char *dir, int ix, int iy, int as, int at) {
  if (!dir) return -1;
  if (ix == as && iy == at) return strcmp(dir, "GE") == 0 ? 1 : strcmp(dir, "LT") == 0 ? 0 : -1;
  if (ix == at && iy == as) return strcmp(dir, "LE") == 0 ? 1 : strcmp(dir, "GT") == 0 ? 0 : -1;
  return -1;
}

/* Whether i1 constant `a` is (t <= s) == keep at every index, s and t the indices along axes
 * `as` and `at`. Linear in the constant's size (a splat: in the size of the (s, t) plane). */
static bool constant_is_causal(const hr_attr *a, int as, int at, bool keep) {
  const hr_shape *s = &a->u.dense.type.shape;
  const uint8_t *bits = a->u.dense.data;
  int64_t n, idx[HR_MAX_RANK] = {0};
  if (!hf_ok(hr_shape_num_elements(s, &n))) return false;
  if (a->u.dense.splat) {
    for (int64_t i = 0; i < s->dims[as]; i++)
      for (int64_t j = 0; j < s->dims[at]; j++)
        if ((bits[0] != 0) != ((j <= i) == keep)) return false;
    return true;
  }
  if (a->u.dense.nbytes < (size_t)n) return false;
  for (int64_t i = 0; i < n; i++, next_index(s, idx))
    if ((bits[i] != 0) != ((idx[at] <= idx[as]) == keep)) return false;
  return true;
}

/* Whether i1 value `v` is (t <= s) == keep at every index, s and t the indices along its axes
 * `as` and `at` (both of size > 1). */
static bool mask_is_causal(const hf_graph *g, const hr_value *v, int as, int at, bool keep, int depth) {
  const hr_op *op = v->def;
  if (!op || op->parent != &g->fn->body || depth > MAX_MASK_DEPTH || v->type.dtype != HR_I1 ||
      !hr_type_is_static(&v->type))
    return false;
  const hr_shape *s = &v->type.shape;
  switch (op->code) {
    case HR_OP_CONSTANT: {
      const hr_attr *a = hr_op_attr(op, "value");
      return a && a->kind == HR_ATTR_DENSE && a->u.dense.type.dtype == HR_I1 && constant_is_causal(a, as, at, keep);
    }
    case HR_OP_NOT: return mask_is_causal(g, op->operands[0], as, at, !keep, depth + 1);
    case HR_OP_COMPARE: {
      int ix = index_axis(g, op->operands[0], depth + 1), iy = index_axis(g, op->operands[1], depth + 1);
      int pol = compare_polarity(hr_op_attr_enum(op, "comparison_direction"), ix, iy, as, at);
      return pol >= 0 && (pol == 1) == keep;
    }
    case HR_OP_BROADCAST_IN_DIM: {
      const hr_value *w = op->operands[0];
      int64_t dims[HR_MAX_RANK];
      int n, ws = -1, wt = -1;
      if (!hf_ok(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, &n))) return false;
      for (int j = 0; j < n; j++) {
        if (dims[j] == as && w->type.shape.dims[j] == s->dims[as]) ws = j;
        if (dims[j] == at && w->type.shape.dims[j] == s->dims[at]) wt = j;
      }
      return ws >= 0 && wt >= 0 && mask_is_causal(g, w, ws, wt, keep, depth + 1);
    }
    case HR_OP_RESHAPE: {
      const hr_value *w = op->operands[0];
      if (!hf_is_unit_reshape(op)) return false;
      int ws = nth_big_dim(&w->type.shape, big_dims_before(s, as));
      int wt = nth_big_dim(&w->type.shape, big_dims_before(s, at));
      return ws >= 0 && wt >= 0 && mask_is_causal(g, w, ws, wt, keep, depth + 1);
    }
    default: return false;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Position masks (a decode step over its KV cache)                                                */
/* ---------------------------------------------------------------------------------------------- */

/* When integer value `v` holds at every index the element of an i32 vector p [B] at its index
 * along axis `ab` (v[..., b, ...] = p[b], through broadcast_in_dim ops that add only unit or
 * broadcast dimensions), returns p; NULL otherwise. */
static hr_value *row_source(const hf_graph *g, hr_value *v, int ab, int depth) {
  const hr_shape *s = &v->type.shape;
  if (depth > MAX_MASK_DEPTH || !hr_type_is_static(&v->type) || ab < 0 || ab >= s->rank) return NULL;
  if (s->rank == 1 && v->type.dtype == HR_I32) return v;
  const hr_op *op = v->def;
  if (!op || op->parent != &g->fn->body || op->code != HR_OP_BROADCAST_IN_DIM) return NULL;
  const hr_value *w = op->operands[0];
  int64_t dims[HR_MAX_RANK];
  int n, wb = -1;
  if (!hf_ok(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, &n)) || n != w->type.shape.rank)
    return NULL;
  for (int j = 0; j < n; j++) {
    if (dims[j] == ab && w->type.shape.dims[j] == s->dims[ab])
      wb = j;
    else if (w->type.shape.dims[j] != 1)
      return NULL;
  }
  return wb >= 0 ? row_source(g, op->operands[0], wb, depth + 1) : NULL;
}

/* When i1 value `v` keeps (keep) or masks (!keep) exactly the keys t <= p[b], b and t its indices
 * along axes `ab` and `at`, p an i32 vector [B] compared as signed, the same along every other
 * axis, returns p; NULL otherwise. Analysed through broadcast_in_dim ops (of unit or broadcast
 * dimensions), not, and the compare of an index tensor along `at` with p broadcast along `ab`. */
static hr_value *mask_position(const hf_graph *g, const hr_value *v, int ab, int at, bool keep, int depth) {
  const hr_op *op = v->def;
  if (!op || op->parent != &g->fn->body || depth > MAX_MASK_DEPTH || v->type.dtype != HR_I1 ||
      !hr_type_is_static(&v->type))
    return NULL;
  const hr_shape *s = &v->type.shape;
  if (op->code == HR_OP_NOT) return mask_position(g, op->operands[0], ab, at, !keep, depth + 1);
  if (op->code == HR_OP_BROADCAST_IN_DIM) {
    const hr_value *w = op->operands[0];
    int64_t dims[HR_MAX_RANK];
    int n, wb = -1, wt = -1;
    if (!hf_ok(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, &n)) || n != w->type.shape.rank)
      return NULL;
    for (int j = 0; j < n; j++) {
      if (dims[j] == ab && w->type.shape.dims[j] == s->dims[ab])
        wb = j;
      else if (dims[j] == at && w->type.shape.dims[j] == s->dims[at])
        wt = j;
      else if (w->type.shape.dims[j] != 1)
        return NULL;
    }
    return wb >= 0 && wt >= 0 ? mask_position(g, w, wb, wt, keep, depth + 1) : NULL;
  }
  if (op->code != HR_OP_COMPARE) return NULL;
  const char *dir = hr_op_attr_enum(op, "comparison_direction"), *type = hr_op_attr_enum(op, "compare_type");
  if (!dir || (type && strcmp(type, "SIGNED") != 0)) return NULL;
  /* keep t <= p: LE(t, p) or GE(p, t); keep t > p: GT(t, p) or LT(p, t). */
  for (int x = 0; x < 2; x++) {
    hr_value *idx = op->operands[x], *row = op->operands[1 - x];
    if (index_axis(g, idx, depth + 1) != at) continue;
    bool kept = strcmp(dir, x == 0 ? "LE" : "GE") == 0, masked = strcmp(dir, x == 0 ? "GT" : "LT") == 0;
    hr_value *p = kept || masked ? row_source(g, row, ab, depth + 1) : NULL;
    if (p && kept == keep && p->type.shape.dims[0] == s->dims[ab]) return p;
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The pattern                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Masks already analysed in this pass (the layers of a model usually share one), with their
 * verdicts; the oldest entry is replaced when it is full. */
enum { MASK_CACHE = 8 };
typedef struct mask_cache {
  int n;
  const hr_value *mask[MASK_CACHE];
  bool keep[MASK_CACHE], causal[MASK_CACHE];
} mask_cache;

/* mask_is_causal over the (s, t) axes (2, 3) of a [B, H, S, T] mask, remembered in `c`. */
static bool cached_mask_is_causal(const hf_graph *g, mask_cache *c, const hr_value *v, bool keep) {
  for (int i = 0; i < c->n && i < MASK_CACHE; i++)
    if (c->mask[i] == v && c->keep[i] == keep) return c->causal[i];
  bool causal = mask_is_causal(g, v, 2, 3, keep, 0);
  int slot = c->n++ % MASK_CACHE;
  c->mask[slot] = v;
  c->keep[slot] = keep;
  c->causal[slot] = causal;
  return causal;
}

/* What the matcher found. */
typedef struct attention_match {
  mask_cache *masks;
  hf_ops p;
  hr_value *q, *k, *v;
  hr_value *position; /* a position mask's i32 [B], or NULL */
  double scale;
  bool causal;
} attention_match;

/* When `x` is multiply(y, c), multiply(c, y) or divide(y, c) with c a splat, multiplies the scale
 * by c (or 1 / c), adds the op to the pattern and returns y; otherwise returns x. */
static hr_value *strip_scale(const hf_graph *g, hr_value *x, attention_match *m) {
  const hr_op *op = x->def;
  float c;
  if (!op || op->parent != &g->fn->body || op->n_operands != 2) return x;
  for (int i = 0; i < 2; i++) {
    bool mul = op->code == HR_OP_MULTIPLY, div = op->code == HR_OP_DIVIDE && i == 0;
    hr_value *y = op->operands[i];
    if ((mul || div) && hf_same_type(y, x) && hf_splat_f32(g, hf_other(op, i), &c) && c != 0.0f &&
        hf_ops_add(&m->p, op)) {
      m->scale = div ? m->scale / c : m->scale * c;
      return y;
    }
  }
  return x;
}

/* Reads the dimension numbers of dot_general `op` and checks them against the wanted lists. */
static bool dot_is(const hr_op *op, const int64_t *lb, const int64_t *rb, int64_t lc, int64_t rc) {
  hf_dot_dims d;
  return op && hf_dot_dims_of(op, &d) && hf_list_is(d.lhs_batch, d.n_batch, lb, 2) &&
         hf_list_is(d.rhs_batch, d.n_batch, rb, 2) && hf_list_is(d.lhs_contract, d.n_contract, &lc, 1) &&
         hf_list_is(d.rhs_contract, d.n_contract, &rc, 1);
}

/* Strips the masking select from the softmax input `x`: sets m->causal when a causal mask is
 * proven, m->position when a position mask is; returns the scores, or NULL when `x` is a select
 * whose mask is neither. */
static hr_value *strip_mask(const hf_graph *g, hr_value *x, attention_match *m) {
  const hr_op *sel = hf_def(g, x, HR_OP_SELECT);
  if (!sel) return x;
  float fill;
  hr_value *pred = sel->operands[0];
  if (pred->type.shape.rank != 4 || !hf_ops_add(&m->p, sel)) return NULL;
  for (int keep = 1; keep >= 0; keep--) {
    hr_value *scores = sel->operands[keep ? 1 : 2], *other = sel->operands[keep ? 2 : 1];
    if (!hf_splat_f32(g, other, &fill) || fill > MAX_FILL) continue;
    if (cached_mask_is_causal(g, m->masks, pred, keep)) {
      m->causal = true;
      return scores;
    }
    if ((m->position = mask_position(g, pred, 0, 3, keep, 0)) != NULL) return scores;
  }
  return NULL;
}

/* Checks the shapes: q [B, S, H, D], k and v [B, T, H, D], the result [B, S, H, D]. */
static bool shapes_fit(const attention_match *m, const hr_value *y) {
  if (!hf_is_f32(m->q) || !hf_is_f32(m->k) || !hf_is_f32(m->v) || !hf_same_type(m->q, y) || !hf_same_type(m->k, m->v))
    return false;
  const int64_t *q = m->q->type.shape.dims, *k = m->k->type.shape.dims;
  return m->k->type.shape.rank == 4 && q[0] == k[0] && q[2] == k[2] && q[3] == k[3];
}

/* Matches the pattern ending in transpose `tr`. */
static bool match_attention(const hf_graph *g, const hr_op *tr, attention_match *m) {
  static const int64_t perm[] = {0, 2, 1, 3}, pv_lb[] = {0, 1}, pv_rb[] = {0, 2}, qk_b[] = {0, 2};
  int64_t p_perm[HR_MAX_RANK];
  int n;
  if (!hf_ok(hr_op_attr_i64_list(tr, "permutation", p_perm, HR_MAX_RANK, &n)) || !hf_list_is(p_perm, n, perm, 4) ||
      !hf_ops_add(&m->p, tr))
    return false;
  const hr_op *pv = hf_def(g, tr->operands[0], HR_OP_DOT_GENERAL);
  if (!dot_is(pv, pv_lb, pv_rb, 3, 1) || !hf_ops_add(&m->p, pv)) return false;
  m->v = pv->operands[1];
  m->scale = 1.0;
  hr_value *x = hf_match_softmax(g, pv->operands[0], &m->p);
  hr_value *scores = x ? strip_mask(g, x, m) : NULL;
  if (!scores) return false;
  const hr_op *qk = hf_def(g, strip_scale(g, scores, m), HR_OP_DOT_GENERAL);
  if (!dot_is(qk, qk_b, qk_b, 3, 3) || !hf_ops_add(&m->p, qk)) return false;
  m->k = qk->operands[1];
  m->q = strip_scale(g, qk->operands[0], m);
  return shapes_fit(m, &tr->results[0]) && hf_ops_closed(g, &m->p, tr);
}

/* Replaces the pattern ending at position `pos` with hlorun.attention. */
static hr_status emit(hf_graph *g, int pos, const attention_match *m) {
  hr_op *tr = hf_op_at(g, pos), *op;
  hr_value *operands[4] = {m->q, m->k, m->v, m->position};
  hr_attr *scale, *causal;
  HR_TRY(hf_new_op(g, HR_OP_HLORUN_ATTENTION, tr, operands, m->position ? 4 : 3, &tr->results[0].type, &op));
  HR_TRY(hf_attr_f32(g, (float)m->scale, &scale));
  HR_TRY(hf_attr_bool(g, m->causal, &causal));
  HR_TRY(hf_set_attr(g, op, "scale", scale));
  HR_TRY(hf_set_attr(g, op, "causal", causal));
  HR_TRY(hf_insert_before(g, pos, op));
  hf_replace(g, &tr->results[0], &op->results[0]);
  g->stats.attention++;
  return NULL;
}

hr_status hf_fuse_attention(hf_graph *g) {
  mask_cache masks = {0};
  for (int pos = 0; pos < g->n_ops; pos++) {
    const hr_op *op = hf_op_at(g, pos);
    attention_match m;
    memset(&m, 0, sizeof m);
    m.masks = &masks;
    if (op->code == HR_OP_TRANSPOSE && match_attention(g, op, &m)) HR_TRY(emit(g, pos, &m));
  }
  return NULL;
}

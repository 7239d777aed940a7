/* chlo's broadcasting ops, run as their stablehlo op over operands broadcast to the result's shape
 * (chlo.h), chlo.constant_like and chlo.ragged_dot. */
#include <string.h>

#include "base/elem.h"
#include "interp/data.h"
#include "interp/elementwise_internal.h"
#include "interp/interp.h"
#include "ir/chlo.h"

/* chlo.broadcast_*: each operand whose shape differs from the result's is broadcast into a
 * temporary (as stablehlo.broadcast_in_dim would), then the stablehlo op's kernel runs on the op
 * with the stablehlo opcode (its attributes, comparison_direction and the like, kept). */
static hr_status kernel_broadcast_op(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  int n = op->n_operands;
  if (n < 2 || n > 3) return hr_op_error(op, HR_VERIFY_ERROR, "expected 2 or 3 operands, have %d", n);
  const hr_shape *shapes[3] = {NULL, NULL, NULL};
  for (int i = 0; i < n; i++) shapes[i] = &operands[i]->shape;
  hr_chlo_broadcast plan;
  HR_TRY(hr_chlo_broadcast_plan(op, shapes, n, &plan));
  hr_tensor *owned[3] = {NULL, NULL, NULL};
  hr_tensor *args[3] = {NULL, NULL, NULL};
  hr_status s = NULL;
  for (int i = 0; !s && i < n; i++) {
    args[i] = operands[i];
    if (ew_same_shape(&operands[i]->shape, &results[0]->shape)) continue;
    s = hr_interp_alloc(in, op, operands[i]->dtype, &results[0]->shape, &owned[i]);
    if (!s) s = hr_data_broadcast_into(op, operands[i], plan.dims[i], operands[i]->shape.rank, owned[i]);
    args[i] = owned[i];
  }
  hr_op base = *op;
  base.code = hr_chlo_broadcast_base(op->code);
  hr_kernel_fn fn = base.code != HR_OP_COUNT ? in->kernels[base.code] : NULL;
  if (!s && !fn) s = hr_op_error(op, HR_UNIMPLEMENTED, "the interpreter does not implement this op");
  if (!s) s = fn(in, &base, args, results);
  for (int i = 0; i < n; i++) hr_tensor_free(owned[i]);
  return s;
}

/* chlo.constant_like: every element the scalar `value` (its type is the result's element type). */
static hr_status kernel_constant_like(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  (void)in;
  (void)operands;
  const hr_attr *v = hr_op_attr(op, "value");
  hr_tensor *r = results[0];
  int64_t n = hr_tensor_num_elements(r);
  if (!v) return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute 'value'");
  if (n == 0) return NULL;
  if (v->kind == HR_ATTR_FLOAT && hr_dtype_is_real_float(r->dtype))
    hr_store_float(r->dtype, r->data, 0, v->u.f.value);
  else if (v->kind == HR_ATTR_INT && !hr_dtype_is_float(r->dtype) && !hr_dtype_is_complex(r->dtype))
    hr_store_int(r->dtype, r->data, 0, v->u.i.value);
  else if (v->kind == HR_ATTR_BOOL && r->dtype == HR_I1)
    hr_store_int(r->dtype, r->data, 0, v->u.b);
  else
    return hr_op_error(op, HR_VERIFY_ERROR, "attribute 'value' does not have the result's element type %s",
                       hr_dtype_name(r->dtype));
  hr_data_replicate(r->data, n, hr_dtype_size(r->dtype));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* chlo.ragged_dot                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* A ragged dot in progress: its operands, their strides, and the lhs and rhs indices of the
 * product being added. */
typedef struct ragged {
  hr_ragged_dot_dims d;
  const hr_tensor *lhs, *rhs, *sizes;
  int64_t lhs_stride[HR_MAX_RANK], rhs_stride[HR_MAX_RANK], sizes_stride[HR_MAX_RANK];
  int64_t prefix[HR_MAX_RANK]; /* lhs dimensions indexing group_sizes before its last one */
  int n_prefix;                /* 0 when group_sizes is [g] */
  int64_t groups;              /* g */
  int64_t lidx[HR_MAX_RANK], ridx[HR_MAX_RANK];
} ragged;

/* A sum of products in the result's arithmetic: complex (re, im), real (re) or wrapping integer. */
typedef struct ragged_sum {
  double re, im;
  uint64_t i;
} ragged_sum;

/* a + b, held within [INT64_MIN, INT64_MAX]: group sizes are untrusted. */
static int64_t saturating_add(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}

/* group_sizes[prefix..., j] for the current lhs index. */
static int64_t group_size(const ragged *g, int64_t j) {
  int64_t off = j * g->sizes_stride[g->sizes->shape.rank - 1];
  for (int p = 0; p < g->n_prefix; p++) off += g->lidx[g->prefix[p]] * g->sizes_stride[p];
  return hr_load_int(g->sizes->dtype, g->sizes->data, off);
}

/* Whether the current lhs index along the ragged dimension falls in group j: the groups take
 * consecutive ranges [start, start + size) from 0, as StableHLO's legalization masks them. */
static bool in_group(const ragged *g, int64_t j) {
  int64_t start = 0;
  for (int64_t i = 0; i < j; i++) start = saturating_add(start, group_size(g, i));
  int64_t x = g->lidx[g->d.lhs_ragged];
  return x >= start && x < saturating_add(start, group_size(g, j));
}

/* Adds lhs[lidx] * rhs[ridx] to the sum. */
static void multiply_add(const ragged *g, hr_dtype result, ragged_sum *sum) {
  int64_t li = 0, ri = 0;
  for (int k = 0; k < g->lhs->shape.rank; k++) li += g->lidx[k] * g->lhs_stride[k];
  for (int k = 0; k < g->rhs->shape.rank; k++) ri += g->ridx[k] * g->rhs_stride[k];
  hr_dtype t = g->lhs->dtype;
  if (hr_dtype_is_complex(result)) {
    hr_c128 a = hr_load_complex(t, g->lhs->data, li), b = hr_load_complex(t, g->rhs->data, ri);
    sum->re += a.re * b.re - a.im * b.im;
    sum->im += a.re * b.im + a.im * b.re;
  } else if (hr_dtype_is_real_float(result)) {
    sum->re += hr_load_float(t, g->lhs->data, li) * hr_load_float(t, g->rhs->data, ri);
  } else {
    sum->i += (uint64_t)hr_load_int(t, g->lhs->data, li) * (uint64_t)hr_load_int(t, g->rhs->data, ri);
  }
}

/* Sums the products over every contracting index; with group >= 0 (the contracting mode) only
 * those whose ragged index falls in that group. */
static void contract(ragged *g, int64_t group, hr_dtype result, ragged_sum *sum) {
  int nc = g->d.n_contract;
  int64_t k[HR_MAX_RANK] = {0};
  for (int t = 0; t < nc; t++)
    if (g->lhs->shape.dims[g->d.lhs_contract[t]] == 0) return;
  for (;;) {
    for (int t = 0; t < nc; t++) g->lidx[g->d.lhs_contract[t]] = g->ridx[g->d.rhs_contract[t]] = k[t];
    if (group < 0 || in_group(g, group)) multiply_add(g, result, sum);
    int t = nc - 1;
    while (t >= 0 && ++k[t] == g->lhs->shape.dims[g->d.lhs_contract[t]]) k[t--] = 0;
    if (t < 0) return;
  }
}

/* Whether v is one of the first n entries of list. */
static bool listed(const int64_t *list, int n, int64_t v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return true;
  return false;
}

/* Sets the lhs and rhs indices of result element `ri` (result indices): [group (contracting
 * mode)], batch, lhs free, rhs free; returns the group index (-1 outside the contracting mode). */
static int64_t place(ragged *g, const int64_t *ri) {
  const hr_ragged_dot_dims *d = &g->d;
  int pos = 0;
  int64_t group = d->mode == HR_RAGGED_CONTRACTING ? ri[pos++] : -1;
  for (int t = 0; t < d->n_batch; t++) g->lidx[d->lhs_batch[t]] = g->ridx[d->rhs_batch[t]] = ri[pos++];
  for (int k = 0; k < g->lhs->shape.rank; k++)
    if (!listed(d->lhs_batch, d->n_batch, k) && !listed(d->lhs_contract, d->n_contract, k)) g->lidx[k] = ri[pos++];
  for (int k = 0; k < g->rhs->shape.rank; k++)
    if (!listed(d->rhs_batch, d->n_batch, k) && !listed(d->rhs_contract, d->n_contract, k) && k != d->rhs_group)
      g->ridx[k] = ri[pos++];
  return group;
}

/* The result's element `ri`: in the non-contracting mode the lhs row times the rhs of each group
 * it falls in (none: 0); in the contracting mode the products of its group's ragged indices; in
 * the batch mode a dot_general's sum. */
static ragged_sum ragged_element(ragged *g, const int64_t *ri, hr_dtype result) {
  ragged_sum sum = {0, 0, 0};
  int64_t group = place(g, ri);
  if (g->d.mode != HR_RAGGED_NON_CONTRACTING) {
    contract(g, group, result, &sum);
    return sum;
  }
  for (int64_t j = 0; j < g->groups; j++) {
    if (!in_group(g, j)) continue;
    g->ridx[g->d.rhs_group] = j;
    contract(g, -1, result, &sum);
  }
  return sum;
}

/* Whether the operands' and the result's element types are of one kind (complex, real, integer). */
static bool same_kind(hr_dtype a, hr_dtype b) {
  if (hr_dtype_is_complex(a) || hr_dtype_is_complex(b)) return hr_dtype_is_complex(a) && hr_dtype_is_complex(b);
  return hr_dtype_is_real_float(a) == hr_dtype_is_real_float(b);
}

/* chlo.ragged_dot: a dot_general whose lhs ragged dimension is split into groups by group_sizes
 * (chlo.h's three modes), computed product by product. */
static hr_status kernel_ragged_dot(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  (void)in;
  ragged g;
  memset(&g, 0, sizeof g);
  HR_TRY(hr_ragged_dot_dims_read(op, &g.d));
  g.lhs = operands[0];
  g.rhs = operands[1];
  g.sizes = operands[2];
  hr_tensor *r = results[0];
  if (!same_kind(g.lhs->dtype, r->dtype) || g.lhs->dtype != g.rhs->dtype || g.sizes->shape.rank < 1)
    return hr_op_error(op, HR_UNIMPLEMENTED, "operands of type %s with a result of type %s are not supported",
                       hr_dtype_name(g.lhs->dtype), hr_dtype_name(r->dtype));
  hr_data_strides(&g.lhs->shape, g.lhs_stride);
  hr_data_strides(&g.rhs->shape, g.rhs_stride);
  hr_data_strides(&g.sizes->shape, g.sizes_stride);
  if (g.sizes->shape.rank > 1) g.n_prefix = hr_ragged_dot_prefix(&g.d, g.lhs->shape.rank, g.prefix);
  g.groups = g.sizes->shape.dims[g.sizes->shape.rank - 1];
  int64_t n = hr_tensor_num_elements(r), ri[HR_MAX_RANK] = {0};
  for (int64_t e = 0; e < n; e++) {
    ragged_sum sum = ragged_element(&g, ri, r->dtype);
    if (hr_dtype_is_complex(r->dtype))
      hr_store_complex(r->dtype, r->data, e, (hr_c128){sum.re, sum.im});
    else if (hr_dtype_is_real_float(r->dtype))
      hr_store_float(r->dtype, r->data, e, sum.re);
    else
      hr_store_int(r->dtype, r->data, e, (int64_t)sum.i);
    for (int k = r->shape.rank - 1; k >= 0 && ++ri[k] == r->shape.dims[k]; k--) ri[k] = 0;
  }
  return NULL;
}

const hr_kernel hr_kernels_chlo[] = {
    {HR_OP_CHLO_BROADCAST_ADD, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_AND, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_ATAN2, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_COMPARE, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_COMPLEX, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_DIVIDE, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_MAXIMUM, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_MINIMUM, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_MULTIPLY, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_NEXT_AFTER, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_OR, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_POLYGAMMA, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_POWER, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_REMAINDER, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SELECT, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SHIFT_LEFT, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_SUBTRACT, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_XOR, kernel_broadcast_op},
    {HR_OP_CHLO_BROADCAST_ZETA, kernel_broadcast_op},
    {HR_OP_CHLO_CONSTANT_LIKE, kernel_constant_like},
    {HR_OP_CHLO_RAGGED_DOT, kernel_ragged_dot},
    {HR_OP_COUNT, NULL},
};

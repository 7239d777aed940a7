/* chlo's broadcasting ops, run as their stablehlo op over operands broadcast to the result's shape
 * (chlo.h), chlo.constant_like, chlo.ragged_dot and chlo.scan. */
#include <stdio.h>
#include <string.h>

#include "base/elem.h"
#include "interp/data.h"
#include "interp/elementwise_internal.h"
#include "interp/interp.h"
#include "ir/chlo.h"

/* An error of the stablehlo op `base` run for chlo op `op`, reworded to name `op` (its message
 * after "stablehlo.xyz: "); NULL stays NULL. */
static hr_status renamed(const hr_op *op, hr_opcode base, hr_status s) {
  if (!s) return NULL;
  char prefix[64];
  snprintf(prefix, sizeof prefix, "%s: ", hr_opcode_name(base));
  const char *at = strstr(hr_status_message(s), prefix);
  if (!at) return s;
  hr_status e = hr_op_error(op, hr_status_code(s), "%s", at + strlen(prefix));
  hr_status_free(s);
  return e;
}

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
  if (!s) s = renamed(op, base.code, fn(in, &base, args, results));
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
    hr_code stop = (e & 1023) == 0 ? hr_control_poll(in->opts.control) : HR_OK;
    if (stop) return hr_op_error(op, stop, "%s", hr_control_reason(stop));
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

/* ---------------------------------------------------------------------------------------------- */
/* chlo.scan                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* The sizes around dimension `dim` of a shape: `outer` elements before it, `inner` bytes after. */
static void split_at(const hr_shape *s, int64_t dim, size_t esize, int64_t *outer, size_t *inner) {
  *outer = 1;
  *inner = esize;
  for (int d = 0; d < s->rank; d++) {
    if (d < dim) *outer *= s->dims[d];
    if (d > dim) *inner *= (size_t)s->dims[d];
  }
}

/* Copies position `pos` along `dim` of `whole` into `part` (part_to_whole false) or `part` into
 * that position of `whole`; `part` has whole's shape without dim. */
static void copy_position(hr_tensor *whole, hr_tensor *part, int64_t dim, int64_t pos, bool part_to_whole) {
  int64_t outer;
  size_t inner;
  split_at(&whole->shape, dim, hr_dtype_size(whole->dtype), &outer, &inner);
  unsigned char *w = whole->data, *p = part->data;
  for (int64_t o = 0; o < outer; o++) {
    unsigned char *at = w + ((size_t)o * (size_t)whole->shape.dims[dim] + (size_t)pos) * inner;
    if (part_to_whole)
      memcpy(at, p + (size_t)o * inner, inner);
    else
      memcpy(p + (size_t)o * inner, at, inner);
  }
}

/* Whether `part` is what position `pos` of `whole` along dim holds: whole's shape without dim. */
static bool is_position_of(const hr_tensor *part, const hr_tensor *whole, int64_t dim) {
  if (part->dtype != whole->dtype || part->shape.rank + 1 != whole->shape.rank) return false;
  for (int d = 0; d < part->shape.rank; d++)
    if (part->shape.dims[d] != whole->shape.dims[d < dim ? d : d + 1]) return false;
  return true;
}

/* One scan step at position `pos`: the body runs on the inputs' slices there and the carries
 * (args[n_inputs..]); its outputs go to that position of results[0..n_outputs), and its new
 * carries replace the owned ones (carry[], freed and replaced; the inits are never freed). */
static hr_status scan_step(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results, int n_inputs,
                           int n_inits, int64_t dim, int64_t pos, hr_tensor **args, hr_tensor **carry, hr_tensor **outs) {
  int n_outputs = op->n_results - n_inits;
  hr_status s = NULL;
  for (int i = 0; !s && i < n_inputs; i++) {
    const hr_type *t = &op->regions[0].args[i].type;
    hr_shape part = operands[i]->shape;
    for (int d = (int)dim; d + 1 < part.rank; d++) part.dims[d] = part.dims[d + 1];
    part.rank--;
    s = hr_interp_alloc(in, op, t->dtype, &part, &args[i]);
    if (!s) copy_position(operands[i], args[i], dim, pos, false);
  }
  if (!s) s = hr_interp_run_block(in, &op->regions[0], args, outs);
  for (int i = 0; !s && i < n_outputs; i++) {
    if (!is_position_of(outs[i], results[i], dim))
      s = hr_op_error(op, HR_VERIFY_ERROR, "body output %d does not have the shape of one position of result %d", i, i);
    else
      copy_position(results[i], outs[i], dim, pos, true);
  }
  for (int i = 0; i < n_inputs; i++) {
    hr_tensor_free(args[i]);
    args[i] = NULL;
  }
  for (int i = 0; i < op->n_results; i++) {
    if (i < n_outputs || s) {
      hr_tensor_free(outs[i]);
    } else {
      hr_tensor_free(carry[i - n_outputs]);
      carry[i - n_outputs] = args[n_inputs + i - n_outputs] = outs[i];
    }
    outs[i] = NULL;
  }
  return s;
}

/* chlo.scan: the body runs once per position along `dimension` (last to first when is_reverse),
 * on the inputs' slices there and the carries (first the inits); each run's outputs fill that
 * position of the outputs and its carries feed the next run; the last carries are results too. */
static hr_status kernel_scan(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  int n_inputs = 0, n_inits = 0;
  int64_t dim = 0, size = 0;
  bool reverse = false;
  HR_TRY(hr_chlo_scan_counts(op, &n_inputs, &n_inits));
  HR_TRY(hr_op_attr_i64(op, "dimension", &dim));
  const hr_attr *rev = hr_op_attr(op, "is_reverse");
  reverse = rev && rev->kind == HR_ATTR_BOOL && rev->u.b;
  int n_outputs = op->n_results - n_inits;
  const hr_tensor *sized = n_inputs ? operands[0] : n_outputs ? results[0] : NULL;
  if (!sized || dim >= sized->shape.rank) return hr_op_error(op, HR_VERIFY_ERROR, "no operand or result has the scan dimension");
  size = sized->shape.dims[dim];
  /* args: the body's arguments; carry: the carries owned so far; outs: one run's results. */
  size_t n_scratch = (size_t)op->n_operands + (size_t)n_inits + (size_t)op->n_results;
  hr_tensor **args = in->allocator->alloc(in->allocator->ctx, (n_scratch + 1) * sizeof *args, 16);
  if (!args) return hr_op_error(op, HR_OUT_OF_MEMORY, "out of memory");
  memset(args, 0, (n_scratch + 1) * sizeof *args);
  hr_tensor **carry = args + op->n_operands, **outs = carry + n_inits;
  for (int i = 0; i < n_inits; i++) args[n_inputs + i] = operands[n_inputs + i];
  hr_status s = NULL;
  for (int64_t step = 0; !s && step < size; step++) {
    hr_code stop = hr_control_poll(in->opts.control);
    if (stop) s = hr_op_error(op, stop, "%s (at scan position %lld)", hr_control_reason(stop), (long long)step);
    if (!s) s = scan_step(in, op, operands, results, n_inputs, n_inits, dim, reverse ? size - 1 - step : step, args, carry, outs);
  }
  for (int i = 0; !s && i < n_inits; i++) {
    hr_tensor *last = args[n_inputs + i];
    if (last->dtype != results[n_outputs + i]->dtype || last->nbytes != results[n_outputs + i]->nbytes)
      s = hr_op_error(op, HR_VERIFY_ERROR, "carry %d does not have the type of result %d", i, n_outputs + i);
    else if (last->nbytes)
      memcpy(results[n_outputs + i]->data, last->data, last->nbytes);
  }
  for (int i = 0; i < n_inits; i++) hr_tensor_free(carry[i]);
  in->allocator->free(in->allocator->ctx, args);
  return s;
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
    {HR_OP_CHLO_SCAN, kernel_scan},
    {HR_OP_COUNT, NULL},
};

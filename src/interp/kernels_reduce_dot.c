/* stablehlo.dot_general and the legacy stablehlo.dot.
 *
 * The operands are packed into contiguous [batch, m, k] and [batch, k, n] matrices of the
 * accumulator kind of the result type (interp/reduce.h), each element first converted to the
 * result element type as XLA's operand upcasting does (i8 x i8 -> i32 sign-extends, bf16 -> f32 is
 * exact, i16 -> f16 rounds). The result's row-major layout [batch..., lhs free..., rhs free...] is
 * exactly [batch, m, n], so native accumulators are written in place. An operand already laid out
 * as needed is used without a copy. */
#include <string.h>

#include "interp/reduce.h"

/* One operand's dimensions in packing order, and its free dimensions. */
typedef struct dot_side {
  hr_red_view view; /* lhs: batch, free, contracting; rhs: batch, contracting, free */
  int nfree;
  int64_t free_dims[HR_MAX_RANK];
} dot_side;

/* Marks `n` dimensions of a rank-`rank` operand as used, rejecting repeats and out-of-range ones. */
static hr_status claim_dims(const hr_op *op, const char *what, const int64_t *d, int n, int rank, bool *used) {
  for (int i = 0; i < n; i++) {
    if (d[i] < 0 || d[i] >= rank)
      return hr_op_error(op, HR_VERIFY_ERROR, "%s dimension %lld is out of range for rank %d", what,
                         (long long)d[i], rank);
    if (used[d[i]]) return hr_op_error(op, HR_VERIFY_ERROR, "%s dimension %lld is used twice", what, (long long)d[i]);
    used[d[i]] = true;
  }
  return NULL;
}

/* Builds one operand's packing view: batch dims, then free and contracting dims in the order
 * `free_first` selects. */
static hr_status plan_side(const hr_op *op, const char *what, const hr_tensor *t, const int64_t *batch, int nb,
                           const int64_t *contract, int nc, bool free_first, dot_side *side) {
  bool used[HR_MAX_RANK] = {false};
  HR_TRY(claim_dims(op, what, batch, nb, t->shape.rank, used));
  HR_TRY(claim_dims(op, what, contract, nc, t->shape.rank, used));
  int64_t strides[HR_MAX_RANK];
  hr_row_major_strides(&t->shape, strides);
  side->nfree = 0;
  for (int d = 0; d < t->shape.rank; d++)
    if (!used[d]) side->free_dims[side->nfree++] = d;
  int64_t order[HR_MAX_RANK];
  int n = 0;
  for (int i = 0; i < nb; i++) order[n++] = batch[i];
  const int64_t *first = free_first ? side->free_dims : contract, *second = free_first ? contract : side->free_dims;
  int nfirst = free_first ? side->nfree : nc, nsecond = free_first ? nc : side->nfree;
  for (int i = 0; i < nfirst; i++) order[n++] = first[i];
  for (int i = 0; i < nsecond; i++) order[n++] = second[i];
  side->view.rank = n;
  for (int i = 0; i < n; i++) {
    side->view.dims[i] = t->shape.dims[order[i]];
    side->view.strides[i] = strides[order[i]];
  }
  return NULL;
}

/* Checks that paired dimensions agree in size and that the result has the contraction's shape. */
static hr_status check_dot_shapes(const hr_op *op, const hr_tensor *lhs, const hr_tensor *rhs, const hr_red_dot_dims *dd,
                                  const dot_side *ls, const dot_side *rs, const hr_tensor *res) {
  for (int i = 0; i < dd->nb; i++)
    if (lhs->shape.dims[dd->lb[i]] != rhs->shape.dims[dd->rb[i]])
      return hr_op_error(op, HR_VERIFY_ERROR, "batching dimensions %lld and %lld differ in size",
                         (long long)dd->lb[i], (long long)dd->rb[i]);
  for (int i = 0; i < dd->nc; i++)
    if (lhs->shape.dims[dd->lc[i]] != rhs->shape.dims[dd->rc[i]])
      return hr_op_error(op, HR_VERIFY_ERROR, "contracting dimensions %lld and %lld differ in size",
                         (long long)dd->lc[i], (long long)dd->rc[i]);
  hr_shape want = {.rank = dd->nb + ls->nfree + rs->nfree};
  if (want.rank > HR_MAX_RANK) return hr_op_error(op, HR_VERIFY_ERROR, "result rank exceeds %d", HR_MAX_RANK);
  int n = 0;
  for (int i = 0; i < dd->nb; i++) want.dims[n++] = lhs->shape.dims[dd->lb[i]];
  for (int i = 0; i < ls->nfree; i++) want.dims[n++] = lhs->shape.dims[ls->free_dims[i]];
  for (int i = 0; i < rs->nfree; i++) want.dims[n++] = rhs->shape.dims[rs->free_dims[i]];
  char buf[64];
  if (!hr_red_tensor_is(res, res->dtype, &want))
    return hr_op_error(op, HR_VERIFY_ERROR, "result shape must be %s", hr_red_shape_str(&want, buf, sizeof buf));
  return NULL;
}

/* True when visiting the view in row-major order reads memory contiguously from offset 0. */
static bool view_is_contiguous(const hr_red_view *v) {
  int64_t expect = 1;
  for (int d = v->rank - 1; d >= 0; d--) {
    if (v->dims[d] != 1 && v->strides[d] != expect) return false;
    expect *= v->dims[d];
  }
  return true;
}

/* Returns the operand as a contiguous accumulator matrix: the operand's own data when it already
 * is one, else a packed scratch copy stored in *scratch. */
static hr_status operand_matrix(hr_interp *in, const hr_op *op, const hr_tensor *t, const hr_red_view *v,
                                hr_dtype to, hr_red_acc k, hr_tensor **scratch, const void **data) {
  *scratch = NULL;
  if (t->dtype == to && hr_red_acc_is_native(k, to) && view_is_contiguous(v)) {
    *data = t->data;
    return NULL;
  }
  int64_t count;
  if (!hr_red_view_count(v, &count)) return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "operand size overflows");
  HR_TRY(hr_red_scratch(in, op, k, count, scratch));
  hr_red_pack(v, t->dtype, t->data, to, k, (*scratch)->data);
  *data = (*scratch)->data;
  return NULL;
}

/* Multiplies the packed operands into the result (in place for native accumulators). */
static hr_status multiply_into(hr_interp *in, const hr_op *op, hr_red_matmul *mm, hr_tensor *res) {
  int64_t count = hr_tensor_num_elements(res);
  if (hr_red_acc_is_native(mm->kind, res->dtype)) {
    mm->c = res->data;
    return hr_red_matmul_run(in, op, mm);
  }
  hr_tensor *acc;
  HR_TRY(hr_red_scratch(in, op, mm->kind, count, &acc));
  mm->c = acc->data;
  hr_status s = hr_red_matmul_run(in, op, mm);
  for (int64_t i = 0; !s && i < count; i++) hr_red_acc_store(mm->kind, acc->data, i, res->dtype, res->data, i);
  hr_tensor_free(acc);
  return s;
}

hr_status hr_red_contract(hr_interp *in, const hr_op *op, const hr_tensor *lhs, const hr_tensor *rhs,
                          const hr_red_dot_dims *dd, hr_tensor *res) {
  dot_side ls, rs;
  HR_TRY(plan_side(op, "lhs", lhs, dd->lb, dd->nb, dd->lc, dd->nc, true, &ls));
  HR_TRY(plan_side(op, "rhs", rhs, dd->rb, dd->nb, dd->rc, dd->nc, false, &rs));
  HR_TRY(check_dot_shapes(op, lhs, rhs, dd, &ls, &rs, res));
  if (hr_tensor_num_elements(res) == 0) return NULL;
  hr_red_matmul mm = {.kind = hr_red_acc_for(res->dtype)};
  const int64_t *ldims = lhs->shape.dims, *rdims = rhs->shape.dims;
  if (!hr_red_dims_product(ldims, dd->lb, dd->nb, &mm.batch) ||
      !hr_red_dims_product(ldims, ls.free_dims, ls.nfree, &mm.m) ||
      !hr_red_dims_product(ldims, dd->lc, dd->nc, &mm.k) || !hr_red_dims_product(rdims, rs.free_dims, rs.nfree, &mm.n))
    return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "operand sizes overflow");
  if (mm.k == 0) return NULL; /* empty contraction: the zero-filled result is the answer */
  hr_tensor *la = NULL, *rb = NULL;
  hr_status s = operand_matrix(in, op, lhs, &ls.view, res->dtype, mm.kind, &la, &mm.a);
  if (!s) s = operand_matrix(in, op, rhs, &rs.view, res->dtype, mm.kind, &rb, &mm.b);
  if (!s) s = multiply_into(in, op, &mm, res);
  hr_tensor_free(la);
  hr_tensor_free(rb);
  return s;
}

/* Reads one dimension list field of the dot_dimension_numbers struct (absent: empty). */
static hr_status read_dims_field(const hr_op *op, const hr_attr *dn, const char *field, int64_t *out, int *n) {
  *n = 0;
  const hr_attr *f = hr_attr_field(dn, field);
  if (!f) return NULL;
  hr_status s = hr_attr_to_i64_list(f, out, HR_MAX_RANK, n);
  if (s) {
    hr_status e = hr_op_error(op, HR_VERIFY_ERROR, "%s: %s", field, hr_status_message(s));
    hr_status_free(s);
    return e;
  }
  return NULL;
}

/* Reads dot_dimension_numbers. */
static hr_status read_hr_red_dot_dims(const hr_op *op, hr_red_dot_dims *dd) {
  const hr_attr *dn = hr_op_attr(op, "dot_dimension_numbers");
  if (!dn || (dn->kind != HR_ATTR_STRUCT && dn->kind != HR_ATTR_DICT))
    return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute 'dot_dimension_numbers'");
  int nrb, nrc;
  HR_TRY(read_dims_field(op, dn, "lhs_batching_dimensions", dd->lb, &dd->nb));
  HR_TRY(read_dims_field(op, dn, "rhs_batching_dimensions", dd->rb, &nrb));
  HR_TRY(read_dims_field(op, dn, "lhs_contracting_dimensions", dd->lc, &dd->nc));
  HR_TRY(read_dims_field(op, dn, "rhs_contracting_dimensions", dd->rc, &nrc));
  if (nrb != dd->nb || nrc != dd->nc)
    return hr_op_error(op, HR_VERIFY_ERROR, "lhs and rhs list different numbers of batching or contracting dimensions");
  return NULL;
}

/* stablehlo.dot_general(lhs, rhs). */
HR_RED_KERNEL(hr_red_kernel_dot_general) {
  if (op->n_operands != 2 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects two operands");
  hr_red_dot_dims dd;
  HR_TRY(read_hr_red_dot_dims(op, &dd));
  return hr_red_contract(in, op, operands[0], operands[1], &dd, results[0]);
}

/* stablehlo.dot(lhs, rhs): vector/matrix products contracting lhs's last and rhs's first
 * dimension. */
HR_RED_KERNEL(hr_red_kernel_dot) {
  if (op->n_operands != 2 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects two operands");
  int lr = operands[0]->shape.rank, rr = operands[1]->shape.rank;
  if (lr < 1 || lr > 2 || rr < 1 || rr > 2)
    return hr_op_error(op, HR_VERIFY_ERROR, "operands must be vectors or matrices");
  hr_red_dot_dims dd = {.nb = 0, .nc = 1};
  dd.lc[0] = lr - 1;
  dd.rc[0] = 0;
  return hr_red_contract(in, op, operands[0], operands[1], &dd, results[0]);
}

/* stablehlo.convolution and stablehlo.dynamic_conv.
 *
 * Each of the feature_group_count * batch_group_count groups is computed as one matrix product
 * (im2col): a patch matrix P [batch x output positions, input features x kernel positions] times
 * the kernel matrix W [input features x kernel positions, output features of the group], using
 * the contraction engine of kernels_reduce_matmul.c. Both operands are first converted to the
 * result element type, so the result type may differ from the operand types. Padding and
 * lhs-dilation holes contribute zeros; window_reversal mirrors the kernel. */
#include <string.h>

#include "interp/reduce.h"

/* Layout, window and grouping of a convolution. */
typedef struct conv_spec {
  int ns; /* number of spatial dimensions */
  int64_t in_batch, in_feat, in_sp[HR_MAX_RANK];
  int64_t k_in, k_out, k_sp[HR_MAX_RANK];
  int64_t out_batch, out_feat, out_sp[HR_MAX_RANK];
  int64_t stride[HR_MAX_RANK], lhs_dil[HR_MAX_RANK], rhs_dil[HR_MAX_RANK];
  int64_t pad_lo[HR_MAX_RANK], pad_hi[HR_MAX_RANK];
  int64_t reverse[HR_MAX_RANK];
  int64_t dilated[HR_MAX_RANK]; /* input spatial size after lhs dilation */
  int64_t fgc, bgc;
} conv_spec;

/* Reads an integer field of dimension_numbers. */
static hr_status read_int_field(const hr_op *op, const hr_attr *dn, const char *name, int64_t *out) {
  const hr_attr *f = hr_attr_field(dn, name);
  hr_status s = f ? hr_attr_to_i64(f, out) : hr_error(HR_VERIFY_ERROR, "missing");
  if (!s) return NULL;
  hr_status_free(s);
  return hr_op_error(op, HR_VERIFY_ERROR, "dimension_numbers: '%s' must be an integer", name);
}

/* Reads a list field of dimension_numbers (absent: empty) that must have `want` entries. */
static hr_status read_list_field(const hr_op *op, const hr_attr *dn, const char *name, int want, int64_t *out) {
  const hr_attr *f = hr_attr_field(dn, name);
  int n = 0;
  if (f) {
    hr_status s = hr_attr_to_i64_list(f, out, HR_MAX_RANK, &n);
    if (s) {
      hr_status_free(s);
      return hr_op_error(op, HR_VERIFY_ERROR, "dimension_numbers: '%s' must be an integer list", name);
    }
  }
  if (n != want)
    return hr_op_error(op, HR_VERIFY_ERROR, "dimension_numbers: '%s' has %d entries, expected %d", name, n, want);
  return NULL;
}

/* Checks that `a`, `b` and the `n` entries of `list` are a permutation of [0, n + 2). */
static hr_status check_permutation(const hr_op *op, const char *what, int64_t a, int64_t b, const int64_t *list,
                                   int n) {
  bool seen[HR_MAX_RANK] = {false};
  int64_t all[HR_MAX_RANK];
  all[0] = a;
  all[1] = b;
  for (int i = 0; i < n; i++) all[i + 2] = list[i];
  for (int i = 0; i < n + 2; i++) {
    if (all[i] < 0 || all[i] >= n + 2 || seen[all[i]])
      return hr_op_error(op, HR_VERIFY_ERROR, "%s dimensions are not a permutation", what);
    seen[all[i]] = true;
  }
  return NULL;
}

/* Reads dimension_numbers, the window attributes other than padding, and the group counts. */
static hr_status read_conv_spec(const hr_op *op, int rank, conv_spec *c) {
  memset(c, 0, sizeof *c);
  if (rank < 2) return hr_op_error(op, HR_VERIFY_ERROR, "operands must have rank >= 2");
  c->ns = rank - 2;
  const hr_attr *dn = hr_op_attr(op, "dimension_numbers");
  if (!dn || (dn->kind != HR_ATTR_STRUCT && dn->kind != HR_ATTR_DICT))
    return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute 'dimension_numbers'");
  HR_TRY(read_int_field(op, dn, "input_batch_dimension", &c->in_batch));
  HR_TRY(read_int_field(op, dn, "input_feature_dimension", &c->in_feat));
  HR_TRY(read_list_field(op, dn, "input_spatial_dimensions", c->ns, c->in_sp));
  HR_TRY(read_int_field(op, dn, "kernel_input_feature_dimension", &c->k_in));
  HR_TRY(read_int_field(op, dn, "kernel_output_feature_dimension", &c->k_out));
  HR_TRY(read_list_field(op, dn, "kernel_spatial_dimensions", c->ns, c->k_sp));
  HR_TRY(read_int_field(op, dn, "output_batch_dimension", &c->out_batch));
  HR_TRY(read_int_field(op, dn, "output_feature_dimension", &c->out_feat));
  HR_TRY(read_list_field(op, dn, "output_spatial_dimensions", c->ns, c->out_sp));
  HR_TRY(check_permutation(op, "input", c->in_batch, c->in_feat, c->in_sp, c->ns));
  HR_TRY(check_permutation(op, "kernel", c->k_in, c->k_out, c->k_sp, c->ns));
  HR_TRY(check_permutation(op, "output", c->out_batch, c->out_feat, c->out_sp, c->ns));
  HR_TRY(hr_red_read_dims_attr(op, "window_strides", c->ns, 1, true, c->stride));
  HR_TRY(hr_red_read_dims_attr(op, "lhs_dilation", c->ns, 1, true, c->lhs_dil));
  HR_TRY(hr_red_read_dims_attr(op, "rhs_dilation", c->ns, 1, true, c->rhs_dil));
  HR_TRY(hr_red_read_dims_attr(op, "window_reversal", c->ns, 0, false, c->reverse));
  c->fgc = c->bgc = 1;
  if (hr_op_attr(op, "feature_group_count")) HR_TRY(hr_op_attr_i64(op, "feature_group_count", &c->fgc));
  if (hr_op_attr(op, "batch_group_count")) HR_TRY(hr_op_attr_i64(op, "batch_group_count", &c->bgc));
  if (c->fgc < 1 || c->bgc < 1 || (c->fgc > 1 && c->bgc > 1))
    return hr_op_error(op, HR_VERIFY_ERROR, "invalid group counts %lld and %lld", (long long)c->fgc, (long long)c->bgc);
  return NULL;
}

/* Output size of spatial dimension d (XLA's dilated/strided window bounds); false on overflow. */
static bool conv_out_size(conv_spec *c, int d, int64_t in, int64_t k, int64_t *out) {
  int64_t dilated = 0, span = 0, with_hi, padded;
  if (in > 0 && (!hr_red_mul(in - 1, c->lhs_dil[d], &dilated) || !hr_red_add(dilated, 1, &dilated))) return false;
  if (k > 0 && (!hr_red_mul(k - 1, c->rhs_dil[d], &span) || !hr_red_add(span, 1, &span))) return false;
  if (!hr_red_add(dilated, c->pad_hi[d], &with_hi) || !hr_red_add(with_hi, c->pad_lo[d], &padded)) return false;
  c->dilated[d] = dilated;
  *out = (padded <= 0 || span > padded) ? 0 : (padded - span) / c->stride[d] + 1;
  return true;
}

/* Checks feature/batch grouping and the result shape. */
static hr_status check_conv_shapes(const hr_op *op, conv_spec *c, const hr_tensor *lhs, const hr_tensor *rhs,
                                   const hr_tensor *res) {
  const int64_t *l = lhs->shape.dims, *r = rhs->shape.dims;
  int rank = c->ns + 2;
  if (rhs->shape.rank != rank || res->shape.rank != rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "lhs, rhs and result must have the same rank");
  int64_t batch = l[c->in_batch], feat = l[c->in_feat], kin = r[c->k_in], kout = r[c->k_out];
  if (feat % c->fgc != 0 || feat / c->fgc != kin || kout % c->fgc != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "feature_group_count %lld does not fit %lld input and %lld kernel features",
                       (long long)c->fgc, (long long)feat, (long long)kin);
  if (batch % c->bgc != 0 || kout % c->bgc != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "batch_group_count %lld does not divide the batch and output features",
                       (long long)c->bgc);
  hr_shape want = {.rank = rank};
  want.dims[c->out_batch] = batch / c->bgc;
  want.dims[c->out_feat] = kout;
  for (int d = 0; d < c->ns; d++)
    if (!conv_out_size(c, d, l[c->in_sp[d]], r[c->k_sp[d]], &want.dims[c->out_sp[d]]))
      return hr_op_error(op, HR_VERIFY_ERROR, "window attributes overflow along spatial dimension %d", d);
  char buf[64];
  if (!hr_red_tensor_is(res, res->dtype, &want))
    return hr_op_error(op, HR_VERIFY_ERROR, "result shape must be %s", hr_red_shape_str(&want, buf, sizeof buf));
  return NULL;
}

/* Sizes of the per-group matrix product and the scratch buffers it uses. */
typedef struct conv_work {
  conv_spec *c;
  hr_red_acc kind;
  size_t es;                        /* accumulator element size */
  int64_t nout, cin, og;            /* batch per group, input features per group, output features per group */
  hr_red_view out_sp, k_sp;         /* output and kernel spatial index spaces */
  int64_t s_out, s_k, m, kd;        /* output positions, kernel positions, P rows, P columns */
  int64_t lstr[HR_MAX_RANK], rstr[HR_MAX_RANK], ostr[HR_MAX_RANK];
  unsigned char *lhs, *rhs, *p, *w, *r; /* converted operands, P, W, product */
} conv_work;

/* Offset (in lhs elements) of the spatial input position for output position y and kernel
 * position k, or -1 when it falls into padding or a dilation hole. */
static int64_t conv_input_offset(const conv_work *cw, const int64_t *y, const int64_t *k) {
  const conv_spec *c = cw->c;
  int64_t off = 0;
  for (int d = 0; d < c->ns; d++) {
    int64_t p = y[d] * c->stride[d] + k[d] * c->rhs_dil[d] - c->pad_lo[d];
    if (p < 0 || p >= c->dilated[d] || p % c->lhs_dil[d] != 0) return -1;
    off += p / c->lhs_dil[d] * cw->lstr[c->in_sp[d]];
  }
  return off;
}

/* Fills the patch matrix P for a group reading batch n0.. and input features c0... */
static void build_patches(const conv_work *cw, int64_t n0, int64_t c0) {
  const conv_spec *c = cw->c;
  for (int64_t nb = 0; nb < cw->nout; nb++) {
    int64_t base = (n0 + nb) * cw->lstr[c->in_batch] + c0 * cw->lstr[c->in_feat];
    hr_red_walk y;
    hr_red_walk_init(&y, &cw->out_sp);
    for (int64_t yl = 0; yl < cw->s_out; yl++, hr_red_walk_next(&y)) {
      unsigned char *row = cw->p + (size_t)((nb * cw->s_out + yl) * cw->kd) * cw->es;
      hr_red_walk k;
      hr_red_walk_init(&k, &cw->k_sp);
      for (int64_t kl = 0; kl < cw->s_k; kl++, hr_red_walk_next(&k)) {
        int64_t off = conv_input_offset(cw, y.idx, k.idx);
        for (int64_t ci = 0; ci < cw->cin; ci++) {
          unsigned char *dst = row + (size_t)(ci * cw->s_k + kl) * cw->es;
          if (off < 0)
            memset(dst, 0, cw->es);
          else
            memcpy(dst, cw->lhs + (size_t)(base + ci * cw->lstr[c->in_feat] + off) * cw->es, cw->es);
        }
      }
    }
  }
}

/* Fills the kernel matrix W for a group with output features o0.. (kernel mirrored where
 * window_reversal is set). */
static void build_kernel(const conv_work *cw, int64_t o0) {
  const conv_spec *c = cw->c;
  for (int64_t ci = 0; ci < cw->cin; ci++) {
    hr_red_walk k;
    hr_red_walk_init(&k, &cw->k_sp);
    for (int64_t kl = 0; kl < cw->s_k; kl++, hr_red_walk_next(&k)) {
      int64_t koff = ci * cw->rstr[c->k_in];
      for (int d = 0; d < c->ns; d++) {
        int64_t kd = c->reverse[d] ? cw->k_sp.dims[d] - 1 - k.idx[d] : k.idx[d];
        koff += kd * cw->rstr[c->k_sp[d]];
      }
      unsigned char *row = cw->w + (size_t)((ci * cw->s_k + kl) * cw->og) * cw->es;
      for (int64_t o = 0; o < cw->og; o++)
        memcpy(row + (size_t)o * cw->es, cw->rhs + (size_t)((o0 + o) * cw->rstr[c->k_out] + koff) * cw->es, cw->es);
    }
  }
}

/* Stores the group's product R into the result at output features o0... */
static void store_group(const conv_work *cw, int64_t o0, hr_tensor *res) {
  const conv_spec *c = cw->c;
  for (int64_t nb = 0; nb < cw->nout; nb++) {
    hr_red_walk y;
    hr_red_walk_init(&y, &cw->out_sp);
    for (int64_t yl = 0; yl < cw->s_out; yl++, hr_red_walk_next(&y)) {
      int64_t at = nb * cw->ostr[c->out_batch] + y.offset, row = nb * cw->s_out + yl;
      for (int64_t o = 0; o < cw->og; o++)
        hr_red_acc_store(cw->kind, cw->r, row * cw->og + o, res->dtype, res->data, at + (o0 + o) * cw->ostr[c->out_feat]);
    }
  }
}

/* Computes every group: P and W, R = P x W, and stores R. */
static hr_status run_groups(hr_interp *in, const hr_op *op, conv_work *cw, hr_tensor *res) {
  int64_t groups = cw->c->fgc * cw->c->bgc;
  for (int64_t g = 0; g < groups; g++) {
    int64_t n0 = cw->c->bgc > 1 ? g * cw->nout : 0, c0 = cw->c->fgc > 1 ? g * cw->cin : 0, o0 = g * cw->og;
    build_patches(cw, n0, c0);
    build_kernel(cw, o0);
    memset(cw->r, 0, (size_t)(cw->m * cw->og) * cw->es);
    hr_red_matmul mm = {.kind = cw->kind, .batch = 1, .m = cw->m, .k = cw->kd, .n = cw->og,
                        .a = cw->p, .b = cw->w, .c = cw->r};
    HR_TRY(hr_red_matmul_run(in, op, &mm));
    store_group(cw, o0, res);
  }
  return NULL;
}

/* Sets up the index spaces and matrix sizes of the per-group products; false on overflow. */
static bool plan_work(conv_work *cw, conv_spec *c, const hr_tensor *lhs, const hr_tensor *rhs, const hr_tensor *res) {
  cw->c = c;
  cw->kind = hr_red_acc_for(res->dtype);
  cw->es = hr_red_acc_size(cw->kind);
  hr_row_major_strides(&lhs->shape, cw->lstr);
  hr_row_major_strides(&rhs->shape, cw->rstr);
  hr_row_major_strides(&res->shape, cw->ostr);
  cw->nout = lhs->shape.dims[c->in_batch] / c->bgc;
  cw->cin = rhs->shape.dims[c->k_in];
  cw->og = rhs->shape.dims[c->k_out] / (c->fgc * c->bgc);
  cw->out_sp.rank = cw->k_sp.rank = c->ns;
  for (int d = 0; d < c->ns; d++) {
    cw->out_sp.dims[d] = res->shape.dims[c->out_sp[d]];
    cw->out_sp.strides[d] = cw->ostr[c->out_sp[d]];
    cw->k_sp.dims[d] = rhs->shape.dims[c->k_sp[d]];
    cw->k_sp.strides[d] = 0;
  }
  int64_t pcount, wcount, rcount;
  return hr_red_view_count(&cw->out_sp, &cw->s_out) && hr_red_view_count(&cw->k_sp, &cw->s_k) &&
         hr_red_mul(cw->nout, cw->s_out, &cw->m) && hr_red_mul(cw->cin, cw->s_k, &cw->kd) &&
         hr_red_mul(cw->m, cw->kd, &pcount) && hr_red_mul(cw->kd, cw->og, &wcount) && hr_red_mul(cw->m, cw->og, &rcount);
}

/* Converts a whole operand to the accumulator kind in its own layout. */
static hr_status convert_operand(hr_interp *in, const hr_op *op, const hr_tensor *t, hr_dtype to, hr_red_acc k,
                                 hr_tensor **out) {
  int64_t count = hr_tensor_num_elements(t);
  HR_TRY(hr_red_scratch(in, op, k, count, out));
  hr_red_view flat = {.rank = 1, .dims = {count}, .strides = {1}};
  hr_red_pack(&flat, t->dtype, t->data, to, k, (*out)->data);
  return NULL;
}

/* Runs a convolution whose spec (padding included) has been read. */
static hr_status convolve(hr_interp *in, const hr_op *op, conv_spec *c, const hr_tensor *lhs, const hr_tensor *rhs,
                          hr_tensor *res) {
  HR_TRY(check_conv_shapes(op, c, lhs, rhs, res));
  conv_work cw = {0};
  if (!plan_work(&cw, c, lhs, rhs, res)) return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "convolution sizes overflow");
  if (hr_tensor_num_elements(res) == 0 || cw.kd == 0) return NULL;
  hr_tensor *t[5] = {NULL};
  hr_status s = convert_operand(in, op, lhs, res->dtype, cw.kind, &t[0]);
  if (!s) s = convert_operand(in, op, rhs, res->dtype, cw.kind, &t[1]);
  if (!s) s = hr_red_scratch(in, op, cw.kind, cw.m * cw.kd, &t[2]);
  if (!s) s = hr_red_scratch(in, op, cw.kind, cw.kd * cw.og, &t[3]);
  if (!s) s = hr_red_scratch(in, op, cw.kind, cw.m * cw.og, &t[4]);
  if (!s) {
    cw.lhs = t[0]->data;
    cw.rhs = t[1]->data;
    cw.p = t[2]->data;
    cw.w = t[3]->data;
    cw.r = t[4]->data;
    s = run_groups(in, op, &cw, res);
  }
  for (int i = 0; i < 5; i++) hr_tensor_free(t[i]);
  return s;
}

/* stablehlo.convolution(lhs, rhs). */
HR_RED_KERNEL(hr_red_kernel_convolution) {
  if (op->n_operands != 2 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects lhs and rhs");
  conv_spec c;
  HR_TRY(read_conv_spec(op, operands[0]->shape.rank, &c));
  HR_TRY(hr_red_read_padding(op, "padding", c.ns, c.pad_lo, c.pad_hi));
  return convolve(in, op, &c, operands[0], operands[1], results[0]);
}

/* stablehlo.dynamic_conv(lhs, rhs, padding): like convolution with padding given as a tensor. */
HR_RED_KERNEL(hr_red_kernel_dynamic_conv) {
  if (op->n_operands != 3 || op->n_results != 1)
    return hr_op_error(op, HR_VERIFY_ERROR, "expects lhs, rhs and padding");
  conv_spec c;
  HR_TRY(read_conv_spec(op, operands[0]->shape.rank, &c));
  const hr_tensor *pad = operands[2];
  bool is_int = hr_dtype_is_signed_int(pad->dtype) || hr_dtype_is_unsigned_int(pad->dtype);
  if (!is_int || pad->shape.rank != 2 || pad->shape.dims[0] != c.ns || pad->shape.dims[1] != 2)
    return hr_op_error(op, HR_VERIFY_ERROR, "padding must be a %dx2 integer tensor", c.ns);
  for (int d = 0; d < c.ns; d++) {
    c.pad_lo[d] = hr_load_int(pad->dtype, pad->data, 2 * d);
    c.pad_hi[d] = hr_load_int(pad->dtype, pad->data, 2 * d + 1);
  }
  return convolve(in, op, &c, operands[0], operands[1], results[0]);
}

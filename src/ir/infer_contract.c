/* Shape inference for contractions and linear algebra: dot_general, chlo.ragged_dot, dot,
 * convolution, dynamic_conv, fft, triangular_solve, cholesky, batch_norm_*. Result element types of
 * dot_general, ragged_dot, dot and convolution come from the declared result (preferred element
 * type). */
#include <string.h>

#include "base/numeric.h"
#include "ir/chlo.h"
#include "ir/infer_internal.h"

/* Checks the optional precision_config: at most two DEFAULT/HIGH/HIGHEST enums. */
static hr_status check_precision(const hri_ctx *c) {
  const hr_attr *a = hr_op_attr(c->op, "precision_config");
  if (!a) return NULL;
  if (a->kind != HR_ATTR_ARRAY || a->u.array.n > 2)
    return hri_err(c, "precision_config must be a list of at most 2 precisions");
  for (int i = 0; i < a->u.array.n; i++) {
    const hr_attr *e = a->u.array.items[i];
    const char *v = e && e->kind == HR_ATTR_ENUM ? e->u.enm.value : "";
    if (strcmp(v, "DEFAULT") != 0 && strcmp(v, "HIGH") != 0 && strcmp(v, "HIGHEST") != 0)
      return hri_err(c, "precision_config entry %d must be DEFAULT, HIGH or HIGHEST", i);
  }
  return NULL;
}

/* The declared element type of result #0 (the op's preferred element type); for a quantized
 * result, the expressed type its values are computed in (infer_quant.c). */
static hr_status result_dtype(const hri_ctx *c, hr_dtype *out) {
  hr_type r;
  HR_TRY(hri_declared_tensor(c, 0, false, &r));
  *out = r.quant ? r.quant->expressed : r.dtype;
  return NULL;
}

/* Checks that lhs and rhs (operands 0 and 1) are tensors of one element type. */
static hr_status check_lhs_rhs(const hri_ctx *c) {
  HR_TRY(hri_want_tensors(c, 0, 2));
  return hri_want_same_dtype(c, 0, 1);
}

/* ---------------------------------------------------------------------------------------------- */
/* dot_general / dot                                                                               */
/* ---------------------------------------------------------------------------------------------- */

hr_status hri_infer_dot_general(const hri_ctx *c) {
  HR_TRY(check_lhs_rhs(c));
  const hr_shape *l = &c->in[0].shape, *r = &c->in[1].shape;
  const char *name = "dot_dimension_numbers";
  const hr_attr *dn;
  HR_TRY(hri_attr_struct(c, name, &dn));
  int64_t lb[HR_MAX_RANK], rb[HR_MAX_RANK], lc[HR_MAX_RANK], rc[HR_MAX_RANK];
  int nlb, nrb, nlc, nrc;
  HR_TRY(hri_field_list(c, dn, name, "lhs_batching_dimensions", lb, &nlb));
  HR_TRY(hri_field_list(c, dn, name, "rhs_batching_dimensions", rb, &nrb));
  HR_TRY(hri_field_list(c, dn, name, "lhs_contracting_dimensions", lc, &nlc));
  HR_TRY(hri_field_list(c, dn, name, "rhs_contracting_dimensions", rc, &nrc));
  if (nlb != nrb) return hri_err(c, "lhs and rhs batching dimensions differ in number");
  if (nlc != nrc) return hri_err(c, "lhs and rhs contracting dimensions differ in number");
  int64_t lall[2 * HR_MAX_RANK], rall[2 * HR_MAX_RANK];
  memcpy(lall, lb, sizeof(int64_t) * (size_t)nlb);
  memcpy(lall + nlb, lc, sizeof(int64_t) * (size_t)nlc);
  memcpy(rall, rb, sizeof(int64_t) * (size_t)nrb);
  memcpy(rall + nrb, rc, sizeof(int64_t) * (size_t)nrc);
  HR_TRY(hri_check_axes(c, "lhs batching and contracting dimensions", lall, nlb + nlc, l->rank, false));
  HR_TRY(hri_check_axes(c, "rhs batching and contracting dimensions", rall, nrb + nrc, r->rank, false));
  hr_shape s = {.rank = 0};
  for (int i = 0; i < nlb; i++)
    HR_TRY(hri_dim_merge(c, l->dims[lb[i]], r->dims[rb[i]], &s.dims[s.rank++], "batching dimensions"));
  for (int i = 0; i < nlc; i++) {
    int64_t m;
    HR_TRY(hri_dim_merge(c, l->dims[lc[i]], r->dims[rc[i]], &m, "contracting dimensions"));
  }
  /* Free dims: lhs then rhs, in order; the total is at most rank(lhs) + rank(rhs) - 2 * nlb. */
  if (l->rank + r->rank - nlb - 2 * nlc > HR_MAX_RANK)
    return hri_err(c, "result rank would exceed %d", HR_MAX_RANK);
  for (int d = 0; d < l->rank; d++)
    if (!hri_contains(lall, nlb + nlc, d)) s.dims[s.rank++] = l->dims[d];
  for (int d = 0; d < r->rank; d++)
    if (!hri_contains(rall, nrb + nrc, d)) s.dims[s.rank++] = r->dims[d];
  HR_TRY(check_precision(c));
  hr_dtype t;
  HR_TRY(result_dtype(c, &t));
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

/* Checks chlo.ragged_dot's group_sizes (operand 2) against the lhs: rank 1 ([g]), or the lhs
 * dimensions of hr_ragged_dot_prefix followed by g. */
static hr_status check_group_sizes(const hri_ctx *c, const hr_ragged_dot_dims *d) {
  HR_TRY(hri_want_int_tensor(c, 2, "group_sizes"));
  const hr_shape *l = &c->in[0].shape, *g = &c->in[2].shape;
  int64_t prefix[HR_MAX_RANK];
  int n = hr_ragged_dot_prefix(d, l->rank, prefix);
  if (g->rank == 1) return NULL;
  if (g->rank != n + 1) return hri_err(c, "expected group_sizes to have rank %d, got %d", n + 1, g->rank);
  for (int i = 0; i < n; i++) {
    int64_t m;
    HR_TRY(hri_dim_merge(c, g->dims[i], l->dims[prefix[i]], &m, "group_sizes and lhs dimensions"));
  }
  return NULL;
}

/* Checks chlo.ragged_dot's rhs group dimension: one of size g in the non-contracting mode, none in
 * the others. */
static hr_status check_rhs_group(const hri_ctx *c, const hr_ragged_dot_dims *d, const int64_t *rall, int nr) {
  const hr_shape *r = &c->in[1].shape, *g = &c->in[2].shape;
  if (d->mode != HR_RAGGED_NON_CONTRACTING) {
    if (d->rhs_group < 0) return NULL;
    return hri_err(c, "there must be zero group dimensions in the rhs when the ragged dimension is batch or contracting");
  }
  if (d->rhs_group < 0)
    return hri_err(c, "there must be exactly one group dimension in the rhs when the lhs ragged dimension is non-contracting");
  HR_TRY(hri_check_axes(c, "rhs batching, contracting and group dimensions", rall, nr, r->rank, false));
  int64_t m;
  return hri_dim_merge(c, r->dims[d->rhs_group], g->dims[g->rank - 1], &m, "rhs group dimension and number of groups");
}

hr_status hri_infer_ragged_dot(const hri_ctx *c) {
  HR_TRY(check_lhs_rhs(c));
  hr_ragged_dot_dims d;
  HR_TRY(hr_ragged_dot_dims_read(c->op, &d));
  const hr_shape *l = &c->in[0].shape, *r = &c->in[1].shape;
  int nb = d.n_batch, nc = d.n_contract;
  int64_t lall[2 * HR_MAX_RANK + 1], rall[2 * HR_MAX_RANK + 1];
  memcpy(lall, d.lhs_batch, sizeof(int64_t) * (size_t)nb);
  memcpy(lall + nb, d.lhs_contract, sizeof(int64_t) * (size_t)nc);
  memcpy(rall, d.rhs_batch, sizeof(int64_t) * (size_t)nb);
  memcpy(rall + nb, d.rhs_contract, sizeof(int64_t) * (size_t)nc);
  rall[nb + nc] = d.rhs_group;
  HR_TRY(hri_check_axes(c, "lhs batching and contracting dimensions", lall, nb + nc, l->rank, false));
  HR_TRY(hri_check_axes(c, "rhs batching and contracting dimensions", rall, nb + nc, r->rank, false));
  if (d.lhs_ragged < 0 || d.lhs_ragged >= l->rank)
    return hri_err(c, "lhs ragged dimension %lld is outside [0, %d)", (long long)d.lhs_ragged, l->rank);
  HR_TRY(hri_want_tensor(c, 2));
  if (c->in[2].shape.rank < 1) return hri_err(c, "group_sizes must have rank >= 1");
  HR_TRY(check_group_sizes(c, &d));
  HR_TRY(check_rhs_group(c, &d, rall, nb + nc + 1));
  hr_shape s = {.rank = 0};
  if (d.mode == HR_RAGGED_CONTRACTING) s.dims[s.rank++] = c->in[2].shape.dims[c->in[2].shape.rank - 1];
  for (int i = 0; i < nb; i++)
    HR_TRY(hri_dim_merge(c, l->dims[d.lhs_batch[i]], r->dims[d.rhs_batch[i]], &s.dims[s.rank++], "batching dimensions"));
  for (int i = 0; i < nc; i++) {
    int64_t m;
    HR_TRY(hri_dim_merge(c, l->dims[d.lhs_contract[i]], r->dims[d.rhs_contract[i]], &m, "contracting dimensions"));
  }
  int n_rhs_free = r->rank - nb - nc - (d.rhs_group >= 0);
  if (s.rank + (l->rank - nb - nc) + n_rhs_free > HR_MAX_RANK)
    return hri_err(c, "result rank would exceed %d", HR_MAX_RANK);
  for (int i = 0; i < l->rank; i++)
    if (!hri_contains(lall, nb + nc, i)) s.dims[s.rank++] = l->dims[i];
  for (int i = 0; i < r->rank; i++)
    if (!hri_contains(rall, nb + nc + 1, i)) s.dims[s.rank++] = r->dims[i];
  HR_TRY(check_precision(c));
  hr_dtype t;
  HR_TRY(result_dtype(c, &t));
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

hr_status hri_infer_dot(const hri_ctx *c) {
  HR_TRY(check_lhs_rhs(c));
  const hr_shape *l = &c->in[0].shape, *r = &c->in[1].shape;
  if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2)
    return hri_err(c, "operands must have rank 1 or 2, got %d and %d", l->rank, r->rank);
  int64_t m;
  HR_TRY(hri_dim_merge(c, l->dims[l->rank - 1], r->dims[0], &m, "contracting dimensions"));
  hr_shape s = {.rank = 0};
  if (l->rank == 2) s.dims[s.rank++] = l->dims[0];
  if (r->rank == 2) s.dims[s.rank++] = r->dims[1];
  HR_TRY(check_precision(c));
  hr_dtype t;
  HR_TRY(result_dtype(c, &t));
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* convolution / dynamic_conv                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Convolution dimension numbers and window attributes, N-2 spatial dims. */
typedef struct conv_params {
  int n_spatial;
  int64_t in_batch, in_feature, in_spatial[HR_MAX_RANK];
  int64_t k_in, k_out, k_spatial[HR_MAX_RANK];
  int64_t out_batch, out_feature, out_spatial[HR_MAX_RANK];
  int64_t strides[HR_MAX_RANK], lhs_dil[HR_MAX_RANK], rhs_dil[HR_MAX_RANK];
  int64_t pad_lo[HR_MAX_RANK], pad_hi[HR_MAX_RANK];
  int64_t feature_groups, batch_groups;
} conv_params;

/* Reads a spatial-dims list field that must have `n` entries. */
static hr_status conv_list(const hri_ctx *c, const hr_attr *dn, const char *field, int n, int64_t *out) {
  int got;
  HR_TRY(hri_field_list(c, dn, "dimension_numbers", field, out, &got));
  if (got != n) return hri_err(c, "dimension_numbers.%s must have %d entries, got %d", field, n, got);
  return NULL;
}

/* Checks [a] + list + [b] is a set of distinct dims in [0, rank). */
static hr_status conv_axes(const hri_ctx *c, const char *what, int64_t a, const int64_t *list, int n,
                           int64_t b, int rank) {
  int64_t all[HR_MAX_RANK + 2];
  all[0] = a;
  memcpy(all + 1, list, sizeof(int64_t) * (size_t)n);
  all[n + 1] = b;
  return hri_check_axes(c, what, all, n + 2, rank, false);
}

/* Reads dimension_numbers (#stablehlo.conv) for rank-`rank` operands. */
static hr_status read_conv_dims(const hri_ctx *c, int rank, conv_params *p) {
  const hr_attr *dn;
  const char *name = "dimension_numbers";
  HR_TRY(hri_attr_struct(c, name, &dn));
  int n = p->n_spatial = rank - 2;
  HR_TRY(hri_field_int(c, dn, name, "input_batch_dimension", true, 0, &p->in_batch));
  HR_TRY(hri_field_int(c, dn, name, "input_feature_dimension", true, 0, &p->in_feature));
  HR_TRY(conv_list(c, dn, "input_spatial_dimensions", n, p->in_spatial));
  HR_TRY(hri_field_int(c, dn, name, "kernel_input_feature_dimension", true, 0, &p->k_in));
  HR_TRY(hri_field_int(c, dn, name, "kernel_output_feature_dimension", true, 0, &p->k_out));
  HR_TRY(conv_list(c, dn, "kernel_spatial_dimensions", n, p->k_spatial));
  HR_TRY(hri_field_int(c, dn, name, "output_batch_dimension", true, 0, &p->out_batch));
  HR_TRY(hri_field_int(c, dn, name, "output_feature_dimension", true, 0, &p->out_feature));
  HR_TRY(conv_list(c, dn, "output_spatial_dimensions", n, p->out_spatial));
  HR_TRY(conv_axes(c, "input dimensions", p->in_batch, p->in_spatial, n, p->in_feature, rank));
  HR_TRY(conv_axes(c, "kernel dimensions", p->k_in, p->k_spatial, n, p->k_out, rank));
  return conv_axes(c, "output dimensions", p->out_batch, p->out_spatial, n, p->out_feature, rank);
}

/* Reads the window attributes (strides, dilations, reversal) and group counts. */
static hr_status read_conv_window(const hri_ctx *c, conv_params *p) {
  int n = p->n_spatial;
  HR_TRY(hri_attr_list_n(c, "window_strides", n, 1, p->strides));
  HR_TRY(hri_attr_list_n(c, "lhs_dilation", n, 1, p->lhs_dil));
  HR_TRY(hri_attr_list_n(c, "rhs_dilation", n, 1, p->rhs_dil));
  int64_t rev[HR_MAX_RANK];
  HR_TRY(hri_attr_list_n(c, "window_reversal", n, 0, rev));
  for (int i = 0; i < n; i++)
    if (p->strides[i] <= 0 || p->lhs_dil[i] <= 0 || p->rhs_dil[i] <= 0)
      return hri_err(c, "window strides and dilations must be positive");
  HR_TRY(hri_attr_int(c, "feature_group_count", false, 1, &p->feature_groups));
  HR_TRY(hri_attr_int(c, "batch_group_count", false, 1, &p->batch_groups));
  if (p->feature_groups <= 0 || p->batch_groups <= 0)
    return hri_err(c, "feature_group_count and batch_group_count must be positive");
  if (p->feature_groups > 1 && p->batch_groups > 1)
    return hri_err(c, "feature_group_count and batch_group_count cannot both exceed 1");
  return NULL;
}

/* Checks that static `d` is divisible by `by`. */
static hr_status check_divisible(const hri_ctx *c, int64_t d, int64_t by, const char *what) {
  if (d != HR_DYNAMIC && d % by != 0)
    return hri_err(c, "%s (%lld) is not divisible by %lld", what, (long long)d, (long long)by);
  return NULL;
}

/* Checks the feature and batch group constraints (spec C10-C11, C14-C16). */
static hr_status check_conv_groups(const hri_ctx *c, const conv_params *p) {
  const hr_shape *l = &c->in[0].shape, *r = &c->in[1].shape;
  int64_t lf = l->dims[p->in_feature], ko = r->dims[p->k_out];
  HR_TRY(check_divisible(c, l->dims[p->in_batch], p->batch_groups, "input batch size"));
  HR_TRY(check_divisible(c, lf, p->feature_groups, "input feature size"));
  HR_TRY(check_divisible(c, ko, p->batch_groups, "kernel output feature size"));
  HR_TRY(check_divisible(c, ko, p->feature_groups, "kernel output feature size"));
  int64_t ki = r->dims[p->k_in];
  if (lf != HR_DYNAMIC && ki != HR_DYNAMIC && ki != lf / p->feature_groups)
    return hri_err(c,
                   "kernel input feature size %lld must be the input feature size %lld / "
                   "feature_group_count %lld",
                   (long long)ki, (long long)lf, (long long)p->feature_groups);
  return NULL;
}

/* Computes the convolution result shape (spec C25). */
static hr_status conv_shape(const hri_ctx *c, const conv_params *p, bool pad_known, hr_shape *s) {
  const hr_shape *l = &c->in[0].shape, *r = &c->in[1].shape;
  s->rank = l->rank;
  int64_t b = l->dims[p->in_batch];
  s->dims[p->out_batch] = b == HR_DYNAMIC ? HR_DYNAMIC : b / p->batch_groups;
  s->dims[p->out_feature] = r->dims[p->k_out];
  for (int i = 0; i < p->n_spatial; i++) {
    int64_t in, win, padded;
    HR_TRY(hri_dilate(c, l->dims[p->in_spatial[i]], p->lhs_dil[i], &in));
    HR_TRY(hri_dilate(c, r->dims[p->k_spatial[i]], p->rhs_dil[i], &win));
    s->dims[p->out_spatial[i]] = HR_DYNAMIC;
    if (!pad_known || in == HR_DYNAMIC) continue;
    if (__builtin_add_overflow(in, p->pad_lo[i], &padded) ||
        __builtin_add_overflow(padded, p->pad_hi[i], &padded))
      return hri_err(c, "spatial dimension %d: padded size overflows 64 bits", i);
    if (padded < 0) return hri_err(c, "spatial dimension %d: padding makes the input size negative", i);
    s->dims[p->out_spatial[i]] = hri_num_windows(padded, win, p->strides[i]);
  }
  return NULL;
}

/* Shared part of convolution and dynamic_conv once the padding is known (or not). */
static hr_status finish_conv(const hri_ctx *c, const conv_params *p, bool pad_known) {
  HR_TRY(check_conv_groups(c, p));
  HR_TRY(check_precision(c));
  hr_shape s;
  HR_TRY(conv_shape(c, p, pad_known, &s));
  hr_dtype t;
  HR_TRY(result_dtype(c, &t));
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

/* Reads the operand ranks, dimension numbers and window of a convolution. */
static hr_status start_conv(const hri_ctx *c, conv_params *p) {
  HR_TRY(check_lhs_rhs(c));
  int rank = c->in[0].shape.rank;
  if (rank < 2 || c->in[1].shape.rank != rank)
    return hri_err(c, "lhs and rhs must have the same rank >= 2, got %d and %d", rank, c->in[1].shape.rank);
  HR_TRY(read_conv_dims(c, rank, p));
  return read_conv_window(c, p);
}

hr_status hri_infer_convolution(const hri_ctx *c) {
  conv_params p;
  HR_TRY(start_conv(c, &p));
  HR_TRY(hri_attr_padding(c, "padding", p.n_spatial, p.pad_lo, p.pad_hi));
  return finish_conv(c, &p, true);
}

hr_status hri_infer_dynamic_conv(const hri_ctx *c) {
  conv_params p;
  HR_TRY(start_conv(c, &p));
  hri_ints pad;
  HR_TRY(hri_operand_pairs(c, 2, "padding", &pad));
  if (pad.n != HR_DYNAMIC && pad.n != p.n_spatial)
    return hri_err(c, "padding must have %d rows, got %d", p.n_spatial, pad.n);
  for (int i = 0; pad.known && i < p.n_spatial; i++) {
    p.pad_lo[i] = pad.v[2 * i];
    p.pad_hi[i] = pad.v[2 * i + 1];
  }
  return finish_conv(c, &p, pad.known);
}

/* ---------------------------------------------------------------------------------------------- */
/* fft                                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* The real type paired with a complex type for RFFT/IRFFT. */
static hr_dtype complex_of(hr_dtype t) {
  if (t == HR_F32) return HR_C64;
  if (t == HR_F64) return HR_C128;
  return HR_DTYPE_INVALID;
}

/* Checks that the trailing dims of `s` equal fft_length (the last one only when `with_last`). */
static hr_status check_fft_dims(const hri_ctx *c, const hr_shape *s, const int64_t *len, int n,
                                bool with_last) {
  for (int i = 0; i < n - (with_last ? 0 : 1); i++) {
    int64_t d = s->dims[s->rank - n + i];
    if (d != HR_DYNAMIC && d != len[i])
      return hri_err(c, "dimension %d (size %lld) must equal fft_length[%d] = %lld", s->rank - n + i,
                     (long long)d, i, (long long)len[i]);
  }
  return NULL;
}

hr_status hri_infer_fft(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  const char *type = hr_op_attr_enum(c->op, "fft_type");
  if (!type) return hri_err(c, "missing or malformed attribute 'fft_type'");
  int64_t len[HR_MAX_RANK];
  int n;
  HR_TRY(hri_attr_list(c, "fft_length", true, len, &n));
  hr_shape s = c->in[0].shape;
  hr_dtype t = c->in[0].dtype;
  if (n < 1 || n > 3 || n > s.rank) return hri_err(c, "fft_length must have 1 to min(3, rank) entries");
  for (int i = 0; i < n; i++)
    if (len[i] < 0) return hri_err(c, "fft_length entries must not be negative");
  int64_t *last = &s.dims[s.rank - 1];
  if (strcmp(type, "FFT") == 0 || strcmp(type, "IFFT") == 0) {
    if (!hr_dtype_is_complex(t)) return hri_err(c, "%s needs a complex operand", type);
  } else if (strcmp(type, "RFFT") == 0) {
    if (complex_of(t) == HR_DTYPE_INVALID) return hri_err(c, "RFFT needs an f32 or f64 operand");
    HR_TRY(check_fft_dims(c, &s, len, n, true));
    t = complex_of(t);
    if (*last != HR_DYNAMIC && *last != 0) *last = *last / 2 + 1;
  } else if (strcmp(type, "IRFFT") == 0) {
    if (!hr_dtype_is_complex(t)) return hri_err(c, "IRFFT needs a complex operand");
    HR_TRY(check_fft_dims(c, &s, len, n, false));
    int64_t want = len[n - 1] == 0 ? 0 : len[n - 1] / 2 + 1;
    if (*last != HR_DYNAMIC && *last != want)
      return hri_err(c, "IRFFT operand's last dimension must be %lld, got %lld", (long long)want,
                     (long long)*last);
    t = hri_complex_part(t);
    *last = len[n - 1];
  } else {
    return hri_err(c, "unknown fft_type '%s'", type);
  }
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* triangular_solve / cholesky                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Checks that operand `i` is a float or complex tensor of rank >= 2 with square trailing dims. */
static hr_status check_square_matrices(const hri_ctx *c, int i) {
  HR_TRY(hri_want_tensor(c, i));
  const hr_type *t = &c->in[i];
  if (!hr_dtype_is_real_float(t->dtype) && !hr_dtype_is_complex(t->dtype))
    return hri_err(c, "operand #%d must have a floating-point or complex element type", i);
  int r = t->shape.rank;
  if (r < 2) return hri_err(c, "operand #%d must have rank >= 2", i);
  int64_t m;
  return hri_dim_merge(c, t->shape.dims[r - 2], t->shape.dims[r - 1], &m, "matrix dimensions");
}

hr_status hri_infer_triangular_solve(const hri_ctx *c) {
  HR_TRY(check_square_matrices(c, 0));
  HR_TRY(hri_want_tensor(c, 1));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  const hr_shape *a = &c->in[0].shape;
  hr_shape b = c->in[1].shape;
  if (b.rank != a->rank) return hri_err(c, "a and b must have the same rank");
  bool left, lower, unit;
  HR_TRY(hri_attr_bool(c, "left_side", false, &left));
  HR_TRY(hri_attr_bool(c, "lower", false, &lower));
  HR_TRY(hri_attr_bool(c, "unit_diagonal", false, &unit));
  const char *tr = hr_op_attr_enum(c->op, "transpose_a");
  if (!tr || (strcmp(tr, "NO_TRANSPOSE") != 0 && strcmp(tr, "TRANSPOSE") != 0 && strcmp(tr, "ADJOINT") != 0))
    return hri_err(c, "attribute 'transpose_a' must be NO_TRANSPOSE, TRANSPOSE or ADJOINT");
  for (int d = 0; d < b.rank - 2; d++)
    HR_TRY(hri_dim_merge(c, a->dims[d], b.dims[d], &b.dims[d], "batch dimensions"));
  int bd = left ? b.rank - 2 : b.rank - 1;
  HR_TRY(hri_dim_merge(c, a->dims[a->rank - 1], b.dims[bd], &b.dims[bd], "a and b sizes"));
  c->out[0] = hri_tensor(c->in[1].dtype, &b);
  return NULL;
}

hr_status hri_infer_cholesky(const hri_ctx *c) {
  HR_TRY(check_square_matrices(c, 0));
  bool lower;
  HR_TRY(hri_attr_bool(c, "lower", false, &lower));
  c->out[0] = c->in[0];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* batch_norm_*                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Checks a batch norm: operand #0 (float, rank > feature_index) and the 1-D operands listed in
 * `vec` (n of them) of its element type and feature size; sets *features (possibly dynamic). */
static hr_status check_batch_norm(const hri_ctx *c, const int *vec, int n, int64_t *features) {
  HR_TRY(hri_want_tensor(c, 0));
  if (!hr_dtype_is_real_float(c->in[0].dtype))
    return hri_err(c, "operand must have a floating-point element type");
  int64_t fi;
  HR_TRY(hri_attr_int(c, "feature_index", true, 0, &fi));
  if (fi < 0 || fi >= c->in[0].shape.rank)
    return hri_err(c, "feature_index %lld is outside [0, %d)", (long long)fi, c->in[0].shape.rank);
  if (!hr_op_attr(c->op, "epsilon")) return hri_err(c, "missing attribute 'epsilon'");
  *features = c->in[0].shape.dims[fi];
  for (int k = 0; k < n; k++) {
    HR_TRY(hri_want_rank(c, vec[k], 1, "scale/offset/mean/variance"));
    HR_TRY(hri_want_same_dtype(c, 0, vec[k]));
    HR_TRY(hri_dim_merge(c, *features, c->in[vec[k]].shape.dims[0], features, "feature sizes"));
  }
  return NULL;
}

hr_status hri_infer_batch_norm_inference(const hri_ctx *c) {
  static const int vec[] = {1, 2, 3, 4};
  int64_t f;
  HR_TRY(check_batch_norm(c, vec, 4, &f));
  c->out[0] = c->in[0];
  return NULL;
}

/* Fills results 1 and 2 with 1-D tensors of `f` features of the operand's element type. */
static void feature_results(const hri_ctx *c, int64_t f) {
  hr_shape s = {.rank = 1, .dims = {f}};
  c->out[1] = c->out[2] = hri_tensor(c->in[0].dtype, &s);
}

hr_status hri_infer_batch_norm_training(const hri_ctx *c) {
  static const int vec[] = {1, 2};
  int64_t f;
  HR_TRY(check_batch_norm(c, vec, 2, &f));
  c->out[0] = c->in[0];
  feature_results(c, f);
  return NULL;
}

hr_status hri_infer_batch_norm_grad(const hri_ctx *c) {
  static const int vec[] = {1, 2, 3};
  int64_t f;
  HR_TRY(check_batch_norm(c, vec, 3, &f));
  HR_TRY(hri_want_tensor(c, 4));
  HR_TRY(hri_want_same_dtype(c, 0, 4));
  hr_shape s;
  HR_TRY(hri_shape_merge(c, &c->in[0].shape, &c->in[4].shape, &s, "operand and grad_output shapes"));
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  feature_results(c, f);
  return NULL;
}

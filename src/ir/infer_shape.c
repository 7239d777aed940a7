/* Shape inference for shape-manipulating ops: iota, broadcasts, reshapes, transpose, slice,
 * concatenate, pad, reverse, their dynamic_* forms, and get/set_dimension_size. The dynamic forms
 * take their result dimensions from operand values when known (hri_operand_ints). */
#include "ir/infer_internal.h"

hr_status hri_infer_iota(const hri_ctx *c) {
  hr_type r;
  HR_TRY(hri_declared_tensor(c, 0, true, &r));
  int64_t dim;
  HR_TRY(hri_attr_int(c, "iota_dimension", true, 0, &dim));
  if (dim < 0 || dim >= r.shape.rank)
    return hri_err(c, "iota_dimension %lld is outside [0, %d)", (long long)dim, r.shape.rank);
  c->out[0] = r;
  return NULL;
}

/* The rank of a result whose shape comes from a 1-D shape operand `v`: its length, or the declared
 * rank of result #0 when the length is dynamic. */
static hr_status shape_operand_rank(const hri_ctx *c, const hri_ints *v, int *rank) {
  hr_type r;
  HR_TRY(hri_declared_tensor(c, 0, false, &r));
  if (v->n != HR_DYNAMIC && v->n != r.shape.rank)
    return hri_err(c, "shape operand has %d entries but the result has rank %d", v->n, r.shape.rank);
  *rank = r.shape.rank;
  return NULL;
}

/* Fills `s` (rank `rank`) from known shape values, checking they are non-negative; all dynamic
 * when the values are unknown. */
static hr_status shape_from_values(const hri_ctx *c, const hri_ints *v, int rank, hr_shape *s) {
  s->rank = rank;
  for (int i = 0; i < rank; i++) {
    s->dims[i] = v->known ? v->v[i] : HR_DYNAMIC;
    if (v->known && v->v[i] < 0)
      return hri_value_err(c, v, "dimension %d has negative size %lld", i, (long long)v->v[i]);
  }
  return NULL;
}

/* The result shape given by 1-D shape operand #`index` (named `name` in messages): its values, or
 * every dimension dynamic when they are unknown; `v` receives the operand's values. */
static hr_status shape_from_operand(const hri_ctx *c, int index, const char *name, hri_ints *v, hr_shape *s) {
  HR_TRY(hri_operand_ints(c, index, name, v));
  int rank = 0;
  HR_TRY(shape_operand_rank(c, v, &rank));
  return shape_from_values(c, v, rank, s);
}

hr_status hri_infer_dynamic_iota(const hri_ctx *c) {
  hri_ints v;
  HR_TRY(hri_operand_ints(c, 0, "output_shape", &v));
  int rank = 0;
  HR_TRY(shape_operand_rank(c, &v, &rank));
  int64_t dim;
  HR_TRY(hri_attr_int(c, "iota_dimension", true, 0, &dim));
  if (dim < 0 || dim >= rank)
    return hri_err(c, "iota_dimension %lld is outside [0, %d)", (long long)dim, rank);
  hr_shape s;
  HR_TRY(shape_from_values(c, &v, rank, &s));
  c->out[0] = hri_tensor(c->op->results[0].type.dtype, &s);
  return NULL;
}

/* Checks broadcast_dimensions of a broadcast from operand #0 into a result of shape `res`:
 * one unique in-range entry per operand dimension, each operand dim 1 or equal to its target. */
static hr_status check_broadcast_dims(const hri_ctx *c, const int64_t *bd, int n, const hr_shape *res) {
  const hr_shape *in = &c->in[0].shape;
  if (n != in->rank)
    return hri_err(c, "broadcast_dimensions has %d entries but the operand has rank %d", n, in->rank);
  HR_TRY(hri_check_axes(c, "broadcast_dimensions", bd, n, res->rank, false));
  for (int d = 0; d < n; d++) {
    int64_t od = in->dims[d], rd = res->dims[bd[d]];
    if (od != 1 && od != HR_DYNAMIC && rd != HR_DYNAMIC && od != rd)
      return hri_err(c,
                     "operand dimension %d (size %lld) cannot broadcast to result dimension %lld "
                     "(size %lld)",
                     d, (long long)od, (long long)bd[d], (long long)rd);
  }
  return NULL;
}

hr_status hri_infer_broadcast_in_dim(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_type r;
  HR_TRY(hri_declared_tensor(c, 0, true, &r));
  if (r.dtype != c->in[0].dtype)
    return hri_err(c, "result element type %s differs from the operand's %s", hr_dtype_name(r.dtype),
                   hr_dtype_name(c->in[0].dtype));
  int64_t bd[HR_MAX_RANK];
  int n;
  HR_TRY(hri_attr_list(c, "broadcast_dimensions", true, bd, &n));
  HR_TRY(check_broadcast_dims(c, bd, n, &r.shape));
  c->out[0] = r;
  return NULL;
}

hr_status hri_infer_dynamic_broadcast_in_dim(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hri_ints v;
  hr_shape s;
  HR_TRY(shape_from_operand(c, 1, "output_dimensions", &v, &s));
  int64_t bd[HR_MAX_RANK], ex[HR_MAX_RANK], nex[HR_MAX_RANK], both[2 * HR_MAX_RANK];
  int n, n_ex, n_nex;
  HR_TRY(hri_attr_list(c, "broadcast_dimensions", true, bd, &n));
  HR_TRY(hri_attr_list(c, "known_expanding_dimensions", false, ex, &n_ex));
  HR_TRY(hri_attr_list(c, "known_nonexpanding_dimensions", false, nex, &n_nex));
  for (int i = 0; i < n_ex; i++) both[i] = ex[i];
  for (int i = 0; i < n_nex; i++) both[n_ex + i] = nex[i];
  HR_TRY(
      hri_check_axes(c, "known (non)expanding dimensions", both, n_ex + n_nex, c->in[0].shape.rank, false));
  if (v.known) {
    hr_status st = check_broadcast_dims(c, bd, n, &s);
    if (st && v.runtime) {
      hr_status e = hr_op_error(c->op, HR_OUT_OF_RANGE, "output_dimensions do not fit the operand");
      hr_status_free(st);
      return e;
    }
    HR_TRY(st);
  } else {
    HR_TRY(check_broadcast_dims(c, bd, n, &s));
    /* An operand dimension other than 1 fixes the result dimension it maps to. */
    for (int d = 0; d < n; d++)
      if (c->in[0].shape.dims[d] != 1) s.dims[bd[d]] = c->in[0].shape.dims[d];
  }
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_broadcast(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  int64_t sizes[HR_MAX_RANK];
  int n;
  HR_TRY(hri_attr_list(c, "broadcast_sizes", true, sizes, &n));
  const hr_shape *in = &c->in[0].shape;
  if (n + in->rank > HR_MAX_RANK) return hri_err(c, "result rank would exceed %d", HR_MAX_RANK);
  hr_shape s = {.rank = n + in->rank};
  for (int i = 0; i < n; i++) {
    if (sizes[i] < 0) return hri_err(c, "broadcast_sizes entry %d is negative", i);
    s.dims[i] = sizes[i];
  }
  for (int i = 0; i < in->rank; i++) s.dims[n + i] = in->dims[i];
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

/* Checks that a reshape keeps the element count when both shapes are static; a mismatch is an
 * error with `code` (HR_OUT_OF_RANGE when the target shape came from run-time values). */
static hr_status check_same_count(const hri_ctx *c, const hr_shape *a, const hr_shape *b, hr_code code) {
  int64_t na, nb;
  hr_status sa = hr_shape_num_elements(a, &na), sb = hr_shape_num_elements(b, &nb);
  bool both_static = !sa && !sb;
  hr_status_free(sa);
  hr_status_free(sb);
  if (both_static && na != nb)
    return hr_op_error(c->op, code, "cannot reshape %lld elements into %lld", (long long)na, (long long)nb);
  return NULL;
}

hr_status hri_infer_reshape(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_type r;
  HR_TRY(hri_declared_tensor(c, 0, true, &r));
  if (r.dtype != c->in[0].dtype)
    return hri_err(c, "result element type %s differs from the operand's %s", hr_dtype_name(r.dtype),
                   hr_dtype_name(c->in[0].dtype));
  HR_TRY(check_same_count(c, &c->in[0].shape, &r.shape, HR_VERIFY_ERROR));
  c->out[0] = r;
  return NULL;
}

hr_status hri_infer_dynamic_reshape(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hri_ints v;
  hr_shape s;
  HR_TRY(shape_from_operand(c, 1, "output_shape", &v, &s));
  HR_TRY(check_same_count(c, &c->in[0].shape, &s, v.runtime ? HR_OUT_OF_RANGE : HR_VERIFY_ERROR));
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_transpose(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  const hr_shape *in = &c->in[0].shape;
  int64_t perm[HR_MAX_RANK];
  int n;
  HR_TRY(hri_attr_list(c, "permutation", true, perm, &n));
  if (n != in->rank) return hri_err(c, "permutation has %d entries but the operand has rank %d", n, in->rank);
  HR_TRY(hri_check_axes(c, "permutation", perm, n, in->rank, false));
  hr_shape s = {.rank = n};
  for (int i = 0; i < n; i++) s.dims[i] = in->dims[perm[i]];
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

/* One sliced dimension: checks 0 <= start <= limit <= dim and stride > 0; sets ceil((limit -
 * start) / stride). Values from a runtime tensor (`v` non-NULL and runtime) fail OUT_OF_RANGE. */
static hr_status slice_dim(const hri_ctx *c, const hri_ints *v, int d, int64_t dim, int64_t start,
                           int64_t limit, int64_t stride, int64_t *out) {
  hri_ints none = {0};
  const hri_ints *src = v ? v : &none;
  if (stride <= 0)
    return hri_value_err(c, src, "dimension %d: stride %lld must be positive", d, (long long)stride);
  if (start < 0 || start > limit || (dim != HR_DYNAMIC && limit > dim))
    return hri_value_err(c, src, "dimension %d: slice [%lld, %lld) does not fit in size %lld", d,
                         (long long)start, (long long)limit, (long long)dim);
  int64_t len = limit - start;
  *out = len / stride + (len % stride != 0);
  return NULL;
}

hr_status hri_infer_slice(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  const hr_shape *in = &c->in[0].shape;
  int64_t start[HR_MAX_RANK], limit[HR_MAX_RANK], strides[HR_MAX_RANK];
  int ns, nl;
  HR_TRY(hri_attr_list(c, "start_indices", true, start, &ns));
  HR_TRY(hri_attr_list(c, "limit_indices", true, limit, &nl));
  if (ns != in->rank || nl != in->rank)
    return hri_err(c, "start_indices and limit_indices must have %d entries", in->rank);
  HR_TRY(hri_attr_list_n(c, "strides", in->rank, 1, strides));
  hr_shape s = {.rank = in->rank};
  for (int d = 0; d < in->rank; d++)
    HR_TRY(slice_dim(c, NULL, d, in->dims[d], start[d], limit[d], strides[d], &s.dims[d]));
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_real_dynamic_slice(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  const hr_shape *in = &c->in[0].shape;
  hri_ints st, lim, str;
  HR_TRY(hri_operand_ints(c, 1, "start_indices", &st));
  HR_TRY(hri_operand_ints(c, 2, "limit_indices", &lim));
  HR_TRY(hri_operand_ints(c, 3, "strides", &str));
  const hri_ints *all[3] = {&st, &lim, &str};
  for (int k = 0; k < 3; k++)
    if (all[k]->n != HR_DYNAMIC && all[k]->n != in->rank)
      return hri_err(c, "operand #%d must have %d entries, got %d", k + 1, in->rank, all[k]->n);
  hr_shape s = {.rank = in->rank};
  bool known = st.known && lim.known && str.known;
  for (int d = 0; d < in->rank; d++) {
    s.dims[d] = HR_DYNAMIC;
    if (known) HR_TRY(slice_dim(c, &st, d, in->dims[d], st.v[d], lim.v[d], str.v[d], &s.dims[d]));
  }
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_concatenate(const hri_ctx *c) {
  int n = c->op->n_operands;
  HR_TRY(hri_want_tensors(c, 0, n));
  int64_t dim;
  HR_TRY(hri_attr_int(c, "dimension", true, 0, &dim));
  hr_shape s = c->in[0].shape;
  if (dim < 0 || dim >= s.rank)
    return hri_err(c, "dimension %lld is outside [0, %d)", (long long)dim, s.rank);
  for (int i = 1; i < n; i++) {
    HR_TRY(hri_want_same_dtype(c, 0, i));
    const hr_shape *o = &c->in[i].shape;
    if (o->rank != s.rank) return hri_err(c, "operand #%d has rank %d, expected %d", i, o->rank, s.rank);
    for (int d = 0; d < s.rank; d++) {
      if (d == dim)
        HR_TRY(hri_dim_add(c, s.dims[d], o->dims[d], &s.dims[d]));
      else
        HR_TRY(hri_dim_merge(c, s.dims[d], o->dims[d], &s.dims[d], "operand shapes"));
    }
  }
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

/* One padded dimension: lo + dim + max(dim - 1, 0) * interior + hi, which must not be negative. */
static hr_status pad_dim(const hri_ctx *c, const hri_ints *src, int d, int64_t dim, int64_t lo, int64_t hi,
                         int64_t interior, int64_t *out) {
  if (interior < 0)
    return hri_value_err(c, src, "dimension %d: interior padding %lld is negative", d, (long long)interior);
  if (dim == HR_DYNAMIC) {
    *out = HR_DYNAMIC;
    return NULL;
  }
  int64_t r;
  HR_TRY(hri_dim_mul(c, dim > 0 ? dim - 1 : 0, interior, &r));
  HR_TRY(hri_dim_add(c, r, dim, &r));
  if (__builtin_add_overflow(r, lo, &r) || __builtin_add_overflow(r, hi, &r))
    return hri_err(c, "dimension %d: padded size overflows 64 bits", d);
  if (r < 0)
    return hri_value_err(c, src, "dimension %d: padding makes the size negative (%lld)", d, (long long)r);
  *out = r;
  return NULL;
}

hr_status hri_infer_pad(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  HR_TRY(hri_want_rank(c, 1, 0, "padding_value"));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  const hr_shape *in = &c->in[0].shape;
  int64_t lo[HR_MAX_RANK], hi[HR_MAX_RANK], interior[HR_MAX_RANK];
  int nl, nh;
  HR_TRY(hri_attr_list(c, "edge_padding_low", true, lo, &nl));
  HR_TRY(hri_attr_list(c, "edge_padding_high", true, hi, &nh));
  if (nl != in->rank || nh != in->rank)
    return hri_err(c, "edge padding attributes must have %d entries", in->rank);
  HR_TRY(hri_attr_list_n(c, "interior_padding", in->rank, 0, interior));
  hri_ints none = {0};
  hr_shape s = {.rank = in->rank};
  for (int d = 0; d < in->rank; d++)
    HR_TRY(pad_dim(c, &none, d, in->dims[d], lo[d], hi[d], interior[d], &s.dims[d]));
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_dynamic_pad(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  HR_TRY(hri_want_rank(c, 1, 0, "padding_value"));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  const hr_shape *in = &c->in[0].shape;
  hri_ints lo, hi, interior;
  HR_TRY(hri_operand_ints(c, 2, "edge_padding_low", &lo));
  HR_TRY(hri_operand_ints(c, 3, "edge_padding_high", &hi));
  HR_TRY(hri_operand_ints(c, 4, "interior_padding", &interior));
  const hri_ints *all[3] = {&lo, &hi, &interior};
  for (int k = 0; k < 3; k++)
    if (all[k]->n != HR_DYNAMIC && all[k]->n != in->rank)
      return hri_err(c, "operand #%d must have %d entries, got %d", k + 2, in->rank, all[k]->n);
  bool known = lo.known && hi.known && interior.known;
  hr_shape s = {.rank = in->rank};
  for (int d = 0; d < in->rank; d++) {
    s.dims[d] = HR_DYNAMIC;
    if (known) HR_TRY(pad_dim(c, &lo, d, in->dims[d], lo.v[d], hi.v[d], interior.v[d], &s.dims[d]));
  }
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_reverse(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  int64_t dims[HR_MAX_RANK];
  int n;
  HR_TRY(hri_attr_list(c, "dimensions", true, dims, &n));
  HR_TRY(hri_check_axes(c, "dimensions", dims, n, c->in[0].shape.rank, false));
  c->out[0] = c->in[0];
  return NULL;
}

/* Reads the `dimension` attribute of get/set_dimension_size and checks it against the rank. */
static hr_status size_dimension(const hri_ctx *c, int64_t *dim) {
  HR_TRY(hri_want_tensor(c, 0));
  HR_TRY(hri_attr_int(c, "dimension", true, 0, dim));
  if (*dim < 0 || *dim >= c->in[0].shape.rank)
    return hri_err(c, "dimension %lld is outside [0, %d)", (long long)*dim, c->in[0].shape.rank);
  return NULL;
}

hr_status hri_infer_get_dimension_size(const hri_ctx *c) {
  int64_t dim;
  HR_TRY(size_dimension(c, &dim));
  hr_shape s = {.rank = 0};
  c->out[0] = hri_tensor(HR_I32, &s);
  return NULL;
}

hr_status hri_infer_set_dimension_size(const hri_ctx *c) {
  int64_t dim;
  HR_TRY(size_dimension(c, &dim));
  hri_ints v;
  HR_TRY(hri_operand_scalar(c, 1, "size", &v));
  hr_shape s = c->in[0].shape;
  s.dims[dim] = HR_DYNAMIC;
  if (v.known) {
    if (v.v[0] < 0 || (c->in[0].shape.dims[dim] != HR_DYNAMIC && v.v[0] > c->in[0].shape.dims[dim]))
      return hri_value_err(c, &v, "size %lld is outside [0, %lld]", (long long)v.v[0],
                           (long long)c->in[0].shape.dims[dim]);
    s.dims[dim] = v.v[0];
  }
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

/* Data-movement kernels with static parameters (iota, broadcasts, reshape, transpose, slice,
 * concatenate, pad, reverse, dimension sizes) and the hr_kernels_data table. Every kernel checks
 * its attributes against the concrete operand and result shapes before touching memory, then
 * expresses the work as hr_copy_plan runs, so any element type moves as raw bytes. */
#include <string.h>

#include "base/elem.h"
#include "interp/data.h"

/* ---------------------------------------------------------------------------------------------- */
/* Shared shape helpers                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Fails unless `t` has element type `dtype` (what names the tensor). */
static hr_status check_dtype(const hr_op *op, const char *what, const hr_tensor *t, hr_dtype dtype) {
  if (t->dtype == dtype) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "%s has element type %s, expected %s", what,
                     hr_dtype_name(t->dtype), hr_dtype_name(dtype));
}

/* Fails unless `n` (the length of attribute `what`) equals the rank. */
static hr_status check_len(const hr_op *op, const char *what, int n, int rank) {
  if (n == rank) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "'%s' has %d entries, expected %d", what, n, rank);
}

/* ---------------------------------------------------------------------------------------------- */
/* iota                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Stores the number `v` as element 0 of `p` in element type `t`. */
static void store_number(hr_dtype t, void *p, int64_t v) {
  if (hr_dtype_is_real_float(t)) {
    hr_store_float(t, p, 0, (double)v);
  } else if (hr_dtype_is_complex(t)) {
    hr_c128 c = {(double)v, 0.0};
    hr_store_complex(t, p, 0, c);
  } else {
    hr_store_int(t, p, 0, v);
  }
}

hr_status hr_data_iota_into(const hr_op *op, int64_t dim, hr_tensor *result) {
  const hr_shape *s = &result->shape;
  if (dim < 0 || dim >= s->rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "iota dimension %lld is outside [0, %d)", (long long)dim,
                       s->rank);
  int64_t n_elems = hr_tensor_num_elements(result);
  if (n_elems == 0) return NULL;
  int64_t n = s->dims[dim], inner = 1;
  for (int d = (int)dim + 1; d < s->rank; d++) inner *= s->dims[d];
  size_t es = hr_dtype_size(result->dtype);
  unsigned char *base = result->data;
  /* Build the first block [n x inner], then repeat it over the outer dims. */
  for (int64_t i = 0; i < n; i++) {
    unsigned char *row = base + (size_t)(i * inner) * es;
    store_number(result->dtype, row, i);
    hr_data_replicate(row, inner, es);
  }
  hr_data_replicate(base, n_elems / (n * inner), (size_t)(n * inner) * es);
  return NULL;
}

/* stablehlo.iota: result[i] = i along iota_dimension. */
static hr_status kernel_iota(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                             hr_tensor **results) {
  int64_t dim;
  HR_TRY(hr_op_attr_i64(op, "iota_dimension", &dim));
  return hr_data_iota_into(op, dim, results[0]);
}

/* ---------------------------------------------------------------------------------------------- */
/* Broadcasts and reshape                                                                          */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_data_broadcast_into(const hr_op *op, const hr_tensor *operand, const int64_t *dims,
                                 int n_dims, hr_tensor *result) {
  const hr_shape *os = &operand->shape, *rs = &result->shape;
  HR_TRY(check_len(op, "broadcast_dimensions", n_dims, os->rank));
  HR_TRY(hr_data_check_axes(op, "broadcast_dimensions", dims, n_dims, rs->rank));
  HR_TRY(check_dtype(op, "the result", result, operand->dtype));
  hr_copy_plan p;
  hr_copy_plan_init(&p, rs->rank, rs->dims);
  hr_data_strides(rs, p.dst_stride);
  int64_t os_stride[HR_MAX_RANK];
  hr_data_strides(os, os_stride);
  for (int i = 0; i < n_dims; i++) {
    int64_t od = os->dims[i], rd = rs->dims[dims[i]];
    if (od != 1 && od != rd)
      return hr_op_error(op, HR_VERIFY_ERROR,
                         "operand dimension %d of size %lld cannot broadcast to size %lld", i,
                         (long long)od, (long long)rd);
    if (od != 1) p.src_stride[dims[i]] = os_stride[i];
  }
  return hr_copy_plan_run(op, &p, operand, result);
}

/* stablehlo.broadcast_in_dim: operand dim i maps to result dim broadcast_dimensions[i]. */
static hr_status kernel_broadcast_in_dim(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                         hr_tensor **results) {
  int64_t dims[HR_MAX_RANK];
  int n;
  HR_TRY(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, &n));
  return hr_data_broadcast_into(op, operands[0], dims, n, results[0]);
}

/* stablehlo.broadcast: the result shape is broadcast_sizes followed by the operand shape. */
static hr_status kernel_broadcast(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                  hr_tensor **results) {
  int64_t sizes[HR_MAX_RANK];
  int n;
  HR_TRY(hr_op_attr_i64_list(op, "broadcast_sizes", sizes, HR_MAX_RANK, &n));
  const hr_tensor *x = operands[0];
  if (n + x->shape.rank > HR_MAX_RANK)
    return hr_op_error(op, HR_VERIFY_ERROR, "result rank exceeds %d", HR_MAX_RANK);
  hr_shape want = {.rank = n + x->shape.rank};
  int64_t dims[HR_MAX_RANK];
  for (int i = 0; i < n; i++) want.dims[i] = sizes[i];
  for (int i = 0; i < x->shape.rank; i++) {
    want.dims[n + i] = x->shape.dims[i];
    dims[i] = n + i;
  }
  HR_TRY(hr_data_check_shape(op, "the result", results[0], &want));
  return hr_data_broadcast_into(op, x, dims, x->shape.rank, results[0]);
}

/* stablehlo.reshape: the same elements in the same row-major order. */
static hr_status kernel_reshape(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                hr_tensor **results) {
  HR_TRY(check_dtype(op, "the result", results[0], operands[0]->dtype));
  if (hr_tensor_num_elements(operands[0]) != hr_tensor_num_elements(results[0]))
    return hr_op_error(op, HR_VERIFY_ERROR, "reshape of %lld elements into %lld elements",
                       (long long)hr_tensor_num_elements(operands[0]),
                       (long long)hr_tensor_num_elements(results[0]));
  return hr_data_copy_all(op, operands[0], results[0]);
}

/* ---------------------------------------------------------------------------------------------- */
/* transpose, reverse                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* stablehlo.transpose: result dim i is operand dim permutation[i]. */
static hr_status kernel_transpose(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                  hr_tensor **results) {
  const hr_tensor *x = operands[0];
  hr_tensor *r = results[0];
  int64_t perm[HR_MAX_RANK];
  int n;
  HR_TRY(hr_op_attr_i64_list(op, "permutation", perm, HR_MAX_RANK, &n));
  HR_TRY(check_len(op, "permutation", n, x->shape.rank));
  HR_TRY(hr_data_check_axes(op, "permutation", perm, n, x->shape.rank));
  hr_shape want = {.rank = n};
  for (int i = 0; i < n; i++) want.dims[i] = x->shape.dims[perm[i]];
  HR_TRY(hr_data_check_shape(op, "the result", r, &want));
  hr_copy_plan p;
  hr_copy_plan_init(&p, n, want.dims);
  hr_data_strides(&want, p.dst_stride);
  int64_t xs[HR_MAX_RANK];
  hr_data_strides(&x->shape, xs);
  for (int i = 0; i < n; i++) p.src_stride[i] = xs[perm[i]];
  return hr_copy_plan_run(op, &p, x, r);
}

/* stablehlo.reverse: flips the listed dimensions. */
static hr_status kernel_reverse(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                hr_tensor **results) {
  const hr_tensor *x = operands[0];
  int64_t dims[HR_MAX_RANK];
  int n;
  HR_TRY(hr_op_attr_i64_list(op, "dimensions", dims, HR_MAX_RANK, &n));
  HR_TRY(hr_data_check_axes(op, "dimensions", dims, n, x->shape.rank));
  HR_TRY(hr_data_check_shape(op, "the result", results[0], &x->shape));
  hr_copy_plan p;
  hr_copy_plan_init(&p, x->shape.rank, x->shape.dims);
  hr_data_strides(&x->shape, p.dst_stride);
  hr_data_strides(&x->shape, p.src_stride);
  for (int i = 0; i < n; i++) {
    int64_t d = dims[i];
    if (x->shape.dims[d] == 0) return NULL;
    p.src_offset += (x->shape.dims[d] - 1) * p.src_stride[d];
    p.src_stride[d] = -p.src_stride[d];
  }
  return hr_copy_plan_run(op, &p, x, results[0]);
}

/* ---------------------------------------------------------------------------------------------- */
/* slice, concatenate                                                                              */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_data_slice_into(const hr_op *op, const hr_tensor *operand, const int64_t *start,
                             const int64_t *limit, const int64_t *strides, hr_tensor *result) {
  const hr_shape *xs = &operand->shape;
  hr_shape want = {.rank = xs->rank};
  for (int d = 0; d < xs->rank; d++) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > xs->dims[d] || strides[d] < 1)
      return hr_op_error(op, HR_VERIFY_ERROR,
                         "dimension %d: slice [%lld:%lld:%lld] does not fit size %lld", d,
                         (long long)start[d], (long long)limit[d], (long long)strides[d],
                         (long long)xs->dims[d]);
    int64_t len = limit[d] - start[d];
    want.dims[d] = len / strides[d] + (len % strides[d] != 0);
  }
  HR_TRY(hr_data_check_shape(op, "the result", result, &want));
  HR_TRY(check_dtype(op, "the result", result, operand->dtype));
  hr_copy_plan p;
  hr_copy_plan_init(&p, want.rank, want.dims);
  hr_data_strides(&want, p.dst_stride);
  int64_t os[HR_MAX_RANK];
  hr_data_strides(xs, os);
  for (int d = 0; d < xs->rank; d++) {
    if (want.dims[d] == 0) return NULL;
    p.src_offset += start[d] * os[d];
    /* With more than one element, (n - 1) * stride < size bounds the product. */
    p.src_stride[d] = want.dims[d] > 1 ? os[d] * strides[d] : 0;
  }
  return hr_copy_plan_run(op, &p, operand, result);
}

/* stablehlo.slice: static start_indices, limit_indices and strides (default 1). */
static hr_status kernel_slice(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                              hr_tensor **results) {
  int rank = operands[0]->shape.rank;
  int64_t start[HR_MAX_RANK], limit[HR_MAX_RANK], strides[HR_MAX_RANK];
  int ns, nl, nt;
  HR_TRY(hr_op_attr_i64_list(op, "start_indices", start, HR_MAX_RANK, &ns));
  HR_TRY(hr_op_attr_i64_list(op, "limit_indices", limit, HR_MAX_RANK, &nl));
  HR_TRY(hr_op_attr_i64_list_opt(op, "strides", strides, HR_MAX_RANK, &nt));
  if (!hr_op_attr(op, "strides")) {
    for (int d = 0; d < rank; d++) strides[d] = 1;
    nt = rank;
  }
  HR_TRY(check_len(op, "start_indices", ns, rank));
  HR_TRY(check_len(op, "limit_indices", nl, rank));
  HR_TRY(check_len(op, "strides", nt, rank));
  return hr_data_slice_into(op, operands[0], start, limit, strides, results[0]);
}

/* stablehlo.concatenate: operands joined along `dimension`. */
static hr_status kernel_concatenate(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                    hr_tensor **results) {
  hr_tensor *r = results[0];
  int64_t dim;
  HR_TRY(hr_op_attr_i64(op, "dimension", &dim));
  if (dim < 0 || dim >= r->shape.rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "dimension %lld is outside [0, %d)", (long long)dim,
                       r->shape.rank);
  /* Check every operand first so that a bad one cannot leave a half-written result. */
  int64_t total = 0;
  for (int i = 0; i < op->n_operands; i++) {
    const hr_tensor *x = operands[i];
    hr_shape want = r->shape;
    want.dims[dim] = x->shape.rank == r->shape.rank ? x->shape.dims[dim] : 0;
    HR_TRY(hr_data_check_shape(op, "an operand", x, &want));
    HR_TRY(check_dtype(op, "an operand", x, r->dtype));
    if (!hr_add_i64(total, x->shape.dims[dim], &total) || total > r->shape.dims[dim]) break;
  }
  if (total != r->shape.dims[dim])
    return hr_op_error(op, HR_VERIFY_ERROR, "operands do not add up to result dimension size %lld",
                       (long long)r->shape.dims[dim]);
  int64_t rs[HR_MAX_RANK], offset = 0;
  hr_data_strides(&r->shape, rs);
  for (int i = 0; i < op->n_operands; i++) {
    const hr_tensor *x = operands[i];
    hr_copy_plan p;
    hr_copy_plan_init(&p, x->shape.rank, x->shape.dims);
    hr_data_strides(&x->shape, p.src_stride);
    memcpy(p.dst_stride, rs, sizeof rs);
    p.dst_offset = offset * rs[dim];
    HR_TRY(hr_copy_plan_run(op, &p, x, r));
    offset += x->shape.dims[dim];
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* pad                                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* Size of one padded dimension: low + high + size + max(size - 1, 0) * interior; false on
 * overflow. */
static bool padded_size(int64_t size, int64_t low, int64_t high, int64_t interior, int64_t *out) {
  int64_t gaps, n;
  return hr_mul_i64(size > 0 ? size - 1 : 0, interior, &gaps) && hr_add_i64(size, gaps, &n) &&
         hr_add_i64(n, low, &n) && hr_add_i64(n, high, out);
}

/* Sets dimension d of a pad copy plan: the operand indices whose padded position
 * low + i * step falls inside [0, out), where they land and with which stride. Returns false
 * when no operand index survives. */
static bool pad_plan_dim(hr_copy_plan *p, int d, int64_t size, int64_t low, int64_t step,
                         int64_t out, int64_t src_stride, int64_t dst_stride) {
  /* First index: smallest i with low + i * step >= 0, i.e. floor((-low - 1) / step) + 1. */
  int64_t first = 0;
  if (low < 0) {
    int64_t q = (-(low + 1)) / step;
    if (q >= size - 1) return false;
    first = q + 1;
  }
  /* Last index: largest i with low + i * step <= out - 1. */
  if (low > out - 1) return false;
  int64_t room, last = size - 1;
  if (hr_sub_i64(out - 1, low, &room) && room / step < last) last = room / step;
  if (first > last) return false;
  int64_t count = last - first + 1;
  p->dims[d] = count;
  p->src_offset += first * src_stride;
  p->dst_offset += (low + first * step) * dst_stride;
  p->src_stride[d] = count > 1 ? src_stride : 0;
  p->dst_stride[d] = count > 1 ? dst_stride * step : 0;
  return true;
}

hr_status hr_data_pad_into(const hr_op *op, const hr_tensor *operand, const hr_tensor *pad_value,
                           const int64_t *low, const int64_t *high, const int64_t *interior,
                           hr_tensor *result) {
  const hr_shape *xs = &operand->shape;
  HR_TRY(check_dtype(op, "the padding value", pad_value, operand->dtype));
  HR_TRY(check_dtype(op, "the result", result, operand->dtype));
  if (pad_value->shape.rank != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "the padding value must be a rank-0 tensor");
  hr_shape want = {.rank = xs->rank};
  for (int d = 0; d < xs->rank; d++) {
    if (interior[d] < 0 || interior[d] == INT64_MAX ||
        !padded_size(xs->dims[d], low[d], high[d], interior[d], &want.dims[d]) || want.dims[d] < 0)
      return hr_op_error(op, HR_VERIFY_ERROR,
                         "dimension %d: padding low %lld, high %lld, interior %lld of size %lld is "
                         "invalid",
                         d, (long long)low[d], (long long)high[d], (long long)interior[d],
                         (long long)xs->dims[d]);
  }
  HR_TRY(hr_data_check_shape(op, "the result", result, &want));
  size_t es = hr_dtype_size(result->dtype);
  hr_data_fill(result->data, hr_tensor_num_elements(result), pad_value->data, es);
  if (hr_tensor_num_elements(operand) == 0) return NULL;
  hr_copy_plan p;
  hr_copy_plan_init(&p, xs->rank, xs->dims);
  int64_t os[HR_MAX_RANK], rs[HR_MAX_RANK];
  hr_data_strides(xs, os);
  hr_data_strides(&want, rs);
  for (int d = 0; d < xs->rank; d++)
    if (!pad_plan_dim(&p, d, xs->dims[d], low[d], interior[d] + 1, want.dims[d], os[d], rs[d]))
      return NULL;
  return hr_copy_plan_run(op, &p, operand, result);
}

/* stablehlo.pad: edge_padding_low/high (may be negative) and interior_padding. */
static hr_status kernel_pad(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results) {
  int rank = operands[0]->shape.rank;
  int64_t low[HR_MAX_RANK], high[HR_MAX_RANK], interior[HR_MAX_RANK];
  int nl, nh, ni;
  HR_TRY(hr_op_attr_i64_list(op, "edge_padding_low", low, HR_MAX_RANK, &nl));
  HR_TRY(hr_op_attr_i64_list(op, "edge_padding_high", high, HR_MAX_RANK, &nh));
  HR_TRY(hr_op_attr_i64_list(op, "interior_padding", interior, HR_MAX_RANK, &ni));
  HR_TRY(check_len(op, "edge_padding_low", nl, rank));
  HR_TRY(check_len(op, "edge_padding_high", nh, rank));
  HR_TRY(check_len(op, "interior_padding", ni, rank));
  return hr_data_pad_into(op, operands[0], operands[1], low, high, interior, results[0]);
}

/* ---------------------------------------------------------------------------------------------- */
/* Dimension sizes                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the `dimension` attribute and checks it against `rank`. */
static hr_status dimension_attr(const hr_op *op, int rank, int64_t *dim) {
  HR_TRY(hr_op_attr_i64(op, "dimension", dim));
  if (*dim < 0 || *dim >= rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "dimension %lld is outside [0, %d)", (long long)*dim,
                       rank);
  return NULL;
}

/* stablehlo.get_dimension_size: the size of one operand dimension as a scalar. */
static hr_status kernel_get_dimension_size(hr_interp *in, const hr_op *op,
                                           hr_tensor *const *operands, hr_tensor **results) {
  int64_t dim;
  HR_TRY(dimension_attr(op, operands[0]->shape.rank, &dim));
  hr_tensor *r = results[0];
  if (r->shape.rank != 0 || (!hr_dtype_is_signed_int(r->dtype) && !hr_dtype_is_unsigned_int(r->dtype)))
    return hr_op_error(op, HR_VERIFY_ERROR, "the result must be an integer scalar");
  hr_store_int(r->dtype, r->data, 0, operands[0]->shape.dims[dim]);
  return NULL;
}

/* stablehlo.set_dimension_size: the operand with one dimension cut to `size` (a scalar operand
 * that must not exceed the static size); the run-time result keeps the leading elements. */
static hr_status kernel_set_dimension_size(hr_interp *in, const hr_op *op,
                                           hr_tensor *const *operands, hr_tensor **results) {
  const hr_tensor *x = operands[0], *size = operands[1];
  hr_tensor *r = results[0];
  int64_t dim;
  HR_TRY(dimension_attr(op, x->shape.rank, &dim));
  HR_TRY(hr_data_check_index_tensor(op, size, "the size"));
  if (size->shape.rank != 0) return hr_op_error(op, HR_VERIFY_ERROR, "the size must be a scalar");
  int64_t n = hr_data_load_index(size->dtype, size->data, 0);
  if (n < 0 || n > x->shape.dims[dim])
    return hr_op_error(op, HR_OUT_OF_RANGE, "size %lld is outside [0, %lld]", (long long)n,
                       (long long)x->shape.dims[dim]);
  int64_t start[HR_MAX_RANK] = {0}, strides[HR_MAX_RANK];
  for (int d = 0; d < x->shape.rank; d++) strides[d] = 1;
  /* The result has either the cut shape or, where its type stays static, the operand's. */
  hr_shape cut = x->shape;
  cut.dims[dim] = n;
  bool full = r->shape.rank == x->shape.rank && r->shape.dims[dim] == x->shape.dims[dim];
  const int64_t *limit = full ? x->shape.dims : cut.dims;
  return hr_data_slice_into(op, x, start, limit, strides, r);
}

/* ---------------------------------------------------------------------------------------------- */
/* The table                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

const hr_kernel hr_kernels_data[] = {
    {HR_OP_BROADCAST, kernel_broadcast},
    {HR_OP_BROADCAST_IN_DIM, kernel_broadcast_in_dim},
    {HR_OP_CONCATENATE, kernel_concatenate},
    {HR_OP_DYNAMIC_BROADCAST_IN_DIM, hr_data_dynamic_broadcast_in_dim},
    {HR_OP_DYNAMIC_GATHER, hr_data_dynamic_gather},
    {HR_OP_DYNAMIC_IOTA, hr_data_dynamic_iota},
    {HR_OP_DYNAMIC_PAD, hr_data_dynamic_pad},
    {HR_OP_DYNAMIC_RESHAPE, hr_data_dynamic_reshape},
    {HR_OP_DYNAMIC_SLICE, hr_data_dynamic_slice},
    {HR_OP_DYNAMIC_UPDATE_SLICE, hr_data_dynamic_update_slice},
    {HR_OP_GATHER, hr_data_gather},
    {HR_OP_GET_DIMENSION_SIZE, kernel_get_dimension_size},
    {HR_OP_IOTA, kernel_iota},
    {HR_OP_PAD, kernel_pad},
    {HR_OP_REAL_DYNAMIC_SLICE, hr_data_real_dynamic_slice},
    {HR_OP_RESHAPE, kernel_reshape},
    {HR_OP_REVERSE, kernel_reverse},
    {HR_OP_SCATTER, hr_data_scatter},
    {HR_OP_SET_DIMENSION_SIZE, kernel_set_dimension_size},
    {HR_OP_SLICE, kernel_slice},
    {HR_OP_SORT, hr_data_sort},
    {HR_OP_TORCH_INDEX_SELECT, hr_data_torch_index_select},
    {HR_OP_TRANSPOSE, kernel_transpose},
    {HR_OP_CHLO_TOP_K, hr_data_top_k},
    {HR_OP_COUNT, NULL},
};

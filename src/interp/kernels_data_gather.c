/* gather, dynamic_gather and torch_index_select.
 *
 * Gather follows the StableHLO spec in full generality (offset/collapsed/batching dims,
 * start_index_map, index_vector_dim == rank meaning an implicit trailing 1): for every batch index
 * it computes the clamped start of one operand slice and copies that slice box into the result
 * with one hr_copy_plan. Out-of-range start indices are clamped so the slice stays inside the
 * operand, as the spec and XLA do; hostile index values (INT64_MIN, huge unsigned) clamp too. */
#include <string.h>

#include "base/elem.h"
#include "interp/data.h"

/* Gather dimension numbers plus slice sizes, read from the op and validated against the
 * operand, start indices and result. */
typedef struct gather_spec {
  int64_t offset_dims[HR_MAX_RANK];
  int64_t collapsed[HR_MAX_RANK];
  int64_t operand_batching[HR_MAX_RANK];
  int64_t indices_batching[HR_MAX_RANK];
  int64_t start_index_map[HR_MAX_RANK];
  int64_t slice_sizes[HR_MAX_RANK];
  int n_offset, n_collapsed, n_batching, n_indices_batching, n_map, n_sizes;
  int64_t index_vector_dim;
  /* Derived: operand dims kept in the result (neither collapsed nor batching), in order, and the
   * result dims that are batch dims, in order. */
  int64_t window_dims[HR_MAX_RANK];
  int64_t batch_result_dims[HR_MAX_RANK];
  int n_batch;
} gather_spec;

/* Reads the dimension_numbers STRUCT attribute. */
static hr_status read_dimension_numbers(const hr_op *op, gather_spec *g) {
  const hr_attr *dn = hr_op_attr(op, "dimension_numbers");
  const char *sn = "dimension_numbers"; /* named in errors */
  if (!dn || dn->kind != HR_ATTR_STRUCT)
    return hr_op_error(op, HR_VERIFY_ERROR, "missing 'dimension_numbers'");
  HR_TRY(hr_op_struct_list(op, dn, sn, "offset_dims", g->offset_dims, &g->n_offset));
  HR_TRY(hr_op_struct_list(op, dn, sn, "collapsed_slice_dims", g->collapsed, &g->n_collapsed));
  HR_TRY(hr_op_struct_list(op, dn, sn, "operand_batching_dims", g->operand_batching, &g->n_batching));
  HR_TRY(hr_op_struct_list(op, dn, sn, "start_indices_batching_dims", g->indices_batching,
                             &g->n_indices_batching));
  HR_TRY(hr_op_struct_list(op, dn, sn, "start_index_map", g->start_index_map, &g->n_map));
  return hr_data_struct_int(op, dn, "index_vector_dim", 0, &g->index_vector_dim);
}

/* Whether `v` is among the first `n` entries of `list`. */
static bool contains(const int64_t *list, int n, int64_t v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return true;
  return false;
}

/* Validates the dimension lists against the operand rank and the start indices. */
static hr_status check_dimension_lists(const hr_op *op, gather_spec *g, const hr_tensor *x,
                                       const hr_tensor *idx) {
  int rank = x->shape.rank, irank = idx->shape.rank;
  if (g->index_vector_dim < 0 || g->index_vector_dim > irank)
    return hr_op_error(op, HR_VERIFY_ERROR, "index_vector_dim %lld is outside [0, %d]",
                       (long long)g->index_vector_dim, irank);
  HR_TRY(hr_data_check_axes(op, "collapsed_slice_dims", g->collapsed, g->n_collapsed, rank));
  HR_TRY(hr_data_check_axes(op, "operand_batching_dims", g->operand_batching, g->n_batching, rank));
  HR_TRY(hr_data_check_axes(op, "start_index_map", g->start_index_map, g->n_map, rank));
  HR_TRY(hr_data_check_axes(op, "start_indices_batching_dims", g->indices_batching,
                            g->n_indices_batching, irank));
  if (g->n_indices_batching != g->n_batching)
    return hr_op_error(op, HR_VERIFY_ERROR, "operand and start index batching dims differ in number");
  for (int i = 0; i < g->n_batching; i++) {
    int64_t d = g->operand_batching[i], sd = g->indices_batching[i];
    if (contains(g->collapsed, g->n_collapsed, d) || contains(g->start_index_map, g->n_map, d))
      return hr_op_error(op, HR_VERIFY_ERROR, "batching dimension %lld is also collapsed or indexed",
                         (long long)d);
    if (sd == g->index_vector_dim)
      return hr_op_error(op, HR_VERIFY_ERROR, "index_vector_dim is a batching dimension");
    if (x->shape.dims[d] != idx->shape.dims[sd])
      return hr_op_error(op, HR_VERIFY_ERROR, "batching dimensions %lld and %lld differ in size",
                         (long long)d, (long long)sd);
  }
  int64_t vec = g->index_vector_dim < irank ? idx->shape.dims[g->index_vector_dim] : 1;
  if (vec != g->n_map)
    return hr_op_error(op, HR_VERIFY_ERROR, "index vectors have %lld entries but start_index_map %d",
                       (long long)vec, g->n_map);
  return NULL;
}

/* Validates slice sizes and the result shape, and derives window and batch dims. */
static hr_status check_slices_and_result(const hr_op *op, gather_spec *g, const hr_tensor *x,
                                         const hr_tensor *idx, const hr_tensor *r) {
  int rank = x->shape.rank, irank = idx->shape.rank;
  if (g->n_sizes != rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "slice_sizes has %d entries, expected %d", g->n_sizes, rank);
  int n_window = 0;
  for (int d = 0; d < rank; d++) {
    int64_t s = g->slice_sizes[d];
    if (s < 0 || s > x->shape.dims[d])
      return hr_op_error(op, HR_VERIFY_ERROR, "slice size %lld does not fit dimension %d of size %lld",
                         (long long)s, d, (long long)x->shape.dims[d]);
    bool dropped = contains(g->collapsed, g->n_collapsed, d) ||
                   contains(g->operand_batching, g->n_batching, d);
    if (dropped && s > 1)
      return hr_op_error(op, HR_VERIFY_ERROR, "collapsed or batching dimension %d has slice size %lld",
                         d, (long long)s);
    if (!dropped) g->window_dims[n_window++] = d;
  }
  g->n_batch = irank - (g->index_vector_dim < irank ? 1 : 0);
  if (g->n_offset != n_window || g->n_batch + n_window > HR_MAX_RANK)
    return hr_op_error(op, HR_VERIFY_ERROR, "offset_dims must list %d dimensions", n_window);
  int out_rank = g->n_batch + n_window;
  HR_TRY(hr_data_check_axes(op, "offset_dims", g->offset_dims, g->n_offset, out_rank));
  for (int i = 1; i < g->n_offset; i++)
    if (g->offset_dims[i] < g->offset_dims[i - 1])
      return hr_op_error(op, HR_VERIFY_ERROR, "offset_dims must be sorted");
  /* Expected result: batch dims take the start index dims (index_vector_dim removed) in order,
   * offset dims take the window slice sizes in order. */
  hr_shape want = {.rank = out_rank};
  int b = 0, w = 0;
  for (int d = 0; d < out_rank; d++) {
    if (w < g->n_offset && g->offset_dims[w] == d) {
      want.dims[d] = g->slice_sizes[g->window_dims[w++]];
    } else {
      int sd = b < g->index_vector_dim ? b : b + 1;
      g->batch_result_dims[b++] = d;
      want.dims[d] = idx->shape.dims[sd];
    }
  }
  return hr_data_check_shape(op, "the result", r, &want);
}

/* Sums, over the batch index `bi`, each index times the stride of its dimension in the start
 * indices (skipping index_vector_dim). */
static int64_t indices_base(const gather_spec *g, const int64_t *bi, const int64_t *is) {
  int64_t off = 0;
  for (int j = 0; j < g->n_batch; j++) off += bi[j] * is[j < g->index_vector_dim ? j : j + 1];
  return off;
}

/* Copies the slice for every batch index. */
static hr_status gather_run(const hr_op *op, const gather_spec *g, const hr_tensor *x,
                            const hr_tensor *idx, hr_tensor *r) {
  if (hr_tensor_num_elements(r) == 0) return NULL;
  /* A collapsed or batching dim with slice size 0 makes every slice empty: nothing to read. */
  for (int i = 0; i < g->n_collapsed; i++)
    if (g->slice_sizes[g->collapsed[i]] == 0) return NULL;
  for (int i = 0; i < g->n_batching; i++)
    if (g->slice_sizes[g->operand_batching[i]] == 0) return NULL;
  int64_t xs[HR_MAX_RANK], is[HR_MAX_RANK], rs[HR_MAX_RANK];
  hr_data_strides(&x->shape, xs);
  hr_data_strides(&idx->shape, is);
  hr_data_strides(&r->shape, rs);
  int64_t vec_stride = g->index_vector_dim < idx->shape.rank ? is[g->index_vector_dim] : 0;
  hr_copy_plan base;
  int64_t box[HR_MAX_RANK];
  for (int i = 0; i < g->n_offset; i++) box[i] = g->slice_sizes[g->window_dims[i]];
  hr_copy_plan_init(&base, g->n_offset, box);
  for (int i = 0; i < g->n_offset; i++) {
    base.src_stride[i] = xs[g->window_dims[i]];
    base.dst_stride[i] = rs[g->offset_dims[i]];
  }
  hr_shape batch = {.rank = g->n_batch};
  for (int j = 0; j < g->n_batch; j++) batch.dims[j] = r->shape.dims[g->batch_result_dims[j]];
  int64_t bi[HR_MAX_RANK] = {0};
  do {
    hr_copy_plan p = base;
    int64_t ib = indices_base(g, bi, is);
    for (int k = 0; k < g->n_map; k++) {
      int64_t d = g->start_index_map[k];
      int64_t v = hr_data_load_index(idx->dtype, idx->data, ib + k * vec_stride);
      p.src_offset += hr_clamp_i64(v, 0, x->shape.dims[d] - g->slice_sizes[d]) * xs[d];
    }
    for (int i = 0; i < g->n_batching; i++) {
      int64_t sd = g->indices_batching[i];
      p.src_offset += bi[sd < g->index_vector_dim ? sd : sd - 1] * xs[g->operand_batching[i]];
    }
    for (int j = 0; j < g->n_batch; j++) p.dst_offset += bi[j] * rs[g->batch_result_dims[j]];
    HR_TRY(hr_copy_plan_run(op, &p, x, r));
  } while (hr_next_index(&batch, bi));
  return NULL;
}

/* Shared body of gather and dynamic_gather once slice sizes are known. */
static hr_status gather_common(const hr_op *op, gather_spec *g, hr_tensor *const *operands,
                               hr_tensor **results) {
  const hr_tensor *x = operands[0], *idx = operands[1];
  HR_TRY(hr_data_check_index_tensor(op, idx, "start_indices"));
  if (results[0]->dtype != x->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "the result must have the operand's element type");
  HR_TRY(check_dimension_lists(op, g, x, idx));
  HR_TRY(check_slices_and_result(op, g, x, idx, results[0]));
  return gather_run(op, g, x, idx, results[0]);
}

/* stablehlo.gather: slice sizes from the slice_sizes attribute. */
hr_status hr_data_gather(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                         hr_tensor **results) {
  gather_spec g;
  memset(&g, 0, sizeof g);
  HR_TRY(read_dimension_numbers(op, &g));
  HR_TRY(hr_op_attr_i64_list(op, "slice_sizes", g.slice_sizes, HR_MAX_RANK, &g.n_sizes));
  return gather_common(op, &g, operands, results);
}

/* stablehlo.dynamic_gather: slice sizes from the third operand. */
hr_status hr_data_dynamic_gather(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                 hr_tensor **results) {
  gather_spec g;
  memset(&g, 0, sizeof g);
  HR_TRY(read_dimension_numbers(op, &g));
  int rank = operands[0]->shape.rank;
  HR_TRY(hr_data_read_index_vector(op, operands[2], rank, "slice_sizes", g.slice_sizes));
  g.n_sizes = rank;
  return gather_common(op, &g, operands, results);
}

/* ---------------------------------------------------------------------------------------------- */
/* torch_index_select                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* Validates torch_index_select's `dim` and `batch_dims` and its result shape:
 * operand.shape[:dim] ++ index.shape[batch_dims:] ++ operand.shape[dim+1:]. */
static hr_status check_index_select(const hr_op *op, const hr_tensor *x, const hr_tensor *index,
                                    const hr_tensor *r, int64_t dim, int64_t bd) {
  if (dim < 0 || dim >= x->shape.rank || bd < 0 || bd > dim || bd > index->shape.rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "dim %lld / batch_dims %lld do not fit the operands",
                       (long long)dim, (long long)bd);
  for (int i = 0; i < bd; i++)
    if (x->shape.dims[i] != index->shape.dims[i])
      return hr_op_error(op, HR_VERIFY_ERROR, "batch dimension %d differs in size", i);
  int rank = x->shape.rank - 1 + index->shape.rank - (int)bd;
  if (rank > HR_MAX_RANK) return hr_op_error(op, HR_VERIFY_ERROR, "result rank exceeds %d", HR_MAX_RANK);
  hr_shape want = {.rank = rank};
  int n = 0;
  for (int i = 0; i < dim; i++) want.dims[n++] = x->shape.dims[i];
  for (int i = (int)bd; i < index->shape.rank; i++) want.dims[n++] = index->shape.dims[i];
  for (int i = (int)dim + 1; i < x->shape.rank; i++) want.dims[n++] = x->shape.dims[i];
  HR_TRY(hr_data_check_shape(op, "the result", r, &want));
  if (r->dtype != x->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "the result must have the operand's element type");
  if (x->shape.dims[dim] == 0 && hr_tensor_num_elements(r) > 0)
    return hr_op_error(op, HR_OUT_OF_RANGE, "selecting from an empty dimension");
  return NULL;
}

/* result[p, q, s] = operand[p, index[p[:batch_dims], q], s] with the index clamped into range;
 * s, the dims after `dim`, is one contiguous run. */
hr_status hr_data_torch_index_select(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                     hr_tensor **results) {
  const hr_tensor *x = operands[0], *index = operands[1];
  hr_tensor *r = results[0];
  int64_t dim, bd;
  HR_TRY(hr_op_attr_i64(op, "dim", &dim));
  HR_TRY(hr_op_attr_i64(op, "batch_dims", &bd));
  HR_TRY(hr_data_check_index_tensor(op, index, "the index"));
  HR_TRY(check_index_select(op, x, index, r, dim, bd));
  if (hr_tensor_num_elements(r) == 0) return NULL;
  int64_t xs[HR_MAX_RANK], is[HR_MAX_RANK];
  hr_data_strides(&x->shape, xs);
  hr_data_strides(&index->shape, is);
  int outer_rank = (int)dim + index->shape.rank - (int)bd;
  hr_shape outer = {.rank = outer_rank};
  for (int i = 0; i < outer_rank; i++) outer.dims[i] = r->shape.dims[i];
  hr_copy_plan base;
  hr_copy_plan_init(&base, 1, &xs[dim]); /* the run after `dim` has xs[dim] elements */
  base.src_stride[0] = base.dst_stride[0] = 1;
  int64_t oi[HR_MAX_RANK] = {0}, dst = 0;
  do {
    int64_t ioff = 0, src = 0;
    for (int i = 0; i < bd; i++) ioff += oi[i] * is[i];
    for (int i = (int)dim; i < outer_rank; i++) ioff += oi[i] * is[bd + i - dim];
    for (int i = 0; i < dim; i++) src += oi[i] * xs[i];
    int64_t v = hr_data_load_index(index->dtype, index->data, ioff);
    hr_copy_plan p = base;
    p.src_offset = src + hr_clamp_i64(v, 0, x->shape.dims[dim] - 1) * xs[dim];
    p.dst_offset = dst;
    HR_TRY(hr_copy_plan_run(op, &p, x, r));
    dst += xs[dim];
  } while (hr_next_index(&outer, oi));
  return NULL;
}

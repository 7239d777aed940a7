/* Shape inference for indexing ops: gather, dynamic_gather, scatter, dynamic_slice,
 * dynamic_update_slice, torch_index_select, sort and chlo.top_k. */
#include "ir/infer_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* gather / dynamic_gather                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Gather dimension numbers (#stablehlo.gather<...>). */
typedef struct gather_dn {
  int64_t offset[HR_MAX_RANK], collapsed[HR_MAX_RANK], obatch[HR_MAX_RANK], ibatch[HR_MAX_RANK];
  int64_t map[HR_MAX_RANK];
  int n_offset, n_collapsed, n_obatch, n_ibatch, n_map;
  int64_t index_vector_dim;
} gather_dn;

/* Reads the gather dimension numbers from attribute `name`. */
static hr_status read_gather_dn(const hri_ctx *c, const char *name, gather_dn *g) {
  const hr_attr *s;
  HR_TRY(hri_attr_struct(c, name, &s));
  HR_TRY(hri_field_list(c, s, name, "offset_dims", g->offset, &g->n_offset));
  HR_TRY(hri_field_list(c, s, name, "collapsed_slice_dims", g->collapsed, &g->n_collapsed));
  HR_TRY(hri_field_list(c, s, name, "operand_batching_dims", g->obatch, &g->n_obatch));
  HR_TRY(hri_field_list(c, s, name, "start_indices_batching_dims", g->ibatch, &g->n_ibatch));
  HR_TRY(hri_field_list(c, s, name, "start_index_map", g->map, &g->n_map));
  HR_TRY(hri_field_int(c, s, name, "index_vector_dim", false, 0, &g->index_vector_dim));
  bool sorted;
  return hri_attr_bool(c, "indices_are_sorted", false, &sorted);
}

/* Checks that `a` ++ `b` has no duplicates. */
static hr_status check_disjoint(const hri_ctx *c, const char *what, const int64_t *a, int na,
                                const int64_t *b, int nb) {
  for (int i = 0; i < nb; i++)
    if (hri_contains(a, na, b[i]) || hri_contains(b, i, b[i]))
      return hri_err(c, "%s: dimension %lld appears twice", what, (long long)b[i]);
  return NULL;
}

/* Checks the index operand against index_vector_dim, the index-vector length `n_map` and the
 * batching dims (spec gather C2-C3, C13-C17 and scatter C14-C19, C22), with operand `data` holding
 * the batched tensor whose dims `data_batch` pair with the index dims `index_batch`. */
static hr_status check_indices(const hri_ctx *c, int data, int idx, int64_t ivd, int n_map,
                               const int64_t *data_batch, const int64_t *index_batch, int n_batch,
                               int n_ibatch) {
  const hr_shape *is = &c->in[idx].shape;
  if (ivd < 0 || ivd > is->rank)
    return hri_err(c, "index_vector_dim %lld is outside [0, %d]", (long long)ivd, is->rank);
  int64_t vec_len = ivd < is->rank ? is->dims[ivd] : 1;
  if (vec_len != HR_DYNAMIC && vec_len != n_map)
    return hri_err(c, "the index vector has %lld entries but the index map has %d", (long long)vec_len,
                   n_map);
  HR_TRY(hri_check_axes(c, "index batching dims", index_batch, n_ibatch, is->rank, false));
  if (hri_contains(index_batch, n_ibatch, ivd))
    return hri_err(c, "index_vector_dim %lld is also an index batching dim", (long long)ivd);
  if (n_ibatch != n_batch)
    return hri_err(c, "operand and index batching dims differ in number (%d and %d)", n_batch, n_ibatch);
  for (int i = 0; i < n_batch; i++) {
    int64_t m;
    HR_TRY(hri_dim_merge(c, c->in[data].shape.dims[data_batch[i]], is->dims[index_batch[i]], &m,
                         "batching dimension sizes"));
  }
  return NULL;
}

/* Checks the gather dimension numbers against the operand and indices (spec gather C1-C21);
 * `sizes` holds the slice sizes when `sizes_known`. */
static hr_status check_gather(const hri_ctx *c, const gather_dn *g, const int64_t *sizes, bool sizes_known) {
  const hr_shape *os = &c->in[0].shape;
  int r = os->rank;
  if (g->n_offset + g->n_collapsed + g->n_obatch != r)
    return hri_err(c,
                   "offset_dims, collapsed_slice_dims and operand_batching_dims must cover the "
                   "operand rank %d",
                   r);
  HR_TRY(hri_check_axes(c, "collapsed_slice_dims", g->collapsed, g->n_collapsed, r, true));
  HR_TRY(hri_check_axes(c, "operand_batching_dims", g->obatch, g->n_obatch, r, true));
  HR_TRY(check_disjoint(c, "collapsed_slice_dims and operand_batching_dims", g->collapsed, g->n_collapsed,
                        g->obatch, g->n_obatch));
  HR_TRY(hri_check_axes(c, "start_index_map", g->map, g->n_map, r, false));
  HR_TRY(check_disjoint(c, "start_index_map and operand_batching_dims", g->map, g->n_map, g->obatch,
                        g->n_obatch));
  HR_TRY(
      check_indices(c, 0, 1, g->index_vector_dim, g->n_map, g->obatch, g->ibatch, g->n_obatch, g->n_ibatch));
  if (!sizes_known) return NULL;
  for (int d = 0; d < r; d++) {
    if (sizes[d] < 0 || (os->dims[d] != HR_DYNAMIC && sizes[d] > os->dims[d]))
      return hri_err(c, "slice size %lld of dimension %d is outside [0, %lld]", (long long)sizes[d], d,
                     (long long)os->dims[d]);
    if ((hri_contains(g->collapsed, g->n_collapsed, d) || hri_contains(g->obatch, g->n_obatch, d)) &&
        sizes[d] > 1)
      return hri_err(c, "slice size of collapsed or batching dimension %d must be at most 1", d);
  }
  return NULL;
}

/* Computes the gather result shape (spec C22): index dims (less index_vector_dim) at the batch
 * positions, slice sizes (less collapsed and batching dims) at offset_dims. */
static hr_status gather_shape(const hri_ctx *c, const gather_dn *g, const int64_t *sizes, bool sizes_known,
                              hr_shape *out) {
  const hr_shape *is = &c->in[1].shape;
  int batch_rank = is->rank - (g->index_vector_dim < is->rank ? 1 : 0);
  int rank = batch_rank + g->n_offset;
  if (rank > HR_MAX_RANK) return hri_err(c, "result rank would exceed %d", HR_MAX_RANK);
  HR_TRY(hri_check_axes(c, "offset_dims", g->offset, g->n_offset, rank, true));
  out->rank = rank;
  int bi = 0, oi = 0;
  for (int d = 0; d < rank; d++) {
    if (hri_contains(g->offset, g->n_offset, d)) {
      while (hri_contains(g->collapsed, g->n_collapsed, oi) || hri_contains(g->obatch, g->n_obatch, oi)) oi++;
      out->dims[d] = sizes_known ? sizes[oi] : HR_DYNAMIC;
      oi++;
    } else {
      if (bi == g->index_vector_dim) bi++;
      out->dims[d] = is->dims[bi++];
    }
  }
  return NULL;
}

hr_status hri_infer_gather(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  HR_TRY(hri_want_int_tensor(c, 1, "start_indices"));
  gather_dn g;
  HR_TRY(read_gather_dn(c, "dimension_numbers", &g));
  int64_t sizes[HR_MAX_RANK];
  int n;
  HR_TRY(hri_attr_list(c, "slice_sizes", true, sizes, &n));
  if (n != c->in[0].shape.rank)
    return hri_err(c, "slice_sizes has %d entries but the operand has rank %d", n, c->in[0].shape.rank);
  HR_TRY(check_gather(c, &g, sizes, true));
  hr_shape s;
  HR_TRY(gather_shape(c, &g, sizes, true, &s));
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_dynamic_gather(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  HR_TRY(hri_want_int_tensor(c, 1, "start_indices"));
  gather_dn g;
  HR_TRY(read_gather_dn(c, "dimension_numbers", &g));
  hri_ints sizes;
  HR_TRY(hri_operand_ints(c, 2, "slice_sizes", &sizes));
  if (sizes.n != HR_DYNAMIC && sizes.n != c->in[0].shape.rank)
    return hri_err(c, "slice_sizes has %d entries but the operand has rank %d", sizes.n, c->in[0].shape.rank);
  hr_status st = check_gather(c, &g, sizes.v, sizes.known);
  if (st && sizes.runtime) {
    hr_status e = hr_op_error(c->op, HR_OUT_OF_RANGE, "slice_sizes do not fit the operand");
    hr_status_free(st);
    return e;
  }
  HR_TRY(st);
  hr_shape s;
  HR_TRY(gather_shape(c, &g, sizes.v, sizes.known, &s));
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* scatter                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Scatter dimension numbers (#stablehlo.scatter<...>). */
typedef struct scatter_dn {
  int64_t window[HR_MAX_RANK], inserted[HR_MAX_RANK], ibatch[HR_MAX_RANK], sbatch[HR_MAX_RANK];
  int64_t map[HR_MAX_RANK];
  int n_window, n_inserted, n_ibatch, n_sbatch, n_map;
  int64_t index_vector_dim;
} scatter_dn;

/* Reads the scatter dimension numbers. */
static hr_status read_scatter_dn(const hri_ctx *c, scatter_dn *g) {
  const char *name = "scatter_dimension_numbers";
  const hr_attr *s;
  HR_TRY(hri_attr_struct(c, name, &s));
  HR_TRY(hri_field_list(c, s, name, "update_window_dims", g->window, &g->n_window));
  HR_TRY(hri_field_list(c, s, name, "inserted_window_dims", g->inserted, &g->n_inserted));
  HR_TRY(hri_field_list(c, s, name, "input_batching_dims", g->ibatch, &g->n_ibatch));
  HR_TRY(hri_field_list(c, s, name, "scatter_indices_batching_dims", g->sbatch, &g->n_sbatch));
  HR_TRY(hri_field_list(c, s, name, "scatter_dims_to_operand_dims", g->map, &g->n_map));
  HR_TRY(hri_field_int(c, s, name, "index_vector_dim", false, 0, &g->index_vector_dim));
  bool flag;
  HR_TRY(hri_attr_bool(c, "indices_are_sorted", false, &flag));
  return hri_attr_bool(c, "unique_indices", false, &flag);
}

/* Checks the updates shape (spec scatter C4, C7-C8): scatter dims match the index dims (less
 * index_vector_dim); window dims fit in the input's non-inserted, non-batching dims. */
static hr_status check_updates_shape(const hri_ctx *c, const scatter_dn *g, const hr_shape *in,
                                     const hr_shape *upd, const hr_shape *idx) {
  int batch_rank = idx->rank - (g->index_vector_dim < idx->rank ? 1 : 0);
  if (upd->rank != batch_rank + g->n_window)
    return hri_err(c, "updates have rank %d, expected %d", upd->rank, batch_rank + g->n_window);
  HR_TRY(hri_check_axes(c, "update_window_dims", g->window, g->n_window, upd->rank, true));
  int bi = 0, wi = 0;
  for (int d = 0; d < upd->rank; d++) {
    int64_t m;
    if (hri_contains(g->window, g->n_window, d)) {
      while (hri_contains(g->inserted, g->n_inserted, wi) || hri_contains(g->ibatch, g->n_ibatch, wi)) wi++;
      int64_t lim = in->dims[wi++];
      if (upd->dims[d] != HR_DYNAMIC && lim != HR_DYNAMIC && upd->dims[d] > lim)
        return hri_err(c, "update window dimension %d (size %lld) exceeds the input size %lld", d,
                       (long long)upd->dims[d], (long long)lim);
    } else {
      if (bi == g->index_vector_dim) bi++;
      HR_TRY(hri_dim_merge(c, upd->dims[d], idx->dims[bi++], &m, "update scatter dims and indices"));
    }
  }
  return NULL;
}

hr_status hri_infer_scatter(const hri_ctx *c) {
  int total = c->op->n_operands;
  if (total % 2 == 0) return hri_err(c, "expected inputs, indices and as many updates as inputs");
  int n = (total - 1) / 2;
  if (c->op->n_results != n) return hri_err(c, "expected %d results, got %d", n, c->op->n_results);
  HR_TRY(hri_want_tensors(c, 0, total));
  HR_TRY(hri_want_int_tensor(c, n, "scatter_indices"));
  hr_shape in = c->in[0].shape, upd = c->in[n + 1].shape;
  for (int i = 1; i < n; i++) HR_TRY(hri_shape_merge(c, &c->in[i].shape, &in, &in, "input shapes"));
  for (int i = 0; i < n; i++) {
    if (i > 0) HR_TRY(hri_shape_merge(c, &c->in[n + 1 + i].shape, &upd, &upd, "update shapes"));
    HR_TRY(hri_want_same_dtype(c, i, n + 1 + i));
  }
  scatter_dn g;
  HR_TRY(read_scatter_dn(c, &g));
  if (g.n_window + g.n_inserted + g.n_ibatch != in.rank)
    return hri_err(c,
                   "update_window_dims, inserted_window_dims and input_batching_dims must cover "
                   "the input rank %d",
                   in.rank);
  HR_TRY(hri_check_axes(c, "inserted_window_dims", g.inserted, g.n_inserted, in.rank, true));
  HR_TRY(hri_check_axes(c, "input_batching_dims", g.ibatch, g.n_ibatch, in.rank, true));
  HR_TRY(check_disjoint(c, "inserted_window_dims and input_batching_dims", g.inserted, g.n_inserted, g.ibatch,
                        g.n_ibatch));
  HR_TRY(hri_check_axes(c, "scatter_dims_to_operand_dims", g.map, g.n_map, in.rank, false));
  HR_TRY(check_disjoint(c, "scatter_dims_to_operand_dims and input_batching_dims", g.map, g.n_map, g.ibatch,
                        g.n_ibatch));
  HR_TRY(check_indices(c, 0, n, g.index_vector_dim, g.n_map, g.ibatch, g.sbatch, g.n_ibatch, g.n_sbatch));
  HR_TRY(check_updates_shape(c, &g, &in, &upd, &c->in[n].shape));
  HR_TRY(hri_reducer_region(c, 0, n, 0, "update_computation"));
  for (int i = 0; i < n; i++) c->out[i] = hri_tensor(hri_region_arg_dtype(c, 0, i), &in);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* dynamic_slice / dynamic_update_slice                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Checks the start index operands [first, first + rank): rank-0 integer tensors of one type. */
static hr_status check_start_indices(const hri_ctx *c, int first, int rank) {
  int n = c->op->n_operands - first;
  if (n != rank) return hri_err(c, "expected %d start indices, got %d", rank, n);
  for (int i = first; i < first + n; i++) {
    HR_TRY(hri_want_rank(c, i, 0, "start index"));
    HR_TRY(hri_want_int_tensor(c, i, "start index"));
    HR_TRY(hri_want_same_dtype(c, first, i));
  }
  return NULL;
}

hr_status hri_infer_dynamic_slice(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  const hr_shape *in = &c->in[0].shape;
  HR_TRY(check_start_indices(c, 1, in->rank));
  int64_t sizes[HR_MAX_RANK];
  int n;
  HR_TRY(hri_attr_list(c, "slice_sizes", true, sizes, &n));
  if (n != in->rank) return hri_err(c, "slice_sizes has %d entries but the operand has rank %d", n, in->rank);
  hr_shape s = {.rank = n};
  for (int d = 0; d < n; d++) {
    if (sizes[d] < 0 || (in->dims[d] != HR_DYNAMIC && sizes[d] > in->dims[d]))
      return hri_err(c, "slice size %lld of dimension %d is outside [0, %lld]", (long long)sizes[d], d,
                     (long long)in->dims[d]);
    s.dims[d] = sizes[d];
  }
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

hr_status hri_infer_dynamic_update_slice(const hri_ctx *c) {
  HR_TRY(hri_want_tensors(c, 0, 2));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  const hr_shape *in = &c->in[0].shape, *up = &c->in[1].shape;
  if (up->rank != in->rank) return hri_err(c, "update has rank %d, expected %d", up->rank, in->rank);
  HR_TRY(check_start_indices(c, 2, in->rank));
  for (int d = 0; d < in->rank; d++)
    if (up->dims[d] != HR_DYNAMIC && in->dims[d] != HR_DYNAMIC && up->dims[d] > in->dims[d])
      return hri_err(c, "update dimension %d (size %lld) exceeds the operand size %lld", d,
                     (long long)up->dims[d], (long long)in->dims[d]);
  c->out[0] = c->in[0];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* torch_index_select, sort, top_k                                                                 */
/* ---------------------------------------------------------------------------------------------- */

hr_status hri_infer_torch_index_select(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  HR_TRY(hri_want_int_tensor(c, 1, "index"));
  const hr_shape *in = &c->in[0].shape, *ix = &c->in[1].shape;
  int64_t dim, batch;
  HR_TRY(hri_attr_int(c, "dim", true, 0, &dim));
  HR_TRY(hri_attr_int(c, "batch_dims", true, 0, &batch));
  if (dim < 0 || dim >= in->rank) return hri_err(c, "dim %lld is outside [0, %d)", (long long)dim, in->rank);
  if (batch < 0 || batch > dim || batch > ix->rank)
    return hri_err(c, "batch_dims %lld must be in [0, min(dim, index rank)]", (long long)batch);
  int rank = in->rank - 1 + ix->rank - (int)batch;
  if (rank > HR_MAX_RANK) return hri_err(c, "result rank would exceed %d", HR_MAX_RANK);
  hr_shape s = {.rank = 0};
  for (int d = 0; d < dim; d++) {
    if (d < batch)
      HR_TRY(hri_dim_merge(c, in->dims[d], ix->dims[d], &s.dims[d], "batch dimensions"));
    else
      s.dims[d] = in->dims[d];
    s.rank++;
  }
  for (int d = (int)batch; d < ix->rank; d++) s.dims[s.rank++] = ix->dims[d];
  for (int d = (int)dim + 1; d < in->rank; d++) s.dims[s.rank++] = in->dims[d];
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  return NULL;
}

/* Checks the sort comparator: 2n rank-0 arguments (tensor<Ei> twice per input) returning one
 * tensor<i1>. */
static hr_status check_comparator(const hri_ctx *c, int n) {
  const hr_block *b = &c->op->regions[0];
  if (b->n_args != 2 * n) return hri_err(c, "comparator must take %d arguments, got %d", 2 * n, b->n_args);
  for (int i = 0; i < 2 * n; i++) {
    const hr_type *a = &b->args[i].type;
    if (a->kind != HR_TYPE_TENSOR || a->shape.rank != 0 || a->dtype != c->in[i / 2].dtype) {
      hri_tbuf tb;
      return hri_err(c, "comparator argument #%d has type %s, expected tensor<%s>", i, hri_type_str(a, &tb),
                     hr_dtype_name(c->in[i / 2].dtype));
    }
  }
  const hr_op *ret;
  HR_TRY(hri_region_return(c, 0, &ret));
  const hr_type *rt = ret->n_operands == 1 ? &ret->operands[0]->type : NULL;
  if (!rt || rt->kind != HR_TYPE_TENSOR || rt->shape.rank != 0 || rt->dtype != HR_I1)
    return hri_err(c, "comparator must return one tensor<i1>");
  return NULL;
}

hr_status hri_infer_sort(const hri_ctx *c) {
  int n = c->op->n_operands;
  if (c->op->n_results != n) return hri_err(c, "expected %d results, got %d", n, c->op->n_results);
  HR_TRY(hri_want_tensors(c, 0, n));
  hr_shape s = c->in[0].shape;
  for (int i = 1; i < n; i++) HR_TRY(hri_shape_merge(c, &c->in[i].shape, &s, &s, "input shapes"));
  int64_t dim;
  HR_TRY(hri_attr_int(c, "dimension", false, -1, &dim));
  if (dim < -s.rank || dim >= s.rank || s.rank == 0)
    return hri_err(c, "dimension %lld is outside [-%d, %d)", (long long)dim, s.rank, s.rank);
  bool stable;
  HR_TRY(hri_attr_bool(c, "is_stable", false, &stable));
  HR_TRY(check_comparator(c, n));
  for (int i = 0; i < n; i++) c->out[i] = hri_tensor(c->in[i].dtype, &s);
  return NULL;
}

hr_status hri_infer_top_k(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_shape s = c->in[0].shape;
  if (s.rank == 0) return hri_err(c, "operand must have rank >= 1");
  int64_t k;
  HR_TRY(hri_attr_int(c, "k", true, 0, &k));
  int64_t last = s.dims[s.rank - 1];
  if (k < 0 || (last != HR_DYNAMIC && k > last))
    return hri_err(c, "k = %lld is outside [0, %lld]", (long long)k, (long long)last);
  s.dims[s.rank - 1] = k;
  c->out[0] = hri_tensor(c->in[0].dtype, &s);
  c->out[1] = hri_tensor(HR_I32, &s);
  return NULL;
}

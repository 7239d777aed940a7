/* Shape inference for reductions and collectives: reduce, reduce_window, select_and_scatter,
 * all_reduce, reduce_scatter, all_gather, all_to_all, and ops whose results mirror their operands
 * (optimization_barrier, collective_permute, ...). */
#include "ir/infer_internal.h"

/* Checks variadic reduction operands: n inputs of one shape (merged into *shape) followed by n
 * rank-0 init values of the inputs' element types; the op must have n results. */
static hr_status check_inputs_and_inits(const hri_ctx *c, int *n, hr_shape *shape) {
  int total = c->op->n_operands;
  if (total % 2 != 0) return hri_err(c, "expected as many init values as inputs");
  *n = total / 2;
  if (c->op->n_results != *n) return hri_err(c, "expected %d results, got %d", *n, c->op->n_results);
  HR_TRY(hri_want_tensors(c, 0, total));
  *shape = c->in[0].shape;
  for (int i = 0; i < *n; i++) {
    if (i > 0) HR_TRY(hri_shape_merge(c, &c->in[i].shape, shape, shape, "input shapes"));
    HR_TRY(hri_want_rank(c, *n + i, 0, "init value"));
    HR_TRY(hri_want_same_dtype(c, i, *n + i));
  }
  return NULL;
}

hr_status hri_infer_reduce(const hri_ctx *c) {
  int n;
  hr_shape in;
  HR_TRY(check_inputs_and_inits(c, &n, &in));
  int64_t dims[HR_MAX_RANK];
  int nd;
  HR_TRY(hri_attr_list(c, "dimensions", true, dims, &nd));
  HR_TRY(hri_check_axes(c, "dimensions", dims, nd, in.rank, false));
  HR_TRY(hri_reducer_region(c, 0, n, 0, "body"));
  hr_shape s = {.rank = 0};
  for (int d = 0; d < in.rank; d++)
    if (!hri_contains(dims, nd, d)) s.dims[s.rank++] = in.dims[d];
  for (int i = 0; i < n; i++) c->out[i] = hri_tensor(hri_region_arg_dtype(c, 0, i), &s);
  return NULL;
}

/* A window over `rank` dims: sizes, strides, dilations and padding. */
typedef struct window {
  int64_t dims[HR_MAX_RANK], strides[HR_MAX_RANK], base_dil[HR_MAX_RANK], win_dil[HR_MAX_RANK];
  int64_t pad_lo[HR_MAX_RANK], pad_hi[HR_MAX_RANK];
} window;

/* Reads a window's attributes; absent ones default to 1 (padding to 0). `dims_required` says
 * whether window_dimensions must be present. */
static hr_status read_window(const hri_ctx *c, int rank, bool dims_required, window *w) {
  if (dims_required && !hr_op_attr(c->op, "window_dimensions"))
    return hri_err(c, "missing attribute 'window_dimensions'");
  HR_TRY(hri_attr_list_n(c, "window_dimensions", rank, 1, w->dims));
  HR_TRY(hri_attr_list_n(c, "window_strides", rank, 1, w->strides));
  HR_TRY(hri_attr_list_n(c, "base_dilations", rank, 1, w->base_dil));
  HR_TRY(hri_attr_list_n(c, "window_dilations", rank, 1, w->win_dil));
  HR_TRY(hri_attr_padding(c, "padding", rank, w->pad_lo, w->pad_hi));
  for (int d = 0; d < rank; d++)
    if (w->dims[d] <= 0 || w->strides[d] <= 0 || w->base_dil[d] <= 0 || w->win_dil[d] <= 0)
      return hri_err(c, "window sizes, strides and dilations must be positive");
  return NULL;
}

/* The number of windows along each dim of `in` (spec reduce_window C15). */
static hr_status window_shape(const hri_ctx *c, const window *w, const hr_shape *in, hr_shape *out) {
  out->rank = in->rank;
  for (int d = 0; d < in->rank; d++) {
    int64_t size, win, padded;
    HR_TRY(hri_dilate(c, in->dims[d], w->base_dil[d], &size));
    HR_TRY(hri_dilate(c, w->dims[d], w->win_dil[d], &win));
    out->dims[d] = HR_DYNAMIC;
    if (size == HR_DYNAMIC) continue;
    if (__builtin_add_overflow(size, w->pad_lo[d], &padded) ||
        __builtin_add_overflow(padded, w->pad_hi[d], &padded))
      return hri_err(c, "dimension %d: padded size overflows 64 bits", d);
    if (padded < 0) return hri_err(c, "dimension %d: padding makes the size negative", d);
    out->dims[d] = hri_num_windows(padded, win, w->strides[d]);
  }
  return NULL;
}

/* Reads window operand `i` (rank entries, or [rank, 2] when `pairs`) into out; false when its
 * values are not known here. */
static hr_status window_operand(const hri_ctx *c, int i, const char *what, int rank, bool pairs, int64_t *out,
                                bool *known) {
  hri_ints v;
  HR_TRY(pairs ? hri_operand_pairs(c, i, what, &v) : hri_operand_ints(c, i, what, &v));
  if (v.n != HR_DYNAMIC && v.n != rank) return hri_err(c, "%s has %d entries for rank %d inputs", what, v.n, rank);
  if (!v.known || v.n != rank) {
    *known = false;
    return NULL;
  }
  for (int d = 0; d < (pairs ? 2 : 1) * rank; d++) out[d] = v.v[d];
  return NULL;
}

hr_status hri_infer_dynamic_reduce_window(const hri_ctx *c) {
  int n = (c->op->n_operands - 5) / 2;
  if (c->op->n_operands < 7 || (c->op->n_operands - 5) % 2 || c->op->n_results != n)
    return hri_err(c, "stablehlo.dynamic_reduce_window takes N inputs, N init values and 5 window operands, and gives N results");
  HR_TRY(hri_want_tensors(c, 0, c->op->n_operands));
  const hr_shape *in = &c->in[0].shape;
  window w;
  int64_t pad[2 * HR_MAX_RANK];
  bool known = true;
  HR_TRY(window_operand(c, 2 * n, "window_dimensions", in->rank, false, w.dims, &known));
  HR_TRY(window_operand(c, 2 * n + 1, "window_strides", in->rank, false, w.strides, &known));
  HR_TRY(window_operand(c, 2 * n + 2, "base_dilations", in->rank, false, w.base_dil, &known));
  HR_TRY(window_operand(c, 2 * n + 3, "window_dilations", in->rank, false, w.win_dil, &known));
  HR_TRY(window_operand(c, 2 * n + 4, "padding", in->rank, true, pad, &known));
  if (!known) return NULL; /* the declared types stay */
  for (int d = 0; d < in->rank; d++) {
    if (w.dims[d] <= 0 || w.strides[d] <= 0 || w.base_dil[d] <= 0 || w.win_dil[d] <= 0)
      return hri_err(c, "window sizes, strides and dilations must be positive");
    w.pad_lo[d] = pad[2 * d];
    w.pad_hi[d] = pad[2 * d + 1];
  }
  hr_shape s;
  HR_TRY(window_shape(c, &w, in, &s));
  for (int r = 0; r < n; r++) {
    hr_type *t = &c->out[r];
    if (t->kind != HR_TYPE_TENSOR || t->shape.rank != s.rank)
      return hri_err(c, "result %d must be a tensor of rank %d", r, s.rank);
    for (int d = 0; d < s.rank; d++)
      if (t->shape.dims[d] == HR_DYNAMIC) t->shape.dims[d] = s.dims[d];
  }
  return NULL;
}

hr_status hri_infer_reduce_window(const hri_ctx *c) {
  int n;
  hr_shape in;
  HR_TRY(check_inputs_and_inits(c, &n, &in));
  window w;
  HR_TRY(read_window(c, in.rank, true, &w));
  HR_TRY(hri_reducer_region(c, 0, n, 0, "body"));
  hr_shape s;
  HR_TRY(window_shape(c, &w, &in, &s));
  for (int i = 0; i < n; i++) c->out[i] = hri_tensor(hri_region_arg_dtype(c, 0, i), &s);
  return NULL;
}

/* Checks the select region of select_and_scatter: (tensor<E>, tensor<E>) -> tensor<i1>. */
static hr_status check_select_region(const hri_ctx *c, hr_dtype e) {
  const hr_block *b = &c->op->regions[0];
  if (b->n_args != 2) return hri_err(c, "select must take 2 arguments, got %d", b->n_args);
  for (int i = 0; i < 2; i++) {
    const hr_type *a = &b->args[i].type;
    if (a->kind != HR_TYPE_TENSOR || a->shape.rank != 0 || a->dtype != e)
      return hri_err(c, "select arguments must be tensor<%s>", hr_dtype_name(e));
  }
  const hr_op *ret;
  HR_TRY(hri_region_return(c, 0, &ret));
  const hr_type *rt = ret->n_operands == 1 ? &ret->operands[0]->type : NULL;
  if (!rt || rt->kind != HR_TYPE_TENSOR || rt->shape.rank != 0 || rt->dtype != HR_I1)
    return hri_err(c, "select must return one tensor<i1>");
  return NULL;
}

hr_status hri_infer_select_and_scatter(const hri_ctx *c) {
  HR_TRY(hri_want_tensors(c, 0, 2));
  HR_TRY(hri_want_rank(c, 2, 0, "init_value"));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  HR_TRY(hri_want_same_dtype(c, 0, 2));
  const hr_shape *in = &c->in[0].shape;
  window w;
  HR_TRY(read_window(c, in->rank, false, &w));
  hr_shape windows, src;
  HR_TRY(window_shape(c, &w, in, &windows));
  HR_TRY(hri_shape_merge(c, &c->in[1].shape, &windows, &src, "source shape and window count"));
  HR_TRY(check_select_region(c, c->in[0].dtype));
  HR_TRY(hri_reducer_region(c, 1, 1, 1, "scatter"));
  c->out[0] = hri_tensor(hri_region_arg_dtype(c, 1, 0), in);
  return NULL;
}

hr_status hri_infer_all_reduce(const hri_ctx *c) {
  int n = c->op->n_operands;
  if (c->op->n_results != n) return hri_err(c, "expected %d results, got %d", n, c->op->n_results);
  HR_TRY(hri_want_tensors(c, 0, n));
  HR_TRY(hri_reducer_region(c, 0, 1, 0, "computation"));
  hr_dtype e = hri_region_arg_dtype(c, 0, 0);
  for (int i = 0; i < n; i++) {
    if (!hri_is_promotable(c->in[i].dtype, e))
      return hri_err(c, "operand #%d (%s) does not promote to %s", i, hr_dtype_name(c->in[i].dtype),
                     hr_dtype_name(e));
    c->out[i] = hri_tensor(e, &c->in[i].shape);
  }
  return NULL;
}

/* collective_reduce: one operand reduced over its group (to a root, given by the optional second
 * operand when has_dynamic_root): a result of the operand's shape and the computation's type. */
hr_status hri_infer_collective_reduce(const hri_ctx *c) {
  HR_TRY(hri_want_tensors(c, 0, c->op->n_operands));
  HR_TRY(hri_reducer_region(c, 0, 1, 0, "computation"));
  hr_dtype e = hri_region_arg_dtype(c, 0, 0);
  if (!hri_is_promotable(c->in[0].dtype, e))
    return hri_err(c, "the operand (%s) does not promote to %s", hr_dtype_name(c->in[0].dtype), hr_dtype_name(e));
  if (c->op->n_operands == 2 && (!hr_dtype_is_signed_int(c->in[1].dtype) && !hr_dtype_is_unsigned_int(c->in[1].dtype)))
    return hri_err(c, "the root operand must be integers");
  c->out[0] = hri_tensor(e, &c->in[0].shape);
  return NULL;
}

/* Whether the op's process groups are cross_replica_and_partition ones (a channel_handle > 0
 * without use_global_device_ids: docs/spec.md), which hold a replica group of every partition. */
static bool spans_partitions(const hr_op *op) {
  const hr_attr *ch = hr_op_attr(op, "channel_handle");
  const hr_attr *h = ch && ch->kind == HR_ATTR_STRUCT ? hr_attr_field(ch, "handle") : NULL;
  const hr_attr *g = hr_op_attr(op, "use_global_device_ids");
  bool global = g && (g->kind == HR_ATTR_UNIT || (g->kind == HR_ATTR_BOOL && g->u.b));
  return h && h->kind == HR_ATTR_INT && h->u.i.value > 0 && !global;
}

/* The group size of the replica_groups attribute (dim 1 of its [groups, size] tensor), or
 * HR_DYNAMIC when the groups are empty (all replicas) or span the partitions, whose number only
 * the process grid running the op knows. */
static hr_status group_size(const hri_ctx *c, int64_t *out) {
  const hr_attr *a = hr_op_attr(c->op, "replica_groups");
  if (!a || a->kind != HR_ATTR_DENSE || a->u.dense.type.kind != HR_TYPE_TENSOR ||
      a->u.dense.type.shape.rank != 2)
    return hri_err(c, "attribute 'replica_groups' must be a 2-D integer tensor");
  *out = a->u.dense.type.shape.dims[1];
  if (*out == 0 || spans_partitions(c->op)) *out = HR_DYNAMIC;
  return NULL;
}

/* Reads integer attribute `name` as a dimension of rank-`rank` operands. */
static hr_status dim_attr(const hri_ctx *c, const char *name, int rank, int64_t *out) {
  HR_TRY(hri_attr_int(c, name, true, 0, out));
  if (*out < 0 || *out >= rank) return hri_err(c, "%s %lld is outside [0, %d)", name, (long long)*out, rank);
  return NULL;
}

/* Divides static `d` by `by`, which must divide it. */
static hr_status dim_div(const hri_ctx *c, int64_t d, int64_t by, int64_t *out) {
  if (d == HR_DYNAMIC || by == HR_DYNAMIC) {
    *out = HR_DYNAMIC;
    return NULL;
  }
  if (d % by != 0)
    return hri_err(c, "dimension size %lld is not divisible by %lld", (long long)d, (long long)by);
  *out = d / by;
  return NULL;
}

hr_status hri_infer_reduce_scatter(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_shape s = c->in[0].shape;
  int64_t dim = 0, size = 1;
  HR_TRY(dim_attr(c, "scatter_dimension", s.rank, &dim));
  HR_TRY(group_size(c, &size));
  HR_TRY(hri_reducer_region(c, 0, 1, 0, "computation"));
  HR_TRY(dim_div(c, s.dims[dim], size, &s.dims[dim]));
  c->out[0] = hri_tensor(hri_region_arg_dtype(c, 0, 0), &s);
  return NULL;
}

hr_status hri_infer_all_gather(const hri_ctx *c) {
  int n = c->op->n_operands;
  if (c->op->n_results != n) return hri_err(c, "expected %d results, got %d", n, c->op->n_results);
  HR_TRY(hri_want_tensors(c, 0, n));
  int64_t size = 1;
  HR_TRY(group_size(c, &size));
  for (int i = 0; i < n; i++) {
    hr_shape s = c->in[i].shape;
    int64_t dim;
    HR_TRY(dim_attr(c, "all_gather_dim", s.rank, &dim));
    HR_TRY(hri_dim_mul(c, s.dims[dim], size, &s.dims[dim]));
    c->out[i] = hri_tensor(c->in[i].dtype, &s);
  }
  return NULL;
}

hr_status hri_infer_all_to_all(const hri_ctx *c) {
  int n = c->op->n_operands;
  if (c->op->n_results != n) return hri_err(c, "expected %d results, got %d", n, c->op->n_results);
  HR_TRY(hri_want_tensors(c, 0, n));
  int64_t count;
  HR_TRY(hri_attr_int(c, "split_count", true, 0, &count));
  if (count <= 0) return hri_err(c, "split_count must be positive");
  for (int i = 0; i < n; i++) {
    hr_shape s = c->in[i].shape;
    int64_t split = 0, concat = 0;
    HR_TRY(dim_attr(c, "split_dimension", s.rank, &split));
    HR_TRY(dim_attr(c, "concat_dimension", s.rank, &concat));
    int64_t part = 0;
    HR_TRY(dim_div(c, s.dims[split], count, &part));
    if (split != concat) {
      s.dims[split] = part;
      HR_TRY(hri_dim_mul(c, s.dims[concat], count, &s.dims[concat]));
    }
    c->out[i] = hri_tensor(c->in[i].dtype, &s);
  }
  return NULL;
}

hr_status hri_infer_same_as_operands(const hri_ctx *c) {
  if (c->op->n_results != c->op->n_operands)
    return hri_err(c, "expected %d results, got %d", c->op->n_operands, c->op->n_results);
  for (int i = 0; i < c->op->n_operands; i++) c->out[i] = c->in[i];
  return NULL;
}

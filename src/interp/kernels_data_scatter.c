/* stablehlo.scatter in full generality: variadic inputs/updates, update_window_dims,
 * inserted_window_dims, input/scatter_indices batching dims, scatter_dims_to_operand_dims and
 * index_vector_dim (== rank: implicit trailing 1).
 *
 * Results start as copies of the inputs (a result that is its input's very buffer, an update in
 * place that the executable arranges for a donated input, already holds it). Scatter indices are visited in row-major order and, for
 * each, the update window in row-major order, combining every element with the update
 * computation. A window that does not fit entirely inside the operand at its start index is
 * skipped as a whole, as XLA does (the conformance expectations come from XLA:CPU).
 *
 * The update computation runs through one of three paths: a window copy when the region just
 * returns the updates, hr_elementwise_binary_scalar when it is one recognised binary op on the
 * two arguments, and hr_interp_run_block per element otherwise. unique_indices and
 * indices_are_sorted are hints and are ignored. */
#include <string.h>

#include "base/elem.h"
#include "interp/data.h"
#include "interp/elementwise.h"

/* Scatter dimension numbers, read from the op and validated against the operands. */
typedef struct scatter_spec {
  int64_t update_window_dims[HR_MAX_RANK];
  int64_t inserted_window_dims[HR_MAX_RANK];
  int64_t input_batching[HR_MAX_RANK];
  int64_t indices_batching[HR_MAX_RANK];
  int64_t to_operand[HR_MAX_RANK]; /* scatter_dims_to_operand_dims */
  int n_window, n_inserted, n_batching, n_indices_batching, n_to_operand;
  int64_t index_vector_dim;
  /* Derived: the input dims the update window covers (neither inserted nor batching), in order,
   * matching update_window_dims; and the update dims that are scatter dims, in order. */
  int64_t window_input_dims[HR_MAX_RANK];
  int64_t update_scatter_dims[HR_MAX_RANK];
  int n_scatter;
  int64_t window_size[HR_MAX_RANK]; /* extent of the update window along each input dim */
} scatter_spec;

/* How each update element is combined with the current result element. */
typedef enum combine_kind {
  COMBINE_REPLACE, /* the region returns the update arguments unchanged */
  COMBINE_BINARY,  /* the region is one elementwise binary op on its two arguments */
  COMBINE_REGION,  /* anything else: interpret the region per element */
} combine_kind;

typedef struct combiner {
  combine_kind kind;
  hr_opcode code;     /* COMBINE_BINARY: the op */
  const hr_op *body;  /* COMBINE_BINARY: the op in the region, for error positions */
  bool swapped;       /* COMBINE_BINARY: the op reads (update, current) instead of (current, update) */
  hr_scalar_region region; /* COMBINE_REGION */
  hr_dtype *types;    /* COMBINE_REGION: the element type of each result */
} combiner;

/* The operands of a scatter, split by role. */
typedef struct scatter_args {
  int n; /* number of inputs (and updates, and results) */
  hr_tensor *const *inputs;
  const hr_tensor *indices;
  hr_tensor *const *updates;
  hr_tensor **results;
} scatter_args;

/* ---------------------------------------------------------------------------------------------- */
/* Validation                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Whether `v` is among the first `n` entries of `list`. */
static bool contains(const int64_t *list, int n, int64_t v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return true;
  return false;
}

/* Reads scatter_dimension_numbers. */
static hr_status read_spec(const hr_op *op, scatter_spec *s) {
  memset(s, 0, sizeof *s);
  const hr_attr *dn = hr_op_attr(op, "scatter_dimension_numbers");
  const char *sn = "scatter_dimension_numbers"; /* named in errors */
  if (!dn || dn->kind != HR_ATTR_STRUCT)
    return hr_op_error(op, HR_VERIFY_ERROR, "missing 'scatter_dimension_numbers'");
  HR_TRY(hr_op_struct_list(op, dn, sn, "update_window_dims", s->update_window_dims, &s->n_window));
  HR_TRY(hr_op_struct_list(op, dn, sn, "inserted_window_dims", s->inserted_window_dims, &s->n_inserted));
  HR_TRY(hr_op_struct_list(op, dn, sn, "input_batching_dims", s->input_batching, &s->n_batching));
  HR_TRY(hr_op_struct_list(op, dn, sn, "scatter_indices_batching_dims", s->indices_batching,
                             &s->n_indices_batching));
  HR_TRY(hr_op_struct_list(op, dn, sn, "scatter_dims_to_operand_dims", s->to_operand, &s->n_to_operand));
  return hr_data_struct_int(op, dn, "index_vector_dim", 0, &s->index_vector_dim);
}

/* Splits the operands and checks that inputs, updates and results agree among themselves. */
static hr_status split_operands(const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                                scatter_args *a) {
  if (op->n_operands < 3 || op->n_operands % 2 == 0 || op->n_results != op->n_operands / 2)
    return hr_op_error(op, HR_VERIFY_ERROR, "expected N inputs, indices, N updates and N results");
  a->n = op->n_operands / 2;
  a->inputs = operands;
  a->indices = operands[a->n];
  a->updates = operands + a->n + 1;
  a->results = results;
  HR_TRY(hr_data_check_index_tensor(op, a->indices, "scatter_indices"));
  for (int k = 0; k < a->n; k++) {
    hr_dtype t = a->inputs[k]->dtype;
    HR_TRY(hr_data_check_shape(op, "an input", a->inputs[k], &a->inputs[0]->shape));
    HR_TRY(hr_data_check_shape(op, "an update", a->updates[k], &a->updates[0]->shape));
    HR_TRY(hr_data_check_shape(op, "a result", a->results[k], &a->inputs[0]->shape));
    if (a->updates[k]->dtype != t || a->results[k]->dtype != t)
      return hr_op_error(op, HR_VERIFY_ERROR, "input %d, its update and its result differ in type", k);
  }
  return NULL;
}

/* Checks the dimension lists against the input and scatter index ranks. */
static hr_status check_dim_lists(const hr_op *op, const scatter_spec *s, const scatter_args *a) {
  int rank = a->inputs[0]->shape.rank, irank = a->indices->shape.rank;
  int urank = a->updates[0]->shape.rank;
  if (s->index_vector_dim < 0 || s->index_vector_dim > irank)
    return hr_op_error(op, HR_VERIFY_ERROR, "index_vector_dim %lld is outside [0, %d]",
                       (long long)s->index_vector_dim, irank);
  HR_TRY(hr_data_check_axes(op, "update_window_dims", s->update_window_dims, s->n_window, urank));
  HR_TRY(hr_data_check_axes(op, "inserted_window_dims", s->inserted_window_dims, s->n_inserted, rank));
  HR_TRY(hr_data_check_axes(op, "input_batching_dims", s->input_batching, s->n_batching, rank));
  HR_TRY(hr_data_check_axes(op, "scatter_dims_to_operand_dims", s->to_operand, s->n_to_operand, rank));
  HR_TRY(hr_data_check_axes(op, "scatter_indices_batching_dims", s->indices_batching,
                            s->n_indices_batching, irank));
  for (int i = 1; i < s->n_window; i++)
    if (s->update_window_dims[i] < s->update_window_dims[i - 1])
      return hr_op_error(op, HR_VERIFY_ERROR, "update_window_dims must be sorted");
  if (s->n_indices_batching != s->n_batching)
    return hr_op_error(op, HR_VERIFY_ERROR, "input and index batching dims differ in number");
  for (int i = 0; i < s->n_batching; i++) {
    int64_t d = s->input_batching[i], sd = s->indices_batching[i];
    if (contains(s->inserted_window_dims, s->n_inserted, d) || contains(s->to_operand, s->n_to_operand, d))
      return hr_op_error(op, HR_VERIFY_ERROR, "batching dimension %lld is also inserted or indexed",
                         (long long)d);
    if (sd == s->index_vector_dim)
      return hr_op_error(op, HR_VERIFY_ERROR, "index_vector_dim is a batching dimension");
    if (a->inputs[0]->shape.dims[d] != a->indices->shape.dims[sd])
      return hr_op_error(op, HR_VERIFY_ERROR, "batching dimensions %lld and %lld differ in size",
                         (long long)d, (long long)sd);
  }
  int64_t vec = s->index_vector_dim < irank ? a->indices->shape.dims[s->index_vector_dim] : 1;
  if (vec != s->n_to_operand)
    return hr_op_error(op, HR_VERIFY_ERROR,
                       "index vectors have %lld entries but scatter_dims_to_operand_dims %d",
                       (long long)vec, s->n_to_operand);
  return NULL;
}

/* Checks the update shape against inputs and indices and derives the window/scatter dims. */
static hr_status check_update_shape(const hr_op *op, scatter_spec *s, const scatter_args *a) {
  const hr_shape *xs = &a->inputs[0]->shape, *is = &a->indices->shape, *us = &a->updates[0]->shape;
  int n_win = 0;
  for (int d = 0; d < xs->rank; d++)
    if (!contains(s->inserted_window_dims, s->n_inserted, d) &&
        !contains(s->input_batching, s->n_batching, d))
      s->window_input_dims[n_win++] = d;
  if (n_win != s->n_window)
    return hr_op_error(op, HR_VERIFY_ERROR, "update_window_dims must list %d dimensions", n_win);
  s->n_scatter = is->rank - (s->index_vector_dim < is->rank ? 1 : 0);
  if (us->rank != s->n_scatter + s->n_window)
    return hr_op_error(op, HR_VERIFY_ERROR, "updates have rank %d, expected %d", us->rank,
                       s->n_scatter + s->n_window);
  for (int d = 0; d < xs->rank; d++) s->window_size[d] = 1;
  int j = 0, w = 0;
  for (int d = 0; d < us->rank; d++) {
    if (w < s->n_window && s->update_window_dims[w] == d) {
      if (us->dims[d] > xs->dims[s->window_input_dims[w]])
        return hr_op_error(op, HR_VERIFY_ERROR, "update window dimension %d exceeds the input's", d);
      s->window_size[s->window_input_dims[w++]] = us->dims[d];
      continue;
    }
    int sd = j < s->index_vector_dim ? j : j + 1;
    if (us->dims[d] != is->dims[sd])
      return hr_op_error(op, HR_VERIFY_ERROR,
                         "update scatter dimension %d has size %lld, the indices %lld", d,
                         (long long)us->dims[d], (long long)is->dims[sd]);
    s->update_scatter_dims[j++] = d;
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The update computation                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Whether block argument `i` is a rank-0 tensor of element type `t`. */
static bool arg_is_scalar_of(const hr_block *b, int i, hr_dtype t) {
  const hr_type *ty = &b->args[i].type;
  return ty->kind == HR_TYPE_TENSOR && ty->shape.rank == 0 && ty->dtype == t;
}

/* Recognises a region that returns its update arguments: return %arg{N}, ..., %arg{2N-1}. */
static bool is_replace_region(const hr_block *b, const scatter_args *a) {
  if (b->n_args != 2 * a->n || b->n_ops != 1 || b->ops[0]->n_operands != a->n) return false;
  for (int k = 0; k < a->n; k++)
    if (b->ops[0]->operands[k] != &b->args[a->n + k] || !arg_is_scalar_of(b, a->n + k, a->inputs[k]->dtype))
      return false;
  return true;
}

/* Recognises a single binary op on the two arguments (either order) of the input's element type,
 * and fills the combiner for it. */
static bool match_binary_region(const hr_block *b, const scatter_args *a, combiner *c) {
  hr_dtype t;
  if (a->n != 1 || !hr_elementwise_binary_region(b, &c->code, &t, &c->body, &c->swapped) ||
      t != a->inputs[0]->dtype)
    return false;
  c->kind = COMBINE_BINARY;
  return true;
}

/* Chooses the fastest correct way to apply the update computation. */
static hr_status combiner_init(hr_interp *in, const hr_op *op, const scatter_args *a, combiner *c) {
  memset(c, 0, sizeof *c);
  if (op->n_regions != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expected one region");
  const hr_block *b = &op->regions[0];
  if (is_replace_region(b, a)) {
    c->kind = COMBINE_REPLACE;
    return NULL;
  }
  if (match_binary_region(b, a, c)) return NULL;
  c->kind = COMBINE_REGION;
  if (b->n_args != 2 * a->n)
    return hr_op_error(op, HR_VERIFY_ERROR, "update computation must take %d arguments", 2 * a->n);
  for (int k = 0; k < a->n; k++)
    if (!arg_is_scalar_of(b, k, a->inputs[k]->dtype) || !arg_is_scalar_of(b, a->n + k, a->inputs[k]->dtype))
      return hr_op_error(op, HR_UNIMPLEMENTED,
                         "update computation arguments must be scalars of the input element types");
  HR_TRY(hr_scalar_region_init(&c->region, in, op, b, 2 * a->n, a->n));
  const hr_allocator *al = in->allocator;
  c->types = al->alloc(al->ctx, (size_t)a->n * sizeof *c->types, _Alignof(hr_dtype));
  if (!c->types) {
    hr_scalar_region_release(&c->region);
    return hr_op_error(op, HR_OUT_OF_MEMORY, "out of memory");
  }
  for (int k = 0; k < a->n; k++) c->types[k] = a->inputs[k]->dtype;
  return NULL;
}

/* Frees what combiner_init allocated. */
static void combiner_release(hr_interp *in, combiner *c) {
  if (c->kind != COMBINE_REGION) return;
  hr_scalar_region_release(&c->region);
  if (c->types) in->allocator->free(in->allocator->ctx, c->types);
}

/* Combines update element `src` into result element `dst` of every input. */
static hr_status combine_element(const hr_op *op, combiner *c, const scatter_args *a, int64_t dst,
                                 int64_t src) {
  if (c->kind == COMBINE_BINARY) {
    hr_dtype t = a->results[0]->dtype;
    size_t es = hr_dtype_size(t);
    unsigned char *cur = (unsigned char *)a->results[0]->data + (size_t)dst * es;
    const unsigned char *upd = (const unsigned char *)a->updates[0]->data + (size_t)src * es;
    return c->swapped ? hr_elementwise_binary_scalar(c->body, c->code, t, upd, cur, cur)
                      : hr_elementwise_binary_scalar(c->body, c->code, t, cur, upd, cur);
  }
  for (int k = 0; k < a->n; k++) {
    size_t es = hr_dtype_size(a->results[k]->dtype);
    memcpy(c->region.args[k]->data, (unsigned char *)a->results[k]->data + (size_t)dst * es, es);
    memcpy(c->region.args[a->n + k]->data,
           (const unsigned char *)a->updates[k]->data + (size_t)src * es, es);
  }
  HR_TRY(hr_scalar_region_call(&c->region, c->types));
  for (int k = 0; k < a->n; k++) {
    size_t es = hr_dtype_size(a->results[k]->dtype);
    memcpy((unsigned char *)a->results[k]->data + (size_t)dst * es, c->region.results[k]->data, es);
  }
  return NULL;
}

/* Applies one update window described by `p` (source: updates, destination: results). */
static hr_status apply_window(const hr_op *op, combiner *c, const scatter_args *a,
                              const hr_copy_plan *p) {
  if (c->kind == COMBINE_REPLACE) {
    for (int k = 0; k < a->n; k++) HR_TRY(hr_copy_plan_run(op, p, a->updates[k], a->results[k]));
    return NULL;
  }
  hr_shape box = {.rank = p->rank};
  for (int d = 0; d < p->rank; d++) {
    if (p->dims[d] == 0) return NULL;
    box.dims[d] = p->dims[d];
  }
  if (!hr_copy_plan_in_bounds(p, hr_tensor_num_elements(a->updates[0]),
                              hr_tensor_num_elements(a->results[0])))
    return hr_op_error(op, HR_INTERNAL, "update window reaches outside its tensors");
  int64_t wi[HR_MAX_RANK] = {0};
  do {
    int64_t src = p->src_offset, dst = p->dst_offset;
    for (int d = 0; d < p->rank; d++) {
      src += wi[d] * p->src_stride[d];
      dst += wi[d] * p->dst_stride[d];
    }
    HR_TRY(combine_element(op, c, a, dst, src));
  } while (hr_next_index(&box, wi));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The scatter loop                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* Computes the input start of the update window for scatter index `si`; false when the window
 * does not fit inside the input there (the whole window is then skipped). */
static bool window_start(const scatter_spec *s, const scatter_args *a, const int64_t *si,
                         const int64_t *is, int64_t *start) {
  const hr_shape *xs = &a->inputs[0]->shape;
  int irank = a->indices->shape.rank;
  int64_t ivd = s->index_vector_dim;
  int64_t base = 0;
  for (int j = 0; j < s->n_scatter; j++) base += si[j] * is[j < ivd ? j : j + 1];
  int64_t vec_stride = ivd < irank ? is[ivd] : 0;
  for (int d = 0; d < xs->rank; d++) start[d] = 0;
  for (int k = 0; k < s->n_to_operand; k++)
    start[s->to_operand[k]] = hr_data_load_index(a->indices->dtype, a->indices->data, base + k * vec_stride);
  for (int i = 0; i < s->n_batching; i++) {
    int64_t sd = s->indices_batching[i];
    start[s->input_batching[i]] = si[sd < ivd ? sd : sd - 1];
  }
  for (int d = 0; d < xs->rank; d++)
    if (start[d] < 0 || start[d] > xs->dims[d] - s->window_size[d]) return false;
  return true;
}

/* Visits every scatter index and applies its window. */
static hr_status scatter_run(const hr_op *op, const scatter_spec *s, const scatter_args *a,
                             combiner *c) {
  if (hr_tensor_num_elements(a->updates[0]) == 0) return NULL;
  int64_t xs[HR_MAX_RANK], is[HR_MAX_RANK], us[HR_MAX_RANK], box[HR_MAX_RANK];
  hr_data_strides(&a->inputs[0]->shape, xs);
  hr_data_strides(&a->indices->shape, is);
  hr_data_strides(&a->updates[0]->shape, us);
  for (int i = 0; i < s->n_window; i++) box[i] = a->updates[0]->shape.dims[s->update_window_dims[i]];
  hr_copy_plan base;
  hr_copy_plan_init(&base, s->n_window, box);
  for (int i = 0; i < s->n_window; i++) {
    base.src_stride[i] = us[s->update_window_dims[i]];
    base.dst_stride[i] = xs[s->window_input_dims[i]];
  }
  hr_shape scatter_shape = {.rank = s->n_scatter};
  for (int j = 0; j < s->n_scatter; j++)
    scatter_shape.dims[j] = a->updates[0]->shape.dims[s->update_scatter_dims[j]];
  int64_t si[HR_MAX_RANK] = {0}, start[HR_MAX_RANK];
  do {
    if (!window_start(s, a, si, is, start)) continue;
    hr_copy_plan p = base;
    for (int d = 0; d < a->inputs[0]->shape.rank; d++) p.dst_offset += start[d] * xs[d];
    for (int j = 0; j < s->n_scatter; j++) p.src_offset += si[j] * us[s->update_scatter_dims[j]];
    HR_TRY(apply_window(op, c, a, &p));
  } while (hr_next_index(&scatter_shape, si));
  return NULL;
}

/* stablehlo.scatter: copies the inputs, then applies every update that fits. */
hr_status hr_data_scatter(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                          hr_tensor **results) {
  scatter_args a = {0};
  scatter_spec s;
  HR_TRY(split_operands(op, operands, results, &a));
  HR_TRY(read_spec(op, &s));
  HR_TRY(check_dim_lists(op, &s, &a));
  HR_TRY(check_update_shape(op, &s, &a));
  for (int k = 0; k < a.n; k++)
    if (a.inputs[k]->data != a.results[k]->data) HR_TRY(hr_data_copy_all(op, a.inputs[k], a.results[k]));
  combiner c;
  HR_TRY(combiner_init(in, op, &a, &c));
  hr_status st = scatter_run(op, &s, &a, &c);
  combiner_release(in, &c);
  return st;
}

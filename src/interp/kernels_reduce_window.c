/* Windowed reductions: stablehlo.reduce_window and stablehlo.select_and_scatter.
 *
 * reduce_window follows the spec: the input is padded and base-dilated with the init value, and
 * every element of a window (padding included) is folded into the accumulator, which starts from
 * the init value, in row-major window order.
 *
 * select_and_scatter follows XLA: padding positions are never selected; within a window the first
 * in-bounds element is the initial choice and a later element replaces it when
 * select(current, candidate) is false; windows without in-bounds elements scatter nothing. */
#include <string.h>

#include "interp/reduce.h"

/* Most body evaluations one windowed op may take (a bound on run time for hostile attributes). */
#define HR_RED_MAX_WINDOW_STEPS (INT64_C(1) << 40)

/* The geometry of a window over an input of rank `rank`. */
typedef struct window_spec {
  int rank;
  int64_t dims[HR_MAX_RANK];
  int64_t strides[HR_MAX_RANK];
  int64_t base_dil[HR_MAX_RANK];
  int64_t win_dil[HR_MAX_RANK];
  int64_t pad_lo[HR_MAX_RANK];
  int64_t pad_hi[HR_MAX_RANK];
  int64_t dilated[HR_MAX_RANK]; /* input size after base dilation */
  hr_shape out;                 /* number of windows per dimension */
} window_spec;

/* Number of windows along dimension d (spec's num_windows), also setting the dilated input size;
 * false on overflow. */
static bool windows_along(window_spec *w, int d, int64_t in_size, int64_t *out) {
  int64_t dilated = 0, with_hi, padded, span;
  if (in_size > 0 && (!hr_red_mul(in_size - 1, w->base_dil[d], &dilated) || !hr_red_add(dilated, 1, &dilated)))
    return false;
  if (!hr_red_add(dilated, w->pad_hi[d], &with_hi) || !hr_red_add(with_hi, w->pad_lo[d], &padded)) return false;
  if (!hr_red_mul(w->dims[d] - 1, w->win_dil[d], &span) || !hr_red_add(span, 1, &span)) return false;
  w->dilated[d] = dilated;
  *out = (padded <= 0 || span > padded) ? 0 : (padded - span) / w->strides[d] + 1;
  return true;
}

/* Computes the number of windows per dimension of window `w` over an input of shape `in`. */
static hr_status count_windows(const hr_op *op, const hr_shape *in, window_spec *w) {
  w->out.rank = w->rank;
  for (int d = 0; d < w->rank; d++)
    if (!windows_along(w, d, in->dims[d], &w->out.dims[d]))
      return hr_op_error(op, HR_VERIFY_ERROR, "window attributes overflow along dimension %d", d);
  return NULL;
}

/* Reads the window attributes of `op` for an input of shape `in` and computes the window count. */
static hr_status read_window(const hr_op *op, const hr_shape *in, bool with_dilations, window_spec *w) {
  int r = in->rank;
  memset(w, 0, sizeof *w);
  w->rank = r;
  if (!hr_op_attr(op, "window_dimensions"))
    return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute 'window_dimensions'");
  HR_TRY(hr_red_read_dims_attr(op, "window_dimensions", r, 1, true, w->dims));
  HR_TRY(hr_red_read_dims_attr(op, "window_strides", r, 1, true, w->strides));
  for (int d = 0; d < r; d++) w->base_dil[d] = w->win_dil[d] = 1;
  if (with_dilations) {
    HR_TRY(hr_red_read_dims_attr(op, "base_dilations", r, 1, true, w->base_dil));
    HR_TRY(hr_red_read_dims_attr(op, "window_dilations", r, 1, true, w->win_dil));
  }
  HR_TRY(hr_red_read_padding(op, "padding", r, w->pad_lo, w->pad_hi));
  return count_windows(op, in, w);
}

/* The window `v` given as values, over an input of shape `in`. */
static hr_status window_of_values(const hr_op *op, const hr_shape *in, const hr_red_window *v, window_spec *w) {
  memset(w, 0, sizeof *w);
  w->rank = in->rank;
  for (int d = 0; d < in->rank; d++) {
    if (v->dims[d] <= 0 || v->strides[d] <= 0 || v->base_dil[d] <= 0 || v->win_dil[d] <= 0)
      return hr_op_error(op, HR_INVALID_ARGUMENT, "window sizes, strides and dilations must be positive (dimension %d)", d);
    w->dims[d] = v->dims[d];
    w->strides[d] = v->strides[d];
    w->base_dil[d] = v->base_dil[d];
    w->win_dil[d] = v->win_dil[d];
    w->pad_lo[d] = v->pad_lo[d];
    w->pad_hi[d] = v->pad_hi[d];
  }
  return count_windows(op, in, w);
}

/* Offset of the input element at window position `widx` of window `oidx`, or -1 for padding
 * (and base-dilation holes). */
static int64_t window_element(const window_spec *w, const int64_t *in_strides, const int64_t *oidx,
                              const int64_t *widx) {
  int64_t off = 0;
  for (int d = 0; d < w->rank; d++) {
    int64_t p = oidx[d] * w->strides[d] + widx[d] * w->win_dil[d] - w->pad_lo[d];
    if (p < 0 || p >= w->dilated[d] || p % w->base_dil[d] != 0) return -1;
    off += p / w->base_dil[d] * in_strides[d];
  }
  return off;
}

/* A view with the given dims and unit strides, used to walk multi-indices. */
static hr_red_view index_view(const hr_shape *s) {
  hr_red_view v = {.rank = s->rank};
  for (int d = 0; d < s->rank; d++) {
    v.dims[d] = s->dims[d];
    v.strides[d] = 0;
  }
  return v;
}

/* Checks reduce_window's inputs, init values and results against the window. */
static hr_status check_reduce_window(const hr_op *op, hr_tensor *const *operands, hr_tensor **results, int n,
                                     const window_spec *w, const hr_red_reducer *r) {
  char buf[64];
  for (int i = 0; i < n; i++) {
    if (!hr_red_tensor_is(operands[i], operands[i]->dtype, &operands[0]->shape))
      return hr_op_error(op, HR_VERIFY_ERROR, "input %d has a different shape than input 0", i);
    if (operands[n + i]->shape.rank != 0 || operands[n + i]->dtype != operands[i]->dtype)
      return hr_op_error(op, HR_VERIFY_ERROR, "init value %d must be a %s scalar", i,
                         hr_dtype_name(operands[i]->dtype));
    if (!hr_red_tensor_is(results[i], r->acc_types[i], &w->out))
      return hr_op_error(op, HR_VERIFY_ERROR, "result %d must be %s of shape %s", i,
                         hr_dtype_name(r->acc_types[i]), hr_red_shape_str(&w->out, buf, sizeof buf));
  }
  return NULL;
}

/* Folds every window into its result element. */
static hr_status run_reduce_window(hr_red_reducer *r, const window_spec *w, hr_tensor *const *operands,
                                   hr_tensor **results) {
  int n = r->n;
  hr_shape wshape = {.rank = w->rank};
  for (int d = 0; d < w->rank; d++) wshape.dims[d] = w->dims[d];
  hr_red_view out_view = index_view(&w->out), win_view = index_view(&wshape);
  int64_t out_count = hr_tensor_num_elements(results[0]), win_count = INT64_MAX, work = 0;
  if (!hr_red_view_count(&win_view, &win_count)) win_count = INT64_MAX;
  if (out_count > 0 && (!hr_red_mul(out_count, win_count, &work) || work > HR_RED_MAX_WINDOW_STEPS))
    return hr_op_error(r->region.op, HR_RESOURCE_EXHAUSTED, "%lld windows of %lld elements exceed the work limit",
                       (long long)out_count, (long long)win_count);
  int64_t in_strides[HR_MAX_RANK];
  hr_row_major_strides(&operands[0]->shape, in_strides);
  void *acc[HR_RED_MAX_VARIADIC];
  const void *x[HR_RED_MAX_VARIADIC];
  hr_red_walk o, k;
  hr_red_walk_init(&o, &out_view);
  for (int64_t e = 0; e < out_count; e++, hr_red_walk_next(&o)) {
    for (int i = 0; i < n; i++) {
      acc[i] = (unsigned char *)results[i]->data + (size_t)e * hr_dtype_size(r->acc_types[i]);
      hr_red_convert_scalar(operands[n + i]->dtype, operands[n + i]->data, r->acc_types[i], acc[i]);
    }
    hr_red_walk_init(&k, &win_view);
    for (int64_t t = 0; t < win_count; t++, hr_red_walk_next(&k)) {
      int64_t off = window_element(w, in_strides, o.idx, k.idx);
      for (int i = 0; i < n; i++)
        x[i] = off < 0 ? operands[n + i]->data
                       : (const unsigned char *)operands[i]->data + (size_t)off * hr_dtype_size(operands[i]->dtype);
      HR_TRY(hr_red_reducer_apply(r, acc, x));
    }
  }
  return NULL;
}

/* Checks reduce_window's operands against window `w` and reducer `r` (prepared for n inputs)
 * and folds every window; releases the reducer. */
static hr_status reduce_window_run(const hr_op *op, hr_tensor *const *operands, hr_tensor **results, int n,
                                   const window_spec *w, hr_red_reducer *r, hr_status s) {
  if (!s) s = check_reduce_window(op, operands, results, n, w, r);
  if (!s) s = run_reduce_window(r, w, operands, results);
  hr_red_reducer_release(r);
  return s;
}

/* The input element types of a reduce_window's n inputs. */
static void input_types_of(hr_tensor *const *operands, int n, hr_dtype *types) {
  for (int i = 0; i < n; i++) types[i] = operands[i]->dtype;
}

/* stablehlo.reduce_window: N inputs, N init values, body (acc..., x...) -> acc.... */
HR_RED_KERNEL(hr_red_kernel_reduce_window) {
  int n = op->n_operands / 2;
  if (op->n_operands % 2 != 0 || n < 1 || op->n_results != n)
    return hr_op_error(op, HR_VERIFY_ERROR, "expects N inputs, N init values and N results");
  if (n > HR_RED_MAX_VARIADIC) return hr_op_error(op, HR_UNIMPLEMENTED, "more than %d inputs", HR_RED_MAX_VARIADIC);
  window_spec w;
  HR_TRY(read_window(op, &operands[0]->shape, true, &w));
  hr_dtype input_types[HR_RED_MAX_VARIADIC];
  input_types_of(operands, n, input_types);
  hr_red_reducer r;
  hr_status s = hr_red_reducer_init(&r, in, op, 0, n, input_types);
  return reduce_window_run(op, operands, results, n, &w, &r, s);
}

hr_status hr_red_reduce_window_with(hr_interp *in, const hr_op *op, const hr_func *body, int n, const hr_red_window *v,
                                    hr_tensor *const *operands, hr_tensor **results) {
  if (n < 1 || n > HR_RED_MAX_VARIADIC)
    return hr_op_error(op, HR_UNIMPLEMENTED, "%d inputs (supported: 1 to %d)", n, HR_RED_MAX_VARIADIC);
  window_spec w;
  HR_TRY(window_of_values(op, &operands[0]->shape, v, &w));
  hr_dtype input_types[HR_RED_MAX_VARIADIC];
  input_types_of(operands, n, input_types);
  hr_red_reducer r;
  hr_status s = hr_red_reducer_init_func(&r, in, op, body, n, input_types);
  return reduce_window_run(op, operands, results, n, &w, &r, s);
}

/* The select_and_scatter state: the select body and the scatter reduction. */
typedef struct sas_state {
  hr_red_region select;
  hr_red_reducer scatter;
  const hr_tensor *operand;
  size_t elem_size;
} sas_state;

/* Evaluates select(current, candidate); *keep is true when the current choice stays. */
static hr_status sas_keep(sas_state *st, int64_t current, int64_t candidate, bool *keep) {
  unsigned char converted[2][16];
  const void *args[2];
  int64_t at[2] = {current, candidate};
  for (int i = 0; i < 2; i++) {
    args[i] = (const unsigned char *)st->operand->data + (size_t)at[i] * st->elem_size;
    if (st->select.arg_types[i] != st->operand->dtype) {
      hr_red_convert_scalar(st->operand->dtype, args[i], st->select.arg_types[i], converted[i]);
      args[i] = converted[i];
    }
  }
  unsigned char pred[16] = {0};
  void *res = pred;
  HR_TRY(hr_red_region_call(&st->select, args, &res));
  *keep = pred[0] != 0;
  return NULL;
}

/* Finds the selected element of window `sidx`; *sel is -1 when the window is all padding. */
static hr_status sas_select(sas_state *st, const window_spec *w, const int64_t *in_strides, const int64_t *sidx,
                            int64_t *sel) {
  hr_shape wshape = {.rank = w->rank};
  for (int d = 0; d < w->rank; d++) wshape.dims[d] = w->dims[d];
  hr_red_view win_view = index_view(&wshape);
  int64_t win_count;
  *sel = -1;
  if (!hr_red_view_count(&win_view, &win_count))
    return hr_op_error(st->select.op, HR_RESOURCE_EXHAUSTED, "window size overflows");
  hr_red_walk k;
  hr_red_walk_init(&k, &win_view);
  for (int64_t t = 0; t < win_count; t++, hr_red_walk_next(&k)) {
    int64_t off = window_element(w, in_strides, sidx, k.idx);
    if (off < 0) continue;
    bool keep = false;
    if (*sel >= 0) HR_TRY(sas_keep(st, *sel, off, &keep));
    if (!keep) *sel = off;
  }
  return NULL;
}

/* Scatters every source element into the result element its window selects. */
static hr_status run_select_and_scatter(sas_state *st, const window_spec *w, const hr_tensor *source,
                                        hr_tensor *result) {
  int64_t in_strides[HR_MAX_RANK], count = hr_tensor_num_elements(source);
  hr_row_major_strides(&st->operand->shape, in_strides);
  hr_red_view src_view = index_view(&source->shape);
  size_t src_size = hr_dtype_size(source->dtype), res_size = hr_dtype_size(result->dtype);
  hr_red_walk s;
  hr_red_walk_init(&s, &src_view);
  for (int64_t e = 0; e < count; e++, hr_red_walk_next(&s)) {
    int64_t sel = -1;
    HR_TRY(sas_select(st, w, in_strides, s.idx, &sel));
    if (sel < 0) continue;
    void *acc = (unsigned char *)result->data + (size_t)sel * res_size;
    const void *x = (const unsigned char *)source->data + (size_t)e * src_size;
    HR_TRY(hr_red_reducer_apply(&st->scatter, &acc, &x));
  }
  return NULL;
}

/* Checks select_and_scatter's operands and result, then fills the result with the init value. */
static hr_status prepare_select_and_scatter(const hr_op *op, hr_tensor *const *operands, hr_tensor *result,
                                            const window_spec *w, const sas_state *st) {
  char buf[64];
  const hr_tensor *operand = operands[0], *source = operands[1], *init = operands[2];
  if (!hr_red_tensor_is(source, source->dtype, &w->out))
    return hr_op_error(op, HR_VERIFY_ERROR, "source must have the window count shape %s",
                       hr_red_shape_str(&w->out, buf, sizeof buf));
  if (init->shape.rank != 0) return hr_op_error(op, HR_VERIFY_ERROR, "init value must be a scalar");
  if (!hr_red_tensor_is(result, st->scatter.acc_types[0], &operand->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "result must be %s with the operand's shape",
                       hr_dtype_name(st->scatter.acc_types[0]));
  if (st->select.result_types[0] != HR_I1) return hr_op_error(op, HR_VERIFY_ERROR, "select must return i1");
  int64_t win_count = 1, work;
  for (int d = 0; d < w->rank; d++)
    if (!hr_red_mul(win_count, w->dims[d], &win_count)) win_count = INT64_MAX;
  if (!hr_red_mul(hr_tensor_num_elements(source), win_count, &work) || work > HR_RED_MAX_WINDOW_STEPS)
    return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "%lld windows of %lld elements exceed the work limit",
                       (long long)hr_tensor_num_elements(source), (long long)win_count);
  int64_t count = hr_tensor_num_elements(result);
  size_t es = hr_dtype_size(result->dtype);
  for (int64_t e = 0; e < count; e++)
    hr_red_convert_scalar(init->dtype, init->data, result->dtype, (unsigned char *)result->data + (size_t)e * es);
  return NULL;
}

/* stablehlo.select_and_scatter(operand, source, init_value) with select and scatter regions. */
HR_RED_KERNEL(hr_red_kernel_select_and_scatter) {
  if (op->n_operands != 3 || op->n_results != 1)
    return hr_op_error(op, HR_VERIFY_ERROR, "expects operand, source, init_value and one result");
  window_spec w;
  HR_TRY(read_window(op, &operands[0]->shape, false, &w));
  sas_state st = {.operand = operands[0], .elem_size = hr_dtype_size(operands[0]->dtype)};
  hr_dtype source_type = operands[1]->dtype;
  hr_status s = hr_red_region_init(&st.select, in, op, 0, 2, 1);
  if (!s) s = hr_red_reducer_init(&st.scatter, in, op, 1, 1, &source_type);
  if (!s) s = prepare_select_and_scatter(op, operands, results[0], &w, &st);
  if (!s) s = run_select_and_scatter(&st, &w, operands[1], results[0]);
  hr_red_region_release(&st.select);
  hr_red_reducer_release(&st.scatter);
  return s;
}

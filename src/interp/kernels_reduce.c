/* The reduce kernel table, and the kernels of stablehlo.reduce and stablehlo.map.
 *
 * reduce visits, for each result element, the reduced dimensions in row-major (ascending
 * lexicographic) order and folds them into the accumulator starting from the init value:
 * acc = body(acc, x). This is the sequential order XLA's CPU emitter uses; 16-bit floats are
 * rounded after every step as XLA does. */
#include <string.h>

#include "interp/elementwise.h"
#include "interp/reduce.h"

/* The reduced and kept dimensions of a reduce, as views over the input elements. */
typedef struct reduce_plan {
  hr_red_view kept;    /* the result dimensions, with the input's strides */
  hr_red_view reduced; /* the reduced dimensions in ascending order, with the input's strides */
  hr_shape result;     /* expected result shape */
} reduce_plan;

/* Validates `dimensions` against the input shape and splits the input's dimensions. */
static hr_status plan_reduce(const hr_op *op, const hr_shape *in, reduce_plan *p) {
  int64_t dims[HR_MAX_RANK];
  int nd;
  HR_TRY(hr_op_attr_i64_list(op, "dimensions", dims, HR_MAX_RANK, &nd));
  bool is_reduced[HR_MAX_RANK] = {false};
  for (int i = 0; i < nd; i++) {
    if (dims[i] < 0 || dims[i] >= in->rank)
      return hr_op_error(op, HR_VERIFY_ERROR, "dimension %lld is out of range for rank %d", (long long)dims[i],
                         in->rank);
    if (is_reduced[dims[i]])
      return hr_op_error(op, HR_VERIFY_ERROR, "dimension %lld is listed twice", (long long)dims[i]);
    is_reduced[dims[i]] = true;
  }
  int64_t strides[HR_MAX_RANK];
  hr_row_major_strides(in, strides);
  memset(p, 0, sizeof *p);
  for (int d = 0; d < in->rank; d++) {
    hr_red_view *v = is_reduced[d] ? &p->reduced : &p->kept;
    v->dims[v->rank] = in->dims[d];
    v->strides[v->rank] = strides[d];
    v->rank++;
  }
  p->result.rank = p->kept.rank;
  for (int d = 0; d < p->kept.rank; d++) p->result.dims[d] = p->kept.dims[d];
  return NULL;
}

/* Checks reduce's operands (n inputs of one shape, n scalar inits) and results. */
static hr_status check_reduce_operands(const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                                       int n, const reduce_plan *p, const hr_red_reducer *r) {
  char buf[64], want[64];
  for (int i = 0; i < n; i++) {
    if (!hr_red_tensor_is(operands[i], operands[i]->dtype, &operands[0]->shape))
      return hr_op_error(op, HR_VERIFY_ERROR, "input %d has shape %s, expected %s", i,
                         hr_red_shape_str(&operands[i]->shape, buf, sizeof buf),
                         hr_red_shape_str(&operands[0]->shape, want, sizeof want));
    if (operands[n + i]->shape.rank != 0)
      return hr_op_error(op, HR_VERIFY_ERROR, "init value %d is not a scalar", i);
    if (!hr_red_tensor_is(results[i], r->acc_types[i], &p->result))
      return hr_op_error(op, HR_VERIFY_ERROR, "result %d must be %s of shape %s", i,
                         hr_dtype_name(r->acc_types[i]), hr_red_shape_str(&p->result, buf, sizeof buf));
  }
  return NULL;
}

/* Folds every input slice into the results, one result element at a time. */
static hr_status run_reduce(hr_red_reducer *r, const reduce_plan *p, hr_tensor *const *operands,
                            hr_tensor **results) {
  int n = r->n;
  int64_t out_count, red_count;
  if (!hr_red_view_count(&p->kept, &out_count) || !hr_red_view_count(&p->reduced, &red_count))
    return hr_op_error(r->region.op, HR_RESOURCE_EXHAUSTED, "element count overflows");
  size_t in_size[HR_RED_MAX_VARIADIC], acc_size[HR_RED_MAX_VARIADIC];
  for (int i = 0; i < n; i++) {
    in_size[i] = hr_dtype_size(operands[i]->dtype);
    acc_size[i] = hr_dtype_size(r->acc_types[i]);
  }
  void *acc[HR_RED_MAX_VARIADIC];
  const void *x[HR_RED_MAX_VARIADIC];
  hr_red_walk kept, red;
  hr_red_walk_init(&kept, &p->kept);
  for (int64_t o = 0; o < out_count; o++, hr_red_walk_next(&kept)) {
    for (int i = 0; i < n; i++) {
      acc[i] = (unsigned char *)results[i]->data + (size_t)o * acc_size[i];
      hr_red_convert_scalar(operands[n + i]->dtype, operands[n + i]->data, r->acc_types[i], acc[i]);
    }
    hr_red_walk_init(&red, &p->reduced);
    for (int64_t t = 0; t < red_count; t++, hr_red_walk_next(&red)) {
      int64_t at = kept.offset + red.offset;
      for (int i = 0; i < n; i++) x[i] = (const unsigned char *)operands[i]->data + (size_t)at * in_size[i];
      HR_TRY(hr_red_reducer_apply(r, acc, x));
    }
  }
  return NULL;
}

/* stablehlo.reduce: N inputs, N init values, body (acc..., x...) -> acc.... */
static hr_status kernel_reduce(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  int n = op->n_operands / 2;
  if (op->n_operands % 2 != 0 || n < 1 || op->n_results != n)
    return hr_op_error(op, HR_VERIFY_ERROR, "expects N inputs, N init values and N results");
  if (n > HR_RED_MAX_VARIADIC)
    return hr_op_error(op, HR_UNIMPLEMENTED, "more than %d inputs", HR_RED_MAX_VARIADIC);
  reduce_plan plan;
  HR_TRY(plan_reduce(op, &operands[0]->shape, &plan));
  hr_dtype input_types[HR_RED_MAX_VARIADIC];
  for (int i = 0; i < n; i++) input_types[i] = operands[i]->dtype;
  hr_red_reducer r;
  hr_status s = hr_red_reducer_init(&r, in, op, 0, n, input_types);
  if (!s) s = check_reduce_operands(op, operands, results, n, &plan, &r);
  if (!s) s = run_reduce(&r, &plan, operands, results);
  hr_red_reducer_release(&r);
  return s;
}

/* Checks map's operands, dimensions attribute and result against each other. */
static hr_status check_map(const hr_op *op, hr_tensor *const *operands, const hr_tensor *result,
                           const hr_red_region *body) {
  char buf[64], want[64];
  int64_t dims[HR_MAX_RANK];
  int nd;
  HR_TRY(hr_op_attr_i64_list_opt(op, "dimensions", dims, HR_MAX_RANK, &nd));
  if (hr_op_attr(op, "dimensions")) {
    bool identity = nd == result->shape.rank;
    for (int i = 0; identity && i < nd; i++) identity = dims[i] == i;
    if (!identity) return hr_op_error(op, HR_UNIMPLEMENTED, "dimensions must list every dimension in order");
  }
  for (int i = 0; i < op->n_operands; i++)
    if (!hr_red_tensor_is(operands[i], operands[i]->dtype, &result->shape))
      return hr_op_error(op, HR_VERIFY_ERROR, "input %d has shape %s, expected %s", i,
                         hr_red_shape_str(&operands[i]->shape, buf, sizeof buf),
                         hr_red_shape_str(&result->shape, want, sizeof want));
  if (body->result_types[0] != result->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "body returns %s but the result is %s",
                       hr_dtype_name(body->result_types[0]), hr_dtype_name(result->dtype));
  return NULL;
}

/* Applies the body to every element position, converting inputs to the body's argument types. */
static hr_status run_map(hr_red_region *body, hr_tensor *const *operands, int n, hr_tensor *result) {
  int64_t count = hr_tensor_num_elements(result);
  size_t out_size = hr_dtype_size(result->dtype);
  hr_opcode code;
  const hr_op *fop;
  bool fast = n == 2 && hr_red_fast_binary_body(body->block, &code, &fop) && operands[0]->dtype == result->dtype &&
              operands[1]->dtype == result->dtype;
  unsigned char converted[HR_RED_MAX_VARIADIC][16];
  const void *args[HR_RED_MAX_VARIADIC];
  for (int64_t e = 0; e < count; e++) {
    void *out = (unsigned char *)result->data + (size_t)e * out_size;
    for (int i = 0; i < n; i++) {
      args[i] = (const unsigned char *)operands[i]->data + (size_t)e * hr_dtype_size(operands[i]->dtype);
      if (operands[i]->dtype != body->arg_types[i]) {
        hr_red_convert_scalar(operands[i]->dtype, args[i], body->arg_types[i], converted[i]);
        args[i] = converted[i];
      }
    }
    if (fast)
      HR_TRY(hr_elementwise_binary_scalar(fop, code, result->dtype, args[0], args[1], out));
    else
      HR_TRY(hr_red_region_call(body, args, &out));
  }
  return NULL;
}

/* stablehlo.map: applies the body to the elements at each position of its inputs. */
static hr_status kernel_map(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  int n = op->n_operands;
  if (n < 1 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects inputs and one result");
  if (n > HR_RED_MAX_VARIADIC) return hr_op_error(op, HR_UNIMPLEMENTED, "more than %d inputs", HR_RED_MAX_VARIADIC);
  hr_red_region body;
  hr_status s = hr_red_region_init(&body, in, op, 0, n, 1);
  if (!s) s = check_map(op, operands, results[0], &body);
  if (!s) s = run_map(&body, operands, n, results[0]);
  hr_red_region_release(&body);
  return s;
}

const hr_kernel hr_kernels_reduce[] = {
    {HR_OP_REDUCE, kernel_reduce},
    {HR_OP_MAP, kernel_map},
    {HR_OP_REDUCE_WINDOW, hr_red_kernel_reduce_window},
    {HR_OP_SELECT_AND_SCATTER, hr_red_kernel_select_and_scatter},
    {HR_OP_DOT_GENERAL, hr_red_kernel_dot_general},
    {HR_OP_DOT, hr_red_kernel_dot},
    {HR_OP_EINSUM, hr_red_kernel_einsum},
    {HR_OP_UNARY_EINSUM, hr_red_kernel_unary_einsum},
    {HR_OP_CONVOLUTION, hr_red_kernel_convolution},
    {HR_OP_DYNAMIC_CONV, hr_red_kernel_dynamic_conv},
    {HR_OP_FFT, hr_red_kernel_fft},
    {HR_OP_TRIANGULAR_SOLVE, hr_red_kernel_triangular_solve},
    {HR_OP_CHOLESKY, hr_red_kernel_cholesky},
    {HR_OP_RNG_BIT_GENERATOR, hr_red_kernel_rng_bit_generator},
    {HR_OP_BATCH_NORM_INFERENCE, hr_red_kernel_batch_norm_inference},
    {HR_OP_BATCH_NORM_TRAINING, hr_red_kernel_batch_norm_training},
    {HR_OP_BATCH_NORM_GRAD, hr_red_kernel_batch_norm_grad},
    {HR_OP_ALL_REDUCE, hr_red_kernel_collective},
    {HR_OP_ALL_GATHER, hr_red_kernel_collective},
    {HR_OP_REDUCE_SCATTER, hr_red_kernel_collective},
    {HR_OP_ALL_TO_ALL, hr_red_kernel_collective},
    {HR_OP_COLLECTIVE_BROADCAST, hr_red_kernel_collective},
    {HR_OP_CROSS_REPLICA_SUM, hr_red_kernel_collective},
    {HR_OP_COLLECTIVE_REDUCE, hr_red_kernel_collective},
    {HR_OP_COLLECTIVE_PERMUTE, hr_red_kernel_collective_permute},
    {HR_OP_REPLICA_ID, hr_red_kernel_process_id},
    {HR_OP_PARTITION_ID, hr_red_kernel_process_id},
    {HR_OP_INFEED, hr_red_kernel_infeed},
    {HR_OP_OUTFEED, hr_red_kernel_outfeed},
    {HR_OP_SEND, hr_red_kernel_send},
    {HR_OP_RECV, hr_red_kernel_recv},
    {HR_OP_COUNT, NULL},
};

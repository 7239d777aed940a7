/* Quantized tensors (`!quant.uniform`, spec.md "Quantization"): uniform_quantize and
 * uniform_dequantize, and every other op meeting a quantized value run as the spec's
 * dequantize_op_quantize: quantized operands dequantized to their expressed type, the op's own
 * kernel run on those, quantized results quantized back (hr_interp_kernel_for). A quantized tensor
 * holds its stored integers in its storage type; its quantization lives in the op's types. */
#include <math.h>

#include "base/elem.h"
#include "interp/interp.h"
#include "ir/infer.h"

/* The most operands and results an op run on values has (batch_norm_grad: 5 and 3). */
#define MAX_VALUE_OPERANDS 8

/* Rounds v to the expressed type e, as the spec's arithmetic in that type does. */
static double in_expressed(hr_dtype e, double v) {
  switch (e) {
    case HR_F32: return (float)v;
    case HR_F16: return hr_f16_to_f64(hr_f64_to_f16(v));
    case HR_BF16: return hr_bf16_to_f64(hr_f64_to_bf16(v));
    default: return v;
  }
}

/* Where an element finds its scale and zero point: index (i / inner) % dim along the quantized
 * dimension, or 0 per tensor. */
typedef struct quant_walk {
  const hr_quant *q;
  int64_t inner, dim;
} quant_walk;

/* The walk of a tensor of shape `shape` quantized by q; an error when a per-axis type's scales do
 * not match the run-time size of its quantized dimension. */
static hr_status walk_of(const hr_op *op, const hr_quant *q, const hr_shape *shape, quant_walk *w) {
  w->q = q;
  w->inner = 1;
  w->dim = 1;
  if (q->axis < 0) return NULL;
  if (q->axis >= shape->rank || shape->dims[q->axis] != q->n)
    return hr_op_error(op, HR_INVALID_ARGUMENT, "a per-axis quantized value with %d scales along a dimension of size %lld",
                       (int)q->n, q->axis < shape->rank ? (long long)shape->dims[q->axis] : -1LL);
  for (int d = q->axis + 1; d < shape->rank; d++) w->inner *= shape->dims[d];
  w->dim = q->n;
  return NULL;
}

/* The index of element i's scale and zero point. */
static int64_t param_index(const quant_walk *w, int64_t i) { return w->q->axis < 0 ? 0 : (i / w->inner) % w->dim; }

/* The value stored integer v stands for: (v - zero_point) * scale in the expressed type (the
 * difference taken exactly, as the spec's lowering to 32-bit integers does). */
static double dequantize_one(const quant_walk *w, int64_t i, int64_t v) {
  int64_t k = param_index(w, i);
  hr_dtype e = w->q->expressed;
  double diff = (double)(int64_t)((uint64_t)v - (uint64_t)w->q->zero_points[k]);
  return in_expressed(e, in_expressed(e, diff) * in_expressed(e, w->q->scales[k]));
}

/* The stored integer for x: x / scale + zero_point in the expressed type, clamped to
 * [storage_min, storage_max], rounded to nearest even (spec's quantize). NaN, which no integer
 * stands for, gives the zero point. */
static int64_t quantize_one(const quant_walk *w, int64_t i, double x) {
  int64_t k = param_index(w, i);
  const hr_quant *q = w->q;
  hr_dtype e = q->expressed;
  double v = in_expressed(e, in_expressed(e, x / in_expressed(e, q->scales[k])) + in_expressed(e, (double)q->zero_points[k]));
  if (isnan(v)) return q->zero_points[k];
  double lo = in_expressed(e, (double)q->storage_min), hi = in_expressed(e, (double)q->storage_max);
  v = nearbyint(v < lo ? lo : v > hi ? hi : v);
  /* The clamp in the expressed type may round a bound outward (2^31 - 1 in f32): clamp exactly. */
  if (v <= (double)q->storage_min) return q->storage_min;
  if (v >= (double)q->storage_max) return q->storage_max;
  return (int64_t)v;
}

/* Fills float tensor `out` with the values quantized tensor `t` (quantized by q) stands for. */
static hr_status dequantize_into(const hr_op *op, const hr_quant *q, const hr_tensor *t, hr_tensor *out) {
  quant_walk w;
  HR_TRY(walk_of(op, q, &t->shape, &w));
  int64_t n = hr_tensor_num_elements(t);
  for (int64_t i = 0; i < n; i++) hr_store_float(out->dtype, out->data, i, dequantize_one(&w, i, hr_load_int(t->dtype, t->data, i)));
  return NULL;
}

/* Fills quantized tensor `out` (quantized by q) with the stored integers for float tensor `x`. */
static hr_status quantize_into(const hr_op *op, const hr_quant *q, const hr_tensor *x, hr_tensor *out) {
  quant_walk w;
  HR_TRY(walk_of(op, q, &out->shape, &w));
  int64_t n = hr_tensor_num_elements(out);
  for (int64_t i = 0; i < n; i++) hr_store_int(out->dtype, out->data, i, quantize_one(&w, i, hr_load_float(x->dtype, x->data, i)));
  return NULL;
}

/* The float tensor of expressed type e holding the values of operand `t` quantized by q. */
static hr_status dequantized(hr_interp *in, const hr_op *op, const hr_quant *q, const hr_tensor *t, hr_tensor **out) {
  HR_TRY(hr_interp_alloc(in, op, q->expressed, &t->shape, out));
  hr_status s = dequantize_into(op, q, t, *out);
  if (s) {
    hr_tensor_free(*out);
    *out = NULL;
  }
  return s;
}

/* uniform_quantize: a float operand quantized, or a quantized one requantized (its values
 * quantized by the result's type). */
static hr_status k_uniform_quantize(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_quant *from = op->operands[0]->type.quant;
  if (!from) return quantize_into(op, op->results[0].type.quant, operands[0], results[0]);
  hr_tensor *values;
  HR_TRY(dequantized(in, op, from, operands[0], &values));
  hr_status s = quantize_into(op, op->results[0].type.quant, values, results[0]);
  hr_tensor_free(values);
  return s;
}

/* uniform_dequantize: the values a quantized operand stands for. */
static hr_status k_uniform_dequantize(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  (void)in;
  return dequantize_into(op, op->operands[0]->type.quant, operands[0], results[0]);
}

/* Frees the tensors of `made` that replaced those of `given` (the others are borrowed). */
static void free_replaced(hr_tensor **made, hr_tensor *const *given, int n) {
  for (int i = 0; i < n; i++)
    if (made[i] && made[i] != given[i]) hr_tensor_free(made[i]);
}

/* An op computing on values (HR_QUANT_VALUES): its kernel run on the dequantized operands, into
 * float results of the quantized results' expressed types, which are then quantized. */
static hr_status run_on_values(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (op->n_operands > MAX_VALUE_OPERANDS || op->n_results > MAX_VALUE_OPERANDS)
    return hr_op_error(op, HR_UNIMPLEMENTED, "quantized values of an op with more than %d operands or results",
                       MAX_VALUE_OPERANDS);
  hr_tensor *vin[MAX_VALUE_OPERANDS] = {0}, *vout[MAX_VALUE_OPERANDS] = {0};
  hr_status s = NULL;
  for (int i = 0; !s && i < op->n_operands; i++) {
    const hr_quant *q = op->operands[i]->type.quant;
    if (q) s = dequantized(in, op, q, operands[i], &vin[i]);
    else vin[i] = operands[i];
  }
  for (int r = 0; !s && r < op->n_results; r++) {
    const hr_quant *q = op->results[r].type.quant;
    if (q) s = hr_interp_alloc(in, op, q->expressed, &results[r]->shape, &vout[r]);
    else vout[r] = results[r];
  }
  if (!s) s = in->kernels[op->code](in, op, vin, vout);
  for (int r = 0; !s && r < op->n_results; r++)
    if (op->results[r].type.quant) s = quantize_into(op, op->results[r].type.quant, vout[r], results[r]);
  free_replaced(vin, operands, op->n_operands);
  free_replaced(vout, results, op->n_results);
  return s;
}

hr_kernel_fn hr_interp_kernel_for(const hr_interp *in, const hr_op *op) {
  hr_kernel_fn kernel = in->kernels[op->code];
  return kernel && hr_quant_op_role(op) == HR_QUANT_VALUES ? run_on_values : kernel;
}

const hr_kernel hr_kernels_quant[] = {
    {HR_OP_UNIFORM_QUANTIZE, k_uniform_quantize},
    {HR_OP_UNIFORM_DEQUANTIZE, k_uniform_dequantize},
    {HR_OP_COUNT, NULL},
};

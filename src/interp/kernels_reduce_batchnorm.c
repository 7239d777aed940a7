/* stablehlo.batch_norm_inference, batch_norm_training and batch_norm_grad.
 *
 * The spec's decompositions are evaluated in double per feature and rounded to the element type
 * once; epsilon is first rounded to the element type as the spec's constant() does. Statistics
 * (mean, biased variance) use two passes for accuracy. */
#include <math.h>
#include <string.h>

#include "interp/reduce.h"

/* Where the feature dimension lies and how many elements each feature has. */
typedef struct bn_geom {
  hr_dtype dtype;
  int64_t features;    /* size of the feature dimension */
  int64_t inner;       /* product of the dimensions after it */
  int64_t count;       /* elements of the operand */
  double per_feature;  /* count / features */
  double epsilon;      /* rounded to dtype */
} bn_geom;

/* Feature of operand element i. */
static int64_t feature_of(const bn_geom *g, int64_t i) { return i / g->inner % g->features; }

/* Reads feature_index and epsilon for an operand, and checks the operand type. */
static hr_status read_geom(const hr_op *op, const hr_tensor *x, bn_geom *g) {
  if (!hr_dtype_is_real_float(x->dtype)) return hr_op_error(op, HR_VERIFY_ERROR, "operand must be a float tensor");
  int64_t fi;
  HR_TRY(hr_op_attr_i64(op, "feature_index", &fi));
  if (fi < 0 || fi >= x->shape.rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "feature_index %lld is out of range", (long long)fi);
  const hr_attr *eps = hr_op_attr(op, "epsilon");
  if (!eps || eps->kind != HR_ATTR_FLOAT) return hr_op_error(op, HR_VERIFY_ERROR, "missing float attribute 'epsilon'");
  g->dtype = x->dtype;
  g->features = x->shape.dims[fi];
  g->inner = 1;
  for (int d = (int)fi + 1; d < x->shape.rank; d++)
    if (!hr_red_mul(g->inner, x->shape.dims[d], &g->inner))
      return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "operand size overflows");
  g->count = hr_tensor_num_elements(x);
  g->per_feature = g->features ? (double)g->count / (double)g->features : 0.0;
  unsigned char tmp[8];
  hr_store_float(x->dtype, tmp, 0, eps->u.f.value);
  g->epsilon = hr_load_float(x->dtype, tmp, 0);
  return NULL;
}

/* Checks that each listed tensor is a vector of `features` elements of the operand type. */
static hr_status check_vectors(const hr_op *op, const bn_geom *g, hr_tensor *const *ts, int n, const char *what) {
  hr_shape s = {.rank = 1, .dims = {g->features}};
  for (int i = 0; i < n; i++)
    if (!hr_red_tensor_is(ts[i], g->dtype, &s))
      return hr_op_error(op, HR_VERIFY_ERROR, "%s %d must be a %s vector of %lld elements", what, i,
                         hr_dtype_name(g->dtype), (long long)g->features);
  return NULL;
}

/* Writes scale * (x - mean) / sqrt(var + eps) + offset for every element. */
static void normalize(const bn_geom *g, const hr_tensor *x, const hr_tensor *scale, const hr_tensor *offset,
                      const double *mean, const double *var, hr_tensor *out) {
  for (int64_t i = 0; i < g->count; i++) {
    int64_t f = feature_of(g, i);
    double v = (hr_load_float(g->dtype, x->data, i) - mean[f]) / sqrt(var[f] + g->epsilon);
    hr_store_float(g->dtype, out->data, i,
                   hr_load_float(g->dtype, scale->data, f) * v + hr_load_float(g->dtype, offset->data, f));
  }
}

/* Allocates `n` zeroed doubles per feature. */
static hr_status feature_scratch(hr_interp *in, const hr_op *op, const bn_geom *g, int n, hr_tensor **out) {
  return hr_red_scratch(in, op, HR_RED_ACC_F64, g->features * n, out);
}

/* batch_norm_inference(operand, scale, offset, mean, variance). */
HR_RED_KERNEL(hr_red_kernel_batch_norm_inference) {
  if (op->n_operands != 5 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects 5 operands");
  bn_geom g;
  HR_TRY(read_geom(op, operands[0], &g));
  HR_TRY(check_vectors(op, &g, operands + 1, 4, "operand"));
  if (!hr_red_tensor_is(results[0], g.dtype, &operands[0]->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "result must have the operand's type");
  hr_tensor *stats;
  HR_TRY(feature_scratch(in, op, &g, 2, &stats));
  double *mean = stats->data, *var = mean + g.features;
  for (int64_t f = 0; f < g.features; f++) {
    mean[f] = hr_load_float(g.dtype, operands[3]->data, f);
    var[f] = hr_load_float(g.dtype, operands[4]->data, f);
  }
  normalize(&g, operands[0], operands[1], operands[2], mean, var, results[0]);
  hr_tensor_free(stats);
  return NULL;
}

/* Computes per-feature mean and biased variance of x. */
static void moments(const bn_geom *g, const hr_tensor *x, double *mean, double *var) {
  for (int64_t i = 0; i < g->count; i++) mean[feature_of(g, i)] += hr_load_float(g->dtype, x->data, i);
  for (int64_t f = 0; f < g->features; f++) mean[f] /= g->per_feature;
  for (int64_t i = 0; i < g->count; i++) {
    double c = hr_load_float(g->dtype, x->data, i) - mean[feature_of(g, i)];
    var[feature_of(g, i)] += c * c;
  }
  for (int64_t f = 0; f < g->features; f++) var[f] /= g->per_feature;
}

/* batch_norm_training(operand, scale, offset) -> (output, batch_mean, batch_var). */
HR_RED_KERNEL(hr_red_kernel_batch_norm_training) {
  if (op->n_operands != 3 || op->n_results != 3) return hr_op_error(op, HR_VERIFY_ERROR, "expects 3 operands and 3 results");
  bn_geom g;
  HR_TRY(read_geom(op, operands[0], &g));
  HR_TRY(check_vectors(op, &g, operands + 1, 2, "operand"));
  HR_TRY(check_vectors(op, &g, results + 1, 2, "result"));
  if (!hr_red_tensor_is(results[0], g.dtype, &operands[0]->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "output must have the operand's type");
  hr_tensor *stats;
  HR_TRY(feature_scratch(in, op, &g, 2, &stats));
  double *mean = stats->data, *var = mean + g.features;
  moments(&g, operands[0], mean, var);
  normalize(&g, operands[0], operands[1], operands[2], mean, var, results[0]);
  for (int64_t f = 0; f < g.features; f++) {
    hr_store_float(g.dtype, results[1]->data, f, mean[f]);
    hr_store_float(g.dtype, results[2]->data, f, var[f]);
  }
  hr_tensor_free(stats);
  return NULL;
}

/* batch_norm_grad(operand, scale, mean, variance, grad_output)
 *   -> (grad_operand, grad_scale, grad_offset). */
HR_RED_KERNEL(hr_red_kernel_batch_norm_grad) {
  if (op->n_operands != 5 || op->n_results != 3) return hr_op_error(op, HR_VERIFY_ERROR, "expects 5 operands and 3 results");
  const hr_tensor *x = operands[0], *dy = operands[4];
  bn_geom g;
  HR_TRY(read_geom(op, x, &g));
  HR_TRY(check_vectors(op, &g, operands + 1, 3, "operand"));
  HR_TRY(check_vectors(op, &g, results + 1, 2, "result"));
  if (!hr_red_tensor_is(dy, g.dtype, &x->shape) || !hr_red_tensor_is(results[0], g.dtype, &x->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "grad_output and grad_operand must have the operand's type");
  hr_tensor *stats;
  HR_TRY(feature_scratch(in, op, &g, 2, &stats));
  double *sum_dy = stats->data, *sum_dyc = sum_dy + g.features;
  const void *mean = operands[2]->data, *var = operands[3]->data;
  for (int64_t i = 0; i < g.count; i++) {
    int64_t f = feature_of(&g, i);
    double d = hr_load_float(g.dtype, dy->data, i);
    sum_dy[f] += d;
    sum_dyc[f] += d * (hr_load_float(g.dtype, x->data, i) - hr_load_float(g.dtype, mean, f));
  }
  for (int64_t i = 0; i < g.count; i++) {
    int64_t f = feature_of(&g, i);
    double ve = hr_load_float(g.dtype, var, f) + g.epsilon, sd = sqrt(ve);
    double c = hr_load_float(g.dtype, x->data, i) - hr_load_float(g.dtype, mean, f);
    double t = hr_load_float(g.dtype, dy->data, i) * g.per_feature - sum_dy[f] - c * sum_dyc[f] / ve;
    hr_store_float(g.dtype, results[0]->data, i, hr_load_float(g.dtype, operands[1]->data, f) / sd / g.per_feature * t);
  }
  for (int64_t f = 0; f < g.features; f++) {
    double sd = sqrt(hr_load_float(g.dtype, var, f) + g.epsilon);
    hr_store_float(g.dtype, results[1]->data, f, sum_dyc[f] / sd);
    hr_store_float(g.dtype, results[2]->data, f, sum_dy[f]);
  }
  hr_tensor_free(stats);
  return NULL;
}

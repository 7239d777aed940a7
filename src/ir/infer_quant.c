/* Verification of ops over quantized tensors (`!quant.uniform`, spec.md "Quantization"): which ops
 * move stored integers and which compute on the values they stand for (hr_quant_op_role), the
 * well-formedness of a quantized type, and the rules of uniform_quantize, uniform_dequantize and of
 * every other op meeting a quantized operand or result (hri_infer_quantized). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir/infer_internal.h"

/* Whether `t` is a tensor of quantized elements. */
static bool is_quantized(const hr_type *t) { return t->kind == HR_TYPE_TENSOR && t->quant; }

/* Whether `t` is a tensor quantized along an axis. */
static bool is_per_axis(const hr_type *t) { return is_quantized(t) && t->quant->axis >= 0; }

bool hri_uses_quant(const hr_op *op, const hr_type *operand_types) {
  for (int i = 0; i < op->n_operands; i++)
    if (is_quantized(&operand_types[i])) return true;
  for (int i = 0; i < op->n_results; i++)
    if (is_quantized(&op->results[i].type)) return true;
  return false;
}

/* Ops whose results hold some of their operands' elements unchanged (reshapes, slices, gathers,
 * ...): over one per-tensor quantized type they move stored integers. */
static bool moves_elements(hr_opcode code) {
  switch (code) {
    case HR_OP_BROADCAST:
    case HR_OP_BROADCAST_IN_DIM:
    case HR_OP_DYNAMIC_BROADCAST_IN_DIM:
    case HR_OP_RESHAPE:
    case HR_OP_DYNAMIC_RESHAPE:
    case HR_OP_TRANSPOSE:
    case HR_OP_SLICE:
    case HR_OP_DYNAMIC_SLICE:
    case HR_OP_REAL_DYNAMIC_SLICE:
    case HR_OP_DYNAMIC_UPDATE_SLICE:
    case HR_OP_CONCATENATE:
    case HR_OP_PAD:
    case HR_OP_DYNAMIC_PAD:
    case HR_OP_REVERSE:
    case HR_OP_GATHER:
    case HR_OP_DYNAMIC_GATHER:
    case HR_OP_TORCH_INDEX_SELECT: return true;
    default: return false;
  }
}

/* Ops that compute on the values quantized elements stand for (spec's dequantize_op_quantize,
 * dequantize_compare, dequantize_select_quantize and the hybrid dot products). */
static bool computes_on_values(hr_opcode code) {
  switch (code) {
    case HR_OP_BITCAST_CONVERT: return false;
    case HR_OP_COMPARE:
    case HR_OP_SELECT:
    case HR_OP_CLAMP:
    case HR_OP_DOT:
    case HR_OP_DOT_GENERAL:
    case HR_OP_CONVOLUTION:
    case HR_OP_DYNAMIC_CONV:
    case HR_OP_BATCH_NORM_GRAD:
    case HR_OP_BATCH_NORM_INFERENCE:
    case HR_OP_BATCH_NORM_TRAINING:
    case HR_OP_CHOLESKY:
    case HR_OP_TRIANGULAR_SOLVE:
    case HR_OP_REDUCE_PRECISION: return true;
    default: return (hr_opcode_flags(code) & (HR_OPF_UNARY | HR_OPF_BINARY)) != 0;
  }
}

/* Whether some operand or result of `op` is quantized along an axis. */
static bool any_per_axis(const hr_op *op) {
  for (int i = 0; i < op->n_operands; i++)
    if (is_per_axis(&op->operands[i]->type)) return true;
  for (int i = 0; i < op->n_results; i++)
    if (is_per_axis(&op->results[i].type)) return true;
  return false;
}

hr_quant_role hr_quant_op_role(const hr_op *op) {
  bool uses = false;
  for (int i = 0; !uses && i < op->n_operands; i++) uses = is_quantized(&op->operands[i]->type);
  for (int i = 0; !uses && i < op->n_results; i++) uses = is_quantized(&op->results[i].type);
  if (!uses) return HR_QUANT_NONE;
  if (op->code == HR_OP_UNIFORM_QUANTIZE || op->code == HR_OP_UNIFORM_DEQUANTIZE) return HR_QUANT_OWN;
  /* A per-axis type ties each element to the scale of its index along one axis: moving an element
   * to another index may change the scale it is read with, so those moves go through values. */
  if (moves_elements(op->code)) return any_per_axis(op) ? HR_QUANT_VALUES : HR_QUANT_STORED;
  return computes_on_values(op->code) ? HR_QUANT_VALUES : HR_QUANT_STORED;
}

/* ---------------------------------------------------------------------------------------------- */
/* Quantized types                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

const char *hri_quant_problem(const hr_type *t) {
  const hr_quant *q = t->quant;
  if (!q) return NULL;
  if (q->n < 1 || !q->scales || !q->zero_points) return "malformed quantized type";
  if (!hri_is_int(q->storage)) return "quantized type with a storage type that is not an integer";
  if (q->storage != t->dtype) return "quantized type whose storage type is not the tensor's element type";
  if (!hr_dtype_is_float(q->expressed)) return "quantized type with an expressed type that is not a float";
  int64_t lo, hi;
  hr_dtype_int_range(q->storage, &lo, &hi);
  if (q->storage_min < lo || q->storage_max > hi || q->storage_min >= q->storage_max)
    return "quantized type whose storage_min is not below its storage_max within the storage type";
  if (q->axis < 0 && q->n != 1) return "per-tensor quantized type with more than one scale";
  if (q->axis >= 0 && (q->axis >= t->shape.rank ||
                       (t->shape.dims[q->axis] != HR_DYNAMIC && t->shape.dims[q->axis] != q->n)))
    return "per-axis quantized type whose scales do not match its quantized dimension";
  for (int32_t i = 0; i < q->n; i++) {
    if (!(q->scales[i] > 0) || !isfinite(q->scales[i])) return "quantized type with a scale that is not positive and finite";
    if (q->zero_points[i] < q->storage_min || q->zero_points[i] > q->storage_max)
      return "quantized type with a zero point outside [storage_min, storage_max]";
  }
  return NULL;
}

/* The same quantization but for the quantized dimension (spec: element types that "may differ only
 * in quantization_dimension"). */
static bool same_but_axis(const hr_quant *a, const hr_quant *b) {
  hr_quant b_on_a = *b;
  b_on_a.axis = a->axis < 0 || b->axis < 0 ? b->axis : a->axis;
  return hr_quant_equal(a, &b_on_a);
}

/* The float tensor type the elements of a quantized tensor type stand for. */
static hr_type expressed_tensor(const hr_type *t) {
  hr_type e = *t;
  if (!is_quantized(t)) return e;
  e.dtype = t->quant->expressed;
  e.quant = NULL;
  return e;
}

/* The name of a value in messages: operand #i (i >= 0) or the result (i < 0). */
static const char *which(int i, char *buf, size_t cap) {
  if (i < 0) return "the result";
  snprintf(buf, cap, "operand #%d", i);
  return buf;
}

/* ---------------------------------------------------------------------------------------------- */
/* uniform_quantize, uniform_dequantize                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* uniform_quantize (C1, C2): a float or quantized operand, a quantized result of its shape whose
 * expressed type is the operand's float type; a requantization keeps the quantized dimension. */
hr_status hri_infer_uniform_quantize(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_type res;
  HR_TRY(hri_declared_tensor(c, 0, false, &res));
  hri_tbuf b;
  if (!res.quant) return hri_err(c, "the result must be quantized, got %s", hri_type_str(&res, &b));
  hr_type in = expressed_tensor(&c->in[0]);
  if (!hr_dtype_is_float(in.dtype))
    return hri_err(c, "operand #0 must be a float or quantized tensor, got %s", hri_type_str(&c->in[0], &b));
  if (in.dtype != res.quant->expressed)
    return hri_err(c, "the result's expressed type %s must be the operand's %s (C2)", hr_dtype_name(res.quant->expressed),
                   hr_dtype_name(in.dtype));
  if (is_per_axis(&c->in[0]) && res.quant->axis >= 0 && c->in[0].quant->axis != res.quant->axis)
    return hri_err(c, "a requantization cannot move the quantized dimension (%d to %d)", (int)c->in[0].quant->axis,
                   (int)res.quant->axis);
  c->out[0] = res;
  c->out[0].shape = c->in[0].shape;
  return NULL;
}

/* uniform_dequantize (C1, C2): a quantized operand, a result of its expressed type and shape. */
hr_status hri_infer_uniform_dequantize(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hri_tbuf b;
  if (!is_quantized(&c->in[0])) return hri_err(c, "operand #0 must be quantized, got %s", hri_type_str(&c->in[0], &b));
  c->out[0] = hri_tensor(c->in[0].quant->expressed, &c->in[0].shape);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Ops on values                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* Elementwise ops (spec's add C2-C7 and its kin): quantized operands and result all or none, of one
 * storage type; a per-axis operand quantized along the result's dimension. select's predicate and
 * compare's i1 result take no part. */
static hr_status check_elementwise(const hri_ctx *c) {
  const hr_type *res = &c->op->results[0].type;
  bool res_counts = c->op->code != HR_OP_COMPARE;
  const hr_type *first = res_counts ? res : NULL;
  int first_i = -1;
  char b1[32], b2[32];
  for (int i = c->op->code == HR_OP_SELECT ? 1 : 0; i < c->op->n_operands; i++) {
    if (!first) {
      first = &c->in[i];
      first_i = i;
      continue;
    }
    if (is_quantized(first) != is_quantized(&c->in[i]))
      return hri_err(c, "%s and %s must both be quantized or both not", which(first_i, b1, sizeof b1), which(i, b2, sizeof b2));
    if (!is_quantized(first)) continue;
    if (first->quant->storage != c->in[i].quant->storage)
      return hri_err(c, "%s and %s must have the same storage type", which(first_i, b1, sizeof b1), which(i, b2, sizeof b2));
    if (res_counts && is_per_axis(&c->in[i]) && (!is_per_axis(res) || res->quant->axis != c->in[i].quant->axis))
      return hri_err(c, "operand #%d is quantized along dimension %d, so the result must be too", i, (int)c->in[i].quant->axis);
  }
  return NULL;
}

/* Whether dimension `d` of a dot product's rhs is contracted (*out); dot contracts the rhs's
 * dimension 0. */
static hr_status rhs_contracts(const hri_ctx *c, int64_t d, bool *out) {
  *out = d == 0;
  if (c->op->code == HR_OP_DOT) return NULL;
  const char *name = "dot_dimension_numbers";
  const hr_attr *dn;
  HR_TRY(hri_attr_struct(c, name, &dn));
  int64_t rc[HR_MAX_RANK];
  int nrc = 0;
  HR_TRY(hri_field_list(c, dn, name, "rhs_contracting_dimensions", rc, &nrc));
  *out = hri_contains(rc, nrc, d);
  return NULL;
}

/* dot and dot_general (C15, C16): the rhs's zero points are 0, and a per-axis rhs is not
 * quantized along a dimension it contracts. */
static hr_status check_dot_rhs(const hri_ctx *c, const hr_type *rhs) {
  for (int32_t i = 0; i < rhs->quant->n; i++)
    if (rhs->quant->zero_points[i] != 0) return hri_err(c, "the rhs's zero points must be 0");
  bool contracted = false;
  if (is_per_axis(rhs)) HR_TRY(rhs_contracts(c, rhs->quant->axis, &contracted));
  if (contracted) return hri_err(c, "the rhs is quantized along a dimension it contracts (%d)", (int)rhs->quant->axis);
  return NULL;
}

/* Checks that a per-axis value of a convolution (the rhs, `rhs_side`, or the result) is quantized
 * along its feature dimension of dimension_numbers `field` (C29, C30). */
static hr_status check_conv_axis(const hri_ctx *c, const hr_type *t, const char *field, bool rhs_side) {
  if (!is_per_axis(t) || c->op->code != HR_OP_CONVOLUTION) return NULL;
  const hr_attr *dn;
  int64_t want = 0;
  HR_TRY(hri_attr_struct(c, "dimension_numbers", &dn));
  HR_TRY(hri_field_int(c, dn, "dimension_numbers", field, true, 0, &want));
  if (t->quant->axis == want) return NULL;
  return hri_err(c, "the %s must be quantized along its %s %lld, not %d", rhs_side ? "rhs" : "result", field,
                 (long long)want, (int)t->quant->axis);
}

/* dot, dot_general and convolution (spec's dot_general C14-C20, convolution's C28-C34): a
 * quantized lhs needs a quantized rhs and result of the same storage type and a per-tensor lhs; a
 * float lhs with a quantized rhs (weight-only, "hybrid") gives a float result. */
static hr_status check_contraction(const hri_ctx *c) {
  const hr_type *lhs = &c->in[0], *rhs = &c->in[1], *res = &c->op->results[0].type;
  if (!is_quantized(lhs) && !is_quantized(rhs))
    return hri_err(c, "a quantized result needs quantized operands");
  if (!is_quantized(rhs)) return hri_err(c, "the lhs is quantized, so the rhs must be too");
  if (is_quantized(lhs) != is_quantized(res))
    return hri_err(c, is_quantized(lhs) ? "the operands are quantized, so the result must be too"
                                        : "a float lhs with a quantized rhs gives a float result");
  if (c->op->code == HR_OP_DOT || c->op->code == HR_OP_DOT_GENERAL) HR_TRY(check_dot_rhs(c, rhs));
  HR_TRY(check_conv_axis(c, rhs, "kernel_output_feature_dimension", true));
  HR_TRY(check_conv_axis(c, res, "output_feature_dimension", false));
  if (!is_quantized(lhs)) return NULL;
  if (is_per_axis(lhs)) return hri_err(c, "the lhs must be quantized per tensor");
  if (lhs->quant->storage != rhs->quant->storage) return hri_err(c, "the lhs and rhs must have the same storage type");
  if (!is_per_axis(rhs) && is_per_axis(res))
    return hri_err(c, "the rhs is quantized per tensor, so the result must be too");
  return NULL;
}

/* The spec's constraints on the quantized operands and results of an op computing on values. */
static hr_status check_values_op(const hri_ctx *c) {
  switch (c->op->code) {
    case HR_OP_DOT:
    case HR_OP_DOT_GENERAL:
    case HR_OP_CONVOLUTION:
    case HR_OP_DYNAMIC_CONV: return check_contraction(c);
    default: break;
  }
  if (c->op->n_results == 1 && c->op->n_operands <= 3) return check_elementwise(c);
  return NULL;
}

/* Result #i inferred as `inferred` (over expressed types) and declared quantized: the declared type
 * with the inferred shape, when the expressed types agree. */
static hr_status quantized_result(const hri_ctx *c, int i) {
  const hr_type *declared = &c->op->results[i].type;
  if (!is_quantized(declared) || c->out[i].kind != HR_TYPE_TENSOR) return NULL;
  if (c->out[i].dtype != declared->quant->expressed)
    return hri_err(c, "result #%d's expressed type %s does not match the computed element type %s", i,
                   hr_dtype_name(declared->quant->expressed), hr_dtype_name(c->out[i].dtype));
  hr_shape shape = c->out[i].shape;
  c->out[i] = *declared;
  c->out[i].shape = shape;
  return NULL;
}

/* An op computing on values: its rule over the expressed types of its quantized operands, each
 * quantized result declared with the expressed type the rule computed. */
static hr_status infer_on_values(const hri_ctx *c, hri_rule rule) {
  HR_TRY(check_values_op(c));
  hr_type in[8];
  if (c->op->n_operands > 8) return hri_err(c, "quantized operands of an op with more than 8 operands");
  for (int i = 0; i < c->op->n_operands; i++) in[i] = expressed_tensor(&c->in[i]);
  hri_ctx on_values = {c->op, in, c->values, c->out};
  HR_TRY(rule(&on_values));
  for (int i = 0; i < c->op->n_results; i++) HR_TRY(quantized_result(c, i));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Ops on stored integers                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Whether a per-axis result of broadcast_in_dim broadcasting a quantized dimension of size 1 has
 * the operand's one scale and zero point everywhere (spec's broadcast_in_dim C6). */
static bool broadcasts_one_scale(const hr_quant *from, const hr_quant *to) {
  hr_quant base_from = *from, base_to = *to;
  base_from.axis = base_to.axis = 0;
  base_from.n = base_to.n = 1;
  for (int32_t i = 0; i < to->n; i++) {
    base_to.scales = &to->scales[i];
    base_to.zero_points = &to->zero_points[i];
    if (!hr_quant_equal(&base_from, &base_to)) return false;
  }
  return true;
}

/* The quantized dimension of a per-axis operand as transpose (C4) and broadcast_in_dim (C6) move
 * it; other moves keep it. */
static hr_status moved_axis(const hri_ctx *c, int64_t axis, int64_t *out) {
  int64_t dims[HR_MAX_RANK];
  int n = 0;
  *out = axis;
  if (c->op->code == HR_OP_BROADCAST_IN_DIM) {
    HR_TRY(hri_attr_list(c, "broadcast_dimensions", true, dims, &n));
    if (axis < n) *out = dims[axis];
  } else if (c->op->code == HR_OP_TRANSPOSE) {
    HR_TRY(hri_attr_list(c, "permutation", true, dims, &n));
    for (int r = 0; r < n; r++)
      if (dims[r] == axis) *out = r;
  }
  return NULL;
}

/* The number of elements before index 0 of dimension `axis` of `shape` (the product of the
 * dimensions before it), or -1 when one of them is dynamic. */
static int64_t elements_before(const hr_shape *shape, int axis) {
  int64_t n = 1;
  for (int d = 0; d < axis && d < shape->rank; d++) {
    if (shape->dims[d] == HR_DYNAMIC) return -1;
    if (shape->dims[d] != 0 && n > INT64_MAX / shape->dims[d]) return -1;
    n *= shape->dims[d];
  }
  return n;
}

/* reshape (C3): a per-axis quantized dimension keeps its place in the elements' order (as many
 * elements before it in the operand as in the result). */
static hr_status check_reshaped_axis(const hri_ctx *c, int i, int to_axis) {
  int64_t before = elements_before(&c->in[i].shape, c->in[i].quant->axis);
  int64_t after = elements_before(&c->op->results[0].type.shape, to_axis);
  if (before < 0 || after < 0 || before == after) return NULL;
  return hri_err(c, "the result's quantized dimension %d is not where the operand's (%d) goes", to_axis,
                 (int)c->in[i].quant->axis);
}

/* Whether operand #i, quantized, and the result have one element type, but where the spec lets a
 * per-axis type's quantized dimension move (*ok). */
static hr_status same_moved_type(const hri_ctx *c, int i, bool *ok) {
  const hr_quant *from = c->in[i].quant, *to = c->op->results[0].type.quant;
  *ok = to && same_but_axis(from, to);
  if (!to || from->axis < 0 || to->axis < 0) return NULL;
  if (c->op->code == HR_OP_RESHAPE) return check_reshaped_axis(c, i, to->axis);
  int64_t axis;
  HR_TRY(moved_axis(c, from->axis, &axis));
  if (!*ok && c->op->code == HR_OP_BROADCAST_IN_DIM && from->n == 1) *ok = broadcasts_one_scale(from, to);
  if (*ok && axis != to->axis)
    return hri_err(c, "the result's quantized dimension must be %lld, where the operand's (%d) goes, got %d",
                   (long long)axis, (int)from->axis, (int)to->axis);
  return NULL;
}

/* An op moving elements (reshape, slice, pad, ...): every quantized operand has the result's
 * element type, but for the quantized dimension of a per-axis type, which must be where the op
 * moves the operand's; a quantized operand gives a quantized result. */
static hr_status check_moved(const hri_ctx *c) {
  const hr_type *res = &c->op->results[0].type;
  hri_tbuf b1, b2;
  for (int i = 0; i < c->op->n_operands; i++) {
    if (!is_quantized(&c->in[i])) continue;
    bool ok = false;
    HR_TRY(same_moved_type(c, i, &ok));
    if (!ok)
      return hri_err(c, "result type %s must have the element type of operand #%d (%s)", hri_type_str(res, &b1), i,
                     hri_type_str(&c->in[i], &b2));
  }
  return NULL;
}

/* An op on stored integers: its rule over the types as they are; a declared quantized result of
 * the storage type the rule gave has the declared quantization. */
static hr_status infer_on_stored(const hri_ctx *c, hri_rule rule) {
  if (moves_elements(c->op->code) && c->op->n_results == 1) HR_TRY(check_moved(c));
  HR_TRY(rule(c));
  for (int i = 0; i < c->op->n_results; i++) {
    const hr_type *declared = &c->op->results[i].type;
    hr_type *t = &c->out[i];
    if (!is_quantized(declared) || t->kind != HR_TYPE_TENSOR || t->dtype != declared->dtype) continue;
    if (t->quant && !same_but_axis(t->quant, declared->quant)) continue; /* reported as a mismatch */
    t->quant = declared->quant;
  }
  return NULL;
}

hr_status hri_infer_quantized(const hri_ctx *c, hri_rule rule) {
  if (c->op->code == HR_OP_UNIFORM_QUANTIZE || c->op->code == HR_OP_UNIFORM_DEQUANTIZE) return rule(c);
  if (computes_on_values(c->op->code)) return infer_on_values(c, rule);
  return infer_on_stored(c, rule);
}

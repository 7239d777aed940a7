/* Shape inference entry point: request validation, op arities, the rule table, and the helpers
 * shared by the rules (see infer_internal.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "base/numeric.h"
#include "ir/infer_internal.h"

/* Tuples nest at most HR_LIMIT_TUPLE_DEPTH deep in operand types (deeper ones are rejected). */
/* The text of a macro's value, for messages. */
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

/* ---------------------------------------------------------------------------------------------- */
/* Arity                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Builds an arity record. */
static hri_arity arity(int min_ops, int max_ops, int min_res, int max_res, int min_reg, int max_reg) {
  hri_arity a = {min_ops, max_ops, min_res, max_res, min_reg, max_reg};
  return a;
}

hri_arity hri_op_arity(hr_opcode code) {
  switch (code) {
    case HR_OP_FUNC_RETURN:
    case HR_OP_SDY_RETURN:
    case HR_OP_RETURN: return arity(0, -1, 0, 0, 0, 0);
    case HR_OP_SDY_MANUAL_COMPUTATION: return arity(0, -1, 0, -1, 1, 1);
    case HR_OP_FUNC_CALL:
    case HR_OP_COMPOSITE:
    case HR_OP_CUSTOM_CALL:
    case HR_OP_OPTIMIZATION_BARRIER: return arity(0, -1, 0, -1, 0, 0);
    case HR_OP_AFTER_ALL:
    case HR_OP_TUPLE: return arity(0, -1, 1, 1, 0, 0);
    case HR_OP_ASYNC_START: return arity(0, -1, 1, 1, 1, 1);
    case HR_OP_ASYNC_DONE: return arity(1, 1, 0, -1, 0, 0);
    case HR_OP_COLLECTIVE_REDUCE: return arity(1, 2, 1, 1, 1, 1);
    case HR_OP_ALL_GATHER:
    case HR_OP_ALL_TO_ALL:
    case HR_OP_COLLECTIVE_BROADCAST: return arity(1, -1, 1, -1, 0, 0);
    case HR_OP_ALL_REDUCE:
    case HR_OP_SORT: return arity(1, -1, 1, -1, 1, 1);
    case HR_OP_REDUCE:
    case HR_OP_REDUCE_WINDOW: return arity(2, -1, 1, -1, 1, 1);
    case HR_OP_SCATTER: return arity(3, -1, 1, -1, 1, 1);
    case HR_OP_BATCH_NORM_GRAD: return arity(5, 5, 3, 3, 0, 0);
    case HR_OP_BATCH_NORM_INFERENCE: return arity(5, 5, 1, 1, 0, 0);
    case HR_OP_BATCH_NORM_TRAINING: return arity(3, 3, 3, 3, 0, 0);
    case HR_OP_CASE: return arity(1, 1, 0, -1, 1, -1);
    case HR_OP_IF: return arity(1, 1, 0, -1, 2, 2);
    case HR_OP_WHILE: return arity(0, -1, 0, -1, 2, 2);
    case HR_OP_CHLO_SCAN: return arity(0, -1, 0, -1, 1, 1);
    case HR_OP_MAP: return arity(1, -1, 1, 1, 1, 1);
    case HR_OP_REDUCE_SCATTER: return arity(1, 1, 1, 1, 1, 1);
    case HR_OP_SELECT_AND_SCATTER: return arity(3, 3, 1, 1, 2, 2);
    case HR_OP_CLAMP:
    case HR_OP_CHLO_BROADCAST_SELECT:
    case HR_OP_SELECT:
    case HR_OP_RNG:
    case HR_OP_DYNAMIC_CONV:
    case HR_OP_DYNAMIC_GATHER: return arity(3, 3, 1, 1, 0, 0);
    case HR_OP_CHLO_BROADCAST_ADD:
    case HR_OP_CHLO_BROADCAST_AND:
    case HR_OP_CHLO_BROADCAST_ATAN2:
    case HR_OP_CHLO_BROADCAST_COMPARE:
    case HR_OP_CHLO_BROADCAST_COMPLEX:
    case HR_OP_CHLO_BROADCAST_DIVIDE:
    case HR_OP_CHLO_BROADCAST_MAXIMUM:
    case HR_OP_CHLO_BROADCAST_MINIMUM:
    case HR_OP_CHLO_BROADCAST_MULTIPLY:
    case HR_OP_CHLO_BROADCAST_NEXT_AFTER:
    case HR_OP_CHLO_BROADCAST_OR:
    case HR_OP_CHLO_BROADCAST_POLYGAMMA:
    case HR_OP_CHLO_BROADCAST_POWER:
    case HR_OP_CHLO_BROADCAST_REMAINDER:
    case HR_OP_CHLO_BROADCAST_SHIFT_LEFT:
    case HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC:
    case HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL:
    case HR_OP_CHLO_BROADCAST_SUBTRACT:
    case HR_OP_CHLO_BROADCAST_XOR:
    case HR_OP_CHLO_BROADCAST_ZETA:
    case HR_OP_COMPARE:
    case HR_OP_DOT:
    case HR_OP_DOT_GENERAL:
    case HR_OP_CONVOLUTION:
    case HR_OP_DYNAMIC_BROADCAST_IN_DIM:
    case HR_OP_DYNAMIC_RESHAPE:
    case HR_OP_EINSUM:
    case HR_OP_GATHER:
    case HR_OP_PAD:
    case HR_OP_SET_DIMENSION_SIZE:
    case HR_OP_TORCH_INDEX_SELECT:
    case HR_OP_TRIANGULAR_SOLVE: return arity(2, 2, 1, 1, 0, 0);
    case HR_OP_CHLO_RAGGED_DOT: return arity(3, 3, 1, 1, 0, 0);
    case HR_OP_REAL_DYNAMIC_SLICE: return arity(4, 4, 1, 1, 0, 0);
    case HR_OP_DYNAMIC_PAD: return arity(5, 5, 1, 1, 0, 0);
    case HR_OP_CONCATENATE:
    case HR_OP_DYNAMIC_SLICE: return arity(1, -1, 1, 1, 0, 0);
    case HR_OP_DYNAMIC_UPDATE_SLICE: return arity(2, -1, 1, 1, 0, 0);
    case HR_OP_CONSTANT:
    case HR_OP_CHLO_CONSTANT:
    case HR_OP_CREATE_TOKEN:
    case HR_OP_IOTA:
    case HR_OP_PARTITION_ID:
    case HR_OP_REPLICA_ID: return arity(0, 0, 1, 1, 0, 0);
    case HR_OP_INFEED:
    case HR_OP_RECV: return arity(1, 1, 1, -1, 0, 0);
    case HR_OP_OUTFEED:
    case HR_OP_SEND: return arity(1, -1, 1, 1, 0, 0);
    case HR_OP_RNG_BIT_GENERATOR:
    case HR_OP_CHLO_TOP_K: return arity(1, 1, 2, 2, 0, 0);
    case HR_OP_CHECK_EXPECT_ALMOST_EQ:
    case HR_OP_CHECK_EXPECT_CLOSE:
    case HR_OP_CHECK_EXPECT_EQ: return arity(2, 2, 0, 0, 0, 0);
    case HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST:
    case HR_OP_CHECK_EXPECT_EQ_CONST:
    case HR_OP_CHECK_EXPECT_SERIALIZED_EQ: return arity(1, 1, 0, 0, 0, 0);
    case HR_OP_INTERPRETER_PROBE: return arity(1, 1, 1, 1, 0, 0);
    case HR_OP_INTERPRETER_PRINT: return arity(1, 1, 0, 0, 0, 0);
    case HR_OP_INTERPRETER_RUN_PARALLEL: return arity(0, -1, 0, -1, 0, 0);
    case HR_OP_HLORUN_MATMUL: return arity(2, -1, 1, 1, 1, 1);
    case HR_OP_HLORUN_FUSED: return arity(1, -1, 1, 1, 1, 1);
    case HR_OP_HLORUN_LAYER_NORM: return arity(1, 3, 1, 1, 0, 0);
    case HR_OP_HLORUN_ATTENTION: return arity(1, 4, 1, 1, 0, 0);
    case HR_OP_HLORUN_SOFTMAX: return arity(1, 1, 1, 1, 0, 0);
    default: break;
  }
  if (hr_opcode_flags(code) & HR_OPF_BINARY) return arity(2, 2, 1, 1, 0, 0);
  /* Unary elementwise ops and the remaining one-operand ops (broadcast, reshape, slice, ...). */
  return arity(1, 1, 1, 1, 0, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* Rule table                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static const hri_rule rules[HR_OP_COUNT] = {
    [HR_OP_FUNC_RETURN] = hri_infer_return,
    [HR_OP_RETURN] = hri_infer_return,
    [HR_OP_SDY_RETURN] = hri_infer_return,
    [HR_OP_SDY_MANUAL_COMPUTATION] = hri_infer_manual_computation,
    [HR_OP_SDY_SHARDING_CONSTRAINT] = hri_infer_same_as_operands,
    [HR_OP_FUNC_CALL] = hri_infer_declared,
    [HR_OP_CUSTOM_CALL] = hri_infer_custom_call,
    [HR_OP_COMPOSITE] = hri_infer_declared,
    [HR_OP_EINSUM] = hri_infer_declared,
    [HR_OP_UNARY_EINSUM] = hri_infer_declared,
    [HR_OP_INFEED] = hri_infer_transfer_in,
    [HR_OP_RECV] = hri_infer_transfer_in,
    [HR_OP_UNIFORM_QUANTIZE] = hri_infer_uniform_quantize,
    [HR_OP_UNIFORM_DEQUANTIZE] = hri_infer_uniform_dequantize,
    [HR_OP_AFTER_ALL] = hri_infer_token,
    [HR_OP_CREATE_TOKEN] = hri_infer_token,
    [HR_OP_OUTFEED] = hri_infer_token,
    [HR_OP_SEND] = hri_infer_token,
    [HR_OP_PARTITION_ID] = hri_infer_device_id,
    [HR_OP_REPLICA_ID] = hri_infer_device_id,
    [HR_OP_CONSTANT] = hri_infer_constant,
    [HR_OP_TUPLE] = hri_infer_tuple,
    [HR_OP_GET_TUPLE_ELEMENT] = hri_infer_get_tuple_element,
    [HR_OP_OPTIMIZATION_BARRIER] = hri_infer_same_as_operands,
    [HR_OP_ASYNC_START] = hri_infer_async_start,
    [HR_OP_ASYNC_DONE] = hri_infer_async_done,
    [HR_OP_WHILE] = hri_infer_while,
    [HR_OP_IF] = hri_infer_if,
    [HR_OP_CASE] = hri_infer_case,
    [HR_OP_RNG] = hri_infer_rng,
    [HR_OP_RNG_BIT_GENERATOR] = hri_infer_rng_bit_generator,

    [HR_OP_COMPARE] = hri_infer_compare,
    [HR_OP_SELECT] = hri_infer_select,
    [HR_OP_CLAMP] = hri_infer_clamp,
    [HR_OP_CONVERT] = hri_infer_convert,
    [HR_OP_BITCAST_CONVERT] = hri_infer_bitcast_convert,
    [HR_OP_REDUCE_PRECISION] = hri_infer_reduce_precision,
    [HR_OP_MAP] = hri_infer_map,

    [HR_OP_IOTA] = hri_infer_iota,
    [HR_OP_DYNAMIC_IOTA] = hri_infer_dynamic_iota,
    [HR_OP_BROADCAST_IN_DIM] = hri_infer_broadcast_in_dim,
    [HR_OP_DYNAMIC_BROADCAST_IN_DIM] = hri_infer_dynamic_broadcast_in_dim,
    [HR_OP_BROADCAST] = hri_infer_broadcast,
    [HR_OP_RESHAPE] = hri_infer_reshape,
    [HR_OP_DYNAMIC_RESHAPE] = hri_infer_dynamic_reshape,
    [HR_OP_TRANSPOSE] = hri_infer_transpose,
    [HR_OP_SLICE] = hri_infer_slice,
    [HR_OP_REAL_DYNAMIC_SLICE] = hri_infer_real_dynamic_slice,
    [HR_OP_CONCATENATE] = hri_infer_concatenate,
    [HR_OP_PAD] = hri_infer_pad,
    [HR_OP_DYNAMIC_PAD] = hri_infer_dynamic_pad,
    [HR_OP_REVERSE] = hri_infer_reverse,
    [HR_OP_GET_DIMENSION_SIZE] = hri_infer_get_dimension_size,
    [HR_OP_SET_DIMENSION_SIZE] = hri_infer_set_dimension_size,

    [HR_OP_GATHER] = hri_infer_gather,
    [HR_OP_DYNAMIC_GATHER] = hri_infer_dynamic_gather,
    [HR_OP_SCATTER] = hri_infer_scatter,
    [HR_OP_DYNAMIC_SLICE] = hri_infer_dynamic_slice,
    [HR_OP_DYNAMIC_UPDATE_SLICE] = hri_infer_dynamic_update_slice,
    [HR_OP_TORCH_INDEX_SELECT] = hri_infer_torch_index_select,
    [HR_OP_SORT] = hri_infer_sort,
    [HR_OP_CHLO_TOP_K] = hri_infer_top_k,

    [HR_OP_CHLO_BROADCAST_ADD] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_AND] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_ATAN2] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_COMPARE] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_COMPLEX] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_DIVIDE] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_MAXIMUM] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_MINIMUM] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_MULTIPLY] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_NEXT_AFTER] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_OR] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_POLYGAMMA] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_POWER] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_REMAINDER] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_SHIFT_LEFT] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_ARITHMETIC] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_SHIFT_RIGHT_LOGICAL] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_SUBTRACT] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_XOR] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_ZETA] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_BROADCAST_SELECT] = hri_infer_chlo_broadcast,
    [HR_OP_CHLO_CONSTANT] = hri_infer_constant,
    [HR_OP_CHLO_CONSTANT_LIKE] = hri_infer_constant_like,
    [HR_OP_CHLO_RAGGED_DOT] = hri_infer_ragged_dot,
    [HR_OP_CHLO_SCAN] = hri_infer_scan,

    [HR_OP_DOT_GENERAL] = hri_infer_dot_general,
    [HR_OP_DOT] = hri_infer_dot,
    [HR_OP_CONVOLUTION] = hri_infer_convolution,
    [HR_OP_DYNAMIC_CONV] = hri_infer_dynamic_conv,
    [HR_OP_FFT] = hri_infer_fft,
    [HR_OP_TRIANGULAR_SOLVE] = hri_infer_triangular_solve,
    [HR_OP_CHOLESKY] = hri_infer_cholesky,
    [HR_OP_BATCH_NORM_INFERENCE] = hri_infer_batch_norm_inference,
    [HR_OP_BATCH_NORM_TRAINING] = hri_infer_batch_norm_training,
    [HR_OP_BATCH_NORM_GRAD] = hri_infer_batch_norm_grad,

    [HR_OP_REDUCE] = hri_infer_reduce,
    [HR_OP_REDUCE_WINDOW] = hri_infer_reduce_window,
    [HR_OP_SELECT_AND_SCATTER] = hri_infer_select_and_scatter,
    [HR_OP_ALL_REDUCE] = hri_infer_all_reduce,
    [HR_OP_COLLECTIVE_REDUCE] = hri_infer_collective_reduce,
    [HR_OP_REDUCE_SCATTER] = hri_infer_reduce_scatter,
    [HR_OP_ALL_GATHER] = hri_infer_all_gather,
    [HR_OP_ALL_TO_ALL] = hri_infer_all_to_all,
    [HR_OP_COLLECTIVE_PERMUTE] = hri_infer_same_as_operands,
    [HR_OP_COLLECTIVE_BROADCAST] = hri_infer_same_as_operands,
    [HR_OP_CROSS_REPLICA_SUM] = hri_infer_same_as_operands,

    [HR_OP_CHECK_EXPECT_ALMOST_EQ] = hri_infer_check,
    [HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST] = hri_infer_check,
    [HR_OP_CHECK_EXPECT_CLOSE] = hri_infer_check,
    [HR_OP_CHECK_EXPECT_EQ] = hri_infer_check,
    [HR_OP_CHECK_EXPECT_EQ_CONST] = hri_infer_check,
    [HR_OP_CHECK_EXPECT_SERIALIZED_EQ] = hri_infer_check,
    [HR_OP_INTERPRETER_PROBE] = hri_infer_probe,
    [HR_OP_INTERPRETER_PRINT] = hri_infer_print,
    [HR_OP_INTERPRETER_RUN_PARALLEL] = hri_infer_declared,

    [HR_OP_HLORUN_MATMUL] = hri_infer_hlorun_matmul,
    [HR_OP_HLORUN_FUSED] = hri_infer_hlorun_fused,
    [HR_OP_HLORUN_LAYER_NORM] = hri_infer_hlorun_layer_norm,
    [HR_OP_HLORUN_SOFTMAX] = hri_infer_hlorun_softmax,
    [HR_OP_HLORUN_ATTENTION] = hri_infer_hlorun_attention,
};

/* The rule for `code`: the table entry, else the generic elementwise rule its flags select. */
static hri_rule rule_for(hr_opcode code) {
  if (rules[code]) return rules[code];
  unsigned flags = hr_opcode_flags(code);
  if (flags & HR_OPF_BINARY) return hri_infer_binary;
  if (flags & HR_OPF_UNARY) return hri_infer_unary;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Request validation                                                                              */
/* ---------------------------------------------------------------------------------------------- */

const char *hri_type_problem(const hr_type *t) {
  const hr_type *stack[HR_LIMIT_TUPLE_DEPTH + 1];
  int idx[HR_LIMIT_TUPLE_DEPTH + 1];
  int depth = 0;
  stack[0] = t;
  idx[0] = -1;
  /* Depth-first walk without recursion; idx[k] is the next element of tuple stack[k] to visit. */
  while (depth >= 0) {
    const hr_type *u = stack[depth];
    if (idx[depth] < 0) {
      switch (u->kind) {
        case HR_TYPE_TOKEN: depth--; continue;
        case HR_TYPE_TENSOR:
        case HR_TYPE_BUFFER:
          if (u->dtype <= HR_DTYPE_INVALID || u->dtype >= HR_DTYPE_COUNT) return "invalid element type";
          if (u->shape.rank < 0 || u->shape.rank > HR_MAX_RANK)
            return "rank outside [0, " STRINGIFY(HR_MAX_RANK) "]";
          for (int d = 0; d < u->shape.rank; d++)
            if (u->shape.dims[d] < 0 && u->shape.dims[d] != HR_DYNAMIC) return "negative dimension size";
          if (u->kind == HR_TYPE_TENSOR) {
            const char *quant_problem = hri_quant_problem(u);
            if (quant_problem) return quant_problem;
          }
          depth--;
          continue;
        case HR_TYPE_TUPLE:
        case HR_TYPE_FUTURE:
          if (u->n_elems < 0 || (u->n_elems > 0 && !u->elems)) return "malformed tuple type";
          idx[depth] = 0;
          break;
        default: return "invalid type kind";
      }
    }
    if (idx[depth] >= u->n_elems) {
      depth--;
      continue;
    }
    if (depth == HR_LIMIT_TUPLE_DEPTH) return "tuples nested too deeply";
    stack[depth + 1] = &u->elems[idx[depth]++];
    idx[++depth] = -1;
  }
  return NULL;
}

/* Checks that a type is well formed (hri_type_problem); `what` and `idx` name it in errors. */
static hr_status check_type(const hr_op *op, const hr_type *t, const char *what, int idx) {
  const char *problem = hri_type_problem(t);
  if (!problem) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "%s #%d: %s", what, idx, problem);
}

/* Checks that `n` is within [lo, hi] (hi < 0: unbounded). */
static hr_status check_count(const hr_op *op, const char *what, int n, int lo, int hi) {
  if (n < lo || (hi >= 0 && n > hi)) {
    if (hi == lo) return hr_op_error(op, HR_VERIFY_ERROR, "expected %d %s, got %d", lo, what, n);
    if (hi < 0) return hr_op_error(op, HR_VERIFY_ERROR, "expected at least %d %s, got %d", lo, what, n);
    return hr_op_error(op, HR_VERIFY_ERROR, "expected %d to %d %s, got %d", lo, hi, what, n);
  }
  return NULL;
}

/* Checks the op's operand, result and region counts against its arity and the arrays' presence. */
static hr_status check_counts(const hr_op *op) {
  hri_arity a = hri_op_arity(op->code);
  HR_TRY(check_count(op, "operands", op->n_operands, a.min_operands, a.max_operands));
  HR_TRY(check_count(op, "results", op->n_results, a.min_results, a.max_results));
  HR_TRY(check_count(op, "regions", op->n_regions, a.min_regions, a.max_regions));
  if ((op->n_operands > 0 && !op->operands) || (op->n_results > 0 && !op->results) ||
      (op->n_regions > 0 && !op->regions) || (op->n_attrs > 0 && !op->attrs) || op->n_attrs < 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "malformed op (missing operand, result or region arrays)");
  return NULL;
}

/* Checks every static result: dims >= 0 or HR_DYNAMIC and an element count that fits int64. */
static hr_status check_results(const hr_op *op, const hr_type *res) {
  for (int i = 0; i < op->n_results; i++) {
    HR_TRY(check_type(op, &res[i], "result", i));
    if (!hr_type_is_static(&res[i])) continue;
    int64_t n;
    hr_status s = hr_shape_num_elements(&res[i].shape, &n);
    if (s) {
      hr_status_free(s);
      return hr_op_error(op, HR_VERIFY_ERROR, "result #%d has more than 2^63 elements", i);
    }
  }
  return NULL;
}

hr_status hr_infer_result_types(const hr_op *op, const hr_type *operand_types,
                                const hr_tensor *const *operand_values, hr_type *result_types) {
  if (!op || (unsigned)op->code >= HR_OP_COUNT)
    return hr_error(HR_INVALID_ARGUMENT, "shape inference: invalid op");
  HR_TRY(check_counts(op));
  if ((op->n_operands > 0 && !operand_types) || (op->n_results > 0 && !result_types))
    return hr_op_error(op, HR_INVALID_ARGUMENT, "shape inference: missing type arrays");
  for (int i = 0; i < op->n_operands; i++) HR_TRY(check_type(op, &operand_types[i], "operand", i));
  hri_rule rule = rule_for(op->code);
  if (!rule) return hr_op_error(op, HR_UNIMPLEMENTED, "no shape inference rule for this op");
  for (int i = 0; i < op->n_results; i++) memset(&result_types[i], 0, sizeof result_types[i]);
  hri_ctx c = {op, operand_types, operand_values, result_types};
  HR_TRY(hri_uses_quant(op, operand_types) ? hri_infer_quantized(&c, rule) : rule(&c));
  return check_results(op, result_types);
}

/* ---------------------------------------------------------------------------------------------- */
/* Messages                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

const char *hri_type_str(const hr_type *t, hri_tbuf *buf) {
  hr_type_format(t, buf->s, sizeof buf->s);
  return buf->s;
}

hr_status hri_err(const hri_ctx *c, const char *fmt, ...) {
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_op_error(c->op, HR_VERIFY_ERROR, "%s", msg);
}

/* ---------------------------------------------------------------------------------------------- */
/* Element types                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

bool hri_is_int(hr_dtype t) { return hr_dtype_is_signed_int(t) || hr_dtype_is_unsigned_int(t); }

bool hri_is_promotable(hr_dtype from, hr_dtype to) {
  if (from == to) return true;
  bool same_kind = (hri_is_int(from) && hri_is_int(to)) ||
                   (hr_dtype_is_real_float(from) && hr_dtype_is_real_float(to)) ||
                   (hr_dtype_is_complex(from) && hr_dtype_is_complex(to));
  return same_kind && hr_dtype_bits(from) <= hr_dtype_bits(to);
}

hr_dtype hri_complex_part(hr_dtype t) {
  if (t == HR_C64) return HR_F32;
  if (t == HR_C128) return HR_F64;
  return HR_DTYPE_INVALID;
}

/* ---------------------------------------------------------------------------------------------- */
/* Operand checks                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

hr_status hri_want_tensor(const hri_ctx *c, int i) {
  if (c->in[i].kind == HR_TYPE_TENSOR) return NULL;
  hri_tbuf b;
  return hri_err(c, "operand #%d must be a tensor, got %s", i, hri_type_str(&c->in[i], &b));
}

hr_status hri_want_tensors(const hri_ctx *c, int first, int n) {
  for (int i = first; i < first + n; i++) HR_TRY(hri_want_tensor(c, i));
  return NULL;
}

hr_status hri_want_rank(const hri_ctx *c, int i, int rank, const char *what) {
  HR_TRY(hri_want_tensor(c, i));
  if (c->in[i].shape.rank == rank) return NULL;
  hri_tbuf b;
  return hri_err(c, "%s (operand #%d) must have rank %d, got %s", what, i, rank, hri_type_str(&c->in[i], &b));
}

hr_status hri_want_int_tensor(const hri_ctx *c, int i, const char *what) {
  HR_TRY(hri_want_tensor(c, i));
  if (hri_is_int(c->in[i].dtype) || c->in[i].dtype == HR_INDEX) return NULL;
  hri_tbuf b;
  return hri_err(c, "%s (operand #%d) must have an integer element type, got %s", what, i,
                 hri_type_str(&c->in[i], &b));
}

hr_status hri_want_same_dtype(const hri_ctx *c, int i, int j) {
  if (c->in[i].dtype == c->in[j].dtype) return NULL;
  return hri_err(c, "operands #%d and #%d must have the same element type, got %s and %s", i, j,
                 hr_dtype_name(c->in[i].dtype), hr_dtype_name(c->in[j].dtype));
}

hr_type hri_tensor(hr_dtype dtype, const hr_shape *shape) {
  return hr_tensor_type(dtype, shape->rank, shape->dims);
}

hr_status hri_declared_tensor(const hri_ctx *c, int i, bool need_static, hr_type *out) {
  const hr_type *t = &c->op->results[i].type;
  HR_TRY(check_type(c->op, t, "result", i));
  hri_tbuf b;
  if (t->kind != HR_TYPE_TENSOR)
    return hri_err(c, "result #%d must be a tensor, got %s", i, hri_type_str(t, &b));
  if (need_static && !hr_type_is_static(t))
    return hri_err(c, "result #%d must be statically shaped, got %s", i, hri_type_str(t, &b));
  *out = *t;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Dimension arithmetic                                                                            */
/* ---------------------------------------------------------------------------------------------- */

hr_status hri_dim_add(const hri_ctx *c, int64_t a, int64_t b, int64_t *out) {
  if (a == HR_DYNAMIC || b == HR_DYNAMIC) {
    *out = HR_DYNAMIC;
    return NULL;
  }
  if (__builtin_add_overflow(a, b, out)) return hri_err(c, "dimension size overflows 64 bits");
  return NULL;
}

hr_status hri_dim_mul(const hri_ctx *c, int64_t a, int64_t b, int64_t *out) {
  if (a == HR_DYNAMIC || b == HR_DYNAMIC) {
    *out = HR_DYNAMIC;
    return NULL;
  }
  if (__builtin_mul_overflow(a, b, out)) return hri_err(c, "dimension size overflows 64 bits");
  return NULL;
}

hr_status hri_dim_merge(const hri_ctx *c, int64_t a, int64_t b, int64_t *out, const char *what) {
  if (a != HR_DYNAMIC && b != HR_DYNAMIC && a != b)
    return hri_err(c, "%s: dimension sizes %lld and %lld differ", what, (long long)a, (long long)b);
  *out = a == HR_DYNAMIC ? b : a;
  return NULL;
}

hr_status hri_shape_merge(const hri_ctx *c, const hr_shape *a, const hr_shape *b, hr_shape *out,
                          const char *what) {
  if (a->rank != b->rank) return hri_err(c, "%s: ranks %d and %d differ", what, a->rank, b->rank);
  hr_shape r = *a;
  for (int i = 0; i < a->rank; i++) {
    if (a->dims[i] != HR_DYNAMIC && b->dims[i] != HR_DYNAMIC && a->dims[i] != b->dims[i])
      return hri_err(c, "%s: dimension %d has sizes %lld and %lld", what, i, (long long)a->dims[i],
                     (long long)b->dims[i]);
    if (r.dims[i] == HR_DYNAMIC) r.dims[i] = b->dims[i];
  }
  *out = r;
  return NULL;
}

int64_t hri_num_windows(int64_t padded, int64_t window, int64_t stride) {
  if (padded == HR_DYNAMIC || window == HR_DYNAMIC) return HR_DYNAMIC;
  if (padded <= 0 || window > padded) return 0;
  return (padded - window) / stride + 1;
}

hr_status hri_dilate(const hri_ctx *c, int64_t d, int64_t dilation, int64_t *out) {
  if (d == HR_DYNAMIC || d == 0) {
    *out = d;
    return NULL;
  }
  HR_TRY(hri_dim_mul(c, d - 1, dilation, out));
  return hri_dim_add(c, *out, 1, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* Attributes                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

hr_status hri_attr_list(const hri_ctx *c, const char *name, bool required, int64_t *out, int *n) {
  if (required) return hr_op_attr_i64_list(c->op, name, out, HR_MAX_RANK, n);
  return hr_op_attr_i64_list_opt(c->op, name, out, HR_MAX_RANK, n);
}

hr_status hri_attr_list_n(const hri_ctx *c, const char *name, int n, int64_t dflt, int64_t *out) {
  int got;
  HR_TRY(hri_attr_list(c, name, false, out, &got));
  if (!hr_op_attr(c->op, name)) {
    for (int i = 0; i < n; i++) out[i] = dflt;
    return NULL;
  }
  if (got != n) return hri_err(c, "attribute '%s' must have %d entries, got %d", name, n, got);
  return NULL;
}

hr_status hri_attr_int(const hri_ctx *c, const char *name, bool required, int64_t dflt, int64_t *out) {
  if (!required && !hr_op_attr(c->op, name)) {
    *out = dflt;
    return NULL;
  }
  return hr_op_attr_i64(c->op, name, out);
}

hr_status hri_attr_bool(const hri_ctx *c, const char *name, bool dflt, bool *out) {
  const hr_attr *a = hr_op_attr(c->op, name);
  *out = dflt;
  if (!a) return NULL;
  if (a->kind == HR_ATTR_BOOL) {
    *out = a->u.b;
    return NULL;
  }
  if (a->kind == HR_ATTR_INT && (a->u.i.value == 0 || a->u.i.value == 1)) {
    *out = a->u.i.value == 1;
    return NULL;
  }
  return hri_err(c, "attribute '%s' must be a boolean", name);
}

hr_status hri_attr_struct(const hri_ctx *c, const char *name, const hr_attr **out) {
  const hr_attr *a = hr_op_attr(c->op, name);
  if (!a) return hri_err(c, "missing attribute '%s'", name);
  if (a->kind != HR_ATTR_STRUCT && a->kind != HR_ATTR_DICT)
    return hri_err(c, "attribute '%s' must be a dimension-numbers attribute", name);
  *out = a;
  return NULL;
}

hr_status hri_field_list(const hri_ctx *c, const hr_attr *s, const char *sname, const char *field,
                         int64_t *out, int *n) {
  return hr_op_struct_list(c->op, s, sname, field, out, n);
}

hr_status hri_field_int(const hri_ctx *c, const hr_attr *s, const char *sname, const char *field,
                        bool required, int64_t dflt, int64_t *out) {
  *out = dflt;
  const hr_attr *f = hr_attr_field(s, field);
  if (!f) return required ? hri_err(c, "attribute '%s' lacks field '%s'", sname, field) : NULL;
  hr_status st = hr_attr_to_i64(f, out);
  if (!st) return NULL;
  hr_status_free(st);
  return hri_err(c, "attribute '%s', field '%s' must be an integer", sname, field);
}

/* Reads `n` integers from a DENSE attribute's data, checking that the data is large enough. */
static bool dense_ints(const hr_attr *a, int64_t n, int64_t *out) {
  size_t es = hr_dtype_size(a->u.dense.type.dtype);
  if (es == 0 || !a->u.dense.data) return n == 0;
  size_t need = a->u.dense.splat ? es : (size_t)n * es;
  if (a->u.dense.nbytes < need) return false;
  for (int64_t i = 0; i < n; i++)
    if (!hr_read_int_element(a->u.dense.type.dtype, hr_dense_element(a, i), &out[i])) return false;
  return true;
}

/* Reads a padding attribute written as a list of [low, high] pairs. */
static hr_status padding_from_pairs(const hri_ctx *c, const char *name, const hr_attr *a, int n, int64_t *lo,
                                    int64_t *hi) {
  if (a->u.array.n != n)
    return hri_err(c, "attribute '%s' must have %d [low, high] pairs, got %d", name, n, a->u.array.n);
  for (int i = 0; i < n; i++) {
    int64_t pair[2];
    int got;
    hr_status s = hr_attr_to_i64_list(a->u.array.items[i], pair, 2, &got);
    if (s || got != 2) {
      hr_status_free(s);
      return hri_err(c, "attribute '%s' entry %d must be a [low, high] pair", name, i);
    }
    lo[i] = pair[0];
    hi[i] = pair[1];
  }
  return NULL;
}

hr_status hri_attr_padding(const hri_ctx *c, const char *name, int n, int64_t *lo, int64_t *hi) {
  const hr_attr *a = hr_op_attr(c->op, name);
  for (int i = 0; i < n; i++) lo[i] = hi[i] = 0;
  if (!a) return NULL;
  if (a->kind == HR_ATTR_ARRAY) return padding_from_pairs(c, name, a, n, lo, hi);
  if (a->kind != HR_ATTR_DENSE || a->u.dense.type.kind != HR_TYPE_TENSOR)
    return hri_err(c, "attribute '%s' must be a tensor<%dx2xi64>", name, n);
  const hr_shape *s = &a->u.dense.type.shape;
  if (s->rank != 2 || s->dims[0] != n || s->dims[1] != 2)
    return hri_err(c, "attribute '%s' must have shape [%d, 2]", name, n);
  int64_t flat[2 * HR_MAX_RANK];
  if (n > HR_MAX_RANK || !dense_ints(a, 2 * (int64_t)n, flat))
    return hri_err(c, "attribute '%s' must hold integers", name);
  for (int i = 0; i < n; i++) {
    lo[i] = flat[2 * i];
    hi[i] = flat[2 * i + 1];
  }
  return NULL;
}

bool hri_contains(const int64_t *list, int n, int64_t v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return true;
  return false;
}

hr_status hri_check_axes(const hri_ctx *c, const char *what, const int64_t *axes, int n, int rank,
                         bool sorted) {
  for (int i = 0; i < n; i++) {
    if (axes[i] < 0 || axes[i] >= rank)
      return hri_err(c, "%s: dimension %lld is outside [0, %d)", what, (long long)axes[i], rank);
    if (hri_contains(axes, i, axes[i]))
      return hri_err(c, "%s: dimension %lld appears twice", what, (long long)axes[i]);
    if (sorted && i > 0 && axes[i] < axes[i - 1]) return hri_err(c, "%s must be sorted", what);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Operand values                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the `count` values of a runtime integer tensor whose shape must equal `shape`. */
static hr_status ints_from_tensor(const hri_ctx *c, const hr_tensor *t, const hr_shape *shape, int count,
                                  const char *what, hri_ints *out) {
  size_t es = hr_dtype_size(t->dtype);
  bool same = t->shape.rank == shape->rank;
  for (int d = 0; same && d < shape->rank; d++) same = t->shape.dims[d] == shape->dims[d];
  if (!same || !t->data || t->nbytes < es * (size_t)count)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "%s: runtime tensor does not match its type", what);
  for (int k = 0; k < count; k++)
    if (!hr_read_int_element(t->dtype, (const unsigned char *)t->data + (size_t)k * es, &out->v[k]))
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "%s: runtime tensor is not of integers", what);
  out->known = out->runtime = true;
  return NULL;
}

/* Reads the values from the operand's defining stablehlo.constant of shape `shape`, if any. */
static void ints_from_constant(const hri_ctx *c, int i, const hr_shape *shape, int count, hri_ints *out) {
  const hr_value *v = c->op->operands ? c->op->operands[i] : NULL;
  const hr_op *def = v ? v->def : NULL;
  if (!def || def->code != HR_OP_CONSTANT) return;
  const hr_attr *a = hr_op_attr(def, "value");
  if (!a || a->kind != HR_ATTR_DENSE || a->u.dense.type.kind != HR_TYPE_TENSOR) return;
  const hr_shape *cs = &a->u.dense.type.shape;
  if (cs->rank != shape->rank) return;
  for (int d = 0; d < cs->rank; d++)
    if (cs->dims[d] != shape->dims[d]) return;
  out->known = dense_ints(a, count, out->v);
}

/* Reads the values of integer operand `i` with static shape `shape` holding `count` entries. */
static hr_status read_ints(const hri_ctx *c, int i, const hr_shape *shape, int count, const char *what,
                           hri_ints *out) {
  const hr_tensor *t = c->values ? c->values[i] : NULL;
  if (t) return ints_from_tensor(c, t, shape, count, what, out);
  ints_from_constant(c, i, shape, count, out);
  return NULL;
}

hr_status hri_operand_ints(const hri_ctx *c, int i, const char *what, hri_ints *out) {
  memset(out, 0, sizeof *out);
  HR_TRY(hri_want_rank(c, i, 1, what));
  HR_TRY(hri_want_int_tensor(c, i, what));
  int64_t len = c->in[i].shape.dims[0];
  if (len > HR_MAX_RANK)
    return hri_err(c, "%s has %lld entries, more than %d", what, (long long)len, HR_MAX_RANK);
  out->n = (int)len;
  if (len == HR_DYNAMIC) return NULL;
  return read_ints(c, i, &c->in[i].shape, out->n, what, out);
}

hr_status hri_operand_scalar(const hri_ctx *c, int i, const char *what, hri_ints *out) {
  memset(out, 0, sizeof *out);
  HR_TRY(hri_want_rank(c, i, 0, what));
  HR_TRY(hri_want_int_tensor(c, i, what));
  out->n = 1;
  return read_ints(c, i, &c->in[i].shape, 1, what, out);
}

hr_status hri_operand_pairs(const hri_ctx *c, int i, const char *what, hri_ints *out) {
  memset(out, 0, sizeof *out);
  HR_TRY(hri_want_rank(c, i, 2, what));
  HR_TRY(hri_want_int_tensor(c, i, what));
  const hr_shape *s = &c->in[i].shape;
  if (s->dims[1] != 2 && s->dims[1] != HR_DYNAMIC) return hri_err(c, "%s must have shape [n, 2]", what);
  if (s->dims[0] > HR_MAX_RANK) return hri_err(c, "%s has more than %d rows", what, HR_MAX_RANK);
  out->n = (int)s->dims[0];
  if (s->dims[0] == HR_DYNAMIC || s->dims[1] == HR_DYNAMIC) return NULL;
  return read_ints(c, i, s, 2 * out->n, what, out);
}

hr_status hri_value_err(const hri_ctx *c, const hri_ints *v, const char *fmt, ...) {
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_op_error(c->op, v->runtime ? HR_OUT_OF_RANGE : HR_VERIFY_ERROR, "%s", msg);
}

/* ---------------------------------------------------------------------------------------------- */
/* Regions                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

hr_status hri_region_return(const hri_ctx *c, int r, const hr_op **ret) {
  const hr_block *b = &c->op->regions[r];
  const hr_op *last = b->n_ops > 0 && b->ops ? b->ops[b->n_ops - 1] : NULL;
  if (!last || last->code != HR_OP_RETURN) return hri_err(c, "region #%d must end with stablehlo.return", r);
  if (last->n_operands > 0 && !last->operands) return hri_err(c, "region #%d: malformed return", r);
  for (int i = 0; i < last->n_operands; i++)
    if (!last->operands[i]) return hri_err(c, "region #%d: malformed return", r);
  *ret = last;
  return NULL;
}

/* Whether `t` is a rank-0 tensor. */
static bool is_scalar(const hr_type *t) { return t->kind == HR_TYPE_TENSOR && t->shape.rank == 0; }

hr_status hri_reducer_region(const hri_ctx *c, int r, int n, int first, const char *what) {
  const hr_block *b = &c->op->regions[r];
  if (b->n_args != 2 * n || (b->n_args > 0 && !b->args))
    return hri_err(c, "%s must take %d arguments, got %d", what, 2 * n, b->n_args);
  for (int i = 0; i < n; i++) {
    const hr_type *acc = &b->args[i].type, *x = &b->args[n + i].type;
    hri_tbuf b1, b2;
    if (!is_scalar(acc) || !is_scalar(x) || acc->dtype != x->dtype)
      return hri_err(c, "%s arguments #%d and #%d must be rank-0 tensors of one type, got %s and %s", what, i,
                     n + i, hri_type_str(acc, &b1), hri_type_str(x, &b2));
    hr_dtype in = c->in[first + i].dtype;
    if (!hri_is_promotable(in, acc->dtype))
      return hri_err(c, "%s argument #%d has type %s, which %s does not promote to", what, i,
                     hri_type_str(acc, &b1), hr_dtype_name(in));
  }
  const hr_op *ret;
  HR_TRY(hri_region_return(c, r, &ret));
  if (ret->n_operands != n) return hri_err(c, "%s must return %d values, got %d", what, n, ret->n_operands);
  for (int i = 0; i < n; i++) {
    const hr_type *t = &ret->operands[i]->type;
    if (!is_scalar(t) || t->dtype != b->args[i].type.dtype) {
      hri_tbuf b1, b2;
      return hri_err(c, "%s result #%d has type %s, expected %s", what, i, hri_type_str(t, &b1),
                     hri_type_str(&b->args[i].type, &b2));
    }
  }
  return NULL;
}

hr_dtype hri_region_arg_dtype(const hri_ctx *c, int r, int i) { return c->op->regions[r].args[i].type.dtype; }

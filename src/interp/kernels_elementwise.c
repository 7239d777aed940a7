/* The elementwise kernel table and the helpers every elementwise kernel shares. */
#include <stdio.h>

#include "interp/elementwise_internal.h"

/* Elements per parallel chunk: small enough to spread a 1M-element op over the pool, large enough
 * that claiming a chunk costs little next to computing it. */
enum { EW_PARALLEL_CHUNK = 1 << 15 };

ew_kind ew_kind_of(hr_dtype t) {
  if (t == HR_I1) return EW_BOOL;
  if (hr_dtype_is_signed_int(t)) return EW_SINT;
  if (hr_dtype_is_unsigned_int(t)) return EW_UINT;
  if (hr_dtype_is_real_float(t)) return EW_FLOAT;
  if (hr_dtype_is_complex(t)) return EW_COMPLEX;
  return 0;
}

bool ew_same_shape(const hr_shape *a, const hr_shape *b) {
  if (a->rank != b->rank) return false;
  for (int d = 0; d < a->rank; d++)
    if (a->dims[d] != b->dims[d]) return false;
  return true;
}

/* Appends "AxBxC" (or "scalar") for a shape to buf, for error messages. */
static void format_shape(const hr_shape *s, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = '\0';
  if (s->rank == 0) {
    snprintf(buf, cap, "scalar");
    return;
  }
  for (int d = 0; d < s->rank && len < cap; d++) {
    int w = snprintf(buf + len, cap - len, d ? "x%lld" : "%lld", (long long)s->dims[d]);
    if (w < 0) return;
    len += (size_t)w;
  }
}

hr_status ew_check_arity(const hr_op *op, int n_operands) {
  if (op->n_operands == n_operands && op->n_results == 1) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "expected %d operands and 1 result, have %d and %d",
                     n_operands, op->n_operands, op->n_results);
}

hr_status ew_check_operand(const hr_op *op, hr_tensor *const *operands, int index,
                           hr_dtype dtype, const hr_tensor *result, bool scalar_ok) {
  const hr_tensor *t = operands[index];
  if (t->dtype != dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "operand %d has element type %s, expected %s", index,
                       hr_dtype_name(t->dtype), hr_dtype_name(dtype));
  if (ew_same_shape(&t->shape, &result->shape) || (scalar_ok && t->shape.rank == 0)) return NULL;
  char have[HR_MAX_RANK * 21 + 8], want[HR_MAX_RANK * 21 + 8];
  format_shape(&t->shape, have, sizeof have);
  format_shape(&result->shape, want, sizeof want);
  return hr_op_error(op, HR_VERIFY_ERROR, "operand %d has shape %s, expected %s%s", index, have,
                     want, scalar_ok ? " or a scalar" : "");
}

hr_status ew_check_kind(const hr_op *op, hr_dtype t, unsigned kinds) {
  if (ew_kind_of(t) & kinds) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "element type %s is not supported by this op",
                     hr_dtype_name(t));
}

void ew_parallel(hr_interp *in, int64_t n, hr_parallel_fn fn, void *ctx) {
  hr_parallel_for(in ? in->pool : NULL, n, EW_PARALLEL_CHUNK, fn, ctx);
}

const hr_kernel hr_kernels_elementwise[] = {
    {HR_OP_ABS, ew_kernel_abs},
    {HR_OP_ADD, ew_kernel_binary},
    {HR_OP_AND, ew_kernel_binary},
    {HR_OP_ATAN2, ew_kernel_binary},
    {HR_OP_BITCAST_CONVERT, ew_kernel_bitcast_convert},
    {HR_OP_CBRT, ew_kernel_unary},
    {HR_OP_CEIL, ew_kernel_unary},
    {HR_OP_CLAMP, ew_kernel_clamp},
    {HR_OP_CLZ, ew_kernel_unary},
    {HR_OP_COMPARE, ew_kernel_compare},
    {HR_OP_COMPLEX, ew_kernel_complex},
    {HR_OP_CONVERT, ew_kernel_convert},
    {HR_OP_COSINE, ew_kernel_unary},
    {HR_OP_DIVIDE, ew_kernel_binary},
    {HR_OP_EXPONENTIAL, ew_kernel_unary},
    {HR_OP_EXPONENTIAL_MINUS_ONE, ew_kernel_unary},
    {HR_OP_FLOOR, ew_kernel_unary},
    {HR_OP_IMAG, ew_kernel_real_imag},
    {HR_OP_IS_FINITE, ew_kernel_float_class},
    {HR_OP_LOG, ew_kernel_unary},
    {HR_OP_LOG_PLUS_ONE, ew_kernel_unary},
    {HR_OP_LOGISTIC, ew_kernel_unary},
    {HR_OP_MAXIMUM, ew_kernel_binary},
    {HR_OP_MINIMUM, ew_kernel_binary},
    {HR_OP_MULTIPLY, ew_kernel_binary},
    {HR_OP_NEGATE, ew_kernel_unary},
    {HR_OP_NOT, ew_kernel_unary},
    {HR_OP_OR, ew_kernel_binary},
    {HR_OP_POPCNT, ew_kernel_unary},
    {HR_OP_POWER, ew_kernel_binary},
    {HR_OP_REAL, ew_kernel_real_imag},
    {HR_OP_REDUCE_PRECISION, ew_kernel_reduce_precision},
    {HR_OP_REMAINDER, ew_kernel_binary},
    {HR_OP_ROUND_NEAREST_AFZ, ew_kernel_unary},
    {HR_OP_ROUND_NEAREST_EVEN, ew_kernel_unary},
    {HR_OP_RSQRT, ew_kernel_unary},
    {HR_OP_SELECT, ew_kernel_select},
    {HR_OP_SHIFT_LEFT, ew_kernel_binary},
    {HR_OP_SHIFT_RIGHT_ARITHMETIC, ew_kernel_binary},
    {HR_OP_SHIFT_RIGHT_LOGICAL, ew_kernel_binary},
    {HR_OP_SIGN, ew_kernel_unary},
    {HR_OP_SINE, ew_kernel_unary},
    {HR_OP_SQRT, ew_kernel_unary},
    {HR_OP_SUBTRACT, ew_kernel_binary},
    {HR_OP_TAN, ew_kernel_unary},
    {HR_OP_TANH, ew_kernel_unary},
    {HR_OP_XOR, ew_kernel_binary},
    {HR_OP_CHLO_ACOS, ew_kernel_unary},
    {HR_OP_CHLO_ASIN_ACOS_KERNEL, ew_kernel_unary},
    {HR_OP_CHLO_ACOSH, ew_kernel_unary},
    {HR_OP_CHLO_ASIN, ew_kernel_unary},
    {HR_OP_CHLO_ASINH, ew_kernel_unary},
    {HR_OP_CHLO_ATAN, ew_kernel_unary},
    {HR_OP_CHLO_ATANH, ew_kernel_unary},
    {HR_OP_CHLO_BESSEL_I1E, ew_kernel_unary},
    {HR_OP_CHLO_CONJ, ew_kernel_unary},
    {HR_OP_CHLO_COSH, ew_kernel_unary},
    {HR_OP_CHLO_DIGAMMA, ew_kernel_unary},
    {HR_OP_CHLO_ERF, ew_kernel_unary},
    {HR_OP_CHLO_ERF_INV, ew_kernel_unary},
    {HR_OP_CHLO_ERFC, ew_kernel_unary},
    {HR_OP_CHLO_IS_INF, ew_kernel_float_class},
    {HR_OP_CHLO_IS_NEG_INF, ew_kernel_float_class},
    {HR_OP_CHLO_IS_POS_INF, ew_kernel_float_class},
    {HR_OP_CHLO_LGAMMA, ew_kernel_unary},
    {HR_OP_CHLO_MULHI, ew_kernel_binary},
    {HR_OP_CHLO_NEXT_AFTER, ew_kernel_next_after},
    {HR_OP_CHLO_POLYGAMMA, ew_kernel_binary},
    {HR_OP_CHLO_SINH, ew_kernel_unary},
    {HR_OP_CHLO_SQUARE, ew_kernel_unary},
    {HR_OP_CHLO_TAN, ew_kernel_unary},
    {HR_OP_CHLO_ZETA, ew_kernel_binary},
    {HR_OP_COUNT, NULL},
};

/* Ops on the parts or the bit patterns of floating-point values: complex, real, imag, complex abs,
 * is_finite / is_inf / is_pos_inf / is_neg_inf, next_after and reduce_precision. */
#include <math.h>
#include <string.h>

#include "interp/elementwise_internal.h"

/* The real component type of a complex element type, or HR_DTYPE_INVALID. */
static hr_dtype component_of(hr_dtype t) {
  if (t == HR_C64) return HR_F32;
  if (t == HR_C128) return HR_F64;
  return HR_DTYPE_INVALID;
}

/* ---------------------------------------------------------------------------------------------- */
/* complex, real, imag, abs                                                                        */
/* ---------------------------------------------------------------------------------------------- */

hr_status ew_kernel_complex(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results) {
  (void)in;
  HR_TRY(ew_check_arity(op, 2));
  hr_tensor *r = results[0];
  hr_dtype part = component_of(r->dtype);
  if (part == HR_DTYPE_INVALID)
    return hr_op_error(op, HR_VERIFY_ERROR, "result element type %s is not complex",
                       hr_dtype_name(r->dtype));
  HR_TRY(ew_check_operand(op, operands, 0, part, r, false));
  HR_TRY(ew_check_operand(op, operands, 1, part, r, false));
  int64_t n = hr_tensor_num_elements(r);
  for (int64_t i = 0; i < n; i++) {
    hr_c128 c = {hr_load_float(part, operands[0]->data, i), hr_load_float(part, operands[1]->data, i)};
    hr_store_complex(r->dtype, r->data, i, c);
  }
  return NULL;
}

/* Copies the real (offset 0) or imaginary (offset 1) components of a complex tensor. */
static void copy_component(const hr_tensor *x, hr_tensor *r, int offset) {
  int64_t n = hr_tensor_num_elements(r);
  if (r->dtype == HR_F32) {
    const float *src = x->data;
    float *dst = r->data;
    for (int64_t i = 0; i < n; i++) dst[i] = src[2 * i + offset];
  } else {
    const double *src = x->data;
    double *dst = r->data;
    for (int64_t i = 0; i < n; i++) dst[i] = src[2 * i + offset];
  }
}

/* real and imag: components of complex operands; for real operands the value itself and zero. */
hr_status ew_kernel_real_imag(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                              hr_tensor **results) {
  (void)in;
  HR_TRY(ew_check_arity(op, 1));
  const hr_tensor *x = operands[0];
  hr_tensor *r = results[0];
  HR_TRY(ew_check_kind(op, x->dtype, EW_FLOAT | EW_COMPLEX));
  hr_dtype part = hr_dtype_is_complex(x->dtype) ? component_of(x->dtype) : x->dtype;
  if (r->dtype != part)
    return hr_op_error(op, HR_VERIFY_ERROR, "result element type %s should be %s",
                       hr_dtype_name(r->dtype), hr_dtype_name(part));
  HR_TRY(ew_check_operand(op, operands, 0, x->dtype, r, false));
  bool imag = op->code == HR_OP_IMAG;
  if (hr_dtype_is_complex(x->dtype))
    copy_component(x, r, imag ? 1 : 0);
  else if (!imag)
    memcpy(r->data, x->data, r->nbytes);
  else
    memset(r->data, 0, r->nbytes); /* +0 in every float format */
  return NULL;
}

/* abs: the modulus for complex operands (a real result); otherwise the same-type unary op. */
hr_status ew_kernel_abs(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                        hr_tensor **results) {
  HR_TRY(ew_check_arity(op, 1));
  const hr_tensor *x = operands[0];
  hr_tensor *r = results[0];
  if (!hr_dtype_is_complex(x->dtype)) return ew_kernel_unary(in, op, operands, results);
  if (r->dtype != component_of(x->dtype))
    return hr_op_error(op, HR_VERIFY_ERROR, "result element type %s should be %s",
                       hr_dtype_name(r->dtype), hr_dtype_name(component_of(x->dtype)));
  HR_TRY(ew_check_operand(op, operands, 0, x->dtype, r, false));
  int64_t n = hr_tensor_num_elements(r);
  for (int64_t i = 0; i < n; i++)
    hr_store_float(r->dtype, r->data, i, ew_complex_abs(hr_load_complex(x->dtype, x->data, i)));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* is_finite, is_inf, is_pos_inf, is_neg_inf                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* The class test of a float-classification op. */
static bool float_class_holds(hr_opcode code, double v) {
  switch (code) {
    case HR_OP_IS_FINITE: return isfinite(v);
    case HR_OP_CHLO_IS_INF: return isinf(v);
    case HR_OP_CHLO_IS_POS_INF: return v == INFINITY;
    default: return v == -INFINITY;
  }
}

hr_status ew_kernel_float_class(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                hr_tensor **results) {
  (void)in;
  HR_TRY(ew_check_arity(op, 1));
  const hr_tensor *x = operands[0];
  hr_tensor *r = results[0];
  HR_TRY(ew_check_kind(op, x->dtype, EW_FLOAT));
  if (r->dtype != HR_I1)
    return hr_op_error(op, HR_VERIFY_ERROR, "result element type must be i1, not %s",
                       hr_dtype_name(r->dtype));
  HR_TRY(ew_check_operand(op, operands, 0, x->dtype, r, false));
  int64_t n = hr_tensor_num_elements(r);
  uint8_t *o = r->data;
  for (int64_t i = 0; i < n; i++) o[i] = float_class_holds(op->code, hr_load_float(x->dtype, x->data, i));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Bit-level float helpers                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Layout of a real float format. */
typedef struct float_format {
  int bits, exponent_bits, mantissa_bits;
} float_format;

static float_format format_of(hr_dtype t) {
  switch (t) {
    case HR_F16: return (float_format){16, 5, 10};
    case HR_BF16: return (float_format){16, 8, 7};
    case HR_F32: return (float_format){32, 8, 23};
    default: return (float_format){64, 11, 52};
  }
}

static uint64_t load_float_bits(hr_dtype t, const void *data, int64_t i) {
  switch (t) {
    case HR_F16: case HR_BF16: return ((const uint16_t *)data)[i];
    case HR_F32: return ((const uint32_t *)data)[i];
    default: return ((const uint64_t *)data)[i];
  }
}

static void store_float_bits(hr_dtype t, void *data, int64_t i, uint64_t v) {
  switch (t) {
    case HR_F16: case HR_BF16: ((uint16_t *)data)[i] = (uint16_t)v; break;
    case HR_F32: ((uint32_t *)data)[i] = (uint32_t)v; break;
    default: ((uint64_t *)data)[i] = v; break;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* next_after                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* The bits of the representable neighbour of x in the direction of y, in format f; a quiet NaN
 * when either is NaN, y when they are equal (so next_after(0, -0) is -0). */
static uint64_t next_after_bits(float_format f, uint64_t xb, double x, uint64_t yb, double y) {
  uint64_t sign = (uint64_t)1 << (f.bits - 1);
  if (isnan(x) || isnan(y)) {
    uint64_t exponent = ew_low_mask(f.exponent_bits) << f.mantissa_bits;
    return exponent | ((uint64_t)1 << (f.mantissa_bits - 1));
  }
  if (x == y) return yb;
  if (x == 0.0) return (yb & sign) | 1u; /* the smallest subnormal toward y */
  bool away_from_zero = (x < y) == (x > 0.0);
  return away_from_zero ? xb + 1u : xb - 1u; /* sign-magnitude: the magnitude steps by one ulp */
}

hr_status ew_kernel_next_after(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                               hr_tensor **results) {
  (void)in;
  HR_TRY(ew_check_arity(op, 2));
  hr_tensor *r = results[0];
  HR_TRY(ew_check_kind(op, r->dtype, EW_FLOAT));
  if (hr_dtype_is_narrow_float(r->dtype)) /* their NaN, -0 and infinity encodings vary */
    return hr_op_error(op, HR_UNIMPLEMENTED, "next_after is not implemented for %s", hr_dtype_name(r->dtype));
  HR_TRY(ew_check_operand(op, operands, 0, r->dtype, r, false));
  HR_TRY(ew_check_operand(op, operands, 1, r->dtype, r, false));
  float_format f = format_of(r->dtype);
  const void *x = operands[0]->data, *y = operands[1]->data;
  int64_t n = hr_tensor_num_elements(r);
  for (int64_t i = 0; i < n; i++) {
    uint64_t bits = next_after_bits(f, load_float_bits(r->dtype, x, i), hr_load_float(r->dtype, x, i),
                                    load_float_bits(r->dtype, y, i), hr_load_float(r->dtype, y, i));
    store_float_bits(r->dtype, r->data, i, bits);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* reduce_precision                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* Rounds the bits of a value in format f to `mantissa_bits` (nearest, ties to even) and then to
 * the exponent range of `exponent_bits` (overflow to infinity, underflow to zero, keeping the
 * sign). NaNs stay NaN, or become infinity when no mantissa bit is left. */
static uint64_t reduce_precision_bits(float_format f, uint64_t bits, int64_t exponent_bits,
                                      int64_t mantissa_bits) {
  uint64_t sign = (uint64_t)1 << (f.bits - 1);
  uint64_t exponent_mask = ew_low_mask(f.exponent_bits) << f.mantissa_bits;
  bool is_nan = (bits & ~sign) > exponent_mask;
  uint64_t v = bits;
  if (mantissa_bits < f.mantissa_bits) {
    int shift = f.mantissa_bits - (int)mantissa_bits;
    uint64_t last_kept = (v >> shift) & 1u;
    uint64_t bias = (((uint64_t)1 << (shift - 1)) - 1u) + last_kept;
    v = (v + bias) & ~ew_low_mask(shift); /* a carry into the exponent is the right result */
    v &= ew_low_mask(f.bits);
  }
  if (exponent_bits < f.exponent_bits) {
    uint64_t src_bias = ew_low_mask(f.exponent_bits - 1);
    uint64_t dst_bias = ew_low_mask((int)exponent_bits - 1);
    uint64_t exponent = v & exponent_mask;
    if (exponent > (src_bias + dst_bias) << f.mantissa_bits)
      v = (v & sign) | exponent_mask;
    else if (exponent <= (src_bias - dst_bias) << f.mantissa_bits)
      v &= sign;
  }
  if (is_nan) return mantissa_bits > 0 ? bits : exponent_mask;
  return v;
}

/* The exponent field width of a narrow float type (f8E8M0FNU: all 8 bits). */
static int narrow_exponent_bits(hr_dtype t) {
  switch (t) {
    case HR_F8E5M2: case HR_F8E5M2FNUZ: return 5;
    case HR_F8E3M4: case HR_F6E3M2FN: return 3;
    case HR_F8E8M0FNU: case HR_TF32: return 8;
    case HR_F4E2M1FN: case HR_F6E2M3FN: return 2;
    default: return 4; /* the f8E4M3 types */
  }
}

/* reduce_precision on a narrow float type (f8/f6/f4, tf32), by value: each element's exact double
 * reduced as an f64 (the bit rule above: the result's value does not depend on the source
 * format's width, only on its exponent and mantissa), then stored in the type (exact unless the
 * result is beyond the type's range, which then rounds as a convert does: infinity, NaN or the
 * largest finite value by the type's rules). The exponent range is reduced only when
 * `exponent_bits` is below the type's own, as the bit rule does for the other types (so that the
 * type's own format is the identity, its subnormals kept). This is the spec's "convert to a format
 * of exponent_bits/mantissa_bits and back" (with that format's subnormals flushed, as for every
 * other type). The reference interpreter applies the bit rule to the narrow type's own bits
 * instead, which agrees for normal values of the IEEE-like types (f8E5M2, f8E4M3, f8E3M4, tf32) but
 * carries into the sign bit or yields an arbitrary finite value as "infinity" where the all-ones
 * exponent is finite (FN, FNUZ, f4/f6, E8M0). */
static void reduce_precision_narrow(hr_dtype t, const void *x, void *out, int64_t n, int64_t exponent_bits,
                                    int64_t mantissa_bits) {
  float_format f64 = format_of(HR_F64);
  if (exponent_bits >= narrow_exponent_bits(t)) exponent_bits = f64.exponent_bits;
  for (int64_t i = 0; i < n; i++) {
    uint64_t bits = hr_f64_bits(hr_load_float(t, x, i));
    hr_store_float(t, out, i, hr_bits_f64(reduce_precision_bits(f64, bits, exponent_bits, mantissa_bits)));
  }
}

hr_status ew_kernel_reduce_precision(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                     hr_tensor **results) {
  (void)in;
  HR_TRY(ew_check_arity(op, 1));
  hr_tensor *r = results[0];
  HR_TRY(ew_check_kind(op, r->dtype, EW_FLOAT));
  HR_TRY(ew_check_operand(op, operands, 0, r->dtype, r, false));
  int64_t exponent_bits, mantissa_bits;
  HR_TRY(hr_op_attr_i64(op, "exponent_bits", &exponent_bits));
  HR_TRY(hr_op_attr_i64(op, "mantissa_bits", &mantissa_bits));
  if (exponent_bits < 1 || mantissa_bits < 0)
    return hr_op_error(op, HR_VERIFY_ERROR,
                       "exponent_bits must be >= 1 and mantissa_bits >= 0 (have %lld, %lld)",
                       (long long)exponent_bits, (long long)mantissa_bits);
  const void *x = operands[0]->data;
  int64_t n = hr_tensor_num_elements(r);
  if (hr_dtype_is_narrow_float(r->dtype)) {
    reduce_precision_narrow(r->dtype, x, r->data, n, exponent_bits, mantissa_bits);
    return NULL;
  }
  float_format f = format_of(r->dtype);
  for (int64_t i = 0; i < n; i++)
    store_float_bits(r->dtype, r->data, i,
                     reduce_precision_bits(f, load_float_bits(r->dtype, x, i), exponent_bits,
                                           mantissa_bits));
  return NULL;
}

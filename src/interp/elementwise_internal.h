/* Shared declarations of the elementwise kernel group (kernels_elementwise*.c).
 *
 * The group is organised in layers:
 *   scalar math   one element at a time through wide C types: real floats as double, complex as
 *                 hr_c128, integers as uint64_t holding the value sign- or zero-extended to 64 bits
 *                 (kernels_elementwise_int.c, _real.c, _complex.c, special.c);
 *   op tables     per opcode, the scalar functions for each element kind and the kinds the op
 *                 accepts (kernels_elementwise_arith.c);
 *   kernels       validate operands against the result, then run a loop over element ranges,
 *                 in parallel for large tensors (every kernels_elementwise*.c file);
 *   kernel table  hr_kernels_elementwise (kernels_elementwise.c). */
#ifndef HLORUN_INTERP_ELEMENTWISE_INTERNAL_H
#define HLORUN_INTERP_ELEMENTWISE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/elem.h"
#include "interp/interp.h"

/* ---------------------------------------------------------------------------------------------- */
/* Element kinds                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

typedef enum ew_kind {
  EW_BOOL = 1u << 0,    /* i1 */
  EW_SINT = 1u << 1,    /* i2 .. i64 */
  EW_UINT = 1u << 2,    /* ui2 .. ui64 */
  EW_FLOAT = 1u << 3,   /* f16, bf16, f32, f64 and the narrow types (f8*, f6*, f4*, tf32) */
  EW_COMPLEX = 1u << 4, /* complex<f32>, complex<f64> */
} ew_kind;

#define EW_INT (EW_SINT | EW_UINT)
#define EW_NUMERIC (EW_INT | EW_FLOAT | EW_COMPLEX)
#define EW_ANY (EW_BOOL | EW_NUMERIC)

/* The kind of a valid element type; 0 for HR_DTYPE_INVALID and out-of-range values. */
ew_kind ew_kind_of(hr_dtype t);

/* Width and signedness of an integer (or i1) element type. */
typedef struct ew_int_type {
  int bits;       /* 1 .. 64 */
  bool is_signed; /* false for i1 and ui* */
} ew_int_type;

static inline ew_int_type ew_int_type_of(hr_dtype t) {
  ew_int_type it = {hr_dtype_bits(t), hr_dtype_is_signed_int(t)};
  return it;
}

/* All-ones in the low `bits` bits (0 <= bits <= 64). */
static inline uint64_t ew_low_mask(int bits) {
  return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1u;
}

/* Sign-extends the low `bits` bits of v to 64 bits, without signed overflow. */
static inline uint64_t ew_sign_extend(uint64_t v, int bits) {
  if (bits >= 64) return v;
  uint64_t sign = (uint64_t)1 << (bits - 1);
  v &= ew_low_mask(bits);
  return (v ^ sign) - sign;
}

/* The signed value of a two's complement bit pattern, without implementation-defined
 * conversions. */
static inline int64_t ew_as_signed(uint64_t v) {
  if (v <= (uint64_t)INT64_MAX) return (int64_t)v;
  return -(int64_t)(~v) - 1;
}

/* The element as uint64_t holding the value sign- or zero-extended (i1 as 0/1). */
static inline uint64_t ew_load_bits(hr_dtype t, const void *data, int64_t i) {
  return (uint64_t)hr_load_int(t, data, i);
}

/* Stores the low bits of v as element i (sub-byte types sign- or zero-extended to their byte). */
static inline void ew_store_bits(hr_dtype t, void *data, int64_t i, uint64_t v) {
  switch (t) {
    case HR_I2: case HR_I4: ((uint8_t *)data)[i] = (uint8_t)ew_sign_extend(v, hr_dtype_bits(t)); break;
    case HR_I1: case HR_U2: case HR_U4:
      ((uint8_t *)data)[i] = (uint8_t)(v & ew_low_mask(hr_dtype_bits(t)));
      break;
    case HR_I8: case HR_U8: ((uint8_t *)data)[i] = (uint8_t)v; break;
    case HR_I16: case HR_U16: ((uint16_t *)data)[i] = (uint16_t)v; break;
    case HR_I32: case HR_U32: ((uint32_t *)data)[i] = (uint32_t)v; break;
    case HR_I64: case HR_U64: ((uint64_t *)data)[i] = v; break;
    default: break;
  }
}

/* Rounds a double result to the precision of a real element type and stores it. f16 and bf16
 * results are rounded to f32 first: XLA computes 16-bit floats in f32 and rounds back. The narrow
 * floats (f8/f6/f4, tf32) are rounded once from the double, by their own rules (base/minifloat.h):
 * StableHLO's reference interpreter computes + - * / in APFloat of the type, each result correctly
 * rounded, and the double result of operands of at most p = 11 significant bits rounded to p bits
 * is that same result, because double's 53 >= 2p + 2 bits make the second rounding innocuous
 * (sqrt likewise); the transcendental functions it computes in double and rounds, as here. */
static inline void ew_store_real(hr_dtype t, void *data, int64_t i, double v) {
  if (t == HR_F16)
    ((uint16_t *)data)[i] = hr_f32_to_f16((float)v);
  else if (t == HR_BF16)
    ((uint16_t *)data)[i] = hr_f32_to_bf16((float)v);
  else
    hr_store_float(t, data, i, v);
}

/* ---------------------------------------------------------------------------------------------- */
/* Scalar functions of each kind                                                                   */
/* ---------------------------------------------------------------------------------------------- */

typedef double (*ew_real_unary_fn)(double x);
typedef double (*ew_real_binary_fn)(double x, double y);
typedef hr_c128 (*ew_complex_unary_fn)(hr_c128 z);
typedef hr_c128 (*ew_complex_binary_fn)(hr_c128 a, hr_c128 b);
/* Integer functions take and return values sign- or zero-extended per `t`; only the low t.bits
 * bits of the result are kept. */
typedef uint64_t (*ew_int_unary_fn)(uint64_t x, ew_int_type t);
typedef uint64_t (*ew_int_binary_fn)(uint64_t x, uint64_t y, ew_int_type t);

/* The scalar functions implementing one unary op; NULL where the op does not take that kind. */
typedef struct ew_unary_op {
  hr_opcode code;
  unsigned kinds; /* ew_kind mask of accepted element types */
  ew_real_unary_fn real;
  ew_complex_unary_fn cplx;
  ew_int_unary_fn integer; /* also used for i1 when kinds has EW_BOOL */
} ew_unary_op;

/* The scalar functions implementing one binary op. */
typedef struct ew_binary_op {
  hr_opcode code;
  unsigned kinds;
  ew_real_binary_fn real;
  ew_complex_binary_fn cplx;
  ew_int_binary_fn integer;
} ew_binary_op;

/* Descriptor lookups (kernels_elementwise_arith.c); NULL when `code` is not in the table. */
const ew_unary_op *ew_find_unary(hr_opcode code);
const ew_binary_op *ew_find_binary(hr_opcode code);

/* Applies a binary descriptor to element ia of a, element ib of b, storing element io of out; all
 * three have element type t, whose kind the descriptor accepts. */
void ew_apply_binary(const ew_binary_op *d, hr_dtype t, const void *a, int64_t ia, const void *b,
                     int64_t ib, void *out, int64_t io);

/* Integer scalar functions (kernels_elementwise_int.c). */
uint64_t ew_int_abs(uint64_t x, ew_int_type t);
uint64_t ew_int_negate(uint64_t x, ew_int_type t);
uint64_t ew_int_not(uint64_t x, ew_int_type t);
uint64_t ew_int_popcnt(uint64_t x, ew_int_type t);
uint64_t ew_int_clz(uint64_t x, ew_int_type t);
uint64_t ew_int_sign(uint64_t x, ew_int_type t);
uint64_t ew_int_add(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_subtract(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_multiply(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_mulhi(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_divide(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_remainder(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_maximum(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_minimum(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_and(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_or(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_xor(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_shift_left(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_shift_right_logical(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_shift_right_arithmetic(uint64_t x, uint64_t y, ew_int_type t);
uint64_t ew_int_power(uint64_t x, uint64_t y, ew_int_type t);
/* Compares two extended values as signed or unsigned: -1, 0 or 1. */
int ew_int_compare(uint64_t x, uint64_t y, bool is_signed);

/* Real scalar functions that are not plain libm calls (kernels_elementwise_real.c). */
double ew_real_add(double x, double y);
double ew_real_subtract(double x, double y);
double ew_real_multiply(double x, double y);
double ew_real_divide(double x, double y);
double ew_real_maximum(double x, double y);
double ew_real_minimum(double x, double y);
double ew_real_negate(double x);
double ew_real_sign(double x);
double ew_real_rsqrt(double x);
double ew_real_logistic(double x);
double ew_real_round_even(double x);
double ew_real_square(double x);
double ew_real_identity(double x);

/* Complex scalar functions (kernels_elementwise_complex.c). */
hr_c128 ew_complex_add(hr_c128 a, hr_c128 b);
hr_c128 ew_complex_subtract(hr_c128 a, hr_c128 b);
hr_c128 ew_complex_multiply(hr_c128 a, hr_c128 b);
hr_c128 ew_complex_divide(hr_c128 a, hr_c128 b);
hr_c128 ew_complex_power(hr_c128 a, hr_c128 b);
hr_c128 ew_complex_atan2(hr_c128 y, hr_c128 x);
hr_c128 ew_complex_maximum(hr_c128 a, hr_c128 b);
hr_c128 ew_complex_minimum(hr_c128 a, hr_c128 b);
hr_c128 ew_complex_negate(hr_c128 z);
hr_c128 ew_complex_sign(hr_c128 z);
hr_c128 ew_complex_exp(hr_c128 z);
hr_c128 ew_complex_expm1(hr_c128 z);
hr_c128 ew_complex_log(hr_c128 z);
hr_c128 ew_complex_log1p(hr_c128 z);
hr_c128 ew_complex_sqrt(hr_c128 z);
hr_c128 ew_complex_rsqrt(hr_c128 z);
hr_c128 ew_complex_cbrt(hr_c128 z);
hr_c128 ew_complex_sin(hr_c128 z);
hr_c128 ew_complex_cos(hr_c128 z);
hr_c128 ew_complex_tan(hr_c128 z);
hr_c128 ew_complex_tanh(hr_c128 z);
hr_c128 ew_complex_logistic(hr_c128 z);
hr_c128 ew_complex_sinh(hr_c128 z);
hr_c128 ew_complex_cosh(hr_c128 z);
hr_c128 ew_complex_asin(hr_c128 z);
hr_c128 ew_complex_acos(hr_c128 z);
hr_c128 ew_complex_atan(hr_c128 z);
hr_c128 ew_complex_asinh(hr_c128 z);
hr_c128 ew_complex_acosh(hr_c128 z);
hr_c128 ew_complex_atanh(hr_c128 z);
hr_c128 ew_complex_asin_acos_kernel(hr_c128 z);
hr_c128 ew_complex_square(hr_c128 z);
hr_c128 ew_complex_conj(hr_c128 z);
/* |z| without undue overflow or underflow. */
double ew_complex_abs(hr_c128 z);
/* Lexicographic comparison of (re, im): -1, 0 or 1; `unordered` set when a NaN is involved. */
int ew_complex_compare(hr_c128 a, hr_c128 b, bool *unordered);

/* ---------------------------------------------------------------------------------------------- */
/* Kernel helpers (kernels_elementwise.c)                                                          */
/* ---------------------------------------------------------------------------------------------- */

bool ew_same_shape(const hr_shape *a, const hr_shape *b);

/* Checks that the op has `n_operands` operands and one result, before any of them is touched. */
hr_status ew_check_arity(const hr_op *op, int n_operands);

/* Checks that operand `index` of `op` has element type `dtype` and the shape of `result` (or is a
 * scalar when `scalar_ok`). Errors name the op. */
hr_status ew_check_operand(const hr_op *op, hr_tensor *const *operands, int index,
                           hr_dtype dtype, const hr_tensor *result, bool scalar_ok);

/* Checks that the op's element type `t` has a kind in `kinds`. */
hr_status ew_check_kind(const hr_op *op, hr_dtype t, unsigned kinds);

/* Runs fn over [0, n) element ranges, on the interpreter's thread pool for large n. */
void ew_parallel(hr_interp *in, int64_t n, hr_parallel_fn fn, void *ctx);

/* ---------------------------------------------------------------------------------------------- */
/* Kernels, grouped by file                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* kernels_elementwise_arith.c: ops whose result type equals the operand type. */
hr_status ew_kernel_unary(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                          hr_tensor **results);
hr_status ew_kernel_binary(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                           hr_tensor **results);

/* kernels_elementwise_select.c */
hr_status ew_kernel_compare(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results);
hr_status ew_kernel_select(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                           hr_tensor **results);
hr_status ew_kernel_clamp(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                          hr_tensor **results);

/* kernels_elementwise_convert.c */
hr_status ew_kernel_convert(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results);
hr_status ew_kernel_bitcast_convert(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                    hr_tensor **results);

/* kernels_elementwise_float.c: ops on the parts or the bits of floating-point values. */
hr_status ew_kernel_complex(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results);
hr_status ew_kernel_real_imag(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                              hr_tensor **results);
hr_status ew_kernel_abs(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                        hr_tensor **results);
hr_status ew_kernel_float_class(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                hr_tensor **results);
hr_status ew_kernel_next_after(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                               hr_tensor **results);
hr_status ew_kernel_reduce_precision(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                     hr_tensor **results);

#endif /* HLORUN_INTERP_ELEMENTWISE_INTERNAL_H */

/* Unary and binary elementwise ops whose result has the operand type: the per-op tables of scalar
 * functions, the kernels that apply them, fast loops for the common f32/f64/i32/i64 cases, and
 * hr_elementwise_binary_scalar for other kernel groups. */
#include <math.h>

#include "interp/elementwise.h"
#include "interp/elementwise_internal.h"
#include "interp/special.h"

/* ---------------------------------------------------------------------------------------------- */
/* Op tables                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

#define FC (EW_FLOAT | EW_COMPLEX)

static const ew_unary_op kUnaryOps[] = {
    {HR_OP_ABS, EW_INT | EW_FLOAT, fabs, NULL, ew_int_abs},
    {HR_OP_CBRT, FC, cbrt, ew_complex_cbrt, NULL},
    {HR_OP_CEIL, EW_FLOAT, ceil, NULL, NULL},
    {HR_OP_CLZ, EW_INT, NULL, NULL, ew_int_clz},
    {HR_OP_COSINE, FC, cos, ew_complex_cos, NULL},
    {HR_OP_EXPONENTIAL, FC, exp, ew_complex_exp, NULL},
    {HR_OP_EXPONENTIAL_MINUS_ONE, FC, expm1, ew_complex_expm1, NULL},
    {HR_OP_FLOOR, EW_FLOAT, floor, NULL, NULL},
    {HR_OP_LOG, FC, log, ew_complex_log, NULL},
    {HR_OP_LOG_PLUS_ONE, FC, log1p, ew_complex_log1p, NULL},
    {HR_OP_LOGISTIC, FC, ew_real_logistic, ew_complex_logistic, NULL},
    {HR_OP_NEGATE, EW_NUMERIC, ew_real_negate, ew_complex_negate, ew_int_negate},
    {HR_OP_NOT, EW_BOOL | EW_INT, NULL, NULL, ew_int_not},
    {HR_OP_POPCNT, EW_INT, NULL, NULL, ew_int_popcnt},
    {HR_OP_ROUND_NEAREST_AFZ, EW_FLOAT, round, NULL, NULL}, /* half-way cases away from zero */
    {HR_OP_ROUND_NEAREST_EVEN, EW_FLOAT, ew_real_round_even, NULL, NULL},
    {HR_OP_RSQRT, FC, ew_real_rsqrt, ew_complex_rsqrt, NULL},
    {HR_OP_SIGN, EW_SINT | FC, ew_real_sign, ew_complex_sign, ew_int_sign},
    {HR_OP_SINE, FC, sin, ew_complex_sin, NULL},
    {HR_OP_SQRT, FC, sqrt, ew_complex_sqrt, NULL},
    {HR_OP_TAN, FC, tan, ew_complex_tan, NULL},
    {HR_OP_TANH, FC, tanh, ew_complex_tanh, NULL},
    {HR_OP_CHLO_ACOS, FC, acos, ew_complex_acos, NULL},
    {HR_OP_CHLO_ASIN_ACOS_KERNEL, EW_COMPLEX, NULL, ew_complex_asin_acos_kernel, NULL},
    {HR_OP_CHLO_ACOSH, FC, acosh, ew_complex_acosh, NULL},
    {HR_OP_CHLO_ASIN, FC, asin, ew_complex_asin, NULL},
    {HR_OP_CHLO_ASINH, FC, asinh, ew_complex_asinh, NULL},
    {HR_OP_CHLO_ATAN, FC, atan, ew_complex_atan, NULL},
    {HR_OP_CHLO_ATANH, FC, atanh, ew_complex_atanh, NULL},
    {HR_OP_CHLO_BESSEL_I1E, EW_FLOAT, hr_bessel_i1e, NULL, NULL},
    {HR_OP_CHLO_CONJ, FC, ew_real_identity, ew_complex_conj, NULL},
    {HR_OP_CHLO_COSH, FC, cosh, ew_complex_cosh, NULL},
    {HR_OP_CHLO_DIGAMMA, EW_FLOAT, hr_digamma, NULL, NULL},
    {HR_OP_CHLO_ERF, EW_FLOAT, erf, NULL, NULL},
    {HR_OP_CHLO_ERF_INV, EW_FLOAT, hr_erf_inv, NULL, NULL},
    {HR_OP_CHLO_ERFC, EW_FLOAT, erfc, NULL, NULL},
    {HR_OP_CHLO_LGAMMA, EW_FLOAT, hr_lgamma, NULL, NULL},
    {HR_OP_CHLO_SINH, FC, sinh, ew_complex_sinh, NULL},
    {HR_OP_CHLO_SQUARE, FC, ew_real_square, ew_complex_square, NULL},
    {HR_OP_CHLO_TAN, FC, tan, ew_complex_tan, NULL},
};

static const ew_binary_op kBinaryOps[] = {
    {HR_OP_ADD, EW_ANY, ew_real_add, ew_complex_add, ew_int_add},
    {HR_OP_SUBTRACT, EW_NUMERIC, ew_real_subtract, ew_complex_subtract, ew_int_subtract},
    {HR_OP_MULTIPLY, EW_ANY, ew_real_multiply, ew_complex_multiply, ew_int_multiply},
    {HR_OP_DIVIDE, EW_NUMERIC, ew_real_divide, ew_complex_divide, ew_int_divide},
    {HR_OP_REMAINDER, EW_INT | EW_FLOAT, fmod, NULL, ew_int_remainder},
    {HR_OP_POWER, EW_NUMERIC, pow, ew_complex_power, ew_int_power},
    {HR_OP_ATAN2, FC, atan2, ew_complex_atan2, NULL},
    {HR_OP_MAXIMUM, EW_ANY, ew_real_maximum, ew_complex_maximum, ew_int_maximum},
    {HR_OP_MINIMUM, EW_ANY, ew_real_minimum, ew_complex_minimum, ew_int_minimum},
    {HR_OP_AND, EW_BOOL | EW_INT, NULL, NULL, ew_int_and},
    {HR_OP_OR, EW_BOOL | EW_INT, NULL, NULL, ew_int_or},
    {HR_OP_XOR, EW_BOOL | EW_INT, NULL, NULL, ew_int_xor},
    {HR_OP_SHIFT_LEFT, EW_INT, NULL, NULL, ew_int_shift_left},
    {HR_OP_SHIFT_RIGHT_ARITHMETIC, EW_INT, NULL, NULL, ew_int_shift_right_arithmetic},
    {HR_OP_SHIFT_RIGHT_LOGICAL, EW_INT, NULL, NULL, ew_int_shift_right_logical},
    {HR_OP_CHLO_MULHI, EW_INT, NULL, NULL, ew_int_mulhi},
    {HR_OP_CHLO_POLYGAMMA, EW_FLOAT, hr_polygamma, NULL, NULL},
    {HR_OP_CHLO_ZETA, EW_FLOAT, hr_zeta, NULL, NULL},
};

#undef FC

const ew_unary_op *ew_find_unary(hr_opcode code) {
  for (size_t i = 0; i < sizeof kUnaryOps / sizeof kUnaryOps[0]; i++)
    if (kUnaryOps[i].code == code) return &kUnaryOps[i];
  return NULL;
}

const ew_binary_op *ew_find_binary(hr_opcode code) {
  for (size_t i = 0; i < sizeof kBinaryOps / sizeof kBinaryOps[0]; i++)
    if (kBinaryOps[i].code == code) return &kBinaryOps[i];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Unary kernel                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

typedef struct unary_job {
  const ew_unary_op *d;
  hr_dtype t;
  const void *x;
  void *out;
} unary_job;

/* Applies the real function to elements [b, e): in double, rounded to the element type. */
static void unary_real_range(const unary_job *j, int64_t b, int64_t e) {
  ew_real_unary_fn f = j->d->real;
  if (j->t == HR_F32) {
    const float *x = j->x;
    float *o = j->out;
    for (int64_t i = b; i < e; i++) o[i] = (float)f(x[i]);
  } else if (j->t == HR_F64) {
    const double *x = j->x;
    double *o = j->out;
    for (int64_t i = b; i < e; i++) o[i] = f(x[i]);
  } else {
    for (int64_t i = b; i < e; i++) ew_store_real(j->t, j->out, i, f(hr_load_float(j->t, j->x, i)));
  }
}

/* hr_parallel_fn over a unary_job. */
static void unary_range(void *ctx, int64_t b, int64_t e, int worker) {
  const unary_job *j = ctx;
  (void)worker;
  switch (ew_kind_of(j->t)) {
    case EW_FLOAT: unary_real_range(j, b, e); break;
    case EW_COMPLEX:
      for (int64_t i = b; i < e; i++)
        hr_store_complex(j->t, j->out, i, j->d->cplx(hr_load_complex(j->t, j->x, i)));
      break;
    default: {
      ew_int_type it = ew_int_type_of(j->t);
      for (int64_t i = b; i < e; i++)
        ew_store_bits(j->t, j->out, i, j->d->integer(ew_load_bits(j->t, j->x, i), it));
      break;
    }
  }
}

hr_status ew_kernel_unary(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                          hr_tensor **results) {
  HR_TRY(ew_check_arity(op, 1));
  const ew_unary_op *d = ew_find_unary(op->code);
  hr_tensor *r = results[0];
  if (!d) return hr_op_error(op, HR_INTERNAL, "no elementwise unary implementation");
  HR_TRY(ew_check_kind(op, r->dtype, d->kinds));
  HR_TRY(ew_check_operand(op, operands, 0, r->dtype, r, false));
  unary_job job = {d, r->dtype, operands[0]->data, r->data};
  ew_parallel(in, hr_tensor_num_elements(r), unary_range, &job);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Binary kernel                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* NaN-propagating maximum/minimum in the element precision, for the fast loops; same results as
 * ew_real_maximum / ew_real_minimum. */
static inline float max_f32(float x, float y) {
  if (x != x) return x;
  if (y != y) return y;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}
static inline float min_f32(float x, float y) {
  if (x != x) return x;
  if (y != y) return y;
  if (x == y) return signbit(x) ? x : y;
  return x < y ? x : y;
}
static inline double max_f64(double x, double y) { return ew_real_maximum(x, y); }
static inline double min_f64(double x, double y) { return ew_real_minimum(x, y); }

/* `o[i] = EXPR` over [b, e), where EXPR reads x[i] and y[i]. */
#define EW_LOOP(EXPR)                                                                              \
  do {                                                                                             \
    for (int64_t i = b; i < e; i++) o[i] = (EXPR);                                                 \
  } while (0)

/* Fast loops for a floating-point type (`T`, with its maximum and minimum); false when `code` has
 * none. */
#define DEFINE_BINARY_FAST_FLOAT(name, T, max_fn, min_fn)                                            \
  static bool name(hr_opcode code, const T *x, const T *y, T *o, int64_t b, int64_t e) {             \
    switch (code) {                                                                                \
      case HR_OP_ADD: EW_LOOP(x[i] + y[i]); return true;                                           \
      case HR_OP_SUBTRACT: EW_LOOP(x[i] - y[i]); return true;                                      \
      case HR_OP_MULTIPLY: EW_LOOP(x[i] * y[i]); return true;                                      \
      case HR_OP_DIVIDE: EW_LOOP(x[i] / y[i]); return true;                                        \
      case HR_OP_MAXIMUM: EW_LOOP(max_fn(x[i], y[i])); return true;                                \
      case HR_OP_MINIMUM: EW_LOOP(min_fn(x[i], y[i])); return true;                                \
      default: return false;                                                                       \
    }                                                                                              \
  }

DEFINE_BINARY_FAST_FLOAT(binary_fast_f32, float, max_f32, min_f32)
DEFINE_BINARY_FAST_FLOAT(binary_fast_f64, double, max_f64, min_f64)

/* Fast loops for integers of one width (wrapping, computed unsigned; `S` is the signed type of
 * the same width for maximum and minimum); false when `code` has none. */
#define DEFINE_BINARY_FAST_INT(name, U, S)                                                         \
  static bool name(hr_opcode code, bool is_signed, const void *xv, const void *yv, void *ov, int64_t b, \
                   int64_t e) {                                                                    \
    const U *x = xv, *y = yv;                                                                      \
    const S *sx = xv, *sy = yv;                                                                    \
    U *o = ov;                                                                                     \
    switch (code) {                                                                                \
      case HR_OP_ADD: EW_LOOP(x[i] + y[i]); return true;                                           \
      case HR_OP_SUBTRACT: EW_LOOP(x[i] - y[i]); return true;                                      \
      case HR_OP_MULTIPLY: EW_LOOP(x[i] * y[i]); return true;                                      \
      case HR_OP_AND: EW_LOOP(x[i] & y[i]); return true;                                           \
      case HR_OP_OR: EW_LOOP(x[i] | y[i]); return true;                                            \
      case HR_OP_XOR: EW_LOOP(x[i] ^ y[i]); return true;                                           \
      case HR_OP_MAXIMUM:                                                                          \
        if (is_signed)                                                                             \
          EW_LOOP(sx[i] >= sy[i] ? x[i] : y[i]);                                                   \
        else                                                                                       \
          EW_LOOP(x[i] >= y[i] ? x[i] : y[i]);                                                     \
        return true;                                                                               \
      case HR_OP_MINIMUM:                                                                          \
        if (is_signed)                                                                             \
          EW_LOOP(sx[i] <= sy[i] ? x[i] : y[i]);                                                   \
        else                                                                                       \
          EW_LOOP(x[i] <= y[i] ? x[i] : y[i]);                                                     \
        return true;                                                                               \
      default: return false;                                                                       \
    }                                                                                              \
  }

DEFINE_BINARY_FAST_INT(binary_fast_i32, uint32_t, int32_t)
DEFINE_BINARY_FAST_INT(binary_fast_i64, uint64_t, int64_t)

#undef EW_LOOP

typedef struct binary_job {
  const ew_binary_op *d;
  hr_dtype t;
  const void *x, *y;
  void *out;
} binary_job;

/* Runs the fast loop for the job's type and op over [b, e), if there is one. */
static bool binary_fast_range(const binary_job *j, int64_t b, int64_t e) {
  switch (j->t) {
    case HR_F32: return binary_fast_f32(j->d->code, j->x, j->y, j->out, b, e);
    case HR_F64: return binary_fast_f64(j->d->code, j->x, j->y, j->out, b, e);
    case HR_I32: case HR_U32:
      return binary_fast_i32(j->d->code, j->t == HR_I32, j->x, j->y, j->out, b, e);
    case HR_I64: case HR_U64:
      return binary_fast_i64(j->d->code, j->t == HR_I64, j->x, j->y, j->out, b, e);
    default: return false;
  }
}

void ew_apply_binary(const ew_binary_op *d, hr_dtype t, const void *a, int64_t ia, const void *b,
                     int64_t ib, void *out, int64_t io) {
  switch (ew_kind_of(t)) {
    case EW_FLOAT:
      ew_store_real(t, out, io, d->real(hr_load_float(t, a, ia), hr_load_float(t, b, ib)));
      break;
    case EW_COMPLEX:
      hr_store_complex(t, out, io, d->cplx(hr_load_complex(t, a, ia), hr_load_complex(t, b, ib)));
      break;
    default:
      ew_store_bits(t, out, io,
                    d->integer(ew_load_bits(t, a, ia), ew_load_bits(t, b, ib), ew_int_type_of(t)));
      break;
  }
}

/* hr_parallel_fn over a binary_job. */
static void binary_range(void *ctx, int64_t b, int64_t e, int worker) {
  const binary_job *j = ctx;
  (void)worker;
  if (binary_fast_range(j, b, e)) return;
  for (int64_t i = b; i < e; i++) ew_apply_binary(j->d, j->t, j->x, i, j->y, i, j->out, i);
}

hr_status ew_kernel_binary(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                           hr_tensor **results) {
  HR_TRY(ew_check_arity(op, 2));
  const ew_binary_op *d = ew_find_binary(op->code);
  hr_tensor *r = results[0];
  if (!d) return hr_op_error(op, HR_INTERNAL, "no elementwise binary implementation");
  HR_TRY(ew_check_kind(op, r->dtype, d->kinds));
  HR_TRY(ew_check_operand(op, operands, 0, r->dtype, r, false));
  HR_TRY(ew_check_operand(op, operands, 1, r->dtype, r, false));
  binary_job job = {d, r->dtype, operands[0]->data, operands[1]->data, r->data};
  ew_parallel(in, hr_tensor_num_elements(r), binary_range, &job);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Single elements for other kernel groups                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* True for the ops hr_elementwise_binary_scalar serves. */
static bool is_scalar_api_op(hr_opcode code) {
  switch (code) {
    case HR_OP_ADD: case HR_OP_SUBTRACT: case HR_OP_MULTIPLY: case HR_OP_MAXIMUM:
    case HR_OP_MINIMUM: case HR_OP_AND: case HR_OP_OR: case HR_OP_XOR:
      return true;
    default:
      return false;
  }
}

/* Whether a value is a rank-0 tensor of element type `t`. */
static bool is_scalar_of(const hr_type *ty, hr_dtype t) {
  return ty->kind == HR_TYPE_TENSOR && ty->shape.rank == 0 && ty->dtype == t;
}

bool hr_elementwise_binary_region(const hr_block *b, hr_opcode *code, hr_dtype *t, const hr_op **body,
                                  bool *swapped) {
  if (b->n_args != 2 || b->n_ops != 2) return false;
  const hr_op *o = b->ops[0], *ret = b->ops[1];
  if (!is_scalar_api_op(o->code) || o->n_operands != 2 || o->n_results != 1 || o->n_regions != 0) return false;
  if (!(hr_opcode_flags(ret->code) & HR_OPF_TERMINATOR) || ret->n_operands != 1 || ret->operands[0] != &o->results[0])
    return false;
  const hr_value *x = &b->args[0], *y = &b->args[1];
  bool in_order = o->operands[0] == x && o->operands[1] == y;
  bool reversed = o->operands[0] == y && o->operands[1] == x;
  hr_dtype dt = x->type.dtype;
  if ((!in_order && !reversed) || !is_scalar_of(&x->type, dt) || !is_scalar_of(&y->type, dt) ||
      !is_scalar_of(&o->results[0].type, dt))
    return false;
  *code = o->code;
  *t = dt;
  *body = o;
  *swapped = !in_order;
  return true;
}

/* The implementation of scalar-API op `code` on `t`, or an error naming `op` (when not NULL). */
static hr_status scalar_api_op(const hr_op *op, hr_opcode code, hr_dtype t, const ew_binary_op **out) {
  *out = is_scalar_api_op(code) ? ew_find_binary(code) : NULL;
  if (*out && (ew_kind_of(t) & (*out)->kinds)) return NULL;
  if (op) return hr_op_error(op, HR_UNIMPLEMENTED, "no scalar form of %s on %s", hr_opcode_name(code), hr_dtype_name(t));
  return hr_error(HR_UNIMPLEMENTED, "no scalar form of %s on %s", hr_opcode_name(code), hr_dtype_name(t));
}

hr_status hr_elementwise_binary_scalar(const hr_op *op, hr_opcode code, hr_dtype t, const void *a,
                                       const void *b, void *out) {
  const ew_binary_op *d;
  HR_TRY(scalar_api_op(op, code, t, &d));
  ew_apply_binary(d, t, a, 0, b, 0, out, 0);
  return NULL;
}

hr_status hr_elementwise_binary_array(const hr_op *op, hr_opcode code, hr_dtype t, const void *a, const void *b,
                                      void *out, int64_t n) {
  const ew_binary_op *d;
  HR_TRY(scalar_api_op(op, code, t, &d));
  binary_job job = {d, t, a, b, out};
  binary_range(&job, 0, n, 0);
  return NULL;
}

/* convert and bitcast_convert.
 *
 * convert between any two element types (the narrow floats decode exactly to double and round
 * from it once, as MLIR's APFloat converts; base/minifloat.h):
 *   to i1            value != 0 (NaN is true); complex sources use their real part;
 *   int -> int       the low bits (wraparound);
 *   int -> float     rounded to nearest even, directly from the integer;
 *   float -> int     truncated toward zero, NaN -> 0, saturating out-of-range values (XLA);
 *   float -> float   rounded to nearest even, directly from the source value;
 *   complex -> real  the real part, then as above; real -> complex: imaginary part 0. */
#include <math.h>
#include <string.h>

#include "interp/elementwise_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* Scalar conversions                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* An integer as a double from which f16 and bf16 round correctly: exact below 2^53, rounded to
 * odd beyond (53 bits >= the 11-bit f16 significand + 2 make the second rounding innocuous). */
static double int_to_double_round_to_odd(uint64_t v, bool is_signed) {
  bool negative = is_signed && (v >> 63) != 0;
  uint64_t m = negative ? 0u - v : v;
  double d;
  if (m < ((uint64_t)1 << 53)) {
    d = (double)m;
  } else {
    int shift = 64 - __builtin_clzll(m) - 53; /* 1 .. 11 */
    uint64_t kept = m >> shift;
    if (m & (((uint64_t)1 << shift) - 1)) kept |= 1u; /* sticky bit */
    d = ldexp((double)kept, shift);
  }
  return negative ? -d : d;
}

/* Stores an integer (extended per is_signed) as the real element type `to`, rounding once. */
static void store_int_as_real(hr_dtype to, void *out, int64_t i, uint64_t v, bool is_signed) {
  switch (to) {
    case HR_F64:
      ((double *)out)[i] = is_signed ? (double)ew_as_signed(v) : (double)v;
      break;
    case HR_F32:
      ((float *)out)[i] = is_signed ? (float)ew_as_signed(v) : (float)v;
      break;
    default:
      hr_store_float(to, out, i, int_to_double_round_to_odd(v, is_signed));
      break;
  }
}

/* 2^e as a double, exactly, for 0 <= e <= 64. */
static inline double pow2(int e) {
  return e < 64 ? (double)((uint64_t)1 << e) : 18446744073709551616.0;
}

/* A real value converted to an integer type: truncation toward zero, NaN -> 0, saturation. */
static inline uint64_t real_to_int_bits(double d, ew_int_type it) {
  if (isnan(d)) return 0;
  if (it.is_signed) {
    double limit = pow2(it.bits - 1);
    uint64_t max = ew_low_mask(it.bits) >> 1;
    if (d <= -limit) return ~max; /* INT_MIN, sign-extended */
    if (d >= limit) return max;
    return (uint64_t)(int64_t)d;
  }
  if (d <= 0.0) return 0;
  if (d >= pow2(it.bits)) return ew_low_mask(it.bits);
  return (uint64_t)d;
}

/* The real component type of a complex element type. */
static hr_dtype component_type(hr_dtype t) { return t == HR_C64 ? HR_F32 : HR_F64; }

/* Stores a real value as element i of type `to` (any kind). */
static void store_real(hr_dtype to, void *out, int64_t i, double d) {
  switch (ew_kind_of(to)) {
    case EW_BOOL: ((uint8_t *)out)[i] = d != 0.0; break;
    case EW_SINT: case EW_UINT: ew_store_bits(to, out, i, real_to_int_bits(d, ew_int_type_of(to))); break;
    case EW_FLOAT: hr_store_float(to, out, i, d); break;
    default: {
      hr_c128 c = {d, 0.0};
      hr_store_complex(to, out, i, c);
      break;
    }
  }
}

/* Stores an integer or i1 value (extended per `from`) as element i of type `to`. */
static void store_int(hr_dtype from, hr_dtype to, void *out, int64_t i, uint64_t v) {
  bool is_signed = hr_dtype_is_signed_int(from);
  switch (ew_kind_of(to)) {
    case EW_BOOL: ((uint8_t *)out)[i] = v != 0; break;
    case EW_SINT: case EW_UINT: ew_store_bits(to, out, i, v); break;
    case EW_FLOAT: store_int_as_real(to, out, i, v, is_signed); break;
    default: {
      /* Round the real part to the component type first; the store is then exact. */
      hr_dtype comp = component_type(to);
      store_int_as_real(comp, out, 2 * i, v, is_signed);
      if (comp == HR_F32)
        ((float *)out)[2 * i + 1] = 0.0f;
      else
        ((double *)out)[2 * i + 1] = 0.0;
      break;
    }
  }
}

typedef struct convert_job {
  hr_dtype from, to;
  const void *x;
  void *out;
} convert_job;

/* Converts element i. */
static void convert_element(const convert_job *j, int64_t i) {
  switch (ew_kind_of(j->from)) {
    case EW_FLOAT: store_real(j->to, j->out, i, hr_load_float(j->from, j->x, i)); break;
    case EW_COMPLEX: {
      hr_c128 c = hr_load_complex(j->from, j->x, i);
      if (ew_kind_of(j->to) == EW_COMPLEX)
        hr_store_complex(j->to, j->out, i, c);
      else
        store_real(j->to, j->out, i, c.re);
      break;
    }
    default: store_int(j->from, j->to, j->out, i, ew_load_bits(j->from, j->x, i)); break;
  }
}

/* `o[i] = EXPR` over [b, e) with x the source array of type S and o the target of type T. */
#define EW_CONVERT_LOOP(S, T, EXPR)                                                                \
  do {                                                                                             \
    const S *x = j->x;                                                                             \
    T *o = j->out;                                                                                 \
    for (int64_t i = b; i < e; i++) o[i] = (EXPR);                                                 \
  } while (0)

/* Fast loops for the most common conversions; false when the pair has none. */
static bool convert_fast_range(const convert_job *j, int64_t b, int64_t e) {
  if (j->from == HR_F32 && j->to == HR_F64) {
    EW_CONVERT_LOOP(float, double, (double)x[i]);
  } else if (j->from == HR_F64 && j->to == HR_F32) {
    EW_CONVERT_LOOP(double, float, (float)x[i]);
  } else if (j->from == HR_F32 && j->to == HR_I32) {
    const ew_int_type i32 = {32, true};
    EW_CONVERT_LOOP(float, uint32_t, (uint32_t)real_to_int_bits(x[i], i32));
  } else if (j->from == HR_I32 && j->to == HR_F32) {
    EW_CONVERT_LOOP(int32_t, float, (float)x[i]);
  } else if (j->from == HR_I32 && j->to == HR_F64) {
    EW_CONVERT_LOOP(int32_t, double, (double)x[i]);
  } else if (j->from == HR_I32 && j->to == HR_I64) {
    EW_CONVERT_LOOP(int32_t, int64_t, (int64_t)x[i]);
  } else if (j->from == HR_I64 && j->to == HR_I32) {
    EW_CONVERT_LOOP(uint64_t, uint32_t, (uint32_t)x[i]);
  } else if (j->from == HR_I1 && j->to == HR_F32) {
    EW_CONVERT_LOOP(uint8_t, float, x[i] ? 1.0f : 0.0f);
  } else {
    return false;
  }
  return true;
}

#undef EW_CONVERT_LOOP

/* hr_parallel_fn over a convert_job. */
static void convert_range(void *ctx, int64_t b, int64_t e, int worker) {
  const convert_job *j = ctx;
  (void)worker;
  if (convert_fast_range(j, b, e)) return;
  for (int64_t i = b; i < e; i++) convert_element(j, i);
}

hr_status ew_kernel_convert(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results) {
  HR_TRY(ew_check_arity(op, 1));
  hr_tensor *r = results[0];
  hr_dtype from = operands[0]->dtype;
  HR_TRY(ew_check_kind(op, from, EW_ANY));
  HR_TRY(ew_check_kind(op, r->dtype, EW_ANY));
  HR_TRY(ew_check_operand(op, operands, 0, from, r, false));
  if (from == r->dtype) {
    memcpy(r->data, operands[0]->data, r->nbytes);
    return NULL;
  }
  convert_job job = {from, r->dtype, operands[0]->data, r->data};
  ew_parallel(in, hr_tensor_num_elements(r), convert_range, &job);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* bitcast_convert                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* Checks the shapes against the spec's constraint C1: equal for equal widths; otherwise the
 * narrower side has one more dimension, of size wide_bits / narrow_bits. */
static hr_status bitcast_check_shapes(const hr_op *op, const hr_tensor *x, const hr_tensor *r,
                                      int in_bits, int out_bits) {
  const hr_shape *wide = in_bits >= out_bits ? &x->shape : &r->shape;
  const hr_shape *narrow = in_bits >= out_bits ? &r->shape : &x->shape;
  int wide_bits = in_bits >= out_bits ? in_bits : out_bits;
  int narrow_bits = in_bits >= out_bits ? out_bits : in_bits;
  bool ok;
  if (in_bits == out_bits) {
    ok = ew_same_shape(&x->shape, &r->shape);
  } else {
    ok = narrow->rank == wide->rank + 1 && wide_bits % narrow_bits == 0 &&
         narrow->dims[narrow->rank - 1] == wide_bits / narrow_bits;
    for (int d = 0; ok && d < wide->rank; d++) ok = wide->dims[d] == narrow->dims[d];
  }
  if (!ok)
    return hr_op_error(op, HR_VERIFY_ERROR, "operand and result shapes do not fit %s -> %s",
                       hr_dtype_name(x->dtype), hr_dtype_name(r->dtype));
  return NULL;
}

/* The raw bits of element i (at most 64 bits wide), zero-extended: a float's bit pattern (f4/f6:
 * the low 4/6 bits of its byte; tf32: the 19 bits above the 13 ignored ones). */
static uint64_t raw_bits(hr_dtype t, const void *data, int64_t i) {
  if (hr_dtype_is_real_float(t)) return hr_float_load_pattern(t, (const char *)data + (size_t)i * hr_dtype_size(t));
  return ew_load_bits(t, data, i) & ew_low_mask(hr_dtype_bits(t));
}

/* Stores raw bits (the low hr_dtype_bits of v) as element i (at most 64 bits wide). */
static void store_raw_bits(hr_dtype t, void *data, int64_t i, uint64_t v) {
  if (hr_dtype_is_real_float(t))
    hr_float_store_pattern(t, v & ew_low_mask(hr_dtype_bits(t)), (char *)data + (size_t)i * hr_dtype_size(t));
  else
    ew_store_bits(t, data, i, v);
}

/* Bit-level repacking for element types that are not whole bytes (i1, i2, i4, ui2, ui4, f4, f6,
 * tf32): the elements of the narrow side are the little-endian pieces of the wide side's elements. */
static void bitcast_repack(const hr_tensor *x, hr_tensor *r, int in_bits, int out_bits) {
  int64_t n_out = hr_tensor_num_elements(r);
  if (in_bits >= out_bits) {
    int pieces = in_bits / out_bits;
    for (int64_t k = 0; k < n_out; k++) {
      uint64_t v = raw_bits(x->dtype, x->data, k / pieces);
      store_raw_bits(r->dtype, r->data, k, v >> ((k % pieces) * out_bits));
    }
  } else {
    int pieces = out_bits / in_bits;
    for (int64_t k = 0; k < n_out; k++) {
      uint64_t v = 0;
      for (int s = 0; s < pieces; s++)
        v |= raw_bits(x->dtype, x->data, k * pieces + s) << (s * in_bits);
      store_raw_bits(r->dtype, r->data, k, v);
    }
  }
}

hr_status ew_kernel_bitcast_convert(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                    hr_tensor **results) {
  (void)in;
  HR_TRY(ew_check_arity(op, 1));
  const hr_tensor *x = operands[0];
  hr_tensor *r = results[0];
  HR_TRY(ew_check_kind(op, x->dtype, EW_ANY));
  HR_TRY(ew_check_kind(op, r->dtype, EW_ANY));
  if (hr_dtype_is_complex(x->dtype) != hr_dtype_is_complex(r->dtype))
    return hr_op_error(op, HR_VERIFY_ERROR, "cannot bitcast between complex and %s",
                       hr_dtype_is_complex(x->dtype) ? hr_dtype_name(r->dtype)
                                                     : hr_dtype_name(x->dtype));
  int in_bits = hr_dtype_bits(x->dtype), out_bits = hr_dtype_bits(r->dtype);
  HR_TRY(bitcast_check_shapes(op, x, r, in_bits, out_bits));
  bool whole_bytes = in_bits == 8 * (int)hr_dtype_size(x->dtype) &&
                     out_bits == 8 * (int)hr_dtype_size(r->dtype);
  if (whole_bytes) {
    if (x->nbytes != r->nbytes)
      return hr_op_error(op, HR_INTERNAL, "bitcast of %zu bytes into %zu bytes", x->nbytes,
                         r->nbytes);
    memcpy(r->data, x->data, r->nbytes);
    return NULL;
  }
  bitcast_repack(x, r, in_bits, out_bits);
  return NULL;
}

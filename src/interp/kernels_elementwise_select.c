/* compare, select and clamp. */
#include <math.h>
#include <string.h>

#include "interp/elementwise_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* compare                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef enum cmp_dir { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } cmp_dir;
typedef enum cmp_type { CMP_FLOAT, CMP_TOTALORDER, CMP_SIGNED, CMP_UNSIGNED } cmp_type;

/* Looks `name` up in a list of enum spellings; -1 when absent. */
static int enum_index(const char *name, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(name, names[i]) == 0) return i;
  return -1;
}

/* Reads comparison_direction and compare_type (defaulting from the element type, and checked
 * against it as the spec's constraint C3 requires). */
static hr_status compare_attrs(const hr_op *op, hr_dtype t, cmp_dir *dir, cmp_type *type) {
  static const char *const kDirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  static const char *const kTypes[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
  const char *d = hr_op_attr_enum(op, "comparison_direction");
  int di = d ? enum_index(d, kDirs, 6) : -1;
  if (di < 0) return hr_op_error(op, HR_VERIFY_ERROR, "missing or invalid comparison_direction");
  *dir = (cmp_dir)di;
  ew_kind kind = ew_kind_of(t);
  cmp_type natural = kind == EW_SINT                      ? CMP_SIGNED
                     : (kind == EW_UINT || kind == EW_BOOL) ? CMP_UNSIGNED
                                                            : CMP_FLOAT;
  const char *ty = hr_op_attr_enum(op, "compare_type");
  if (!ty) {
    *type = natural;
    return NULL;
  }
  int ti = enum_index(ty, kTypes, 4);
  if (ti < 0) return hr_op_error(op, HR_VERIFY_ERROR, "invalid compare_type %s", ty);
  bool ok = ti == (int)natural || (kind == EW_FLOAT && ti == CMP_TOTALORDER);
  if (!ok)
    return hr_op_error(op, HR_VERIFY_ERROR, "compare_type %s does not apply to %s", ty,
                       hr_dtype_name(t));
  *type = (cmp_type)ti;
  return NULL;
}

/* The outcome of a three-way comparison for a direction. */
static bool direction_holds(cmp_dir dir, int c, bool unordered) {
  switch (dir) {
    case CMP_EQ: return !unordered && c == 0;
    case CMP_NE: return unordered || c != 0;
    case CMP_LT: return !unordered && c < 0;
    case CMP_LE: return !unordered && c <= 0;
    case CMP_GT: return !unordered && c > 0;
    case CMP_GE: return !unordered && c >= 0;
  }
  return false;
}

/* The raw bits of a real float element, sign-extended from its width. A narrow float (f8/f6/f4,
 * tf32: formats whose NaN and -0 encodings vary) gives the bits of its exact double value, which
 * orders them alike: decoding keeps the sign of zeros and NaNs and the order of NaN payloads. */
static uint64_t float_bits(hr_dtype t, const void *data, int64_t i) {
  switch (t) {
    case HR_F16: case HR_BF16: return ew_sign_extend(((const uint16_t *)data)[i], 16);
    case HR_F32: return ew_sign_extend(((const uint32_t *)data)[i], 32);
    case HR_F64: return ((const uint64_t *)data)[i];
    default: return hr_f64_bits(hr_load_float(t, data, i));
  }
}

/* A key whose signed integer order is IEEE totalOrder: -NaN < -inf < ... < -0 < +0 < ... < +NaN.
 * Negative values have their magnitude bits flipped so that larger magnitudes sort lower. */
static uint64_t total_order_key(hr_dtype t, const void *data, int64_t i) {
  uint64_t bits = float_bits(t, data, i);
  int width = hr_dtype_is_narrow_float(t) ? 64 : hr_dtype_bits(t);
  if ((bits >> 63) != 0) bits ^= ew_low_mask(width) >> 1;
  return bits;
}

typedef struct compare_job {
  hr_dtype t;
  cmp_dir dir;
  cmp_type type;
  const void *x, *y;
  uint8_t *out;
} compare_job;

/* Compares element i of the job's operands. */
static bool compare_element(const compare_job *j, int64_t i) {
  int c;
  bool unordered = false;
  switch (ew_kind_of(j->t)) {
    case EW_FLOAT:
      if (j->type == CMP_TOTALORDER) {
        c = ew_int_compare(total_order_key(j->t, j->x, i), total_order_key(j->t, j->y, i), true);
      } else {
        double a = hr_load_float(j->t, j->x, i), b = hr_load_float(j->t, j->y, i);
        unordered = isnan(a) || isnan(b);
        c = (a > b) - (a < b);
      }
      break;
    case EW_COMPLEX:
      c = ew_complex_compare(hr_load_complex(j->t, j->x, i), hr_load_complex(j->t, j->y, i),
                             &unordered);
      break;
    default:
      c = ew_int_compare(ew_load_bits(j->t, j->x, i), ew_load_bits(j->t, j->y, i),
                         j->type == CMP_SIGNED);
      break;
  }
  return direction_holds(j->dir, c, unordered);
}

/* `o[i] = x[i] OP y[i]` over [b, e) for the job's direction; C's operators on floats are IEEE's
 * quiet comparisons (only != holds for NaN). */
#define EW_COMPARE_LOOP(T)                                                                         \
  do {                                                                                             \
    const T *x = j->x, *y = j->y;                                                                  \
    uint8_t *o = j->out;                                                                           \
    switch (j->dir) {                                                                              \
      case CMP_EQ: for (int64_t i = b; i < e; i++) o[i] = x[i] == y[i]; break;                     \
      case CMP_NE: for (int64_t i = b; i < e; i++) o[i] = x[i] != y[i]; break;                     \
      case CMP_LT: for (int64_t i = b; i < e; i++) o[i] = x[i] < y[i]; break;                      \
      case CMP_LE: for (int64_t i = b; i < e; i++) o[i] = x[i] <= y[i]; break;                     \
      case CMP_GT: for (int64_t i = b; i < e; i++) o[i] = x[i] > y[i]; break;                      \
      case CMP_GE: for (int64_t i = b; i < e; i++) o[i] = x[i] >= y[i]; break;                     \
    }                                                                                              \
  } while (0)

/* Fast loops for f32/f64 (FLOAT) and i32/i64/ui32/ui64 compares in their natural signedness. */
static bool compare_fast_range(const compare_job *j, int64_t b, int64_t e) {
  switch (j->t) {
    case HR_F32: if (j->type != CMP_FLOAT) return false; EW_COMPARE_LOOP(float); return true;
    case HR_F64: if (j->type != CMP_FLOAT) return false; EW_COMPARE_LOOP(double); return true;
    case HR_I32: EW_COMPARE_LOOP(int32_t); return true;
    case HR_I64: EW_COMPARE_LOOP(int64_t); return true;
    case HR_U32: EW_COMPARE_LOOP(uint32_t); return true;
    case HR_U64: EW_COMPARE_LOOP(uint64_t); return true;
    default: return false;
  }
}

#undef EW_COMPARE_LOOP

/* hr_parallel_fn over a compare_job. */
static void compare_range(void *ctx, int64_t b, int64_t e, int worker) {
  const compare_job *j = ctx;
  (void)worker;
  if (compare_fast_range(j, b, e)) return;
  for (int64_t i = b; i < e; i++) j->out[i] = compare_element(j, i);
}

hr_status ew_kernel_compare(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results) {
  HR_TRY(ew_check_arity(op, 2));
  hr_tensor *r = results[0];
  hr_dtype t = operands[0]->dtype;
  if (r->dtype != HR_I1)
    return hr_op_error(op, HR_VERIFY_ERROR, "result element type must be i1, not %s",
                       hr_dtype_name(r->dtype));
  HR_TRY(ew_check_kind(op, t, EW_ANY));
  HR_TRY(ew_check_operand(op, operands, 0, t, r, false));
  HR_TRY(ew_check_operand(op, operands, 1, t, r, false));
  compare_job job = {.t = t, .x = operands[0]->data, .y = operands[1]->data, .out = r->data};
  HR_TRY(compare_attrs(op, t, &job.dir, &job.type));
  ew_parallel(in, hr_tensor_num_elements(r), compare_range, &job);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* select                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef struct select_job {
  const uint8_t *pred; /* one byte per element */
  const void *on_true, *on_false;
  void *out;
  size_t esize;
} select_job;

/* `o[i] = pred[i] ? t[i] : f[i]` over [b, e) for elements of type T. */
#define EW_SELECT_LOOP(T)                                                                          \
  do {                                                                                             \
    const T *t = j->on_true, *f = j->on_false;                                                     \
    T *o = j->out;                                                                                 \
    for (int64_t i = b; i < e; i++) o[i] = j->pred[i] ? t[i] : f[i];                               \
  } while (0)

/* hr_parallel_fn over a select_job with an elementwise predicate. */
static void select_range(void *ctx, int64_t b, int64_t e, int worker) {
  const select_job *j = ctx;
  (void)worker;
  switch (j->esize) {
    case 1: EW_SELECT_LOOP(uint8_t); break;
    case 2: EW_SELECT_LOOP(uint16_t); break;
    case 4: EW_SELECT_LOOP(uint32_t); break;
    case 8: EW_SELECT_LOOP(uint64_t); break;
    default: {
      const uint8_t *t = j->on_true, *f = j->on_false;
      uint8_t *o = j->out;
      size_t s = j->esize;
      for (int64_t i = b; i < e; i++) memcpy(o + (size_t)i * s, (j->pred[i] ? t : f) + (size_t)i * s, s);
      break;
    }
  }
}

#undef EW_SELECT_LOOP

hr_status ew_kernel_select(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                           hr_tensor **results) {
  HR_TRY(ew_check_arity(op, 3));
  hr_tensor *r = results[0];
  HR_TRY(ew_check_operand(op, operands, 0, HR_I1, r, true));
  HR_TRY(ew_check_operand(op, operands, 1, r->dtype, r, false));
  HR_TRY(ew_check_operand(op, operands, 2, r->dtype, r, false));
  if (operands[0]->shape.rank == 0 && r->shape.rank != 0) {
    const hr_tensor *chosen = *(const uint8_t *)operands[0]->data ? operands[1] : operands[2];
    memcpy(r->data, chosen->data, r->nbytes);
    return NULL;
  }
  select_job job = {operands[0]->data, operands[1]->data, operands[2]->data, r->data,
                    hr_dtype_size(r->dtype)};
  ew_parallel(in, hr_tensor_num_elements(r), select_range, &job);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* clamp                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

typedef struct clamp_job {
  const ew_binary_op *max, *min;
  hr_dtype t;
  const void *lo, *x, *hi;
  bool lo_scalar, hi_scalar;
  void *out;
} clamp_job;

/* hr_parallel_fn over a clamp_job: out = minimum(maximum(x, lo), hi) with the semantics of the
 * maximum and minimum ops (NaN-propagating for floats). */
static void clamp_range(void *ctx, int64_t b, int64_t e, int worker) {
  const clamp_job *j = ctx;
  (void)worker;
  for (int64_t i = b; i < e; i++) {
    ew_apply_binary(j->max, j->t, j->x, i, j->lo, j->lo_scalar ? 0 : i, j->out, i);
    ew_apply_binary(j->min, j->t, j->out, i, j->hi, j->hi_scalar ? 0 : i, j->out, i);
  }
}

hr_status ew_kernel_clamp(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                          hr_tensor **results) {
  HR_TRY(ew_check_arity(op, 3));
  hr_tensor *r = results[0];
  HR_TRY(ew_check_kind(op, r->dtype, EW_ANY));
  HR_TRY(ew_check_operand(op, operands, 0, r->dtype, r, true));
  HR_TRY(ew_check_operand(op, operands, 1, r->dtype, r, false));
  HR_TRY(ew_check_operand(op, operands, 2, r->dtype, r, true));
  clamp_job job = {ew_find_binary(HR_OP_MAXIMUM),
                   ew_find_binary(HR_OP_MINIMUM),
                   r->dtype,
                   operands[0]->data,
                   operands[1]->data,
                   operands[2]->data,
                   operands[0]->shape.rank == 0,
                   operands[2]->shape.rank == 0,
                   r->data};
  ew_parallel(in, hr_tensor_num_elements(r), clamp_range, &job);
  return NULL;
}

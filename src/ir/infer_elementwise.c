/* Shape inference for elementwise ops: unary/binary math, compare, select, clamp, convert,
 * bitcast_convert, reduce_precision, map. Elementwise ops take operands of one shape (no implicit
 * broadcasting); the result takes the most precise of their shapes. */
#include <string.h>

#include "base/numeric.h"
#include "ir/infer_internal.h"

/* Element type categories, combined into masks of what an op accepts. */
enum {
  CAT_PRED = 1 << 0,    /* i1 */
  CAT_SINT = 1 << 1,    /* i2..i64 */
  CAT_UINT = 1 << 2,    /* ui2..ui64 */
  CAT_FLOAT = 1 << 3,   /* f16, bf16, f32, f64 */
  CAT_COMPLEX = 1 << 4, /* complex<f32>, complex<f64> */
  CAT_INT = CAT_SINT | CAT_UINT,
  CAT_FP_COMPLEX = CAT_FLOAT | CAT_COMPLEX,
  CAT_NUMERIC = CAT_INT | CAT_FP_COMPLEX,
  CAT_ANY = CAT_PRED | CAT_NUMERIC,
};

/* How a unary op's result element type relates to its operand's. */
typedef enum result_kind {
  RES_SAME,     /* the operand's type */
  RES_PART,     /* complex -> its part type, others unchanged (abs, real, imag) */
  RES_PREDICATE /* i1 */
} result_kind;

/* The category of an element type. */
static unsigned category(hr_dtype t) {
  if (t == HR_I1) return CAT_PRED;
  if (hr_dtype_is_signed_int(t)) return CAT_SINT;
  if (hr_dtype_is_unsigned_int(t)) return CAT_UINT;
  if (hr_dtype_is_real_float(t)) return CAT_FLOAT;
  if (hr_dtype_is_complex(t)) return CAT_COMPLEX;
  return 0;
}

/* The element types a plain elementwise op accepts (spec "Inputs" tables). */
static unsigned accepted(hr_opcode code) {
  switch (code) {
    case HR_OP_ABS:
    case HR_OP_SIGN: return CAT_SINT | CAT_FP_COMPLEX;
    case HR_OP_ADD:
    case HR_OP_MAXIMUM:
    case HR_OP_MINIMUM:
    case HR_OP_MULTIPLY: return CAT_ANY;
    case HR_OP_AND:
    case HR_OP_OR:
    case HR_OP_XOR:
    case HR_OP_NOT: return CAT_PRED | CAT_INT;
    case HR_OP_CLZ:
    case HR_OP_POPCNT:
    case HR_OP_SHIFT_LEFT:
    case HR_OP_SHIFT_RIGHT_ARITHMETIC:
    case HR_OP_SHIFT_RIGHT_LOGICAL:
    case HR_OP_CHLO_MULHI: return CAT_INT;
    case HR_OP_DIVIDE:
    case HR_OP_REMAINDER:
    case HR_OP_POWER:
    case HR_OP_SUBTRACT:
    case HR_OP_NEGATE:
    case HR_OP_CHLO_SQUARE: return CAT_NUMERIC;
    case HR_OP_CEIL:
    case HR_OP_FLOOR:
    case HR_OP_ROUND_NEAREST_AFZ:
    case HR_OP_ROUND_NEAREST_EVEN:
    case HR_OP_IS_FINITE:
    case HR_OP_CHLO_IS_INF:
    case HR_OP_CHLO_IS_NEG_INF:
    case HR_OP_CHLO_IS_POS_INF:
    case HR_OP_CHLO_NEXT_AFTER:
    case HR_OP_CHLO_POLYGAMMA:
    case HR_OP_CHLO_ZETA:
    case HR_OP_CHLO_DIGAMMA:
    case HR_OP_CHLO_LGAMMA:
    case HR_OP_CHLO_ERF:
    case HR_OP_CHLO_ERFC:
    case HR_OP_CHLO_ERF_INV:
    case HR_OP_CHLO_BESSEL_I1E: return CAT_FLOAT;
    case HR_OP_CHLO_ASIN_ACOS_KERNEL: return CAT_COMPLEX;
    default: return CAT_FP_COMPLEX; /* transcendental functions */
  }
}

/* How a unary op's result element type is derived. */
static result_kind unary_result_kind(hr_opcode code) {
  switch (code) {
    case HR_OP_ABS:
    case HR_OP_REAL:
    case HR_OP_IMAG: return RES_PART;
    case HR_OP_IS_FINITE:
    case HR_OP_CHLO_IS_INF:
    case HR_OP_CHLO_IS_NEG_INF:
    case HR_OP_CHLO_IS_POS_INF: return RES_PREDICATE;
    default: return RES_SAME;
  }
}

/* Checks operand `i`'s element type against what the op accepts. */
static hr_status check_category(const hri_ctx *c, int i, unsigned mask) {
  HR_TRY(hri_want_tensor(c, i));
  if (category(c->in[i].dtype) & mask) return NULL;
  return hri_err(c, "operand #%d: element type %s is not supported by this op", i,
                 hr_dtype_name(c->in[i].dtype));
}

/* The declared element type of result #0, which must be a tensor. */
static hr_status declared_dtype(const hri_ctx *c, hr_dtype *out) {
  const hr_type *t = &c->op->results[0].type;
  if (t->kind != HR_TYPE_TENSOR || t->dtype <= HR_DTYPE_INVALID || t->dtype >= HR_DTYPE_COUNT)
    return hri_err(c, "result must be a tensor");
  *out = t->dtype;
  return NULL;
}

hr_status hri_infer_unary(const hri_ctx *c) {
  HR_TRY(check_category(c, 0, accepted(c->op->code)));
  hr_dtype t = c->in[0].dtype;
  switch (unary_result_kind(c->op->code)) {
    case RES_PART:
      if (hr_dtype_is_complex(t)) t = hri_complex_part(t);
      break;
    case RES_PREDICATE: t = HR_I1; break;
    case RES_SAME: break;
  }
  c->out[0] = hri_tensor(t, &c->in[0].shape);
  return NULL;
}

/* The result element type of binary op `code` over operands 0 and 1, checked to be of one type
 * the op accepts. */
static hr_status binary_dtype(const hri_ctx *c, hr_opcode code, hr_dtype *out) {
  unsigned mask = code == HR_OP_COMPLEX ? CAT_FLOAT : accepted(code);
  HR_TRY(check_category(c, 0, mask));
  HR_TRY(check_category(c, 1, mask));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  hr_dtype t = c->in[0].dtype;
  if (code == HR_OP_COMPLEX) {
    if (t != HR_F32 && t != HR_F64)
      return hri_err(c, "operands must be f32 or f64, got %s", hr_dtype_name(t));
    t = t == HR_F32 ? HR_C64 : HR_C128;
  }
  *out = t;
  return NULL;
}

hr_status hri_infer_binary(const hri_ctx *c) {
  hr_dtype t = HR_DTYPE_INVALID;
  HR_TRY(binary_dtype(c, c->op->code, &t));
  hr_shape s;
  HR_TRY(hri_shape_merge(c, &c->in[0].shape, &c->in[1].shape, &s, "operand shapes"));
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

/* Whether `s` is one of the NUL-separated, double-NUL-terminated names in `list`. */
static bool one_of(const char *s, const char *list) {
  for (const char *p = list; *p; p += strlen(p) + 1)
    if (strcmp(s, p) == 0) return true;
  return false;
}

/* Checks compare's optional compare_type names a comparison type. Whether it suits the element
 * type (spec C3) is checked where the comparison runs (kernels_elementwise_select.c): StableHLO's
 * verifier accepts any pairing, and its compatibility suite compares f32 values with SIGNED. */
static hr_status check_compare_type(const hri_ctx *c) {
  if (!hr_op_attr(c->op, "compare_type")) return NULL;
  const char *ct = hr_op_attr_enum(c->op, "compare_type");
  if (!ct || !one_of(ct, "NOTYPE\0FLOAT\0TOTALORDER\0SIGNED\0UNSIGNED\0"))
    return hri_err(c, "attribute 'compare_type' must be a comparison type");
  return NULL;
}

/* Checks compare's operand types and attributes; the result element type is i1. */
static hr_status compare_dtype(const hri_ctx *c, hr_dtype *out) {
  HR_TRY(hri_want_tensors(c, 0, 2));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  const char *dir = hr_op_attr_enum(c->op, "comparison_direction");
  if (!dir) return hri_err(c, "missing or malformed attribute 'comparison_direction'");
  if (!one_of(dir, "EQ\0NE\0GE\0GT\0LE\0LT\0")) return hri_err(c, "unknown comparison direction '%s'", dir);
  HR_TRY(check_compare_type(c));
  *out = HR_I1;
  return NULL;
}

hr_status hri_infer_compare(const hri_ctx *c) {
  hr_dtype t = HR_DTYPE_INVALID;
  HR_TRY(compare_dtype(c, &t));
  hr_shape s;
  HR_TRY(hri_shape_merge(c, &c->in[0].shape, &c->in[1].shape, &s, "operand shapes"));
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

/* Checks select's operand types (an i1 predicate, two values of one type); the result has the
 * values' element type. */
static hr_status select_dtype(const hri_ctx *c, hr_dtype *out) {
  HR_TRY(hri_want_tensors(c, 0, 3));
  if (c->in[0].dtype != HR_I1) return hri_err(c, "predicate must have element type i1");
  HR_TRY(hri_want_same_dtype(c, 1, 2));
  *out = c->in[1].dtype;
  return NULL;
}

hr_status hri_infer_select(const hri_ctx *c) {
  hr_dtype t = HR_DTYPE_INVALID;
  HR_TRY(select_dtype(c, &t));
  hr_shape s;
  HR_TRY(hri_shape_merge(c, &c->in[1].shape, &c->in[2].shape, &s, "on_true and on_false shapes"));
  if (c->in[0].shape.rank != 0) HR_TRY(hri_shape_merge(c, &c->in[0].shape, &s, &s, "predicate shape"));
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

hr_status hri_elementwise_dtype(const hri_ctx *c, hr_opcode code, hr_dtype *out) {
  switch (code) {
    case HR_OP_COMPARE: return compare_dtype(c, out);
    case HR_OP_SELECT: return select_dtype(c, out);
    default: return binary_dtype(c, code, out);
  }
}

hr_status hri_infer_clamp(const hri_ctx *c) {
  HR_TRY(hri_want_tensors(c, 0, 3));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  HR_TRY(hri_want_same_dtype(c, 1, 2));
  hr_shape s = c->in[1].shape;
  if (c->in[0].shape.rank != 0) HR_TRY(hri_shape_merge(c, &c->in[0].shape, &s, &s, "min shape"));
  if (c->in[2].shape.rank != 0) HR_TRY(hri_shape_merge(c, &c->in[2].shape, &s, &s, "max shape"));
  c->out[0] = hri_tensor(c->in[1].dtype, &s);
  return NULL;
}

hr_status hri_infer_convert(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_dtype t = HR_DTYPE_INVALID;
  HR_TRY(declared_dtype(c, &t));
  c->out[0] = hri_tensor(t, &c->in[0].shape);
  return NULL;
}

hr_status hri_infer_bitcast_convert(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_dtype from = c->in[0].dtype, to = HR_DTYPE_INVALID;
  HR_TRY(declared_dtype(c, &to));
  if (hr_dtype_is_complex(from) != hr_dtype_is_complex(to))
    return hri_err(c, "cannot bitcast between complex and non-complex types (%s to %s)", hr_dtype_name(from),
                   hr_dtype_name(to));
  int fb = hr_dtype_bits(from), tb = hr_dtype_bits(to);
  hr_shape s = c->in[0].shape;
  if (fb == tb) {
    c->out[0] = hri_tensor(to, &s);
    return NULL;
  }
  if (tb < fb) {
    if (fb % tb != 0) return hri_err(c, "cannot bitcast %s to %s", hr_dtype_name(from), hr_dtype_name(to));
    if (s.rank >= HR_MAX_RANK) return hri_err(c, "result rank would exceed %d", HR_MAX_RANK);
    s.dims[s.rank++] = fb / tb;
  } else {
    if (tb % fb != 0) return hri_err(c, "cannot bitcast %s to %s", hr_dtype_name(from), hr_dtype_name(to));
    if (s.rank == 0) return hri_err(c, "bitcast to a wider type needs an operand of rank >= 1");
    int64_t last = s.dims[s.rank - 1];
    if (last != HR_DYNAMIC && last != tb / fb)
      return hri_err(c, "last operand dimension must be %d to bitcast %s to %s, got %lld", tb / fb,
                     hr_dtype_name(from), hr_dtype_name(to), (long long)last);
    s.rank--;
  }
  c->out[0] = hri_tensor(to, &s);
  return NULL;
}

hr_status hri_infer_reduce_precision(const hri_ctx *c) {
  HR_TRY(check_category(c, 0, CAT_FLOAT));
  int64_t e, m;
  HR_TRY(hri_attr_int(c, "exponent_bits", true, 0, &e));
  HR_TRY(hri_attr_int(c, "mantissa_bits", true, 0, &m));
  if (e < 1 || e > 64) return hri_err(c, "exponent_bits must be in [1, 64], got %lld", (long long)e);
  if (m < 0 || m > 64) return hri_err(c, "mantissa_bits must be in [0, 64], got %lld", (long long)m);
  c->out[0] = c->in[0];
  return NULL;
}

hr_status hri_infer_map(const hri_ctx *c) {
  int n = c->op->n_operands;
  HR_TRY(hri_want_tensors(c, 0, n));
  hr_shape s = c->in[0].shape;
  for (int i = 1; i < n; i++) HR_TRY(hri_shape_merge(c, &c->in[i].shape, &s, &s, "input shapes"));
  int64_t dims[HR_MAX_RANK];
  int nd;
  HR_TRY(hri_attr_list(c, "dimensions", true, dims, &nd));
  if (nd != s.rank) return hri_err(c, "dimensions must list all %d input dimensions", s.rank);
  for (int i = 0; i < nd; i++)
    if (dims[i] != i) return hri_err(c, "dimensions must be [0, ..., %d]", s.rank - 1);
  const hr_block *b = &c->op->regions[0];
  if (b->n_args != n) return hri_err(c, "computation must take %d arguments, got %d", n, b->n_args);
  for (int i = 0; i < n; i++) {
    const hr_type *a = &b->args[i].type;
    if (a->kind != HR_TYPE_TENSOR || a->shape.rank != 0 || a->dtype != c->in[i].dtype) {
      hri_tbuf tb;
      return hri_err(c, "computation argument #%d has type %s, expected tensor<%s>", i, hri_type_str(a, &tb),
                     hr_dtype_name(c->in[i].dtype));
    }
  }
  const hr_op *ret;
  HR_TRY(hri_region_return(c, 0, &ret));
  const hr_type *rt = ret->n_operands == 1 ? &ret->operands[0]->type : NULL;
  if (!rt || rt->kind != HR_TYPE_TENSOR || rt->shape.rank != 0)
    return hri_err(c, "computation must return one rank-0 tensor");
  c->out[0] = hri_tensor(rt->dtype, &s);
  return NULL;
}

#include "interp/check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/elem.h"

/* How elements are compared: exactly, within |a - e| <= abs_tol + rel_tol * |e|, or within a
 * range of ULP distances (check.expect_close). */
typedef enum match_rule { MATCH_EXACT, MATCH_TOLERANCE, MATCH_ULP } match_rule;

typedef struct match {
  match_rule rule;
  double abs_tol, rel_tol;           /* MATCH_TOLERANCE */
  uint64_t min_ulp, max_ulp;         /* MATCH_ULP */
} match;

/* The data a check compares the actual tensor against: a tensor or a (possibly splat) constant. */
typedef struct expected_data {
  hr_dtype dtype;
  const void *data;
  bool splat;
} expected_data;

/* The default relative and absolute tolerance of JAX's test harness per element type. */
static double close_tolerance(hr_dtype t) {
  switch (t) {
    case HR_F16: return 1e-3;
    case HR_BF16: return 1e-2;
    case HR_F32: case HR_C64: return 1e-6;
    case HR_F64: case HR_C128: return 1e-15;
    case HR_TF32: return 1e-3; /* f16's 10 mantissa bits */
    default: return hr_dtype_is_narrow_float(t) ? 1e-1 : 0.0; /* JAX's tolerance for float8 */
  }
}

/* Whether two real values match under `m` (MATCH_EXACT: equal; NaN matches NaN). */
static bool reals_match(double a, double e, const match *m) {
  if (isnan(a) || isnan(e)) return isnan(a) && isnan(e);
  if (isinf(a) || isinf(e)) return a == e;
  if (m->rule == MATCH_EXACT) return a == e;
  return fabs(a - e) <= m->abs_tol + m->rel_tol * fabs(e);
}

/* The raw bits of part `part` (0 real, 1 imaginary) of float or complex element i (a narrow
 * float's bit pattern: hr_float_pattern_bits wide). */
static uint64_t float_bits(hr_dtype t, const void *data, int64_t i, int part) {
  if (hr_dtype_is_narrow_float(t)) return hr_float_load_pattern(t, (const char *)data + (size_t)i * hr_dtype_size(t));
  bool cplx = hr_dtype_is_complex(t);
  size_t size = cplx ? hr_dtype_size(t) / 2 : hr_dtype_size(t);
  uint64_t bits = 0;
  memcpy(&bits, (const char *)data + (size_t)(cplx ? 2 * i + part : i) * size, size); /* little-endian */
  return bits;
}

/* StableHLO's ULP difference of two floats of `width` bits given as bits and values: 0 when
 * bitwise equal or both NaN, the count of floats between them when both are finite, else
 * UINT64_MAX. */
static uint64_t ulp_difference(uint64_t fb, double f, uint64_t gb, double g, int width) {
  if (fb == gb) return 0;
  if (isfinite(f) && isfinite(g)) {
    uint64_t sign = (uint64_t)1 << (width - 1), a = fb & (sign - 1), b = gb & (sign - 1);
    if ((fb & sign) != (gb & sign)) return a + b;
    return a > b ? a - b : b - a;
  }
  return isnan(f) && isnan(g) ? 0 : UINT64_MAX;
}

/* The ULP difference of actual[i] and expected[j]; for complex numbers the larger of the parts'. */
static uint64_t element_ulps(hr_dtype t, const void *a, int64_t i, const void *e, int64_t j) {
  if (!hr_dtype_is_complex(t))
    return ulp_difference(float_bits(t, a, i, 0), hr_load_float(t, a, i), float_bits(t, e, j, 0),
                          hr_load_float(t, e, j), hr_float_pattern_bits(t));
  hr_c128 x = hr_load_complex(t, a, i), y = hr_load_complex(t, e, j);
  int width = hr_dtype_bits(t) / 2;
  uint64_t re = ulp_difference(float_bits(t, a, i, 0), x.re, float_bits(t, e, j, 0), y.re, width);
  uint64_t im = ulp_difference(float_bits(t, a, i, 1), x.im, float_bits(t, e, j, 1), y.im, width);
  return re > im ? re : im;
}

/* Whether actual[i] matches expected[j] under `m` (integers always compare exactly). */
static bool element_matches(hr_dtype t, const void *a, int64_t i, const void *e, int64_t j, const match *m) {
  if (m->rule == MATCH_ULP) {
    uint64_t d = element_ulps(t, a, i, e, j);
    return d >= m->min_ulp && d <= m->max_ulp;
  }
  if (hr_dtype_is_complex(t)) {
    hr_c128 x = hr_load_complex(t, a, i), y = hr_load_complex(t, e, j);
    return reals_match(x.re, y.re, m) && reals_match(x.im, y.im, m);
  }
  if (hr_dtype_is_real_float(t)) return reals_match(hr_load_float(t, a, i), hr_load_float(t, e, j), m);
  return hr_load_int(t, a, i) == hr_load_int(t, e, j);
}

/* Formats element i for a message. */
static void format_element(hr_dtype t, const void *data, int64_t i, char *buf, size_t cap) {
  if (hr_dtype_is_complex(t)) {
    hr_c128 c = hr_load_complex(t, data, i);
    snprintf(buf, cap, "(%.9g, %.9g)", c.re, c.im);
  } else if (hr_dtype_is_real_float(t)) {
    snprintf(buf, cap, "%.9g", hr_load_float(t, data, i));
  } else if (t == HR_U64) {
    snprintf(buf, cap, "%llu", (unsigned long long)hr_load_int(t, data, i));
  } else {
    snprintf(buf, cap, "%lld", (long long)hr_load_int(t, data, i));
  }
}

/* Formats a flat index as a multi-index "[i, j, k]". */
static void format_index(const hr_shape *s, int64_t flat, char *buf, size_t cap) {
  int64_t idx[HR_MAX_RANK];
  for (int d = s->rank - 1; d >= 0; d--) {
    idx[d] = s->dims[d] ? flat % s->dims[d] : 0;
    flat = s->dims[d] ? flat / s->dims[d] : 0;
  }
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (int d = 0; d < s->rank && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, d ? ", %lld" : "%lld", (long long)idx[d]);
  if (len < cap) snprintf(buf + len, cap - len, "]");
}

/* Compares `actual` with `expected` under `m`. Sets *equal; when `report` is set a mismatch is
 * returned as an HR_CHECK_FAILED error naming `what`, the first differing element and, for ULP
 * checks, its ULP difference. */
static hr_status compare(const hr_op *op, const char *what, const hr_tensor *actual, const expected_data *ex,
                         const match *m, bool report, bool *equal) {
  *equal = false;
  if (ex->dtype != actual->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s: element types differ (%s vs %s)", what,
                       hr_dtype_name(actual->dtype), hr_dtype_name(ex->dtype));
  int64_t n = hr_tensor_num_elements(actual), bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    if (element_matches(actual->dtype, actual->data, i, ex->data, ex->splat ? 0 : i, m)) continue;
    if (first < 0) first = i;
    bad++;
  }
  *equal = bad == 0;
  if (*equal || !report) return NULL;
  char where[256], av[96], ev[96], ulps[64] = "";
  int64_t j = ex->splat ? 0 : first;
  format_index(&actual->shape, first, where, sizeof where);
  format_element(actual->dtype, actual->data, first, av, sizeof av);
  format_element(ex->dtype, ex->data, j, ev, sizeof ev);
  if (m->rule == MATCH_ULP)
    snprintf(ulps, sizeof ulps, " (ULP difference %llu, allowed %llu..%llu)",
             (unsigned long long)element_ulps(actual->dtype, actual->data, first, ex->data, j),
             (unsigned long long)m->min_ulp, (unsigned long long)m->max_ulp);
  return hr_op_error(op, HR_CHECK_FAILED, "%s failed: %lld of %lld elements differ; first at %s: actual %s, expected %s%s",
                     what, (long long)bad, (long long)n, where, av, ev, ulps);
}

/* The comparisons the check.* custom-call targets name. */
typedef enum target_kind { TARGET_EQ, TARGET_CLOSE, TARGET_ALMOST } target_kind;

/* The kind a target names; false when the target is not a check this runtime knows. */
static bool kind_of(const char *target, target_kind *kind, bool *is_const) {
  static const struct {
    const char *name;
    target_kind kind;
    bool is_const;
  } targets[] = {
      {"check.expect_eq", TARGET_EQ, false},         {"check.expect_close", TARGET_CLOSE, false},
      {"check.expect_almost_eq", TARGET_ALMOST, false}, {"check.expect_eq_const", TARGET_EQ, true},
      {"check.expect_almost_eq_const", TARGET_ALMOST, true},
  };
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
    if (strcmp(target, targets[i].name) == 0) {
      *kind = targets[i].kind;
      *is_const = targets[i].is_const;
      return true;
    }
  }
  return false;
}

/* The match a custom-call target applies to elements of type `t`: its tolerance is both absolute
 * and relative (JAX's per-type default for expect_close, 1e-4 for expect_almost_eq). */
static match target_match(target_kind kind, hr_dtype t) {
  double tol = kind == TARGET_ALMOST ? 1e-4 : close_tolerance(t);
  return kind == TARGET_EQ ? (match){.rule = MATCH_EXACT} : (match){.rule = MATCH_TOLERANCE, .abs_tol = tol, .rel_tol = tol};
}

/* Builds the expected data from the second operand, checking shapes. */
static hr_status expected_from_tensor(const hr_op *op, const char *what, const hr_tensor *actual,
                                      const hr_tensor *t, expected_data *ex) {
  if (t->shape.rank != actual->shape.rank ||
      memcmp(t->shape.dims, actual->shape.dims, sizeof(int64_t) * (size_t)t->shape.rank) != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s: operand shapes differ", what);
  *ex = (expected_data){t->dtype, t->data, false};
  return NULL;
}

/* Builds the expected data from the op's `value` attribute (the *_const checks). */
static hr_status expected_from_attr(const hr_op *op, const char *what, const hr_tensor *actual,
                                    expected_data *ex) {
  const hr_attr *v = hr_op_attr(op, "value");
  if (!v || v->kind != HR_ATTR_DENSE) return hr_op_error(op, HR_VERIFY_ERROR, "%s needs a dense 'value'", what);
  const hr_shape *s = &v->u.dense.type.shape;
  if (s->rank != actual->shape.rank || memcmp(s->dims, actual->shape.dims, sizeof(int64_t) * (size_t)s->rank) != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s: 'value' shape differs from the operand", what);
  *ex = (expected_data){v->u.dense.type.dtype, v->u.dense.data, v->u.dense.splat};
  return NULL;
}

hr_status hr_check_custom_call(const hr_op *op, const char *target, hr_tensor *const *operands, int n_operands,
                               hr_tensor **results, int n_results) {
  bool equal;
  expected_data ex = {HR_DTYPE_INVALID, NULL, false};
  if (strcmp(target, "check.eq") == 0) {
    /* The older form: returns whether the operands match (floats within 1e-4) instead of failing. */
    if (n_operands != 2 || n_results != 1 || results[0]->dtype != HR_I1 || hr_tensor_num_elements(results[0]) != 1)
      return hr_op_error(op, HR_VERIFY_ERROR, "check.eq takes two operands and returns tensor<i1>");
    HR_TRY(expected_from_tensor(op, target, operands[0], operands[1], &ex));
    bool fp = hr_dtype_is_real_float(ex.dtype) || hr_dtype_is_complex(ex.dtype);
    match m = target_match(fp ? TARGET_ALMOST : TARGET_EQ, ex.dtype);
    HR_TRY(compare(op, target, operands[0], &ex, &m, false, &equal));
    ((uint8_t *)results[0]->data)[0] = equal;
    return NULL;
  }
  target_kind kind;
  bool is_const;
  if (!kind_of(target, &kind, &is_const)) return hr_op_error(op, HR_UNIMPLEMENTED, "unknown check @%s", target);
  if (n_operands != (is_const ? 1 : 2) || n_results != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s takes %d operands and no results", target, is_const ? 1 : 2);
  if (is_const)
    HR_TRY(expected_from_attr(op, target, operands[0], &ex));
  else
    HR_TRY(expected_from_tensor(op, target, operands[0], operands[1], &ex));
  match m = target_match(kind, operands[0]->dtype);
  return compare(op, target, operands[0], &ex, &m, true, &equal);
}

/* An unsigned integer attribute of a check op, or `dflt` when it is absent. */
static uint64_t uint_attr(const hr_op *op, const char *name, uint64_t dflt) {
  const hr_attr *a = hr_op_attr(op, name);
  return a && a->kind == HR_ATTR_INT ? (uint64_t)a->u.i.value : dflt;
}

/* The match a check op applies: exact for expect_eq*, StableHLO's absolute `tolerance` (default
 * 1e-4) for expect_almost_eq*, the ULP range [min_ulp_difference, max_ulp_difference] (defaults 0
 * and 1) for expect_close. */
static match op_match(const hr_op *op) {
  switch (op->code) {
    case HR_OP_CHECK_EXPECT_ALMOST_EQ:
    case HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST: {
      const hr_attr *t = hr_op_attr(op, "tolerance");
      return (match){.rule = MATCH_TOLERANCE, .abs_tol = t && t->kind == HR_ATTR_FLOAT ? t->u.f.value : 1e-4};
    }
    case HR_OP_CHECK_EXPECT_CLOSE:
      return (match){.rule = MATCH_ULP,
                     .min_ulp = uint_attr(op, "min_ulp_difference", 0),
                     .max_ulp = uint_attr(op, "max_ulp_difference", 1)};
    default: return (match){.rule = MATCH_EXACT};
  }
}

hr_status hr_check_op(const hr_op *op, hr_tensor *const *operands) {
  const char *what = "check"; /* the op's name prefixes every message */
  if (op->code == HR_OP_CHECK_EXPECT_SERIALIZED_EQ)
    return hr_op_error(op, HR_UNIMPLEMENTED, "needs the values interpreter.probe recorded in this run");
  expected_data ex = {.dtype = HR_DTYPE_INVALID}; /* set by expected_from_*; GCC -O3 cannot see it */
  bool is_const = op->code == HR_OP_CHECK_EXPECT_EQ_CONST || op->code == HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST;
  if (is_const)
    HR_TRY(expected_from_attr(op, what, operands[0], &ex));
  else
    HR_TRY(expected_from_tensor(op, what, operands[0], operands[1], &ex));
  match m = op_match(op);
  bool equal;
  return compare(op, what, operands[0], &ex, &m, true, &equal);
}

hr_status hr_check_probed(const hr_op *op, const hr_tensor *actual, const hr_tensor *probed) {
  expected_data ex = {.dtype = HR_DTYPE_INVALID}; /* set by expected_from_*; GCC -O3 cannot see it */
  HR_TRY(expected_from_tensor(op, "check", actual, probed, &ex));
  match m = {.rule = MATCH_EXACT};
  bool equal;
  return compare(op, "check", actual, &ex, &m, true, &equal);
}

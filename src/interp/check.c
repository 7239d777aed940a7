#include "interp/check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/elem.h"

typedef enum match_rule { MATCH_EXACT, MATCH_CLOSE, MATCH_ALMOST } match_rule;

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
    default: return 0.0;
  }
}

/* Whether two real values match within `tol` (0: exactly). */
static bool reals_match(double a, double e, double tol) {
  if (isnan(a) || isnan(e)) return isnan(a) && isnan(e);
  if (isinf(a) || isinf(e)) return a == e;
  return fabs(a - e) <= tol + tol * fabs(e);
}

/* Whether actual[i] matches expected[j] within `tol`. */
static bool element_matches(hr_dtype t, const void *a, int64_t i, const void *e, int64_t j, double tol) {
  if (hr_dtype_is_complex(t)) {
    hr_c128 x = hr_load_complex(t, a, i), y = hr_load_complex(t, e, j);
    return reals_match(x.re, y.re, tol) && reals_match(x.im, y.im, tol);
  }
  if (hr_dtype_is_float(t)) return reals_match(hr_load_float(t, a, i), hr_load_float(t, e, j), tol);
  return hr_load_int(t, a, i) == hr_load_int(t, e, j);
}

/* Formats element i for a message. */
static void format_element(hr_dtype t, const void *data, int64_t i, char *buf, size_t cap) {
  if (hr_dtype_is_complex(t)) {
    hr_c128 c = hr_load_complex(t, data, i);
    snprintf(buf, cap, "(%.9g, %.9g)", c.re, c.im);
  } else if (hr_dtype_is_float(t)) {
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

/* Compares `actual` with `expected`. Sets *equal; when `report` is set a mismatch is returned as an
 * HR_CHECK_FAILED error naming the first differing element. */
static hr_status compare(const hr_op *op, const char *target, const hr_tensor *actual, const expected_data *ex,
                         match_rule rule, bool report, bool *equal) {
  *equal = false;
  if (ex->dtype != actual->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s: element types differ (%s vs %s)", target,
                       hr_dtype_name(actual->dtype), hr_dtype_name(ex->dtype));
  double tol = rule == MATCH_EXACT ? 0.0 : rule == MATCH_ALMOST ? 1e-4 : close_tolerance(actual->dtype);
  int64_t n = hr_tensor_num_elements(actual), bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    if (element_matches(actual->dtype, actual->data, i, ex->data, ex->splat ? 0 : i, tol)) continue;
    if (first < 0) first = i;
    bad++;
  }
  *equal = bad == 0;
  if (*equal || !report) return NULL;
  char where[256], av[96], ev[96];
  format_index(&actual->shape, first, where, sizeof where);
  format_element(actual->dtype, actual->data, first, av, sizeof av);
  format_element(ex->dtype, ex->data, ex->splat ? 0 : first, ev, sizeof ev);
  return hr_op_error(op, HR_CHECK_FAILED, "%s failed: %lld of %lld elements differ; first at %s: actual %s, expected %s",
                     target, (long long)bad, (long long)n, where, av, ev);
}

/* The rule a target names; false when the target is not a check this runtime knows. */
static bool rule_of(const char *target, match_rule *rule, bool *is_const) {
  static const struct {
    const char *name;
    match_rule rule;
    bool is_const;
  } targets[] = {
      {"check.expect_eq", MATCH_EXACT, false},         {"check.expect_close", MATCH_CLOSE, false},
      {"check.expect_almost_eq", MATCH_ALMOST, false}, {"check.expect_eq_const", MATCH_EXACT, true},
      {"check.expect_almost_eq_const", MATCH_ALMOST, true},
  };
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
    if (strcmp(target, targets[i].name) == 0) {
      *rule = targets[i].rule;
      *is_const = targets[i].is_const;
      return true;
    }
  }
  return false;
}

/* Builds the expected data from the second operand, checking shapes. */
static hr_status expected_from_tensor(const hr_op *op, const char *target, const hr_tensor *actual,
                                      const hr_tensor *t, expected_data *ex) {
  if (t->shape.rank != actual->shape.rank ||
      memcmp(t->shape.dims, actual->shape.dims, sizeof(int64_t) * (size_t)t->shape.rank) != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s: operand shapes differ", target);
  *ex = (expected_data){t->dtype, t->data, false};
  return NULL;
}

/* Builds the expected data from the op's `value` attribute (the *_const checks). */
static hr_status expected_from_attr(const hr_op *op, const char *target, const hr_tensor *actual,
                                    expected_data *ex) {
  const hr_attr *v = hr_op_attr(op, "value");
  if (!v || v->kind != HR_ATTR_DENSE) return hr_op_error(op, HR_VERIFY_ERROR, "%s needs a dense 'value'", target);
  const hr_shape *s = &v->u.dense.type.shape;
  if (s->rank != actual->shape.rank || memcmp(s->dims, actual->shape.dims, sizeof(int64_t) * (size_t)s->rank) != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s: 'value' shape differs from the operand", target);
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
    bool fp = hr_dtype_is_float(ex.dtype) || hr_dtype_is_complex(ex.dtype);
    HR_TRY(compare(op, target, operands[0], &ex, fp ? MATCH_ALMOST : MATCH_EXACT, false, &equal));
    ((uint8_t *)results[0]->data)[0] = equal;
    return NULL;
  }
  match_rule rule;
  bool is_const;
  if (!rule_of(target, &rule, &is_const)) return hr_op_error(op, HR_UNIMPLEMENTED, "unknown check @%s", target);
  if (n_operands != (is_const ? 1 : 2) || n_results != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s takes %d operands and no results", target, is_const ? 1 : 2);
  if (is_const)
    HR_TRY(expected_from_attr(op, target, operands[0], &ex));
  else
    HR_TRY(expected_from_tensor(op, target, operands[0], operands[1], &ex));
  return compare(op, target, operands[0], &ex, rule, true, &equal);
}

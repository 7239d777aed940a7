/* The check.* custom calls that StableHLO test programs use to assert on their own results. */
#ifndef HLORUN_INTERP_CHECK_H
#define HLORUN_INTERP_CHECK_H

#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* Evaluates `stablehlo.custom_call @<target>` for a check.* target:
 *   check.expect_eq(actual, expected)        exact equality (NaN equals NaN, -0 equals +0)
 *   check.expect_close(actual, expected)     |a - e| <= tol + tol * |e| per element, with the
 *                                            default tolerance JAX's test harness uses for the
 *                                            element type: f16 1e-3, bf16 1e-2, f32/complex<f32>
 *                                            1e-6, f64/complex<f64> 1e-15; exact for integers
 *   check.expect_almost_eq(actual, expected) the same rule with tol = 1e-4 (StableHLO's default)
 *   check.expect_eq_const / expect_almost_eq_const(actual) {value = dense<...>}
 *   check.eq(actual, expected) -> tensor<i1>  no failure; the result says whether they match
 * NaNs match NaNs and infinities match equal infinities under every rule. A failure returns
 * HR_CHECK_FAILED naming the op's position, the first mismatching index and both values. */
hr_status hr_check_custom_call(const hr_op *op, const char *target, hr_tensor *const *operands, int n_operands,
                               hr_tensor **results, int n_results);

/* Evaluates a check dialect op (StableHLO's CheckOps.td) on its operands:
 *   check.expect_eq / expect_eq_const            exact equality (NaN equals NaN, -0 equals +0)
 *   check.expect_almost_eq / expect_almost_eq_const  |a - e| <= tolerance (default 1e-4)
 *   check.expect_close  min_ulp_difference <= ULP distance <= max_ulp_difference per element
 *                       (complex: the larger of the parts'; NaN and NaN are 0 apart, a
 *                       non-finite value and anything not bitwise equal to it infinitely far)
 * A failure returns HR_CHECK_FAILED as for the custom calls. check.expect_serialized_eq compares
 * with a value interpreter.probe recorded, which the interpreter looks up (hr_check_probed); here
 * it is HR_UNIMPLEMENTED. */
hr_status hr_check_op(const hr_op *op, hr_tensor *const *operands);

/* check.expect_serialized_eq: `actual` must equal `probed` exactly (element type, shape, values). */
hr_status hr_check_probed(const hr_op *op, const hr_tensor *actual, const hr_tensor *probed);

#endif

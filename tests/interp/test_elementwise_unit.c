/* Unit tests for the elementwise group: the scalar API (hr_elementwise_binary_scalar), the special
 * functions behind the chlo ops, and the kernels' own validation of operands they are handed
 * directly (the verifier normally rejects such programs first). End-to-end kernel tests are in
 * test_elementwise.sh. */
#include <math.h>
#include <stdint.h>

#include "base/numeric.h"
#include "base/threadpool.h"
#include "interp/elementwise.h"
#include "interp/interp.h"
#include "interp/special.h"
#include "test.h"

/* Relative error of `got` against a non-zero reference. */
static double rel_err(double got, double want) { return fabs(got - want) / fabs(want); }

TEST(scalar_int_wraps) {
  int8_t a = 127, b = 1, out = 0;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_ADD, HR_I8, &a, &b, &out));
  CHECK_EQ_INT(out, -128);
  int32_t x = INT32_MIN, y = -1, p = 0;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MULTIPLY, HR_I32, &x, &y, &p));
  CHECK_EQ_INT(p, INT32_MIN);
  uint64_t u = UINT64_MAX, v = 1, m = 0;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MAXIMUM, HR_U64, &u, &v, &m));
  CHECK(m == UINT64_MAX); /* unsigned comparison, not signed */
  int64_t s = -5, t = 3, r = 0;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MINIMUM, HR_I64, &s, &t, &r));
  CHECK_EQ_INT(r, -5);
  /* i4 is stored sign-extended in a byte: 7 + 1 wraps to -8. */
  int8_t n1 = 7, n2 = 1, n3 = 0;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_ADD, HR_I4, &n1, &n2, &n3));
  CHECK_EQ_INT(n3, -8);
}

TEST(scalar_bool_is_logical) {
  uint8_t one = 1, zero = 0, out = 7;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_ADD, HR_I1, &one, &one, &out));
  CHECK_EQ_INT(out, 1); /* OR, not 1 + 1 = 0 */
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MULTIPLY, HR_I1, &one, &zero, &out));
  CHECK_EQ_INT(out, 0);
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_XOR, HR_I1, &one, &one, &out));
  CHECK_EQ_INT(out, 0);
}

TEST(scalar_float_semantics) {
  float nan = NAN, one = 1.0f, out = 0.0f;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MAXIMUM, HR_F32, &one, &nan, &out));
  CHECK(isnan(out));
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MINIMUM, HR_F32, &nan, &one, &out));
  CHECK(isnan(out));
  float pz = 0.0f, nz = -0.0f;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MAXIMUM, HR_F32, &nz, &pz, &out));
  CHECK(out == 0.0f && !signbit(out));
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MINIMUM, HR_F32, &pz, &nz, &out));
  CHECK(out == 0.0f && signbit(out));
  /* bf16: 1 + 2^-8 is a tie between 1 and 1 + 2^-7; nearest even gives 1. */
  uint16_t b1 = hr_f32_to_bf16(1.0f), b2 = hr_f32_to_bf16(0x1p-8f), bo = 0;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_ADD, HR_BF16, &b1, &b2, &bo));
  CHECK(hr_bf16_to_f32(bo) == 1.0f);
  /* f16: 2048 + 1 is a tie too (11-bit significand); 2049 + 1 is exact. */
  uint16_t h1 = hr_f32_to_f16(2048.0f), h2 = hr_f32_to_f16(1.0f), ho = 0;
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_ADD, HR_F16, &h1, &h2, &ho));
  CHECK(hr_f16_to_f32(ho) == 2048.0f);
  double c1[2] = {1.0, 2.0}, c2[2] = {3.0, -1.0}, co[2];
  CHECK_OK(hr_elementwise_binary_scalar(NULL, HR_OP_MULTIPLY, HR_C128, c1, c2, co));
  CHECK(co[0] == 5.0 && co[1] == 5.0);
}

TEST(scalar_rejects_unsupported) {
  float a = 1.0f, b = 2.0f, out = 0.0f;
  hr_status s = hr_elementwise_binary_scalar(NULL, HR_OP_AND, HR_F32, &a, &b, &out);
  CHECK(hr_status_code(s) == HR_UNIMPLEMENTED);
  hr_status_free(s);
  s = hr_elementwise_binary_scalar(NULL, HR_OP_DIVIDE, HR_F32, &a, &b, &out);
  CHECK(hr_status_code(s) == HR_UNIMPLEMENTED);
  hr_status_free(s);
  s = hr_elementwise_binary_scalar(NULL, HR_OP_ADD, HR_DTYPE_INVALID, &a, &b, &out);
  CHECK(hr_status_code(s) == HR_UNIMPLEMENTED);
  hr_status_free(s);
}

TEST(erf_inv_values) {
  CHECK(rel_err(hr_erf_inv(0.5), 0.47693627620446987338) < 1e-15);
  CHECK(rel_err(hr_erf_inv(-0.999), -2.3267537655135246) < 1e-14);
  CHECK(rel_err(hr_erf_inv(1.0 - 0x1p-40), 5.0512540852493900) < 1e-14);
  for (double x = -0.95; x < 0.96; x += 0.1) CHECK(fabs(erf(hr_erf_inv(x)) - x) < 1e-15);
  CHECK(hr_erf_inv(1.0) == INFINITY && hr_erf_inv(-1.0) == -INFINITY);
  CHECK(isnan(hr_erf_inv(1.5)) && isnan(hr_erf_inv(NAN)));
  CHECK(hr_erf_inv(-0.0) == 0.0 && signbit(hr_erf_inv(-0.0)));
}

TEST(gamma_family_values) {
  const double euler_gamma = 0.57721566490153286061, pi = 3.14159265358979323846;
  CHECK(rel_err(hr_digamma(1.0), -euler_gamma) < 1e-15);
  CHECK(rel_err(hr_digamma(0.5), -euler_gamma - 2.0 * log(2.0)) < 1e-15);
  CHECK(rel_err(hr_digamma(-2.5), 1.1031566406452431872) < 1e-14); /* by reflection */
  CHECK(rel_err(hr_digamma(1e6), 13.815510057964191) < 1e-15);
  CHECK(isnan(hr_digamma(0.0)) && isnan(hr_digamma(-3.0)));
  CHECK(rel_err(hr_lgamma(0.5), 0.5 * log(pi)) < 1e-15);
  CHECK(hr_lgamma(-2.0) == INFINITY);
  CHECK(rel_err(hr_zeta(2.0, 1.0), pi * pi / 6.0) < 1e-15);
  CHECK(rel_err(hr_zeta(4.0, 1.0), pi * pi * pi * pi / 90.0) < 1e-15);
  CHECK(rel_err(hr_zeta(3.0, 0.5), 7.0 * 1.2020569031595942854) < 1e-15);
  CHECK(rel_err(hr_zeta(2.0, 1e300), 1e-300) < 1e-15); /* only the integral term survives */
  /* Negative q with integer x: the terms k + q < 0 are summed directly. */
  CHECK(rel_err(hr_zeta(3.0, -2.5), -0.064 - 8.0 / 27.0 - 8.0 + 7.0 * 1.2020569031595942854) < 1e-13);
  CHECK(hr_zeta(1.0, 2.0) == INFINITY && isnan(hr_zeta(0.5, 2.0)));
  CHECK(hr_zeta(2.0, -1.0) == INFINITY && isnan(hr_zeta(2.5, -1.5)));
  CHECK(rel_err(hr_polygamma(1.0, 1.0), pi * pi / 6.0) < 1e-15);
  CHECK(rel_err(hr_polygamma(2.0, 1.0), -2.0 * 1.2020569031595942854) < 1e-15);
  CHECK(rel_err(hr_polygamma(0.0, 1.0), -euler_gamma) < 1e-15);
  CHECK(isnan(hr_polygamma(1.5, 1.0)) && isnan(hr_polygamma(-1.0, 1.0)));
}

TEST(bessel_i1e_values) {
  CHECK(rel_err(hr_bessel_i1e(1.0), 0.20791041534970844887) < 1e-15);
  CHECK(rel_err(hr_bessel_i1e(-1.0), -0.20791041534970844887) < 1e-15);
  CHECK(rel_err(hr_bessel_i1e(30.0), 0.071916330598647555) < 1e-14);
  CHECK(rel_err(hr_bessel_i1e(1e-10), 5e-11 * exp(-1e-10)) < 1e-15); /* I1(x) ~ x/2 */
  CHECK(hr_bessel_i1e(0.0) == 0.0 && hr_bessel_i1e(INFINITY) == 0.0);
  CHECK(isnan(hr_bessel_i1e(NAN)));
}

/* ---- kernels called directly ---- */

/* The elementwise kernel for `code`, or NULL. */
static hr_kernel_fn find_kernel(hr_opcode code) {
  for (const hr_kernel *k = hr_kernels_elementwise; k->fn; k++)
    if (k->code == code) return k->fn;
  return NULL;
}

/* A zero-filled rank-1 tensor of `n` elements. */
static hr_tensor *make_tensor(hr_dtype t, int64_t n) {
  hr_shape shape = {1, {n}};
  hr_tensor *out = NULL;
  hr_status s = hr_tensor_create(NULL, t, &shape, 0, &out);
  if (s) hr_status_free(s);
  return out;
}

/* Runs the kernel for `code` on an op with `n_operands` operands (whose operand values are not
 * needed by the kernels) and `attrs`, and returns the status code, freeing the status. */
static hr_code run_kernel(hr_interp *in, hr_opcode code, hr_named_attr *attrs, int n_attrs,
                          int n_operands, hr_tensor *const *operands, hr_tensor *result) {
  hr_op op = {.code = code,
              .n_operands = n_operands,
              .n_results = 1,
              .n_attrs = n_attrs,
              .attrs = attrs,
              .loc = {"unit.mlir", 1, 1}};
  hr_kernel_fn fn = find_kernel(code);
  if (!fn) return HR_NOT_FOUND;
  hr_tensor *results[1] = {result};
  hr_status s = fn(in, &op, operands, results);
  hr_code c = hr_status_code(s);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "unit.mlir:1:1");
  hr_status_free(s);
  return c;
}

TEST(kernels_reject_mismatched_operands) {
  hr_interp in = {0};
  hr_tensor *f3 = make_tensor(HR_F32, 3), *f4 = make_tensor(HR_F32, 4), *i4 = make_tensor(HR_I32, 4);
  hr_tensor *p4 = make_tensor(HR_F32, 4), *b2 = make_tensor(HR_I8, 3), *c4 = make_tensor(HR_C64, 4);
  hr_tensor *shape_mismatch[2] = {f3, f4}, *type_mismatch[2] = {i4, f4};
  CHECK_EQ_INT(run_kernel(&in, HR_OP_ADD, NULL, 0, 2, shape_mismatch, f4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_ADD, NULL, 0, 2, type_mismatch, f4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_AND, NULL, 0, 2, (hr_tensor *[]){f4, f4}, f4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_SELECT, NULL, 0, 3, (hr_tensor *[]){p4, f4, f4}, f4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_COMPARE, NULL, 0, 2, (hr_tensor *[]){f4, f4}, p4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_BITCAST_CONVERT, NULL, 0, 1, (hr_tensor *[]){f4}, b2), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_COMPLEX, NULL, 0, 2, (hr_tensor *[]){f4, f4}, f4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_COMPLEX, NULL, 0, 2, (hr_tensor *[]){f3, f4}, c4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_REAL, NULL, 0, 1, (hr_tensor *[]){c4}, c4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_CLAMP, NULL, 0, 3, (hr_tensor *[]){f3, f4, f4}, f4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_REDUCE_PRECISION, NULL, 0, 1, (hr_tensor *[]){f4}, f4), HR_VERIFY_ERROR);
  /* An op with the wrong number of operands is rejected before any operand is read. */
  CHECK_EQ_INT(run_kernel(&in, HR_OP_ADD, NULL, 0, 1, shape_mismatch, f4), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_CHLO_NEXT_AFTER, NULL, 0, 2, (hr_tensor *[]){i4, i4}, i4), HR_VERIFY_ERROR);
  hr_tensor *t[] = {f3, f4, i4, p4, b2, c4};
  for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) hr_tensor_free(t[k]);
}

TEST(compare_attributes_are_checked) {
  hr_interp in = {0};
  hr_tensor *x = make_tensor(HR_I32, 2), *r = make_tensor(HR_I1, 2);
  hr_attr lt = {.kind = HR_ATTR_ENUM, .u.enm = {"stablehlo", "comparison_direction", "LT"}};
  hr_attr bad = {.kind = HR_ATTR_ENUM, .u.enm = {"stablehlo", "comparison_direction", "XX"}};
  hr_attr total = {.kind = HR_ATTR_ENUM, .u.enm = {"stablehlo", "comparison_type", "TOTALORDER"}};
  hr_named_attr ok_attrs[] = {{"comparison_direction", &lt}};
  hr_named_attr bad_dir[] = {{"comparison_direction", &bad}};
  hr_named_attr bad_type[] = {{"comparison_direction", &lt}, {"compare_type", &total}};
  hr_tensor *ops[2] = {x, x};
  CHECK_EQ_INT(run_kernel(&in, HR_OP_COMPARE, ok_attrs, 1, 2, ops, r), HR_OK);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_COMPARE, NULL, 0, 2, ops, r), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_COMPARE, bad_dir, 1, 2, ops, r), HR_VERIFY_ERROR);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_COMPARE, bad_type, 2, 2, ops, r), HR_VERIFY_ERROR);
  hr_tensor_free(x);
  hr_tensor_free(r);
}

TEST(parallel_kernels_cover_every_element) {
  hr_threadpool *pool = NULL;
  CHECK_OK(hr_threadpool_create(NULL, 3, &pool));
  hr_interp in = {.pool = pool};
  const int64_t n = 300007; /* several chunks and a ragged tail */
  hr_tensor *a = make_tensor(HR_I64, n), *b = make_tensor(HR_I64, n), *r = make_tensor(HR_I64, n);
  hr_tensor *f = make_tensor(HR_F64, n);
  for (int64_t i = 0; i < n; i++) {
    ((int64_t *)a->data)[i] = i;
    ((int64_t *)b->data)[i] = 3 * i;
  }
  CHECK_EQ_INT(run_kernel(&in, HR_OP_SUBTRACT, NULL, 0, 2, (hr_tensor *[]){b, a}, r), HR_OK);
  CHECK_EQ_INT(run_kernel(&in, HR_OP_CONVERT, NULL, 0, 1, (hr_tensor *[]){r}, f), HR_OK);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; i++) wrong += ((double *)f->data)[i] != 2.0 * (double)i;
  CHECK_EQ_INT(wrong, 0);
  hr_tensor_free(a);
  hr_tensor_free(b);
  hr_tensor_free(r);
  hr_tensor_free(f);
  hr_threadpool_free(pool);
}

int main(void) {
  RUN(kernels_reject_mismatched_operands);
  RUN(compare_attributes_are_checked);
  RUN(parallel_kernels_cover_every_element);
  RUN(scalar_int_wraps);
  RUN(scalar_bool_is_logical);
  RUN(scalar_float_semantics);
  RUN(scalar_rejects_unsupported);
  RUN(erf_inv_values);
  RUN(gamma_family_values);
  RUN(bessel_i1e_values);
  TEST_MAIN_END();
}

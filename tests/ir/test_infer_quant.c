/* Unit tests for quantized types in shape inference (src/ir/infer_quant.c): how each op treats
 * quantized values (hr_quant_op_role) and what makes a quantized type malformed. Programs that run
 * and the verifier's messages are tested end to end by tests/interp/test_quant.sh. */
#include <math.h>
#include <string.h>

#include "ir/infer_internal.h"
#include "test.h"

/* Parses `text` (one function @main) or returns NULL after recording a failure. */
static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse("quant.mlir", text, strlen(text), NULL, &m);
  if (s) {
    fprintf(stderr, "parse failed: %s\n", hr_status_message(s));
    hr_status_free(s);
    CHECK(0);
    return NULL;
  }
  return m;
}

#define PT "tensor<4x!quant.uniform<i8:f32, 0.5>>"
#define PA "tensor<4x!quant.uniform<i8:f32:0, {0.5, 0.5, 0.25, 0.25}>>"

TEST(roles_of_ops) {
  static const char text[] =
      "func.func @main(%x: tensor<4xf32>, %q: " PT ", %a: " PA ", %i: tensor<4xi8>) {\n"
      "  %0 = \"stablehlo.uniform_quantize\"(%x) : (tensor<4xf32>) -> " PT "\n"
      "  %1 = \"stablehlo.add\"(%q, %q) : (" PT ", " PT ") -> " PT "\n"
      "  %2 = \"stablehlo.reshape\"(%q) : (" PT ") -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>\n"
      "  %3 = \"stablehlo.reverse\"(%a) {dimensions = array<i64: 0>} : (" PA ") -> " PA "\n"
      "  %4 = \"stablehlo.bitcast_convert\"(%q) : (" PT ") -> tensor<4xi8>\n"
      "  %5 = \"stablehlo.add\"(%i, %i) : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>\n"
      "  %6 = \"stablehlo.compare\"(%q, %q) {comparison_direction = #stablehlo<comparison_direction LT>} : "
      "(" PT ", " PT ") -> tensor<4xi1>\n"
      "  func.return\n"
      "}\n";
  hr_module *m = parse(text);
  if (!m) return;
  const hr_func *f = hr_module_find_func(m, "main");
  CHECK(f && f->body.n_ops == 8);
  if (f && f->body.n_ops == 8) {
    const hr_quant_role want[] = {HR_QUANT_OWN,    HR_QUANT_VALUES, HR_QUANT_STORED, HR_QUANT_VALUES,
                                  HR_QUANT_STORED, HR_QUANT_NONE,   HR_QUANT_VALUES};
    for (int k = 0; k < 7; k++) CHECK_EQ_INT(hr_quant_op_role(f->body.ops[k]), want[k]);
  }
  hr_module_free(m);
}

/* A per-tensor i8:f32 quantization with scale `scale` and zero point `zp`. */
static hr_quant quant(const double *scale, const int64_t *zp, int32_t n, int32_t axis) {
  hr_quant q = {HR_I8, HR_F32, -128, 127, axis, n, scale, zp};
  return q;
}

TEST(malformed_quantized_types) {
  double ok_scale[2] = {0.5, 0.25}, bad_scale[1] = {NAN}, zero_scale[1] = {0.0};
  int64_t zps[2] = {0, 0}, far_zp[1] = {200};
  int64_t dims[1] = {2};
  hr_type t = hr_tensor_type(HR_I8, 1, dims);
  hr_quant q = quant(ok_scale, zps, 1, -1);
  t.quant = &q;
  CHECK(hri_quant_problem(&t) == NULL);
  q = quant(ok_scale, zps, 2, 0);
  CHECK(hri_quant_problem(&t) == NULL);
  q = quant(ok_scale, zps, 2, -1);
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "more than one scale");
  q = quant(ok_scale, zps, 1, 0);
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "do not match its quantized dimension");
  q = quant(bad_scale, zps, 1, -1);
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "not positive and finite");
  q = quant(zero_scale, zps, 1, -1);
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "not positive and finite");
  q = quant(ok_scale, far_zp, 1, -1);
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "zero point outside");
  q = quant(ok_scale, zps, 1, -1);
  q.storage_min = 5;
  q.storage_max = 5;
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "storage_min is not below its storage_max");
  q = quant(ok_scale, zps, 1, -1);
  q.expressed = HR_I32;
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "expressed type that is not a float");
  q = quant(ok_scale, zps, 1, -1);
  t.dtype = HR_I16; /* not the storage type */
  CHECK_STR_CONTAINS(hri_quant_problem(&t), "not the tensor's element type");
}

int main(void) {
  RUN(roles_of_ops);
  RUN(malformed_quantized_types);
  TEST_MAIN_END();
}

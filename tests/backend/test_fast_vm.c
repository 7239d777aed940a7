/* Vector programs (src/backend/cpu/fast_vm.c): taking the leading adds out of a matmul epilogue
 * (hr_vm_take_leading_adds), and what the rest of the program then computes. */
#include <stdio.h>
#include <string.h>

#include "backend/cpu/fast_internal.h"
#include "ir/ir.h"
#include "test.h"

/* Parses a one-op program whose hlorun.matmul has the given region arguments and body, and
 * compiles the region. Returns the module (caller frees) and the program in *vm. */
static hr_module *compile_region(const char *region_args, const char *body, int n_extra, hr_vm **vm) {
  char text[2048], params[256] = "", operands[128] = "", types[256] = "";
  for (int i = 0; i < n_extra; i++) {
    size_t lp = strlen(params), lo = strlen(operands), lt = strlen(types);
    snprintf(params + lp, sizeof params - lp, ", %%e%d: tensor<4x20xf32>", i);
    snprintf(operands + lo, sizeof operands - lo, ", %%e%d", i);
    snprintf(types + lt, sizeof types - lt, ", tensor<4x20xf32>");
  }
  snprintf(text, sizeof text,
           "func.func @main(%%a: tensor<4x8xf32>, %%b: tensor<8x20xf32>%s) -> tensor<4x20xf32> {\n"
           "  %%0 = \"hlorun.matmul\"(%%a, %%b%s) ({\n"
           "  ^bb0(%s):\n%s"
           "    stablehlo.return %%r : tensor<f32>\n"
           "  }) : (tensor<4x8xf32>, tensor<8x20xf32>%s) -> tensor<4x20xf32>\n"
           "  return %%0 : tensor<4x20xf32>\n}\n",
           params, operands, region_args, body, types);
  hr_module *m = NULL;
  *vm = NULL;
  CHECK_OK(hr_module_parse("vm.mlir", text, strlen(text), NULL, &m));
  if (!m) return NULL;
  CHECK_OK(hr_vm_compile(hr_default_allocator(), &m->funcs[0]->body.ops[0]->regions[0], vm));
  CHECK(*vm != NULL);
  return m;
}

/* Takes the leading adds out (every extra argument addable) and checks what was taken and how
 * many instructions remain. */
static void check_take(const char *region_args, const char *body, int n_extra, int want_taken, const int *want_args,
                       int want_left) {
  hr_vm *vm = NULL;
  hr_module *m = compile_region(region_args, body, n_extra, &vm);
  if (vm) {
    bool addable[HR_VM_MAX_ARGS] = {false};
    for (int i = 1; i <= n_extra; i++) addable[i] = true;
    int args[2] = {-1, -1};
    int taken = hr_vm_take_leading_adds(vm, addable, 2, args);
    CHECK_EQ_INT(taken, want_taken);
    for (int i = 0; i < taken && i < want_taken; i++) CHECK_EQ_INT(args[i], want_args[i]);
    CHECK_EQ_INT(hr_vm_instructions(vm), want_left);
  }
  hr_vm_free(vm);
  hr_module_free(m);
}

TEST(bias_and_residual_are_taken) {
  static const char kArgs2[] = "%acc: tensor<f32>, %x0: tensor<f32>, %x1: tensor<f32>";
  static const char kArgs1[] = "%acc: tensor<f32>, %x0: tensor<f32>";
  const int one[] = {1}, both[] = {1, 2}, swapped[] = {2, 1};
  check_take(kArgs1, "    %r = stablehlo.add %acc, %x0 : tensor<f32>\n", 1, 1, one, 0);
  check_take(kArgs2,
             "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
             "    %r = stablehlo.add %x1, %h : tensor<f32>\n",
             2, 2, both, 0);
  check_take(kArgs2,
             "    %h = stablehlo.add %x1, %acc : tensor<f32>\n"
             "    %r = stablehlo.add %h, %x0 : tensor<f32>\n",
             2, 2, swapped, 0);
  /* bias then GELU-like work on the sum: the adds go, the rest stays. */
  check_take(kArgs1,
             "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
             "    %t = stablehlo.tanh %h : tensor<f32>\n"
             "    %r = stablehlo.multiply %h, %t : tensor<f32>\n",
             1, 1, one, 2);
}

TEST(adds_are_kept_when_something_else_reads_them) {
  static const char kArgs2[] = "%acc: tensor<f32>, %x0: tensor<f32>, %x1: tensor<f32>";
  static const char kArgs1[] = "%acc: tensor<f32>, %x0: tensor<f32>";
  /* the plain accumulator is read again */
  check_take(kArgs1,
             "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
             "    %r = stablehlo.multiply %h, %acc : tensor<f32>\n",
             1, 0, NULL, 2);
  /* a partial sum is read again */
  check_take(kArgs2,
             "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
             "    %g = stablehlo.add %h, %x1 : tensor<f32>\n"
             "    %r = stablehlo.multiply %g, %h : tensor<f32>\n",
             2, 0, NULL, 3);
  /* not an add of the accumulator first */
  check_take(kArgs1, "    %r = stablehlo.multiply %acc, %x0 : tensor<f32>\n", 1, 0, NULL, 1);
  /* acc + acc adds no argument */
  check_take(kArgs1, "    %r = stablehlo.add %acc, %acc : tensor<f32>\n", 1, 0, NULL, 1);
}

/* After taking, the rest reads the sum as argument 0: run it on a sum and compare with the whole
 * program run on the accumulator and the bias. */
TEST(rest_reads_the_sum_as_argument_zero) {
  static const char kArgs1[] = "%acc: tensor<f32>, %x0: tensor<f32>";
  static const char kBody[] =
      "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
      "    %s = stablehlo.multiply %h, %h : tensor<f32>\n"
      "    %r = stablehlo.subtract %s, %x0 : tensor<f32>\n";
  hr_vm *whole = NULL, *rest = NULL;
  hr_module *m1 = compile_region(kArgs1, kBody, 1, &whole);
  hr_module *m2 = compile_region(kArgs1, kBody, 1, &rest);
  if (whole && rest) {
    bool addable[HR_VM_MAX_ARGS] = {false, true};
    int args[2];
    CHECK_EQ_INT(hr_vm_take_leading_adds(rest, addable, 2, args), 1);
    enum { R = 3, C = 37 };
    _Alignas(64) float acc[R * C], bias[R * C], sum[R * C], want[R * C], got[R * C];
    for (int i = 0; i < R * C; i++) {
      acc[i] = (float)(i % 11) * 0.37f - 1.5f;
      bias[i] = (float)(i % 5) * 0.21f - 0.4f;
      sum[i] = acc[i] + bias[i];
    }
    _Alignas(64) static float scratch[1 << 16];
    CHECK(hr_vm_scratch_bytes(whole) <= sizeof scratch && hr_vm_scratch_bytes(rest) <= sizeof scratch);
    hr_vm_input in_whole[2] = {{acc, C, false}, {bias, C, false}};
    hr_vm_input in_rest[2] = {{sum, C, false}, {bias, C, false}};
    hr_vm_run(whole, in_whole, want, C, R, C, scratch);
    hr_vm_run(rest, in_rest, got, C, R, C, scratch);
    CHECK(memcmp(want, got, sizeof want) == 0);
  }
  hr_vm_free(whole);
  hr_vm_free(rest);
  hr_module_free(m1);
  hr_module_free(m2);
}

int main(void) {
  if (!hr_cpu_avx512_ok()) {
    printf("no AVX-512: skipped\n");
    return 77;
  }
  RUN(bias_and_residual_are_taken);
  RUN(adds_are_kept_when_something_else_reads_them);
  RUN(rest_reads_the_sum_as_argument_zero);
  TEST_MAIN_END();
}

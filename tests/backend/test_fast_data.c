/* Fast kernels of stablehlo ops (backend/cpu/fast_data.c, fast_reduce.c) and the executable's plan
 * around them: broadcast_in_dim, transpose, slice, row gather, select and one-op reductions must
 * equal the reference kernels bit for bit (a NaN computed from two NaNs may carry either's payload),
 * on several element types and shapes (unit dims, empty tensors, clamped indices, NaN, signed
 * zeros, infinities); reshapes become aliases and ops of fixed values are folded at
 * creation. Skipped (77) on CPUs without AVX-512. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>

#include "backend/cpu/cpu_features.h"
#include "backend/cpu/fast.h"
#include "runtime/exec_internal.h"
#include "test.h"

/* A tensor of `dtype` filled with a deterministic byte pattern (i1: 0/1; floats: small values). */
static hr_tensor *filled(hr_dtype dtype, int rank, const int64_t *dims, int seed) {
  hr_shape s = {.rank = rank};
  for (int i = 0; i < rank; i++) s.dims[i] = dims[i];
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, dtype, &s, 0, &t));
  int64_t n = t ? hr_tensor_num_elements(t) : 0;
  for (int64_t i = 0; i < n; i++) {
    int v = (int)((i * 37 + seed * 11) % 23) - 11;
    switch (dtype) {
      case HR_I1:
        ((uint8_t *)t->data)[i] = (uint8_t)(v > 0);
        break;
      case HR_I8:
        ((int8_t *)t->data)[i] = (int8_t)v;
        break;
      case HR_U8:
        ((uint8_t *)t->data)[i] = (uint8_t)(v + 11);
        break;
      case HR_I32:
        ((int32_t *)t->data)[i] = v * 1000;
        break;
      case HR_I64:
        ((int64_t *)t->data)[i] = (int64_t)v * 100000;
        break;
      case HR_F16:
        ((uint16_t *)t->data)[i] = (uint16_t)(0x3c00 + v);
        break;
      default:
        ((float *)t->data)[i] = (float)v * 0.375f;
        break;
    }
  }
  return t;
}

__attribute__((format(printf, 1, 2))) static char *text_of(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

/* Whether two tensors hold the same bits, where f32 NaNs match any NaN (which operand's payload a
 * NaN computed from two NaNs carries depends on how a compiler orders a commutative operation). */
static bool same_bits(const hr_tensor *a, const hr_tensor *b) {
  if (a->dtype != b->dtype || a->nbytes != b->nbytes) return false;
  if (a->dtype != HR_F32) return memcmp(a->data, b->data, a->nbytes) == 0;
  for (size_t i = 0; i < a->nbytes / 4; i++) {
    float x = ((const float *)a->data)[i], y = ((const float *)b->data)[i];
    if (memcmp(&x, &y, 4) != 0 && !(isnan(x) && isnan(y))) return false;
  }
  return true;
}

static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("data.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* Runs `text` (frees it) on `args` both ways and checks: the results are identical, step
 * `step` is implemented by `impl`, and the plan has `aliases` alias and `folded` folded steps.
 * bound[i] binds argument i. Frees the arguments. */
static void check_exact(char *text, hr_tensor **args, const bool *bound, int n, int step, const char *impl, int aliases,
                        int folded) {
  hr_module *ref = parse(text), *m = parse(text);
  hr_run_options ro = {.num_threads = 2};
  hr_tensor **want = NULL, **got = NULL, *inputs[8];
  const hr_tensor *binding[8] = {NULL};
  int n_want = 0, n_got = 0, n_inputs = 0;
  for (int i = 0; i < n; i++) {
    if (bound && bound[i])
      binding[i] = args[i];
    else
      inputs[n_inputs++] = args[i];
  }
  hr_executable *e = NULL;
  hr_exec_options eo = {.num_threads = 2};
  if (ref && m) {
    CHECK_OK(hr_module_run(ref, "main", args, n, &ro, &want, &n_want));
    CHECK_OK(hr_executable_create(m, binding, NULL, &eo, &e));
  } else {
    hr_module_free(m);
  }
  if (e) {
    CHECK_OK(hr_executable_run(e, inputs, n_inputs, &got, &n_got));
    const char *used = hr_executable_step_impl(e, step);
    if (!used || strcmp(used, impl) != 0) {
      fprintf(stderr, "step %d runs on %s, expected %s:\n%s", step, used ? used : "(none)", impl, text);
      test_failures_++;
    }
    CHECK_EQ_INT(hr_executable_fast_stats(e).num_alias_steps, aliases);
    CHECK_EQ_INT(hr_executable_fast_stats(e).num_folded_steps, folded);
  }
  CHECK_EQ_INT(n_got, n_want);
  for (int i = 0; i < n_got && i < n_want; i++)
    if (!same_bits(got[i], want[i])) {
      fprintf(stderr, "output %d differs from the reference:\n%s", i, text);
      test_failures_++;
    }
  hr_tensors_free(want, n_want);
  hr_tensors_free(got, n_got);
  hr_executable_free(e);
  hr_module_free(ref);
  for (int i = 0; i < n; i++) hr_tensor_free(args[i]);
  free(text);
}

static const struct {
  hr_dtype dtype;
  const char *name;
} kTypes[] = {{HR_F32, "f32"}, {HR_I1, "i1"}, {HR_I8, "i8"}, {HR_I64, "i64"}, {HR_F16, "f16"}};

TEST(broadcast_in_dim) {
  for (size_t t = 0; t < sizeof kTypes / sizeof kTypes[0]; t++) {
    const char *ty = kTypes[t].name;
    int64_t d1[2] = {3, 1}, d2[1] = {17}, d3[2] = {4, 0};
    hr_tensor *a1[1] = {filled(kTypes[t].dtype, 2, d1, 1)};
    check_exact(text_of("func.func @main(%%x: tensor<3x1x%s>) -> tensor<2x3x5x%s> {\n"
                        "  %%0 = stablehlo.broadcast_in_dim %%x, dims = [1, 2] : (tensor<3x1x%s>) -> tensor<2x3x5x%s>\n"
                        "  return %%0 : tensor<2x3x5x%s>\n}\n",
                        ty, ty, ty, ty, ty),
                a1, NULL, 1, 0, "copy", 0, 0);
    hr_tensor *a2[1] = {filled(kTypes[t].dtype, 1, d2, 2)};
    check_exact(text_of("func.func @main(%%x: tensor<17x%s>) -> tensor<4x1x17x%s> {\n"
                        "  %%0 = stablehlo.broadcast_in_dim %%x, dims = [2] : (tensor<17x%s>) -> tensor<4x1x17x%s>\n"
                        "  return %%0 : tensor<4x1x17x%s>\n}\n",
                        ty, ty, ty, ty, ty),
                a2, NULL, 1, 0, "copy", 0, 0);
    hr_tensor *a3[1] = {filled(kTypes[t].dtype, 2, d3, 3)};
    check_exact(text_of("func.func @main(%%x: tensor<4x0x%s>) -> tensor<4x0x2x%s> {\n"
                        "  %%0 = stablehlo.broadcast_in_dim %%x, dims = [0, 1] : (tensor<4x0x%s>) -> tensor<4x0x2x%s>\n"
                        "  return %%0 : tensor<4x0x2x%s>\n}\n",
                        ty, ty, ty, ty, ty),
                a3, NULL, 1, 0, "copy", 0, 0);
  }
}

TEST(transpose_and_slice) {
  for (size_t t = 0; t < sizeof kTypes / sizeof kTypes[0]; t++) {
    const char *ty = kTypes[t].name;
    int64_t d[4] = {2, 33, 3, 5};
    hr_tensor *a1[1] = {filled(kTypes[t].dtype, 4, d, 4)};
    check_exact(text_of("func.func @main(%%x: tensor<2x33x3x5x%s>) -> tensor<2x3x33x5x%s> {\n"
                        "  %%0 = stablehlo.transpose %%x, dims = [0, 2, 1, 3] : (tensor<2x33x3x5x%s>) -> "
                        "tensor<2x3x33x5x%s>\n"
                        "  return %%0 : tensor<2x3x33x5x%s>\n}\n",
                        ty, ty, ty, ty, ty),
                a1, NULL, 1, 0, "copy", 0, 0);
    hr_tensor *a2[1] = {filled(kTypes[t].dtype, 4, d, 5)};
    check_exact(text_of("func.func @main(%%x: tensor<2x33x3x5x%s>) -> tensor<5x3x33x2x%s> {\n"
                        "  %%0 = stablehlo.transpose %%x, dims = [3, 2, 1, 0] : (tensor<2x33x3x5x%s>) -> "
                        "tensor<5x3x33x2x%s>\n"
                        "  return %%0 : tensor<5x3x33x2x%s>\n}\n",
                        ty, ty, ty, ty, ty),
                a2, NULL, 1, 0, "copy", 0, 0);
    hr_tensor *a3[1] = {filled(kTypes[t].dtype, 4, d, 6)};
    check_exact(text_of("func.func @main(%%x: tensor<2x33x3x5x%s>) -> tensor<1x11x3x2x%s> {\n"
                        "  %%0 = stablehlo.slice %%x [1:2, 2:33:3, 0:3, 1:5:2] : (tensor<2x33x3x5x%s>) -> "
                        "tensor<1x11x3x2x%s>\n"
                        "  return %%0 : tensor<1x11x3x2x%s>\n}\n",
                        ty, ty, ty, ty, ty),
                a3, NULL, 1, 0, "copy", 0, 0);
  }
}

TEST(row_gather) {
  const char *itypes[] = {"i32", "i64", "ui8"};
  hr_dtype idt[] = {HR_I32, HR_I64, HR_U8};
  for (int t = 0; t < 3; t++) {
    int64_t xd[2] = {7, 19}, id[3] = {2, 5, 1}, id2[1] = {4};
    hr_tensor *args[2] = {filled(HR_F32, 2, xd, 7), filled(idt[t], 3, id, 8)};
    /* indices out of range (negative, >= 7) clamp */
    check_exact(text_of("func.func @main(%%x: tensor<7x19xf32>, %%i: tensor<2x5x1x%s>) -> tensor<2x5x19xf32> {\n"
                        "  %%0 = \"stablehlo.gather\"(%%x, %%i) <{dimension_numbers = #stablehlo.gather<offset_dims = "
                        "[2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, "
                        "slice_sizes = array<i64: 1, 19>}> : (tensor<7x19xf32>, tensor<2x5x1x%s>) -> "
                        "tensor<2x5x19xf32>\n"
                        "  return %%0 : tensor<2x5x19xf32>\n}\n",
                        itypes[t], itypes[t]),
                args, (bool[]){true, false}, 2, 0, "gather", 0, 0);
    hr_tensor *args2[2] = {filled(HR_I8, 2, xd, 9), filled(idt[t], 1, id2, 10)};
    check_exact(text_of("func.func @main(%%x: tensor<7x19xi8>, %%i: tensor<4x%s>) -> tensor<4x19xi8> {\n"
                        "  %%0 = \"stablehlo.gather\"(%%x, %%i) <{dimension_numbers = #stablehlo.gather<offset_dims = "
                        "[1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, "
                        "slice_sizes = array<i64: 1, 19>}> : (tensor<7x19xi8>, tensor<4x%s>) -> tensor<4x19xi8>\n"
                        "  return %%0 : tensor<4x19xi8>\n}\n",
                        itypes[t], itypes[t]),
                args2, NULL, 2, 0, "gather", 0, 0);
  }
}

TEST(select_by_predicate) {
  int64_t d[3] = {3, 5, 37};
  hr_tensor *a1[3] = {filled(HR_I1, 3, d, 11), filled(HR_F32, 3, d, 12), filled(HR_F32, 3, d, 13)};
  check_exact(text_of("func.func @main(%%p: tensor<3x5x37xi1>, %%a: tensor<3x5x37xf32>, %%b: tensor<3x5x37xf32>) -> "
                      "tensor<3x5x37xf32> {\n"
                      "  %%0 = stablehlo.select %%p, %%a, %%b : tensor<3x5x37xi1>, tensor<3x5x37xf32>\n"
                      "  return %%0 : tensor<3x5x37xf32>\n}\n"),
              a1, NULL, 3, 0, "select", 0, 0);
  hr_tensor *a2[3] = {filled(HR_I1, 0, NULL, 1), filled(HR_I32, 3, d, 14), filled(HR_I32, 3, d, 15)};
  check_exact(text_of("func.func @main(%%p: tensor<i1>, %%a: tensor<3x5x37xi32>, %%b: tensor<3x5x37xi32>) -> "
                      "tensor<3x5x37xi32> {\n"
                      "  %%0 = stablehlo.select %%p, %%a, %%b : tensor<i1>, tensor<3x5x37xi32>\n"
                      "  return %%0 : tensor<3x5x37xi32>\n}\n"),
              a2, NULL, 3, 0, "select", 0, 0);
}

/* A reduce of `x` (type `ty`, dims given as text) with body `op`, over `dims`. */
static void reduce_case(hr_dtype dtype, const char *ty, int rank, const int64_t *xd, const char *xt, const char *yt,
                        const char *dims, const char *op, int seed) {
  hr_tensor *args[1] = {filled(dtype, rank, xd, seed)};
  if (dtype == HR_F32 && args[0] && hr_tensor_num_elements(args[0]) > 3)
    ((float *)args[0]->data)[3] = seed % 2 ? NAN : -0.0f;
  const char *init = dtype == HR_F32 ? "0.5" : dtype == HR_I1 ? "true" : "3";
  check_exact(text_of("func.func @main(%%x: tensor<%s%s>) -> tensor<%s%s> {\n"
                      "  %%i = stablehlo.constant dense<%s> : tensor<%s>\n"
                      "  %%0 = stablehlo.reduce(%%x init: %%i) applies %s across dimensions = [%s] : "
                      "(tensor<%s%s>, tensor<%s>) -> tensor<%s%s>\n"
                      "  return %%0 : tensor<%s%s>\n}\n",
                      xt, ty, yt, ty, init, ty, op, dims, xt, ty, ty, yt, ty, yt, ty),
              args, NULL, 1, 0, "reduce", 0, 0);
}

TEST(reductions) {
  int64_t d3[3] = {4, 7, 33};
  const char *fops[] = {"stablehlo.add", "stablehlo.multiply", "stablehlo.maximum", "stablehlo.minimum"};
  for (int i = 0; i < 4; i++) {
    reduce_case(HR_F32, "f32", 3, d3, "4x7x33x", "4x7x", "2", fops[i], i);
    reduce_case(HR_F32, "f32", 3, d3, "4x7x33x", "7x", "0, 2", fops[i], i + 1);
    reduce_case(HR_F32, "f32", 3, d3, "4x7x33x", "4x33x", "1", fops[i], i + 2);
  }
  const char *iops[] = {"stablehlo.add", "stablehlo.maximum", "stablehlo.and", "stablehlo.xor"};
  for (int i = 0; i < 4; i++) {
    reduce_case(HR_I32, "i32", 3, d3, "4x7x33x", "4x33x", "1", iops[i], i);
    reduce_case(HR_I64, "i64", 3, d3, "4x7x33x", "", "0, 1, 2", iops[i], i);
  }
  reduce_case(HR_I1, "i1", 3, d3, "4x7x33x", "4x7x", "2", "stablehlo.and", 5);
  reduce_case(HR_I1, "i1", 3, d3, "4x7x33x", "33x", "0, 1", "stablehlo.or", 6);
  int64_t d0[2] = {3, 0};
  reduce_case(HR_F32, "f32", 2, d0, "3x0x", "3x", "1", "stablehlo.add", 7);
}

/* Exact f32 elementwise ops on special values (NaN, infinities, signed zeros, ties) in every
 * pairing, rows of 37 (a vector and a tail). */
TEST(exact_elementwise) {
  static const float special[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.5f, -2.5f, 0.5f, 3.0f, 1e-40f, -7.0f};
  enum { NS = sizeof special / sizeof special[0] };
  int64_t d[2] = {NS * NS / 37 + 1, 37};
  const char *binary[] = {"add", "subtract", "multiply", "divide", "maximum", "minimum"};
  const char *unary[] = {"negate", "abs", "sqrt", "floor", "ceil", "round_nearest_even", "sign"};
  for (int op = 0; op < 13; op++) {
    bool bin = op < 6;
    hr_tensor *args[2] = {filled(HR_F32, 2, d, op), filled(HR_F32, 2, d, op + 1)};
    for (int i = 0; args[0] && args[1] && i < NS * NS; i++) {
      ((float *)args[0]->data)[i] = special[i / NS];
      ((float *)args[1]->data)[i] = special[i % NS];
    }
    char *text = bin ? text_of("func.func @main(%%a: tensor<%lldx37xf32>, %%b: tensor<%lldx37xf32>) -> "
                               "tensor<%lldx37xf32> {\n"
                               "  %%0 = stablehlo.%s %%a, %%b : tensor<%lldx37xf32>\n"
                               "  return %%0 : tensor<%lldx37xf32>\n}\n",
                               (long long)d[0], (long long)d[0], (long long)d[0], binary[op], (long long)d[0],
                               (long long)d[0])
                     : text_of("func.func @main(%%a: tensor<%lldx37xf32>) -> tensor<%lldx37xf32> {\n"
                               "  %%0 = stablehlo.%s %%a : tensor<%lldx37xf32>\n"
                               "  return %%0 : tensor<%lldx37xf32>\n}\n",
                               (long long)d[0], (long long)d[0], unary[op - 6], (long long)d[0], (long long)d[0]);
    if (!bin) hr_tensor_free(args[1]);
    check_exact(text, args, NULL, bin ? 2 : 1, 0, "elementwise", 0, 0);
  }
}

/* The embedding pattern of the TinyTransformer: a reshape alias, and a position-embedding
 * chain of fixed values folded at creation (gather by constant indices of a bound table). */
TEST(aliases_and_folding) {
  int64_t xd[2] = {16, 8}, td[2] = {2, 4};
  hr_tensor *args[2] = {filled(HR_F32, 2, xd, 16), filled(HR_I32, 2, td, 17)};
  check_exact(
      text_of("func.func @main(%%table: tensor<16x8xf32>, %%tok: tensor<2x4xi32>) -> tensor<2x4x8xf32> {\n"
              "  %%i = stablehlo.reshape %%tok : (tensor<2x4xi32>) -> tensor<2x4x1xi32>\n"
              "  %%g = \"stablehlo.gather\"(%%table, %%i) <{dimension_numbers = #stablehlo.gather<offset_dims = "
              "[2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = "
              "array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<2x4x1xi32>) -> tensor<2x4x8xf32>\n"
              "  %%c = stablehlo.constant dense<[[3], [1], [4], [1]]> : tensor<4x1xi32>\n"
              "  %%p = \"stablehlo.gather\"(%%table, %%c) <{dimension_numbers = #stablehlo.gather<offset_dims = "
              "[1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = "
              "array<i64: 1, 8>}> : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>\n"
              "  %%r = stablehlo.reshape %%p : (tensor<4x8xf32>) -> tensor<32xf32>\n"
              "  %%q = stablehlo.reshape %%r : (tensor<32xf32>) -> tensor<4x8xf32>\n"
              "  %%b = stablehlo.broadcast_in_dim %%q, dims = [1, 2] : (tensor<4x8xf32>) -> tensor<2x4x8xf32>\n"
              "  %%y = stablehlo.add %%g, %%b : tensor<2x4x8xf32>\n"
              "  return %%y : tensor<2x4x8xf32>\n}\n"),
      args, (bool[]){true, false}, 2, 1, "gather", 2, 2);
}

int main(void) {
  if (!hr_cpu_avx512_ok()) {
    printf("skipped: no AVX-512\n");
    return 77;
  }
  RUN(broadcast_in_dim);
  RUN(transpose_and_slice);
  RUN(row_gather);
  RUN(select_by_predicate);
  RUN(reductions);
  RUN(exact_elementwise);
  RUN(aliases_and_folding);
  TEST_MAIN_END();
}

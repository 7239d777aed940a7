/* Executables: planning (arena reuse, constants, bound parameters), running (results equal to the
 * reference interpreter's, bit for bit, also over many runs), wrapped steps (control flow, calls,
 * regions reading values of main), input validation and limits. When ../shared is present, every
 * conformance program is also run both ways. */
#include <dirent.h>
#include <stdint.h>

#include "runtime/exec_internal.h"
#include "test.h"
#include "same_outputs.h"

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("exec.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* A tensor filled with a deterministic pattern of small values. */
static hr_tensor *pattern(hr_dtype dtype, int rank, const int64_t *dims, int seed) {
  hr_shape s = {.rank = rank};
  for (int i = 0; i < rank; i++) s.dims[i] = dims[i];
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, dtype, &s, 0, &t));
  int64_t n = t ? hr_tensor_num_elements(t) : 0;
  for (int64_t i = 0; i < n; i++) {
    int v = (int)((i * 7 + seed * 13) % 11) - 5;
    if (dtype == HR_F32) ((float *)t->data)[i] = (float)v * 0.25f;
    if (dtype == HR_I32) ((int32_t *)t->data)[i] = v;
    if (dtype == HR_I64) ((int64_t *)t->data)[i] = v;
  }
  return t;
}

/* Runs `text` through the interpreter and as an executable (with `bound` parameters) on the same
 * arguments (`args` has one entry per parameter; bound ones are taken from `bound`), `runs` times,
 * and checks every run against the interpreter. Returns the executable's plan figures. */
static hr_exec_stats compare_with_interp(const char *text, hr_tensor **args, int n_args, const hr_tensor *const *bound,
                                         int runs) {
  hr_exec_stats stats = {0};
  hr_module *ref = parse(text), *m = parse(text);
  if (!ref || !m) {
    hr_module_free(ref);
    hr_module_free(m);
    return stats;
  }
  hr_tensor *all[16], *inputs[16];
  int n_inputs = 0;
  for (int i = 0; i < n_args; i++) {
    all[i] = bound && bound[i] ? (hr_tensor *)bound[i] : args[i];
    if (!(bound && bound[i])) inputs[n_inputs++] = args[i];
  }
  hr_run_options ro = {.num_threads = 2};
  hr_tensor **want = NULL;
  int n_want = 0;
  CHECK_OK(hr_module_run(ref, "main", all, n_args, &ro, &want, &n_want));
  hr_exec_options eo = {.num_threads = 2};
  hr_executable *e = NULL;
  CHECK_OK(hr_executable_create(m, bound, NULL, &eo, &e));
  for (int r = 0; e && want && r < runs; r++) {
    hr_tensor **got = NULL;
    int n_got = 0;
    CHECK_OK(hr_executable_run(e, inputs, n_inputs, &got, &n_got));
    if (got) check_same_outputs(got, n_got, want, n_want, "executable vs interpreter");
    hr_tensors_free(got, n_got);
  }
  if (e) stats = hr_executable_stats(e);
  hr_executable_free(e);
  hr_tensors_free(want, n_want);
  hr_module_free(ref);
  return stats;
}

/* Creates an executable from `text` expecting failure with `code`; returns the message (owned). */
static char *create_error(const char *text, const hr_tensor *const *bound, const hr_exec_options *opts, hr_code code) {
  hr_module *m = parse(text);
  if (!m) return NULL;
  hr_executable *e = NULL;
  hr_status s = hr_executable_create(m, bound, NULL, opts, &e);
  CHECK(s != NULL);
  CHECK(e == NULL);
  CHECK_EQ_INT(hr_status_code(s), code);
  char *msg = s ? strdup(hr_status_message(s)) : NULL;
  hr_status_free(s);
  hr_executable_free(e);
  return msg;
}

/* ---------------------------------------------------------------------------------------------- */
/* Programs                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static const char *const chain_mlir =
    "func.func @main(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {\n"
    "  %c = stablehlo.constant dense<0.5> : tensor<64x32xf32>\n"
    "  %0 = stablehlo.add %a, %b : tensor<64x32xf32>\n"
    "  %1 = stablehlo.multiply %0, %c : tensor<64x32xf32>\n"
    "  %2 = stablehlo.tanh %1 : tensor<64x32xf32>\n"
    "  %3 = stablehlo.subtract %2, %a : tensor<64x32xf32>\n"
    "  %4 = stablehlo.exponential %3 : tensor<64x32xf32>\n"
    "  %5 = stablehlo.negate %4 : tensor<64x32xf32>\n"
    "  %6 = stablehlo.abs %5 : tensor<64x32xf32>\n"
    "  %7 = stablehlo.maximum %6, %b : tensor<64x32xf32>\n"
    "  %8 = stablehlo.sqrt %7 : tensor<64x32xf32>\n"
    "  %9 = stablehlo.add %8, %0 : tensor<64x32xf32>\n"
    "  return %9 : tensor<64x32xf32>\n"
    "}\n";

static const char *const reduce_dot_mlir =
    "func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> (tensor<8x4xf32>, tensor<8xf32>, tensor<4x8xf32>) {\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>\n"
    "  %1 = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>\n"
    "  %2 = stablehlo.transpose %0, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>\n"
    "  return %0, %1, %2 : tensor<8x4xf32>, tensor<8xf32>, tensor<4x8xf32>\n"
    "}\n";

static const char *const while_mlir =
    "func.func @main(%x: tensor<4xf32>) -> (tensor<i32>, tensor<4xf32>) {\n"
    "  %zero = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %0:2 = stablehlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<4xf32>\n"
    "   cond {\n"
    "    %ten = stablehlo.constant dense<10> : tensor<i32>\n"
    "    %c = stablehlo.compare LT, %i, %ten, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  } do {\n"
    "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %n = stablehlo.add %i, %one : tensor<i32>\n"
    "    %a = stablehlo.add %acc, %acc : tensor<4xf32>\n"
    "    stablehlo.return %n, %a : tensor<i32>, tensor<4xf32>\n"
    "  }\n"
    "  %1 = stablehlo.negate %0#1 : tensor<4xf32>\n"
    "  return %0#0, %1 : tensor<i32>, tensor<4xf32>\n"
    "}\n";

static const char *const scatter_sort_mlir =
    "func.func @main(%x: tensor<6xi32>, %idx: tensor<2x1xi64>, %upd: tensor<2xi32>) -> (tensor<6xi32>, tensor<6xi32>) {\n"
    "  %0 = \"stablehlo.scatter\"(%x, %idx, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<"
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
    "  ^bb0(%p: tensor<i32>, %q: tensor<i32>):\n"
    "    %s = stablehlo.add %p, %q : tensor<i32>\n"
    "    stablehlo.return %s : tensor<i32>\n"
    "  }) : (tensor<6xi32>, tensor<2x1xi64>, tensor<2xi32>) -> tensor<6xi32>\n"
    "  %1 = \"stablehlo.sort\"(%0) <{dimension = 0 : i64}> ({\n"
    "  ^bb0(%p: tensor<i32>, %q: tensor<i32>):\n"
    "    %c = stablehlo.compare GT, %p, %q, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  }) : (tensor<6xi32>) -> tensor<6xi32>\n"
    "  return %0, %1 : tensor<6xi32>, tensor<6xi32>\n"
    "}\n";

/* Regions that read values of main directly (captures) and a call: wrapped steps. */
static const char *const capture_mlir =
    "func.func private @twice(%v: tensor<3xf32>) -> tensor<3xf32> {\n"
    "  %0 = stablehlo.add %v, %v : tensor<3xf32>\n"
    "  return %0 : tensor<3xf32>\n"
    "}\n"
    "func.func @main(%p: tensor<i1>, %x: tensor<3xf32>, %k: tensor<i32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<f32>) {\n"
    "  %s = stablehlo.exponential %x : tensor<3xf32>\n"
    "  %0 = \"stablehlo.if\"(%p) ({\n"
    "    %a = stablehlo.add %s, %x : tensor<3xf32>\n"
    "    stablehlo.return %a : tensor<3xf32>\n"
    "  }, {\n"
    "    stablehlo.return %s : tensor<3xf32>\n"
    "  }) : (tensor<i1>) -> tensor<3xf32>\n"
    "  %1 = \"stablehlo.case\"(%k) ({\n"
    "    stablehlo.return %x : tensor<3xf32>\n"
    "  }, {\n"
    "    %b = func.call @twice(%0) : (tensor<3xf32>) -> tensor<3xf32>\n"
    "    stablehlo.return %b : tensor<3xf32>\n"
    "  }) : (tensor<i32>) -> tensor<3xf32>\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %2 = stablehlo.reduce(%1 init: %z) across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>\n"
    "   reducer(%u: tensor<f32>, %v: tensor<f32>) {\n"
    "    %w = stablehlo.add %u, %v : tensor<f32>\n"
    "    %y = stablehlo.reduce(%s init: %w) applies stablehlo.maximum across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>\n"
    "    stablehlo.return %y : tensor<f32>\n"
    "  }\n"
    "  %3 = func.call @twice(%1) : (tensor<3xf32>) -> tensor<3xf32>\n"
    "  return %3, %0, %2 : tensor<3xf32>, tensor<3xf32>, tensor<f32>\n"
    "}\n";

/* Results that are a parameter, a constant, and the same value twice. */
static const char *const passthrough_mlir =
    "func.func @main(%a: tensor<2x2xi32>, %b: tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<3xi32>, tensor<2x2xi32>, "
    "tensor<2x2xi32>, tensor<2x2xi32>) {\n"
    "  %c = stablehlo.constant dense<[7, 8, 9]> : tensor<3xi32>\n"
    "  %0 = stablehlo.add %a, %b : tensor<2x2xi32>\n"
    "  return %a, %c, %0, %0, %b : tensor<2x2xi32>, tensor<3xi32>, tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>\n"
    "}\n";

/* ---------------------------------------------------------------------------------------------- */
/* Tests                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

TEST(elementwise_chain_reuses_memory) {
  int64_t d[2] = {64, 32};
  hr_tensor *args[2] = {pattern(HR_F32, 2, d, 1), pattern(HR_F32, 2, d, 2)};
  hr_exec_stats st = compare_with_interp(chain_mlir, args, 2, NULL, 3);
  /* Ten 8 KiB intermediates; at most three are live at once (%0 lives to the end). */
  CHECK_EQ_INT(st.intermediate_bytes, 10 * 64 * 32 * 4);
  CHECK(st.arena_bytes <= 3 * 64 * 32 * 4);
  CHECK_EQ_INT(st.constant_bytes, 64 * 32 * 4);
  CHECK_EQ_INT(st.num_steps, 10);
  CHECK_EQ_INT(st.num_wrapped_steps, 0);
  for (int i = 0; i < 2; i++) hr_tensor_free(args[i]);
}

TEST(reduce_dot_transpose) {
  int64_t dx[2] = {8, 16}, dw[2] = {16, 4};
  hr_tensor *args[2] = {pattern(HR_F32, 2, dx, 3), pattern(HR_F32, 2, dw, 4)};
  hr_exec_stats st = compare_with_interp(reduce_dot_mlir, args, 2, NULL, 2);
  CHECK_EQ_INT(st.num_steps, 3);
  CHECK_EQ_INT(st.num_wrapped_steps, 0);
  for (int i = 0; i < 2; i++) hr_tensor_free(args[i]);
}

TEST(while_loop_is_wrapped) {
  int64_t d[1] = {4};
  hr_tensor *args[1] = {pattern(HR_F32, 1, d, 5)};
  hr_exec_stats st = compare_with_interp(while_mlir, args, 1, NULL, 3);
  CHECK_EQ_INT(st.num_steps, 2);
  CHECK_EQ_INT(st.num_wrapped_steps, 1);
  hr_tensor_free(args[0]);
}

TEST(scatter_and_sort_regions) {
  int64_t dx[1] = {6}, di[2] = {2, 1}, du[1] = {2};
  hr_tensor *args[3] = {pattern(HR_I32, 1, dx, 6), pattern(HR_I64, 2, di, 0), pattern(HR_I32, 1, du, 7)};
  ((int64_t *)args[1]->data)[0] = 4;
  ((int64_t *)args[1]->data)[1] = 1;
  hr_exec_stats st = compare_with_interp(scatter_sort_mlir, args, 3, NULL, 2);
  CHECK_EQ_INT(st.num_wrapped_steps, 0);
  for (int i = 0; i < 3; i++) hr_tensor_free(args[i]);
}

TEST(captures_and_calls) {
  int64_t d[1] = {3};
  for (int branch = 0; branch < 2; branch++) {
    hr_tensor *args[3] = {pattern(HR_I32, 0, NULL, 0), pattern(HR_F32, 1, d, 8), pattern(HR_I32, 0, NULL, 0)};
    hr_tensor *p = NULL;
    hr_shape s0 = {.rank = 0};
    CHECK_OK(hr_tensor_create(NULL, HR_I1, &s0, 0, &p));
    if (!p) return;
    ((uint8_t *)p->data)[0] = (uint8_t)branch;
    hr_tensor_free(args[0]);
    args[0] = p;
    ((int32_t *)args[2]->data)[0] = branch;
    hr_exec_stats st = compare_with_interp(capture_mlir, args, 3, NULL, 2);
    CHECK_EQ_INT(st.num_steps, 5);
    CHECK_EQ_INT(st.num_wrapped_steps, 4); /* if, case, reduce (captures %s), call */
    for (int i = 0; i < 3; i++) hr_tensor_free(args[i]);
  }
}

TEST(outputs_from_inputs_and_constants) {
  int64_t d[2] = {2, 2};
  hr_tensor *args[2] = {pattern(HR_I32, 2, d, 1), pattern(HR_I32, 2, d, 2)};
  hr_exec_stats st = compare_with_interp(passthrough_mlir, args, 2, NULL, 2);
  CHECK_EQ_INT(st.arena_bytes, 64);
  for (int i = 0; i < 2; i++) hr_tensor_free(args[i]);
}

/* Equal constants (as inlining produces) share one copy; different ones do not. */
static const char *const constants_mlir =
    "func.func @main(%a: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x8xf32>) {\n"
    "  %c0 = stablehlo.constant dense<2.0> : tensor<16x16xf32>\n"
    "  %0 = stablehlo.multiply %a, %c0 : tensor<16x16xf32>\n"
    "  %c1 = stablehlo.constant dense<2.0> : tensor<16x16xf32>\n"
    "  %1 = stablehlo.add %0, %c1 : tensor<16x16xf32>\n"
    "  %c2 = stablehlo.constant dense<3.0> : tensor<16x16xf32>\n"
    "  %2 = stablehlo.add %1, %c2 : tensor<16x16xf32>\n"
    "  %c3 = stablehlo.constant dense<2.0> : tensor<16x8xf32>\n"
    "  %3 = stablehlo.slice %2 [0:16, 0:8] : (tensor<16x16xf32>) -> tensor<16x8xf32>\n"
    "  %4 = stablehlo.add %3, %c3 : tensor<16x8xf32>\n"
    "  return %2, %4 : tensor<16x16xf32>, tensor<16x8xf32>\n"
    "}\n";

TEST(equal_constants_share_storage) {
  int64_t d[2] = {16, 16};
  hr_tensor *args[1] = {pattern(HR_F32, 2, d, 1)};
  hr_exec_stats st = compare_with_interp(constants_mlir, args, 1, NULL, 2);
  CHECK_EQ_INT(st.constant_bytes, 1024 + 1024 + 512); /* 2.0 once, 3.0, and the 16x8 2.0 */
  hr_tensor_free(args[0]);
}

TEST(bound_parameters_used_in_place) {
  int64_t d[2] = {64, 32};
  hr_tensor *args[2] = {pattern(HR_F32, 2, d, 3), pattern(HR_F32, 2, d, 4)};
  const hr_tensor *bound[2] = {NULL, args[1]};
  compare_with_interp(chain_mlir, args, 2, bound, 2);

  hr_module *m = parse(chain_mlir);
  hr_executable *e = NULL;
  if (m) CHECK_OK(hr_executable_create(m, bound, NULL, NULL, &e));
  if (e) {
    CHECK_EQ_INT(hr_executable_num_inputs(e), 1);
    CHECK_EQ_INT(hr_executable_num_outputs(e), 1);
    CHECK(hr_executable_bound(e, 0) == NULL);
    const hr_tensor *b = hr_executable_bound(e, 1);
    CHECK(b && b->data == args[1]->data); /* not copied */
    CHECK(hr_executable_bound(e, 2) == NULL);
    hr_tensor_spec in = hr_executable_input_spec(e, 0), out = hr_executable_output_spec(e, 0);
    CHECK(in.dtype == HR_F32 && in.shape.rank == 2 && in.shape.dims[0] == 64 && in.shape.dims[1] == 32);
    CHECK(out.dtype == HR_F32 && out.shape.rank == 2);
    CHECK(hr_executable_input_spec(e, 1).dtype == HR_DTYPE_INVALID);
    CHECK(hr_executable_output_spec(e, -1).dtype == HR_DTYPE_INVALID);
    CHECK(hr_module_find_func(hr_executable_module(e), "main") != NULL);
  }
  hr_executable_free(e);
  for (int i = 0; i < 2; i++) hr_tensor_free(args[i]);
}

TEST(bound_parameter_mismatch) {
  int64_t d[2] = {64, 31};
  hr_tensor *wrong = pattern(HR_F32, 2, d, 1);
  const hr_tensor *bound[2] = {NULL, wrong};
  char *msg = create_error(chain_mlir, bound, NULL, HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(msg, "exec.mlir:1:1: @main: parameter 1");
  CHECK_STR_CONTAINS(msg, "tensor<64x31xf32>, expected tensor<64x32xf32>");
  free(msg);
  hr_tensor_free(wrong);
}

TEST(input_validation) {
  hr_module *m = parse(chain_mlir);
  hr_executable *e = NULL;
  if (m) CHECK_OK(hr_executable_create(m, NULL, NULL, NULL, &e));
  if (!e) return;
  int64_t good[2] = {64, 32}, bad[2] = {32, 64};
  hr_tensor *a = pattern(HR_F32, 2, good, 1), *b = pattern(HR_F32, 2, bad, 1), *c = pattern(HR_I32, 2, good, 1);
  hr_tensor **outs = NULL;
  int n = -1;
  hr_tensor *wrong_count[1] = {a}, *wrong_shape[2] = {a, b}, *wrong_dtype[2] = {c, a}, *missing[2] = {a, NULL};
  struct {
    hr_tensor **in;
    int n;
    const char *msg;
  } cases[] = {
      {wrong_count, 1, "takes 2 inputs, 1 given"},
      {wrong_shape, 2, "input 1 (parameter 1 of @main) is tensor<32x64xf32>, expected tensor<64x32xf32>"},
      {wrong_dtype, 2, "input 0 (parameter 0 of @main) is tensor<64x32xi32>, expected tensor<64x32xf32>"},
      {missing, 2, "input 1 is missing"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hr_status s = hr_executable_run(e, cases[i].in, cases[i].n, &outs, &n);
    CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
    CHECK_STR_CONTAINS(hr_status_message(s), cases[i].msg);
    CHECK(outs == NULL && n == 0);
    hr_status_free(s);
  }
  /* A tensor whose byte count disagrees with its shape. */
  a->nbytes -= 4;
  hr_status s = hr_executable_run(e, (hr_tensor *[]){a, a}, 2, &outs, &n);
  CHECK_STR_CONTAINS(hr_status_message(s), "input 0 has 8188 bytes of data, its shape needs 8192");
  hr_status_free(s);
  a->nbytes += 4;
  hr_tensor_free(a);
  hr_tensor_free(b);
  hr_tensor_free(c);
  hr_executable_free(e);
}

TEST(many_runs_identical) {
  hr_module *m = parse(capture_mlir);
  hr_executable *e = NULL;
  if (m) CHECK_OK(hr_executable_create(m, NULL, NULL, NULL, &e));
  if (!e) return;
  int64_t d[1] = {3};
  hr_tensor *args[3] = {pattern(HR_I1, 0, NULL, 0), pattern(HR_F32, 1, d, 9), pattern(HR_I32, 0, NULL, 0)};
  ((int32_t *)args[2]->data)[0] = 1;
  hr_tensor **first = NULL;
  int n_first = 0;
  CHECK_OK(hr_executable_run(e, args, 3, &first, &n_first));
  for (int r = 0; first && r < 50; r++) {
    hr_tensor **again = NULL;
    int n_again = 0;
    CHECK_OK(hr_executable_run(e, args, 3, &again, &n_again));
    if (again) check_same_outputs(again, n_again, first, n_first, "repeated run");
    hr_tensors_free(again, n_again);
  }
  hr_tensors_free(first, n_first);
  for (int i = 0; i < 3; i++) hr_tensor_free(args[i]);
  hr_executable_free(e);
}

TEST(rejects_dynamic_shapes_and_missing_main) {
  char *msg = create_error("func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                           "  %0 = stablehlo.negate %a : tensor<?xf32>\n"
                           "  return %0 : tensor<?xf32>\n"
                           "}\n",
                           NULL, NULL, HR_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(msg, "exec.mlir:1:1: @main: parameter 0 has a dynamic shape");
  free(msg);
  msg = create_error("func.func @main(%a: tensor<2xi32>, %n: tensor<1xi32>) -> tensor<?xi32> {\n"
                     "  %0 = stablehlo.dynamic_reshape %a, %n : (tensor<2xi32>, tensor<1xi32>) -> tensor<?xi32>\n"
                     "  return %0 : tensor<?xi32>\n"
                     "}\n",
                     NULL, NULL, HR_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(msg, "exec.mlir:2:3: stablehlo.dynamic_reshape: result 0 has a dynamic shape");
  free(msg);
  msg = create_error("func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {\n  return %a : tensor<2xi32>\n}\n", NULL, NULL,
                     HR_NOT_FOUND);
  CHECK_STR_CONTAINS(msg, "no function @main");
  free(msg);
}

TEST(arena_limit) {
  /* Three live 8 KiB intermediates and an 8 KiB constant. */
  hr_exec_options opts = {.max_arena_bytes = 4 * 8192 - 64};
  char *msg = create_error(chain_mlir, NULL, &opts, HR_RESOURCE_EXHAUSTED);
  CHECK_STR_CONTAINS(msg, "constants and working memory exceed the limit of 32704 bytes");
  free(msg);
  opts.max_arena_bytes = 2 * 8192;
  msg = create_error(chain_mlir, NULL, &opts, HR_RESOURCE_EXHAUSTED);
  CHECK_STR_CONTAINS(msg, "working memory exceeds the limit of 16384 bytes");
  free(msg);
}

TEST(kernel_errors_are_positioned) {
  /* A custom call of an unknown target is refused when the executable is made, naming it; a
   * kernel that fails at run time (potrf of a matrix that is not square) fails with its position,
   * and the executable stays usable after the error. */
  hr_module *m = parse("func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {\n"
                       "  %0 = stablehlo.custom_call @mystery(%a) : (tensor<2xi32>) -> tensor<2xi32>\n"
                       "  return %0 : tensor<2xi32>\n"
                       "}\n");
  hr_executable *e = NULL;
  hr_status s = m ? hr_executable_create(m, NULL, NULL, NULL, &e) : NULL;
  CHECK_STR_CONTAINS(hr_status_message(s), "exec.mlir:2:3: stablehlo.custom_call: custom_call @mystery is not supported");
  hr_status_free(s); /* the executable took the module, also on error */
  m = parse("func.func @main(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {\n"
            "  %0:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) : (tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<i32>)\n"
            "  return %0#0 : tensor<2x3xf64>\n"
            "}\n");
  if (m) CHECK_OK(hr_executable_create(m, NULL, NULL, NULL, &e));
  if (!e) return;
  int64_t d[2] = {2, 3};
  hr_tensor *a = pattern(HR_F64, 2, d, 0);
  hr_tensor **outs = NULL;
  int n = 0;
  for (int r = 0; r < 2; r++) { /* the executable stays usable after an error */
    s = hr_executable_run(e, &a, 1, &outs, &n);
    CHECK_STR_CONTAINS(hr_status_message(s), "exec.mlir:2:3: stablehlo.custom_call: potrf needs square matrices");
    hr_status_free(s);
  }
  hr_tensor_free(a);
  hr_executable_free(e);
}

/* Runs one conformance program both ways; returns false when the executable rejected it. */
static bool compare_corpus_program(const char *path, const char *name) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse_file(path, NULL, &m));
  if (!m) return true;
  hr_tensor **want = NULL, **got = NULL;
  int n_want = 0, n_got = 0;
  hr_run_options ro = {.num_threads = 1};
  const hr_func *fn = hr_module_find_func(m, "main");
  /* Programs with parameters are the shape-polymorphic ones: not static, so rejected below. */
  if (fn && fn->n_args == 0) CHECK_OK(hr_module_run(m, "main", NULL, 0, &ro, &want, &n_want));
  hr_exec_options eo = {.num_threads = 1};
  hr_executable *e = NULL;
  hr_status s = hr_executable_create(m, NULL, NULL, &eo, &e);
  if (s && hr_status_code(s) != HR_UNIMPLEMENTED) {
    fprintf(stderr, "%s: %s\n", name, hr_status_message(s));
    test_failures_++;
  }
  bool ran = s == NULL;
  hr_status_free(s);
  if (e) CHECK_OK(hr_executable_run(e, NULL, 0, &got, &n_got));
  if (got && want) check_same_outputs(got, n_got, want, n_want, name);
  hr_tensors_free(want, n_want);
  hr_tensors_free(got, n_got);
  hr_executable_free(e);
  return ran;
}

/* Every static conformance program (they call @inputs and @expected: wrapped steps) gives the
 * interpreter's results bit for bit; the shape-polymorphic ones are rejected cleanly. */
TEST(conformance_corpus) {
  const char *src = getenv("HLORUN_SOURCE_DIR");
  char dir[4096], path[8192];
  snprintf(dir, sizeof dir, "%s/../shared/conformance/stablehlo-testdata", src ? src : ".");
  DIR *d = opendir(dir);
  if (!d) return; /* the corpus is absent, as in a user's clone */
  int ran = 0, rejected = 0;
  for (struct dirent *ent = readdir(d); ent; ent = readdir(d)) {
    size_t len = strlen(ent->d_name);
    if (len < 5 || strcmp(ent->d_name + len - 5, ".mlir") != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    if (compare_corpus_program(path, ent->d_name))
      ran++;
    else
      rejected++;
  }
  closedir(d);
  printf("conformance programs: %d run as executables, %d rejected\n", ran, rejected);
  CHECK(ran > 1450);
  CHECK(rejected < 200);
}

int main(void) {
  RUN(elementwise_chain_reuses_memory);
  RUN(reduce_dot_transpose);
  RUN(while_loop_is_wrapped);
  RUN(scatter_and_sort_regions);
  RUN(captures_and_calls);
  RUN(outputs_from_inputs_and_constants);
  RUN(equal_constants_share_storage);
  RUN(bound_parameters_used_in_place);
  RUN(bound_parameter_mismatch);
  RUN(input_validation);
  RUN(many_runs_identical);
  RUN(rejects_dynamic_shapes_and_missing_main);
  RUN(arena_limit);
  RUN(kernel_errors_are_positioned);
  RUN(conformance_corpus);
  TEST_MAIN_END();
}

/* Verifier tests: small StableHLO programs, valid and invalid, each invalid one checked for the
 * error's position (file:line:col) and message. A few structural errors the parser cannot produce
 * (dominance, scoping) are made by editing a parsed module. */
#include <string.h>

#include "ir/ir.h"
#include "test.h"

/* Parses (and verifies) `text` as "v.mlir". */
static hr_status parse(const char *text, hr_module **m) {
  return hr_module_parse("v.mlir", text, strlen(text), NULL, m);
}

/* Checks that `text` parses and verifies. */
#define EXPECT_VALID(text) expect_valid_at(__LINE__, text)
static void expect_valid_at(int line, const char *text) {
  hr_module *m = NULL;
  hr_status s = parse(text, &m);
  if (s) {
    fprintf(stderr, "line %d: unexpected error: %s\n", line, hr_status_message(s));
    test_failures_++;
  }
  hr_status_free(s);
  hr_module_free(m);
}

/* Checks that `text` fails verification with a message containing `needle`. */
#define EXPECT_INVALID(text, needle) expect_invalid_at(__LINE__, text, needle)
static void expect_invalid_at(int line, const char *text, const char *needle) {
  hr_module *m = NULL;
  hr_status s = parse(text, &m);
  if (!s || hr_status_code(s) != HR_VERIFY_ERROR || !strstr(hr_status_message(s), needle)) {
    fprintf(stderr, "line %d: expected VERIFY_ERROR with \"%s\", got %s: %s\n", line, needle,
            hr_code_name(hr_status_code(s)), hr_status_message(s));
    test_failures_++;
  }
  hr_status_free(s);
  hr_module_free(m);
}

/* Checks that hr_module_verify on `m` fails with a message containing `needle`. */
static void expect_verify_fails(int line, const hr_module *m, const char *needle) {
  hr_status s = hr_module_verify(m);
  if (!s || !strstr(hr_status_message(s), needle)) {
    fprintf(stderr, "line %d: expected \"%s\", got: %s\n", line, needle, hr_status_message(s));
    test_failures_++;
  }
  hr_status_free(s);
}

TEST(valid_programs) {
  EXPECT_VALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<?x3xi32>) -> (tensor<3xf32>, tensor<?x3xi32>) "
      "{\n"
      "    %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] :"
      " (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>\n"
      "    %1 = stablehlo.add %arg1, %arg1 : tensor<?x3xi32>\n"
      "    %2 = call @twice(%0) : (tensor<3xf32>) -> tensor<3xf32>\n"
      "    return %2, %1 : tensor<3xf32>, tensor<?x3xi32>\n"
      "  }\n"
      "  func.func private @twice(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n"
      "    %0 = stablehlo.add %arg0, %arg0 : tensor<3xf32>\n"
      "    return %0 : tensor<3xf32>\n"
      "  }\n"
      "}\n");
  /* A while loop, a sort, and a static result refining a dynamic operand. */
  EXPECT_VALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<i32>, %arg1: tensor<?x4xf32>) -> tensor<2x4xf32> {\n"
      "    %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>\n"
      "    cond {\n"
      "      %1 = stablehlo.compare  LT, %iterArg, %iterArg,  SIGNED : (tensor<i32>, tensor<i32>) -> "
      "tensor<i1>\n"
      "      stablehlo.return %1 : tensor<i1>\n"
      "    } do {\n"
      "      stablehlo.return %iterArg : tensor<i32>\n"
      "    }\n"
      "    %2 = \"stablehlo.sort\"(%arg1) <{dimension = 0 : i64}> ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "      %3 = stablehlo.compare  LT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "      stablehlo.return %3 : tensor<i1>\n"
      "    }) : (tensor<?x4xf32>) -> tensor<2x4xf32>\n"
      "    return %2 : tensor<2x4xf32>\n"
      "  }\n"
      "}\n");
}

TEST(result_type_mismatch) {
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<3xf32> {\n"
      "    %0 = stablehlo.add %arg0, %arg0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>\n"
      "    return %0 : tensor<3xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.add: result type tensor<3xf32> does not match inferred tensor<2xf32>");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<4x6xf32>) -> tensor<2x6xf32> {\n"
      "    %0 = stablehlo.slice %arg0 [0:4:2, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x6xf32>\n"
      "    return %0 : tensor<2x6xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.slice: result type tensor<2x6xf32> does not match inferred tensor<2x3xf32>");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<4x6xf32>) -> tensor<4x6xf64> {\n"
      "    %0 = stablehlo.exponential %arg0 : (tensor<4x6xf32>) -> tensor<4x6xf64>\n"
      "    return %0 : tensor<4x6xf64>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.exponential: result type tensor<4x6xf64> does not match inferred "
      "tensor<4x6xf32>");
}

TEST(bad_attributes) {
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
      "    %0 = stablehlo.transpose %arg0, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
      "    return %0 : tensor<3x2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.transpose: permutation: dimension 0 appears twice");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {\n"
      "    %0 = \"stablehlo.transpose\"(%arg0) : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
      "    return %0 : tensor<3x2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.transpose: missing attribute 'permutation'");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<4x2xf32> {\n"
      "    %0 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<2xf32>) -> tensor<4x2xf32>\n"
      "    return %0 : tensor<4x2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.broadcast_in_dim: broadcast_dimensions: dimension 2 is outside [0, 2)");
  /* A compare_type that does not suit the element type verifies, as in StableHLO, and is refused
   * when the comparison runs. */
  const char *signed_ui32 =
      "module {\n"
      "  func.func @main(%arg0: tensor<2xui32>) -> tensor<2xi1> {\n"
      "    %0 = stablehlo.compare  LT, %arg0, %arg0,  SIGNED : (tensor<2xui32>, tensor<2xui32>) -> "
      "tensor<2xi1>\n"
      "    return %0 : tensor<2xi1>\n"
      "  }\n"
      "}\n";
  hr_module *m = NULL;
  CHECK_OK(parse(signed_ui32, &m));
  hr_shape two = {1, {2}};
  hr_tensor *x = NULL, **outs = NULL;
  int n_out = 0;
  CHECK_OK(hr_tensor_create(NULL, HR_U32, &two, 0, &x));
  hr_status s = m && x ? hr_module_run(m, "main", &x, 1, NULL, &outs, &n_out) : NULL;
  CHECK(s && strstr(hr_status_message(s), "compare_type SIGNED does not apply to ui32"));
  hr_status_free(s);
  hr_tensor_free(x);
  hr_module_free(m);
}

TEST(element_types) {
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = stablehlo.shift_left %arg0, %arg0 : tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.shift_left: operand #0: element type f32 is not supported");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xi32>) -> tensor<2xi32> {\n"
      "    %0 = stablehlo.sqrt %arg0 : tensor<2xi32>\n"
      "    return %0 : tensor<2xi32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.sqrt: operand #0: element type i32 is not supported");
  EXPECT_VALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xi1>) -> tensor<2xi1> {\n"
      "    %0 = stablehlo.xor %arg0, %arg0 : tensor<2xi1>\n"
      "    return %0 : tensor<2xi1>\n"
      "  }\n"
      "}\n");
}

TEST(terminators_and_regions) {
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf64> {\n"
      "    return %arg0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: func.return: value #0 has type tensor<2xf32>, but @main returns tensor<2xf64>");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<f32> {\n"
      "    %cst = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "    %0 = stablehlo.reduce(%arg0 init: %cst) across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> "
      "tensor<f32>\n"
      "     reducer(%a: tensor<f32>, %b: tensor<f32>)  {\n"
      "      %1 = stablehlo.convert %a : (tensor<f32>) -> tensor<i32>\n"
      "      stablehlo.return %1 : tensor<i32>\n"
      "    }\n"
      "    return %0 : tensor<f32>\n"
      "  }\n"
      "}\n",
      "v.mlir:4:5: stablehlo.reduce: body result #0 has type tensor<i32>, expected tensor<f32>");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<i32>) -> tensor<i32> {\n"
      "    %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>\n"
      "    cond {\n"
      "      stablehlo.return %iterArg : tensor<i32>\n"
      "    } do {\n"
      "      stablehlo.return %iterArg : tensor<i32>\n"
      "    }\n"
      "    return %0 : tensor<i32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.while: cond must return one tensor<i1>");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {\n"
      "    %0 = \"stablehlo.sort\"(%arg0) <{dimension = 0 : i64}> ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "      stablehlo.return %a : tensor<f32>\n"
      "    }) : (tensor<3xf32>) -> tensor<3xf32>\n"
      "    return %0 : tensor<3xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.sort: comparator must return one tensor<i1>");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<i1>, %arg1: tensor<2xf32>, %arg2: tensor<3xf32>) -> tensor<2xf32> {\n"
      "    %0 = \"stablehlo.if\"(%arg0) ({\n"
      "      stablehlo.return %arg1 : tensor<2xf32>\n"
      "    }, {\n"
      "      stablehlo.return %arg2 : tensor<3xf32>\n"
      "    }) : (tensor<i1>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.if: branch results: types tensor<2xf32> and tensor<3xf32> differ");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = stablehlo.add %arg0, %arg0 : tensor<2xf32>\n"
      "    stablehlo.return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:4:5: stablehlo.return: a function body must end with func.return");
}

TEST(calls) {
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @g(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @g(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:11:5: func.call: recursive call (@f -> @g -> @f)");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @main(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: func.call: recursive call (@main -> @main)");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @nope(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: func.call: call to undefined function @nope");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @f(%arg0: tensor<3xf32>) -> tensor<2xf32> {\n"
      "    %0 = stablehlo.slice %arg0 [0:2] : (tensor<3xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: func.call: argument #0 has type tensor<2xf32>, but @f expects tensor<3xf32>");
  /* A diamond (main -> f, main -> g, f -> g) is not recursion. */
  EXPECT_VALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    %1 = call @g(%0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %1 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = call @g(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    return %0 : tensor<2xf32>\n"
      "  }\n"
      "  func.func private @g(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    return %arg0 : tensor<2xf32>\n"
      "  }\n"
      "}\n");
}

/* Less common ops in the syntax JAX prints, all valid. */
TEST(valid_op_zoo) {
  EXPECT_VALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<4xcomplex<f32>>, %a: tensor<2x3x3xf32>, %b: tensor<2x3x5xf32>, %st: "
      "tensor<2xui64>, %x: tensor<5x10xf32>, %d: tensor<?xf32>, %shape: tensor<2xi64>, %idx: tensor<i32>, "
      "%pred: tensor<i1>, %v: tensor<8x4x2xf32>, %s4: tensor<4xf32>) -> tensor<4xcomplex<f32>> {\n"
      "    %0 = stablehlo.fft %arg0, type =  FFT, length = [4] : (tensor<4xcomplex<f32>>) -> "
      "tensor<4xcomplex<f32>>\n"
      "    %1 = \"stablehlo.triangular_solve\"(%a, %b) <{left_side = true, lower = true, transpose_a = "
      "#stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<2x3x3xf32>, tensor<2x3x5xf32>) "
      "-> tensor<2x3x5xf32>\n"
      "    %2 = stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>\n"
      "    %output_state, %output = stablehlo.rng_bit_generator %st, algorithm =  DEFAULT : (tensor<2xui64>) "
      "-> (tensor<2xui64>, tensor<10x12xui32>)\n"
      "    %3:2 = chlo.top_k(%x, k = 3) : tensor<5x10xf32> -> (tensor<5x3xf32>, tensor<5x3xi32>)\n"
      "    %4 = stablehlo.dynamic_broadcast_in_dim %d, %shape, dims = [1] : (tensor<?xf32>, tensor<2xi64>) "
      "-> tensor<?x?xf32>\n"
      "    %5 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x?xf32>\n"
      "    %6 = stablehlo.dynamic_reshape %d, %shape : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>\n"
      "    %7 = stablehlo.get_dimension_size %d, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
      "    %8 = \"stablehlo.case\"(%idx) ({\n"
      "      stablehlo.return %x : tensor<5x10xf32>\n"
      "    }, {\n"
      "      stablehlo.return %x : tensor<5x10xf32>\n"
      "    }) : (tensor<i32>) -> tensor<5x10xf32>\n"
      "    %9 = \"stablehlo.if\"(%pred) ({\n"
      "      stablehlo.return %s4 : tensor<4xf32>\n"
      "    }, {\n"
      "      stablehlo.return %s4 : tensor<4xf32>\n"
      "    }) : (tensor<i1>) -> tensor<4xf32>\n"
      "    %10 = \"stablehlo.batch_norm_inference\"(%v, %s4, %s4, %s4, %s4) <{epsilon = 1.0e-3 : f32, "
      "feature_index = 1 : i64}> : (tensor<8x4x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, "
      "tensor<4xf32>) -> tensor<8x4x2xf32>\n"
      "    %11 = \"stablehlo.map\"(%s4, %s4) ({\n"
      "    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
      "      %r = stablehlo.add %p, %q : tensor<f32>\n"
      "      stablehlo.return %r : tensor<f32>\n"
      "    }) {dimensions = array<i64: 0>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "    %12 = stablehlo.reduce_precision %s4, format = e5m10 : tensor<4xf32>\n"
      "    %13:2 = stablehlo.optimization_barrier %s4, %idx : tensor<4xf32>, tensor<i32>\n"
      "    %14 = stablehlo.tuple %s4, %idx : tuple<tensor<4xf32>, tensor<i32>>\n"
      "    %15 = stablehlo.get_tuple_element %14[1] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>\n"
      "    %c0 = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "    %16 = stablehlo.clamp %c0, %s4, %c0 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "    %17 = stablehlo.iota dim = 0 : tensor<4xi32>\n"
      "    %c1 = stablehlo.constant dense<1.0> : tensor<f32>\n"
      "    %sh = stablehlo.constant dense<[3, 4]> : tensor<2xi64>\n"
      "    %18 = stablehlo.rng %c0, %c1, %sh, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, "
      "tensor<2xi64>) -> tensor<3x4xf32>\n"
      "    %sh2 = stablehlo.constant dense<2> : tensor<2xi64>\n"
      "    %19 = stablehlo.dynamic_reshape %s4, %sh2 : (tensor<4xf32>, tensor<2xi64>) -> tensor<2x?xf32>\n"
      "    %20:3 = \"stablehlo.batch_norm_training\"(%v, %s4, %s4) <{epsilon = 1.0e-3 : f32, feature_index = "
      "1 : i64}> : (tensor<8x4x2xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<8x4x2xf32>, tensor<4xf32>, "
      "tensor<4xf32>)\n"
      "    %21 = stablehlo.broadcast %s4, sizes = [2] : (tensor<4xf32>) -> tensor<2x4xf32>\n"
      "    %22 = stablehlo.real %arg0 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>\n"
      "    %23 = stablehlo.is_finite %22 : (tensor<4xf32>) -> tensor<4xi1>\n"
      "    %24 = stablehlo.reverse %s4, dims = [0] : tensor<4xf32>\n"
      "    %25 = stablehlo.dot %x, %d : (tensor<5x10xf32>, tensor<?xf32>) -> tensor<5xf32>\n"
      "    return %0 : tensor<4xcomplex<f32>>\n"
      "  }\n"
      "}\n");
}

TEST(invalid_op_zoo) {
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<4xf32>) -> tensor<?x?xf32> {\n"
      "    %sh = stablehlo.constant dense<[3, 4]> : tensor<2xi64>\n"
      "    %0 = stablehlo.dynamic_reshape %arg0, %sh : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>\n"
      "    return %0 : tensor<?x?xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:4:5: stablehlo.dynamic_reshape: cannot reshape 4 elements into 12");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<4x6xf32>) -> tensor<4x4xcomplex<f32>> {\n"
      "    %0 = stablehlo.fft %arg0, type =  RFFT, length = [8] : (tensor<4x6xf32>) -> "
      "tensor<4x4xcomplex<f32>>\n"
      "    return %0 : tensor<4x4xcomplex<f32>>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.fft: dimension 1 (size 6) must equal fft_length[0] = 8");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<5x2xf32>) -> tensor<5x3xf32> {\n"
      "    %0:2 = chlo.top_k(%arg0, k = 3) : tensor<5x2xf32> -> (tensor<5x3xf32>, tensor<5x3xi32>)\n"
      "    return %0#0 : tensor<5x3xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: chlo.top_k: k = 3 is outside [0, 2]");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<2xui64>) -> tensor<2xui64> {\n"
      "    %s, %o = stablehlo.rng_bit_generator %arg0, algorithm =  DEFAULT : (tensor<2xui64>) -> "
      "(tensor<2xui64>, tensor<?x12xui32>)\n"
      "    return %s : tensor<2xui64>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.rng_bit_generator: result #1 must be statically shaped, got tensor<?x12xui32>");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tensor<8x4x2xf32>, %arg1: tensor<2xf32>) -> tensor<8x4x2xf32> {\n"
      "    %0 = \"stablehlo.batch_norm_inference\"(%arg0, %arg1, %arg1, %arg1, %arg1) <{epsilon = 1.0e-3 : "
      "f32, feature_index = 1 : i64}> : (tensor<8x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, "
      "tensor<2xf32>) -> tensor<8x4x2xf32>\n"
      "    return %0 : tensor<8x4x2xf32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.batch_norm_inference: feature sizes: dimension sizes 4 and 2 differ");
  EXPECT_INVALID(
      "module {\n"
      "  func.func @main(%arg0: tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32> {\n"
      "    %0 = stablehlo.get_tuple_element %arg0[2] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<i32>\n"
      "    return %0 : tensor<i32>\n"
      "  }\n"
      "}\n",
      "v.mlir:3:5: stablehlo.get_tuple_element: index 2 is outside [0, 2)");
}

/* A valid program whose parsed module the next tests edit into invalid ones. */
static const char *const loop_program =
    "module {\n"
    "  func.func @main(%arg0: tensor<i32>) -> tensor<i32> {\n"
    "    %0 = stablehlo.add %arg0, %arg0 : tensor<i32>\n"
    "    %1 = stablehlo.multiply %0, %0 : tensor<i32>\n"
    "    %2 = stablehlo.while(%iterArg = %1) : tensor<i32>\n"
    "    cond {\n"
    "      %3 = stablehlo.compare  LT, %iterArg, %iterArg,  SIGNED : (tensor<i32>, tensor<i32>) -> "
    "tensor<i1>\n"
    "      stablehlo.return %3 : tensor<i1>\n"
    "    } do {\n"
    "      %4 = stablehlo.add %iterArg, %iterArg : tensor<i32>\n"
    "      stablehlo.return %4 : tensor<i32>\n"
    "    }\n"
    "    return %2 : tensor<i32>\n"
    "  }\n"
    "}\n";

TEST(ssa_dominance_and_scope) {
  hr_module *m = NULL;
  CHECK_OK(parse(loop_program, &m));
  if (!m) return;
  hr_block *body = &m->funcs[0]->body;
  CHECK_EQ_INT(body->n_ops, 4);
  /* Swap the add and the multiply: the multiply now uses %0 before its definition. */
  hr_op *tmp = body->ops[0];
  body->ops[0] = body->ops[1];
  body->ops[1] = tmp;
  expect_verify_fails(__LINE__, m,
                      "v.mlir:4:5: stablehlo.multiply: operand #0 (%0) is used before its definition");
  body->ops[1] = body->ops[0];
  body->ops[0] = tmp;
  CHECK_OK(hr_module_verify(m));
  /* Make func.return use %4, which lives in the while body. */
  hr_op *loop = body->ops[2], *ret = body->ops[3];
  hr_value *saved = ret->operands[0];
  ret->operands[0] = &loop->regions[1].ops[0]->results[0];
  expect_verify_fails(__LINE__, m,
                      "v.mlir:13:5: func.return: operand #0 (%4) is used outside the region that defines it");
  ret->operands[0] = saved;
  CHECK_OK(hr_module_verify(m));
  hr_module_free(m);
}

TEST(structural_edits) {
  hr_module *m = NULL;
  CHECK_OK(parse(loop_program, &m));
  if (!m) return;
  hr_block *body = &m->funcs[0]->body;
  /* A terminator in the middle of the body: [add, mul, while, return, return]. */
  hr_op **ops = HR_ARENA_ARRAY(&m->arena, hr_op *, 5);
  memcpy(ops, body->ops, 4 * sizeof *ops);
  ops[4] = ops[3];
  hr_op **saved_ops = body->ops;
  body->ops = ops;
  body->n_ops = 5;
  expect_verify_fails(__LINE__, m, "v.mlir:13:5: func.return: a terminator must be the last op of its block");
  body->ops = saved_ops;
  body->n_ops = 4;
  /* Two functions of one name. */
  hr_func *copy = HR_ARENA_NEW(&m->arena, hr_func);
  *copy = *m->funcs[0];
  hr_func **funcs = HR_ARENA_ARRAY(&m->arena, hr_func *, 2);
  funcs[0] = m->funcs[0];
  funcs[1] = copy;
  hr_func **saved_funcs = m->funcs;
  m->funcs = funcs;
  m->n_funcs = 2;
  expect_verify_fails(__LINE__, m, "v.mlir:2:3: func.func @main: redefinition of function @main");
  m->funcs = saved_funcs;
  m->n_funcs = 1;
  /* A region that lost its terminator. */
  hr_block *cond = &body->ops[2]->regions[0];
  cond->n_ops = 1;
  expect_verify_fails(__LINE__, m, "v.mlir:7:7: stablehlo.compare: a region must end with stablehlo.return");
  cond->n_ops = 2;
  /* A value id used twice. */
  uint32_t id = body->ops[1]->results[0].id;
  body->ops[1]->results[0].id = body->ops[0]->results[0].id;
  expect_verify_fails(__LINE__, m, "v.mlir:4:5: stablehlo.multiply: %1 is defined twice");
  body->ops[1]->results[0].id = id;
  /* A wrong op arity. */
  body->ops[1]->n_operands = 1;
  expect_verify_fails(__LINE__, m, "v.mlir:4:5: stablehlo.multiply: expected 2 operands, got 1");
  body->ops[1]->n_operands = 2;
  CHECK_OK(hr_module_verify(m));
  hr_module_free(m);
}

int main(void) {
  RUN(valid_programs);
  RUN(result_type_mismatch);
  RUN(bad_attributes);
  RUN(element_types);
  RUN(terminators_and_regions);
  RUN(calls);
  RUN(valid_op_zoo);
  RUN(invalid_op_zoo);
  RUN(ssa_dominance_and_scope);
  RUN(structural_edits);
  TEST_MAIN_END();
}

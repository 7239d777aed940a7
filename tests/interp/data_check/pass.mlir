// The check dialect's ops, each holding; split as lit's -split-input-file does.
// Every case passes: test_check_ops.sh expects "PASS pass.mlir:<function> (N checks)".

// -----

func.func @eq() {
  %0 = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
  %1 = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
  check.expect_eq %0, %1 : tensor<3xi32>
  check.expect_eq_const %0, dense<[1, -2, 3]> : tensor<3xi32>
  func.return
}

// A private helper and a function with parameters are not test cases.
func.func private @helper(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}

func.func @eq_nan() {
  %0 = stablehlo.constant dense<[0x7FC00000, -0.0, 0x7F800000]> : tensor<3xf32>
  check.expect_eq_const %0, dense<[0x7FC00000, 0.0, 0x7F800000]> : tensor<3xf32>
  func.return
}

// -----

func.func @almost_eq() {
  %0 = stablehlo.constant dense<[1.0, 2.00005]> : tensor<2xf64>
  %1 = stablehlo.constant dense<[1.00005, 2.0]> : tensor<2xf64>
  check.expect_almost_eq %0, %1 : tensor<2xf64>
  check.expect_almost_eq %0, %1, tolerance = 1.0e-3 : tensor<2xf64>
  check.expect_almost_eq_const %0, dense<[1.0, 2.0]> : tensor<2xf64>
  check.expect_almost_eq_const %0, dense<[1.1, 2.1]> : tensor<2xf64>, tolerance = 0.2
  check.expect_almost_eq_const %0, dense<[1.1, 2.1]> : tensor<2xf64> {tolerance = 0.2 : f64}
  func.return
}

// -----

func.func @close() {
  %0 = stablehlo.constant dense<[1.0, 0.0, 0x7E01, 0x7C00]> : tensor<4xf16>
  %1 = stablehlo.constant dense<[0x3C01, -0.0, 0x7E00, 0x7C00]> : tensor<4xf16>
  check.expect_close %0, %1, max_ulp_difference = 1 : tensor<4xf16>, tensor<4xf16>
  %2 = stablehlo.constant dense<[(1.0, 2.0)]> : tensor<1xcomplex<f32>>
  %3 = stablehlo.constant dense<[(1.0, 2.0000005)]> : tensor<1xcomplex<f32>>
  check.expect_close %2, %3, max_ulp_difference = 3, min_ulp_difference = 2 : tensor<1xcomplex<f32>>, tensor<1xcomplex<f32>>
  func.return
}

// -----

func.func @main() -> tensor<2xi32> {
  %0 = stablehlo.constant dense<[4, 5]> : tensor<2xi32>
  check.expect_eq_const %0, dense<[4, 5]> : tensor<2xi32>
  stablehlo.custom_call @check.expect_eq_const(%0) {value = dense<[4, 5]> : tensor<2xi32>} : (tensor<2xi32>) -> ()
  func.return %0 : tensor<2xi32>
}

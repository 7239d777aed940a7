// The check dialect's ops, each failing: test_check_ops.sh expects every case to FAIL with the
// message it names, and the parse error of the last part to name this file's own line.

func.func @eq() {
  %0 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %1 = stablehlo.constant dense<[1, 2, 4]> : tensor<3xi32>
  check.expect_eq %0, %1 : tensor<3xi32>
  func.return
}

func.func @eq_const() {
  %0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  check.expect_eq_const %0, dense<[[1, 2], [3, 5]]> : tensor<2x2xi8>
  func.return
}

// -----

func.func @almost_eq() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.constant dense<[1.0, 2.001]> : tensor<2xf32>
  check.expect_almost_eq %0, %1 : tensor<2xf32>
  func.return
}

func.func @almost_eq_tolerance() {
  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = stablehlo.constant dense<[1.05, 2.0]> : tensor<2xf32>
  check.expect_almost_eq %0, %1, tolerance = 1.0e-2 : tensor<2xf32>
  func.return
}

func.func @almost_eq_const() {
  %0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  check.expect_almost_eq_const %0, dense<1.0> : tensor<f32>, tolerance = 1.0e+3
  func.return
}

// -----

func.func @close() {
  %0 = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xf16>
  %1 = stablehlo.constant dense<[1.0, 0x3C02]> : tensor<2xf16>
  check.expect_close %0, %1, max_ulp_difference = 1 : tensor<2xf16>, tensor<2xf16>
  func.return
}

func.func @close_min() {
  %0 = stablehlo.constant dense<1.0> : tensor<f64>
  check.expect_close %0, %0, max_ulp_difference = 4, min_ulp_difference = 1 : tensor<f64>, tensor<f64>
  func.return
}

// -----

func.func @bad_part() {
  %0 = stablehlo.constant dense<1.0> : tensor<f64>
  check.expect_close %0, %0 : tensor<f64>, tensor<f64>
  func.return
}

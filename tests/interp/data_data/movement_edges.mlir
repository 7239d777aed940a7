// Movement ops: strided slices, reverse, transpose, concatenate with an empty operand,
// broadcasts that expand size-1 dims, iota in several element types, dynamic_slice and
// dynamic_update_slice with out-of-range starts (clamped), reshape, and complex and i1 elements.
module @movement_edges {
  func.func public @main() -> tensor<3xi32> {
    %io = stablehlo.iota dim = 0 : tensor<10xi32>
    %0 = stablehlo.slice %io [1:9:3] : (tensor<10xi32>) -> tensor<3xi32>
    %e0 = stablehlo.constant dense<[1, 4, 7]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%0, %e0) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()

    %m = stablehlo.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi64>
    %1 = stablehlo.slice %m [0:3:2, 1:4:2] : (tensor<3x4xi64>) -> tensor<2x2xi64>
    %e1 = stablehlo.constant dense<[[1, 3], [9, 11]]> : tensor<2x2xi64>
    stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<2x2xi64>, tensor<2x2xi64>) -> ()

    %2 = stablehlo.reverse %m, dims = [0, 1] : tensor<3x4xi64>
    %e2 = stablehlo.constant dense<[[11, 10, 9, 8], [7, 6, 5, 4], [3, 2, 1, 0]]> : tensor<3x4xi64>
    stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<3x4xi64>, tensor<3x4xi64>) -> ()

    %t = stablehlo.constant dense<[[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]]> : tensor<2x2x3xui16>
    %3 = stablehlo.transpose %t, dims = [2, 0, 1] : (tensor<2x2x3xui16>) -> tensor<3x2x2xui16>
    %e3 = stablehlo.constant dense<[[[0, 3], [6, 9]], [[1, 4], [7, 10]], [[2, 5], [8, 11]]]> : tensor<3x2x2xui16>
    stablehlo.custom_call @check.expect_eq(%3, %e3) {has_side_effect = true} : (tensor<3x2x2xui16>, tensor<3x2x2xui16>) -> ()

    %c0 = stablehlo.constant dense<> : tensor<2x0xi1>
    %c1 = stablehlo.constant dense<[[true, false], [false, true]]> : tensor<2x2xi1>
    %c2 = stablehlo.constant dense<[[true], [true]]> : tensor<2x1xi1>
    %4 = stablehlo.concatenate %c1, %c0, %c2, dim = 1 : (tensor<2x2xi1>, tensor<2x0xi1>, tensor<2x1xi1>) -> tensor<2x3xi1>
    %e4 = stablehlo.constant dense<[[true, false, true], [false, true, true]]> : tensor<2x3xi1>
    stablehlo.custom_call @check.expect_eq(%4, %e4) {has_side_effect = true} : (tensor<2x3xi1>, tensor<2x3xi1>) -> ()

    %row = stablehlo.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xbf16>
    %5 = stablehlo.broadcast_in_dim %row, dims = [1, 2] : (tensor<1x3xbf16>) -> tensor<2x2x3xbf16>
    %e5 = stablehlo.constant dense<[[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]]> : tensor<2x2x3xbf16>
    stablehlo.custom_call @check.expect_eq(%5, %e5) {has_side_effect = true} : (tensor<2x2x3xbf16>, tensor<2x2x3xbf16>) -> ()

    %col = stablehlo.constant dense<[5, 6]> : tensor<2xi8>
    %6 = stablehlo.broadcast_in_dim %col, dims = [0] : (tensor<2xi8>) -> tensor<2x3xi8>
    %e6 = stablehlo.constant dense<[[5, 5, 5], [6, 6, 6]]> : tensor<2x3xi8>
    stablehlo.custom_call @check.expect_eq(%6, %e6) {has_side_effect = true} : (tensor<2x3xi8>, tensor<2x3xi8>) -> ()

    %7 = stablehlo.iota dim = 1 : tensor<2x3xf16>
    %e7 = stablehlo.constant dense<[[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]> : tensor<2x3xf16>
    stablehlo.custom_call @check.expect_eq(%7, %e7) {has_side_effect = true} : (tensor<2x3xf16>, tensor<2x3xf16>) -> ()

    %8 = stablehlo.iota dim = 0 : tensor<3x2xcomplex<f32>>
    %e8 = stablehlo.constant dense<[[(0.0, 0.0), (0.0, 0.0)], [(1.0, 0.0), (1.0, 0.0)], [(2.0, 0.0), (2.0, 0.0)]]> : tensor<3x2xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%8, %e8) {has_side_effect = true} : (tensor<3x2xcomplex<f32>>, tensor<3x2xcomplex<f32>>) -> ()

    // Starts clamp into [0, size - slice size]: INT64_MIN -> 0, INT64_MAX -> 2.
    %lo = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
    %hi = stablehlo.constant dense<9223372036854775807> : tensor<i64>
    %9 = stablehlo.dynamic_slice %m, %hi, %lo, sizes = [1, 3] : (tensor<3x4xi64>, tensor<i64>, tensor<i64>) -> tensor<1x3xi64>
    %e9 = stablehlo.constant dense<[[8, 9, 10]]> : tensor<1x3xi64>
    stablehlo.custom_call @check.expect_eq(%9, %e9) {has_side_effect = true} : (tensor<1x3xi64>, tensor<1x3xi64>) -> ()

    %big = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
    %10 = stablehlo.dynamic_slice %io, %big, sizes = [2] : (tensor<10xi32>, tensor<ui64>) -> tensor<2xi32>
    %e10 = stablehlo.constant dense<[8, 9]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%10, %e10) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()

    %upd = stablehlo.constant dense<[[-1, -2], [-3, -4]]> : tensor<2x2xi64>
    %11 = stablehlo.dynamic_update_slice %m, %upd, %hi, %lo : (tensor<3x4xi64>, tensor<2x2xi64>, tensor<i64>, tensor<i64>) -> tensor<3x4xi64>
    %e11 = stablehlo.constant dense<[[0, 1, 2, 3], [-1, -2, 6, 7], [-3, -4, 10, 11]]> : tensor<3x4xi64>
    stablehlo.custom_call @check.expect_eq(%11, %e11) {has_side_effect = true} : (tensor<3x4xi64>, tensor<3x4xi64>) -> ()

    %cx = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0), (5.0, 6.0), (7.0, 8.0)]> : tensor<4xcomplex<f64>>
    %12 = stablehlo.reshape %cx : (tensor<4xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
    %13 = stablehlo.transpose %12, dims = [1, 0] : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
    %e13 = stablehlo.constant dense<[[(1.0, 2.0), (5.0, 6.0)], [(3.0, 4.0), (7.0, 8.0)]]> : tensor<2x2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%13, %e13) {has_side_effect = true} : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) -> ()
    return %0 : tensor<3xi32>
  }
}

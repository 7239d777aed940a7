// stablehlo.convolution and stablehlo.dynamic_conv: feature and batch groups, NCHW and NHWC
// layouts, strides, padding, lhs/rhs dilation, window reversal, integer wraparound and a result
// type that differs from the operand type. Expected values follow the spec's definition.
module {
  func.func @main() {
    // feature_group_count = 2, asymmetric padding, NCHW x OIHW.
    %l1 = stablehlo.constant dense<[[[[0, -2, 3], [1, -1, -3], [2, 0, -2]], [[3, 1, -1], [-3, 2, 0], [-2, 3, 1]], [[-1, -3, 2], [0, -2, 3], [1, -1, -3]], [[2, 0, -2], [3, 1, -1], [-3, 2, 0]]]]> : tensor<1x4x3x3xf32>
    %k1 = stablehlo.constant dense<[[[[1, -1], [2, 0]], [[-2, 1], [-1, 2]]], [[[0, -2], [1, -1]], [[2, 0], [-2, 1]]], [[[-1, 2], [0, -2]], [[1, -1], [2, 0]]], [[[-2, 1], [-1, 2]], [[0, -2], [1, -1]]]]> : tensor<4x2x2x2xf32>
    %r1 = stablehlo.convolution(%l1, %k1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {pad = [[1, 0], [0, 1]]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<1x4x3x3xf32>, tensor<4x2x2x2xf32>) -> tensor<1x4x3x3xf32>
    %e1 = stablehlo.constant dense<[[[[-1, -7, 7], [6, -12, -1], [22, -3, -8]], [[-3, -8, 5], [20, -6, -5], [5, 7, -4]], [[10, -4, -4], [7, 5, -6], [-6, 20, -4]], [[-3, 9, -4], [-3, 22, -8], [-12, 6, -3]]]]> : tensor<1x4x3x3xf32>
    stablehlo.custom_call @check.expect_eq(%r1, %e1) {has_side_effect = true} : (tensor<1x4x3x3xf32>, tensor<1x4x3x3xf32>) -> ()

    // batch_group_count = 2, NHWC x HWIO.
    %l2 = stablehlo.constant dense<[[[[0], [-2], [3]], [[1], [-1], [-3]], [[2], [0], [-2]]], [[[3], [1], [-1]], [[-3], [2], [0]], [[-2], [3], [1]]], [[[-1], [-3], [2]], [[0], [-2], [3]], [[1], [-1], [-3]]], [[[2], [0], [-2]], [[3], [1], [-1]], [[-3], [2], [0]]]]> : tensor<4x3x3x1xf64>
    %k2 = stablehlo.constant dense<[[[[1, -1, 2, 0]], [[-2, 1, -1, 2]]], [[[0, -2, 1, -1]], [[2, 0, -2, 1]]]]> : tensor<2x2x1x4xf64>
    %r2 = stablehlo.convolution(%l2, %k2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x3x3x1xf64>, tensor<2x2x1x4xf64>) -> tensor<2x2x2x4xf64>
    %e2 = stablehlo.constant dense<[[[[2, -4, 5, -8], [-14, 7, -16, 9]], [[3, -6, 5, -6], [1, -2, -2, 4]]], [[[5, 4, 5, -2], [3, -6, 5, -6]], [[-1, 9, -2, 7], [4, -8, 5, -4]]]]> : tensor<2x2x2x4xf64>
    stablehlo.custom_call @check.expect_eq(%r2, %e2) {has_side_effect = true} : (tensor<2x2x2x4xf64>, tensor<2x2x2x4xf64>) -> ()

    // Strides, padding, lhs and rhs dilation and window reversal together (generic form).
    %l3 = stablehlo.constant dense<[[[[0, -2, 3, 1, -1], [-3, 2, 0, -2, 3], [1, -1, -3, 2, 0], [-2, 3, 1, -1, -3]]]]> : tensor<1x1x4x5xf32>
    %k3 = stablehlo.constant dense<[[[[1, -1, 2], [0, -2, 1]]]]> : tensor<1x1x2x3xf32>
    %r3 = "stablehlo.convolution"(%l3, %k3) <{dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, window_strides = array<i64: 2, 1>, padding = dense<[[1, 1], [2, 0]]> : tensor<2x2xi64>, lhs_dilation = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 2>, window_reversal = array<i1: true, false>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x1x4x5xf32>, tensor<1x1x2x3xf32>) -> tensor<1x1x4x3xf32>
    %e3 = stablehlo.constant dense<[[[[6, 4, -5], [3, -6, 3], [-7, 5, 4], [4, -5, -9]]]]> : tensor<1x1x4x3xf32>
    stablehlo.custom_call @check.expect_eq(%r3, %e3) {has_side_effect = true} : (tensor<1x1x4x3xf32>, tensor<1x1x4x3xf32>) -> ()

    // The same with the padding given as an operand of dynamic_conv.
    %p3 = stablehlo.constant dense<[[1, 1], [2, 0]]> : tensor<2x2xi32>
    %r3d = "stablehlo.dynamic_conv"(%l3, %k3, %p3) <{dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, window_strides = array<i64: 2, 1>, lhs_dilation = array<i64: 2, 1>, rhs_dilation = array<i64: 1, 2>, window_reversal = array<i1: true, false>, feature_group_count = 1 : i64, batch_group_count = 1 : i64}> : (tensor<1x1x4x5xf32>, tensor<1x1x2x3xf32>, tensor<2x2xi32>) -> tensor<1x1x4x3xf32>
    stablehlo.custom_call @check.expect_eq(%r3d, %e3) {has_side_effect = true} : (tensor<1x1x4x3xf32>, tensor<1x1x4x3xf32>) -> ()

    // i8 convolution wraps: 100 * 1 + 100 * 2 = 300 -> 44.
    %l4 = stablehlo.constant dense<[[[100], [100], [100]]]> : tensor<1x3x1xi8>
    %k4 = stablehlo.constant dense<[[[1]], [[2]]]> : tensor<2x1x1xi8>
    %r4 = stablehlo.convolution(%l4, %k4) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x1xi8>, tensor<2x1x1xi8>) -> tensor<1x2x1xi8>
    %e4 = stablehlo.constant dense<[[[44], [44]]]> : tensor<1x2x1xi8>
    stablehlo.custom_call @check.expect_eq(%r4, %e4) {has_side_effect = true} : (tensor<1x2x1xi8>, tensor<1x2x1xi8>) -> ()

    // bf16 operands with an f32 result (no rounding to bf16 in between), stride 2.
    %l5 = stablehlo.constant dense<[[[1.5, 2.5, 0.0078125, 3.0]]]> : tensor<1x1x4xbf16>
    %k5 = stablehlo.constant dense<[[[1.0, 1.0]]]> : tensor<1x1x2xbf16>
    %r5 = stablehlo.convolution(%l5, %k5) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x1x4xbf16>, tensor<1x1x2xbf16>) -> tensor<1x1x2xf32>
    %e5 = stablehlo.constant dense<[[[4.0, 3.0078125]]]> : tensor<1x1x2xf32>
    stablehlo.custom_call @check.expect_eq(%r5, %e5) {has_side_effect = true} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> ()
    func.return
  }
}

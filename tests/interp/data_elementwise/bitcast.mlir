// bitcast_convert: same-width reinterpretation and width-changing forms, where the narrower side
// has an extra last dimension holding the little-endian pieces of the wider elements.
module @bitcast {
  func.func public @main() -> tensor<3xi32> {
    %f = stablehlo.constant dense<[1.0, -0.0, 0x7FC00000]> : tensor<3xf32>
    %fi = stablehlo.bitcast_convert %f : (tensor<3xf32>) -> tensor<3xi32>
    %e_fi = stablehlo.constant dense<[1065353216, -2147483648, 2143289344]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%fi, %e_fi) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    %back = stablehlo.bitcast_convert %fi : (tensor<3xi32>) -> tensor<3xf32>
    stablehlo.custom_call @check.expect_eq(%back, %f) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    %w = stablehlo.constant dense<[16909060, -1]> : tensor<2xi32>
    %bytes = stablehlo.bitcast_convert %w : (tensor<2xi32>) -> tensor<2x4xi8>
    %e_bytes = stablehlo.constant dense<[[4, 3, 2, 1], [-1, -1, -1, -1]]> : tensor<2x4xi8>
    stablehlo.custom_call @check.expect_eq(%bytes, %e_bytes) {has_side_effect = true} : (tensor<2x4xi8>, tensor<2x4xi8>) -> ()
    %pair = stablehlo.constant dense<[1, 2]> : tensor<2xi16>
    %joined = stablehlo.bitcast_convert %pair : (tensor<2xi16>) -> tensor<i32>
    %e_joined = stablehlo.constant dense<131073> : tensor<i32>
    stablehlo.custom_call @check.expect_eq(%joined, %e_joined) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
    %d = stablehlo.constant dense<0x0123456789ABCDEF> : tensor<f64>
    %halves = stablehlo.bitcast_convert %d : (tensor<f64>) -> tensor<4xf16>
    %e_halves = stablehlo.constant dense<[0xCDEF, 0x89AB, 0x4567, 0x0123]> : tensor<4xf16>
    stablehlo.custom_call @check.expect_eq(%halves, %e_halves) {has_side_effect = true} : (tensor<4xf16>, tensor<4xf16>) -> ()
    %u = stablehlo.bitcast_convert %halves : (tensor<4xf16>) -> tensor<4xui16>
    %e_u = stablehlo.constant dense<[52719, 35243, 17767, 291]> : tensor<4xui16>
    stablehlo.custom_call @check.expect_eq(%u, %e_u) {has_side_effect = true} : (tensor<4xui16>, tensor<4xui16>) -> ()
    %b = stablehlo.bitcast_convert %u : (tensor<4xui16>) -> tensor<4xbf16>
    %b64 = stablehlo.bitcast_convert %b : (tensor<4xbf16>) -> tensor<ui64>
    %e_b64 = stablehlo.constant dense<81985529216486895> : tensor<ui64>
    stablehlo.custom_call @check.expect_eq(%b64, %e_b64) {has_side_effect = true} : (tensor<ui64>, tensor<ui64>) -> ()
    %c = stablehlo.constant dense<[(1.5, -2.0)]> : tensor<1xcomplex<f64>>
    %cc = stablehlo.bitcast_convert %c : (tensor<1xcomplex<f64>>) -> tensor<1xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%cc, %c) {has_side_effect = true} : (tensor<1xcomplex<f64>>, tensor<1xcomplex<f64>>) -> ()
    return %fi : tensor<3xi32>
  }
}

// The custom calls of JAX's shape-polymorphic programs (src/interp/custom_call_top_k.c,
// custom_call_fft.c): stablehlo.dynamic_top_k, whose result shapes come from its k operand,
// and dynamic_ducc_fft with jaxlib's descriptor (a DynamicDuccFftDescriptor FlatBuffer: ndims 2,
// C2C, axes [1], forward true; the same bytes with forward false), forward and inverse (scale
// 1/4) against numpy.fft.
module {
  func.func @main() {
    %x = stablehlo.constant dense<[[1.0, 5.0, 3.0, 5.0], [-1.0, -2.0, 0.0, 7.0]]> : tensor<2x4xf32>
    %k = stablehlo.constant dense<2> : tensor<i32>
    %t:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%x, %k) : (tensor<2x4xf32>, tensor<i32>) -> (tensor<2x?xf32>, tensor<2x?xi32>)
    %v = stablehlo.convert %t#0 : (tensor<2x?xf32>) -> tensor<2x2xf32>
    %i = stablehlo.convert %t#1 : (tensor<2x?xi32>) -> tensor<2x2xi32>
    %ev = stablehlo.constant dense<[[5.0, 5.0], [7.0, 0.0]]> : tensor<2x2xf32>
    %ei = stablehlo.constant dense<[[1, 3], [3, 2]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%v, %ev) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%i, %ei) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    %c = stablehlo.constant dense<[[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)], [(0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (-1.0, 0.0)]]> : tensor<2x4xcomplex<f32>>
    %shape = stablehlo.constant dense<[2, 4]> : tensor<2xi32>
    %strides = stablehlo.constant dense<[4, 1]> : tensor<2xi32>
    %one = stablehlo.constant dense<1.0> : tensor<1xf64>
    %quarter = stablehlo.constant dense<0.25> : tensor<1xf64>
    %fwd = stablehlo.constant dense<[20, 0, 0, 0, 0, 0, 14, 0, 16, 0, 8, 0, 0, 0, 0, 0, 12, 0, 7, 0, 14, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]> : tensor<44xui8>
    %inv = stablehlo.constant dense<[20, 0, 0, 0, 0, 0, 14, 0, 16, 0, 8, 0, 0, 0, 0, 0, 12, 0, 7, 0, 14, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]> : tensor<44xui8>
    %f = stablehlo.custom_call @dynamic_ducc_fft(%fwd, %c, %shape, %strides, %strides, %one, %shape) {api_version = 2 : i32, indices_of_shape_operands = dense<6> : tensor<1xi64>} : (tensor<44xui8>, tensor<2x4xcomplex<f32>>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<1xf64>, tensor<2xi32>) -> tensor<2x4xcomplex<f32>>
    %ef = stablehlo.constant dense<[[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0), (-2.0, -2.0)], [(0.0, 0.0), (0.0, -2.0), (0.0, 0.0), (0.0, 2.0)]]> : tensor<2x4xcomplex<f32>>
    stablehlo.custom_call @check.expect_close(%f, %ef) {has_side_effect = true} : (tensor<2x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>) -> ()
    %b = stablehlo.custom_call @dynamic_ducc_fft(%inv, %c, %shape, %strides, %strides, %quarter, %shape) {api_version = 2 : i32, indices_of_shape_operands = dense<6> : tensor<1xi64>} : (tensor<44xui8>, tensor<2x4xcomplex<f32>>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<1xf64>, tensor<2xi32>) -> tensor<2x4xcomplex<f32>>
    %eb = stablehlo.constant dense<[[(2.5, 0.0), (-0.5, -0.5), (-0.5, 0.0), (-0.5, 0.5)], [(0.0, 0.0), (0.0, 0.5), (0.0, 0.0), (0.0, -0.5)]]> : tensor<2x4xcomplex<f32>>
    stablehlo.custom_call @check.expect_close(%b, %eb) {has_side_effect = true} : (tensor<2x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>) -> ()
    return
  }
}

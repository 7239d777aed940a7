// A quantized program run by `hlorun run` compiled (the default) and interpreted: per-tensor and
// per-axis quantization of its inputs, an i8 x i8 -> i32 dot_general, quantized add, reshape and
// negate, dequantized results. x and w quantize exactly (multiples of their scales), so the
// results are the float ones: x . w = [[-2.8125, -1.25], [6.9375, -1.875]], -(x + x) flattened.
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<6xf32>) {
  %qx = "stablehlo.uniform_quantize"(%x) : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>
  %qw = "stablehlo.uniform_quantize"(%w) : (tensor<3x2xf32>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.0625, 0.03125}>>
  %d = "stablehlo.dot_general"(%qx, %qw) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>, tensor<3x2x!quant.uniform<i8:f32:1, {0.0625, 0.03125}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {0.0078125, 0.00390625}>>
  %f = "stablehlo.uniform_dequantize"(%d) : (tensor<2x2x!quant.uniform<i32:f32:1, {0.0078125, 0.00390625}>>) -> tensor<2x2xf32>
  %s = "stablehlo.add"(%qx, %qx) : (tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>, tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25>>
  %r = "stablehlo.reshape"(%s) : (tensor<2x3x!quant.uniform<i8:f32, 0.25>>) -> tensor<6x!quant.uniform<i8:f32, 0.25>>
  %n = "stablehlo.negate"(%r) : (tensor<6x!quant.uniform<i8:f32, 0.25>>) -> tensor<6x!quant.uniform<i8:f32, 0.25>>
  %g = "stablehlo.uniform_dequantize"(%n) : (tensor<6x!quant.uniform<i8:f32, 0.25>>) -> tensor<6xf32>
  func.return %f, %g : tensor<2x2xf32>, tensor<6xf32>
}

func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2x!quant.uniform<i8<-127:127>:f32:1, {0.25, 0.5:0}>>) -> tensor<2x2xf32> {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>
  %u = "stablehlo.uniform_quantize"(%q) : (tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>) -> tensor<2x3x!quant.uniform<u8:f32, 5.000000e-01:128>>
  %a = "stablehlo.add"(%q, %q) : (tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>, tensor<2x3x!quant.uniform<i8:f32, 0.125:3>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25>>
  %d = "stablehlo.dot_general"(%a, %w) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<2x3x!quant.uniform<i8:f32, 0.25>>, tensor<3x2x!quant.uniform<i8<-127:127>:f32:1, {0.25, 0.5:0}>>) -> tensor<2x2x!quant.uniform<i32:f32:1, {0.0625, 0.125}>>
  %s = "stablehlo.bitcast_convert"(%d) : (tensor<2x2x!quant.uniform<i32:f32:1, {0.0625, 0.125}>>) -> tensor<2x2xi32>
  %f = "stablehlo.uniform_dequantize"(%d) : (tensor<2x2x!quant.uniform<i32:f32:1, {0.0625, 0.125}>>) -> tensor<2x2xf32>
  func.return %f : tensor<2x2xf32>
}

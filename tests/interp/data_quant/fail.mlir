// Quantized types and ops used wrongly: each part must fail with the error test_quant.sh expects.

func.func @scale_not_positive(%x: tensor<2xf32>) {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, -0.5>>
  func.return
}
// -----
func.func @empty_storage_range(%x: tensor<2xf32>) {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2x!quant.uniform<i8<3:3>:f32, 0.5:3>>
  func.return
}
// -----
func.func @quantize_to_float(%x: tensor<2xf32>) {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// -----
func.func @quantize_other_expressed(%x: tensor<2xf16>) {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2xf16>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  func.return
}
// -----
func.func @dequantize_float(%x: tensor<2xf32>) {
  %q = "stablehlo.uniform_dequantize"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// -----
func.func @requantize_moves_axis(%x: tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) {
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  func.return
}
// -----
func.func @add_mixed(%a: tensor<2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2xf32>) {
  %r = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  func.return
}
// -----
func.func @add_storage_types(%a: tensor<2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x!quant.uniform<i16:f32, 0.5>>) {
  %r = "stablehlo.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2x!quant.uniform<i16:f32, 0.5>>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  func.return
}
// -----
func.func @reshape_other_scale(%a: tensor<2x!quant.uniform<i8:f32, 0.5>>) {
  %r = "stablehlo.reshape"(%a) : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x!quant.uniform<i8:f32, 0.25>>
  func.return
}
// -----
func.func @dot_rhs_zero_point(%a: tensor<1x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) {
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<1x2x!quant.uniform<i32:f32, 0.25>>
  func.return
}
// -----
func.func @dot_rhs_axis_contracted(%a: tensor<1x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.5}>>) {
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.5}>>) -> tensor<1x2x!quant.uniform<i32:f32, 0.25>>
  func.return
}
// -----
func.func @dot_float_rhs(%a: tensor<1x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x2xf32>) {
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x2xf32>) -> tensor<1x2x!quant.uniform<i32:f32, 0.25>>
  func.return
}
// -----
func.func @hybrid_quantized_result(%a: tensor<1x2xf32>, %b: tensor<2x2x!quant.uniform<i8:f32, 0.5>>) {
  %r = "stablehlo.dot_general"(%a, %b) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<1x2xf32>, tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x!quant.uniform<i32:f32, 0.25>>
  func.return
}
// -----
func.func @transpose_keeps_axis(%a: tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) {
  %r = "stablehlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  func.return
}
// -----
func.func @conv_rhs_axis(%a: tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, %b: tensor<2x1x1x!quant.uniform<i8:f32:1, {0.25}>>) {
  %r = "stablehlo.convolution"(%a, %b) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x1x!quant.uniform<i8:f32:1, {0.25}>>) -> tensor<1x2x1x!quant.uniform<i32:f32, 0.125>>
  func.return
}
// -----
func.func @reshape_moves_axis(%a: tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) {
  %r = "stablehlo.reshape"(%a) : (tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<3x2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>
  func.return
}

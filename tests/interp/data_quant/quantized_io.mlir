// A quantized parameter and result: the input's stored integers [3, -5] stand for
// [(3 - 1) * 0.5, (-5 - 1) * 0.5] = [1, -3], requantized by 0.25 to [4, -12].
func.func @main(%q: tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> (tensor<2xf32>, tensor<2x!quant.uniform<i8:f32, 0.25>>) {
  %x = "stablehlo.uniform_dequantize"(%q) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2xf32>
  %r = "stablehlo.uniform_quantize"(%q) : (tensor<2x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<2x!quant.uniform<i8:f32, 0.25>>
  func.return %x, %r : tensor<2xf32>, tensor<2x!quant.uniform<i8:f32, 0.25>>
}

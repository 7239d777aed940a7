// The inputs of compiled.mlir (x, w) and quantized_io.mlir (stored integers), written as .npy by
// `hlorun run --output`.
func.func @main() -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xi8>) {
  %x = stablehlo.constant dense<[[0.5, -1.25, 2.0], [3.0, 0.75, -2.5]]> : tensor<2x3xf32>
  %w = stablehlo.constant dense<[[1.0, -0.5], [0.25, 2.0], [-1.5, 0.75]]> : tensor<3x2xf32>
  %q = stablehlo.constant dense<[3, -5]> : tensor<2xi8>
  func.return %x, %w, %q : tensor<2x3xf32>, tensor<3x2xf32>, tensor<2xi8>
}

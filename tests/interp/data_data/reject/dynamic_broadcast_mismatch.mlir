// Broadcasting a dimension of size 2 to size 3 must be an error.
// EXPECT: stablehlo.dynamic_broadcast_in_dim
module @dynamic_broadcast_mismatch {
  func.func public @main() -> tensor<?xf32> {
    %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %shape = stablehlo.constant dense<[3]> : tensor<1xi64>
    %0 = stablehlo.dynamic_broadcast_in_dim %x, %shape, dims = [0] : (tensor<2xf32>, tensor<1xi64>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

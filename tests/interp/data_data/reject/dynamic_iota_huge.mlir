// A run-time shape of 2^62 x 4 elements must hit the tensor size limit, not overflow.
// EXPECT: stablehlo.dynamic_iota
module @dynamic_iota_huge {
  func.func public @main() -> tensor<?x?xi32> {
    %shape = stablehlo.constant dense<[4611686018427387904, 4]> : tensor<2xi64>
    %0 = stablehlo.dynamic_iota %shape, dim = 0 : (tensor<2xi64>) -> tensor<?x?xi32>
    return %0 : tensor<?x?xi32>
  }
}

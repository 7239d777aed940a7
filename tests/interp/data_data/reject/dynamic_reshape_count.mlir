// Reshaping 4 elements into 5 must be an error.
// EXPECT: stablehlo.dynamic_reshape
module @dynamic_reshape_count {
  func.func public @main() -> tensor<?xf32> {
    %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %shape = stablehlo.constant dense<[5]> : tensor<1xi64>
    %0 = stablehlo.dynamic_reshape %x, %shape : (tensor<4xf32>, tensor<1xi64>) -> tensor<?xf32>
    return %0 : tensor<?xf32>
  }
}

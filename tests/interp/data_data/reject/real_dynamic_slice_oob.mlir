// A run-time limit beyond the operand must be an error, not an out-of-bounds read.
// EXPECT: stablehlo.real_dynamic_slice
module @real_dynamic_slice_oob {
  func.func public @main() -> tensor<?xi32> {
    %x = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
    %start = stablehlo.constant dense<[1]> : tensor<1xi64>
    %limit = stablehlo.constant dense<[100]> : tensor<1xi64>
    %step = stablehlo.constant dense<[1]> : tensor<1xi64>
    %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %step : (tensor<4xi32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi32>
    return %0 : tensor<?xi32>
  }
}

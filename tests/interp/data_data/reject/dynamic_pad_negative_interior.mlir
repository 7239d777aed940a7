// Negative interior padding from a run-time value must be an error.
// EXPECT: stablehlo.dynamic_pad
module @dynamic_pad_negative_interior {
  func.func public @main() -> tensor<?xi32> {
    %x = stablehlo.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
    %p = stablehlo.constant dense<0> : tensor<i32>
    %low = stablehlo.constant dense<[0]> : tensor<1xi64>
    %high = stablehlo.constant dense<[9]> : tensor<1xi64>
    %int = stablehlo.constant dense<[-3]> : tensor<1xi64>
    %0 = stablehlo.dynamic_pad %x, %p, %low, %high, %int : (tensor<4xi32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi32>
    return %0 : tensor<?xi32>
  }
}

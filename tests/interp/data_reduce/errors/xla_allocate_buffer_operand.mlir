// ERROR: takes no operands and gives one result
module {
  func.func @main() {
    %v = stablehlo.constant dense<1.0> : tensor<5xf32>
    %b = stablehlo.custom_call @AllocateBuffer(%v) : (tensor<5xf32>) -> tensor<5xf32>
    return
  }
}

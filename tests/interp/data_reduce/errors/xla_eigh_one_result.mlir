// ERROR: takes one operand and gives 2 results
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>
    %e = stablehlo.custom_call @Eigh(%a) {backend_config = "1,1,15,0.1"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return
  }
}

// ERROR: takes 2 operand(s) and gives 3 results
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>
    %o:3 = stablehlo.custom_call @cusolver_orgqr(%a) {api_version = 2 : i32, backend_config = "\00\00\00\00\01\00\00\00\02\00\00\00\02\00\00\00\02\00\00\00\00\00\00\00"} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>, tensor<1xf32>)
    return
  }
}

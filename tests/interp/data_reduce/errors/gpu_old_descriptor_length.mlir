// ERROR: needs a descriptor of 20 bytes in backend_config
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>
    %e:4 = stablehlo.custom_call @cusolver_syevj(%a) {api_version = 2 : i32, backend_config = "\00\00\00\00"} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>, tensor<1xf32>)
    return
  }
}

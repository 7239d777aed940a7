// ERROR: descriptor field 3 is 7, the operand gives 2
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<1x2x2xf32>
    %q:4 = stablehlo.custom_call @hipblas_geqrf_batched(%a) {api_version = 2 : i32, backend_config = "\00\00\00\00\01\00\00\00\02\00\00\00\07\00\00\00"} : (tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2xf32>, tensor<8xi8>, tensor<8xi8>)
    return
  }
}

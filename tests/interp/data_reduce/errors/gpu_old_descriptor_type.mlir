// ERROR: descriptor type 1 is not the operand's (f32)
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>
    %e:4 = stablehlo.custom_call @hipsolver_syevj(%a) {api_version = 2 : i32, backend_config = "\01\00\00\00z\00\00\00\01\00\00\00\02\00\00\00\00\00\00\00"} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>, tensor<1xf32>)
    return
  }
}

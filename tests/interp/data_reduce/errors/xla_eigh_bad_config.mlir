// ERROR: backend_config: bad 'max_iter'
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>
    %e:2 = stablehlo.custom_call @Eigh(%a) {backend_config = "1,1,many,0.1"} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>)
    return
  }
}

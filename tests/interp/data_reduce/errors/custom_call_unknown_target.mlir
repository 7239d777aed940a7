// ERROR: custom_call @lapack_dfoo_ffi is not supported
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf64>
    %l = stablehlo.custom_call @lapack_dfoo_ffi(%a) : (tensor<2x2xf64>) -> tensor<2x2xf64>
    return
  }
}

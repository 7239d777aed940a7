// ERROR: gees with sorted eigenvalues is not supported
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf64>
    %s:6 = stablehlo.custom_call @lapack_dgees_ffi(%a) {mhlo.backend_config = {mode = 86 : ui8, sort = 83 : ui8}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<i32>, tensor<i32>)
    return
  }
}

// ERROR: result 1 (the pivots) must hold 3 elements of i32
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<3x3xf64>
    %lu:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%a) : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<2xi32>, tensor<i32>)
    return
  }
}

// ERROR: the matrix has element type f32, the target's is f64
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>
    %l:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
    return
  }
}

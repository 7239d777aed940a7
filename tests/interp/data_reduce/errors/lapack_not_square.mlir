// ERROR: potrf needs square matrices
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<2x3xf64>
    %l:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<i32>)
    return
  }
}

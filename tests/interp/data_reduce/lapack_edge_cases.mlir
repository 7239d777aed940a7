// Edge cases of every LAPACK/BLAS target (src/interp/custom_call_lapack.c): an empty batch
// (0 matrices) for each, a singular matrix for getrf (info = the first zero pivot, 1-based), a
// matrix of zeros for gesdd and syevd, and gehrd/sytrd on batches of one and three.
module {
  func.func @main() {
    %e = stablehlo.constant dense<> : tensor<0x3x3xf64>
    %e2 = stablehlo.constant dense<> : tensor<0x3xf64>
    %ei = stablehlo.constant dense<> : tensor<0xi32>
    %lu:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%e) : (tensor<0x3x3xf64>) -> (tensor<0x3x3xf64>, tensor<0x3xi32>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%lu#2, %ei) {has_side_effect = true} : (tensor<0xi32>, tensor<0xi32>) -> ()
    %qr:2 = stablehlo.custom_call @lapack_dgeqrf_ffi(%e) : (tensor<0x3x3xf64>) -> (tensor<0x3x3xf64>, tensor<0x3xf64>)
    %q = stablehlo.custom_call @lapack_dorgqr_ffi(%qr#0, %qr#1) : (tensor<0x3x3xf64>, tensor<0x3xf64>) -> tensor<0x3x3xf64>
    stablehlo.custom_call @check.expect_eq(%q, %e) {has_side_effect = true} : (tensor<0x3x3xf64>, tensor<0x3x3xf64>) -> ()
    %ev:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%e) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<0x3x3xf64>) -> (tensor<0x3x3xf64>, tensor<0x3xf64>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%ev#1, %e2) {has_side_effect = true} : (tensor<0x3xf64>, tensor<0x3xf64>) -> ()
    %sv:5 = stablehlo.custom_call @lapack_dgesdd_ffi(%e) {mhlo.backend_config = {mode = 65 : ui8}} : (tensor<0x3x3xf64>) -> (tensor<0x3x3xf64>, tensor<0x3xf64>, tensor<0x3x3xf64>, tensor<0x3x3xf64>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%sv#1, %e2) {has_side_effect = true} : (tensor<0x3xf64>, tensor<0x3xf64>) -> ()
    %t = stablehlo.custom_call @lapack_dtrsm_ffi(%e, %e) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}} : (tensor<0x3x3xf64>, tensor<0x3x3xf64>) -> tensor<0x3x3xf64>
    stablehlo.custom_call @check.expect_eq(%t, %e) {has_side_effect = true} : (tensor<0x3x3xf64>, tensor<0x3x3xf64>) -> ()
    %eg:5 = stablehlo.custom_call @lapack_dgeev_ffi(%e) {mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}} : (tensor<0x3x3xf64>) -> (tensor<0x3xf64>, tensor<0x3xf64>, tensor<0x3x3xcomplex<f64>>, tensor<0x3x3xcomplex<f64>>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%eg#4, %ei) {has_side_effect = true} : (tensor<0xi32>, tensor<0xi32>) -> ()
    %sc:6 = stablehlo.custom_call @lapack_dgees_ffi(%e) {mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}} : (tensor<0x3x3xf64>) -> (tensor<0x3x3xf64>, tensor<0x3x3xf64>, tensor<0x3xf64>, tensor<0x3xf64>, tensor<0xi32>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%sc#0, %e) {has_side_effect = true} : (tensor<0x3x3xf64>, tensor<0x3x3xf64>) -> ()
    %hs:3 = stablehlo.custom_call @lapack_dgehrd_ffi(%e) {mhlo.backend_config = {high = 3 : i32, low = 1 : i32}} : (tensor<0x3x3xf64>) -> (tensor<0x3x3xf64>, tensor<0x2xf64>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%hs#2, %ei) {has_side_effect = true} : (tensor<0xi32>, tensor<0xi32>) -> ()
    %td:5 = stablehlo.custom_call @lapack_dsytrd_ffi(%e) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<0x3x3xf64>) -> (tensor<0x3x3xf64>, tensor<0x3xf64>, tensor<0x2xf64>, tensor<0x2xf64>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%td#1, %e2) {has_side_effect = true} : (tensor<0x3xf64>, tensor<0x3xf64>) -> ()
    %gt:5 = stablehlo.custom_call @lapack_dgtsv_ffi(%e2, %e2, %e2, %e) : (tensor<0x3xf64>, tensor<0x3xf64>, tensor<0x3xf64>, tensor<0x3x3xf64>) -> (tensor<0x3xf64>, tensor<0x3xf64>, tensor<0x3xf64>, tensor<0x3x3xf64>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%gt#3, %e) {has_side_effect = true} : (tensor<0x3x3xf64>, tensor<0x3x3xf64>) -> ()
    // singular: the second pivot is zero
    %s = stablehlo.constant dense<[[1.0, 2.0], [2.0, 4.0]]> : tensor<2x2xf64>
    %sl:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%s) : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xi32>, tensor<i32>)
    %two = stablehlo.constant dense<2> : tensor<i32>
    stablehlo.custom_call @check.expect_eq(%sl#2, %two) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
    // zeros: singular values and eigenvalues 0
    %z = stablehlo.constant dense<0.0> : tensor<1x2x2xf64>
    %z2 = stablehlo.constant dense<0.0> : tensor<1x2xf64>
    %zs:5 = stablehlo.custom_call @lapack_dgesdd_ffi(%z) {mhlo.backend_config = {mode = 83 : ui8}} : (tensor<1x2x2xf64>) -> (tensor<1x2x2xf64>, tensor<1x2xf64>, tensor<1x2x2xf64>, tensor<1x2x2xf64>, tensor<1xi32>)
    stablehlo.custom_call @check.expect_eq(%zs#1, %z2) {has_side_effect = true} : (tensor<1x2xf64>, tensor<1x2xf64>) -> ()
    %ze:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%z) {mhlo.backend_config = {mode = 78 : ui8, uplo = 76 : ui8}} : (tensor<1x2x2xf64>) -> (tensor<1x2x2xf64>, tensor<1x2xf64>, tensor<1xi32>)
    stablehlo.custom_call @check.expect_eq(%ze#1, %z2) {has_side_effect = true} : (tensor<1x2xf64>, tensor<1x2xf64>) -> ()
    // a diagonal matrix is already tridiagonal (and Hessenberg): d is its diagonal, e and tau 0
    %dg = stablehlo.constant dense<[[[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]], [[4.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 6.0]], [[7.0, 0.0, 0.0], [0.0, 8.0, 0.0], [0.0, 0.0, 9.0]]]> : tensor<3x3x3xf64>
    %tr:5 = stablehlo.custom_call @lapack_dsytrd_ffi(%dg) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x3x3xf64>) -> (tensor<3x3x3xf64>, tensor<3x3xf64>, tensor<3x2xf64>, tensor<3x2xf64>, tensor<3xi32>)
    %ed = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf64>
    %z32 = stablehlo.constant dense<0.0> : tensor<3x2xf64>
    stablehlo.custom_call @check.expect_eq(%tr#1, %ed) {has_side_effect = true} : (tensor<3x3xf64>, tensor<3x3xf64>) -> ()
    stablehlo.custom_call @check.expect_eq(%tr#2, %z32) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    %hg:3 = stablehlo.custom_call @lapack_dgehrd_ffi(%dg) {mhlo.backend_config = {high = 3 : i32, low = 1 : i32}} : (tensor<3x3x3xf64>) -> (tensor<3x3x3xf64>, tensor<3x2xf64>, tensor<3xi32>)
    stablehlo.custom_call @check.expect_eq(%hg#0, %dg) {has_side_effect = true} : (tensor<3x3x3xf64>, tensor<3x3x3xf64>) -> ()
    stablehlo.custom_call @check.expect_eq(%hg#1, %z32) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    return
  }
}

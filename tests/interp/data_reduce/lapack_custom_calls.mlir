// jaxlib's CPU LAPACK/BLAS custom calls (src/interp/custom_call_lapack.c), old ABI and FFI, on
// hand-made matrices: batches of 0, 1 and 3, a matrix that is not positive definite, a NaN, an
// infinity, and the expected values numpy.linalg gives (cholesky, qr, eigh, svd, solve), a hand
// LU with partial pivoting, or those of triangular matrices (eig, schur).
module {
  func.func @main() {
    // potrf (FFI, lower): two SPD matrices and one that is not (info 2, its matrix unspecified);
    // the upper triangle keeps the input
    %a = stablehlo.constant dense<[[[4.0, 2.0], [2.0, 3.0]], [[9.0, 3.0], [3.0, 5.0]], [[1.0, 2.0], [2.0, 1.0]]]> : tensor<3x2x2xf64>
    %l:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<3x2x2xf64>) -> (tensor<3x2x2xf64>, tensor<3xi32>)
    %l2 = stablehlo.slice %l#0 [0:2, 0:2, 0:2] : (tensor<3x2x2xf64>) -> tensor<2x2x2xf64>
    %el = stablehlo.constant dense<[[[2.0, 2.0], [1.0, 1.4142135623730951]], [[3.0, 3.0], [1.0, 2.0]]]> : tensor<2x2x2xf64>
    stablehlo.custom_call @check.expect_close(%l2, %el) {has_side_effect = true} : (tensor<2x2x2xf64>, tensor<2x2x2xf64>) -> ()
    %ei = stablehlo.constant dense<[0, 0, 2]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%l#1, %ei) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    // potrf (old ABI: lower, batch, n, a), f32, upper, a batch of one: U = L^T
    %lower0 = stablehlo.constant dense<0> : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %two = stablehlo.constant dense<2> : tensor<i32>
    %af = stablehlo.constant dense<[[[4.0, 2.0], [2.0, 3.0]]]> : tensor<1x2x2xf32>
    %u:2 = stablehlo.custom_call @lapack_spotrf(%lower0, %one, %two, %af) {api_version = 2 : i32} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<i32>)
    %eu = stablehlo.constant dense<[[[2.0, 1.0], [2.0, 1.41421354]]]> : tensor<1x2x2xf32>
    stablehlo.custom_call @check.expect_close(%u#0, %eu) {has_side_effect = true} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> ()
    // a NaN on the diagonal: not positive definite (info 1)
    %an = stablehlo.constant dense<[[0x7FF8000000000000, 0.0], [0.0, 1.0]]> : tensor<2x2xf64>
    %n:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%an) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<i32>)
    %e1 = stablehlo.constant dense<1> : tensor<i32>
    stablehlo.custom_call @check.expect_eq(%n#1, %e1) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
    // an empty batch
    %a0 = stablehlo.constant dense<> : tensor<0x2x2xf64>
    %z:2 = stablehlo.custom_call @lapack_dpotrf_ffi(%a0) {mhlo.backend_config = {uplo = 76 : ui8}} : (tensor<0x2x2xf64>) -> (tensor<0x2x2xf64>, tensor<0xi32>)
    stablehlo.custom_call @check.expect_eq(%z#0, %a0) {has_side_effect = true} : (tensor<0x2x2xf64>, tensor<0x2x2xf64>) -> ()
    // getrf: packed L\U and 1-based pivots
    %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]> : tensor<3x3xf64>
    %lu:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%m) : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xi32>, tensor<i32>)
    %elu = stablehlo.constant dense<[[7.0, 8.0, 10.0], [0.14285714285714285, 0.8571428571428572, 1.5714285714285716], [0.5714285714285714, 0.5000000000000002, -0.49999999999999967]]> : tensor<3x3xf64>
    %epiv = stablehlo.constant dense<[3, 3, 3]> : tensor<3xi32>
    %e0 = stablehlo.constant dense<0> : tensor<i32>
    stablehlo.custom_call @check.expect_close(%lu#0, %elu) {has_side_effect = true} : (tensor<3x3xf64>, tensor<3x3xf64>) -> ()
    stablehlo.custom_call @check.expect_eq(%lu#1, %epiv) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%lu#2, %e0) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
    // geqrf then orgqr (FFI): Q of the reduced QR, R in the upper triangle
    %q0 = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf64>
    %qr:2 = stablehlo.custom_call @lapack_dgeqrf_ffi(%q0) : (tensor<3x2xf64>) -> (tensor<3x2xf64>, tensor<2xf64>)
    %r = stablehlo.slice %qr#0 [0:1, 0:2] : (tensor<3x2xf64>) -> tensor<1x2xf64>
    %er = stablehlo.constant dense<[[-5.916079783099616, -7.437357441610946]]> : tensor<1x2xf64>
    stablehlo.custom_call @check.expect_close(%r, %er) {has_side_effect = true} : (tensor<1x2xf64>, tensor<1x2xf64>) -> ()
    %q = stablehlo.custom_call @lapack_dorgqr_ffi(%qr#0, %qr#1) : (tensor<3x2xf64>, tensor<2xf64>) -> tensor<3x2xf64>
    %eq = stablehlo.constant dense<[[-0.16903085094570325, 0.8970852271450607], [-0.50709255283711, 0.27602622373694136], [-0.8451542547285166, -0.34503277967117696]]> : tensor<3x2xf64>
    stablehlo.custom_call @check.expect_close(%q, %eq) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    // trsm (FFI, BLAS form with alpha 2): L x = 2 b for a batch of three
    %ls = stablehlo.constant dense<[[[2.0, 0.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 4.0]], [[3.0, 0.0], [-1.0, 2.0]]]> : tensor<3x2x2xf64>
    %b = stablehlo.constant dense<[[[2.0], [3.0]], [[1.0], [8.0]], [[3.0], [1.0]]]> : tensor<3x2x1xf64>
    %alpha = stablehlo.constant dense<2.0> : tensor<f64>
    %x = stablehlo.custom_call @blas_dtrsm_ffi(%ls, %b, %alpha) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}} : (tensor<3x2x2xf64>, tensor<3x2x1xf64>, tensor<f64>) -> tensor<3x2x1xf64>
    %ex = stablehlo.constant dense<[[[2.0], [4.0]], [[2.0], [4.0]], [[2.0], [2.0]]]> : tensor<3x2x1xf64>
    stablehlo.custom_call @check.expect_close(%x, %ex) {has_side_effect = true} : (tensor<3x2x1xf64>, tensor<3x2x1xf64>) -> ()
    // syevd (FFI): ascending eigenvalues
    %s = stablehlo.constant dense<[[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]> : tensor<3x3xf64>
    %ev:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%s) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>, tensor<i32>)
    %ew = stablehlo.constant dense<[1.2679491924311228, 3.0, 4.7320508075688785]> : tensor<3xf64>
    stablehlo.custom_call @check.expect_close(%ev#1, %ew) {has_side_effect = true} : (tensor<3xf64>, tensor<3xf64>) -> ()
    // gesdd (FFI, mode S): singular values
    %sv:5 = stablehlo.custom_call @lapack_dgesdd_ffi(%q0) {mhlo.backend_config = {mode = 83 : ui8}} : (tensor<3x2xf64>) -> (tensor<3x2xf64>, tensor<2xf64>, tensor<3x2xf64>, tensor<2x2xf64>, tensor<i32>)
    %es = stablehlo.constant dense<[9.525518091565107, 0.5143005806586443]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_close(%sv#1, %es) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    // gtsv (FFI): a tridiagonal system with two right-hand sides (dl[0] and du[n-1] unused)
    %dl = stablehlo.constant dense<[0.0, 1.0, 2.0]> : tensor<3xf64>
    %dd = stablehlo.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf64>
    %du = stablehlo.constant dense<[1.0, 1.0, 0.0]> : tensor<3xf64>
    %tb = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf64>
    %ts:5 = stablehlo.custom_call @lapack_dgtsv_ffi(%dl, %dd, %du, %tb) : (tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3x2xf64>) -> (tensor<3xf64>, tensor<3xf64>, tensor<3xf64>, tensor<3x2xf64>, tensor<i32>)
    %etx = stablehlo.constant dense<[[0.14150943396226415, 0.3584905660377359], [0.4339622641509434, 0.5660377358490566], [0.6886792452830188, 0.8113207547169811]]> : tensor<3x2xf64>
    stablehlo.custom_call @check.expect_close(%ts#3, %etx) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    // geev (FFI) of an upper triangular matrix: its diagonal, in order; right eigenvectors
    // e1 and (1, 1)/sqrt(2)
    %g = stablehlo.constant dense<[[1.0, 2.0], [0.0, 3.0]]> : tensor<2x2xf64>
    %ge:5 = stablehlo.custom_call @lapack_dgeev_ffi(%g) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}} : (tensor<2x2xf64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<i32>)
    %egw = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_close(%ge#0, %egw) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    %egv = stablehlo.constant dense<[[(1.0, 0.0), (0.70710678118654746, 0.0)], [(0.0, 0.0), (0.70710678118654746, 0.0)]]> : tensor<2x2xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%ge#3, %egv) {has_side_effect = true} : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) -> ()
    // a non-finite matrix is not decomposed: info -4
    %gn = stablehlo.constant dense<[[1.0, 0x7FF0000000000000], [0.0, 3.0]]> : tensor<2x2xf64>
    %gi:5 = stablehlo.custom_call @lapack_dgeev_ffi(%gn) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}} : (tensor<2x2xf64>) -> (tensor<2xf64>, tensor<2xf64>, tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>, tensor<i32>)
    %em4 = stablehlo.constant dense<-4> : tensor<i32>
    stablehlo.custom_call @check.expect_eq(%gi#4, %em4) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
    // gees (FFI, 2024-11 order) of an upper triangular matrix: T = A, Q = I
    %sc:6 = stablehlo.custom_call @lapack_dgees_ffi(%g) {mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<i32>, tensor<i32>)
    %eye = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf64>
    stablehlo.custom_call @check.expect_close(%sc#0, %g) {has_side_effect = true} : (tensor<2x2xf64>, tensor<2x2xf64>) -> ()
    stablehlo.custom_call @check.expect_close(%sc#1, %eye) {has_side_effect = true} : (tensor<2x2xf64>, tensor<2x2xf64>) -> ()
    return
  }
}

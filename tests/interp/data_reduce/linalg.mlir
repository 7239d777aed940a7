// stablehlo.triangular_solve (left/right side, lower/upper, transposed and adjoint, unit
// diagonal, batched) and stablehlo.cholesky (lower/upper, complex, not positive definite).
// Entries outside the triangle named by `lower` hold junk (9, 99) that must be ignored.
module {
  func.func @main() {
    %a = stablehlo.constant dense<[[2.0, 9.0, 9.0], [1.0, 4.0, 9.0], [3.0, -1.0, 5.0]]> : tensor<3x3xf64>
    %u = stablehlo.constant dense<[[2.0, 1.0, 3.0], [9.0, 4.0, -1.0], [9.0, 9.0, 5.0]]> : tensor<3x3xf64>
    %b = stablehlo.constant dense<[[2.0, 4.0], [5.0, -3.0], [1.0, 7.0]]> : tensor<3x2xf64>
    %bt = stablehlo.constant dense<[[2.0, 5.0, 1.0], [4.0, -3.0, 7.0]]> : tensor<2x3xf64>
    // L x = b
    %x1 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
    %e1 = stablehlo.constant dense<[[1.0, 2.0], [1.0, -1.25], [-0.2, -0.05]]> : tensor<3x2xf64>
    stablehlo.custom_call @check.expect_close(%x1, %e1) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    // L^T x = b, and the same system through the upper triangle of u = L^T
    %x2 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
    %x3 = "stablehlo.triangular_solve"(%u, %b) <{left_side = true, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
    %e2 = stablehlo.constant dense<[[0.05, 0.1], [1.3, -0.4], [0.2, 1.4]]> : tensor<3x2xf64>
    stablehlo.custom_call @check.expect_close(%x2, %e2) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    stablehlo.custom_call @check.expect_close(%x3, %e2) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    // x L = bt, x U^T = bt, x L^T = bt
    %x4 = "stablehlo.triangular_solve"(%a, %bt) <{left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %x5 = "stablehlo.triangular_solve"(%u, %bt) <{left_side = false, lower = false, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %e4 = stablehlo.constant dense<[[0.05, 1.3, 0.2], [0.1, -0.4, 1.4]]> : tensor<2x3xf64>
    stablehlo.custom_call @check.expect_close(%x4, %e4) {has_side_effect = true} : (tensor<2x3xf64>, tensor<2x3xf64>) -> ()
    stablehlo.custom_call @check.expect_close(%x5, %e4) {has_side_effect = true} : (tensor<2x3xf64>, tensor<2x3xf64>) -> ()
    %x7 = "stablehlo.triangular_solve"(%a, %bt) <{left_side = false, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>}> : (tensor<3x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %e7 = stablehlo.constant dense<[[1.0, 1.0, -0.2], [2.0, -1.25, -0.05]]> : tensor<2x3xf64>
    stablehlo.custom_call @check.expect_close(%x7, %e7) {has_side_effect = true} : (tensor<2x3xf64>, tensor<2x3xf64>) -> ()
    // unit diagonal: the stored diagonal is ignored
    %x6 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
    %e6 = stablehlo.constant dense<[[2.0, 4.0], [3.0, -7.0], [-2.0, -12.0]]> : tensor<3x2xf64>
    stablehlo.custom_call @check.expect_eq(%x6, %e6) {has_side_effect = true} : (tensor<3x2xf64>, tensor<3x2xf64>) -> ()
    // complex adjoint: [[1-i, 2+i], [0, 3]] x = [1, i]
    %ca = stablehlo.constant dense<[[(1.0, 1.0), (9.0, 9.0)], [(2.0, -1.0), (3.0, 0.0)]]> : tensor<2x2xcomplex<f32>>
    %cb = stablehlo.constant dense<[[(1.0, 0.0)], [(0.0, 1.0)]]> : tensor<2x1xcomplex<f32>>
    %cx = "stablehlo.triangular_solve"(%ca, %cb) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>}> : (tensor<2x2xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> tensor<2x1xcomplex<f32>>
    %ce = stablehlo.constant dense<[[(1.0, 0.333333343)], [(0.0, 0.333333343)]]> : tensor<2x1xcomplex<f32>>
    stablehlo.custom_call @check.expect_close(%cx, %ce) {has_side_effect = true} : (tensor<2x1xcomplex<f32>>, tensor<2x1xcomplex<f32>>) -> ()
    // batched f32
    %ba = stablehlo.constant dense<[[[2.0, 0.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 4.0]]]> : tensor<2x2x2xf32>
    %bb = stablehlo.constant dense<[[[4.0], [3.0]], [[2.0], [8.0]]]> : tensor<2x2x1xf32>
    %bx = "stablehlo.triangular_solve"(%ba, %bb) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<2x2x2xf32>, tensor<2x2x1xf32>) -> tensor<2x2x1xf32>
    %be = stablehlo.constant dense<[[[2.0], [1.0]], [[2.0], [2.0]]]> : tensor<2x2x1xf32>
    stablehlo.custom_call @check.expect_eq(%bx, %be) {has_side_effect = true} : (tensor<2x2x1xf32>, tensor<2x2x1xf32>) -> ()

    // cholesky: [[4, 2, -2], [2, 10, 2], [-2, 2, 6]] = L L^T with L = [[2, 0, 0], [1, 3, 0], [-1, 1, 2]]
    %pl = stablehlo.constant dense<[[4.0, 99.0, 99.0], [2.0, 10.0, 99.0], [-2.0, 2.0, 6.0]]> : tensor<3x3xf32>
    %l = "stablehlo.cholesky"(%pl) <{lower = true}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %el = stablehlo.constant dense<[[2.0, 0.0, 0.0], [1.0, 3.0, 0.0], [-1.0, 1.0, 2.0]]> : tensor<3x3xf32>
    stablehlo.custom_call @check.expect_eq(%l, %el) {has_side_effect = true} : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
    %pu = stablehlo.constant dense<[[4.0, 2.0, -2.0], [99.0, 10.0, 2.0], [99.0, 99.0, 6.0]]> : tensor<3x3xf32>
    %uu = "stablehlo.cholesky"(%pu) <{lower = false}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %eu = stablehlo.constant dense<[[2.0, 1.0, -1.0], [0.0, 3.0, 1.0], [0.0, 0.0, 2.0]]> : tensor<3x3xf32>
    stablehlo.custom_call @check.expect_eq(%uu, %eu) {has_side_effect = true} : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
    // complex Hermitian, both triangles
    %h = stablehlo.constant dense<[[(4.0, 0.0), (2.0, 2.0)], [(2.0, -2.0), (6.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
    %hl = "stablehlo.cholesky"(%h) <{lower = true}> : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
    %ehl = stablehlo.constant dense<[[(2.0, 0.0), (0.0, 0.0)], [(1.0, -1.0), (2.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%hl, %ehl) {has_side_effect = true} : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) -> ()
    %hu = "stablehlo.cholesky"(%h) <{lower = false}> : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
    %ehu = stablehlo.constant dense<[[(2.0, 0.0), (1.0, 1.0)], [(0.0, 0.0), (2.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%hu, %ehu) {has_side_effect = true} : (tensor<2x2xcomplex<f64>>, tensor<2x2xcomplex<f64>>) -> ()
    // batched, the second matrix not positive definite: it becomes all NaN, the first is intact
    %np = stablehlo.constant dense<[[[9.0, 0.0], [3.0, 5.0]], [[1.0, 0.0], [2.0, 1.0]]]> : tensor<2x2x2xf64>
    %nl = "stablehlo.cholesky"(%np) <{lower = true}> : (tensor<2x2x2xf64>) -> tensor<2x2x2xf64>
    %enl = stablehlo.constant dense<[[[3.0, 0.0], [1.0, 2.0]], [[0x7FF8000000000000, 0x7FF8000000000000], [0x7FF8000000000000, 0x7FF8000000000000]]]> : tensor<2x2x2xf64>
    stablehlo.custom_call @check.expect_eq(%nl, %enl) {has_side_effect = true} : (tensor<2x2x2xf64>, tensor<2x2x2xf64>) -> ()
    func.return
  }
}

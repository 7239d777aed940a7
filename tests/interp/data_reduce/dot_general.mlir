// stablehlo.dot_general and stablehlo.dot: integer wraparound, preferred result types, batching
// and contracting dimensions in any position and order, f16 accumulation in f32, complex
// products, empty contractions, and products large enough to cross the engine's tiles.
module {
  func.func @main() {
    // i8 products wrap in the result type; with an i32 result they do not.
    %a8 = stablehlo.constant dense<[[100, 100]]> : tensor<1x2xi8>
    %b8 = stablehlo.constant dense<[[2], [1]]> : tensor<2x1xi8>
    %r0 = stablehlo.dot_general %a8, %b8, contracting_dims = [1] x [0] : (tensor<1x2xi8>, tensor<2x1xi8>) -> tensor<1x1xi8>
    %e0 = stablehlo.constant dense<44> : tensor<1x1xi8>
    stablehlo.custom_call @check.expect_eq(%r0, %e0) {has_side_effect = true} : (tensor<1x1xi8>, tensor<1x1xi8>) -> ()
    %r1 = stablehlo.dot_general %a8, %b8, contracting_dims = [1] x [0] : (tensor<1x2xi8>, tensor<2x1xi8>) -> tensor<1x1xi32>
    %e1 = stablehlo.constant dense<300> : tensor<1x1xi32>
    stablehlo.custom_call @check.expect_eq(%r1, %e1) {has_side_effect = true} : (tensor<1x1xi32>, tensor<1x1xi32>) -> ()
    %u = stablehlo.constant dense<[255]> : tensor<1xui8>
    %r2 = stablehlo.dot_general %u, %u, contracting_dims = [0] x [0] : (tensor<1xui8>, tensor<1xui8>) -> tensor<ui8>
    %e2 = stablehlo.constant dense<1> : tensor<ui8>
    stablehlo.custom_call @check.expect_eq(%r2, %e2) {has_side_effect = true} : (tensor<ui8>, tensor<ui8>) -> ()

    // Batching dimension in the middle of lhs, contracting dimension first.
    %l3 = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[-1, 0], [2, -2], [1, 1]]]> : tensor<2x3x2xi32>
    %r3r = stablehlo.constant dense<[[1, 2], [0, -1], [3, 1]]> : tensor<3x2xi32>
    %r3 = stablehlo.dot_general %l3, %r3r, batching_dims = [1] x [0], contracting_dims = [0] x [1] : (tensor<2x3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
    %e3 = stablehlo.constant dense<[[-1, 2], [-2, 2], [16, 19]]> : tensor<3x2xi32>
    stablehlo.custom_call @check.expect_eq(%r3, %e3) {has_side_effect = true} : (tensor<3x2xi32>, tensor<3x2xi32>) -> ()

    // Two contracting dimensions paired in swapped order: sum_ij A[i][j] * B[j][i].
    %a4 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
    %b4 = stablehlo.constant dense<[[1, -1], [2, 0], [-3, 1]]> : tensor<3x2xi64>
    %r4 = stablehlo.dot_general %a4, %b4, contracting_dims = [0, 1] x [1, 0] : (tensor<2x3xi64>, tensor<3x2xi64>) -> tensor<i64>
    %e4 = stablehlo.constant dense<-2> : tensor<i64>
    stablehlo.custom_call @check.expect_eq(%r4, %e4) {has_side_effect = true} : (tensor<i64>, tensor<i64>) -> ()

    // bf16 operands with an f32 result are converted exactly.
    %a5 = stablehlo.constant dense<[[1.5, 2.5]]> : tensor<1x2xbf16>
    %b5 = stablehlo.constant dense<[[0.5], [0.25]]> : tensor<2x1xbf16>
    %r5 = stablehlo.dot_general %a5, %b5, contracting_dims = [1] x [0] : (tensor<1x2xbf16>, tensor<2x1xbf16>) -> tensor<1x1xf32>
    %e5 = stablehlo.constant dense<1.375> : tensor<1x1xf32>
    stablehlo.custom_call @check.expect_eq(%r5, %e5) {has_side_effect = true} : (tensor<1x1xf32>, tensor<1x1xf32>) -> ()

    // f16 accumulates in f32: 2048 + 1 + 1 + 1 + 1 = 2052 (step-wise f16 rounding would give 2048).
    %a6 = stablehlo.constant dense<[2048.0, 1.0, 1.0, 1.0, 1.0]> : tensor<5xf16>
    %b6 = stablehlo.constant dense<1.0> : tensor<5xf16>
    %r6 = stablehlo.dot_general %a6, %b6, contracting_dims = [0] x [0] : (tensor<5xf16>, tensor<5xf16>) -> tensor<f16>
    %e6 = stablehlo.constant dense<2052.0> : tensor<f16>
    stablehlo.custom_call @check.expect_eq(%r6, %e6) {has_side_effect = true} : (tensor<f16>, tensor<f16>) -> ()

    // Complex products are not conjugated: (1+i)i + (2-i)(1+i) = 2+2i.
    %a7 = stablehlo.constant dense<[(1.0, 1.0), (2.0, -1.0)]> : tensor<2xcomplex<f64>>
    %b7 = stablehlo.constant dense<[(0.0, 1.0), (1.0, 1.0)]> : tensor<2xcomplex<f64>>
    %r7 = stablehlo.dot_general %a7, %b7, contracting_dims = [0] x [0] : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> tensor<complex<f64>>
    %e7 = stablehlo.constant dense<(2.0, 2.0)> : tensor<complex<f64>>
    stablehlo.custom_call @check.expect_eq(%r7, %e7) {has_side_effect = true} : (tensor<complex<f64>>, tensor<complex<f64>>) -> ()

    // Legacy dot: matrix times vector.
    %m8 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]> : tensor<2x3xf32>
    %v8 = stablehlo.constant dense<[2.0, -2.0, 1.0]> : tensor<3xf32>
    %r8 = "stablehlo.dot"(%m8, %v8) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
    %e8 = stablehlo.constant dense<[1.0, -1.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%r8, %e8) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // An empty contraction gives zeros.
    %a9 = stablehlo.iota dim = 0 : tensor<2x0xf32>
    %b9 = stablehlo.iota dim = 0 : tensor<0x3xf32>
    %r9 = stablehlo.dot_general %a9, %b9, contracting_dims = [1] x [0] : (tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
    %e9 = stablehlo.constant dense<0.0> : tensor<2x3xf32>
    stablehlo.custom_call @check.expect_eq(%r9, %e9) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()

    // Larger than one tile in k (128) and n (512): d[m][n] = sum_k k * n = 44850 n, with rhs
    // given directly and transposed (contracting its last dimension).
    %l10 = stablehlo.iota dim = 1 : tensor<2x300xf64>
    %rr10 = stablehlo.iota dim = 1 : tensor<300x600xf64>
    %rt10 = stablehlo.iota dim = 0 : tensor<600x300xf64>
    %r10 = stablehlo.dot_general %l10, %rr10, contracting_dims = [1] x [0] : (tensor<2x300xf64>, tensor<300x600xf64>) -> tensor<2x600xf64>
    %r10t = stablehlo.dot_general %l10, %rt10, contracting_dims = [1] x [1] : (tensor<2x300xf64>, tensor<600x300xf64>) -> tensor<2x600xf64>
    %n10 = stablehlo.iota dim = 1 : tensor<2x600xf64>
    %s10 = stablehlo.constant dense<44850.0> : tensor<2x600xf64>
    %e10 = stablehlo.multiply %n10, %s10 : tensor<2x600xf64>
    stablehlo.custom_call @check.expect_eq(%r10, %e10) {has_side_effect = true} : (tensor<2x600xf64>, tensor<2x600xf64>) -> ()
    stablehlo.custom_call @check.expect_eq(%r10t, %e10) {has_side_effect = true} : (tensor<2x600xf64>, tensor<2x600xf64>) -> ()

    // Batched f32: d[b][m][n] = sum_k (b + 1) * m * n = 200 (b + 1) m n.
    %l11 = stablehlo.iota dim = 1 : tensor<2x3x200xf32>
    %b11 = stablehlo.iota dim = 0 : tensor<2x3x200xf32>
    %one11 = stablehlo.constant dense<1.0> : tensor<2x3x200xf32>
    %bb11 = stablehlo.add %b11, %one11 : tensor<2x3x200xf32>
    %lhs11 = stablehlo.multiply %l11, %bb11 : tensor<2x3x200xf32>
    %rhs11 = stablehlo.iota dim = 2 : tensor<2x200x520xf32>
    %r11 = stablehlo.dot_general %lhs11, %rhs11, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x3x200xf32>, tensor<2x200x520xf32>) -> tensor<2x3x520xf32>
    %eb = stablehlo.iota dim = 0 : tensor<2x3x520xf32>
    %em = stablehlo.iota dim = 1 : tensor<2x3x520xf32>
    %en = stablehlo.iota dim = 2 : tensor<2x3x520xf32>
    %one520 = stablehlo.constant dense<1.0> : tensor<2x3x520xf32>
    %k200 = stablehlo.constant dense<200.0> : tensor<2x3x520xf32>
    %eb1 = stablehlo.add %eb, %one520 : tensor<2x3x520xf32>
    %t1 = stablehlo.multiply %eb1, %em : tensor<2x3x520xf32>
    %t2 = stablehlo.multiply %t1, %en : tensor<2x3x520xf32>
    %e11 = stablehlo.multiply %t2, %k200 : tensor<2x3x520xf32>
    stablehlo.custom_call @check.expect_eq(%r11, %e11) {has_side_effect = true} : (tensor<2x3x520xf32>, tensor<2x3x520xf32>) -> ()

    // f32 blocks of 4 rows x 8 columns plus leftover rows (7 = 4 + 3) and columns (515), k across
    // two tiles, two batches, lhs (k + m), rhs (k + n + b):
    // d[b][m][n] = sum_k (k + m)(k + n + b) = 2646700 + 19900 (n + b + m) + 200 m (n + b).
    %lk12 = stablehlo.iota dim = 2 : tensor<2x7x200xf32>
    %lm12 = stablehlo.iota dim = 1 : tensor<2x7x200xf32>
    %l12 = stablehlo.add %lk12, %lm12 : tensor<2x7x200xf32>
    %rk12 = stablehlo.iota dim = 1 : tensor<2x200x515xf32>
    %rn12 = stablehlo.iota dim = 2 : tensor<2x200x515xf32>
    %rb12 = stablehlo.iota dim = 0 : tensor<2x200x515xf32>
    %rkn12 = stablehlo.add %rk12, %rn12 : tensor<2x200x515xf32>
    %r12rhs = stablehlo.add %rkn12, %rb12 : tensor<2x200x515xf32>
    %r12 = stablehlo.dot_general %l12, %r12rhs, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x7x200xf32>, tensor<2x200x515xf32>) -> tensor<2x7x515xf32>
    %r12t_rhs = stablehlo.transpose %r12rhs, dims = [0, 2, 1] : (tensor<2x200x515xf32>) -> tensor<2x515x200xf32>
    %r12t = stablehlo.dot_general %l12, %r12t_rhs, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x7x200xf32>, tensor<2x515x200xf32>) -> tensor<2x7x515xf32>
    %en12 = stablehlo.iota dim = 2 : tensor<2x7x515xf32>
    %eb12 = stablehlo.iota dim = 0 : tensor<2x7x515xf32>
    %em12 = stablehlo.iota dim = 1 : tensor<2x7x515xf32>
    %enb12 = stablehlo.add %en12, %eb12 : tensor<2x7x515xf32>
    %enbm12 = stablehlo.add %enb12, %em12 : tensor<2x7x515xf32>
    %c19900 = stablehlo.constant dense<19900.0> : tensor<2x7x515xf32>
    %c200 = stablehlo.constant dense<200.0> : tensor<2x7x515xf32>
    %c2646700 = stablehlo.constant dense<2646700.0> : tensor<2x7x515xf32>
    %t12a = stablehlo.multiply %enbm12, %c19900 : tensor<2x7x515xf32>
    %t12b = stablehlo.multiply %em12, %enb12 : tensor<2x7x515xf32>
    %t12c = stablehlo.multiply %t12b, %c200 : tensor<2x7x515xf32>
    %t12d = stablehlo.add %t12a, %t12c : tensor<2x7x515xf32>
    %e12 = stablehlo.add %t12d, %c2646700 : tensor<2x7x515xf32>
    stablehlo.custom_call @check.expect_eq(%r12, %e12) {has_side_effect = true} : (tensor<2x7x515xf32>, tensor<2x7x515xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%r12t, %e12) {has_side_effect = true} : (tensor<2x7x515xf32>, tensor<2x7x515xf32>) -> ()
    func.return
  }
}

// stablehlo.einsum and stablehlo.unary_einsum: matrix products, batch letters, outputs in a
// permuted order, sums over one operand's letters and transposes.
module {
  func.func @main() {
    %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
    %b = stablehlo.constant dense<[[1, 0], [0, 1], [2, -1]]> : tensor<3x2xi32>
    %r0 = "stablehlo.einsum"(%a, %b) <{einsum_config = "ab,bc->ac"}> : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
    %e0 = stablehlo.constant dense<[[7, -1], [16, -1]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%r0, %e0) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    // Output transposed: r1[c][a] = r0[a][c].
    %r1 = "stablehlo.einsum"(%a, %b) <{einsum_config = "ab,bc->ca"}> : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
    %e1 = stablehlo.constant dense<[[7, 16], [-1, -1]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%r1, %e1) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    // Batch letter in the middle of the output, outer product within each batch.
    %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %y = stablehlo.constant dense<[[1.0, -1.0, 0.5], [2.0, 0.0, 1.0]]> : tensor<2x3xf32>
    %r2 = "stablehlo.einsum"(%x, %y) <{einsum_config = "bi,bj->jbi"}> : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<3x2x2xf32>
    %e2 = stablehlo.constant dense<[[[1.0, 2.0], [6.0, 8.0]], [[-1.0, -2.0], [0.0, 0.0]], [[0.5, 1.0], [3.0, 4.0]]]> : tensor<3x2x2xf32>
    stablehlo.custom_call @check.expect_eq(%r2, %e2) {has_side_effect = true} : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> ()
    // unary: transpose, and a sum over the middle letter with a transpose.
    %t = "stablehlo.unary_einsum"(%a) <{einsum_config = "ab->ba"}> : (tensor<2x3xi32>) -> tensor<3x2xi32>
    %et = stablehlo.constant dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
    stablehlo.custom_call @check.expect_eq(%t, %et) {has_side_effect = true} : (tensor<3x2xi32>, tensor<3x2xi32>) -> ()
    %c = stablehlo.iota dim = 1 : tensor<2x3x4xf64>
    %s = "stablehlo.unary_einsum"(%c) <{einsum_config = "abc->ca"}> : (tensor<2x3x4xf64>) -> tensor<4x2xf64>
    %es = stablehlo.constant dense<3.0> : tensor<4x2xf64>
    stablehlo.custom_call @check.expect_eq(%s, %es) {has_side_effect = true} : (tensor<4x2xf64>, tensor<4x2xf64>) -> ()
    func.return
  }
}

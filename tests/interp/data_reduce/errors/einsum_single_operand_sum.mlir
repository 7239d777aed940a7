// ERROR: letter 'b' is summed within one operand
// einsum letters that only one operand has must appear in the output.
module {
  func.func @main() {
    %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %r = "stablehlo.einsum"(%a, %a) <{einsum_config = "ab,cd->acd"}> : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2x2xi32>
    func.return
  }
}

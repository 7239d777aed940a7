// Ops of test_interp_ops.sh used wrongly: each part must fail with the error the script expects.

func.func @mulhi_float() {
  %a = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %r = "chlo.mulhi"(%a, %a) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  func.return
}

// Check ops the verifier rejects: test_check_ops.sh expects a VERIFY_ERROR per part.

func.func @t() {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  check.expect_almost_eq %0, %0 : tensor<i32>
  func.return
}
// -----
func.func @u() {
  %0 = stablehlo.constant dense<1> : tensor<i32>
  "check.expect_eq_const"(%0) {value = dense<1> : tensor<2xi32>} : (tensor<i32>) -> ()
  func.return
}

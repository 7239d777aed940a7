// chlo ops test_chlo_ops.sh expects to be rejected, each part with its message.
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %b = stablehlo.constant dense<0.0> : tensor<2xf32>
  %c = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %b = stablehlo.constant dense<0.0> : tensor<2xf32>
  %c = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %b = stablehlo.constant dense<0.0> : tensor<2xf32>
  %c = chlo.broadcast_add %a, %b {broadcast_dimensions = array<i64: 2>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<2xf32>
  %c = chlo.broadcast_and %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<0> : tensor<2xi32>
  %c = chlo.broadcast_compare %a, %a : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  func.return
}
// -----
func.func @main() {
  %p = stablehlo.constant dense<0> : tensor<2xi32>
  %c = chlo.broadcast_select %p, %p, %p : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<2xf32>
  %c = "chlo.constant_like"(%a) {value = 1} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<2x1xf32>
  %b = stablehlo.constant dense<0.0> : tensor<3xf32>
  %c = chlo.broadcast_multiply %a, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x2xf32>
  func.return
}
// -----
func.func @main() {
  %a = stablehlo.constant dense<0.0> : tensor<2xf32>
  %b = stablehlo.constant dense<0.0> : tensor<2xf64>
  %c = chlo.broadcast_subtract %a, %b : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  func.return
}

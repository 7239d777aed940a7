// Ops of test_interp_ops.sh used wrongly: each part must fail with the error the script expects.

func.func @mulhi_float() {
  %a = stablehlo.constant dense<[1.0]> : tensor<1xf32>
  %r = "chlo.mulhi"(%a, %a) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  func.return
}
// -----
func.func @gte_out_of_bounds() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %t = stablehlo.tuple %a : tuple<tensor<i32>>
  %x = stablehlo.get_tuple_element %t[1] : (tuple<tensor<i32>>) -> tensor<i32>
  func.return
}
// -----
func.func @composite_no_function() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %x = stablehlo.composite "my.op" %a {decomposition = @missing} : (tensor<i32>) -> tensor<i32>
  func.return
}
// -----
func.func private @wrong.impl(%x: tensor<i32>) -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  func.return %c : tensor<f32>
}
func.func @composite_wrong_type() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %x = stablehlo.composite "my.op" %a {decomposition = @wrong.impl} : (tensor<i32>) -> tensor<i32>
  func.return
}
// -----
func.func @barrier_other_type() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %t = stablehlo.tuple %a : tuple<tensor<i32>>
  %r:2 = "stablehlo.optimization_barrier"(%t, %a) : (tuple<tensor<i32>>, tensor<i32>) -> (tuple<tensor<i32>>, tensor<i64>)
  func.return
}
// -----
func.func @probe_mismatch() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  %p = interpreter.probe %a, probe_id = "a" : tensor<2xi32>
  check.expect_serialized_eq %b, probe_id = "a" : tensor<2xi32>
  func.return
}
// -----
func.func @probe_no_iteration() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %p = interpreter.probe %a, probe_id = "a" : tensor<i32>
  check.expect_serialized_eq %a, probe_id = "a", iter = 1 : tensor<i32>
  func.return
}
// -----
func.func @probe_other_type() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.constant dense<1> : tensor<i64>
  %p = interpreter.probe %a, probe_id = "a" : tensor<i32>
  check.expect_serialized_eq %b, probe_id = "a" : tensor<i64>
  func.return
}
// -----
func.func @probe_without_id() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %p = "interpreter.probe"(%a) : (tensor<i32>) -> tensor<i32>
  func.return
}

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
// -----
func.func @main() {
  %l = stablehlo.constant dense<0.0> : tensor<4x2xf32>
  %r = stablehlo.constant dense<0.0> : tensor<2x2x2xf32>
  %g = stablehlo.constant dense<0> : tensor<2xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0, 1], rhs_group_dimensions = [0]>} : (tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  func.return
}
// -----
func.func @main() {
  %l = stablehlo.constant dense<0.0> : tensor<4x2xf32>
  %r = stablehlo.constant dense<0.0> : tensor<2x2xf32>
  %g = stablehlo.constant dense<0> : tensor<2xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [0], rhs_group_dimensions = []>} : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  func.return
}
// -----
func.func @main() {
  %l = stablehlo.constant dense<0.0> : tensor<4x2xf32>
  %r = stablehlo.constant dense<0.0> : tensor<3x2x2xf32>
  %g = stablehlo.constant dense<0> : tensor<2xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<4x2xf32>, tensor<3x2x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  func.return
}
// -----
func.func @main() {
  %l = stablehlo.constant dense<0.0> : tensor<2x3x1xf32>
  %r = stablehlo.constant dense<0.0> : tensor<2x2x1x1xf32>
  %g = stablehlo.constant dense<0> : tensor<3x2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>} : (tensor<2x3x1xf32>, tensor<2x2x1x1xf32>, tensor<3x2xi32>) -> tensor<2x3x1xf32>
  func.return
}
// -----
func.func @main() {
  %l = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %r = stablehlo.constant dense<0.0> : tensor<3x1xf32>
  %g = stablehlo.constant dense<0.0> : tensor<2xf32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = []>} : (tensor<2x3xf32>, tensor<3x1xf32>, tensor<2xf32>) -> tensor<2x2x1xf32>
  func.return
}
// -----
func.func @main() {
  %x = stablehlo.constant dense<0> : tensor<4xi32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = chlo.scan(%x) inits(%i) dimension=1 {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    stablehlo.return %a, %c : tensor<i32>, tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return
}
// -----
func.func @main() {
  %x = stablehlo.constant dense<0> : tensor<2x4xi32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = chlo.scan(%x) inits(%i) dimension=0 {
  ^bb0(%a: tensor<2xi32>, %c: tensor<i32>):
    stablehlo.return %a, %c : tensor<2xi32>, tensor<i32>
  } : (tensor<2x4xi32>, tensor<i32>) -> (tensor<2x2xi32>, tensor<i32>)
  func.return
}
// -----
func.func @main() {
  %x = stablehlo.constant dense<0> : tensor<4xi32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = chlo.scan(%x) inits(%i) dimension=0 {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    stablehlo.return %a : tensor<i32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<i32>)
  func.return
}
// -----
func.func @main() {
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r = chlo.scan() inits(%i) dimension=0 {
  ^bb0(%c: tensor<i32>):
    stablehlo.return %c : tensor<i32>
  } : (tensor<i32>) -> tensor<i32>
  func.return
}
// -----
func.func @main() {
  %x = stablehlo.constant dense<0> : tensor<4xi32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = chlo.scan(%x) inits(%i) dimension=0 {
  ^bb0(%a: tensor<i32>, %c: tensor<i32>):
    %f = stablehlo.convert %c : (tensor<i32>) -> tensor<f32>
    stablehlo.return %a, %f : tensor<i32>, tensor<f32>
  } : (tensor<4xi32>, tensor<i32>) -> (tensor<4xi32>, tensor<f32>)
  func.return
}
// -----
func.func @main() {
  %x = stablehlo.constant dense<0.5> : tensor<2xf32>
  %w = chlo._asin_acos_kernel %x : tensor<2xf32> -> tensor<2xf32>
  func.return
}
// -----
func.func @main() {
  %i = stablehlo.constant dense<[-1, 1]> : tensor<2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %ge = "chlo.broadcast_compare"(%i, %z) <{comparison_direction = #chlo<comparison_direction GE>, compare_type = #chlo<comparison_type UNSIGNED>}> : (tensor<2xi32>, tensor<i32>) -> tensor<2xi1>
  func.return
}

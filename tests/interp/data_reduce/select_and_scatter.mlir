// stablehlo.select_and_scatter: padding is never selected, ties keep the first element under GE,
// overlapping windows accumulate, and windows of padding only scatter nothing.
module {
  func.func @main() {
    // The spec's example.
    %op = stablehlo.constant dense<[[1, 5], [2, 5], [3, 6], [4, 4]]> : tensor<4x2xi64>
    %src = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi64>
    %z = stablehlo.constant dense<0> : tensor<i64>
    %r0 = "stablehlo.select_and_scatter"(%op, %src, %z) <{window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 2, 1>, padding = dense<[[0, 1], [0, 0]]> : tensor<2x2xi64>}> ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %c = stablehlo.compare  GE, %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %s : tensor<i64>
    }) : (tensor<4x2xi64>, tensor<2x2xi64>, tensor<i64>) -> tensor<4x2xi64>
    %e0 = stablehlo.constant dense<[[0, 0], [0, 0], [5, 14], [7, 0]]> : tensor<4x2xi64>
    stablehlo.custom_call @check.expect_eq(%r0, %e0) {has_side_effect = true} : (tensor<4x2xi64>, tensor<4x2xi64>) -> ()

    // Overlapping windows of 3 with stride 1 over [1, 3, 3, 2]: windows pick index 1, 1
    // (the first 3 wins a tie), so both sources land there; init is 10.
    %v = stablehlo.constant dense<[1.0, 3.0, 3.0, 2.0]> : tensor<4xf32>
    %s1 = stablehlo.constant dense<[0.5, 0.25]> : tensor<2xf32>
    %ten = stablehlo.constant dense<10.0> : tensor<f32>
    %r1 = "stablehlo.select_and_scatter"(%v, %s1, %ten) <{window_dimensions = array<i64: 3>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare  GE, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
    %e1 = stablehlo.constant dense<[10.0, 10.75, 10.0, 10.0]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%r1, %e1) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()

    // Min selection (LE) with a window made only of padding at the end (padding 2 after).
    %w = stablehlo.constant dense<[4, 2, 6]> : tensor<3xi32>
    %s2 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    %zi = stablehlo.constant dense<0> : tensor<i32>
    %r2 = "stablehlo.select_and_scatter"(%w, %s2, %zi) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, padding = dense<[[0, 3]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %c = stablehlo.compare  LE, %a, %b,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<3xi32>, tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
    %e2 = stablehlo.constant dense<[0, 1, 2]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%r2, %e2) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    func.return
  }
}

// ERROR: exceed the work limit
// A 2^20 x 2^20 window (over padding) would take 2^42 body evaluations: rejected, not run.
module {
  func.func @main() {
    %x = stablehlo.constant dense<1.0> : tensor<1x1xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %r = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 1048576, 1048576>, padding = dense<[[0, 1048576], [0, 1048576]]> : tensor<2x2xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<1x1xf32>, tensor<f32>) -> tensor<2x2xf32>
    func.return
  }
}

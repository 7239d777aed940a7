// A deliberately slow model for the queue-full and shutdown tests: y = x + 1 (f32[b, 1]), computed
// after a while loop of 300000 scalar iterations (about 0.3 s on one core). The loop carries a
// value derived from the input and gives it back unchanged, so it cannot be folded away.
module @jit_slow attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<?x1xf32> {jax.arg_info = "x"}) -> (tensor<?x1xf32> {jax.result_info = "y"}) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.constant dense<300000> : tensor<i32>
    %fzero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %sum = stablehlo.reduce(%arg0 init: %fzero) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x1xf32>, tensor<f32>) -> tensor<f32>
    %seed = stablehlo.convert %sum : (tensor<f32>) -> tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %acc = %seed) : tensor<i32>, tensor<i32>
      cond {
        %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %i1 = stablehlo.add %i, %c1 : tensor<i32>
        %a1 = stablehlo.xor %acc, %i : tensor<i32>
        %a2 = stablehlo.xor %a1, %i : tensor<i32>
        stablehlo.return %i1, %a2 : tensor<i32>, tensor<i32>
      }
    %diff = stablehlo.subtract %r#1, %seed : tensor<i32>
    %plus = stablehlo.add %diff, %c1 : tensor<i32>
    %inc = stablehlo.convert %plus : (tensor<i32>) -> tensor<f32>
    %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x1xf32>) -> tensor<i32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %c1v = stablehlo.constant dense<1> : tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %c1v, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %incs = stablehlo.dynamic_broadcast_in_dim %inc, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %y = stablehlo.add %arg0, %incs : tensor<?x1xf32>
    return %y : tensor<?x1xf32>
  }
}

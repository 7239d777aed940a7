// A model whose run time the request chooses, for the deadline and cancellation tests: y = x
// (i32[b, 1]) after a while loop of sum(x) scalar iterations. The loop carries a value derived
// from the input and gives it back unchanged, so it cannot be folded away.
module @jit_loop attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<?x1xi64> {jax.arg_info = "n"}) -> (tensor<?x1xi64> {jax.result_info = "y"}) {
    %c0 = stablehlo.constant dense<0> : tensor<i64>
    %c1 = stablehlo.constant dense<1> : tensor<i64>
    %n = stablehlo.reduce(%arg0 init: %c0) applies stablehlo.add across dimensions = [0, 1] : (tensor<?x1xi64>, tensor<i64>) -> tensor<i64>
    %r:2 = stablehlo.while(%i = %c0, %acc = %n) : tensor<i64>, tensor<i64>
      cond {
        %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %i1 = stablehlo.add %i, %c1 : tensor<i64>
        %a1 = stablehlo.xor %acc, %i : tensor<i64>
        %a2 = stablehlo.xor %a1, %i : tensor<i64>
        stablehlo.return %i1, %a2 : tensor<i64>, tensor<i64>
      }
    %diff = stablehlo.subtract %r#1, %n : tensor<i64>
    %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x1xi64>) -> tensor<i32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %c1v = stablehlo.constant dense<1> : tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %c1v, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %zeros = stablehlo.dynamic_broadcast_in_dim %diff, %shape, dims = [] : (tensor<i64>, tensor<2xi32>) -> tensor<?x1xi64>
    %y = stablehlo.add %arg0, %zeros : tensor<?x1xi64>
    return %y : tensor<?x1xi64>
  }
}

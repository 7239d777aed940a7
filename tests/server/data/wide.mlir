// A model whose answer is much larger than its request, for the output bound: each row's one
// value repeated 4096 times (f32[b, 1] -> f32[b, 4096]).
module @jit_wide attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<?x1xf32> {jax.arg_info = "x"}) -> (tensor<?x4096xf32> {jax.result_info = "y"}) {
    %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x1xf32>) -> tensor<i32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %w = stablehlo.constant dense<4096> : tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %w, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %y = stablehlo.dynamic_broadcast_in_dim %arg0, %shape, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x4096xf32>
    return %y : tensor<?x4096xf32>
  }
}

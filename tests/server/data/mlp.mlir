// A small MLP with its parameters as arguments (the jax.export (predict_fn, params) pattern):
//   logits = relu(x @ dense1.kernel + dense1.bias) @ dense2.kernel + dense2.bias
// x: f32[b, 64] -> logits: f32[b, 10]. tests/server/mlp_weights.py writes the weights.
module @jit_mlp attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<128xf32> {jax.arg_info = "params['dense1']['bias']"}, %arg1: tensor<64x128xf32> {jax.arg_info = "params['dense1']['kernel']"}, %arg2: tensor<10xf32> {jax.arg_info = "params['dense2']['bias']"}, %arg3: tensor<128x10xf32> {jax.arg_info = "params['dense2']['kernel']"}, %arg4: tensor<?x64xf32> {jax.arg_info = "x"}) -> (tensor<?x10xf32> {jax.result_info = "logits"}) {
    %b = stablehlo.get_dimension_size %arg4, dim = 0 : (tensor<?x64xf32>) -> tensor<i32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %c128 = stablehlo.constant dense<128> : tensor<1xi32>
    %c10 = stablehlo.constant dense<10> : tensor<1xi32>
    %s1 = stablehlo.concatenate %b1, %c128, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %s2 = stablehlo.concatenate %b1, %c10, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %h0 = stablehlo.dot_general %arg4, %arg1, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x128xf32>) -> tensor<?x128xf32>
    %bias1 = stablehlo.dynamic_broadcast_in_dim %arg0, %s1, dims = [1] : (tensor<128xf32>, tensor<2xi32>) -> tensor<?x128xf32>
    %h1 = stablehlo.add %h0, %bias1 : tensor<?x128xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = stablehlo.dynamic_broadcast_in_dim %zero, %s1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x128xf32>
    %h = stablehlo.maximum %h1, %zeros : tensor<?x128xf32>
    %l0 = stablehlo.dot_general %h, %arg3, contracting_dims = [1] x [0] : (tensor<?x128xf32>, tensor<128x10xf32>) -> tensor<?x10xf32>
    %bias2 = stablehlo.dynamic_broadcast_in_dim %arg2, %s2, dims = [1] : (tensor<10xf32>, tensor<2xi32>) -> tensor<?x10xf32>
    %logits = stablehlo.add %l0, %bias2 : tensor<?x10xf32>
    return %logits : tensor<?x10xf32>
  }
}

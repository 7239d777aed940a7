// Two inputs, two outputs, symbolic batch dimension (the shape jax.export gives "b, 3"):
//   sum   = 2 * x + convert(k)        f32[b, 3]
//   count = sum over axis 1 of k      i32[b]
module @jit_two_io attributes {jax.uses_shape_polymorphism = true} {
  func.func public @main(%arg0: tensor<?x3xf32> {jax.arg_info = "x"}, %arg1: tensor<?x3xi32> {jax.arg_info = "k"}) -> (tensor<?x3xf32> {jax.result_info = "sum"}, tensor<?xi32> {jax.result_info = "count"}) {
    %two = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %b = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
    %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>
    %c3 = stablehlo.constant dense<3> : tensor<1xi32>
    %shape = stablehlo.concatenate %b1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %twos = stablehlo.dynamic_broadcast_in_dim %two, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
    %0 = stablehlo.multiply %arg0, %twos : tensor<?x3xf32>
    %1 = stablehlo.convert %arg1 : (tensor<?x3xi32>) -> tensor<?x3xf32>
    %2 = stablehlo.add %0, %1 : tensor<?x3xf32>
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.reduce(%arg1 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<?x3xi32>, tensor<i32>) -> tensor<?xi32>
    return %2, %3 : tensor<?x3xf32>, tensor<?xi32>
  }
}

module @m attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {jax.arg_info = "x"}, %arg1: tensor<2x3xf32>) -> (tensor<2x3xf32> {jax.result_info = ""}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2x3xf32>
    %1 = "stablehlo.multiply"(%0, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = stablehlo.compare  GT, %1, %0,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %3 = stablehlo.select %2, %1, %0 : tensor<2x3xi1>, tensor<2x3xf32>
    return %3 : tensor<2x3xf32>
  }
}

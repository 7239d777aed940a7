// ERROR: no function @missing with a body
module {
  func.func @main() {
    %v = stablehlo.constant dense<1.0> : tensor<5xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %one = stablehlo.constant dense<1> : tensor<1xi64>
    %p = stablehlo.constant dense<0> : tensor<1x2xi64>
    %s = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%v, %z, %one, %one, %one, %one, %p) {api_version = 2 : i32, called_computations = [@missing]} : (tensor<5xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1x2xi64>) -> tensor<5xf32>
    return
  }
}

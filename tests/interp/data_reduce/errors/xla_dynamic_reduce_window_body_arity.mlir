// ERROR: body @add takes 2 arguments, expected 4
module {
  func.func private @add(%a: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %a, %x : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func @main() {
    %v = stablehlo.constant dense<1.0> : tensor<5xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %one = stablehlo.constant dense<1> : tensor<1xi64>
    %p = stablehlo.constant dense<0> : tensor<1x2xi64>
    %s:2 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%v, %v, %z, %z, %one, %one, %one, %one, %p) {api_version = 2 : i32, called_computations = [@add]} : (tensor<5xf32>, tensor<5xf32>, tensor<f32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1x2xi64>) -> (tensor<5xf32>, tensor<5xf32>)
    return
  }
}

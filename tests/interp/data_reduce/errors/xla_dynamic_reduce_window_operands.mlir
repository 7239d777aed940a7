// ERROR: takes N inputs, N init values and 5 window operands
module {
  func.func private @add(%a: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %a, %x : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func @main() {
    %v = stablehlo.constant dense<1.0> : tensor<5xf32>
    %one = stablehlo.constant dense<1> : tensor<1xi64>
    %s = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%v, %one, %one) {api_version = 2 : i32, called_computations = [@add]} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5xf32>
    return
  }
}

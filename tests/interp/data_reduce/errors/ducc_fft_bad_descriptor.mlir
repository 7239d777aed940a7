// ERROR: the FFT descriptor
module {
  func.func @main() {
    %c = stablehlo.constant dense<(1.0, 0.0)> : tensor<2x4xcomplex<f32>>
    %shape = stablehlo.constant dense<[2, 4]> : tensor<2xi32>
    %strides = stablehlo.constant dense<[4, 1]> : tensor<2xi32>
    %one = stablehlo.constant dense<1.0> : tensor<1xf64>
    %bad = stablehlo.constant dense<[200, 0, 0, 0, 1, 2]> : tensor<6xui8>
    %f = stablehlo.custom_call @dynamic_ducc_fft(%bad, %c, %shape, %strides, %strides, %one, %shape) {api_version = 2 : i32} : (tensor<6xui8>, tensor<2x4xcomplex<f32>>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<1xf64>, tensor<2xi32>) -> tensor<2x4xcomplex<f32>>
    return
  }
}

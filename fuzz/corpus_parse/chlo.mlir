func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %p: tensor<2x1xi1>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>) {
  %0 = chlo.broadcast_add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = chlo.broadcast_multiply %a, %c {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  %3 = chlo.broadcast_select %p, %0, %2 : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "chlo.constant_like"(%3) {value = 1.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = chlo.constant dense<[1, 2]> : tensor<2xi64>
  %6 = chlo.broadcast_power %3, %4 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = stablehlo.complex %a, %a : tensor<2x3xcomplex<f32>>
  %w = chlo._asin_acos_kernel %z : tensor<2x3xcomplex<f32>> -> tensor<2x3xcomplex<f32>>
  return %6, %1, %0 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>
}

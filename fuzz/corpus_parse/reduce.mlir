func.func @main(%x: tensor<4x3xf32>, %i: tensor<4x3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
  %v:2 = stablehlo.reduce(%x init: %z), (%i init: %zi) across dimensions = [0] : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>)  {
    %m = stablehlo.maximum %a, %c : tensor<f32>
    %n = stablehlo.minimum %b, %d : tensor<i32>
    stablehlo.return %m, %n : tensor<f32>, tensor<i32>
  }
  return %s, %v#1 : tensor<3xf32>, tensor<3xi32>
}

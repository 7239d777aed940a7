func.func @main(%a: tensor<1x9x10x3xf32>, %k: tensor<3x3x3x4xf32>, %b: tensor<2x3x4xf32>, %c: tensor<2x4x5xf32>) -> (tensor<1x4x3x4xf32>, tensor<2x3x5xf32>) {
  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 3], pad = [[1, 0], [0, 2]], rhs_dilate = [1, 2], reverse = [false, true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x9x10x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x3x4xf32>
  %1 = stablehlo.dot_general %b, %c, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGHEST] : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0, %1 : tensor<1x4x3x4xf32>, tensor<2x3x5xf32>
}

func.func @main(%x: tensor<4x2xf32>, %r: tensor<2x2x3xf32>, %g: tensor<2xi64>) -> (tensor<4x3xf32>, tensor<4x2xf32>, tensor<2xf32>) {
  %0 = "chlo.ragged_dot"(%x, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>, precision_config = [#chlo<precision DEFAULT>, #chlo<precision DEFAULT>]} : (tensor<4x2xf32>, tensor<2x2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  %init = stablehlo.constant dense<0.0> : tensor<2xf32>
  %1:2 = chlo.scan(%x) inits(%init) dimension=0 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xf32>, %c: tensor<2xf32>):
    %s = stablehlo.add %a, %c : tensor<2xf32>
    stablehlo.return %s, %s : tensor<2xf32>, tensor<2xf32>
  } : (tensor<4x2xf32>, tensor<2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>)
  %2:2 = "chlo.scan"(%x, %init) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%a: tensor<2xf32>, %c: tensor<2xf32>):
    stablehlo.return %a, %c : tensor<2xf32>, tensor<2xf32>
  }) : (tensor<4x2xf32>, tensor<2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>)
  return %0, %1#0, %2#1 : tensor<4x3xf32>, tensor<4x2xf32>, tensor<2xf32>
}

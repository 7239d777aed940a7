func.func @main(%arg0: tensor<1x1x1xbf16>, %arg1: tensor<1x1xbf16>, %p: tensor<i1>) -> tensor<1x1x1xbf16> {
  %c = stablehlo.constant dense<0> : tensor<1xi64>
  %0 = "stablehlo.scatter"(%arg0, %c, %arg1) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
  ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
    %3 = stablehlo.add %x, %y : tensor<bf16>
    stablehlo.return %3 : tensor<bf16>
  }) : (tensor<1x1x1xbf16>, tensor<1xi64>, tensor<1x1xbf16>) -> tensor<1x1x1xbf16>
  %1 = "stablehlo.if"(%p) ({
    stablehlo.return %0 : tensor<1x1x1xbf16>
  }, {
    stablehlo.return %arg0 : tensor<1x1x1xbf16>
  }) : (tensor<i1>) -> tensor<1x1x1xbf16>
  stablehlo.custom_call @check.expect_close(%1, %0) {has_side_effect = true} : (tensor<1x1x1xbf16>, tensor<1x1x1xbf16>) -> ()
  return %1 : tensor<1x1x1xbf16>
}

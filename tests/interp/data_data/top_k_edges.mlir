// chlo.top_k: descending total order (+NaN above +Inf, +0 above -0), ties by lower index, one
// row per leading index.
module @top_k_edges {
  func.func public @main() -> tensor<6xi32> {
    %x = stablehlo.constant dense<[1.0, 0x7FC00000, 3.0, 3.0, -0.0, 0.0, 0xFF800000]> : tensor<7xf32>
    %0:2 = "chlo.top_k"(%x) <{k = 6 : i64}> : (tensor<7xf32>) -> (tensor<6xf32>, tensor<6xi32>)
    %e0 = stablehlo.constant dense<[1, 2, 3, 0, 5, 4]> : tensor<6xi32>
    stablehlo.custom_call @check.expect_eq(%0#1, %e0) {has_side_effect = true} : (tensor<6xi32>, tensor<6xi32>) -> ()

    %y = stablehlo.constant dense<[[4, -2, 4, 9], [-7, -7, -8, -7]]> : tensor<2x4xi32>
    %1:2 = "chlo.top_k"(%y) <{k = 3 : i64}> : (tensor<2x4xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
    %e1v = stablehlo.constant dense<[[9, 4, 4], [-7, -7, -7]]> : tensor<2x3xi32>
    %e1i = stablehlo.constant dense<[[3, 0, 2], [0, 1, 3]]> : tensor<2x3xi32>
    stablehlo.custom_call @check.expect_eq(%1#0, %e1v) {has_side_effect = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%1#1, %e1i) {has_side_effect = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()
    return %0#1 : tensor<6xi32>
  }
}

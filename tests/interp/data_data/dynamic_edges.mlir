// Shape-polymorphic movement ops whose result shapes come from operand values: real_dynamic_slice,
// dynamic_pad, dynamic_iota, dynamic_broadcast_in_dim, dynamic_reshape, get_dimension_size,
// dynamic_gather and set_dimension_size.
module @dynamic_edges {
  func.func public @main() -> tensor<?xi32> {
    %x = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
    %start = stablehlo.constant dense<[1]> : tensor<1xi64>
    %limit = stablehlo.constant dense<[8]> : tensor<1xi64>
    %step = stablehlo.constant dense<[3]> : tensor<1xi64>
    %0 = stablehlo.real_dynamic_slice %x, %start, %limit, %step : (tensor<8xi32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi32>
    %e0 = stablehlo.constant dense<[1, 4, 7]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%0, %e0) {has_side_effect = true} : (tensor<?xi32>, tensor<3xi32>) -> ()

    %p = stablehlo.constant dense<-1> : tensor<i32>
    %low = stablehlo.constant dense<[-1]> : tensor<1xi64>
    %high = stablehlo.constant dense<[2]> : tensor<1xi64>
    %int = stablehlo.constant dense<[1]> : tensor<1xi64>
    %1 = stablehlo.dynamic_pad %e0, %p, %low, %high, %int : (tensor<3xi32>, tensor<i32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi32>
    %e1 = stablehlo.constant dense<[-1, 4, -1, 7, -1, -1]> : tensor<6xi32>
    stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<?xi32>, tensor<6xi32>) -> ()

    %shape = stablehlo.constant dense<[2, 3]> : tensor<2xi64>
    %2 = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<?x?xui32>
    %e2 = stablehlo.constant dense<[[0, 1, 2], [0, 1, 2]]> : tensor<2x3xui32>
    stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<?x?xui32>, tensor<2x3xui32>) -> ()

    %v = stablehlo.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
    %3 = stablehlo.dynamic_broadcast_in_dim %v, %shape, dims = [0, 1] : (tensor<2x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %e3 = stablehlo.constant dense<[[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>
    stablehlo.custom_call @check.expect_eq(%3, %e3) {has_side_effect = true} : (tensor<?x?xf32>, tensor<2x3xf32>) -> ()

    %s6 = stablehlo.constant dense<[3, 2]> : tensor<2xi32>
    %4 = stablehlo.dynamic_reshape %e1, %s6 : (tensor<6xi32>, tensor<2xi32>) -> tensor<?x?xi32>
    %e4 = stablehlo.constant dense<[[-1, 4], [-1, 7], [-1, -1]]> : tensor<3x2xi32>
    stablehlo.custom_call @check.expect_eq(%4, %e4) {has_side_effect = true} : (tensor<?x?xi32>, tensor<3x2xi32>) -> ()

    %5 = stablehlo.get_dimension_size %e4, dim = 0 : (tensor<3x2xi32>) -> tensor<i32>
    %e5 = stablehlo.constant dense<3> : tensor<i32>
    stablehlo.custom_call @check.expect_eq(%5, %e5) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()

    %idx = stablehlo.constant dense<[[6], [-5]]> : tensor<2x1xi32>
    %sizes = stablehlo.constant dense<[2]> : tensor<1xi32>
    %6 = "stablehlo.dynamic_gather"(%x, %idx, %sizes) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>}> : (tensor<8xi32>, tensor<2x1xi32>, tensor<1xi32>) -> tensor<?x?xi32>
    %e6 = stablehlo.constant dense<[[6, 7], [0, 1]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%6, %e6) {has_side_effect = true} : (tensor<?x?xi32>, tensor<2x2xi32>) -> ()

    // set_dimension_size keeps the leading elements.
    %n = stablehlo.constant dense<2> : tensor<i32>
    %7 = stablehlo.set_dimension_size %e6, %n, dim = 1 : (tensor<2x2xi32>, tensor<i32>) -> tensor<2x?xi32>
    stablehlo.custom_call @check.expect_eq(%7, %e6) {has_side_effect = true} : (tensor<2x?xi32>, tensor<2x2xi32>) -> ()
    %one = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.set_dimension_size %e6, %one, dim = 1 : (tensor<2x2xi32>, tensor<i32>) -> tensor<2x?xi32>
    %e8 = stablehlo.constant dense<[[6], [0]]> : tensor<2x1xi32>
    stablehlo.custom_call @check.expect_eq(%8, %e8) {has_side_effect = true} : (tensor<2x?xi32>, tensor<2x1xi32>) -> ()
    return %0 : tensor<?xi32>
  }
}

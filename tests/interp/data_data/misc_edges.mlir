// Less common movement ops and shapes: broadcast (sizes prepended), torch_index_select with and
// without batch dims (indices clamped), a rank-0 gather index, zero-sized dynamic_update_slice,
// reverse of an empty dimension, and a scatter whose update window covers several input dims.
module @misc_edges {
  func.func public @main() -> tensor<2x3x2xi32> {
    %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
    %0 = "stablehlo.broadcast"(%x) <{broadcast_sizes = array<i64: 2>}> : (tensor<3x2xi32>) -> tensor<2x3x2xi32>
    %e0 = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]], [[1, 2], [3, 4], [5, 6]]]> : tensor<2x3x2xi32>
    stablehlo.custom_call @check.expect_eq(%0, %e0) {has_side_effect = true} : (tensor<2x3x2xi32>, tensor<2x3x2xi32>) -> ()

    // Rows 2, 0 and the clamped 7 -> 2.
    %i = stablehlo.constant dense<[2, 0, 7]> : tensor<3xi64>
    %1 = "stablehlo.torch_index_select"(%x, %i) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<3x2xi32>, tensor<3xi64>) -> tensor<3x2xi32>
    %e1 = stablehlo.constant dense<[[5, 6], [1, 2], [5, 6]]> : tensor<3x2xi32>
    stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<3x2xi32>, tensor<3x2xi32>) -> ()

    // Batch dim 0: row b picks its own columns.
    %j = stablehlo.constant dense<[[1, 1], [0, 1], [-3, 0]]> : tensor<3x2xi32>
    %2 = "stablehlo.torch_index_select"(%x, %j) <{batch_dims = 1 : i64, dim = 1 : i64}> : (tensor<3x2xi32>, tensor<3x2xi32>) -> tensor<3x2xi32>
    %e2 = stablehlo.constant dense<[[2, 2], [3, 4], [5, 5]]> : tensor<3x2xi32>
    stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<3x2xi32>, tensor<3x2xi32>) -> ()

    // A rank-0 start index (index_vector_dim == rank == 0) selecting one row.
    %k = stablehlo.constant dense<1> : tensor<i32>
    %3 = "stablehlo.gather"(%x, %k) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>, slice_sizes = array<i64: 1, 2>}> : (tensor<3x2xi32>, tensor<i32>) -> tensor<2xi32>
    %e3 = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%3, %e3) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()

    // An empty update changes nothing, whatever the start.
    %u = stablehlo.constant dense<> : tensor<0x2xi32>
    %s = stablehlo.constant dense<-5> : tensor<i32>
    %4 = stablehlo.dynamic_update_slice %x, %u, %s, %s : (tensor<3x2xi32>, tensor<0x2xi32>, tensor<i32>, tensor<i32>) -> tensor<3x2xi32>
    stablehlo.custom_call @check.expect_eq(%4, %x) {has_side_effect = true} : (tensor<3x2xi32>, tensor<3x2xi32>) -> ()

    %z = stablehlo.constant dense<> : tensor<0x3xf32>
    %5 = stablehlo.reverse %z, dims = [0, 1] : tensor<0x3xf32>
    stablehlo.custom_call @check.expect_eq(%5, %z) {has_side_effect = true} : (tensor<0x3xf32>, tensor<0x3xf32>) -> ()

    // A 2x2 window multiplied into a 3x3 input at (1, 0) and (0, 1); the start (2, 2) does not
    // fit and is skipped.
    %g = stablehlo.constant dense<1> : tensor<3x3xi64>
    %gi = stablehlo.constant dense<[[1, 0], [0, 1], [2, 2]]> : tensor<3x2xi32>
    %gu = stablehlo.constant dense<[[[2, 3], [4, 5]], [[6, 7], [8, 9]], [[0, 0], [0, 0]]]> : tensor<3x2x2xi64>
    %6 = "stablehlo.scatter"(%g, %gi, %gu) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %m = stablehlo.multiply %a, %b : tensor<i64>
      stablehlo.return %m : tensor<i64>
    }) : (tensor<3x3xi64>, tensor<3x2xi32>, tensor<3x2x2xi64>) -> tensor<3x3xi64>
    %e6 = stablehlo.constant dense<[[1, 6, 7], [2, 24, 9], [4, 5, 1]]> : tensor<3x3xi64>
    stablehlo.custom_call @check.expect_eq(%6, %e6) {has_side_effect = true} : (tensor<3x3xi64>, tensor<3x3xi64>) -> ()
    return %0 : tensor<2x3x2xi32>
  }
}

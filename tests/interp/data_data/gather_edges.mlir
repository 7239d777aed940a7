// gather edge cases: clamped out-of-range starts (negative, INT64_MAX, INT64_MIN, huge unsigned),
// index_vector_dim == rank(start_indices), operand batching dims, offset dims that are not
// trailing, and an empty batch.
module @gather_edges {
  func.func public @main() -> tensor<6x2xi32> {
    // Starts are clamped into [0, 5 - slice size 2] = [0, 3].
    %x = stablehlo.constant dense<[10, 20, 30, 40, 50]> : tensor<5xi32>
    %i0 = stablehlo.constant dense<[[-1], [0], [3], [4], [9223372036854775807], [-9223372036854775808]]> : tensor<6x1xi64>
    %0 = "stablehlo.gather"(%x, %i0) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>}> : (tensor<5xi32>, tensor<6x1xi64>) -> tensor<6x2xi32>
    %e0 = stablehlo.constant dense<[[10, 20], [10, 20], [40, 50], [40, 50], [40, 50], [10, 20]]> : tensor<6x2xi32>
    stablehlo.custom_call @check.expect_eq(%0, %e0) {has_side_effect = true} : (tensor<6x2xi32>, tensor<6x2xi32>) -> ()

    // index_vector_dim == rank(start_indices): each index is a one-element vector.
    %y = stablehlo.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]> : tensor<5x2xi32>
    %i1 = stablehlo.constant dense<[4, 0, 2]> : tensor<3xi32>
    %1 = "stablehlo.gather"(%y, %i1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<5x2xi32>, tensor<3xi32>) -> tensor<3x2xi32>
    %e1 = stablehlo.constant dense<[[8, 9], [0, 1], [4, 5]]> : tensor<3x2xi32>
    stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<3x2xi32>, tensor<3x2xi32>) -> ()

    // The largest ui64 index clamps to the last position, not to 0.
    %i2 = stablehlo.constant dense<[18446744073709551615, 1]> : tensor<2xui64>
    %2 = "stablehlo.gather"(%x, %i2) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<5xi32>, tensor<2xui64>) -> tensor<2xi32>
    %e2 = stablehlo.constant dense<[50, 20]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()

    // Batching dims: row b of the operand is indexed by start index b.
    %z = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %i3 = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
    %3 = "stablehlo.gather"(%z, %i3) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<2x1xi32>) -> tensor<2xf32>
    %e3 = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%3, %e3) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // Offset dims 0 and 2 around batch dim 1; the column start 3 clamps to 4 - 2 = 2.
    %w = stablehlo.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi8>
    %i4 = stablehlo.constant dense<[[1, 2], [2, 3]]> : tensor<2x2xi32>
    %4 = "stablehlo.gather"(%w, %i4) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 2>}> : (tensor<3x4xi8>, tensor<2x2xi32>) -> tensor<1x2x2xi8>
    %e4 = stablehlo.constant dense<[[[6, 7], [10, 11]]]> : tensor<1x2x2xi8>
    stablehlo.custom_call @check.expect_eq(%4, %e4) {has_side_effect = true} : (tensor<1x2x2xi8>, tensor<1x2x2xi8>) -> ()

    // An empty batch gathers nothing.
    %i5 = stablehlo.constant dense<> : tensor<0x1xi32>
    %5 = "stablehlo.gather"(%x, %i5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>}> : (tensor<5xi32>, tensor<0x1xi32>) -> tensor<0x2xi32>
    %e5 = stablehlo.constant dense<> : tensor<0x2xi32>
    stablehlo.custom_call @check.expect_eq(%5, %e5) {has_side_effect = true} : (tensor<0x2xi32>, tensor<0x2xi32>) -> ()
    return %0 : tensor<6x2xi32>
  }
}

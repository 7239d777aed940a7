// scatter edge cases: windows that do not fit are skipped whole (negative, partly outside,
// INT64_MAX and INT64_MIN starts), duplicate indices applied in order with a non-commutative
// region (both argument orders), variadic inputs with a general region, batching dims, and an
// empty update set.
module @scatter_edges {
  func.func public @main() -> tensor<6xi32> {
    // Windows of 2 elements fit at starts 0..4 of 6: -1, 5, INT64_MAX and INT64_MIN are skipped.
    %x = stablehlo.constant dense<0> : tensor<6xi32>
    %i0 = stablehlo.constant dense<[[-1], [0], [4], [5], [9223372036854775807], [-9223372036854775808]]> : tensor<6x1xi64>
    %u0 = stablehlo.constant dense<[[1, 1], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]]> : tensor<6x2xi32>
    %0 = "stablehlo.scatter"(%x, %i0, %u0) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<6xi32>, tensor<6x1xi64>, tensor<6x2xi32>) -> tensor<6xi32>
    %e0 = stablehlo.constant dense<[2, 3, 0, 0, 4, 5]> : tensor<6xi32>
    stablehlo.custom_call @check.expect_eq(%0, %e0) {has_side_effect = true} : (tensor<6xi32>, tensor<6xi32>) -> ()

    // Duplicates apply in index order: current - update.
    %y = stablehlo.constant dense<10> : tensor<3xi32>
    %i1 = stablehlo.constant dense<[[1], [1], [2]]> : tensor<3x1xi32>
    %u1 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    %1 = "stablehlo.scatter"(%y, %i1, %u1) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.subtract %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<3xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3xi32>
    %e1 = stablehlo.constant dense<[10, 7, 7]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()

    // The same with update - current: 1 - 10 = -9, then 2 - (-9) = 11; 3 - 10 = -7.
    %2 = "stablehlo.scatter"(%y, %i1, %u1) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.subtract %b, %a : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<3xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<3xi32>
    %e2 = stablehlo.constant dense<[10, 11, -7]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()

    // Two inputs, one general region: (cur0 + upd0, cur1 * upd1); index 0 is hit twice.
    %p = stablehlo.constant dense<0> : tensor<3xi32>
    %q = stablehlo.constant dense<1.0> : tensor<3xf32>
    %i3 = stablehlo.constant dense<[[0], [2], [0]]> : tensor<3x1xi32>
    %u3a = stablehlo.constant dense<[5, 6, 7]> : tensor<3xi32>
    %u3b = stablehlo.constant dense<[2.0, 3.0, 4.0]> : tensor<3xf32>
    %3:2 = "stablehlo.scatter"(%p, %q, %i3, %u3a, %u3b) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<f32>):
      %s = stablehlo.add %a, %c : tensor<i32>
      %m = stablehlo.multiply %b, %d : tensor<f32>
      stablehlo.return %s, %m : tensor<i32>, tensor<f32>
    }) : (tensor<3xi32>, tensor<3xf32>, tensor<3x1xi32>, tensor<3xi32>, tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>)
    %e3a = stablehlo.constant dense<[12, 0, 6]> : tensor<3xi32>
    %e3b = stablehlo.constant dense<[8.0, 1.0, 3.0]> : tensor<3xf32>
    stablehlo.custom_call @check.expect_eq(%3#0, %e3a) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%3#1, %e3b) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()

    // Batching dims with a replacing region: row b gets update b at column index b.
    %z = stablehlo.constant dense<0> : tensor<2x3xi32>
    %i4 = stablehlo.constant dense<[[2], [0]]> : tensor<2x1xi32>
    %u4 = stablehlo.constant dense<[7, 8]> : tensor<2xi32>
    %4 = "stablehlo.scatter"(%z, %i4, %u4) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      stablehlo.return %b : tensor<i32>
    }) : (tensor<2x3xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x3xi32>
    %e4 = stablehlo.constant dense<[[0, 0, 7], [8, 0, 0]]> : tensor<2x3xi32>
    stablehlo.custom_call @check.expect_eq(%4, %e4) {has_side_effect = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()

    // Window dims before the scatter dim, index_vector_dim == rank, f16 maximum.
    %h = stablehlo.constant dense<[[1.0, 5.0, 2.0], [3.0, 0.0, 4.0]]> : tensor<2x3xf16>
    %i5 = stablehlo.constant dense<[2, 1, 3]> : tensor<3xi32>
    %u5 = stablehlo.constant dense<[[9.0, 4.0, 7.0], [1.0, 6.0, 8.0]]> : tensor<2x3xf16>
    %5 = "stablehlo.scatter"(%h, %i5, %u5) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<f16>, %b: tensor<f16>):
      %s = stablehlo.maximum %a, %b : tensor<f16>
      stablehlo.return %s : tensor<f16>
    }) : (tensor<2x3xf16>, tensor<3xi32>, tensor<2x3xf16>) -> tensor<2x3xf16>
    %e5 = stablehlo.constant dense<[[1.0, 5.0, 9.0], [3.0, 6.0, 4.0]]> : tensor<2x3xf16>
    stablehlo.custom_call @check.expect_eq(%5, %e5) {has_side_effect = true} : (tensor<2x3xf16>, tensor<2x3xf16>) -> ()

    // No updates: the result is the input.
    %i6 = stablehlo.constant dense<> : tensor<0x1xi32>
    %u6 = stablehlo.constant dense<> : tensor<0xi32>
    %6 = "stablehlo.scatter"(%y, %i6, %u6) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      stablehlo.return %b : tensor<i32>
    }) : (tensor<3xi32>, tensor<0x1xi32>, tensor<0xi32>) -> tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%6, %y) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    return %0 : tensor<6xi32>
  }
}

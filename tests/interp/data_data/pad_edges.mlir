// pad edge cases: negative low/high padding with interior padding, in 1-D and 2-D, padding that
// removes every operand element, padding an empty operand, and amounts near the int64 limits.
module @pad_edges {
  func.func public @main() -> tensor<6xi32> {
    // Interior 1 gives [1,0,2,0,3,0,4,0,5]; low -1 and high -2 then cut one and two elements.
    %x = stablehlo.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
    %z = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.pad %x, %z, low = [-1], high = [-2], interior = [1] : (tensor<5xi32>, tensor<i32>) -> tensor<6xi32>
    %e0 = stablehlo.constant dense<[0, 2, 0, 3, 0, 4]> : tensor<6xi32>
    stablehlo.custom_call @check.expect_eq(%0, %e0) {has_side_effect = true} : (tensor<6xi32>, tensor<6xi32>) -> ()

    // Rows: [pad, r0, gap, r1] minus the last; columns: drop the first, add two.
    %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi16>
    %n = stablehlo.constant dense<9> : tensor<i16>
    %1 = stablehlo.pad %m, %n, low = [1, -1], high = [-1, 2], interior = [1, 0] : (tensor<2x3xi16>, tensor<i16>) -> tensor<3x4xi16>
    %e1 = stablehlo.constant dense<[[9, 9, 9, 9], [2, 3, 9, 9], [9, 9, 9, 9]]> : tensor<3x4xi16>
    stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<3x4xi16>, tensor<3x4xi16>) -> ()

    // Every operand element cut away: only padding remains.
    %y = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xf64>
    %p = stablehlo.constant dense<7.0> : tensor<f64>
    %2 = stablehlo.pad %y, %p, low = [-2], high = [1], interior = [0] : (tensor<2xf64>, tensor<f64>) -> tensor<1xf64>
    %e2 = stablehlo.constant dense<[7.0]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()

    // An empty operand padded to three elements.
    %w = stablehlo.constant dense<> : tensor<0xf64>
    %3 = stablehlo.pad %w, %p, low = [2], high = [1], interior = [4] : (tensor<0xf64>, tensor<f64>) -> tensor<3xf64>
    %e3 = stablehlo.constant dense<7.0> : tensor<3xf64>
    stablehlo.custom_call @check.expect_eq(%3, %e3) {has_side_effect = true} : (tensor<3xf64>, tensor<3xf64>) -> ()

    // Negative low padding beyond the first gap: [1,0,0,2,0,0,3,0,0,4,0,0,5] from index 4.
    %4 = stablehlo.pad %x, %z, low = [-4], high = [0], interior = [2] : (tensor<5xi32>, tensor<i32>) -> tensor<9xi32>
    %e4 = stablehlo.constant dense<[0, 0, 3, 0, 0, 4, 0, 0, 5]> : tensor<9xi32>
    stablehlo.custom_call @check.expect_eq(%4, %e4) {has_side_effect = true} : (tensor<9xi32>, tensor<9xi32>) -> ()

    // Extreme amounts: with low = INT64_MIN no element lands inside; with an interior step of
    // 2^62 and low = -2^62 only the second element lands, at position 0.
    %two = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %seven = stablehlo.constant dense<7> : tensor<i32>
    %5 = stablehlo.pad %two, %seven, low = [-9223372036854775808], high = [9223372036854775807], interior = [0] : (tensor<2xi32>, tensor<i32>) -> tensor<1xi32>
    %e5 = stablehlo.constant dense<[7]> : tensor<1xi32>
    stablehlo.custom_call @check.expect_eq(%5, %e5) {has_side_effect = true} : (tensor<1xi32>, tensor<1xi32>) -> ()
    %6 = stablehlo.pad %two, %seven, low = [-4611686018427387904], high = [1], interior = [4611686018427387903] : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
    %e6 = stablehlo.constant dense<[2, 7]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%6, %e6) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
    return %0 : tensor<6xi32>
  }
}

// chlo ops of test_chlo_ops.sh that must pass, each with values worked out by hand: the
// broadcasting ops (numpy rank padding, size-1 dimensions, broadcast_dimensions), constant and
// constant_like. The script expects every case to pass with its count of checks.

func.func @broadcast_arith() {
  %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %v = stablehlo.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %c = stablehlo.constant dense<[[100.0], [200.0]]> : tensor<2x1xf32>
  %s = stablehlo.constant dense<2.0> : tensor<f32>
  %add = chlo.broadcast_add %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %add, dense<[[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]> : tensor<2x3xf32>
  %sub = chlo.broadcast_subtract %c, %v : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %sub, dense<[[90.0, 80.0, 70.0], [190.0, 180.0, 170.0]]> : tensor<2x3xf32>
  %mul = chlo.broadcast_multiply %s, %m : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %mul, dense<[[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]> : tensor<2x3xf32>
  %div = chlo.broadcast_divide %v, %s : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_eq_const %div, dense<[5.0, 10.0, 15.0]> : tensor<3xf32>
  %max = chlo.broadcast_maximum %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  check.expect_eq_const %max, dense<[[2.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %min = chlo.broadcast_minimum %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  check.expect_eq_const %min, dense<[[1.0, 2.0, 2.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>
  %pow = chlo.broadcast_power %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  check.expect_eq_const %pow, dense<[[1.0, 4.0, 9.0], [16.0, 25.0, 36.0]]> : tensor<2x3xf32>
  %rem = chlo.broadcast_remainder %m, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  check.expect_eq_const %rem, dense<[[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]> : tensor<2x3xf32>
  func.return
}

// -----

// broadcast_dimensions maps the lower-rank operand's dimension 0 to the result's dimension 0 (a
// column added to every row), which numpy's padding would not.
func.func @broadcast_dimensions() {
  %m = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %col = stablehlo.constant dense<[10, 20]> : tensor<2xi32>
  %a = chlo.broadcast_add %m, %col {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %a, dense<[[11, 12, 13], [24, 25, 26]]> : tensor<2x3xi32>
  %b = chlo.broadcast_subtract %col, %m {broadcast_dimensions = array<i64: 0>} : (tensor<2xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %b, dense<[[9, 8, 7], [16, 15, 14]]> : tensor<2x3xi32>
  %row = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %c = chlo.broadcast_multiply %m, %row {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %c, dense<[[1, 4, 9], [4, 10, 18]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @broadcast_int_logic() {
  %a = stablehlo.constant dense<[[12], [-8]]> : tensor<2x1xi32>
  %n = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %shl = chlo.broadcast_shift_left %a, %n : (tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %shl, dense<[[24, 48], [-16, -32]]> : tensor<2x2xi32>
  %sra = chlo.broadcast_shift_right_arithmetic %a, %n : (tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %sra, dense<[[6, 3], [-4, -2]]> : tensor<2x2xi32>
  %srl = chlo.broadcast_shift_right_logical %a, %n : (tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  check.expect_eq_const %srl, dense<[[6, 3], [2147483644, 1073741822]]> : tensor<2x2xi32>
  %x = stablehlo.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %y = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %and = chlo.broadcast_and %x, %y : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %and, dense<[[true, false], [false, false]]> : tensor<2x2xi1>
  %or = chlo.broadcast_or %x, %y : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %or, dense<[[true, true], [true, false]]> : tensor<2x2xi1>
  %xor = chlo.broadcast_xor %x, %y : (tensor<2x1xi1>, tensor<2xi1>) -> tensor<2x2xi1>
  check.expect_eq_const %xor, dense<[[false, true], [true, false]]> : tensor<2x2xi1>
  %u = stablehlo.constant dense<[12, 10]> : tensor<2xui8>
  %k = stablehlo.constant dense<6> : tensor<ui8>
  %uxor = chlo.broadcast_xor %u, %k : (tensor<2xui8>, tensor<ui8>) -> tensor<2xui8>
  check.expect_eq_const %uxor, dense<[10, 12]> : tensor<2xui8>
  func.return
}

// -----

func.func @broadcast_compare_select() {
  %a = stablehlo.constant dense<[[1.0], [3.0]]> : tensor<2x1xf32>
  %b = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %lt = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  check.expect_eq_const %lt, dense<[[false, true, true], [false, false, false]]> : tensor<2x3xi1>
  %eq = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction EQ>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  check.expect_eq_const %eq, dense<[[true, false, false], [false, false, true]]> : tensor<2x3xi1>
  %i = stablehlo.constant dense<[-1, 1]> : tensor<2xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %ge = "chlo.broadcast_compare"(%i, %z) <{comparison_direction = #chlo<comparison_direction GE>, compare_type = #chlo<comparison_type SIGNED>}> : (tensor<2xi32>, tensor<i32>) -> tensor<2xi1>
  check.expect_eq_const %ge, dense<[false, true]> : tensor<2xi1>
  %sel = chlo.broadcast_select %lt, %a, %b : (tensor<2x3xi1>, tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %sel, dense<[[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  %p = stablehlo.constant dense<true> : tensor<i1>
  %sel2 = chlo.broadcast_select %p, %b, %a : (tensor<i1>, tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %sel2, dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>
  func.return
}

// -----

func.func @broadcast_special() {
  %re = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %im = stablehlo.constant dense<[[0.5], [-1.0]]> : tensor<2x1xf64>
  %c = chlo.broadcast_complex %re, %im : (tensor<2xf64>, tensor<2x1xf64>) -> tensor<2x2xcomplex<f64>>
  check.expect_eq_const %c, dense<[[(1.0, 0.5), (2.0, 0.5)], [(1.0, -1.0), (2.0, -1.0)]]> : tensor<2x2xcomplex<f64>>
  %y = stablehlo.constant dense<[[1.0], [-1.0]]> : tensor<2x1xf64>
  %x = stablehlo.constant dense<[1.0, 0.0]> : tensor<2xf64>
  %at = chlo.broadcast_atan2 %y, %x : (tensor<2x1xf64>, tensor<2xf64>) -> tensor<2x2xf64>
  check.expect_almost_eq_const %at, dense<[[0.78539816339744828, 1.5707963267948966], [-0.78539816339744828, -1.5707963267948966]]> : tensor<2x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %to = stablehlo.constant dense<[2.0, 0.0]> : tensor<2xf32>
  %na = chlo.broadcast_next_after %one, %to : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
  check.expect_eq_const %na, dense<[1.00000012, 0.99999994]> : tensor<2xf32>
  %s = stablehlo.constant dense<2.0> : tensor<f64>
  %q = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %z = chlo.broadcast_zeta %s, %q : (tensor<f64>, tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %z, dense<[1.6449340668482264, 0.64493406684822643]> : tensor<2xf64>
  %n = stablehlo.constant dense<1.0> : tensor<f64>
  %pg = chlo.broadcast_polygamma %n, %q : (tensor<f64>, tensor<2xf64>) -> tensor<2xf64>
  check.expect_almost_eq_const %pg, dense<[1.6449340668482264, 0.64493406684822643]> : tensor<2xf64>
  func.return
}

// -----

func.func @constants() {
  %c = chlo.constant dense<[1, 2, 3]> : tensor<3xi64>
  check.expect_eq_const %c, dense<[1, 2, 3]> : tensor<3xi64>
  %x = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %f = "chlo.constant_like"(%x) <{value = 2.5 : f32}> : (tensor<1x2xf32>) -> tensor<1x2xf32>
  check.expect_eq_const %f, dense<[[2.5, 2.5]]> : tensor<1x2xf32>
  %i = "chlo.constant_like"(%x) {value = -7 : i8} : (tensor<1x2xf32>) -> tensor<1x2xi8>
  check.expect_eq_const %i, dense<[[-7, -7]]> : tensor<1x2xi8>
  %b = "chlo.constant_like"(%c) {value = true} : (tensor<3xi64>) -> tensor<3xi1>
  check.expect_eq_const %b, dense<true> : tensor<3xi1>
  %h = "chlo.constant_like"(%c) {value = 0.5 : bf16} : (tensor<3xi64>) -> tensor<3xbf16>
  check.expect_eq_const %h, dense<0.5> : tensor<3xbf16>
  func.return
}

// -----

// A dynamic operand: the result shape comes from the runtime shapes (hlorun check runs @main on
// generated inputs, ? = 3, and checks the results' types).
func.func @main(%x: tensor<?x1xf32>) -> tensor<?x2xf32> {
  %v = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %r = chlo.broadcast_add %x, %v : (tensor<?x1xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  %z = "chlo.constant_like"(%r) {value = 0.0 : f32} : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %s = stablehlo.add %r, %z : tensor<?x2xf32>
  func.return %s : tensor<?x2xf32>
}

// -----

// ragged_dot, non-contracting mode: rows [0, 1) use group 0 (the identity), rows [1, 3) group 1
// (a swap), row 3 no group (zeros).
func.func @ragged_non_contracting() {
  %l = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %r = stablehlo.constant dense<[[[1.0, 0.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]]]> : tensor<2x2x2xf32>
  %g = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>, precision_config = [#chlo<precision DEFAULT>, #chlo<precision HIGHEST>]} : (tensor<4x2xf32>, tensor<2x2x2xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  check.expect_eq_const %d, dense<[[1.0, 2.0], [4.0, 3.0], [6.0, 5.0], [0.0, 0.0]]> : tensor<4x2xf32>
  %li = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi32>
  %ri = stablehlo.constant dense<[[[1, 0], [0, 1]], [[0, 1], [1, 0]]]> : tensor<2x2x2xi32>
  %gi = stablehlo.constant dense<[3, 1]> : tensor<2xi32>
  %di = "chlo.ragged_dot"(%li, %ri, %gi) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>} : (tensor<4x2xi32>, tensor<2x2x2xi32>, tensor<2xi32>) -> tensor<4x2xi32>
  check.expect_eq_const %di, dense<[[1, 2], [3, 4], [5, 6], [8, 7]]> : tensor<4x2xi32>
  func.return
}

// -----

// Non-contracting mode with a batch dimension and group sizes per batch ([b, g]): batch 0 splits
// its 3 rows 1 + 2, batch 1 puts all 3 in group 0.
func.func @ragged_batched_groups() {
  %l = stablehlo.constant dense<[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]]> : tensor<2x3x1xf64>
  %r = stablehlo.constant dense<[[[[10.0]], [[20.0]]], [[[100.0]], [[200.0]]]]> : tensor<2x2x1x1xf64>
  %g = stablehlo.constant dense<[[1, 2], [3, 0]]> : tensor<2x2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [1], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2], lhs_ragged_dimensions = [1], rhs_group_dimensions = [0]>} : (tensor<2x3x1xf64>, tensor<2x2x1x1xf64>, tensor<2x2xi32>) -> tensor<2x3x1xf64>
  check.expect_eq_const %d, dense<[[[10.0], [200.0], [300.0]], [[80.0], [100.0], [120.0]]]> : tensor<2x3x1xf64>
  func.return
}

// -----

// Contracting mode: group 0 sums k in [0, 2), group 1 k = 2; the groups lead the result.
func.func @ragged_contracting() {
  %l = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = stablehlo.constant dense<[[1.0], [10.0], [100.0]]> : tensor<3x1xf32>
  %g = stablehlo.constant dense<[2, 1]> : tensor<2xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [1], rhs_group_dimensions = []>} : (tensor<2x3xf32>, tensor<3x1xf32>, tensor<2xi64>) -> tensor<2x2x1xf32>
  check.expect_eq_const %d, dense<[[[21.0], [54.0]], [[300.0], [600.0]]]> : tensor<2x2x1xf32>
  func.return
}

// -----

// Batch mode: a dot_general per batch element.
func.func @ragged_batch() {
  %l = stablehlo.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %r = stablehlo.constant dense<[[[1.0], [1.0]], [[2.0], [3.0]]]> : tensor<2x2x1xf32>
  %g = stablehlo.constant dense<[2]> : tensor<1xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = []>} : (tensor<2x1x2xf32>, tensor<2x2x1xf32>, tensor<1xi32>) -> tensor<2x1x1xf32>
  check.expect_eq_const %d, dense<[[[3.0]], [[18.0]]]> : tensor<2x1x1xf32>
  func.return
}

// -----

// scan along dimension 1, last to first: out[i][j] = x[i][j] * (the product of x[i][j+1..]) and
// the per-row products as the final carry; a second input, never read, is sliced too.
func.func @scan_reverse_product() {
  %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %y = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %one = stablehlo.constant dense<1> : tensor<2xi64>
  %r:2 = chlo.scan(%x, %y) inits(%one) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<2xi64>, %b: tensor<2xf32>, %acc: tensor<2xi64>):
    %p = stablehlo.multiply %a, %acc : tensor<2xi64>
    stablehlo.return %p, %p : tensor<2xi64>, tensor<2xi64>
  } : (tensor<2x3xi64>, tensor<2x3xf32>, tensor<2xi64>) -> (tensor<2x3xi64>, tensor<2xi64>)
  check.expect_eq_const %r#0, dense<[[6, 6, 3], [120, 30, 6]]> : tensor<2x3xi64>
  check.expect_eq_const %r#1, dense<[6, 120]> : tensor<2xi64>
  func.return
}

// -----

// scan without inputs (the outputs' declared shape gives 4 positions): powers of 2 as outputs,
// the running sum and the next power as carries; written in the generic form.
func.func @scan_no_inputs() {
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %c0 = stablehlo.constant dense<0.0> : tensor<f32>
  %r:3 = "chlo.scan"(%c1, %c0) <{dimension = 0 : i64, operandSegmentSizes = array<i32: 0, 2>, resultSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%p: tensor<f32>, %s: tensor<f32>):
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %next = stablehlo.multiply %p, %two : tensor<f32>
    %sum = stablehlo.add %s, %p : tensor<f32>
    stablehlo.return %p, %next, %sum : tensor<f32>, tensor<f32>, tensor<f32>
  }) : (tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<f32>, tensor<f32>)
  check.expect_eq_const %r#0, dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>
  check.expect_eq_const %r#1, dense<16.0> : tensor<f32>
  check.expect_eq_const %r#2, dense<15.0> : tensor<f32>
  func.return
}

// -----

// _asin_acos_kernel: w = sqrt(a^2 - x^2) + i log(a + sqrt(a^2 - 1)), a = (|z + 1| + |z - 1|) / 2;
// expected values from asin: Re w = |x| / tan(Re asin z), Im w = |Im asin z|. The tiny imaginary part
// near the real axis (z = 0.25 - 1e-9 i), scaled by 1e9, checks that it does not cancel to 0.
func.func @asin_acos_kernel() {
  %z = stablehlo.constant dense<[(0.5, 0.5), (2.0, 0.0), (-3.0, 4.0), (0.25, -1.0e-9), (0.0, 2.0), (1.0, 0.0)]> : tensor<6xcomplex<f64>>
  %w = chlo._asin_acos_kernel %z : tensor<6xcomplex<f64>> -> tensor<6xcomplex<f64>>
  check.expect_almost_eq_const %w, dense<[(1.0290855136357462, 0.530637530952518), (0.0, 1.3169578969248166), (4.080332172835138, 2.305509031243477), (0.96824583655185437, 1.0327955589886446e-09), (2.23606797749979, 1.4436354751788103), (0.0, 0.0)]> : tensor<6xcomplex<f64>>
  %im = stablehlo.imag %w : (tensor<6xcomplex<f64>>) -> tensor<6xf64>
  %near = stablehlo.slice %im [3:4] : (tensor<6xf64>) -> tensor<1xf64>
  %scale = stablehlo.constant dense<1.0e9> : tensor<1xf64>
  %scaled = stablehlo.multiply %near, %scale : tensor<1xf64>
  check.expect_almost_eq_const %scaled, dense<[1.0327955589886446]> : tensor<1xf64>
  %z32 = stablehlo.constant dense<[(0.5, -0.5)]> : tensor<1xcomplex<f32>>
  %w32 = "chlo._asin_acos_kernel"(%z32) : (tensor<1xcomplex<f32>>) -> tensor<1xcomplex<f32>>
  check.expect_almost_eq_const %w32, dense<[(1.02908551, 0.530637503)]> : tensor<1xcomplex<f32>>
  func.return
}

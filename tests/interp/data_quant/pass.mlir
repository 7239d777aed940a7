// Quantized tensors (!quant.uniform) at run time. Expected stored integers follow the spec's
// formulas (spec.md "Quantization computations") in f32: quantize(x) = round_nearest_even(clamp(
// storage_min, x / scale + zero_point, storage_max)), dequantize(q) = (q - zero_point) * scale, and
// every other op on quantized values dequantizes its operands, computes, and quantizes its result.
// Each stored result is read through bitcast_convert to its storage type.

// Ties round to even: x / 0.5 = 0.5, 1.5, -0.5, 2.5, 4.5, -1.5.
func.func @quantize_ties() {
  %x = stablehlo.constant dense<[0.25, 0.75, -0.25, 1.25, 2.25, -0.75]> : tensor<6xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<6xf32>) -> tensor<6x!quant.uniform<i8:f32, 0.5>>
  %s = "stablehlo.bitcast_convert"(%q) : (tensor<6x!quant.uniform<i8:f32, 0.5>>) -> tensor<6xi8>
  check.expect_eq_const %s, dense<[0, 2, 0, 2, 4, -2]> : tensor<6xi8>
  func.return
}

// -----

// A narrowed storage range clamps before rounding: -127.6 -> -127, 126.6 -> 127, -126.5 -> -126.
func.func @quantize_clamp_narrow() {
  %x = stablehlo.constant dense<[-200.0, -127.6, 126.6, 300.0, -126.5]> : tensor<5xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<5xf32>) -> tensor<5x!quant.uniform<i8<-127:127>:f32, 1.0>>
  %s = "stablehlo.bitcast_convert"(%q) : (tensor<5x!quant.uniform<i8<-127:127>:f32, 1.0>>) -> tensor<5xi8>
  check.expect_eq_const %s, dense<[-127, -127, 127, 127, -126]> : tensor<5xi8>
  func.return
}

// -----

// Unsigned storage with a zero point of 128: x / 0.5 + 128, clamped to [0, 255].
func.func @quantize_unsigned() {
  %x = stablehlo.constant dense<[-100.0, 0.0, 1.0, 100.0, 0.25]> : tensor<5xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<5xf32>) -> tensor<5x!quant.uniform<u8:f32, 0.5:128>>
  %s = "stablehlo.bitcast_convert"(%q) : (tensor<5x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<5xui8>
  check.expect_eq_const %s, dense<[0, 128, 130, 255, 128]> : tensor<5xui8>
  func.return
}

// -----

// Per axis: each column (dimension 1) has its own scale and zero point.
func.func @quantize_per_axis() {
  %x = stablehlo.constant dense<[[1.5, 2.0, 0.3], [-2.5, -1.2, 10.0]]> : tensor<2x3xf32>
  %q = "stablehlo.uniform_quantize"(%x) : (tensor<2x3xf32>) -> tensor<2x3x!quant.uniform<i8:f32:1, {1.0, 0.5:1, 0.25:-2}>>
  %s = "stablehlo.bitcast_convert"(%q) : (tensor<2x3x!quant.uniform<i8:f32:1, {1.0, 0.5:1, 0.25:-2}>>) -> tensor<2x3xi8>
  check.expect_eq_const %s, dense<[[2, 5, -1], [-2, -1, 38]]> : tensor<2x3xi8>
  func.return
}

// -----

// Per axis along dimension 0: row 0 is (q + 1) * 0.5, row 1 (q - 3) * 2.
func.func @dequantize_per_axis() {
  %s = stablehlo.constant dense<[[5, -3], [7, 1]]> : tensor<2x2xi8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5:-1, 2.0:3}>>
  %x = "stablehlo.uniform_dequantize"(%q) : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5:-1, 2.0:3}>>) -> tensor<2x2xf32>
  check.expect_eq_const %x, dense<[[3.0, -1.0], [8.0, -4.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// Requantization into a narrowed range: a = [2, -2, 0, 9.5] -> x / 0.5 clamped to [-10, 10].
func.func @requantize_clamp() {
  %s = stablehlo.constant dense<[10, -6, 2, 40]> : tensor<4xi8>
  %a = "stablehlo.bitcast_convert"(%s) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.25:2>>
  %r = "stablehlo.uniform_quantize"(%a) : (tensor<4x!quant.uniform<i8:f32, 0.25:2>>) -> tensor<4x!quant.uniform<i8<-10:10>:f32, 0.5>>
  %o = "stablehlo.bitcast_convert"(%r) : (tensor<4x!quant.uniform<i8<-10:10>:f32, 0.5>>) -> tensor<4xi8>
  check.expect_eq_const %o, dense<[4, -4, 0, 10]> : tensor<4xi8>
  func.return
}

// -----

// Elementwise ops on values: a = [2, -2, 0, 9.5] (0.25:2), b = [2, 4, -3, 5] (0.5:-4); results
// quantized by 0.5 unless they keep an operand's type.
func.func @elementwise() {
  %sa = stablehlo.constant dense<[10, -6, 2, 40]> : tensor<4xi8>
  %sb = stablehlo.constant dense<[0, 4, -10, 6]> : tensor<4xi8>
  %a = "stablehlo.bitcast_convert"(%sa) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.25:2>>
  %b = "stablehlo.bitcast_convert"(%sb) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-4>>
  %sub = "stablehlo.subtract"(%a, %b) : (tensor<4x!quant.uniform<i8:f32, 0.25:2>>, tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %sub_s = "stablehlo.bitcast_convert"(%sub) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8>
  check.expect_eq_const %sub_s, dense<[0, -12, 6, 9]> : tensor<4xi8>
  %mul = "stablehlo.multiply"(%a, %b) : (tensor<4x!quant.uniform<i8:f32, 0.25:2>>, tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %mul_s = "stablehlo.bitcast_convert"(%mul) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8>
  check.expect_eq_const %mul_s, dense<[8, -16, 0, 95]> : tensor<4xi8>
  %max = "stablehlo.maximum"(%a, %b) : (tensor<4x!quant.uniform<i8:f32, 0.25:2>>, tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %max_s = "stablehlo.bitcast_convert"(%max) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8>
  check.expect_eq_const %max_s, dense<[4, 8, 0, 19]> : tensor<4xi8>
  %neg = "stablehlo.negate"(%a) : (tensor<4x!quant.uniform<i8:f32, 0.25:2>>) -> tensor<4x!quant.uniform<i8:f32, 0.25:2>>
  %neg_s = "stablehlo.bitcast_convert"(%neg) : (tensor<4x!quant.uniform<i8:f32, 0.25:2>>) -> tensor<4xi8>
  check.expect_eq_const %neg_s, dense<[-6, 10, 2, -36]> : tensor<4xi8>
  %abs = "stablehlo.abs"(%b) : (tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-4>>
  %abs_s = "stablehlo.bitcast_convert"(%abs) : (tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4xi8>
  check.expect_eq_const %abs_s, dense<[0, 4, 2, 6]> : tensor<4xi8>
  %lt = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<4x!quant.uniform<i8:f32, 0.25:2>>, tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4xi1>
  check.expect_eq_const %lt, dense<[false, true, false, false]> : tensor<4xi1>
  %p = stablehlo.constant dense<[true, false, true, false]> : tensor<4xi1>
  %sel = "stablehlo.select"(%p, %a, %b) : (tensor<4xi1>, tensor<4x!quant.uniform<i8:f32, 0.25:2>>, tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:-4>>
  %sel_s = "stablehlo.bitcast_convert"(%sel) : (tensor<4x!quant.uniform<i8:f32, 0.5:-4>>) -> tensor<4xi8>
  check.expect_eq_const %sel_s, dense<[0, 4, -4, 6]> : tensor<4xi8>
  func.return
}

// -----

// Ops that move elements of one per-tensor type move stored integers.
func.func @data_movement() {
  %s = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>
  %t = "stablehlo.transpose"(%q) {permutation = array<i64: 1, 0>} : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<3x2x!quant.uniform<i8:f32, 0.5:-1>>
  %r = "stablehlo.reshape"(%t) : (tensor<3x2x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:-1>>
  %sl = "stablehlo.slice"(%r) {start_indices = array<i64: 1>, limit_indices = array<i64: 6>, strides = array<i64: 2>} : (tensor<6x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<3x!quant.uniform<i8:f32, 0.5:-1>>
  %c = "stablehlo.concatenate"(%sl, %sl) {dimension = 0 : i64} : (tensor<3x!quant.uniform<i8:f32, 0.5:-1>>, tensor<3x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<6x!quant.uniform<i8:f32, 0.5:-1>>
  %o = "stablehlo.bitcast_convert"(%c) : (tensor<6x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<6xi8>
  check.expect_eq_const %o, dense<[4, 5, 6, 4, 5, 6]> : tensor<6xi8>
  %b = "stablehlo.broadcast_in_dim"(%sl) {broadcast_dimensions = array<i64: 1>} : (tensor<3x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>
  %bo = "stablehlo.bitcast_convert"(%b) : (tensor<2x3x!quant.uniform<i8:f32, 0.5:-1>>) -> tensor<2x3xi8>
  check.expect_eq_const %bo, dense<[[4, 5, 6], [4, 5, 6]]> : tensor<2x3xi8>
  func.return
}

// -----

// A per-axis transpose moves the quantized dimension with the elements (0 -> 1): each element
// keeps the scale of its row, so the stored integers move unchanged.
func.func @transpose_per_axis() {
  %s = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 2.0}>>
  %t = "stablehlo.transpose"(%q) {permutation = array<i64: 1, 0>} : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 2.0}>>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 2.0}>>
  %o = "stablehlo.bitcast_convert"(%t) : (tensor<2x2x!quant.uniform<i8:f32:1, {0.5, 2.0}>>) -> tensor<2x2xi8>
  check.expect_eq_const %o, dense<[[1, 3], [2, 4]]> : tensor<2x2xi8>
  func.return
}

// -----

// dot_general of a per-tensor lhs ([1, 2]) and a per-axis rhs (columns [1, 2] and [1, -1]) into
// i32 with the products' scales: [5, -1] -> [5 / 0.125, -1 / 0.25]. The hybrid form (float lhs)
// gives floats.
func.func @dot_general_per_axis() {
  %sl = stablehlo.constant dense<[[3, 5]]> : tensor<1x2xi8>
  %sr = stablehlo.constant dense<[[4, 2], [8, -2]]> : tensor<2x2xi8>
  %l = "stablehlo.bitcast_convert"(%sl) : (tensor<1x2xi8>) -> tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>
  %r = "stablehlo.bitcast_convert"(%sr) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>
  %d = "stablehlo.dot_general"(%l, %r) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<1x2x!quant.uniform<i8:f32, 0.5:1>>, tensor<2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>) -> tensor<1x2x!quant.uniform<i32:f32:1, {0.125, 0.25}>>
  %o = "stablehlo.bitcast_convert"(%d) : (tensor<1x2x!quant.uniform<i32:f32:1, {0.125, 0.25}>>) -> tensor<1x2xi32>
  check.expect_eq_const %o, dense<[[40, -4]]> : tensor<1x2xi32>
  %f = stablehlo.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %h = "stablehlo.dot_general"(%f, %r) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>} : (tensor<1x2xf32>, tensor<2x2x!quant.uniform<i8:f32:1, {0.25, 0.5}>>) -> tensor<1x2xf32>
  check.expect_eq_const %h, dense<[[5.0, -1.0]]> : tensor<1x2xf32>
  func.return
}

// -----

// A 1-d convolution of [1, 2, 3] with the kernel [1, -2]: [-3, -4], quantized by 0.125 into i32.
func.func @convolution() {
  %sl = stablehlo.constant dense<[[[2], [4], [6]]]> : tensor<1x3x1xi8>
  %sr = stablehlo.constant dense<[[[4]], [[-8]]]> : tensor<2x1x1xi8>
  %l = "stablehlo.bitcast_convert"(%sl) : (tensor<1x3x1xi8>) -> tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>
  %r = "stablehlo.bitcast_convert"(%sr) : (tensor<2x1x1xi8>) -> tensor<2x1x1x!quant.uniform<i8:f32, 0.25>>
  %c = "stablehlo.convolution"(%l, %r) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x2x1x!quant.uniform<i32:f32, 0.125>>
  %o = "stablehlo.bitcast_convert"(%c) : (tensor<1x2x1x!quant.uniform<i32:f32, 0.125>>) -> tensor<1x2x1xi32>
  check.expect_eq_const %o, dense<[[[-24], [-32]]]> : tensor<1x2x1xi32>
  func.return
}

// -----

// reduce over quantized elements: its body adds quantized scalars (1 + 2 + 3 = 6 -> 12 at 0.5).
func.func @reduce_sum() {
  %s = stablehlo.constant dense<[2, 4, 6]> : tensor<3xi8>
  %z = stablehlo.constant dense<0> : tensor<i8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<3xi8>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %init = "stablehlo.bitcast_convert"(%z) : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5>>
  %r = "stablehlo.reduce"(%q, %init) ({
  ^bb0(%x: tensor<!quant.uniform<i8:f32, 0.5>>, %y: tensor<!quant.uniform<i8:f32, 0.5>>):
    %sum = "stablehlo.add"(%x, %y) : (tensor<!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<!quant.uniform<i8:f32, 0.5>>
    "stablehlo.return"(%sum) : (tensor<!quant.uniform<i8:f32, 0.5>>) -> ()
  }) {dimensions = array<i64: 0>} : (tensor<3x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<!quant.uniform<i8:f32, 0.5>>
  %o = "stablehlo.bitcast_convert"(%r) : (tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<i8>
  check.expect_eq_const %o, dense<12> : tensor<i8>
  func.return
}

// -----

// More moves of stored integers: pad (the padding value is stored 9), reverse, dynamic_slice; and
// reduce_window, whose body takes the maximum of quantized scalars: windows of 2 over [1, 5, 3, 2]
// from stored -100.
func.func @pad_reverse_window() {
  %s = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %n = stablehlo.constant dense<9> : tensor<i8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  %pv = "stablehlo.bitcast_convert"(%n) : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5>>
  %p = "stablehlo.pad"(%q, %pv) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>} : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<3x3x!quant.uniform<i8:f32, 0.5>>
  %r = "stablehlo.reverse"(%p) {dimensions = array<i64: 1>} : (tensor<3x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3x3x!quant.uniform<i8:f32, 0.5>>
  %i = stablehlo.constant dense<1> : tensor<i32>
  %d = "stablehlo.dynamic_slice"(%r, %i, %i) {slice_sizes = array<i64: 2, 2>} : (tensor<3x3x!quant.uniform<i8:f32, 0.5>>, tensor<i32>, tensor<i32>) -> tensor<2x2x!quant.uniform<i8:f32, 0.5>>
  %o = "stablehlo.bitcast_convert"(%d) : (tensor<2x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x2xi8>
  check.expect_eq_const %o, dense<[[3, 9], [9, 9]]> : tensor<2x2xi8>
  %ws = stablehlo.constant dense<[1, 5, 3, 2]> : tensor<4xi8>
  %w = "stablehlo.bitcast_convert"(%ws) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %ls = stablehlo.constant dense<-100> : tensor<i8>
  %lo = "stablehlo.bitcast_convert"(%ls) : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 0.5>>
  %m = "stablehlo.reduce_window"(%w, %lo) ({
  ^bb0(%x: tensor<!quant.uniform<i8:f32, 0.5>>, %y: tensor<!quant.uniform<i8:f32, 0.5>>):
    %mx = "stablehlo.maximum"(%x, %y) : (tensor<!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<!quant.uniform<i8:f32, 0.5>>
    "stablehlo.return"(%mx) : (tensor<!quant.uniform<i8:f32, 0.5>>) -> ()
  }) {window_dimensions = array<i64: 2>} : (tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 0.5>>) -> tensor<3x!quant.uniform<i8:f32, 0.5>>
  %mo = "stablehlo.bitcast_convert"(%m) : (tensor<3x!quant.uniform<i8:f32, 0.5>>) -> tensor<3xi8>
  check.expect_eq_const %mo, dense<[5, 5, 3]> : tensor<3xi8>
  func.return
}

// -----

// A per-axis operand of add gives a result quantized along the same dimension: rows [1, 2] + 1
// quantized by 0.5 (row 0) and 0.25 (row 1).
func.func @add_per_axis() {
  %sa = stablehlo.constant dense<[[2, 4], [4, 8]]> : tensor<2x2xi8>
  %sb = stablehlo.constant dense<1> : tensor<2x2xi8>
  %a = "stablehlo.bitcast_convert"(%sa) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  %b = "stablehlo.bitcast_convert"(%sb) : (tensor<2x2xi8>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  %r = "stablehlo.add"(%a, %b) : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>, tensor<2x2x!quant.uniform<i8:f32, 1.0>>) -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  %o = "stablehlo.bitcast_convert"(%r) : (tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<2x2xi8>
  check.expect_eq_const %o, dense<[[4, 6], [8, 12]]> : tensor<2x2xi8>
  func.return
}

// -----

// An f16 expressed type computes in f16: the scale 0.1 is 0.0999755859375, 3 * it rounds to
// 0.2998046875 and -5 * it (-0.4998779296875, a tie) to -0.5.
func.func @dequantize_f16() {
  %s = stablehlo.constant dense<[3, -5]> : tensor<2xi8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f16, 0.1>>
  %x = "stablehlo.uniform_dequantize"(%q) : (tensor<2x!quant.uniform<i8:f16, 0.1>>) -> tensor<2xf16>
  check.expect_eq_const %x, dense<[0.2998046875, -0.5]> : tensor<2xf16>
  func.return
}

// -----

// broadcast_in_dim of a per-axis dimension of size 1 repeats its one scale along the result's.
func.func @broadcast_per_axis() {
  %s = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<1x2xi8>) -> tensor<1x2x!quant.uniform<i8:f32:0, {0.5:1}>>
  %b = "stablehlo.broadcast_in_dim"(%q) {broadcast_dimensions = array<i64: 1, 0>} : (tensor<1x2x!quant.uniform<i8:f32:0, {0.5:1}>>) -> tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.5:1, 0.5:1}>>
  %o = "stablehlo.bitcast_convert"(%b) : (tensor<2x3x!quant.uniform<i8:f32:1, {0.5:1, 0.5:1, 0.5:1}>>) -> tensor<2x3xi8>
  check.expect_eq_const %o, dense<[[1, 1, 1], [2, 2, 2]]> : tensor<2x3xi8>
  func.return
}

// -----

// A convolution's rhs quantized along its output features (with zero points, which convolution
// allows): kernels [1, -2] ((5 - 1) / 4, (-7 - 1) / 4) and [1, 2] over [1, 2, 3] give [-3, -4] and
// [5, 8], quantized by 0.125 and 0.25 along the result's features.
func.func @convolution_per_axis() {
  %sl = stablehlo.constant dense<[[[2], [4], [6]]]> : tensor<1x3x1xi8>
  %sr = stablehlo.constant dense<[[[5, 2]], [[-7, 4]]]> : tensor<2x1x2xi8>
  %l = "stablehlo.bitcast_convert"(%sl) : (tensor<1x3x1xi8>) -> tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>
  %r = "stablehlo.bitcast_convert"(%sr) : (tensor<2x1x2xi8>) -> tensor<2x1x2x!quant.uniform<i8:f32:2, {0.25:1, 0.5}>>
  %c = "stablehlo.convolution"(%l, %r) {dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x3x1x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x2x!quant.uniform<i8:f32:2, {0.25:1, 0.5}>>) -> tensor<1x2x2x!quant.uniform<i32:f32:2, {0.125, 0.25}>>
  %o = "stablehlo.bitcast_convert"(%c) : (tensor<1x2x2x!quant.uniform<i32:f32:2, {0.125, 0.25}>>) -> tensor<1x2x2xi32>
  check.expect_eq_const %o, dense<[[[-24, 20], [-32, 32]]]> : tensor<1x2x2xi32>
  func.return
}

// -----

// A while loop carries a quantized value; its body adds it to itself (values [1, 2] doubled three
// times: [8, 16], stored at 0.5).
func.func @while_loop() {
  %s = stablehlo.constant dense<[2, 4]> : tensor<2xi8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<2xi8>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  %n = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %n, %v = %q) : tensor<i32>, tensor<2x!quant.uniform<i8:f32, 0.5>>
    cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %w = "stablehlo.add"(%v, %v) : (tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x!quant.uniform<i8:f32, 0.5>>
      stablehlo.return %j, %w : tensor<i32>, tensor<2x!quant.uniform<i8:f32, 0.5>>
    }
  %o = "stablehlo.bitcast_convert"(%r#1) : (tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xi8>
  check.expect_eq_const %o, dense<[16, 32]> : tensor<2xi8>
  func.return
}

// -----

// Wide storage types: values beyond the range clamp to storage_min/max exactly (2^63 - 1, 2^31 - 1
// and 2^32 - 1 are not f32 values), NaN, which no integer stands for, gives the zero point.
func.func @quantize_wide_storage() {
  %x = stablehlo.constant dense<[1.0e30, -1.0e30, 0x7FC00000, 3.0]> : tensor<4xf32>
  %a = "stablehlo.uniform_quantize"(%x) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i64:f32, 1.0:5>>
  %sa = "stablehlo.bitcast_convert"(%a) : (tensor<4x!quant.uniform<i64:f32, 1.0:5>>) -> tensor<4xi64>
  check.expect_eq_const %sa, dense<[9223372036854775807, -9223372036854775808, 5, 8]> : tensor<4xi64>
  %b = "stablehlo.uniform_quantize"(%x) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i32:f32, 1.0>>
  %sb = "stablehlo.bitcast_convert"(%b) : (tensor<4x!quant.uniform<i32:f32, 1.0>>) -> tensor<4xi32>
  check.expect_eq_const %sb, dense<[2147483647, -2147483648, 0, 3]> : tensor<4xi32>
  %c = "stablehlo.uniform_quantize"(%x) : (tensor<4xf32>) -> tensor<4x!quant.uniform<u32:f32, 1.0>>
  %sc = "stablehlo.bitcast_convert"(%c) : (tensor<4x!quant.uniform<u32:f32, 1.0>>) -> tensor<4xui32>
  check.expect_eq_const %sc, dense<[4294967295, 0, 0, 3]> : tensor<4xui32>
  func.return
}

// -----

// clamp with quantized scalar bounds of another scale: [-4, 0.5, 3, 6] clamped to [-1, 3].
func.func @clamp_scalar_bounds() {
  %s = stablehlo.constant dense<[-8, 1, 6, 12]> : tensor<4xi8>
  %x = "stablehlo.bitcast_convert"(%s) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %lo_s = stablehlo.constant dense<-1> : tensor<i8>
  %hi_s = stablehlo.constant dense<3> : tensor<i8>
  %lo = "stablehlo.bitcast_convert"(%lo_s) : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 1.0>>
  %hi = "stablehlo.bitcast_convert"(%hi_s) : (tensor<i8>) -> tensor<!quant.uniform<i8:f32, 1.0>>
  %c = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<!quant.uniform<i8:f32, 1.0>>, tensor<4x!quant.uniform<i8:f32, 0.5>>, tensor<!quant.uniform<i8:f32, 1.0>>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %o = "stablehlo.bitcast_convert"(%c) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8>
  check.expect_eq_const %o, dense<[-2, 1, 6, 6]> : tensor<4xi8>
  func.return
}

// -----

// A per-axis reshape keeps the quantized dimension in place: 2x3 along 0 to 2x1x3 along 0.
func.func @reshape_per_axis() {
  %s = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %q = "stablehlo.bitcast_convert"(%s) : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  %r = "stablehlo.reshape"(%q) : (tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<2x1x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  %o = "stablehlo.bitcast_convert"(%r) : (tensor<2x1x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>) -> tensor<2x1x3xi8>
  check.expect_eq_const %o, dense<[[[1, 2, 3]], [[4, 5, 6]]]> : tensor<2x1x3xi8>
  func.return
}

// Floating-point edge cases: NaN propagation of maximum/minimum, signed zeros (checked through
// bitcast_convert, since expect_eq equates -0 and +0), IEEE division and remainder, domain
// errors, rounding ops, sign, the is_finite / is_inf family, next_after and reduce_precision.
module @float_edges {
  func.func public @main() -> tensor<4xf32> {
    %a = stablehlo.constant dense<[0x7FC00000, 1.0, 0xFF800000, 2.0]> : tensor<4xf32>
    %b = stablehlo.constant dense<[1.0, 0x7FC00000, 3.0, 2.0]> : tensor<4xf32>
    %max = stablehlo.maximum %a, %b : tensor<4xf32>
    %e_max = stablehlo.constant dense<[0x7FC00000, 0x7FC00000, 3.0, 2.0]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%max, %e_max) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %min = stablehlo.minimum %a, %b : tensor<4xf32>
    %e_min = stablehlo.constant dense<[0x7FC00000, 0x7FC00000, 0xFF800000, 2.0]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%min, %e_min) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %za = stablehlo.constant dense<[-0.0, 0.0]> : tensor<2xf32>
    %zb = stablehlo.constant dense<[0.0, -0.0]> : tensor<2xf32>
    %zmax = stablehlo.maximum %za, %zb : tensor<2xf32>
    %zmax_bits = stablehlo.bitcast_convert %zmax : (tensor<2xf32>) -> tensor<2xi32>
    %e_zmax = stablehlo.constant dense<[0, 0]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%zmax_bits, %e_zmax) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
    %zmin = stablehlo.minimum %za, %zb : tensor<2xf32>
    %zmin_bits = stablehlo.bitcast_convert %zmin : (tensor<2xf32>) -> tensor<2xi32>
    %e_zmin = stablehlo.constant dense<[-2147483648, -2147483648]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%zmin_bits, %e_zmin) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
    %d64a = stablehlo.constant dense<[0x7FF8000000000000, 1.0, -0.0]> : tensor<3xf64>
    %d64b = stablehlo.constant dense<[1.0, 0x7FF8000000000000, 0.0]> : tensor<3xf64>
    %max64 = stablehlo.maximum %d64a, %d64b : tensor<3xf64>
    %e_max64 = stablehlo.constant dense<[0x7FF8000000000000, 0x7FF8000000000000, 0.0]> : tensor<3xf64>
    stablehlo.custom_call @check.expect_eq(%max64, %e_max64) {has_side_effect = true} : (tensor<3xf64>, tensor<3xf64>) -> ()

    %n = stablehlo.constant dense<[1.0, -1.0, 0.0, 1.0]> : tensor<4xf32>
    %d = stablehlo.constant dense<[0.0, 0.0, 0.0, 0x7F800000]> : tensor<4xf32>
    %div = stablehlo.divide %n, %d : tensor<4xf32>
    %e_div = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x7FC00000, 0.0]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%div, %e_div) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %ra = stablehlo.constant dense<[5.5, -5.5, 5.5, 1.0, 0x7F800000, 1.0]> : tensor<6xf32>
    %rb = stablehlo.constant dense<[2.0, 2.0, -2.0, 0.0, 1.0, 0x7F800000]> : tensor<6xf32>
    %rem = stablehlo.remainder %ra, %rb : tensor<6xf32>
    %e_rem = stablehlo.constant dense<[1.5, -1.5, 1.5, 0x7FC00000, 0x7FC00000, 1.0]> : tensor<6xf32>
    stablehlo.custom_call @check.expect_eq(%rem, %e_rem) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()
    %r64a = stablehlo.constant dense<[1.0e300, -7.0]> : tensor<2xf64>
    %r64b = stablehlo.constant dense<[3.0, 0.5]> : tensor<2xf64>
    %rem64 = stablehlo.remainder %r64a, %r64b : tensor<2xf64>
    %e_rem64 = stablehlo.constant dense<[0.0, -0.0]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_eq(%rem64, %e_rem64) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()

    %q = stablehlo.constant dense<[-1.0, 4.0, 0x7F800000, -0.0]> : tensor<4xf32>
    %sqrt = stablehlo.sqrt %q : tensor<4xf32>
    %e_sqrt = stablehlo.constant dense<[0x7FC00000, 2.0, 0x7F800000, -0.0]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%sqrt, %e_sqrt) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %rsqrt = stablehlo.rsqrt %q : tensor<4xf32>
    %e_rsqrt = stablehlo.constant dense<[0x7FC00000, 0.5, 0.0, 0xFF800000]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%rsqrt, %e_rsqrt) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %l = stablehlo.constant dense<[0.0, -1.0, 1.0, 0x7F800000]> : tensor<4xf32>
    %log = stablehlo.log %l : tensor<4xf32>
    %e_log = stablehlo.constant dense<[0xFF800000, 0x7FC00000, 0.0, 0x7F800000]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%log, %e_log) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %ex = stablehlo.constant dense<[0xFF800000, 0x7F800000, 0.0, 1000.0]> : tensor<4xf32>
    %exp = stablehlo.exponential %ex : tensor<4xf32>
    %e_exp = stablehlo.constant dense<[0.0, 0x7F800000, 1.0, 0x7F800000]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%exp, %e_exp) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %tiny = stablehlo.constant dense<[1.0e-10, -1.0e-10]> : tensor<2xf64>
    %expm1 = stablehlo.exponential_minus_one %tiny : tensor<2xf64>
    %e_expm1 = stablehlo.constant dense<[1.00000000005e-10, -9.9999999995e-11]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_close(%expm1, %e_expm1) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    %log1p = stablehlo.log_plus_one %tiny : tensor<2xf64>
    %e_log1p = stablehlo.constant dense<[9.9999999995e-11, -1.00000000005e-10]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_close(%log1p, %e_log1p) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    %lg = stablehlo.constant dense<[0.0, 1000.0, -1000.0]> : tensor<3xf32>
    %logistic = stablehlo.logistic %lg : tensor<3xf32>
    %e_logistic = stablehlo.constant dense<[0.5, 1.0, 0.0]> : tensor<3xf32>
    stablehlo.custom_call @check.expect_eq(%logistic, %e_logistic) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    %cb = stablehlo.constant dense<[-8.0, 27.0, 0.0]> : tensor<3xf32>
    %cbrt = stablehlo.cbrt %cb : tensor<3xf32>
    %e_cbrt = stablehlo.constant dense<[-2.0, 3.0, 0.0]> : tensor<3xf32>
    stablehlo.custom_call @check.expect_eq(%cbrt, %e_cbrt) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    %th = stablehlo.constant dense<[0x7FF0000000000000, 0xFFF0000000000000, 0.5]> : tensor<3xf64>
    %tanh = stablehlo.tanh %th : tensor<3xf64>
    %e_tanh = stablehlo.constant dense<[1.0, -1.0, 0.46211715726000974]> : tensor<3xf64>
    stablehlo.custom_call @check.expect_close(%tanh, %e_tanh) {has_side_effect = true} : (tensor<3xf64>, tensor<3xf64>) -> ()
    %ay = stablehlo.constant dense<[0.0, 1.0, -1.0, 0.0]> : tensor<4xf32>
    %ax = stablehlo.constant dense<[1.0, 0.0, 0.0, -1.0]> : tensor<4xf32>
    %atan2 = stablehlo.atan2 %ay, %ax : tensor<4xf32>
    %e_atan2 = stablehlo.constant dense<[0.0, 1.57079637, -1.57079637, 3.14159274]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_close(%atan2, %e_atan2) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %pa = stablehlo.constant dense<[0.0, 0x7FC00000, 1.0, -8.0, 2.0, -2.0]> : tensor<6xf32>
    %pb = stablehlo.constant dense<[0.0, 0.0, 0x7FC00000, 0.333333343, -1.0, 3.0]> : tensor<6xf32>
    %pow = stablehlo.power %pa, %pb : tensor<6xf32>
    %e_pow = stablehlo.constant dense<[1.0, 1.0, 1.0, 0x7FC00000, 0.5, -8.0]> : tensor<6xf32>
    stablehlo.custom_call @check.expect_eq(%pow, %e_pow) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()

    %rd = stablehlo.constant dense<[0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.49999976, 0.49999997, 8388609.0]> : tensor<9xf32>
    %even = stablehlo.round_nearest_even %rd : tensor<9xf32>
    %e_even = stablehlo.constant dense<[0.0, 2.0, 2.0, -0.0, -2.0, -2.0, 2.0, 0.0, 8388609.0]> : tensor<9xf32>
    stablehlo.custom_call @check.expect_eq(%even, %e_even) {has_side_effect = true} : (tensor<9xf32>, tensor<9xf32>) -> ()
    %even_bits = stablehlo.bitcast_convert %even : (tensor<9xf32>) -> tensor<9xi32>
    %neg_zero_bits = "stablehlo.slice"(%even_bits) <{start_indices = array<i64: 3>, limit_indices = array<i64: 4>, strides = array<i64: 1>}> : (tensor<9xi32>) -> tensor<1xi32>
    %e_neg_zero_bits = stablehlo.constant dense<[-2147483648]> : tensor<1xi32>
    stablehlo.custom_call @check.expect_eq(%neg_zero_bits, %e_neg_zero_bits) {has_side_effect = true} : (tensor<1xi32>, tensor<1xi32>) -> ()
    %afz = stablehlo.round_nearest_afz %rd : tensor<9xf32>
    %e_afz = stablehlo.constant dense<[1.0, 2.0, 3.0, -1.0, -2.0, -3.0, 2.0, 0.0, 8388609.0]> : tensor<9xf32>
    stablehlo.custom_call @check.expect_eq(%afz, %e_afz) {has_side_effect = true} : (tensor<9xf32>, tensor<9xf32>) -> ()
    %fl = stablehlo.constant dense<[-0.5, 1.5, -1.0, 0x7FF8000000000000]> : tensor<4xf64>
    %floor = stablehlo.floor %fl : tensor<4xf64>
    %e_floor = stablehlo.constant dense<[-1.0, 1.0, -1.0, 0x7FF8000000000000]> : tensor<4xf64>
    stablehlo.custom_call @check.expect_eq(%floor, %e_floor) {has_side_effect = true} : (tensor<4xf64>, tensor<4xf64>) -> ()
    %ceil = stablehlo.ceil %fl : tensor<4xf64>
    %e_ceil = stablehlo.constant dense<[-0.0, 2.0, -1.0, 0x7FF8000000000000]> : tensor<4xf64>
    stablehlo.custom_call @check.expect_eq(%ceil, %e_ceil) {has_side_effect = true} : (tensor<4xf64>, tensor<4xf64>) -> ()
    %sg = stablehlo.constant dense<[-3.0, 0.0, 5.0, 0x7FC00000, 0xFF800000, -0.0]> : tensor<6xf32>
    %sign = stablehlo.sign %sg : tensor<6xf32>
    %e_sign = stablehlo.constant dense<[-1.0, 0.0, 1.0, 0x7FC00000, -1.0, -0.0]> : tensor<6xf32>
    stablehlo.custom_call @check.expect_eq(%sign, %e_sign) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()
    %sign_bits = stablehlo.bitcast_convert %sign : (tensor<6xf32>) -> tensor<6xi32>
    %neg_sign_bits = "stablehlo.slice"(%sign_bits) <{start_indices = array<i64: 5>, limit_indices = array<i64: 6>, strides = array<i64: 1>}> : (tensor<6xi32>) -> tensor<1xi32>
    stablehlo.custom_call @check.expect_eq(%neg_sign_bits, %e_neg_zero_bits) {has_side_effect = true} : (tensor<1xi32>, tensor<1xi32>) -> ()

    %cls = stablehlo.constant dense<[1.0, 0x7F800000, 0xFF800000, 0x7FC00000]> : tensor<4xf32>
    %fin = stablehlo.is_finite %cls : (tensor<4xf32>) -> tensor<4xi1>
    %e_fin = stablehlo.constant dense<[true, false, false, false]> : tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%fin, %e_fin) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()
    %inf = "chlo.is_inf"(%cls) : (tensor<4xf32>) -> tensor<4xi1>
    %e_inf = stablehlo.constant dense<[false, true, true, false]> : tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%inf, %e_inf) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()
    %pinf = "chlo.is_pos_inf"(%cls) : (tensor<4xf32>) -> tensor<4xi1>
    %e_pinf = stablehlo.constant dense<[false, true, false, false]> : tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%pinf, %e_pinf) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()
    %ninf = "chlo.is_neg_inf"(%cls) : (tensor<4xf32>) -> tensor<4xi1>
    %e_ninf = stablehlo.constant dense<[false, false, true, false]> : tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%ninf, %e_ninf) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()

    %nx = stablehlo.constant dense<[1.0, 1.0, 0.0, 0.0, -0.0, 0x7FC00000, 1.0, -1.0]> : tensor<8xf32>
    %ny = stablehlo.constant dense<[2.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, -2.0]> : tensor<8xf32>
    %next = "chlo.next_after"(%nx, %ny) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %e_next = stablehlo.constant dense<[0x3F800001, 0x3F7FFFFF, 0x00000001, 0x80000001, 0.0, 0x7FC00000, 1.0, 0xBF800001]> : tensor<8xf32>
    stablehlo.custom_call @check.expect_eq(%next, %e_next) {has_side_effect = true} : (tensor<8xf32>, tensor<8xf32>) -> ()
    %hx = stablehlo.constant dense<[1.0, 0.0, 65504.0]> : tensor<3xf16>
    %hy = stablehlo.constant dense<[2.0, -1.0, 0x7C00]> : tensor<3xf16>
    %hnext = "chlo.next_after"(%hx, %hy) : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
    %e_hnext = stablehlo.constant dense<[0x3C01, 0x8001, 0x7C00]> : tensor<3xf16>
    stablehlo.custom_call @check.expect_eq(%hnext, %e_hnext) {has_side_effect = true} : (tensor<3xf16>, tensor<3xf16>) -> ()

    %rp = stablehlo.constant dense<[1.00390625, 1.01171875, 3.4e38, 1.0e-40, 0x7FC00000]> : tensor<5xf32>
    %bf = "stablehlo.reduce_precision"(%rp) <{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}> : (tensor<5xf32>) -> tensor<5xf32>
    %e_bf = stablehlo.constant dense<[1.0, 1.015625, 0x7F800000, 0x00010000, 0x7FC00000]> : tensor<5xf32>
    stablehlo.custom_call @check.expect_eq(%bf, %e_bf) {has_side_effect = true} : (tensor<5xf32>, tensor<5xf32>) -> ()
    %rh = stablehlo.constant dense<[1.0, 65504.0, 65520.0, 1.0e-5, 6.10351563e-05, 0x7FC00000]> : tensor<6xf32>
    %hf = "stablehlo.reduce_precision"(%rh) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<6xf32>) -> tensor<6xf32>
    %e_hf = stablehlo.constant dense<[1.0, 65504.0, 0x7F800000, 0.0, 6.10351563e-05, 0x7FC00000]> : tensor<6xf32>
    stablehlo.custom_call @check.expect_eq(%hf, %e_hf) {has_side_effect = true} : (tensor<6xf32>, tensor<6xf32>) -> ()
    return %max : tensor<4xf32>
  }
}

// reduce_precision on each standard float type, as StableHLO's reference interpreter defines it:
// the mantissa rounded to nearest, ties to even (a carry may raise the exponent, up to infinity),
// then exponents above the reduced range become infinity and those at or below its bottom zero,
// keeping the sign; NaN stays NaN while a mantissa bit is left, else becomes +infinity. Expected
// bits are worked out by hand and compared through bitcast_convert, so that -0 and NaNs count.
module {
  func.func @main() {
    // f64 kept whole (the attributes at or above f64's own widths, up to 64).
    %a = stablehlo.constant dense<[1.1, -0.0, 0x7FF0000000000000, 0x7FF8000000000001]> : tensor<4xf64>
    %a1 = stablehlo.reduce_precision %a, format = e11m52 : tensor<4xf64>
    %a2 = "stablehlo.reduce_precision"(%a) <{exponent_bits = 64 : i32, mantissa_bits = 64 : i32}> : (tensor<4xf64>) -> tensor<4xf64>
    %ab = stablehlo.bitcast_convert %a : (tensor<4xf64>) -> tensor<4xi64>
    %a1b = stablehlo.bitcast_convert %a1 : (tensor<4xf64>) -> tensor<4xi64>
    %a2b = stablehlo.bitcast_convert %a2 : (tensor<4xf64>) -> tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%a1b, %ab) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()
    stablehlo.custom_call @check.expect_eq(%a2b, %ab) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()

    // f64 to one mantissa bit: 1.25 and -1.25 tie down to the even 1.0, 1.75 ties up to 2.0 (a carry
    // into the exponent), 1.375 rounds to the nearer 1.5.
    %b = stablehlo.constant dense<[1.25, 1.75, 1.375, -1.25]> : tensor<4xf64>
    %b1 = stablehlo.reduce_precision %b, format = e11m1 : tensor<4xf64>
    %b1b = stablehlo.bitcast_convert %b1 : (tensor<4xf64>) -> tensor<4xi64>
    %eb = stablehlo.constant dense<[0x3FF0000000000000, 0x4000000000000000, 0x3FF8000000000000, 0xBFF0000000000000]> : tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%b1b, %eb) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()

    // No mantissa bit left: powers of two (1.5 and 3.0 are ties: 1.5 to 2.0, 3.0 to 2.0, the even
    // exponent); a NaN of either sign becomes +infinity.
    %c = stablehlo.constant dense<[1.5, 3.0, 0x7FF8000000000000, 0xFFF8000000000000]> : tensor<4xf64>
    %c1 = stablehlo.reduce_precision %c, format = e11m0 : tensor<4xf64>
    %c1b = stablehlo.bitcast_convert %c1 : (tensor<4xf64>) -> tensor<4xi64>
    %ec = stablehlo.constant dense<[0x4000000000000000, 0x4000000000000000, 0x7FF0000000000000, 0x7FF0000000000000]> : tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%c1b, %ec) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()

    // f32 to f16's exponent range with the mantissa kept: 2^16 and -1e10 overflow to signed
    // infinities, 65535 (below 2^16) stays, 2^-14 (f16's smallest normal) stays, 2^-15 flushes to -0.
    %d = stablehlo.constant dense<[65536.0, -1.0e10, 65535.0, 6.103515625e-05, -3.0517578125e-05]> : tensor<5xf32>
    %d1 = stablehlo.reduce_precision %d, format = e5m23 : tensor<5xf32>
    %d1b = stablehlo.bitcast_convert %d1 : (tensor<5xf32>) -> tensor<5xi32>
    %ed = stablehlo.constant dense<[0x7F800000, 0xFF800000, 0x477FFF00, 0x38800000, 0x80000000]> : tensor<5xi32>
    stablehlo.custom_call @check.expect_eq(%d1b, %ed) {has_side_effect = true} : (tensor<5xi32>, tensor<5xi32>) -> ()

    // One exponent bit: only the exponent of 1.0 is in range, and it is the bottom: all zero or
    // infinite.
    %e = stablehlo.constant dense<[1.5, 2.0, -0.5, -4.0]> : tensor<4xf32>
    %e1 = stablehlo.reduce_precision %e, format = e1m23 : tensor<4xf32>
    %e1b = stablehlo.bitcast_convert %e1 : (tensor<4xf32>) -> tensor<4xi32>
    %ee = stablehlo.constant dense<[0x00000000, 0x7F800000, 0x80000000, 0xFF800000]> : tensor<4xi32>
    stablehlo.custom_call @check.expect_eq(%e1b, %ee) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()

    // f16 to two mantissa bits: 1.375 ties up to the even 1.5, 65504 rounds up into infinity, a NaN
    // keeps its payload, -0 stays -0.
    %f = stablehlo.constant dense<[0x3D80, 0x7BFF, 0x7E01, 0x8000]> : tensor<4xf16>
    %f1 = stablehlo.reduce_precision %f, format = e5m2 : tensor<4xf16>
    %f1b = stablehlo.bitcast_convert %f1 : (tensor<4xf16>) -> tensor<4xi16>
    %ef = stablehlo.constant dense<[0x3E00, 0x7C00, 0x7E01, 0x8000]> : tensor<4xi16>
    stablehlo.custom_call @check.expect_eq(%f1b, %ef) {has_side_effect = true} : (tensor<4xi16>, tensor<4xi16>) -> ()

    // bf16 to four exponent bits (bias 7): 256 and -300 overflow, 128 stays, 2^-7 flushes to zero,
    // 2^-6 stays.
    %g = stablehlo.constant dense<[0x4380, 0xC396, 0x4300, 0x3C00, 0x3C80]> : tensor<5xbf16>
    %g1 = stablehlo.reduce_precision %g, format = e4m7 : tensor<5xbf16>
    %g1b = stablehlo.bitcast_convert %g1 : (tensor<5xbf16>) -> tensor<5xi16>
    %eg = stablehlo.constant dense<[0x7F80, 0xFF80, 0x4300, 0x0000, 0x3C80]> : tensor<5xi16>
    stablehlo.custom_call @check.expect_eq(%g1b, %eg) {has_side_effect = true} : (tensor<5xi16>, tensor<5xi16>) -> ()
    func.return
  }
}

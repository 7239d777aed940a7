// f16 and bf16 arithmetic: computed in f32 and rounded to nearest even, with overflow to infinity,
// ties to even and results in the subnormal range.
module @half {
  func.func public @main() -> tensor<3xf16> {
    %a = stablehlo.constant dense<[65504.0, 2048.0, 0.0999755859375]> : tensor<3xf16>
    %b = stablehlo.constant dense<[16.0, 1.0, 0.199951171875]> : tensor<3xf16>
    %add = stablehlo.add %a, %b : tensor<3xf16>
    %e_add = stablehlo.constant dense<[0x7C00, 2048.0, 0.2998046875]> : tensor<3xf16>
    stablehlo.custom_call @check.expect_eq(%add, %e_add) {has_side_effect = true} : (tensor<3xf16>, tensor<3xf16>) -> ()
    %m = stablehlo.constant dense<[300.0, 0.0010004043579101562, -2.0]> : tensor<3xf16>
    %mul = stablehlo.multiply %m, %m : tensor<3xf16>
    %e_mul = stablehlo.constant dense<[0x7C00, 1.0132789611816406e-06, 4.0]> : tensor<3xf16>
    stablehlo.custom_call @check.expect_eq(%mul, %e_mul) {has_side_effect = true} : (tensor<3xf16>, tensor<3xf16>) -> ()
    %hm = stablehlo.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf16>
    %hexp = stablehlo.exponential %hm : tensor<3xf16>
    %e_hexp = stablehlo.constant dense<[2.71875, 7.390625, 1.6484375]> : tensor<3xf16>
    stablehlo.custom_call @check.expect_close(%hexp, %e_hexp) {has_side_effect = true} : (tensor<3xf16>, tensor<3xf16>) -> ()
    %hsqrt = stablehlo.sqrt %b : tensor<3xf16>
    %e_hsqrt = stablehlo.constant dense<[4.0, 1.0, 0.447265625]> : tensor<3xf16>
    stablehlo.custom_call @check.expect_close(%hsqrt, %e_hsqrt) {has_side_effect = true} : (tensor<3xf16>, tensor<3xf16>) -> ()
    %hmax = stablehlo.maximum %a, %b : tensor<3xf16>
    %e_hmax = stablehlo.constant dense<[65504.0, 2048.0, 0.199951171875]> : tensor<3xf16>
    stablehlo.custom_call @check.expect_eq(%hmax, %e_hmax) {has_side_effect = true} : (tensor<3xf16>, tensor<3xf16>) -> ()
    %hlt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xi1>
    %e_hlt = stablehlo.constant dense<[false, false, true]> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%hlt, %e_hlt) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()

    %x = stablehlo.constant dense<[1.0, 256.0, 3.0e38, 1.0]> : tensor<4xbf16>
    %y = stablehlo.constant dense<[0.00390625, 1.0, 3.0e38, 3.0]> : tensor<4xbf16>
    %badd = stablehlo.add %x, %y : tensor<4xbf16>
    %e_badd = stablehlo.constant dense<[1.0, 256.0, 0x7F80, 4.0]> : tensor<4xbf16>
    stablehlo.custom_call @check.expect_eq(%badd, %e_badd) {has_side_effect = true} : (tensor<4xbf16>, tensor<4xbf16>) -> ()
    %bdiv = stablehlo.divide %x, %y : tensor<4xbf16>
    %bdiv_last = "stablehlo.slice"(%bdiv) <{start_indices = array<i64: 3>, limit_indices = array<i64: 4>, strides = array<i64: 1>}> : (tensor<4xbf16>) -> tensor<1xbf16>
    %e_bdiv = stablehlo.constant dense<[0.333984375]> : tensor<1xbf16>
    stablehlo.custom_call @check.expect_eq(%bdiv_last, %e_bdiv) {has_side_effect = true} : (tensor<1xbf16>, tensor<1xbf16>) -> ()
    %bl = stablehlo.constant dense<[3.0, 1.0]> : tensor<2xbf16>
    %blog = stablehlo.log %bl : tensor<2xbf16>
    %e_blog = stablehlo.constant dense<[1.1015625, 0.0]> : tensor<2xbf16>
    stablehlo.custom_call @check.expect_eq(%blog, %e_blog) {has_side_effect = true} : (tensor<2xbf16>, tensor<2xbf16>) -> ()
    %bneg = stablehlo.negate %bl : tensor<2xbf16>
    %e_bneg = stablehlo.constant dense<[-3.0, -1.0]> : tensor<2xbf16>
    stablehlo.custom_call @check.expect_eq(%bneg, %e_bneg) {has_side_effect = true} : (tensor<2xbf16>, tensor<2xbf16>) -> ()
    return %add : tensor<3xf16>
  }
}

// Integer arithmetic edge cases: wraparound, division and remainder by zero and of INT_MIN by -1,
// truncating division, unsigned division, power with negative exponents, abs/negate of INT_MIN,
// sign, and signed vs unsigned maximum/minimum.
module @int_arith {
  func.func public @main() -> tensor<6xi8> {
    %a = stablehlo.constant dense<[127, -128, 100, -7, 7, -128]> : tensor<6xi8>
    %b = stablehlo.constant dense<[1, -1, 100, 2, 0, -1]> : tensor<6xi8>
    %add = stablehlo.add %a, %b : tensor<6xi8>
    %e_add = stablehlo.constant dense<[-128, 127, -56, -5, 7, 127]> : tensor<6xi8>
    stablehlo.custom_call @check.expect_eq(%add, %e_add) {has_side_effect = true} : (tensor<6xi8>, tensor<6xi8>) -> ()
    %sub = stablehlo.subtract %a, %b : tensor<6xi8>
    %e_sub = stablehlo.constant dense<[126, -127, 0, -9, 7, -127]> : tensor<6xi8>
    stablehlo.custom_call @check.expect_eq(%sub, %e_sub) {has_side_effect = true} : (tensor<6xi8>, tensor<6xi8>) -> ()
    %mul = stablehlo.multiply %a, %b : tensor<6xi8>
    %e_mul = stablehlo.constant dense<[127, -128, 16, -14, 0, -128]> : tensor<6xi8>
    stablehlo.custom_call @check.expect_eq(%mul, %e_mul) {has_side_effect = true} : (tensor<6xi8>, tensor<6xi8>) -> ()
    %div = stablehlo.divide %a, %b : tensor<6xi8>
    %e_div = stablehlo.constant dense<[127, -128, 1, -3, -1, -128]> : tensor<6xi8>
    stablehlo.custom_call @check.expect_eq(%div, %e_div) {has_side_effect = true} : (tensor<6xi8>, tensor<6xi8>) -> ()
    %rem = stablehlo.remainder %a, %b : tensor<6xi8>
    %e_rem = stablehlo.constant dense<[0, 0, 0, -1, 7, 0]> : tensor<6xi8>
    stablehlo.custom_call @check.expect_eq(%rem, %e_rem) {has_side_effect = true} : (tensor<6xi8>, tensor<6xi8>) -> ()

    %a64 = stablehlo.constant dense<[-9223372036854775808, 9223372036854775807, 5, -5]> : tensor<4xi64>
    %b64 = stablehlo.constant dense<[-1, -1, 0, 0]> : tensor<4xi64>
    %div64 = stablehlo.divide %a64, %b64 : tensor<4xi64>
    %e_div64 = stablehlo.constant dense<[-9223372036854775808, -9223372036854775807, -1, -1]> : tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%div64, %e_div64) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()
    %rem64 = stablehlo.remainder %a64, %b64 : tensor<4xi64>
    %e_rem64 = stablehlo.constant dense<[0, 0, 5, -5]> : tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%rem64, %e_rem64) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()
    %one64 = stablehlo.constant dense<[1, 1, 1, 1]> : tensor<4xi64>
    %add64 = stablehlo.add %a64, %one64 : tensor<4xi64>
    %sub64 = stablehlo.subtract %add64, %one64 : tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%sub64, %a64) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()
    %e_add64 = stablehlo.constant dense<[-9223372036854775807, -9223372036854775808, 6, -4]> : tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%add64, %e_add64) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()

    %u = stablehlo.constant dense<[255, 200, 7, 0]> : tensor<4xui8>
    %v = stablehlo.constant dense<[0, 3, 2, 0]> : tensor<4xui8>
    %udiv = stablehlo.divide %u, %v : tensor<4xui8>
    %e_udiv = stablehlo.constant dense<[255, 66, 3, 255]> : tensor<4xui8>
    stablehlo.custom_call @check.expect_eq(%udiv, %e_udiv) {has_side_effect = true} : (tensor<4xui8>, tensor<4xui8>) -> ()
    %urem = stablehlo.remainder %u, %v : tensor<4xui8>
    %e_urem = stablehlo.constant dense<[255, 2, 1, 0]> : tensor<4xui8>
    stablehlo.custom_call @check.expect_eq(%urem, %e_urem) {has_side_effect = true} : (tensor<4xui8>, tensor<4xui8>) -> ()
    %u64 = stablehlo.constant dense<[18446744073709551615, 10]> : tensor<2xui64>
    %v64 = stablehlo.constant dense<[2, 0]> : tensor<2xui64>
    %udiv64 = stablehlo.divide %u64, %v64 : tensor<2xui64>
    %e_udiv64 = stablehlo.constant dense<[9223372036854775807, 18446744073709551615]> : tensor<2xui64>
    stablehlo.custom_call @check.expect_eq(%udiv64, %e_udiv64) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()
    %urem64 = stablehlo.remainder %u64, %v64 : tensor<2xui64>
    %e_urem64 = stablehlo.constant dense<[1, 10]> : tensor<2xui64>
    stablehlo.custom_call @check.expect_eq(%urem64, %e_urem64) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()
    %z32 = stablehlo.constant dense<[0, 5]> : tensor<2xui32>
    %o32 = stablehlo.constant dense<[1, 7]> : tensor<2xui32>
    %usub = stablehlo.subtract %z32, %o32 : tensor<2xui32>
    %e_usub = stablehlo.constant dense<[4294967295, 4294967294]> : tensor<2xui32>
    stablehlo.custom_call @check.expect_eq(%usub, %e_usub) {has_side_effect = true} : (tensor<2xui32>, tensor<2xui32>) -> ()

    %s = stablehlo.constant dense<[-128, -5, 0, 5]> : tensor<4xi8>
    %abs = stablehlo.abs %s : tensor<4xi8>
    %e_abs = stablehlo.constant dense<[-128, 5, 0, 5]> : tensor<4xi8>
    stablehlo.custom_call @check.expect_eq(%abs, %e_abs) {has_side_effect = true} : (tensor<4xi8>, tensor<4xi8>) -> ()
    %neg = stablehlo.negate %s : tensor<4xi8>
    %e_neg = stablehlo.constant dense<[-128, 5, 0, -5]> : tensor<4xi8>
    stablehlo.custom_call @check.expect_eq(%neg, %e_neg) {has_side_effect = true} : (tensor<4xi8>, tensor<4xi8>) -> ()
    %g = stablehlo.constant dense<[-7, 0, 9, -2147483648]> : tensor<4xi32>
    %sign = stablehlo.sign %g : tensor<4xi32>
    %e_sign = stablehlo.constant dense<[-1, 0, 1, -1]> : tensor<4xi32>
    stablehlo.custom_call @check.expect_eq(%sign, %e_sign) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()

    %pb = stablehlo.constant dense<[2, 2, -1, -1, -1, 1, 3, 0, 2, -2]> : tensor<10xi32>
    %pe = stablehlo.constant dense<[10, 31, 3, -3, -4, -5, -1, 0, 32, 31]> : tensor<10xi32>
    %pow = stablehlo.power %pb, %pe : tensor<10xi32>
    %e_pow = stablehlo.constant dense<[1024, -2147483648, -1, -1, 1, 1, 0, 1, 0, -2147483648]> : tensor<10xi32>
    stablehlo.custom_call @check.expect_eq(%pow, %e_pow) {has_side_effect = true} : (tensor<10xi32>, tensor<10xi32>) -> ()
    %ub = stablehlo.constant dense<[3, 2, 255]> : tensor<3xui8>
    %ue = stablehlo.constant dense<[5, 8, 2]> : tensor<3xui8>
    %upow = stablehlo.power %ub, %ue : tensor<3xui8>
    %e_upow = stablehlo.constant dense<[243, 0, 1]> : tensor<3xui8>
    stablehlo.custom_call @check.expect_eq(%upow, %e_upow) {has_side_effect = true} : (tensor<3xui8>, tensor<3xui8>) -> ()

    %m1 = stablehlo.constant dense<[-1, 5]> : tensor<2xi32>
    %m2 = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
    %max = stablehlo.maximum %m1, %m2 : tensor<2xi32>
    %e_max = stablehlo.constant dense<[1, 5]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%max, %e_max) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
    %n1 = stablehlo.constant dense<[4294967295, 5]> : tensor<2xui32>
    %n2 = stablehlo.constant dense<[1, 3]> : tensor<2xui32>
    %umax = stablehlo.maximum %n1, %n2 : tensor<2xui32>
    %e_umax = stablehlo.constant dense<[4294967295, 5]> : tensor<2xui32>
    stablehlo.custom_call @check.expect_eq(%umax, %e_umax) {has_side_effect = true} : (tensor<2xui32>, tensor<2xui32>) -> ()
    %umin = stablehlo.minimum %n1, %n2 : tensor<2xui32>
    %e_umin = stablehlo.constant dense<[1, 3]> : tensor<2xui32>
    stablehlo.custom_call @check.expect_eq(%umin, %e_umin) {has_side_effect = true} : (tensor<2xui32>, tensor<2xui32>) -> ()
    %q1 = stablehlo.constant dense<[-9223372036854775808, 3]> : tensor<2xi64>
    %q2 = stablehlo.constant dense<[9223372036854775807, -3]> : tensor<2xi64>
    %min64 = stablehlo.minimum %q1, %q2 : tensor<2xi64>
    %e_min64 = stablehlo.constant dense<[-9223372036854775808, -3]> : tensor<2xi64>
    stablehlo.custom_call @check.expect_eq(%min64, %e_min64) {has_side_effect = true} : (tensor<2xi64>, tensor<2xi64>) -> ()
    %i16a = stablehlo.constant dense<[32767, -32768, 300]> : tensor<3xi16>
    %i16b = stablehlo.constant dense<[2, 2, 300]> : tensor<3xi16>
    %mul16 = stablehlo.multiply %i16a, %i16b : tensor<3xi16>
    %e_mul16 = stablehlo.constant dense<[-2, 0, 24464]> : tensor<3xi16>
    stablehlo.custom_call @check.expect_eq(%mul16, %e_mul16) {has_side_effect = true} : (tensor<3xi16>, tensor<3xi16>) -> ()
    return %add : tensor<6xi8>
  }
}

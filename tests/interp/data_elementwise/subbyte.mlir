// Sub-byte integer types (stored one element per byte, sign- or zero-extended): wraparound within
// the element width, bit counts over the width, shifts, and conversions to and from them.
module @subbyte {
  func.func public @main() -> tensor<3xi4> {
    %a = stablehlo.constant dense<[7, -8, 5]> : tensor<3xi4>
    %b = stablehlo.constant dense<[1, -1, 5]> : tensor<3xi4>
    %add = stablehlo.add %a, %b : tensor<3xi4>
    %e_add = stablehlo.constant dense<[-8, 7, -6]> : tensor<3xi4>
    stablehlo.custom_call @check.expect_eq(%add, %e_add) {has_side_effect = true} : (tensor<3xi4>, tensor<3xi4>) -> ()
    %mul = stablehlo.multiply %a, %b : tensor<3xi4>
    %e_mul = stablehlo.constant dense<[7, -8, -7]> : tensor<3xi4>
    stablehlo.custom_call @check.expect_eq(%mul, %e_mul) {has_side_effect = true} : (tensor<3xi4>, tensor<3xi4>) -> ()
    %div = stablehlo.divide %a, %b : tensor<3xi4>
    %e_div = stablehlo.constant dense<[7, -8, 1]> : tensor<3xi4>
    stablehlo.custom_call @check.expect_eq(%div, %e_div) {has_side_effect = true} : (tensor<3xi4>, tensor<3xi4>) -> ()
    %u = stablehlo.constant dense<[15, 8, 3]> : tensor<3xui4>
    %v = stablehlo.constant dense<[1, 8, 4]> : tensor<3xui4>
    %uadd = stablehlo.add %u, %v : tensor<3xui4>
    %e_uadd = stablehlo.constant dense<[0, 0, 7]> : tensor<3xui4>
    stablehlo.custom_call @check.expect_eq(%uadd, %e_uadd) {has_side_effect = true} : (tensor<3xui4>, tensor<3xui4>) -> ()
    %usub = stablehlo.subtract %v, %u : tensor<3xui4>
    %e_usub = stablehlo.constant dense<[2, 0, 1]> : tensor<3xui4>
    stablehlo.custom_call @check.expect_eq(%usub, %e_usub) {has_side_effect = true} : (tensor<3xui4>, tensor<3xui4>) -> ()
    %c = stablehlo.constant dense<[-1, 7, 1, 0]> : tensor<4xi4>
    %pop = stablehlo.popcnt %c : tensor<4xi4>
    %e_pop = stablehlo.constant dense<[4, 3, 1, 0]> : tensor<4xi4>
    stablehlo.custom_call @check.expect_eq(%pop, %e_pop) {has_side_effect = true} : (tensor<4xi4>, tensor<4xi4>) -> ()
    %clz = stablehlo.count_leading_zeros %c : tensor<4xi4>
    %e_clz = stablehlo.constant dense<[0, 1, 3, 4]> : tensor<4xi4>
    stablehlo.custom_call @check.expect_eq(%clz, %e_clz) {has_side_effect = true} : (tensor<4xi4>, tensor<4xi4>) -> ()
    %sx = stablehlo.constant dense<[1, 1, -8, -8]> : tensor<4xi4>
    %ss = stablehlo.constant dense<[3, 4, 2, 1]> : tensor<4xi4>
    %shl = stablehlo.shift_left %sx, %ss : tensor<4xi4>
    %e_shl = stablehlo.constant dense<[-8, 0, 0, 0]> : tensor<4xi4>
    stablehlo.custom_call @check.expect_eq(%shl, %e_shl) {has_side_effect = true} : (tensor<4xi4>, tensor<4xi4>) -> ()
    %shra = stablehlo.shift_right_arithmetic %sx, %ss : tensor<4xi4>
    %e_shra = stablehlo.constant dense<[0, 0, -2, -4]> : tensor<4xi4>
    stablehlo.custom_call @check.expect_eq(%shra, %e_shra) {has_side_effect = true} : (tensor<4xi4>, tensor<4xi4>) -> ()
    %shrl = stablehlo.shift_right_logical %sx, %ss : tensor<4xi4>
    %e_shrl = stablehlo.constant dense<[0, 0, 2, 4]> : tensor<4xi4>
    stablehlo.custom_call @check.expect_eq(%shrl, %e_shrl) {has_side_effect = true} : (tensor<4xi4>, tensor<4xi4>) -> ()
    %i2a = stablehlo.constant dense<[1, -2]> : tensor<2xi2>
    %i2b = stablehlo.constant dense<[1, -1]> : tensor<2xi2>
    %i2add = stablehlo.add %i2a, %i2b : tensor<2xi2>
    %e_i2add = stablehlo.constant dense<[-2, 1]> : tensor<2xi2>
    stablehlo.custom_call @check.expect_eq(%i2add, %e_i2add) {has_side_effect = true} : (tensor<2xi2>, tensor<2xi2>) -> ()
    %u2a = stablehlo.constant dense<[3, 2]> : tensor<2xui2>
    %u2b = stablehlo.constant dense<[1, 3]> : tensor<2xui2>
    %u2mul = stablehlo.multiply %u2a, %u2b : tensor<2xui2>
    %e_u2mul = stablehlo.constant dense<[3, 2]> : tensor<2xui2>
    stablehlo.custom_call @check.expect_eq(%u2mul, %e_u2mul) {has_side_effect = true} : (tensor<2xui2>, tensor<2xui2>) -> ()

    %w = stablehlo.convert %a : (tensor<3xi4>) -> tensor<3xi8>
    %e_w = stablehlo.constant dense<[7, -8, 5]> : tensor<3xi8>
    stablehlo.custom_call @check.expect_eq(%w, %e_w) {has_side_effect = true} : (tensor<3xi8>, tensor<3xi8>) -> ()
    %n8 = stablehlo.constant dense<[8, -9, 15, 16]> : tensor<4xi8>
    %n = stablehlo.convert %n8 : (tensor<4xi8>) -> tensor<4xi4>
    %e_n = stablehlo.constant dense<[-8, 7, -1, 0]> : tensor<4xi4>
    stablehlo.custom_call @check.expect_eq(%n, %e_n) {has_side_effect = true} : (tensor<4xi4>, tensor<4xi4>) -> ()
    %un = stablehlo.convert %n8 : (tensor<4xi8>) -> tensor<4xui4>
    %e_un = stablehlo.constant dense<[8, 7, 15, 0]> : tensor<4xui4>
    stablehlo.custom_call @check.expect_eq(%un, %e_un) {has_side_effect = true} : (tensor<4xui4>, tensor<4xui4>) -> ()
    %uw = stablehlo.convert %u : (tensor<3xui4>) -> tensor<3xi32>
    %e_uw = stablehlo.constant dense<[15, 8, 3]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%uw, %e_uw) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    %fl = stablehlo.constant dense<[100.0, -100.0, 3.7, -3.7]> : tensor<4xf32>
    %fi4 = stablehlo.convert %fl : (tensor<4xf32>) -> tensor<4xi4>
    %e_fi4 = stablehlo.constant dense<[7, -8, 3, -3]> : tensor<4xi4>
    stablehlo.custom_call @check.expect_eq(%fi4, %e_fi4) {has_side_effect = true} : (tensor<4xi4>, tensor<4xi4>) -> ()
    %fu4 = stablehlo.convert %fl : (tensor<4xf32>) -> tensor<4xui4>
    %e_fu4 = stablehlo.constant dense<[15, 0, 3, 0]> : tensor<4xui4>
    stablehlo.custom_call @check.expect_eq(%fu4, %e_fu4) {has_side_effect = true} : (tensor<4xui4>, tensor<4xui4>) -> ()
    %i4f = stablehlo.convert %a : (tensor<3xi4>) -> tensor<3xf16>
    %e_i4f = stablehlo.constant dense<[7.0, -8.0, 5.0]> : tensor<3xf16>
    stablehlo.custom_call @check.expect_eq(%i4f, %e_i4f) {has_side_effect = true} : (tensor<3xf16>, tensor<3xf16>) -> ()

    %nib = stablehlo.constant dense<[[1, 15], [0, 7]]> : tensor<2x2xui4>
    %packed = stablehlo.bitcast_convert %nib : (tensor<2x2xui4>) -> tensor<2xui8>
    %e_packed = stablehlo.constant dense<[241, 112]> : tensor<2xui8>
    stablehlo.custom_call @check.expect_eq(%packed, %e_packed) {has_side_effect = true} : (tensor<2xui8>, tensor<2xui8>) -> ()
    %byte = stablehlo.constant dense<[127, -128]> : tensor<2xi8>
    %split = stablehlo.bitcast_convert %byte : (tensor<2xi8>) -> tensor<2x2xi4>
    %e_split = stablehlo.constant dense<[[-1, 7], [0, -8]]> : tensor<2x2xi4>
    stablehlo.custom_call @check.expect_eq(%split, %e_split) {has_side_effect = true} : (tensor<2x2xi4>, tensor<2x2xi4>) -> ()
    return %add : tensor<3xi4>
  }
}

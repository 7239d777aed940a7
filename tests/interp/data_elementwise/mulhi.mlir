// chlo.mulhi: the high half of the double-width product, signed and unsigned, at every integer
// width: INT_MIN squared, INT_MIN * -1 and * INT_MAX, -1 * 1 (high half all ones), the unsigned
// maximum squared, and sub-byte types. Both the generic and the pretty form are parsed.
module @mulhi {
  func.func public @main() -> tensor<4xi64> {
    %a8 = stablehlo.constant dense<[-128, -128, -1, 3, 64]> : tensor<5xi8>
    %b8 = stablehlo.constant dense<[-128, 127, 1, -5, 4]> : tensor<5xi8>
    %r8 = "chlo.mulhi"(%a8, %b8) : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
    %e8 = stablehlo.constant dense<[64, -64, -1, -1, 1]> : tensor<5xi8>
    stablehlo.custom_call @check.expect_eq(%r8, %e8) {has_side_effect = true} : (tensor<5xi8>, tensor<5xi8>) -> ()
    %au8 = stablehlo.constant dense<[255, 128, 1]> : tensor<3xui8>
    %ru8 = chlo.mulhi %au8, %au8 : tensor<3xui8>, tensor<3xui8> -> tensor<3xui8>
    %eu8 = stablehlo.constant dense<[254, 64, 0]> : tensor<3xui8>
    stablehlo.custom_call @check.expect_eq(%ru8, %eu8) {has_side_effect = true} : (tensor<3xui8>, tensor<3xui8>) -> ()
    %a4 = stablehlo.constant dense<[-8, 7, -8]> : tensor<3xi4>
    %b4 = stablehlo.constant dense<[-8, 7, 7]> : tensor<3xi4>
    %r4 = "chlo.mulhi"(%a4, %b4) : (tensor<3xi4>, tensor<3xi4>) -> tensor<3xi4>
    %e4 = stablehlo.constant dense<[4, 3, -4]> : tensor<3xi4>
    stablehlo.custom_call @check.expect_eq(%r4, %e4) {has_side_effect = true} : (tensor<3xi4>, tensor<3xi4>) -> ()
    %au4 = stablehlo.constant dense<[15, 8]> : tensor<2xui4>
    %ru4 = "chlo.mulhi"(%au4, %au4) : (tensor<2xui4>, tensor<2xui4>) -> tensor<2xui4>
    %eu4 = stablehlo.constant dense<[14, 4]> : tensor<2xui4>
    stablehlo.custom_call @check.expect_eq(%ru4, %eu4) {has_side_effect = true} : (tensor<2xui4>, tensor<2xui4>) -> ()
    %a32 = stablehlo.constant dense<[-2147483648, -2147483648, -1]> : tensor<3xi32>
    %b32 = stablehlo.constant dense<[-2147483648, 2147483647, 1]> : tensor<3xi32>
    %r32 = "chlo.mulhi"(%a32, %b32) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %e32 = stablehlo.constant dense<[1073741824, -1073741824, -1]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%r32, %e32) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    %au32 = stablehlo.constant dense<[4294967295]> : tensor<1xui32>
    %ru32 = "chlo.mulhi"(%au32, %au32) : (tensor<1xui32>, tensor<1xui32>) -> tensor<1xui32>
    %eu32 = stablehlo.constant dense<[4294967294]> : tensor<1xui32>
    stablehlo.custom_call @check.expect_eq(%ru32, %eu32) {has_side_effect = true} : (tensor<1xui32>, tensor<1xui32>) -> ()
    %au64 = stablehlo.constant dense<[18446744073709551615, 4294967296]> : tensor<2xui64>
    %bu64 = stablehlo.constant dense<[18446744073709551615, 4294967296]> : tensor<2xui64>
    %ru64 = "chlo.mulhi"(%au64, %bu64) : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xui64>
    %eu64 = stablehlo.constant dense<[18446744073709551614, 1]> : tensor<2xui64>
    stablehlo.custom_call @check.expect_eq(%ru64, %eu64) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()
    %a64 = stablehlo.constant dense<[-9223372036854775808, -9223372036854775808, -9223372036854775808, 1152921504606846976]> : tensor<4xi64>
    %b64 = stablehlo.constant dense<[-9223372036854775808, -1, 9223372036854775807, -16]> : tensor<4xi64>
    %r64 = "chlo.mulhi"(%a64, %b64) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
    %e64 = stablehlo.constant dense<[4611686018427387904, 0, -4611686018427387904, -1]> : tensor<4xi64>
    stablehlo.custom_call @check.expect_eq(%r64, %e64) {has_side_effect = true} : (tensor<4xi64>, tensor<4xi64>) -> ()
    return %r64 : tensor<4xi64>
  }
}

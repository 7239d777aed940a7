// Elementwise ops on tensors with zero elements produce empty results without touching memory.
module @empty {
  func.func public @main() -> tensor<0xf32> {
    %a = stablehlo.constant dense<> : tensor<0xf32>
    %add = stablehlo.add %a, %a : tensor<0xf32>
    stablehlo.custom_call @check.expect_eq(%add, %a) {has_side_effect = true} : (tensor<0xf32>, tensor<0xf32>) -> ()
    %exp = stablehlo.exponential %a : tensor<0xf32>
    stablehlo.custom_call @check.expect_eq(%exp, %a) {has_side_effect = true} : (tensor<0xf32>, tensor<0xf32>) -> ()
    %i = stablehlo.convert %a : (tensor<0xf32>) -> tensor<0xi32>
    %ei = stablehlo.constant dense<> : tensor<0xi32>
    stablehlo.custom_call @check.expect_eq(%i, %ei) {has_side_effect = true} : (tensor<0xi32>, tensor<0xi32>) -> ()
    %c = stablehlo.compare LT, %a, %a, FLOAT : (tensor<0xf32>, tensor<0xf32>) -> tensor<0xi1>
    %ec = stablehlo.constant dense<> : tensor<0xi1>
    stablehlo.custom_call @check.expect_eq(%c, %ec) {has_side_effect = true} : (tensor<0xi1>, tensor<0xi1>) -> ()
    %s = stablehlo.select %c, %a, %add : tensor<0xi1>, tensor<0xf32>
    stablehlo.custom_call @check.expect_eq(%s, %a) {has_side_effect = true} : (tensor<0xf32>, tensor<0xf32>) -> ()
    %m = stablehlo.constant dense<> : tensor<3x0xf32>
    %bits = stablehlo.bitcast_convert %m : (tensor<3x0xf32>) -> tensor<3x0x4xi8>
    %eb = stablehlo.constant dense<> : tensor<3x0x4xi8>
    stablehlo.custom_call @check.expect_eq(%bits, %eb) {has_side_effect = true} : (tensor<3x0x4xi8>, tensor<3x0x4xi8>) -> ()
    %lo = stablehlo.constant dense<0.0> : tensor<f32>
    %cl = stablehlo.clamp %lo, %a, %lo : (tensor<f32>, tensor<0xf32>, tensor<f32>) -> tensor<0xf32>
    stablehlo.custom_call @check.expect_eq(%cl, %a) {has_side_effect = true} : (tensor<0xf32>, tensor<0xf32>) -> ()
    %z = stablehlo.complex %a, %a : tensor<0xcomplex<f32>>
    %ez = stablehlo.constant dense<> : tensor<0xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%z, %ez) {has_side_effect = true} : (tensor<0xcomplex<f32>>, tensor<0xcomplex<f32>>) -> ()
    return %add : tensor<0xf32>
  }
}

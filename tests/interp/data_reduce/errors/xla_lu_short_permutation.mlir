// ERROR: result 2 (the permutation) must hold 3 elements of i32
module {
  func.func @main() {
    %a = stablehlo.constant dense<1.0> : tensor<3x3xf32>
    %lu:3 = stablehlo.custom_call @LuDecomposition(%a) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<2xi32>)
    return
  }
}

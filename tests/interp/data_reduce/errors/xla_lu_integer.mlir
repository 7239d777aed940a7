// ERROR: the matrix has element type i32
module {
  func.func @main() {
    %a = stablehlo.constant dense<1> : tensor<2x2xi32>
    %lu:3 = stablehlo.custom_call @LuDecomposition(%a) : (tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>)
    return
  }
}

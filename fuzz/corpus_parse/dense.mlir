func.func @main() -> (tensor<2x2xcomplex<f32>>, tensor<3xbf16>, tensor<2xi1>, tensor<2xui64>) {
  %0 = stablehlo.constant dense<[[(1.0, -2.0), (0x7FC00000, inf)], [(0.0, 0.0), (-1.5e+00, 2.0)]]> : tensor<2x2xcomplex<f32>>
  %1 = stablehlo.constant dense<"0x803F0040C03F"> : tensor<3xbf16>
  %2 = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %3 = stablehlo.constant dense<[18446744073709551615, 0]> : tensor<2xui64>
  %4 = stablehlo.iota dim = 0 : tensor<4xi32>
  %5 = stablehlo.slice %4 [1:4:2] : (tensor<4xi32>) -> tensor<2xi32>
  return %0, %1, %2, %3 : tensor<2x2xcomplex<f32>>, tensor<3xbf16>, tensor<2xi1>, tensor<2xui64>
}

module @narrow {
  func.func public @main(%x: tensor<4xf32>) -> (tensor<4xf8E4M3FN>, tensor<2xf4E2M1FN>, tensor<4xtf32>) {
    %a = stablehlo.constant dense<[0x7F, 1.0, -0.0, 448.0]> : tensor<4xf8E4M3FN>
    %b = stablehlo.constant dense<[0x7C, -57344.0, 1.5e-5, 0xFF]> : tensor<4xf8E5M2>
    %c = stablehlo.constant dense<[0x80, 240.0, -1.0, 0.0]> : tensor<4xf8E4M3FNUZ>
    %d = stablehlo.constant dense<[0x80, 57344.0, 2.0, 0.5]> : tensor<4xf8E5M2FNUZ>
    %e = stablehlo.constant dense<[30.0, -0.125, 0x7F, 0x01]> : tensor<4xf8E4M3B11FNUZ>
    %f = stablehlo.constant dense<[15.5, 0x78, -0.0625, 0x01]> : tensor<4xf8E3M4>
    %g = stablehlo.constant dense<[240.0, 0x78, 0x7C, -2.0]> : tensor<4xf8E4M3>
    %h = stablehlo.constant dense<[0xFF, 0x00, 1.0, 0xFE]> : tensor<4xf8E8M0FNU>
    %i = stablehlo.constant dense<[6.0, -0.5]> : tensor<2xf4E2M1FN>
    %j = stablehlo.constant dense<[7.5, 0x3F]> : tensor<2xf6E2M3FN>
    %k = stablehlo.constant dense<[28.0, 0x20]> : tensor<2xf6E3M2FN>
    %l = stablehlo.constant dense<[0x3FC00, 1.0]> : tensor<2xtf32>
    %m = stablehlo.constant dense<[1, -2]> : tensor<2xi2>
    %n = stablehlo.constant dense<[3, 0]> : tensor<2xui2>
    %o = stablehlo.constant dense<7> : tensor<ui4>
    %p = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
    %q = stablehlo.add %p, %a : tensor<4xf8E4M3FN>
    %r = stablehlo.reduce_precision %q, format = e2m1 : tensor<4xf8E4M3FN>
    %s = stablehlo.bitcast_convert %i : (tensor<2xf4E2M1FN>) -> tensor<2xui4>
    %t = stablehlo.bitcast_convert %m : (tensor<2xi2>) -> tensor<2xui2>
    %u = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xtf32>
    %v = stablehlo.compare LT, %r, %a, TOTALORDER : (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> tensor<4xi1>
    return %r, %i, %u : tensor<4xf8E4M3FN>, tensor<2xf4E2M1FN>, tensor<4xtf32>
  }
}

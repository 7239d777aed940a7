// stablehlo.reduce edge cases: empty reductions, identity reductions, non-identity inits,
// variadic bodies, integer wraparound and per-step rounding of 16-bit floats.
module {
  func.func @main() {
    // Reducing an empty dimension yields the init value.
    %empty = stablehlo.iota dim = 0 : tensor<0x3xf32>
    %five = stablehlo.constant dense<5.0> : tensor<f32>
    %r0 = stablehlo.reduce(%empty init: %five) applies stablehlo.add across dimensions = [0] : (tensor<0x3xf32>, tensor<f32>) -> tensor<3xf32>
    %e0 = stablehlo.constant dense<5.0> : tensor<3xf32>
    stablehlo.custom_call @check.expect_eq(%r0, %e0) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()

    // No reduced dimensions: every element is combined with the init value once.
    %x = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
    %ten = stablehlo.constant dense<10> : tensor<i32>
    %r1 = stablehlo.reduce(%x init: %ten) applies stablehlo.add across dimensions = [] : (tensor<2x3xi32>, tensor<i32>) -> tensor<2x3xi32>
    %e1 = stablehlo.constant dense<[[11, 12, 13], [14, 15, 16]]> : tensor<2x3xi32>
    stablehlo.custom_call @check.expect_eq(%r1, %e1) {has_side_effect = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()

    // A non-identity init enters once per result element; all dimensions reduced to a scalar.
    %r2 = stablehlo.reduce(%x init: %ten) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xi32>, tensor<i32>) -> tensor<i32>
    %e2 = stablehlo.constant dense<31> : tensor<i32>
    stablehlo.custom_call @check.expect_eq(%r2, %e2) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()

    // Middle and outer dimensions of a 3-D tensor, with a non-commutative body (subtract).
    %y = stablehlo.iota dim = 1 : tensor<2x3x2xi64>
    %zero64 = stablehlo.constant dense<0> : tensor<i64>
    %r3 = stablehlo.reduce(%y init: %zero64) applies stablehlo.add across dimensions = [1] : (tensor<2x3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
    %e3 = stablehlo.constant dense<3> : tensor<2x2xi64>
    stablehlo.custom_call @check.expect_eq(%r3, %e3) {has_side_effect = true} : (tensor<2x2xi64>, tensor<2x2xi64>) -> ()
    %w = stablehlo.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf64>
    %hundred = stablehlo.constant dense<100.0> : tensor<f64>
    %r4 = stablehlo.reduce(%w init: %hundred) across dimensions = [0] : (tensor<3xf64>, tensor<f64>) -> tensor<f64>
     reducer(%a: tensor<f64>, %b: tensor<f64>) {
      %d = stablehlo.subtract %a, %b : tensor<f64>
      stablehlo.return %d : tensor<f64>
    }
    // ((100 - 1) - 2) - 4: the accumulator is the first body argument.
    %e4 = stablehlo.constant dense<93.0> : tensor<f64>
    stablehlo.custom_call @check.expect_eq(%r4, %e4) {has_side_effect = true} : (tensor<f64>, tensor<f64>) -> ()

    // Integer sums wrap around.
    %i8s = stablehlo.constant dense<[100, 100, 100]> : tensor<3xi8>
    %zero8 = stablehlo.constant dense<0> : tensor<i8>
    %r5 = stablehlo.reduce(%i8s init: %zero8) applies stablehlo.add across dimensions = [0] : (tensor<3xi8>, tensor<i8>) -> tensor<i8>
    %e5 = stablehlo.constant dense<44> : tensor<i8>
    stablehlo.custom_call @check.expect_eq(%r5, %e5) {has_side_effect = true} : (tensor<i8>, tensor<i8>) -> ()
    %u8s = stablehlo.constant dense<[200, 100]> : tensor<2xui8>
    %one8 = stablehlo.constant dense<1> : tensor<ui8>
    %r6 = stablehlo.reduce(%u8s init: %one8) applies stablehlo.multiply across dimensions = [0] : (tensor<2xui8>, tensor<ui8>) -> tensor<ui8>
    %e6 = stablehlo.constant dense<32> : tensor<ui8>
    stablehlo.custom_call @check.expect_eq(%r6, %e6) {has_side_effect = true} : (tensor<ui8>, tensor<ui8>) -> ()

    // bf16 sums are rounded after every addition, as XLA:CPU does: 1 + 2^-8 rounds back to 1
    // each time (a tie to even), where an f32 accumulator would give 1.015625.
    %b = stablehlo.constant dense<[1.0, 0.00390625, 0.00390625, 0.00390625, 0.00390625]> : tensor<5xbf16>
    %zb = stablehlo.constant dense<0.0> : tensor<bf16>
    %r7 = stablehlo.reduce(%b init: %zb) applies stablehlo.add across dimensions = [0] : (tensor<5xbf16>, tensor<bf16>) -> tensor<bf16>
    %e7 = stablehlo.constant dense<1.0> : tensor<bf16>
    stablehlo.custom_call @check.expect_eq(%r7, %e7) {has_side_effect = true} : (tensor<bf16>, tensor<bf16>) -> ()

    // Variadic reduce (argmax with ties resolved to the lower index), over the last dimension.
    %v = stablehlo.constant dense<[[3.0, 7.0, 7.0, 1.0], [0xFF800000, -2.0, -1.0, -1.0]]> : tensor<2x4xf32>
    %vi = stablehlo.iota dim = 1 : tensor<2x4xi32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %z32 = stablehlo.constant dense<0> : tensor<i32>
    %r8:2 = stablehlo.reduce(%v init: %ninf), (%vi init: %z32) across dimensions = [1] : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
     reducer(%a1: tensor<f32>, %b1: tensor<f32>) (%a2: tensor<i32>, %b2: tensor<i32>) {
      %gt = stablehlo.compare  GT, %a1, %b1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %eq = stablehlo.compare  EQ, %a1, %b1,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare  LT, %a2, %b2,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %pick = stablehlo.or %gt, %tie : tensor<i1>
      %m = stablehlo.select %pick, %a1, %b1 : tensor<i1>, tensor<f32>
      %i = stablehlo.select %pick, %a2, %b2 : tensor<i1>, tensor<i32>
      stablehlo.return %m, %i : tensor<f32>, tensor<i32>
    }
    %e8v = stablehlo.constant dense<[7.0, -1.0]> : tensor<2xf32>
    %e8i = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_eq(%r8#0, %e8v) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%r8#1, %e8i) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()

    // Complex products and boolean reductions.
    %c = stablehlo.constant dense<[(1.0, 1.0), (1.0, -1.0), (0.0, 2.0)]> : tensor<3xcomplex<f32>>
    %c1 = stablehlo.constant dense<(1.0, 0.0)> : tensor<complex<f32>>
    %r9 = stablehlo.reduce(%c init: %c1) applies stablehlo.multiply across dimensions = [0] : (tensor<3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    %e9 = stablehlo.constant dense<(0.0, 4.0)> : tensor<complex<f32>>
    stablehlo.custom_call @check.expect_eq(%r9, %e9) {has_side_effect = true} : (tensor<complex<f32>>, tensor<complex<f32>>) -> ()
    %p = stablehlo.constant dense<[[true, false], [true, true]]> : tensor<2x2xi1>
    %t = stablehlo.constant dense<true> : tensor<i1>
    %r10 = stablehlo.reduce(%p init: %t) applies stablehlo.and across dimensions = [1] : (tensor<2x2xi1>, tensor<i1>) -> tensor<2xi1>
    %e10 = stablehlo.constant dense<[false, true]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%r10, %e10) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()
    func.return
  }
}

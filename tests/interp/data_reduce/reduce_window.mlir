// stablehlo.reduce_window: strides, base and window dilations, padding (which takes the init
// value and is folded like any element, per the spec), variadic bodies and empty results.
module {
  func.func @main() {
    // The spec's example.
    %x = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi64>
    %z = stablehlo.constant dense<0> : tensor<i64>
    %r0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 1>, window_strides = array<i64: 4, 1>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 3, 1>, padding = dense<[[2, 1], [0, 0]]> : tensor<2x2xi64>}> ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %s = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %s : tensor<i64>
    }) : (tensor<3x2xi64>, tensor<i64>) -> tensor<2x2xi64>
    %e0 = stablehlo.constant dense<[[0, 0], [3, 4]]> : tensor<2x2xi64>
    stablehlo.custom_call @check.expect_eq(%r0, %e0) {has_side_effect = true} : (tensor<2x2xi64>, tensor<2x2xi64>) -> ()

    // Padding positions hold the init value: with init 1 every window of 2 over [1, 1, 2, 3, 1]
    // (the padded input) also adds the init once more.
    %v = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %r1 = "stablehlo.reduce_window"(%v, %one) <{window_dimensions = array<i64: 2>, padding = dense<[[1, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<3xi32>, tensor<i32>) -> tensor<4xi32>
    %e1 = stablehlo.constant dense<[3, 4, 6, 5]> : tensor<4xi32>
    stablehlo.custom_call @check.expect_eq(%r1, %e1) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()

    // 2x2 max pooling with stride 2 and a generic (non single-op) body.
    %img = stablehlo.constant dense<[[1.0, 5.0, 2.0, 0.0], [3.0, -1.0, 8.0, 7.0], [0.5, 0.25, -3.0, -4.0], [2.0, 1.0, -2.0, -5.0]]> : tensor<4x4xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %r2 = "stablehlo.reduce_window"(%img, %ninf) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %gt = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %m = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
      stablehlo.return %m : tensor<f32>
    }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
    %e2 = stablehlo.constant dense<[[5.0, 8.0], [2.0, -2.0]]> : tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%r2, %e2) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()

    // Variadic: running max with its index over windows of 3 (window dilation 2) of a vector.
    %d = stablehlo.constant dense<[4, 9, 1, 7, 3, 8, 2]> : tensor<7xi32>
    %di = stablehlo.iota dim = 0 : tensor<7xi32>
    %min = stablehlo.constant dense<-2147483648> : tensor<i32>
    %neg = stablehlo.constant dense<-1> : tensor<i32>
    %r3:2 = "stablehlo.reduce_window"(%d, %di, %min, %neg) <{window_dimensions = array<i64: 3>, window_dilations = array<i64: 2>}> ({
    ^bb0(%a: tensor<i32>, %ai: tensor<i32>, %b: tensor<i32>, %bi: tensor<i32>):
      %ge = stablehlo.compare  GE, %a, %b,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %m = stablehlo.select %ge, %a, %b : tensor<i1>, tensor<i32>
      %mi = stablehlo.select %ge, %ai, %bi : tensor<i1>, tensor<i32>
      stablehlo.return %m, %mi : tensor<i32>, tensor<i32>
    }) : (tensor<7xi32>, tensor<7xi32>, tensor<i32>, tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>)
    %e3 = stablehlo.constant dense<[4, 9, 3]> : tensor<3xi32>
    %e3i = stablehlo.constant dense<[0, 1, 4]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%r3#0, %e3) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%r3#1, %e3i) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()

    // A window larger than the (padded) input gives an empty result.
    %r4 = "stablehlo.reduce_window"(%v, %one) <{window_dimensions = array<i64: 4>}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<3xi32>, tensor<i32>) -> tensor<0xi32>
    %e4 = stablehlo.iota dim = 0 : tensor<0xi32>
    stablehlo.custom_call @check.expect_eq(%r4, %e4) {has_side_effect = true} : (tensor<0xi32>, tensor<0xi32>) -> ()

    // Negative padding crops; base dilation holes take the init value too (multiply by 2 each).
    %q = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>
    %two = stablehlo.constant dense<2.0> : tensor<f64>
    %r5 = "stablehlo.reduce_window"(%q, %two) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>, base_dilations = array<i64: 2>, padding = dense<[[-1, 0]]> : tensor<1x2xi64>}> ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %s = stablehlo.multiply %a, %b : tensor<f64>
      stablehlo.return %s : tensor<f64>
    }) : (tensor<4xf64>, tensor<f64>) -> tensor<3xf64>
    // Dilated input: [1, h, 2, h, 3, h, 4] with holes h = 2; cropped by one: [h, 2, h, 3, h, 4].
    %e5 = stablehlo.constant dense<[8.0, 12.0, 16.0]> : tensor<3xf64>
    stablehlo.custom_call @check.expect_eq(%r5, %e5) {has_side_effect = true} : (tensor<3xf64>, tensor<3xf64>) -> ()
    func.return
  }
}

// Complex arithmetic and math: products, quotients (also by zero), modulus, exp/log/sqrt branch
// cuts with signed zeros, sign, power with 0^0, lexicographic maximum/minimum, and the part ops.
module @complex {
  func.func public @main() -> tensor<2xcomplex<f64>> {
    %a = stablehlo.constant dense<[(1.0, 2.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
    %b = stablehlo.constant dense<[(3.0, 4.0), (3.0, -4.0)]> : tensor<2xcomplex<f64>>
    %add = stablehlo.add %a, %b : tensor<2xcomplex<f64>>
    %e_add = stablehlo.constant dense<[(4.0, 6.0), (6.0, -8.0)]> : tensor<2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%add, %e_add) {has_side_effect = true} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
    %mul = stablehlo.multiply %a, %b : tensor<2xcomplex<f64>>
    %e_mul = stablehlo.constant dense<[(-5.0, 10.0), (-7.0, -24.0)]> : tensor<2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%mul, %e_mul) {has_side_effect = true} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
    %div = stablehlo.divide %mul, %b : tensor<2xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%div, %a) {has_side_effect = true} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
    %one = stablehlo.constant dense<[(1.0, 0.0)]> : tensor<1xcomplex<f64>>
    %zero = stablehlo.constant dense<[(0.0, 0.0)]> : tensor<1xcomplex<f64>>
    %dz = stablehlo.divide %one, %zero : tensor<1xcomplex<f64>>
    %dz_re = stablehlo.real %dz : (tensor<1xcomplex<f64>>) -> tensor<1xf64>
    %e_dz_re = stablehlo.constant dense<[0x7FF0000000000000]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_eq(%dz_re, %e_dz_re) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %abs = stablehlo.abs %b : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
    %e_abs = stablehlo.constant dense<[5.0, 5.0]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_eq(%abs, %e_abs) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    %huge = stablehlo.constant dense<[(3.0e37, 4.0e37)]> : tensor<1xcomplex<f32>>
    %habs = stablehlo.abs %huge : (tensor<1xcomplex<f32>>) -> tensor<1xf32>
    %e_habs = stablehlo.constant dense<[5.0e37]> : tensor<1xf32>
    stablehlo.custom_call @check.expect_close(%habs, %e_habs) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()

    %ipi = stablehlo.constant dense<[(0.0, 3.141592653589793), (1.0, 0.0)]> : tensor<2xcomplex<f64>>
    %exp = stablehlo.exponential %ipi : tensor<2xcomplex<f64>>
    %e_exp = stablehlo.constant dense<[(-1.0, 1.2246467991473532e-16), (2.718281828459045, 0.0)]> : tensor<2xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%exp, %e_exp) {has_side_effect = true} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
    %lg = stablehlo.constant dense<[(-1.0, 0.0), (-1.0, -0.0), (0.0, 0.0)]> : tensor<3xcomplex<f64>>
    %log = stablehlo.log %lg : tensor<3xcomplex<f64>>
    %e_log = stablehlo.constant dense<[(0.0, 3.141592653589793), (0.0, -3.141592653589793), (0xFFF0000000000000, 0.0)]> : tensor<3xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%log, %e_log) {has_side_effect = true} : (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> ()
    %sq = stablehlo.constant dense<[(-4.0, 0.0), (-4.0, -0.0), (3.0, 4.0)]> : tensor<3xcomplex<f64>>
    %sqrt = stablehlo.sqrt %sq : tensor<3xcomplex<f64>>
    %e_sqrt = stablehlo.constant dense<[(0.0, 2.0), (0.0, -2.0), (2.0, 1.0)]> : tensor<3xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%sqrt, %e_sqrt) {has_side_effect = true} : (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> ()
    %rsqrt = stablehlo.rsqrt %sq : tensor<3xcomplex<f64>>
    %e_rsqrt = stablehlo.constant dense<[(0.0, -0.5), (0.0, 0.5), (0.4, -0.2)]> : tensor<3xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%rsqrt, %e_rsqrt) {has_side_effect = true} : (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> ()
    %sg = stablehlo.constant dense<[(3.0, 4.0), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
    %sign = stablehlo.sign %sg : tensor<2xcomplex<f32>>
    %e_sign = stablehlo.constant dense<[(0.6, 0.8), (0.0, 0.0)]> : tensor<2xcomplex<f32>>
    stablehlo.custom_call @check.expect_close(%sign, %e_sign) {has_side_effect = true} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> ()
    %pa = stablehlo.constant dense<[(0.0, 0.0), (0.0, 0.0), (1.0, 1.0), (-1.0, 0.0)]> : tensor<4xcomplex<f64>>
    %pb = stablehlo.constant dense<[(0.0, 0.0), (2.0, 0.0), (2.0, 0.0), (0.5, 0.0)]> : tensor<4xcomplex<f64>>
    %pow = stablehlo.power %pa, %pb : tensor<4xcomplex<f64>>
    %e_pow = stablehlo.constant dense<[(1.0, 0.0), (0.0, 0.0), (0.0, 2.0), (0.0, 1.0)]> : tensor<4xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%pow, %e_pow) {has_side_effect = true} : (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) -> ()
    %ma = stablehlo.constant dense<[(1.0, 5.0), (2.0, 0.0)]> : tensor<2xcomplex<f32>>
    %mb = stablehlo.constant dense<[(1.0, 6.0), (1.0, 9.0)]> : tensor<2xcomplex<f32>>
    %max = stablehlo.maximum %ma, %mb : tensor<2xcomplex<f32>>
    %e_max = stablehlo.constant dense<[(1.0, 6.0), (2.0, 0.0)]> : tensor<2xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%max, %e_max) {has_side_effect = true} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> ()
    %min = stablehlo.minimum %ma, %mb : tensor<2xcomplex<f32>>
    %e_min = stablehlo.constant dense<[(1.0, 5.0), (1.0, 9.0)]> : tensor<2xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%min, %e_min) {has_side_effect = true} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> ()
    %tiny = stablehlo.constant dense<[(1.0e-20, 1.0e-20)]> : tensor<1xcomplex<f64>>
    %expm1 = stablehlo.exponential_minus_one %tiny : tensor<1xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%expm1, %tiny) {has_side_effect = true} : (tensor<1xcomplex<f64>>, tensor<1xcomplex<f64>>) -> ()
    %log1p = stablehlo.log_plus_one %tiny : tensor<1xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%log1p, %tiny) {has_side_effect = true} : (tensor<1xcomplex<f64>>, tensor<1xcomplex<f64>>) -> ()
    %y = stablehlo.constant dense<[(1.0, 0.0)]> : tensor<1xcomplex<f64>>
    %atan2 = stablehlo.atan2 %y, %y : tensor<1xcomplex<f64>>
    %e_atan2 = stablehlo.constant dense<[(0.7853981633974483, 0.0)]> : tensor<1xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%atan2, %e_atan2) {has_side_effect = true} : (tensor<1xcomplex<f64>>, tensor<1xcomplex<f64>>) -> ()
    %neg = stablehlo.negate %ma : tensor<2xcomplex<f32>>
    %e_neg = stablehlo.constant dense<[(-1.0, -5.0), (-2.0, -0.0)]> : tensor<2xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%neg, %e_neg) {has_side_effect = true} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> ()

    %re = stablehlo.real %ma : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %e_re = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%re, %e_re) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %im = stablehlo.imag %ma : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %e_im = stablehlo.constant dense<[5.0, 0.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%im, %e_im) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %rr = stablehlo.real %e_im : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%rr, %e_im) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %ri = stablehlo.imag %e_im : (tensor<2xf32>) -> tensor<2xf32>
    %zeros = stablehlo.constant dense<0.0> : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%ri, %zeros) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %re64 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
    %im64 = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf64>
    %cplx = stablehlo.complex %re64, %im64 : tensor<2xcomplex<f64>>
    %e_cplx = stablehlo.constant dense<[(1.0, 3.0), (2.0, 4.0)]> : tensor<2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%cplx, %e_cplx) {has_side_effect = true} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
    %conj = "chlo.conj"(%ma) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
    %e_conj = stablehlo.constant dense<[(1.0, -5.0), (2.0, 0.0)]> : tensor<2xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%conj, %e_conj) {has_side_effect = true} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> ()
    %csq = "chlo.square"(%a) : (tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
    %e_csq = stablehlo.constant dense<[(-3.0, 4.0), (-7.0, -24.0)]> : tensor<2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%csq, %e_csq) {has_side_effect = true} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
    return %add : tensor<2xcomplex<f64>>
  }
}

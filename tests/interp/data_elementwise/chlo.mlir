// chlo special functions and elementary functions, with values at poles and outside the domain:
// erf_inv, lgamma, digamma, polygamma, zeta, bessel_i1e, erf, erfc, and the trigonometric and
// hyperbolic functions and their inverses.
module @chlo {
  func.func public @main() -> tensor<6xf64> {
    %ei = stablehlo.constant dense<[0.5, -0.999, 0.0, 1.0, -1.0, 2.0]> : tensor<6xf64>
    %erf_inv = chlo.erf_inv %ei : tensor<6xf64> -> tensor<6xf64>
    %e_erf_inv = stablehlo.constant dense<[0.47693627620446987, -2.3267537655135245, 0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<6xf64>
    stablehlo.custom_call @check.expect_close(%erf_inv, %e_erf_inv) {has_side_effect = true} : (tensor<6xf64>, tensor<6xf64>) -> ()
    %ei32 = stablehlo.constant dense<[0.5, -0.9]> : tensor<2xf32>
    %erf_inv32 = chlo.erf_inv %ei32 : tensor<2xf32> -> tensor<2xf32>
    %e_erf_inv32 = stablehlo.constant dense<[0.476936281, -1.16308715]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_close(%erf_inv32, %e_erf_inv32) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %lx = stablehlo.constant dense<[0.5, 1.0, 10.0, -0.5, -2.0]> : tensor<5xf64>
    %lgamma = chlo.lgamma %lx : tensor<5xf64> -> tensor<5xf64>
    %e_lgamma = stablehlo.constant dense<[0.5723649429247001, 0.0, 12.801827480081469, 1.2655121234846454, 0x7FF0000000000000]> : tensor<5xf64>
    stablehlo.custom_call @check.expect_close(%lgamma, %e_lgamma) {has_side_effect = true} : (tensor<5xf64>, tensor<5xf64>) -> ()
    %dx = stablehlo.constant dense<[1.0, 0.5, -2.5, 0.0]> : tensor<4xf64>
    %digamma = chlo.digamma %dx : tensor<4xf64> -> tensor<4xf64>
    %e_digamma = stablehlo.constant dense<[-0.5772156649015329, -1.9635100260214235, 1.1031566406452432, 0x7FF8000000000000]> : tensor<4xf64>
    stablehlo.custom_call @check.expect_close(%digamma, %e_digamma) {has_side_effect = true} : (tensor<4xf64>, tensor<4xf64>) -> ()
    %pn = stablehlo.constant dense<[1.0, 2.0, 0.0, 1.5]> : tensor<4xf64>
    %px = stablehlo.constant dense<[1.0, 1.0, 1.0, 1.0]> : tensor<4xf64>
    %polygamma = "chlo.polygamma"(%pn, %px) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    %e_polygamma = stablehlo.constant dense<[1.6449340668482264, -2.4041138063191885, -0.5772156649015329, 0x7FF8000000000000]> : tensor<4xf64>
    stablehlo.custom_call @check.expect_close(%polygamma, %e_polygamma) {has_side_effect = true} : (tensor<4xf64>, tensor<4xf64>) -> ()
    %zx = stablehlo.constant dense<[2.0, 4.0, 1.0, 0.5]> : tensor<4xf64>
    %zq = stablehlo.constant dense<[1.0, 1.0, 2.0, 1.0]> : tensor<4xf64>
    %zeta = "chlo.zeta"(%zx, %zq) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    %e_zeta = stablehlo.constant dense<[1.6449340668482264, 1.0823232337111382, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<4xf64>
    stablehlo.custom_call @check.expect_close(%zeta, %e_zeta) {has_side_effect = true} : (tensor<4xf64>, tensor<4xf64>) -> ()
    %bx = stablehlo.constant dense<[1.0, -1.0, 0.0, 30.0]> : tensor<4xf64>
    %i1e = chlo.bessel_i1e %bx : tensor<4xf64> -> tensor<4xf64>
    %e_i1e = stablehlo.constant dense<[0.20791041534970845, -0.20791041534970845, 0.0, 0.07191633059864755]> : tensor<4xf64>
    stablehlo.custom_call @check.expect_close(%i1e, %e_i1e) {has_side_effect = true} : (tensor<4xf64>, tensor<4xf64>) -> ()
    %h = stablehlo.constant dense<[0.5]> : tensor<1xf64>
    %erf = chlo.erf %h : tensor<1xf64> -> tensor<1xf64>
    %e_erf = stablehlo.constant dense<[0.5204998778130465]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%erf, %e_erf) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %erfc = chlo.erfc %h : tensor<1xf64> -> tensor<1xf64>
    %e_erfc = stablehlo.constant dense<[0.4795001221869535]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%erfc, %e_erfc) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %tan = chlo.tan %h : tensor<1xf64> -> tensor<1xf64>
    %e_tan = stablehlo.constant dense<[0.5463024898437905]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%tan, %e_tan) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %atanh = chlo.atanh %h : tensor<1xf64> -> tensor<1xf64>
    %e_atanh = stablehlo.constant dense<[0.5493061443340549]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%atanh, %e_atanh) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %u = stablehlo.constant dense<[1.0]> : tensor<1xf64>
    %sinh = chlo.sinh %u : tensor<1xf64> -> tensor<1xf64>
    %e_sinh = stablehlo.constant dense<[1.1752011936438014]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%sinh, %e_sinh) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %cosh = chlo.cosh %u : tensor<1xf64> -> tensor<1xf64>
    %e_cosh = stablehlo.constant dense<[1.5430806348152437]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%cosh, %e_cosh) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %asin = chlo.asin %u : tensor<1xf64> -> tensor<1xf64>
    %e_asin = stablehlo.constant dense<[1.5707963267948966]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%asin, %e_asin) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %acos = chlo.acos %u : tensor<1xf64> -> tensor<1xf64>
    %e_zero = stablehlo.constant dense<[0.0]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%acos, %e_zero) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %atan = chlo.atan %u : tensor<1xf64> -> tensor<1xf64>
    %e_atan = stablehlo.constant dense<[0.7853981633974483]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%atan, %e_atan) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %asinh = chlo.asinh %u : tensor<1xf64> -> tensor<1xf64>
    %e_asinh = stablehlo.constant dense<[0.881373587019543]> : tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%asinh, %e_asinh) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %acosh = chlo.acosh %u : tensor<1xf64> -> tensor<1xf64>
    stablehlo.custom_call @check.expect_close(%acosh, %e_zero) {has_side_effect = true} : (tensor<1xf64>, tensor<1xf64>) -> ()
    %sq = stablehlo.constant dense<[3.0, -2.0]> : tensor<2xf32>
    %square = chlo.square %sq : tensor<2xf32> -> tensor<2xf32>
    %e_square = stablehlo.constant dense<[9.0, 4.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%square, %e_square) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %ca = stablehlo.constant dense<[(0.0, 2.0)]> : tensor<1xcomplex<f64>>
    %casinh = chlo.asinh %ca : tensor<1xcomplex<f64>> -> tensor<1xcomplex<f64>>
    %e_casinh = stablehlo.constant dense<[(1.3169578969248166, 1.5707963267948966)]> : tensor<1xcomplex<f64>>
    stablehlo.custom_call @check.expect_close(%casinh, %e_casinh) {has_side_effect = true} : (tensor<1xcomplex<f64>>, tensor<1xcomplex<f64>>) -> ()
    %hb = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xbf16>
    %hi1e = chlo.bessel_i1e %hb : tensor<2xbf16> -> tensor<2xbf16>
    %e_hi1e = stablehlo.constant dense<[0.2080078125, 0.21484375]> : tensor<2xbf16>
    stablehlo.custom_call @check.expect_close(%hi1e, %e_hi1e) {has_side_effect = true} : (tensor<2xbf16>, tensor<2xbf16>) -> ()
    return %erf_inv : tensor<6xf64>
  }
}

// compare in every direction and compare_type (IEEE quiet comparisons with NaN, TOTALORDER,
// signed vs unsigned, lexicographic complex, booleans), select with elementwise and scalar
// predicates, and clamp with scalar and elementwise bounds.
module @compare_select {
  func.func public @main() -> tensor<4xi1> {
    %a = stablehlo.constant dense<[1.0, 0x7FC00000, 1.0, 0x7FC00000]> : tensor<4xf32>
    %b = stablehlo.constant dense<[1.0, 1.0, 0x7FC00000, 0x7FC00000]> : tensor<4xf32>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %e_eq = stablehlo.constant dense<[true, false, false, false]> : tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%eq, %e_eq) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()
    %ne = stablehlo.compare NE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %e_ne = stablehlo.constant dense<[false, true, true, true]> : tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%ne, %e_ne) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()
    %ge = stablehlo.compare GE, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%ge, %e_eq) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()
    %lt = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %none = stablehlo.constant dense<false> : tensor<4xi1>
    stablehlo.custom_call @check.expect_eq(%lt, %none) {has_side_effect = true} : (tensor<4xi1>, tensor<4xi1>) -> ()

    %x = stablehlo.constant dense<[1.0, 2.0, -0.0]> : tensor<3xf64>
    %y = stablehlo.constant dense<[2.0, 2.0, 0.0]> : tensor<3xf64>
    %lt2 = stablehlo.compare LT, %x, %y, FLOAT : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
    %e_lt2 = stablehlo.constant dense<[true, false, false]> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%lt2, %e_lt2) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()
    %le2 = stablehlo.compare LE, %x, %y, FLOAT : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
    %all3 = stablehlo.constant dense<true> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%le2, %all3) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()
    %gt2 = stablehlo.compare GT, %x, %y : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
    %none3 = stablehlo.constant dense<false> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%gt2, %none3) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()
    %tlt = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xi1>
    %e_tlt = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%tlt, %e_tlt) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()

    %ta = stablehlo.constant dense<[-0.0, 0x7FC00000, 0xFFC00000, 1.0, 0x7FC00000]> : tensor<5xf32>
    %tb = stablehlo.constant dense<[0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FC00000]> : tensor<5xf32>
    %tot = stablehlo.compare LT, %ta, %tb, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
    %e_tot = stablehlo.constant dense<[true, false, true, true, false]> : tensor<5xi1>
    stablehlo.custom_call @check.expect_eq(%tot, %e_tot) {has_side_effect = true} : (tensor<5xi1>, tensor<5xi1>) -> ()
    %toteq = stablehlo.compare EQ, %ta, %tb, TOTALORDER : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
    %e_toteq = stablehlo.constant dense<[false, false, false, false, true]> : tensor<5xi1>
    stablehlo.custom_call @check.expect_eq(%toteq, %e_toteq) {has_side_effect = true} : (tensor<5xi1>, tensor<5xi1>) -> ()
    %ha = stablehlo.constant dense<[-0.0, 0x7E00]> : tensor<2xf16>
    %hb = stablehlo.constant dense<[0.0, 0x7C00]> : tensor<2xf16>
    %htot = stablehlo.compare GT, %ha, %hb, TOTALORDER : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xi1>
    %e_htot = stablehlo.constant dense<[false, true]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%htot, %e_htot) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()

    %si = stablehlo.constant dense<[-1, 1]> : tensor<2xi32>
    %sj = stablehlo.constant dense<[1, -1]> : tensor<2xi32>
    %slt = stablehlo.compare LT, %si, %sj, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %e_slt = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%slt, %e_slt) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()
    %ui = stablehlo.constant dense<[4294967295, 1]> : tensor<2xui32>
    %uj = stablehlo.constant dense<[1, 4294967295]> : tensor<2xui32>
    %ult = stablehlo.compare LT, %ui, %uj, UNSIGNED : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xi1>
    %e_ult = stablehlo.constant dense<[false, true]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%ult, %e_ult) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()
    %s8 = stablehlo.constant dense<[-128, 127]> : tensor<2xi8>
    %t8 = stablehlo.constant dense<[127, -128]> : tensor<2xi8>
    %sge = stablehlo.compare GE, %s8, %t8 : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi1>
    %e_sge = stablehlo.constant dense<[false, true]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%sge, %e_sge) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()
    %u64a = stablehlo.constant dense<[18446744073709551615, 0]> : tensor<2xui64>
    %u64b = stablehlo.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
    %ugt = stablehlo.compare GT, %u64a, %u64b, UNSIGNED : (tensor<2xui64>, tensor<2xui64>) -> tensor<2xi1>
    %e_ugt = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%ugt, %e_ugt) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()
    %ba = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    %bb = stablehlo.constant dense<[false, true]> : tensor<2xi1>
    %bgt = stablehlo.compare GT, %ba, %bb, UNSIGNED : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%bgt, %ba) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()
    %ca = stablehlo.constant dense<[(1.0, 2.0), (1.0, 2.0), (0.0, 5.0)]> : tensor<3xcomplex<f32>>
    %cb = stablehlo.constant dense<[(1.0, 3.0), (1.0, 2.0), (1.0, 0.0)]> : tensor<3xcomplex<f32>>
    %ceq = stablehlo.compare EQ, %ca, %cb, FLOAT : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
    %e_ceq = stablehlo.constant dense<[false, true, false]> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%ceq, %e_ceq) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()
    %cne = stablehlo.compare NE, %ca, %cb, FLOAT : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
    %e_cne = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%cne, %e_cne) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()
    %clt = stablehlo.compare LT, %ca, %cb, FLOAT : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> tensor<3xi1>
    %e_clt = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    stablehlo.custom_call @check.expect_eq(%clt, %e_clt) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()

    %p = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>
    %on_t = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
    %on_f = stablehlo.constant dense<[4, 5, 6]> : tensor<3xi32>
    %sel = stablehlo.select %p, %on_t, %on_f : tensor<3xi1>, tensor<3xi32>
    %e_sel = stablehlo.constant dense<[1, 5, 3]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%sel, %e_sel) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    %ps = stablehlo.constant dense<false> : tensor<i1>
    %ft = stablehlo.constant dense<[1.5, 2.5]> : tensor<2xf64>
    %ff = stablehlo.constant dense<[-1.5, -2.5]> : tensor<2xf64>
    %sels = stablehlo.select %ps, %ft, %ff : (tensor<i1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    stablehlo.custom_call @check.expect_eq(%sels, %ff) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    %pc = stablehlo.constant dense<[false, true]> : tensor<2xi1>
    %ct = stablehlo.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f64>>
    %cf = stablehlo.constant dense<[(5.0, 6.0), (7.0, 8.0)]> : tensor<2xcomplex<f64>>
    %selc = stablehlo.select %pc, %ct, %cf : tensor<2xi1>, tensor<2xcomplex<f64>>
    %e_selc = stablehlo.constant dense<[(5.0, 6.0), (3.0, 4.0)]> : tensor<2xcomplex<f64>>
    stablehlo.custom_call @check.expect_eq(%selc, %e_selc) {has_side_effect = true} : (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) -> ()
    %selh = stablehlo.select %pc, %ha, %hb : tensor<2xi1>, tensor<2xf16>
    %e_selh = stablehlo.constant dense<[0.0, 0x7E00]> : tensor<2xf16>
    stablehlo.custom_call @check.expect_eq(%selh, %e_selh) {has_side_effect = true} : (tensor<2xf16>, tensor<2xf16>) -> ()
    %selb = stablehlo.select %pc, %ba, %bb : tensor<2xi1>, tensor<2xi1>
    %e_selb = stablehlo.constant dense<[false, false]> : tensor<2xi1>
    stablehlo.custom_call @check.expect_eq(%selb, %e_selb) {has_side_effect = true} : (tensor<2xi1>, tensor<2xi1>) -> ()

    %lo = stablehlo.constant dense<0.0> : tensor<f32>
    %hi = stablehlo.constant dense<1.0> : tensor<f32>
    %cx = stablehlo.constant dense<[-1.0, 0.5, 2.0, 0x7FC00000]> : tensor<4xf32>
    %cl = stablehlo.clamp %lo, %cx, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %e_cl = stablehlo.constant dense<[0.0, 0.5, 1.0, 0x7FC00000]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%cl, %e_cl) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    %ilo = stablehlo.constant dense<[0, 5, -3]> : tensor<3xi32>
    %ix = stablehlo.constant dense<[-10, 3, 100]> : tensor<3xi32>
    %ihi = stablehlo.constant dense<[10, 10, -1]> : tensor<3xi32>
    %icl = stablehlo.clamp %ilo, %ix, %ihi : tensor<3xi32>
    %e_icl = stablehlo.constant dense<[0, 5, -1]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_eq(%icl, %e_icl) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    %ulo = stablehlo.constant dense<10> : tensor<ui8>
    %uhi = stablehlo.constant dense<200> : tensor<ui8>
    %ux = stablehlo.constant dense<[5, 100, 250]> : tensor<3xui8>
    %ucl = stablehlo.clamp %ulo, %ux, %uhi : (tensor<ui8>, tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
    %e_ucl = stablehlo.constant dense<[10, 100, 200]> : tensor<3xui8>
    stablehlo.custom_call @check.expect_eq(%ucl, %e_ucl) {has_side_effect = true} : (tensor<3xui8>, tensor<3xui8>) -> ()
    %blo = stablehlo.constant dense<2.0> : tensor<bf16>
    %bhi = stablehlo.constant dense<1.0> : tensor<bf16>
    %bx = stablehlo.constant dense<[0.0, 5.0]> : tensor<2xbf16>
    %bcl = stablehlo.clamp %blo, %bx, %bhi : (tensor<bf16>, tensor<2xbf16>, tensor<bf16>) -> tensor<2xbf16>
    %e_bcl = stablehlo.constant dense<[1.0, 1.0]> : tensor<2xbf16>
    stablehlo.custom_call @check.expect_eq(%bcl, %e_bcl) {has_side_effect = true} : (tensor<2xbf16>, tensor<2xbf16>) -> ()
    return %eq : tensor<4xi1>
  }
}

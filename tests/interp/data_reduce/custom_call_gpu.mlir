// GPU targets run on the CPU (src/interp/custom_call_gpu.c, custom_call.c): threefry2x32 against
// Random123's known-answer vectors for Threefry-2x32-20, lu_pivots_to_permutation (a pivot out of
// range passed over, as jaxlib does), annotate_device_placement (the value itself) and a GPU
// solver spelled as on the GPU (cusolver_potrf_ffi {lower = true}).
module {
  func.func @main() {
    %k0 = stablehlo.constant dense<[0, 4294967295, 320440878]> : tensor<3xui32>
    %k1 = stablehlo.constant dense<[0, 4294967295, 57701188]> : tensor<3xui32>
    %x0 = stablehlo.constant dense<[0, 4294967295, 608135816]> : tensor<3xui32>
    %x1 = stablehlo.constant dense<[0, 4294967295, 2242054355]> : tensor<3xui32>
    %y:2 = stablehlo.custom_call @cu_threefry2x32_ffi(%k0, %k1, %x0, %x1) : (tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>) -> (tensor<3xui32>, tensor<3xui32>)
    // 0x6b200159 0x99ba4efe, 0x1cb996fc 0xbb002be7, 0xc4923a9c 0x483df7a0
    %e0 = stablehlo.constant dense<[1797259609, 481924860, 3297917596]> : tensor<3xui32>
    %e1 = stablehlo.constant dense<[2579123966, 3137350631, 1212020640]> : tensor<3xui32>
    stablehlo.custom_call @check.expect_eq(%y#0, %e0) {has_side_effect = true} : (tensor<3xui32>, tensor<3xui32>) -> ()
    stablehlo.custom_call @check.expect_eq(%y#1, %e1) {has_side_effect = true} : (tensor<3xui32>, tensor<3xui32>) -> ()
    %piv = stablehlo.constant dense<[[2, 2, 7], [1, 9, 3]]> : tensor<2x3xi32>
    %perm = stablehlo.custom_call @cu_lu_pivots_to_permutation(%piv) : (tensor<2x3xi32>) -> tensor<2x4xi32>
    %ep = stablehlo.constant dense<[[2, 0, 1, 3], [1, 0, 3, 2]]> : tensor<2x4xi32>
    stablehlo.custom_call @check.expect_eq(%perm, %ep) {has_side_effect = true} : (tensor<2x4xi32>, tensor<2x4xi32>) -> ()
    %v = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
    %w = stablehlo.custom_call @annotate_device_placement(%v) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%w, %v) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %a = stablehlo.constant dense<[[4.0, 2.0], [2.0, 3.0]]> : tensor<2x2xf64>
    %l:2 = stablehlo.custom_call @cusolver_potrf_ffi(%a) {mhlo.backend_config = {lower = true}} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<i32>)
    %el = stablehlo.constant dense<[[2.0, 2.0], [1.0, 1.4142135623730951]]> : tensor<2x2xf64>
    stablehlo.custom_call @check.expect_close(%l#0, %el) {has_side_effect = true} : (tensor<2x2xf64>, tensor<2x2xf64>) -> ()
    return
  }
}

// The old GPU ABI's solvers (src/interp/custom_call_gpu.c), their options an opaque descriptor of
// int32 fields (type 0 f32, ...; fill mode, batch, sizes, workspace), run on the CPU: eigenvalues
// of [[2, 1], [1, 2]] (1, 3) read from the lower triangle (cuBLAS fill mode 0) and from the upper
// (hipSOLVER's 121), the other triangle garbage; the QR of [[3, 1], [4, 2]] worked out by hand
// (Householder: R = [[-5, -2.2], [0, 0.4]], v = [1, 0.5], tau = [1.6, 0]; Q = [[-0.6, -0.8],
// [-0.8, 0.6]]), unbatched and batched; threefry2x32 against Random123's known answers.
module {
  func.func @main() {
    %al = stablehlo.constant dense<[[2.0, 99.0], [1.0, 2.0]]> : tensor<2x2xf32>
    %e:4 = stablehlo.custom_call @cusolver_syevj(%al) {api_version = 2 : i32, backend_config = "\00\00\00\00\00\00\00\00\01\00\00\00\02\00\00\00\00\00\00\00"} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>, tensor<1xf32>)
    %ew = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_close(%e#1, %ew) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %zero = stablehlo.constant dense<0> : tensor<i32>
    stablehlo.custom_call @check.expect_eq(%e#2, %zero) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
    %au = stablehlo.constant dense<[[2.0, 1.0], [-7.0, 2.0]]> : tensor<2x2xf64>
    %u:4 = stablehlo.custom_call @hipsolver_syevd(%au) {api_version = 2 : i32, backend_config = "\01\00\00\00y\00\00\00\01\00\00\00\02\00\00\00\00\00\00\00"} : (tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>, tensor<i32>, tensor<1xf64>)
    %uw = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_close(%u#1, %uw) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    %a = stablehlo.constant dense<[[3.0, 1.0], [4.0, 2.0]]> : tensor<2x2xf32>
    %q:4 = stablehlo.custom_call @hipsolver_geqrf(%a) {api_version = 2 : i32, backend_config = "\00\00\00\00\01\00\00\00\02\00\00\00\02\00\00\00\00\00\00\00"} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>, tensor<1xf32>)
    %eqr = stablehlo.constant dense<[[-5.0, -2.2], [0.5, 0.4]]> : tensor<2x2xf32>
    %etau = stablehlo.constant dense<[1.6, 0.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_close(%q#0, %eqr) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    stablehlo.custom_call @check.expect_close(%q#1, %etau) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %o:3 = stablehlo.custom_call @hipsolver_orgqr(%q#0, %q#1) {api_version = 2 : i32, backend_config = "\00\00\00\00\01\00\00\00\02\00\00\00\02\00\00\00\02\00\00\00\00\00\00\00"} : (tensor<2x2xf32>, tensor<2xf32>) -> (tensor<2x2xf32>, tensor<i32>, tensor<1xf32>)
    %eq = stablehlo.constant dense<[[-0.6, -0.8], [-0.8, 0.6]]> : tensor<2x2xf32>
    stablehlo.custom_call @check.expect_close(%o#0, %eq) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %ab = stablehlo.reshape %a : (tensor<2x2xf32>) -> tensor<1x2x2xf32>
    %b:4 = stablehlo.custom_call @cublas_geqrf_batched(%ab) {api_version = 2 : i32, backend_config = "\00\00\00\00\01\00\00\00\02\00\00\00\02\00\00\00"} : (tensor<1x2x2xf32>) -> (tensor<1x2x2xf32>, tensor<1x2xf32>, tensor<8xi8>, tensor<8xi8>)
    %ebqr = stablehlo.reshape %eqr : (tensor<2x2xf32>) -> tensor<1x2x2xf32>
    stablehlo.custom_call @check.expect_close(%b#0, %ebqr) {has_side_effect = true} : (tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> ()
    %k0 = stablehlo.constant dense<[0, 4294967295, 320440878]> : tensor<3xui32>
    %k1 = stablehlo.constant dense<[0, 4294967295, 57701188]> : tensor<3xui32>
    %x0 = stablehlo.constant dense<[0, 4294967295, 608135816]> : tensor<3xui32>
    %x1 = stablehlo.constant dense<[0, 4294967295, 2242054355]> : tensor<3xui32>
    %y:2 = stablehlo.custom_call @cu_threefry2x32(%k0, %k1, %x0, %x1) {api_version = 2 : i32, backend_config = "\03\00\00\00\00\00\00\00"} : (tensor<3xui32>, tensor<3xui32>, tensor<3xui32>, tensor<3xui32>) -> (tensor<3xui32>, tensor<3xui32>)
    %e0 = stablehlo.constant dense<[1797259609, 481924860, 3297917596]> : tensor<3xui32>
    %e1 = stablehlo.constant dense<[2579123966, 3137350631, 1212020640]> : tensor<3xui32>
    stablehlo.custom_call @check.expect_eq(%y#0, %e0) {has_side_effect = true} : (tensor<3xui32>, tensor<3xui32>) -> ()
    stablehlo.custom_call @check.expect_eq(%y#1, %e1) {has_side_effect = true} : (tensor<3xui32>, tensor<3xui32>) -> ()
    return
  }
}

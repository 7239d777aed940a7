// stablehlo.fft: forward/inverse complex transforms, real transforms and round trips, power of
// two (radix-2) and other lengths (direct DFT), 1-D and 2-D.
module {
  func.func @main() {
    %x = stablehlo.constant dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0), (4.0, 0.0)]> : tensor<4xcomplex<f32>>
    %f = "stablehlo.fft"(%x) <{fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 4>}> : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %ef = stablehlo.constant dense<[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0), (-2.0, -2.0)]> : tensor<4xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%f, %ef) {has_side_effect = true} : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> ()
    %i = "stablehlo.fft"(%f) <{fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 4>}> : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%i, %x) {has_side_effect = true} : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> ()

    // Real transforms: RFFT keeps n/2 + 1 entries; IRFFT ignores the imaginary parts of the DC
    // and Nyquist terms.
    %xr = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %rf = "stablehlo.fft"(%xr) <{fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 4>}> : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
    %erf = stablehlo.constant dense<[(10.0, 0.0), (-2.0, 2.0), (-2.0, 0.0)]> : tensor<3xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%rf, %erf) {has_side_effect = true} : (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) -> ()
    %h = stablehlo.constant dense<[(10.0, 5.0), (-2.0, 2.0), (-2.0, 7.0)]> : tensor<3xcomplex<f32>>
    %ir = "stablehlo.fft"(%h) <{fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 4>}> : (tensor<3xcomplex<f32>>) -> tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%ir, %xr) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()

    // Length 3 (direct DFT): [6, -1.5 + 0.866i, -1.5 - 0.866i].
    %x3 = stablehlo.constant dense<[(1.0, 0.0), (2.0, 0.0), (3.0, 0.0)]> : tensor<3xcomplex<f64>>
    %f3 = "stablehlo.fft"(%x3) <{fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 3>}> : (tensor<3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
    %e3 = stablehlo.constant dense<[(6.0, 0.0), (-1.5, 0.8660254037844386), (-1.5, -0.8660254037844386)]> : tensor<3xcomplex<f64>>
    stablehlo.custom_call @check.expect_almost_eq(%f3, %e3) {has_side_effect = true} : (tensor<3xcomplex<f64>>, tensor<3xcomplex<f64>>) -> ()

    // Round trip of an even non-power-of-two length through RFFT and IRFFT.
    %x6 = stablehlo.constant dense<[1.0, -1.0, 2.0, 0.5, 3.0, -2.0]> : tensor<6xf64>
    %f6 = "stablehlo.fft"(%x6) <{fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 6>}> : (tensor<6xf64>) -> tensor<4xcomplex<f64>>
    %b6 = "stablehlo.fft"(%f6) <{fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 6>}> : (tensor<4xcomplex<f64>>) -> tensor<6xf64>
    stablehlo.custom_call @check.expect_almost_eq(%b6, %x6) {has_side_effect = true} : (tensor<6xf64>, tensor<6xf64>) -> ()

    // 2-D transforms over the two trailing dimensions, with a leading batch dimension.
    %x2 = stablehlo.constant dense<[[[(1.0, 0.0), (2.0, 0.0)], [(3.0, 0.0), (4.0, 0.0)]]]> : tensor<1x2x2xcomplex<f32>>
    %f2 = "stablehlo.fft"(%x2) <{fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 2, 2>}> : (tensor<1x2x2xcomplex<f32>>) -> tensor<1x2x2xcomplex<f32>>
    %e2 = stablehlo.constant dense<[[[(10.0, 0.0), (-2.0, 0.0)], [(-4.0, 0.0), (0.0, 0.0)]]]> : tensor<1x2x2xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%f2, %e2) {has_side_effect = true} : (tensor<1x2x2xcomplex<f32>>, tensor<1x2x2xcomplex<f32>>) -> ()
    %x24 = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.0, 1.0]]> : tensor<2x4xf32>
    %r24 = "stablehlo.fft"(%x24) <{fft_type = #stablehlo<fft_type RFFT>, fft_length = array<i64: 2, 4>}> : (tensor<2x4xf32>) -> tensor<2x3xcomplex<f32>>
    %e24 = stablehlo.constant dense<[[(12.0, 0.0), (-2.0, 2.0), (-4.0, 0.0)], [(8.0, 0.0), (-2.0, 2.0), (0.0, 0.0)]]> : tensor<2x3xcomplex<f32>>
    stablehlo.custom_call @check.expect_eq(%r24, %e24) {has_side_effect = true} : (tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>) -> ()
    %b24 = "stablehlo.fft"(%r24) <{fft_type = #stablehlo<fft_type IRFFT>, fft_length = array<i64: 2, 4>}> : (tensor<2x3xcomplex<f32>>) -> tensor<2x4xf32>
    stablehlo.custom_call @check.expect_eq(%b24, %x24) {has_side_effect = true} : (tensor<2x4xf32>, tensor<2x4xf32>) -> ()
    func.return
  }
}

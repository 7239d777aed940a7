// ERROR: is not a power of two and exceeds 65536
// Non-power-of-two FFT lengths use an O(n^2) DFT, which is bounded.
module {
  func.func @main() {
    %x = stablehlo.iota dim = 0 : tensor<65537xcomplex<f32>>
    %f = "stablehlo.fft"(%x) <{fft_type = #stablehlo<fft_type FFT>, fft_length = array<i64: 65537>}> : (tensor<65537xcomplex<f32>>) -> tensor<65537xcomplex<f32>>
    func.return
  }
}

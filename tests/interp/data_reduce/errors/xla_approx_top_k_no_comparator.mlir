// ERROR: no comparator function @absent with a body
module {
  func.func @main() {
    %x = stablehlo.constant dense<1.0> : tensor<5xf32>
    %i = stablehlo.iota dim = 0 : tensor<5xi32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %m = stablehlo.constant dense<-1> : tensor<i32>
    %t:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %z, %m) {called_computations = [@absent], mhlo.backend_config = {aggregate_to_topk = true, reduction_dim = 0 : i64, top_k = 2 : i64}} : (tensor<5xf32>, tensor<5xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
    return
  }
}

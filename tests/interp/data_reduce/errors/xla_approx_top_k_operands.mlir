// ERROR: ApproxTopK takes N operands and N init values
module {
  func.func private @top_k_gt_f32_comparator(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
    %0 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func @main() {
    %x = stablehlo.constant dense<1.0> : tensor<5xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %t:2 = stablehlo.custom_call @ApproxTopK(%x, %z) {called_computations = [@top_k_gt_f32_comparator], mhlo.backend_config = {aggregate_to_topk = true, reduction_dim = 0 : i64, top_k = 2 : i64}} : (tensor<5xf32>, tensor<f32>) -> (tensor<2xf32>, tensor<2xi32>)
    return
  }
}

// stablehlo.batch_norm_inference, batch_norm_training and batch_norm_grad against the spec's
// decompositions (values worked out by hand).
module {
  func.func @main() {
    %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %scale = stablehlo.constant dense<[2.0, 0.5]> : tensor<2xf32>
    %offset = stablehlo.constant dense<[1.0, -1.0]> : tensor<2xf32>
    %mean = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
    %var = stablehlo.constant dense<[3.25, 0.25]> : tensor<2xf32>
    // epsilon 0.75: stddev = [2, 1]
    %r0 = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) <{epsilon = 0.75 : f32, feature_index = 1 : i64}> : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %e0 = stablehlo.constant dense<[[0.0, -1.5], [2.0, -0.5]]> : tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%r0, %e0) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()

    // Training on features in dimension 0: mean [2, 4], biased variance [1, 4].
    %xt = stablehlo.constant dense<[[1.0, 3.0], [2.0, 6.0]]> : tensor<2x2xf64>
    %st = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
    %ot = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf64>
    %r1:3 = "stablehlo.batch_norm_training"(%xt, %st, %ot) <{epsilon = 0.0 : f32, feature_index = 0 : i64}> : (tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2xf64>, tensor<2xf64>, tensor<2xf64>)
    %e1 = stablehlo.constant dense<[[-1.0, 1.0], [-1.0, 3.0]]> : tensor<2x2xf64>
    %e1m = stablehlo.constant dense<[2.0, 4.0]> : tensor<2xf64>
    %e1v = stablehlo.constant dense<[1.0, 4.0]> : tensor<2xf64>
    stablehlo.custom_call @check.expect_eq(%r1#0, %e1) {has_side_effect = true} : (tensor<2x2xf64>, tensor<2x2xf64>) -> ()
    stablehlo.custom_call @check.expect_eq(%r1#1, %e1m) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
    stablehlo.custom_call @check.expect_eq(%r1#2, %e1v) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()

    // Gradients with mean 0, variance 1, scale 3: grad_operand = 3 dy - sum(dy) - x sum(dy x).
    %xg = stablehlo.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
    %sg = stablehlo.constant dense<[3.0]> : tensor<1xf32>
    %mg = stablehlo.constant dense<[0.0]> : tensor<1xf32>
    %vg = stablehlo.constant dense<[1.0]> : tensor<1xf32>
    %dy = stablehlo.constant dense<[[1.0], [0.0], [2.0]]> : tensor<3x1xf32>
    %r2:3 = "stablehlo.batch_norm_grad"(%xg, %sg, %mg, %vg, %dy) <{epsilon = 0.0 : f32, feature_index = 1 : i64}> : (tensor<3x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<3x1xf32>) -> (tensor<3x1xf32>, tensor<1xf32>, tensor<1xf32>)
    %e2 = stablehlo.constant dense<[[-7.0], [-17.0], [-18.0]]> : tensor<3x1xf32>
    %e2s = stablehlo.constant dense<[7.0]> : tensor<1xf32>
    %e2o = stablehlo.constant dense<[3.0]> : tensor<1xf32>
    stablehlo.custom_call @check.expect_eq(%r2#0, %e2) {has_side_effect = true} : (tensor<3x1xf32>, tensor<3x1xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%r2#1, %e2s) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%r2#2, %e2o) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()
    func.return
  }
}

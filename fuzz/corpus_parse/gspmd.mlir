module @m attributes {mhlo.num_partitions = 4 : i32} {
  func.func public @main(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>) {
    %c = stablehlo.constant dense<1.0> : tensor<2x2xf32>
    %sx = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{devices=[1,4]0,1,2,3}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %lx = stablehlo.custom_call @SPMDFullToShardShape(%sx) {mhlo.sharding = "{manual}"} : (tensor<4x8xf32>) -> tensor<4x2xf32>
    %sy = stablehlo.custom_call @Sharding(%y) {mhlo.sharding = "{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate metadata={op_name=\"a\"}}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %ly = stablehlo.custom_call @SPMDFullToShardShape(%sy) {mhlo.sharding = "{manual}"} : (tensor<4x4xf32>) -> tensor<2x4xf32>
    %a = stablehlo.slice %lx [0:2, 0:2] : (tensor<4x2xf32>) -> tensor<2x2xf32>
    %b = stablehlo.slice %ly [0:2, 0:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>
    %ab = stablehlo.add %a, %b : tensor<2x2xf32>
    %r0 = stablehlo.add %ab, %c : tensor<2x2xf32>
    %m0 = stablehlo.custom_call @Sharding(%r0) {mhlo.sharding = "{manual}"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %g0 = stablehlo.custom_call @SPMDShardToFullShape(%m0) {mhlo.sharding = "{devices=[2,2]<=[2,2]T(1,0)}"} : (tensor<2x2xf32>) -> tensor<4x4xf32>
    %m1 = stablehlo.custom_call @Sharding(%ly) {mhlo.sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %g1 = stablehlo.custom_call @SPMDShardToFullShape(%m1) {mhlo.sharding = "{replicated}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %d = stablehlo.add %c, %c : tensor<2x2xf32>
    %w = stablehlo.custom_call @Sharding(%g0) {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={replicated}}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %w, %g1 : tensor<4x4xf32>, tensor<2x4xf32>
  }
}

module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "{mesh = #sdy.mesh<[\22a\22=2, \22b\22=2]>, \22other\22 = #sdy.mesh<[\22c\22=4]>}", keep = "x"}, mhlo.num_partitions = 4 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22a\22}, {}]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}, %arg1: tensor<8xf32>) -> (tensor<4x8xf32> {mhlo.sharding = "{replicated}"}, tensor<8xf32>) {
    %c = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>"}, mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %0:2 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%c, %arg1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>, <@mesh, [{}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>"}} : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<8xf32>)
    %1 = call @xla.sdy.manual_computation_body_1(%0#0, %0#1) : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22a\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>"}} : (tensor<2x8xf32>) -> tensor<4x8xf32>
    %b = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg1) {xla.sdy.allowed_direction = 0 : i32} : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.custom_call @xla.sdy.ShardingGroup(%b) {has_side_effect = true, xla.sdy.sharding_group_id = 0 : i64} : (tensor<8xf32>) -> ()
    %3 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>"}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %3, %b : tensor<4x8xf32>, tensor<8xf32>
  }
  func.func private @xla.sdy.manual_computation_body_1(%arg0: tensor<2x8xf32>, %arg1: tensor<8xf32>) -> tensor<2x8xf32> {
    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>", xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>"}} : (tensor<2x8xf32>) -> tensor<2x4xf32>
    %1 = call @my.xla.sdy.manual_computation_body_0.5(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = "#sdy<manual_axes{\22b\22}>", xla.sdy.out_shardings = "#sdy.sharding_per_value<[<@mesh, [{}, {\22b\22}]>]>"}} : (tensor<2x4xf32>) -> tensor<2x8xf32>
    %3 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>
    %4 = stablehlo.add %2, %3 : tensor<2x8xf32>
    return %4 : tensor<2x8xf32>
  }
  func.func private @my.xla.sdy.manual_computation_body_0.5(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
}

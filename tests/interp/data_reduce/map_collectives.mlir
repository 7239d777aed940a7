// stablehlo.map (one-op and general bodies, results of another type) and the collectives in a
// single-replica, single-partition run (identity-like; replica_id and partition_id are 0).
module {
  func.func @main() {
    %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
    %b = stablehlo.constant dense<[[10, 20], [30, 40]]> : tensor<2x2xi32>
    %m0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>):
      %s = stablehlo.subtract %y, %x : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
    %e0 = stablehlo.constant dense<[[9, 18], [27, 36]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%m0, %e0) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    %m1 = "stablehlo.map"(%a, %b, %a) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%x: tensor<i32>, %y: tensor<i32>, %z: tensor<i32>):
      %p = stablehlo.multiply %x, %y : tensor<i32>
      %s = stablehlo.add %p, %z : tensor<i32>
      %c = stablehlo.compare  GT, %s, %y,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }) : (tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
    %e1 = stablehlo.constant dense<[[true, true], [true, true]]> : tensor<2x2xi1>
    stablehlo.custom_call @check.expect_eq(%m1, %e1) {has_side_effect = true} : (tensor<2x2xi1>, tensor<2x2xi1>) -> ()
    %f = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
    %m2 = "stablehlo.map"(%f, %f) <{dimensions = array<i64: 0>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.multiply %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %e2 = stablehlo.constant dense<[2.25, 4.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%m2, %e2) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    %v = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %ar = "stablehlo.all_reduce"(%v) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%ar, %v) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %ag = "stablehlo.all_gather"(%v) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%ag, %v) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %rs = "stablehlo.reduce_scatter"(%v) <{scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%rs, %v) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %aa = "stablehlo.all_to_all"(%v) <{split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%aa, %v) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %cb = "stablehlo.collective_broadcast"(%v) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%cb, %v) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %cp = "stablehlo.collective_permute"(%v) <{source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%cp, %v) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    // Without a (0, 0) pair nothing is received: the result is zero.
    %cq = "stablehlo.collective_permute"(%v) <{source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %zf = stablehlo.constant dense<0.0> : tensor<2x2xf32>
    stablehlo.custom_call @check.expect_eq(%cq, %zf) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %rid = stablehlo.replica_id : tensor<ui32>
    %pid = stablehlo.partition_id : tensor<ui32>
    %zero = stablehlo.constant dense<0> : tensor<ui32>
    stablehlo.custom_call @check.expect_eq(%rid, %zero) {has_side_effect = true} : (tensor<ui32>, tensor<ui32>) -> ()
    stablehlo.custom_call @check.expect_eq(%pid, %zero) {has_side_effect = true} : (tensor<ui32>, tensor<ui32>) -> ()
    func.return
  }
}

// XLA's own custom-call targets of JAX's TPU exports (src/interp/custom_call_xla.c,
// custom_call_top_k.c, custom_call_window.c), against values worked out by hand:
//  - Eigh reads one triangle (the other holds garbage): [[2, 1], [1, 2]] has eigenvalues 1, 3
//    and V diag(w) V^T rebuilds it; the old 3-field backend_config reads the same;
//  - LuDecomposition of [[0,1,2],[3,4,5],[6,7,8]] (partial pivoting: rows 2, then 2) and of a
//    2x3 matrix: 0-based pivots and the permutation they make;
//  - ApproxTopK (aggregate_to_topk) is the exact top-k by its comparator along reduction_dim, its
//    second result taken from the indices operand (iota + 10 here): max-k along the last
//    dimension, min-k (a less-than comparator: approx_min_k) along the first;
//  - AllocateBuffer gives zeros;
//  - stablehlo.dynamic_reduce_window: a variadic (add, subtract) window 2x3 with init values
//    (1, 2), folded once per window; a padded, strided 1-D sum; a base-dilated one.
module {
  func.func private @top_k_gt_f32_comparator(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
    %0 = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @top_k_lt_f32_comparator(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>) -> tensor<i1> {
    %0 = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @add_sub(%a0: tensor<f32>, %a1: tensor<i32>, %x0: tensor<f32>, %x1: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
    %0 = stablehlo.add %a0, %x0 : tensor<f32>
    %1 = stablehlo.subtract %a1, %x1 : tensor<i32>
    return %0, %1 : tensor<f32>, tensor<i32>
  }
  func.func private @add(%a: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.add %a, %x : tensor<f32>
    return %0 : tensor<f32>
  }
  func.func @main() {
    // Eigh: lower triangle (garbage above), then upper (garbage below), f64 with the old config.
    %al = stablehlo.constant dense<[[2.0, 99.0], [1.0, 2.0]]> : tensor<2x2xf32>
    %e:2 = stablehlo.custom_call @Eigh(%al) {backend_config = "1,1,15,0.000010"} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>)
    %ew = stablehlo.constant dense<[1.0, 3.0]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_close(%e#1, %ew) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    %wb = stablehlo.broadcast_in_dim %e#1, dims = [1] : (tensor<2xf32>) -> tensor<2x2xf32>
    %vw = stablehlo.multiply %e#0, %wb : tensor<2x2xf32>
    %a = stablehlo.dot_general %vw, %e#0, contracting_dims = [1] x [1] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %ea = stablehlo.constant dense<[[2.0, 1.0], [1.0, 2.0]]> : tensor<2x2xf32>
    stablehlo.custom_call @check.expect_close(%a, %ea) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    %au = stablehlo.constant dense<[[[2.0, 1.0], [-7.0, 2.0]]]> : tensor<1x2x2xf64>
    %u:2 = stablehlo.custom_call @Eigh(%au) {backend_config = "0,15,0.000001"} : (tensor<1x2x2xf64>) -> (tensor<1x2x2xf64>, tensor<1x2xf64>)
    %uw = stablehlo.constant dense<[[1.0, 3.0]]> : tensor<1x2xf64>
    stablehlo.custom_call @check.expect_close(%u#1, %uw) {has_side_effect = true} : (tensor<1x2xf64>, tensor<1x2xf64>) -> ()
    // LuDecomposition.
    %m = stablehlo.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]> : tensor<3x3xf32>
    %lu:3 = stablehlo.custom_call @LuDecomposition(%m) : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3xi32>, tensor<3xi32>)
    %elu = stablehlo.constant dense<[[6.0, 7.0, 8.0], [0.0, 1.0, 2.0], [0.5, 0.5, 0.0]]> : tensor<3x3xf32>
    %epiv = stablehlo.constant dense<[2, 2, 2]> : tensor<3xi32>
    %eperm = stablehlo.constant dense<[2, 0, 1]> : tensor<3xi32>
    stablehlo.custom_call @check.expect_close(%lu#0, %elu) {has_side_effect = true} : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%lu#1, %epiv) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%lu#2, %eperm) {has_side_effect = true} : (tensor<3xi32>, tensor<3xi32>) -> ()
    %r = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf64>
    %rl:3 = stablehlo.custom_call @LuDecomposition(%r) : (tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2xi32>, tensor<2xi32>)
    %erl = stablehlo.constant dense<[[4.0, 5.0, 6.0], [0.25, 0.75, 1.5]]> : tensor<2x3xf64>
    %erp = stablehlo.constant dense<[1, 1]> : tensor<2xi32>
    %erq = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
    stablehlo.custom_call @check.expect_close(%rl#0, %erl) {has_side_effect = true} : (tensor<2x3xf64>, tensor<2x3xf64>) -> ()
    stablehlo.custom_call @check.expect_eq(%rl#1, %erp) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%rl#2, %erq) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
    // ApproxTopK.
    %x = stablehlo.constant dense<[[1.0, 9.0, 3.0, 9.0, 0.0], [-1.0, -2.0, 5.0, 4.0, 7.0]]> : tensor<2x5xf32>
    %io = stablehlo.iota dim = 1 : tensor<2x5xi32>
    %ten = stablehlo.constant dense<10> : tensor<2x5xi32>
    %ix = stablehlo.add %io, %ten : tensor<2x5xi32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %m1 = stablehlo.constant dense<-1> : tensor<i32>
    %t:2 = stablehlo.custom_call @ApproxTopK(%x, %ix, %ninf, %m1) {called_computations = [@top_k_gt_f32_comparator], mhlo.backend_config = {aggregate_to_topk = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 2 : i64}} : (tensor<2x5xf32>, tensor<2x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
    %tv = stablehlo.constant dense<[[9.0, 9.0], [7.0, 5.0]]> : tensor<2x2xf32>
    %ti = stablehlo.constant dense<[[11, 13], [14, 12]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%t#0, %tv) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%t#1, %ti) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    %x2 = stablehlo.constant dense<[[3.0, 1.0], [1.0, 2.0], [2.0, 0.0]]> : tensor<3x2xf32>
    %i2 = stablehlo.iota dim = 0 : tensor<3x2xi32>
    %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %mn:2 = stablehlo.custom_call @ApproxTopK(%x2, %i2, %pinf, %m1) {called_computations = [@top_k_lt_f32_comparator], mhlo.backend_config = {aggregate_to_topk = true, recall_target = 0.949999988 : f32, reduction_dim = 0 : i64, reduction_input_size_override = -1 : i64, top_k = 2 : i64}} : (tensor<3x2xf32>, tensor<3x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xi32>)
    %mv = stablehlo.constant dense<[[1.0, 0.0], [2.0, 1.0]]> : tensor<2x2xf32>
    %mi = stablehlo.constant dense<[[1, 2], [2, 0]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%mn#0, %mv) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%mn#1, %mi) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    // AllocateBuffer.
    %buf = stablehlo.custom_call @AllocateBuffer() : () -> tensor<2x3xi32>
    %zero = stablehlo.constant dense<0> : tensor<2x3xi32>
    stablehlo.custom_call @check.expect_eq(%buf, %zero) {has_side_effect = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> ()
    // stablehlo.dynamic_reduce_window: variadic, window (2, 3).
    %fi = stablehlo.iota dim = 0 : tensor<12xf32>
    %xf = stablehlo.reshape %fi : (tensor<12xf32>) -> tensor<3x4xf32>
    %ii = stablehlo.iota dim = 0 : tensor<12xi32>
    %hundred = stablehlo.constant dense<100> : tensor<12xi32>
    %i100 = stablehlo.add %ii, %hundred : tensor<12xi32>
    %yi = stablehlo.reshape %i100 : (tensor<12xi32>) -> tensor<3x4xi32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %two = stablehlo.constant dense<2> : tensor<i32>
    %wd = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
    %ones = stablehlo.constant dense<1> : tensor<2xi32>
    %nopad = stablehlo.constant dense<0> : tensor<2x2xi32>
    %w:2 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%xf, %yi, %one, %two, %wd, %ones, %ones, %ones, %nopad) {api_version = 2 : i32, called_computations = [@add_sub]} : (tensor<3x4xf32>, tensor<3x4xi32>, tensor<f32>, tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x2xi32>) -> (tensor<?x?xf32>, tensor<?x?xi32>)
    %w0 = stablehlo.convert %w#0 : (tensor<?x?xf32>) -> tensor<2x2xf32>
    %w1 = stablehlo.convert %w#1 : (tensor<?x?xi32>) -> tensor<2x2xi32>
    %ew0 = stablehlo.constant dense<[[19.0, 25.0], [43.0, 49.0]]> : tensor<2x2xf32>
    %ew1 = stablehlo.constant dense<[[-616, -622], [-640, -646]]> : tensor<2x2xi32>
    stablehlo.custom_call @check.expect_eq(%w0, %ew0) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%w1, %ew1) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()
    // A padded ([1, 1]), strided (2) window of 2 over [1, 2, 3, 4, 5]: [0+1, 2+3, 4+5].
    %v = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
    %zf = stablehlo.constant dense<0.0> : tensor<f32>
    %d2 = stablehlo.constant dense<2> : tensor<1xi64>
    %d1 = stablehlo.constant dense<1> : tensor<1xi64>
    %p11 = stablehlo.constant dense<[[1, 1]]> : tensor<1x2xi64>
    %s = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%v, %zf, %d2, %d2, %d1, %d1, %p11) {api_version = 2 : i32, called_computations = [@add]} : (tensor<5xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1x2xi64>) -> tensor<3xf32>
    %es = stablehlo.constant dense<[1.0, 5.0, 9.0]> : tensor<3xf32>
    stablehlo.custom_call @check.expect_eq(%s, %es) {has_side_effect = true} : (tensor<3xf32>, tensor<3xf32>) -> ()
    // Base dilation 2 over [1, 2, 3] (that is [1, 0, 2, 0, 3]) with a window of 2: [1, 2, 2, 3].
    %v3 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %p00 = stablehlo.constant dense<0> : tensor<1x2xi64>
    %bd = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%v3, %zf, %d2, %d1, %d2, %d1, %p00) {api_version = 2 : i32, called_computations = [@add]} : (tensor<3xf32>, tensor<f32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1x2xi64>) -> tensor<?xf32>
    %bd4 = stablehlo.convert %bd : (tensor<?xf32>) -> tensor<4xf32>
    %ebd = stablehlo.constant dense<[1.0, 2.0, 2.0, 3.0]> : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%bd4, %ebd) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
    return
  }
}

// interpreter.run_parallel and the collectives in a process grid (test_parallel.sh): every group
// mode, every collective, send/recv, infeed, replica_id/partition_id, rounds of one collective in
// a loop. The script expects every case to pass with its count of checks.

// A 2x2 grid: replica_id and partition_id of each process, results in replica-major order.
func.func private @ids() -> (tensor<ui32>, tensor<ui32>) {
  %r = stablehlo.replica_id : tensor<ui32>
  %p = stablehlo.partition_id : tensor<ui32>
  func.return %r, %p : tensor<ui32>, tensor<ui32>
}
func.func @grid_ids() {
  %o:8 = "interpreter.run_parallel"() {programs = [[@ids, @ids], [@ids, @ids]]} : () -> (tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>)
  check.expect_eq_const %o#0, dense<0> : tensor<ui32>
  check.expect_eq_const %o#1, dense<0> : tensor<ui32>
  check.expect_eq_const %o#2, dense<0> : tensor<ui32>
  check.expect_eq_const %o#3, dense<1> : tensor<ui32>
  check.expect_eq_const %o#4, dense<1> : tensor<ui32>
  check.expect_eq_const %o#5, dense<0> : tensor<ui32>
  check.expect_eq_const %o#6, dense<1> : tensor<ui32>
  check.expect_eq_const %o#7, dense<1> : tensor<ui32>
  func.return
}

// -----

// all_reduce in a 2x2 grid: cross_replica (no channel) reduces each partition's column, with a
// general body (not one op); flattened ids [[0, 3], [1, 2]] pair the diagonals.
func.func private @ar(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %a = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = stablehlo.add %l, %r : tensor<f32>
    %t = stablehlo.multiply %s, %s : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  %b = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %m = stablehlo.maximum %l, %r : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {replica_groups = dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %a, %b : tensor<2xf32>, tensor<2xf32>
}
func.func @all_reduce_modes() {
  %x0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %x1 = stablehlo.constant dense<[3.0, -4.0]> : tensor<2xf32>
  %x2 = stablehlo.constant dense<[-1.0, 0.5]> : tensor<2xf32>
  %x3 = stablehlo.constant dense<[0.0, 5.0]> : tensor<2xf32>
  %o:8 = "interpreter.run_parallel"(%x0, %x1, %x2, %x3) {programs = [[@ar, @ar], [@ar, @ar]]} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  // (0,0)+(1,0): (1-1)^2, (2+0.5)^2; (0,1)+(1,1): (3+0)^2, (-4+5)^2.
  check.expect_eq_const %o#0, dense<[0.0, 6.25]> : tensor<2xf32>
  check.expect_eq_const %o#2, dense<[9.0, 1.0]> : tensor<2xf32>
  check.expect_eq_const %o#4, dense<[0.0, 6.25]> : tensor<2xf32>
  check.expect_eq_const %o#6, dense<[9.0, 1.0]> : tensor<2xf32>
  // Flattened ids 0 = (0,0) with 3 = (1,1); 1 = (0,1) with 2 = (1,0).
  check.expect_eq_const %o#1, dense<[1.0, 5.0]> : tensor<2xf32>
  check.expect_eq_const %o#3, dense<[3.0, 0.5]> : tensor<2xf32>
  check.expect_eq_const %o#5, dense<[3.0, 0.5]> : tensor<2xf32>
  check.expect_eq_const %o#7, dense<[1.0, 5.0]> : tensor<2xf32>
  func.return
}

// -----

// No replica_groups at all: one group of every replica. The same all_reduce runs five rounds in a
// loop (a rendezvous key met again and again).
func.func private @loop(%x: tensor<i32>) -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %five = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %five : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %s = "stablehlo.all_reduce"(%v) ({
    ^bb0(%l: tensor<i32>, %r: tensor<i32>):
      %a = stablehlo.add %l, %r : tensor<i32>
      stablehlo.return %a : tensor<i32>
    }) {replica_groups = dense<> : tensor<0x0xi64>} : (tensor<i32>) -> tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %n, %s : tensor<i32>, tensor<i32>
  }
  func.return %r#1 : tensor<i32>
}
func.func @all_reduce_rounds() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  %b = stablehlo.constant dense<0> : tensor<i32>
  %o:3 = "interpreter.run_parallel"(%a, %b, %b) {programs = [[@loop], [@loop], [@loop]]} : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  check.expect_eq_const %o#0, dense<81> : tensor<i32>
  check.expect_eq_const %o#2, dense<81> : tensor<i32>
  func.return
}

// -----

// all_gather across replica and partition (a channel): the group [[0, 1]] spans both partitions,
// (r, p) in the order (0,0), (1,0), (0,1), (1,1); reduce_scatter cross_replica splits per column.
func.func private @gs(%x: tensor<1x2xi32>) -> (tensor<4x2xi32>, tensor<1x1xi32>) {
  %g = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<1x2xi32>) -> tensor<4x2xi32>
  %s = "stablehlo.reduce_scatter"(%x) ({
  ^bb0(%l: tensor<i32>, %r: tensor<i32>):
    %a = stablehlo.add %l, %r : tensor<i32>
    stablehlo.return %a : tensor<i32>
  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<1x2xi32>) -> tensor<1x1xi32>
  func.return %g, %s : tensor<4x2xi32>, tensor<1x1xi32>
}
func.func @gather_scatter() {
  %a = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %b = stablehlo.constant dense<[[3, 4]]> : tensor<1x2xi32>
  %c = stablehlo.constant dense<[[5, 6]]> : tensor<1x2xi32>
  %d = stablehlo.constant dense<[[7, 8]]> : tensor<1x2xi32>
  %o:8 = "interpreter.run_parallel"(%a, %b, %c, %d) {programs = [[@gs, @gs], [@gs, @gs]]} : (tensor<1x2xi32>, tensor<1x2xi32>, tensor<1x2xi32>, tensor<1x2xi32>) -> (tensor<4x2xi32>, tensor<1x1xi32>, tensor<4x2xi32>, tensor<1x1xi32>, tensor<4x2xi32>, tensor<1x1xi32>, tensor<4x2xi32>, tensor<1x1xi32>)
  check.expect_eq_const %o#0, dense<[[1, 2], [5, 6], [3, 4], [7, 8]]> : tensor<4x2xi32>
  check.expect_eq_const %o#6, dense<[[1, 2], [5, 6], [3, 4], [7, 8]]> : tensor<4x2xi32>
  // Group [1, 0]: replica 1 takes part 0, replica 0 part 1 of the column sums.
  check.expect_eq_const %o#1, dense<[[8]]> : tensor<1x1xi32>
  check.expect_eq_const %o#5, dense<[[6]]> : tensor<1x1xi32>
  check.expect_eq_const %o#3, dense<[[12]]> : tensor<1x1xi32>
  check.expect_eq_const %o#7, dense<[[10]]> : tensor<1x1xi32>
  func.return
}

// -----

// collective_broadcast across partitions: group [2, 0] has root partition 2; partition 1 is in no
// group and gets zeros. collective_permute across partitions: a ring 0 -> 1 -> 2 -> 0.
func.func private @bp(%x: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>) {
  %b = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[2, 0]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<2xi64>) -> tensor<2xi64>
  %p = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>} : (tensor<2xi64>) -> tensor<2xi64>
  func.return %b, %p : tensor<2xi64>, tensor<2xi64>
}
func.func @broadcast_permute() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi64>
  %b = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %c = stablehlo.constant dense<[5, 6]> : tensor<2xi64>
  %o:6 = "interpreter.run_parallel"(%a, %b, %c) {programs = [[@bp, @bp, @bp]]} : (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>)
  check.expect_eq_const %o#0, dense<[5, 6]> : tensor<2xi64>
  check.expect_eq_const %o#2, dense<[0, 0]> : tensor<2xi64>
  check.expect_eq_const %o#4, dense<[5, 6]> : tensor<2xi64>
  check.expect_eq_const %o#1, dense<[5, 6]> : tensor<2xi64>
  check.expect_eq_const %o#3, dense<[1, 2]> : tensor<2xi64>
  check.expect_eq_const %o#5, dense<[3, 4]> : tensor<2xi64>
  func.return
}

// -----

// all_to_all across partitions inside a called function, and collective_reduce (root: the first
// member of the group [1, 0], replica 1).
func.func private @exchange(%x: tensor<2x2xi32>) -> tensor<4x1xi32> {
  %r = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>} : (tensor<2x2xi32>) -> tensor<4x1xi32>
  func.return %r : tensor<4x1xi32>
}
func.func private @a2a(%x: tensor<2x2xi32>) -> tensor<4x1xi32> {
  %r = func.call @exchange(%x) : (tensor<2x2xi32>) -> tensor<4x1xi32>
  func.return %r : tensor<4x1xi32>
}
func.func private @cr(%x: tensor<2xi32>) -> tensor<2xi32> {
  %r = "stablehlo.collective_reduce"(%x) ({
  ^bb0(%l: tensor<i32>, %m: tensor<i32>):
    %s = stablehlo.multiply %l, %m : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}
func.func @all_to_all_and_reduce() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>
  %o:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@a2a, @a2a]]} : (tensor<2x2xi32>, tensor<2x2xi32>) -> (tensor<4x1xi32>, tensor<4x1xi32>)
  check.expect_eq_const %o#0, dense<[[1], [3], [5], [7]]> : tensor<4x1xi32>
  check.expect_eq_const %o#1, dense<[[2], [4], [6], [8]]> : tensor<4x1xi32>
  %c = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %d = stablehlo.constant dense<[5, 7]> : tensor<2xi32>
  %q:2 = "interpreter.run_parallel"(%c, %d) {programs = [[@cr], [@cr]]} : (tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  check.expect_eq_const %q#0, dense<[0, 0]> : tensor<2xi32>
  check.expect_eq_const %q#1, dense<[10, 21]> : tensor<2xi32>
  func.return
}

// -----

// send and recv: replica 0 sends on channel 1 and receives the answer on channel 2; infeed takes
// the queue's functions in turn, whichever process asks.
func.func private @ping(%x: tensor<2xf32>, %t: !stablehlo.token) -> tensor<2xf32> {
  %t1 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = false} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  %r:2 = "stablehlo.recv"(%t1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  func.return %r#0 : tensor<2xf32>
}
func.func private @pong(%x: tensor<2xf32>, %t: !stablehlo.token) -> tensor<2xf32> {
  %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  %s = stablehlo.add %r#0, %x : tensor<2xf32>
  %t1 = "stablehlo.send"(%s, %r#1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 2>, is_host_transfer = false} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  func.return %r#0 : tensor<2xf32>
}
func.func private @feed(%t: !stablehlo.token) -> tensor<2xi8> {
  %r:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<2xi8>, !stablehlo.token)
  func.return %r#0 : tensor<2xi8>
}
func.func private @q0() -> tensor<2xi8> {
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi8>
  func.return %c : tensor<2xi8>
}
func.func private @q1() -> tensor<2xi8> {
  %c = stablehlo.constant dense<[3, 4]> : tensor<2xi8>
  func.return %c : tensor<2xi8>
}
func.func @send_recv_infeed() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %t = stablehlo.after_all : !stablehlo.token
  %o:2 = "interpreter.run_parallel"(%a, %t, %b, %t) {programs = [[@ping], [@pong]]} : (tensor<2xf32>, !stablehlo.token, tensor<2xf32>, !stablehlo.token) -> (tensor<2xf32>, tensor<2xf32>)
  check.expect_eq_const %o#0, dense<[11.0, 22.0]> : tensor<2xf32>
  check.expect_eq_const %o#1, dense<[1.0, 2.0]> : tensor<2xf32>
  %f:2 = "interpreter.run_parallel"(%t, %t) {infeed = [@q0, @q1], programs = [[@feed], [@feed]]} : (!stablehlo.token, !stablehlo.token) -> (tensor<2xi8>, tensor<2xi8>)
  %sum = stablehlo.add %f#0, %f#1 : tensor<2xi8>
  check.expect_eq_const %sum, dense<[4, 6]> : tensor<2xi8>
  func.return
}

// Process grids that must fail, each with the error test_parallel.sh names, and none may hang:
// mismatched operands, a failing process, deadlocks, an empty infeed queue, a bad group.

func.func private @two(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %m: tensor<f32>):
    %s = stablehlo.add %l, %m : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
func.func private @three(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %m: tensor<f32>):
    %s = stablehlo.add %l, %m : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}
func.func @mismatched_shapes() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %b = stablehlo.constant dense<1.0> : tensor<3xf32>
  %o:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@two], [@three]]} : (tensor<2xf32>, tensor<3xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  func.return
}

// -----

func.func private @waits(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %m: tensor<f32>):
    %s = stablehlo.add %l, %m : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
func.func private @fails(%x: tensor<2xf32>) -> tensor<2xf32> {
  check.expect_eq_const %x, dense<0.0> : tensor<2xf32>
  func.return %x : tensor<2xf32>
}
func.func @process_fails() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %o:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@waits], [@fails]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func private @waits(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  func.return %x : tensor<2xf32>
}
func.func private @returns(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
func.func @member_finished() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %o:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@waits], [@returns]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func private @gather(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.all_gather"(%x) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  func.return %x : tensor<2xf32>
}
func.func private @recv(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %r:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 3>, is_host_transfer = false} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  func.return %r#0 : tensor<2xf32>
}
func.func @waits_elsewhere() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %o:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@gather], [@recv]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func private @feed() -> tensor<i8> {
  %t = stablehlo.after_all : !stablehlo.token
  %r:2 = "stablehlo.infeed"(%t) : (!stablehlo.token) -> (tensor<i8>, !stablehlo.token)
  func.return %r#0 : tensor<i8>
}
func.func @empty_infeed() {
  %o = "interpreter.run_parallel"() {programs = [[@feed]]} : () -> tensor<i8>
  func.return
}

// -----

func.func private @split(%x: tensor<2x2xi32>) -> tensor<1x4xi32> {
  %r = "stablehlo.all_to_all"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 2 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x2xi32>) -> tensor<1x4xi32>
  func.return %r : tensor<1x4xi32>
}
func.func @split_count_mismatch() {
  %a = stablehlo.constant dense<1> : tensor<2x2xi32>
  %o = "interpreter.run_parallel"(%a) {programs = [[@split]]} : (tensor<2x2xi32>) -> tensor<1x4xi32>
  func.return
}

// -----

func.func private @id(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "stablehlo.all_reduce"(%x) ({
  ^bb0(%l: tensor<f32>, %m: tensor<f32>):
    %s = stablehlo.add %l, %m : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 5]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
func.func @group_out_of_range() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %o:2 = "interpreter.run_parallel"(%a, %a) {programs = [[@id], [@id]]} : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func private @id(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
func.func @too_few_operands() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %o:2 = "interpreter.run_parallel"(%a) {programs = [[@id], [@id]]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}

// -----

func.func @unknown_program() {
  "interpreter.run_parallel"() {programs = [[@nowhere]]} : () -> ()
  func.return
}

// -----

func.func @ragged_programs() {
  "interpreter.run_parallel"() {programs = [[@ragged_programs, @ragged_programs], [@ragged_programs]]} : () -> ()
  func.return
}

// ERROR: a program for several processes runs in a process grid
// Gathering from two replicas needs a second process, which a run outside a process grid does not
// have.
module {
  func.func @main() {
    %v = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %ag = "stablehlo.all_gather"(%v) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x4xf32>
    func.return
  }
}

// sort edge cases: a stable sort keeps equal keys in input order, multiple operands move
// together, a 2-D sort along dimension 0 with a descending comparator, a comparator that is not
// a strict weak order (it must still terminate with a permutation), and an empty operand.
module @sort_edges {
  func.func public @main() -> tensor<5xi32> {
    %k = stablehlo.constant dense<[3, 1, 3, 2, 1]> : tensor<5xi32>
    %v = stablehlo.iota dim = 0 : tensor<5xi32>
    %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = stablehlo.compare  LT, %a, %b,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) : (tensor<5xi32>, tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>)
    %e0k = stablehlo.constant dense<[1, 1, 2, 3, 3]> : tensor<5xi32>
    %e0v = stablehlo.constant dense<[1, 4, 3, 0, 2]> : tensor<5xi32>
    stablehlo.custom_call @check.expect_eq(%0#0, %e0k) {has_side_effect = true} : (tensor<5xi32>, tensor<5xi32>) -> ()
    stablehlo.custom_call @check.expect_eq(%0#1, %e0v) {has_side_effect = true} : (tensor<5xi32>, tensor<5xi32>) -> ()

    // Columns sorted independently, descending.
    %m = stablehlo.constant dense<[[1.0, 6.0], [3.0, 4.0], [2.0, 5.0]]> : tensor<3x2xf32>
    %1 = "stablehlo.sort"(%m) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %gt = stablehlo.compare  GT, %a, %b,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %gt : tensor<i1>
    }) : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %e1 = stablehlo.constant dense<[[3.0, 6.0], [2.0, 5.0], [1.0, 4.0]]> : tensor<3x2xf32>
    stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<3x2xf32>, tensor<3x2xf32>) -> ()

    // Rows sorted (dimension 1), ascending, unsigned.
    %r = stablehlo.constant dense<[[200, 7, 9], [0, 255, 1]]> : tensor<2x3xui8>
    %2 = "stablehlo.sort"(%r) <{dimension = 1 : i64}> ({
    ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
      %lt = stablehlo.compare  LT, %a, %b,  UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) : (tensor<2x3xui8>) -> tensor<2x3xui8>
    %e2 = stablehlo.constant dense<[[7, 9, 200], [0, 1, 255]]> : tensor<2x3xui8>
    stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<2x3xui8>, tensor<2x3xui8>) -> ()

    // A comparator that always answers true yields some permutation: sorting it properly
    // afterwards gives the sorted input.
    %b = stablehlo.constant dense<[5, 3, 9, 1, 3, 8, 2]> : tensor<7xi64>
    %3 = "stablehlo.sort"(%b) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<i64>, %c: tensor<i64>):
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    }) : (tensor<7xi64>) -> tensor<7xi64>
    %4 = "stablehlo.sort"(%3) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<i64>, %c: tensor<i64>):
      %lt = stablehlo.compare  LT, %a, %c,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) : (tensor<7xi64>) -> tensor<7xi64>
    %e4 = stablehlo.constant dense<[1, 2, 3, 3, 5, 8, 9]> : tensor<7xi64>
    stablehlo.custom_call @check.expect_eq(%4, %e4) {has_side_effect = true} : (tensor<7xi64>, tensor<7xi64>) -> ()

    // Nothing to sort.
    %z = stablehlo.constant dense<> : tensor<0xf32>
    %5 = "stablehlo.sort"(%z) <{dimension = 0 : i64}> ({
    ^bb0(%a: tensor<f32>, %c: tensor<f32>):
      %lt = stablehlo.compare  LT, %a, %c,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    }) : (tensor<0xf32>) -> tensor<0xf32>
    stablehlo.custom_call @check.expect_eq(%5, %z) {has_side_effect = true} : (tensor<0xf32>, tensor<0xf32>) -> ()
    return %0#1 : tensor<5xi32>
  }
}

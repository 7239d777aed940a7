func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %r, %s = stablehlo.while(%i = %n, %acc = %n) : tensor<i64>, tensor<i64>
  cond {
    %c = stablehlo.compare  LT, %i, %acc : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %next = stablehlo.add %i, %one : tensor<i64>
    %t = func.call @id(%next) : (tensor<i64>) -> tensor<i64>
    stablehlo.return %t, %acc : tensor<i64>, tensor<i64>
  }
  return %r : tensor<i64>
}
func.func private @id(%x: tensor<i64>) -> tensor<i64> {
  return %x : tensor<i64>
}

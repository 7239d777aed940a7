// Ops of test_interp_ops.sh that must pass: tuples (nested, with tokens, through calls), after_all,
// and composites. The script expects every case to pass with its count of checks.

func.func @tuple_nested() {
  %a = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %c = stablehlo.constant dense<true> : tensor<i1>
  %t = stablehlo.after_all : !stablehlo.token
  %inner = stablehlo.tuple %b, %t, %c : tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>
  %outer = "stablehlo.tuple"(%a, %inner) : (tensor<2xf32>, tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>) -> tuple<tensor<2xf32>, tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>>
  %x = stablehlo.get_tuple_element %outer[0] : (tuple<tensor<2xf32>, tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>>) -> tensor<2xf32>
  %in2 = stablehlo.get_tuple_element %outer[1] : (tuple<tensor<2xf32>, tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>>) -> tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>
  %y = stablehlo.get_tuple_element %in2[0] : (tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>) -> tensor<2x3xi8>
  %tok = stablehlo.get_tuple_element %in2[1] : (tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>) -> !stablehlo.token
  %z = stablehlo.get_tuple_element %in2[2] : (tuple<tensor<2x3xi8>, !stablehlo.token, tensor<i1>>) -> tensor<i1>
  %t2 = stablehlo.after_all %tok, %t : !stablehlo.token
  check.expect_eq_const %x, dense<[1.5, -2.0]> : tensor<2xf32>
  check.expect_eq_const %y, dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  check.expect_eq_const %z, dense<true> : tensor<i1>
  func.return
}

// -----

func.func private @swap(%p: tuple<tensor<i32>, tensor<2xi64>>) -> tuple<tensor<2xi64>, tensor<i32>> {
  %a = stablehlo.get_tuple_element %p[0] : (tuple<tensor<i32>, tensor<2xi64>>) -> tensor<i32>
  %b = stablehlo.get_tuple_element %p[1] : (tuple<tensor<i32>, tensor<2xi64>>) -> tensor<2xi64>
  %r = stablehlo.tuple %b, %a : tuple<tensor<2xi64>, tensor<i32>>
  func.return %r : tuple<tensor<2xi64>, tensor<i32>>
}

func.func @tuple_through_call() {
  %a = stablehlo.constant dense<7> : tensor<i32>
  %b = stablehlo.constant dense<[8, -9]> : tensor<2xi64>
  %p = stablehlo.tuple %a, %b : tuple<tensor<i32>, tensor<2xi64>>
  %r = func.call @swap(%p) : (tuple<tensor<i32>, tensor<2xi64>>) -> tuple<tensor<2xi64>, tensor<i32>>
  %x = stablehlo.get_tuple_element %r[0] : (tuple<tensor<2xi64>, tensor<i32>>) -> tensor<2xi64>
  %y = stablehlo.get_tuple_element %r[1] : (tuple<tensor<2xi64>, tensor<i32>>) -> tensor<i32>
  check.expect_eq_const %x, dense<[8, -9]> : tensor<2xi64>
  check.expect_eq_const %y, dense<7> : tensor<i32>
  func.return
}

// -----

func.func private @mul_add.impl(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %m = stablehlo.multiply %x, %y : tensor<3xf32>
  %a = stablehlo.add %x, %y : tensor<3xf32>
  func.return %m, %a : tensor<3xf32>, tensor<3xf32>
}

func.func @composite_two_results() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = stablehlo.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %m, %a = stablehlo.composite "my.mul_add" %x, %y {decomposition = @mul_add.impl, version = 1 : i32} : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  check.expect_eq_const %m, dense<[4.0, 10.0, 18.0]> : tensor<3xf32>
  check.expect_eq_const %a, dense<[5.0, 7.0, 9.0]> : tensor<3xf32>
  func.return
}

// -----

func.func @probe_loop() {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r = stablehlo.while(%i = %zero) : tensor<i32>
  cond {
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %i, %one : tensor<i32>
    %p = interpreter.probe %n, probe_id = "loop/\"n\"" : tensor<i32>
    stablehlo.return %p : tensor<i32>
  }
  %v = stablehlo.constant dense<[[1.5, -0.0]]> : tensor<1x2xf32>
  %pv = "interpreter.probe"(%v) {probe_id = "v"} : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %two = stablehlo.constant dense<2> : tensor<i32>
  check.expect_serialized_eq %one, probe_id = "loop/\"n\"" : tensor<i32>
  check.expect_serialized_eq %three, probe_id = "loop/\"n\"", iter = 2 : tensor<i32>
  check.expect_serialized_eq %two, probe_id = "loop/\"n\"", iter = 1 : tensor<i32>
  check.expect_serialized_eq %pv, probe_id = "v" : tensor<1x2xf32>
  func.return
}

// -----

func.func @print_values() {
  %m = stablehlo.constant dense<[[1, 2], [3, -4]]> : tensor<2x2xi8>
  interpreter.print %m : tensor<2x2xi8>
  %s = stablehlo.constant dense<7> : tensor<ui8>
  "interpreter.print"(%s) : (tensor<ui8>) -> ()
  %e = stablehlo.constant dense<> : tensor<2x0xf32>
  interpreter.print %e : tensor<2x0xf32>
  %f = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  interpreter.print %f : tensor<2xi1>
  %g = stablehlo.constant dense<[1.5, -0.25]> : tensor<2xf64>
  interpreter.print %g : tensor<2xf64>
  func.return
}

// -----

// optimization_barrier: the identity on every kind of value it takes (tensors, a token, a tuple
// holding a token), also through a dynamic shape.
func.func private @through_barrier(%x: tensor<?xf32>, %t: !stablehlo.token, %p: tuple<tensor<i8>, !stablehlo.token>) -> (tensor<?xf32>, tuple<tensor<i8>, !stablehlo.token>) {
  %r:3 = stablehlo.optimization_barrier %x, %t, %p : tensor<?xf32>, !stablehlo.token, tuple<tensor<i8>, !stablehlo.token>
  %t2 = stablehlo.after_all %r#1 : !stablehlo.token
  func.return %r#0, %r#2 : tensor<?xf32>, tuple<tensor<i8>, !stablehlo.token>
}

func.func @barrier_values() {
  %x = stablehlo.constant dense<[1.5, -2.0, 3.0]> : tensor<3xf32>
  %shape = stablehlo.constant dense<3> : tensor<1xi64>
  %xd = stablehlo.dynamic_reshape %x, %shape : (tensor<3xf32>, tensor<1xi64>) -> tensor<?xf32>
  %t = stablehlo.after_all : !stablehlo.token
  %b = stablehlo.constant dense<-7> : tensor<i8>
  %p = stablehlo.tuple %b, %t : tuple<tensor<i8>, !stablehlo.token>
  %r:2 = func.call @through_barrier(%xd, %t, %p) : (tensor<?xf32>, !stablehlo.token, tuple<tensor<i8>, !stablehlo.token>) -> (tensor<?xf32>, tuple<tensor<i8>, !stablehlo.token>)
  %back = stablehlo.reshape %r#0 : (tensor<?xf32>) -> tensor<3xf32>
  check.expect_eq_const %back, dense<[1.5, -2.0, 3.0]> : tensor<3xf32>
  %b2 = stablehlo.get_tuple_element %r#1[0] : (tuple<tensor<i8>, !stablehlo.token>) -> tensor<i8>
  check.expect_eq_const %b2, dense<-7> : tensor<i8>
  %c = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %s:2 = stablehlo.optimization_barrier %c, %t : tensor<2x2xi32>, !stablehlo.token
  check.expect_eq_const %s#0, dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  func.return
}

#loc1 = loc("x.py":3:5)
module @m {
  func.func @main(%a: tensor<f32> loc("a")) -> tensor<f32> {
    %0 = stablehlo.abs %a : tensor<f32> loc(#loc1)
    %1 = stablehlo.negate %0 : tensor<f32> loc(#loc3)
    %2 = stablehlo.sine %1 : tensor<f32> loc(callsite(#loc3 at fused["y.py":1:2, unknown]))
    return %2 : tensor<f32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("f"(#loc1))
#loc3 = loc("jit(f)/neg"(#loc2))

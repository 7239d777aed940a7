module @jit_forward attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg1: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg2: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg3: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg4: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg5: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg6: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg7: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg8: tensor<1024xf32> {jax.arg_info = "params['blocks'][0]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg9: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][0]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg10: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg11: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][0]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg12: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg13: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg14: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg15: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg16: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg17: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg18: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg19: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg20: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg21: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg22: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg23: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg24: tensor<1024xf32> {jax.arg_info = "params['blocks'][1]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg25: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][1]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg26: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg27: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][1]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg28: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg29: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg30: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg31: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg32: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg33: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg34: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg35: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg36: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg37: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg38: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg39: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg40: tensor<1024xf32> {jax.arg_info = "params['blocks'][2]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg41: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][2]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg42: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg43: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][2]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg44: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg45: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg46: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg47: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg48: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg49: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg50: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg51: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg52: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg53: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg54: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg55: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg56: tensor<1024xf32> {jax.arg_info = "params['blocks'][3]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg57: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][3]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg58: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg59: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][3]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg60: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg61: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg62: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg63: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg64: tensor<256x256xf32> {jax.arg_info = "params['embed']['embedding']", mhlo.sharding = "{replicated}"}, %arg65: tensor<256x256xf32> {jax.arg_info = "params['lm_head']['kernel']", mhlo.sharding = "{replicated}"}, %arg66: tensor<256xf32> {jax.arg_info = "params['ln_f']['bias']", mhlo.sharding = "{replicated}"}, %arg67: tensor<256xf32> {jax.arg_info = "params['ln_f']['scale']", mhlo.sharding = "{replicated}"}, %arg68: tensor<256x256xf32> {jax.arg_info = "params['pos_embed']['embedding']", mhlo.sharding = "{replicated}"}, %arg69: tensor<?x256xi32> {jax.arg_info = "tokens", mhlo.sharding = "{replicated}"}) -> (tensor<?x256x256xf32> {jax.result_info = ""}) {
    %0 = stablehlo.get_dimension_size %arg69, dim = 0 : (tensor<?x256xi32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2 = call @_wrapped_jax_export_main(%1, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27, %arg28, %arg29, %arg30, %arg31, %arg32, %arg33, %arg34, %arg35, %arg36, %arg37, %arg38, %arg39, %arg40, %arg41, %arg42, %arg43, %arg44, %arg45, %arg46, %arg47, %arg48, %arg49, %arg50, %arg51, %arg52, %arg53, %arg54, %arg55, %arg56, %arg57, %arg58, %arg59, %arg60, %arg61, %arg62, %arg63, %arg64, %arg65, %arg66, %arg67, %arg68, %arg69) : (tensor<i64>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<?x256xi32>) -> tensor<?x256x256xf32>
    return %2 : tensor<?x256x256xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<256xf32>, %arg2: tensor<256x256xf32>, %arg3: tensor<256xf32>, %arg4: tensor<256x256xf32>, %arg5: tensor<256xf32>, %arg6: tensor<256x256xf32>, %arg7: tensor<256xf32>, %arg8: tensor<256x256xf32>, %arg9: tensor<1024xf32>, %arg10: tensor<256x1024xf32>, %arg11: tensor<256xf32>, %arg12: tensor<1024x256xf32>, %arg13: tensor<256xf32>, %arg14: tensor<256xf32>, %arg15: tensor<256xf32>, %arg16: tensor<256xf32>, %arg17: tensor<256xf32>, %arg18: tensor<256x256xf32>, %arg19: tensor<256xf32>, %arg20: tensor<256x256xf32>, %arg21: tensor<256xf32>, %arg22: tensor<256x256xf32>, %arg23: tensor<256xf32>, %arg24: tensor<256x256xf32>, %arg25: tensor<1024xf32>, %arg26: tensor<256x1024xf32>, %arg27: tensor<256xf32>, %arg28: tensor<1024x256xf32>, %arg29: tensor<256xf32>, %arg30: tensor<256xf32>, %arg31: tensor<256xf32>, %arg32: tensor<256xf32>, %arg33: tensor<256xf32>, %arg34: tensor<256x256xf32>, %arg35: tensor<256xf32>, %arg36: tensor<256x256xf32>, %arg37: tensor<256xf32>, %arg38: tensor<256x256xf32>, %arg39: tensor<256xf32>, %arg40: tensor<256x256xf32>, %arg41: tensor<1024xf32>, %arg42: tensor<256x1024xf32>, %arg43: tensor<256xf32>, %arg44: tensor<1024x256xf32>, %arg45: tensor<256xf32>, %arg46: tensor<256xf32>, %arg47: tensor<256xf32>, %arg48: tensor<256xf32>, %arg49: tensor<256xf32>, %arg50: tensor<256x256xf32>, %arg51: tensor<256xf32>, %arg52: tensor<256x256xf32>, %arg53: tensor<256xf32>, %arg54: tensor<256x256xf32>, %arg55: tensor<256xf32>, %arg56: tensor<256x256xf32>, %arg57: tensor<1024xf32>, %arg58: tensor<256x1024xf32>, %arg59: tensor<256xf32>, %arg60: tensor<1024x256xf32>, %arg61: tensor<256xf32>, %arg62: tensor<256xf32>, %arg63: tensor<256xf32>, %arg64: tensor<256xf32>, %arg65: tensor<256x256xf32>, %arg66: tensor<256x256xf32>, %arg67: tensor<256xf32>, %arg68: tensor<256xf32>, %arg69: tensor<256x256xf32>, %arg70: tensor<?x256xi32>) -> tensor<?x256x256xf32> {
    %0 = call @_take(%arg0, %arg65, %arg70) : (tensor<i64>, tensor<256x256xf32>, tensor<?x256xi32>) -> tensor<?x256x256xf32>
    %1 = stablehlo.iota dim = 0 : tensor<256xi32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<256xi32>) -> tensor<1x256xi32>
    %3 = call @_take_0(%arg69, %2) : (tensor<256x256xf32>, tensor<1x256xi32>) -> tensor<1x256x256xf32>
    %4 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %5 = stablehlo.reshape %4 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<256> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<256> : tensor<1xi32>
    %6 = stablehlo.concatenate %5, %c, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %3, %6, dims = [0, 1, 2] : (tensor<1x256x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %8 = stablehlo.add %0, %7 : tensor<?x256x256xf32>
    %9 = stablehlo.iota dim = 0 : tensor<256x256xi32>
    %10 = stablehlo.iota dim = 1 : tensor<256x256xi32>
    %11 = stablehlo.compare  GE, %9, %10,  SIGNED : (tensor<256x256xi32>, tensor<256x256xi32>) -> tensor<256x256xi1>
    %12 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %13 = stablehlo.reshape %12 : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<256> : tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c_1, %c_2, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %11, %14, dims = [2, 3] : (tensor<256x256xi1>, tensor<4xi32>) -> tensor<?x4x256x256xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%8 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %17 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %18 = stablehlo.reshape %17 : (tensor<i32>) -> tensor<1xi32>
    %c_4 = stablehlo.constant dense<256> : tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %cst_0, %19, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %21 = stablehlo.divide %16, %20 : tensor<?x256xf32>
    %22 = stablehlo.multiply %8, %8 : tensor<?x256x256xf32>
    %23 = stablehlo.reduce(%22 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %24 = stablehlo.divide %23, %20 : tensor<?x256xf32>
    %25 = stablehlo.multiply %21, %21 : tensor<?x256xf32>
    %26 = stablehlo.subtract %24, %25 : tensor<?x256xf32>
    %27 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %28 = stablehlo.reshape %27 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<256> : tensor<1xi32>
    %29 = stablehlo.concatenate %28, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %30 = stablehlo.dynamic_broadcast_in_dim %cst, %29, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %31 = stablehlo.maximum %30, %26 : tensor<?x256xf32>
    %32 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %33 = stablehlo.reshape %32 : (tensor<i32>) -> tensor<1xi32>
    %c_6 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_7 = stablehlo.constant dense<256> : tensor<1xi32>
    %34 = stablehlo.concatenate %33, %c_6, %c_7, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %35 = stablehlo.dynamic_broadcast_in_dim %21, %34, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %36 = stablehlo.subtract %8, %35 : tensor<?x256x256xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %37 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %38 = stablehlo.reshape %37 : (tensor<i32>) -> tensor<1xi32>
    %c_8 = stablehlo.constant dense<256> : tensor<1xi32>
    %39 = stablehlo.concatenate %38, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %40 = stablehlo.dynamic_broadcast_in_dim %cst_1, %39, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %41 = stablehlo.add %31, %40 : tensor<?x256xf32>
    %42 = stablehlo.rsqrt %41 : tensor<?x256xf32>
    %43 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %44 = stablehlo.reshape %43 : (tensor<i32>) -> tensor<1xi32>
    %c_9 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_10 = stablehlo.constant dense<256> : tensor<1xi32>
    %45 = stablehlo.concatenate %44, %c_9, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %46 = stablehlo.dynamic_broadcast_in_dim %42, %45, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %47 = stablehlo.reshape %arg14 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %48 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %49 = stablehlo.reshape %48 : (tensor<i32>) -> tensor<1xi32>
    %c_11 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_12 = stablehlo.constant dense<256> : tensor<1xi32>
    %50 = stablehlo.concatenate %49, %c_11, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %51 = stablehlo.dynamic_broadcast_in_dim %47, %50, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %52 = stablehlo.multiply %46, %51 : tensor<?x256x256xf32>
    %53 = stablehlo.multiply %36, %52 : tensor<?x256x256xf32>
    %54 = stablehlo.reshape %arg13 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %55 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %56 = stablehlo.reshape %55 : (tensor<i32>) -> tensor<1xi32>
    %c_13 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_14 = stablehlo.constant dense<256> : tensor<1xi32>
    %57 = stablehlo.concatenate %56, %c_13, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %58 = stablehlo.dynamic_broadcast_in_dim %54, %57, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %59 = stablehlo.add %53, %58 : tensor<?x256x256xf32>
    %60 = stablehlo.dot_general %59, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %61 = stablehlo.reshape %arg5 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %62 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %63 = stablehlo.reshape %62 : (tensor<i32>) -> tensor<1xi32>
    %c_15 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_16 = stablehlo.constant dense<256> : tensor<1xi32>
    %64 = stablehlo.concatenate %63, %c_15, %c_16, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %65 = stablehlo.dynamic_broadcast_in_dim %61, %64, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %66 = stablehlo.add %60, %65 : tensor<?x256x256xf32>
    %67 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %68 = stablehlo.reshape %67 : (tensor<i32>) -> tensor<1xi32>
    %c_17 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_18 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_19 = stablehlo.constant dense<64> : tensor<1xi32>
    %69 = stablehlo.concatenate %68, %c_17, %c_18, %c_19, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %70 = stablehlo.dynamic_reshape %66, %69 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %71 = stablehlo.dot_general %59, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %72 = stablehlo.reshape %arg1 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %73 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %74 = stablehlo.reshape %73 : (tensor<i32>) -> tensor<1xi32>
    %c_20 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_21 = stablehlo.constant dense<256> : tensor<1xi32>
    %75 = stablehlo.concatenate %74, %c_20, %c_21, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %76 = stablehlo.dynamic_broadcast_in_dim %72, %75, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %77 = stablehlo.add %71, %76 : tensor<?x256x256xf32>
    %78 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %79 = stablehlo.reshape %78 : (tensor<i32>) -> tensor<1xi32>
    %c_22 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_23 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_24 = stablehlo.constant dense<64> : tensor<1xi32>
    %80 = stablehlo.concatenate %79, %c_22, %c_23, %c_24, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %81 = stablehlo.dynamic_reshape %77, %80 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %82 = stablehlo.dot_general %59, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %83 = stablehlo.reshape %arg7 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %84 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %85 = stablehlo.reshape %84 : (tensor<i32>) -> tensor<1xi32>
    %c_25 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_26 = stablehlo.constant dense<256> : tensor<1xi32>
    %86 = stablehlo.concatenate %85, %c_25, %c_26, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %87 = stablehlo.dynamic_broadcast_in_dim %83, %86, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %88 = stablehlo.add %82, %87 : tensor<?x256x256xf32>
    %89 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %90 = stablehlo.reshape %89 : (tensor<i32>) -> tensor<1xi32>
    %c_27 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_28 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_29 = stablehlo.constant dense<64> : tensor<1xi32>
    %91 = stablehlo.concatenate %90, %c_27, %c_28, %c_29, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %92 = stablehlo.dynamic_reshape %88, %91 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %cst_2 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %93 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %94 = stablehlo.reshape %93 : (tensor<i32>) -> tensor<1xi32>
    %c_30 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_31 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_32 = stablehlo.constant dense<64> : tensor<1xi32>
    %95 = stablehlo.concatenate %94, %c_30, %c_31, %c_32, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %96 = stablehlo.dynamic_broadcast_in_dim %cst_2, %95, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %97 = stablehlo.multiply %70, %96 : tensor<?x256x4x64xf32>
    %98 = stablehlo.dot_general %97, %81, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x256xf32>
    %cst_3 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %99 = call @_where(%arg0, %15, %98, %cst_3) : (tensor<i64>, tensor<?x4x256x256xi1>, tensor<?x4x256x256xf32>, tensor<f32>) -> tensor<?x4x256x256xf32>
    %100 = call @_softmax(%arg0, %99) : (tensor<i64>, tensor<?x4x256x256xf32>) -> tensor<?x4x256x256xf32>
    %101 = stablehlo.dot_general %100, %92, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x256x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x64xf32>
    %102 = stablehlo.transpose %101, dims = [0, 2, 1, 3] : (tensor<?x4x256x64xf32>) -> tensor<?x256x4x64xf32>
    %103 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %104 = stablehlo.reshape %103 : (tensor<i32>) -> tensor<1xi32>
    %c_33 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_34 = stablehlo.constant dense<256> : tensor<1xi32>
    %105 = stablehlo.concatenate %104, %c_33, %c_34, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %106 = stablehlo.dynamic_reshape %102, %105 : (tensor<?x256x4x64xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %107 = stablehlo.dot_general %106, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %108 = stablehlo.reshape %arg3 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %109 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %110 = stablehlo.reshape %109 : (tensor<i32>) -> tensor<1xi32>
    %c_35 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_36 = stablehlo.constant dense<256> : tensor<1xi32>
    %111 = stablehlo.concatenate %110, %c_35, %c_36, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %112 = stablehlo.dynamic_broadcast_in_dim %108, %111, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %113 = stablehlo.add %107, %112 : tensor<?x256x256xf32>
    %114 = stablehlo.add %8, %113 : tensor<?x256x256xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %115 = stablehlo.reduce(%114 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_5 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %116 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %117 = stablehlo.reshape %116 : (tensor<i32>) -> tensor<1xi32>
    %c_37 = stablehlo.constant dense<256> : tensor<1xi32>
    %118 = stablehlo.concatenate %117, %c_37, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %119 = stablehlo.dynamic_broadcast_in_dim %cst_5, %118, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %120 = stablehlo.divide %115, %119 : tensor<?x256xf32>
    %121 = stablehlo.multiply %114, %114 : tensor<?x256x256xf32>
    %122 = stablehlo.reduce(%121 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %123 = stablehlo.divide %122, %119 : tensor<?x256xf32>
    %124 = stablehlo.multiply %120, %120 : tensor<?x256xf32>
    %125 = stablehlo.subtract %123, %124 : tensor<?x256xf32>
    %126 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %127 = stablehlo.reshape %126 : (tensor<i32>) -> tensor<1xi32>
    %c_38 = stablehlo.constant dense<256> : tensor<1xi32>
    %128 = stablehlo.concatenate %127, %c_38, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %129 = stablehlo.dynamic_broadcast_in_dim %cst_4, %128, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %130 = stablehlo.maximum %129, %125 : tensor<?x256xf32>
    %131 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %132 = stablehlo.reshape %131 : (tensor<i32>) -> tensor<1xi32>
    %c_39 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_40 = stablehlo.constant dense<256> : tensor<1xi32>
    %133 = stablehlo.concatenate %132, %c_39, %c_40, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %134 = stablehlo.dynamic_broadcast_in_dim %120, %133, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %135 = stablehlo.subtract %114, %134 : tensor<?x256x256xf32>
    %cst_6 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %136 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %137 = stablehlo.reshape %136 : (tensor<i32>) -> tensor<1xi32>
    %c_41 = stablehlo.constant dense<256> : tensor<1xi32>
    %138 = stablehlo.concatenate %137, %c_41, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %139 = stablehlo.dynamic_broadcast_in_dim %cst_6, %138, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %140 = stablehlo.add %130, %139 : tensor<?x256xf32>
    %141 = stablehlo.rsqrt %140 : tensor<?x256xf32>
    %142 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %143 = stablehlo.reshape %142 : (tensor<i32>) -> tensor<1xi32>
    %c_42 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_43 = stablehlo.constant dense<256> : tensor<1xi32>
    %144 = stablehlo.concatenate %143, %c_42, %c_43, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %145 = stablehlo.dynamic_broadcast_in_dim %141, %144, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %146 = stablehlo.reshape %arg16 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %147 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %148 = stablehlo.reshape %147 : (tensor<i32>) -> tensor<1xi32>
    %c_44 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_45 = stablehlo.constant dense<256> : tensor<1xi32>
    %149 = stablehlo.concatenate %148, %c_44, %c_45, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %150 = stablehlo.dynamic_broadcast_in_dim %146, %149, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %151 = stablehlo.multiply %145, %150 : tensor<?x256x256xf32>
    %152 = stablehlo.multiply %135, %151 : tensor<?x256x256xf32>
    %153 = stablehlo.reshape %arg15 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %154 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %155 = stablehlo.reshape %154 : (tensor<i32>) -> tensor<1xi32>
    %c_46 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_47 = stablehlo.constant dense<256> : tensor<1xi32>
    %156 = stablehlo.concatenate %155, %c_46, %c_47, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %157 = stablehlo.dynamic_broadcast_in_dim %153, %156, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %158 = stablehlo.add %152, %157 : tensor<?x256x256xf32>
    %159 = stablehlo.dot_general %158, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x1024xf32>) -> tensor<?x256x1024xf32>
    %160 = stablehlo.reshape %arg9 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %161 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %162 = stablehlo.reshape %161 : (tensor<i32>) -> tensor<1xi32>
    %c_48 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_49 = stablehlo.constant dense<1024> : tensor<1xi32>
    %163 = stablehlo.concatenate %162, %c_48, %c_49, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %164 = stablehlo.dynamic_broadcast_in_dim %160, %163, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %165 = stablehlo.add %159, %164 : tensor<?x256x1024xf32>
    %166 = call @gelu(%arg0, %165) : (tensor<i64>, tensor<?x256x1024xf32>) -> tensor<?x256x1024xf32>
    %167 = stablehlo.dot_general %166, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x1024xf32>, tensor<1024x256xf32>) -> tensor<?x256x256xf32>
    %168 = stablehlo.reshape %arg11 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %169 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %170 = stablehlo.reshape %169 : (tensor<i32>) -> tensor<1xi32>
    %c_50 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_51 = stablehlo.constant dense<256> : tensor<1xi32>
    %171 = stablehlo.concatenate %170, %c_50, %c_51, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %172 = stablehlo.dynamic_broadcast_in_dim %168, %171, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %173 = stablehlo.add %167, %172 : tensor<?x256x256xf32>
    %174 = stablehlo.add %114, %173 : tensor<?x256x256xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %175 = stablehlo.reduce(%174 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_8 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %176 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %177 = stablehlo.reshape %176 : (tensor<i32>) -> tensor<1xi32>
    %c_52 = stablehlo.constant dense<256> : tensor<1xi32>
    %178 = stablehlo.concatenate %177, %c_52, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %179 = stablehlo.dynamic_broadcast_in_dim %cst_8, %178, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %180 = stablehlo.divide %175, %179 : tensor<?x256xf32>
    %181 = stablehlo.multiply %174, %174 : tensor<?x256x256xf32>
    %182 = stablehlo.reduce(%181 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %183 = stablehlo.divide %182, %179 : tensor<?x256xf32>
    %184 = stablehlo.multiply %180, %180 : tensor<?x256xf32>
    %185 = stablehlo.subtract %183, %184 : tensor<?x256xf32>
    %186 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %187 = stablehlo.reshape %186 : (tensor<i32>) -> tensor<1xi32>
    %c_53 = stablehlo.constant dense<256> : tensor<1xi32>
    %188 = stablehlo.concatenate %187, %c_53, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %189 = stablehlo.dynamic_broadcast_in_dim %cst_7, %188, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %190 = stablehlo.maximum %189, %185 : tensor<?x256xf32>
    %191 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %192 = stablehlo.reshape %191 : (tensor<i32>) -> tensor<1xi32>
    %c_54 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_55 = stablehlo.constant dense<256> : tensor<1xi32>
    %193 = stablehlo.concatenate %192, %c_54, %c_55, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %194 = stablehlo.dynamic_broadcast_in_dim %180, %193, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %195 = stablehlo.subtract %174, %194 : tensor<?x256x256xf32>
    %cst_9 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %196 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %197 = stablehlo.reshape %196 : (tensor<i32>) -> tensor<1xi32>
    %c_56 = stablehlo.constant dense<256> : tensor<1xi32>
    %198 = stablehlo.concatenate %197, %c_56, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %199 = stablehlo.dynamic_broadcast_in_dim %cst_9, %198, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %200 = stablehlo.add %190, %199 : tensor<?x256xf32>
    %201 = stablehlo.rsqrt %200 : tensor<?x256xf32>
    %202 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %203 = stablehlo.reshape %202 : (tensor<i32>) -> tensor<1xi32>
    %c_57 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_58 = stablehlo.constant dense<256> : tensor<1xi32>
    %204 = stablehlo.concatenate %203, %c_57, %c_58, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %205 = stablehlo.dynamic_broadcast_in_dim %201, %204, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %206 = stablehlo.reshape %arg30 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %207 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %208 = stablehlo.reshape %207 : (tensor<i32>) -> tensor<1xi32>
    %c_59 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_60 = stablehlo.constant dense<256> : tensor<1xi32>
    %209 = stablehlo.concatenate %208, %c_59, %c_60, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %210 = stablehlo.dynamic_broadcast_in_dim %206, %209, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %211 = stablehlo.multiply %205, %210 : tensor<?x256x256xf32>
    %212 = stablehlo.multiply %195, %211 : tensor<?x256x256xf32>
    %213 = stablehlo.reshape %arg29 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %214 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %215 = stablehlo.reshape %214 : (tensor<i32>) -> tensor<1xi32>
    %c_61 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_62 = stablehlo.constant dense<256> : tensor<1xi32>
    %216 = stablehlo.concatenate %215, %c_61, %c_62, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %217 = stablehlo.dynamic_broadcast_in_dim %213, %216, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %218 = stablehlo.add %212, %217 : tensor<?x256x256xf32>
    %219 = stablehlo.dot_general %218, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %220 = stablehlo.reshape %arg21 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %221 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %222 = stablehlo.reshape %221 : (tensor<i32>) -> tensor<1xi32>
    %c_63 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_64 = stablehlo.constant dense<256> : tensor<1xi32>
    %223 = stablehlo.concatenate %222, %c_63, %c_64, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %224 = stablehlo.dynamic_broadcast_in_dim %220, %223, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %225 = stablehlo.add %219, %224 : tensor<?x256x256xf32>
    %226 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %227 = stablehlo.reshape %226 : (tensor<i32>) -> tensor<1xi32>
    %c_65 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_66 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_67 = stablehlo.constant dense<64> : tensor<1xi32>
    %228 = stablehlo.concatenate %227, %c_65, %c_66, %c_67, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %229 = stablehlo.dynamic_reshape %225, %228 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %230 = stablehlo.dot_general %218, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %231 = stablehlo.reshape %arg17 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %232 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %233 = stablehlo.reshape %232 : (tensor<i32>) -> tensor<1xi32>
    %c_68 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_69 = stablehlo.constant dense<256> : tensor<1xi32>
    %234 = stablehlo.concatenate %233, %c_68, %c_69, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %235 = stablehlo.dynamic_broadcast_in_dim %231, %234, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %236 = stablehlo.add %230, %235 : tensor<?x256x256xf32>
    %237 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %238 = stablehlo.reshape %237 : (tensor<i32>) -> tensor<1xi32>
    %c_70 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_71 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_72 = stablehlo.constant dense<64> : tensor<1xi32>
    %239 = stablehlo.concatenate %238, %c_70, %c_71, %c_72, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %240 = stablehlo.dynamic_reshape %236, %239 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %241 = stablehlo.dot_general %218, %arg24, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %242 = stablehlo.reshape %arg23 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %243 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %244 = stablehlo.reshape %243 : (tensor<i32>) -> tensor<1xi32>
    %c_73 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_74 = stablehlo.constant dense<256> : tensor<1xi32>
    %245 = stablehlo.concatenate %244, %c_73, %c_74, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %246 = stablehlo.dynamic_broadcast_in_dim %242, %245, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %247 = stablehlo.add %241, %246 : tensor<?x256x256xf32>
    %248 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %249 = stablehlo.reshape %248 : (tensor<i32>) -> tensor<1xi32>
    %c_75 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_76 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_77 = stablehlo.constant dense<64> : tensor<1xi32>
    %250 = stablehlo.concatenate %249, %c_75, %c_76, %c_77, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %251 = stablehlo.dynamic_reshape %247, %250 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %cst_10 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %252 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %253 = stablehlo.reshape %252 : (tensor<i32>) -> tensor<1xi32>
    %c_78 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_79 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_80 = stablehlo.constant dense<64> : tensor<1xi32>
    %254 = stablehlo.concatenate %253, %c_78, %c_79, %c_80, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %255 = stablehlo.dynamic_broadcast_in_dim %cst_10, %254, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %256 = stablehlo.multiply %229, %255 : tensor<?x256x4x64xf32>
    %257 = stablehlo.dot_general %256, %240, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x256xf32>
    %cst_11 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %258 = call @_where(%arg0, %15, %257, %cst_11) : (tensor<i64>, tensor<?x4x256x256xi1>, tensor<?x4x256x256xf32>, tensor<f32>) -> tensor<?x4x256x256xf32>
    %259 = call @_softmax(%arg0, %258) : (tensor<i64>, tensor<?x4x256x256xf32>) -> tensor<?x4x256x256xf32>
    %260 = stablehlo.dot_general %259, %251, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x256x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x64xf32>
    %261 = stablehlo.transpose %260, dims = [0, 2, 1, 3] : (tensor<?x4x256x64xf32>) -> tensor<?x256x4x64xf32>
    %262 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %263 = stablehlo.reshape %262 : (tensor<i32>) -> tensor<1xi32>
    %c_81 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_82 = stablehlo.constant dense<256> : tensor<1xi32>
    %264 = stablehlo.concatenate %263, %c_81, %c_82, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %265 = stablehlo.dynamic_reshape %261, %264 : (tensor<?x256x4x64xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %266 = stablehlo.dot_general %265, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %267 = stablehlo.reshape %arg19 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %268 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %269 = stablehlo.reshape %268 : (tensor<i32>) -> tensor<1xi32>
    %c_83 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_84 = stablehlo.constant dense<256> : tensor<1xi32>
    %270 = stablehlo.concatenate %269, %c_83, %c_84, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %271 = stablehlo.dynamic_broadcast_in_dim %267, %270, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %272 = stablehlo.add %266, %271 : tensor<?x256x256xf32>
    %273 = stablehlo.add %174, %272 : tensor<?x256x256xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %274 = stablehlo.reduce(%273 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_13 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %275 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %276 = stablehlo.reshape %275 : (tensor<i32>) -> tensor<1xi32>
    %c_85 = stablehlo.constant dense<256> : tensor<1xi32>
    %277 = stablehlo.concatenate %276, %c_85, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %278 = stablehlo.dynamic_broadcast_in_dim %cst_13, %277, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %279 = stablehlo.divide %274, %278 : tensor<?x256xf32>
    %280 = stablehlo.multiply %273, %273 : tensor<?x256x256xf32>
    %281 = stablehlo.reduce(%280 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %282 = stablehlo.divide %281, %278 : tensor<?x256xf32>
    %283 = stablehlo.multiply %279, %279 : tensor<?x256xf32>
    %284 = stablehlo.subtract %282, %283 : tensor<?x256xf32>
    %285 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %286 = stablehlo.reshape %285 : (tensor<i32>) -> tensor<1xi32>
    %c_86 = stablehlo.constant dense<256> : tensor<1xi32>
    %287 = stablehlo.concatenate %286, %c_86, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %288 = stablehlo.dynamic_broadcast_in_dim %cst_12, %287, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %289 = stablehlo.maximum %288, %284 : tensor<?x256xf32>
    %290 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %291 = stablehlo.reshape %290 : (tensor<i32>) -> tensor<1xi32>
    %c_87 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_88 = stablehlo.constant dense<256> : tensor<1xi32>
    %292 = stablehlo.concatenate %291, %c_87, %c_88, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %293 = stablehlo.dynamic_broadcast_in_dim %279, %292, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %294 = stablehlo.subtract %273, %293 : tensor<?x256x256xf32>
    %cst_14 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %295 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %296 = stablehlo.reshape %295 : (tensor<i32>) -> tensor<1xi32>
    %c_89 = stablehlo.constant dense<256> : tensor<1xi32>
    %297 = stablehlo.concatenate %296, %c_89, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %298 = stablehlo.dynamic_broadcast_in_dim %cst_14, %297, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %299 = stablehlo.add %289, %298 : tensor<?x256xf32>
    %300 = stablehlo.rsqrt %299 : tensor<?x256xf32>
    %301 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %302 = stablehlo.reshape %301 : (tensor<i32>) -> tensor<1xi32>
    %c_90 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_91 = stablehlo.constant dense<256> : tensor<1xi32>
    %303 = stablehlo.concatenate %302, %c_90, %c_91, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %304 = stablehlo.dynamic_broadcast_in_dim %300, %303, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %305 = stablehlo.reshape %arg32 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %306 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %307 = stablehlo.reshape %306 : (tensor<i32>) -> tensor<1xi32>
    %c_92 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_93 = stablehlo.constant dense<256> : tensor<1xi32>
    %308 = stablehlo.concatenate %307, %c_92, %c_93, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %309 = stablehlo.dynamic_broadcast_in_dim %305, %308, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %310 = stablehlo.multiply %304, %309 : tensor<?x256x256xf32>
    %311 = stablehlo.multiply %294, %310 : tensor<?x256x256xf32>
    %312 = stablehlo.reshape %arg31 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %313 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %314 = stablehlo.reshape %313 : (tensor<i32>) -> tensor<1xi32>
    %c_94 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_95 = stablehlo.constant dense<256> : tensor<1xi32>
    %315 = stablehlo.concatenate %314, %c_94, %c_95, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %316 = stablehlo.dynamic_broadcast_in_dim %312, %315, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %317 = stablehlo.add %311, %316 : tensor<?x256x256xf32>
    %318 = stablehlo.dot_general %317, %arg26, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x1024xf32>) -> tensor<?x256x1024xf32>
    %319 = stablehlo.reshape %arg25 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %320 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %321 = stablehlo.reshape %320 : (tensor<i32>) -> tensor<1xi32>
    %c_96 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_97 = stablehlo.constant dense<1024> : tensor<1xi32>
    %322 = stablehlo.concatenate %321, %c_96, %c_97, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %323 = stablehlo.dynamic_broadcast_in_dim %319, %322, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %324 = stablehlo.add %318, %323 : tensor<?x256x1024xf32>
    %325 = call @gelu(%arg0, %324) : (tensor<i64>, tensor<?x256x1024xf32>) -> tensor<?x256x1024xf32>
    %326 = stablehlo.dot_general %325, %arg28, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x1024xf32>, tensor<1024x256xf32>) -> tensor<?x256x256xf32>
    %327 = stablehlo.reshape %arg27 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %328 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %329 = stablehlo.reshape %328 : (tensor<i32>) -> tensor<1xi32>
    %c_98 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_99 = stablehlo.constant dense<256> : tensor<1xi32>
    %330 = stablehlo.concatenate %329, %c_98, %c_99, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %331 = stablehlo.dynamic_broadcast_in_dim %327, %330, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %332 = stablehlo.add %326, %331 : tensor<?x256x256xf32>
    %333 = stablehlo.add %273, %332 : tensor<?x256x256xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %334 = stablehlo.reduce(%333 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_16 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %335 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %336 = stablehlo.reshape %335 : (tensor<i32>) -> tensor<1xi32>
    %c_100 = stablehlo.constant dense<256> : tensor<1xi32>
    %337 = stablehlo.concatenate %336, %c_100, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %338 = stablehlo.dynamic_broadcast_in_dim %cst_16, %337, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %339 = stablehlo.divide %334, %338 : tensor<?x256xf32>
    %340 = stablehlo.multiply %333, %333 : tensor<?x256x256xf32>
    %341 = stablehlo.reduce(%340 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %342 = stablehlo.divide %341, %338 : tensor<?x256xf32>
    %343 = stablehlo.multiply %339, %339 : tensor<?x256xf32>
    %344 = stablehlo.subtract %342, %343 : tensor<?x256xf32>
    %345 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %346 = stablehlo.reshape %345 : (tensor<i32>) -> tensor<1xi32>
    %c_101 = stablehlo.constant dense<256> : tensor<1xi32>
    %347 = stablehlo.concatenate %346, %c_101, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %348 = stablehlo.dynamic_broadcast_in_dim %cst_15, %347, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %349 = stablehlo.maximum %348, %344 : tensor<?x256xf32>
    %350 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %351 = stablehlo.reshape %350 : (tensor<i32>) -> tensor<1xi32>
    %c_102 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_103 = stablehlo.constant dense<256> : tensor<1xi32>
    %352 = stablehlo.concatenate %351, %c_102, %c_103, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %353 = stablehlo.dynamic_broadcast_in_dim %339, %352, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %354 = stablehlo.subtract %333, %353 : tensor<?x256x256xf32>
    %cst_17 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %355 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %356 = stablehlo.reshape %355 : (tensor<i32>) -> tensor<1xi32>
    %c_104 = stablehlo.constant dense<256> : tensor<1xi32>
    %357 = stablehlo.concatenate %356, %c_104, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %358 = stablehlo.dynamic_broadcast_in_dim %cst_17, %357, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %359 = stablehlo.add %349, %358 : tensor<?x256xf32>
    %360 = stablehlo.rsqrt %359 : tensor<?x256xf32>
    %361 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %362 = stablehlo.reshape %361 : (tensor<i32>) -> tensor<1xi32>
    %c_105 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_106 = stablehlo.constant dense<256> : tensor<1xi32>
    %363 = stablehlo.concatenate %362, %c_105, %c_106, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %364 = stablehlo.dynamic_broadcast_in_dim %360, %363, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %365 = stablehlo.reshape %arg46 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %366 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %367 = stablehlo.reshape %366 : (tensor<i32>) -> tensor<1xi32>
    %c_107 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_108 = stablehlo.constant dense<256> : tensor<1xi32>
    %368 = stablehlo.concatenate %367, %c_107, %c_108, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %369 = stablehlo.dynamic_broadcast_in_dim %365, %368, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %370 = stablehlo.multiply %364, %369 : tensor<?x256x256xf32>
    %371 = stablehlo.multiply %354, %370 : tensor<?x256x256xf32>
    %372 = stablehlo.reshape %arg45 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %373 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %374 = stablehlo.reshape %373 : (tensor<i32>) -> tensor<1xi32>
    %c_109 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_110 = stablehlo.constant dense<256> : tensor<1xi32>
    %375 = stablehlo.concatenate %374, %c_109, %c_110, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %376 = stablehlo.dynamic_broadcast_in_dim %372, %375, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %377 = stablehlo.add %371, %376 : tensor<?x256x256xf32>
    %378 = stablehlo.dot_general %377, %arg38, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %379 = stablehlo.reshape %arg37 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %380 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %381 = stablehlo.reshape %380 : (tensor<i32>) -> tensor<1xi32>
    %c_111 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_112 = stablehlo.constant dense<256> : tensor<1xi32>
    %382 = stablehlo.concatenate %381, %c_111, %c_112, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %383 = stablehlo.dynamic_broadcast_in_dim %379, %382, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %384 = stablehlo.add %378, %383 : tensor<?x256x256xf32>
    %385 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %386 = stablehlo.reshape %385 : (tensor<i32>) -> tensor<1xi32>
    %c_113 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_114 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_115 = stablehlo.constant dense<64> : tensor<1xi32>
    %387 = stablehlo.concatenate %386, %c_113, %c_114, %c_115, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %388 = stablehlo.dynamic_reshape %384, %387 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %389 = stablehlo.dot_general %377, %arg34, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %390 = stablehlo.reshape %arg33 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %391 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %392 = stablehlo.reshape %391 : (tensor<i32>) -> tensor<1xi32>
    %c_116 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_117 = stablehlo.constant dense<256> : tensor<1xi32>
    %393 = stablehlo.concatenate %392, %c_116, %c_117, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %394 = stablehlo.dynamic_broadcast_in_dim %390, %393, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %395 = stablehlo.add %389, %394 : tensor<?x256x256xf32>
    %396 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %397 = stablehlo.reshape %396 : (tensor<i32>) -> tensor<1xi32>
    %c_118 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_119 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_120 = stablehlo.constant dense<64> : tensor<1xi32>
    %398 = stablehlo.concatenate %397, %c_118, %c_119, %c_120, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %399 = stablehlo.dynamic_reshape %395, %398 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %400 = stablehlo.dot_general %377, %arg40, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %401 = stablehlo.reshape %arg39 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %402 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %403 = stablehlo.reshape %402 : (tensor<i32>) -> tensor<1xi32>
    %c_121 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_122 = stablehlo.constant dense<256> : tensor<1xi32>
    %404 = stablehlo.concatenate %403, %c_121, %c_122, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %405 = stablehlo.dynamic_broadcast_in_dim %401, %404, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %406 = stablehlo.add %400, %405 : tensor<?x256x256xf32>
    %407 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %408 = stablehlo.reshape %407 : (tensor<i32>) -> tensor<1xi32>
    %c_123 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_124 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_125 = stablehlo.constant dense<64> : tensor<1xi32>
    %409 = stablehlo.concatenate %408, %c_123, %c_124, %c_125, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %410 = stablehlo.dynamic_reshape %406, %409 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %cst_18 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %411 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %412 = stablehlo.reshape %411 : (tensor<i32>) -> tensor<1xi32>
    %c_126 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_127 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_128 = stablehlo.constant dense<64> : tensor<1xi32>
    %413 = stablehlo.concatenate %412, %c_126, %c_127, %c_128, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %414 = stablehlo.dynamic_broadcast_in_dim %cst_18, %413, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %415 = stablehlo.multiply %388, %414 : tensor<?x256x4x64xf32>
    %416 = stablehlo.dot_general %415, %399, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x256xf32>
    %cst_19 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %417 = call @_where(%arg0, %15, %416, %cst_19) : (tensor<i64>, tensor<?x4x256x256xi1>, tensor<?x4x256x256xf32>, tensor<f32>) -> tensor<?x4x256x256xf32>
    %418 = call @_softmax(%arg0, %417) : (tensor<i64>, tensor<?x4x256x256xf32>) -> tensor<?x4x256x256xf32>
    %419 = stablehlo.dot_general %418, %410, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x256x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x64xf32>
    %420 = stablehlo.transpose %419, dims = [0, 2, 1, 3] : (tensor<?x4x256x64xf32>) -> tensor<?x256x4x64xf32>
    %421 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %422 = stablehlo.reshape %421 : (tensor<i32>) -> tensor<1xi32>
    %c_129 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_130 = stablehlo.constant dense<256> : tensor<1xi32>
    %423 = stablehlo.concatenate %422, %c_129, %c_130, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %424 = stablehlo.dynamic_reshape %420, %423 : (tensor<?x256x4x64xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %425 = stablehlo.dot_general %424, %arg36, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %426 = stablehlo.reshape %arg35 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %427 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %428 = stablehlo.reshape %427 : (tensor<i32>) -> tensor<1xi32>
    %c_131 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_132 = stablehlo.constant dense<256> : tensor<1xi32>
    %429 = stablehlo.concatenate %428, %c_131, %c_132, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %430 = stablehlo.dynamic_broadcast_in_dim %426, %429, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %431 = stablehlo.add %425, %430 : tensor<?x256x256xf32>
    %432 = stablehlo.add %333, %431 : tensor<?x256x256xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %433 = stablehlo.reduce(%432 init: %cst_20) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_21 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %434 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %435 = stablehlo.reshape %434 : (tensor<i32>) -> tensor<1xi32>
    %c_133 = stablehlo.constant dense<256> : tensor<1xi32>
    %436 = stablehlo.concatenate %435, %c_133, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %437 = stablehlo.dynamic_broadcast_in_dim %cst_21, %436, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %438 = stablehlo.divide %433, %437 : tensor<?x256xf32>
    %439 = stablehlo.multiply %432, %432 : tensor<?x256x256xf32>
    %440 = stablehlo.reduce(%439 init: %cst_20) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %441 = stablehlo.divide %440, %437 : tensor<?x256xf32>
    %442 = stablehlo.multiply %438, %438 : tensor<?x256xf32>
    %443 = stablehlo.subtract %441, %442 : tensor<?x256xf32>
    %444 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %445 = stablehlo.reshape %444 : (tensor<i32>) -> tensor<1xi32>
    %c_134 = stablehlo.constant dense<256> : tensor<1xi32>
    %446 = stablehlo.concatenate %445, %c_134, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %447 = stablehlo.dynamic_broadcast_in_dim %cst_20, %446, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %448 = stablehlo.maximum %447, %443 : tensor<?x256xf32>
    %449 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %450 = stablehlo.reshape %449 : (tensor<i32>) -> tensor<1xi32>
    %c_135 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_136 = stablehlo.constant dense<256> : tensor<1xi32>
    %451 = stablehlo.concatenate %450, %c_135, %c_136, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %452 = stablehlo.dynamic_broadcast_in_dim %438, %451, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %453 = stablehlo.subtract %432, %452 : tensor<?x256x256xf32>
    %cst_22 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %454 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %455 = stablehlo.reshape %454 : (tensor<i32>) -> tensor<1xi32>
    %c_137 = stablehlo.constant dense<256> : tensor<1xi32>
    %456 = stablehlo.concatenate %455, %c_137, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %457 = stablehlo.dynamic_broadcast_in_dim %cst_22, %456, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %458 = stablehlo.add %448, %457 : tensor<?x256xf32>
    %459 = stablehlo.rsqrt %458 : tensor<?x256xf32>
    %460 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %461 = stablehlo.reshape %460 : (tensor<i32>) -> tensor<1xi32>
    %c_138 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_139 = stablehlo.constant dense<256> : tensor<1xi32>
    %462 = stablehlo.concatenate %461, %c_138, %c_139, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %463 = stablehlo.dynamic_broadcast_in_dim %459, %462, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %464 = stablehlo.reshape %arg48 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %465 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %466 = stablehlo.reshape %465 : (tensor<i32>) -> tensor<1xi32>
    %c_140 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_141 = stablehlo.constant dense<256> : tensor<1xi32>
    %467 = stablehlo.concatenate %466, %c_140, %c_141, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %468 = stablehlo.dynamic_broadcast_in_dim %464, %467, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %469 = stablehlo.multiply %463, %468 : tensor<?x256x256xf32>
    %470 = stablehlo.multiply %453, %469 : tensor<?x256x256xf32>
    %471 = stablehlo.reshape %arg47 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %472 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %473 = stablehlo.reshape %472 : (tensor<i32>) -> tensor<1xi32>
    %c_142 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_143 = stablehlo.constant dense<256> : tensor<1xi32>
    %474 = stablehlo.concatenate %473, %c_142, %c_143, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %475 = stablehlo.dynamic_broadcast_in_dim %471, %474, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %476 = stablehlo.add %470, %475 : tensor<?x256x256xf32>
    %477 = stablehlo.dot_general %476, %arg42, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x1024xf32>) -> tensor<?x256x1024xf32>
    %478 = stablehlo.reshape %arg41 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %479 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %480 = stablehlo.reshape %479 : (tensor<i32>) -> tensor<1xi32>
    %c_144 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_145 = stablehlo.constant dense<1024> : tensor<1xi32>
    %481 = stablehlo.concatenate %480, %c_144, %c_145, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %482 = stablehlo.dynamic_broadcast_in_dim %478, %481, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %483 = stablehlo.add %477, %482 : tensor<?x256x1024xf32>
    %484 = call @gelu(%arg0, %483) : (tensor<i64>, tensor<?x256x1024xf32>) -> tensor<?x256x1024xf32>
    %485 = stablehlo.dot_general %484, %arg44, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x1024xf32>, tensor<1024x256xf32>) -> tensor<?x256x256xf32>
    %486 = stablehlo.reshape %arg43 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %487 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %488 = stablehlo.reshape %487 : (tensor<i32>) -> tensor<1xi32>
    %c_146 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_147 = stablehlo.constant dense<256> : tensor<1xi32>
    %489 = stablehlo.concatenate %488, %c_146, %c_147, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %490 = stablehlo.dynamic_broadcast_in_dim %486, %489, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %491 = stablehlo.add %485, %490 : tensor<?x256x256xf32>
    %492 = stablehlo.add %432, %491 : tensor<?x256x256xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %493 = stablehlo.reduce(%492 init: %cst_23) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_24 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %494 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %495 = stablehlo.reshape %494 : (tensor<i32>) -> tensor<1xi32>
    %c_148 = stablehlo.constant dense<256> : tensor<1xi32>
    %496 = stablehlo.concatenate %495, %c_148, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %497 = stablehlo.dynamic_broadcast_in_dim %cst_24, %496, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %498 = stablehlo.divide %493, %497 : tensor<?x256xf32>
    %499 = stablehlo.multiply %492, %492 : tensor<?x256x256xf32>
    %500 = stablehlo.reduce(%499 init: %cst_23) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %501 = stablehlo.divide %500, %497 : tensor<?x256xf32>
    %502 = stablehlo.multiply %498, %498 : tensor<?x256xf32>
    %503 = stablehlo.subtract %501, %502 : tensor<?x256xf32>
    %504 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %505 = stablehlo.reshape %504 : (tensor<i32>) -> tensor<1xi32>
    %c_149 = stablehlo.constant dense<256> : tensor<1xi32>
    %506 = stablehlo.concatenate %505, %c_149, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %507 = stablehlo.dynamic_broadcast_in_dim %cst_23, %506, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %508 = stablehlo.maximum %507, %503 : tensor<?x256xf32>
    %509 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %510 = stablehlo.reshape %509 : (tensor<i32>) -> tensor<1xi32>
    %c_150 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_151 = stablehlo.constant dense<256> : tensor<1xi32>
    %511 = stablehlo.concatenate %510, %c_150, %c_151, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %512 = stablehlo.dynamic_broadcast_in_dim %498, %511, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %513 = stablehlo.subtract %492, %512 : tensor<?x256x256xf32>
    %cst_25 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %514 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %515 = stablehlo.reshape %514 : (tensor<i32>) -> tensor<1xi32>
    %c_152 = stablehlo.constant dense<256> : tensor<1xi32>
    %516 = stablehlo.concatenate %515, %c_152, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %517 = stablehlo.dynamic_broadcast_in_dim %cst_25, %516, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %518 = stablehlo.add %508, %517 : tensor<?x256xf32>
    %519 = stablehlo.rsqrt %518 : tensor<?x256xf32>
    %520 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %521 = stablehlo.reshape %520 : (tensor<i32>) -> tensor<1xi32>
    %c_153 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_154 = stablehlo.constant dense<256> : tensor<1xi32>
    %522 = stablehlo.concatenate %521, %c_153, %c_154, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %523 = stablehlo.dynamic_broadcast_in_dim %519, %522, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %524 = stablehlo.reshape %arg62 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %525 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %526 = stablehlo.reshape %525 : (tensor<i32>) -> tensor<1xi32>
    %c_155 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_156 = stablehlo.constant dense<256> : tensor<1xi32>
    %527 = stablehlo.concatenate %526, %c_155, %c_156, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %528 = stablehlo.dynamic_broadcast_in_dim %524, %527, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %529 = stablehlo.multiply %523, %528 : tensor<?x256x256xf32>
    %530 = stablehlo.multiply %513, %529 : tensor<?x256x256xf32>
    %531 = stablehlo.reshape %arg61 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %532 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %533 = stablehlo.reshape %532 : (tensor<i32>) -> tensor<1xi32>
    %c_157 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_158 = stablehlo.constant dense<256> : tensor<1xi32>
    %534 = stablehlo.concatenate %533, %c_157, %c_158, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %535 = stablehlo.dynamic_broadcast_in_dim %531, %534, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %536 = stablehlo.add %530, %535 : tensor<?x256x256xf32>
    %537 = stablehlo.dot_general %536, %arg54, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %538 = stablehlo.reshape %arg53 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %539 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %540 = stablehlo.reshape %539 : (tensor<i32>) -> tensor<1xi32>
    %c_159 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_160 = stablehlo.constant dense<256> : tensor<1xi32>
    %541 = stablehlo.concatenate %540, %c_159, %c_160, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %542 = stablehlo.dynamic_broadcast_in_dim %538, %541, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %543 = stablehlo.add %537, %542 : tensor<?x256x256xf32>
    %544 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %545 = stablehlo.reshape %544 : (tensor<i32>) -> tensor<1xi32>
    %c_161 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_162 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_163 = stablehlo.constant dense<64> : tensor<1xi32>
    %546 = stablehlo.concatenate %545, %c_161, %c_162, %c_163, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %547 = stablehlo.dynamic_reshape %543, %546 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %548 = stablehlo.dot_general %536, %arg50, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %549 = stablehlo.reshape %arg49 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %550 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %551 = stablehlo.reshape %550 : (tensor<i32>) -> tensor<1xi32>
    %c_164 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_165 = stablehlo.constant dense<256> : tensor<1xi32>
    %552 = stablehlo.concatenate %551, %c_164, %c_165, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %553 = stablehlo.dynamic_broadcast_in_dim %549, %552, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %554 = stablehlo.add %548, %553 : tensor<?x256x256xf32>
    %555 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %556 = stablehlo.reshape %555 : (tensor<i32>) -> tensor<1xi32>
    %c_166 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_167 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_168 = stablehlo.constant dense<64> : tensor<1xi32>
    %557 = stablehlo.concatenate %556, %c_166, %c_167, %c_168, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %558 = stablehlo.dynamic_reshape %554, %557 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %559 = stablehlo.dot_general %536, %arg56, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %560 = stablehlo.reshape %arg55 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %561 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %562 = stablehlo.reshape %561 : (tensor<i32>) -> tensor<1xi32>
    %c_169 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_170 = stablehlo.constant dense<256> : tensor<1xi32>
    %563 = stablehlo.concatenate %562, %c_169, %c_170, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %564 = stablehlo.dynamic_broadcast_in_dim %560, %563, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %565 = stablehlo.add %559, %564 : tensor<?x256x256xf32>
    %566 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %567 = stablehlo.reshape %566 : (tensor<i32>) -> tensor<1xi32>
    %c_171 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_172 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_173 = stablehlo.constant dense<64> : tensor<1xi32>
    %568 = stablehlo.concatenate %567, %c_171, %c_172, %c_173, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %569 = stablehlo.dynamic_reshape %565, %568 : (tensor<?x256x256xf32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %cst_26 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %570 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %571 = stablehlo.reshape %570 : (tensor<i32>) -> tensor<1xi32>
    %c_174 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_175 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_176 = stablehlo.constant dense<64> : tensor<1xi32>
    %572 = stablehlo.concatenate %571, %c_174, %c_175, %c_176, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %573 = stablehlo.dynamic_broadcast_in_dim %cst_26, %572, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %574 = stablehlo.multiply %547, %573 : tensor<?x256x4x64xf32>
    %575 = stablehlo.dot_general %574, %558, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x256xf32>
    %cst_27 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %576 = call @_where(%arg0, %15, %575, %cst_27) : (tensor<i64>, tensor<?x4x256x256xi1>, tensor<?x4x256x256xf32>, tensor<f32>) -> tensor<?x4x256x256xf32>
    %577 = call @_softmax(%arg0, %576) : (tensor<i64>, tensor<?x4x256x256xf32>) -> tensor<?x4x256x256xf32>
    %578 = stablehlo.dot_general %577, %569, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x256x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x256x64xf32>
    %579 = stablehlo.transpose %578, dims = [0, 2, 1, 3] : (tensor<?x4x256x64xf32>) -> tensor<?x256x4x64xf32>
    %580 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %581 = stablehlo.reshape %580 : (tensor<i32>) -> tensor<1xi32>
    %c_177 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_178 = stablehlo.constant dense<256> : tensor<1xi32>
    %582 = stablehlo.concatenate %581, %c_177, %c_178, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %583 = stablehlo.dynamic_reshape %579, %582 : (tensor<?x256x4x64xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %584 = stablehlo.dot_general %583, %arg52, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    %585 = stablehlo.reshape %arg51 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %586 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %587 = stablehlo.reshape %586 : (tensor<i32>) -> tensor<1xi32>
    %c_179 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_180 = stablehlo.constant dense<256> : tensor<1xi32>
    %588 = stablehlo.concatenate %587, %c_179, %c_180, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %589 = stablehlo.dynamic_broadcast_in_dim %585, %588, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %590 = stablehlo.add %584, %589 : tensor<?x256x256xf32>
    %591 = stablehlo.add %492, %590 : tensor<?x256x256xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %592 = stablehlo.reduce(%591 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_29 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %593 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %594 = stablehlo.reshape %593 : (tensor<i32>) -> tensor<1xi32>
    %c_181 = stablehlo.constant dense<256> : tensor<1xi32>
    %595 = stablehlo.concatenate %594, %c_181, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %596 = stablehlo.dynamic_broadcast_in_dim %cst_29, %595, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %597 = stablehlo.divide %592, %596 : tensor<?x256xf32>
    %598 = stablehlo.multiply %591, %591 : tensor<?x256x256xf32>
    %599 = stablehlo.reduce(%598 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %600 = stablehlo.divide %599, %596 : tensor<?x256xf32>
    %601 = stablehlo.multiply %597, %597 : tensor<?x256xf32>
    %602 = stablehlo.subtract %600, %601 : tensor<?x256xf32>
    %603 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %604 = stablehlo.reshape %603 : (tensor<i32>) -> tensor<1xi32>
    %c_182 = stablehlo.constant dense<256> : tensor<1xi32>
    %605 = stablehlo.concatenate %604, %c_182, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %606 = stablehlo.dynamic_broadcast_in_dim %cst_28, %605, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %607 = stablehlo.maximum %606, %602 : tensor<?x256xf32>
    %608 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %609 = stablehlo.reshape %608 : (tensor<i32>) -> tensor<1xi32>
    %c_183 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_184 = stablehlo.constant dense<256> : tensor<1xi32>
    %610 = stablehlo.concatenate %609, %c_183, %c_184, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %611 = stablehlo.dynamic_broadcast_in_dim %597, %610, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %612 = stablehlo.subtract %591, %611 : tensor<?x256x256xf32>
    %cst_30 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %613 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %614 = stablehlo.reshape %613 : (tensor<i32>) -> tensor<1xi32>
    %c_185 = stablehlo.constant dense<256> : tensor<1xi32>
    %615 = stablehlo.concatenate %614, %c_185, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %616 = stablehlo.dynamic_broadcast_in_dim %cst_30, %615, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %617 = stablehlo.add %607, %616 : tensor<?x256xf32>
    %618 = stablehlo.rsqrt %617 : tensor<?x256xf32>
    %619 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %620 = stablehlo.reshape %619 : (tensor<i32>) -> tensor<1xi32>
    %c_186 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_187 = stablehlo.constant dense<256> : tensor<1xi32>
    %621 = stablehlo.concatenate %620, %c_186, %c_187, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %622 = stablehlo.dynamic_broadcast_in_dim %618, %621, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %623 = stablehlo.reshape %arg64 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %624 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %625 = stablehlo.reshape %624 : (tensor<i32>) -> tensor<1xi32>
    %c_188 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_189 = stablehlo.constant dense<256> : tensor<1xi32>
    %626 = stablehlo.concatenate %625, %c_188, %c_189, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %627 = stablehlo.dynamic_broadcast_in_dim %623, %626, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %628 = stablehlo.multiply %622, %627 : tensor<?x256x256xf32>
    %629 = stablehlo.multiply %612, %628 : tensor<?x256x256xf32>
    %630 = stablehlo.reshape %arg63 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %631 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %632 = stablehlo.reshape %631 : (tensor<i32>) -> tensor<1xi32>
    %c_190 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_191 = stablehlo.constant dense<256> : tensor<1xi32>
    %633 = stablehlo.concatenate %632, %c_190, %c_191, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %634 = stablehlo.dynamic_broadcast_in_dim %630, %633, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %635 = stablehlo.add %629, %634 : tensor<?x256x256xf32>
    %636 = stablehlo.dot_general %635, %arg58, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x1024xf32>) -> tensor<?x256x1024xf32>
    %637 = stablehlo.reshape %arg57 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %638 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %639 = stablehlo.reshape %638 : (tensor<i32>) -> tensor<1xi32>
    %c_192 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_193 = stablehlo.constant dense<1024> : tensor<1xi32>
    %640 = stablehlo.concatenate %639, %c_192, %c_193, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %641 = stablehlo.dynamic_broadcast_in_dim %637, %640, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %642 = stablehlo.add %636, %641 : tensor<?x256x1024xf32>
    %643 = call @gelu(%arg0, %642) : (tensor<i64>, tensor<?x256x1024xf32>) -> tensor<?x256x1024xf32>
    %644 = stablehlo.dot_general %643, %arg60, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x1024xf32>, tensor<1024x256xf32>) -> tensor<?x256x256xf32>
    %645 = stablehlo.reshape %arg59 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %646 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %647 = stablehlo.reshape %646 : (tensor<i32>) -> tensor<1xi32>
    %c_194 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_195 = stablehlo.constant dense<256> : tensor<1xi32>
    %648 = stablehlo.concatenate %647, %c_194, %c_195, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %649 = stablehlo.dynamic_broadcast_in_dim %645, %648, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %650 = stablehlo.add %644, %649 : tensor<?x256x256xf32>
    %651 = stablehlo.add %591, %650 : tensor<?x256x256xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %652 = stablehlo.reduce(%651 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %cst_32 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %653 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %654 = stablehlo.reshape %653 : (tensor<i32>) -> tensor<1xi32>
    %c_196 = stablehlo.constant dense<256> : tensor<1xi32>
    %655 = stablehlo.concatenate %654, %c_196, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %656 = stablehlo.dynamic_broadcast_in_dim %cst_32, %655, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %657 = stablehlo.divide %652, %656 : tensor<?x256xf32>
    %658 = stablehlo.multiply %651, %651 : tensor<?x256x256xf32>
    %659 = stablehlo.reduce(%658 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<?x256x256xf32>, tensor<f32>) -> tensor<?x256xf32>
    %660 = stablehlo.divide %659, %656 : tensor<?x256xf32>
    %661 = stablehlo.multiply %657, %657 : tensor<?x256xf32>
    %662 = stablehlo.subtract %660, %661 : tensor<?x256xf32>
    %663 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %664 = stablehlo.reshape %663 : (tensor<i32>) -> tensor<1xi32>
    %c_197 = stablehlo.constant dense<256> : tensor<1xi32>
    %665 = stablehlo.concatenate %664, %c_197, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %666 = stablehlo.dynamic_broadcast_in_dim %cst_31, %665, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %667 = stablehlo.maximum %666, %662 : tensor<?x256xf32>
    %668 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %669 = stablehlo.reshape %668 : (tensor<i32>) -> tensor<1xi32>
    %c_198 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_199 = stablehlo.constant dense<256> : tensor<1xi32>
    %670 = stablehlo.concatenate %669, %c_198, %c_199, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %671 = stablehlo.dynamic_broadcast_in_dim %657, %670, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %672 = stablehlo.subtract %651, %671 : tensor<?x256x256xf32>
    %cst_33 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %673 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %674 = stablehlo.reshape %673 : (tensor<i32>) -> tensor<1xi32>
    %c_200 = stablehlo.constant dense<256> : tensor<1xi32>
    %675 = stablehlo.concatenate %674, %c_200, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %676 = stablehlo.dynamic_broadcast_in_dim %cst_33, %675, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x256xf32>
    %677 = stablehlo.add %667, %676 : tensor<?x256xf32>
    %678 = stablehlo.rsqrt %677 : tensor<?x256xf32>
    %679 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %680 = stablehlo.reshape %679 : (tensor<i32>) -> tensor<1xi32>
    %c_201 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_202 = stablehlo.constant dense<256> : tensor<1xi32>
    %681 = stablehlo.concatenate %680, %c_201, %c_202, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %682 = stablehlo.dynamic_broadcast_in_dim %678, %681, dims = [0, 1] : (tensor<?x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %683 = stablehlo.reshape %arg68 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %684 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %685 = stablehlo.reshape %684 : (tensor<i32>) -> tensor<1xi32>
    %c_203 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_204 = stablehlo.constant dense<256> : tensor<1xi32>
    %686 = stablehlo.concatenate %685, %c_203, %c_204, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %687 = stablehlo.dynamic_broadcast_in_dim %683, %686, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %688 = stablehlo.multiply %682, %687 : tensor<?x256x256xf32>
    %689 = stablehlo.multiply %672, %688 : tensor<?x256x256xf32>
    %690 = stablehlo.reshape %arg67 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %691 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %692 = stablehlo.reshape %691 : (tensor<i32>) -> tensor<1xi32>
    %c_205 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_206 = stablehlo.constant dense<256> : tensor<1xi32>
    %693 = stablehlo.concatenate %692, %c_205, %c_206, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %694 = stablehlo.dynamic_broadcast_in_dim %690, %693, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %695 = stablehlo.add %689, %694 : tensor<?x256x256xf32>
    %696 = stablehlo.dot_general %695, %arg66, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x256x256xf32>, tensor<256x256xf32>) -> tensor<?x256x256xf32>
    return %696 : tensor<?x256x256xf32>
  }
  func.func private @_take(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<256x256xf32>, %arg2: tensor<?x256xi32>) -> tensor<?x256x256xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<?x256xi32>) -> tensor<?x256xi64>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<256> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_reshape %0, %3 : (tensor<?x256xi64>, tensor<3xi32>) -> tensor<?x256x1xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_2, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %c_1, %7, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x256x1xi64>
    %9 = stablehlo.compare  GE, %4, %8,  SIGNED : (tensor<?x256x1xi64>, tensor<?x256x1xi64>) -> tensor<?x256x1xi1>
    %c_4 = stablehlo.constant dense<255> : tensor<i64>
    %10 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %11 = stablehlo.reshape %10 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<1> : tensor<1xi32>
    %12 = stablehlo.concatenate %11, %c_5, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %c_4, %12, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x256x1xi64>
    %14 = stablehlo.compare  LE, %4, %13,  SIGNED : (tensor<?x256x1xi64>, tensor<?x256x1xi64>) -> tensor<?x256x1xi1>
    %15 = stablehlo.and %9, %14 : tensor<?x256x1xi1>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %16 = stablehlo.reduce(%15 init: %c_7) applies stablehlo.and across dimensions = [2] : (tensor<?x256x1xi1>, tensor<i1>) -> tensor<?x256xi1>
    %17 = "stablehlo.gather"(%arg1, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<256x256xf32>, tensor<?x256x1xi64>) -> tensor<?x256x256xf32>
    %18 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %c_8 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_9 = stablehlo.constant dense<256> : tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_8, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %16, %20, dims = [0, 1] : (tensor<?x256xi1>, tensor<3xi32>) -> tensor<?x256x256xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %22 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %23 = stablehlo.reshape %22 : (tensor<i32>) -> tensor<1xi32>
    %c_10 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_11 = stablehlo.constant dense<256> : tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_10, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %cst, %24, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x256x256xf32>
    %26 = stablehlo.select %21, %17, %25 : tensor<?x256x256xi1>, tensor<?x256x256xf32>
    return %26 : tensor<?x256x256xf32>
  }
  func.func private @_take_0(%arg0: tensor<256x256xf32>, %arg1: tensor<1x256xi32>) -> tensor<1x256x256xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<1x256xi32>) -> tensor<1x256xi64>
    %1 = stablehlo.reshape %0 : (tensor<1x256xi64>) -> tensor<1x256x1xi64>
    %c = stablehlo.constant dense<0> : tensor<1x256x1xi64>
    %2 = stablehlo.compare  GE, %1, %c,  SIGNED : (tensor<1x256x1xi64>, tensor<1x256x1xi64>) -> tensor<1x256x1xi1>
    %c_0 = stablehlo.constant dense<255> : tensor<1x256x1xi64>
    %3 = stablehlo.compare  LE, %1, %c_0,  SIGNED : (tensor<1x256x1xi64>, tensor<1x256x1xi64>) -> tensor<1x256x1xi1>
    %4 = stablehlo.and %2, %3 : tensor<1x256x1xi1>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %5 = stablehlo.reduce(%4 init: %c_1) applies stablehlo.and across dimensions = [2] : (tensor<1x256x1xi1>, tensor<i1>) -> tensor<1x256xi1>
    %6 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<256x256xf32>, tensor<1x256x1xi64>) -> tensor<1x256x256xf32>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<1x256xi1>) -> tensor<1x256x256xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<1x256x256xf32>
    %8 = stablehlo.select %7, %6, %cst : tensor<1x256x256xi1>, tensor<1x256x256xf32>
    return %8 : tensor<1x256x256xf32>
  }
  func.func private @_where(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x4x256x256xi1>, %arg2: tensor<?x4x256x256xf32>, %arg3: tensor<f32>) -> tensor<?x4x256x256xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<256> : tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg3, %2, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x4x256x256xf32>
    %4 = stablehlo.select %arg1, %arg2, %3 : tensor<?x4x256x256xi1>, tensor<?x4x256x256xf32>
    return %4 : tensor<?x4x256x256xf32>
  }
  func.func private @_softmax(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x4x256x256xf32>) -> tensor<?x4x256x256xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.maximum across dimensions = [3] : (tensor<?x4x256x256xf32>, tensor<f32>) -> tensor<?x4x256xf32>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<256> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %0, %3, dims = [0, 1, 2] : (tensor<?x4x256xf32>, tensor<4xi32>) -> tensor<?x4x256x256xf32>
    %5 = stablehlo.subtract %arg1, %4 : tensor<?x4x256x256xf32>
    %6 = stablehlo.exponential %5 : tensor<?x4x256x256xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.add across dimensions = [3] : (tensor<?x4x256x256xf32>, tensor<f32>) -> tensor<?x4x256xf32>
    %8 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %9 = stablehlo.reshape %8 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<256> : tensor<1xi32>
    %10 = stablehlo.concatenate %9, %c_2, %c_3, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %7, %10, dims = [0, 1, 2] : (tensor<?x4x256xf32>, tensor<4xi32>) -> tensor<?x4x256x256xf32>
    %12 = stablehlo.divide %6, %11 : tensor<?x4x256x256xf32>
    return %12 : tensor<?x4x256x256xf32>
  }
  func.func private @gelu(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x256x1024xf32>) -> tensor<?x256x1024xf32> {
    %0 = call @integer_pow(%arg0, %arg1) : (tensor<i64>, tensor<?x256x1024xf32>) -> tensor<?x256x1024xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<256> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1024> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %cst, %3, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %5 = stablehlo.multiply %4, %0 : tensor<?x256x1024xf32>
    %6 = stablehlo.add %arg1, %5 : tensor<?x256x1024xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %7 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %8 = stablehlo.reshape %7 : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<1024> : tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_1, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %cst_0, %9, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %11 = stablehlo.multiply %10, %6 : tensor<?x256x1024xf32>
    %12 = stablehlo.tanh %11 : tensor<?x256x1024xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %14 = stablehlo.reshape %13 : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<1024> : tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_3, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %cst_1, %15, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %17 = stablehlo.add %16, %12 : tensor<?x256x1024xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %18 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<1024> : tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_5, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %cst_2, %20, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x256x1024xf32>
    %22 = stablehlo.multiply %21, %17 : tensor<?x256x1024xf32>
    %23 = stablehlo.multiply %arg1, %22 : tensor<?x256x1024xf32>
    return %23 : tensor<?x256x1024xf32>
  }
  func.func private @integer_pow(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x256x1024xf32>) -> tensor<?x256x1024xf32> {
    %0 = stablehlo.multiply %arg1, %arg1 : tensor<?x256x1024xf32>
    %1 = stablehlo.multiply %arg1, %0 : tensor<?x256x1024xf32>
    return %1 : tensor<?x256x1024xf32>
  }
}

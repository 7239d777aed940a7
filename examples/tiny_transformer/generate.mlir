module @jit_generate attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
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
  func.func public @prefill(%arg0: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg1: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg2: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg3: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg4: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg5: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg6: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg7: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg8: tensor<1024xf32> {jax.arg_info = "params['blocks'][0]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg9: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][0]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg10: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg11: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][0]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg12: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg13: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg14: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg15: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg16: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg17: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg18: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg19: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg20: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg21: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg22: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg23: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg24: tensor<1024xf32> {jax.arg_info = "params['blocks'][1]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg25: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][1]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg26: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg27: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][1]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg28: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg29: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg30: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg31: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg32: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg33: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg34: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg35: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg36: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg37: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg38: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg39: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg40: tensor<1024xf32> {jax.arg_info = "params['blocks'][2]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg41: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][2]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg42: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg43: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][2]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg44: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg45: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg46: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg47: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg48: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg49: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg50: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg51: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg52: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg53: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg54: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg55: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg56: tensor<1024xf32> {jax.arg_info = "params['blocks'][3]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg57: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][3]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg58: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg59: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][3]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg60: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg61: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg62: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg63: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg64: tensor<256x256xf32> {jax.arg_info = "params['embed']['embedding']", mhlo.sharding = "{replicated}"}, %arg65: tensor<256x256xf32> {jax.arg_info = "params['lm_head']['kernel']", mhlo.sharding = "{replicated}"}, %arg66: tensor<256xf32> {jax.arg_info = "params['ln_f']['bias']", mhlo.sharding = "{replicated}"}, %arg67: tensor<256xf32> {jax.arg_info = "params['ln_f']['scale']", mhlo.sharding = "{replicated}"}, %arg68: tensor<256x256xf32> {jax.arg_info = "params['pos_embed']['embedding']", mhlo.sharding = "{replicated}"}, %arg69: tensor<?x?xi32> {jax.arg_info = "tokens", mhlo.sharding = "{replicated}"}, %arg70: tensor<?xi32> {jax.arg_info = "lengths", mhlo.sharding = "{replicated}"}) -> (tensor<?x256xf32> {jax.result_info = "[0]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][0]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][1]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][2]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][3]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][4]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][5]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][6]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][7]"}) {
    %0 = stablehlo.get_dimension_size %arg69, dim = 0 : (tensor<?x?xi32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2 = stablehlo.get_dimension_size %arg69, dim = 1 : (tensor<?x?xi32>) -> tensor<i32>
    %3 = stablehlo.convert %2 : (tensor<i32>) -> tensor<i64>
    %4:9 = call @_wrapped_jax_export_prefill(%1, %3, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27, %arg28, %arg29, %arg30, %arg31, %arg32, %arg33, %arg34, %arg35, %arg36, %arg37, %arg38, %arg39, %arg40, %arg41, %arg42, %arg43, %arg44, %arg45, %arg46, %arg47, %arg48, %arg49, %arg50, %arg51, %arg52, %arg53, %arg54, %arg55, %arg56, %arg57, %arg58, %arg59, %arg60, %arg61, %arg62, %arg63, %arg64, %arg65, %arg66, %arg67, %arg68, %arg69, %arg70) : (tensor<i64>, tensor<i64>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<?x?xi32>, tensor<?xi32>) -> (tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>)
    return %4#0, %4#1, %4#2, %4#3, %4#4, %4#5, %4#6, %4#7, %4#8 : tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>
  }
  func.func private @_wrapped_jax_export_prefill(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<256xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<256xf32>, %arg5: tensor<256x256xf32>, %arg6: tensor<256xf32>, %arg7: tensor<256x256xf32>, %arg8: tensor<256xf32>, %arg9: tensor<256x256xf32>, %arg10: tensor<1024xf32>, %arg11: tensor<256x1024xf32>, %arg12: tensor<256xf32>, %arg13: tensor<1024x256xf32>, %arg14: tensor<256xf32>, %arg15: tensor<256xf32>, %arg16: tensor<256xf32>, %arg17: tensor<256xf32>, %arg18: tensor<256xf32>, %arg19: tensor<256x256xf32>, %arg20: tensor<256xf32>, %arg21: tensor<256x256xf32>, %arg22: tensor<256xf32>, %arg23: tensor<256x256xf32>, %arg24: tensor<256xf32>, %arg25: tensor<256x256xf32>, %arg26: tensor<1024xf32>, %arg27: tensor<256x1024xf32>, %arg28: tensor<256xf32>, %arg29: tensor<1024x256xf32>, %arg30: tensor<256xf32>, %arg31: tensor<256xf32>, %arg32: tensor<256xf32>, %arg33: tensor<256xf32>, %arg34: tensor<256xf32>, %arg35: tensor<256x256xf32>, %arg36: tensor<256xf32>, %arg37: tensor<256x256xf32>, %arg38: tensor<256xf32>, %arg39: tensor<256x256xf32>, %arg40: tensor<256xf32>, %arg41: tensor<256x256xf32>, %arg42: tensor<1024xf32>, %arg43: tensor<256x1024xf32>, %arg44: tensor<256xf32>, %arg45: tensor<1024x256xf32>, %arg46: tensor<256xf32>, %arg47: tensor<256xf32>, %arg48: tensor<256xf32>, %arg49: tensor<256xf32>, %arg50: tensor<256xf32>, %arg51: tensor<256x256xf32>, %arg52: tensor<256xf32>, %arg53: tensor<256x256xf32>, %arg54: tensor<256xf32>, %arg55: tensor<256x256xf32>, %arg56: tensor<256xf32>, %arg57: tensor<256x256xf32>, %arg58: tensor<1024xf32>, %arg59: tensor<256x1024xf32>, %arg60: tensor<256xf32>, %arg61: tensor<1024x256xf32>, %arg62: tensor<256xf32>, %arg63: tensor<256xf32>, %arg64: tensor<256xf32>, %arg65: tensor<256xf32>, %arg66: tensor<256x256xf32>, %arg67: tensor<256x256xf32>, %arg68: tensor<256xf32>, %arg69: tensor<256xf32>, %arg70: tensor<256x256xf32>, %arg71: tensor<?x?xi32>, %arg72: tensor<?xi32>) -> (tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>) {
    %0 = call @_take_3(%arg0, %arg1, %arg66, %arg71) : (tensor<i64>, tensor<i64>, tensor<256x256xf32>, tensor<?x?xi32>) -> tensor<?x?x256xf32>
    %1 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %4 = stablehlo.dynamic_iota %3, dim = 0 : (tensor<1xi32>) -> tensor<?xi32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %5 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %c, %6, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %4, %7, dims = [1] : (tensor<?xi32>, tensor<2xi32>) -> tensor<1x?xi32>
    %9 = call @_take_4(%arg0, %arg1, %arg70, %8) : (tensor<i64>, tensor<i64>, tensor<256x256xf32>, tensor<1x?xi32>) -> tensor<1x?x256xf32>
    %10 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %11 = stablehlo.reshape %10 : (tensor<i32>) -> tensor<1xi32>
    %12 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %13 = stablehlo.reshape %12 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<256> : tensor<1xi32>
    %14 = stablehlo.concatenate %11, %13, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %9, %14, dims = [0, 1, 2] : (tensor<1x?x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %16 = stablehlo.add %0, %15 : tensor<?x?x256xf32>
    %17 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %18 = stablehlo.reshape %17 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %20 = stablehlo.reshape %19 : (tensor<i32>) -> tensor<1xi32>
    %21 = stablehlo.concatenate %18, %20, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %22 = stablehlo.dynamic_iota %21, dim = 0 : (tensor<2xi32>) -> tensor<?x?xi32>
    %23 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %24 = stablehlo.reshape %23 : (tensor<i32>) -> tensor<1xi32>
    %25 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %26 = stablehlo.reshape %25 : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.concatenate %24, %26, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %28 = stablehlo.dynamic_iota %27, dim = 1 : (tensor<2xi32>) -> tensor<?x?xi32>
    %29 = stablehlo.compare  GE, %22, %28,  SIGNED : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi1>
    %30 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %31 = stablehlo.reshape %30 : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %32 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %33 = stablehlo.reshape %32 : (tensor<i32>) -> tensor<1xi32>
    %34 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %35 = stablehlo.reshape %34 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %31, %c_1, %33, %35, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %37 = stablehlo.dynamic_broadcast_in_dim %29, %36, dims = [2, 3] : (tensor<?x?xi1>, tensor<4xi32>) -> tensor<?x4x?x?xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%16 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %39 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %40 = stablehlo.reshape %39 : (tensor<i32>) -> tensor<1xi32>
    %41 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %42 = stablehlo.reshape %41 : (tensor<i32>) -> tensor<1xi32>
    %43 = stablehlo.concatenate %40, %42, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %44 = stablehlo.dynamic_broadcast_in_dim %cst_0, %43, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %45 = stablehlo.divide %38, %44 : tensor<?x?xf32>
    %46 = stablehlo.multiply %16, %16 : tensor<?x?x256xf32>
    %47 = stablehlo.reduce(%46 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %48 = stablehlo.divide %47, %44 : tensor<?x?xf32>
    %49 = stablehlo.multiply %45, %45 : tensor<?x?xf32>
    %50 = stablehlo.subtract %48, %49 : tensor<?x?xf32>
    %51 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %52 = stablehlo.reshape %51 : (tensor<i32>) -> tensor<1xi32>
    %53 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %54 = stablehlo.reshape %53 : (tensor<i32>) -> tensor<1xi32>
    %55 = stablehlo.concatenate %52, %54, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %56 = stablehlo.dynamic_broadcast_in_dim %cst, %55, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %57 = stablehlo.maximum %56, %50 : tensor<?x?xf32>
    %58 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %59 = stablehlo.reshape %58 : (tensor<i32>) -> tensor<1xi32>
    %60 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %61 = stablehlo.reshape %60 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<256> : tensor<1xi32>
    %62 = stablehlo.concatenate %59, %61, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %63 = stablehlo.dynamic_broadcast_in_dim %45, %62, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %64 = stablehlo.subtract %16, %63 : tensor<?x?x256xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %65 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %66 = stablehlo.reshape %65 : (tensor<i32>) -> tensor<1xi32>
    %67 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %68 = stablehlo.reshape %67 : (tensor<i32>) -> tensor<1xi32>
    %69 = stablehlo.concatenate %66, %68, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %70 = stablehlo.dynamic_broadcast_in_dim %cst_1, %69, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %71 = stablehlo.add %57, %70 : tensor<?x?xf32>
    %72 = stablehlo.rsqrt %71 : tensor<?x?xf32>
    %73 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %74 = stablehlo.reshape %73 : (tensor<i32>) -> tensor<1xi32>
    %75 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %76 = stablehlo.reshape %75 : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<256> : tensor<1xi32>
    %77 = stablehlo.concatenate %74, %76, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %78 = stablehlo.dynamic_broadcast_in_dim %72, %77, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %79 = stablehlo.reshape %arg15 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %80 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %81 = stablehlo.reshape %80 : (tensor<i32>) -> tensor<1xi32>
    %82 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %83 = stablehlo.reshape %82 : (tensor<i32>) -> tensor<1xi32>
    %c_4 = stablehlo.constant dense<256> : tensor<1xi32>
    %84 = stablehlo.concatenate %81, %83, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %85 = stablehlo.dynamic_broadcast_in_dim %79, %84, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %86 = stablehlo.multiply %78, %85 : tensor<?x?x256xf32>
    %87 = stablehlo.multiply %64, %86 : tensor<?x?x256xf32>
    %88 = stablehlo.reshape %arg14 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %89 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %90 = stablehlo.reshape %89 : (tensor<i32>) -> tensor<1xi32>
    %91 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %92 = stablehlo.reshape %91 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<256> : tensor<1xi32>
    %93 = stablehlo.concatenate %90, %92, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %94 = stablehlo.dynamic_broadcast_in_dim %88, %93, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %95 = stablehlo.add %87, %94 : tensor<?x?x256xf32>
    %96 = stablehlo.dot_general %95, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %97 = stablehlo.reshape %arg6 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %98 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %99 = stablehlo.reshape %98 : (tensor<i32>) -> tensor<1xi32>
    %100 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %101 = stablehlo.reshape %100 : (tensor<i32>) -> tensor<1xi32>
    %c_6 = stablehlo.constant dense<256> : tensor<1xi32>
    %102 = stablehlo.concatenate %99, %101, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %103 = stablehlo.dynamic_broadcast_in_dim %97, %102, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %104 = stablehlo.add %96, %103 : tensor<?x?x256xf32>
    %105 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %106 = stablehlo.reshape %105 : (tensor<i32>) -> tensor<1xi32>
    %107 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %108 = stablehlo.reshape %107 : (tensor<i32>) -> tensor<1xi32>
    %c_7 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_8 = stablehlo.constant dense<64> : tensor<1xi32>
    %109 = stablehlo.concatenate %106, %108, %c_7, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %110 = stablehlo.dynamic_reshape %104, %109 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %111 = stablehlo.dot_general %95, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %112 = stablehlo.reshape %arg2 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %113 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %114 = stablehlo.reshape %113 : (tensor<i32>) -> tensor<1xi32>
    %115 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %116 = stablehlo.reshape %115 : (tensor<i32>) -> tensor<1xi32>
    %c_9 = stablehlo.constant dense<256> : tensor<1xi32>
    %117 = stablehlo.concatenate %114, %116, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %118 = stablehlo.dynamic_broadcast_in_dim %112, %117, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %119 = stablehlo.add %111, %118 : tensor<?x?x256xf32>
    %120 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %121 = stablehlo.reshape %120 : (tensor<i32>) -> tensor<1xi32>
    %122 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %123 = stablehlo.reshape %122 : (tensor<i32>) -> tensor<1xi32>
    %c_10 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_11 = stablehlo.constant dense<64> : tensor<1xi32>
    %124 = stablehlo.concatenate %121, %123, %c_10, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %125 = stablehlo.dynamic_reshape %119, %124 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %126 = stablehlo.dot_general %95, %arg9, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %127 = stablehlo.reshape %arg8 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %128 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %129 = stablehlo.reshape %128 : (tensor<i32>) -> tensor<1xi32>
    %130 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %131 = stablehlo.reshape %130 : (tensor<i32>) -> tensor<1xi32>
    %c_12 = stablehlo.constant dense<256> : tensor<1xi32>
    %132 = stablehlo.concatenate %129, %131, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %133 = stablehlo.dynamic_broadcast_in_dim %127, %132, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %134 = stablehlo.add %126, %133 : tensor<?x?x256xf32>
    %135 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %136 = stablehlo.reshape %135 : (tensor<i32>) -> tensor<1xi32>
    %137 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %138 = stablehlo.reshape %137 : (tensor<i32>) -> tensor<1xi32>
    %c_13 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_14 = stablehlo.constant dense<64> : tensor<1xi32>
    %139 = stablehlo.concatenate %136, %138, %c_13, %c_14, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %140 = stablehlo.dynamic_reshape %134, %139 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %cst_2 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %141 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %142 = stablehlo.reshape %141 : (tensor<i32>) -> tensor<1xi32>
    %143 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %144 = stablehlo.reshape %143 : (tensor<i32>) -> tensor<1xi32>
    %c_15 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_16 = stablehlo.constant dense<64> : tensor<1xi32>
    %145 = stablehlo.concatenate %142, %144, %c_15, %c_16, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %146 = stablehlo.dynamic_broadcast_in_dim %cst_2, %145, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %147 = stablehlo.multiply %110, %146 : tensor<?x?x4x64xf32>
    %148 = stablehlo.dot_general %147, %125, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x?x4x64xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x?xf32>
    %cst_3 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %149 = call @_where_2(%arg0, %arg1, %37, %148, %cst_3) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xi1>, tensor<?x4x?x?xf32>, tensor<f32>) -> tensor<?x4x?x?xf32>
    %150 = call @_softmax_2(%arg0, %arg1, %149) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
    %151 = stablehlo.dot_general %150, %140, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x?x?xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x64xf32>
    %152 = stablehlo.transpose %151, dims = [0, 2, 1, 3] : (tensor<?x4x?x64xf32>) -> tensor<?x?x4x64xf32>
    %153 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %154 = stablehlo.reshape %153 : (tensor<i32>) -> tensor<1xi32>
    %155 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %156 = stablehlo.reshape %155 : (tensor<i32>) -> tensor<1xi32>
    %c_17 = stablehlo.constant dense<256> : tensor<1xi32>
    %157 = stablehlo.concatenate %154, %156, %c_17, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %158 = stablehlo.dynamic_reshape %152, %157 : (tensor<?x?x4x64xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %159 = stablehlo.dot_general %158, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %160 = stablehlo.reshape %arg4 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %161 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %162 = stablehlo.reshape %161 : (tensor<i32>) -> tensor<1xi32>
    %163 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %164 = stablehlo.reshape %163 : (tensor<i32>) -> tensor<1xi32>
    %c_18 = stablehlo.constant dense<256> : tensor<1xi32>
    %165 = stablehlo.concatenate %162, %164, %c_18, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %166 = stablehlo.dynamic_broadcast_in_dim %160, %165, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %167 = stablehlo.add %159, %166 : tensor<?x?x256xf32>
    %168 = stablehlo.add %16, %167 : tensor<?x?x256xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.reduce(%168 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_5 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %170 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %171 = stablehlo.reshape %170 : (tensor<i32>) -> tensor<1xi32>
    %172 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %173 = stablehlo.reshape %172 : (tensor<i32>) -> tensor<1xi32>
    %174 = stablehlo.concatenate %171, %173, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %175 = stablehlo.dynamic_broadcast_in_dim %cst_5, %174, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %176 = stablehlo.divide %169, %175 : tensor<?x?xf32>
    %177 = stablehlo.multiply %168, %168 : tensor<?x?x256xf32>
    %178 = stablehlo.reduce(%177 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %179 = stablehlo.divide %178, %175 : tensor<?x?xf32>
    %180 = stablehlo.multiply %176, %176 : tensor<?x?xf32>
    %181 = stablehlo.subtract %179, %180 : tensor<?x?xf32>
    %182 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %183 = stablehlo.reshape %182 : (tensor<i32>) -> tensor<1xi32>
    %184 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %185 = stablehlo.reshape %184 : (tensor<i32>) -> tensor<1xi32>
    %186 = stablehlo.concatenate %183, %185, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %187 = stablehlo.dynamic_broadcast_in_dim %cst_4, %186, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %188 = stablehlo.maximum %187, %181 : tensor<?x?xf32>
    %189 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %190 = stablehlo.reshape %189 : (tensor<i32>) -> tensor<1xi32>
    %191 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %192 = stablehlo.reshape %191 : (tensor<i32>) -> tensor<1xi32>
    %c_19 = stablehlo.constant dense<256> : tensor<1xi32>
    %193 = stablehlo.concatenate %190, %192, %c_19, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %194 = stablehlo.dynamic_broadcast_in_dim %176, %193, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %195 = stablehlo.subtract %168, %194 : tensor<?x?x256xf32>
    %cst_6 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %196 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %197 = stablehlo.reshape %196 : (tensor<i32>) -> tensor<1xi32>
    %198 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %199 = stablehlo.reshape %198 : (tensor<i32>) -> tensor<1xi32>
    %200 = stablehlo.concatenate %197, %199, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %201 = stablehlo.dynamic_broadcast_in_dim %cst_6, %200, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %202 = stablehlo.add %188, %201 : tensor<?x?xf32>
    %203 = stablehlo.rsqrt %202 : tensor<?x?xf32>
    %204 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %205 = stablehlo.reshape %204 : (tensor<i32>) -> tensor<1xi32>
    %206 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %207 = stablehlo.reshape %206 : (tensor<i32>) -> tensor<1xi32>
    %c_20 = stablehlo.constant dense<256> : tensor<1xi32>
    %208 = stablehlo.concatenate %205, %207, %c_20, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %209 = stablehlo.dynamic_broadcast_in_dim %203, %208, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %210 = stablehlo.reshape %arg17 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %211 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %212 = stablehlo.reshape %211 : (tensor<i32>) -> tensor<1xi32>
    %213 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %214 = stablehlo.reshape %213 : (tensor<i32>) -> tensor<1xi32>
    %c_21 = stablehlo.constant dense<256> : tensor<1xi32>
    %215 = stablehlo.concatenate %212, %214, %c_21, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %216 = stablehlo.dynamic_broadcast_in_dim %210, %215, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %217 = stablehlo.multiply %209, %216 : tensor<?x?x256xf32>
    %218 = stablehlo.multiply %195, %217 : tensor<?x?x256xf32>
    %219 = stablehlo.reshape %arg16 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %220 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %221 = stablehlo.reshape %220 : (tensor<i32>) -> tensor<1xi32>
    %222 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %223 = stablehlo.reshape %222 : (tensor<i32>) -> tensor<1xi32>
    %c_22 = stablehlo.constant dense<256> : tensor<1xi32>
    %224 = stablehlo.concatenate %221, %223, %c_22, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %225 = stablehlo.dynamic_broadcast_in_dim %219, %224, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %226 = stablehlo.add %218, %225 : tensor<?x?x256xf32>
    %227 = stablehlo.dot_general %226, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x1024xf32>) -> tensor<?x?x1024xf32>
    %228 = stablehlo.reshape %arg10 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %229 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %230 = stablehlo.reshape %229 : (tensor<i32>) -> tensor<1xi32>
    %231 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %232 = stablehlo.reshape %231 : (tensor<i32>) -> tensor<1xi32>
    %c_23 = stablehlo.constant dense<1024> : tensor<1xi32>
    %233 = stablehlo.concatenate %230, %232, %c_23, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %234 = stablehlo.dynamic_broadcast_in_dim %228, %233, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %235 = stablehlo.add %227, %234 : tensor<?x?x1024xf32>
    %236 = call @gelu_2(%arg0, %arg1, %235) : (tensor<i64>, tensor<i64>, tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32>
    %237 = stablehlo.dot_general %236, %arg13, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x1024xf32>, tensor<1024x256xf32>) -> tensor<?x?x256xf32>
    %238 = stablehlo.reshape %arg12 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %239 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %240 = stablehlo.reshape %239 : (tensor<i32>) -> tensor<1xi32>
    %241 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %242 = stablehlo.reshape %241 : (tensor<i32>) -> tensor<1xi32>
    %c_24 = stablehlo.constant dense<256> : tensor<1xi32>
    %243 = stablehlo.concatenate %240, %242, %c_24, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %244 = stablehlo.dynamic_broadcast_in_dim %238, %243, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %245 = stablehlo.add %237, %244 : tensor<?x?x256xf32>
    %246 = stablehlo.add %168, %245 : tensor<?x?x256xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %247 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %248 = stablehlo.reshape %247 : (tensor<i32>) -> tensor<1xi32>
    %c_25 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_26 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_27 = stablehlo.constant dense<64> : tensor<1xi32>
    %249 = stablehlo.concatenate %248, %c_25, %c_26, %c_27, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %250 = stablehlo.dynamic_broadcast_in_dim %cst_7, %249, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_28 = stablehlo.constant dense<0> : tensor<i32>
    %251 = stablehlo.dynamic_update_slice %250, %125, %c_28, %c_28, %c_28, %c_28 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %252 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %253 = stablehlo.reshape %252 : (tensor<i32>) -> tensor<1xi32>
    %c_29 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_30 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_31 = stablehlo.constant dense<64> : tensor<1xi32>
    %254 = stablehlo.concatenate %253, %c_29, %c_30, %c_31, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %255 = stablehlo.dynamic_broadcast_in_dim %cst_8, %254, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_32 = stablehlo.constant dense<0> : tensor<i32>
    %256 = stablehlo.dynamic_update_slice %255, %140, %c_32, %c_32, %c_32, %c_32 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %257 = stablehlo.reduce(%246 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_10 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %258 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %259 = stablehlo.reshape %258 : (tensor<i32>) -> tensor<1xi32>
    %260 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %261 = stablehlo.reshape %260 : (tensor<i32>) -> tensor<1xi32>
    %262 = stablehlo.concatenate %259, %261, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %263 = stablehlo.dynamic_broadcast_in_dim %cst_10, %262, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %264 = stablehlo.divide %257, %263 : tensor<?x?xf32>
    %265 = stablehlo.multiply %246, %246 : tensor<?x?x256xf32>
    %266 = stablehlo.reduce(%265 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %267 = stablehlo.divide %266, %263 : tensor<?x?xf32>
    %268 = stablehlo.multiply %264, %264 : tensor<?x?xf32>
    %269 = stablehlo.subtract %267, %268 : tensor<?x?xf32>
    %270 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %271 = stablehlo.reshape %270 : (tensor<i32>) -> tensor<1xi32>
    %272 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %273 = stablehlo.reshape %272 : (tensor<i32>) -> tensor<1xi32>
    %274 = stablehlo.concatenate %271, %273, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %275 = stablehlo.dynamic_broadcast_in_dim %cst_9, %274, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %276 = stablehlo.maximum %275, %269 : tensor<?x?xf32>
    %277 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %278 = stablehlo.reshape %277 : (tensor<i32>) -> tensor<1xi32>
    %279 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %280 = stablehlo.reshape %279 : (tensor<i32>) -> tensor<1xi32>
    %c_33 = stablehlo.constant dense<256> : tensor<1xi32>
    %281 = stablehlo.concatenate %278, %280, %c_33, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %282 = stablehlo.dynamic_broadcast_in_dim %264, %281, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %283 = stablehlo.subtract %246, %282 : tensor<?x?x256xf32>
    %cst_11 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %284 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %285 = stablehlo.reshape %284 : (tensor<i32>) -> tensor<1xi32>
    %286 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %287 = stablehlo.reshape %286 : (tensor<i32>) -> tensor<1xi32>
    %288 = stablehlo.concatenate %285, %287, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %289 = stablehlo.dynamic_broadcast_in_dim %cst_11, %288, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %290 = stablehlo.add %276, %289 : tensor<?x?xf32>
    %291 = stablehlo.rsqrt %290 : tensor<?x?xf32>
    %292 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %293 = stablehlo.reshape %292 : (tensor<i32>) -> tensor<1xi32>
    %294 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %295 = stablehlo.reshape %294 : (tensor<i32>) -> tensor<1xi32>
    %c_34 = stablehlo.constant dense<256> : tensor<1xi32>
    %296 = stablehlo.concatenate %293, %295, %c_34, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %297 = stablehlo.dynamic_broadcast_in_dim %291, %296, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %298 = stablehlo.reshape %arg31 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %299 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %300 = stablehlo.reshape %299 : (tensor<i32>) -> tensor<1xi32>
    %301 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %302 = stablehlo.reshape %301 : (tensor<i32>) -> tensor<1xi32>
    %c_35 = stablehlo.constant dense<256> : tensor<1xi32>
    %303 = stablehlo.concatenate %300, %302, %c_35, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %304 = stablehlo.dynamic_broadcast_in_dim %298, %303, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %305 = stablehlo.multiply %297, %304 : tensor<?x?x256xf32>
    %306 = stablehlo.multiply %283, %305 : tensor<?x?x256xf32>
    %307 = stablehlo.reshape %arg30 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %308 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %309 = stablehlo.reshape %308 : (tensor<i32>) -> tensor<1xi32>
    %310 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %311 = stablehlo.reshape %310 : (tensor<i32>) -> tensor<1xi32>
    %c_36 = stablehlo.constant dense<256> : tensor<1xi32>
    %312 = stablehlo.concatenate %309, %311, %c_36, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %313 = stablehlo.dynamic_broadcast_in_dim %307, %312, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %314 = stablehlo.add %306, %313 : tensor<?x?x256xf32>
    %315 = stablehlo.dot_general %314, %arg23, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %316 = stablehlo.reshape %arg22 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %317 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %318 = stablehlo.reshape %317 : (tensor<i32>) -> tensor<1xi32>
    %319 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %320 = stablehlo.reshape %319 : (tensor<i32>) -> tensor<1xi32>
    %c_37 = stablehlo.constant dense<256> : tensor<1xi32>
    %321 = stablehlo.concatenate %318, %320, %c_37, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %322 = stablehlo.dynamic_broadcast_in_dim %316, %321, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %323 = stablehlo.add %315, %322 : tensor<?x?x256xf32>
    %324 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %325 = stablehlo.reshape %324 : (tensor<i32>) -> tensor<1xi32>
    %326 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %327 = stablehlo.reshape %326 : (tensor<i32>) -> tensor<1xi32>
    %c_38 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_39 = stablehlo.constant dense<64> : tensor<1xi32>
    %328 = stablehlo.concatenate %325, %327, %c_38, %c_39, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %329 = stablehlo.dynamic_reshape %323, %328 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %330 = stablehlo.dot_general %314, %arg19, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %331 = stablehlo.reshape %arg18 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %332 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %333 = stablehlo.reshape %332 : (tensor<i32>) -> tensor<1xi32>
    %334 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %335 = stablehlo.reshape %334 : (tensor<i32>) -> tensor<1xi32>
    %c_40 = stablehlo.constant dense<256> : tensor<1xi32>
    %336 = stablehlo.concatenate %333, %335, %c_40, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %337 = stablehlo.dynamic_broadcast_in_dim %331, %336, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %338 = stablehlo.add %330, %337 : tensor<?x?x256xf32>
    %339 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %340 = stablehlo.reshape %339 : (tensor<i32>) -> tensor<1xi32>
    %341 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %342 = stablehlo.reshape %341 : (tensor<i32>) -> tensor<1xi32>
    %c_41 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_42 = stablehlo.constant dense<64> : tensor<1xi32>
    %343 = stablehlo.concatenate %340, %342, %c_41, %c_42, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %344 = stablehlo.dynamic_reshape %338, %343 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %345 = stablehlo.dot_general %314, %arg25, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %346 = stablehlo.reshape %arg24 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %347 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %348 = stablehlo.reshape %347 : (tensor<i32>) -> tensor<1xi32>
    %349 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %350 = stablehlo.reshape %349 : (tensor<i32>) -> tensor<1xi32>
    %c_43 = stablehlo.constant dense<256> : tensor<1xi32>
    %351 = stablehlo.concatenate %348, %350, %c_43, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %352 = stablehlo.dynamic_broadcast_in_dim %346, %351, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %353 = stablehlo.add %345, %352 : tensor<?x?x256xf32>
    %354 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %355 = stablehlo.reshape %354 : (tensor<i32>) -> tensor<1xi32>
    %356 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %357 = stablehlo.reshape %356 : (tensor<i32>) -> tensor<1xi32>
    %c_44 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_45 = stablehlo.constant dense<64> : tensor<1xi32>
    %358 = stablehlo.concatenate %355, %357, %c_44, %c_45, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %359 = stablehlo.dynamic_reshape %353, %358 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %cst_12 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %360 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %361 = stablehlo.reshape %360 : (tensor<i32>) -> tensor<1xi32>
    %362 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %363 = stablehlo.reshape %362 : (tensor<i32>) -> tensor<1xi32>
    %c_46 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_47 = stablehlo.constant dense<64> : tensor<1xi32>
    %364 = stablehlo.concatenate %361, %363, %c_46, %c_47, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %365 = stablehlo.dynamic_broadcast_in_dim %cst_12, %364, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %366 = stablehlo.multiply %329, %365 : tensor<?x?x4x64xf32>
    %367 = stablehlo.dot_general %366, %344, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x?x4x64xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x?xf32>
    %cst_13 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %368 = call @_where_2(%arg0, %arg1, %37, %367, %cst_13) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xi1>, tensor<?x4x?x?xf32>, tensor<f32>) -> tensor<?x4x?x?xf32>
    %369 = call @_softmax_2(%arg0, %arg1, %368) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
    %370 = stablehlo.dot_general %369, %359, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x?x?xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x64xf32>
    %371 = stablehlo.transpose %370, dims = [0, 2, 1, 3] : (tensor<?x4x?x64xf32>) -> tensor<?x?x4x64xf32>
    %372 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %373 = stablehlo.reshape %372 : (tensor<i32>) -> tensor<1xi32>
    %374 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %375 = stablehlo.reshape %374 : (tensor<i32>) -> tensor<1xi32>
    %c_48 = stablehlo.constant dense<256> : tensor<1xi32>
    %376 = stablehlo.concatenate %373, %375, %c_48, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %377 = stablehlo.dynamic_reshape %371, %376 : (tensor<?x?x4x64xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %378 = stablehlo.dot_general %377, %arg21, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %379 = stablehlo.reshape %arg20 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %380 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %381 = stablehlo.reshape %380 : (tensor<i32>) -> tensor<1xi32>
    %382 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %383 = stablehlo.reshape %382 : (tensor<i32>) -> tensor<1xi32>
    %c_49 = stablehlo.constant dense<256> : tensor<1xi32>
    %384 = stablehlo.concatenate %381, %383, %c_49, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %385 = stablehlo.dynamic_broadcast_in_dim %379, %384, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %386 = stablehlo.add %378, %385 : tensor<?x?x256xf32>
    %387 = stablehlo.add %246, %386 : tensor<?x?x256xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %388 = stablehlo.reduce(%387 init: %cst_14) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_15 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %389 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %390 = stablehlo.reshape %389 : (tensor<i32>) -> tensor<1xi32>
    %391 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %392 = stablehlo.reshape %391 : (tensor<i32>) -> tensor<1xi32>
    %393 = stablehlo.concatenate %390, %392, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %394 = stablehlo.dynamic_broadcast_in_dim %cst_15, %393, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %395 = stablehlo.divide %388, %394 : tensor<?x?xf32>
    %396 = stablehlo.multiply %387, %387 : tensor<?x?x256xf32>
    %397 = stablehlo.reduce(%396 init: %cst_14) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %398 = stablehlo.divide %397, %394 : tensor<?x?xf32>
    %399 = stablehlo.multiply %395, %395 : tensor<?x?xf32>
    %400 = stablehlo.subtract %398, %399 : tensor<?x?xf32>
    %401 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %402 = stablehlo.reshape %401 : (tensor<i32>) -> tensor<1xi32>
    %403 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %404 = stablehlo.reshape %403 : (tensor<i32>) -> tensor<1xi32>
    %405 = stablehlo.concatenate %402, %404, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %406 = stablehlo.dynamic_broadcast_in_dim %cst_14, %405, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %407 = stablehlo.maximum %406, %400 : tensor<?x?xf32>
    %408 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %409 = stablehlo.reshape %408 : (tensor<i32>) -> tensor<1xi32>
    %410 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %411 = stablehlo.reshape %410 : (tensor<i32>) -> tensor<1xi32>
    %c_50 = stablehlo.constant dense<256> : tensor<1xi32>
    %412 = stablehlo.concatenate %409, %411, %c_50, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %413 = stablehlo.dynamic_broadcast_in_dim %395, %412, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %414 = stablehlo.subtract %387, %413 : tensor<?x?x256xf32>
    %cst_16 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %415 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %416 = stablehlo.reshape %415 : (tensor<i32>) -> tensor<1xi32>
    %417 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %418 = stablehlo.reshape %417 : (tensor<i32>) -> tensor<1xi32>
    %419 = stablehlo.concatenate %416, %418, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %420 = stablehlo.dynamic_broadcast_in_dim %cst_16, %419, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %421 = stablehlo.add %407, %420 : tensor<?x?xf32>
    %422 = stablehlo.rsqrt %421 : tensor<?x?xf32>
    %423 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %424 = stablehlo.reshape %423 : (tensor<i32>) -> tensor<1xi32>
    %425 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %426 = stablehlo.reshape %425 : (tensor<i32>) -> tensor<1xi32>
    %c_51 = stablehlo.constant dense<256> : tensor<1xi32>
    %427 = stablehlo.concatenate %424, %426, %c_51, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %428 = stablehlo.dynamic_broadcast_in_dim %422, %427, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %429 = stablehlo.reshape %arg33 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %430 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %431 = stablehlo.reshape %430 : (tensor<i32>) -> tensor<1xi32>
    %432 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %433 = stablehlo.reshape %432 : (tensor<i32>) -> tensor<1xi32>
    %c_52 = stablehlo.constant dense<256> : tensor<1xi32>
    %434 = stablehlo.concatenate %431, %433, %c_52, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %435 = stablehlo.dynamic_broadcast_in_dim %429, %434, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %436 = stablehlo.multiply %428, %435 : tensor<?x?x256xf32>
    %437 = stablehlo.multiply %414, %436 : tensor<?x?x256xf32>
    %438 = stablehlo.reshape %arg32 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %439 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %440 = stablehlo.reshape %439 : (tensor<i32>) -> tensor<1xi32>
    %441 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %442 = stablehlo.reshape %441 : (tensor<i32>) -> tensor<1xi32>
    %c_53 = stablehlo.constant dense<256> : tensor<1xi32>
    %443 = stablehlo.concatenate %440, %442, %c_53, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %444 = stablehlo.dynamic_broadcast_in_dim %438, %443, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %445 = stablehlo.add %437, %444 : tensor<?x?x256xf32>
    %446 = stablehlo.dot_general %445, %arg27, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x1024xf32>) -> tensor<?x?x1024xf32>
    %447 = stablehlo.reshape %arg26 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %448 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %449 = stablehlo.reshape %448 : (tensor<i32>) -> tensor<1xi32>
    %450 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %451 = stablehlo.reshape %450 : (tensor<i32>) -> tensor<1xi32>
    %c_54 = stablehlo.constant dense<1024> : tensor<1xi32>
    %452 = stablehlo.concatenate %449, %451, %c_54, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %453 = stablehlo.dynamic_broadcast_in_dim %447, %452, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %454 = stablehlo.add %446, %453 : tensor<?x?x1024xf32>
    %455 = call @gelu_2(%arg0, %arg1, %454) : (tensor<i64>, tensor<i64>, tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32>
    %456 = stablehlo.dot_general %455, %arg29, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x1024xf32>, tensor<1024x256xf32>) -> tensor<?x?x256xf32>
    %457 = stablehlo.reshape %arg28 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %458 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %459 = stablehlo.reshape %458 : (tensor<i32>) -> tensor<1xi32>
    %460 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %461 = stablehlo.reshape %460 : (tensor<i32>) -> tensor<1xi32>
    %c_55 = stablehlo.constant dense<256> : tensor<1xi32>
    %462 = stablehlo.concatenate %459, %461, %c_55, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %463 = stablehlo.dynamic_broadcast_in_dim %457, %462, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %464 = stablehlo.add %456, %463 : tensor<?x?x256xf32>
    %465 = stablehlo.add %387, %464 : tensor<?x?x256xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %466 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %467 = stablehlo.reshape %466 : (tensor<i32>) -> tensor<1xi32>
    %c_56 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_57 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_58 = stablehlo.constant dense<64> : tensor<1xi32>
    %468 = stablehlo.concatenate %467, %c_56, %c_57, %c_58, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %469 = stablehlo.dynamic_broadcast_in_dim %cst_17, %468, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_59 = stablehlo.constant dense<0> : tensor<i32>
    %470 = stablehlo.dynamic_update_slice %469, %344, %c_59, %c_59, %c_59, %c_59 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %471 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %472 = stablehlo.reshape %471 : (tensor<i32>) -> tensor<1xi32>
    %c_60 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_61 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_62 = stablehlo.constant dense<64> : tensor<1xi32>
    %473 = stablehlo.concatenate %472, %c_60, %c_61, %c_62, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %474 = stablehlo.dynamic_broadcast_in_dim %cst_18, %473, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_63 = stablehlo.constant dense<0> : tensor<i32>
    %475 = stablehlo.dynamic_update_slice %474, %359, %c_63, %c_63, %c_63, %c_63 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %476 = stablehlo.reduce(%465 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_20 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %477 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %478 = stablehlo.reshape %477 : (tensor<i32>) -> tensor<1xi32>
    %479 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %480 = stablehlo.reshape %479 : (tensor<i32>) -> tensor<1xi32>
    %481 = stablehlo.concatenate %478, %480, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %482 = stablehlo.dynamic_broadcast_in_dim %cst_20, %481, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %483 = stablehlo.divide %476, %482 : tensor<?x?xf32>
    %484 = stablehlo.multiply %465, %465 : tensor<?x?x256xf32>
    %485 = stablehlo.reduce(%484 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %486 = stablehlo.divide %485, %482 : tensor<?x?xf32>
    %487 = stablehlo.multiply %483, %483 : tensor<?x?xf32>
    %488 = stablehlo.subtract %486, %487 : tensor<?x?xf32>
    %489 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %490 = stablehlo.reshape %489 : (tensor<i32>) -> tensor<1xi32>
    %491 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %492 = stablehlo.reshape %491 : (tensor<i32>) -> tensor<1xi32>
    %493 = stablehlo.concatenate %490, %492, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %494 = stablehlo.dynamic_broadcast_in_dim %cst_19, %493, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %495 = stablehlo.maximum %494, %488 : tensor<?x?xf32>
    %496 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %497 = stablehlo.reshape %496 : (tensor<i32>) -> tensor<1xi32>
    %498 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %499 = stablehlo.reshape %498 : (tensor<i32>) -> tensor<1xi32>
    %c_64 = stablehlo.constant dense<256> : tensor<1xi32>
    %500 = stablehlo.concatenate %497, %499, %c_64, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %501 = stablehlo.dynamic_broadcast_in_dim %483, %500, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %502 = stablehlo.subtract %465, %501 : tensor<?x?x256xf32>
    %cst_21 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %503 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %504 = stablehlo.reshape %503 : (tensor<i32>) -> tensor<1xi32>
    %505 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %506 = stablehlo.reshape %505 : (tensor<i32>) -> tensor<1xi32>
    %507 = stablehlo.concatenate %504, %506, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %508 = stablehlo.dynamic_broadcast_in_dim %cst_21, %507, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %509 = stablehlo.add %495, %508 : tensor<?x?xf32>
    %510 = stablehlo.rsqrt %509 : tensor<?x?xf32>
    %511 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %512 = stablehlo.reshape %511 : (tensor<i32>) -> tensor<1xi32>
    %513 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %514 = stablehlo.reshape %513 : (tensor<i32>) -> tensor<1xi32>
    %c_65 = stablehlo.constant dense<256> : tensor<1xi32>
    %515 = stablehlo.concatenate %512, %514, %c_65, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %516 = stablehlo.dynamic_broadcast_in_dim %510, %515, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %517 = stablehlo.reshape %arg47 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %518 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %519 = stablehlo.reshape %518 : (tensor<i32>) -> tensor<1xi32>
    %520 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %521 = stablehlo.reshape %520 : (tensor<i32>) -> tensor<1xi32>
    %c_66 = stablehlo.constant dense<256> : tensor<1xi32>
    %522 = stablehlo.concatenate %519, %521, %c_66, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %523 = stablehlo.dynamic_broadcast_in_dim %517, %522, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %524 = stablehlo.multiply %516, %523 : tensor<?x?x256xf32>
    %525 = stablehlo.multiply %502, %524 : tensor<?x?x256xf32>
    %526 = stablehlo.reshape %arg46 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %527 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %528 = stablehlo.reshape %527 : (tensor<i32>) -> tensor<1xi32>
    %529 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %530 = stablehlo.reshape %529 : (tensor<i32>) -> tensor<1xi32>
    %c_67 = stablehlo.constant dense<256> : tensor<1xi32>
    %531 = stablehlo.concatenate %528, %530, %c_67, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %532 = stablehlo.dynamic_broadcast_in_dim %526, %531, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %533 = stablehlo.add %525, %532 : tensor<?x?x256xf32>
    %534 = stablehlo.dot_general %533, %arg39, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %535 = stablehlo.reshape %arg38 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %536 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %537 = stablehlo.reshape %536 : (tensor<i32>) -> tensor<1xi32>
    %538 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %539 = stablehlo.reshape %538 : (tensor<i32>) -> tensor<1xi32>
    %c_68 = stablehlo.constant dense<256> : tensor<1xi32>
    %540 = stablehlo.concatenate %537, %539, %c_68, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %541 = stablehlo.dynamic_broadcast_in_dim %535, %540, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %542 = stablehlo.add %534, %541 : tensor<?x?x256xf32>
    %543 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %544 = stablehlo.reshape %543 : (tensor<i32>) -> tensor<1xi32>
    %545 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %546 = stablehlo.reshape %545 : (tensor<i32>) -> tensor<1xi32>
    %c_69 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_70 = stablehlo.constant dense<64> : tensor<1xi32>
    %547 = stablehlo.concatenate %544, %546, %c_69, %c_70, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %548 = stablehlo.dynamic_reshape %542, %547 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %549 = stablehlo.dot_general %533, %arg35, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %550 = stablehlo.reshape %arg34 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %551 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %552 = stablehlo.reshape %551 : (tensor<i32>) -> tensor<1xi32>
    %553 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %554 = stablehlo.reshape %553 : (tensor<i32>) -> tensor<1xi32>
    %c_71 = stablehlo.constant dense<256> : tensor<1xi32>
    %555 = stablehlo.concatenate %552, %554, %c_71, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %556 = stablehlo.dynamic_broadcast_in_dim %550, %555, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %557 = stablehlo.add %549, %556 : tensor<?x?x256xf32>
    %558 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %559 = stablehlo.reshape %558 : (tensor<i32>) -> tensor<1xi32>
    %560 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %561 = stablehlo.reshape %560 : (tensor<i32>) -> tensor<1xi32>
    %c_72 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_73 = stablehlo.constant dense<64> : tensor<1xi32>
    %562 = stablehlo.concatenate %559, %561, %c_72, %c_73, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %563 = stablehlo.dynamic_reshape %557, %562 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %564 = stablehlo.dot_general %533, %arg41, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %565 = stablehlo.reshape %arg40 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %566 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %567 = stablehlo.reshape %566 : (tensor<i32>) -> tensor<1xi32>
    %568 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %569 = stablehlo.reshape %568 : (tensor<i32>) -> tensor<1xi32>
    %c_74 = stablehlo.constant dense<256> : tensor<1xi32>
    %570 = stablehlo.concatenate %567, %569, %c_74, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %571 = stablehlo.dynamic_broadcast_in_dim %565, %570, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %572 = stablehlo.add %564, %571 : tensor<?x?x256xf32>
    %573 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %574 = stablehlo.reshape %573 : (tensor<i32>) -> tensor<1xi32>
    %575 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %576 = stablehlo.reshape %575 : (tensor<i32>) -> tensor<1xi32>
    %c_75 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_76 = stablehlo.constant dense<64> : tensor<1xi32>
    %577 = stablehlo.concatenate %574, %576, %c_75, %c_76, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %578 = stablehlo.dynamic_reshape %572, %577 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %cst_22 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %579 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %580 = stablehlo.reshape %579 : (tensor<i32>) -> tensor<1xi32>
    %581 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %582 = stablehlo.reshape %581 : (tensor<i32>) -> tensor<1xi32>
    %c_77 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_78 = stablehlo.constant dense<64> : tensor<1xi32>
    %583 = stablehlo.concatenate %580, %582, %c_77, %c_78, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %584 = stablehlo.dynamic_broadcast_in_dim %cst_22, %583, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %585 = stablehlo.multiply %548, %584 : tensor<?x?x4x64xf32>
    %586 = stablehlo.dot_general %585, %563, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x?x4x64xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x?xf32>
    %cst_23 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %587 = call @_where_2(%arg0, %arg1, %37, %586, %cst_23) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xi1>, tensor<?x4x?x?xf32>, tensor<f32>) -> tensor<?x4x?x?xf32>
    %588 = call @_softmax_2(%arg0, %arg1, %587) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
    %589 = stablehlo.dot_general %588, %578, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x?x?xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x64xf32>
    %590 = stablehlo.transpose %589, dims = [0, 2, 1, 3] : (tensor<?x4x?x64xf32>) -> tensor<?x?x4x64xf32>
    %591 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %592 = stablehlo.reshape %591 : (tensor<i32>) -> tensor<1xi32>
    %593 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %594 = stablehlo.reshape %593 : (tensor<i32>) -> tensor<1xi32>
    %c_79 = stablehlo.constant dense<256> : tensor<1xi32>
    %595 = stablehlo.concatenate %592, %594, %c_79, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %596 = stablehlo.dynamic_reshape %590, %595 : (tensor<?x?x4x64xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %597 = stablehlo.dot_general %596, %arg37, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %598 = stablehlo.reshape %arg36 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %599 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %600 = stablehlo.reshape %599 : (tensor<i32>) -> tensor<1xi32>
    %601 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %602 = stablehlo.reshape %601 : (tensor<i32>) -> tensor<1xi32>
    %c_80 = stablehlo.constant dense<256> : tensor<1xi32>
    %603 = stablehlo.concatenate %600, %602, %c_80, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %604 = stablehlo.dynamic_broadcast_in_dim %598, %603, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %605 = stablehlo.add %597, %604 : tensor<?x?x256xf32>
    %606 = stablehlo.add %465, %605 : tensor<?x?x256xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %607 = stablehlo.reduce(%606 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_25 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %608 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %609 = stablehlo.reshape %608 : (tensor<i32>) -> tensor<1xi32>
    %610 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %611 = stablehlo.reshape %610 : (tensor<i32>) -> tensor<1xi32>
    %612 = stablehlo.concatenate %609, %611, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %613 = stablehlo.dynamic_broadcast_in_dim %cst_25, %612, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %614 = stablehlo.divide %607, %613 : tensor<?x?xf32>
    %615 = stablehlo.multiply %606, %606 : tensor<?x?x256xf32>
    %616 = stablehlo.reduce(%615 init: %cst_24) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %617 = stablehlo.divide %616, %613 : tensor<?x?xf32>
    %618 = stablehlo.multiply %614, %614 : tensor<?x?xf32>
    %619 = stablehlo.subtract %617, %618 : tensor<?x?xf32>
    %620 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %621 = stablehlo.reshape %620 : (tensor<i32>) -> tensor<1xi32>
    %622 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %623 = stablehlo.reshape %622 : (tensor<i32>) -> tensor<1xi32>
    %624 = stablehlo.concatenate %621, %623, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %625 = stablehlo.dynamic_broadcast_in_dim %cst_24, %624, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %626 = stablehlo.maximum %625, %619 : tensor<?x?xf32>
    %627 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %628 = stablehlo.reshape %627 : (tensor<i32>) -> tensor<1xi32>
    %629 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %630 = stablehlo.reshape %629 : (tensor<i32>) -> tensor<1xi32>
    %c_81 = stablehlo.constant dense<256> : tensor<1xi32>
    %631 = stablehlo.concatenate %628, %630, %c_81, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %632 = stablehlo.dynamic_broadcast_in_dim %614, %631, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %633 = stablehlo.subtract %606, %632 : tensor<?x?x256xf32>
    %cst_26 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %634 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %635 = stablehlo.reshape %634 : (tensor<i32>) -> tensor<1xi32>
    %636 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %637 = stablehlo.reshape %636 : (tensor<i32>) -> tensor<1xi32>
    %638 = stablehlo.concatenate %635, %637, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %639 = stablehlo.dynamic_broadcast_in_dim %cst_26, %638, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %640 = stablehlo.add %626, %639 : tensor<?x?xf32>
    %641 = stablehlo.rsqrt %640 : tensor<?x?xf32>
    %642 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %643 = stablehlo.reshape %642 : (tensor<i32>) -> tensor<1xi32>
    %644 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %645 = stablehlo.reshape %644 : (tensor<i32>) -> tensor<1xi32>
    %c_82 = stablehlo.constant dense<256> : tensor<1xi32>
    %646 = stablehlo.concatenate %643, %645, %c_82, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %647 = stablehlo.dynamic_broadcast_in_dim %641, %646, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %648 = stablehlo.reshape %arg49 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %649 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %650 = stablehlo.reshape %649 : (tensor<i32>) -> tensor<1xi32>
    %651 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %652 = stablehlo.reshape %651 : (tensor<i32>) -> tensor<1xi32>
    %c_83 = stablehlo.constant dense<256> : tensor<1xi32>
    %653 = stablehlo.concatenate %650, %652, %c_83, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %654 = stablehlo.dynamic_broadcast_in_dim %648, %653, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %655 = stablehlo.multiply %647, %654 : tensor<?x?x256xf32>
    %656 = stablehlo.multiply %633, %655 : tensor<?x?x256xf32>
    %657 = stablehlo.reshape %arg48 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %658 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %659 = stablehlo.reshape %658 : (tensor<i32>) -> tensor<1xi32>
    %660 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %661 = stablehlo.reshape %660 : (tensor<i32>) -> tensor<1xi32>
    %c_84 = stablehlo.constant dense<256> : tensor<1xi32>
    %662 = stablehlo.concatenate %659, %661, %c_84, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %663 = stablehlo.dynamic_broadcast_in_dim %657, %662, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %664 = stablehlo.add %656, %663 : tensor<?x?x256xf32>
    %665 = stablehlo.dot_general %664, %arg43, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x1024xf32>) -> tensor<?x?x1024xf32>
    %666 = stablehlo.reshape %arg42 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %667 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %668 = stablehlo.reshape %667 : (tensor<i32>) -> tensor<1xi32>
    %669 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %670 = stablehlo.reshape %669 : (tensor<i32>) -> tensor<1xi32>
    %c_85 = stablehlo.constant dense<1024> : tensor<1xi32>
    %671 = stablehlo.concatenate %668, %670, %c_85, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %672 = stablehlo.dynamic_broadcast_in_dim %666, %671, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %673 = stablehlo.add %665, %672 : tensor<?x?x1024xf32>
    %674 = call @gelu_2(%arg0, %arg1, %673) : (tensor<i64>, tensor<i64>, tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32>
    %675 = stablehlo.dot_general %674, %arg45, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x1024xf32>, tensor<1024x256xf32>) -> tensor<?x?x256xf32>
    %676 = stablehlo.reshape %arg44 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %677 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %678 = stablehlo.reshape %677 : (tensor<i32>) -> tensor<1xi32>
    %679 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %680 = stablehlo.reshape %679 : (tensor<i32>) -> tensor<1xi32>
    %c_86 = stablehlo.constant dense<256> : tensor<1xi32>
    %681 = stablehlo.concatenate %678, %680, %c_86, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %682 = stablehlo.dynamic_broadcast_in_dim %676, %681, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %683 = stablehlo.add %675, %682 : tensor<?x?x256xf32>
    %684 = stablehlo.add %606, %683 : tensor<?x?x256xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %685 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %686 = stablehlo.reshape %685 : (tensor<i32>) -> tensor<1xi32>
    %c_87 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_88 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_89 = stablehlo.constant dense<64> : tensor<1xi32>
    %687 = stablehlo.concatenate %686, %c_87, %c_88, %c_89, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %688 = stablehlo.dynamic_broadcast_in_dim %cst_27, %687, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_90 = stablehlo.constant dense<0> : tensor<i32>
    %689 = stablehlo.dynamic_update_slice %688, %563, %c_90, %c_90, %c_90, %c_90 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %690 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %691 = stablehlo.reshape %690 : (tensor<i32>) -> tensor<1xi32>
    %c_91 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_92 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_93 = stablehlo.constant dense<64> : tensor<1xi32>
    %692 = stablehlo.concatenate %691, %c_91, %c_92, %c_93, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %693 = stablehlo.dynamic_broadcast_in_dim %cst_28, %692, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_94 = stablehlo.constant dense<0> : tensor<i32>
    %694 = stablehlo.dynamic_update_slice %693, %578, %c_94, %c_94, %c_94, %c_94 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %695 = stablehlo.reduce(%684 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_30 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %696 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %697 = stablehlo.reshape %696 : (tensor<i32>) -> tensor<1xi32>
    %698 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %699 = stablehlo.reshape %698 : (tensor<i32>) -> tensor<1xi32>
    %700 = stablehlo.concatenate %697, %699, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %701 = stablehlo.dynamic_broadcast_in_dim %cst_30, %700, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %702 = stablehlo.divide %695, %701 : tensor<?x?xf32>
    %703 = stablehlo.multiply %684, %684 : tensor<?x?x256xf32>
    %704 = stablehlo.reduce(%703 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %705 = stablehlo.divide %704, %701 : tensor<?x?xf32>
    %706 = stablehlo.multiply %702, %702 : tensor<?x?xf32>
    %707 = stablehlo.subtract %705, %706 : tensor<?x?xf32>
    %708 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %709 = stablehlo.reshape %708 : (tensor<i32>) -> tensor<1xi32>
    %710 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %711 = stablehlo.reshape %710 : (tensor<i32>) -> tensor<1xi32>
    %712 = stablehlo.concatenate %709, %711, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %713 = stablehlo.dynamic_broadcast_in_dim %cst_29, %712, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %714 = stablehlo.maximum %713, %707 : tensor<?x?xf32>
    %715 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %716 = stablehlo.reshape %715 : (tensor<i32>) -> tensor<1xi32>
    %717 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %718 = stablehlo.reshape %717 : (tensor<i32>) -> tensor<1xi32>
    %c_95 = stablehlo.constant dense<256> : tensor<1xi32>
    %719 = stablehlo.concatenate %716, %718, %c_95, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %720 = stablehlo.dynamic_broadcast_in_dim %702, %719, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %721 = stablehlo.subtract %684, %720 : tensor<?x?x256xf32>
    %cst_31 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %722 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %723 = stablehlo.reshape %722 : (tensor<i32>) -> tensor<1xi32>
    %724 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %725 = stablehlo.reshape %724 : (tensor<i32>) -> tensor<1xi32>
    %726 = stablehlo.concatenate %723, %725, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %727 = stablehlo.dynamic_broadcast_in_dim %cst_31, %726, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %728 = stablehlo.add %714, %727 : tensor<?x?xf32>
    %729 = stablehlo.rsqrt %728 : tensor<?x?xf32>
    %730 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %731 = stablehlo.reshape %730 : (tensor<i32>) -> tensor<1xi32>
    %732 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %733 = stablehlo.reshape %732 : (tensor<i32>) -> tensor<1xi32>
    %c_96 = stablehlo.constant dense<256> : tensor<1xi32>
    %734 = stablehlo.concatenate %731, %733, %c_96, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %735 = stablehlo.dynamic_broadcast_in_dim %729, %734, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %736 = stablehlo.reshape %arg63 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %737 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %738 = stablehlo.reshape %737 : (tensor<i32>) -> tensor<1xi32>
    %739 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %740 = stablehlo.reshape %739 : (tensor<i32>) -> tensor<1xi32>
    %c_97 = stablehlo.constant dense<256> : tensor<1xi32>
    %741 = stablehlo.concatenate %738, %740, %c_97, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %742 = stablehlo.dynamic_broadcast_in_dim %736, %741, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %743 = stablehlo.multiply %735, %742 : tensor<?x?x256xf32>
    %744 = stablehlo.multiply %721, %743 : tensor<?x?x256xf32>
    %745 = stablehlo.reshape %arg62 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %746 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %747 = stablehlo.reshape %746 : (tensor<i32>) -> tensor<1xi32>
    %748 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %749 = stablehlo.reshape %748 : (tensor<i32>) -> tensor<1xi32>
    %c_98 = stablehlo.constant dense<256> : tensor<1xi32>
    %750 = stablehlo.concatenate %747, %749, %c_98, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %751 = stablehlo.dynamic_broadcast_in_dim %745, %750, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %752 = stablehlo.add %744, %751 : tensor<?x?x256xf32>
    %753 = stablehlo.dot_general %752, %arg55, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %754 = stablehlo.reshape %arg54 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %755 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %756 = stablehlo.reshape %755 : (tensor<i32>) -> tensor<1xi32>
    %757 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %758 = stablehlo.reshape %757 : (tensor<i32>) -> tensor<1xi32>
    %c_99 = stablehlo.constant dense<256> : tensor<1xi32>
    %759 = stablehlo.concatenate %756, %758, %c_99, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %760 = stablehlo.dynamic_broadcast_in_dim %754, %759, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %761 = stablehlo.add %753, %760 : tensor<?x?x256xf32>
    %762 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %763 = stablehlo.reshape %762 : (tensor<i32>) -> tensor<1xi32>
    %764 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %765 = stablehlo.reshape %764 : (tensor<i32>) -> tensor<1xi32>
    %c_100 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_101 = stablehlo.constant dense<64> : tensor<1xi32>
    %766 = stablehlo.concatenate %763, %765, %c_100, %c_101, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %767 = stablehlo.dynamic_reshape %761, %766 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %768 = stablehlo.dot_general %752, %arg51, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %769 = stablehlo.reshape %arg50 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %770 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %771 = stablehlo.reshape %770 : (tensor<i32>) -> tensor<1xi32>
    %772 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %773 = stablehlo.reshape %772 : (tensor<i32>) -> tensor<1xi32>
    %c_102 = stablehlo.constant dense<256> : tensor<1xi32>
    %774 = stablehlo.concatenate %771, %773, %c_102, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %775 = stablehlo.dynamic_broadcast_in_dim %769, %774, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %776 = stablehlo.add %768, %775 : tensor<?x?x256xf32>
    %777 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %778 = stablehlo.reshape %777 : (tensor<i32>) -> tensor<1xi32>
    %779 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %780 = stablehlo.reshape %779 : (tensor<i32>) -> tensor<1xi32>
    %c_103 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_104 = stablehlo.constant dense<64> : tensor<1xi32>
    %781 = stablehlo.concatenate %778, %780, %c_103, %c_104, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %782 = stablehlo.dynamic_reshape %776, %781 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %783 = stablehlo.dot_general %752, %arg57, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %784 = stablehlo.reshape %arg56 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %785 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %786 = stablehlo.reshape %785 : (tensor<i32>) -> tensor<1xi32>
    %787 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %788 = stablehlo.reshape %787 : (tensor<i32>) -> tensor<1xi32>
    %c_105 = stablehlo.constant dense<256> : tensor<1xi32>
    %789 = stablehlo.concatenate %786, %788, %c_105, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %790 = stablehlo.dynamic_broadcast_in_dim %784, %789, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %791 = stablehlo.add %783, %790 : tensor<?x?x256xf32>
    %792 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %793 = stablehlo.reshape %792 : (tensor<i32>) -> tensor<1xi32>
    %794 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %795 = stablehlo.reshape %794 : (tensor<i32>) -> tensor<1xi32>
    %c_106 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_107 = stablehlo.constant dense<64> : tensor<1xi32>
    %796 = stablehlo.concatenate %793, %795, %c_106, %c_107, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %797 = stablehlo.dynamic_reshape %791, %796 : (tensor<?x?x256xf32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %cst_32 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %798 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %799 = stablehlo.reshape %798 : (tensor<i32>) -> tensor<1xi32>
    %800 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %801 = stablehlo.reshape %800 : (tensor<i32>) -> tensor<1xi32>
    %c_108 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_109 = stablehlo.constant dense<64> : tensor<1xi32>
    %802 = stablehlo.concatenate %799, %801, %c_108, %c_109, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %803 = stablehlo.dynamic_broadcast_in_dim %cst_32, %802, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x?x4x64xf32>
    %804 = stablehlo.multiply %767, %803 : tensor<?x?x4x64xf32>
    %805 = stablehlo.dot_general %804, %782, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x?x4x64xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x?xf32>
    %cst_33 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %806 = call @_where_2(%arg0, %arg1, %37, %805, %cst_33) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xi1>, tensor<?x4x?x?xf32>, tensor<f32>) -> tensor<?x4x?x?xf32>
    %807 = call @_softmax_2(%arg0, %arg1, %806) : (tensor<i64>, tensor<i64>, tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
    %808 = stablehlo.dot_general %807, %797, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x?x?xf32>, tensor<?x?x4x64xf32>) -> tensor<?x4x?x64xf32>
    %809 = stablehlo.transpose %808, dims = [0, 2, 1, 3] : (tensor<?x4x?x64xf32>) -> tensor<?x?x4x64xf32>
    %810 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %811 = stablehlo.reshape %810 : (tensor<i32>) -> tensor<1xi32>
    %812 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %813 = stablehlo.reshape %812 : (tensor<i32>) -> tensor<1xi32>
    %c_110 = stablehlo.constant dense<256> : tensor<1xi32>
    %814 = stablehlo.concatenate %811, %813, %c_110, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %815 = stablehlo.dynamic_reshape %809, %814 : (tensor<?x?x4x64xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %816 = stablehlo.dot_general %815, %arg53, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x256xf32>) -> tensor<?x?x256xf32>
    %817 = stablehlo.reshape %arg52 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %818 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %819 = stablehlo.reshape %818 : (tensor<i32>) -> tensor<1xi32>
    %820 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %821 = stablehlo.reshape %820 : (tensor<i32>) -> tensor<1xi32>
    %c_111 = stablehlo.constant dense<256> : tensor<1xi32>
    %822 = stablehlo.concatenate %819, %821, %c_111, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %823 = stablehlo.dynamic_broadcast_in_dim %817, %822, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %824 = stablehlo.add %816, %823 : tensor<?x?x256xf32>
    %825 = stablehlo.add %684, %824 : tensor<?x?x256xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %826 = stablehlo.reduce(%825 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %cst_35 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %827 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %828 = stablehlo.reshape %827 : (tensor<i32>) -> tensor<1xi32>
    %829 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %830 = stablehlo.reshape %829 : (tensor<i32>) -> tensor<1xi32>
    %831 = stablehlo.concatenate %828, %830, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %832 = stablehlo.dynamic_broadcast_in_dim %cst_35, %831, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %833 = stablehlo.divide %826, %832 : tensor<?x?xf32>
    %834 = stablehlo.multiply %825, %825 : tensor<?x?x256xf32>
    %835 = stablehlo.reduce(%834 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<?x?x256xf32>, tensor<f32>) -> tensor<?x?xf32>
    %836 = stablehlo.divide %835, %832 : tensor<?x?xf32>
    %837 = stablehlo.multiply %833, %833 : tensor<?x?xf32>
    %838 = stablehlo.subtract %836, %837 : tensor<?x?xf32>
    %839 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %840 = stablehlo.reshape %839 : (tensor<i32>) -> tensor<1xi32>
    %841 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %842 = stablehlo.reshape %841 : (tensor<i32>) -> tensor<1xi32>
    %843 = stablehlo.concatenate %840, %842, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %844 = stablehlo.dynamic_broadcast_in_dim %cst_34, %843, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %845 = stablehlo.maximum %844, %838 : tensor<?x?xf32>
    %846 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %847 = stablehlo.reshape %846 : (tensor<i32>) -> tensor<1xi32>
    %848 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %849 = stablehlo.reshape %848 : (tensor<i32>) -> tensor<1xi32>
    %c_112 = stablehlo.constant dense<256> : tensor<1xi32>
    %850 = stablehlo.concatenate %847, %849, %c_112, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %851 = stablehlo.dynamic_broadcast_in_dim %833, %850, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %852 = stablehlo.subtract %825, %851 : tensor<?x?x256xf32>
    %cst_36 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %853 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %854 = stablehlo.reshape %853 : (tensor<i32>) -> tensor<1xi32>
    %855 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %856 = stablehlo.reshape %855 : (tensor<i32>) -> tensor<1xi32>
    %857 = stablehlo.concatenate %854, %856, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %858 = stablehlo.dynamic_broadcast_in_dim %cst_36, %857, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %859 = stablehlo.add %845, %858 : tensor<?x?xf32>
    %860 = stablehlo.rsqrt %859 : tensor<?x?xf32>
    %861 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %862 = stablehlo.reshape %861 : (tensor<i32>) -> tensor<1xi32>
    %863 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %864 = stablehlo.reshape %863 : (tensor<i32>) -> tensor<1xi32>
    %c_113 = stablehlo.constant dense<256> : tensor<1xi32>
    %865 = stablehlo.concatenate %862, %864, %c_113, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %866 = stablehlo.dynamic_broadcast_in_dim %860, %865, dims = [0, 1] : (tensor<?x?xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %867 = stablehlo.reshape %arg65 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %868 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %869 = stablehlo.reshape %868 : (tensor<i32>) -> tensor<1xi32>
    %870 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %871 = stablehlo.reshape %870 : (tensor<i32>) -> tensor<1xi32>
    %c_114 = stablehlo.constant dense<256> : tensor<1xi32>
    %872 = stablehlo.concatenate %869, %871, %c_114, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %873 = stablehlo.dynamic_broadcast_in_dim %867, %872, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %874 = stablehlo.multiply %866, %873 : tensor<?x?x256xf32>
    %875 = stablehlo.multiply %852, %874 : tensor<?x?x256xf32>
    %876 = stablehlo.reshape %arg64 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %877 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %878 = stablehlo.reshape %877 : (tensor<i32>) -> tensor<1xi32>
    %879 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %880 = stablehlo.reshape %879 : (tensor<i32>) -> tensor<1xi32>
    %c_115 = stablehlo.constant dense<256> : tensor<1xi32>
    %881 = stablehlo.concatenate %878, %880, %c_115, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %882 = stablehlo.dynamic_broadcast_in_dim %876, %881, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %883 = stablehlo.add %875, %882 : tensor<?x?x256xf32>
    %884 = stablehlo.dot_general %883, %arg59, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x256xf32>, tensor<256x1024xf32>) -> tensor<?x?x1024xf32>
    %885 = stablehlo.reshape %arg58 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %886 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %887 = stablehlo.reshape %886 : (tensor<i32>) -> tensor<1xi32>
    %888 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %889 = stablehlo.reshape %888 : (tensor<i32>) -> tensor<1xi32>
    %c_116 = stablehlo.constant dense<1024> : tensor<1xi32>
    %890 = stablehlo.concatenate %887, %889, %c_116, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %891 = stablehlo.dynamic_broadcast_in_dim %885, %890, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %892 = stablehlo.add %884, %891 : tensor<?x?x1024xf32>
    %893 = call @gelu_2(%arg0, %arg1, %892) : (tensor<i64>, tensor<i64>, tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32>
    %894 = stablehlo.dot_general %893, %arg61, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x?x1024xf32>, tensor<1024x256xf32>) -> tensor<?x?x256xf32>
    %895 = stablehlo.reshape %arg60 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %896 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %897 = stablehlo.reshape %896 : (tensor<i32>) -> tensor<1xi32>
    %898 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %899 = stablehlo.reshape %898 : (tensor<i32>) -> tensor<1xi32>
    %c_117 = stablehlo.constant dense<256> : tensor<1xi32>
    %900 = stablehlo.concatenate %897, %899, %c_117, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %901 = stablehlo.dynamic_broadcast_in_dim %895, %900, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %902 = stablehlo.add %894, %901 : tensor<?x?x256xf32>
    %903 = stablehlo.add %825, %902 : tensor<?x?x256xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %904 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %905 = stablehlo.reshape %904 : (tensor<i32>) -> tensor<1xi32>
    %c_118 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_119 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_120 = stablehlo.constant dense<64> : tensor<1xi32>
    %906 = stablehlo.concatenate %905, %c_118, %c_119, %c_120, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %907 = stablehlo.dynamic_broadcast_in_dim %cst_37, %906, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_121 = stablehlo.constant dense<0> : tensor<i32>
    %908 = stablehlo.dynamic_update_slice %907, %782, %c_121, %c_121, %c_121, %c_121 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %909 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %910 = stablehlo.reshape %909 : (tensor<i32>) -> tensor<1xi32>
    %c_122 = stablehlo.constant dense<256> : tensor<1xi32>
    %c_123 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_124 = stablehlo.constant dense<64> : tensor<1xi32>
    %911 = stablehlo.concatenate %910, %c_122, %c_123, %c_124, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %912 = stablehlo.dynamic_broadcast_in_dim %cst_38, %911, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x256x4x64xf32>
    %c_125 = stablehlo.constant dense<0> : tensor<i32>
    %913 = stablehlo.dynamic_update_slice %912, %797, %c_125, %c_125, %c_125, %c_125 : (tensor<?x256x4x64xf32>, tensor<?x?x4x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?x256x4x64xf32>
    %c_126 = stablehlo.constant dense<1> : tensor<i32>
    %914 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %915 = stablehlo.reshape %914 : (tensor<i32>) -> tensor<1xi32>
    %916 = stablehlo.concatenate %915, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %917 = stablehlo.dynamic_broadcast_in_dim %c_126, %916, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %918 = stablehlo.subtract %arg72, %917 : tensor<?xi32>
    %919 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %920 = stablehlo.reshape %919 : (tensor<i32>) -> tensor<1xi32>
    %c_127 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_128 = stablehlo.constant dense<1> : tensor<1xi32>
    %921 = stablehlo.concatenate %920, %c_127, %c_128, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %922 = stablehlo.dynamic_broadcast_in_dim %918, %921, dims = [0] : (tensor<?xi32>, tensor<3xi32>) -> tensor<?x1x1xi32>
    %923 = call @take_along_axis(%arg0, %arg1, %903, %922) : (tensor<i64>, tensor<i64>, tensor<?x?x256xf32>, tensor<?x1x1xi32>) -> tensor<?x1x256xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %924 = stablehlo.reduce(%923 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_40 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %925 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %926 = stablehlo.reshape %925 : (tensor<i32>) -> tensor<1xi32>
    %c_129 = stablehlo.constant dense<1> : tensor<1xi32>
    %927 = stablehlo.concatenate %926, %c_129, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %928 = stablehlo.dynamic_broadcast_in_dim %cst_40, %927, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %929 = stablehlo.divide %924, %928 : tensor<?x1xf32>
    %930 = stablehlo.multiply %923, %923 : tensor<?x1x256xf32>
    %931 = stablehlo.reduce(%930 init: %cst_39) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %932 = stablehlo.divide %931, %928 : tensor<?x1xf32>
    %933 = stablehlo.multiply %929, %929 : tensor<?x1xf32>
    %934 = stablehlo.subtract %932, %933 : tensor<?x1xf32>
    %935 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %936 = stablehlo.reshape %935 : (tensor<i32>) -> tensor<1xi32>
    %c_130 = stablehlo.constant dense<1> : tensor<1xi32>
    %937 = stablehlo.concatenate %936, %c_130, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %938 = stablehlo.dynamic_broadcast_in_dim %cst_39, %937, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %939 = stablehlo.maximum %938, %934 : tensor<?x1xf32>
    %940 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %941 = stablehlo.reshape %940 : (tensor<i32>) -> tensor<1xi32>
    %c_131 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_132 = stablehlo.constant dense<256> : tensor<1xi32>
    %942 = stablehlo.concatenate %941, %c_131, %c_132, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %943 = stablehlo.dynamic_broadcast_in_dim %929, %942, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %944 = stablehlo.subtract %923, %943 : tensor<?x1x256xf32>
    %cst_41 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %945 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %946 = stablehlo.reshape %945 : (tensor<i32>) -> tensor<1xi32>
    %c_133 = stablehlo.constant dense<1> : tensor<1xi32>
    %947 = stablehlo.concatenate %946, %c_133, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %948 = stablehlo.dynamic_broadcast_in_dim %cst_41, %947, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %949 = stablehlo.add %939, %948 : tensor<?x1xf32>
    %950 = stablehlo.rsqrt %949 : tensor<?x1xf32>
    %951 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %952 = stablehlo.reshape %951 : (tensor<i32>) -> tensor<1xi32>
    %c_134 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_135 = stablehlo.constant dense<256> : tensor<1xi32>
    %953 = stablehlo.concatenate %952, %c_134, %c_135, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %954 = stablehlo.dynamic_broadcast_in_dim %950, %953, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %955 = stablehlo.reshape %arg69 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %956 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %957 = stablehlo.reshape %956 : (tensor<i32>) -> tensor<1xi32>
    %c_136 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_137 = stablehlo.constant dense<256> : tensor<1xi32>
    %958 = stablehlo.concatenate %957, %c_136, %c_137, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %959 = stablehlo.dynamic_broadcast_in_dim %955, %958, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %960 = stablehlo.multiply %954, %959 : tensor<?x1x256xf32>
    %961 = stablehlo.multiply %944, %960 : tensor<?x1x256xf32>
    %962 = stablehlo.reshape %arg68 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %963 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %964 = stablehlo.reshape %963 : (tensor<i32>) -> tensor<1xi32>
    %c_138 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_139 = stablehlo.constant dense<256> : tensor<1xi32>
    %965 = stablehlo.concatenate %964, %c_138, %c_139, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %966 = stablehlo.dynamic_broadcast_in_dim %962, %965, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %967 = stablehlo.add %961, %966 : tensor<?x1x256xf32>
    %968 = stablehlo.dot_general %967, %arg67, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %969 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %970 = stablehlo.reshape %969 : (tensor<i32>) -> tensor<1xi32>
    %c_140 = stablehlo.constant dense<256> : tensor<1xi32>
    %971 = stablehlo.concatenate %970, %c_140, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %972 = stablehlo.dynamic_reshape %968, %971 : (tensor<?x1x256xf32>, tensor<2xi32>) -> tensor<?x256xf32>
    return %972, %251, %256, %470, %475, %689, %694, %908, %913 : tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>
  }
  func.func public @decode(%arg0: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg1: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg2: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg3: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg4: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg5: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg6: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg7: tensor<256x256xf32> {jax.arg_info = "params['blocks'][0]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg8: tensor<1024xf32> {jax.arg_info = "params['blocks'][0]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg9: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][0]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg10: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg11: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][0]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg12: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg13: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg14: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg15: tensor<256xf32> {jax.arg_info = "params['blocks'][0]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg16: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg17: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg18: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg19: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg20: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg21: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg22: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg23: tensor<256x256xf32> {jax.arg_info = "params['blocks'][1]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg24: tensor<1024xf32> {jax.arg_info = "params['blocks'][1]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg25: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][1]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg26: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg27: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][1]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg28: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg29: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg30: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg31: tensor<256xf32> {jax.arg_info = "params['blocks'][1]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg32: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg33: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg34: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg35: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg36: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg37: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg38: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg39: tensor<256x256xf32> {jax.arg_info = "params['blocks'][2]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg40: tensor<1024xf32> {jax.arg_info = "params['blocks'][2]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg41: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][2]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg42: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg43: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][2]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg44: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg45: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg46: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg47: tensor<256xf32> {jax.arg_info = "params['blocks'][2]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg48: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['key']['bias']", mhlo.sharding = "{replicated}"}, %arg49: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['key']['kernel']", mhlo.sharding = "{replicated}"}, %arg50: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['out']['bias']", mhlo.sharding = "{replicated}"}, %arg51: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['out']['kernel']", mhlo.sharding = "{replicated}"}, %arg52: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['query']['bias']", mhlo.sharding = "{replicated}"}, %arg53: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['query']['kernel']", mhlo.sharding = "{replicated}"}, %arg54: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['attn']['value']['bias']", mhlo.sharding = "{replicated}"}, %arg55: tensor<256x256xf32> {jax.arg_info = "params['blocks'][3]['attn']['value']['kernel']", mhlo.sharding = "{replicated}"}, %arg56: tensor<1024xf32> {jax.arg_info = "params['blocks'][3]['ffn_in']['bias']", mhlo.sharding = "{replicated}"}, %arg57: tensor<256x1024xf32> {jax.arg_info = "params['blocks'][3]['ffn_in']['kernel']", mhlo.sharding = "{replicated}"}, %arg58: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ffn_out']['bias']", mhlo.sharding = "{replicated}"}, %arg59: tensor<1024x256xf32> {jax.arg_info = "params['blocks'][3]['ffn_out']['kernel']", mhlo.sharding = "{replicated}"}, %arg60: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln1']['bias']", mhlo.sharding = "{replicated}"}, %arg61: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln1']['scale']", mhlo.sharding = "{replicated}"}, %arg62: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln2']['bias']", mhlo.sharding = "{replicated}"}, %arg63: tensor<256xf32> {jax.arg_info = "params['blocks'][3]['ln2']['scale']", mhlo.sharding = "{replicated}"}, %arg64: tensor<256x256xf32> {jax.arg_info = "params['embed']['embedding']", mhlo.sharding = "{replicated}"}, %arg65: tensor<256x256xf32> {jax.arg_info = "params['lm_head']['kernel']", mhlo.sharding = "{replicated}"}, %arg66: tensor<256xf32> {jax.arg_info = "params['ln_f']['bias']", mhlo.sharding = "{replicated}"}, %arg67: tensor<256xf32> {jax.arg_info = "params['ln_f']['scale']", mhlo.sharding = "{replicated}"}, %arg68: tensor<256x256xf32> {jax.arg_info = "params['pos_embed']['embedding']", mhlo.sharding = "{replicated}"}, %arg69: tensor<?x256x4x64xf32> {jax.arg_info = "cache[0]", mhlo.sharding = "{replicated}", tf.aliasing_output = 1 : i32}, %arg70: tensor<?x256x4x64xf32> {jax.arg_info = "cache[1]", mhlo.sharding = "{replicated}", tf.aliasing_output = 2 : i32}, %arg71: tensor<?x256x4x64xf32> {jax.arg_info = "cache[2]", mhlo.sharding = "{replicated}", tf.aliasing_output = 3 : i32}, %arg72: tensor<?x256x4x64xf32> {jax.arg_info = "cache[3]", mhlo.sharding = "{replicated}", tf.aliasing_output = 4 : i32}, %arg73: tensor<?x256x4x64xf32> {jax.arg_info = "cache[4]", mhlo.sharding = "{replicated}", tf.aliasing_output = 5 : i32}, %arg74: tensor<?x256x4x64xf32> {jax.arg_info = "cache[5]", mhlo.sharding = "{replicated}", tf.aliasing_output = 6 : i32}, %arg75: tensor<?x256x4x64xf32> {jax.arg_info = "cache[6]", mhlo.sharding = "{replicated}", tf.aliasing_output = 7 : i32}, %arg76: tensor<?x256x4x64xf32> {jax.arg_info = "cache[7]", mhlo.sharding = "{replicated}", tf.aliasing_output = 8 : i32}, %arg77: tensor<?xi32> {jax.arg_info = "token", mhlo.sharding = "{replicated}"}, %arg78: tensor<?xi32> {jax.arg_info = "position", mhlo.sharding = "{replicated}"}) -> (tensor<?x256xf32> {jax.result_info = "[0]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][0]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][1]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][2]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][3]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][4]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][5]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][6]"}, tensor<?x256x4x64xf32> {jax.result_info = "[1][7]"}) {
    %0 = stablehlo.get_dimension_size %arg78, dim = 0 : (tensor<?xi32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2:9 = call @_wrapped_jax_export_decode(%1, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12, %arg13, %arg14, %arg15, %arg16, %arg17, %arg18, %arg19, %arg20, %arg21, %arg22, %arg23, %arg24, %arg25, %arg26, %arg27, %arg28, %arg29, %arg30, %arg31, %arg32, %arg33, %arg34, %arg35, %arg36, %arg37, %arg38, %arg39, %arg40, %arg41, %arg42, %arg43, %arg44, %arg45, %arg46, %arg47, %arg48, %arg49, %arg50, %arg51, %arg52, %arg53, %arg54, %arg55, %arg56, %arg57, %arg58, %arg59, %arg60, %arg61, %arg62, %arg63, %arg64, %arg65, %arg66, %arg67, %arg68, %arg69, %arg70, %arg71, %arg72, %arg73, %arg74, %arg75, %arg76, %arg77, %arg78) : (tensor<i64>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<1024xf32>, tensor<256x1024xf32>, tensor<256xf32>, tensor<1024x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<256x256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>)
    return %2#0, %2#1, %2#2, %2#3, %2#4, %2#5, %2#6, %2#7, %2#8 : tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>
  }
  func.func private @_wrapped_jax_export_decode(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<256xf32>, %arg2: tensor<256x256xf32>, %arg3: tensor<256xf32>, %arg4: tensor<256x256xf32>, %arg5: tensor<256xf32>, %arg6: tensor<256x256xf32>, %arg7: tensor<256xf32>, %arg8: tensor<256x256xf32>, %arg9: tensor<1024xf32>, %arg10: tensor<256x1024xf32>, %arg11: tensor<256xf32>, %arg12: tensor<1024x256xf32>, %arg13: tensor<256xf32>, %arg14: tensor<256xf32>, %arg15: tensor<256xf32>, %arg16: tensor<256xf32>, %arg17: tensor<256xf32>, %arg18: tensor<256x256xf32>, %arg19: tensor<256xf32>, %arg20: tensor<256x256xf32>, %arg21: tensor<256xf32>, %arg22: tensor<256x256xf32>, %arg23: tensor<256xf32>, %arg24: tensor<256x256xf32>, %arg25: tensor<1024xf32>, %arg26: tensor<256x1024xf32>, %arg27: tensor<256xf32>, %arg28: tensor<1024x256xf32>, %arg29: tensor<256xf32>, %arg30: tensor<256xf32>, %arg31: tensor<256xf32>, %arg32: tensor<256xf32>, %arg33: tensor<256xf32>, %arg34: tensor<256x256xf32>, %arg35: tensor<256xf32>, %arg36: tensor<256x256xf32>, %arg37: tensor<256xf32>, %arg38: tensor<256x256xf32>, %arg39: tensor<256xf32>, %arg40: tensor<256x256xf32>, %arg41: tensor<1024xf32>, %arg42: tensor<256x1024xf32>, %arg43: tensor<256xf32>, %arg44: tensor<1024x256xf32>, %arg45: tensor<256xf32>, %arg46: tensor<256xf32>, %arg47: tensor<256xf32>, %arg48: tensor<256xf32>, %arg49: tensor<256xf32>, %arg50: tensor<256x256xf32>, %arg51: tensor<256xf32>, %arg52: tensor<256x256xf32>, %arg53: tensor<256xf32>, %arg54: tensor<256x256xf32>, %arg55: tensor<256xf32>, %arg56: tensor<256x256xf32>, %arg57: tensor<1024xf32>, %arg58: tensor<256x1024xf32>, %arg59: tensor<256xf32>, %arg60: tensor<1024x256xf32>, %arg61: tensor<256xf32>, %arg62: tensor<256xf32>, %arg63: tensor<256xf32>, %arg64: tensor<256xf32>, %arg65: tensor<256x256xf32>, %arg66: tensor<256x256xf32>, %arg67: tensor<256xf32>, %arg68: tensor<256xf32>, %arg69: tensor<256x256xf32>, %arg70: tensor<?x256x4x64xf32>, %arg71: tensor<?x256x4x64xf32>, %arg72: tensor<?x256x4x64xf32>, %arg73: tensor<?x256x4x64xf32>, %arg74: tensor<?x256x4x64xf32>, %arg75: tensor<?x256x4x64xf32>, %arg76: tensor<?x256x4x64xf32>, %arg77: tensor<?x256x4x64xf32>, %arg78: tensor<?xi32>, %arg79: tensor<?xi32>) -> (tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>) {
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg78, %2, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %4 = call @_take_1(%arg0, %arg65, %3) : (tensor<i64>, tensor<256x256xf32>, tensor<?x1xi32>) -> tensor<?x1x256xf32>
    %5 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %arg79, %7, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %9 = call @_take_2(%arg0, %arg69, %8) : (tensor<i64>, tensor<256x256xf32>, tensor<?x1xi32>) -> tensor<?x1x256xf32>
    %10 = stablehlo.add %4, %9 : tensor<?x1x256xf32>
    %11 = stablehlo.iota dim = 0 : tensor<256xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [1] : (tensor<256xi32>) -> tensor<1x256xi32>
    %13 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %14 = stablehlo.reshape %13 : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %arg79, %15, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %17 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %18 = stablehlo.reshape %17 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<256> : tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %12, %19, dims = [0, 1] : (tensor<1x256xi32>, tensor<2xi32>) -> tensor<?x256xi32>
    %21 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %22 = stablehlo.reshape %21 : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<256> : tensor<1xi32>
    %23 = stablehlo.concatenate %22, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %24 = stablehlo.dynamic_broadcast_in_dim %16, %23, dims = [0, 1] : (tensor<?x1xi32>, tensor<2xi32>) -> tensor<?x256xi32>
    %25 = stablehlo.compare  LE, %20, %24,  SIGNED : (tensor<?x256xi32>, tensor<?x256xi32>) -> tensor<?x256xi1>
    %26 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %27 = stablehlo.reshape %26 : (tensor<i32>) -> tensor<1xi32>
    %c_4 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<256> : tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c_4, %c_5, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %25, %28, dims = [0, 3] : (tensor<?x256xi1>, tensor<4xi32>) -> tensor<?x4x1x256xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.reduce(%10 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %31 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %32 = stablehlo.reshape %31 : (tensor<i32>) -> tensor<1xi32>
    %c_7 = stablehlo.constant dense<1> : tensor<1xi32>
    %33 = stablehlo.concatenate %32, %c_7, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %34 = stablehlo.dynamic_broadcast_in_dim %cst_0, %33, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %35 = stablehlo.divide %30, %34 : tensor<?x1xf32>
    %36 = stablehlo.multiply %10, %10 : tensor<?x1x256xf32>
    %37 = stablehlo.reduce(%36 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %38 = stablehlo.divide %37, %34 : tensor<?x1xf32>
    %39 = stablehlo.multiply %35, %35 : tensor<?x1xf32>
    %40 = stablehlo.subtract %38, %39 : tensor<?x1xf32>
    %41 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %42 = stablehlo.reshape %41 : (tensor<i32>) -> tensor<1xi32>
    %c_8 = stablehlo.constant dense<1> : tensor<1xi32>
    %43 = stablehlo.concatenate %42, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %44 = stablehlo.dynamic_broadcast_in_dim %cst, %43, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %45 = stablehlo.maximum %44, %40 : tensor<?x1xf32>
    %46 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %47 = stablehlo.reshape %46 : (tensor<i32>) -> tensor<1xi32>
    %c_9 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_10 = stablehlo.constant dense<256> : tensor<1xi32>
    %48 = stablehlo.concatenate %47, %c_9, %c_10, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %49 = stablehlo.dynamic_broadcast_in_dim %35, %48, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %50 = stablehlo.subtract %10, %49 : tensor<?x1x256xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %51 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %52 = stablehlo.reshape %51 : (tensor<i32>) -> tensor<1xi32>
    %c_11 = stablehlo.constant dense<1> : tensor<1xi32>
    %53 = stablehlo.concatenate %52, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %54 = stablehlo.dynamic_broadcast_in_dim %cst_1, %53, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %55 = stablehlo.add %45, %54 : tensor<?x1xf32>
    %56 = stablehlo.rsqrt %55 : tensor<?x1xf32>
    %57 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %58 = stablehlo.reshape %57 : (tensor<i32>) -> tensor<1xi32>
    %c_12 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_13 = stablehlo.constant dense<256> : tensor<1xi32>
    %59 = stablehlo.concatenate %58, %c_12, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %60 = stablehlo.dynamic_broadcast_in_dim %56, %59, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %61 = stablehlo.reshape %arg14 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %62 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %63 = stablehlo.reshape %62 : (tensor<i32>) -> tensor<1xi32>
    %c_14 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_15 = stablehlo.constant dense<256> : tensor<1xi32>
    %64 = stablehlo.concatenate %63, %c_14, %c_15, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %65 = stablehlo.dynamic_broadcast_in_dim %61, %64, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %66 = stablehlo.multiply %60, %65 : tensor<?x1x256xf32>
    %67 = stablehlo.multiply %50, %66 : tensor<?x1x256xf32>
    %68 = stablehlo.reshape %arg13 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %69 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %70 = stablehlo.reshape %69 : (tensor<i32>) -> tensor<1xi32>
    %c_16 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_17 = stablehlo.constant dense<256> : tensor<1xi32>
    %71 = stablehlo.concatenate %70, %c_16, %c_17, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %72 = stablehlo.dynamic_broadcast_in_dim %68, %71, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %73 = stablehlo.add %67, %72 : tensor<?x1x256xf32>
    %74 = stablehlo.dot_general %73, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %75 = stablehlo.reshape %arg5 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %76 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %77 = stablehlo.reshape %76 : (tensor<i32>) -> tensor<1xi32>
    %c_18 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_19 = stablehlo.constant dense<256> : tensor<1xi32>
    %78 = stablehlo.concatenate %77, %c_18, %c_19, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %79 = stablehlo.dynamic_broadcast_in_dim %75, %78, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %80 = stablehlo.add %74, %79 : tensor<?x1x256xf32>
    %81 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %82 = stablehlo.reshape %81 : (tensor<i32>) -> tensor<1xi32>
    %c_20 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_21 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_22 = stablehlo.constant dense<64> : tensor<1xi32>
    %83 = stablehlo.concatenate %82, %c_20, %c_21, %c_22, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %84 = stablehlo.dynamic_reshape %80, %83 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %85 = stablehlo.dot_general %73, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %86 = stablehlo.reshape %arg1 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %87 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %88 = stablehlo.reshape %87 : (tensor<i32>) -> tensor<1xi32>
    %c_23 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_24 = stablehlo.constant dense<256> : tensor<1xi32>
    %89 = stablehlo.concatenate %88, %c_23, %c_24, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %90 = stablehlo.dynamic_broadcast_in_dim %86, %89, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %91 = stablehlo.add %85, %90 : tensor<?x1x256xf32>
    %92 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %93 = stablehlo.reshape %92 : (tensor<i32>) -> tensor<1xi32>
    %c_25 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_26 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_27 = stablehlo.constant dense<64> : tensor<1xi32>
    %94 = stablehlo.concatenate %93, %c_25, %c_26, %c_27, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %95 = stablehlo.dynamic_reshape %91, %94 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %96 = stablehlo.dot_general %73, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %97 = stablehlo.reshape %arg7 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %98 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %99 = stablehlo.reshape %98 : (tensor<i32>) -> tensor<1xi32>
    %c_28 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_29 = stablehlo.constant dense<256> : tensor<1xi32>
    %100 = stablehlo.concatenate %99, %c_28, %c_29, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %101 = stablehlo.dynamic_broadcast_in_dim %97, %100, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %102 = stablehlo.add %96, %101 : tensor<?x1x256xf32>
    %103 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %104 = stablehlo.reshape %103 : (tensor<i32>) -> tensor<1xi32>
    %c_30 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_31 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_32 = stablehlo.constant dense<64> : tensor<1xi32>
    %105 = stablehlo.concatenate %104, %c_30, %c_31, %c_32, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %106 = stablehlo.dynamic_reshape %102, %105 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %c_33 = stablehlo.constant dense<0> : tensor<i32>
    %107 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %108 = stablehlo.reshape %107 : (tensor<i32>) -> tensor<1xi32>
    %109 = stablehlo.concatenate %108, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %110 = stablehlo.dynamic_broadcast_in_dim %c_33, %109, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %111 = stablehlo.compare  LT, %arg79, %110,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_34 = stablehlo.constant dense<256> : tensor<i32>
    %112 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %113 = stablehlo.reshape %112 : (tensor<i32>) -> tensor<1xi32>
    %114 = stablehlo.concatenate %113, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %115 = stablehlo.dynamic_broadcast_in_dim %c_34, %114, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %116 = stablehlo.add %arg79, %115 : tensor<?xi32>
    %117 = stablehlo.select %111, %116, %arg79 : tensor<?xi1>, tensor<?xi32>
    %118 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %119 = stablehlo.reshape %118 : (tensor<i32>) -> tensor<1xi32>
    %c_35 = stablehlo.constant dense<1> : tensor<1xi32>
    %120 = stablehlo.concatenate %119, %c_35, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %121 = stablehlo.dynamic_broadcast_in_dim %117, %120, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %122 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %123 = stablehlo.reshape %122 : (tensor<i32>) -> tensor<1xi32>
    %c_36 = stablehlo.constant dense<1> : tensor<1xi32>
    %124 = stablehlo.concatenate %123, %c_36, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %125 = stablehlo.dynamic_broadcast_in_dim %c_33, %124, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %126 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %127 = stablehlo.reshape %126 : (tensor<i32>) -> tensor<1xi32>
    %c_37 = stablehlo.constant dense<1> : tensor<1xi32>
    %128 = stablehlo.concatenate %127, %c_37, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %129 = stablehlo.dynamic_broadcast_in_dim %c_33, %128, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %130 = stablehlo.concatenate %121, %125, %129, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_38 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_39 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %131 = stablehlo.minimum %c_38, %c_39 : tensor<3xi32>
    %132 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %133 = stablehlo.reshape %132 : (tensor<i32>) -> tensor<1xi32>
    %c_40 = stablehlo.constant dense<3> : tensor<1xi32>
    %134 = stablehlo.concatenate %133, %c_40, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %135 = stablehlo.dynamic_broadcast_in_dim %131, %134, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %136 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %137 = stablehlo.reshape %136 : (tensor<i32>) -> tensor<1xi32>
    %c_41 = stablehlo.constant dense<3> : tensor<1xi32>
    %138 = stablehlo.concatenate %137, %c_41, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %139 = stablehlo.dynamic_broadcast_in_dim %c_33, %138, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %140 = stablehlo.clamp %139, %130, %135 : tensor<?x3xi32>
    %141 = "stablehlo.scatter"(%arg70, %140, %95) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg80: tensor<f32>, %arg81: tensor<f32>):
      stablehlo.return %arg81 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %c_42 = stablehlo.constant dense<0> : tensor<i32>
    %142 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %143 = stablehlo.reshape %142 : (tensor<i32>) -> tensor<1xi32>
    %144 = stablehlo.concatenate %143, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %145 = stablehlo.dynamic_broadcast_in_dim %c_42, %144, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %146 = stablehlo.compare  LT, %arg79, %145,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_43 = stablehlo.constant dense<256> : tensor<i32>
    %147 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %148 = stablehlo.reshape %147 : (tensor<i32>) -> tensor<1xi32>
    %149 = stablehlo.concatenate %148, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %150 = stablehlo.dynamic_broadcast_in_dim %c_43, %149, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %151 = stablehlo.add %arg79, %150 : tensor<?xi32>
    %152 = stablehlo.select %146, %151, %arg79 : tensor<?xi1>, tensor<?xi32>
    %153 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %154 = stablehlo.reshape %153 : (tensor<i32>) -> tensor<1xi32>
    %c_44 = stablehlo.constant dense<1> : tensor<1xi32>
    %155 = stablehlo.concatenate %154, %c_44, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %156 = stablehlo.dynamic_broadcast_in_dim %152, %155, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %157 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %158 = stablehlo.reshape %157 : (tensor<i32>) -> tensor<1xi32>
    %c_45 = stablehlo.constant dense<1> : tensor<1xi32>
    %159 = stablehlo.concatenate %158, %c_45, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %160 = stablehlo.dynamic_broadcast_in_dim %c_42, %159, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %161 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %162 = stablehlo.reshape %161 : (tensor<i32>) -> tensor<1xi32>
    %c_46 = stablehlo.constant dense<1> : tensor<1xi32>
    %163 = stablehlo.concatenate %162, %c_46, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %164 = stablehlo.dynamic_broadcast_in_dim %c_42, %163, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %165 = stablehlo.concatenate %156, %160, %164, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_47 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_48 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %166 = stablehlo.minimum %c_47, %c_48 : tensor<3xi32>
    %167 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %168 = stablehlo.reshape %167 : (tensor<i32>) -> tensor<1xi32>
    %c_49 = stablehlo.constant dense<3> : tensor<1xi32>
    %169 = stablehlo.concatenate %168, %c_49, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %170 = stablehlo.dynamic_broadcast_in_dim %166, %169, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %171 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %172 = stablehlo.reshape %171 : (tensor<i32>) -> tensor<1xi32>
    %c_50 = stablehlo.constant dense<3> : tensor<1xi32>
    %173 = stablehlo.concatenate %172, %c_50, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %174 = stablehlo.dynamic_broadcast_in_dim %c_42, %173, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %175 = stablehlo.clamp %174, %165, %170 : tensor<?x3xi32>
    %176 = "stablehlo.scatter"(%arg71, %175, %106) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg82: tensor<f32>, %arg83: tensor<f32>):
      stablehlo.return %arg83 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %cst_2 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %177 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %178 = stablehlo.reshape %177 : (tensor<i32>) -> tensor<1xi32>
    %c_51 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_52 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_53 = stablehlo.constant dense<64> : tensor<1xi32>
    %179 = stablehlo.concatenate %178, %c_51, %c_52, %c_53, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %180 = stablehlo.dynamic_broadcast_in_dim %cst_2, %179, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %181 = stablehlo.multiply %84, %180 : tensor<?x1x4x64xf32>
    %182 = stablehlo.dot_general %181, %141, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x1x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x256xf32>
    %cst_3 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %183 = call @_where_1(%arg0, %29, %182, %cst_3) : (tensor<i64>, tensor<?x4x1x256xi1>, tensor<?x4x1x256xf32>, tensor<f32>) -> tensor<?x4x1x256xf32>
    %184 = call @_softmax_1(%arg0, %183) : (tensor<i64>, tensor<?x4x1x256xf32>) -> tensor<?x4x1x256xf32>
    %185 = stablehlo.dot_general %184, %176, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x1x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x64xf32>
    %186 = stablehlo.transpose %185, dims = [0, 2, 1, 3] : (tensor<?x4x1x64xf32>) -> tensor<?x1x4x64xf32>
    %187 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %188 = stablehlo.reshape %187 : (tensor<i32>) -> tensor<1xi32>
    %c_54 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_55 = stablehlo.constant dense<256> : tensor<1xi32>
    %189 = stablehlo.concatenate %188, %c_54, %c_55, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %190 = stablehlo.dynamic_reshape %186, %189 : (tensor<?x1x4x64xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %191 = stablehlo.dot_general %190, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %192 = stablehlo.reshape %arg3 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %193 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %194 = stablehlo.reshape %193 : (tensor<i32>) -> tensor<1xi32>
    %c_56 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_57 = stablehlo.constant dense<256> : tensor<1xi32>
    %195 = stablehlo.concatenate %194, %c_56, %c_57, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %196 = stablehlo.dynamic_broadcast_in_dim %192, %195, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %197 = stablehlo.add %191, %196 : tensor<?x1x256xf32>
    %198 = stablehlo.add %10, %197 : tensor<?x1x256xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %199 = stablehlo.reduce(%198 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_5 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %200 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %201 = stablehlo.reshape %200 : (tensor<i32>) -> tensor<1xi32>
    %c_58 = stablehlo.constant dense<1> : tensor<1xi32>
    %202 = stablehlo.concatenate %201, %c_58, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %203 = stablehlo.dynamic_broadcast_in_dim %cst_5, %202, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %204 = stablehlo.divide %199, %203 : tensor<?x1xf32>
    %205 = stablehlo.multiply %198, %198 : tensor<?x1x256xf32>
    %206 = stablehlo.reduce(%205 init: %cst_4) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %207 = stablehlo.divide %206, %203 : tensor<?x1xf32>
    %208 = stablehlo.multiply %204, %204 : tensor<?x1xf32>
    %209 = stablehlo.subtract %207, %208 : tensor<?x1xf32>
    %210 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %211 = stablehlo.reshape %210 : (tensor<i32>) -> tensor<1xi32>
    %c_59 = stablehlo.constant dense<1> : tensor<1xi32>
    %212 = stablehlo.concatenate %211, %c_59, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %213 = stablehlo.dynamic_broadcast_in_dim %cst_4, %212, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %214 = stablehlo.maximum %213, %209 : tensor<?x1xf32>
    %215 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %216 = stablehlo.reshape %215 : (tensor<i32>) -> tensor<1xi32>
    %c_60 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_61 = stablehlo.constant dense<256> : tensor<1xi32>
    %217 = stablehlo.concatenate %216, %c_60, %c_61, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %218 = stablehlo.dynamic_broadcast_in_dim %204, %217, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %219 = stablehlo.subtract %198, %218 : tensor<?x1x256xf32>
    %cst_6 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %220 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %221 = stablehlo.reshape %220 : (tensor<i32>) -> tensor<1xi32>
    %c_62 = stablehlo.constant dense<1> : tensor<1xi32>
    %222 = stablehlo.concatenate %221, %c_62, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %223 = stablehlo.dynamic_broadcast_in_dim %cst_6, %222, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %224 = stablehlo.add %214, %223 : tensor<?x1xf32>
    %225 = stablehlo.rsqrt %224 : tensor<?x1xf32>
    %226 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %227 = stablehlo.reshape %226 : (tensor<i32>) -> tensor<1xi32>
    %c_63 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_64 = stablehlo.constant dense<256> : tensor<1xi32>
    %228 = stablehlo.concatenate %227, %c_63, %c_64, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %229 = stablehlo.dynamic_broadcast_in_dim %225, %228, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %230 = stablehlo.reshape %arg16 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %231 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %232 = stablehlo.reshape %231 : (tensor<i32>) -> tensor<1xi32>
    %c_65 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_66 = stablehlo.constant dense<256> : tensor<1xi32>
    %233 = stablehlo.concatenate %232, %c_65, %c_66, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %234 = stablehlo.dynamic_broadcast_in_dim %230, %233, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %235 = stablehlo.multiply %229, %234 : tensor<?x1x256xf32>
    %236 = stablehlo.multiply %219, %235 : tensor<?x1x256xf32>
    %237 = stablehlo.reshape %arg15 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %238 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %239 = stablehlo.reshape %238 : (tensor<i32>) -> tensor<1xi32>
    %c_67 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_68 = stablehlo.constant dense<256> : tensor<1xi32>
    %240 = stablehlo.concatenate %239, %c_67, %c_68, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %241 = stablehlo.dynamic_broadcast_in_dim %237, %240, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %242 = stablehlo.add %236, %241 : tensor<?x1x256xf32>
    %243 = stablehlo.dot_general %242, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x1024xf32>) -> tensor<?x1x1024xf32>
    %244 = stablehlo.reshape %arg9 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %245 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %246 = stablehlo.reshape %245 : (tensor<i32>) -> tensor<1xi32>
    %c_69 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_70 = stablehlo.constant dense<1024> : tensor<1xi32>
    %247 = stablehlo.concatenate %246, %c_69, %c_70, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %248 = stablehlo.dynamic_broadcast_in_dim %244, %247, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %249 = stablehlo.add %243, %248 : tensor<?x1x1024xf32>
    %250 = call @gelu_1(%arg0, %249) : (tensor<i64>, tensor<?x1x1024xf32>) -> tensor<?x1x1024xf32>
    %251 = stablehlo.dot_general %250, %arg12, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x1024xf32>, tensor<1024x256xf32>) -> tensor<?x1x256xf32>
    %252 = stablehlo.reshape %arg11 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %253 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %254 = stablehlo.reshape %253 : (tensor<i32>) -> tensor<1xi32>
    %c_71 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_72 = stablehlo.constant dense<256> : tensor<1xi32>
    %255 = stablehlo.concatenate %254, %c_71, %c_72, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %256 = stablehlo.dynamic_broadcast_in_dim %252, %255, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %257 = stablehlo.add %251, %256 : tensor<?x1x256xf32>
    %258 = stablehlo.add %198, %257 : tensor<?x1x256xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %259 = stablehlo.reduce(%258 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_8 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %260 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %261 = stablehlo.reshape %260 : (tensor<i32>) -> tensor<1xi32>
    %c_73 = stablehlo.constant dense<1> : tensor<1xi32>
    %262 = stablehlo.concatenate %261, %c_73, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %263 = stablehlo.dynamic_broadcast_in_dim %cst_8, %262, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %264 = stablehlo.divide %259, %263 : tensor<?x1xf32>
    %265 = stablehlo.multiply %258, %258 : tensor<?x1x256xf32>
    %266 = stablehlo.reduce(%265 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %267 = stablehlo.divide %266, %263 : tensor<?x1xf32>
    %268 = stablehlo.multiply %264, %264 : tensor<?x1xf32>
    %269 = stablehlo.subtract %267, %268 : tensor<?x1xf32>
    %270 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %271 = stablehlo.reshape %270 : (tensor<i32>) -> tensor<1xi32>
    %c_74 = stablehlo.constant dense<1> : tensor<1xi32>
    %272 = stablehlo.concatenate %271, %c_74, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %273 = stablehlo.dynamic_broadcast_in_dim %cst_7, %272, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %274 = stablehlo.maximum %273, %269 : tensor<?x1xf32>
    %275 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %276 = stablehlo.reshape %275 : (tensor<i32>) -> tensor<1xi32>
    %c_75 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_76 = stablehlo.constant dense<256> : tensor<1xi32>
    %277 = stablehlo.concatenate %276, %c_75, %c_76, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %278 = stablehlo.dynamic_broadcast_in_dim %264, %277, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %279 = stablehlo.subtract %258, %278 : tensor<?x1x256xf32>
    %cst_9 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %280 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %281 = stablehlo.reshape %280 : (tensor<i32>) -> tensor<1xi32>
    %c_77 = stablehlo.constant dense<1> : tensor<1xi32>
    %282 = stablehlo.concatenate %281, %c_77, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %283 = stablehlo.dynamic_broadcast_in_dim %cst_9, %282, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %284 = stablehlo.add %274, %283 : tensor<?x1xf32>
    %285 = stablehlo.rsqrt %284 : tensor<?x1xf32>
    %286 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %287 = stablehlo.reshape %286 : (tensor<i32>) -> tensor<1xi32>
    %c_78 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_79 = stablehlo.constant dense<256> : tensor<1xi32>
    %288 = stablehlo.concatenate %287, %c_78, %c_79, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %289 = stablehlo.dynamic_broadcast_in_dim %285, %288, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %290 = stablehlo.reshape %arg30 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %291 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %292 = stablehlo.reshape %291 : (tensor<i32>) -> tensor<1xi32>
    %c_80 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_81 = stablehlo.constant dense<256> : tensor<1xi32>
    %293 = stablehlo.concatenate %292, %c_80, %c_81, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %294 = stablehlo.dynamic_broadcast_in_dim %290, %293, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %295 = stablehlo.multiply %289, %294 : tensor<?x1x256xf32>
    %296 = stablehlo.multiply %279, %295 : tensor<?x1x256xf32>
    %297 = stablehlo.reshape %arg29 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %298 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %299 = stablehlo.reshape %298 : (tensor<i32>) -> tensor<1xi32>
    %c_82 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_83 = stablehlo.constant dense<256> : tensor<1xi32>
    %300 = stablehlo.concatenate %299, %c_82, %c_83, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %301 = stablehlo.dynamic_broadcast_in_dim %297, %300, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %302 = stablehlo.add %296, %301 : tensor<?x1x256xf32>
    %303 = stablehlo.dot_general %302, %arg22, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %304 = stablehlo.reshape %arg21 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %305 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %306 = stablehlo.reshape %305 : (tensor<i32>) -> tensor<1xi32>
    %c_84 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_85 = stablehlo.constant dense<256> : tensor<1xi32>
    %307 = stablehlo.concatenate %306, %c_84, %c_85, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %308 = stablehlo.dynamic_broadcast_in_dim %304, %307, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %309 = stablehlo.add %303, %308 : tensor<?x1x256xf32>
    %310 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %311 = stablehlo.reshape %310 : (tensor<i32>) -> tensor<1xi32>
    %c_86 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_87 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_88 = stablehlo.constant dense<64> : tensor<1xi32>
    %312 = stablehlo.concatenate %311, %c_86, %c_87, %c_88, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %313 = stablehlo.dynamic_reshape %309, %312 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %314 = stablehlo.dot_general %302, %arg18, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %315 = stablehlo.reshape %arg17 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %316 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %317 = stablehlo.reshape %316 : (tensor<i32>) -> tensor<1xi32>
    %c_89 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_90 = stablehlo.constant dense<256> : tensor<1xi32>
    %318 = stablehlo.concatenate %317, %c_89, %c_90, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %319 = stablehlo.dynamic_broadcast_in_dim %315, %318, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %320 = stablehlo.add %314, %319 : tensor<?x1x256xf32>
    %321 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %322 = stablehlo.reshape %321 : (tensor<i32>) -> tensor<1xi32>
    %c_91 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_92 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_93 = stablehlo.constant dense<64> : tensor<1xi32>
    %323 = stablehlo.concatenate %322, %c_91, %c_92, %c_93, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %324 = stablehlo.dynamic_reshape %320, %323 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %325 = stablehlo.dot_general %302, %arg24, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %326 = stablehlo.reshape %arg23 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %327 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %328 = stablehlo.reshape %327 : (tensor<i32>) -> tensor<1xi32>
    %c_94 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_95 = stablehlo.constant dense<256> : tensor<1xi32>
    %329 = stablehlo.concatenate %328, %c_94, %c_95, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %330 = stablehlo.dynamic_broadcast_in_dim %326, %329, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %331 = stablehlo.add %325, %330 : tensor<?x1x256xf32>
    %332 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %333 = stablehlo.reshape %332 : (tensor<i32>) -> tensor<1xi32>
    %c_96 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_97 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_98 = stablehlo.constant dense<64> : tensor<1xi32>
    %334 = stablehlo.concatenate %333, %c_96, %c_97, %c_98, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %335 = stablehlo.dynamic_reshape %331, %334 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %c_99 = stablehlo.constant dense<0> : tensor<i32>
    %336 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %337 = stablehlo.reshape %336 : (tensor<i32>) -> tensor<1xi32>
    %338 = stablehlo.concatenate %337, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %339 = stablehlo.dynamic_broadcast_in_dim %c_99, %338, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %340 = stablehlo.compare  LT, %arg79, %339,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_100 = stablehlo.constant dense<256> : tensor<i32>
    %341 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %342 = stablehlo.reshape %341 : (tensor<i32>) -> tensor<1xi32>
    %343 = stablehlo.concatenate %342, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %344 = stablehlo.dynamic_broadcast_in_dim %c_100, %343, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %345 = stablehlo.add %arg79, %344 : tensor<?xi32>
    %346 = stablehlo.select %340, %345, %arg79 : tensor<?xi1>, tensor<?xi32>
    %347 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %348 = stablehlo.reshape %347 : (tensor<i32>) -> tensor<1xi32>
    %c_101 = stablehlo.constant dense<1> : tensor<1xi32>
    %349 = stablehlo.concatenate %348, %c_101, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %350 = stablehlo.dynamic_broadcast_in_dim %346, %349, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %351 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %352 = stablehlo.reshape %351 : (tensor<i32>) -> tensor<1xi32>
    %c_102 = stablehlo.constant dense<1> : tensor<1xi32>
    %353 = stablehlo.concatenate %352, %c_102, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %354 = stablehlo.dynamic_broadcast_in_dim %c_99, %353, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %355 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %356 = stablehlo.reshape %355 : (tensor<i32>) -> tensor<1xi32>
    %c_103 = stablehlo.constant dense<1> : tensor<1xi32>
    %357 = stablehlo.concatenate %356, %c_103, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %358 = stablehlo.dynamic_broadcast_in_dim %c_99, %357, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %359 = stablehlo.concatenate %350, %354, %358, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_104 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_105 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %360 = stablehlo.minimum %c_104, %c_105 : tensor<3xi32>
    %361 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %362 = stablehlo.reshape %361 : (tensor<i32>) -> tensor<1xi32>
    %c_106 = stablehlo.constant dense<3> : tensor<1xi32>
    %363 = stablehlo.concatenate %362, %c_106, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %364 = stablehlo.dynamic_broadcast_in_dim %360, %363, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %365 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %366 = stablehlo.reshape %365 : (tensor<i32>) -> tensor<1xi32>
    %c_107 = stablehlo.constant dense<3> : tensor<1xi32>
    %367 = stablehlo.concatenate %366, %c_107, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %368 = stablehlo.dynamic_broadcast_in_dim %c_99, %367, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %369 = stablehlo.clamp %368, %359, %364 : tensor<?x3xi32>
    %370 = "stablehlo.scatter"(%arg72, %369, %324) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg84: tensor<f32>, %arg85: tensor<f32>):
      stablehlo.return %arg85 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %c_108 = stablehlo.constant dense<0> : tensor<i32>
    %371 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %372 = stablehlo.reshape %371 : (tensor<i32>) -> tensor<1xi32>
    %373 = stablehlo.concatenate %372, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %374 = stablehlo.dynamic_broadcast_in_dim %c_108, %373, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %375 = stablehlo.compare  LT, %arg79, %374,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_109 = stablehlo.constant dense<256> : tensor<i32>
    %376 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %377 = stablehlo.reshape %376 : (tensor<i32>) -> tensor<1xi32>
    %378 = stablehlo.concatenate %377, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %379 = stablehlo.dynamic_broadcast_in_dim %c_109, %378, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %380 = stablehlo.add %arg79, %379 : tensor<?xi32>
    %381 = stablehlo.select %375, %380, %arg79 : tensor<?xi1>, tensor<?xi32>
    %382 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %383 = stablehlo.reshape %382 : (tensor<i32>) -> tensor<1xi32>
    %c_110 = stablehlo.constant dense<1> : tensor<1xi32>
    %384 = stablehlo.concatenate %383, %c_110, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %385 = stablehlo.dynamic_broadcast_in_dim %381, %384, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %386 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %387 = stablehlo.reshape %386 : (tensor<i32>) -> tensor<1xi32>
    %c_111 = stablehlo.constant dense<1> : tensor<1xi32>
    %388 = stablehlo.concatenate %387, %c_111, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %389 = stablehlo.dynamic_broadcast_in_dim %c_108, %388, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %390 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %391 = stablehlo.reshape %390 : (tensor<i32>) -> tensor<1xi32>
    %c_112 = stablehlo.constant dense<1> : tensor<1xi32>
    %392 = stablehlo.concatenate %391, %c_112, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %393 = stablehlo.dynamic_broadcast_in_dim %c_108, %392, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %394 = stablehlo.concatenate %385, %389, %393, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_113 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_114 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %395 = stablehlo.minimum %c_113, %c_114 : tensor<3xi32>
    %396 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %397 = stablehlo.reshape %396 : (tensor<i32>) -> tensor<1xi32>
    %c_115 = stablehlo.constant dense<3> : tensor<1xi32>
    %398 = stablehlo.concatenate %397, %c_115, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %399 = stablehlo.dynamic_broadcast_in_dim %395, %398, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %400 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %401 = stablehlo.reshape %400 : (tensor<i32>) -> tensor<1xi32>
    %c_116 = stablehlo.constant dense<3> : tensor<1xi32>
    %402 = stablehlo.concatenate %401, %c_116, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %403 = stablehlo.dynamic_broadcast_in_dim %c_108, %402, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %404 = stablehlo.clamp %403, %394, %399 : tensor<?x3xi32>
    %405 = "stablehlo.scatter"(%arg73, %404, %335) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg86: tensor<f32>, %arg87: tensor<f32>):
      stablehlo.return %arg87 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %cst_10 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %406 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %407 = stablehlo.reshape %406 : (tensor<i32>) -> tensor<1xi32>
    %c_117 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_118 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_119 = stablehlo.constant dense<64> : tensor<1xi32>
    %408 = stablehlo.concatenate %407, %c_117, %c_118, %c_119, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %409 = stablehlo.dynamic_broadcast_in_dim %cst_10, %408, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %410 = stablehlo.multiply %313, %409 : tensor<?x1x4x64xf32>
    %411 = stablehlo.dot_general %410, %370, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x1x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x256xf32>
    %cst_11 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %412 = call @_where_1(%arg0, %29, %411, %cst_11) : (tensor<i64>, tensor<?x4x1x256xi1>, tensor<?x4x1x256xf32>, tensor<f32>) -> tensor<?x4x1x256xf32>
    %413 = call @_softmax_1(%arg0, %412) : (tensor<i64>, tensor<?x4x1x256xf32>) -> tensor<?x4x1x256xf32>
    %414 = stablehlo.dot_general %413, %405, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x1x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x64xf32>
    %415 = stablehlo.transpose %414, dims = [0, 2, 1, 3] : (tensor<?x4x1x64xf32>) -> tensor<?x1x4x64xf32>
    %416 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %417 = stablehlo.reshape %416 : (tensor<i32>) -> tensor<1xi32>
    %c_120 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_121 = stablehlo.constant dense<256> : tensor<1xi32>
    %418 = stablehlo.concatenate %417, %c_120, %c_121, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %419 = stablehlo.dynamic_reshape %415, %418 : (tensor<?x1x4x64xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %420 = stablehlo.dot_general %419, %arg20, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %421 = stablehlo.reshape %arg19 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %422 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %423 = stablehlo.reshape %422 : (tensor<i32>) -> tensor<1xi32>
    %c_122 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_123 = stablehlo.constant dense<256> : tensor<1xi32>
    %424 = stablehlo.concatenate %423, %c_122, %c_123, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %425 = stablehlo.dynamic_broadcast_in_dim %421, %424, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %426 = stablehlo.add %420, %425 : tensor<?x1x256xf32>
    %427 = stablehlo.add %258, %426 : tensor<?x1x256xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %428 = stablehlo.reduce(%427 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_13 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %429 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %430 = stablehlo.reshape %429 : (tensor<i32>) -> tensor<1xi32>
    %c_124 = stablehlo.constant dense<1> : tensor<1xi32>
    %431 = stablehlo.concatenate %430, %c_124, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %432 = stablehlo.dynamic_broadcast_in_dim %cst_13, %431, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %433 = stablehlo.divide %428, %432 : tensor<?x1xf32>
    %434 = stablehlo.multiply %427, %427 : tensor<?x1x256xf32>
    %435 = stablehlo.reduce(%434 init: %cst_12) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %436 = stablehlo.divide %435, %432 : tensor<?x1xf32>
    %437 = stablehlo.multiply %433, %433 : tensor<?x1xf32>
    %438 = stablehlo.subtract %436, %437 : tensor<?x1xf32>
    %439 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %440 = stablehlo.reshape %439 : (tensor<i32>) -> tensor<1xi32>
    %c_125 = stablehlo.constant dense<1> : tensor<1xi32>
    %441 = stablehlo.concatenate %440, %c_125, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %442 = stablehlo.dynamic_broadcast_in_dim %cst_12, %441, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %443 = stablehlo.maximum %442, %438 : tensor<?x1xf32>
    %444 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %445 = stablehlo.reshape %444 : (tensor<i32>) -> tensor<1xi32>
    %c_126 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_127 = stablehlo.constant dense<256> : tensor<1xi32>
    %446 = stablehlo.concatenate %445, %c_126, %c_127, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %447 = stablehlo.dynamic_broadcast_in_dim %433, %446, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %448 = stablehlo.subtract %427, %447 : tensor<?x1x256xf32>
    %cst_14 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %449 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %450 = stablehlo.reshape %449 : (tensor<i32>) -> tensor<1xi32>
    %c_128 = stablehlo.constant dense<1> : tensor<1xi32>
    %451 = stablehlo.concatenate %450, %c_128, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %452 = stablehlo.dynamic_broadcast_in_dim %cst_14, %451, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %453 = stablehlo.add %443, %452 : tensor<?x1xf32>
    %454 = stablehlo.rsqrt %453 : tensor<?x1xf32>
    %455 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %456 = stablehlo.reshape %455 : (tensor<i32>) -> tensor<1xi32>
    %c_129 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_130 = stablehlo.constant dense<256> : tensor<1xi32>
    %457 = stablehlo.concatenate %456, %c_129, %c_130, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %458 = stablehlo.dynamic_broadcast_in_dim %454, %457, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %459 = stablehlo.reshape %arg32 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %460 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %461 = stablehlo.reshape %460 : (tensor<i32>) -> tensor<1xi32>
    %c_131 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_132 = stablehlo.constant dense<256> : tensor<1xi32>
    %462 = stablehlo.concatenate %461, %c_131, %c_132, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %463 = stablehlo.dynamic_broadcast_in_dim %459, %462, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %464 = stablehlo.multiply %458, %463 : tensor<?x1x256xf32>
    %465 = stablehlo.multiply %448, %464 : tensor<?x1x256xf32>
    %466 = stablehlo.reshape %arg31 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %467 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %468 = stablehlo.reshape %467 : (tensor<i32>) -> tensor<1xi32>
    %c_133 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_134 = stablehlo.constant dense<256> : tensor<1xi32>
    %469 = stablehlo.concatenate %468, %c_133, %c_134, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %470 = stablehlo.dynamic_broadcast_in_dim %466, %469, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %471 = stablehlo.add %465, %470 : tensor<?x1x256xf32>
    %472 = stablehlo.dot_general %471, %arg26, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x1024xf32>) -> tensor<?x1x1024xf32>
    %473 = stablehlo.reshape %arg25 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %474 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %475 = stablehlo.reshape %474 : (tensor<i32>) -> tensor<1xi32>
    %c_135 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_136 = stablehlo.constant dense<1024> : tensor<1xi32>
    %476 = stablehlo.concatenate %475, %c_135, %c_136, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %477 = stablehlo.dynamic_broadcast_in_dim %473, %476, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %478 = stablehlo.add %472, %477 : tensor<?x1x1024xf32>
    %479 = call @gelu_1(%arg0, %478) : (tensor<i64>, tensor<?x1x1024xf32>) -> tensor<?x1x1024xf32>
    %480 = stablehlo.dot_general %479, %arg28, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x1024xf32>, tensor<1024x256xf32>) -> tensor<?x1x256xf32>
    %481 = stablehlo.reshape %arg27 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %482 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %483 = stablehlo.reshape %482 : (tensor<i32>) -> tensor<1xi32>
    %c_137 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_138 = stablehlo.constant dense<256> : tensor<1xi32>
    %484 = stablehlo.concatenate %483, %c_137, %c_138, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %485 = stablehlo.dynamic_broadcast_in_dim %481, %484, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %486 = stablehlo.add %480, %485 : tensor<?x1x256xf32>
    %487 = stablehlo.add %427, %486 : tensor<?x1x256xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %488 = stablehlo.reduce(%487 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_16 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %489 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %490 = stablehlo.reshape %489 : (tensor<i32>) -> tensor<1xi32>
    %c_139 = stablehlo.constant dense<1> : tensor<1xi32>
    %491 = stablehlo.concatenate %490, %c_139, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %492 = stablehlo.dynamic_broadcast_in_dim %cst_16, %491, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %493 = stablehlo.divide %488, %492 : tensor<?x1xf32>
    %494 = stablehlo.multiply %487, %487 : tensor<?x1x256xf32>
    %495 = stablehlo.reduce(%494 init: %cst_15) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %496 = stablehlo.divide %495, %492 : tensor<?x1xf32>
    %497 = stablehlo.multiply %493, %493 : tensor<?x1xf32>
    %498 = stablehlo.subtract %496, %497 : tensor<?x1xf32>
    %499 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %500 = stablehlo.reshape %499 : (tensor<i32>) -> tensor<1xi32>
    %c_140 = stablehlo.constant dense<1> : tensor<1xi32>
    %501 = stablehlo.concatenate %500, %c_140, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %502 = stablehlo.dynamic_broadcast_in_dim %cst_15, %501, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %503 = stablehlo.maximum %502, %498 : tensor<?x1xf32>
    %504 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %505 = stablehlo.reshape %504 : (tensor<i32>) -> tensor<1xi32>
    %c_141 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_142 = stablehlo.constant dense<256> : tensor<1xi32>
    %506 = stablehlo.concatenate %505, %c_141, %c_142, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %507 = stablehlo.dynamic_broadcast_in_dim %493, %506, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %508 = stablehlo.subtract %487, %507 : tensor<?x1x256xf32>
    %cst_17 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %509 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %510 = stablehlo.reshape %509 : (tensor<i32>) -> tensor<1xi32>
    %c_143 = stablehlo.constant dense<1> : tensor<1xi32>
    %511 = stablehlo.concatenate %510, %c_143, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %512 = stablehlo.dynamic_broadcast_in_dim %cst_17, %511, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %513 = stablehlo.add %503, %512 : tensor<?x1xf32>
    %514 = stablehlo.rsqrt %513 : tensor<?x1xf32>
    %515 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %516 = stablehlo.reshape %515 : (tensor<i32>) -> tensor<1xi32>
    %c_144 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_145 = stablehlo.constant dense<256> : tensor<1xi32>
    %517 = stablehlo.concatenate %516, %c_144, %c_145, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %518 = stablehlo.dynamic_broadcast_in_dim %514, %517, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %519 = stablehlo.reshape %arg46 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %520 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %521 = stablehlo.reshape %520 : (tensor<i32>) -> tensor<1xi32>
    %c_146 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_147 = stablehlo.constant dense<256> : tensor<1xi32>
    %522 = stablehlo.concatenate %521, %c_146, %c_147, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %523 = stablehlo.dynamic_broadcast_in_dim %519, %522, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %524 = stablehlo.multiply %518, %523 : tensor<?x1x256xf32>
    %525 = stablehlo.multiply %508, %524 : tensor<?x1x256xf32>
    %526 = stablehlo.reshape %arg45 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %527 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %528 = stablehlo.reshape %527 : (tensor<i32>) -> tensor<1xi32>
    %c_148 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_149 = stablehlo.constant dense<256> : tensor<1xi32>
    %529 = stablehlo.concatenate %528, %c_148, %c_149, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %530 = stablehlo.dynamic_broadcast_in_dim %526, %529, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %531 = stablehlo.add %525, %530 : tensor<?x1x256xf32>
    %532 = stablehlo.dot_general %531, %arg38, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %533 = stablehlo.reshape %arg37 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %534 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %535 = stablehlo.reshape %534 : (tensor<i32>) -> tensor<1xi32>
    %c_150 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_151 = stablehlo.constant dense<256> : tensor<1xi32>
    %536 = stablehlo.concatenate %535, %c_150, %c_151, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %537 = stablehlo.dynamic_broadcast_in_dim %533, %536, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %538 = stablehlo.add %532, %537 : tensor<?x1x256xf32>
    %539 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %540 = stablehlo.reshape %539 : (tensor<i32>) -> tensor<1xi32>
    %c_152 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_153 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_154 = stablehlo.constant dense<64> : tensor<1xi32>
    %541 = stablehlo.concatenate %540, %c_152, %c_153, %c_154, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %542 = stablehlo.dynamic_reshape %538, %541 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %543 = stablehlo.dot_general %531, %arg34, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %544 = stablehlo.reshape %arg33 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %545 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %546 = stablehlo.reshape %545 : (tensor<i32>) -> tensor<1xi32>
    %c_155 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_156 = stablehlo.constant dense<256> : tensor<1xi32>
    %547 = stablehlo.concatenate %546, %c_155, %c_156, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %548 = stablehlo.dynamic_broadcast_in_dim %544, %547, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %549 = stablehlo.add %543, %548 : tensor<?x1x256xf32>
    %550 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %551 = stablehlo.reshape %550 : (tensor<i32>) -> tensor<1xi32>
    %c_157 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_158 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_159 = stablehlo.constant dense<64> : tensor<1xi32>
    %552 = stablehlo.concatenate %551, %c_157, %c_158, %c_159, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %553 = stablehlo.dynamic_reshape %549, %552 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %554 = stablehlo.dot_general %531, %arg40, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %555 = stablehlo.reshape %arg39 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %556 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %557 = stablehlo.reshape %556 : (tensor<i32>) -> tensor<1xi32>
    %c_160 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_161 = stablehlo.constant dense<256> : tensor<1xi32>
    %558 = stablehlo.concatenate %557, %c_160, %c_161, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %559 = stablehlo.dynamic_broadcast_in_dim %555, %558, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %560 = stablehlo.add %554, %559 : tensor<?x1x256xf32>
    %561 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %562 = stablehlo.reshape %561 : (tensor<i32>) -> tensor<1xi32>
    %c_162 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_163 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_164 = stablehlo.constant dense<64> : tensor<1xi32>
    %563 = stablehlo.concatenate %562, %c_162, %c_163, %c_164, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %564 = stablehlo.dynamic_reshape %560, %563 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %c_165 = stablehlo.constant dense<0> : tensor<i32>
    %565 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %566 = stablehlo.reshape %565 : (tensor<i32>) -> tensor<1xi32>
    %567 = stablehlo.concatenate %566, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %568 = stablehlo.dynamic_broadcast_in_dim %c_165, %567, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %569 = stablehlo.compare  LT, %arg79, %568,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_166 = stablehlo.constant dense<256> : tensor<i32>
    %570 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %571 = stablehlo.reshape %570 : (tensor<i32>) -> tensor<1xi32>
    %572 = stablehlo.concatenate %571, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %573 = stablehlo.dynamic_broadcast_in_dim %c_166, %572, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %574 = stablehlo.add %arg79, %573 : tensor<?xi32>
    %575 = stablehlo.select %569, %574, %arg79 : tensor<?xi1>, tensor<?xi32>
    %576 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %577 = stablehlo.reshape %576 : (tensor<i32>) -> tensor<1xi32>
    %c_167 = stablehlo.constant dense<1> : tensor<1xi32>
    %578 = stablehlo.concatenate %577, %c_167, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %579 = stablehlo.dynamic_broadcast_in_dim %575, %578, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %580 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %581 = stablehlo.reshape %580 : (tensor<i32>) -> tensor<1xi32>
    %c_168 = stablehlo.constant dense<1> : tensor<1xi32>
    %582 = stablehlo.concatenate %581, %c_168, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %583 = stablehlo.dynamic_broadcast_in_dim %c_165, %582, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %584 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %585 = stablehlo.reshape %584 : (tensor<i32>) -> tensor<1xi32>
    %c_169 = stablehlo.constant dense<1> : tensor<1xi32>
    %586 = stablehlo.concatenate %585, %c_169, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %587 = stablehlo.dynamic_broadcast_in_dim %c_165, %586, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %588 = stablehlo.concatenate %579, %583, %587, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_170 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_171 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %589 = stablehlo.minimum %c_170, %c_171 : tensor<3xi32>
    %590 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %591 = stablehlo.reshape %590 : (tensor<i32>) -> tensor<1xi32>
    %c_172 = stablehlo.constant dense<3> : tensor<1xi32>
    %592 = stablehlo.concatenate %591, %c_172, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %593 = stablehlo.dynamic_broadcast_in_dim %589, %592, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %594 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %595 = stablehlo.reshape %594 : (tensor<i32>) -> tensor<1xi32>
    %c_173 = stablehlo.constant dense<3> : tensor<1xi32>
    %596 = stablehlo.concatenate %595, %c_173, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %597 = stablehlo.dynamic_broadcast_in_dim %c_165, %596, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %598 = stablehlo.clamp %597, %588, %593 : tensor<?x3xi32>
    %599 = "stablehlo.scatter"(%arg74, %598, %553) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg88: tensor<f32>, %arg89: tensor<f32>):
      stablehlo.return %arg89 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %c_174 = stablehlo.constant dense<0> : tensor<i32>
    %600 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %601 = stablehlo.reshape %600 : (tensor<i32>) -> tensor<1xi32>
    %602 = stablehlo.concatenate %601, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %603 = stablehlo.dynamic_broadcast_in_dim %c_174, %602, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %604 = stablehlo.compare  LT, %arg79, %603,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_175 = stablehlo.constant dense<256> : tensor<i32>
    %605 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %606 = stablehlo.reshape %605 : (tensor<i32>) -> tensor<1xi32>
    %607 = stablehlo.concatenate %606, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %608 = stablehlo.dynamic_broadcast_in_dim %c_175, %607, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %609 = stablehlo.add %arg79, %608 : tensor<?xi32>
    %610 = stablehlo.select %604, %609, %arg79 : tensor<?xi1>, tensor<?xi32>
    %611 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %612 = stablehlo.reshape %611 : (tensor<i32>) -> tensor<1xi32>
    %c_176 = stablehlo.constant dense<1> : tensor<1xi32>
    %613 = stablehlo.concatenate %612, %c_176, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %614 = stablehlo.dynamic_broadcast_in_dim %610, %613, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %615 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %616 = stablehlo.reshape %615 : (tensor<i32>) -> tensor<1xi32>
    %c_177 = stablehlo.constant dense<1> : tensor<1xi32>
    %617 = stablehlo.concatenate %616, %c_177, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %618 = stablehlo.dynamic_broadcast_in_dim %c_174, %617, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %619 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %620 = stablehlo.reshape %619 : (tensor<i32>) -> tensor<1xi32>
    %c_178 = stablehlo.constant dense<1> : tensor<1xi32>
    %621 = stablehlo.concatenate %620, %c_178, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %622 = stablehlo.dynamic_broadcast_in_dim %c_174, %621, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %623 = stablehlo.concatenate %614, %618, %622, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_179 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_180 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %624 = stablehlo.minimum %c_179, %c_180 : tensor<3xi32>
    %625 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %626 = stablehlo.reshape %625 : (tensor<i32>) -> tensor<1xi32>
    %c_181 = stablehlo.constant dense<3> : tensor<1xi32>
    %627 = stablehlo.concatenate %626, %c_181, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %628 = stablehlo.dynamic_broadcast_in_dim %624, %627, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %629 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %630 = stablehlo.reshape %629 : (tensor<i32>) -> tensor<1xi32>
    %c_182 = stablehlo.constant dense<3> : tensor<1xi32>
    %631 = stablehlo.concatenate %630, %c_182, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %632 = stablehlo.dynamic_broadcast_in_dim %c_174, %631, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %633 = stablehlo.clamp %632, %623, %628 : tensor<?x3xi32>
    %634 = "stablehlo.scatter"(%arg75, %633, %564) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg90: tensor<f32>, %arg91: tensor<f32>):
      stablehlo.return %arg91 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %cst_18 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %635 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %636 = stablehlo.reshape %635 : (tensor<i32>) -> tensor<1xi32>
    %c_183 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_184 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_185 = stablehlo.constant dense<64> : tensor<1xi32>
    %637 = stablehlo.concatenate %636, %c_183, %c_184, %c_185, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %638 = stablehlo.dynamic_broadcast_in_dim %cst_18, %637, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %639 = stablehlo.multiply %542, %638 : tensor<?x1x4x64xf32>
    %640 = stablehlo.dot_general %639, %599, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x1x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x256xf32>
    %cst_19 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %641 = call @_where_1(%arg0, %29, %640, %cst_19) : (tensor<i64>, tensor<?x4x1x256xi1>, tensor<?x4x1x256xf32>, tensor<f32>) -> tensor<?x4x1x256xf32>
    %642 = call @_softmax_1(%arg0, %641) : (tensor<i64>, tensor<?x4x1x256xf32>) -> tensor<?x4x1x256xf32>
    %643 = stablehlo.dot_general %642, %634, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x1x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x64xf32>
    %644 = stablehlo.transpose %643, dims = [0, 2, 1, 3] : (tensor<?x4x1x64xf32>) -> tensor<?x1x4x64xf32>
    %645 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %646 = stablehlo.reshape %645 : (tensor<i32>) -> tensor<1xi32>
    %c_186 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_187 = stablehlo.constant dense<256> : tensor<1xi32>
    %647 = stablehlo.concatenate %646, %c_186, %c_187, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %648 = stablehlo.dynamic_reshape %644, %647 : (tensor<?x1x4x64xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %649 = stablehlo.dot_general %648, %arg36, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %650 = stablehlo.reshape %arg35 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %651 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %652 = stablehlo.reshape %651 : (tensor<i32>) -> tensor<1xi32>
    %c_188 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_189 = stablehlo.constant dense<256> : tensor<1xi32>
    %653 = stablehlo.concatenate %652, %c_188, %c_189, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %654 = stablehlo.dynamic_broadcast_in_dim %650, %653, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %655 = stablehlo.add %649, %654 : tensor<?x1x256xf32>
    %656 = stablehlo.add %487, %655 : tensor<?x1x256xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %657 = stablehlo.reduce(%656 init: %cst_20) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_21 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %658 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %659 = stablehlo.reshape %658 : (tensor<i32>) -> tensor<1xi32>
    %c_190 = stablehlo.constant dense<1> : tensor<1xi32>
    %660 = stablehlo.concatenate %659, %c_190, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %661 = stablehlo.dynamic_broadcast_in_dim %cst_21, %660, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %662 = stablehlo.divide %657, %661 : tensor<?x1xf32>
    %663 = stablehlo.multiply %656, %656 : tensor<?x1x256xf32>
    %664 = stablehlo.reduce(%663 init: %cst_20) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %665 = stablehlo.divide %664, %661 : tensor<?x1xf32>
    %666 = stablehlo.multiply %662, %662 : tensor<?x1xf32>
    %667 = stablehlo.subtract %665, %666 : tensor<?x1xf32>
    %668 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %669 = stablehlo.reshape %668 : (tensor<i32>) -> tensor<1xi32>
    %c_191 = stablehlo.constant dense<1> : tensor<1xi32>
    %670 = stablehlo.concatenate %669, %c_191, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %671 = stablehlo.dynamic_broadcast_in_dim %cst_20, %670, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %672 = stablehlo.maximum %671, %667 : tensor<?x1xf32>
    %673 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %674 = stablehlo.reshape %673 : (tensor<i32>) -> tensor<1xi32>
    %c_192 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_193 = stablehlo.constant dense<256> : tensor<1xi32>
    %675 = stablehlo.concatenate %674, %c_192, %c_193, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %676 = stablehlo.dynamic_broadcast_in_dim %662, %675, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %677 = stablehlo.subtract %656, %676 : tensor<?x1x256xf32>
    %cst_22 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %678 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %679 = stablehlo.reshape %678 : (tensor<i32>) -> tensor<1xi32>
    %c_194 = stablehlo.constant dense<1> : tensor<1xi32>
    %680 = stablehlo.concatenate %679, %c_194, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %681 = stablehlo.dynamic_broadcast_in_dim %cst_22, %680, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %682 = stablehlo.add %672, %681 : tensor<?x1xf32>
    %683 = stablehlo.rsqrt %682 : tensor<?x1xf32>
    %684 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %685 = stablehlo.reshape %684 : (tensor<i32>) -> tensor<1xi32>
    %c_195 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_196 = stablehlo.constant dense<256> : tensor<1xi32>
    %686 = stablehlo.concatenate %685, %c_195, %c_196, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %687 = stablehlo.dynamic_broadcast_in_dim %683, %686, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %688 = stablehlo.reshape %arg48 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %689 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %690 = stablehlo.reshape %689 : (tensor<i32>) -> tensor<1xi32>
    %c_197 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_198 = stablehlo.constant dense<256> : tensor<1xi32>
    %691 = stablehlo.concatenate %690, %c_197, %c_198, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %692 = stablehlo.dynamic_broadcast_in_dim %688, %691, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %693 = stablehlo.multiply %687, %692 : tensor<?x1x256xf32>
    %694 = stablehlo.multiply %677, %693 : tensor<?x1x256xf32>
    %695 = stablehlo.reshape %arg47 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %696 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %697 = stablehlo.reshape %696 : (tensor<i32>) -> tensor<1xi32>
    %c_199 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_200 = stablehlo.constant dense<256> : tensor<1xi32>
    %698 = stablehlo.concatenate %697, %c_199, %c_200, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %699 = stablehlo.dynamic_broadcast_in_dim %695, %698, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %700 = stablehlo.add %694, %699 : tensor<?x1x256xf32>
    %701 = stablehlo.dot_general %700, %arg42, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x1024xf32>) -> tensor<?x1x1024xf32>
    %702 = stablehlo.reshape %arg41 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %703 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %704 = stablehlo.reshape %703 : (tensor<i32>) -> tensor<1xi32>
    %c_201 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_202 = stablehlo.constant dense<1024> : tensor<1xi32>
    %705 = stablehlo.concatenate %704, %c_201, %c_202, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %706 = stablehlo.dynamic_broadcast_in_dim %702, %705, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %707 = stablehlo.add %701, %706 : tensor<?x1x1024xf32>
    %708 = call @gelu_1(%arg0, %707) : (tensor<i64>, tensor<?x1x1024xf32>) -> tensor<?x1x1024xf32>
    %709 = stablehlo.dot_general %708, %arg44, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x1024xf32>, tensor<1024x256xf32>) -> tensor<?x1x256xf32>
    %710 = stablehlo.reshape %arg43 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %711 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %712 = stablehlo.reshape %711 : (tensor<i32>) -> tensor<1xi32>
    %c_203 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_204 = stablehlo.constant dense<256> : tensor<1xi32>
    %713 = stablehlo.concatenate %712, %c_203, %c_204, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %714 = stablehlo.dynamic_broadcast_in_dim %710, %713, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %715 = stablehlo.add %709, %714 : tensor<?x1x256xf32>
    %716 = stablehlo.add %656, %715 : tensor<?x1x256xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %717 = stablehlo.reduce(%716 init: %cst_23) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_24 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %718 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %719 = stablehlo.reshape %718 : (tensor<i32>) -> tensor<1xi32>
    %c_205 = stablehlo.constant dense<1> : tensor<1xi32>
    %720 = stablehlo.concatenate %719, %c_205, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %721 = stablehlo.dynamic_broadcast_in_dim %cst_24, %720, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %722 = stablehlo.divide %717, %721 : tensor<?x1xf32>
    %723 = stablehlo.multiply %716, %716 : tensor<?x1x256xf32>
    %724 = stablehlo.reduce(%723 init: %cst_23) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %725 = stablehlo.divide %724, %721 : tensor<?x1xf32>
    %726 = stablehlo.multiply %722, %722 : tensor<?x1xf32>
    %727 = stablehlo.subtract %725, %726 : tensor<?x1xf32>
    %728 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %729 = stablehlo.reshape %728 : (tensor<i32>) -> tensor<1xi32>
    %c_206 = stablehlo.constant dense<1> : tensor<1xi32>
    %730 = stablehlo.concatenate %729, %c_206, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %731 = stablehlo.dynamic_broadcast_in_dim %cst_23, %730, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %732 = stablehlo.maximum %731, %727 : tensor<?x1xf32>
    %733 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %734 = stablehlo.reshape %733 : (tensor<i32>) -> tensor<1xi32>
    %c_207 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_208 = stablehlo.constant dense<256> : tensor<1xi32>
    %735 = stablehlo.concatenate %734, %c_207, %c_208, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %736 = stablehlo.dynamic_broadcast_in_dim %722, %735, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %737 = stablehlo.subtract %716, %736 : tensor<?x1x256xf32>
    %cst_25 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %738 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %739 = stablehlo.reshape %738 : (tensor<i32>) -> tensor<1xi32>
    %c_209 = stablehlo.constant dense<1> : tensor<1xi32>
    %740 = stablehlo.concatenate %739, %c_209, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %741 = stablehlo.dynamic_broadcast_in_dim %cst_25, %740, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %742 = stablehlo.add %732, %741 : tensor<?x1xf32>
    %743 = stablehlo.rsqrt %742 : tensor<?x1xf32>
    %744 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %745 = stablehlo.reshape %744 : (tensor<i32>) -> tensor<1xi32>
    %c_210 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_211 = stablehlo.constant dense<256> : tensor<1xi32>
    %746 = stablehlo.concatenate %745, %c_210, %c_211, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %747 = stablehlo.dynamic_broadcast_in_dim %743, %746, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %748 = stablehlo.reshape %arg62 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %749 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %750 = stablehlo.reshape %749 : (tensor<i32>) -> tensor<1xi32>
    %c_212 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_213 = stablehlo.constant dense<256> : tensor<1xi32>
    %751 = stablehlo.concatenate %750, %c_212, %c_213, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %752 = stablehlo.dynamic_broadcast_in_dim %748, %751, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %753 = stablehlo.multiply %747, %752 : tensor<?x1x256xf32>
    %754 = stablehlo.multiply %737, %753 : tensor<?x1x256xf32>
    %755 = stablehlo.reshape %arg61 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %756 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %757 = stablehlo.reshape %756 : (tensor<i32>) -> tensor<1xi32>
    %c_214 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_215 = stablehlo.constant dense<256> : tensor<1xi32>
    %758 = stablehlo.concatenate %757, %c_214, %c_215, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %759 = stablehlo.dynamic_broadcast_in_dim %755, %758, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %760 = stablehlo.add %754, %759 : tensor<?x1x256xf32>
    %761 = stablehlo.dot_general %760, %arg54, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %762 = stablehlo.reshape %arg53 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %763 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %764 = stablehlo.reshape %763 : (tensor<i32>) -> tensor<1xi32>
    %c_216 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_217 = stablehlo.constant dense<256> : tensor<1xi32>
    %765 = stablehlo.concatenate %764, %c_216, %c_217, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %766 = stablehlo.dynamic_broadcast_in_dim %762, %765, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %767 = stablehlo.add %761, %766 : tensor<?x1x256xf32>
    %768 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %769 = stablehlo.reshape %768 : (tensor<i32>) -> tensor<1xi32>
    %c_218 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_219 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_220 = stablehlo.constant dense<64> : tensor<1xi32>
    %770 = stablehlo.concatenate %769, %c_218, %c_219, %c_220, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %771 = stablehlo.dynamic_reshape %767, %770 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %772 = stablehlo.dot_general %760, %arg50, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %773 = stablehlo.reshape %arg49 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %774 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %775 = stablehlo.reshape %774 : (tensor<i32>) -> tensor<1xi32>
    %c_221 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_222 = stablehlo.constant dense<256> : tensor<1xi32>
    %776 = stablehlo.concatenate %775, %c_221, %c_222, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %777 = stablehlo.dynamic_broadcast_in_dim %773, %776, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %778 = stablehlo.add %772, %777 : tensor<?x1x256xf32>
    %779 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %780 = stablehlo.reshape %779 : (tensor<i32>) -> tensor<1xi32>
    %c_223 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_224 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_225 = stablehlo.constant dense<64> : tensor<1xi32>
    %781 = stablehlo.concatenate %780, %c_223, %c_224, %c_225, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %782 = stablehlo.dynamic_reshape %778, %781 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %783 = stablehlo.dot_general %760, %arg56, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %784 = stablehlo.reshape %arg55 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %785 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %786 = stablehlo.reshape %785 : (tensor<i32>) -> tensor<1xi32>
    %c_226 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_227 = stablehlo.constant dense<256> : tensor<1xi32>
    %787 = stablehlo.concatenate %786, %c_226, %c_227, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %788 = stablehlo.dynamic_broadcast_in_dim %784, %787, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %789 = stablehlo.add %783, %788 : tensor<?x1x256xf32>
    %790 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %791 = stablehlo.reshape %790 : (tensor<i32>) -> tensor<1xi32>
    %c_228 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_229 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_230 = stablehlo.constant dense<64> : tensor<1xi32>
    %792 = stablehlo.concatenate %791, %c_228, %c_229, %c_230, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %793 = stablehlo.dynamic_reshape %789, %792 : (tensor<?x1x256xf32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %c_231 = stablehlo.constant dense<0> : tensor<i32>
    %794 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %795 = stablehlo.reshape %794 : (tensor<i32>) -> tensor<1xi32>
    %796 = stablehlo.concatenate %795, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %797 = stablehlo.dynamic_broadcast_in_dim %c_231, %796, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %798 = stablehlo.compare  LT, %arg79, %797,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_232 = stablehlo.constant dense<256> : tensor<i32>
    %799 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %800 = stablehlo.reshape %799 : (tensor<i32>) -> tensor<1xi32>
    %801 = stablehlo.concatenate %800, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %802 = stablehlo.dynamic_broadcast_in_dim %c_232, %801, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %803 = stablehlo.add %arg79, %802 : tensor<?xi32>
    %804 = stablehlo.select %798, %803, %arg79 : tensor<?xi1>, tensor<?xi32>
    %805 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %806 = stablehlo.reshape %805 : (tensor<i32>) -> tensor<1xi32>
    %c_233 = stablehlo.constant dense<1> : tensor<1xi32>
    %807 = stablehlo.concatenate %806, %c_233, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %808 = stablehlo.dynamic_broadcast_in_dim %804, %807, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %809 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %810 = stablehlo.reshape %809 : (tensor<i32>) -> tensor<1xi32>
    %c_234 = stablehlo.constant dense<1> : tensor<1xi32>
    %811 = stablehlo.concatenate %810, %c_234, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %812 = stablehlo.dynamic_broadcast_in_dim %c_231, %811, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %813 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %814 = stablehlo.reshape %813 : (tensor<i32>) -> tensor<1xi32>
    %c_235 = stablehlo.constant dense<1> : tensor<1xi32>
    %815 = stablehlo.concatenate %814, %c_235, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %816 = stablehlo.dynamic_broadcast_in_dim %c_231, %815, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %817 = stablehlo.concatenate %808, %812, %816, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_236 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_237 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %818 = stablehlo.minimum %c_236, %c_237 : tensor<3xi32>
    %819 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %820 = stablehlo.reshape %819 : (tensor<i32>) -> tensor<1xi32>
    %c_238 = stablehlo.constant dense<3> : tensor<1xi32>
    %821 = stablehlo.concatenate %820, %c_238, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %822 = stablehlo.dynamic_broadcast_in_dim %818, %821, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %823 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %824 = stablehlo.reshape %823 : (tensor<i32>) -> tensor<1xi32>
    %c_239 = stablehlo.constant dense<3> : tensor<1xi32>
    %825 = stablehlo.concatenate %824, %c_239, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %826 = stablehlo.dynamic_broadcast_in_dim %c_231, %825, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %827 = stablehlo.clamp %826, %817, %822 : tensor<?x3xi32>
    %828 = "stablehlo.scatter"(%arg76, %827, %782) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg92: tensor<f32>, %arg93: tensor<f32>):
      stablehlo.return %arg93 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %c_240 = stablehlo.constant dense<0> : tensor<i32>
    %829 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %830 = stablehlo.reshape %829 : (tensor<i32>) -> tensor<1xi32>
    %831 = stablehlo.concatenate %830, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %832 = stablehlo.dynamic_broadcast_in_dim %c_240, %831, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %833 = stablehlo.compare  LT, %arg79, %832,  SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %c_241 = stablehlo.constant dense<256> : tensor<i32>
    %834 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %835 = stablehlo.reshape %834 : (tensor<i32>) -> tensor<1xi32>
    %836 = stablehlo.concatenate %835, dim = 0 : (tensor<1xi32>) -> tensor<1xi32>
    %837 = stablehlo.dynamic_broadcast_in_dim %c_241, %836, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %838 = stablehlo.add %arg79, %837 : tensor<?xi32>
    %839 = stablehlo.select %833, %838, %arg79 : tensor<?xi1>, tensor<?xi32>
    %840 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %841 = stablehlo.reshape %840 : (tensor<i32>) -> tensor<1xi32>
    %c_242 = stablehlo.constant dense<1> : tensor<1xi32>
    %842 = stablehlo.concatenate %841, %c_242, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %843 = stablehlo.dynamic_broadcast_in_dim %839, %842, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
    %844 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %845 = stablehlo.reshape %844 : (tensor<i32>) -> tensor<1xi32>
    %c_243 = stablehlo.constant dense<1> : tensor<1xi32>
    %846 = stablehlo.concatenate %845, %c_243, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %847 = stablehlo.dynamic_broadcast_in_dim %c_240, %846, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %848 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %849 = stablehlo.reshape %848 : (tensor<i32>) -> tensor<1xi32>
    %c_244 = stablehlo.constant dense<1> : tensor<1xi32>
    %850 = stablehlo.concatenate %849, %c_244, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %851 = stablehlo.dynamic_broadcast_in_dim %c_240, %850, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x1xi32>
    %852 = stablehlo.concatenate %843, %847, %851, dim = 1 : (tensor<?x1xi32>, tensor<?x1xi32>, tensor<?x1xi32>) -> tensor<?x3xi32>
    %c_245 = stablehlo.constant dense<[255, 0, 0]> : tensor<3xi32>
    %c_246 = stablehlo.constant dense<2147483647> : tensor<3xi32>
    %853 = stablehlo.minimum %c_245, %c_246 : tensor<3xi32>
    %854 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %855 = stablehlo.reshape %854 : (tensor<i32>) -> tensor<1xi32>
    %c_247 = stablehlo.constant dense<3> : tensor<1xi32>
    %856 = stablehlo.concatenate %855, %c_247, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %857 = stablehlo.dynamic_broadcast_in_dim %853, %856, dims = [1] : (tensor<3xi32>, tensor<2xi32>) -> tensor<?x3xi32>
    %858 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %859 = stablehlo.reshape %858 : (tensor<i32>) -> tensor<1xi32>
    %c_248 = stablehlo.constant dense<3> : tensor<1xi32>
    %860 = stablehlo.concatenate %859, %c_248, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %861 = stablehlo.dynamic_broadcast_in_dim %c_240, %860, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %862 = stablehlo.clamp %861, %852, %857 : tensor<?x3xi32>
    %863 = "stablehlo.scatter"(%arg77, %862, %793) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg94: tensor<f32>, %arg95: tensor<f32>):
      stablehlo.return %arg95 : tensor<f32>
    }) : (tensor<?x256x4x64xf32>, tensor<?x3xi32>, tensor<?x1x4x64xf32>) -> tensor<?x256x4x64xf32>
    %cst_26 = stablehlo.constant dense<1.250000e-01> : tensor<f32>
    %864 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %865 = stablehlo.reshape %864 : (tensor<i32>) -> tensor<1xi32>
    %c_249 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_250 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_251 = stablehlo.constant dense<64> : tensor<1xi32>
    %866 = stablehlo.concatenate %865, %c_249, %c_250, %c_251, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %867 = stablehlo.dynamic_broadcast_in_dim %cst_26, %866, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x1x4x64xf32>
    %868 = stablehlo.multiply %771, %867 : tensor<?x1x4x64xf32>
    %869 = stablehlo.dot_general %868, %828, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<?x1x4x64xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x256xf32>
    %cst_27 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %870 = call @_where_1(%arg0, %29, %869, %cst_27) : (tensor<i64>, tensor<?x4x1x256xi1>, tensor<?x4x1x256xf32>, tensor<f32>) -> tensor<?x4x1x256xf32>
    %871 = call @_softmax_1(%arg0, %870) : (tensor<i64>, tensor<?x4x1x256xf32>) -> tensor<?x4x1x256xf32>
    %872 = stablehlo.dot_general %871, %863, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<?x4x1x256xf32>, tensor<?x256x4x64xf32>) -> tensor<?x4x1x64xf32>
    %873 = stablehlo.transpose %872, dims = [0, 2, 1, 3] : (tensor<?x4x1x64xf32>) -> tensor<?x1x4x64xf32>
    %874 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %875 = stablehlo.reshape %874 : (tensor<i32>) -> tensor<1xi32>
    %c_252 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_253 = stablehlo.constant dense<256> : tensor<1xi32>
    %876 = stablehlo.concatenate %875, %c_252, %c_253, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %877 = stablehlo.dynamic_reshape %873, %876 : (tensor<?x1x4x64xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %878 = stablehlo.dot_general %877, %arg52, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %879 = stablehlo.reshape %arg51 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %880 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %881 = stablehlo.reshape %880 : (tensor<i32>) -> tensor<1xi32>
    %c_254 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_255 = stablehlo.constant dense<256> : tensor<1xi32>
    %882 = stablehlo.concatenate %881, %c_254, %c_255, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %883 = stablehlo.dynamic_broadcast_in_dim %879, %882, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %884 = stablehlo.add %878, %883 : tensor<?x1x256xf32>
    %885 = stablehlo.add %716, %884 : tensor<?x1x256xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %886 = stablehlo.reduce(%885 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_29 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %887 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %888 = stablehlo.reshape %887 : (tensor<i32>) -> tensor<1xi32>
    %c_256 = stablehlo.constant dense<1> : tensor<1xi32>
    %889 = stablehlo.concatenate %888, %c_256, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %890 = stablehlo.dynamic_broadcast_in_dim %cst_29, %889, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %891 = stablehlo.divide %886, %890 : tensor<?x1xf32>
    %892 = stablehlo.multiply %885, %885 : tensor<?x1x256xf32>
    %893 = stablehlo.reduce(%892 init: %cst_28) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %894 = stablehlo.divide %893, %890 : tensor<?x1xf32>
    %895 = stablehlo.multiply %891, %891 : tensor<?x1xf32>
    %896 = stablehlo.subtract %894, %895 : tensor<?x1xf32>
    %897 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %898 = stablehlo.reshape %897 : (tensor<i32>) -> tensor<1xi32>
    %c_257 = stablehlo.constant dense<1> : tensor<1xi32>
    %899 = stablehlo.concatenate %898, %c_257, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %900 = stablehlo.dynamic_broadcast_in_dim %cst_28, %899, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %901 = stablehlo.maximum %900, %896 : tensor<?x1xf32>
    %902 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %903 = stablehlo.reshape %902 : (tensor<i32>) -> tensor<1xi32>
    %c_258 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_259 = stablehlo.constant dense<256> : tensor<1xi32>
    %904 = stablehlo.concatenate %903, %c_258, %c_259, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %905 = stablehlo.dynamic_broadcast_in_dim %891, %904, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %906 = stablehlo.subtract %885, %905 : tensor<?x1x256xf32>
    %cst_30 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %907 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %908 = stablehlo.reshape %907 : (tensor<i32>) -> tensor<1xi32>
    %c_260 = stablehlo.constant dense<1> : tensor<1xi32>
    %909 = stablehlo.concatenate %908, %c_260, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %910 = stablehlo.dynamic_broadcast_in_dim %cst_30, %909, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %911 = stablehlo.add %901, %910 : tensor<?x1xf32>
    %912 = stablehlo.rsqrt %911 : tensor<?x1xf32>
    %913 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %914 = stablehlo.reshape %913 : (tensor<i32>) -> tensor<1xi32>
    %c_261 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_262 = stablehlo.constant dense<256> : tensor<1xi32>
    %915 = stablehlo.concatenate %914, %c_261, %c_262, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %916 = stablehlo.dynamic_broadcast_in_dim %912, %915, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %917 = stablehlo.reshape %arg64 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %918 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %919 = stablehlo.reshape %918 : (tensor<i32>) -> tensor<1xi32>
    %c_263 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_264 = stablehlo.constant dense<256> : tensor<1xi32>
    %920 = stablehlo.concatenate %919, %c_263, %c_264, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %921 = stablehlo.dynamic_broadcast_in_dim %917, %920, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %922 = stablehlo.multiply %916, %921 : tensor<?x1x256xf32>
    %923 = stablehlo.multiply %906, %922 : tensor<?x1x256xf32>
    %924 = stablehlo.reshape %arg63 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %925 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %926 = stablehlo.reshape %925 : (tensor<i32>) -> tensor<1xi32>
    %c_265 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_266 = stablehlo.constant dense<256> : tensor<1xi32>
    %927 = stablehlo.concatenate %926, %c_265, %c_266, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %928 = stablehlo.dynamic_broadcast_in_dim %924, %927, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %929 = stablehlo.add %923, %928 : tensor<?x1x256xf32>
    %930 = stablehlo.dot_general %929, %arg58, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x1024xf32>) -> tensor<?x1x1024xf32>
    %931 = stablehlo.reshape %arg57 : (tensor<1024xf32>) -> tensor<1x1x1024xf32>
    %932 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %933 = stablehlo.reshape %932 : (tensor<i32>) -> tensor<1xi32>
    %c_267 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_268 = stablehlo.constant dense<1024> : tensor<1xi32>
    %934 = stablehlo.concatenate %933, %c_267, %c_268, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %935 = stablehlo.dynamic_broadcast_in_dim %931, %934, dims = [0, 1, 2] : (tensor<1x1x1024xf32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %936 = stablehlo.add %930, %935 : tensor<?x1x1024xf32>
    %937 = call @gelu_1(%arg0, %936) : (tensor<i64>, tensor<?x1x1024xf32>) -> tensor<?x1x1024xf32>
    %938 = stablehlo.dot_general %937, %arg60, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x1024xf32>, tensor<1024x256xf32>) -> tensor<?x1x256xf32>
    %939 = stablehlo.reshape %arg59 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %940 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %941 = stablehlo.reshape %940 : (tensor<i32>) -> tensor<1xi32>
    %c_269 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_270 = stablehlo.constant dense<256> : tensor<1xi32>
    %942 = stablehlo.concatenate %941, %c_269, %c_270, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %943 = stablehlo.dynamic_broadcast_in_dim %939, %942, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %944 = stablehlo.add %938, %943 : tensor<?x1x256xf32>
    %945 = stablehlo.add %885, %944 : tensor<?x1x256xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %946 = stablehlo.reduce(%945 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %cst_32 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %947 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %948 = stablehlo.reshape %947 : (tensor<i32>) -> tensor<1xi32>
    %c_271 = stablehlo.constant dense<1> : tensor<1xi32>
    %949 = stablehlo.concatenate %948, %c_271, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %950 = stablehlo.dynamic_broadcast_in_dim %cst_32, %949, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %951 = stablehlo.divide %946, %950 : tensor<?x1xf32>
    %952 = stablehlo.multiply %945, %945 : tensor<?x1x256xf32>
    %953 = stablehlo.reduce(%952 init: %cst_31) applies stablehlo.add across dimensions = [2] : (tensor<?x1x256xf32>, tensor<f32>) -> tensor<?x1xf32>
    %954 = stablehlo.divide %953, %950 : tensor<?x1xf32>
    %955 = stablehlo.multiply %951, %951 : tensor<?x1xf32>
    %956 = stablehlo.subtract %954, %955 : tensor<?x1xf32>
    %957 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %958 = stablehlo.reshape %957 : (tensor<i32>) -> tensor<1xi32>
    %c_272 = stablehlo.constant dense<1> : tensor<1xi32>
    %959 = stablehlo.concatenate %958, %c_272, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %960 = stablehlo.dynamic_broadcast_in_dim %cst_31, %959, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %961 = stablehlo.maximum %960, %956 : tensor<?x1xf32>
    %962 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %963 = stablehlo.reshape %962 : (tensor<i32>) -> tensor<1xi32>
    %c_273 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_274 = stablehlo.constant dense<256> : tensor<1xi32>
    %964 = stablehlo.concatenate %963, %c_273, %c_274, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %965 = stablehlo.dynamic_broadcast_in_dim %951, %964, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %966 = stablehlo.subtract %945, %965 : tensor<?x1x256xf32>
    %cst_33 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %967 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %968 = stablehlo.reshape %967 : (tensor<i32>) -> tensor<1xi32>
    %c_275 = stablehlo.constant dense<1> : tensor<1xi32>
    %969 = stablehlo.concatenate %968, %c_275, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %970 = stablehlo.dynamic_broadcast_in_dim %cst_33, %969, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %971 = stablehlo.add %961, %970 : tensor<?x1xf32>
    %972 = stablehlo.rsqrt %971 : tensor<?x1xf32>
    %973 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %974 = stablehlo.reshape %973 : (tensor<i32>) -> tensor<1xi32>
    %c_276 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_277 = stablehlo.constant dense<256> : tensor<1xi32>
    %975 = stablehlo.concatenate %974, %c_276, %c_277, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %976 = stablehlo.dynamic_broadcast_in_dim %972, %975, dims = [0, 1] : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %977 = stablehlo.reshape %arg68 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %978 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %979 = stablehlo.reshape %978 : (tensor<i32>) -> tensor<1xi32>
    %c_278 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_279 = stablehlo.constant dense<256> : tensor<1xi32>
    %980 = stablehlo.concatenate %979, %c_278, %c_279, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %981 = stablehlo.dynamic_broadcast_in_dim %977, %980, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %982 = stablehlo.multiply %976, %981 : tensor<?x1x256xf32>
    %983 = stablehlo.multiply %966, %982 : tensor<?x1x256xf32>
    %984 = stablehlo.reshape %arg67 : (tensor<256xf32>) -> tensor<1x1x256xf32>
    %985 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %986 = stablehlo.reshape %985 : (tensor<i32>) -> tensor<1xi32>
    %c_280 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_281 = stablehlo.constant dense<256> : tensor<1xi32>
    %987 = stablehlo.concatenate %986, %c_280, %c_281, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %988 = stablehlo.dynamic_broadcast_in_dim %984, %987, dims = [0, 1, 2] : (tensor<1x1x256xf32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %989 = stablehlo.add %983, %988 : tensor<?x1x256xf32>
    %990 = stablehlo.dot_general %989, %arg66, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<?x1x256xf32>, tensor<256x256xf32>) -> tensor<?x1x256xf32>
    %991 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %992 = stablehlo.reshape %991 : (tensor<i32>) -> tensor<1xi32>
    %c_282 = stablehlo.constant dense<256> : tensor<1xi32>
    %993 = stablehlo.concatenate %992, %c_282, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %994 = stablehlo.dynamic_reshape %990, %993 : (tensor<?x1x256xf32>, tensor<2xi32>) -> tensor<?x256xf32>
    return %994, %141, %176, %370, %405, %599, %634, %828, %863 : tensor<?x256xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>, tensor<?x256x4x64xf32>
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
  func.func private @take_along_axis(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<?x?x256xf32>, %arg3: tensor<?x1x1xi32>) -> tensor<?x1x256xf32> {
    %0 = stablehlo.convert %arg3 : (tensor<?x1x1xi32>) -> tensor<?x1x1xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %c, %3, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %5 = stablehlo.compare  LT, %0, %4,  SIGNED : (tensor<?x1x1xi64>, tensor<?x1x1xi64>) -> tensor<?x1x1xi1>
    %6 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %7 = stablehlo.reshape %6 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %8 = stablehlo.concatenate %7, %c_2, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %9 = stablehlo.dynamic_broadcast_in_dim %arg1, %8, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %10 = stablehlo.add %0, %9 : tensor<?x1x1xi64>
    %11 = stablehlo.select %5, %10, %0 : tensor<?x1x1xi1>, tensor<?x1x1xi64>
    %12 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %13 = stablehlo.reshape %12 : (tensor<i32>) -> tensor<1xi32>
    %c_4 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c_4, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %c, %14, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %16 = stablehlo.compare  GE, %11, %15,  SIGNED : (tensor<?x1x1xi64>, tensor<?x1x1xi64>) -> tensor<?x1x1xi1>
    %c_6 = stablehlo.constant dense<1> : tensor<i64>
    %17 = stablehlo.subtract %arg1, %c_6 : tensor<i64>
    %18 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %c_7 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_8 = stablehlo.constant dense<1> : tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_7, %c_8, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %17, %20, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %22 = stablehlo.compare  LE, %11, %21,  SIGNED : (tensor<?x1x1xi64>, tensor<?x1x1xi64>) -> tensor<?x1x1xi1>
    %23 = stablehlo.and %16, %22 : tensor<?x1x1xi1>
    %c_9 = stablehlo.constant dense<true> : tensor<i1>
    %24 = stablehlo.reduce(%23 init: %c_9) applies stablehlo.and across dimensions = [2] : (tensor<?x1x1xi1>, tensor<i1>) -> tensor<?x1xi1>
    %25 = "stablehlo.gather"(%arg2, %11) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 256>}> : (tensor<?x?x256xf32>, tensor<?x1x1xi64>) -> tensor<?x1x256xf32>
    %26 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %27 = stablehlo.reshape %26 : (tensor<i32>) -> tensor<1xi32>
    %c_10 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_11 = stablehlo.constant dense<256> : tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c_10, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %24, %28, dims = [0, 1] : (tensor<?x1xi1>, tensor<3xi32>) -> tensor<?x1x256xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %30 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %31 = stablehlo.reshape %30 : (tensor<i32>) -> tensor<1xi32>
    %c_12 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_13 = stablehlo.constant dense<256> : tensor<1xi32>
    %32 = stablehlo.concatenate %31, %c_12, %c_13, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %cst, %32, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %34 = stablehlo.select %29, %25, %33 : tensor<?x1x256xi1>, tensor<?x1x256xf32>
    return %34 : tensor<?x1x256xf32>
  }
  func.func private @_take_1(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<256x256xf32>, %arg2: tensor<?x1xi32>) -> tensor<?x1x256xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<?x1xi32>) -> tensor<?x1xi64>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_reshape %0, %3 : (tensor<?x1xi64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_2, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %c_1, %7, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %9 = stablehlo.compare  GE, %4, %8,  SIGNED : (tensor<?x1x1xi64>, tensor<?x1x1xi64>) -> tensor<?x1x1xi1>
    %c_4 = stablehlo.constant dense<255> : tensor<i64>
    %10 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %11 = stablehlo.reshape %10 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<1> : tensor<1xi32>
    %12 = stablehlo.concatenate %11, %c_5, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %c_4, %12, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %14 = stablehlo.compare  LE, %4, %13,  SIGNED : (tensor<?x1x1xi64>, tensor<?x1x1xi64>) -> tensor<?x1x1xi1>
    %15 = stablehlo.and %9, %14 : tensor<?x1x1xi1>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %16 = stablehlo.reduce(%15 init: %c_7) applies stablehlo.and across dimensions = [2] : (tensor<?x1x1xi1>, tensor<i1>) -> tensor<?x1xi1>
    %17 = "stablehlo.gather"(%arg1, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<256x256xf32>, tensor<?x1x1xi64>) -> tensor<?x1x256xf32>
    %18 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %c_8 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_9 = stablehlo.constant dense<256> : tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_8, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %16, %20, dims = [0, 1] : (tensor<?x1xi1>, tensor<3xi32>) -> tensor<?x1x256xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %22 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %23 = stablehlo.reshape %22 : (tensor<i32>) -> tensor<1xi32>
    %c_10 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_11 = stablehlo.constant dense<256> : tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_10, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %cst, %24, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %26 = stablehlo.select %21, %17, %25 : tensor<?x1x256xi1>, tensor<?x1x256xf32>
    return %26 : tensor<?x1x256xf32>
  }
  func.func private @_take_2(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<256x256xf32>, %arg2: tensor<?x1xi32>) -> tensor<?x1x256xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<?x1xi32>) -> tensor<?x1xi64>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_reshape %0, %3 : (tensor<?x1xi64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_2, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %c_1, %7, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %9 = stablehlo.compare  GE, %4, %8,  SIGNED : (tensor<?x1x1xi64>, tensor<?x1x1xi64>) -> tensor<?x1x1xi1>
    %c_4 = stablehlo.constant dense<255> : tensor<i64>
    %10 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %11 = stablehlo.reshape %10 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<1> : tensor<1xi32>
    %12 = stablehlo.concatenate %11, %c_5, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %c_4, %12, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x1x1xi64>
    %14 = stablehlo.compare  LE, %4, %13,  SIGNED : (tensor<?x1x1xi64>, tensor<?x1x1xi64>) -> tensor<?x1x1xi1>
    %15 = stablehlo.and %9, %14 : tensor<?x1x1xi1>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %16 = stablehlo.reduce(%15 init: %c_7) applies stablehlo.and across dimensions = [2] : (tensor<?x1x1xi1>, tensor<i1>) -> tensor<?x1xi1>
    %17 = "stablehlo.gather"(%arg1, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<256x256xf32>, tensor<?x1x1xi64>) -> tensor<?x1x256xf32>
    %18 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %c_8 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_9 = stablehlo.constant dense<256> : tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_8, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %16, %20, dims = [0, 1] : (tensor<?x1xi1>, tensor<3xi32>) -> tensor<?x1x256xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %22 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %23 = stablehlo.reshape %22 : (tensor<i32>) -> tensor<1xi32>
    %c_10 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_11 = stablehlo.constant dense<256> : tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_10, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %cst, %24, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x1x256xf32>
    %26 = stablehlo.select %21, %17, %25 : tensor<?x1x256xi1>, tensor<?x1x256xf32>
    return %26 : tensor<?x1x256xf32>
  }
  func.func private @_where_1(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x4x1x256xi1>, %arg2: tensor<?x4x1x256xf32>, %arg3: tensor<f32>) -> tensor<?x4x1x256xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<256> : tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %arg3, %2, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x4x1x256xf32>
    %4 = stablehlo.select %arg1, %arg2, %3 : tensor<?x4x1x256xi1>, tensor<?x4x1x256xf32>
    return %4 : tensor<?x4x1x256xf32>
  }
  func.func private @_softmax_1(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x4x1x256xf32>) -> tensor<?x4x1x256xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.maximum across dimensions = [3] : (tensor<?x4x1x256xf32>, tensor<f32>) -> tensor<?x4x1xf32>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<256> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c, %c_0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %0, %3, dims = [0, 1, 2] : (tensor<?x4x1xf32>, tensor<4xi32>) -> tensor<?x4x1x256xf32>
    %5 = stablehlo.subtract %arg1, %4 : tensor<?x4x1x256xf32>
    %6 = stablehlo.exponential %5 : tensor<?x4x1x256xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.add across dimensions = [3] : (tensor<?x4x1x256xf32>, tensor<f32>) -> tensor<?x4x1xf32>
    %8 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %9 = stablehlo.reshape %8 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<256> : tensor<1xi32>
    %10 = stablehlo.concatenate %9, %c_2, %c_3, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %7, %10, dims = [0, 1, 2] : (tensor<?x4x1xf32>, tensor<4xi32>) -> tensor<?x4x1x256xf32>
    %12 = stablehlo.divide %6, %11 : tensor<?x4x1x256xf32>
    return %12 : tensor<?x4x1x256xf32>
  }
  func.func private @gelu_1(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x1x1024xf32>) -> tensor<?x1x1024xf32> {
    %0 = call @integer_pow_1(%arg0, %arg1) : (tensor<i64>, tensor<?x1x1024xf32>) -> tensor<?x1x1024xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1024> : tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %cst, %3, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %5 = stablehlo.multiply %4, %0 : tensor<?x1x1024xf32>
    %6 = stablehlo.add %arg1, %5 : tensor<?x1x1024xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %7 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %8 = stablehlo.reshape %7 : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<1024> : tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_1, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %cst_0, %9, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %11 = stablehlo.multiply %10, %6 : tensor<?x1x1024xf32>
    %12 = stablehlo.tanh %11 : tensor<?x1x1024xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %14 = stablehlo.reshape %13 : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<1024> : tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_3, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %cst_1, %15, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %17 = stablehlo.add %16, %12 : tensor<?x1x1024xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %18 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<1024> : tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c_5, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %cst_2, %20, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x1x1024xf32>
    %22 = stablehlo.multiply %21, %17 : tensor<?x1x1024xf32>
    %23 = stablehlo.multiply %arg1, %22 : tensor<?x1x1024xf32>
    return %23 : tensor<?x1x1024xf32>
  }
  func.func private @integer_pow_1(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<?x1x1024xf32>) -> tensor<?x1x1024xf32> {
    %0 = stablehlo.multiply %arg1, %arg1 : tensor<?x1x1024xf32>
    %1 = stablehlo.multiply %arg1, %0 : tensor<?x1x1024xf32>
    return %1 : tensor<?x1x1024xf32>
  }
  func.func private @_take_3(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<256x256xf32>, %arg3: tensor<?x?xi32>) -> tensor<?x?x256xf32> {
    %0 = stablehlo.convert %arg3 : (tensor<?x?xi32>) -> tensor<?x?xi64>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %4 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %5 = stablehlo.concatenate %2, %4, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_reshape %0, %5 : (tensor<?x?xi64>, tensor<3xi32>) -> tensor<?x?x1xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %8 = stablehlo.reshape %7 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %10 = stablehlo.reshape %9 : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %11 = stablehlo.concatenate %8, %10, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %12 = stablehlo.dynamic_broadcast_in_dim %c_0, %11, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x?x1xi64>
    %13 = stablehlo.compare  GE, %6, %12,  SIGNED : (tensor<?x?x1xi64>, tensor<?x?x1xi64>) -> tensor<?x?x1xi1>
    %c_2 = stablehlo.constant dense<255> : tensor<i64>
    %14 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %15 = stablehlo.reshape %14 : (tensor<i32>) -> tensor<1xi32>
    %16 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %17 = stablehlo.reshape %16 : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %18 = stablehlo.concatenate %15, %17, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %19 = stablehlo.dynamic_broadcast_in_dim %c_2, %18, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<?x?x1xi64>
    %20 = stablehlo.compare  LE, %6, %19,  SIGNED : (tensor<?x?x1xi64>, tensor<?x?x1xi64>) -> tensor<?x?x1xi1>
    %21 = stablehlo.and %13, %20 : tensor<?x?x1xi1>
    %c_4 = stablehlo.constant dense<true> : tensor<i1>
    %22 = stablehlo.reduce(%21 init: %c_4) applies stablehlo.and across dimensions = [2] : (tensor<?x?x1xi1>, tensor<i1>) -> tensor<?x?xi1>
    %23 = "stablehlo.gather"(%arg2, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<256x256xf32>, tensor<?x?x1xi64>) -> tensor<?x?x256xf32>
    %24 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %25 = stablehlo.reshape %24 : (tensor<i32>) -> tensor<1xi32>
    %26 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %27 = stablehlo.reshape %26 : (tensor<i32>) -> tensor<1xi32>
    %c_5 = stablehlo.constant dense<256> : tensor<1xi32>
    %28 = stablehlo.concatenate %25, %27, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %22, %28, dims = [0, 1] : (tensor<?x?xi1>, tensor<3xi32>) -> tensor<?x?x256xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %30 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %31 = stablehlo.reshape %30 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %33 = stablehlo.reshape %32 : (tensor<i32>) -> tensor<1xi32>
    %c_6 = stablehlo.constant dense<256> : tensor<1xi32>
    %34 = stablehlo.concatenate %31, %33, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %35 = stablehlo.dynamic_broadcast_in_dim %cst, %34, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x?x256xf32>
    %36 = stablehlo.select %29, %23, %35 : tensor<?x?x256xi1>, tensor<?x?x256xf32>
    return %36 : tensor<?x?x256xf32>
  }
  func.func private @_take_4(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<256x256xf32>, %arg3: tensor<1x?xi32>) -> tensor<1x?x256xf32> {
    %0 = stablehlo.convert %arg3 : (tensor<1x?xi32>) -> tensor<1x?xi64>
    %c = stablehlo.constant dense<1> : tensor<1xi32>
    %1 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<1xi32>
    %3 = stablehlo.concatenate %c, %2, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %4 = stablehlo.dynamic_reshape %0, %3 : (tensor<1x?xi64>, tensor<3xi32>) -> tensor<1x?x1xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %c_2 = stablehlo.constant dense<1> : tensor<1xi32>
    %5 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %7 = stablehlo.concatenate %c_2, %6, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %c_1, %7, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<1x?x1xi64>
    %9 = stablehlo.compare  GE, %4, %8,  SIGNED : (tensor<1x?x1xi64>, tensor<1x?x1xi64>) -> tensor<1x?x1xi1>
    %c_4 = stablehlo.constant dense<255> : tensor<i64>
    %c_5 = stablehlo.constant dense<1> : tensor<1xi32>
    %10 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %11 = stablehlo.reshape %10 : (tensor<i32>) -> tensor<1xi32>
    %c_6 = stablehlo.constant dense<1> : tensor<1xi32>
    %12 = stablehlo.concatenate %c_5, %11, %c_6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %c_4, %12, dims = [] : (tensor<i64>, tensor<3xi32>) -> tensor<1x?x1xi64>
    %14 = stablehlo.compare  LE, %4, %13,  SIGNED : (tensor<1x?x1xi64>, tensor<1x?x1xi64>) -> tensor<1x?x1xi1>
    %15 = stablehlo.and %9, %14 : tensor<1x?x1xi1>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %16 = stablehlo.reduce(%15 init: %c_7) applies stablehlo.and across dimensions = [2] : (tensor<1x?x1xi1>, tensor<i1>) -> tensor<1x?xi1>
    %17 = "stablehlo.gather"(%arg2, %4) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 256>}> : (tensor<256x256xf32>, tensor<1x?x1xi64>) -> tensor<1x?x256xf32>
    %c_8 = stablehlo.constant dense<1> : tensor<1xi32>
    %18 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %c_9 = stablehlo.constant dense<256> : tensor<1xi32>
    %20 = stablehlo.concatenate %c_8, %19, %c_9, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %16, %20, dims = [0, 1] : (tensor<1x?xi1>, tensor<3xi32>) -> tensor<1x?x256xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c_10 = stablehlo.constant dense<1> : tensor<1xi32>
    %22 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %23 = stablehlo.reshape %22 : (tensor<i32>) -> tensor<1xi32>
    %c_11 = stablehlo.constant dense<256> : tensor<1xi32>
    %24 = stablehlo.concatenate %c_10, %23, %c_11, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %cst, %24, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<1x?x256xf32>
    %26 = stablehlo.select %21, %17, %25 : tensor<1x?x256xi1>, tensor<1x?x256xf32>
    return %26 : tensor<1x?x256xf32>
  }
  func.func private @_where_2(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<?x4x?x?xi1>, %arg3: tensor<?x4x?x?xf32>, %arg4: tensor<f32>) -> tensor<?x4x?x?xf32> {
    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %2 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %3 = stablehlo.reshape %2 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %5 = stablehlo.reshape %4 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %1, %c, %3, %5, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %arg4, %6, dims = [] : (tensor<f32>, tensor<4xi32>) -> tensor<?x4x?x?xf32>
    %8 = stablehlo.select %arg2, %arg3, %7 : tensor<?x4x?x?xi1>, tensor<?x4x?x?xf32>
    return %8 : tensor<?x4x?x?xf32>
  }
  func.func private @_softmax_2(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg2 init: %cst) applies stablehlo.maximum across dimensions = [3] : (tensor<?x4x?x?xf32>, tensor<f32>) -> tensor<?x4x?xf32>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %3 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %4 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %6 = stablehlo.reshape %5 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %2, %c, %4, %6, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %0, %7, dims = [0, 1, 2] : (tensor<?x4x?xf32>, tensor<4xi32>) -> tensor<?x4x?x?xf32>
    %9 = stablehlo.subtract %arg2, %8 : tensor<?x4x?x?xf32>
    %10 = stablehlo.exponential %9 : tensor<?x4x?x?xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_0) applies stablehlo.add across dimensions = [3] : (tensor<?x4x?x?xf32>, tensor<f32>) -> tensor<?x4x?xf32>
    %12 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %13 = stablehlo.reshape %12 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<4> : tensor<1xi32>
    %14 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %15 = stablehlo.reshape %14 : (tensor<i32>) -> tensor<1xi32>
    %16 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %17 = stablehlo.reshape %16 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %13, %c_0, %15, %17, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<4xi32>
    %19 = stablehlo.dynamic_broadcast_in_dim %11, %18, dims = [0, 1, 2] : (tensor<?x4x?xf32>, tensor<4xi32>) -> tensor<?x4x?x?xf32>
    %20 = stablehlo.divide %10, %19 : tensor<?x4x?x?xf32>
    return %20 : tensor<?x4x?x?xf32>
  }
  func.func private @gelu_2(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32> {
    %0 = call @integer_pow_2(%arg0, %arg1, %arg2) : (tensor<i64>, tensor<i64>, tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32>
    %cst = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %1 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %4 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<1024> : tensor<1xi32>
    %5 = stablehlo.concatenate %2, %4, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %7 = stablehlo.multiply %6, %0 : tensor<?x?x1024xf32>
    %8 = stablehlo.add %arg2, %7 : tensor<?x?x1024xf32>
    %cst_0 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %9 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %10 = stablehlo.reshape %9 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %12 = stablehlo.reshape %11 : (tensor<i32>) -> tensor<1xi32>
    %c_0 = stablehlo.constant dense<1024> : tensor<1xi32>
    %13 = stablehlo.concatenate %10, %12, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %14 = stablehlo.dynamic_broadcast_in_dim %cst_0, %13, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %15 = stablehlo.multiply %14, %8 : tensor<?x?x1024xf32>
    %16 = stablehlo.tanh %15 : tensor<?x?x1024xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %18 = stablehlo.reshape %17 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %20 = stablehlo.reshape %19 : (tensor<i32>) -> tensor<1xi32>
    %c_1 = stablehlo.constant dense<1024> : tensor<1xi32>
    %21 = stablehlo.concatenate %18, %20, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %22 = stablehlo.dynamic_broadcast_in_dim %cst_1, %21, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %23 = stablehlo.add %22, %16 : tensor<?x?x1024xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %24 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>
    %25 = stablehlo.reshape %24 : (tensor<i32>) -> tensor<1xi32>
    %26 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %27 = stablehlo.reshape %26 : (tensor<i32>) -> tensor<1xi32>
    %c_2 = stablehlo.constant dense<1024> : tensor<1xi32>
    %28 = stablehlo.concatenate %25, %27, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %cst_2, %28, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x?x1024xf32>
    %30 = stablehlo.multiply %29, %23 : tensor<?x?x1024xf32>
    %31 = stablehlo.multiply %arg2, %30 : tensor<?x?x1024xf32>
    return %31 : tensor<?x?x1024xf32>
  }
  func.func private @integer_pow_2(%arg0: tensor<i64> {jax.global_constant = "b"}, %arg1: tensor<i64> {jax.global_constant = "t"}, %arg2: tensor<?x?x1024xf32>) -> tensor<?x?x1024xf32> {
    %0 = stablehlo.multiply %arg2, %arg2 : tensor<?x?x1024xf32>
    %1 = stablehlo.multiply %arg2, %0 : tensor<?x?x1024xf32>
    return %1 : tensor<?x?x1024xf32>
  }
}

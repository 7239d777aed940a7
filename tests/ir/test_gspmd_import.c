/* JAX's pre-Shardy (GSPMD) form read into the native one (src/ir/gspmd_*.c): @Sharding custom
 * calls dropped, manual regions between SPMDFullToShardShape and SPMDShardToFullShape as
 * sdy.manual_computation on a mesh of prime-factor axes that expresses their HloSharding strings
 * (V1 device lists, V2 iota with a transpose, last_tile_dim_replicate, JAX's P('y', 'x') on 8
 * devices, a mesh whose factors must be reordered), a constant shared by a body and outside code, independent regions, and every
 * malformed form an error naming the op and file, never a crash. The imported modules run on one
 * device and as device code (one thread per device) against values computed here. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "ir/ir.h"
#include "test.h"
#include "module_text.h"

/* ---------------------------------------------------------------------------------------------- */
/* Running                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* An f32 tensor of `shape` holding 0, 1, 2, ... times `scale`. */
static hr_tensor *counting(const hr_shape *shape, float scale) {
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, shape, 0, &t));
  int64_t n = 1;
  for (int d = 0; d < shape->rank; d++) n *= shape->dims[d];
  for (int64_t i = 0; t && i < n; i++) ((float *)t->data)[i] = (float)i * scale;
  return t;
}

/* Output k of `how` holds want[k] (n[k] floats). */
static void check_outputs(const char *how, hr_tensor **out, int n_out, const float *const *want, const int *n, int n_want) {
  CHECK_EQ_INT(n_out, n_want);
  for (int k = 0; k < n_out && k < n_want; k++)
    for (int i = 0; i < n[k]; i++)
      if (((const float *)out[k]->data)[i] != want[k][i]) {
        fprintf(stderr, "%s: output %d element %d is %g, expected %g\n", how, k, i, ((const float *)out[k]->data)[i],
                want[k][i]);
        test_failures_++;
        break;
      }
}

/* @main of `text` run on `inputs` on one device (the manual computations expanded over the devices)
 * and as device code (a thread per device) gives want[k] (n[k] floats) as output k. */
static void check_runs(const char *text, hr_tensor *const *inputs, int n_in, const float *const *want, const int *n,
                       int n_want) {
  hr_module *m = NULL;
  hr_program *p = NULL;
  hr_tensor **out = NULL;
  int n_out = 0;
  hr_exec_options opts = {.num_threads = 1};
  CHECK_OK(hr_module_parse("t.mlir", text, strlen(text), NULL, &m));
  if (m) CHECK_OK(hr_program_create(m, "main", NULL, &opts, &p));
  if (p) CHECK_OK(hr_program_run(p, inputs, n_in, &out, &n_out));
  check_outputs("one device", out, n_out, want, n, n_want);
  hr_tensors_free(out, n_out);
  hr_program_free(p);

  hr_spmd *s = NULL;
  out = NULL;
  n_out = 0;
  m = NULL;
  CHECK_OK(hr_module_parse("t.mlir", text, strlen(text), NULL, &m));
  if (m) CHECK_OK(hr_spmd_create(m, "main", NULL, &opts, &s));
  if (s) CHECK_OK(hr_spmd_run(s, inputs, n_in, &out, &n_out));
  check_outputs("device code", out, n_out, want, n, n_want);
  hr_tensors_free(out, n_out);
  hr_spmd_free(s);
}

/* ---------------------------------------------------------------------------------------------- */
/* Accepted forms                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* One shard_map over 4 devices with two operands and two results, each sharded differently:
 *   %x 4x8, dim 1 cut over all devices (V1 list);
 *   %y 4x4, dim 0 cut in two over the devices 0,2 | 1,3, each piece on two (last_tile_dim_replicate);
 *   result 0 4x4, cut 2x2 with devices [[0,2],[1,3]] (V2 iota <=[2,2]T(1,0));
 *   result 1 2x4, replicated (an all_reduce over the devices).
 * Device d holds x[:, 2d:2d+2] and y[2b:2b+2, :] (b = d % 2), and computes
 *   r0 = x piece rows 0..1 + y piece cols 0..1 + d,  r1 = sum over the devices of the y pieces. */
static const char two_by_two[] =
    "module @m attributes {mhlo.num_partitions = 4 : i32} {\n"
    "  func.func public @main(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>) {\n"
    "    %sx = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{devices=[1,4]0,1,2,3}\"} : (tensor<4x8xf32>) -> tensor<4x8xf32>\n"
    "    %lx = stablehlo.custom_call @SPMDFullToShardShape(%sx) {mhlo.sharding = \"{manual}\"} : (tensor<4x8xf32>) -> tensor<4x2xf32>\n"
    "    %sy = stablehlo.custom_call @Sharding(%y) {mhlo.sharding = \"{devices=[2,1,2]0,2,1,3 last_tile_dim_replicate}\"} : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
    "    %ly = stablehlo.custom_call @SPMDFullToShardShape(%sy) {mhlo.sharding = \"{manual}\"} : (tensor<4x4xf32>) -> tensor<2x4xf32>\n"
    "    %a = stablehlo.slice %lx [0:2, 0:2] : (tensor<4x2xf32>) -> tensor<2x2xf32>\n"
    "    %b = stablehlo.slice %ly [0:2, 0:2] : (tensor<2x4xf32>) -> tensor<2x2xf32>\n"
    "    %p = stablehlo.partition_id : tensor<ui32>\n"
    "    %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>\n"
    "    %pb = stablehlo.broadcast_in_dim %pf, dims = [] : (tensor<f32>) -> tensor<2x2xf32>\n"
    "    %ab = stablehlo.add %a, %b : tensor<2x2xf32>\n"
    "    %r0 = stablehlo.add %ab, %pb : tensor<2x2xf32>\n"
    "    %r1 = \"stablehlo.all_reduce\"(%ly) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
    "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({\n"
    "    ^bb0(%u: tensor<f32>, %v: tensor<f32>):\n"
    "      %w = stablehlo.add %u, %v : tensor<f32>\n"
    "      stablehlo.return %w : tensor<f32>\n"
    "    }) : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
    "    %m0 = stablehlo.custom_call @Sharding(%r0) {mhlo.sharding = \"{manual}\"} : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
    "    %g0 = stablehlo.custom_call @SPMDShardToFullShape(%m0) {mhlo.sharding = \"{devices=[2,2]<=[2,2]T(1,0)}\"} : (tensor<2x2xf32>) -> tensor<4x4xf32>\n"
    "    %m1 = stablehlo.custom_call @Sharding(%r1) {mhlo.sharding = \"{manual}\"} : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
    "    %g1 = stablehlo.custom_call @SPMDShardToFullShape(%m1) {mhlo.sharding = \"{replicated}\"} : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
    "    return %g0, %g1 : tensor<4x4xf32>, tensor<2x4xf32>\n"
    "  }\n"
    "}\n";

TEST(two_operands_two_results) {
  const char *out = read_and_print(two_by_two);
  CHECK_STR_CONTAINS(out, "  sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n");
  CHECK_STR_CONTAINS(out, "sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{}, {\"a\", \"b\"}]>, "
                          "<@mesh, [{\"b\"}, {}]>] out_shardings=[<@mesh, [{\"b\"}, {\"a\"}]>, <@mesh, [{}, {}]>] "
                          "manual_axes={\"a\", \"b\"} (%arg2: tensor<4x2xf32>, %arg3: tensor<2x4xf32>) {\n");
  CHECK(!strstr(out, "custom_call"));
  /* The native form reads back to itself. */
  char first[sizeof printed];
  memcpy(first, out, sizeof first);
  CHECK(strcmp(read_and_print(first), first) == 0);

  hr_shape sx = {2, {4, 8}}, sy = {2, {4, 4}};
  hr_tensor *in[2] = {counting(&sx, 1), counting(&sy, 100)};
  float r0[16], r1[8];
  for (int d = 0; d < 4; d++) /* device d = 2a + b holds block (b, a) of r0 */
    for (int r = 0; r < 2; r++)
      for (int c = 0; c < 2; c++) {
        int b = d % 2, a = d / 2;
        r0[(2 * b + r) * 4 + 2 * a + c] = (float)(r * 8 + 2 * d + c) + (float)(100 * ((2 * b + r) * 4 + c)) + (float)d;
      }
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 4; c++) r1[r * 4 + c] = 2.0f * (float)(100 * (r * 4 + c) + 100 * ((2 + r) * 4 + c));
  const float *want[2] = {r0, r1};
  int n[2] = {16, 8};
  if (in[0] && in[1]) check_runs(two_by_two, in, 2, want, n, 2);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
}

/* Two independent regions over 2 devices (no mhlo.num_partitions: it comes from the shardings)
 * reading one constant, which outside code reads too: each region gets a clone, the original
 * stays. The first region adds the constant to its piece, the second doubles it (a constant read
 * only there moves in). */
static const char shared_constant[] =
    "module @m {\n"
    "  func.func public @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {\n"
    "    %c = stablehlo.constant dense<10.0> : tensor<2xf32>\n"
    "    %two = stablehlo.constant dense<2.0> : tensor<2xf32>\n"
    "    %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{devices=[2]<=[2]}\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
    "    %l = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<4xf32>) -> tensor<2xf32>\n"
    "    %a = stablehlo.add %l, %c : tensor<2xf32>\n"
    "    %g = stablehlo.custom_call @SPMDShardToFullShape(%a) {mhlo.sharding = \"{devices=[2]0,1}\"} : (tensor<2xf32>) -> tensor<4xf32>\n"
    "    %l2 = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<4xf32>) -> tensor<2xf32>\n"
    "    %m = stablehlo.multiply %l2, %two : tensor<2xf32>\n"
    "    %n = stablehlo.add %m, %c : tensor<2xf32>\n"
    "    %g2 = stablehlo.custom_call @SPMDShardToFullShape(%n) {mhlo.sharding = \"{devices=[2]0,1}\"} : (tensor<2xf32>) -> tensor<4xf32>\n"
    "    %o = stablehlo.concatenate %c, %c, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>\n"
    "    return %g, %g2, %o : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>\n"
    "  }\n"
    "}\n";

TEST(shared_constant_and_two_regions) {
  const char *out = read_and_print(shared_constant);
  static const char want[] =
      "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
      "  sdy.mesh @mesh = <[\"a\"=2]>\n"
      "  func.func public @main(%arg0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {\n"
      "    %cst = stablehlo.constant dense<1.000000e+01> : tensor<2xf32>\n"
      "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}]>] out_shardings=[<@mesh, [{\"a\"}]>] manual_axes={\"a\"} (%arg1: tensor<2xf32>) {\n"
      "      %cst_0 = stablehlo.constant dense<1.000000e+01> : tensor<2xf32>\n"
      "      %3 = stablehlo.add %arg1, %cst_0 : tensor<2xf32>\n"
      "      sdy.return %3 : tensor<2xf32>\n"
      "    } : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %1 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}]>] out_shardings=[<@mesh, [{\"a\"}]>] manual_axes={\"a\"} (%arg1: tensor<2xf32>) {\n"
      "      %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<2xf32>\n"
      "      %3 = stablehlo.multiply %arg1, %cst_0 : tensor<2xf32>\n"
      "      %cst_1 = stablehlo.constant dense<1.000000e+01> : tensor<2xf32>\n"
      "      %4 = stablehlo.add %3, %cst_1 : tensor<2xf32>\n"
      "      sdy.return %4 : tensor<2xf32>\n"
      "    } : (tensor<4xf32>) -> tensor<4xf32>\n"
      "    %2 = stablehlo.concatenate %cst, %cst, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>\n"
      "    return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>\n"
      "  }\n"
      "}\n";
  if (strcmp(out, want) != 0) {
    fprintf(stderr, "got:\n%s\nwant:\n%s\n", out, want);
    test_failures_++;
  }
  hr_shape s = {1, {4}};
  hr_tensor *x = counting(&s, 1);
  const float g[4] = {10, 11, 12, 13}, g2[4] = {10, 12, 14, 16}, o[4] = {10, 10, 10, 10};
  const float *values[3] = {g, g2, o};
  int n[3] = {4, 4, 4};
  if (x) check_runs(shared_constant, &x, 1, values, n, 3);
  hr_tensor_free(x);
}

/* JAX's P('y', 'x') on a mesh x=2, y=4 (device 4x + y): tile (i, j) of an 8x4 value is on device
 * 4j + i, `<=[2,4]T(1,0)`; on the mesh of axes 2, 2, 2 (strides 4, 2, 1) dimension 0 is cut by
 * "b", "c" and dimension 1 by "a". Each device adds its partition id to its piece. */
TEST(eight_devices_transposed) {
  const char *text =
      "module @m attributes {mhlo.num_partitions = 8 : i32} {\n"
      "  func.func public @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {\n"
      "    %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{devices=[4,2]<=[2,4]T(1,0)}\"} : (tensor<8x4xf32>) -> tensor<8x4xf32>\n"
      "    %l = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<8x4xf32>) -> tensor<2x2xf32>\n"
      "    %p = stablehlo.partition_id : tensor<ui32>\n"
      "    %pf = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>\n"
      "    %pb = stablehlo.broadcast_in_dim %pf, dims = [] : (tensor<f32>) -> tensor<2x2xf32>\n"
      "    %r = stablehlo.add %l, %pb : tensor<2x2xf32>\n"
      "    %g = stablehlo.custom_call @SPMDShardToFullShape(%r) {mhlo.sharding = \"{devices=[4,2]<=[2,4]T(1,0)}\"} : (tensor<2x2xf32>) -> tensor<8x4xf32>\n"
      "    return %g : tensor<8x4xf32>\n"
      "  }\n"
      "}\n";
  const char *out = read_and_print(text);
  CHECK_STR_CONTAINS(out, "sdy.mesh @mesh = <[\"a\"=2, \"b\"=2, \"c\"=2]>");
  CHECK_STR_CONTAINS(out, "in_shardings=[<@mesh, [{\"b\", \"c\"}, {\"a\"}]>] out_shardings=[<@mesh, [{\"b\", \"c\"}, {\"a\"}]>]");
  hr_shape s = {2, {8, 4}};
  hr_tensor *x = counting(&s, 1);
  float want[32];
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 4; c++) want[r * 4 + c] = (float)(r * 4 + c) + (float)(4 * (c / 2) + r / 2);
  const float *values[1] = {want};
  int n[1] = {32};
  if (x) check_runs(text, &x, 1, values, n, 1);
  hr_tensor_free(x);
}

/* with_sharding_constraint alone: the @Sharding ops go, nothing else changes (no mesh). */
TEST(sharding_constraint_alone) {
  const char *text = "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
                     "  func.func public @main(%x: tensor<4xf32> {mhlo.sharding = \"{devices=[2]0,1}\"}) -> tensor<4xf32> {\n"
                     "    %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{devices=[2]0,1}\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
                     "    %n = stablehlo.negate %s : tensor<4xf32>\n"
                     "    %t = stablehlo.custom_call @Sharding(%n) {mhlo.sharding = \"{maximal device=1}\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
                     "    return %t : tensor<4xf32>\n"
                     "  }\n"
                     "}\n";
  CHECK(strcmp(read_and_print(text),
               "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
               "  func.func public @main(%arg0: tensor<4xf32> {mhlo.sharding = \"{devices=[2]0,1}\"}) -> tensor<4xf32> {\n"
               "    %0 = stablehlo.negate %arg0 : tensor<4xf32>\n"
               "    return %0 : tensor<4xf32>\n"
               "  }\n"
               "}\n") == 0);
}

/* Six devices whose sharding holds the pairs 0,1 | 2,3 | 4,5: the factors ordered 3, 2 express it
 * (2, 3 do not); a body inside a call and a region of a while loop's body. */
TEST(factor_order_and_nested_blocks) {
  const char *text =
      "module @m {\n"
      "  func.func public @main(%x: tensor<6xf32>) -> tensor<6xf32> {\n"
      "    %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{devices=[3,2]0,1,2,3,4,5 last_tile_dim_replicate}\"} : (tensor<6xf32>) -> tensor<6xf32>\n"
      "    %l = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<6xf32>) -> tensor<2xf32>\n"
      "    %b = call @shmap_body(%l) : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    %m = stablehlo.custom_call @Sharding(%b) {mhlo.sharding = \"{manual}\"} : (tensor<2xf32>) -> tensor<2xf32>\n"
      "    %g = stablehlo.custom_call @SPMDShardToFullShape(%m) {mhlo.sharding = \"{devices=[3,2]0,1,2,3,4,5 last_tile_dim_replicate}\"} : (tensor<2xf32>) -> tensor<6xf32>\n"
      "    return %g : tensor<6xf32>\n"
      "  }\n"
      "  func.func private @shmap_body(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %n = stablehlo.negate %a : tensor<2xf32>\n"
      "    return %n : tensor<2xf32>\n"
      "  }\n"
      "}\n";
  const char *out = read_and_print(text);
  CHECK_STR_CONTAINS(out, "module @m attributes {mhlo.num_partitions = 6 : i32} {\n  sdy.mesh @mesh = <[\"a\"=3, \"b\"=2]>\n");
  CHECK_STR_CONTAINS(out, "in_shardings=[<@mesh, [{\"a\"}]>] out_shardings=[<@mesh, [{\"a\"}]>] manual_axes={\"a\", \"b\"}");
  CHECK_STR_CONTAINS(out, "      %1 = func.call @shmap_body(%arg1) : (tensor<2xf32>) -> tensor<2xf32>\n      sdy.return %1");
  hr_shape s = {1, {6}};
  hr_tensor *x = counting(&s, 1);
  const float want[6] = {0, -1, -2, -3, -4, -5};
  const float *values[1] = {want};
  int n[1] = {6};
  if (x) check_runs(text, &x, 1, values, n, 1);
  hr_tensor_free(x);

  /* The same region inside a while loop's body. */
  const char *loop =
      "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
      "  func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
      "    %0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "    %1:2 = stablehlo.while(%i = %0, %v = %x) : tensor<i32>, tensor<4xf32>\n"
      "     cond {\n"
      "      %c2 = stablehlo.constant dense<2> : tensor<i32>\n"
      "      %lt = stablehlo.compare LT, %i, %c2 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %lt : tensor<i1>\n"
      "    } do {\n"
      "      %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
      "      %j = stablehlo.add %i, %c1 : tensor<i32>\n"
      "      %s = stablehlo.custom_call @Sharding(%v) {mhlo.sharding = \"{devices=[2]0,1}\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
      "      %l = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<4xf32>) -> tensor<2xf32>\n"
      "      %d = stablehlo.add %l, %l : tensor<2xf32>\n"
      "      %g = stablehlo.custom_call @SPMDShardToFullShape(%d) {mhlo.sharding = \"{devices=[2]0,1}\"} : (tensor<2xf32>) -> tensor<4xf32>\n"
      "      stablehlo.return %j, %g : tensor<i32>, tensor<4xf32>\n"
      "    }\n"
      "    return %1#1 : tensor<4xf32>\n"
      "  }\n"
      "}\n";
  CHECK_STR_CONTAINS(read_and_print(loop), "      %2 = sdy.manual_computation(%iterArg_0) in_shardings=[<@mesh, [{\"a\"}]>]");
  hr_shape s4 = {1, {4}};
  hr_tensor *y = counting(&s4, 1);
  const float w4[4] = {0, 4, 8, 12};
  const float *v4[1] = {w4};
  int n4[1] = {4};
  if (y) check_runs(loop, &y, 1, v4, n4, 1);
  hr_tensor_free(y);
}

/* ---------------------------------------------------------------------------------------------- */
/* Refused forms                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

#define HEAD "module @m {\n  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n"
#define SHARD(s) "    %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"" s "\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
#define ENTER(from, manual, local) \
  "    %l = stablehlo.custom_call @SPMDFullToShardShape(" from ") {mhlo.sharding = \"" manual "\"} : (tensor<4xf32>) -> " local "\n"
#define LEAVE(from, s, local) \
  "    %g = stablehlo.custom_call @SPMDShardToFullShape(" from ") {mhlo.sharding = \"" s "\"} : (" local ") -> tensor<4xf32>\n"
#define TAIL "    return %g : tensor<4xf32>\n  }\n}\n"
/* A whole module whose region enters and leaves with sharding `s`. */
#define WITH_SHARDING(s) HEAD SHARD(s) ENTER("%s", "{manual}", "tensor<2xf32>") LEAVE("%l", s, "tensor<2xf32>") TAIL

TEST(malformed_shardings) {
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]0}"), "stablehlo.custom_call: mhlo.sharding \"{devices=[2]0}\": expected ','");
  EXPECT_ERROR(WITH_SHARDING("{devices=[0]}"), "a dimension below 1");
  EXPECT_ERROR(WITH_SHARDING("{devices=[99999999999]0}"), "expected an integer from 0 to 65536");
  EXPECT_ERROR(WITH_SHARDING("{devices=[65536,2]<=[131072]}"), "more devices than hlorun reads");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]0,5}"), "expected an integer from 0 to 1 at offset 15");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]0,1"), "shard_like, metadata or '}' at offset 15");
  EXPECT_ERROR(WITH_SHARDING("{devices=[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2]0,1}"), "too many dimensions at offset 44");
  EXPECT_ERROR(WITH_SHARDING("{devices=[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2]0,1}"), "more tile dimensions than a value has");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]<=[3]}"), "do not multiply to the tiles' device count");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2,2]<=[2,2]T(0,0)}"), "the transpose is no permutation");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]0,1 metadata={op_name=\\\"}\\\""), "unbalanced braces");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]0,1 bogus}"), "expected last_tile_dim_replicate");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]0,1} x"), "unexpected text after the sharding");
  EXPECT_ERROR(WITH_SHARDING("{replicated last_tile_dim_replicate}"), "a replicated tile dimension without tiles");
  EXPECT_ERROR(WITH_SHARDING("{{replicated}, {replicated}}"), "tuple shardings are not supported");
  EXPECT_ERROR(WITH_SHARDING("{maximal device=0}"), "a value on one device ({maximal}) is not supported");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2,1]0,1 last_tile_dims={manual}}"), "a partly manual sharding");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2]1,0}"), "mhlo.sharding \"{devices=[2]1,0}\": no mesh of devices 0..1 in "
                                                   "row-major order expresses its device order");
  EXPECT_ERROR(WITH_SHARDING("{devices=[2,2]0,1,2,3}"), "cuts 2 dimensions of a value of rank 1");
  /* Metadata and propagation hints are skipped. */
  CHECK_STR_CONTAINS(read_and_print(WITH_SHARDING("{devices=[2]0,1 shard_as 1 metadata={op_name=\\\"a{\\\"}}")),
                     "in_shardings=[<@mesh, [{\"a\"}]>]");
}

TEST(malformed_regions) {
  /* Shapes and device counts. */
  EXPECT_ERROR(HEAD SHARD("{devices=[2]0,1}") ENTER("%s", "{manual}", "tensor<3xf32>") LEAVE("%l", "{devices=[2]0,1}", "tensor<3xf32>") TAIL,
               "dimension 0 of size 4 is not 2 pieces of size 3");
  EXPECT_ERROR("module @m attributes {mhlo.num_partitions = 4 : i32} {\n  func.func public @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n"
               SHARD("{devices=[2]0,1}") ENTER("%s", "{manual}", "tensor<2xf32>") LEAVE("%l", "{devices=[2]0,1}", "tensor<2xf32>") TAIL,
               "spans 2 devices; the module's manual computations span 4");
  /* The custom calls themselves. */
  EXPECT_ERROR(HEAD ENTER("%x", "{manual}", "tensor<2xf32>") LEAVE("%l", "{devices=[2]0,1}", "tensor<2xf32>") TAIL,
               "the operand of @SPMDFullToShardShape is not given its sharding by custom_call @Sharding");
  EXPECT_ERROR(WITH_SHARDING("{manual}"), "a manual region inside another (a nested shard_map) is not supported");
  EXPECT_ERROR(HEAD SHARD("{devices=[2]0,1}") ENTER("%s", "{replicated}", "tensor<2xf32>") LEAVE("%l", "{devices=[2]0,1}", "tensor<2xf32>") TAIL,
               "@SPMDFullToShardShape: mhlo.sharding is not \"{manual}\"");
  EXPECT_ERROR(HEAD "    %s = stablehlo.custom_call @Sharding(%x, %y) {mhlo.sharding = \"{replicated}\"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
               "    return %s : tensor<4xf32>\n  }\n}\n", "@Sharding: 2 operands and 1 results, expected one of each");
  EXPECT_ERROR(HEAD SHARD("{devices=[2]0,1}") "    %l:2 = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = \"{manual}\"} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
               "    return %x : tensor<4xf32>\n  }\n}\n", "@SPMDFullToShardShape: 1 operands and 2 results, expected one of each");
  EXPECT_ERROR(HEAD "    %g = stablehlo.custom_call @SPMDShardToFullShape(%x) : (tensor<4xf32>) -> tensor<4xf32>\n" TAIL,
               "no string attribute mhlo.sharding");
  /* Values crossing a region's edge. */
  EXPECT_ERROR(HEAD SHARD("{devices=[2]0,1}") ENTER("%s", "{manual}", "tensor<2xf32>")
               "    %t = stablehlo.slice %y [0:2] : (tensor<4xf32>) -> tensor<2xf32>\n"
               "    %a = stablehlo.add %l, %t : tensor<2xf32>\n" LEAVE("%a", "{devices=[2]0,1}", "tensor<2xf32>") TAIL,
               "stablehlo.slice: in a manual region, reads %y from outside it");
  /* Only ops with no operands are cloned: a value computed from a constant that a region and
   * outside code both read is refused. */
  EXPECT_ERROR(HEAD SHARD("{devices=[2]0,1}") ENTER("%s", "{manual}", "tensor<2xf32>")
               "    %k = stablehlo.constant dense<1.0> : tensor<2xf32>\n"
               "    %n = stablehlo.negate %k : tensor<2xf32>\n"
               "    %a = stablehlo.add %l, %n : tensor<2xf32>\n" LEAVE("%a", "{devices=[2]0,1}", "tensor<2xf32>")
               "    %c = stablehlo.concatenate %n, %n, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>\n"
               "    return %c : tensor<4xf32>\n  }\n}\n",
               "stablehlo.concatenate: reads %n, a per-device value of a manual region, outside it");
  /* What is computed from pieces without leaving through SPMDShardToFullShape is per-device. */
  EXPECT_ERROR(HEAD SHARD("{devices=[2]0,1}") ENTER("%s", "{manual}", "tensor<2xf32>")
               "    %c = stablehlo.concatenate %l, %l, dim = 0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>\n"
               "    return %c : tensor<4xf32>\n  }\n}\n",
               "func.return: returns %c, a per-device value of a manual region, without @SPMDShardToFullShape");
  EXPECT_ERROR(HEAD "    %g = stablehlo.custom_call @SPMDShardToFullShape(%x) {mhlo.sharding = \"{replicated}\"} : (tensor<4xf32>) -> tensor<4xf32>\n" TAIL,
               "the operand of @SPMDShardToFullShape (%x) is no per-device value of a manual region");
  EXPECT_ERROR(HEAD SHARD("{devices=[2]0,1}") ENTER("%s", "{manual}", "tensor<2xf32>")
               "    %i = stablehlo.custom_call @Sharding(%l) {mhlo.sharding = \"{devices=[2]0,1}\"} : (tensor<2xf32>) -> tensor<2xf32>\n"
               "    %k = stablehlo.custom_call @SPMDFullToShardShape(%i) {mhlo.sharding = \"{manual}\"} : (tensor<2xf32>) -> tensor<1xf32>\n"
               "    return %x : tensor<4xf32>\n  }\n}\n",
               "a manual region inside another (a nested shard_map) is not supported");
}

int main(void) {
  RUN(two_operands_two_results);
  RUN(shared_constant_and_two_regions);
  RUN(eight_devices_transposed);
  RUN(sharding_constraint_alone);
  RUN(factor_order_and_nested_blocks);
  RUN(malformed_shardings);
  RUN(malformed_regions);
  TEST_MAIN_END();
}

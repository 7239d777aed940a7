/* sdy.manual_computation (JAX's shard_map) expanded by hr_specialize into global ops on one device:
 * operands cut into per-device pieces over a 2x2 mesh, partition_id, all_gather, all_reduce,
 * collective_permute (with devices no one sends to), a partly manual mesh, sharding_constraint,
 * and the forms it refuses (sub-axes, reduce_scatter, pieces that do not divide, unknown meshes).
 * Each specialized module is run by the interpreter and compared with values computed here.
 * Every case also runs as one device's code per device (hr_specialize_device, through a global
 * hr_spmd: 4 threads), which must give the same values; reduce_scatter runs only there. */
#include <stdint.h>

#include "compiler/specialize.h"
#include "runtime/executable.h"
#include "test.h"

/* The module header: a 2x2 mesh over 4 partitions, and @main taking one tensor<4x4xf32>. */
#define HEAD                                                                                        \
  "module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {\n"           \
  "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"                                                        \
  "  func.func public @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
#define TAIL "    return %0 : tensor<4x4xf32>\n  }\n}\n"
/* A manual computation over both axes, each device holding a 2x2 block of %arg0. */
#define MANUAL_XY(out_sharding, local_out)                                                          \
  "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>] "            \
  "out_shardings=[<@mesh, " out_sharding ">] manual_axes={\"x\", \"y\"} (%a: tensor<2x2xf32>) {\n"
#define END_MANUAL(local_out) "      sdy.return %r : " local_out "\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"

/* The 16 floats of `got` are `want` (`how` it ran is named in failures). */
static void check_values(const char *how, const hr_tensor *got, const float *want) {
  for (int i = 0; i < 16; i++)
    if (((const float *)got->data)[i] != want[i]) {
      fprintf(stderr, "%s, element %d: got %g, want %g\n", how, i, ((const float *)got->data)[i], want[i]);
      test_failures_++;
    }
}

/* `text` run as a global SPMD program, one thread per device, gives `want` for input 0, 1, ..., 15. */
static void check_device_runs(const char *text, const float *want) {
  hr_module *m = NULL;
  hr_spmd *s = NULL;
  CHECK_OK(hr_module_parse("manual.mlir", text, strlen(text), NULL, &m));
  if (!m) return;
  hr_exec_options opts = {.num_threads = 1};
  CHECK_OK(hr_spmd_create(m, "main", NULL, &opts, &s));
  if (!s) return;
  CHECK(hr_spmd_is_global(s));
  CHECK_EQ_INT(hr_spmd_num_devices(s), 4);
  hr_shape shape = {2, {4, 4}};
  hr_tensor *x = NULL, **out = NULL;
  int n_out = 0;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &shape, 0, &x));
  for (int i = 0; x && i < 16; i++) ((float *)x->data)[i] = (float)i;
  if (x) CHECK_OK(hr_spmd_run(s, &x, 1, &out, &n_out));
  CHECK_EQ_INT(n_out, 1);
  if (n_out == 1) check_values("device code", out[0], want);
  hr_tensors_free(out, n_out);
  hr_tensor_free(x);
  hr_spmd_free(s);
}

/* Specializes `text` for tensor<4x4xf32>, runs it on 0, 1, ..., 15 and checks the 16 outputs;
 * the specialized module must hold no Shardy op. */
static void check_runs(const char *text, const float *want) {
  hr_module *m = NULL, *spec = NULL;
  CHECK_OK(hr_module_parse("manual.mlir", text, strlen(text), NULL, &m));
  if (!m) return;
  int64_t dims[2] = {4, 4};
  hr_type t = hr_tensor_type(HR_F32, 2, dims);
  hr_folder folder = hr_interp_folder();
  CHECK_OK(hr_specialize(m, "main", &t, 1, &folder, NULL, &spec));
  hr_tensor *x = NULL, **out = NULL;
  int n_out = 0;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &t.shape, 0, &x));
  for (int i = 0; x && i < 16; i++) ((float *)x->data)[i] = (float)i;
  hr_run_options opts = {.num_threads = 1};
  if (spec && x) CHECK_OK(hr_module_run(spec, "main", &x, 1, &opts, &out, &n_out));
  CHECK_EQ_INT(n_out, 1);
  if (n_out == 1) check_values("one device", out[0], want);
  for (int f = 0; spec && f < spec->n_funcs; f++)
    for (int k = 0; k < spec->funcs[f]->body.n_ops; k++) CHECK(spec->funcs[f]->body.ops[k]->code < HR_OP_SDY_MANUAL_COMPUTATION || spec->funcs[f]->body.ops[k]->code > HR_OP_SDY_SHARDING_CONSTRAINT);
  hr_tensors_free(out, n_out);
  hr_tensor_free(x);
  hr_module_free(spec);
  hr_module_free(m);
  check_device_runs(text, want);
}

/* Specializing `text` fails with `code` and a message holding `needle`. */
static void check_refused(const char *text, hr_code code, const char *needle) {
  hr_module *m = NULL, *spec = NULL;
  CHECK_OK(hr_module_parse("manual.mlir", text, strlen(text), NULL, &m));
  if (!m) return;
  int64_t dims[2] = {4, 4};
  hr_type t = hr_tensor_type(HR_F32, 2, dims);
  hr_status s = hr_specialize(m, "main", &t, 1, NULL, NULL, &spec);
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ_INT(hr_status_code(s), code);
    CHECK_STR_CONTAINS(hr_status_message(s), needle);
  }
  hr_status_free(s);
  hr_module_free(spec);
  hr_module_free(m);
}

/* Each device adds its partition id (2 * x + y) to its block. */
TEST(partition_id_per_block) {
  const char *text = HEAD MANUAL_XY("[{\"x\"}, {\"y\"}]", "")
      "      %p = stablehlo.partition_id : tensor<ui32>\n"
      "      %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>\n"
      "      %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x2xf32>\n"
      "      %r = stablehlo.add %a, %b : tensor<2x2xf32>\n" END_MANUAL("tensor<2x2xf32>") TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) want[i] = (float)i + (float)(2 * (i / 8) + (i % 4) / 2);
  check_runs(text, want);
}

/* all_gather along the y groups rebuilds each row band; the result is %arg0 again. */
TEST(all_gather_rebuilds_rows) {
  const char *text = HEAD
      "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>] "
      "out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\", \"y\"} (%a: tensor<2x2xf32>) {\n"
      "      %r = \"stablehlo.all_gather\"(%a) <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2x2xf32>) -> tensor<2x4xf32>\n"
      "      sdy.return %r : tensor<2x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) want[i] = (float)i;
  check_runs(text, want);
}

/* all_reduce over all four devices: every device holds the sum of the four blocks, replicated. */
TEST(all_reduce_sums_blocks) {
  const char *text = HEAD
      "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>] "
      "out_shardings=[<@mesh, [{}, {}]>] manual_axes={\"x\", \"y\"} (%a: tensor<2x2xf32>) {\n"
      "      %s = \"stablehlo.all_reduce\"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({\n"
      "      ^bb0(%u: tensor<f32>, %v: tensor<f32>):\n"
      "        %w = stablehlo.add %u, %v : tensor<f32>\n"
      "        stablehlo.return %w : tensor<f32>\n"
      "      }) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
      "      %r = stablehlo.concatenate %s, %s, dim = 0 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>\n"
      "      %q = stablehlo.concatenate %r, %r, dim = 1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>\n"
      "      sdy.return %q : tensor<4x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL;
  /* block (i, j) element (r, c) is 16*... : the sum over blocks of x[2bi + r][2bj + c] */
  float want[16];
  for (int i = 0; i < 16; i++) {
    int r = (i / 4) % 2, col = (i % 4) % 2;
    want[i] = 0;
    for (int bi = 0; bi < 2; bi++)
      for (int bj = 0; bj < 2; bj++) want[i] += (float)((2 * bi + r) * 4 + 2 * bj + col);
  }
  check_runs(text, want);
}

/* collective_permute 0 -> 3 and 3 -> 0: the corner blocks swap, devices 1 and 2 get zeros. */
TEST(collective_permute_swaps_and_zeros) {
  const char *text = HEAD MANUAL_XY("[{\"x\"}, {\"y\"}]", "")
      "      %r = \"stablehlo.collective_permute\"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "source_target_pairs = dense<[[0, 3], [3, 0]]> : tensor<2x2xi64>}> : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
      END_MANUAL("tensor<2x2xf32>") TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) {
    int bi = i / 8, bj = (i % 4) / 2, r = (i / 4) % 2, col = i % 2;
    bool corner = bi == bj;
    want[i] = corner ? (float)((2 * (1 - bi) + r) * 4 + 2 * (1 - bj) + col) : 0.0f;
  }
  check_runs(text, want);
}

/* Only "x" is manual: each device holds a 2x4 band whole along y; a sharding_constraint before it
 * is the value itself. */
TEST(partly_manual_mesh) {
  const char *text = HEAD
      "    %c = sdy.sharding_constraint %arg0 <@mesh, [{\"x\"}, {\"y\"}]> : tensor<4x4xf32>\n"
      "    %0 = sdy.manual_computation(%c) in_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>] "
      "out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%a: tensor<2x4xf32>) {\n"
      "      %r = stablehlo.negate %a : tensor<2x4xf32>\n"
      "      sdy.return %r : tensor<2x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) want[i] = -(float)i;
  check_runs(text, want);
}

/* Only "x" is manual and a dimension's sharding also names the free "y": the pieces are cut (and
 * gathered) along "x" alone. */
TEST(partly_manual_with_a_free_axis_in_a_dimension) {
  const char *text = HEAD
      "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\", \"y\"}, {}]>] "
      "out_shardings=[<@mesh, [{\"x\", \"y\"}, {}]>] manual_axes={\"x\"} (%a: tensor<2x4xf32>) {\n"
      "      %r = stablehlo.negate %a : tensor<2x4xf32>\n"
      "      sdy.return %r : tensor<2x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) want[i] = -(float)i;
  check_runs(text, want);
}

/* reduce_scatter (refused on one device) runs as device code: the x rows' pair sums, each y device
 * keeping one row of its pair's, twice. */
TEST(reduce_scatter_on_devices) {
  const char *text = HEAD MANUAL_XY("[{\"x\"}, {\"y\"}]", "")
      "      %s = \"stablehlo.reduce_scatter\"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({\n"
      "      ^bb0(%u: tensor<f32>, %v: tensor<f32>):\n"
      "        %w = stablehlo.add %u, %v : tensor<f32>\n"
      "        stablehlo.return %w : tensor<f32>\n"
      "      }) : (tensor<2x2xf32>) -> tensor<1x2xf32>\n"
      "      %r = stablehlo.concatenate %s, %s, dim = 0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>\n"
      END_MANUAL("tensor<2x2xf32>") TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) {
    int bi = i / 8, bj = (i % 4) / 2, col = i % 2, row = 2 * bi + bj;
    want[i] = (float)(row * 4 + col) + (float)(row * 4 + 2 + col);
  }
  check_device_runs(text, want);
}

/* all_to_all (refused on one device) runs as device code: within each x row band, the y devices
 * swap the halves of their 2x2 blocks' columns. Block (bx, by) receives column by of both y blocks
 * of its band, side by side: element (r, c) is x[2bx + r][2c + by]. */
TEST(all_to_all_on_devices) {
  const char *text = HEAD MANUAL_XY("[{\"x\"}, {\"y\"}]", "")
      "      %r = \"stablehlo.all_to_all\"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, split_dimension = 1 : i64, concat_dimension = 1 : i64, "
      "split_count = 2 : i64}> : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
      END_MANUAL("tensor<2x2xf32>") TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) {
    int bx = i / 8, by = (i % 4) / 2, r = (i / 4) % 2, col = i % 2;
    want[i] = (float)((2 * bx + r) * 4 + 2 * col + by);
  }
  check_device_runs(text, want);
}

/* A collective inside a loop body (refused on one device): three rounds of all_reduce over the
 * four devices; round 1 sums the four blocks, rounds 2 and 3 each multiply that by 4, and the
 * result is doubled after the loop. */
TEST(collective_in_a_loop_on_devices) {
  const char *text = HEAD MANUAL_XY("[{\"x\"}, {\"y\"}]", "")
      "      %zero = stablehlo.constant dense<0> : tensor<i32>\n"
      "      %w:2 = stablehlo.while(%i = %zero, %v = %a) : tensor<i32>, tensor<2x2xf32>\n"
      "       cond {\n"
      "        %three = stablehlo.constant dense<3> : tensor<i32>\n"
      "        %lt = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "        stablehlo.return %lt : tensor<i1>\n"
      "      } do {\n"
      "        %s = \"stablehlo.all_reduce\"(%v) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
      "replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({\n"
      "        ^bb0(%u: tensor<f32>, %t: tensor<f32>):\n"
      "          %q = stablehlo.add %u, %t : tensor<f32>\n"
      "          stablehlo.return %q : tensor<f32>\n"
      "        }) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
      "        %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "        %j = stablehlo.add %i, %one : tensor<i32>\n"
      "        stablehlo.return %j, %s : tensor<i32>, tensor<2x2xf32>\n"
      "      }\n"
      "      %r = stablehlo.add %w#1, %w#1 : tensor<2x2xf32>\n"
      END_MANUAL("tensor<2x2xf32>") TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) {
    int r = (i / 4) % 2, col = i % 2;
    float sum = 0;
    for (int bi = 0; bi < 2; bi++)
      for (int bj = 0; bj < 2; bj++) sum += (float)((2 * bi + r) * 4 + 2 * bj + col);
    want[i] = 2 * 16 * sum; /* the sum, times 4 in rounds 2 and 3, doubled */
  }
  check_device_runs(text, want);
}

/* Global ops around two manual computations run alike on every device; the second computation
 * takes the first's gathered result. */
TEST(global_ops_between_computations) {
  const char *text = HEAD
      "    %n = stablehlo.negate %arg0 : tensor<4x4xf32>\n"
      "    %1 = sdy.manual_computation(%n) in_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>] "
      "out_shardings=[<@mesh, [{\"x\"}, {\"y\"}]>] manual_axes={\"x\", \"y\"} (%a: tensor<2x2xf32>) {\n"
      "      %p = stablehlo.partition_id : tensor<ui32>\n"
      "      %f = stablehlo.convert %p : (tensor<ui32>) -> tensor<f32>\n"
      "      %b = stablehlo.broadcast_in_dim %f, dims = [] : (tensor<f32>) -> tensor<2x2xf32>\n"
      "      %r = stablehlo.add %a, %b : tensor<2x2xf32>\n"
      "      sdy.return %r : tensor<2x2xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
      "    %t = stablehlo.transpose %1, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
      "    %0 = sdy.manual_computation(%t) in_shardings=[<@mesh, [{}, {\"x\", \"y\"}]>] "
      "out_shardings=[<@mesh, [{}, {\"x\", \"y\"}]>] manual_axes={\"x\", \"y\"} (%a: tensor<4x1xf32>) {\n"
      "      %r = stablehlo.multiply %a, %a : tensor<4x1xf32>\n"
      "      sdy.return %r : tensor<4x1xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL;
  float want[16];
  for (int i = 0; i < 16; i++) { /* element (r, c) of the transpose is element (c, r) of the first result */
    int r = i / 4, c = i % 4, src = c * 4 + r;
    float v = -(float)src + (float)(2 * (src / 8) + (src % 4) / 2);
    want[i] = v * v;
  }
  check_runs(text, want);
}

/* A device's code needs one partition per device of the mesh. */
TEST(device_code_needs_the_mesh_partitions) {
  const char *text = "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
                     "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n"
                     "  func.func public @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
                     "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}, {}]>] "
                     "out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%a: tensor<2x4xf32>) {\n"
                     "      sdy.return %a : tensor<2x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL;
  hr_module *m = NULL, *spec = NULL;
  CHECK_OK(hr_module_parse("manual.mlir", text, strlen(text), NULL, &m));
  int64_t dims[2] = {4, 4};
  hr_type t = hr_tensor_type(HR_F32, 2, dims);
  hr_status s = m ? hr_specialize_device(m, "main", &t, 1, NULL, NULL, 0, &spec) : NULL;
  CHECK(s != NULL);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "the mesh has 4 devices but the module's mhlo.num_partitions is 2");
  hr_status_free(s);
  hr_module_free(spec);
  hr_module_free(m);
}

TEST(refusals) {
  check_refused(HEAD
                "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\":(1)2}, {}]>] "
                "out_shardings=[<@mesh, [{}, {}]>] manual_axes={\"x\"} (%a: tensor<2x4xf32>) {\n"
                "      %r = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>\n"
                "      sdy.return %r : tensor<4x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL,
                HR_UNIMPLEMENTED, "sub-axis");
  check_refused(HEAD MANUAL_XY("[{\"x\"}, {\"y\"}]", "")
                "      %s = \"stablehlo.reduce_scatter\"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
                "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({\n"
                "      ^bb0(%u: tensor<f32>, %v: tensor<f32>):\n"
                "        %w = stablehlo.add %u, %v : tensor<f32>\n"
                "        stablehlo.return %w : tensor<f32>\n"
                "      }) : (tensor<2x2xf32>) -> tensor<1x2xf32>\n"
                "      %r = stablehlo.concatenate %s, %s, dim = 0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>\n"
                END_MANUAL("tensor<2x2xf32>") TAIL,
                HR_UNIMPLEMENTED, "stablehlo.reduce_scatter");
  check_refused("module @m {\n  sdy.mesh @mesh = <[\"x\"=3]>\n"
                "  func.func public @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
                "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"x\"}, {}]>] "
                "out_shardings=[<@mesh, [{\"x\"}, {}]>] manual_axes={\"x\"} (%a: tensor<1x4xf32>) {\n"
                "      sdy.return %a : tensor<1x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL,
                HR_INVALID_ARGUMENT, "does not divide");
  check_refused("module @m {\n"
                "  func.func public @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
                "    %0 = sdy.manual_computation(%arg0) in_shardings=[<@other, [{\"x\"}, {}]>] "
                "out_shardings=[<@other, [{\"x\"}, {}]>] manual_axes={\"x\"} (%a: tensor<2x4xf32>) {\n"
                "      sdy.return %a : tensor<2x4xf32>\n    } : (tensor<4x4xf32>) -> tensor<4x4xf32>\n" TAIL,
                HR_NOT_FOUND, "no mesh @other");
}

int main(void) {
  RUN(partition_id_per_block);
  RUN(all_gather_rebuilds_rows);
  RUN(all_reduce_sums_blocks);
  RUN(collective_permute_swaps_and_zeros);
  RUN(partly_manual_mesh);
  RUN(reduce_scatter_on_devices);
  RUN(all_to_all_on_devices);
  RUN(collective_in_a_loop_on_devices);
  RUN(global_ops_between_computations);
  RUN(device_code_needs_the_mesh_partitions);
  RUN(partly_manual_with_a_free_axis_in_a_dimension);
  RUN(refusals);
  TEST_MAIN_END();
}

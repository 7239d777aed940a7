/* SPMD programs (hr_spmd, src/runtime/spmd.c): a module for several devices runs one executable
 * per device on threads of their own, its collectives exchanging values between them (all_reduce
 * of a compiled product, all_gather, partition_id, which must not be folded at create time), runs
 * again on the same executables, recompiles for new shapes, and reports bad inputs and a device
 * that deadlocks (an error, never a hang); modules with sharding annotations are global programs,
 * not SPMD ones. */
#include "test.h"

/* Per device d: s = all_reduce(x * x), g = all_gather(x) along 0, p = partition_id. */
static const char k_collectives[] =
    "module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {\n"
    "  func.func @main(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<ui32>) {\n"
    "    %m = stablehlo.multiply %x, %x : tensor<?x3xf32>\n"
    "    %s = \"stablehlo.all_reduce\"(%m) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %t = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %t : tensor<f32>\n"
    "    }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,\n"
    "        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<?x3xf32>) -> tensor<?x3xf32>\n"
    "    %g = \"stablehlo.all_gather\"(%x) {all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>,\n"
    "        replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<?x3xf32>) -> tensor<?x3xf32>\n"
    "    %p = stablehlo.partition_id : tensor<ui32>\n"
    "    return %s, %g, %p : tensor<?x3xf32>, tensor<?x3xf32>, tensor<ui32>\n"
    "  }\n"
    "}\n";

/* Partition 0 all-reduces, partition 1 does not: the devices deadlock. */
static const char k_deadlock[] =
    "module attributes {mhlo.num_partitions = 2 : i32} {\n"
    "  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
    "    %p = stablehlo.partition_id : tensor<ui32>\n"
    "    %z = stablehlo.constant dense<0> : tensor<ui32>\n"
    "    %c = stablehlo.compare EQ, %p, %z : (tensor<ui32>, tensor<ui32>) -> tensor<i1>\n"
    "    %r = \"stablehlo.if\"(%c) ({\n"
    "      %s = \"stablehlo.all_reduce\"(%x) ({\n"
    "      ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "        %t = stablehlo.add %a, %b : tensor<f32>\n"
    "        stablehlo.return %t : tensor<f32>\n"
    "      }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,\n"
    "          use_global_device_ids} : (tensor<2xf32>) -> tensor<2xf32>\n"
    "      stablehlo.return %s : tensor<2xf32>\n"
    "    }, {\n"
    "      stablehlo.return %x : tensor<2xf32>\n"
    "    }) : (tensor<i1>) -> tensor<2xf32>\n"
    "    return %r : tensor<2xf32>\n"
    "  }\n"
    "}\n";

static hr_spmd *open_spmd(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("spmd.mlir", text, strlen(text), NULL, &m));
  if (!m) return NULL;
  CHECK_EQ_INT(hr_module_num_devices(m), 2);
  hr_exec_options o = {.num_threads = 1};
  hr_spmd *s = NULL;
  CHECK_OK(hr_spmd_create(m, NULL, NULL, &o, &s));
  return s;
}

/* A rows x 3 f32 tensor holding base, base + 1, ... */
static hr_tensor *counting(int64_t rows, float base) {
  hr_shape s = {.rank = 2, .dims = {rows, 3}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &s, 0, &t));
  for (int64_t i = 0; t && i < rows * 3; i++) ((float *)t->data)[i] = base + (float)i;
  return t;
}

/* Runs the collectives module on `rows`-row inputs and checks every device's results. */
static void check_collectives(hr_spmd *s, int64_t rows) {
  hr_tensor *in[2] = {counting(rows, 1.0f), counting(rows, -2.0f)};
  hr_tensor **out = NULL;
  int n_out = 0;
  CHECK_OK(hr_spmd_run(s, in, 2, &out, &n_out));
  CHECK_EQ_INT(n_out, 6);
  for (int d = 0; out && d < 2; d++) {
    const float *sum = out[3 * d]->data, *gathered = out[3 * d + 1]->data;
    CHECK_EQ_INT(out[3 * d + 1]->shape.dims[0], 2 * rows);
    for (int64_t i = 0; i < rows * 3; i++) {
      float a = 1.0f + (float)i, b = -2.0f + (float)i;
      CHECK(sum[i] == a * a + b * b);
      CHECK(gathered[i] == a);
      CHECK(gathered[rows * 3 + i] == b);
    }
    CHECK_EQ_INT(*(const uint32_t *)out[3 * d + 2]->data, d);
  }
  hr_tensors_free(out, n_out);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
}

TEST(collectives_meet_across_devices) {
  hr_spmd *s = open_spmd(k_collectives);
  if (!s) return;
  CHECK_EQ_INT(hr_spmd_num_devices(s), 2);
  check_collectives(s, 2);
  check_collectives(s, 2); /* the same executables again */
  check_collectives(s, 5); /* new shapes: compiled again */
  hr_spmd_free(s);
}

TEST(devices_must_agree_on_shapes) {
  hr_spmd *s = open_spmd(k_collectives);
  if (!s) return;
  hr_tensor *in[2] = {counting(2, 0.0f), counting(3, 0.0f)};
  hr_tensor **out = NULL;
  int n_out = 0;
  hr_status st = hr_spmd_run(s, in, 2, &out, &n_out);
  CHECK(st && hr_status_code(st) == HR_INVALID_ARGUMENT);
  if (st) CHECK_STR_CONTAINS(hr_status_message(st), "input 0 of device 1 differs");
  hr_status_free(st);
  st = hr_spmd_run(s, in, 1, &out, &n_out);
  CHECK(st && hr_status_code(st) == HR_INVALID_ARGUMENT);
  hr_status_free(st);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
  hr_spmd_free(s);
}

TEST(a_deadlock_is_an_error) {
  hr_spmd *s = open_spmd(k_deadlock);
  if (!s) return;
  hr_shape sh = {.rank = 1, .dims = {2}};
  hr_tensor *in[2] = {NULL, NULL};
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &sh, 0, &in[0]));
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &sh, 0, &in[1]));
  hr_tensor **out = NULL;
  int n_out = 0;
  hr_status st = hr_spmd_run(s, in, 2, &out, &n_out);
  CHECK(st != NULL);
  if (st) CHECK_STR_CONTAINS(hr_status_message(st), "stablehlo.all_reduce: process (0, 0) waits here");
  hr_status_free(st);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
  hr_spmd_free(s);
}

/* Whether `text` parses to a module hr_module_is_spmd accepts. */
static bool is_spmd(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("spmd.mlir", text, strlen(text), NULL, &m));
  bool yes = m && hr_module_is_spmd(m);
  hr_module_free(m);
  return yes;
}

TEST(annotated_modules_are_global_programs) {
  CHECK(is_spmd(k_collectives));
  CHECK(!is_spmd("module attributes {mhlo.num_partitions = 1 : i32} {\n"
                 "  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> { return %x : tensor<2xf32> }\n}\n"));
  CHECK(!is_spmd("module attributes {mhlo.num_partitions = 2 : i32} {\n"
                 "  func.func @main(%x: tensor<2xf32> {mhlo.sharding = \"{devices=[2]<=[2]}\"}) -> tensor<2xf32> {\n"
                 "    return %x : tensor<2xf32>\n  }\n}\n"));
  CHECK(!is_spmd("module attributes {mhlo.num_partitions = 2 : i32} {\n"
                 "  sdy.mesh @mesh = <[\"x\"=2]>\n"
                 "  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> { return %x : tensor<2xf32> }\n}\n"));
}

int main(void) {
  RUN(annotated_modules_are_global_programs);
  RUN(collectives_meet_across_devices);
  RUN(devices_must_agree_on_shapes);
  RUN(a_deadlock_is_an_error);
  TEST_MAIN_END();
}

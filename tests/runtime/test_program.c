/* Programs: binding parameters to weights, input names and specs, ahead-of-time compilation, the
 * JIT cache (hits, misses, eviction), concurrency, batch splits (chunked runs equal whole ones bit
 * for bit), and results equal to the reference interpreter's. With ../shared present, every
 * shape-polymorphic conformance program is compiled for concrete shapes and checked the same way,
 * and wherever the batch split check allows a split, the halves' results must equal the whole's. When HLORUN_TT_WEIGHTS, HLORUN_TT_TOKENS and
 * HLORUN_TT_REFERENCE are set (test_program_tiny.sh sets them), the TinyTransformer runs as a
 * program and is compared with the numpy reference. */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "base/elem.h"
#include "base/weights.h"
#include "compiler/split.h"
#include "ir/ir.h"
#include "runtime/exec_internal.h"
#include "runtime/executable.h"
#include "test.h"
#include "same_outputs.h"

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("prog.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* An f32 tensor of the given shape holding a deterministic pattern. */
static hr_tensor *f32_tensor(int rank, const int64_t *dims, int seed) {
  hr_shape s = {.rank = rank};
  for (int i = 0; i < rank; i++) s.dims[i] = dims[i];
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &s, 0, &t));
  for (int64_t i = 0; t && i < hr_tensor_num_elements(t); i++)
    ((float *)t->data)[i] = (float)((i * 7 + seed * 5) % 13 - 6) * 0.125f;
  return t;
}

/* Releases the heap backing store of a test weight set. */
static void release_heap(void *backing, size_t len) {
  (void)len;
  free(backing);
}

/* A weight set {"dense.kernel": 4x3 f32, "dense.bias": 3 f32} over one heap buffer. */
static hr_weights *dense_weights(int64_t kernel_rows) {
  size_t kernel_bytes = (size_t)kernel_rows * 3 * 4, n = kernel_bytes + 64;
  unsigned char *backing = malloc(n);
  if (!backing) return NULL;
  for (size_t i = 0; i < n / 4; i++) ((float *)backing)[i] = (float)(i % 5) * 0.5f - 1.0f;
  hr_weights *w = NULL;
  CHECK_OK(hr_weights_create(NULL, 2, backing, n, release_heap, &w));
  hr_shape ks = {.rank = 2, .dims = {kernel_rows, 3}}, bs = {.rank = 1, .dims = {3}};
  if (w) CHECK_OK(hr_weights_add(w, "dense.kernel", HR_F32, &ks, backing, kernel_bytes));
  if (w) CHECK_OK(hr_weights_add(w, "dense.bias", HR_F32, &bs, backing + kernel_bytes, 12));
  return w;
}

/* A dense layer with a dynamic batch: relu(x @ kernel + bias), and the row sums. */
static const char *const dense_mlir =
    "func.func public @main(%b: tensor<3xf32> {jax.arg_info = \"params['dense']['bias']\"},\n"
    "    %k: tensor<4x3xf32> {jax.arg_info = \"params['dense']['kernel']\"},\n"
    "    %x: tensor<?x4xf32> {jax.arg_info = \"x\"}, %s: tensor<f32>) -> (tensor<?x3xf32>, tensor<?xf32>) {\n"
    "  %0 = stablehlo.dot_general %x, %k, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>\n"
    "  %c0 = stablehlo.constant dense<0> : tensor<1xi32>\n"
    "  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
    "  %d1 = stablehlo.reshape %d : (tensor<i32>) -> tensor<1xi32>\n"
    "  %c3 = stablehlo.constant dense<3> : tensor<1xi32>\n"
    "  %shape = stablehlo.concatenate %d1, %c3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "  %bb = stablehlo.dynamic_broadcast_in_dim %b, %shape, dims = [1] : (tensor<3xf32>, tensor<2xi32>) -> tensor<?x3xf32>\n"
    "  %1 = stablehlo.add %0, %bb : tensor<?x3xf32>\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %zb = stablehlo.dynamic_broadcast_in_dim %z, %shape, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>\n"
    "  %2 = stablehlo.maximum %1, %zb : tensor<?x3xf32>\n"
    "  %3 = stablehlo.reduce(%2 init: %s) applies stablehlo.add across dimensions = [1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?xf32>\n"
    "  return %2, %3 : tensor<?x3xf32>, tensor<?xf32>\n"
    "}\n";

/* Creates the dense program with its weights. */
static hr_program *dense_program(void) {
  hr_module *m = parse(dense_mlir);
  hr_weights *w = dense_weights(4);
  hr_program *p = NULL;
  if (m && w) CHECK_OK(hr_program_create(m, NULL, w, NULL, &p));
  return p;
}

/* The interpreter's results for the dense program on batch `rows` (seeded pattern). */
static void dense_reference(int64_t rows, int seed, hr_tensor ***out, int *n_out) {
  hr_module *m = parse(dense_mlir);
  hr_weights *w = dense_weights(4);
  int64_t dx[2] = {rows, 4};
  hr_tensor *x = f32_tensor(2, dx, seed), *s = f32_tensor(0, NULL, seed);
  *out = NULL;
  *n_out = 0;
  if (m && w && x && s) {
    hr_tensor *args[4] = {(hr_tensor *)hr_weights_find(w, "dense.bias"), (hr_tensor *)hr_weights_find(w, "dense.kernel"),
                          x, s};
    CHECK_OK(hr_module_run(m, "main", args, 4, NULL, out, n_out));
  }
  hr_tensor_free(x);
  hr_tensor_free(s);
  hr_weights_free(w);
  hr_module_free(m);
}

/* Runs the dense program on batch `rows` and checks the results against the interpreter. */
static void run_dense_and_check(hr_program *p, int64_t rows, int seed) {
  int64_t dx[2] = {rows, 4};
  hr_tensor *in[2] = {f32_tensor(2, dx, seed), f32_tensor(0, NULL, seed)};
  hr_tensor **got = NULL, **want = NULL;
  int n_got = 0, n_want = 0;
  CHECK_OK(hr_program_run(p, in, 2, &got, &n_got));
  dense_reference(rows, seed, &want, &n_want);
  if (got && want) check_same_outputs(got, n_got, want, n_want, "program vs interpreter");
  hr_tensors_free(got, n_got);
  hr_tensors_free(want, n_want);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
}

/* ---------------------------------------------------------------------------------------------- */
/* Tests                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

TEST(binds_weights_by_key_path) {
  hr_program *p = dense_program();
  if (!p) return;
  CHECK_EQ_INT(hr_program_num_inputs(p), 2);
  CHECK(strcmp(hr_program_input_name(p, 0), "x") == 0);
  CHECK(strcmp(hr_program_input_name(p, 1), "arg3") == 0);
  CHECK(hr_program_input_name(p, 2) == NULL);
  hr_tensor_spec x = hr_program_input_spec(p, 0);
  CHECK(x.dtype == HR_F32 && x.shape.rank == 2 && x.shape.dims[0] == HR_DYNAMIC && x.shape.dims[1] == 4);
  CHECK(hr_program_input_spec(p, 5).dtype == HR_DTYPE_INVALID);
  CHECK_EQ_INT(hr_program_num_outputs(p), 2);
  hr_tensor_spec o = hr_program_output_spec(p, 1);
  CHECK(o.dtype == HR_F32 && o.shape.rank == 1 && o.shape.dims[0] == HR_DYNAMIC);
  hr_weights *w = hr_program_weights(p);
  CHECK(w && hr_program_bound(p, 0) == hr_weights_find(w, "dense.bias"));
  CHECK(hr_program_bound(p, 1) == hr_weights_find(w, "dense.kernel"));
  CHECK(hr_program_bound(p, 2) == NULL && hr_program_bound(p, 3) == NULL && hr_program_bound(p, 4) == NULL);
  CHECK(strcmp(hr_program_function(p), "main") == 0);
  CHECK(hr_module_find_func(hr_program_module(p), "main") != NULL);
  hr_program_free(p);
}

TEST(binding_type_mismatch) {
  hr_module *m = parse(dense_mlir);
  hr_weights *w = dense_weights(5); /* kernel 5x3 where the parameter is 4x3 */
  hr_program *p = NULL;
  hr_status s = m && w ? hr_program_create(m, "main", w, NULL, &p) : NULL;
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(hr_status_message(s), "prog.mlir:1:1: @main: weight 'dense.kernel' bound to parameter 1 "
                                           "(params['dense']['kernel']) is tensor<5x3xf32>, expected tensor<4x3xf32>");
  CHECK(p == NULL);
  hr_status_free(s);
}

TEST(missing_function_and_module) {
  hr_program *p = NULL;
  hr_status s = hr_program_create(parse(dense_mlir), "forward", dense_weights(4), NULL, &p);
  CHECK_EQ_INT(hr_status_code(s), HR_NOT_FOUND);
  CHECK_STR_CONTAINS(hr_status_message(s), "no function @forward");
  hr_status_free(s);
  s = hr_program_create(NULL, NULL, dense_weights(4), NULL, &p);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
}

TEST(jit_cache_hits_and_misses) {
  hr_program *p = dense_program();
  if (!p) return;
  CHECK_EQ_INT(hr_program_cache_size(p), 0);
  run_dense_and_check(p, 2, 1);
  CHECK_EQ_INT(hr_program_cache_size(p), 1);
  run_dense_and_check(p, 2, 2); /* same shapes, other values: a hit */
  CHECK_EQ_INT(hr_program_cache_size(p), 1);
  run_dense_and_check(p, 5, 3);
  CHECK_EQ_INT(hr_program_cache_size(p), 2);
  run_dense_and_check(p, 2, 4);
  run_dense_and_check(p, 5, 5);
  CHECK_EQ_INT(hr_program_cache_size(p), 2);
  run_dense_and_check(p, 0, 6); /* an empty batch */
  CHECK_EQ_INT(hr_program_cache_size(p), 3);
  hr_program_free(p);
}

TEST(cache_is_bounded) {
  hr_program *p = dense_program();
  if (!p) return;
  for (int64_t rows = 1; rows <= 70; rows++) {
    int64_t dx[2] = {rows, 4};
    hr_tensor *in[2] = {f32_tensor(2, dx, 1), f32_tensor(0, NULL, 1)};
    hr_tensor **got = NULL;
    int n = 0;
    CHECK_OK(hr_program_run(p, in, 2, &got, &n));
    CHECK(n == 2 && got && got[0]->shape.dims[0] == rows);
    hr_tensors_free(got, n);
    hr_tensor_free(in[0]);
    hr_tensor_free(in[1]);
  }
  CHECK_EQ_INT(hr_program_cache_size(p), 64);
  run_dense_and_check(p, 70, 2); /* recent entries survive and still give the right answers */
  run_dense_and_check(p, 1, 2);  /* evicted: compiled again */
  CHECK_EQ_INT(hr_program_cache_size(p), 64);
  hr_program_free(p);
}

TEST(input_errors) {
  hr_program *p = dense_program();
  if (!p) return;
  int64_t bad[2] = {2, 5}, good[2] = {2, 4};
  hr_tensor *x = f32_tensor(2, bad, 1), *s = f32_tensor(0, NULL, 1), *g = f32_tensor(2, good, 1);
  hr_tensor **out = NULL;
  int n = 0;
  hr_status st = hr_program_run(p, (hr_tensor *[]){x, s}, 2, &out, &n);
  CHECK_STR_CONTAINS(hr_status_message(st), "input 0 (x) of @main is tensor<2x5xf32>, expected tensor<?x4xf32>");
  hr_status_free(st);
  st = hr_program_run(p, (hr_tensor *[]){g}, 1, &out, &n);
  CHECK_STR_CONTAINS(hr_status_message(st), "@main takes 2 runtime inputs, 1 given");
  hr_status_free(st);
  st = hr_program_run(p, (hr_tensor *[]){g, NULL}, 2, &out, &n);
  CHECK_STR_CONTAINS(hr_status_message(st), "input 1 (arg3) is missing");
  hr_status_free(st);
  CHECK(out == NULL && n == 0);
  CHECK_EQ_INT(hr_program_cache_size(p), 0);
  /* Ahead-of-time: specs must be static and fit. */
  hr_executable *e = NULL;
  hr_tensor_spec specs[2] = {{HR_F32, {2, {HR_DYNAMIC, 4}}}, {HR_F32, {0, {0}}}};
  st = hr_program_compile(p, specs, 2, &e);
  CHECK_STR_CONTAINS(hr_status_message(st), "inputs need static shapes: input 0 (x) of @main is tensor<?x4xf32>");
  hr_status_free(st);
  specs[0].dtype = HR_F64;
  specs[0].shape.dims[0] = 3;
  st = hr_program_compile(p, specs, 2, &e);
  CHECK_STR_CONTAINS(hr_status_message(st), "input 0 (x) of @main is tensor<3x4xf64>, expected tensor<?x4xf32>");
  hr_status_free(st);
  st = hr_program_compile(p, specs, 1, &e);
  CHECK_EQ_INT(hr_status_code(st), HR_INVALID_ARGUMENT);
  hr_status_free(st);
  CHECK(e == NULL);
  hr_tensor_free(x);
  hr_tensor_free(s);
  hr_tensor_free(g);
  hr_program_free(p);
}

/* A residual MLP with a dynamic batch, x + tanh(x up) down, whose hidden layer takes 4 KiB per
 * example: at batch 3072 (12 MiB) a JIT call runs as 3 chunks of 1024 examples. */
static const char *const mlp_mlir =
    "func.func public @main(%up: tensor<64x1024xf32> {jax.arg_info = \"params['mlp']['up']\"},\n"
    "    %down: tensor<1024x64xf32> {jax.arg_info = \"params['mlp']['down']\"},\n"
    "    %x: tensor<?x64xf32> {jax.arg_info = \"x\"}) -> tensor<?x64xf32> {\n"
    "  %h = stablehlo.dot_general %x, %up, contracting_dims = [1] x [0] : (tensor<?x64xf32>, tensor<64x1024xf32>) -> "
    "tensor<?x1024xf32>\n"
    "  %a = stablehlo.tanh %h : tensor<?x1024xf32>\n"
    "  %o = stablehlo.dot_general %a, %down, contracting_dims = [1] x [0] : (tensor<?x1024xf32>, tensor<1024x64xf32>) "
    "-> tensor<?x64xf32>\n"
    "  %y = stablehlo.add %x, %o : tensor<?x64xf32>\n"
    "  return %y : tensor<?x64xf32>\n"
    "}\n";

/* The MLP program with its weights; `split`: batch splits allowed. */
static hr_program *mlp_program(bool split) {
  size_t n = (size_t)2 * 64 * 1024;
  float *backing = malloc(n * sizeof *backing);
  if (!backing) return NULL;
  for (size_t i = 0; i < n; i++) backing[i] = (float)((int)(i % 7) - 3) * 0.01f;
  hr_weights *w = NULL;
  CHECK_OK(hr_weights_create(NULL, 2, backing, n * sizeof *backing, release_heap, &w));
  hr_shape us = {.rank = 2, .dims = {64, 1024}}, ds = {.rank = 2, .dims = {1024, 64}};
  if (w) CHECK_OK(hr_weights_add(w, "mlp.up", HR_F32, &us, backing, n * 2));
  if (w) CHECK_OK(hr_weights_add(w, "mlp.down", HR_F32, &ds, backing + n / 2, n * 2));
  hr_exec_options opts = {.disable_batch_split = !split};
  hr_program *p = NULL;
  hr_module *m = parse(mlp_mlir);
  if (m && w) CHECK_OK(hr_program_create(m, NULL, w, &opts, &p));
  return p;
}

/* The chunks hr_program_run would run a call with input spec `x` in (1: whole); also checks the
 * part's batch. */
static int64_t planned_chunks(hr_program *p, hr_tensor_spec x) {
  hr_module *full = NULL, *part = NULL;
  int64_t chunks = 0;
  CHECK_OK(hr_program_plan_split(p, &x, &full, &part, &chunks));
  CHECK(full != NULL);
  CHECK((part != NULL) == (chunks > 1));
  if (part) {
    const hr_func *fn = hr_module_find_func(part, "main");
    CHECK(fn && fn->body.args[2].type.shape.dims[0] * chunks == x.shape.dims[0]);
  }
  hr_module_free(full);
  hr_module_free(part);
  return chunks;
}

TEST(batch_split_runs_large_batches_in_chunks) {
  hr_program *p = mlp_program(true), *whole = mlp_program(false);
  if (!p || !whole) {
    hr_program_free(p);
    hr_program_free(whole);
    return;
  }
  hr_tensor_spec big = {HR_F32, {2, {3072, 64}}}, small = {HR_F32, {2, {64, 64}}};
  CHECK_EQ_INT(planned_chunks(p, big), 3);     /* 12 MiB hidden: chunks of 1024 examples (4 MiB) */
  CHECK_EQ_INT(planned_chunks(p, small), 1);   /* 256 KiB: whole */
  CHECK_EQ_INT(planned_chunks(whole, big), 1); /* disable_batch_split */
  /* The chunked run computes what the whole one does, bit for bit, and stays one cache entry. */
  int64_t dx[2] = {3072, 64};
  hr_tensor *x = f32_tensor(2, dx, 3);
  hr_tensor **got = NULL, **want = NULL, **again = NULL;
  int n_got = 0, n_want = 0, n_again = 0;
  CHECK_OK(hr_program_run(p, &x, 1, &got, &n_got));
  CHECK_OK(hr_program_run(whole, &x, 1, &want, &n_want));
  CHECK_OK(hr_program_run(p, &x, 1, &again, &n_again));
  if (got && want) check_same_outputs(got, n_got, want, n_want, "chunked vs whole");
  if (got && again) check_same_outputs(again, n_again, got, n_got, "second chunked run");
  CHECK_EQ_INT(hr_program_cache_size(p), 1);
  /* Ahead of time the same: an executable in 3 chunks, whose specs are the whole batch's, which
   * gives the same results and rejects inputs of another batch. */
  hr_executable *e = NULL;
  CHECK_OK(hr_program_compile(p, &big, 1, &e));
  if (e) {
    CHECK_EQ_INT(hr_executable_chunks(e), 3);
    hr_tensor_spec in = hr_executable_input_spec(e, 0), out_spec = hr_executable_output_spec(e, 0);
    CHECK(hr_spec_equal(&in, &big) && hr_spec_equal(&out_spec, &big));
    hr_tensor **out = NULL;
    int n_out = 0;
    CHECK_OK(hr_executable_run(e, &x, 1, &out, &n_out));
    if (out && want) check_same_outputs(out, n_out, want, n_want, "AOT chunked vs whole");
    hr_tensors_free(out, n_out);
    int64_t d64[2] = {64, 64};
    hr_tensor *x64 = f32_tensor(2, d64, 1);
    out = NULL;
    n_out = 0;
    hr_status s = x64 ? hr_executable_run(e, &x64, 1, &out, &n_out) : NULL;
    CHECK(s != NULL && hr_status_code(s) == HR_INVALID_ARGUMENT);
    hr_status_free(s);
    CHECK(out == NULL && n_out == 0);
    hr_tensor_free(x64);
    s = hr_executable_set_chunks(e, 0);
    CHECK(s != NULL && hr_status_code(s) == HR_INVALID_ARGUMENT);
    hr_status_free(s);
    s = hr_executable_set_chunks(e, INT64_MAX / 2); /* the input's bytes would overflow */
    CHECK(s != NULL && hr_status_code(s) == HR_INVALID_ARGUMENT);
    hr_status_free(s);
    CHECK_EQ_INT(hr_executable_chunks(e), 3);
  }
  hr_executable_free(e);
  e = NULL;
  CHECK_OK(hr_program_compile(p, &small, 1, &e));
  if (e) CHECK_EQ_INT(hr_executable_chunks(e), 1);
  hr_executable_free(e);
  hr_tensors_free(got, n_got);
  hr_tensors_free(want, n_want);
  hr_tensors_free(again, n_again);
  hr_tensor_free(x);
  hr_program_free(p);
  hr_program_free(whole);
}

TEST(compiled_executable_outlives_program) {
  hr_program *p = dense_program();
  if (!p) return;
  hr_tensor_spec specs[2] = {{HR_F32, {2, {3, 4}}}, {HR_F32, {0, {0}}}};
  hr_executable *e = NULL;
  CHECK_OK(hr_program_compile(p, specs, 2, &e));
  CHECK_EQ_INT(hr_program_cache_size(p), 0); /* ahead-of-time compiles are not cached */
  hr_program_free(p);
  if (!e) return;
  CHECK_EQ_INT(hr_executable_num_inputs(e), 2);
  hr_tensor_spec o = hr_executable_output_spec(e, 0);
  CHECK(o.shape.rank == 2 && o.shape.dims[0] == 3 && o.shape.dims[1] == 3);
  CHECK(hr_executable_bound(e, 0) != NULL && hr_executable_bound(e, 2) == NULL);
  int64_t dx[2] = {3, 4};
  hr_tensor *in[2] = {f32_tensor(2, dx, 7), f32_tensor(0, NULL, 7)};
  hr_tensor **got = NULL, **want = NULL;
  int n_got = 0, n_want = 0;
  CHECK_OK(hr_executable_run(e, in, 2, &got, &n_got));
  dense_reference(3, 7, &want, &n_want);
  if (got && want) check_same_outputs(got, n_got, want, n_want, "executable after program freed");
  hr_tensors_free(got, n_got);
  hr_tensors_free(want, n_want);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
  hr_executable_free(e);
}

/* Two threads run the same program on two shapes each, alternating. */
typedef struct worker {
  hr_program *p;
  int seed;
  int failures;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  for (int r = 0; r < 20; r++) {
    int64_t rows = r % 2 ? 3 : 6;
    int64_t dx[2] = {rows, 4};
    hr_tensor *in[2] = {f32_tensor(2, dx, w->seed), f32_tensor(0, NULL, w->seed)};
    hr_tensor **got = NULL, **want = NULL;
    int n_got = 0, n_want = 0;
    hr_status s = hr_program_run(w->p, in, 2, &got, &n_got);
    dense_reference(rows, w->seed, &want, &n_want);
    if (s || !want || n_got != n_want) w->failures++;
    for (int i = 0; !s && want && i < n_got && i < n_want; i++) w->failures += !tensors_identical(got[i], want[i]);
    hr_status_free(s);
    hr_tensors_free(got, n_got);
    hr_tensors_free(want, n_want);
    hr_tensor_free(in[0]);
    hr_tensor_free(in[1]);
  }
  return NULL;
}

TEST(concurrent_runs) {
  hr_program *p = dense_program();
  if (!p) return;
  worker w[2] = {{p, 1, 0}, {p, 2, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, worker_main, &w[i]) == 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  CHECK_EQ_INT(w[0].failures + w[1].failures, 0);
  CHECK_EQ_INT(hr_program_cache_size(p), 2);
  hr_program_free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Shape-polymorphic conformance programs                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Creates a generated input as `hlorun check` does: dynamic dims and scalar integer parameters
 * without attributes (dimension variables) get `dim`, other elements small patterned values. */
static hr_tensor *generated_input(const hr_func *fn, int p, int64_t dim) {
  const hr_type *ty = &fn->body.args[p].type;
  hr_shape shape = ty->shape;
  for (int d = 0; d < shape.rank; d++)
    if (shape.dims[d] < 0) shape.dims[d] = dim;
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, ty->dtype, &shape, 0, &t));
  if (!t) return NULL;
  hr_dtype dt = t->dtype;
  for (int64_t i = 0; i < hr_tensor_num_elements(t); i++) {
    double v = (double)((i * 37) % 23) / 7.0 - 1.5;
    if (hr_dtype_is_complex(dt))
      hr_store_complex(dt, t->data, i, (hr_c128){v, 0.5 - v});
    else if (hr_dtype_is_float(dt))
      hr_store_float(dt, t->data, i, v);
    else
      hr_store_int(dt, t->data, i, dt == HR_I1 ? i % 2 : (i * 7 + 3) % 11);
  }
  bool int_scalar = shape.rank == 0 && (hr_dtype_is_signed_int(dt) || hr_dtype_is_unsigned_int(dt));
  if (int_scalar && !(fn->arg_attrs && fn->arg_attrs[p])) hr_store_int(dt, t->data, 0, dim);
  return t;
}

/* Runs one shape-polymorphic program as a program and through the interpreter. Returns whether
 * it compiled (programs hlorun cannot specialize are counted, not failed). */
static bool compare_polymorphic(const char *path, const char *name, int *interp_failed) {
  hr_module *m = NULL, *ref = NULL;
  CHECK_OK(hr_module_parse_file(path, NULL, &m));
  CHECK_OK(hr_module_parse_file(path, NULL, &ref));
  const hr_func *fn = ref ? hr_module_find_func(ref, "main") : NULL;
  if (!m || !fn || fn->n_args == 0 || fn->n_args > 16) {
    hr_module_free(m);
    hr_module_free(ref);
    return true;
  }
  hr_tensor *in[16] = {0};
  for (int i = 0; i < fn->n_args; i++) in[i] = generated_input(fn, i, 3);
  hr_tensor **want = NULL, **got = NULL;
  int n_want = 0, n_got = 0;
  hr_status s = hr_module_run(ref, "main", in, fn->n_args, NULL, &want, &n_want);
  if (s) (*interp_failed)++;
  hr_status_free(s);
  hr_program *p = NULL;
  CHECK_OK(hr_program_create(m, NULL, NULL, NULL, &p));
  bool compiled = true;
  if (p && want) {
    s = hr_program_run(p, in, fn->n_args, &got, &n_got);
    if (s && hr_status_code(s) == HR_UNIMPLEMENTED) {
      compiled = false;
    } else if (s) {
      fprintf(stderr, "%s: %s\n", name, hr_status_message(s));
      test_failures_++;
    }
    hr_status_free(s);
    if (got) check_same_outputs(got, n_got, want, n_want, name);
  }
  hr_tensors_free(want, n_want);
  hr_tensors_free(got, n_got);
  for (int i = 0; i < fn->n_args; i++) hr_tensor_free(in[i]);
  hr_program_free(p);
  hr_module_free(ref);
  return compiled;
}

/* Tallies of the conformance corpus walks. */
typedef struct corpus_counts {
  int yes, no, interp_failed;
} corpus_counts;

/* Calls visit(path, name, counts) for every shape-polymorphic conformance program
 * (*_dynamic.mlir); false when the corpus is absent (a user's clone). */
static bool for_each_polymorphic(void (*visit)(const char *, const char *, corpus_counts *), corpus_counts *counts) {
  const char *src = getenv("HLORUN_SOURCE_DIR");
  char dir[4096], path[8192];
  snprintf(dir, sizeof dir, "%s/../shared/conformance/stablehlo-testdata", src ? src : ".");
  DIR *d = opendir(dir);
  if (!d) return false;
  for (struct dirent *ent = readdir(d); ent; ent = readdir(d)) {
    size_t len = strlen(ent->d_name);
    if (len < 13 || strcmp(ent->d_name + len - 13, "_dynamic.mlir") != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    visit(path, ent->d_name, counts);
  }
  closedir(d);
  return true;
}

static void visit_polymorphic(const char *path, const char *name, corpus_counts *c) {
  if (compare_polymorphic(path, name, &c->interp_failed))
    c->yes++;
  else
    c->no++;
}

TEST(polymorphic_conformance_programs) {
  corpus_counts c = {0};
  if (!for_each_polymorphic(visit_polymorphic, &c)) return;
  printf("polymorphic conformance programs: %d compiled, %d not specializable, %d failing in the interpreter\n", c.yes,
         c.no, c.interp_failed);
  CHECK(c.yes > 0);
}

/* Whether an op of `b` (or of its ops' regions) reads `v`. */
static bool block_reads(const hr_block *b, const hr_value *v) {
  for (int i = 0; i < b->n_ops; i++) {
    const hr_op *op = b->ops[i];
    for (int k = 0; k < op->n_operands; k++)
      if (op->operands[k] == v) return true;
    for (int r = 0; r < op->n_regions; r++)
      if (block_reads(&op->regions[r], v)) return true;
  }
  return false;
}

/* @main of `m` specialized with dimension 0 `batch` where it is dynamic and other dynamic
 * dimensions 3 (folding as hr_program_plan_split does); tensor parameters of static dimension 0
 * stand for weights. Scalar integer parameters are dimension variables (`hlorun check` passes
 * them the dimension); the function must not read them once specialized, since the split check
 * takes parameters of equal types for equal values. NULL when that fails, or no parameter has a
 * dynamic dimension 0. */
static hr_module *specialized_at_batch(const hr_module *m, int64_t batch) {
  const hr_func *fn = hr_module_find_func(m, "main");
  if (!fn || fn->n_args == 0 || fn->n_args > 16) return NULL;
  hr_type types[16];
  for (int i = 0; i < fn->n_args; i++) {
    types[i] = fn->body.args[i].type;
    if (types[i].kind != HR_TYPE_TENSOR) return NULL;
    if (types[i].shape.rank == 0) continue; /* a dimension variable */
    if (types[i].shape.dims[0] == HR_DYNAMIC) types[i].shape.dims[0] = batch; /* else a weight, as if bound */
    for (int d = 1; d < types[i].shape.rank; d++)
      if (types[i].shape.dims[d] == HR_DYNAMIC) types[i].shape.dims[d] = 3;
  }
  bool batched = false;
  for (int i = 0; i < fn->n_args; i++)
    batched |= fn->body.args[i].type.shape.rank > 0 && fn->body.args[i].type.shape.dims[0] == HR_DYNAMIC;
  if (!batched) return NULL;
  hr_folder folder = hr_interp_folder();
  folder.max_fold_bytes = HR_MAX_RANK * 8;
  hr_module *out = NULL;
  hr_status s = hr_specialize(m, "main", types, fn->n_args, &folder, NULL, &out);
  hr_status_free(s);
  const hr_func *sf = out ? hr_module_find_func(out, "main") : NULL;
  for (int i = 0; sf && i < sf->n_args; i++)
    if (sf->body.args[i].type.shape.rank == 0 && block_reads(&sf->body, &sf->body.args[i])) {
      hr_module_free(out);
      return NULL;
    }
  return out;
}

/* A view of rows [c n / chunks, (c + 1) n / chunks) of `t` (dimension 0 n). */
static hr_tensor chunk_view(const hr_tensor *t, int64_t chunks, int64_t c) {
  hr_tensor v = *t;
  v.shape.dims[0] /= chunks;
  v.nbytes /= (size_t)chunks;
  v.data = (char *)t->data + (size_t)c * v.nbytes;
  v.allocator = NULL;
  return v;
}

/* For one polymorphic conformance program whose every parameter has a dynamic dimension 0: when
 * the split check lets batch 4 run as 2 chunks of 2, the interpreter's results at batch 4 must
 * equal, chunk by chunk and bit for bit, its results for each half of the inputs at batch 2.
 * Returns whether the check allowed the split (-1: not applicable). */
static int check_corpus_split(const char *path, const char *name) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse_file(path, NULL, &m));
  hr_module *full = m ? specialized_at_batch(m, 4) : NULL, *part = m ? specialized_at_batch(m, 2) : NULL;
  int verdict = -1;
  if (full && part) {
    hr_status s = hr_split_check(full, part, 2, hr_default_allocator());
    verdict = s == NULL;
    hr_status_free(s);
  }
  const hr_func *fn = full ? hr_module_find_func(full, "main") : NULL;
  const hr_func *part_fn = part ? hr_module_find_func(part, "main") : NULL;
  hr_tensor *in[16] = {0};
  hr_tensor **want = NULL;
  int n_want = 0;
  if (verdict == 1) {
    for (int i = 0; i < fn->n_args; i++) in[i] = generated_input(fn, i, 4);
    CHECK_OK(hr_module_run(full, "main", in, fn->n_args, NULL, &want, &n_want));
  }
  for (int64_t c = 0; want && c < 2; c++) {
    hr_tensor views[16], *args[16];
    for (int i = 0; i < fn->n_args; i++) { /* dimension variables (unread) and weights passed whole */
      bool rows = in[i]->shape.rank > 0 && part_fn->body.args[i].type.shape.dims[0] != in[i]->shape.dims[0];
      views[i] = rows ? chunk_view(in[i], 2, c) : *in[i];
      args[i] = &views[i];
    }
    hr_tensor **got = NULL;
    int n_got = 0;
    CHECK_OK(hr_module_run(part, "main", args, fn->n_args, NULL, &got, &n_got));
    for (int k = 0; got && k < n_got && k < n_want; k++) {
      hr_tensor w = chunk_view(want[k], 2, c);
      if (!tensors_identical(got[k], &w)) {
        fprintf(stderr, "%s: the split check allowed a split, but chunk %lld of result %d differs\n", name,
                (long long)c, k);
        test_failures_++;
      }
    }
    hr_tensors_free(got, n_got);
  }
  hr_tensors_free(want, n_want);
  for (int i = 0; fn && i < fn->n_args; i++) hr_tensor_free(in[i]);
  hr_module_free(full);
  hr_module_free(part);
  hr_module_free(m);
  return verdict;
}

static void visit_split(const char *path, const char *name, corpus_counts *c) {
  int verdict = check_corpus_split(path, name);
  c->yes += verdict == 1;
  c->no += verdict == 0;
}

/* The batch split check over the polymorphic conformance programs: sound wherever it says yes. */
TEST(batch_split_is_sound_on_conformance_programs) {
  corpus_counts c = {0};
  if (!for_each_polymorphic(visit_split, &c)) return;
  printf("batch split on polymorphic conformance programs: %d split (results equal), %d not split\n", c.yes, c.no);
  CHECK(c.yes > 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* TinyTransformer                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

static double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Largest |a - b| over two f32 tensors of equal shape (INFINITY when the shapes differ). */
static double max_abs_diff(const hr_tensor *a, const hr_tensor *b) {
  hr_tensor_spec sa = {a->dtype, a->shape}, sb = {b->dtype, b->shape};
  if (!hr_spec_equal(&sa, &sb) || a->dtype != HR_F32) return INFINITY;
  double m = 0;
  for (int64_t i = 0; i < hr_tensor_num_elements(a); i++) {
    double d = fabs((double)((const float *)a->data)[i] - (double)((const float *)b->data)[i]);
    if (!(d <= m)) m = d; /* NaN propagates */
  }
  return m;
}

/* Compiles the TinyTransformer for batch 1 and 64 and reports the plans; times runs at batch 1
 * (HLORUN_TT_RUNS of them, default 3). */
static void report_plans(hr_program *p) {
  const char *runs_env = getenv("HLORUN_TT_RUNS");
  int runs = runs_env ? atoi(runs_env) : 3;
  for (int batch = 1; batch <= 64; batch *= 64) {
    hr_tensor_spec spec = {HR_I32, {2, {batch, 256}}};
    hr_executable *e = NULL;
    double t0 = seconds_now();
    CHECK_OK(hr_program_compile(p, &spec, 1, &e));
    double t1 = seconds_now();
    if (!e) continue;
    hr_exec_stats st = hr_executable_stats(e);
    printf("tiny_transformer batch %d: compile %.3f s, %lld chunks of %d steps (%d wrapped), arena %zu bytes, "
           "intermediates %zu bytes, constants %zu bytes\n",
           batch, t1 - t0, (long long)hr_executable_chunks(e), st.num_steps, st.num_wrapped_steps, st.arena_bytes,
           st.intermediate_bytes, st.constant_bytes);
    CHECK(st.arena_bytes < st.intermediate_bytes);
    hr_tensor *in = NULL;
    CHECK_OK(hr_tensor_create(NULL, HR_I32, &spec.shape, 0, &in));
    t0 = seconds_now();
    for (int r = 0; in && batch == 1 && r < runs; r++) {
      hr_tensor **out = NULL;
      int n = 0;
      CHECK_OK(hr_executable_run(e, &in, 1, &out, &n));
      hr_tensors_free(out, n);
    }
    t1 = seconds_now();
    if (batch == 1 && runs > 0) printf("tiny_transformer batch 1: %.2f ms per run\n", (t1 - t0) * 1e3 / runs);
    hr_tensor_free(in);
    hr_executable_free(e);
  }
}

/* The TinyTransformer at batch 16 (the tokens' rows repeated): planned as 4 chunks of 4 (its
 * ffn activations, 1 MiB per sequence, exceed the split size at 16) and each repeat of the
 * logits within 1e-4 of the reference. */
static void check_split_batch(hr_program *p, const hr_tensor *tokens, const hr_tensor *ref) {
  int64_t rows = tokens->shape.dims[0];
  if (16 % rows != 0) return;
  hr_shape s16 = tokens->shape;
  s16.dims[0] = 16;
  hr_tensor *t16 = NULL;
  CHECK_OK(hr_tensor_create(NULL, tokens->dtype, &s16, 0, &t16));
  if (!t16) return;
  for (int64_t r = 0; r < 16 / rows; r++) memcpy((char *)t16->data + r * tokens->nbytes, tokens->data, tokens->nbytes);
  hr_tensor_spec spec = {t16->dtype, t16->shape};
  hr_module *full = NULL, *part = NULL;
  int64_t chunks = 0;
  CHECK_OK(hr_program_plan_split(p, &spec, &full, &part, &chunks));
  CHECK_EQ_INT(chunks, 4);
  hr_module_free(full);
  hr_module_free(part);
  hr_tensor **out = NULL;
  int n = 0;
  CHECK_OK(hr_program_run(p, &t16, 1, &out, &n));
  for (int64_t r = 0; out && n == 1 && r < 16 / rows; r++) {
    hr_tensor block = *out[0];
    block.shape.dims[0] = rows;
    block.nbytes = ref->nbytes;
    block.data = (char *)out[0]->data + r * ref->nbytes;
    double diff = max_abs_diff(&block, ref);
    if (r == 0) printf("tiny_transformer batch 16 in %lld chunks: max |diff| %.3g\n", (long long)chunks, diff);
    CHECK(diff < 1e-4);
  }
  hr_tensors_free(out, n);
  hr_tensor_free(t16);
}

/* Runs the TinyTransformer program on the tokens and compares with the reference, then reports
 * the plans. */
TEST(tiny_transformer) {
  const char *src = getenv("HLORUN_SOURCE_DIR"), *wpath = getenv("HLORUN_TT_WEIGHTS");
  const char *tpath = getenv("HLORUN_TT_TOKENS"), *rpath = getenv("HLORUN_TT_REFERENCE");
  if (!src || !wpath || !tpath || !rpath) return;
  char model[4200];
  snprintf(model, sizeof model, "%s/examples/tiny_transformer/model.mlir", src);
  hr_module *m = NULL;
  hr_weights *w = NULL;
  hr_tensor *tokens = NULL, *ref = NULL;
  hr_program *p = NULL;
  CHECK_OK(hr_module_parse_file(model, NULL, &m));
  CHECK_OK(hr_safetensors_read_file(wpath, NULL, 0, &w));
  CHECK_OK(hr_npy_read_file(tpath, NULL, 0, &tokens));
  CHECK_OK(hr_npy_read_file(rpath, NULL, 0, &ref));
  if (m && w) {
    CHECK_OK(hr_program_create(m, NULL, w, NULL, &p));
  } else {
    hr_module_free(m);
    hr_weights_free(w);
  }
  if (p && tokens && ref) {
    CHECK_EQ_INT(hr_program_num_inputs(p), 1);
    CHECK(strcmp(hr_program_input_name(p, 0), "tokens") == 0);
    hr_tensor **out = NULL;
    int n = 0;
    double t0 = seconds_now();
    CHECK_OK(hr_program_run(p, &tokens, 1, &out, &n));
    double t1 = seconds_now();
    if (out && n == 1) {
      double diff = max_abs_diff(out[0], ref);
      printf("tiny_transformer batch %lld: max |diff| %.3g (first run with compile %.3f s)\n",
             (long long)tokens->shape.dims[0], diff, t1 - t0);
      CHECK(diff < 1e-4);
    }
    hr_tensor **again = NULL;
    int n_again = 0;
    CHECK_OK(hr_program_run(p, &tokens, 1, &again, &n_again)); /* a cache hit, same results */
    if (out && again) check_same_outputs(again, n_again, out, n, "second run");
    CHECK_EQ_INT(hr_program_cache_size(p), 1);
    hr_tensors_free(again, n_again);
    hr_tensors_free(out, n);
    report_plans(p);
    check_split_batch(p, tokens, ref);
  }
  hr_program_free(p);
  hr_tensor_free(tokens);
  hr_tensor_free(ref);
}

int main(void) {
  if (getenv("HLORUN_TT_WEIGHTS")) { /* test_program_tiny.sh: the model only */
    RUN(tiny_transformer);
    TEST_MAIN_END();
  }
  RUN(binds_weights_by_key_path);
  RUN(binding_type_mismatch);
  RUN(missing_function_and_module);
  RUN(jit_cache_hits_and_misses);
  RUN(cache_is_bounded);
  RUN(input_errors);
  RUN(compiled_executable_outlives_program);
  RUN(batch_split_runs_large_batches_in_chunks);
  RUN(concurrent_runs);
  RUN(polymorphic_conformance_programs);
  RUN(batch_split_is_sound_on_conformance_programs);
  TEST_MAIN_END();
}

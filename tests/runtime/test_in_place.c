/* Updates in place (runtime/executable.c, "Updates in place"): a donated input whose output is a
 * scatter of it (the KV-cache update of a decode step) is updated in its own buffer when
 * hr_executable_run_into is given that buffer as the output; the outputs are the same bit for bit
 * as a run into fresh buffers, whole and in chunks, and the plan falls back to copying when a later
 * step reads the input (directly or in a region: a wrapped step) or another input shares its
 * buffer. */
#include <stdint.h>

#include "runtime/exec_internal.h"
#include "test.h"
#include "same_outputs.h"

/* The decode step's cache update as jax.vmap(lax.dynamic_update_slice) lowers it: row b of the
 * cache [B, 8, 2, 4] gets upd[b] at position pos[b] (clamped), then the updated cache is read by a
 * reduction. `extra` is spliced in before the return (it may read %cache after the update). */
#define DECODE_MLIR(B, extra, extra_types, extra_results)                                                  \
  "func.func @main(%cache: tensor<" #B "x8x2x4xf32> {tf.aliasing_output = 0 : i32}, %upd: tensor<" #B     \
  "x1x2x4xf32>, %pos: tensor<" #B "xi32>) -> (tensor<" #B "x8x2x4xf32>, tensor<" #B "xf32>" extra_types    \
  ") {\n"                                                                                                    \
  "  %lo = stablehlo.constant dense<0> : tensor<" #B "x3xi32>\n"                                            \
  "  %hi = stablehlo.constant dense<[7, 0, 0]> : tensor<3xi32>\n"                                         \
  "  %hib = stablehlo.broadcast_in_dim %hi, dims = [1] : (tensor<3xi32>) -> tensor<" #B "x3xi32>\n"        \
  "  %p = stablehlo.reshape %pos : (tensor<" #B "xi32>) -> tensor<" #B "x1xi32>\n"                          \
  "  %z = stablehlo.constant dense<0> : tensor<" #B "x2xi32>\n"                                            \
  "  %idx0 = stablehlo.concatenate %p, %z, dim = 1 : (tensor<" #B "x1xi32>, tensor<" #B "x2xi32>) -> tensor<" #B \
  "x3xi32>\n"                                                                                                \
  "  %idx = stablehlo.clamp %lo, %idx0, %hib : tensor<" #B "x3xi32>\n"                                      \
  "  %new = \"stablehlo.scatter\"(%cache, %idx, %upd) <{indices_are_sorted = true, scatter_dimension_numbers " \
  "= #stablehlo.scatter<update_window_dims = [1, 2, 3], input_batching_dims = [0], "                         \
  "scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1, 2, 3], index_vector_dim = 1>, "   \
  "unique_indices = true}> ({\n"                                                                             \
  "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"                                                              \
  "    stablehlo.return %y : tensor<f32>\n"                                                                  \
  "  }) : (tensor<" #B "x8x2x4xf32>, tensor<" #B "x3xi32>, tensor<" #B "x1x2x4xf32>) -> tensor<" #B          \
  "x8x2x4xf32>\n"                                                                                            \
  "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"                                                 \
  "  %sum = stablehlo.reduce(%new init: %zero) applies stablehlo.add across dimensions = [1, 2, 3] : "       \
  "(tensor<" #B "x8x2x4xf32>, tensor<f32>) -> tensor<" #B "xf32>\n" extra                                    \
  "  return %new, %sum" extra_results " : tensor<" #B "x8x2x4xf32>, tensor<" #B "xf32>" extra_types "\n"    \
  "}\n"

/* The update alone. */
static const char *const update_mlir = DECODE_MLIR(2, "", "", "");
/* The cache input read again after the update: it must not be updated in place. */
static const char *const reread_mlir =
    DECODE_MLIR(2, "  %old = stablehlo.multiply %cache, %cache : tensor<2x8x2x4xf32>\n", ", tensor<2x8x2x4xf32>",
                ", %old");
/* ... read inside the region of a later op (a wrapped step): neither. */
static const char *const wrapped_reread_mlir =
    DECODE_MLIR(2,
                "  %t = stablehlo.constant dense<true> : tensor<i1>\n"
                "  %old = \"stablehlo.if\"(%t) ({\n"
                "    %o1 = stablehlo.add %cache, %cache : tensor<2x8x2x4xf32>\n"
                "    stablehlo.return %o1 : tensor<2x8x2x4xf32>\n"
                "  }, {\n"
                "    stablehlo.return %cache : tensor<2x8x2x4xf32>\n"
                "  }) : (tensor<i1>) -> tensor<2x8x2x4xf32>\n",
                ", tensor<2x8x2x4xf32>", ", %old");

static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("in_place.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* A new tensor of `spec` filled with a pattern (seeded). */
static hr_tensor *filled(hr_dtype dtype, int rank, const int64_t *dims, int seed) {
  hr_shape s = {.rank = rank};
  for (int i = 0; i < rank; i++) s.dims[i] = dims[i];
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, dtype, &s, 0, &t));
  int64_t n = t ? hr_tensor_num_elements(t) : 0;
  for (int64_t i = 0; i < n; i++) {
    if (dtype == HR_F32) ((float *)t->data)[i] = (float)((i * 7 + seed * 13) % 23) * 0.125f - 1.0f;
    if (dtype == HR_I32) ((int32_t *)t->data)[i] = (int32_t)((i * 5 + seed) % 11) - 1; /* -1..9: clamped too */
  }
  return t;
}

/* A fresh copy of `t`. */
static hr_tensor *copy_of(const hr_tensor *t) {
  hr_tensor *c = NULL;
  CHECK_OK(hr_tensor_create(NULL, t->dtype, &t->shape, 0, &c));
  if (c) memcpy(c->data, t->data, t->nbytes);
  return c;
}

/* Creates the executable of `text` (planned for batch 2) split into `chunks`. */
static hr_executable *create(const char *text, int64_t chunks) {
  hr_module *m = parse(text);
  hr_executable *e = NULL;
  hr_exec_options eo = {.num_threads = 2};
  if (m) CHECK_OK(hr_executable_create(m, NULL, NULL, &eo, &e));
  if (e && chunks > 1) CHECK_OK(hr_executable_set_chunks(e, chunks));
  return e;
}

/* The inputs for a batch of `b` rows. */
static void make_inputs(int64_t b, int seed, hr_tensor **in) {
  int64_t cache[] = {b, 8, 2, 4}, upd[] = {b, 1, 2, 4}, pos[] = {b};
  in[0] = filled(HR_F32, 4, cache, seed);
  in[1] = filled(HR_F32, 4, upd, seed + 1);
  in[2] = filled(HR_I32, 1, pos, seed + 2);
}

/* Runs `text` twice on the same inputs, into fresh outputs (hr_executable_run) and into the cache
 * input's own buffer (hr_executable_run_into, output 0 = input 0), over several steps (each
 * feeding the updated cache back), and checks the outputs agree bit for bit at every step. */
static void check_in_place(const char *text, int n_outputs, int64_t chunks, int want_in_place) {
  hr_executable *e = create(text, chunks);
  if (!e) return;
  CHECK_EQ_INT(hr_executable_stats(e).num_in_place, want_in_place);
  CHECK_EQ_INT(hr_executable_donated_output(e, 0), 0);
  hr_tensor *in[3];
  make_inputs(2 * chunks, 3, in);
  hr_tensor *cache = copy_of(in[0]); /* updated in place, step after step */
  for (int step = 0; step < 4 && cache; step++) {
    hr_tensor **want = NULL;
    int n_want = 0;
    CHECK_OK(hr_executable_run(e, in, 3, &want, &n_want));
    hr_tensor *outs[3] = {cache, NULL, NULL};
    for (int j = 1; j < n_outputs; j++) {
      hr_tensor_spec s = hr_executable_output_spec(e, j);
      CHECK_OK(hr_tensor_create(NULL, s.dtype, &s.shape, 0, &outs[j]));
    }
    hr_tensor *into_in[3] = {cache, in[1], in[2]};
    CHECK_OK(hr_executable_run_into(e, into_in, 3, NULL, outs, n_outputs));
    if (want) check_same_outputs(outs, n_outputs, want, n_want, "in place vs copied");
    for (int j = 1; j < n_outputs; j++) hr_tensor_free(outs[j]);
    /* The next step starts from the updated cache, new updates and positions. */
    if (want) memcpy(in[0]->data, want[0]->data, in[0]->nbytes);
    ((float *)in[1]->data)[step] += 1.0f;
    ((int32_t *)in[2]->data)[0] = (((int32_t *)in[2]->data)[0] + 3) % 8;
    hr_tensors_free(want, n_want);
  }
  hr_tensor_free(cache);
  for (int i = 0; i < 3; i++) hr_tensor_free(in[i]);
  hr_executable_free(e);
}

TEST(updates_in_place_whole_and_in_chunks) {
  check_in_place(update_mlir, 2, 1, 1);
  check_in_place(update_mlir, 2, 3, 1);
}

TEST(input_read_after_the_update_is_not_clobbered) {
  check_in_place(reread_mlir, 3, 1, 0);
  check_in_place(reread_mlir, 3, 2, 0);
  check_in_place(wrapped_reread_mlir, 3, 1, 0);
  check_in_place(wrapped_reread_mlir, 3, 2, 0);
}

/* Run into other buffers: the input stays as it was, the results are those of a plain run, and a
 * later run in place still gives them. */
TEST(other_buffers_copy) {
  hr_executable *e = create(update_mlir, 1);
  if (!e) return;
  hr_tensor *in[3];
  make_inputs(2, 5, in);
  hr_tensor *before = copy_of(in[0]), *out0 = copy_of(in[0]), *out1 = NULL;
  hr_tensor_spec s = hr_executable_output_spec(e, 1);
  CHECK_OK(hr_tensor_create(NULL, s.dtype, &s.shape, 0, &out1));
  hr_tensor **want = NULL;
  int n_want = 0;
  CHECK_OK(hr_executable_run(e, in, 3, &want, &n_want));
  hr_tensor *outs[2] = {out0, out1};
  CHECK_OK(hr_executable_run_into(e, in, 3, NULL, outs, 2));
  CHECK(tensors_identical(in[0], before));
  if (want) check_same_outputs(outs, 2, want, n_want, "other buffers vs copied");
  /* In place now, then a plain run again: the plan is back in its arena. */
  outs[0] = in[0];
  CHECK_OK(hr_executable_run_into(e, in, 3, NULL, outs, 2));
  if (want) check_same_outputs(outs, 2, want, n_want, "in place vs copied");
  hr_tensor **again = NULL;
  int n_again = 0;
  memcpy(in[0]->data, before->data, before->nbytes);
  CHECK_OK(hr_executable_run(e, in, 3, &again, &n_again));
  if (want && again) check_same_outputs(again, n_again, want, n_want, "copied after in place");
  CHECK(tensors_identical(in[0], before));
  hr_tensors_free(again, n_again);
  hr_tensors_free(want, n_want);
  hr_tensor_free(before);
  hr_tensor_free(out0);
  hr_tensor_free(out1);
  for (int i = 0; i < 3; i++) hr_tensor_free(in[i]);
  hr_executable_free(e);
}

/* A second input given the same buffer as the donated one, read after the update: no update in
 * place (it would change what that input reads). */
static const char *const shared_mlir =
    "func.func @main(%cache: tensor<2x8xf32> {tf.aliasing_output = 0 : i32}, %other: tensor<2x8xf32>, %upd: "
    "tensor<2x1xf32>, %idx: tensor<2x2xi32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {\n"
    "  %new = \"stablehlo.scatter\"(%cache, %idx, %upd) <{scatter_dimension_numbers = "
    "#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], "
    "index_vector_dim = 1>}> ({\n"
    "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
    "    stablehlo.return %y : tensor<f32>\n"
    "  }) : (tensor<2x8xf32>, tensor<2x2xi32>, tensor<2x1xf32>) -> tensor<2x8xf32>\n"
    "  %twice = stablehlo.add %other, %other : tensor<2x8xf32>\n"
    "  return %new, %twice : tensor<2x8xf32>, tensor<2x8xf32>\n"
    "}\n";

TEST(shared_input_buffer_is_not_updated_in_place) {
  hr_executable *e = create(shared_mlir, 1);
  if (!e) return;
  CHECK_EQ_INT(hr_executable_stats(e).num_in_place, 1);
  int64_t cd[] = {2, 8}, ud[] = {2, 1}, id[] = {2, 2};
  hr_tensor *cache = filled(HR_F32, 2, cd, 1), *upd = filled(HR_F32, 2, ud, 2), *idx = filled(HR_I32, 2, id, 0);
  ((int32_t *)idx->data)[0] = 1, ((int32_t *)idx->data)[1] = 3, ((int32_t *)idx->data)[2] = 0,
                           ((int32_t *)idx->data)[3] = 6;
  hr_tensor *in[4] = {cache, cache, upd, idx};
  hr_tensor **want = NULL;
  int n_want = 0;
  CHECK_OK(hr_executable_run(e, in, 4, &want, &n_want));
  hr_tensor *twice = NULL;
  hr_tensor_spec s = hr_executable_output_spec(e, 1);
  CHECK_OK(hr_tensor_create(NULL, s.dtype, &s.shape, 0, &twice));
  hr_tensor *outs[2] = {cache, twice};
  CHECK_OK(hr_executable_run_into(e, in, 4, NULL, outs, 2));
  if (want) check_same_outputs(outs, 2, want, n_want, "shared input vs copied");
  hr_tensors_free(want, n_want);
  hr_tensor_free(twice);
  hr_tensor_free(cache);
  hr_tensor_free(upd);
  hr_tensor_free(idx);
  hr_executable_free(e);
}

int main(void) {
  RUN(updates_in_place_whole_and_in_chunks);
  RUN(input_read_after_the_update_is_not_clobbered);
  RUN(other_buffers_copy);
  RUN(shared_input_buffer_is_not_updated_in_place);
  TEST_MAIN_END();
}

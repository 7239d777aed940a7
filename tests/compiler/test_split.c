/* Batch splitting (compiler/split.h) on small hand-written modules: a function whose every op
 * keeps examples apart splits, one per way of mixing examples (a reduction, a dot product or
 * concatenation over the batch, an iota along it, a strided slice of it, an unknown custom call,
 * a result without the batch) does not, and the chunk size follows the largest input-dependent
 * value. Each module is written for batch @B@ and specialized at 8 (the full call) and 2 (the
 * part: 4 chunks). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "compiler/specialize.h"
#include "compiler/split.h"
#include "runtime/executable.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* `text` with every "@B@" replaced by `batch` and every "@B4@" by 4 x batch (caller frees). */
static char *at_batch(const char *text, int64_t batch) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  for (const char *p = text; *p;) {
    if (strncmp(p, "@B@", 3) == 0) {
      hr_strbuf_printf(&sb, "%lld", (long long)batch);
      p += 3;
    } else if (strncmp(p, "@B4@", 4) == 0) {
      hr_strbuf_printf(&sb, "%lld", (long long)(4 * batch));
      p += 4;
    } else {
      hr_strbuf_putc(&sb, *p++);
    }
  }
  char *out = strdup(sb.data ? sb.data : "");
  hr_strbuf_free(&sb);
  return out;
}

/* The module written for `batch`, specialized as hr_program_plan_split does (small folds only). */
static hr_module *specialized_at(const char *text, int64_t batch) {
  char *src = at_batch(text, batch);
  hr_module *m = NULL, *out = NULL;
  CHECK_OK(hr_module_parse("split.mlir", src, strlen(src), NULL, &m));
  free(src);
  if (!m) return NULL;
  const hr_func *fn = hr_module_find_func(m, "main");
  hr_type types[8];
  for (int i = 0; i < fn->n_args && i < 8; i++) types[i] = fn->body.args[i].type;
  hr_folder folder = hr_interp_folder();
  folder.max_fold_bytes = 128;
  CHECK_OK(hr_specialize(m, "main", types, fn->n_args, &folder, NULL, &out));
  hr_module_free(m);
  return out;
}

/* Checks that the module splits from batch 8 into 4 runs of batch 2 (want_reason NULL), or that
 * it does not, with an error containing `want_reason`. */
static void check_split(const char *text, const char *want_reason) {
  hr_module *full = specialized_at(text, 8), *part = specialized_at(text, 2);
  if (full && part) {
    hr_status s = hr_split_check(full, part, 4, hr_default_allocator());
    if (!want_reason) {
      if (s) fprintf(stderr, "    unexpected: %s\n", hr_status_message(s));
      CHECK(s == NULL);
    } else {
      CHECK(s != NULL);
      if (s) {
        CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
        CHECK_STR_CONTAINS(hr_status_message(s), want_reason);
      }
    }
    hr_status_free(s);
  }
  hr_module_free(full);
  hr_module_free(part);
}

/* ---------------------------------------------------------------------------------------------- */
/* Tests                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Every rule that keeps examples apart, in one function with three batch-shaped inputs' worth of
 * values: a dense layer, broadcast constants and an iota across, reshapes through a flat vector,
 * a transpose keeping dimension 0, a reduction and a concatenation along other dimensions, a
 * whole slice, an embedding gather and a batched dot product. */
TEST(per_example_function_splits) {
  check_split(
      "func.func @main(%x: tensor<@B@x4xf32>, %w: tensor<4x3xf32>, %emb: tensor<10x4xf32>, %ids: tensor<@B@x5xi32>)\n"
      "    -> (tensor<@B@x3xf32>, tensor<@B@x4xf32>, tensor<@B@x5x5xf32>) {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<@B@x4xf32>, tensor<4x3xf32>) -> "
      "tensor<@B@x3xf32>\n"
      "  %c = stablehlo.constant dense<1.0> : tensor<f32>\n"
      "  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<@B@x3xf32>\n"
      "  %i = stablehlo.iota dim = 1 : tensor<@B@x3xf32>\n"
      "  %1 = stablehlo.add %0, %cb : tensor<@B@x3xf32>\n"
      "  %2 = stablehlo.multiply %1, %i : tensor<@B@x3xf32>\n"
      "  %r = stablehlo.reshape %x : (tensor<@B@x4xf32>) -> tensor<@B4@xf32>\n"
      "  %r2 = stablehlo.reshape %r : (tensor<@B4@xf32>) -> tensor<@B@x2x2xf32>\n"
      "  %t = stablehlo.transpose %r2, dims = [0, 2, 1] : (tensor<@B@x2x2xf32>) -> tensor<@B@x2x2xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %s = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [2] : (tensor<@B@x2x2xf32>, "
      "tensor<f32>) -> tensor<@B@x2xf32>\n"
      "  %cat = stablehlo.concatenate %s, %s, dim = 1 : (tensor<@B@x2xf32>, tensor<@B@x2xf32>) -> tensor<@B@x4xf32>\n"
      "  %sl = \"stablehlo.slice\"(%cat) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: @B@, 4>, "
      "strides = array<i64: 1, 1>}> : (tensor<@B@x4xf32>) -> tensor<@B@x3xf32>\n"
      "  %sum = stablehlo.add %sl, %2 : tensor<@B@x3xf32>\n"
      "  %idx = stablehlo.reshape %ids : (tensor<@B@x5xi32>) -> tensor<@B@x5x1xi32>\n"
      "  %g = \"stablehlo.gather\"(%emb, %idx) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], "
      "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 4>}> : "
      "(tensor<10x4xf32>, tensor<@B@x5x1xi32>) -> tensor<@B@x5x4xf32>\n"
      "  %bd = stablehlo.dot_general %g, %g, batching_dims = [0] x [0], contracting_dims = [2] x [2] : "
      "(tensor<@B@x5x4xf32>, tensor<@B@x5x4xf32>) -> tensor<@B@x5x5xf32>\n"
      "  return %sum, %cat, %bd : tensor<@B@x3xf32>, tensor<@B@x4xf32>, tensor<@B@x5x5xf32>\n"
      "}\n",
      NULL);
}

/* A scatter whose update windows span dimension 0 (each example's updates land in its rows)
 * splits; one whose indices address dimension 0 does not. */
TEST(scatter_along_other_dimensions_splits) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>, %u: tensor<@B@x2xf32>) -> tensor<@B@x4xf32> {\n"
              "  %i = stablehlo.constant dense<[[0], [2]]> : tensor<2x1xi32>\n"
              "  %y = \"stablehlo.scatter\"(%x, %i, %u) ({\n"
              "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
              "    %s = stablehlo.add %a, %b : tensor<f32>\n"
              "    stablehlo.return %s : tensor<f32>\n"
              "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = "
              "[1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>} : (tensor<@B@x4xf32>, tensor<2x1xi32>, "
              "tensor<@B@x2xf32>) -> tensor<@B@x4xf32>\n"
              "  return %y : tensor<@B@x4xf32>\n"
              "}\n",
              NULL);
  check_split("func.func @main(%x: tensor<@B@x4xf32>, %u: tensor<2x4xf32>) -> tensor<@B@x4xf32> {\n"
              "  %i = stablehlo.constant dense<[[0], [2]]> : tensor<2x1xi32>\n"
              "  %y = \"stablehlo.scatter\"(%x, %i, %u) ({\n"
              "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
              "    %s = stablehlo.add %a, %b : tensor<f32>\n"
              "    stablehlo.return %s : tensor<f32>\n"
              "  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = "
              "[0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<@B@x4xf32>, tensor<2x1xi32>, "
              "tensor<2x4xf32>) -> tensor<@B@x4xf32>\n"
              "  return %y : tensor<@B@x4xf32>\n"
              "}\n",
              "scatters values that are not batch-shaped");
}

TEST(reduction_over_the_batch_does_not_split) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B@x4xf32> {\n"
              "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
              "  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : "
              "(tensor<@B@x4xf32>, tensor<f32>) -> tensor<4xf32>\n"
              "  %b = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<4xf32>) -> tensor<@B@x4xf32>\n"
              "  %d = stablehlo.divide %x, %b : tensor<@B@x4xf32>\n"
              "  return %d : tensor<@B@x4xf32>\n"
              "}\n",
              "reduces the batch to a value of fixed shape");
}

TEST(dot_over_the_batch_does_not_split) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B@x4xf32> {\n"
              "  %g = stablehlo.dot_general %x, %x, contracting_dims = [0] x [0] : (tensor<@B@x4xf32>, "
              "tensor<@B@x4xf32>) -> tensor<4x4xf32>\n"
              "  %y = stablehlo.dot_general %x, %g, contracting_dims = [1] x [0] : (tensor<@B@x4xf32>, "
              "tensor<4x4xf32>) -> tensor<@B@x4xf32>\n"
              "  return %y : tensor<@B@x4xf32>\n"
              "}\n",
              "reduces the batch to a value of fixed shape");
}

/* The batch size as a value (folded to a constant of equal type but another value in the part). */
TEST(batch_size_as_a_value_does_not_split) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B@x4xf32> {\n"
              "  %d = stablehlo.get_dimension_size %x, dim = 0 : (tensor<@B@x4xf32>) -> tensor<i32>\n"
              "  %f = stablehlo.convert %d : (tensor<i32>) -> tensor<f32>\n"
              "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
              "  %y = stablehlo.clamp %z, %x, %f : (tensor<f32>, tensor<@B@x4xf32>, tensor<f32>) -> tensor<@B@x4xf32>\n"
              "  return %y : tensor<@B@x4xf32>\n"
              "}\n",
              "a constant depends on the batch size");
}

TEST(iota_along_the_batch_does_not_split) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B@x4xf32> {\n"
              "  %i = stablehlo.iota dim = 0 : tensor<@B@x4xf32>\n"
              "  %y = stablehlo.add %x, %i : tensor<@B@x4xf32>\n"
              "  return %y : tensor<@B@x4xf32>\n"
              "}\n",
              "a batch-shaped constant differs between examples"); /* the iota, folded */
  check_split("func.func @main(%x: tensor<@B@x64xf32>) -> tensor<@B@x64xf32> {\n"
              "  %i = stablehlo.iota dim = 0 : tensor<@B@x64xf32>\n" /* too large to fold */
              "  %y = stablehlo.add %x, %i : tensor<@B@x64xf32>\n"
              "  return %y : tensor<@B@x64xf32>\n"
              "}\n",
              "counts along the batch dimension");
}

/* Twice the batch and every other example: the types scale like a split's, the values do not. */
TEST(concatenation_and_strided_slice_along_the_batch_do_not_split) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B4@x4xf32> {\n"
              "  %c = stablehlo.concatenate %x, %x, %x, %x, dim = 0 : (tensor<@B@x4xf32>, tensor<@B@x4xf32>, "
              "tensor<@B@x4xf32>, tensor<@B@x4xf32>) -> tensor<@B4@x4xf32>\n"
              "  return %c : tensor<@B4@x4xf32>\n"
              "}\n",
              "concatenates along the batch dimension");
  check_split("func.func @main(%x: tensor<@B4@x4xf32>) -> tensor<@B@x4xf32> {\n"
              "  %s = \"stablehlo.slice\"(%x) <{start_indices = array<i64: 0, 0>, limit_indices = array<i64: @B4@, 4>, "
              "strides = array<i64: 4, 1>}> : (tensor<@B4@x4xf32>) -> tensor<@B@x4xf32>\n"
              "  return %s : tensor<@B@x4xf32>\n"
              "}\n",
              "slices the batch dimension");
}

TEST(transpose_and_reshape_moving_the_batch_do_not_split) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<4x@B@xf32> {\n"
              "  %t = stablehlo.transpose %x, dims = [1, 0] : (tensor<@B@x4xf32>) -> tensor<4x@B@xf32>\n"
              "  return %t : tensor<4x@B@xf32>\n"
              "}\n",
              "does not scale with the batch");
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<2x@B@x2xf32> {\n"
              "  %r = stablehlo.reshape %x : (tensor<@B@x4xf32>) -> tensor<2x@B@x2xf32>\n"
              "  return %r : tensor<2x@B@x2xf32>\n"
              "}\n",
              "does not scale with the batch");
}

TEST(custom_call_and_fixed_results_do_not_split) {
  check_split("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B@x4xf32> {\n"
              "  %y = stablehlo.custom_call @opaque(%x) : (tensor<@B@x4xf32>) -> tensor<@B@x4xf32>\n"
              "  return %y : tensor<@B@x4xf32>\n"
              "}\n",
              "has no rule for splitting the batch");
  check_split("func.func @main(%x: tensor<@B@x4xf32>, %w: tensor<4xf32>) -> (tensor<@B@x4xf32>, tensor<4xf32>) {\n"
              "  %y = stablehlo.negate %x : tensor<@B@x4xf32>\n"
              "  return %y, %w : tensor<@B@x4xf32>, tensor<4xf32>\n"
              "}\n",
              "a result is not batch-shaped");
}

/* Two different functions are not specializations of one. */
TEST(different_programs_do_not_split) {
  hr_module *full = specialized_at("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B@x4xf32> {\n"
                                   "  %y = stablehlo.negate %x : tensor<@B@x4xf32>\n"
                                   "  return %y : tensor<@B@x4xf32>\n"
                                   "}\n",
                                   8);
  hr_module *part = specialized_at("func.func @main(%x: tensor<@B@x4xf32>) -> tensor<@B@x4xf32> {\n"
                                   "  %y = stablehlo.abs %x : tensor<@B@x4xf32>\n"
                                   "  return %y : tensor<@B@x4xf32>\n"
                                   "}\n",
                                   2);
  if (full && part) {
    hr_status s = hr_split_check(full, part, 4, hr_default_allocator());
    CHECK(s != NULL);
    if (s) CHECK_STR_CONTAINS(hr_status_message(s), "differs");
    hr_status_free(s);
  }
  hr_module_free(full);
  hr_module_free(part);
}

/* The chunk size: the largest divisor of the batch at which the largest value computed from the
 * runtime input (a 64 x 1024 f32 product: 256 KiB) fits; values of the weights alone (a 1 MiB
 * transpose) do not count. */
TEST(chunk_size_follows_the_largest_input_value) {
  const char *text = "func.func @main(%x: tensor<@B@x256xf32>, %w: tensor<256x1024xf32>) -> (tensor<@B@x1024xf32>, "
                     "tensor<1024x256xf32>) {\n"
                     "  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<@B@x256xf32>, "
                     "tensor<256x1024xf32>) -> tensor<@B@x1024xf32>\n"
                     "  %t = stablehlo.transpose %w, dims = [1, 0] : (tensor<256x1024xf32>) -> tensor<1024x256xf32>\n"
                     "  return %y, %t : tensor<@B@x1024xf32>, tensor<1024x256xf32>\n"
                     "}\n";
  const bool is_input[2] = {true, false};
  const hr_allocator *a = hr_default_allocator();
  hr_module *m64 = specialized_at(text, 64), *m12 = specialized_at(text, 12);
  if (m64) {
    CHECK_EQ_INT(hr_split_batch(m64, is_input, 64, (size_t)512 << 10, a), 64); /* fits whole */
    CHECK_EQ_INT(hr_split_batch(m64, is_input, 64, (size_t)64 << 10, a), 16);
    CHECK_EQ_INT(hr_split_batch(m64, is_input, 64, (size_t)100 << 10, a), 16); /* 25 rows fit: 16 divides */
    CHECK_EQ_INT(hr_split_batch(m64, is_input, 64, 1024, a), 1);              /* not even one row fits */
  }
  if (m12) CHECK_EQ_INT(hr_split_batch(m12, is_input, 12, (size_t)20 << 10, a), 4); /* 5 rows fit: 4 divides 12 */
  hr_module_free(m64);
  hr_module_free(m12);
}

int main(void) {
  RUN(per_example_function_splits);
  RUN(scatter_along_other_dimensions_splits);
  RUN(reduction_over_the_batch_does_not_split);
  RUN(dot_over_the_batch_does_not_split);
  RUN(batch_size_as_a_value_does_not_split);
  RUN(iota_along_the_batch_does_not_split);
  RUN(concatenation_and_strided_slice_along_the_batch_do_not_split);
  RUN(transpose_and_reshape_moving_the_batch_do_not_split);
  RUN(custom_call_and_fixed_results_do_not_split);
  RUN(different_programs_do_not_split);
  RUN(chunk_size_follows_the_largest_input_value);
  TEST_MAIN_END();
}

/* hr_specialize on small hand-written modules: inlining (nested calls, calls inside regions,
 * composites), regions capturing outer values, constant branches, every dynamic op's static form,
 * chlo's broadcasting ops lowered to stablehlo,
 * folding and its size limit, identities, dead ops, argument type errors, unresolvable shapes, and
 * that the source module is left untouched. Every specialized module must print, re-parse, verify
 * and compute exactly what the source computes on the same inputs. */
#include <stdint.h>

#include "base/strbuf.h"
#include "compiler/specialize.h"
#include "runtime/executable.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("spec.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* A tensor type from a rank and up to four dims. */
static hr_type tt(hr_dtype dtype, int rank, int64_t d0, int64_t d1, int64_t d2, int64_t d3) {
  int64_t dims[4] = {d0, d1, d2, d3};
  return hr_tensor_type(dtype, rank, dims);
}

/* Prints a module; the caller frees the text. */
static char *print(const hr_module *m) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(m, &sb));
  char *text = strdup(sb.data ? sb.data : "");
  hr_strbuf_free(&sb);
  return text;
}

/* Checks that the printed text parses back and prints the same. */
static void check_reparses(const char *text) {
  hr_module *again = parse(text);
  if (!again) return;
  char *text2 = print(again);
  CHECK(strcmp(text, text2) == 0);
  free(text2);
  hr_module_free(again);
}

/* Specializes @main of `m` with a folder of the given limit (folder == false: no folder). The
 * result must print and re-parse; *text receives its text (or NULL). */
static hr_module *specialize_with(const hr_module *m, const hr_type *types, int n, bool folder, size_t max_fold,
                                  char **text) {
  hr_folder f = hr_interp_folder();
  f.max_fold_bytes = max_fold;
  hr_module *out = NULL;
  CHECK_OK(hr_specialize(m, "main", types, n, folder ? &f : NULL, NULL, &out));
  *text = out ? print(out) : NULL;
  if (*text) check_reparses(*text);
  return out;
}

static hr_module *specialize(const hr_module *m, const hr_type *types, int n, char **text) {
  return specialize_with(m, types, n, true, 0, text);
}

/* A tensor of type `t` filled with a deterministic pattern of small values. */
static hr_tensor *pattern(const hr_type *t, int seed) {
  hr_tensor *x = NULL;
  CHECK_OK(hr_tensor_create(NULL, t->dtype, &t->shape, 0, &x));
  int64_t n = x ? hr_tensor_num_elements(x) : 0;
  for (int64_t i = 0; i < n; i++) {
    int v = (int)((i * 7 + seed * 13) % 11) - 5;
    switch (t->dtype) {
      case HR_F32: ((float *)x->data)[i] = (float)v * 0.25f; break;
      case HR_I32: ((int32_t *)x->data)[i] = v; break;
      case HR_I64: ((int64_t *)x->data)[i] = v; break;
      case HR_I1: ((uint8_t *)x->data)[i] = (uint8_t)(v > 0); break;
      default: break;
    }
  }
  return x;
}

/* Whether two tensors are equal bit for bit. */
static bool identical(const hr_tensor *a, const hr_tensor *b) {
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank || a->nbytes != b->nbytes) return false;
  for (int i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return false;
  return memcmp(a->data, b->data, a->nbytes) == 0;
}

/* Runs @main of both modules on `inputs` and checks that every output is identical. */
static void check_same_results(const hr_module *src, const hr_module *spec, hr_tensor **inputs, int n) {
  if (!src || !spec) return;
  hr_tensor **a = NULL, **b = NULL;
  int na = 0, nb = 0;
  hr_run_options opts = {.num_threads = 1};
  CHECK_OK(hr_module_run(src, "main", inputs, n, &opts, &a, &na));
  CHECK_OK(hr_module_run(spec, "main", inputs, n, &opts, &b, &nb));
  CHECK_EQ_INT(na, nb);
  for (int i = 0; a && b && i < na && i < nb; i++)
    if (!identical(a[i], b[i])) {
      fprintf(stderr, "output %d differs\n", i);
      test_failures_++;
    }
  hr_tensors_free(a, na);
  hr_tensors_free(b, nb);
}

/* Specializes `text` for `types`, checks the outputs on patterned inputs, returns the text of
 * the specialized module (the caller frees it). */
static char *specialize_and_compare(const char *text, const hr_type *types, int n) {
  hr_module *m = parse(text);
  if (!m) return NULL;
  char *out_text = NULL;
  hr_module *out = specialize(m, types, n, &out_text);
  hr_tensor *inputs[8] = {0};
  for (int i = 0; i < n && i < 8; i++) inputs[i] = pattern(&types[i], i + 1);
  check_same_results(m, out, inputs, n);
  for (int i = 0; i < n && i < 8; i++) hr_tensor_free(inputs[i]);
  hr_module_free(out);
  hr_module_free(m);
  return out_text;
}

/* Counts occurrences of `needle` in `text`. */
static int count(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; p && (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

#define CHECK_ABSENT(text, needle)                                                                     \
  do {                                                                                                 \
    if (count((text), (needle))) {                                                                     \
      fprintf(stderr, "%s:%d: unexpected \"%s\" in:\n%s\n", __FILE__, __LINE__, (needle), (text));  \
      test_failures_++;                                                                                \
    }                                                                                                  \
  } while (0)

/* Checks that specializing fails with `code` and a message containing `needle`. */
static void check_fails(const char *text, const hr_type *types, int n, hr_code code, const char *needle) {
  hr_module *m = parse(text);
  if (!m) return;
  hr_folder f = hr_interp_folder();
  hr_module *out = NULL;
  hr_status s = hr_specialize(m, "main", types, n, &f, NULL, &out);
  CHECK(s != NULL);
  CHECK(out == NULL);
  CHECK_EQ_INT(hr_status_code(s), code);
  CHECK_STR_CONTAINS(hr_status_message(s), needle);
  hr_status_free(s);
  hr_module_free(m);
}

/* ---------------------------------------------------------------------------------------------- */
/* Inlining                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* JAX's shape-polymorphic pattern: main computes the dimension variable and passes it first. */
static const char *const calls_text =
    "module @calls {\n"
    "  func.func public @main(%arg0: tensor<?x3xf32> {jax.arg_info = \"x\", mhlo.sharding = \"{replicated}\"}) -> "
    "(tensor<?x3xf32> {jax.result_info = \"\"}) {\n"
    "    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>\n"
    "    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>\n"
    "    %2 = call @inner(%1, %arg0) : (tensor<i64>, tensor<?x3xf32>) -> tensor<?x3xf32>\n"
    "    return %2 : tensor<?x3xf32>\n"
    "  }\n"
    "  func.func private @inner(%arg0: tensor<i64> {jax.global_constant = \"b\"}, %arg1: tensor<?x3xf32>) -> tensor<?x3xf32> {\n"
    "    %0 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<i32>\n"
    "    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>\n"
    "    %c = stablehlo.constant dense<3> : tensor<1xi32>\n"
    "    %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "    %cst = stablehlo.constant dense<2.500000e-01> : tensor<f32>\n"
    "    %3 = stablehlo.dynamic_broadcast_in_dim %cst, %2, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>\n"
    "    %4 = call @twice(%arg1) : (tensor<?x3xf32>) -> tensor<?x3xf32>\n"
    "    %5 = call @twice(%4) : (tensor<?x3xf32>) -> tensor<?x3xf32>\n"
    "    %6 = stablehlo.multiply %5, %3 : tensor<?x3xf32>\n"
    "    return %6 : tensor<?x3xf32>\n"
    "  }\n"
    "  func.func private @twice(%arg0: tensor<?x3xf32>) -> tensor<?x3xf32> {\n"
    "    %0 = stablehlo.add %arg0, %arg0 : tensor<?x3xf32>\n"
    "    return %0 : tensor<?x3xf32>\n"
    "  }\n"
    "}\n";

/* JAX's TPU reduce_window with a symbolic window (window_dimensions = [b], b = x.shape[0] - 1):
 * a custom call whose body is a function named by called_computations. */
static const char *const window_text =
    "module @window {\n"
    "  func.func private @add(%a: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {\n"
    "    %0 = stablehlo.add %a, %x : tensor<f32>\n"
    "    return %0 : tensor<f32>\n"
    "  }\n"
    "  func.func public @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
    "    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
    "    %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
    "    %1 = stablehlo.subtract %0, %c1 : tensor<i32>\n"
    "    %w = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>\n"
    "    %one = stablehlo.constant dense<1> : tensor<1xi32>\n"
    "    %pad = stablehlo.constant dense<0> : tensor<1x2xi32>\n"
    "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "    %2 = stablehlo.custom_call @stablehlo.dynamic_reduce_window(%arg0, %z, %w, %one, %one, %one, %pad) "
    "{api_version = 2 : i32, called_computations = [@add]} : (tensor<?xf32>, tensor<f32>, tensor<1xi32>, tensor<1xi32>, "
    "tensor<1xi32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<?xf32>\n"
    "    return %2 : tensor<?xf32>\n"
    "  }\n"
    "}\n";

TEST(called_computations_are_copied) {
  hr_type types[1] = {tt(HR_F32, 1, 5, 0, 0, 0)};
  char *text = specialize_and_compare(window_text, types, 1);
  /* The window (4) is known, so are the results (2 windows); the body comes along. */
  CHECK_STR_CONTAINS(text, "-> tensor<2xf32>");
  CHECK_STR_CONTAINS(text, "func.func private @add(");
  CHECK_EQ_INT(count(text, "func.func"), 2);
  free(text);
}

TEST(nested_calls_are_inlined) {
  hr_type types[1] = {tt(HR_F32, 2, 4, 3, 0, 0)};
  char *text = specialize_and_compare(calls_text, types, 1);
  CHECK_ABSENT(text, " call @");
  CHECK_ABSENT(text, "dynamic");
  CHECK_ABSENT(text, "?");
  CHECK_ABSENT(text, "get_dimension_size");
  CHECK_ABSENT(text, "@inner");
  /* One function, same parameter and result attributes, static types. */
  CHECK_EQ_INT(count(text, "func.func"), 1);
  CHECK_STR_CONTAINS(text, "module @calls {");
  CHECK_STR_CONTAINS(text, "func.func public @main(%arg0: tensor<4x3xf32> {jax.arg_info = \"x\", mhlo.sharding = "
                           "\"{replicated}\"}) -> (tensor<4x3xf32> {jax.result_info = \"\"})");
  /* The broadcast of a constant folds to a splat; both calls of @twice are inlined. */
  CHECK_STR_CONTAINS(text, "stablehlo.constant dense<2.500000e-01> : tensor<4x3xf32>");
  CHECK_EQ_INT(count(text, "stablehlo.add"), 2);
  free(text);
}

TEST(source_module_is_not_modified) {
  hr_module *m = parse(calls_text);
  if (!m) return;
  char *before = print(m);
  hr_type types[1] = {tt(HR_F32, 2, 5, 3, 0, 0)};
  char *text = NULL;
  hr_module *out = specialize(m, types, 1, &text);
  char *after = print(m);
  CHECK(strcmp(before, after) == 0);
  /* The specialized module owns everything: it outlives its source. */
  hr_module_free(m);
  char *again = out ? print(out) : NULL;
  CHECK(again && text && strcmp(again, text) == 0);
  free(before);
  free(after);
  free(text);
  free(again);
  hr_module_free(out);
}

TEST(composite_is_inlined) {
  const char *src =
      "module {\n"
      "  func.func private @add_n.impl(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
      "    %0 = stablehlo.add %arg0, %arg0 : tensor<?xf32>\n"
      "    return %0 : tensor<?xf32>\n"
      "  }\n"
      "  func.func public @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
      "    %0 = stablehlo.composite \"my.double\" %arg0 {decomposition = @add_n.impl} : (tensor<?xf32>) -> tensor<?xf32>\n"
      "    return %0 : tensor<?xf32>\n"
      "  }\n"
      "}\n";
  hr_module *m = parse(src);
  hr_type types[1] = {tt(HR_F32, 1, 6, 0, 0, 0)};
  char *text = NULL;
  hr_module *out = m ? specialize(m, types, 1, &text) : NULL;
  CHECK_ABSENT(text, "composite");
  CHECK_STR_CONTAINS(text, "stablehlo.add %arg0, %arg0 : tensor<6xf32>");
  free(text);
  hr_module_free(out);
  hr_module_free(m);
}

/* ---------------------------------------------------------------------------------------------- */
/* Regions                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

TEST(regions_capture_outer_values) {
  const char *src =
      "module {\n"
      "  func.func private @scale(%arg0: tensor<?xf32>, %arg1: tensor<f32>) -> tensor<?xf32> {\n"
      "    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xf32>) -> tensor<i32>\n"
      "    %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>\n"
      "    %2 = stablehlo.dynamic_broadcast_in_dim %arg1, %1, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>\n"
      "    %3 = stablehlo.multiply %arg0, %2 : tensor<?xf32>\n"
      "    return %3 : tensor<?xf32>\n"
      "  }\n"
      "  func.func public @main(%arg0: tensor<?xf32>, %arg1: tensor<f32>) -> (tensor<?xf32>, tensor<f32>, tensor<?xf32>) {\n"
      "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
      "    %c_0 = stablehlo.constant dense<3> : tensor<i32>\n"
      "    %c_1 = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<?xf32>\n"
      "     cond {\n"
      "      %3 = stablehlo.compare  LT, %iterArg, %c_0,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %3 : tensor<i1>\n"
      "    } do {\n"
      "      %3 = stablehlo.add %iterArg, %c_1 : tensor<i32>\n"
      "      %4 = func.call @scale(%iterArg_2, %arg1) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>\n"
      "      stablehlo.return %3, %4 : tensor<i32>, tensor<?xf32>\n"
      "    }\n"
      "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n"
      "    %1 = stablehlo.reduce(%0#1 init: %cst) across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>\n"
      "     reducer(%arg2: tensor<f32>, %arg3: tensor<f32>)  {\n"
      "      %3 = stablehlo.add %arg2, %arg3 : tensor<f32>\n"
      "      %4 = stablehlo.multiply %3, %arg1 : tensor<f32>\n"
      "      stablehlo.return %4 : tensor<f32>\n"
      "    }\n"
      "    %p = stablehlo.compare  GT, %1, %cst,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %2 = \"stablehlo.if\"(%p) ({\n"
      "      %3 = stablehlo.add %0#1, %arg0 : tensor<?xf32>\n"
      "      stablehlo.return %3 : tensor<?xf32>\n"
      "    }, {\n"
      "      %3 = func.call @scale(%arg0, %1) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>\n"
      "      stablehlo.return %3 : tensor<?xf32>\n"
      "    }) : (tensor<i1>) -> tensor<?xf32>\n"
      "    return %0#1, %1, %2 : tensor<?xf32>, tensor<f32>, tensor<?xf32>\n"
      "  }\n"
      "}\n";
  hr_type types[2] = {tt(HR_F32, 1, 5, 0, 0, 0), tt(HR_F32, 0, 0, 0, 0, 0)};
  char *text = specialize_and_compare(src, types, 2);
  CHECK_ABSENT(text, " call @");
  CHECK_ABSENT(text, "?");
  CHECK_STR_CONTAINS(text, "stablehlo.while(%iterArg = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<5xf32>");
  CHECK_STR_CONTAINS(text, "stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<5xf32>");
  CHECK_STR_CONTAINS(text, "stablehlo.if");
  free(text);
}

TEST(constant_branches_are_inlined) {
  const char *src =
      "module {\n"
      "  func.func public @main(%arg0: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>) {\n"
      "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
      "    %0 = \"stablehlo.if\"(%t) ({\n"
      "      %1 = stablehlo.add %arg0, %arg0 : tensor<?xi32>\n"
      "      stablehlo.return %1 : tensor<?xi32>\n"
      "    }, {\n"
      "      stablehlo.return %arg0 : tensor<?xi32>\n"
      "    }) : (tensor<i1>) -> tensor<?xi32>\n"
      "    %k = stablehlo.constant dense<7> : tensor<i32>\n"
      "    %1 = \"stablehlo.case\"(%k) ({\n"
      "      stablehlo.return %arg0 : tensor<?xi32>\n"
      "    }, {\n"
      "      %2 = stablehlo.multiply %arg0, %0 : tensor<?xi32>\n"
      "      stablehlo.return %2 : tensor<?xi32>\n"
      "    }) : (tensor<i32>) -> tensor<?xi32>\n"
      "    return %0, %1 : tensor<?xi32>, tensor<?xi32>\n"
      "  }\n"
      "}\n";
  hr_type types[1] = {tt(HR_I32, 1, 4, 0, 0, 0)};
  char *text = specialize_and_compare(src, types, 1);
  CHECK_ABSENT(text, "stablehlo.if");
  CHECK_ABSENT(text, "stablehlo.case");
  CHECK_STR_CONTAINS(text, "stablehlo.add %arg0, %arg0 : tensor<4xi32>");
  CHECK_STR_CONTAINS(text, "stablehlo.multiply %arg0, %0 : tensor<4xi32>");
  free(text);
}

TEST(sort_comparator_and_scatter_are_copied) {
  const char *src =
      "module {\n"
      "  func.func public @main(%arg0: tensor<?xf32>, %arg1: tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>) {\n"
      "    %0:2 = \"stablehlo.sort\"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = true}> ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n"
      "      %1 = stablehlo.compare  LT, %a, %b,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "      stablehlo.return %1 : tensor<i1>\n"
      "    }) : (tensor<?xf32>, tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>)\n"
      "    %i = stablehlo.constant dense<[[1], [5]]> : tensor<2x1xi32>\n"
      "    %u = stablehlo.slice %0#0 [0:2] : (tensor<?xf32>) -> tensor<2xf32>\n"
      "    %1 = \"stablehlo.scatter\"(%0#0, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<"
      "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n"
      "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
      "      %2 = stablehlo.add %a, %b : tensor<f32>\n"
      "      stablehlo.return %2 : tensor<f32>\n"
      "    }) : (tensor<?xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<?xf32>\n"
      "    return %1, %0#1 : tensor<?xf32>, tensor<?xi32>\n"
      "  }\n"
      "}\n";
  hr_type types[2] = {tt(HR_F32, 1, 7, 0, 0, 0), tt(HR_I32, 1, 7, 0, 0, 0)};
  char *text = specialize_and_compare(src, types, 2);
  CHECK_STR_CONTAINS(text, "(tensor<7xf32>, tensor<7xi32>) -> (tensor<7xf32>, tensor<7xi32>)");
  CHECK_STR_CONTAINS(text, "}) : (tensor<7xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<7xf32>");
  free(text);
}

TEST(tokens_and_tuples_are_refined) {
  const char *src =
      "func.func @main(%arg0: tensor<?xf32>, %arg1: !stablehlo.token) -> (tensor<?xf32>, !stablehlo.token, tuple<tensor<?xf32>, tensor<?xf32>>) {\n"
      "  %0 = stablehlo.after_all %arg1 : !stablehlo.token\n"
      "  %1 = \"stablehlo.outfeed\"(%arg0, %0) {outfeed_config = \"\"} : (tensor<?xf32>, !stablehlo.token) -> !stablehlo.token\n"
      "  %2 = stablehlo.tuple %arg0, %arg0 : tuple<tensor<?xf32>, tensor<?xf32>>\n"
      "  %3 = stablehlo.get_tuple_element %2[1] : (tuple<tensor<?xf32>, tensor<?xf32>>) -> tensor<?xf32>\n"
      "  return %3, %1, %2 : tensor<?xf32>, !stablehlo.token, tuple<tensor<?xf32>, tensor<?xf32>>\n"
      "}\n";
  hr_module *m = parse(src);
  hr_type token = {.kind = HR_TYPE_TOKEN};
  hr_type types[2] = {tt(HR_F32, 1, 3, 0, 0, 0), token};
  char *text = NULL;
  hr_module *out = m ? specialize(m, types, 2, &text) : NULL;
  CHECK_STR_CONTAINS(text, "stablehlo.tuple %arg0, %arg0 : tuple<tensor<3xf32>, tensor<3xf32>>");
  CHECK_STR_CONTAINS(text, "-> (tensor<3xf32>, !stablehlo.token, tuple<tensor<3xf32>, tensor<3xf32>>)");
  CHECK_STR_CONTAINS(text, "stablehlo.outfeed"); /* a side effect: kept although its token is only returned */
  CHECK_ABSENT(text, "get_tuple_element"); /* an element of a tuple built here is the element itself */
  free(text);
  hr_module_free(out);
  hr_module_free(m);
}

/* ---------------------------------------------------------------------------------------------- */
/* Dynamic ops                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Specializes without a folder (so that only the rewrite itself makes the op static; skipped when
 * the shapes need folding) and with one; each must compute what the source computes, and the
 * first must contain `expected`. */
static void check_static_form(const char *src, const hr_type *types, int n, bool needs_folder, const char *expected) {
  hr_module *m = parse(src);
  if (!m) return;
  hr_tensor *inputs[4] = {0};
  for (int i = 0; i < n && i < 4; i++) inputs[i] = pattern(&types[i], i + 3);
  for (int with_folder = needs_folder; with_folder < 2; with_folder++) {
    char *text = NULL;
    hr_module *out = specialize_with(m, types, n, with_folder, 0, &text);
    if (with_folder == needs_folder) CHECK_STR_CONTAINS(text, expected);
    CHECK_ABSENT(text, "dynamic");
    CHECK_ABSENT(text, "?");
    check_same_results(m, out, inputs, n);
    free(text);
    hr_module_free(out);
  }
  for (int i = 0; i < n && i < 4; i++) hr_tensor_free(inputs[i]);
  hr_module_free(m);
}

TEST(dynamic_broadcast_in_dim_becomes_static) {
  check_static_form(
      "func.func @main(%arg0: tensor<?x1xf32>) -> tensor<?x4xf32> {\n"
      "  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x1xf32>) -> tensor<i32>\n"
      "  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>\n"
      "  %c = stablehlo.constant dense<4> : tensor<1xi32>\n"
      "  %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
      "  %3 = stablehlo.dynamic_broadcast_in_dim %arg0, %2, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x4xf32>\n"
      "  return %3 : tensor<?x4xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 2, 3, 1, 0, 0)}, 1, true,
      "stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>");
  /* With constant shapes the rewrite needs no folder. */
  check_static_form(
      "func.func @main(%arg0: tensor<?x1xf32>) -> tensor<?x4xf32> {\n"
      "  %c = stablehlo.constant dense<[3, 4]> : tensor<2xi64>\n"
      "  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %c, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x4xf32>\n"
      "  return %0 : tensor<?x4xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 2, 3, 1, 0, 0)}, 1, false,
      "stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x4xf32>");
}

TEST(chlo_broadcasts_become_stablehlo) {
  /* Numpy padding: the lower-rank operand is broadcast, the other kept. */
  check_static_form(
      "func.func @main(%arg0: tensor<?x3xf32>, %arg1: tensor<3xf32>) -> tensor<?x3xf32> {\n"
      "  %0 = chlo.broadcast_add %arg0, %arg1 : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>\n"
      "  return %0 : tensor<?x3xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 2, 2, 3, 0, 0), tt(HR_F32, 1, 3, 0, 0, 0)}, 2, false,
      "stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>");
  /* broadcast_dimensions, a compare's attributes kept, a select's size-1 dimensions. */
  check_static_form(
      "func.func @main(%arg0: tensor<?x3xi32>, %arg1: tensor<?xi32>) -> tensor<?x3xi32> {\n"
      "  %0 = chlo.broadcast_compare %arg0, %arg1 {broadcast_dimensions = array<i64: 0>, comparison_direction = #chlo<comparison_direction GT>} : (tensor<?x3xi32>, tensor<?xi32>) -> tensor<?x3xi1>\n"
      "  %1 = chlo.broadcast_select %0, %arg0, %arg1 {broadcast_dimensions = array<i64: 0>} : (tensor<?x3xi1>, tensor<?x3xi32>, tensor<?xi32>) -> tensor<?x3xi32>\n"
      "  return %1 : tensor<?x3xi32>\n"
      "}\n",
      (hr_type[]){tt(HR_I32, 2, 3, 3, 0, 0), tt(HR_I32, 1, 3, 0, 0, 0)}, 2, false,
      "stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<3xi32>) -> tensor<3x3xi32>");
  char *text = NULL;
  hr_module *m = parse(
      "func.func @main(%arg0: tensor<2x1xf32>) -> tensor<2x2xf32> {\n"
      "  %c = chlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
      "  %0 = chlo.broadcast_multiply %arg0, %c : (tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x2xf32>\n"
      "  return %0 : tensor<2x2xf32>\n"
      "}\n");
  hr_module *out = m ? specialize(m, (hr_type[]){tt(HR_F32, 2, 2, 1, 0, 0)}, 1, &text) : NULL;
  CHECK_STR_CONTAINS(text, "stablehlo.multiply");
  CHECK_ABSENT(text, "chlo.");
  free(text);
  hr_module_free(out);
  hr_module_free(m);
}

TEST(dynamic_reshape_becomes_reshape) {
  check_static_form(
      "func.func @main(%arg0: tensor<?x4xf32>) -> tensor<?x?xf32> {\n"
      "  %c = stablehlo.constant dense<[4, 2]> : tensor<2xi32>\n"
      "  %0 = stablehlo.dynamic_reshape %arg0, %c : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>\n"
      "  return %0 : tensor<?x?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 2, 2, 4, 0, 0)}, 1, false, "stablehlo.reshape %arg0 : (tensor<2x4xf32>) -> tensor<4x2xf32>");
}

TEST(dynamic_iota_becomes_iota) {
  check_static_form(
      "func.func @main(%arg0: tensor<?xi32>) -> tensor<?x3xi32> {\n"
      "  %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xi32>) -> tensor<i32>\n"
      "  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>\n"
      "  %c = stablehlo.constant dense<3> : tensor<1xi32>\n"
      "  %2 = stablehlo.concatenate %1, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
      "  %3 = stablehlo.dynamic_iota %2, dim = 1 : (tensor<2xi32>) -> tensor<?x3xi32>\n"
      "  return %3 : tensor<?x3xi32>\n"
      "}\n",
      (hr_type[]){tt(HR_I32, 1, 5, 0, 0, 0)}, 1, true, "stablehlo.constant dense<[[0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2]]> : tensor<5x3xi32>");
  check_static_form(
      "func.func @main(%arg0: tensor<?xi32>) -> tensor<?x3xi32> {\n"
      "  %c = stablehlo.constant dense<[2, 3]> : tensor<2xi64>\n"
      "  %0 = stablehlo.dynamic_iota %c, dim = 1 : (tensor<2xi64>) -> tensor<?x3xi32>\n"
      "  return %0 : tensor<?x3xi32>\n"
      "}\n",
      (hr_type[]){tt(HR_I32, 1, 5, 0, 0, 0)}, 1, false, "stablehlo.iota dim = 1 : tensor<2x3xi32>");
}

TEST(real_dynamic_slice_becomes_slice) {
  check_static_form(
      "func.func @main(%arg0: tensor<?x6xf32>) -> tensor<?x?xf32> {\n"
      "  %s = stablehlo.constant dense<[1, 0]> : tensor<2xi64>\n"
      "  %l = stablehlo.constant dense<[3, 6]> : tensor<2xi64>\n"
      "  %t = stablehlo.constant dense<[1, 2]> : tensor<2xi64>\n"
      "  %0 = stablehlo.real_dynamic_slice %arg0, %s, %l, %t : (tensor<?x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>\n"
      "  return %0 : tensor<?x?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 2, 4, 6, 0, 0)}, 1, false, "stablehlo.slice %arg0 [1:3, 0:6:2] : (tensor<4x6xf32>) -> tensor<2x3xf32>");
}

TEST(dynamic_pad_becomes_pad) {
  check_static_form(
      "func.func @main(%arg0: tensor<?x3xf32>, %arg1: tensor<f32>) -> tensor<?x?xf32> {\n"
      "  %lo = stablehlo.constant dense<[1, 0]> : tensor<2xi32>\n"
      "  %hi = stablehlo.constant dense<[0, 2]> : tensor<2xi32>\n"
      "  %in = stablehlo.constant dense<[1, 1]> : tensor<2xi32>\n"
      "  %0 = stablehlo.dynamic_pad %arg0, %arg1, %lo, %hi, %in : (tensor<?x3xf32>, tensor<f32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>\n"
      "  return %0 : tensor<?x?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 2, 2, 3, 0, 0), tt(HR_F32, 0, 0, 0, 0, 0)}, 2, false,
      "stablehlo.pad %arg0, %arg1, low = [1, 0], high = [0, 2], interior = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x7xf32>");
}

TEST(dynamic_gather_becomes_gather) {
  check_static_form(
      "func.func @main(%arg0: tensor<?x4xf32>, %arg1: tensor<2x1xi32>) -> tensor<2x?xf32> {\n"
      "  %c = stablehlo.constant dense<[1, 3]> : tensor<2xi32>\n"
      "  %0 = \"stablehlo.dynamic_gather\"(%arg0, %arg1, %c) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], "
      "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>}> : (tensor<?x4xf32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x?xf32>\n"
      "  return %0 : tensor<2x?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 2, 5, 4, 0, 0), tt(HR_I32, 2, 2, 1, 0, 0)}, 2, false, "slice_sizes = array<i64: 1, 3>");
}

TEST(dynamic_conv_becomes_convolution) {
  check_static_form(
      "func.func @main(%arg0: tensor<?x5x2xf32>, %arg1: tensor<3x2x4xf32>) -> tensor<?x?x4xf32> {\n"
      "  %p = stablehlo.constant dense<[[1, 2]]> : tensor<1x2xi64>\n"
      "  %0 = \"stablehlo.dynamic_conv\"(%arg0, %arg1, %p) <{batch_group_count = 1 : i64, dimension_numbers = "
      "#stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, feature_group_count = 1 : i64, window_strides = array<i64: 1>}> : "
      "(tensor<?x5x2xf32>, tensor<3x2x4xf32>, tensor<1x2xi64>) -> tensor<?x?x4xf32>\n"
      "  return %0 : tensor<?x?x4xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 3, 2, 5, 2, 0), tt(HR_F32, 3, 3, 2, 4, 0)}, 2, false, "pad = [[1, 2]]");
}

/* ---------------------------------------------------------------------------------------------- */
/* Folding, identities, dead ops                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static const char *const fold_text =
    "func.func @main(%arg0: tensor<3xi32>) -> tensor<3xi32> {\n"
    "  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>\n"
    "  %b = stablehlo.constant dense<10> : tensor<3xi32>\n"
    "  %0 = stablehlo.add %a, %b : tensor<3xi32>\n"
    "  %1 = stablehlo.multiply %0, %0 : tensor<3xi32>\n"
    "  %2 = stablehlo.iota dim = 0 : tensor<3xi32>\n"
    "  %3 = stablehlo.subtract %1, %2 : tensor<3xi32>\n"
    "  %4 = stablehlo.multiply %arg0, %3 : tensor<3xi32>\n"
    "  return %4 : tensor<3xi32>\n"
    "}\n";

TEST(constants_fold) {
  hr_type types[1] = {tt(HR_I32, 1, 3, 0, 0, 0)};
  char *text = specialize_and_compare(fold_text, types, 1);
  CHECK_STR_CONTAINS(text, "%c = stablehlo.constant dense<[121, 143, 167]> : tensor<3xi32>");
  CHECK_STR_CONTAINS(text, "%0 = stablehlo.multiply %arg0, %c : tensor<3xi32>");
  CHECK_EQ_INT(count(text, "stablehlo."), 2); /* the constants the fold consumed are gone */
  free(text);
}

TEST(fold_size_limit) {
  hr_module *m = parse(fold_text);
  hr_type types[1] = {tt(HR_I32, 1, 3, 0, 0, 0)};
  char *text = NULL;
  hr_module *out = m ? specialize_with(m, types, 1, true, 8, &text) : NULL; /* 12-byte results stay */
  CHECK_STR_CONTAINS(text, "stablehlo.add");
  CHECK_STR_CONTAINS(text, "stablehlo.iota");
  free(text);
  hr_module_free(out);
  hr_module_free(m);
}

TEST(identities_are_removed) {
  const char *src =
      "func.func @main(%arg0: tensor<?x3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<2x3xf32>) {\n"
      "  %r = stablehlo.reshape %arg1 : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
      "  %b = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
      "  %0 = stablehlo.add %arg0, %arg0 : tensor<?x3xf32>\n"
      "  %1 = stablehlo.convert %0 : tensor<?x3xf32>\n"
      "  %2 = stablehlo.transpose %1, dims = [0, 1] : (tensor<?x3xf32>) -> tensor<?x3xf32>\n"
      "  %3 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>\n"
      "  %4 = stablehlo.reshape %3 : (tensor<i32>) -> tensor<1xi32>\n"
      "  %c = stablehlo.constant dense<3> : tensor<1xi32>\n"
      "  %5 = stablehlo.concatenate %4, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
      "  %6 = stablehlo.dynamic_broadcast_in_dim %2, %5, dims = [0, 1] : (tensor<?x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>\n"
      "  %7 = stablehlo.transpose %6, dims = [1, 0] : (tensor<?x3xf32>) -> tensor<3x?xf32>\n"
      "  %8 = stablehlo.transpose %7, dims = [1, 0] : (tensor<3x?xf32>) -> tensor<?x3xf32>\n"
      "  return %8, %b : tensor<?x3xf32>, tensor<2x3xf32>\n"
      "}\n";
  hr_type types[2] = {tt(HR_F32, 2, 2, 3, 0, 0), tt(HR_F32, 2, 2, 3, 0, 0)};
  char *text = specialize_and_compare(src, types, 2);
  CHECK_ABSENT(text, "reshape");
  CHECK_ABSENT(text, "convert");
  CHECK_ABSENT(text, "broadcast");
  CHECK_STR_CONTAINS(text, "return %2, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>");
  CHECK_EQ_INT(count(text, "stablehlo.transpose"), 2); /* real transposes stay */
  free(text);
}

TEST(dead_ops_are_removed) {
  const char *src =
      "func.func @main(%arg0: tensor<?xf32>) -> (tensor<?xf32>, tensor<f32>) {\n"
      "  %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>\n"
      "  %0 = stablehlo.exponential %arg0 : tensor<?xf32>\n"
      "  %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>\n"
      "  %2 = stablehlo.custom_call @pure_helper(%arg0) : (tensor<?xf32>) -> tensor<2xf32>\n"
      "  stablehlo.custom_call @effect(%arg0) {has_side_effect = true} : (tensor<?xf32>) -> ()\n"
      "  stablehlo.custom_call @check.expect_close(%arg0, %arg0) : (tensor<?xf32>, tensor<?xf32>) -> ()\n"
      "  %3 = stablehlo.negate %arg0 : tensor<?xf32>\n"
      "  %4 = stablehlo.reduce(%3 init: %cst) across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>\n"
      "   reducer(%a: tensor<f32>, %b: tensor<f32>)  {\n"
      "    %unused = stablehlo.multiply %a, %b : tensor<f32>\n"
      "    %s = stablehlo.maximum %a, %b : tensor<f32>\n"
      "    stablehlo.return %s : tensor<f32>\n"
      "  }\n"
      "  return %3, %4 : tensor<?xf32>, tensor<f32>\n"
      "}\n";
  hr_module *m = parse(src);
  hr_type types[1] = {tt(HR_F32, 1, 4, 0, 0, 0)};
  char *text = NULL;
  hr_module *out = m ? specialize(m, types, 1, &text) : NULL;
  CHECK_ABSENT(text, "exponential");
  CHECK_ABSENT(text, "stablehlo.add");
  CHECK_ABSENT(text, "multiply");
  CHECK_EQ_INT(count(text, "stablehlo.constant"), 1);
  CHECK_STR_CONTAINS(text, "stablehlo.reduce(%0 init: %cst) applies stablehlo.maximum across dimensions = [0]");
  CHECK_ABSENT(text, "pure_helper");
  CHECK_STR_CONTAINS(text, "stablehlo.custom_call @effect(%arg0) {has_side_effect = true} : (tensor<4xf32>) -> ()");
  CHECK_STR_CONTAINS(text, "stablehlo.custom_call @check.expect_close(%arg0, %arg0)");
  CHECK_STR_CONTAINS(text, "stablehlo.negate %arg0 : tensor<4xf32>");
  free(text);
  hr_module_free(out);
  hr_module_free(m);
}

/* ---------------------------------------------------------------------------------------------- */
/* Errors                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

TEST(incompatible_argument_types_fail) {
  const char *src = calls_text;
  hr_type rank[1] = {tt(HR_F32, 1, 4, 0, 0, 0)}, dtype[1] = {tt(HR_F64, 2, 4, 3, 0, 0)},
          dim[1] = {tt(HR_F32, 2, 4, 2, 0, 0)}, dynamic[1] = {tt(HR_F32, 2, HR_DYNAMIC, 3, 0, 0)};
  check_fails(src, rank, 1, HR_INVALID_ARGUMENT, "argument #0: tensor<4xf32> is not a static type compatible with tensor<?x3xf32>");
  check_fails(src, dtype, 1, HR_INVALID_ARGUMENT, "tensor<4x3xf64>");
  check_fails(src, dim, 1, HR_INVALID_ARGUMENT, "tensor<4x2xf32>");
  check_fails(src, dynamic, 1, HR_INVALID_ARGUMENT, "tensor<?x3xf32> is not a static type");
  check_fails(src, dim, 0, HR_INVALID_ARGUMENT, "@main takes 1 arguments, 0 types given");
  /* Refined operands that contradict a callee's or an op's declared types. */
  check_fails(
      "func.func private @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  return %arg0 : tensor<4xf32>\n"
      "}\n"
      "func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
      "  %0 = \"func.call\"(%arg0) <{callee = @f}> : (tensor<?xf32>) -> tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 1, 5, 0, 0, 0)}, 1, HR_INVALID_ARGUMENT,
      "spec.mlir:5:3: func.call: argument #0 specializes to tensor<5xf32>, which is incompatible with tensor<4xf32>");
  check_fails(
      "func.func @main(%arg0: tensor<?xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = \"stablehlo.add\"(%arg0, %arg1) : (tensor<?xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 1, 5, 0, 0, 0), tt(HR_F32, 1, 4, 0, 0, 0)}, 2, HR_VERIFY_ERROR, "spec.mlir:2:3: stablehlo.add:");
  hr_module *m = parse(src);
  hr_module *out = NULL;
  hr_status s = m ? hr_specialize(m, "nope", dim, 1, NULL, NULL, &out) : NULL;
  CHECK_EQ_INT(hr_status_code(s), HR_NOT_FOUND);
  hr_status_free(s);
  hr_module_free(m);
}

TEST(unresolvable_shapes_fail_naming_the_op) {
  /* The shape comes from a parameter's values, which specialization does not know. */
  check_fails(
      "func.func @main(%arg0: tensor<f32>, %arg1: tensor<2xi32>) -> tensor<?x?xf32> {\n"
      "  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>\n"
      "  return %0 : tensor<?x?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 0, 0, 0, 0, 0), tt(HR_I32, 1, 2, 0, 0, 0)}, 2, HR_UNIMPLEMENTED,
      "spec.mlir:2:3: stablehlo.dynamic_broadcast_in_dim: cannot determine a static shape for result #0 (tensor<?x?xf32>)");
  /* In a callee, the error points into the callee. */
  check_fails(
      "func.func private @f(%arg0: tensor<f32>, %arg1: tensor<1xi32>) -> tensor<?xf32> {\n"
      "  %0 = stablehlo.dynamic_broadcast_in_dim %arg0, %arg1, dims = [] : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n"
      "func.func @main(%arg0: tensor<f32>, %arg1: tensor<1xi32>) -> tensor<?xf32> {\n"
      "  %0 = call @f(%arg0, %arg1) : (tensor<f32>, tensor<1xi32>) -> tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 0, 0, 0, 0, 0), tt(HR_I32, 1, 1, 0, 0, 0)}, 2, HR_UNIMPLEMENTED, "spec.mlir:2:3:");
  /* A custom call declaring a dynamic result cannot be refined either. */
  check_fails(
      "func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
      "  %0 = stablehlo.custom_call @opaque(%arg0) : (tensor<?xf32>) -> tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 1, 3, 0, 0, 0)}, 1, HR_UNIMPLEMENTED, "spec.mlir:2:3: stablehlo.custom_call:");
  /* A shape operand that contradicts the operand's static size. */
  check_fails(
      "func.func @main(%arg0: tensor<?xf32>) -> tensor<?xf32> {\n"
      "  %c = stablehlo.constant dense<5> : tensor<1xi32>\n"
      "  %0 = stablehlo.dynamic_reshape %arg0, %c : (tensor<?xf32>, tensor<1xi32>) -> tensor<?xf32>\n"
      "  return %0 : tensor<?xf32>\n"
      "}\n",
      (hr_type[]){tt(HR_F32, 1, 3, 0, 0, 0)}, 1, HR_OUT_OF_RANGE, "cannot reshape 3 elements into 5");
}

/* An allocator that fails once `remaining` allocations have been served. */
typedef struct failing_allocator {
  hr_allocator base;
  long remaining;
} failing_allocator;

static void *failing_alloc(void *ctx, size_t size, size_t align) {
  failing_allocator *f = ctx;
  if (f->remaining-- <= 0) return NULL;
  return hr_default_allocator()->alloc(NULL, size, align);
}

static void failing_free(void *ctx, void *ptr) { hr_default_allocator()->free(NULL, ptr); }

TEST(allocation_failures_fail_cleanly) {
  const char *const texts[] = {calls_text, fold_text};
  hr_type calls_types[1] = {tt(HR_F32, 2, 4, 3, 0, 0)}, fold_types[1] = {tt(HR_I32, 1, 3, 0, 0, 0)};
  const hr_type *types[] = {calls_types, fold_types};
  for (int k = 0; k < 2; k++) {
    hr_module *m = parse(texts[k]);
    if (!m) continue;
    hr_folder folder = hr_interp_folder();
    bool done = false;
    /* Fail the first, second, ... allocation until one run succeeds: each failure must come back as
     * an error with nothing leaked (run under -DHLORUN_SANITIZE=ON). */
    for (long n = 0; n < 100000 && !done; n++) {
      failing_allocator f = {{failing_alloc, failing_free, NULL}, n};
      f.base.ctx = &f;
      hr_module *out = NULL;
      hr_status s = hr_specialize(m, "main", types[k], 1, &folder, &f.base, &out);
      done = s == NULL;
      CHECK(done ? out != NULL : out == NULL);
      hr_status_free(s);
      hr_module_free(out);
    }
    CHECK(done);
    hr_module_free(m);
  }
}

int main(void) {
  RUN(nested_calls_are_inlined);
  RUN(source_module_is_not_modified);
  RUN(composite_is_inlined);
  RUN(regions_capture_outer_values);
  RUN(constant_branches_are_inlined);
  RUN(sort_comparator_and_scatter_are_copied);
  RUN(tokens_and_tuples_are_refined);
  RUN(called_computations_are_copied);
  RUN(dynamic_broadcast_in_dim_becomes_static);
  RUN(chlo_broadcasts_become_stablehlo);
  RUN(dynamic_reshape_becomes_reshape);
  RUN(dynamic_iota_becomes_iota);
  RUN(real_dynamic_slice_becomes_slice);
  RUN(dynamic_pad_becomes_pad);
  RUN(dynamic_gather_becomes_gather);
  RUN(dynamic_conv_becomes_convolution);
  RUN(constants_fold);
  RUN(fold_size_limit);
  RUN(identities_are_removed);
  RUN(dead_ops_are_removed);
  RUN(incompatible_argument_types_fail);
  RUN(unresolvable_shapes_fail_naming_the_op);
  RUN(allocation_failures_fail_cleanly);
  TEST_MAIN_END();
}

/* Shardy's round-trip form read into the native one (src/ir/sdy_round_trip*.c): meshes from the
 * module's xla.sdy.meshes string, GlobalToLocalShape / body call / LocalToGlobalShape as
 * sdy.manual_computation (attributes on the custom calls or, in older exports, on the call; escaped
 * once more; nested; no operands or results), the other xla.sdy.* custom calls, and every malformed
 * form an error naming the op and file, never a crash. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "ir/ir.h"
#include "test.h"
#include "module_text.h"

/* ---------------------------------------------------------------------------------------------- */
/* Accepted forms                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* The form of JAX's 2023 exports: shardings on the custom calls, two meshes (one name quoted), a
 * parameter's sharding string, a nested shard_map whose body's name only contains the marker,
 * @Sharding, FuncResultSharding, PropagationBarrier and ShardingGroup. */
static const char custom_calls_form[] =
    "module @m attributes {mhlo.frontend_attributes = {xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\22a\\22=2, \\22b\\22=2]>, \\22other\\22 = #sdy.mesh<[\\22c\\22=4]>}\", keep = \"x\"}, mhlo.num_partitions = 4 : i32} {\n"
    "  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding = \"#sdy.sharding<@mesh, [{\\22a\\22}, {}]>\"}, mhlo.sharding = \"{devices=[2,1,2]<=[4] last_tile_dim_replicate}\"}, %arg1: tensor<8xf32>) -> (tensor<4x8xf32> {mhlo.sharding = \"{replicated}\"}, tensor<8xf32>) {\n"
    "    %c = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = \"#sdy.sharding_per_value<[<@mesh, [{\\22a\\22}, {}]>]>\"}, mhlo.sharding = \"{devices=[2,1,2]<=[4] last_tile_dim_replicate}\"} : (tensor<4x8xf32>) -> tensor<4x8xf32>\n"
    "    %0:2 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%c, %arg1) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh, [{\\22a\\22}, {}]>, <@mesh, [{}]>]>\", xla.sdy.manual_axes = \"#sdy<manual_axes{\\22a\\22}>\"}} : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<8xf32>)\n"
    "    %1 = call @xla.sdy.manual_computation_body_1(%0#0, %0#1) : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>\n"
    "    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = \"#sdy<manual_axes{\\22a\\22}>\", xla.sdy.out_shardings = \"#sdy.sharding_per_value<[<@mesh, [{\\22a\\22}, {}]>]>\"}} : (tensor<2x8xf32>) -> tensor<4x8xf32>\n"
    "    %b = stablehlo.custom_call @xla.sdy.PropagationBarrier(%arg1) {xla.sdy.allowed_direction = 0 : i32} : (tensor<8xf32>) -> tensor<8xf32>\n"
    "    stablehlo.custom_call @xla.sdy.ShardingGroup(%b) {has_side_effect = true, xla.sdy.sharding_group_id = 0 : i64} : (tensor<8xf32>) -> ()\n"
    "    %3 = stablehlo.custom_call @xla.sdy.FuncResultSharding(%2) {has_side_effect = true, mhlo.frontend_attributes = {xla.sdy.sharding = \"#sdy.sharding_per_value<[<@mesh, [{\\22a\\22}, {}]>]>\"}} : (tensor<4x8xf32>) -> tensor<4x8xf32>\n"
    "    return %3, %b : tensor<4x8xf32>, tensor<8xf32>\n"
    "  }\n"
    "  func.func private @xla.sdy.manual_computation_body_1(%arg0: tensor<2x8xf32>, %arg1: tensor<8xf32>) -> tensor<2x8xf32> {\n"
    "    %0 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%arg0) {mhlo.frontend_attributes = {xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh, [{}, {\\22b\\22}]>]>\", xla.sdy.manual_axes = \"#sdy<manual_axes{\\22b\\22}>\"}} : (tensor<2x8xf32>) -> tensor<2x4xf32>\n"
    "    %1 = call @my.xla.sdy.manual_computation_body_0.5(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
    "    %2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%1) {mhlo.frontend_attributes = {xla.sdy.manual_axes = \"#sdy<manual_axes{\\22b\\22}>\", xla.sdy.out_shardings = \"#sdy.sharding_per_value<[<@mesh, [{}, {\\22b\\22}]>]>\"}} : (tensor<2x4xf32>) -> tensor<2x8xf32>\n"
    "    %3 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>\n"
    "    %4 = stablehlo.add %2, %3 : tensor<2x8xf32>\n"
    "    return %4 : tensor<2x8xf32>\n"
    "  }\n"
    "  func.func private @my.xla.sdy.manual_computation_body_0.5(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {\n"
    "    %0 = stablehlo.multiply %arg0, %arg0 : tensor<2x4xf32>\n"
    "    return %0 : tensor<2x4xf32>\n"
    "  }\n"
    "}\n";

static const char custom_calls_native[] =
    "module @m attributes {mhlo.frontend_attributes = {keep = \"x\"}, mhlo.num_partitions = 4 : i32} {\n"
    "  sdy.mesh @mesh = <[\"a\"=2, \"b\"=2]>\n"
    "  sdy.mesh @other = <[\"c\"=4]>\n"
    "  func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"a\"}, {}]>}, %arg1: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>) {\n"
    "    %0 = sdy.sharding_constraint %arg0 <@mesh, [{\"a\"}, {}]> : tensor<4x8xf32>\n"
    "    %1 = sdy.manual_computation(%0, %arg1) in_shardings=[<@mesh, [{\"a\"}, {}]>, <@mesh, [{}]>] out_shardings=[<@mesh, [{\"a\"}, {}]>] manual_axes={\"a\"} (%arg2: tensor<2x8xf32>, %arg3: tensor<8xf32>) {\n"
    "      %2 = sdy.manual_computation(%arg2) in_shardings=[<@mesh, [{}, {\"b\"}]>] out_shardings=[<@mesh, [{}, {\"b\"}]>] manual_axes={\"b\"} (%arg4: tensor<2x4xf32>) {\n"
    "        %5 = stablehlo.multiply %arg4, %arg4 : tensor<2x4xf32>\n"
    "        sdy.return %5 : tensor<2x4xf32>\n"
    "      } : (tensor<2x8xf32>) -> tensor<2x8xf32>\n"
    "      %3 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<8xf32>) -> tensor<2x8xf32>\n"
    "      %4 = stablehlo.add %2, %3 : tensor<2x8xf32>\n"
    "      sdy.return %4 : tensor<2x8xf32>\n"
    "    } : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>\n"
    "    return %1, %arg1 : tensor<4x8xf32>, tensor<8xf32>\n"
    "  }\n"
    "}\n";

TEST(attributes_on_the_custom_calls) {
  const char *out = read_and_print(custom_calls_form);
  if (strcmp(out, custom_calls_native) != 0) {
    fprintf(stderr, "got:\n%s\nwant:\n%s\n", out, custom_calls_native);
    test_failures_++;
  }
  /* The native form reads back to itself. */
  char first[sizeof printed];
  memcpy(first, out, sizeof first);
  CHECK(strcmp(read_and_print(first), first) == 0);
}

/* The same module as MLIR bytecode (the fuzz_mlirbc seed fuzz/corpus_mlirbc/sdy_round_trip.mlirbc,
 * hlorun's writer's output for it with the names changed back) reads to the same native form. */
TEST(from_bytecode) {
  const char *root = getenv("HLORUN_SOURCE_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/fuzz/corpus_mlirbc/sdy_round_trip.mlirbc", root ? root : ".");
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse_file(path, NULL, &m));
  const char *out = print_and_free(m);
  if (strcmp(out, custom_calls_native) != 0) {
    fprintf(stderr, "got:\n%s\nwant:\n%s\n", out, custom_calls_native);
    test_failures_++;
  }
}

/* The form of JAX's exports of early 2025: the shardings on the call, every string escaped once
 * more (`\"a\"` in the decoded string). */
static const char call_form[] =
    "module @jit_func attributes {mhlo.frontend_attributes = {xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\\\\\22a\\\\\\22=2]>}\"}, mhlo.num_partitions = 2 : i32} {\n"
    "  func.func public @main(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {\n"
    "    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.frontend_attributes = {xla.sdy.sharding = \"#sdy.sharding_per_value<[<@mesh, [{\\\\\\22a\\\\\\22}, {}]>]>\"}, mhlo.sharding = \"{devices=[2,1]<=[2]}\"} : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
    "    %1 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%0) : (tensor<2x4xf32>) -> tensor<1x4xf32>\n"
    "    %2 = call @xla.sdy.manual_computation_body(%1) {mhlo.frontend_attributes = {xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh, [{\\\\\\22a\\\\\\22}, {}]>]>\", xla.sdy.manual_axes = \"#sdy<manual_axes{\\\\\\22a\\\\\\22}>\", xla.sdy.out_shardings = \"#sdy.sharding_per_value<[<@mesh, [{\\\\\\22a\\\\\\22}, {}]>]>\"}} : (tensor<1x4xf32>) -> tensor<1x4xf32>\n"
    "    %3 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%2) : (tensor<1x4xf32>) -> tensor<2x4xf32>\n"
    "    return %3 : tensor<2x4xf32>\n"
    "  }\n"
    "  func.func @xla.sdy.manual_computation_body(%arg0: tensor<1x4xf32>) -> tensor<1x4xf32> {\n"
    "    %0 = stablehlo.negate %arg0 : tensor<1x4xf32>\n"
    "    return %0 : tensor<1x4xf32>\n"
    "  }\n"
    "}\n";

TEST(attributes_on_the_call) {
  const char *out = read_and_print(call_form);
  CHECK_STR_CONTAINS(out, "  sdy.mesh @mesh = <[\"a\"=2]>\n");
  CHECK_STR_CONTAINS(out, "%0 = sdy.sharding_constraint %arg0 <@mesh, [{\"a\"}, {}]> : tensor<2x4xf32>\n");
  CHECK_STR_CONTAINS(out, "%1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{\"a\"}, {}]>] "
                          "out_shardings=[<@mesh, [{\"a\"}, {}]>] manual_axes={\"a\"} (%arg1: tensor<1x4xf32>) {\n"
                          "      %2 = stablehlo.negate %arg1 : tensor<1x4xf32>\n"
                          "      sdy.return %2 : tensor<1x4xf32>\n");
  CHECK(!strstr(out, "xla.sdy") && !strstr(out, "custom_call") && !strstr(out, "func.func @"));
}

/* The module of the shard_maps below: mesh "a"=2, @main taking %x: tensor<4xf32>. */
#define MESHES "{mhlo.frontend_attributes = {xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\22a\\22=2]>}\"}}"
#define HEAD "module attributes " MESHES " {\n  func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
#define SHARDINGS "\"#sdy.sharding_per_value<[<@mesh, [{\\22a\\22}]>]>\""
#define AXES "xla.sdy.manual_axes = \"#sdy<manual_axes{\\22a\\22}>\""
#define G2L(x)                                                                                      \
  "    %g = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(" x ") {mhlo.frontend_attributes = " \
  "{xla.sdy.in_shardings = " SHARDINGS ", " AXES "}} : (tensor<4xf32>) -> tensor<2xf32>\n"
#define CALL(callee, x) "    %c = call @" callee "(" x ") : (tensor<2xf32>) -> tensor<2xf32>\n"
#define L2G(c)                                                                                      \
  "    %r = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(" c ") {mhlo.frontend_attributes = "  \
  "{xla.sdy.out_shardings = " SHARDINGS ", " AXES "}} : (tensor<2xf32>) -> tensor<4xf32>\n"
#define RET "    return %r : tensor<4xf32>\n  }\n"
#define BODY_NAME "xla.sdy.manual_computation_body"
#define BODY(name)                                                                                  \
  "  func.func private @" name "(%a: tensor<2xf32>) -> tensor<2xf32> {\n"                          \
  "    %n = stablehlo.negate %a : tensor<2xf32>\n    return %n : tensor<2xf32>\n  }\n"
#define SHARD_MAP G2L("%x") CALL(BODY_NAME, "%g") L2G("%c")

TEST(one_shard_map) {
  const char *out = read_and_print(HEAD SHARD_MAP RET BODY(BODY_NAME) "}\n");
  CHECK_STR_CONTAINS(out, "%0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{\"a\"}]>] "
                          "out_shardings=[<@mesh, [{\"a\"}]>] manual_axes={\"a\"} (%arg1: tensor<2xf32>) {\n");
  CHECK_STR_CONTAINS(out, "    return %0 : tensor<4xf32>\n");
}

/* A body call whose results nothing reads (XLA replaces results without elements with constants)
 * goes, with its custom calls. */
TEST(unread_call_goes) {
  const char *out = read_and_print(HEAD G2L("%x") CALL(BODY_NAME, "%g") "    return %x : tensor<4xf32>\n  }\n" BODY(BODY_NAME) "}\n");
  CHECK_STR_CONTAINS(out, "func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n    return %arg0 : tensor<4xf32>\n  }\n}\n");
  CHECK(!strstr(out, BODY_NAME));
}

/* `n` body functions, each a manual computation without operands or results calling the next. */
static char *nested_bodies(int n) {
  size_t cap = (size_t)n * 200 + 400;
  char *text = malloc(cap);
  if (!text) return NULL;
  int len = snprintf(text, cap, "module attributes " MESHES " {\n  func.func public @main() {\n"
                                "    call @" BODY_NAME "_0() : () -> ()\n    return\n  }\n");
  for (int i = 0; i < n; i++) {
    len += snprintf(text + len, cap - (size_t)len, "  func.func private @" BODY_NAME "_%d() {\n", i);
    if (i + 1 < n) len += snprintf(text + len, cap - (size_t)len, "    call @" BODY_NAME "_%d() : () -> ()\n", i + 1);
    len += snprintf(text + len, cap - (size_t)len, "    return\n  }\n");
  }
  snprintf(text + len, cap - (size_t)len, "}\n");
  return text;
}

/* Manual computations with no operands and no results nest as deep as regions may, no deeper. */
TEST(nesting) {
  char *text = nested_bodies(100);
  CHECK(text != NULL);
  if (!text) return;
  const char *out = read_and_print(text);
  CHECK_STR_CONTAINS(out, "  func.func public @main() {\n    sdy.manual_computation() in_shardings=[] out_shardings=[] "
                          "manual_axes={} () {\n      sdy.manual_computation()");
  CHECK(!strstr(out, BODY_NAME));
  free(text);
  text = nested_bodies(300);
  CHECK(text != NULL);
  if (text) EXPECT_ERROR(text, "deeper than 256");
  free(text);
}

/* ---------------------------------------------------------------------------------------------- */
/* Malformed forms                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

TEST(body_function_errors) {
  EXPECT_ERROR(HEAD SHARD_MAP RET "}\n", "func.call: calls @" BODY_NAME ", which is not in the module");
  EXPECT_ERROR(HEAD SHARD_MAP RET "  func.func private @" BODY_NAME "(tensor<2xf32>) -> tensor<2xf32>\n}\n",
               "body function @" BODY_NAME " has no body");
  EXPECT_ERROR(HEAD SHARD_MAP "    %c2 = call @" BODY_NAME "(%g) : (tensor<2xf32>) -> tensor<2xf32>\n"
                   "    %r2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%c2) {mhlo.frontend_attributes = "
                   "{xla.sdy.out_shardings = " SHARDINGS "}} : (tensor<2xf32>) -> tensor<4xf32>\n" RET BODY(BODY_NAME) "}\n",
               "is already the body of another manual computation");
  EXPECT_ERROR("module {\n  func.func public @main() {\n    call @" BODY_NAME "() : () -> ()\n    return\n  }\n"
               "  func.func private @" BODY_NAME "() {\n    call @" BODY_NAME "() : () -> ()\n    return\n  }\n}\n",
               "function @" BODY_NAME " is its own manual computation body");
  EXPECT_ERROR(HEAD SHARD_MAP RET "  func.func private @" BODY_NAME "(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
               "    return %a : tensor<2xf32>\n  }\n}\n", "takes 2 values and returns 1; the call passes 1 and takes 1");
  EXPECT_ERROR(HEAD SHARD_MAP RET "  func.func private @" BODY_NAME "(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
               "    stablehlo.custom_call @f() : () -> ()\n  }\n}\n", "does not end with a return of its 1 results");
}

TEST(custom_call_errors) {
  /* Operands: not from a GlobalToLocalShape, from one with other counts, another result of it. */
  EXPECT_ERROR(HEAD "    %g = stablehlo.slice %x [0:2] : (tensor<4xf32>) -> tensor<2xf32>\n" CALL(BODY_NAME, "%g")
               L2G("%c") RET BODY(BODY_NAME) "}\n", "no operand of the manual computation body call comes from");
  EXPECT_ERROR(HEAD "    %g = stablehlo.custom_call @other(%x) : (tensor<4xf32>) -> tensor<2xf32>\n" CALL(BODY_NAME, "%g")
               L2G("%c") RET BODY(BODY_NAME) "}\n", "no operand of the manual computation body call comes from");
  EXPECT_ERROR(HEAD "    %g:2 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)\n"
               CALL(BODY_NAME, "%g#1") L2G("%c") RET BODY(BODY_NAME) "}\n", "@xla.sdy.GlobalToLocalShape: 2 operands and 2 results, expected 1 of each");
  /* Results: read first by another op, by a LocalToGlobalShape of other counts. */
  EXPECT_ERROR(HEAD G2L("%x") CALL(BODY_NAME, "%g") "    %n = stablehlo.negate %c : tensor<2xf32>\n" L2G("%c") RET
               BODY(BODY_NAME) "}\n", "expected custom_call @xla.sdy.LocalToGlobalShape to read them first");
  EXPECT_ERROR(HEAD G2L("%x") CALL(BODY_NAME, "%g") "    %r:2 = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%c, %c) : "
               "(tensor<2xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n    return %r#0 : tensor<4xf32>\n  }\n"
               BODY(BODY_NAME) "}\n", "@xla.sdy.LocalToGlobalShape: 2 operands and 2 results, expected 1 of each");
  /* A body call's result or a GlobalToLocalShape's read by something else than the import replaces. */
  EXPECT_ERROR(HEAD SHARD_MAP "    %n = stablehlo.negate %c : tensor<2xf32>\n" RET BODY(BODY_NAME) "}\n",
               "stablehlo.negate: operand #0 reads a result of func.call " BODY_NAME);
  EXPECT_ERROR(HEAD SHARD_MAP "    %n = stablehlo.negate %g : tensor<2xf32>\n" RET BODY(BODY_NAME) "}\n",
               "operand #0 reads a result of stablehlo.custom_call xla.sdy.GlobalToLocalShape");
  EXPECT_ERROR(HEAD "    %r = stablehlo.custom_call @xla.sdy.LocalToGlobalShape(%x) : (tensor<4xf32>) -> tensor<4xf32>\n" RET "}\n",
               "reads a result of stablehlo.custom_call xla.sdy.LocalToGlobalShape");
  /* The other custom calls. */
  EXPECT_ERROR(HEAD "    %r = stablehlo.custom_call @xla.sdy.FuncResultSharding(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n" RET "}\n",
               "@xla.sdy.FuncResultSharding: 2 operands and 1 results, expected as many");
  EXPECT_ERROR(HEAD "    %r = stablehlo.custom_call @xla.sdy.ShardingGroup(%x) : (tensor<4xf32>) -> tensor<4xf32>\n" RET "}\n",
               "@xla.sdy.ShardingGroup: 1 results, expected none");
  EXPECT_ERROR(HEAD "    %r = stablehlo.custom_call @Sharding(%x, %x) {mhlo.frontend_attributes = {xla.sdy.sharding = " SHARDINGS
               "}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n" RET "}\n", "@Sharding: 2 operands and 1 results, expected one of each");
  EXPECT_ERROR(HEAD "    %r = stablehlo.custom_call @Sharding(%x) {mhlo.frontend_attributes = {xla.sdy.sharding = "
               "\"#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>\"}} : (tensor<4xf32>) -> tensor<4xf32>\n" RET "}\n",
               "stablehlo.custom_call: xla.sdy.sharding: Shardy attribute");
  /* A GSPMD @Sharding (no xla.sdy.sharding) is left to the GSPMD import, which drops it
   * (tests/ir/test_gspmd_import.c). */
  const char *gspmd = read_and_print(HEAD "    %r = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = \"{replicated}\"} : "
                                     "(tensor<4xf32>) -> tensor<4xf32>\n" RET "}\n");
  CHECK_STR_CONTAINS(gspmd, "return %arg0 : tensor<4xf32>");
  CHECK(!strstr(gspmd, "custom_call"));
}

/* The shard_map with GlobalToLocalShape's frontend attributes `attrs`. */
#define WITH_IN(attrs)                                                                              \
  HEAD "    %g = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%x) {mhlo.frontend_attributes = {" attrs \
       "}} : (tensor<4xf32>) -> tensor<2xf32>\n" CALL(BODY_NAME, "%g") L2G("%c") RET BODY(BODY_NAME) "}\n"

TEST(string_errors) {
  EXPECT_ERROR(WITH_IN(AXES), "stablehlo.custom_call: no frontend attribute xla.sdy.in_shardings");
  EXPECT_ERROR(WITH_IN("xla.sdy.in_shardings = 3"), "xla.sdy.in_shardings is not a string");
  EXPECT_ERROR(WITH_IN("xla.sdy.in_shardings = \"#sdy.sharding<@mesh, [{}]>\""),
               "xla.sdy.in_shardings is '#sdy.sharding<@mesh, [{}]>', expected #sdy.sharding_per_value<");
  EXPECT_ERROR(WITH_IN("xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh, [{\\22a\\22}>]>\""),
               "xla.sdy.in_shardings: Shardy attribute");
  EXPECT_ERROR(WITH_IN("xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>\""),
               "xla.sdy.in_shardings: Shardy attribute");
  EXPECT_ERROR(WITH_IN("xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh, [{\\\\q}]>]>\""),
               "xla.sdy.in_shardings holds a malformed escape");
  EXPECT_ERROR(WITH_IN("xla.sdy.in_shardings = " SHARDINGS ", xla.sdy.manual_axes = \"#sdy<manual_axes{a}>\""),
               "xla.sdy.manual_axes: Shardy attribute");
  /* a NUL byte (MLIR's \00 escape) inside an axis name, where the structure reads as valid */
  EXPECT_ERROR(WITH_IN("xla.sdy.in_shardings = \"#sdy.sharding_per_value<[<@mesh, [{\\22a\\00\\22}]>]>\""),
               "xla.sdy.in_shardings holds a NUL byte");
  EXPECT_ERROR("module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = \"{mesh = #sdy.mesh<[\\22a\\22=2]>}\"}} {\n"
               "  func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
               "    %c = stablehlo.custom_call @Sharding(%x) {mhlo.frontend_attributes = {xla.sdy.sharding = "
               "\"#sdy.sharding_per_value<[<@mesh, [{\\22\\00a\\22}]>]>\"}} : (tensor<4xf32>) -> tensor<4xf32>\n"
               "    return %c : tensor<4xf32>\n  }\n}\n",
               "xla.sdy.sharding holds a NUL byte");
}

/* The module whose xla.sdy.meshes string is `meshes`. */
#define WITH_MESHES(meshes)                                                                         \
  "module attributes {mhlo.frontend_attributes = {xla.sdy.meshes = " meshes "}} {\n"                \
  "  func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n    return %x : tensor<4xf32>\n  }\n}\n"

TEST(mesh_errors) {
  EXPECT_ERROR(WITH_MESHES("3"), "t.mlir: module attribute xla.sdy.meshes is not a string");
  EXPECT_ERROR(WITH_MESHES("\"mesh = 1\""), "expected '{' at offset 0");
  EXPECT_ERROR(WITH_MESHES("\"{mesh #sdy.mesh<[]>}\""), "expected `name =` at offset 6");
  EXPECT_ERROR(WITH_MESHES("\"{mesh = <[]>}\""), "expected #sdy.mesh<...> at offset 8");
  EXPECT_ERROR(WITH_MESHES("\"{mesh = #sdy.mesh<[\\22a\\22=2]>\""), "expected ',' or '}'");
  EXPECT_ERROR(WITH_MESHES("\"{mesh = #sdy.mesh<[\\22a\\22=2]\""), "expected #sdy.mesh<...>");
  EXPECT_ERROR(WITH_MESHES("\"{mesh = #sdy.mesh<[]>, mesh = #sdy.mesh<[]>}\""), "a second mesh called 'mesh'");
  EXPECT_ERROR(WITH_MESHES("\"{mesh = #sdy.mesh<[\\22a\\22=0]>}\""), "module attribute xla.sdy.meshes: Shardy attribute");
  EXPECT_ERROR(WITH_MESHES("\"{} x\""), "unexpected text at offset 3");
  EXPECT_ERROR(WITH_MESHES("\"\\\\\""), "holds a malformed escape");
  /* An empty dictionary: no meshes, and the module's attributes without the string. */
  CHECK_STR_CONTAINS(read_and_print(WITH_MESHES("\"{}\"")), "module {\n");
}

int main(void) {
  RUN(attributes_on_the_custom_calls);
  RUN(from_bytecode);
  RUN(attributes_on_the_call);
  RUN(one_shard_map);
  RUN(unread_call_goes);
  RUN(nesting);
  RUN(body_function_errors);
  RUN(custom_call_errors);
  RUN(string_errors);
  RUN(mesh_errors);
  TEST_MAIN_END();
}

/* The nesting bounds of base/limits.h agree from stage to stage: the deepest program the parser
 * accepts also verifies, prints, parses back once printed, compiles, runs compiled and runs in the
 * interpreter; calls and regions together stop the compiler and the interpreter at the same depth,
 * with RESOURCE_EXHAUSTED rather than a crash. */
#include <string.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "ir/ir.h"
#include "test.h"

/* `n_funcs` functions @f0 .. @fN-1 (%p: i1, %x: f32) -> f32, each `depth` stablehlo.if deep; the
 * innermost branch of @fK calls @fK+1, the last one's adds. With a true %p everything runs. */
static void nested_program(hr_strbuf *sb, int n_funcs, int depth, bool module) {
  hr_strbuf_init(sb, NULL);
  if (module) hr_strbuf_puts(sb, "module {\n");
  for (int f = 0; f < n_funcs; f++) {
    hr_strbuf_printf(sb, "func.func %s @f%d(%%p: tensor<i1>, %%x: tensor<f32>) -> tensor<f32> {\n",
                     f ? "private" : "public", f);
    for (int d = 0; d < depth; d++) hr_strbuf_printf(sb, "%%r%d = \"stablehlo.if\"(%%p) ({\n", d);
    if (f + 1 < n_funcs)
      hr_strbuf_printf(sb, "%%c = func.call @f%d(%%p, %%x) : (tensor<i1>, tensor<f32>) -> tensor<f32>\n", f + 1);
    else
      hr_strbuf_puts(sb, "%c = stablehlo.add %x, %x : tensor<f32>\n");
    if (depth) hr_strbuf_puts(sb, "\"stablehlo.return\"(%c) : (tensor<f32>) -> ()\n");
    for (int d = depth - 1; d >= 0; d--) {
      hr_strbuf_puts(sb, "}, {\n\"stablehlo.return\"(%x) : (tensor<f32>) -> ()\n}) : (tensor<i1>) -> tensor<f32>\n");
      if (d > 0) hr_strbuf_printf(sb, "\"stablehlo.return\"(%%r%d) : (tensor<f32>) -> ()\n", d);
    }
    hr_strbuf_puts(sb, depth ? "return %r0 : tensor<f32>\n}\n" : "return %c : tensor<f32>\n}\n");
  }
  if (module) hr_strbuf_puts(sb, "}\n");
}

static hr_status parse_text(const hr_strbuf *sb, hr_module **m) {
  return hr_module_parse("t.mlir", sb->data, sb->len, NULL, m);
}

/* Runs @f0 on (true, 1.5) in the interpreter or compiled; checks 3 when it succeeds. */
static hr_status run(const hr_module *m, bool compiled) {
  hr_shape scalar = {0};
  hr_tensor *in[2] = {NULL, NULL};
  hr_status s = hr_tensor_create(NULL, HR_I1, &scalar, 0, &in[0]);
  if (!s) s = hr_tensor_create(NULL, HR_F32, &scalar, 0, &in[1]);
  if (!s) {
    *(uint8_t *)in[0]->data = 1;
    *(float *)in[1]->data = 1.5f;
  }
  hr_tensor **outs = NULL;
  int n = 0;
  hr_run_options ro = {.num_threads = 1};
  if (!s && !compiled) s = hr_module_run(m, "f0", in, 2, &ro, &outs, &n);
  if (!s && compiled) {
    /* The program takes the module over: give it a copy made by printing and parsing. */
    hr_strbuf text;
    hr_strbuf_init(&text, NULL);
    hr_module *copy = NULL;
    hr_program *p = NULL;
    hr_executable *e = NULL;
    s = hr_module_print_to(m, &text);
    if (!s) s = hr_module_parse("copy.mlir", text.data, text.len, NULL, &copy);
    hr_strbuf_free(&text);
    hr_exec_options eo = {.num_threads = 1};
    if (!s) s = hr_program_create(copy, "f0", NULL, &eo, &p);
    hr_tensor_spec specs[2] = {{HR_I1, scalar}, {HR_F32, scalar}};
    if (!s) s = hr_program_compile(p, specs, 2, &e);
    if (!s) s = hr_executable_run(e, in, 2, &outs, &n);
    hr_executable_free(e);
    hr_program_free(p);
  }
  if (!s) {
    CHECK_EQ_INT(n, 1);
    if (n == 1) CHECK(*(const float *)outs[0]->data == 3.0f);
  }
  hr_tensors_free(outs, n);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
  return s;
}

static void expect_exhausted(hr_status s, const char *what) {
  CHECK(s && hr_status_code(s) == HR_RESOURCE_EXHAUSTED);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), what);
  hr_status_free(s);
}

/* Printed (always with the module's braces), the module parses back. */
static void check_parses_back(const hr_module *m) {
  hr_strbuf text;
  hr_strbuf_init(&text, NULL);
  CHECK_OK(hr_module_print_to(m, &text));
  hr_module *again = NULL;
  CHECK_OK(hr_module_parse("printed.mlir", text.data, text.len, NULL, &again));
  hr_module_free(again);
  hr_strbuf_free(&text);
}

TEST(deepest_parsable_regions_pass_every_stage) {
  /* The function body is one level, so HR_LIMIT_NESTING_DEPTH - 1 regions fit. */
  int depth = HR_LIMIT_NESTING_DEPTH - 1;
  for (int module = 0; module < 2; module++) {
    hr_strbuf sb;
    nested_program(&sb, 1, depth, module);
    hr_module *m = NULL;
    CHECK_OK(parse_text(&sb, &m));
    hr_strbuf_free(&sb);
    if (!m) continue;
    check_parses_back(m);
    CHECK_OK(run(m, false));
    CHECK_OK(run(m, true));
    hr_module_free(m);
  }
  /* One more region is the parser's to refuse. */
  hr_strbuf sb;
  nested_program(&sb, 1, depth + 1, true);
  hr_module *m = NULL;
  expect_exhausted(parse_text(&sb, &m), "nesting is deeper than the limit of 256");
  hr_strbuf_free(&sb);
}

TEST(calls_and_regions_stop_compiler_and_interpreter_alike) {
  /* n functions of d regions each, all but the last calling the next at their innermost: n * d +
   * n - 1 levels at the last add (the first case is exactly the limit, the others just under or
   * over it). */
  static const struct {
    int n_funcs, depth;
  } fits[] = {{HR_LIMIT_NESTING_DEPTH + 1, 0}, {3, 84}, {4, 63}, {2, 127}},
    too_deep[] = {{HR_LIMIT_NESTING_DEPTH + 2, 0}, {3, 85}, {4, 64}, {64, 250}};
  for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++) {
    CHECK(fits[i].n_funcs * fits[i].depth + fits[i].n_funcs - 1 <= HR_LIMIT_NESTING_DEPTH);
    hr_strbuf sb;
    nested_program(&sb, fits[i].n_funcs, fits[i].depth, true);
    hr_module *m = NULL;
    CHECK_OK(parse_text(&sb, &m));
    hr_strbuf_free(&sb);
    if (!m) continue;
    CHECK_OK(run(m, false));
    CHECK_OK(run(m, true));
    hr_module_free(m);
  }
  for (size_t i = 0; i < sizeof too_deep / sizeof too_deep[0]; i++) {
    CHECK(too_deep[i].n_funcs * too_deep[i].depth + too_deep[i].n_funcs - 1 > HR_LIMIT_NESTING_DEPTH);
    hr_strbuf sb;
    nested_program(&sb, too_deep[i].n_funcs, too_deep[i].depth, true);
    hr_module *m = NULL;
    CHECK_OK(parse_text(&sb, &m));
    hr_strbuf_free(&sb);
    if (!m) continue;
    expect_exhausted(run(m, false), "calls and regions nest deeper than 256");
    expect_exhausted(run(m, true), "calls and regions nest deeper than 256");
    hr_module_free(m);
  }
}

/* A function whose attribute nests `n` arrays deep. */
static void nested_attr_program(hr_strbuf *sb, int n) {
  hr_strbuf_init(sb, NULL);
  hr_strbuf_puts(sb, "func.func @f0(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> attributes {a = ");
  for (int i = 0; i < n; i++) hr_strbuf_putc(sb, '[');
  for (int i = 0; i < n; i++) hr_strbuf_putc(sb, ']');
  hr_strbuf_puts(sb, "} {\n%r = stablehlo.add %x, %x : tensor<f32>\nreturn %r : tensor<f32>\n}\n");
}

TEST(deepest_parsable_attributes_print_and_compile) {
  /* The attribute dictionary is one level. */
  hr_strbuf sb;
  nested_attr_program(&sb, HR_LIMIT_NESTING_DEPTH - 1);
  hr_module *m = NULL;
  CHECK_OK(parse_text(&sb, &m));
  hr_strbuf_free(&sb);
  if (m) {
    check_parses_back(m);
    CHECK_OK(run(m, true));
    hr_module_free(m);
  }
  nested_attr_program(&sb, HR_LIMIT_NESTING_DEPTH);
  expect_exhausted(parse_text(&sb, &m), "nesting is deeper than the limit of 256");
  hr_strbuf_free(&sb);
}

TEST(configured_nesting_cannot_exceed_the_limit) {
  hr_strbuf sb;
  nested_attr_program(&sb, HR_LIMIT_NESTING_DEPTH + 10);
  hr_parse_options opts = {.max_nesting = 100000};
  hr_module *m = NULL;
  expect_exhausted(hr_module_parse("t.mlir", sb.data, sb.len, &opts, &m), "nesting is deeper than the limit of 256");
  hr_strbuf_free(&sb);
}

int main(void) {
  RUN(deepest_parsable_regions_pass_every_stage);
  RUN(calls_and_regions_stop_compiler_and_interpreter_alike);
  RUN(deepest_parsable_attributes_print_and_compile);
  RUN(configured_nesting_cannot_exceed_the_limit);
  TEST_MAIN_END();
}

/* Run controls (hr_run_control): a deadline or a cancel callback stops a long stablehlo.while
 * (compiled, and in the interpreter), a deadline already past stops a run before its first step,
 * a batch-split run stops between its chunks, max_output_bytes refuses before running, and a
 * NULL or zeroed control changes nothing. After every stop the program runs again normally. */
#include <stdint.h>

#include "runtime/exec_internal.h"
#include "test.h"
#include "same_outputs.h"

/* Counts i from 0 to n: up to 1e9 iterations of the interpreter's while (a wrapped step when
 * compiled). */
static const char *const counter_mlir =
    "func.func public @main(%n: tensor<i64>) -> tensor<i64> {\n"
    "  %zero = stablehlo.constant dense<0> : tensor<i64>\n"
    "  %one = stablehlo.constant dense<1> : tensor<i64>\n"
    "  %0:2 = stablehlo.while(%i = %zero, %lim = %n) : tensor<i64>, tensor<i64>\n"
    "   cond {\n"
    "    %c = stablehlo.compare LT, %i, %lim, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  } do {\n"
    "    %j = stablehlo.add %i, %one : tensor<i64>\n"
    "    stablehlo.return %j, %lim : tensor<i64>, tensor<i64>\n"
    "  }\n"
    "  return %0#0 : tensor<i64>\n"
    "}\n";

/* Two outputs of 16 bytes per example. */
static const char *const two_outputs_mlir =
    "func.func public @main(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {\n"
    "  %y = stablehlo.add %x, %x : tensor<?x4xf32>\n"
    "  %z = stablehlo.multiply %y, %x : tensor<?x4xf32>\n"
    "  return %y, %z : tensor<?x4xf32>, tensor<?x4xf32>\n"
    "}\n";

/* 4 KiB per example: at batch 4096 (16 MiB) a run is split into chunks. */
static const char *const wide_mlir =
    "func.func public @main(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {\n"
    "  %a = stablehlo.tanh %x : tensor<?x1024xf32>\n"
    "  %b = stablehlo.multiply %a, %x : tensor<?x1024xf32>\n"
    "  %c = stablehlo.add %b, %x : tensor<?x1024xf32>\n"
    "  return %c : tensor<?x1024xf32>\n"
    "}\n";

static hr_program *program_of(const char *text) {
  hr_module *m = NULL;
  hr_program *p = NULL;
  CHECK_OK(hr_module_parse("ctl.mlir", text, strlen(text), NULL, &m));
  if (m) CHECK_OK(hr_program_create(m, NULL, NULL, NULL, &p));
  return p;
}

static hr_tensor *i64_scalar(int64_t v) {
  hr_shape s = {.rank = 0};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_I64, &s, 0, &t));
  if (t) *(int64_t *)t->data = v;
  return t;
}

static hr_tensor *f32_matrix(int64_t rows, int64_t cols) {
  hr_shape s = {.rank = 2, .dims = {rows, cols}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &s, 0, &t));
  for (int64_t i = 0; t && i < rows * cols; i++) ((float *)t->data)[i] = (float)(i % 11 - 5) * 0.25f;
  return t;
}

/* Runs the counter program to `n` under `ctl`; returns the count, or -1 on error (*code set). */
static int64_t count_to(hr_program *p, int64_t n, const hr_run_control *ctl, hr_code *code, char *msg, size_t cap) {
  hr_tensor *in = i64_scalar(n);
  hr_tensor **out = NULL;
  int n_out = 0;
  hr_status s = in ? hr_program_run_controlled(p, &in, 1, ctl, &out, &n_out) : hr_error(HR_OUT_OF_MEMORY, "input");
  *code = hr_status_code(s);
  if (msg) snprintf(msg, cap, "%s", hr_status_message(s));
  hr_status_free(s);
  int64_t got = out && n_out == 1 ? *(int64_t *)out[0]->data : -1;
  CHECK(s ? out == NULL && n_out == 0 : out != NULL);
  hr_tensors_free(out, n_out);
  hr_tensor_free(in);
  return got;
}

/* A cancel callback: true from poll `*limit + 1` on; counts the polls. */
typedef struct poll_counter {
  int64_t polls, limit;
} poll_counter;

static bool cancel_after(void *ctx) {
  poll_counter *c = ctx;
  return ++c->polls > c->limit;
}

TEST(new_codes_have_names) {
  CHECK(strcmp(hr_code_name(HR_DEADLINE_EXCEEDED), "DEADLINE_EXCEEDED") == 0);
  CHECK(strcmp(hr_code_name(HR_CANCELLED), "CANCELLED") == 0);
}

TEST(deadline_stops_a_long_while) {
  hr_program *p = program_of(counter_mlir);
  if (!p) return;
  hr_code code;
  char msg[1024];
  CHECK_EQ_INT(count_to(p, 3, NULL, &code, NULL, 0), 3); /* compiled before the clock starts */
  double t0 = hr_monotonic_seconds();
  hr_run_control ctl = {.deadline = t0 + 0.2};
  CHECK_EQ_INT(count_to(p, 1000000000, &ctl, &code, msg, sizeof msg), -1);
  double took = hr_monotonic_seconds() - t0;
  CHECK_EQ_INT(code, HR_DEADLINE_EXCEEDED);
  CHECK(took >= 0.2 && took < 1.0);
  CHECK_STR_CONTAINS(msg, "ctl.mlir:4:");
  CHECK_STR_CONTAINS(msg, "stablehlo.while: the run passed its deadline (in iteration ");
  /* The same executable runs again, with and without a control. */
  CHECK_EQ_INT(count_to(p, 10, NULL, &code, NULL, 0), 10);
  ctl.deadline = hr_monotonic_seconds() + 60;
  CHECK_EQ_INT(count_to(p, 1000, &ctl, &code, NULL, 0), 1000);
  CHECK_EQ_INT(hr_program_cache_size(p), 1);
  hr_program_free(p);
}

TEST(cancel_callback_stops_after_n_polls) {
  hr_program *p = program_of(counter_mlir);
  if (!p) return;
  hr_code code;
  char msg[1024];
  poll_counter pc = {0, 1000};
  hr_run_control ctl = {.cancelled = cancel_after, .cancel_ctx = &pc};
  CHECK_EQ_INT(count_to(p, 1000000000, &ctl, &code, msg, sizeof msg), -1);
  CHECK_EQ_INT(code, HR_CANCELLED);
  CHECK_EQ_INT(pc.polls, 1001);
  CHECK_STR_CONTAINS(msg, "stablehlo.while: the run was cancelled (in iteration ");
  /* A callback that never cancels: the loop polls on every iteration and the run completes. */
  pc = (poll_counter){0, INT64_MAX};
  CHECK_EQ_INT(count_to(p, 500, &ctl, &code, NULL, 0), 500);
  CHECK(pc.polls > 500);
  hr_program_free(p);
}

TEST(past_deadline_stops_before_the_first_step) {
  hr_program *p = program_of(counter_mlir);
  if (!p) return;
  hr_code code;
  char msg[1024];
  poll_counter pc = {0, INT64_MAX};
  hr_run_control ctl = {.deadline = hr_monotonic_seconds() - 1, .cancelled = cancel_after, .cancel_ctx = &pc};
  CHECK_EQ_INT(count_to(p, 5, &ctl, &code, msg, sizeof msg), -1);
  CHECK_EQ_INT(code, HR_DEADLINE_EXCEEDED);
  CHECK_EQ_INT(pc.polls, 0); /* the deadline is checked first */
  CHECK_STR_CONTAINS(msg, "the run passed its deadline (at step ");
  CHECK_EQ_INT(count_to(p, 5, NULL, &code, NULL, 0), 5);
  hr_program_free(p);
}

TEST(interpreter_run_is_controlled_too) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("ctl.mlir", counter_mlir, strlen(counter_mlir), NULL, &m));
  hr_tensor *n = i64_scalar(1000000000);
  if (!m || !n) {
    hr_module_free(m);
    hr_tensor_free(n);
    return;
  }
  double t0 = hr_monotonic_seconds();
  hr_run_control ctl = {.deadline = t0 + 0.2};
  hr_run_options opts = {.num_threads = 1, .control = &ctl};
  hr_tensor **out = NULL;
  int n_out = 0;
  hr_status s = hr_module_run(m, NULL, &n, 1, &opts, &out, &n_out);
  CHECK_EQ_INT(hr_status_code(s), HR_DEADLINE_EXCEEDED);
  CHECK(hr_monotonic_seconds() - t0 < 1.0);
  CHECK(out == NULL && n_out == 0);
  hr_status_free(s);
  /* A past deadline stops before the function's first op. */
  ctl.deadline = t0 - 1;
  s = hr_module_run(m, NULL, &n, 1, &opts, &out, &n_out);
  CHECK_EQ_INT(hr_status_code(s), HR_DEADLINE_EXCEEDED);
  CHECK_STR_CONTAINS(hr_status_message(s), "ctl.mlir:2:");
  CHECK_STR_CONTAINS(hr_status_message(s), "(before this op of @main)");
  hr_status_free(s);
  *(int64_t *)n->data = 7;
  ctl.deadline = 0;
  CHECK_OK(hr_module_run(m, NULL, &n, 1, &opts, &out, &n_out));
  if (out && n_out == 1) CHECK_EQ_INT(*(int64_t *)out[0]->data, 7);
  hr_tensors_free(out, n_out);
  hr_tensor_free(n);
  hr_module_free(m);
}

TEST(max_output_bytes_refuses_before_running) {
  hr_program *p = program_of(two_outputs_mlir);
  hr_tensor *x = f32_matrix(5, 4); /* outputs: 2 x 80 bytes */
  if (!p || !x) {
    hr_program_free(p);
    hr_tensor_free(x);
    return;
  }
  hr_tensor **out = NULL;
  int n_out = 0;
  poll_counter pc = {0, INT64_MAX};
  hr_run_control ctl = {.max_output_bytes = 159, .cancelled = cancel_after, .cancel_ctx = &pc};
  hr_status s = hr_program_run_controlled(p, &x, 1, &ctl, &out, &n_out);
  CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
  CHECK_STR_CONTAINS(hr_status_message(s), "@main: the outputs for these inputs would take 160 bytes, over the limit of 159");
  CHECK(out == NULL && n_out == 0);
  CHECK_EQ_INT(pc.polls, 0); /* nothing ran */
  hr_status_free(s);
  ctl.max_output_bytes = 160;
  CHECK_OK(hr_program_run_controlled(p, &x, 1, &ctl, &out, &n_out));
  CHECK_EQ_INT(n_out, 2);
  hr_tensors_free(out, n_out);
  /* The same on an executable. */
  hr_tensor_spec spec = {HR_F32, x->shape};
  hr_executable *e = NULL;
  CHECK_OK(hr_program_compile(p, &spec, 1, &e));
  if (e) {
    ctl.max_output_bytes = 159;
    s = hr_executable_run_controlled(e, &x, 1, &ctl, &out, &n_out);
    CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
    CHECK_STR_CONTAINS(hr_status_message(s), "would take 160 bytes, over the limit of 159");
    hr_status_free(s);
    ctl.max_output_bytes = 160;
    CHECK_OK(hr_executable_run_controlled(e, &x, 1, &ctl, &out, &n_out));
    hr_tensors_free(out, n_out);
  }
  hr_executable_free(e);
  hr_tensor_free(x);
  hr_program_free(p);
}

TEST(null_and_zeroed_controls_change_nothing) {
  hr_program *p = program_of(two_outputs_mlir);
  hr_tensor *x = f32_matrix(6, 4);
  if (!p || !x) {
    hr_program_free(p);
    hr_tensor_free(x);
    return;
  }
  hr_run_control zero;
  memset(&zero, 0, sizeof zero);
  hr_tensor **a = NULL, **b = NULL, **c = NULL;
  int na = 0, nb = 0, nc = 0;
  CHECK_OK(hr_program_run(p, &x, 1, &a, &na));
  CHECK_OK(hr_program_run_controlled(p, &x, 1, NULL, &b, &nb));
  CHECK_OK(hr_program_run_controlled(p, &x, 1, &zero, &c, &nc));
  if (a && b) check_same_outputs(a, na, b, nb, "NULL control");
  if (a && c) check_same_outputs(a, na, c, nc, "zeroed control");
  hr_tensors_free(a, na);
  hr_tensors_free(b, nb);
  hr_tensors_free(c, nc);
  hr_tensor_free(x);
  hr_program_free(p);
}

TEST(batch_split_run_stops_between_chunks) {
  hr_program *p = program_of(wide_mlir);
  hr_tensor *x = f32_matrix(4096, 1024);
  if (!p || !x) {
    hr_program_free(p);
    hr_tensor_free(x);
    return;
  }
  hr_tensor_spec spec = {HR_F32, x->shape};
  hr_executable *e = NULL;
  CHECK_OK(hr_program_compile(p, &spec, 1, &e));
  int64_t chunks = e ? hr_executable_chunks(e) : 0;
  CHECK(chunks >= 2);
  if (chunks < 2) {
    hr_executable_free(e);
    hr_tensor_free(x);
    hr_program_free(p);
    return;
  }
  /* A full run polls the same number of times per chunk. */
  hr_tensor **want = NULL, **got = NULL;
  int n_want = 0, n_got = 0;
  poll_counter pc = {0, INT64_MAX};
  hr_run_control ctl = {.cancelled = cancel_after, .cancel_ctx = &pc};
  CHECK_OK(hr_executable_run_controlled(e, &x, 1, &ctl, &want, &n_want));
  int64_t per_chunk = pc.polls / chunks;
  CHECK(per_chunk >= 1 && pc.polls == per_chunk * chunks);
  /* Cancelled at the first poll of the second chunk. */
  pc = (poll_counter){0, per_chunk};
  hr_status s = hr_executable_run_controlled(e, &x, 1, &ctl, &got, &n_got);
  CHECK_EQ_INT(hr_status_code(s), HR_CANCELLED);
  char expect[64];
  snprintf(expect, sizeof expect, ", chunk 2 of %lld)", (long long)chunks);
  CHECK_STR_CONTAINS(hr_status_message(s), expect);
  CHECK_STR_CONTAINS(hr_status_message(s), "the run was cancelled (at step ");
  CHECK(got == NULL && n_got == 0);
  hr_status_free(s);
  /* It runs whole again, with the same results; through the program (JIT) it stops the same. */
  CHECK_OK(hr_executable_run(e, &x, 1, &got, &n_got));
  if (got && want) check_same_outputs(got, n_got, want, n_want, "after a cancelled run");
  hr_tensors_free(got, n_got);
  got = NULL;
  n_got = 0;
  pc = (poll_counter){0, per_chunk};
  s = hr_program_run_controlled(p, &x, 1, &ctl, &got, &n_got);
  CHECK_EQ_INT(hr_status_code(s), HR_CANCELLED);
  CHECK_STR_CONTAINS(hr_status_message(s), expect);
  hr_status_free(s);
  hr_tensors_free(want, n_want);
  hr_executable_free(e);
  hr_tensor_free(x);
  hr_program_free(p);
}

int main(void) {
  RUN(new_codes_have_names);
  RUN(deadline_stops_a_long_while);
  RUN(cancel_callback_stops_after_n_polls);
  RUN(past_deadline_stops_before_the_first_step);
  RUN(interpreter_run_is_controlled_too);
  RUN(max_output_bytes_refuses_before_running);
  RUN(null_and_zeroed_controls_change_nothing);
  RUN(batch_split_run_stops_between_chunks);
  TEST_MAIN_END();
}

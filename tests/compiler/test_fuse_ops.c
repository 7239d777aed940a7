/* The hlorun.* ops written by hand: their verification rules (shapes, attributes, scalar bodies
 * without captures), printing and re-parsing, and the reference kernels against the formulas of
 * docs/fast-cpu.md computed here in double precision; also an executable built from such a
 * module agrees with the interpreter. */
#include <math.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "ir/ir.h"
#include "runtime/executable.h"
#include "test.h"

enum { MAX_IO = 8 };

/* Parses `text`; NULL when it does not parse (the error is stored in *err when err is given). */
static hr_module *parse(const char *text, hr_status *err) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse("ops.mlir", text, strlen(text), NULL, &m);
  if (err) *err = s;
  else CHECK_OK(s);
  return m;
}

/* Checks that `text` is rejected with a message containing `needle`. */
static void rejects(const char *text, const char *needle) {
  hr_status s = NULL;
  hr_module *m = parse(text, &s);
  CHECK(!m && s);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), needle);
  hr_status_free(s);
  hr_module_free(m);
}

/* An f32 tensor of `shape` filled with a deterministic pattern in [-1.5, 1.5]. */
static hr_tensor *pattern(const hr_shape *shape, int seed) {
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, shape, 0, &t));
  for (int64_t i = 0; t && i < hr_tensor_num_elements(t); i++)
    ((float *)t->data)[i] = (float)((i * 7 + seed * 5) % 13 - 6) * 0.25f;
  return t;
}

/* Runs main of `text` on pattern inputs; returns the first result (owned) and the inputs. */
static hr_tensor *run_text(const char *text, hr_tensor **inputs, int *n_inputs) {
  hr_module *m = parse(text, NULL);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  *n_inputs = 0;
  if (!fn) {
    hr_module_free(m);
    return NULL;
  }
  for (int i = 0; i < fn->n_args && i < MAX_IO; i++) inputs[(*n_inputs)++] = pattern(&fn->body.args[i].type.shape, i);
  hr_tensor **out = NULL;
  int n_out = 0;
  hr_run_options o = {.num_threads = 2};
  CHECK_OK(hr_module_run(m, "main", inputs, *n_inputs, &o, &out, &n_out));
  hr_tensor *first = NULL;
  if (out) {
    first = out[0];
    out[0] = NULL;
    hr_tensors_free(out, n_out);
  }
  hr_module_free(m);
  return first;
}

/* Compares a result with expected values: |got - want| <= tol * (1 + |want|). */
static void check_close(const hr_tensor *got, const double *want, int64_t n, double tol) {
  CHECK(got && got->dtype == HR_F32 && hr_tensor_num_elements(got) == n);
  for (int64_t i = 0; got && i < n && i < hr_tensor_num_elements(got); i++) {
    double g = ((const float *)got->data)[i];
    if (!(fabs(g - want[i]) <= tol * (1.0 + fabs(want[i])))) {
      fprintf(stderr, "element %lld: got %.9g, want %.9g\n", (long long)i, g, want[i]);
      CHECK(!"close");
      return;
    }
  }
}

static void free_all(hr_tensor **t, int n) {
  for (int i = 0; i < n; i++) hr_tensor_free(t[i]);
}

/* ---------------------------------------------------------------------------------------------- */
/* Verification                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* A module using every hlorun op; %BODY replaces the matmul's epilogue body. */
static const char *kAllOps =
    "func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<5x4xf32>, %col: tensor<5xf32>, %r: tensor<2x3x5xf32>, %q: tensor<1x3x2x4xf32>, %k: tensor<1x5x2x4xf32>) -> (tensor<2x3x5xf32>, tensor<1x3x2x4xf32>) {\n"
    "  %0 = \"hlorun.matmul\"(%a, %b, %col, %r) ({\n"
    "  ^bb0(%acc: tensor<f32>, %x: tensor<f32>, %y: tensor<f32>):\n"
    "    %c = stablehlo.constant dense<5.000000e-01> : tensor<f32>\n"
    "    %1 = stablehlo.add %acc, %x : tensor<f32>\n"
    "    %2 = stablehlo.multiply %1, %c : tensor<f32>\n"
    "    %3 = stablehlo.add %2, %y : tensor<f32>\n"
    "    stablehlo.return %3 : tensor<f32>\n"
    "  }) {transpose_b = true} : (tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>\n"
    "  %4 = \"hlorun.fused\"(%0, %col) ({\n"
    "  ^bb0(%p: tensor<f32>, %s: tensor<f32>):\n"
    "    %5 = stablehlo.tanh %p : tensor<f32>\n"
    "    %6 = stablehlo.subtract %5, %s : tensor<f32>\n"
    "    stablehlo.return %6 : tensor<f32>\n"
    "  }) {broadcast_dimensions = [array<i64: 0, 1, 2>, array<i64: 2>]} : (tensor<2x3x5xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>\n"
    "  %7 = \"hlorun.layer_norm\"(%4, %col, %col) {epsilon = 1.0e-6 : f32} : (tensor<2x3x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x3x5xf32>\n"
    "  %8 = \"hlorun.softmax\"(%7) : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32>\n"
    "  %9 = \"hlorun.attention\"(%q, %k, %k) {scale = 0.5 : f32, causal = true} : (tensor<1x3x2x4xf32>, tensor<1x5x2x4xf32>, tensor<1x5x2x4xf32>) -> tensor<1x3x2x4xf32>\n"
    "  return %8, %9 : tensor<2x3x5xf32>, tensor<1x3x2x4xf32>\n"
    "}\n";

TEST(ops_parse_print_and_reparse) {
  hr_module *m = parse(kAllOps, NULL);
  if (!m) return;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(m, &sb));
  CHECK_STR_CONTAINS(sb.data, "\"hlorun.matmul\"(");
  CHECK_STR_CONTAINS(sb.data, "{transpose_b = true}");
  CHECK_STR_CONTAINS(sb.data, "broadcast_dimensions = [array<i64: 0, 1, 2>, array<i64: 2>]");
  CHECK_STR_CONTAINS(sb.data, "{causal = true, scale = 5.000000e-01 : f32}");
  hr_module *again = parse(sb.data, NULL);
  hr_strbuf sb2;
  hr_strbuf_init(&sb2, NULL);
  if (again) CHECK_OK(hr_module_print_to(again, &sb2));
  CHECK(again && sb2.data && strcmp(sb.data, sb2.data) == 0);
  hr_strbuf_free(&sb);
  hr_strbuf_free(&sb2);
  hr_module_free(again);
  hr_module_free(m);
}

/* kAllOps with one substring replaced (the first occurrence). */
static char *variant(const char *from, const char *to) {
  static char buf[8192];
  const char *at = strstr(kAllOps, from);
  if (!at) {
    CHECK(!"variant: substring not found");
    snprintf(buf, sizeof buf, "%s", kAllOps);
    return buf;
  }
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - kAllOps), kAllOps, to, at + strlen(from));
  return buf;
}

TEST(ops_reject_bad_shapes_and_bodies) {
  rejects(variant("{transpose_b = true}", "{transpose_b = false}"), "contracted dimension K");
  rejects(variant("array<i64: 2>]", "array<i64: 1>]"), "operand #1 dimension 0 has size 5");
  rejects(variant("array<i64: 0, 1, 2>, array<i64: 2>]", "array<i64: 0, 1, 2>]"), "one entry per operand");
  rejects(variant("{epsilon = 1.0e-6 : f32}", "{eps = 1.0e-6 : f32}"), "missing attribute 'epsilon'");
  /* Single ops with a consistent signature but operands the rules reject. */
  static const char *kSingles[][2] = {
      {"%0 = \"hlorun.fused\"(%m) ({\n^bb0(%x: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n})"
       " {broadcast_dimensions = [array<i64: 1, 0>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>",
       "increasing"},
      {"%0 = \"hlorun.layer_norm\"(%m, %v, %m) {epsilon = 1.0e-6 : f32} : (tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>",
       "bias (operand #2) must have rank 1"},
      {"%0 = \"hlorun.layer_norm\"(%m, %v3, %v) {epsilon = 1.0e-6 : f32} : (tensor<4x4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<4x4xf32>",
       "scale and the last dimension of x"},
      {"%0 = \"hlorun.attention\"(%q, %q, %k) {scale = 1.0 : f32} : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>, tensor<1x3x2x4xf32>) -> tensor<1x4x2x4xf32>",
       "key and value sequence lengths"},
      {"%0 = \"hlorun.attention\"(%q, %k, %k) : (tensor<1x4x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) -> tensor<1x4x2x4xf32>",
       "missing attribute 'scale'"},
      {"%0 = \"hlorun.attention\"(%p) {scale = 1.0 : f32} : (tensor<1x4x2x2x4xf32>) -> tensor<1x4x2x4xf32>",
       "dimension 2 of qkv (q, k, v)"},
      {"%0 = \"hlorun.attention\"(%q) {scale = 1.0 : f32} : (tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>",
       "qkv (operand #0)"},
      {"%0 = \"hlorun.attention\"(%q, %q) {scale = 1.0 : f32} : (tensor<1x4x2x4xf32>, tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>",
       "or one qkv operand"},
      {"%0 = \"hlorun.matmul\"(%m, %v, %q) ({\n^bb0(%x: tensor<f32>, %y: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n})"
       " : (tensor<4x4xf32>, tensor<4xf32>, tensor<1x4x2x4xf32>) -> tensor<4x4xf32>",
       "b (operand #1) must have rank 2"},
      {"%0 = \"hlorun.matmul\"(%m, %m, %q) ({\n^bb0(%x: tensor<f32>, %y: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n})"
       " : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<1x4x2x4xf32>) -> tensor<4x4xf32>",
       "expected rank 0, [N] or the result shape"},
      {"%0 = \"hlorun.matmul\"(%m, %m, %v) ({\n^bb0(%x: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n})"
       " : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>",
       "body must take 2 arguments, got 1"},
      {"%0 = \"hlorun.matmul\"(%m, %m) ({\n^bb0(%x: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n})"
       " {b_window = array<i64: 1, 0, 4, 4>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>",
       "b_window must be 4 integers"},
      {"%0 = \"hlorun.matmul\"(%m, %m) ({\n^bb0(%x: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n})"
       " {b_window = array<i64: 0, 0, 4>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>",
       "b_window must be 4 integers"},
      {"%0 = \"hlorun.matmul\"(%m, %m) ({\n^bb0(%x: tensor<f32>):\n  stablehlo.return %x : tensor<f32>\n})"
       " {b_window = array<i64: 0, 1, 4, 2>} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>",
       "result type"},
      {"%0 = \"hlorun.softmax\"(%s) : (tensor<f32>) -> tensor<f32>", "rank >= 1"},
  };
  for (size_t i = 0; i < sizeof kSingles / sizeof kSingles[0]; i++) {
    char text[2048];
    snprintf(text, sizeof text,
             "func.func @main(%%m: tensor<4x4xf32>, %%v: tensor<4xf32>, %%v3: tensor<3xf32>, %%s: tensor<f32>, "
             "%%q: tensor<1x4x2x4xf32>, %%k: tensor<1x3x2x4xf32>, %%p: tensor<1x4x2x2x4xf32>) -> () {\n  %s\n  return\n}\n",
             kSingles[i][0]);
    rejects(text, kSingles[i][1]);
  }
}

TEST(ops_reject_captures) {
  /* A body reading a value of main (verify it through the body rule, not the parser). */
  static const char *kCapture =
      "func.func @main(%a: tensor<2x4xf32>, %b: tensor<4x5xf32>, %s: tensor<f32>) -> tensor<2x5xf32> {\n"
      "  %0 = \"hlorun.matmul\"(%a, %b) ({\n"
      "  ^bb0(%acc: tensor<f32>):\n"
      "    %1 = stablehlo.add %acc, %s : tensor<f32>\n"
      "    stablehlo.return %1 : tensor<f32>\n"
      "  }) : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>\n"
      "  return %0 : tensor<2x5xf32>\n"
      "}\n";
  rejects(kCapture, "is not a value of the body");
  static const char *kCompare =
      "func.func @main(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {\n"
      "  %0 = \"hlorun.fused\"(%a) ({\n"
      "  ^bb0(%x: tensor<f32>):\n"
      "    %1 = stablehlo.compare GT, %x, %x : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "    %2 = stablehlo.select %1, %x, %x : tensor<i1>, tensor<f32>\n"
      "    stablehlo.return %2 : tensor<f32>\n"
      "  }) {broadcast_dimensions = [array<i64: 0, 1>]} : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
      "  return %0 : tensor<2x4xf32>\n"
      "}\n";
  rejects(kCompare, "must produce a tensor<f32>");
}

/* ---------------------------------------------------------------------------------------------- */
/* Reference kernels                                                                               */
/* ---------------------------------------------------------------------------------------------- */

TEST(matmul_reference) {
  /* y[m, n] = (sum_k a[m, k] * b[n, k] + col[n]) * 0.5 + r[m, n], with b transposed. */
  static const char *kText =
      "func.func @main(%a: tensor<2x3x4xf32>, %b: tensor<5x4xf32>, %col: tensor<5xf32>, %r: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {\n"
      "  %0 = \"hlorun.matmul\"(%a, %b, %col, %r) ({\n"
      "  ^bb0(%acc: tensor<f32>, %x: tensor<f32>, %y: tensor<f32>):\n"
      "    %c = stablehlo.constant dense<5.000000e-01> : tensor<f32>\n"
      "    %1 = stablehlo.add %acc, %x : tensor<f32>\n"
      "    %2 = stablehlo.multiply %1, %c : tensor<f32>\n"
      "    %3 = stablehlo.add %2, %y : tensor<f32>\n"
      "    stablehlo.return %3 : tensor<f32>\n"
      "  }) {transpose_b = true} : (tensor<2x3x4xf32>, tensor<5x4xf32>, tensor<5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>\n"
      "  return %0 : tensor<2x3x5xf32>\n"
      "}\n";
  hr_tensor *in[MAX_IO];
  int n;
  hr_tensor *y = run_text(kText, in, &n);
  double want[30] = {0};
  for (int m = 0; n == 4 && m < 6; m++)
    for (int j = 0; j < 5; j++) {
      double acc = 0;
      for (int k = 0; k < 4; k++) acc += (double)((float *)in[0]->data)[m * 4 + k] * ((float *)in[1]->data)[j * 4 + k];
      want[m * 5 + j] = (acc + ((float *)in[2]->data)[j]) * 0.5 + ((float *)in[3]->data)[m * 5 + j];
    }
  check_close(y, want, 30, 1e-6);
  hr_tensor_free(y);
  free_all(in, n);
}

TEST(fused_reference) {
  /* y[i, j, k] = x[i, 0, k] * v[j] - s with operands broadcast along their size-1 dimensions. */
  static const char *kText =
      "func.func @main(%x: tensor<2x1x3xf32>, %v: tensor<4xf32>, %s: tensor<f32>) -> tensor<2x4x3xf32> {\n"
      "  %0 = \"hlorun.fused\"(%x, %v, %s) ({\n"
      "  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):\n"
      "    %1 = stablehlo.multiply %a, %b : tensor<f32>\n"
      "    %2 = stablehlo.subtract %1, %c : tensor<f32>\n"
      "    stablehlo.return %2 : tensor<f32>\n"
      "  }) {broadcast_dimensions = [array<i64: 0, 1, 2>, array<i64: 1>, array<i64>]} : (tensor<2x1x3xf32>, tensor<4xf32>, tensor<f32>) -> tensor<2x4x3xf32>\n"
      "  return %0 : tensor<2x4x3xf32>\n"
      "}\n";
  hr_tensor *in[MAX_IO];
  int n;
  hr_tensor *y = run_text(kText, in, &n);
  double want[24] = {0};
  for (int i = 0; n == 3 && i < 2; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 3; k++)
        want[(i * 4 + j) * 3 + k] = (double)((float *)in[0]->data)[i * 3 + k] * ((float *)in[1]->data)[j] -
                                    ((float *)in[2]->data)[0];
  check_close(y, want, 24, 1e-6);
  hr_tensor_free(y);
  free_all(in, n);
}

TEST(layer_norm_and_softmax_reference) {
  static const char *kText =
      "func.func @main(%x: tensor<3x6xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> (tensor<3x6xf32>, tensor<3x6xf32>) {\n"
      "  %0 = \"hlorun.layer_norm\"(%x, %g, %b) {epsilon = 1.0e-3 : f32} : (tensor<3x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<3x6xf32>\n"
      "  %1 = \"hlorun.softmax\"(%x) : (tensor<3x6xf32>) -> tensor<3x6xf32>\n"
      "  return %1, %0 : tensor<3x6xf32>, tensor<3x6xf32>\n"
      "}\n";
  hr_tensor *in[MAX_IO];
  int n;
  hr_tensor *y = run_text(kText, in, &n);
  double want[18] = {0};
  for (int r = 0; n == 3 && r < 3; r++) {
    const float *x = (const float *)in[0]->data + r * 6;
    double mx = -INFINITY, sum = 0;
    for (int i = 0; i < 6; i++) mx = x[i] > mx ? x[i] : mx;
    for (int i = 0; i < 6; i++) sum += exp(x[i] - mx);
    for (int i = 0; i < 6; i++) want[r * 6 + i] = exp(x[i] - mx) / sum;
  }
  check_close(y, want, 18, 1e-6);
  hr_tensor_free(y);
  free_all(in, n);
  /* The layer norm is the second result: run again returning it first. */
  static const char *kNorm =
      "func.func @main(%x: tensor<3x6xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<3x6xf32> {\n"
      "  %0 = \"hlorun.layer_norm\"(%x, %g, %b) {epsilon = 1.0e-3 : f32} : (tensor<3x6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<3x6xf32>\n"
      "  return %0 : tensor<3x6xf32>\n"
      "}\n";
  y = run_text(kNorm, in, &n);
  for (int r = 0; n == 3 && r < 3; r++) {
    const float *x = (const float *)in[0]->data + r * 6, *g = in[1]->data, *b = in[2]->data;
    double mean = 0, var = 0;
    for (int i = 0; i < 6; i++) mean += x[i] / 6.0;
    for (int i = 0; i < 6; i++) var += (x[i] - mean) * (x[i] - mean) / 6.0;
    for (int i = 0; i < 6; i++) want[r * 6 + i] = (x[i] - mean) / sqrt(var + (double)1.0e-3f) * g[i] + b[i];
  }
  check_close(y, want, 18, 1e-6);
  hr_tensor_free(y);
  free_all(in, n);
}

/* Expected attention o [B, S, H, D] for q [B, S, H, D], k, v [B, T, H, D], in double. */
static void attention_expected(const hr_tensor *q, const hr_tensor *k, const hr_tensor *v, double scale, bool causal,
                               double *o) {
  int64_t B = q->shape.dims[0], S = q->shape.dims[1], H = q->shape.dims[2], D = q->shape.dims[3];
  int64_t T = k->shape.dims[1];
  const float *qd = q->data, *kd = k->data, *vd = v->data;
  for (int64_t b = 0; b < B; b++)
    for (int64_t h = 0; h < H; h++)
      for (int64_t s = 0; s < S; s++) {
        double w[16], mx = -INFINITY, sum = 0;
        for (int64_t t = 0; t < T; t++) {
          double dot = 0;
          for (int64_t d = 0; d < D; d++) dot += (double)qd[((b * S + s) * H + h) * D + d] * kd[((b * T + t) * H + h) * D + d];
          w[t] = causal && t > s ? -INFINITY : scale * dot;
          mx = w[t] > mx ? w[t] : mx;
        }
        for (int64_t t = 0; t < T; t++) sum += (w[t] = exp(w[t] - mx));
        for (int64_t d = 0; d < D; d++) {
          double acc = 0;
          for (int64_t t = 0; t < T; t++) acc += w[t] / sum * vd[((b * T + t) * H + h) * D + d];
          o[((b * S + s) * H + h) * D + d] = acc;
        }
      }
}

TEST(attention_reference) {
  /* S = 3 queries over T = 5 keys, two heads, causal and not. */
  for (int causal = 0; causal < 2; causal++) {
    char text[2048];
    snprintf(text, sizeof text,
             "func.func @main(%%q: tensor<2x3x2x4xf32>, %%k: tensor<2x5x2x4xf32>, %%v: tensor<2x5x2x4xf32>) -> tensor<2x3x2x4xf32> {\n"
             "  %%0 = \"hlorun.attention\"(%%q, %%k, %%v) {scale = 0.3 : f32, causal = %s} : (tensor<2x3x2x4xf32>, tensor<2x5x2x4xf32>, tensor<2x5x2x4xf32>) -> tensor<2x3x2x4xf32>\n"
             "  return %%0 : tensor<2x3x2x4xf32>\n"
             "}\n",
             causal ? "true" : "false");
    hr_tensor *in[MAX_IO];
    int n;
    hr_tensor *y = run_text(text, in, &n);
    double want[48];
    if (n == 3) attention_expected(in[0], in[1], in[2], (double)0.3f, causal, want);
    check_close(y, want, 48, 1e-5);
    hr_tensor_free(y);
    free_all(in, n);
  }
}

TEST(executable_runs_hlorun_ops) {
  /* An executable (fast kernels where they apply) agrees with the interpreter's reference. */
  hr_module *m = parse(kAllOps, NULL), *ref = parse(kAllOps, NULL);
  const hr_func *fn = ref ? hr_module_find_func(ref, "main") : NULL;
  if (!m || !fn) {
    hr_module_free(m);
    hr_module_free(ref);
    return;
  }
  hr_tensor *in[MAX_IO];
  const hr_tensor *bound[MAX_IO] = {0};
  int n = fn->n_args;
  for (int i = 0; i < n; i++) in[i] = pattern(&fn->body.args[i].type.shape, i);
  bound[1] = in[1];
  hr_executable *e = NULL;
  CHECK_OK(hr_executable_create(m, bound, NULL, NULL, &e));
  hr_tensor *runtime_inputs[MAX_IO];
  for (int i = 0, j = 0; i < n; i++)
    if (!bound[i]) runtime_inputs[j++] = in[i];
  hr_tensor **a = NULL, **b = NULL;
  int na = 0, nb = 0;
  hr_run_options o = {.num_threads = 2};
  CHECK_OK(hr_module_run(ref, "main", in, n, &o, &a, &na));
  if (e) CHECK_OK(hr_executable_run(e, runtime_inputs, n - 1, &b, &nb));
  CHECK(a && b && na == 2 && nb == 2);
  for (int i = 0; a && b && i < na && i < nb; i++) {
    double want[64];
    int64_t count = hr_tensor_num_elements(a[i]);
    for (int64_t j = 0; j < count && j < 64; j++) want[j] = ((const float *)a[i]->data)[j];
    check_close(b[i], want, count, 1e-4);
  }
  if (a) hr_tensors_free(a, na);
  if (b) hr_tensors_free(b, nb);
  hr_executable_free(e);
  free_all(in, n);
  hr_module_free(ref);
}

int main(void) {
  RUN(ops_parse_print_and_reparse);
  RUN(ops_reject_bad_shapes_and_bodies);
  RUN(ops_reject_captures);
  RUN(matmul_reference);
  RUN(fused_reference);
  RUN(layer_norm_and_softmax_reference);
  RUN(attention_reference);
  RUN(executable_runs_hlorun_ops);
  TEST_MAIN_END();
}

/* Fast kernels (backend/cpu/fast*.c) against the reference kernels of the hlorun.* ops: every kind on
 * many shapes (rows that are not a multiple of the vector width, single elements, empty tensors,
 * several key blocks, transposed and non-fixed weights), epilogue regions of every supported
 * form, bf16 matrix products within their error bound, runs that allocate nothing but their
 * outputs, and repeated runs that give the same bits. Skipped (77) on CPUs without AVX-512. */
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>

#include "backend/cpu/cpu_features.h"
#include "backend/cpu/fast.h"
#include "backend/cpu/gemm.h"
#include "backend/cpu/gemm_internal.h"
#include "runtime/exec_internal.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* An f32 tensor of uniform values in [-amp, amp] from a seeded generator. */
static hr_tensor *random_f32(int rank, const int64_t *dims, uint32_t seed, float amp) {
  hr_shape s = {.rank = rank};
  for (int i = 0; i < rank; i++) s.dims[i] = dims[i];
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &s, 0, &t));
  int64_t n = t ? hr_tensor_num_elements(t) : 0;
  uint32_t x = seed * 2654435761u + 12345u;
  for (int64_t i = 0; i < n; i++) {
    x = x * 1664525u + 1013904223u;
    ((float *)t->data)[i] = amp * ((float)(x >> 8) / (float)(1u << 23) - 1.0f);
  }
  return t;
}

/* Appends the spelling of an f32 tensor type with `rank` dims to buf. */
static void type_text(char *buf, size_t cap, int rank, const int64_t *dims) {
  size_t n = (size_t)snprintf(buf, cap, "tensor<");
  for (int i = 0; i < rank && n < cap; i++) n += (size_t)snprintf(buf + n, cap - n, "%lldx", (long long)dims[i]);
  if (n < cap) snprintf(buf + n, cap - n, "f32>");
}

/* A module text built with printf-style formatting (owned by the caller). */
__attribute__((format(printf, 1, 2))) static char *text_of(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("fast.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* The largest |a - b| / max(1, |b|) over two f32 tensors of the same shape (inf when the shapes
 * differ or only one is NaN): absolute below 1, relative above. */
static double max_diff(const hr_tensor *a, const hr_tensor *b) {
  if (a->nbytes != b->nbytes || a->dtype != HR_F32 || b->dtype != HR_F32) return INFINITY;
  double worst = 0;
  const float *x = a->data, *y = b->data;
  for (size_t i = 0; i < a->nbytes / sizeof(float); i++) {
    if (isnan(x[i]) || isnan(y[i])) {
      if (isnan(x[i]) != isnan(y[i])) return INFINITY;
      continue;
    }
    double d = fabs((double)x[i] - (double)y[i]) / fmax(1.0, fabs((double)y[i]));
    if (d > worst || isinf(d)) worst = d;
  }
  return worst;
}

/* A case: a module, its arguments (bound[i]: argument i is a bound parameter), and options. */
typedef struct fast_case {
  const char *name;
  const char *text;
  int n_args;
  hr_tensor *args[8];
  bool bound[8];
  bool bf16;
  int want_fast;    /* fast steps expected */
  const char *want_impl; /* when set: the kernel some step must run (hr_executable_step_impl) */
  double tolerance; /* on the largest error of fast vs reference (see max_diff) */
} fast_case;

/* Whether some step of `e` runs the kernel named `impl`. */
static bool runs_kernel(const hr_executable *e, const char *impl) {
  for (int i = 0; i < hr_executable_num_plan_steps(e); i++)
    if (!strcmp(hr_executable_step_impl(e, i), impl)) return true;
  return false;
}

/* Creates the case's executable (num_threads 2, with `alloc` when given). */
static hr_executable *create(const fast_case *c, const hr_allocator *alloc) {
  hr_module *m = parse(c->text);
  if (!m) return NULL;
  const hr_tensor *bound[8] = {NULL};
  for (int i = 0; i < c->n_args; i++) bound[i] = c->bound[i] ? c->args[i] : NULL;
  hr_exec_options eo = {.num_threads = 2, .bf16 = c->bf16, .allocator = alloc};
  hr_executable *e = NULL;
  CHECK_OK(hr_executable_create(m, bound, NULL, &eo, &e));
  return e;
}

/* Runs the case's executable on its runtime inputs. */
static hr_tensor **run(const fast_case *c, hr_executable *e, int *n_out) {
  hr_tensor *inputs[8];
  int n = 0;
  for (int i = 0; i < c->n_args; i++)
    if (!c->bound[i]) inputs[n++] = c->args[i];
  hr_tensor **out = NULL;
  *n_out = 0;
  CHECK_OK(hr_executable_run(e, inputs, n, &out, n_out));
  return out;
}

/* Runs the case both ways (reference interpreter, executable with fast kernels), checks the
 * number of fast steps and the largest difference, and frees the arguments. Returns that
 * difference. */
static double check_case(fast_case *c) {
  double diff = INFINITY;
  hr_module *ref = parse(c->text);
  hr_executable *e = create(c, NULL);
  hr_run_options ro = {.num_threads = 2};
  hr_tensor **want = NULL, **got = NULL;
  int n_want = 0, n_got = 0;
  if (ref && e) {
    CHECK_OK(hr_module_run(ref, "main", c->args, c->n_args, &ro, &want, &n_want));
    got = run(c, e, &n_got);
    int n_fast = hr_executable_fast_stats(e).num_fast_steps;
    if (n_fast != c->want_fast) {
      fprintf(stderr, "%s: %d fast steps, expected %d\n", c->name, n_fast, c->want_fast);
      test_failures_++;
    }
    if (c->want_impl && !runs_kernel(e, c->want_impl)) {
      fprintf(stderr, "%s: no step runs the %s kernel\n", c->name, c->want_impl);
      test_failures_++;
    }
  }
  if (want && got && n_want == 1 && n_got == 1) diff = max_diff(got[0], want[0]);
  if (!(diff <= c->tolerance)) {
    fprintf(stderr, "%s: max |fast - reference| = %g (tolerance %g)\n", c->name, diff, c->tolerance);
    test_failures_++;
  }
  hr_tensors_free(want, n_want);
  hr_tensors_free(got, n_got);
  hr_executable_free(e);
  hr_module_free(ref);
  for (int i = 0; i < c->n_args; i++) hr_tensor_free(c->args[i]);
  free((char *)c->text);
  return diff;
}

/* ---------------------------------------------------------------------------------------------- */
/* Matmul                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Epilogue bodies: region arguments after %acc and the body text. */
typedef struct epilogue {
  const char *name;
  int n_extra;      /* epilogue operands */
  int kinds[3];     /* 0 scalar, 1 column [N], 2 full shape */
  const char *body; /* uses %acc, %x0, %x1, %x2; result %r */
} epilogue;

static const epilogue kEpilogues[] = {
    {"identity", 0, {0}, "    %r = stablehlo.convert %acc : tensor<f32>\n"},
    {"double", 0, {0}, "    %r = stablehlo.add %acc, %acc : tensor<f32>\n"},
    {"bias_gelu",
     1,
     {1},
     "    %c0 = stablehlo.constant dense<0.0447149985> : tensor<f32>\n"
     "    %c1 = stablehlo.constant dense<0.797884583> : tensor<f32>\n"
     "    %c2 = stablehlo.constant dense<1.0> : tensor<f32>\n"
     "    %c3 = stablehlo.constant dense<0.5> : tensor<f32>\n"
     "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
     "    %h2 = stablehlo.multiply %h, %h : tensor<f32>\n"
     "    %h3 = stablehlo.multiply %h, %h2 : tensor<f32>\n"
     "    %t0 = stablehlo.multiply %c0, %h3 : tensor<f32>\n"
     "    %t1 = stablehlo.add %h, %t0 : tensor<f32>\n"
     "    %t2 = stablehlo.multiply %c1, %t1 : tensor<f32>\n"
     "    %t3 = stablehlo.tanh %t2 : tensor<f32>\n"
     "    %t4 = stablehlo.add %c2, %t3 : tensor<f32>\n"
     "    %t5 = stablehlo.multiply %c3, %t4 : tensor<f32>\n"
     "    %r = stablehlo.multiply %h, %t5 : tensor<f32>\n"},
    {"bias_residual",
     2,
     {1, 2},
     "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
     "    %r = stablehlo.add %x1, %h : tensor<f32>\n"},
    /* Leading adds go to the GEMM's store (hr_gemm_addends) unless the rest reads the plain
     * accumulator or a partial sum. */
    {"bias", 1, {1}, "    %r = stablehlo.add %acc, %x0 : tensor<f32>\n"},
    {"residual_then_bias",
     2,
     {2, 1},
     "    %h = stablehlo.add %x0, %acc : tensor<f32>\n"
     "    %r = stablehlo.add %h, %x1 : tensor<f32>\n"},
    {"bias_squared",
     1,
     {1},
     "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
     "    %r = stablehlo.multiply %h, %h : tensor<f32>\n"},
    {"bias_times_acc",
     1,
     {1},
     "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
     "    %r = stablehlo.multiply %h, %acc : tensor<f32>\n"},
    {"partial_sum_reused",
     2,
     {1, 2},
     "    %h = stablehlo.add %acc, %x0 : tensor<f32>\n"
     "    %g = stablehlo.add %h, %x1 : tensor<f32>\n"
     "    %r = stablehlo.multiply %g, %h : tensor<f32>\n"},
    {"scalar_relu_clamp",
     3,
     {0, 1, 2},
     "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
     "    %h = stablehlo.multiply %acc, %x0 : tensor<f32>\n"
     "    %m = stablehlo.maximum %h, %z : tensor<f32>\n"
     "    %n = stablehlo.negate %x1 : tensor<f32>\n"
     "    %s = stablehlo.clamp %n, %m, %x2 : tensor<f32>\n"
     "    %e = stablehlo.exponential %s : tensor<f32>\n"
     "    %l = stablehlo.logistic %e : tensor<f32>\n"
     "    %q = chlo.square %l : tensor<f32> -> tensor<f32>\n"
     "    %r = stablehlo.subtract %q, %x0 : tensor<f32>\n"},
};

/* One matmul case: a [lead..., K] x b, epilogue `ep`; b bound or a runtime input. */
static double matmul_case(int lead_rank, const int64_t *lead, int64_t k, int64_t n, bool transpose_b, bool b_bound,
                          const epilogue *ep, bool bf16, double tolerance, uint32_t seed) {
  int64_t adims[4], bdims[2] = {transpose_b ? n : k, transpose_b ? k : n}, ydims[4], ndims[1] = {n};
  for (int i = 0; i < lead_rank; i++) adims[i] = ydims[i] = lead[i];
  adims[lead_rank] = k;
  ydims[lead_rank] = n;
  char at[96], bt[96], yt[96], nt[96], extra_types[3][96], args[256] = "", arg_types[512] = "", params[512] = "";
  type_text(at, sizeof at, lead_rank + 1, adims);
  type_text(bt, sizeof bt, 2, bdims);
  type_text(yt, sizeof yt, lead_rank + 1, ydims);
  type_text(nt, sizeof nt, 1, ndims);
  fast_case c = {.name = ep->name, .n_args = 2 + ep->n_extra, .bf16 = bf16, .want_fast = 1, .tolerance = tolerance};
  c.args[0] = random_f32(lead_rank + 1, adims, seed, 1.0f);
  c.args[1] = random_f32(2, bdims, seed + 1, 1.0f);
  c.bound[1] = b_bound;
  for (int i = 0; i < ep->n_extra; i++) {
    const char *ty = ep->kinds[i] == 0 ? "tensor<f32>" : ep->kinds[i] == 1 ? nt : yt;
    snprintf(extra_types[i], sizeof extra_types[i], "%s", ty);
    c.args[2 + i] = ep->kinds[i] == 0   ? random_f32(0, NULL, seed + 2 + (uint32_t)i, 1.0f)
                    : ep->kinds[i] == 1 ? random_f32(1, ndims, seed + 2 + (uint32_t)i, 1.0f)
                                        : random_f32(lead_rank + 1, ydims, seed + 2 + (uint32_t)i, 1.0f);
    size_t l = strlen(args), lt = strlen(arg_types), lp = strlen(params);
    snprintf(args + l, sizeof args - l, ", %%e%d", i);
    snprintf(arg_types + lt, sizeof arg_types - lt, ", %s", ty);
    snprintf(params + lp, sizeof params - lp, ", %%e%d: %s", i, ty);
  }
  char region_args[256] = "%acc: tensor<f32>";
  for (int i = 0; i < ep->n_extra; i++) {
    size_t l = strlen(region_args);
    snprintf(region_args + l, sizeof region_args - l, ", %%x%d: tensor<f32>", i);
  }
  c.text = text_of(
      "func.func @main(%%a: %s, %%b: %s%s) -> %s {\n"
      "  %%0 = \"hlorun.matmul\"(%%a, %%b%s) ({\n"
      "  ^bb0(%s):\n%s"
      "    stablehlo.return %%r : tensor<f32>\n"
      "  }) {transpose_b = %s} : (%s, %s%s) -> %s\n"
      "  return %%0 : %s\n}\n",
      at, bt, params, yt, args, region_args, ep->body, transpose_b ? "true" : "false", at, bt, arg_types, yt, yt);
  return check_case(&c);
}

TEST(matmul_shapes_and_epilogues) {
  const int64_t shapes[][3] = {{1, 1, 1},      {3, 5, 7},       {17, 33, 15}, {14, 256, 32},
                               {64, 256, 256}, {29, 100, 1030}, {2, 0, 5},   {20, 600, 70}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (size_t ep = 0; ep < sizeof kEpilogues / sizeof kEpilogues[0]; ep++) {
      int64_t lead[1] = {shapes[s][0]};
      double tol = 1e-5 * (double)(shapes[s][1] + 1);
      matmul_case(1, lead, shapes[s][1], shapes[s][2], s % 2 == 1, true, &kEpilogues[ep], false, tol,
                  (uint32_t)(s * 10 + ep));
    }
}

TEST(matmul_rank3_and_runtime_weights) {
  int64_t lead[2] = {3, 21};
  matmul_case(2, lead, 64, 48, false, false, &kEpilogues[3], false, 1e-4, 7);
  matmul_case(2, lead, 64, 48, true, false, &kEpilogues[2], false, 1e-4, 8);
  matmul_case(2, lead, 64, 48, false, true, &kEpilogues[sizeof kEpilogues / sizeof kEpilogues[0] - 1], false, 1e-4, 9);
}

/* A product reading a window of a larger b (b_window, as the fusion makes of a slice of a weight):
 * [5, 32] times the 32 x 24 window of b at (row0, col0), b bound (packed once) or given per run,
 * as [K, N] and as [N, K]. */
static void window_case(bool transpose_b, bool b_bound, uint32_t seed) {
  int64_t adims[2] = {5, 32}, bdims[2] = {transpose_b ? 50 : 40, transpose_b ? 40 : 64};
  int64_t win[4] = {transpose_b ? 7 : 3, transpose_b ? 4 : 10, transpose_b ? 24 : 32, transpose_b ? 32 : 24};
  fast_case c = {.name = "b_window", .n_args = 2, .want_fast = 1, .want_impl = "matmul", .tolerance = 1e-4};
  c.args[0] = random_f32(2, adims, seed, 1.0f);
  c.args[1] = random_f32(2, bdims, seed + 1, 1.0f);
  c.bound[1] = b_bound;
  c.text = text_of("func.func @main(%%a: tensor<5x32xf32>, %%b: tensor<%lldx%lldxf32>) -> tensor<5x24xf32> {\n"
                   "  %%0 = \"hlorun.matmul\"(%%a, %%b) ({\n"
                   "  ^bb0(%%acc: tensor<f32>):\n"
                   "    stablehlo.return %%acc : tensor<f32>\n"
                   "  }) {transpose_b = %s, b_window = array<i64: %lld, %lld, %lld, %lld>} : "
                   "(tensor<5x32xf32>, tensor<%lldx%lldxf32>) -> tensor<5x24xf32>\n"
                   "  return %%0 : tensor<5x24xf32>\n}\n",
                   (long long)bdims[0], (long long)bdims[1], transpose_b ? "true" : "false", (long long)win[0],
                   (long long)win[1], (long long)win[2], (long long)win[3], (long long)bdims[0], (long long)bdims[1]);
  check_case(&c);
}

TEST(matmul_b_window) {
  for (int i = 0; i < 4; i++) window_case(i & 1, i & 2, (uint32_t)(60 + 2 * i));
}

/* The bf16 error bound: each input rounds with relative error <= 2^-9, so each product with
 * <= 2^-8 (and a little); the sum of |a||b| over K bounds |a . b| error. With inputs in [-1, 1] that
 * is at most K * 2^-8; random signs make it far smaller, so K * 2^-8 / 4 is a safe but telling
 * bound. */
TEST(matmul_bf16_error_bound) {
  if (!hr_gemm_supported(HR_GEMM_BF16)) return;
  int64_t lead[1] = {37};
  const int64_t ks[] = {16, 256, 1000};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    double bound = (double)ks[i] * ldexp(1.0, -8) / 4;
    double d = matmul_case(1, lead, ks[i], 70, i == 1, true, &kEpilogues[0], true, bound, (uint32_t)(40 + i));
    /* bf16 must actually be used: the f32 result is far closer. */
    CHECK(d > 1e-5 * (double)ks[i]);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Fused                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* hlorun.fused over [b, s, d] with operands x [b, s, d], col [d], row [b, s] (broadcast along
 * the rows) and a scalar: tanh(x * col + row) - scalar, or a comparison-select chain. */
static void fused_case(int64_t b, int64_t s, int64_t d, int variant) {
  int64_t xd[3] = {b, s, d}, cd[1] = {d}, rd[2] = {b, s};
  char xt[96], ct[96], rt[96];
  type_text(xt, sizeof xt, 3, xd);
  type_text(ct, sizeof ct, 1, cd);
  type_text(rt, sizeof rt, 2, rd);
  const char *body = variant == 2   ? "    %k3 = stablehlo.constant dense<3.0> : tensor<f32>\n"
                                      "    %km = stablehlo.constant dense<-1.0> : tensor<f32>\n"
                                      "    %e = stablehlo.exponential_minus_one %a : tensor<f32>\n"
                                      "    %n = stablehlo.abs %c : tensor<f32>\n"
                                      "    %l = stablehlo.log_plus_one %n : tensor<f32>\n"
                                      "    %f = chlo.erf %r : tensor<f32> -> tensor<f32>\n"
                                      "    %s = stablehlo.sine %a : tensor<f32>\n"
                                      "    %o = stablehlo.cosine %c : tensor<f32>\n"
                                      "    %p = stablehlo.power %r, %k3 : tensor<f32>\n"
                                      "    %q = stablehlo.power %o, %km : tensor<f32>\n"
                                      "    %t0 = stablehlo.add %e, %l : tensor<f32>\n"
                                      "    %t1 = stablehlo.multiply %f, %s : tensor<f32>\n"
                                      "    %t2 = stablehlo.subtract %p, %q : tensor<f32>\n"
                                      "    %t3 = stablehlo.add %t0, %t1 : tensor<f32>\n"
                                      "    %y = stablehlo.add %t3, %t2 : tensor<f32>\n"
                     : variant == 0 ? "    %m = stablehlo.multiply %a, %c : tensor<f32>\n"
                                      "    %p = stablehlo.add %m, %r : tensor<f32>\n"
                                      "    %t = stablehlo.tanh %p : tensor<f32>\n"
                                      "    %y = stablehlo.subtract %t, %k : tensor<f32>\n"
                                    : "    %q = stablehlo.divide %a, %c : tensor<f32>\n"
                                      "    %n = stablehlo.abs %q : tensor<f32>\n"
                                      "    %l = stablehlo.log %n : tensor<f32>\n"
                                      "    %s = stablehlo.sqrt %n : tensor<f32>\n"
                                      "    %t = stablehlo.rsqrt %s : tensor<f32>\n"
                                      "    %f = stablehlo.floor %l : tensor<f32>\n"
                                      "    %g = stablehlo.ceil %r : tensor<f32>\n"
                                      "    %h = stablehlo.sign %a : tensor<f32>\n"
                                      "    %u = stablehlo.round_nearest_even %t : tensor<f32>\n"
                                      "    %v = stablehlo.minimum %f, %g : tensor<f32>\n"
                                      "    %w = stablehlo.multiply %h, %u : tensor<f32>\n"
                                      "    %xx = stablehlo.add %v, %w : tensor<f32>\n"
                                      "    %y = stablehlo.subtract %k, %xx : tensor<f32>\n";
  fast_case c = {.name = "fused", .n_args = 4, .want_fast = 1, .tolerance = 1e-5};
  c.args[0] = random_f32(3, xd, (uint32_t)(b + s + d), 2.0f);
  c.args[1] = random_f32(1, cd, 3, 2.0f);
  c.args[2] = random_f32(2, rd, 4, 2.0f);
  c.args[3] = random_f32(0, NULL, 5, 1.0f);
  c.bound[1] = true;
  c.text = text_of(
      "func.func @main(%%x: %s, %%col: %s, %%row: %s, %%k0: tensor<f32>) -> %s {\n"
      "  %%0 = \"hlorun.fused\"(%%x, %%col, %%row, %%k0) ({\n"
      "  ^bb0(%%a: tensor<f32>, %%c: tensor<f32>, %%r: tensor<f32>, %%k: tensor<f32>):\n%s"
      "    stablehlo.return %%y : tensor<f32>\n"
      "  }) {broadcast_dimensions = [array<i64: 0, 1, 2>, array<i64: 2>, array<i64: 0, 1>, "
      "array<i64>]} : (%s, %s, %s, tensor<f32>) -> %s\n"
      "  return %%0 : %s\n}\n",
      xt, ct, rt, xt, body, xt, ct, rt, xt, xt);
  check_case(&c);
}

TEST(fused_broadcasts) {
  const int64_t shapes[][3] = {{1, 1, 1}, {2, 3, 17}, {1, 256, 256}, {3, 5, 1}, {2, 7, 2000}, {1, 1, 0}, {4, 1, 33}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (int v = 0; v < 3; v++) fused_case(shapes[i][0], shapes[i][1], shapes[i][2], v);
}

/* GELU (tanh form) with constants c0 and c1, over [-12, 12] and special values (+-inf, NaN, huge,
 * tiny, where the reciprocal's edge cases are). */
static void gelu_case(const char *c0, const char *c1) {
  static const float specials[] = {INFINITY, -INFINITY, NAN, 1e30f, -1e30f, -3e38f, 3e38f, -90.0f, -45.0f,
                                   -20.0f,   -9.5f,     0.0f, -0.0f, 1e-30f, -1e-30f, 1e-40f, -1e-40f};
  enum { N_RANGE = 2401, N_SPECIAL = sizeof specials / sizeof specials[0] };
  int64_t dims[1] = {N_RANGE + N_SPECIAL};
  char xt[96];
  type_text(xt, sizeof xt, 1, dims);
  fast_case c = {.name = "fused gelu", .n_args = 1, .want_fast = 1, .tolerance = 1e-6};
  c.args[0] = random_f32(1, dims, 1, 1.0f);
  float *x = c.args[0] ? c.args[0]->data : NULL;
  for (int i = 0; x && i < N_RANGE; i++) x[i] = -12.0f + 0.01f * (float)i;
  for (int i = 0; x && i < N_SPECIAL; i++) x[N_RANGE + i] = specials[i];
  c.text = text_of("func.func @main(%%x: %s) -> %s {\n"
                   "  %%0 = \"hlorun.fused\"(%%x) ({\n"
                   "  ^bb0(%%h: tensor<f32>):\n"
                   "    %%c0 = stablehlo.constant dense<%s> : tensor<f32>\n"
                   "    %%c1 = stablehlo.constant dense<%s> : tensor<f32>\n"
                   "    %%c2 = stablehlo.constant dense<1.0> : tensor<f32>\n"
                   "    %%c3 = stablehlo.constant dense<0.5> : tensor<f32>\n"
                   "    %%h2 = stablehlo.multiply %%h, %%h : tensor<f32>\n"
                   "    %%h3 = stablehlo.multiply %%h, %%h2 : tensor<f32>\n"
                   "    %%t0 = stablehlo.multiply %%c0, %%h3 : tensor<f32>\n"
                   "    %%t1 = stablehlo.add %%h, %%t0 : tensor<f32>\n"
                   "    %%t2 = stablehlo.multiply %%c1, %%t1 : tensor<f32>\n"
                   "    %%t3 = stablehlo.tanh %%t2 : tensor<f32>\n"
                   "    %%t4 = stablehlo.add %%c2, %%t3 : tensor<f32>\n"
                   "    %%t5 = stablehlo.multiply %%c3, %%t4 : tensor<f32>\n"
                   "    %%y = stablehlo.multiply %%h, %%t5 : tensor<f32>\n"
                   "    stablehlo.return %%y : tensor<f32>\n"
                   "  }) {broadcast_dimensions = [array<i64: 0>]} : (%s) -> %s\n"
                   "  return %%0 : %s\n}\n",
                   xt, xt, c0, c1, xt, xt, xt);
  check_case(&c);
}

/* JAX's constants, which the vector program runs as one instruction (in base 2 with folded
 * coefficients), and constants so large that the folded ones would overflow (c1 = 2e38: at x = 0
 * the folded form would give NaN, not 0), which stay unfused. */
TEST(fused_gelu_special_values) {
  gelu_case("0.0447149985", "0.797884583");
  gelu_case("0.0447149985", "2.0e+38");
  gelu_case("-3.0e+37", "0.797884583");
}

/* ---------------------------------------------------------------------------------------------- */
/* Layer norm and softmax                                                                          */
/* ---------------------------------------------------------------------------------------------- */

static void rows_case(bool layer_norm, int64_t rows, int64_t d) {
  int64_t xd[2] = {rows, d}, vd[1] = {d};
  char xt[96], vt[96];
  type_text(xt, sizeof xt, 2, xd);
  type_text(vt, sizeof vt, 1, vd);
  fast_case c = {.name = layer_norm ? "layer_norm" : "softmax", .want_fast = d > 0 ? 1 : 0, .tolerance = 2e-6};
  c.args[0] = random_f32(2, xd, (uint32_t)(rows * 31 + d), 4.0f);
  if (layer_norm) {
    c.n_args = 3;
    c.args[1] = random_f32(1, vd, 1, 1.0f);
    c.args[2] = random_f32(1, vd, 2, 1.0f);
    c.bound[1] = c.bound[2] = true;
    c.text = text_of(
        "func.func @main(%%x: %s, %%s: %s, %%b: %s) -> %s {\n"
        "  %%0 = \"hlorun.layer_norm\"(%%x, %%s, %%b) {epsilon = 1.0e-6 : f32} : (%s, %s, %s) -> %s\n"
        "  return %%0 : %s\n}\n",
        xt, vt, vt, xt, xt, vt, vt, xt, xt);
  } else {
    c.n_args = 1;
    c.text = text_of(
        "func.func @main(%%x: %s) -> %s {\n"
        "  %%0 = \"hlorun.softmax\"(%%x) : (%s) -> %s\n"
        "  return %%0 : %s\n}\n",
        xt, xt, xt, xt, xt);
  }
  check_case(&c);
}

TEST(layer_norm_and_softmax_rows) {
  const int64_t shapes[][2] = {{1, 1}, {7, 15}, {3, 16}, {5, 17}, {256, 256}, {2, 1000}, {0, 8}, {4, 0}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    rows_case(true, shapes[i][0], shapes[i][1]);
    rows_case(false, shapes[i][0], shapes[i][1]);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Attention                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* The kernel the bf16 mode runs attention with: AMX (head_dim 32 or 64, up to 16384 keys), else
 * AVX512_BF16 (head_dim a multiple of 32 up to 128, up to 16384 keys and 2^20 keys x head_dim),
 * else f32. */
static const char *bf16_attention_impl(int64_t t, int64_t d) {
  if (t > 16384 || d % 32 != 0) return "attention";
  if (hr_gemm_isa_supported(HR_GEMM_BF16, HR_GEMM_ISA_AMX) && d <= 64) return "attention_amx";
  return d <= 128 && t * d <= (1 << 20) ? "attention_bf16" : "attention";
}

/* One attention op on random q, k, v. bf16: in the bf16 mode (bf16 rounding of q, k, v and the
 * probabilities: errors up to ~1e-2 on outputs of magnitude ~1). */
static void attention_case(int64_t b, int64_t s, int64_t t, int64_t h, int64_t d, bool causal, bool bf16) {
  int64_t qd[4] = {b, s, h, d}, kd[4] = {b, t, h, d};
  char qt[96], kt[96];
  type_text(qt, sizeof qt, 4, qd);
  type_text(kt, sizeof kt, 4, kd);
  fast_case c = {.name = bf16 ? "attention (bf16)" : "attention", .n_args = 3, .want_fast = 1, .tolerance = 2e-6};
  if (bf16) {
    c.bf16 = true;
    c.tolerance = 0.02;
    c.want_impl = bf16_attention_impl(t, d);
  }
  c.args[0] = random_f32(4, qd, (uint32_t)(s + t + h + d), 2.0f);
  c.args[1] = random_f32(4, kd, 11, 2.0f);
  c.args[2] = random_f32(4, kd, 12, 1.0f);
  c.text = text_of(
      "func.func @main(%%q: %s, %%k: %s, %%v: %s) -> %s {\n"
      "  %%0 = \"hlorun.attention\"(%%q, %%k, %%v) {scale = %g : f32, causal = %s} : (%s, %s, %s) -> %s\n"
      "  return %%0 : %s\n}\n",
      qt, kt, kt, qt, 1.0 / sqrt((double)d), causal ? "true" : "false", qt, kt, kt, qt, qt);
  double diff = check_case(&c);
  if (bf16) printf("attention bf16 b=%lld s=%lld t=%lld h=%lld d=%lld causal=%d: max diff %.3g (%s)\n", (long long)b,
                   (long long)s, (long long)t, (long long)h, (long long)d, causal, diff, c.want_impl);
}

/* The one-operand form: q, k and v as the parts of one qkv [b, s, 3, h, d] (the fused q|k|v
 * projection's result), read in place through strides by every kernel. */
static void packed_attention_case(int64_t b, int64_t s, int64_t h, int64_t d, bool causal, bool bf16) {
  int64_t xd[5] = {b, s, 3, h, d}, od[4] = {b, s, h, d};
  char xt[96], ot[96];
  type_text(xt, sizeof xt, 5, xd);
  type_text(ot, sizeof ot, 4, od);
  fast_case c = {.name = bf16 ? "packed attention (bf16)" : "packed attention", .n_args = 1, .want_fast = 1,
                 .tolerance = bf16 ? 0.02 : 2e-6, .bf16 = bf16};
  if (bf16) c.want_impl = bf16_attention_impl(s, d);
  c.args[0] = random_f32(5, xd, (uint32_t)(s + h + d), 2.0f);
  c.text = text_of("func.func @main(%%x: %s) -> %s {\n"
                   "  %%0 = \"hlorun.attention\"(%%x) {scale = %g : f32, causal = %s} : (%s) -> %s\n"
                   "  return %%0 : %s\n}\n",
                   xt, ot, 1.0 / sqrt((double)d), causal ? "true" : "false", xt, ot, ot);
  check_case(&c);
}

TEST(attention_packed_qkv) {
  packed_attention_case(2, 256, 4, 64, true, false);
  packed_attention_case(1, 37, 3, 16, true, false);
  packed_attention_case(1, 300, 1, 8, true, false); /* two key blocks */
  packed_attention_case(3, 20, 2, 7, false, false);
  if (!hr_gemm_supported(HR_GEMM_BF16)) return;
  packed_attention_case(2, 256, 4, 64, true, true);
  packed_attention_case(1, 600, 1, 32, true, true); /* three key blocks */
  packed_attention_case(3, 20, 2, 64, false, true);
}

TEST(attention_blocks_and_masks) {
  attention_case(1, 256, 256, 4, 64, true, false);
  attention_case(2, 37, 37, 3, 16, true, false);
  attention_case(1, 5, 9, 2, 8, false, false);
  attention_case(1, 40, 300, 1, 24, false, false); /* two key blocks: the online rescaling */
  attention_case(1, 300, 300, 1, 8, true, false);  /* two key blocks, causal */
  attention_case(1, 20, 50, 2, 7, true, false);    /* more keys than queries */
  attention_case(1, 50, 20, 2, 9, true, false);    /* more queries than keys */
  attention_case(1, 1, 1, 1, 1, true, false);
}

/* The bf16 mode: block edges of the AMX kernel (16 queries, 16- and 32-key tiles, 256-key blocks)
 * and of the AVX512_BF16 one (28 queries in row groups of 14, 32-key and 32-dim panels), head_dim
 * 32, 64 and 128 (and 16 and 160, which they leave to the f32 kernel, as they do T > 16384), shares
 * of one head's queries. */
TEST(attention_bf16) {
  if (!hr_gemm_supported(HR_GEMM_BF16)) return;
  attention_case(1, 256, 256, 4, 64, true, true);
  attention_case(2, 37, 37, 3, 32, true, true);
  attention_case(1, 5, 9, 2, 64, false, true);
  attention_case(1, 40, 300, 1, 64, false, true); /* two key blocks: the online rescaling */
  attention_case(1, 600, 600, 1, 32, true, true); /* three key blocks, causal, one head in shares */
  attention_case(1, 1040, 1040, 1, 32, true, true); /* a 14-query group sees no key of the last key block */
  attention_case(1, 20, 50, 2, 64, true, true);   /* more keys than queries */
  attention_case(1, 50, 20, 2, 32, true, true);   /* more queries than keys */
  attention_case(3, 17, 33, 1, 64, false, true);
  attention_case(1, 1, 1, 1, 32, true, true);
  attention_case(1, 20, 20, 2, 16, true, true);
  attention_case(1, 57, 57, 2, 128, true, true);   /* two full query blocks of 28 and one row */
  attention_case(2, 29, 45, 1, 96, false, true);   /* odd key count: a half-used last pair */
  attention_case(1, 70, 70, 1, 160, true, true);
  attention_case(1, 3, 16400, 1, 32, false, true); /* more keys than the bf16 kernels pack: f32 */
  attention_case(1, 3, 8200, 1, 128, false, true);  /* over 2^20 keys x head_dim: f32 */
}

/* ---------------------------------------------------------------------------------------------- */
/* Runs: no allocation but the outputs, same bits every time                                       */
/* ---------------------------------------------------------------------------------------------- */

/* An allocator counting its calls (thread-safe). */
typedef struct counting {
  atomic_long allocs;
} counting;

static void *count_alloc(void *ctx, size_t size, size_t align) {
  atomic_fetch_add(&((counting *)ctx)->allocs, 1);
  return hr_default_allocator()->alloc(NULL, size, align);
}

static void count_free(void *ctx, void *p) { hr_default_allocator()->free(NULL, p); }

/* A small transformer block in hlorun ops: layer norm, projections with bias, attention,
 * output projection with residual, feed-forward with GELU-like epilogue. */
static fast_case block_case(void) {
  fast_case c = {.name = "block", .n_args = 6, .want_fast = 8};
  int64_t xd[3] = {2, 40, 32}, wd[2] = {32, 32}, vd[1] = {32};
  c.args[0] = random_f32(3, xd, 1, 1.0f);
  c.args[1] = random_f32(2, wd, 2, 0.3f);
  c.args[2] = random_f32(2, wd, 3, 0.3f);
  c.args[3] = random_f32(2, wd, 4, 0.3f);
  c.args[4] = random_f32(1, vd, 5, 1.0f);
  c.args[5] = random_f32(1, vd, 6, 1.0f);
  for (int i = 1; i < 6; i++) c.bound[i] = true;
  c.text = text_of(
      "func.func @main(%%x: tensor<2x40x32xf32>, %%wq: tensor<32x32xf32>, %%wk: tensor<32x32xf32>, "
      "%%wv: tensor<32x32xf32>, %%s: tensor<32xf32>, %%b: tensor<32xf32>) -> tensor<2x40x32xf32> {\n"
      "  %%n = \"hlorun.layer_norm\"(%%x, %%s, %%b) {epsilon = 1.0e-6 : f32} : (tensor<2x40x32xf32>, tensor<32xf32>, "
      "tensor<32xf32>) -> tensor<2x40x32xf32>\n"
      "  %%q = \"hlorun.matmul\"(%%n, %%wq, %%b) ({\n"
      "  ^bb0(%%acc: tensor<f32>, %%e: tensor<f32>):\n"
      "    %%r = stablehlo.add %%acc, %%e : tensor<f32>\n"
      "    stablehlo.return %%r : tensor<f32>\n"
      "  }) : (tensor<2x40x32xf32>, tensor<32x32xf32>, tensor<32xf32>) -> tensor<2x40x32xf32>\n"
      "  %%k = \"hlorun.matmul\"(%%n, %%wk) ({\n"
      "  ^bb0(%%acc: tensor<f32>):\n"
      "    stablehlo.return %%acc : tensor<f32>\n"
      "  }) : (tensor<2x40x32xf32>, tensor<32x32xf32>) -> tensor<2x40x32xf32>\n"
      "  %%v = \"hlorun.matmul\"(%%n, %%wv) ({\n"
      "  ^bb0(%%acc: tensor<f32>):\n"
      "    stablehlo.return %%acc : tensor<f32>\n"
      "  }) {transpose_b = true} : (tensor<2x40x32xf32>, tensor<32x32xf32>) -> tensor<2x40x32xf32>\n"
      "  %%q4 = stablehlo.reshape %%q : (tensor<2x40x32xf32>) -> tensor<2x40x4x8xf32>\n"
      "  %%k4 = stablehlo.reshape %%k : (tensor<2x40x32xf32>) -> tensor<2x40x4x8xf32>\n"
      "  %%v4 = stablehlo.reshape %%v : (tensor<2x40x32xf32>) -> tensor<2x40x4x8xf32>\n"
      "  %%a4 = \"hlorun.attention\"(%%q4, %%k4, %%v4) {scale = 0.35 : f32, causal = true} : (tensor<2x40x4x8xf32>, "
      "tensor<2x40x4x8xf32>, tensor<2x40x4x8xf32>) -> tensor<2x40x4x8xf32>\n"
      "  %%a = stablehlo.reshape %%a4 : (tensor<2x40x4x8xf32>) -> tensor<2x40x32xf32>\n"
      "  %%o = \"hlorun.matmul\"(%%a, %%wq, %%x) ({\n"
      "  ^bb0(%%acc: tensor<f32>, %%res: tensor<f32>):\n"
      "    %%r = stablehlo.add %%acc, %%res : tensor<f32>\n"
      "    stablehlo.return %%r : tensor<f32>\n"
      "  }) : (tensor<2x40x32xf32>, tensor<32x32xf32>, tensor<2x40x32xf32>) -> tensor<2x40x32xf32>\n"
      "  %%sm = \"hlorun.softmax\"(%%o) : (tensor<2x40x32xf32>) -> tensor<2x40x32xf32>\n"
      "  %%y = \"hlorun.fused\"(%%sm, %%o) ({\n"
      "  ^bb0(%%p: tensor<f32>, %%z: tensor<f32>):\n"
      "    %%r = stablehlo.multiply %%p, %%z : tensor<f32>\n"
      "    stablehlo.return %%r : tensor<f32>\n"
      "  }) {broadcast_dimensions = [array<i64: 0, 1, 2>, array<i64: 0, 1, 2>]} : (tensor<2x40x32xf32>, "
      "tensor<2x40x32xf32>) -> tensor<2x40x32xf32>\n"
      "  return %%y : tensor<2x40x32xf32>\n}\n");
  return c;
}

TEST(block_matches_reference) {
  fast_case c = block_case();
  c.tolerance = 1e-5;
  check_case(&c);
}

TEST(runs_allocate_only_outputs_and_repeat) {
  fast_case c = block_case();
  counting cnt;
  atomic_init(&cnt.allocs, 0);
  hr_allocator counting_alloc = {count_alloc, count_free, &cnt};
  hr_executable *e = create(&c, &counting_alloc);
  if (e) {
    CHECK_EQ_INT(hr_executable_fast_stats(e).num_fast_steps, 8);
    CHECK_EQ_INT(hr_executable_fast_stats(e).num_alias_steps, 4);
    int n_first = 0;
    hr_tensor **first = run(&c, e, &n_first);
    /* What one output costs the allocator. */
    long before = atomic_load(&cnt.allocs);
    hr_tensor *probe = NULL;
    hr_shape ys = {.rank = 3, .dims = {2, 40, 32}};
    CHECK_OK(hr_tensor_create(&counting_alloc, HR_F32, &ys, 0, &probe));
    long per_output = atomic_load(&cnt.allocs) - before;
    hr_tensor_free(probe);
    for (int r = 0; r < 5 && first; r++) {
      before = atomic_load(&cnt.allocs);
      int n = 0;
      hr_tensor **again = run(&c, e, &n);
      CHECK_EQ_INT(atomic_load(&cnt.allocs) - before, per_output);
      if (again && n == 1 && n_first == 1) CHECK(memcmp(again[0]->data, first[0]->data, first[0]->nbytes) == 0);
      hr_tensors_free(again, n);
    }
    hr_tensors_free(first, n_first);
  }
  hr_executable_free(e);
  for (int i = 0; i < c.n_args; i++) hr_tensor_free(c.args[i]);
  free((char *)c.text);
}

TEST(disable_fusion_uses_reference_kernels) {
  fast_case c = block_case();
  hr_module *m = parse(c.text);
  const hr_tensor *bound[8] = {NULL};
  for (int i = 0; i < c.n_args; i++) bound[i] = c.bound[i] ? c.args[i] : NULL;
  hr_exec_options eo = {.num_threads = 2, .disable_fusion = true};
  hr_executable *e = NULL;
  if (m) CHECK_OK(hr_executable_create(m, bound, NULL, &eo, &e));
  if (e) {
    CHECK_EQ_INT(hr_executable_fast_stats(e).num_fast_steps, 0);
    CHECK_STR_CONTAINS(hr_executable_step_impl(e, 0), "reference");
  }
  hr_executable_free(e);
  for (int i = 0; i < c.n_args; i++) hr_tensor_free(c.args[i]);
  free((char *)c.text);
}

int main(void) {
  if (!hr_cpu_avx512_ok()) {
    printf("skipped: no AVX-512\n");
    return 77;
  }
  RUN(matmul_shapes_and_epilogues);
  RUN(matmul_rank3_and_runtime_weights);
  RUN(matmul_bf16_error_bound);
  RUN(matmul_b_window);
  RUN(fused_broadcasts);
  RUN(fused_gelu_special_values);
  RUN(layer_norm_and_softmax_rows);
  RUN(attention_blocks_and_masks);
  RUN(attention_bf16);
  RUN(attention_packed_qkv);
  RUN(block_matches_reference);
  RUN(runs_allocate_only_outputs_and_repeat);
  RUN(disable_fusion_uses_reference_kernels);
  TEST_MAIN_END();
}

/* hr_fuse on random programs: DAGs of elementwise f32 ops over [4, 6] values, with products by a
 * weight, broadcasts of a [6] vector and of a scalar, splat constants, reductions broadcast back
 * (values that depend on earlier ones through ops fusion must not absorb), values read many
 * times and several results. Each fused module must verify, re-parse and compute exactly what
 * the unfused one computes (matmul epilogues and hlorun.fused evaluate the same kernels). */
#include <stdint.h>

#include "base/strbuf.h"
#include "compiler/fuse.h"
#include "ir/ir.h"
#include "test.h"

enum { PROGRAMS = 500, MAX_VALUES = 48, N_PARAMS = 5 };

/* A small deterministic generator. */
typedef struct rng {
  uint64_t s;
} rng;

static unsigned next(rng *r, unsigned n) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(r->s >> 33) % n;
}

/* Appends one random op defining %v<i> from earlier values (names[0..i)). */
static void random_op(hr_strbuf *sb, rng *r, int i) {
  static const char *kBinary[] = {"add", "subtract", "multiply", "maximum", "minimum"};
  static const char *kUnary[] = {"tanh", "negate", "logistic", "abs", "sine"};
  const char *t = "tensor<4x6xf32>";
  int a = (int)next(r, (unsigned)i), b = (int)next(r, (unsigned)i);
  switch (next(r, 10)) {
    case 0: case 1: case 2:
      hr_strbuf_printf(sb, "  %%v%d = stablehlo.%s %%v%d, %%v%d : %s\n", i, kBinary[next(r, 5)], a, b, t);
      break;
    case 3: case 4:
      hr_strbuf_printf(sb, "  %%v%d = stablehlo.%s %%v%d : %s\n", i, kUnary[next(r, 5)], a, t);
      break;
    case 5:
      hr_strbuf_printf(sb, "  %%v%d = stablehlo.broadcast_in_dim %%b, dims = [1] : (tensor<6xf32>) -> %s\n", i, t);
      break;
    case 6:
      hr_strbuf_printf(sb, "  %%v%d = stablehlo.broadcast_in_dim %%s, dims = [] : (tensor<f32>) -> %s\n", i, t);
      break;
    case 7:
      hr_strbuf_printf(sb, "  %%v%d = stablehlo.constant dense<%d.5> : %s\n", i, (int)next(r, 5) - 2, t);
      break;
    case 8:
      hr_strbuf_printf(sb,
                       "  %%v%d = stablehlo.dot_general %%v%d, %%w, contracting_dims = [1] x [0] : (%s, tensor<6x6xf32>) -> %s\n",
                       i, a, t, t);
      break;
    default:
      hr_strbuf_printf(sb,
                       "  %%r%d = stablehlo.reduce(%%v%d init: %%zero) applies stablehlo.add across dimensions = [1] : (%s, tensor<f32>) -> tensor<4xf32>\n"
                       "  %%v%d = stablehlo.broadcast_in_dim %%r%d, dims = [0] : (tensor<4xf32>) -> %s\n",
                       i, a, t, i, i, t);
      break;
  }
}

/* A random program: parameters %v0, %v1 [4, 6], %w [6, 6], %b [6], %s; a random number of ops;
 * the last value and up to two others returned. */
static void random_program(hr_strbuf *sb, rng *r) {
  int n = 4 + (int)next(r, MAX_VALUES - 4);
  int extra[2] = {(int)next(r, (unsigned)n), (int)next(r, (unsigned)n)};
  int n_extra = (int)next(r, 3);
  hr_strbuf_puts(sb, "func.func @main(%v0: tensor<4x6xf32>, %v1: tensor<4x6xf32>, %w: tensor<6x6xf32>, %b: tensor<6xf32>, %s: tensor<f32>) -> (tensor<4x6xf32>");
  for (int k = 0; k < n_extra; k++) hr_strbuf_puts(sb, ", tensor<4x6xf32>");
  hr_strbuf_puts(sb, ") {\n  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n");
  for (int i = 2; i < n; i++) random_op(sb, r, i);
  hr_strbuf_printf(sb, "  return %%v%d", n - 1);
  for (int k = 0; k < n_extra; k++) hr_strbuf_printf(sb, ", %%v%d", extra[k]);
  hr_strbuf_puts(sb, " : tensor<4x6xf32>");
  for (int k = 0; k < n_extra; k++) hr_strbuf_puts(sb, ", tensor<4x6xf32>");
  hr_strbuf_puts(sb, "\n}\n");
}

/* Deterministic inputs for the parameters. */
static void make_inputs(const hr_func *fn, hr_tensor **inputs) {
  for (int p = 0; p < N_PARAMS; p++) {
    CHECK_OK(hr_tensor_create(NULL, HR_F32, &fn->body.args[p].type.shape, 0, &inputs[p]));
    float *x = inputs[p] ? inputs[p]->data : NULL;
    for (int64_t i = 0; x && i < hr_tensor_num_elements(inputs[p]); i++) x[i] = (float)((i * 5 + p * 3) % 9 - 4) * 0.25f;
  }
}

/* Fuses one program and compares it with the unfused one; true when everything agrees. */
static bool check_program(const char *text, hr_fuse_stats *st) {
  hr_module *ref = NULL, *m = NULL, *again = NULL;
  CHECK_OK(hr_module_parse("random.mlir", text, strlen(text), NULL, &ref));
  CHECK_OK(hr_module_parse("random.mlir", text, strlen(text), NULL, &m));
  if (!ref || !m) {
    hr_module_free(ref);
    hr_module_free(m);
    return false;
  }
  hr_tensor *inputs[N_PARAMS] = {0};
  make_inputs(hr_module_find_func(ref, "main"), inputs);
  const hr_tensor *bound[N_PARAMS] = {NULL, NULL, inputs[2], NULL, NULL};
  hr_fuse_options o = {.bound = bound, .n_bound = N_PARAMS, .stats = st};
  hr_status s = hr_fuse(m, &o);
  bool ok = s == NULL;
  CHECK_OK(s);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  if (ok) CHECK_OK(hr_module_print_to(m, &sb));
  if (ok) CHECK_OK(hr_module_parse("fused.mlir", sb.data, sb.len, NULL, &again));
  ok = ok && again;
  hr_tensor **a = NULL, **b = NULL;
  int na = 0, nb = 0;
  hr_run_options ro = {.num_threads = 1};
  CHECK_OK(hr_module_run(ref, "main", inputs, N_PARAMS, &ro, &a, &na));
  if (ok) CHECK_OK(hr_module_run(again, "main", inputs, N_PARAMS, &ro, &b, &nb));
  ok = ok && a && b && na == nb;
  for (int i = 0; ok && i < na; i++) ok = a[i]->nbytes == b[i]->nbytes && memcmp(a[i]->data, b[i]->data, a[i]->nbytes) == 0;
  if (a) hr_tensors_free(a, na);
  if (b) hr_tensors_free(b, nb);
  for (int p = 0; p < N_PARAMS; p++) hr_tensor_free(inputs[p]);
  hr_strbuf_free(&sb);
  hr_module_free(again);
  hr_module_free(ref);
  hr_module_free(m);
  return ok;
}

TEST(random_programs_fuse_exactly) {
  rng r = {12345};
  hr_fuse_stats total = {0};
  int failures = 0;
  for (int k = 0; k < PROGRAMS; k++) {
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    random_program(&sb, &r);
    hr_fuse_stats st = {0};
    if (!check_program(sb.data, &st) && failures++ < 3) fprintf(stderr, "program %d differs:\n%s\n", k, sb.data);
    total.ops_before += st.ops_before;
    total.ops_after += st.ops_after;
    total.matmul += st.matmul;
    total.epilogue_ops += st.epilogue_ops;
    total.fused += st.fused;
    total.fused_ops += st.fused_ops;
    hr_strbuf_free(&sb);
  }
  printf("%d programs: ops %d -> %d, %d matmuls (+%d epilogue ops), %d fused (%d ops), %d failures\n", PROGRAMS,
         total.ops_before, total.ops_after, total.matmul, total.epilogue_ops, total.fused, total.fused_ops, failures);
  CHECK_EQ_INT(failures, 0);
  CHECK(total.epilogue_ops > 0 && total.fused_ops > 0);
}

int main(void) {
  RUN(random_programs_fuse_exactly);
  TEST_MAIN_END();
}

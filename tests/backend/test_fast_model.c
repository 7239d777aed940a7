/* The TinyTransformer through fusion and the fast kernels, against the numpy reference (driven by
 * test_fast_tiny.sh, which generates weights, tokens and reference logits and passes them in
 * HLORUN_FT_WEIGHTS / HLORUN_FT_TOKENS / HLORUN_FT_REFERENCE; skipped (77) without them or without
 * AVX-512): every heavy step runs on a fast kernel, f32 logits stay within 1e-4 of the reference and
 * bf16 ones (when the CPU has AVX512_BF16) within 0.1, and steady-state runs allocate nothing but
 * their output and repeat their results bit for bit. */
#include <math.h>
#include <stdatomic.h>

#include "backend/cpu/cpu_features.h"
#include "backend/cpu/fast.h"
#include "backend/cpu/gemm.h"
#include "runtime/exec_internal.h"
#include "test.h"

/* An allocator counting its calls (thread-safe). */
typedef struct counting {
  atomic_long allocs;
} counting;

static void *count_alloc(void *ctx, size_t size, size_t align) {
  atomic_fetch_add(&((counting *)ctx)->allocs, 1);
  return hr_default_allocator()->alloc(NULL, size, align);
}

static void count_free(void *ctx, void *p) { hr_default_allocator()->free(NULL, p); }

static double max_abs_diff(const hr_tensor *a, const hr_tensor *ref) {
  int64_t n = hr_tensor_num_elements(a);
  if (a->dtype != HR_F32 || hr_tensor_num_elements(ref) != n) return INFINITY;
  double worst = 0;
  for (int64_t i = 0; i < n; i++) {
    double r = ref->dtype == HR_F64 ? ((const double *)ref->data)[i] : ((const float *)ref->data)[i];
    double d = fabs((double)((const float *)a->data)[i] - r);
    if (!(d <= worst)) worst = d;
  }
  return worst;
}

/* Checks that every step not run by a fast kernel (nor an alias or folded) is small: its results
 * hold at most 8 KiB. */
static void check_plan(const hr_executable *e) {
  hr_exec_fast_stats fs = hr_executable_fast_stats(e);
  printf("plan: %d steps, %d fast, %d aliases, %d folded, %zu bytes of scratch\n", hr_executable_num_plan_steps(e),
         fs.num_fast_steps, fs.num_alias_steps, fs.num_folded_steps, fs.scratch_bytes);
  CHECK(fs.num_fast_steps >= 30); /* 17 matmuls (q|k|v merged), 9 layer norms, 4 attentions */
  for (int i = 0; i < hr_executable_num_plan_steps(e); i++) {
    const char *impl = hr_executable_step_impl(e, i);
    const hr_op *op = hr_executable_step_op(e, i);
    if (strcmp(impl, "reference") != 0 && strcmp(impl, "wrapped") != 0) continue;
    size_t bytes = 0;
    for (int r = 0; r < op->n_results; r++) {
      int64_t n = 1;
      for (int d = 0; d < op->results[r].type.shape.rank; d++) n *= op->results[r].type.shape.dims[d];
      bytes += (size_t)n * hr_dtype_size(op->results[r].type.dtype);
    }
    if (bytes > 8192) {
      fprintf(stderr, "step %d (%s) runs on its reference kernel with %zu bytes of results\n", i,
              hr_opcode_name(op->code), bytes);
      test_failures_++;
    }
  }
}

/* Compiles the model for the tokens' shape (bf16 or not), checks the plan, the logits against the
 * reference within `tolerance`, and the steady state. */
static void check_model(const char *model, const char *wpath, const hr_tensor *tokens, const hr_tensor *ref, bool bf16,
                        double tolerance) {
  counting cnt;
  atomic_init(&cnt.allocs, 0);
  hr_allocator alloc = {count_alloc, count_free, &cnt};
  hr_exec_options opts = {.allocator = &alloc, .num_threads = 2, .bf16 = bf16};
  hr_module *m = NULL;
  hr_weights *w = NULL;
  hr_program *p = NULL;
  hr_executable *e = NULL;
  CHECK_OK(hr_module_parse_file(model, NULL, &m));
  CHECK_OK(hr_safetensors_read_file(wpath, NULL, 0, &w));
  if (m && w) CHECK_OK(hr_program_create(m, NULL, w, &opts, &p));
  hr_tensor_spec spec = {tokens->dtype, tokens->shape};
  if (p) CHECK_OK(hr_program_compile(p, &spec, 1, &e));
  if (e) {
    check_plan(e);
    hr_tensor *in = (hr_tensor *)tokens;
    hr_tensor **first = NULL, **again = NULL;
    int n_first = 0, n_again = 0;
    CHECK_OK(hr_executable_run(e, &in, 1, &first, &n_first));
    double diff = first && n_first == 1 ? max_abs_diff(first[0], ref) : INFINITY;
    printf("%s: max |logits - reference| = %.3g (tolerance %g)\n", bf16 ? "bf16" : "f32", diff, tolerance);
    CHECK(diff < tolerance);
    long before = atomic_load(&cnt.allocs);
    CHECK_OK(hr_executable_run(e, &in, 1, &again, &n_again));
    CHECK_EQ_INT(atomic_load(&cnt.allocs) - before, 2); /* the output tensor and its data */
    if (first && again && n_first == 1 && n_again == 1)
      CHECK(memcmp(first[0]->data, again[0]->data, first[0]->nbytes) == 0);
    hr_tensors_free(first, n_first);
    hr_tensors_free(again, n_again);
  }
  hr_executable_free(e);
  hr_program_free(p);
  if (!p) {
    hr_module_free(m);
    hr_weights_free(w);
  }
}

/* The inputs test_fast_tiny.sh provides. */
static struct {
  char model[4200];
  const char *weights;
  hr_tensor *tokens, *reference;
} g;

TEST(tiny_transformer_f32) { check_model(g.model, g.weights, g.tokens, g.reference, false, 1e-4); }

TEST(tiny_transformer_bf16) {
  if (hr_gemm_supported(HR_GEMM_BF16)) check_model(g.model, g.weights, g.tokens, g.reference, true, 0.1);
}

int main(void) {
  const char *src = getenv("HLORUN_SOURCE_DIR"), *tpath = getenv("HLORUN_FT_TOKENS");
  const char *rpath = getenv("HLORUN_FT_REFERENCE");
  g.weights = getenv("HLORUN_FT_WEIGHTS");
  if (!src || !g.weights || !tpath || !rpath) {
    printf("skipped: run through test_fast_tiny.sh\n");
    return 77;
  }
  if (!hr_cpu_avx512_ok()) {
    printf("skipped: no AVX-512\n");
    return 77;
  }
  snprintf(g.model, sizeof g.model, "%s/examples/tiny_transformer/model.mlir", src);
  CHECK_OK(hr_npy_read_file(tpath, NULL, 0, &g.tokens));
  CHECK_OK(hr_npy_read_file(rpath, NULL, 0, &g.reference));
  if (g.tokens && g.reference) {
    RUN(tiny_transformer_f32);
    RUN(tiny_transformer_bf16);
  }
  hr_tensor_free(g.tokens);
  hr_tensor_free(g.reference);
  TEST_MAIN_END();
}

/* Fusion of the TinyTransformer (examples/tiny_transformer/model.mlir, 4 layers) at batches 1 and
 * 2, with real weights: the fused main must hold only the embedding ops, 9 layer norms, 4
 * attentions, 25 matmuls (q, k, v, out, ffn in, ffn out per layer and the logits) and their
 * reshapes; the op counts before and after and the time of the pass (also at batch 64) are
 * printed. The logits of
 * the fused and unfused programs (executables) and of the fused and unfused modules run by the
 * interpreter (reference kernels) must all be within 1e-4 of the float64 numpy reference, and the
 * fused module must print and re-parse.
 *
 * Needs the files test_fuse_tiny.sh generates (HLORUN_FT_WEIGHTS, HLORUN_FT_TOKENS for batch 2,
 * HLORUN_FT_REFERENCE); exits 77 (skipped) without them. */
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "base/strbuf.h"
#include "compiler/fuse.h"
#include "runtime/executable.h"
#include "test.h"

enum { N_PARAMS = 70, TOKENS_PARAM = 69, SEQ = 256, VOCAB = 256 };

/* The test's inputs. */
typedef struct files {
  const char *weights, *model;
  hr_tensor *tokens;    /* [2, 256] i32 */
  hr_tensor *reference; /* [2, 256, 256] logits (f32) */
} files;

/* Milliseconds since `t0`. */
static double ms_since(const struct timespec *t0) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* A program over the model and its weights, fused or not. */
static hr_program *make_program(const files *f, bool fuse) {
  hr_module *m = NULL;
  hr_weights *w = NULL;
  hr_program *p = NULL;
  CHECK_OK(hr_module_parse_file(f->model, NULL, &m));
  CHECK_OK(hr_safetensors_read_file(f->weights, NULL, 0, &w));
  hr_exec_options o = {.num_threads = 2, .disable_fusion = !fuse};
  if (m && w) CHECK_OK(hr_program_create(m, "main", w, &o, &p));
  else {
    hr_module_free(m);
    hr_weights_free(w);
  }
  return p;
}

/* The first `batch` rows of the tokens. */
static hr_tensor *tokens_for(const files *f, int64_t batch) {
  hr_shape s = {.rank = 2, .dims = {batch, SEQ}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_I32, &s, 0, &t));
  if (t) memcpy(t->data, f->tokens->data, t->nbytes);
  return t;
}

/* Largest |logits - reference| over the first `batch` rows; INFINITY on a shape mismatch. */
static double max_error(const files *f, const hr_tensor *logits, int64_t batch) {
  int64_t n = batch * SEQ * VOCAB;
  if (!logits || logits->dtype != HR_F32 || hr_tensor_num_elements(logits) != n) return INFINITY;
  double worst = 0;
  const float *a = logits->data, *r = f->reference->data;
  for (int64_t i = 0; i < n; i++) worst = fmax(worst, fabs((double)a[i] - r[i]));
  return worst;
}

/* Runs an executable on the tokens; returns the logits (owned). */
static hr_tensor *run_executable(hr_executable *e, hr_tensor *tokens) {
  hr_tensor **out = NULL;
  int n = 0;
  CHECK_OK(hr_executable_run(e, &tokens, 1, &out, &n));
  hr_tensor *logits = out ? out[0] : NULL;
  if (out) {
    out[0] = NULL;
    hr_tensors_free(out, n);
  }
  return logits;
}

/* Runs an executable's module with the interpreter (reference kernels), its bound weights and the
 * tokens as inputs; returns the logits (owned). */
static hr_tensor *run_interpreted(const hr_executable *e, hr_tensor *tokens) {
  hr_tensor *inputs[N_PARAMS];
  for (int i = 0; i < N_PARAMS; i++) inputs[i] = (hr_tensor *)hr_executable_bound(e, i);
  inputs[TOKENS_PARAM] = tokens;
  hr_tensor **out = NULL;
  int n = 0;
  hr_run_options o = {.num_threads = 2};
  CHECK_OK(hr_module_run(hr_executable_module(e), "main", inputs, N_PARAMS, &o, &out, &n));
  hr_tensor *logits = out ? out[0] : NULL;
  if (out) {
    out[0] = NULL;
    hr_tensors_free(out, n);
  }
  return logits;
}

/* Counts main's top-level ops by name and prints them as one line. */
static void print_counts(const char *what, const hr_module *m) {
  const hr_func *fn = hr_module_find_func(m, "main");
  int counts[HR_OP_COUNT] = {0};
  for (int k = 0; fn && k < fn->body.n_ops; k++) counts[fn->body.ops[k]->code]++;
  printf("  %s (%d ops):", what, fn ? fn->body.n_ops : 0);
  for (int c = 0; c < HR_OP_COUNT; c++)
    if (counts[c]) printf(" %s %d,", hr_opcode_name((hr_opcode)c), counts[c]);
  printf("\n");
}

/* Number of main's top-level ops with `code`. */
static int count(const hr_module *m, hr_opcode code) {
  const hr_func *fn = hr_module_find_func(m, "main");
  int n = 0;
  for (int k = 0; fn && k < fn->body.n_ops; k++) n += fn->body.ops[k]->code == code;
  return n;
}

/* Checks the fused module's ops and that it prints and re-parses. */
static void check_fused_module(const hr_module *m) {
  CHECK_EQ_INT(count(m, HR_OP_HLORUN_LAYER_NORM), 9);
  CHECK_EQ_INT(count(m, HR_OP_HLORUN_ATTENTION), 4);
  CHECK_EQ_INT(count(m, HR_OP_HLORUN_MATMUL), 17); /* per layer: q|k|v (one), out, 2 FFN; and the head */
  CHECK_EQ_INT(count(m, HR_OP_HLORUN_SOFTMAX), 0);
  CHECK_EQ_INT(count(m, HR_OP_DOT_GENERAL), 0);
  /* What is left of the elementwise ops: at batch 1 the embedding add (nothing to fuse it with). */
  CHECK(count(m, HR_OP_ADD) <= 1);
  CHECK_EQ_INT(count(m, HR_OP_MULTIPLY) + count(m, HR_OP_TANH) + count(m, HR_OP_REDUCE), 2);
  const hr_func *fn = hr_module_find_func(m, "main");
  CHECK(fn && fn->body.n_ops < 80);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(m, &sb));
  hr_module *again = NULL;
  CHECK_OK(hr_module_parse("fused.mlir", sb.data, sb.len, NULL, &again));
  hr_module_free(again);
  hr_strbuf_free(&sb);
}

/* Times hr_fuse alone on the model specialized for `batch` (best of three). */
static void time_pass(const hr_program *p, int64_t batch) {
  hr_type types[N_PARAMS];
  const hr_tensor *bound[N_PARAMS];
  const hr_func *fn = hr_module_find_func(hr_program_module(p), "main");
  for (int i = 0; i < N_PARAMS; i++) {
    bound[i] = hr_program_bound(p, i);
    types[i] = fn->body.args[i].type;
    if (bound[i]) types[i] = hr_tensor_type(bound[i]->dtype, bound[i]->shape.rank, bound[i]->shape.dims);
  }
  types[TOKENS_PARAM].shape.dims[0] = batch;
  double best = INFINITY, spec_ms = INFINITY;
  for (int rep = 0; rep < 3; rep++) {
    hr_folder folder = hr_interp_folder();
    hr_module *m = NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(hr_specialize(hr_program_module(p), "main", types, N_PARAMS, &folder, NULL, &m));
    spec_ms = fmin(spec_ms, ms_since(&t0));
    if (!m) return;
    hr_fuse_stats st;
    hr_fuse_options o = {.bound = bound, .n_bound = N_PARAMS, .stats = &st};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(hr_fuse(m, &o));
    best = fmin(best, ms_since(&t0));
    if (rep == 0)
      printf("  hr_fuse: %d -> %d ops; %d matmuls (+%d epilogue ops), %d layer norms, %d attentions (%d q|k|v merged), %d softmax, %d fused (%d ops)\n",
             st.ops_before, st.ops_after, st.matmul, st.epilogue_ops, st.layer_norm, st.attention, st.qkv, st.softmax, st.fused,
             st.fused_ops);
    hr_module_free(m);
  }
  printf("  hr_specialize %.2f ms, hr_fuse %.2f ms (best of 3)\n", spec_ms, best);
}

/* Compiles both programs for `batch`, compares everything against the reference. */
static void check_batch(const files *f, hr_program *fused, hr_program *plain, int64_t batch) {
  printf("batch %lld:\n", (long long)batch);
  hr_tensor_spec spec = {HR_I32, {.rank = 2, .dims = {batch, SEQ}}};
  hr_executable *ef = NULL, *ep = NULL;
  CHECK_OK(hr_program_compile(fused, &spec, 1, &ef));
  CHECK_OK(hr_program_compile(plain, &spec, 1, &ep));
  hr_tensor *tokens = tokens_for(f, batch);
  if (!ef || !ep || !tokens) {
    hr_executable_free(ef);
    hr_executable_free(ep);
    hr_tensor_free(tokens);
    return;
  }
  print_counts("specialized", hr_executable_module(ep));
  print_counts("fused", hr_executable_module(ef));
  check_fused_module(hr_executable_module(ef));
  time_pass(fused, batch);
  struct timespec t0;
  hr_tensor *logits[4];
  const char *names[4] = {"fused executable", "unfused executable", "fused module, interpreter",
                          "unfused module, interpreter"};
  double ms[4];
  hr_executable *exes[2] = {ef, ep};
  for (int i = 0; i < 4; i++) {
    clock_gettime(CLOCK_MONOTONIC, &t0);
    logits[i] = i < 2 ? run_executable(exes[i], tokens) : run_interpreted(exes[i - 2], tokens);
    ms[i] = ms_since(&t0);
  }
  for (int i = 0; i < 4; i++) {
    double err = max_error(f, logits[i], batch);
    printf("  %-28s max |logits - reference| %.3g (%.1f ms)\n", names[i], err, ms[i]);
    CHECK(err < 1e-4);
    hr_tensor_free(logits[i]);
  }
  hr_tensor_free(tokens);
  hr_executable_free(ef);
  hr_executable_free(ep);
}

/* Reads an .npy file named by environment variable `var`; NULL when unset. */
static hr_tensor *read_npy(const char *var) {
  const char *path = getenv(var);
  hr_tensor *t = NULL;
  if (path) CHECK_OK(hr_npy_read_file(path, NULL, 0, &t));
  return t;
}

TEST(tiny_transformer_fuses) {
  char model[4096];
  const char *src = getenv("HLORUN_SOURCE_DIR");
  files f = {getenv("HLORUN_FT_WEIGHTS"), model, read_npy("HLORUN_FT_TOKENS"), read_npy("HLORUN_FT_REFERENCE")};
  snprintf(model, sizeof model, "%s/examples/tiny_transformer/model.mlir", src ? src : ".");
  if (!f.weights || !f.tokens || !f.reference) {
    printf("HLORUN_FT_* files not given (run test_fuse_tiny.sh); skipping\n");
    exit(77);
  }
  CHECK(f.tokens->dtype == HR_I32 && hr_tensor_num_elements(f.tokens) == 2 * SEQ);
  CHECK(f.reference->dtype == HR_F32 && hr_tensor_num_elements(f.reference) == 2 * SEQ * VOCAB);
  hr_program *fused = make_program(&f, true), *plain = make_program(&f, false);
  if (fused && plain) {
    check_batch(&f, fused, plain, 1);
    check_batch(&f, fused, plain, 2);
    printf("batch 64 (the pass only):\n");
    time_pass(fused, 64);
  }
  hr_program_free(fused);
  hr_program_free(plain);
  hr_tensor_free(f.tokens);
  hr_tensor_free(f.reference);
}

int main(void) {
  RUN(tiny_transformer_fuses);
  TEST_MAIN_END();
}

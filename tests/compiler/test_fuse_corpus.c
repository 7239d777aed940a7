/* hr_fuse over the whole StableHLO conformance corpus: every program is specialized (the
 * *_dynamic ones for a batch of 3 with generated inputs, see test_specialize_corpus.c) with and
 * without constant folding, fused,
 * printed and re-parsed, and run with checks enabled; results must be identical, bit for bit, to
 * the unfused specialized program's, with as many checks passing. Modules where a layer norm or
 * attention was introduced would be compared within 1e-5 (their reference kernels compute the
 * exact formulas, not JAX's f32 graphs); the counts of fused ops are reported. Skipped (exit 77)
 * when ../shared/conformance/stablehlo-testdata is absent. */
#include <math.h>
#include <stdint.h>
#include <time.h>

#include "base/numeric.h"
#include "base/strbuf.h"
#include "compiler/fuse.h"
#include "compiler/specialize.h"
#include "corpus.h"
#include "runtime/executable.h"
#include "test.h"

enum { BATCH = 3, MAX_ARGS = 64, MAX_REPORTS = 20 };

/* Counters over the corpus. */
typedef struct totals {
  int files, fused_files, compared, failures;
  hr_fuse_stats sum;
  double fuse_ms;
} totals;

/* Reports a failure (only the first MAX_REPORTS are printed). */
static void fail(totals *t, const char *file, const char *what, hr_status s) {
  if (t->failures++ < MAX_REPORTS) fprintf(stderr, "%s: %s%s%s\n", file, what, s ? ": " : "", s ? hr_status_message(s) : "");
  hr_status_free(s);
}

/* A tensor of static type `t` holding small deterministic values (rank-0 integers: `dim`, the
 * value of a dimension variable, when dim >= 0). */
static hr_tensor *make_input(const hr_type *t, int seed, int64_t dim) {
  hr_tensor *x = NULL;
  hr_status s = hr_tensor_create(NULL, t->dtype, &t->shape, 0, &x);
  if (s) {
    hr_status_free(s);
    return NULL;
  }
  size_t es = hr_dtype_size(t->dtype);
  unsigned char *p = x->data;
  for (int64_t i = 0; i < hr_tensor_num_elements(x); i++, p += es) {
    int v = dim >= 0 ? (int)dim : (int)((i * 7 + seed * 13) % 11) - 5;
    switch (t->dtype) {
      case HR_F32: { float f = (float)v * 0.5f; memcpy(p, &f, 4); break; }
      case HR_F64: { double f = v * 0.5; memcpy(p, &f, 8); break; }
      case HR_F16: { uint16_t h = hr_f32_to_f16((float)v * 0.5f); memcpy(p, &h, 2); break; }
      case HR_BF16: { uint16_t h = hr_f32_to_bf16((float)v * 0.5f); memcpy(p, &h, 2); break; }
      case HR_I32: { int32_t n = v; memcpy(p, &n, 4); break; }
      case HR_I64: { int64_t n = v; memcpy(p, &n, 8); break; }
      case HR_I1: *p = (unsigned char)(v & 1); break;
      default: memset(p, v > 0 ? v : 0, 1); break;
    }
  }
  return x;
}

/* Argument types (symbolic dims set to BATCH) and inputs of @main; JAX passes dimension variables
 * first, as rank-0 integers, when some parameter has a symbolic dimension. */
static bool make_args(const hr_func *fn, hr_type *types, hr_tensor **inputs) {
  bool dynamic = false;
  for (int i = 0; i < fn->n_args; i++) dynamic |= !hr_type_is_static(&fn->body.args[i].type);
  bool leading = dynamic;
  for (int i = 0; i < fn->n_args; i++) {
    types[i] = fn->body.args[i].type;
    if (types[i].kind != HR_TYPE_TENSOR) return false;
    for (int d = 0; d < types[i].shape.rank; d++)
      if (types[i].shape.dims[d] == HR_DYNAMIC) types[i].shape.dims[d] = BATCH;
    leading = leading && types[i].shape.rank == 0 && (types[i].dtype == HR_I64 || types[i].dtype == HR_I32);
    inputs[i] = make_input(&types[i], i + 1, leading ? BATCH : -1);
    if (!inputs[i]) return false;
  }
  return true;
}

/* Whether the results agree: bit for bit, or within `tol` for f32 when tol > 0. */
static bool agree(const hr_tensor *a, const hr_tensor *b, double tol) {
  if (a->dtype != b->dtype || a->nbytes != b->nbytes || a->shape.rank != b->shape.rank) return false;
  if (memcmp(a->data, b->data, a->nbytes) == 0) return true;
  if (tol == 0.0 || a->dtype != HR_F32) return false;
  for (int64_t i = 0; i < hr_tensor_num_elements(a); i++) {
    double x = ((const float *)a->data)[i], y = ((const float *)b->data)[i];
    if (!(fabs(x - y) <= tol * (1.0 + fabs(x)))) return false;
  }
  return true;
}

/* Runs @main with checks; false (and nothing to free) on failure. */
static bool run(const hr_module *m, hr_tensor **inputs, int n, hr_tensor ***outs, int *n_outs, int64_t *checks,
                hr_status *err) {
  hr_run_options opts = {.num_threads = 1, .run_checks = true, .checks_passed = checks};
  *err = hr_module_run(m, "main", inputs, n, &opts, outs, n_outs);
  return *err == NULL;
}

/* Adds one run's statistics to the totals. */
static void add_stats(totals *t, const hr_fuse_stats *s) {
  t->sum.ops_before += s->ops_before;
  t->sum.ops_after += s->ops_after;
  t->sum.matmul += s->matmul;
  t->sum.epilogue_ops += s->epilogue_ops;
  t->sum.layer_norm += s->layer_norm;
  t->sum.softmax += s->softmax;
  t->sum.attention += s->attention;
  t->sum.fused += s->fused;
  t->sum.fused_ops += s->fused_ops;
  t->fused_files += s->ops_after != s->ops_before;
}

/* Fuses a specialized module, then checks that it re-parses and computes what `spec` computes. */
static void check_fused(totals *t, const char *name, const hr_module *spec, hr_module *fused, hr_tensor **inputs,
                        int n) {
  hr_fuse_stats st;
  hr_fuse_options o = {.stats = &st};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  hr_status s = hr_fuse(fused, &o);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  t->fuse_ms += (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  if (s) return fail(t, name, "fusion failed", s);
  add_stats(t, &st);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_module *again = NULL;
  s = hr_module_print_to(fused, &sb);
  if (!s) s = hr_module_parse(name, sb.data, sb.len, NULL, &again);
  hr_strbuf_free(&sb);
  hr_module_free(again);
  if (s) return fail(t, name, "the fused module does not re-parse", s);
  hr_tensor **a = NULL, **b = NULL;
  int na = 0, nb = 0;
  int64_t ca = 0, cb = 0;
  if (!run(spec, inputs, n, &a, &na, &ca, &s)) {
    hr_status_free(s); /* the program itself does not run: nothing to compare */
    return;
  }
  t->compared++;
  double tol = st.layer_norm || st.attention ? 1e-5 : 0.0;
  if (!run(fused, inputs, n, &b, &nb, &cb, &s)) {
    fail(t, name, "the fused module fails", s);
  } else {
    bool same = na == nb && ca == cb;
    for (int i = 0; same && i < na; i++) same = agree(a[i], b[i], tol);
    if (!same) fail(t, name, "results or checks differ", NULL);
    hr_tensors_free(b, nb);
  }
  hr_tensors_free(a, na);
}

/* Specializes a program twice (with the interpreter's constant folder, as programs do, or with no
 * folder, which leaves the computations of the test inputs as ops for fusion to work on), fuses
 * one copy and compares. */
static void check_variant(totals *t, const char *name, const hr_module *m, const hr_type *types, hr_tensor **inputs,
                          int n, const hr_folder *folder) {
  hr_module *spec = NULL, *fused = NULL;
  hr_status s = hr_specialize(m, "main", types, n, folder, NULL, &spec);
  if (!s) s = hr_specialize(m, "main", types, n, folder, NULL, &fused);
  if (s) hr_status_free(s); /* specialization is tested elsewhere */
  else check_fused(t, name, spec, fused, inputs, n);
  hr_module_free(spec);
  hr_module_free(fused);
}

/* Checks both variants of one program. */
static void check_file(totals *t, const char *path) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse_file(path, NULL, &m);
  if (s) {
    hr_status_free(s); /* parsing is tested elsewhere */
    return;
  }
  const hr_func *fn = hr_module_find_func(m, "main");
  hr_type types[MAX_ARGS];
  hr_tensor *inputs[MAX_ARGS] = {0};
  if (fn && fn->n_args <= MAX_ARGS && make_args(fn, types, inputs)) {
    hr_folder folder = hr_interp_folder();
    t->files++;
    check_variant(t, corpus_name(path), m, types, inputs, fn->n_args, &folder);
    check_variant(t, corpus_name(path), m, types, inputs, fn->n_args, NULL);
  }
  for (int i = 0; i < MAX_ARGS; i++) hr_tensor_free(inputs[i]);
  hr_module_free(m);
}

TEST(corpus_fuses) {
  corpus c;
  if (!corpus_open(&c)) exit(77);
  totals t = {0};
  for (int i = 0; i < c.n; i++) check_file(&t, c.paths[i]);
  corpus_close(&c);
  printf("%d programs (2 variants each), %d variants changed by fusion, %d compared, %d failures; fusion took %.1f ms\n", t.files,
         t.fused_files, t.compared, t.failures, t.fuse_ms);
  printf("ops %d -> %d; matmul %d (+%d epilogue ops), layer_norm %d, softmax %d, attention %d, fused %d (%d ops)\n",
         t.sum.ops_before, t.sum.ops_after, t.sum.matmul, t.sum.epilogue_ops, t.sum.layer_norm, t.sum.softmax,
         t.sum.attention, t.sum.fused, t.sum.fused_ops);
  CHECK(t.files > 1000);
  CHECK(t.compared > 2000);
  CHECK_EQ_INT(t.failures, 0);
}

int main(void) {
  RUN(corpus_fuses);
  TEST_MAIN_END();
}

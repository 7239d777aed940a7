/* Every StableHLO conformance program specialized: most take no arguments and call helper
 * functions for their inputs and expected values, so specialization inlines and folds nearly
 * everything while keeping the check.* calls; the *_dynamic programs take a dimension variable
 * and tensors with a symbolic batch, specialized here for a batch of 3 with generated inputs.
 * Each specialized module must verify, print and re-parse, contain no call, and run (checks
 * enabled) to results identical, bit for bit, to the source program's, with as many checks
 * passing. Skipped (exit 77) when ../shared/conformance/stablehlo-testdata is absent. */
#include <dirent.h>
#include <stdint.h>

#include "base/numeric.h"
#include "base/strbuf.h"
#include "compiler/specialize.h"
#include "runtime/executable.h"
#include "test.h"

enum { BATCH = 3, MAX_ARGS = 64, MAX_REPORTS = 20 };

/* Counters over the corpus. */
typedef struct stats {
  int files, specialized, compared, failures;
} stats;

/* Reports a failure for `file` (only the first MAX_REPORTS are printed). */
static void fail(stats *st, const char *file, const char *what, hr_status s) {
  if (st->failures++ < MAX_REPORTS) fprintf(stderr, "%s: %s%s%s\n", file, what, s ? ": " : "", s ? hr_status_message(s) : "");
  hr_status_free(s);
}

/* Stores small integer `v` as one element of type `t` at `p`. */
static void store(hr_dtype t, void *p, int v) {
  switch (t) {
    case HR_I1: *(uint8_t *)p = (uint8_t)(v & 1); break;
    case HR_I2: case HR_I4: case HR_I8: *(int8_t *)p = (int8_t)(v % 2); break;
    case HR_U2: case HR_U4: case HR_U8: *(uint8_t *)p = (uint8_t)((v < 0 ? -v : v) % 4); break;
    case HR_I16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case HR_U16: { uint16_t x = (uint16_t)(v < 0 ? -v : v); memcpy(p, &x, 2); break; }
    case HR_I32: { int32_t x = v; memcpy(p, &x, 4); break; }
    case HR_U32: { uint32_t x = (uint32_t)(v < 0 ? -v : v); memcpy(p, &x, 4); break; }
    case HR_I64: { int64_t x = v; memcpy(p, &x, 8); break; }
    case HR_U64: { uint64_t x = (uint64_t)(v < 0 ? -v : v); memcpy(p, &x, 8); break; }
    case HR_F16: { uint16_t x = hr_f32_to_f16((float)v * 0.5f); memcpy(p, &x, 2); break; }
    case HR_BF16: { uint16_t x = hr_f32_to_bf16((float)v * 0.5f); memcpy(p, &x, 2); break; }
    case HR_F32: { float x = (float)v * 0.5f; memcpy(p, &x, 4); break; }
    case HR_F64: { double x = v * 0.5; memcpy(p, &x, 8); break; }
    case HR_C64: { float x[2] = {(float)v * 0.5f, (float)v * 0.25f}; memcpy(p, x, 8); break; }
    case HR_C128: { double x[2] = {v * 0.5, v * 0.25}; memcpy(p, x, 16); break; }
    default: break;
  }
}

/* A tensor of static type `t` filled with a deterministic pattern. */
static hr_tensor *pattern(const hr_type *t, int seed) {
  hr_tensor *x = NULL;
  hr_status s = hr_tensor_create(NULL, t->dtype, &t->shape, 0, &x);
  if (s) {
    hr_status_free(s);
    return NULL;
  }
  size_t es = hr_dtype_size(t->dtype);
  for (int64_t i = 0; i < hr_tensor_num_elements(x); i++)
    store(t->dtype, (unsigned char *)x->data + (size_t)i * es, (int)((i * 7 + seed * 13) % 11) - 5);
  return x;
}

/* A tensor<i64> or tensor<i32> holding `v`: the value of a dimension variable. */
static hr_tensor *scalar(hr_dtype t, int64_t v) {
  hr_shape s = {.rank = 0};
  hr_tensor *x = NULL;
  hr_status st = hr_tensor_create(NULL, t, &s, 0, &x);
  if (st) {
    hr_status_free(st);
    return NULL;
  }
  if (t == HR_I64) memcpy(x->data, &v, 8);
  else store(t, x->data, (int)v);
  return x;
}

/* Argument types (symbolic dims set to BATCH) and inputs for @main. JAX passes the dimension
 * variables first, as rank-0 integers, when some parameter has a symbolic dimension. */
static bool make_args(const hr_func *fn, hr_type *types, hr_tensor **inputs) {
  bool dynamic = false;
  for (int i = 0; i < fn->n_args; i++) dynamic |= !hr_type_is_static(&fn->body.args[i].type);
  bool leading = dynamic;
  for (int i = 0; i < fn->n_args; i++) {
    types[i] = fn->body.args[i].type;
    if (types[i].kind != HR_TYPE_TENSOR) return false;
    for (int d = 0; d < types[i].shape.rank; d++)
      if (types[i].shape.dims[d] == HR_DYNAMIC) types[i].shape.dims[d] = BATCH;
    bool dim_var = leading && types[i].shape.rank == 0 && (types[i].dtype == HR_I64 || types[i].dtype == HR_I32);
    leading = dim_var;
    inputs[i] = dim_var ? scalar(types[i].dtype, BATCH) : pattern(&types[i], i + 1);
    if (!inputs[i]) return false;
  }
  return true;
}

static bool identical(const hr_tensor *a, const hr_tensor *b) {
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank || a->nbytes != b->nbytes) return false;
  for (int i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return false;
  return memcmp(a->data, b->data, a->nbytes) == 0;
}

/* Runs @main of `m` with checks; false (and nothing to free) when it fails. */
static bool run(const hr_module *m, hr_tensor **inputs, int n, hr_tensor ***outs, int *n_outs, int64_t *checks,
                hr_status *err) {
  hr_run_options opts = {.num_threads = 1, .run_checks = true, .checks_passed = checks};
  *err = hr_module_run(m, "main", inputs, n, &opts, outs, n_outs);
  return *err == NULL;
}

/* Prints, re-parses and runs the specialized module against the source. */
static void compare(stats *st, const char *file, const hr_module *src, const hr_module *spec, hr_tensor **inputs, int n) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = hr_module_print_to(spec, &sb);
  hr_module *again = NULL;
  if (!s) s = hr_module_parse(file, sb.data, sb.len, NULL, &again);
  bool calls = !s && strstr(sb.data, " call @");
  hr_strbuf_free(&sb);
  hr_module_free(again);
  if (s || calls) {
    fail(st, file, s ? "the specialized module does not re-parse" : "a call survived", s);
    return;
  }
  hr_tensor **a = NULL, **b = NULL;
  int na = 0, nb = 0;
  int64_t ca = 0, cb = 0;
  if (!run(src, inputs, n, &a, &na, &ca, &s)) {
    hr_status_free(s); /* the source itself does not run: nothing to compare */
    return;
  }
  st->compared++;
  if (!run(spec, inputs, n, &b, &nb, &cb, &s)) {
    fail(st, file, "the specialized module fails", s);
  } else {
    bool same = na == nb && ca == cb;
    for (int i = 0; same && i < na; i++) same = identical(a[i], b[i]);
    if (!same) fail(st, file, "results or checks differ", NULL);
    hr_tensors_free(b, nb);
  }
  hr_tensors_free(a, na);
}

/* Specializes one program and compares it with its source. */
static void check_file(stats *st, const char *dir, const char *name) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return;
  hr_module *m = NULL;
  hr_status s = hr_module_parse_file(path, NULL, &m);
  if (s) {
    hr_status_free(s); /* parsing is tested elsewhere */
    return;
  }
  st->files++;
  const hr_func *fn = hr_module_find_func(m, "main");
  hr_type types[MAX_ARGS];
  hr_tensor *inputs[MAX_ARGS] = {0};
  if (fn && fn->n_args <= MAX_ARGS && make_args(fn, types, inputs)) {
    hr_folder folder = hr_interp_folder();
    hr_module *spec = NULL;
    s = hr_specialize(m, "main", types, fn->n_args, &folder, NULL, &spec);
    if (s) {
      fail(st, name, "specialization failed", s);
    } else {
      st->specialized++;
      compare(st, name, m, spec, inputs, fn->n_args);
    }
    hr_module_free(spec);
  }
  for (int i = 0; i < MAX_ARGS; i++) hr_tensor_free(inputs[i]);
  hr_module_free(m);
}

TEST(corpus_specializes) {
  const char *src = getenv("HLORUN_SOURCE_DIR");
  char dir[4096];
  bool fits = snprintf(dir, sizeof dir, "%s/../shared/conformance/stablehlo-testdata", src ? src : ".") < (int)sizeof dir;
  DIR *d = fits ? opendir(dir) : NULL;
  if (!d) {
    printf("conformance corpus not found at %s; skipping\n", dir);
    exit(77);
  }
  stats st = {0};
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".mlir") == 0) check_file(&st, dir, e->d_name);
  }
  closedir(d);
  printf("%d programs, %d specialized, %d compared with their source, %d failures\n", st.files, st.specialized,
         st.compared, st.failures);
  CHECK(st.files > 1000);
  CHECK_EQ_INT(st.failures, 0);
  CHECK_EQ_INT(st.specialized, st.files);
}

int main(void) {
  RUN(corpus_specializes);
  TEST_MAIN_END();
}

/* hr_specialize on the TinyTransformer (examples/tiny_transformer/model.mlir: 8 functions, a
 * symbolic batch, the dimension variable passed first to every callee). For batches 1, 2 and 64
 * the specialized module must hold one static function without calls or dynamic ops whose
 * weights are still parameters; it must print and re-parse. Specialization times are reported.
 * (tests/cli/test_tiny_transformer.sh checks the specialized model's numbers with real weights.) */
#include <stdint.h>
#include <time.h>

#include "base/strbuf.h"
#include "compiler/specialize.h"
#include "runtime/executable.h"
#include "test.h"

enum { N_PARAMS = 70, TOKENS_PARAM = 69 };

/* Parses the model from the source tree. */
static hr_module *load_model(void) {
  const char *dir = getenv("HLORUN_SOURCE_DIR");
  char path[4096];
  hr_module *m = NULL;
  if (snprintf(path, sizeof path, "%s/examples/tiny_transformer/model.mlir", dir ? dir : ".") >= (int)sizeof path) {
    CHECK(!"HLORUN_SOURCE_DIR is too long");
    return NULL;
  }
  CHECK_OK(hr_module_parse_file(path, NULL, &m));
  return m;
}

/* The parameter types of @main with the batch dimension set to `batch`. */
static void batch_types(const hr_module *m, int64_t batch, hr_type *types) {
  const hr_func *fn = hr_module_find_func(m, "main");
  for (int i = 0; fn && i < fn->n_args && i < N_PARAMS; i++) {
    types[i] = fn->body.args[i].type;
    for (int d = 0; d < types[i].shape.rank; d++)
      if (types[i].shape.dims[d] == HR_DYNAMIC) types[i].shape.dims[d] = batch;
  }
}

/* Specializes the model for `batch` and returns the module's text (NULL on failure). */
static char *specialize_text(const hr_module *m, int64_t batch, double *ms) {
  hr_type types[N_PARAMS];
  batch_types(m, batch, types);
  hr_folder folder = hr_interp_folder();
  hr_module *out = NULL;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  CHECK_OK(hr_specialize(m, "main", types, N_PARAMS, &folder, NULL, &out));
  clock_gettime(CLOCK_MONOTONIC, &t1);
  *ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
  if (!out) return NULL;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(out, &sb));
  char *text = sb.data ? strdup(sb.data) : NULL;
  hr_strbuf_free(&sb);
  hr_module_free(out);
  return text;
}

/* Checks the specialized text for one batch size. */
static void check_batch(const hr_module *m, int64_t batch) {
  double ms = 0;
  char *text = specialize_text(m, batch, &ms);
  printf("batch %lld: specialized in %.2f ms\n", (long long)batch, ms);
  CHECK(text != NULL);
  if (!text) return;
  CHECK(!strstr(text, "dynamic"));
  CHECK(!strstr(text, "call @"));
  CHECK(!strstr(text, "?"));
  CHECK(!strstr(text, "get_dimension_size"));
  CHECK(!strstr(text, "func.func private"));
  char want[128];
  snprintf(want, sizeof want, "%%arg69: tensor<%lldx256xi32> {jax.arg_info = \"tokens\"", (long long)batch);
  CHECK_STR_CONTAINS(text, want);
  snprintf(want, sizeof want, "-> (tensor<%lldx256x256xf32> {jax.result_info = \"\"})", (long long)batch);
  CHECK_STR_CONTAINS(text, want);
  /* The weights stay parameters (used by the dot_generals), not constants. */
  CHECK_STR_CONTAINS(text, "%arg64: tensor<256x256xf32> {jax.arg_info = \"params['embed']['embedding']\"");
  CHECK_STR_CONTAINS(text, ", %arg65, contracting_dims");
  hr_module *again = NULL;
  CHECK_OK(hr_module_parse("tiny.mlir", text, strlen(text), NULL, &again));
  hr_module_free(again);
  free(text);
}

TEST(tiny_transformer_specializes) {
  hr_module *m = load_model();
  if (!m) return;
  const int64_t batches[] = {1, 2, 64};
  for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++) check_batch(m, batches[i]);
  hr_module_free(m);
}

int main(void) {
  RUN(tiny_transformer_specializes);
  TEST_MAIN_END();
}

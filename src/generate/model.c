/* Generation models (generate.h): the prefill and decode programs checked against the convention
 * of docs/generation.md, and compiled once per batch bucket. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/strbuf.h"
#include "base/weights.h"
#include "generate/generate_internal.h"
#include "ir/ir.h"
#include "runtime/executable.h"

bool hr_gen_module_can_generate(const hr_module *m) {
  const hr_func *p = hr_module_find_func(m, "prefill"), *d = hr_module_find_func(m, "decode");
  return p && d && !p->is_private && !d->is_private;
}

/* A second copy of a module: printed and parsed back (the printer's text round-trips). */
static hr_status copy_module(const hr_module *m, hr_module **out) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return hr_error(HR_OUT_OF_MEMORY, "out of memory copying a module");
  hr_status s = hr_module_print(m, f);
  if (fclose(f) != 0 && !s) s = hr_error(HR_OUT_OF_MEMORY, "out of memory copying a module");
  if (!s) s = hr_module_parse("<generation model>", text, len, NULL, out);
  free(text);
  return s;
}

/* The two programs over their modules (taken over) and the weights (taken over, shared), or
 * neither. */
static hr_status make_programs(hr_module *pm, const char *pfn, hr_module *dm, const char *dfn, hr_weights *weights,
                               const hr_exec_options *opts, hr_program **prefill, hr_program **decode) {
  hr_weights *shared = weights ? hr_weights_retain(weights) : NULL;
  hr_status s = hr_program_create(pm, pfn, weights, opts, prefill);
  hr_status s2 = hr_program_create(dm, dfn, shared, opts, decode);
  if (!s) s = s2;
  else hr_status_free(s2);
  if (s) {
    hr_program_free(*prefill);
    hr_program_free(*decode);
    *prefill = *decode = NULL;
  }
  return s;
}

hr_status hr_gen_programs_from_module(hr_module *m, hr_weights *weights, const hr_exec_options *opts,
                                      hr_program **prefill, hr_program **decode) {
  *prefill = *decode = NULL;
  hr_module *second = NULL;
  hr_status s = hr_gen_module_can_generate(m)
                    ? copy_module(m, &second)
                    : hr_error(HR_INVALID_ARGUMENT, "the module has no public @prefill and @decode functions (the "
                                                    "generation convention of docs/generation.md)");
  if (s) {
    hr_module_free(m);
    hr_weights_free(weights);
    return s;
  }
  return make_programs(m, "prefill", second, "decode", weights, opts, prefill, decode);
}

hr_status hr_gen_programs_from_program(const hr_program *p, const hr_exec_options *opts, hr_program **prefill,
                                       hr_program **decode) {
  *prefill = *decode = NULL;
  hr_module *m = NULL;
  HR_TRY(copy_module(hr_program_module(p), &m));
  hr_weights *w = hr_program_weights(p) ? hr_weights_retain(hr_program_weights(p)) : NULL;
  return hr_gen_programs_from_module(m, w, opts, prefill, decode);
}

/* The file in `dir` whose name starts with `prefix` ("prefill."): exactly one regular file. */
static hr_status find_function_file(const char *dir, const char *prefix, char *out, size_t cap) {
  DIR *d = opendir(dir);
  if (!d) return hr_error(HR_IO_ERROR, "%s: cannot open the directory: %s", dir, strerror(errno));
  int found = 0;
  size_t n = strlen(prefix);
  char candidate[4096];
  struct dirent *ent;
  for (int seen = 0; found < 2 && (ent = readdir(d)) != NULL && seen < HR_LIMIT_DIR_ENTRIES; seen++) {
    if (strncmp(ent->d_name, prefix, n) != 0) continue;
    int w = snprintf(candidate, sizeof candidate, "%s/%s", dir, ent->d_name);
    struct stat st;
    if (w < 0 || (size_t)w >= sizeof candidate || (size_t)w >= cap || stat(candidate, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    memcpy(out, candidate, (size_t)w + 1);
    found++;
  }
  closedir(d);
  if (found == 1) return NULL;
  return hr_error(HR_NOT_FOUND, "%s: %s one file named %s* (the generation convention, docs/generation.md)", dir,
                  found ? "more than" : "no", prefix);
}

hr_status hr_gen_programs_from_dir(const char *dir, hr_weights *weights, const hr_exec_options *opts,
                                   hr_program **prefill, hr_program **decode) {
  *prefill = *decode = NULL;
  char paths[2][4096];
  hr_module *mods[2] = {NULL, NULL};
  hr_status s = find_function_file(dir, "prefill.", paths[0], sizeof paths[0]);
  if (!s) s = find_function_file(dir, "decode.", paths[1], sizeof paths[1]);
  for (int i = 0; !s && i < 2; i++) s = hr_module_parse_file(paths[i], NULL, &mods[i]);
  if (s) {
    hr_module_free(mods[0]);
    hr_module_free(mods[1]);
    hr_weights_free(weights);
    return s;
  }
  return make_programs(mods[0], "main", mods[1], "main", weights, opts, prefill, decode);
}

/* ---------------------------------------------------------------------------------------------- */
/* The convention                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* An error about input or output `i` of `fn` that does not follow the convention. */
static hr_status convention_error(const char *fn, const char *what, int i, const hr_tensor_spec *got,
                                  const char *want) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_spec_print(&sb, got);
  hr_status s = hr_error(HR_INVALID_ARGUMENT, "@%s %s %d is %s, the generation convention wants %s (docs/generation.md)",
                         fn, what, i, sb.data ? sb.data : "?", want);
  hr_strbuf_free(&sb);
  return s;
}

/* Whether a batch dimension is usable: dynamic, or static 1 (a model for one sequence). */
static bool batch_ok(int64_t d) { return d == HR_DYNAMIC || d == 1; }

/* Checks prefill: (tokens i32[b, t], lengths i32[b]) -> (logits f32[b, V], cache...), where t is
 * the context T or symbolic (then T is the cache's dimension 1). Sets T, V, the number of cache
 * tensors and whether the batch is static 1. */
static hr_status check_prefill(hr_gen_model *m) {
  const hr_program *p = m->prefill;
  if (hr_program_num_inputs(p) != 2)
    return hr_error(HR_INVALID_ARGUMENT, "@prefill takes %d runtime inputs, the generation convention wants 2 "
                                         "(tokens, lengths; docs/generation.md)", hr_program_num_inputs(p));
  hr_tensor_spec tok = hr_program_input_spec(p, 0), len = hr_program_input_spec(p, 1);
  if (tok.dtype != HR_I32 || tok.shape.rank != 2 || !batch_ok(tok.shape.dims[0]) || tok.shape.dims[1] == 0)
    return convention_error("prefill", "input", 0, &tok, "tokens i32[b, T] or i32[b, t] with a symbolic t");
  if (len.dtype != HR_I32 || len.shape.rank != 1 || len.shape.dims[0] != tok.shape.dims[0])
    return convention_error("prefill", "input", 1, &len, "lengths i32[b]");
  m->static_batch = tok.shape.dims[0] == 1;
  int n_out = hr_program_num_outputs(p);
  if (n_out < 2)
    return hr_error(HR_INVALID_ARGUMENT, "@prefill gives %d outputs, the generation convention wants the logits "
                                         "and at least one cache tensor (docs/generation.md)", n_out);
  hr_tensor_spec lg = hr_program_output_spec(p, 0);
  if (lg.dtype != HR_F32 || lg.shape.rank != 2 || lg.shape.dims[0] != tok.shape.dims[0] || lg.shape.dims[1] < 1 ||
      lg.shape.dims[1] > HR_LIMIT_GEN_VOCAB)
    return convention_error("prefill", "output", 0, &lg, "logits f32[b, V] with a static V");
  m->vocab = (int)lg.shape.dims[1];
  m->n_cache = n_out - 1;
  for (int k = 0; k < m->n_cache; k++) {
    hr_tensor_spec c = hr_program_output_spec(p, k + 1);
    bool ok = c.shape.rank >= 1 && c.shape.dims[0] == tok.shape.dims[0];
    for (int d = 1; ok && d < c.shape.rank; d++) ok = c.shape.dims[d] >= 0;
    if (!ok) return convention_error("prefill", "output", k + 1, &c, "a cache tensor [b, ...] with static dims after b");
  }
  hr_tensor_spec first = hr_program_output_spec(p, 1);
  int64_t T = tok.shape.dims[1] != HR_DYNAMIC ? tok.shape.dims[1] : first.shape.rank >= 2 ? first.shape.dims[1] : 0;
  if (T < 1 || T > INT32_MAX / 2)
    return convention_error("prefill", "output", 1, &first, "a cache [b, T, ...] giving the context T of a symbolic t");
  m->context = (int)T;
  return NULL;
}

/* The prompt length buckets: T alone for a static length, else 16, 32, 64, ... below T, then T. */
static void length_buckets(hr_gen_model *m, bool symbolic) {
  m->n_lengths = 0;
  for (int64_t t = HR_GEN_MIN_LENGTH; symbolic && t < m->context && m->n_lengths < HR_GEN_MAX_LENGTHS - 1; t *= 2)
    m->lengths[m->n_lengths++] = (int)t;
  m->lengths[m->n_lengths++] = m->context;
}

int hr_gen_length_index(const hr_gen_model *m, int n) {
  int i = 0;
  while (i < m->n_lengths - 1 && m->lengths[i] < n) i++;
  return i;
}

/* Checks decode against prefill: (cache..., token i32[b], position i32[b]) -> (logits, cache...). */
static hr_status check_decode(const hr_gen_model *m) {
  const hr_program *p = m->decode, *pre = m->prefill;
  int n = m->n_cache;
  if (hr_program_num_inputs(p) != n + 2 || hr_program_num_outputs(p) != n + 1)
    return hr_error(HR_INVALID_ARGUMENT, "@decode takes %d runtime inputs and gives %d outputs; with %d cache tensors "
                                         "the generation convention wants %d and %d (docs/generation.md)",
                    hr_program_num_inputs(p), hr_program_num_outputs(p), n, n + 2, n + 1);
  hr_tensor_spec logits = hr_program_output_spec(pre, 0);
  for (int k = 0; k < n; k++) {
    hr_tensor_spec want = hr_program_output_spec(pre, k + 1);
    hr_tensor_spec in = hr_program_input_spec(p, k), out = hr_program_output_spec(p, k + 1);
    if (!hr_spec_equal(&in, &want)) return convention_error("decode", "input", k, &in, "the spec of prefill's cache output");
    if (!hr_spec_equal(&out, &want))
      return convention_error("decode", "output", k + 1, &out, "the spec of prefill's cache output");
  }
  for (int k = n; k < n + 2; k++) {
    hr_tensor_spec in = hr_program_input_spec(p, k);
    if (in.dtype != HR_I32 || in.shape.rank != 1 || in.shape.dims[0] != logits.shape.dims[0])
      return convention_error("decode", "input", k, &in, k == n ? "token i32[b]" : "position i32[b]");
  }
  hr_tensor_spec out = hr_program_output_spec(p, 0);
  if (!hr_spec_equal(&out, &logits)) return convention_error("decode", "output", 0, &out, "prefill's logits spec");
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Buckets                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The specs of a program's runtime inputs with the batch (a dynamic dimension 0) set to `b` and any
 * other dynamic dimension (prefill's prompt length) to `t`. */
static void bucket_specs(const hr_program *p, int64_t b, int64_t t, hr_tensor_spec *specs) {
  for (int i = 0; i < hr_program_num_inputs(p); i++) {
    specs[i] = hr_program_input_spec(p, i);
    for (int d = 0; d < specs[i].shape.rank; d++)
      if (specs[i].shape.dims[d] == HR_DYNAMIC) specs[i].shape.dims[d] = d == 0 ? b : t;
  }
}

/* Compiles `p` for batches 1, 2, 4, ... `max` (exes[log2 b]), each at prompt length `t`. */
static hr_status compile_buckets(hr_program *p, const char *name, int max, int64_t t, hr_executable **exes,
                                 size_t stride) {
  hr_tensor_spec *specs = calloc((size_t)hr_program_num_inputs(p) + 1, sizeof *specs);
  if (!specs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_status s = NULL;
  for (int b = 1, i = 0; !s && b <= max; b *= 2, i++) {
    bucket_specs(p, b, t, specs);
    s = hr_status_wrap(hr_program_compile(p, specs, hr_program_num_inputs(p), &exes[(size_t)i * stride]),
                       "compiling @%s for a batch of %d", name, b);
  }
  free(specs);
  return s;
}

/* Compiles prefill for every batch and length bucket, decode for every batch bucket. */
static hr_status compile_all(hr_gen_model *m) {
  for (int l = 0; l < m->n_lengths; l++)
    HR_TRY(hr_status_wrap(compile_buckets(m->prefill, "prefill", m->prefill_batch, m->lengths[l], &m->prefill_exe[0][l],
                                          HR_GEN_MAX_LENGTHS),
                          "prompts of up to %d tokens", m->lengths[l]));
  return compile_buckets(m->decode, "decode", m->slots, 0, m->decode_exe, 1);
}

/* Calls `fn` on every executable of the model (stopping at the first error). */
static hr_status each_executable(hr_gen_model *m, hr_status (*fn)(hr_gen_model *, hr_executable *, size_t *),
                                 size_t *acc) {
  for (int i = 0; i < HR_GEN_MAX_BUCKETS; i++) {
    for (int l = 0; l < HR_GEN_MAX_LENGTHS; l++)
      if (m->prefill_exe[i][l]) HR_TRY(fn(m, m->prefill_exe[i][l], acc));
    if (m->decode_exe[i]) HR_TRY(fn(m, m->decode_exe[i], acc));
  }
  return NULL;
}

/* Raises *most to an executable's arena. */
static hr_status largest_arena(hr_gen_model *m, hr_executable *e, size_t *most) {
  (void)m;
  if (hr_executable_arena_bytes(e) > *most) *most = hr_executable_arena_bytes(e);
  return NULL;
}

/* Moves an executable into the shared arena of *bytes. */
static hr_status use_shared(hr_gen_model *m, hr_executable *e, size_t *bytes) {
  return hr_executable_use_arena(e, m->arena, *bytes);
}

/* Gives every executable one arena, the largest they need: the engine runs one at a time, so a
 * model holds the working memory of its largest bucket, not the sum of all (a TinyTransformer of
 * 64 slots: 128 MiB instead of 450). Executables on another device keep their own. */
static hr_status share_arena(hr_gen_model *m) {
  size_t bytes = 0;
  HR_TRY(each_executable(m, largest_arena, &bytes));
  if (strcmp(hr_executable_device(m->decode_exe[0]), "cpu") != 0) return NULL;
  bytes = (bytes + 63) / 64 * 64;
  m->arena = aligned_alloc(64, bytes ? bytes : 64);
  if (!m->arena) return hr_error(HR_OUT_OF_MEMORY, "out of memory for a working memory of %zu bytes", bytes);
  memset(m->arena, 0, bytes); /* maps its pages now rather than during the first runs */
  return each_executable(m, use_shared, &bytes);
}

/* The smallest power of two >= n (n >= 1, at most HR_LIMIT_GEN_SLOTS). */
static int round_up_pow2(int n) {
  int b = 1;
  while (b < n) b *= 2;
  return b;
}

int hr_gen_bucket_index(int n) {
  int i = 0;
  while ((1 << i) < n) i++;
  return i;
}

/* Sizes the cache rows, checking their total against HR_LIMIT_GEN_CACHE_BYTES. */
static hr_status size_cache(hr_gen_model *m) {
  m->row_bytes = calloc((size_t)m->n_cache, sizeof *m->row_bytes);
  if (!m->row_bytes) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  size_t total = 0;
  for (int k = 0; k < m->n_cache; k++) {
    hr_tensor_spec c = hr_program_output_spec(m->prefill, k + 1);
    c.shape.dims[0] = 1;
    int64_t n;
    HR_TRY(hr_shape_num_elements(&c.shape, &n));
    size_t row = (size_t)n * hr_dtype_size(c.dtype);
    if (n > 0 && row / (size_t)n != hr_dtype_size(c.dtype)) row = SIZE_MAX;
    m->row_bytes[k] = row;
    if (row > HR_LIMIT_GEN_CACHE_BYTES / (size_t)m->slots || total + row * (size_t)m->slots > HR_LIMIT_GEN_CACHE_BYTES)
      return hr_error(HR_RESOURCE_EXHAUSTED, "the KV cache of %d slots would take more than %zu bytes", m->slots,
                      HR_LIMIT_GEN_CACHE_BYTES);
    total += row * (size_t)m->slots;
  }
  return NULL;
}

hr_status hr_gen_model_create(hr_program *prefill, hr_program *decode, int slots, hr_gen_model **out) {
  *out = NULL;
  hr_gen_model *m = calloc(1, sizeof *m);
  if (!m) {
    hr_program_free(prefill);
    hr_program_free(decode);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  m->prefill = prefill;
  m->decode = decode;
  hr_status s = slots < 1 || slots > HR_LIMIT_GEN_SLOTS
                    ? hr_error(HR_INVALID_ARGUMENT, "%d slots: a generation model runs 1 to %d sequences at once", slots,
                               HR_LIMIT_GEN_SLOTS)
                    : NULL;
  if (!s) s = check_prefill(m);
  if (!s) s = check_decode(m);
  if (!s) {
    m->slots = m->static_batch ? 1 : round_up_pow2(slots);
    m->prefill_batch = m->slots < HR_LIMIT_GEN_PREFILL_BATCH ? m->slots : HR_LIMIT_GEN_PREFILL_BATCH;
    length_buckets(m, hr_program_input_spec(m->prefill, 0).shape.dims[1] == HR_DYNAMIC);
    s = size_cache(m);
  }
  if (!s) s = compile_all(m);
  if (!s) s = share_arena(m);
  if (s) {
    hr_gen_model_free(m);
    return s;
  }
  *out = m;
  return NULL;
}

void hr_gen_model_free(hr_gen_model *m) {
  if (!m) return;
  for (int i = 0; i < HR_GEN_MAX_BUCKETS; i++) {
    for (int l = 0; l < HR_GEN_MAX_LENGTHS; l++) hr_executable_free(m->prefill_exe[i][l]);
    hr_executable_free(m->decode_exe[i]);
  }
  hr_program_free(m->prefill);
  hr_program_free(m->decode);
  free(m->arena);
  free(m->row_bytes);
  free(m);
}

int hr_gen_model_context(const hr_gen_model *m) { return m->context; }
int hr_gen_model_vocab(const hr_gen_model *m) { return m->vocab; }
int hr_gen_model_slots(const hr_gen_model *m) { return m->slots; }

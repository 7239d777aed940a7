/* Opening models for the CLI: StableHLO text (+ weights), portable artifacts, executable files,
 * run compiled (JIT) or through the reference interpreter. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/elem.h"
#include "base/limits.h"
#include "base/weights.h"
#include "cli/model.h"
#include "formats/savedmodel/savedmodel.h"
#include "ir/ir.h"
#include "runtime/executable.h"

/* Whether `path` ends in `ext`. */
static bool has_extension(const char *path, const char *ext) {
  size_t n = strlen(path), e = strlen(ext);
  return n > e && strcmp(path + n - e, ext) == 0;
}

/* The reader a file goes to (docs/artifact-format.md: magic "HLORUNAF", then version and kind as
 * little-endian u64s). Every file that starts with the magic or is named *.hlo or *.hlox goes to
 * an artifact reader, which reports whatever is wrong with it (too short, unknown kind, ...):
 * 2 (executable) when its header says kind 2, or when it lacks the magic and is named *.hlox;
 * else 1 (program). 0 for anything else (StableHLO text). */
static int container_kind(const char *path) {
  FILE *f = fopen(path, "rb");
  unsigned char h[24] = {0};
  size_t got = f ? fread(h, 1, sizeof h, f) : 0;
  if (f) fclose(f);
  if (got >= 8 && memcmp(h, "HLORUNAF", 8) == 0) {
    uint64_t kind = 0; /* 0 when the file ends before it */
    for (int i = 7; i >= 0; i--) kind = kind << 8 | h[16 + i];
    return kind == 2 ? 2 : 1;
  }
  return has_extension(path, ".hlox") ? 2 : has_extension(path, ".hlo") ? 1 : 0;
}

/* Whether `path` is a directory. */
static bool is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cli_is_container(const char *path) { return container_kind(path) != 0; }

bool cli_is_savedmodel(const char *path) { return hr_savedmodel_sniff_dir(path); }

/* Reads the module (and, for a SavedModel, the weights its variables hold) that `args` name. */
static hr_status read_module(const cli_model_args *args, hr_module **mod, hr_weights **w) {
  *w = NULL;
  if (cli_is_savedmodel(args->path)) {
    if (args->weights) return hr_error(HR_INVALID_ARGUMENT, "%s: a SavedModel holds its own variables; drop --weights", args->path);
    return hr_savedmodel_read(args->path, args->signature, NULL, mod, w);
  }
  if (args->signature) return hr_error(HR_INVALID_ARGUMENT, "--signature applies to SavedModel directories");
  HR_TRY(hr_module_parse_file(args->path, NULL, mod));
  hr_status s = args->weights ? hr_weights_read(args->weights, NULL, 0, w) : NULL;
  if (s) {
    hr_module_free(*mod);
    *mod = NULL;
  }
  return s;
}

/* The parameter bound to a weight via its jax.arg_info key path, or NULL. */
static const hr_tensor *weight_for_param(const hr_func *fn, const hr_weights *w, int p) {
  if (!w || !fn->arg_attrs) return NULL;
  const hr_attr *info = hr_attr_field(fn->arg_attrs[p], "jax.arg_info");
  char name[1024];
  if (!info || info->kind != HR_ATTR_STRING || !hr_keypath_to_dotted(info->u.str.data, name, sizeof name))
    return NULL;
  return hr_weights_find(w, name);
}

/* Interpreter mode: the unbound parameters become the model's inputs. */
static hr_status open_interpreted(cli_model *m) {
  const hr_func *fn = hr_module_find_func(m->module, m->function);
  if (!fn) return hr_error(HR_NOT_FOUND, "%s: no function @%s", m->module->filename, m->function);
  m->fn = fn;
  const hr_allocator *a = hr_default_allocator();
  m->bound = a->alloc(a->ctx, sizeof *m->bound * (size_t)(fn->n_args ? fn->n_args : 1), 16);
  m->input_params = a->alloc(a->ctx, sizeof *m->input_params * (size_t)(fn->n_args ? fn->n_args : 1), 16);
  if (!m->bound || !m->input_params) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int p = 0; p < fn->n_args; p++) {
    m->bound[p] = weight_for_param(fn, m->weights, p);
    if (!m->bound[p]) m->input_params[m->n_inputs++] = p;
  }
  return NULL;
}

/* The compile options the model flags ask for. */
static hr_status exec_options(const cli_model_args *args, hr_exec_options *opts) {
  *opts = (hr_exec_options){.num_threads = args->threads, .disable_fusion = args->no_fusion, .bf16 = args->bf16,
                            .disable_batch_split = args->no_batch_split};
  if (args->device) {
    if (strlen(args->device) >= sizeof opts->device)
      return hr_error(HR_INVALID_ARGUMENT, "--device: the name '%.64s' is longer than %d bytes", args->device,
                      HR_DEVICE_NAME_MAX - 1);
    if (args->interpret) return hr_error(HR_INVALID_ARGUMENT, "--device and --interpret exclude each other");
    strcpy(opts->device, args->device);
  }
  return NULL;
}

hr_status cli_model_open(const cli_model_args *args, cli_model *m) {
  memset(m, 0, sizeof *m);
  m->function = args->function ? args->function : "main";
  hr_exec_options opts;
  HR_TRY(exec_options(args, &opts));
  int kind = container_kind(args->path);
  if (kind) {
    if (args->weights) return hr_error(HR_INVALID_ARGUMENT, "%s carries its own weights; drop --weights", args->path);
    if (args->interpret) return hr_error(HR_INVALID_ARGUMENT, "--interpret takes a .mlir file");
    return kind == 1 ? hr_artifact_open(args->path, &opts, &m->program) : hr_executable_open(args->path, &opts, &m->exe);
  }
  hr_module *mod;
  hr_weights *w;
  HR_TRY(read_module(args, &mod, &w));
  if (args->interpret) {
    m->module = mod;
    m->weights = w;
    return open_interpreted(m);
  }
  if (hr_module_is_spmd(mod)) return hr_spmd_create(mod, m->function, w, &opts, &m->spmd);
  if (args->spmd) {
    if (hr_module_num_devices(mod) < 2) {
      hr_status s = hr_error(HR_INVALID_ARGUMENT, "--spmd: %s is written for one device (mhlo.num_partitions is 1)",
                             args->path);
      hr_module_free(mod);
      hr_weights_free(w);
      return s;
    }
    return hr_spmd_create(mod, m->function, w, &opts, &m->spmd);
  }
  return hr_program_create(mod, m->function, w, &opts, &m->program);
}

void cli_model_close(cli_model *m) {
  hr_program_free(m->program);
  hr_spmd_free(m->spmd);
  hr_executable_free(m->exe);
  const hr_allocator *a = hr_default_allocator();
  if (m->bound) a->free(a->ctx, (void *)m->bound);
  if (m->input_params) a->free(a->ctx, m->input_params);
  hr_weights_free(m->weights);
  hr_module_free(m->module);
  memset(m, 0, sizeof *m);
}

int cli_model_num_inputs(const cli_model *m) {
  if (m->exe) return hr_executable_num_inputs(m->exe);
  if (m->program) return hr_program_num_inputs(m->program);
  if (m->spmd)
    return (hr_spmd_is_global(m->spmd) ? 1 : hr_spmd_num_devices(m->spmd)) *
           hr_program_num_inputs(hr_spmd_program(m->spmd));
  return m->n_inputs;
}

hr_tensor_spec cli_model_input_spec(const cli_model *m, int i) {
  if (m->exe) return hr_executable_input_spec(m->exe, i);
  if (m->program) return hr_program_input_spec(m->program, i);
  if (m->spmd) return hr_program_input_spec(hr_spmd_program(m->spmd), i % hr_program_num_inputs(hr_spmd_program(m->spmd)));
  const hr_type *t = &m->fn->body.args[m->input_params[i]].type;
  return (hr_tensor_spec){t->dtype, t->shape};
}

/* The parameter of an executable's main that is its runtime input `i` (bound ones are skipped). */
static int executable_input_param(const hr_executable *e, const hr_func *fn, int i) {
  for (int p = 0; p < fn->n_args; p++)
    if (!hr_executable_bound(e, p) && i-- == 0) return p;
  return -1;
}

const char *cli_model_input_name(const cli_model *m, int i, char *buf, size_t cap) {
  if (m->program) return hr_program_input_name(m->program, i);
  if (m->spmd && hr_spmd_is_global(m->spmd)) return hr_program_input_name(hr_spmd_program(m->spmd), i);
  if (m->spmd) {
    const hr_program *p = hr_spmd_program(m->spmd);
    int n = hr_program_num_inputs(p);
    snprintf(buf, cap, "%s@%d", hr_program_input_name(p, i % n), i / n);
    return buf;
  }
  const hr_func *fn = m->exe ? hr_module_find_func(hr_executable_module(m->exe), "main") : m->fn;
  int p = !fn ? -1 : m->exe ? executable_input_param(m->exe, fn, i) : m->input_params[i];
  const hr_attr *info = p >= 0 && fn->arg_attrs ? hr_attr_field(fn->arg_attrs[p], "jax.arg_info") : NULL;
  if (info && info->kind == HR_ATTR_STRING) return info->u.str.data;
  snprintf(buf, cap, "arg%d", p >= 0 ? p : i);
  return buf;
}

hr_status cli_model_run(cli_model *m, hr_tensor *const *inputs, int n, hr_tensor ***outputs, int *n_outputs) {
  if (m->exe) return hr_executable_run(m->exe, inputs, n, outputs, n_outputs);
  if (m->program) return hr_program_run(m->program, inputs, n, outputs, n_outputs);
  if (m->spmd) return hr_spmd_run(m->spmd, inputs, n, outputs, n_outputs);
  if (n != m->n_inputs) return hr_error(HR_INVALID_ARGUMENT, "expected %d inputs, got %d", m->n_inputs, n);
  const hr_allocator *a = hr_default_allocator();
  hr_tensor **all = a->alloc(a->ctx, sizeof *all * (size_t)(m->fn->n_args ? m->fn->n_args : 1), 16);
  if (!all) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int p = 0; p < m->fn->n_args; p++) all[p] = (hr_tensor *)m->bound[p];
  for (int i = 0; i < n; i++) all[m->input_params[i]] = inputs[i];
  hr_run_options opts = {.run_checks = true};
  hr_status s = hr_module_run(m->module, m->function, all, m->fn->n_args, &opts, outputs, n_outputs);
  a->free(a->ctx, all);
  return s;
}

int cli_find_input(const cli_model *m, const char *name) {
  char buf[32];
  for (int i = 0; i < cli_model_num_inputs(m); i++)
    if (strcmp(cli_model_input_name(m, i, buf, sizeof buf), name) == 0) return i;
  char *end;
  long v = strtol(name, &end, 10);
  if (*name && !*end && v >= 0 && v < cli_model_num_inputs(m)) return (int)v;
  return -1;
}

/* Deterministic values for a generated input: integers in [0, 128), floats in [-1.5, 1.64]. */
static void fill_generated(hr_tensor *t, uint64_t seed) {
  int64_t n = hr_tensor_num_elements(t);
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    if (hr_dtype_is_real_float(t->dtype))
      hr_store_float(t->dtype, t->data, i, (double)(x % 1000) / 318.0 - 1.5);
    else if (hr_dtype_is_complex(t->dtype))
      hr_store_complex(t->dtype, t->data, i, (hr_c128){(double)(x % 1000) / 318.0 - 1.5, (double)(x % 77) / 50.0});
    else
      hr_store_int(t->dtype, t->data, i, t->dtype == HR_I1 ? (int64_t)(x & 1) : (int64_t)(x % 128));
  }
}

hr_status cli_generate_input(const cli_model *m, int i, int64_t dynamic_dim, hr_tensor **out) {
  hr_tensor_spec spec = cli_model_input_spec(m, i);
  for (int d = 0; d < spec.shape.rank; d++)
    if (spec.shape.dims[d] < 0) spec.shape.dims[d] = dynamic_dim;
  HR_TRY(hr_tensor_create(NULL, spec.dtype, &spec.shape, HR_LIMIT_TENSOR_BYTES, out));
  fill_generated(*out, (uint64_t)i + 1);
  return NULL;
}

hr_status cli_gen_model_open(const cli_model_args *args, int slots, hr_gen_model **out) {
  *out = NULL;
  hr_exec_options opts;
  HR_TRY(exec_options(args, &opts));
  if (args->interpret) return hr_error(HR_INVALID_ARGUMENT, "generation runs compiled (drop --interpret)");
  if (args->function) return hr_error(HR_INVALID_ARGUMENT, "generation runs @prefill and @decode (drop --function)");
  int kind = container_kind(args->path);
  if (kind == 2) return hr_error(HR_INVALID_ARGUMENT, "%s is an executable for fixed shapes; generation needs the "
                                                      "program (hlorun export)", args->path);
  hr_program *prefill, *decode;
  if (kind == 1) {
    if (args->weights) return hr_error(HR_INVALID_ARGUMENT, "%s carries its own weights; drop --weights", args->path);
    hr_program *p;
    HR_TRY(hr_artifact_open(args->path, &opts, &p));
    hr_status s = hr_gen_programs_from_program(p, &opts, &prefill, &decode);
    hr_program_free(p);
    HR_TRY(s);
  } else if (is_directory(args->path) && !cli_is_savedmodel(args->path)) {
    hr_weights *w = NULL;
    if (args->weights) HR_TRY(hr_weights_read(args->weights, NULL, 0, &w));
    HR_TRY(hr_gen_programs_from_dir(args->path, w, &opts, &prefill, &decode));
  } else {
    hr_module *mod;
    hr_weights *w;
    HR_TRY(read_module(args, &mod, &w));
    HR_TRY(hr_gen_programs_from_module(mod, w, &opts, &prefill, &decode));
  }
  return hr_status_wrap(hr_gen_model_create(prefill, decode, slots, out), "%s", args->path);
}

/* hlorun run: execute one function of a StableHLO module on .npy inputs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "ir/ir.h"

enum { MAX_INPUTS = 256 };

typedef struct run_args {
  const char *file;
  const char *function;
  const char *output_dir;
  const char *weights;
  int n_inputs;
  const char *input_names[MAX_INPUTS];
  const char *input_paths[MAX_INPUTS];
} run_args;

static int parse_run_args(int argc, char **argv, run_args *a) {
  memset(a, 0, sizeof *a);
  a->function = "main";
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    bool has_value = i + 1 < argc;
    if (strcmp(arg, "--input") == 0 && has_value) {
      char *spec = argv[++i];
      char *eq = strchr(spec, '=');
      if (!eq || a->n_inputs == MAX_INPUTS) {
        fprintf(stderr, "hlorun run: --input takes NAME=FILE.npy (at most %d)\n", MAX_INPUTS);
        return 2;
      }
      *eq = '\0';
      a->input_names[a->n_inputs] = spec;
      a->input_paths[a->n_inputs++] = eq + 1;
    } else if (strcmp(arg, "--weights") == 0 && has_value) {
      a->weights = argv[++i];
    } else if (strcmp(arg, "--output") == 0 && has_value) {
      a->output_dir = argv[++i];
    } else if (strcmp(arg, "--function") == 0 && has_value) {
      a->function = argv[++i];
    } else if (arg[0] == '-' || a->file) {
      fprintf(stderr, "hlorun run: unexpected argument '%s'\n", arg);
      return 2;
    } else {
      a->file = arg;
    }
  }
  if (!a->file) {
    fprintf(stderr, "usage: hlorun run FILE.mlir [--weights FILE.safetensors] [--input NAME=FILE.npy]... [--output DIR] "
                    "[--function NAME]\n");
    return 2;
  }
  return 0;
}

/* Maps an input name to a parameter index: "3", "arg3", or the parameter's jax.arg_info name. */
static int param_index(const hr_func *fn, const char *name) {
  char *end;
  const char *digits = strncmp(name, "arg", 3) == 0 ? name + 3 : name;
  long v = strtol(digits, &end, 10);
  if (*digits && !*end && v >= 0 && v < fn->n_args) return (int)v;
  for (int i = 0; fn->arg_attrs && i < fn->n_args; i++) {
    const hr_attr *info = hr_attr_field(fn->arg_attrs[i], "jax.arg_info");
    if (info && info->kind == HR_ATTR_STRING && strcmp(info->u.str.data, name) == 0) return i;
  }
  return -1;
}

/* Binds parameters whose jax.arg_info key path names a tensor of the weight file (borrowed). */
static void bind_weights(const hr_func *fn, const hr_weights *w, hr_tensor **inputs) {
  for (int p = 0; fn->arg_attrs && p < fn->n_args; p++) {
    const hr_attr *info = hr_attr_field(fn->arg_attrs[p], "jax.arg_info");
    char name[1024];
    if (!info || info->kind != HR_ATTR_STRING || !hr_keypath_to_dotted(info->u.str.data, name, sizeof name)) continue;
    const hr_tensor *t = hr_weights_find(w, name);
    if (t) inputs[p] = (hr_tensor *)t;
  }
}

/* Loads every --input into its parameter slot (owned[p] marks tensors to free); all parameters
 * must be given, by --input or by --weights. */
static hr_status load_inputs(const hr_func *fn, const run_args *a, const hr_weights *w, hr_tensor **inputs, bool *owned) {
  if (w) bind_weights(fn, w, inputs);
  for (int i = 0; i < a->n_inputs; i++) {
    int p = param_index(fn, a->input_names[i]);
    if (p < 0) return hr_error(HR_INVALID_ARGUMENT, "@%s has no parameter '%s'", fn->name, a->input_names[i]);
    if (owned[p]) return hr_error(HR_INVALID_ARGUMENT, "parameter '%s' given twice", a->input_names[i]);
    HR_TRY(hr_npy_read_file(a->input_paths[i], NULL, 0, &inputs[p]));
    owned[p] = true;
  }
  for (int p = 0; p < fn->n_args; p++)
    if (!inputs[p]) return hr_error(HR_INVALID_ARGUMENT, "missing --input for parameter %d of @%s", p, fn->name);
  return NULL;
}

/* Creates `dir` if needed. */
static hr_status ensure_dir(const char *dir) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return hr_error(HR_IO_ERROR, "%s: %s", dir, strerror(errno));
  return NULL;
}

static hr_status save_outputs(const char *dir, hr_tensor **outs, int n) {
  HR_TRY(ensure_dir(dir));
  for (int i = 0; i < n; i++) {
    char path[4096];
    if (snprintf(path, sizeof path, "%s/out%d.npy", dir, i) >= (int)sizeof path)
      return hr_error(HR_INVALID_ARGUMENT, "output directory name is too long");
    HR_TRY(hr_npy_write_file(path, outs[i]));
  }
  return NULL;
}

int cmd_run(int argc, char **argv) {
  run_args a;
  int rc = parse_run_args(argc, argv, &a);
  if (rc) return rc;
  hr_module *m;
  hr_status s = hr_module_parse_file(a.file, NULL, &m);
  if (s) return report_error(s);
  const hr_func *fn = hr_module_find_func(m, a.function);
  hr_tensor *inputs[MAX_INPUTS] = {0};
  bool owned[MAX_INPUTS] = {0};
  hr_weights *w = NULL;
  hr_tensor **outs = NULL;
  int n_outs = 0;
  if (!fn)
    s = hr_error(HR_NOT_FOUND, "%s: no function @%s", a.file, a.function);
  else if (fn->n_args > MAX_INPUTS)
    s = hr_error(HR_UNIMPLEMENTED, "@%s has more than %d parameters", a.function, MAX_INPUTS);
  if (!s && a.weights) s = hr_safetensors_read_file(a.weights, NULL, 0, &w);
  if (!s) s = load_inputs(fn, &a, w, inputs, owned);
  hr_run_options opts = {.run_checks = true};
  if (!s) s = hr_module_run(m, a.function, inputs, fn->n_args, &opts, &outs, &n_outs);
  for (int i = 0; i < MAX_INPUTS; i++)
    if (owned[i]) hr_tensor_free(inputs[i]);
  hr_weights_free(w);
  if (!s) {
    for (int i = 0; i < n_outs; i++) {
      printf("result %d: ", i);
      print_tensor_type(stdout, outs[i]);
      putchar('\n');
      print_tensor(stdout, outs[i]);
    }
    if (a.output_dir) s = save_outputs(a.output_dir, outs, n_outs);
  }
  hr_tensors_free(outs, n_outs);
  hr_module_free(m);
  return s ? report_error(s) : 0;
}

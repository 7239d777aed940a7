/* hlorun run: execute a model on .npy inputs, print the results, optionally save them. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/limits.h"
#include "cli/cli.h"
#include "cli/model.h"

typedef struct run_args {
  cli_model_args model;
  const char *output_dir;
  int64_t batch; /* > 0: generate inputs not given, with dynamic dims of this size */
  bool quiet;
  int n_inputs;
  const char *input_names[HR_LIMIT_CLI_INPUTS];
  const char *input_paths[HR_LIMIT_CLI_INPUTS];
} run_args;

static const char run_usage[] =
    "usage: hlorun run MODEL [--weights W.safetensors] [--input NAME=FILE.npy]... [--batch N]\n"
    "                  [--output DIR] [--function NAME] [--interpret] [--threads N] [--quiet]\n"
    "                  [--spmd]\n";

static int parse_run_args(int argc, char **argv, run_args *a) {
  memset(a, 0, sizeof *a);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char *value = i + 1 < argc ? argv[i + 1] : NULL;
    int used = cli_parse_model_flag(arg, value, &a->model);
    if (used < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (strcmp(arg, "--input") == 0 && value) {
      char *spec = argv[++i];
      char *eq = strchr(spec, '=');
      if (!eq || a->n_inputs == HR_LIMIT_CLI_INPUTS) {
        fprintf(stderr, "hlorun run: --input takes NAME=FILE.npy (at most %d)\n", HR_LIMIT_CLI_INPUTS);
        return 2;
      }
      *eq = '\0';
      a->input_names[a->n_inputs] = spec;
      a->input_paths[a->n_inputs++] = eq + 1;
    } else if (strcmp(arg, "--output") == 0 && value) {
      a->output_dir = argv[++i];
    } else if (strcmp(arg, "--batch") == 0 && value) {
      if (!cli_parse_int("--batch", value, 1, 1 << 20, &a->batch)) return 2;
      i++;
    } else if (strcmp(arg, "--quiet") == 0) {
      a->quiet = true;
    } else if (arg[0] == '-' || a->model.path) {
      fprintf(stderr, "hlorun run: unexpected argument '%s'\n%s", arg, run_usage);
      return 2;
    } else {
      a->model.path = arg;
    }
  }
  if (!a->model.path) {
    fputs(run_usage, stderr);
    return 2;
  }
  return 0;
}

/* Loads each --input into its slot; generates the rest when --batch is given. */
static hr_status load_inputs(const cli_model *m, const run_args *a, hr_tensor **inputs) {
  int n = cli_model_num_inputs(m);
  for (int i = 0; i < a->n_inputs; i++) {
    int k = cli_find_input(m, a->input_names[i]);
    if (k < 0) return hr_error(HR_INVALID_ARGUMENT, "the model has no input '%s'", a->input_names[i]);
    if (inputs[k]) return hr_error(HR_INVALID_ARGUMENT, "input '%s' given twice", a->input_names[i]);
    HR_TRY(hr_npy_read_file_as(a->input_paths[i], cli_model_input_spec(m, k).dtype, NULL, 0, &inputs[k]));
  }
  for (int k = 0; k < n; k++) {
    if (inputs[k]) continue;
    char buf[32];
    if (a->batch <= 0)
      return hr_error(HR_INVALID_ARGUMENT, "missing --input for '%s' (or pass --batch N to generate inputs)",
                      cli_model_input_name(m, k, buf, sizeof buf));
    HR_TRY(cli_generate_input(m, k, a->batch, &inputs[k]));
  }
  return NULL;
}

static hr_status save_outputs(const char *dir, hr_tensor **outs, int n) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return hr_error(HR_IO_ERROR, "%s: %s", dir, strerror(errno));
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
  cli_model m;
  hr_status s = cli_model_open(&a.model, &m);
  if (s) {
    cli_model_close(&m);
    return report_error(s);
  }
  hr_tensor *inputs[HR_LIMIT_CLI_INPUTS] = {0};
  hr_tensor **outs = NULL;
  int n_outs = 0, n_in = cli_model_num_inputs(&m);
  if (n_in > HR_LIMIT_CLI_INPUTS) s = hr_error(HR_UNIMPLEMENTED, "more than %d inputs", HR_LIMIT_CLI_INPUTS);
  if (!s) s = load_inputs(&m, &a, inputs);
  if (!s) s = cli_model_run(&m, inputs, n_in, &outs, &n_outs);
  for (int i = 0; i < HR_LIMIT_CLI_INPUTS; i++) hr_tensor_free(inputs[i]);
  for (int i = 0; !s && !a.quiet && i < n_outs; i++) {
    printf("result %d: ", i);
    print_tensor_type(stdout, outs[i]);
    putchar('\n');
    print_tensor(stdout, outs[i]);
  }
  if (!s && a.output_dir) s = save_outputs(a.output_dir, outs, n_outs);
  hr_tensors_free(outs, n_outs);
  cli_model_close(&m);
  return s ? report_error(s) : 0;
}

/* hlorun compile: compile a model ahead of time for fixed input shapes into an executable file;
 * hlorun export: write a portable artifact (program + metadata + weights) for any shapes. */
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "cli/cli.h"
#include "cli/model.h"

enum { MAX_SHAPES = 64 }; /* --shape options */

typedef struct compile_args {
  cli_model_args model;
  const char *out;
  int64_t batch; /* value for dynamic dims not set by --shape */
  int n_shapes;
  const char *shape_names[MAX_SHAPES];
  const char *shape_dims[MAX_SHAPES];
} compile_args;

static int parse_compile_args(int argc, char **argv, compile_args *a, const char *cmd, const char *usage) {
  memset(a, 0, sizeof *a);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
    int used = cli_parse_model_flag(arg, value, &a->model);
    if (used < 0) return 2;
    if (used) {
      i += used - 1;
    } else if ((strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) && value) {
      a->out = argv[++i];
    } else if (strcmp(arg, "--batch") == 0 && value && strcmp(cmd, "compile") == 0) {
      if (!cli_parse_int("--batch", argv[++i], 0, 1 << 20, &a->batch)) return 2;
    } else if (strcmp(arg, "--shape") == 0 && value && strcmp(cmd, "compile") == 0) {
      char *spec = argv[++i], *eq = strchr(spec, '=');
      if (!eq || a->n_shapes == MAX_SHAPES) {
        fprintf(stderr, "hlorun compile: --shape takes NAME=DxDx... (at most %d)\n", MAX_SHAPES);
        return 2;
      }
      *eq = '\0';
      a->shape_names[a->n_shapes] = spec;
      a->shape_dims[a->n_shapes++] = eq + 1;
    } else if (arg[0] == '-' || a->model.path) {
      fprintf(stderr, "hlorun %s: unexpected argument '%s'\n%s", cmd, arg, usage);
      return 2;
    } else {
      a->model.path = arg;
    }
  }
  if (!a->model.path || !a->out) {
    fputs(usage, stderr);
    return 2;
  }
  if (a->model.interpret) {
    fprintf(stderr, "hlorun %s: --interpret does not apply\n", cmd);
    return 2;
  }
  return 0;
}

/* Parses "1x256" into dims matching `spec`'s rank. */
static hr_status parse_dims(const char *text, hr_tensor_spec *spec, const char *name) {
  int rank = 0;
  const char *p = text;
  while (*p) {
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || v < 0 || rank == HR_MAX_RANK || (*end && *end != 'x'))
      return hr_error(HR_INVALID_ARGUMENT, "--shape %s=%s: expected dimensions like 1x256", name, text);
    if (spec->shape.dims[rank] >= 0 && spec->shape.dims[rank] != v)
      return hr_error(HR_INVALID_ARGUMENT, "--shape %s: dimension %d is fixed at %lld", name, rank,
                      (long long)spec->shape.dims[rank]);
    spec->shape.dims[rank++] = v;
    p = *end ? end + 1 : end;
  }
  if (rank != spec->shape.rank)
    return hr_error(HR_INVALID_ARGUMENT, "--shape %s: the input has rank %d", name, spec->shape.rank);
  return NULL;
}

/* The input specs to compile for: --shape where given, else dynamic dims set to --batch. */
static hr_status compile_specs(const cli_model *m, const compile_args *a, hr_tensor_spec *specs, int n) {
  for (int i = 0; i < n; i++) specs[i] = cli_model_input_spec(m, i);
  for (int k = 0; k < a->n_shapes; k++) {
    int i = cli_find_input(m, a->shape_names[k]);
    if (i < 0) return hr_error(HR_INVALID_ARGUMENT, "the model has no input '%s'", a->shape_names[k]);
    HR_TRY(parse_dims(a->shape_dims[k], &specs[i], a->shape_names[k]));
  }
  for (int i = 0; i < n; i++)
    for (int d = 0; d < specs[i].shape.rank; d++) {
      if (specs[i].shape.dims[d] >= 0) continue;
      char buf[32];
      if (a->batch <= 0)
        return hr_error(HR_INVALID_ARGUMENT, "input '%s' has a dynamic dimension: give --shape or --batch",
                        cli_model_input_name(m, i, buf, sizeof buf));
      specs[i].shape.dims[d] = a->batch;
    }
  return NULL;
}

static const char compile_usage[] =
    "usage: hlorun compile MODEL.mlir --weights W.safetensors [--shape NAME=1x256]... [--batch N] -o OUT.hlox\n";
static const char export_usage[] = "usage: hlorun export MODEL.mlir [--weights W.safetensors] -o OUT.hlo\n";

/* The error for a module of one device's code for several devices (an hr_spmd), which runs but is
 * not stored. */
static hr_status spmd_refused(const char *path) {
  return hr_error(HR_UNIMPLEMENTED, "%s is one device's code for several devices (run it with hlorun run|bench); "
                                    "compile and export store single-device programs",
                  path);
}

int cmd_compile(int argc, char **argv) {
  compile_args a;
  int rc = parse_compile_args(argc, argv, &a, "compile", compile_usage);
  if (rc) return rc;
  cli_model m;
  hr_status s = cli_model_open(&a.model, &m);
  if (!s && m.spmd) s = spmd_refused(a.model.path);
  if (!s && !m.program) s = hr_error(HR_INVALID_ARGUMENT, "%s is already compiled", a.model.path);
  int n = s ? 0 : cli_model_num_inputs(&m);
  if (n > HR_LIMIT_CLI_INPUTS) s = hr_error(HR_UNIMPLEMENTED, "more than %d inputs", HR_LIMIT_CLI_INPUTS);
  hr_tensor_spec specs[HR_LIMIT_CLI_INPUTS];
  if (!s) s = compile_specs(&m, &a, specs, n);
  hr_executable *e = NULL;
  double t0 = cli_now();
  if (!s) s = hr_program_compile(m.program, specs, n, &e);
  double t1 = cli_now();
  if (!s) s = hr_executable_write(e, a.out);
  if (!s) printf("compiled %s in %.1f ms -> %s\n", a.model.path, (t1 - t0) * 1e3, a.out);
  hr_executable_free(e);
  cli_model_close(&m);
  return s ? report_error(s) : 0;
}

int cmd_export(int argc, char **argv) {
  compile_args a;
  int rc = parse_compile_args(argc, argv, &a, "export", export_usage);
  if (rc) return rc;
  cli_model m;
  hr_status s = cli_model_open(&a.model, &m);
  if (!s && m.spmd) s = spmd_refused(a.model.path);
  if (!s && !m.program) s = hr_error(HR_INVALID_ARGUMENT, "%s is an executable; export takes a program", a.model.path);
  if (!s) s = hr_artifact_write(m.program, a.out);
  if (!s) printf("exported %s -> %s\n", a.model.path, a.out);
  cli_model_close(&m);
  return s ? report_error(s) : 0;
}

/* hlorun compare: run two models on the same inputs and report how far their results differ
 * (e.g. JIT vs AOT executable, compiled vs reference interpreter, artifact vs source). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "base/elem.h"
#include "cli/cli.h"
#include "cli/model.h"

typedef struct compare_args {
  cli_model_args a, b;
  int64_t batch;
  double tolerance; /* < 0: report only */
  int n_inputs;
  const char *input_names[HR_LIMIT_CLI_INPUTS];
  const char *input_paths[HR_LIMIT_CLI_INPUTS];
} compare_args;

static const char compare_usage[] =
    "usage: hlorun compare A B [--weights W.safetensors] [--input NAME=FILE.npy]... [--batch N]\n"
    "                      [--interpret-a] [--interpret-b] [--tolerance T]\n"
    "  --weights applies to whichever of A and B is a .mlir file\n";

static int parse_compare_args(int argc, char **argv, compare_args *c) {
  memset(c, 0, sizeof *c);
  c->tolerance = -1;
  cli_model_args shared = {0};
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
    int used = strcmp(arg, "--interpret") == 0 ? 0 : cli_parse_model_flag(arg, value, &shared);
    if (used < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (strcmp(arg, "--interpret-a") == 0) {
      c->a.interpret = true;
    } else if (strcmp(arg, "--interpret-b") == 0) {
      c->b.interpret = true;
    } else if (strcmp(arg, "--input") == 0 && value) {
      char *spec = argv[++i], *eq = strchr(spec, '=');
      if (!eq || c->n_inputs == HR_LIMIT_CLI_INPUTS) {
        fprintf(stderr, "hlorun compare: --input takes NAME=FILE.npy\n");
        return 2;
      }
      *eq = '\0';
      c->input_names[c->n_inputs] = spec;
      c->input_paths[c->n_inputs++] = eq + 1;
    } else if (strcmp(arg, "--batch") == 0 && value) {
      if (!cli_parse_int("--batch", argv[++i], 1, 1 << 20, &c->batch)) return 2;
    } else if (strcmp(arg, "--tolerance") == 0 && value) {
      char *end;
      c->tolerance = strtod(argv[++i], &end);
      if (*end || !(c->tolerance >= 0)) {
        fprintf(stderr, "hlorun compare: --tolerance takes a non-negative number\n");
        return 2;
      }
    } else if (arg[0] != '-' && !c->a.path) {
      c->a.path = arg;
    } else if (arg[0] != '-' && !c->b.path) {
      c->b.path = arg;
    } else {
      fprintf(stderr, "hlorun compare: unexpected argument '%s'\n%s", arg, compare_usage);
      return 2;
    }
  }
  if (!c->a.path || !c->b.path) {
    fputs(compare_usage, stderr);
    return 2;
  }
  c->a.weights = c->b.weights = shared.weights;
  c->a.function = c->b.function = shared.function;
  c->a.threads = c->b.threads = shared.threads;
  return 0;
}

/* Weights apply only to StableHLO text: artifacts and executables carry their own. */
static hr_status open_side(cli_model_args *args, cli_model *m) {
  size_t len = strlen(args->path);
  if (len < 5 || strcmp(args->path + len - 5, ".mlir") != 0) args->weights = NULL;
  return cli_model_open(args, m);
}

static hr_status make_inputs(const cli_model *m, const compare_args *c, hr_tensor **inputs, int n) {
  for (int i = 0; i < c->n_inputs; i++) {
    int k = cli_find_input(m, c->input_names[i]);
    if (k < 0) return hr_error(HR_INVALID_ARGUMENT, "no input '%s'", c->input_names[i]);
    HR_TRY(hr_npy_read_file_as(c->input_paths[i], cli_model_input_spec(m, k).dtype, NULL, 0, &inputs[k]));
  }
  for (int k = 0; k < n; k++) {
    if (inputs[k]) continue;
    if (c->batch <= 0) return hr_error(HR_INVALID_ARGUMENT, "give --input for every input, or --batch N");
    HR_TRY(cli_generate_input(m, k, c->batch, &inputs[k]));
  }
  return NULL;
}

/* Largest absolute and relative element difference (complex: per part). */
static void max_diff(const hr_tensor *x, const hr_tensor *y, double *abs_diff, double *rel_diff) {
  *abs_diff = *rel_diff = 0;
  int64_t n = hr_tensor_num_elements(x);
  bool cplx = hr_dtype_is_complex(x->dtype);
  for (int64_t i = 0; i < n * (cplx ? 2 : 1); i++) {
    double a, b;
    if (cplx) {
      hr_c128 p = hr_load_complex(x->dtype, x->data, i / 2), q = hr_load_complex(y->dtype, y->data, i / 2);
      a = i % 2 ? p.im : p.re;
      b = i % 2 ? q.im : q.re;
    } else if (hr_dtype_is_real_float(x->dtype)) {
      a = hr_load_float(x->dtype, x->data, i);
      b = hr_load_float(y->dtype, y->data, i);
    } else {
      a = (double)hr_load_int(x->dtype, x->data, i);
      b = (double)hr_load_int(y->dtype, y->data, i);
    }
    double d = (isnan(a) && isnan(b)) || a == b ? 0 : fabs(a - b);
    if (isnan(d)) d = INFINITY;
    if (d > *abs_diff) *abs_diff = d;
    double r = d / fmax(fabs(b), 1e-30);
    if (d > 0 && r > *rel_diff) *rel_diff = r;
  }
}

/* Prints one row per output; returns whether all are within tolerance. */
static hr_status report(hr_tensor **x, int nx, hr_tensor **y, int ny, double tolerance, bool *ok) {
  *ok = true;
  if (nx != ny) return hr_error(HR_INVALID_ARGUMENT, "A has %d results, B has %d", nx, ny);
  printf("%-8s %-28s %14s %14s\n", "result", "type", "max |A-B|", "max rel");
  for (int i = 0; i < nx; i++) {
    if (x[i]->dtype != y[i]->dtype || x[i]->shape.rank != y[i]->shape.rank ||
        memcmp(x[i]->shape.dims, y[i]->shape.dims, sizeof(int64_t) * (size_t)x[i]->shape.rank) != 0)
      return hr_error(HR_INVALID_ARGUMENT, "result %d differs in type or shape", i);
    double ad, rd;
    max_diff(x[i], y[i], &ad, &rd);
    char type[128];
    int len = snprintf(type, sizeof type, "tensor<");
    for (int d = 0; d < x[i]->shape.rank && len < 100; d++)
      len += snprintf(type + len, sizeof type - (size_t)len, "%lldx", (long long)x[i]->shape.dims[d]);
    snprintf(type + len, sizeof type - (size_t)len, "%s>", hr_dtype_name(x[i]->dtype));
    printf("%-8d %-28s %14.6g %14.6g\n", i, type, ad, rd);
    if (tolerance >= 0 && ad > tolerance) *ok = false;
  }
  return NULL;
}

int cmd_compare(int argc, char **argv) {
  compare_args c;
  int rc = parse_compare_args(argc, argv, &c);
  if (rc) return rc;
  cli_model ma, mb;
  memset(&mb, 0, sizeof mb);
  hr_status s = open_side(&c.a, &ma);
  if (!s) s = open_side(&c.b, &mb);
  hr_tensor *inputs[HR_LIMIT_CLI_INPUTS] = {0};
  int n = s ? 0 : cli_model_num_inputs(&ma);
  if (!s && (n > HR_LIMIT_CLI_INPUTS || n != cli_model_num_inputs(&mb)))
    s = hr_error(HR_INVALID_ARGUMENT, "A and B take different numbers of inputs");
  if (!s) s = make_inputs(&ma, &c, inputs, n);
  hr_tensor **xa = NULL, **xb = NULL;
  int na = 0, nb = 0;
  if (!s) s = cli_model_run(&ma, inputs, n, &xa, &na);
  if (!s) s = cli_model_run(&mb, inputs, n, &xb, &nb);
  bool ok = true;
  if (!s) s = report(xa, na, xb, nb, c.tolerance, &ok);
  hr_tensors_free(xa, na);
  hr_tensors_free(xb, nb);
  for (int i = 0; i < HR_LIMIT_CLI_INPUTS; i++) hr_tensor_free(inputs[i]);
  cli_model_close(&ma);
  cli_model_close(&mb);
  if (s) return report_error(s);
  if (!ok) fprintf(stderr, "hlorun compare: difference above tolerance %g\n", c.tolerance);
  return ok ? 0 : 1;
}

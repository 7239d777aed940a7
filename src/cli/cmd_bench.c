/* hlorun bench: first-call cost versus steady state, and a throughput table over batch sizes.
 *
 * For a model with a dynamic (batch) dimension each batch size is compiled on its first call;
 * the throughput table times later calls only. "tokens" are the elements of the first input
 * (batch x sequence for a language model's token ids). */
#include <string.h>

#include "base/limits.h"
#include "cli/cli.h"
#include "cli/model.h"

enum { MAX_BATCHES = 16 }; /* --batches sizes */

typedef struct bench_args {
  cli_model_args model;
  int64_t batches[MAX_BATCHES];
  int n_batches;
  int64_t iters;     /* at least this many timed calls per batch size */
  double min_time;   /* and at least this many seconds */
  int64_t jit_calls; /* cached calls timed after the first one */
  bool first;        /* print first call vs steady state */
  bool table;        /* print the throughput table */
} bench_args;

static const char bench_usage[] =
    "usage: hlorun bench MODEL [--weights W.safetensors] [--batches 1,4,16,64] [--iters N]\n"
    "                    [--min-time SECONDS] [--jit-calls N] [--no-first] [--no-throughput]\n"
    "                    [--threads N] [--interpret] [--spmd]\n";

/* Parses "1,4,16,64". */
static bool parse_batches(const char *text, bench_args *a) {
  a->n_batches = 0;
  char buf[256];
  if (strlen(text) >= sizeof buf) return false;
  strcpy(buf, text);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (a->n_batches == MAX_BATCHES || !cli_parse_int("--batches", tok, 1, 1 << 16, &a->batches[a->n_batches])) return false;
    a->n_batches++;
  }
  return a->n_batches > 0;
}

static int parse_bench_args(int argc, char **argv, bench_args *a) {
  memset(a, 0, sizeof *a);
  a->batches[0] = 1;
  a->n_batches = 1;
  a->iters = 3;
  a->min_time = 1.0;
  a->jit_calls = 100;
  a->first = a->table = true;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
    int used = cli_parse_model_flag(arg, value, &a->model);
    int64_t v;
    if (used < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (strcmp(arg, "--batches") == 0 && value) {
      if (!parse_batches(argv[++i], a)) {
        fprintf(stderr, "hlorun bench: --batches takes up to %d sizes like 1,4,16,64\n", MAX_BATCHES);
        return 2;
      }
    } else if (strcmp(arg, "--no-first") == 0) {
      a->first = false;
    } else if (strcmp(arg, "--no-throughput") == 0) {
      a->table = false;
    } else if (strcmp(arg, "--iters") == 0 && value) {
      if (!cli_parse_int("--iters", argv[++i], 1, 1000000, &a->iters)) return 2;
    } else if (strcmp(arg, "--jit-calls") == 0 && value) {
      if (!cli_parse_int("--jit-calls", argv[++i], 1, 1000000, &a->jit_calls)) return 2;
    } else if (strcmp(arg, "--min-time") == 0 && value) {
      if (!cli_parse_int("--min-time", argv[++i], 0, 3600, &v)) return 2;
      a->min_time = (double)v;
    } else if (arg[0] == '-' || a->model.path) {
      fprintf(stderr, "hlorun bench: unexpected argument '%s'\n%s", arg, bench_usage);
      return 2;
    } else {
      a->model.path = arg;
    }
  }
  if (!a->model.path) {
    fputs(bench_usage, stderr);
    return 2;
  }
  return 0;
}

/* The generated inputs for one batch size. */
typedef struct input_set {
  hr_tensor *t[HR_LIMIT_CLI_INPUTS];
  int n;
} input_set;

static void inputs_free(input_set *in) {
  for (int i = 0; i < in->n; i++) hr_tensor_free(in->t[i]);
  in->n = 0;
}

static hr_status inputs_make(const cli_model *m, int64_t batch, input_set *in) {
  memset(in, 0, sizeof *in);
  int n = cli_model_num_inputs(m);
  if (n > HR_LIMIT_CLI_INPUTS) return hr_error(HR_UNIMPLEMENTED, "more than %d inputs", HR_LIMIT_CLI_INPUTS);
  for (; in->n < n; in->n++) HR_TRY(cli_generate_input(m, in->n, batch, &in->t[in->n]));
  return NULL;
}

/* One timed call; returns its wall time in seconds through *seconds. */
static hr_status timed_call(cli_model *m, const input_set *in, double *seconds) {
  hr_tensor **outs;
  int n_outs;
  double t0 = cli_now();
  hr_status s = cli_model_run(m, in->t, in->n, &outs, &n_outs);
  *seconds = cli_now() - t0;
  if (!s) hr_tensors_free(outs, n_outs);
  return s;
}

/* First call versus the mean of `calls` later calls, at the first batch size. */
static hr_status first_vs_steady(cli_model *m, const bench_args *a, bool compiled_per_shape) {
  input_set in;
  hr_status s = inputs_make(m, a->batches[0], &in);
  double first = 0, t = 0, sum = 0, best = 1e30;
  if (!s) s = timed_call(m, &in, &first);
  for (int64_t i = 0; !s && i < a->jit_calls; i++) {
    s = timed_call(m, &in, &t);
    sum += t;
    if (t < best) best = t;
  }
  if (s) {
    inputs_free(&in);
    return s;
  }
  double mean = sum / (double)a->jit_calls;
  const char *what = compiled_per_shape ? "JIT" : m->exe ? "AOT executable" : "interpreter";
  printf("\n%s, first call vs steady state (", what);
  if (m->exe && in.n == 0) printf("no inputs");
  for (int i = 0; m->exe && i < cli_model_num_inputs(m); i++) {
    hr_tensor_spec sp = cli_model_input_spec(m, i);
    printf("%sinput %d: ", i ? ", " : "", i);
    for (int d = 0; d < sp.shape.rank; d++) printf(d ? "x%lld" : "%lld", (long long)sp.shape.dims[d]);
  }
  if (!m->exe) printf("batch %lld", (long long)a->batches[0]);
  printf(")\n");
  printf("  %-34s %10.2f ms\n", compiled_per_shape ? "first call (compile + run)" : "first call", first * 1e3);
  char label[64];
  snprintf(label, sizeof label, "later calls, mean of %lld", (long long)a->jit_calls);
  printf("  %-34s %10.2f ms   (min %.2f ms)\n", label, mean * 1e3, best * 1e3);
  printf("  %-34s %10.2fx\n", "first / steady", first / mean);
  inputs_free(&in);
  return NULL;
}

/* Throughput table: one row per batch size. */
static hr_status throughput(cli_model *m, const bench_args *a) {
  printf("\nthroughput\n  %6s %12s %14s\n", "batch", "latency ms", "tokens/s");
  for (int b = 0; b < a->n_batches; b++) {
    input_set in;
    HR_TRY(inputs_make(m, a->batches[b], &in));
    double t, sum = 0;
    int64_t iters = 0;
    hr_status s = timed_call(m, &in, &t); /* warm-up: compiles this shape */
    while (!s && (iters < a->iters || sum < a->min_time)) {
      s = timed_call(m, &in, &t);
      sum += t;
      iters++;
    }
    int64_t tokens = in.n ? hr_tensor_num_elements(in.t[0]) : 0;
    inputs_free(&in);
    if (s) return s;
    double mean = sum / (double)iters;
    printf("  %6lld %12.2f %14.0f\n", (long long)a->batches[b], mean * 1e3, (double)tokens / mean);
    fflush(stdout);
  }
  return NULL;
}

int cmd_bench(int argc, char **argv) {
  bench_args a;
  int rc = parse_bench_args(argc, argv, &a);
  if (rc) return rc;
  cli_model m;
  double t0 = cli_now();
  hr_status s = cli_model_open(&a.model, &m);
  double open_time = cli_now() - t0;
  if (!s) {
    printf("open (parse, verify, bind weights): %.2f ms\n", open_time * 1e3);
    if (a.first) s = first_vs_steady(&m, &a, m.program || m.spmd);
  }
  if (!s && !m.exe && a.table) s = throughput(&m, &a);
  cli_model_close(&m);
  return s ? report_error(s) : 0;
}

/* hlorun generate: text from a generation model (docs/generation.md), streamed to stdout as it is
 * sampled, with the time to first token and the rate on stderr. --parallel N runs N sequences at
 * once (continuous batching, as the server does) and reports their aggregate rate and latencies. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/model.h"

static const char generate_usage[] =
    "usage: hlorun generate MODEL [--weights W] --prompt TEXT [--max-tokens N] [--temperature T]\n"
    "                       [--top-k K] [--top-p P] [--seed S] [--stop TEXT]... [--end-byte N]\n"
    "                       [--parallel N] [--quiet] [--threads N] [--no-fusion]\n"
    "  MODEL: a module with public @prefill and @decode (with --weights) or an artifact of one\n"
    "  --parallel N: N sequences at once (seeds S, S+1, ...); instead of the text, prints their\n"
    "                aggregate tokens/s, time to first token and inter-token latency (p50, p99), and\n"
    "                the same as a JSON line on stdout\n";

typedef struct generate_args {
  cli_model_args model;
  const char *prompt;
  hr_gen_params params;
  bool seeded;
  int64_t parallel;
  bool bench; /* --parallel given: rates and latencies only, also as a JSON line */
  bool quiet;
} generate_args;

/* Parses one sampling flag; returns the arguments used (0: not one, -1: bad value). */
static int parse_sampling_flag(const char *arg, const char *value, generate_args *a) {
  int64_t v;
  char *end;
  hr_gen_params *p = &a->params;
  if (!value) return 0;
  if (strcmp(arg, "--max-tokens") == 0) {
    if (!cli_parse_int(arg, value, 0, 1 << 24, &v)) return -1;
    p->max_tokens = (int)v;
  } else if (strcmp(arg, "--top-k") == 0) {
    if (!cli_parse_int(arg, value, 0, HR_LIMIT_GEN_VOCAB, &v)) return -1;
    p->top_k = (int)v;
  } else if (strcmp(arg, "--end-byte") == 0) {
    if (!cli_parse_int(arg, value, 0, HR_LIMIT_GEN_VOCAB, &v)) return -1;
    p->end_token = (int)v;
  } else if (strcmp(arg, "--seed") == 0) {
    if (!cli_parse_int(arg, value, 0, INT64_MAX, &v)) return -1;
    p->seed = (uint64_t)v;
    a->seeded = true;
  } else if (strcmp(arg, "--temperature") == 0 || strcmp(arg, "--top-p") == 0) {
    double d = strtod(value, &end);
    if (end == value || *end) {
      fprintf(stderr, "hlorun generate: %s takes a number, not '%s'\n", arg, value);
      return -1;
    }
    *(strcmp(arg, "--temperature") == 0 ? &p->temperature : &p->top_p) = d;
  } else if (strcmp(arg, "--stop") == 0) {
    if (p->n_stop == HR_LIMIT_GEN_STOP_STRINGS) {
      fprintf(stderr, "hlorun generate: at most %d --stop strings\n", HR_LIMIT_GEN_STOP_STRINGS);
      return -1;
    }
    p->stop[p->n_stop] = value;
    p->stop_len[p->n_stop++] = strlen(value);
  } else {
    return 0;
  }
  return 2;
}

static int parse_generate_args(int argc, char **argv, generate_args *a) {
  memset(a, 0, sizeof *a);
  a->params = hr_gen_default_params();
  a->parallel = 1;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
    int used = cli_parse_model_flag(arg, value, &a->model);
    if (used == 0) used = parse_sampling_flag(arg, value, a);
    if (used < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (strcmp(arg, "--prompt") == 0 && value) {
      a->prompt = argv[++i];
    } else if (strcmp(arg, "--parallel") == 0 && value) {
      if (!cli_parse_int(arg, value, 1, HR_LIMIT_GEN_SLOTS, &a->parallel)) return 2;
      a->bench = true;
      i++;
    } else if (strcmp(arg, "--quiet") == 0) {
      a->quiet = true;
    } else if (arg[0] == '-' || a->model.path) {
      fprintf(stderr, "hlorun generate: unexpected argument '%s'\n%s", arg, generate_usage);
      return 2;
    } else {
      a->model.path = arg;
    }
  }
  if (!a->model.path || !a->prompt) {
    fputs(generate_usage, stderr);
    return 2;
  }
  if (!a->seeded) a->params.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Collecting what the engine gives                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* What every sequence's sink records, under `mu`. */
typedef struct collected {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;        /* sequences finished */
  bool print;      /* stream sequence 0's text to stdout */
  double *gaps;    /* inter-token latencies of every sequence */
  size_t n_gaps, cap_gaps;
  double *ttft;    /* per sequence */
  int tokens;      /* generated, all sequences */
  hr_gen_finish finish; /* sequence 0's */
  char *error;     /* the first error message */
  double decode_rate;   /* sequence 0's tokens/s after the first */
} collected;

typedef struct sequence {
  collected *c;
  int index;
} sequence;

/* The engine's sink: prints and records. */
static void on_event(void *ctx, const hr_gen_event *ev) {
  sequence *q = ctx;
  collected *c = q->c;
  pthread_mutex_lock(&c->mu);
  if (c->print && q->index == 0) {
    for (int i = 0; i < ev->n_tokens; i++) putchar(ev->tokens[i] & 0xFF);
    fflush(stdout);
  }
  if (ev->n_tokens > 0 && ev->token_gap_seconds > 0 && c->n_gaps < c->cap_gaps) c->gaps[c->n_gaps++] = ev->token_gap_seconds;
  if (ev->done) {
    c->ttft[q->index] = ev->first_token_seconds;
    c->tokens += ev->completion_tokens;
    if (q->index == 0) {
      c->finish = ev->finish;
      c->decode_rate = ev->decode_tokens_per_second;
    }
    if (ev->message && !c->error) c->error = strdup(ev->message);
    c->done++;
    pthread_cond_signal(&c->cv);
  }
  pthread_mutex_unlock(&c->mu);
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The q-quantile (0..1) of n sorted values, in milliseconds. */
static double quantile_ms(const double *v, size_t n, double q) {
  if (n == 0) return 0;
  size_t i = (size_t)ceil(q * (double)n);
  return 1e3 * v[i > 0 ? i - 1 : 0];
}

/* Submits the sequences and waits for all of them. */
static hr_status run_sequences(hr_gen_engine *e, const generate_args *a, collected *c, sequence *seqs,
                               hr_gen_request **reqs) {
  size_t n = strlen(a->prompt);
  int32_t *prompt = calloc(n + 1, sizeof *prompt);
  if (!prompt) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < n; i++) prompt[i] = (unsigned char)a->prompt[i];
  hr_status s = n > INT32_MAX ? hr_error(HR_INVALID_ARGUMENT, "the prompt is too long") : NULL;
  int submitted = 0;
  for (int i = 0; !s && i < a->parallel; i++, submitted++) {
    hr_gen_params p = a->params;
    p.seed += (uint64_t)i;
    seqs[i] = (sequence){c, i};
    s = hr_gen_submit(e, prompt, (int)n, &p, on_event, &seqs[i], &reqs[i]);
  }
  free(prompt);
  if (s) submitted--;
  pthread_mutex_lock(&c->mu);
  while (c->done < submitted) pthread_cond_wait(&c->cv, &c->mu);
  pthread_mutex_unlock(&c->mu);
  for (int i = 0; i < submitted; i++) hr_gen_release(reqs[i]);
  return s;
}

/* Prints the rates and latencies on stderr (and a JSON line on stdout with --parallel). */
static void report(const generate_args *a, collected *c, double seconds) {
  qsort(c->gaps, c->n_gaps, sizeof *c->gaps, compare_doubles);
  qsort(c->ttft, (size_t)a->parallel, sizeof *c->ttft, compare_doubles);
  if (!a->bench) {
    fprintf(stderr, "\n%d tokens (finish: %s); time to first token %.1f ms; %.1f tokens/s after it", c->tokens,
            hr_gen_finish_name(c->finish), 1e3 * c->ttft[0], c->decode_rate);
    if (a->params.temperature > 0) fprintf(stderr, "; seed %llu", (unsigned long long)a->params.seed);
    fputc('\n', stderr);
    return;
  }
  double rate = seconds > 0 ? c->tokens / seconds : 0;
  fprintf(stderr,
          "\n%lld sequences: %d tokens in %.3f s = %.1f tokens/s; time to first token p50 %.1f ms, p99 %.1f ms; "
          "inter-token p50 %.2f ms, p99 %.2f ms\n",
          (long long)a->parallel, c->tokens, seconds, rate, quantile_ms(c->ttft, (size_t)a->parallel, 0.5),
          quantile_ms(c->ttft, (size_t)a->parallel, 0.99), quantile_ms(c->gaps, c->n_gaps, 0.5),
          quantile_ms(c->gaps, c->n_gaps, 0.99));
  printf("{\"sequences\": %lld, \"tokens\": %d, \"seconds\": %.6f, \"tokens_per_second\": %.3f, \"ttft_p50_ms\": %.3f, "
         "\"ttft_p99_ms\": %.3f, \"itl_p50_ms\": %.4f, \"itl_p99_ms\": %.4f}\n",
         (long long)a->parallel, c->tokens, seconds, rate, quantile_ms(c->ttft, (size_t)a->parallel, 0.5),
         quantile_ms(c->ttft, (size_t)a->parallel, 0.99), quantile_ms(c->gaps, c->n_gaps, 0.5),
         quantile_ms(c->gaps, c->n_gaps, 0.99));
}

int cmd_generate(int argc, char **argv) {
  generate_args a;
  int rc = parse_generate_args(argc, argv, &a);
  if (rc) return rc;
  hr_gen_model *m = NULL;
  hr_gen_engine *e = NULL;
  hr_status s = cli_gen_model_open(&a.model, (int)a.parallel, &m);
  if (!s) s = hr_gen_engine_create(m, &e);
  if (s) return report_error(s);
  collected c = {.print = !a.quiet && !a.bench, .cap_gaps = (size_t)a.parallel * (size_t)a.params.max_tokens};
  pthread_mutex_init(&c.mu, NULL);
  pthread_cond_init(&c.cv, NULL);
  c.gaps = calloc(c.cap_gaps + 1, sizeof *c.gaps);
  c.ttft = calloc((size_t)a.parallel, sizeof *c.ttft);
  sequence *seqs = calloc((size_t)a.parallel, sizeof *seqs);
  hr_gen_request **reqs = calloc((size_t)a.parallel, sizeof *reqs);
  double start = cli_now();
  s = !c.gaps || !c.ttft || !seqs || !reqs ? hr_error(HR_OUT_OF_MEMORY, "out of memory")
                                           : run_sequences(e, &a, &c, seqs, reqs);
  double seconds = cli_now() - start;
  hr_gen_engine_free(e);
  if (!s && c.error) s = hr_error(HR_INTERNAL, "generation failed: %s", c.error);
  if (!s) report(&a, &c, seconds);
  free(c.error);
  free(c.gaps);
  free(c.ttft);
  free(seqs);
  free(reqs);
  pthread_mutex_destroy(&c.mu);
  pthread_cond_destroy(&c.cv);
  return s ? report_error(s) : 0;
}

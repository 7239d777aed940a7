/* Prometheus metrics (metrics.h). */
#include "server/metrics.h"

#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum {
  MAX_LABELS = 4,
  MAX_BUCKETS = 34,
  /* TensorFlow Serving's latency histograms: Buckets::Exponential(10, 1.8, 33) in microseconds,
   * bounds 10 * 1.8^i for i < 33, and a last bucket above them. */
  TFS_BOUNDS = 33,
};

/* Upper bounds of the request latency histogram, in seconds. */
static const double latency_bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
/* Upper bounds of the generation latency histograms (time to first token, between tokens), in seconds. */
static const double token_bounds[] = {0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
/* Upper bounds of the batch size histogram, in rows. */
static const double batch_bounds[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};

/* One labelled counter or histogram. */
typedef struct series {
  char *labels[MAX_LABELS];
  double value;                  /* counter value, or histogram sum */
  uint64_t count;                /* histogram: observations */
  uint64_t buckets[MAX_BUCKETS]; /* histogram: observations in (bound[i-1], bound[i]] */
} series;

/* The series of one metric, all with the same label names. */
typedef struct family {
  series *items;
  int n;
} family;

struct srv_metrics {
  pthread_mutex_t mu;
  double start_time; /* Unix time of creation */
  int n_series;      /* over all families */
  family requests;   /* labels: model, version, endpoint, code */
  family latency;    /* labels: model, endpoint */
  family batches;    /* labels: model */
  /* TensorFlow Serving's families (metrics.h) */
  family tfs_requests;             /* labels: model_name, status */
  family tfs_latency;              /* labels: model_name, API, entrypoint */
  family tfs_runtime;              /* labels: model_name, API, runtime */
  /* generation (srv_metrics_gen_*) */
  family gen_requests; /* labels: model, finish_reason */
  family gen_tokens;   /* labels: model */
  family gen_first;    /* labels: model: time to first token */
  family gen_gap;      /* labels: model: time between tokens */
  family gen_active;   /* labels: model: requests generating or waiting to */
  double tfs_bounds[TFS_BOUNDS];   /* microseconds */
};

/* Fills TensorFlow Serving's latency bounds as its ExponentialBuckets computes them. */
static void tfs_bounds_init(double *bounds) {
  double bound = 10;
  for (int i = 0; i < TFS_BOUNDS; i++) {
    bounds[i] = bound;
    bound *= 1.8;
  }
}

hr_status srv_metrics_create(srv_metrics **out) {
  srv_metrics *m = calloc(1, sizeof *m);
  if (!m) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (pthread_mutex_init(&m->mu, NULL) != 0) {
    free(m);
    return hr_error(HR_INTERNAL, "cannot create a mutex");
  }
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  m->start_time = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
  tfs_bounds_init(m->tfs_bounds);
  *out = m;
  return NULL;
}

/* Frees a family's series. */
static void free_family(family *f, int n_labels) {
  for (int i = 0; i < f->n; i++)
    for (int l = 0; l < n_labels; l++) free(f->items[i].labels[l]);
  free(f->items);
}

void srv_metrics_free(srv_metrics *m) {
  if (!m) return;
  free_family(&m->requests, 4);
  free_family(&m->latency, 2);
  free_family(&m->batches, 1);
  free_family(&m->tfs_requests, 2);
  free_family(&m->tfs_latency, 3);
  free_family(&m->tfs_runtime, 3);
  free_family(&m->gen_requests, 2);
  free_family(&m->gen_tokens, 1);
  free_family(&m->gen_first, 1);
  free_family(&m->gen_gap, 1);
  free_family(&m->gen_active, 1);
  pthread_mutex_destroy(&m->mu);
  free(m);
}

/* Finds the series with these label values, adding it when new; NULL when it cannot be added. */
static series *find_series(srv_metrics *m, family *f, const char *const *values, int n_labels) {
  for (int i = 0; i < f->n; i++) {
    int l = 0;
    while (l < n_labels && strcmp(f->items[i].labels[l], values[l]) == 0) l++;
    if (l == n_labels) return &f->items[i];
  }
  if (m->n_series >= SRV_METRICS_MAX_SERIES) return NULL;
  if (f->n % 16 == 0) {
    series *grown = realloc(f->items, ((size_t)f->n + 16) * sizeof *grown);
    if (!grown) return NULL;
    f->items = grown;
  }
  series *s = &f->items[f->n];
  memset(s, 0, sizeof *s);
  for (int l = 0; l < n_labels; l++) {
    s->labels[l] = strdup(values[l]);
    if (!s->labels[l]) {
      for (int k = 0; k < l; k++) free(s->labels[k]);
      return NULL;
    }
  }
  f->n++;
  m->n_series++;
  return s;
}

/* Adds an observation to a histogram series: into the first bucket whose bound is >= v
 * (Prometheus's "le"), or, `below`, whose bound is > v (TensorFlow's histograms). */
static void observe(series *s, const double *bounds, int n_bounds, double v, bool below) {
  int b = 0;
  while (b < n_bounds && (below ? v >= bounds[b] : v > bounds[b])) b++;
  if (b < n_bounds) s->buckets[b]++;
  s->count++;
  s->value += v;
}

void srv_metrics_request(srv_metrics *m, const char *model, const char *version, const char *endpoint, int http_code,
                         double seconds) {
  char code[16];
  snprintf(code, sizeof code, "%d", http_code);
  const char *counter_labels[] = {model, version, endpoint, code};
  const char *latency_labels[] = {model, endpoint};
  pthread_mutex_lock(&m->mu);
  series *s = find_series(m, &m->requests, counter_labels, 4);
  if (s) s->value += 1;
  s = find_series(m, &m->latency, latency_labels, 2);
  if (s) observe(s, latency_bounds, (int)(sizeof latency_bounds / sizeof latency_bounds[0]), seconds, false);
  pthread_mutex_unlock(&m->mu);
}

void srv_metrics_batch(srv_metrics *m, const char *model, int64_t rows) {
  const char *labels[] = {model};
  pthread_mutex_lock(&m->mu);
  series *s = find_series(m, &m->batches, labels, 1);
  if (s) observe(s, batch_bounds, (int)(sizeof batch_bounds / sizeof batch_bounds[0]), (double)rows, false);
  pthread_mutex_unlock(&m->mu);
}

void srv_metrics_tfs_request(srv_metrics *m, const char *model, const char *api, const char *entrypoint, srv_code code,
                             double seconds) {
  const char *counter_labels[] = {model, srv_code_name(code)};
  const char *latency_labels[] = {model, api, entrypoint};
  pthread_mutex_lock(&m->mu);
  series *s = find_series(m, &m->tfs_requests, counter_labels, 2);
  if (s) s->value += 1;
  s = code == SRV_OK ? find_series(m, &m->tfs_latency, latency_labels, 3) : NULL;
  if (s) observe(s, m->tfs_bounds, TFS_BOUNDS, seconds * 1e6, true);
  pthread_mutex_unlock(&m->mu);
}

void srv_metrics_tfs_runtime(srv_metrics *m, const char *model, const char *api, double seconds) {
  const char *labels[] = {model, api, "hlorun"};
  pthread_mutex_lock(&m->mu);
  series *s = find_series(m, &m->tfs_runtime, labels, 3);
  if (s) observe(s, m->tfs_bounds, TFS_BOUNDS, seconds * 1e6, true);
  pthread_mutex_unlock(&m->mu);
}

void srv_metrics_gen_tokens(srv_metrics *m, const char *model, int n_tokens, double first_token_seconds,
                            double gap_seconds) {
  const char *labels[] = {model};
  int n_bounds = (int)(sizeof token_bounds / sizeof token_bounds[0]);
  pthread_mutex_lock(&m->mu);
  series *s = find_series(m, &m->gen_tokens, labels, 1);
  if (s) s->value += n_tokens;
  s = first_token_seconds > 0 ? find_series(m, &m->gen_first, labels, 1) : NULL;
  if (s) observe(s, token_bounds, n_bounds, first_token_seconds, false);
  s = gap_seconds > 0 ? find_series(m, &m->gen_gap, labels, 1) : NULL;
  if (s) observe(s, token_bounds, n_bounds, gap_seconds, false);
  pthread_mutex_unlock(&m->mu);
}

void srv_metrics_gen_active(srv_metrics *m, const char *model, int delta) {
  const char *labels[] = {model};
  pthread_mutex_lock(&m->mu);
  series *s = find_series(m, &m->gen_active, labels, 1);
  if (s) s->value += delta;
  pthread_mutex_unlock(&m->mu);
}

void srv_metrics_gen_done(srv_metrics *m, const char *model, const char *finish_reason) {
  const char *labels[] = {model, finish_reason};
  pthread_mutex_lock(&m->mu);
  series *s = find_series(m, &m->gen_requests, labels, 2);
  if (s) s->value += 1;
  pthread_mutex_unlock(&m->mu);
}

void srv_prom_family(hr_strbuf *sb, const char *name, const char *type, const char *help) {
  hr_strbuf_printf(sb, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Appends a label value with \\, \" and \n escaped. */
static void put_label_value(hr_strbuf *sb, const char *v) {
  for (; *v; v++) {
    if (*v == '\\' || *v == '"') {
      hr_strbuf_putc(sb, '\\');
      hr_strbuf_putc(sb, *v);
    } else if (*v == '\n') {
      hr_strbuf_puts(sb, "\\n");
    } else {
      hr_strbuf_putc(sb, *v);
    }
  }
}

/* Appends a sample value: integers exactly, other values with 17 significant digits. */
static void put_value(hr_strbuf *sb, double v) {
  if (isinf(v)) {
    hr_strbuf_puts(sb, v > 0 ? "+Inf" : "-Inf");
  } else if (v == floor(v) && fabs(v) < 1e15) {
    hr_strbuf_printf(sb, "%.0f", v);
  } else {
    hr_strbuf_printf(sb, "%.17g", v);
  }
}

void srv_prom_sample(hr_strbuf *sb, const char *name, const char *const *labels, int n_labels, double value) {
  hr_strbuf_puts(sb, name);
  if (n_labels) {
    hr_strbuf_putc(sb, '{');
    for (int l = 0; l < n_labels; l++) {
      hr_strbuf_printf(sb, "%s%s=\"", l ? "," : "", labels[2 * l]);
      put_label_value(sb, labels[2 * l + 1]);
      hr_strbuf_putc(sb, '"');
    }
    hr_strbuf_putc(sb, '}');
  }
  hr_strbuf_putc(sb, ' ');
  put_value(sb, value);
  hr_strbuf_putc(sb, '\n');
}

/* Appends the samples of one histogram series: cumulative buckets, +Inf, sum and count. `keys`
 * names its n_labels labels; one more pair is left for "le". */
static void append_histogram(hr_strbuf *sb, const char *name, const series *s, const char *const *keys, int n_labels,
                             const double *bounds, int n_bounds) {
  const char *labels[2 * (MAX_LABELS + 1)];
  for (int l = 0; l < n_labels; l++) {
    labels[2 * l] = keys[l];
    labels[2 * l + 1] = s->labels[l];
  }
  char metric[128], le[32];
  snprintf(metric, sizeof metric, "%s_bucket", name);
  labels[2 * n_labels] = "le";
  labels[2 * n_labels + 1] = le;
  uint64_t cumulative = 0;
  for (int b = 0; b < n_bounds; b++) {
    cumulative += s->buckets[b];
    snprintf(le, sizeof le, "%g", bounds[b]);
    srv_prom_sample(sb, metric, labels, n_labels + 1, (double)cumulative);
  }
  snprintf(le, sizeof le, "+Inf");
  srv_prom_sample(sb, metric, labels, n_labels + 1, (double)s->count);
  snprintf(metric, sizeof metric, "%s_sum", name);
  srv_prom_sample(sb, metric, labels, n_labels, s->value);
  snprintf(metric, sizeof metric, "%s_count", name);
  srv_prom_sample(sb, metric, labels, n_labels, (double)s->count);
}

/* Appends the request, latency and batch families. Call with the lock held. */
static void append_recorded(srv_metrics *m, hr_strbuf *sb) {
  static const char *const request_keys[] = {"model", "version", "endpoint", "code"};
  static const char *const latency_keys[] = {"model", "endpoint"};
  static const char *const batch_keys[] = {"model"};
  srv_prom_family(sb, "hlorun_http_requests_total", "counter",
                  "HTTP requests answered, by model, version, endpoint and status code.");
  for (int i = 0; i < m->requests.n; i++) {
    const series *s = &m->requests.items[i];
    const char *labels[8];
    for (int l = 0; l < 4; l++) {
      labels[2 * l] = request_keys[l];
      labels[2 * l + 1] = s->labels[l];
    }
    srv_prom_sample(sb, "hlorun_http_requests_total", labels, 4, s->value);
  }
  srv_prom_family(sb, "hlorun_http_request_duration_seconds", "histogram",
                  "Time from a request's arrival to its answer.");
  for (int i = 0; i < m->latency.n; i++)
    append_histogram(sb, "hlorun_http_request_duration_seconds", &m->latency.items[i], latency_keys, 2, latency_bounds,
                     (int)(sizeof latency_bounds / sizeof latency_bounds[0]));
  srv_prom_family(sb, "hlorun_batch_size", "histogram",
                  "Rows per batch run by the dynamic batcher (padding included).");
  for (int i = 0; i < m->batches.n; i++)
    append_histogram(sb, "hlorun_batch_size", &m->batches.items[i], batch_keys, 1, batch_bounds,
                     (int)(sizeof batch_bounds / sizeof batch_bounds[0]));
}

/* Appends the samples of a family of plain values (counters, gauges) labelled `keys`. */
static void append_values(hr_strbuf *sb, const char *name, const family *f, const char *const *keys, int n_labels) {
  for (int i = 0; i < f->n; i++) {
    const char *labels[2 * MAX_LABELS];
    for (int l = 0; l < n_labels; l++) {
      labels[2 * l] = keys[l];
      labels[2 * l + 1] = f->items[i].labels[l];
    }
    srv_prom_sample(sb, name, labels, n_labels, f->items[i].value);
  }
}

/* Appends the generation families. Call with the lock held. */
static void append_generation(srv_metrics *m, hr_strbuf *sb) {
  static const char *const keys[] = {"model", "finish_reason"};
  int n_bounds = (int)(sizeof token_bounds / sizeof token_bounds[0]);
  srv_prom_family(sb, "hlorun_generate_requests_total", "counter", "Generation requests ended, by finish reason.");
  append_values(sb, "hlorun_generate_requests_total", &m->gen_requests, keys, 2);
  srv_prom_family(sb, "hlorun_generate_tokens_total", "counter", "Tokens generated (their rate is tokens/s).");
  append_values(sb, "hlorun_generate_tokens_total", &m->gen_tokens, keys, 1);
  srv_prom_family(sb, "hlorun_generate_active_slots", "gauge", "Generation requests holding or waiting for a slot.");
  append_values(sb, "hlorun_generate_active_slots", &m->gen_active, keys, 1);
  srv_prom_family(sb, "hlorun_generate_time_to_first_token_seconds", "histogram",
                  "Time from a generation request's arrival to its first token.");
  for (int i = 0; i < m->gen_first.n; i++)
    append_histogram(sb, "hlorun_generate_time_to_first_token_seconds", &m->gen_first.items[i], keys, 1, token_bounds,
                     n_bounds);
  srv_prom_family(sb, "hlorun_generate_inter_token_seconds", "histogram", "Time between a request's tokens.");
  for (int i = 0; i < m->gen_gap.n; i++)
    append_histogram(sb, "hlorun_generate_inter_token_seconds", &m->gen_gap.items[i], keys, 1, token_bounds, n_bounds);
}

/* Appends TensorFlow Serving's families, named as its Prometheus exporter names them ('/' -> ':').
 * Call with the lock held. */
static void append_tfs(srv_metrics *m, hr_strbuf *sb) {
  static const char *const request_keys[] = {"model_name", "status"};
  static const char *const latency_keys[] = {"model_name", "API", "entrypoint"};
  static const char *const runtime_keys[] = {"model_name", "API", "runtime"};
  srv_prom_family(sb, ":tensorflow:serving:request_count", "counter", "The total number of requests.");
  for (int i = 0; i < m->tfs_requests.n; i++) {
    const series *s = &m->tfs_requests.items[i];
    const char *labels[] = {request_keys[0], s->labels[0], request_keys[1], s->labels[1]};
    srv_prom_sample(sb, ":tensorflow:serving:request_count", labels, 2, s->value);
  }
  srv_prom_family(sb, ":tensorflow:serving:request_latency", "histogram",
                  "Distribution of wall time (in microseconds) for Tensorflow Serving request.");
  for (int i = 0; i < m->tfs_latency.n; i++)
    append_histogram(sb, ":tensorflow:serving:request_latency", &m->tfs_latency.items[i], latency_keys, 3,
                     m->tfs_bounds, TFS_BOUNDS);
  srv_prom_family(sb, ":tensorflow:serving:runtime_latency", "histogram",
                  "Distribution of wall time (in microseconds) for Tensorflow runtime.");
  for (int i = 0; i < m->tfs_runtime.n; i++)
    append_histogram(sb, ":tensorflow:serving:runtime_latency", &m->tfs_runtime.items[i], runtime_keys, 3,
                     m->tfs_bounds, TFS_BOUNDS);
}

/* Counts the process's open file descriptors; -1 when /proc is unavailable. */
static double open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  double n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n - 1; /* the descriptor of the listing itself */
}

/* Appends the standard process_* families and build information. */
static void append_process(const srv_metrics *m, hr_strbuf *sb) {
  struct timespec cpu;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  srv_prom_family(sb, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.");
  srv_prom_sample(sb, "process_cpu_seconds_total", NULL, 0, (double)cpu.tv_sec + (double)cpu.tv_nsec * 1e-9);
  long pages_total = 0, pages_resident = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &pages_total, &pages_resident) != 2) pages_total = pages_resident = 0;
    fclose(f);
  }
  double page = (double)sysconf(_SC_PAGESIZE);
  srv_prom_family(sb, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
  srv_prom_sample(sb, "process_resident_memory_bytes", NULL, 0, (double)pages_resident * page);
  srv_prom_family(sb, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.");
  srv_prom_sample(sb, "process_virtual_memory_bytes", NULL, 0, (double)pages_total * page);
  double fds = open_fds();
  if (fds >= 0) {
    srv_prom_family(sb, "process_open_fds", "gauge", "Number of open file descriptors.");
    srv_prom_sample(sb, "process_open_fds", NULL, 0, fds);
  }
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    srv_prom_family(sb, "process_max_fds", "gauge", "Maximum number of open file descriptors.");
    srv_prom_sample(sb, "process_max_fds", NULL, 0, (double)rl.rlim_cur);
  }
  srv_prom_family(sb, "process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.");
  srv_prom_sample(sb, "process_start_time_seconds", NULL, 0, m->start_time);
  static const char *const build_labels[] = {"version", HLORUN_VERSION_STRING};
  srv_prom_family(sb, "hlorun_build_info", "gauge", "The hlorun version serving (always 1).");
  srv_prom_sample(sb, "hlorun_build_info", build_labels, 1, 1);
}

void srv_metrics_append(srv_metrics *m, hr_strbuf *sb) {
  pthread_mutex_lock(&m->mu);
  append_recorded(m, sb);
  append_generation(m, sb);
  append_tfs(m, sb);
  pthread_mutex_unlock(&m->mu);
  append_process(m, sb);
}

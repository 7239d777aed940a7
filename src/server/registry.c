/* The model registry (registry.h).
 *
 * Locking: each model has a mutex guarding its version records, the servables' reference counts
 * and its counters. Only the polling thread (or the caller of the initial poll, before that thread
 * starts) creates records, loads and unloads; loading runs without the lock. Requests take the
 * lock only to find a servable and count a reference. */
#include "server/registry.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/limits.h"
#include "server/common.h"
#include "server/metrics.h"
#include "server/versions.h"

enum {
  MAX_RECORDS = HR_LIMIT_VERSION_RECORDS,     /* version records kept per model (base/limits.h) */
  WARM_UP_SECONDS = HR_LIMIT_WARM_UP_SECONDS, /* a longer warm-up run fails the load (base/limits.h) */
};

/* What is known about one version of a model. */
typedef struct srv_version_record {
  int64_t version;
  srv_state state;
  hr_code error;           /* HR_OK, or the code of the failed load */
  char *message;           /* the failed load's message, or NULL */
  bool failed;             /* the load of `attempt` failed; not retried until the file changes */
  srv_fingerprint attempt; /* the artifact (or directory) the failed load saw */
  srv_servable *servable;  /* while AVAILABLE or UNLOADING */
} srv_version_record;

/* One configured model. */
typedef struct srv_model_entry {
  srv_model_config cfg;
  pthread_mutex_t mu;
  srv_version_record **records; /* descending by version */
  int n_records;
  srv_candidates last_scan; /* the previous poll's scan (to see which files settled) */
  char *scan_error;         /* the last scan error logged, to log each one once */
  char *base_real;          /* the base path resolved (realpath), as of the last poll; NULL if it failed */
  uint64_t loads, unloads, failures;
  bool removed; /* a reconfiguration dropped it (guarded by models_mu): kept, since servables and
                   metric labels point into it, and taken up again when a later one names it */
} srv_model_entry;

struct srv_registry {
  srv_model_entry **models; /* every entry ever configured, removed ones included */
  int n_models;
  pthread_mutex_t models_mu;   /* guards the list and the entries' removed flags (before any entry's mu) */
  pthread_mutex_t poll_run_mu; /* one poll or reconfiguration at a time: they alone change the list */
  hr_exec_options exec;
  srv_load_limits limits;
  atomic_size_t held_bytes; /* artifact bytes of loaded and loading servables */
  atomic_bool aborting;     /* stopping: loads in progress give up */
  FILE *log;
  pthread_mutex_t poll_mu;
  pthread_cond_t poll_cv; /* signalled to stop the poller (monotonic clock) */
  pthread_t poller;
  bool polling, stop;
  double poll_seconds;
};

const char *srv_state_name(srv_state s) {
  switch (s) {
    case SRV_STATE_LOADING: return "LOADING";
    case SRV_STATE_AVAILABLE: return "AVAILABLE";
    case SRV_STATE_UNLOADING: return "UNLOADING";
    case SRV_STATE_END: return "END";
  }
  return "UNKNOWN";
}

/* ---------------------------------------------------------------------------------------------- */
/* Creation                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* A model entry for `cfg`, which it takes over (also on error). */
static hr_status new_entry(srv_model_config *cfg, srv_model_entry **out) {
  srv_model_entry *m = calloc(1, sizeof *m);
  if (m && pthread_mutex_init(&m->mu, NULL) == 0) {
    m->cfg = *cfg;
    memset(cfg, 0, sizeof *cfg);
    *out = m;
    return NULL;
  }
  free(m);
  srv_model_config_free(cfg);
  return hr_error(HR_OUT_OF_MEMORY, "out of memory");
}

/* Frees an entry: its records and what its polls kept (its servables are gone). */
static void free_entry(srv_model_entry *m) {
  for (int j = 0; j < m->n_records; j++) {
    free(m->records[j]->message);
    free(m->records[j]);
  }
  free(m->records);
  free(m->scan_error);
  free(m->base_real);
  srv_candidates_free(&m->last_scan);
  srv_model_config_free(&m->cfg);
  pthread_mutex_destroy(&m->mu);
  free(m);
}

/* Appends an entry for `cfg` (taken over) to the list; call with models_mu. */
static hr_status add_entry(srv_registry *r, srv_model_config *cfg) {
  if (r->n_models >= 2 * HR_LIMIT_CONFIG_LIST) {
    srv_model_config_free(cfg);
    return hr_error(HR_RESOURCE_EXHAUSTED, "more than %d models configured over the server's life",
                    2 * HR_LIMIT_CONFIG_LIST);
  }
  srv_model_entry **grown = realloc(r->models, ((size_t)r->n_models + 1) * sizeof *grown);
  if (!grown) {
    srv_model_config_free(cfg);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  r->models = grown;
  HR_TRY(new_entry(cfg, &r->models[r->n_models]));
  r->n_models++;
  return NULL;
}

hr_status srv_registry_create(srv_config *config, const hr_exec_options *exec, const srv_load_limits *limits,
                              FILE *log, srv_registry **out) {
  *out = NULL;
  srv_registry *r = calloc(1, sizeof *r);
  hr_status s = r ? srv_sync_init(&r->poll_mu, &r->poll_cv) : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!s && pthread_mutex_init(&r->models_mu, NULL) != 0) {
    s = hr_error(HR_INTERNAL, "cannot create a mutex");
    pthread_cond_destroy(&r->poll_cv);
    pthread_mutex_destroy(&r->poll_mu);
  }
  if (!s && pthread_mutex_init(&r->poll_run_mu, NULL) != 0) {
    s = hr_error(HR_INTERNAL, "cannot create a mutex");
    pthread_mutex_destroy(&r->models_mu);
    pthread_cond_destroy(&r->poll_cv);
    pthread_mutex_destroy(&r->poll_mu);
  }
  if (s) {
    free(r);
    srv_config_free(config);
    return s;
  }
  r->exec = *exec;
  r->limits = *limits;
  atomic_init(&r->held_bytes, 0);
  atomic_init(&r->aborting, false);
  r->log = log;
  for (int i = 0; !s && i < config->n_models; i++) s = add_entry(r, &config->models[i]);
  srv_config_free(config);
  if (s) {
    srv_registry_free(r);
    return s;
  }
  *out = r;
  return NULL;
}

/* The entry of a configured model (not removed), or NULL. Entries are never freed while the
 * registry lives, so the pointer stays valid after the lock. */
static srv_model_entry *find_model(srv_registry *r, const char *name) {
  srv_model_entry *found = NULL;
  pthread_mutex_lock(&r->models_mu);
  for (int i = 0; i < r->n_models && !found; i++)
    if (!r->models[i]->removed && strcmp(r->models[i]->cfg.name, name) == 0) found = r->models[i];
  pthread_mutex_unlock(&r->models_mu);
  return found;
}

const char *srv_registry_model_name(srv_registry *r, const char *name) {
  const srv_model_entry *m = find_model(r, name);
  return m ? m->cfg.name : NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Version records                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* The record of a version, or NULL. Call with the model's lock. */
static srv_version_record *find_record(const srv_model_entry *m, int64_t version) {
  for (int i = 0; i < m->n_records; i++)
    if (m->records[i]->version == version) return m->records[i];
  return NULL;
}

/* Forgets the lowest ended version to make room; false when every record is in use. */
static bool drop_oldest_ended(srv_model_entry *m) {
  for (int i = m->n_records - 1; i >= 0; i--) {
    if (m->records[i]->state != SRV_STATE_END) continue;
    free(m->records[i]->message);
    free(m->records[i]);
    memmove(&m->records[i], &m->records[i + 1], (size_t)(m->n_records - i - 1) * sizeof *m->records);
    m->n_records--;
    return true;
  }
  return false;
}

/* Finds or creates (in version order) the record of a version; NULL when out of room or memory.
 * Call with the model's lock. */
static srv_version_record *make_record(srv_model_entry *m, int64_t version) {
  srv_version_record *rec = find_record(m, version);
  if (rec) return rec;
  if (m->n_records >= MAX_RECORDS && !drop_oldest_ended(m)) return NULL;
  if (m->n_records % 16 == 0) {
    srv_version_record **grown = realloc(m->records, ((size_t)m->n_records + 16) * sizeof *grown);
    if (!grown) return NULL;
    m->records = grown;
  }
  if (!(rec = calloc(1, sizeof *rec))) return NULL;
  rec->version = version;
  rec->state = SRV_STATE_END;
  int at = 0;
  while (at < m->n_records && m->records[at]->version > version) at++;
  memmove(&m->records[at + 1], &m->records[at], (size_t)(m->n_records - at) * sizeof *m->records);
  m->records[at] = rec;
  m->n_records++;
  return rec;
}

/* ---------------------------------------------------------------------------------------------- */
/* Loading and unloading                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Frees a servable and gives its bytes back to the total bound. */
static void free_servable(srv_registry *r, srv_servable *sv) {
  if (!sv) return;
  hr_gen_engine_free(sv->generator);
  srv_targets_free(sv->targets, sv->n_targets);
  atomic_fetch_sub(&r->held_bytes, sv->bytes);
  free(sv);
}

/* Whether loads should give up (the registry is stopping): polled while reading and warming up. */
static bool loads_aborted(void *ctx) { return atomic_load(&((srv_registry *)ctx)->aborting); }

/* Runs a program once on zeros, dynamic dims set to 1, so that the executable for batch size 1
 * is compiled and cached before real requests arrive. Stops at `deadline`, so that a model whose
 * run does not end (a loop bound by a huge constant) fails to load instead of holding the poller. */
static hr_status warm_up_program(srv_registry *r, hr_program *p, double deadline) {
  int n = hr_program_num_inputs(p);
  hr_tensor **inputs = calloc((size_t)n + 1, sizeof *inputs);
  if (!inputs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_status s = NULL;
  for (int i = 0; !s && i < n; i++) {
    hr_tensor_spec spec = hr_program_input_spec(p, i);
    for (int d = 0; d < spec.shape.rank; d++)
      if (spec.shape.dims[d] == HR_DYNAMIC) spec.shape.dims[d] = 1;
    s = hr_tensor_create(NULL, spec.dtype, &spec.shape, 0, &inputs[i]);
  }
  hr_tensor **outputs = NULL;
  int n_outputs = 0;
  hr_run_control ctl = {.deadline = deadline, .cancelled = loads_aborted, .cancel_ctx = r};
  if (!s) s = hr_program_run_controlled(p, inputs, n, &ctl, &outputs, &n_outputs);
  if (outputs) hr_tensors_free(outputs, n_outputs);
  for (int i = 0; i < n; i++) hr_tensor_free(inputs[i]);
  free(inputs);
  return s;
}

/* Warms up the program of every signature of a servable, all within WARM_UP_SECONDS. */
static hr_status warm_up(srv_registry *r, srv_servable *sv) {
  double deadline = srv_now() + WARM_UP_SECONDS;
  for (int i = 0; i < sv->n_targets; i++) {
    const srv_target *t = &sv->targets[i];
    if (!t->program) continue;
    hr_status s = warm_up_program(r, t->program, deadline);
    if (s && sv->n_targets > 1)
      return hr_status_wrap(s, "warm-up run of signature '%s' at batch size 1 failed",
                            srv_signature_name(&t->signature));
    if (s) return hr_status_wrap(s, "warm-up run at batch size 1 failed");
  }
  return NULL;
}

/* Whether `path` is `dir` or lies under it (both resolved). */
static bool path_under(const char *dir, const char *path) {
  size_t n = strlen(dir);
  return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0' || (n == 1 && dir[0] == '/'));
}

/* Resolves a candidate's artifact and checks that it is a file of the model's own: it resolves
 * inside the base path (links within it are fine) and has one hard link (a second name could be
 * anywhere). *real receives the resolved path, to open. */
static hr_status contain_artifact(const srv_model_entry *m, const srv_candidate *c, char **real) {
  *real = realpath(c->path, NULL);
  if (!*real) return hr_error(HR_IO_ERROR, "%s: cannot resolve the path: %s", c->path, strerror(errno));
  struct stat st;
  if (!m->base_real || !path_under(m->base_real, *real))
    return hr_error(HR_INVALID_ARGUMENT, "%s: a symbolic link leads outside the model's base path", c->path);
  if (stat(*real, &st) != 0) return hr_error(HR_IO_ERROR, "%s: %s", c->path, strerror(errno));
  if (st.st_nlink > 1)
    return hr_error(HR_INVALID_ARGUMENT,
                    "%s has %llu hard links: an artifact must be a file of its own under the base path (copy it)",
                    c->path, (unsigned long long)st.st_nlink);
  return NULL;
}

/* Opens the jax2tf SavedModel whose saved_model.pb is `pb` (resolved inside the base path) as its
 * targets: its signatures, each predict signature a program (targets.h). Its variables/ directory
 * must resolve inside the base path too; modules and weights are read into memory of their own. */
static hr_status open_savedmodel(srv_registry *r, const srv_model_entry *m, const char *pb, srv_servable *sv) {
  char dir[4096], vars[4096 + 16];
  const char *slash = strrchr(pb, '/');
  int n = snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - pb) : 1, slash ? pb : ".");
  if (n < 0 || (size_t)n >= sizeof dir) return hr_error(HR_INVALID_ARGUMENT, "%s: path too long", pb);
  snprintf(vars, sizeof vars, "%s/variables", dir);
  char *vars_real = realpath(vars, NULL);
  bool inside = !vars_real || path_under(m->base_real, vars_real); /* no variables/: nothing to contain */
  free(vars_real);
  if (!inside) return hr_error(HR_INVALID_ARGUMENT, "%s: a symbolic link leads outside the model's base path", vars);
  return srv_targets_from_savedmodel(dir, &r->exec, &sv->targets, &sv->n_targets);
}

/* Opens an hlorun artifact as its one target, serving_default. */
static hr_status open_artifact(srv_registry *r, const char *path, srv_servable *sv) {
  hr_artifact_options ao = {
      .max_file_bytes = r->limits.max_model_bytes, .copy = true, .cancelled = loads_aborted, .cancel_ctx = r};
  hr_program *program;
  HR_TRY(hr_artifact_open_with(path, &ao, &r->exec, &program));
  return srv_targets_from_program(program, &sv->targets, &sv->n_targets);
}

/* Starts the generation engine of an artifact whose module has @prefill and @decode
 * (docs/generation.md): both compiled for every batch bucket up to the slots, the cache allocated. */
static hr_status open_generator(srv_registry *r, srv_servable *sv) {
  const hr_program *p = sv->n_targets == 1 ? sv->targets[0].program : NULL;
  if (!p || !hr_gen_module_can_generate(hr_program_module(p))) return NULL;
  hr_program *prefill, *decode;
  hr_gen_model *m;
  HR_TRY(hr_gen_programs_from_program(p, &r->exec, &prefill, &decode));
  HR_TRY(hr_gen_model_create(prefill, decode, r->limits.generate_slots, &m));
  return hr_gen_engine_create(m, &sv->generator);
}

/* Counts an artifact of `bytes` against the bounds; fails when it is over either. */
static hr_status reserve_bytes(srv_registry *r, const srv_candidate *c, size_t bytes) {
  if (bytes > r->limits.max_model_bytes)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: %zu bytes exceed the limit of %zu (--max_model_bytes)", c->path, bytes,
                    r->limits.max_model_bytes);
  size_t held = atomic_fetch_add(&r->held_bytes, bytes);
  if (held > r->limits.max_total_bytes || bytes > r->limits.max_total_bytes - held) {
    atomic_fetch_sub(&r->held_bytes, bytes);
    return hr_error(HR_RESOURCE_EXHAUSTED,
                    "%s: %zu more bytes would hold %zu bytes of models, over the limit of %zu "
                    "(--max_total_model_bytes)",
                    c->path, bytes, held + bytes, r->limits.max_total_bytes);
  }
  return NULL;
}

/* Opens, checks and warms up the artifact of a version: read into memory of its own (bounded in
 * size and in total), so that nothing done to the file afterwards reaches the servable. Errors
 * name the file. */
static hr_status open_servable(srv_registry *r, srv_model_entry *m, const srv_candidate *c, srv_servable **out) {
  *out = NULL;
  if (c->kind == SRV_CANDIDATE_AMBIGUOUS)
    return hr_error(HR_INVALID_ARGUMENT,
                    "%s holds %d artifacts (.hlo files, a SavedModel); a version directory holds exactly one",
                    c->path, c->n_artifacts);
  char *real;
  hr_status s = contain_artifact(m, c, &real);
  size_t bytes = c->fp.size > 0 ? (size_t)c->fp.size : 0;
  if (!s) s = reserve_bytes(r, c, bytes);
  srv_servable *sv = s ? NULL : calloc(1, sizeof *sv);
  if (!s && !sv) {
    atomic_fetch_sub(&r->held_bytes, bytes);
    s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  if (s) {
    free(real);
    return s;
  }
  sv->model = m->cfg.name;
  sv->version = c->version;
  sv->owner = m;
  sv->loaded = c->fp;
  sv->bytes = bytes;
  s = srv_is_savedmodel_path(real) ? open_savedmodel(r, m, real, sv) : open_artifact(r, real, sv);
  if (!s) s = hr_status_wrap(open_generator(r, sv), "the generation model");
  if (s && real && strcmp(real, c->path) != 0) s = hr_status_wrap(s, "%s", c->path);
  free(real);
  if (!s) s = hr_status_wrap(warm_up(r, sv), "%s", c->path);
  if (s) {
    free_servable(r, sv);
    return s;
  }
  for (int i = 0; i < sv->n_targets; i++) sv->targets[i].servable = sv;
  *out = sv;
  return NULL;
}

/* Appends `text` with every occurrence of `path` (when longer than "/") replaced by `name`. */
static void replace_path(hr_strbuf *out, const char *text, const char *path, const char *name) {
  size_t n = path ? strlen(path) : 0;
  const char *at;
  while (n > 1 && (at = strstr(text, path)) != NULL) {
    hr_strbuf_append(out, text, (size_t)(at - text));
    hr_strbuf_puts(out, name);
    text = at + n;
  }
  hr_strbuf_puts(out, text);
}

/* A copy of a message with the model's base path, resolved and as configured, replaced by the
 * model's name ("/srv/models/tiny/2/model.hlo" -> "tiny/2/model.hlo"); NULL when out of memory.
 * Call with the model's lock (the poller updates base_real under it). */
static char *redacted_message(const srv_model_entry *m, const char *message) {
  hr_strbuf once, twice;
  hr_strbuf_init(&once, NULL);
  hr_strbuf_init(&twice, NULL);
  replace_path(&once, message, m->base_real, m->cfg.name);
  replace_path(&twice, once.data ? once.data : "", m->cfg.base_path, m->cfg.name);
  hr_strbuf_free(&once);
  char *copy = twice.failed || !twice.data ? NULL : strdup(twice.data);
  hr_strbuf_free(&twice);
  return copy;
}

/* Drops one reference to a servable; when it was the last, returns the servable to free (outside
 * the lock), and ends its version unless another copy serves it now. Call with the model's lock. */
static srv_servable *unref_locked(srv_servable *sv) {
  if (--sv->refs > 0) return NULL;
  srv_version_record *rec = sv->record;
  if (!sv->superseded) {
    rec->servable = NULL;
    rec->state = SRV_STATE_END;
    sv->owner->unloads++;
  }
  return sv;
}

/* Frees a servable whose last reference is gone and logs it (a copy replaced by a reload ends
 * quietly: its version still serves). */
static void finish_unload(srv_registry *r, srv_servable *sv) {
  if (!sv) return;
  if (!sv->superseded) srv_log(r->log, "model '%s' version %lld unloaded", sv->model, (long long)sv->version);
  free_servable(r, sv);
}

/* Installs a loaded servable as its version's serving copy. A copy serving before (a reload of a
 * changed artifact) is handed back to free once its last request ends. Call with the lock. */
static srv_servable *install_locked(srv_model_entry *m, srv_version_record *rec, srv_servable *sv) {
  srv_servable *old = rec->servable;
  if (old) old->superseded = true;
  sv->record = rec;
  sv->refs = 1;
  rec->servable = sv;
  rec->state = SRV_STATE_AVAILABLE;
  m->loads++;
  return old && --old->refs == 0 ? old : NULL;
}

/* Records a failed load: a version that was not serving ends with the error; one that serves
 * (its artifact changed and the new file failed) keeps serving the copy it has. */
static void record_failure_locked(srv_model_entry *m, srv_version_record *rec, const srv_candidate *c,
                                  hr_status s) {
  if (!rec->servable) {
    rec->state = SRV_STATE_END;
    rec->error = hr_status_code(s);
    free(rec->message);
    rec->message = redacted_message(m, hr_status_message(s));
  }
  rec->failed = true;
  rec->attempt = c->fp;
  m->failures++;
}

/* Loads a version (or reloads it, when its artifact changed) and records the outcome; returns
 * whether it loaded. */
static bool load_version(srv_registry *r, srv_model_entry *m, const srv_candidate *c) {
  pthread_mutex_lock(&m->mu);
  srv_version_record *rec = make_record(m, c->version);
  bool reload = rec && rec->servable;
  if (rec && !reload) {
    rec->state = SRV_STATE_LOADING;
    rec->error = HR_OK;
    free(rec->message);
    rec->message = NULL;
  }
  if (rec) rec->failed = false;
  pthread_mutex_unlock(&m->mu);
  if (!rec) {
    srv_log(r->log, "error: model '%s' version %lld: out of memory or too many versions", m->cfg.name,
            (long long)c->version);
    return false;
  }
  srv_servable *sv, *replaced = NULL;
  hr_status s = open_servable(r, m, c, &sv);
  pthread_mutex_lock(&m->mu);
  if (s)
    record_failure_locked(m, rec, c, s);
  else
    replaced = install_locked(m, rec, sv);
  pthread_mutex_unlock(&m->mu);
  finish_unload(r, replaced);
  if (s && reload) {
    srv_log(r->log,
            "error: model '%s' version %lld: its artifact changed and the new file failed to load, so the copy "
            "loaded before keeps serving: %s: %s",
            m->cfg.name, (long long)c->version, hr_code_name(hr_status_code(s)), hr_status_message(s));
  } else if (s) {
    srv_log(r->log, "error: model '%s' version %lld failed to load: %s: %s", m->cfg.name, (long long)c->version,
            hr_code_name(hr_status_code(s)), hr_status_message(s));
  } else {
    srv_log(r->log, "model '%s' version %lld is AVAILABLE%s (%s)", m->cfg.name, (long long)c->version,
            reload ? " again, reloaded from its changed artifact" : "", c->path);
  }
  hr_status_free(s);
  return !s;
}

/* Takes an AVAILABLE version out of service; it is freed when its last request ends. */
static void unload_version(srv_registry *r, srv_model_entry *m, srv_version_record *rec) {
  pthread_mutex_lock(&m->mu);
  rec->state = SRV_STATE_UNLOADING;
  srv_servable *done = unref_locked(rec->servable);
  pthread_mutex_unlock(&m->mu);
  finish_unload(r, done);
}

/* ---------------------------------------------------------------------------------------------- */
/* Polling                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Logs a scan problem once (until another one, or none, is seen). `message` NULL: none. */
static void note_scan_problem(srv_registry *r, srv_model_entry *m, const char *message) {
  if (!message) {
    free(m->scan_error);
    m->scan_error = NULL;
    return;
  }
  if (m->scan_error && strcmp(m->scan_error, message) == 0) return;
  srv_log(r->log, "model '%s': %s", m->cfg.name, message);
  free(m->scan_error);
  m->scan_error = strdup(message);
}

/* Whether a candidate looked the same in the previous poll (its file is not being written). */
static bool settled(const srv_model_entry *m, const srv_candidate *c) {
  for (int i = 0; i < m->last_scan.n; i++) {
    const srv_candidate *p = &m->last_scan.items[i];
    if (p->version == c->version) return p->kind == c->kind && srv_fingerprint_equal(&p->fp, &c->fp);
  }
  return false;
}

/* Whether a picked candidate should be loaded now: it is not loaded (or loading), or it serves
 * from an artifact that has changed since; not when the same file failed before; and, after the
 * first poll, only once the file looked the same in two polls. */
static bool should_load(srv_model_entry *m, const srv_candidate *c, bool initial) {
  pthread_mutex_lock(&m->mu);
  const srv_version_record *rec = find_record(m, c->version);
  bool changed = rec && rec->state == SRV_STATE_AVAILABLE && !srv_fingerprint_equal(&rec->servable->loaded, &c->fp);
  bool busy = rec && rec->state != SRV_STATE_END && !changed;
  bool failed_same = rec && rec->failed && srv_fingerprint_equal(&rec->attempt, &c->fp);
  pthread_mutex_unlock(&m->mu);
  return !busy && !failed_same && (initial || settled(m, c));
}

/* Whether a candidate is known not to load: its version is not serving and this very file failed. */
static bool known_bad(srv_model_entry *m, const srv_candidate *c) {
  pthread_mutex_lock(&m->mu);
  const srv_version_record *rec = find_record(m, c->version);
  bool bad = rec && !rec->servable && rec->failed && srv_fingerprint_equal(&rec->attempt, &c->fp);
  pthread_mutex_unlock(&m->mu);
  return bad;
}

/* Lets the policy pick among the `n` loadable candidates and loads the picked ones that need it.
 * Under the latest policy a version that fails to load is passed over for the next lower one (so
 * a corrupt newest version leaves the good ones serving), until the picks load or none is left.
 * `versions` and `picked` have room for n; on return versions[0..k) are the k versions picked. */
static int pick_and_load(srv_registry *r, srv_model_entry *m, srv_candidate **loadable, int n, bool initial,
                         int64_t *versions, bool *picked) {
  bool latest = m->cfg.policy.kind == SRV_POLICY_LATEST;
  int k = 0;
  for (int round = 0; round <= n; round++) {
    k = 0;
    for (int i = 0; i < n; i++)
      if (!latest || !known_bad(m, loadable[i])) loadable[k++] = loadable[i];
    for (int i = 0; i < k; i++) versions[i] = loadable[i]->version;
    srv_policy_select(&m->cfg.policy, versions, k, picked);
    bool failed = false;
    for (int i = k - 1; i >= 0; i--)
      if (picked[i] && should_load(m, loadable[i], initial)) failed = !load_version(r, m, loadable[i]) || failed;
    if (!failed || !latest) break;
  }
  int n_picked = 0;
  for (int i = 0; i < k; i++)
    if (picked[i]) versions[n_picked++] = versions[i];
  return n_picked;
}

/* Unloads AVAILABLE versions the policy did not pick (`picked` holds n versions), as long as a
 * picked version is AVAILABLE or none was picked. */
static void unload_unpicked(srv_registry *r, srv_model_entry *m, const int64_t *picked, int n) {
  srv_version_record *victims[MAX_RECORDS];
  int n_victims = 0;
  bool picked_available = false;
  pthread_mutex_lock(&m->mu);
  for (int i = 0; i < m->n_records; i++) {
    srv_version_record *rec = m->records[i];
    bool is_picked = false;
    for (int j = 0; j < n; j++) is_picked = is_picked || picked[j] == rec->version;
    if (is_picked && rec->state == SRV_STATE_AVAILABLE) picked_available = true;
    if (!is_picked && rec->state == SRV_STATE_AVAILABLE) victims[n_victims++] = rec;
  }
  pthread_mutex_unlock(&m->mu);
  if (!picked_available && n > 0) return;
  for (int i = 0; i < n_victims; i++) unload_version(r, m, victims[i]);
}

/* One poll of one model. */
static void poll_model(srv_registry *r, srv_model_entry *m, bool initial) {
  srv_candidates scan;
  hr_status s = srv_scan_versions(m->cfg.base_path, &scan);
  if (s) {
    note_scan_problem(r, m, hr_status_message(s));
    hr_status_free(s);
    return;
  }
  int64_t *versions = calloc((size_t)scan.n + 1, sizeof *versions);
  bool *picked = calloc((size_t)scan.n + 1, sizeof *picked);
  srv_candidate **loadable = calloc((size_t)scan.n + 1, sizeof *loadable);
  int n = 0;
  if (versions && picked && loadable) {
    for (int i = 0; i < scan.n; i++)
      if (scan.items[i].kind != SRV_CANDIDATE_EMPTY) loadable[n++] = &scan.items[i];
    note_scan_problem(r, m, n ? NULL : "no version directory under the base path holds an artifact (*.hlo or a SavedModel)");
    char *base_real = realpath(m->cfg.base_path, NULL);
    pthread_mutex_lock(&m->mu);
    free(m->base_real);
    m->base_real = base_real;
    pthread_mutex_unlock(&m->mu);
    unload_unpicked(r, m, versions, pick_and_load(r, m, loadable, n, initial, versions, picked));
  } else {
    note_scan_problem(r, m, "out of memory polling the base path");
  }
  free(versions);
  free(picked);
  free(loadable);
  srv_candidates_free(&m->last_scan);
  m->last_scan = scan;
}

/* Polls every configured model; call with poll_run_mu (the list does not change under it). */
static void poll_all(srv_registry *r, bool initial) {
  for (int i = 0; i < r->n_models; i++)
    if (!r->models[i]->removed) poll_model(r, r->models[i], initial);
}

void srv_registry_poll(srv_registry *r, bool initial) {
  pthread_mutex_lock(&r->poll_run_mu);
  poll_all(r, initial);
  pthread_mutex_unlock(&r->poll_run_mu);
}

/* The polling thread: polls every poll_seconds until stopped. */
static void *poller_main(void *arg) {
  srv_registry *r = arg;
  pthread_mutex_lock(&r->poll_mu);
  for (;;) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double wake = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + r->poll_seconds;
    ts.tv_sec = (time_t)wake;
    ts.tv_nsec = (long)((wake - (double)ts.tv_sec) * 1e9);
    while (!r->stop && pthread_cond_timedwait(&r->poll_cv, &r->poll_mu, &ts) == 0) {
    }
    if (r->stop) break;
    pthread_mutex_unlock(&r->poll_mu);
    srv_registry_poll(r, false);
    pthread_mutex_lock(&r->poll_mu);
  }
  pthread_mutex_unlock(&r->poll_mu);
  return NULL;
}

hr_status srv_registry_start_polling(srv_registry *r, double seconds) {
  if (r->polling) return hr_error(HR_INVALID_ARGUMENT, "the registry is already polling");
  r->poll_seconds = seconds;
  r->stop = false;
  if (pthread_create(&r->poller, NULL, poller_main, r) != 0)
    return hr_error(HR_INTERNAL, "cannot start the polling thread");
  r->polling = true;
  return NULL;
}

void srv_registry_stop_polling(srv_registry *r) {
  if (!r->polling) return;
  atomic_store(&r->aborting, true);
  pthread_mutex_lock(&r->poll_mu);
  r->stop = true;
  pthread_cond_broadcast(&r->poll_cv);
  pthread_mutex_unlock(&r->poll_mu);
  pthread_join(r->poller, NULL);
  r->polling = false;
}

/* Unloads every AVAILABLE version of a model. */
static void unload_all(srv_registry *r, srv_model_entry *m) {
  for (;;) {
    srv_version_record *victim = NULL;
    pthread_mutex_lock(&m->mu);
    for (int j = 0; j < m->n_records && !victim; j++)
      if (m->records[j]->state == SRV_STATE_AVAILABLE) victim = m->records[j];
    pthread_mutex_unlock(&m->mu);
    if (!victim) return;
    unload_version(r, m, victim);
  }
}

void srv_registry_free(srv_registry *r) {
  if (!r) return;
  srv_registry_stop_polling(r);
  for (int i = 0; i < r->n_models; i++) {
    unload_all(r, r->models[i]);
    free_entry(r->models[i]);
  }
  free(r->models);
  pthread_mutex_destroy(&r->poll_run_mu);
  pthread_mutex_destroy(&r->models_mu);
  pthread_cond_destroy(&r->poll_cv);
  pthread_mutex_destroy(&r->poll_mu);
  free(r);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reconfiguration                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* The entry called `name`, removed or not, or NULL. Call with poll_run_mu. */
static srv_model_entry *any_entry(const srv_registry *r, const char *name) {
  for (int i = 0; i < r->n_models; i++)
    if (strcmp(r->models[i]->cfg.name, name) == 0) return r->models[i];
  return NULL;
}

/* Checks a new configuration against the entries: a model keeps its base path (servables and
 * error redaction hold on to it); changing it needs a restart. */
static hr_status check_reconfigure(const srv_registry *r, const srv_config *c) {
  for (int i = 0; i < c->n_models; i++) {
    const srv_model_entry *m = any_entry(r, c->models[i].name);
    if (m && strcmp(m->cfg.base_path, c->models[i].base_path) != 0)
      return hr_error(HR_INVALID_ARGUMENT,
                      "model '%s' cannot change its base_path while the server runs (restart the server with the "
                      "new configuration)", m->cfg.name);
  }
  return NULL;
}

/* Gives an existing entry the policy and labels of `cfg` (the rest of cfg is freed). */
static void update_entry(srv_model_entry *m, srv_model_config *cfg) {
  pthread_mutex_lock(&m->mu);
  srv_version_policy policy = m->cfg.policy;
  srv_label *labels = m->cfg.labels;
  int n_labels = m->cfg.n_labels;
  m->cfg.policy = cfg->policy;
  m->cfg.labels = cfg->labels;
  m->cfg.n_labels = cfg->n_labels;
  pthread_mutex_unlock(&m->mu);
  cfg->policy = policy;
  cfg->labels = labels;
  cfg->n_labels = n_labels;
  srv_model_config_free(cfg);
}

/* Applies a checked configuration to the list: entries it names are kept (or taken up again, or
 * added), the others removed. Call with poll_run_mu; takes models_mu. */
static hr_status apply_config(srv_registry *r, srv_config *c) {
  hr_status s = NULL;
  pthread_mutex_lock(&r->models_mu);
  for (int i = 0; i < r->n_models; i++) r->models[i]->removed = true;
  for (int i = 0; i < c->n_models; i++) {
    srv_model_entry *m = any_entry(r, c->models[i].name);
    if (m) {
      m->removed = false;
      update_entry(m, &c->models[i]);
    } else if (!s) {
      s = add_entry(r, &c->models[i]);
    } else {
      srv_model_config_free(&c->models[i]);
    }
  }
  c->n_models = 0;
  pthread_mutex_unlock(&r->models_mu);
  return s;
}

hr_status srv_registry_reconfigure(srv_registry *r, srv_config *config) {
  pthread_mutex_lock(&r->poll_run_mu);
  hr_status s = check_reconfigure(r, config);
  if (!s) s = apply_config(r, config);
  srv_config_free(config);
  for (int i = 0; !s && i < r->n_models; i++) {
    srv_model_entry *m = r->models[i];
    if (m->removed) unload_all(r, m);
  }
  if (!s) {
    srv_log(r->log, "model configuration reloaded: %d models", srv_registry_count(r));
    poll_all(r, true);
  }
  pthread_mutex_unlock(&r->poll_run_mu);
  return s;
}

int srv_registry_count(srv_registry *r) {
  int n = 0;
  pthread_mutex_lock(&r->models_mu);
  for (int i = 0; i < r->n_models; i++) n += !r->models[i]->removed;
  pthread_mutex_unlock(&r->models_mu);
  return n;
}

int srv_registry_model_names(srv_registry *r, const char **names, int cap) {
  int n = 0;
  pthread_mutex_lock(&r->models_mu);
  for (int i = 0; i < r->n_models && n < cap; i++)
    if (!r->models[i]->removed) names[n++] = r->models[i]->cfg.name;
  pthread_mutex_unlock(&r->models_mu);
  return n;
}

/* ---------------------------------------------------------------------------------------------- */
/* Requests                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Resolves a label to its version; call with the model's lock (a reconfiguration changes labels). */
static hr_status resolve_label(const srv_model_entry *m, const char *label, int64_t *version) {
  for (int i = 0; i < m->cfg.n_labels; i++) {
    if (strcmp(m->cfg.labels[i].name, label) == 0) {
      *version = m->cfg.labels[i].version;
      return NULL;
    }
  }
  return hr_error(HR_INVALID_ARGUMENT, "Unrecognized servable version label: %s", label);
}

/* "Servable not found for request: Latest(m)" or "... Specific(m, 3)". */
static hr_status servable_not_found(const char *model, const srv_selector *sel, int64_t version) {
  if (sel->kind == SRV_SELECT_LATEST)
    return hr_error(HR_NOT_FOUND, "Servable not found for request: Latest(%s)", model);
  return hr_error(HR_NOT_FOUND, "Servable not found for request: Specific(%s, %lld)", model, (long long)version);
}

hr_status srv_registry_acquire(srv_registry *r, const char *model, const srv_selector *sel, srv_servable **out) {
  *out = NULL;
  srv_model_entry *m = find_model(r, model);
  int64_t version = sel->version;
  if (!m) return servable_not_found(model, sel, version);
  pthread_mutex_lock(&m->mu);
  if (sel->kind == SRV_SELECT_LABEL) {
    hr_status s = resolve_label(m, sel->label, &version);
    if (s) {
      pthread_mutex_unlock(&m->mu);
      return s;
    }
  }
  srv_version_record *rec = NULL;
  for (int i = 0; i < m->n_records && !rec; i++) {
    srv_version_record *c = m->records[i];
    if (c->state == SRV_STATE_AVAILABLE && (sel->kind == SRV_SELECT_LATEST || c->version == version)) rec = c;
  }
  if (rec) {
    rec->servable->refs++;
    *out = rec->servable;
  }
  pthread_mutex_unlock(&m->mu);
  return rec ? NULL : servable_not_found(model, sel, version);
}

void srv_registry_release(srv_registry *r, srv_servable *sv) {
  if (!sv) return;
  srv_model_entry *m = sv->owner;
  pthread_mutex_lock(&m->mu);
  srv_servable *done = unref_locked(sv);
  pthread_mutex_unlock(&m->mu);
  finish_unload(r, done);
}

hr_status srv_registry_redact(const srv_servable *sv, hr_status s) {
  if (!s) return NULL;
  pthread_mutex_lock(&sv->owner->mu);
  char *text = redacted_message(sv->owner, hr_status_message(s));
  pthread_mutex_unlock(&sv->owner->mu);
  hr_status out = text ? hr_error(hr_status_code(s), "%s", text) : s;
  if (text) hr_status_free(s);
  free(text);
  return out;
}

/* Copies a version's state into `out` (its message duplicated). */
static hr_status copy_version_status(const srv_version_record *rec, srv_version_status *out) {
  out->version = rec->version;
  out->state = rec->state;
  out->error = rec->error;
  out->message = strdup(rec->message ? rec->message : "");
  return out->message ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory copying the status of version %lld",
                                        (long long)rec->version);
}

/* Copies the status of the model's versions that `sel` selects (all when LATEST), under its lock. */
static hr_status copy_model_status(srv_model_entry *m, const srv_selector *sel, int64_t version,
                                   srv_model_status *out) {
  hr_status s = NULL;
  pthread_mutex_lock(&m->mu);
  out->versions = m->n_records ? calloc((size_t)m->n_records, sizeof *out->versions) : NULL;
  if (m->n_records && !out->versions) s = hr_error(HR_OUT_OF_MEMORY, "out of memory copying model status");
  for (int i = 0; i < m->n_records && !s; i++) {
    const srv_version_record *rec = m->records[i];
    if (sel->kind != SRV_SELECT_LATEST && rec->version != version) continue;
    s = copy_version_status(rec, &out->versions[out->n_versions]);
    if (!s) out->n_versions++;
  }
  pthread_mutex_unlock(&m->mu);
  return s;
}

hr_status srv_registry_status(srv_registry *r, const char *model, const srv_selector *sel, srv_model_status *out) {
  memset(out, 0, sizeof *out);
  srv_model_entry *m = find_model(r, model);
  if (!m) return hr_error(HR_NOT_FOUND, "Could not find any versions of model %s", model);
  int64_t version = sel->version;
  if (sel->kind == SRV_SELECT_LABEL) {
    pthread_mutex_lock(&m->mu);
    hr_status s = resolve_label(m, sel->label, &version);
    pthread_mutex_unlock(&m->mu);
    if (s) return s;
  }
  hr_status s = copy_model_status(m, sel, version, out);
  if (!s && out->n_versions == 0)
    s = sel->kind == SRV_SELECT_LATEST
            ? hr_error(HR_NOT_FOUND, "Could not find any versions of model %s", model)
            : hr_error(HR_NOT_FOUND, "Could not find version %lld of model %s", (long long)version, model);
  if (s) srv_model_status_free(out);
  return s;
}

void srv_model_status_free(srv_model_status *s) {
  for (int i = 0; i < s->n_versions; i++) free(s->versions[i].message);
  free(s->versions);
  s->versions = NULL;
  s->n_versions = 0;
}

bool srv_registry_ready(srv_registry *r, hr_strbuf *reason) {
  bool ready = true;
  pthread_mutex_lock(&r->models_mu);
  for (int i = 0; i < r->n_models; i++) {
    srv_model_entry *m = r->models[i];
    if (m->removed) continue;
    bool available = false;
    pthread_mutex_lock(&m->mu);
    for (int j = 0; j < m->n_records; j++) available = available || m->records[j]->state == SRV_STATE_AVAILABLE;
    pthread_mutex_unlock(&m->mu);
    if (available) continue;
    hr_strbuf_printf(reason, "%smodel '%s' has no AVAILABLE version", ready ? "" : "; ", m->cfg.name);
    ready = false;
  }
  pthread_mutex_unlock(&r->models_mu);
  return ready;
}

/* Appends one counter family with a sample per model, read by `get` under each model's lock. */
static void append_model_counter(srv_registry *r, hr_strbuf *sb, const char *name, const char *help,
                                 uint64_t (*get)(const srv_model_entry *)) {
  srv_prom_family(sb, name, "counter", help);
  pthread_mutex_lock(&r->models_mu);
  for (int i = 0; i < r->n_models; i++) {
    srv_model_entry *m = r->models[i];
    if (m->removed) continue;
    pthread_mutex_lock(&m->mu);
    double v = (double)get(m);
    pthread_mutex_unlock(&m->mu);
    const char *labels[] = {"model", m->cfg.name};
    srv_prom_sample(sb, name, labels, 1, v);
  }
  pthread_mutex_unlock(&r->models_mu);
}

static uint64_t get_loads(const srv_model_entry *m) { return m->loads; }
static uint64_t get_unloads(const srv_model_entry *m) { return m->unloads; }
static uint64_t get_failures(const srv_model_entry *m) { return m->failures; }

void srv_registry_append_metrics(srv_registry *r, hr_strbuf *sb) {
  srv_prom_family(sb, "hlorun_model_version_state", "gauge",
                  "1 for the state each model version is in (LOADING, AVAILABLE, UNLOADING, END), else 0.");
  pthread_mutex_lock(&r->models_mu);
  for (int i = 0; i < r->n_models; i++) {
    srv_model_entry *m = r->models[i];
    if (m->removed) continue;
    pthread_mutex_lock(&m->mu);
    for (int j = 0; j < m->n_records; j++) {
      char version[24];
      snprintf(version, sizeof version, "%lld", (long long)m->records[j]->version);
      for (srv_state st = SRV_STATE_LOADING; st <= SRV_STATE_END; st++) {
        const char *labels[] = {"model", m->cfg.name, "version", version, "state", srv_state_name(st)};
        srv_prom_sample(sb, "hlorun_model_version_state", labels, 3, m->records[j]->state == st ? 1 : 0);
      }
    }
    pthread_mutex_unlock(&m->mu);
  }
  pthread_mutex_unlock(&r->models_mu);
  append_model_counter(r, sb, "hlorun_model_loads_total", "Model versions loaded successfully.", get_loads);
  append_model_counter(r, sb, "hlorun_model_unloads_total", "Model versions unloaded.", get_unloads);
  append_model_counter(r, sb, "hlorun_model_load_failures_total", "Model version loads that failed.", get_failures);
}

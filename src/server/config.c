/* TensorFlow Serving's configuration files: ModelServerConfig, BatchingParameters and SSLConfig in
 * protobuf text format, checked against their schema (the fields hlorun uses) with FILE:LINE:COL errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/file.h"
#include "base/limits.h"
#include "server/server.h"
#include "server/textproto.h"

/* The context of one file being checked. */
typedef struct schema {
  const char *file;
} schema;

/* ---------------------------------------------------------------------------------------------- */
/* Field readers                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* Fails unless f is a message. */
static hr_status want_message(const schema *sc, const srv_tp_field *f) {
  if (f->kind != SRV_TP_MESSAGE)
    return srv_tp_error(sc->file, f, "field '%s' must be a message ('%s { ... }')", f->name, f->name);
  return NULL;
}

/* Reads a string field into a fresh copy; fails on other kinds or embedded NUL bytes. */
static hr_status want_string(const schema *sc, const srv_tp_field *f, char **out) {
  if (f->kind != SRV_TP_STRING) return srv_tp_error(sc->file, f, "field '%s' must be a quoted string", f->name);
  if (strlen(f->text) != f->len) return srv_tp_error(sc->file, f, "field '%s' contains a NUL byte", f->name);
  char *copy = strdup(f->text);
  if (!copy) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", sc->file);
  free(*out);
  *out = copy;
  return NULL;
}

/* Reads an integer field within [lo, hi]. */
static hr_status want_int(const schema *sc, const srv_tp_field *f, int64_t lo, int64_t hi, int64_t *out) {
  if (f->kind != SRV_TP_INT) return srv_tp_error(sc->file, f, "field '%s' must be an integer", f->name);
  errno = 0;
  char *end;
  long long v = strtoll(f->text, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return srv_tp_error(sc->file, f, "field '%s' must be an integer in [%lld, %lld], got %s", f->name, (long long)lo,
                        (long long)hi, f->text);
  *out = v;
  return NULL;
}

/* Reads a bool field (true/false, also 1/0 as protobuf's text format allows). */
static hr_status want_bool(const schema *sc, const srv_tp_field *f, bool *out) {
  const char *t = f->text ? f->text : "";
  if (f->kind != SRV_TP_MESSAGE && (strcmp(t, "true") == 0 || strcmp(t, "1") == 0)) {
    *out = true;
    return NULL;
  }
  if (f->kind != SRV_TP_MESSAGE && (strcmp(t, "false") == 0 || strcmp(t, "0") == 0)) {
    *out = false;
    return NULL;
  }
  return srv_tp_error(sc->file, f, "field '%s' must be true or false", f->name);
}

/* Fails when a non-repeated field appears twice in its message: `seen` is that field's flag. */
static hr_status once(const schema *sc, const srv_tp_field *f, bool *seen) {
  if (*seen) return srv_tp_error(sc->file, f, "non-repeated field '%s' is specified multiple times", f->name);
  *seen = true;
  return NULL;
}

/* Appends v to a growable int64 list. */
static hr_status push_int(const schema *sc, const srv_tp_field *f, int64_t v, int64_t **list, int *n) {
  if (*n >= HR_LIMIT_CONFIG_LIST)
    return srv_tp_error(sc->file, f, "more than %d entries in '%s'", HR_LIMIT_CONFIG_LIST, f->name);
  int64_t *grown = realloc(*list, ((size_t)*n + 1) * sizeof *grown);
  if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", sc->file);
  grown[(*n)++] = v;
  *list = grown;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* ModelServerConfig                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Reads `specific { versions: N ... }`. */
static hr_status read_specific(const schema *sc, const srv_tp_field *msg, srv_version_policy *p) {
  p->kind = SRV_POLICY_SPECIFIC;
  for (int i = 0; i < msg->n_fields; i++) {
    const srv_tp_field *f = &msg->fields[i];
    if (strcmp(f->name, "versions") != 0)
      return srv_tp_error(sc->file, f, "unknown field '%s' in 'specific' (expected 'versions')", f->name);
    int64_t v = 0;
    HR_TRY(want_int(sc, f, 1, INT64_MAX, &v));
    HR_TRY(push_int(sc, f, v, &p->versions, &p->n_versions));
  }
  if (p->n_versions == 0) return srv_tp_error(sc->file, msg, "'specific' lists no versions");
  return NULL;
}

/* Reads `latest { num_versions: N }` (N defaults to 1). */
static hr_status read_latest(const schema *sc, const srv_tp_field *msg, srv_version_policy *p) {
  p->kind = SRV_POLICY_LATEST;
  p->num_versions = 1;
  bool seen = false;
  for (int i = 0; i < msg->n_fields; i++) {
    const srv_tp_field *f = &msg->fields[i];
    if (strcmp(f->name, "num_versions") != 0)
      return srv_tp_error(sc->file, f, "unknown field '%s' in 'latest' (expected 'num_versions')", f->name);
    HR_TRY(once(sc, f, &seen));
    HR_TRY(want_int(sc, f, 1, UINT32_MAX, &p->num_versions));
  }
  return NULL;
}

/* Reads `model_version_policy { latest {...} | all {} | specific {...} }`. */
static hr_status read_policy(const schema *sc, const srv_tp_field *msg, srv_version_policy *p) {
  HR_TRY(want_message(sc, msg));
  if (msg->n_fields > 1)
    return srv_tp_error(sc->file, &msg->fields[1],
                        "field '%s' is specified along with field '%s', another member of oneof 'policy_choice'",
                        msg->fields[1].name, msg->fields[0].name);
  if (msg->n_fields == 0) return NULL;
  const srv_tp_field *f = &msg->fields[0];
  HR_TRY(want_message(sc, f));
  if (strcmp(f->name, "latest") == 0) return read_latest(sc, f, p);
  if (strcmp(f->name, "specific") == 0) return read_specific(sc, f, p);
  if (strcmp(f->name, "all") == 0) {
    if (f->n_fields) return srv_tp_error(sc->file, &f->fields[0], "'all' has no fields");
    p->kind = SRV_POLICY_ALL;
    return NULL;
  }
  return srv_tp_error(sc->file, f, "unknown version policy '%s' (expected latest, all or specific)", f->name);
}

/* Reads one `version_labels { key: "stable" value: 3 }` entry. */
static hr_status read_label(const schema *sc, const srv_tp_field *msg, srv_model_config *m) {
  HR_TRY(want_message(sc, msg));
  if (m->n_labels >= HR_LIMIT_CONFIG_LIST)
    return srv_tp_error(sc->file, msg, "more than %d version labels", HR_LIMIT_CONFIG_LIST);
  srv_label *grown = realloc(m->labels, ((size_t)m->n_labels + 1) * sizeof *grown);
  if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", sc->file);
  m->labels = grown;
  srv_label *l = &m->labels[m->n_labels++];
  l->name = NULL;
  l->version = 0;
  bool seen_key = false, seen_value = false;
  for (int i = 0; i < msg->n_fields; i++) {
    const srv_tp_field *f = &msg->fields[i];
    if (strcmp(f->name, "key") == 0) {
      HR_TRY(once(sc, f, &seen_key));
      HR_TRY(want_string(sc, f, &l->name));
    } else if (strcmp(f->name, "value") == 0) {
      HR_TRY(once(sc, f, &seen_value));
      HR_TRY(want_int(sc, f, 1, INT64_MAX, &l->version));
    } else {
      return srv_tp_error(sc->file, f, "unknown field '%s' in 'version_labels' (expected 'key' and 'value')", f->name);
    }
  }
  if (!l->name || !l->name[0]) return srv_tp_error(sc->file, msg, "a version label needs a non-empty 'key'");
  if (!seen_value) return srv_tp_error(sc->file, msg, "version label '%s' needs a 'value' (the version)", l->name);
  for (int i = 0; i + 1 < m->n_labels; i++)
    if (strcmp(m->labels[i].name, l->name) == 0)
      return srv_tp_error(sc->file, msg, "version label '%s' is defined twice", l->name);
  return NULL;
}

/* Reads f when it is one of the string fields of a ModelConfig (name, base_path, model_platform;
 * `seen` holds their flags); *handled tells whether it was. */
static hr_status read_model_string(const schema *sc, const srv_tp_field *f, srv_model_config *m, bool seen[3],
                                   bool *handled) {
  *handled = true;
  if (strcmp(f->name, "name") == 0) {
    HR_TRY(once(sc, f, &seen[0]));
    return want_string(sc, f, &m->name);
  }
  if (strcmp(f->name, "base_path") == 0) {
    HR_TRY(once(sc, f, &seen[1]));
    return want_string(sc, f, &m->base_path);
  }
  if (strcmp(f->name, "model_platform") == 0) {
    HR_TRY(once(sc, f, &seen[2]));
    char *platform = NULL;
    HR_TRY(want_string(sc, f, &platform));
    bool ok = platform[0] == '\0' || strcmp(platform, "hlorun") == 0;
    free(platform);
    if (!ok) return srv_tp_error(sc->file, f, "model_platform must be \"hlorun\" (versions hold hlorun artifacts)");
    return NULL;
  }
  *handled = false;
  return NULL;
}

/* Reads one `config { ... }` entry. */
static hr_status read_model(const schema *sc, const srv_tp_field *msg, srv_model_config *m) {
  HR_TRY(want_message(sc, msg));
  m->policy.kind = SRV_POLICY_LATEST;
  m->policy.num_versions = 1;
  bool seen[4] = {false, false, false, false};
  for (int i = 0; i < msg->n_fields; i++) {
    const srv_tp_field *f = &msg->fields[i];
    bool handled;
    HR_TRY(read_model_string(sc, f, m, seen, &handled));
    if (handled) continue;
    if (strcmp(f->name, "model_version_policy") == 0) {
      HR_TRY(once(sc, f, &seen[3]));
      HR_TRY(read_policy(sc, f, &m->policy));
    } else if (strcmp(f->name, "version_labels") == 0) {
      HR_TRY(read_label(sc, f, m));
    } else if (strcmp(f->name, "model_type") == 0 || strcmp(f->name, "logging_config") == 0) {
      return srv_tp_error(sc->file, f, "field '%s' is not supported by hlorun", f->name);
    } else {
      return srv_tp_error(sc->file, f,
                          "unknown field '%s' in 'config' (expected name, base_path, model_platform, "
                          "model_version_policy, version_labels)",
                          f->name);
    }
  }
  if (!m->name || !m->name[0]) return srv_tp_error(sc->file, msg, "a model config needs a non-empty 'name'");
  if (!m->base_path || !m->base_path[0])
    return srv_tp_error(sc->file, msg, "model '%s' needs a non-empty 'base_path'", m->name);
  return NULL;
}

/* Reads `model_config_list { config {...} ... }`. */
static hr_status read_model_list(const schema *sc, const srv_tp_field *msg, srv_config *c) {
  HR_TRY(want_message(sc, msg));
  for (int i = 0; i < msg->n_fields; i++) {
    const srv_tp_field *f = &msg->fields[i];
    if (strcmp(f->name, "config") != 0)
      return srv_tp_error(sc->file, f, "unknown field '%s' in 'model_config_list' (expected 'config')", f->name);
    if (c->n_models >= HR_LIMIT_CONFIG_LIST)
      return srv_tp_error(sc->file, f, "more than %d models", HR_LIMIT_CONFIG_LIST);
    srv_model_config *grown = realloc(c->models, ((size_t)c->n_models + 1) * sizeof *grown);
    if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", sc->file);
    c->models = grown;
    srv_model_config *m = &c->models[c->n_models++];
    memset(m, 0, sizeof *m);
    HR_TRY(read_model(sc, f, m));
    for (int j = 0; j + 1 < c->n_models; j++)
      if (strcmp(c->models[j].name, m->name) == 0)
        return srv_tp_error(sc->file, f, "model '%s' is configured twice", m->name);
  }
  return NULL;
}

/* Reads the top level of a ModelServerConfig. */
static hr_status read_server_config(const schema *sc, const srv_tp_field *root, srv_config *c) {
  bool seen = false;
  for (int i = 0; i < root->n_fields; i++) {
    const srv_tp_field *f = &root->fields[i];
    if (strcmp(f->name, "model_config_list") == 0) {
      HR_TRY(once(sc, f, &seen));
      HR_TRY(read_model_list(sc, f, c));
    } else if (strcmp(f->name, "custom_model_config") == 0) {
      return srv_tp_error(sc->file, f, "custom_model_config is not supported by hlorun; use model_config_list");
    } else {
      return srv_tp_error(sc->file, f, "unknown field '%s' in ModelServerConfig (expected 'model_config_list')",
                          f->name);
    }
  }
  if (c->n_models == 0)
    return hr_error(HR_INVALID_ARGUMENT, "%s: no models configured (model_config_list { config { ... } })", sc->file);
  return NULL;
}

hr_status srv_config_parse(const char *filename, const char *text, size_t len, srv_config *out) {
  memset(out, 0, sizeof *out);
  schema sc = {filename};
  srv_tp_field root;
  HR_TRY(srv_tp_parse(filename, text, len, &root));
  hr_status s = read_server_config(&sc, &root, out);
  srv_tp_free(&root);
  if (s) srv_config_free(out);
  return s;
}

hr_status srv_config_read_file(const char *path, srv_config *out) {
  memset(out, 0, sizeof *out);
  char *text;
  size_t len;
  HR_TRY(hr_read_file(path, NULL, HR_LIMIT_CONFIG_FILE_BYTES, &text, &len));
  hr_status s = srv_config_parse(path, text, len, out);
  hr_default_allocator()->free(NULL, text);
  return s;
}

hr_status srv_config_single(const char *name, const char *base_path, srv_config *out) {
  memset(out, 0, sizeof *out);
  if (!name[0]) return hr_error(HR_INVALID_ARGUMENT, "the model name is empty");
  if (!base_path[0]) return hr_error(HR_INVALID_ARGUMENT, "the model base path is empty");
  out->models = calloc(1, sizeof *out->models);
  if (!out->models) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  out->n_models = 1;
  srv_model_config *m = &out->models[0];
  m->name = strdup(name);
  m->base_path = strdup(base_path);
  m->policy.kind = SRV_POLICY_LATEST;
  m->policy.num_versions = 1;
  if (m->name && m->base_path) return NULL;
  srv_config_free(out);
  return hr_error(HR_OUT_OF_MEMORY, "out of memory");
}

void srv_model_config_free(srv_model_config *m) {
  free(m->name);
  free(m->base_path);
  free(m->policy.versions);
  for (int j = 0; j < m->n_labels; j++) free(m->labels[j].name);
  free(m->labels);
  memset(m, 0, sizeof *m);
}

void srv_config_free(srv_config *c) {
  for (int i = 0; i < c->n_models; i++) srv_model_config_free(&c->models[i]);
  free(c->models);
  memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------------------------------------- */
/* BatchingParameters                                                                              */
/* ---------------------------------------------------------------------------------------------- */

void srv_batching_defaults(srv_batching_params *p) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  memset(p, 0, sizeof *p);
  p->max_batch_size = 1000;
  p->batch_timeout_micros = 0;
  p->max_enqueued_batches = 10;
  p->num_batch_threads = cpus > 0 ? cpus : 1;
}

/* Reads a wrapper message `{ value: N }` (google.protobuf.Int64Value; empty means 0). */
static hr_status read_wrapped_int(const schema *sc, const srv_tp_field *msg, int64_t lo, int64_t hi, int64_t *out) {
  HR_TRY(want_message(sc, msg));
  *out = 0;
  bool seen = false;
  for (int i = 0; i < msg->n_fields; i++) {
    const srv_tp_field *f = &msg->fields[i];
    if (strcmp(f->name, "value") != 0)
      return srv_tp_error(sc->file, f, "unknown field '%s' in '%s' (expected 'value')", f->name, msg->name);
    HR_TRY(once(sc, f, &seen));
    HR_TRY(want_int(sc, f, lo, hi, out));
  }
  if (*out < lo) return srv_tp_error(sc->file, msg, "'%s' must be at least %lld", msg->name, (long long)lo);
  return NULL;
}

/* The BatchingParameters fields that wrap an integer, with their bounds. */
typedef struct int_field {
  const char *name;
  int64_t lo, hi;
  size_t offset; /* of the int64_t in srv_batching_params */
} int_field;

static const int_field batching_ints[] = {
    {"max_batch_size", 1, HR_LIMIT_BATCH_PARAM_MAX, offsetof(srv_batching_params, max_batch_size)},
    {"batch_timeout_micros", 0, 3600000000LL, offsetof(srv_batching_params, batch_timeout_micros)},
    {"max_enqueued_batches", 1, HR_LIMIT_BATCH_PARAM_MAX, offsetof(srv_batching_params, max_enqueued_batches)},
    {"num_batch_threads", 1, 1024, offsetof(srv_batching_params, num_batch_threads)},
};

/* Reads one field of BatchingParameters. `seen` has one flag per batching_ints entry plus two. */
static hr_status read_batching_field(const schema *sc, const srv_tp_field *f, srv_batching_params *p, bool *seen) {
  const size_t n_ints = sizeof batching_ints / sizeof batching_ints[0];
  for (size_t k = 0; k < n_ints; k++) {
    if (strcmp(f->name, batching_ints[k].name) != 0) continue;
    HR_TRY(once(sc, f, &seen[k]));
    return read_wrapped_int(sc, f, batching_ints[k].lo, batching_ints[k].hi,
                            (int64_t *)((char *)p + batching_ints[k].offset));
  }
  if (strcmp(f->name, "allowed_batch_sizes") == 0) {
    int64_t v = 0;
    HR_TRY(want_int(sc, f, 1, HR_LIMIT_BATCH_PARAM_MAX, &v));
    if (p->n_allowed_batch_sizes && v <= p->allowed_batch_sizes[p->n_allowed_batch_sizes - 1])
      return srv_tp_error(sc->file, f, "allowed_batch_sizes must be increasing");
    return push_int(sc, f, v, &p->allowed_batch_sizes, &p->n_allowed_batch_sizes);
  }
  if (strcmp(f->name, "thread_pool_name") == 0) {
    HR_TRY(once(sc, f, &seen[n_ints]));
    return want_message(sc, f);
  }
  if (strcmp(f->name, "pad_variable_length_inputs") == 0) {
    bool pad = false;
    HR_TRY(once(sc, f, &seen[n_ints + 1]));
    HR_TRY(want_bool(sc, f, &pad));
    if (pad) return srv_tp_error(sc->file, f, "pad_variable_length_inputs is not supported by hlorun");
    return NULL;
  }
  return srv_tp_error(sc->file, f,
                      "unknown field '%s' in BatchingParameters (expected max_batch_size, batch_timeout_micros, "
                      "max_enqueued_batches, num_batch_threads, allowed_batch_sizes, thread_pool_name, "
                      "pad_variable_length_inputs)",
                      f->name);
}

hr_status srv_batching_parse(const char *filename, const char *text, size_t len, srv_batching_params *out) {
  srv_batching_defaults(out);
  schema sc = {filename};
  srv_tp_field root;
  HR_TRY(srv_tp_parse(filename, text, len, &root));
  bool seen[sizeof batching_ints / sizeof batching_ints[0] + 2] = {false};
  hr_status s = NULL;
  for (int i = 0; !s && i < root.n_fields; i++) s = read_batching_field(&sc, &root.fields[i], out, seen);
  int n = out->n_allowed_batch_sizes;
  if (!s && n && out->allowed_batch_sizes[n - 1] != out->max_batch_size)
    s = hr_error(HR_INVALID_ARGUMENT,
                 "%s: the last entry in allowed_batch_sizes (%lld) must equal max_batch_size (%lld)", filename,
                 (long long)out->allowed_batch_sizes[n - 1], (long long)out->max_batch_size);
  srv_tp_free(&root);
  if (s) srv_batching_free(out);
  return s;
}

hr_status srv_batching_read_file(const char *path, srv_batching_params *out) {
  srv_batching_defaults(out);
  char *text;
  size_t len;
  HR_TRY(hr_read_file(path, NULL, HR_LIMIT_CONFIG_FILE_BYTES, &text, &len));
  hr_status s = srv_batching_parse(path, text, len, out);
  hr_default_allocator()->free(NULL, text);
  return s;
}

void srv_batching_free(srv_batching_params *p) {
  free(p->allowed_batch_sizes);
  p->allowed_batch_sizes = NULL;
  p->n_allowed_batch_sizes = 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* SSLConfig                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Reads one field of an SSLConfig; `seen` flags its four fields. */
static hr_status read_ssl_field(const schema *sc, const srv_tp_field *f, srv_ssl_config *c, bool seen[4]) {
  static const char *const names[4] = {"server_key", "server_cert", "custom_ca", "client_verify"};
  char **strings[3] = {&c->server_key, &c->server_cert, &c->custom_ca};
  for (int k = 0; k < 4; k++) {
    if (strcmp(f->name, names[k]) != 0) continue;
    HR_TRY(once(sc, f, &seen[k]));
    return k < 3 ? want_string(sc, f, strings[k]) : want_bool(sc, f, &c->client_verify);
  }
  return srv_tp_error(sc->file, f, "unknown field '%s' in SSLConfig (known: server_key, server_cert, custom_ca, client_verify)",
                      f->name);
}

/* Fails unless the PEM text `pem` of field `name` is present and looks like PEM. */
static hr_status want_pem(const char *file, const char *name, const char *pem) {
  if (!pem || !*pem) return hr_error(HR_INVALID_ARGUMENT, "%s: SSLConfig needs %s (PEM text)", file, name);
  if (!strstr(pem, "-----BEGIN "))
    return hr_error(HR_INVALID_ARGUMENT, "%s: %s is not PEM text (no '-----BEGIN ' line); it holds the key or "
                    "certificate itself, not a path", file, name);
  return NULL;
}

hr_status srv_ssl_parse(const char *filename, const char *text, size_t len, srv_ssl_config *out) {
  *out = (srv_ssl_config){0};
  schema sc = {filename};
  srv_tp_field root;
  HR_TRY(srv_tp_parse(filename, text, len, &root));
  bool seen[4] = {false};
  hr_status s = NULL;
  for (int i = 0; !s && i < root.n_fields; i++) s = read_ssl_field(&sc, &root.fields[i], out, seen);
  srv_tp_free(&root);
  if (out->custom_ca && !out->custom_ca[0]) { /* proto3: an empty string is an absent field */
    free(out->custom_ca);
    out->custom_ca = NULL;
  }
  if (!s) s = want_pem(filename, "server_key", out->server_key);
  if (!s) s = want_pem(filename, "server_cert", out->server_cert);
  if (!s && out->custom_ca) s = want_pem(filename, "custom_ca", out->custom_ca);
  if (!s && out->client_verify && !out->custom_ca)
    s = hr_error(HR_INVALID_ARGUMENT, "%s: client_verify needs custom_ca, the authority client certificates are checked against",
                 filename);
  if (s) srv_ssl_free(out);
  return s;
}

hr_status srv_ssl_read_file(const char *path, srv_ssl_config *out) {
  *out = (srv_ssl_config){0};
  char *text;
  size_t len;
  HR_TRY(hr_read_file(path, NULL, HR_LIMIT_CONFIG_FILE_BYTES, &text, &len));
  hr_status s = srv_ssl_parse(path, text, len, out);
  hr_default_allocator()->free(NULL, text);
  return s;
}

void srv_ssl_free(srv_ssl_config *c) {
  free(c->server_key);
  free(c->server_cert);
  free(c->custom_ca);
  *c = (srv_ssl_config){0};
}

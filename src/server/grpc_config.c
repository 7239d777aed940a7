/* A ModelServerConfig message (proto/tensorflow_serving/config/model_server_config.proto), as
 * HandleReloadConfigRequest carries it, read into an srv_config with the rules of the text format
 * (config.c): names and base paths non-empty, names unique, model_platform "hlorun" or empty,
 * labels unique with positive versions, at most HR_LIMIT_CONFIG_LIST models, labels and versions;
 * model_type, logging_config and custom_model_config refused. */
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/protobuf/pb.h"
#include "server/grpc.h"

enum {
  CFG_NAME = 1,
  CFG_BASE_PATH = 2,
  CFG_MODEL_TYPE = 3,
  CFG_PLATFORM = 4,
  CFG_LOGGING = 6,
  CFG_POLICY = 7,
  CFG_LABELS = 8,
  POLICY_LATEST = 100,
  POLICY_ALL = 101,
  POLICY_SPECIFIC = 102,
  NAME_BYTES = HR_LIMIT_NAME_BYTES,
};

/* A copy of a string field (at most NAME_BYTES - 1 bytes, no NUL). */
static hr_status dup_string(const hr_pb *c, const hr_pb_field *f, const char *what, char **out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, what));
  char buf[NAME_BYTES];
  HR_TRY(srv_grpc_copy_string(f->data, f->len, buf, sizeof buf, what));
  free(*out);
  *out = strdup(buf);
  return *out ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory");
}

/* Adds one specific version (positive, at most HR_LIMIT_CONFIG_LIST of them). */
static hr_status push_version(srv_version_policy *p, uint64_t v) {
  if ((int64_t)v < 1) return hr_error(HR_INVALID_ARGUMENT, "specific versions must be positive");
  if (p->n_versions >= HR_LIMIT_CONFIG_LIST)
    return hr_error(HR_INVALID_ARGUMENT, "more than %d specific versions", HR_LIMIT_CONFIG_LIST);
  int64_t *grown = realloc(p->versions, ((size_t)p->n_versions + 1) * sizeof *grown);
  if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  p->versions = grown;
  p->versions[p->n_versions++] = (int64_t)v;
  return NULL;
}

/* Reads specific { repeated int64 versions = 1; } (packed or not). */
static hr_status read_specific(const hr_pb *c, const hr_pb_field *f, srv_version_policy *p) {
  p->kind = SRV_POLICY_SPECIFIC;
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number != 1) continue;
    if (g.wire == HR_PB_VARINT) {
      HR_TRY(push_version(p, g.u));
      continue;
    }
    HR_TRY(hr_pb_want(&sub, &g, HR_PB_LEN, "versions"));
    hr_pb packed = hr_pb_sub(&sub, &g);
    for (;;) {
      uint64_t v;
      bool any;
      HR_TRY(hr_pb_next_packed(&packed, &v, &any));
      if (!any) break;
      HR_TRY(push_version(p, v));
    }
  }
  if (p->n_versions == 0) return hr_error(HR_INVALID_ARGUMENT, "'specific' lists no versions");
  return NULL;
}

/* Reads latest { uint32 num_versions = 1; } (0 or absent: 1). */
static hr_status read_latest(const hr_pb *c, const hr_pb_field *f, srv_version_policy *p) {
  p->kind = SRV_POLICY_LATEST;
  p->num_versions = 1;
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == 1 && g.wire == HR_PB_VARINT) {
      if (g.u > UINT32_MAX) return hr_error(HR_INVALID_ARGUMENT, "num_versions is not a uint32");
      if (g.u) p->num_versions = (int64_t)g.u;
    }
  }
}

/* Reads model_version_policy (a oneof: the last member on the wire wins, as protobuf reads it). */
static hr_status read_policy(const hr_pb *c, const hr_pb_field *f, srv_version_policy *p) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "model_version_policy"));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number < POLICY_LATEST || g.number > POLICY_SPECIFIC) continue;
    HR_TRY(hr_pb_want(&sub, &g, HR_PB_LEN, "a version policy"));
    free(p->versions);
    *p = (srv_version_policy){.kind = SRV_POLICY_ALL};
    if (g.number == POLICY_LATEST) HR_TRY(read_latest(&sub, &g, p));
    if (g.number == POLICY_SPECIFIC) HR_TRY(read_specific(&sub, &g, p));
  }
}

/* Reads one version_labels entry { string key = 1; int64 value = 2; }. */
static hr_status read_label(const hr_pb *c, const hr_pb_field *f, srv_model_config *m) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "version_labels"));
  if (m->n_labels >= HR_LIMIT_CONFIG_LIST)
    return hr_error(HR_INVALID_ARGUMENT, "more than %d version labels", HR_LIMIT_CONFIG_LIST);
  srv_label *grown = realloc(m->labels, ((size_t)m->n_labels + 1) * sizeof *grown);
  if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  m->labels = grown;
  srv_label *l = &m->labels[m->n_labels++];
  *l = (srv_label){0};
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == 1) HR_TRY(dup_string(&sub, &g, "a version label", &l->name));
    if (g.number == 2 && g.wire == HR_PB_VARINT) l->version = (int64_t)g.u;
  }
  if (!l->name || !l->name[0]) return hr_error(HR_INVALID_ARGUMENT, "a version label needs a non-empty key");
  if (l->version < 1) return hr_error(HR_INVALID_ARGUMENT, "version label '%s' needs a positive version", l->name);
  for (int i = 0; i + 1 < m->n_labels; i++)
    if (strcmp(m->labels[i].name, l->name) == 0)
      return hr_error(HR_INVALID_ARGUMENT, "version label '%s' is defined twice", l->name);
  return NULL;
}

/* Reads the string fields of a ModelConfig and refuses the unsupported ones; *done: f was one. */
static hr_status read_model_field(const hr_pb *c, const hr_pb_field *f, srv_model_config *m, bool *done) {
  *done = true;
  if (f->number == CFG_NAME) return dup_string(c, f, "a model name", &m->name);
  if (f->number == CFG_BASE_PATH) return dup_string(c, f, "a base_path", &m->base_path);
  if (f->number == CFG_PLATFORM) {
    HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "model_platform"));
    if (f->len && (f->len != 6 || memcmp(f->data, "hlorun", 6) != 0))
      return hr_error(HR_INVALID_ARGUMENT, "model_platform must be \"hlorun\" (versions hold hlorun artifacts)");
    return NULL;
  }
  if ((f->number == CFG_MODEL_TYPE && f->u) || f->number == CFG_LOGGING)
    return hr_error(HR_INVALID_ARGUMENT, "field '%s' is not supported by hlorun",
                    f->number == CFG_LOGGING ? "logging_config" : "model_type");
  *done = false;
  return NULL;
}

/* Reads one ModelConfig. */
static hr_status read_model(const hr_pb *c, const hr_pb_field *f, srv_model_config *m) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "config"));
  m->policy = (srv_version_policy){.kind = SRV_POLICY_LATEST, .num_versions = 1};
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more, done;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    HR_TRY(read_model_field(&sub, &g, m, &done));
    if (!done && g.number == CFG_POLICY) HR_TRY(read_policy(&sub, &g, &m->policy));
    if (!done && g.number == CFG_LABELS) HR_TRY(read_label(&sub, &g, m));
  }
  if (!m->name || !m->name[0]) return hr_error(HR_INVALID_ARGUMENT, "a model config needs a non-empty name");
  if (!m->base_path || !m->base_path[0])
    return hr_error(HR_INVALID_ARGUMENT, "model '%s' needs a non-empty base_path", m->name);
  return NULL;
}

/* Reads a ModelConfigList into c. */
static hr_status read_list(const hr_pb *c, const hr_pb_field *f, srv_config *out) {
  hr_pb sub = hr_pb_sub(c, f);
  int n;
  HR_TRY(hr_pb_count_in(&sub, 1, HR_LIMIT_CONFIG_LIST, &n));
  out->models = calloc((size_t)n + 1, sizeof *out->models);
  if (!out->models) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != 1) continue;
    srv_model_config *m = &out->models[out->n_models++];
    HR_TRY(read_model(&sub, &g, m));
    for (int j = 0; j + 1 < out->n_models; j++)
      if (strcmp(out->models[j].name, m->name) == 0)
        return hr_error(HR_INVALID_ARGUMENT, "model '%s' is configured twice", m->name);
  }
}

hr_status srv_grpc_read_config(const uint8_t *data, size_t len, srv_config *out) {
  memset(out, 0, sizeof *out);
  hr_pb c = hr_pb_open("ModelServerConfig", data, len);
  hr_pb_field f;
  bool more, list = false;
  hr_status st = NULL;
  while (!st && !(st = hr_pb_next(&c, &f, &more)) && more) {
    if (f.number == 1 && list) st = hr_error(HR_INVALID_ARGUMENT, "model_config_list is given twice");
    if (!st && f.number == 1) st = hr_pb_want(&c, &f, HR_PB_LEN, "model_config_list");
    if (!st && f.number == 1) {
      list = true;
      st = read_list(&c, &f, out);
    }
    if (!st && f.number == 2) list = false;
  }
  if (!st && !list)
    st = hr_error(HR_INVALID_ARGUMENT, "ServerModelConfig type not supported by HandleReloadConfigRequest. Only "
                                       "ModelConfigList is currently supported");
  if (!st && out->n_models == 0) st = hr_error(HR_INVALID_ARGUMENT, "the new configuration names no models");
  if (st) srv_config_free(out);
  return st;
}

/* The REST API: TensorFlow Serving's endpoints, health and readiness, and metrics, as an adapter
 * over the model service (service.h): this file routes, parses JSON and encodes JSON; what is
 * run and answered is the service's.
 *
 *   GET  /v1/models/M[/versions/N | /labels/L]            model status
 *   GET  /v1/models/M[/versions/N | /labels/L]/metadata   model metadata (signature)
 *   POST /v1/models/M[/versions/N | /labels/L]:predict    predict
 *   POST ...:classify, ...:regress                         TF Serving's errors for a predict signature;
 *                                                          501 for classify/regress signatures
 *   POST /v1/models/M[...]:generate, /v1/completions       text generation (generation.c)
 *   GET  /hlorun/models                                     hlorun's list of models (generation.c)
 *   GET  /                                                  the playground page (playground.c)
 *   OPTIONS /v1/..., /v2...                                 CORS preflight, as TF Serving answers it
 *   /v2...                                                  KServe v2 (kserve.c)
 *   GET  /healthz, /readyz, /monitoring/prometheus/metrics
 *
 * As in TensorFlow Serving, the /v1/models paths match case-insensitively, and any other /v1/ path
 * or method is 400 "Malformed request: METHOD PATH". Every /v1/, /v2 and OPTIONS request is
 * counted in TensorFlow Serving's metric families (metrics.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/limits.h"
#include "server/common.h"
#include "server/internal.h"
#include "server/json.h"
#include "server/kserve.h"
#include "server/generation.h"
#include "server/playground.h"
#include "server/predict.h"

void srv_reply_init(srv_reply *r) {
  memset(r, 0, sizeof *r);
  r->status = 200;
  r->content_type = "application/json";
  r->endpoint = "other";
  r->model = "";
  r->code = SRV_OK;
  r->json_bytes = -1;
  hr_strbuf_init(&r->body, NULL);
}

void srv_reply_error(srv_reply *r, int http_status, const char *message) {
  r->status = http_status;
  r->content_type = "application/json";
  r->body.len = 0;
  if (r->body.data) r->body.data[0] = '\0';
  r->body.failed = false;
  hr_strbuf_puts(&r->body, "{ \"error\": ");
  srv_json_put_cstring(&r->body, message);
  hr_strbuf_puts(&r->body, " }");
}

/* Answers with the error of a status (TensorFlow Serving's HTTP code for it) and frees it. */
static void reply_status(srv_reply *r, hr_status s, srv_code code) {
  r->code = code;
  srv_reply_error(r, srv_code_http(code), hr_status_message(s));
  hr_status_free(s);
}

/* Answers with an hlorun status's error, if any, or with the error of a body that ran out of
 * memory. */
static void finish(srv_reply *r, hr_status s) {
  if (!s) s = hr_strbuf_status(&r->body);
  if (s) reply_status(r, s, srv_code_of(hr_status_code(s)));
}

/* ---------------------------------------------------------------------------------------------- */
/* Routes                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef enum route_kind {
  ROUTE_STATUS,
  ROUTE_METADATA,
  ROUTE_PREDICT,
  ROUTE_CLASSIFY,
  ROUTE_REGRESS,
  ROUTE_GENERATE
} route_kind;

/* A parsed /v1/models path. */
typedef struct route {
  route_kind kind;
  char model[HR_LIMIT_URL_SEGMENT];
  char label[HR_LIMIT_URL_SEGMENT];
  srv_selector sel;
} route;

/* Consumes `word` (case-insensitive) at *p. */
static bool eat(const char **p, const char *word) {
  size_t n = strlen(word);
  if (strncasecmp(*p, word, n) != 0) return false;
  *p += n;
  return true;
}

/* Copies a segment of characters other than '/' and ':' (at least one, at most HR_LIMIT_URL_SEGMENT - 1). */
static bool eat_segment(const char **p, char *out) {
  size_t n = strcspn(*p, "/:");
  if (n == 0 || n >= HR_LIMIT_URL_SEGMENT) return false;
  memcpy(out, *p, n);
  out[n] = '\0';
  *p += n;
  return true;
}

/* Parses "/versions/N" or "/labels/L" when present. */
static hr_status parse_selector(const char **p, route *rt) {
  rt->sel.kind = SRV_SELECT_LATEST;
  if (eat(p, "/versions/")) {
    size_t n = strspn(*p, "0123456789");
    if (n == 0) return hr_error(HR_NOT_FOUND, "no version number after /versions/");
    int64_t v = 0;
    for (size_t i = 0; i < n; i++) {
      int d = (*p)[i] - '0';
      if (v > (INT64_MAX - d) / 10)
        return hr_error(HR_INVALID_ARGUMENT, "Failed to convert version: %.*s to numeric.", (int)(n < 40 ? n : 40), *p);
      v = v * 10 + d;
    }
    *p += n;
    rt->sel.kind = SRV_SELECT_VERSION;
    rt->sel.version = v;
  } else if (eat(p, "/labels/")) {
    if (!eat_segment(p, rt->label)) return hr_error(HR_NOT_FOUND, "no label after /labels/");
    rt->sel.kind = SRV_SELECT_LABEL;
    rt->sel.label = rt->label;
  }
  return NULL;
}

/* Parses the part of a path after "/v1/models". NOT_FOUND when it is no route at all. */
static hr_status parse_route(const char *p, route *rt) {
  if (*p == '\0' || strcmp(p, "/") == 0) return hr_error(HR_INVALID_ARGUMENT, "Missing model name in request.");
  if (!eat(&p, "/") || !eat_segment(&p, rt->model)) return hr_error(HR_NOT_FOUND, "no model name");
  HR_TRY(parse_selector(&p, rt));
  if (*p == '\0') {
    rt->kind = ROUTE_STATUS;
  } else if (strcasecmp(p, "/metadata") == 0) {
    rt->kind = ROUTE_METADATA;
  } else if (strcasecmp(p, ":predict") == 0) {
    rt->kind = ROUTE_PREDICT;
  } else if (strcasecmp(p, ":classify") == 0) {
    rt->kind = ROUTE_CLASSIFY;
  } else if (strcasecmp(p, ":regress") == 0) {
    rt->kind = ROUTE_REGRESS;
  } else if (strcasecmp(p, ":generate") == 0) {
    rt->kind = ROUTE_GENERATE;
  } else {
    return hr_error(HR_NOT_FOUND, "no such route");
  }
  return NULL;
}

/* The metrics label of a route. */
static const char *route_endpoint(route_kind k) {
  switch (k) {
    case ROUTE_STATUS: return "status";
    case ROUTE_METADATA: return "metadata";
    case ROUTE_PREDICT: return "predict";
    case ROUTE_CLASSIFY: return "classify";
    case ROUTE_REGRESS: return "regress";
    case ROUTE_GENERATE: return "generate";
  }
  return "other";
}

/* ---------------------------------------------------------------------------------------------- */
/* Handlers                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Appends one ModelVersionStatus. */
static void append_version_status(const srv_version_status *v, hr_strbuf *sb, bool first) {
  hr_strbuf_printf(
      sb,
      "%s  {\n   \"version\": \"%lld\",\n   \"state\": \"%s\",\n   \"status\": {\n    \"error_code\": \"%s\",\n"
      "    \"error_message\": ",
      first ? "" : ",\n", (long long)v->version, srv_state_name(v->state), srv_code_name(srv_code_of(v->error)));
  srv_json_put_cstring(sb, v->message);
  hr_strbuf_puts(sb, "\n   }\n  }");
}

/* GET /v1/models/M[...]: GetModelStatusResponse. */
static void handle_status(srv_server *s, const route *rt, srv_reply *r) {
  srv_model_status ms;
  hr_status st = srv_service_status(&s->svc, rt->model, &rt->sel, &ms);
  if (!st) {
    hr_strbuf_puts(&r->body, "{\n \"model_version_status\": [\n");
    for (int i = 0; i < ms.n_versions; i++) append_version_status(&ms.versions[i], &r->body, i == 0);
    hr_strbuf_puts(&r->body, "\n ]\n}\n");
    srv_model_status_free(&ms);
  }
  finish(r, st);
}

/* GET /v1/models/M[...]/metadata: GetModelMetadataResponse with the signature_def map. */
static void handle_metadata(srv_server *s, const route *rt, srv_reply *r) {
  srv_servable *sv;
  hr_status st = srv_service_acquire(&s->svc, rt->model, &rt->sel, &sv);
  if (st) {
    finish(r, st);
    return;
  }
  snprintf(r->version, sizeof r->version, "%lld", (long long)sv->version);
  hr_strbuf_puts(&r->body, "{\n\"model_spec\":{\n \"name\": ");
  srv_json_put_cstring(&r->body, sv->model);
  hr_strbuf_printf(&r->body, ",\n \"signature_name\": \"\",\n \"version\": \"%lld\"\n}\n,\n", (long long)sv->version);
  hr_strbuf_puts(&r->body, "\"metadata\": {\"signature_def\": {\n \"signature_def\": {");
  for (int i = 0; i < sv->n_targets; i++) {
    if (i) hr_strbuf_puts(&r->body, ",\n ");
    srv_signature_append_entry(&sv->targets[i].signature, &r->body);
  }
  hr_strbuf_puts(&r->body, "}\n}\n}\n}\n");
  srv_service_release(&s->svc, sv);
  finish(r, NULL);
}

/* The signature a request names ("signature_name"; none or "" names serving_default). A version
 * whose only signature is serving_default needs no look at the body first: srv_predict_parse
 * checks the name as it reads the request. */
static hr_status pick_target(const srv_servable *sv, const char *body, size_t len, const srv_predict_limits *limits,
                             const srv_target **out) {
  if (sv->n_targets == 1 && strcmp(srv_signature_name(&sv->targets[0].signature), SRV_SIGNATURE_NAME) == 0) {
    *out = &sv->targets[0];
    return NULL;
  }
  hr_strbuf name;
  hr_strbuf_init(&name, NULL);
  hr_status st = srv_predict_signature_name(body, len, limits, &name);
  if (!st) st = hr_strbuf_status(&name);
  if (!st) st = srv_service_target(sv, name.data ? name.data : "", out);
  hr_strbuf_free(&name);
  return st;
}

/* Parses a predict request against the signature it names (*target) and runs it; *code is the
 * canonical code of a failure. */
static hr_status predict_on(srv_server *s, srv_servable *sv, const char *body, size_t len, const srv_call *call,
                            const srv_target **target, srv_predict_request *req, hr_tensor ***outputs,
                            int *n_outputs, srv_code *code) {
  srv_predict_limits limits = {s->opts.max_json_depth, s->opts.max_tensor_elements};
  hr_status st = pick_target(sv, body, len, &limits, target);
  if (!st) st = srv_service_check_runnable(*target);
  if (!st) st = srv_predict_parse(body, len, &(*target)->signature, &limits, req);
  if (st) {
    *code = srv_code_of(hr_status_code(st));
    return st;
  }
  return srv_service_predict(&s->svc, *target, req->inputs, req->n_inputs, call, outputs, n_outputs, code);
}

/* POST /v1/models/M[...]:predict: the JSON request parsed against the signature it names, run by
 * the service, the outputs encoded in the request's format. */
static void handle_predict(srv_server *s, const route *rt, const char *body, size_t len, const srv_call *call,
                           srv_reply *r) {
  srv_servable *sv;
  hr_status st = srv_service_acquire(&s->svc, rt->model, &rt->sel, &sv);
  if (st) {
    finish(r, st);
    return;
  }
  snprintf(r->version, sizeof r->version, "%lld", (long long)sv->version);
  const srv_target *target = NULL;
  srv_predict_request req;
  memset(&req, 0, sizeof req);
  hr_tensor **outputs = NULL;
  int n_outputs = 0;
  srv_code code = SRV_OK;
  st = predict_on(s, sv, body, len, call, &target, &req, &outputs, &n_outputs, &code);
  if (!st) {
    st = srv_predict_encode(&target->signature, req.format, outputs, n_outputs, &r->body);
    if (st) code = srv_code_of(hr_status_code(st));
  }
  if (outputs) hr_tensors_free(outputs, n_outputs);
  srv_predict_request_free(&req);
  srv_service_release(&s->svc, sv);
  if (st)
    reply_status(r, st, code);
  else
    finish(r, NULL);
}

/* Checks a classify or regress request's signature as TensorFlow Serving does (it must exist and
 * have the route's method); hlorun runs no classify or regress signature (they take serialized
 * tf.Examples), so one that passes is UNIMPLEMENTED. */
static hr_status check_classify(srv_server *s, const srv_servable *sv, bool classify, const char *body, size_t len) {
  srv_predict_limits limits = {s->opts.max_json_depth, s->opts.max_tensor_elements};
  hr_strbuf name;
  hr_strbuf_init(&name, NULL);
  hr_status st = srv_predict_signature_name(body, len, &limits, &name);
  if (!st) st = hr_strbuf_status(&name);
  if (!st) st = srv_service_check_inference(sv, classify, name.data ? name.data : "");
  hr_strbuf_free(&name);
  return st;
}

/* An error about a classify or regress request's document, TensorFlow Serving's "JSON Value: <the
 * document> <what>" (the document shown as an excerpt). */
static hr_status examples_error(const char *body, size_t len, int depth, const char *what) {
  srv_json r;
  srv_json_init(&r, body, len, depth);
  char excerpt[64];
  srv_json_excerpt(&r, excerpt, sizeof excerpt);
  return hr_error(HR_INVALID_ARGUMENT, "JSON Value: %s %s", excerpt, what);
}

/* Checks a classify or regress request's document as TensorFlow Serving does before it looks for
 * the model: a JSON object whose "examples" is a non-empty list of objects. */
static hr_status check_examples(srv_server *s, const char *body, size_t len) {
  int depth = s->opts.max_json_depth;
  srv_json r;
  srv_json_init(&r, body, len, depth);
  if (len == 0) return hr_error(HR_INVALID_ARGUMENT, "JSON Parse error: The document is empty");
  HR_TRY(srv_json_skip(&r));
  srv_json_init(&r, body, len, depth);
  if (srv_json_peek(&r) != SRV_JSON_OBJECT) return examples_error(body, len, depth, "Is not object");
  HR_TRY(srv_json_enter(&r, '{'));
  bool first = true, more, found = false;
  char key[HR_LIMIT_NAME_BYTES];
  while (!found) {
    HR_TRY(srv_json_next(&r, '}', &first, &more));
    if (!more) break;
    HR_TRY(srv_json_key(&r, key, sizeof key));
    if (strcmp(key, "examples") == 0)
      found = true;
    else
      HR_TRY(srv_json_skip(&r));
  }
  if (!found)
    return examples_error(body, len, depth, "When method is classify, key 'examples' is expected and was not found");
  if (srv_json_peek(&r) != SRV_JSON_ARRAY)
    return examples_error(body, len, depth, "Expecting 'examples' value to be an list/array");
  HR_TRY(srv_json_enter(&r, '['));
  first = true;
  HR_TRY(srv_json_next(&r, ']', &first, &more));
  if (!more) return examples_error(body, len, depth, "'examples' value is an empty array");
  while (more) {
    srv_json_kind k = srv_json_peek(&r);
    if (k != SRV_JSON_OBJECT)
      return hr_error(HR_INVALID_ARGUMENT, "Example must be JSON object but got JSON %s", srv_json_kind_name(k));
    HR_TRY(srv_json_skip(&r));
    HR_TRY(srv_json_next(&r, ']', &first, &more));
  }
  return NULL;
}

/* POST /v1/models/M[...]:classify or :regress: the document checked first (as TensorFlow Serving
 * does), then answered with check_classify's error. */
static void handle_classify(srv_server *s, const route *rt, const char *body, size_t len, srv_reply *r) {
  srv_servable *sv;
  hr_status st = check_examples(s, body, len);
  if (st) {
    finish(r, st);
    return;
  }
  st = srv_service_acquire(&s->svc, rt->model, &rt->sel, &sv);
  if (!st) {
    snprintf(r->version, sizeof r->version, "%lld", (long long)sv->version);
    st = check_classify(s, sv, rt->kind == ROUTE_CLASSIFY, body, len);
    srv_service_release(&s->svc, sv);
  }
  finish(r, st);
}

/* Answers a /v1 path that is no route, or a route with the wrong method, as TensorFlow Serving
 * does: 400 "Malformed request: GET /v1/models/m:predict". */
static void reply_malformed(srv_reply *r, const char *method, const char *path) {
  char msg[512];
  snprintf(msg, sizeof msg, "Malformed request: %s %.400s", method, path);
  r->code = SRV_INVALID_ARGUMENT;
  srv_reply_error(r, 400, msg);
}

/* Answers the /v1/models routes. */
static void handle_models(srv_server *s, const char *method, const char *path, const char *rest, const char *body,
                          size_t len, const srv_call *call, srv_reply *r) {
  route rt;
  memset(&rt, 0, sizeof rt);
  hr_status st = parse_route(rest, &rt);
  if (st && hr_status_code(st) != HR_NOT_FOUND) {
    finish(r, st);
    return;
  }
  bool post = !st && rt.kind != ROUTE_STATUS && rt.kind != ROUTE_METADATA;
  if (st || strcmp(method, post ? "POST" : "GET") != 0) {
    hr_status_free(st);
    reply_malformed(r, method, path);
    return;
  }
  r->endpoint = route_endpoint(rt.kind);
  const char *configured = srv_registry_model_name(s->svc.registry, rt.model);
  r->model = configured ? configured : "";
  switch (rt.kind) {
    case ROUTE_STATUS: handle_status(s, &rt, r); return;
    case ROUTE_METADATA: handle_metadata(s, &rt, r); return;
    case ROUTE_PREDICT: handle_predict(s, &rt, body, len, call, r); return;
    case ROUTE_CLASSIFY:
    case ROUTE_REGRESS: handle_classify(s, &rt, body, len, r); return;
    case ROUTE_GENERATE: srv_rest_generate(s, rt.model, &rt.sel, body, len, r); return;
  }
}

/* GET /readyz: 200 when every model has an AVAILABLE version, else 503 saying which has none. */
static void handle_ready(srv_server *s, srv_reply *r) {
  hr_strbuf reason;
  hr_strbuf_init(&reason, NULL);
  if (srv_service_ready(&s->svc, &reason)) {
    hr_strbuf_puts(&r->body, "{\"status\": \"ready\"}\n");
  } else {
    srv_reply_error(r, 503, reason.data ? reason.data : "not ready");
  }
  hr_strbuf_free(&reason);
}

/* GET /monitoring/prometheus/metrics. */
static void handle_metrics(srv_server *s, srv_reply *r) {
  r->content_type = "text/plain; version=0.0.4; charset=utf-8";
  srv_metrics_append(s->metrics, &r->body);
  srv_registry_append_metrics(s->svc.registry, &r->body);
  srv_http_append_metrics(s, &r->body);
  if (s->svc.batcher) srv_batcher_append_metrics(s->svc.batcher, &r->body);
  finish(r, NULL);
}

/* GET /: the playground page (docs/generation.md). */
static void handle_playground(srv_reply *r) {
  const char *page;
  size_t len;
  srv_playground_page(&page, &len);
  r->content_type = "text/html; charset=utf-8";
  hr_strbuf_append(&r->body, page, len);
  finish(r, NULL);
}

/* Answers the fixed paths (the playground, health, readiness, metrics, the list of models); false
 * when `path` is none of them. */
static bool handle_fixed(srv_server *s, const char *method, const char *path, srv_reply *r) {
  if (strcmp(path, "/") == 0)
    r->endpoint = "playground";
  else if (strcmp(path, "/hlorun/models") == 0)
    r->endpoint = "models";
  else if (strcmp(path, "/healthz") == 0)
    r->endpoint = "healthz";
  else if (strcmp(path, "/readyz") == 0)
    r->endpoint = "readyz";
  else if (strcmp(path, "/monitoring/prometheus/metrics") == 0)
    r->endpoint = "metrics";
  else
    return false;
  if (strcmp(method, "GET") != 0) {
    srv_reply_error(r, 405, "Method not allowed (use GET)");
    r->allow = "GET";
  } else if (strcmp(r->endpoint, "playground") == 0) {
    handle_playground(r);
  } else if (strcmp(r->endpoint, "models") == 0) {
    srv_rest_list_models(s, r);
  } else if (strcmp(r->endpoint, "healthz") == 0) {
    hr_strbuf_puts(&r->body, "{\"status\": \"ok\"}\n");
  } else if (strcmp(r->endpoint, "readyz") == 0) {
    handle_ready(s, r);
  } else {
    handle_metrics(s, r);
  }
  return true;
}

/* Answers a CORS preflight (OPTIONS) as TensorFlow Serving does: 200 with an empty body when its
 * Origin header holds "http://" or "https://", else 400 (FAILED_PRECONDITION), also empty. */
static void handle_options(const srv_rest_headers *headers, srv_reply *r) {
  const char *origin = headers->origin ? headers->origin : "";
  bool ok = strstr(origin, "http://") || strstr(origin, "https://");
  r->status = ok ? 200 : 400;
  r->code = ok ? SRV_OK : SRV_FAILED_PRECONDITION;
  r->content_type = "text/plain";
  r->endpoint = "options";
}

/* TensorFlow Serving's API label of a route answered (its request_latency family). */
static const char *tfs_api(const srv_reply *r) {
  static const char *const named[] = {"predict", "classify", "regress"};
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (strcmp(r->endpoint, named[i]) == 0) return named[i];
  return strcmp(r->endpoint, "kserve_infer") == 0 ? "infer" : "";
}

void srv_rest_handle(srv_server *s, const char *method, const char *path, const srv_rest_headers *headers,
                     const char *body, size_t len, const srv_call *call, srv_reply *r) {
  if (handle_fixed(s, method, path, r)) return;
  double start = srv_now();
  const char *rest = path;
  bool v1 = strncasecmp(path, "/v1/", 4) == 0;
  bool v2 = strncmp(path, "/v2", 3) == 0 && (path[3] == '\0' || path[3] == '/');
  if (!v1 && !v2) {
    char msg[512];
    snprintf(msg, sizeof msg, "Not found: %s %.400s", method, path);
    srv_reply_error(r, 404, msg);
    return;
  }
  if (strcmp(method, "OPTIONS") == 0)
    handle_options(headers, r);
  else if (v2)
    srv_kserve_handle(s, method, path, headers, body, len, call, r);
  else if (eat(&rest, "/v1/models") && (*rest == '\0' || *rest == '/'))
    handle_models(s, method, path, rest, body, len, call, r);
  else if (strcasecmp(path, "/v1/completions") == 0 && strcmp(method, "POST") == 0) {
    r->endpoint = "completions";
    srv_rest_completions(s, body, len, r);
  }
  else
    reply_malformed(r, method, path);
  srv_metrics_tfs_request(s->metrics, r->model, tfs_api(r), "REST", r->code, srv_now() - start);
}

/* TensorFlow Serving's gRPC services and gRPC health over the model service (grpc.h):
 *
 *   tensorflow.serving.PredictionService  Predict, GetModelMetadata; Classify, Regress and
 *                                         MultiInference answered as TF Serving answers them for
 *                                         the signatures hlorun serves (service.h)
 *   tensorflow.serving.ModelService       GetModelStatus, HandleReloadConfigRequest
 *   grpc.health.v1.Health                 Check, Watch (a watching method, grpc.h)
 *
 * Messages are those of proto/tensorflow_serving/apis, read field by field (pb.h); errors carry
 * TensorFlow Serving's messages where it has them, with the canonical code of the status. */
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/protobuf/pb.h"
#include "formats/savedmodel/tf_types.h"
#include "server/grpc.h"
#include "server/grpc_tensor.h"
#include "server/internal.h"

/* A ModelSpec as read: the model, the version selector, the signature name. */
enum {
  SPEC_NAME = 1,
  SPEC_VERSION = 2,
  SPEC_SIGNATURE = 3,
  SPEC_LABEL = 4,
  MAX_FIELDS = HR_LIMIT_ARTIFACT_ENTRIES, /* inputs or output names in one request */
};

void srv_grpc_fail(srv_grpc_reply *r, srv_code code, hr_status st) {
  r->code = code;
  r->message.len = 0;
  hr_strbuf_puts(&r->message, hr_status_message(st));
  hr_status_free(st);
}

void srv_grpc_fail_status(srv_grpc_reply *r, hr_status st) { srv_grpc_fail(r, srv_code_of(hr_status_code(st)), st); }

void srv_grpc_put_message(hr_strbuf *b, uint32_t number, const hr_strbuf *sub) {
  hr_pb_put_bytes(b, number, sub->data ? sub->data : "", sub->len);
}

hr_status srv_grpc_copy_string(const uint8_t *data, size_t len, char *out, size_t cap, const char *what) {
  if (len >= cap) return hr_error(HR_INVALID_ARGUMENT, "%s is longer than %zu bytes", what, cap - 1);
  if (memchr(data, 0, len)) return hr_error(HR_INVALID_ARGUMENT, "%s holds a NUL byte", what);
  memcpy(out, data, len);
  out[len] = '\0';
  return NULL;
}

hr_status srv_grpc_read_wrapper(const hr_pb *c, const hr_pb_field *f, const char *what, uint64_t *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, what));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  *out = 0;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == 1) {
      HR_TRY(hr_pb_want(&sub, &g, HR_PB_VARINT, what));
      *out = g.u;
    }
  }
}

hr_status srv_grpc_read_spec(const hr_pb *c, const hr_pb_field *f, srv_grpc_model_spec *spec) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "model_spec"));
  spec->present = true;
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == SPEC_VERSION) {
      uint64_t v;
      HR_TRY(srv_grpc_read_wrapper(&sub, &g, "ModelSpec.version", &v));
      spec->sel.kind = SRV_SELECT_VERSION;
      spec->sel.version = (int64_t)v;
      continue;
    }
    if (g.number != SPEC_NAME && g.number != SPEC_SIGNATURE && g.number != SPEC_LABEL) continue;
    HR_TRY(hr_pb_want(&sub, &g, HR_PB_LEN, "a ModelSpec string"));
    char *to = g.number == SPEC_NAME ? spec->name : g.number == SPEC_SIGNATURE ? spec->signature : spec->label;
    HR_TRY(srv_grpc_copy_string(g.data, g.len, to, HR_LIMIT_URL_SEGMENT, "a ModelSpec string"));
    if (g.number == SPEC_LABEL) {
      spec->sel.kind = SRV_SELECT_LABEL;
      spec->sel.label = spec->label;
    }
  }
}

/* Reads the model_spec (field `number`) of a request message: TF Serving's "Missing ModelSpec"
 * when there is none. */
static hr_status request_spec(const srv_grpc_request *rq, uint32_t number, srv_grpc_model_spec *spec) {
  memset(spec, 0, sizeof *spec);
  hr_pb c = hr_pb_open("request", rq->msg, rq->len);
  hr_pb_field f;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) break;
    if (f.number == number) HR_TRY(srv_grpc_read_spec(&c, &f, spec));
  }
  if (!spec->present) return hr_error(HR_INVALID_ARGUMENT, "Missing ModelSpec");
  return NULL;
}

/* Appends a ModelSpec: name, version (Int64Value), and the signature name when given. */
static void put_spec(hr_strbuf *b, uint32_t number, const char *name, int64_t version, const char *signature) {
  hr_strbuf spec, v;
  hr_strbuf_init(&spec, NULL);
  hr_strbuf_init(&v, NULL);
  hr_pb_put_string(&spec, SPEC_NAME, name);
  hr_pb_put_uint(&v, 1, (uint64_t)version);
  srv_grpc_put_message(&spec, SPEC_VERSION, &v);
  if (signature) hr_pb_put_string(&spec, SPEC_SIGNATURE, signature);
  srv_grpc_put_message(b, number, &spec);
  hr_strbuf_free(&spec);
  hr_strbuf_free(&v);
}

/* ---------------------------------------------------------------------------------------------- */
/* Predict                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* A map<string, TensorProto> entry or an output_filter name, as views into the request. */
typedef struct named {
  const uint8_t *key;
  size_t key_len;
  const uint8_t *value;
  size_t value_len;
} named;

/* A PredictRequest as read. */
typedef struct predict_request {
  srv_grpc_model_spec spec;
  named *inputs;
  int n_inputs;
  named *filter; /* output_filter names (value unused) */
  int n_filter;
} predict_request;

enum { PREDICT_SPEC = 1, PREDICT_INPUTS = 2, PREDICT_FILTER = 3 };

/* Reads a map entry { key = 1; value = 2; }. */
static hr_status read_entry(const hr_pb *c, const hr_pb_field *f, named *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "a map entry"));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  memset(out, 0, sizeof *out);
  out->key = out->value = (const uint8_t *)"";
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != 1 && g.number != 2) continue;
    HR_TRY(hr_pb_want(&sub, &g, HR_PB_LEN, g.number == 1 ? "a map key" : "a map value"));
    if (g.number == 1) {
      out->key = g.data;
      out->key_len = g.len;
    } else {
      out->value = g.data;
      out->value_len = g.len;
    }
  }
}

/* Reads a PredictRequest: the spec, the inputs map (a key given twice: the last wins, as protobuf
 * reads maps) and output_filter. */
static hr_status read_predict(const srv_grpc_request *rq, predict_request *p) {
  memset(p, 0, sizeof *p);
  hr_pb c = hr_pb_open("PredictRequest", rq->msg, rq->len);
  int n_in, n_filter;
  HR_TRY(hr_pb_count_in(&c, PREDICT_INPUTS, MAX_FIELDS, &n_in));
  HR_TRY(hr_pb_count_in(&c, PREDICT_FILTER, MAX_FIELDS, &n_filter));
  p->inputs = calloc((size_t)n_in + 1, sizeof *p->inputs);
  p->filter = calloc((size_t)n_filter + 1, sizeof *p->filter);
  if (!p->inputs || !p->filter) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_pb_field f;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) break;
    if (f.number == PREDICT_SPEC) HR_TRY(srv_grpc_read_spec(&c, &f, &p->spec));
    if (f.number == PREDICT_INPUTS) HR_TRY(read_entry(&c, &f, &p->inputs[p->n_inputs++]));
    if (f.number == PREDICT_FILTER) {
      HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, "output_filter"));
      p->filter[p->n_filter++] = (named){.key = f.data, .key_len = f.len};
    }
  }
  if (!p->spec.present) return hr_error(HR_INVALID_ARGUMENT, "Missing ModelSpec");
  return NULL;
}

/* Whether a view equals a NUL-terminated name. */
static bool key_is(const named *n, const char *name) {
  return strlen(name) == n->key_len && memcmp(n->key, name, n->key_len) == 0;
}

/* Appends "{a,b,c}": the names of a list of tensors, as TF Serving lists them in its errors. */
static void put_names(hr_strbuf *b, const srv_tensor_info *list, int n) {
  hr_strbuf_putc(b, '{');
  for (int i = 0; i < n; i++) {
    if (i) hr_strbuf_putc(b, ',');
    hr_strbuf_puts(b, list[i].name);
  }
  hr_strbuf_putc(b, '}');
}

/* TF Serving's error for a request's tensor name the signature does not have (`what`: "input" or
 * "output"). */
static hr_status unknown_alias(const named *n, const char *what, const srv_tensor_info *list, int count) {
  hr_strbuf set;
  hr_strbuf_init(&set, NULL);
  put_names(&set, list, count);
  hr_status st = hr_error(HR_INVALID_ARGUMENT,
                          "%s tensor alias not found in signature: %.*s. %ss expected to be in the set %s.", what,
                          (int)(n->key_len < 400 ? n->key_len : 400), (const char *)n->key,
                          strcmp(what, "input") == 0 ? "Input" : "Output", set.data ? set.data : "{}");
  hr_strbuf_free(&set);
  return st;
}

/* Finds the request entry (the last one) for each signature input; TF Serving's errors for
 * unknown and missing inputs. */
static hr_status match_inputs(const predict_request *p, const srv_signature *sig, const named **found) {
  for (int i = 0; i < p->n_inputs; i++) {
    int k = 0;
    while (k < sig->n_inputs && !key_is(&p->inputs[i], sig->inputs[k].name)) k++;
    if (k == sig->n_inputs) return unknown_alias(&p->inputs[i], "input", sig->inputs, sig->n_inputs);
    found[k] = &p->inputs[i];
  }
  for (int k = 0; k < sig->n_inputs; k++) {
    if (found[k]) continue;
    hr_strbuf set;
    hr_strbuf_init(&set, NULL);
    put_names(&set, sig->inputs, sig->n_inputs);
    hr_status st = hr_error(HR_INVALID_ARGUMENT,
                            "input size does not match signature: %d!=%d for inputs. Missing but required: {%s}. "
                            "Inputs expected to be in the set %s.",
                            p->n_inputs, sig->n_inputs, sig->inputs[k].name, set.data ? set.data : "{}");
    hr_strbuf_free(&set);
    return st;
  }
  return NULL;
}

/* TensorFlow's short name of a dtype ("float", "int32"), as its type errors print it. */
static void short_dtype_name(int tf, char *out, size_t cap) {
  const char *name = hr_tf_dtype_name(tf);
  snprintf(out, cap, "%s", name ? name + 3 : "invalid");
  for (char *p = out; *p; p++)
    if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
}

/* Writes a shape as "[2,3]" ("?" for a dynamic dim). */
static void format_shape(const hr_shape *shape, char *out, size_t cap) {
  size_t n = (size_t)snprintf(out, cap, "[");
  for (int d = 0; d < shape->rank && n < cap; d++) {
    if (shape->dims[d] == HR_DYNAMIC)
      n += (size_t)snprintf(out + n, cap - n, "%s?", d ? "," : "");
    else
      n += (size_t)snprintf(out + n, cap - n, "%s%lld", d ? "," : "", (long long)shape->dims[d]);
  }
  if (n < cap) snprintf(out + n, cap - n, "]");
}

/* Checks an input tensor against the signature input `info` (argument `index`): TensorFlow's
 * type error, then the rank and static dims. */
static hr_status check_input(const srv_tensor_info *info, int index, const hr_tensor *t) {
  if (t->dtype != info->spec.dtype) {
    char want[32], got[32];
    short_dtype_name(hr_tf_dtype_from_hr(info->spec.dtype), want, sizeof want);
    short_dtype_name(hr_tf_dtype_from_hr(t->dtype), got, sizeof got);
    return hr_error(HR_INVALID_ARGUMENT, "Expects arg[%d] to be %s but %s is provided", index, want, got);
  }
  const hr_shape *want = &info->spec.shape;
  bool ok = want->rank == t->shape.rank;
  for (int d = 0; ok && d < want->rank; d++) ok = want->dims[d] == HR_DYNAMIC || want->dims[d] == t->shape.dims[d];
  if (ok) return NULL;
  char have[200], need[200];
  format_shape(&t->shape, have, sizeof have);
  format_shape(want, need, sizeof need);
  return hr_error(HR_INVALID_ARGUMENT, "input '%s': shape %s does not match the signature's %s", info->name, have,
                  need);
}

/* Decodes the inputs in signature order into `tensors` and checks them. */
static hr_status decode_inputs(srv_server *s, const predict_request *p, const srv_signature *sig, hr_tensor **tensors) {
  const named **found = calloc((size_t)sig->n_inputs + 1, sizeof *found);
  if (!found) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_status st = match_inputs(p, sig, found);
  int64_t budget = s->opts.max_tensor_elements;
  for (int k = 0; !st && k < sig->n_inputs; k++) {
    st = srv_grpc_tensor_decode(sig->inputs[k].name, found[k]->value, found[k]->value_len, &budget, &tensors[k]);
    if (!st) st = check_input(&sig->inputs[k], k, tensors[k]);
  }
  free(found);
  return st;
}

/* The outputs to answer: all, or those output_filter names (each once, known to the signature). */
static hr_status pick_outputs(const predict_request *p, const srv_signature *sig, bool *keep) {
  for (int k = 0; k < sig->n_outputs; k++) keep[k] = p->n_filter == 0;
  for (int i = 0; i < p->n_filter; i++) {
    int k = 0;
    while (k < sig->n_outputs && !key_is(&p->filter[i], sig->outputs[k].name)) k++;
    if (k == sig->n_outputs) return unknown_alias(&p->filter[i], "output", sig->outputs, sig->n_outputs);
    if (keep[k])
      return hr_error(HR_INVALID_ARGUMENT, "duplicate output tensor alias: %s", sig->outputs[k].name);
    keep[k] = true;
  }
  return NULL;
}

/* Appends the PredictResponse: the outputs kept (map entries, tensor_content), the spec. The
 * tensors' bytes are copied once, into the reply. */
static hr_status put_predict_response(srv_grpc_reply *r, const srv_servable *sv, const srv_signature *sig,
                                      hr_tensor *const *outputs, const bool *keep) {
  size_t total = 0;
  for (int k = 0; k < sig->n_outputs; k++)
    if (keep[k]) {
      size_t n = srv_grpc_tensor_size(outputs[k]);
      if (!n)
        return hr_error(HR_UNIMPLEMENTED, "output '%s' is %s, which TensorFlow has no DataType for",
                        sig->outputs[k].name, hr_dtype_name(outputs[k]->dtype));
      total += hr_pb_len_size(2, n) + hr_pb_len_size(1, strlen(sig->outputs[k].name)) + 8;
    }
  if (!hr_strbuf_reserve(&r->body, total + 256)) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int k = 0; k < sig->n_outputs; k++) {
    if (!keep[k]) continue;
    const char *name = sig->outputs[k].name;
    size_t tensor = srv_grpc_tensor_size(outputs[k]);
    hr_pb_put_len(&r->body, 1, hr_pb_len_size(1, strlen(name)) + hr_pb_len_size(2, tensor));
    hr_pb_put_string(&r->body, 1, name);
    hr_pb_put_len(&r->body, 2, tensor);
    srv_grpc_tensor_put(&r->body, outputs[k]);
  }
  put_spec(&r->body, 2, sv->model, sv->version, srv_signature_name(sig));
  return hr_strbuf_status(&r->body);
}

/* Runs a decoded request on an acquired version: *code is the canonical code of a failure. */
static hr_status predict_on(srv_server *s, const srv_grpc_request *rq, const predict_request *p,
                            const srv_servable *sv, srv_grpc_reply *r, srv_code *code) {
  const srv_target *t = NULL;
  hr_status st = srv_service_target(sv, p->spec.signature, &t);
  if (!st) st = srv_service_check_runnable(t);
  const srv_signature *sig = st ? NULL : &t->signature;
  hr_tensor **inputs = st ? NULL : calloc((size_t)sig->n_inputs + 1, sizeof *inputs);
  bool *keep = st ? NULL : calloc((size_t)sig->n_outputs + 1, sizeof *keep);
  if (!st && (!inputs || !keep)) st = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!st) st = pick_outputs(p, sig, keep);
  if (!st) st = decode_inputs(s, p, sig, inputs);
  *code = st ? srv_code_of(hr_status_code(st)) : SRV_OK;
  hr_tensor **outputs = NULL;
  int n_outputs = 0;
  if (!st) st = srv_service_predict(&s->svc, t, inputs, sig->n_inputs, rq->call, &outputs, &n_outputs, code);
  if (!st) {
    st = put_predict_response(r, sv, sig, outputs, keep);
    if (st) *code = srv_code_of(hr_status_code(st));
  }
  if (outputs) hr_tensors_free(outputs, n_outputs);
  for (int k = 0; inputs && k < sig->n_inputs; k++) hr_tensor_free(inputs[k]);
  free(inputs);
  free(keep);
  return st;
}

/* PredictionService/Predict. */
static void handle_predict(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  predict_request p;
  srv_servable *sv = NULL;
  hr_status st = read_predict(rq, &p);
  r->model = srv_registry_model_name(s->svc.registry, p.spec.name);
  if (!st) st = srv_service_acquire(&s->svc, p.spec.name, &p.spec.sel, &sv);
  srv_code code = st ? srv_code_of(hr_status_code(st)) : SRV_OK;
  if (!st) st = predict_on(s, rq, &p, sv, r, &code);
  if (sv) srv_service_release(&s->svc, sv);
  free(p.inputs);
  free(p.filter);
  if (st) srv_grpc_fail(r, code, st);
}

/* ---------------------------------------------------------------------------------------------- */
/* Metadata                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Appends a TensorInfo { name = 1; dtype = 2; tensor_shape = 3; } as metadata shows the tensor. */
static void put_tensor_info(hr_strbuf *b, const srv_tensor_info *t) {
  srv_tensor_view v = srv_tensor_info_view(t);
  hr_strbuf info, shape, dim;
  hr_strbuf_init(&info, NULL);
  hr_strbuf_init(&shape, NULL);
  hr_strbuf_init(&dim, NULL);
  hr_pb_put_string(&info, 1, v.tensor);
  if (v.tf_dtype) hr_pb_put_uint(&info, 2, (uint64_t)v.tf_dtype);
  for (int i = 0; i < v.rank; i++) {
    dim.len = 0;
    hr_pb_put_uint(&dim, 1, (uint64_t)v.dims[i]);
    srv_grpc_put_message(&shape, 2, &dim);
  }
  if (v.rank < 0) hr_pb_put_uint(&shape, 3, 1);
  srv_grpc_put_message(&info, 3, &shape);
  srv_grpc_put_message(b, 2, &info);
  hr_strbuf_free(&info);
  hr_strbuf_free(&shape);
  hr_strbuf_free(&dim);
}

/* Appends the map entries (field `number`) name -> TensorInfo of a list of tensors. */
static void put_tensor_map(hr_strbuf *b, uint32_t number, const srv_tensor_info *list, int n) {
  hr_strbuf entry;
  hr_strbuf_init(&entry, NULL);
  for (int i = 0; i < n; i++) {
    entry.len = 0;
    hr_pb_put_string(&entry, 1, list[i].name);
    put_tensor_info(&entry, &list[i]);
    srv_grpc_put_message(b, number, &entry);
  }
  hr_strbuf_free(&entry);
}

/* Appends the SignatureDefMap of a version: every signature, sorted by name. */
static void put_signature_map(hr_strbuf *b, const srv_servable *sv) {
  hr_strbuf entry, def;
  hr_strbuf_init(&entry, NULL);
  hr_strbuf_init(&def, NULL);
  for (int i = 0; i < sv->n_targets; i++) {
    const srv_signature *sig = &sv->targets[i].signature;
    def.len = entry.len = 0;
    put_tensor_map(&def, 1, sig->inputs, sig->n_inputs);
    put_tensor_map(&def, 2, sig->outputs, sig->n_outputs);
    hr_pb_put_string(&def, 3, srv_signature_method(sig));
    hr_pb_put_string(&entry, 1, srv_signature_name(sig));
    srv_grpc_put_message(&entry, 2, &def);
    srv_grpc_put_message(b, 1, &entry);
  }
  hr_strbuf_free(&entry);
  hr_strbuf_free(&def);
}

/* Checks metadata_field (field 2): it must name "signature_def", and nothing else, as in TF
 * Serving. */
static hr_status check_metadata_fields(const srv_grpc_request *rq) {
  hr_pb c = hr_pb_open("GetModelMetadataRequest", rq->msg, rq->len);
  hr_pb_field f;
  bool more, any = false;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) break;
    if (f.number != 2) continue;
    HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, "metadata_field"));
    if (f.len != strlen("signature_def") || memcmp(f.data, "signature_def", f.len) != 0)
      return hr_error(HR_INVALID_ARGUMENT, "Metadata field %.*s is not supported", (int)(f.len < 200 ? f.len : 200),
                      (const char *)f.data);
    any = true;
  }
  if (!any) return hr_error(HR_INVALID_ARGUMENT, "GetModelMetadataRequest must specify at least one metadata_field");
  return NULL;
}

/* PredictionService/GetModelMetadata: the signature_def metadata, a SignatureDefMap in an Any. */
static void handle_metadata(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  srv_grpc_model_spec spec;
  srv_servable *sv = NULL;
  hr_status st = request_spec(rq, 1, &spec);
  r->model = srv_registry_model_name(s->svc.registry, spec.name);
  if (!st) st = check_metadata_fields(rq);
  if (!st) st = srv_service_acquire(&s->svc, spec.name, &spec.sel, &sv);
  if (st) {
    srv_grpc_fail_status(r, st);
    return;
  }
  hr_strbuf map, any, entry;
  hr_strbuf_init(&map, NULL);
  hr_strbuf_init(&any, NULL);
  hr_strbuf_init(&entry, NULL);
  put_spec(&r->body, 1, sv->model, sv->version, NULL);
  put_signature_map(&map, sv);
  hr_pb_put_string(&any, 1, "type.googleapis.com/tensorflow.serving.SignatureDefMap");
  srv_grpc_put_message(&any, 2, &map);
  hr_pb_put_string(&entry, 1, "signature_def");
  srv_grpc_put_message(&entry, 2, &any);
  srv_grpc_put_message(&r->body, 2, &entry);
  st = hr_strbuf_status(&map);
  if (!st) st = hr_strbuf_status(&any);
  if (st) srv_grpc_fail_status(r, st);
  hr_strbuf_free(&map);
  hr_strbuf_free(&any);
  hr_strbuf_free(&entry);
  srv_service_release(&s->svc, sv);
}

/* ---------------------------------------------------------------------------------------------- */
/* Classify, Regress, MultiInference                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Answers a classify or regress request on the signature its spec names with TF Serving's error
 * (service.h: srv_service_check_inference). */
static void inference_error(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r, bool classify) {
  srv_grpc_model_spec spec;
  srv_servable *sv = NULL;
  hr_status st = request_spec(rq, 1, &spec);
  r->model = srv_registry_model_name(s->svc.registry, spec.name);
  if (!st) st = srv_service_acquire(&s->svc, spec.name, &spec.sel, &sv);
  if (!st) {
    st = srv_service_check_inference(sv, classify, spec.signature);
    srv_service_release(&s->svc, sv);
  }
  srv_grpc_fail_status(r, st);
}

static void handle_classify(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  inference_error(s, rq, r, true);
}

static void handle_regress(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  inference_error(s, rq, r, false);
}

/* Checks one InferenceTask { model_spec = 1; method_name = 2; }: its method must be classify or
 * regress, and its signature is checked as Classify or Regress checks it. Returns the error. */
static hr_status check_task(srv_server *s, const hr_pb *c, const hr_pb_field *f) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "tasks"));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  srv_grpc_model_spec spec;
  memset(&spec, 0, sizeof spec);
  char method[128] = "";
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == 1) HR_TRY(srv_grpc_read_spec(&sub, &g, &spec));
    if (g.number == 2) {
      HR_TRY(hr_pb_want(&sub, &g, HR_PB_LEN, "method_name"));
      HR_TRY(srv_grpc_copy_string(g.data, g.len, method, sizeof method, "method_name"));
    }
  }
  bool classify = strcmp(method, "tensorflow/serving/classify") == 0;
  if (!classify && strcmp(method, "tensorflow/serving/regress") != 0)
    return hr_error(HR_UNIMPLEMENTED, "Unsupported signature method_name: %s", method);
  if (!spec.present) return hr_error(HR_INVALID_ARGUMENT, "Missing ModelSpec");
  srv_servable *sv;
  HR_TRY(srv_service_acquire(&s->svc, spec.name, &spec.sel, &sv));
  hr_status st = srv_service_check_inference(sv, classify, spec.signature);
  srv_service_release(&s->svc, sv);
  return st;
}

/* PredictionService/MultiInference: TF Serving's errors for its tasks (hlorun runs no classify
 * or regress signature). */
static void handle_multi_inference(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  hr_pb c = hr_pb_open("MultiInferenceRequest", rq->msg, rq->len);
  hr_pb_field f;
  bool more, any = false;
  hr_status st = NULL;
  while (!st) {
    st = hr_pb_next(&c, &f, &more);
    if (st || !more) break;
    if (f.number == 1) {
      any = true;
      st = check_task(s, &c, &f);
    }
  }
  if (!st && !any) st = hr_error(HR_INVALID_ARGUMENT, "Tasks field is empty.");
  srv_grpc_fail_status(r, st);
}

/* ---------------------------------------------------------------------------------------------- */
/* Model status, health                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* ModelVersionStatus.State's numbers. */
static int state_number(srv_state st) {
  switch (st) {
    case SRV_STATE_LOADING: return 20;
    case SRV_STATE_AVAILABLE: return 30;
    case SRV_STATE_UNLOADING: return 40;
    case SRV_STATE_END: return 50;
  }
  return 0;
}

/* ModelService/GetModelStatus. */
static void handle_status(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  srv_grpc_model_spec spec;
  srv_model_status ms;
  hr_status st = request_spec(rq, 1, &spec);
  r->model = srv_registry_model_name(s->svc.registry, spec.name);
  if (!st) st = srv_service_status(&s->svc, spec.name, &spec.sel, &ms);
  if (st) {
    srv_grpc_fail_status(r, st);
    return;
  }
  hr_strbuf v, status;
  hr_strbuf_init(&v, NULL);
  hr_strbuf_init(&status, NULL);
  for (int i = 0; i < ms.n_versions; i++) {
    const srv_version_status *vs = &ms.versions[i];
    v.len = status.len = 0;
    hr_pb_put_uint(&v, 1, (uint64_t)vs->version);
    hr_pb_put_uint(&v, 2, (uint64_t)state_number(vs->state));
    srv_code code = srv_code_of(vs->error);
    if (code) hr_pb_put_uint(&status, 1, (uint64_t)code);
    if (vs->message[0]) hr_pb_put_string(&status, 2, vs->message);
    srv_grpc_put_message(&v, 3, &status);
    srv_grpc_put_message(&r->body, 1, &v);
  }
  hr_strbuf_free(&v);
  hr_strbuf_free(&status);
  srv_model_status_free(&ms);
}

/* The services Health/Check knows: "" (the server) and each service answered here. */
static bool known_service(const char *name) {
  static const char *const services[] = {"", "tensorflow.serving.PredictionService", "tensorflow.serving.ModelService",
                                         "inference.GRPCInferenceService", "grpc.health.v1.Health"};
  for (size_t i = 0; i < sizeof services / sizeof services[0]; i++)
    if (strcmp(name, services[i]) == 0) return true;
  return false;
}

/* Reads HealthCheckRequest.service. */
static hr_status read_service(const srv_grpc_request *rq, char *service, size_t cap) {
  hr_pb c = hr_pb_open("HealthCheckRequest", rq->msg, rq->len);
  hr_pb_field f;
  bool more;
  service[0] = '\0';
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) return NULL;
    if (f.number != 1) continue;
    HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, "service"));
    HR_TRY(srv_grpc_copy_string(f.data, f.len, service, cap, "service"));
  }
}

/* HealthCheckResponse.ServingStatus: SERVING (1) when every model has an AVAILABLE version (as
 * /readyz), else NOT_SERVING (2). */
static int serving_status(srv_server *s) {
  hr_strbuf reason;
  hr_strbuf_init(&reason, NULL);
  bool ready = srv_service_ready(&s->svc, &reason);
  hr_strbuf_free(&reason);
  return ready ? 1 : 2;
}

/* grpc.health.v1.Health/Check: the serving status of "" (the server) or one of its services;
 * NOT_FOUND for a service this server does not have. */
static void handle_health(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  char service[256];
  hr_status st = read_service(rq, service, sizeof service);
  if (!st && !known_service(service)) st = hr_error(HR_NOT_FOUND, "unknown service %s", service);
  if (st) {
    srv_grpc_fail_status(r, st);
    return;
  }
  hr_pb_put_uint(&r->body, 1, (uint64_t)serving_status(s));
}

/* grpc.health.v1.Health/Watch (a watching method, grpc.h): the status as Check answers it, and
 * SERVICE_UNKNOWN (3) for a service this server does not have, as the protocol asks. */
static void handle_health_watch(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  char service[256];
  hr_status st = read_service(rq, service, sizeof service);
  if (st) {
    srv_grpc_fail_status(r, st);
    return;
  }
  hr_pb_put_uint(&r->body, 1, known_service(service) ? (uint64_t)serving_status(s) : 3);
}

/* Compares a token in time that does not depend on where the texts differ. */
static bool token_equal(const char *given, const char *token) {
  size_t n = strlen(token), m = strlen(given);
  unsigned char diff = (unsigned char)(n != m);
  for (size_t i = 0; i < n; i++) diff |= (unsigned char)(token[i] ^ (i < m ? given[i] : 0));
  return diff == 0;
}

/* Checks a call's "authorization: Bearer TOKEN" against --admin_token_file: PERMISSION_DENIED
 * without that flag or for a wrong token, UNAUTHENTICATED without the header. */
static bool admin_allowed(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  const char *token = s->opts.admin_token;
  const char *auth = rq->authorization;
  if (!token) {
    srv_grpc_fail(r, SRV_PERMISSION_DENIED,
                  hr_error(HR_INVALID_ARGUMENT, "reloading the configuration is disabled: start the server with "
                                                "--admin_token_file to allow it"));
    return false;
  }
  if (!auth || strncmp(auth, "Bearer ", 7) != 0) {
    srv_grpc_fail(r, SRV_UNAUTHENTICATED,
                  hr_error(HR_INVALID_ARGUMENT, "HandleReloadConfigRequest needs 'authorization: Bearer TOKEN'"));
    return false;
  }
  if (!token_equal(auth + 7, token)) {
    srv_grpc_fail(r, SRV_PERMISSION_DENIED, hr_error(HR_INVALID_ARGUMENT, "the admin token does not match"));
    return false;
  }
  return true;
}

/* ModelService/HandleReloadConfigRequest: the caller's token checked, the ModelServerConfig
 * (field 1) applied (srv_service_reconfigure: it returns once the new models have loaded), the
 * answer a ReloadConfigResponse with an OK StatusProto; errors as TF Serving returns them, as the
 * call's status. */
static void handle_reload(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  if (!admin_allowed(s, rq, r)) return;
  hr_pb c = hr_pb_open("ReloadConfigRequest", rq->msg, rq->len);
  hr_pb_field f;
  bool more, found = false;
  srv_config config = {0};
  hr_status st = NULL;
  while (!st && !(st = hr_pb_next(&c, &f, &more)) && more) {
    if (f.number != 1) continue;
    srv_config_free(&config);
    st = hr_pb_want(&c, &f, HR_PB_LEN, "config");
    if (!st) st = srv_grpc_read_config(f.data, f.len, &config);
    found = true;
  }
  if (!st && !found)
    st = hr_error(HR_INVALID_ARGUMENT, "ServerModelConfig type not supported by HandleReloadConfigRequest. Only "
                                       "ModelConfigList is currently supported");
  if (!st) st = srv_service_reconfigure(&s->svc, &config);
  srv_config_free(&config);
  if (st) {
    srv_grpc_fail_status(r, st);
    return;
  }
  hr_pb_put_len(&r->body, 1, 0); /* status: an empty StatusProto, error_code OK */
}

/* ---------------------------------------------------------------------------------------------- */
/* Methods                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static const srv_grpc_method kMethods[] = {
    {"/tensorflow.serving.PredictionService/Predict", handle_predict, true, false},
    {"/tensorflow.serving.PredictionService/GetModelMetadata", handle_metadata, false, false},
    {"/tensorflow.serving.PredictionService/Classify", handle_classify, false, false},
    {"/tensorflow.serving.PredictionService/Regress", handle_regress, false, false},
    {"/tensorflow.serving.PredictionService/MultiInference", handle_multi_inference, false, false},
    {"/tensorflow.serving.ModelService/GetModelStatus", handle_status, false, false},
    {"/tensorflow.serving.ModelService/HandleReloadConfigRequest", handle_reload, true, false},
    {"/grpc.health.v1.Health/Check", handle_health, false, false},
    {"/grpc.health.v1.Health/Watch", handle_health_watch, false, true},
};

const srv_grpc_method *srv_grpc_method_find(const char *path) {
  for (size_t i = 0; i < sizeof kMethods / sizeof kMethods[0]; i++)
    if (strcmp(kMethods[i].path, path) == 0) return &kMethods[i];
  return srv_grpc_kserve_method_find(path);
}

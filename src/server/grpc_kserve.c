/* KServe's Open Inference Protocol over gRPC (inference.GRPCInferenceService, proto/kserve):
 * liveness, readiness, server and model metadata, and ModelInfer on a version's serving_default
 * signature, through the model service (grpc.h). Datatype names and raw tensors are
 * kserve_types.h's, shared with the KServe REST adapter. Inputs come as raw_input_contents (one
 * per input, in order: a memcpy) or typed contents; outputs are always raw_output_contents. */
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/protobuf/pb.h"
#include "server/grpc.h"
#include "server/grpc_tensor.h"
#include "server/internal.h"
#include "server/kserve_types.h"

enum {
  MAX_TENSORS = HR_LIMIT_ARTIFACT_ENTRIES, /* inputs or raw contents in one request */
  VERSION_TEXT = 24,
};

/* Reads a model version string ("" : the latest AVAILABLE one) into a selector. */
static hr_status parse_version(const char *text, srv_selector *sel) {
  sel->kind = SRV_SELECT_LATEST;
  if (!text[0]) return NULL;
  char *end;
  long long v = strtoll(text, &end, 10);
  if (*end || v < 0) return hr_error(HR_INVALID_ARGUMENT, "invalid model version '%s'", text);
  sel->kind = SRV_SELECT_VERSION;
  sel->version = v;
  return NULL;
}

/* Reads the name (field 1) and version (field 2) strings of ModelReadyRequest or
 * ModelMetadataRequest. */
static hr_status read_name_version(const srv_grpc_request *rq, char *name, char *version) {
  hr_pb c = hr_pb_open("request", rq->msg, rq->len);
  hr_pb_field f;
  bool more;
  name[0] = version[0] = '\0';
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) return NULL;
    if (f.number != 1 && f.number != 2) continue;
    HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, f.number == 1 ? "name" : "version"));
    if (f.number == 1) HR_TRY(srv_grpc_copy_string(f.data, f.len, name, HR_LIMIT_URL_SEGMENT, "the model name"));
    if (f.number == 2) HR_TRY(srv_grpc_copy_string(f.data, f.len, version, VERSION_TEXT, "the model version"));
  }
}

/* Acquires the version a request names; NOT_FOUND for a model that is not configured. */
static hr_status acquire(srv_server *s, const char *name, const char *version, srv_servable **sv) {
  srv_selector sel;
  HR_TRY(parse_version(version, &sel));
  return srv_service_acquire(&s->svc, name, &sel, sv);
}

/* ServerLive: the process answers. */
static void handle_live(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  (void)s, (void)rq;
  hr_pb_put_uint(&r->body, 1, 1);
}

/* ServerReady: every model has an AVAILABLE version. */
static void handle_ready(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  (void)rq;
  hr_strbuf reason;
  hr_strbuf_init(&reason, NULL);
  if (srv_service_ready(&s->svc, &reason)) hr_pb_put_uint(&r->body, 1, 1);
  hr_strbuf_free(&reason);
}

/* ModelReady: whether the version named can take requests; NOT_FOUND for an unknown model. */
static void handle_model_ready(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  char name[HR_LIMIT_URL_SEGMENT], version[VERSION_TEXT];
  srv_servable *sv = NULL;
  hr_status st = read_name_version(rq, name, version);
  r->model = srv_registry_model_name(s->svc.registry, name);
  if (!st && !srv_registry_model_name(s->svc.registry, name))
    st = hr_error(HR_NOT_FOUND, "Could not find any versions of model %s", name);
  if (st) {
    srv_grpc_fail_status(r, st);
    return;
  }
  st = acquire(s, name, version, &sv);
  if (sv) srv_service_release(&s->svc, sv);
  if (st && hr_status_code(st) != HR_NOT_FOUND) {
    srv_grpc_fail_status(r, st);
    return;
  }
  hr_status_free(st);
  if (sv) hr_pb_put_uint(&r->body, 1, 1);
}

/* ServerMetadata: the server's name and version; no extensions. */
static void handle_server_metadata(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  (void)s, (void)rq;
  hr_pb_put_string(&r->body, 1, "hlorun");
  hr_pb_put_string(&r->body, 2, hr_version_string());
}

/* Appends TensorMetadata entries (field `number`) of a signature's tensors: name, datatype, shape
 * (-1 for dynamic dims). A type KServe has no name for shows its MLIR spelling. */
static void put_tensor_metadata(hr_strbuf *b, uint32_t number, const srv_tensor_info *list, int n) {
  hr_strbuf t, dims;
  hr_strbuf_init(&t, NULL);
  hr_strbuf_init(&dims, NULL);
  for (int i = 0; i < n; i++) {
    const char *type = srv_kserve_datatype_name(list[i].spec.dtype);
    t.len = dims.len = 0;
    hr_pb_put_string(&t, 1, list[i].name);
    hr_pb_put_string(&t, 2, type ? type : hr_dtype_name(list[i].spec.dtype));
    for (int d = 0; d < list[i].spec.shape.rank; d++) hr_pb_put_varint(&dims, (uint64_t)list[i].spec.shape.dims[d]);
    srv_grpc_put_message(&t, 3, &dims);
    srv_grpc_put_message(b, number, &t);
  }
  hr_strbuf_free(&t);
  hr_strbuf_free(&dims);
}

/* ModelMetadata: the model's AVAILABLE versions, and the serving_default signature of the one
 * named (else the latest). */
static void handle_model_metadata(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  char name[HR_LIMIT_URL_SEGMENT], version[VERSION_TEXT];
  srv_servable *sv = NULL;
  const srv_target *t = NULL;
  srv_model_status ms = {0};
  srv_selector all = {.kind = SRV_SELECT_LATEST};
  hr_status st = read_name_version(rq, name, version);
  r->model = srv_registry_model_name(s->svc.registry, name);
  if (!st) st = acquire(s, name, version, &sv);
  if (!st) st = srv_service_target(sv, "", &t);
  if (!st) st = srv_service_status(&s->svc, name, &all, &ms);
  if (st) {
    if (sv) srv_service_release(&s->svc, sv);
    srv_grpc_fail_status(r, st);
    return;
  }
  hr_pb_put_string(&r->body, 1, sv->model);
  for (int i = 0; i < ms.n_versions; i++) {
    if (ms.versions[i].state != SRV_STATE_AVAILABLE) continue;
    char v[VERSION_TEXT];
    snprintf(v, sizeof v, "%lld", (long long)ms.versions[i].version);
    hr_pb_put_string(&r->body, 2, v);
  }
  hr_pb_put_string(&r->body, 3, "hlorun");
  put_tensor_metadata(&r->body, 4, t->signature.inputs, t->signature.n_inputs);
  put_tensor_metadata(&r->body, 5, t->signature.outputs, t->signature.n_outputs);
  srv_model_status_free(&ms);
  srv_service_release(&s->svc, sv);
}

/* ---------------------------------------------------------------------------------------------- */
/* ModelInfer                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* One InferInputTensor as read, its payload a view into the request. */
typedef struct infer_input {
  char name[HR_LIMIT_NAME_BYTES];
  hr_dtype dtype;
  int rank;
  int64_t dims[HR_MAX_RANK];
  const uint8_t *contents; /* InferTensorContents, or NULL */
  size_t contents_len;
} infer_input;

/* A ModelInferRequest as read. */
typedef struct infer_request {
  char model[HR_LIMIT_URL_SEGMENT];
  char version[VERSION_TEXT];
  const uint8_t *id;
  size_t id_len;
  infer_input *inputs;
  int n_inputs;
  hr_pb_field *raw; /* raw_input_contents */
  int n_raw;
} infer_request;

/* Reads an InferInputTensor's shape: repeated int64 (packed or not). */
static hr_status read_dims(const hr_pb *c, const hr_pb_field *f, infer_input *in) {
  if (f->wire == HR_PB_VARINT) {
    if (in->rank == HR_MAX_RANK)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': more than %d dimensions", in->name, HR_MAX_RANK);
    in->dims[in->rank++] = (int64_t)f->u;
    return NULL;
  }
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "shape"));
  hr_pb p = hr_pb_sub(c, f);
  for (;;) {
    uint64_t v;
    bool more;
    HR_TRY(hr_pb_next_packed(&p, &v, &more));
    if (!more) return NULL;
    if (in->rank == HR_MAX_RANK)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': more than %d dimensions", in->name, HR_MAX_RANK);
    in->dims[in->rank++] = (int64_t)v;
  }
}

/* Reads an InferInputTensor: name, datatype, shape, contents. */
static hr_status read_input(const hr_pb *c, const hr_pb_field *f, infer_input *in) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "inputs"));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more, typed = false;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == 3) {
      HR_TRY(read_dims(&sub, &g, in));
      continue;
    }
    if (g.number != 1 && g.number != 2 && g.number != 5) continue;
    HR_TRY(hr_pb_want(&sub, &g, HR_PB_LEN, "an input tensor field"));
    if (g.number == 1) HR_TRY(srv_grpc_copy_string(g.data, g.len, in->name, sizeof in->name, "an input name"));
    if (g.number == 2) {
      HR_TRY(srv_kserve_datatype_parse((const char *)g.data, g.len, &in->dtype));
      typed = true;
    }
    if (g.number == 5) {
      in->contents = g.data;
      in->contents_len = g.len;
    }
  }
  if (!typed) return hr_error(HR_INVALID_ARGUMENT, "input '%s' has no datatype", in->name);
  return NULL;
}

/* Reads a ModelInferRequest. */
static hr_status read_infer(const srv_grpc_request *rq, infer_request *q) {
  memset(q, 0, sizeof *q);
  hr_pb c = hr_pb_open("ModelInferRequest", rq->msg, rq->len);
  int n_in, n_raw;
  HR_TRY(hr_pb_count_in(&c, 5, MAX_TENSORS, &n_in));
  HR_TRY(hr_pb_count_in(&c, 7, MAX_TENSORS, &n_raw));
  q->inputs = calloc((size_t)n_in + 1, sizeof *q->inputs);
  q->raw = calloc((size_t)n_raw + 1, sizeof *q->raw);
  if (!q->inputs || !q->raw) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_pb_field f;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) break;
    if (f.number == 5) HR_TRY(read_input(&c, &f, &q->inputs[q->n_inputs++]));
    if (f.number > 3 && f.number != 7) continue;
    if (f.number != 5) HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, "a ModelInferRequest field"));
    if (f.number == 1) HR_TRY(srv_grpc_copy_string(f.data, f.len, q->model, sizeof q->model, "model_name"));
    if (f.number == 2) HR_TRY(srv_grpc_copy_string(f.data, f.len, q->version, sizeof q->version, "model_version"));
    if (f.number == 3) {
      q->id = f.data;
      q->id_len = f.len;
    }
    if (f.number == 7) q->raw[q->n_raw++] = f;
  }
  if (q->n_raw && q->n_raw != q->n_inputs)
    return hr_error(HR_INVALID_ARGUMENT, "expected %d raw_input_contents (one per input), got %d", q->n_inputs,
                    q->n_raw);
  return NULL;
}

/* The InferTensorContents field holding element type t: bool 1, int 2 (INT8/16/32), int64 3, uint
 * 4 (UINT8/16/32), uint64 5, fp32 6, fp64 7; number 0 for FP16/BF16, which must come raw. */
static srv_grpc_values contents_field(hr_dtype t) {
  switch (t) {
    case HR_I1: return (srv_grpc_values){1, SRV_VALUE_VARINT, 1, false};
    case HR_I8:
    case HR_I16:
    case HR_I32: return (srv_grpc_values){2, SRV_VALUE_VARINT, 1, true};
    case HR_I64: return (srv_grpc_values){3, SRV_VALUE_VARINT, 1, false};
    case HR_U8:
    case HR_U16:
    case HR_U32: return (srv_grpc_values){4, SRV_VALUE_VARINT, 1, false};
    case HR_U64: return (srv_grpc_values){5, SRV_VALUE_VARINT, 1, false};
    case HR_F32: return (srv_grpc_values){6, SRV_VALUE_FIXED32, 1, false};
    case HR_F64: return (srv_grpc_values){7, SRV_VALUE_FIXED64, 1, false};
    default: return (srv_grpc_values){0, SRV_VALUE_VARINT, 1, false};
  }
}

/* Makes the tensor of input `in` (raw bytes when given, else its typed contents). */
static hr_status make_input(const infer_input *in, const hr_pb_field *raw, int64_t *budget, hr_tensor **out) {
  hr_shape shape;
  int64_t n;
  HR_TRY(srv_kserve_shape(in->name, in->dims, in->rank, *budget, &shape, &n));
  *budget -= n;
  if (raw) return srv_kserve_tensor_from_raw(in->name, in->dtype, &shape, raw->data, raw->len, out);
  srv_grpc_values vf = contents_field(in->dtype);
  if (!vf.number)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': %s data must be sent in raw_input_contents", in->name,
                    srv_kserve_datatype_name(in->dtype));
  int64_t count = 0;
  if (in->contents) HR_TRY(srv_grpc_values_count(in->contents, in->contents_len, vf, &count));
  if (count != n)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': %lld values in contents for a shape of %lld elements", in->name,
                    (long long)count, (long long)n);
  HR_TRY(hr_tensor_create(NULL, in->dtype, &shape, 0, out));
  hr_status st = in->contents ? srv_grpc_values_read(in->name, in->contents, in->contents_len, vf, *out) : NULL;
  if (st) {
    hr_tensor_free(*out);
    *out = NULL;
  }
  return st;
}

/* The request's inputs in signature order, each checked against the signature's type and dims. */
static hr_status gather_inputs(srv_server *s, const infer_request *q, const srv_signature *sig, hr_tensor **tensors) {
  if (q->n_inputs != sig->n_inputs)
    return hr_error(HR_INVALID_ARGUMENT, "expected %d inputs but got %d inputs for model '%s'", sig->n_inputs,
                    q->n_inputs, q->model);
  int64_t budget = s->opts.max_tensor_elements;
  for (int i = 0; i < q->n_inputs; i++) {
    const infer_input *in = &q->inputs[i];
    int k = 0;
    while (k < sig->n_inputs && strcmp(sig->inputs[k].name, in->name) != 0) k++;
    if (k == sig->n_inputs)
      return hr_error(HR_INVALID_ARGUMENT, "unexpected inference input '%s' for model '%s'", in->name, q->model);
    if (tensors[k]) return hr_error(HR_INVALID_ARGUMENT, "input '%s' is given twice", in->name);
    const hr_tensor_spec *spec = &sig->inputs[k].spec;
    if (in->dtype != spec->dtype) {
      const char *want = srv_kserve_datatype_name(spec->dtype);
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': datatype %s, the model expects %s", in->name,
                      srv_kserve_datatype_name(in->dtype), want ? want : hr_dtype_name(spec->dtype));
    }
    bool ok = in->rank == spec->shape.rank;
    for (int d = 0; ok && d < in->rank; d++)
      ok = spec->shape.dims[d] == HR_DYNAMIC || spec->shape.dims[d] == in->dims[d];
    if (!ok) return hr_error(HR_INVALID_ARGUMENT, "input '%s': the shape does not match the model's", in->name);
    HR_TRY(make_input(in, q->n_raw ? &q->raw[i] : NULL, &budget, &tensors[k]));
  }
  return NULL;
}

/* Appends the ModelInferResponse: model, version, id, each output's name, datatype and shape, and
 * raw_output_contents. */
static hr_status put_infer_response(srv_grpc_reply *r, const infer_request *q, const srv_servable *sv,
                                    const srv_signature *sig, hr_tensor *const *outputs) {
  char v[VERSION_TEXT];
  snprintf(v, sizeof v, "%lld", (long long)sv->version);
  hr_pb_put_string(&r->body, 1, sv->model);
  hr_pb_put_string(&r->body, 2, v);
  if (q->id_len) hr_pb_put_bytes(&r->body, 3, q->id, q->id_len);
  hr_strbuf t, dims;
  hr_strbuf_init(&t, NULL);
  hr_strbuf_init(&dims, NULL);
  hr_status st = NULL;
  for (int k = 0; !st && k < sig->n_outputs; k++) {
    const char *type = srv_kserve_datatype_name(outputs[k]->dtype);
    if (!type) {
      st = hr_error(HR_UNIMPLEMENTED, "output '%s' is %s, which KServe has no datatype for", sig->outputs[k].name,
                    hr_dtype_name(outputs[k]->dtype));
      break;
    }
    t.len = dims.len = 0;
    hr_pb_put_string(&t, 1, sig->outputs[k].name);
    hr_pb_put_string(&t, 2, type);
    for (int d = 0; d < outputs[k]->shape.rank; d++) hr_pb_put_varint(&dims, (uint64_t)outputs[k]->shape.dims[d]);
    srv_grpc_put_message(&t, 3, &dims);
    srv_grpc_put_message(&r->body, 5, &t);
  }
  for (int k = 0; !st && k < sig->n_outputs; k++) hr_pb_put_bytes(&r->body, 6, outputs[k]->data, outputs[k]->nbytes);
  hr_strbuf_free(&t);
  hr_strbuf_free(&dims);
  return st ? st : hr_strbuf_status(&r->body);
}

/* Runs a read request on an acquired version's serving_default signature. */
static hr_status infer_on(srv_server *s, const srv_grpc_request *rq, const infer_request *q, const srv_servable *sv,
                          srv_grpc_reply *r, srv_code *code) {
  const srv_target *t = NULL;
  hr_status st = srv_service_target(sv, "", &t);
  if (!st) st = srv_service_check_runnable(t);
  const srv_signature *sig = st ? NULL : &t->signature;
  hr_tensor **inputs = st ? NULL : calloc((size_t)sig->n_inputs + 1, sizeof *inputs);
  if (!st && !inputs) st = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!st) st = gather_inputs(s, q, sig, inputs);
  *code = st ? srv_code_of(hr_status_code(st)) : SRV_OK;
  hr_tensor **outputs = NULL;
  int n_outputs = 0;
  if (!st) st = srv_service_predict(&s->svc, t, inputs, sig->n_inputs, rq->call, &outputs, &n_outputs, code);
  if (!st) {
    st = put_infer_response(r, q, sv, sig, outputs);
    if (st) *code = srv_code_of(hr_status_code(st));
  }
  if (outputs) hr_tensors_free(outputs, n_outputs);
  for (int k = 0; inputs && k < sig->n_inputs; k++) hr_tensor_free(inputs[k]);
  free(inputs);
  return st;
}

/* ModelInfer. */
static void handle_infer(srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r) {
  infer_request q;
  srv_servable *sv = NULL;
  hr_status st = read_infer(rq, &q);
  r->model = srv_registry_model_name(s->svc.registry, q.model);
  if (!st) st = acquire(s, q.model, q.version, &sv);
  srv_code code = st ? srv_code_of(hr_status_code(st)) : SRV_OK;
  if (!st) st = infer_on(s, rq, &q, sv, r, &code);
  if (sv) srv_service_release(&s->svc, sv);
  free(q.inputs);
  free(q.raw);
  if (st) srv_grpc_fail(r, code, st);
}

static const srv_grpc_method kMethods[] = {
    {"/inference.GRPCInferenceService/ServerLive", handle_live, false, false},
    {"/inference.GRPCInferenceService/ServerReady", handle_ready, false, false},
    {"/inference.GRPCInferenceService/ModelReady", handle_model_ready, false, false},
    {"/inference.GRPCInferenceService/ServerMetadata", handle_server_metadata, false, false},
    {"/inference.GRPCInferenceService/ModelMetadata", handle_model_metadata, false, false},
    {"/inference.GRPCInferenceService/ModelInfer", handle_infer, true, false},
};

const srv_grpc_method *srv_grpc_kserve_method_find(const char *path) {
  for (size_t i = 0; i < sizeof kMethods / sizeof kMethods[0]; i++)
    if (strcmp(kMethods[i].path, path) == 0) return &kMethods[i];
  return NULL;
}

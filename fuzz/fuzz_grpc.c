/* libFuzzer target for the gRPC request decoders (src/server/grpc_*.c): every request message a
 * method reads must decode or fail cleanly, and a TensorProto that decodes must encode and decode
 * back to the same tensor.
 *
 * Input: the first byte picks what the rest is: below 0x80, a request message for the method
 * kPaths[byte % N] (its handler, or a producing method's start, runs against a server with no
 * models, so decoding is all that happens before the model lookup fails); from 0x80, a
 * TensorProto (fuzz/corpus_grpc/ seeds both kinds). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "server/grpc.h"
#include "server/grpc_tensor.h"
#include "server/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kPaths[] = {
    "/tensorflow.serving.PredictionService/Predict",
    "/tensorflow.serving.PredictionService/GetModelMetadata",
    "/tensorflow.serving.PredictionService/Classify",
    "/tensorflow.serving.PredictionService/Regress",
    "/tensorflow.serving.PredictionService/MultiInference",
    "/tensorflow.serving.ModelService/GetModelStatus",
    "/tensorflow.serving.ModelService/HandleReloadConfigRequest",
    "/grpc.health.v1.Health/Check",
    "/grpc.health.v1.Health/Watch",
    "/inference.GRPCInferenceService/ServerLive",
    "/inference.GRPCInferenceService/ServerReady",
    "/inference.GRPCInferenceService/ModelReady",
    "/inference.GRPCInferenceService/ServerMetadata",
    "/inference.GRPCInferenceService/ModelMetadata",
    "/inference.GRPCInferenceService/ModelInfer",
    "/hlorun.GenerationService/Generate",
};
enum { N_PATHS = sizeof kPaths / sizeof kPaths[0], MAX_ELEMENTS = 1 << 16 };

/* A server with no models: what the handlers need (the service, the options). Made once. */
static srv_server *server(void) {
  static srv_server *s;
  if (s) return s;
  s = calloc(1, sizeof *s);
  if (!s) abort();
  srv_options_defaults(&s->opts);
  s->opts.max_tensor_elements = MAX_ELEMENTS;
  srv_config empty = {0};
  hr_exec_options exec = {0};
  srv_load_limits limits = {.max_model_bytes = 1, .max_total_bytes = 1};
  hr_status st = srv_registry_create(&empty, &exec, &limits, stderr, &s->svc.registry);
  if (st) abort();
  return s;
}

/* Runs one method's handler (or a producing method's start) on the message. */
static void run_method(const char *path, const uint8_t *msg, size_t len) {
  const srv_grpc_method *m = srv_grpc_method_find(path);
  const srv_grpc_stream_method *producing = m ? NULL : srv_grpc_stream_method_find(path);
  if (!m && !producing) abort();
  srv_call call = {0};
  srv_grpc_request rq = {.msg = msg, .len = len, .call = &call};
  srv_grpc_reply r = {.code = SRV_OK};
  hr_strbuf_init(&r.message, NULL);
  hr_strbuf_init(&r.body, NULL);
  if (m) {
    m->handler(server(), &rq, &r);
  } else {
    producing->start(server(), &rq, NULL, &r);
    if (r.code == SRV_OK) abort(); /* no model is found: the start fails before it takes the feed */
  }
  hr_strbuf_free(&r.message);
  hr_strbuf_free(&r.body);
}

/* Decodes a TensorProto; one that decodes must read back the same from its encoding. */
static void round_trip(const uint8_t *msg, size_t len) {
  int64_t budget = MAX_ELEMENTS;
  hr_tensor *t;
  hr_status st = srv_grpc_tensor_decode("x", msg, len, &budget, &t);
  if (st) {
    hr_status_free(st);
    return;
  }
  size_t n = srv_grpc_tensor_size(t);
  if (!n) abort(); /* every dtype a TensorProto decodes to has a DataType */
  hr_strbuf b;
  hr_strbuf_init(&b, NULL);
  srv_grpc_tensor_put(&b, t);
  if (b.failed || b.len != n) abort();
  int64_t again_budget = MAX_ELEMENTS;
  hr_tensor *u;
  st = srv_grpc_tensor_decode("x", (const uint8_t *)b.data, b.len, &again_budget, &u);
  if (st) abort();
  if (u->dtype != t->dtype || u->shape.rank != t->shape.rank || u->nbytes != t->nbytes ||
      memcmp(u->shape.dims, t->shape.dims, sizeof t->shape.dims[0] * (size_t)t->shape.rank) != 0 ||
      (t->nbytes && memcmp(u->data, t->data, t->nbytes) != 0))
    abort();
  hr_tensor_free(u);
  hr_tensor_free(t);
  hr_strbuf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  if (data[0] < 0x80)
    run_method(kPaths[data[0] % N_PATHS], data + 1, size - 1);
  else
    round_trip(data + 1, size - 1);
  return 0;
}

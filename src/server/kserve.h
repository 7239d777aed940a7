/* KServe v2 (the Open Inference Protocol) over the REST server, as an adapter over the model
 * service (service.h) beside TensorFlow Serving's API (rest.c routes every /v2 path here):
 *
 *   GET  /v2                                       server metadata (name, version, extensions)
 *   GET  /v2/health/live, /v2/health/ready         200 (empty body) when true, 400 when not
 *   GET  /v2/models/M[/versions/V]                 model metadata: the serving_default signature
 *   GET  /v2/models/M[/versions/V]/ready           200 / 400; 404 for an unknown model
 *   POST /v2/models/M[/versions/V]/infer           inference, JSON tensors or binary tensor data
 *
 * Requests run the version's serving_default signature. Inputs are given by name with their
 * datatype (which must be the signature's: no conversion) and shape, their elements in "data"
 * (row-major, flat or nested) or, with Triton's binary tensor data extension, as raw little-endian
 * bytes after the JSON ("parameters": {"binary_data_size": N}, the JSON's length in the
 * Inference-Header-Content-Length header). "outputs" selects and orders the outputs answered,
 * each as JSON or as binary data ("binary_data"; "binary_data_output" in the request's parameters
 * sets the default). Errors are {"error": "..."} with the HTTP status of their canonical code
 * (400 for bad requests, 404 for unknown models). */
#ifndef HLORUN_SERVER_KSERVE_H
#define HLORUN_SERVER_KSERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "hlorun/hlorun.h"
#include "server/internal.h"
#include "server/predict.h"

/* Answers a request whose path is /v2 or starts with /v2/. */
void srv_kserve_handle(srv_server *s, const char *method, const char *path, const srv_rest_headers *headers,
                       const char *body, size_t len, const srv_call *call, srv_reply *r);

/* An inference request, parsed against a signature. */
typedef struct srv_kserve_request {
  char *id;           /* the request's "id" (echoed in the answer), or NULL */
  int n_inputs;       /* the signature's */
  hr_tensor **inputs; /* one per signature input, in signature order; owned */
  int n_outputs;      /* outputs to answer */
  int *outputs;       /* per output answered, in answer order: its index in the signature */
  bool *binary;       /* per output answered: as binary tensor data */
} srv_kserve_request;

/* The length of a body's JSON part: `header` (Inference-Header-Content-Length, NULL when absent:
 * all of it) as a decimal number at most `len`. INVALID_ARGUMENT otherwise. */
hr_status srv_kserve_json_length(const char *header, size_t len, size_t *json_len);

/* Parses an inference request: `json_len` bytes of JSON, then the binary tensor data (len -
 * json_len bytes, consumed exactly by the inputs' binary_data_size in the order they are listed).
 * Every signature input must be given once; the element count over all inputs is bounded by
 * limits->max_tensor_elements, nesting by limits->max_json_depth. INVALID_ARGUMENT naming what is
 * wrong (UNIMPLEMENTED for BYTES). */
hr_status srv_kserve_parse_infer(const char *body, size_t len, size_t json_len, const srv_signature *sig,
                                 const srv_predict_limits *limits, srv_kserve_request *out);
void srv_kserve_request_free(srv_kserve_request *r);

/* Appends the inference response for the signature's `outputs` (all of them, in signature order):
 * {"model_name", "model_version", "id", "outputs": [...]}, followed by the binary data of the
 * outputs answered as binary. *json_len is the length of the JSON part. UNIMPLEMENTED for an
 * output whose element type KServe has no datatype for. */
hr_status srv_kserve_encode_infer(const char *model, int64_t version, const srv_signature *sig,
                                  const srv_kserve_request *req, hr_tensor *const *outputs, hr_strbuf *sb,
                                  size_t *json_len);

#endif

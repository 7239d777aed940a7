/* Model signatures and the predict API's JSON: requests become input tensors, output tensors become
 * responses, in TensorFlow Serving's row ("instances"/"predictions") and columnar
 * ("inputs"/"outputs") formats (docs/serving.md). */
#ifndef HLORUN_SERVER_PREDICT_H
#define HLORUN_SERVER_PREDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "hlorun/hlorun.h"

/* One named input or output: its name and spec (dynamic dims as HR_DYNAMIC). */
typedef struct srv_tensor_info {
  char *name;
  hr_tensor_spec spec;
} srv_tensor_info;

/* The "serving_default" signature of a model version: the program's runtime inputs (named by
 * jax.arg_info, else "argN") and outputs (named by jax.result_info, else "outN"). */
typedef struct srv_signature {
  int n_inputs;
  srv_tensor_info *inputs;
  int n_outputs;
  srv_tensor_info *outputs;
} srv_signature;

/* The only signature name a model has (an empty signature_name selects it too). */
#define SRV_SIGNATURE_NAME "serving_default"

/* Reads a program's signature. Fails when two inputs share a name (requests could not address
 * them). */
hr_status srv_signature_from_program(const hr_program *p, srv_signature *out);
void srv_signature_free(srv_signature *s);
/* Whether requests can be merged along dimension 0: every input and output has rank >= 1 and a
 * dynamic first dimension. */
bool srv_signature_batchable(const srv_signature *s);
/* TensorFlow's name of an element type: "DT_FLOAT", "DT_INT32", ... */
const char *srv_dtype_tf_name(hr_dtype t);
/* Appends the signature as the JSON of TensorFlow's SignatureDef map:
 * {"serving_default": {"inputs": {...}, "outputs": {...}, "method_name": ...}}. */
void srv_signature_append_json(const srv_signature *s, hr_strbuf *sb);

/* The format of a predict request, which its response mirrors. */
typedef enum srv_predict_format {
  SRV_FORMAT_ROW,      /* {"instances": [...]} -> {"predictions": [...]} */
  SRV_FORMAT_COLUMNAR, /* {"inputs": ...} -> {"outputs": ...} */
} srv_predict_format;

/* Bounds on what one request may hold. */
typedef struct srv_predict_limits {
  int max_json_depth;          /* nesting of arrays and objects */
  int64_t max_tensor_elements; /* elements over all inputs */
} srv_predict_limits;

typedef struct srv_predict_request {
  srv_predict_format format;
  int n_inputs;
  hr_tensor **inputs; /* one per signature input, in signature order; owned */
} srv_predict_request;

/* Parses a predict request body against a signature. Errors are INVALID_ARGUMENT (UNIMPLEMENTED
 * for complex inputs) with TensorFlow Serving's wording where it has one. */
hr_status srv_predict_parse(const char *body, size_t len, const srv_signature *sig, const srv_predict_limits *limits,
                            srv_predict_request *out);
void srv_predict_request_free(srv_predict_request *r);

/* Appends the response for `outputs` (one per signature output) in `format`. Row format needs
 * every output to have the same first dimension (>= 1), as in TensorFlow Serving. */
hr_status srv_predict_encode(const srv_signature *sig, srv_predict_format format, hr_tensor *const *outputs,
                             int n_outputs, hr_strbuf *sb);

#endif

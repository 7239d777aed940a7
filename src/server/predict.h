/* Model signatures and the predict API's JSON: requests become input tensors, output tensors become
 * responses, in TensorFlow Serving's row ("instances"/"predictions") and columnar
 * ("inputs"/"outputs") formats (docs/serving.md). */
#ifndef HLORUN_SERVER_PREDICT_H
#define HLORUN_SERVER_PREDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "formats/savedmodel/graph.h"
#include "hlorun/hlorun.h"
#include "server/json.h"

/* A tensor as a SavedModel's SignatureDef declares it (TensorFlow's TensorInfo), for metadata. */
typedef struct srv_declared {
  char *tensor;   /* the graph tensor, e.g. "serving_default_x:0"; NULL: not declared (see below) */
  int dtype;      /* TF DataType (DT_INVALID for __saved_model_init_op's output) */
  tf_shape shape; /* rank -1: unknown rank */
} srv_declared;

/* One named input or output: its name and spec (dynamic dims as HR_DYNAMIC), and how metadata
 * shows it. Without a declaration (declared.tensor NULL: an artifact's program) metadata shows the
 * name as the tensor's, and the spec's type and shape. */
typedef struct srv_tensor_info {
  char *name;
  hr_tensor_spec spec;
  srv_declared declared;
} srv_tensor_info;

/* A signature of a model version: its inputs and outputs. An artifact has one, "serving_default":
 * the program's runtime inputs (named by jax.arg_info, else "argN") and outputs (named by
 * jax.result_info, else "outN"). A SavedModel has its SignatureDefs (src/server/targets.h). */
typedef struct srv_signature {
  char *name;   /* its key in the SignatureDef map; NULL: SRV_SIGNATURE_NAME */
  char *method; /* its method_name; NULL: SRV_PREDICT_METHOD */
  int n_inputs;
  srv_tensor_info *inputs;
  int n_outputs;
  srv_tensor_info *outputs;
} srv_signature;

/* The signature a request without "signature_name" (or with an empty one) names, as in
 * TensorFlow Serving; the only signature of an artifact. */
#define SRV_SIGNATURE_NAME "serving_default"
/* The method_name of predict signatures. */
#define SRV_PREDICT_METHOD "tensorflow/serving/predict"

/* Reads a program's signature ("serving_default"). Fails when two inputs share a name (requests
 * could not address them). */
hr_status srv_signature_from_program(const hr_program *p, srv_signature *out);
void srv_signature_free(srv_signature *s);
/* The signature's name and method, defaults applied. */
const char *srv_signature_name(const srv_signature *s);
const char *srv_signature_method(const srv_signature *s);
/* Whether requests can be merged along dimension 0: every input and output has rank >= 1 and a
 * dynamic first dimension. */
bool srv_signature_batchable(const srv_signature *s);
/* TensorFlow's name of an element type: "DT_FLOAT", "DT_INT32", ... */
const char *srv_dtype_tf_name(hr_dtype t);
/* How metadata describes a tensor: as its SignatureDef declares it, else from its name and spec
 * (its TF dtype and shape, dynamic dims -1). rank -1: unknown rank. */
typedef struct srv_tensor_view {
  const char *tensor; /* TensorInfo.name */
  int tf_dtype;
  int rank;
  const int64_t *dims;
} srv_tensor_view;
srv_tensor_view srv_tensor_info_view(const srv_tensor_info *t);
/* Appends the signature as one entry of TensorFlow's SignatureDef map in JSON:
 * "name": {"inputs": {...}, "outputs": {...}, "method_name": ...}. */
void srv_signature_append_entry(const srv_signature *s, hr_strbuf *sb);
/* Appends a SignatureDef map holding only this signature: {entry}. */
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

/* Reads the "signature_name" member of a predict (or classify, regress) request's top-level object
 * into `name` (left empty when there is none), skipping the other members: which signature a
 * request is parsed against. Errors are srv_predict_parse's for the same faults. */
hr_status srv_predict_signature_name(const char *body, size_t len, const srv_predict_limits *limits, hr_strbuf *name);

/* Parses a predict request body against a signature. Errors are INVALID_ARGUMENT (UNIMPLEMENTED
 * for complex inputs) with TensorFlow Serving's wording where it has one. */
hr_status srv_predict_parse(const char *body, size_t len, const srv_signature *sig, const srv_predict_limits *limits,
                            srv_predict_request *out);
void srv_predict_request_free(srv_predict_request *r);

/* Reads one element of type t at the reader, appending its bytes (hlorun's memory layout) to `out`:
 * true or false for i1; an integer literal within the type's range for integer types; any number
 * token (NaN and Inf(inity) included) for f16, bf16, f32 and f64, a value beyond the type's range
 * becoming an infinity. `name` names the input in messages (TensorFlow Serving's type error);
 * UNIMPLEMENTED for other types. Shared by the predict and KServe parsers. */
hr_status srv_predict_read_element(srv_json *r, const char *name, hr_dtype t, hr_strbuf *out);
/* Appends element `i` of a tensor as JSON: true/false, integers, floats as srv_json_put_float
 * writes them (narrow floats as their f64 value), complex numbers as [re, im]. */
void srv_predict_put_element(hr_strbuf *sb, const hr_tensor *t, int64_t i);

/* Appends the response for `outputs` (one per signature output) in `format`. Row format needs
 * every output to have the same first dimension (>= 1), as in TensorFlow Serving. */
hr_status srv_predict_encode(const srv_signature *sig, srv_predict_format format, hr_tensor *const *outputs,
                             int n_outputs, hr_strbuf *sb);

#endif

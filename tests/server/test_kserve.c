/* KServe v2 (server/kserve_types.c, server/kserve.c): datatype names, shapes and raw tensors; the
 * inference request parser on JSON and binary tensor data, its errors, and corrupted requests
 * (never a crash); the response encoder in JSON and binary. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/strbuf.h"
#include "server/kserve.h"
#include "server/kserve_types.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Types                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

TEST(datatype_names_round_trip) {
  static const char *const names[] = {"BOOL",  "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16",
                                      "INT32", "INT64", "FP16",   "BF16",   "FP32",   "FP64"};
  static const size_t sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    hr_dtype t = HR_DTYPE_INVALID;
    CHECK_OK(srv_kserve_datatype_parse(names[i], strlen(names[i]), &t));
    CHECK(srv_kserve_datatype_name(t) && strcmp(srv_kserve_datatype_name(t), names[i]) == 0);
    CHECK_EQ_INT(srv_kserve_element_size(t), sizes[i]);
  }
  hr_dtype t;
  hr_status s = srv_kserve_datatype_parse("BYTES", 5, &t);
  CHECK(s && hr_status_code(s) == HR_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(hr_status_message(s), "BYTES");
  hr_status_free(s);
  s = srv_kserve_datatype_parse("fp32", 4, &t);
  CHECK(s && hr_status_code(s) == HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(hr_status_message(s), "invalid datatype 'fp32'");
  hr_status_free(s);
  s = srv_kserve_datatype_parse("FP32x", 4, &t); /* only the first 4 bytes count */
  CHECK(!s && t == HR_F32);
  CHECK(strcmp(srv_kserve_datatype_name(HR_INDEX), "INT64") == 0);
  CHECK(srv_kserve_datatype_name(HR_C64) == NULL && srv_kserve_element_size(HR_C64) == 0);
  CHECK(srv_kserve_datatype_name(HR_I4) == NULL && srv_kserve_datatype_name(HR_F8E4M3FN) == NULL);
}

/* Checks that a status failed with `code` and a message holding `needle`, and frees it. */
static void check_fails(hr_status s, hr_code code, const char *needle) {
  CHECK(s != NULL);
  if (!s) return;
  CHECK_EQ_INT(hr_status_code(s), code);
  CHECK_STR_CONTAINS(hr_status_message(s), needle);
  hr_status_free(s);
}

TEST(shapes_are_checked) {
  hr_shape shape;
  int64_t n = -1;
  int64_t dims[HR_MAX_RANK + 1] = {2, 3, 4};
  CHECK_OK(srv_kserve_shape("x", dims, 3, 1000, &shape, &n));
  CHECK(n == 24 && shape.rank == 3 && shape.dims[2] == 4);
  CHECK_OK(srv_kserve_shape("x", dims, 0, 1000, &shape, &n));
  CHECK(n == 1 && shape.rank == 0);
  check_fails(srv_kserve_shape("x", dims, HR_MAX_RANK + 1, 1000, &shape, &n), HR_INVALID_ARGUMENT, "dimensions");
  int64_t negative[] = {2, -1};
  check_fails(srv_kserve_shape("x", negative, 2, 1000, &shape, &n), HR_INVALID_ARGUMENT, "dimension 1 is -1");
  int64_t huge[] = {INT64_MAX, INT64_MAX, 2};
  check_fails(srv_kserve_shape("x", huge, 3, 1000, &shape, &n), HR_INVALID_ARGUMENT, "more than 1000 elements");
  int64_t empty[] = {INT64_MAX, 0, INT64_MAX};
  CHECK_OK(srv_kserve_shape("x", empty, 3, 1000, &shape, &n));
  CHECK_EQ_INT(n, 0);
  int64_t over[] = {1001};
  check_fails(srv_kserve_shape("x", over, 1, 1000, &shape, &n), HR_INVALID_ARGUMENT, "more than 1000");
  size_t bytes;
  check_fails(srv_kserve_byte_size("x", HR_F64, INT64_MAX, &bytes), HR_INVALID_ARGUMENT, "overflow");
  check_fails(srv_kserve_byte_size("x", HR_C64, 1, &bytes), HR_INVALID_ARGUMENT, "no KServe datatype");
}

TEST(raw_tensors) {
  hr_shape shape = {.rank = 1, .dims = {3}};
  hr_tensor *t = NULL;
  const unsigned char bools[] = {0, 7, 1};
  CHECK_OK(srv_kserve_tensor_from_raw("b", HR_I1, &shape, bools, 3, &t));
  if (t) {
    const unsigned char *p = t->data;
    CHECK(p[0] == 0 && p[1] == 1 && p[2] == 1);
    hr_tensor_free(t);
  }
  const float f[] = {1, 2, 3};
  check_fails(srv_kserve_tensor_from_raw("x", HR_F32, &shape, f, 8, &t), HR_INVALID_ARGUMENT, "8 bytes");
  CHECK_OK(srv_kserve_tensor_from_raw("x", HR_F32, &shape, f, 12, &t));
  if (t) {
    CHECK(((const float *)t->data)[2] == 3);
    hr_tensor_free(t);
  }
}

TEST(json_length_header) {
  size_t n = 0;
  CHECK_OK(srv_kserve_json_length(NULL, 10, &n));
  CHECK_EQ_INT(n, 10);
  CHECK_OK(srv_kserve_json_length("4", 10, &n));
  CHECK_EQ_INT(n, 4);
  check_fails(srv_kserve_json_length("11", 10, &n), HR_INVALID_ARGUMENT, "exceeds the body's 10 bytes");
  check_fails(srv_kserve_json_length("x", 10, &n), HR_INVALID_ARGUMENT, "not a byte count");
  check_fails(srv_kserve_json_length("-1", 10, &n), HR_INVALID_ARGUMENT, "not a byte count");
  check_fails(srv_kserve_json_length("4 ", 10, &n), HR_INVALID_ARGUMENT, "not a byte count");
  check_fails(srv_kserve_json_length(" 4", 10, &n), HR_INVALID_ARGUMENT, "not a byte count");
  check_fails(srv_kserve_json_length("+4", 10, &n), HR_INVALID_ARGUMENT, "not a byte count");
  check_fails(srv_kserve_json_length("", 10, &n), HR_INVALID_ARGUMENT, "not a byte count");
  check_fails(srv_kserve_json_length("99999999999999999999999", 10, &n), HR_INVALID_ARGUMENT, "not a byte count");
}

/* ---------------------------------------------------------------------------------------------- */
/* Requests                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* x: f32[-1, 2], k: i32[3], m: i1[-1] -> y: f32[-1, 2], z: i64[-1]. */
typedef struct test_sig {
  srv_tensor_info inputs[3], outputs[2];
  srv_signature sig;
} test_sig;

static void set_info(srv_tensor_info *info, const char *name, hr_dtype t, int rank, int64_t d0, int64_t d1) {
  info->name = (char *)name;
  info->spec.dtype = t;
  info->spec.shape.rank = rank;
  info->spec.shape.dims[0] = d0;
  info->spec.shape.dims[1] = d1;
}

static void make_sig(test_sig *t) {
  memset(t, 0, sizeof *t);
  set_info(&t->inputs[0], "x", HR_F32, 2, HR_DYNAMIC, 2);
  set_info(&t->inputs[1], "k", HR_I32, 1, 3, 0);
  set_info(&t->inputs[2], "m", HR_I1, 1, HR_DYNAMIC, 0);
  set_info(&t->outputs[0], "y", HR_F32, 2, HR_DYNAMIC, 2);
  set_info(&t->outputs[1], "z", HR_I64, 1, HR_DYNAMIC, 0);
  t->sig.n_inputs = 3;
  t->sig.inputs = t->inputs;
  t->sig.n_outputs = 2;
  t->sig.outputs = t->outputs;
}

static const srv_predict_limits limits = {64, 1000};

/* The JSON of the three inputs, `x_data` the value of x's "data". */
#define K_INPUT "{\"name\": \"k\", \"datatype\": \"INT32\", \"shape\": [3], \"data\": [1, -2, 3]}"
#define M_INPUT "{\"name\": \"m\", \"datatype\": \"BOOL\", \"shape\": [2], \"data\": [true, false]}"

/* Parses a JSON request that must succeed. */
static bool parse_ok(const test_sig *t, const char *body, srv_kserve_request *req) {
  hr_status s = srv_kserve_parse_infer(body, strlen(body), strlen(body), &t->sig, &limits, req);
  if (!s) return true;
  fprintf(stderr, "unexpected error for %s: %s\n", body, hr_status_message(s));
  hr_status_free(s);
  test_failures_++;
  return false;
}

/* Parses a request (`len` bytes, `json_len` of JSON) that must fail with `code` and `needle`. */
static void parse_fails_n(const test_sig *t, const char *body, size_t len, size_t json_len, hr_code code,
                          const char *needle) {
  srv_kserve_request req;
  hr_status s = srv_kserve_parse_infer(body, len, json_len, &t->sig, &limits, &req);
  if (!s) {
    fprintf(stderr, "expected an error for %.*s\n", (int)json_len, body);
    test_failures_++;
    srv_kserve_request_free(&req);
    return;
  }
  CHECK(req.inputs == NULL && req.id == NULL);
  check_fails(s, code, needle);
}

static void parse_fails(const test_sig *t, const char *body, hr_code code, const char *needle) {
  parse_fails_n(t, body, strlen(body), strlen(body), code, needle);
}

TEST(json_requests) {
  test_sig t;
  make_sig(&t);
  srv_kserve_request req;
  /* nested data, members in any order, inputs in any order, unknown members ignored */
  const char *body = "{\"inputs\": [" M_INPUT ", {\"data\": [[1.5, -2], [Inf, 4e1]], \"shape\": [2, 2], "
                     "\"datatype\": \"FP32\", \"name\": \"x\", \"parameters\": {\"other\": \"v\"}}, " K_INPUT
                     "], \"id\": \"req-7\", \"extra\": [1, {}]}";
  if (parse_ok(&t, body, &req)) {
    CHECK(req.id && strcmp(req.id, "req-7") == 0);
    const hr_tensor *x = req.inputs[0], *k = req.inputs[1], *m = req.inputs[2];
    CHECK(x->shape.rank == 2 && x->shape.dims[0] == 2 && x->shape.dims[1] == 2);
    const float *xv = x->data;
    CHECK(xv[0] == 1.5f && xv[1] == -2 && isinf(xv[2]) && xv[3] == 40);
    CHECK(((const int32_t *)k->data)[1] == -2);
    CHECK(((const unsigned char *)m->data)[0] == 1 && ((const unsigned char *)m->data)[1] == 0);
    CHECK(req.n_outputs == 2 && req.outputs[0] == 0 && req.outputs[1] == 1 && !req.binary[0] && !req.binary[1]);
    srv_kserve_request_free(&req);
  }
  /* flat data, outputs chosen and ordered, binary per output over the request's default */
  body = "{\"parameters\": {\"binary_data_output\": true}, \"outputs\": [{\"name\": \"z\"}, {\"name\": \"y\", "
         "\"parameters\": {\"binary_data\": false}}], \"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", "
         "\"shape\": [1, 2], \"data\": [1, 2]}, " K_INPUT ", " M_INPUT "]}";
  if (parse_ok(&t, body, &req)) {
    CHECK(req.id == NULL);
    CHECK(req.n_outputs == 2 && req.outputs[0] == 1 && req.outputs[1] == 0 && req.binary[0] && !req.binary[1]);
    srv_kserve_request_free(&req);
  }
  body = "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [0, 2], \"data\": []}, " K_INPUT ", "
         "{\"name\": \"m\", \"datatype\": \"BOOL\", \"shape\": [0], \"data\": [[]]}], \"outputs\": []}";
  if (parse_ok(&t, body, &req)) {
    CHECK(req.inputs[0]->shape.dims[0] == 0 && req.n_outputs == 0);
    srv_kserve_request_free(&req);
  }
}

TEST(binary_requests) {
  test_sig t;
  make_sig(&t);
  static const char json[] =
      "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"parameters\": "
      "{\"binary_data_size\": 8}}, " K_INPUT ", {\"name\": \"m\", \"datatype\": \"BOOL\", \"shape\": [3], "
      "\"parameters\": {\"binary_data_size\": 3}}]}";
  char body[sizeof json + 16];
  size_t n = sizeof json - 1;
  memcpy(body, json, n);
  const float x[] = {0.5f, -1};
  memcpy(body + n, x, 8);
  const unsigned char m[] = {1, 0, 2};
  memcpy(body + n + 8, m, 3);
  srv_kserve_request req;
  hr_status s = srv_kserve_parse_infer(body, n + 11, n, &t.sig, &limits, &req);
  CHECK_OK(s);
  if (!s) {
    const float *xv = req.inputs[0]->data;
    CHECK(xv[0] == 0.5f && xv[1] == -1);
    const unsigned char *mv = req.inputs[2]->data;
    CHECK(req.inputs[2]->shape.dims[0] == 3 && mv[0] == 1 && mv[1] == 0 && mv[2] == 1);
    srv_kserve_request_free(&req);
  }
  parse_fails_n(&t, body, n + 10, n, HR_INVALID_ARGUMENT, "exceeds the 2 bytes of binary tensor data left");
  parse_fails_n(&t, body, n + 12, n, HR_INVALID_ARGUMENT, "12 bytes of binary tensor data follow the JSON, the inputs take 11");
  parse_fails_n(&t, body, n + 11, n + 11, HR_INVALID_ARGUMENT, "exceeds the 0 bytes");
  static const char wrong_size[] =
      "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"parameters\": "
      "{\"binary_data_size\": 4}}, " K_INPUT ", " M_INPUT "]}AAAA";
  parse_fails_n(&t, wrong_size, sizeof wrong_size - 1, sizeof wrong_size - 5, HR_INVALID_ARGUMENT,
                "4 bytes of raw data given, its shape and datatype FP32 need 8");
}

TEST(bad_requests_are_refused) {
  test_sig t;
  make_sig(&t);
#define X_INPUT "{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": [1, 2]}"
  parse_fails(&t, "", HR_INVALID_ARGUMENT, "must be a JSON object");
  parse_fails(&t, "[]", HR_INVALID_ARGUMENT, "must be a JSON object");
  parse_fails(&t, "{}", HR_INVALID_ARGUMENT, "has no 'inputs'");
  parse_fails(&t, "{\"inputs\": {}}", HR_INVALID_ARGUMENT, "'inputs' must be a list");
  parse_fails(&t, "{\"inputs\": [" X_INPUT ", " K_INPUT "]}", HR_INVALID_ARGUMENT, "input 'm' is missing");
  parse_fails(&t, "{\"inputs\": [" X_INPUT ", " X_INPUT "]}", HR_INVALID_ARGUMENT, "input 'x' is given twice");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"q\", \"datatype\": \"FP32\", \"shape\": [1], \"data\": [1]}]}",
              HR_INVALID_ARGUMENT, "unexpected inference input 'q'");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP64\", \"shape\": [1, 2], \"data\": [1, 2]}]}",
              HR_INVALID_ARGUMENT, "input 'x' has datatype FP64, the model expects FP32");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"BYTES\", \"shape\": [1, 2], \"data\": [1, 2]}]}",
              HR_UNIMPLEMENTED, "BYTES");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 3], \"data\": [1, 2, 3]}]}",
              HR_INVALID_ARGUMENT, "does not match the model's [-1,2]");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [2], \"data\": [1, 2]}]}",
              HR_INVALID_ARGUMENT, "shape of rank 1");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": [1]}]}",
              HR_INVALID_ARGUMENT, "'data' holds 1 elements, its shape 2");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": [1, [2, 3]]}]}",
              HR_INVALID_ARGUMENT, "more than the 2 elements");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": [1, \"2\"]}]}",
              HR_INVALID_ARGUMENT, "is not of expected type");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": 1}]}",
              HR_INVALID_ARGUMENT, "'data' must be a list");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2]}]}", HR_INVALID_ARGUMENT,
              "needs exactly one of 'data' and the binary_data_size");
  parse_fails(&t,
              "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": [1, 2], "
              "\"parameters\": {\"binary_data_size\": 8}}]}",
              HR_INVALID_ARGUMENT, "needs exactly one of");
  parse_fails(&t, "{\"inputs\": [{\"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": [1, 2]}]}", HR_INVALID_ARGUMENT,
              "has no 'name'");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"shape\": [1, 2], \"data\": [1, 2]}]}", HR_INVALID_ARGUMENT,
              "has no 'datatype'");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"data\": [1, 2]}]}", HR_INVALID_ARGUMENT,
              "has no 'shape'");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, -2], \"data\": [1, 2]}]}",
              HR_INVALID_ARGUMENT, "integer >= 0");
  parse_fails(&t,
              "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": "
              "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], \"data\": [1]}]}",
              HR_INVALID_ARGUMENT, "more than 16 dimensions");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1001, 2], \"data\": []}]}",
              HR_INVALID_ARGUMENT, "more than 1000 elements");
  parse_fails(&t, "{\"inputs\": [{\"name\": \"k\", \"datatype\": \"INT32\", \"shape\": [3], \"data\": [1, 2, 3e9]}]}",
              HR_INVALID_ARGUMENT, "is not of expected type: DT_INT32");
  parse_fails(&t, "{\"inputs\": [" X_INPUT ", " K_INPUT ", " M_INPUT "], \"outputs\": [{\"name\": \"w\"}]}",
              HR_INVALID_ARGUMENT, "unexpected inference output 'w'");
  parse_fails(&t, "{\"inputs\": [" X_INPUT ", " K_INPUT ", " M_INPUT "], \"outputs\": [{\"name\": \"y\"}, {\"name\": \"y\"}]}",
              HR_INVALID_ARGUMENT, "output 'y' is asked for twice");
  parse_fails(&t,
              "{\"inputs\": [" X_INPUT ", " K_INPUT ", " M_INPUT "], \"outputs\": [{\"name\": \"y\", \"parameters\": "
              "{\"binary_data\": 1}}]}",
              HR_INVALID_ARGUMENT, "'binary_data' must be true or false");
  parse_fails(&t, "{\"inputs\": [" X_INPUT ", " K_INPUT ", " M_INPUT "], \"id\": 5}", HR_INVALID_ARGUMENT,
              "'id' must be a string");
  parse_fails(&t, "{\"inputs\": [" X_INPUT ", " K_INPUT ", " M_INPUT "]} trailing", HR_INVALID_ARGUMENT,
              "must not be followed");
  parse_fails(&t, "{\"inputs\": [" X_INPUT ", " K_INPUT ", " M_INPUT "], \"parameters\": []}", HR_INVALID_ARGUMENT,
              "'parameters' must be an object");
#undef X_INPUT
}

/* Random edits of a valid request (JSON and binary part) give an error or a request, never a
 * crash or a leak. */
TEST(corrupted_requests_never_crash) {
  test_sig t;
  make_sig(&t);
  static const char valid[] =
      "{\"id\": \"a\", \"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 2], \"data\": [[1, 2]]}, "
      "{\"name\": \"k\", \"datatype\": \"INT32\", \"shape\": [3], \"parameters\": {\"binary_data_size\": 12}}, "
      "{\"name\": \"m\", \"datatype\": \"BOOL\", \"shape\": [1], \"data\": [true]}], "
      "\"outputs\": [{\"name\": \"y\", \"parameters\": {\"binary_data\": true}}]}0123456789ab";
  static const char alphabet[] = "{}[]\":,0123456789.eE+-truefalsnl \\FPINTBOL";
  uint32_t state = 777;
  char body[sizeof valid];
  int accepted = 0;
  for (int iter = 0; iter < 20000; iter++) {
    memcpy(body, valid, sizeof valid);
    int edits = 1 + (int)((state = state * 1664525u + 1013904223u) >> 28) % 3;
    for (int e = 0; e < edits; e++) {
      state = state * 1664525u + 1013904223u;
      size_t at = (state >> 8) % (sizeof valid - 1);
      state = state * 1664525u + 1013904223u;
      body[at] = alphabet[(state >> 8) % (sizeof alphabet - 1)];
    }
    state = state * 1664525u + 1013904223u;
    size_t len = sizeof valid - 1, json_len = len - 12;
    if ((state >> 8) % 8 == 0) json_len = (state >> 12) % len;
    srv_kserve_request req;
    hr_status s = srv_kserve_parse_infer(body, len, json_len, &t.sig, &limits, &req);
    if (s) {
      hr_code c = hr_status_code(s);
      CHECK(c == HR_INVALID_ARGUMENT || c == HR_UNIMPLEMENTED);
      hr_status_free(s);
    } else {
      accepted++;
      srv_kserve_request_free(&req);
    }
  }
  CHECK(accepted > 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* Responses                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

TEST(responses_in_json_and_binary) {
  test_sig t;
  make_sig(&t);
  hr_shape ys = {.rank = 2, .dims = {1, 2}}, zs = {.rank = 1, .dims = {2}};
  hr_tensor *outputs[2] = {NULL, NULL};
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &ys, 0, &outputs[0]));
  CHECK_OK(hr_tensor_create(NULL, HR_I64, &zs, 0, &outputs[1]));
  if (!outputs[0] || !outputs[1]) return;
  ((float *)outputs[0]->data)[0] = 0.1f;
  ((float *)outputs[0]->data)[1] = 1.0f / 3.0f;
  ((int64_t *)outputs[1]->data)[1] = -5;
  int order[2] = {1, 0};
  bool binary[2] = {false, false};
  srv_kserve_request req = {.id = "q\"1", .n_outputs = 2, .outputs = order, .binary = binary};
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  size_t json_len = 0;
  CHECK_OK(srv_kserve_encode_infer("m", 3, &t.sig, &req, outputs, &sb, &json_len));
  CHECK_EQ_INT(json_len, sb.len);
  CHECK(sb.data && strcmp(sb.data,
                          "{\"model_name\":\"m\",\"model_version\":\"3\",\"id\":\"q\\\"1\",\"outputs\":["
                          "{\"name\":\"z\",\"datatype\":\"INT64\",\"shape\":[2],\"data\":[0,-5]},"
                          "{\"name\":\"y\",\"datatype\":\"FP32\",\"shape\":[1,2],\"data\":[0.1,0.333333343]}]}") == 0);
  sb.len = 0;
  binary[1] = true;
  req.id = NULL;
  CHECK_OK(srv_kserve_encode_infer("m", 3, &t.sig, &req, outputs, &sb, &json_len));
  CHECK_EQ_INT(sb.len, json_len + 8);
  CHECK(memcmp(sb.data + json_len, outputs[0]->data, 8) == 0);
  CHECK(strstr(sb.data, "\"parameters\":{\"binary_data_size\":8}") != NULL);
  CHECK(strstr(sb.data, "\"id\"") == NULL);
  hr_tensor_free(outputs[1]);
  CHECK_OK(hr_tensor_create(NULL, HR_C64, &zs, 0, &outputs[1]));
  sb.len = 0;
  check_fails(srv_kserve_encode_infer("m", 3, &t.sig, &req, outputs, &sb, &json_len), HR_UNIMPLEMENTED,
              "output 'z' has element type complex<f32>");
  hr_strbuf_free(&sb);
  hr_tensor_free(outputs[0]);
  hr_tensor_free(outputs[1]);
}

int main(void) {
  RUN(datatype_names_round_trip);
  RUN(shapes_are_checked);
  RUN(raw_tensors);
  RUN(json_length_header);
  RUN(json_requests);
  RUN(binary_requests);
  RUN(bad_requests_are_refused);
  RUN(corrupted_requests_never_crash);
  RUN(responses_in_json_and_binary);
  TEST_MAIN_END();
}

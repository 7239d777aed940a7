/* The REST API's JSON (server/json.c, server/predict.c): the pull reader on valid and malformed
 * documents, the writers (escaping, floats that round-trip), predict requests in row and columnar
 * format becoming tensors, responses in TensorFlow Serving's shapes, and hostile requests —
 * deep nesting, huge element counts, ragged lists, wrong types, random corruption — rejected with
 * INVALID_ARGUMENT and never a crash. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "base/numeric.h"
#include "base/strbuf.h"
#include "server/json.h"
#include "server/predict.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Reader                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Skips one whole document; returns the status. */
static hr_status skip_document(const char *text, int max_depth) {
  srv_json r;
  srv_json_init(&r, text, strlen(text), max_depth);
  HR_TRY(srv_json_skip(&r));
  return srv_json_finish(&r);
}

/* Checks that skipping `text` fails with a message containing `needle`. */
static void check_skip_fails(const char *text, const char *needle) {
  hr_status s = skip_document(text, 16);
  CHECK(s != NULL);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(hr_status_message(s), needle);
  hr_status_free(s);
}

TEST(reader_accepts_valid_documents) {
  CHECK_OK(skip_document("{\"a\": [1, -2.5e3, true, false, null, \"x\\n\\u00e9\\ud83d\\ude00\"], \"b\": {}}", 16));
  CHECK_OK(skip_document("  [NaN, Infinity, -Infinity, 0, -0, 1E+2]  ", 16));
  CHECK_OK(skip_document("[Inf, -Inf, -NaN, Infinity]", 16));
  CHECK_OK(skip_document("\"\"", 16));
}

TEST(reader_rejects_malformed_documents) {
  check_skip_fails("", "expected a value");
  check_skip_fails("[1, 2", "end of document");
  check_skip_fails("[1,]", "invalid value");
  check_skip_fails("{\"a\" 1}", "expected ':'");
  check_skip_fails("{\"a\": 1,}", "expected a string");
  check_skip_fails("[01]", "expected ','");
  check_skip_fails("[1.]", "decimal point");
  check_skip_fails("[1e]", "exponent");
  check_skip_fails("[-]", "invalid number");
  check_skip_fails("\"abc", "unterminated");
  check_skip_fails("\"a\x01\"", "control character");
  check_skip_fails("\"\\q\"", "invalid escape");
  check_skip_fails("\"\\u12G4\"", "\\u escape");
  check_skip_fails("\"\\ud800\"", "surrogate");
  check_skip_fails("\"\\udc00\"", "surrogate");
  check_skip_fails("[tru]", "invalid value");
  check_skip_fails("[1] [2]", "must not be followed");
  check_skip_fails("[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]", "deeper than 16");
}

TEST(reader_bounds_number_length) {
  char text[SRV_JSON_MAX_NUMBER + 8];
  memset(text, '1', sizeof text - 1);
  text[0] = '[';
  text[sizeof text - 2] = ']';
  text[sizeof text - 1] = '\0';
  check_skip_fails(text, "longer than");
}

TEST(reader_unescapes_strings) {
  const char *doc = "\"a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\ud83d\\ude00\"";
  srv_json r;
  srv_json_init(&r, doc, strlen(doc), 4);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(srv_json_string(&r, &sb, 100));
  CHECK(sb.data && strcmp(sb.data, "a\"b\\c/\b\f\n\r\tA\xc3\xa9\xf0\x9f\x98\x80") == 0);
  hr_strbuf_free(&sb);
  srv_json_init(&r, doc, strlen(doc), 4);
  hr_strbuf_init(&sb, NULL);
  hr_status s = srv_json_string(&r, &sb, 5);
  CHECK(s != NULL);
  hr_status_free(s);
  hr_strbuf_free(&sb);
}

TEST(number_conversions) {
  srv_json_num n = {"9223372036854775807", 19, true};
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  CHECK(srv_json_to_i64(&n, &i) && i == INT64_MAX);
  n = (srv_json_num){"9223372036854775808", 19, true};
  CHECK(!srv_json_to_i64(&n, &i));
  CHECK(srv_json_to_u64(&n, &u) && u == 9223372036854775808ULL);
  n = (srv_json_num){"-1", 2, true};
  CHECK(!srv_json_to_u64(&n, &u));
  n = (srv_json_num){"1.5", 3, false};
  CHECK(!srv_json_to_i64(&n, &i));
  CHECK(srv_json_to_double(&n, &d) && d == 1.5);
  n = (srv_json_num){"1e999", 5, false};
  CHECK(!srv_json_to_double(&n, &d));
  n = (srv_json_num){"-Infinity", 9, false};
  CHECK(srv_json_to_double(&n, &d) && isinf(d) && d < 0);
  n = (srv_json_num){"NaN", 3, false};
  CHECK(srv_json_to_double(&n, &d) && isnan(d));
  n = (srv_json_num){"-NaN", 4, false};
  CHECK(srv_json_to_double(&n, &d) && isnan(d));
  n = (srv_json_num){"Inf", 3, false};
  CHECK(srv_json_to_double(&n, &d) && isinf(d) && d > 0);
  n = (srv_json_num){"-Inf", 4, false};
  CHECK(srv_json_to_double(&n, &d) && isinf(d) && d < 0);
}

TEST(base64_decoding) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK(srv_base64_decode("aGVsbG8=", 8, &sb) && sb.len == 5 && memcmp(sb.data, "hello", 5) == 0);
  sb.len = 0;
  CHECK(srv_base64_decode("aGVsbG8", 7, &sb) && sb.len == 5);
  sb.len = 0;
  CHECK(srv_base64_decode("", 0, &sb) && sb.len == 0);
  CHECK(!srv_base64_decode("a", 1, &sb));
  CHECK(!srv_base64_decode("aGV*bG8=", 8, &sb));
  CHECK(!srv_base64_decode("aGVsbG8==", 9, &sb));
  hr_strbuf_free(&sb);
}

/* ---------------------------------------------------------------------------------------------- */
/* Writers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

TEST(string_escaping) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  srv_json_put_string(&sb, "a\"\\\n\x01\xc3\xa9\xff", 8);
  CHECK(sb.data && strcmp(sb.data, "\"a\\\"\\\\\\n\\u0001\xc3\xa9\\u00ff\"") == 0);
  hr_strbuf_free(&sb);
}

/* The JSON text of a float of type t with bit pattern `bits`. */
static const char *float_text(hr_strbuf *sb, hr_dtype t, uint64_t bits) {
  sb->len = 0;
  if (sb->data) sb->data[0] = '\0';
  srv_json_put_float(sb, t, bits);
  return sb->data;
}

/* The text of an f32 value (converted from a double). */
static const char *f32_text(hr_strbuf *sb, double v) { return float_text(sb, HR_F32, hr_f32_bits((float)v)); }
/* The text of an f64 value. */
static const char *f64_text(hr_strbuf *sb, double v) { return float_text(sb, HR_F64, hr_f64_bits(v)); }

/* TensorFlow Serving's text (json_tensor.cc WriteDecimal): six significant digits when they read
 * back, else max_digits10 (9 for float, 17 for double); ".0" after whole numbers. */
TEST(float_formatting_is_tensorflow_servings) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK(strcmp(f32_text(&sb, 0.1), "0.1") == 0);
  CHECK(strcmp(f32_text(&sb, 0.2), "0.2") == 0);
  CHECK(strcmp(f32_text(&sb, 1.0), "1.0") == 0);
  CHECK(strcmp(f32_text(&sb, -2.5), "-2.5") == 0);
  CHECK(strcmp(f32_text(&sb, 100.0), "100.0") == 0);
  CHECK(strcmp(f32_text(&sb, 1e6), "1e+06") == 0);
  CHECK(strcmp(f32_text(&sb, 1e-5), "1e-05") == 0);
  CHECK(strcmp(f32_text(&sb, 1.0 / 3.0), "0.333333343") == 0);
  CHECK(strcmp(f32_text(&sb, 3.14159265), "3.14159274") == 0);
  CHECK(strcmp(f32_text(&sb, 123456.7), "123456.703") == 0);
  CHECK(strcmp(f32_text(&sb, 1234567.0), "1234567.0") == 0);
  CHECK(strcmp(f32_text(&sb, 16777217.0), "16777216.0") == 0);
  CHECK(strcmp(f32_text(&sb, 0.000123456789), "0.00012345679") == 0);
  CHECK(strcmp(f32_text(&sb, -0.0), "-0.0") == 0);
  CHECK(strcmp(f32_text(&sb, NAN), "NaN") == 0);
  CHECK(strcmp(f32_text(&sb, -INFINITY), "-Infinity") == 0);
  CHECK(strcmp(f64_text(&sb, 0.1), "0.1") == 0);
  CHECK(strcmp(f64_text(&sb, 1.0 / 3.0), "0.33333333333333331") == 0);
  CHECK(strcmp(f64_text(&sb, 0.1 + 0.2), "0.30000000000000004") == 0);
  CHECK(strcmp(f64_text(&sb, 123456789.0), "123456789.0") == 0);
  CHECK(strcmp(f64_text(&sb, 1e22), "1e+22") == 0);
  CHECK(strcmp(f64_text(&sb, INFINITY), "Infinity") == 0);
  /* f16 and bf16 as the f32 of the same value */
  CHECK(strcmp(float_text(&sb, HR_F16, 0x3c00), "1.0") == 0);
  CHECK(strcmp(float_text(&sb, HR_F16, 0x2e66), "0.0999755859") == 0);
  CHECK(strcmp(float_text(&sb, HR_BF16, 0x3fc0), "1.5") == 0);
  hr_strbuf_free(&sb);
}

/* Every text reads back as the value written: a sweep of f32 patterns, and every f16 and bf16. */
TEST(float_formatting_round_trips) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  for (uint32_t bits = 0x00000001; bits < 0x7f800000; bits += 0x000f0f0f) {
    float_text(&sb, HR_F32, bits);
    CHECK_EQ_INT(hr_f32_bits(strtof(sb.data, NULL)), bits);
  }
  int bad = 0;
  for (uint32_t bits = 0; bits < 0x10000 && bad < 10; bits++) {
    if ((bits & 0x7c00) == 0x7c00) continue; /* f16 NaN and infinities */
    float_text(&sb, HR_F16, bits);
    bad += hr_f64_to_f16(strtod(sb.data, NULL)) != bits;
    if ((bits & 0x7f80) == 0x7f80) continue; /* bf16 NaN and infinities */
    float_text(&sb, HR_BF16, bits);
    bad += hr_f64_to_bf16(strtod(sb.data, NULL)) != bits;
  }
  CHECK_EQ_INT(bad, 0);
  hr_strbuf_free(&sb);
}

/* ---------------------------------------------------------------------------------------------- */
/* Predict requests                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* A signature of up to 3 inputs and 2 outputs, built by the tests. */
typedef struct test_sig {
  srv_tensor_info inputs[3], outputs[2];
  srv_signature sig;
} test_sig;

/* Adds an input or output spec to a list. */
static void add_spec(srv_tensor_info *list, int *n, const char *name, hr_dtype t, int rank, const int64_t *dims) {
  srv_tensor_info *info = &list[(*n)++];
  info->name = (char *)name;
  info->spec.dtype = t;
  info->spec.shape.rank = rank;
  for (int d = 0; d < rank; d++) info->spec.shape.dims[d] = dims[d];
}

/* x: f32[-1, 2] -> y: f32[-1, 2]. */
static void one_input_sig(test_sig *t) {
  memset(t, 0, sizeof *t);
  static const int64_t dims[] = {HR_DYNAMIC, 2};
  add_spec(t->inputs, &t->sig.n_inputs, "x", HR_F32, 2, dims);
  add_spec(t->outputs, &t->sig.n_outputs, "y", HR_F32, 2, dims);
  t->sig.inputs = t->inputs;
  t->sig.outputs = t->outputs;
}

/* a: i32[-1], b: ui8[-1, 3], c: i1[-1, 2] -> y: f32[-1, 2], z: i64[-1]. */
static void three_input_sig(test_sig *t) {
  memset(t, 0, sizeof *t);
  static const int64_t a[] = {HR_DYNAMIC}, b[] = {HR_DYNAMIC, 3}, c[] = {HR_DYNAMIC, 2};
  add_spec(t->inputs, &t->sig.n_inputs, "a", HR_I32, 1, a);
  add_spec(t->inputs, &t->sig.n_inputs, "b", HR_U8, 2, b);
  add_spec(t->inputs, &t->sig.n_inputs, "c", HR_I1, 2, c);
  add_spec(t->outputs, &t->sig.n_outputs, "y", HR_F32, 2, c);
  add_spec(t->outputs, &t->sig.n_outputs, "z", HR_I64, 1, a);
  t->sig.inputs = t->inputs;
  t->sig.outputs = t->outputs;
}

static const srv_predict_limits limits = {64, 1000};

/* Parses a request that must succeed. */
static void parse_ok(const test_sig *t, const char *body, srv_predict_request *req) {
  hr_status s = srv_predict_parse(body, strlen(body), &t->sig, &limits, req);
  if (s) {
    fprintf(stderr, "unexpected error for %s: %s\n", body, hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
    memset(req, 0, sizeof *req);
  }
}

/* Checks that a request fails with `code` and a message containing `needle`. */
static void parse_fails(const test_sig *t, const char *body, hr_code code, const char *needle) {
  srv_predict_request req;
  hr_status s = srv_predict_parse(body, strlen(body), &t->sig, &limits, &req);
  if (!s) {
    fprintf(stderr, "expected an error for %s\n", body);
    test_failures_++;
    srv_predict_request_free(&req);
    return;
  }
  CHECK_EQ_INT(hr_status_code(s), code);
  CHECK_STR_CONTAINS(hr_status_message(s), needle);
  CHECK(req.inputs == NULL);
  hr_status_free(s);
}

TEST(row_format_single_input) {
  test_sig t;
  one_input_sig(&t);
  srv_predict_request req;
  parse_ok(&t, "{\"instances\": [[1, 2.5], [-3, 4e1]], \"signature_name\": \"serving_default\"}", &req);
  if (!req.inputs) return;
  CHECK_EQ_INT(req.format, SRV_FORMAT_ROW);
  const hr_tensor *x = req.inputs[0];
  CHECK_EQ_INT(x->shape.rank, 2);
  CHECK_EQ_INT(x->shape.dims[0], 2);
  CHECK_EQ_INT(x->shape.dims[1], 2);
  const float *v = x->data;
  CHECK(v[0] == 1 && v[1] == 2.5f && v[2] == -3 && v[3] == 40);
  srv_predict_request_free(&req);
  parse_ok(&t, "{\"instances\": [{\"x\": [1, 2]}]}", &req);
  if (req.inputs) CHECK_EQ_INT(req.inputs[0]->shape.dims[0], 1);
  srv_predict_request_free(&req);
}

TEST(row_format_named_inputs_and_b64) {
  test_sig t;
  three_input_sig(&t);
  srv_predict_request req;
  parse_ok(&t,
           "{\"instances\": [{\"a\": 7, \"b\": {\"b64\": \"AQID\"}, \"c\": [true, false]},"
           " {\"c\": [false, true], \"b\": [250, 0, 9], \"a\": -1}]}",
           &req);
  if (!req.inputs) return;
  CHECK_EQ_INT(req.n_inputs, 3);
  const int32_t *a = req.inputs[0]->data;
  const uint8_t *b = req.inputs[1]->data, *c = req.inputs[2]->data;
  CHECK(a[0] == 7 && a[1] == -1);
  CHECK_EQ_INT(req.inputs[1]->shape.dims[1], 3);
  CHECK(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 250 && b[4] == 0 && b[5] == 9);
  CHECK(c[0] == 1 && c[1] == 0 && c[2] == 0 && c[3] == 1);
  srv_predict_request_free(&req);
}

TEST(columnar_format) {
  test_sig t;
  three_input_sig(&t);
  srv_predict_request req;
  parse_ok(&t, "{\"inputs\": {\"a\": [1, 2, 3], \"b\": [{\"b64\": \"AAAA\"}], \"c\": [[true, true]]}}", &req);
  if (!req.inputs) return;
  CHECK_EQ_INT(req.format, SRV_FORMAT_COLUMNAR);
  CHECK_EQ_INT(req.inputs[0]->shape.dims[0], 3);
  CHECK_EQ_INT(req.inputs[1]->shape.dims[0], 1);
  srv_predict_request_free(&req);
  one_input_sig(&t);
  parse_ok(&t, "{\"inputs\": [[NaN, -Infinity]], \"extra\": {\"ignored\": [1, {}]}}", &req);
  if (!req.inputs) return;
  const float *v = req.inputs[0]->data;
  CHECK(isnan(v[0]) && isinf(v[1]));
  srv_predict_request_free(&req);
}

TEST(malformed_requests_are_rejected) {
  test_sig t;
  one_input_sig(&t);
  parse_fails(&t, "", HR_INVALID_ARGUMENT, "The document is empty");
  parse_fails(&t, "[1]", HR_INVALID_ARGUMENT, "Is not object");
  parse_fails(&t, "{}", HR_INVALID_ARGUMENT, "Missing 'inputs' or 'instances' key");
  parse_fails(&t, "{\"instances\": [[1, 2]], \"inputs\": [[1, 2]]}", HR_INVALID_ARGUMENT, "only one of");
  parse_fails(&t, "{\"instances\": []}", HR_INVALID_ARGUMENT, "No values in 'instances'");
  parse_fails(&t, "{\"instances\": {}}", HR_INVALID_ARGUMENT, "list/array");
  parse_fails(&t, "{\"instances\": [[1, 2], [3]]}", HR_INVALID_ARGUMENT,
              "unexpected size: 1 at level: 1 expected size: 2");
  parse_fails(&t, "{\"instances\": [[1, 2, 3]]}", HR_INVALID_ARGUMENT, "the model expects 2");
  parse_fails(&t, "{\"instances\": [[[1], 2]]}", HR_INVALID_ARGUMENT, "unexpected level");
  parse_fails(&t, "{\"instances\": [1, 2]}", HR_INVALID_ARGUMENT, "incorrect level");
  parse_fails(&t, "{\"instances\": [[1, \"2\"]]}", HR_INVALID_ARGUMENT,
              "Type: String is not of expected type: DT_FLOAT");
  parse_fails(&t, "{\"instances\": [[1, null]]}", HR_INVALID_ARGUMENT, "is not of expected type");
  parse_fails(&t, "{\"instances\": [[1, 1e999]]}", HR_INVALID_ARGUMENT, "Number too big to be stored in double.");
  parse_fails(&t, "{\"instances\": [[1, 2]], \"signature_name\": \"other\"}", HR_INVALID_ARGUMENT,
              "Serving signature name: \"other\" not found");
  parse_fails(&t, "{\"instances\": [[1, 2]], \"signature_name\": 3}", HR_INVALID_ARGUMENT, "must be a string");
  parse_fails(&t, "{\"instances\": [{\"y\": [1, 2]}]}", HR_INVALID_ARGUMENT, "does not have named input: y");
  parse_fails(&t, "{\"instances\": [{\"x\": [1, 2], \"x\": [1, 2]}]}", HR_INVALID_ARGUMENT, "named twice");
  parse_fails(&t, "{\"instances\": [[1, 2], {\"x\": [1, 2]}]}", HR_INVALID_ARGUMENT,
              "Expecting value/list but got object");
  parse_fails(&t, "{\"inputs\": {\"x\": [[1, 2]], \"z\": 1}}", HR_INVALID_ARGUMENT, "does not have named input: z");
  parse_fails(&t, "{\"inputs\": [[{\"b64\": \"AAAA\"}]]}", HR_INVALID_ARGUMENT, "Type: Object");
  parse_fails(&t, "{\"inputs\": [[]]}", HR_INVALID_ARGUMENT, "empty list");
  parse_fails(&t, "{\"inputs\": [[1, 2]] trailing", HR_INVALID_ARGUMENT, "JSON Parse error");
}

/* What TensorFlow Serving's parser (RapidJSON with kParseNanAndInfFlag and kParseStopWhenDoneFlag,
 * values cast to float) accepts beyond strict JSON is accepted. */
TEST(lenient_like_tensorflow_serving) {
  test_sig t;
  one_input_sig(&t);
  srv_predict_request req;
  parse_ok(&t, "{\"instances\": [[Inf, -Inf], [NaN, -NaN], [Infinity, -Infinity], [1e39, -1e300]]}", &req);
  if (req.inputs) {
    const float *v = req.inputs[0]->data;
    CHECK(isinf(v[0]) && v[0] > 0 && isinf(v[1]) && v[1] < 0);
    CHECK(isnan(v[2]) && isnan(v[3]));
    CHECK(isinf(v[4]) && v[4] > 0 && isinf(v[5]) && v[5] < 0);
    CHECK(isinf(v[6]) && v[6] > 0 && isinf(v[7]) && v[7] < 0);
  }
  srv_predict_request_free(&req);
  parse_ok(&t, "{\"inputs\": [[1, 2]]} what follows the document is not read", &req);
  if (req.inputs) CHECK_EQ_INT(req.inputs[0]->shape.dims[0], 1);
  srv_predict_request_free(&req);
  parse_fails(&t, "{\"inputs\": [[1, Infin]]}", HR_INVALID_ARGUMENT, "JSON Parse error");
  parse_fails(&t, "{\"inputs\": [[1, inf]]}", HR_INVALID_ARGUMENT, "is not of expected type");
}

TEST(typed_requests_are_checked) {
  test_sig t;
  three_input_sig(&t);
  parse_fails(&t, "{\"inputs\": {\"a\": [2147483648], \"b\": [[1, 2, 3]], \"c\": [[true, false]]}}",
              HR_INVALID_ARGUMENT, "out of range for DT_INT32");
  parse_fails(&t, "{\"inputs\": {\"a\": [1.5], \"b\": [[1, 2, 3]], \"c\": [[true, false]]}}", HR_INVALID_ARGUMENT,
              "is not of expected type: DT_INT32");
  parse_fails(&t, "{\"inputs\": {\"a\": [1], \"b\": [[1, 2, 256]], \"c\": [[true, false]]}}", HR_INVALID_ARGUMENT,
              "out of range for DT_UINT8");
  parse_fails(&t, "{\"inputs\": {\"a\": [1], \"b\": [[1, 2, 3]], \"c\": [[1, 0]]}}", HR_INVALID_ARGUMENT,
              "is not of expected type: DT_BOOL");
  parse_fails(&t, "{\"inputs\": {\"a\": [1], \"b\": [{\"b64\": \"AQ\"}], \"c\": [[true, false]]}}", HR_INVALID_ARGUMENT,
              "the model expects 3");
  parse_fails(&t, "{\"inputs\": {\"a\": [1], \"b\": [{\"b64\": \"!!!!\"}], \"c\": [[true, false]]}}",
              HR_INVALID_ARGUMENT, "Unable to base64 decode");
  parse_fails(&t, "{\"inputs\": {\"a\": [1], \"c\": [[true, false]]}}", HR_INVALID_ARGUMENT, "Missing named input: b");
  parse_fails(&t, "{\"inputs\": [1, 2]}", HR_INVALID_ARGUMENT, "expecting an object as multiple input");
  parse_fails(&t, "{\"instances\": [1, 2]}", HR_INVALID_ARGUMENT, "expecting list of objects");
}

/* Narrow float inputs: JSON numbers rounded to the type (ties to even, overflow by its rules). */
TEST(narrow_float_inputs_are_rounded) {
  test_sig t;
  memset(&t, 0, sizeof t);
  static const int64_t dims[] = {HR_DYNAMIC};
  add_spec(t.inputs, &t.sig.n_inputs, "e4m3", HR_F8E4M3FN, 1, dims);
  add_spec(t.inputs, &t.sig.n_inputs, "f4", HR_F4E2M1FN, 1, dims);
  add_spec(t.inputs, &t.sig.n_inputs, "tf32", HR_TF32, 1, dims);
  add_spec(t.outputs, &t.sig.n_outputs, "y", HR_F32, 1, dims);
  t.sig.inputs = t.inputs;
  t.sig.outputs = t.outputs;
  srv_predict_request req;
  /* e4m3: 1.0625 ties to 1 (0x38), 1.1875 ties to 1.25 (0x3a), 1000 overflows to NaN (0x7f), -0.0;
     f4: 2.5 ties to 2 (0x4), 7 saturates to 6 (0x7), -0.25 ties to -0 (0x8), 5 ties to 4 (0x6);
     tf32: 1 + 2^-11 ties to 1, 1 + 3 * 2^-11 rounds up to 1 + 2^-9 */
  parse_ok(&t,
           "{\"inputs\": {\"e4m3\": [1.0625, 1.1875, 1000, -0.0], \"f4\": [2.5, 7, -0.25, 5], "
           "\"tf32\": [1.00048828125, 1.00146484375, 1, 1]}}",
           &req);
  if (!req.inputs) return;
  CHECK(memcmp(req.inputs[0]->data, "\x38\x3a\x7f\x80", 4) == 0);
  CHECK(memcmp(req.inputs[1]->data, "\x04\x07\x08\x06", 4) == 0);
  const uint32_t *tf = req.inputs[2]->data;
  CHECK(tf[0] == 0x3f800000u && tf[1] == 0x3f804000u);
  srv_predict_request_free(&req);
}

TEST(scalar_inputs_only_in_columnar_format) {
  test_sig t;
  memset(&t, 0, sizeof t);
  add_spec(t.inputs, &t.sig.n_inputs, "s", HR_F64, 0, NULL);
  add_spec(t.outputs, &t.sig.n_outputs, "y", HR_F64, 0, NULL);
  t.sig.inputs = t.inputs;
  t.sig.outputs = t.outputs;
  parse_fails(&t, "{\"instances\": [[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]}", HR_INVALID_ARGUMENT,
              "is a scalar");
  parse_fails(&t, "{\"inputs\": [[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]}", HR_INVALID_ARGUMENT,
              "unexpected level");
  srv_predict_request req;
  parse_ok(&t, "{\"inputs\": 2.5}", &req);
  if (req.inputs) CHECK(req.inputs[0]->shape.rank == 0 && *(const double *)req.inputs[0]->data == 2.5);
  srv_predict_request_free(&req);
}

TEST(limits_are_enforced) {
  test_sig t;
  one_input_sig(&t);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_strbuf_puts(&sb, "{\"instances\": [");
  for (int i = 0; i < 600; i++) hr_strbuf_printf(&sb, "%s[1, 2]", i ? "," : "");
  hr_strbuf_puts(&sb, "]}");
  parse_fails(&t, sb.data, HR_INVALID_ARGUMENT, "more than 1000 tensor elements");
  sb.len = 0;
  hr_strbuf_puts(&sb, "{\"other\": ");
  for (int i = 0; i < 100; i++) hr_strbuf_putc(&sb, '[');
  for (int i = 0; i < 100; i++) hr_strbuf_putc(&sb, ']');
  hr_strbuf_puts(&sb, ", \"instances\": [[1, 2]]}");
  parse_fails(&t, sb.data, HR_INVALID_ARGUMENT, "deeper than 64");
  hr_strbuf_free(&sb);
}

/* A cheap deterministic generator for the corruption test. */
static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 8;
}

TEST(corrupted_requests_never_crash) {
  test_sig t;
  three_input_sig(&t);
  static const char valid[] =
      "{\"instances\": [{\"a\": 7, \"b\": {\"b64\": \"AQID\"}, \"c\": [true, false]}, {\"c\": [false, true], "
      "\"b\": [250, 0, 9], \"a\": -1}], \"signature_name\": \"\"}";
  static const char alphabet[] = "{}[]\":,0123456789.eE+-truefalsnl \\ub64NaIy";
  uint32_t state = 12345;
  char body[sizeof valid];
  int accepted = 0;
  for (int iter = 0; iter < 20000; iter++) {
    memcpy(body, valid, sizeof valid);
    int edits = 1 + (int)(next_random(&state) % 4);
    for (int e = 0; e < edits; e++)
      body[next_random(&state) % (sizeof valid - 1)] = alphabet[next_random(&state) % (sizeof alphabet - 1)];
    size_t len = next_random(&state) % 8 == 0 ? next_random(&state) % (sizeof valid - 1) : sizeof valid - 1;
    srv_predict_request req;
    hr_status s = srv_predict_parse(body, len, &t.sig, &limits, &req);
    if (s) {
      CHECK(hr_status_code(s) == HR_INVALID_ARGUMENT);
      hr_status_free(s);
    } else {
      accepted++;
      srv_predict_request_free(&req);
    }
  }
  CHECK(accepted > 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* Responses                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* A tensor with given dims and float or int64 contents 0, 1, 2, ... */
static hr_tensor *counting_tensor(hr_dtype t, int rank, const int64_t *dims) {
  hr_shape shape = {.rank = rank};
  for (int d = 0; d < rank; d++) shape.dims[d] = dims[d];
  hr_tensor *x = NULL;
  CHECK_OK(hr_tensor_create(NULL, t, &shape, 0, &x));
  for (int64_t i = 0; x && i < hr_tensor_num_elements(x); i++) {
    if (t == HR_F32)
      ((float *)x->data)[i] = (float)i + 0.5f;
    else
      ((int64_t *)x->data)[i] = i;
  }
  return x;
}

/* Reads a request's signature_name with the scan rest.c runs before parsing; NULL on error. */
static char *scanned_name(const char *body) {
  hr_strbuf name;
  hr_strbuf_init(&name, NULL);
  hr_status s = srv_predict_signature_name(body, strlen(body), &limits, &name);
  char *out = s ? NULL : strdup(name.data ? name.data : "");
  hr_status_free(s);
  hr_strbuf_free(&name);
  return out;
}

TEST(signature_names_are_found_before_parsing) {
  const char *found[][2] = {
      {"{\"instances\": [[1, 2]], \"signature_name\": \"sum_diff\"}", "sum_diff"},
      {"{\"signature_name\": \"a\", \"inputs\": {\"x\": [{\"signature_name\": 1}]}}", "a"},
      {"{\"inputs\": {\"signature_name\": \"inner\"}}", ""},
      {"{\"instances\": [1], \"signature_name\": \"first\", \"signature_name\": \"second\"}", "first"},
      {" {} ", ""},
  };
  for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
    char *name = scanned_name(found[i][0]);
    CHECK(name && strcmp(name, found[i][1]) == 0);
    free(name);
  }
  /* empty, not an object, a name of another type, malformed, nested deeper than the limit (64) */
  const char *bad[] = {"", "[]", "{\"signature_name\": 3}", "{\"instances\": [1,}",
                       "{\"a\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                       "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
                       "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *name = scanned_name(bad[i]);
    CHECK(name == NULL);
    free(name);
  }
}

TEST(named_signatures_check_the_request_name) {
  test_sig t;
  one_input_sig(&t);
  t.sig.name = (char *)"sum_diff";
  srv_predict_request req;
  parse_ok(&t, "{\"signature_name\": \"sum_diff\", \"instances\": [[1, 2]]}", &req);
  CHECK(req.n_inputs == 1);
  srv_predict_request_free(&req);
  parse_fails(&t, "{\"instances\": [[1, 2]], \"signature_name\": \"\"}", HR_INVALID_ARGUMENT,
              "Serving signature name: \"serving_default\" not found in signature def");
  t.sig.n_inputs = 0; /* __saved_model_init_op: no inputs */
  t.sig.name = (char *)"__saved_model_init_op";
  parse_fails(&t, "{\"inputs\": {}}", HR_INVALID_ARGUMENT,
              "Failed to get input map for signature: __saved_model_init_op");
}

TEST(metadata_shows_declared_tensor_infos) {
  test_sig t;
  one_input_sig(&t);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  srv_signature_append_json(&t.sig, &sb);
  CHECK_STR_CONTAINS(sb.data, "{\"serving_default\": {\"inputs\": {\"x\": {\"dtype\": \"DT_FLOAT\", \"tensor_shape\": "
                              "{\"dim\": [{\"size\": \"-1\", \"name\": \"\"}, {\"size\": \"2\", \"name\": \"\"}], "
                              "\"unknown_rank\": false}, \"name\": \"x\"}}");
  CHECK_STR_CONTAINS(sb.data, "\"method_name\": \"tensorflow/serving/predict\"}}");
  t.sig.name = (char *)"__saved_model_init_op";
  t.sig.method = (char *)"";
  t.sig.n_inputs = 0;
  t.outputs[0].name = (char *)"__saved_model_init_op";
  t.outputs[0].declared = (srv_declared){.tensor = (char *)"NoOp", .dtype = 0, .shape = {.rank = -1}};
  sb.len = 0;
  srv_signature_append_entry(&t.sig, &sb);
  CHECK(sb.data && strcmp(sb.data,
                          "\"__saved_model_init_op\": {\"inputs\": {}, \"outputs\": {\"__saved_model_init_op\": "
                          "{\"dtype\": \"DT_INVALID\", \"tensor_shape\": {\"dim\": [], \"unknown_rank\": true}, "
                          "\"name\": \"NoOp\"}}, \"method_name\": \"\"}") == 0);
  hr_strbuf_free(&sb);
}

TEST(responses_in_both_formats) {
  test_sig t;
  three_input_sig(&t);
  static const int64_t yd[] = {2, 2}, zd[] = {2};
  hr_tensor *outs[2] = {counting_tensor(HR_F32, 2, yd), counting_tensor(HR_I64, 1, zd)};
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(srv_predict_encode(&t.sig, SRV_FORMAT_ROW, outs, 2, &sb));
  CHECK(sb.data &&
        strcmp(sb.data, "{\"predictions\": [{\"y\": [0.5,1.5], \"z\": 0},\n{\"y\": [2.5,3.5], \"z\": 1}]}") == 0);
  sb.len = 0;
  CHECK_OK(srv_predict_encode(&t.sig, SRV_FORMAT_COLUMNAR, outs, 2, &sb));
  CHECK(sb.data && strcmp(sb.data, "{\"outputs\": {\"y\": [[0.5,1.5],[2.5,3.5]],\n\"z\": [0,1]}}") == 0);
  hr_tensor_free(outs[1]);
  static const int64_t bad[] = {3};
  outs[1] = counting_tensor(HR_I64, 1, bad);
  sb.len = 0;
  hr_status s = srv_predict_encode(&t.sig, SRV_FORMAT_ROW, outs, 2, &sb);
  CHECK(s != NULL);
  CHECK_STR_CONTAINS(hr_status_message(s), "inconsistent batch size");
  hr_status_free(s);
  hr_tensor_free(outs[0]);
  hr_tensor_free(outs[1]);
  one_input_sig(&t);
  hr_tensor *scalar = counting_tensor(HR_F32, 0, NULL);
  s = srv_predict_encode(&t.sig, SRV_FORMAT_ROW, &scalar, 1, &sb);
  CHECK(s != NULL);
  hr_status_free(s);
  sb.len = 0;
  CHECK_OK(srv_predict_encode(&t.sig, SRV_FORMAT_COLUMNAR, &scalar, 1, &sb));
  CHECK(sb.data && strcmp(sb.data, "{\"outputs\": 0.5}") == 0);
  hr_tensor_free(scalar);
  hr_strbuf_free(&sb);
}

int main(void) {
  RUN(reader_accepts_valid_documents);
  RUN(reader_rejects_malformed_documents);
  RUN(reader_bounds_number_length);
  RUN(reader_unescapes_strings);
  RUN(number_conversions);
  RUN(base64_decoding);
  RUN(string_escaping);
  RUN(float_formatting_is_tensorflow_servings);
  RUN(float_formatting_round_trips);
  RUN(row_format_single_input);
  RUN(row_format_named_inputs_and_b64);
  RUN(columnar_format);
  RUN(malformed_requests_are_rejected);
  RUN(lenient_like_tensorflow_serving);
  RUN(typed_requests_are_checked);
  RUN(narrow_float_inputs_are_rounded);
  RUN(scalar_inputs_only_in_columnar_format);
  RUN(limits_are_enforced);
  RUN(corrupted_requests_never_crash);
  RUN(signature_names_are_found_before_parsing);
  RUN(named_signatures_check_the_request_name);
  RUN(metadata_shows_declared_tensor_infos);
  RUN(responses_in_both_formats);
  TEST_MAIN_END();
}

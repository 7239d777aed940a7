/* libFuzzer target for KServe v2 inference requests (src/server/kserve.c, kserve_types.c): a body
 * split into its JSON and binary tensor data must parse against a signature or fail cleanly, and
 * what parses must encode into a response whose JSON part is valid JSON and whose binary part is
 * exactly the binary outputs' bytes.
 *
 * Input: the signature header of fuzz_predict.c (N, then per input dtype, rank and dims, then the
 * first name; e.g. `2f2?3i2?3a` for x: f32[?, 3], k: i32[?, 3]), then one mode byte, then:
 *   'H'   an Inference-Header-Content-Length value up to the first '\n', then the body
 *   other the body, whose JSON part ends at its first NUL byte (dropped; the rest is binary
 *         tensor data), or covers all of it when it has none
 * e.g. `1f2?2aJ{"inputs": [{"name": "x", "datatype": "FP32", "shape": [1, 2], "data": [1, 2]}]}`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "server/json.h"
#include "fuzz_signature.h"
#include "server/kserve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kNames[] = {"x", "k", "z", "arg0", "inputs", "outputs", "a\"b\\c", "\xc3\xa9t\xc3\xa9"};
enum { N_NAMES = sizeof kNames / sizeof kNames[0] };

/* Encodes the parsed inputs as the response and checks its two parts. */
static void check_response(const srv_signature *sig, const srv_kserve_request *req) {
  hr_strbuf out;
  hr_strbuf_init(&out, NULL);
  size_t json_len = 0;
  hr_status s = srv_kserve_encode_infer("m", 1, sig, req, req->inputs, &out, &json_len);
  if (!s) {
    size_t binary = 0;
    for (int k = 0; k < req->n_outputs; k++)
      if (req->binary[k]) binary += req->inputs[req->outputs[k]]->nbytes;
    if (json_len > out.len || out.len - json_len != binary) __builtin_trap();
    srv_json r;
    srv_json_init(&r, out.data, json_len, 64);
    hr_status bad = srv_json_skip(&r);
    if (!bad) bad = srv_json_finish(&r);
    if (bad) __builtin_trap(); /* our own JSON must be valid */
  } else if (hr_status_code(s) != HR_UNIMPLEMENTED && hr_status_code(s) != HR_OUT_OF_MEMORY) {
    __builtin_trap(); /* only types KServe cannot name fail to encode */
  }
  hr_status_free(s);
  hr_strbuf_free(&out);
}

/* Parses `body` (json_len bytes of JSON, then binary data) and checks what comes of it. */
static void run(const srv_signature *sig, const char *body, size_t len, size_t json_len) {
  srv_predict_limits lim = {.max_json_depth = 64, .max_tensor_elements = 1 << 16};
  srv_kserve_request req;
  hr_status s = srv_kserve_parse_infer(body, len, json_len, sig, &lim, &req);
  if (!s) {
    check_response(sig, &req);
    srv_kserve_request_free(&req);
  } else if (hr_status_code(s) != HR_INVALID_ARGUMENT && hr_status_code(s) != HR_UNIMPLEMENTED &&
             hr_status_code(s) != HR_OUT_OF_MEMORY) {
    __builtin_trap();
  }
  hr_status_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!data) data = (const uint8_t *)""; /* no arithmetic on NULL (size is 0 then) */
  srv_tensor_info infos[3];
  srv_signature sig;
  size_t used = read_signature(data, size, kNames, N_NAMES, infos, &sig);
  const uint8_t *p = data + used, *end = data + size;
  uint8_t mode = take(&p, end);
  const char *rest = (const char *)p;
  size_t n = (size_t)(end - p);
  if (mode == 'H') {
    const char *eol = memchr(rest, '\n', n);
    size_t header_len = eol ? (size_t)(eol - rest) : n;
    char *header = malloc(header_len + 1);
    if (!header) return 0;
    memcpy(header, rest, header_len);
    header[header_len] = '\0';
    const char *body = eol ? eol + 1 : rest + n;
    size_t len = (size_t)((const char *)end - body), json_len = 0;
    hr_status s = srv_kserve_json_length(header, len, &json_len);
    if (!s) {
      if (json_len > len) __builtin_trap();
      run(&sig, body, len, json_len);
    }
    hr_status_free(s);
    free(header);
    return 0;
  }
  const char *nul = memchr(rest, '\0', n);
  if (!nul) {
    run(&sig, rest, n, n);
    return 0;
  }
  /* the body without its NUL: a copy, so that the binary part directly follows the JSON */
  size_t json_len = (size_t)(nul - rest);
  char *body = malloc(n);
  if (!body) return 0;
  memcpy(body, rest, json_len);
  memcpy(body + json_len, nul + 1, n - json_len - 1);
  run(&sig, body, n - 1, json_len);
  free(body);
  return 0;
}

/* libFuzzer target for the predict API's JSON (src/server/predict.c, json.c): a request body must
 * parse against a signature or fail cleanly, and what parses must encode and read back unchanged.
 *
 * Input: a short header that builds the signature, then the JSON body. Every byte value is valid
 * in the header; the printable spellings (used by fuzz/corpus_predict/) are:
 *   N            inputs, '1'..'3'
 *   per input:   T dtype (kDtypeCodes: 'b' bool, 'B' i8, 'u' ui8, 'i' i32, 'l' i64,
 *                'h' f16, 'g' bf16, 'f' f32, 'd' f64, 'c'/'C' complex, ...)
 *                R rank '0'..'4', then R dims: '1'..'7' static, '0' or '?' dynamic
 *   S            first name in kNames ('a' -> "x", 'b' -> "k", ...); input i gets kNames[S + i]
 * e.g. `2f2?3i2?3a{"instances": [{"x": [1, 2, 3], "k": [4, 5, 6]}]}`.
 *
 * On a successful parse the signature's outputs are its inputs and the tensors are encoded in both
 * formats; each response, with "outputs"/"predictions" renamed "inputs"/"instances", must parse
 * back to the same tensors (NaNs compare equal). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/numeric.h"
#include "base/strbuf.h"
#include "fuzz_signature.h"
#include "server/predict.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const kNames[] = {"x", "k", "z", "arg0", "b64",
                                     "instances", "inputs", "a\"b\\c", "\xc3\xa9t\xc3\xa9"};
enum { N_NAMES = sizeof kNames / sizeof kNames[0] };

/* Whether two elements of type t are equal (float NaNs of any payload count as equal). */
static bool same_element(hr_dtype t, const uint8_t *a, const uint8_t *b) {
  size_t w = hr_dtype_size(t);
  if (memcmp(a, b, w) == 0) return true;
  uint16_t h[2];
  uint32_t f[2];
  uint64_t d[2];
  switch (t) {
    case HR_F16:
    case HR_BF16:
      memcpy(&h[0], a, 2);
      memcpy(&h[1], b, 2);
      return t == HR_F16 ? isnan(hr_f16_to_f64(h[0])) && isnan(hr_f16_to_f64(h[1]))
                         : isnan(hr_bf16_to_f64(h[0])) && isnan(hr_bf16_to_f64(h[1]));
    case HR_F32:
      memcpy(&f[0], a, 4);
      memcpy(&f[1], b, 4);
      return isnan(hr_bits_f32(f[0])) && isnan(hr_bits_f32(f[1]));
    case HR_F64:
      memcpy(&d[0], a, 8);
      memcpy(&d[1], b, 8);
      return isnan(hr_bits_f64(d[0])) && isnan(hr_bits_f64(d[1]));
    default: return false;
  }
}

/* Traps unless both requests hold the same tensors. */
static void check_same(const srv_predict_request *a, const srv_predict_request *b) {
  if (a->n_inputs != b->n_inputs) __builtin_trap();
  for (int i = 0; i < a->n_inputs; i++) {
    const hr_tensor *x = a->inputs[i], *y = b->inputs[i];
    if (x->dtype != y->dtype || x->shape.rank != y->shape.rank || x->nbytes != y->nbytes ||
        memcmp(x->shape.dims, y->shape.dims, (size_t)x->shape.rank * sizeof x->shape.dims[0]) != 0)
      __builtin_trap();
    size_t w = hr_dtype_size(x->dtype);
    for (size_t off = 0; off < x->nbytes; off += w)
      if (!same_element(x->dtype, (const uint8_t *)x->data + off, (const uint8_t *)y->data + off)) __builtin_trap();
  }
}

/* Encodes the request's tensors in `format` and parses the response back as a request. */
static void round_trip(const srv_signature *sig, const srv_predict_limits *lim, const srv_predict_request *req,
                       srv_predict_format format) {
  hr_strbuf out;
  hr_strbuf_init(&out, NULL);
  hr_status s = srv_predict_encode(sig, format, req->inputs, req->n_inputs, &out);
  if (!s) {
    const char *from = format == SRV_FORMAT_ROW ? "{\"predictions\"" : "{\"outputs\"";
    const char *to = format == SRV_FORMAT_ROW ? "{\"instances\"" : "{\"inputs\"";
    size_t skip = strlen(from);
    if (out.len < skip || memcmp(out.data, from, skip) != 0) __builtin_trap();
    hr_strbuf again;
    hr_strbuf_init(&again, NULL);
    hr_strbuf_puts(&again, to);
    hr_strbuf_append(&again, out.data + skip, out.len - skip);
    srv_predict_request back;
    hr_status s2 = hr_strbuf_status(&again);
    if (!s2) s2 = srv_predict_parse(again.data, again.len, sig, lim, &back);
    if (!s2) {
      check_same(req, &back);
      srv_predict_request_free(&back);
    } else if (hr_status_code(s2) != HR_OUT_OF_MEMORY) {
      __builtin_trap(); /* our own response must read back */
    }
    hr_status_free(s2);
    hr_strbuf_free(&again);
  } else if (format != SRV_FORMAT_ROW) {
    __builtin_trap(); /* columnar encoding fails only on out-of-memory, which the limits rule out */
  }
  hr_status_free(s);
  hr_strbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!data) data = (const uint8_t *)""; /* no arithmetic on NULL (size is 0 then) */
  srv_tensor_info infos[3];
  srv_signature sig;
  size_t used = read_signature(data, size, kNames, N_NAMES, infos, &sig);
  srv_predict_limits lim = {.max_json_depth = 64, .max_tensor_elements = 1 << 16};

  hr_strbuf meta; /* the metadata JSON of the signature, for coverage */
  hr_strbuf_init(&meta, NULL);
  srv_signature_append_json(&sig, &meta);
  hr_strbuf_free(&meta);

  srv_predict_request req;
  hr_status s = srv_predict_parse((const char *)data + used, size - used, &sig, &lim, &req);
  if (!s) {
    round_trip(&sig, &lim, &req, SRV_FORMAT_COLUMNAR);
    round_trip(&sig, &lim, &req, SRV_FORMAT_ROW);
    srv_predict_request_free(&req);
  }
  hr_status_free(s);
  return 0;
}

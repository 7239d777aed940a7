/* The predict API's JSON (see predict.h and docs/serving.md).
 *
 * Requests are read in one pass straight into per-input byte buffers: each input's rank is known
 * from the signature, so lists must nest exactly that deep, the size of each level is fixed by
 * the first list closed at that level (and by the model's static dims), and every element is
 * converted to the input's element type as it is read. The element count over all inputs is
 * bounded, so a request never takes more memory than its tensors. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "base/numeric.h"
#include "server/json.h"
#include "server/predict.h"

/* Object member names are read up to HR_LIMIT_NAME_BYTES (input names are at most this long). */
enum {
  EXCERPT = 64, /* bytes of a JSON value quoted in messages */
};

/* One input being read: the shape found so far and its elements. */
typedef struct input_acc {
  const srv_tensor_info *info;
  int rank;
  int64_t dims[HR_MAX_RANK]; /* -1 until the first list at that level closes */
  hr_strbuf data;            /* elements in hlorun's memory layout */
} input_acc;

/* The state of one parse. */
typedef struct parse_ctx {
  srv_json r;
  const srv_signature *sig;
  input_acc *accs;  /* one per signature input */
  bool *seen;       /* per input: named in the current object */
  int64_t elements; /* elements read so far, all inputs */
  int64_t max_elements;
  hr_strbuf scratch; /* base64 text */
} parse_ctx;

/* ---------------------------------------------------------------------------------------------- */
/* Scalars                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The TensorFlow-style type error for the value at the reader: "input 'x': JSON Value: ... Type:
 * String is not of expected type: DT_INT32". */
static hr_status type_error(srv_json *r, const char *name, hr_dtype t, srv_json_kind k) {
  char excerpt[EXCERPT];
  srv_json_excerpt(r, excerpt, sizeof excerpt);
  return hr_error(HR_INVALID_ARGUMENT, "input '%s': JSON Value: %s Type: %s is not of expected type: %s", name,
                  excerpt, srv_json_kind_name(k), srv_dtype_tf_name(t));
}

/* Counts one more element against the request's bound. */
static hr_status count_elements(parse_ctx *c, int64_t n) {
  if (n > c->max_elements - c->elements)
    return hr_error(HR_INVALID_ARGUMENT, "the request holds more than %lld tensor elements (--max_tensor_elements)",
                    (long long)c->max_elements);
  c->elements += n;
  return NULL;
}

/* The inclusive range of a signed or unsigned integer type (i1 excluded). */
static void int_range(hr_dtype t, int64_t *lo, uint64_t *hi) {
  int bits = hr_dtype_bits(t);
  if (hr_dtype_is_signed_int(t)) {
    *lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    *hi = bits == 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1;
  } else {
    *lo = 0;
    *hi = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  }
}

/* Appends the low `size` bytes of v (little-endian host order). */
static void put_bytes(hr_strbuf *out, uint64_t v, size_t size) {
  uint8_t b8 = (uint8_t)v;
  uint16_t b16 = (uint16_t)v;
  uint32_t b32 = (uint32_t)v;
  const void *p = size == 1   ? (const void *)&b8
                  : size == 2 ? (const void *)&b16
                  : size == 4 ? (const void *)&b32
                              : (const void *)&v;
  hr_strbuf_append(out, p, size);
}

/* Reads an integer element: an integer literal within the type's range. */
static hr_status put_int(srv_json *r, const char *name, hr_dtype t, hr_strbuf *out) {
  srv_json_num n;
  HR_TRY(srv_json_number(r, &n));
  int64_t lo;
  uint64_t hi, u = 0;
  int64_t s = 0;
  int_range(t, &lo, &hi);
  bool ok = hr_dtype_is_signed_int(t) ? srv_json_to_i64(&n, &s) && s >= lo && (s < 0 || (uint64_t)s <= hi)
                                      : srv_json_to_u64(&n, &u) && u <= hi;
  if (!ok) {
    int shown = n.len > EXCERPT ? EXCERPT : (int)n.len;
    if (!n.integer)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': JSON Value: %.*s Type: Number is not of expected type: %s",
                      name, shown, n.text, srv_dtype_tf_name(t));
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': value %.*s is out of range for %s", name, shown, n.text,
                    srv_dtype_tf_name(t));
  }
  put_bytes(out, hr_dtype_is_signed_int(t) ? (uint64_t)s : u, hr_dtype_size(t));
  return NULL;
}

/* A double rounded to float as IEEE 754 rounds (to nearest), beyond float's range included (where
 * a C cast is undefined): an infinity from FLT_MAX plus half its spacing on. */
static float to_float(double v) {
  if (!isfinite(v) || fabs(v) <= FLT_MAX) return (float)v;
  return (float)copysign(fabs(v) < 0x1.ffffffp127 ? FLT_MAX : INFINITY, v);
}

/* Reads a float element: any number, NaN or +-Inf(inity). As in TensorFlow Serving (a double cast
 * to float), a value beyond the input type's range becomes an infinity; a finite token beyond a
 * double's range is RapidJSON's parse error. The narrow floats (f8/f6/f4, tf32) take the number
 * rounded as a convert from f64 rounds it (overflow, infinity and NaN by the type's rules:
 * base/minifloat.h). */
static hr_status put_float(srv_json *r, hr_dtype t, hr_strbuf *out) {
  srv_json_num n;
  HR_TRY(srv_json_number(r, &n));
  double v = 0;
  if (!srv_json_to_double(&n, &v)) {
    r->p = n.text;
    return srv_json_error(r, "Number too big to be stored in double.");
  }
  uint64_t bits = 0;
  if (t == HR_F64)
    bits = hr_f64_bits(v);
  else if (t == HR_F32)
    bits = hr_f32_bits(to_float(v));
  else if (hr_dtype_is_narrow_float(t))
    hr_narrow_float_store(t, v, &bits); /* rounded to nearest even as a convert does (little-endian) */
  else
    bits = t == HR_F16 ? hr_f64_to_f16(v) : hr_f64_to_bf16(v);
  put_bytes(out, bits, hr_dtype_size(t));
  return NULL;
}

hr_status srv_predict_read_element(srv_json *r, const char *name, hr_dtype t, hr_strbuf *out) {
  srv_json_kind k = srv_json_peek(r);
  if (t == HR_I1) {
    bool value = false, is_null = true;
    if (k == SRV_JSON_LITERAL) HR_TRY(srv_json_literal(r, &value, &is_null));
    if (is_null) return type_error(r, name, t, k);
    put_bytes(out, value, 1);
    return NULL;
  }
  if (k != SRV_JSON_NUMBER) return type_error(r, name, t, k);
  if (hr_dtype_is_real_float(t)) return put_float(r, t, out);
  if (hr_dtype_is_signed_int(t) || hr_dtype_is_unsigned_int(t)) return put_int(r, name, t, out);
  return hr_error(HR_UNIMPLEMENTED, "input '%s': %s elements cannot be given in JSON", name, hr_dtype_name(t));
}

/* Reads one element of the input's type at the reader. */
static hr_status put_scalar(parse_ctx *c, input_acc *a) {
  if (srv_json_peek(&c->r) == SRV_JSON_ARRAY)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': Encountered list at unexpected level: %d expected < %d",
                    a->info->name, a->rank, a->rank);
  HR_TRY(count_elements(c, 1));
  return srv_predict_read_element(&c->r, a->info->name, a->info->spec.dtype, &a->data);
}

/* ---------------------------------------------------------------------------------------------- */
/* Nested lists                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Records that a list at `level` had `n` elements: the first such list fixes the size (which must
 * match a static dim of the model), later ones must agree. */
static hr_status set_dim(input_acc *a, int level, int64_t n) {
  if (n == 0) return hr_error(HR_INVALID_ARGUMENT, "input '%s': empty list at level %d", a->info->name, level);
  int64_t want = a->info->spec.shape.dims[level];
  if (a->dims[level] < 0) {
    if (want >= 0 && want != n)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': dimension %d has size %lld but the model expects %lld",
                      a->info->name, level, (long long)n, (long long)want);
    a->dims[level] = n;
  } else if (a->dims[level] != n) {
    return hr_error(HR_INVALID_ARGUMENT,
                    "input '%s': Encountered list at unexpected size: %lld at level: %d expected size: %lld",
                    a->info->name, (long long)n, level, (long long)a->dims[level]);
  }
  return NULL;
}

/* Whether a {"b64": ...} value may stand for the innermost list of this input (byte inputs). */
static bool takes_b64(const input_acc *a, int level) {
  hr_dtype t = a->info->spec.dtype;
  return level == a->rank - 1 && (t == HR_U8 || t == HR_I8);
}

/* Reads {"b64": "..."} as the bytes of the innermost list. */
static hr_status put_b64(parse_ctx *c, input_acc *a, int level) {
  int64_t budget = c->max_elements - c->elements;
  size_t max_text = budget > (int64_t)(SIZE_MAX / 2) ? SIZE_MAX / 2 : (size_t)budget / 3 * 4 + 4;
  char key[8];
  bool first = true, more;
  c->scratch.len = 0;
  HR_TRY(srv_json_enter(&c->r, '{'));
  HR_TRY(srv_json_next(&c->r, '}', &first, &more));
  HR_TRY(srv_json_key(&c->r, key, sizeof key));
  HR_TRY(srv_json_string(&c->r, &c->scratch, max_text));
  HR_TRY(srv_json_next(&c->r, '}', &first, &more));
  size_t before = a->data.len;
  if (!srv_base64_decode(c->scratch.data ? c->scratch.data : "", c->scratch.len, &a->data))
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': Unable to base64 decode", a->info->name);
  HR_TRY(hr_strbuf_status(&a->data));
  int64_t n = (int64_t)(a->data.len - before);
  HR_TRY(count_elements(c, n));
  return set_dim(a, level, n);
}

/* Reads the value of an input at nesting `level` (<= the input's rank): a list of values one level
 * deeper, or an element when level equals the rank. */
static hr_status parse_value(parse_ctx *c, input_acc *a, int level) {
  if (level == a->rank) return put_scalar(c, a);
  srv_json_kind k = srv_json_peek(&c->r);
  if (k == SRV_JSON_OBJECT && takes_b64(a, level) && srv_json_at_b64(&c->r)) return put_b64(c, a, level);
  if (k != SRV_JSON_ARRAY) {
    char excerpt[EXCERPT];
    srv_json_excerpt(&c->r, excerpt, sizeof excerpt);
    return hr_error(HR_INVALID_ARGUMENT,
                    "input '%s': JSON Value: %s found at incorrect level: %d in the JSON DOM. Expected at level: %d",
                    a->info->name, excerpt, level, a->rank);
  }
  HR_TRY(srv_json_enter(&c->r, '['));
  bool first = true, more;
  int64_t n = 0;
  for (;;) {
    HR_TRY(srv_json_next(&c->r, ']', &first, &more));
    if (!more) break;
    HR_TRY(parse_value(c, a, level + 1));
    n++;
  }
  return set_dim(a, level, n);
}

/* The index of the signature input called `name`, or -1. */
static int find_input(const srv_signature *sig, const char *name) {
  for (int i = 0; i < sig->n_inputs; i++)
    if (strcmp(sig->inputs[i].name, name) == 0) return i;
  return -1;
}

/* "a,b,c": the input names, for messages. */
static void input_names(const srv_signature *sig, char *buf, size_t cap) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < sig->n_inputs && n + 1 < cap; i++) {
    int w = snprintf(buf + n, cap - n, "%s%s", i ? "," : "", sig->inputs[i].name);
    if (w < 0) break;
    n += (size_t)w;
  }
}

/* Reads an object naming inputs: {"name": value, ...}, each value at `level`; every input must be
 * named exactly once. `what` names the object in messages. */
static hr_status parse_named(parse_ctx *c, int level, const char *what) {
  char key[HR_LIMIT_NAME_BYTES], names[512];
  memset(c->seen, 0, (size_t)c->sig->n_inputs * sizeof *c->seen);
  HR_TRY(srv_json_enter(&c->r, '{'));
  bool first = true, more;
  for (;;) {
    HR_TRY(srv_json_next(&c->r, '}', &first, &more));
    if (!more) break;
    HR_TRY(srv_json_key(&c->r, key, sizeof key));
    int i = find_input(c->sig, key);
    if (i < 0) {
      input_names(c->sig, names, sizeof names);
      return hr_error(HR_INVALID_ARGUMENT, "JSON object: does not have named input: %s (inputs: %s)", key, names);
    }
    if (c->seen[i]) return hr_error(HR_INVALID_ARGUMENT, "input '%s' is named twice in %s", key, what);
    c->seen[i] = true;
    HR_TRY(parse_value(c, &c->accs[i], level));
  }
  for (int i = 0; i < c->sig->n_inputs; i++)
    if (!c->seen[i])
      return hr_error(HR_INVALID_ARGUMENT, "Missing named input: %s in %s", c->sig->inputs[i].name, what);
  return NULL;
}

/* Reads one element of "instances": a value of the only input, or an object naming every input. */
static hr_status parse_instance(parse_ctx *c, bool named, int64_t item) {
  bool is_object = srv_json_peek(&c->r) == SRV_JSON_OBJECT && !srv_json_at_b64(&c->r);
  if (named && !is_object)
    return hr_error(HR_INVALID_ARGUMENT, "Expecting object but got list at item %lld of input list", (long long)item);
  if (!named && is_object)
    return hr_error(HR_INVALID_ARGUMENT, "Expecting value/list but got object at item %lld of input list",
                    (long long)item);
  hr_status s = named ? parse_named(c, 1, "the 'instances' object") : parse_value(c, &c->accs[0], 1);
  return hr_status_wrap(s, "Failed to process element: %lld of 'instances' list. Error", (long long)item);
}

/* Reads "instances": a list of examples, stacked along a new first dimension. */
static hr_status parse_instances(parse_ctx *c) {
  for (int i = 0; i < c->sig->n_inputs; i++)
    if (c->accs[i].rank == 0)
      return hr_error(HR_INVALID_ARGUMENT,
                      "input '%s' is a scalar and cannot be given in row format ('instances'); use 'inputs'",
                      c->sig->inputs[i].name);
  if (srv_json_peek(&c->r) != SRV_JSON_ARRAY)
    return hr_error(HR_INVALID_ARGUMENT, "Expecting 'instances' to be an list/array");
  HR_TRY(srv_json_enter(&c->r, '['));
  bool first = true, more, named = false;
  int64_t rows = 0;
  for (;;) {
    HR_TRY(srv_json_next(&c->r, ']', &first, &more));
    if (!more) break;
    if (rows == 0) {
      named = srv_json_peek(&c->r) == SRV_JSON_OBJECT && !srv_json_at_b64(&c->r);
      if (!named && c->sig->n_inputs > 1)
        return hr_error(HR_INVALID_ARGUMENT,
                        "instances is a plain list, but expecting list of objects as multiple "
                        "input tensors required as per tensorinfo_map");
    }
    HR_TRY(parse_instance(c, named, rows));
    rows++;
  }
  if (rows == 0) return hr_error(HR_INVALID_ARGUMENT, "No values in 'instances' array");
  for (int i = 0; i < c->sig->n_inputs; i++) HR_TRY(set_dim(&c->accs[i], 0, rows));
  return NULL;
}

/* Reads "inputs": the only input's value, or an object naming every input. */
static hr_status parse_inputs(parse_ctx *c) {
  if (srv_json_peek(&c->r) == SRV_JSON_OBJECT && !srv_json_at_b64(&c->r)) return parse_named(c, 0, "'inputs' object");
  if (c->sig->n_inputs > 1)
    return hr_error(HR_INVALID_ARGUMENT,
                    "inputs is a plain value/list, but expecting an object as multiple input "
                    "tensors required as per tensorinfo_map");
  return parse_value(c, &c->accs[0], 0);
}

/* Reads a "signature_name" value: a string (at most HR_LIMIT_NAME_BYTES bytes) into `name`. */
static hr_status read_signature_name(srv_json *r, hr_strbuf *name) {
  if (srv_json_peek(r) != SRV_JSON_STRING)
    return hr_error(HR_INVALID_ARGUMENT,
                    "JSON Value not formatted correctly. 'signature_name' key must be a string value.");
  return srv_json_string(r, name, HR_LIMIT_NAME_BYTES);
}

/* Checks a "signature_name" value: it names the signature parsed against (empty names
 * serving_default). */
static hr_status parse_signature_name(parse_ctx *c) {
  hr_strbuf name;
  hr_strbuf_init(&name, NULL);
  hr_status s = read_signature_name(&c->r, &name);
  const char *text = name.data && name.data[0] ? name.data : SRV_SIGNATURE_NAME;
  if (!s && strcmp(text, srv_signature_name(c->sig)) != 0)
    s = hr_error(HR_INVALID_ARGUMENT, "Serving signature name: \"%s\" not found in signature def", text);
  hr_strbuf_free(&name);
  return s;
}

/* Checks that a document is not empty and starts with an object. */
static hr_status check_document(srv_json *r) {
  if (r->end == r->begin) return hr_error(HR_INVALID_ARGUMENT, "JSON Parse error: The document is empty");
  if (srv_json_peek(r) == SRV_JSON_OBJECT) return NULL;
  char excerpt[EXCERPT];
  srv_json_excerpt(r, excerpt, sizeof excerpt);
  return hr_error(HR_INVALID_ARGUMENT, "JSON Value: %s Is not object", excerpt);
}

hr_status srv_predict_signature_name(const char *body, size_t len, const srv_predict_limits *limits, hr_strbuf *name) {
  srv_json r;
  srv_json_init(&r, body, len, limits->max_json_depth);
  HR_TRY(check_document(&r));
  HR_TRY(srv_json_enter(&r, '{'));
  bool first = true, more;
  char key[HR_LIMIT_NAME_BYTES];
  for (;;) {
    HR_TRY(srv_json_next(&r, '}', &first, &more));
    if (!more) return NULL;
    HR_TRY(srv_json_key(&r, key, sizeof key));
    if (strcmp(key, "signature_name") == 0) return read_signature_name(&r, name);
    HR_TRY(srv_json_skip(&r));
  }
}

/* Reads the top-level object; sets *format from the key present. */
static hr_status parse_document(parse_ctx *c, srv_predict_format *format) {
  HR_TRY(check_document(&c->r));
  HR_TRY(srv_json_enter(&c->r, '{'));
  bool first = true, more, have_rows = false, have_columns = false;
  char key[HR_LIMIT_NAME_BYTES];
  for (;;) {
    HR_TRY(srv_json_next(&c->r, '}', &first, &more));
    if (!more) break;
    HR_TRY(srv_json_key(&c->r, key, sizeof key));
    bool rows = strcmp(key, "instances") == 0, columns = strcmp(key, "inputs") == 0;
    if ((rows || columns) && (have_rows || have_columns))
      return hr_error(HR_INVALID_ARGUMENT,
                      "Not formatted correctly expecting only one of 'inputs' or 'instances' keys to exist");
    if (rows) {
      have_rows = true;
      HR_TRY(parse_instances(c));
    } else if (columns) {
      have_columns = true;
      HR_TRY(parse_inputs(c));
    } else if (strcmp(key, "signature_name") == 0) {
      HR_TRY(parse_signature_name(c));
    } else {
      HR_TRY(srv_json_skip(&c->r));
    }
  }
  /* What follows the document's object is not read (RapidJSON's kParseStopWhenDoneFlag). */
  if (!have_rows && !have_columns) return hr_error(HR_INVALID_ARGUMENT, "Missing 'inputs' or 'instances' key");
  *format = have_rows ? SRV_FORMAT_ROW : SRV_FORMAT_COLUMNAR;
  return NULL;
}

/* Builds the input tensors from what was read. */
static hr_status make_tensors(parse_ctx *c, srv_predict_request *out) {
  out->inputs = calloc((size_t)c->sig->n_inputs + 1, sizeof *out->inputs);
  if (!out->inputs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  out->n_inputs = c->sig->n_inputs;
  for (int i = 0; i < c->sig->n_inputs; i++) {
    input_acc *a = &c->accs[i];
    HR_TRY(hr_strbuf_status(&a->data));
    hr_shape shape = {.rank = a->rank};
    memcpy(shape.dims, a->dims, sizeof a->dims);
    HR_TRY(hr_tensor_create(NULL, a->info->spec.dtype, &shape, 0, &out->inputs[i]));
    if (out->inputs[i]->nbytes != a->data.len)
      return hr_error(HR_INTERNAL, "input '%s': read %zu bytes for a tensor of %zu", a->info->name, a->data.len,
                      out->inputs[i]->nbytes);
    if (a->data.len) memcpy(out->inputs[i]->data, a->data.data, a->data.len);
  }
  return NULL;
}

/* Checks that the signature has inputs, each of a type JSON can carry. */
static hr_status check_signature(const srv_signature *sig) {
  const char *name = srv_signature_name(sig);
  if (sig->n_inputs == 0)
    return hr_error(HR_INVALID_ARGUMENT, "Failed to get input map for signature: %s",
                    strcmp(name, SRV_SIGNATURE_NAME) == 0 ? "DEFAULT" : name);
  for (int i = 0; i < sig->n_inputs; i++)
    if (hr_dtype_is_complex(sig->inputs[i].spec.dtype))
      return hr_error(HR_UNIMPLEMENTED, "input '%s' is %s: complex inputs cannot be given in JSON", sig->inputs[i].name,
                      srv_dtype_tf_name(sig->inputs[i].spec.dtype));
  return NULL;
}

hr_status srv_predict_parse(const char *body, size_t len, const srv_signature *sig, const srv_predict_limits *limits,
                            srv_predict_request *out) {
  memset(out, 0, sizeof *out);
  if (len == 0) return hr_error(HR_INVALID_ARGUMENT, "JSON Parse error: The document is empty");
  HR_TRY(check_signature(sig));
  parse_ctx c = {.sig = sig, .max_elements = limits->max_tensor_elements};
  srv_json_init(&c.r, body, len, limits->max_json_depth);
  hr_strbuf_init(&c.scratch, NULL);
  c.accs = calloc((size_t)sig->n_inputs, sizeof *c.accs);
  c.seen = calloc((size_t)sig->n_inputs, sizeof *c.seen);
  hr_status s = c.accs && c.seen ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; !s && i < sig->n_inputs; i++) {
    c.accs[i].info = &sig->inputs[i];
    c.accs[i].rank = sig->inputs[i].spec.shape.rank;
    for (int d = 0; d < HR_MAX_RANK; d++) c.accs[i].dims[d] = -1;
    hr_strbuf_init(&c.accs[i].data, NULL);
  }
  if (!s) s = parse_document(&c, &out->format);
  if (!s) s = make_tensors(&c, out);
  for (int i = 0; c.accs && i < sig->n_inputs; i++) hr_strbuf_free(&c.accs[i].data);
  free(c.accs);
  free(c.seen);
  hr_strbuf_free(&c.scratch);
  if (s) srv_predict_request_free(out);
  return s;
}

void srv_predict_request_free(srv_predict_request *r) {
  for (int i = 0; r->inputs && i < r->n_inputs; i++) hr_tensor_free(r->inputs[i]);
  free(r->inputs);
  memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------------------------------------- */
/* Responses                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

void srv_predict_put_element(hr_strbuf *sb, const hr_tensor *t, int64_t i) {
  const unsigned char *p = (const unsigned char *)t->data + (size_t)i * hr_dtype_size(t->dtype);
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  switch (t->dtype) {
    case HR_I1: hr_strbuf_puts(sb, *p ? "true" : "false"); return;
    case HR_I2:
    case HR_I4:
    case HR_I8:
      memcpy(&i8, p, 1);
      srv_json_put_i64(sb, i8);
      return;
    case HR_I16:
      memcpy(&i16, p, 2);
      srv_json_put_i64(sb, i16);
      return;
    case HR_I32:
      memcpy(&i32, p, 4);
      srv_json_put_i64(sb, i32);
      return;
    case HR_I64:
    case HR_INDEX:
      memcpy(&i64, p, 8);
      srv_json_put_i64(sb, i64);
      return;
    case HR_U2:
    case HR_U4:
    case HR_U8: srv_json_put_u64(sb, *p); return;
    case HR_U16:
      memcpy(&u16, p, 2);
      srv_json_put_u64(sb, u16);
      return;
    case HR_U32:
      memcpy(&u32, p, 4);
      srv_json_put_u64(sb, u32);
      return;
    case HR_U64:
      memcpy(&u64, p, 8);
      srv_json_put_u64(sb, u64);
      return;
    case HR_F16:
    case HR_BF16:
      memcpy(&u16, p, 2);
      srv_json_put_float(sb, t->dtype, u16);
      return;
    case HR_F32:
      memcpy(&u32, p, 4);
      srv_json_put_float(sb, HR_F32, u32);
      return;
    case HR_F64:
      memcpy(&u64, p, 8);
      srv_json_put_float(sb, HR_F64, u64);
      return;
    case HR_C64:
      memcpy(&u32, p, 4);
      hr_strbuf_putc(sb, '[');
      srv_json_put_float(sb, HR_F32, u32);
      memcpy(&u32, p + 4, 4);
      hr_strbuf_putc(sb, ',');
      srv_json_put_float(sb, HR_F32, u32);
      hr_strbuf_putc(sb, ']');
      return;
    case HR_C128:
      memcpy(&u64, p, 8);
      hr_strbuf_putc(sb, '[');
      srv_json_put_float(sb, HR_F64, u64);
      memcpy(&u64, p + 8, 8);
      hr_strbuf_putc(sb, ',');
      srv_json_put_float(sb, HR_F64, u64);
      hr_strbuf_putc(sb, ']');
      return;
    case HR_F8E4M3FN:
    case HR_F8E5M2:
    case HR_F8E4M3FNUZ:
    case HR_F8E5M2FNUZ:
    case HR_F8E4M3B11FNUZ:
    case HR_F8E3M4:
    case HR_F8E4M3:
    case HR_F8E8M0FNU:
    case HR_F4E2M1FN:
    case HR_F6E2M3FN:
    case HR_F6E3M2FN:
    case HR_TF32: {
      double v = hr_narrow_float_load(t->dtype, p);
      memcpy(&u64, &v, 8);
      srv_json_put_float(sb, HR_F64, u64);
      return;
    }
    case HR_DTYPE_INVALID:
    case HR_DTYPE_COUNT: break;
  }
  hr_strbuf_puts(sb, "null");
}

/* Appends dims [dim, rank) of a tensor as nested lists, from element *next on. */
static void put_values(hr_strbuf *sb, const hr_tensor *t, int dim, int64_t *next) {
  if (dim == t->shape.rank) {
    srv_predict_put_element(sb, t, (*next)++);
    return;
  }
  hr_strbuf_putc(sb, '[');
  for (int64_t i = 0; i < t->shape.dims[dim]; i++) {
    if (i) hr_strbuf_putc(sb, ',');
    put_values(sb, t, dim + 1, next);
  }
  hr_strbuf_putc(sb, ']');
}

/* Checks that row format can split the outputs: same first dimension >= 1 everywhere. */
static hr_status batch_size(const srv_signature *sig, hr_tensor *const *outputs, int64_t *out) {
  *out = 0;
  for (int i = 0; i < sig->n_outputs; i++) {
    const char *name = sig->outputs[i].name;
    if (outputs[i]->shape.rank == 0)
      return hr_error(HR_INVALID_ARGUMENT, "Tensor name: %s has no shape information ", name);
    int64_t b = outputs[i]->shape.dims[0];
    if (b < 1) return hr_error(HR_INVALID_ARGUMENT, "Tensor name: %s has invalid batch size: %lld", name, (long long)b);
    if (*out && b != *out)
      return hr_error(HR_INVALID_ARGUMENT, "Tensor name: %s has inconsistent batch size: %lld expecting: %lld", name,
                      (long long)b, (long long)*out);
    *out = b;
  }
  return NULL;
}

/* {"predictions": [row, ...]}: each row the only output's slice, or {"name": slice, ...}. */
static hr_status encode_rows(const srv_signature *sig, hr_tensor *const *outputs, hr_strbuf *sb) {
  int64_t rows;
  HR_TRY(batch_size(sig, outputs, &rows));
  bool named = sig->n_outputs > 1;
  hr_strbuf_puts(sb, "{\"predictions\": [");
  for (int64_t r = 0; r < rows; r++) {
    if (r) hr_strbuf_puts(sb, ",\n");
    if (named) hr_strbuf_putc(sb, '{');
    for (int i = 0; i < sig->n_outputs; i++) {
      const hr_tensor *t = outputs[i];
      if (named) {
        if (i) hr_strbuf_puts(sb, ", ");
        srv_json_put_cstring(sb, sig->outputs[i].name);
        hr_strbuf_puts(sb, ": ");
      }
      int64_t per_row = hr_tensor_num_elements(t) / t->shape.dims[0];
      int64_t first = r * per_row;
      put_values(sb, t, 1, &first);
    }
    if (named) hr_strbuf_putc(sb, '}');
  }
  hr_strbuf_puts(sb, "]}");
  return NULL;
}

/* {"outputs": value} for one output, {"outputs": {"name": value, ...}} for several. */
static void encode_columns(const srv_signature *sig, hr_tensor *const *outputs, hr_strbuf *sb) {
  bool named = sig->n_outputs > 1;
  hr_strbuf_puts(sb, named ? "{\"outputs\": {" : "{\"outputs\": ");
  for (int i = 0; i < sig->n_outputs; i++) {
    if (named) {
      if (i) hr_strbuf_puts(sb, ",\n");
      srv_json_put_cstring(sb, sig->outputs[i].name);
      hr_strbuf_puts(sb, ": ");
    }
    int64_t first = 0;
    put_values(sb, outputs[i], 0, &first);
  }
  hr_strbuf_puts(sb, named ? "}}" : "}");
}

hr_status srv_predict_encode(const srv_signature *sig, srv_predict_format format, hr_tensor *const *outputs,
                             int n_outputs, hr_strbuf *sb) {
  if (n_outputs != sig->n_outputs || n_outputs == 0)
    return hr_error(HR_INTERNAL, "the model returned %d outputs, its signature has %d", n_outputs, sig->n_outputs);
  /* Room for the usual text at once: about 12 bytes per float ("-0.123456789," is the longest
   * common form), a few per integer or boolean. */
  size_t estimate = 64;
  for (int i = 0; i < n_outputs; i++) {
    int64_t n = hr_tensor_num_elements(outputs[i]);
    size_t per = hr_dtype_is_float(outputs[i]->dtype) || hr_dtype_is_complex(outputs[i]->dtype) ? 12 : 4;
    if (n > 0 && (uint64_t)n < (SIZE_MAX / 4 - estimate) / per) estimate += (size_t)n * per;
  }
  if (!hr_strbuf_reserve(sb, estimate)) return hr_strbuf_status(sb);
  if (format == SRV_FORMAT_ROW) {
    HR_TRY(encode_rows(sig, outputs, sb));
  } else {
    encode_columns(sig, outputs, sb);
  }
  return hr_strbuf_status(sb);
}

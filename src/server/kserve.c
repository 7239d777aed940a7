/* KServe v2 REST (kserve.h): routes, the inference request parser and the response encoder.
 *
 * The request's JSON is read in one pass with the bounded pull reader (json.h). An input's members
 * may come in any order, so its "data" is skipped where it stands and read once its datatype and
 * shape are known, from a copy of the reader saved there: every element is converted straight
 * into the input's bytes (srv_predict_read_element, as the predict API converts them). */
#include "server/kserve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "server/json.h"
#include "server/kserve_types.h"

enum {
  DATATYPE_CAP = 64, /* bytes of a datatype name read (longer ones are unknown anyway) */
};

/* ---------------------------------------------------------------------------------------------- */
/* Parsing                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* One "inputs" entry as read, before it is checked and converted. */
typedef struct input_entry {
  char name[HR_LIMIT_NAME_BYTES];
  char datatype[DATATYPE_CAP];
  bool has_datatype, has_shape, has_data, has_binary;
  int rank;                      /* dims read (one more than HR_MAX_RANK means too many) */
  int64_t dims[HR_MAX_RANK + 1];
  int64_t binary_size;           /* parameters.binary_data_size */
  srv_json data;                 /* the reader at "data"'s value */
} input_entry;

/* The state of one parse. */
typedef struct parse_ctx {
  srv_json r;
  const srv_signature *sig;
  srv_kserve_request *out;
  int64_t elements_left; /* of limits->max_tensor_elements */
  const char *binary;    /* the binary tensor data */
  size_t binary_len, binary_used;
  int *requested;         /* per signature output: its position among the outputs asked for, or -1 */
  signed char *binary_of; /* per output asked for: binary_data (1, 0), or -1 when not given */
  int binary_default;     /* parameters.binary_data_output: 1, 0, or -1 */
  hr_strbuf scratch;      /* elements of the input being read */
} parse_ctx;

/* Reads a string value of at most cap - 1 bytes into buf; `what` names it in messages. */
static hr_status read_text(srv_json *r, const char *what, char *buf, size_t cap) {
  if (srv_json_peek(r) != SRV_JSON_STRING) return hr_error(HR_INVALID_ARGUMENT, "%s must be a string", what);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status st = srv_json_string(r, &sb, cap - 1);
  if (!st) st = hr_strbuf_status(&sb);
  if (!st) {
    if (sb.len) memcpy(buf, sb.data, sb.len);
    buf[sb.len] = '\0';
  }
  hr_strbuf_free(&sb);
  return st;
}

/* Reads true or false; `what` names the value in messages. */
static hr_status read_bool(srv_json *r, const char *what, bool *out) {
  bool is_null = true;
  if (srv_json_peek(r) == SRV_JSON_LITERAL) HR_TRY(srv_json_literal(r, out, &is_null));
  if (is_null) return hr_error(HR_INVALID_ARGUMENT, "%s must be true or false", what);
  return NULL;
}

/* Reads an integer >= 0; `what` names the value in messages. */
static hr_status read_count(srv_json *r, const char *what, int64_t *out) {
  srv_json_num n;
  if (srv_json_peek(r) != SRV_JSON_NUMBER) return hr_error(HR_INVALID_ARGUMENT, "%s must be an integer", what);
  HR_TRY(srv_json_number(r, &n));
  if (!srv_json_to_i64(&n, out) || *out < 0)
    return hr_error(HR_INVALID_ARGUMENT, "%s must be an integer >= 0, not %.*s", what, (int)(n.len < 40 ? n.len : 40),
                    n.text);
  return NULL;
}

/* Walks a "parameters" object, calling `visit` with each name (other values are skipped by it). */
static hr_status read_parameters(srv_json *r, hr_status (*visit)(srv_json *r, const char *key, void *ctx), void *ctx) {
  if (srv_json_peek(r) != SRV_JSON_OBJECT) return hr_error(HR_INVALID_ARGUMENT, "'parameters' must be an object");
  HR_TRY(srv_json_enter(r, '{'));
  bool first = true, more;
  char key[HR_LIMIT_NAME_BYTES];
  for (;;) {
    HR_TRY(srv_json_next(r, '}', &first, &more));
    if (!more) return NULL;
    HR_TRY(srv_json_key(r, key, sizeof key));
    HR_TRY(visit(r, key, ctx));
  }
}

/* An input's parameters: binary_data_size. */
static hr_status visit_input_parameter(srv_json *r, const char *key, void *ctx) {
  input_entry *e = ctx;
  if (strcmp(key, "binary_data_size") != 0) return srv_json_skip(r);
  e->has_binary = true;
  return read_count(r, "parameter 'binary_data_size'", &e->binary_size);
}

/* Reads an input's "shape": a list of at most HR_MAX_RANK integers >= 0 (one more is read, to be
 * refused with the rank). */
static hr_status read_shape(srv_json *r, input_entry *e) {
  if (srv_json_peek(r) != SRV_JSON_ARRAY)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': 'shape' must be a list of integers", e->name);
  HR_TRY(srv_json_enter(r, '['));
  bool first = true, more;
  e->rank = 0;
  for (;;) {
    HR_TRY(srv_json_next(r, ']', &first, &more));
    if (!more) break;
    if (e->rank > HR_MAX_RANK)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': shape has more than %d dimensions", e->name, HR_MAX_RANK);
    HR_TRY(read_count(r, "a shape dimension", &e->dims[e->rank]));
    e->rank++;
  }
  e->has_shape = true;
  return NULL;
}

/* Reads the members of one "inputs" entry into `e`, "data" skipped (its position kept). */
static hr_status read_input_entry(parse_ctx *c, input_entry *e) {
  if (srv_json_peek(&c->r) != SRV_JSON_OBJECT)
    return hr_error(HR_INVALID_ARGUMENT, "each element of 'inputs' must be an object");
  HR_TRY(srv_json_enter(&c->r, '{'));
  bool first = true, more, has_name = false;
  char key[HR_LIMIT_NAME_BYTES];
  for (;;) {
    HR_TRY(srv_json_next(&c->r, '}', &first, &more));
    if (!more) break;
    HR_TRY(srv_json_key(&c->r, key, sizeof key));
    if (strcmp(key, "name") == 0) {
      HR_TRY(read_text(&c->r, "an input's 'name'", e->name, sizeof e->name));
      has_name = true;
    } else if (strcmp(key, "datatype") == 0) {
      HR_TRY(read_text(&c->r, "an input's 'datatype'", e->datatype, sizeof e->datatype));
      e->has_datatype = true;
    } else if (strcmp(key, "shape") == 0) {
      HR_TRY(read_shape(&c->r, e));
    } else if (strcmp(key, "parameters") == 0) {
      HR_TRY(read_parameters(&c->r, visit_input_parameter, e));
    } else if (strcmp(key, "data") == 0) {
      e->data = c->r;
      e->has_data = true;
      HR_TRY(srv_json_skip(&c->r));
    } else {
      HR_TRY(srv_json_skip(&c->r));
    }
  }
  if (!has_name) return hr_error(HR_INVALID_ARGUMENT, "an element of 'inputs' has no 'name'");
  if (!e->has_datatype) return hr_error(HR_INVALID_ARGUMENT, "input '%s' has no 'datatype'", e->name);
  if (!e->has_shape) return hr_error(HR_INVALID_ARGUMENT, "input '%s' has no 'shape'", e->name);
  if (e->has_data == e->has_binary)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s' needs exactly one of 'data' and the binary_data_size parameter",
                    e->name);
  return NULL;
}

/* The index of the signature input or output called `name` among `n` infos, or -1. */
static int find_info(const srv_tensor_info *infos, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(infos[i].name, name) == 0) return i;
  return -1;
}

/* Checks an entry's datatype and shape against the signature input `info`; *shape and *elements
 * are the tensor's. */
static hr_status check_input(parse_ctx *c, const input_entry *e, const srv_tensor_info *info, hr_shape *shape,
                             int64_t *elements) {
  hr_dtype t;
  HR_TRY(hr_status_wrap(srv_kserve_datatype_parse(e->datatype, strlen(e->datatype), &t), "input '%s'", e->name));
  hr_dtype want = info->spec.dtype;
  if (t != want) {
    const char *name = srv_kserve_datatype_name(want);
    return hr_error(HR_INVALID_ARGUMENT, "input '%s' has datatype %s, the model expects %s", e->name, e->datatype,
                    name ? name : hr_dtype_name(want));
  }
  HR_TRY(srv_kserve_shape(e->name, e->dims, e->rank, c->elements_left, shape, elements));
  const hr_shape *model = &info->spec.shape;
  bool match = shape->rank == model->rank;
  for (int d = 0; match && d < model->rank; d++) match = model->dims[d] < 0 || model->dims[d] == shape->dims[d];
  if (!match) {
    hr_strbuf want_text;
    hr_strbuf_init(&want_text, NULL);
    for (int d = 0; d < model->rank; d++) hr_strbuf_printf(&want_text, "%s%lld", d ? "," : "", (long long)model->dims[d]);
    hr_status st = hr_error(HR_INVALID_ARGUMENT, "input '%s' has a shape of rank %d that does not match the model's [%s]",
                            e->name, shape->rank, want_text.data ? want_text.data : "");
    hr_strbuf_free(&want_text);
    return st;
  }
  c->elements_left -= *elements;
  return NULL;
}

/* Reads a "data" value's elements in row-major order, lists nested any way (flat or as the
 * shape): at most `want` of them in total (*count so far). */
static hr_status read_data(srv_json *r, const char *name, hr_dtype t, int64_t want, int64_t *count,
                           hr_strbuf *out) {
  if (srv_json_peek(r) != SRV_JSON_ARRAY) {
    if (*count >= want)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': 'data' holds more than the %lld elements of its shape", name,
                      (long long)want);
    (*count)++;
    return srv_predict_read_element(r, name, t, out);
  }
  HR_TRY(srv_json_enter(r, '['));
  bool first = true, more;
  for (;;) {
    HR_TRY(srv_json_next(r, ']', &first, &more));
    if (!more) return NULL;
    HR_TRY(read_data(r, name, t, want, count, out));
  }
}

/* Makes the tensor of a JSON input from its "data". */
static hr_status tensor_from_data(parse_ctx *c, input_entry *e, hr_dtype t, const hr_shape *shape, int64_t elements,
                                  hr_tensor **out) {
  if (srv_json_peek(&e->data) != SRV_JSON_ARRAY)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': 'data' must be a list", e->name);
  c->scratch.len = 0;
  int64_t count = 0;
  HR_TRY(read_data(&e->data, e->name, t, elements, &count, &c->scratch));
  HR_TRY(hr_strbuf_status(&c->scratch));
  if (count != elements)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': 'data' holds %lld elements, its shape %lld", e->name,
                    (long long)count, (long long)elements);
  return srv_kserve_tensor_from_raw(e->name, t, shape, c->scratch.data, c->scratch.len, out);
}

/* Makes the tensor of a binary input from the next binary_data_size bytes of binary data. */
static hr_status tensor_from_binary(parse_ctx *c, const input_entry *e, hr_dtype t, const hr_shape *shape,
                                    hr_tensor **out) {
  size_t left = c->binary_len - c->binary_used;
  if ((uint64_t)e->binary_size > left)
    return hr_error(HR_INVALID_ARGUMENT,
                    "input '%s': binary_data_size %lld exceeds the %zu bytes of binary tensor data left in the body",
                    e->name, (long long)e->binary_size, left);
  const char *bytes = c->binary + c->binary_used;
  c->binary_used += (size_t)e->binary_size;
  return srv_kserve_tensor_from_raw(e->name, t, shape, bytes, (size_t)e->binary_size, out);
}

/* Reads one "inputs" entry and makes its tensor, in its signature position. */
static hr_status parse_input(parse_ctx *c) {
  input_entry *e = calloc(1, sizeof *e);
  if (!e) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_status st = read_input_entry(c, e);
  int i = st ? -1 : find_info(c->sig->inputs, c->sig->n_inputs, e->name);
  if (!st && i < 0) st = hr_error(HR_INVALID_ARGUMENT, "unexpected inference input '%s': the model has no such input", e->name);
  if (!st && c->out->inputs[i]) st = hr_error(HR_INVALID_ARGUMENT, "input '%s' is given twice", e->name);
  hr_shape shape;
  int64_t elements = 0;
  if (!st) st = check_input(c, e, &c->sig->inputs[i], &shape, &elements);
  if (!st) {
    hr_dtype t = c->sig->inputs[i].spec.dtype;
    st = e->has_data ? tensor_from_data(c, e, t, &shape, elements, &c->out->inputs[i])
                     : tensor_from_binary(c, e, t, &shape, &c->out->inputs[i]);
  }
  free(e);
  return st;
}

/* Reads "inputs": a list of input entries. */
static hr_status parse_inputs(parse_ctx *c) {
  if (srv_json_peek(&c->r) != SRV_JSON_ARRAY) return hr_error(HR_INVALID_ARGUMENT, "'inputs' must be a list");
  HR_TRY(srv_json_enter(&c->r, '['));
  bool first = true, more;
  for (;;) {
    HR_TRY(srv_json_next(&c->r, ']', &first, &more));
    if (!more) return NULL;
    HR_TRY(parse_input(c));
  }
}

/* An output's parameters: binary_data. */
static hr_status visit_output_parameter(srv_json *r, const char *key, void *ctx) {
  signed char *binary = ctx;
  if (strcmp(key, "binary_data") != 0) return srv_json_skip(r);
  bool value;
  HR_TRY(read_bool(r, "parameter 'binary_data'", &value));
  *binary = value;
  return NULL;
}

/* Reads one "outputs" entry: the name of a signature output (each asked for once) and its
 * parameters. */
static hr_status parse_output(parse_ctx *c) {
  if (srv_json_peek(&c->r) != SRV_JSON_OBJECT)
    return hr_error(HR_INVALID_ARGUMENT, "each element of 'outputs' must be an object");
  HR_TRY(srv_json_enter(&c->r, '{'));
  bool first = true, more, has_name = false;
  char key[HR_LIMIT_NAME_BYTES], name[HR_LIMIT_NAME_BYTES];
  signed char binary = -1;
  for (;;) {
    HR_TRY(srv_json_next(&c->r, '}', &first, &more));
    if (!more) break;
    HR_TRY(srv_json_key(&c->r, key, sizeof key));
    if (strcmp(key, "name") == 0) {
      HR_TRY(read_text(&c->r, "an output's 'name'", name, sizeof name));
      has_name = true;
    } else if (strcmp(key, "parameters") == 0) {
      HR_TRY(read_parameters(&c->r, visit_output_parameter, &binary));
    } else {
      HR_TRY(srv_json_skip(&c->r));
    }
  }
  if (!has_name) return hr_error(HR_INVALID_ARGUMENT, "an element of 'outputs' has no 'name'");
  int i = find_info(c->sig->outputs, c->sig->n_outputs, name);
  if (i < 0) return hr_error(HR_INVALID_ARGUMENT, "unexpected inference output '%s': the model has no such output", name);
  if (c->requested[i] >= 0) return hr_error(HR_INVALID_ARGUMENT, "output '%s' is asked for twice", name);
  int k = c->out->n_outputs++;
  c->requested[i] = k;
  c->out->outputs[k] = i;
  c->binary_of[k] = binary;
  return NULL;
}

/* Reads "outputs": the outputs to answer, in order. */
static hr_status parse_outputs(parse_ctx *c) {
  if (srv_json_peek(&c->r) != SRV_JSON_ARRAY) return hr_error(HR_INVALID_ARGUMENT, "'outputs' must be a list");
  HR_TRY(srv_json_enter(&c->r, '['));
  bool first = true, more;
  for (;;) {
    HR_TRY(srv_json_next(&c->r, ']', &first, &more));
    if (!more) return NULL;
    HR_TRY(parse_output(c));
  }
}

/* The request's parameters: binary_data_output. */
static hr_status visit_request_parameter(srv_json *r, const char *key, void *ctx) {
  int *binary_default = ctx;
  if (strcmp(key, "binary_data_output") != 0) return srv_json_skip(r);
  bool value;
  HR_TRY(read_bool(r, "parameter 'binary_data_output'", &value));
  *binary_default = value;
  return NULL;
}

/* Reads the request's "id": a string, kept to be echoed. */
static hr_status parse_id(parse_ctx *c) {
  if (c->out->id) return hr_error(HR_INVALID_ARGUMENT, "'id' is given twice");
  if (srv_json_peek(&c->r) != SRV_JSON_STRING) return hr_error(HR_INVALID_ARGUMENT, "'id' must be a string");
  hr_strbuf id;
  hr_strbuf_init(&id, NULL);
  hr_status st = srv_json_string(&c->r, &id, HR_LIMIT_NAME_BYTES);
  if (!st) st = hr_strbuf_status(&id);
  if (!st) c->out->id = id.data ? id.data : strdup("");
  if (!st && !c->out->id) st = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (st) hr_strbuf_free(&id);
  return st;
}

/* Reads the request's object. */
static hr_status parse_document(parse_ctx *c) {
  if (srv_json_peek(&c->r) != SRV_JSON_OBJECT)
    return hr_error(HR_INVALID_ARGUMENT, "the inference request must be a JSON object");
  HR_TRY(srv_json_enter(&c->r, '{'));
  bool first = true, more, has_inputs = false, has_outputs = false;
  char key[HR_LIMIT_NAME_BYTES];
  for (;;) {
    HR_TRY(srv_json_next(&c->r, '}', &first, &more));
    if (!more) break;
    HR_TRY(srv_json_key(&c->r, key, sizeof key));
    bool inputs = strcmp(key, "inputs") == 0, outputs = strcmp(key, "outputs") == 0;
    if ((inputs && has_inputs) || (outputs && has_outputs))
      return hr_error(HR_INVALID_ARGUMENT, "'%s' is given twice", key);
    if (inputs) {
      has_inputs = true;
      HR_TRY(parse_inputs(c));
    } else if (outputs) {
      has_outputs = true;
      HR_TRY(parse_outputs(c));
    } else if (strcmp(key, "id") == 0) {
      HR_TRY(parse_id(c));
    } else if (strcmp(key, "parameters") == 0) {
      HR_TRY(read_parameters(&c->r, visit_request_parameter, &c->binary_default));
    } else {
      HR_TRY(srv_json_skip(&c->r));
    }
  }
  HR_TRY(srv_json_finish(&c->r));
  if (!has_inputs) return hr_error(HR_INVALID_ARGUMENT, "the inference request has no 'inputs'");
  if (!has_outputs) {
    for (int i = 0; i < c->sig->n_outputs; i++) c->out->outputs[i] = i;
    c->out->n_outputs = c->sig->n_outputs;
  }
  return NULL;
}

/* Checks what the document as a whole must satisfy: every input given, the binary data used up;
 * and settles which outputs are answered as binary. */
static hr_status finish_request(parse_ctx *c) {
  for (int i = 0; i < c->sig->n_inputs; i++)
    if (!c->out->inputs[i])
      return hr_error(HR_INVALID_ARGUMENT, "expected inference input '%s' is missing", c->sig->inputs[i].name);
  if (c->binary_used != c->binary_len)
    return hr_error(HR_INVALID_ARGUMENT, "%zu bytes of binary tensor data follow the JSON, the inputs take %zu",
                    c->binary_len, c->binary_used);
  for (int k = 0; k < c->out->n_outputs; k++) {
    int b = c->binary_of[k] >= 0 ? c->binary_of[k] : c->binary_default;
    c->out->binary[k] = b > 0;
  }
  return NULL;
}

hr_status srv_kserve_json_length(const char *header, size_t len, size_t *json_len) {
  if (!header) {
    *json_len = len;
    return NULL;
  }
  char *end;
  errno = 0;
  unsigned long long n = strtoull(header, &end, 10);
  if (header[0] < '0' || header[0] > '9' || *end != '\0' || errno == ERANGE)
    return hr_error(HR_INVALID_ARGUMENT, "%s: '%.40s' is not a byte count", SRV_INFERENCE_HEADER, header);
  if (n > len)
    return hr_error(HR_INVALID_ARGUMENT, "%s: %llu exceeds the body's %zu bytes", SRV_INFERENCE_HEADER, n, len);
  *json_len = (size_t)n;
  return NULL;
}

hr_status srv_kserve_parse_infer(const char *body, size_t len, size_t json_len, const srv_signature *sig,
                                 const srv_predict_limits *limits, srv_kserve_request *out) {
  memset(out, 0, sizeof *out);
  if (json_len > len) return hr_error(HR_INTERNAL, "the JSON part (%zu bytes) exceeds the body (%zu)", json_len, len);
  parse_ctx c = {.sig = sig, .out = out, .elements_left = limits->max_tensor_elements, .binary_default = -1};
  srv_json_init(&c.r, body, json_len, limits->max_json_depth);
  c.binary = body + json_len;
  c.binary_len = len - json_len;
  hr_strbuf_init(&c.scratch, NULL);
  size_t n_out = (size_t)sig->n_outputs + 1;
  out->n_inputs = sig->n_inputs;
  out->inputs = calloc((size_t)sig->n_inputs + 1, sizeof *out->inputs);
  out->outputs = calloc(n_out, sizeof *out->outputs);
  out->binary = calloc(n_out, sizeof *out->binary);
  c.requested = malloc(n_out * sizeof *c.requested);
  c.binary_of = malloc(n_out * sizeof *c.binary_of);
  hr_status st = NULL;
  if (!out->inputs || !out->outputs || !out->binary || !c.requested || !c.binary_of)
    st = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; !st && i < sig->n_outputs; i++) {
    c.requested[i] = -1;
    c.binary_of[i] = -1;
  }
  if (!st) st = parse_document(&c);
  if (!st) st = finish_request(&c);
  free(c.requested);
  free(c.binary_of);
  hr_strbuf_free(&c.scratch);
  if (st) srv_kserve_request_free(out);
  return st;
}

void srv_kserve_request_free(srv_kserve_request *r) {
  for (int i = 0; r->inputs && i < r->n_inputs; i++) hr_tensor_free(r->inputs[i]);
  free(r->inputs);
  free(r->outputs);
  free(r->binary);
  free(r->id);
  memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------------------------------------- */
/* Encoding                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Appends a shape as a JSON list. */
static void put_shape(hr_strbuf *sb, const hr_shape *shape) {
  hr_strbuf_putc(sb, '[');
  for (int d = 0; d < shape->rank; d++) {
    if (d) hr_strbuf_putc(sb, ',');
    srv_json_put_i64(sb, shape->dims[d]);
  }
  hr_strbuf_putc(sb, ']');
}

/* Appends one output's entry: its data as a flat JSON list, or its binary data's size. */
static hr_status put_output(hr_strbuf *sb, const char *name, const hr_tensor *t, bool binary) {
  const char *datatype = srv_kserve_datatype_name(t->dtype);
  if (!datatype)
    return hr_error(HR_UNIMPLEMENTED, "output '%s' has element type %s, which KServe has no datatype for", name,
                    hr_dtype_name(t->dtype));
  hr_strbuf_puts(sb, "{\"name\":");
  srv_json_put_cstring(sb, name);
  hr_strbuf_printf(sb, ",\"datatype\":\"%s\",\"shape\":", datatype);
  put_shape(sb, &t->shape);
  if (binary) {
    hr_strbuf_printf(sb, ",\"parameters\":{\"binary_data_size\":%zu}}", t->nbytes);
    return NULL;
  }
  hr_strbuf_puts(sb, ",\"data\":[");
  int64_t n = hr_tensor_num_elements(t);
  for (int64_t i = 0; i < n; i++) {
    if (i) hr_strbuf_putc(sb, ',');
    srv_predict_put_element(sb, t, i);
  }
  hr_strbuf_puts(sb, "]}");
  return NULL;
}

hr_status srv_kserve_encode_infer(const char *model, int64_t version, const srv_signature *sig,
                                  const srv_kserve_request *req, hr_tensor *const *outputs, hr_strbuf *sb,
                                  size_t *json_len) {
  size_t start = sb->len;
  hr_strbuf_puts(sb, "{\"model_name\":");
  srv_json_put_cstring(sb, model);
  hr_strbuf_printf(sb, ",\"model_version\":\"%lld\"", (long long)version);
  if (req->id) {
    hr_strbuf_puts(sb, ",\"id\":");
    srv_json_put_cstring(sb, req->id);
  }
  hr_strbuf_puts(sb, ",\"outputs\":[");
  for (int k = 0; k < req->n_outputs; k++) {
    if (k) hr_strbuf_putc(sb, ',');
    int i = req->outputs[k];
    HR_TRY(put_output(sb, sig->outputs[i].name, outputs[i], req->binary[k]));
  }
  hr_strbuf_puts(sb, "]}");
  *json_len = sb->len - start;
  for (int k = 0; k < req->n_outputs; k++) {
    const hr_tensor *t = outputs[req->outputs[k]];
    if (req->binary[k] && t->nbytes) hr_strbuf_append(sb, t->data, t->nbytes);
  }
  return hr_strbuf_status(sb);
}

/* ---------------------------------------------------------------------------------------------- */
/* Routes and handlers                                                                             */
/* ---------------------------------------------------------------------------------------------- */

typedef enum model_route { MODEL_METADATA, MODEL_READY, MODEL_INFER } model_route;

/* A parsed /v2/models path. */
typedef struct route {
  model_route kind;
  char model[HR_LIMIT_URL_SEGMENT];
  srv_selector sel;
} route;

/* Answers an error with the HTTP status of a canonical code, freeing the status. */
static void reply_error(srv_reply *r, hr_status st, srv_code code) {
  r->code = code;
  srv_reply_error(r, srv_code_http(code), hr_status_message(st));
  hr_status_free(st);
}

/* Answers a status's error (its own code), if any, or a body that ran out of memory. */
static void finish(srv_reply *r, hr_status st) {
  if (!st) st = hr_strbuf_status(&r->body);
  if (st) reply_error(r, st, srv_code_of(hr_status_code(st)));
}

/* An empty answer: a health API's true (200) or false (400). */
static void reply_health(srv_reply *r, bool ok) {
  r->status = ok ? 200 : 400;
  r->code = ok ? SRV_OK : SRV_FAILED_PRECONDITION;
  r->content_type = "text/plain";
}

/* Parses "M[/versions/V][/ready|/infer]" (after "/v2/models/"). NOT_FOUND when it is no route. */
static hr_status parse_route(const char *p, route *rt) {
  size_t n = strcspn(p, "/");
  if (n == 0 || n >= sizeof rt->model) return hr_error(HR_NOT_FOUND, "no model name");
  memcpy(rt->model, p, n);
  rt->model[n] = '\0';
  p += n;
  rt->sel.kind = SRV_SELECT_LATEST;
  if (strncmp(p, "/versions/", 10) == 0) {
    p += 10;
    size_t digits = strspn(p, "0123456789"), segment = strcspn(p, "/");
    int shown = segment < 64 ? (int)segment : 64; /* bytes of the segment quoted in messages */
    if (digits == 0 || digits != segment)
      return hr_error(HR_INVALID_ARGUMENT, "model version '%.*s' is not a number", shown, p);
    int64_t v = 0;
    for (size_t i = 0; i < digits; i++) {
      int d = p[i] - '0';
      if (v > (INT64_MAX - d) / 10)
        return hr_error(HR_INVALID_ARGUMENT, "model version '%.*s' is out of range", shown, p);
      v = v * 10 + d;
    }
    p += digits;
    rt->sel.kind = SRV_SELECT_VERSION;
    rt->sel.version = v;
  }
  if (*p == '\0')
    rt->kind = MODEL_METADATA;
  else if (strcmp(p, "/ready") == 0)
    rt->kind = MODEL_READY;
  else if (strcmp(p, "/infer") == 0)
    rt->kind = MODEL_INFER;
  else
    return hr_error(HR_NOT_FOUND, "no such route");
  return NULL;
}

/* GET /v2: the server's metadata. */
static void handle_server(srv_reply *r) {
  hr_strbuf_puts(&r->body, "{\"name\":\"hlorun\",\"version\":\"" HLORUN_VERSION_STRING
                           "\",\"extensions\":[\"binary_tensor_data\"]}");
  finish(r, NULL);
}

/* Appends a signature's inputs or outputs as KServe tensor metadata; a type KServe has no name
 * for shows its MLIR spelling. */
static void put_tensor_metadata(hr_strbuf *sb, const srv_tensor_info *infos, int n) {
  hr_strbuf_putc(sb, '[');
  for (int i = 0; i < n; i++) {
    const char *datatype = srv_kserve_datatype_name(infos[i].spec.dtype);
    hr_strbuf_puts(sb, i ? ",{\"name\":" : "{\"name\":");
    srv_json_put_cstring(sb, infos[i].name);
    hr_strbuf_puts(sb, ",\"datatype\":");
    srv_json_put_cstring(sb, datatype ? datatype : hr_dtype_name(infos[i].spec.dtype));
    hr_strbuf_puts(sb, ",\"shape\":");
    put_shape(sb, &infos[i].spec.shape);
    hr_strbuf_putc(sb, '}');
  }
  hr_strbuf_putc(sb, ']');
}

/* Appends the model's AVAILABLE versions as a JSON list of strings. */
static hr_status put_versions(srv_server *s, const char *model, hr_strbuf *sb) {
  srv_selector all = {.kind = SRV_SELECT_LATEST};
  srv_model_status ms;
  HR_TRY(srv_service_status(&s->svc, model, &all, &ms));
  hr_strbuf_putc(sb, '[');
  bool first = true;
  for (int i = 0; i < ms.n_versions; i++) {
    if (ms.versions[i].state != SRV_STATE_AVAILABLE) continue;
    hr_strbuf_printf(sb, "%s\"%lld\"", first ? "" : ",", (long long)ms.versions[i].version);
    first = false;
  }
  hr_strbuf_putc(sb, ']');
  srv_model_status_free(&ms);
  return NULL;
}

/* GET /v2/models/M[/versions/V]: the serving_default signature's tensors. */
static void handle_metadata(srv_server *s, const route *rt, srv_servable *sv, srv_reply *r) {
  const srv_target *t;
  hr_status st = srv_service_target(sv, "", &t);
  if (st) {
    finish(r, st);
    return;
  }
  hr_strbuf_puts(&r->body, "{\"name\":");
  srv_json_put_cstring(&r->body, sv->model);
  hr_strbuf_puts(&r->body, ",\"versions\":");
  st = put_versions(s, rt->model, &r->body);
  if (!st) {
    hr_strbuf_puts(&r->body, ",\"platform\":\"hlorun\",\"inputs\":");
    put_tensor_metadata(&r->body, t->signature.inputs, t->signature.n_inputs);
    hr_strbuf_puts(&r->body, ",\"outputs\":");
    put_tensor_metadata(&r->body, t->signature.outputs, t->signature.n_outputs);
    hr_strbuf_putc(&r->body, '}');
  }
  finish(r, st);
}

/* Answers an infer request with its outputs: JSON alone, or JSON and binary data. */
static void answer_infer(const srv_servable *sv, const srv_target *t, const srv_kserve_request *req,
                         hr_tensor *const *outputs, srv_reply *r) {
  size_t json_len;
  hr_status st = srv_kserve_encode_infer(sv->model, sv->version, &t->signature, req, outputs, &r->body, &json_len);
  if (st) {
    finish(r, st);
    return;
  }
  if (json_len != r->body.len) {
    r->content_type = "application/octet-stream";
    r->json_bytes = (long long)json_len;
  }
}

/* POST /v2/models/M[/versions/V]/infer: parsed against serving_default, run by the service. */
static void handle_infer(srv_server *s, srv_servable *sv, const srv_rest_headers *headers, const char *body,
                         size_t len, const srv_call *call, srv_reply *r) {
  srv_predict_limits limits = {s->opts.max_json_depth, s->opts.max_tensor_elements};
  const srv_target *t = NULL;
  size_t json_len = 0;
  srv_kserve_request req;
  memset(&req, 0, sizeof req);
  hr_status st = srv_service_target(sv, "", &t);
  if (!st) st = srv_service_check_runnable(t);
  if (!st) st = srv_kserve_json_length(headers->inference_json_len, len, &json_len);
  if (!st) st = srv_kserve_parse_infer(body, len, json_len, &t->signature, &limits, &req);
  if (st) {
    finish(r, st);
    return;
  }
  hr_tensor **outputs = NULL;
  int n_outputs = 0;
  srv_code code = SRV_OK;
  st = srv_service_predict(&s->svc, t, req.inputs, req.n_inputs, call, &outputs, &n_outputs, &code);
  if (!st && n_outputs != t->signature.n_outputs) {
    st = hr_error(HR_INTERNAL, "the model returned %d outputs, its signature has %d", n_outputs,
                  t->signature.n_outputs);
    code = SRV_INTERNAL;
  }
  if (st)
    reply_error(r, st, code);
  else
    answer_infer(sv, t, &req, outputs, r);
  if (outputs) hr_tensors_free(outputs, n_outputs);
  srv_kserve_request_free(&req);
}

/* GET /v2/models/M[/versions/V]/ready: 200 when the version is AVAILABLE, 400 when not; 404 for a
 * model that is not configured. */
static void handle_model_ready(srv_server *s, const route *rt, srv_reply *r) {
  if (!srv_registry_model_name(s->svc.registry, rt->model)) {
    reply_error(r, hr_error(HR_NOT_FOUND, "unknown model: %s", rt->model), SRV_NOT_FOUND);
    return;
  }
  srv_servable *sv;
  hr_status st = srv_service_acquire(&s->svc, rt->model, &rt->sel, &sv);
  hr_status_free(st);
  if (!st) srv_service_release(&s->svc, sv);
  reply_health(r, st == NULL);
}

/* The metrics label of a route. */
static const char *route_endpoint(model_route k) {
  switch (k) {
    case MODEL_METADATA: return "kserve_metadata";
    case MODEL_READY: return "kserve_ready";
    case MODEL_INFER: return "kserve_infer";
  }
  return "other";
}

/* Answers a method the route does not take: 405 with the one it takes. */
static void reply_method(srv_reply *r, const char *method, const char *path, const char *allow) {
  char msg[512];
  snprintf(msg, sizeof msg, "%s %.400s: use %s", method, path, allow);
  r->code = SRV_INVALID_ARGUMENT;
  srv_reply_error(r, 405, msg);
  r->allow = allow;
}

/* Answers the /v2/models routes. */
static void handle_models(srv_server *s, const char *method, const char *path, const char *rest,
                          const srv_rest_headers *headers, const char *body, size_t len, const srv_call *call,
                          srv_reply *r) {
  route rt;
  memset(&rt, 0, sizeof rt);
  hr_status st = parse_route(rest, &rt);
  if (st && hr_status_code(st) == HR_NOT_FOUND) {
    hr_status_free(st);
    st = hr_error(HR_NOT_FOUND, "no KServe route %s %.400s", method, path);
  }
  if (st) {
    finish(r, st);
    return;
  }
  r->endpoint = route_endpoint(rt.kind);
  const char *configured = srv_registry_model_name(s->svc.registry, rt.model);
  r->model = configured ? configured : "";
  const char *want = rt.kind == MODEL_INFER ? "POST" : "GET";
  if (strcmp(method, want) != 0) {
    reply_method(r, method, path, want);
    return;
  }
  if (rt.kind == MODEL_READY) {
    handle_model_ready(s, &rt, r);
    return;
  }
  srv_servable *sv;
  st = srv_service_acquire(&s->svc, rt.model, &rt.sel, &sv);
  if (st) {
    finish(r, st);
    return;
  }
  snprintf(r->version, sizeof r->version, "%lld", (long long)sv->version);
  if (rt.kind == MODEL_METADATA)
    handle_metadata(s, &rt, sv, r);
  else
    handle_infer(s, sv, headers, body, len, call, r);
  srv_service_release(&s->svc, sv);
}

void srv_kserve_handle(srv_server *s, const char *method, const char *path, const srv_rest_headers *headers,
                       const char *body, size_t len, const srv_call *call, srv_reply *r) {
  const char *rest = path + 3; /* after "/v2" */
  if (strncmp(rest, "/models/", 8) == 0) {
    handle_models(s, method, path, rest + 8, headers, body, len, call, r);
    return;
  }
  bool server = *rest == '\0' || strcmp(rest, "/") == 0;
  bool live = strcmp(rest, "/health/live") == 0, ready = strcmp(rest, "/health/ready") == 0;
  if (!server && !live && !ready) {
    finish(r, hr_error(HR_NOT_FOUND, "no KServe route %s %.400s", method, path));
    return;
  }
  r->endpoint = server ? "kserve_server" : "kserve_health";
  if (strcmp(method, "GET") != 0) {
    reply_method(r, method, path, "GET");
    return;
  }
  if (server) {
    handle_server(r);
  } else if (live) {
    reply_health(r, true);
  } else {
    hr_strbuf reason;
    hr_strbuf_init(&reason, NULL);
    reply_health(r, srv_service_ready(&s->svc, &reason));
    hr_strbuf_free(&reason);
  }
}

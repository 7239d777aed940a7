/* JSON for the REST API: a bounded pull reader over an in-memory document, and writers.
 *
 * The reader builds no tree: callers walk the document and convert values as they go, so a
 * request costs the memory of the tensors it carries, not of a DOM (a DOM of a 64 MiB body of
 * small numbers would take gigabytes). Nesting is bounded (`max_depth`), strings and numbers are
 * length-checked, and every error is INVALID_ARGUMENT "JSON Parse error: ... at offset: N", the
 * form TensorFlow Serving uses. Like TensorFlow Serving (RapidJSON's kParseNanAndInfFlag) the
 * reader accepts the number tokens NaN, -NaN, Inf, -Inf, Infinity and -Infinity, and the writers
 * produce NaN, Infinity and -Infinity for non-finite floats. */
#ifndef HLORUN_SERVER_JSON_H
#define HLORUN_SERVER_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "hlorun/hlorun.h"

/* The longest number token accepted (digits, sign, fraction and exponent together). */
#define SRV_JSON_MAX_NUMBER HR_LIMIT_JSON_NUMBER

typedef struct srv_json {
  const char *begin; /* the document */
  const char *p;     /* the next unread byte */
  const char *end;
  int depth;     /* objects and arrays currently open */
  int max_depth; /* bound on depth */
} srv_json;

/* The kind of the next value, told by its first byte. */
typedef enum srv_json_kind {
  SRV_JSON_EOF,     /* nothing but whitespace is left */
  SRV_JSON_OBJECT,  /* '{' */
  SRV_JSON_ARRAY,   /* '[' */
  SRV_JSON_STRING,  /* '"' */
  SRV_JSON_NUMBER,  /* '-', a digit, NaN or Inf(inity) */
  SRV_JSON_LITERAL, /* true, false or null */
  SRV_JSON_OTHER,   /* anything else: a syntax error where a value is expected */
} srv_json_kind;

/* A number token as written. `integer` when it has neither fraction nor exponent (and is not NaN
 * or Infinity). */
typedef struct srv_json_num {
  const char *text;
  size_t len;
  bool integer;
} srv_json_num;

void srv_json_init(srv_json *r, const char *text, size_t len, int max_depth);
/* Skips whitespace and classifies the next value. */
srv_json_kind srv_json_peek(srv_json *r);
/* The name of a kind for messages: "Object", "Array", "String", "Number", ... (TF's spelling). */
const char *srv_json_kind_name(srv_json_kind k);
/* An INVALID_ARGUMENT error "JSON Parse error: <message> at offset: <current offset>". */
hr_status srv_json_error(const srv_json *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Consumes `open` ('{' or '[') and enters it; fails beyond max_depth. */
hr_status srv_json_enter(srv_json *r, char open);
/* Iterates the members of the object or array entered last: call with *first = true before the
 * first member; sets *more when another member follows (after consuming a separating ','), else
 * consumes `close` and leaves the container. */
hr_status srv_json_next(srv_json *r, char close, bool *first, bool *more);
/* Reads an object member's name (unescaped, at most cap - 1 bytes, NUL-terminated) and its ':'. */
hr_status srv_json_key(srv_json *r, char *buf, size_t cap);
/* Reads a string value, unescaped, appending it to `out`; fails when longer than max_len bytes. */
hr_status srv_json_string(srv_json *r, hr_strbuf *out, size_t max_len);
/* Reads a number token (at most SRV_JSON_MAX_NUMBER bytes). */
hr_status srv_json_number(srv_json *r, srv_json_num *out);
/* Reads true, false or null; *is_null tells null apart. */
hr_status srv_json_literal(srv_json *r, bool *value, bool *is_null);
/* Skips one value of any kind (bounded by max_depth). */
hr_status srv_json_skip(srv_json *r);
/* Checks that only whitespace remains. */
hr_status srv_json_finish(srv_json *r);
/* Whether the next value is an object with exactly one member, "b64", whose value is a string
 * (TensorFlow Serving's binary value). Reads ahead without consuming anything. */
bool srv_json_at_b64(const srv_json *r);
/* Copies a short excerpt of the document at the reader's position into buf (for messages). */
void srv_json_excerpt(const srv_json *r, char *buf, size_t cap);

/* Number conversions; false when the token is not an integer or does not fit. */
bool srv_json_to_i64(const srv_json_num *n, int64_t *out);
bool srv_json_to_u64(const srv_json_num *n, uint64_t *out);
/* Any number token as a double (NaN, +-Inf(inity) included); false when a finite token overflows
 * a double (RapidJSON's "Number too big to be stored in double."). */
bool srv_json_to_double(const srv_json_num *n, double *out);

/* Decodes standard base64 (padding optional) and appends the bytes to `out`; false on bad input. */
bool srv_base64_decode(const char *text, size_t len, hr_strbuf *out);

/* Writers. Strings are escaped per RFC 8259; bytes that are not valid UTF-8 are written as
 * \u00XX (read as Latin-1), so that the output is always valid JSON. */
void srv_json_put_string(hr_strbuf *sb, const char *s, size_t len);
void srv_json_put_cstring(hr_strbuf *sb, const char *s);
void srv_json_put_i64(hr_strbuf *sb, int64_t v);
void srv_json_put_u64(hr_strbuf *sb, uint64_t v);
/* A float of type t (f16, bf16, f32, f64; `bits` its bit pattern) as TensorFlow Serving writes
 * floats (json_tensor.cc WriteDecimal): six significant digits ("%.6g", which absl::StrCat
 * writes), or, when those do not read back as the same value, max_digits10 of them ("%.9g" for
 * f32, "%.17g" for f64); ".0" appended when the text has neither '.' nor 'e'; NaN, Infinity or
 * -Infinity when not finite. f16 and bf16 (which TF Serving does not write) are written as the f32
 * of the same value. */
void srv_json_put_float(hr_strbuf *sb, hr_dtype t, uint64_t bits);

#endif

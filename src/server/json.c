/* JSON reading and writing for the REST API (see json.h). */
#include "server/json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/numeric.h"

void srv_json_init(srv_json *r, const char *text, size_t len, int max_depth) {
  r->begin = r->p = text;
  r->end = text + len;
  r->depth = 0;
  r->max_depth = max_depth;
}

/* Advances past spaces, tabs and line breaks. */
static void skip_space(srv_json *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

/* Whether the unread text starts with `word`. */
static bool starts_with(const srv_json *r, const char *word) {
  size_t n = strlen(word);
  return (size_t)(r->end - r->p) >= n && memcmp(r->p, word, n) == 0;
}

srv_json_kind srv_json_peek(srv_json *r) {
  skip_space(r);
  if (r->p == r->end) return SRV_JSON_EOF;
  char c = *r->p;
  if (c == '{') return SRV_JSON_OBJECT;
  if (c == '[') return SRV_JSON_ARRAY;
  if (c == '"') return SRV_JSON_STRING;
  if (c == '-' || (c >= '0' && c <= '9') || starts_with(r, "NaN") || starts_with(r, "Inf")) return SRV_JSON_NUMBER;
  if (starts_with(r, "true") || starts_with(r, "false") || starts_with(r, "null")) return SRV_JSON_LITERAL;
  return SRV_JSON_OTHER;
}

const char *srv_json_kind_name(srv_json_kind k) {
  switch (k) {
    case SRV_JSON_OBJECT: return "Object";
    case SRV_JSON_ARRAY: return "Array";
    case SRV_JSON_STRING: return "String";
    case SRV_JSON_NUMBER: return "Number";
    case SRV_JSON_LITERAL: return "Literal";
    case SRV_JSON_EOF: return "end of document";
    case SRV_JSON_OTHER: break;
  }
  return "invalid value";
}

hr_status srv_json_error(const srv_json *r, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_INVALID_ARGUMENT, "JSON Parse error: %s at offset: %zu", msg, (size_t)(r->p - r->begin));
}

hr_status srv_json_enter(srv_json *r, char open) {
  skip_space(r);
  if (r->p == r->end || *r->p != open) return srv_json_error(r, "expected '%c'", open);
  if (r->depth >= r->max_depth)
    return srv_json_error(r, "nesting is deeper than %d levels (--max_json_depth)", r->max_depth);
  r->p++;
  r->depth++;
  return NULL;
}

hr_status srv_json_next(srv_json *r, char close, bool *first, bool *more) {
  skip_space(r);
  if (r->p == r->end) return srv_json_error(r, "unexpected end of document, expected '%c'", close);
  char c = *r->p;
  bool was_first = *first;
  *first = false;
  if (c == close) {
    r->p++;
    r->depth--;
    *more = false;
    return NULL;
  }
  if (was_first) {
    *more = true;
    return NULL;
  }
  if (c != ',') return srv_json_error(r, "expected ',' or '%c'", close);
  r->p++;
  *more = true;
  return NULL;
}

/* Where unescaped string bytes go: a fixed buffer, a string buffer, or nowhere (counted only). */
typedef struct sink {
  char *buf;     /* fixed buffer, or NULL */
  hr_strbuf *sb; /* string buffer, or NULL */
  size_t len;    /* bytes written so far */
  size_t max;    /* bound on len */
} sink;

/* Appends bytes to a sink; false when that would exceed its bound. */
static bool sink_put(sink *s, const char *bytes, size_t n) {
  if (n > s->max - s->len) return false;
  if (s->buf) memcpy(s->buf + s->len, bytes, n);
  if (s->sb) hr_strbuf_append(s->sb, bytes, n);
  s->len += n;
  return true;
}

/* Reads the 4 hex digits of a \u escape at r->p. */
static bool read_hex4(srv_json *r, unsigned *out) {
  if (r->end - r->p < 4) return false;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = r->p[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) return false;
    v = v * 16 + (unsigned)d;
  }
  r->p += 4;
  *out = v;
  return true;
}

/* Encodes a code point (<= 0x10FFFF, not a surrogate) as UTF-8 into buf; returns the length. */
static size_t utf8_encode(unsigned cp, char *buf) {
  if (cp < 0x80) {
    buf[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    buf[0] = (char)(0xC0 | (cp >> 6));
    buf[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    buf[0] = (char)(0xE0 | (cp >> 12));
    buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  buf[0] = (char)(0xF0 | (cp >> 18));
  buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  buf[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Decodes a \u escape (r->p just past the 'u'), joining surrogate pairs, into UTF-8 bytes. */
static hr_status read_unicode_escape(srv_json *r, char *utf8, size_t *n) {
  unsigned cp;
  if (!read_hex4(r, &cp)) return srv_json_error(r, "invalid \\u escape");
  if (cp >= 0xDC00 && cp <= 0xDFFF) return srv_json_error(r, "lone low surrogate in \\u escape");
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    unsigned lo;
    if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
      return srv_json_error(r, "lone high surrogate in \\u escape");
    r->p += 2;
    if (!read_hex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF)
      return srv_json_error(r, "invalid surrogate pair in \\u escape");
    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
  }
  *n = utf8_encode(cp, utf8);
  return NULL;
}

/* The byte a one-character escape stands for, or 0 when `c` is not one. */
static char simple_escape(char c) {
  switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return 0;
  }
}

static size_t utf8_sequence(const unsigned char *s, size_t n);

/* Advances past a run of plain string bytes (no quote, backslash or control character); false
 * at an invalid UTF-8 sequence, which is refused in every string, read or skipped. */
static bool skip_plain(srv_json *r) {
  while (r->p < r->end && *r->p != '"' && *r->p != '\\' && (unsigned char)*r->p >= 0x20) {
    if ((unsigned char)*r->p < 0x80) {
      r->p++;
      continue;
    }
    size_t len = utf8_sequence((const unsigned char *)r->p, (size_t)(r->end - r->p));
    if (len == 0) return false;
    r->p += len;
  }
  return true;
}

/* Reads a string token (r->p at its opening quote) into a sink. */
static hr_status read_string(srv_json *r, sink *out) {
  skip_space(r);
  if (r->p == r->end || *r->p != '"') return srv_json_error(r, "expected a string");
  r->p++;
  for (;;) {
    const char *run = r->p;
    if (!skip_plain(r)) return srv_json_error(r, "invalid UTF-8 in string");
    if (!sink_put(out, run, (size_t)(r->p - run))) return srv_json_error(r, "string longer than %zu bytes", out->max);
    if (r->p == r->end) return srv_json_error(r, "unterminated string");
    char c = *r->p++;
    if (c == '"') return NULL;
    if (c != '\\') {
      r->p--;
      return srv_json_error(r, "control character in string");
    }
    if (r->p == r->end) return srv_json_error(r, "unterminated string");
    char e = *r->p++;
    char utf8[4];
    size_t n = 1;
    if (e == 'u') {
      HR_TRY(read_unicode_escape(r, utf8, &n));
    } else if ((utf8[0] = simple_escape(e)) == 0) {
      r->p--;
      return srv_json_error(r, "invalid escape '\\%c' in string", e);
    }
    if (!sink_put(out, utf8, n)) return srv_json_error(r, "string longer than %zu bytes", out->max);
  }
}

hr_status srv_json_key(srv_json *r, char *buf, size_t cap) {
  sink s = {buf, NULL, 0, cap - 1};
  HR_TRY(read_string(r, &s));
  buf[s.len] = '\0';
  skip_space(r);
  if (r->p == r->end || *r->p != ':') return srv_json_error(r, "expected ':' after an object member name");
  r->p++;
  return NULL;
}

hr_status srv_json_string(srv_json *r, hr_strbuf *out, size_t max_len) {
  sink s = {NULL, out, 0, max_len};
  HR_TRY(read_string(r, &s));
  return hr_strbuf_status(out);
}

/* Advances past a run of decimal digits; returns how many there were. */
static size_t skip_digits(srv_json *r) {
  const char *start = r->p;
  while (r->p < r->end && *r->p >= '0' && *r->p <= '9') r->p++;
  return (size_t)(r->p - start);
}

hr_status srv_json_number(srv_json *r, srv_json_num *out) {
  skip_space(r);
  const char *start = r->p;
  bool integer = true;
  if (r->p < r->end && *r->p == '-') r->p++;
  if (starts_with(r, "Inf")) {
    /* "Inf" or "Infinity", as RapidJSON's kParseNanAndInfFlag reads them */
    r->p += starts_with(r, "Infinity") ? 8 : 3;
    if (r->p < r->end && *r->p == 'i') return srv_json_error(r, "invalid value");
    integer = false;
  } else if (starts_with(r, "NaN")) {
    r->p += 3;
    integer = false;
  } else {
    if (r->p < r->end && *r->p == '0') {
      r->p++;
    } else if (skip_digits(r) == 0) {
      return srv_json_error(r, "invalid number");
    }
    if (r->p < r->end && *r->p == '.') {
      r->p++;
      integer = false;
      if (skip_digits(r) == 0) return srv_json_error(r, "missing digits after the decimal point");
    }
    if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
      r->p++;
      integer = false;
      if (r->p < r->end && (*r->p == '+' || *r->p == '-')) r->p++;
      if (skip_digits(r) == 0) return srv_json_error(r, "missing exponent digits");
    }
  }
  size_t len = (size_t)(r->p - start);
  if (len > SRV_JSON_MAX_NUMBER) {
    r->p = start;
    return srv_json_error(r, "number longer than %d characters", SRV_JSON_MAX_NUMBER);
  }
  out->text = start;
  out->len = len;
  out->integer = integer;
  return NULL;
}

hr_status srv_json_literal(srv_json *r, bool *value, bool *is_null) {
  skip_space(r);
  *value = false;
  *is_null = false;
  if (starts_with(r, "true")) {
    r->p += 4;
    *value = true;
  } else if (starts_with(r, "false")) {
    r->p += 5;
  } else if (starts_with(r, "null")) {
    r->p += 4;
    *is_null = true;
  } else {
    return srv_json_error(r, "invalid literal");
  }
  return NULL;
}

/* Skips the members of an object or array (after srv_json_enter). */
static hr_status skip_members(srv_json *r, char close) {
  bool first = true, more;
  for (;;) {
    HR_TRY(srv_json_next(r, close, &first, &more));
    if (!more) return NULL;
    if (close == '}') {
      sink s = {NULL, NULL, 0, SIZE_MAX};
      HR_TRY(read_string(r, &s));
      skip_space(r);
      if (r->p == r->end || *r->p != ':') return srv_json_error(r, "expected ':' after an object member name");
      r->p++;
    }
    HR_TRY(srv_json_skip(r));
  }
}

hr_status srv_json_skip(srv_json *r) {
  srv_json_num num;
  bool b, is_null;
  sink s = {NULL, NULL, 0, SIZE_MAX};
  switch (srv_json_peek(r)) {
    case SRV_JSON_OBJECT: HR_TRY(srv_json_enter(r, '{')); return skip_members(r, '}');
    case SRV_JSON_ARRAY: HR_TRY(srv_json_enter(r, '[')); return skip_members(r, ']');
    case SRV_JSON_STRING: return read_string(r, &s);
    case SRV_JSON_NUMBER: return srv_json_number(r, &num);
    case SRV_JSON_LITERAL: return srv_json_literal(r, &b, &is_null);
    case SRV_JSON_EOF: return srv_json_error(r, "unexpected end of document, expected a value");
    case SRV_JSON_OTHER: break;
  }
  return srv_json_error(r, "invalid value");
}

hr_status srv_json_finish(srv_json *r) {
  skip_space(r);
  if (r->p != r->end) return srv_json_error(r, "the document root must not be followed by other values");
  return NULL;
}

/* Consumes `c` after optional whitespace; false when something else comes. */
static bool accept(srv_json *r, char c) {
  skip_space(r);
  if (r->p == r->end || *r->p != c) return false;
  r->p++;
  return true;
}

bool srv_json_at_b64(const srv_json *r) {
  srv_json ahead = *r;
  sink s = {NULL, NULL, 0, SIZE_MAX};
  if (!accept(&ahead, '{')) return false;
  skip_space(&ahead);
  if (!starts_with(&ahead, "\"b64\"")) return false;
  ahead.p += 5;
  if (!accept(&ahead, ':') || srv_json_peek(&ahead) != SRV_JSON_STRING) return false;
  hr_status st = read_string(&ahead, &s);
  if (st) {
    hr_status_free(st);
    return false;
  }
  return accept(&ahead, '}');
}

void srv_json_excerpt(const srv_json *r, char *buf, size_t cap) {
  const char *p = r->p;
  while (p < r->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  size_t n = 0;
  while (p < r->end && n + 1 < cap && n < 40) {
    unsigned char c = (unsigned char)*p++;
    buf[n++] = c < 0x20 ? ' ' : (char)c;
  }
  if (n + 4 < cap && p < r->end) {
    memcpy(buf + n, "...", 3);
    n += 3;
  }
  buf[n] = '\0';
}

/* Copies a number token into a NUL-terminated buffer of SRV_JSON_MAX_NUMBER + 1 bytes. */
static void number_text(const srv_json_num *n, char *buf) {
  memcpy(buf, n->text, n->len);
  buf[n->len] = '\0';
}

bool srv_json_to_i64(const srv_json_num *n, int64_t *out) {
  if (!n->integer) return false;
  char buf[SRV_JSON_MAX_NUMBER + 1];
  number_text(n, buf);
  errno = 0;
  long long v = strtoll(buf, NULL, 10);
  if (errno) return false;
  *out = v;
  return true;
}

bool srv_json_to_u64(const srv_json_num *n, uint64_t *out) {
  if (!n->integer) return false;
  char buf[SRV_JSON_MAX_NUMBER + 1];
  number_text(n, buf);
  if (buf[0] == '-') {
    if (strcmp(buf, "-0") != 0) return false;
    *out = 0;
    return true;
  }
  errno = 0;
  unsigned long long v = strtoull(buf, NULL, 10);
  if (errno) return false;
  *out = v;
  return true;
}

bool srv_json_to_double(const srv_json_num *n, double *out) {
  char buf[SRV_JSON_MAX_NUMBER + 1];
  number_text(n, buf);
  bool negative = buf[0] == '-';
  const char *body = negative ? buf + 1 : buf;
  if (strcmp(body, "Infinity") == 0 || strcmp(body, "Inf") == 0) {
    *out = negative ? -INFINITY : INFINITY;
    return true;
  }
  if (strcmp(body, "NaN") == 0) {
    *out = NAN; /* "-NaN" too: RapidJSON reads it as NaN */
    return true;
  }
  errno = 0;
  double v = strtod(buf, NULL);
  if (errno == ERANGE && isinf(v)) return false;
  *out = v;
  return true;
}

/* The 6-bit value of a standard base64 character, or -1. */
static int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool srv_base64_decode(const char *text, size_t len, hr_strbuf *out) {
  size_t pad = 0;
  while (pad < 2 && len > 0 && text[len - 1] == '=') {
    len--;
    pad++;
  }
  if (len % 4 == 1 || (pad && (len + pad) % 4 != 0)) return false;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < len; i++) {
    int v = base64_value((unsigned char)text[i]);
    if (v < 0) return false;
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      hr_strbuf_putc(out, (char)((acc >> bits) & 0xFF));
    }
  }
  return !out->failed;
}

/* Length of the valid UTF-8 sequence starting at s (at most n bytes), or 0 when it is invalid. */
static size_t utf8_sequence(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  unsigned cp;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return len;
}

void srv_json_put_string(hr_strbuf *sb, const char *s, size_t len) {
  const unsigned char *u = (const unsigned char *)s;
  hr_strbuf_putc(sb, '"');
  size_t i = 0;
  while (i < len) {
    size_t run = i;
    while (run < len && u[run] >= 0x20 && u[run] < 0x80 && u[run] != '"' && u[run] != '\\') run++;
    hr_strbuf_append(sb, s + i, run - i);
    i = run;
    if (i == len) break;
    unsigned char c = u[i];
    size_t seq = c >= 0x80 ? utf8_sequence(u + i, len - i) : 0;
    if (seq) {
      hr_strbuf_append(sb, s + i, seq);
      i += seq;
      continue;
    }
    if (c == '"' || c == '\\') {
      hr_strbuf_putc(sb, '\\');
      hr_strbuf_putc(sb, (char)c);
    } else if (c == '\n') {
      hr_strbuf_puts(sb, "\\n");
    } else if (c == '\t') {
      hr_strbuf_puts(sb, "\\t");
    } else if (c == '\r') {
      hr_strbuf_puts(sb, "\\r");
    } else {
      hr_strbuf_printf(sb, "\\u%04x", c);
    }
    i++;
  }
  hr_strbuf_putc(sb, '"');
}

void srv_json_put_cstring(hr_strbuf *sb, const char *s) { srv_json_put_string(sb, s, strlen(s)); }

void srv_json_put_u64(hr_strbuf *sb, uint64_t v) {
  char buf[24];
  size_t n = sizeof buf;
  do {
    buf[--n] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  hr_strbuf_append(sb, buf + n, sizeof buf - n);
}

void srv_json_put_i64(hr_strbuf *sb, int64_t v) {
  if (v < 0) {
    hr_strbuf_putc(sb, '-');
    srv_json_put_u64(sb, (uint64_t)0 - (uint64_t)v);
  } else {
    srv_json_put_u64(sb, (uint64_t)v);
  }
}

/* Whether `text` reads back as exactly `v`: as a float for f32 (the text's own rounding to
 * float, not through a double), as a double otherwise. */
static bool reads_back(const char *text, double v, bool single) {
  if (single) return strtof(text, NULL) == (float)v;
  return strtod(text, NULL) == v;
}

void srv_json_put_float(hr_strbuf *sb, hr_dtype t, uint64_t bits) {
  double v;
  bool single = true; /* written as TensorFlow Serving writes a float; else as a double */
  switch (t) {
    case HR_F32: v = hr_bits_f32((uint32_t)bits); break;
    case HR_F16: v = hr_f16_to_f64((uint16_t)bits); break;
    case HR_BF16: v = hr_bf16_to_f64((uint16_t)bits); break;
    default:
      v = hr_bits_f64(bits);
      single = false;
      break;
  }
  if (isnan(v)) {
    hr_strbuf_puts(sb, "NaN");
    return;
  }
  if (isinf(v)) {
    hr_strbuf_puts(sb, v < 0 ? "-Infinity" : "Infinity");
    return;
  }
  char buf[40];
  snprintf(buf, sizeof buf, "%.6g", v);
  if (!reads_back(buf, v, single)) snprintf(buf, sizeof buf, "%.*g", single ? 9 : 17, v);
  hr_strbuf_puts(sb, buf);
  if (!strpbrk(buf, ".e")) hr_strbuf_puts(sb, ".0");
}

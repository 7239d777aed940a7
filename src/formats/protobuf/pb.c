/* The protobuf wire format (pb.h): tags, base-128 varints, fixed 32/64-bit values and
 * length-delimited payloads, each checked against the bytes left. */
#include "formats/protobuf/pb.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"

hr_pb hr_pb_open(const char *file, const void *data, size_t len) {
  const uint8_t *p = data;
  return (hr_pb){.file = file, .base = p, .p = p, .end = p + len};
}

hr_pb hr_pb_sub(const hr_pb *c, const hr_pb_field *f) {
  return (hr_pb){.file = c->file, .base = c->base, .p = f->data, .end = f->data + f->len};
}

hr_status hr_pb_error(const hr_pb *c, size_t offset, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s", c->file ? c->file : "<message>", offset, msg);
}

/* Reads a base-128 varint of at most 10 bytes (the 10th holding only the top bit). */
static hr_status varint(hr_pb *c, uint64_t *out) {
  uint64_t v = 0;
  const uint8_t *start = c->p;
  for (int shift = 0; shift < 70; shift += 7) {
    if (c->p >= c->end) return hr_pb_error(c, (size_t)(start - c->base), "a varint runs past the end");
    uint8_t b = *c->p++;
    if (shift == 63 && b > 1) break;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return NULL;
    }
  }
  return hr_pb_error(c, (size_t)(start - c->base), "a varint longer than 64 bits");
}

/* Reads `n` little-endian bytes as an integer. */
static hr_status fixed(hr_pb *c, int n, uint64_t *out) {
  if (c->end - c->p < n) return hr_pb_error(c, (size_t)(c->p - c->base), "a %d-byte value runs past the end", n);
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | c->p[i];
  c->p += n;
  *out = v;
  return NULL;
}

hr_status hr_pb_next(hr_pb *c, hr_pb_field *f, bool *more) {
  memset(f, 0, sizeof *f);
  *more = c->p < c->end;
  if (!*more) return NULL;
  f->offset = (size_t)(c->p - c->base);
  uint64_t tag = 0;
  HR_TRY(varint(c, &tag));
  f->number = (uint32_t)(tag >> 3);
  f->wire = (int)(tag & 7);
  if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff) return hr_pb_error(c, f->offset, "field number %llu", (unsigned long long)(tag >> 3));
  switch (f->wire) {
    case HR_PB_VARINT: return varint(c, &f->u);
    case HR_PB_I64: return fixed(c, 8, &f->u);
    case HR_PB_I32: return fixed(c, 4, &f->u);
    case HR_PB_LEN: {
      uint64_t n = 0;
      HR_TRY(varint(c, &n));
      if (n > (uint64_t)(c->end - c->p))
        return hr_pb_error(c, f->offset, "field %u holds %llu bytes, %zu are left", f->number, (unsigned long long)n,
                           (size_t)(c->end - c->p));
      f->data = c->p;
      f->len = (size_t)n;
      c->p += n;
      return NULL;
    }
    default: return hr_pb_error(c, f->offset, "field %u has wire type %d (groups are not supported)", f->number, f->wire);
  }
}

hr_status hr_pb_next_packed(hr_pb *c, uint64_t *v, bool *more) {
  *more = c->p < c->end;
  return *more ? varint(c, v) : NULL;
}

hr_status hr_pb_want(const hr_pb *c, const hr_pb_field *f, int wire, const char *what) {
  if (f->wire == wire) return NULL;
  return hr_pb_error(c, f->offset, "%s (field %u) has wire type %d, expected %d", what, f->number, f->wire, wire);
}

hr_status hr_pb_count_in(const hr_pb *msg, uint32_t number, int limit, int *n) {
  hr_pb sub = *msg;
  hr_pb_field g;
  bool more;
  *n = 0;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != number) continue;
    if (*n == limit) return hr_pb_error(msg, g.offset, "more than %d entries of field %u", limit, number);
    (*n)++;
  }
}

hr_status hr_pb_count(const hr_pb *c, const hr_pb_field *f, uint32_t number, int limit, int *n) {
  hr_pb sub = hr_pb_sub(c, f);
  return hr_pb_count_in(&sub, number, limit, n);
}

void hr_pb_put_varint(hr_strbuf *b, uint64_t v) {
  for (; v >= 0x80; v >>= 7) hr_strbuf_putc(b, (char)(v | 0x80));
  hr_strbuf_putc(b, (char)v);
}

void hr_pb_put_uint(hr_strbuf *b, uint32_t number, uint64_t v) {
  hr_pb_put_varint(b, (uint64_t)number << 3 | HR_PB_VARINT);
  hr_pb_put_varint(b, v);
}

void hr_pb_put_bytes(hr_strbuf *b, uint32_t number, const void *data, size_t len) {
  hr_pb_put_len(b, number, len);
  hr_strbuf_append(b, data, len);
}

void hr_pb_put_tag(hr_strbuf *b, uint32_t number, int wire) {
  hr_pb_put_varint(b, (uint64_t)number << 3 | (uint64_t)wire);
}

void hr_pb_put_len(hr_strbuf *b, uint32_t number, size_t len) {
  hr_pb_put_tag(b, number, HR_PB_LEN);
  hr_pb_put_varint(b, len);
}

void hr_pb_put_string(hr_strbuf *b, uint32_t number, const char *s) { hr_pb_put_bytes(b, number, s, strlen(s)); }

size_t hr_pb_varint_size(uint64_t v) {
  size_t n = 1;
  for (; v >= 0x80; v >>= 7) n++;
  return n;
}

size_t hr_pb_len_size(uint32_t number, size_t len) {
  return hr_pb_varint_size((uint64_t)number << 3) + hr_pb_varint_size(len) + len;
}

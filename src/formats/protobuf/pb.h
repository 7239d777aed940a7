/* The protobuf wire format, read without generated code: a bounded cursor over a message's bytes
 * that yields one field at a time (number, wire type, value or bytes). Readers of SavedModel,
 * TensorBundle and (later) gRPC messages walk their messages with it and pick the fields they
 * know; every length is checked against the bytes left, so a truncated or corrupt message gives an
 * error naming the file and the byte offset, never a read outside the buffer. Nesting is the
 * caller's recursion, which each reader bounds. */
#ifndef HLORUN_FORMATS_PROTOBUF_PB_H
#define HLORUN_FORMATS_PROTOBUF_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hlorun/hlorun.h"

struct hr_strbuf;

/* Wire types (groups, 3 and 4, are obsolete and refused). */
enum { HR_PB_VARINT = 0, HR_PB_I64 = 1, HR_PB_LEN = 2, HR_PB_I32 = 5 };

/* A read position in a message. */
typedef struct hr_pb {
  const char *file;    /* for messages */
  const uint8_t *base; /* the file's first byte: offsets in messages count from it */
  const uint8_t *p, *end;
} hr_pb;

/* One field as read. */
typedef struct hr_pb_field {
  uint32_t number;
  int wire;
  uint64_t u;          /* VARINT, I64 and I32: the value's bits */
  const uint8_t *data; /* LEN: the payload (inside the message) */
  size_t len;
  size_t offset;       /* where the field's tag is, from base */
} hr_pb_field;

/* A cursor over `len` bytes at `data`, which is also the base of offsets. */
hr_pb hr_pb_open(const char *file, const void *data, size_t len);
/* A cursor over a LEN field's payload (an embedded message or a packed array). */
hr_pb hr_pb_sub(const hr_pb *c, const hr_pb_field *f);
/* Reads the next field into *f; *more is false (and nothing is read) at the end. */
hr_status hr_pb_next(hr_pb *c, hr_pb_field *f, bool *more);
/* Reads one varint of a packed array (a cursor from hr_pb_sub); *more false at its end. */
hr_status hr_pb_next_packed(hr_pb *c, uint64_t *v, bool *more);
/* A PARSE_ERROR "FILE: offset N: <message>" (offset counted from base). */
hr_status hr_pb_error(const hr_pb *c, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The field must have wire type `wire`, else an error naming `what`. */
hr_status hr_pb_want(const hr_pb *c, const hr_pb_field *f, int wire, const char *what);
/* Counts the fields numbered `number` of the message cursor `msg` covers (from where it is),
 * failing beyond `limit`. */
hr_status hr_pb_count_in(const hr_pb *msg, uint32_t number, int limit, int *n);
/* The same for the message in LEN field `f` (read by cursor c). */
hr_status hr_pb_count(const hr_pb *c, const hr_pb_field *f, uint32_t number, int limit, int *n);

/* Writing: a base-128 varint, a varint field, a length-delimited field (bytes or a message). */
void hr_pb_put_varint(struct hr_strbuf *b, uint64_t v);
void hr_pb_put_uint(struct hr_strbuf *b, uint32_t number, uint64_t v);
void hr_pb_put_bytes(struct hr_strbuf *b, uint32_t number, const void *data, size_t len);
/* A field's tag; a length-delimited field's tag and length, its `len` payload bytes to follow (a
 * message written in place once its size is known); a string field (NUL-terminated). */
void hr_pb_put_tag(struct hr_strbuf *b, uint32_t number, int wire);
void hr_pb_put_len(struct hr_strbuf *b, uint32_t number, size_t len);
void hr_pb_put_string(struct hr_strbuf *b, uint32_t number, const char *s);
/* Bytes a varint of value v takes; bytes a length-delimited field of `len` payload bytes takes. */
size_t hr_pb_varint_size(uint64_t v);
size_t hr_pb_len_size(uint32_t number, size_t len);

#endif

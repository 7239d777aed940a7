/* A reader for the subset of protocol buffer text format that TensorFlow Serving's configuration
 * files use (ModelServerConfig, BatchingParameters): fields `name: value` and `name { ... }` (also
 * `name: { ... }` and `< ... >`), lists `name: [a, b]`, strings in single or double quotes with C
 * escapes (adjacent strings concatenate), integers, identifiers (true, false, enum values),
 * `#` comments, optional ',' or ';' after a field.
 *
 * The file becomes a tree of fields, each remembering its line and column, which the schema code
 * (config.c) walks; errors read "FILE:LINE:COL: message". */
#ifndef HLORUN_SERVER_TEXTPROTO_H
#define HLORUN_SERVER_TEXTPROTO_H

#include <stddef.h>

#include "hlorun/hlorun.h"

typedef enum srv_tp_kind {
  SRV_TP_STRING,  /* "text" (escapes decoded; may contain NUL bytes, see len) */
  SRV_TP_INT,     /* 12, -3 (the token text) */
  SRV_TP_IDENT,   /* true, LATEST, ... */
  SRV_TP_MESSAGE, /* { fields } */
} srv_tp_kind;

typedef struct srv_tp_field srv_tp_field;

struct srv_tp_field {
  char *name;
  int line, col; /* where the field's name starts (1-based) */
  srv_tp_kind kind;
  char *text; /* scalars: the value (NUL-terminated) */
  size_t len;
  srv_tp_field *fields; /* messages: the fields, in file order */
  int n_fields;
};

/* Parses a document into `root` (a message). */
hr_status srv_tp_parse(const char *filename, const char *text, size_t len, srv_tp_field *root);
void srv_tp_free(srv_tp_field *root);
/* An INVALID_ARGUMENT error "FILE:LINE:COL: message" at a field. */
hr_status srv_tp_error(const char *filename, const srv_tp_field *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

/* A growable NUL-terminated string buffer (printer output, messages). */
#ifndef HLORUN_BASE_STRBUF_H
#define HLORUN_BASE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "hlorun/hlorun.h"

typedef struct hr_strbuf {
  const hr_allocator *allocator;
  char *data; /* always NUL-terminated when non-NULL */
  size_t len;
  size_t cap;
  bool failed; /* an allocation failed; further appends are ignored */
} hr_strbuf;

void hr_strbuf_init(hr_strbuf *sb, const hr_allocator *allocator);
void hr_strbuf_free(hr_strbuf *sb);
void hr_strbuf_append(hr_strbuf *sb, const char *s, size_t len);
void hr_strbuf_puts(hr_strbuf *sb, const char *s);
void hr_strbuf_putc(hr_strbuf *sb, char c);
void hr_strbuf_printf(hr_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Makes room for `extra` more bytes now (one allocation instead of repeated doubling while a
 * large text is appended); false (and the buffer marked failed) when out of memory. */
bool hr_strbuf_reserve(hr_strbuf *sb, size_t extra);
/* Returns an out-of-memory status when any append failed, else NULL. */
hr_status hr_strbuf_status(const hr_strbuf *sb);

#endif

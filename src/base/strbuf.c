#include "base/strbuf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void hr_strbuf_init(hr_strbuf *sb, const hr_allocator *allocator) {
  sb->allocator = allocator ? allocator : hr_default_allocator();
  sb->data = NULL;
  sb->len = 0;
  sb->cap = 0;
  sb->failed = false;
}

void hr_strbuf_free(hr_strbuf *sb) {
  if (sb->data) sb->allocator->free(sb->allocator->ctx, sb->data);
  sb->data = NULL;
  sb->len = sb->cap = 0;
}

/* Ensures room for `extra` more bytes plus the NUL. */
static bool reserve(hr_strbuf *sb, size_t extra) {
  if (sb->failed) return false;
  if (extra > SIZE_MAX / 2 - sb->len - 1) {
    sb->failed = true;
    return false;
  }
  size_t need = sb->len + extra + 1;
  if (need <= sb->cap) return true;
  size_t cap = sb->cap ? sb->cap : 256;
  while (cap < need) cap *= 2;
  char *p = sb->allocator->alloc(sb->allocator->ctx, cap, 1);
  if (!p) {
    sb->failed = true;
    return false;
  }
  if (sb->data) {
    memcpy(p, sb->data, sb->len + 1);
    sb->allocator->free(sb->allocator->ctx, sb->data);
  } else {
    p[0] = '\0';
  }
  sb->data = p;
  sb->cap = cap;
  return true;
}

bool hr_strbuf_reserve(hr_strbuf *sb, size_t extra) { return reserve(sb, extra); }

void hr_strbuf_append(hr_strbuf *sb, const char *s, size_t len) {
  if (!reserve(sb, len)) return;
  memcpy(sb->data + sb->len, s, len);
  sb->len += len;
  sb->data[sb->len] = '\0';
}

void hr_strbuf_puts(hr_strbuf *sb, const char *s) { hr_strbuf_append(sb, s, strlen(s)); }

void hr_strbuf_putc(hr_strbuf *sb, char c) { hr_strbuf_append(sb, &c, 1); }

void hr_strbuf_printf(hr_strbuf *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n >= 0 && reserve(sb, (size_t)n)) {
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
  }
  va_end(ap);
}

hr_status hr_strbuf_status(const hr_strbuf *sb) {
  return sb->failed ? hr_error(HR_OUT_OF_MEMORY, "out of memory building text") : NULL;
}

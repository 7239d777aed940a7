/* Status objects: an owned error code + message, NULL for success. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlorun/hlorun.h"

struct hr_status_s {
  hr_code code;
  char message[]; /* NUL-terminated */
};

/* Returned when allocating an error status itself fails. It is never freed. */
static const struct hr_status_s oom_status = {HR_OUT_OF_MEMORY};

__attribute__((format(printf, 3, 0))) static hr_status status_vnew(hr_code code, const char *suffix,
                                                                  const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) n = 0;
  size_t plen = suffix ? strlen(suffix) : 0;
  struct hr_status_s *s = malloc(sizeof *s + plen + (size_t)n + 1);
  if (!s) return (hr_status)&oom_status;
  s->code = code;
  vsnprintf(s->message, (size_t)n + 1, fmt, ap);
  if (suffix) memcpy(s->message + n, suffix, plen + 1);
  return s;
}

hr_status hr_error(hr_code code, const char *fmt, ...) {
  if (code == HR_OK) code = HR_INTERNAL;
  va_list ap;
  va_start(ap, fmt);
  hr_status s = status_vnew(code, NULL, fmt, ap);
  va_end(ap);
  return s;
}

hr_status hr_status_wrap(hr_status s, const char *fmt, ...) {
  if (!s) return NULL;
  /* The new message is "<formatted>: <old message>". */
  char *old = malloc(strlen(s->message) + 3);
  if (!old) return s;
  old[0] = ':';
  old[1] = ' ';
  strcpy(old + 2, s->message);
  va_list ap;
  va_start(ap, fmt);
  hr_status n = status_vnew(s->code, old, fmt, ap);
  va_end(ap);
  free(old);
  if (n == &oom_status) return s;
  hr_status_free(s);
  return n;
}

hr_code hr_status_code(hr_status s) { return s ? s->code : HR_OK; }

const char *hr_status_message(hr_status s) {
  if (!s) return "";
  if (s == &oom_status) return "out of memory";
  return s->message;
}

void hr_status_free(hr_status s) {
  if (s && s != &oom_status) free(s);
}

const char *hr_code_name(hr_code code) {
  switch (code) {
    case HR_OK: return "OK";
    case HR_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case HR_PARSE_ERROR: return "PARSE_ERROR";
    case HR_VERIFY_ERROR: return "VERIFY_ERROR";
    case HR_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case HR_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case HR_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case HR_IO_ERROR: return "IO_ERROR";
    case HR_NOT_FOUND: return "NOT_FOUND";
    case HR_OUT_OF_RANGE: return "OUT_OF_RANGE";
    case HR_CHECK_FAILED: return "CHECK_FAILED";
    case HR_INTERNAL: return "INTERNAL";
    case HR_DEADLINE_EXCEEDED: return "DEADLINE_EXCEEDED";
    case HR_CANCELLED: return "CANCELLED";
  }
  return "UNKNOWN";
}

/* Error codes, the event log and the clock (common.h). */
#include "server/common.h"

#include <stdarg.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

srv_code srv_code_of(hr_code c) {
  switch (c) {
    case HR_OK: return SRV_OK;
    case HR_INVALID_ARGUMENT:
    case HR_PARSE_ERROR:
    case HR_VERIFY_ERROR: return SRV_INVALID_ARGUMENT;
    case HR_UNIMPLEMENTED: return SRV_UNIMPLEMENTED;
    case HR_OUT_OF_MEMORY:
    case HR_RESOURCE_EXHAUSTED: return SRV_RESOURCE_EXHAUSTED;
    case HR_IO_ERROR: return SRV_UNKNOWN;
    case HR_NOT_FOUND: return SRV_NOT_FOUND;
    case HR_OUT_OF_RANGE: return SRV_OUT_OF_RANGE;
    case HR_CHECK_FAILED: return SRV_FAILED_PRECONDITION;
    case HR_INTERNAL: return SRV_INTERNAL;
    case HR_DEADLINE_EXCEEDED: return SRV_DEADLINE_EXCEEDED;
    case HR_CANCELLED: return SRV_CANCELLED;
  }
  return SRV_UNKNOWN;
}

const char *srv_code_name(srv_code c) {
  static const char *const names[] = {
      "OK",        "CANCELLED",       "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
      "NOT_FOUND", "ALREADY_EXISTS",  "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
      "ABORTED",   "OUT_OF_RANGE",    "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
      "DATA_LOSS", "UNAUTHENTICATED",
  };
  return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "UNKNOWN";
}

int srv_code_http(srv_code c) {
  switch (c) {
    case SRV_OK: return 200;
    case SRV_CANCELLED: return 499;
    case SRV_INVALID_ARGUMENT:
    case SRV_FAILED_PRECONDITION:
    case SRV_OUT_OF_RANGE: return 400;
    case SRV_DEADLINE_EXCEEDED: return 504;
    case SRV_NOT_FOUND: return 404;
    case SRV_ALREADY_EXISTS:
    case SRV_ABORTED: return 409;
    case SRV_PERMISSION_DENIED: return 403;
    case SRV_RESOURCE_EXHAUSTED: return 429;
    case SRV_UNIMPLEMENTED: return 501;
    case SRV_UNAVAILABLE: return 503;
    case SRV_UNAUTHENTICATED: return 401;
    case SRV_UNKNOWN:
    case SRV_INTERNAL:
    case SRV_DATA_LOSS: break;
  }
  return 500;
}

void srv_log(FILE *log, const char *fmt, ...) {
  char line[2048];
  int prefix = snprintf(line, sizeof line, "hlorun serve: ");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line + prefix, sizeof line - (size_t)prefix - 1, fmt, ap);
  va_end(ap);
  for (char *p = line; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
  strcat(line, "\n");
  fputs(line, log);
  fflush(log);
}

hr_status srv_sync_init(pthread_mutex_t *mu, pthread_cond_t *cv) {
  pthread_condattr_t attr;
  if (pthread_condattr_init(&attr) != 0) return hr_error(HR_INTERNAL, "cannot create a condition variable");
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  int rc = pthread_cond_init(cv, &attr);
  pthread_condattr_destroy(&attr);
  if (rc != 0) return hr_error(HR_INTERNAL, "cannot create a condition variable");
  if (pthread_mutex_init(mu, NULL) != 0) {
    pthread_cond_destroy(cv);
    return hr_error(HR_INTERNAL, "cannot create a mutex");
  }
  return NULL;
}

double srv_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t srv_random_u64(void) {
  uint64_t v;
  if (getrandom(&v, sizeof v, 0) == (ssize_t)sizeof v) return v;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull;
}

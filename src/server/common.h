/* Helpers shared by the server's parts: TensorFlow's canonical error codes and their HTTP
 * statuses, the event log, and the clock. */
#ifndef HLORUN_SERVER_COMMON_H
#define HLORUN_SERVER_COMMON_H

#include <pthread.h>
#include <stdio.h>

#include "hlorun/hlorun.h"

/* TensorFlow's (gRPC's) canonical error codes, as model status and REST replies carry them. */
typedef enum srv_code {
  SRV_OK = 0,
  SRV_CANCELLED = 1,
  SRV_UNKNOWN = 2,
  SRV_INVALID_ARGUMENT = 3,
  SRV_DEADLINE_EXCEEDED = 4,
  SRV_NOT_FOUND = 5,
  SRV_ALREADY_EXISTS = 6,
  SRV_PERMISSION_DENIED = 7,
  SRV_RESOURCE_EXHAUSTED = 8,
  SRV_FAILED_PRECONDITION = 9,
  SRV_ABORTED = 10,
  SRV_OUT_OF_RANGE = 11,
  SRV_UNIMPLEMENTED = 12,
  SRV_INTERNAL = 13,
  SRV_UNAVAILABLE = 14,
  SRV_DATA_LOSS = 15,
  SRV_UNAUTHENTICATED = 16,
} srv_code;

/* The canonical code for an hlorun status code: argument, parse and verification errors are
 * INVALID_ARGUMENT, exhausted limits and memory RESOURCE_EXHAUSTED, failed checks
 * FAILED_PRECONDITION, I/O errors UNKNOWN. */
srv_code srv_code_of(hr_code c);
/* "OK", "INVALID_ARGUMENT", ... */
const char *srv_code_name(srv_code c);
/* The HTTP status TensorFlow Serving answers a code with (400, 404, 429, 500, 501, 503, ...). */
int srv_code_http(srv_code c);

/* Writes "hlorun serve: <message>" as one line (line breaks in the message become spaces). */
void srv_log(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Monotonic time in seconds. */
double srv_now(void);
/* 64 random bits from the kernel (getrandom), or from the clock when it has none to give. */
uint64_t srv_random_u64(void);

/* Initializes a mutex and a condition variable whose timed waits use the monotonic clock (as
 * srv_now does); on error neither needs destroying. */
hr_status srv_sync_init(pthread_mutex_t *mu, pthread_cond_t *cv);

#endif

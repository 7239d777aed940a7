/* The connection guard: every HTTP connection is in one phase at a time, and every phase but
 * running a request has a deadline. A thread wakes a few times a second and
 *   - closes connections past their phase's deadline (idle between requests, reading a request's
 *     line, headers and body, sending an answer), so that clients trickling bytes cannot hold
 *     connections: libmicrohttpd's own timeout restarts with every byte;
 *   - notices clients that closed their connection while their request is queued or running, so
 *     that its work can be cancelled.
 * Closing means shutdown(2) of the socket, under the table's lock, which libmicrohttpd's
 * "connection closed" notification takes before the socket is closed: libmicrohttpd then sees
 * the connection end and cleans it up on its own thread. */
#ifndef HLORUN_SERVER_CONNS_H
#define HLORUN_SERVER_CONNS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/limits.h"
#include "hlorun/hlorun.h"

/* A connection sends a request line within this many seconds of opening or of its last answer. */
#define SRV_IDLE_SECONDS HR_LIMIT_IDLE_SECONDS

typedef enum srv_conn_phase {
  SRV_CONN_IDLE,    /* accepted, or between two requests: no byte of a request line seen */
  SRV_CONN_READING, /* the request line arrived: headers and body until the request is complete */
  SRV_CONN_RUNNING, /* the request is queued or running (bounded by the request's own deadline) */
  SRV_CONN_SENDING, /* the answer is queued until it is sent */
} srv_conn_phase;

/* One connection (libmicrohttpd's socket context). */
typedef struct srv_conn {
  int fd;
  srv_conn_phase phase; /* guarded by the table's lock */
  double deadline;      /* when the phase must have ended (monotonic seconds); 0: none */
  bool closing;         /* shut down by the guard */
  atomic_bool gone;     /* the client hung up while the request was RUNNING */
  struct srv_conn *prev, *next;
} srv_conn;

typedef struct srv_conns {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* wakes the guard thread to stop (monotonic clock) */
  srv_conn *head;
  int count;
  pthread_t thread;
  bool running, stop;
  double idle_seconds, read_seconds; /* the IDLE and READING deadlines */
  uint64_t timed_out;                /* connections closed by a deadline (for metrics and tests) */
  uint64_t hung_up;                  /* clients seen gone while their request ran */
} srv_conns;

hr_status srv_conns_init(srv_conns *t, double idle_seconds, double read_seconds);
/* Starts the guard thread. */
hr_status srv_conns_start(srv_conns *t);
/* Stops the guard thread (connections stay listed until libmicrohttpd closes them). */
void srv_conns_stop(srv_conns *t);
void srv_conns_destroy(srv_conns *t);

/* A new connection in phase IDLE; NULL when out of memory (the caller closes it). */
srv_conn *srv_conn_open(srv_conns *t, int fd);
/* Forgets a connection (libmicrohttpd closes its socket right after). */
void srv_conn_close(srv_conns *t, srv_conn *c);
/* Moves a connection to a phase that must end within `seconds` (0: no deadline). */
void srv_conn_enter(srv_conns *t, srv_conn *c, srv_conn_phase phase, double seconds);
/* The counters, read under the lock. */
void srv_conns_counts(srv_conns *t, int *open, uint64_t *timed_out, uint64_t *hung_up);

#endif

/* The server object as its parts see it (server.c, http.c, rest.c), and the interfaces between
 * the HTTP glue and the REST adapter. */
#ifndef HLORUN_SERVER_INTERNAL_H
#define HLORUN_SERVER_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "base/strbuf.h"
#include "server/batcher.h"
#include "server/conns.h"
#include "server/metrics.h"
#include "server/registry.h"
#include "server/server.h"
#include "server/service.h"

struct MHD_Daemon;
struct srv_workers;

struct srv_server {
  srv_options opts; /* opts.batching.allowed_batch_sizes is the batcher's concern, not kept */
  srv_service svc;      /* the registry, the batcher and the output bound every protocol answers with */
  srv_metrics *metrics; /* owned here; svc.metrics points to it */
  /* HTTP */
  struct MHD_Daemon *daemon;
  struct srv_workers *workers; /* run POST requests */
  srv_conns conns;             /* the connection guard */
  atomic_size_t buffered_bytes; /* request body bytes held, all connections (max_buffered_bytes) */
  int listen_fd;               /* -1 when closed */
  int port;
  char address[96]; /* "127.0.0.1:8501" */
  pthread_mutex_t mu;
  pthread_cond_t idle_cv; /* signalled when in_flight drops */
  int in_flight;          /* requests between arrival and completion */
  bool draining;          /* stop was called: answers close their connections */
  bool started, stopped;
};

/* An answer to an HTTP request, with what metrics need to know about it. */
typedef struct srv_reply {
  int status;
  const char *content_type;
  const char *allow; /* Allow header (405 answers), or NULL */
  bool close;        /* close the connection after the answer (its request was not read to its end) */
  hr_strbuf body;
  const char *endpoint; /* metrics label: "predict", "status", "metadata", "healthz", ... */
  const char *model;    /* metrics label: a configured model's name, or "" */
  char version[24];     /* metrics label: the version that answered, or "" */
} srv_reply;

/* Initializes a reply (status 200, JSON, empty body, endpoint "other", no model). */
void srv_reply_init(srv_reply *r);
/* Makes the reply a JSON error {"error": "<message>"} with the HTTP status of `code`. */
void srv_reply_error(srv_reply *r, int http_status, const char *message);
/* Answers a REST request (method, decoded path, body): the adapter from HTTP and JSON to the
 * service. */
void srv_rest_handle(srv_server *s, const char *method, const char *path, const char *body, size_t len,
                     const srv_call *call, srv_reply *reply);

/* Binds the listening socket and starts libmicrohttpd's threads. */
hr_status srv_http_start(srv_server *s);
/* Appends the connection families: open connections, deadline closes, hang-ups, buffered bytes. */
void srv_http_append_metrics(srv_server *s, hr_strbuf *sb);
/* Stops accepting connections, waits (bounded) for requests in flight, then runs `between` (the
 * batcher's drain), runs the requests still queued and stops the HTTP threads. */
void srv_http_stop(srv_server *s, void (*between)(srv_server *));

#endif

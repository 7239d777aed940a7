/* The server object as its parts see it (server.c, http.c, rest.c), and the interfaces between
 * the HTTP glue and the REST handlers. */
#ifndef HLORUN_SERVER_INTERNAL_H
#define HLORUN_SERVER_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include "base/strbuf.h"
#include "server/batcher.h"
#include "server/metrics.h"
#include "server/registry.h"
#include "server/server.h"

struct MHD_Daemon;
struct srv_workers;

struct srv_server {
  srv_options opts; /* opts.batching.allowed_batch_sizes is the batcher's concern, not kept */
  srv_registry *registry;
  srv_batcher *batcher; /* NULL unless batching is enabled */
  srv_metrics *metrics;
  /* HTTP */
  struct MHD_Daemon *daemon;
  struct srv_workers *workers; /* run POST requests */
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
  hr_strbuf body;
  const char *endpoint; /* metrics label: "predict", "status", "metadata", "healthz", ... */
  const char *model;    /* metrics label: a configured model's name, or "" */
  char version[24];     /* metrics label: the version that answered, or "" */
} srv_reply;

/* Initializes a reply (status 200, JSON, empty body, endpoint "other", no model). */
void srv_reply_init(srv_reply *r);
/* Makes the reply a JSON error {"error": "<message>"} with the HTTP status of `code`. */
void srv_reply_error(srv_reply *r, int http_status, const char *message);
/* Answers a request (method, decoded path, body). */
void srv_rest_handle(srv_server *s, const char *method, const char *path, const char *body, size_t len,
                     srv_reply *reply);

/* Binds the listening socket and starts libmicrohttpd's threads. */
hr_status srv_http_start(srv_server *s);
/* Stops accepting connections, waits (bounded) for requests in flight, then runs `between` (the
 * batcher's drain), runs the requests still queued and stops the HTTP threads. */
void srv_http_stop(srv_server *s, void (*between)(srv_server *));

#endif

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
typedef struct srv_gen_stream srv_gen_stream; /* generation.h */
struct srv_workers;
struct srv_grpc;

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
  struct srv_grpc *grpc; /* the gRPC transport (grpc.c); NULL without a gRPC port */
  pthread_mutex_t mu;
  pthread_cond_t idle_cv; /* signalled when in_flight drops */
  int in_flight;          /* requests between arrival and completion (REST), gRPC calls on the workers */
  bool draining;          /* stop was called: answers close their connections */
  pthread_mutex_t gen_mu;      /* guards gen_streams */
  srv_gen_stream *gen_streams; /* generation answers in progress (generation.c), to cancel at a stop */
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
  srv_code code;        /* the canonical code answered (TensorFlow Serving's request_count label) */
  long long json_bytes; /* >= 0: the body is that many bytes of JSON then binary tensor data (KServe's
                         * Inference-Header-Content-Length header); -1: none */
  srv_gen_stream *stream; /* the answer is this generation's stream (generation.h), not `body` */
} srv_reply;

/* KServe's binary tensor data header: the bytes of JSON before the binary data, in a request or
 * an answer. */
#define SRV_INFERENCE_HEADER "Inference-Header-Content-Length"

/* The request headers the REST adapter reads (NULL when absent). */
typedef struct srv_rest_headers {
  const char *origin;             /* Origin: a CORS preflight's */
  const char *inference_json_len; /* Inference-Header-Content-Length: KServe's binary tensor data */
} srv_rest_headers;

/* Initializes a reply (status 200, JSON, empty body, endpoint "other", no model). */
void srv_reply_init(srv_reply *r);
/* Makes the reply a JSON error {"error": "<message>"} with the HTTP status of `code`. */
void srv_reply_error(srv_reply *r, int http_status, const char *message);
/* Answers a REST request (method, decoded path, headers, body): the adapter from HTTP and JSON to
 * the service. */
void srv_rest_handle(srv_server *s, const char *method, const char *path, const srv_rest_headers *headers,
                     const char *body, size_t len, const srv_call *call, srv_reply *reply);

/* A bound, listening, non-blocking socket and its address ("127.0.0.1:8501", "[::1]:8500"). */
typedef struct srv_listener {
  int fd;
  int port;
  char address[96];
} srv_listener;

/* Binds and listens on the first address `host` resolves to (numerically or through /etc/hosts),
 * port `port` (0: any free one). */
hr_status srv_listen(const char *host, int port, srv_listener *out);

/* Binds the listening socket and starts libmicrohttpd's threads. */
hr_status srv_http_start(srv_server *s);
/* Appends the connection families: open connections, deadline closes, hang-ups, buffered bytes. */
void srv_http_append_metrics(srv_server *s, hr_strbuf *sb);
/* Stops accepting connections, waits (bounded) for requests in flight, then runs `between` (the
 * batcher's drain), runs the requests still queued and stops the HTTP threads. */
void srv_http_stop(srv_server *s, void (*between)(srv_server *));

#endif

/* gRPC in the server: the transport (grpc.c: HTTP/2 over libnghttp2) and the services it routes
 * calls to (grpc_tfs.c: TensorFlow Serving's PredictionService and ModelService, gRPC health;
 * grpc_kserve.c: KServe's GRPCInferenceService), all answering through the model service
 * (service.h) as the REST adapter does.
 *
 * A unary call arrives as one length-prefixed message; its method (the :path) picks a handler,
 * which decodes the request message, asks the service, and writes the response message or sets
 * an error code and message (sent as the grpc-status and grpc-message trailers). Handlers that
 * may run a model run on the server's workers; the others (status, metadata, health) answer on
 * the network thread.
 *
 * A producing method (grpc_generate.c: hlorun.GenerationService/Generate) is server streaming:
 * its start, on the network thread, decodes the request and hands a feed (srv_grpc_feed) to a
 * producer on another thread, which queues messages into it and ends it with a status; the
 * network thread sends what is queued as it comes. */
#ifndef HLORUN_SERVER_GRPC_H
#define HLORUN_SERVER_GRPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "formats/protobuf/pb.h"
#include "server/common.h"
#include "server/server.h"
#include "server/service.h"

struct srv_server;
struct srv_grpc;

/* One call as a handler sees it. */
typedef struct srv_grpc_request {
  const uint8_t *msg; /* the request message (the 5-byte prefix removed) */
  size_t len;
  const char *authorization; /* the "authorization" metadata, or NULL */
  const srv_call *call;      /* deadline and cancellation */
} srv_grpc_request;

/* What a handler answers: OK and a response message, or an error code and message. */
typedef struct srv_grpc_reply {
  srv_code code;
  hr_strbuf message; /* the error's text (grpc-message); empty when OK */
  hr_strbuf body;    /* the response message, after SRV_GRPC_PREFIX bytes the transport fills in */
  const char *model; /* metrics: the configured model the call named (srv_registry_model_name), or NULL */
} srv_grpc_reply;

/* Bytes before every message on the wire: a compressed flag and a 4-byte big-endian length. */
#define SRV_GRPC_PREFIX 5

typedef void (*srv_grpc_handler)(struct srv_server *s, const srv_grpc_request *rq, srv_grpc_reply *r);

/* A method: its :path ("/tensorflow.serving.PredictionService/Predict"), its handler, whether it
 * runs on the workers (it may run a model or take long), and whether it watches: a server-streaming
 * call whose handler the network thread runs again every half second, sending each answer that
 * differs from the last as another message, until the client ends the call or the server stops
 * (grpc.health.v1.Health/Watch). */
typedef struct srv_grpc_method {
  const char *path;
  srv_grpc_handler handler;
  bool on_workers;
  bool watch;
} srv_grpc_method;

/* The method at `path`, or NULL (the call is answered UNIMPLEMENTED). */
const srv_grpc_method *srv_grpc_method_find(const char *path);
/* The KServe methods (grpc_kserve.c), which srv_grpc_method_find also searches. */
const srv_grpc_method *srv_grpc_kserve_method_find(const char *path);

/* ---- producing methods (server streaming from another thread) ---------------------------------- */

/* A producing call's outgoing messages: shared by the transport (the network thread) and a
 * producer (any thread), freed when both let go. The producer queues messages and ends the call
 * with a status; its calls never block on the network and never touch nghttp2 (they queue under
 * the feed's lock and wake the network thread). */
typedef struct srv_grpc_feed srv_grpc_feed;

/* How the transport reaches a producer; both hooks run on the network thread with no lock held. */
typedef struct srv_grpc_producer {
  /* The call should end soon (its deadline passed, or the server is stopping); may come more
   * than once, and after the feed ended. */
  void (*cancel)(void *ctx);
  /* The transport let go of the call (it ended, the client reset it or hung up): called once,
   * last; the producer should stop, and release the feed once it no longer uses it. */
  void (*detach)(void *ctx);
  void *ctx;
} srv_grpc_producer;

/* Hands the feed to a producer (the start's last step, when it succeeded): the producer holds a
 * reference from now on. */
void srv_grpc_feed_attach(srv_grpc_feed *f, const srv_grpc_producer *p);
/* Queues one encoded message (`len` bytes; the transport adds the prefix). Dropped when the call
 * is over (ended, or the transport let go: the producer is told through its hooks). */
void srv_grpc_feed_send(srv_grpc_feed *f, const void *msg, size_t len);
/* Ends the call: the trailers carry `code` (and `message` for an error) after the messages
 * queued. Later sends and ends are ignored. */
void srv_grpc_feed_end(srv_grpc_feed *f, srv_code code, const char *message);
/* Drops the producer's reference; the producer must not use the feed afterwards. */
void srv_grpc_feed_release(srv_grpc_feed *f);

/* A producing method's start (network thread): decodes the request and, on success, starts a
 * producer and attaches it to `feed`; else leaves `feed` alone and fails the reply (a
 * trailers-only answer). It must return quickly: the network thread waits for it. */
typedef void (*srv_grpc_starter)(struct srv_server *s, const srv_grpc_request *rq, srv_grpc_feed *feed,
                                 srv_grpc_reply *r);

/* A producing method: its :path and its start. */
typedef struct srv_grpc_stream_method {
  const char *path;
  srv_grpc_starter start;
} srv_grpc_stream_method;

/* The producing method at `path` (grpc_generate.c), or NULL. */
const srv_grpc_stream_method *srv_grpc_stream_method_find(const char *path);

/* Makes the reply an error with `code` and the status's message, freeing the status. */
void srv_grpc_fail(srv_grpc_reply *r, srv_code code, hr_status st);
/* Makes the reply an error for a status from the service: its canonical code (srv_code_of). */
void srv_grpc_fail_status(srv_grpc_reply *r, hr_status st);

/* Appends a length-delimited field holding the bytes of `sub` (a message built apart). */
void srv_grpc_put_message(hr_strbuf *b, uint32_t number, const hr_strbuf *sub);
/* Copies a string field (at most cap - 1 bytes, else INVALID_ARGUMENT naming `what`). */
hr_status srv_grpc_copy_string(const uint8_t *data, size_t len, char *out, size_t cap, const char *what);

/* TensorFlow Serving's ModelSpec as a request names its servable. */
typedef struct srv_grpc_model_spec {
  bool present;
  char name[HR_LIMIT_URL_SEGMENT];
  char label[HR_LIMIT_URL_SEGMENT];
  char signature[HR_LIMIT_URL_SEGMENT];
  srv_selector sel; /* latest unless a version or a label is given (the last on the wire: a oneof) */
} srv_grpc_model_spec;
/* Reads an integer wrapper message (google.protobuf.Int32Value, Int64Value, UInt64Value: { value =
 * 1; }), the LEN field f of the message c, as its value's bits; `what` names the field. */
hr_status srv_grpc_read_wrapper(const hr_pb *c, const hr_pb_field *f, const char *what, uint64_t *out);
/* Reads a ModelSpec (the LEN field f of the message c; grpc_tfs.c). */
hr_status srv_grpc_read_spec(const hr_pb *c, const hr_pb_field *f, srv_grpc_model_spec *spec);

/* Reads a ModelServerConfig message (grpc_config.c) with the text format's rules (server.h);
 * INVALID_ARGUMENT naming what is wrong. */
hr_status srv_grpc_read_config(const uint8_t *data, size_t len, srv_config *out);

/* Transport (grpc.c). Binds the gRPC port and starts its network thread (the workers must exist). */
hr_status srv_grpc_start(struct srv_server *s);
/* Stops taking connections and tells every client to open no more calls (GOAWAY); calls in
 * flight go on. */
void srv_grpc_quiesce(struct srv_server *s);
/* Answers what is left, closes every connection, stops the network thread and frees the
 * transport. */
void srv_grpc_stop(struct srv_server *s);
/* The bound port and its "HOST:PORT". */
int srv_grpc_port(const struct srv_grpc *g);
const char *srv_grpc_address(const struct srv_grpc *g);

#endif

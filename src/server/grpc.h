/* gRPC in the server: the transport (grpc.c: HTTP/2 over libnghttp2) and the services it routes
 * calls to (grpc_tfs.c: TensorFlow Serving's PredictionService and ModelService, gRPC health;
 * grpc_kserve.c: KServe's GRPCInferenceService), all answering through the model service
 * (service.h) as the REST adapter does.
 *
 * A unary call arrives as one length-prefixed message; its method (the :path) picks a handler,
 * which decodes the request message, asks the service, and writes the response message or sets
 * an error code and message (sent as the grpc-status and grpc-message trailers). Handlers that
 * may run a model run on the server's workers; the others (status, metadata, health) answer on
 * the network thread. */
#ifndef HLORUN_SERVER_GRPC_H
#define HLORUN_SERVER_GRPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
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

/* Makes the reply an error with `code` and the status's message, freeing the status. */
void srv_grpc_fail(srv_grpc_reply *r, srv_code code, hr_status st);
/* Makes the reply an error for a status from the service: its canonical code (srv_code_of). */
void srv_grpc_fail_status(srv_grpc_reply *r, hr_status st);

/* Appends a length-delimited field holding the bytes of `sub` (a message built apart). */
void srv_grpc_put_message(hr_strbuf *b, uint32_t number, const hr_strbuf *sub);
/* Copies a string field (at most cap - 1 bytes, else INVALID_ARGUMENT naming `what`). */
hr_status srv_grpc_copy_string(const uint8_t *data, size_t len, char *out, size_t cap, const char *what);

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

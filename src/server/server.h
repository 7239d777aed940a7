/* hlorun's model server: TensorFlow Serving's REST and gRPC APIs over hlorun artifacts (docs/serving.md).
 *
 * A server watches one base directory per model, whose numbered subdirectories are versions each
 * holding one artifact (`*.hlo`); it loads the versions the model's version policy selects, each
 * fully (opened, compiled, warmed up) before it takes traffic, and unloads a version once no
 * request uses it any more. It answers TensorFlow Serving's REST API (model status, metadata,
 * predict), health and readiness probes and Prometheus metrics over libmicrohttpd, and TensorFlow
 * Serving's and KServe's gRPC services over libnghttp2 (grpc.h), optionally merging concurrent
 * predict requests into batches.
 *
 * This header is the layer's public API: configuration (TensorFlow Serving's ModelServerConfig
 * and BatchingParameters text formats), options and the server's life cycle. */
#ifndef HLORUN_SERVER_SERVER_H
#define HLORUN_SERVER_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hlorun/hlorun.h"

/* ---------------------------------------------------------------------------------------------- */
/* Model configuration (ModelServerConfig)                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Which versions of a model are served (TensorFlow Serving's ServableVersionPolicy). */
typedef enum srv_policy_kind {
  SRV_POLICY_LATEST,   /* the num_versions highest versions present */
  SRV_POLICY_ALL,      /* every version present */
  SRV_POLICY_SPECIFIC, /* the listed versions, when present */
} srv_policy_kind;

typedef struct srv_version_policy {
  srv_policy_kind kind;
  int64_t num_versions; /* LATEST: >= 1 */
  int64_t *versions;    /* SPECIFIC: n_versions positive versions */
  int n_versions;
} srv_version_policy;

/* A version label ("stable" -> 3). */
typedef struct srv_label {
  char *name;
  int64_t version;
} srv_label;

typedef struct srv_model_config {
  char *name;      /* unique, non-empty */
  char *base_path; /* holds the version directories */
  srv_version_policy policy;
  srv_label *labels;
  int n_labels;
} srv_model_config;

typedef struct srv_config {
  srv_model_config *models;
  int n_models;
} srv_config;

/* Parses a ModelServerConfig in protobuf text format:
 *   model_config_list {
 *     config {
 *       name: "m"  base_path: "/models/m"  model_platform: "hlorun"
 *       model_version_policy { latest { num_versions: 2 } }   # or all {} or specific { versions: 3 }
 *       version_labels { key: "stable" value: 3 }
 *     }
 *   }
 * Errors name FILE:LINE:COL. `filename` is used in messages only. */
hr_status srv_config_parse(const char *filename, const char *text, size_t len, srv_config *out);
hr_status srv_config_read_file(const char *path, srv_config *out);
/* A configuration of one model with the default policy (the latest version). */
hr_status srv_config_single(const char *name, const char *base_path, srv_config *out);
void srv_config_free(srv_config *c);
void srv_model_config_free(srv_model_config *m);

/* ---------------------------------------------------------------------------------------------- */
/* Batching (BatchingParameters)                                                                   */
/* ---------------------------------------------------------------------------------------------- */

typedef struct srv_batching_params {
  int64_t max_batch_size;       /* rows per batch; default 1000 */
  int64_t batch_timeout_micros; /* longest wait for a batch to fill; default 0 */
  int64_t max_enqueued_batches; /* per queue; default 10 */
  int64_t num_batch_threads;    /* default: the number of online CPUs */
  int64_t *allowed_batch_sizes; /* increasing, the last equal to max_batch_size; batches are padded
                                   up to the next one */
  int n_allowed_batch_sizes;
} srv_batching_params;

void srv_batching_defaults(srv_batching_params *p);
/* Parses BatchingParameters in protobuf text format:
 *   max_batch_size { value: 32 }  batch_timeout_micros { value: 2000 }
 *   max_enqueued_batches { value: 100 }  num_batch_threads { value: 4 }
 *   allowed_batch_sizes: 8  allowed_batch_sizes: 32
 * Unset fields keep their defaults. */
hr_status srv_batching_parse(const char *filename, const char *text, size_t len, srv_batching_params *out);
hr_status srv_batching_read_file(const char *path, srv_batching_params *out);
void srv_batching_free(srv_batching_params *p);

/* ---------------------------------------------------------------------------------------------- */
/* TLS (SSLConfig)                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* TensorFlow Serving's SSLConfig (tensorflow_serving/config/ssl_config.proto), the PEM texts
 * themselves in the file (not paths):
 *   server_key: "-----BEGIN PRIVATE KEY-----\n..."  server_cert: "-----BEGIN CERTIFICATE-----\n..."
 *   custom_ca: "..."  client_verify: true
 * client_verify needs custom_ca: a request whose client presents no certificate signed by it is
 * answered 403. */
typedef struct srv_ssl_config {
  char *server_key;  /* PEM; required */
  char *server_cert; /* PEM chain; required */
  char *custom_ca;   /* PEM; NULL when absent */
  bool client_verify;
} srv_ssl_config;

/* Parses an SSLConfig in protobuf text format; errors name FILE:LINE:COL. */
hr_status srv_ssl_parse(const char *filename, const char *text, size_t len, srv_ssl_config *out);
hr_status srv_ssl_read_file(const char *path, srv_ssl_config *out);
void srv_ssl_free(srv_ssl_config *c);

/* ---------------------------------------------------------------------------------------------- */
/* Server                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* The defaults srv_options_defaults gives are the HR_LIMIT_* bounds of base/limits.h. */
typedef struct srv_options {
  const char *host;             /* address to bind; default "127.0.0.1" */
  int port;                     /* REST; 0: any free port (see srv_server_port); default 8501 */
  int grpc_port;                /* gRPC; 0: any free port; -1: no gRPC (see srv_server_grpc_port); default -1 */
  size_t grpc_max_message_bytes; /* a gRPC request message (RESOURCE_EXHAUSTED beyond); default 64 MiB */
  const char *admin_token;      /* the bearer token HandleReloadConfigRequest needs; NULL: refused */
  int num_threads;              /* threads running predictions; default 4 per online CPU (<= 256) */
  double poll_wait_seconds;     /* base path polling period; default 1 */
  bool enable_batching;         /* merge predict requests (see batching) */
  srv_batching_params batching; /* used when enable_batching; owned by the caller */
  size_t max_request_bytes;     /* request body bound (413 beyond); default 64 MiB */
  size_t max_buffered_bytes;    /* request body bytes held at once, all connections (503 beyond); default 256 MiB */
  int max_json_depth;           /* JSON nesting bound; default 64 */
  int64_t max_tensor_elements;  /* elements over the inputs of one request; default 16M */
  size_t max_output_bytes;      /* tensor bytes of one request's outputs, known before the run; default 32 MiB */
  double request_timeout_seconds; /* a request's deadline from its arrival to its answer (504); default 30 */
  double read_seconds;          /* a request's line, headers and body must arrive within this; default 30 */
  int max_connections;          /* open connections (within the process's file descriptors); default 1000 */
  int max_connections_per_client; /* open connections from one client address; 0: no bound; default 128 */
  size_t max_model_bytes;       /* an artifact larger than this is not loaded; default 16 GiB */
  size_t max_total_model_bytes; /* artifacts held at once, all models and versions; default 3/4 of memory */
  double drain_seconds;         /* bound on the wait for in-flight requests at shutdown; default 30 */
  int intra_op_threads;         /* threads per model run; 0: every online CPU */
  int generate_slots;           /* sequences a generation model runs at once (docs/generation.md); default 32 */
  const srv_ssl_config *ssl;    /* REST over HTTPS with this key and certificate; NULL: plain HTTP; owned by the caller */
  bool enable_cors;             /* REST answers carry TensorFlow Serving's CORS headers (Allow-Origin *, ...) */
  FILE *log;                    /* one line per event; default stderr */
} srv_options;

/* The default of srv_options.generate_slots: 32 sequences (the TinyTransformer's cache: 2 MiB each). */
#define SRV_GENERATE_SLOTS 32

void srv_options_defaults(srv_options *o);

typedef struct srv_server srv_server;

/* Creates a server for `config`, whose contents it takes over (*config is zeroed, also on error).
 * Nothing is loaded and no port is opened yet. */
hr_status srv_server_create(const srv_options *o, srv_config *config, srv_server **out);
/* Loads the versions present now (failures are logged and reported by the status API, they do not
 * fail the start), starts watching the base paths and starts answering HTTP. */
hr_status srv_server_start(srv_server *s);
/* The port the server listens on (after a successful start). */
int srv_server_port(const srv_server *s);
/* The listening address as "HOST:PORT" ("[::1]:PORT" for IPv6). */
const char *srv_server_address(const srv_server *s);
/* The gRPC port and address; -1 and "" without gRPC. */
int srv_server_grpc_port(const srv_server *s);
const char *srv_server_grpc_address(const srv_server *s);
/* Graceful shutdown: stops accepting connections, waits (at most drain_seconds) for requests in
 * flight, runs the batches still queued, stops the HTTP threads and unloads every model. */
void srv_server_stop(srv_server *s);
/* Stops the server if needed and frees it. */
void srv_server_free(srv_server *s);

#endif

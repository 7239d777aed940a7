/* The server's life cycle (server.h): options, creation, start, graceful stop. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/limits.h"
#include "server/generation.h"
#include "server/common.h"
#include "server/grpc.h"
#include "server/internal.h"
#include "server/workers.h"

void srv_options_defaults(srv_options *o) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  memset(o, 0, sizeof *o);
  o->host = "127.0.0.1";
  o->port = 8501;
  o->grpc_port = -1; /* the command line's default is 8500, as tensorflow_model_server's */
  o->grpc_max_message_bytes = HR_LIMIT_GRPC_MESSAGE_BYTES;
  o->num_threads = (int)(cpus > 0 ? (cpus < 64 ? 4 * cpus : 256) : 4);
  o->poll_wait_seconds = 1;
  srv_batching_defaults(&o->batching);
  o->max_request_bytes = HR_LIMIT_REQUEST_BYTES;
  o->max_buffered_bytes = HR_LIMIT_BUFFERED_BYTES;
  o->max_json_depth = HR_LIMIT_JSON_DEPTH;
  o->max_tensor_elements = HR_LIMIT_REQUEST_ELEMENTS;
  o->max_output_bytes = HR_LIMIT_OUTPUT_BYTES;
  o->request_timeout_seconds = HR_LIMIT_REQUEST_SECONDS;
  o->read_seconds = HR_LIMIT_READ_SECONDS;
  o->max_connections = HR_LIMIT_CONNECTIONS;
  o->max_connections_per_client = HR_LIMIT_CONNECTIONS_PER_CLIENT;
  o->max_model_bytes = HR_LIMIT_MODEL_BYTES;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  o->max_total_model_bytes = pages > 0 && page > 0 ? (size_t)pages / 4 * 3 * (size_t)page : HR_LIMIT_MODEL_BYTES;
  o->drain_seconds = HR_LIMIT_DRAIN_SECONDS;
  o->generate_slots = SRV_GENERATE_SLOTS;
  o->log = stderr;
}

/* Checks option values that the command line does not bound. */
static hr_status check_options(const srv_options *o) {
  if (o->port < 0 || o->port > 65535) return hr_error(HR_INVALID_ARGUMENT, "port %d is outside [0, 65535]", o->port);
  if (o->grpc_port < -1 || o->grpc_port > 65535)
    return hr_error(HR_INVALID_ARGUMENT, "gRPC port %d is outside [-1, 65535]", o->grpc_port);
  if (o->grpc_max_message_bytes < 1 || o->grpc_max_message_bytes > INT32_MAX)
    return hr_error(HR_INVALID_ARGUMENT, "grpc_max_message_bytes must be in [1, %d]", INT32_MAX);
  if (o->num_threads < 1 || o->num_threads > HR_LIMIT_REST_THREADS_MAX)
    return hr_error(HR_INVALID_ARGUMENT, "the number of REST API threads must be in [1, %d]",
                    HR_LIMIT_REST_THREADS_MAX);
  if (o->max_request_bytes < 1) return hr_error(HR_INVALID_ARGUMENT, "max_request_bytes must be positive");
  if (o->max_json_depth < 4 || o->max_json_depth > HR_LIMIT_JSON_DEPTH_MAX)
    return hr_error(HR_INVALID_ARGUMENT, "max_json_depth must be in [4, %d]", HR_LIMIT_JSON_DEPTH_MAX);
  if (o->max_tensor_elements < 1) return hr_error(HR_INVALID_ARGUMENT, "max_tensor_elements must be positive");
  if (o->max_buffered_bytes < o->max_request_bytes)
    return hr_error(HR_INVALID_ARGUMENT, "max_buffered_request_bytes must be at least max_request_bytes");
  if (o->max_output_bytes < 1 || o->max_model_bytes < 1 || o->max_total_model_bytes < 1)
    return hr_error(HR_INVALID_ARGUMENT, "output and model size bounds must be positive");
  if (o->max_connections < 1 || o->max_connections_per_client < 0)
    return hr_error(HR_INVALID_ARGUMENT, "max_connections must be positive, max_connections_per_client not negative");
  if (o->generate_slots < 1 || o->generate_slots > HR_LIMIT_GEN_SLOTS)
    return hr_error(HR_INVALID_ARGUMENT, "generate_slots must be in [1, %d]", HR_LIMIT_GEN_SLOTS);
  if (!(o->poll_wait_seconds >= 0) || !(o->drain_seconds >= 0))
    return hr_error(HR_INVALID_ARGUMENT, "poll and drain periods must not be negative");
  if (!(o->request_timeout_seconds > 0) || !(o->read_seconds > 0))
    return hr_error(HR_INVALID_ARGUMENT, "request and read timeouts must be positive");
  return NULL;
}

/* Creates the lock and condition variable that count requests in flight, and the lock of the
 * generation streams. */
static hr_status init_sync(srv_server *s) {
  if (pthread_mutex_init(&s->mu, NULL) != 0) return hr_error(HR_INTERNAL, "cannot create a mutex");
  if (pthread_mutex_init(&s->gen_mu, NULL) != 0) {
    pthread_mutex_destroy(&s->mu);
    return hr_error(HR_INTERNAL, "cannot create a mutex");
  }
  if (pthread_cond_init(&s->idle_cv, NULL) != 0) {
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->gen_mu);
    return hr_error(HR_INTERNAL, "cannot create a condition variable");
  }
  return NULL;
}

hr_status srv_server_create(const srv_options *o, srv_config *config, srv_server **out) {
  *out = NULL;
  hr_status st = check_options(o);
  srv_server *s = st ? NULL : calloc(1, sizeof *s);
  if (!st && !s) st = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!st) st = init_sync(s);
  if (!st && (st = srv_conns_init(&s->conns, SRV_IDLE_SECONDS, o->read_seconds)) != NULL) {
    pthread_cond_destroy(&s->idle_cv);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->gen_mu);
  }
  if (st) {
    free(s);
    srv_config_free(config);
    return st;
  }
  atomic_init(&s->buffered_bytes, 0);
  s->opts = *o;
  s->opts.log = o->log ? o->log : stderr;
  s->listen_fd = -1;
  hr_exec_options exec = {.num_threads = o->intra_op_threads};
  srv_load_limits limits = {.max_model_bytes = o->max_model_bytes,
                            .max_total_bytes = o->max_total_model_bytes,
                            .generate_slots = o->generate_slots};
  s->svc.max_output_bytes = o->max_output_bytes;
  st = srv_metrics_create(&s->metrics);
  s->svc.metrics = s->metrics;
  if (!st) st = srv_registry_create(config, &exec, &limits, s->opts.log, &s->svc.registry);
  srv_config_free(config);
  if (st) {
    srv_server_free(s);
    return st;
  }
  *out = s;
  return NULL;
}

hr_status srv_server_start(srv_server *s) {
  if (s->started) return hr_error(HR_INVALID_ARGUMENT, "the server was already started");
  s->started = true;
  srv_registry_poll(s->svc.registry, true);
  if (s->opts.poll_wait_seconds > 0) HR_TRY(srv_registry_start_polling(s->svc.registry, s->opts.poll_wait_seconds));
  if (s->opts.enable_batching)
    HR_TRY(srv_batcher_create(&s->opts.batching, srv_service_run_batch, &s->svc, &s->svc.batcher));
  HR_TRY(srv_http_start(s));
  srv_log(s->opts.log, "serving REST API on %s", s->address);
  if (s->opts.grpc_port >= 0) HR_TRY(srv_grpc_start(s));
  return NULL;
}

int srv_server_port(const srv_server *s) { return s->port; }

const char *srv_server_address(const srv_server *s) { return s->address; }

int srv_server_grpc_port(const srv_server *s) { return s->grpc ? srv_grpc_port(s->grpc) : -1; }

const char *srv_server_grpc_address(const srv_server *s) { return s->grpc ? srv_grpc_address(s->grpc) : ""; }

/* Between draining HTTP and stopping its threads: runs the batches still queued. */
static void drain_batches(srv_server *s) {
  if (s->svc.batcher) srv_batcher_stop(s->svc.batcher);
}

void srv_server_stop(srv_server *s) {
  if (!s->started || s->stopped) return;
  s->stopped = true;
  srv_log(s->opts.log, "shutting down: draining requests");
  srv_generation_cancel_all(s);
  if (s->grpc) srv_grpc_quiesce(s);
  srv_http_stop(s, drain_batches);
  if (s->grpc) srv_grpc_stop(s);
  srv_registry_stop_polling(s->svc.registry);
}

void srv_server_free(srv_server *s) {
  if (!s) return;
  srv_server_stop(s);
  srv_workers_free(s->workers);
  srv_batcher_free(s->svc.batcher);
  srv_registry_free(s->svc.registry);
  srv_metrics_free(s->metrics);
  srv_conns_destroy(&s->conns);
  pthread_cond_destroy(&s->idle_cv);
  pthread_mutex_destroy(&s->mu);
  pthread_mutex_destroy(&s->gen_mu);
  free(s);
}

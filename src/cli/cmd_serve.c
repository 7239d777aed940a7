/* hlorun serve: a TensorFlow Serving-compatible model server, REST and gRPC (src/server,
 * docs/serving.md).
 *
 * Flags follow tensorflow_model_server's names and accept "--flag=value" or "--flag value".
 * SIGINT and SIGTERM are blocked in every thread and taken by sigwait in the main thread, which
 * then shuts the server down gracefully and exits 0. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "cli/cli.h"
#include "server/server.h"

static const char serve_usage[] =
    "usage: hlorun serve (--model_base_path DIR [--model_name NAME] | --model_config_file FILE)\n"
    "                    [--port N] [--rest_api_port N] [--host ADDR] [--rest_api_num_threads N]\n"
    "                    [--grpc_max_message_bytes N] [--admin_token_file FILE]\n"
    "                    [--file_system_poll_wait_seconds N] [--enable_batching] [--rest_api_enable_cors_support]\n"
    "                    [--batching_parameters_file FILE] [--max_request_bytes N] [--max_json_depth N]\n"
    "                    [--max_tensor_elements N] [--max_output_bytes N] [--max_buffered_request_bytes N]\n"
    "                    [--rest_api_timeout_in_ms N] [--request_read_timeout_seconds N]\n"
    "                    [--max_connections N] [--max_connections_per_client N]\n"
    "                    [--max_model_bytes N] [--max_total_model_bytes N] [--drain_timeout_seconds N]\n"
    "                    [--tensorflow_intra_op_parallelism N] [--ssl_config_file FILE] [--generate_slots N]\n"
    "  serves TensorFlow Serving's REST and gRPC APIs for hlorun artifacts in DIR/<version>/*.hlo;\n"
    "  --port is the gRPC port (default 8500; -1: no gRPC), --rest_api_port the REST port (default 8501);\n"
    "  0 picks a free port; the lines \"grpc listening on HOST:PORT\" and \"listening on HOST:PORT\" (REST)\n"
    "  are printed once serving\n";

typedef struct serve_args {
  const char *host, *model_name, *base_path, *config_file, *batching_file, *ssl_file, *admin_token_file;
  int64_t port, rest_api_port, grpc_max_message_bytes, threads, poll_seconds, max_request_bytes, max_json_depth;
  int64_t max_tensor_elements;
  int64_t drain_seconds, intra_op_threads, max_output_bytes, max_buffered_bytes, timeout_ms, read_seconds;
  int64_t max_connections, max_connections_per_client, max_model_bytes, max_total_model_bytes, generate_slots;
  bool enable_batching, enable_cors, help;
} serve_args;

typedef enum flag_kind { FLAG_INT, FLAG_STRING, FLAG_BOOL } flag_kind;

/* One command-line flag and where its value goes. */
typedef struct flag {
  const char *name; /* without the leading "--" */
  flag_kind kind;
  int64_t lo, hi; /* FLAG_INT bounds */
  void *target;   /* int64_t, const char * or bool */
} flag;

/* Stores a flag's value; false (after a message) when it is malformed. */
static bool set_flag(const flag *f, const char *value) {
  if (f->kind == FLAG_STRING) {
    *(const char **)f->target = value;
    return true;
  }
  if (f->kind == FLAG_BOOL) {
    bool on = !value || strcmp(value, "true") == 0 || strcmp(value, "1") == 0;
    if (!on && strcmp(value, "false") != 0 && strcmp(value, "0") != 0) {
      fprintf(stderr, "hlorun serve: --%s takes true or false, not '%s'\n", f->name, value);
      return false;
    }
    *(bool *)f->target = on;
    return true;
  }
  if (!value) {
    fprintf(stderr, "hlorun serve: --%s needs a value\n", f->name);
    return false;
  }
  char flag_text[64];
  snprintf(flag_text, sizeof flag_text, "--%s", f->name);
  return cli_parse_int(flag_text, value, f->lo, f->hi, (int64_t *)f->target);
}

/* Handles argv[*i] ("--name", "--name=value" or "--name value"); false after a message. */
static bool parse_flag(const flag *flags, int n_flags, int argc, char **argv, int *i) {
  const char *arg = argv[*i];
  if (strncmp(arg, "--", 2) != 0) {
    fprintf(stderr, "hlorun serve: unexpected argument '%s'\n%s", arg, serve_usage);
    return false;
  }
  const char *name = arg + 2, *eq = strchr(name, '=');
  size_t name_len = eq ? (size_t)(eq - name) : strlen(name);
  for (int k = 0; k < n_flags; k++) {
    if (strlen(flags[k].name) != name_len || strncmp(flags[k].name, name, name_len) != 0) continue;
    const char *value = eq ? eq + 1 : NULL;
    if (!value && flags[k].kind != FLAG_BOOL) value = *i + 1 < argc ? argv[++*i] : NULL;
    return set_flag(&flags[k], value);
  }
  fprintf(stderr, "hlorun serve: unknown flag '%s'\n%s", arg, serve_usage);
  return false;
}

/* Parses the command line into `a`; returns 0, or the exit status to return. */
static int parse_serve_args(int argc, char **argv, serve_args *a) {
  *a = (serve_args){.host = "127.0.0.1",
                    .model_name = "default",
                    .port = 8500,
                    .rest_api_port = 8501,
                    .grpc_max_message_bytes = (int64_t)HR_LIMIT_GRPC_MESSAGE_BYTES,
                    .threads = 0,
                    .poll_seconds = 1,
                    .max_request_bytes = (int64_t)HR_LIMIT_REQUEST_BYTES,
                    .max_json_depth = HR_LIMIT_JSON_DEPTH,
                    .max_tensor_elements = HR_LIMIT_REQUEST_ELEMENTS,
                    .drain_seconds = HR_LIMIT_DRAIN_SECONDS};
  srv_options d;
  srv_options_defaults(&d);
  a->max_output_bytes = (int64_t)d.max_output_bytes;
  a->max_buffered_bytes = (int64_t)d.max_buffered_bytes;
  a->timeout_ms = (int64_t)(d.request_timeout_seconds * 1000);
  a->read_seconds = (int64_t)d.read_seconds;
  a->max_connections = d.max_connections;
  a->max_connections_per_client = d.max_connections_per_client;
  a->max_model_bytes = (int64_t)d.max_model_bytes;
  a->max_total_model_bytes = (int64_t)d.max_total_model_bytes;
  a->generate_slots = d.generate_slots;
  const flag flags[] = {
      {"port", FLAG_INT, -1, 65535, &a->port},
      {"rest_api_port", FLAG_INT, 0, 65535, &a->rest_api_port},
      {"host", FLAG_STRING, 0, 0, &a->host},
      {"model_name", FLAG_STRING, 0, 0, &a->model_name},
      {"model_base_path", FLAG_STRING, 0, 0, &a->base_path},
      {"model_config_file", FLAG_STRING, 0, 0, &a->config_file},
      {"file_system_poll_wait_seconds", FLAG_INT, 0, 86400, &a->poll_seconds},
      {"enable_batching", FLAG_BOOL, 0, 0, &a->enable_batching},
      {"rest_api_enable_cors_support", FLAG_BOOL, 0, 0, &a->enable_cors},
      {"batching_parameters_file", FLAG_STRING, 0, 0, &a->batching_file},
      {"ssl_config_file", FLAG_STRING, 0, 0, &a->ssl_file},
      {"grpc_max_message_bytes", FLAG_INT, 1, INT32_MAX, &a->grpc_max_message_bytes},
      {"admin_token_file", FLAG_STRING, 0, 0, &a->admin_token_file},
      {"rest_api_num_threads", FLAG_INT, 1, HR_LIMIT_REST_THREADS_MAX, &a->threads},
      {"max_request_bytes", FLAG_INT, 1, (int64_t)1 << 40, &a->max_request_bytes},
      {"max_json_depth", FLAG_INT, 4, HR_LIMIT_JSON_DEPTH_MAX, &a->max_json_depth},
      {"max_tensor_elements", FLAG_INT, 1, (int64_t)1 << 40, &a->max_tensor_elements},
      {"max_output_bytes", FLAG_INT, 1, (int64_t)1 << 40, &a->max_output_bytes},
      {"max_buffered_request_bytes", FLAG_INT, 1, (int64_t)1 << 40, &a->max_buffered_bytes},
      {"rest_api_timeout_in_ms", FLAG_INT, 1, (int64_t)86400000, &a->timeout_ms},
      {"request_read_timeout_seconds", FLAG_INT, 1, 3600, &a->read_seconds},
      {"max_connections", FLAG_INT, 1, 1000000, &a->max_connections},
      {"max_connections_per_client", FLAG_INT, 0, 1000000, &a->max_connections_per_client},
      {"max_model_bytes", FLAG_INT, 1, (int64_t)1 << 50, &a->max_model_bytes},
      {"max_total_model_bytes", FLAG_INT, 1, (int64_t)1 << 50, &a->max_total_model_bytes},
      {"drain_timeout_seconds", FLAG_INT, 0, 3600, &a->drain_seconds},
      {"tensorflow_intra_op_parallelism", FLAG_INT, 0, 1024, &a->intra_op_threads},
      {"generate_slots", FLAG_INT, 1, HR_LIMIT_GEN_SLOTS, &a->generate_slots},
      {"help", FLAG_BOOL, 0, 0, &a->help},
  };
  for (int i = 0; i < argc; i++)
    if (!parse_flag(flags, (int)(sizeof flags / sizeof flags[0]), argc, argv, &i)) return 2;
  if (a->help) {
    fputs(serve_usage, stdout);
    return -1;
  }
  if (a->port > 0 && a->port == a->rest_api_port) {
    fprintf(stderr, "hlorun serve: --port (gRPC) and --rest_api_port (REST) must differ\n");
    return 2;
  }
  if (!a->config_file && !a->base_path) {
    fprintf(stderr, "hlorun serve: give --model_base_path or --model_config_file\n%s", serve_usage);
    return 2;
  }
  return 0;
}

/* Reads the models to serve: the config file, else the one model of the flags. */
static hr_status load_config(const serve_args *a, srv_config *config) {
  if (a->config_file) {
    if (a->base_path)
      fprintf(stderr, "hlorun serve: --model_config_file given: --model_name and --model_base_path are ignored\n");
    return srv_config_read_file(a->config_file, config);
  }
  return srv_config_single(a->model_name, a->base_path, config);
}

/* Fills server options from the flags (batching parameters read by the caller). */
static void fill_options(const serve_args *a, srv_options *o) {
  srv_options_defaults(o);
  o->host = a->host;
  o->port = (int)a->rest_api_port;
  o->grpc_port = (int)a->port;
  o->grpc_max_message_bytes = (size_t)a->grpc_max_message_bytes;
  if (a->threads) o->num_threads = (int)a->threads;
  o->poll_wait_seconds = (double)a->poll_seconds;
  o->enable_batching = a->enable_batching;
  o->enable_cors = a->enable_cors;
  o->max_request_bytes = (size_t)a->max_request_bytes;
  o->max_json_depth = (int)a->max_json_depth;
  o->max_tensor_elements = a->max_tensor_elements;
  o->max_output_bytes = (size_t)a->max_output_bytes;
  o->max_buffered_bytes = (size_t)a->max_buffered_bytes;
  o->request_timeout_seconds = (double)a->timeout_ms / 1000;
  o->read_seconds = (double)a->read_seconds;
  o->max_connections = (int)a->max_connections;
  o->max_connections_per_client = (int)a->max_connections_per_client;
  o->max_model_bytes = (size_t)a->max_model_bytes;
  o->max_total_model_bytes = (size_t)a->max_total_model_bytes;
  o->drain_seconds = (double)a->drain_seconds;
  o->intra_op_threads = (int)a->intra_op_threads;
  o->generate_slots = (int)a->generate_slots;
}

enum { TOKEN_BYTES = 4096 };

/* Reads the admin bearer token from `path`: its first line, surrounding white space removed. */
static hr_status read_token(const char *path, char *token) {
  FILE *f = fopen(path, "r");
  if (!f) return hr_error(HR_IO_ERROR, "%s: cannot open the admin token file", path);
  size_t n = fread(token, 1, TOKEN_BYTES - 1, f);
  fclose(f);
  token[n] = '\0';
  token[strcspn(token, "\r\n")] = '\0';
  size_t len = strlen(token);
  while (len && (token[len - 1] == ' ' || token[len - 1] == '\t')) token[--len] = '\0';
  size_t lead = strspn(token, " \t");
  memmove(token, token + lead, len - lead + 1);
  if (!token[0]) return hr_error(HR_INVALID_ARGUMENT, "%s: the admin token file holds no token", path);
  return NULL;
}

/* Runs a started server until SIGINT or SIGTERM arrives (they are blocked: see cmd_serve). */
static void wait_for_signal(const sigset_t *set) {
  int sig = 0;
  while (sigwait(set, &sig) != 0) {
  }
  fprintf(stderr, "hlorun serve: received %s\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
}

/* Creates, starts and runs the server; returns the exit status. */
static int serve(srv_options *o, srv_config *config, const sigset_t *signals) {
  srv_server *server;
  hr_status s = srv_server_create(o, config, &server);
  if (s) return report_error(s);
  s = srv_server_start(server);
  if (s) {
    srv_server_free(server);
    return report_error(s);
  }
  /* gRPC first, as tensorflow_model_server prints it: scripts waiting for the REST line have both */
  if (srv_server_grpc_port(server) >= 0) printf("grpc listening on %s\n", srv_server_grpc_address(server));
  printf("listening on %s\n", srv_server_address(server));
  fflush(stdout);
  wait_for_signal(signals);
  srv_server_free(server);
  fprintf(stderr, "hlorun serve: stopped\n");
  return 0;
}

int cmd_serve(int argc, char **argv) {
  serve_args a;
  int rc = parse_serve_args(argc, argv, &a);
  if (rc) return rc < 0 ? 0 : rc;
  srv_options o;
  fill_options(&a, &o);
  if (a.batching_file && !a.enable_batching)
    fprintf(stderr, "hlorun serve: --batching_parameters_file is ignored without --enable_batching\n");
  if (a.enable_batching && a.batching_file) {
    hr_status s = srv_batching_read_file(a.batching_file, &o.batching);
    if (s) return report_error(s);
  }
  /* A request waiting for its batch holds a REST worker: unless told otherwise, have enough
   * workers to fill every batch thread's batch. */
  if (a.enable_batching && !a.threads) {
    int64_t fill = o.batching.max_batch_size * o.batching.num_batch_threads;
    if (fill > o.num_threads) o.num_threads = (int)(fill < 1024 ? fill : 1024);
  }
  srv_ssl_config ssl = {0};
  hr_status s = a.ssl_file ? srv_ssl_read_file(a.ssl_file, &ssl) : NULL;
  if (a.ssl_file && !s) o.ssl = &ssl;
  char token[TOKEN_BYTES];
  if (!s && a.admin_token_file) s = read_token(a.admin_token_file, token);
  if (!s && a.admin_token_file) o.admin_token = token;
  srv_config config;
  if (!s) s = load_config(&a, &config);
  if (s) {
    srv_batching_free(&o.batching);
    srv_ssl_free(&ssl);
    return report_error(s);
  }
  /* Block the shutdown signals before any thread starts, so that only sigwait sees them. */
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, NULL);
  signal(SIGPIPE, SIG_IGN);
  rc = serve(&o, &config, &signals);
  srv_batching_free(&o.batching);
  srv_ssl_free(&ssl);
  return rc;
}

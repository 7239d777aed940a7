/* The HTTP glue: libmicrohttpd in its internal thread pool mode (epoll where available) over a
 * listening socket we bind ourselves (so that port 0 can be resolved and any address bound).
 *
 * libmicrohttpd pins each connection to one of its threads, so a handler that runs a model would
 * hold up every other connection of its thread. POST requests (predictions) are therefore run on
 * a pool of workers (--rest_api_num_threads of them): the connection is suspended, the worker
 * builds the reply and resumes it, and libmicrohttpd's thread sends it. The other requests are
 * quick and answered on libmicrohttpd's threads.
 *
 * Requests are untrusted, and so is their pace. Every connection is watched by the connection
 * guard (conns.h): it must send a request line within the idle timeout, the rest of the request
 * within --request_read_timeout_seconds, and read its answer at a minimum rate; connections per
 * client address and in all are capped. Framing is checked before any body byte is taken: one
 * Content-Length at most, no Content-Length beside Transfer-Encoding, no transfer coding but
 * "chunked" (501), no encoded NUL in the URL.
 *
 * Request bodies are accumulated up to max_request_bytes, and all bodies being accumulated
 * together up to max_buffered_request_bytes: an announced body is counted (and allocated) whole
 * when its headers arrive, and answered 503 at once when it does not fit (it may be retried); a
 * chunked body is counted as it comes, and its connection closed when it no longer fits. A body
 * over the limit is answered 413: when the client waits for "100 Continue" the answer comes at
 * once and the body is never sent; otherwise the body is read and dropped (so that the client,
 * still sending, does not lose the answer to a reset connection) up to HR_LIMIT_DISCARD_FACTOR
 * times the bound, beyond which the connection is closed (at once when Content-Length announces
 * such a body). Requests are counted from their arrival to their completion, so that a shutdown
 * can wait for them.
 *
 * With an SSLConfig (srv_options.ssl) the port speaks HTTPS only (libmicrohttpd over GnuTLS);
 * with client_verify, a request whose client did not present a certificate that custom_ca signs
 * is answered 403 before anything else is looked at. */
#include <arpa/inet.h>
#include <errno.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <netdb.h>
#include <sys/resource.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/limits.h"
#include "server/common.h"
#include "server/conns.h"
#include "server/generation.h"
#include "server/internal.h"
#include "server/workers.h"

enum {
  LISTEN_BACKLOG = 128,
  FLUSH_SECONDS = 5,         /* after a drain that timed out: time for the last answers to go out */
  RESERVED_FDS = 64,         /* file descriptors kept free of connections: artifacts, logs, the listener */
};

/* What is known about one request while it arrives and is answered. */
typedef struct request_state {
  srv_job job; /* a POST (a prediction) runs as a job on the workers */
  srv_server *server;
  struct MHD_Connection *connection;
  srv_conn *conn;       /* the connection's guard entry (NULL when it could not be made) */
  double start;         /* arrival of the request line (monotonic seconds) */
  bool begun;           /* the headers are in and were judged */
  bool nul_in_url;      /* the URL holds an encoded NUL (%00) */
  hr_strbuf body;       /* the body so far, unless too_large */
  size_t received;      /* body bytes received, kept or not */
  size_t accounted;     /* bytes of `body` counted in the server's buffered bytes */
  bool too_large;       /* the body exceeded max_request_bytes */
  bool queued;          /* handed to the workers (the connection is suspended until answered) */
  atomic_bool answered; /* the job's reply is ready */
  char *method, *url;   /* copies for the job */
  srv_reply reply;      /* the job's reply */
} request_state;

/* Counts a request in. */
static void request_begins(srv_server *s) {
  pthread_mutex_lock(&s->mu);
  s->in_flight++;
  pthread_mutex_unlock(&s->mu);
}

/* Counts a request out and wakes a waiting shutdown. */
static void request_ends(srv_server *s) {
  pthread_mutex_lock(&s->mu);
  s->in_flight--;
  pthread_cond_broadcast(&s->idle_cv);
  pthread_mutex_unlock(&s->mu);
}

/* Frees a request's body and gives its bytes back to the server's buffer budget. */
static void drop_body(srv_server *s, request_state *st) {
  hr_strbuf_free(&st->body);
  atomic_fetch_sub(&s->buffered_bytes, st->accounted);
  st->accounted = 0;
}

/* Frees a response body allocated by an hr_strbuf with the default allocator. */
static void free_body(void *data) { hr_default_allocator()->free(NULL, data); }

/* Queues a reply on a connection (taking over its body) and records it in the metrics. The
 * client then has the read timeout, plus a second per HR_LIMIT_MIN_SEND_RATE bytes, to take it. */
static enum MHD_Result send_reply(srv_server *s, struct MHD_Connection *c, const request_state *st, srv_reply *r) {
  struct MHD_Response *resp;
  size_t bytes = r->body.data ? r->body.len : 0;
  bool streamed = r->stream != NULL;
  if (r->stream) { /* a generation: its output read as it comes (generation.h) */
    resp = srv_gen_stream_response(r->stream, c);
    r->stream = NULL;
  } else if (r->body.data && r->body.len) {
    resp = MHD_create_response_from_buffer_with_free_callback(r->body.len, r->body.data, free_body);
    if (resp) r->body.data = NULL;
  } else {
    resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
  }
  hr_strbuf_free(&r->body);
  if (!resp) return MHD_NO;
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
  if (r->allow) MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
  if (s->opts.enable_cors) { /* TensorFlow Serving's --rest_api_enable_cors_support headers */
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", "*");
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", "POST, GET");
    MHD_add_response_header(resp, "Access-Control-Allow-Headers", "Content-Type");
  }
  if (r->json_bytes >= 0) {
    char json_bytes[24];
    snprintf(json_bytes, sizeof json_bytes, "%lld", r->json_bytes);
    MHD_add_response_header(resp, SRV_INFERENCE_HEADER, json_bytes);
  }
  pthread_mutex_lock(&s->mu);
  bool draining = s->draining;
  pthread_mutex_unlock(&s->mu);
  if (draining || r->close) MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
  /* A generation's answer lasts as long as it generates: bounded by its max_tokens, not by a rate. */
  srv_conn_enter(&s->conns, st->conn, streamed ? SRV_CONN_RUNNING : SRV_CONN_SENDING,
                 streamed ? 0 : s->opts.read_seconds + (double)bytes / HR_LIMIT_MIN_SEND_RATE);
  enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
  MHD_destroy_response(resp);
  srv_metrics_request(s->metrics, r->model, r->version, r->endpoint, r->status, srv_now() - st->start);
  return ok;
}

/* Answers an error at once; `close`: the connection is closed after it (its body is not read). */
static enum MHD_Result reply_now(srv_server *s, struct MHD_Connection *c, const request_state *st, int status,
                                 const char *message, bool close) {
  srv_reply r;
  srv_reply_init(&r);
  srv_reply_error(&r, status, message);
  r.close = close;
  return send_reply(s, c, st, &r);
}

/* Answers 413 for a body over the limit. */
static enum MHD_Result reply_too_large(srv_server *s, struct MHD_Connection *c, const request_state *st) {
  char msg[160];
  snprintf(msg, sizeof msg, "the request body exceeds the limit of %zu bytes (--max_request_bytes)",
           s->opts.max_request_bytes);
  return reply_now(s, c, st, 413, msg, false);
}

/* Answers 503 (closing the connection) for a body that would exceed the server's buffer budget. */
static enum MHD_Result reply_over_budget(srv_server *s, struct MHD_Connection *c, const request_state *st) {
  char msg[200];
  snprintf(msg, sizeof msg,
           "the request bodies held at once would exceed %zu bytes (--max_buffered_request_bytes); retry later",
           s->opts.max_buffered_bytes);
  return reply_now(s, c, st, srv_code_http(SRV_UNAVAILABLE), msg, true);
}

/* How a request's announced body compares with the limits. */
typedef enum body_verdict {
  BODY_OK,          /* within the limit, or not announced */
  BODY_DISCARD,     /* too long: read it, drop it, then answer 413 */
  BODY_REFUSE,      /* answer 413 now: the client waits for "100 Continue", or the body is too long even to drop */
  BODY_OVER_BUDGET, /* fits the limit, but not what is left of the server's buffer budget: 503 now */
} body_verdict;

/* Counts `n` more body bytes of a request against the server's budget; false (nothing counted)
 * when they do not fit. */
static bool reserve_body(srv_server *s, request_state *st, size_t n) {
  size_t held = atomic_fetch_add(&s->buffered_bytes, n);
  if (held > s->opts.max_buffered_bytes || n > s->opts.max_buffered_bytes - held) {
    atomic_fetch_sub(&s->buffered_bytes, n);
    return false;
  }
  st->accounted += n;
  return true;
}

/* Judges the announced body (Content-Length, Expect) against max_request_bytes, and reserves a
 * body within it in the budget (and its memory, so that it is allocated once). */
static body_verdict judge_body(srv_server *s, struct MHD_Connection *c, request_state *st) {
  const char *len = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  if (!len) return BODY_OK;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(len, &end, 10);
  size_t max = s->opts.max_request_bytes;
  if (errno != ERANGE && (end == len || n <= max)) {
    if (!reserve_body(s, st, (size_t)n)) return BODY_OVER_BUDGET;
    hr_strbuf_reserve(&st->body, (size_t)n);
    return BODY_OK;
  }
  const char *expect = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_EXPECT);
  if (errno == ERANGE || n / HR_LIMIT_DISCARD_FACTOR > max || (expect && strcasecmp(expect, "100-continue") == 0))
    return BODY_REFUSE;
  return BODY_DISCARD;
}

/* What the framing headers of a request (counted by count_framing) say. */
typedef struct framing {
  int content_lengths, transfer_encodings;
  const char *content_length, *transfer_encoding;
} framing;

static enum MHD_Result count_framing(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
  framing *f = cls;
  if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
    f->content_lengths++;
    f->content_length = value;
  } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
    f->transfer_encodings++;
    f->transfer_encoding = value;
  }
  return MHD_YES;
}

/* Whether s is a decimal number (digits only, at least one). */
static bool all_digits(const char *s) { return s && *s && strspn(s, "0123456789") == strlen(s); }

/* Checks how the request's body is delimited, so that no two readers of the same bytes (a proxy
 * in front and this server) can disagree on where a request ends (request smuggling). Returns
 * the HTTP status to refuse with (and the message), or 0. */
static int judge_framing(struct MHD_Connection *c, const char **why) {
  framing f = {0};
  MHD_get_connection_values(c, MHD_HEADER_KIND, count_framing, &f);
  if (f.content_lengths > 1) return *why = "the request has more than one Content-Length header", 400;
  if (f.content_lengths && !all_digits(f.content_length)) return *why = "Content-Length is not a decimal number", 400;
  if (f.transfer_encodings && f.content_lengths)
    return *why = "the request has both Transfer-Encoding and Content-Length", 400;
  if (f.transfer_encodings > 1 || (f.transfer_encodings && strcasecmp(f.transfer_encoding, "chunked") != 0))
    return *why = "only the chunked transfer coding is supported (Transfer-Encoding: chunked)", 501;
  return 0;
}

/* Takes a piece of the body; false when the connection should be closed. */
static bool take_upload(srv_server *s, request_state *st, const char *data, size_t n) {
  size_t max = s->opts.max_request_bytes;
  st->received = n > SIZE_MAX - st->received ? SIZE_MAX : st->received + n;
  if (!st->too_large && st->received > max) {
    st->too_large = true;
    drop_body(s, st);
  }
  if (!st->too_large) {
    /* A chunked body is counted as it comes; one beyond the budget cannot be answered before its
     * end, so its connection is closed. */
    if (st->received > st->accounted && !reserve_body(s, st, st->received - st->accounted)) return false;
    hr_strbuf_append(&st->body, data, n);
  }
  return st->received / HR_LIMIT_DISCARD_FACTOR <= max;
}

/* Whether a request's client hung up while it ran (the run control's poll). */
static bool call_abandoned(void *ctx) {
  const request_state *st = ctx;
  return st->conn && atomic_load(&st->conn->gone);
}

/* Answers a request through the REST handlers, with its deadline and cancellation. */
static void handle(srv_server *s, request_state *st, const char *method, const char *url, srv_reply *reply) {
  if (st->body.failed) {
    srv_reply_error(reply, 500, "out of memory reading the request body");
    return;
  }
  srv_call call = {.deadline = st->start + s->opts.request_timeout_seconds, .abandoned = call_abandoned, .ctx = st};
  srv_rest_headers headers = {
      .origin = MHD_lookup_connection_value(st->connection, MHD_HEADER_KIND, "Origin"),
      .inference_json_len = MHD_lookup_connection_value(st->connection, MHD_HEADER_KIND, SRV_INFERENCE_HEADER)};
  srv_rest_handle(s, method, url, &headers, st->body.data ? st->body.data : "", st->body.len, &call, reply);
}

/* A worker runs a queued request, then wakes its connection (after which the state may be gone). */
static void run_job(srv_job *job) {
  request_state *st = (request_state *)job;
  handle(st->server, st, st->method, st->url, &st->reply);
  drop_body(st->server, st);
  atomic_store_explicit(&st->answered, true, memory_order_release);
  MHD_resume_connection(st->connection);
}

/* Answers a queued request that the shutdown will not run: 503, and wakes its connection. */
static void cancel_job(srv_job *job) {
  request_state *st = (request_state *)job;
  srv_reply_error(&st->reply, srv_code_http(SRV_UNAVAILABLE), "the server is shutting down");
  atomic_store_explicit(&st->answered, true, memory_order_release);
  MHD_resume_connection(st->connection);
}

/* Suspends the connection and queues the request on the workers; when they are stopping, answers
 * 503 instead (resuming the connection at once). */
static enum MHD_Result run_later(srv_server *s, struct MHD_Connection *c, request_state *st, const char *method,
                                 const char *url) {
  st->method = strdup(method);
  st->url = strdup(url);
  if (!st->method || !st->url) return reply_now(s, c, st, 500, "out of memory", false);
  st->job.run = run_job;
  st->job.cancel = cancel_job;
  st->queued = true;
  srv_conn_enter(&s->conns, st->conn, SRV_CONN_RUNNING, 0);
  MHD_suspend_connection(c);
  hr_status refused = srv_workers_submit(s->workers, &st->job);
  if (refused) {
    srv_reply_error(&st->reply, srv_code_http(SRV_UNAVAILABLE), hr_status_message(refused));
    hr_status_free(refused);
    atomic_store_explicit(&st->answered, true, memory_order_release);
    MHD_resume_connection(c);
  }
  return MHD_YES;
}

/* Whether the client of TLS connection `c` presented a certificate that the trusted authority
 * (custom_ca) signs and that is valid now. */
static bool client_verified(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
  if (!info || !info->tls_session) return false;
  unsigned status = 0;
  return gnutls_certificate_verify_peers2((gnutls_session_t)info->tls_session, &status) == GNUTLS_E_SUCCESS &&
         status == 0;
}

/* The first call for a request, its headers in: checks the client's certificate (when asked to),
 * the URL and framing and judges the body, answering at once (and closing the connection) when
 * the request is refused. */
static enum MHD_Result begin_request(srv_server *s, struct MHD_Connection *c, request_state *st) {
  st->begun = true;
  request_begins(s);
  if (s->opts.ssl && s->opts.ssl->client_verify && !client_verified(c))
    return reply_now(s, c, st, 403, "a client certificate signed by the server's custom_ca is required", true);
  const char *why;
  int refuse = judge_framing(c, &why);
  if (refuse) return reply_now(s, c, st, refuse, why, true);
  if (st->nul_in_url) return reply_now(s, c, st, 400, "the URL holds an encoded NUL character (%00)", true);
  body_verdict v = judge_body(s, c, st);
  st->too_large = v == BODY_DISCARD;
  if (v == BODY_REFUSE) return reply_too_large(s, c, st);
  if (v == BODY_OVER_BUDGET) return reply_over_budget(s, c, st);
  return MHD_YES;
}

/* libmicrohttpd's access handler: called once when the headers are in, once per piece of body,
 * once more when the request is complete, and again after a suspended request is resumed. POSTs
 * (predictions) are run by the workers; the other requests are quick and answered here. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls) {
  srv_server *s = cls;
  request_state *st = *con_cls;
  if (!st) return MHD_NO; /* on_uri ran out of memory */
  if (!st->begun) return begin_request(s, c, st);
  if (*upload_data_size) {
    bool keep = take_upload(s, st, upload_data, *upload_data_size);
    *upload_data_size = 0;
    return keep ? MHD_YES : MHD_NO;
  }
  if (st->too_large) return reply_too_large(s, c, st);
  if (st->queued) {
    if (!atomic_load_explicit(&st->answered, memory_order_acquire)) return MHD_YES;
    return send_reply(s, c, st, &st->reply);
  }
  if (strcmp(method, "POST") == 0) return run_later(s, c, st, method, url);
  srv_reply r;
  srv_reply_init(&r);
  handle(s, st, method, url, &r);
  return send_reply(s, c, st, &r);
}

/* libmicrohttpd's request-line callback, before the headers: starts the request's state (the
 * request's clock and its read deadline) from the URL as received, still percent-encoded. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c) {
  srv_server *s = cls;
  request_state *st = calloc(1, sizeof *st);
  if (!st) return NULL;
  st->server = s;
  st->connection = c;
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  st->conn = info ? info->socket_context : NULL;
  st->start = srv_now();
  st->nul_in_url = strstr(uri, "%00") != NULL;
  hr_strbuf_init(&st->body, NULL);
  srv_reply_init(&st->reply);
  atomic_init(&st->answered, false);
  srv_conn_enter(&s->conns, st->conn, SRV_CONN_READING, s->opts.read_seconds);
  return st;
}

/* libmicrohttpd's completion callback: frees the request's state; the connection is idle again. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe) {
  srv_server *s = cls;
  request_state *st = *con_cls;
  if (!st) return;
  srv_conn_enter(&s->conns, st->conn, SRV_CONN_IDLE, SRV_IDLE_SECONDS);
  drop_body(s, st);
  hr_strbuf_free(&st->reply.body);
  if (st->reply.stream) srv_gen_stream_abandon(st->reply.stream); /* never sent */
  free(st->method);
  free(st->url);
  bool begun = st->begun;
  free(st);
  *con_cls = NULL;
  if (begun) request_ends(s);
}

/* libmicrohttpd's connection callback: enters new connections in the guard, forgets closed ones. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
  srv_server *s = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    *socket_context = info ? srv_conn_open(&s->conns, info->connect_fd) : NULL;
  } else {
    srv_conn_close(&s->conns, *socket_context);
    *socket_context = NULL;
  }
}

/* Formats "HOST:PORT" ("[HOST]:PORT" for IPv6) of a bound socket. */
static void describe_address(const struct sockaddr_storage *sa, char *buf, size_t cap, int *port) {
  char host[INET6_ADDRSTRLEN] = "?";
  if (sa->ss_family == AF_INET6) {
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
    inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
    *port = ntohs(in6->sin6_port);
    snprintf(buf, cap, "[%s]:%d", host, *port);
  } else {
    const struct sockaddr_in *in4 = (const struct sockaddr_in *)sa;
    inet_ntop(AF_INET, &in4->sin_addr, host, sizeof host);
    *port = ntohs(in4->sin_port);
    snprintf(buf, cap, "%s:%d", host, *port);
  }
}

/* Binds and listens on one resolved address, non-blocking. */
static hr_status bind_listener(const struct addrinfo *ai, const char *host, int port, srv_listener *out) {
  int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
  if (fd < 0) return hr_error(HR_IO_ERROR, "socket: %s", strerror(errno));
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_storage bound;
  socklen_t len = sizeof bound;
  if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, LISTEN_BACKLOG) != 0 ||
      getsockname(fd, (struct sockaddr *)&bound, &len) != 0) {
    hr_status st = hr_error(HR_IO_ERROR, "cannot listen on %s port %d: %s", host, port, strerror(errno));
    close(fd);
    return st;
  }
  describe_address(&bound, out->address, sizeof out->address, &out->port);
  out->fd = fd;
  return NULL;
}

hr_status srv_listen(const char *host, int port, srv_listener *out) {
  char service[16];
  snprintf(service, sizeof service, "%d", port);
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
  struct addrinfo *res = NULL;
  int rc = getaddrinfo(host, service, &hints, &res);
  if (rc != 0 || !res) return hr_error(HR_INVALID_ARGUMENT, "cannot resolve host '%s': %s", host, gai_strerror(rc));
  hr_status st = bind_listener(res, host, port, out);
  freeaddrinfo(res);
  return st;
}

/* Binds the REST port. */
static hr_status open_listener(srv_server *s) {
  srv_listener l;
  HR_TRY(srv_listen(s->opts.host, s->opts.port, &l));
  s->listen_fd = l.fd;
  s->port = l.port;
  memcpy(s->address, l.address, sizeof s->address);
  return NULL;
}

/* libmicrohttpd's I/O threads: one per CPU, between 2 and 8 (the work runs on the workers). */
static unsigned io_threads(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus < 2 ? 2 : cpus > 8 ? 8 : (unsigned)cpus;
}

/* The connections the server takes at once: --max_connections, within the file descriptors the
 * process may open (its soft limit is raised to the hard one first). */
static unsigned connection_limit(const srv_server *s) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return (unsigned)s->opts.max_connections;
  if (rl.rlim_cur < rl.rlim_max) {
    rlim_t want = rl.rlim_max;
    rl.rlim_cur = want;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) getrlimit(RLIMIT_NOFILE, &rl);
  }
  rlim_t fds = rl.rlim_cur > RESERVED_FDS * 2 ? rl.rlim_cur - RESERVED_FDS : rl.rlim_cur / 2;
  return (rlim_t)s->opts.max_connections < fds ? (unsigned)s->opts.max_connections : (unsigned)fds;
}

/* The TLS options of the daemon for `ssl` (NULL: none) into `items` (MHD_OPTION_END-terminated);
 * *flags gains MHD_USE_TLS. */
static hr_status tls_options(const srv_ssl_config *ssl, struct MHD_OptionItem items[4], unsigned *flags) {
  int n = 0;
  if (ssl) {
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
      return hr_error(HR_UNIMPLEMENTED, "this libmicrohttpd was built without TLS; the SSL config cannot be served");
    *flags |= MHD_USE_TLS;
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, ssl->server_key};
    items[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, ssl->server_cert};
    /* the authority makes the server ask for (not require) a client certificate; begin_request
     * requires it when client_verify is set */
    if (ssl->custom_ca) items[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_TRUST, 0, ssl->custom_ca};
  }
  items[n] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
  return NULL;
}

hr_status srv_http_start(srv_server *s) {
  HR_TRY(srv_workers_create(s->opts.num_threads, &s->workers));
  HR_TRY(srv_conns_start(&s->conns));
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME;
  flags |= MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES ? MHD_USE_EPOLL : MHD_USE_POLL;
  struct MHD_OptionItem tls[4];
  HR_TRY(tls_options(s->opts.ssl, tls, &flags));
  HR_TRY(open_listener(s));
  s->daemon = MHD_start_daemon(
      flags, 0, NULL, NULL, on_request, s, MHD_OPTION_ARRAY, tls, MHD_OPTION_LISTEN_SOCKET, s->listen_fd, MHD_OPTION_THREAD_POOL_SIZE,
      io_threads(), MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_NOTIFY_CONNECTION, on_connection, s,
      MHD_OPTION_URI_LOG_CALLBACK, on_uri, s, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SRV_IDLE_SECONDS,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit(s), MHD_OPTION_PER_IP_CONNECTION_LIMIT,
      (unsigned)s->opts.max_connections_per_client, MHD_OPTION_END);
  if (!s->daemon) {
    close(s->listen_fd);
    s->listen_fd = -1;
    return hr_error(HR_INTERNAL, "cannot start the HTTP server on %s%s", s->address,
                    s->opts.ssl ? " (is the SSL config's server_key the key of its server_cert?)" : "");
  }
  return NULL;
}

void srv_http_append_metrics(srv_server *s, hr_strbuf *sb) {
  int open;
  uint64_t timed_out, hung_up;
  srv_conns_counts(&s->conns, &open, &timed_out, &hung_up);
  srv_prom_family(sb, "hlorun_http_connections", "gauge", "Open HTTP connections.");
  srv_prom_sample(sb, "hlorun_http_connections", NULL, 0, open);
  srv_prom_family(sb, "hlorun_http_connection_timeouts_total", "counter",
                  "Connections closed for sending a request or reading an answer too slowly.");
  srv_prom_sample(sb, "hlorun_http_connection_timeouts_total", NULL, 0, (double)timed_out);
  srv_prom_family(sb, "hlorun_http_client_disconnects_total", "counter",
                  "Clients that closed their connection while their request was queued or running.");
  srv_prom_sample(sb, "hlorun_http_client_disconnects_total", NULL, 0, (double)hung_up);
  srv_prom_family(sb, "hlorun_http_buffered_request_bytes", "gauge", "Bytes of request bodies held in memory.");
  srv_prom_sample(sb, "hlorun_http_buffered_request_bytes", NULL, 0, (double)atomic_load(&s->buffered_bytes));
}

/* Waits until no request is in flight, at most `seconds`; returns how many still are. */
static int wait_idle(srv_server *s, double seconds) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  double end = (double)deadline.tv_sec + (double)deadline.tv_nsec * 1e-9 + seconds;
  deadline.tv_sec = (time_t)end;
  deadline.tv_nsec = (long)((end - (double)deadline.tv_sec) * 1e9);
  pthread_mutex_lock(&s->mu);
  while (s->in_flight > 0 && pthread_cond_timedwait(&s->idle_cv, &s->mu, &deadline) == 0) {
  }
  int left = s->in_flight;
  pthread_mutex_unlock(&s->mu);
  return left;
}

void srv_http_stop(srv_server *s, void (*between)(srv_server *)) {
  pthread_mutex_lock(&s->mu);
  s->draining = true;
  pthread_mutex_unlock(&s->mu);
  if (s->daemon) MHD_quiesce_daemon(s->daemon);
  int left = s->daemon ? wait_idle(s, s->opts.drain_seconds) : 0;
  if (left) srv_log(s->opts.log, "shutdown: %d requests still in flight after %.0f s", left, s->opts.drain_seconds);
  between(s);
  /* Requests still queued are answered 503, running ones finish; each resumes its connection, so
   * that none is left suspended for the stop, and gets a moment to send its answer. */
  if (s->workers) srv_workers_stop(s->workers);
  if (left) wait_idle(s, FLUSH_SECONDS);
  if (s->daemon) MHD_stop_daemon(s->daemon);
  s->daemon = NULL;
  srv_conns_stop(&s->conns);
  if (s->listen_fd >= 0) close(s->listen_fd);
  s->listen_fd = -1;
}

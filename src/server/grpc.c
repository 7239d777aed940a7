/* The gRPC transport: HTTP/2 (libnghttp2) on its own port, one network thread polling the
 * listener and every connection, unary calls routed to the handlers of grpc_tfs.c and
 * grpc_kserve.c, producing calls to the starts of grpc_generate.c (grpc.h).
 *
 * A call is a stream: request headers (:path names the method; content-type application/grpc;
 * grpc-timeout; authorization), one length-prefixed message in DATA frames, END_STREAM. Its
 * answer is response headers, one length-prefixed message and trailers (grpc-status,
 * grpc-message percent-encoded); an error is a trailers-only answer. A watching call
 * (Health/Watch) answers with a message at once and another each time its answer changes, its
 * data deferred in between, until the client ends it or the server stops. nghttp2 sessions are not
 * thread-safe, so only the network thread touches them: a handler that may run a model runs on
 * the server's workers (workers.h), which queue the finished stream and wake the network thread
 * through an eventfd; quick handlers (status, metadata, health) answer on the network thread. A
 * producing call (Generate) answers with the messages its producer (another thread) queues in
 * its feed: the producer appends them under the feed's lock, puts the feed on the ready list and
 * wakes the network thread through the same eventfd, which resumes the stream's deferred data.
 * The feed outlives the stream until the producer lets it go; a stream that closes first (the
 * call ended, the client reset it or hung up) detaches its producer, which stops.
 *
 * Bounds (src/base/limits.h, srv_options): a message over --grpc_max_message_bytes is answered
 * RESOURCE_EXHAUSTED as soon as its prefix announces it; message bytes held by all calls count
 * against --max_buffered_request_bytes with REST's (UNAVAILABLE beyond); HR_LIMIT_GRPC_STREAMS
 * concurrent streams per connection (SETTINGS), also the calls one connection may have on the
 * workers; HR_LIMIT_GRPC_HEADER_BYTES of headers per call; --max_connections and
 * --max_connections_per_client; a call's request must arrive within
 * --request_read_timeout_seconds, an idle connection is closed after HR_LIMIT_IDLE_SECONDS and
 * one that does not read its answers within the read timeout is closed. A call's deadline is its
 * grpc-timeout, at most --rest_api_timeout_in_ms (a producing call: its grpc-timeout only); a client
 * that resets the stream or hangs up abandons its call (the run is cancelled, service.h).
 *
 * With an SSLConfig (--ssl_config_file) the port speaks TLS only (tls.h): each connection's
 * handshake (ALPN h2; with client_verify, a client certificate custom_ca signs) runs in the poll
 * loop before HTTP/2 starts, within the idle timeout, and nghttp2's bytes go through the session. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/limits.h"
#include "server/grpc.h"
#include "server/internal.h"
#include "server/tls.h"
#include "server/workers.h"

enum {
  PATH_BYTES = 256,   /* the longest :path routed (method paths are far shorter) */
  AUTH_BYTES = 4096,  /* the longest authorization value kept */
  MESSAGE_TEXT = 2048, /* grpc-message bytes sent, before percent-encoding */
  POLL_MS = 500,      /* the network thread's longest sleep: timeouts are checked this often */
  FLUSH_SECONDS = 2,  /* at the stop: time for the last answers to go out */
  PRODUCER_SECONDS = 10, /* at the stop: time for the producers of closed calls to let go */
};

/* The opaque data of the PING that follows the shutdown notice: its ACK says the client has seen
 * the notice, so every stream it opened before is already here (quiesce_now). */
static const uint8_t kDrainPing[8] = {'h', 'r', '-', 'd', 'r', 'a', 'i', 'n'};

typedef struct grpc_conn grpc_conn;

/* One call. Freed by the network thread once the stream is closed and no worker holds it. */
typedef struct grpc_stream {
  srv_job job;           /* the call on the workers (first member: the job is the stream) */
  struct srv_grpc *g;
  grpc_conn *conn;       /* NULL once its connection is gone */
  int32_t id;
  struct grpc_stream *prev, *next; /* the connection's streams */
  double start;          /* arrival of its headers (monotonic seconds) */
  char path[PATH_BYTES];
  char *authorization;
  bool grpc_type, post;  /* content-type application/grpc[+...]; :method POST */
  double timeout;        /* grpc-timeout in seconds; 0: none */
  size_t header_bytes;
  hr_strbuf body;        /* the length-prefixed request */
  size_t accounted;      /* body bytes counted in the server's buffered bytes */
  bool answered;         /* a response was submitted (or the stream reset): no more request data */
  bool running;          /* on the workers */
  bool closed;           /* nghttp2 closed the stream */
  atomic_bool gone;      /* the client reset the stream or hung up: the call is abandoned */
  srv_call call;
  srv_grpc_reply reply;
  size_t sent;           /* reply bytes handed to nghttp2 */
  bool watching;         /* a watching call (grpc.h) still sending its answers */
  double watch_at;       /* when its handler runs next (monotonic seconds) */
  hr_strbuf last;        /* a watching call: the last message sent */
  srv_grpc_feed *feed;   /* a producing call: its messages (grpc.h); NULL for the others */
  struct grpc_stream *done_next;
} grpc_stream;

/* A producing call's messages (grpc.h): the transport's reference is dropped when its stream is
 * freed, the producer's by srv_grpc_feed_release. */
struct srv_grpc_feed {
  struct srv_grpc *g;
  grpc_stream *st;            /* its stream (network thread) */
  srv_grpc_producer producer; /* set by srv_grpc_feed_attach (network thread) */
  bool attached;
  pthread_mutex_t mu;         /* guards what follows */
  int refs;                   /* the transport's, and the producer's once attached */
  bool detached;              /* the transport let go: messages are dropped */
  bool ended;                 /* the status is set: no more messages */
  srv_code code;
  hr_strbuf message;          /* the error's text (grpc-message) */
  hr_strbuf out;              /* length-prefixed messages not yet handed to nghttp2 */
  size_t sent;                /* bytes of `out` handed over */
  bool queued;                /* on g->ready (guarded by g->mu) */
  srv_grpc_feed *ready_next;  /* (guarded by g->mu) */
};

/* One client connection. */
struct grpc_conn {
  struct srv_grpc *g;
  int fd;
  char peer[64]; /* the client's address, for the per-client bound */
  nghttp2_session *session;
  srv_tls_conn *tls;  /* the TLS session (NULL: plain TCP) */
  bool handshaken;    /* TLS: the handshake is done and HTTP/2 runs */
  grpc_stream *streams;
  int running;        /* its streams on the workers */
  double last_read;   /* last bytes received */
  double write_since; /* since when it has had bytes to send and sent none; 0: nothing waiting */
  bool goaway;        /* the last GOAWAY went out: streams past its last-stream-id are refused */
  grpc_conn *next;
};

struct srv_grpc {
  srv_server *s;
  srv_listener listener;
  srv_tls *tls;   /* the SSLConfig's credentials, or NULL */
  int wake_fd;    /* eventfd: a worker finished a call, or the stop began */
  pthread_t thread;
  pthread_mutex_t mu; /* guards done, ready, feeds and the flags below */
  grpc_stream *done;  /* streams the workers finished */
  srv_grpc_feed *ready; /* feeds with messages or an end to send */
  int feeds;            /* feeds not yet freed */
  pthread_cond_t feeds_cv; /* signalled when feeds drops */
  bool quiesce, stop;
  bool quiesced;      /* the network thread sent the shutdown notices and closed the listener */
  grpc_conn *conns;
  int n_conns;
  double accept_after; /* the process ran out of file descriptors: the listener rests until then */
};

/* ---------------------------------------------------------------------------------------------- */
/* Streams                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Gives back a stream's request bytes to the server's buffer budget. */
static void drop_body(grpc_stream *st) {
  hr_strbuf_free(&st->body);
  atomic_fetch_sub(&st->g->s->buffered_bytes, st->accounted);
  st->accounted = 0;
}

static void feed_detach(srv_grpc_feed *f);

/* Frees a stream that neither nghttp2 nor a worker holds any more (a producing call's producer is
 * detached). */
static void stream_free(grpc_stream *st) {
  if (st->feed) feed_detach(st->feed);
  drop_body(st);
  free(st->authorization);
  hr_strbuf_free(&st->reply.message);
  hr_strbuf_free(&st->reply.body);
  hr_strbuf_free(&st->last);
  free(st);
}

/* Takes a stream out of its connection's list. */
static void unlink_stream(grpc_stream *st) {
  if (!st->conn) return;
  if (st->prev)
    st->prev->next = st->next;
  else
    st->conn->streams = st->next;
  if (st->next) st->next->prev = st->prev;
  st->prev = st->next = NULL;
}

/* The run control's poll: the client went away. */
static bool call_abandoned(void *ctx) { return atomic_load(&((grpc_stream *)ctx)->gone); }

/* Percent-encodes a grpc-message as gRPC requires (bytes outside printable ASCII, and '%'). */
static void percent_encode(const char *text, hr_strbuf *out) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t i = 0; text[i] && i < MESSAGE_TEXT; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c < 0x20 || c > 0x7e || c == '%') {
      char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
      hr_strbuf_append(out, esc, 3);
    } else {
      hr_strbuf_putc(out, (char)c);
    }
  }
}

/* An nghttp2 header pair (copied by nghttp2 when submitted). */
static nghttp2_nv header(const char *name, const char *value) {
  return (nghttp2_nv){(uint8_t *)name, (uint8_t *)value, strlen(name), strlen(value), NGHTTP2_NV_FLAG_NONE};
}

/* The status of an answer as headers: grpc-status (its text in `code`) and grpc-message (its
 * text, percent-encoded, in `text`, which the caller frees). */
static void status_headers(const srv_grpc_reply *r, char code[8], hr_strbuf *text, nghttp2_nv out[2]) {
  snprintf(code, 8, "%d", (int)r->code);
  hr_strbuf_init(text, NULL);
  percent_encode(r->message.data ? r->message.data : "", text);
  out[0] = header("grpc-status", code);
  out[1] = header("grpc-message", text->data ? text->data : "");
}

/* Submits the trailers of an answer: grpc-status, and grpc-message for an error. */
static int submit_trailers(nghttp2_session *session, int32_t id, const srv_grpc_reply *r) {
  char code[8];
  hr_strbuf text;
  nghttp2_nv nva[2];
  status_headers(r, code, &text, nva);
  int rc = nghttp2_submit_trailer(session, id, nva, r->code ? 2 : 1);
  hr_strbuf_free(&text);
  return rc;
}

/* nghttp2's data source for a reply: its length-prefixed messages, then the trailers. A watching
 * call's messages come as they are queued; between them its data is deferred. */
static ssize_t read_reply(nghttp2_session *session, int32_t id, uint8_t *buf, size_t length, uint32_t *flags,
                          nghttp2_data_source *source, void *user_data) {
  (void)user_data;
  grpc_stream *st = source->ptr;
  size_t left = st->reply.body.len - st->sent;
  size_t n = left < length ? left : length;
  if (n) memcpy(buf, st->reply.body.data + st->sent, n);
  st->sent += n;
  if (st->sent < st->reply.body.len) return (ssize_t)n;
  if (st->watching) {
    st->reply.body.len = st->sent = 0;
    return n ? (ssize_t)n : NGHTTP2_ERR_DEFERRED;
  }
  *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
  if (submit_trailers(session, id, &st->reply) != 0) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  return (ssize_t)n;
}

/* Records an answered call of a known method in TensorFlow Serving's request metrics (api: the
 * RPC's name, entrypoint GRPC); a producing call once its trailers go. */
static void record(grpc_stream *st) {
  const srv_grpc_method *m = srv_grpc_method_find(st->path);
  const srv_grpc_stream_method *sm = m ? NULL : srv_grpc_stream_method_find(st->path);
  const char *path = m ? m->path : sm ? sm->path : NULL;
  if (!path) return;
  srv_metrics_tfs_request(st->g->s->metrics, st->reply.model ? st->reply.model : "", strrchr(path, '/') + 1, "GRPC",
                          st->reply.code, srv_now() - st->start);
}

/* Fills in the 5-byte prefix at the start of a message written after it. */
static void frame(hr_strbuf *b, size_t at) {
  size_t len = b->len - at - SRV_GRPC_PREFIX;
  uint8_t *p = (uint8_t *)b->data + at;
  p[0] = 0;
  for (int i = 0; i < 4; i++) p[1 + i] = (uint8_t)(len >> (24 - 8 * i));
}

/* Submits a stream's reply: headers, message and trailers when OK, else a trailers-only answer. */
static void respond(grpc_stream *st) {
  st->answered = true;
  if (!st->watching) drop_body(st); /* a watching call's handler reads its request again */
  nghttp2_session *session = st->conn->session;
  srv_grpc_reply *r = &st->reply;
  if (!r->code && r->body.failed) {
    r->code = SRV_RESOURCE_EXHAUSTED;
    hr_strbuf_puts(&r->message, "out of memory writing the response");
  }
  if (!r->code && r->body.len - SRV_GRPC_PREFIX > UINT32_MAX) {
    r->code = SRV_RESOURCE_EXHAUSTED;
    hr_strbuf_printf(&r->message, "the response message of %zu bytes exceeds gRPC's 4 GiB", r->body.len);
  }
  record(st);
  if (r->code == SRV_OK) {
    frame(&r->body, 0);
    nghttp2_nv nva[] = {header(":status", "200"), header("content-type", "application/grpc")};
    nghttp2_data_provider data = {.source.ptr = st, .read_callback = read_reply};
    nghttp2_submit_response(session, st->id, nva, 2, &data);
    return;
  }
  st->watching = false;
  char code[8];
  hr_strbuf text;
  nghttp2_nv nva[4] = {header(":status", "200"), header("content-type", "application/grpc")};
  status_headers(r, code, &text, nva + 2);
  nghttp2_submit_response(session, st->id, nva, 4, NULL);
  hr_strbuf_free(&text);
}

/* Answers a stream at once with an error. */
static void respond_error(grpc_stream *st, srv_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void respond_error(grpc_stream *st, srv_code code, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  st->reply.code = code;
  st->reply.message.len = 0;
  hr_strbuf_puts(&st->reply.message, text);
  respond(st);
}

/* Answers a request that is not gRPC with a bare HTTP status. */
static void respond_http(grpc_stream *st, const char *status) {
  st->answered = true;
  drop_body(st);
  nghttp2_nv nva[] = {header(":status", status)};
  nghttp2_submit_response(st->conn->session, st->id, nva, 1, NULL);
}

/* ---------------------------------------------------------------------------------------------- */
/* Calls                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Runs a stream's handler (on a worker or the network thread). */
static void run_handler(grpc_stream *st, const srv_grpc_method *m) {
  srv_grpc_request rq = {.msg = (const uint8_t *)st->body.data + SRV_GRPC_PREFIX,
                         .len = st->body.len - SRV_GRPC_PREFIX,
                         .authorization = st->authorization,
                         .call = &st->call};
  m->handler(st->g->s, &rq, &st->reply);
}

/* Hands a stream the workers finished to the network thread. */
static void finish_job(grpc_stream *st) {
  struct srv_grpc *g = st->g;
  pthread_mutex_lock(&g->mu);
  st->done_next = g->done;
  g->done = st;
  pthread_mutex_unlock(&g->mu);
  uint64_t one = 1;
  ssize_t ignored = write(g->wake_fd, &one, sizeof one);
  (void)ignored;
}

/* A worker runs a call's handler. */
static void run_job(srv_job *job) {
  grpc_stream *st = (grpc_stream *)job;
  run_handler(st, srv_grpc_method_find(st->path));
  finish_job(st);
}

/* A call still queued at the stop: UNAVAILABLE. */
static void cancel_job(srv_job *job) {
  grpc_stream *st = (grpc_stream *)job;
  st->reply.code = SRV_UNAVAILABLE;
  hr_strbuf_puts(&st->reply.message, "the server is shutting down");
  finish_job(st);
}

/* Counts a call on the workers in (or out of) the server's requests in flight. */
static void count_in_flight(srv_server *s, int delta) {
  pthread_mutex_lock(&s->mu);
  s->in_flight += delta;
  if (delta < 0) pthread_cond_broadcast(&s->idle_cv);
  pthread_mutex_unlock(&s->mu);
}

/* Makes an answered first message the start of a watching call (grpc.h): kept to compare the next
 * ones with, the handler run again after POLL_MS. */
static void start_watch(grpc_stream *st) {
  st->watching = true;
  st->watch_at = srv_now() + POLL_MS * 1e-3;
  hr_strbuf_init(&st->last, NULL);
  hr_strbuf_append(&st->last, st->reply.body.data + SRV_GRPC_PREFIX, st->reply.body.len - SRV_GRPC_PREFIX);
}

/* Runs a watching call's handler again when due, and queues its answer when it differs from the
 * last one sent; an error ends the call with that status. */
static void watch_again(grpc_stream *st, double now) {
  if (!st->watching || st->closed || now < st->watch_at) return;
  st->watch_at = now + POLL_MS * 1e-3;
  srv_grpc_reply r = {.code = SRV_OK};
  hr_strbuf_init(&r.message, NULL);
  hr_strbuf_init(&r.body, NULL);
  hr_strbuf_append(&r.body, "\0\0\0\0\0", SRV_GRPC_PREFIX);
  srv_grpc_request rq = {.msg = (const uint8_t *)st->body.data + SRV_GRPC_PREFIX,
                         .len = st->body.len - SRV_GRPC_PREFIX,
                         .authorization = st->authorization,
                         .call = &st->call};
  srv_grpc_method_find(st->path)->handler(st->g->s, &rq, &r);
  size_t len = r.body.len - SRV_GRPC_PREFIX;
  bool changed = r.code || r.body.failed || len != st->last.len ||
                 (len && memcmp(r.body.data + SRV_GRPC_PREFIX, st->last.data, len) != 0);
  if (changed && !r.code && !r.body.failed) {
    frame(&r.body, 0);
    hr_strbuf_append(&st->reply.body, r.body.data, r.body.len);
    st->last.len = 0;
    hr_strbuf_append(&st->last, r.body.data + SRV_GRPC_PREFIX, len);
  } else if (changed) {
    st->watching = false;
    st->reply.code = r.code ? r.code : SRV_RESOURCE_EXHAUSTED;
    hr_strbuf_puts(&st->reply.message, r.message.data ? r.message.data : "out of memory");
  }
  if (changed) nghttp2_session_resume_data(st->conn->session, st->id);
  hr_strbuf_free(&r.message);
  hr_strbuf_free(&r.body);
}

/* Ends a watching call with `code` and `message` (the server is stopping). */
static void end_watch(grpc_stream *st, srv_code code, const char *message) {
  if (!st->watching || st->closed) return;
  st->watching = false;
  st->reply.code = code;
  hr_strbuf_puts(&st->reply.message, message);
  nghttp2_session_resume_data(st->conn->session, st->id);
}

/* ---------------------------------------------------------------------------------------------- */
/* Producing calls                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

static void wake(struct srv_grpc *g);

/* A new feed for a producing call's stream, held by the transport. */
static hr_status feed_new(grpc_stream *st, srv_grpc_feed **out) {
  srv_grpc_feed *f = calloc(1, sizeof *f);
  if (!f) return hr_error(HR_OUT_OF_MEMORY, "out of memory for the call's feed");
  if (pthread_mutex_init(&f->mu, NULL) != 0) {
    free(f);
    return hr_error(HR_INTERNAL, "cannot create the call's feed's mutex");
  }
  f->g = st->g;
  f->st = st;
  f->refs = 1;
  hr_strbuf_init(&f->message, NULL);
  hr_strbuf_init(&f->out, NULL);
  pthread_mutex_lock(&f->g->mu);
  f->g->feeds++;
  pthread_mutex_unlock(&f->g->mu);
  *out = f;
  return NULL;
}

/* Drops one reference; the last frees the feed and lets srv_grpc_stop know. */
static void feed_unref(srv_grpc_feed *f) {
  pthread_mutex_lock(&f->mu);
  bool last = --f->refs == 0;
  pthread_mutex_unlock(&f->mu);
  if (!last) return;
  struct srv_grpc *g = f->g;
  hr_strbuf_free(&f->message);
  hr_strbuf_free(&f->out);
  pthread_mutex_destroy(&f->mu);
  free(f);
  pthread_mutex_lock(&g->mu);
  g->feeds--;
  pthread_cond_broadcast(&g->feeds_cv);
  pthread_mutex_unlock(&g->mu);
}

/* Puts a feed on the ready list (call with f->mu, while the transport holds the feed) and wakes
 * the network thread; a feed on the list already has a wake pending (take_done reads the eventfd
 * before it takes the list). */
static void feed_ready(srv_grpc_feed *f) {
  struct srv_grpc *g = f->g;
  pthread_mutex_lock(&g->mu);
  bool queue = !f->queued;
  if (queue) {
    f->queued = true;
    f->ready_next = g->ready;
    g->ready = f;
  }
  pthread_mutex_unlock(&g->mu);
  if (queue) wake(g);
}

void srv_grpc_feed_attach(srv_grpc_feed *f, const srv_grpc_producer *p) {
  pthread_mutex_lock(&f->mu);
  f->refs++;
  pthread_mutex_unlock(&f->mu);
  f->producer = *p;
  f->attached = true;
}

void srv_grpc_feed_send(srv_grpc_feed *f, const void *msg, size_t len) {
  pthread_mutex_lock(&f->mu);
  if (!f->detached && !f->ended) {
    uint8_t prefix[SRV_GRPC_PREFIX] = {0, (uint8_t)(len >> 24), (uint8_t)(len >> 16), (uint8_t)(len >> 8),
                                       (uint8_t)len};
    hr_strbuf_append(&f->out, (const char *)prefix, sizeof prefix);
    hr_strbuf_append(&f->out, msg, len);
    feed_ready(f);
  }
  pthread_mutex_unlock(&f->mu);
}

void srv_grpc_feed_end(srv_grpc_feed *f, srv_code code, const char *message) {
  pthread_mutex_lock(&f->mu);
  if (!f->detached && !f->ended) {
    f->ended = true;
    f->code = code;
    if (code != SRV_OK) hr_strbuf_puts(&f->message, message);
    feed_ready(f);
  }
  pthread_mutex_unlock(&f->mu);
}

void srv_grpc_feed_release(srv_grpc_feed *f) { feed_unref(f); }

/* The transport lets a feed go (its stream is freed): no more messages are taken, it leaves the
 * ready list, its producer is detached and the transport's reference dropped. */
static void feed_detach(srv_grpc_feed *f) {
  struct srv_grpc *g = f->g;
  pthread_mutex_lock(&f->mu);
  f->detached = true;
  pthread_mutex_unlock(&f->mu);
  pthread_mutex_lock(&g->mu);
  for (srv_grpc_feed **p = &g->ready; f->queued && *p; p = &(*p)->ready_next)
    if (*p == f) {
      *p = f->ready_next;
      f->queued = false;
      break;
    }
  pthread_mutex_unlock(&g->mu);
  if (f->attached) f->producer.detach(f->producer.ctx);
  feed_unref(f);
}

/* Resumes the streams whose producers queued messages or ended. */
static void take_ready(struct srv_grpc *g) {
  pthread_mutex_lock(&g->mu);
  while (g->ready) {
    srv_grpc_feed *f = g->ready;
    g->ready = f->ready_next;
    f->queued = false;
    /* a stream whose data is not deferred (its response not yet submitted, or still sending)
     * reads the feed anyway: nghttp2 refuses this resume, harmlessly */
    nghttp2_session_resume_data(f->st->conn->session, f->st->id);
  }
  pthread_mutex_unlock(&g->mu);
}

/* nghttp2's data source for a producing call: the messages queued, deferred while there are
 * none, then the trailers once the call ended. */
static ssize_t read_feed(nghttp2_session *session, int32_t id, uint8_t *buf, size_t length, uint32_t *flags,
                         nghttp2_data_source *source, void *user_data) {
  (void)user_data;
  grpc_stream *st = source->ptr;
  srv_grpc_feed *f = st->feed;
  pthread_mutex_lock(&f->mu);
  if (f->out.failed) { /* out of memory queueing a message: the stream is reset */
    pthread_mutex_unlock(&f->mu);
    return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  }
  size_t left = f->out.len - f->sent;
  size_t n = left < length ? left : length;
  if (n) memcpy(buf, f->out.data + f->sent, n);
  f->sent += n;
  if (f->sent == f->out.len) f->out.len = f->sent = 0;
  bool end = f->ended && f->out.len == 0;
  if (end) {
    st->reply.code = f->code;
    hr_strbuf_append(&st->reply.message, f->message.data ? f->message.data : "", f->message.len);
  }
  pthread_mutex_unlock(&f->mu);
  if (!end) return n ? (ssize_t)n : NGHTTP2_ERR_DEFERRED;
  record(st);
  *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
  if (submit_trailers(session, id, &st->reply) != 0) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  return (ssize_t)n;
}

/* Asks a producing call's producer to end soon (the server is stopping). */
static void cancel_producer(grpc_stream *st) {
  if (st->feed && !st->closed) st->feed->producer.cancel(st->feed->producer.ctx);
}

/* Ends a producing call past its grpc-timeout: DEADLINE_EXCEEDED after the messages queued, its
 * producer cancelled. */
static void expire_feed(grpc_stream *st, double now) {
  srv_grpc_feed *f = st->feed;
  if (!f || st->closed || !(st->timeout > 0) || now - st->start <= st->timeout) return;
  pthread_mutex_lock(&f->mu);
  bool ended = f->ended;
  f->ended = true;
  if (!ended) {
    f->code = SRV_DEADLINE_EXCEEDED;
    hr_strbuf_puts(&f->message, "Deadline Exceeded");
  }
  pthread_mutex_unlock(&f->mu);
  if (ended) return;
  f->producer.cancel(f->producer.ctx);
  nghttp2_session_resume_data(st->conn->session, st->id);
}

/* Starts a producing call: its start runs here; when it succeeds the answer is the response
 * headers, then the producer's messages as they come, then its trailers; else a trailers-only
 * error. */
static void start_producing(grpc_stream *st, const srv_grpc_stream_method *m) {
  srv_grpc_feed *f = NULL;
  hr_status err = feed_new(st, &f);
  if (err) {
    respond_error(st, srv_code_of(hr_status_code(err)), "%s", hr_status_message(err));
    hr_status_free(err);
    return;
  }
  srv_grpc_request rq = {.msg = (const uint8_t *)st->body.data + SRV_GRPC_PREFIX,
                         .len = st->body.len - SRV_GRPC_PREFIX,
                         .authorization = st->authorization,
                         .call = &st->call};
  m->start(st->g->s, &rq, f, &st->reply);
  if (st->reply.code != SRV_OK) { /* no producer took the feed */
    feed_unref(f);
    respond(st);
    return;
  }
  st->feed = f;
  st->answered = true;
  drop_body(st);
  nghttp2_nv nva[] = {header(":status", "200"), header("content-type", "application/grpc")};
  nghttp2_data_provider data = {.source.ptr = st, .read_callback = read_feed};
  nghttp2_submit_response(st->conn->session, st->id, nva, 2, &data);
}

/* Parses grpc-timeout ("100m": up to 8 digits and a unit H, M, S, m, u or n) into seconds. */
static double parse_timeout(const char *v) {
  size_t n = strspn(v, "0123456789");
  if (n == 0 || n > 8 || strlen(v) != n + 1) return 0;
  double x = (double)strtol(v, NULL, 10);
  switch (v[n]) {
    case 'H': return x * 3600;
    case 'M': return x * 60;
    case 'S': return x;
    case 'm': return x * 1e-3;
    case 'u': return x * 1e-6;
    case 'n': return x * 1e-9;
    default: return 0;
  }
}

/* Checks the request message's framing: one uncompressed message, whole. */
static bool check_framing(grpc_stream *st) {
  const uint8_t *p = (const uint8_t *)st->body.data;
  if (st->body.len < SRV_GRPC_PREFIX) {
    respond_error(st, SRV_INVALID_ARGUMENT, "the call carries no request message");
    return false;
  }
  uint32_t len = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4];
  if (len != st->body.len - SRV_GRPC_PREFIX) {
    respond_error(st, SRV_INVALID_ARGUMENT,
                  "the request message announces %u bytes but %zu follow (a unary call carries exactly one message)",
                  len, st->body.len - SRV_GRPC_PREFIX);
    return false;
  }
  return true;
}

/* The request is complete: routes it, runs it here or queues it on the workers. */
static void dispatch(grpc_stream *st) {
  struct srv_grpc *g = st->g;
  srv_server *s = g->s;
  if (st->answered) return;
  if (!st->post || !st->grpc_type) {
    respond_http(st, st->post ? "415" : "405");
    return;
  }
  if (st->body.failed) {
    respond_error(st, SRV_RESOURCE_EXHAUSTED, "out of memory reading the request");
    return;
  }
  if (g->quiesced) { /* a call completed during the stop: answered, never started (quiesce_now) */
    respond_error(st, SRV_UNAVAILABLE, "the server is shutting down");
    return;
  }
  const srv_grpc_method *m = srv_grpc_method_find(st->path);
  const srv_grpc_stream_method *producing = m ? NULL : srv_grpc_stream_method_find(st->path);
  if (!m && !producing) {
    respond_error(st, SRV_UNIMPLEMENTED, "unknown method %s", st->path);
    return;
  }
  if (!check_framing(st)) return;
  if (producing) { /* no deadline but its grpc-timeout (expire_feed) */
    start_producing(st, producing);
    return;
  }
  double limit = s->opts.request_timeout_seconds;
  st->call.deadline = st->start + (st->timeout > 0 && st->timeout < limit ? st->timeout : limit);
  st->call.abandoned = call_abandoned;
  st->call.ctx = st;
  hr_strbuf_init(&st->reply.body, NULL);
  hr_strbuf_append(&st->reply.body, "\0\0\0\0\0", SRV_GRPC_PREFIX);
  if (!m->on_workers) {
    run_handler(st, m);
    if (m->watch && !st->reply.code) start_watch(st);
    respond(st);
    return;
  }
  if (st->conn->running >= HR_LIMIT_GRPC_STREAMS) {
    respond_error(st, SRV_RESOURCE_EXHAUSTED, "the connection has %d calls running (the most it may have)",
                  HR_LIMIT_GRPC_STREAMS);
    return;
  }
  st->job.run = run_job;
  st->job.cancel = cancel_job;
  st->running = true;
  st->conn->running++;
  count_in_flight(s, 1);
  hr_status refused = srv_workers_submit(s->workers, &st->job);
  if (refused) {
    st->running = false;
    st->conn->running--;
    count_in_flight(s, -1);
    respond_error(st, SRV_UNAVAILABLE, "%s", hr_status_message(refused));
    hr_status_free(refused);
  }
}

/* A call the workers finished: answered when its stream is still open, freed when closed. */
static void job_done(grpc_stream *st) {
  st->running = false;
  count_in_flight(st->g->s, -1);
  if (st->conn) st->conn->running--;
  if (st->closed) {
    unlink_stream(st);
    stream_free(st);
  } else {
    respond(st);
  }
}

/* Takes request bytes: bounded by the message limit (RESOURCE_EXHAUSTED as soon as the prefix
 * announces more) and the server's buffer budget (UNAVAILABLE), compressed messages refused. */
static void take_data(grpc_stream *st, const uint8_t *data, size_t len) {
  srv_server *s = st->g->s;
  if (st->answered) return;
  size_t max = s->opts.grpc_max_message_bytes + SRV_GRPC_PREFIX;
  if (len > max - st->body.len) {
    respond_error(st, SRV_RESOURCE_EXHAUSTED, "Received message larger than max (%zu vs. %zu)",
                  st->body.len + len - SRV_GRPC_PREFIX, s->opts.grpc_max_message_bytes);
    return;
  }
  size_t held = atomic_fetch_add(&s->buffered_bytes, len);
  if (held > s->opts.max_buffered_bytes || len > s->opts.max_buffered_bytes - held) {
    atomic_fetch_sub(&s->buffered_bytes, len);
    respond_error(st, SRV_UNAVAILABLE,
                  "the request messages held at once would exceed %zu bytes (--max_buffered_request_bytes); "
                  "retry later", s->opts.max_buffered_bytes);
    return;
  }
  st->accounted += len;
  hr_strbuf_append(&st->body, (const char *)data, len);
  const uint8_t *p = (const uint8_t *)st->body.data;
  if (st->body.len < SRV_GRPC_PREFIX || st->body.failed) return;
  if (p[0] != 0) {
    respond_error(st, SRV_UNIMPLEMENTED, "compressed messages are not supported (send grpc-encoding identity)");
    return;
  }
  uint32_t announced = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4];
  if (announced > s->opts.grpc_max_message_bytes)
    respond_error(st, SRV_RESOURCE_EXHAUSTED, "Received message larger than max (%u vs. %zu)", announced,
                  s->opts.grpc_max_message_bytes);
}

/* ---------------------------------------------------------------------------------------------- */
/* nghttp2 callbacks                                                                               */
/* ---------------------------------------------------------------------------------------------- */

static ssize_t on_send(nghttp2_session *session, const uint8_t *data, size_t length, int flags, void *user_data) {
  (void)session, (void)flags;
  grpc_conn *c = user_data;
  if (c->tls) {
    ssize_t n = srv_tls_send(c->tls, data, length);
    return n == SRV_TLS_AGAIN ? NGHTTP2_ERR_WOULDBLOCK : n < 0 ? NGHTTP2_ERR_CALLBACK_FAILURE : n;
  }
  ssize_t n = send(c->fd, data, length, MSG_NOSIGNAL);
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? NGHTTP2_ERR_WOULDBLOCK
                                                                              : NGHTTP2_ERR_CALLBACK_FAILURE;
  return n;
}

static ssize_t on_recv(nghttp2_session *session, uint8_t *buf, size_t length, int flags, void *user_data) {
  (void)session, (void)flags;
  grpc_conn *c = user_data;
  ssize_t n = c->tls ? srv_tls_recv(c->tls, buf, length) : recv(c->fd, buf, length, 0);
  if (c->tls && n < 0) return n == SRV_TLS_AGAIN ? NGHTTP2_ERR_WOULDBLOCK : NGHTTP2_ERR_CALLBACK_FAILURE;
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? NGHTTP2_ERR_WOULDBLOCK
                                                                              : NGHTTP2_ERR_CALLBACK_FAILURE;
  if (n == 0) return NGHTTP2_ERR_EOF;
  c->last_read = srv_now();
  return n;
}

/* A new request stream: its state. */
static int on_begin_headers(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
  grpc_conn *c = user_data;
  if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
  grpc_stream *st = calloc(1, sizeof *st);
  if (!st) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  st->g = c->g;
  st->conn = c;
  st->id = frame->hd.stream_id;
  st->start = srv_now();
  atomic_init(&st->gone, false);
  hr_strbuf_init(&st->body, NULL);
  hr_strbuf_init(&st->reply.message, NULL);
  hr_strbuf_init(&st->reply.body, NULL);
  st->next = c->streams;
  if (c->streams) c->streams->prev = st;
  c->streams = st;
  nghttp2_session_set_stream_user_data(session, st->id, st);
  return 0;
}

/* Whether a header name is `want` (names arrive lower-case in HTTP/2). */
static bool is(const uint8_t *name, size_t len, const char *want) {
  return len == strlen(want) && memcmp(name, want, len) == 0;
}

/* Keeps the headers a call needs; a header list over the bound resets the stream. */
static int on_header(nghttp2_session *session, const nghttp2_frame *frame, const uint8_t *name, size_t namelen,
                     const uint8_t *value, size_t valuelen, uint8_t flags, void *user_data) {
  (void)flags, (void)user_data;
  grpc_stream *st = nghttp2_session_get_stream_user_data(session, frame->hd.stream_id);
  if (!st || frame->hd.type != NGHTTP2_HEADERS) return 0;
  st->header_bytes += namelen + valuelen + 32;
  if (st->header_bytes > HR_LIMIT_GRPC_HEADER_BYTES) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  const char *v = (const char *)value;
  if (is(name, namelen, ":path")) {
    snprintf(st->path, sizeof st->path, "%.*s", (int)(valuelen < PATH_BYTES ? valuelen : PATH_BYTES - 1), v);
  } else if (is(name, namelen, ":method")) {
    st->post = valuelen == 4 && memcmp(v, "POST", 4) == 0;
  } else if (is(name, namelen, "content-type")) {
    st->grpc_type = valuelen >= 16 && strncasecmp(v, "application/grpc", 16) == 0 &&
                    (valuelen == 16 || v[16] == '+' || v[16] == ';');
  } else if (is(name, namelen, "grpc-timeout")) {
    char t[16];
    snprintf(t, sizeof t, "%.*s", (int)(valuelen < sizeof t ? valuelen : sizeof t - 1), v);
    st->timeout = parse_timeout(t);
  } else if (is(name, namelen, "authorization") && valuelen < AUTH_BYTES && !st->authorization) {
    st->authorization = strndup(v, valuelen);
  }
  return 0;
}

static int on_data_chunk(nghttp2_session *session, uint8_t flags, int32_t stream_id, const uint8_t *data, size_t len,
                         void *user_data) {
  (void)flags, (void)user_data;
  grpc_stream *st = nghttp2_session_get_stream_user_data(session, stream_id);
  if (st) take_data(st, data, len);
  return 0;
}

/* Sends a connection's last GOAWAY (once): the streams it has seen are answered, later ones
 * refused, and the connection closes when its streams are done (conn_flush). */
static void last_goaway(grpc_conn *c) {
  if (c->goaway) return;
  c->goaway = true;
  nghttp2_submit_goaway(c->session, NGHTTP2_FLAG_NONE, nghttp2_session_get_last_proc_stream_id(c->session),
                        NGHTTP2_NO_ERROR, NULL, 0);
}

/* A request's last frame (END_STREAM on its headers or data): the call is dispatched. The ACK of
 * the stop's PING: the last GOAWAY (quiesce_now). */
static int on_frame_recv(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
  grpc_conn *c = user_data;
  if (frame->hd.type == NGHTTP2_PING && (frame->hd.flags & NGHTTP2_FLAG_ACK) && c->g->quiesced &&
      memcmp(frame->ping.opaque_data, kDrainPing, sizeof kDrainPing) == 0) {
    last_goaway(c);
    return 0;
  }
  if ((frame->hd.type != NGHTTP2_DATA && frame->hd.type != NGHTTP2_HEADERS) ||
      !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
    return 0;
  grpc_stream *st = nghttp2_session_get_stream_user_data(session, frame->hd.stream_id);
  if (st) dispatch(st);
  return 0;
}

/* A stream ends (answered, reset by the client, or its connection closing): freed, or left to
 * its worker, whose run is then abandoned. */
static int on_stream_close(nghttp2_session *session, int32_t stream_id, uint32_t error_code, void *user_data) {
  (void)error_code, (void)user_data;
  grpc_stream *st = nghttp2_session_get_stream_user_data(session, stream_id);
  if (!st) return 0;
  nghttp2_session_set_stream_user_data(session, stream_id, NULL);
  st->closed = true;
  atomic_store(&st->gone, true);
  if (!st->running) { /* else job_done frees it */
    unlink_stream(st);
    stream_free(st);
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Connections                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Detaches a connection's remaining streams (those on the workers are abandoned and freed when
 * they finish), frees its session and closes it. */
static void conn_close(struct srv_grpc *g, grpc_conn *c) {
  for (grpc_conn **p = &g->conns; *p; p = &(*p)->next)
    if (*p == c) {
      *p = c->next;
      break;
    }
  g->n_conns--;
  while (c->streams) {
    grpc_stream *st = c->streams;
    c->streams = st->next;
    st->conn = NULL;
    st->closed = true;
    atomic_store(&st->gone, true);
    if (!st->running) stream_free(st);
  }
  nghttp2_session_del(c->session);
  srv_tls_conn_free(c->tls);
  close(c->fd);
  free(c);
}

/* Creates a connection's server session: our SETTINGS (streams, header list, window) first. */
static hr_status conn_session(grpc_conn *c) {
  nghttp2_session_callbacks *cb;
  if (nghttp2_session_callbacks_new(&cb) != 0) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  nghttp2_session_callbacks_set_send_callback(cb, on_send);
  nghttp2_session_callbacks_set_recv_callback(cb, on_recv);
  nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame_recv);
  nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
  int rc = nghttp2_session_server_new(&c->session, cb, c);
  nghttp2_session_callbacks_del(cb);
  if (rc != 0) return hr_error(HR_OUT_OF_MEMORY, "cannot create an HTTP/2 session: %s", nghttp2_strerror(rc));
  nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, HR_LIMIT_GRPC_STREAMS},
      {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, HR_LIMIT_GRPC_HEADER_BYTES},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, HR_LIMIT_GRPC_WINDOW_BYTES},
  };
  rc = nghttp2_submit_settings(c->session, NGHTTP2_FLAG_NONE, settings, sizeof settings / sizeof settings[0]);
  if (!rc) rc = nghttp2_session_set_local_window_size(c->session, NGHTTP2_FLAG_NONE, 0, HR_LIMIT_GRPC_WINDOW_BYTES);
  if (rc != 0) return hr_error(HR_INTERNAL, "cannot send HTTP/2 settings: %s", nghttp2_strerror(rc));
  return NULL;
}

/* The client address of a socket, for the per-client bound. */
static void peer_of(int fd, char *out, size_t cap) {
  struct sockaddr_storage sa;
  socklen_t len = sizeof sa;
  out[0] = '\0';
  if (getpeername(fd, (struct sockaddr *)&sa, &len) == 0)
    getnameinfo((struct sockaddr *)&sa, len, out, (socklen_t)cap, NULL, 0, NI_NUMERICHOST);
}

/* Whether another connection from `peer` is within --max_connections_per_client. */
static bool peer_allowed(const struct srv_grpc *g, const char *peer) {
  int limit = g->s->opts.max_connections_per_client, n = 0;
  for (const grpc_conn *c = g->conns; limit && c; c = c->next) n += strcmp(c->peer, peer) == 0;
  return !limit || n < limit;
}

/* Accepts every waiting connection within the connection bounds (others are closed at once). */
static void accept_all(struct srv_grpc *g) {
  for (;;) {
    int fd = accept4(g->listener.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    /* out of descriptors, the waiting connection would wake poll at once, again and again */
    if (fd < 0 && (errno == EMFILE || errno == ENFILE)) g->accept_after = srv_now() + POLL_MS * 1e-3;
    if (fd < 0) return;
    grpc_conn *c = calloc(1, sizeof *c);
    if (c) peer_of(fd, c->peer, sizeof c->peer);
    if (!c || g->n_conns >= g->s->opts.max_connections || !peer_allowed(g, c->peer)) {
      free(c);
      close(fd);
      continue;
    }
    /* answers go out as soon as nghttp2 hands them over: headers, message and trailers are
     * separate writes, which Nagle's algorithm would hold behind the client's delayed ACK */
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    c->g = g;
    c->fd = fd;
    c->last_read = srv_now();
    hr_status st = conn_session(c);
    if (!st && g->tls) st = srv_tls_conn_create(g->tls, fd, &c->tls);
    if (st) {
      hr_status_free(st);
      if (c->session) nghttp2_session_del(c->session);
      free(c);
      close(fd);
      continue;
    }
    c->next = g->conns;
    g->conns = c;
    g->n_conns++;
  }
}

/* Sends what the session has; false when the connection should be closed. */
static bool conn_flush(grpc_conn *c) {
  if (nghttp2_session_send(c->session) != 0) return false;
  bool waiting = nghttp2_session_want_write(c->session);
  if (!waiting)
    c->write_since = 0;
  else if (!c->write_since)
    c->write_since = srv_now();
  return nghttp2_session_want_read(c->session) || waiting || c->running;
}

/* Resets streams whose request is late, ends producing calls past their deadline, and reports
 * whether the connection is past a timeout: idle too long, or not reading its answers. */
static bool conn_timed_out(struct srv_grpc *g, grpc_conn *c, double now) {
  double read = g->s->opts.read_seconds;
  for (grpc_stream *st = c->streams; st; st = st->next) expire_feed(st, now);
  for (grpc_stream *st = c->streams; st; st = st->next)
    if (!st->answered && !st->running && now - st->start > read) {
      st->answered = true;
      nghttp2_submit_rst_stream(c->session, NGHTTP2_FLAG_NONE, st->id, NGHTTP2_CANCEL);
    }
  if (c->write_since && now - c->write_since > read) return true;
  return !c->streams && !c->running && now - c->last_read > HR_LIMIT_IDLE_SECONDS;
}

/* ---------------------------------------------------------------------------------------------- */
/* The network thread                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* Answers the calls the workers finished and resumes the producing calls with messages. */
static void take_done(struct srv_grpc *g) {
  uint64_t n;
  ssize_t ignored = read(g->wake_fd, &n, sizeof n);
  (void)ignored;
  pthread_mutex_lock(&g->mu);
  grpc_stream *done = g->done;
  g->done = NULL;
  pthread_mutex_unlock(&g->mu);
  while (done) {
    grpc_stream *next = done->done_next;
    job_done(done);
    done = next;
  }
  take_ready(g);
}

/* Stops taking connections and starts every connection's graceful shutdown (calls in flight go on;
 * watching calls end, producers are asked to end theirs). A GOAWAY naming the last stream seen at
 * once would refuse the streams the client opened before it read it: a gRPC client retries those
 * transparently, and grpcio 1.51 can then leave the call hung when the retry finds no server. So,
 * as RFC 9113 6.8 advises, a first GOAWAY (nghttp2's shutdown notice: no stream refused) and a
 * PING go first; the PING's ACK comes after every stream the client opened before it saw the
 * notice, and the last GOAWAY follows it (on_frame_recv); a client that does not answer is closed
 * at the stop's flush deadline (loop_main). The calls completed meanwhile are answered UNAVAILABLE
 * (dispatch). */
static void quiesce_now(struct srv_grpc *g) {
  g->quiesced = true;
  close(g->listener.fd);
  g->listener.fd = -1;
  for (grpc_conn *c = g->conns; c; c = c->next)
    for (grpc_stream *st = c->streams; st; st = st->next) {
      end_watch(st, SRV_UNAVAILABLE, "the server is shutting down");
      cancel_producer(st);
    }
  for (grpc_conn *c = g->conns; c; c = c->next)
    if (nghttp2_submit_shutdown_notice(c->session) != 0 ||
        nghttp2_submit_ping(c->session, NGHTTP2_FLAG_NONE, kDrainPing) != 0)
      last_goaway(c); /* out of memory: the plain GOAWAY */
}

/* One round of I/O on a connection that poll reported (revents) or that has answers to send. */
static void serve_conn(struct srv_grpc *g, grpc_conn *c, short revents, double now) {
  bool ok = !(revents & (POLLERR | POLLNVAL));
  if (ok && c->tls && !c->handshaken) { /* TLS first: HTTP/2 starts once the handshake is done */
    int h = revents ? srv_tls_handshake(c->tls) : 0;
    if (h > 0) c->last_read = now;
    c->handshaken = h > 0;
    ok = h >= 0 && !conn_timed_out(g, c, now);
    if (!ok || !c->handshaken) {
      if (!ok) conn_close(g, c);
      return;
    }
  }
  if (ok && (revents & (POLLIN | POLLHUP))) ok = nghttp2_session_recv(c->session) == 0;
  for (grpc_stream *st = c->streams; ok && st; st = st->next) watch_again(st, now);
  if (ok) ok = !conn_timed_out(g, c, now);
  if (ok) ok = conn_flush(c);
  if (!ok) conn_close(g, c);
}

/* Builds the poll set: the eventfd, the listener (while open), every connection. */
static struct pollfd *poll_set(struct srv_grpc *g, grpc_conn ***order, int *n) {
  struct pollfd *fds = calloc((size_t)g->n_conns + 2, sizeof *fds);
  *order = calloc((size_t)g->n_conns + 1, sizeof **order);
  if (!fds || !*order) {
    free(fds);
    free(*order);
    return NULL;
  }
  fds[0] = (struct pollfd){.fd = g->wake_fd, .events = POLLIN};
  bool resting = srv_now() < g->accept_after;
  fds[1] = (struct pollfd){.fd = resting ? -1 : g->listener.fd, .events = POLLIN};
  int k = 0;
  for (grpc_conn *c = g->conns; c; c = c->next, k++) {
    (*order)[k] = c;
    short ev = POLLIN;
    if (c->tls && !c->handshaken ? srv_tls_wants_write(c->tls) : nghttp2_session_want_write(c->session)) ev |= POLLOUT;
    fds[2 + k] = (struct pollfd){.fd = c->fd, .events = ev};
  }
  *n = 2 + k;
  return fds;
}

/* The network thread: polls, reads, answers, until the stop. */
static void *loop_main(void *arg) {
  struct srv_grpc *g = arg;
  double stop_at = 0;
  for (;;) {
    pthread_mutex_lock(&g->mu);
    bool quiesce = g->quiesce, stop = g->stop;
    pthread_mutex_unlock(&g->mu);
    if (quiesce && !g->quiesced) quiesce_now(g);
    if (stop && !stop_at) stop_at = srv_now() + FLUSH_SECONDS;
    if (stop && (srv_now() > stop_at || !g->conns)) break;
    grpc_conn **order;
    int n;
    struct pollfd *fds = poll_set(g, &order, &n);
    if (!fds) {
      usleep(10000);
      continue;
    }
    poll(fds, (nfds_t)n, POLL_MS);
    if (fds[0].revents) take_done(g);
    if (fds[1].fd >= 0 && (fds[1].revents & POLLIN)) accept_all(g);
    double now = srv_now();
    /* every connection polled gets its round (answers queued by take_done are sent); new ones
     * wait for the next poll */
    for (int k = 0; k + 2 < n; k++) serve_conn(g, order[k], fds[2 + k].revents, now);
    free(fds);
    free(order);
  }
  while (g->conns) conn_close(g, g->conns);
  return NULL;
}

/* Wakes the network thread after a flag changed. */
static void wake(struct srv_grpc *g) {
  uint64_t one = 1;
  ssize_t ignored = write(g->wake_fd, &one, sizeof one);
  (void)ignored;
}

hr_status srv_grpc_start(srv_server *s) {
  struct srv_grpc *g = calloc(1, sizeof *g);
  if (!g) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  g->s = s;
  g->listener.fd = -1;
  g->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  hr_status st = g->wake_fd < 0 ? hr_error(HR_IO_ERROR, "eventfd: %s", strerror(errno)) : NULL;
  if (!st && pthread_mutex_init(&g->mu, NULL) != 0) st = hr_error(HR_INTERNAL, "cannot create a mutex");
  if (!st && pthread_cond_init(&g->feeds_cv, NULL) != 0)
    st = hr_error(HR_INTERNAL, "cannot create a condition variable");
  if (!st && s->opts.ssl) st = srv_tls_create(s->opts.ssl, &g->tls);
  if (!st) st = srv_listen(s->opts.host, s->opts.grpc_port, &g->listener);
  if (!st && pthread_create(&g->thread, NULL, loop_main, g) != 0)
    st = hr_error(HR_INTERNAL, "cannot start the gRPC thread");
  if (st) {
    if (g->listener.fd >= 0) close(g->listener.fd);
    if (g->wake_fd >= 0) close(g->wake_fd);
    srv_tls_free(g->tls);
    free(g);
    return st;
  }
  s->grpc = g;
  srv_log(s->opts.log, "serving gRPC%s on %s", g->tls ? " over TLS" : "", g->listener.address);
  return NULL;
}

void srv_grpc_quiesce(srv_server *s) {
  struct srv_grpc *g = s->grpc;
  pthread_mutex_lock(&g->mu);
  g->quiesce = true;
  pthread_mutex_unlock(&g->mu);
  wake(g);
}

/* Waits up to PRODUCER_SECONDS for the producers of the calls closed to let their feeds go (a
 * cancelled generation ends at the engine's next step); returns how many still hold one. */
static int wait_producers(struct srv_grpc *g) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += PRODUCER_SECONDS;
  pthread_mutex_lock(&g->mu);
  while (g->feeds > 0 && pthread_cond_timedwait(&g->feeds_cv, &g->mu, &until) == 0) {
  }
  int left = g->feeds;
  pthread_mutex_unlock(&g->mu);
  return left;
}

void srv_grpc_stop(srv_server *s) {
  struct srv_grpc *g = s->grpc;
  pthread_mutex_lock(&g->mu);
  g->quiesce = g->stop = true;
  pthread_mutex_unlock(&g->mu);
  wake(g);
  pthread_join(g->thread, NULL);
  /* the workers have stopped: every call they held came back through `done` */
  take_done(g);
  s->grpc = NULL;
  int left = wait_producers(g);
  if (left > 0) { /* the feeds they hold stay valid: the transport is left allocated */
    srv_log(s->opts.log, "gRPC: %d streaming calls did not end within %d seconds", left, PRODUCER_SECONDS);
    return;
  }
  if (g->listener.fd >= 0) close(g->listener.fd);
  close(g->wake_fd);
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->feeds_cv);
  srv_tls_free(g->tls);
  free(g);
}

int srv_grpc_port(const struct srv_grpc *g) { return g->listener.port; }

const char *srv_grpc_address(const struct srv_grpc *g) { return g->listener.address; }

/* loadgen: an HTTP/1.1 keep-alive load generator for `hlorun serve` over loopback.
 *
 * N connections (one thread each) send the same request (POST with a JSON body by default) back to
 * back for a duration and/or a number of requests, and report requests/s, latency percentiles and
 * errors by HTTP status and by transport failure. Everything is bounded: connections, body and
 * response sizes, duration, per-request timeout.
 *
 *   loadgen --port P [--host 127.0.0.1] [--path /v1/models/NAME:predict]
 *           (--body JSON | --body-file FILE) [--method POST|GET] [--connections N]
 *           [--duration SECONDS] [--requests N] [--rate PER_SECOND] [--timeout-ms MS]
 *           [--expect TEXT] [--quiet]
 *
 * Without --rate every connection sends its next request as soon as the previous answer is in
 * (closed loop); --rate R paces the connections to R requests/s in all (each sends at most one
 * request every connections/R seconds, never catching up in bursts after falling behind).
 *
 * The last line of the output is machine-readable:
 *   result connections=N seconds=S requests=N ok=N rps=R p50_ms=.. p90_ms=.. p99_ms=.. max_ms=..
 *          mean_ms=.. errors=N [status_NNN=N]... [connect=N] [timeout=N] [closed=N] ...
 * An error is any response that is not 2xx, any 2xx response lacking --expect's text, and any
 * transport failure. SIGINT or SIGTERM ends the run early: no new request is started, those in
 * flight complete, and the report is printed as usual.
 * Exit status: 0 after a run (whatever the errors), 2 on bad usage or setup.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
  MAX_CONNECTIONS = 256,
  MAX_HEADER_BYTES = 64 * 1024,
  MAX_PATH_BYTES = 4096,
  MAX_EXPECT_BYTES = 4096,
  READ_CHUNK = 64 * 1024,
  HIST_LINEAR = 1024,         /* latencies below this many microseconds are exact */
  HIST_SUB = 512,             /* sub-buckets per power of two above that (0.2% resolution) */
  HIST_MAX_EXP = 22,          /* powers of two above HIST_LINEAR: up to ~4.3e9 us */
  HIST_BUCKETS = HIST_LINEAR + HIST_MAX_EXP * HIST_SUB,
};
static const size_t MAX_BODY_BYTES = (size_t)64 << 20;
static const size_t MAX_RESPONSE_BYTES = (size_t)256 << 20;
static const double MAX_DURATION_S = 3600.0;
static const long long MAX_REQUESTS = 1000000000LL;
static const int MAX_TIMEOUT_MS = 600000;

/* Transport failures, counted apart from HTTP statuses. */
enum failure {
  FAIL_CONNECT,   /* connect() failed or timed out */
  FAIL_SEND,      /* writing the request failed */
  FAIL_TIMEOUT,   /* no complete response within --timeout-ms */
  FAIL_CLOSED,    /* the server closed the connection before a complete response */
  FAIL_PROTOCOL,  /* a response that is not valid HTTP/1.x */
  FAIL_TOO_LARGE, /* a response header or body over the limits */
  FAIL_UNEXPECTED,/* a 2xx response whose body lacks the --expect text */
  FAIL_COUNT
};
static const char *const failure_names[FAIL_COUNT] = {
    "connect", "send", "timeout", "closed", "protocol", "too_large", "unexpected_body"};

/* Command-line settings. */
typedef struct {
  char host[64];
  int port;
  char path[MAX_PATH_BYTES];
  char method[8];
  char *body; /* owned */
  size_t body_len;
  int connections;
  double duration_s;
  long long requests; /* 0 = no limit besides the duration */
  double rate;        /* requests/s over all connections; 0 = as fast as answers come */
  int timeout_ms;
  char expect[MAX_EXPECT_BYTES];
  bool quiet;
} options;

/* A latency histogram in microseconds, log-linear, fixed size. */
typedef struct {
  uint64_t counts[HIST_BUCKETS];
  uint64_t total;
  uint64_t max_us;
  double sum_us;
} histogram;

/* What one connection's thread measured. */
typedef struct {
  histogram hist;
  uint64_t completed;          /* responses received (any status) */
  uint64_t ok;                 /* 2xx responses that passed --expect */
  uint64_t status_counts[600]; /* by HTTP status code */
  uint64_t failures[FAIL_COUNT];
} thread_stats;

/* State shared by all threads; read-only after start except for the atomics. */
typedef struct {
  const options *opt;
  struct sockaddr_in addr;
  char *request_head; /* request line and headers; the body follows */
  size_t head_len;
  double start;    /* monotonic seconds at the start barrier */
  double deadline; /* no request is started after this */
  atomic_llong issued;
  atomic_bool stop; /* set by SIGINT/SIGTERM: start no new request */
  atomic_bool done; /* set when the run is over: the signal thread returns */
  pthread_barrier_t barrier;
} shared_state;

/* One connection: its socket and a receive buffer. */
typedef struct {
  shared_state *shared;
  int index; /* 0 .. connections - 1 */
  thread_stats *stats;
  int fd;
  char *buf;
  size_t cap, len;
} connection;

/* Monotonic time in seconds. */
static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Bucket index of a latency in microseconds. */
static size_t hist_bucket(uint64_t us) {
  if (us < HIST_LINEAR) return (size_t)us;
  int exp = 63 - __builtin_clzll(us) - 9; /* us >> exp lies in [HIST_SUB, 2 * HIST_SUB) */
  if (exp > HIST_MAX_EXP) return HIST_BUCKETS - 1;
  size_t sub = (size_t)(us >> exp) - HIST_SUB;
  return HIST_LINEAR + (size_t)(exp - 1) * HIST_SUB + sub;
}

/* The smallest latency (microseconds) that falls into a bucket. */
static uint64_t hist_bucket_low(size_t b) {
  if (b < HIST_LINEAR) return b;
  size_t exp = (b - HIST_LINEAR) / HIST_SUB + 1, sub = (b - HIST_LINEAR) % HIST_SUB;
  return (uint64_t)(HIST_SUB + sub) << exp;
}

/* Records one latency. */
static void hist_add(histogram *h, uint64_t us) {
  h->counts[hist_bucket(us)]++;
  h->total++;
  h->sum_us += (double)us;
  if (us > h->max_us) h->max_us = us;
}

/* Adds src's counts to dst. */
static void hist_merge(histogram *dst, const histogram *src) {
  for (size_t i = 0; i < HIST_BUCKETS; i++) dst->counts[i] += src->counts[i];
  dst->total += src->total;
  dst->sum_us += src->sum_us;
  if (src->max_us > dst->max_us) dst->max_us = src->max_us;
}

/* The latency (milliseconds) at quantile q in [0, 1]: the low edge of the bucket that holds the
 * ceil(q * total)-th value, and never above the exact maximum. */
static double hist_quantile_ms(const histogram *h, double q) {
  if (h->total == 0) return 0.0;
  uint64_t rank = (uint64_t)(q * (double)h->total + 0.999999);
  if (rank < 1) rank = 1;
  uint64_t seen = 0;
  for (size_t i = 0; i < HIST_BUCKETS; i++) {
    seen += h->counts[i];
    if (seen >= rank) {
      uint64_t low = hist_bucket_low(i);
      return (double)(low < h->max_us ? low : h->max_us) / 1000.0;
    }
  }
  return (double)h->max_us / 1000.0;
}

/* Closes the connection's socket, if open. */
static void conn_close(connection *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
  c->len = 0;
}

/* Milliseconds left until `deadline` (monotonic seconds), at least 0. */
static int ms_left(double deadline) {
  double left = (deadline - now_s()) * 1000.0;
  if (left <= 0) return 0;
  return left > (double)INT_MAX ? INT_MAX : (int)left;
}

/* Waits until fd is ready for `events` or the deadline passes; true when ready. */
static bool wait_fd(int fd, short events, double deadline) {
  for (;;) {
    struct pollfd p = {.fd = fd, .events = events};
    int r = poll(&p, 1, ms_left(deadline));
    if (r > 0) return true;
    if (r == 0) return false;
    if (errno != EINTR) return false;
  }
}

/* Opens a non-blocking TCP connection with TCP_NODELAY; false on failure or timeout. */
static bool conn_open(connection *c, double deadline) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  const struct sockaddr_in *a = &c->shared->addr;
  if (connect(fd, (const struct sockaddr *)a, sizeof *a) != 0) {
    if (errno != EINPROGRESS || !wait_fd(fd, POLLOUT, deadline)) {
      close(fd);
      return false;
    }
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      close(fd);
      return false;
    }
  }
  c->fd = fd;
  c->len = 0;
  return true;
}

/* Writes all of data; false on error or timeout. */
static bool send_all(int fd, const char *data, size_t len, double deadline) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = send(fd, data + done, len - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += (size_t)n;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!wait_fd(fd, POLLOUT, deadline)) return false;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return false;
    }
  }
  return true;
}

/* Finds "\r\n\r\n" in the first len bytes; returns the header length including it, or 0. */
static size_t header_end(const char *buf, size_t len) {
  for (size_t i = 3; i < len; i++)
    if (buf[i - 3] == '\r' && buf[i - 2] == '\n' && buf[i - 1] == '\r' && buf[i] == '\n') return i + 1;
  return 0;
}

/* The parts of a response header the client needs. */
typedef struct {
  int status;
  bool chunked;
  bool close_after;  /* "Connection: close", or HTTP/1.0 without keep-alive */
  bool has_length;
  size_t content_length;
} response_head;

/* True when the header line [line, end) names header `name` (case-insensitive); *value is set to
 * its value with leading blanks skipped. */
static bool header_is(const char *line, const char *end, const char *name, const char **value) {
  size_t n = strlen(name);
  if ((size_t)(end - line) <= n || strncasecmp(line, name, n) != 0 || line[n] != ':') return false;
  const char *v = line + n + 1;
  while (v < end && (*v == ' ' || *v == '\t')) v++;
  *value = v;
  return true;
}

/* True when [v, end) contains `token` case-insensitively. */
static bool value_has(const char *v, const char *end, const char *token) {
  size_t n = strlen(token);
  for (const char *p = v; p + n <= end; p++)
    if (strncasecmp(p, token, n) == 0) return true;
  return false;
}

/* Parses the status line and headers of [buf, buf + hlen); false when malformed. */
static bool parse_head(const char *buf, size_t hlen, response_head *h) {
  memset(h, 0, sizeof *h);
  if (hlen < 12 || memcmp(buf, "HTTP/1.", 7) != 0 || buf[8] != ' ') return false;
  bool http10 = buf[7] == '0';
  if (buf[9] < '1' || buf[9] > '5' || buf[10] < '0' || buf[10] > '9' || buf[11] < '0' || buf[11] > '9')
    return false;
  h->status = (buf[9] - '0') * 100 + (buf[10] - '0') * 10 + (buf[11] - '0');
  bool keep_alive = false;
  const char *p = memchr(buf, '\n', hlen);
  const char *limit = buf + hlen;
  while (p && p + 1 < limit) {
    const char *line = p + 1;
    const char *nl = memchr(line, '\n', (size_t)(limit - line));
    if (!nl) break;
    const char *end = nl > line && nl[-1] == '\r' ? nl - 1 : nl;
    const char *v;
    if (header_is(line, end, "content-length", &v)) {
      size_t n = 0;
      const char *q = v;
      for (; q < end && *q >= '0' && *q <= '9'; q++) {
        if (n > MAX_RESPONSE_BYTES) return false;
        n = n * 10 + (size_t)(*q - '0');
      }
      if (q == v) return false;
      h->has_length = true;
      h->content_length = n;
    } else if (header_is(line, end, "transfer-encoding", &v)) {
      if (value_has(v, end, "chunked")) h->chunked = true;
    } else if (header_is(line, end, "connection", &v)) {
      if (value_has(v, end, "close")) h->close_after = true;
      if (value_has(v, end, "keep-alive")) keep_alive = true;
    }
    p = nl;
  }
  if (http10 && !keep_alive) h->close_after = true;
  return true;
}

/* Checks whether a chunked body in [p, end) is complete: returns 1 when complete (setting *body_len
 * to the bytes the encoded body occupies), 0 when more bytes are needed, -1 when malformed. */
static int chunked_complete(const char *p, const char *end, size_t *body_len) {
  const char *start = p;
  for (;;) {
    size_t size = 0;
    const char *q = p;
    int digits = 0;
    for (; q < end; q++, digits++) {
      int d = *q >= '0' && *q <= '9' ? *q - '0' : *q >= 'a' && *q <= 'f' ? *q - 'a' + 10
            : *q >= 'A' && *q <= 'F' ? *q - 'A' + 10 : -1;
      if (d < 0) break;
      if (digits >= 12) return -1;
      size = size * 16 + (size_t)d;
    }
    if (q == end) return 0;
    if (digits == 0) return -1;
    const char *nl = memchr(q, '\n', (size_t)(end - q)); /* skips chunk extensions */
    if (!nl) return (size_t)(end - q) > 1024 ? -1 : 0;
    p = nl + 1;
    if (size == 0) {
      /* trailers end with an empty line */
      for (;;) {
        const char *tnl = memchr(p, '\n', (size_t)(end - p));
        if (!tnl) return 0;
        bool empty = tnl == p || (tnl == p + 1 && *p == '\r');
        p = tnl + 1;
        if (empty) {
          *body_len = (size_t)(p - start);
          return 1;
        }
      }
    }
    if ((size_t)(end - p) < size + 2) return 0;
    p += size;
    if (p[0] == '\r' && p[1] == '\n') p += 2;
    else if (p[0] == '\n') p += 1;
    else return -1;
  }
}

/* Reads more bytes into the connection's buffer; returns bytes read, 0 on EOF, -1 on error or
 * timeout (*timed_out says which), -2 when the buffer would exceed the response limit. */
static ssize_t conn_read(connection *c, double deadline, bool *timed_out) {
  if (c->cap - c->len < READ_CHUNK) {
    if (c->cap >= MAX_RESPONSE_BYTES + MAX_HEADER_BYTES) return -2;
    size_t ncap = c->cap * 2;
    if (ncap < c->len + READ_CHUNK) ncap = c->len + READ_CHUNK;
    char *nb = realloc(c->buf, ncap);
    if (!nb) return -2;
    c->buf = nb;
    c->cap = ncap;
  }
  for (;;) {
    ssize_t n = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
    if (n > 0) {
      c->len += (size_t)n;
      return n;
    }
    if (n == 0) return 0;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!wait_fd(c->fd, POLLIN, deadline)) {
        *timed_out = true;
        return -1;
      }
      continue;
    }
    return -1;
  }
}

/* Sends one request and reads its response; on success records the status and latency and
 * returns true; on a transport failure counts it, closes the connection and returns false. */
static bool one_request(connection *c) {
  const shared_state *s = c->shared;
  const options *o = s->opt;
  double t0 = now_s();
  double deadline = t0 + o->timeout_ms / 1000.0;
  if (c->fd < 0 && !conn_open(c, deadline)) {
    c->stats->failures[FAIL_CONNECT]++;
    return false;
  }
  if (!send_all(c->fd, s->request_head, s->head_len, deadline) ||
      !send_all(c->fd, o->body, o->body_len, deadline)) {
    c->stats->failures[now_s() >= deadline ? FAIL_TIMEOUT : FAIL_SEND]++;
    conn_close(c);
    return false;
  }
  c->len = 0;
  size_t hlen = 0;
  response_head h;
  enum failure fail = FAIL_COUNT;
  bool eof = false;
  for (;;) {
    /* Is a complete response in the buffer? */
    if (hlen == 0) {
      hlen = header_end(c->buf, c->len);
      if (hlen == 0 && c->len > MAX_HEADER_BYTES) { fail = FAIL_TOO_LARGE; break; }
      if (hlen > 0 && !parse_head(c->buf, hlen, &h)) { fail = FAIL_PROTOCOL; break; }
      if (hlen > 0 && h.status >= 100 && h.status < 200) {
        /* interim response (100 Continue): drop it and keep reading */
        memmove(c->buf, c->buf + hlen, c->len - hlen);
        c->len -= hlen;
        hlen = 0;
        continue;
      }
    }
    if (hlen > 0) {
      size_t body = c->len - hlen;
      bool complete = false;
      if (h.status == 204 || h.status == 304) {
        complete = true;
      } else if (h.chunked) {
        size_t used = 0;
        int r = chunked_complete(c->buf + hlen, c->buf + c->len, &used);
        if (r < 0) { fail = FAIL_PROTOCOL; break; }
        complete = r == 1;
      } else if (h.has_length) {
        if (h.content_length > MAX_RESPONSE_BYTES) { fail = FAIL_TOO_LARGE; break; }
        complete = body >= h.content_length;
      } else {
        complete = eof; /* delimited by the end of the connection */
        h.close_after = true;
      }
      if (complete) break;
    }
    if (eof) { fail = FAIL_CLOSED; break; }
    bool timed_out = false;
    ssize_t n = conn_read(c, deadline, &timed_out);
    if (n == 0) { eof = true; continue; }
    if (n == -2) { fail = FAIL_TOO_LARGE; break; }
    if (n < 0) { fail = timed_out ? FAIL_TIMEOUT : FAIL_CLOSED; break; }
  }
  if (fail != FAIL_COUNT) {
    c->stats->failures[fail]++;
    conn_close(c);
    return false;
  }
  uint64_t us = (uint64_t)((now_s() - t0) * 1e6);
  hist_add(&c->stats->hist, us);
  c->stats->completed++;
  if (h.status < 600) c->stats->status_counts[h.status]++;
  if (h.status >= 200 && h.status < 300) {
    if (o->expect[0] != '\0' && !memmem(c->buf + hlen, c->len - hlen, o->expect, strlen(o->expect)))
      c->stats->failures[FAIL_UNEXPECTED]++;
    else
      c->stats->ok++;
  }
  if (h.close_after) conn_close(c);
  return true;
}

/* Sleeps until `when` (monotonic seconds) in slices of at most 50 ms; false when the run ends
 * (deadline or stop) first. */
static bool sleep_until(const shared_state *s, double when) {
  for (;;) {
    double now = now_s();
    if (now >= s->deadline || atomic_load(&s->stop)) return false;
    if (now >= when) return true;
    double left = when - now;
    if (left > 0.05) left = 0.05;
    struct timespec ts = {0, (long)(left * 1e9)};
    nanosleep(&ts, NULL);
  }
}

/* One connection's loop: requests back to back (or paced by --rate) until the deadline or the
 * request budget. */
static void *connection_main(void *arg) {
  connection *c = arg;
  shared_state *s = c->shared;
  pthread_barrier_wait(&s->barrier);
  double interval = s->opt->rate > 0 ? s->opt->connections / s->opt->rate : 0.0;
  /* paced connections start spread over one interval */
  double next = s->start + interval * (double)c->index / s->opt->connections;
  while (now_s() < s->deadline && !atomic_load(&s->stop)) {
    if (interval > 0) {
      if (!sleep_until(s, next)) break;
      next += interval;
      double now = now_s();
      if (next < now) next = now;
    }
    if (s->opt->requests > 0 && atomic_fetch_add(&s->issued, 1) >= s->opt->requests) break;
    if (!one_request(c)) {
      /* back off briefly after a transport failure so a dead server is not spun against */
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  conn_close(c);
  return NULL;
}

/* Waits for SIGINT/SIGTERM (blocked in every thread) and turns one into the stop flag; returns
 * when the run is over. */
static void *signal_main(void *arg) {
  shared_state *s = arg;
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  struct timespec tick = {0, 50 * 1000 * 1000};
  while (!atomic_load(&s->done)) {
    if (sigtimedwait(&set, NULL, &tick) > 0) atomic_store(&s->stop, true);
  }
  return NULL;
}

/* Prints usage to stderr and returns 2. */
static int usage(const char *msg) {
  if (msg) fprintf(stderr, "loadgen: %s\n", msg);
  fputs("usage: loadgen --port P [--host 127.0.0.1] [--path /v1/models/NAME:predict]\n"
        "               (--body JSON | --body-file FILE) [--method POST|GET] [--connections N]\n"
        "               [--duration SECONDS] [--requests N] [--rate PER_SECOND] [--timeout-ms MS]\n"
        "               [--expect TEXT] [--quiet]\n",
        stderr);
  return 2;
}

/* Parses a whole decimal integer within [lo, hi]. */
static bool parse_ll(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

/* Reads a whole file of at most MAX_BODY_BYTES into a new buffer. */
static bool read_file(const char *path, char **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size > MAX_BODY_BYTES) {
    fclose(f);
    return false;
  }
  size_t n = (size_t)st.st_size;
  char *buf = malloc(n ? n : 1);
  bool ok = buf && fread(buf, 1, n, f) == n;
  fclose(f);
  if (!ok) {
    free(buf);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

/* Copies src into a fixed buffer; false when it does not fit. */
static bool copy_str(char *dst, size_t cap, const char *src) {
  size_t n = strlen(src);
  if (n >= cap) return false;
  memcpy(dst, src, n + 1);
  return true;
}

/* Parses the command line into *o; returns 0 or the exit status for a usage error. */
static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  strcpy(o->host, "127.0.0.1");
  strcpy(o->method, "POST");
  o->connections = 1;
  o->duration_s = 10.0;
  o->timeout_ms = 30000;
  bool have_duration = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--quiet") == 0) { o->quiet = true; continue; }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return usage(NULL);
    if (i + 1 >= argc) return usage("missing value after an option");
    const char *v = argv[++i];
    long long n;
    if (strcmp(a, "--host") == 0) {
      if (!copy_str(o->host, sizeof o->host, v)) return usage("--host too long");
    } else if (strcmp(a, "--port") == 0) {
      if (!parse_ll(v, 1, 65535, &n)) return usage("--port must be 1..65535");
      o->port = (int)n;
    } else if (strcmp(a, "--path") == 0) {
      if (v[0] != '/' || strpbrk(v, " \r\n") || !copy_str(o->path, sizeof o->path, v))
        return usage("--path must start with '/', have no blanks and be under 4096 bytes");
    } else if (strcmp(a, "--method") == 0) {
      if (strcmp(v, "POST") != 0 && strcmp(v, "GET") != 0) return usage("--method must be POST or GET");
      strcpy(o->method, v);
    } else if (strcmp(a, "--body") == 0) {
      free(o->body);
      o->body_len = strlen(v);
      if (o->body_len > MAX_BODY_BYTES) return usage("--body too large");
      o->body = malloc(o->body_len + 1);
      if (!o->body) return usage("out of memory");
      memcpy(o->body, v, o->body_len + 1);
    } else if (strcmp(a, "--body-file") == 0) {
      free(o->body);
      o->body = NULL;
      if (!read_file(v, &o->body, &o->body_len)) return usage("cannot read --body-file (or over 64 MiB)");
    } else if (strcmp(a, "--connections") == 0) {
      if (!parse_ll(v, 1, MAX_CONNECTIONS, &n)) return usage("--connections must be 1..256");
      o->connections = (int)n;
    } else if (strcmp(a, "--duration") == 0) {
      char *end;
      errno = 0;
      double d = strtod(v, &end);
      if (errno || end == v || *end || !(d > 0.0) || d > MAX_DURATION_S) return usage("--duration must be in (0, 3600]");
      o->duration_s = d;
      have_duration = true;
    } else if (strcmp(a, "--requests") == 0) {
      if (!parse_ll(v, 1, MAX_REQUESTS, &n)) return usage("--requests must be 1..1e9");
      o->requests = n;
    } else if (strcmp(a, "--rate") == 0) {
      char *end;
      errno = 0;
      double r = strtod(v, &end);
      if (errno || end == v || *end || !(r > 0.0) || r > 1e7) return usage("--rate must be in (0, 1e7]");
      o->rate = r;
    } else if (strcmp(a, "--timeout-ms") == 0) {
      if (!parse_ll(v, 1, MAX_TIMEOUT_MS, &n)) return usage("--timeout-ms must be 1..600000");
      o->timeout_ms = (int)n;
    } else if (strcmp(a, "--expect") == 0) {
      if (!copy_str(o->expect, sizeof o->expect, v)) return usage("--expect too long");
    } else {
      return usage("unknown option");
    }
  }
  if (o->port == 0) return usage("--port is required");
  if (o->path[0] == '\0') strcpy(o->path, "/");
  if (strcmp(o->method, "POST") == 0 && !o->body) return usage("POST needs --body or --body-file");
  if (strcmp(o->method, "GET") == 0 && o->body_len > 0) return usage("GET takes no body");
  /* --requests alone still stops at the maximum duration */
  if (o->requests > 0 && !have_duration) o->duration_s = MAX_DURATION_S;
  return 0;
}

/* Builds the request line and headers shared by every request. */
static bool build_request_head(shared_state *s) {
  const options *o = s->opt;
  size_t cap = strlen(o->path) + 256;
  s->request_head = malloc(cap);
  if (!s->request_head) return false;
  int n;
  if (strcmp(o->method, "POST") == 0)
    n = snprintf(s->request_head, cap,
                 "POST %s HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/json\r\n"
                 "Content-Length: %zu\r\n\r\n",
                 o->path, o->host, o->port, o->body_len);
  else
    n = snprintf(s->request_head, cap, "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n", o->path, o->host, o->port);
  if (n < 0 || (size_t)n >= cap) return false;
  s->head_len = (size_t)n;
  return true;
}

/* Sums the per-thread stats into *total. */
static void merge_stats(thread_stats *total, const thread_stats *stats, int n) {
  memset(total, 0, sizeof *total);
  for (int i = 0; i < n; i++) {
    hist_merge(&total->hist, &stats[i].hist);
    total->completed += stats[i].completed;
    total->ok += stats[i].ok;
    for (int k = 0; k < 600; k++) total->status_counts[k] += stats[i].status_counts[k];
    for (int k = 0; k < FAIL_COUNT; k++) total->failures[k] += stats[i].failures[k];
  }
}

/* Prints the human-readable report and the closing machine-readable line. */
static void report(const options *o, const thread_stats *t, double elapsed) {
  uint64_t errors = 0;
  for (int k = 0; k < 600; k++)
    if (k < 200 || k >= 300) errors += t->status_counts[k];
  for (int k = 0; k < FAIL_COUNT; k++) errors += t->failures[k];
  double rps = elapsed > 0 ? (double)t->completed / elapsed : 0.0;
  double mean = t->hist.total ? t->hist.sum_us / (double)t->hist.total / 1000.0 : 0.0;
  double p50 = hist_quantile_ms(&t->hist, 0.50), p90 = hist_quantile_ms(&t->hist, 0.90);
  double p99 = hist_quantile_ms(&t->hist, 0.99), mx = (double)t->hist.max_us / 1000.0;
  if (!o->quiet) {
    printf("loadgen: %d connection%s, %.2f s, %s http://%s:%d%s (%zu-byte body)\n", o->connections,
           o->connections == 1 ? "" : "s", elapsed, o->method, o->host, o->port, o->path, o->body_len);
    printf("  responses   %" PRIu64 " (%" PRIu64 " ok)\n", t->completed, t->ok);
    printf("  requests/s  %.1f\n", rps);
    printf("  latency ms  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f  mean %.3f\n", p50, p90, p99, mx, mean);
    printf("  errors      %" PRIu64 "\n", errors);
    for (int k = 0; k < 600; k++)
      if ((k < 200 || k >= 300) && t->status_counts[k]) printf("    HTTP %d  %" PRIu64 "\n", k, t->status_counts[k]);
    for (int k = 0; k < FAIL_COUNT; k++)
      if (t->failures[k]) printf("    %-9s %" PRIu64 "\n", failure_names[k], t->failures[k]);
  }
  printf("result connections=%d seconds=%.3f requests=%" PRIu64 " ok=%" PRIu64
         " rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f mean_ms=%.3f errors=%" PRIu64,
         o->connections, elapsed, t->completed, t->ok, rps, p50, p90, p99, mx, mean, errors);
  for (int k = 0; k < 600; k++)
    if (t->status_counts[k]) printf(" status_%d=%" PRIu64, k, t->status_counts[k]);
  for (int k = 0; k < FAIL_COUNT; k++)
    if (t->failures[k]) printf(" %s=%" PRIu64, failure_names[k], t->failures[k]);
  printf("\n");
  fflush(stdout);
}

int main(int argc, char **argv) {
  options opt;
  int rc = parse_args(argc, argv, &opt);
  if (rc != 0) {
    free(opt.body);
    return rc;
  }
  shared_state s;
  memset(&s, 0, sizeof s);
  s.opt = &opt;
  s.addr.sin_family = AF_INET;
  s.addr.sin_port = htons((uint16_t)opt.port);
  if (inet_pton(AF_INET, opt.host, &s.addr.sin_addr) != 1) {
    free(opt.body);
    return usage("--host must be a numeric IPv4 address");
  }
  int n = opt.connections;
  thread_stats *stats = calloc((size_t)n, sizeof *stats);
  connection *conns = calloc((size_t)n, sizeof *conns);
  pthread_t *threads = calloc((size_t)n, sizeof *threads);
  thread_stats *total = calloc(1, sizeof *total);
  if (!stats || !conns || !threads || !total || !build_request_head(&s) ||
      pthread_barrier_init(&s.barrier, NULL, (unsigned)n + 1) != 0) {
    fprintf(stderr, "loadgen: out of memory\n");
    return 2;
  }
  atomic_init(&s.issued, 0);
  atomic_init(&s.stop, false);
  atomic_init(&s.done, false);
  /* SIGINT/SIGTERM are delivered to the signal thread only */
  sigset_t sigs;
  sigemptyset(&sigs);
  sigaddset(&sigs, SIGINT);
  sigaddset(&sigs, SIGTERM);
  pthread_t signal_thread;
  if (pthread_sigmask(SIG_BLOCK, &sigs, NULL) != 0 ||
      pthread_create(&signal_thread, NULL, signal_main, &s) != 0) {
    fprintf(stderr, "loadgen: cannot start the signal thread\n");
    return 2;
  }
  int started = 0;
  for (int i = 0; i < n; i++) {
    conns[i] = (connection){.shared = &s, .index = i, .stats = &stats[i], .fd = -1};
    conns[i].cap = READ_CHUNK;
    conns[i].buf = malloc(conns[i].cap);
    if (!conns[i].buf) break;
  }
  for (; started < n; started++)
    if (!conns[started].buf || pthread_create(&threads[started], NULL, connection_main, &conns[started]) != 0) break;
  if (started < n) {
    fprintf(stderr, "loadgen: cannot start %d threads (started %d)\n", n, started);
    return 2; /* threads wait on the barrier forever; exiting ends them */
  }
  /* the barrier publishes start and deadline to the threads */
  s.start = now_s();
  s.deadline = s.start + opt.duration_s;
  pthread_barrier_wait(&s.barrier);
  for (int i = 0; i < n; i++) pthread_join(threads[i], NULL);
  double elapsed = now_s() - s.start;
  atomic_store(&s.done, true);
  pthread_join(signal_thread, NULL);
  merge_stats(total, stats, n);
  report(&opt, total, elapsed);
  for (int i = 0; i < n; i++) free(conns[i].buf);
  pthread_barrier_destroy(&s.barrier);
  free(s.request_head);
  free(total);
  free(threads);
  free(conns);
  free(stats);
  free(opt.body);
  return 0;
}

/* Text generation over REST (generation.h, docs/generation.md). */
#include "server/generation.h"

#include <microhttpd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/generation_request.h"
#include "server/json.h"

/* ---------------------------------------------------------------------------------------------- */
/* Streams                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

struct srv_gen_stream {
  pthread_mutex_t mu;
  int refs; /* the engine's (until `done`) and libmicrohttpd's (until the response is freed) */
  srv_server *server;
  srv_servable *sv; /* held until the stream is freed */
  hr_gen_request *req; /* the caller's reference (guarded by server->gen_mu) */
  struct MHD_Connection *conn;
  bool suspended; /* by read_stream, waiting for output */
  bool done;
  bool openai, streaming;
  bool bytes;     /* a byte vocabulary: tokens are text */
  hr_strbuf out;  /* output not yet read by libmicrohttpd */
  size_t sent;    /* bytes of `out` read */
  hr_strbuf text; /* a whole answer's text so far (not streaming) */
  int32_t *tokens; /* a whole answer's tokens so far (not streaming), room for the context */
  int n_tokens, cap_tokens;
  unsigned char hold[4]; /* the start of a UTF-8 character whose rest has not come yet (streaming) */
  int n_hold;
  bool first_counted; /* the time to the first token went to the metrics (the engine's thread only) */
  char id[40]; /* OpenAI's completion id */
  long long created;
  srv_gen_stream *prev, *next; /* the server's list */
};

/* The length of the longest prefix of `b` that does not end inside a UTF-8 character: a lead byte
 * near the end whose continuation bytes have not all come is held back. */
static size_t utf8_complete(const unsigned char *b, size_t n) {
  size_t i = n;
  while (i > 0 && n - i < 3 && (b[i - 1] & 0xC0) == 0x80) i--; /* continuation bytes */
  if (i == 0) return n;
  unsigned char lead = b[i - 1];
  size_t need = lead >= 0xF0 && lead < 0xF5 ? 4 : lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 1;
  return need > 1 && n - (i - 1) < need ? i - 1 : n;
}

/* Appends OpenAI's chunk (or whole answer) head: {"id":...,"object":...,"created":...,"model":...,"choices":[{"text": */
static void put_openai_head(srv_gen_stream *st, hr_strbuf *sb) {
  hr_strbuf_printf(sb, "{\"id\":\"%s\",\"object\":\"text_completion\",\"created\":%lld,\"model\":", st->id, st->created);
  srv_json_put_cstring(sb, st->sv->model);
  hr_strbuf_puts(sb, ",\"choices\":[{\"text\":");
}

/* Appends a piece of streamed text (and its tokens) as one event. */
static void put_piece(srv_gen_stream *st, const unsigned char *text, size_t len, const int32_t *tokens, int n) {
  hr_strbuf *sb = &st->out;
  if (st->openai) {
    if (len == 0) return;
    hr_strbuf_puts(sb, "data: ");
    put_openai_head(st, sb);
    srv_json_put_string(sb, (const char *)text, len);
    hr_strbuf_puts(sb, ",\"index\":0,\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    return;
  }
  hr_strbuf_puts(sb, "data: {\"text\":");
  srv_json_put_string(sb, (const char *)text, len);
  hr_strbuf_puts(sb, ",\"tokens\":[");
  for (int i = 0; i < n; i++) hr_strbuf_printf(sb, "%s%d", i ? "," : "", tokens[i]);
  hr_strbuf_puts(sb, "]}\n\n");
}

/* Takes tokens the engine gave out: streamed as an event (whole UTF-8 characters only), or kept. */
static void take_tokens(srv_gen_stream *st, const int32_t *tokens, int n) {
  if (!st->streaming) {
    for (int i = 0; i < n && st->n_tokens < st->cap_tokens; i++) st->tokens[st->n_tokens++] = tokens[i];
    for (int i = 0; st->bytes && i < n; i++) hr_strbuf_putc(&st->text, (char)tokens[i]);
    return;
  }
  unsigned char buf[64];
  for (int at = 0; at < n;) { /* in runs that fit buf with what is held */
    int k = n - at < (int)sizeof buf - 4 ? n - at : (int)sizeof buf - 4;
    size_t len = 0;
    if (st->bytes) {
      memcpy(buf, st->hold, (size_t)st->n_hold);
      len = (size_t)st->n_hold;
      for (int i = 0; i < k; i++) buf[len++] = (unsigned char)tokens[at + i];
      size_t whole = utf8_complete(buf, len);
      st->n_hold = (int)(len - whole);
      memcpy(st->hold, buf + whole, (size_t)st->n_hold);
      len = whole;
    }
    put_piece(st, buf, len, tokens + at, k);
    at += k;
  }
}

/* Appends the usage and timing members (after a leading comma). */
static void put_usage(hr_strbuf *sb, const hr_gen_event *ev, bool openai) {
  hr_strbuf_printf(sb, ",\"usage\":{\"prompt_tokens\":%d,\"completion_tokens\":%d", ev->prompt_tokens,
                   ev->completion_tokens);
  if (openai) hr_strbuf_printf(sb, ",\"total_tokens\":%d}", ev->prompt_tokens + ev->completion_tokens);
  else
    hr_strbuf_printf(sb, "},\"timings\":{\"time_to_first_token_ms\":%.3f,\"tokens_per_second\":%.3f},\"seed\":%llu",
                     1e3 * ev->first_token_seconds, ev->decode_tokens_per_second, (unsigned long long)ev->seed);
}

/* Appends an error member (native) or object (OpenAI) for a failed generation. */
static void put_error(hr_strbuf *sb, const hr_gen_event *ev, bool openai) {
  if (ev->finish != HR_GEN_ERROR) return;
  hr_strbuf_puts(sb, openai ? ",\"error\":{\"message\":" : ",\"error\":");
  srv_json_put_cstring(sb, ev->message ? ev->message : "generation failed");
  if (openai) hr_strbuf_puts(sb, ",\"type\":\"server_error\"}");
}

/* Appends the end: the last event (streaming) or the whole answer. */
static void put_done(srv_gen_stream *st, const hr_gen_event *ev) {
  hr_strbuf *sb = &st->out;
  const char *why = hr_gen_finish_name(ev->finish);
  if (st->streaming && st->n_hold > 0) { /* an unfinished character at the end: written as its bytes */
    put_piece(st, st->hold, (size_t)st->n_hold, NULL, 0);
    st->n_hold = 0;
  }
  if (st->streaming) hr_strbuf_puts(sb, "data: ");
  if (st->openai) {
    put_openai_head(st, sb);
    if (st->streaming) hr_strbuf_puts(sb, "\"\"");
    else srv_json_put_string(sb, st->text.data ? st->text.data : "", st->text.len);
    hr_strbuf_printf(sb, ",\"index\":0,\"logprobs\":null,\"finish_reason\":\"%s\"}]", why);
  } else if (st->streaming) {
    hr_strbuf_printf(sb, "{\"done\":true,\"finish_reason\":\"%s\"", why);
  } else {
    hr_strbuf_puts(sb, "{\"text\":");
    srv_json_put_string(sb, st->text.data ? st->text.data : "", st->text.len);
    hr_strbuf_puts(sb, ",\"tokens\":[");
    for (int i = 0; i < st->n_tokens; i++) hr_strbuf_printf(sb, "%s%d", i ? "," : "", st->tokens[i]);
    hr_strbuf_printf(sb, "],\"finish_reason\":\"%s\"", why);
  }
  put_usage(sb, ev, st->openai);
  put_error(sb, ev, st->openai);
  hr_strbuf_puts(sb, st->streaming ? "}\n\n" : "}\n");
  if (st->streaming && st->openai) hr_strbuf_puts(sb, "data: [DONE]\n\n");
}

/* Frees a stream both sides let go of, and gives its servable back. */
static void free_stream(srv_gen_stream *st) {
  srv_server *s = st->server;
  pthread_mutex_lock(&s->gen_mu);
  if (st->prev) st->prev->next = st->next;
  else if (s->gen_streams == st) s->gen_streams = st->next;
  if (st->next) st->next->prev = st->prev;
  pthread_mutex_unlock(&s->gen_mu);
  srv_service_release(&s->svc, st->sv); /* may free the engine: from its sink, it stops itself */
  hr_strbuf_free(&st->out);
  hr_strbuf_free(&st->text);
  free(st->tokens);
  pthread_mutex_destroy(&st->mu);
  free(st);
}

/* Drops one side's reference (call with st->mu); true when it was the last. */
static bool drop_ref(srv_gen_stream *st) { return --st->refs == 0; }

/* Resumes the connection if read_stream suspended it. Call with st->mu. */
static void wake(srv_gen_stream *st) {
  if (!st->suspended || !st->conn) return;
  st->suspended = false;
  MHD_resume_connection(st->conn);
}

/* The engine's sink (its thread): formats what it gives into the stream and wakes the connection. */
static void on_event(void *ctx, const hr_gen_event *ev) {
  srv_gen_stream *st = ctx;
  srv_metrics *metrics = st->server->metrics;
  const char *model = st->sv->model;
  if (ev->n_tokens > 0) {
    srv_metrics_gen_tokens(metrics, model, ev->n_tokens, st->first_counted ? 0 : ev->first_token_seconds,
                           ev->token_gap_seconds);
    st->first_counted = true;
  }
  if (ev->done) {
    srv_metrics_gen_active(metrics, model, -1);
    srv_metrics_gen_done(metrics, model, hr_gen_finish_name(ev->finish));
  }
  pthread_mutex_lock(&st->mu);
  if (ev->n_tokens > 0) take_tokens(st, ev->tokens, ev->n_tokens);
  if (ev->done) {
    put_done(st, ev);
    st->done = true;
  }
  wake(st);
  bool last = ev->done && drop_ref(st);
  pthread_mutex_unlock(&st->mu);
  if (last) free_stream(st);
}

/* libmicrohttpd's content callback: what the stream holds, else the end once done, else it
 * suspends the connection until the sink wakes it. */
static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  srv_gen_stream *st = cls;
  pthread_mutex_lock(&st->mu);
  ssize_t n = 0;
  if (st->out.failed) {
    n = MHD_CONTENT_READER_END_WITH_ERROR;
  } else if (st->sent < st->out.len) {
    size_t k = st->out.len - st->sent < max ? st->out.len - st->sent : max;
    memcpy(buf, st->out.data + st->sent, k);
    st->sent += k;
    if (st->sent == st->out.len) st->sent = st->out.len = 0;
    n = (ssize_t)k;
  } else if (st->done) {
    n = MHD_CONTENT_READER_END_OF_STREAM;
  } else {
    st->suspended = true;
    MHD_suspend_connection(st->conn);
  }
  pthread_mutex_unlock(&st->mu);
  return n;
}

/* Lets libmicrohttpd's side go: the request is cancelled (a client gone mid-stream frees its slot
 * at the next step) and its handle released. */
static void release_http_side(void *cls) {
  srv_gen_stream *st = cls;
  srv_server *s = st->server;
  pthread_mutex_lock(&s->gen_mu);
  hr_gen_request *req = st->req;
  st->req = NULL;
  pthread_mutex_unlock(&s->gen_mu);
  hr_gen_release(req);
  pthread_mutex_lock(&st->mu);
  st->conn = NULL;
  bool last = drop_ref(st);
  pthread_mutex_unlock(&st->mu);
  if (last) free_stream(st);
}

struct MHD_Response *srv_gen_stream_response(srv_gen_stream *st, struct MHD_Connection *c) {
  pthread_mutex_lock(&st->mu);
  st->conn = c;
  pthread_mutex_unlock(&st->mu);
  struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 << 10, read_stream, st,
                                                                release_http_side);
  if (!resp) {
    srv_gen_stream_abandon(st);
    return NULL;
  }
  if (st->streaming) MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
  return resp;
}

void srv_gen_stream_abandon(srv_gen_stream *st) { release_http_side(st); }

void srv_generation_cancel_all(srv_server *s) {
  pthread_mutex_lock(&s->gen_mu);
  for (srv_gen_stream *st = s->gen_streams; st; st = st->next)
    if (st->req) hr_gen_cancel(st->req);
  pthread_mutex_unlock(&s->gen_mu);
}

/* A new stream over an acquired servable (taken over), listed in the server. */
static srv_gen_stream *new_stream(srv_server *s, srv_servable *sv, bool openai, bool streaming) {
  srv_gen_stream *st = calloc(1, sizeof *st);
  const hr_gen_model *m = hr_gen_engine_model(sv->generator);
  int cap = hr_gen_model_context(m) + 1;
  int32_t *tokens = streaming ? NULL : calloc((size_t)cap, sizeof *tokens);
  if (!st || (!streaming && !tokens)) {
    free(st);
    free(tokens);
    return NULL;
  }
  pthread_mutex_init(&st->mu, NULL);
  st->refs = 2;
  st->server = s;
  st->sv = sv;
  st->openai = openai;
  st->streaming = streaming;
  st->bytes = hr_gen_model_vocab(m) == 256;
  st->tokens = tokens;
  st->cap_tokens = streaming ? 0 : cap;
  hr_strbuf_init(&st->out, NULL);
  hr_strbuf_init(&st->text, NULL);
  snprintf(st->id, sizeof st->id, "cmpl-%016llx", (unsigned long long)srv_random_u64());
  st->created = (long long)time(NULL);
  pthread_mutex_lock(&s->gen_mu);
  st->next = s->gen_streams;
  if (st->next) st->next->prev = st;
  s->gen_streams = st;
  pthread_mutex_unlock(&s->gen_mu);
  return st;
}

/* The prompt's tokens: its ids, or its bytes (converted into g->prompt_tokens). */
static hr_status prompt_tokens(srv_gen_request *g, int32_t **out, int *n) {
  if (g->prompt_tokens) {
    *out = g->prompt_tokens;
    *n = g->n_prompt_tokens;
    return NULL;
  }
  size_t len = g->prompt.data ? g->prompt.len : 0;
  g->prompt_tokens = calloc(len + 1, sizeof *g->prompt_tokens);
  if (!g->prompt_tokens) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < len; i++) g->prompt_tokens[i] = (unsigned char)g->prompt.data[i];
  g->n_prompt_tokens = (int)len;
  *out = g->prompt_tokens;
  *n = g->n_prompt_tokens;
  return NULL;
}

/* Starts a generation on an acquired servable (taken over) and makes the reply its stream. */
static hr_status start(srv_server *s, srv_servable *sv, srv_gen_request *g, bool openai, srv_reply *r) {
  if (!sv->generator) {
    srv_service_release(&s->svc, sv);
    return hr_error(HR_INVALID_ARGUMENT, "model '%s' does not generate text: its module has no @prefill and @decode "
                                         "(docs/generation.md)", sv->model);
  }
  int32_t *prompt = NULL;
  int n = 0;
  hr_status err = prompt_tokens(g, &prompt, &n);
  if (!err && n == 0) err = hr_error(HR_INVALID_ARGUMENT, "the prompt is empty");
  srv_gen_stream *st = err ? NULL : new_stream(s, sv, openai, g->stream);
  if (!err && !st) err = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (err) {
    srv_service_release(&s->svc, sv);
    return err;
  }
  srv_metrics_gen_active(s->metrics, sv->model, +1);
  hr_gen_request *req = NULL;
  err = hr_gen_submit(sv->generator, prompt, n, &g->params, on_event, st, &req);
  if (err) {
    srv_metrics_gen_active(s->metrics, sv->model, -1);
    free_stream(st);
    return err;
  }
  pthread_mutex_lock(&s->gen_mu);
  st->req = req;
  pthread_mutex_unlock(&s->gen_mu);
  r->stream = st;
  r->content_type = g->stream ? "text/event-stream" : "application/json";
  return NULL;
}

/* Answers an error status (and frees it) with its HTTP code. */
static void reply_error_status(srv_reply *r, hr_status err) {
  r->code = srv_code_of(hr_status_code(err));
  srv_reply_error(r, srv_code_http(r->code), hr_status_message(err));
  hr_status_free(err);
}

void srv_rest_generate(srv_server *s, const char *model, const srv_selector *sel, const char *body, size_t len,
                       srv_reply *r) {
  srv_gen_request g;
  srv_servable *sv = NULL;
  hr_status err = srv_gen_request_parse(body, len, s->opts.max_json_depth, false, &g);
  if (!err) err = srv_service_acquire(&s->svc, model, sel, &sv);
  if (!err) err = start(s, sv, &g, false, r);
  if (err) reply_error_status(r, err);
  srv_gen_request_free(&g);
}

void srv_rest_completions(srv_server *s, const char *body, size_t len, srv_reply *r) {
  srv_gen_request g;
  srv_servable *sv = NULL;
  srv_selector latest = {.kind = SRV_SELECT_LATEST};
  hr_status err = srv_gen_request_parse(body, len, s->opts.max_json_depth, true, &g);
  if (!err && !g.model[0]) err = hr_error(HR_INVALID_ARGUMENT, "the request has no \"model\"");
  if (!err) {
    const char *configured = srv_registry_model_name(s->svc.registry, g.model);
    r->model = configured ? configured : "";
    err = srv_service_acquire(&s->svc, g.model, &latest, &sv);
  }
  if (!err) err = start(s, sv, &g, true, r);
  if (err) reply_error_status(r, err);
  srv_gen_request_free(&g);
}

/* ---------------------------------------------------------------------------------------------- */
/* The list of models                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* Whether the latest available version of a model generates. */
static bool model_generates(srv_server *s, const char *name) {
  srv_servable *sv;
  srv_selector latest = {.kind = SRV_SELECT_LATEST};
  hr_status err = srv_service_acquire(&s->svc, name, &latest, &sv);
  if (err) {
    hr_status_free(err);
    return false;
  }
  bool yes = sv->generator != NULL;
  srv_service_release(&s->svc, sv);
  return yes;
}

void srv_rest_list_models(srv_server *s, srv_reply *r) {
  enum { MAX_LISTED = 1024 };
  const char **names = calloc(MAX_LISTED, sizeof *names);
  if (!names) {
    srv_reply_error(r, 500, "out of memory");
    return;
  }
  int n = srv_registry_model_names(s->svc.registry, names, MAX_LISTED);
  hr_strbuf *sb = &r->body;
  hr_strbuf_puts(sb, "{\"models\": [");
  for (int i = 0; i < n; i++) {
    hr_strbuf_puts(sb, i ? ", {\"name\": " : "{\"name\": ");
    srv_json_put_cstring(sb, names[i]);
    hr_strbuf_printf(sb, ", \"generate\": %s, \"model_version_status\": [", model_generates(s, names[i]) ? "true" : "false");
    srv_model_status st;
    srv_selector all = {.kind = SRV_SELECT_LATEST};
    hr_status err = srv_service_status(&s->svc, names[i], &all, &st);
    for (int v = 0; !err && v < st.n_versions; v++) {
      const srv_version_status *vs = &st.versions[v];
      hr_strbuf_printf(sb, "%s{\"version\": \"%lld\", \"state\": \"%s\", \"status\": {\"error_code\": \"%s\", \"error_message\": ",
                       v ? ", " : "", (long long)vs->version, srv_state_name(vs->state),
                       srv_code_name(srv_code_of(vs->error)));
      srv_json_put_cstring(sb, vs->message);
      hr_strbuf_puts(sb, "}}");
    }
    if (!err) srv_model_status_free(&st);
    hr_status_free(err);
    hr_strbuf_puts(sb, "]}");
  }
  hr_strbuf_puts(sb, "]}\n");
  free(names);
}

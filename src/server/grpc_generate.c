/* hlorun.GenerationService/Generate (proto/hlorun/generation.proto, docs/generation.md): text
 * generation over gRPC, server streaming, a producing method (grpc.h).
 *
 * The start (the network thread) reads the GenerateRequest, acquires the servable its model_spec
 * names and submits the prompt to the servable's generation engine. The engine's sink (its
 * thread) encodes one GenerateResponse per event into the call's feed, which the network thread
 * sends: the tokens given out, then a last message with done = true and the counts (an engine
 * error ends the call INTERNAL instead). A call lives until both the engine (its `done` event) and
 * the transport (detach: the call ended, or its client reset it or hung up, which releases and so
 * cancels the request: its slot is freed at the next step) let it go; the servable is held until
 * then, the feed released last. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/protobuf/pb.h"
#include "generate/generate.h"
#include "server/grpc.h"
#include "server/internal.h"

/* GenerateRequest's fields. */
enum {
  REQ_MODEL_SPEC = 1,
  REQ_PROMPT = 2,
  REQ_PROMPT_TOKENS = 3,
  REQ_MAX_TOKENS = 4,
  REQ_TEMPERATURE = 5,
  REQ_TOP_K = 6,
  REQ_TOP_P = 7,
  REQ_SEED = 8,
  REQ_STOP = 9,
  REQ_END_BYTE = 10,
};

/* GenerateResponse's fields. */
enum {
  RESP_TEXT = 1,
  RESP_TOKENS = 2,
  RESP_DONE = 3,
  RESP_FINISH_REASON = 4,
  RESP_PROMPT_TOKENS = 5,
  RESP_COMPLETION_TOKENS = 6,
  RESP_TIME_TO_FIRST_TOKEN_MS = 7,
  RESP_TOKENS_PER_SECOND = 8,
  RESP_SEED = 9,
};

/* ModelSpec's fields (proto/tensorflow_serving/apis/model.proto). */

/* A prompt's tokens at most (ids, or bytes): the REST adapter's bound on a prompt array; the
 * model's context, checked at submission, is far smaller. */
enum { MAX_PROMPT_TOKENS = HR_LIMIT_GEN_VOCAB };

/* A GenerateRequest as read: views into the request message, and the prompt's token ids. */
typedef struct gen_request {
  srv_grpc_model_spec spec;
  const uint8_t *prompt; /* the prompt's bytes (a byte vocabulary's tokens) */
  size_t prompt_len;
  int32_t *tokens; /* or its token ids */
  int n_tokens;
  hr_gen_params params; /* stop strings point into the request message */
  bool seeded;
} gen_request;

/* ---------------------------------------------------------------------------------------------- */
/* The request                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Counts the prompt_tokens of a request (packed or not), at most MAX_PROMPT_TOKENS. */
static hr_status count_tokens(const hr_pb *msg, int *n) {
  hr_pb c = *msg;
  hr_pb_field f;
  bool more;
  *n = 0;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) return NULL;
    if (f.number != REQ_PROMPT_TOKENS) continue;
    if (f.wire == HR_PB_VARINT) {
      ++*n;
    } else {
      HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, "prompt_tokens"));
      hr_pb packed = hr_pb_sub(&c, &f);
      uint64_t v;
      for (bool any = true; any;) {
        HR_TRY(hr_pb_next_packed(&packed, &v, &any));
        *n += any;
        if (*n > MAX_PROMPT_TOKENS) break;
      }
    }
    if (*n > MAX_PROMPT_TOKENS)
      return hr_error(HR_INVALID_ARGUMENT, "prompt_tokens holds more than %d tokens", MAX_PROMPT_TOKENS);
  }
}

/* Reads one prompt_tokens field (a packed run or one varint) into g->tokens (counted before). */
static hr_status read_tokens(const hr_pb *c, const hr_pb_field *f, gen_request *g) {
  if (f->wire == HR_PB_VARINT) {
    g->tokens[g->n_tokens++] = (int32_t)(uint32_t)f->u;
    return NULL;
  }
  hr_pb packed = hr_pb_sub(c, f);
  uint64_t v;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next_packed(&packed, &v, &more));
    if (!more) return NULL;
    g->tokens[g->n_tokens++] = (int32_t)(uint32_t)v;
  }
}

/* A float field's value (wire type I32). */
static hr_status read_float(const hr_pb *c, const hr_pb_field *f, const char *what, double *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_I32, what));
  uint32_t bits = (uint32_t)f->u;
  float x;
  memcpy(&x, &bits, sizeof x);
  *out = x;
  return NULL;
}

/* An int32 field's value (wire type VARINT; a negative value is its 64-bit two's complement), or
 * that of an Int32Value (`wrapped`). */
static hr_status read_int32(const hr_pb *c, const hr_pb_field *f, const char *what, bool wrapped, int *out) {
  uint64_t v = f->u;
  if (wrapped) HR_TRY(srv_grpc_read_wrapper(c, f, what, &v));
  else HR_TRY(hr_pb_want(c, f, HR_PB_VARINT, what));
  *out = (int32_t)(uint32_t)v;
  return NULL;
}

/* Reads one stop string (a view into the message), at most HR_LIMIT_GEN_STOP_STRINGS of 1 to
 * HR_LIMIT_GEN_STOP_BYTES bytes. */
static hr_status read_stop(const hr_pb *c, const hr_pb_field *f, hr_gen_params *p) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "stop"));
  if (p->n_stop == HR_LIMIT_GEN_STOP_STRINGS)
    return hr_error(HR_INVALID_ARGUMENT, "stop holds more than %d strings", HR_LIMIT_GEN_STOP_STRINGS);
  if (f->len < 1 || f->len > HR_LIMIT_GEN_STOP_BYTES)
    return hr_error(HR_INVALID_ARGUMENT, "stop string %d has %zu bytes, it must have 1 to %d", p->n_stop, f->len,
                    HR_LIMIT_GEN_STOP_BYTES);
  p->stop[p->n_stop] = (const char *)f->data;
  p->stop_len[p->n_stop++] = f->len;
  return NULL;
}

/* Reads one field of the request (scalars: the last on the wire wins; unknown fields skipped). */
static hr_status read_field(const hr_pb *c, const hr_pb_field *f, gen_request *g) {
  hr_gen_params *p = &g->params;
  switch (f->number) {
    case REQ_MODEL_SPEC: return srv_grpc_read_spec(c, f, &g->spec);
    case REQ_PROMPT:
      HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "prompt"));
      if (f->len > MAX_PROMPT_TOKENS)
        return hr_error(HR_INVALID_ARGUMENT, "the prompt has %zu bytes, more than %d", f->len, MAX_PROMPT_TOKENS);
      g->prompt = f->data;
      g->prompt_len = f->len;
      return NULL;
    case REQ_PROMPT_TOKENS: return read_tokens(c, f, g);
    case REQ_MAX_TOKENS: return read_int32(c, f, "max_tokens", true, &p->max_tokens);
    case REQ_TEMPERATURE: return read_float(c, f, "temperature", &p->temperature);
    case REQ_TOP_K: return read_int32(c, f, "top_k", false, &p->top_k);
    case REQ_TOP_P:
      HR_TRY(read_float(c, f, "top_p", &p->top_p));
      if (p->top_p == 0) p->top_p = 1; /* proto3's default: not given */
      return NULL;
    case REQ_SEED:
      HR_TRY(srv_grpc_read_wrapper(c, f, "seed", &p->seed));
      g->seeded = true;
      return NULL;
    case REQ_STOP: return read_stop(c, f, p);
    case REQ_END_BYTE:
      HR_TRY(read_int32(c, f, "end_byte", true, &p->end_token));
      if (p->end_token < 0 || p->end_token >= HR_LIMIT_GEN_VOCAB)
        return hr_error(HR_INVALID_ARGUMENT, "end_byte is %d, it must be from 0 to %d", p->end_token,
                        HR_LIMIT_GEN_VOCAB - 1);
      return NULL;
    default: return NULL;
  }
}

/* Makes the prompt's bytes its tokens (a byte vocabulary's). */
static hr_status prompt_bytes(gen_request *g) {
  free(g->tokens);
  g->tokens = calloc(g->prompt_len, sizeof *g->tokens);
  if (!g->tokens) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < g->prompt_len; i++) g->tokens[i] = g->prompt[i];
  g->n_tokens = (int)g->prompt_len;
  return NULL;
}

/* Reads a GenerateRequest: defaults as over REST (16 tokens, greedy, a random seed). */
static hr_status read_request(const srv_grpc_request *rq, gen_request *g) {
  g->params = hr_gen_default_params();
  hr_pb c = hr_pb_open("GenerateRequest", rq->msg, rq->len);
  int n;
  HR_TRY(count_tokens(&c, &n));
  g->tokens = calloc((size_t)n + 1, sizeof *g->tokens);
  if (!g->tokens) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_pb_field f;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) break;
    HR_TRY(read_field(&c, &f, g));
  }
  if (!g->spec.present) return hr_error(HR_INVALID_ARGUMENT, "Missing ModelSpec");
  if (g->prompt_len > 0 && g->n_tokens > 0)
    return hr_error(HR_INVALID_ARGUMENT, "the request has both prompt and prompt_tokens; give one");
  if (g->prompt_len == 0 && g->n_tokens == 0) return hr_error(HR_INVALID_ARGUMENT, "the request has no prompt");
  if (g->prompt_len > 0) HR_TRY(prompt_bytes(g));
  if (!g->seeded) g->params.seed = srv_random_u64(); /* the last message says which */
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Calls                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* One Generate call. */
typedef struct gen_call {
  atomic_int refs;      /* the engine's (until `done`) and the transport's (until detach) */
  srv_server *server;
  srv_servable *sv;     /* held until the call is freed */
  srv_grpc_feed *feed;  /* released last */
  hr_gen_request *req;  /* the caller's reference (the network thread's: start, cancel, detach) */
  bool bytes;           /* a byte vocabulary: tokens are the text */
  bool first_counted;   /* the time to the first token went to the metrics (engine's thread) */
  hr_strbuf msg;        /* the message being encoded (engine's thread; reused) */
} gen_call;

/* Drops one reference; the last gives the servable back, then the feed. */
static void unref_call(gen_call *gc) {
  if (atomic_fetch_sub(&gc->refs, 1) != 1) return;
  srv_grpc_feed *feed = gc->feed;
  srv_service_release(&gc->server->svc, gc->sv); /* may free the engine: from its sink, it stops itself */
  hr_strbuf_free(&gc->msg);
  free(gc);
  srv_grpc_feed_release(feed);
}

/* Appends a double field (wire type I64) unless it is 0. */
static void put_double(hr_strbuf *b, uint32_t number, double v) {
  if (v == 0) return;
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  hr_pb_put_tag(b, number, HR_PB_I64);
  char le[8];
  for (int i = 0; i < 8; i++) le[i] = (char)(bits >> (8 * i));
  hr_strbuf_append(b, le, sizeof le);
}

/* Appends a varint field unless it is 0 (proto3 leaves defaults out). */
static void put_nonzero(hr_strbuf *b, uint32_t number, uint64_t v) {
  if (v) hr_pb_put_uint(b, number, v);
}

/* Encodes and queues the tokens of an event: their bytes as text (a byte vocabulary) and their ids. */
static void send_tokens(gen_call *gc, const hr_gen_event *ev) {
  hr_strbuf *b = &gc->msg;
  b->len = 0;
  if (gc->bytes) {
    hr_pb_put_len(b, RESP_TEXT, (size_t)ev->n_tokens);
    for (int i = 0; i < ev->n_tokens; i++) hr_strbuf_putc(b, (char)ev->tokens[i]);
  }
  size_t packed = 0;
  for (int i = 0; i < ev->n_tokens; i++) packed += hr_pb_varint_size((uint32_t)ev->tokens[i]);
  hr_pb_put_len(b, RESP_TOKENS, packed);
  for (int i = 0; i < ev->n_tokens; i++) hr_pb_put_varint(b, (uint32_t)ev->tokens[i]);
  srv_grpc_feed_send(gc->feed, b->data, b->len);
}

/* Ends the call: the last message (done, the finish reason, counts and timings) and OK, or
 * INTERNAL with the engine's message. */
static void send_done(gen_call *gc, const hr_gen_event *ev) {
  if (ev->finish == HR_GEN_ERROR) {
    srv_grpc_feed_end(gc->feed, SRV_INTERNAL, ev->message ? ev->message : "generation failed");
    return;
  }
  hr_strbuf *b = &gc->msg;
  b->len = 0;
  hr_pb_put_uint(b, RESP_DONE, 1);
  hr_pb_put_string(b, RESP_FINISH_REASON, hr_gen_finish_name(ev->finish));
  put_nonzero(b, RESP_PROMPT_TOKENS, (uint64_t)ev->prompt_tokens);
  put_nonzero(b, RESP_COMPLETION_TOKENS, (uint64_t)ev->completion_tokens);
  put_double(b, RESP_TIME_TO_FIRST_TOKEN_MS, 1e3 * ev->first_token_seconds);
  put_double(b, RESP_TOKENS_PER_SECOND, ev->decode_tokens_per_second);
  put_nonzero(b, RESP_SEED, ev->seed);
  srv_grpc_feed_send(gc->feed, b->data, b->len);
  srv_grpc_feed_end(gc->feed, SRV_OK, NULL);
}

/* The engine's sink (its thread): counts the metrics as the REST adapter does and queues the
 * messages; `done` drops the engine's reference. */
static void on_event(void *ctx, const hr_gen_event *ev) {
  gen_call *gc = ctx;
  srv_metrics *metrics = gc->server->metrics;
  const char *model = gc->sv->model;
  if (ev->n_tokens > 0) {
    srv_metrics_gen_tokens(metrics, model, ev->n_tokens, gc->first_counted ? 0 : ev->first_token_seconds,
                           ev->token_gap_seconds);
    gc->first_counted = true;
    send_tokens(gc, ev);
  }
  if (!ev->done) return;
  srv_metrics_gen_active(metrics, model, -1);
  srv_metrics_gen_done(metrics, model, hr_gen_finish_name(ev->finish));
  send_done(gc, ev);
  unref_call(gc);
}

/* The transport's hook: the call should end soon (deadline, server stopping). */
static void on_cancel(void *ctx) {
  gen_call *gc = ctx;
  hr_gen_cancel(gc->req);
}

/* The transport's hook: it let go of the call; the request is released (cancelled when unfinished). */
static void on_detach(void *ctx) {
  gen_call *gc = ctx;
  hr_gen_release(gc->req);
  gc->req = NULL;
  unref_call(gc);
}

/* Starts a call on an acquired servable (taken over): submitted to its engine and attached to the
 * feed. */
static hr_status start_call(srv_server *s, srv_servable *sv, gen_request *g, srv_grpc_feed *feed) {
  if (!sv->generator) {
    hr_status err = hr_error(HR_INVALID_ARGUMENT, "model '%s' does not generate text: its module has no @prefill and "
                                                  "@decode (docs/generation.md)", sv->model);
    srv_service_release(&s->svc, sv);
    return err;
  }
  gen_call *gc = calloc(1, sizeof *gc);
  if (!gc) {
    srv_service_release(&s->svc, sv);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  atomic_init(&gc->refs, 2);
  gc->server = s;
  gc->sv = sv;
  gc->feed = feed;
  gc->bytes = hr_gen_model_vocab(hr_gen_engine_model(sv->generator)) == 256;
  hr_strbuf_init(&gc->msg, NULL);
  srv_metrics_gen_active(s->metrics, sv->model, +1);
  hr_status err = hr_gen_submit(sv->generator, g->tokens, g->n_tokens, &g->params, on_event, gc, &gc->req);
  if (err) {
    srv_metrics_gen_active(s->metrics, sv->model, -1);
    srv_service_release(&s->svc, sv);
    hr_strbuf_free(&gc->msg);
    free(gc);
    return err;
  }
  srv_grpc_feed_attach(feed, &(srv_grpc_producer){.cancel = on_cancel, .detach = on_detach, .ctx = gc});
  return NULL;
}

/* The start of Generate (grpc.h's srv_grpc_starter). */
static void start_generate(srv_server *s, const srv_grpc_request *rq, srv_grpc_feed *feed, srv_grpc_reply *r) {
  gen_request g;
  memset(&g, 0, sizeof g);
  srv_servable *sv = NULL;
  hr_status err = read_request(rq, &g);
  if (!err) {
    r->model = srv_registry_model_name(s->svc.registry, g.spec.name);
    err = srv_service_acquire(&s->svc, g.spec.name, &g.spec.sel, &sv);
  }
  if (!err) err = start_call(s, sv, &g, feed);
  if (err) srv_grpc_fail_status(r, err);
  free(g.tokens);
}

static const srv_grpc_stream_method kGenerate = {"/hlorun.GenerationService/Generate", start_generate};

const srv_grpc_stream_method *srv_grpc_stream_method_find(const char *path) {
  return strcmp(path, kGenerate.path) == 0 ? &kGenerate : NULL;
}

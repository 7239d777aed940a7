/* The generation engine (generate.h): the KV cache of every slot, the requests, and the thread
 * that prefills, decodes and samples for all of them.
 *
 * Rows. The cache holds `slots` rows; rows [0, n_active) hold the running sequences, in no
 * particular order. A decode step runs the smallest bucket b >= n_active on rows [0, b): the rows
 * past n_active compute nothing anyone reads (their token and position are 0, so they write only
 * their own row's position 0). Prefill writes the rows of the joining requests, [n_active,
 * n_active + k) for a bucket of k, straight from its outputs. A sequence that ends gives its row the
 * last running row (its cache rows copied), so that the running rows stay contiguous.
 *
 * Positions. A row's `token` is the last token sampled and `position` its place in the sequence:
 * the next decode step writes its key and value there and samples the token after it. A sequence
 * ends once max_tokens are sampled, or its last token sits at position T - 1 (the context is
 * full), or it samples the end token or completes a stop string.
 *
 * Threads. The engine's thread owns the rows and every running request's state; the waiting queue
 * is shared with hr_gen_submit under `mu`. A request has two references, the caller's and the
 * engine's: hr_gen_release drops the first and cancels, the `done` event the second. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "generate/generate_internal.h"

struct hr_gen_request {
  atomic_int refs;
  atomic_bool cancelled;
  hr_gen_params params; /* stop strings point into stop_bytes */
  char stop_bytes[HR_LIMIT_GEN_STOP_STRINGS][HR_LIMIT_GEN_STOP_BYTES];
  int32_t *tokens; /* the prompt, then what was sampled: room for T + 1 */
  int n_prompt, n_gen, released;
  hr_gen_sink sink;
  void *ctx;
  hr_gen_rng rng;
  double submitted, started, first, last; /* monotonic seconds */
  struct hr_gen_request *next;            /* the waiting queue */
};

/* One slot's running sequence. */
typedef struct row {
  hr_gen_request *req;
} row;

struct hr_gen_engine {
  hr_gen_model *m;
  int slots;          /* rows */
  unsigned char **cache; /* per cache tensor: slots rows, 64-byte aligned */
  int32_t *token, *position; /* per row: the decode step's inputs */
  float *logits;              /* decode's logits, slots x V */
  float *prefill_logits;      /* prefill's, prefill_batch x V */
  int32_t *prefill_tokens, *prefill_lengths; /* prefill_batch x T, prefill_batch */
  hr_tensor *in, *out;        /* views for a run: N + 2 inputs, N + 1 outputs */
  hr_tensor **in_p, **out_p;
  hr_gen_sampler sampler;
  row *rows;
  int n_active;
  pthread_t thread;
  bool thread_started;
  bool free_on_exit; /* hr_gen_engine_free was called on the engine's own thread (from a sink) */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  hr_gen_request *head, *tail; /* waiting, oldest first */
  int n_waiting;
  bool stopping;
  atomic_int active;
  atomic_uint_fast64_t steps;
};

hr_gen_params hr_gen_default_params(void) {
  return (hr_gen_params){.max_tokens = 16, .temperature = 0, .top_k = 0, .top_p = 1, .end_token = -1};
}

const char *hr_gen_finish_name(hr_gen_finish f) {
  switch (f) {
  case HR_GEN_LENGTH: return "length";
  case HR_GEN_STOP: return "stop";
  case HR_GEN_CANCELLED: return "cancelled";
  case HR_GEN_ERROR: return "error";
  case HR_GEN_RUNNING: break;
  }
  return "running";
}

hr_status hr_gen_check_params(const hr_gen_model *m, const hr_gen_params *p) {
  if (p->max_tokens < 0) return hr_error(HR_INVALID_ARGUMENT, "max_tokens is %d, it must be >= 0", p->max_tokens);
  if (!(p->temperature >= 0) || p->temperature > 1e6)
    return hr_error(HR_INVALID_ARGUMENT, "temperature must be a number from 0 to 1e6");
  if (p->top_k < 0) return hr_error(HR_INVALID_ARGUMENT, "top_k is %d, it must be >= 0", p->top_k);
  if (!(p->top_p > 0 && p->top_p <= 1)) return hr_error(HR_INVALID_ARGUMENT, "top_p must be in (0, 1]");
  if (p->end_token < -1 || p->end_token >= m->vocab)
    return hr_error(HR_INVALID_ARGUMENT, "end token %d is not a token of the vocabulary (0 to %d)", p->end_token,
                    m->vocab - 1);
  if (p->n_stop < 0 || p->n_stop > HR_LIMIT_GEN_STOP_STRINGS)
    return hr_error(HR_INVALID_ARGUMENT, "%d stop strings, at most %d", p->n_stop, HR_LIMIT_GEN_STOP_STRINGS);
  if (p->n_stop > 0 && m->vocab > 256)
    return hr_error(HR_INVALID_ARGUMENT, "stop strings need a byte vocabulary (256 tokens), the model has %d", m->vocab);
  for (int k = 0; k < p->n_stop; k++)
    if (p->stop_len[k] < 1 || p->stop_len[k] > HR_LIMIT_GEN_STOP_BYTES)
      return hr_error(HR_INVALID_ARGUMENT, "stop string %d has %zu bytes, it must have 1 to %d", k, p->stop_len[k],
                      HR_LIMIT_GEN_STOP_BYTES);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Requests                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Drops one reference; the last frees the request. */
static void unref(hr_gen_request *r) {
  if (atomic_fetch_sub(&r->refs, 1) != 1) return;
  free(r->tokens);
  free(r);
}

void hr_gen_cancel(hr_gen_request *r) { atomic_store(&r->cancelled, true); }

void hr_gen_release(hr_gen_request *r) {
  if (!r) return;
  hr_gen_cancel(r);
  unref(r);
}

/* Gives the sink the tokens sampled up to `upto` not given out yet. */
static void give_out(hr_gen_request *r, int upto, double gap) {
  if (upto <= r->released) return;
  hr_gen_event ev = {.tokens = r->tokens + r->n_prompt + r->released,
                     .n_tokens = upto - r->released,
                     .prompt_tokens = r->n_prompt,
                     .completion_tokens = r->n_gen,
                     .seed = r->params.seed,
                     .queued_seconds = r->started - r->submitted,
                     .first_token_seconds = r->first - r->submitted,
                     .token_gap_seconds = gap};
  r->released = upto;
  r->sink(r->ctx, &ev);
}

/* Ends a request: what is held back is given out unless a stop string ended it, then `done`; the
 * engine's reference is dropped. */
static void finish_request(hr_gen_request *r, hr_gen_finish why, const char *message) {
  if (why == HR_GEN_LENGTH) give_out(r, r->n_gen, 0);
  double decode = r->last - r->first;
  hr_gen_event ev = {.done = true,
                     .finish = why,
                     .message = message,
                     .prompt_tokens = r->n_prompt,
                     .completion_tokens = r->n_gen,
                     .seed = r->params.seed,
                     .queued_seconds = r->started > 0 ? r->started - r->submitted : 0,
                     .first_token_seconds = r->first > 0 ? r->first - r->submitted : 0,
                     .decode_tokens_per_second = r->n_gen > 1 && decode > 0 ? (r->n_gen - 1) / decode : 0};
  r->sink(r->ctx, &ev);
  unref(r);
}

hr_status hr_gen_submit(hr_gen_engine *e, const int32_t *prompt, int n_prompt, const hr_gen_params *p,
                        hr_gen_sink sink, void *ctx, hr_gen_request **out) {
  *out = NULL;
  const hr_gen_model *m = e->m;
  HR_TRY(hr_gen_check_params(m, p));
  if (n_prompt < 1 || n_prompt > m->context)
    return hr_error(HR_INVALID_ARGUMENT, "the prompt has %d tokens, the model takes 1 to %d", n_prompt, m->context);
  for (int i = 0; i < n_prompt; i++)
    if (prompt[i] < 0 || prompt[i] >= m->vocab)
      return hr_error(HR_INVALID_ARGUMENT, "prompt token %d is %d, not a token of the vocabulary (0 to %d)", i,
                      prompt[i], m->vocab - 1);
  hr_gen_request *r = calloc(1, sizeof *r);
  int32_t *tokens = calloc((size_t)m->context + 1, sizeof *tokens);
  if (!r || !tokens) {
    free(r);
    free(tokens);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  atomic_init(&r->refs, 2);
  atomic_init(&r->cancelled, false);
  r->params = *p;
  for (int k = 0; k < p->n_stop; k++) {
    memcpy(r->stop_bytes[k], p->stop[k], p->stop_len[k]);
    r->params.stop[k] = r->stop_bytes[k];
  }
  r->tokens = tokens;
  memcpy(tokens, prompt, (size_t)n_prompt * sizeof *tokens);
  r->n_prompt = n_prompt;
  r->sink = sink;
  r->ctx = ctx;
  r->rng.state = p->seed;
  r->submitted = hr_monotonic_seconds();
  pthread_mutex_lock(&e->mu);
  hr_status s = NULL;
  if (e->stopping) s = hr_error(HR_CANCELLED, "the generation engine is stopping");
  else if (e->n_waiting >= HR_LIMIT_GEN_WAITING)
    s = hr_error(HR_RESOURCE_EXHAUSTED, "%d generation requests wait already", e->n_waiting);
  if (!s) {
    if (e->tail) e->tail->next = r;
    else e->head = r;
    e->tail = r;
    e->n_waiting++;
    pthread_cond_signal(&e->cv);
  }
  pthread_mutex_unlock(&e->mu);
  if (s) {
    free(tokens);
    free(r);
    return s;
  }
  *out = r;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Rows                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Ends the sequence of row i and gives the row the last running one (before the sink hears of the
 * end, so that what it then reads of the engine counts the row free). */
static void end_row(hr_gen_engine *e, int i, hr_gen_finish why, const char *message) {
  hr_gen_request *r = e->rows[i].req;
  int last = --e->n_active;
  if (i != last) {
    e->rows[i] = e->rows[last];
    e->token[i] = e->token[last];
    e->position[i] = e->position[last];
    for (int k = 0; k < e->m->n_cache; k++) {
      size_t rb = e->m->row_bytes[k];
      memcpy(e->cache[k] + (size_t)i * rb, e->cache[k] + (size_t)last * rb, rb);
    }
  }
  e->rows[last].req = NULL;
  atomic_store(&e->active, e->n_active);
  finish_request(r, why, message);
}

/* Takes the token sampled for row i, at `position`: gives out what it can and ends the sequence
 * when it is over; else it becomes the row's next decode input. */
static void take_token(hr_gen_engine *e, int i, int32_t token, int position) {
  hr_gen_request *r = e->rows[i].req;
  double now = hr_monotonic_seconds(), gap = r->first > 0 ? now - r->last : 0;
  if (r->first == 0) r->first = now;
  r->last = now;
  if (token == r->params.end_token) {
    end_row(e, i, HR_GEN_STOP, NULL);
    return;
  }
  r->tokens[r->n_prompt + r->n_gen++] = token;
  bool stop = false;
  int upto = r->params.n_stop ? hr_gen_releasable(r->tokens + r->n_prompt, r->n_gen, &r->params, &stop) : r->n_gen;
  give_out(r, upto, gap);
  if (stop) end_row(e, i, HR_GEN_STOP, NULL);
  else if (r->n_gen >= r->params.max_tokens || position >= e->m->context - 1) end_row(e, i, HR_GEN_LENGTH, NULL);
  else {
    e->token[i] = token;
    e->position[i] = position;
  }
}

/* Ends every cancelled running sequence. */
static void drop_cancelled(hr_gen_engine *e) {
  for (int i = e->n_active - 1; i >= 0; i--)
    if (atomic_load(&e->rows[i].req->cancelled)) end_row(e, i, HR_GEN_CANCELLED, NULL);
}

/* A view of `data` as a tensor of `spec` with its batch (a dynamic dimension 0) set to `b`, any
 * other dynamic dimension (prefill's prompt length) to `len`. */
static void view(hr_tensor *t, hr_tensor_spec spec, int b, int len, void *data) {
  for (int d = 0; d < spec.shape.rank; d++)
    if (spec.shape.dims[d] == HR_DYNAMIC) spec.shape.dims[d] = d == 0 ? b : len;
  int64_t n = 0;
  hr_status_free(hr_shape_num_elements(&spec.shape, &n)); /* sized when the engine was made */
  *t = (hr_tensor){.dtype = spec.dtype, .shape = spec.shape, .data = data, .nbytes = (size_t)n * hr_dtype_size(spec.dtype)};
}

/* ---------------------------------------------------------------------------------------------- */
/* Steps                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Prefills `k` (a bucket) requests whose prompts fit length bucket `li` into rows [n_active,
 * n_active + k), which then run; samples each one's first token. */
static void prefill(hr_gen_engine *e, hr_gen_request **reqs, int k, int li) {
  hr_gen_model *m = e->m;
  int len = m->lengths[li], r0 = e->n_active, V = m->vocab;
  double now = hr_monotonic_seconds();
  memset(e->prefill_tokens, 0, (size_t)k * (size_t)len * sizeof *e->prefill_tokens);
  for (int j = 0; j < k; j++) {
    reqs[j]->started = now;
    memcpy(e->prefill_tokens + (size_t)j * (size_t)len, reqs[j]->tokens, (size_t)reqs[j]->n_prompt * sizeof(int32_t));
    e->prefill_lengths[j] = reqs[j]->n_prompt;
    e->rows[r0 + j].req = reqs[j];
  }
  view(&e->in[0], hr_program_input_spec(m->prefill, 0), k, len, e->prefill_tokens);
  view(&e->in[1], hr_program_input_spec(m->prefill, 1), k, len, e->prefill_lengths);
  view(&e->out[0], hr_program_output_spec(m->prefill, 0), k, len, e->prefill_logits);
  for (int c = 0; c < m->n_cache; c++)
    view(&e->out[c + 1], hr_program_output_spec(m->prefill, c + 1), k, len,
         e->cache[c] + (size_t)r0 * m->row_bytes[c]);
  hr_status s = hr_executable_run_into(m->prefill_exe[hr_gen_bucket_index(k)][li], e->in_p, 2, NULL, e->out_p,
                                       m->n_cache + 1);
  e->n_active += k;
  atomic_store(&e->active, e->n_active);
  for (int j = k - 1; j >= 0; j--) {
    if (s) end_row(e, r0 + j, HR_GEN_ERROR, hr_status_message(s));
    else take_token(e, r0 + j, hr_gen_sample(&e->sampler, e->prefill_logits + (size_t)j * (size_t)V, &reqs[j]->params,
                                             &reqs[j]->rng), reqs[j]->n_prompt);
  }
  hr_status_free(s);
}

/* Runs one decode step for the running rows and samples each one's next token. */
static void decode(hr_gen_engine *e) {
  hr_gen_model *m = e->m;
  int n = e->n_active, bi = hr_gen_bucket_index(n), b = 1 << bi, N = m->n_cache;
  for (int i = n; i < b; i++) e->token[i] = e->position[i] = 0;
  for (int c = 0; c < N; c++) {
    view(&e->in[c], hr_program_input_spec(m->decode, c), b, 0, e->cache[c]);
    e->out[c + 1] = e->in[c]; /* in place: the cache's own buffers */
  }
  view(&e->in[N], hr_program_input_spec(m->decode, N), b, 0, e->token);
  view(&e->in[N + 1], hr_program_input_spec(m->decode, N + 1), b, 0, e->position);
  view(&e->out[0], hr_program_output_spec(m->decode, 0), b, 0, e->logits);
  hr_status s = hr_executable_run_into(m->decode_exe[bi], e->in_p, N + 2, NULL, e->out_p, N + 1);
  atomic_fetch_add(&e->steps, 1);
  for (int i = n - 1; i >= 0; i--) {
    hr_gen_request *r = e->rows[i].req;
    if (s) end_row(e, i, HR_GEN_ERROR, hr_status_message(s));
    else take_token(e, i, hr_gen_sample(&e->sampler, e->logits + (size_t)i * (size_t)m->vocab, &r->params, &r->rng),
                    e->position[i] + 1);
  }
  hr_status_free(s);
}

/* Takes up to `max` waiting requests (oldest first). Call with `mu`. */
static int take_waiting(hr_gen_engine *e, hr_gen_request **out, int max) {
  int n = 0;
  while (n < max && e->head) {
    out[n++] = e->head;
    e->head = e->head->next;
    e->n_waiting--;
  }
  if (!e->head) e->tail = NULL;
  return n;
}

/* Admits waiting requests into free rows: each cancelled or with nothing to generate ends at once;
 * the others are prefilled by prompt length bucket, in power-of-two batches (largest first). */
static void admit(hr_gen_engine *e, hr_gen_request **joining, int n) {
  int k = 0;
  for (int j = 0; j < n; j++) {
    hr_gen_request *r = joining[j];
    if (atomic_load(&r->cancelled)) finish_request(r, HR_GEN_CANCELLED, NULL);
    else if (r->params.max_tokens == 0 || r->n_prompt >= e->m->context) finish_request(r, HR_GEN_LENGTH, NULL);
    else joining[k++] = r;
  }
  for (int i = 1; i < k; i++) { /* by length bucket: an insertion sort of at most a prefill batch */
    hr_gen_request *r = joining[i];
    int li = hr_gen_length_index(e->m, r->n_prompt), j = i;
    for (; j > 0 && hr_gen_length_index(e->m, joining[j - 1]->n_prompt) > li; j--) joining[j] = joining[j - 1];
    joining[j] = r;
  }
  for (int at = 0; at < k;) {
    int li = hr_gen_length_index(e->m, joining[at]->n_prompt), same = 1, b = 1;
    while (at + same < k && hr_gen_length_index(e->m, joining[at + same]->n_prompt) == li) same++;
    while (b * 2 <= same) b *= 2;
    prefill(e, joining + at, b, li);
    at += b;
  }
}

static void clean_up(hr_gen_engine *e);

/* The engine's thread: admit, step, until stopped. */
static void *engine_main(void *arg) {
  hr_gen_engine *e = arg;
  hr_gen_request *joining[HR_LIMIT_GEN_PREFILL_BATCH];
  for (;;) {
    pthread_mutex_lock(&e->mu);
    while (!e->stopping && e->n_active == 0 && !e->head) pthread_cond_wait(&e->cv, &e->mu);
    if (e->stopping) {
      pthread_mutex_unlock(&e->mu);
      break;
    }
    int free_rows = e->slots - e->n_active;
    int n = take_waiting(e, joining, free_rows < e->m->prefill_batch ? free_rows : e->m->prefill_batch);
    pthread_mutex_unlock(&e->mu);
    drop_cancelled(e);
    admit(e, joining, n);
    if (e->n_active > 0) decode(e);
  }
  if (e->free_on_exit) clean_up(e);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Creation                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Allocates the engine's buffers: the cache and the runs' inputs and outputs. */
static hr_status allocate(hr_gen_engine *e) {
  hr_gen_model *m = e->m;
  int N = m->n_cache, S = e->slots, P = m->prefill_batch;
  size_t V = (size_t)m->vocab, T = (size_t)m->context;
  e->cache = calloc((size_t)N, sizeof *e->cache);
  e->token = calloc((size_t)S, sizeof *e->token);
  e->position = calloc((size_t)S, sizeof *e->position);
  e->logits = calloc((size_t)S * V, sizeof *e->logits);
  e->prefill_logits = calloc((size_t)P * V, sizeof *e->prefill_logits);
  e->prefill_tokens = calloc((size_t)P * T, sizeof *e->prefill_tokens);
  e->prefill_lengths = calloc((size_t)P, sizeof *e->prefill_lengths);
  e->in = calloc((size_t)N + 2, sizeof *e->in);
  e->out = calloc((size_t)N + 1, sizeof *e->out);
  e->in_p = calloc((size_t)N + 2, sizeof *e->in_p);
  e->out_p = calloc((size_t)N + 1, sizeof *e->out_p);
  e->rows = calloc((size_t)S, sizeof *e->rows);
  if (!e->cache || !e->token || !e->position || !e->logits || !e->prefill_logits || !e->prefill_tokens ||
      !e->prefill_lengths || !e->in || !e->out || !e->in_p || !e->out_p || !e->rows)
    return hr_error(HR_OUT_OF_MEMORY, "out of memory for a generation engine");
  for (int i = 0; i < N + 2; i++) e->in_p[i] = &e->in[i];
  for (int i = 0; i < N + 1; i++) e->out_p[i] = &e->out[i];
  for (int c = 0; c < N; c++) {
    size_t bytes = m->row_bytes[c] * (size_t)S; /* bounded by size_cache */
    e->cache[c] = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
    if (!e->cache[c]) return hr_error(HR_OUT_OF_MEMORY, "out of memory for a KV cache of %zu bytes", bytes);
    memset(e->cache[c], 0, bytes);
  }
  return hr_gen_sampler_init(&e->sampler, m->vocab);
}

/* Frees what allocate made. */
static void release_buffers(hr_gen_engine *e) {
  for (int c = 0; e->cache && c < e->m->n_cache; c++) free(e->cache[c]);
  free(e->cache);
  free(e->token);
  free(e->position);
  free(e->logits);
  free(e->prefill_logits);
  free(e->prefill_tokens);
  free(e->prefill_lengths);
  free(e->in);
  free(e->out);
  free(e->in_p);
  free(e->out_p);
  free(e->rows);
  hr_gen_sampler_free(&e->sampler);
}

hr_status hr_gen_engine_create(hr_gen_model *m, hr_gen_engine **out) {
  *out = NULL;
  hr_gen_engine *e = calloc(1, sizeof *e);
  if (!e) {
    hr_gen_model_free(m);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  e->m = m;
  e->slots = m->slots;
  pthread_mutex_init(&e->mu, NULL);
  pthread_cond_init(&e->cv, NULL);
  hr_status s = allocate(e);
  if (!s && pthread_create(&e->thread, NULL, engine_main, e) != 0)
    s = hr_error(HR_RESOURCE_EXHAUSTED, "cannot start the generation thread");
  if (s) {
    clean_up(e);
    return s;
  }
  e->thread_started = true;
  *out = e;
  return NULL;
}

/* Ends what still runs or waits (cancelled), frees the buffers, the model and the engine. */
static void clean_up(hr_gen_engine *e) {
  while (e->n_active > 0) end_row(e, e->n_active - 1, HR_GEN_CANCELLED, "the generation engine stopped");
  hr_gen_request *waiting[1];
  while (take_waiting(e, waiting, 1) == 1) finish_request(waiting[0], HR_GEN_CANCELLED, "the generation engine stopped");
  release_buffers(e);
  hr_gen_model_free(e->m);
  pthread_mutex_destroy(&e->mu);
  pthread_cond_destroy(&e->cv);
  free(e);
}

void hr_gen_engine_free(hr_gen_engine *e) {
  if (!e) return;
  bool own_thread = e->thread_started && pthread_equal(pthread_self(), e->thread);
  pthread_mutex_lock(&e->mu);
  e->stopping = true;
  e->free_on_exit = own_thread;
  pthread_cond_signal(&e->cv);
  pthread_mutex_unlock(&e->mu);
  if (own_thread) { /* called from a sink: the thread ends after this step and frees the engine */
    pthread_detach(e->thread);
    return;
  }
  if (e->thread_started) pthread_join(e->thread, NULL);
  clean_up(e);
}

hr_gen_engine_stats hr_gen_engine_stats_now(hr_gen_engine *e) {
  pthread_mutex_lock(&e->mu);
  int waiting = e->n_waiting;
  pthread_mutex_unlock(&e->mu);
  return (hr_gen_engine_stats){.active = atomic_load(&e->active), .waiting = waiting, .steps = atomic_load(&e->steps)};
}

const hr_gen_model *hr_gen_engine_model(const hr_gen_engine *e) { return e->m; }

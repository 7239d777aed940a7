/* Generation requests (docs/generation.md): the JSON body of `:generate` and of OpenAI's
 * `/v1/completions` read into sampling parameters, a prompt and the answer's form. Untrusted: every
 * string, array and number is bounded (the prompt by the request size, stop strings by
 * HR_LIMIT_GEN_STOP_STRINGS and HR_LIMIT_GEN_STOP_BYTES); members hlorun does not know (OpenAI's
 * many options) are skipped. The engine checks the values against the model (hr_gen_submit). */
#include "server/generation_request.h"

#include <stdlib.h>
#include <string.h>

#include "server/common.h"
#include "server/json.h"

/* A member's number as an integer in [lo, hi]. */
static hr_status read_int(srv_json *r, const char *key, int64_t lo, int64_t hi, int64_t *out) {
  srv_json_num n;
  if (srv_json_peek(r) != SRV_JSON_NUMBER) return srv_json_error(r, "\"%s\" must be an integer", key);
  HR_TRY(srv_json_number(r, &n));
  if (!srv_json_to_i64(&n, out) || *out < lo || *out > hi)
    return srv_json_error(r, "\"%s\" must be an integer from %lld to %lld", key, (long long)lo, (long long)hi);
  return NULL;
}

/* A member's number as a double. */
static hr_status read_double(srv_json *r, const char *key, double *out) {
  srv_json_num n;
  if (srv_json_peek(r) != SRV_JSON_NUMBER) return srv_json_error(r, "\"%s\" must be a number", key);
  HR_TRY(srv_json_number(r, &n));
  if (!srv_json_to_double(&n, out)) return srv_json_error(r, "\"%s\" is out of range", key);
  return NULL;
}

/* "prompt": a string, or an array of token ids. */
static hr_status read_prompt(srv_json *r, srv_gen_request *g) {
  /* A repeated "prompt" member is refused: a second array would append to the first's tokens. */
  if (g->prompt.data || g->prompt_tokens) return srv_json_error(r, "\"prompt\" is given twice");
  if (srv_json_peek(r) == SRV_JSON_STRING) return srv_json_string(r, &g->prompt, HR_LIMIT_REQUEST_BYTES);
  if (srv_json_peek(r) != SRV_JSON_ARRAY) return srv_json_error(r, "\"prompt\" must be a string or an array of token ids");
  HR_TRY(srv_json_enter(r, '['));
  bool first = true, more = true;
  int cap = 0;
  while (more) {
    HR_TRY(srv_json_next(r, ']', &first, &more));
    if (!more) break;
    int64_t t;
    HR_TRY(read_int(r, "prompt", 0, HR_LIMIT_GEN_VOCAB - 1, &t));
    if (g->n_prompt_tokens == cap) {
      if (cap >= HR_LIMIT_GEN_VOCAB) return srv_json_error(r, "\"prompt\" has too many tokens");
      cap = cap ? cap * 2 : 64;
      int32_t *grown = realloc(g->prompt_tokens, (size_t)cap * sizeof *grown);
      if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
      g->prompt_tokens = grown;
    }
    g->prompt_tokens[g->n_prompt_tokens++] = (int32_t)t;
  }
  if (g->n_prompt_tokens == 0) return srv_json_error(r, "\"prompt\" is empty");
  return NULL;
}

/* "stop": a string, an array of strings, or null. */
static hr_status read_stop(srv_json *r, srv_gen_request *g) {
  hr_gen_params *p = &g->params;
  srv_json_kind k = srv_json_peek(r);
  if (k == SRV_JSON_LITERAL) return srv_json_skip(r);
  bool array = k == SRV_JSON_ARRAY, first = true, more = true;
  if (array) HR_TRY(srv_json_enter(r, '['));
  while (more) {
    if (array) {
      HR_TRY(srv_json_next(r, ']', &first, &more));
      if (!more) break;
    }
    if (p->n_stop == HR_LIMIT_GEN_STOP_STRINGS)
      return srv_json_error(r, "\"stop\" holds more than %d strings", HR_LIMIT_GEN_STOP_STRINGS);
    if (srv_json_peek(r) != SRV_JSON_STRING) return srv_json_error(r, "\"stop\" must be a string or an array of strings");
    hr_strbuf *sb = &g->stop[p->n_stop];
    HR_TRY(srv_json_string(r, sb, HR_LIMIT_GEN_STOP_BYTES));
    if (!sb->data || sb->len == 0) return srv_json_error(r, "\"stop\" strings must not be empty");
    p->stop[p->n_stop] = sb->data;
    p->stop_len[p->n_stop++] = sb->len;
    more = array && more;
  }
  return NULL;
}

/* Reads one member of the request object. Unknown members (OpenAI's many options) are skipped. */
static hr_status read_member(srv_json *r, const char *key, srv_gen_request *g) {
  hr_gen_params *p = &g->params;
  int64_t v;
  if (strcmp(key, "prompt") == 0) return read_prompt(r, g);
  if (strcmp(key, "stop") == 0) return read_stop(r, g);
  if (strcmp(key, "temperature") == 0) return read_double(r, key, &p->temperature);
  if (strcmp(key, "top_p") == 0) return read_double(r, key, &p->top_p);
  if (strcmp(key, "max_tokens") == 0) {
    HR_TRY(read_int(r, key, 0, INT32_MAX, &v));
    p->max_tokens = (int)v;
  } else if (strcmp(key, "top_k") == 0) {
    HR_TRY(read_int(r, key, 0, INT32_MAX, &v));
    p->top_k = (int)v;
  } else if (strcmp(key, "end_byte") == 0) {
    HR_TRY(read_int(r, key, 0, HR_LIMIT_GEN_VOCAB - 1, &v));
    p->end_token = (int)v;
  } else if (strcmp(key, "seed") == 0) {
    HR_TRY(read_int(r, key, 0, INT64_MAX, &v));
    p->seed = (uint64_t)v;
    g->seeded = true;
  } else if (strcmp(key, "n") == 0) {
    HR_TRY(read_int(r, key, 1, 1, &v));
  } else if (strcmp(key, "stream") == 0) {
    bool is_null;
    if (srv_json_peek(r) != SRV_JSON_LITERAL) return srv_json_error(r, "\"stream\" must be true or false");
    HR_TRY(srv_json_literal(r, &g->stream, &is_null));
  } else if (strcmp(key, "model") == 0) {
    hr_strbuf name;
    hr_strbuf_init(&name, NULL);
    hr_status s = srv_json_peek(r) == SRV_JSON_STRING ? srv_json_string(r, &name, sizeof g->model - 1)
                                                      : srv_json_error(r, "\"model\" must be a string");
    if (!s && name.data) memcpy(g->model, name.data, name.len + 1);
    hr_strbuf_free(&name);
    return s;
  } else {
    return srv_json_skip(r);
  }
  return NULL;
}

hr_status srv_gen_request_parse(const char *body, size_t len, int max_depth, bool openai, srv_gen_request *g) {
  memset(g, 0, sizeof *g);
  hr_strbuf_init(&g->prompt, NULL);
  for (int k = 0; k < HR_LIMIT_GEN_STOP_STRINGS; k++) hr_strbuf_init(&g->stop[k], NULL);
  g->params = hr_gen_default_params();
  if (openai) g->params.temperature = 1;
  srv_json r;
  srv_json_init(&r, body, len, max_depth);
  if (srv_json_peek(&r) != SRV_JSON_OBJECT) return srv_json_error(&r, "the request must be a JSON object");
  HR_TRY(srv_json_enter(&r, '{'));
  bool first = true, more = true;
  while (more) {
    HR_TRY(srv_json_next(&r, '}', &first, &more));
    if (!more) break;
    char key[64];
    HR_TRY(srv_json_key(&r, key, sizeof key));
    HR_TRY(read_member(&r, key, g));
  }
  HR_TRY(srv_json_finish(&r));
  if (!g->prompt.data && !g->prompt_tokens) return hr_error(HR_INVALID_ARGUMENT, "the request has no \"prompt\"");
  if (g->prompt.data && g->prompt.len > INT32_MAX) return hr_error(HR_INVALID_ARGUMENT, "the prompt is too long");
  if (!g->seeded) g->params.seed = srv_random_u64(); /* the answer says which */
  return NULL;
}

void srv_gen_request_free(srv_gen_request *g) {
  hr_strbuf_free(&g->prompt);
  free(g->prompt_tokens);
  for (int k = 0; k < HR_LIMIT_GEN_STOP_STRINGS; k++) hr_strbuf_free(&g->stop[k]);
}


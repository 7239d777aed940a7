/* The generation engine (src/generate) on a toy model whose next token is the sum of the sequence
 * so far modulo 16 (context 8, vocabulary 16, its "cache" the tokens themselves): greedy sequences
 * equal a C reference alone and in a running batch that requests join and leave, more requests
 * than slots wait their turn, stop strings are held back and cut, the end token and max_tokens
 * stop, cancelled requests end, bad requests and models that break the convention are refused;
 * and the sampler and stop-string units alone. */
#include <pthread.h>

#include "generate/generate.h"
#include "test.h"

static const char *const toy_mlir =
    "func.func public @prefill(%tok: tensor<?x8xi32>, %len: tensor<?xi32>) -> (tensor<?x16xf32>, tensor<?x8xi32>) {\n"
    "  %s8 = func.call @shape(%len) : (tensor<?xi32>) -> tensor<2xi32>\n"
    "  %i8 = stablehlo.iota dim = 0 : tensor<8xi32>\n"
    "  %ib = stablehlo.dynamic_broadcast_in_dim %i8, %s8, dims = [1] : (tensor<8xi32>, tensor<2xi32>) -> tensor<?x8xi32>\n"
    "  %lb = stablehlo.dynamic_broadcast_in_dim %len, %s8, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x8xi32>\n"
    "  %m = stablehlo.compare LT, %ib, %lb, SIGNED : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi1>\n"
    "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %zb = stablehlo.dynamic_broadcast_in_dim %z, %s8, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x8xi32>\n"
    "  %kept = stablehlo.select %m, %tok, %zb : tensor<?x8xi1>, tensor<?x8xi32>\n"
    "  %sum = stablehlo.reduce(%kept init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x8xi32>, tensor<i32>) -> tensor<?xi32>\n"
    "  %logits = func.call @one_hot(%sum) : (tensor<?xi32>) -> tensor<?x16xf32>\n"
    "  return %logits, %tok : tensor<?x16xf32>, tensor<?x8xi32>\n"
    "}\n"
    "func.func public @decode(%cache: tensor<?x8xi32> {tf.aliasing_output = 1 : i32}, %t: tensor<?xi32>, %p: tensor<?xi32>) -> (tensor<?x16xf32>, tensor<?x8xi32>) {\n"
    "  %s8 = func.call @shape(%p) : (tensor<?xi32>) -> tensor<2xi32>\n"
    "  %i8 = stablehlo.iota dim = 0 : tensor<8xi32>\n"
    "  %ib = stablehlo.dynamic_broadcast_in_dim %i8, %s8, dims = [1] : (tensor<8xi32>, tensor<2xi32>) -> tensor<?x8xi32>\n"
    "  %pb = stablehlo.dynamic_broadcast_in_dim %p, %s8, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x8xi32>\n"
    "  %tb = stablehlo.dynamic_broadcast_in_dim %t, %s8, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x8xi32>\n"
    "  %at = stablehlo.compare EQ, %ib, %pb, SIGNED : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi1>\n"
    "  %new = stablehlo.select %at, %tb, %cache : tensor<?x8xi1>, tensor<?x8xi32>\n"
    "  %upto = stablehlo.compare LE, %ib, %pb, SIGNED : (tensor<?x8xi32>, tensor<?x8xi32>) -> tensor<?x8xi1>\n"
    "  %z = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %zb = stablehlo.dynamic_broadcast_in_dim %z, %s8, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x8xi32>\n"
    "  %kept = stablehlo.select %upto, %new, %zb : tensor<?x8xi1>, tensor<?x8xi32>\n"
    "  %sum = stablehlo.reduce(%kept init: %z) applies stablehlo.add across dimensions = [1] : (tensor<?x8xi32>, tensor<i32>) -> tensor<?xi32>\n"
    "  %logits = func.call @one_hot(%sum) : (tensor<?xi32>) -> tensor<?x16xf32>\n"
    "  return %logits, %new : tensor<?x16xf32>, tensor<?x8xi32>\n"
    "}\n"
    "func.func private @shape(%v: tensor<?xi32>) -> tensor<2xi32> {\n"
    "  %b = stablehlo.get_dimension_size %v, dim = 0 : (tensor<?xi32>) -> tensor<i32>\n"
    "  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>\n"
    "  %c8 = stablehlo.constant dense<8> : tensor<1xi32>\n"
    "  %s = stablehlo.concatenate %b1, %c8, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "  return %s : tensor<2xi32>\n"
    "}\n"
    "func.func private @one_hot(%s: tensor<?xi32>) -> tensor<?x16xf32> {\n"
    "  %b = stablehlo.get_dimension_size %s, dim = 0 : (tensor<?xi32>) -> tensor<i32>\n"
    "  %b1 = stablehlo.reshape %b : (tensor<i32>) -> tensor<1xi32>\n"
    "  %c16 = stablehlo.constant dense<16> : tensor<1xi32>\n"
    "  %s16 = stablehlo.concatenate %b1, %c16, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "  %k = stablehlo.constant dense<16> : tensor<i32>\n"
    "  %kb = stablehlo.dynamic_broadcast_in_dim %k, %b1, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>\n"
    "  %r = stablehlo.remainder %s, %kb : tensor<?xi32>\n"
    "  %i16 = stablehlo.iota dim = 0 : tensor<16xi32>\n"
    "  %ib = stablehlo.dynamic_broadcast_in_dim %i16, %s16, dims = [1] : (tensor<16xi32>, tensor<2xi32>) -> tensor<?x16xi32>\n"
    "  %rb = stablehlo.dynamic_broadcast_in_dim %r, %s16, dims = [0] : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x16xi32>\n"
    "  %eq = stablehlo.compare EQ, %ib, %rb, SIGNED : (tensor<?x16xi32>, tensor<?x16xi32>) -> tensor<?x16xi1>\n"
    "  %one = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "  %zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %oneb = stablehlo.dynamic_broadcast_in_dim %one, %s16, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>\n"
    "  %zerob = stablehlo.dynamic_broadcast_in_dim %zero, %s16, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x16xf32>\n"
    "  %out = stablehlo.select %eq, %oneb, %zerob : tensor<?x16xi1>, tensor<?x16xf32>\n"
    "  return %out : tensor<?x16xf32>\n"
    "}\n";

/* The next token of the toy model after `seq`. */
static int32_t toy_next(const int32_t *seq, int n) {
  int32_t s = 0;
  for (int i = 0; i < n; i++) s += seq[i];
  return s % 16;
}

/* A generation model over the toy module with `slots` slots. */
static hr_gen_model *toy_model(const char *text, int slots, hr_status *err) {
  hr_module *m = NULL;
  hr_program *p = NULL, *d = NULL;
  hr_gen_model *g = NULL;
  hr_status s = hr_module_parse("toy.mlir", text, strlen(text), NULL, &m);
  if (!s) s = hr_gen_programs_from_module(m, NULL, NULL, &p, &d);
  if (!s) s = hr_gen_model_create(p, d, slots, &g);
  *err = s;
  return g;
}

/* What a request's sink collected. */
typedef struct collected {
  pthread_mutex_t *mu;
  pthread_cond_t *cv;
  int32_t tokens[64];
  int n, events;
  bool done;
  hr_gen_finish finish;
  int completion;
} collected;

static void sink(void *ctx, const hr_gen_event *ev) {
  collected *c = ctx;
  pthread_mutex_lock(c->mu);
  for (int i = 0; i < ev->n_tokens && c->n < 64; i++) c->tokens[c->n++] = ev->tokens[i];
  c->events++;
  if (ev->done) {
    c->done = true;
    c->finish = ev->finish;
    c->completion = ev->completion_tokens;
    pthread_cond_broadcast(c->cv);
  }
  pthread_mutex_unlock(c->mu);
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

/* Waits until every one of n collections is done. */
static void wait_all(collected *c, int n) {
  pthread_mutex_lock(&mu);
  for (int i = 0; i < n; i++)
    while (!c[i].done) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
}

/* Checks a greedy sequence against the reference: prompt then generated. */
static void check_reference(const int32_t *prompt, int n_prompt, const collected *c, int expect_n) {
  int32_t seq[16];
  memcpy(seq, prompt, (size_t)n_prompt * sizeof *seq);
  CHECK_EQ_INT(c->n, expect_n);
  for (int i = 0; i < c->n && n_prompt + i < 16; i++) {
    seq[n_prompt + i] = toy_next(seq, n_prompt + i);
    CHECK_EQ_INT(c->tokens[i], seq[n_prompt + i]);
  }
}

TEST(test_greedy_batch_joins_and_leaves) {
  hr_status s;
  hr_gen_model *m = toy_model(toy_mlir, 4, &s);
  CHECK_OK(s);
  if (!m) return;
  CHECK_EQ_INT(hr_gen_model_context(m), 8);
  CHECK_EQ_INT(hr_gen_model_vocab(m), 16);
  hr_gen_engine *e;
  CHECK_OK(hr_gen_engine_create(m, &e));
  /* 9 requests on 4 slots: prompts of 1 to 5 tokens, max_tokens 1 to 7, so that rows leave at
   * different steps and waiting ones take them */
  enum { N = 9 };
  collected c[N];
  hr_gen_request *r[N];
  int32_t prompts[N][5];
  for (int i = 0; i < N; i++) {
    c[i] = (collected){.mu = &mu, .cv = &cv};
    for (int j = 0; j < 5; j++) prompts[i][j] = (i * 7 + j * 3 + 1) % 16;
    hr_gen_params p = hr_gen_default_params();
    p.max_tokens = 1 + i % 7;
    CHECK_OK(hr_gen_submit(e, prompts[i], 1 + i % 5, &p, sink, &c[i], &r[i]));
  }
  wait_all(c, N);
  for (int i = 0; i < N; i++) {
    int n_prompt = 1 + i % 5, room = 8 - n_prompt, want = 1 + i % 7;
    check_reference(prompts[i], n_prompt, &c[i], want < room ? want : room);
    CHECK(c[i].finish == HR_GEN_LENGTH);
    hr_gen_release(r[i]);
  }
  CHECK_EQ_INT(hr_gen_engine_stats_now(e).active, 0);
  hr_gen_engine_free(e);
}

TEST(test_stop_string_end_token_and_cancel) {
  hr_status s;
  hr_gen_model *m = toy_model(toy_mlir, 2, &s);
  CHECK_OK(s);
  if (!m) return;
  hr_gen_engine *e;
  CHECK_OK(hr_gen_engine_create(m, &e));
  int32_t prompt[] = {1, 2}; /* then 3 6 12 8 0 0 */
  collected c[4];
  hr_gen_request *r[4];
  for (int i = 0; i < 4; i++) c[i] = (collected){.mu = &mu, .cv = &cv};
  hr_gen_params stop = hr_gen_default_params();
  stop.n_stop = 2;
  stop.stop[0] = "\x0c\x07"; /* a prefix seen (12) but never completed: given out when it is not */
  stop.stop_len[0] = 2;
  stop.stop[1] = "\x0c\x08";
  stop.stop_len[1] = 2;
  CHECK_OK(hr_gen_submit(e, prompt, 2, &stop, sink, &c[0], &r[0]));
  hr_gen_params end = hr_gen_default_params();
  end.end_token = 12;
  CHECK_OK(hr_gen_submit(e, prompt, 2, &end, sink, &c[1], &r[1]));
  hr_gen_params none = hr_gen_default_params();
  none.max_tokens = 0;
  CHECK_OK(hr_gen_submit(e, prompt, 2, &none, sink, &c[2], &r[2]));
  hr_gen_params many = hr_gen_default_params();
  CHECK_OK(hr_gen_submit(e, prompt, 2, &many, sink, &c[3], &r[3]));
  hr_gen_release(r[3]); /* cancelled at once: it ends, with whatever it had */
  wait_all(c, 3);
  CHECK(c[0].finish == HR_GEN_STOP);
  CHECK_EQ_INT(c[0].n, 2); /* 3 6, then "12 8" is the stop string */
  CHECK_EQ_INT(c[0].tokens[1], 6);
  CHECK(c[1].finish == HR_GEN_STOP);
  CHECK_EQ_INT(c[1].n, 2);
  CHECK(c[2].finish == HR_GEN_LENGTH);
  CHECK_EQ_INT(c[2].n, 0);
  for (int i = 0; i < 3; i++) hr_gen_release(r[i]);
  hr_gen_engine_free(e); /* waits for nothing: the cancelled one got its done event */
}

TEST(test_bad_requests) {
  hr_status s;
  hr_gen_model *m = toy_model(toy_mlir, 1, &s);
  CHECK_OK(s);
  if (!m) return;
  hr_gen_engine *e;
  CHECK_OK(hr_gen_engine_create(m, &e));
  collected c = {.mu = &mu, .cv = &cv};
  hr_gen_request *r;
  hr_gen_params p = hr_gen_default_params();
  int32_t long_prompt[9] = {0}, bad[] = {1, 16};
  hr_status st = hr_gen_submit(e, long_prompt, 9, &p, sink, &c, &r);
  CHECK_STR_CONTAINS(hr_status_message(st), "the prompt has 9 tokens, the model takes 1 to 8");
  hr_status_free(st);
  st = hr_gen_submit(e, bad, 2, &p, sink, &c, &r);
  CHECK_STR_CONTAINS(hr_status_message(st), "prompt token 1 is 16");
  hr_status_free(st);
  p.top_p = 0;
  st = hr_gen_submit(e, bad, 1, &p, sink, &c, &r);
  CHECK_STR_CONTAINS(hr_status_message(st), "top_p");
  hr_status_free(st);
  CHECK_EQ_INT(c.events, 0);
  hr_gen_engine_free(e);
}

TEST(test_convention_refused) {
  /* decode's position input made f32: named in the error */
  char *text = strdup(toy_mlir);
  char *at = strstr(text, "%p: tensor<?xi32>) -> (tensor<?x16xf32>");
  CHECK(at != NULL);
  if (!at) return;
  memcpy(at + 13, "f32", 3);
  hr_status s;
  hr_gen_model *m = toy_model(text, 1, &s);
  CHECK(m == NULL);
  CHECK(s != NULL);
  hr_status_free(s);
  free(text);
  /* no @decode at all */
  hr_module *mod;
  const char *only_main = "func.func public @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n";
  CHECK_OK(hr_module_parse("main.mlir", only_main, strlen(only_main), NULL, &mod));
  CHECK(!hr_gen_module_can_generate(mod));
  hr_program *p, *d;
  s = hr_gen_programs_from_module(mod, NULL, NULL, &p, &d);
  CHECK_STR_CONTAINS(hr_status_message(s), "no public @prefill and @decode");
  hr_status_free(s);
}

TEST(test_sampler) {
  hr_gen_sampler sm;
  CHECK_OK(hr_gen_sampler_init(&sm, 6));
  float logits[6] = {0.5f, 2.0f, 2.0f, -1.0f, 0.0f / 0.0f, 1.0f};
  hr_gen_params p = hr_gen_default_params();
  hr_gen_rng rng = {1};
  CHECK_EQ_INT(hr_gen_sample(&sm, logits, &p, &rng), 1); /* the first largest; NaN smallest */
  p.temperature = 1;
  p.top_k = 1;
  CHECK_EQ_INT(hr_gen_sample(&sm, logits, &p, &rng), 1);
  p.top_k = 0;
  p.top_p = 1e-9; /* only the most likely */
  CHECK_EQ_INT(hr_gen_sample(&sm, logits, &p, &rng), 1);
  /* the same seed draws the same tokens; every draw is a finite-logit token */
  p.top_p = 1;
  p.temperature = 2;
  hr_gen_rng a = {42}, b = {42};
  int counts[6] = {0};
  for (int i = 0; i < 2000; i++) {
    int32_t x = hr_gen_sample(&sm, logits, &p, &a);
    CHECK_EQ_INT(x, hr_gen_sample(&sm, logits, &p, &b));
    if (x >= 0 && x < 6) counts[x]++;
  }
  CHECK_EQ_INT(counts[4], 0);
  CHECK(counts[1] > counts[0] && counts[2] > counts[3] && counts[3] > 0);
  hr_gen_sampler_free(&sm);
}

TEST(test_releasable) {
  hr_gen_params p = hr_gen_default_params();
  p.n_stop = 2;
  p.stop[0] = "ab";
  p.stop_len[0] = 2;
  p.stop[1] = "xyz";
  p.stop_len[1] = 3;
  int32_t t[] = {'q', 'x', 'y', 'a'};
  bool stop;
  CHECK_EQ_INT(hr_gen_releasable(t, 2, &p, &stop), 1); /* "qx": x may begin xyz */
  CHECK(!stop);
  CHECK_EQ_INT(hr_gen_releasable(t, 3, &p, &stop), 1); /* "qxy" */
  CHECK_EQ_INT(hr_gen_releasable(t, 4, &p, &stop), 3); /* "qxya": y broke xyz, a may begin ab */
  int32_t u[] = {'q', 'a', 'b'};
  CHECK_EQ_INT(hr_gen_releasable(u, 3, &p, &stop), 1);
  CHECK(stop);
}

int main(void) {
  RUN(test_greedy_batch_joins_and_leaves);
  RUN(test_stop_string_end_token_and_cancel);
  RUN(test_bad_requests);
  RUN(test_convention_refused);
  RUN(test_sampler);
  RUN(test_releasable);
  TEST_MAIN_END();
}

/* Dynamic batching (server/batcher.c) with a fake model (y = 2x): concurrent tasks merge into one
 * run and get their own rows back; full queues turn tasks away at once; oversized tasks are
 * refused; batches are padded to allowed sizes; outputs that do not split by rows fall back to
 * running tasks alone; errors reach every task; stopping runs what is queued; tasks with other
 * shapes never merge. */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "server/batcher.h"
#include "test.h"

/* The fake model's state and what it saw. */
typedef struct fake {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int runs;
  int64_t rows[64]; /* rows of each run */
  bool block;       /* runs wait until this is cleared */
  bool fail;        /* runs fail */
  bool bad_rows;    /* runs of more than one row return one row */
  hr_run_control seen; /* the control of the last run */
  bool seen_cancelled; /* what its cancellation said */
} fake;

/* y = 2x over f32 tensors, with the behaviours above. */
static hr_status fake_run(void *ctx, void *owner, hr_tensor *const *inputs, int n_inputs, const hr_run_control *ctl,
                          hr_tensor ***outputs, int *n_outputs) {
  fake *f = ctx;
  pthread_mutex_lock(&f->mu);
  if (f->runs < 64) f->rows[f->runs] = inputs[0]->shape.dims[0];
  f->runs++;
  f->seen = ctl ? *ctl : (hr_run_control){0};
  f->seen_cancelled = ctl && ctl->cancelled && ctl->cancelled(ctl->cancel_ctx);
  pthread_cond_broadcast(&f->cv);
  while (f->block) pthread_cond_wait(&f->cv, &f->mu);
  bool fail = f->fail, bad = f->bad_rows && inputs[0]->shape.dims[0] > 1;
  pthread_mutex_unlock(&f->mu);
  if (fail) return hr_error(HR_INVALID_ARGUMENT, "the fake model fails");
  hr_shape shape = inputs[0]->shape;
  if (bad) shape.dims[0] = 1;
  const hr_allocator *a = hr_default_allocator();
  hr_tensor **outs = a->alloc(a->ctx, sizeof *outs, _Alignof(hr_tensor *));
  HR_TRY(hr_tensor_create(NULL, HR_F32, &shape, 0, &outs[0]));
  const float *x = inputs[0]->data;
  float *y = outs[0]->data;
  for (int64_t i = 0; i < hr_tensor_num_elements(outs[0]); i++) y[i] = 2 * x[i];
  *outputs = outs;
  *n_outputs = 1;
  return NULL;
}

static void fake_init(fake *f) {
  memset(f, 0, sizeof *f);
  pthread_mutex_init(&f->mu, NULL);
  pthread_cond_init(&f->cv, NULL);
}

static void fake_set_block(fake *f, bool block) {
  pthread_mutex_lock(&f->mu);
  f->block = block;
  pthread_cond_broadcast(&f->cv);
  pthread_mutex_unlock(&f->mu);
}

/* Waits until the fake model has started `n` runs. */
static void fake_wait_runs(fake *f, int n) {
  pthread_mutex_lock(&f->mu);
  while (f->runs < n) pthread_cond_wait(&f->cv, &f->mu);
  pthread_mutex_unlock(&f->mu);
}

/* Waits until `n` tasks are queued. */
static void wait_queued(srv_batcher *b, int64_t n) {
  while (srv_batcher_queued(b) < n) usleep(1000);
}

/* One client: a task of `rows` x `cols` floats valued first, first + 1, ... */
typedef struct client {
  srv_batcher *b;
  int64_t rows, cols;
  float first;
  hr_tensor *input;
  srv_batch_task task;
  hr_status submit_status;
  pthread_t thread;
} client;

/* Builds the client's input and task. */
static void client_prepare(client *c, srv_batcher *b, int64_t rows, int64_t cols, float first) {
  memset(c, 0, sizeof *c);
  c->b = b;
  c->rows = rows;
  c->cols = cols;
  c->first = first;
  hr_shape shape = {.rank = 2, .dims = {rows, cols}};
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &shape, 0, &c->input));
  for (int64_t i = 0; i < rows * cols; i++) ((float *)c->input->data)[i] = first + (float)i;
  c->task = (srv_batch_task){.owner = b, .model = "m", .version = 1, .inputs = &c->input, .n_inputs = 1};
}

/* Submits and waits (on the client's own thread). */
static void *client_main(void *arg) {
  client *c = arg;
  c->submit_status = srv_batcher_submit(c->b, &c->task);
  if (!c->submit_status) srv_batcher_wait(c->b, &c->task);
  return NULL;
}

static void client_start(client *c) { pthread_create(&c->thread, NULL, client_main, c); }

/* Joins the client and checks it got 2x its input; frees everything. */
static void client_finish(client *c, bool expect_ok) {
  pthread_join(c->thread, NULL);
  CHECK(c->submit_status == NULL);
  hr_status_free(c->submit_status);
  if (expect_ok) {
    CHECK_OK(c->task.status);
    CHECK_EQ_INT(c->task.n_outputs, 1);
    if (c->task.n_outputs == 1) {
      const hr_tensor *y = c->task.outputs[0];
      CHECK_EQ_INT(y->shape.dims[0], c->rows);
      CHECK_EQ_INT(y->shape.dims[1], c->cols);
      for (int64_t i = 0; i < c->rows * c->cols; i++) CHECK(((const float *)y->data)[i] == 2 * (c->first + (float)i));
    }
  } else {
    CHECK(c->task.status != NULL);
    CHECK_STR_CONTAINS(hr_status_message(c->task.status), "the fake model fails");
    hr_status_free(c->task.status);
  }
  hr_tensors_free(c->task.outputs, c->task.n_outputs);
  hr_tensor_free(c->input);
}

/* Parameters: max_batch_size, timeout, max_enqueued_batches, threads. */
static srv_batching_params params(int64_t max, int64_t timeout_micros, int64_t enqueued, int64_t threads) {
  srv_batching_params p;
  srv_batching_defaults(&p);
  p.max_batch_size = max;
  p.batch_timeout_micros = timeout_micros;
  p.max_enqueued_batches = enqueued;
  p.num_batch_threads = threads;
  return p;
}

TEST(concurrent_tasks_merge) {
  fake f;
  fake_init(&f);
  srv_batching_params p = params(4, 10000000, 10, 1);
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  client c[3];
  client_prepare(&c[0], b, 1, 2, 0);
  client_prepare(&c[1], b, 2, 2, 10);
  client_prepare(&c[2], b, 1, 2, 100);
  for (int i = 0; i < 3; i++) client_start(&c[i]);
  for (int i = 0; i < 3; i++) client_finish(&c[i], true);
  CHECK_EQ_INT(f.runs, 1);
  CHECK_EQ_INT(f.rows[0], 4);
  srv_batcher_free(b);
}

TEST(full_queue_turns_tasks_away) {
  fake f;
  fake_init(&f);
  f.block = true;
  srv_batching_params p = params(1, 0, 1, 1);
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  client running, queued, refused;
  client_prepare(&running, b, 1, 2, 0);
  client_start(&running);
  fake_wait_runs(&f, 1);
  client_prepare(&queued, b, 1, 2, 5);
  CHECK_OK(srv_batcher_submit(b, &queued.task));
  client_prepare(&refused, b, 1, 2, 9);
  hr_status s = srv_batcher_submit(b, &refused.task);
  CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
  CHECK_STR_CONTAINS(hr_status_message(s), "is full");
  hr_status_free(s);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  srv_batcher_append_metrics(b, &sb);
  CHECK_STR_CONTAINS(sb.data, "hlorun_batch_queue_depth{model=\"m\",version=\"1\"} 1\n");
  hr_strbuf_free(&sb);
  fake_set_block(&f, false);
  srv_batcher_wait(b, &queued.task);
  CHECK_OK(queued.task.status);
  hr_tensors_free(queued.task.outputs, queued.task.n_outputs);
  hr_tensor_free(queued.input);
  hr_tensor_free(refused.input);
  client_finish(&running, true);
  srv_batcher_free(b);
}

TEST(oversized_and_malformed_tasks) {
  fake f;
  fake_init(&f);
  srv_batching_params p = params(8, 0, 10, 1);
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  client c;
  client_prepare(&c, b, 9, 2, 0);
  hr_status s = srv_batcher_submit(b, &c.task);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(hr_status_message(s), "Task size 9 is larger than maximum input batch size 8");
  hr_status_free(s);
  hr_tensor_free(c.input);
  c.task.n_inputs = 0;
  s = srv_batcher_submit(b, &c.task);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
  srv_batcher_free(b);
}

TEST(batches_are_padded_to_allowed_sizes) {
  fake f;
  fake_init(&f);
  int64_t allowed[] = {2, 4};
  srv_batching_params p = params(4, 0, 10, 1);
  p.allowed_batch_sizes = allowed;
  p.n_allowed_batch_sizes = 2;
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  client c;
  client_prepare(&c, b, 3, 2, 1);
  client_start(&c);
  client_finish(&c, true);
  CHECK_EQ_INT(f.runs, 1);
  CHECK_EQ_INT(f.rows[0], 4);
  srv_batcher_free(b);
}

TEST(unsplittable_outputs_fall_back_to_single_runs) {
  fake f;
  fake_init(&f);
  f.bad_rows = true;
  srv_batching_params p = params(2, 10000000, 10, 1);
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  client c[2];
  client_prepare(&c[0], b, 1, 3, 0);
  client_prepare(&c[1], b, 1, 3, 7);
  for (int i = 0; i < 2; i++) client_start(&c[i]);
  for (int i = 0; i < 2; i++) client_finish(&c[i], true);
  CHECK_EQ_INT(f.runs, 3);
  CHECK_EQ_INT(f.rows[0], 2);
  srv_batcher_free(b);
}

TEST(errors_reach_every_task) {
  fake f;
  fake_init(&f);
  f.fail = true;
  srv_batching_params p = params(2, 10000000, 10, 2);
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  client c[2];
  client_prepare(&c[0], b, 1, 2, 0);
  client_prepare(&c[1], b, 1, 2, 3);
  for (int i = 0; i < 2; i++) client_start(&c[i]);
  for (int i = 0; i < 2; i++) client_finish(&c[i], false);
  CHECK_EQ_INT(f.runs, 1);
  srv_batcher_free(b);
}

TEST(stop_runs_queued_tasks_and_shapes_stay_apart) {
  fake f;
  fake_init(&f);
  srv_batching_params p = params(8, 60000000, 10, 2);
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  client c[2];
  client_prepare(&c[0], b, 1, 2, 0);
  client_prepare(&c[1], b, 1, 3, 0);
  for (int i = 0; i < 2; i++) client_start(&c[i]);
  wait_queued(b, 2);
  CHECK_EQ_INT(f.runs, 0);
  srv_batcher_stop(b);
  for (int i = 0; i < 2; i++) client_finish(&c[i], true);
  CHECK_EQ_INT(f.runs, 2);
  CHECK(f.rows[0] == 1 && f.rows[1] == 1);
  client late;
  client_prepare(&late, b, 1, 2, 0);
  hr_status s = srv_batcher_submit(b, &late.task);
  CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
  CHECK_STR_CONTAINS(hr_status_message(s), "shutting down");
  hr_status_free(s);
  hr_tensor_free(late.input);
  srv_batcher_free(b);
}

/* A task's cancellation poll: its flag. */
static bool flag_set(void *ctx) { return *(const bool *)ctx; }

TEST(merged_runs_take_the_latest_deadline_and_all_cancellations) {
  fake f;
  fake_init(&f);
  srv_batching_params p = params(2, 10000000, 10, 1);
  srv_batcher *b;
  CHECK_OK(srv_batcher_create(&p, fake_run, &f, &b));
  bool gone[2] = {true, false};
  hr_run_control ctl[2] = {
      {.deadline = 100, .cancelled = flag_set, .cancel_ctx = &gone[0], .max_output_bytes = 10},
      {.deadline = 200, .cancelled = flag_set, .cancel_ctx = &gone[1], .max_output_bytes = 30},
  };
  client c[2];
  for (int i = 0; i < 2; i++) {
    client_prepare(&c[i], b, 1, 2, (float)i);
    c[i].task.ctl = &ctl[i];
    client_start(&c[i]);
  }
  for (int i = 0; i < 2; i++) client_finish(&c[i], true);
  CHECK_EQ_INT(f.runs, 1);
  CHECK(f.seen.deadline == 200);
  CHECK_EQ_INT((int64_t)f.seen.max_output_bytes, 40);
  CHECK(!f.seen_cancelled); /* one client is still there */
  gone[1] = true;
  for (int i = 0; i < 2; i++) {
    client_prepare(&c[i], b, 1, 2, (float)i);
    c[i].task.ctl = &ctl[i];
    client_start(&c[i]);
  }
  for (int i = 0; i < 2; i++) client_finish(&c[i], true);
  CHECK(f.seen_cancelled); /* every client is gone */
  client alone;
  client_prepare(&alone, b, 1, 2, 0); /* no control: the run has none either */
  client_start(&alone);
  client_finish(&alone, true);
  CHECK(f.seen.deadline == 0 && f.seen.max_output_bytes == 0 && f.seen.cancelled == NULL);
  srv_batcher_free(b);
}

int main(void) {
  RUN(concurrent_tasks_merge);
  RUN(full_queue_turns_tasks_away);
  RUN(oversized_and_malformed_tasks);
  RUN(batches_are_padded_to_allowed_sizes);
  RUN(unsplittable_outputs_fall_back_to_single_runs);
  RUN(errors_reach_every_task);
  RUN(stop_runs_queued_tasks_and_shapes_stay_apart);
  RUN(merged_runs_take_the_latest_deadline_and_all_cancellations);
  TEST_MAIN_END();
}

/* Dynamic batching (batcher.h). One mutex guards the queues; each task has its own condition
 * variable, signalled (under the mutex) when its batch has run. */
#include "server/batcher.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/common.h"
#include "server/metrics.h"

/* Tasks that will run together. */
typedef struct batch {
  void *owner;
  srv_batch_task *head, *tail;
  int n_tasks;
  int64_t rows;
  double deadline; /* monotonic seconds: run by then even if not full */
  struct batch *next;
} batch;

/* The batches of tasks with one owner and one input signature. */
typedef struct queue {
  void *owner;
  const char *model;
  int64_t version;
  int n_inputs;
  hr_tensor_spec *key; /* per input: dtype and shape, dimension 0 ignored */
  batch *head, *tail;
  int n_batches;
  int64_t queued; /* tasks in its batches */
  struct queue *next;
} queue;

struct srv_batcher {
  srv_batching_params p; /* allowed_batch_sizes is our copy */
  srv_batch_run_fn run;
  void *ctx;
  pthread_mutex_t mu;
  pthread_cond_t work_cv; /* queues changed or stopping (monotonic clock) */
  queue *queues;
  bool stopping; /* turn tasks away, run everything queued now */
  bool joined;   /* the workers have exited */
  int n_threads;
  pthread_t *threads;
};

/* A copy of a status (each task of a failed batch gets its own). */
static hr_status copy_status(hr_status s) { return hr_error(hr_status_code(s), "%s", hr_status_message(s)); }

/* ---------------------------------------------------------------------------------------------- */
/* Queues                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Whether a task belongs to a queue: same owner, same input types and shapes but for dim 0. */
static bool queue_matches(const queue *q, const srv_batch_task *t) {
  if (q->owner != t->owner || q->n_inputs != t->n_inputs) return false;
  for (int i = 0; i < t->n_inputs; i++) {
    const hr_tensor *in = t->inputs[i];
    const hr_tensor_spec *k = &q->key[i];
    if (in->dtype != k->dtype || in->shape.rank != k->shape.rank) return false;
    for (int d = 1; d < k->shape.rank; d++)
      if (in->shape.dims[d] != k->shape.dims[d]) return false;
  }
  return true;
}

/* Creates an empty queue keyed by a task and links it in; NULL when out of memory. */
static queue *add_queue(srv_batcher *b, const srv_batch_task *t) {
  queue *q = calloc(1, sizeof *q);
  hr_tensor_spec *key = calloc((size_t)t->n_inputs, sizeof *key);
  if (!q || !key) {
    free(q);
    free(key);
    return NULL;
  }
  for (int i = 0; i < t->n_inputs; i++) {
    key[i].dtype = t->inputs[i]->dtype;
    key[i].shape = t->inputs[i]->shape;
    key[i].shape.dims[0] = HR_DYNAMIC;
  }
  *q = (queue){.owner = t->owner,
               .model = t->model,
               .version = t->version,
               .n_inputs = t->n_inputs,
               .key = key,
               .next = b->queues};
  b->queues = q;
  return q;
}

/* Unlinks and frees an empty queue. */
static void remove_queue(srv_batcher *b, queue *q) {
  for (queue **link = &b->queues; *link; link = &(*link)->next) {
    if (*link == q) {
      *link = q->next;
      break;
    }
  }
  free(q->key);
  free(q);
}

/* Whether the front batch of a queue may run now. */
static bool batch_ready(const srv_batcher *b, const queue *q, double now) {
  const batch *f = q->head;
  return b->stopping || f != q->tail || f->rows >= b->p.max_batch_size || now >= f->deadline;
}

/* Takes the ready batch that has waited longest out of its queue; NULL when none is ready, with
 * *wake the earliest deadline of the waiting batches (0 when there are none). */
static batch *take_ready_batch(srv_batcher *b, double now, double *wake) {
  queue *best = NULL;
  *wake = 0;
  for (queue *q = b->queues; q; q = q->next) {
    if (batch_ready(b, q, now)) {
      if (!best || q->head->deadline < best->head->deadline) best = q;
    } else if (*wake == 0 || q->head->deadline < *wake) {
      *wake = q->head->deadline;
    }
  }
  if (!best) return NULL;
  batch *f = best->head;
  best->head = f->next;
  if (!best->head) best->tail = NULL;
  best->n_batches--;
  best->queued -= f->n_tasks;
  if (best->n_batches == 0) remove_queue(b, best);
  return f;
}

/* ---------------------------------------------------------------------------------------------- */
/* Running batches                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* The rows a batch of `rows` rows is padded to: the next allowed batch size, if any are set. */
static int64_t padded_rows(const srv_batcher *b, int64_t rows) {
  for (int i = 0; i < b->p.n_allowed_batch_sizes; i++)
    if (b->p.allowed_batch_sizes[i] >= rows) return b->p.allowed_batch_sizes[i];
  return rows;
}

/* Concatenates input `i` of every task along dimension 0, then repeats the last row up to
 * `padded` rows. */
static hr_status merge_input(const batch *bt, int i, int64_t padded, hr_tensor **out) {
  const hr_tensor *first = bt->head->inputs[i];
  hr_shape shape = first->shape;
  shape.dims[0] = padded;
  HR_TRY(hr_tensor_create(NULL, first->dtype, &shape, 0, out));
  size_t row_bytes = first->nbytes / (size_t)first->shape.dims[0];
  unsigned char *dst = (*out)->data;
  size_t at = 0;
  for (const srv_batch_task *t = bt->head; t; t = t->next) {
    memcpy(dst + at, t->inputs[i]->data, t->inputs[i]->nbytes);
    at += t->inputs[i]->nbytes;
  }
  for (int64_t r = bt->rows; r < padded; r++, at += row_bytes) memcpy(dst + at, dst + at - row_bytes, row_bytes);
  return NULL;
}

/* Gives a task rows [first, first + task->rows) of every output. */
static hr_status slice_outputs(srv_batch_task *t, hr_tensor *const *outs, int n_outs, int64_t first) {
  const hr_allocator *a = hr_default_allocator();
  t->outputs = a->alloc(a->ctx, (size_t)(n_outs ? n_outs : 1) * sizeof *t->outputs, _Alignof(hr_tensor *));
  if (!t->outputs) return hr_error(HR_OUT_OF_MEMORY, "out of memory splitting a batch");
  memset(t->outputs, 0, (size_t)(n_outs ? n_outs : 1) * sizeof *t->outputs);
  t->n_outputs = n_outs;
  for (int j = 0; j < n_outs; j++) {
    hr_shape shape = outs[j]->shape;
    size_t row_bytes = outs[j]->nbytes / (size_t)shape.dims[0];
    shape.dims[0] = t->rows;
    HR_TRY(hr_tensor_create(NULL, outs[j]->dtype, &shape, 0, &t->outputs[j]));
    memcpy(t->outputs[j]->data, (const unsigned char *)outs[j]->data + (size_t)first * row_bytes,
           t->outputs[j]->nbytes);
  }
  return NULL;
}

/* Whether every output has `rows` rows in dimension 0, so that it can be split by task. */
static bool outputs_split(hr_tensor *const *outs, int n_outs, int64_t rows) {
  for (int j = 0; j < n_outs; j++)
    if (outs[j]->shape.rank < 1 || outs[j]->shape.dims[0] != rows) return false;
  return true;
}

/* Runs a task alone, on its own inputs. */
static void run_alone(srv_batcher *b, void *owner, srv_batch_task *t) {
  t->status = b->run(b->ctx, owner, t->inputs, t->n_inputs, t->ctl, &t->outputs, &t->n_outputs);
}

/* The merged run's cancellation: every task's client is gone. */
static bool all_cancelled(void *ctx) {
  const batch *bt = ctx;
  for (const srv_batch_task *t = bt->head; t; t = t->next)
    if (!t->ctl || !t->ctl->cancelled || !t->ctl->cancelled(t->ctl->cancel_ctx)) return false;
  return true;
}

/* The control of a merged run: the latest deadline of its tasks (none if one has none), cancelled
 * when all are, and the sum of their output bounds (none if one has none). */
static hr_run_control merged_control(const batch *bt) {
  hr_run_control c = {.cancelled = all_cancelled, .cancel_ctx = (void *)bt};
  bool deadline = true, bound = true;
  for (const srv_batch_task *t = bt->head; t; t = t->next) {
    const hr_run_control *k = t->ctl;
    deadline = deadline && k && k->deadline > 0;
    if (deadline && k->deadline > c.deadline) c.deadline = k->deadline;
    bound = bound && k && k->max_output_bytes > 0;
    if (bound && k->max_output_bytes > SIZE_MAX - c.max_output_bytes)
      c.max_output_bytes = SIZE_MAX;
    else if (bound)
      c.max_output_bytes += k->max_output_bytes;
  }
  if (!deadline) c.deadline = 0;
  if (!bound) c.max_output_bytes = 0;
  return c;
}

/* Hands the merged run's outputs (or its error) to the tasks; falls back to running them alone
 * when the outputs do not split by rows. */
static void distribute(srv_batcher *b, batch *bt, hr_status s, hr_tensor **outs, int n_outs, int64_t padded) {
  bool split = !s && outputs_split(outs, n_outs, padded);
  int64_t first = 0;
  for (srv_batch_task *t = bt->head; t; t = t->next) {
    if (s) {
      t->status = copy_status(s);
    } else if (!split) {
      run_alone(b, bt->owner, t);
    } else if ((t->status = slice_outputs(t, outs, n_outs, first)) != NULL) {
      hr_tensors_free(t->outputs, t->n_outputs);
      t->outputs = NULL;
      t->n_outputs = 0;
    }
    first += t->rows;
  }
}

/* Runs a batch and leaves each task's results in it. */
static void run_batch(srv_batcher *b, batch *bt) {
  int64_t padded = padded_rows(b, bt->rows);
  if (bt->n_tasks == 1 && padded == bt->rows) {
    run_alone(b, bt->owner, bt->head);
    return;
  }
  int n_inputs = bt->head->n_inputs;
  hr_tensor **merged = calloc((size_t)n_inputs, sizeof *merged);
  hr_status s = merged ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory merging a batch");
  for (int i = 0; !s && i < n_inputs; i++) s = merge_input(bt, i, padded, &merged[i]);
  hr_tensor **outs = NULL;
  int n_outs = 0;
  hr_run_control ctl = merged_control(bt);
  if (!s) s = b->run(b->ctx, bt->owner, merged, n_inputs, &ctl, &outs, &n_outs);
  distribute(b, bt, s, outs, n_outs, padded);
  hr_status_free(s);
  if (outs) hr_tensors_free(outs, n_outs);
  for (int i = 0; merged && i < n_inputs; i++) hr_tensor_free(merged[i]);
  free(merged);
}

/* Marks a batch's tasks done, wakes their submitters and frees the batch. Call with the lock. */
static void complete_batch(batch *bt) {
  srv_batch_task *t = bt->head;
  while (t) {
    srv_batch_task *next = t->next;
    t->done = true;
    pthread_cond_signal(&t->done_cv);
    t = next;
  }
  free(bt);
}

/* A worker: runs ready batches until the batcher stops and every queue is empty. */
static void *worker_main(void *arg) {
  srv_batcher *b = arg;
  pthread_mutex_lock(&b->mu);
  for (;;) {
    double wake;
    batch *bt = take_ready_batch(b, srv_now(), &wake);
    if (bt) {
      pthread_mutex_unlock(&b->mu);
      run_batch(b, bt);
      pthread_mutex_lock(&b->mu);
      complete_batch(bt);
      continue;
    }
    if (b->stopping && !b->queues) break;
    if (wake > 0) {
      struct timespec ts = {.tv_sec = (time_t)wake, .tv_nsec = (long)((wake - (double)(time_t)wake) * 1e9)};
      pthread_cond_timedwait(&b->work_cv, &b->mu, &ts);
    } else {
      pthread_cond_wait(&b->work_cv, &b->mu);
    }
  }
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Life cycle and submission                                                                       */
/* ---------------------------------------------------------------------------------------------- */

hr_status srv_batcher_create(const srv_batching_params *p, srv_batch_run_fn run, void *ctx, srv_batcher **out) {
  *out = NULL;
  if (p->max_batch_size < 1 || p->max_enqueued_batches < 1 || p->num_batch_threads < 1 || p->num_batch_threads > 1024)
    return hr_error(HR_INVALID_ARGUMENT, "invalid batching parameters");
  srv_batcher *b = calloc(1, sizeof *b);
  if (!b) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  b->p = *p;
  b->p.allowed_batch_sizes = NULL;
  b->run = run;
  b->ctx = ctx;
  size_t n_allowed = (size_t)p->n_allowed_batch_sizes;
  b->p.allowed_batch_sizes = calloc(n_allowed + 1, sizeof *b->p.allowed_batch_sizes);
  b->threads = calloc((size_t)p->num_batch_threads, sizeof *b->threads);
  hr_status s = b->p.allowed_batch_sizes && b->threads ? srv_sync_init(&b->mu, &b->work_cv) : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (s) {
    free(b->p.allowed_batch_sizes);
    free(b->threads);
    free(b);
    return s;
  }
  if (n_allowed) memcpy(b->p.allowed_batch_sizes, p->allowed_batch_sizes, n_allowed * sizeof *p->allowed_batch_sizes);
  for (; b->n_threads < p->num_batch_threads; b->n_threads++) {
    if (pthread_create(&b->threads[b->n_threads], NULL, worker_main, b) != 0) {
      s = hr_error(HR_INTERNAL, "cannot start batch thread %d", b->n_threads);
      srv_batcher_free(b);
      return s;
    }
  }
  *out = b;
  return NULL;
}

/* Checks a task's inputs and sets its row count. */
static hr_status check_task(const srv_batcher *b, srv_batch_task *t) {
  if (t->n_inputs < 1) return hr_error(HR_INVALID_ARGUMENT, "a batched task needs at least one input");
  for (int i = 0; i < t->n_inputs; i++) {
    const hr_tensor *in = t->inputs[i];
    if (in->shape.rank < 1) return hr_error(HR_INVALID_ARGUMENT, "batched inputs need a batch dimension");
    if (in->shape.dims[0] != t->inputs[0]->shape.dims[0])
      return hr_error(HR_INVALID_ARGUMENT, "batched inputs have different sizes in dimension 0 (%lld and %lld)",
                      (long long)t->inputs[0]->shape.dims[0], (long long)in->shape.dims[0]);
  }
  t->rows = t->inputs[0]->shape.dims[0];
  if (t->rows < 1) return hr_error(HR_INVALID_ARGUMENT, "a batched task needs at least one row");
  if (t->rows > b->p.max_batch_size)
    return hr_error(HR_INVALID_ARGUMENT, "Task size %lld is larger than maximum input batch size %lld",
                    (long long)t->rows, (long long)b->p.max_batch_size);
  return NULL;
}

/* Adds a checked task to its queue; call with the lock held. */
static hr_status enqueue_locked(srv_batcher *b, srv_batch_task *t) {
  if (b->stopping) return hr_error(HR_RESOURCE_EXHAUSTED, "the server is shutting down");
  queue *q = b->queues;
  while (q && !queue_matches(q, t)) q = q->next;
  if (!q && !(q = add_queue(b, t))) return hr_error(HR_OUT_OF_MEMORY, "out of memory queueing a request");
  batch *bt = q->tail;
  if (!bt || bt->rows + t->rows > b->p.max_batch_size) {
    if (q->n_batches >= b->p.max_enqueued_batches)
      return hr_error(HR_RESOURCE_EXHAUSTED,
                      "The batch scheduling queue of model %s version %lld is full "
                      "(max_enqueued_batches: %d)",
                      q->model, (long long)q->version, q->n_batches);
    if (!(bt = calloc(1, sizeof *bt))) {
      if (!q->head) remove_queue(b, q);
      return hr_error(HR_OUT_OF_MEMORY, "out of memory queueing a request");
    }
    bt->owner = t->owner;
    bt->deadline = srv_now() + (double)b->p.batch_timeout_micros * 1e-6;
    if (q->tail)
      q->tail->next = bt;
    else
      q->head = bt;
    q->tail = bt;
    q->n_batches++;
  }
  if (bt->tail)
    bt->tail->next = t;
  else
    bt->head = t;
  bt->tail = t;
  bt->n_tasks++;
  bt->rows += t->rows;
  q->queued++;
  return NULL;
}

hr_status srv_batcher_submit(srv_batcher *b, srv_batch_task *t) {
  t->status = NULL;
  t->outputs = NULL;
  t->n_outputs = 0;
  t->done = false;
  t->next = NULL;
  HR_TRY(check_task(b, t));
  if (pthread_cond_init(&t->done_cv, NULL) != 0) return hr_error(HR_INTERNAL, "cannot create a condition variable");
  pthread_mutex_lock(&b->mu);
  hr_status s = enqueue_locked(b, t);
  if (!s) pthread_cond_broadcast(&b->work_cv);
  pthread_mutex_unlock(&b->mu);
  if (s) pthread_cond_destroy(&t->done_cv);
  return s;
}

void srv_batcher_wait(srv_batcher *b, srv_batch_task *t) {
  pthread_mutex_lock(&b->mu);
  while (!t->done) pthread_cond_wait(&t->done_cv, &b->mu);
  pthread_mutex_unlock(&b->mu);
  pthread_cond_destroy(&t->done_cv);
}

int64_t srv_batcher_queued(srv_batcher *b) {
  pthread_mutex_lock(&b->mu);
  int64_t n = 0;
  for (queue *q = b->queues; q; q = q->next) n += q->queued;
  pthread_mutex_unlock(&b->mu);
  return n;
}

void srv_batcher_stop(srv_batcher *b) {
  pthread_mutex_lock(&b->mu);
  b->stopping = true;
  bool join = !b->joined;
  b->joined = true;
  pthread_cond_broadcast(&b->work_cv);
  pthread_mutex_unlock(&b->mu);
  for (int i = 0; join && i < b->n_threads; i++) pthread_join(b->threads[i], NULL);
}

void srv_batcher_free(srv_batcher *b) {
  if (!b) return;
  srv_batcher_stop(b);
  pthread_cond_destroy(&b->work_cv);
  pthread_mutex_destroy(&b->mu);
  free(b->p.allowed_batch_sizes);
  free(b->threads);
  free(b);
}

/* Whether two queues serve the same model version (with different input shapes). */
static bool same_version(const queue *a, const queue *b) {
  return a->version == b->version && strcmp(a->model, b->model) == 0;
}

/* Whether a queue of q's model version comes before q in the list. */
static bool version_listed_before(const queue *list, const queue *q) {
  for (const queue *o = list; o != q; o = o->next)
    if (same_version(o, q)) return true;
  return false;
}

void srv_batcher_append_metrics(srv_batcher *b, hr_strbuf *sb) {
  srv_prom_family(sb, "hlorun_batch_queue_depth", "gauge", "Requests waiting in batch queues, by model and version.");
  pthread_mutex_lock(&b->mu);
  for (const queue *q = b->queues; q; q = q->next) {
    if (version_listed_before(b->queues, q)) continue;
    int64_t tasks = 0;
    for (const queue *o = q; o; o = o->next)
      if (same_version(o, q)) tasks += o->queued;
    char version[24];
    snprintf(version, sizeof version, "%lld", (long long)q->version);
    const char *labels[] = {"model", q->model, "version", version};
    srv_prom_sample(sb, "hlorun_batch_queue_depth", labels, 2, (double)tasks);
  }
  pthread_mutex_unlock(&b->mu);
}

/* Dynamic batching, as TensorFlow Serving's shared batch scheduler does it.
 *
 * Tasks (requests) with the same owner (a model version) and the same input types and shapes
 * apart from dimension 0 share a queue. A queue holds batches: a task joins the newest batch when
 * its rows fit under max_batch_size, else it starts a new one; a queue holds at most
 * max_enqueued_batches batches, and a task that would need one more is turned away at once. A
 * batch is run by one of num_batch_threads workers when it is full, when a newer batch closed it,
 * or when batch_timeout_micros have passed since its first task arrived. Its tasks' inputs are
 * concatenated along dimension 0 (then padded, by repeating the last row, up to the next
 * allowed batch size when those are configured), run once, and the outputs split back by rows.
 * When an output's first dimension does not match the batch, the tasks are run one by one. A
 * merged run stops at the latest deadline of its tasks, is cancelled when every task's client is
 * gone, and may produce the sum of their output bounds. */
#ifndef HLORUN_SERVER_BATCHER_H
#define HLORUN_SERVER_BATCHER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "hlorun/hlorun.h"
#include "server/server.h"

/* Runs one batch for `owner` under `ctl`: the same contract as hr_program_run_controlled. */
typedef hr_status (*srv_batch_run_fn)(void *ctx, void *owner, hr_tensor *const *inputs, int n_inputs,
                                      const hr_run_control *ctl, hr_tensor ***outputs, int *n_outputs);

/* One request's part in a batch. The caller fills the first block, submits, waits, then owns
 * the results. */
typedef struct srv_batch_task {
  void *owner;              /* never merged with tasks of another owner */
  const char *model;        /* labels the queue depth gauge (valid while the task is queued) */
  int64_t version;          /* likewise */
  hr_tensor *const *inputs; /* rank >= 1, equal dimension 0; borrowed until done */
  int n_inputs;
  const hr_run_control *ctl; /* the request's deadline, cancellation and output bound; may be NULL */
  /* results */
  hr_status status;    /* the run's status */
  hr_tensor **outputs; /* on success: n_outputs tensors, freed with hr_tensors_free */
  int n_outputs;
  /* private to the batcher */
  int64_t rows;
  bool done;
  pthread_cond_t done_cv;
  struct srv_batch_task *next;
} srv_batch_task;

typedef struct srv_batcher srv_batcher;

/* Starts num_batch_threads workers. The parameters are copied. */
hr_status srv_batcher_create(const srv_batching_params *p, srv_batch_run_fn run, void *ctx, srv_batcher **out);
/* Queues a task. Fails at once, leaving nothing queued: HR_RESOURCE_EXHAUSTED when the task's
 * queue already holds max_enqueued_batches batches or the batcher is stopping (servers answer
 * UNAVAILABLE, as TensorFlow Serving does); HR_INVALID_ARGUMENT when the task has more rows than
 * max_batch_size or inputs of rank 0. */
hr_status srv_batcher_submit(srv_batcher *b, srv_batch_task *task);
/* Waits for a submitted task to be run; its results are then in task->status and outputs. */
void srv_batcher_wait(srv_batcher *b, srv_batch_task *task);
/* Tasks waiting in queues (not yet running), all queues together. */
int64_t srv_batcher_queued(srv_batcher *b);
/* Turns new tasks away, runs every queued batch without waiting for timeouts, and stops the
 * workers. */
void srv_batcher_stop(srv_batcher *b);
/* Stops the batcher if needed and frees it. */
void srv_batcher_free(srv_batcher *b);
/* Appends the hlorun_batch_queue_depth gauge: queued tasks per model and version. */
void srv_batcher_append_metrics(srv_batcher *b, hr_strbuf *sb);

#endif

/* The job pool (workers.h): a FIFO under one mutex, threads waiting on a condition variable. */
#include "server/workers.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

struct srv_workers {
  pthread_mutex_t mu;
  pthread_cond_t cv; /* a job was queued, or stopping */
  srv_job *head, *tail;
  bool stopping;
  bool joined;
  int n_threads;
  pthread_t *threads;
};

/* A worker: runs jobs until the pool stops and the queue is empty. */
static void *worker_main(void *arg) {
  srv_workers *w = arg;
  pthread_mutex_lock(&w->mu);
  for (;;) {
    srv_job *job = w->head;
    if (job) {
      w->head = job->next;
      if (!w->head) w->tail = NULL;
      pthread_mutex_unlock(&w->mu);
      job->run(job);
      pthread_mutex_lock(&w->mu);
    } else if (w->stopping) {
      break;
    } else {
      pthread_cond_wait(&w->cv, &w->mu);
    }
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

hr_status srv_workers_create(int n, srv_workers **out) {
  *out = NULL;
  if (n < 1) return hr_error(HR_INVALID_ARGUMENT, "a worker pool needs at least one thread");
  srv_workers *w = calloc(1, sizeof *w);
  if (!w) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  w->threads = calloc((size_t)n, sizeof *w->threads);
  if (!w->threads || pthread_mutex_init(&w->mu, NULL) != 0) {
    free(w->threads);
    free(w);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  if (pthread_cond_init(&w->cv, NULL) != 0) {
    pthread_mutex_destroy(&w->mu);
    free(w->threads);
    free(w);
    return hr_error(HR_INTERNAL, "cannot create a condition variable");
  }
  for (; w->n_threads < n; w->n_threads++) {
    if (pthread_create(&w->threads[w->n_threads], NULL, worker_main, w) != 0) {
      hr_status s = hr_error(HR_INTERNAL, "cannot start worker thread %d", w->n_threads);
      srv_workers_free(w);
      return s;
    }
  }
  *out = w;
  return NULL;
}

hr_status srv_workers_submit(srv_workers *w, srv_job *job) {
  job->next = NULL;
  pthread_mutex_lock(&w->mu);
  bool stopping = w->stopping;
  if (!stopping) {
    if (w->tail)
      w->tail->next = job;
    else
      w->head = job;
    w->tail = job;
    pthread_cond_signal(&w->cv);
  }
  pthread_mutex_unlock(&w->mu);
  return stopping ? hr_error(HR_RESOURCE_EXHAUSTED, "the server is shutting down") : NULL;
}

void srv_workers_stop(srv_workers *w) {
  pthread_mutex_lock(&w->mu);
  w->stopping = true;
  srv_job *queued = w->head;
  w->head = w->tail = NULL;
  bool join = !w->joined;
  w->joined = true;
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
  while (queued) {
    srv_job *next = queued->next;
    queued->cancel(queued);
    queued = next;
  }
  for (int i = 0; join && i < w->n_threads; i++) pthread_join(w->threads[i], NULL);
}

void srv_workers_free(srv_workers *w) {
  if (!w) return;
  srv_workers_stop(w);
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
  free(w->threads);
  free(w);
}

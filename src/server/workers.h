/* A pool of threads running queued jobs in arrival order: the server runs predictions on it, so
 * that libmicrohttpd's threads stay free to serve other connections while a model runs. */
#ifndef HLORUN_SERVER_WORKERS_H
#define HLORUN_SERVER_WORKERS_H

#include "hlorun/hlorun.h"

/* A job: embed it in the caller's own structure; `run` (or `cancel`) gets it back. */
typedef struct srv_job {
  void (*run)(struct srv_job *job);    /* on a worker */
  void (*cancel)(struct srv_job *job); /* instead of run, for a job still queued at the stop */
  struct srv_job *next;                /* private to the pool */
} srv_job;

typedef struct srv_workers srv_workers;

/* Starts `n` (>= 1) threads. */
hr_status srv_workers_create(int n, srv_workers **out);
/* Queues a job. Fails with HR_RESOURCE_EXHAUSTED, the job not queued, once the pool is stopping. */
hr_status srv_workers_submit(srv_workers *w, srv_job *job);
/* Turns new jobs away, cancels the jobs still queued (on the calling thread), waits for the running
 * ones and stops the threads. */
void srv_workers_stop(srv_workers *w);
/* Stops the pool if needed and frees it. */
void srv_workers_free(srv_workers *w);

#endif

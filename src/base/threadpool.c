#include "base/threadpool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

struct hr_threadpool {
  const hr_allocator *allocator;
  int size; /* participants including the caller */
  pthread_t *threads;
  pthread_mutex_t mu;
  pthread_cond_t work_cv; /* signalled when a new job is posted or on shutdown */
  pthread_cond_t done_cv; /* signalled when the last worker finishes a job */
  /* The current job, valid while generation is odd-numbered-new for a worker. */
  uint64_t generation;
  hr_parallel_fn fn;
  void *ctx;
  int64_t n, chunk;
  atomic_int_fast64_t next; /* next unclaimed item */
  int active;               /* workers still inside the current job */
  int shutdown;
};

/* Claims chunks until none are left. */
static void run_chunks(hr_threadpool *p, int worker) {
  for (;;) {
    int64_t begin = atomic_fetch_add(&p->next, p->chunk);
    if (begin >= p->n) return;
    int64_t end = begin + p->chunk < p->n ? begin + p->chunk : p->n;
    p->fn(p->ctx, begin, end, worker);
  }
}

typedef struct worker_arg {
  hr_threadpool *pool;
  int index;
} worker_arg;

static void *worker_main(void *arg) {
  hr_threadpool *p = ((worker_arg *)arg)->pool;
  int index = ((worker_arg *)arg)->index;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->shutdown && p->generation == seen) pthread_cond_wait(&p->work_cv, &p->mu);
    if (p->shutdown) break;
    seen = p->generation;
    pthread_mutex_unlock(&p->mu);
    run_chunks(p, index);
    pthread_mutex_lock(&p->mu);
    if (--p->active == 0) pthread_cond_signal(&p->done_cv);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

hr_status hr_threadpool_create(const hr_allocator *a, int num_threads, hr_threadpool **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  if (num_threads <= 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    num_threads = n > 0 ? (int)n : 1;
  }
  if (num_threads > 1024) num_threads = 1024;
  hr_threadpool *p = a->alloc(a->ctx, sizeof *p, _Alignof(hr_threadpool));
  if (!p) return hr_error(HR_OUT_OF_MEMORY, "out of memory creating a thread pool");
  *p = (hr_threadpool){.allocator = a, .size = 1};
  atomic_init(&p->next, 0);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work_cv, NULL);
  pthread_cond_init(&p->done_cv, NULL);
  int workers = num_threads - 1;
  if (workers > 0) {
    p->threads = a->alloc(a->ctx, sizeof(pthread_t) * (size_t)workers + sizeof(worker_arg) * (size_t)workers, 16);
    if (!p->threads) {
      hr_threadpool_free(p);
      return hr_error(HR_OUT_OF_MEMORY, "out of memory creating a thread pool");
    }
    worker_arg *args = (worker_arg *)(p->threads + workers);
    for (int i = 0; i < workers; i++) {
      args[i] = (worker_arg){p, i + 1};
      if (pthread_create(&p->threads[i], NULL, worker_main, &args[i]) != 0) break;
      p->size++;
    }
  }
  *out = p;
  return NULL;
}

void hr_threadpool_free(hr_threadpool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->shutdown = 1;
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->size - 1; i++) pthread_join(p->threads[i], NULL);
  if (p->threads) p->allocator->free(p->allocator->ctx, p->threads);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->work_cv);
  pthread_cond_destroy(&p->done_cv);
  p->allocator->free(p->allocator->ctx, p);
}

int hr_threadpool_size(const hr_threadpool *p) { return p ? p->size : 1; }

void hr_parallel_for(hr_threadpool *p, int64_t n, int64_t min_chunk, hr_parallel_fn fn, void *ctx) {
  if (n <= 0) return;
  if (min_chunk < 1) min_chunk = 1;
  if (!p || p->size == 1 || n <= min_chunk) {
    fn(ctx, 0, n, 0);
    return;
  }
  /* About four chunks per participant balances load without much claiming overhead. */
  int64_t chunk = n / ((int64_t)p->size * 4);
  if (chunk < min_chunk) chunk = min_chunk;
  pthread_mutex_lock(&p->mu);
  p->fn = fn;
  p->ctx = ctx;
  p->n = n;
  p->chunk = chunk;
  atomic_store(&p->next, 0);
  p->active = p->size - 1;
  p->generation++;
  pthread_cond_broadcast(&p->work_cv);
  pthread_mutex_unlock(&p->mu);
  run_chunks(p, 0);
  pthread_mutex_lock(&p->mu);
  while (p->active > 0) pthread_cond_wait(&p->done_cv, &p->mu);
  pthread_mutex_unlock(&p->mu);
}

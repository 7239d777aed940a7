/* The thread pool. A parallel loop is published as a job whose chunks every participant claims
 * with one atomic compare-and-swap each; the caller returns as soon as all chunks are done. Idle
 * workers spin briefly (a few tens of microseconds) before sleeping, so back-to-back loops — an
 * inference step is a few dozen of them — do not pay a sleep/wake-up each.
 *
 * `work` packs the job's generation (high 32 bits) and its next unclaimed chunk (low 32 bits). Job
 * parameters live in two slots chosen by the generation's parity: a new job is published only
 * after the previous one finished, so the slot it overwrites belongs to a job two generations
 * back, and a late worker still holding that generation fails its compare-and-swap on `work`
 * without ever running a chunk with mixed-up parameters. */
#include "base/threadpool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

enum {
  SPIN_NANOSECONDS = 100000, /* how long an idle worker polls before it sleeps */
  MAX_CHUNKS = 1 << 30,
};

/* Pauses briefly inside a spin loop. */
static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* One job's parameters. Atomics, because a late worker may read a slot while it is rewritten for
 * a newer job; such a worker then fails to claim a chunk and drops what it read. */
typedef struct job {
  _Atomic(hr_parallel_fn) fn;
  _Atomic(void *) ctx;
  atomic_int_fast64_t n, chunk;
  atomic_int chunks;
} job;

struct hr_threadpool {
  const hr_allocator *allocator;
  int size; /* participants including the caller */
  pthread_t *threads;
  job jobs[2];               /* indexed by generation parity */
  atomic_uint_fast64_t work; /* generation << 32 | next chunk */
  atomic_int done;           /* chunks of the current job finished */
  atomic_int shutdown;
  /* Sleeping workers wait on `wake`; `sleepers` tells the caller whether to signal. */
  pthread_mutex_t mu;
  pthread_cond_t wake;
  int sleepers;
};

static uint32_t generation_of(uint64_t work) { return (uint32_t)(work >> 32); }

/* Claims and runs chunks of job `gen` until none is left (or a newer job replaced it). */
static void run_chunks(hr_threadpool *p, uint32_t gen, int worker) {
  job *j = &p->jobs[gen & 1];
  hr_parallel_fn fn = atomic_load(&j->fn);
  void *ctx = atomic_load(&j->ctx);
  int64_t n = atomic_load(&j->n), chunk = atomic_load(&j->chunk);
  int chunks = atomic_load(&j->chunks);
  uint64_t w = atomic_load(&p->work);
  for (;;) {
    if (generation_of(w) != gen) return;
    uint32_t index = (uint32_t)w;
    if ((int)index >= chunks) return;
    if (!atomic_compare_exchange_weak(&p->work, &w, w + 1)) continue; /* w was reloaded */
    int64_t begin = (int64_t)index * chunk;
    int64_t end = begin + chunk < n ? begin + chunk : n;
    fn(ctx, begin, end, worker);
    atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
    w = atomic_load(&p->work);
  }
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Waits for a job newer than `seen` (or shutdown): polls for SPIN_NANOSECONDS, then sleeps. */
static uint32_t wait_for_job(hr_threadpool *p, uint32_t seen) {
  int64_t deadline = now_ns() + SPIN_NANOSECONDS;
  for (unsigned i = 1;; i++) {
    uint32_t gen = generation_of(atomic_load(&p->work));
    if (gen != seen || atomic_load(&p->shutdown)) return gen;
    cpu_relax();
    if (i % 64 == 0 && now_ns() > deadline) break;
  }
  pthread_mutex_lock(&p->mu);
  p->sleepers++;
  uint32_t gen;
  while ((gen = generation_of(atomic_load(&p->work))) == seen && !atomic_load(&p->shutdown))
    pthread_cond_wait(&p->wake, &p->mu);
  p->sleepers--;
  pthread_mutex_unlock(&p->mu);
  return gen;
}

typedef struct worker_arg {
  hr_threadpool *pool;
  int index;
} worker_arg;

static void *worker_main(void *arg) {
  hr_threadpool *p = ((worker_arg *)arg)->pool;
  int index = ((worker_arg *)arg)->index;
  uint32_t seen = generation_of(atomic_load(&p->work));
  for (;;) {
    seen = wait_for_job(p, seen);
    if (atomic_load(&p->shutdown)) return NULL;
    run_chunks(p, seen, index);
  }
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
  for (int i = 0; i < 2; i++) {
    atomic_init(&p->jobs[i].fn, NULL);
    atomic_init(&p->jobs[i].ctx, NULL);
    atomic_init(&p->jobs[i].n, 0);
    atomic_init(&p->jobs[i].chunk, 1);
    atomic_init(&p->jobs[i].chunks, 0);
  }
  atomic_init(&p->work, 0);
  atomic_init(&p->done, 0);
  atomic_init(&p->shutdown, 0);
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->wake, NULL);
  int workers = num_threads - 1;
  if (workers > 0) {
    p->threads = a->alloc(a->ctx, (sizeof(pthread_t) + sizeof(worker_arg)) * (size_t)workers, 16);
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
  atomic_store(&p->shutdown, 1);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->size - 1; i++) pthread_join(p->threads[i], NULL);
  if (p->threads) p->allocator->free(p->allocator->ctx, p->threads);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->wake);
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
  int64_t chunks = (n + chunk - 1) / chunk;
  if (chunks > MAX_CHUNKS) {
    chunk = (n + MAX_CHUNKS - 1) / MAX_CHUNKS;
    chunks = (n + chunk - 1) / chunk;
  }
  uint32_t gen = generation_of(atomic_load(&p->work)) + 1;
  job *j = &p->jobs[gen & 1];
  atomic_store(&j->fn, fn);
  atomic_store(&j->ctx, ctx);
  atomic_store(&j->n, n);
  atomic_store(&j->chunk, chunk);
  atomic_store(&j->chunks, (int)chunks);
  atomic_store(&p->done, 0);
  atomic_store(&p->work, (uint64_t)gen << 32); /* publishes the job (seq_cst: after the stores above) */
  pthread_mutex_lock(&p->mu);
  if (p->sleepers) pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mu);
  run_chunks(p, gen, 0);
  /* Every chunk is claimed; wait for the ones other participants are still running. */
  while (atomic_load_explicit(&p->done, memory_order_acquire) < (int)chunks) cpu_relax();
}

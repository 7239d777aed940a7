/* A persistent pool of worker threads running parallel-for loops. */
#ifndef HLORUN_BASE_THREADPOOL_H
#define HLORUN_BASE_THREADPOOL_H

#include <stdint.h>

#include "hlorun/hlorun.h"

typedef struct hr_threadpool hr_threadpool;

/* Body of a parallel loop: processes items [begin, end). `worker` is in [0, num_workers). */
typedef void (*hr_parallel_fn)(void *ctx, int64_t begin, int64_t end, int worker);

/* Creates a pool with `num_threads` participants in total (the calling thread counts as one, so
 * num_threads - 1 workers are started). num_threads <= 0 selects the number of online CPUs. */
hr_status hr_threadpool_create(const hr_allocator *a, int num_threads, hr_threadpool **out);
void hr_threadpool_free(hr_threadpool *pool);
int hr_threadpool_size(const hr_threadpool *pool);
/* Splits [0, n) into chunks of at least `min_chunk` items and runs `fn` over them on all
 * participants; returns when every chunk is done. A NULL pool runs serially. Not reentrant: a
 * body must not call hr_parallel_for on the same pool. */
void hr_parallel_for(hr_threadpool *pool, int64_t n, int64_t min_chunk, hr_parallel_fn fn, void *ctx);

#endif

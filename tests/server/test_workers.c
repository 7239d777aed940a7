/* The job pool (server/workers.c): every queued job runs once; stopping waits for the running jobs,
 * cancels the queued ones, and turns new ones away. */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "server/workers.h"
#include "test.h"

/* A job that counts its runs and cancellations; a blocking one waits until *gate opens. */
typedef struct count_job {
  srv_job job; /* first, so that the callbacks can cast back */
  atomic_int *runs, *cancels;
  atomic_bool *gate; /* NULL: does not block */
  atomic_bool started;
} count_job;

static void count_run(srv_job *job) {
  count_job *j = (count_job *)job;
  atomic_store(&j->started, true);
  while (j->gate && !atomic_load(j->gate)) usleep(1000);
  atomic_fetch_add(j->runs, 1);
}

static void count_cancel(srv_job *job) { atomic_fetch_add(((count_job *)job)->cancels, 1); }

/* A job counting into the given counters. */
static void make_job(count_job *j, atomic_int *runs, atomic_int *cancels, atomic_bool *gate) {
  j->job = (srv_job){.run = count_run, .cancel = count_cancel};
  j->runs = runs;
  j->cancels = cancels;
  j->gate = gate;
  atomic_init(&j->started, false);
}

TEST(every_job_runs_once) {
  srv_workers *w;
  CHECK_OK(srv_workers_create(3, &w));
  if (!w) return;
  atomic_int runs, cancels;
  atomic_init(&runs, 0);
  atomic_init(&cancels, 0);
  count_job jobs[50];
  for (int i = 0; i < 50; i++) {
    make_job(&jobs[i], &runs, &cancels, NULL);
    CHECK_OK(srv_workers_submit(w, &jobs[i].job));
  }
  while (atomic_load(&runs) < 50) usleep(1000);
  srv_workers_stop(w);
  CHECK_EQ_INT(atomic_load(&runs), 50);
  CHECK_EQ_INT(atomic_load(&cancels), 0);
  srv_workers_free(w);
  hr_status s = srv_workers_create(0, &w);
  CHECK(s != NULL && w == NULL);
  hr_status_free(s);
}

/* Stops a pool (on its own thread, since the stop waits for a blocked job). */
static void *stop_main(void *arg) {
  srv_workers_stop(arg);
  return NULL;
}

TEST(stop_cancels_queued_jobs) {
  srv_workers *w;
  CHECK_OK(srv_workers_create(1, &w));
  if (!w) return;
  atomic_int runs, cancels;
  atomic_bool gate;
  atomic_init(&runs, 0);
  atomic_init(&cancels, 0);
  atomic_init(&gate, false);
  count_job blocker, queued[4];
  make_job(&blocker, &runs, &cancels, &gate);
  CHECK_OK(srv_workers_submit(w, &blocker.job));
  while (!atomic_load(&blocker.started)) usleep(1000);
  for (int i = 0; i < 4; i++) {
    make_job(&queued[i], &runs, &cancels, NULL);
    CHECK_OK(srv_workers_submit(w, &queued[i].job));
  }
  pthread_t stopper;
  pthread_create(&stopper, NULL, stop_main, w);
  while (atomic_load(&cancels) < 4) usleep(1000);
  count_job late;
  make_job(&late, &runs, &cancels, NULL);
  hr_status s = srv_workers_submit(w, &late.job);
  CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
  hr_status_free(s);
  atomic_store(&gate, true);
  pthread_join(stopper, NULL);
  CHECK_EQ_INT(atomic_load(&runs), 1);
  CHECK_EQ_INT(atomic_load(&cancels), 4);
  srv_workers_free(w);
}

int main(void) {
  RUN(every_job_runs_once);
  RUN(stop_cancels_queued_jobs);
  TEST_MAIN_END();
}

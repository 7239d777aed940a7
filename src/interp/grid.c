/* The process grid (grid.h): threads, rendezvous, deadlock detection and the infeed queue. One mutex
 * and one condition variable guard all of a grid's state; every change is broadcast. */
#include "interp/grid.h"

#include <pthread.h>
#include <string.h>

#include "base/limits.h"

/* What one member deposited at a rendezvous. */
typedef struct slot {
  hr_tensor *const *operands; /* borrowed until every member has left */
  int n;
  bool filled;
} slot;

struct hr_rendezvous {
  hr_opcode kind;
  int64_t channel;
  int n;
  hr_pid *group; /* n ids, owned; NULL for a send/recv pair */
  slot *slots;   /* n */
  int arrived;   /* slots filled */
  int left;      /* members done reading, once complete */
  int refs;      /* members still holding it, once complete */
  bool complete;
  hr_rendezvous *next;
};

/* A process as the deadlock check sees it. */
typedef struct proc_state {
  bool running;
  const hr_rendezvous *waiting_on; /* the rendezvous it waits to complete or to retire, or NULL */
  const hr_op *waiting_op;
} proc_state;

struct hr_grid {
  const hr_allocator *a;
  uint32_t replicas, partitions;
  int n; /* processes */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  proc_state *procs;
  hr_rendezvous *open; /* rendezvous not yet retired */
  bool aborted;
  hr_status failure; /* the first failure, owned */
  const hr_func *const *infeed;
  int n_infeed, next_infeed;
  bool ran;
};

hr_status hr_grid_create(const hr_allocator *a, int64_t replicas, int64_t partitions, hr_grid **out) {
  *out = NULL;
  if (replicas < 1 || partitions < 1 || replicas > HR_LIMIT_PROCESSES / partitions)
    return hr_error(HR_RESOURCE_EXHAUSTED, "a process grid of %lld replicas x %lld partitions: 1 to %d processes are run",
                    (long long)replicas, (long long)partitions, HR_LIMIT_PROCESSES);
  hr_grid *g = a->alloc(a->ctx, sizeof *g, _Alignof(hr_grid));
  if (!g) return hr_error(HR_OUT_OF_MEMORY, "out of memory creating a process grid");
  memset(g, 0, sizeof *g);
  g->a = a;
  g->replicas = (uint32_t)replicas;
  g->partitions = (uint32_t)partitions;
  g->n = (int)(replicas * partitions);
  g->procs = a->alloc(a->ctx, sizeof *g->procs * (size_t)g->n, _Alignof(proc_state));
  if (!g->procs) {
    a->free(a->ctx, g);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory creating a process grid");
  }
  memset(g->procs, 0, sizeof *g->procs * (size_t)g->n);
  pthread_mutex_init(&g->mu, NULL);
  pthread_cond_init(&g->cv, NULL);
  *out = g;
  return NULL;
}

static void free_rendezvous(hr_grid *g, hr_rendezvous *r) {
  if (r->group) g->a->free(g->a->ctx, r->group);
  g->a->free(g->a->ctx, r->slots);
  g->a->free(g->a->ctx, r);
}

void hr_grid_free(hr_grid *g) {
  if (!g) return;
  while (g->open) {
    hr_rendezvous *r = g->open;
    g->open = r->next;
    free_rendezvous(g, r);
  }
  hr_status_free(g->failure);
  pthread_mutex_destroy(&g->mu);
  pthread_cond_destroy(&g->cv);
  g->a->free(g->a->ctx, g->procs);
  g->a->free(g->a->ctx, g);
}

uint32_t hr_grid_replicas(const hr_grid *g) { return g->replicas; }
uint32_t hr_grid_partitions(const hr_grid *g) { return g->partitions; }

static int index_of(const hr_grid *g, const hr_pid *id) { return (int)(id->replica * g->partitions + id->partition); }

/* ---------------------------------------------------------------------------------------------- */
/* Failure and deadlock (called with the mutex held)                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Stops the grid with `s` (owned): the first failure is kept, later ones dropped. */
static void abort_locked(hr_grid *g, hr_status s) {
  if (!g->failure)
    g->failure = s;
  else
    hr_status_free(s);
  g->aborted = true;
  pthread_cond_broadcast(&g->cv);
}

/* True when every running process waits on a rendezvous that has not completed: none of them can
 * make the arrival it waits for, so none will ever go on. */
static bool stuck(const hr_grid *g) {
  int waiting = 0;
  for (int i = 0; i < g->n; i++) {
    if (!g->procs[i].running) continue;
    if (!g->procs[i].waiting_on || g->procs[i].waiting_on->complete) return false;
    waiting++;
  }
  return waiting > 0;
}

/* Aborts the grid when it is stuck, naming the first waiting process and its op. */
static void check_deadlock_locked(hr_grid *g) {
  if (g->aborted || !stuck(g)) return;
  for (int i = 0; i < g->n; i++) {
    if (!g->procs[i].running) continue;
    abort_locked(g, hr_op_error(g->procs[i].waiting_op, HR_INVALID_ARGUMENT,
                                "process (%u, %u) waits here for processes that never join (they have finished or "
                                "wait at another collective): the processes deadlock",
                                (unsigned)i / g->partitions, (unsigned)i % g->partitions));
    return;
  }
}

/* Waits for the next change of the grid as process `me`, blocked on `r` (it counts as stuck while
 * `r` has not completed). */
static void wait_on(hr_grid *g, int me, const hr_rendezvous *r, const hr_op *op) {
  g->procs[me].waiting_on = r;
  g->procs[me].waiting_op = op;
  check_deadlock_locked(g);
  if (!g->aborted) pthread_cond_wait(&g->cv, &g->mu);
  g->procs[me].waiting_on = NULL;
}

static hr_status aborted_error(const hr_op *op) {
  return hr_op_error(op, HR_CANCELLED, "stopped: another process of the grid failed");
}

/* ---------------------------------------------------------------------------------------------- */
/* Rendezvous                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static bool same_key(const hr_rendezvous *r, hr_opcode kind, int64_t channel, const hr_pid *group, int n) {
  if (r->kind != kind || r->channel != channel || r->n != n || (r->group == NULL) != (group == NULL)) return false;
  for (int i = 0; group && i < n; i++)
    if (r->group[i].replica != group[i].replica || r->group[i].partition != group[i].partition) return false;
  return true;
}

static hr_rendezvous *find_open(const hr_grid *g, hr_opcode kind, int64_t channel, const hr_pid *group, int n) {
  for (hr_rendezvous *r = g->open; r; r = r->next)
    if (same_key(r, kind, channel, group, n)) return r;
  return NULL;
}

/* Opens a rendezvous for the key (no member arrived yet) and links it. */
static hr_status open_rendezvous(hr_grid *g, hr_opcode kind, int64_t channel, const hr_pid *group, int n,
                                 hr_rendezvous **out) {
  const hr_allocator *a = g->a;
  hr_rendezvous *r = a->alloc(a->ctx, sizeof *r, _Alignof(hr_rendezvous));
  if (!r) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  memset(r, 0, sizeof *r);
  r->slots = a->alloc(a->ctx, sizeof *r->slots * (size_t)n, _Alignof(slot));
  r->group = group ? a->alloc(a->ctx, sizeof *r->group * (size_t)n, _Alignof(hr_pid)) : NULL;
  if (!r->slots || (group && !r->group)) {
    if (r->slots) a->free(a->ctx, r->slots);
    a->free(a->ctx, r);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  memset(r->slots, 0, sizeof *r->slots * (size_t)n);
  if (group) memcpy(r->group, group, sizeof *r->group * (size_t)n);
  r->kind = kind;
  r->channel = channel;
  r->n = n;
  r->next = g->open;
  g->open = r;
  *out = r;
  return NULL;
}

/* Unlinks `r`: later arrivals with its key open a new round; nobody waits on it any more. */
static void unlink_rendezvous(hr_grid *g, hr_rendezvous *r) {
  for (hr_rendezvous **p = &g->open; *p; p = &(*p)->next)
    if (*p == r) {
      *p = r->next;
      break;
    }
  for (int i = 0; i < g->n; i++)
    if (g->procs[i].waiting_on == r) g->procs[i].waiting_on = NULL;
}

/* Finds the open rendezvous of the key whose slot `self` is free, opening one when there is none;
 * waits while an earlier round of the key still holds the slot. */
static hr_status find_round(hr_grid *g, int me, const hr_op *op, hr_opcode kind, int64_t channel,
                            const hr_pid *group, int n, int self, hr_rendezvous **out) {
  for (;;) {
    if (g->aborted) return aborted_error(op);
    hr_rendezvous *r = find_open(g, kind, channel, group, n);
    if (!r) return open_rendezvous(g, kind, channel, group, n, out);
    if (!r->complete && !r->slots[self].filled) {
      *out = r;
      return NULL;
    }
    wait_on(g, me, r, op);
  }
}

hr_status hr_grid_rendezvous(const hr_process *p, const hr_op *op, hr_opcode kind, int64_t channel,
                             const hr_pid *group, int n, int self, hr_tensor *const *operands, int n_operands,
                             hr_rendezvous **out) {
  *out = NULL;
  hr_grid *g = p->grid;
  if (n < 1 || n > g->n || self < 0 || self >= n)
    return hr_op_error(op, HR_INTERNAL, "a rendezvous of %d members joined at slot %d", n, self);
  int me = index_of(g, &p->id);
  pthread_mutex_lock(&g->mu);
  hr_rendezvous *r = NULL;
  hr_status s = find_round(g, me, op, kind, channel, group, n, self, &r);
  if (s) {
    pthread_mutex_unlock(&g->mu);
    return s;
  }
  r->slots[self] = (slot){operands, n_operands, true};
  if (++r->arrived == r->n) {
    r->complete = true;
    r->refs = r->n;
    pthread_cond_broadcast(&g->cv);
  }
  while (!r->complete && !g->aborted) wait_on(g, me, r, op);
  if (!r->complete) { /* aborted: withdraw; nobody reads an incomplete rendezvous */
    r->slots[self].filled = false;
    if (--r->arrived == 0) {
      unlink_rendezvous(g, r);
      free_rendezvous(g, r);
    }
    pthread_mutex_unlock(&g->mu);
    return aborted_error(op);
  }
  pthread_mutex_unlock(&g->mu);
  *out = r;
  return NULL;
}

int hr_rendezvous_operands(const hr_rendezvous *r, int slot_index, hr_tensor *const **operands) {
  *operands = r->slots[slot_index].operands;
  return r->slots[slot_index].n;
}

void hr_grid_leave(const hr_process *p, hr_rendezvous *r) {
  hr_grid *g = p->grid;
  pthread_mutex_lock(&g->mu);
  if (++r->left == r->n) {
    unlink_rendezvous(g, r);
    pthread_cond_broadcast(&g->cv);
  }
  /* Members read each other's operands: none may go on (and free its own) before all are done. */
  while (r->left < r->n) pthread_cond_wait(&g->cv, &g->mu);
  if (--r->refs == 0) free_rendezvous(g, r);
  pthread_mutex_unlock(&g->mu);
}

int64_t hr_grid_channel(const hr_op *op) {
  const hr_attr *a = hr_op_attr(op, "channel_handle");
  const hr_attr *h = a && a->kind == HR_ATTR_STRUCT ? hr_attr_field(a, "handle") : NULL;
  return h && h->kind == HR_ATTR_INT ? h->u.i.value : 0;
}

/* ---------------------------------------------------------------------------------------------- */
/* Infeed                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

void hr_grid_set_infeed(hr_grid *g, const hr_func *const *queue, int n) {
  g->infeed = queue;
  g->n_infeed = n;
  g->next_infeed = 0;
}

hr_status hr_grid_infeed(const hr_process *p, const hr_op *op, const hr_func **out) {
  hr_grid *g = p->grid;
  pthread_mutex_lock(&g->mu);
  int next = g->next_infeed < g->n_infeed ? g->next_infeed++ : -1;
  pthread_mutex_unlock(&g->mu);
  if (next < 0) return hr_op_error(op, HR_OUT_OF_RANGE, "the infeed queue is empty (%d values were fed)", g->n_infeed);
  *out = g->infeed[next];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Threads                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef struct thread_arg {
  hr_grid *g;
  hr_grid_body body;
  void *ctx;
  int index;
  hr_process process;
} thread_arg;

/* Marks process `index` ended, with its failure (owned, or NULL). */
static void end_process(hr_grid *g, int index, hr_status failure) {
  pthread_mutex_lock(&g->mu);
  if (failure) abort_locked(g, failure);
  g->procs[index].running = false;
  check_deadlock_locked(g);
  pthread_cond_broadcast(&g->cv);
  pthread_mutex_unlock(&g->mu);
}

static void *thread_main(void *p) {
  thread_arg *t = p;
  hr_status s = t->body(t->ctx, &t->process, t->index);
  hr_status failure = NULL;
  if (s) {
    failure = hr_error(hr_status_code(s), "process (%u, %u): %s", t->process.id.replica, t->process.id.partition,
                       hr_status_message(s));
    hr_status_free(s);
  }
  end_process(t->g, t->index, failure);
  return NULL;
}

hr_status hr_grid_run(hr_grid *g, hr_grid_body body, void *ctx) {
  if (g->ran) return hr_error(HR_INTERNAL, "a process grid runs once");
  g->ran = true;
  const hr_allocator *a = g->a;
  pthread_t *threads = a->alloc(a->ctx, sizeof *threads * (size_t)g->n, _Alignof(pthread_t));
  thread_arg *args = a->alloc(a->ctx, sizeof *args * (size_t)g->n, _Alignof(thread_arg));
  if (!threads || !args) {
    if (threads) a->free(a->ctx, threads);
    if (args) a->free(a->ctx, args);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory starting %d processes", g->n);
  }
  for (int i = 0; i < g->n; i++) {
    g->procs[i].running = true;
    hr_pid id = {(uint32_t)i / g->partitions, (uint32_t)i % g->partitions};
    args[i] = (thread_arg){g, body, ctx, i, {g, id}};
  }
  int started = 0;
  while (started < g->n && pthread_create(&threads[started], NULL, thread_main, &args[started]) == 0) started++;
  for (int i = started; i < g->n; i++)
    end_process(g, i, i == started ? hr_error(HR_RESOURCE_EXHAUSTED, "cannot start a thread for process %d of %d", i, g->n)
                                   : NULL);
  for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
  a->free(a->ctx, threads);
  a->free(a->ctx, args);
  hr_status s = g->failure;
  g->failure = NULL;
  return s;
}

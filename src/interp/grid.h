/*
 * A process grid: num_replicas x num_partitions processes, each running on a thread of its own,
 * that exchange tensors in memory (StableHLO's "process grid", docs/spec.md, as its reference
 * interpreter runs it for interpreter.run_parallel).
 *
 * Collectives meet at a rendezvous keyed by (op kind, channel id, process group): every member
 * deposits its operands (borrowed, not copied), and once all have arrived each member reads what
 * the others deposited and computes its own results; it then leaves, and the last member to leave
 * retires the rendezvous (a member's operands stay valid until every member has left). send and
 * recv meet the same way in a group of two slots (sender, receiver) keyed by their channel.
 *
 * Failure never hangs the grid: a process that fails aborts it (every wait returns an error to its
 * process and hr_grid_run returns the first failure), and when every running process waits at a
 * rendezvous that cannot complete (a member finished, or waits elsewhere), the grid aborts with an
 * error naming one waiting op.
 */
#ifndef HLORUN_INTERP_GRID_H
#define HLORUN_INTERP_GRID_H

#include <stdint.h>

#include "hlorun/hlorun.h"
#include "ir/ir.h"

typedef struct hr_grid hr_grid;
typedef struct hr_rendezvous hr_rendezvous;

/* A process's position in the grid. */
typedef struct hr_pid {
  uint32_t replica, partition;
} hr_pid;

/* What a kernel of a process knows about its process: the grid and its own id. */
typedef struct hr_process {
  hr_grid *grid;
  hr_pid id;
} hr_process;

/* Creates a grid of `replicas` x `partitions` processes (1..HR_LIMIT_PROCESSES in all). Its
 * allocator serves every thread at once, so it must be thread-safe (the default one is). */
hr_status hr_grid_create(const hr_allocator *a, int64_t replicas, int64_t partitions, hr_grid **out);
void hr_grid_free(hr_grid *g);
uint32_t hr_grid_replicas(const hr_grid *g);
uint32_t hr_grid_partitions(const hr_grid *g);

/* The body a process runs; `index` = replica * partitions + partition. */
typedef hr_status (*hr_grid_body)(void *ctx, const hr_process *process, int index);

/* Runs `body` once per process, each on its own thread, and returns when all have ended: NULL when
 * all succeeded, else the first failure (naming its process). A grid runs once. */
hr_status hr_grid_run(hr_grid *g, hr_grid_body body, void *ctx);

/* Joins the rendezvous of (kind, channel, group): `group` lists the n members in order (NULL for a
 * send/recv pair, n = 2) and `self` is this process's slot in it. When the same key is still in use
 * by an earlier round this waits for it to retire. On success `*out` holds the completed
 * rendezvous, which the caller reads (hr_rendezvous_operands) and must then leave (hr_grid_leave).
 * Errors (the grid aborted or deadlocked) name `op`. */
hr_status hr_grid_rendezvous(const hr_process *p, const hr_op *op, hr_opcode kind, int64_t channel, const hr_pid *group,
                             int n, int self, hr_tensor *const *operands, int n_operands, hr_rendezvous **out);
/* The operands member `slot` deposited; returns their count. */
int hr_rendezvous_operands(const hr_rendezvous *r, int slot, hr_tensor *const **operands);
/* Leaves a completed rendezvous; returns once every member has stopped reading it. */
void hr_grid_leave(const hr_process *p, hr_rendezvous *r);

/* The channel id of a collective or transfer: its channel_handle's handle (0 when absent, as the
 * parser drops a handle of 0 as a default). */
int64_t hr_grid_channel(const hr_op *op);

/* Gives the grid its infeed queue: the functions whose results successive infeeds return. */
void hr_grid_set_infeed(hr_grid *g, const hr_func *const *queue, int n);
/* Takes the next function of the infeed queue; an error naming `op` when it is empty. */
hr_status hr_grid_infeed(const hr_process *p, const hr_op *op, const hr_func **out);

#endif

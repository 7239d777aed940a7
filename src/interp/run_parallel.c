/* interpreter.run_parallel (StableHLO's reference interpreter, InterpreterOps.td): runs the
 * functions of `programs` at once, function [r][p] as process (r, p) of one process grid (grid.h:
 * the outer list is the replicas, the inner one the partitions), each on a thread of its own with
 * an interpreter of its own. The operands are the processes' arguments one after another in that
 * replica-major order, and the results their results likewise; `infeed` lists the functions whose
 * results successive stablehlo.infeed ops of any process return. The check ops a process runs
 * count as the caller's. */
#include <string.h>

#include "base/limits.h"
#include "interp/grid.h"
#include "interp/interp.h"

/* One interpreter.run_parallel being run. */
typedef struct parallel_run {
  const hr_interp *caller;
  const hr_op *op;
  const hr_func **funcs;   /* per process */
  int *first_arg;          /* per process: its first operand */
  int *first_result;       /* per process: its first result */
  int64_t *checks_passed;  /* per process */
  hr_tensor *const *operands;
  hr_tensor **results;
} parallel_run;

/* The body of process `index`: its function run by an interpreter of its own. */
static hr_status run_process(void *ctx, const hr_process *process, int index) {
  parallel_run *r = ctx;
  hr_run_options o = r->caller->opts;
  o.num_threads = 1; /* the process threads are the parallelism */
  hr_interp *in;
  HR_TRY(hr_interp_create(r->caller->module, &o, &in));
  in->process = process;
  hr_status s = hr_interp_call(in, r->funcs[index], r->operands + r->first_arg[index],
                               r->results + r->first_result[index]);
  r->checks_passed[index] = in->checks_passed;
  hr_interp_free(in);
  return s;
}

/* Looks up every process's function and where its operands and results begin. */
static hr_status plan_processes(const hr_interp *in, const hr_op *op, int n, parallel_run *r) {
  int arg = 0, result = 0;
  for (int p = 0; p < n; p++) {
    HR_TRY(hr_run_parallel_program(in->module, op, p, &r->funcs[p]));
    r->first_arg[p] = arg;
    r->first_result[p] = result;
    if (r->funcs[p]->n_args > op->n_operands - arg || r->funcs[p]->n_results > op->n_results - result)
      return hr_op_error(op, HR_VERIFY_ERROR, "the programs take more operands or return more results than the op has");
    arg += r->funcs[p]->n_args;
    result += r->funcs[p]->n_results;
  }
  if (arg != op->n_operands || result != op->n_results)
    return hr_op_error(op, HR_VERIFY_ERROR, "the programs take %d operands and return %d results, the op has %d and %d",
                       arg, result, op->n_operands, op->n_results);
  return NULL;
}

/* Reads the `infeed` queue into `queue` (allocated; NULL without one). */
static hr_status read_infeed(const hr_interp *in, const hr_op *op, const hr_func ***queue, int64_t *n) {
  *queue = NULL;
  const hr_func *fn = NULL;
  HR_TRY(hr_run_parallel_infeed(in->module, op, 0, n, &fn));
  if (*n == 0) return NULL;
  *queue = in->allocator->alloc(in->allocator->ctx, sizeof **queue * (size_t)*n, _Alignof(const hr_func *));
  if (!*queue) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int64_t i = 0; i < *n; i++) {
    hr_status s = hr_run_parallel_infeed(in->module, op, i, n, &(*queue)[i]);
    if (s) {
      in->allocator->free(in->allocator->ctx, *queue);
      *queue = NULL;
      return s;
    }
  }
  return NULL;
}

/* Runs the grid of `r` (its plan made) and adds the processes' passed checks to the caller's. */
static hr_status run_grid(hr_interp *in, const hr_op *op, int64_t replicas, int64_t partitions, parallel_run *r) {
  hr_grid *g;
  HR_TRY(hr_grid_create(in->allocator, replicas, partitions, &g));
  const hr_func **queue;
  int64_t n_infeed;
  hr_status s = read_infeed(in, op, &queue, &n_infeed);
  if (!s) {
    hr_grid_set_infeed(g, queue, (int)n_infeed);
    s = hr_grid_run(g, run_process, r);
  }
  for (int64_t p = 0; !s && p < replicas * partitions; p++) in->checks_passed += r->checks_passed[p];
  if (queue) in->allocator->free(in->allocator->ctx, queue);
  hr_grid_free(g);
  return s;
}

static hr_status kernel_run_parallel(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (in->process) return hr_op_error(op, HR_UNIMPLEMENTED, "runs only outside a process grid (it nests here)");
  int64_t replicas = 0, partitions = 1;
  HR_TRY(hr_run_parallel_grid(op, &replicas, &partitions));
  if (replicas > HR_LIMIT_PROCESSES / partitions)
    return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "`programs` spans too many processes");
  int n = (int)(replicas * partitions);
  for (int i = 0; i < op->n_results; i++) results[i] = NULL;
  const hr_allocator *a = in->allocator;
  size_t per = sizeof(const hr_func *) + 2 * sizeof(int) + sizeof(int64_t);
  char *scratch = a->alloc(a->ctx, per * (size_t)n, 16);
  if (!scratch) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  memset(scratch, 0, per * (size_t)n);
  parallel_run r = {in, op, (const hr_func **)(void *)scratch, NULL, NULL, NULL, operands, results};
  r.checks_passed = (int64_t *)(void *)(scratch + sizeof(const hr_func *) * (size_t)n);
  r.first_arg = (int *)(void *)(scratch + (sizeof(const hr_func *) + sizeof(int64_t)) * (size_t)n);
  r.first_result = r.first_arg + n;
  hr_status s = plan_processes(in, op, n, &r);
  if (!s) s = run_grid(in, op, replicas, partitions, &r);
  a->free(a->ctx, scratch);
  if (s)
    for (int i = 0; i < op->n_results; i++) {
      hr_tensor_free(results[i]);
      results[i] = NULL;
    }
  return s;
}

const hr_kernel hr_kernels_parallel[] = {
    {HR_OP_INTERPRETER_RUN_PARALLEL, kernel_run_parallel},
    {HR_OP_COUNT, NULL},
};

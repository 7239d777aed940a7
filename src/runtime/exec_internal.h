/* Internals shared by executables (executable.c) and programs (program.c): the output bound, and
 * the figures of an executable's plan (for tests and measurements). */
#ifndef HLORUN_RUNTIME_EXEC_INTERNAL_H
#define HLORUN_RUNTIME_EXEC_INTERNAL_H

#include "runtime/executable.h"

/* The memory plan of an executable. */
typedef struct hr_exec_stats {
  size_t arena_bytes;        /* the host arena holding every intermediate value on the host */
  size_t device_arena_bytes; /* the arena of the other device, if any (its temps and mirrors) */
  size_t intermediate_bytes; /* sum of all intermediates (64-byte rounded): the arenas without reuse */
  size_t constant_bytes;     /* constants materialised at create time */
  int num_steps;             /* ops run per call */
  int num_wrapped_steps;     /* of which run through the interpreter's block evaluator */
  int num_device_steps;      /* of which run by a kernel of the other device */
  int num_copies;            /* values copied between devices per call (mirrors filled per run) */
  int num_preloaded;         /* fixed values copied onto the other device once, at create time */
  int num_in_place;          /* donated inputs a run given their buffers as outputs updates in place */
} hr_exec_stats;

hr_exec_stats hr_executable_stats(const hr_executable *e);

/* How an executable's steps run (for tests and measurements). */
typedef struct hr_exec_fast_stats {
  int num_fast_steps;   /* steps run by a device kernel (on the CPU: a fast kernel) */
  int num_alias_steps;  /* reshapes whose result shares its operand's buffer: nothing runs */
  int num_folded_steps; /* ops computed once at creation from fixed operands: nothing runs */
  size_t scratch_bytes; /* scratch memory of the kernels (part of the arenas) */
} hr_exec_fast_stats;

hr_exec_fast_stats hr_executable_fast_stats(const hr_executable *e);
/* Number of steps (run or not), and the op and implementation of step i: a kernel's name,
 * "reference", "wrapped", "alias" or "folded". */
int hr_executable_num_plan_steps(const hr_executable *e);
const hr_op *hr_executable_step_op(const hr_executable *e, int i);
const char *hr_executable_step_impl(const hr_executable *e, int i);
/* The device step i runs on ("cpu" for every step not run by another device's kernel). */
const char *hr_executable_step_device(const hr_executable *e, int i);

/* An HR_RESOURCE_EXHAUSTED error, naming @main, when the outputs of a run (all chunks) would take
 * more than `max_bytes` bytes in all (0: no bound), else NULL. */
hr_status hr_executable_check_outputs(const hr_executable *e, size_t max_bytes);

#endif

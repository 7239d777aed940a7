/* Internals shared by executables (executable.c) and programs (program.c): the output bound, and
 * the figures of an executable's memory plan (for tests and measurements). */
#ifndef HLORUN_RUNTIME_EXEC_INTERNAL_H
#define HLORUN_RUNTIME_EXEC_INTERNAL_H

#include "runtime/executable.h"

/* The memory plan of an executable. */
typedef struct hr_exec_stats {
  size_t arena_bytes;        /* the one arena holding every intermediate value */
  size_t intermediate_bytes; /* sum of all intermediates (64-byte rounded): the arena without reuse */
  size_t constant_bytes;     /* constants materialised at create time */
  int num_steps;             /* ops run per call */
  int num_wrapped_steps;     /* of which run through the interpreter's block evaluator */
} hr_exec_stats;

hr_exec_stats hr_executable_stats(const hr_executable *e);

/* An HR_RESOURCE_EXHAUSTED error, naming @main, when the outputs of a run (all chunks) would take
 * more than `max_bytes` bytes in all (0: no bound), else NULL. */
hr_status hr_executable_check_outputs(const hr_executable *e, size_t max_bytes);

#endif

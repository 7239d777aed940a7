/* Internals shared by executables (executable.c) and programs (program.c): tensor-spec helpers and
 * the figures of an executable's memory plan (for tests and measurements). */
#ifndef HLORUN_RUNTIME_EXEC_INTERNAL_H
#define HLORUN_RUNTIME_EXEC_INTERNAL_H

#include "base/strbuf.h"
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

/* Splits an executable's runs into `chunks` (>= 1; a batch split, compiler/split.h): its inputs
 * and outputs become `chunks` times as long along dimension 0 (their specs say so), and a run
 * runs the plan once per chunk on the c-th equal slice of each. Fails when an input or output has
 * rank 0 or its size would overflow. */
hr_status hr_executable_set_chunks(hr_executable *e, int64_t chunks);
int64_t hr_executable_chunks(const hr_executable *e);

/* An HR_RESOURCE_EXHAUSTED error, naming @main, when the outputs of a run (all chunks) would take
 * more than `max_bytes` bytes in all (0: no bound), else NULL. */
hr_status hr_executable_check_outputs(const hr_executable *e, size_t max_bytes);

/* The spec of a tensor type (a zeroed spec, dtype HR_DTYPE_INVALID, for other types). */
hr_tensor_spec hr_spec_of_type(const hr_type *t);
/* The tensor type of a spec. */
hr_type hr_type_of_spec(const hr_tensor_spec *s);
/* Same dtype, rank and dimensions. */
bool hr_spec_equal(const hr_tensor_spec *a, const hr_tensor_spec *b);
/* Appends the MLIR spelling of a spec ("tensor<2x?xf32>"). */
void hr_spec_print(hr_strbuf *sb, const hr_tensor_spec *s);

/* An INVALID_ARGUMENT error "<what> is <got>, expected <want>", with the specs spelled out. */
hr_status hr_spec_mismatch(const char *what, const hr_tensor_spec *got, const hr_tensor_spec *want);

#endif

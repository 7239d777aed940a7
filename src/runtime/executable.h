/* Executables (internal view): what artifact/ and cli/ need to save, rebuild and describe them,
 * and the constant folder the compiler uses. */
#ifndef HLORUN_RUNTIME_EXECUTABLE_H
#define HLORUN_RUNTIME_EXECUTABLE_H

#include "base/limits.h"
#include "base/weights.h"
#include "compiler/specialize.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* Largest result of an op computed once when an executable is created ("folded") because its
 * operands are all fixed (bound parameters, constants, folded results); larger ones run per call.
 * The name executable.c uses for HR_LIMIT_FOLD_BYTES (base/limits.h). */
#define HR_EXEC_FOLD_MAX_BYTES HR_LIMIT_FOLD_BYTES

/* Builds an executable from a specialized module (see hr_specialize; ownership passes, also on
 * error). bound[i] is the value of parameter i of its "main", or NULL for a runtime input; bound
 * tensors must stay valid while the executable lives, which `weights` (retained by the executable
 * when not NULL) guarantees for tensors that point into it. */
hr_status hr_executable_create(hr_module *specialized, const hr_tensor *const *bound, hr_weights *weights,
                               const hr_exec_options *opts, hr_executable **out);

/* The specialized module an executable was built from, and its bound parameters. */
const hr_module *hr_executable_module(const hr_executable *e);
const hr_tensor *hr_executable_bound(const hr_executable *e, int param);

/* Makes the executable run as `process` of a process grid (interp/grid.h): its collectives (run
 * by the interpreter's kernels) meet the grid's other processes; NULL: a single process again.
 * For the SPMD runner (spmd.c), around each run. */
struct hr_process;
void hr_executable_set_process(hr_executable *e, const struct hr_process *process);

/* Makes the program's next compiles (hr_program_compile) give the code of device `device` (its
 * partition id), every sdy.manual_computation as that device's part (hr_specialize_device), rather
 * than the global program with the bodies expanded over their devices (-1, the default): for the
 * SPMD runner, whose devices each run the whole program (spmd.c). */
void hr_program_set_device(hr_program *p, int64_t device);

/* Splits an executable's runs into `chunks` (>= 1; a batch split, compiler/split.h): its inputs
 * and outputs become `chunks` times as long along dimension 0 (their specs say so), and a run
 * runs the plan once per chunk on the c-th equal slice of each. Fails when an input or output has
 * rank 0 or its size would overflow. */
hr_status hr_executable_set_chunks(hr_executable *e, int64_t chunks);
int64_t hr_executable_chunks(const hr_executable *e);

/* The program's bound parameters: the tensor for parameter `param` of its entry function, or
 * NULL when that parameter is a runtime input. */
const hr_tensor *hr_program_bound(const hr_program *p, int param);
hr_weights *hr_program_weights(const hr_program *p);

/* How hr_program_run compiles a call with the runtime inputs' specs: *full is the function
 * specialized for them; when a batch split applies, *part is it specialized for 1 / *chunks of
 * the batch (*chunks >= 2), else NULL with *chunks = 1. The caller frees both modules. */
hr_status hr_program_plan_split(hr_program *p, const hr_tensor_spec *inputs, hr_module **full, hr_module **part,
                                int64_t *chunks);

/* A folder that evaluates ops with the interpreter's kernels (for hr_specialize). */
hr_folder hr_interp_folder(void);

#endif

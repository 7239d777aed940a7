/* Fast kernels (docs/fast-cpu.md): AVX-512 implementations of the hlorun.* ops and of hot
 * stablehlo ops (data movement, simple reductions), chosen per step when an executable is
 * created.
 *
 * A fast kernel has two phases. Preparing (hr_fast_prepare, at executable creation) checks that it
 * applies to the op (dtypes, shapes, which operands are fixed), precomputes what it can (packs
 * constant weights for the GEMM, compiles epilogue regions into vector programs) and says how
 * much scratch memory a run needs. Running (hr_fast_run) computes the results from the operands
 * on the executable's thread pool, using only the scratch memory it is given: it allocates
 * nothing (except a matrix product whose right operand is not fixed, which packs it per run), and
 * it writes every element of its results (they need no zero-filling).
 *
 * Fast kernels of stablehlo ops give the reference kernels' results bit for bit (but for which
 * operand's payload a NaN computed from two NaNs carries, which C leaves to the compiler); those
 * of the hlorun.* ops agree with the reference kernels to within f32 rounding (vectorised
 * transcendentals, FMA contraction, blocked summation; with bf16 matrix products when asked).
 */
#ifndef HLORUN_BACKEND_CPU_FAST_H
#define HLORUN_BACKEND_CPU_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "base/threadpool.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* What fast kernels of one executable share. */
typedef struct hr_fast_env {
  const hr_allocator *allocator; /* for prepared state (packed weights, vector programs) */
  hr_threadpool *pool;           /* the executable's persistent pool; NULL runs serially */
  bool bf16;                     /* matrix products with bf16 inputs where the CPU supports it */
} hr_fast_env;

typedef struct hr_fast_kernel hr_fast_kernel;

/* Prepares a fast kernel for `op` when one applies; *out is NULL when none does (that is not an
 * error). operands[i] and results[i] give the types; the data of operand i is read only when
 * fixed[i] (a constant or bound parameter, the same in every run), and may be kept by the kernel
 * (it must stay valid while the kernel lives). Fails only when out of memory. */
hr_status hr_fast_prepare(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands, const bool *fixed,
                          const hr_tensor *const *results, hr_fast_kernel **out);
/* Bytes of scratch memory (64-byte aligned) a run needs; may be 0. */
size_t hr_fast_scratch_bytes(const hr_fast_kernel *k);
/* A short name for profiles ("matmul", "attention", ...). */
const char *hr_fast_name(const hr_fast_kernel *k);
/* Computes `results` from `operands` (the types given when preparing, data now valid). Fails only
 * when memory for packing a non-fixed matrix operand runs out. */
hr_status hr_fast_run(const hr_fast_kernel *k, hr_tensor *const *operands, hr_tensor *const *results, void *scratch);
void hr_fast_free(hr_fast_kernel *k);

/* How an executable's steps run (for tests and measurements; executable.c). */
typedef struct hr_exec_fast_stats {
  int num_fast_steps;   /* steps run by a fast kernel */
  int num_alias_steps;  /* reshapes whose result shares its operand's buffer: nothing runs */
  int num_folded_steps; /* ops computed once at creation from fixed operands: nothing runs */
  size_t scratch_bytes; /* scratch memory of the fast kernels (part of the arena) */
} hr_exec_fast_stats;

hr_exec_fast_stats hr_executable_fast_stats(const hr_executable *e);
/* Number of steps (run or not), and the op and implementation of step i: a fast kernel's name,
 * "reference", "wrapped", "alias" or "folded". */
int hr_executable_num_plan_steps(const hr_executable *e);
const hr_op *hr_executable_step_op(const hr_executable *e, int i);
const char *hr_executable_step_impl(const hr_executable *e, int i);

#endif

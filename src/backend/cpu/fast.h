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

#include "backend/backend.h"
#include "base/threadpool.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* What fast kernels of one executable share: the device interface's kernel environment (the
 * allocator for prepared state, the thread pool, bf16 matrix products). */
typedef hr_kernel_env hr_fast_env;

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

#endif

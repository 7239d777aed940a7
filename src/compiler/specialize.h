/* Specialization: turns a function with symbolic shapes and calls into one flat function with
 * static shapes, ready for planning and execution. */
#ifndef HLORUN_COMPILER_SPECIALIZE_H
#define HLORUN_COMPILER_SPECIALIZE_H

#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* Evaluates one op on constant operands (the runtime provides this: the compiler layer cannot
 * run kernels itself). `results` are allocated by the callee with their concrete types. */
typedef hr_status (*hr_fold_fn)(void *ctx, const hr_op *op, hr_tensor *const *operands, hr_tensor **results);

typedef struct hr_folder {
  hr_fold_fn fn;
  void *ctx;
  size_t max_fold_bytes; /* results larger than this stay as ops (0: 1 MiB) */
} hr_folder;

/* Specializes function `fn_name` of `m` for the static argument types `arg_types` (one per
 * parameter, each compatible with the declared type):
 *   - every func.call is inlined (recursively);
 *   - ops whose operands are all constants and whose results are small are folded to constants
 *     (this evaluates shape computations such as get_dimension_size -> convert -> concatenate);
 *   - dynamic ops with constant shape operands become their static forms (dynamic_broadcast_in_dim
 *     -> broadcast_in_dim, dynamic_reshape -> reshape, dynamic_iota -> iota, real_dynamic_slice ->
 *     slice, dynamic_pad -> pad, dynamic_gather -> gather, dynamic_conv -> convolution);
 *   - every sdy.manual_computation (JAX's shard_map) is expanded over its devices into global ops,
 *     and sdy.sharding_constraint is its operand (compiler_internal.h: hc_inline_manual);
 *   - every result type is refined to a static shape (hr_infer_result_types);
 *   - ops whose results are unused and have no side effects are removed.
 * The result is a new, verified module (allocated with `a`) holding one public function "main"
 * with the same parameters (and parameter attributes such as jax.arg_info) as `fn_name`, now with
 * the given static types. Ops that still cannot get a static shape make this fail with an error
 * naming them. */
hr_status hr_specialize(const hr_module *m, const char *fn_name, const hr_type *arg_types, int n_args,
                        const hr_folder *folder, const hr_allocator *a, hr_module **out);
/* hr_specialize for device `device` (its partition id) of an SPMD run (runtime/spmd.c): every
 * sdy.manual_computation becomes the device's part (its operands' pieces, the body once, the
 * results gathered whole from all devices at run time: compiler_internal.h, hc_device_manual)
 * instead of being expanded over the devices. The module's mhlo.num_partitions must be the mesh's
 * devices. */
hr_status hr_specialize_device(const hr_module *m, const char *fn_name, const hr_type *arg_types, int n_args,
                               const hr_folder *folder, const hr_allocator *a, int64_t device, hr_module **out);

#endif

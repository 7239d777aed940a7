/*
 * The reference interpreter: evaluates a verified module op by op on host tensors.
 *
 * The executor walks a block, resolves each op's concrete result types (the declared type when
 * static, otherwise hr_infer_result_types over the runtime operands), allocates zero-filled result
 * tensors, and calls the op's kernel to fill them. Kernels live in tables grouped by area:
 *   hr_kernels_elementwise  (kernels_elementwise*.c) unary/binary math, compare, select, clamp,
 *                           convert, bitcast_convert, complex/real/imag, chlo special functions
 *   hr_kernels_data         (kernels_data*.c) constant-free data movement and indexing: iota,
 *                           broadcast_in_dim, reshape, transpose, slice, concatenate, pad, reverse,
 *                           gather, scatter, sort, dynamic_* variants, top_k, ...
 *   hr_kernels_reduce       (kernels_reduce*.c) reduce, reduce_window, select_and_scatter,
 *                           dot_general, dot, convolution, fft, triangular_solve, cholesky, ...
 *   hr_kernels_control      (interp.c) constant, func.call, while, if, case, custom_call (check.*),
 *                           optimization_barrier, return
 *   hr_kernels_hlorun       (kernels_hlorun.c) the fused ops of docs/fast-cpu.md
 *   hr_kernels_tuple        (kernels_tuple.c) tuple, get_tuple_element, after_all, composite; token
 *                           and tuple values travel as rank-1 ui8 tensors of their leaves' bytes
 *   hr_kernels_quant        (kernels_quant.c) uniform_quantize, uniform_dequantize; the other ops
 *                           meeting quantized values run through hr_interp_kernel_for
 *   hr_kernels_chlo         (kernels_chlo.c) chlo.broadcast_* (the stablehlo op's kernel over
 *                           operands broadcast to one shape), chlo.constant_like,
 *                           chlo.ragged_dot, chlo.scan (its body run per position)
 *   hr_kernels_parallel     (run_parallel.c) interpreter.run_parallel: programs run in a process
 *                           grid (grid.h), one thread per process
 * Each table ends with an entry whose fn is NULL.
 */
#ifndef HLORUN_INTERP_INTERP_H
#define HLORUN_INTERP_INTERP_H

#include <stdio.h>

#include "base/threadpool.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"

typedef struct hr_interp hr_interp;

/* Fills `results` (op->n_results tensors, already allocated with their concrete types and
 * zero-filled) from `operands` (op->n_operands tensors). Must not modify operands. Errors come from
 * hr_op_error(op, ...) so they name the op's position. The control-flow kernels of interp.c
 * (func.call, while, if, case) are the exception: they receive NULL results and store the tensors
 * their region or callee returned. */
typedef hr_status (*hr_kernel_fn)(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                  hr_tensor **results);

typedef struct hr_kernel {
  hr_opcode code;
  hr_kernel_fn fn;
} hr_kernel;

extern const hr_kernel hr_kernels_elementwise[];
extern const hr_kernel hr_kernels_data[];
extern const hr_kernel hr_kernels_reduce[];
extern const hr_kernel hr_kernels_control[];
extern const hr_kernel hr_kernels_hlorun[]; /* reference kernels of the fused hlorun.* ops */
extern const hr_kernel hr_kernels_tuple[];  /* tuple, get_tuple_element, after_all, composite */
extern const hr_kernel hr_kernels_quant[];  /* uniform_quantize, uniform_dequantize */
extern const hr_kernel hr_kernels_chlo[];   /* chlo.broadcast_*, constant_like, ragged_dot, scan */
extern const hr_kernel hr_kernels_parallel[]; /* interpreter.run_parallel */

struct hr_interp {
  const hr_module *module;
  const hr_allocator *allocator; /* for every tensor the interpreter creates */
  hr_run_options opts;           /* with defaults filled in; an executable sets opts.control per run */
  hr_threadpool *pool;           /* may be NULL: run serially */
  hr_kernel_fn kernels[HR_OP_COUNT];
  int depth;                     /* nested calls and regions being run: HR_LIMIT_CALL_DEPTH at most */
  int64_t checks_passed;         /* check.* custom calls and ops that passed */
  const struct hr_process *process; /* the process this interpreter runs in a process grid (grid.h),
                                       or NULL: a single process (one replica, one partition) */
};

/* Polls a run's control (NULL: none): HR_DEADLINE_EXCEEDED once its deadline has passed, else
 * HR_CANCELLED when its callback returns true, else HR_OK. Costs a clock read and a call. */
hr_code hr_control_poll(const hr_run_control *ctl);
/* How the error of a run stopped with `code` (from hr_control_poll) begins: "the run passed its
 * deadline" or "the run was cancelled". */
const char *hr_control_reason(hr_code code);

/* Allocates a zero-filled tensor, enforcing opts.max_tensor_bytes; errors name `op`. */
hr_status hr_interp_alloc(hr_interp *in, const hr_op *op, hr_dtype dtype, const hr_shape *shape,
                          hr_tensor **out);

/* Evaluates a region (a block whose terminator is stablehlo.return / func.return) with `args`
 * bound to the block arguments. On success `results` receives one newly allocated tensor per
 * terminator operand, owned by the caller. Kernels of region-carrying ops (reduce, sort, scatter,
 * while, ...) call this. A region of an op counts as one level of nesting (with calls at most
 * HR_LIMIT_CALL_DEPTH, base/limits.h); a block of no op (an executable's wrapper) does not. */
hr_status hr_interp_run_block(hr_interp *in, const hr_block *block, hr_tensor *const *args,
                              hr_tensor **results);

/* Runs a function with borrowed inputs; results are newly allocated (owned by the caller). A call
 * from within a function counts as one level of nesting; the entry function's body is level 0. */
hr_status hr_interp_call(hr_interp *in, const hr_func *fn, hr_tensor *const *args, hr_tensor **results);

/* interpreter.print's output (print_value.c): `%name = tensor<...> {...}` as StableHLO's reference
 * interpreter prints it; `name` may be NULL. */
void hr_interp_print_value(FILE *out, const char *name, const hr_tensor *t);

/* Calls `fn` for `op` (func.call, stablehlo.composite) with borrowed operands and checks the results
 * against op's result types; on success `results` holds fn's results (owned by the caller). */
hr_status hr_interp_call_checked(hr_interp *in, const hr_op *op, const hr_func *fn, hr_tensor *const *operands,
                                 hr_tensor **results);

/* Creates an interpreter for module `m` (borrowed; must outlive the interpreter) with options
 * (defaults filled in) and every kernel registered. */
hr_status hr_interp_create(const hr_module *m, const hr_run_options *opts, hr_interp **out);
void hr_interp_free(hr_interp *in);

/* Makes `fn` the active function, so that kernels of ops in `fn` that are not run through
 * hr_interp_call (e.g. by an executable) can evaluate their regions. Pair with hr_interp_leave. */
hr_status hr_interp_enter(hr_interp *in, const hr_func *fn);
void hr_interp_leave(hr_interp *in);

/* HR_UNIMPLEMENTED when `op` reads or makes values of a type no kernel runs yet (the narrow float
 * types, index, quantized types, futures), naming the type, or is a custom call of a target
 * hlorun does not have (custom_call.h), naming the target; the interpreter and the executables
 * check every op before running it (executables when they are built). */
hr_status hr_interp_check_types(const hr_op *op);

/* Runs one op outside any block: result types are resolved as the executor does (declared when
 * static, else inferred from the operands) and `results` receives newly allocated tensors.
 * Ops with regions need an active function (hr_interp_enter). Used to fold constants. */
/* The kernel that runs `op`: its table entry, wrapped to dequantize its quantized operands and
 * quantize its results when it computes on quantized values (hr_quant_op_role); NULL when none. */
hr_kernel_fn hr_interp_kernel_for(const hr_interp *in, const hr_op *op);

hr_status hr_interp_exec_op(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results);

#endif

/* Batch splitting: running a call at a large batch as several calls at a smaller one.
 *
 * A function specialized for a batch of B examples (every runtime input's leading dimension B)
 * "splits into chunks" when, for each run of m = B / chunks consecutive examples, it computes
 * exactly what the same function specialized for batch m computes from those examples alone:
 * then a call at batch B can run as `chunks` calls of the batch-m executable, each on consecutive
 * slices of the inputs and writing consecutive slices of the outputs. The point is memory: the
 * intermediates of a batch-m call stay in the caches, where those of one batch-B call stream
 * through DRAM (a transformer's activations at batch 64 are tens of MiB per op).
 *
 * The proof compares the two specializations op by op (they come from one source by the same
 * deterministic steps, so they have the same ops with the same operands). Every value is either
 * "same" (equal types, computed from same values only: equal in both) or "rows" (dimension 0 is
 * chunks times as long in the full program, the others equal, and rows [c m', (c + 1) m') of it,
 * m' its length in the part, are the part's value for chunk c). Per op a rule derives rows
 * results from rows operands: elementwise ops, broadcast_in_dim (rows kept at dimension 0, or a
 * same operand broadcast along it), reshape, transpose keeping dimension 0 first, dot_general
 * with rows only on the lhs's free dimension 0 or on batching dimension 0 of both operands,
 * reduce and concatenate not along dimension 0, slice keeping dimension 0 whole, gather of a same
 * operand at rows indices, scatter with whole windows along dimension 0 or batched on it, windows,
 * convolutions, sorts, pads and reverses that leave dimension 0 alone, constants that repeat per
 * chunk and iota not along dimension 0. Anything else that meets a rows value (a reduction over
 * the batch, a custom call, ...) makes the check fail, and the caller runs the call whole. */
#ifndef HLORUN_COMPILER_SPLIT_H
#define HLORUN_COMPILER_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* The batch a call at batch `batch` should run at: the largest divisor of `batch` at which the
 * largest intermediate of main of `full` (specialized for `batch`) that depends on a runtime
 * input (`is_input[i]`: parameter i is one), scaled to that batch, takes at most `max_bytes`;
 * `batch` itself when that value fits whole, 1 when not even one example's share does. `a`
 * allocates scratch memory. */
int64_t hr_split_batch(const hr_module *full, const bool *is_input, int64_t batch, size_t max_bytes,
                       const hr_allocator *a);

/* NULL when main of `full` splits into `chunks` (>= 2) runs of main of `part`, the same function
 * specialized for 1 / chunks of the batch; otherwise an UNIMPLEMENTED error naming the op of
 * `full` (file:line:col) and why it does not split. `a` allocates scratch memory. */
hr_status hr_split_check(const hr_module *full, const hr_module *part, int64_t chunks, const hr_allocator *a);

#endif

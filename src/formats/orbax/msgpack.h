/* The legacy Flax/Orbax msgpack checkpoint (`checkpoint` file): a nested map of names to arrays
 * (msgpack ext type 1: [shape, dtype name, raw bytes]), scalars, and "PLACEHOLDER://<path>"
 * strings that stand for arrays saved elsewhere (zarr directories of an aggregate checkpoint). */
#ifndef HLORUN_FORMATS_ORBAX_MSGPACK_H
#define HLORUN_FORMATS_ORBAX_MSGPACK_H

#include <stddef.h>

#include "hlorun/hlorun.h"

/* Called for each leaf of the tree, in file order, with its dotted path ("params.dense.kernel";
 * list items are indices "0", "1" ...). Exactly one of `tensor` and `placeholder` is non-NULL:
 * the leaf's array (owned by the callee from then on, allocated with the reader's allocator;
 * scalars are rank-0 tensors) or the placeholder's target path. A non-NULL status stops reading
 * and is returned. */
typedef hr_status (*hr_msgpack_leaf_fn)(void *ctx, const char *path, hr_tensor *tensor, const char *placeholder);

/* Reads the checkpoint in `data`; `name` names it in errors ("ckpt/checkpoint: offset 12: ...").
 * Every array above `max_bytes` is refused; nesting is bounded. */
hr_status hr_msgpack_read_checkpoint(const char *name, const unsigned char *data, size_t len, const hr_allocator *a,
                                     size_t max_bytes, hr_msgpack_leaf_fn fn, void *ctx);

#endif

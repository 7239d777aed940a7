/* zarr arrays (v2: `.zarray`; v3: `zarr.json`) read from a key-value store, as tensorstore writes
 * them for Orbax: the chunk grid assembled into one dense row-major tensor. */
#ifndef HLORUN_FORMATS_ORBAX_ZARR_H
#define HLORUN_FORMATS_ORBAX_ZARR_H

#include "formats/orbax/kvstore.h"
#include "hlorun/hlorun.h"

/* The element type and shape of the array under `prefix` ("params.dense.kernel"; its metadata is
 * `prefix`/.zarray or `prefix`/zarr.json), without reading chunks. */
hr_status hr_zarr_read_info(hr_kvstore *kv, const char *prefix, hr_dtype *dtype, hr_shape *shape);
/* Reads the whole array under `prefix` into dst[0..nbytes) (nbytes: its element count times its
 * type's size, as hr_zarr_read_info gives them; anything else is refused). Every element is written
 * unless `zeroed` says dst holds zeros already: then missing chunks of a zero fill value are skipped. */
hr_status hr_zarr_read_into(hr_kvstore *kv, const char *prefix, const hr_allocator *a, void *dst, size_t nbytes,
                            bool zeroed);
/* Reads the whole array under `prefix` into a new tensor allocated with `a` (NULL: the default;
 * missing chunks take the fill value). Arrays above `max_bytes` (0: HR_LIMIT_ORBAX_BYTES), and
 * arrays whose chunks are, are refused before anything is allocated. */
hr_status hr_zarr_read_array(hr_kvstore *kv, const char *prefix, const hr_allocator *a, size_t max_bytes,
                             hr_tensor **out);
/* Encodes tensor `t` as tensorstore writes a zarr v2 array for Orbax: *zarray_json the .zarray text
 * (NUL-terminated) and *chunk (*chunk_len bytes) the one zstd frame (level `zstd_level`) of the
 * whole array in C order, its key "0.0..." ("0" for rank 0). Both are allocated with `a` (NULL:
 * hr_default_allocator()); the caller frees them. */
hr_status hr_zarr_encode_v2(const hr_tensor *t, int zstd_level, char **zarray_json, unsigned char **chunk,
                            size_t *chunk_len, const hr_allocator *a);

#endif

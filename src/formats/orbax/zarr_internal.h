/* The zarr reader's parsed metadata, shared by its two halves: zarr.c (the .zarray / zarr.json
 * text, both versions in one form) and zarr_read.c (chunk keys, codecs, assembling the tensor). */
#ifndef HLORUN_FORMATS_ORBAX_ZARR_INTERNAL_H
#define HLORUN_FORMATS_ORBAX_ZARR_INTERNAL_H

#include <stdint.h>

#include "base/limits.h"
#include "formats/orbax/kvstore.h"
#include "hlorun/hlorun.h"

/* A bytes-to-bytes codec (zarr v2's compressor, zarr v3's zstd / gzip / crc32c). */
typedef enum zr_codec { ZR_ZSTD, ZR_ZLIB, ZR_GZIP, ZR_CRC32C } zr_codec;

/* How one chunk becomes bytes: level 0 is the array's chunk; a sharded level's bytes hold the
 * chunks of the next level and an index. Coordinates: a level's input is the chunk of `shape`
 * (level 0: array coordinates; level n+1: level n's encoded coordinates); transposes (and zarr v2's
 * order F) make the encoded array, whose dimension j is the array's dimension perm[j] and whose
 * size is eshape[j]. The bytes hold the encoded array's elements in C order (or its inner chunks,
 * C order over grid). */
typedef struct zr_level {
  int64_t shape[HR_MAX_RANK];
  int64_t eshape[HR_MAX_RANK];
  int perm[HR_MAX_RANK];
  size_t bytes;     /* decoded bytes of one chunk at this level (elements * element size) */
  bool big_endian;  /* the `bytes` codec's (or zarr v2 dtype's) byte order */
  int n_codecs;     /* bytes-to-bytes codecs after the array-to-bytes one, in metadata order */
  zr_codec codecs[HR_LIMIT_ZARR_CODECS];
  bool sharded;     /* sharding_indexed: the bytes are a shard of level+1 chunks */
  bool index_at_start, index_big_endian, index_crc;
  int64_t grid[HR_MAX_RANK]; /* inner chunks along each encoded dimension (sharded only) */
  int64_t n_inner;
} zr_level;

typedef struct zr_array {
  char where[HR_LIMIT_ORBAX_PATH_BYTES + 64]; /* "<store>/<prefix>/.zarray": the metadata, in messages */
  int version;                                /* 2 or 3 */
  hr_dtype dtype;
  hr_shape shape;
  int64_t chunks[HR_MAX_RANK];  /* the chunk grid's cell (= levels[0].shape) */
  int64_t n_chunks;             /* cells of the grid (0 for an empty array) */
  char separator;               /* between chunk indices in a key */
  bool key_prefix_c;            /* zarr v3 "default" keys: "c/0/1" ("c" for rank 0); else "0.1" ("0") */
  unsigned char fill[16];       /* one element of the fill value, in memory layout */
  bool fill_nonzero;
  int n_levels;
  zr_level levels[HR_LIMIT_ZARR_SHARD_DEPTH + 1];
} zr_array;

/* Reads and parses the metadata of the array under `prefix` (its .zarray, else its zarr.json). */
hr_status zr_read_metadata(hr_kvstore *kv, const char *prefix, const hr_allocator *a, zr_array *z);

#endif

/* What the TensorBundle files share (bundle.h): the bundle itself (bundle.c: entries and data
 * files), the LevelDB table scan (bundle_table.c), the object graph (bundle_objects.c) and the
 * writer (bundle_write.c). */
#ifndef HLORUN_FORMATS_SAVEDMODEL_BUNDLE_INTERNAL_H
#define HLORUN_FORMATS_SAVEDMODEL_BUNDLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "formats/protobuf/pb.h"
#include "formats/savedmodel/bundle.h"

/* LevelDB's masking of stored CRCs (a CRC of data holding CRCs stays strong), and its inverse. */
#define BD_CRC_MASK_DELTA 0xa282ead8u
static inline uint32_t bd_crc_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + BD_CRC_MASK_DELTA; }
static inline uint32_t bd_crc_unmask(uint32_t masked) {
  uint32_t rot = masked - BD_CRC_MASK_DELTA;
  return (rot >> 17) | (rot << 15);
}

/* Reads a little-endian 32-bit value. */
static inline uint32_t bd_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---------------------------------------------------------------------------------------------- */
/* The LevelDB table (bundle_table.c)                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* Receives one key of the table, in order: `key` (NUL-terminated, `key_len` bytes, no NUL inside)
 * and a cursor over its value (messages from it name the index file, or the decompressed block,
 * and offsets in it). */
typedef hr_status (*bd_table_visit)(void *ctx, const char *key, size_t key_len, const hr_pb *value);

/* Walks the table held in `len` bytes at `file` (named `name` in errors): the footer, the index
 * block, and every data block in order, each checked against its CRC and decompressed where it is
 * snappy, calling `visit` for each key, which must sort strictly after the one before it. */
hr_status bd_table_scan(const char *name, const uint8_t *file, size_t len, const hr_allocator *a, bd_table_visit visit,
                        void *ctx);

/* ---------------------------------------------------------------------------------------------- */
/* The bundle (bundle.c) and its object graph (bundle_objects.c)                                   */
/* ---------------------------------------------------------------------------------------------- */

/* A data file: its bytes (mapped by hr_bundle_open, given to hr_bundle_read_index) and its name. */
typedef struct bd_shard {
  const uint8_t *data;
  size_t len;
  bool loaded; /* data and len are set */
  bool mapped; /* hr_bundle_close unmaps it */
  const char *name;
} bd_shard;

/* An entry as read: what callers see, and its stored checksum (unmasked). */
typedef struct bd_entry {
  hr_bundle_entry e;
  uint32_t crc;
} bd_entry;

/* An edge of the object graph: the child's node id and its name. */
typedef struct bd_child {
  int node;
  const char *name;
} bd_child;

/* A tensor an object saves: its name ("VARIABLE_VALUE") and the key of its entry. */
typedef struct bd_attr {
  const char *name, *key;
} bd_attr;

/* A node of the object graph. */
typedef struct bd_object {
  int n_children;
  bd_child *children;
  int n_attrs;
  bd_attr *attrs;
} bd_object;

struct hr_bundle {
  hr_arena arena; /* everything below but the mapped files and `entries` */
  const hr_allocator *a;
  const char *name;     /* the prefix, for errors */
  const char *index_name;
  void *index_map;      /* the mapped index (hr_bundle_open), else NULL */
  size_t index_len;
  bool with_data;       /* the data files are read (all but hr_bundle_read_index without shards) */
  bool from_files;      /* data files are mapped from name.data-NNNNN-of-NNNNN */
  int n_given;          /* hr_bundle_read_index: the data files given */
  const void *const *given;
  const size_t *given_lens;
  int num_shards;       /* the header's */
  bool have_header;
  bd_shard *shards;     /* num_shards */
  int n_entries, cap;
  bd_entry *entries;        /* allocated with `a`, grown while the index is read */
  int64_t n_strings;        /* DT_STRING elements indexed so far */
  int n_objects;
  bd_object *objects;
};

/* Decodes the TrackableObjectGraph message `c` covers into b->objects. */
hr_status bd_objects_read(hr_bundle *b, const hr_pb *c);

#endif

/* TensorBundle: the checkpoint format of TensorFlow (tf.train.Checkpoint, tf.saved_model.save's
 * variables/), read without TensorFlow. A bundle at prefix P is an index, P.index, and data files
 * P.data-NNNNN-of-MMMMM. The index is a LevelDB table (footer, index block, data blocks of
 * prefix-compressed keys with restart arrays, each block checked against its masked CRC-32C,
 * snappy-compressed blocks decoded, as TF 1.x wrote them) mapping "" to a BundleHeaderProto and
 * every tensor's key to a BundleEntryProto: its dtype, shape, data file, offset, size and masked
 * CRC-32C. Opening reads every entry and checks it against its data file, which is mapped and stays
 * mapped: an entry's bytes are used in place, never copied. A DT_STRING tensor's elements are
 * indexed; the string entry "_CHECKPOINTABLE_OBJECT_GRAPH" (a TrackableObjectGraph, which TF2
 * writes) is decoded so that an object's checkpoint keys can be asked for by its node id.
 *
 * Refused with an error naming the file and the byte offset (or the key): a corrupt or truncated
 * table, keys out of order or duplicated, a big-endian bundle, a format version newer than 1,
 * partitioned (sliced) variables, DT_VARIANT and DT_RESOURCE entries, a data range outside its
 * file, a size other than the dtype's times the shape's, a checksum that does not match. Bounds
 * come from base/limits.h (HR_LIMIT_BUNDLE_*, HR_LIMIT_TF_KEY_BYTES, HR_LIMIT_TF_LIST). */
#ifndef HLORUN_FORMATS_SAVEDMODEL_BUNDLE_H
#define HLORUN_FORMATS_SAVEDMODEL_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "hlorun/hlorun.h"

typedef struct hr_bundle hr_bundle;

/* The key of the object graph TF2 checkpoints hold (TF's kObjectGraphProtoKey). */
#define HR_BUNDLE_OBJECT_GRAPH_KEY "_CHECKPOINTABLE_OBJECT_GRAPH"

/* One element of a DT_STRING tensor: bytes in the data file (not NUL-terminated). */
typedef struct hr_bundle_string {
  const char *data;
  size_t len;
} hr_bundle_string;

/* One tensor of the bundle. */
typedef struct hr_bundle_entry {
  const char *key;
  int tf_dtype;   /* its TF DataType (tf_types.h) */
  hr_dtype dtype; /* the hlorun type of tf_dtype; HR_DTYPE_INVALID for DT_STRING and the quantized types */
  hr_shape shape;
  int64_t num_elements;
  int shard;       /* its data file */
  uint64_t offset; /* where its bytes start in that file */
  /* Its bytes as stored, inside the mapped data file: row-major little-endian elements, or for a
   * DT_STRING the varint lengths, a checksum and the strings. Not necessarily aligned for the
   * dtype (TF writes tensors back to back unless told to align them). NULL when nbytes is 0 and
   * when the bundle was read without its data (hr_bundle_read_index). */
  const void *data;
  size_t nbytes;
  /* DT_STRING: num_elements strings (NULL without data); NULL for other types. */
  const hr_bundle_string *strings;
} hr_bundle_entry;

/* Opens the bundle at `prefix` ("DIR/variables/variables": the index is prefix.index). `a`: NULL
 * for the default allocator. */
hr_status hr_bundle_open(const char *prefix, const hr_allocator *a, hr_bundle **out);
/* Reads a bundle held in memory: the index's `index_len` bytes and the `n_shards` data files
 * (`shards[i]`, `shard_lens[i]` bytes: data file i, as if named `name`.data-0000i-of-...). An entry
 * in a data file past n_shards is an error. With `shards` NULL the data files are not read:
 * entries carry no bytes and their sizes and checksums are not checked (an index inspected alone;
 * the fuzzer). Everything given must outlive the bundle. `name` names the bundle in errors. */
hr_status hr_bundle_read_index(const char *name, const void *index, size_t index_len, const void *const *shards,
                               const size_t *shard_lens, int n_shards, const hr_allocator *a, hr_bundle **out);
/* Unmaps its files and frees it (NULL: nothing). */
void hr_bundle_close(hr_bundle *b);

/* Its entries, sorted by key (bytewise), the header entry "" not among them. */
int hr_bundle_count(const hr_bundle *b);
const hr_bundle_entry *hr_bundle_at(const hr_bundle *b, int i);
/* The entry of `key`, or NULL when absent. */
const hr_bundle_entry *hr_bundle_find(const hr_bundle *b, const char *key);

/* The nodes of the object graph (_CHECKPOINTABLE_OBJECT_GRAPH); 0 when the bundle has none (TF1
 * checkpoints) or was read without its data. Node 0 is the root. Its node ids need not be the
 * SavedModel object graph's: TensorFlow's C++ loader (SavedModelV2Bundle::VisitObjectsToRestore)
 * pairs the two graphs' nodes by walking both from their roots by child names, and so should a
 * caller (hr_bundle_object_child). */
int hr_bundle_object_count(const hr_bundle *b);
/* The child named `local_name` of node `node`, or -1 when there is none. */
int hr_bundle_object_child(const hr_bundle *b, int node, const char *local_name);
/* The checkpoint key of node `node`'s attribute named `attr` ("VARIABLE_VALUE" for a variable's
 * value), or NULL when the node or the attribute does not exist. The key names an entry when the
 * checkpoint is whole: hr_bundle_find gives it. */
const char *hr_bundle_object_key(const hr_bundle *b, int node, const char *attr);

/* Writes the tensors of `w` as a TensorBundle checkpoint, PREFIX.index and
 * PREFIX.data-00000-of-00001, as TF's BundleWriter does for one process (bundle_write.c): keys are
 * the weights' names, each tensor's type one TensorFlow has. `object_graph` (NULL: none) is a
 * serialized TrackableObjectGraph of `object_graph_len` bytes, stored under
 * HR_BUNDLE_OBJECT_GRAPH_KEY as TF2 checkpoints store it. */
struct hr_weights;
hr_status hr_bundle_write(const char *prefix, const struct hr_weights *w, const void *object_graph,
                          size_t object_graph_len);

#endif

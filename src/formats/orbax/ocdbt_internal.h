/* OCDBT's on-disk format (tensorstore's kvstore/ocdbt/index.rst), shared by the reader
 * (ocdbt_decode.c decodes manifests and B+tree nodes, ocdbt.c is the store over them) and the
 * writer (ocdbt_write.c).
 *
 * Every record (manifest, B+tree node, version tree node) is: magic (u32 big-endian), length of
 * the whole record (u64 little-endian), version (uleb128, 0), compression (uleb128: 0 none, 1 a
 * zstd stream of the body), body, CRC-32C of everything before it (u32 little-endian). Integers in
 * bodies are uleb128 unless said otherwise. */
#ifndef HLORUN_FORMATS_ORBAX_OCDBT_INTERNAL_H
#define HLORUN_FORMATS_ORBAX_OCDBT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hlorun/hlorun.h"

#define OC_MANIFEST_MAGIC 0x0cdb3a2au
#define OC_BTREE_MAGIC 0x0cdb20deu
/* The smallest record: magic, length, version, compression, CRC. */
#define OC_RECORD_MIN_BYTES 18u
/* A record's fixed head (magic, length) and its CRC tail. */
#define OC_RECORD_HEAD_BYTES 12u
#define OC_RECORD_CRC_BYTES 4u
/* A version's root offset and length when its B+tree is empty. */
#define OC_MISSING UINT64_MAX
/* manifest_kind: versions in manifest.ocdbt, or in manifest.<16 hex digits> files. */
enum { OC_MANIFEST_SINGLE = 0, OC_MANIFEST_NUMBERED = 1 };
/* The arity of the version tree the writer declares (tensorstore's default, 2^4). */
#define OC_VERSION_TREE_ARITY_LOG2 4
/* The largest inline value tensorstore reads (kMaxInlineValueLength). */
#define OC_MAX_INLINE_VALUE_BYTES ((size_t)1 << 20)

/* A data file table: the files a record refers to by index, each as its full path below the
 * database (transitive path + base path + relative path) and the length of its first two parts,
 * which is the transitive path of the records read from that file. */
typedef struct oc_table {
  uint32_t n;
  char **paths;       /* n NUL-terminated paths */
  size_t *trans_len;  /* n lengths */
  void *block;        /* the one allocation holding the above */
} oc_table;

/* A byte range of a data file (an out-of-line value or a node). */
typedef struct oc_ref {
  uint32_t file; /* index into the table of the record naming it */
  uint64_t offset, length;
} oc_ref;

/* One entry of a B+tree node. Keys are relative to the node's prefix (the subtree common
 * prefixes of the entries leading to it). */
typedef struct oc_entry {
  const unsigned char *key;
  uint32_t key_len;
  uint32_t subtree_prefix; /* interior: bytes of `key` every key below this child starts with */
  bool indirect;           /* leaf: the value is at `ref` in a data file */
  uint64_t value_len;      /* leaf */
  const unsigned char *value; /* leaf, inline value (in the node's body) */
  oc_ref ref;              /* leaf: the out-of-line value; interior: the child node */
} oc_entry;

/* A decoded B+tree node; owns its memory. */
typedef struct oc_node {
  int height; /* 0: leaf */
  uint32_t n; /* entries, at least 1 */
  oc_entry *entries;
  oc_table table;
  unsigned char *body; /* the decompressed body (inline values point into it) */
  unsigned char *keys; /* the keys written out in full */
} oc_node;

/* A decoded manifest: its configuration and, for the single kind, the latest version's root. */
typedef struct oc_manifest {
  int kind; /* OC_MANIFEST_* */
  int compression; /* 0 none, 1 zstd: the configuration's compression method */
  oc_table table;
  uint64_t generation;
  bool empty;  /* the latest version has no B+tree */
  int root_height;
  oc_ref root;
  uint64_t num_keys;
} oc_manifest;

/* Orders keys as bytes (a key sorts before the keys it is a prefix of): <0, 0 or >0. */
static inline int oc_key_cmp(const unsigned char *a, size_t an, const unsigned char *b, size_t bn) {
  int c = memcmp(a, b, an < bn ? an : bn);
  return c ? c : (an > bn) - (an < bn);
}

/* Decodes the manifest `file` (data[0..len)); `m` must be zero-filled and is freed with
 * oc_manifest_free, even after an error. */
hr_status oc_decode_manifest(const char *file, const unsigned char *data, size_t len, const hr_allocator *a,
                             oc_manifest *m);
void oc_manifest_free(oc_manifest *m, const hr_allocator *a);

/* Decodes the B+tree node stored at data[0..len), `offset` bytes into `file`, whose data file
 * paths continue the transitive path `trans` (trans_len bytes). `node` must be zero-filled and
 * is freed with oc_node_free, even after an error. */
hr_status oc_decode_node(const char *file, uint64_t offset, const unsigned char *data, size_t len,
                         const char *trans, size_t trans_len, const hr_allocator *a, oc_node *node);
void oc_node_free(oc_node *node, const hr_allocator *a);

#endif

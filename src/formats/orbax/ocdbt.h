/* Writing an OCDBT database (the key-value store under an Orbax checkpoint) that
 * hr_kvstore_open_ocdbt and tensorstore read. Reading is kvstore.h's. */
#ifndef HLORUN_FORMATS_ORBAX_OCDBT_H
#define HLORUN_FORMATS_ORBAX_OCDBT_H

#include <stdbool.h>
#include <stddef.h>

#include "hlorun/hlorun.h"

/* One key and its value. */
typedef struct hr_ocdbt_entry {
  const char *key; /* at most HR_LIMIT_OCDBT_KEY_BYTES bytes */
  const void *value;
  size_t len;
} hr_ocdbt_entry;

typedef struct hr_ocdbt_write_options {
  /* Values up to this many bytes are stored in their B+tree leaf, larger ones in the data file
   * (0: 1024, what Orbax uses; at most 1 MiB, the most tensorstore reads inline). */
  size_t max_inline_value_bytes;
  /* Store the manifest and the B+tree nodes uncompressed (the default, as Orbax does, is zstd). */
  bool uncompressed;
  /* Entries of one B+tree node, leaf or interior (0: 4096; else at least 2): a small value gives a
   * tree of several levels. Nodes also end at about 1 MiB of entries. */
  int max_node_entries;
  /* 16 bytes: the database's uuid, which also names its data file (NULL: random). */
  const unsigned char *uuid;
} hr_ocdbt_write_options;

/* Writes the `n` entries (any order; keys distinct) as a new database in the directory `root`
 * (created if missing; refused if it already holds a manifest.ocdbt): one data file
 * d/<32 hex digits> holding the out-of-line values and the B+tree nodes, then, last, a
 * manifest.ocdbt of the single kind with one version (generation 1). `opts` NULL: defaults. */
hr_status hr_ocdbt_write(const char *root, const hr_ocdbt_entry *entries, int n, const hr_ocdbt_write_options *opts);

#endif

/* Builders for the TensorFlow files tests write (test_bundle.c, test_savedmodel.c), from the formats'
 * descriptions: byte buffers and the protobuf wire format, a snappy encoder, LevelDB tables (the
 * TensorBundle index), and TensorBundle checkpoints (an index and its data files). */
#ifndef HLORUN_TESTS_FORMATS_TF_BUILD_H
#define HLORUN_TESTS_FORMATS_TF_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/crc.h"

/* The builders' storage: static, and marked unused so that a test using only some of them compiles
 * (not `inline`: that changes GCC's inlining, and its -Wstringop-overflow then misjudges put). */
#define TF_BUILD static __attribute__((unused))

/* ---------------------------------------------------------------------------------------------- */
/* Byte buffers and the protobuf wire format                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* A growable byte buffer ({0} is empty); its owner frees p. */
typedef struct buf {
  uint8_t *p;
  size_t n, cap;
} buf;

/* Appends d[0..n). */
TF_BUILD void put(buf *b, const void *d, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = 2 * (b->n + n + 1);
    b->p = realloc(b->p, b->cap);
  }
  if (n) memcpy(b->p + b->n, d, n);
  b->n += n;
}

/* Appends one byte. */
TF_BUILD void put_byte(buf *b, uint8_t v) { put(b, &v, 1); }

/* Appends `v` as a base-128 varint. */
TF_BUILD void put_varint(buf *b, uint64_t v) {
  for (; v >= 0x80; v >>= 7) put_byte(b, (uint8_t)(v | 0x80));
  put_byte(b, (uint8_t)v);
}

/* Appends `v` as 4 little-endian bytes. */
TF_BUILD void put_le32(buf *b, uint32_t v) {
  uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  put(b, x, 4);
}

/* Protobuf field `field` holding the varint `v`. */
TF_BUILD void pb_varint(buf *b, int field, uint64_t v) {
  put_varint(b, (uint64_t)field << 3);
  put_varint(b, v);
}

/* Protobuf field `field` holding the n bytes at d (LEN). */
TF_BUILD void pb_bytes(buf *b, int field, const void *d, size_t n) {
  put_varint(b, (uint64_t)field << 3 | 2);
  put_varint(b, n);
  put(b, d, n);
}

/* Protobuf field `field` holding the string s. */
TF_BUILD void pb_str(buf *b, int field, const char *s) { pb_bytes(b, field, s, strlen(s)); }

/* Protobuf field `field` holding the message built in m (freed and emptied). */
TF_BUILD void pb_msg(buf *b, int field, buf *m) {
  pb_bytes(b, field, m->p, m->n);
  free(m->p);
  *m = (buf){0};
}

/* Protobuf field `field` holding the fixed32 `v`. */
TF_BUILD void pb_fixed32(buf *b, int field, uint32_t v) {
  put_varint(b, (uint64_t)field << 3 | 5);
  put_le32(b, v);
}

/* A CRC32C masked as LevelDB and TensorBundle store them. */
TF_BUILD uint32_t mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

/* ---------------------------------------------------------------------------------------------- */
/* Snappy and LevelDB tables                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Appends a snappy literal of d[0..n) (n <= 256). */
TF_BUILD void put_literal(buf *out, const uint8_t *d, size_t n) {
  if (n <= 60) put_byte(out, (uint8_t)((n - 1) << 2));
  else {
    put_byte(out, 60 << 2);
    put_byte(out, (uint8_t)(n - 1));
  }
  put(out, d, n);
}

/* Snappy-encodes `n` bytes: literals (of up to 70 bytes, so that long ones take a length byte) and
 * greedy copies of earlier bytes, the three copy kinds in turn. */
TF_BUILD void snappy_encode(buf *out, const uint8_t *d, size_t n) {
  put_varint(out, n);
  size_t lit = 0, i = 0;
  int kind = 0;
  while (i < n) {
    size_t best = 0, off = 0;
    for (size_t back = 1; back <= i && back <= 2047; back++) {
      size_t m = 0;
      while (i + m < n && m < 11 && d[i + m - back] == d[i + m]) m++;
      if (m > best) best = m, off = back;
    }
    if (best < 4 && i - lit < 70) {
      i++;
      continue;
    }
    if (i > lit) put_literal(out, d + lit, i - lit);
    if (best >= 4) {
      int k = kind++ % 3;
      if (k == 0) {
        put_byte(out, (uint8_t)(1 | (best - 4) << 2 | (off >> 8) << 5));
        put_byte(out, (uint8_t)off);
      } else {
        put_byte(out, (uint8_t)((k == 1 ? 2 : 3) | (best - 1) << 2));
        put_byte(out, (uint8_t)off);
        put_byte(out, (uint8_t)(off >> 8));
        if (k == 2) put_byte(out, 0), put_byte(out, 0);
      }
      i += best;
    }
    lit = i;
  }
  if (n > lit) put_literal(out, d + lit, n - lit);
}

/* How a table's data blocks are laid out. */
typedef struct table_opts {
  int per_block;        /* entries per data block (0: all in one) */
  int restart_interval; /* entries between restart points (0: 16) */
  bool snappy;
} table_opts;

/* Appends block `contents` (freed) with its trailer saying `compression`, snappy-encoding it first
 * when `encode`; returns its handle. */
TF_BUILD void write_block(buf *file, buf *contents, int compression, bool encode, uint64_t *offset, uint64_t *size) {
  buf enc = {0};
  if (encode) snappy_encode(&enc, contents->p, contents->n);
  else put(&enc, contents->p, contents->n);
  *offset = file->n;
  *size = enc.n;
  put_byte(&enc, (uint8_t)compression);
  uint32_t crc = hr_crc32c(0, enc.p, enc.n);
  put(file, enc.p, enc.n);
  put_le32(file, mask(crc));
  free(enc.p);
  free(contents->p);
  *contents = (buf){0};
}

/* A block of entries keys[0..n) -> values[0..n). */
TF_BUILD void build_block(buf *out, const char *const *keys, const buf *values, int n, int restart_interval) {
  buf restarts = {0};
  const char *prev = "";
  for (int i = 0; i < n; i++) {
    size_t shared = 0;
    if (i % restart_interval == 0) put_le32(&restarts, (uint32_t)out->n);
    else
      while (prev[shared] && prev[shared] == keys[i][shared]) shared++;
    size_t own = strlen(keys[i]) - shared;
    put_varint(out, shared);
    put_varint(out, own);
    put_varint(out, values[i].n);
    put(out, keys[i] + shared, own);
    put(out, values[i].p, values[i].n);
    prev = keys[i];
  }
  if (n == 0) put_le32(&restarts, 0);
  put(out, restarts.p, restarts.n);
  put_le32(out, (uint32_t)(restarts.n / 4));
  free(restarts.p);
}

/* Appends the metaindex (empty), the index block of the `n_blocks` data blocks (index_values: their
 * handles, freed) and the footer to `file`. */
TF_BUILD void finish_table(buf *file, const char *const *index_keys, buf *index_values, int n_blocks) {
  buf meta = {0}, index = {0}, footer = {0};
  uint64_t meta_offset, meta_size, index_offset, index_size;
  build_block(&meta, NULL, NULL, 0, 1);
  write_block(file, &meta, 0, false, &meta_offset, &meta_size);
  build_block(&index, index_keys, index_values, n_blocks, 1);
  write_block(file, &index, 0, false, &index_offset, &index_size);
  put_varint(&footer, meta_offset);
  put_varint(&footer, meta_size);
  put_varint(&footer, index_offset);
  put_varint(&footer, index_size);
  while (footer.n < 40) put_byte(&footer, 0);
  put_le32(&footer, 0x8b80fb57u);
  put_le32(&footer, 0xdb477524u);
  put(file, footer.p, footer.n);
  free(footer.p);
  for (int i = 0; i < n_blocks; i++) free(index_values[i].p);
}

/* A LevelDB table of the sorted keys[0..n) -> values[0..n). */
TF_BUILD buf build_table(const char *const *keys, const buf *values, int n, const table_opts *o) {
  buf file = {0}, index_values[64] = {{0}};
  const char *index_keys[64];
  int per = o->per_block ? o->per_block : n, interval = o->restart_interval ? o->restart_interval : 16, n_blocks = 0;
  for (int first = 0; first < n; first += per, n_blocks++) {
    int count = first + per <= n ? per : n - first;
    buf block = {0};
    build_block(&block, keys + first, values + first, count, interval);
    uint64_t offset, size;
    write_block(&file, &block, o->snappy ? 1 : 0, o->snappy, &offset, &size);
    index_keys[n_blocks] = keys[first + count - 1];
    put_varint(&index_values[n_blocks], offset);
    put_varint(&index_values[n_blocks], size);
  }
  finish_table(&file, index_keys, index_values, n_blocks);
  return file;
}

/* A table of one data block whose stored bytes are `stored` (freed), of compression `compression`. */
TF_BUILD buf raw_table(buf *stored, int compression) {
  buf file = {0}, handle = {0};
  uint64_t offset, size;
  write_block(&file, stored, compression, false, &offset, &size);
  put_varint(&handle, offset);
  put_varint(&handle, size);
  const char *key = "k";
  finish_table(&file, &key, &handle, 1);
  return file;
}

/* ---------------------------------------------------------------------------------------------- */
/* Bundles                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

enum { MAX_ENTRIES = 32, DT_FLOAT = 1, DT_INT64 = 9, DT_BOOL = 10, DT_BFLOAT16 = 14, DT_STRING = 7, DT_VARIANT = 21 };

/* A bundle being built: its entries (any order), header and two data files. */
typedef struct bundle_builder {
  int n;
  const char *keys[MAX_ENTRIES];
  buf values[MAX_ENTRIES];
  buf header;
  buf shards[2];
} bundle_builder;

/* The header: `num_shards` data files, `endianness`, format version 1 needing `min_consumer`. */
TF_BUILD void set_header(bundle_builder *bb, int num_shards, int endianness, int min_consumer) {
  free(bb->header.p);
  bb->header = (buf){0};
  buf version = {0};
  pb_varint(&version, 1, 1);
  if (min_consumer) pb_varint(&version, 2, (uint64_t)min_consumer);
  pb_varint(&bb->header, 1, (uint64_t)num_shards);
  if (endianness) pb_varint(&bb->header, 2, (uint64_t)endianness);
  pb_msg(&bb->header, 3, &version);
}

/* An empty bundle whose header says 2 little-endian data files. */
TF_BUILD void builder_init(bundle_builder *bb) {
  memset(bb, 0, sizeof *bb);
  set_header(bb, 2, 0, 0);
}

/* Frees what the builder holds. */
TF_BUILD void builder_free(bundle_builder *bb) {
  for (int i = 0; i < bb->n; i++) free(bb->values[i].p);
  free(bb->header.p);
  free(bb->shards[0].p);
  free(bb->shards[1].p);
}

/* A BundleEntryProto without its crc32c: dtype, shape, shard, offset, size. */
TF_BUILD buf entry_proto(int dtype, int rank, const int64_t *dims, int shard, size_t offset, size_t size) {
  buf e = {0}, shape = {0};
  pb_varint(&e, 1, (uint64_t)dtype);
  for (int i = 0; i < rank; i++) {
    buf dim = {0};
    pb_varint(&dim, 1, (uint64_t)dims[i]);
    pb_msg(&shape, 2, &dim);
  }
  pb_msg(&e, 2, &shape);
  if (shard) pb_varint(&e, 3, (uint64_t)shard);
  if (offset) pb_varint(&e, 4, offset);
  pb_varint(&e, 5, size);
  return e;
}

/* Adds an entry of key `key` whose BundleEntryProto is `value`. */
TF_BUILD void add_raw(bundle_builder *bb, const char *key, buf value) {
  bb->keys[bb->n] = key;
  bb->values[bb->n++] = value;
}

/* Adds a tensor of `n` stored bytes to data file `shard`. */
TF_BUILD void add_tensor(bundle_builder *bb, const char *key, int dtype, int rank, const int64_t *dims, const void *data,
                         size_t n, int shard) {
  buf *s = &bb->shards[shard];
  buf e = entry_proto(dtype, rank, dims, shard, s->n, n);
  pb_fixed32(&e, 6, mask(hr_crc32c(0, data, n)));
  put(s, data, n);
  put_byte(s, 0); /* padding between tensors, which no entry covers */
  add_raw(bb, key, e);
}

/* Adds a DT_STRING tensor of the `n` strings to data file 0, laid out and checksummed as TF does. */
TF_BUILD void add_strings(bundle_builder *bb, const char *key, int rank, const int64_t *dims, const char *const *strs, int n) {
  buf body = {0};
  uint32_t crc = 0;
  for (int i = 0; i < n; i++) {
    put_varint(&body, strlen(strs[i]));
    uint8_t len[4] = {(uint8_t)strlen(strs[i]), (uint8_t)(strlen(strs[i]) >> 8), 0, 0};
    crc = hr_crc32c(crc, len, 4);
  }
  put_le32(&body, mask(crc));
  crc = hr_crc32c(crc, body.p + body.n - 4, 4);
  for (int i = 0; i < n; i++) {
    put(&body, strs[i], strlen(strs[i]));
    crc = hr_crc32c(crc, strs[i], strlen(strs[i]));
  }
  buf e = entry_proto(DT_STRING, rank, dims, 0, bb->shards[0].n, body.n);
  pb_fixed32(&e, 6, mask(crc));
  put(&bb->shards[0], body.p, body.n);
  free(body.p);
  add_raw(bb, key, e);
}

/* The bundle's index: its header and entries sorted by key. */
TF_BUILD buf build_index(const bundle_builder *bb, const table_opts *o) {
  const char *keys[MAX_ENTRIES + 1] = {""};
  buf values[MAX_ENTRIES + 1] = {bb->header};
  int order[MAX_ENTRIES];
  for (int i = 0; i < bb->n; i++) order[i] = i;
  for (int i = 1; i < bb->n; i++) /* insertion sort by key */
    for (int j = i; j > 0 && strcmp(bb->keys[order[j - 1]], bb->keys[order[j]]) > 0; j--) {
      int t = order[j];
      order[j] = order[j - 1], order[j - 1] = t;
    }
  for (int i = 0; i < bb->n; i++) keys[i + 1] = bb->keys[order[i]], values[i + 1] = bb->values[order[i]];
  return build_table(keys, values, bb->n + 1, o);
}

#endif

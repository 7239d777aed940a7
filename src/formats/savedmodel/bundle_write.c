/* hr_bundle_write (bundle.h): a TensorBundle checkpoint as TF's BundleWriter lays one out for a
 * single process: PREFIX.data-00000-of-00001 holds the tensors back to back, PREFIX.index a
 * LevelDB table of one uncompressed data block (a restart point at every entry) mapping "" to the
 * BundleHeaderProto and each key, in byte order, to its BundleEntryProto (dtype, shape, offset,
 * size, masked CRC-32C of the bytes), then the empty metaindex block, the index block and the
 * footer. The object graph, when given, is the DT_STRING scalar "_CHECKPOINTABLE_OBJECT_GRAPH",
 * stored as WriteStringTensor stores strings (bundle.h). */
#include <stdlib.h>
#include <string.h>

#include "base/crc.h"
#include "base/file.h"
#include "base/strbuf.h"
#include "formats/savedmodel/bundle.h"
#include "formats/savedmodel/bundle_internal.h"
#include "formats/savedmodel/tf_types.h"

/* LevelDB's footer magic, written as two little-endian words, low first. */
enum { TABLE_MAGIC_LO = 0x8b80fb57u, TABLE_MAGIC_HI = 0xdb477524u, FOOTER_HANDLES_BYTES = 40 };

static void put_le32(hr_strbuf *b, uint32_t v) {
  for (int i = 0; i < 4; i++) hr_strbuf_putc(b, (char)(v >> (8 * i)));
}

/* One entry to write: its key, TF type, shape, stored bytes and the CRC-32C (unmasked) TF keeps. */
typedef struct bw_entry {
  const char *key;
  int tf_dtype;
  hr_shape shape;
  const void *data;
  size_t nbytes;
  uint32_t crc;
  uint64_t offset; /* in the data file */
} bw_entry;

/* The BundleEntryProto of `e`. */
static void entry_proto(const bw_entry *e, hr_strbuf *out) {
  hr_strbuf shape;
  hr_strbuf_init(&shape, NULL);
  for (int d = 0; d < e->shape.rank; d++) {
    hr_strbuf dim;
    hr_strbuf_init(&dim, NULL);
    hr_pb_put_uint(&dim, 1, (uint64_t)e->shape.dims[d]);
    hr_pb_put_bytes(&shape, 2, dim.data ? dim.data : "", dim.len);
    hr_strbuf_free(&dim);
  }
  hr_pb_put_uint(out, 1, (uint64_t)e->tf_dtype);
  hr_pb_put_bytes(out, 2, shape.data ? shape.data : "", shape.len);
  hr_strbuf_free(&shape);
  hr_pb_put_uint(out, 4, e->offset);
  hr_pb_put_uint(out, 5, e->nbytes);
  hr_pb_put_varint(out, 6 << 3 | HR_PB_I32); /* crc32c: fixed32 */
  put_le32(out, bd_crc_mask(e->crc));
}

/* Appends a block entry (no shared prefix) and records its start as a restart point. */
static void block_entry(hr_strbuf *block, hr_strbuf *restarts, const char *key, const hr_strbuf *value) {
  put_le32(restarts, (uint32_t)block->len);
  hr_pb_put_varint(block, 0);
  hr_pb_put_varint(block, strlen(key));
  hr_pb_put_varint(block, value->len);
  hr_strbuf_append(block, key, strlen(key));
  hr_strbuf_append(block, value->data ? value->data : "", value->len);
}

/* Appends block `contents` and its restart array to `file` with the 5-byte trailer (no
 * compression, masked CRC); `handle` receives its BlockHandle. */
static void write_block(hr_strbuf *file, hr_strbuf *contents, hr_strbuf *restarts, hr_strbuf *handle) {
  if (restarts->len == 0) put_le32(restarts, 0); /* an empty block still has one restart */
  hr_strbuf_append(contents, restarts->data, restarts->len);
  put_le32(contents, (uint32_t)(restarts->len / 4));
  hr_pb_put_varint(handle, file->len);
  hr_pb_put_varint(handle, contents->len);
  hr_strbuf_append(file, contents->data, contents->len);
  hr_strbuf_putc(contents, 0); /* the type byte: the CRC covers it too */
  hr_strbuf_putc(file, 0);
  put_le32(file, bd_crc_mask(hr_crc32c(0, contents->data, contents->len)));
}

/* The index file's bytes for the `n` entries, sorted by key. */
static hr_status build_index(const bw_entry *entries, int n, hr_strbuf *file) {
  hr_strbuf block, restarts, value, handle, index, index_restarts, meta, meta_restarts, meta_handle, index_handle;
  hr_strbuf *all[] = {&block, &restarts, &value, &handle, &index, &index_restarts, &meta, &meta_restarts, &meta_handle, &index_handle};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) hr_strbuf_init(all[i], NULL);
  hr_pb_put_uint(&value, 1, 1);               /* num_shards */
  hr_pb_put_bytes(&value, 3, "\x08\x01", 2); /* version { producer: 1 } */
  block_entry(&block, &restarts, "", &value);
  for (int i = 0; i < n; i++) {
    value.len = 0;
    entry_proto(&entries[i], &value);
    block_entry(&block, &restarts, entries[i].key, &value);
  }
  write_block(file, &block, &restarts, &handle);
  write_block(file, &meta, &meta_restarts, &meta_handle);
  block_entry(&index, &index_restarts, n ? entries[n - 1].key : "", &handle); /* a key >= every key of the data block */
  write_block(file, &index, &index_restarts, &index_handle);
  size_t footer = file->len;
  hr_strbuf_append(file, meta_handle.data, meta_handle.len);
  hr_strbuf_append(file, index_handle.data, index_handle.len);
  while (file->len < footer + FOOTER_HANDLES_BYTES) hr_strbuf_putc(file, 0);
  put_le32(file, TABLE_MAGIC_LO);
  put_le32(file, TABLE_MAGIC_HI);
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) hr_strbuf_free(all[i]);
  return hr_strbuf_status(file);
}

/* The stored bytes of a DT_STRING scalar holding `len` bytes, and the CRC TF keeps for them: the
 * length as a varint, the masked CRC of the length (as 4 little-endian bytes when it fits 32 bits,
 * else 8), then the bytes; the entry's CRC runs over the length's bytes, that checksum and the
 * string. */
static void string_scalar(const void *data, size_t len, hr_strbuf *out, uint32_t *crc) {
  uint8_t le[8];
  for (int i = 0; i < 8; i++) le[i] = (uint8_t)((uint64_t)len >> (8 * i));
  *crc = hr_crc32c(0, le, (uint64_t)len <= UINT32_MAX ? 4 : 8);
  hr_pb_put_varint(out, len);
  size_t at = out->len;
  put_le32(out, bd_crc_mask(*crc));
  *crc = hr_crc32c(*crc, out->data ? out->data + at : "", out->len - at);
  hr_strbuf_append(out, data, len);
  *crc = hr_crc32c(*crc, data, len);
}

static int by_key(const void *a, const void *b) { return strcmp(((const bw_entry *)a)->key, ((const bw_entry *)b)->key); }

/* Fills entries[0..n) from `w` and the object graph (when given), sorted by key, with their data
 * file offsets; *graph_bytes receives the object graph's stored bytes. */
static hr_status collect(const hr_weights *w, const void *object_graph, size_t graph_len, bw_entry *entries, int n,
                         hr_strbuf *graph_bytes) {
  int k = 0;
  for (int i = 0; i < hr_weights_count(w); i++, k++) {
    const hr_tensor *t = hr_weights_tensor(w, i);
    int tf = hr_tf_dtype_from_hr(t->dtype);
    if (tf == HR_TF_DT_INVALID) return hr_error(HR_UNIMPLEMENTED, "TensorFlow has no type for %s", hr_dtype_name(t->dtype));
    entries[k] = (bw_entry){hr_weights_name(w, i), tf, t->shape, t->data, t->nbytes, hr_crc32c(0, t->data, t->nbytes), 0};
  }
  if (object_graph) {
    entries[k] = (bw_entry){.key = HR_BUNDLE_OBJECT_GRAPH_KEY, .tf_dtype = HR_TF_DT_STRING};
    string_scalar(object_graph, graph_len, graph_bytes, &entries[k].crc);
    HR_TRY(hr_strbuf_status(graph_bytes));
    entries[k].data = graph_bytes->data;
    entries[k].nbytes = graph_bytes->len;
  }
  qsort(entries, (size_t)n, sizeof *entries, by_key);
  uint64_t at = 0;
  for (int i = 0; i < n; i++) {
    if (!entries[i].key[0] || (i && strcmp(entries[i - 1].key, entries[i].key) == 0))
      return hr_error(HR_INVALID_ARGUMENT, "bundle: the key '%s' is empty or given twice", entries[i].key);
    entries[i].offset = at;
    at += entries[i].nbytes;
  }
  return NULL;
}

hr_status hr_bundle_write(const char *prefix, const hr_weights *w, const void *object_graph, size_t object_graph_len) {
  int n = hr_weights_count(w) + (object_graph != NULL);
  bw_entry *entries = calloc((size_t)n + 1, sizeof *entries);
  const void **parts = calloc((size_t)n + 1, sizeof *parts);
  size_t *lens = calloc((size_t)n + 1, sizeof *lens);
  hr_strbuf graph_bytes, index;
  hr_strbuf_init(&graph_bytes, NULL);
  hr_strbuf_init(&index, NULL);
  hr_status s = entries && parts && lens ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!s) s = collect(w, object_graph, object_graph_len, entries, n, &graph_bytes);
  for (int i = 0; !s && i < n; i++) {
    parts[i] = entries[i].data;
    lens[i] = entries[i].nbytes;
  }
  char path[4096];
  if (!s && snprintf(path, sizeof path, "%s.data-00000-of-00001", prefix) >= (int)sizeof path)
    s = hr_error(HR_INVALID_ARGUMENT, "%.200s: path too long", prefix);
  if (!s) s = hr_write_file_parts(path, parts, lens, n);
  if (!s) s = build_index(entries, n, &index);
  if (!s) {
    snprintf(path, sizeof path, "%s.index", prefix);
    s = hr_write_file(path, index.data, index.len);
  }
  hr_strbuf_free(&index);
  hr_strbuf_free(&graph_bytes);
  free(entries);
  free(parts);
  free(lens);
  return s;
}

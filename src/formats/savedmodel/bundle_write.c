/* hr_bundle_write (bundle.h): a TensorBundle checkpoint as TF's BundleWriter lays one out for a
 * single process: PREFIX.data-00000-of-00001 holds the tensors back to back, PREFIX.index a
 * LevelDB table of one uncompressed data block (a restart point at every entry) mapping "" to the
 * BundleHeaderProto and each name, in byte order, to its BundleEntryProto (dtype, shape, offset,
 * size, masked CRC-32C of the bytes), then the empty metaindex block, the index block and the
 * footer. */
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

/* The masked CRC-32C LevelDB and TensorBundle store for `data`. */
static uint32_t masked_crc(const void *data, size_t len) { return bd_crc_mask(hr_crc32c(0, data, len)); }

/* The BundleEntryProto of tensor `t` stored at `offset`. */
static hr_status entry_proto(const hr_tensor *t, uint64_t offset, hr_strbuf *out) {
  int tf = hr_tf_dtype_from_hr(t->dtype);
  if (tf == HR_TF_DT_INVALID) return hr_error(HR_UNIMPLEMENTED, "TensorFlow has no type for %s", hr_dtype_name(t->dtype));
  hr_strbuf shape;
  hr_strbuf_init(&shape, NULL);
  for (int d = 0; d < t->shape.rank; d++) {
    hr_strbuf dim;
    hr_strbuf_init(&dim, NULL);
    hr_pb_put_uint(&dim, 1, (uint64_t)t->shape.dims[d]);
    hr_pb_put_bytes(&shape, 2, dim.data ? dim.data : "", dim.len);
    hr_strbuf_free(&dim);
  }
  hr_pb_put_uint(out, 1, (uint64_t)tf);
  hr_pb_put_bytes(out, 2, shape.data ? shape.data : "", shape.len);
  hr_strbuf_free(&shape);
  hr_pb_put_uint(out, 4, offset);
  hr_pb_put_uint(out, 5, t->nbytes);
  hr_pb_put_varint(out, 6 << 3 | HR_PB_I32); /* crc32c: fixed32 */
  put_le32(out, masked_crc(t->data, t->nbytes));
  return NULL;
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
  put_le32(file, masked_crc(contents->data, contents->len));
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* The index file's bytes for the tensors of `w` (sorted names in `order`), whose bytes lie in the
 * data file at the offsets in `offsets`. */
static hr_status build_index(const hr_weights *w, const int *order, const uint64_t *offsets, hr_strbuf *file) {
  hr_strbuf block, restarts, value, handle, index, index_restarts, meta, meta_restarts, meta_handle, index_handle;
  hr_strbuf *all[] = {&block, &restarts, &value, &handle, &index, &index_restarts, &meta, &meta_restarts, &meta_handle, &index_handle};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) hr_strbuf_init(all[i], NULL);
  hr_pb_put_uint(&value, 1, 1);                                  /* num_shards */
  hr_pb_put_bytes(&value, 3, "\x08\x01", 2);                    /* version { producer: 1 } */
  block_entry(&block, &restarts, "", &value);
  hr_status s = NULL;
  const char *last = "";
  for (int i = 0; !s && i < hr_weights_count(w); i++) {
    value.len = 0;
    s = entry_proto(hr_weights_tensor(w, order[i]), offsets[order[i]], &value);
    last = hr_weights_name(w, order[i]);
    if (!s) block_entry(&block, &restarts, last, &value);
  }
  if (!s) {
    write_block(file, &block, &restarts, &handle);
    write_block(file, &meta, &meta_restarts, &meta_handle);
    block_entry(&index, &index_restarts, last, &handle); /* a key >= every key of the data block */
    write_block(file, &index, &index_restarts, &index_handle);
    size_t footer = file->len;
    hr_strbuf_append(file, meta_handle.data, meta_handle.len);
    hr_strbuf_append(file, index_handle.data, index_handle.len);
    while (file->len < footer + FOOTER_HANDLES_BYTES) hr_strbuf_putc(file, 0);
    put_le32(file, TABLE_MAGIC_LO);
    put_le32(file, TABLE_MAGIC_HI);
  }
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) hr_strbuf_free(all[i]);
  return s ? s : hr_strbuf_status(file);
}

hr_status hr_bundle_write(const char *prefix, const hr_weights *w) {
  int n = hr_weights_count(w);
  const char **names = malloc(sizeof *names * (size_t)(n > 0 ? n : 1));
  int *order = malloc(sizeof *order * (size_t)(n > 0 ? n : 1));
  uint64_t *offsets = malloc(sizeof *offsets * (size_t)(n > 0 ? n : 1));
  const void **parts = malloc(sizeof *parts * (size_t)(n > 0 ? n : 1));
  size_t *lens = malloc(sizeof *lens * (size_t)(n > 0 ? n : 1));
  hr_status s = names && order && offsets && parts && lens ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  uint64_t at = 0;
  for (int i = 0; !s && i < n; i++) {
    names[i] = hr_weights_name(w, i);
    offsets[i] = at;
    parts[i] = hr_weights_tensor(w, i)->data;
    lens[i] = hr_weights_tensor(w, i)->nbytes;
    at += lens[i];
  }
  if (!s) {
    qsort(names, (size_t)n, sizeof *names, by_name);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (hr_weights_name(w, j) == names[i]) order[i] = j;
  }
  for (int i = 1; !s && i < n; i++)
    if (strcmp(names[i - 1], names[i]) == 0 || !*names[i])
      s = hr_error(HR_INVALID_ARGUMENT, "bundle: the name '%s' is empty or given twice", names[i]);
  char path[4096];
  if (!s && snprintf(path, sizeof path, "%s.data-00000-of-00001", prefix) >= (int)sizeof path)
    s = hr_error(HR_INVALID_ARGUMENT, "%.200s: path too long", prefix);
  if (!s) s = hr_write_file_parts(path, parts, lens, n);
  hr_strbuf index;
  hr_strbuf_init(&index, NULL);
  if (!s) s = build_index(w, order, offsets, &index);
  if (!s) {
    snprintf(path, sizeof path, "%s.index", prefix);
    s = hr_write_file(path, index.data, index.len);
  }
  hr_strbuf_free(&index);
  free(names);
  free(order);
  free(offsets);
  free(parts);
  free(lens);
  return s;
}

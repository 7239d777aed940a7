/* TensorBundle (bundle.h): the index's entries, from tensorflow/core/protobuf/tensor_bundle.proto
 * and tensorflow/core/util/tensor_bundle/tensor_bundle.cc, each checked against its data file.
 *
 * Key "" holds the BundleHeaderProto (1 num_shards, 2 endianness: 0 little, 1 big, 3 version: a
 * VersionDef of 1 producer, 2 min_consumer, 3 bad_consumers; this reader is version 1, as TF's).
 * Every other key holds a BundleEntryProto: 1 dtype, 2 shape, 3 shard_id, 4 offset, 5 size,
 * 6 crc32c (fixed32: the masked CRC-32C of the stored bytes), 7 slices (a partitioned variable).
 * Data file i of n is PREFIX.data-%05d-of-%05d. A tensor of fixed-size elements is stored as its
 * row-major little-endian bytes (size == elements x element size). A DT_STRING tensor is stored as
 * each element's length (varint64), the masked CRC-32C of those lengths, then the strings; its
 * checksum covers each length as a little-endian u32 (u64 when it does not fit 32 bits), the stored
 * length checksum, then the strings (WriteStringTensor / ReadStringTensor). */
#include <stdio.h>
#include <string.h>

#include "base/crc.h"
#include "base/limits.h"
#include "base/mapping.h"
#include "formats/savedmodel/bundle_internal.h"
#include "formats/savedmodel/graph.h"
#include "formats/savedmodel/tf_types.h"

/* Field numbers. */
enum {
  HEADER_NUM_SHARDS = 1,
  HEADER_ENDIANNESS = 2,
  HEADER_VERSION = 3,
  VERSION_MIN_CONSUMER = 2,
  VERSION_BAD_CONSUMERS = 3,
  ENTRY_DTYPE = 1,
  ENTRY_SHAPE = 2,
  ENTRY_SHARD_ID = 3,
  ENTRY_OFFSET = 4,
  ENTRY_SIZE = 5,
  ENTRY_CRC32C = 6,
  ENTRY_SLICES = 7,
};

enum {
  BUNDLE_VERSION = 1, /* the format version this reader is (TF's kTensorBundleVersion) */
  ENDIAN_LITTLE = 0,
  ENDIAN_BIG = 1,
};

static hr_status oom(const hr_bundle *b) { return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", b->name); }

/* ---------------------------------------------------------------------------------------------- */
/* The index                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Refuses a bad_consumers value naming this reader's version. */
static hr_status check_bad_consumer(const hr_pb *c, size_t at, uint64_t v) {
  if ((int32_t)v == BUNDLE_VERSION) return hr_pb_error(c, at, "the bundle's version says readers of version %d may not read it", BUNDLE_VERSION);
  return NULL;
}

/* Reads the header's VersionDef `f`: refuses a bundle needing a newer reader than version 1. */
static hr_status read_version(const hr_pb *c, const hr_pb_field *f) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "the header's version"));
  hr_pb v = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&v, &g, &more));
    if (!more) return NULL;
    if (g.number == VERSION_MIN_CONSUMER) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_VARINT, "min_consumer"));
      if ((int32_t)g.u > BUNDLE_VERSION)
        return hr_pb_error(c, g.offset, "the bundle needs a reader of version %d; this one is version %d", (int32_t)g.u,
                           BUNDLE_VERSION);
    } else if (g.number == VERSION_BAD_CONSUMERS && g.wire == HR_PB_LEN) {
      hr_pb packed = hr_pb_sub(c, &g);
      uint64_t x;
      for (bool m;;) {
        HR_TRY(hr_pb_next_packed(&packed, &x, &m));
        if (!m) break;
        HR_TRY(check_bad_consumer(c, g.offset, x));
      }
    } else if (g.number == VERSION_BAD_CONSUMERS) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_VARINT, "bad_consumers"));
      HR_TRY(check_bad_consumer(c, g.offset, g.u));
    }
  }
}

/* Reads the BundleHeaderProto (the value of key ""). */
static hr_status read_header(hr_bundle *b, const hr_pb *value) {
  hr_pb c = *value;
  hr_pb_field f;
  bool more;
  int64_t num_shards = 0;
  size_t at = (size_t)(value->p - value->base);
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) break;
    if (f.number == HEADER_NUM_SHARDS) {
      HR_TRY(hr_pb_want(&c, &f, HR_PB_VARINT, "num_shards"));
      num_shards = (int32_t)f.u;
    } else if (f.number == HEADER_ENDIANNESS) {
      HR_TRY(hr_pb_want(&c, &f, HR_PB_VARINT, "endianness"));
      if (f.u == ENDIAN_BIG)
        return hr_error(HR_UNIMPLEMENTED, "%s: offset %zu: the bundle was written big-endian; only little-endian bundles are read",
                        c.file, f.offset);
      if (f.u != ENDIAN_LITTLE) return hr_pb_error(&c, f.offset, "endianness %llu (0 is little, 1 big)", (unsigned long long)f.u);
    } else if (f.number == HEADER_VERSION) {
      HR_TRY(read_version(&c, &f));
    }
  }
  if (num_shards < 1) return hr_pb_error(value, at, "the header says %lld data files", (long long)num_shards);
  if (num_shards > HR_LIMIT_BUNDLE_SHARDS)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: offset %zu: %lld data files, more than %d", value->file, at, (long long)num_shards,
                    HR_LIMIT_BUNDLE_SHARDS);
  b->num_shards = (int)num_shards;
  if (!(b->shards = HR_ARENA_ARRAY(&b->arena, bd_shard, b->num_shards))) return oom(b);
  b->have_header = true;
  return NULL;
}

/* Makes room for one more entry. */
static hr_status grow(hr_bundle *b) {
  if (b->n_entries < b->cap) return NULL;
  int cap = b->cap ? 2 * b->cap : 64;
  bd_entry *e = b->a->alloc(b->a->ctx, (size_t)cap * sizeof *e, _Alignof(bd_entry));
  if (!e) return oom(b);
  if (b->n_entries) memcpy(e, b->entries, (size_t)b->n_entries * sizeof *e);
  if (b->entries) b->a->free(b->a->ctx, b->entries);
  b->entries = e;
  b->cap = cap;
  return NULL;
}

/* Reads an int64 field that must not be negative (shard_id, offset, size). */
static hr_status read_count(const hr_pb *c, const hr_pb_field *f, const char *key, const char *what, int64_t *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_VARINT, what));
  if ((int64_t)f->u < 0) return hr_pb_error(c, f->offset, "key \"%s\": %s %lld", key, what, (long long)(int64_t)f->u);
  *out = (int64_t)f->u;
  return NULL;
}

/* Reads the fields of BundleEntryProto `value` into `e` (key already set). */
static hr_status read_entry_fields(const hr_pb *value, bd_entry *e, tf_shape *shape, int64_t *shard, int64_t *size) {
  hr_pb c = *value;
  hr_pb_field f;
  const char *key = e->e.key;
  for (bool more;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) return NULL;
    switch (f.number) {
      case ENTRY_DTYPE:
        HR_TRY(hr_pb_want(&c, &f, HR_PB_VARINT, "dtype"));
        e->e.tf_dtype = (int32_t)f.u;
        break;
      case ENTRY_SHAPE: HR_TRY(tf_shape_read(&c, &f, shape)); break;
      case ENTRY_SHARD_ID: HR_TRY(read_count(&c, &f, key, "shard_id", shard)); break;
      case ENTRY_OFFSET: {
        int64_t offset = 0;
        HR_TRY(read_count(&c, &f, key, "offset", &offset));
        e->e.offset = (uint64_t)offset;
        break;
      }
      case ENTRY_SIZE: HR_TRY(read_count(&c, &f, key, "size", size)); break;
      case ENTRY_CRC32C:
        HR_TRY(hr_pb_want(&c, &f, HR_PB_I32, "crc32c"));
        e->crc = bd_crc_unmask((uint32_t)f.u);
        break;
      case ENTRY_SLICES:
        return hr_error(HR_UNIMPLEMENTED, "%s: offset %zu: key \"%s\" is a partitioned variable (saved in slices), which is not read",
                        c.file, f.offset, key);
      default: break;
    }
  }
}

/* Checks entry `e`'s dtype, shape, data file and size as the index states them. */
static hr_status check_entry(const hr_bundle *b, const hr_pb *value, bd_entry *e, const tf_shape *shape, int64_t shard, int64_t size) {
  size_t at = (size_t)(value->p - value->base);
  const char *key = e->e.key, *type = hr_tf_dtype_name(e->e.tf_dtype);
  size_t elem = hr_tf_dtype_size(e->e.tf_dtype);
  if (!elem && e->e.tf_dtype != HR_TF_DT_STRING) {
    if (type) return hr_error(HR_UNIMPLEMENTED, "%s: offset %zu: key \"%s\": %s tensors are not read", value->file, at, key, type);
    return hr_pb_error(value, at, "key \"%s\": dtype %d", key, e->e.tf_dtype);
  }
  if (shape->rank < 0) return hr_pb_error(value, at, "key \"%s\": a shape of unknown rank", key);
  e->e.shape.rank = shape->rank;
  for (int i = 0; i < shape->rank; i++) {
    if (shape->dims[i] < 0) return hr_pb_error(value, at, "key \"%s\": dimension %d is unknown", key, i);
    e->e.shape.dims[i] = shape->dims[i];
  }
  hr_status s = hr_shape_num_elements(&e->e.shape, &e->e.num_elements);
  if (s) return hr_status_wrap(s, "%s: offset %zu: key \"%s\"", value->file, at, key);
  if (shard >= b->num_shards) return hr_pb_error(value, at, "key \"%s\": data file %lld, the header says %d", key, (long long)shard, b->num_shards);
  e->e.shard = (int)shard;
  if ((uint64_t)size > SIZE_MAX) return hr_pb_error(value, at, "key \"%s\": size %lld", key, (long long)size);
  e->e.nbytes = (size_t)size;
  hr_tf_dtype_to_hr(e->e.tf_dtype, &e->e.dtype);
  if (!elem) return NULL; /* strings: checked with their bytes */
  if ((uint64_t)e->e.num_elements > SIZE_MAX / elem || e->e.nbytes != (size_t)e->e.num_elements * elem)
    return hr_pb_error(value, at, "key \"%s\": %lld bytes stored, %lld %s elements take %llu", key, (long long)size,
                       (long long)e->e.num_elements, type, (unsigned long long)e->e.num_elements * elem);
  return NULL;
}

/* Receives each key of the table: the header first, then the entries. */
static hr_status visit(void *ctx, const char *key, size_t key_len, const hr_pb *value) {
  hr_bundle *b = ctx;
  if (!b->have_header) {
    if (key_len) return hr_pb_error(value, (size_t)(value->p - value->base), "the first key is \"%s\", not the header's \"\"", key);
    return read_header(b, value);
  }
  if (b->n_entries == HR_LIMIT_BUNDLE_ENTRIES)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d entries", b->index_name, HR_LIMIT_BUNDLE_ENTRIES);
  HR_TRY(grow(b));
  bd_entry *e = &b->entries[b->n_entries];
  memset(e, 0, sizeof *e);
  if (!(e->e.key = hr_arena_strndup(&b->arena, key, key_len))) return oom(b);
  tf_shape shape = {0};
  int64_t shard = 0, size = 0;
  HR_TRY(read_entry_fields(value, e, &shape, &shard, &size));
  HR_TRY(check_entry(b, value, e, &shape, shard, size));
  b->n_entries++;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Data files                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Data file `id`: mapped on first use (hr_bundle_open) or as given (hr_bundle_read_index). */
static hr_status load_shard(hr_bundle *b, int id, const bd_shard **out) {
  bd_shard *s = &b->shards[id];
  *out = s;
  if (s->loaded) return NULL;
  size_t n = strlen(b->name) + 32;
  char *path = hr_arena_alloc(&b->arena, n, 1);
  if (!path) return oom(b);
  snprintf(path, n, "%s.data-%05d-of-%05d", b->name, id, b->num_shards);
  s->name = path;
  if (b->from_files) {
    void *data;
    HR_TRY(hr_map_file(path, SIZE_MAX, &data, &s->len));
    s->data = data;
    s->mapped = data != NULL;
  } else if (id < b->n_given) {
    s->data = b->given[id];
    s->len = b->given_lens[id];
  } else {
    return hr_error(HR_NOT_FOUND, "%s: data file %d of %d was not given", path, id, b->num_shards);
  }
  s->loaded = true;
  return NULL;
}

/* Extends `crc` over `v` as `n` (4 or 8) little-endian bytes. */
static uint32_t crc_le(uint32_t crc, uint64_t v, int n) {
  uint8_t bytes[8];
  for (int i = 0; i < n; i++) bytes[i] = (uint8_t)(v >> (8 * i));
  return hr_crc32c(crc, bytes, (size_t)n);
}

/* A cursor over data file `s`, for messages (an empty file has no bytes to point at). */
static hr_pb shard_cursor(const bd_shard *s) {
  static const uint8_t none[1];
  return s->data ? hr_pb_open(s->name, s->data, s->len) : hr_pb_open(s->name, none, 0);
}

/* Indexes the strings of DT_STRING entry `e` in data file `s` (header comment: its layout) and
 * computes its checksum into *crc. */
static hr_status index_strings(hr_bundle *b, const bd_shard *s, bd_entry *e, uint32_t *crc) {
  int64_t n = e->e.num_elements;
  size_t size = e->e.nbytes;
  hr_pb c = shard_cursor(s);
  *crc = 0;
  if (n > HR_LIMIT_BUNDLE_STRINGS - b->n_strings)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: key \"%s\": more than %d strings in the bundle", b->name, e->e.key,
                    HR_LIMIT_BUNDLE_STRINGS);
  if (size && (size < 4 || (uint64_t)n > size - 4))
    return hr_pb_error(&c, (size_t)e->e.offset, "key \"%s\": %lld strings do not fit %zu bytes", e->e.key, (long long)n, size);
  hr_bundle_string *out = HR_ARENA_ARRAY(&b->arena, hr_bundle_string, n ? (size_t)n : 1);
  if (!out) return oom(b);
  e->e.strings = out;
  b->n_strings += n;
  for (int64_t i = 0; i < n; i++) out[i] = (hr_bundle_string){"", 0};
  if (!size) return NULL; /* TF reads nothing then: every string is empty */
  c.p = e->e.data;
  c.end = c.p + size;
  uint64_t total = 0;
  for (int64_t i = 0; i < n; i++) {
    uint64_t len;
    bool more;
    HR_TRY(hr_pb_next_packed(&c, &len, &more));
    if (!more || len > size - total)
      return hr_pb_error(&c, (size_t)e->e.offset, "key \"%s\": the string lengths run past its bytes", e->e.key);
    total += len;
    out[i].len = (size_t)len;
    *crc = crc_le(*crc, len, len <= UINT32_MAX ? 4 : 8);
  }
  size_t at = (size_t)(c.p - c.base);
  if (c.end - c.p < 4) return hr_pb_error(&c, at, "key \"%s\": the lengths' checksum is cut short", e->e.key);
  if (bd_crc_unmask(bd_le32(c.p)) != *crc)
    return hr_pb_error(&c, at, "key \"%s\": the string lengths' checksum does not match", e->e.key);
  *crc = hr_crc32c(*crc, c.p, 4);
  c.p += 4;
  if ((uint64_t)(c.end - c.p) != total)
    return hr_pb_error(&c, at + 4, "key \"%s\": the strings take %llu bytes, %zu are stored", e->e.key, (unsigned long long)total,
                       (size_t)(c.end - c.p));
  *crc = hr_crc32c(*crc, c.p, (size_t)total);
  for (int64_t i = 0; i < n; i++) {
    out[i].data = (const char *)c.p;
    c.p += out[i].len;
  }
  return NULL;
}

/* Points entry `e` at its bytes in its data file, checking their range and checksum. */
static hr_status check_data(hr_bundle *b, bd_entry *e) {
  const bd_shard *s;
  HR_TRY(load_shard(b, e->e.shard, &s));
  hr_pb file = shard_cursor(s);
  if (e->e.offset > s->len || e->e.nbytes > s->len - e->e.offset)
    return hr_pb_error(&file, s->len, "key \"%s\": bytes [%llu, %llu) lie outside the file's %zu", e->e.key,
                       (unsigned long long)e->e.offset, (unsigned long long)e->e.offset + e->e.nbytes, s->len);
  e->e.data = e->e.nbytes ? s->data + e->e.offset : NULL;
  uint32_t crc;
  if (e->e.tf_dtype == HR_TF_DT_STRING) HR_TRY(index_strings(b, s, e, &crc));
  else crc = hr_crc32c(0, e->e.data, e->e.nbytes);
  if (crc != e->crc)
    return hr_pb_error(&file, (size_t)e->e.offset, "key \"%s\": the checksum of its %zu bytes does not match (stored %08x, computed %08x)",
                       e->e.key, e->e.nbytes, e->crc, crc);
  return NULL;
}

/* Decodes the object graph, when the bundle has one. */
static hr_status read_object_graph(hr_bundle *b) {
  const hr_bundle_entry *e = hr_bundle_find(b, HR_BUNDLE_OBJECT_GRAPH_KEY);
  if (!e || !b->with_data) return NULL;
  const bd_shard *s = &b->shards[e->shard];
  if (e->tf_dtype != HR_TF_DT_STRING || e->shape.rank != 0) {
    hr_pb file = shard_cursor(s);
    return hr_pb_error(&file, (size_t)e->offset, "key \"%s\" is not a string scalar", HR_BUNDLE_OBJECT_GRAPH_KEY);
  }
  hr_pb c = shard_cursor(s);
  c.p = (const uint8_t *)e->strings[0].data;
  c.end = c.p + e->strings[0].len;
  return bd_objects_read(b, &c);
}

/* ---------------------------------------------------------------------------------------------- */
/* Opening                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* A new empty bundle named `name` (its index named `name`.index). */
static hr_status bundle_new(const char *name, const hr_allocator *a, hr_bundle **out) {
  hr_bundle *b = a->alloc(a->ctx, sizeof *b, _Alignof(hr_bundle));
  if (!b) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", name);
  memset(b, 0, sizeof *b);
  b->a = a;
  hr_arena_init(&b->arena, a);
  size_t n = strlen(name) + sizeof ".index";
  char *index_name = hr_arena_alloc(&b->arena, n, 1);
  b->name = hr_arena_strdup(&b->arena, name);
  if (!index_name || !b->name) {
    hr_bundle_close(b);
    return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", name);
  }
  snprintf(index_name, n, "%s.index", name);
  b->index_name = index_name;
  *out = b;
  return NULL;
}

/* Reads the index held in `len` bytes at `index`, then the entries' bytes and the object graph. */
static hr_status read_bundle(hr_bundle *b, const uint8_t *index, size_t len) {
  HR_TRY(bd_table_scan(b->index_name, index, len, b->a, visit, b));
  if (!b->have_header) return hr_error(HR_PARSE_ERROR, "%s: the table holds no header entry", b->index_name);
  for (int i = 0; i < b->n_entries && b->with_data; i++) HR_TRY(check_data(b, &b->entries[i]));
  return read_object_graph(b);
}

/* Finishes an open: hands the bundle out, or frees it on error. */
static hr_status finish(hr_bundle *b, hr_status s, hr_bundle **out) {
  if (s) {
    hr_bundle_close(b);
    return s;
  }
  *out = b;
  return NULL;
}

hr_status hr_bundle_open(const char *prefix, const hr_allocator *a, hr_bundle **out) {
  *out = NULL;
  hr_bundle *b;
  HR_TRY(bundle_new(prefix, a ? a : hr_default_allocator(), &b));
  b->from_files = b->with_data = true;
  hr_status s = hr_map_file(b->index_name, HR_LIMIT_BUNDLE_INDEX_BYTES, &b->index_map, &b->index_len);
  if (!s) s = read_bundle(b, b->index_map, b->index_len);
  return finish(b, s, out);
}

hr_status hr_bundle_read_index(const char *name, const void *index, size_t index_len, const void *const *shards,
                               const size_t *shard_lens, int n_shards, const hr_allocator *a, hr_bundle **out) {
  *out = NULL;
  hr_bundle *b;
  HR_TRY(bundle_new(name, a ? a : hr_default_allocator(), &b));
  b->with_data = shards != NULL;
  b->given = shards;
  b->given_lens = shard_lens;
  b->n_given = shards ? n_shards : 0;
  return finish(b, read_bundle(b, index, index_len), out);
}

void hr_bundle_close(hr_bundle *b) {
  if (!b) return;
  for (int i = 0; i < b->num_shards && b->shards; i++)
    if (b->shards[i].mapped) hr_unmap_file((void *)b->shards[i].data, b->shards[i].len);
  if (b->index_map) hr_unmap_file(b->index_map, b->index_len);
  if (b->entries) b->a->free(b->a->ctx, b->entries);
  const hr_allocator *a = b->a;
  hr_arena_release(&b->arena);
  a->free(a->ctx, b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Entries                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

int hr_bundle_count(const hr_bundle *b) { return b->n_entries; }

const hr_bundle_entry *hr_bundle_at(const hr_bundle *b, int i) { return i >= 0 && i < b->n_entries ? &b->entries[i].e : NULL; }

const hr_bundle_entry *hr_bundle_find(const hr_bundle *b, const char *key) {
  int lo = 0, hi = b->n_entries; /* keys are sorted bytewise, which strcmp follows */
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2, cmp = strcmp(b->entries[mid].e.key, key);
    if (cmp == 0) return &b->entries[mid].e;
    if (cmp < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* Decoding OCDBT records: manifests and B+tree nodes (ocdbt_internal.h has the record layout).
 * Every field is checked as it is read (lengths against what is left, counts against the limits
 * in base/limits.h, references against the data file table); errors name the file, the offset of
 * the field at fault (in the file, or in the decompressed body of a zstd-compressed record) and
 * the field by its name in tensorstore's specification. Only the latest version is decoded from a
 * manifest: older versions and the version tree nodes are checked but not kept. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "base/crc.h"
#include "base/limits.h"
#include "formats/orbax/ocdbt_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* Reading fields                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* A cursor over a record's bytes (the record itself or its decompressed body). */
typedef struct rd {
  const unsigned char *begin, *p, *end;
  const unsigned char *at; /* the start of the field being read: what errors point at */
  const char *file;
  uint64_t offset;  /* the record's offset in the file */
  size_t body_at;   /* where `begin` lies in the record when it is stored uncompressed */
  bool decompressed; /* `begin` is a decompressed body: positions are in it, not in the file */
  const char *what;  /* "manifest", "B+tree node" */
} rd;

/* An error at the current field: "file: offset N: what: field[i]: message". */
static hr_status rd_fail(const rd *r, const char *field, long idx, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static hr_status rd_fail(const rd *r, const char *field, long idx, const char *fmt, ...) {
  char msg[256], name[96] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (field && idx >= 0) snprintf(name, sizeof name, "%s[%ld]: ", field, idx);
  else if (field) snprintf(name, sizeof name, "%s: ", field);
  size_t pos = (size_t)(r->at - r->begin);
  if (r->decompressed)
    return hr_error(HR_PARSE_ERROR, "%s: offset %llu: %s: decompressed byte %zu: %s%s", r->file,
                    (unsigned long long)r->offset, r->what, pos, name, msg);
  return hr_error(HR_PARSE_ERROR, "%s: offset %llu: %s: %s%s", r->file,
                  (unsigned long long)(r->offset + r->body_at + pos), r->what, name, msg);
}

static size_t rd_left(const rd *r) { return (size_t)(r->end - r->p); }

/* A uleb128 of at most 64 bits. */
static hr_status rd_varint(rd *r, const char *field, long idx, uint64_t *v) {
  r->at = r->p;
  *v = 0;
  uint64_t x = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (r->p == r->end) return rd_fail(r, field, idx, "varint runs past the end");
    unsigned b = *r->p++;
    if (shift == 63 && b > 1) return rd_fail(r, field, idx, "varint exceeds 64 bits");
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return NULL;
    }
  }
  return rd_fail(r, field, idx, "varint exceeds 64 bits");
}

/* A uleb128 that must not exceed `max`. */
static hr_status rd_bounded(rd *r, const char *field, long idx, uint64_t max, uint64_t *v) {
  HR_TRY(rd_varint(r, field, idx, v));
  if (*v > max) return rd_fail(r, field, idx, "%llu exceeds %llu", (unsigned long long)*v, (unsigned long long)max);
  return NULL;
}

/* `n` raw bytes. */
static hr_status rd_bytes(rd *r, const char *field, long idx, uint64_t n, const unsigned char **p) {
  r->at = r->p;
  *p = r->p;
  if (n > rd_left(r))
    return rd_fail(r, field, idx, "%llu bytes run past the end (%zu left)", (unsigned long long)n, rd_left(r));
  r->p += n;
  return NULL;
}

static hr_status rd_byte(rd *r, const char *field, long idx, uint8_t *v) {
  const unsigned char *p;
  HR_TRY(rd_bytes(r, field, idx, 1, &p));
  *v = *p;
  return NULL;
}

static uint64_t le64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static uint32_t le32(const unsigned char *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

/* The body must be used up. */
static hr_status rd_end(rd *r) {
  r->at = r->p;
  if (r->p != r->end) return rd_fail(r, NULL, -1, "%zu unexpected bytes after the last field", rd_left(r));
  return NULL;
}

static void *alloc_or_null(const hr_allocator *a, size_t n) { return a->alloc(a->ctx, n ? n : 1, 16); }

static void free_ptr(const hr_allocator *a, void *p) {
  if (p) a->free(a->ctx, p);
}

static hr_status oom(const rd *r, size_t n) { return hr_error(HR_OUT_OF_MEMORY, "%s: %s: cannot allocate %zu bytes", r->file, r->what, n); }

/* ---------------------------------------------------------------------------------------------- */
/* Records                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Grows the decompression buffer *buf (cap bytes, used of them filled) towards `limit` + 1 bytes. */
static hr_status grow(const rd *r, const hr_allocator *a, unsigned char **buf, size_t *cap, size_t used,
                      size_t limit) {
  if (*cap > limit) return rd_fail(r, NULL, -1, "decompresses to more than %zu bytes", limit);
  size_t n = *cap > (limit + 1) / 2 ? limit + 1 : *cap * 2;
  unsigned char *nb = a->alloc(a->ctx, n, 16);
  if (!nb) return oom(r, n);
  memcpy(nb, *buf, used);
  a->free(a->ctx, *buf);
  *buf = nb;
  *cap = n;
  return NULL;
}

/* Decompresses the zstd stream r->p..r->end (one or more frames, all of it) into a new buffer
 * of at most `limit` bytes. */
static hr_status unzstd(const rd *r, size_t limit, const hr_allocator *a, unsigned char **out, size_t *out_len) {
  ZSTD_inBuffer in = {r->p, rd_left(r), 0};
  unsigned long long declared = ZSTD_getFrameContentSize(in.src, in.size);
  size_t cap = declared <= limit ? (size_t)declared + 1 : (in.size < limit / 4 ? in.size * 4 : limit) + 1;
  unsigned char *buf = a->alloc(a->ctx, cap, 16);
  ZSTD_DCtx *dc = ZSTD_createDCtx();
  hr_status s = !buf || !dc ? oom(r, cap) : NULL;
  size_t used = 0;
  while (!s) {
    if (used == cap && (s = grow(r, a, &buf, &cap, used, limit))) break;
    ZSTD_outBuffer o = {buf, cap, used};
    size_t ret = ZSTD_decompressStream(dc, &o, &in);
    used = o.pos;
    if (ZSTD_isError(ret)) s = rd_fail(r, NULL, -1, "zstd: %s", ZSTD_getErrorName(ret));
    else if (used > limit) s = rd_fail(r, NULL, -1, "decompresses to more than %zu bytes", limit);
    else if (ret == 0 && in.pos == in.size) break;
    else if (o.pos < o.size && in.pos == in.size) s = rd_fail(r, NULL, -1, "zstd stream ends inside a frame");
  }
  ZSTD_freeDCtx(dc);
  if (s) {
    free_ptr(a, buf);
    return s;
  }
  *out = buf;
  *out_len = used;
  return NULL;
}

/* Checks the record data[0..len) with `magic` (length, CRC, version, compression) and gives its
 * body, decompressed, in a new buffer of at most `limit` bytes and a cursor `body_rd` over it.
 * `r` comes naming the record (file, offset, what) and is left as a cursor over it. */
static hr_status open_record(rd *r, const unsigned char *data, size_t len, uint32_t magic, size_t limit,
                             const hr_allocator *a, unsigned char **body, rd *body_rd) {
  r->begin = r->p = r->at = data;
  r->end = data + len;
  if (len < OC_RECORD_MIN_BYTES) return rd_fail(r, NULL, -1, "%zu bytes are too few for a record", len);
  uint32_t got = (uint32_t)data[0] << 24 | (uint32_t)data[1] << 16 | (uint32_t)data[2] << 8 | data[3];
  if (got != magic) return rd_fail(r, "magic", -1, "0x%08x is not 0x%08x", got, magic);
  r->at = data + 4;
  if (le64(data + 4) != len)
    return rd_fail(r, "length", -1, "%llu is not the record's %zu bytes", (unsigned long long)le64(data + 4), len);
  uint32_t crc = hr_crc32c(0, data, len - OC_RECORD_CRC_BYTES), want = le32(data + len - OC_RECORD_CRC_BYTES);
  r->at = data + len - OC_RECORD_CRC_BYTES;
  if (crc != want) return rd_fail(r, "crc32c", -1, "0x%08x does not match the record's 0x%08x", want, crc);
  r->p = data + OC_RECORD_HEAD_BYTES;
  r->end = data + len - OC_RECORD_CRC_BYTES;
  uint64_t version, compression;
  HR_TRY(rd_bounded(r, "version", -1, 0, &version));
  HR_TRY(rd_bounded(r, "compression_format", -1, 1, &compression));
  size_t n = rd_left(r);
  *body_rd = *r;
  if (compression == 1) {
    HR_TRY(unzstd(r, limit, a, body, &n));
    body_rd->decompressed = true;
  } else {
    if (n > limit) return rd_fail(r, NULL, -1, "a body of %zu bytes exceeds %zu", n, limit);
    if (!(*body = alloc_or_null(a, n))) return oom(r, n);
    memcpy(*body, r->p, n);
    body_rd->body_at = (size_t)(r->p - data);
  }
  body_rd->begin = body_rd->p = body_rd->at = *body;
  body_rd->end = *body + n;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Data file tables                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the lengths of a table of `n` files into len[0..3n): path prefix (shared with the previous
 * path), path suffix and base path lengths, checking how they fit together; *total is the bytes
 * the full paths take written out (transitive path and NUL included). */
static hr_status table_lengths(rd *r, uint32_t n, size_t trans_len, uint64_t *len, size_t *total) {
  uint64_t *prefix = len, *suffix = len + n, *base = len + 2 * (size_t)n;
  const uint64_t max_path = HR_LIMIT_OCDBT_PATH_BYTES - trans_len;
  prefix[0] = 0;
  for (uint32_t i = 1; i < n; i++) HR_TRY(rd_bounded(r, "path_prefix_length", i - 1, max_path, &prefix[i]));
  for (uint32_t i = 0; i < n; i++) HR_TRY(rd_bounded(r, "path_suffix_length", i, max_path, &suffix[i]));
  *total = 0;
  for (uint32_t i = 0; i < n; i++) {
    HR_TRY(rd_bounded(r, "base_path_length", i, max_path, &base[i]));
    uint64_t path_len = prefix[i] + suffix[i];
    if (path_len > max_path)
      return rd_fail(r, "path", i, "%llu bytes with the transitive path's %zu exceed %d", (unsigned long long)path_len,
                     trans_len, HR_LIMIT_OCDBT_PATH_BYTES);
    if (i > 0 && prefix[i] > prefix[i - 1] + suffix[i - 1])
      return rd_fail(r, "path_prefix_length", i - 1, "%llu exceeds the previous path's length", (unsigned long long)prefix[i]);
    if (base[i] > path_len)
      return rd_fail(r, "base_path_length", i, "%llu exceeds the path's length %llu", (unsigned long long)base[i],
                     (unsigned long long)path_len);
    uint64_t min_base = i > 0 && base[i - 1] < base[i] ? base[i - 1] : base[i];
    if (i > 0 && prefix[i] > min_base && base[i] != base[i - 1])
      return rd_fail(r, "base_path_length", i, "the shared prefix extends past a base path that differs from the previous one");
    *total += trans_len + path_len + 1;
    if (*total > HR_LIMIT_OCDBT_EXPANDED_BYTES)
      return rd_fail(r, "path", i, "the table's paths written out exceed %zu bytes", HR_LIMIT_OCDBT_EXPANDED_BYTES);
  }
  return NULL;
}

/* Reads a data file table; every path continues the transitive path trans[0..trans_len). */
static hr_status read_table(rd *r, const char *trans, size_t trans_len, const hr_allocator *a, oc_table *t) {
  uint64_t n;
  HR_TRY(rd_bounded(r, "num_files", -1, HR_LIMIT_OCDBT_NODE_ENTRIES, &n));
  if (n > rd_left(r)) return rd_fail(r, "num_files", -1, "%llu files do not fit in %zu bytes", (unsigned long long)n, rd_left(r));
  if (n == 0) return NULL;
  uint64_t *len = a->alloc(a->ctx, 3 * (size_t)n * sizeof *len, 16);
  if (!len) return oom(r, 3 * (size_t)n * sizeof *len);
  size_t total = 0;
  hr_status s = table_lengths(r, (uint32_t)n, trans_len, len, &total);
  size_t head = (size_t)n * (sizeof(char *) + sizeof(size_t));
  if (!s && !(t->block = a->alloc(a->ctx, head + total, 16))) s = oom(r, head + total);
  if (s) {
    a->free(a->ctx, len);
    return s;
  }
  t->n = (uint32_t)n;
  t->paths = t->block;
  t->trans_len = (size_t *)(t->paths + n);
  char *out = (char *)t->block + head;
  for (uint32_t i = 0; i < t->n && !s; i++) {
    const unsigned char *suffix;
    size_t prefix = len[i], suffix_len = len[n + i];
    if ((s = rd_bytes(r, "path_suffix", i, suffix_len, &suffix))) break;
    if (memchr(suffix, 0, suffix_len)) {
      s = rd_fail(r, "path_suffix", i, "holds a NUL byte");
      break;
    }
    t->paths[i] = out;
    memcpy(out, trans, trans_len);
    if (i > 0) memcpy(out + trans_len, t->paths[i - 1] + trans_len, prefix);
    memcpy(out + trans_len + prefix, suffix, suffix_len);
    out += trans_len + prefix + suffix_len;
    *out++ = '\0';
    t->trans_len[i] = trans_len + len[2 * n + i];
  }
  a->free(a->ctx, len);
  return s;
}

static void table_free(oc_table *t, const hr_allocator *a) {
  free_ptr(a, t->block);
  *t = (oc_table){0};
}

/* A data file index of the table `t`. */
static hr_status rd_file_id(rd *r, const char *field, long idx, const oc_table *t, uint32_t *id) {
  uint64_t v;
  HR_TRY(rd_varint(r, field, idx, &v));
  if (v >= t->n) return rd_fail(r, field, idx, "file %llu is outside the table of %u files", (unsigned long long)v, t->n);
  *id = (uint32_t)v;
  return NULL;
}

/* The end of a byte range must stay within int64 (as tensorstore requires). */
static hr_status check_range(rd *r, const char *field, long idx, uint64_t offset, uint64_t length) {
  if (offset > INT64_MAX || length > INT64_MAX - offset)
    return rd_fail(r, field, idx, "offset %llu + length %llu overflow", (unsigned long long)offset, (unsigned long long)length);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Manifests                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the configuration; the compression method's zstd level is checked and dropped. */
static hr_status read_config(rd *r, oc_manifest *m, int *arity_log2) {
  const unsigned char *uuid;
  uint8_t kind, arity;
  uint64_t v;
  HR_TRY(rd_bytes(r, "uuid", -1, 16, &uuid));
  HR_TRY(rd_byte(r, "manifest_kind", -1, &kind));
  if (kind > OC_MANIFEST_NUMBERED) return rd_fail(r, "manifest_kind", -1, "%u is neither 0 (single) nor 1 (numbered)", kind);
  HR_TRY(rd_bounded(r, "max_inline_value_bytes", -1, UINT32_MAX, &v));
  HR_TRY(rd_bounded(r, "max_decoded_node_bytes", -1, UINT32_MAX, &v));
  HR_TRY(rd_byte(r, "version_tree_arity_log2", -1, &arity));
  if (arity < 1 || arity > 16) return rd_fail(r, "version_tree_arity_log2", -1, "%u is outside [1, 16]", arity);
  HR_TRY(rd_bounded(r, "compression_method", -1, 1, &v));
  if (v == 1) {
    const unsigned char *p;
    HR_TRY(rd_bytes(r, "zstd level", -1, 4, &p));
    int32_t level = (int32_t)le32(p);
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())
      return rd_fail(r, "zstd level", -1, "%d is outside [%d, %d]", level, ZSTD_minCLevel(), ZSTD_maxCLevel());
  }
  m->kind = kind;
  m->compression = (int)v;
  *arity_log2 = arity;
  return NULL;
}

/* Reads `n` varints of a column, each at most `max`; *last is the last one. */
static hr_status read_column(rd *r, const char *field, uint64_t n, uint64_t max, uint64_t *last) {
  for (uint64_t i = 0; i < n; i++) HR_TRY(rd_bounded(r, field, (long)i, max, last));
  return NULL;
}

/* Reads `n` generation numbers: non-zero and increasing. */
static hr_status read_generations(rd *r, const char *field, uint64_t n, uint64_t *last) {
  uint64_t prev = 0;
  for (uint64_t i = 0; i < n; i++) {
    HR_TRY(rd_varint(r, field, (long)i, last));
    if (*last <= prev) return rd_fail(r, field, (long)i, "%llu does not exceed the previous %llu", (unsigned long long)*last, (unsigned long long)prev);
    prev = *last;
  }
  return NULL;
}

/* Skips `n` fixed-size columns entries of `width` bytes (commit times). */
static hr_status skip_fixed(rd *r, const char *field, uint64_t n, size_t width) {
  const unsigned char *p;
  return rd_bytes(r, field, -1, n * width, &p);
}

/* Reads the inline versions (a version tree leaf's entries) and keeps the latest one's root. */
static hr_status read_versions(rd *r, int arity_log2, oc_manifest *m) {
  uint64_t n, v, offset, length, indirect_bytes;
  HR_TRY(rd_bounded(r, "num_versions", -1, (uint64_t)1 << arity_log2, &n));
  if (n == 0) return rd_fail(r, "num_versions", -1, "a manifest holds at least one version");
  HR_TRY(read_generations(r, "generation_number", n, &m->generation));
  if (n > (m->generation - 1) % ((uint64_t)1 << arity_log2) + 1)
    return rd_fail(r, "num_versions", -1, "%llu versions cannot end with generation %llu", (unsigned long long)n, (unsigned long long)m->generation);
  for (uint64_t i = 0; i < n; i++) {
    uint8_t h;
    HR_TRY(rd_byte(r, "root_height", (long)i, &h));
    m->root_height = h;
  }
  for (uint64_t i = 0; i < n; i++) HR_TRY(rd_file_id(r, "data_file_id", (long)i, &m->table, &m->root.file));
  HR_TRY(read_column(r, "data_file_offset", n, UINT64_MAX, &offset));
  HR_TRY(read_column(r, "data_file_length", n, UINT64_MAX, &length));
  HR_TRY(read_column(r, "num_keys", n, UINT64_MAX, &m->num_keys));
  HR_TRY(read_column(r, "num_tree_bytes", n, UINT64_MAX, &v));
  HR_TRY(read_column(r, "num_indirect_value_bytes", n, UINT64_MAX, &indirect_bytes));
  HR_TRY(skip_fixed(r, "commit_time", n, 8));
  m->root.offset = offset;
  m->root.length = length;
  m->empty = offset == OC_MISSING && length == OC_MISSING;
  if (m->empty && (m->root_height != 0 || m->num_keys != 0 || indirect_bytes != 0))
    return rd_fail(r, "root_height", (long)n - 1, "an empty version has height %d and %llu keys", m->root_height,
                   (unsigned long long)m->num_keys);
  if (!m->empty) HR_TRY(check_range(r, "data_file_offset", (long)n - 1, offset, length));
  if (m->root_height > HR_LIMIT_OCDBT_TREE_HEIGHT)
    return rd_fail(r, "root_height", (long)n - 1, "%d exceeds %d", m->root_height, HR_LIMIT_OCDBT_TREE_HEIGHT);
  return NULL;
}

/* Checks the references to version tree nodes of older versions (not read: only the latest
 * version matters here). Their heights decrease, from at most 63 / arity_log2 - 1. */
static hr_status read_version_nodes(rd *r, int arity_log2, const oc_manifest *m) {
  const uint64_t max_height = (uint64_t)(63 / arity_log2 - 1);
  uint64_t n, v;
  uint32_t file;
  HR_TRY(rd_bounded(r, "num_children", -1, max_height, &n));
  HR_TRY(read_generations(r, "generation_number", n, &v));
  for (uint64_t i = 0; i < n; i++) HR_TRY(rd_file_id(r, "data_file_id", (long)i, &m->table, &file));
  HR_TRY(read_column(r, "data_file_offset", n, UINT64_MAX, &v));
  HR_TRY(read_column(r, "data_file_length", n, UINT64_MAX, &v));
  HR_TRY(read_column(r, "num_generations", n, UINT64_MAX, &v));
  HR_TRY(skip_fixed(r, "commit_time", n, 8));
  uint8_t prev = (uint8_t)(max_height + 1);
  for (uint64_t i = 0; i < n; i++) {
    uint8_t h;
    HR_TRY(rd_byte(r, "entry_height", (long)i, &h));
    if (h < 1 || h >= prev) return rd_fail(r, "entry_height", (long)i, "%u is not in [1, %u)", h, prev);
    prev = h;
  }
  return NULL;
}

hr_status oc_decode_manifest(const char *file, const unsigned char *data, size_t len, const hr_allocator *a,
                             oc_manifest *m) {
  rd r = {.file = file, .what = "manifest"}, b;
  unsigned char *body = NULL;
  hr_status s = open_record(&r, data, len, OC_MANIFEST_MAGIC, HR_LIMIT_OCDBT_MANIFEST_BYTES, a, &body, &b);
  int arity_log2 = 0;
  if (!s) s = read_config(&b, m, &arity_log2);
  if (!s && m->kind == OC_MANIFEST_SINGLE) {
    if (!(s = read_table(&b, "", 0, a, &m->table)) && !(s = read_versions(&b, arity_log2, m)))
      s = read_version_nodes(&b, arity_log2, m);
  }
  if (!s) s = rd_end(&b);
  free_ptr(a, body);
  return s;
}

void oc_manifest_free(oc_manifest *m, const hr_allocator *a) { table_free(&m->table, a); }

/* ---------------------------------------------------------------------------------------------- */
/* B+tree nodes                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the key columns of `n` entries (prefix lengths, suffix lengths, for interior nodes the
 * subtree common prefix lengths, then the suffixes) and writes the keys out in node->keys. */
static hr_status read_keys(rd *r, oc_node *node, const hr_allocator *a) {
  const uint32_t n = node->n;
  uint64_t *len = a->alloc(a->ctx, 2 * (size_t)n * sizeof *len, 16);
  if (!len) return oom(r, 2 * (size_t)n * sizeof *len);
  uint64_t *prefix = len, *suffix = len + n, v;
  hr_status s = NULL;
  prefix[0] = 0;
  for (uint32_t i = 1; i < n && !s; i++) s = rd_bounded(r, "key_prefix_length", i - 1, HR_LIMIT_OCDBT_KEY_BYTES, &prefix[i]);
  for (uint32_t i = 0; i < n && !s; i++) s = rd_bounded(r, "key_suffix_length", i, HR_LIMIT_OCDBT_KEY_BYTES, &suffix[i]);
  size_t total = 0;
  for (uint32_t i = 0; i < n && !s; i++) {
    node->entries[i].key_len = (uint32_t)(prefix[i] + suffix[i]);
    if (i > 0 && prefix[i] > node->entries[i - 1].key_len)
      s = rd_fail(r, "key_prefix_length", i - 1, "%llu exceeds the previous key's length %u", (unsigned long long)prefix[i],
                  node->entries[i - 1].key_len);
    else if (node->entries[i].key_len > HR_LIMIT_OCDBT_KEY_BYTES)
      s = rd_fail(r, "key_suffix_length", i, "a key of %u bytes exceeds %d", node->entries[i].key_len, HR_LIMIT_OCDBT_KEY_BYTES);
    else if ((total += node->entries[i].key_len) > HR_LIMIT_OCDBT_EXPANDED_BYTES)
      s = rd_fail(r, "key_suffix_length", i, "the node's keys written out exceed %zu bytes", HR_LIMIT_OCDBT_EXPANDED_BYTES);
  }
  for (uint32_t i = 0; i < n && !s && node->height > 0; i++) {
    if (!(s = rd_varint(r, "subtree_common_prefix_length", i, &v)) && v > node->entries[i].key_len)
      s = rd_fail(r, "subtree_common_prefix_length", i, "%llu exceeds the key's length %u", (unsigned long long)v,
                  node->entries[i].key_len);
    node->entries[i].subtree_prefix = (uint32_t)v;
  }
  if (!s && !(node->keys = alloc_or_null(a, total))) s = oom(r, total);
  unsigned char *out = node->keys;
  for (uint32_t i = 0; i < n && !s; i++) {
    const unsigned char *p;
    oc_entry *e = &node->entries[i];
    if ((s = rd_bytes(r, "key_suffix", i, suffix[i], &p))) break;
    if (i > 0) memcpy(out, e[-1].key, prefix[i]);
    memcpy(out + prefix[i], p, suffix[i]);
    e->key = out;
    out += e->key_len;
    if (i > 0 && oc_key_cmp(e[-1].key, e[-1].key_len, e->key, e->key_len) >= 0)
      s = rd_fail(r, "key_suffix", i, "the key does not follow the previous one in order");
  }
  a->free(a->ctx, len);
  return s;
}

/* Reads a leaf's value columns: lengths, kinds, the out-of-line values' files and offsets, then
 * the inline values. */
static hr_status read_leaf_values(rd *r, oc_node *node) {
  for (uint32_t i = 0; i < node->n; i++) HR_TRY(rd_varint(r, "value_length", i, &node->entries[i].value_len));
  for (uint32_t i = 0; i < node->n; i++) {
    uint8_t kind;
    HR_TRY(rd_byte(r, "value_kind", i, &kind));
    if (kind > 1) return rd_fail(r, "value_kind", i, "%u is neither 0 (inline) nor 1 (out-of-line)", kind);
    node->entries[i].indirect = kind == 1;
  }
  for (uint32_t i = 0; i < node->n; i++)
    if (node->entries[i].indirect) HR_TRY(rd_file_id(r, "data_file_id", i, &node->table, &node->entries[i].ref.file));
  for (uint32_t i = 0; i < node->n; i++) {
    oc_entry *e = &node->entries[i];
    if (!e->indirect) continue;
    HR_TRY(rd_varint(r, "data_file_offset", i, &e->ref.offset));
    e->ref.length = e->value_len;
    HR_TRY(check_range(r, "data_file_offset", i, e->ref.offset, e->ref.length));
  }
  for (uint32_t i = 0; i < node->n; i++)
    if (!node->entries[i].indirect) HR_TRY(rd_bytes(r, "value", i, node->entries[i].value_len, &node->entries[i].value));
  return NULL;
}

/* Reads an interior node's child columns: files, offsets, lengths and the (unused) statistics. */
static hr_status read_children(rd *r, oc_node *node) {
  static const char *const stats[] = {"num_keys", "num_tree_bytes", "num_indirect_value_bytes"};
  uint64_t v;
  for (uint32_t i = 0; i < node->n; i++) HR_TRY(rd_file_id(r, "data_file_id", i, &node->table, &node->entries[i].ref.file));
  for (uint32_t i = 0; i < node->n; i++) HR_TRY(rd_varint(r, "data_file_offset", i, &node->entries[i].ref.offset));
  for (uint32_t i = 0; i < node->n; i++) {
    oc_ref *ref = &node->entries[i].ref;
    HR_TRY(rd_varint(r, "data_file_length", i, &ref->length));
    HR_TRY(check_range(r, "data_file_length", i, ref->offset, ref->length));
  }
  for (int k = 0; k < 3; k++) HR_TRY(read_column(r, stats[k], node->n, UINT64_MAX, &v));
  return NULL;
}

hr_status oc_decode_node(const char *file, uint64_t offset, const unsigned char *data, size_t len,
                         const char *trans, size_t trans_len, const hr_allocator *a, oc_node *node) {
  rd r = {.file = file, .offset = offset, .what = "B+tree node"}, b;
  HR_TRY(open_record(&r, data, len, OC_BTREE_MAGIC, HR_LIMIT_OCDBT_NODE_BYTES, a, &node->body, &b));
  uint8_t height;
  uint64_t n;
  HR_TRY(rd_byte(&b, "height", -1, &height));
  if (height > HR_LIMIT_OCDBT_TREE_HEIGHT) return rd_fail(&b, "height", -1, "%u exceeds %d", height, HR_LIMIT_OCDBT_TREE_HEIGHT);
  node->height = height;
  HR_TRY(read_table(&b, trans, trans_len, a, &node->table));
  HR_TRY(rd_bounded(&b, "num_entries", -1, HR_LIMIT_OCDBT_NODE_ENTRIES, &n));
  if (n == 0 || n > rd_left(&b))
    return rd_fail(&b, "num_entries", -1, "%llu entries (%zu bytes left)", (unsigned long long)n, rd_left(&b));
  node->n = (uint32_t)n;
  if (!(node->entries = a->alloc(a->ctx, (size_t)n * sizeof *node->entries, 16))) return oom(&b, (size_t)n * sizeof *node->entries);
  memset(node->entries, 0, (size_t)n * sizeof *node->entries);
  HR_TRY(read_keys(&b, node, a));
  HR_TRY(height == 0 ? read_leaf_values(&b, node) : read_children(&b, node));
  return rd_end(&b);
}

void oc_node_free(oc_node *node, const hr_allocator *a) {
  table_free(&node->table, a);
  free_ptr(a, node->entries);
  free_ptr(a, node->body);
  free_ptr(a, node->keys);
  *node = (oc_node){0};
}

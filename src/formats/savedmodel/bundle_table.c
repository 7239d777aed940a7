/* The LevelDB table under a TensorBundle's index (bundle_internal.h: bd_table_scan), as LevelDB's
 * table format and TensorFlow's copy of it (tsl/lib/io/format.cc, block.cc) lay it out:
 *
 *   [data block]... [metaindex block] [index block] [footer: 48 bytes]
 *
 * The footer holds the metaindex and index BlockHandles (offset and size, varint64 each), zeros up
 * to 40 bytes, and the magic number 0xdb4775248b80fb57 as two little-endian u32, low first. Every
 * block is stored followed by a 5-byte trailer: its compression (0 none, 1 snappy) and the masked
 * CRC-32C of the stored block and that byte. A block is a run of entries, each
 * [shared varint32][non_shared varint32][value_len varint32][key bytes after the shared prefix]
 * [value], then the offsets of its restart points (u32 each: entries that store their key whole)
 * and their count (u32). The index block maps a separator key to each data block's handle; the
 * metaindex (a filter's, which bundles do not have) is not read.
 *
 * Snappy (google/snappy format_description.txt), which TensorFlow 1.x used for index blocks: the
 * decoded length as a varint, then elements, each a tag byte whose low two bits say which: 00 a
 * literal (length - 1 in the upper six bits, or when those are 60-63 in the 1-4 little-endian
 * bytes after the tag), 01 a copy of 4-11 bytes from up to 2047 bytes back (length - 4 in bits
 * 2-4, the offset's upper three bits in bits 5-7 and its lower eight in the next byte), 10 and 11
 * copies of 1-64 bytes (length - 1 in the upper six bits) from a 2- or 4-byte little-endian offset
 * back. A copy may overlap what it produces. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/crc.h"
#include "base/limits.h"
#include "formats/savedmodel/bundle_internal.h"

enum {
  FOOTER_BYTES = 48,  /* two handles padded to 40 bytes, then the magic number */
  HANDLES_BYTES = 40,
  TRAILER_BYTES = 5,  /* a block's compression byte and CRC */
  BLOCK_NONE = 0,
  BLOCK_SNAPPY = 1,
  NAME_BYTES = PATH_MAX + 64, /* the index's name and where a decompressed block was */
};

/* The footer's last eight bytes. */
static const uint8_t table_magic[8] = {0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb};

/* A table being walked. */
typedef struct tb_scan {
  hr_pb file;          /* the whole file: messages and offsets */
  size_t body;         /* the bytes before the footer: every block lies in them */
  const hr_allocator *a;
  bd_table_visit visit;
  void *ctx;
  uint64_t next_block; /* data blocks come in order: where the next may start */
  int n_blocks;
  bool any_key;        /* keys so far: `prev` holds the last */
  size_t prev_len;
  char prev[HR_LIMIT_TF_KEY_BYTES + 1];
} tb_scan;

/* One block's contents: in the file, or decoded into `owned`. */
typedef struct tb_block {
  hr_pb c; /* its contents; messages name the file, or the decoded block, and offsets in it */
  uint8_t *owned;
  char name[NAME_BYTES];
} tb_block;

/* Receives one entry of a block: its key and a cursor over its value. */
typedef hr_status (*tb_entry_fn)(tb_scan *t, const char *key, size_t key_len, const hr_pb *value);

/* A RESOURCE_EXHAUSTED error naming cursor `c`'s file and `offset`. */
static hr_status too_large(const hr_pb *c, size_t offset, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static hr_status too_large(const hr_pb *c, size_t offset, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_RESOURCE_EXHAUSTED, "%s: offset %zu: %s", c->file, offset, msg);
}

static void block_free(const tb_scan *t, tb_block *b) {
  if (b->owned) t->a->free(t->a->ctx, b->owned);
  b->owned = NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Snappy                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Reads an n-byte (1-4) little-endian value from `in`, which must hold it. */
static hr_status snappy_le(hr_pb *in, int n, size_t tag_at, uint32_t *v) {
  if (in->end - in->p < n) return hr_pb_error(in, tag_at, "a snappy element is cut short");
  *v = 0;
  for (int i = n - 1; i >= 0; i--) *v = (*v << 8) | in->p[i];
  in->p += n;
  return NULL;
}

/* Decodes one snappy element from `in` into out[*pos..cap), advancing *pos. */
static hr_status snappy_element(hr_pb *in, uint8_t *out, size_t cap, size_t *pos) {
  size_t at = (size_t)(in->p - in->base);
  uint8_t tag = *in->p++;
  uint32_t v = 0;
  uint64_t len, back;
  if ((tag & 3) == 0) { /* literal */
    if (tag >> 2 < 60) len = (uint64_t)(tag >> 2) + 1;
    else {
      HR_TRY(snappy_le(in, (tag >> 2) - 59, at, &v));
      len = (uint64_t)v + 1;
    }
    if (len > (uint64_t)(in->end - in->p)) return hr_pb_error(in, at, "a snappy literal of %llu bytes is cut short", (unsigned long long)len);
    if (len > cap - *pos) return hr_pb_error(in, at, "a snappy literal runs past the decoded length %zu", cap);
    memcpy(out + *pos, in->p, (size_t)len);
    in->p += len;
    *pos += (size_t)len;
    return NULL;
  }
  if ((tag & 3) == 1) {
    HR_TRY(snappy_le(in, 1, at, &v));
    len = 4 + ((tag >> 2) & 7);
    back = (uint64_t)(tag >> 5) << 8 | v;
  } else {
    HR_TRY(snappy_le(in, (tag & 3) == 2 ? 2 : 4, at, &v));
    len = 1 + (uint64_t)(tag >> 2);
    back = v;
  }
  if (back == 0 || back > *pos)
    return hr_pb_error(in, at, "a snappy copy from %llu bytes back, %zu are decoded", (unsigned long long)back, *pos);
  if (len > cap - *pos) return hr_pb_error(in, at, "a snappy copy runs past the decoded length %zu", cap);
  for (size_t i = 0; i < len; i++, (*pos)++) out[*pos] = out[*pos - back]; /* may overlap what it writes */
  return NULL;
}

/* Decodes the snappy block `in` covers into blk->owned, named after the file and `offset`. */
static hr_status unsnappy(const tb_scan *t, hr_pb in, size_t offset, tb_block *blk) {
  uint64_t n;
  bool more;
  HR_TRY(hr_pb_next_packed(&in, &n, &more));
  if (!more) return hr_pb_error(&in, offset, "an empty snappy block");
  if (n > HR_LIMIT_BUNDLE_BLOCK_BYTES)
    return too_large(&in, offset, "a snappy block decodes to %llu bytes, more than %zu", (unsigned long long)n,
                     HR_LIMIT_BUNDLE_BLOCK_BYTES);
  if (!(blk->owned = t->a->alloc(t->a->ctx, n ? (size_t)n : 1, 1)))
    return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory decoding a block", t->file.file);
  size_t pos = 0;
  while (in.p < in.end) HR_TRY(snappy_element(&in, blk->owned, (size_t)n, &pos));
  if (pos != n) return hr_pb_error(&in, offset, "a snappy block decodes to %zu bytes, its header says %llu", pos, (unsigned long long)n);
  snprintf(blk->name, sizeof blk->name, "%s, snappy block at offset %zu decoded", t->file.file, offset);
  blk->c = (hr_pb){.file = blk->name, .base = blk->owned, .p = blk->owned, .end = blk->owned + n};
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Blocks                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Reads a BlockHandle (offset, size) from `c`; `what` names it in errors. */
static hr_status read_handle(hr_pb *c, const char *what, uint64_t *offset, uint64_t *size) {
  size_t at = (size_t)(c->p - c->base);
  bool more1, more2;
  HR_TRY(hr_pb_next_packed(c, offset, &more1));
  if (more1) HR_TRY(hr_pb_next_packed(c, size, &more2));
  if (!more1 || !more2) return hr_pb_error(c, at, "%s: a block handle is cut short", what);
  return NULL;
}

/* Reads the block at [offset, offset + size) and its trailer (the handle was read at `at`),
 * checking its CRC and decoding it when it is compressed. Free it with block_free (after an error
 * there is nothing to free). */
static hr_status read_block(const tb_scan *t, uint64_t offset, uint64_t size, size_t at, const char *what, tb_block *blk) {
  blk->owned = NULL;
  if (offset > t->body || size > t->body - offset || TRAILER_BYTES > t->body - offset - size)
    return hr_pb_error(&t->file, at, "%s: block [%llu, %llu) and its %d-byte trailer do not fit before the footer at %zu", what,
                       (unsigned long long)offset, (unsigned long long)offset + size, TRAILER_BYTES, t->body);
  if (size > HR_LIMIT_BUNDLE_BLOCK_BYTES)
    return too_large(&t->file, at, "%s: a block of %llu bytes, more than %zu", what, (unsigned long long)size,
                     HR_LIMIT_BUNDLE_BLOCK_BYTES);
  const uint8_t *p = t->file.base + offset;
  uint32_t stored = bd_crc_unmask(bd_le32(p + size + 1)), actual = hr_crc32c(0, p, (size_t)size + 1);
  if (stored != actual)
    return hr_pb_error(&t->file, (size_t)offset, "%s: the block's checksum does not match (stored %08x, computed %08x)", what,
                       stored, actual);
  hr_pb in = {.file = t->file.file, .base = t->file.base, .p = p, .end = p + size};
  switch (p[size]) {
    case BLOCK_NONE: blk->c = in; return NULL;
    case BLOCK_SNAPPY: {
      hr_status s = unsnappy(t, in, (size_t)offset, blk);
      if (s) block_free(t, blk);
      return s;
    }
    default:
      return hr_pb_error(&t->file, (size_t)(offset + size), "%s: block compression %u (0 is none, 1 snappy)", what, p[size]);
  }
}

/* The offset of restart point `i` of a block whose restart array starts at `restarts`. */
static size_t restart_at(const uint8_t *restarts, uint32_t i) { return bd_le32(restarts + 4 * (size_t)i); }

/* Calls `fn` for each entry of `blk` in order, rebuilding each key from its shared prefix and
 * checking that the restart points are entries that store their key whole, the first one first. */
static hr_status walk_block(tb_scan *t, const tb_block *blk, const char *what, tb_entry_fn fn) {
  const uint8_t *d = blk->c.p;
  size_t len = (size_t)(blk->c.end - d), at = (size_t)(d - blk->c.base);
  if (len < 4) return hr_pb_error(&blk->c, at, "%s: a block of %zu bytes has no restart count", what, len);
  uint32_t n_restarts = bd_le32(d + len - 4);
  if (n_restarts > (len - 4) / 4)
    return hr_pb_error(&blk->c, at + len - 4, "%s: %u restart points do not fit a block of %zu bytes", what, n_restarts, len);
  size_t limit = len - 4 - 4 * (size_t)n_restarts;
  const uint8_t *restarts = d + limit;
  if (limit > 0 && (n_restarts == 0 || restart_at(restarts, 0) != 0))
    return hr_pb_error(&blk->c, at + limit, "%s: the block's entries do not start at its first restart point", what);
  hr_pb c = {.file = blk->c.file, .base = blk->c.base, .p = d, .end = d + limit};
  char key[HR_LIMIT_TF_KEY_BYTES + 1];
  size_t key_len = 0;
  uint32_t r = 0;
  while (c.p < c.end) {
    size_t here = (size_t)(c.p - d), here_at = at + here;
    uint64_t shared = 0, own = 0, value_len = 0;
    bool m1, m2 = false, m3 = false;
    HR_TRY(hr_pb_next_packed(&c, &shared, &m1));
    if (m1) HR_TRY(hr_pb_next_packed(&c, &own, &m2));
    if (m2) HR_TRY(hr_pb_next_packed(&c, &value_len, &m3));
    if (!m3 || (shared | own | value_len) > UINT32_MAX) return hr_pb_error(&blk->c, here_at, "%s: a bad entry header", what);
    if (r < n_restarts && restart_at(restarts, r) < here)
      return hr_pb_error(&blk->c, at + limit + 4 * (size_t)r, "%s: restart point %u (%zu) is not where an entry starts", what, r,
                         restart_at(restarts, r));
    if (r < n_restarts && restart_at(restarts, r) == here) {
      if (shared) return hr_pb_error(&blk->c, here_at, "%s: the entry at restart point %u shares key bytes", what, r);
      r++;
    }
    if (shared > key_len)
      return hr_pb_error(&blk->c, here_at, "%s: an entry shares %llu bytes of a %zu-byte key", what, (unsigned long long)shared, key_len);
    if (own > (uint64_t)(c.end - c.p) || value_len > (uint64_t)(c.end - c.p) - own)
      return hr_pb_error(&blk->c, here_at, "%s: an entry of %llu key and %llu value bytes runs past the block's entries", what,
                         (unsigned long long)own, (unsigned long long)value_len);
    if (shared + own > HR_LIMIT_TF_KEY_BYTES)
      return too_large(&blk->c, here_at, "%s: a key of %llu bytes, more than %d", what, (unsigned long long)(shared + own),
                       HR_LIMIT_TF_KEY_BYTES);
    memcpy(key + shared, c.p, (size_t)own);
    key_len = (size_t)(shared + own);
    key[key_len] = 0;
    if (memchr(key, 0, key_len)) return hr_pb_error(&blk->c, here_at, "%s: a key holds a NUL byte", what);
    hr_pb value = {.file = c.file, .base = c.base, .p = c.p + own, .end = c.p + own + value_len};
    c.p = value.end;
    HR_TRY(fn(t, key, key_len, &value));
  }
  if (r < n_restarts)
    return hr_pb_error(&blk->c, at + limit + 4 * (size_t)r, "%s: restart point %u (%zu) is not where an entry starts", what, r,
                       restart_at(restarts, r));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The table                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* A data block's entry: its key must sort after the one before; then it is visited. */
static hr_status data_entry(tb_scan *t, const char *key, size_t key_len, const hr_pb *value) {
  if (t->any_key) {
    int cmp = memcmp(t->prev, key, t->prev_len < key_len ? t->prev_len : key_len);
    if (cmp > 0 || (cmp == 0 && t->prev_len >= key_len))
      return hr_pb_error(value, (size_t)(value->p - value->base), "the key \"%s\" does not sort after \"%s\"", key, t->prev);
  }
  memcpy(t->prev, key, key_len + 1);
  t->prev_len = key_len;
  t->any_key = true;
  return t->visit(t->ctx, key, key_len, value);
}

/* An index block's entry: the handle of a data block, which is read and walked. */
static hr_status index_entry(tb_scan *t, const char *key, size_t key_len, const hr_pb *value) {
  (void)key;
  (void)key_len;
  hr_pb c = *value;
  size_t at = (size_t)(c.p - c.base);
  uint64_t offset, size;
  HR_TRY(read_handle(&c, "a data block", &offset, &size));
  if (++t->n_blocks > HR_LIMIT_BUNDLE_ENTRIES)
    return too_large(value, at, "more than %d data blocks", HR_LIMIT_BUNDLE_ENTRIES);
  if (offset < t->next_block)
    return hr_pb_error(value, at, "data block %d starts at %llu, inside the one before (which ends at %llu)", t->n_blocks,
                       (unsigned long long)offset, (unsigned long long)t->next_block);
  tb_block blk;
  HR_TRY(read_block(t, offset, size, at, "a data block", &blk));
  t->next_block = offset + size + TRAILER_BYTES;
  hr_status s = walk_block(t, &blk, "a data block", data_entry);
  block_free(t, &blk);
  return s;
}

hr_status bd_table_scan(const char *name, const uint8_t *file, size_t len, const hr_allocator *a, bd_table_visit visit,
                        void *ctx) {
  if (len < FOOTER_BYTES)
    return hr_error(HR_PARSE_ERROR, "%s: offset 0: %zu bytes: shorter than a LevelDB table's %d-byte footer", name, len, FOOTER_BYTES);
  tb_scan *t = a->alloc(a->ctx, sizeof *t, _Alignof(tb_scan)); /* it holds a key: kept off the stack */
  if (!t) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", name);
  memset(t, 0, sizeof *t);
  t->file = hr_pb_open(name, file, len);
  t->a = a;
  t->visit = visit;
  t->ctx = ctx;
  hr_status s = NULL;
  uint64_t offset = 0, size = 0;
  if (memcmp(file + len - 8, table_magic, 8) != 0)
    s = hr_pb_error(&t->file, len - 8, "not a LevelDB table (no table magic number at its end)");
  if (!s) {
    t->body = len - FOOTER_BYTES;
    hr_pb footer = {.file = name, .base = file, .p = file + t->body, .end = file + t->body + HANDLES_BYTES};
    s = read_handle(&footer, "the footer's metaindex", &offset, &size);
    if (!s) s = read_handle(&footer, "the footer's index", &offset, &size);
  }
  tb_block index = {.owned = NULL};
  if (!s) s = read_block(t, offset, size, t->body, "the index block", &index);
  if (!s) s = walk_block(t, &index, "the index block", index_entry);
  block_free(t, &index);
  a->free(a->ctx, t);
  return s;
}

/* hr_ocdbt_write: a new OCDBT database of one version (ocdbt_internal.h has the record layout).
 *
 * The keys are sorted; the values above max_inline_value_bytes go first into the data file, then
 * the B+tree is written bottom-up: leaves of consecutive entries, then levels of interior nodes
 * over them until one node, the root, remains. Every node except the root stores its keys
 * relative to the common prefix of its subtree's keys (the first and the last key's), which is
 * what its parent's entry declares as subtree_common_prefix_length; the root's are whole. The
 * manifest, written last and atomically (temporary file and rename), names the root. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <zstd.h>

#include "base/crc.h"
#include "base/file.h"
#include "base/limits.h"
#include "base/strbuf.h"
#include "formats/orbax/ocdbt.h"
#include "formats/orbax/ocdbt_internal.h"

/* A node ends once its entries' estimated size reaches this (a tuning constant: nodes are read
 * whole for each lookup through them). */
#define NODE_TARGET_BYTES ((size_t)1 << 20)
/* What the manifest declares as max_decoded_node_bytes: Orbax's value. */
#define DECLARED_NODE_BYTES 100000000u
/* The zstd level declared and used (zstd's default). */
#define ZSTD_LEVEL 0
/* A path below the root (at most HR_LIMIT_OCDBT_PATH_BYTES) and a file name, with room. */
enum { PATH_BUF = HR_LIMIT_OCDBT_PATH_BYTES + 64 };

/* A node written, as its parent refers to it. */
typedef struct wr_node {
  int first, last; /* sorted positions of its subtree's first and last keys */
  uint64_t offset, length;
  uint64_t num_keys, tree_bytes, indirect_bytes;
} wr_node;

/* A write in progress. */
typedef struct wr {
  const char *root;
  const hr_ocdbt_entry *e;
  int n;
  const hr_ocdbt_entry **sorted; /* the entries in key order */
  size_t *klen;       /* key lengths, by sorted position */
  uint64_t *value_at; /* data file offsets of out-of-line values, by sorted position */
  int *keys_at;       /* scratch: the sorted positions of a node's keys */
  size_t *subtree;    /* scratch: an interior node's subtree common prefix lengths */
  size_t max_inline;
  int max_entries;
  bool compress;
  unsigned char uuid[16];
  char data_path[40]; /* "d/<32 hex digits>" */
  FILE *f;         /* the data file, being written */
  uint64_t pos;    /* its size so far */
  hr_strbuf body, rec; /* scratch: a record's body, the record */
} wr;

static hr_status oom(const char *root) { return hr_error(HR_OUT_OF_MEMORY, "%s: OCDBT write: out of memory", root); }

static const char *key_at(const wr *w, int i) { return w->sorted[i]->key; }

static bool inline_at(const wr *w, int i) { return w->sorted[i]->len <= w->max_inline; }

/* The length of the common prefix of sorted keys i and j. */
static size_t lcp(const wr *w, int i, int j) {
  const char *a = key_at(w, i), *b = key_at(w, j);
  size_t n = w->klen[i] < w->klen[j] ? w->klen[i] : w->klen[j], k = 0;
  while (k < n && a[k] == b[k]) k++;
  return k;
}

/* ---------------------------------------------------------------------------------------------- */
/* Encoding                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static void put_varint(hr_strbuf *b, uint64_t v) {
  char c[10];
  int n = 0;
  do {
    c[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  hr_strbuf_append(b, c, (size_t)n);
}

static void put_le(hr_strbuf *b, uint64_t v, int bytes) {
  char c[8];
  for (int i = 0; i < bytes; i++) c[i] = (char)(v >> (8 * i));
  hr_strbuf_append(b, c, (size_t)bytes);
}

/* Wraps w->body into the record w->rec: header, body (zstd-compressed when asked), CRC-32C. */
static hr_status encode_record(wr *w, uint32_t magic) {
  hr_strbuf *r = &w->rec;
  r->len = 0;
  for (int i = 3; i >= 0; i--) hr_strbuf_putc(r, (char)(magic >> (8 * i)));
  put_le(r, 0, 8); /* the length, set below */
  put_varint(r, 0);
  put_varint(r, w->compress ? 1 : 0);
  if (!w->compress) hr_strbuf_append(r, w->body.data, w->body.len);
  else if (hr_strbuf_reserve(r, ZSTD_compressBound(w->body.len))) {
    size_t z = ZSTD_compress(r->data + r->len, r->cap - r->len - 1, w->body.data, w->body.len, ZSTD_LEVEL);
    if (ZSTD_isError(z)) return hr_error(HR_INTERNAL, "%s: OCDBT write: zstd: %s", w->root, ZSTD_getErrorName(z));
    r->len += z;
    r->data[r->len] = '\0';
  }
  HR_TRY(hr_strbuf_status(r));
  uint64_t total = r->len + OC_RECORD_CRC_BYTES;
  for (int i = 0; i < 8; i++) r->data[4 + i] = (char)(total >> (8 * i));
  put_le(r, hr_crc32c(0, r->data, r->len), 4);
  return hr_strbuf_status(r);
}

/* A data file table naming the data file, or none when `refers` is false. */
static void put_table(wr *w, bool refers) {
  put_varint(&w->body, refers ? 1 : 0);
  if (!refers) return;
  put_varint(&w->body, strlen(w->data_path)); /* path_suffix_length */
  put_varint(&w->body, 0);                    /* base_path_length */
  hr_strbuf_puts(&w->body, w->data_path);
}

/* The key columns of the keys first..last (sorted positions, via `pos`) after `prefix` bytes:
 * prefix lengths, suffix lengths and, when `subtree` is given, its values, then the suffixes. */
static void put_keys(wr *w, const int *pos, int count, size_t prefix, const size_t *subtree) {
  for (int i = 1; i < count; i++) put_varint(&w->body, lcp(w, pos[i - 1], pos[i]) - prefix);
  for (int i = 0; i < count; i++)
    put_varint(&w->body, w->klen[pos[i]] - (i ? lcp(w, pos[i - 1], pos[i]) : prefix));
  for (int i = 0; subtree && i < count; i++) put_varint(&w->body, subtree[i]);
  for (int i = 0; i < count; i++) {
    size_t from = i ? lcp(w, pos[i - 1], pos[i]) : prefix;
    hr_strbuf_append(&w->body, key_at(w, pos[i]) + from, w->klen[pos[i]] - from);
  }
}

/* Appends w->rec to the data file; *out locates it. */
static hr_status append_record(wr *w, wr_node *out) {
  if (fwrite(w->rec.data, 1, w->rec.len, w->f) != w->rec.len)
    return hr_error(HR_IO_ERROR, "%s/%s: write failed: %s", w->root, w->data_path, strerror(errno));
  out->offset = w->pos;
  out->length = w->rec.len;
  out->tree_bytes += w->rec.len;
  w->pos += w->rec.len;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The tree                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* The end of the group of items starting at `start` (of `count`, each of cost[i] bytes): at most
 * max_entries items and about NODE_TARGET_BYTES. */
static int group_end(const wr *w, const size_t *cost, int start, int count) {
  size_t bytes = 0;
  int end = start;
  while (end < count && end - start < w->max_entries && (end == start || bytes < NODE_TARGET_BYTES)) bytes += cost[end++];
  return end;
}

/* The number of groups `count` items of cost[] form. */
static int group_count(const wr *w, const size_t *cost, int count) {
  int groups = 0;
  for (int s = 0; s < count; s = group_end(w, cost, s, count)) groups++;
  return groups;
}

/* Writes the leaf of sorted positions [s, end) with its keys after `prefix` bytes. */
static hr_status write_leaf(wr *w, int s, int end, size_t prefix, wr_node *out) {
  const int count = end - s;
  int *pos = w->keys_at;
  bool refers = false;
  *out = (wr_node){.first = s, .last = end - 1, .num_keys = (uint64_t)count};
  for (int i = 0; i < count; i++) {
    pos[i] = s + i;
    refers |= !inline_at(w, s + i);
  }
  w->body.len = 0;
  hr_strbuf_putc(&w->body, 0); /* height */
  put_table(w, refers);
  put_varint(&w->body, (uint64_t)count);
  put_keys(w, pos, count, prefix, NULL);
  for (int i = s; i < end; i++) put_varint(&w->body, w->sorted[i]->len);
  for (int i = s; i < end; i++) hr_strbuf_putc(&w->body, inline_at(w, i) ? 0 : 1);
  for (int i = s; i < end; i++)
    if (!inline_at(w, i)) put_varint(&w->body, 0); /* data_file_id */
  for (int i = s; i < end; i++)
    if (!inline_at(w, i)) {
      put_varint(&w->body, w->value_at[i]);
      out->indirect_bytes += w->sorted[i]->len;
    }
  for (int i = s; i < end; i++)
    if (inline_at(w, i)) hr_strbuf_append(&w->body, w->sorted[i]->value, w->sorted[i]->len);
  HR_TRY(hr_strbuf_status(&w->body));
  HR_TRY(encode_record(w, OC_BTREE_MAGIC));
  return append_record(w, out);
}

/* Writes the interior node of height `height` over children c[0..count) with its keys after
 * `prefix` bytes. */
static hr_status write_interior(wr *w, int height, const wr_node *c, int count, size_t prefix, wr_node *out) {
  int *pos = w->keys_at;
  size_t *subtree = w->subtree;
  *out = (wr_node){.first = c[0].first, .last = c[count - 1].last};
  for (int i = 0; i < count; i++) {
    pos[i] = c[i].first;
    subtree[i] = lcp(w, c[i].first, c[i].last) - prefix;
    out->num_keys += c[i].num_keys;
    out->tree_bytes += c[i].tree_bytes;
    out->indirect_bytes += c[i].indirect_bytes;
  }
  w->body.len = 0;
  hr_strbuf_putc(&w->body, (char)height);
  put_table(w, true);
  put_varint(&w->body, (uint64_t)count);
  put_keys(w, pos, count, prefix, subtree);
  for (int i = 0; i < count; i++) put_varint(&w->body, 0); /* data_file_id */
  for (int i = 0; i < count; i++) put_varint(&w->body, c[i].offset);
  for (int i = 0; i < count; i++) put_varint(&w->body, c[i].length);
  for (int i = 0; i < count; i++) put_varint(&w->body, c[i].num_keys);
  for (int i = 0; i < count; i++) put_varint(&w->body, c[i].tree_bytes);
  for (int i = 0; i < count; i++) put_varint(&w->body, c[i].indirect_bytes);
  HR_TRY(hr_strbuf_status(&w->body));
  HR_TRY(encode_record(w, OC_BTREE_MAGIC));
  return append_record(w, out);
}

/* The common prefix length of a node's keys: its subtree's, or none for the root. */
static size_t node_prefix(const wr *w, int groups, int first, int last) { return groups == 1 ? 0 : lcp(w, first, last); }

/* Writes the tree over the sorted entries (n > 0); *root is its root, of height *height. */
static hr_status write_tree(wr *w, wr_node *level, size_t *cost, wr_node *root, int *height) {
  int count = 0;
  for (int i = 0; i < w->n; i++) cost[i] = w->klen[i] + (inline_at(w, i) ? w->sorted[i]->len : 0) + 16;
  int groups = group_count(w, cost, w->n);
  for (int s = 0, end; s < w->n; s = end) {
    end = group_end(w, cost, s, w->n);
    HR_TRY(write_leaf(w, s, end, node_prefix(w, groups, s, end - 1), &level[count++]));
  }
  for (*height = 0; count > 1; ++*height) {
    for (int i = 0; i < count; i++) cost[i] = w->klen[level[i].first] + 48;
    groups = group_count(w, cost, count);
    int next = 0;
    for (int s = 0, end; s < count; s = end) {
      end = group_end(w, cost, s, count);
      wr_node node;
      HR_TRY(write_interior(w, *height + 1, level + s, end - s, node_prefix(w, groups, level[s].first, level[end - 1].last),
                            &node));
      level[next++] = node; /* next <= s: the children still to be read lie after it */
    }
    count = next;
  }
  *root = level[0];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Files                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Writes the out-of-line values and the tree into the data file. */
static hr_status write_data(wr *w, wr_node *root, int *height) {
  char tmp[PATH_BUF + 8], path[PATH_BUF];
  snprintf(path, sizeof path, "%s/%s", w->root, w->data_path);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  if (!(w->f = fopen(tmp, "wb"))) return hr_error(HR_IO_ERROR, "%s: %s", tmp, strerror(errno));
  hr_status s = NULL;
  for (int i = 0; i < w->n && !s; i++) {
    if (inline_at(w, i)) continue;
    const hr_ocdbt_entry *e = w->sorted[i];
    w->value_at[i] = w->pos;
    if (fwrite(e->value, 1, e->len, w->f) != e->len) s = hr_error(HR_IO_ERROR, "%s: write failed: %s", tmp, strerror(errno));
    w->pos += e->len;
  }
  size_t n = (size_t)w->n;
  wr_node *level = malloc(n * sizeof *level);
  size_t *cost = malloc(n * sizeof *cost);
  if (!s) s = level && cost ? write_tree(w, level, cost, root, height) : oom(w->root);
  free(level);
  free(cost);
  if (fclose(w->f) != 0 && !s) s = hr_error(HR_IO_ERROR, "%s: write failed: %s", tmp, strerror(errno));
  if (!s && rename(tmp, path) != 0) s = hr_error(HR_IO_ERROR, "%s: %s", path, strerror(errno));
  if (s) remove(tmp);
  return s;
}

/* Writes manifest.ocdbt: the configuration and the one version, whose root is `root` (of height
 * `height`) or, with no entries, none. */
static hr_status write_manifest(wr *w, const wr_node *root, int height) {
  hr_strbuf *b = &w->body;
  b->len = 0;
  hr_strbuf_append(b, (const char *)w->uuid, 16);
  hr_strbuf_putc(b, OC_MANIFEST_SINGLE);
  put_varint(b, w->max_inline);
  put_varint(b, DECLARED_NODE_BYTES);
  hr_strbuf_putc(b, OC_VERSION_TREE_ARITY_LOG2);
  put_varint(b, w->compress ? 1 : 0);
  if (w->compress) put_le(b, (uint32_t)ZSTD_LEVEL, 4);
  /* The table names the data file, or (as tensorstore writes an empty version) one empty path. */
  put_varint(b, 1);
  put_varint(b, root ? strlen(w->data_path) : 0);
  put_varint(b, 0);
  if (root) hr_strbuf_puts(b, w->data_path);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  put_varint(b, 1); /* num_versions */
  put_varint(b, 1); /* generation_number */
  hr_strbuf_putc(b, (char)height);
  put_varint(b, 0); /* data_file_id */
  put_varint(b, root ? root->offset : OC_MISSING);
  put_varint(b, root ? root->length : OC_MISSING);
  put_varint(b, root ? root->num_keys : 0);
  put_varint(b, root ? root->tree_bytes : 0);
  put_varint(b, root ? root->indirect_bytes : 0);
  put_le(b, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec, 8);
  put_varint(b, 0); /* version tree nodes */
  HR_TRY(hr_strbuf_status(b));
  HR_TRY(encode_record(w, OC_MANIFEST_MAGIC));
  char path[PATH_BUF];
  snprintf(path, sizeof path, "%s/manifest.ocdbt", w->root);
  return hr_write_file(path, w->rec.data, w->rec.len);
}

/* ---------------------------------------------------------------------------------------------- */
/* The entry point                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* Orders entries (through pointers) by key. */
static int entry_cmp(const void *a, const void *b) {
  return strcmp((*(const hr_ocdbt_entry *const *)a)->key, (*(const hr_ocdbt_entry *const *)b)->key);
}

/* Checks the arguments and the entries, and fills the options' values into `w`. */
static hr_status check_args(wr *w, const hr_ocdbt_write_options *o) {
  if (w->n < 0 || (w->n > 0 && !w->e)) return hr_error(HR_INVALID_ARGUMENT, "%s: OCDBT write: %d entries", w->root, w->n);
  w->max_inline = o && o->max_inline_value_bytes ? o->max_inline_value_bytes : 1024;
  w->max_entries = o && o->max_node_entries ? o->max_node_entries : 4096;
  w->compress = !(o && o->uncompressed);
  if (w->max_inline > OC_MAX_INLINE_VALUE_BYTES || w->max_entries < 2 || w->max_entries > HR_LIMIT_OCDBT_NODE_ENTRIES)
    return hr_error(HR_INVALID_ARGUMENT, "%s: OCDBT write: max_inline_value_bytes %zu (at most %zu) or max_node_entries %d (2 to %d)",
                    w->root, w->max_inline, OC_MAX_INLINE_VALUE_BYTES, w->max_entries, HR_LIMIT_OCDBT_NODE_ENTRIES);
  for (int i = 0; i < w->n; i++) {
    const hr_ocdbt_entry *e = &w->e[i];
    if (!e->key || strlen(e->key) > HR_LIMIT_OCDBT_KEY_BYTES || (e->len && !e->value))
      return hr_error(HR_INVALID_ARGUMENT, "%s: OCDBT write: entry %d: no key, a key over %d bytes, or no value", w->root, i,
                      HR_LIMIT_OCDBT_KEY_BYTES);
  }
  return NULL;
}

/* Sorts the entries and refuses duplicate keys. */
static hr_status sort_entries(wr *w) {
  for (int i = 0; i < w->n; i++) w->sorted[i] = &w->e[i];
  qsort(w->sorted, (size_t)w->n, sizeof *w->sorted, entry_cmp);
  for (int i = 0; i < w->n; i++) {
    w->klen[i] = strlen(key_at(w, i));
    if (i > 0 && strcmp(key_at(w, i - 1), key_at(w, i)) == 0)
      return hr_error(HR_INVALID_ARGUMENT, "%s: OCDBT write: key \"%s\" appears twice", w->root, key_at(w, i));
  }
  return NULL;
}

/* Prepares the directory and the uuid, and writes the data file and the manifest. */
static hr_status write_all(wr *w, const hr_ocdbt_write_options *o) {
  char path[PATH_BUF];
  HR_TRY(sort_entries(w));
  HR_TRY(hr_make_dir(w->root));
  snprintf(path, sizeof path, "%s/manifest.ocdbt", w->root);
  struct stat sb;
  if (stat(path, &sb) == 0) return hr_error(HR_INVALID_ARGUMENT, "%s: already holds a database", w->root);
  snprintf(path, sizeof path, "%s/d", w->root);
  HR_TRY(hr_make_dir(path));
  if (o && o->uuid) memcpy(w->uuid, o->uuid, 16);
  else if (getrandom(w->uuid, 16, 0) != 16) return hr_error(HR_IO_ERROR, "OCDBT write: getrandom: %s", strerror(errno));
  memcpy(w->data_path, "d/", 2);
  for (int i = 0; i < 16; i++) snprintf(w->data_path + 2 + 2 * i, 3, "%02x", w->uuid[i]);
  wr_node root;
  int height = 0;
  if (w->n) HR_TRY(write_data(w, &root, &height));
  return write_manifest(w, w->n ? &root : NULL, height);
}

hr_status hr_ocdbt_write(const char *root, const hr_ocdbt_entry *entries, int n, const hr_ocdbt_write_options *opts) {
  if (!root || strlen(root) > HR_LIMIT_OCDBT_PATH_BYTES)
    return hr_error(HR_INVALID_ARGUMENT, "OCDBT write: no directory, or a path over %d bytes", HR_LIMIT_OCDBT_PATH_BYTES);
  wr w = {.root = root, .e = entries, .n = n};
  HR_TRY(check_args(&w, opts));
  size_t count = (size_t)n + 1;
  w.sorted = malloc(count * sizeof *w.sorted);
  w.klen = malloc(count * sizeof *w.klen);
  w.value_at = malloc(count * sizeof *w.value_at);
  w.keys_at = malloc(count * sizeof *w.keys_at);
  w.subtree = malloc(count * sizeof *w.subtree);
  hr_strbuf_init(&w.body, NULL);
  hr_strbuf_init(&w.rec, NULL);
  hr_status s = w.sorted && w.klen && w.value_at && w.keys_at && w.subtree ? write_all(&w, opts) : oom(root);
  free(w.sorted);
  free(w.klen);
  free(w.value_at);
  free(w.keys_at);
  free(w.subtree);
  hr_strbuf_free(&w.body);
  hr_strbuf_free(&w.rec);
  return s;
}

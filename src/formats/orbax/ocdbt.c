/* hr_kvstore_open_ocdbt: an OCDBT database (tensorstore's B+tree over data files, as Orbax saves
 * checkpoints) as a read-only key-value store of its latest version.
 *
 * Opening reads the manifest (manifest.ocdbt; for the numbered kind the newest
 * manifest.<16 hex digits>) and decodes the root B+tree node, which stays decoded; a lookup
 * descends from it, decoding the nodes below on the way, and copies the value from the leaf or
 * from the data file holding it. Data files are mapped once and stay mapped until the store is
 * closed (up to HR_LIMIT_OCDBT_MAPPED_FILES of them), so reading many keys costs about a memcpy
 * each. Where the directory has no manifest.ocdbt but ocdbt.process_N/ databases (a multi-process
 * save whose merge did not run), those are read together: a key is looked up in each in name
 * order, and listings merge them.
 *
 * Containment: data file paths come from the files; each must be relative, without empty, "." or
 * ".." components, and must resolve (symbolic links followed) inside its database's directory. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/limits.h"
#include "base/mapping.h"
#include "base/strbuf.h"
#include "formats/orbax/kvstore.h"
#include "formats/orbax/ocdbt_internal.h"

/* A file path as errors show it: the store's root, a database directory, a data file path. */
enum { NAME_BYTES = 2 * HR_LIMIT_OCDBT_PATH_BYTES + 512 };

/* A mapped data file, by its path as errors show it. */
typedef struct oc_mapped {
  char *name;
  void *data;
  size_t len;
} oc_mapped;

/* One database of the store. */
typedef struct oc_db {
  char *dir;   /* below the store's root: "" or "ocdbt.process_N/" */
  char *real;  /* the directory resolved: its files must resolve inside it */
  oc_manifest m;
  oc_node root; /* decoded unless the latest version is empty */
} oc_db;

typedef struct oc_store {
  hr_kvstore base;
  const hr_allocator *a;
  char *name; /* the root as given */
  int n_dbs;
  oc_db *dbs;
  pthread_mutex_t lock; /* guards the mapped files (reads may run in several threads) */
  int n_mapped;
  oc_mapped *mapped; /* HR_LIMIT_OCDBT_MAPPED_FILES slots */
} oc_store;

/* A byte range of a mapped data file; `unmap` is set when the file was mapped for this read only. */
typedef struct oc_view {
  const unsigned char *p;
  void *unmap;
  size_t unmap_len;
} oc_view;

static hr_status oom(const char *name) { return hr_error(HR_OUT_OF_MEMORY, "%s: OCDBT: out of memory", name); }

static char *dup_str(const hr_allocator *a, const char *s) {
  size_t n = strlen(s) + 1;
  char *d = a->alloc(a->ctx, n, 1);
  if (d) memcpy(d, s, n);
  return d;
}

static void free_ptr(const hr_allocator *a, void *p) {
  if (p) a->free(a->ctx, p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Files                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Refuses a data file path that is absolute or has an empty, "." or ".." component. */
static hr_status check_relative(const char *shown, const char *path, const char *why) {
  for (const char *c = path;; c++) {
    const char *end = strchr(c, '/');
    size_t n = end ? (size_t)(end - c) : strlen(c);
    if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
      return hr_error(HR_PARSE_ERROR, "%s: refused: the data file path \"%s\" (%s) is not a relative path of plain names",
                      shown, path, why);
    if (!end) return NULL;
    c = end;
  }
}

/* Whether the resolved path `real` lies inside the resolved directory `dir`. */
static bool inside(const char *real, const char *dir) {
  size_t n = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
  return strncmp(real, dir, n) == 0 && real[n] == '/';
}

/* Resolves `path` (below `db`'s directory, shown as `shown`) into a new string, refusing what
 * leaves the directory. `why` says what named the file. */
static hr_status resolve(const oc_store *st, const oc_db *db, const char *path, const char *shown, const char *why,
                         char **real) {
  char full[NAME_BYTES];
  HR_TRY(check_relative(shown, path, why));
  snprintf(full, sizeof full, "%s/%s%s", st->name, db->dir, path);
  *real = realpath(full, NULL);
  if (!*real)
    return hr_error(errno == ENOENT ? HR_NOT_FOUND : HR_IO_ERROR, "%s: %s (%s)", shown,
                    errno == ENOENT ? "not found" : strerror(errno), why);
  if (inside(*real, db->real)) return NULL;
  hr_status s = hr_error(HR_PARSE_ERROR, "%s: refused: resolves to %s, outside %s (%s)", shown, *real, db->real, why);
  free(*real);
  *real = NULL;
  return s;
}

/* Maps the data file `path` of `db` (`shown` in errors), from the store's mapped files when it is
 * there; *transient when the caller must unmap it (the store holds its limit of files). */
static hr_status map_data_file(oc_store *st, const oc_db *db, const char *path, const char *shown, const char *why,
                               void **data, size_t *len, bool *transient) {
  *transient = false;
  for (int i = 0; i < st->n_mapped; i++)
    if (strcmp(st->mapped[i].name, shown) == 0) {
      *data = st->mapped[i].data;
      *len = st->mapped[i].len;
      return NULL;
    }
  char *real;
  HR_TRY(resolve(st, db, path, shown, why, &real));
  hr_status s = hr_map_file(real, SIZE_MAX, data, len);
  free(real);
  HR_TRY(s);
  if (st->n_mapped == HR_LIMIT_OCDBT_MAPPED_FILES) {
    *transient = true;
    return NULL;
  }
  char *name = dup_str(st->a, shown);
  if (!name) {
    hr_unmap_file(*data, *len);
    return oom(st->name);
  }
  st->mapped[st->n_mapped++] = (oc_mapped){name, *data, *len};
  return NULL;
}

/* The bytes of `ref` in the data file `path` of `db`. */
static hr_status view_range(oc_store *st, const oc_db *db, const char *path, const oc_ref *ref, const char *why,
                            oc_view *v) {
  char shown[NAME_BYTES];
  snprintf(shown, sizeof shown, "%s/%s%s", st->name, db->dir, path);
  void *data;
  size_t len;
  bool transient;
  pthread_mutex_lock(&st->lock);
  hr_status s = map_data_file(st, db, path, shown, why, &data, &len, &transient);
  pthread_mutex_unlock(&st->lock);
  HR_TRY(s);
  if (ref->offset > len || ref->length > len - ref->offset) {
    if (transient) hr_unmap_file(data, len);
    return hr_error(HR_PARSE_ERROR, "%s: bytes [%llu, %llu) (%s) lie outside the file's %zu bytes", shown,
                    (unsigned long long)ref->offset, (unsigned long long)(ref->offset + ref->length), why, len);
  }
  *v = (oc_view){(const unsigned char *)data + ref->offset, transient ? data : NULL, transient ? len : 0};
  return NULL;
}

static void view_release(oc_view *v) { hr_unmap_file(v->unmap, v->unmap_len); }

/* ---------------------------------------------------------------------------------------------- */
/* Nodes                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Decodes the node `ref` names in table `t` (a manifest's or a parent node's), which must have
 * height `height`. */
static hr_status load_node(oc_store *st, const oc_db *db, const oc_table *t, const oc_ref *ref, int height,
                           const char *why, oc_node *node) {
  const char *path = t->paths[ref->file];
  char shown[NAME_BYTES];
  snprintf(shown, sizeof shown, "%s/%s%s", st->name, db->dir, path);
  oc_view v;
  HR_TRY(view_range(st, db, path, ref, why, &v));
  hr_status s = oc_decode_node(shown, ref->offset, v.p, (size_t)ref->length, path, t->trans_len[ref->file], st->a, node);
  view_release(&v);
  if (!s && node->height != height)
    s = hr_error(HR_PARSE_ERROR, "%s: offset %llu: B+tree node: height %d where %d is expected (%s)", shown,
                 (unsigned long long)ref->offset, node->height, height, why);
  return s;
}

/* Decodes the child of interior entry `e` of `parent`; its keys must not sort before the entry's. */
static hr_status load_child(oc_store *st, const oc_db *db, const oc_node *parent, const oc_entry *e, oc_node *child) {
  HR_TRY(load_node(st, db, &parent->table, &e->ref, parent->height - 1, "a child of a B+tree node", child));
  const oc_entry *first = &child->entries[0];
  if (oc_key_cmp(first->key, first->key_len, e->key + e->subtree_prefix, e->key_len - e->subtree_prefix) < 0)
    return hr_error(HR_PARSE_ERROR, "%s/%s%s: offset %llu: B+tree node: its first key sorts before its parent's entry",
                    st->name, db->dir, parent->table.paths[e->ref.file], (unsigned long long)e->ref.offset);
  return NULL;
}

/* The index of the last entry whose key is at most key[0..n), or -1. */
static long last_at_most(const oc_node *node, const unsigned char *key, size_t n) {
  long lo = 0, hi = (long)node->n; /* the answer + 1 lies in [lo, hi] */
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (oc_key_cmp(node->entries[mid].key, node->entries[mid].key_len, key, n) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/* Finds the leaf entry of key[0..n) in `db`: *e (NULL when absent) lies in *leaf, which is the
 * root or `held` (decoded here; the caller frees it). */
static hr_status find(oc_store *st, const oc_db *db, const unsigned char *key, size_t n, oc_node *held,
                      const oc_node **leaf, const oc_entry **e) {
  *e = NULL;
  *leaf = NULL;
  if (db->m.empty) return NULL;
  const oc_node *node = &db->root;
  size_t pos = 0; /* key[0..pos) is the prefix of `node`'s keys */
  while (node->height > 0) {
    long i = last_at_most(node, key + pos, n - pos);
    if (i < 0) return NULL;
    const oc_entry *c = &node->entries[i];
    size_t skip = c->subtree_prefix;
    if (n - pos < skip || memcmp(key + pos, c->key, skip) != 0) return NULL;
    oc_node child = {0};
    hr_status s = load_child(st, db, node, c, &child);
    oc_node_free(held, st->a); /* the parent, unless it is the root */
    *held = child;
    if (s) return s;
    node = held;
    pos += skip;
  }
  long i = last_at_most(node, key + pos, n - pos);
  if (i >= 0 && oc_key_cmp(node->entries[i].key, node->entries[i].key_len, key + pos, n - pos) == 0) {
    *leaf = node;
    *e = &node->entries[i];
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Calls `fn` with the value of leaf entry `e` (of `key`) where it lies: in the leaf's body, or in
 * its mapped data file. */
static hr_status visit_value(oc_store *st, const oc_db *db, const oc_node *leaf, const oc_entry *e, const char *key,
                             size_t max_bytes, hr_kvstore_value_fn fn, void *ctx) {
  if (e->value_len > max_bytes)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: OCDBT: the value of \"%s\" (%llu bytes) exceeds the limit of %zu bytes",
                    st->name, key, (unsigned long long)e->value_len, max_bytes);
  oc_view v = {e->value, NULL, 0};
  char why[128];
  snprintf(why, sizeof why, "the value of \"%s\"", key);
  if (e->indirect) HR_TRY(view_range(st, db, leaf->table.paths[e->ref.file], &e->ref, why, &v));
  hr_status s = fn(ctx, v.p, (size_t)e->value_len);
  view_release(&v);
  return s;
}

/* kv->ops->visit: the value of `key` in the first database holding it. */
static hr_status oc_visit(hr_kvstore *kv, const char *key, size_t max_bytes, hr_kvstore_value_fn fn, void *ctx) {
  oc_store *st = (oc_store *)kv;
  for (int d = 0; d < st->n_dbs; d++) {
    oc_node held = {0};
    const oc_node *leaf;
    const oc_entry *e;
    hr_status s = find(st, &st->dbs[d], (const unsigned char *)key, strlen(key), &held, &leaf, &e);
    bool found = !s && e;
    if (found) s = visit_value(st, &st->dbs[d], leaf, e, key, max_bytes, fn, ctx);
    oc_node_free(&held, st->a);
    if (s || found) return s;
  }
  return hr_error(HR_NOT_FOUND, "%s: OCDBT: key \"%s\" not found", st->name, key);
}

/* A value copied into a buffer of the reader's allocator. */
typedef struct copy_ctx {
  const hr_allocator *a;
  const char *store;
  unsigned char *data;
  size_t len;
} copy_ctx;

static hr_status copy_out(void *ctx, const unsigned char *data, size_t len) {
  copy_ctx *c = ctx;
  c->data = c->a->alloc(c->a->ctx, len ? len : 1, 64);
  if (!c->data) return oom(c->store);
  if (len) memcpy(c->data, data, len);
  c->len = len;
  return NULL;
}

/* kv->ops->read: a copy of what visit sees. */
static hr_status oc_read(hr_kvstore *kv, const char *key, const hr_allocator *a, size_t max_bytes, unsigned char **data,
                         size_t *len) {
  copy_ctx c = {a ? a : hr_default_allocator(), kv->name, NULL, 0};
  *data = NULL;
  *len = 0;
  HR_TRY(oc_visit(kv, key, max_bytes, copy_out, &c));
  *data = c.data;
  *len = c.len;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Listing                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* An in-order walk of one database's tree for the keys beginning with `prefix`. */
typedef struct lister {
  oc_store *st;
  const oc_db *db;
  const unsigned char *prefix;
  size_t plen;
  hr_kvstore_key_fn fn;
  void *ctx;
  bool done; /* the walk has passed the keys with the prefix */
  unsigned char key[HR_LIMIT_OCDBT_KEY_BYTES + 1]; /* the current key, after its node's prefix */
} lister;

/* Writes entry `e`'s key after its node's prefix key[0..base); *n is the full key's length. */
static hr_status put_key(lister *ls, size_t base, const oc_entry *e, size_t *n) {
  *n = base;
  if (e->key_len > HR_LIMIT_OCDBT_KEY_BYTES - base)
    return hr_error(HR_PARSE_ERROR, "%s/%s: OCDBT: a key exceeds %d bytes with its nodes' prefixes", ls->st->name,
                    ls->db->dir, HR_LIMIT_OCDBT_KEY_BYTES);
  memcpy(ls->key + base, e->key, e->key_len);
  *n = base + e->key_len;
  return NULL;
}

/* Calls the listing's function for the key key[0..n) of leaf entry `e`. */
static hr_status emit(lister *ls, size_t n, const oc_entry *e) {
  if (memchr(ls->key, 0, n))
    return hr_error(HR_PARSE_ERROR, "%s/%s: OCDBT: a key holds a NUL byte", ls->st->name, ls->db->dir);
  ls->key[n] = '\0';
  return ls->fn(ls->ctx, (const char *)ls->key, (size_t)e->value_len);
}

static hr_status list_node(lister *ls, const oc_node *node, size_t base);

/* Lists the subtree of interior entry `e` of `node`, whose prefix has `base` bytes. */
static hr_status list_child(lister *ls, const oc_node *node, const oc_entry *e, size_t base) {
  oc_node child = {0};
  hr_status s = load_child(ls->st, ls->db, node, e, &child);
  if (!s) s = list_node(ls, &child, base + e->subtree_prefix);
  oc_node_free(&child, ls->st->a);
  return s;
}

/* Lists the keys of `node` (their prefix is key[0..base)) that begin with the prefix, skipping
 * the children that hold none; one level of recursion per tree level. */
static hr_status list_node(lister *ls, const oc_node *node, size_t base) {
  for (uint32_t i = 0; i < node->n && !ls->done; i++) {
    const oc_entry *e = &node->entries[i];
    size_t n;
    if (node->height > 0 && i + 1 < node->n) { /* child i's keys sort before entry i + 1's */
      HR_TRY(put_key(ls, base, e + 1, &n));
      if (oc_key_cmp(ls->key, n, ls->prefix, ls->plen) <= 0) continue;
    }
    HR_TRY(put_key(ls, base, e, &n));
    bool match = n >= ls->plen && memcmp(ls->key, ls->prefix, ls->plen) == 0;
    if (!match && oc_key_cmp(ls->key, n, ls->prefix, ls->plen) > 0) ls->done = true;
    else if (node->height > 0) HR_TRY(list_child(ls, node, e, base));
    else if (match) HR_TRY(emit(ls, n, e));
  }
  return NULL;
}

/* Lists one database's keys beginning with `prefix`. */
static hr_status list_db(oc_store *st, const oc_db *db, const char *prefix, hr_kvstore_key_fn fn, void *ctx) {
  if (db->m.empty) return NULL;
  lister *ls = st->a->alloc(st->a->ctx, sizeof *ls, 16);
  if (!ls) return oom(st->name);
  *ls = (lister){.st = st, .db = db, .prefix = (const unsigned char *)prefix, .plen = strlen(prefix), .fn = fn, .ctx = ctx};
  hr_status s = list_node(ls, &db->root, 0);
  st->a->free(st->a->ctx, ls);
  return s;
}

/* A key gathered from one of several databases, to be listed in order. */
typedef struct gathered {
  size_t at; /* the key's offset in the gathering's buffer, then... */
  const char *key; /* ...the key itself, once the buffer is complete */
  size_t value_len;
  int db;
} gathered;

typedef struct gathering {
  const oc_store *st;
  hr_strbuf keys; /* the keys, NUL-terminated, one after another */
  gathered *items;
  size_t n, cap;
  int db;
} gathering;

/* An hr_kvstore_key_fn keeping each key (within HR_LIMIT_OCDBT_LISTED_BYTES in all). */
static hr_status gather_key(void *ctx, const char *key, size_t value_len) {
  gathering *g = ctx;
  size_t klen = strlen(key) + 1;
  if (g->keys.len + klen + (g->n + 1) * sizeof *g->items > HR_LIMIT_OCDBT_LISTED_BYTES)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: OCDBT: the keys of its databases exceed %zu bytes", g->st->name,
                    HR_LIMIT_OCDBT_LISTED_BYTES);
  if (g->n == g->cap) {
    const hr_allocator *a = g->st->a;
    size_t cap = g->cap ? 2 * g->cap : 256;
    gathered *items = a->alloc(a->ctx, cap * sizeof *items, 16);
    if (!items) return oom(g->st->name);
    if (g->n) memcpy(items, g->items, g->n * sizeof *items);
    free_ptr(a, g->items);
    g->items = items;
    g->cap = cap;
  }
  g->items[g->n++] = (gathered){.at = g->keys.len, .value_len = value_len, .db = g->db};
  hr_strbuf_append(&g->keys, key, klen);
  return hr_strbuf_status(&g->keys);
}

/* Orders gathered keys by key, then by database. */
static int gathered_cmp(const void *pa, const void *pb) {
  const gathered *x = pa, *y = pb;
  int c = strcmp(x->key, y->key);
  return c ? c : (x->db > y->db) - (x->db < y->db);
}

/* Lists the keys of several databases in order, each once (with its value length in the first
 * database holding it, the one oc_read reads). */
static hr_status list_merged(oc_store *st, const char *prefix, hr_kvstore_key_fn fn, void *ctx) {
  gathering g = {.st = st};
  hr_strbuf_init(&g.keys, st->a);
  hr_status s = NULL;
  for (int d = 0; d < st->n_dbs && !s; d++) {
    g.db = d;
    s = list_db(st, &st->dbs[d], prefix, gather_key, &g);
  }
  if (!s && g.n) {
    for (size_t i = 0; i < g.n; i++) g.items[i].key = g.keys.data + g.items[i].at;
    qsort(g.items, g.n, sizeof *g.items, gathered_cmp);
  }
  for (size_t i = 0; i < g.n && !s; i++)
    if (i == 0 || strcmp(g.items[i].key, g.items[i - 1].key) != 0) s = fn(ctx, g.items[i].key, g.items[i].value_len);
  free_ptr(st->a, g.items);
  hr_strbuf_free(&g.keys);
  return s;
}

/* kv->ops->list. */
static hr_status oc_list(hr_kvstore *kv, const char *prefix, hr_kvstore_key_fn fn, void *ctx) {
  oc_store *st = (oc_store *)kv;
  return st->n_dbs == 1 ? list_db(st, &st->dbs[0], prefix, fn, ctx) : list_merged(st, prefix, fn, ctx);
}

/* ---------------------------------------------------------------------------------------------- */
/* Opening                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* kv->ops->close. */
static void oc_close(hr_kvstore *kv) {
  oc_store *st = (oc_store *)kv;
  const hr_allocator *a = st->a;
  for (int i = 0; i < st->n_mapped; i++) {
    hr_unmap_file(st->mapped[i].data, st->mapped[i].len);
    free_ptr(a, st->mapped[i].name);
  }
  for (int d = 0; d < st->n_dbs; d++) {
    oc_node_free(&st->dbs[d].root, a);
    oc_manifest_free(&st->dbs[d].m, a);
    free(st->dbs[d].real);
    free_ptr(a, st->dbs[d].dir);
  }
  free_ptr(a, st->dbs);
  free_ptr(a, st->mapped);
  free_ptr(a, st->name);
  pthread_mutex_destroy(&st->lock);
  a->free(a->ctx, st);
}

static const hr_kvstore_ops ocdbt_ops = {.read = oc_read, .visit = oc_visit, .list = oc_list, .close = oc_close};

/* Whether `dir`/`name` exists and is of type `type` (S_IFREG, S_IFDIR), links followed. */
static bool exists_as(const char *dir, const char *name, mode_t type) {
  char path[NAME_BYTES + 64];
  struct stat sb;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return stat(path, &sb) == 0 && (sb.st_mode & S_IFMT) == type;
}

/* A per-process database's directory name: "ocdbt.process_" and letters or digits. */
static bool is_process_dir(const char *name) {
  if (strncmp(name, "ocdbt.process_", 14) != 0 || !name[14]) return false;
  for (const char *c = name + 14; *c; c++)
    if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))) return false;
  return true;
}

/* `name` and a '/', in a new string. */
static char *dir_of(const hr_allocator *a, const char *name) {
  size_t n = strlen(name);
  char *d = a->alloc(a->ctx, n + 2, 1);
  if (d) {
    memcpy(d, name, n);
    memcpy(d + n, "/", 2);
  }
  return d;
}

static int str_cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Makes the store's `n` databases, in the directories dirs[0..n) ("" or "ocdbt.process_N/"),
 * each resolved inside the store's resolved root `real`. */
static hr_status make_dbs(oc_store *st, char **dirs, int n, const char *real) {
  if (!(st->dbs = st->a->alloc(st->a->ctx, (size_t)n * sizeof *st->dbs, 16))) return oom(st->name);
  memset(st->dbs, 0, (size_t)n * sizeof *st->dbs);
  for (int i = 0; i < n; i++) {
    oc_db *db = &st->dbs[st->n_dbs++]; /* counted first: oc_close frees what is filled in */
    char path[NAME_BYTES];
    if (!(db->dir = dup_str(st->a, dirs[i]))) return oom(st->name);
    snprintf(path, sizeof path, "%s/%s", st->name, db->dir);
    if (!(db->real = realpath(path, NULL))) return hr_error(HR_IO_ERROR, "%s: %s", path, strerror(errno));
    if (db->dir[0] && !inside(db->real, real))
      return hr_error(HR_PARSE_ERROR, "%s: refused: resolves to %s, outside %s", path, db->real, real);
  }
  return NULL;
}

/* The ocdbt.process_N/ directories of the root holding a manifest.ocdbt, in name order, as the
 * store's databases. */
static hr_status find_process_dbs(oc_store *st, const char *real) {
  DIR *d = opendir(st->name);
  if (!d) return hr_error(HR_IO_ERROR, "%s: %s", st->name, strerror(errno));
  char **dirs = st->a->alloc(st->a->ctx, HR_LIMIT_OCDBT_PROCESSES * sizeof *dirs, 16);
  hr_status s = dirs ? NULL : oom(st->name);
  int n = 0, seen = 0;
  for (struct dirent *e; !s && (e = readdir(d)) && seen < HR_LIMIT_DIR_ENTRIES; seen++) {
    char sub[NAME_BYTES];
    snprintf(sub, sizeof sub, "%s/%s", st->name, e->d_name);
    if (!is_process_dir(e->d_name) || !exists_as(sub, "manifest.ocdbt", S_IFREG)) continue;
    if (n == HR_LIMIT_OCDBT_PROCESSES)
      s = hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d ocdbt.process_N/ databases", st->name, HR_LIMIT_OCDBT_PROCESSES);
    else if ((dirs[n] = dir_of(st->a, e->d_name))) n++;
    else s = oom(st->name);
  }
  closedir(d);
  if (!s && n) {
    qsort(dirs, (size_t)n, sizeof *dirs, str_cmp);
    s = make_dbs(st, dirs, n, real);
  }
  for (int i = 0; i < n; i++) free_ptr(st->a, dirs[i]);
  free_ptr(st->a, dirs);
  return s;
}

/* Finds the store's databases: the root's own (manifest.ocdbt) or its ocdbt.process_N/ ones. */
static hr_status find_dbs(oc_store *st) {
  char *real = realpath(st->name, NULL);
  if (!real) return hr_error(errno == ENOENT ? HR_NOT_FOUND : HR_IO_ERROR, "%s: %s", st->name, strerror(errno));
  char *root_dir = "";
  hr_status s = NULL;
  if (!exists_as(real, ".", S_IFDIR)) s = hr_error(HR_INVALID_ARGUMENT, "%s: not a directory", st->name);
  else if (exists_as(st->name, "manifest.ocdbt", S_IFREG)) s = make_dbs(st, &root_dir, 1, real);
  else if (exists_as(st->name, "d", S_IFDIR))
    s = hr_error(HR_NOT_FOUND, "%s/manifest.ocdbt: not found, though d/ beside it holds a database's data files",
                 st->name);
  else if (!(s = find_process_dbs(st, real)) && st->n_dbs == 0)
    s = hr_error(HR_NOT_FOUND, "%s: not an OCDBT database: no manifest.ocdbt and no ocdbt.process_N/ databases", st->name);
  free(real);
  return s;
}

/* Reads and decodes the manifest file `file` of `db`. */
static hr_status read_manifest(oc_store *st, const oc_db *db, const char *file, oc_manifest *m) {
  char shown[NAME_BYTES], *real, *data;
  size_t len;
  snprintf(shown, sizeof shown, "%s/%s%s", st->name, db->dir, file);
  HR_TRY(resolve(st, db, file, shown, "the database's manifest", &real));
  hr_status s = hr_read_file(real, st->a, HR_LIMIT_OCDBT_MANIFEST_BYTES, &data, &len);
  free(real);
  HR_TRY(s);
  s = oc_decode_manifest(shown, (const unsigned char *)data, len, st->a, m);
  st->a->free(st->a->ctx, data);
  return s;
}

/* Whether `name` is a numbered manifest's: "manifest." and 16 lowercase hex digits. */
static bool is_numbered_manifest(const char *name) {
  if (strncmp(name, "manifest.", 9) != 0 || strlen(name) != 25) return false;
  for (const char *c = name + 9; *c; c++)
    if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f'))) return false;
  return true;
}

/* The name of `db`'s newest numbered manifest (the highest generation) into latest[26]. */
static hr_status latest_numbered(const oc_store *st, const oc_db *db, char *latest) {
  char dir[NAME_BYTES];
  snprintf(dir, sizeof dir, "%s/%s", st->name, db->dir);
  DIR *d = opendir(dir);
  if (!d) return hr_error(HR_IO_ERROR, "%s: %s", dir, strerror(errno));
  latest[0] = '\0';
  int seen = 0;
  for (struct dirent *e; (e = readdir(d)) && seen < HR_LIMIT_DIR_ENTRIES; seen++)
    if (is_numbered_manifest(e->d_name) && strcmp(e->d_name, latest) > 0) memcpy(latest, e->d_name, 26);
  closedir(d);
  if (!latest[0])
    return hr_error(HR_NOT_FOUND, "%smanifest.ocdbt: a numbered manifest, but no manifest.<16 hex digits> file is there", dir);
  return NULL;
}

/* Reads `db`'s latest version: its manifest and root node. */
static hr_status open_db(oc_store *st, oc_db *db) {
  HR_TRY(read_manifest(st, db, "manifest.ocdbt", &db->m));
  if (db->m.kind == OC_MANIFEST_NUMBERED) {
    char latest[26];
    HR_TRY(latest_numbered(st, db, latest));
    oc_manifest_free(&db->m, st->a);
    db->m = (oc_manifest){0};
    HR_TRY(read_manifest(st, db, latest, &db->m));
    if (db->m.kind != OC_MANIFEST_SINGLE)
      return hr_error(HR_PARSE_ERROR, "%s/%s%s: a numbered manifest holds only a configuration, not versions", st->name,
                      db->dir, latest);
  }
  if (db->m.empty) return NULL;
  return load_node(st, db, &db->m.table, &db->m.root, db->m.root_height, "the root B+tree node the manifest names",
                   &db->root);
}

hr_status hr_kvstore_open_ocdbt(const char *root, const hr_allocator *a, hr_kvstore **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  if (strlen(root) > HR_LIMIT_OCDBT_PATH_BYTES)
    return hr_error(HR_INVALID_ARGUMENT, "%.64s...: OCDBT: the path exceeds %d bytes", root, HR_LIMIT_OCDBT_PATH_BYTES);
  oc_store *st = a->alloc(a->ctx, sizeof *st, 16);
  if (!st) return oom(root);
  *st = (oc_store){.base = {.ops = &ocdbt_ops}, .a = a};
  pthread_mutex_init(&st->lock, NULL);
  st->name = dup_str(a, root);
  st->mapped = a->alloc(a->ctx, HR_LIMIT_OCDBT_MAPPED_FILES * sizeof *st->mapped, 16);
  st->base.name = st->name;
  hr_status s = !st->name || !st->mapped ? oom(root) : find_dbs(st);
  for (int d = 0; d < st->n_dbs && !s; d++) s = open_db(st, &st->dbs[d]);
  if (s) {
    oc_close(&st->base);
    return s;
  }
  *out = &st->base;
  return NULL;
}

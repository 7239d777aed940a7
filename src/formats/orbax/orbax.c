/* hr_orbax_read_dir: the arrays of an Orbax checkpoint as a weight set, named by their pytree paths
 * joined with '.' ("blocks.0.attn.key.kernel"), as Orbax names them and as hr_keypath_to_dotted
 * turns a parameter's jax.arg_info into.
 *
 * What a directory can be (../shared/research/formats.md §4):
 *  - a pytree checkpoint (StandardCheckpointer.save(dir, tree), or one item of a composite one):
 *    `_METADATA` lists the leaves (tree_metadata: key paths, value types, skip_deserialize) and
 *    the arrays are zarr arrays in an OCDBT database (`manifest.ocdbt`, or only the per-process
 *    `ocdbt.process_N/` databases of an unfinished merge) or, before OCDBT, in directories of
 *    their own. Without `_METADATA`, the arrays are found by listing the store's zarr metadata
 *    keys. The legacy aggregate form keeps a msgpack `checkpoint` file of the whole tree whose
 *    leaves are arrays or "PLACEHOLDER://name" references to zarr directories;
 *  - a composite checkpoint (CheckpointManager's step directory, Orbax v1's checkpointables): a
 *    directory of items, each a pytree checkpoint or something else (JSON metadata) that holds
 *    no arrays. Every pytree item is read, as Orbax's load_checkpointables reads every item: an
 *    item whose `_METADATA` is not a pytree's fails the whole restore. With one pytree item its
 *    leaves keep their names; with several each name starts with its item's ("params.dense.kernel");
 *  - a CheckpointManager root: numbered step directories, of which the highest is read.
 * Arrays saved by several processes are one zarr array with chunks from each: the zarr reader
 * assembles them. Every file is read through a contained key-value store (kvstore.h). */
#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/limits.h"
#include "base/mapping.h"
#include "base/weights.h"
#include "formats/orbax/kvstore.h"
#include "formats/orbax/msgpack.h"
#include "formats/orbax/zarr.h"

/* One array to restore: its store (an item's), its key prefix there and its weight name. */
typedef struct ob_leaf {
  hr_kvstore *store;
  char *key;
  char *name;
  hr_tensor *tensor; /* already read (a msgpack leaf), else NULL */
} ob_leaf;

/* A restore in progress. */
typedef struct ob_restore {
  const hr_allocator *a;
  size_t max_bytes, total; /* the bound on all arrays together, and what they take so far */
  int n_leaves, cap_leaves;
  ob_leaf *leaves;
  int n_stores;
  hr_kvstore *stores[HR_LIMIT_ORBAX_ITEMS * 2]; /* each item's metadata store and array store */
} ob_restore;

/* ---------------------------------------------------------------------------------------------- */
/* Small helpers                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "Orbax checkpoint: out of memory"); }

static char *dup_str(const hr_allocator *a, const char *s) {
  size_t n = strlen(s) + 1;
  char *d = a->alloc(a->ctx, n, 1);
  if (d) memcpy(d, s, n);
  return d;
}

/* Whether `dir`/`name` exists as a directory (is_dir) or a regular file; symbolic links are not
 * followed (the stores refuse them anyway). */
static bool has_entry(const char *dir, const char *name, bool is_dir) {
  char path[HR_LIMIT_ORBAX_PATH_BYTES];
  struct stat st;
  if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path || lstat(path, &st) != 0) return false;
  return is_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

/* Whether some entry of `dir` (among the first HR_LIMIT_ORBAX_ENTRIES, dot files left out)
 * satisfies `match`. */
static bool any_entry(const char *dir, bool (*match)(const char *dir, const char *name)) {
  DIR *d = opendir(dir);
  bool found = false;
  int seen = 0;
  for (struct dirent *e = d ? readdir(d) : NULL; e && !found && seen < HR_LIMIT_ORBAX_ENTRIES; e = readdir(d), seen++)
    found = e->d_name[0] != '.' && match(dir, e->d_name);
  if (d) closedir(d);
  return found;
}

/* A per-process OCDBT database (ocdbt.process_N/). */
static bool is_process_database(const char *dir, const char *name) {
  return strncmp(name, "ocdbt.process_", 14) == 0 && has_entry(dir, name, true);
}

/* A zarr array (a directory holding .zarray or zarr.json). */
static bool is_zarr_array(const char *dir, const char *name) {
  char sub[HR_LIMIT_ORBAX_PATH_BYTES];
  if (snprintf(sub, sizeof sub, "%s/%s", dir, name) >= (int)sizeof sub) return false;
  return has_entry(sub, ".zarray", false) || has_entry(sub, "zarr.json", false);
}

/* Keeps a store for the restore's lifetime. */
static hr_status keep_store(ob_restore *r, hr_kvstore *kv) {
  if (r->n_stores == (int)(sizeof r->stores / sizeof r->stores[0])) {
    hr_kvstore_close(kv);
    return hr_error(HR_RESOURCE_EXHAUSTED, "Orbax checkpoint: more than %d items", HR_LIMIT_ORBAX_ITEMS);
  }
  r->stores[r->n_stores++] = kv;
  return NULL;
}

/* Adds a leaf (`key` and `name` are copied; `tensor` is taken over). */
static hr_status add_leaf(ob_restore *r, hr_kvstore *store, const char *key, const char *name, hr_tensor *tensor) {
  if (r->n_leaves == r->cap_leaves) {
    if (r->n_leaves >= HR_LIMIT_ORBAX_LEAVES) {
      hr_tensor_free(tensor);
      return hr_error(HR_RESOURCE_EXHAUSTED, "Orbax checkpoint: more than %d arrays", HR_LIMIT_ORBAX_LEAVES);
    }
    int cap = r->cap_leaves ? r->cap_leaves * 2 : 64;
    ob_leaf *l = r->a->alloc(r->a->ctx, (size_t)cap * sizeof *l, _Alignof(ob_leaf));
    if (!l) {
      hr_tensor_free(tensor);
      return oom();
    }
    if (r->n_leaves) memcpy(l, r->leaves, (size_t)r->n_leaves * sizeof *l);
    if (r->leaves) r->a->free(r->a->ctx, r->leaves);
    r->leaves = l;
    r->cap_leaves = cap;
  }
  ob_leaf *leaf = &r->leaves[r->n_leaves];
  *leaf = (ob_leaf){.store = store, .key = dup_str(r->a, key), .name = dup_str(r->a, name), .tensor = tensor};
  if (!leaf->key || !leaf->name) {
    if (leaf->key) r->a->free(r->a->ctx, leaf->key);
    if (leaf->name) r->a->free(r->a->ctx, leaf->name);
    hr_tensor_free(tensor);
    return oom();
  }
  r->n_leaves++;
  return NULL;
}

/* `prefix`.`name` (just `name` without a prefix) into `out`. */
static hr_status weight_name(const char *prefix, const char *name, char *out, size_t cap) {
  int n = prefix ? snprintf(out, cap, "%s.%s", prefix, name) : snprintf(out, cap, "%s", name);
  if (n < 0 || (size_t)n >= cap)
    return hr_error(HR_RESOURCE_EXHAUSTED, "Orbax checkpoint: the array name '%s' is longer than %zu bytes", name, cap);
  return NULL;
}

/* Reads the JSON file `key` of store `kv`; *out NULL when it does not exist. */
static hr_status read_json(hr_kvstore *kv, const char *key, const hr_allocator *a, json_t **out) {
  unsigned char *data = NULL;
  size_t len = 0;
  *out = NULL;
  hr_status s = hr_kvstore_read(kv, key, a, HR_LIMIT_ORBAX_METADATA_BYTES, &data, &len);
  if (s && hr_status_code(s) == HR_NOT_FOUND) {
    hr_status_free(s);
    return NULL;
  }
  HR_TRY(s);
  json_error_t err;
  *out = json_loadb((const char *)data, len, JSON_REJECT_DUPLICATES, &err);
  a->free(a->ctx, data);
  if (!*out || !json_is_object(*out)) {
    json_decref(*out);
    *out = NULL;
    return hr_error(HR_PARSE_ERROR, "%s/%s: not a JSON object (%s)", kv->name, key, err.text);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* One pytree item                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* The param name of a tree_metadata entry: its key_metadata keys joined with '.'; *skip when
 * its value was not saved as an array here (skip_deserialize: the aggregate file holds it). */
static hr_status leaf_name(const char *where, const char *entry, json_t *v, char *out, size_t cap, bool *skip) {
  json_t *keys = json_object_get(v, "key_metadata"), *value = json_object_get(v, "value_metadata");
  const char *type = json_string_value(json_object_get(value, "value_type"));
  /* strings and the like are not arrays (Orbax keeps them in a JSON file of their own) */
  *skip = json_is_true(json_object_get(value, "skip_deserialize")) ||
          (type && strcmp(type, "jax.Array") != 0 && strcmp(type, "np.ndarray") != 0 && strcmp(type, "scalar") != 0);
  if (!json_is_array(keys) || json_array_size(keys) == 0 || json_array_size(keys) > HR_LIMIT_ORBAX_TREE_DEPTH)
    return hr_error(HR_PARSE_ERROR, "%s: tree_metadata entry %s: key_metadata is not a list of 1 to %d keys", where,
                    entry, HR_LIMIT_ORBAX_TREE_DEPTH);
  size_t n = 0;
  for (size_t i = 0; i < json_array_size(keys); i++) {
    json_t *k = json_object_get(json_array_get(keys, i), "key");
    char num[24];
    const char *text = json_is_string(k) ? json_string_value(k) : NULL;
    if (json_is_integer(k)) snprintf(num, sizeof num, "%lld", (long long)json_integer_value(k)), text = num;
    if (!text || !*text)
      return hr_error(HR_PARSE_ERROR, "%s: tree_metadata entry %s: key %zu is not a string or an integer", where, entry, i);
    size_t len = strlen(text);
    if (n + len + 2 > cap)
      return hr_error(HR_RESOURCE_EXHAUSTED, "%s: tree_metadata entry %s: the name is longer than %zu bytes", where, entry, cap);
    if (n) out[n++] = '.';
    memcpy(out + n, text, len);
    n += len;
  }
  out[n] = '\0';
  return NULL;
}

/* The leaves `_METADATA` lists. */
static hr_status leaves_from_metadata(ob_restore *r, hr_kvstore *meta, json_t *m, hr_kvstore *arrays,
                                      const char *prefix) {
  json_t *tree = json_object_get(m, "tree_metadata");
  if (!json_is_object(tree))
    return hr_error(HR_PARSE_ERROR, "%s/_METADATA: no tree_metadata object: not a pytree checkpoint's metadata",
                    meta->name);
  const char *entry;
  json_t *v;
  json_object_foreach(tree, entry, v) {
    char name[HR_LIMIT_WEIGHT_NAME_BYTES], full[HR_LIMIT_WEIGHT_NAME_BYTES];
    bool skip;
    char where[HR_LIMIT_ORBAX_PATH_BYTES + 16];
    snprintf(where, sizeof where, "%s/_METADATA", meta->name);
    HR_TRY(leaf_name(where, entry, v, name, sizeof name, &skip));
    if (skip) continue;
    HR_TRY(weight_name(prefix, name, full, sizeof full));
    HR_TRY(add_leaf(r, arrays, name, full, NULL));
  }
  return NULL;
}

/* Collects the arrays of a store by their zarr metadata keys ("a/.zarray", "b.c/zarr.json"). */
typedef struct ob_listing {
  ob_restore *r;
  hr_kvstore *arrays;
  const char *prefix;
} ob_listing;

static hr_status list_array(void *ctx, const char *key, size_t value_len) {
  (void)value_len;
  ob_listing *l = ctx;
  const char *slash = strrchr(key, '/');
  if (!slash || slash == key || (strcmp(slash, "/.zarray") != 0 && strcmp(slash, "/zarr.json") != 0)) return NULL;
  char name[HR_LIMIT_WEIGHT_NAME_BYTES], full[HR_LIMIT_WEIGHT_NAME_BYTES];
  size_t n = (size_t)(slash - key);
  if (n >= sizeof name)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the array name '%.40s...' is too long", l->arrays->name, key);
  memcpy(name, key, n);
  name[n] = '\0';
  if (strchr(name, '/')) return NULL; /* a zarr group's member, not an Orbax leaf */
  HR_TRY(weight_name(l->prefix, name, full, sizeof full));
  return add_leaf(l->r, l->arrays, name, full, NULL);
}

/* The leaves of a legacy msgpack `checkpoint` file: inline arrays, and placeholders naming zarr
 * arrays of the item's store. */
typedef struct ob_msgpack {
  ob_restore *r;
  hr_kvstore *arrays;
  const char *prefix;
} ob_msgpack;

static hr_status msgpack_leaf(void *ctx, const char *path, hr_tensor *tensor, const char *placeholder) {
  ob_msgpack *m = ctx;
  char full[HR_LIMIT_WEIGHT_NAME_BYTES];
  hr_status s = weight_name(m->prefix, path, full, sizeof full);
  if (s) {
    hr_tensor_free(tensor);
    return s;
  }
  if (tensor) {
    if (tensor->nbytes > m->r->max_bytes - m->r->total) {
      hr_tensor_free(tensor);
      return hr_error(HR_RESOURCE_EXHAUSTED, "Orbax checkpoint: the arrays exceed %zu bytes", m->r->max_bytes);
    }
    m->r->total += tensor->nbytes;
    return add_leaf(m->r, NULL, path, full, tensor);
  }
  return add_leaf(m->r, m->arrays, placeholder, full, NULL);
}

static hr_status read_msgpack(ob_restore *r, hr_kvstore *meta, hr_kvstore *arrays, const char *prefix) {
  unsigned char *data = NULL;
  size_t len = 0;
  HR_TRY(hr_kvstore_read(meta, "checkpoint", r->a, HR_LIMIT_ORBAX_MSGPACK_BYTES, &data, &len));
  char name[HR_LIMIT_ORBAX_PATH_BYTES + 16];
  snprintf(name, sizeof name, "%s/checkpoint", meta->name);
  ob_msgpack ctx = {r, arrays, prefix};
  hr_status s = hr_msgpack_read_checkpoint(name, data, len, r->a, r->max_bytes, msgpack_leaf, &ctx);
  r->a->free(r->a->ctx, data);
  return s;
}

/* Whether `dir` holds a pytree checkpoint: its metadata, an OCDBT database, a msgpack file or
 * zarr arrays (a pytree saved without OCDBT by an Orbax that wrote no _METADATA). */
static bool is_pytree_dir(const char *dir) {
  return has_entry(dir, "_METADATA", false) || has_entry(dir, "manifest.ocdbt", false) ||
         has_entry(dir, "checkpoint", false) || any_entry(dir, is_process_database) || any_entry(dir, is_zarr_array);
}

/* Lists the leaves of the pytree checkpoint in `dir` (weight names under `prefix`, NULL: none). */
static hr_status read_pytree(ob_restore *r, const char *dir, const char *prefix) {
  hr_kvstore *meta = NULL, *arrays = NULL;
  HR_TRY(hr_kvstore_open_dir(dir, r->a, &meta));
  HR_TRY(keep_store(r, meta));
  bool ocdbt = has_entry(dir, "manifest.ocdbt", false) || any_entry(dir, is_process_database);
  if (ocdbt) {
    HR_TRY(hr_kvstore_open_ocdbt(dir, r->a, &arrays));
    HR_TRY(keep_store(r, arrays));
  } else {
    arrays = meta;
  }
  json_t *m = NULL;
  HR_TRY(read_json(meta, "_METADATA", r->a, &m));
  hr_status s = NULL;
  if (has_entry(dir, "checkpoint", false)) s = read_msgpack(r, meta, arrays, prefix);
  else if (m) s = leaves_from_metadata(r, meta, m, arrays, prefix);
  else {
    ob_listing l = {r, arrays, prefix};
    s = hr_kvstore_list(arrays, "", list_array, &l);
  }
  json_decref(m);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Composite checkpoints and step directories                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* The sorted names of the subdirectories of `dir` (symbolic links left out); *n of them. */
static hr_status subdirs(const char *dir, const hr_allocator *a, char ***out, int *n) {
  *out = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return hr_error(HR_NOT_FOUND, "%s: not a directory", dir);
  char **names = a->alloc(a->ctx, HR_LIMIT_ORBAX_ENTRIES * sizeof *names, _Alignof(char *));
  hr_status s = names ? NULL : oom();
  for (struct dirent *e = readdir(d); !s && e; e = readdir(d)) {
    if (e->d_name[0] == '.' || !has_entry(dir, e->d_name, true)) continue;
    if (*n == HR_LIMIT_ORBAX_ENTRIES) s = hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d subdirectories", dir, HR_LIMIT_ORBAX_ENTRIES);
    else if (!(names[*n] = dup_str(a, e->d_name))) s = oom();
    else (*n)++;
  }
  closedir(d);
  for (int i = 1; i < *n; i++) /* insertion sort: few entries */
    for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char *t = names[j];
      names[j] = names[j - 1];
      names[j - 1] = t;
    }
  *out = names;
  return s;
}

static void free_names(const hr_allocator *a, char **names, int n) {
  for (int i = 0; i < n; i++) a->free(a->ctx, names[i]);
  if (names) a->free(a->ctx, names);
}

/* Whether `name` is a CheckpointManager step ("0", "1200"). */
static bool is_step(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n > 18) return false;
  for (size_t i = 0; i < n; i++)
    if (!isdigit((unsigned char)name[i])) return false;
  return true;
}

static hr_status read_checkpoint(ob_restore *r, const char *dir, int depth);

/* A directory of items (or of steps): every pytree item read, or the highest step. */
static hr_status read_composite(ob_restore *r, const char *dir, int depth) {
  char **names;
  int n;
  HR_TRY(subdirs(dir, r->a, &names, &n));
  char path[HR_LIMIT_ORBAX_PATH_BYTES];
  int items = 0, last_step = -1;
  for (int i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    items += is_pytree_dir(path);
    if (is_step(names[i]) && (last_step < 0 || atoll(names[i]) > atoll(names[last_step]))) last_step = i;
  }
  hr_status s = NULL;
  if (items == 0 && last_step >= 0) {
    snprintf(path, sizeof path, "%s/%s", dir, names[last_step]);
    s = read_checkpoint(r, path, depth + 1);
  }
  for (int i = 0; !s && items && i < n; i++) {
    if (snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= (int)sizeof path)
      s = hr_error(HR_RESOURCE_EXHAUSTED, "%s/%s: the path is longer than %zu bytes", dir, names[i], sizeof path);
    else if (is_pytree_dir(path)) s = read_pytree(r, path, items > 1 ? names[i] : NULL);
  }
  if (!s && items == 0 && last_step < 0 && !has_entry(dir, "_CHECKPOINT_METADATA", false))
    s = hr_error(HR_NOT_FOUND, "%s: not an Orbax checkpoint (no _METADATA, manifest.ocdbt, checkpoint file, "
                 "_CHECKPOINT_METADATA, item or step directories)", dir);
  free_names(r->a, names, n);
  return s;
}

static hr_status read_checkpoint(ob_restore *r, const char *dir, int depth) {
  if (depth > 2) return hr_error(HR_NOT_FOUND, "%s: no checkpoint within two directory levels", dir);
  return is_pytree_dir(dir) ? read_pytree(r, dir, NULL) : read_composite(r, dir, depth);
}

/* ---------------------------------------------------------------------------------------------- */
/* Restoring                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* The zarr arrays of a restore are decoded into one block of fresh memory (the weight set's
 * backing store), each at a 64-byte aligned offset: one mapping whose pages fault in 2 MiB at a
 * time and need no zeroing, instead of a zeroed allocation per array. */
enum { BLOCK_ALIGN = 64 };

/* The type, shape and block offset of each zarr leaf (msgpack leaves are read already), and the
 * block's size, within the restore's bound. */
static hr_status plan_block(ob_restore *r, hr_tensor *slots, size_t *block_bytes) {
  size_t end = 0;
  for (int i = 0; i < r->n_leaves; i++) {
    const ob_leaf *l = &r->leaves[i];
    if (l->tensor) continue;
    hr_tensor *t = &slots[i];
    hr_status s = hr_zarr_read_info(l->store, l->key, &t->dtype, &t->shape);
    int64_t n = 0;
    if (!s) s = hr_shape_num_elements(&t->shape, &n);
    if (s) return hr_status_wrap(s, "array '%s'", l->name);
    size_t es = hr_dtype_size(t->dtype), start = (end + BLOCK_ALIGN - 1) / BLOCK_ALIGN * BLOCK_ALIGN;
    if ((uint64_t)n > (r->max_bytes - r->total) / es || start > r->max_bytes - r->total - (size_t)n * es)
      return hr_error(HR_RESOURCE_EXHAUSTED, "Orbax checkpoint: the arrays exceed %zu bytes (at array '%s')",
                      r->max_bytes, l->name);
    t->nbytes = (size_t)n * es;
    t->data = (void *)start; /* an offset until the block exists */
    end = start + t->nbytes;
  }
  *block_bytes = end;
  return NULL;
}

/* Reads every leaf not read yet and moves all into a new weight set. */
static hr_status restore_leaves(ob_restore *r, hr_weights **out) {
  hr_tensor *slots = r->a->alloc(r->a->ctx, (size_t)(r->n_leaves ? r->n_leaves : 1) * sizeof *slots, _Alignof(hr_tensor));
  if (!slots) return oom();
  memset(slots, 0, (size_t)(r->n_leaves ? r->n_leaves : 1) * sizeof *slots);
  size_t bytes = 0;
  void *block = NULL;
  hr_status s = plan_block(r, slots, &bytes);
  if (!s && bytes) s = hr_map_anonymous(bytes, &block);
  if (!s) s = hr_weights_create(r->a, r->n_leaves, block, bytes, block ? hr_unmap_file : NULL, out);
  if (s && block) hr_unmap_file(block, bytes);
  for (int i = 0; !s && i < r->n_leaves; i++) {
    ob_leaf *l = &r->leaves[i];
    if (l->tensor) {
      hr_tensor *t = l->tensor;
      l->tensor = NULL;
      s = hr_weights_add_tensor(*out, l->name, t);
      continue;
    }
    hr_tensor *t = &slots[i];
    t->data = (char *)block + (size_t)t->data;
    s = hr_zarr_read_into(l->store, l->key, r->a, t->data, t->nbytes, true);
    if (s) s = hr_status_wrap(s, "array '%s'", l->name);
    else s = hr_weights_add(*out, l->name, t->dtype, &t->shape, t->data, t->nbytes);
  }
  r->a->free(r->a->ctx, slots);
  return s;
}

static void restore_free(ob_restore *r) {
  for (int i = 0; i < r->n_leaves; i++) {
    r->a->free(r->a->ctx, r->leaves[i].key);
    r->a->free(r->a->ctx, r->leaves[i].name);
    hr_tensor_free(r->leaves[i].tensor);
  }
  if (r->leaves) r->a->free(r->a->ctx, r->leaves);
  for (int i = r->n_stores; i-- > 0;) hr_kvstore_close(r->stores[i]);
}

hr_status hr_orbax_read_dir(const char *dir, const hr_allocator *a, size_t max_bytes, hr_weights **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_orbax_read_dir: `out` is NULL");
  *out = NULL;
  if (!dir) return hr_error(HR_INVALID_ARGUMENT, "hr_orbax_read_dir: `dir` is NULL");
  ob_restore r = {.a = a ? a : hr_default_allocator(), .max_bytes = max_bytes ? max_bytes : HR_LIMIT_ORBAX_BYTES};
  hr_status s = read_checkpoint(&r, dir, 0);
  if (!s) s = restore_leaves(&r, out);
  if (s) {
    hr_weights_free(*out);
    *out = NULL;
  }
  restore_free(&r);
  return s;
}

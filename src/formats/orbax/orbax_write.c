/* hr_orbax_write_dir: a weight set saved as orbax-checkpoint's StandardCheckpointer saves a pytree
 * of arrays (a direct checkpoint; the layout of ../shared/real/orbax's v0 direct checkpoints):
 *   _CHECKPOINT_METADATA   the StandardCheckpointHandler, timestamps
 *   _METADATA              tree_metadata: each leaf's key path (its name split at '.'; all-digit
 *                          keys are sequence indices, as a list's are), jax.Array, write_shape
 *   array_metadatas/process_0   each array's write and chunk shapes
 *   manifest.ocdbt, d/...  one OCDBT database whose keys are zarr v2 arrays: NAME/.zarray and
 *                          NAME/0.0... (one zstd chunk holding the whole array)
 * The names are the dotted paths hr_orbax_read_dir gives back, so a save and a restore round-trip.
 * The directory must not exist yet: it is written under a temporary name and renamed when whole. */
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/file.h"
#include "base/limits.h"
#include "base/strbuf.h"
#include "formats/orbax/ocdbt.h"
#include "formats/orbax/zarr.h"

/* zstd level of the chunks: tensorstore's default for Orbax's zstd compressor. */
enum { CHUNK_ZSTD_LEVEL = 1 };

/* The encoded arrays: two OCDBT entries each (metadata and chunk) and the buffers behind them. */
typedef struct ow_arrays {
  const hr_allocator *a;
  int n;
  hr_ocdbt_entry *entries; /* 2 n */
  char **keys;             /* 2 n, owned */
  char **zarrays;          /* n, owned (the .zarray texts) */
  unsigned char **chunks;  /* n, owned */
} ow_arrays;

static void arrays_free(ow_arrays *w) {
  const hr_allocator *a = w->a;
  for (int i = 0; i < w->n; i++) {
    if (w->keys) a->free(a->ctx, w->keys[2 * i]), a->free(a->ctx, w->keys[2 * i + 1]);
    if (w->zarrays && w->zarrays[i]) a->free(a->ctx, w->zarrays[i]);
    if (w->chunks && w->chunks[i]) a->free(a->ctx, w->chunks[i]);
  }
  void *arrays[] = {w->entries, w->keys, w->zarrays, w->chunks};
  for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
    if (arrays[i]) a->free(a->ctx, arrays[i]);
}

/* The store key "`name`/`leaf`" (heap). */
static char *array_key(const hr_allocator *a, const char *name, const char *leaf) {
  size_t n = strlen(name) + 1 + strlen(leaf) + 1;
  char *out = a->alloc(a->ctx, n, 1);
  if (out) snprintf(out, n, "%s/%s", name, leaf);
  return out;
}

/* The zarr v2 chunk key of a whole-array chunk: "0" per dimension, joined by '.' ("0" for rank 0). */
static void whole_chunk_key(int rank, char *out, size_t cap) {
  size_t n = 0;
  for (int i = 0; i < (rank ? rank : 1) && n + 3 <= cap; i++) {
    if (i) out[n++] = '.';
    out[n++] = '0';
  }
  out[n] = '\0';
}

/* Encodes every tensor of `w` as a zarr v2 array: the OCDBT entries to write. */
static hr_status encode_arrays(const hr_weights *w, ow_arrays *out) {
  const hr_allocator *a = out->a;
  int n = hr_weights_count(w);
  size_t k = (size_t)(n ? n : 1);
  out->entries = a->alloc(a->ctx, 2 * k * sizeof *out->entries, _Alignof(hr_ocdbt_entry));
  out->keys = a->alloc(a->ctx, 2 * k * sizeof *out->keys, _Alignof(char *));
  out->zarrays = a->alloc(a->ctx, k * sizeof *out->zarrays, _Alignof(char *));
  out->chunks = a->alloc(a->ctx, k * sizeof *out->chunks, _Alignof(unsigned char *));
  if (!out->entries || !out->keys || !out->zarrays || !out->chunks) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < n; i++) {
    const char *name = hr_weights_name(w, i);
    const hr_tensor *t = hr_weights_tensor(w, i);
    size_t chunk_len = 0;
    out->zarrays[i] = NULL;
    out->chunks[i] = NULL;
    out->keys[2 * i] = out->keys[2 * i + 1] = NULL;
    out->n = i + 1; /* freed from here on */
    HR_TRY(hr_zarr_encode_v2(t, CHUNK_ZSTD_LEVEL, &out->zarrays[i], &out->chunks[i], &chunk_len, a));
    char chunk_key[2 * HR_MAX_RANK + 2];
    whole_chunk_key(t->shape.rank, chunk_key, sizeof chunk_key);
    out->keys[2 * i] = array_key(a, name, ".zarray");
    out->keys[2 * i + 1] = array_key(a, name, chunk_key);
    if (!out->keys[2 * i] || !out->keys[2 * i + 1]) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
    out->entries[2 * i] = (hr_ocdbt_entry){out->keys[2 * i], out->zarrays[i], strlen(out->zarrays[i])};
    out->entries[2 * i + 1] = (hr_ocdbt_entry){out->keys[2 * i + 1], out->chunks[i], chunk_len};
  }
  return NULL;
}

/* A JSON list of a tensor's dimensions. */
static json_t *shape_json(const hr_tensor *t) {
  json_t *dims = json_array();
  for (int d = 0; dims && d < t->shape.rank; d++) json_array_append_new(dims, json_integer(t->shape.dims[d]));
  return dims;
}

/* The key path of a dotted name, as _METADATA's key_metadata lists it. */
static json_t *key_metadata(const char *name) {
  json_t *keys = json_array();
  for (const char *p = name; keys && *p;) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    bool digits = len > 0 && strspn(p, "0123456789") >= len;
    json_array_append_new(keys, json_pack("{s:s%, s:i}", "key", p, len, "key_type", digits ? 1 : 2));
    p += len + (dot != NULL);
  }
  return keys;
}

/* The Python tuple text Orbax keys a leaf's tree_metadata entry by (str of the key tuple):
 * "('blocks', '0', 'w')", "('a',)"; quotes and backslashes in a key escaped. */
static json_t *tuple_text(const char *name) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_strbuf_putc(&sb, '(');
  size_t parts = 0;
  for (const char *p = name; *p; parts++) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    hr_strbuf_puts(&sb, parts ? ", '" : "'");
    for (size_t i = 0; i < len; i++) {
      if (p[i] == '\'' || p[i] == '\\') hr_strbuf_putc(&sb, '\\');
      hr_strbuf_putc(&sb, p[i]);
    }
    hr_strbuf_putc(&sb, '\'');
    p += len + (dot != NULL);
  }
  hr_strbuf_puts(&sb, parts == 1 ? ",)" : ")");
  json_t *out = hr_strbuf_status(&sb) ? NULL : json_stringn(sb.data, sb.len);
  hr_strbuf_free(&sb);
  return out;
}

/* Writes a JSON document to `dir`/`name`. */
static hr_status write_json(const char *dir, const char *name, json_t *doc) {
  char path[HR_LIMIT_ORBAX_PATH_BYTES];
  if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the path is too long", dir);
  char *text = doc ? json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  json_decref(doc);
  if (!text) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", path);
  hr_status s = hr_write_file(path, text, strlen(text));
  free(text);
  return s;
}

/* _METADATA, array_metadatas/process_0 and _CHECKPOINT_METADATA. */
static hr_status write_metadata(const hr_weights *w, const char *dir) {
  json_t *tree = json_object(), *arrays = json_array();
  for (int i = 0; tree && arrays && i < hr_weights_count(w); i++) {
    const char *name = hr_weights_name(w, i);
    const hr_tensor *t = hr_weights_tensor(w, i);
    json_t *key = tuple_text(name);
    if (!key) break;
    json_object_set_new(tree, json_string_value(key),
                        json_pack("{s:o, s:{s:s, s:b, s:o}}", "key_metadata", key_metadata(name), "value_metadata",
                                  "value_type", "jax.Array", "skip_deserialize", 0, "write_shape", shape_json(t)));
    json_decref(key);
    json_array_append_new(arrays, json_pack("{s:{s:s, s:o, s:o, s:n}}", "array_metadata", "param_name", name,
                                            "write_shape", shape_json(t), "chunk_shape", shape_json(t), "ext_metadata"));
  }
  json_t *meta = json_pack("{s:o, s:b, s:b, s:b, s:n}", "tree_metadata", tree, "use_ocdbt", 1, "use_zarr3", 0,
                           "store_array_data_equal_to_fill_value", 1, "custom_metadata");
  HR_TRY(write_json(dir, "_METADATA", meta));
  char sub[HR_LIMIT_ORBAX_PATH_BYTES];
  if (snprintf(sub, sizeof sub, "%s/array_metadatas", dir) >= (int)sizeof sub || mkdir(sub, 0755) != 0) {
    json_decref(arrays);
    return hr_error(HR_IO_ERROR, "%s: %s", sub, strerror(errno));
  }
  HR_TRY(write_json(sub, "process_0", json_pack("{s:o}", "array_metadatas", arrays)));
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  json_int_t now = (json_int_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  return write_json(dir, "_CHECKPOINT_METADATA",
                    json_pack("{s:s, s:{}, s:{}, s:I, s:I, s:{}}", "item_handlers",
                              "orbax.checkpoint._src.handlers.standard_checkpoint_handler.StandardCheckpointHandler",
                              "metrics", "performance_metrics", "init_timestamp_nsecs", now, "commit_timestamp_nsecs",
                              now, "custom_metadata"));
}

/* Removes one entry of a tree being deleted (nftw, deepest first). */
static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

hr_status hr_orbax_write_dir(const hr_weights *w, const char *dir) {
  if (!w || !dir) return hr_error(HR_INVALID_ARGUMENT, "hr_orbax_write_dir: NULL argument");
  struct stat st;
  if (lstat(dir, &st) == 0) return hr_error(HR_INVALID_ARGUMENT, "%s: already exists", dir);
  /* Written under a temporary name and renamed when complete, as Orbax does: a reader never sees
   * half a checkpoint, and a failure leaves nothing behind. */
  char tmp[HR_LIMIT_ORBAX_PATH_BYTES];
  if (snprintf(tmp, sizeof tmp, "%s.orbax-checkpoint-tmp-%ld", dir, (long)getpid()) >= (int)sizeof tmp)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the path is too long", dir);
  if (mkdir(tmp, 0755) != 0) return hr_error(HR_IO_ERROR, "%s: cannot create a directory: %s", tmp, strerror(errno));
  ow_arrays arrays = {.a = hr_default_allocator()};
  hr_status s = write_metadata(w, tmp);
  if (!s) s = encode_arrays(w, &arrays);
  if (!s) s = hr_ocdbt_write(tmp, arrays.entries, 2 * arrays.n, NULL);
  arrays_free(&arrays);
  if (!s && rename(tmp, dir) != 0) s = hr_error(HR_IO_ERROR, "%s: %s", dir, strerror(errno));
  if (s) nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  return s ? hr_status_wrap(s, "%s: writing an Orbax checkpoint", dir) : NULL;
}

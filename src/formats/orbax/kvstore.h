/* Key-value stores, the storage under an Orbax checkpoint: a plain directory (each key a file
 * below a root) or an OCDBT database (tensorstore's B+tree over data files). Keys are relative
 * '/'-separated paths ("params.dense.kernel/.zarray", "a/0"). The zarr and Orbax readers read
 * arrays through this interface and do not know which store holds them. */
#ifndef HLORUN_FORMATS_ORBAX_KVSTORE_H
#define HLORUN_FORMATS_ORBAX_KVSTORE_H

#include <stddef.h>

#include "hlorun/hlorun.h"

typedef struct hr_kvstore hr_kvstore;

/* Called for each key `hr_kvstore_list` finds; `value_len` is the stored value's size in bytes.
 * A non-NULL status stops the listing and is returned from it. */
typedef hr_status (*hr_kvstore_key_fn)(void *ctx, const char *key, size_t value_len);

/* Called with the bytes of a value, which stay valid only during the call. A non-NULL status is
 * returned from hr_kvstore_visit. */
typedef hr_status (*hr_kvstore_value_fn)(void *ctx, const unsigned char *data, size_t len);

typedef struct hr_kvstore_ops {
  /* Reads the value of `key` into a buffer allocated with `a` (never NULL on success, even for an
   * empty value; the caller frees it). HR_NOT_FOUND when the key does not exist; a value above
   * `max_bytes` is refused with HR_RESOURCE_EXHAUSTED before anything is allocated. */
  hr_status (*read)(hr_kvstore *kv, const char *key, const hr_allocator *a, size_t max_bytes, unsigned char **data,
                    size_t *len);
  /* Optional: calls `fn` with the value of `key` where the store holds it (a mapped data file, a
   * decoded node), copying nothing; errors as read's. NULL: hr_kvstore_visit reads a copy. */
  hr_status (*visit)(hr_kvstore *kv, const char *key, size_t max_bytes, hr_kvstore_value_fn fn, void *ctx);
  /* Calls `fn` for every key that begins with `prefix` ("" for all), in ascending byte order. */
  hr_status (*list)(hr_kvstore *kv, const char *prefix, hr_kvstore_key_fn fn, void *ctx);
  void (*close)(hr_kvstore *kv);
} hr_kvstore_ops;

/* The common head of every store. `name` (the root directory) prefixes every error message. */
struct hr_kvstore {
  const hr_kvstore_ops *ops;
  const char *name;
};

/* A directory as a store: key "a/0" is the file `root`/a/0. Keys with "..", "." or empty
 * components, absolute keys, and paths that leave `root` through a symbolic link are refused. */
hr_status hr_kvstore_open_dir(const char *root, const hr_allocator *a, hr_kvstore **out);
/* The OCDBT database whose manifest.ocdbt is in `root` (the latest version). Where `root` has no
 * manifest.ocdbt but ocdbt.process_N/ databases (an unmerged multi-process save), their keys
 * are read together. */
hr_status hr_kvstore_open_ocdbt(const char *root, const hr_allocator *a, hr_kvstore **out);

static inline hr_status hr_kvstore_read(hr_kvstore *kv, const char *key, const hr_allocator *a, size_t max_bytes,
                                        unsigned char **data, size_t *len) {
  return kv->ops->read(kv, key, a, max_bytes, data, len);
}
/* Calls `fn` with the value of `key` (without a copy where the store allows). */
static inline hr_status hr_kvstore_visit(hr_kvstore *kv, const char *key, size_t max_bytes, hr_kvstore_value_fn fn,
                                         void *ctx) {
  if (kv->ops->visit) return kv->ops->visit(kv, key, max_bytes, fn, ctx);
  const hr_allocator *a = hr_default_allocator();
  unsigned char *data;
  size_t len;
  HR_TRY(kv->ops->read(kv, key, a, max_bytes, &data, &len));
  hr_status s = fn(ctx, data, len);
  a->free(a->ctx, data);
  return s;
}
static inline hr_status hr_kvstore_list(hr_kvstore *kv, const char *prefix, hr_kvstore_key_fn fn, void *ctx) {
  return kv->ops->list(kv, prefix, fn, ctx);
}
static inline void hr_kvstore_close(hr_kvstore *kv) {
  if (kv) kv->ops->close(kv);
}

#endif

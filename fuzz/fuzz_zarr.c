/* libFuzzer target for the zarr reader (metadata parsing and chunk decoding). The input is an
 * array's metadata and its chunks, served by an in-memory key-value store:
 *   byte 0       '2': the metadata is array "a"'s .zarray; anything else: its zarr.json
 *   then         the metadata text, up to the first "\nZARR-CHUNK " (or the end)
 *   then, each   "\nZARR-CHUNK " KEY "\n" VALUE: the value of key "a/KEY" ("0.1", "c/0/1"), up to
 *                the next marker or the end
 * (the seeds in fuzz/corpus_zarr/ are real and test arrays in this form). The array must read,
 * within a small size bound, or fail cleanly; a tensor read must have its shape's size and bool
 * elements of 0 or 1. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats/orbax/kvstore.h"
#include "formats/orbax/zarr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MARKER "\nZARR-CHUNK "
enum { MAX_KEYS = 64, KEY_BYTES = 128 };

/* The keys and values of one input; values point into it. */
typedef struct fz_store {
  hr_kvstore base;
  int n;
  char keys[MAX_KEYS][KEY_BYTES];
  const uint8_t *values[MAX_KEYS];
  size_t lens[MAX_KEYS];
} fz_store;

static hr_status fz_read(hr_kvstore *kv, const char *key, const hr_allocator *a, size_t max_bytes, unsigned char **data,
                         size_t *len) {
  fz_store *st = (fz_store *)kv;
  for (int i = st->n - 1; i >= 0; i--) { /* the last of equal keys wins */
    if (strcmp(st->keys[i], key) != 0) continue;
    if (st->lens[i] > max_bytes)
      return hr_error(HR_RESOURCE_EXHAUSTED, "%s: %zu bytes exceed the limit", key, st->lens[i]);
    *data = a->alloc(a->ctx, st->lens[i] ? st->lens[i] : 1, 16);
    if (!*data) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
    if (st->lens[i]) memcpy(*data, st->values[i], st->lens[i]);
    *len = st->lens[i];
    return NULL;
  }
  return hr_error(HR_NOT_FOUND, "%s: not found", key);
}

static hr_status fz_list(hr_kvstore *kv, const char *prefix, hr_kvstore_key_fn fn, void *ctx) {
  (void)kv, (void)prefix, (void)fn, (void)ctx;
  return NULL; /* the zarr reader never lists */
}

static void fz_close(hr_kvstore *kv) { (void)kv; }

static const hr_kvstore_ops fz_ops = {.read = fz_read, .list = fz_list, .close = fz_close};

/* Adds key "a/`key`" (klen bytes) with value v[0..n). */
static void add(fz_store *st, const char *key, size_t klen, const uint8_t *v, size_t n) {
  if (st->n == MAX_KEYS || klen + 3 > KEY_BYTES) return;
  snprintf(st->keys[st->n], KEY_BYTES, "a/%.*s", (int)klen, key);
  st->values[st->n] = v;
  st->lens[st->n++] = n;
}

/* Splits the input into the store's keys. */
static void split(fz_store *st, const uint8_t *data, size_t size) {
  const size_t mlen = strlen(MARKER);
  const uint8_t *end = data + size, *p = data + 1;
  const uint8_t *mark = memmem(p, (size_t)(end - p), MARKER, mlen);
  const char *meta = data[0] == '2' ? ".zarray" : "zarr.json";
  add(st, meta, strlen(meta), p, (size_t)((mark ? mark : end) - p));
  while (mark) {
    const uint8_t *key = mark + mlen, *nl = memchr(key, '\n', (size_t)(end - key));
    if (!nl) return;
    const uint8_t *value = nl + 1;
    mark = memmem(value, (size_t)(end - value), MARKER, mlen);
    add(st, (const char *)key, (size_t)(nl - key), value, (size_t)((mark ? mark : end) - value));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  static fz_store st; /* 8 KiB of keys: kept off the stack */
  st = (fz_store){.base = {&fz_ops, "fuzz"}};
  split(&st, data, size);
  hr_dtype dtype;
  hr_shape shape;
  hr_status_free(hr_zarr_read_info(&st.base, "a", &dtype, &shape));
  hr_tensor *t = NULL;
  hr_status s = hr_zarr_read_array(&st.base, "a", NULL, (size_t)1 << 18, &t);
  if (t) {
    int64_t n = hr_tensor_num_elements(t);
    if (t->nbytes != (size_t)n * hr_dtype_size(t->dtype)) __builtin_trap();
    for (int64_t i = 0; t->dtype == HR_I1 && i < n; i++)
      if (((const unsigned char *)t->data)[i] > 1) __builtin_trap();
  }
  hr_tensor_free(t);
  hr_status_free(s);
  return 0;
}

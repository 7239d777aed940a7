#include "base/weights.h"

#include <stdatomic.h>
#include <string.h>

struct hr_weights {
  const hr_allocator *allocator;
  atomic_int refs;
  int n, capacity;
  char **names;
  hr_tensor *tensors; /* views into the backing store, or owning their data (allocator set) */
  void *backing;
  size_t backing_len;
  hr_backing_release_fn release;
};

hr_status hr_weights_create(const hr_allocator *a, int capacity, void *backing, size_t backing_len,
                            hr_backing_release_fn release, hr_weights **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  hr_weights *w = a->alloc(a->ctx, sizeof *w, _Alignof(hr_weights));
  size_t cap = capacity > 0 ? (size_t)capacity : 1;
  char **names = w ? a->alloc(a->ctx, cap * sizeof *names, 16) : NULL;
  hr_tensor *tensors = names ? a->alloc(a->ctx, cap * sizeof *tensors, 16) : NULL;
  if (!tensors) {
    if (names) a->free(a->ctx, names);
    if (w) a->free(a->ctx, w);
    if (release) release(backing, backing_len);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory creating a weight set");
  }
  *w = (hr_weights){.allocator = a, .capacity = (int)cap, .names = names, .tensors = tensors,
                    .backing = backing, .backing_len = backing_len, .release = release};
  atomic_init(&w->refs, 1);
  *out = w;
  return NULL;
}

hr_status hr_weights_add(hr_weights *w, const char *name, hr_dtype dtype, const hr_shape *shape, void *data,
                         size_t nbytes) {
  if (w->n == w->capacity) return hr_error(HR_INTERNAL, "weight set is full");
  if (hr_weights_find(w, name)) return hr_error(HR_INVALID_ARGUMENT, "weight '%s' appears twice", name);
  size_t len = strlen(name);
  char *copy = w->allocator->alloc(w->allocator->ctx, len + 1, 1);
  if (!copy) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  memcpy(copy, name, len + 1);
  w->names[w->n] = copy;
  w->tensors[w->n] = (hr_tensor){.dtype = dtype, .shape = *shape, .data = data, .nbytes = nbytes, .allocator = NULL};
  w->n++;
  return NULL;
}

hr_status hr_weights_add_tensor(hr_weights *w, const char *name, hr_tensor *t) {
  hr_status s = hr_weights_add(w, name, t->dtype, &t->shape, t->data, t->nbytes);
  if (s) {
    hr_tensor_free(t);
    return s;
  }
  w->tensors[w->n - 1].allocator = t->allocator; /* the set frees the data now */
  t->allocator->free(t->allocator->ctx, t);    /* the header only */
  return NULL;
}

hr_weights *hr_weights_retain(hr_weights *w) {
  atomic_fetch_add(&w->refs, 1);
  return w;
}

void hr_weights_free(hr_weights *w) {
  if (!w || atomic_fetch_sub(&w->refs, 1) != 1) return;
  const hr_allocator *a = w->allocator;
  for (int i = 0; i < w->n; i++) {
    a->free(a->ctx, w->names[i]);
    const hr_allocator *owner = w->tensors[i].allocator;
    if (owner) owner->free(owner->ctx, w->tensors[i].data);
  }
  a->free(a->ctx, w->names);
  a->free(a->ctx, w->tensors);
  if (w->release) w->release(w->backing, w->backing_len);
  a->free(a->ctx, w);
}

int hr_weights_count(const hr_weights *w) { return w->n; }
const char *hr_weights_name(const hr_weights *w, int i) { return w->names[i]; }
const hr_tensor *hr_weights_tensor(const hr_weights *w, int i) { return &w->tensors[i]; }

const hr_tensor *hr_weights_find(const hr_weights *w, const char *name) {
  for (int i = 0; i < w->n; i++)
    if (strcmp(w->names[i], name) == 0) return &w->tensors[i];
  return NULL;
}

bool hr_keypath_to_dotted(const char *keypath, char *out, size_t cap) {
  const char *p = strchr(keypath, '[');
  size_t n = 0;
  if (!p || cap == 0) return false;
  while (*p == '[') {
    char quote = p[1] == '\'' || p[1] == '"' ? p[1] : 0;
    const char *key = p + 1 + (quote != 0);
    const char *end = strchr(key, quote ? quote : ']');
    if (!end || (quote && end[1] != ']') || end == key) return false;
    size_t len = (size_t)(end - key);
    if (n + len + 2 > cap) return false;
    if (n) out[n++] = '.';
    memcpy(out + n, key, len);
    n += len;
    p = end + (quote ? 2 : 1);
  }
  out[n] = '\0';
  return *p == '\0';
}

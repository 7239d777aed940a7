/* Named weight sets: tensors whose data lives in one backing store (a heap buffer or a file
 * mapping) or in buffers of their own, released when the last reference goes away. Programs and executables share a
 * weight set by reference counting. */
#ifndef HLORUN_BASE_WEIGHTS_H
#define HLORUN_BASE_WEIGHTS_H

#include "hlorun/hlorun.h"

/* Releases the backing store when the weight set dies (e.g. munmap, or free of a buffer). */
typedef void (*hr_backing_release_fn)(void *backing, size_t len);

/* Creates an empty set for up to `capacity` tensors over `backing` (may be NULL). On error the
 * backing is released. */
hr_status hr_weights_create(const hr_allocator *a, int capacity, void *backing, size_t backing_len,
                            hr_backing_release_fn release, hr_weights **out);
/* Adds a tensor whose data points into the backing store (not copied). The name is copied. */
hr_status hr_weights_add(hr_weights *w, const char *name, hr_dtype dtype, const hr_shape *shape, void *data,
                         size_t nbytes);
/* Adds tensor `t` (from hr_tensor_create), taking it over: the set frees its data when it dies.
 * On error `t` is freed. */
hr_status hr_weights_add_tensor(hr_weights *w, const char *name, hr_tensor *t);
/* Adds a reference; hr_weights_free drops one. */
hr_weights *hr_weights_retain(hr_weights *w);

#endif

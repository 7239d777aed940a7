/* Host tensors. */
#include <stdint.h>
#include <string.h>

#include "hlorun/hlorun.h"

hr_status hr_shape_num_elements(const hr_shape *shape, int64_t *out) {
  *out = 0;
  if (shape->rank < 0 || shape->rank > HR_MAX_RANK)
    return hr_error(HR_INVALID_ARGUMENT, "rank %d is outside [0, %d]", shape->rank, HR_MAX_RANK);
  int64_t n = 1;
  for (int i = 0; i < shape->rank; i++) {
    int64_t d = shape->dims[i];
    if (d < 0) return hr_error(HR_INVALID_ARGUMENT, "dimension %d is dynamic or negative (%lld)", i, (long long)d);
    if (d != 0 && n > INT64_MAX / d)
      return hr_error(HR_RESOURCE_EXHAUSTED, "element count overflows 64 bits");
    n *= d;
  }
  *out = n;
  return NULL;
}

hr_status hr_tensor_create(const hr_allocator *a, hr_dtype dtype, const hr_shape *shape,
                           size_t max_bytes, hr_tensor **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  size_t esize = hr_dtype_size(dtype);
  if (esize == 0) return hr_error(HR_INVALID_ARGUMENT, "invalid element type");
  int64_t n;
  HR_TRY(hr_shape_num_elements(shape, &n));
  if ((uint64_t)n > SIZE_MAX / esize)
    return hr_error(HR_RESOURCE_EXHAUSTED, "tensor of %lld elements is too large", (long long)n);
  size_t nbytes = (size_t)n * esize;
  if (max_bytes && nbytes > max_bytes)
    return hr_error(HR_RESOURCE_EXHAUSTED, "tensor of %zu bytes exceeds the limit of %zu bytes",
                    nbytes, max_bytes);
  hr_tensor *t = a->alloc(a->ctx, sizeof *t, _Alignof(hr_tensor));
  if (!t) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  void *data = a->alloc(a->ctx, nbytes ? nbytes : 1, 64);
  if (!data) {
    a->free(a->ctx, t);
    return hr_error(HR_OUT_OF_MEMORY, "cannot allocate a tensor of %zu bytes", nbytes);
  }
  memset(data, 0, nbytes);
  t->dtype = dtype;
  t->shape = *shape;
  t->data = data;
  t->nbytes = nbytes;
  t->allocator = a;
  *out = t;
  return NULL;
}

void hr_tensor_free(hr_tensor *t) {
  if (!t) return;
  const hr_allocator *a = t->allocator;
  a->free(a->ctx, t->data);
  a->free(a->ctx, t);
}

int64_t hr_tensor_num_elements(const hr_tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->shape.rank; i++) n *= t->shape.dims[i];
  return n;
}

void hr_tensors_free(hr_tensor **tensors, int n) {
  if (!tensors) return;
  for (int i = 0; i < n; i++) hr_tensor_free(tensors[i]);
  /* The array itself is allocated with the default allocator by hr_module_run. */
  hr_default_allocator()->free(NULL, tensors);
}

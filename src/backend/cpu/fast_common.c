/* Helpers shared by the fast kernel kinds (fast_internal.h): the kernel object, and tensor and
 * attribute checks. */
#include <string.h>

#include "backend/cpu/fast_internal.h"

hr_fast_kernel *hr_fast_kernel_new(const hr_fast_env *env, size_t size, const char *name, hr_fast_run_fn run) {
  const hr_allocator *a = env->allocator;
  hr_fast_kernel *k = a->alloc(a->ctx, size, HR_FAST_ALIGN);
  if (!k) return NULL;
  memset(k, 0, size);
  k->name = name;
  k->run = run;
  k->allocator = a;
  k->pool = env->pool;
  k->n_workers = hr_threadpool_size(env->pool);
  return k;
}

bool hr_fast_is_f32(const hr_tensor *t) {
  if (t->dtype != HR_F32 || t->shape.rank < 0 || t->shape.rank > HR_MAX_RANK) return false;
  for (int i = 0; i < t->shape.rank; i++)
    if (t->shape.dims[i] < 0) return false;
  return true;
}

int64_t hr_fast_dims_product(const hr_shape *s, int from, int to) {
  int64_t n = 1;
  for (int i = from; i < to; i++) n *= s->dims[i];
  return n;
}

bool hr_fast_attr_float(const hr_op *op, const char *name, float *out) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return false;
  if (a->kind == HR_ATTR_FLOAT) {
    *out = (float)a->u.f.value;
    return true;
  }
  if (a->kind == HR_ATTR_DENSE && a->u.dense.type.dtype == HR_F32 && a->u.dense.nbytes >= sizeof(float)) {
    memcpy(out, a->u.dense.data, sizeof *out);
    return true;
  }
  return false;
}

bool hr_fast_attr_bool(const hr_op *op, const char *name, bool absent) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return absent;
  if (a->kind == HR_ATTR_BOOL) return a->u.b;
  if (a->kind == HR_ATTR_UNIT) return true;
  if (a->kind == HR_ATTR_INT) return a->u.i.value != 0;
  if (a->kind == HR_ATTR_DENSE && a->u.dense.type.dtype == HR_I1 && a->u.dense.nbytes >= 1)
    return *(const unsigned char *)a->u.dense.data != 0;
  return absent;
}

/* Deep copies of strings, locations, types and attributes into the specialized module's arena, so
 * that it shares nothing with the source module. */
#include <string.h>

#include "compiler/compiler_internal.h"

/* Attributes and tuple types nest at most HR_LIMIT_NESTING_DEPTH deep (what the parser accepts). */

hr_status hc_oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory specializing the module"); }

hr_status hc_strdup(hc_ctx *c, const char *s, const char **out) {
  *out = NULL;
  if (!s) return NULL;
  *out = hr_arena_strdup(&c->dst->arena, s);
  return *out ? NULL : hc_oom();
}

hr_status hc_loc(hc_ctx *c, hr_loc loc, hr_loc *out) {
  *out = loc;
  if (!loc.file || loc.file == c->dst_file) return NULL; /* none, or already the module's copy */
  if (loc.file != c->src_file) {
    const char *copy = NULL;
    HR_TRY(hc_strdup(c, loc.file, &copy));
    c->src_file = loc.file;
    c->dst_file = copy;
  }
  out->file = c->dst_file;
  return NULL;
}

/* Copies `n` items of `size` bytes into the destination arena (*out NULL for none). */
static hr_status copy_items(hc_ctx *c, const void *src, size_t n, size_t size, size_t align, void **out) {
  *out = NULL;
  if (!src || n == 0) return NULL;
  *out = hr_arena_alloc(&c->dst->arena, n * size, align);
  if (!*out) return hc_oom();
  memcpy(*out, src, n * size);
  return NULL;
}

/* Copies a tensor type's quantization and bounds into the destination arena. */
static hr_status copy_tensor_extras(hc_ctx *c, const hr_type *t, hr_type *out) {
  void *p;
  HR_TRY(copy_items(c, t->bounds, (size_t)t->shape.rank, sizeof *t->bounds, _Alignof(int64_t), &p));
  out->bounds = p;
  if (!t->quant) return NULL;
  hr_quant *q;
  HR_TRY(copy_items(c, t->quant, 1, sizeof *q, _Alignof(hr_quant), &p));
  q = p;
  HR_TRY(copy_items(c, t->quant->scales, (size_t)q->n, sizeof *q->scales, _Alignof(double), &p));
  q->scales = p;
  HR_TRY(copy_items(c, t->quant->zero_points, (size_t)q->n, sizeof *q->zero_points, _Alignof(int64_t), &p));
  q->zero_points = p;
  out->quant = q;
  return NULL;
}

/* Copies a type, `depth` levels below the outermost one. */
static hr_status copy_type(hc_ctx *c, const hr_type *t, hr_type *out, int depth) {
  *out = *t;
  if (t->kind == HR_TYPE_TENSOR || t->kind == HR_TYPE_ELEMENT) return copy_tensor_extras(c, t, out);
  if (t->kind != HR_TYPE_TUPLE && t->kind != HR_TYPE_FUTURE) return NULL;
  if (depth > HR_LIMIT_NESTING_DEPTH) return hr_error(HR_RESOURCE_EXHAUSTED, "tuple types nest too deeply");
  out->elems = NULL;
  if (t->n_elems <= 0) return NULL;
  out->elems = HR_ARENA_ARRAY(&c->dst->arena, hr_type, (size_t)t->n_elems);
  if (!out->elems) return hc_oom();
  for (int i = 0; i < t->n_elems; i++) HR_TRY(copy_type(c, &t->elems[i], &out->elems[i], depth + 1));
  return NULL;
}

hr_status hc_type(hc_ctx *c, const hr_type *t, hr_type *out) { return copy_type(c, t, out, 0); }

bool hc_type_is_static(const hr_type *t) {
  switch (t->kind) {
    case HR_TYPE_TOKEN:
    case HR_TYPE_ELEMENT:
    case HR_TYPE_NONE:
    case HR_TYPE_BUFFER: return true;
    case HR_TYPE_TENSOR: return hr_type_is_static(t);
    case HR_TYPE_TUPLE:
    case HR_TYPE_FUTURE:
      if (t->n_elems > 0 && !t->elems) return false;
      for (int i = 0; i < t->n_elems; i++)
        if (!hc_type_is_static(&t->elems[i])) return false;
      return true;
  }
  return false;
}

/* Copies `n` bytes into the arena; NULL stays NULL, and an empty block still gets a pointer
 * (consumers may hand it to memcpy). */
static hr_status copy_bytes(hc_ctx *c, const void *data, size_t n, const void **out) {
  *out = NULL;
  if (!data) return NULL;
  void *p = hr_arena_alloc(&c->dst->arena, n ? n : 1, 16);
  if (!p) return hc_oom();
  if (n) memcpy(p, data, n);
  *out = p;
  return NULL;
}

/* Copies a string of `len` bytes that may contain NULs (a NUL is appended). */
static hr_status copy_string(hc_ctx *c, const char *s, size_t len, const char **out) {
  *out = NULL;
  if (!s) return NULL;
  *out = hr_arena_strndup(&c->dst->arena, s, len);
  return *out ? NULL : hc_oom();
}

static hr_status copy_attr(hc_ctx *c, const hr_attr *a, hr_attr **out, int depth);

/* Copies named attributes (dictionary entries, struct fields). */
static hr_status copy_named(hc_ctx *c, const hr_named_attr *src, int n, hr_named_attr **out, int depth) {
  *out = NULL;
  if (n <= 0) return NULL;
  hr_named_attr *dst = HR_ARENA_ARRAY(&c->dst->arena, hr_named_attr, (size_t)n);
  if (!dst) return hc_oom();
  for (int i = 0; i < n; i++) {
    HR_TRY(hc_strdup(c, src[i].name, &dst[i].name));
    HR_TRY(copy_attr(c, src[i].value, &dst[i].value, depth + 1));
  }
  *out = dst;
  return NULL;
}

/* Copies `n` elements of `size` bytes (n * size known not to overflow). An empty array keeps a
 * non-NULL pointer: a DENSE_ARRAY's kind (integers or floats) is told by which pointer is set. */
static hr_status copy_elems(hc_ctx *c, const void *src, size_t n, size_t size, void **out) {
  *out = NULL;
  if (!src) return NULL;
  void *p = hr_arena_alloc(&c->dst->arena, n ? n * size : size, 16);
  if (!p) return hc_oom();
  if (n) memcpy(p, src, n * size);
  *out = p;
  return NULL;
}

/* Copies the element arrays of a DENSE_ARRAY attribute. */
static hr_status copy_dense_array(hc_ctx *c, const hr_attr *a, hr_attr *d) {
  int64_t n = a->u.dense_array.n;
  if (n < 0 || (uint64_t)n > SIZE_MAX / 8) return hr_error(HR_INVALID_ARGUMENT, "malformed dense array");
  void *p = NULL;
  HR_TRY(copy_elems(c, a->u.dense_array.ints, (size_t)n, sizeof(int64_t), &p));
  d->u.dense_array.ints = p;
  HR_TRY(copy_elems(c, a->u.dense_array.floats, (size_t)n, sizeof(double), &p));
  d->u.dense_array.floats = p;
  return NULL;
}

/* Copies the pointed-to parts of attribute `a` into `d` (a shallow copy of `a`). */
static hr_status copy_attr_parts(hc_ctx *c, const hr_attr *a, hr_attr *d, int depth) {
  switch (a->kind) {
    case HR_ATTR_UNIT:
    case HR_ATTR_BOOL:
    case HR_ATTR_INT:
    case HR_ATTR_FLOAT: return NULL;
    case HR_ATTR_STRING:
    case HR_ATTR_SYMBOL:
    case HR_ATTR_OPAQUE: return copy_string(c, a->u.str.data, a->u.str.len, &d->u.str.data);
    case HR_ATTR_TYPE: return hc_type(c, &a->u.type, &d->u.type);
    case HR_ATTR_ARRAY: {
      d->u.array.items = NULL;
      if (a->u.array.n <= 0) return NULL;
      d->u.array.items = HR_ARENA_ARRAY(&c->dst->arena, hr_attr *, (size_t)a->u.array.n);
      if (!d->u.array.items) return hc_oom();
      for (int i = 0; i < a->u.array.n; i++) HR_TRY(copy_attr(c, a->u.array.items[i], &d->u.array.items[i], depth + 1));
      return NULL;
    }
    case HR_ATTR_DENSE_ARRAY: return copy_dense_array(c, a, d);
    case HR_ATTR_DENSE:
      HR_TRY(hc_type(c, &a->u.dense.type, &d->u.dense.type));
      return copy_bytes(c, a->u.dense.data, a->u.dense.nbytes, &d->u.dense.data);
    case HR_ATTR_DICT: return copy_named(c, a->u.dict.entries, a->u.dict.n, &d->u.dict.entries, depth);
    case HR_ATTR_ENUM:
      HR_TRY(hc_strdup(c, a->u.enm.dialect, &d->u.enm.dialect));
      HR_TRY(hc_strdup(c, a->u.enm.name, &d->u.enm.name));
      return hc_strdup(c, a->u.enm.value, &d->u.enm.value);
    case HR_ATTR_STRUCT:
      HR_TRY(hc_strdup(c, a->u.strct.name, &d->u.strct.name));
      return copy_named(c, a->u.strct.fields, a->u.strct.n, &d->u.strct.fields, depth);
  }
  return hr_error(HR_INVALID_ARGUMENT, "attribute of unknown kind %d", (int)a->kind);
}

/* Copies an attribute `depth` levels below an op's attribute dictionary. */
static hr_status copy_attr(hc_ctx *c, const hr_attr *a, hr_attr **out, int depth) {
  *out = NULL;
  if (!a) return NULL;
  if (depth > HR_LIMIT_NESTING_DEPTH) return hr_error(HR_RESOURCE_EXHAUSTED, "attributes nest too deeply");
  hr_attr *d = HR_ARENA_NEW(&c->dst->arena, hr_attr);
  if (!d) return hc_oom();
  *d = *a;
  HR_TRY(copy_attr_parts(c, a, d, depth));
  *out = d;
  return NULL;
}

hr_status hc_attr(hc_ctx *c, const hr_attr *a, hr_attr **out) { return copy_attr(c, a, out, 0); }

hr_status hc_named_attrs(hc_ctx *c, const hr_named_attr *attrs, int n, hr_named_attr **out) {
  return copy_named(c, attrs, n, out, 0);
}

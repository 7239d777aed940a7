/* The registry of custom-call targets (custom_call.h) and the helpers their families share. */
#include "interp/custom_call.h"

#include <limits.h>
#include <string.h>

#include "base/elem.h"

/* A registered target: its name pattern ('?': the element type letter; a pattern without one is
 * the whole name), whether an "_ffi" form exists beside the old one, and its function. */
typedef struct cc_entry {
  const char *pattern;
  bool has_ffi;
  hr_cc_fn fn;
} cc_entry;

static const cc_entry registry[] = {
    {"lapack_?potrf", true, hr_cc_potrf}, {"lapack_?getrf", true, hr_cc_getrf},
    {"lapack_?geqrf", true, hr_cc_geqrf}, {"lapack_?orgqr", true, hr_cc_orgqr},
    {"lapack_?ungqr", true, hr_cc_orgqr}, {"blas_?trsm", true, hr_cc_trsm},
    {"lapack_?trsm", true, hr_cc_trsm},   {"lapack_?syevd", true, hr_cc_syevd},
    {"lapack_?heevd", true, hr_cc_syevd}, {"lapack_?gesdd", true, hr_cc_gesdd},
    {"lapack_?gehrd", true, hr_cc_gehrd}, {"lapack_?sytrd", true, hr_cc_sytrd},
    {"lapack_?hetrd", true, hr_cc_sytrd}, {"lapack_?gtsv", true, hr_cc_gtsv},
    {"lapack_?geev", true, hr_cc_geev},   {"lapack_?gees", true, hr_cc_gees},
    {"stablehlo.dynamic_top_k", false, hr_cc_top_k}, {"stablehlo.dynamic_approx_top_k", false, hr_cc_top_k},
    {"dynamic_ducc_fft", false, hr_cc_ducc_fft},
    {"ApproxTopK", false, hr_cc_approx_top_k}, {"Eigh", false, hr_cc_eigh},
    {"LuDecomposition", false, hr_cc_lu_decomposition}, {"AllocateBuffer", false, hr_cc_allocate_buffer},
    {"stablehlo.dynamic_reduce_window", false, hr_cc_dynamic_reduce_window},
};

/* The element type a target name's letter stands for, or HR_DTYPE_INVALID. */
static hr_dtype letter_dtype(char c) {
  switch (c) {
    case 's': return HR_F32;
    case 'd': return HR_F64;
    case 'c': return HR_C64;
    case 'z': return HR_C128;
    default: return HR_DTYPE_INVALID;
  }
}

/* Whether `name` is `pattern` with its '?' replaced by a type letter, possibly followed by
 * "_ffi" (when allowed); fills the letter's type and the form. */
static bool matches(const char *name, const cc_entry *e, hr_dtype *dtype, bool *ffi) {
  const char *q = strchr(e->pattern, '?');
  if (!q) { /* a name of its own, for any element type */
    *dtype = HR_DTYPE_INVALID;
    *ffi = false;
    return strcmp(name, e->pattern) == 0;
  }
  size_t head = (size_t)(q - e->pattern), tail_len = strlen(q + 1);
  if (strncmp(name, e->pattern, head) != 0) return false;
  hr_dtype t = letter_dtype(name[head]);
  if (t == HR_DTYPE_INVALID || strncmp(name + head + 1, q + 1, tail_len) != 0) return false;
  const char *rest = name + head + 1 + tail_len;
  if (*rest && !(e->has_ffi && strcmp(rest, "_ffi") == 0)) return false;
  *dtype = t;
  *ffi = *rest != '\0';
  return true;
}

/* GPU targets whose semantics are those of a CPU target: JAX's cuda and rocm lowerings (typed
 * FFI), their element type that of their first operand. */
typedef struct gpu_entry {
  const char *name;
  hr_cc_fn fn;
} gpu_entry;

static const gpu_entry gpu_registry[] = {
    {"cusolver_potrf_ffi", hr_cc_potrf},   {"hipsolver_potrf_ffi", hr_cc_potrf},
    {"rocsolver_potrf_ffi", hr_cc_potrf},  {"cusolver_getrf_ffi", hr_cc_getrf},
    {"hipsolver_getrf_ffi", hr_cc_getrf},  {"cusolver_geqrf_ffi", hr_cc_geqrf},
    {"hipsolver_geqrf_ffi", hr_cc_geqrf},  {"cusolver_orgqr_ffi", hr_cc_orgqr},
    {"hipsolver_orgqr_ffi", hr_cc_orgqr},  {"cusolver_syevd_ffi", hr_cc_syevd},
    {"hipsolver_syevd_ffi", hr_cc_syevd},
    {"cusolver_sytrd_ffi", hr_cc_sytrd},   {"hipsolver_sytrd_ffi", hr_cc_sytrd},
    {"cusparse_gtsv2_ffi", hr_cc_gtsv},    {"cu_lu_pivots_to_permutation", hr_cc_lu_pivots_to_permutation},
    {"hip_lu_pivots_to_permutation", hr_cc_lu_pivots_to_permutation},
    {"cu_threefry2x32_ffi", hr_cc_threefry2x32}, {"hip_threefry2x32_ffi", hr_cc_threefry2x32},
    {"annotate_device_placement", hr_cc_identity},
    {"cusolver_syevd", hr_cc_gpu_syev},    {"cusolver_syevj", hr_cc_gpu_syev},
    {"hipsolver_syevd", hr_cc_gpu_syev},   {"hipsolver_syevj", hr_cc_gpu_syev},
    {"cusolver_geqrf", hr_cc_gpu_geqrf},   {"hipsolver_geqrf", hr_cc_gpu_geqrf},
    {"cublas_geqrf_batched", hr_cc_gpu_geqrf}, {"hipblas_geqrf_batched", hr_cc_gpu_geqrf},
    {"cusolver_orgqr", hr_cc_gpu_orgqr},   {"hipsolver_orgqr", hr_cc_gpu_orgqr},
    {"cu_threefry2x32", hr_cc_gpu_threefry2x32}, {"hip_threefry2x32", hr_cc_gpu_threefry2x32},
};

bool hr_cc_lookup(const char *name, hr_cc_fn *fn, hr_cc_call *c) {
  for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
    if (matches(name, &registry[i], &c->dtype, &c->ffi)) {
      *fn = registry[i].fn;
      return true;
    }
  for (size_t i = 0; i < sizeof gpu_registry / sizeof gpu_registry[0]; i++)
    if (strcmp(name, gpu_registry[i].name) == 0) {
      *fn = gpu_registry[i].fn;
      c->ffi = c->gpu = true;
      c->dtype = c->op->n_operands ? c->op->operands[0]->type.dtype : HR_DTYPE_INVALID;
      return true;
    }
  return false;
}

/* The target name of a custom_call, or NULL. */
static const char *target_name(const hr_op *op) {
  const hr_attr *target = hr_op_attr(op, "call_target_name");
  return target && target->kind == HR_ATTR_STRING ? target->u.str.data : NULL;
}

hr_status hr_cc_supported(const hr_op *op) {
  const char *name = target_name(op);
  if (!name) return hr_op_error(op, HR_VERIFY_ERROR, "missing 'call_target_name'");
  hr_cc_fn fn;
  hr_cc_call c = {.op = op};
  if (strncmp(name, "check.", 6) == 0 || strcmp(name, "shape_assertion") == 0 || hr_cc_lookup(name, &fn, &c)) return NULL;
  return hr_op_error(op, HR_UNIMPLEMENTED, "custom_call @%s is not supported", name);
}

hr_status hr_cc_run(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const char *name = target_name(op);
  hr_cc_call c = {in, op, operands, results, HR_DTYPE_INVALID, false, false};
  hr_cc_fn fn;
  if (!name || !hr_cc_lookup(name, &fn, &c))
    return hr_op_error(op, HR_UNIMPLEMENTED, "custom_call @%s is not supported", name ? name : "(unnamed)");
  return fn(&c);
}

hr_status hr_cc_scalar(const hr_cc_call *c, int i, int64_t *out) {
  if (i >= c->op->n_operands) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "has no operand %d", i);
  const hr_tensor *t = c->operands[i];
  if (t->shape.rank != 0) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "operand %d must be a scalar", i);
  if (t->dtype != HR_I1 && !hr_dtype_is_signed_int(t->dtype) && !hr_dtype_is_unsigned_int(t->dtype))
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "operand %d must be an integer scalar", i);
  *out = hr_load_int(t->dtype, t->data, 0);
  return NULL;
}

hr_status hr_cc_config(const hr_cc_call *c, const char *key, int64_t dflt, int64_t *out) {
  *out = dflt;
  const hr_attr *cfg = hr_op_attr(c->op, "mhlo.backend_config");
  const hr_attr *v = cfg && cfg->kind == HR_ATTR_DICT ? hr_attr_field(cfg, key) : NULL;
  if (!v) return NULL;
  if (v->kind == HR_ATTR_BOOL) { /* the GPU targets' flags (lower = true) */
    *out = v->u.b;
    return NULL;
  }
  if (v->kind != HR_ATTR_INT) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "backend_config '%s' must be an integer", key);
  *out = v->u.i.value;
  return NULL;
}

hr_dtype hr_cc_real(hr_dtype t) { return t == HR_C64 ? HR_F32 : t == HR_C128 ? HR_F64 : t; }

hr_status hr_cc_matrices_of(const hr_cc_call *c, const hr_tensor *t, const char *what, hr_cc_matrices *out) {
  if (t->shape.rank < 2) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the %s must have rank 2 or more", what);
  if (t->dtype != c->dtype)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the %s has element type %s, the target's is %s", what,
                       hr_dtype_name(t->dtype), hr_dtype_name(c->dtype));
  int r = t->shape.rank;
  out->rows = t->shape.dims[r - 2];
  out->cols = t->shape.dims[r - 1];
  out->batch = 1;
  for (int i = 0; i < r - 2; i++) out->batch *= t->shape.dims[i]; /* bounded: the tensor exists */
  if (out->rows > INT_MAX || out->cols > INT_MAX)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the %s's matrices (%lldx%lld) exceed LAPACK's 32-bit sizes", what,
                       (long long)out->rows, (long long)out->cols);
  return NULL;
}

hr_status hr_cc_want(const hr_cc_call *c, int i, hr_dtype dtype, int64_t n, const char *what) {
  int64_t got;
  if (i >= c->op->n_results) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "has no result %d (the %s)", i, what);
  const hr_tensor *t = c->results[i];
  if (t->dtype != dtype || hr_shape_num_elements(&t->shape, &got) || got != n)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "result %d (the %s) must hold %lld elements of %s", i, what,
                       (long long)n, hr_dtype_name(dtype));
  return NULL;
}

void hr_cc_to_col(const void *batch, int64_t k, int64_t rows, int64_t cols, size_t size, void *col) {
  const char *src = (const char *)batch + (size_t)(k * rows * cols) * size;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) memcpy((char *)col + (size_t)(j * rows + i) * size, src + (size_t)(i * cols + j) * size, size);
}

void hr_cc_from_col(const void *col, int64_t rows, int64_t cols, size_t size, void *batch, int64_t k) {
  char *dst = (char *)batch + (size_t)(k * rows * cols) * size;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) memcpy(dst + (size_t)(i * cols + j) * size, (const char *)col + (size_t)(j * rows + i) * size, size);
}

hr_status hr_cc_scratch(const hr_cc_call *c, int64_t n, size_t size, void **out) {
  if (n < 1) n = 1;
  const hr_allocator *a = c->in->allocator;
  if ((uint64_t)n > SIZE_MAX / size || !(*out = a->alloc(a->ctx, (size_t)n * size, 64)))
    return hr_op_error(c->op, HR_OUT_OF_MEMORY, "out of memory for %lld elements of LAPACK workspace", (long long)n);
  memset(*out, 0, (size_t)n * size);
  return NULL;
}

void hr_cc_free(const hr_cc_call *c, void *p) {
  if (p) c->in->allocator->free(c->in->allocator->ctx, p);
}

/* Module interface of the data-movement kernel group (kernels_data*.c), also used by the CPU
 * backend's data kernels (backend/cpu/fast_data.c).
 *
 * Every movement kernel reduces to "copy a box of elements from one strided view to another";
 * hr_copy_plan describes such a copy and hr_copy_plan_run executes it dtype-agnostically (raw
 * element bytes, hr_dtype_size each) after proving that every touched offset is in bounds. The
 * rest are small shared helpers: checked integer arithmetic, index loading, attribute reading and
 * scalar region evaluation (sort comparators, scatter update computations). */
#ifndef HLORUN_INTERP_DATA_H
#define HLORUN_INTERP_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "interp/interp.h"

/* ---- strided copies -------------------------------------------------------------------------- */

/* Copies the box dims[0] x ... x dims[rank-1]: the element at box index i is read from source
 * element src_offset + sum(i[d] * src_stride[d]) and written to destination element
 * dst_offset + sum(i[d] * dst_stride[d]). Strides may be zero (broadcast) or negative (reverse). */
typedef struct hr_copy_plan {
  int rank;
  int64_t dims[HR_MAX_RANK];
  int64_t src_stride[HR_MAX_RANK];
  int64_t dst_stride[HR_MAX_RANK];
  int64_t src_offset;
  int64_t dst_offset;
} hr_copy_plan;

/* Starts a plan over a box of `rank` dims with zero strides and offsets. */
void hr_copy_plan_init(hr_copy_plan *p, int rank, const int64_t *dims);

/* Whether every offset the plan touches (its box non-empty) lies inside `n_src` source and
 * `n_dst` destination elements. */
bool hr_copy_plan_in_bounds(const hr_copy_plan *p, int64_t n_src, int64_t n_dst);

/* Runs `p` from `src` into `dst` (same element type). Fails with HR_INTERNAL, naming `op`, when
 * any offset the plan would touch lies outside either tensor, so a wrong plan cannot corrupt
 * memory. */
hr_status hr_copy_plan_run(const hr_op *op, const hr_copy_plan *p, const hr_tensor *src,
                           hr_tensor *dst);

/* Fills `n` elements of `esize` bytes at `dst` with copies of the element at `elem`. */
void hr_data_fill(void *dst, int64_t n, const void *elem, size_t esize);
/* Fills `n` elements at `dst` with copies of the first one, which is already in place. */
void hr_data_replicate(void *dst, int64_t n, size_t esize);

/* Row-major strides (in elements) of a tensor shape; all zero when the shape has no elements, so
 * that huge dims of an empty tensor cannot overflow (no element of it is ever addressed). */
void hr_data_strides(const hr_shape *s, int64_t *strides);

/* Copies all of `src` into `dst`, which must hold the same number of bytes. */
hr_status hr_data_copy_all(const hr_op *op, const hr_tensor *src, hr_tensor *dst);

/* ---- checked arithmetic and indices ---------------------------------------------------------- */

/* *out = a + b / a - b / a * b; false on int64 overflow. */
static inline bool hr_add_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_add_overflow(a, b, out);
}
static inline bool hr_sub_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_sub_overflow(a, b, out);
}
static inline bool hr_mul_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}

/* v clamped into [lo, hi] (callers guarantee lo <= hi). */
static inline int64_t hr_clamp_i64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Element i of an integer tensor's data as int64; ui64 values above INT64_MAX saturate to
 * INT64_MAX so that clamping treats them as huge, not negative. */
int64_t hr_data_load_index(hr_dtype t, const void *data, int64_t i);

/* Checks that `t` is an integer tensor (any width, signed or unsigned) used as `what`. */
hr_status hr_data_check_index_tensor(const hr_op *op, const hr_tensor *t, const char *what);

/* Reads a rank-1 integer tensor of exactly `n` elements (n <= HR_MAX_RANK) into `out`. */
hr_status hr_data_read_index_vector(const hr_op *op, const hr_tensor *t, int n, const char *what,
                                    int64_t *out);

/* Checks that `n` axes are distinct and each in [0, rank). */
hr_status hr_data_check_axes(const hr_op *op, const char *what, const int64_t *axes, int n, int rank);

/* Checks that `t` has the shape `expected` (what names the tensor in the message). */
hr_status hr_data_check_shape(const hr_op *op, const char *what, const hr_tensor *t,
                              const hr_shape *expected);

/* Reads integer field `name` of a STRUCT attribute; an absent field reads as `dflt`. */
hr_status hr_data_struct_int(const hr_op *op, const hr_attr *s, const char *name, int64_t dflt,
                             int64_t *out);

/* ---- scalar regions ---------------------------------------------------------------------------- */

/* A region evaluated repeatedly on rank-0 arguments (sort comparators, scatter update
 * computations). The argument tensors are allocated once; each call replaces `results`. */
typedef struct hr_scalar_region {
  hr_interp *in;
  const hr_op *op;
  const hr_block *block;
  const hr_func *func; /* when set, the block is its body and each call a call of it */
  int n_args;
  int n_results;
  hr_tensor **args;    /* n_args rank-0 tensors of the block argument types */
  hr_tensor **results; /* n_results tensors of the latest call, or NULLs */
} hr_scalar_region;

/* Prepares `block` (a region of `op`) for calls; checks that its arguments are rank-0 tensors,
 * that there are `n_args` of them and that the terminator returns `n_results` values. */
hr_status hr_scalar_region_init(hr_scalar_region *r, hr_interp *in, const hr_op *op,
                                const hr_block *block, int n_args, int n_results);
/* The same with the body of function `fn` (a custom call's called computation) as the region. */
hr_status hr_scalar_region_init_func(hr_scalar_region *r, hr_interp *in, const hr_op *op, const hr_func *fn,
                                     int n_args, int n_results);
/* Evaluates the region on the current contents of r->args. Each result is checked to be a
 * rank-0 tensor of element type `result_types[i]` (NULL: any type). */
hr_status hr_scalar_region_call(hr_scalar_region *r, const hr_dtype *result_types);
void hr_scalar_region_release(hr_scalar_region *r);

/* ---- kernels (one file each group) ---------------------------------------------------------- */

/* kernels_data_dynamic.c */
hr_status hr_data_dynamic_slice(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                hr_tensor **results);
hr_status hr_data_dynamic_update_slice(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                       hr_tensor **results);
hr_status hr_data_real_dynamic_slice(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                     hr_tensor **results);
hr_status hr_data_dynamic_pad(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                              hr_tensor **results);
hr_status hr_data_dynamic_broadcast_in_dim(hr_interp *in, const hr_op *op,
                                           hr_tensor *const *operands, hr_tensor **results);
hr_status hr_data_dynamic_iota(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                               hr_tensor **results);
hr_status hr_data_dynamic_reshape(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                  hr_tensor **results);

/* kernels_data.c: shared by the static and dynamic variants. */
hr_status hr_data_broadcast_into(const hr_op *op, const hr_tensor *operand, const int64_t *dims,
                                 int n_dims, hr_tensor *result);
hr_status hr_data_iota_into(const hr_op *op, int64_t dim, hr_tensor *result);
hr_status hr_data_slice_into(const hr_op *op, const hr_tensor *operand, const int64_t *start,
                             const int64_t *limit, const int64_t *strides, hr_tensor *result);
hr_status hr_data_pad_into(const hr_op *op, const hr_tensor *operand, const hr_tensor *pad_value,
                           const int64_t *low, const int64_t *high, const int64_t *interior,
                           hr_tensor *result);

/* kernels_data_gather.c */
hr_status hr_data_gather(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                         hr_tensor **results);
hr_status hr_data_dynamic_gather(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                 hr_tensor **results);
hr_status hr_data_torch_index_select(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                     hr_tensor **results);

/* kernels_data_scatter.c */
hr_status hr_data_scatter(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                          hr_tensor **results);

/* kernels_data_sort.c */
hr_status hr_data_sort(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                       hr_tensor **results);
hr_status hr_data_top_k(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                        hr_tensor **results);
/* Sorts the n operands (one shape) along dimension `dim` into results (their types) by the
 * comparator function `cmp` (lhs0, rhs0, lhs1, rhs1, ...) -> i1, stably: stablehlo.sort with a
 * called function for its region (XLA's ApproxTopK fallback). */
hr_status hr_data_sort_by(hr_interp *in, const hr_op *op, const hr_func *cmp, int64_t dim, int n,
                          hr_tensor *const *operands, hr_tensor **results);
/* The k largest elements of each last-dimension row of x and their indices into results[0] and
 * results[1] (ties: the lower index first); for chlo.top_k and the custom calls of JAX's
 * shape-polymorphic top_k. */
hr_status hr_data_top_k_of(hr_interp *in, const hr_op *op, const hr_tensor *x, int64_t k, hr_tensor **results);

#endif /* HLORUN_INTERP_DATA_H */

/* Module interface of the reduce kernel group, also used by backend/cpu/fast_reduce.c: reductions,
 * windows, contractions, linear algebra, FFT, random bits, collectives and transfers (infeed, outfeed,
 * send, recv) (kernels_reduce*.c, kernels_linalg.c).
 *
 * Shared pieces:
 *   - scalar conversion between element types (convert semantics),
 *   - evaluation of a region on scalars, with a fast path for one-op reduction bodies,
 *   - a typed batched matrix-multiply engine over "accumulator kinds" used by dot_general, dot and
 *     convolution,
 *   - attribute readers for window padding.
 * Kernel entry points of the other files are declared at the end; kernels_reduce.c lists them in
 * the hr_kernels_reduce table. */
#ifndef HLORUN_INTERP_REDUCE_H
#define HLORUN_INTERP_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/elem.h"
#include "interp/interp.h"

/* Most inputs a variadic reduce, reduce_window or map accepts (JAX emits at most a handful). */
#define HR_RED_MAX_VARIADIC 16

/* ---------------------------------------------------------------------------------------------- */
/* Checked arithmetic and small helpers                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* *out = a * b; false on int64 overflow or a negative operand. */
bool hr_red_mul(int64_t a, int64_t b, int64_t *out);
/* *out = a + b; false on int64 overflow. */
bool hr_red_add(int64_t a, int64_t b, int64_t *out);
/* Product of dims[i] for the `n` indices in `which`; false on overflow. */
bool hr_red_dims_product(const int64_t *dims, const int64_t *which, int n, int64_t *out);
/* True when the tensor has exactly the given dtype and shape. */
bool hr_red_tensor_is(const hr_tensor *t, hr_dtype dtype, const hr_shape *shape);
/* Formats a shape as "2x3x4" (or "scalar") into buf, for error messages. */
const char *hr_red_shape_str(const hr_shape *s, char *buf, size_t cap);

/* Reads a rank x 2 integer DENSE attribute (window padding) into lo/hi. An absent attribute yields
 * zeros. Errors name `op`. */
hr_status hr_red_read_padding(const hr_op *op, const char *name, int rank, int64_t *lo, int64_t *hi);
/* Reads an optional integer list attribute that must have `rank` entries when present; absent
 * entries take `dflt`. When `positive`, every entry must be > 0. */
hr_status hr_red_read_dims_attr(const hr_op *op, const char *name, int rank, int64_t dflt,
                                bool positive, int64_t *out);
/* Reads an optional boolean attribute (BOOL, INT or one-element DENSE); absent yields `dflt`. */
hr_status hr_red_read_bool(const hr_op *op, const char *name, bool dflt, bool *out);

/* ---------------------------------------------------------------------------------------------- */
/* Scalar conversion                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Converts one element like stablehlo.convert: integers wrap, floats round to nearest even,
 * float-to-integer saturates (NaN gives 0), complex-to-real keeps the real part, anything to i1 is
 * "!= 0". `src` and `dst` point to one element each in the hr_dtype memory layout. */
void hr_red_convert_scalar(hr_dtype from, const void *src, hr_dtype to, void *dst);

/* ---------------------------------------------------------------------------------------------- */
/* Evaluating regions on scalars                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* A region called repeatedly with scalar arguments, e.g. a reduce body or a sort comparator. */
typedef struct hr_red_region {
  hr_interp *in;
  const hr_op *op;      /* owner of the region, named in errors */
  const hr_block *block;
  const hr_func *func;  /* when set, the block is its body and each call a call of it */
  int n_args, n_results;
  hr_dtype arg_types[2 * HR_RED_MAX_VARIADIC];
  hr_dtype result_types[2 * HR_RED_MAX_VARIADIC];
  hr_tensor *args[2 * HR_RED_MAX_VARIADIC]; /* rank-0 tensors bound to the block arguments */
} hr_red_region;

/* Prepares region `index` of `op`, which must take `n_args` rank-0 tensors and return
 * `n_results` rank-0 tensors. Release with hr_red_region_release (also after a failed init). */
hr_status hr_red_region_init(hr_red_region *r, hr_interp *in, const hr_op *op, int index,
                             int n_args, int n_results);
/* Runs the region: args[i] points to one element of arg_types[i], results[i] receives one element
 * of result_types[i]. */
hr_status hr_red_region_call(hr_red_region *r, const void *const *args, void *const *results);
void hr_red_region_release(hr_red_region *r);

/* Recognises a body `^bb(%a, %b): %r = OP %a, %b; return %r` where OP is add, subtract, multiply,
 * maximum, minimum, and, or or xor with all types equal. Sets *code and *body_op. */
bool hr_red_fast_binary_body(const hr_block *block, hr_opcode *code, const hr_op **body_op);

/* A reduction body with N accumulators: acc... = body(acc..., x...). */
typedef struct hr_red_reducer {
  hr_red_region region;
  int n;
  hr_opcode fast;          /* the recognised one-op body, or HR_OP_COUNT for the generic path */
  const hr_op *fast_op;    /* that op (errors name it) */
  hr_dtype acc_types[HR_RED_MAX_VARIADIC];   /* body arguments 0..n-1 and results */
  hr_dtype x_types[HR_RED_MAX_VARIADIC];     /* body arguments n..2n-1 */
  hr_dtype input_types[HR_RED_MAX_VARIADIC]; /* element types of the values passed as x */
} hr_red_reducer;

/* Prepares region `index` of `op` as an n-way reduction body whose x values come as elements of
 * `input_types` (converted to the body's argument types when they differ). */
hr_status hr_red_reducer_init(hr_red_reducer *r, hr_interp *in, const hr_op *op, int index, int n,
                              const hr_dtype *input_types);
/* The same with the body of function `fn` (a custom call's called computation) as the region. */
hr_status hr_red_reducer_init_func(hr_red_reducer *r, hr_interp *in, const hr_op *op, const hr_func *fn, int n,
                                   const hr_dtype *input_types);
/* acc[i] = body(acc[0..n), x[0..n))[i]; acc[i] points to an element of acc_types[i], x[i] to an
 * element of input_types[i]. */
hr_status hr_red_reducer_apply(hr_red_reducer *r, void *const *acc, const void *const *x);
void hr_red_reducer_release(hr_red_reducer *r);

/* ---------------------------------------------------------------------------------------------- */
/* Contractions: accumulator kinds, packing and batched matrix multiplication                     */
/* ---------------------------------------------------------------------------------------------- */

/* The arithmetic a contraction producing a given result type is carried out in: f16, bf16 and f32
 * results accumulate in f32, f64 in f64, integers in 64-bit wrapping arithmetic, complex in the
 * matching complex precision. */
typedef enum hr_red_acc {
  HR_RED_ACC_F32,
  HR_RED_ACC_F64,
  HR_RED_ACC_INT,
  HR_RED_ACC_C64,
  HR_RED_ACC_C128,
} hr_red_acc;

hr_red_acc hr_red_acc_for(hr_dtype result);
size_t hr_red_acc_size(hr_red_acc k);
/* The element type whose memory layout equals the accumulator's (f32, f64, i64, c64, c128). */
hr_dtype hr_red_acc_dtype(hr_red_acc k);
/* True when results of `dtype` can be accumulated in place (same layout as the accumulator). */
bool hr_red_acc_is_native(hr_red_acc k, hr_dtype dtype);

/* A strided view of a tensor's elements, visited in row-major order of `dims`. */
typedef struct hr_red_view {
  int rank;
  int64_t dims[HR_MAX_RANK];
  int64_t strides[HR_MAX_RANK]; /* in elements */
} hr_red_view;

/* Walks the multi-indices of a view in row-major order, tracking the element offset. */
typedef struct hr_red_walk {
  const hr_red_view *v;
  int64_t idx[HR_MAX_RANK];
  int64_t offset;
} hr_red_walk;

static inline void hr_red_walk_init(hr_red_walk *w, const hr_red_view *v) {
  w->v = v;
  for (int d = 0; d < v->rank; d++) w->idx[d] = 0;
  w->offset = 0;
}

/* Moves to the next multi-index (wrapping to all zeros after the last one). */
static inline void hr_red_walk_next(hr_red_walk *w) {
  const hr_red_view *v = w->v;
  for (int d = v->rank - 1; d >= 0; d--) {
    w->offset += v->strides[d];
    if (++w->idx[d] < v->dims[d]) return;
    w->offset -= v->strides[d] * v->dims[d];
    w->idx[d] = 0;
  }
}

/* Number of elements a view visits; false on overflow. */
bool hr_red_view_count(const hr_red_view *v, int64_t *out);

/* Writes the elements of view `v` over `src` (element type `from`), each converted to `to` and
 * then to accumulator kind `k`, contiguously into `dst`. */
void hr_red_pack(const hr_red_view *v, hr_dtype from, const void *src, hr_dtype to, hr_red_acc k,
                 void *dst);
/* Stores accumulator element j of `acc` as element i of `dst` (element type `to`). */
void hr_red_acc_store(hr_red_acc k, const void *acc, int64_t j, hr_dtype to, void *dst, int64_t i);
/* Allocates a zero-filled scratch buffer of `count` accumulator elements. */
hr_status hr_red_scratch(hr_interp *in, const hr_op *op, hr_red_acc k, int64_t count,
                         hr_tensor **out);

/* c[b] (m x n) += a[b] (m x k) * b[b] (k x n) for every batch b; all row-major, contiguous, of
 * accumulator kind `kind`. Each output element accumulates its k products in increasing order. */
typedef struct hr_red_matmul {
  hr_red_acc kind;
  int64_t batch, m, k, n;
  const void *a, *b;
  void *c;
} hr_red_matmul;

/* Runs the product on the interpreter's thread pool; scratch space comes from hr_interp_alloc. */
hr_status hr_red_matmul_run(hr_interp *in, const hr_op *op, const hr_red_matmul *mm);

/* Batching and contracting dimensions of a contraction (dot_general's dimension numbers). */
typedef struct hr_red_dot_dims {
  int nb, nc;
  int64_t lb[HR_MAX_RANK], rb[HR_MAX_RANK]; /* batching dimensions, paired by position */
  int64_t lc[HR_MAX_RANK], rc[HR_MAX_RANK]; /* contracting dimensions, paired by position */
} hr_red_dot_dims;

/* res = dot_general(lhs, rhs) with dimensions `dd`; res (allocated, zero-filled) must have the
 * shape [batch..., lhs free..., rhs free...]. Errors name `op`. */
hr_status hr_red_contract(hr_interp *in, const hr_op *op, const hr_tensor *lhs, const hr_tensor *rhs,
                          const hr_red_dot_dims *dd, hr_tensor *res);

/* ---------------------------------------------------------------------------------------------- */
/* Kernels (see hr_kernels_reduce in kernels_reduce.c)                                             */
/* ---------------------------------------------------------------------------------------------- */

/* The four transforms of stablehlo.fft. */
typedef enum hr_red_fft_kind { HR_FFT_FORWARD, HR_FFT_INVERSE, HR_FFT_REAL_FORWARD, HR_FFT_REAL_INVERSE } hr_red_fft_kind;

/* stablehlo.fft's transform `kind` over the trailing nl dimensions (of the full, complex shape:
 * `lengths`) of x into res (kernels_reduce_fft.c); for the kernel and for JAX's ducc_fft custom
 * calls. The inverse transforms scale by 1/n per axis. */
hr_status hr_red_fft(hr_interp *in, const hr_op *op, hr_red_fft_kind kind, const int64_t *lengths, int nl,
                     const hr_tensor *x, hr_tensor *res);

#define HR_RED_KERNEL(name)                                                                        \
  hr_status name(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results)

HR_RED_KERNEL(hr_red_kernel_reduce_window);
/* A window given as values (stablehlo.dynamic_reduce_window's operands) instead of attributes. */
typedef struct hr_red_window {
  int64_t dims[HR_MAX_RANK], strides[HR_MAX_RANK], base_dil[HR_MAX_RANK], win_dil[HR_MAX_RANK];
  int64_t pad_lo[HR_MAX_RANK], pad_hi[HR_MAX_RANK];
} hr_red_window;
/* reduce_window of operands[0, n) with init values operands[n, 2n) over window `v` (sizes,
 * strides and dilations positive), the body function `body` (acc..., x...) -> acc...; errors name
 * `op`. */
hr_status hr_red_reduce_window_with(hr_interp *in, const hr_op *op, const hr_func *body, int n, const hr_red_window *v,
                                    hr_tensor *const *operands, hr_tensor **results);
HR_RED_KERNEL(hr_red_kernel_select_and_scatter);
HR_RED_KERNEL(hr_red_kernel_dot_general);
HR_RED_KERNEL(hr_red_kernel_dot);
HR_RED_KERNEL(hr_red_kernel_einsum);
HR_RED_KERNEL(hr_red_kernel_unary_einsum);
HR_RED_KERNEL(hr_red_kernel_convolution);
HR_RED_KERNEL(hr_red_kernel_dynamic_conv);
HR_RED_KERNEL(hr_red_kernel_fft);
HR_RED_KERNEL(hr_red_kernel_triangular_solve);
HR_RED_KERNEL(hr_red_kernel_cholesky);
HR_RED_KERNEL(hr_red_kernel_rng_bit_generator);
HR_RED_KERNEL(hr_red_kernel_batch_norm_inference);
HR_RED_KERNEL(hr_red_kernel_batch_norm_training);
HR_RED_KERNEL(hr_red_kernel_batch_norm_grad);
HR_RED_KERNEL(hr_red_kernel_collective);
HR_RED_KERNEL(hr_red_kernel_collective_permute);
HR_RED_KERNEL(hr_red_kernel_process_id);
HR_RED_KERNEL(hr_red_kernel_infeed);
HR_RED_KERNEL(hr_red_kernel_outfeed);
HR_RED_KERNEL(hr_red_kernel_send);
HR_RED_KERNEL(hr_red_kernel_recv);

#endif /* HLORUN_INTERP_REDUCE_H */

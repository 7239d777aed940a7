/* The custom-call targets hlorun runs: those of JAX's CPU runtime that real exported programs call
 * (LAPACK and BLAS through Debian's liblapack/libblas, ...), in both ABIs JAX has used: the old one,
 * whose operands begin with scalars encoding the dimensions and options (api_version 2), and the
 * typed FFI (`*_ffi`), whose options are in `mhlo.backend_config`.
 *
 * A target is one function in a family file (custom_call_*.c), listed once in the registry
 * (custom_call.c) under a name pattern: '?' stands for the element type letter (s f32, d f64,
 * c complex64, z complex128), and "_ffi" may follow the whole name when the family has that form.
 * The GPU solver targets of the same semantics (cusolver_potrf_ffi, ...) are listed beside them and
 * run by the same functions, so that a program exported for a GPU runs here too.
 * Matrices are the last two dimensions of an operand, every leading dimension a batch; the
 * operand and result layouts JAX writes (column-major matrices) describe the buffers jaxlib
 * sees, so a target works on the logical arrays: it copies each matrix to column-major scratch
 * for LAPACK and back. */
#ifndef HLORUN_INTERP_CUSTOM_CALL_H
#define HLORUN_INTERP_CUSTOM_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "interp/interp.h"

/* One call of a target: the op, its operands, its results (allocated with their types and
 * zero-filled), and what the target's name says. */
typedef struct hr_cc_call {
  hr_interp *in;
  const hr_op *op;
  hr_tensor *const *operands;
  hr_tensor **results;
  hr_dtype dtype; /* the element type named by the name's letter (GPU targets: operand 0's) */
  bool ffi;       /* the typed FFI form */
  bool gpu;       /* a GPU target (cusolver_*, hipsolver_*, ...) run by the CPU kernel of the same
                     semantics; its options are spelled as on the GPU (`lower = true`) */
} hr_cc_call;

typedef hr_status (*hr_cc_fn)(const hr_cc_call *c);

/* The function of custom-call target `name` and what its name says (the call's dtype, ffi and
 * gpu fields; c->op set); false when hlorun has no such target. */
bool hr_cc_lookup(const char *name, hr_cc_fn *fn, hr_cc_call *c);

/* Whether op `op` (a custom_call) can be run: its target is known (check.*, shape_assertion or
 * a registered target); else UNIMPLEMENTED naming the target. */
hr_status hr_cc_supported(const hr_op *op);

/* Runs a registered target for the custom_call `op`. */
hr_status hr_cc_run(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results);

/* ---- helpers for the targets ---- */

/* Integer scalar operand `i` (the old ABI's dimensions and options). */
hr_status hr_cc_scalar(const hr_cc_call *c, int i, int64_t *out);
/* Integer entry `key` of the op's mhlo.backend_config (the FFI's options, e.g. uplo = 76 : ui8);
 * *out = dflt when absent. */
hr_status hr_cc_config(const hr_cc_call *c, const char *key, int64_t dflt, int64_t *out);
/* A batch of matrices: the tensor's last two dimensions and the product of the others. Fails,
 * naming `what`, below rank 2, when the element type is not the target's, or when a dimension
 * exceeds LAPACK's 32-bit integers. */
typedef struct hr_cc_matrices {
  int64_t batch, rows, cols;
} hr_cc_matrices;
hr_status hr_cc_matrices_of(const hr_cc_call *c, const hr_tensor *t, const char *what, hr_cc_matrices *out);
/* Fails unless result `i` holds `n` elements of `dtype`, naming it `what`. */
hr_status hr_cc_want(const hr_cc_call *c, int i, hr_dtype dtype, int64_t n, const char *what);

/* The real element type of a float or complex type (c64 -> f32). */
hr_dtype hr_cc_real(hr_dtype t);

/* Matrix `k` of a row-major batch (rows x cols each, elements of `size` bytes) copied into
 * column-major scratch `col` (leading dimension rows), and back. */
void hr_cc_to_col(const void *batch, int64_t k, int64_t rows, int64_t cols, size_t size, void *col);
void hr_cc_from_col(const void *col, int64_t rows, int64_t cols, size_t size, void *batch, int64_t k);

/* Allocates scratch of n elements of `size` bytes (at least one), zero-filled; OUT_OF_MEMORY
 * naming the op. Free with hr_cc_free. */
hr_status hr_cc_scratch(const hr_cc_call *c, int64_t n, size_t size, void **out);
void hr_cc_free(const hr_cc_call *c, void *p);

/* LU of the matrices of operand `a_i` into results 0 (L and U) and 1 (LAPACK's 1-based pivots,
 * i32), LAPACK's info into result `info_i` (i32, one per matrix; none when < 0): getrf's core,
 * shared with XLA's LuDecomposition. */
hr_status hr_cc_getrf_into(const hr_cc_call *c, int a_i, int info_i);
/* Eigendecomposition (LAPACK ?syevd / ?heevd, job `jobz`, triangle `uplo`) of the matrices of
 * operand `a_i` into results 0 (eigenvectors, columns) and 1 (eigenvalues, ascending), info into
 * result `info_i` (none when < 0): syevd's core, shared with XLA's Eigh and the GPU syevj. */
hr_status hr_cc_syevd_into(const hr_cc_call *c, int a_i, char uplo, char jobz, int info_i);

/* The permutation `perm` (p entries) that 0-based `pivots` (k entries) make of the identity: row i
 * swapped with row pivots[i] for i = 0 .. k-1 in order, a pivot outside [0, p) passed over (as
 * jaxlib's lu_pivots_to_permutation kernel does). */
void hr_cc_permutation_of(const int32_t *pivots, int64_t k, int32_t *perm, int64_t p);

/* The targets of each family (custom_call_lapack_*.c). */
hr_status hr_cc_potrf(const hr_cc_call *c);
hr_status hr_cc_getrf(const hr_cc_call *c);
hr_status hr_cc_geqrf(const hr_cc_call *c);
hr_status hr_cc_orgqr(const hr_cc_call *c);
hr_status hr_cc_trsm(const hr_cc_call *c);
hr_status hr_cc_syevd(const hr_cc_call *c);
hr_status hr_cc_gesdd(const hr_cc_call *c);
hr_status hr_cc_gehrd(const hr_cc_call *c);
hr_status hr_cc_sytrd(const hr_cc_call *c);
hr_status hr_cc_gtsv(const hr_cc_call *c);
hr_status hr_cc_geev(const hr_cc_call *c);
hr_status hr_cc_gees(const hr_cc_call *c);
hr_status hr_cc_top_k(const hr_cc_call *c);     /* custom_call_top_k.c */
hr_status hr_cc_ducc_fft(const hr_cc_call *c);  /* custom_call_fft.c */
hr_status hr_cc_lu_pivots_to_permutation(const hr_cc_call *c); /* custom_call_gpu.c */
hr_status hr_cc_threefry2x32(const hr_cc_call *c);
hr_status hr_cc_identity(const hr_cc_call *c);
hr_status hr_cc_gpu_syev(const hr_cc_call *c); /* the old GPU ABI's solvers */
hr_status hr_cc_gpu_geqrf(const hr_cc_call *c);
hr_status hr_cc_gpu_orgqr(const hr_cc_call *c);
hr_status hr_cc_gpu_threefry2x32(const hr_cc_call *c);
hr_status hr_cc_eigh(const hr_cc_call *c); /* custom_call_xla.c */
hr_status hr_cc_lu_decomposition(const hr_cc_call *c);
hr_status hr_cc_allocate_buffer(const hr_cc_call *c);
hr_status hr_cc_approx_top_k(const hr_cc_call *c); /* custom_call_top_k.c */
hr_status hr_cc_dynamic_reduce_window(const hr_cc_call *c); /* custom_call_window.c */

#endif

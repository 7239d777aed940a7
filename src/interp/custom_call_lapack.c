/* jaxlib's CPU LAPACK and BLAS targets (custom_call.h): Cholesky (potrf), LU (getrf), QR (geqrf,
 * orgqr/ungqr), triangular solve (trsm), symmetric/Hermitian eigendecomposition (syevd/heevd) and
 * SVD (gesdd), each batched over the leading dimensions, in the old ABI and the FFI.
 *
 * What each target computes is what jaxlib's kernel does with the same LAPACK routine (the
 * arguments, job options and leading dimensions it passes): results are LAPACK's, info outputs
 * are LAPACK's info per matrix, and workspace outputs of the old ABI are left zero (no JAX
 * program reads them). The NaN fill of failed factorizations is the JAX program's own work. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "base/elem.h"
#include "interp/custom_call.h"

/* The matrices of one call: each copied to column-major scratch, worked on, copied back. */
typedef struct work_matrix {
  hr_tensor *t; /* the result holding the batch (row-major) */
  int64_t rows, cols;
  void *col; /* one matrix, column-major */
} work_matrix;

static hr_status matrix_begin(const hr_cc_call *c, hr_tensor *t, int64_t rows, int64_t cols, work_matrix *m) {
  *m = (work_matrix){t, rows, cols, NULL};
  return hr_cc_scratch(c, rows * cols, hr_dtype_size(t->dtype), &m->col);
}
static void matrix_load(work_matrix *m, int64_t k) {
  hr_cc_to_col(m->t->data, k, m->rows, m->cols, hr_dtype_size(m->t->dtype), m->col);
}
static void matrix_store(work_matrix *m, int64_t k) {
  hr_cc_from_col(m->col, m->rows, m->cols, hr_dtype_size(m->t->dtype), m->t->data, k);
}

/* Copies operand `from` into result `to` (the in-place outputs), which must have its type. */
static hr_status copy_operand(const hr_cc_call *c, int from, int to) {
  const hr_tensor *a = c->operands[from];
  hr_tensor *r = c->results[to];
  if (r->dtype != a->dtype || r->nbytes != a->nbytes)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "result %d must have the type of operand %d", to, from);
  memcpy(r->data, a->data, a->nbytes);
  return NULL;
}

/* Stores LAPACK's info of matrix k into result `i` (int32, one per matrix), when there is one. */
static void store_info(const hr_cc_call *c, int i, int64_t k, lapack_int info) {
  if (i < c->op->n_results && c->results[i]->dtype == HR_I32 && (int64_t)(c->results[i]->nbytes / 4) > k)
    ((int32_t *)c->results[i]->data)[k] = info;
}

/* A character option: the FFI's backend_config entry `key` (a GPU target's `lower` flag for
 * uplo), else old-ABI scalar operand `i` mapped through `yes`/`no` (i < 0: `dflt`). */
static hr_status char_option(const hr_cc_call *c, const char *key, int i, char yes, char no, char dflt, char *out) {
  int64_t v = dflt;
  if (c->gpu && key && strcmp(key, "uplo") == 0) { /* the GPU targets say lower = true */
    HR_TRY(hr_cc_config(c, "lower", dflt == 'L', &v));
    v = v ? 'L' : 'U';
  } else if (c->ffi) HR_TRY(hr_cc_config(c, key, dflt, &v));
  else if (i >= 0) {
    HR_TRY(hr_cc_scalar(c, i, &v));
    v = v ? yes : no;
  }
  *out = (char)v;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* potrf                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

static lapack_int potrf(hr_dtype t, char uplo, lapack_int n, void *a) {
  switch (t) {
    case HR_F32: return LAPACKE_spotrf_work(LAPACK_COL_MAJOR, uplo, n, a, n);
    case HR_F64: return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, uplo, n, a, n);
    case HR_C64: return LAPACKE_cpotrf_work(LAPACK_COL_MAJOR, uplo, n, a, n);
    default: return LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, uplo, n, a, n);
  }
}

/* Reference LAPACK's potrf stops at the first pivot that is not positive or is NaN (info: its
 * 1-based index); an optimized LAPACK (OpenBLAS, when the system's alternative points there) lets a
 * NaN through with info 0. A NaN propagates down the factor's diagonal, so the first NaN there is
 * that pivot: the info reference LAPACK gives, whichever LAPACK the system has. */
static lapack_int potrf_nan_info(hr_dtype t, lapack_int n, const void *a, lapack_int info) {
  for (lapack_int j = 0; info == 0 && j < n; j++) {
    int64_t at = (int64_t)j * n + j;
    hr_c128 v = hr_dtype_is_complex(t) ? hr_load_complex(t, a, at) : (hr_c128){hr_load_float(t, a, at), 0};
    if (isnan(v.re) || isnan(v.im)) return j + 1;
  }
  return info;
}

/* old: (lower, batch, n, a) -> (a, info); FFI: (a) {uplo} -> (a, info). */
hr_status hr_cc_potrf(const hr_cc_call *c) {
  int a_i = c->ffi ? 0 : 3;
  char uplo;
  HR_TRY(char_option(c, "uplo", c->ffi ? -1 : 0, 'L', 'U', 'L', &uplo));
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  if (m.rows != m.cols) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "potrf needs square matrices");
  HR_TRY(copy_operand(c, a_i, 0));
  work_matrix w;
  HR_TRY(matrix_begin(c, c->results[0], m.rows, m.cols, &w));
  for (int64_t k = 0; k < m.batch; k++) {
    matrix_load(&w, k);
    lapack_int n = (lapack_int)m.rows;
    store_info(c, 1, k, potrf_nan_info(c->dtype, n, w.col, potrf(c->dtype, uplo, n, w.col)));
    matrix_store(&w, k);
  }
  hr_cc_free(c, w.col);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* getrf                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

static lapack_int getrf(hr_dtype t, lapack_int m, lapack_int n, void *a, lapack_int *ipiv) {
  switch (t) {
    case HR_F32: return LAPACKE_sgetrf_work(LAPACK_COL_MAJOR, m, n, a, m, ipiv);
    case HR_F64: return LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, m, n, a, m, ipiv);
    case HR_C64: return LAPACKE_cgetrf_work(LAPACK_COL_MAJOR, m, n, a, m, ipiv);
    default: return LAPACKE_zgetrf_work(LAPACK_COL_MAJOR, m, n, a, m, ipiv);
  }
}

hr_status hr_cc_getrf_into(const hr_cc_call *c, int a_i, int info_i) {
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  int64_t k_min = m.rows < m.cols ? m.rows : m.cols;
  HR_TRY(copy_operand(c, a_i, 0));
  HR_TRY(hr_cc_want(c, 1, HR_I32, m.batch * k_min, "pivots"));
  work_matrix w;
  HR_TRY(matrix_begin(c, c->results[0], m.rows, m.cols, &w));
  int32_t *ipiv = c->results[1]->data;
  for (int64_t k = 0; k < m.batch; k++) {
    matrix_load(&w, k);
    lapack_int info = getrf(c->dtype, (lapack_int)m.rows, (lapack_int)m.cols, w.col, ipiv + k * k_min);
    if (info_i >= 0) store_info(c, info_i, k, info);
    matrix_store(&w, k);
  }
  hr_cc_free(c, w.col);
  return NULL;
}

/* old: (batch, m, n, a) -> (a, ipiv, info); FFI: (a) -> (a, ipiv, info). Pivots are LAPACK's,
 * 1-based. */
hr_status hr_cc_getrf(const hr_cc_call *c) { return hr_cc_getrf_into(c, c->ffi ? 0 : 3, 2); }

/* ---------------------------------------------------------------------------------------------- */
/* geqrf, orgqr / ungqr                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* ?geqrf (lwork -1: a workspace query into work[0]). */
static lapack_int geqrf(hr_dtype t, lapack_int m, lapack_int n, void *a, void *tau, void *work, lapack_int lwork) {
  switch (t) {
    case HR_F32: return LAPACKE_sgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
    case HR_F64: return LAPACKE_dgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
    case HR_C64: return LAPACKE_cgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
    default: return LAPACKE_zgeqrf_work(LAPACK_COL_MAJOR, m, n, a, m, tau, work, lwork);
  }
}

/* ?orgqr / ?ungqr (lwork -1: a workspace query). */
static lapack_int orgqr(hr_dtype t, lapack_int m, lapack_int n, lapack_int k, void *a, const void *tau, void *work,
                        lapack_int lwork) {
  switch (t) {
    case HR_F32: return LAPACKE_sorgqr_work(LAPACK_COL_MAJOR, m, n, k, a, m, tau, work, lwork);
    case HR_F64: return LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, m, n, k, a, m, tau, work, lwork);
    case HR_C64: return LAPACKE_cungqr_work(LAPACK_COL_MAJOR, m, n, k, a, m, tau, work, lwork);
    default: return LAPACKE_zungqr_work(LAPACK_COL_MAJOR, m, n, k, a, m, tau, work, lwork);
  }
}

/* The workspace size a query wrote into `probe` (the real part of its first element). */
static lapack_int queried(hr_dtype t, const void *probe) {
  double v = hr_dtype_is_complex(t) ? hr_load_complex(t, probe, 0).re : hr_load_float(t, probe, 0);
  return v >= 1 && v < 1e9 ? (lapack_int)v : 1;
}

/* The in-place matrix of a call and LAPACK's work array, whose size a query wrote into probe. */
typedef struct lapack_work {
  work_matrix m;
  void *work;
  lapack_int lwork;
} lapack_work;

static hr_status work_begin(const hr_cc_call *c, hr_tensor *t, int64_t rows, int64_t cols, const hr_c128 *probe,
                            lapack_work *w) {
  w->lwork = queried(c->dtype, probe);
  w->work = NULL;
  HR_TRY(matrix_begin(c, t, rows, cols, &w->m));
  return hr_cc_scratch(c, w->lwork, hr_dtype_size(c->dtype), &w->work);
}

static void work_end(const hr_cc_call *c, lapack_work *w) {
  hr_cc_free(c, w->work);
  hr_cc_free(c, w->m.col);
}

/* old: (batch, m, n, lwork, a) -> (a, tau, info, work); FFI: (a) -> (a, tau[, info, work]). */
hr_status hr_cc_geqrf(const hr_cc_call *c) {
  int a_i = c->ffi ? 0 : 4;
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  int64_t k_min = m.rows < m.cols ? m.rows : m.cols;
  HR_TRY(copy_operand(c, a_i, 0));
  HR_TRY(hr_cc_want(c, 1, c->dtype, m.batch * k_min, "tau"));
  size_t size = hr_dtype_size(c->dtype);
  hr_c128 probe[1];
  geqrf(c->dtype, (lapack_int)m.rows, (lapack_int)m.cols, NULL, NULL, probe, -1);
  lapack_work w = {0};
  hr_status s = work_begin(c, c->results[0], m.rows, m.cols, probe, &w);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    matrix_load(&w.m, k);
    void *tau = (char *)c->results[1]->data + (size_t)(k * k_min) * size;
    store_info(c, 2, k, geqrf(c->dtype, (lapack_int)m.rows, (lapack_int)m.cols, w.m.col, tau, w.work, w.lwork));
    matrix_store(&w.m, k);
  }
  work_end(c, &w);
  return s;
}

/* old: (batch, m, n, k, lwork, a, tau) -> (a, info, work); FFI: (a, tau) -> (a[, info, work]). */
hr_status hr_cc_orgqr(const hr_cc_call *c) {
  int a_i = c->ffi ? 0 : 5;
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  const hr_tensor *tau = c->operands[a_i + 1];
  int64_t n_tau = tau->shape.rank ? tau->shape.dims[tau->shape.rank - 1] : 0;
  if (tau->dtype != c->dtype || n_tau > m.cols || n_tau * m.batch * (int64_t)hr_dtype_size(c->dtype) != (int64_t)tau->nbytes)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "tau must hold at most %lld elements per matrix", (long long)m.cols);
  HR_TRY(copy_operand(c, a_i, 0));
  size_t size = hr_dtype_size(c->dtype);
  hr_c128 probe[1];
  orgqr(c->dtype, (lapack_int)m.rows, (lapack_int)m.cols, (lapack_int)n_tau, NULL, NULL, probe, -1);
  lapack_work w = {0};
  hr_status s = work_begin(c, c->results[0], m.rows, m.cols, probe, &w);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    matrix_load(&w.m, k);
    const void *t = (const char *)tau->data + (size_t)(k * n_tau) * size;
    lapack_int info = orgqr(c->dtype, (lapack_int)m.rows, (lapack_int)m.cols, (lapack_int)n_tau, w.m.col, t, w.work, w.lwork);
    store_info(c, 1, k, info);
    matrix_store(&w.m, k);
  }
  work_end(c, &w);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* trsm                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* The options of a triangular solve as LAPACK's characters. */
typedef struct trsm_options {
  char side, uplo, trans, diag;
} trsm_options;

/* old: (left_side, lower, trans_a (0 N, 1 T, 2 C), unit_diagonal, m, n, batch, alpha, a, b);
 * FFI: (a, b[, alpha]) {side, uplo, trans_x, diag}. */
static hr_status trsm_options_of(const hr_cc_call *c, trsm_options *o) {
  if (c->ffi) {
    char *fields[4] = {&o->side, &o->uplo, &o->trans, &o->diag};
    const char *keys[4] = {"side", "uplo", "trans_x", "diag"};
    const char dflt[4] = {'L', 'L', 'N', 'N'};
    for (int i = 0; i < 4; i++) HR_TRY(char_option(c, keys[i], -1, 0, 0, dflt[i], fields[i]));
    return NULL;
  }
  int64_t trans;
  HR_TRY(char_option(c, NULL, 0, 'L', 'R', 'L', &o->side));
  HR_TRY(char_option(c, NULL, 1, 'L', 'U', 'L', &o->uplo));
  HR_TRY(hr_cc_scalar(c, 2, &trans));
  o->trans = trans == 1 ? 'T' : trans == 2 ? 'C' : 'N';
  return char_option(c, NULL, 3, 'U', 'N', 'N', &o->diag);
}

static void trsm(hr_dtype t, const trsm_options *o, int m, int n, const void *alpha, const void *a, int lda, void *b) {
  enum CBLAS_SIDE side = o->side == 'L' ? CblasLeft : CblasRight;
  enum CBLAS_UPLO uplo = o->uplo == 'L' ? CblasLower : CblasUpper;
  enum CBLAS_TRANSPOSE trans = o->trans == 'T' ? CblasTrans : o->trans == 'C' ? CblasConjTrans : CblasNoTrans;
  enum CBLAS_DIAG diag = o->diag == 'U' ? CblasUnit : CblasNonUnit;
  switch (t) {
    case HR_F32: cblas_strsm(CblasColMajor, side, uplo, trans, diag, m, n, *(const float *)alpha, a, lda, b, m); break;
    case HR_F64: cblas_dtrsm(CblasColMajor, side, uplo, trans, diag, m, n, *(const double *)alpha, a, lda, b, m); break;
    case HR_C64: cblas_ctrsm(CblasColMajor, side, uplo, trans, diag, m, n, alpha, a, lda, b, m); break;
    default: cblas_ztrsm(CblasColMajor, side, uplo, trans, diag, m, n, alpha, a, lda, b, m); break;
  }
}

hr_status hr_cc_trsm(const hr_cc_call *c) {
  int a_i = c->ffi ? 0 : 8, b_i = a_i + 1, alpha_i = c->ffi ? 2 : 7;
  trsm_options o;
  HR_TRY(trsm_options_of(c, &o));
  hr_cc_matrices ma, mb;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "triangular matrix", &ma));
  HR_TRY(hr_cc_matrices_of(c, c->operands[b_i], "right-hand side", &mb));
  int64_t order = o.side == 'L' ? mb.rows : mb.cols;
  if (ma.rows != order || ma.cols != order || ma.batch != mb.batch)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the triangular matrix must be %lldx%lld per right-hand side",
                       (long long)order, (long long)order);
  /* lapack_?trsm_ffi has no alpha operand: 1, as a (complex) float or double */
  static const float one_f[2] = {1, 0};
  static const double one_d[2] = {1, 0};
  const void *alpha = c->dtype == HR_F32 || c->dtype == HR_C64 ? (const void *)one_f : (const void *)one_d;
  if (!c->ffi || c->op->n_operands > 2) {
    const hr_tensor *t = c->operands[alpha_i];
    if (t->dtype != c->dtype || t->shape.rank != 0)
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "alpha must be a scalar of the target's type");
    alpha = t->data;
  }
  HR_TRY(copy_operand(c, b_i, 0));
  work_matrix wa = {0}, wb = {0};
  hr_status s = matrix_begin(c, c->operands[a_i], order, order, &wa); /* read only: never stored */
  if (!s) s = matrix_begin(c, c->results[0], mb.rows, mb.cols, &wb);
  for (int64_t k = 0; !s && k < mb.batch; k++) {
    matrix_load(&wa, k);
    matrix_load(&wb, k);
    trsm(c->dtype, &o, (int)mb.rows, (int)mb.cols, alpha, wa.col, (int)order, wb.col);
    matrix_store(&wb, k);
  }
  hr_cc_free(c, wa.col);
  hr_cc_free(c, wb.col);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* syevd / heevd                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* Workspaces of one eigendecomposition (sizes queried from LAPACK). */
typedef struct eig_work {
  void *work, *rwork;
  lapack_int *iwork;
  lapack_int lwork, lrwork, liwork;
} eig_work;

/* ?syevd / ?heevd; with lwork == -1 a workspace query. */
static lapack_int syevd(hr_dtype t, char jobz, char uplo, lapack_int n, void *a, void *w, eig_work *e) {
  switch (t) {
    case HR_F32: return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, n, w, e->work, e->lwork, e->iwork, e->liwork);
    case HR_F64: return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, n, w, e->work, e->lwork, e->iwork, e->liwork);
    case HR_C64:
      return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, n, w, e->work, e->lwork, e->rwork, e->lrwork, e->iwork,
                                 e->liwork);
    default:
      return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, n, w, e->work, e->lwork, e->rwork, e->lrwork, e->iwork,
                                 e->liwork);
  }
}

/* Allocates the workspaces syevd needs for order n (a query first). */
static hr_status eig_work_alloc(const hr_cc_call *c, char jobz, char uplo, lapack_int n, eig_work *e) {
  hr_c128 work_probe[1];
  double rwork_probe[1];
  lapack_int iwork_probe[1];
  *e = (eig_work){work_probe, rwork_probe, iwork_probe, -1, -1, -1};
  syevd(c->dtype, jobz, uplo, n, NULL, NULL, e);
  hr_dtype real = hr_cc_real(c->dtype);
  e->lwork = queried(c->dtype, work_probe);
  e->lrwork = queried(real, rwork_probe);
  e->liwork = iwork_probe[0] > 0 ? iwork_probe[0] : 1;
  e->work = e->rwork = NULL;
  e->iwork = NULL;
  HR_TRY(hr_cc_scratch(c, e->lwork, hr_dtype_size(c->dtype), &e->work));
  HR_TRY(hr_cc_scratch(c, e->lrwork, hr_dtype_size(real), &e->rwork));
  return hr_cc_scratch(c, e->liwork, sizeof(lapack_int), (void **)&e->iwork);
}

static void eig_work_free(const hr_cc_call *c, eig_work *e) {
  hr_cc_free(c, e->work);
  hr_cc_free(c, e->rwork);
  hr_cc_free(c, e->iwork);
}

hr_status hr_cc_syevd_into(const hr_cc_call *c, int a_i, char uplo, char jobz, int info_i) {
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  if (m.rows != m.cols) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "syevd needs square matrices");
  HR_TRY(copy_operand(c, a_i, 0));
  hr_dtype real = hr_cc_real(c->dtype);
  HR_TRY(hr_cc_want(c, 1, real, m.batch * m.rows, "eigenvalues"));
  work_matrix w = {0};
  eig_work e = {0};
  hr_status s = matrix_begin(c, c->results[0], m.rows, m.cols, &w);
  if (!s) s = eig_work_alloc(c, jobz, uplo, (lapack_int)m.rows, &e);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    matrix_load(&w, k);
    void *vals = (char *)c->results[1]->data + (size_t)(k * m.rows) * hr_dtype_size(real);
    lapack_int info = syevd(c->dtype, jobz, uplo, (lapack_int)m.rows, w.col, vals, &e);
    if (info_i >= 0) store_info(c, info_i, k, info);
    matrix_store(&w, k);
  }
  eig_work_free(c, &e);
  hr_cc_free(c, w.col);
  return s;
}

/* old: (lower, batch, n, a) -> (v, w, info, work, [rwork,] iwork) with eigenvectors always;
 * FFI: (a) {uplo, mode ('V' / 'N')} -> (v, w, info, ...). Eigenvalues are real, ascending. */
hr_status hr_cc_syevd(const hr_cc_call *c) {
  char uplo, jobz;
  HR_TRY(char_option(c, "uplo", c->ffi ? -1 : 0, 'L', 'U', 'L', &uplo));
  HR_TRY(char_option(c, "mode", -1, 0, 0, 'V', &jobz));
  return hr_cc_syevd_into(c, c->ffi ? 0 : 3, uplo, jobz, 2);
}

/* ---------------------------------------------------------------------------------------------- */
/* gesdd                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* ?gesdd; with lwork == -1 a workspace query. */
static lapack_int gesdd(hr_dtype t, char jobz, lapack_int m, lapack_int n, void *a, void *s, void *u, lapack_int ldvt,
                        void *vt, eig_work *e) {
  switch (t) {
    case HR_F32: return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, m, vt, ldvt, e->work, e->lwork, e->iwork);
    case HR_F64: return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, m, vt, ldvt, e->work, e->lwork, e->iwork);
    case HR_C64:
      return LAPACKE_cgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, m, vt, ldvt, e->work, e->lwork, e->rwork, e->iwork);
    default:
      return LAPACKE_zgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, m, s, u, m, vt, ldvt, e->work, e->lwork, e->rwork, e->iwork);
  }
}

/* The SVD's job: the FFI's mode, or the old ABI's (full_matrices, compute_uv) as jaxlib maps them. */
static hr_status svd_job(const hr_cc_call *c, char *jobz) {
  if (c->ffi) {
    HR_TRY(char_option(c, "mode", -1, 0, 0, 'A', jobz));
    if (*jobz != 'A' && *jobz != 'S' && *jobz != 'N')
      return hr_op_error(c->op, HR_UNIMPLEMENTED, "gesdd mode '%c' is not supported (jaxlib has none either)", *jobz);
    return NULL;
  }
  int64_t full, uv;
  HR_TRY(hr_cc_scalar(c, 0, &full));
  HR_TRY(hr_cc_scalar(c, 1, &uv));
  *jobz = !uv ? 'N' : !full ? 'S' : 'A';
  return NULL;
}

/* Allocates gesdd's workspaces: work (queried), rwork (LAPACK's documented size) and iwork. */
static hr_status svd_work_alloc(const hr_cc_call *c, char jobz, lapack_int m, lapack_int n, lapack_int ldvt, eig_work *e) {
  int64_t mn = m < n ? m : n, mx = m < n ? n : m;
  hr_c128 probe[1];
  *e = (eig_work){probe, NULL, NULL, -1, 0, 0};
  lapack_int iwork_probe[1];
  e->iwork = iwork_probe;
  double rwork_probe[1];
  e->rwork = rwork_probe;
  gesdd(c->dtype, jobz, m, n, NULL, NULL, NULL, ldvt, NULL, e);
  e->lwork = queried(c->dtype, probe);
  int64_t lrwork = jobz == 'N' ? 7 * mn : (5 * mn * mn + 5 * mn > 2 * mx * mn + 2 * mn * mn + mn ? 5 * mn * mn + 5 * mn
                                                                                                  : 2 * mx * mn + 2 * mn * mn + mn);
  e->work = e->rwork = NULL;
  e->iwork = NULL;
  HR_TRY(hr_cc_scratch(c, e->lwork, hr_dtype_size(c->dtype), &e->work));
  HR_TRY(hr_cc_scratch(c, lrwork, hr_dtype_size(hr_cc_real(c->dtype)), &e->rwork));
  return hr_cc_scratch(c, 8 * mn, sizeof(lapack_int), (void **)&e->iwork);
}

/* old: (full_matrices, compute_uv, batch, m, n, lwork, a) -> (a, s, u, vt, info, iwork, [rwork,] work);
 * FFI: (a) {mode} -> (a, s, u, vt, info). u is m x m ('A') or m x min(m, n); vt n x n or
 * min(m, n) x n; with 'N' neither is written. */
hr_status hr_cc_gesdd(const hr_cc_call *c) {
  int a_i = c->ffi ? 0 : 6;
  char jobz;
  HR_TRY(svd_job(c, &jobz));
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  int64_t mn = m.rows < m.cols ? m.rows : m.cols;
  int64_t ucols = jobz == 'A' ? m.rows : mn, vrows = jobz == 'A' ? m.cols : mn;
  HR_TRY(copy_operand(c, a_i, 0));
  HR_TRY(hr_cc_want(c, 1, hr_cc_real(c->dtype), m.batch * mn, "singular values"));
  if (jobz != 'N') {
    HR_TRY(hr_cc_want(c, 2, c->dtype, m.batch * m.rows * ucols, "U"));
    HR_TRY(hr_cc_want(c, 3, c->dtype, m.batch * vrows * m.cols, "V^T"));
  }
  work_matrix wa = {0}, wu = {0}, wv = {0};
  eig_work e = {0};
  hr_status s = matrix_begin(c, c->results[0], m.rows, m.cols, &wa);
  if (!s && jobz != 'N') s = matrix_begin(c, c->results[2], m.rows, ucols, &wu);
  if (!s && jobz != 'N') s = matrix_begin(c, c->results[3], vrows, m.cols, &wv);
  if (!s) s = svd_work_alloc(c, jobz, (lapack_int)m.rows, (lapack_int)m.cols, (lapack_int)(vrows > 0 ? vrows : 1), &e);
  size_t real_size = hr_dtype_size(hr_cc_real(c->dtype));
  for (int64_t k = 0; !s && k < m.batch; k++) {
    matrix_load(&wa, k);
    void *sv = (char *)c->results[1]->data + (size_t)(k * mn) * real_size;
    lapack_int info = gesdd(c->dtype, jobz, (lapack_int)m.rows, (lapack_int)m.cols, wa.col, sv, wu.col,
                            (lapack_int)(vrows > 0 ? vrows : 1), wv.col, &e);
    store_info(c, 4, k, info);
    matrix_store(&wa, k);
    if (jobz != 'N') {
      matrix_store(&wu, k);
      matrix_store(&wv, k);
    }
  }
  eig_work_free(c, &e);
  hr_cc_free(c, wa.col);
  hr_cc_free(c, wu.col);
  hr_cc_free(c, wv.col);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* gehrd, sytrd / hetrd                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* ?gehrd (lwork -1: a workspace query). */
static lapack_int gehrd(hr_dtype t, lapack_int n, lapack_int ilo, lapack_int ihi, void *a, void *tau, void *work,
                        lapack_int lwork) {
  switch (t) {
    case HR_F32: return LAPACKE_sgehrd_work(LAPACK_COL_MAJOR, n, ilo, ihi, a, n, tau, work, lwork);
    case HR_F64: return LAPACKE_dgehrd_work(LAPACK_COL_MAJOR, n, ilo, ihi, a, n, tau, work, lwork);
    case HR_C64: return LAPACKE_cgehrd_work(LAPACK_COL_MAJOR, n, ilo, ihi, a, n, tau, work, lwork);
    default: return LAPACKE_zgehrd_work(LAPACK_COL_MAJOR, n, ilo, ihi, a, n, tau, work, lwork);
  }
}

/* old: (n, ilo, ihi, lda, batch, lwork, a) -> (a, tau, info, work); FFI: (a) {low, high} ->
 * (a, tau, info). tau holds n - 1 elements per matrix. */
hr_status hr_cc_gehrd(const hr_cc_call *c) {
  int a_i = c->ffi ? 0 : 6;
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  if (m.rows != m.cols || m.rows < 1) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "gehrd needs square matrices");
  int64_t ilo, ihi;
  if (c->ffi) {
    HR_TRY(hr_cc_config(c, "low", 1, &ilo));
    HR_TRY(hr_cc_config(c, "high", m.rows, &ihi));
  } else {
    HR_TRY(hr_cc_scalar(c, 1, &ilo));
    HR_TRY(hr_cc_scalar(c, 2, &ihi));
  }
  if (ilo < 1 || ihi < ilo || ihi > m.rows)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "gehrd needs 1 <= low <= high <= %lld", (long long)m.rows);
  HR_TRY(copy_operand(c, a_i, 0));
  HR_TRY(hr_cc_want(c, 1, c->dtype, m.batch * (m.rows - 1), "tau"));
  size_t size = hr_dtype_size(c->dtype);
  hr_c128 probe[1];
  gehrd(c->dtype, (lapack_int)m.rows, (lapack_int)ilo, (lapack_int)ihi, NULL, NULL, probe, -1);
  lapack_work w = {0};
  hr_status s = work_begin(c, c->results[0], m.rows, m.cols, probe, &w);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    matrix_load(&w.m, k);
    void *tau = (char *)c->results[1]->data + (size_t)(k * (m.rows - 1)) * size;
    lapack_int info = gehrd(c->dtype, (lapack_int)m.rows, (lapack_int)ilo, (lapack_int)ihi, w.m.col, tau, w.work, w.lwork);
    store_info(c, 2, k, info);
    matrix_store(&w.m, k);
  }
  work_end(c, &w);
  return s;
}

/* ?sytrd / ?hetrd (lwork -1: a workspace query). */
static lapack_int sytrd(hr_dtype t, char uplo, lapack_int n, void *a, void *d, void *e, void *tau, void *work,
                        lapack_int lwork) {
  switch (t) {
    case HR_F32: return LAPACKE_ssytrd_work(LAPACK_COL_MAJOR, uplo, n, a, n, d, e, tau, work, lwork);
    case HR_F64: return LAPACKE_dsytrd_work(LAPACK_COL_MAJOR, uplo, n, a, n, d, e, tau, work, lwork);
    case HR_C64: return LAPACKE_chetrd_work(LAPACK_COL_MAJOR, uplo, n, a, n, d, e, tau, work, lwork);
    default: return LAPACKE_zhetrd_work(LAPACK_COL_MAJOR, uplo, n, a, n, d, e, tau, work, lwork);
  }
}

/* old: (n, lower, lda, batch, lwork, a) -> (a, d, e, tau, info, work); FFI: (a) {uplo} ->
 * (a, d, e, tau, info). d (real) holds n elements per matrix, e (real) and tau n - 1. */
hr_status hr_cc_sytrd(const hr_cc_call *c) {
  int a_i = c->ffi ? 0 : 5;
  char uplo;
  HR_TRY(char_option(c, "uplo", c->ffi ? -1 : 1, 'L', 'U', 'L', &uplo));
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  if (m.rows != m.cols || m.rows < 1) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "sytrd needs square matrices");
  hr_dtype real = hr_cc_real(c->dtype);
  int64_t n = m.rows;
  HR_TRY(copy_operand(c, a_i, 0));
  HR_TRY(hr_cc_want(c, 1, real, m.batch * n, "diagonal"));
  HR_TRY(hr_cc_want(c, 2, real, m.batch * (n - 1), "off-diagonal"));
  HR_TRY(hr_cc_want(c, 3, c->dtype, m.batch * (n - 1), "tau"));
  size_t size = hr_dtype_size(c->dtype), rsize = hr_dtype_size(real);
  hr_c128 probe[1];
  sytrd(c->dtype, uplo, (lapack_int)n, NULL, NULL, NULL, NULL, probe, -1);
  lapack_work w = {0};
  hr_status s = work_begin(c, c->results[0], n, n, probe, &w);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    matrix_load(&w.m, k);
    char *d = (char *)c->results[1]->data + (size_t)(k * n) * rsize;
    char *e = (char *)c->results[2]->data + (size_t)(k * (n - 1)) * rsize;
    char *tau = (char *)c->results[3]->data + (size_t)(k * (n - 1)) * size;
    store_info(c, 4, k, sytrd(c->dtype, uplo, (lapack_int)n, w.m.col, d, e, tau, w.work, w.lwork));
    matrix_store(&w.m, k);
  }
  work_end(c, &w);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* gtsv                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

static lapack_int gtsv(hr_dtype t, lapack_int n, lapack_int nrhs, void *dl, void *d, void *du, void *b) {
  switch (t) {
    case HR_F32: return LAPACKE_sgtsv_work(LAPACK_COL_MAJOR, n, nrhs, dl, d, du, b, n);
    case HR_F64: return LAPACKE_dgtsv_work(LAPACK_COL_MAJOR, n, nrhs, dl, d, du, b, n);
    case HR_C64: return LAPACKE_cgtsv_work(LAPACK_COL_MAJOR, n, nrhs, dl, d, du, b, n);
    default: return LAPACKE_zgtsv_work(LAPACK_COL_MAJOR, n, nrhs, dl, d, du, b, n);
  }
}

/* FFI: (dl, d, du, b) -> (dl, d, du, x, info); cusparse_gtsv2_ffi: -> (x). The diagonals hold n
 * elements per system (dl[0] and du[n-1] unused, as JAX passes them); LAPACK overwrites them as it
 * eliminates (in the results, or in scratch when there are none for them). */
hr_status hr_cc_gtsv(const hr_cc_call *c) {
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[3], "right-hand side", &m));
  int64_t n = m.rows;
  size_t size = hr_dtype_size(c->dtype), diag_bytes = (size_t)(m.batch * n) * size;
  for (int i = 0; i < 3; i++)
    if (c->operands[i]->dtype != c->dtype || c->operands[i]->nbytes != diag_bytes)
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "diagonal %d must hold %lld elements per system", i, (long long)n);
  bool x_only = c->op->n_results == 1;
  char *diags[3], *scratch = NULL;
  if (x_only) HR_TRY(hr_cc_scratch(c, 3 * m.batch * n, size, (void **)&scratch));
  for (int i = 0; i < 3; i++) {
    diags[i] = x_only ? scratch + (size_t)i * diag_bytes : c->results[i]->data;
    memcpy(diags[i], c->operands[i]->data, diag_bytes);
  }
  work_matrix w = {0};
  hr_status s = copy_operand(c, 3, x_only ? 0 : 3);
  if (!s) s = matrix_begin(c, c->results[x_only ? 0 : 3], n, m.cols, &w);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    size_t at = (size_t)(k * n) * size;
    matrix_load(&w, k);
    lapack_int info = n ? gtsv(c->dtype, (lapack_int)n, (lapack_int)m.cols, diags[0] + at + size, diags[1] + at, diags[2] + at, w.col) : 0;
    if (!x_only) store_info(c, 4, k, info);
    matrix_store(&w, k);
  }
  hr_cc_free(c, w.col);
  hr_cc_free(c, scratch);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* geev                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Whether every element of a column-major scratch matrix of n elements is finite. */
static bool all_finite(hr_dtype t, const void *a, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    hr_c128 v = hr_dtype_is_complex(t) ? hr_load_complex(t, a, i) : (hr_c128){hr_load_float(t, a, i), 0};
    if (!isfinite(v.re) || !isfinite(v.im)) return false;
  }
  return true;
}

/* The eigenvectors of a real ?geev (column-major, pairs of columns j, j+1 holding the real and
 * imaginary parts of a complex pair) as complex columns, into column-major `out` (complex). */
static void unpack_eigenvectors(hr_dtype real, int64_t n, const void *wi, const void *packed, void *out) {
  hr_dtype cplx = real == HR_F32 ? HR_C64 : HR_C128;
  for (int64_t j = 0; j < n;) {
    double im = hr_load_float(real, wi, j);
    bool pair = im != 0 && !isnan(im) && j + 1 < n;
    for (int64_t i = 0; i < n; i++) {
      double re = hr_load_float(real, packed, j * n + i), ip = pair ? hr_load_float(real, packed, (j + 1) * n + i) : 0;
      hr_store_complex(cplx, out, j * n + i, (hr_c128){re, ip});
      if (pair) hr_store_complex(cplx, out, (j + 1) * n + i, (hr_c128){re, -ip});
    }
    j += pair ? 2 : 1;
  }
}

/* One eigendecomposition's buffers: eigenvalues (w, or wr and wi), LAPACK's eigenvectors
 * (column-major; real ones packed) and the complex ones handed out. */
typedef struct geev_job {
  char jobvl, jobvr;
  lapack_int n;
  void *a, *wr, *wi, *vl, *vr, *work, *rwork;
  lapack_int lwork;
} geev_job;

static lapack_int geev(hr_dtype t, geev_job *g) {
  lapack_int n = g->n;
  switch (t) {
    case HR_F32:
      return LAPACKE_sgeev_work(LAPACK_COL_MAJOR, g->jobvl, g->jobvr, n, g->a, n, g->wr, g->wi, g->vl, n, g->vr, n, g->work,
                                g->lwork);
    case HR_F64:
      return LAPACKE_dgeev_work(LAPACK_COL_MAJOR, g->jobvl, g->jobvr, n, g->a, n, g->wr, g->wi, g->vl, n, g->vr, n, g->work,
                                g->lwork);
    case HR_C64:
      return LAPACKE_cgeev_work(LAPACK_COL_MAJOR, g->jobvl, g->jobvr, n, g->a, n, g->wr, g->vl, n, g->vr, n, g->work, g->lwork,
                                g->rwork);
    default:
      return LAPACKE_zgeev_work(LAPACK_COL_MAJOR, g->jobvl, g->jobvr, n, g->a, n, g->wr, g->vl, n, g->vr, n, g->work, g->lwork,
                                g->rwork);
  }
}

/* Where geev's results are: indices of the eigenvalues (wr, wi: -1 for complex types), the
 * complex eigenvectors (left, right) and info. */
typedef struct geev_results {
  int wr, wi, vl, vr, info;
} geev_results;

/* real old: (b, n, jobvl, jobvr, a) -> (a_work, vl_work, vr_work, wr, wi, vl, vr, info);
 * complex old: -> (a_work, rwork, w, vl, vr, info); real FFI: (a) {compute_left, compute_right}
 * -> (wr, wi, vl, vr, info); complex FFI: -> (w, vl, vr, info). A matrix with a non-finite
 * element is not decomposed: info -4, as jaxlib does. */
hr_status hr_cc_geev(const hr_cc_call *c) {
  bool is_cplx = hr_dtype_is_complex(c->dtype);
  int a_i = c->ffi ? 0 : 4;
  geev_results r = c->ffi ? (is_cplx ? (geev_results){0, -1, 1, 2, 3} : (geev_results){0, 1, 2, 3, 4})
                          : (is_cplx ? (geev_results){2, -1, 3, 4, 5} : (geev_results){3, 4, 5, 6, 7});
  geev_job g = {0};
  HR_TRY(char_option(c, "compute_left", -1, 0, 0, 'V', &g.jobvl));
  HR_TRY(char_option(c, "compute_right", -1, 0, 0, 'V', &g.jobvr));
  if (!c->ffi) {
    int64_t l, rr;
    HR_TRY(hr_cc_scalar(c, 2, &l));
    HR_TRY(hr_cc_scalar(c, 3, &rr));
    g.jobvl = (char)l;
    g.jobvr = (char)rr;
  }
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  if (m.rows != m.cols) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "geev needs square matrices");
  int64_t n = m.rows;
  hr_dtype real = hr_cc_real(c->dtype), cplx = is_cplx ? c->dtype : (real == HR_F32 ? HR_C64 : HR_C128);
  HR_TRY(hr_cc_want(c, r.wr, c->dtype, m.batch * n, "eigenvalues"));
  if (r.wi >= 0) HR_TRY(hr_cc_want(c, r.wi, c->dtype, m.batch * n, "imaginary parts"));
  HR_TRY(hr_cc_want(c, r.vl, cplx, m.batch * n * n, "left eigenvectors"));
  HR_TRY(hr_cc_want(c, r.vr, cplx, m.batch * n * n, "right eigenvectors"));
  size_t size = hr_dtype_size(c->dtype), csize = hr_dtype_size(cplx);
  g.n = (lapack_int)n;
  hr_c128 probe[1];
  double rprobe[2];
  g.work = probe;
  g.rwork = rprobe;
  g.lwork = -1;
  geev(c->dtype, &g);
  g.lwork = queried(c->dtype, probe);
  g.work = g.rwork = NULL;
  void *cvl = NULL, *cvr = NULL;
  hr_status s = hr_cc_scratch(c, g.lwork, size, &g.work);
  if (!s) s = hr_cc_scratch(c, 2 * n, hr_dtype_size(real), &g.rwork);
  if (!s) s = hr_cc_scratch(c, n * n, size, &g.a);
  if (!s) s = hr_cc_scratch(c, n * n, size, &g.vl);
  if (!s) s = hr_cc_scratch(c, n * n, size, &g.vr);
  if (!s) s = hr_cc_scratch(c, n * n, csize, &cvl);
  if (!s) s = hr_cc_scratch(c, n * n, csize, &cvr);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    hr_cc_to_col(c->operands[a_i]->data, k, n, n, size, g.a);
    g.wr = (char *)c->results[r.wr]->data + (size_t)(k * n) * size;
    g.wi = r.wi >= 0 ? (char *)c->results[r.wi]->data + (size_t)(k * n) * size : NULL;
    lapack_int info = -4;
    if (all_finite(c->dtype, g.a, n * n)) info = geev(c->dtype, &g);
    store_info(c, r.info, k, info);
    if (info != 0) continue;
    if (is_cplx) {
      memcpy(cvl, g.vl, (size_t)(n * n) * csize);
      memcpy(cvr, g.vr, (size_t)(n * n) * csize);
    } else {
      unpack_eigenvectors(real, n, g.wi, g.vl, cvl);
      unpack_eigenvectors(real, n, g.wi, g.vr, cvr);
    }
    if (g.jobvl == 'V') hr_cc_from_col(cvl, n, n, csize, c->results[r.vl]->data, k);
    if (g.jobvr == 'V') hr_cc_from_col(cvr, n, n, csize, c->results[r.vr]->data, k);
  }
  void *scratch[] = {g.work, g.rwork, g.a, g.vl, g.vr, cvl, cvr};
  for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++) hr_cc_free(c, scratch[i]);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* gees                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

static lapack_int gees(hr_dtype t, char jobvs, lapack_int n, void *a, lapack_int *sdim, void *wr, void *wi, void *vs,
                       void *work, lapack_int lwork, void *rwork) {
  switch (t) {
    case HR_F32:
      return LAPACKE_sgees_work(LAPACK_COL_MAJOR, jobvs, 'N', NULL, n, a, n, sdim, wr, wi, vs, n, work, lwork, NULL);
    case HR_F64:
      return LAPACKE_dgees_work(LAPACK_COL_MAJOR, jobvs, 'N', NULL, n, a, n, sdim, wr, wi, vs, n, work, lwork, NULL);
    case HR_C64:
      return LAPACKE_cgees_work(LAPACK_COL_MAJOR, jobvs, 'N', NULL, n, a, n, sdim, wr, vs, n, work, lwork, rwork, NULL);
    default:
      return LAPACKE_zgees_work(LAPACK_COL_MAJOR, jobvs, 'N', NULL, n, a, n, sdim, wr, vs, n, work, lwork, rwork, NULL);
  }
}

/* Where gees's results are: the Schur form, the Schur vectors, the eigenvalues (wr, wi: -1 for
 * complex types), sdim and info. */
typedef struct gees_results {
  int t, vs, wr, wi, sdim, info;
} gees_results;

/* real old: (b, n, jobvs, sort, a) -> (t, wr, wi, vs, sdim, info); complex old: -> (t, rwork, w,
 * vs, sdim, info); FFI of 2024-05: (a) {mode, sort} -> as the old one (real), (t, w, vs, sdim,
 * info, rwork) (complex); FFI since 2024-11: -> (t, vs, wr, wi, sdim, info) (real), (t, vs, w,
 * sdim, info) (complex). Sorting is not offered (jaxlib passes no select function). */
hr_status hr_cc_gees(const hr_cc_call *c) {
  bool is_cplx = hr_dtype_is_complex(c->dtype);
  int a_i = c->ffi ? 0 : 4;
  /* the FFI of 2024-11 puts the Schur vectors second; the first one (2024-05) kept the old
   * order, complex without rwork first */
  bool vectors_second = c->ffi && c->op->n_results > 1 && c->results[1]->shape.rank >= 2;
  gees_results r = vectors_second ? (is_cplx ? (gees_results){0, 1, 2, -1, 3, 4} : (gees_results){0, 1, 2, 3, 4, 5})
                   : !is_cplx     ? (gees_results){0, 3, 1, 2, 4, 5}
                   : c->ffi       ? (gees_results){0, 2, 1, -1, 3, 4}
                                  : (gees_results){0, 3, 2, -1, 4, 5};
  char jobvs, sort;
  HR_TRY(char_option(c, "mode", -1, 0, 0, 'V', &jobvs));
  HR_TRY(char_option(c, "sort", -1, 0, 0, 'N', &sort));
  if (!c->ffi) {
    int64_t v, so;
    HR_TRY(hr_cc_scalar(c, 2, &v));
    HR_TRY(hr_cc_scalar(c, 3, &so));
    jobvs = (char)v;
    sort = (char)so;
  }
  if (sort != 'N') return hr_op_error(c->op, HR_UNIMPLEMENTED, "gees with sorted eigenvalues is not supported (nor in jaxlib)");
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[a_i], "matrix", &m));
  if (m.rows != m.cols) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "gees needs square matrices");
  int64_t n = m.rows;
  HR_TRY(copy_operand(c, a_i, r.t));
  HR_TRY(hr_cc_want(c, r.wr, c->dtype, m.batch * n, "eigenvalues"));
  if (r.wi >= 0) HR_TRY(hr_cc_want(c, r.wi, c->dtype, m.batch * n, "imaginary parts"));
  HR_TRY(hr_cc_want(c, r.vs, c->dtype, m.batch * n * n, "Schur vectors"));
  size_t size = hr_dtype_size(c->dtype);
  hr_c128 probe[1];
  lapack_int sdim = 0;
  gees(c->dtype, jobvs, (lapack_int)n, NULL, &sdim, NULL, NULL, NULL, probe, -1, NULL);
  lapack_int lwork = queried(c->dtype, probe);
  work_matrix wt, wv;
  void *work = NULL, *rwork = NULL;
  hr_status s = matrix_begin(c, c->results[r.t], n, n, &wt);
  if (!s) s = matrix_begin(c, c->results[r.vs], n, n, &wv);
  if (!s) s = hr_cc_scratch(c, lwork, size, &work);
  if (!s) s = hr_cc_scratch(c, n, hr_dtype_size(hr_cc_real(c->dtype)), &rwork);
  for (int64_t k = 0; !s && k < m.batch; k++) {
    matrix_load(&wt, k);
    void *wr = (char *)c->results[r.wr]->data + (size_t)(k * n) * size;
    void *wi = r.wi >= 0 ? (char *)c->results[r.wi]->data + (size_t)(k * n) * size : NULL;
    store_info(c, r.info, k, gees(c->dtype, jobvs, (lapack_int)n, wt.col, &sdim, wr, wi, wv.col, work, lwork, rwork));
    store_info(c, r.sdim, k, sdim);
    matrix_store(&wt, k);
    if (jobvs == 'V') matrix_store(&wv, k);
  }
  hr_cc_free(c, work);
  hr_cc_free(c, rwork);
  hr_cc_free(c, wt.col);
  hr_cc_free(c, wv.col);
  return s;
}

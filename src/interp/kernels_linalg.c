/* Dense linear algebra: stablehlo.triangular_solve and stablehlo.cholesky on batches of matrices.
 *
 * Matrices are solved one at a time in double (complex double for complex types) and rounded to
 * the element type at the end. Real types never touch imaginary parts, so real results are those
 * of plain real arithmetic.
 *
 * cholesky follows XLA's expander: the factor is built from the lower triangle of `a` (of its
 * transpose for lower = false, the result being transposed back), the other triangle is zero, and
 * a matrix whose factorization meets a NaN diagonal (not positive definite) becomes all NaN. */
#include <math.h>
#include <string.h>

#include "interp/reduce.h"

/* Scalar arithmetic that ignores imaginary parts for real element types. */
typedef struct field {
  bool complex;
} field;

static hr_c128 f_mul(field f, hr_c128 a, hr_c128 b) {
  if (!f.complex) return (hr_c128){a.re * b.re, 0};
  return (hr_c128){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static hr_c128 f_sub(hr_c128 a, hr_c128 b) { return (hr_c128){a.re - b.re, a.im - b.im}; }

static hr_c128 f_conj(hr_c128 a) { return (hr_c128){a.re, -a.im}; }

/* a / b; a real divisor divides both parts, a complex one uses Smith's algorithm. */
static hr_c128 f_div(field f, hr_c128 a, hr_c128 b) {
  if (!f.complex) return (hr_c128){a.re / b.re, 0};
  if (b.im == 0) return (hr_c128){a.re / b.re, a.im / b.re};
  if (fabs(b.re) >= fabs(b.im)) {
    double r = b.im / b.re, d = b.re + b.im * r;
    return (hr_c128){(a.re + a.im * r) / d, (a.im - a.re * r) / d};
  }
  double r = b.re / b.im, d = b.im + b.re * r;
  return (hr_c128){(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}

/* Loads element i of a float or complex tensor as a complex double. */
static hr_c128 load_elem(const hr_tensor *t, int64_t i) {
  if (hr_dtype_is_complex(t->dtype)) return hr_load_complex(t->dtype, t->data, i);
  return (hr_c128){hr_load_float(t->dtype, t->data, i), 0};
}

/* Stores a complex double as element i of a float or complex tensor. */
static void store_elem(hr_tensor *t, int64_t i, hr_c128 v) {
  if (hr_dtype_is_complex(t->dtype)) hr_store_complex(t->dtype, t->data, i, v);
  else hr_store_float(t->dtype, t->data, i, v.re);
}

static bool is_float_or_complex(hr_dtype t) { return hr_dtype_is_float(t) || hr_dtype_is_complex(t); }

/* ---------------------------------------------------------------------------------------------- */
/* triangular_solve                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* One system: op(a) x = b (left) or x op(a) = b (right), with op(a) = T triangular. */
typedef struct tri_system {
  field f;
  bool left, t_lower, unit;
  int transpose; /* 0: none, 1: transpose, 2: adjoint */
  int64_t m;     /* order of a */
  int64_t rows, cols; /* shape of x and b */
  const hr_c128 *a;   /* m x m */
  hr_c128 *x;         /* rows x cols, holds b on entry */
} tri_system;

/* Element (i, j) of T = op(a). */
static hr_c128 tri_t(const tri_system *s, int64_t i, int64_t j) {
  if (i == j && s->unit) return (hr_c128){1, 0};
  if (s->transpose == 0) return s->a[i * s->m + j];
  hr_c128 v = s->a[j * s->m + i];
  return s->transpose == 2 ? f_conj(v) : v;
}

/* Solves T X = B column by column (forward substitution for lower T, backward for upper). */
static void solve_left(tri_system *s) {
  for (int64_t c = 0; c < s->cols; c++)
    for (int64_t step = 0; step < s->m; step++) {
      int64_t i = s->t_lower ? step : s->m - 1 - step;
      hr_c128 acc = s->x[i * s->cols + c];
      int64_t j0 = s->t_lower ? 0 : i + 1, j1 = s->t_lower ? i : s->m;
      for (int64_t j = j0; j < j1; j++) acc = f_sub(acc, f_mul(s->f, tri_t(s, i, j), s->x[j * s->cols + c]));
      s->x[i * s->cols + c] = f_div(s->f, acc, tri_t(s, i, i));
    }
}

/* Solves X T = B row by row (backward over columns for lower T, forward for upper). */
static void solve_right(tri_system *s) {
  for (int64_t r = 0; r < s->rows; r++) {
    hr_c128 *row = s->x + r * s->cols;
    for (int64_t step = 0; step < s->m; step++) {
      int64_t j = s->t_lower ? s->m - 1 - step : step;
      hr_c128 acc = row[j];
      int64_t i0 = s->t_lower ? j + 1 : 0, i1 = s->t_lower ? s->m : j;
      for (int64_t i = i0; i < i1; i++) acc = f_sub(acc, f_mul(s->f, row[i], tri_t(s, i, j)));
      row[j] = f_div(s->f, acc, tri_t(s, j, j));
    }
  }
}

/* Reads triangular_solve's attributes into the system template. */
static hr_status read_tri_attrs(const hr_op *op, tri_system *s) {
  bool lower;
  HR_TRY(hr_red_read_bool(op, "left_side", false, &s->left));
  HR_TRY(hr_red_read_bool(op, "lower", false, &lower));
  HR_TRY(hr_red_read_bool(op, "unit_diagonal", false, &s->unit));
  const char *t = hr_op_attr_enum(op, "transpose_a");
  if (!t || strcmp(t, "NO_TRANSPOSE") == 0) s->transpose = 0;
  else if (strcmp(t, "TRANSPOSE") == 0) s->transpose = 1;
  else if (strcmp(t, "ADJOINT") == 0) s->transpose = 2;
  else return hr_op_error(op, HR_VERIFY_ERROR, "unknown transpose_a %s", t);
  s->t_lower = lower != (s->transpose != 0);
  return NULL;
}

/* Checks the shapes of a, b and the result; sets the matrix sizes and the batch count. */
static hr_status check_tri_shapes(const hr_op *op, const hr_tensor *a, const hr_tensor *b, const hr_tensor *res,
                                  tri_system *s, int64_t *batch) {
  int r = a->shape.rank;
  if (r < 2 || b->shape.rank != r || !is_float_or_complex(a->dtype) || a->dtype != b->dtype)
    return hr_op_error(op, HR_VERIFY_ERROR, "a and b must be float or complex tensors of equal type and rank >= 2");
  if (!hr_red_tensor_is(res, b->dtype, &b->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "result must have b's type");
  *batch = 1;
  for (int d = 0; d < r - 2; d++) {
    if (a->shape.dims[d] != b->shape.dims[d])
      return hr_op_error(op, HR_VERIFY_ERROR, "batch dimensions of a and b differ");
    if (!hr_red_mul(*batch, a->shape.dims[d], batch))
      return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "batch size overflows");
  }
  s->m = a->shape.dims[r - 1];
  s->rows = b->shape.dims[r - 2];
  s->cols = b->shape.dims[r - 1];
  if (a->shape.dims[r - 2] != s->m || (s->left ? s->rows : s->cols) != s->m)
    return hr_op_error(op, HR_VERIFY_ERROR, "a must be square and match b's %s dimension",
                       s->left ? "second-to-last" : "last");
  return NULL;
}

/* stablehlo.triangular_solve(a, b). */
HR_RED_KERNEL(hr_red_kernel_triangular_solve) {
  if (op->n_operands != 2 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects a and b");
  const hr_tensor *a = operands[0], *b = operands[1];
  tri_system s = {.f = {hr_dtype_is_complex(a->dtype)}};
  int64_t batch;
  HR_TRY(read_tri_attrs(op, &s));
  HR_TRY(check_tri_shapes(op, a, b, results[0], &s, &batch));
  int64_t asize = s.m * s.m, bsize = s.rows * s.cols;
  if (batch == 0 || bsize == 0) return NULL;
  hr_tensor *work;
  HR_TRY(hr_red_scratch(in, op, HR_RED_ACC_C128, asize + bsize, &work));
  hr_c128 *abuf = work->data, *xbuf = abuf + asize;
  s.a = abuf;
  s.x = xbuf;
  for (int64_t k = 0; k < batch; k++) {
    for (int64_t i = 0; i < asize; i++) abuf[i] = load_elem(a, k * asize + i);
    for (int64_t i = 0; i < bsize; i++) xbuf[i] = load_elem(b, k * bsize + i);
    if (s.left) solve_left(&s);
    else solve_right(&s);
    for (int64_t i = 0; i < bsize; i++) store_elem(results[0], k * bsize + i, xbuf[i]);
  }
  hr_tensor_free(work);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* cholesky                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Factors w (n x n, read from its lower triangle) into the lower triangular l in place of w's
 * lower triangle, zeroing the strict upper triangle. Returns false when a diagonal is NaN. */
static bool cholesky_lower(field f, hr_c128 *w, int64_t n) {
  bool ok = true;
  for (int64_t j = 0; j < n; j++) {
    hr_c128 d = w[j * n + j];
    for (int64_t k = 0; k < j; k++) d = f_sub(d, f_mul(f, w[j * n + k], f_conj(w[j * n + k])));
    double root = sqrt(d.re);
    ok = ok && !isnan(root);
    w[j * n + j] = (hr_c128){root, 0};
    for (int64_t i = j + 1; i < n; i++) {
      hr_c128 v = w[i * n + j];
      for (int64_t k = 0; k < j; k++) v = f_sub(v, f_mul(f, w[i * n + k], f_conj(w[j * n + k])));
      w[i * n + j] = f_div(f, v, w[j * n + j]);
    }
    for (int64_t i = 0; i < j; i++) w[i * n + j] = (hr_c128){0, 0};
  }
  return ok;
}

/* stablehlo.cholesky(a). */
HR_RED_KERNEL(hr_red_kernel_cholesky) {
  if (op->n_operands != 1 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects one operand");
  const hr_tensor *a = operands[0];
  hr_tensor *res = results[0];
  int r = a->shape.rank;
  if (r < 2 || !is_float_or_complex(a->dtype) || a->shape.dims[r - 1] != a->shape.dims[r - 2])
    return hr_op_error(op, HR_VERIFY_ERROR, "a must be a batch of square float or complex matrices");
  if (!hr_red_tensor_is(res, a->dtype, &a->shape)) return hr_op_error(op, HR_VERIFY_ERROR, "result must have a's type");
  bool lower;
  HR_TRY(hr_red_read_bool(op, "lower", false, &lower));
  int64_t n = a->shape.dims[r - 1], size = n * n, count = hr_tensor_num_elements(a);
  if (size == 0) return NULL;
  hr_tensor *work;
  HR_TRY(hr_red_scratch(in, op, HR_RED_ACC_C128, size, &work));
  hr_c128 *w = work->data;
  field f = {hr_dtype_is_complex(a->dtype)};
  for (int64_t base = 0; base < count; base += size) {
    /* Upper factors come from the lower factor of the (plain) transpose, transposed back. */
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) w[i * n + j] = load_elem(a, base + (lower ? i * n + j : j * n + i));
    bool ok = cholesky_lower(f, w, n);
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++)
        store_elem(res, base + i * n + j, ok ? w[lower ? i * n + j : j * n + i] : (hr_c128){NAN, 0});
  }
  hr_tensor_free(work);
  return NULL;
}

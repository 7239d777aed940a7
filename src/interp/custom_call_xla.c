/* XLA's own custom-call targets that JAX's TPU lowerings wrote into exported programs (jax.export
 * payloads of platform "tpu"), run with the semantics XLA gives them on every backend:
 *   Eigh             (a) {backend_config "lower,sort_eigenvalues,max_iter,tol"} -> (v, w): the
 *                    symmetric / Hermitian eigendecomposition XLA's EighExpander builds (a Jacobi
 *                    iteration; max_iter and tol tune it), here LAPACK's ?syevd / ?heevd on the
 *                    same triangle: eigenvectors in the columns of v, eigenvalues ascending (XLA
 *                    sorts them with sort_eigenvalues; without it its order is the iteration's,
 *                    which no other method reproduces, and the ascending one is given).
 *   LuDecomposition  (a) -> (lu, pivots, permutation): LU with partial pivoting (LAPACK's ?getrf),
 *                    pivots 0-based, permutation the rows' order they make (jax.lax.linalg.lu).
 *   AllocateBuffer   () -> (buffer): a buffer of the result type whose contents are undefined
 *                    (jnp.empty on TPU); zeros here, so that runs are reproducible. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interp/custom_call.h"

/* A copy of call `c` for a LAPACK core: one operand of a LAPACK element type (f32, f64, c64,
 * c128), which becomes the call's element type, and `n_results` results. */
static hr_status lapack_call(const hr_cc_call *c, int n_results, hr_cc_call *out) {
  if (c->op->n_operands != 1 || c->op->n_results != n_results)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "takes one operand and gives %d results", n_results);
  hr_dtype t = c->operands[0]->dtype;
  if (t != HR_F32 && t != HR_F64 && t != HR_C64 && t != HR_C128)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the matrix has element type %s (f32, f64, complex<f32> or complex<f64> expected)",
                       hr_dtype_name(t));
  *out = *c;
  out->dtype = t;
  return NULL;
}

/* Reads field `i` of a comma-separated backend_config as an integer (0/1 when `flag`), or as a
 * float when `real`; fails naming the field. `end` is the end of the text. */
static hr_status config_field(const hr_cc_call *c, const char **at, const char *end, const char *name, bool flag,
                              bool real) {
  const char *comma = memchr(*at, ',', (size_t)(end - *at));
  const char *stop = comma ? comma : end;
  char buf[64];
  size_t len = (size_t)(stop - *at);
  if (len == 0 || len >= sizeof buf) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "backend_config: bad '%s'", name);
  memcpy(buf, *at, len);
  buf[len] = '\0';
  char *rest = NULL;
  errno = 0;
  if (real) {
    double v = strtod(buf, &rest);
    if (v < 0 || v != v) rest = buf; /* a tolerance is a non-negative number */
  } else {
    long long v = strtoll(buf, &rest, 10);
    if (v < 0 || (flag && v > 1)) rest = buf;
  }
  if (errno || rest == buf || *rest) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "backend_config: bad '%s'", name);
  *at = comma ? comma + 1 : end;
  return NULL;
}

/* Eigh's backend_config: "lower,sort_eigenvalues,max_iter,tol" (XLA since 2022), or
 * "lower,max_iter,tol" (before); *lower is the triangle read. */
static hr_status eigh_config(const hr_cc_call *c, bool *lower) {
  const hr_attr *cfg = hr_op_attr(c->op, "backend_config");
  if (!cfg || cfg->kind != HR_ATTR_STRING)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "needs a backend_config string \"lower,sort_eigenvalues,max_iter,tol\"");
  const char *at = cfg->u.str.data, *end = at + cfg->u.str.len;
  int fields = 1;
  for (const char *p = at; p < end; p++) fields += *p == ',';
  if (fields != 3 && fields != 4)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "backend_config \"lower,sort_eigenvalues,max_iter,tol\" has %d fields", fields);
  *lower = at < end && *at == '1';
  HR_TRY(config_field(c, &at, end, "lower", true, false));
  if (fields == 4) HR_TRY(config_field(c, &at, end, "sort_eigenvalues", true, false));
  HR_TRY(config_field(c, &at, end, "max_iter", false, false));
  return config_field(c, &at, end, "tol", false, true);
}

hr_status hr_cc_eigh(const hr_cc_call *c) {
  hr_cc_call x;
  HR_TRY(lapack_call(c, 2, &x));
  bool lower = false;
  HR_TRY(eigh_config(c, &lower));
  return hr_cc_syevd_into(&x, 0, lower ? 'L' : 'U', 'V', -1);
}

hr_status hr_cc_lu_decomposition(const hr_cc_call *c) {
  hr_cc_call x;
  HR_TRY(lapack_call(c, 3, &x));
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(&x, c->operands[0], "matrix", &m));
  HR_TRY(hr_cc_want(&x, 2, HR_I32, m.batch * m.rows, "permutation"));
  HR_TRY(hr_cc_getrf_into(&x, 0, -1));
  int64_t k = m.rows < m.cols ? m.rows : m.cols;
  int32_t *pivots = c->results[1]->data, *perm = c->results[2]->data;
  for (int64_t i = 0; i < m.batch * k; i++) pivots[i] -= 1; /* LAPACK's are 1-based, XLA's 0-based */
  for (int64_t b = 0; b < m.batch; b++) hr_cc_permutation_of(pivots + b * k, k, perm + b * m.rows, m.rows);
  return NULL;
}

hr_status hr_cc_allocate_buffer(const hr_cc_call *c) {
  if (c->op->n_operands != 0 || c->op->n_results != 1)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "takes no operands and gives one result");
  if (c->results[0]->nbytes) memset(c->results[0]->data, 0, c->results[0]->nbytes);
  return NULL;
}

/* GPU targets of JAX's cuda and rocm lowerings (custom_call.h), run here with the semantics JAX
 * gives them: lu_pivots_to_permutation, threefry2x32 (random bits), annotate_device_placement (a
 * memory-space hint: the value itself), and the solvers of the old GPU ABI (jaxlib before the
 * typed FFI, 2023-2024), whose options are an opaque descriptor: the backend_config's bytes, int32
 * fields in the host's (little-endian) order, the first the element type (0 f32, 1 f64,
 * 2 complex64, 3 complex128), the others per target as jaxlib's gpu_solver and gpu_blas kernels
 * read them. Those run through the CPU target of the same semantics, with the descriptor checked
 * against the operands' shapes: what the result shapes say is what is computed. */
#include <string.h>

#include "interp/custom_call.h"

/* (pivots [..., k] i32, 0-based) -> permutation [..., p]: the identity permutation with row i
 * swapped with row pivots[i], for i = 0 .. k-1 in order, a pivot outside [0, p) passed over as
 * jaxlib's kernel does (jax.lax.linalg.lu_pivots_to_permutation). */
hr_status hr_cc_lu_pivots_to_permutation(const hr_cc_call *c) {
  const hr_tensor *piv = c->operands[0];
  hr_tensor *perm = c->results[0];
  int r = piv->shape.rank;
  if (piv->dtype != HR_I32 || perm->dtype != HR_I32 || r < 1 || perm->shape.rank != r)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "pivots and permutation must be i32 arrays of one rank");
  int64_t k = piv->shape.dims[r - 1], p = perm->shape.dims[r - 1], rows = 1;
  for (int d = 0; d < r - 1; d++) {
    if (piv->shape.dims[d] != perm->shape.dims[d])
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "pivots and permutation must have the same batch dimensions");
    rows *= piv->shape.dims[d];
  }
  if (k > p) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "more pivots (%lld) than permutation entries (%lld)", (long long)k, (long long)p);
  const int32_t *pv = piv->data;
  int32_t *out = perm->data;
  for (int64_t b = 0; b < rows; b++) hr_cc_permutation_of(pv + b * k, k, out + b * p, p);
  return NULL;
}

void hr_cc_permutation_of(const int32_t *pivots, int64_t k, int32_t *perm, int64_t p) {
  for (int64_t i = 0; i < p; i++) perm[i] = (int32_t)i;
  for (int64_t i = 0; i < k && i < p; i++) {
    int32_t j = pivots[i];
    if (j < 0 || j >= p) continue; /* jaxlib's kernel passes over pivots out of range */
    int32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

static uint32_t rotl(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

/* Threefry-2x32 with 20 rounds (Salmon et al., as JAX's PRNG uses it) of one counter pair. */
static void threefry(uint32_t k0, uint32_t k1, uint32_t *x0, uint32_t *x1) {
  static const int rot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  uint32_t ks[3] = {k0, k1, k0 ^ k1 ^ 0x1BD11BDAu};
  uint32_t a = *x0 + ks[0], b = *x1 + ks[1];
  for (int block = 0; block < 5; block++) {
    for (int i = 0; i < 4; i++) {
      a += b;
      b = rotl(b, rot[block % 2][i]);
      b ^= a;
    }
    a += ks[(block + 1) % 3];
    b += ks[(block + 2) % 3] + (uint32_t)(block + 1);
  }
  *x0 = a;
  *x1 = b;
}

/* (key0, key1, x0, x1), ui32 arrays of one shape -> (y0, y1). */
hr_status hr_cc_threefry2x32(const hr_cc_call *c) {
  if (c->op->n_operands != 4 || c->op->n_results != 2)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "threefry2x32 takes 4 operands and gives 2 results");
  size_t n = c->operands[0]->nbytes;
  for (int i = 0; i < 4; i++)
    if (c->operands[i]->dtype != HR_U32 || c->operands[i]->nbytes != n || (i < 2 && c->results[i]->nbytes != n))
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "threefry2x32's operands and results must be ui32 arrays of one shape");
  const uint32_t *k0 = c->operands[0]->data, *k1 = c->operands[1]->data, *x0 = c->operands[2]->data,
                 *x1 = c->operands[3]->data;
  uint32_t *y0 = c->results[0]->data, *y1 = c->results[1]->data;
  for (size_t i = 0; i < n / 4; i++) {
    y0[i] = x0[i];
    y1[i] = x1[i];
    threefry(k0[i], k1[i], &y0[i], &y1[i]);
  }
  return NULL;
}

hr_status hr_cc_identity(const hr_cc_call *c) {
  if (c->op->n_operands != c->op->n_results)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "expects one result per operand");
  for (int i = 0; i < c->op->n_operands; i++) {
    if (c->results[i]->nbytes != c->operands[i]->nbytes || c->results[i]->dtype != c->operands[i]->dtype)
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "result %d must have the type of operand %d", i, i);
    memcpy(c->results[i]->data, c->operands[i]->data, c->operands[i]->nbytes);
  }
  return NULL;
}

/* The old GPU ABI's descriptor of call `c`: exactly `n` int32 fields into f, f[0] the element
 * type code of the call's type, f[batch_at] the batch (the product of the operand's leading
 * dimensions) and, from f[batch_at + 1] on, `n_dims` of the operand's matrix dimensions
 * (rows then columns; one: the order of a square matrix). */
static hr_status descriptor(const hr_cc_call *c, int n, int batch_at, int n_dims, int32_t *f) {
  const hr_attr *cfg = hr_op_attr(c->op, "backend_config");
  if (!cfg || cfg->kind != HR_ATTR_STRING || cfg->u.str.len != (size_t)n * 4)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "needs a descriptor of %d bytes in backend_config", n * 4);
  for (int i = 0; i < n; i++) {
    const unsigned char *b = (const unsigned char *)cfg->u.str.data + 4 * i;
    f[i] = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
  }
  static const hr_dtype types[] = {HR_F32, HR_F64, HR_C64, HR_C128};
  if (f[0] < 0 || f[0] > 3 || types[f[0]] != c->dtype)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "descriptor type %d is not the operand's (%s)", (int)f[0], hr_dtype_name(c->dtype));
  hr_cc_matrices m;
  HR_TRY(hr_cc_matrices_of(c, c->operands[0], "matrix", &m));
  int64_t want[3] = {m.batch, m.rows, n_dims == 1 ? m.rows : m.cols};
  for (int i = 0; i <= n_dims; i++)
    if (f[batch_at + i] != want[i])
      return hr_op_error(c->op, HR_INVALID_ARGUMENT, "descriptor field %d is %d, the operand gives %lld", batch_at + i,
                         (int)f[batch_at + i], (long long)want[i]);
  return NULL;
}

/* Fails unless the call has `operands` operands and `results` results (the old GPU ABI's). */
static hr_status arity(const hr_cc_call *c, int operands, int results) {
  if (c->op->n_operands != operands || c->op->n_results != results)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "takes %d operand(s) and gives %d results", operands, results);
  return NULL;
}

/* cusolver_syevd / cusolver_syevj / hipsolver_syevd / hipsolver_syevj: (a) -> (v, w, info,
 * work), descriptor (type, uplo, batch, n, lwork); uplo is cuBLAS's fill mode (0 lower, 1 upper)
 * or hipSOLVER's (122 lower, 121 upper). syevj (Jacobi) and syevd give the same decomposition:
 * eigenvalues ascending, eigenvectors up to sign. */
hr_status hr_cc_gpu_syev(const hr_cc_call *c) {
  HR_TRY(arity(c, 1, 4));
  int32_t f[5];
  HR_TRY(descriptor(c, 5, 2, 1, f));
  const hr_attr *target = hr_op_attr(c->op, "call_target_name");
  bool hip = target && target->kind == HR_ATTR_STRING && strncmp(target->u.str.data, "hip", 3) == 0;
  int32_t lower = hip ? 122 : 0, upper = hip ? 121 : 1;
  if (f[1] != lower && f[1] != upper)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "descriptor fill mode %d is neither %d (lower) nor %d (upper)", (int)f[1],
                       (int)lower, (int)upper);
  return hr_cc_syevd_into(c, 0, f[1] == lower ? 'L' : 'U', 'V', 2);
}

/* hipsolver_geqrf / cusolver_geqrf: (a) -> (a, tau, info, work), descriptor (type, batch, m, n,
 * lwork); cublas_geqrf_batched / hipblas_geqrf_batched: (a) -> (a, tau, the two pointer arrays),
 * descriptor (type, batch, m, n). */
hr_status hr_cc_gpu_geqrf(const hr_cc_call *c) {
  HR_TRY(arity(c, 1, 4));
  const hr_attr *target = hr_op_attr(c->op, "call_target_name");
  bool batched = target && target->kind == HR_ATTR_STRING && strstr(target->u.str.data, "_batched");
  int32_t f[5];
  HR_TRY(descriptor(c, batched ? 4 : 5, 1, 2, f));
  return hr_cc_geqrf(c);
}

/* cusolver_orgqr / hipsolver_orgqr: (a, tau) -> (a, info, work), descriptor (type, batch, m, n,
 * k, lwork), k the reflectors per matrix (tau's last dimension). */
hr_status hr_cc_gpu_orgqr(const hr_cc_call *c) {
  HR_TRY(arity(c, 2, 3));
  int32_t f[6];
  HR_TRY(descriptor(c, 6, 1, 2, f));
  const hr_tensor *tau = c->operands[1];
  if (tau->shape.rank < 1 || f[4] != tau->shape.dims[tau->shape.rank - 1])
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "descriptor's k (%d) is not tau's last dimension", (int)f[4]);
  return hr_cc_orgqr(c);
}

/* cu_threefry2x32 / hip_threefry2x32 (old ABI): threefry2x32 with a descriptor of one int64, the
 * element count of each operand. */
hr_status hr_cc_gpu_threefry2x32(const hr_cc_call *c) {
  const hr_attr *cfg = hr_op_attr(c->op, "backend_config");
  if (!cfg || cfg->kind != HR_ATTR_STRING || cfg->u.str.len != 8)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "needs a descriptor of 8 bytes in backend_config");
  uint64_t n = 0;
  for (int i = 7; i >= 0; i--) n = n << 8 | (unsigned char)cfg->u.str.data[i];
  if (c->op->n_operands < 1 || n != c->operands[0]->nbytes / 4)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "descriptor count %llu is not the operands' element count",
                       (unsigned long long)n);
  return hr_cc_threefry2x32(c);
}

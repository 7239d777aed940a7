/* GPU targets of JAX's cuda and rocm lowerings that are not solvers (custom_call.h), run here
 * with the semantics JAX gives them: lu_pivots_to_permutation, threefry2x32 (random bits) and
 * annotate_device_placement (a memory-space hint: the value itself). */
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

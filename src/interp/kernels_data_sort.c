/* stablehlo.sort and chlo.top_k.
 *
 * Both sort index permutations with one bottom-up merge sort, which is stable and performs a
 * bounded number of comparisons (at most n * ceil(log2 n)) whatever the comparator answers, so a
 * comparator that is not a strict weak order yields some permutation but can neither crash nor
 * loop. sort evaluates its comparator region on (lhs0, rhs0, lhs1, rhs1, ...) rank-0 arguments;
 * is_stable needs no special handling because the merge sort is always stable. top_k orders
 * descending in the total order -NaN < -Inf < -0 < +0 < +Inf < +NaN, ties by lower index, as
 * XLA:CPU does. */
#include <string.h>

#include "base/elem.h"
#include "interp/data.h"

/* ---------------------------------------------------------------------------------------------- */
/* Merge sort of an index permutation                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* Sets *out to whether the element at index a must come before the one at index b. */
typedef hr_status (*less_fn)(void *ctx, int64_t a, int64_t b, bool *out);

/* Merges the sorted runs src[lo, mid) and src[mid, hi) into dst[lo, hi), taking from the left
 * run on ties (stability). */
static hr_status merge_runs(const int64_t *src, int64_t *dst, int64_t lo, int64_t mid, int64_t hi,
                            less_fn less, void *ctx) {
  int64_t i = lo, j = mid, o = lo;
  while (i < mid && j < hi) {
    bool right_first;
    HR_TRY(less(ctx, src[j], src[i], &right_first));
    dst[o++] = right_first ? src[j++] : src[i++];
  }
  while (i < mid) dst[o++] = src[i++];
  while (j < hi) dst[o++] = src[j++];
  return NULL;
}

/* Sorts perm[0, n) stably by `less`, using tmp[0, n) as scratch. */
static hr_status merge_sort(int64_t *perm, int64_t *tmp, int64_t n, less_fn less, void *ctx) {
  int64_t *src = perm, *dst = tmp;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = n - lo > width ? lo + width : n;
      int64_t hi = n - mid > width ? mid + width : n;
      HR_TRY(merge_runs(src, dst, lo, mid, hi, less, ctx));
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != perm) memcpy(perm, src, (size_t)n * sizeof *perm);
  return NULL;
}

/* Allocates scratch for `count` int64 values through the interpreter (limits apply). */
static hr_status alloc_scratch(hr_interp *in, const hr_op *op, int64_t count, hr_tensor **out) {
  hr_shape s = {.rank = 1, .dims = {count}};
  return hr_interp_alloc(in, op, HR_I64, &s, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* sort                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* One line of a sort: the elements base + i * stride, i in [0, n), of every operand. */
typedef struct sort_line {
  const hr_op *op;
  hr_tensor *const *operands;
  int n_operands;
  int64_t base, stride;
  hr_scalar_region region;
} sort_line;

/* Comparator: evaluates the region on (lhs0, rhs0, lhs1, rhs1, ...) for line elements a and b. */
static hr_status region_less(void *ctx, int64_t a, int64_t b, bool *out) {
  sort_line *l = ctx;
  for (int k = 0; k < l->n_operands; k++) {
    const hr_tensor *x = l->operands[k];
    size_t es = hr_dtype_size(x->dtype);
    const unsigned char *d = x->data;
    memcpy(l->region.args[2 * k]->data, d + (size_t)(l->base + a * l->stride) * es, es);
    memcpy(l->region.args[2 * k + 1]->data, d + (size_t)(l->base + b * l->stride) * es, es);
  }
  static const hr_dtype pred[1] = {HR_I1};
  HR_TRY(hr_scalar_region_call(&l->region, pred));
  *out = *(const unsigned char *)l->region.results[0]->data != 0;
  return NULL;
}

/* Checks n sort operands and results (one shape) against comparator block `cmp`. */
static hr_status check_sort_operands(const hr_op *op, const hr_block *cmp, int n, hr_tensor *const *operands,
                                     hr_tensor **results) {
  const hr_shape *s = &operands[0]->shape;
  if (cmp->n_args != 2 * n) return hr_op_error(op, HR_VERIFY_ERROR, "the comparator must take %d arguments", 2 * n);
  for (int k = 0; k < n; k++) {
    HR_TRY(hr_data_check_shape(op, "an operand", operands[k], s));
    HR_TRY(hr_data_check_shape(op, "a result", results[k], s));
    hr_dtype t = operands[k]->dtype;
    if (results[k]->dtype != t || cmp->args[2 * k].type.dtype != t || cmp->args[2 * k + 1].type.dtype != t)
      return hr_op_error(op, HR_VERIFY_ERROR, "operand %d, its result and comparator arguments differ "
                         "in element type", k);
  }
  return NULL;
}

/* Checks sort operands and results, their comparator arguments, and normalises `dimension`. */
static hr_status check_sort(const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                            int64_t *dim) {
  if (op->n_operands < 1 || op->n_results != op->n_operands || op->n_regions != 1)
    return hr_op_error(op, HR_VERIFY_ERROR, "expected N operands, N results and a comparator");
  const hr_shape *s = &operands[0]->shape;
  HR_TRY(check_sort_operands(op, &op->regions[0], op->n_operands, operands, results));
  const hr_attr *a = hr_op_attr(op, "dimension");
  *dim = -1;
  if (a) HR_TRY(hr_op_attr_i64(op, "dimension", dim));
  if (*dim < -s->rank || *dim >= s->rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "dimension %lld is outside [%d, %d)", (long long)*dim,
                       -s->rank, s->rank);
  if (*dim < 0) *dim += s->rank;
  return NULL;
}

/* Writes line `l` of every operand into the results in the order `perm`. */
static void permute_line(const sort_line *l, hr_tensor **results, const int64_t *perm, int64_t n) {
  for (int k = 0; k < l->n_operands; k++) {
    size_t es = hr_dtype_size(results[k]->dtype);
    const unsigned char *src = l->operands[k]->data;
    unsigned char *dst = results[k]->data;
    for (int64_t i = 0; i < n; i++)
      memcpy(dst + (size_t)(l->base + i * l->stride) * es,
             src + (size_t)(l->base + perm[i] * l->stride) * es, es);
  }
}

/* Sorts every line along `dim`. */
static hr_status sort_lines(hr_interp *in, const hr_op *op, sort_line *l, int64_t dim,
                            hr_tensor **results) {
  const hr_shape *s = &l->operands[0]->shape;
  int64_t n = s->dims[dim], total = hr_tensor_num_elements(l->operands[0]);
  if (total == 0) return NULL;
  int64_t strides[HR_MAX_RANK];
  hr_data_strides(s, strides);
  l->stride = strides[dim];
  hr_tensor *scratch;
  HR_TRY(alloc_scratch(in, op, 2 * n, &scratch));
  int64_t *perm = scratch->data, *tmp = perm + n;
  hr_status st = NULL;
  /* Lines start at o * n * stride + i for outer o and inner i < stride. */
  for (int64_t o = 0; o < total / (n * l->stride) && !st; o++) {
    for (int64_t i = 0; i < l->stride && !st; i++) {
      l->base = o * n * l->stride + i;
      for (int64_t j = 0; j < n; j++) perm[j] = j;
      st = merge_sort(perm, tmp, n, region_less, l);
      if (!st) permute_line(l, results, perm, n);
    }
  }
  hr_tensor_free(scratch);
  return st;
}

/* stablehlo.sort: sorts every line along `dimension` by the comparator region. */
hr_status hr_data_sort(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                       hr_tensor **results) {
  int64_t dim;
  HR_TRY(check_sort(op, operands, results, &dim));
  sort_line l = {.op = op, .operands = operands, .n_operands = op->n_operands};
  HR_TRY(hr_scalar_region_init(&l.region, in, op, &op->regions[0], 2 * op->n_operands, 1));
  hr_status st = sort_lines(in, op, &l, dim, results);
  hr_scalar_region_release(&l.region);
  return st;
}

hr_status hr_data_sort_by(hr_interp *in, const hr_op *op, const hr_func *cmp, int64_t dim, int n,
                          hr_tensor *const *operands, hr_tensor **results) {
  if (n < 1 || dim < 0 || dim >= operands[0]->shape.rank)
    return hr_op_error(op, HR_INVALID_ARGUMENT, "sorts %d operand(s) along dimension %lld of rank %d", n, (long long)dim,
                       operands[0]->shape.rank);
  HR_TRY(check_sort_operands(op, &cmp->body, n, operands, results));
  sort_line l = {.op = op, .operands = operands, .n_operands = n};
  HR_TRY(hr_scalar_region_init_func(&l.region, in, op, cmp, 2 * n, 1));
  hr_status st = sort_lines(in, op, &l, dim, results);
  hr_scalar_region_release(&l.region);
  return st;
}

/* ---------------------------------------------------------------------------------------------- */
/* top_k                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Maps element i of a real or integer tensor to a key whose unsigned order is the element's total
 * order (floats: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN). */
static uint64_t order_key(hr_dtype t, const void *data, int64_t i) {
  uint64_t bits, sign;
  switch (t) {
    case HR_F16: case HR_BF16: bits = ((const uint16_t *)data)[i]; sign = 1ull << 15; break;
    case HR_F32: bits = ((const uint32_t *)data)[i]; sign = 1ull << 31; break;
    case HR_F64: bits = ((const uint64_t *)data)[i]; sign = 1ull << 63; break;
    default:
      if (hr_dtype_is_narrow_float(t)) { /* its exact double orders alike (compare's total order) */
        bits = hr_f64_bits(hr_load_float(t, data, i));
        sign = 1ull << 63;
        break;
      }
      if (hr_dtype_is_signed_int(t)) return (uint64_t)hr_load_int(t, data, i) ^ (1ull << 63);
      return (uint64_t)hr_load_int(t, data, i);
  }
  /* Negative floats order by reversed magnitude below all positive ones. */
  return (bits & sign) ? ~bits & (sign | (sign - 1)) : bits | sign;
}

/* Comparator for top_k: a before b when its key is larger (ties keep index order). */
static hr_status key_greater(void *ctx, int64_t a, int64_t b, bool *out) {
  const uint64_t *keys = ctx;
  *out = keys[a] > keys[b];
  return NULL;
}

/* Checks top_k's operand, `k` and results: values [..., k] of the operand type and integer
 * indices of the same shape. */
static hr_status check_top_k(const hr_op *op, const hr_tensor *x, int64_t k, hr_tensor **results) {
  if (op->n_results != 2) return hr_op_error(op, HR_VERIFY_ERROR, "expected two results");
  if (x->shape.rank < 1) return hr_op_error(op, HR_VERIFY_ERROR, "the operand must have rank >= 1");
  if (hr_dtype_is_complex(x->dtype))
    return hr_op_error(op, HR_VERIFY_ERROR, "the operand must not be complex");
  int64_t n = x->shape.dims[x->shape.rank - 1];
  if (k < 0 || k > n)
    return hr_op_error(op, HR_VERIFY_ERROR, "k = %lld is outside [0, %lld]", (long long)k, (long long)n);
  hr_shape want = x->shape;
  want.dims[want.rank - 1] = k;
  HR_TRY(hr_data_check_shape(op, "the values", results[0], &want));
  HR_TRY(hr_data_check_shape(op, "the indices", results[1], &want));
  if (results[0]->dtype != x->dtype ||
      (!hr_dtype_is_signed_int(results[1]->dtype) && !hr_dtype_is_unsigned_int(results[1]->dtype)))
    return hr_op_error(op, HR_VERIFY_ERROR, "values must have the operand type, indices an integer type");
  return NULL;
}

/* chlo.top_k: the k largest elements of each last-dimension row and their indices. */
hr_status hr_data_top_k(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                        hr_tensor **results) {
  int64_t k;
  HR_TRY(hr_op_attr_i64(op, "k", &k));
  return hr_data_top_k_of(in, op, operands[0], k, results);
}

hr_status hr_data_top_k_of(hr_interp *in, const hr_op *op, const hr_tensor *x, int64_t k, hr_tensor **results) {
  HR_TRY(check_top_k(op, x, k, results));
  int64_t n = x->shape.dims[x->shape.rank - 1];
  if (k == 0 || hr_tensor_num_elements(x) == 0) return NULL;
  int64_t rows = hr_tensor_num_elements(x) / n;
  hr_tensor *scratch;
  HR_TRY(alloc_scratch(in, op, 3 * n, &scratch));
  int64_t *perm = scratch->data, *tmp = perm + n;
  uint64_t *keys = (uint64_t *)(tmp + n);
  size_t es = hr_dtype_size(x->dtype);
  hr_status st = NULL;
  for (int64_t r = 0; r < rows && !st; r++) {
    for (int64_t j = 0; j < n; j++) {
      keys[j] = order_key(x->dtype, x->data, r * n + j);
      perm[j] = j;
    }
    st = merge_sort(perm, tmp, n, key_greater, keys);
    for (int64_t j = 0; j < k && !st; j++) {
      memcpy((unsigned char *)results[0]->data + (size_t)(r * k + j) * es,
             (const unsigned char *)x->data + (size_t)(r * n + perm[j]) * es, es);
      hr_store_int(results[1]->dtype, results[1]->data, r * k + j, perm[j]);
    }
  }
  hr_tensor_free(scratch);
  return st;
}

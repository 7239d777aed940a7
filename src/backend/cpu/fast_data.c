/* Fast kernels of data-movement stablehlo ops. They copy elements, so their results equal the
 * reference kernels' bit for bit; they run in parallel over rows of the result:
 *   - broadcast_in_dim, transpose and slice are strided copies: every result dimension reads the
 *     operand with a fixed element stride (0 where broadcast). Unit dimensions are dropped and
 *     adjacent dimensions merged where the operand is contiguous across them; the last merged
 *     dimension is the row, copied with memcpy (stride 1), a fill (stride 0) or a strided loop;
 *   - gather of whole rows, the embedding lookup: operand [V, D], one index per result row (the
 *     indices' last dimension of size 1, or an implicit index vector), clamped into [0, V - 1]
 *     as the spec clamps start indices;
 *   - select of 4-byte elements with an i1 predicate of the result's shape (AVX-512 blends
 *     under a mask made of 16 predicate bytes at a time) or a scalar one (one memcpy). */
#include <string.h>

#include "backend/cpu/fast_internal.h"
#include "interp/data.h"

/* Whether the op's single result has a static shape and element type (sizes are checked when the
 * executable plans its slots). */
static bool static_tensor(const hr_tensor *t) {
  if (t->shape.rank < 0 || t->shape.rank > HR_MAX_RANK || hr_dtype_size(t->dtype) == 0) return false;
  for (int i = 0; i < t->shape.rank; i++)
    if (t->shape.dims[i] < 0) return false;
  return true;
}

/* Row-major element strides of a shape. */
static void shape_strides(const hr_shape *s, int64_t *strides) {
  int64_t st = 1;
  for (int d = s->rank - 1; d >= 0; d--) {
    strides[d] = st;
    st *= s->dims[d];
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Strided copies: broadcast_in_dim, transpose, slice                                              */
/* ---------------------------------------------------------------------------------------------- */

typedef struct copy_kernel {
  hr_fast_kernel base;
  size_t esize;
  int rank;                  /* merged, >= 1 */
  int64_t dims[HR_MAX_RANK]; /* merged result dims */
  int64_t src[HR_MAX_RANK];  /* operand element stride per merged dim */
  int64_t offset;            /* operand element of result element 0 */
  int64_t n_rows;            /* product of the merged dims but the last */
} copy_kernel;

/* The per-run view. */
typedef struct copy_job {
  const copy_kernel *k;
  const unsigned char *x;
  unsigned char *y;
} copy_job;

/* Copies one row of n elements of `esize` bytes read with element stride `s`. */
static void copy_row(unsigned char *dst, const unsigned char *src, int64_t n, int64_t s, size_t esize) {
  if (s == 1) {
    memcpy(dst, src, (size_t)n * esize);
  } else if (s == 0 && esize == 1) {
    memset(dst, *src, (size_t)n);
  } else if (esize == 4) {
    uint32_t *d = (uint32_t *)dst;
    const uint32_t *x = (const uint32_t *)src;
    for (int64_t i = 0; i < n; i++) d[i] = x[i * s];
  } else {
    for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * esize, src + (size_t)(i * s) * esize, esize);
  }
}

/* hr_parallel_fn over rows. */
static void copy_rows(void *ctx, int64_t begin, int64_t end, int worker) {
  const copy_job *j = ctx;
  const copy_kernel *k = j->k;
  int64_t cols = k->dims[k->rank - 1];
  for (int64_t r = begin; r < end; r++) {
    int64_t off = k->offset, rest = r;
    for (int d = k->rank - 2; d >= 0; d--) {
      off += rest % k->dims[d] * k->src[d];
      rest /= k->dims[d];
    }
    copy_row(j->y + (size_t)(r * cols) * k->esize, j->x + (size_t)off * k->esize, cols, k->src[k->rank - 1], k->esize);
  }
}

static hr_status copy_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                          void *scratch) {
  const copy_kernel *k = (const copy_kernel *)base;
  copy_job j = {k, operands[0]->data, results[0]->data};
  int64_t row_bytes = k->dims[k->rank - 1] * (int64_t)k->esize;
  if (row_bytes > 0) hr_parallel_for(base->pool, k->n_rows, hr_fast_chunk(k->dims[k->rank - 1]), copy_rows, &j);
  return NULL;
}

/* Fills k's merged dims from the result shape and the operand stride of each result dim. */
static void merge_copy_dims(copy_kernel *k, const hr_shape *result, const int64_t *src) {
  int rank = 0;
  for (int d = 0; d < result->rank; d++) {
    if (result->dims[d] == 1) continue;
    if (rank > 0 && k->src[rank - 1] == src[d] * result->dims[d]) {
      k->dims[rank - 1] *= result->dims[d];
      k->src[rank - 1] = src[d];
      continue;
    }
    k->dims[rank] = result->dims[d];
    k->src[rank++] = src[d];
  }
  if (rank == 0) {
    k->dims[0] = 1;
    k->src[0] = 1;
    rank = 1;
  }
  k->rank = rank;
  k->n_rows = 1;
  for (int d = 0; d + 1 < rank; d++) k->n_rows *= k->dims[d];
}

/* The operand stride of every result dim (and the offset of element 0) for the op; false when
 * its attributes do not fit the shapes. */
static bool copy_strides(const hr_op *op, const hr_shape *x, const hr_shape *y, int64_t *src, int64_t *offset) {
  int64_t xs[HR_MAX_RANK], a[HR_MAX_RANK], b[HR_MAX_RANK], c[HR_MAX_RANK];
  int na = 0, nb = 0, nc = 0;
  shape_strides(x, xs);
  *offset = 0;
  hr_status s = NULL;
  if (op->code == HR_OP_BROADCAST_IN_DIM) {
    s = hr_op_attr_i64_list(op, "broadcast_dimensions", a, HR_MAX_RANK, &na);
    if (s || na != x->rank) goto fail;
    for (int d = 0; d < y->rank; d++) src[d] = 0;
    for (int j = 0; j < na; j++) {
      if (a[j] < 0 || a[j] >= y->rank || (x->dims[j] != y->dims[a[j]] && x->dims[j] != 1)) goto fail;
      src[a[j]] = x->dims[j] == 1 ? 0 : xs[j];
    }
    return true;
  }
  if (op->code == HR_OP_TRANSPOSE) {
    s = hr_op_attr_i64_list(op, "permutation", a, HR_MAX_RANK, &na);
    if (s || na != y->rank || na != x->rank) goto fail;
    for (int d = 0; d < na; d++) {
      if (a[d] < 0 || a[d] >= x->rank || x->dims[a[d]] != y->dims[d]) goto fail;
      src[d] = xs[a[d]];
    }
    return true;
  }
  s = hr_op_attr_i64_list(op, "start_indices", a, HR_MAX_RANK, &na);
  if (!s) s = hr_op_attr_i64_list(op, "limit_indices", b, HR_MAX_RANK, &nb);
  if (!s) s = hr_op_attr_i64_list(op, "strides", c, HR_MAX_RANK, &nc);
  if (s || na != x->rank || nb != na || nc != na || y->rank != na) goto fail;
  for (int d = 0; d < na; d++) {
    if (a[d] < 0 || c[d] < 1 || b[d] < a[d] || b[d] > x->dims[d] || y->dims[d] != (b[d] - a[d] + c[d] - 1) / c[d])
      goto fail;
    src[d] = xs[d] * c[d];
    *offset += a[d] * xs[d];
  }
  return true;
fail:
  hr_status_free(s);
  return false;
}

/* broadcast_in_dim, transpose and slice. */
static hr_status prepare_copy(const hr_fast_env *env, const hr_op *op, const hr_tensor *x, const hr_tensor *y,
                              hr_fast_kernel **out) {
  int64_t src[HR_MAX_RANK], offset = 0;
  if (x->dtype != y->dtype || !static_tensor(x) || !static_tensor(y) ||
      !copy_strides(op, &x->shape, &y->shape, src, &offset))
    return NULL;
  copy_kernel *k = (copy_kernel *)hr_fast_kernel_new(env, sizeof *k, "copy", copy_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing a copy kernel");
  k->esize = hr_dtype_size(y->dtype);
  k->offset = offset;
  merge_copy_dims(k, &y->shape, src);
  *out = &k->base;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Row gather                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

typedef struct gather_kernel {
  hr_fast_kernel base;
  int64_t rows, v;  /* result rows (indices), operand rows */
  size_t row_bytes; /* bytes of one operand row */
} gather_kernel;

typedef struct gather_job {
  const gather_kernel *k;
  const unsigned char *x;
  const hr_tensor *idx;
  unsigned char *y;
} gather_job;

static void gather_rows(void *ctx, int64_t begin, int64_t end, int worker) {
  const gather_job *j = ctx;
  const gather_kernel *k = j->k;
  for (int64_t r = begin; r < end; r++) {
    int64_t i = hr_clamp_i64(hr_data_load_index(j->idx->dtype, j->idx->data, r), 0, k->v - 1);
    memcpy(j->y + (size_t)r * k->row_bytes, j->x + (size_t)i * k->row_bytes, k->row_bytes);
  }
}

static hr_status gather_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                            void *scratch) {
  const gather_kernel *k = (const gather_kernel *)base;
  gather_job j = {k, operands[0]->data, operands[1], results[0]->data};
  hr_parallel_for(base->pool, k->rows, hr_fast_chunk((int64_t)k->row_bytes / 4), gather_rows, &j);
  return NULL;
}

/* Whether field `name` of the gather's dimension numbers is the list `want` (absent: empty). */
static bool field_is(const hr_attr *dn, const char *name, const int64_t *want, int n_want) {
  const hr_attr *f = hr_attr_field(dn, name);
  int64_t got[HR_MAX_RANK];
  int n = 0;
  if (f) {
    hr_status s = hr_attr_to_i64_list(f, got, HR_MAX_RANK, &n);
    if (s) {
      hr_status_free(s);
      return false;
    }
  }
  if (n != n_want) return false;
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) return false;
  return true;
}

/* Whether the gather takes whole rows of a rank-2 operand, one index per result row. */
static bool is_row_gather(const hr_op *op, const hr_tensor *x, const hr_tensor *idx, const hr_tensor *y) {
  const hr_attr *dn = hr_op_attr(op, "dimension_numbers");
  int64_t ivd = 0, sizes[HR_MAX_RANK], zero = 0, last = y->shape.rank - 1;
  int n_sizes = 0;
  if (!dn || x->shape.rank != 2 || y->dtype != x->dtype) return false;
  if (!hr_dtype_is_signed_int(idx->dtype) && !hr_dtype_is_unsigned_int(idx->dtype)) return false;
  const hr_attr *f = hr_attr_field(dn, "index_vector_dim");
  hr_status s = f ? hr_attr_to_i64(f, &ivd) : NULL;
  if (!s) s = hr_op_attr_i64_list(op, "slice_sizes", sizes, HR_MAX_RANK, &n_sizes);
  if (s) {
    hr_status_free(s);
    return false;
  }
  int batch_rank = idx->shape.rank;
  if (ivd == idx->shape.rank - 1 && idx->shape.dims[ivd] == 1)
    batch_rank--;
  else if (ivd != idx->shape.rank)
    return false;
  if (n_sizes != 2 || sizes[0] != 1 || sizes[1] != x->shape.dims[1] || y->shape.rank != batch_rank + 1 ||
      y->shape.dims[last] != x->shape.dims[1] || x->shape.dims[0] < 1)
    return false;
  for (int d = 0; d < batch_rank; d++)
    if (y->shape.dims[d] != idx->shape.dims[d]) return false;
  return field_is(dn, "offset_dims", &last, 1) && field_is(dn, "collapsed_slice_dims", &zero, 1) &&
         field_is(dn, "start_index_map", &zero, 1) && field_is(dn, "operand_batching_dims", NULL, 0) &&
         field_is(dn, "start_indices_batching_dims", NULL, 0);
}

static hr_status prepare_gather(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                const hr_tensor *y, hr_fast_kernel **out) {
  if (op->n_operands != 2 || !static_tensor(operands[0]) || !static_tensor(operands[1]) || !static_tensor(y) ||
      !is_row_gather(op, operands[0], operands[1], y))
    return NULL;
  gather_kernel *k = (gather_kernel *)hr_fast_kernel_new(env, sizeof *k, "gather", gather_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing a gather kernel");
  k->v = operands[0]->shape.dims[0];
  k->rows = hr_fast_dims_product(&y->shape, 0, y->shape.rank - 1);
  k->row_bytes = (size_t)operands[0]->shape.dims[1] * hr_dtype_size(y->dtype);
  *out = &k->base;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Select                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef struct select_kernel {
  hr_fast_kernel base;
  int64_t n;
  bool scalar_pred;
} select_kernel;

typedef struct select_job {
  const unsigned char *pred;
  const float *on_true, *on_false;
  float *y;
  int64_t n;
} select_job;

/* hr_parallel_fn over blocks of 16 elements: y = pred ? on_true : on_false. */
HR_AVX512 static void select_blocks(void *ctx, int64_t first, int64_t last, int worker) {
  const select_job *j = ctx;
  int64_t end = last * 16 < j->n ? last * 16 : j->n;
  for (int64_t i = first * 16; i < end; i += 16) {
    __mmask16 t = end - i >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (end - i)) - 1u);
    __m128i p = _mm_maskz_loadu_epi8(t, j->pred + i);
    __mmask16 m = _mm_test_epi8_mask(p, p);
    __m512 v =
        _mm512_mask_blend_ps(m, _mm512_maskz_loadu_ps(t, j->on_false + i), _mm512_maskz_loadu_ps(t, j->on_true + i));
    _mm512_mask_storeu_ps(j->y + i, t, v);
  }
}

static hr_status select_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                            void *scratch) {
  const select_kernel *k = (const select_kernel *)base;
  select_job j = {operands[0]->data, operands[1]->data, operands[2]->data, results[0]->data, k->n};
  if (k->scalar_pred) {
    if (k->n) memcpy(j.y, *j.pred ? j.on_true : j.on_false, (size_t)k->n * sizeof(float));
    return NULL;
  }
  hr_parallel_for(base->pool, (k->n + 15) / 16, hr_fast_chunk(16), select_blocks, &j);
  return NULL;
}

static hr_status prepare_select(const hr_fast_env *env, const hr_tensor *const *operands, const hr_tensor *y,
                                hr_fast_kernel **out) {
  const hr_tensor *p = operands[0];
  if (hr_dtype_size(y->dtype) != 4 || p->dtype != HR_I1 || !static_tensor(y)) return NULL;
  for (int i = 1; i < 3; i++)
    if (operands[i]->dtype != y->dtype || operands[i]->nbytes != y->nbytes) return NULL;
  bool scalar = p->shape.rank == 0;
  if (!scalar && p->nbytes != y->nbytes / 4) return NULL;
  select_kernel *k = (select_kernel *)hr_fast_kernel_new(env, sizeof *k, "select", select_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing a select kernel");
  k->n = (int64_t)(y->nbytes / 4);
  k->scalar_pred = scalar;
  *out = &k->base;
  return NULL;
}

hr_status hr_fast_prepare_data(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                               const hr_tensor *const *results, hr_fast_kernel **out) {
  if (op->n_results != 1 || op->n_operands < 1) return NULL;
  switch (op->code) {
    case HR_OP_BROADCAST_IN_DIM:
    case HR_OP_TRANSPOSE:
    case HR_OP_SLICE:
      return op->n_operands == 1 ? prepare_copy(env, op, operands[0], results[0], out) : NULL;
    case HR_OP_GATHER:
      return prepare_gather(env, op, operands, results[0], out);
    case HR_OP_SELECT:
      return op->n_operands == 3 ? prepare_select(env, operands, results[0], out) : NULL;
    default:
      return NULL;
  }
}

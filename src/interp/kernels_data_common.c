/* Shared machinery of the data-movement kernels: bounds-checked strided copies, index loading,
 * attribute helpers and scalar region evaluation (see interp/data.h). */
#include <stdio.h>
#include <string.h>

#include "base/elem.h"
#include "interp/data.h"

/* ---------------------------------------------------------------------------------------------- */
/* Strided copies                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

void hr_copy_plan_init(hr_copy_plan *p, int rank, const int64_t *dims) {
  memset(p, 0, sizeof *p);
  p->rank = rank;
  for (int d = 0; d < rank; d++) p->dims[d] = dims[d];
}

void hr_data_replicate(void *dst, int64_t n, size_t esize) {
  unsigned char *d = dst;
  int64_t filled = 1;
  /* Doubling copies: each memcpy reads only the already filled prefix, so nothing overlaps. */
  while (filled < n) {
    int64_t chunk = filled < n - filled ? filled : n - filled;
    memcpy(d + (size_t)filled * esize, d, (size_t)chunk * esize);
    filled += chunk;
  }
}

void hr_data_fill(void *dst, int64_t n, const void *elem, size_t esize) {
  if (n <= 0) return;
  memcpy(dst, elem, esize);
  hr_data_replicate(dst, n, esize);
}

void hr_data_strides(const hr_shape *s, int64_t *strides) {
  for (int d = 0; d < s->rank; d++) {
    if (s->dims[d] == 0) {
      memset(strides, 0, (size_t)s->rank * sizeof *strides);
      return;
    }
  }
  hr_row_major_strides(s, strides);
}

hr_status hr_data_copy_all(const hr_op *op, const hr_tensor *src, hr_tensor *dst) {
  if (src->nbytes != dst->nbytes)
    return hr_op_error(op, HR_INTERNAL, "copy between tensors of %zu and %zu bytes", src->nbytes,
                       dst->nbytes);
  if (src->nbytes) memcpy(dst->data, src->data, src->nbytes);
  return NULL;
}

/* Computes the lowest and highest element offsets reachable from `offset` through `stride` over
 * the plan's box (every dim >= 1); false on overflow. */
static bool plan_extent(const hr_copy_plan *p, const int64_t *stride, int64_t offset, int64_t *lo,
                        int64_t *hi) {
  *lo = *hi = offset;
  for (int d = 0; d < p->rank; d++) {
    int64_t span;
    if (!hr_mul_i64(p->dims[d] - 1, stride[d], &span)) return false;
    if (!hr_add_i64(span < 0 ? *lo : *hi, span, span < 0 ? lo : hi)) return false;
  }
  return true;
}

bool hr_copy_plan_in_bounds(const hr_copy_plan *p, int64_t n_src, int64_t n_dst) {
  int64_t lo, hi;
  if (!plan_extent(p, p->src_stride, p->src_offset, &lo, &hi) || lo < 0 || hi >= n_src) return false;
  if (!plan_extent(p, p->dst_stride, p->dst_offset, &lo, &hi) || lo < 0 || hi >= n_dst) return false;
  return true;
}

/* Simplifies a plan in place: drops unit dims and merges neighbours that are contiguous in both
 * source and destination, so inner runs become as long as possible. */
static void plan_compact(hr_copy_plan *p) {
  int r = 0;
  for (int d = 0; d < p->rank; d++) {
    int64_t n = p->dims[d], ss = p->src_stride[d], ds = p->dst_stride[d];
    if (n == 1) continue;
    int64_t outer_ss, outer_ds, merged;
    if (r > 0 && hr_mul_i64(ss, n, &outer_ss) && hr_mul_i64(ds, n, &outer_ds) &&
        outer_ss == p->src_stride[r - 1] && outer_ds == p->dst_stride[r - 1] &&
        hr_mul_i64(p->dims[r - 1], n, &merged)) {
      p->dims[r - 1] = merged;
      p->src_stride[r - 1] = ss;
      p->dst_stride[r - 1] = ds;
      continue;
    }
    p->dims[r] = n;
    p->src_stride[r] = ss;
    p->dst_stride[r] = ds;
    r++;
  }
  p->rank = r;
}

/* Copies `len` elements of `es` bytes between strided runs (strides in bytes). Written for a
 * constant `es` so that each call site below compiles to a fixed-size move. */
static inline void copy_elems(unsigned char *dst, ptrdiff_t db, const unsigned char *src, ptrdiff_t sb,
                              int64_t len, size_t es) {
  for (int64_t i = 0; i < len; i++) memcpy(dst + i * db, src + i * sb, es);
}

/* Copies one innermost run of a plan. */
static void copy_run(unsigned char *dst, int64_t ds, const unsigned char *src, int64_t ss, int64_t len,
                     size_t es) {
  if (ss == 1 && ds == 1) {
    memcpy(dst, src, (size_t)len * es);
    return;
  }
  if (ss == 0 && ds == 1) {
    hr_data_fill(dst, len, src, es);
    return;
  }
  ptrdiff_t sb = (ptrdiff_t)(ss * (int64_t)es), db = (ptrdiff_t)(ds * (int64_t)es);
  switch (es) {
    case 1: copy_elems(dst, db, src, sb, len, 1); break;
    case 2: copy_elems(dst, db, src, sb, len, 2); break;
    case 4: copy_elems(dst, db, src, sb, len, 4); break;
    case 8: copy_elems(dst, db, src, sb, len, 8); break;
    case 16: copy_elems(dst, db, src, sb, len, 16); break;
    default: copy_elems(dst, db, src, sb, len, es); break;
  }
}

/* Edge of the square tiles transposing copies move at a time, and of the groups of tiles they
 * visit together. */
enum { TILE = 32, BLOCK = 128 };

/* For a transposing plan of elements of at most 16 bytes (destination contiguous along the
 * innermost dim, source strided there but contiguous along another dim), returns that other dim
 * so the copy can go by cache-sized tiles; -1 when row-by-row copying is as good. */
static int pick_tile_dim(const hr_copy_plan *p, size_t es) {
  int inner = p->rank - 1;
  if (p->rank < 2 || es > 16 || p->dst_stride[inner] != 1 || p->dims[inner] < TILE / 2) return -1;
  if (p->src_stride[inner] == 0 || p->src_stride[inner] == 1) return -1;
  for (int k = inner - 1; k >= 0; k--)
    if (p->src_stride[k] == 1 && p->dims[k] >= TILE / 2) return k;
  return -1;
}

/* Moves one tile of `la` destination-contiguous by `lb` source-contiguous elements through `buf`:
 * reads `la` contiguous source runs of `lb` elements (stride `ss` between runs), then writes `lb`
 * contiguous destination runs of `la` elements (stride `ds` between runs). */
static void copy_one_tile(unsigned char *dst, int64_t ds, const unsigned char *src, int64_t ss,
                          int64_t la, int64_t lb, size_t es, unsigned char *buf) {
  ptrdiff_t esz = (ptrdiff_t)es;
  for (int64_t a = 0; a < la; a++)
    memcpy(buf + a * TILE * esz, src + (ptrdiff_t)(a * ss) * esz, (size_t)(lb * esz));
  for (int64_t b = 0; b < lb; b++) copy_run(dst + (ptrdiff_t)(b * ds) * esz, 1, buf + b * esz, TILE, la, es);
}

/* Copies the 2-D block spanned by dim `kd` (source-contiguous) and the innermost dim
 * (destination-contiguous) tile by tile, visiting tiles in BLOCK-sized groups. Each tile is read
 * and written as contiguous runs, so power-of-two strides cannot make source and destination
 * evict each other, and each group touches few enough pages to stay in the TLB. */
static void copy_tiled(const hr_copy_plan *p, int kd, unsigned char *dst, const unsigned char *src,
                       size_t es) {
  unsigned char buf[TILE * TILE * 16]; /* es <= 16 (complex<f64>) */
  int inner = p->rank - 1;
  int64_t nk = p->dims[kd], nin = p->dims[inner];
  int64_t ds = p->dst_stride[kd], ss = p->src_stride[inner];
  ptrdiff_t esz = (ptrdiff_t)es;
  for (int64_t ga = 0; ga < nin; ga += BLOCK) {
    for (int64_t gb = 0; gb < nk; gb += BLOCK) {
      for (int64_t a0 = ga; a0 < nin && a0 < ga + BLOCK; a0 += TILE) {
        int64_t la = nin - a0 < TILE ? nin - a0 : TILE;
        for (int64_t b0 = gb; b0 < nk && b0 < gb + BLOCK; b0 += TILE) {
          int64_t lb = nk - b0 < TILE ? nk - b0 : TILE;
          copy_one_tile(dst + (ptrdiff_t)(b0 * ds + a0) * esz, ds,
                        src + (ptrdiff_t)(b0 + a0 * ss) * esz, ss, la, lb, es, buf);
        }
      }
    }
  }
}

hr_status hr_copy_plan_run(const hr_op *op, const hr_copy_plan *plan, const hr_tensor *src,
                           hr_tensor *dst) {
  if (src->dtype != dst->dtype)
    return hr_op_error(op, HR_INTERNAL, "copy between element types %s and %s",
                       hr_dtype_name(src->dtype), hr_dtype_name(dst->dtype));
  if (plan->rank < 0 || plan->rank > HR_MAX_RANK)
    return hr_op_error(op, HR_INTERNAL, "copy of rank %d", plan->rank);
  for (int d = 0; d < plan->rank; d++) {
    if (plan->dims[d] < 0) return hr_op_error(op, HR_INTERNAL, "copy box with a negative size");
    if (plan->dims[d] == 0) return NULL;
  }
  if (!hr_copy_plan_in_bounds(plan, hr_tensor_num_elements(src), hr_tensor_num_elements(dst)))
    return hr_op_error(op, HR_INTERNAL, "copy plan reaches outside its tensors");
  hr_copy_plan p = *plan;
  plan_compact(&p);
  size_t es = hr_dtype_size(src->dtype);
  const unsigned char *s = src->data;
  unsigned char *d = dst->data;
  if (p.rank == 0) {
    memcpy(d + (size_t)p.dst_offset * es, s + (size_t)p.src_offset * es, es);
    return NULL;
  }
  int inner = p.rank - 1;
  int tile = pick_tile_dim(&p, es);
  int64_t idx[HR_MAX_RANK] = {0};
  int64_t so = p.src_offset, dof = p.dst_offset;
  for (;;) {
    if (tile >= 0)
      copy_tiled(&p, tile, d + (size_t)dof * es, s + (size_t)so * es, es);
    else
      copy_run(d + (size_t)dof * es, p.dst_stride[inner], s + (size_t)so * es, p.src_stride[inner],
               p.dims[inner], es);
    /* Odometer step over the remaining outer dims, moving both offsets incrementally. */
    int k = inner - 1;
    for (; k >= 0; k--) {
      if (k == tile) continue;
      so += p.src_stride[k];
      dof += p.dst_stride[k];
      if (++idx[k] < p.dims[k]) break;
      so -= p.src_stride[k] * p.dims[k];
      dof -= p.dst_stride[k] * p.dims[k];
      idx[k] = 0;
    }
    if (k < 0) return NULL;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Indices and attributes                                                                          */
/* ---------------------------------------------------------------------------------------------- */

int64_t hr_data_load_index(hr_dtype t, const void *data, int64_t i) {
  if (t == HR_U64) {
    uint64_t u;
    memcpy(&u, (const unsigned char *)data + (size_t)i * 8, 8);
    return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
  }
  return hr_load_int(t, data, i);
}

hr_status hr_data_check_index_tensor(const hr_op *op, const hr_tensor *t, const char *what) {
  if (!hr_dtype_is_signed_int(t->dtype) && !hr_dtype_is_unsigned_int(t->dtype))
    return hr_op_error(op, HR_VERIFY_ERROR, "%s must have an integer element type, not %s", what,
                       hr_dtype_name(t->dtype));
  return NULL;
}

hr_status hr_data_read_index_vector(const hr_op *op, const hr_tensor *t, int n, const char *what,
                                    int64_t *out) {
  HR_TRY(hr_data_check_index_tensor(op, t, what));
  if (t->shape.rank != 1 || t->shape.dims[0] != n)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s must be a 1-D tensor of %d elements", what, n);
  for (int i = 0; i < n; i++) out[i] = hr_data_load_index(t->dtype, t->data, i);
  return NULL;
}

hr_status hr_data_check_axes(const hr_op *op, const char *what, const int64_t *axes, int n, int rank) {
  for (int i = 0; i < n; i++) {
    if (axes[i] < 0 || axes[i] >= rank)
      return hr_op_error(op, HR_VERIFY_ERROR, "%s: dimension %lld is outside [0, %d)", what,
                         (long long)axes[i], rank);
    for (int j = 0; j < i; j++)
      if (axes[j] == axes[i])
        return hr_op_error(op, HR_VERIFY_ERROR, "%s: dimension %lld appears twice", what,
                           (long long)axes[i]);
  }
  return NULL;
}

/* Writes a shape as "2x3" (rank 0: "scalar") into buf. */
static void format_shape(const hr_shape *s, char *buf, size_t cap) {
  size_t len = 0;
  buf[0] = 0;
  if (s->rank == 0) snprintf(buf, cap, "scalar");
  for (int d = 0; d < s->rank && len < cap; d++)
    len += (size_t)snprintf(buf + len, cap - len, "%s%lld", d ? "x" : "", (long long)s->dims[d]);
}

hr_status hr_data_check_shape(const hr_op *op, const char *what, const hr_tensor *t,
                              const hr_shape *expected) {
  bool same = t->shape.rank == expected->rank;
  for (int d = 0; same && d < expected->rank; d++) same = t->shape.dims[d] == expected->dims[d];
  if (same) return NULL;
  char have[256], want[256];
  format_shape(&t->shape, have, sizeof have);
  format_shape(expected, want, sizeof want);
  return hr_op_error(op, HR_VERIFY_ERROR, "%s has shape %s, expected %s", what, have, want);
}

hr_status hr_data_struct_int(const hr_op *op, const hr_attr *s, const char *name, int64_t dflt,
                             int64_t *out) {
  *out = dflt;
  const hr_attr *f = hr_attr_field(s, name);
  if (!f) return NULL;
  hr_status st = hr_attr_to_i64(f, out);
  if (!st) return NULL;
  hr_status e = hr_op_error(op, HR_VERIFY_ERROR, "%s: %s", name, hr_status_message(st));
  hr_status_free(st);
  return e;
}

/* ---------------------------------------------------------------------------------------------- */
/* Scalar regions                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* Allocates an array of `n` tensor pointers, all NULL. */
static hr_status alloc_tensor_array(hr_interp *in, const hr_op *op, int n, hr_tensor ***out) {
  const hr_allocator *a = in->allocator;
  size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(hr_tensor *);
  *out = a->alloc(a->ctx, bytes, _Alignof(hr_tensor *));
  if (!*out) return hr_op_error(op, HR_OUT_OF_MEMORY, "out of memory");
  memset(*out, 0, bytes);
  return NULL;
}

hr_status hr_scalar_region_init(hr_scalar_region *r, hr_interp *in, const hr_op *op,
                                const hr_block *block, int n_args, int n_results) {
  memset(r, 0, sizeof *r);
  r->in = in;
  r->op = op;
  r->block = block;
  if (block->n_args != n_args)
    return hr_op_error(op, HR_VERIFY_ERROR, "region takes %d arguments, expected %d", block->n_args,
                       n_args);
  if (block->n_ops < 1 || block->ops[block->n_ops - 1]->n_operands != n_results)
    return hr_op_error(op, HR_VERIFY_ERROR, "region must return %d values", n_results);
  r->n_args = n_args;
  r->n_results = n_results;
  hr_status s = alloc_tensor_array(in, op, n_args, &r->args);
  if (!s) s = alloc_tensor_array(in, op, n_results, &r->results);
  hr_shape scalar = {0};
  for (int i = 0; i < n_args && !s; i++) {
    const hr_type *t = &block->args[i].type;
    if (t->kind != HR_TYPE_TENSOR || t->shape.rank != 0)
      s = hr_op_error(op, HR_VERIFY_ERROR, "region argument %d must be a rank-0 tensor", i);
    else
      s = hr_interp_alloc(in, op, t->dtype, &scalar, &r->args[i]);
  }
  if (s) hr_scalar_region_release(r);
  return s;
}

/* Frees the results of the latest call. */
static void drop_results(hr_scalar_region *r) {
  for (int i = 0; i < r->n_results; i++) {
    hr_tensor_free(r->results[i]);
    r->results[i] = NULL;
  }
}

hr_status hr_scalar_region_init_func(hr_scalar_region *r, hr_interp *in, const hr_op *op, const hr_func *fn,
                                     int n_args, int n_results) {
  HR_TRY(hr_scalar_region_init(r, in, op, &fn->body, n_args, n_results));
  r->func = fn;
  return NULL;
}

hr_status hr_scalar_region_call(hr_scalar_region *r, const hr_dtype *result_types) {
  drop_results(r);
  if (r->func) HR_TRY(hr_interp_call(r->in, r->func, r->args, r->results));
  else HR_TRY(hr_interp_run_block(r->in, r->block, r->args, r->results));
  for (int i = 0; i < r->n_results; i++) {
    const hr_tensor *t = r->results[i];
    if (t->shape.rank != 0 || t->nbytes != hr_dtype_size(t->dtype) ||
        (result_types && t->dtype != result_types[i]))
      return hr_op_error(r->op, HR_VERIFY_ERROR, "region result %d must be a rank-0 tensor%s%s", i,
                         result_types ? " of type " : "",
                         result_types ? hr_dtype_name(result_types[i]) : "");
  }
  return NULL;
}

void hr_scalar_region_release(hr_scalar_region *r) {
  const hr_allocator *a = r->in->allocator;
  if (r->results) {
    drop_results(r);
    a->free(a->ctx, r->results);
  }
  if (r->args) {
    for (int i = 0; i < r->n_args; i++) hr_tensor_free(r->args[i]);
    a->free(a->ctx, r->args);
  }
  r->args = NULL;
  r->results = NULL;
}

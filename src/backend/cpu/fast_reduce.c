/* Fast stablehlo.reduce of one input whose body is one binary op (add, multiply, maximum, minimum,
 * and, or, xor) on f32, i1, i32 or i64 with the init value, input and result of one type.
 *
 * It folds, for each result element, the reduced elements in ascending row-major order into the
 * init value, one op at a time in the element type, exactly as the reference kernel does
 * (kernels_reduce.c), so the results are the same bit for bit; result elements are spread over
 * the pool. Unlike the reference kernel, it allocates nothing. */
#include <math.h>
#include <string.h>

#include "backend/cpu/fast_internal.h"
#include "interp/reduce.h"

typedef struct reduce_kernel {
  hr_fast_kernel base;
  hr_opcode body;
  hr_dtype dtype;
  int kept_rank, red_rank;
  int64_t kept_dims[HR_MAX_RANK], kept_strides[HR_MAX_RANK]; /* input strides of the result dims */
  int64_t red_dims[HR_MAX_RANK], red_strides[HR_MAX_RANK];   /* the reduced dims, ascending */
  int64_t n_out, n_red;
} reduce_kernel;

typedef struct reduce_job {
  const reduce_kernel *k;
  const void *x, *init;
  void *y;
} reduce_job;

/* maximum / minimum of the reference (elementwise kernels): NaN propagates, -0 < +0. */
static float max_f32(float a, float b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}

static float min_f32(float a, float b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}

/* acc op x for f32. */
static float apply_f32(hr_opcode op, float acc, float x) {
  switch (op) {
    case HR_OP_ADD:
      return acc + x;
    case HR_OP_MULTIPLY:
      return acc * x;
    case HR_OP_MAXIMUM:
      return max_f32(acc, x);
    default:
      return min_f32(acc, x);
  }
}

/* acc op x for integers (wrapping arithmetic, as the reference computes in unsigned types). */
static int64_t apply_int(hr_opcode op, int64_t acc, int64_t x) {
  switch (op) {
    case HR_OP_ADD:
      return (int64_t)((uint64_t)acc + (uint64_t)x);
    case HR_OP_MULTIPLY:
      return (int64_t)((uint64_t)acc * (uint64_t)x);
    case HR_OP_MAXIMUM:
      return acc > x ? acc : x;
    case HR_OP_MINIMUM:
      return acc < x ? acc : x;
    case HR_OP_AND:
      return acc & x;
    case HR_OP_OR:
      return acc | x;
    default:
      return acc ^ x;
  }
}

/* Element i of an i1 / i32 / i64 buffer as int64. */
static int64_t load_int(hr_dtype t, const void *p, int64_t i) {
  if (t == HR_I1) return ((const unsigned char *)p)[i];
  if (t == HR_I32) return ((const int32_t *)p)[i];
  return ((const int64_t *)p)[i];
}

static void store_int(hr_dtype t, void *p, int64_t i, int64_t v) {
  if (t == HR_I1)
    ((unsigned char *)p)[i] = (unsigned char)(v & 1);
  else if (t == HR_I32)
    ((int32_t *)p)[i] = (int32_t)v;
  else
    ((int64_t *)p)[i] = v;
}

/* The input offset of the j-th reduced element (row-major over the reduced dims) from `base`. */
static int64_t reduced_offset(const reduce_kernel *k, int64_t j) {
  int64_t off = 0;
  for (int d = k->red_rank - 1; d >= 0; d--) {
    off += j % k->red_dims[d] * k->red_strides[d];
    j /= k->red_dims[d];
  }
  return off;
}

/* hr_parallel_fn over result elements. */
static void reduce_outputs(void *ctx, int64_t begin, int64_t end, int worker) {
  const reduce_job *j = ctx;
  const reduce_kernel *k = j->k;
  bool contiguous = k->red_rank == 1 && k->red_strides[0] == 1;
  for (int64_t o = begin; o < end; o++) {
    int64_t base = 0, rest = o;
    for (int d = k->kept_rank - 1; d >= 0; d--) {
      base += rest % k->kept_dims[d] * k->kept_strides[d];
      rest /= k->kept_dims[d];
    }
    if (k->dtype == HR_F32) {
      const float *x = (const float *)j->x + base;
      float acc = *(const float *)j->init;
      for (int64_t r = 0; r < k->n_red; r++) acc = apply_f32(k->body, acc, x[contiguous ? r : reduced_offset(k, r)]);
      ((float *)j->y)[o] = acc;
    } else {
      int64_t acc = load_int(k->dtype, j->init, 0);
      for (int64_t r = 0; r < k->n_red; r++)
        acc = apply_int(k->body, acc, load_int(k->dtype, j->x, base + (contiguous ? r : reduced_offset(k, r))));
      store_int(k->dtype, j->y, o, acc);
    }
  }
}

static hr_status reduce_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                            void *scratch) {
  const reduce_kernel *k = (const reduce_kernel *)base;
  reduce_job j = {k, operands[0]->data, operands[1]->data, results[0]->data};
  hr_parallel_for(base->pool, k->n_out, hr_fast_chunk(4 * k->n_red), reduce_outputs, &j);
  return NULL;
}

/* Whether `body` on `t` is served: arithmetic and comparisons on f32; everything but subtract on
 * i32 / i64; the logical ops and maximum / minimum on i1. */
static bool body_ok(hr_opcode body, hr_dtype t) {
  bool arith = body == HR_OP_ADD || body == HR_OP_MULTIPLY, order = body == HR_OP_MAXIMUM || body == HR_OP_MINIMUM;
  bool logic = body == HR_OP_AND || body == HR_OP_OR || body == HR_OP_XOR;
  if (t == HR_F32) return arith || order;
  if (t == HR_I32 || t == HR_I64) return arith || order || logic;
  return t == HR_I1 && (order || logic);
}

/* Splits the input's dims into kept and reduced ones; false when `dimensions` does not fit. */
static bool plan_dims(reduce_kernel *k, const hr_op *op, const hr_shape *x, const hr_shape *y) {
  int64_t dims[HR_MAX_RANK], strides[HR_MAX_RANK], st = 1;
  int nd = 0;
  hr_status s = hr_op_attr_i64_list(op, "dimensions", dims, HR_MAX_RANK, &nd);
  if (s) {
    hr_status_free(s);
    return false;
  }
  bool reduced[HR_MAX_RANK] = {false};
  for (int i = 0; i < nd; i++) {
    if (dims[i] < 0 || dims[i] >= x->rank || reduced[dims[i]]) return false;
    reduced[dims[i]] = true;
  }
  for (int d = x->rank - 1; d >= 0; d--) {
    strides[d] = st;
    st *= x->dims[d];
  }
  k->n_out = k->n_red = 1;
  for (int d = 0; d < x->rank; d++) {
    if (reduced[d]) {
      k->red_dims[k->red_rank] = x->dims[d];
      k->red_strides[k->red_rank++] = strides[d];
      k->n_red *= x->dims[d];
    } else {
      if (k->kept_rank >= y->rank || y->dims[k->kept_rank] != x->dims[d]) return false;
      k->kept_dims[k->kept_rank] = x->dims[d];
      k->kept_strides[k->kept_rank++] = strides[d];
      k->n_out *= x->dims[d];
    }
  }
  return k->kept_rank == y->rank;
}

hr_status hr_fast_prepare_reduce(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                 const hr_tensor *const *results, hr_fast_kernel **out) {
  hr_opcode body;
  const hr_op *body_op;
  if (op->n_operands != 2 || op->n_results != 1 || op->n_regions != 1 ||
      !hr_red_fast_binary_body(&op->regions[0], &body, &body_op))
    return NULL;
  hr_dtype t = operands[0]->dtype;
  if (operands[1]->dtype != t || results[0]->dtype != t || operands[1]->shape.rank != 0 ||
      body_op->results[0].type.dtype != t || !body_ok(body, t))
    return NULL;
  reduce_kernel *k = (reduce_kernel *)hr_fast_kernel_new(env, sizeof *k, "reduce", reduce_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing a reduce kernel");
  k->body = body;
  k->dtype = t;
  if (!plan_dims(k, op, &operands[0]->shape, &results[0]->shape)) {
    hr_fast_free(&k->base);
    return NULL;
  }
  *out = &k->base;
  return NULL;
}

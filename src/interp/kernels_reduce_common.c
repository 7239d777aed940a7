/* Shared helpers of the reduce kernel group: checked arithmetic, attribute readers, scalar
 * conversion, and evaluation of region bodies on scalars (see interp/reduce.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "interp/elementwise.h"
#include "interp/reduce.h"

/* ---------------------------------------------------------------------------------------------- */
/* Checked arithmetic and small helpers                                                            */
/* ---------------------------------------------------------------------------------------------- */

bool hr_red_mul(int64_t a, int64_t b, int64_t *out) {
  if (a < 0 || b < 0) return false;
  return !__builtin_mul_overflow(a, b, out);
}

bool hr_red_add(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }

bool hr_red_dims_product(const int64_t *dims, const int64_t *which, int n, int64_t *out) {
  int64_t p = 1;
  for (int i = 0; i < n; i++)
    if (!hr_red_mul(p, dims[which[i]], &p)) return false;
  *out = p;
  return true;
}

bool hr_red_tensor_is(const hr_tensor *t, hr_dtype dtype, const hr_shape *shape) {
  if (t->dtype != dtype || t->shape.rank != shape->rank) return false;
  for (int d = 0; d < shape->rank; d++)
    if (t->shape.dims[d] != shape->dims[d]) return false;
  return true;
}

const char *hr_red_shape_str(const hr_shape *s, char *buf, size_t cap) {
  if (cap == 0) return "";
  buf[0] = '\0';
  if (s->rank == 0) {
    snprintf(buf, cap, "scalar");
    return buf;
  }
  size_t len = 0;
  for (int d = 0; d < s->rank && len < cap; d++) {
    int w = snprintf(buf + len, cap - len, d ? "x%lld" : "%lld", (long long)s->dims[d]);
    if (w < 0) break;
    len += (size_t)w;
  }
  return buf;
}

/* ---------------------------------------------------------------------------------------------- */
/* Attribute readers                                                                               */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_red_read_padding(const hr_op *op, const char *name, int rank, int64_t *lo, int64_t *hi) {
  for (int d = 0; d < rank; d++) lo[d] = hi[d] = 0;
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return NULL;
  const hr_type *t = a->kind == HR_ATTR_DENSE ? &a->u.dense.type : NULL;
  bool is_int = t && (hr_dtype_is_signed_int(t->dtype) || hr_dtype_is_unsigned_int(t->dtype));
  if (!is_int || t->shape.rank != 2 || t->shape.dims[0] != rank || t->shape.dims[1] != 2)
    return hr_op_error(op, HR_VERIFY_ERROR, "attribute '%s' must be a %dx2 integer tensor", name, rank);
  for (int d = 0; d < rank; d++) {
    lo[d] = hr_load_int(t->dtype, hr_dense_element(a, 2 * (int64_t)d), 0);
    hi[d] = hr_load_int(t->dtype, hr_dense_element(a, 2 * (int64_t)d + 1), 0);
  }
  return NULL;
}

hr_status hr_red_read_dims_attr(const hr_op *op, const char *name, int rank, int64_t dflt,
                                bool positive, int64_t *out) {
  for (int d = 0; d < rank; d++) out[d] = dflt;
  if (!hr_op_attr(op, name)) return NULL;
  int64_t buf[HR_MAX_RANK];
  int n;
  HR_TRY(hr_op_attr_i64_list_opt(op, name, buf, HR_MAX_RANK, &n));
  if (n != rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "attribute '%s' has %d entries, expected %d", name, n, rank);
  for (int d = 0; d < rank; d++) {
    if (positive && buf[d] <= 0)
      return hr_op_error(op, HR_VERIFY_ERROR, "attribute '%s' entry %d is %lld, must be positive", name,
                         d, (long long)buf[d]);
    out[d] = buf[d];
  }
  return NULL;
}

hr_status hr_red_read_bool(const hr_op *op, const char *name, bool dflt, bool *out) {
  *out = dflt;
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return NULL;
  int64_t v;
  hr_status s = hr_attr_to_i64(a, &v);
  if (s) {
    hr_status_free(s);
    return hr_op_error(op, HR_VERIFY_ERROR, "attribute '%s' must be a boolean", name);
  }
  *out = v != 0;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Scalar conversion                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Converts a real value to integer type `to`, saturating at its bounds; NaN gives 0. */
static int64_t saturate_to_int(hr_dtype to, double v) {
  if (isnan(v)) return 0;
  int bits = hr_dtype_bits(to);
  if (hr_dtype_is_unsigned_int(to)) {
    if (v <= 0) return 0;
    if (bits == 64) return v >= 18446744073709551616.0 ? (int64_t)UINT64_MAX : (int64_t)(uint64_t)v;
    double max = ldexp(1.0, bits) - 1;
    return (int64_t)(v >= max ? max : v);
  }
  if (bits == 64) {
    if (v >= 9223372036854775808.0) return INT64_MAX;
    if (v < -9223372036854775808.0) return INT64_MIN;
    return (int64_t)v;
  }
  double max = ldexp(1.0, bits - 1) - 1, min = -ldexp(1.0, bits - 1);
  return (int64_t)(v >= max ? max : v <= min ? min : v);
}

/* Stores the complex value (re, im) as one element of `to` with convert semantics. */
static void store_from_complex(hr_dtype to, double re, double im, void *dst) {
  if (hr_dtype_is_complex(to)) {
    hr_store_complex(to, dst, 0, (hr_c128){re, im});
  } else if (hr_dtype_is_real_float(to)) {
    hr_store_float(to, dst, 0, re);
  } else if (to == HR_I1) {
    hr_store_int(to, dst, 0, re != 0 || im != 0);
  } else {
    hr_store_int(to, dst, 0, saturate_to_int(to, re));
  }
}

void hr_red_convert_scalar(hr_dtype from, const void *src, hr_dtype to, void *dst) {
  if (from == to) {
    memcpy(dst, src, hr_dtype_size(to));
  } else if (hr_dtype_is_complex(from)) {
    hr_c128 c = hr_load_complex(from, src, 0);
    store_from_complex(to, c.re, c.im, dst);
  } else if (hr_dtype_is_real_float(from)) {
    store_from_complex(to, hr_load_float(from, src, 0), 0.0, dst);
  } else {
    int64_t v = hr_load_int(from, src, 0);
    bool is_unsigned = hr_dtype_is_unsigned_int(from) || from == HR_I1;
    if (to == HR_I1) {
      hr_store_int(to, dst, 0, v != 0);
    } else if (!hr_dtype_is_real_float(to) && !hr_dtype_is_complex(to)) {
      hr_store_int(to, dst, 0, v);
    } else if (to == HR_F32) {
      float f = is_unsigned ? (float)(uint64_t)v : (float)v;
      memcpy(dst, &f, sizeof f);
    } else {
      store_from_complex(to, is_unsigned ? (double)(uint64_t)v : (double)v, 0.0, dst);
    }
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Regions on scalars                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* True for a static rank-0 tensor type; stores its element type. */
static bool scalar_type(const hr_type *t, hr_dtype *dtype) {
  if (t->kind != HR_TYPE_TENSOR || t->shape.rank != 0 || hr_dtype_size(t->dtype) == 0) return false;
  *dtype = t->dtype;
  return true;
}

/* Prepares block `b` (region `index` of `op`, or a function's body when index < 0) as a region
 * taking `n_args` and returning `n_results` rank-0 tensors; errors name `op`. */
static hr_status region_init_block(hr_red_region *r, hr_interp *in, const hr_op *op, const hr_block *b, int index,
                                   int n_args, int n_results) {
  r->in = in;
  r->op = op;
  char what[96];
  if (index >= 0) snprintf(what, sizeof what, "region %d", index);
  else snprintf(what, sizeof what, "body @%s", b->func ? b->func->name : "?");
  if (n_args > 2 * HR_RED_MAX_VARIADIC || n_results > 2 * HR_RED_MAX_VARIADIC)
    return hr_op_error(op, HR_UNIMPLEMENTED, "regions with more than %d arguments are not supported",
                       2 * HR_RED_MAX_VARIADIC);
  if (b->n_args != n_args)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s takes %d arguments, expected %d", what, b->n_args, n_args);
  for (int i = 0; i < n_args; i++)
    if (!scalar_type(&b->args[i].type, &r->arg_types[i]))
      return hr_op_error(op, HR_VERIFY_ERROR, "%s argument %d must be a static 0-d tensor", what, i);
  const hr_op *term = b->n_ops > 0 ? b->ops[b->n_ops - 1] : NULL;
  if (!term || !(hr_opcode_flags(term->code) & HR_OPF_TERMINATOR))
    return hr_op_error(op, HR_VERIFY_ERROR, "%s has no terminator", what);
  if (term->n_operands != n_results)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s returns %d values, expected %d", what, term->n_operands, n_results);
  for (int i = 0; i < n_results; i++)
    if (!scalar_type(&term->operands[i]->type, &r->result_types[i]))
      return hr_op_error(op, HR_VERIFY_ERROR, "%s result %d must be a static 0-d tensor", what, i);
  r->block = b;
  r->n_args = n_args;
  r->n_results = n_results;
  hr_shape scalar = {0};
  for (int i = 0; i < n_args; i++) HR_TRY(hr_interp_alloc(in, op, r->arg_types[i], &scalar, &r->args[i]));
  return NULL;
}

hr_status hr_red_region_init(hr_red_region *r, hr_interp *in, const hr_op *op, int index,
                             int n_args, int n_results) {
  memset(r, 0, sizeof *r);
  r->in = in;
  r->op = op;
  if (index < 0 || index >= op->n_regions) return hr_op_error(op, HR_VERIFY_ERROR, "missing region %d", index);
  return region_init_block(r, in, op, &op->regions[index], index, n_args, n_results);
}

hr_status hr_red_region_call(hr_red_region *r, const void *const *args, void *const *results) {
  for (int i = 0; i < r->n_args; i++) memcpy(r->args[i]->data, args[i], hr_dtype_size(r->arg_types[i]));
  hr_tensor *outs[2 * HR_RED_MAX_VARIADIC] = {0};
  if (r->func) HR_TRY(hr_interp_call(r->in, r->func, r->args, outs));
  else HR_TRY(hr_interp_run_block(r->in, r->block, r->args, outs));
  hr_status s = NULL;
  for (int i = 0; i < r->n_results; i++) {
    if (!s && (outs[i]->dtype != r->result_types[i] || hr_tensor_num_elements(outs[i]) != 1))
      s = hr_op_error(r->op, HR_VERIFY_ERROR, "region result %d is not a %s scalar", i,
                      hr_dtype_name(r->result_types[i]));
    if (!s) memcpy(results[i], outs[i]->data, hr_dtype_size(r->result_types[i]));
    hr_tensor_free(outs[i]);
  }
  return s;
}

void hr_red_region_release(hr_red_region *r) {
  for (int i = 0; i < 2 * HR_RED_MAX_VARIADIC; i++) {
    hr_tensor_free(r->args[i]);
    r->args[i] = NULL;
  }
}

bool hr_red_fast_binary_body(const hr_block *block, hr_opcode *code, const hr_op **body_op) {
  hr_dtype t;
  bool swapped;
  /* Every served op but subtract is commutative, so the operand order only matters for it. */
  return hr_elementwise_binary_region(block, code, &t, body_op, &swapped) && !(swapped && *code == HR_OP_SUBTRACT);
}

/* Completes reducer `r` over its prepared region (failing unless the region's results have its
 * accumulators' types) for x values of `input_types`. */
static hr_status reducer_finish(hr_red_reducer *r, const hr_op *op, int n, const hr_dtype *input_types) {
  r->n = n;
  for (int i = 0; i < n; i++) {
    r->acc_types[i] = r->region.arg_types[i];
    r->x_types[i] = r->region.arg_types[n + i];
    r->input_types[i] = input_types[i];
    if (r->region.result_types[i] != r->acc_types[i])
      return hr_op_error(op, HR_VERIFY_ERROR, "body result %d is %s but its accumulator is %s", i,
                         hr_dtype_name(r->region.result_types[i]), hr_dtype_name(r->acc_types[i]));
  }
  hr_opcode code;
  const hr_op *body_op;
  if (n == 1 && hr_red_fast_binary_body(r->region.block, &code, &body_op)) {
    r->fast = code;
    r->fast_op = body_op;
  }
  return NULL;
}

/* Clears reducer `r` (safe to release) and fails unless n is a supported input count. */
static hr_status reducer_start(hr_red_reducer *r, const hr_op *op, int n) {
  memset(r, 0, sizeof *r);
  r->fast = HR_OP_COUNT;
  if (n < 1 || n > HR_RED_MAX_VARIADIC)
    return hr_op_error(op, HR_UNIMPLEMENTED, "%d reduction inputs (supported: 1 to %d)", n, HR_RED_MAX_VARIADIC);
  return NULL;
}

hr_status hr_red_reducer_init(hr_red_reducer *r, hr_interp *in, const hr_op *op, int index, int n,
                              const hr_dtype *input_types) {
  HR_TRY(reducer_start(r, op, n));
  HR_TRY(hr_red_region_init(&r->region, in, op, index, 2 * n, n));
  return reducer_finish(r, op, n, input_types);
}

hr_status hr_red_reducer_init_func(hr_red_reducer *r, hr_interp *in, const hr_op *op, const hr_func *fn, int n,
                                   const hr_dtype *input_types) {
  HR_TRY(reducer_start(r, op, n));
  r->region.func = fn;
  HR_TRY(region_init_block(&r->region, in, op, &fn->body, -1, 2 * n, n));
  return reducer_finish(r, op, n, input_types);
}

hr_status hr_red_reducer_apply(hr_red_reducer *r, void *const *acc, const void *const *x) {
  unsigned char converted[HR_RED_MAX_VARIADIC][16];
  const void *xs[HR_RED_MAX_VARIADIC];
  for (int i = 0; i < r->n; i++) {
    xs[i] = x[i];
    if (r->input_types[i] != r->x_types[i]) {
      hr_red_convert_scalar(r->input_types[i], x[i], r->x_types[i], converted[i]);
      xs[i] = converted[i];
    }
  }
  if (r->fast != HR_OP_COUNT)
    return hr_elementwise_binary_scalar(r->fast_op, r->fast, r->acc_types[0], acc[0], xs[0], acc[0]);
  const void *args[2 * HR_RED_MAX_VARIADIC];
  for (int i = 0; i < r->n; i++) {
    args[i] = acc[i];
    args[r->n + i] = xs[i];
  }
  return hr_red_region_call(&r->region, args, acc);
}

void hr_red_reducer_release(hr_red_reducer *r) { hr_red_region_release(&r->region); }

bool hr_red_view_count(const hr_red_view *v, int64_t *out) {
  int64_t n = 1;
  for (int d = 0; d < v->rank; d++)
    if (!hr_red_mul(n, v->dims[d], &n)) return false;
  *out = n;
  return true;
}

/* Shape inference for control flow and ops whose results are given rather than computed: while,
 * chlo.scan, if, case, terminators, func.call / custom_call (declared types), constant, tuples, tokens,
 * replica/partition ids, rng and rng_bit_generator. */
#include <string.h>

#include "base/numeric.h"
#include "ir/chlo.h"
#include "ir/infer_internal.h"

/* Merges two types that must agree (tensors dim by dim; other kinds must be compatible). */
static hr_status merge_types(const hri_ctx *c, const hr_type *a, const hr_type *b, hr_type *out,
                             const char *what) {
  hri_tbuf b1, b2;
  if (!hr_type_compatible(a, b))
    return hri_err(c, "%s: types %s and %s differ", what, hri_type_str(a, &b1), hri_type_str(b, &b2));
  *out = *a;
  if (a->kind == HR_TYPE_TENSOR) HR_TRY(hri_shape_merge(c, &a->shape, &b->shape, &out->shape, what));
  return NULL;
}

/* Checks that region `r` takes arguments compatible with operands [first, first + n). */
static hr_status check_region_args(const hri_ctx *c, int r, int first, int n, const char *what) {
  const hr_block *b = &c->op->regions[r];
  if (b->n_args != n) return hri_err(c, "%s must take %d arguments, got %d", what, n, b->n_args);
  for (int i = 0; i < n; i++) {
    if (hr_type_compatible(&b->args[i].type, &c->in[first + i])) continue;
    hri_tbuf b1, b2;
    return hri_err(c, "%s argument #%d has type %s, but operand #%d has type %s", what, i,
                   hri_type_str(&b->args[i].type, &b1), first + i, hri_type_str(&c->in[first + i], &b2));
  }
  return NULL;
}

hr_status hri_infer_while(const hri_ctx *c) {
  int n = c->op->n_operands;
  if (c->op->n_results != n) return hri_err(c, "expected %d results, got %d", n, c->op->n_results);
  HR_TRY(check_region_args(c, 0, 0, n, "cond"));
  HR_TRY(check_region_args(c, 1, 0, n, "body"));
  const hr_op *ret;
  HR_TRY(hri_region_return(c, 0, &ret));
  const hr_type *ct = ret->n_operands == 1 ? &ret->operands[0]->type : NULL;
  if (!ct || ct->kind != HR_TYPE_TENSOR || ct->shape.rank != 0 || ct->dtype != HR_I1)
    return hri_err(c, "cond must return one tensor<i1>");
  HR_TRY(hri_region_return(c, 1, &ret));
  if (ret->n_operands != n) return hri_err(c, "body must return %d values, got %d", n, ret->n_operands);
  for (int i = 0; i < n; i++) {
    hr_type t;
    HR_TRY(merge_types(c, &ret->operands[i]->type, &c->in[i], &t, "body result and loop operand"));
    c->out[i] = c->in[i];
  }
  return NULL;
}

/* chlo.scan's scan dimension size: the inputs' (which must agree) and scan_dim_size's, or
 * HR_DYNAMIC when none is known. Every input must have the dimension. */
static hr_status scan_size(const hri_ctx *c, int n_inputs, int64_t dim, int64_t *out) {
  int64_t size = HR_DYNAMIC;
  HR_TRY(hri_attr_int(c, "scan_dim_size", false, HR_DYNAMIC, &size));
  if (size < 0 && size != HR_DYNAMIC) return hri_err(c, "scan_dim_size must be non-negative");
  for (int i = 0; i < n_inputs; i++) {
    HR_TRY(hri_want_tensor(c, i));
    if (dim >= c->in[i].shape.rank) return hri_err(c, "scan dimension of operand %d is out of bounds", i);
    HR_TRY(hri_dim_merge(c, size, c->in[i].shape.dims[dim], &size, "scan dimension sizes"));
  }
  *out = size;
  return NULL;
}

/* Checks that chlo.scan's body takes each input without the scan dimension, then each init. */
static hr_status check_scan_args(const hri_ctx *c, int n_inputs, int64_t dim) {
  const hr_block *b = &c->op->regions[0];
  int n = c->op->n_operands;
  if (b->n_args != n) return hri_err(c, "expects %d arguments in the body, but got %d", n, b->n_args);
  for (int i = 0; i < n; i++) {
    hr_type want = c->in[i];
    if (i < n_inputs) {
      for (int d = (int)dim; d + 1 < want.shape.rank; d++) want.shape.dims[d] = want.shape.dims[d + 1];
      want.shape.rank--;
    }
    if (hr_type_compatible(&b->args[i].type, &want)) continue;
    hri_tbuf b1, b2;
    return hri_err(c, "body argument #%d has type %s, but operand #%d gives %s", i, hri_type_str(&b->args[i].type, &b1),
                   i, hri_type_str(&want, &b2));
  }
  return NULL;
}

hr_status hri_infer_scan(const hri_ctx *c) {
  int n_inputs = 0, n_inits = 0;
  HR_TRY(hr_chlo_scan_counts(c->op, &n_inputs, &n_inits));
  int n_outputs = c->op->n_results - n_inits;
  if (n_inputs == 0 && n_outputs == 0) return hri_err(c, "at least one of inputs or outputs must be present");
  int64_t dim = 0, size = HR_DYNAMIC;
  bool flag = false;
  HR_TRY(hri_attr_int(c, "dimension", true, 0, &dim));
  if (dim < 0 || dim >= HR_MAX_RANK) return hri_err(c, "dimension must be in [0, %d), got %lld", HR_MAX_RANK, (long long)dim);
  HR_TRY(hri_attr_bool(c, "is_reverse", false, &flag));
  HR_TRY(hri_attr_bool(c, "is_associative", false, &flag));
  HR_TRY(scan_size(c, n_inputs, dim, &size));
  HR_TRY(check_scan_args(c, n_inputs, dim));
  const hr_op *ret;
  HR_TRY(hri_region_return(c, 0, &ret));
  if (ret->n_operands != c->op->n_results)
    return hri_err(c, "body must return %d values (%d outputs, %d carries), got %d", c->op->n_results, n_outputs,
                   n_inits, ret->n_operands);
  for (int i = 0; i < ret->n_operands; i++) {
    hr_type t = ret->operands[i]->type;
    if (t.kind != HR_TYPE_TENSOR) return hri_err(c, "body result #%d must be a tensor", i);
    if (i >= n_outputs) {
      hr_type carry;
      HR_TRY(merge_types(c, &t, &c->in[n_inputs + i - n_outputs], &carry, "body carry result and init"));
    } else {
      if (dim > t.shape.rank || t.shape.rank >= HR_MAX_RANK)
        return hri_err(c, "scan dimension %lld cannot be inserted into body output #%d of rank %d", (long long)dim, i,
                       t.shape.rank);
      for (int d = t.shape.rank; d > dim; d--) t.shape.dims[d] = t.shape.dims[d - 1];
      t.shape.dims[dim] = size;
      t.shape.rank++;
    }
    c->out[i] = t;
  }
  return NULL;
}

/* async_start: the region takes the operands and its results become a future of their types. */
hr_status hri_infer_async_start(const hri_ctx *c) {
  int n = c->op->n_operands;
  HR_TRY(check_region_args(c, 0, 0, n, "computation"));
  const hr_op *ret;
  HR_TRY(hri_region_return(c, 0, &ret));
  const hr_type *declared = &c->op->results[0].type;
  if (declared->kind != HR_TYPE_FUTURE || declared->n_elems != ret->n_operands)
    return hri_err(c, "the result must be a !stablehlo.future of the %d values the computation returns", ret->n_operands);
  c->out[0] = *declared; /* its element types are checked against the computation's below */
  for (int i = 0; i < ret->n_operands; i++) {
    hr_type t;
    HR_TRY(merge_types(c, &ret->operands[i]->type, &declared->elems[i], &t, "computation result and future element"));
  }
  return NULL;
}

/* async_done: the values of the future it waits for. */
hr_status hri_infer_async_done(const hri_ctx *c) {
  const hr_type *f = &c->in[0];
  if (f->kind != HR_TYPE_FUTURE) return hri_err(c, "the operand must be a !stablehlo.future");
  if (c->op->n_results != f->n_elems)
    return hri_err(c, "expected %d results (the future's values), got %d", f->n_elems, c->op->n_results);
  for (int i = 0; i < f->n_elems; i++) c->out[i] = f->elems[i];
  return NULL;
}

/* Infers the results of if/case from regions [0, n_regions): no arguments, and every branch
 * returns values compatible with the others'; results take the merged types. */
static hr_status infer_branches(const hri_ctx *c) {
  const hr_op *op = c->op;
  for (int r = 0; r < op->n_regions; r++) {
    if (op->regions[r].n_args != 0) return hri_err(c, "branch #%d must not take arguments", r);
    const hr_op *ret;
    HR_TRY(hri_region_return(c, r, &ret));
    if (ret->n_operands != op->n_results)
      return hri_err(c, "branch #%d returns %d values, expected %d", r, ret->n_operands, op->n_results);
    for (int i = 0; i < op->n_results; i++) {
      const hr_type *t = &ret->operands[i]->type;
      if (r == 0)
        c->out[i] = *t;
      else
        HR_TRY(merge_types(c, &c->out[i], t, &c->out[i], "branch results"));
    }
  }
  return NULL;
}

hr_status hri_infer_if(const hri_ctx *c) {
  HR_TRY(hri_want_rank(c, 0, 0, "pred"));
  if (c->in[0].dtype != HR_I1) return hri_err(c, "pred must be a tensor<i1>");
  return infer_branches(c);
}

hr_status hri_infer_case(const hri_ctx *c) {
  HR_TRY(hri_want_rank(c, 0, 0, "index"));
  if (c->in[0].dtype != HR_I32) return hri_err(c, "index must be a tensor<i32>");
  return infer_branches(c);
}

/* Whether `local` can be a per-device piece of `global`: same element type and rank, and no local
 * dimension larger than its global one. */
static bool is_piece_of(const hr_type *local, const hr_type *global) {
  if (local->kind != HR_TYPE_TENSOR || global->kind != HR_TYPE_TENSOR || local->dtype != global->dtype ||
      local->shape.rank != global->shape.rank)
    return false;
  for (int d = 0; d < local->shape.rank; d++)
    if (local->shape.dims[d] > global->shape.dims[d] && global->shape.dims[d] != HR_DYNAMIC) return false;
  return true;
}

/* sdy.manual_computation: its body takes each operand's per-device piece and returns each result's;
 * the results have their declared (global) types. How the pieces divide the values is what the
 * in/out shardings say, checked where the program runs. */
hr_status hri_infer_manual_computation(const hri_ctx *c) {
  const hr_op *op = c->op;
  const hr_block *body = &op->regions[0];
  if (body->n_args != op->n_operands)
    return hri_err(c, "the body takes %d arguments, expected one per operand (%d)", body->n_args, op->n_operands);
  for (int i = 0; i < op->n_operands; i++)
    if (!is_piece_of(&body->args[i].type, &c->in[i]))
      return hri_err(c, "body argument #%d is no per-device piece of operand #%d", i, i);
  const hr_op *ret = body->n_ops > 0 ? body->ops[body->n_ops - 1] : NULL;
  if (!ret || ret->code != HR_OP_SDY_RETURN) return hri_err(c, "the body must end with sdy.return");
  if (ret->n_operands != op->n_results)
    return hri_err(c, "the body returns %d values, expected %d", ret->n_operands, op->n_results);
  for (int i = 0; i < op->n_results; i++) {
    if (!ret->operands[i] || !is_piece_of(&ret->operands[i]->type, &op->results[i].type))
      return hri_err(c, "returned value #%d is no per-device piece of result #%d", i, i);
    c->out[i] = op->results[i].type;
  }
  return NULL;
}

hr_status hri_infer_return(const hri_ctx *c) {
  (void)c;
  return NULL;
}

hr_status hri_infer_transfer_in(const hri_ctx *c) {
  const hr_op *op = c->op;
  if (c->in[0].kind != HR_TYPE_TOKEN) return hri_err(c, "operand must be a !stablehlo.token");
  if (op->results[op->n_results - 1].type.kind != HR_TYPE_TOKEN)
    return hri_err(c, "the last result must be a !stablehlo.token");
  return hri_infer_declared(c);
}

hr_status hri_infer_declared(const hri_ctx *c) {
  for (int i = 0; i < c->op->n_results; i++) c->out[i] = c->op->results[i].type;
  return NULL;
}

/* Gives a dynamic result `r` of a custom call the dimensions `dims` where they are known. */
static void refine_dims(const hri_ctx *c, int r, const hri_ints *dims) {
  hr_type *t = &c->out[r];
  if (!dims->known || t->kind != HR_TYPE_TENSOR || dims->n != t->shape.rank) return;
  for (int d = 0; d < dims->n; d++)
    if (t->shape.dims[d] == HR_DYNAMIC && dims->v[d] >= 0) t->shape.dims[d] = dims->v[d];
}

/* Custom calls whose result shapes are operand values (JAX's shape-polymorphic CPU targets):
 * with `indices_of_shape_operands`, result i has the shape operand indices[i] holds; the results of
 * stablehlo.dynamic_top_k have its operand's shape with the last dimension k (operand 1), those of
 * stablehlo.dynamic_reduce_window the window count its window operands give. Other
 * custom calls have their declared types. */
hr_status hri_infer_custom_call(const hri_ctx *c) {
  HR_TRY(hri_infer_declared(c));
  const hr_attr *target = hr_op_attr(c->op, "call_target_name");
  const hr_attr *shapes = hr_op_attr(c->op, "indices_of_shape_operands");
  if (shapes && shapes->kind == HR_ATTR_DENSE) {
    int64_t idx[HR_MAX_RANK];
    int n = 0;
    HR_TRY(hr_attr_to_i64_list(shapes, idx, HR_MAX_RANK, &n));
    for (int r = 0; r < n && r < c->op->n_results; r++) {
      if (idx[r] < 0 || idx[r] >= c->op->n_operands) return hri_err(c, "indices_of_shape_operands names no operand");
      hri_ints dims;
      HR_TRY(hri_operand_ints(c, (int)idx[r], "a result shape", &dims));
      refine_dims(c, r, &dims);
    }
  } else if (target && target->kind == HR_ATTR_STRING && strcmp(target->u.str.data, "stablehlo.dynamic_reduce_window") == 0) {
    HR_TRY(hri_infer_dynamic_reduce_window(c));
  } else if (target && target->kind == HR_ATTR_STRING && strcmp(target->u.str.data, "stablehlo.dynamic_top_k") == 0 &&
             c->op->n_operands == 2 && c->in[0].kind == HR_TYPE_TENSOR && c->in[0].shape.rank >= 1) {
    hri_ints k;
    HR_TRY(hri_operand_scalar(c, 1, "k", &k));
    hri_ints dims = {.n = c->in[0].shape.rank, .known = k.known};
    for (int d = 0; d < dims.n; d++) dims.v[d] = d + 1 < dims.n ? c->in[0].shape.dims[d] : k.v[0];
    for (int r = 0; r < c->op->n_results; r++) refine_dims(c, r, &dims);
  }
  return NULL;
}

/* Checks that a DENSE attribute's data holds a splat element or one element per shape entry. */
static hr_status check_dense_data(const hri_ctx *c, const hr_attr *a) {
  const hr_type *t = &a->u.dense.type;
  int64_t n;
  hr_status s = hr_shape_num_elements(&t->shape, &n);
  if (s) {
    hr_status_free(s);
    return hri_err(c, "constant must have a static shape");
  }
  size_t es = hr_dtype_size(t->dtype);
  if (es == 0) return hri_err(c, "constant has an invalid element type");
  bool ok = a->u.dense.splat ? a->u.dense.nbytes == es
                             : (uint64_t)n <= SIZE_MAX / es && a->u.dense.nbytes == (size_t)n * es;
  if (!ok || (a->u.dense.nbytes > 0 && !a->u.dense.data))
    return hri_err(c, "constant data size does not match its type");
  return NULL;
}

hr_status hri_infer_constant(const hri_ctx *c) {
  const hr_attr *a = hr_op_attr(c->op, "value");
  if (!a) return hri_err(c, "missing attribute 'value'");
  if (a->kind != HR_ATTR_DENSE || a->u.dense.type.kind != HR_TYPE_TENSOR)
    return hri_err(c, "attribute 'value' must be a dense tensor");
  HR_TRY(check_dense_data(c, a));
  c->out[0] = a->u.dense.type;
  return NULL;
}

hr_status hri_infer_tuple(const hri_ctx *c) {
  const hr_type *r = &c->op->results[0].type;
  if (r->kind != HR_TYPE_TUPLE || r->n_elems != c->op->n_operands || (r->n_elems > 0 && !r->elems))
    return hri_err(c, "result must be a tuple of %d elements", c->op->n_operands);
  for (int i = 0; i < r->n_elems; i++) {
    hr_type t;
    HR_TRY(merge_types(c, &r->elems[i], &c->in[i], &t, "tuple element and operand"));
  }
  c->out[0] = *r;
  return NULL;
}

hr_status hri_infer_get_tuple_element(const hri_ctx *c) {
  const hr_type *t = &c->in[0];
  if (t->kind != HR_TYPE_TUPLE) return hri_err(c, "operand must be a tuple");
  int64_t idx;
  HR_TRY(hri_attr_int(c, "index", true, 0, &idx));
  if (idx < 0 || idx >= t->n_elems)
    return hri_err(c, "index %lld is outside [0, %d)", (long long)idx, t->n_elems);
  c->out[0] = t->elems[idx];
  return NULL;
}

hr_status hri_infer_token(const hri_ctx *c) {
  const hr_op *op = c->op;
  /* after_all takes only tokens; the others (outfeed, send, ...) take their token last. */
  int first_token = op->code == HR_OP_AFTER_ALL || op->n_operands == 0 ? 0 : op->n_operands - 1;
  for (int i = first_token; i < op->n_operands; i++)
    if (c->in[i].kind != HR_TYPE_TOKEN) return hri_err(c, "operand #%d must be a !stablehlo.token", i);
  memset(&c->out[0], 0, sizeof c->out[0]);
  c->out[0].kind = HR_TYPE_TOKEN;
  return NULL;
}

hr_status hri_infer_device_id(const hri_ctx *c) {
  hr_shape s = {.rank = 0};
  c->out[0] = hri_tensor(HR_U32, &s);
  return NULL;
}

hr_status hri_infer_rng(const hri_ctx *c) {
  HR_TRY(hri_want_rank(c, 0, 0, "a"));
  HR_TRY(hri_want_rank(c, 1, 0, "b"));
  HR_TRY(hri_want_same_dtype(c, 0, 1));
  const char *dist = hr_op_attr_enum(c->op, "rng_distribution");
  if (!dist || (strcmp(dist, "UNIFORM") != 0 && strcmp(dist, "NORMAL") != 0))
    return hri_err(c, "attribute 'rng_distribution' must be UNIFORM or NORMAL");
  hr_dtype t = c->in[0].dtype;
  if (hr_dtype_is_complex(t) || (strcmp(dist, "NORMAL") == 0 && !hr_dtype_is_real_float(t)))
    return hri_err(c, "element type %s is invalid for a %s distribution", hr_dtype_name(t), dist);
  hri_ints v;
  HR_TRY(hri_operand_ints(c, 2, "shape", &v));
  hr_type r;
  HR_TRY(hri_declared_tensor(c, 0, false, &r));
  hr_shape s = {.rank = v.n == HR_DYNAMIC ? r.shape.rank : v.n};
  for (int i = 0; i < s.rank; i++) {
    s.dims[i] = v.known ? v.v[i] : HR_DYNAMIC;
    if (v.known && v.v[i] < 0) return hri_value_err(c, &v, "shape entry %d is negative", i);
  }
  c->out[0] = hri_tensor(t, &s);
  return NULL;
}

hr_status hri_infer_rng_bit_generator(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  hr_dtype st = c->in[0].dtype;
  if (!hri_is_int(st) && !hr_dtype_is_real_float(st))
    return hri_err(c, "initial_state must have an integer or floating-point element type");
  const char *alg = hr_op_attr_enum(c->op, "rng_algorithm");
  if (!alg || (strcmp(alg, "DEFAULT") != 0 && strcmp(alg, "THREE_FRY") != 0 && strcmp(alg, "PHILOX") != 0))
    return hri_err(c, "attribute 'rng_algorithm' must be DEFAULT, THREE_FRY or PHILOX");
  hr_type out;
  HR_TRY(hri_declared_tensor(c, 1, true, &out));
  if (!hri_is_int(out.dtype) && !hr_dtype_is_real_float(out.dtype))
    return hri_err(c, "output must have an integer or floating-point element type");
  c->out[0] = c->in[0];
  c->out[1] = out;
  return NULL;
}

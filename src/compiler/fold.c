/* Constant folding: get_dimension_size of a static dimension becomes a constant directly; an op
 * whose operands are all constants is evaluated by the folder (the runtime's kernels) when its
 * results are small, and replaced by one stablehlo.constant per result. */
#include <string.h>

#include "compiler/compiler_internal.h"

/* Ops that are never evaluated at compile time: effects, communication, randomness, device ids,
 * calls, terminators, barriers, tokens and tuples. Ops with regions, side effects or results that
 * depend on the process (collectives, device ids) are excluded by their flags. */
static bool never_folded(hr_opcode code) {
  switch (code) {
    case HR_OP_CONSTANT:
    case HR_OP_FUNC_CALL:
    case HR_OP_COMPOSITE:
    case HR_OP_CUSTOM_CALL:
    case HR_OP_OPTIMIZATION_BARRIER:
    case HR_OP_RNG:
    case HR_OP_RNG_BIT_GENERATOR:
    case HR_OP_CREATE_TOKEN:
    case HR_OP_AFTER_ALL:
    case HR_OP_TUPLE:
    case HR_OP_GET_TUPLE_ELEMENT: return true;
    default: break;
  }
  return (hr_opcode_flags(code) & (HR_OPF_SIDE_EFFECT | HR_OPF_HAS_REGIONS | HR_OPF_TERMINATOR | HR_OPF_PROCESS)) != 0;
}

/* Whether every result is a static tensor and all of them together take at most `limit` bytes. */
static bool results_fit(const hr_op *op, size_t limit) {
  size_t total = 0;
  for (int i = 0; i < op->n_results; i++) {
    const hr_type *t = &op->results[i].type;
    size_t bytes = 0;
    if (!hr_type_bytes(t, &bytes) || bytes > limit - total) return false;
    total += bytes;
  }
  return true;
}

/* Whether `data` (nbytes, a multiple of es) holds one element of `es` bytes repeated: then every
 * byte equals the byte one element further on, which one overlapping comparison checks. */
static bool is_uniform(const unsigned char *data, size_t nbytes, size_t es) {
  return nbytes >= es && memcmp(data, data + es, nbytes - es) == 0;
}

/* Appends a constant for result `i` of `op` holding `data` (nbytes) and records it in repl[i]. */
static hr_status emit_constant(hc_ctx *c, hc_block *b, const hr_op *op, int i, const void *data, size_t nbytes,
                               hr_value **repl) {
  const hr_type *t = &op->results[i].type;
  size_t es = hr_dtype_size(t->dtype);
  bool splat = is_uniform(data, nbytes, es);
  hr_op *k = NULL;
  HR_TRY(hc_constant_op(c, op, b->block, t, data, splat ? es : nbytes, splat, &k));
  HR_TRY(hc_block_push(c, b, k));
  repl[i] = &k->results[0];
  return NULL;
}

/* get_dimension_size of a static dimension: the size as a tensor<i32> constant. */
static hr_status fold_dimension_size(hc_ctx *c, hc_block *b, hr_op *op, hr_value **repl, bool *folded) {
  int64_t dim = 0;
  hr_status s = hr_op_attr_i64(op, "dimension", &dim);
  if (s) {
    hr_status_free(s);
    return NULL;
  }
  const hr_type *t = &op->operands[0]->type;
  if (t->kind != HR_TYPE_TENSOR || dim < 0 || dim >= t->shape.rank) return NULL;
  int64_t size = t->shape.dims[dim];
  if (size < 0 || size > INT32_MAX) return NULL;
  int32_t v = (int32_t)size;
  HR_TRY(emit_constant(c, b, op, 0, &v, sizeof v, repl));
  *folded = true;
  return NULL;
}

/* The operand tensors of one evaluation: views of constant data, or expanded splats (owned). */
typedef struct fold_inputs {
  hr_tensor *tensors;
  hr_tensor **ptrs;
  hr_tensor **results;
  int n;
} fold_inputs;

/* Frees the expanded splats and the arrays. */
static void inputs_release(hc_ctx *c, fold_inputs *in) {
  const hr_allocator *a = c->heap;
  for (int i = 0; in->tensors && i < in->n; i++)
    if (in->tensors[i].allocator && in->tensors[i].data) a->free(a->ctx, in->tensors[i].data);
  if (in->tensors) a->free(a->ctx, in->tensors);
  if (in->ptrs) a->free(a->ctx, in->ptrs);
  if (in->results) a->free(a->ctx, in->results);
}

/* Makes tensor `t` hold constant `a` (of `nbytes` when expanded); splats are expanded into heap
 * memory (marked by a non-NULL allocator). False when `a` cannot be used. */
static bool constant_tensor(hc_ctx *c, const hr_attr *a, size_t nbytes, hr_tensor *t) {
  t->dtype = a->u.dense.type.dtype;
  t->shape = a->u.dense.type.shape;
  t->nbytes = nbytes;
  size_t es = hr_dtype_size(t->dtype);
  if (!a->u.dense.splat) {
    if (a->u.dense.nbytes != nbytes) return false;
    t->data = (void *)a->u.dense.data; /* read only: kernels never write their operands */
    return true;
  }
  if (a->u.dense.nbytes != es || nbytes > c->max_fold_bytes) return false;
  if (nbytes == 0) return true;
  unsigned char *d = c->heap->alloc(c->heap->ctx, nbytes, 16);
  if (!d) return false;
  for (size_t off = 0; off < nbytes; off += es) memcpy(d + off, a->u.dense.data, es);
  t->data = d;
  t->allocator = c->heap;
  return true;
}

/* Prepares the operands of `op` for evaluation; false when one is not a usable constant. */
static bool inputs_init(hc_ctx *c, const hr_op *op, fold_inputs *in) {
  const hr_allocator *a = c->heap;
  size_t n = op->n_operands ? (size_t)op->n_operands : 1, m = op->n_results ? (size_t)op->n_results : 1;
  in->tensors = a->alloc(a->ctx, n * sizeof *in->tensors, _Alignof(hr_tensor));
  in->ptrs = a->alloc(a->ctx, n * sizeof *in->ptrs, _Alignof(hr_tensor *));
  in->results = a->alloc(a->ctx, m * sizeof *in->results, _Alignof(hr_tensor *));
  if (!in->tensors || !in->ptrs || !in->results) return false;
  memset(in->tensors, 0, n * sizeof *in->tensors);
  memset(in->results, 0, m * sizeof *in->results);
  in->n = op->n_operands;
  for (int i = 0; i < op->n_operands; i++) {
    const hr_attr *k = hc_constant_value(op->operands[i]);
    size_t nbytes = 0;
    in->ptrs[i] = &in->tensors[i];
    if (!k || !hr_type_bytes(&k->u.dense.type, &nbytes) || !constant_tensor(c, k, nbytes, &in->tensors[i])) return false;
  }
  return true;
}

/* Whether result tensor `r` has exactly the type of result `i` of `op`. */
static bool result_matches(const hr_op *op, int i, const hr_tensor *r) {
  const hr_type *t = &op->results[i].type;
  size_t bytes = 0;
  if (!r || r->dtype != t->dtype || r->shape.rank != t->shape.rank || !hr_type_bytes(t, &bytes) || r->nbytes != bytes)
    return false;
  return memcmp(r->shape.dims, t->shape.dims, sizeof(int64_t) * (size_t)t->shape.rank) == 0;
}

/* Evaluates `op` with the folder and emits the constants. An evaluation that fails leaves the op
 * in place: it may sit in a branch that never runs, and the runtime reports the error if it does. */
static hr_status fold_with_folder(hc_ctx *c, hc_block *b, hr_op *op, hr_value **repl, bool *folded) {
  fold_inputs in = {0};
  if (!inputs_init(c, op, &in)) {
    inputs_release(c, &in);
    return NULL;
  }
  hr_status s = c->folder->fn(c->folder->ctx, op, in.ptrs, in.results);
  bool ok = !s;
  hr_status_free(s);
  s = NULL;
  for (int i = 0; ok && i < op->n_results; i++) ok = result_matches(op, i, in.results[i]);
  for (int i = 0; ok && !s && i < op->n_results; i++)
    s = emit_constant(c, b, op, i, in.results[i]->data, in.results[i]->nbytes, repl);
  for (int i = 0; i < op->n_results; i++) hr_tensor_free(in.results[i]);
  inputs_release(c, &in);
  if (!s && ok) *folded = true;
  return s;
}

/* Ops whose result holds only elements of their first operand (in another arrangement). */
static bool rearranges(hr_opcode code) {
  switch (code) {
    case HR_OP_BROADCAST_IN_DIM:
    case HR_OP_BROADCAST:
    case HR_OP_RESHAPE:
    case HR_OP_TRANSPOSE:
    case HR_OP_REVERSE:
    case HR_OP_SLICE: return true;
    default: return false;
  }
}

/* The element a constant holds everywhere (a splat, or a single element), or NULL. */
static const void *uniform_element(const hr_attr *a) {
  if (!a->u.dense.data) return NULL;
  if (a->u.dense.splat) return a->u.dense.data;
  size_t es = hr_dtype_size(a->u.dense.type.dtype);
  return es && a->u.dense.nbytes == es ? a->u.dense.data : NULL;
}

/* Evaluates elementwise `op` on one element of each (uniform) operand: the same op with rank-0
 * operands and result, so that no full-size tensor is built. *out receives the result element's
 * tensor, or NULL when the evaluation fails. */
static void eval_scalar(hc_ctx *c, const hr_op *op, const void *const *elems, hr_tensor **out) {
  *out = NULL;
  hr_op scalar = *op;
  hr_value result = op->results[0];
  result.type.shape.rank = 0;
  scalar.results = &result;
  hr_tensor views[3];
  hr_tensor *ptrs[3];
  for (int i = 0; i < op->n_operands; i++) {
    const hr_type *t = &op->operands[i]->type;
    views[i] = (hr_tensor){
        .dtype = t->dtype, .shape = {.rank = 0}, .data = (void *)elems[i], .nbytes = hr_dtype_size(t->dtype)};
    ptrs[i] = &views[i];
  }
  hr_status s = c->folder->fn(c->folder->ctx, &scalar, ptrs, out);
  if (!s && (!*out || (*out)->dtype != result.type.dtype || (*out)->nbytes != hr_dtype_size(result.type.dtype)))
    s = hr_error(HR_INTERNAL, "folded element has an unexpected type");
  if (s) {
    hr_tensor_free(*out);
    *out = NULL;
  }
  hr_status_free(s);
}

/* Folds an op whose constant operands each hold one element everywhere, when its result then
 * does too: rearrangements of the first operand, and elementwise ops evaluated on one element. */
static hr_status fold_uniform(hc_ctx *c, hc_block *b, hr_op *op, hr_value **repl, bool *folded) {
  bool elementwise = hr_opcode_flags(op->code) & HR_OPF_ELEMENTWISE;
  if (op->n_results != 1 || (!rearranges(op->code) && !(elementwise && op->n_operands <= 3))) return NULL;
  const void *elems[3] = {NULL, NULL, NULL};
  for (int i = 0; i < op->n_operands && i < 3; i++)
    if (!(elems[i] = uniform_element(hc_constant_value(op->operands[i])))) return NULL;
  const hr_type *t = &op->results[0].type;
  size_t bytes = 0, es = hr_dtype_size(t->dtype);
  if (!hr_type_bytes(t, &bytes) || bytes == 0 || !elems[0]) return NULL;
  if (rearranges(op->code)) {
    HR_TRY(emit_constant(c, b, op, 0, elems[0], es, repl));
    *folded = true;
    return NULL;
  }
  hr_tensor *r = NULL;
  eval_scalar(c, op, elems, &r);
  if (!r) return NULL;
  hr_status s = emit_constant(c, b, op, 0, r->data, es, repl);
  hr_tensor_free(r);
  if (!s) *folded = true;
  return s;
}

hr_status hc_fold(hc_ctx *c, hc_block *b, hr_op *op, hr_value **repl, bool *folded) {
  *folded = false;
  if (op->code == HR_OP_GET_DIMENSION_SIZE) return fold_dimension_size(c, b, op, repl, folded);
  if (!c->folder || !c->folder->fn || never_folded(op->code) || op->n_regions > 0) return NULL;
  for (int i = 0; i < op->n_operands; i++)
    if (!hc_constant_value(op->operands[i])) return NULL;
  if (!results_fit(op, c->max_fold_bytes)) return NULL;
  HR_TRY(fold_uniform(c, b, op, repl, folded));
  return *folded ? NULL : fold_with_folder(c, b, op, repl, folded);
}

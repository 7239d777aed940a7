/* Tuples, tokens and composites in the interpreter (hr_kernels_tuple).
 *
 * A value of tuple or token type is carried as an ordinary host tensor: a rank-1 ui8 tensor holding
 * the bytes of its leaf tensors one after another, in order, nested tuples flattened in place (a
 * token is empty, 0 bytes). The layout follows from the static type alone, so get_tuple_element
 * finds element i at the summed size of elements 0..i-1; tuples whose leaves have dynamic shapes are
 * reported as unimplemented. stablehlo.composite runs its `decomposition` function. */
#include <string.h>

#include "interp/interp.h"

/* The packed size in bytes of a value of type `t` (tensor, token or tuple); errors name `op`. */
static hr_status packed_size(const hr_op *op, const hr_type *t, int depth, size_t *out) {
  if (depth > 64) return hr_op_error(op, HR_UNIMPLEMENTED, "tuple types nest deeper than 64");
  switch (t->kind) {
    case HR_TYPE_TOKEN: *out = 0; return NULL;
    case HR_TYPE_TENSOR: {
      if (!hr_type_is_static(t))
        return hr_op_error(op, HR_UNIMPLEMENTED, "tuple elements of dynamic shape are not supported");
      int64_t n;
      HR_TRY(hr_shape_num_elements(&t->shape, &n));
      size_t es = hr_dtype_size(t->dtype);
      if (es == 0 || (uint64_t)n > SIZE_MAX / es) return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "tuple element too large");
      *out = (size_t)n * es;
      return NULL;
    }
    case HR_TYPE_TUPLE: {
      size_t total = 0;
      for (int i = 0; i < t->n_elems; i++) {
        size_t s = 0;
        HR_TRY(packed_size(op, &t->elems[i], depth + 1, &s));
        if (s > SIZE_MAX - total) return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "tuple too large");
        total += s;
      }
      *out = total;
      return NULL;
    }
    default: return hr_op_error(op, HR_UNIMPLEMENTED, "values of this type are not supported in tuples");
  }
}

/* Allocates the tensor that carries a value of type `t`: the tensor itself, or packed bytes. */
static hr_status alloc_value(hr_interp *in, const hr_op *op, const hr_type *t, hr_tensor **out) {
  if (t->kind == HR_TYPE_TENSOR) return hr_interp_alloc(in, op, t->dtype, &t->shape, out);
  size_t n = 0;
  HR_TRY(packed_size(op, t, 0, &n));
  if (n > (size_t)INT64_MAX) return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "tuple too large");
  hr_shape s = {0};
  s.rank = 1;
  s.dims[0] = (int64_t)n;
  return hr_interp_alloc(in, op, HR_U8, &s, out);
}

/* The bytes of a value as carried; checks that the carrier has the size the type implies. */
static hr_status value_bytes(const hr_op *op, const hr_type *t, const hr_tensor *v, size_t *n) {
  HR_TRY(packed_size(op, t, 0, n));
  if (v->nbytes < *n) return hr_op_error(op, HR_INTERNAL, "a value holds %zu bytes, its type needs %zu", v->nbytes, *n);
  return NULL;
}

/* stablehlo.tuple: the operands' bytes, concatenated. */
static hr_status kernel_tuple(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (op->n_results != 1 || op->results[0].type.kind != HR_TYPE_TUPLE ||
      op->results[0].type.n_elems != op->n_operands)
    return hr_op_error(op, HR_VERIFY_ERROR, "expected one tuple result with one element per operand");
  HR_TRY(alloc_value(in, op, &op->results[0].type, &results[0]));
  size_t off = 0;
  for (int i = 0; i < op->n_operands; i++) {
    size_t n;
    hr_status s = value_bytes(op, &op->operands[i]->type, operands[i], &n);
    if (!s && n > results[0]->nbytes - off) s = hr_op_error(op, HR_INTERNAL, "tuple element %d overflows the tuple", i);
    if (s) {
      hr_tensor_free(results[0]);
      results[0] = NULL;
      return s;
    }
    if (n) memcpy((char *)results[0]->data + off, operands[i]->data, n);
    off += n;
  }
  return NULL;
}

/* stablehlo.get_tuple_element: the bytes of element `index`. */
static hr_status kernel_get_tuple_element(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                          hr_tensor **results) {
  const hr_type *t = &op->operands[0]->type;
  if (op->n_operands != 1 || op->n_results != 1 || t->kind != HR_TYPE_TUPLE)
    return hr_op_error(op, HR_VERIFY_ERROR, "expected one tuple operand and one result");
  int64_t index;
  HR_TRY(hr_op_attr_i64(op, "index", &index));
  if (index < 0 || index >= t->n_elems)
    return hr_op_error(op, HR_VERIFY_ERROR, "index %lld is out of bounds for a tuple of %d elements",
                       (long long)index, t->n_elems);
  size_t off = 0, n, total;
  for (int64_t i = 0; i < index; i++) {
    HR_TRY(packed_size(op, &t->elems[i], 1, &n));
    off += n;
  }
  HR_TRY(packed_size(op, &t->elems[index], 1, &n));
  HR_TRY(value_bytes(op, t, operands[0], &total));
  if (off > total || n > total - off) return hr_op_error(op, HR_INTERNAL, "tuple element out of range");
  HR_TRY(alloc_value(in, op, &t->elems[index], &results[0]));
  if (results[0]->nbytes != n) {
    hr_tensor_free(results[0]);
    results[0] = NULL;
    return hr_op_error(op, HR_VERIFY_ERROR, "the result type does not match tuple element %lld", (long long)index);
  }
  if (n) memcpy(results[0]->data, (const char *)operands[0]->data + off, n);
  return NULL;
}

/* stablehlo.after_all: a new token (the interpreter runs ops in order, so there is nothing to wait
 * for). */
static hr_status kernel_after_all(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  (void)operands;
  if (op->n_results != 1 || op->results[0].type.kind != HR_TYPE_TOKEN)
    return hr_op_error(op, HR_VERIFY_ERROR, "expected one token result");
  for (int i = 0; i < op->n_operands; i++)
    if (op->operands[i]->type.kind != HR_TYPE_TOKEN)
      return hr_op_error(op, HR_VERIFY_ERROR, "operand %d is not a token", i);
  return alloc_value(in, op, &op->results[0].type, &results[0]);
}

/* stablehlo.composite: calls its `decomposition` function with the operands. */
static hr_status kernel_composite(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_attr *d = hr_op_attr(op, "decomposition");
  if (!d || d->kind != HR_ATTR_SYMBOL) return hr_op_error(op, HR_VERIFY_ERROR, "missing 'decomposition'");
  const hr_func *fn = hr_module_find_func(in->module, d->u.str.data);
  if (!fn) return hr_op_error(op, HR_NOT_FOUND, "no function @%s (the decomposition)", d->u.str.data);
  if (fn->is_declaration)
    return hr_op_error(op, HR_UNIMPLEMENTED, "decomposition @%s is declared without a body", fn->name);
  if (fn->n_args != op->n_operands || fn->n_results != op->n_results)
    return hr_op_error(op, HR_VERIFY_ERROR, "decomposition @%s takes %d arguments and returns %d results, the op has %d and %d",
                       fn->name, fn->n_args, fn->n_results, op->n_operands, op->n_results);
  return hr_interp_call_checked(in, op, fn, operands, results);
}

const hr_kernel hr_kernels_tuple[] = {
    {HR_OP_TUPLE, kernel_tuple},
    {HR_OP_GET_TUPLE_ELEMENT, kernel_get_tuple_element},
    {HR_OP_AFTER_ALL, kernel_after_all},
    {HR_OP_COMPOSITE, kernel_composite},
    {HR_OP_COUNT, NULL},
};

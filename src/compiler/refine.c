/* Type refinement: each cloned op's result types are inferred from its refined operand types and
 * the values of its constant operands, and merged with the declared types. */
#include <string.h>

#include "base/numeric.h"
#include "base/strbuf.h"
#include "compiler/compiler_internal.h"
#include "ir/infer.h"

hr_status hc_scratch_reserve(hc_ctx *c, size_t n) {
  hc_scratch *s = &c->scratch;
  if (s->types && n <= s->cap) return NULL; /* allocated once even for n == 0: no NULL arithmetic */
  size_t cap = s->cap * 2 > n ? s->cap * 2 : n < 16 ? 16 : n;
  if (cap > SIZE_MAX / (sizeof(int64_t) * HC_MAX_VALUE_ELEMS) || cap > SIZE_MAX / sizeof(hr_type)) return hc_oom();
  const hr_allocator *a = c->heap;
  hc_scratch grown = {
      .types = a->alloc(a->ctx, cap * sizeof(hr_type), _Alignof(hr_type)),
      .tensors = a->alloc(a->ctx, cap * sizeof(hr_tensor), _Alignof(hr_tensor)),
      .values = a->alloc(a->ctx, cap * sizeof(hr_tensor *), _Alignof(hr_tensor *)),
      .elems = a->alloc(a->ctx, cap * sizeof(int64_t) * HC_MAX_VALUE_ELEMS, _Alignof(int64_t)),
      .repl = a->alloc(a->ctx, cap * sizeof(hr_value *), _Alignof(hr_value *)),
      .cap = cap,
  };
  hc_scratch_release(c);
  c->scratch = grown;
  if (!grown.types || !grown.tensors || !grown.values || !grown.elems || !grown.repl) {
    hc_scratch_release(c);
    return hc_oom();
  }
  return NULL;
}

void hc_scratch_release(hc_ctx *c) {
  hc_scratch *s = &c->scratch;
  const hr_allocator *a = c->heap;
  void *arrays[] = {s->types, s->tensors, (void *)s->values, s->elems, s->repl};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
    if (arrays[i]) a->free(a->ctx, arrays[i]);
  memset(s, 0, sizeof *s);
}

const hr_attr *hc_constant_value(const hr_value *v) {
  if (!v->def || v->def->code != HR_OP_CONSTANT) return NULL;
  const hr_attr *a = hr_op_attr(v->def, "value");
  return a && a->kind == HR_ATTR_DENSE && a->u.dense.type.kind == HR_TYPE_TENSOR ? a : NULL;
}

/* The element count of a constant whose data has been checked by shape inference, or -1 when
 * the attribute's data does not hold that many elements. */
static int64_t constant_count(const hr_attr *a) {
  int64_t n = 0;
  hr_status s = hr_shape_num_elements(&a->u.dense.type.shape, &n);
  if (s) {
    hr_status_free(s);
    return -1;
  }
  size_t es = hr_dtype_size(a->u.dense.type.dtype);
  if (es == 0 || (n > 0 && !a->u.dense.data)) return -1;
  if (a->u.dense.splat) return a->u.dense.nbytes == es ? n : -1;
  return (uint64_t)n <= SIZE_MAX / es && a->u.dense.nbytes == (size_t)n * es ? n : -1;
}

bool hc_constant_ints(const hr_value *v, int64_t *out, int cap, int *n) {
  *n = 0;
  const hr_attr *a = hc_constant_value(v);
  if (!a) return false;
  int64_t count = constant_count(a);
  if (count < 0 || count > cap) return false;
  if (a->u.dense.type.dtype == HR_I1) return false; /* booleans are not integers here */
  for (int64_t i = 0; i < count; i++)
    if (!hr_read_int_element(a->u.dense.type.dtype, hr_dense_element(a, i), &out[i])) return false;
  *n = (int)count;
  return true;
}

/* The value of operand `i` (`v`) for shape inference when it is a small integer constant (a shape,
 * index or padding vector): a view in the operand's scratch tensor, splats expanded into its
 * scratch slots. NULL otherwise. */
static const hr_tensor *operand_value(hc_ctx *c, const hr_value *v, int i) {
  const hr_attr *a = hc_constant_value(v);
  if (!a) return NULL;
  hr_dtype t = a->u.dense.type.dtype;
  int64_t count = constant_count(a);
  if (count < 0 || count > HC_MAX_VALUE_ELEMS || hr_dtype_is_real_float(t) || hr_dtype_is_complex(t) || t == HR_I1)
    return NULL;
  size_t es = hr_dtype_size(t);
  hr_tensor *tensor = &c->scratch.tensors[i];
  memset(tensor, 0, sizeof *tensor);
  tensor->dtype = t;
  tensor->shape = a->u.dense.type.shape;
  tensor->nbytes = (size_t)count * es;
  if (a->u.dense.splat) {
    unsigned char *slots = (unsigned char *)(c->scratch.elems + (size_t)i * HC_MAX_VALUE_ELEMS);
    for (int64_t k = 0; k < count; k++) memcpy(slots + (size_t)k * es, a->u.dense.data, es);
    tensor->data = slots;
  } else {
    tensor->data = (void *)a->u.dense.data; /* read only: inference never writes operand values */
  }
  return tensor;
}

/* An error naming `op` about result `i`, whose declared and refined types disagree. */
static hr_status incompatible(const hr_op *op, int i, const hr_type *declared, const hr_type *refined) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_type_print(&sb, declared);
  hr_strbuf_puts(&sb, " but the specialized operands give ");
  hr_type_print(&sb, refined);
  hr_status s = hr_strbuf_status(&sb);
  if (!s) s = hr_op_error(op, HR_INVALID_ARGUMENT, "result #%d is declared %s", i, sb.data);
  hr_strbuf_free(&sb);
  return s;
}

/* Sets result `i` of `op` to the most precise of its declared type and `inferred`. */
static hr_status merge_result(hc_ctx *c, hr_op *op, int i, const hr_type *inferred) {
  hr_type *t = &op->results[i].type;
  if (!hr_type_compatible(t, inferred)) return incompatible(op, i, t, inferred);
  if (t->kind == HR_TYPE_TENSOR) {
    for (int d = 0; d < t->shape.rank; d++)
      if (t->shape.dims[d] == HR_DYNAMIC) t->shape.dims[d] = inferred->shape.dims[d];
    return NULL;
  }
  if (t->kind == HR_TYPE_TUPLE && !hc_type_is_static(t) && hc_type_is_static(inferred)) return hc_type(c, inferred, t);
  return NULL;
}

/* stablehlo.tuple: inference returns the declared type; the refined one has the operands' types
 * as elements. */
static hr_status refine_tuple(hc_ctx *c, hr_op *op) {
  hr_type *t = &op->results[0].type;
  if (t->kind != HR_TYPE_TUPLE || t->n_elems != op->n_operands) return NULL;
  for (int i = 0; i < t->n_elems; i++) {
    const hr_type *e = &op->operands[i]->type;
    if (!hr_type_compatible(&t->elems[i], e)) return incompatible(op, 0, t, e);
    HR_TRY(hc_type(c, e, &t->elems[i])); /* t->elems is this op's own copy */
  }
  return NULL;
}

hr_status hc_refine(hc_ctx *c, hr_op *op) {
  size_t n_in = (size_t)op->n_operands, n_out = (size_t)op->n_results;
  HR_TRY(hc_scratch_reserve(c, n_in + n_out));
  hr_type *in = c->scratch.types, *out = c->scratch.types + n_in;
  for (size_t i = 0; i < n_in; i++) {
    in[i] = op->operands[i]->type;
    c->scratch.values[i] = operand_value(c, op->operands[i], (int)i);
  }
  HR_TRY(hr_infer_result_types(op, in, c->scratch.values, out));
  for (size_t i = 0; i < n_out; i++) HR_TRY(merge_result(c, op, (int)i, &out[i]));
  return op->code == HR_OP_TUPLE ? refine_tuple(c, op) : NULL;
}

hr_status hc_check_static(const hr_op *op) {
  for (int i = 0; i < op->n_results; i++) {
    const hr_type *t = &op->results[i].type;
    if (hc_type_is_static(t)) continue;
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    hr_type_print(&sb, t);
    hr_status s = hr_strbuf_status(&sb);
    if (!s)
      s = hr_op_error(op, HR_UNIMPLEMENTED,
                      "cannot determine a static shape for result #%d (%s) from the argument types", i, sb.data);
    hr_strbuf_free(&sb);
    return s;
  }
  return NULL;
}

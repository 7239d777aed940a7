/* hr_module_untuple_calls (ir.h): custom calls of JAX's old ABI that return one tuple (jaxlib's
 * LAPACK kernels of 2023: `-> tuple<tensor<3x3xf64>, tensor<3xf64>, ...>`, read back with
 * get_tuple_element) become calls with the tuple's elements as results, as the typed FFI writes
 * them, and their get_tuple_element ops go away: every use of one reads the call's result. */
#include "ir/ir.h"

/* The custom call `op` can be untupled: one result, a tuple of tensors, used by nothing but
 * get_tuple_element ops of the same block. */
static bool untuplable(const hr_op *op, const hr_block *b) {
  if (op->code != HR_OP_CUSTOM_CALL || op->n_results != 1 || op->results[0].type.kind != HR_TYPE_TUPLE) return false;
  const hr_type *t = &op->results[0].type;
  for (int i = 0; i < t->n_elems; i++)
    if (t->elems[i].kind != HR_TYPE_TENSOR) return false;
  for (int i = 0; i < b->n_ops; i++)
    for (int k = 0; k < b->ops[i]->n_operands; k++) {
      if (b->ops[i]->operands[k] != &op->results[0]) continue;
      if (b->ops[i]->code != HR_OP_GET_TUPLE_ELEMENT) return false;
    }
  return true;
}

/* The element index a get_tuple_element reads, or -1. */
static int64_t element_index(const hr_op *gte) {
  int64_t v;
  hr_status s = hr_op_attr_i64(gte, "index", &v);
  if (s) {
    hr_status_free(s);
    return -1;
  }
  return v;
}

/* Untuples the call at b->ops[at] of function `f`; its get_tuple_element ops are removed. */
static hr_status untuple(hr_module *m, hr_func *f, hr_block *b, int at) {
  hr_op *call = b->ops[at];
  const hr_type tuple = call->results[0].type;
  int n = tuple.n_elems;
  hr_value *results = hr_arena_calloc(&m->arena, (size_t)(n ? n : 1), sizeof *results, 8);
  if (!results) return hr_error(HR_OUT_OF_MEMORY, "out of memory untupling a custom call");
  for (int i = 0; i < n; i++)
    results[i] = (hr_value){tuple.elems[i], i ? f->n_values++ : call->results[0].id, call, NULL, (uint32_t)i, NULL};
  hr_value *old = &call->results[0];
  int kept = 0;
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    int64_t k = op->code == HR_OP_GET_TUPLE_ELEMENT && op->n_operands == 1 && op->operands[0] == old ? element_index(op) : -2;
    if (k == -2) {
      b->ops[kept++] = op;
      continue;
    }
    if (k < 0 || k >= n) return hr_op_error(op, HR_VERIFY_ERROR, "get_tuple_element index %lld out of range", (long long)k);
    hr_block_replace_uses(&f->body, &op->results[0], &results[k]);
  }
  b->n_ops = kept;
  call->results = results;
  call->n_results = n;
  return NULL;
}

/* Untuples the calls of block `b` and of the regions of its ops. */
static hr_status untuple_block(hr_module *m, hr_func *f, hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    if (untuplable(b->ops[i], b)) HR_TRY(untuple(m, f, b, i));
    for (int r = 0; r < b->ops[i]->n_regions; r++) HR_TRY(untuple_block(m, f, &b->ops[i]->regions[r]));
  }
  return NULL;
}

hr_status hr_module_untuple_calls(hr_module *m) {
  for (int i = 0; i < m->n_funcs; i++)
    if (!m->funcs[i]->is_declaration) HR_TRY(untuple_block(m, m->funcs[i], &m->funcs[i]->body));
  return NULL;
}

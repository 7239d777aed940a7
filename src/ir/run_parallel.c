/* interpreter.run_parallel's attributes (ir.h): `programs`, an array of replicas each an array of
 * one function per partition, and the optional `infeed`, an array of functions. */
#include "ir/ir.h"

/* The symbol attribute `a` names a function of `m` with a body; errors name `op`. */
static hr_status named_func(const hr_module *m, const hr_op *op, const char *what, const hr_attr *a,
                            const hr_func **out) {
  if (!a || a->kind != HR_ATTR_SYMBOL || !a->u.str.data)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s must list function symbols", what);
  const hr_func *fn = hr_module_find_func(m, a->u.str.data);
  if (!fn || fn->is_declaration)
    return hr_op_error(op, HR_VERIFY_ERROR, "%s names @%s, which is not a function with a body", what, a->u.str.data);
  *out = fn;
  return NULL;
}

hr_status hr_run_parallel_grid(const hr_op *op, int64_t *replicas, int64_t *partitions) {
  const hr_attr *a = hr_op_attr(op, "programs");
  if (!a || a->kind != HR_ATTR_ARRAY || a->u.array.n == 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "`programs` must be a non-empty array of arrays of functions");
  const hr_attr *first = a->u.array.items[0];
  if (first->kind != HR_ATTR_ARRAY || first->u.array.n == 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "`programs` must be a non-empty array of arrays of functions");
  for (int r = 0; r < a->u.array.n; r++) {
    const hr_attr *row = a->u.array.items[r];
    if (row->kind != HR_ATTR_ARRAY || row->u.array.n != first->u.array.n)
      return hr_op_error(op, HR_VERIFY_ERROR, "every replica of `programs` must list %d functions, one per partition",
                         first->u.array.n);
  }
  *replicas = a->u.array.n;
  *partitions = first->u.array.n;
  return NULL;
}

hr_status hr_run_parallel_program(const hr_module *m, const hr_op *op, int64_t index, const hr_func **out) {
  int64_t replicas = 0, partitions = 1;
  HR_TRY(hr_run_parallel_grid(op, &replicas, &partitions));
  if (index < 0 || index >= replicas * partitions) return hr_op_error(op, HR_INTERNAL, "no process %lld", (long long)index);
  const hr_attr *row = hr_op_attr(op, "programs")->u.array.items[index / partitions];
  return named_func(m, op, "`programs`", row->u.array.items[index % partitions], out);
}

hr_status hr_run_parallel_infeed(const hr_module *m, const hr_op *op, int64_t index, int64_t *count,
                                 const hr_func **out) {
  const hr_attr *a = hr_op_attr(op, "infeed");
  *count = 0;
  if (!a) return NULL;
  if (a->kind != HR_ATTR_ARRAY || a->u.array.n == 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "`infeed` must be a non-empty array of functions when present");
  *count = a->u.array.n;
  if (index < 0 || index >= *count) return NULL;
  HR_TRY(named_func(m, op, "`infeed`", a->u.array.items[index], out));
  if ((*out)->n_args != 0 || (*out)->n_results < 1)
    return hr_op_error(op, HR_VERIFY_ERROR, "infeed function @%s must take no arguments and return values",
                       (*out)->name);
  return NULL;
}

/*
 * Pretty syntax of the region-carrying ops that have one (StableHLO's AssemblyFormat.cpp):
 *
 *   stablehlo.reduce(%x init: %c) applies stablehlo.add across dimensions = [1] : (...) -> ...
 *   stablehlo.reduce(%x init: %c), (%y init: %d) across dimensions = [0] : (...) -> (...)
 *    reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
 *     ...
 *   }
 *   stablehlo.while(%iterArg = %0, %iterArg_0 = %1) : tensor<i64>, tensor<f32>
 *    cond {
 *     ...
 *   } do {
 *     ...
 *   }
 *
 * The other region ops (sort, scatter, reduce_window, if, case, ...) have no pretty form.
 */
#include "ir/print_internal.h"

/* Appends a newline and the current indentation (MLIR's printNewline). */
static void put_newline(hr_printer *p) {
  hr_strbuf_putc(p->out, '\n');
  for (int i = 0; i < p->indent; i++) hr_strbuf_putc(p->out, ' ');
}

/* Whether the block arguments have exactly the given types. */
static bool args_have_types(const hr_block *b, hr_value *const *vals, int n) {
  if (b->n_args != n) return false;
  for (int i = 0; i < n; i++)
    if (!vals[i] || !hr_type_equal(&b->args[i].type, &vals[i]->type)) return false;
  return true;
}

/* Whether a reduce body is `%r = <commutative binary op> %arg0, %arg1; stablehlo.return %r` on
 * scalars of the first input's element type, which MLIR prints as `applies <op>`; the checks
 * follow isReduceEligibleForCompactPrint, plus no attributes on the inner op and the return (the
 * compact form could not carry them). */
static bool reduce_is_compact(const hr_op *op, const hr_block *b) {
  if (b->n_ops != 2 || b->n_args != 2 || !b->ops[0] || !b->ops[1]) return false;
  const hr_op *inner = b->ops[0], *ret = b->ops[1];
  switch (inner->code) {
    case HR_OP_ADD:
    case HR_OP_MULTIPLY:
    case HR_OP_MAXIMUM:
    case HR_OP_MINIMUM:
    case HR_OP_AND:
    case HR_OP_OR:
    case HR_OP_XOR: break;
    default: return false;
  }
  if (inner->n_operands != 2 || !inner->operands || inner->n_results != 1 || !inner->results ||
      inner->n_regions != 0 || inner->n_attrs != 0 || ret->n_operands != 1 || !ret->operands)
    return false;
  if (inner->operands[0] != &b->args[0] || inner->operands[1] != &b->args[1]) return false;
  const hr_type *t = &inner->results[0].type;
  const hr_value *input = op->operands[0];
  if (!input || input->type.kind != HR_TYPE_TENSOR || t->kind != HR_TYPE_TENSOR ||
      t->shape.rank != 0 || t->dtype != input->type.dtype)
    return false;
  if (!hr_type_equal(&b->args[0].type, t) || !hr_type_equal(&b->args[1].type, t)) return false;
  return ret->code == HR_OP_RETURN && ret->operands[0] == &inner->results[0] && ret->n_attrs == 0 &&
         ret->n_results == 0 && ret->n_regions == 0;
}

/* stablehlo.reduce in its `applies` or `reducer` form. */
static hr_status print_reduce(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *dims = hr_op_attr(op, "dimensions");
  int pairs = op->n_operands / 2;
  if (op->n_regions != 1 || pairs < 1 || op->n_operands != 2 * pairs || !dims ||
      dims->kind != HR_ATTR_DENSE_ARRAY || dims->u.dense_array.dtype != HR_I64 ||
      dims->u.dense_array.n < 0 || (dims->u.dense_array.n > 0 && !dims->u.dense_array.ints))
    return NULL;
  const hr_block *body = &op->regions[0];
  if (body->n_args != 2 * pairs || (body->n_ops > 0 && !body->ops)) return NULL;
  bool compact = reduce_is_compact(op, body);
  hr_print_op_name(p, op);
  for (int i = 0; i < pairs; i++) {
    hr_strbuf_puts(p->out, i ? ", (" : "(");
    HR_TRY(hr_print_value_use(p, op->operands[i]));
    hr_strbuf_puts(p->out, " init: ");
    HR_TRY(hr_print_value_use(p, op->operands[i + pairs]));
    hr_strbuf_putc(p->out, ')');
  }
  if (compact) {
    hr_strbuf_puts(p->out, " applies ");
    hr_strbuf_puts(p->out, hr_opcode_name(body->ops[0]->code));
  }
  hr_strbuf_puts(p->out, " across dimensions = [");
  HR_TRY(hr_print_dense_array_elems(p, dims));
  hr_strbuf_putc(p->out, ']');
  *done = true;
  static const char *const skip[] = {"dimensions", NULL};
  HR_TRY(hr_print_op_attr_dict(p, op, skip));
  hr_strbuf_puts(p->out, " : ");
  HR_TRY(hr_print_functional_type(p, op));
  if (compact) return NULL;
  put_newline(p);
  hr_strbuf_puts(p->out, " reducer");
  for (int i = 0; i < pairs; i++) {
    hr_strbuf_putc(p->out, '(');
    HR_TRY(hr_print_block_arg(p, &body->args[i]));
    hr_strbuf_puts(p->out, ", ");
    HR_TRY(hr_print_block_arg(p, &body->args[i + pairs]));
    hr_strbuf_puts(p->out, ") ");
  }
  hr_strbuf_putc(p->out, ' ');
  return hr_print_region(p, body, false);
}

/* stablehlo.while(%iterArg = %init, ...) : types cond { ... } do { ... } */
static hr_status print_while(hr_printer *p, const hr_op *op, bool *done) {
  if (op->n_regions != 2 || op->n_results != op->n_operands) return NULL;
  const hr_block *cond = &op->regions[0], *body = &op->regions[1];
  if (!args_have_types(cond, op->operands, op->n_operands) ||
      !args_have_types(body, op->operands, op->n_operands))
    return NULL;
  for (int i = 0; i < op->n_results; i++)
    if (!hr_type_equal(&op->results[i].type, &op->operands[i]->type)) return NULL;
  hr_print_op_name(p, op);
  hr_strbuf_putc(p->out, '(');
  for (int i = 0; i < op->n_operands; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    HR_TRY(hr_print_value_use(p, &body->args[i]));
    hr_strbuf_puts(p->out, " = ");
    HR_TRY(hr_print_value_use(p, op->operands[i]));
  }
  hr_strbuf_putc(p->out, ')');
  if (op->n_operands > 0) {
    hr_strbuf_puts(p->out, " : ");
    HR_TRY(hr_print_value_types(p, op->operands, op->n_operands));
  }
  *done = true;
  hr_named_attr *attrs;
  int n;
  HR_TRY(hr_print_sorted_attrs(p, op, NULL, &attrs, &n));
  if (n > 0) {
    hr_strbuf_puts(p->out, " attributes");
    HR_TRY(hr_print_attr_dict(p, attrs, n));
  }
  put_newline(p);
  hr_strbuf_puts(p->out, " cond ");
  HR_TRY(hr_print_region(p, cond, false));
  hr_strbuf_puts(p->out, " do ");
  return hr_print_region(p, body, false);
}

/* sdy.manual_computation(%a) in_shardings=[<...>] out_shardings=[<...>] manual_axes={"a"}
 *   (%arg: T) { ... } {attrs} : (T) -> U */
static hr_status print_manual_computation(hr_printer *p, const hr_op *op, bool *done) {
  static const char *const keys[4] = {"in_shardings", "out_shardings", "manual_axes", NULL}; /* NULL: the skip list's end */
  static const char *const prefixes[3] = {"sdy.sharding_per_value<", "sdy.sharding_per_value<", "sdy<manual_axes"};
  const char *bodies[3];
  size_t lens[3];
  for (int k = 0; k < 3; k++)
    if (!hr_opaque_body(hr_op_attr(op, keys[k]), prefixes[k], ">", &bodies[k], &lens[k])) return NULL;
  if (op->n_regions != 1) return NULL;
  const hr_block *body = &op->regions[0];
  hr_print_op_name(p, op);
  hr_strbuf_putc(p->out, '(');
  HR_TRY(hr_print_value_list(p, op->operands, op->n_operands));
  hr_strbuf_putc(p->out, ')');
  for (int k = 0; k < 3; k++) {
    hr_strbuf_printf(p->out, " %s=", keys[k]);
    hr_strbuf_append(p->out, bodies[k], lens[k]);
  }
  hr_strbuf_puts(p->out, " (");
  for (int i = 0; i < body->n_args; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    HR_TRY(hr_print_block_arg(p, &body->args[i]));
  }
  hr_strbuf_puts(p->out, ") ");
  *done = true;
  HR_TRY(hr_print_region(p, body, false));
  HR_TRY(hr_print_op_attr_dict(p, op, keys));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_functional_type(p, op);
}

hr_status hr_print_pretty_region_op(hr_printer *p, const hr_op *op, bool *done) {
  *done = false;
  for (int i = 0; i < op->n_operands; i++)
    if (!op->operands[i]) return NULL; /* reported by the generic form */
  if (op->code == HR_OP_REDUCE) return print_reduce(p, op, done);
  if (op->code == HR_OP_WHILE) return print_while(p, op, done);
  if (op->code == HR_OP_SDY_MANUAL_COMPUTATION) return print_manual_computation(p, op, done);
  return NULL;
}

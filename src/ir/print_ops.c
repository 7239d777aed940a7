/*
 * Pretty syntax of the ops without regions, following the assembly formats of StableHLO's
 * StablehloOps.td / ChloOps.td and the custom printers of AssemblyFormat.cpp:
 *
 *   stablehlo.add %0, %1 : tensor<2xf32>                    (same operand and result types)
 *   stablehlo.convert %0 : (tensor<2xi32>) -> tensor<2xf32> (types differ: functional type)
 *   stablehlo.broadcast_in_dim %0, dims = [0] : (...) -> ...
 *   stablehlo.compare  LT, %0, %1,  FLOAT : (...) -> ...
 *   stablehlo.slice %0 [0:4:2, 1:3] : (...) -> ...
 *   stablehlo.dot_general %0, %1, batching_dims = [0] x [0], contracting_dims = [2] x [1] : ...
 *   stablehlo.convolution(%0, %1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {...} ...
 *
 * A pretty form is used only when every attribute it spells in its own syntax has exactly the
 * form the parser produces from that syntax; the remaining attributes go to the attr-dict.
 */
#include <string.h>

#include "ir/chlo.h"
#include "ir/print_internal.h"

/* ---- attribute shapes the pretty syntax can express ---- */

/* The attribute `name` of `op` if it is an array<i64: ...>, else NULL. */
static const hr_attr *i64_array_attr(const hr_op *op, const char *name) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a || a->kind != HR_ATTR_DENSE_ARRAY || a->u.dense_array.dtype != HR_I64) return NULL;
  if (a->u.dense_array.n < 0 || (a->u.dense_array.n > 0 && !a->u.dense_array.ints)) return NULL;
  return a;
}

/* The attribute `name` of `op` if it is an integer of type `t` (written `N : t`), else NULL. */
static const hr_attr *typed_int_attr(const hr_op *op, const char *name, hr_dtype t) {
  const hr_attr *a = hr_op_attr(op, name);
  return a && a->kind == HR_ATTR_INT && a->u.i.dtype == t && !a->u.i.is_index ? a : NULL;
}

/* The attribute `name` of `op` if it is a #stablehlo<kind VALUE> enum, else NULL. */
static const hr_attr *enum_attr(const hr_op *op, const char *name, const char *dialect,
                                const char *kind) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a || a->kind != HR_ATTR_ENUM || !a->u.enm.dialect || !a->u.enm.name || !a->u.enm.value)
    return NULL;
  if (strcmp(a->u.enm.dialect, dialect) != 0 || strcmp(a->u.enm.name, kind) != 0) return NULL;
  return a;
}

/* Whether the attribute is an array of #stablehlo<precision X> enums. */
static bool is_precision_list(const hr_attr *a) {
  if (a->kind != HR_ATTR_ARRAY || a->u.array.n < 0 || (a->u.array.n > 0 && !a->u.array.items))
    return false;
  for (int i = 0; i < a->u.array.n; i++) {
    const hr_attr *e = a->u.array.items[i];
    if (!e || e->kind != HR_ATTR_ENUM || !e->u.enm.dialect || !e->u.enm.name || !e->u.enm.value ||
        strcmp(e->u.enm.dialect, "stablehlo") != 0 || strcmp(e->u.enm.name, "precision") != 0)
      return false;
  }
  return true;
}

/* Whether the op has exactly these counts of operands, results and regions (-1: any operands). */
static bool has_shape(const hr_op *op, int operands, int results) {
  return (operands < 0 || op->n_operands == operands) && op->n_results == results &&
         op->n_regions == 0;
}

/* Whether two types are equal; a NULL-safe wrapper for operands. */
static bool same_type(const hr_value *v, const hr_type *t) {
  return v && hr_type_equal(&v->type, t);
}

/* ---- printing helpers ---- */

/* Appends `name ` (the op name and a space). */
static void put_name(hr_printer *p, const hr_op *op) {
  hr_print_op_name(p, op);
  hr_strbuf_putc(p->out, ' ');
}

/* Appends `[1, 2]` for an array<i64> attribute. */
static hr_status put_i64_list(hr_printer *p, const hr_attr *a) {
  hr_strbuf_putc(p->out, '[');
  HR_TRY(hr_print_dense_array_elems(p, a));
  hr_strbuf_putc(p->out, ']');
  return NULL;
}

/* Appends the operands [from, to) separated by ", ". */
static hr_status put_operands(hr_printer *p, const hr_op *op, int from, int to) {
  return hr_print_value_list(p, op->operands + from, to - from);
}

/* Appends the attr-dict (without `skip`) and ` : ` and the functional type. */
static hr_status finish_functional(hr_printer *p, const hr_op *op, const char *const *skip) {
  HR_TRY(hr_print_op_attr_dict(p, op, skip));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_functional_type(p, op);
}

/* Appends the attr-dict and ` : ` and MLIR's SameOperandsAndResultType spelling: the result type
 * alone when every operand has it, the functional type otherwise. */
static hr_status finish_same_type(hr_printer *p, const hr_op *op, const char *const *skip) {
  HR_TRY(hr_print_op_attr_dict(p, op, skip));
  hr_strbuf_puts(p->out, " : ");
  const hr_type *result = &op->results[0].type;
  for (int i = 0; i < op->n_operands; i++)
    if (!same_type(op->operands[i], result)) return hr_print_functional_type(p, op);
  return hr_print_type(p, result);
}

/* ---- op families ---- */

/* `%x attr-dict : T` for unary elementwise ops (functional type when the types differ). */
static hr_status print_unary(hr_printer *p, const hr_op *op, bool *done) {
  if (!has_shape(op, 1, 1)) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 1));
  *done = true;
  return finish_same_type(p, op, NULL);
}

/* `%a, %b attr-dict : T` for binary elementwise ops, and clamp's three operands. */
static hr_status print_nary_same_type(hr_printer *p, const hr_op *op, bool *done) {
  int n = op->code == HR_OP_CLAMP ? 3 : 2;
  if (!has_shape(op, n, 1)) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, n));
  *done = true;
  return finish_same_type(p, op, NULL);
}

/* `operands attr-dict : (...) -> ...` for ops whose syntax is just their operands. */
static hr_status print_operands_functional(hr_printer *p, const hr_op *op, int operands,
                                           bool *done) {
  if (!has_shape(op, operands, 1) || op->n_operands == 0) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  *done = true;
  return finish_functional(p, op, NULL);
}

/* stablehlo.complex: the result type alone when both operands have its real counterpart type. */
static hr_status print_complex(hr_printer *p, const hr_op *op, bool *done) {
  if (!has_shape(op, 2, 1)) return NULL;
  const hr_type *r = &op->results[0].type;
  bool short_form = r->kind == HR_TYPE_TENSOR && hr_dtype_is_complex(r->dtype);
  if (short_form) {
    hr_type real = *r;
    real.dtype = r->dtype == HR_C64 ? HR_F32 : HR_F64;
    short_form = same_type(op->operands[0], &real) && same_type(op->operands[1], &real);
  }
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 2));
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  hr_strbuf_puts(p->out, " : ");
  return short_form ? hr_print_type(p, r) : hr_print_functional_type(p, op);
}

/* stablehlo.select: `pred_type, result_type` when both branches have the result type. */
static hr_status print_select(hr_printer *p, const hr_op *op, bool *done) {
  if (!has_shape(op, 3, 1) || !op->operands[0]) return NULL;
  const hr_type *r = &op->results[0].type;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 3));
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  hr_strbuf_puts(p->out, " : ");
  if (!same_type(op->operands[1], r) || !same_type(op->operands[2], r))
    return hr_print_functional_type(p, op);
  HR_TRY(hr_print_type(p, &op->operands[0]->type));
  hr_strbuf_puts(p->out, ", ");
  return hr_print_type(p, r);
}

/* stablehlo.constant: `dense<...> : tensor<...>`, when the value's type is the result type. */
static hr_status print_constant(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *v = hr_op_attr(op, "value");
  if (!has_shape(op, 0, 1) || !v || v->kind != HR_ATTR_DENSE ||
      !hr_type_equal(&v->u.dense.type, &op->results[0].type))
    return NULL;
  static const char *const skip[] = {"value", NULL};
  hr_print_op_name(p, op);
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, skip));
  hr_strbuf_putc(p->out, ' ');
  return hr_print_attr(p, v);
}

/* Ops printed as `attr-dict : type` (create_token, replica_id, partition_id) and iota
 * (`dim = N attr-dict : type`). */
static hr_status print_nullary(hr_printer *p, const hr_op *op, bool *done) {
  static const char *const skip[] = {"iota_dimension", NULL};
  const hr_attr *dim = NULL;
  if (!has_shape(op, 0, 1)) return NULL;
  if (op->code == HR_OP_IOTA && !(dim = typed_int_attr(op, "iota_dimension", HR_I64))) return NULL;
  hr_print_op_name(p, op);
  if (dim) hr_strbuf_printf(p->out, " dim = %lld", (long long)dim->u.i.value);
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, dim ? skip : NULL));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_type(p, &op->results[0].type);
}

/* Ops with operands, then `keyword = [i64 list]`s, then `: functional type`:
 * broadcast_in_dim, transpose, broadcast, dynamic_slice (sizes), pad (low/high/interior),
 * dynamic_broadcast_in_dim; reverse uses the same-type spelling. */
static hr_status print_with_i64_lists(hr_printer *p, const hr_op *op, bool *done) {
  const char *attrs[3] = {NULL, NULL, NULL}, *words[3] = {NULL, NULL, NULL};
  int lead = 1; /* operands before the keywords; -1: all of them (dynamic_slice) */
  switch (op->code) {
    case HR_OP_BROADCAST_IN_DIM: attrs[0] = "broadcast_dimensions", words[0] = "dims"; break;
    case HR_OP_DYNAMIC_BROADCAST_IN_DIM:
      attrs[0] = "broadcast_dimensions", words[0] = "dims", lead = 2;
      break;
    case HR_OP_TRANSPOSE: attrs[0] = "permutation", words[0] = "dims"; break;
    case HR_OP_REVERSE: attrs[0] = "dimensions", words[0] = "dims"; break;
    case HR_OP_BROADCAST: attrs[0] = "broadcast_sizes", words[0] = "sizes"; break;
    case HR_OP_DYNAMIC_SLICE: attrs[0] = "slice_sizes", words[0] = "sizes", lead = -1; break;
    default:
      attrs[0] = "edge_padding_low", words[0] = "low";
      attrs[1] = "edge_padding_high", words[1] = "high";
      attrs[2] = "interior_padding", words[2] = "interior";
      lead = 2;
      break;
  }
  if (lead < 0 ? !has_shape(op, -1, 1) || op->n_operands < 1 : !has_shape(op, lead, 1)) return NULL;
  const hr_attr *vals[3] = {NULL, NULL, NULL};
  for (int i = 0; i < 3 && attrs[i]; i++)
    if (!(vals[i] = i64_array_attr(op, attrs[i]))) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, lead < 0 ? op->n_operands : lead));
  for (int i = 0; i < 3 && attrs[i]; i++) {
    hr_strbuf_printf(p->out, ", %s = ", words[i]);
    HR_TRY(put_i64_list(p, vals[i]));
  }
  *done = true;
  const char *const skip[4] = {attrs[0], attrs[1], attrs[2], NULL};
  return op->code == HR_OP_REVERSE ? finish_same_type(p, op, skip) : finish_functional(p, op, skip);
}

/* Ops with operands, then `dim = N` (an i64 attribute), then `: functional type`:
 * concatenate, get_dimension_size, set_dimension_size, dynamic_iota. */
static hr_status print_with_dim(hr_printer *p, const hr_op *op, bool *done) {
  const char *name = op->code == HR_OP_DYNAMIC_IOTA ? "iota_dimension" : "dimension";
  int operands = op->code == HR_OP_CONCATENATE ? -1 : op->code == HR_OP_SET_DIMENSION_SIZE ? 2 : 1;
  const hr_attr *dim = typed_int_attr(op, name, HR_I64);
  if (!dim || !has_shape(op, operands, 1) || op->n_operands == 0) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  hr_strbuf_printf(p->out, ", dim = %lld", (long long)dim->u.i.value);
  *done = true;
  const char *const skip[] = {name, NULL};
  return finish_functional(p, op, skip);
}

/* stablehlo.compare  DIR, %a, %b,  TYPE : (...) -> ... */
static hr_status print_compare(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *dir = enum_attr(op, "comparison_direction", "stablehlo", "comparison_direction");
  const hr_attr *type = enum_attr(op, "compare_type", "stablehlo", "comparison_type");
  if (!has_shape(op, 2, 1) || !dir || (!type && hr_op_attr(op, "compare_type"))) return NULL;
  hr_print_op_name(p, op);
  hr_strbuf_printf(p->out, "  %s, ", dir->u.enm.value);
  HR_TRY(put_operands(p, op, 0, 2));
  if (type) hr_strbuf_printf(p->out, ",  %s", type->u.enm.value);
  *done = true;
  static const char *const skip[] = {"comparison_direction", "compare_type", NULL};
  return finish_functional(p, op, skip);
}

/* stablehlo.slice %x [start:limit:stride, ...] (the stride is omitted when 1). */
static hr_status print_slice(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *s = i64_array_attr(op, "start_indices"), *l = i64_array_attr(op, "limit_indices"),
                *st = i64_array_attr(op, "strides");
  if (!has_shape(op, 1, 1) || !s || !l || !st || s->u.dense_array.n != l->u.dense_array.n ||
      s->u.dense_array.n != st->u.dense_array.n)
    return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 1));
  hr_strbuf_puts(p->out, " [");
  for (int64_t i = 0; i < s->u.dense_array.n; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    hr_strbuf_printf(p->out, "%lld:%lld", (long long)s->u.dense_array.ints[i],
                     (long long)l->u.dense_array.ints[i]);
    if (st->u.dense_array.ints[i] != 1)
      hr_strbuf_printf(p->out, ":%lld", (long long)st->u.dense_array.ints[i]);
  }
  hr_strbuf_putc(p->out, ']');
  *done = true;
  static const char *const skip[] = {"start_indices", "limit_indices", "strides", NULL};
  return finish_functional(p, op, skip);
}

/* stablehlo.custom_call @target(%a, %b) {attrs} : (...) -> ... */
static hr_status print_custom_call(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *t = hr_op_attr(op, "call_target_name");
  if (op->n_regions != 0 || !t || t->kind != HR_ATTR_STRING || (!t->u.str.data && t->u.str.len))
    return NULL;
  put_name(p, op);
  hr_print_symbol(p, t->u.str.data ? t->u.str.data : "", t->u.str.len);
  hr_strbuf_putc(p->out, '(');
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  hr_strbuf_putc(p->out, ')');
  *done = true;
  static const char *const skip[] = {"call_target_name", NULL};
  return finish_functional(p, op, skip);
}

/* call @callee(%a) {attrs} : (...) -> ... */
static hr_status print_call(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *c = hr_op_attr(op, "callee");
  if (op->n_regions != 0 || !c || c->kind != HR_ATTR_SYMBOL || !c->u.str.data) return NULL;
  put_name(p, op);
  hr_print_symbol(p, c->u.str.data, c->u.str.len);
  hr_strbuf_putc(p->out, '(');
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  hr_strbuf_putc(p->out, ')');
  *done = true;
  static const char *const skip[] = {"callee", NULL};
  return finish_functional(p, op, skip);
}

/* Terminators: `stablehlo.return %a, %b {attrs} : T1, T2` and `return {attrs} %a : T`. */
static hr_status print_return(hr_printer *p, const hr_op *op, bool *done) {
  if (op->n_results != 0 || op->n_regions != 0) return NULL;
  hr_print_op_name(p, op);
  *done = true;
  bool func = op->code == HR_OP_FUNC_RETURN || op->code == HR_OP_SDY_RETURN; /* attr-dict first */
  if (func) HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  if (op->n_operands > 0) {
    hr_strbuf_putc(p->out, ' ');
    HR_TRY(put_operands(p, op, 0, op->n_operands));
  }
  if (!func) HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  if (op->n_operands > 0) {
    hr_strbuf_puts(p->out, " : ");
    HR_TRY(hr_print_value_types(p, op->operands, op->n_operands));
  }
  return NULL;
}

/* sdy.sharding_constraint %x <@mesh, [{"a"}, {}]> {attrs} : T */
static hr_status print_sharding_constraint(hr_printer *p, const hr_op *op, bool *done) {
  const char *body;
  size_t len;
  if (!has_shape(op, 1, 1) || !hr_opaque_body(hr_op_attr(op, "sharding"), "sdy.sharding", "", &body, &len) ||
      !hr_type_equal(&op->operands[0]->type, &op->results[0].type))
    return NULL;
  put_name(p, op);
  HR_TRY(hr_print_value_use(p, op->operands[0]));
  hr_strbuf_putc(p->out, ' ');
  hr_strbuf_append(p->out, body, len);
  *done = true;
  static const char *const skip[] = {"sharding", NULL};
  HR_TRY(hr_print_op_attr_dict(p, op, skip));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_type(p, &op->results[0].type);
}

/* stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (...) -> ... */
static hr_status put_precision(hr_printer *p, const hr_attr *a) {
  hr_strbuf_puts(p->out, ", precision = [");
  for (int i = 0; i < a->u.array.n; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    hr_strbuf_puts(p->out, a->u.array.items[i]->u.enm.value);
  }
  hr_strbuf_putc(p->out, ']');
  return NULL;
}

static hr_status print_dot(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *prec = hr_op_attr(op, "precision_config");
  if (!has_shape(op, 2, 1) || (prec && !is_precision_list(prec))) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 2));
  if (prec) HR_TRY(put_precision(p, prec));
  *done = true;
  static const char *const skip[] = {"precision_config", NULL};
  return finish_functional(p, op, skip);
}

/* The four dimension lists of a #stablehlo.dot struct, when it is in the parser's canonical form:
 * fields in the order lhs_batching, rhs_batching, lhs_contracting, rhs_contracting, empty lists
 * omitted, each a list of untyped integers. */
typedef struct dot_dims {
  const hr_attr *lists[4];
} dot_dims;

static bool read_dot_dims(const hr_attr *a, dot_dims *d) {
  static const char *const names[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                       "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  if (!a || a->kind != HR_ATTR_STRUCT || !a->u.strct.name ||
      strcmp(a->u.strct.name, "stablehlo.dot") != 0 || a->u.strct.n < 0 || a->u.strct.n > 4 ||
      (a->u.strct.n > 0 && !a->u.strct.fields))
    return false;
  memset(d, 0, sizeof *d);
  int k = 0;
  for (int i = 0; i < a->u.strct.n; i++) {
    const hr_named_attr *f = &a->u.strct.fields[i];
    while (k < 4 && (!f->name || strcmp(f->name, names[k]) != 0)) k++;
    if (k == 4 || !f->value || f->value->kind != HR_ATTR_ARRAY || f->value->u.array.n <= 0 ||
        !f->value->u.array.items)
      return false;
    for (int j = 0; j < f->value->u.array.n; j++) {
      const hr_attr *e = f->value->u.array.items[j];
      if (!e || e->kind != HR_ATTR_INT || e->u.i.dtype != HR_DTYPE_INVALID || e->u.i.is_index)
        return false;
    }
    d->lists[k++] = f->value;
  }
  return true;
}

/* Appends `[1, 2]` for an optional list of untyped integers (`[]` when absent). */
static void put_int_list(hr_printer *p, const hr_attr *a) {
  hr_strbuf_putc(p->out, '[');
  for (int i = 0; a && i < a->u.array.n; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    hr_strbuf_printf(p->out, "%lld", (long long)a->u.array.items[i]->u.i.value);
  }
  hr_strbuf_putc(p->out, ']');
}

/* stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1],
 * precision = [...] : (...) -> ... */
static hr_status print_dot_general(hr_printer *p, const hr_op *op, bool *done) {
  dot_dims d;
  const hr_attr *prec = hr_op_attr(op, "precision_config");
  if (!has_shape(op, 2, 1) || !read_dot_dims(hr_op_attr(op, "dot_dimension_numbers"), &d) ||
      (prec && !is_precision_list(prec)) || hr_op_attr(op, "algorithm"))
    return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 2));
  if (d.lists[0] || d.lists[1]) {
    hr_strbuf_puts(p->out, ", batching_dims = ");
    put_int_list(p, d.lists[0]);
    hr_strbuf_puts(p->out, " x ");
    put_int_list(p, d.lists[1]);
  }
  hr_strbuf_puts(p->out, ", contracting_dims = ");
  put_int_list(p, d.lists[2]);
  hr_strbuf_puts(p->out, " x ");
  put_int_list(p, d.lists[3]);
  if (prec) HR_TRY(put_precision(p, prec));
  *done = true;
  static const char *const skip[] = {"dot_dimension_numbers", "precision_config", NULL};
  return finish_functional(p, op, skip);
}

/* Whether `padding` is a dense tensor<Nx2xi64>, the only form the `pad = [[lo, hi], ...]` syntax
 * reads back to. */
static bool is_window_padding(const hr_attr *a) {
  const hr_type *t = &a->u.dense.type;
  return a->kind == HR_ATTR_DENSE && t->kind == HR_TYPE_TENSOR && t->dtype == HR_I64 &&
         t->shape.rank == 2 && t->shape.dims[1] == 2 && t->shape.dims[0] >= 0 && a->u.dense.data &&
         a->u.dense.nbytes == (a->u.dense.splat ? 8 : (size_t)t->shape.dims[0] * 16);
}

/* Appends the convolution window: `stride = [..], pad = [[..]], lhs_dilate = [..], ...`. */
static hr_status put_window(hr_printer *p, const hr_attr *const *w) {
  static const char *const words[5] = {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"};
  bool first = true;
  for (int i = 0; i < 5; i++) {
    if (!w[i]) continue;
    hr_strbuf_printf(p->out, "%s%s = [", first ? "" : ", ", words[i]);
    first = false;
    if (i == 1) {
      for (int64_t r = 0; r < w[i]->u.dense.type.shape.dims[0]; r++) {
        const int64_t *lo = hr_dense_element(w[i], 2 * r), *hi = hr_dense_element(w[i], 2 * r + 1);
        hr_strbuf_printf(p->out, "%s[%lld, %lld]", r ? ", " : "", (long long)*lo, (long long)*hi);
      }
    } else if (i == 4) {
      for (int64_t k = 0; k < w[i]->u.dense_array.n; k++)
        hr_strbuf_printf(p->out, "%s%d", k ? ", " : "", w[i]->u.dense_array.ints[k] ? 1 : 0);
    } else {
      HR_TRY(hr_print_dense_array_elems(p, w[i]));
    }
    hr_strbuf_putc(p->out, ']');
  }
  return NULL;
}

/* stablehlo.convolution(%a, %b) dim_numbers = ..., window = {...} {attrs} : (...) -> ... */
static hr_status print_convolution(hr_printer *p, const hr_op *op, bool *done) {
  static const char *const skip[] = {
      "dimension_numbers", "window_strides",  "padding", "lhs_dilation",
      "rhs_dilation",      "window_reversal", NULL};
  const hr_attr *dims = hr_op_attr(op, "dimension_numbers");
  const hr_attr *w[5] = {hr_op_attr(op, "window_strides"), hr_op_attr(op, "padding"),
                         hr_op_attr(op, "lhs_dilation"), hr_op_attr(op, "rhs_dilation"),
                         hr_op_attr(op, "window_reversal")};
  if (!has_shape(op, 2, 1) || !dims) return NULL;
  if ((w[0] && !i64_array_attr(op, "window_strides")) || (w[1] && !is_window_padding(w[1])) ||
      (w[2] && !i64_array_attr(op, "lhs_dilation")) ||
      (w[3] && !i64_array_attr(op, "rhs_dilation")))
    return NULL;
  if (w[4] &&
      (w[4]->kind != HR_ATTR_DENSE_ARRAY || w[4]->u.dense_array.dtype != HR_I1 ||
       w[4]->u.dense_array.n < 0 || (w[4]->u.dense_array.n > 0 && !w[4]->u.dense_array.ints)))
    return NULL;
  if (!hr_print_conv_dims_fit(dims)) return NULL;
  hr_print_op_name(p, op);
  hr_strbuf_putc(p->out, '(');
  HR_TRY(put_operands(p, op, 0, 2));
  hr_strbuf_puts(p->out, ") dim_numbers = ");
  hr_print_conv_dims(p, dims);
  hr_strbuf_puts(p->out, ", window = {");
  HR_TRY(put_window(p, w));
  hr_strbuf_putc(p->out, '}');
  *done = true;
  return finish_functional(p, op, skip);
}

/* stablehlo.einsum %a, %b, config = "..." and stablehlo.unary_einsum %a, config = "...". */
static hr_status print_einsum(hr_printer *p, const hr_op *op, bool *done) {
  int n = op->code == HR_OP_EINSUM ? 2 : 1;
  const hr_attr *c = hr_op_attr(op, "einsum_config");
  if (!has_shape(op, n, 1) || !c || c->kind != HR_ATTR_STRING || (!c->u.str.data && c->u.str.len))
    return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, n));
  hr_strbuf_puts(p->out, ", config = ");
  hr_print_escaped_string(p, c->u.str.data ? c->u.str.data : "", c->u.str.len);
  *done = true;
  static const char *const skip[] = {"einsum_config", NULL};
  return finish_functional(p, op, skip);
}

/* Ops with operands, then `word = ENUM` (and fft's `length = [..]`): fft, rng, rng_bit_generator.
 */
static hr_status print_with_enum(hr_printer *p, const hr_op *op, bool *done) {
  const char *name = "fft_type", *kind = "fft_type", *word = "type";
  int operands = 1;
  if (op->code == HR_OP_RNG) name = kind = "rng_distribution", word = "distribution", operands = 3;
  if (op->code == HR_OP_RNG_BIT_GENERATOR) name = kind = "rng_algorithm", word = "algorithm";
  int results = op->code == HR_OP_RNG_BIT_GENERATOR ? 2 : 1;
  const hr_attr *e = enum_attr(op, name, "stablehlo", kind);
  const hr_attr *len = op->code == HR_OP_FFT ? i64_array_attr(op, "fft_length") : NULL;
  if (!has_shape(op, operands, results) || !e || (op->code == HR_OP_FFT && !len)) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, operands));
  hr_strbuf_printf(p->out, ", %s =  %s", word, e->u.enm.value);
  if (len) {
    hr_strbuf_puts(p->out, ", length = ");
    HR_TRY(put_i64_list(p, len));
  }
  *done = true;
  const char *const skip[] = {name, "fft_length", NULL};
  return finish_functional(p, op, skip);
}

/* stablehlo.get_tuple_element %t[1] : (...) -> ... */
static hr_status print_get_tuple_element(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *idx = typed_int_attr(op, "index", HR_I32);
  if (!has_shape(op, 1, 1) || !idx) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 1));
  hr_strbuf_printf(p->out, "[%lld]", (long long)idx->u.i.value);
  *done = true;
  static const char *const skip[] = {"index", NULL};
  return finish_functional(p, op, skip);
}

/* stablehlo.tuple %a, %b : tuple<A, B> (operand types must be the tuple's element types). */
static hr_status print_tuple(hr_printer *p, const hr_op *op, bool *done) {
  if (!has_shape(op, -1, 1) || op->n_operands == 0) return NULL;
  const hr_type *t = &op->results[0].type;
  if (t->kind != HR_TYPE_TUPLE || t->n_elems != op->n_operands) return NULL;
  for (int i = 0; i < op->n_operands; i++)
    if (!same_type(op->operands[i], &t->elems[i])) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_type(p, t);
}

/* stablehlo.after_all %a, %b : !stablehlo.token (same-type spelling). */
static hr_status print_after_all(hr_printer *p, const hr_op *op, bool *done) {
  if (!has_shape(op, -1, 1) || op->n_operands == 0) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  *done = true;
  return finish_same_type(p, op, NULL);
}

/* stablehlo.optimization_barrier %a, %b : A, B (results have the operand types). */
static hr_status print_optimization_barrier(hr_printer *p, const hr_op *op, bool *done) {
  if (op->n_regions != 0 || op->n_results != op->n_operands || op->n_operands == 0) return NULL;
  for (int i = 0; i < op->n_operands; i++)
    if (!same_type(op->operands[i], &op->results[i].type)) return NULL;
  hr_print_op_name(p, op);
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  hr_strbuf_putc(p->out, ' ');
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_value_types(p, op->operands, op->n_operands);
}

/* stablehlo.cholesky %a, lower = true : T */
static hr_status print_cholesky(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *lower = hr_op_attr(op, "lower");
  if (!has_shape(op, 1, 1) || (lower && lower->kind != HR_ATTR_BOOL)) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 1));
  if (lower) hr_strbuf_printf(p->out, ", lower = %s", lower->u.b ? "true" : "false");
  *done = true;
  static const char *const skip[] = {"lower", NULL};
  return finish_same_type(p, op, skip);
}

/* stablehlo.reduce_precision %x, format = e5m10 : T */
static hr_status print_reduce_precision(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *e = typed_int_attr(op, "exponent_bits", HR_I32),
                *m = typed_int_attr(op, "mantissa_bits", HR_I32);
  if (!has_shape(op, 1, 1) || !e || !m || e->u.i.value < 0 || m->u.i.value < 0) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 1));
  hr_strbuf_printf(p->out, ", format = e%lldm%lld", (long long)e->u.i.value,
                   (long long)m->u.i.value);
  *done = true;
  static const char *const skip[] = {"exponent_bits", "mantissa_bits", NULL};
  return finish_same_type(p, op, skip);
}

/* stablehlo.composite "name" %a, %b {decomposition = @impl, ...} : (...) -> ... */
static hr_status print_composite(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *name = hr_op_attr(op, "name");
  if (op->n_regions != 0 || !name || name->kind != HR_ATTR_STRING ||
      (!name->u.str.data && name->u.str.len))
    return NULL;
  put_name(p, op);
  hr_print_escaped_string(p, name->u.str.data ? name->u.str.data : "", name->u.str.len);
  if (op->n_operands > 0) {
    hr_strbuf_putc(p->out, ' ');
    HR_TRY(put_operands(p, op, 0, op->n_operands));
  }
  *done = true;
  static const char *const skip[] = {"name", NULL};
  return finish_functional(p, op, skip);
}

/* chlo ops: `chlo.erf %x : T -> T`, `chlo.zeta %a, %b : A, B -> R`. */
static hr_status print_chlo(hr_printer *p, const hr_op *op, bool *done) {
  int n = (hr_opcode_flags(op->code) & HR_OPF_BINARY) ? 2 : 1;
  if (!has_shape(op, n, 1)) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, n));
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  hr_strbuf_puts(p->out, " : ");
  HR_TRY(hr_print_value_types(p, op->operands, n));
  hr_strbuf_puts(p->out, " -> ");
  return hr_print_type(p, &op->results[0].type);
}

/* chlo.top_k(%x, k = 3) : T -> (V, I) */
static hr_status print_top_k(hr_printer *p, const hr_op *op, bool *done) {
  const hr_attr *k = typed_int_attr(op, "k", HR_I64), *stable = hr_op_attr(op, "is_stable");
  if (!has_shape(op, 1, 2) || !k || (stable && stable->kind != HR_ATTR_BOOL)) return NULL;
  hr_print_op_name(p, op);
  hr_strbuf_putc(p->out, '(');
  HR_TRY(put_operands(p, op, 0, 1));
  hr_strbuf_printf(p->out, ", k = %lld", (long long)k->u.i.value);
  if (stable) hr_strbuf_printf(p->out, ", is_stable = %s", stable->u.b ? "true" : "false");
  hr_strbuf_putc(p->out, ')');
  *done = true;
  static const char *const skip[] = {"k", "is_stable", NULL};
  HR_TRY(hr_print_op_attr_dict(p, op, skip));
  hr_strbuf_puts(p->out, " : ");
  HR_TRY(hr_print_type(p, &op->operands[0]->type));
  hr_strbuf_puts(p->out, " -> (");
  HR_TRY(hr_print_type(p, &op->results[0].type));
  hr_strbuf_puts(p->out, ", ");
  HR_TRY(hr_print_type(p, &op->results[1].type));
  hr_strbuf_putc(p->out, ')');
  return NULL;
}

/* The check dialect (StableHLO's CheckOps.td); a tolerance or min_ulp_difference goes to the
 * attr-dict, which every form takes:
 *   check.expect_eq %a, %b : T                 check.expect_almost_eq %a, %b : T
 *   check.expect_eq_const %a, dense<...> : T   check.expect_almost_eq_const %a, dense<...> : T
 *   check.expect_close %a, %b, max_ulp_difference = 3 : T, T
 *   check.expect_serialized_eq %a, probe_id = "p" : T */
/* interpreter.print %x attr-dict : T */
static hr_status print_interp_print(hr_printer *p, const hr_op *op, bool *done) {
  if (!has_shape(op, 1, 0)) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 1));
  *done = true;
  HR_TRY(hr_print_op_attr_dict(p, op, NULL));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_type(p, &op->operands[0]->type);
}

/* interpreter.probe %x, probe_id = "p" attr-dict : T */
static hr_status print_probe(hr_printer *p, const hr_op *op, bool *done) {
  if (!has_shape(op, 1, 1) || !same_type(op->operands[0], &op->results[0].type)) return NULL;
  const hr_attr *probe = hr_op_attr(op, "probe_id");
  if (!probe || probe->kind != HR_ATTR_STRING || !probe->u.str.data) return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, 1));
  *done = true;
  hr_strbuf_puts(p->out, ", probe_id = ");
  hr_print_escaped_string(p, probe->u.str.data, probe->u.str.len);
  static const char *const skip[] = {"probe_id", NULL};
  return finish_same_type(p, op, skip);
}

static hr_status print_check(hr_printer *p, const hr_op *op, bool *done) {
  bool is_const = op->code == HR_OP_CHECK_EXPECT_EQ_CONST || op->code == HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST;
  bool one_operand = is_const || op->code == HR_OP_CHECK_EXPECT_SERIALIZED_EQ;
  if (!has_shape(op, one_operand ? 1 : 2, 0)) return NULL;
  const hr_type *t = &op->operands[0]->type;
  if (!one_operand && !same_type(op->operands[1], t)) return NULL;
  const hr_attr *value = hr_op_attr(op, "value");
  if (is_const && (!value || value->kind != HR_ATTR_DENSE || !hr_type_equal(&value->u.dense.type, t))) return NULL;
  const hr_attr *max_ulp = typed_int_attr(op, "max_ulp_difference", HR_U64);
  if (op->code == HR_OP_CHECK_EXPECT_CLOSE && !max_ulp) return NULL;
  const hr_attr *probe = hr_op_attr(op, "probe_id");
  if (op->code == HR_OP_CHECK_EXPECT_SERIALIZED_EQ && (!probe || probe->kind != HR_ATTR_STRING || !probe->u.str.data))
    return NULL;
  put_name(p, op);
  HR_TRY(put_operands(p, op, 0, op->n_operands));
  *done = true;
  if (is_const) {
    hr_strbuf_puts(p->out, ", ");
    HR_TRY(hr_print_attr(p, value));
  } else if (op->code == HR_OP_CHECK_EXPECT_CLOSE) {
    hr_strbuf_printf(p->out, ", max_ulp_difference = %llu", (unsigned long long)max_ulp->u.i.value);
  } else if (op->code == HR_OP_CHECK_EXPECT_SERIALIZED_EQ) {
    hr_strbuf_puts(p->out, ", probe_id = ");
    hr_print_escaped_string(p, probe->u.str.data, probe->u.str.len);
  }
  static const char *const skip_const[] = {"value", NULL}, *const skip_close[] = {"max_ulp_difference", NULL},
                           *const skip_probe[] = {"probe_id", NULL};
  const char *const *skip = is_const ? skip_const
                            : op->code == HR_OP_CHECK_EXPECT_CLOSE ? skip_close
                            : op->code == HR_OP_CHECK_EXPECT_SERIALIZED_EQ ? skip_probe
                                                                            : NULL;
  HR_TRY(hr_print_op_attr_dict(p, op, skip));
  if (is_const) return NULL;
  hr_strbuf_puts(p->out, " : ");
  HR_TRY(hr_print_type(p, t));
  if (op->code != HR_OP_CHECK_EXPECT_CLOSE) return NULL;
  hr_strbuf_puts(p->out, ", ");
  return hr_print_type(p, t);
}

hr_status hr_print_pretty_op(hr_printer *p, const hr_op *op, bool *done) {
  *done = false;
  if (op->n_operands > 0 && !op->operands[0]) return NULL; /* reported by the generic form */
  switch (op->code) {
    case HR_OP_IS_FINITE: return print_operands_functional(p, op, 1, done);
    case HR_OP_COMPLEX: return print_complex(p, op, done);
    case HR_OP_SELECT: return print_select(p, op, done);
    case HR_OP_CLAMP: return print_nary_same_type(p, op, done);
    case HR_OP_CONSTANT:
    case HR_OP_CHLO_CONSTANT: return print_constant(p, op, done);
    case HR_OP_IOTA:
    case HR_OP_CREATE_TOKEN:
    case HR_OP_REPLICA_ID:
    case HR_OP_PARTITION_ID: return print_nullary(p, op, done);
    case HR_OP_RESHAPE:
    case HR_OP_BITCAST_CONVERT: return print_operands_functional(p, op, 1, done);
    case HR_OP_DYNAMIC_RESHAPE: return print_operands_functional(p, op, 2, done);
    case HR_OP_DYNAMIC_UPDATE_SLICE: return print_operands_functional(p, op, -1, done);
    case HR_OP_REAL_DYNAMIC_SLICE: return print_operands_functional(p, op, 4, done);
    case HR_OP_DYNAMIC_PAD: return print_operands_functional(p, op, 5, done);
    case HR_OP_BROADCAST_IN_DIM:
    case HR_OP_DYNAMIC_BROADCAST_IN_DIM:
    case HR_OP_TRANSPOSE:
    case HR_OP_REVERSE:
    case HR_OP_BROADCAST:
    case HR_OP_DYNAMIC_SLICE:
    case HR_OP_PAD: return print_with_i64_lists(p, op, done);
    case HR_OP_CONCATENATE:
    case HR_OP_GET_DIMENSION_SIZE:
    case HR_OP_SET_DIMENSION_SIZE:
    case HR_OP_DYNAMIC_IOTA: return print_with_dim(p, op, done);
    case HR_OP_COMPARE: return print_compare(p, op, done);
    case HR_OP_SLICE: return print_slice(p, op, done);
    case HR_OP_CUSTOM_CALL: return print_custom_call(p, op, done);
    case HR_OP_FUNC_CALL: return print_call(p, op, done);
    case HR_OP_FUNC_RETURN:
    case HR_OP_SDY_RETURN:
    case HR_OP_RETURN: return print_return(p, op, done);
    case HR_OP_SDY_SHARDING_CONSTRAINT: return print_sharding_constraint(p, op, done);
    case HR_OP_DOT: return print_dot(p, op, done);
    case HR_OP_DOT_GENERAL: return print_dot_general(p, op, done);
    case HR_OP_CONVOLUTION: return print_convolution(p, op, done);
    case HR_OP_EINSUM:
    case HR_OP_UNARY_EINSUM: return print_einsum(p, op, done);
    case HR_OP_FFT:
    case HR_OP_RNG:
    case HR_OP_RNG_BIT_GENERATOR: return print_with_enum(p, op, done);
    case HR_OP_GET_TUPLE_ELEMENT: return print_get_tuple_element(p, op, done);
    case HR_OP_TUPLE: return print_tuple(p, op, done);
    case HR_OP_AFTER_ALL: return print_after_all(p, op, done);
    case HR_OP_OPTIMIZATION_BARRIER: return print_optimization_barrier(p, op, done);
    case HR_OP_CHOLESKY: return print_cholesky(p, op, done);
    case HR_OP_REDUCE_PRECISION: return print_reduce_precision(p, op, done);
    case HR_OP_CHLO_TOP_K: return print_top_k(p, op, done);
    case HR_OP_COMPOSITE: return print_composite(p, op, done);
    case HR_OP_CHECK_EXPECT_ALMOST_EQ:
    case HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST:
    case HR_OP_CHECK_EXPECT_CLOSE:
    case HR_OP_CHECK_EXPECT_EQ:
    case HR_OP_CHECK_EXPECT_EQ_CONST:
    case HR_OP_CHECK_EXPECT_SERIALIZED_EQ: return print_check(p, op, done);
    case HR_OP_INTERPRETER_PROBE: return print_probe(p, op, done);
    case HR_OP_INTERPRETER_PRINT: return print_interp_print(p, op, done);
    default: break;
  }
  if (hr_chlo_broadcast_base(op->code) != HR_OP_COUNT) return print_operands_functional(p, op, -1, done);
  unsigned flags = hr_opcode_flags(op->code);
  bool chlo = strncmp(hr_opcode_name(op->code), "chlo.", 5) == 0;
  if (chlo && (flags & HR_OPF_ELEMENTWISE)) return print_chlo(p, op, done);
  if (!chlo && (flags & HR_OPF_UNARY)) return print_unary(p, op, done);
  if (!chlo && (flags & HR_OPF_BINARY)) return print_nary_same_type(p, op, done);
  return NULL;
}

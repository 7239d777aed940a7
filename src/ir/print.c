/*
 * The StableHLO text printer: modules, functions, regions and ops in the layout `stablehlo-opt`
 * produces (two-space indentation, `func.func public @main(...) -> (...) {`), each op in its pretty
 * syntax when its attributes fit it exactly (print_ops.c, print_regions.c) and in MLIR's generic
 * form otherwise: `"stablehlo.sort"(%0) <{dimension = 0 : i64}> ({ ^bb0(...): ... }) : (...) ->
 * ...`. Locations are not printed.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "ir/print_internal.h"

hr_status hr_print_error(const hr_printer *p, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (p->op && p->op->loc.line > 0) return hr_op_error(p->op, HR_INVALID_ARGUMENT, "%s", msg);
  if (p->op && p->func)
    return hr_error(HR_INVALID_ARGUMENT, "@%s: %s: %s", p->func->name, hr_opcode_name(p->op->code),
                    msg);
  if (p->func) return hr_error(HR_INVALID_ARGUMENT, "@%s: %s", p->func->name, msg);
  return hr_error(HR_INVALID_ARGUMENT, "%s", msg);
}

/* ---- values and types ---- */

/* The name slot of `v`, or an error when `v` is not a value of the function being printed. */
static hr_status value_slot(hr_printer *p, const hr_value *v, const hr_value_name **out) {
  if (!v) return hr_print_error(p, "missing operand");
  if (v->id >= p->func->n_values || p->names[v->id].value != v)
    return hr_print_error(p, "an operand is not a value of this function");
  *out = &p->names[v->id];
  return NULL;
}

/* Appends `%name` or `%number` (no result index). */
static void put_value_name(hr_printer *p, const hr_value_name *n) {
  if (n->name)
    hr_strbuf_printf(p->out, "%%%s", n->name);
  else
    hr_strbuf_printf(p->out, "%%%u", n->number);
}

hr_status hr_print_value_use(hr_printer *p, const hr_value *v) {
  const hr_value_name *n = NULL;
  HR_TRY(value_slot(p, v, &n));
  put_value_name(p, n);
  if (v->def && v->def->n_results > 1) hr_strbuf_printf(p->out, "#%u", v->index);
  return NULL;
}

hr_status hr_print_block_arg(hr_printer *p, const hr_value *v) {
  HR_TRY(hr_print_value_use(p, v));
  hr_strbuf_puts(p->out, ": ");
  return hr_print_type(p, &v->type);
}

hr_status hr_print_value_list(hr_printer *p, hr_value *const *vals, int n) {
  for (int i = 0; i < n; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    HR_TRY(hr_print_value_use(p, vals[i]));
  }
  return NULL;
}

hr_status hr_print_value_types(hr_printer *p, hr_value *const *vals, int n) {
  for (int i = 0; i < n; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    if (!vals[i]) return hr_print_error(p, "missing operand");
    HR_TRY(hr_print_type(p, &vals[i]->type));
  }
  return NULL;
}

hr_status hr_print_functional_type(hr_printer *p, const hr_op *op) {
  hr_strbuf_putc(p->out, '(');
  HR_TRY(hr_print_value_types(p, op->operands, op->n_operands));
  hr_strbuf_puts(p->out, ") -> ");
  if (op->n_results != 1) hr_strbuf_putc(p->out, '(');
  for (int i = 0; i < op->n_results; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    HR_TRY(hr_print_type(p, &op->results[i].type));
  }
  if (op->n_results != 1) hr_strbuf_putc(p->out, ')');
  return NULL;
}

/* ---- op attributes ---- */

/* Orders named attributes by name, as MLIR's attribute dictionaries are. */
static int compare_named(const void *a, const void *b) {
  return strcmp(((const hr_named_attr *)a)->name, ((const hr_named_attr *)b)->name);
}

/* Whether `name` is in the NULL-terminated list. */
static bool in_list(const char *const *list, const char *name) {
  for (; list && *list; list++)
    if (strcmp(*list, name) == 0) return true;
  return false;
}

hr_status hr_print_sorted_attrs(hr_printer *p, const hr_op *op, const char *const *skip,
                                hr_named_attr **out, int *n) {
  *n = 0;
  *out = NULL;
  if (op->n_attrs < 0 || (op->n_attrs > 0 && !op->attrs))
    return hr_print_error(p, "malformed attribute list");
  if (op->n_attrs == 0) return NULL;
  hr_named_attr *sorted = HR_ARENA_ARRAY(p->scratch, hr_named_attr, (size_t)op->n_attrs);
  if (!sorted) return hr_error(HR_OUT_OF_MEMORY, "out of memory printing attributes");
  for (int i = 0; i < op->n_attrs; i++) {
    if (!op->attrs[i].name || !op->attrs[i].value)
      return hr_print_error(p, "attribute without a name or value");
    if (!in_list(skip, op->attrs[i].name)) sorted[(*n)++] = op->attrs[i];
  }
  qsort(sorted, (size_t)*n, sizeof *sorted, compare_named);
  *out = sorted;
  return NULL;
}

hr_status hr_print_op_attr_dict(hr_printer *p, const hr_op *op, const char *const *skip) {
  hr_named_attr *attrs;
  int n;
  HR_TRY(hr_print_sorted_attrs(p, op, skip, &attrs, &n));
  return hr_print_attr_dict(p, attrs, n);
}

/* The attributes each op declares in its ODS definition ("inherent" attributes). The generic form
 * prints them as properties `<{...}>` and every other attribute in a trailing `{...}`. */
typedef struct inherent_attrs {
  hr_opcode code;
  const char *names[10];
} inherent_attrs;

static const inherent_attrs inherent_table[] = {
    {HR_OP_FUNC_CALL, {"arg_attrs", "callee", "no_inline", "res_attrs"}},
    {HR_OP_ALL_GATHER,
     {"all_gather_dim", "replica_groups", "channel_handle", "use_global_device_ids"}},
    {HR_OP_ALL_REDUCE, {"replica_groups", "channel_handle", "use_global_device_ids"}},
    {HR_OP_ALL_TO_ALL,
     {"split_dimension", "concat_dimension", "split_count", "replica_groups", "channel_handle"}},
    {HR_OP_BATCH_NORM_GRAD, {"epsilon", "feature_index"}},
    {HR_OP_BATCH_NORM_INFERENCE, {"epsilon", "feature_index"}},
    {HR_OP_BATCH_NORM_TRAINING, {"epsilon", "feature_index"}},
    {HR_OP_BROADCAST, {"broadcast_sizes"}},
    {HR_OP_BROADCAST_IN_DIM, {"broadcast_dimensions"}},
    {HR_OP_CBRT, {"result_accuracy"}},
    {HR_OP_CHOLESKY, {"lower"}},
    {HR_OP_COLLECTIVE_BROADCAST, {"replica_groups", "channel_handle"}},
    {HR_OP_COLLECTIVE_PERMUTE, {"source_target_pairs", "channel_handle"}},
    {HR_OP_COMPARE, {"comparison_direction", "compare_type"}},
    {HR_OP_COMPOSITE, {"name", "composite_attributes", "decomposition", "version"}},
    {HR_OP_CONCATENATE, {"dimension"}},
    {HR_OP_CONSTANT, {"value"}},
    {HR_OP_CONVOLUTION,
     {"window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal",
      "dimension_numbers", "feature_group_count", "batch_group_count", "precision_config"}},
    {HR_OP_COSINE, {"result_accuracy"}},
    {HR_OP_CROSS_REPLICA_SUM, {"replica_groups"}},
    {HR_OP_CUSTOM_CALL,
     {"call_target_name", "has_side_effect", "backend_config", "api_version", "called_computations",
      "operand_layouts", "result_layouts", "output_operand_aliases", "result_tilings"}},
    {HR_OP_DOT, {"precision_config"}},
    {HR_OP_DOT_GENERAL, {"dot_dimension_numbers", "precision_config", "algorithm"}},
    {HR_OP_DYNAMIC_BROADCAST_IN_DIM,
     {"broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"}},
    {HR_OP_DYNAMIC_CONV,
     {"window_strides", "lhs_dilation", "rhs_dilation", "window_reversal", "dimension_numbers",
      "feature_group_count", "batch_group_count", "precision_config"}},
    {HR_OP_DYNAMIC_GATHER, {"dimension_numbers", "indices_are_sorted"}},
    {HR_OP_DYNAMIC_IOTA, {"iota_dimension"}},
    {HR_OP_DYNAMIC_SLICE, {"slice_sizes"}},
    {HR_OP_EINSUM, {"einsum_config"}},
    {HR_OP_EXPONENTIAL, {"result_accuracy"}},
    {HR_OP_EXPONENTIAL_MINUS_ONE, {"result_accuracy"}},
    {HR_OP_FFT, {"fft_type", "fft_length"}},
    {HR_OP_GATHER, {"dimension_numbers", "slice_sizes", "indices_are_sorted"}},
    {HR_OP_GET_DIMENSION_SIZE, {"dimension"}},
    {HR_OP_GET_TUPLE_ELEMENT, {"index"}},
    {HR_OP_INFEED, {"infeed_config", "layout"}},
    {HR_OP_IOTA, {"iota_dimension"}},
    {HR_OP_LOG, {"result_accuracy"}},
    {HR_OP_LOG_PLUS_ONE, {"result_accuracy"}},
    {HR_OP_LOGISTIC, {"result_accuracy"}},
    {HR_OP_MAP, {"dimensions"}},
    {HR_OP_OUTFEED, {"outfeed_config"}},
    {HR_OP_PAD, {"edge_padding_low", "edge_padding_high", "interior_padding"}},
    {HR_OP_RECV, {"channel_handle", "is_host_transfer", "source_target_pairs"}},
    {HR_OP_REDUCE, {"dimensions"}},
    {HR_OP_REDUCE_PRECISION, {"exponent_bits", "mantissa_bits"}},
    {HR_OP_REDUCE_SCATTER,
     {"scatter_dimension", "replica_groups", "channel_handle", "use_global_device_ids"}},
    {HR_OP_REDUCE_WINDOW,
     {"window_dimensions", "window_strides", "base_dilations", "window_dilations", "padding"}},
    {HR_OP_REVERSE, {"dimensions"}},
    {HR_OP_RNG, {"rng_distribution"}},
    {HR_OP_RNG_BIT_GENERATOR, {"rng_algorithm"}},
    {HR_OP_RSQRT, {"result_accuracy"}},
    {HR_OP_SCATTER, {"scatter_dimension_numbers", "indices_are_sorted", "unique_indices"}},
    {HR_OP_SELECT_AND_SCATTER, {"window_dimensions", "window_strides", "padding"}},
    {HR_OP_SEND, {"channel_handle", "is_host_transfer", "source_target_pairs"}},
    {HR_OP_SET_DIMENSION_SIZE, {"dimension"}},
    {HR_OP_SINE, {"result_accuracy"}},
    {HR_OP_SLICE, {"start_indices", "limit_indices", "strides"}},
    {HR_OP_SORT, {"dimension", "is_stable"}},
    {HR_OP_SQRT, {"result_accuracy"}},
    {HR_OP_TAN, {"result_accuracy"}},
    {HR_OP_TANH, {"result_accuracy"}},
    {HR_OP_TORCH_INDEX_SELECT, {"dim", "batch_dims"}},
    {HR_OP_TRANSPOSE, {"permutation"}},
    {HR_OP_TRIANGULAR_SOLVE, {"left_side", "lower", "unit_diagonal", "transpose_a"}},
    {HR_OP_UNARY_EINSUM, {"einsum_config"}},
    {HR_OP_CHLO_TOP_K, {"k", "is_stable"}},
};

/* The inherent attribute names of an op (a NULL-terminated list; empty for most ops). */
static const char *const *inherent_names(hr_opcode code) {
  static const char *const none[1] = {NULL};
  for (size_t i = 0; i < sizeof inherent_table / sizeof inherent_table[0]; i++)
    if (inherent_table[i].code == code) return inherent_table[i].names;
  return none;
}

/* ---- regions and ops ---- */

static hr_status print_op(hr_printer *p, const hr_op *op);

void hr_print_op_name(hr_printer *p, const hr_op *op) {
  const char *name = hr_opcode_name(op->code);
  /* Ops of the func dialect drop their prefix inside a function body (its default dialect). */
  if (p->depth == 0 && strncmp(name, "func.", 5) == 0) name += 5;
  hr_strbuf_puts(p->out, name);
}

/* Appends `n` spaces. */
static void put_indent(hr_printer *p, int n) {
  static const char spaces[] = "                                ";
  while (n > 0) {
    int k = n < 32 ? n : 32;
    hr_strbuf_append(p->out, spaces, (size_t)k);
    n -= k;
  }
}

/* Appends the ops of a block, one per line, two spaces deeper than the current indentation. */
static hr_status print_block_ops(hr_printer *p, const hr_block *b) {
  if (b->n_ops < 0 || (b->n_ops > 0 && !b->ops)) return hr_print_error(p, "malformed block");
  p->indent += 2;
  for (int i = 0; i < b->n_ops; i++) {
    if (!b->ops[i]) return hr_print_error(p, "block with a missing op");
    HR_TRY(print_op(p, b->ops[i]));
  }
  p->indent -= 2;
  return NULL;
}

hr_status hr_print_region(hr_printer *p, const hr_block *b, bool print_args) {
  if (p->depth >= HR_LIMIT_NESTING_DEPTH)
    return hr_print_error(p, "regions nested deeper than %d", HR_LIMIT_NESTING_DEPTH);
  hr_strbuf_puts(p->out, "{\n");
  if (print_args && (b->n_args > 0 || b->n_ops == 0)) {
    put_indent(p, p->indent);
    hr_strbuf_puts(p->out, "^bb0");
    if (b->n_args > 0) {
      hr_strbuf_putc(p->out, '(');
      for (int i = 0; i < b->n_args; i++) {
        if (i) hr_strbuf_puts(p->out, ", ");
        HR_TRY(hr_print_block_arg(p, &b->args[i]));
      }
      hr_strbuf_putc(p->out, ')');
    }
    hr_strbuf_puts(p->out, ":\n");
  }
  p->depth++;
  HR_TRY(print_block_ops(p, b));
  p->depth--;
  put_indent(p, p->indent);
  hr_strbuf_putc(p->out, '}');
  return NULL;
}

/* Appends the generic form: `"name"(operands) <{inherent}> (regions) {others} : type`. */
static hr_status print_generic_op(hr_printer *p, const hr_op *op) {
  hr_strbuf_putc(p->out, '"');
  hr_strbuf_puts(p->out, hr_opcode_name(op->code));
  hr_strbuf_puts(p->out, "\"(");
  HR_TRY(hr_print_value_list(p, op->operands, op->n_operands));
  hr_strbuf_putc(p->out, ')');
  const char *const *inherent = inherent_names(op->code);
  hr_named_attr *all;
  int n_all, n_props = 0;
  HR_TRY(hr_print_sorted_attrs(p, op, NULL, &all, &n_all));
  for (int i = 0; i < n_all; i++)
    if (in_list(inherent, all[i].name)) n_props++;
  if (n_props) {
    hr_named_attr *props = HR_ARENA_ARRAY(p->scratch, hr_named_attr, (size_t)n_props);
    if (!props) return hr_error(HR_OUT_OF_MEMORY, "out of memory printing attributes");
    for (int i = 0, k = 0; i < n_all; i++)
      if (in_list(inherent, all[i].name)) props[k++] = all[i];
    hr_strbuf_puts(p->out, " <{");
    HR_TRY(hr_print_named_attrs(p, props, n_props));
    hr_strbuf_puts(p->out, "}>");
  }
  if (op->n_regions > 0) {
    hr_strbuf_puts(p->out, " (");
    for (int r = 0; r < op->n_regions; r++) {
      if (r) hr_strbuf_puts(p->out, ", ");
      HR_TRY(hr_print_region(p, &op->regions[r], true));
    }
    hr_strbuf_putc(p->out, ')');
  }
  HR_TRY(hr_print_op_attr_dict(p, op, inherent));
  hr_strbuf_puts(p->out, " : ");
  return hr_print_functional_type(p, op);
}

/* Checks the counts and arrays of an op before anything of it is printed. */
static hr_status check_op(const hr_printer *p, const hr_op *op) {
  if ((unsigned)op->code >= HR_OP_COUNT)
    return hr_error(HR_INVALID_ARGUMENT, "@%s: op with an invalid opcode %d", p->func->name,
                    (int)op->code);
  if (op->n_operands < 0 || (op->n_operands > 0 && !op->operands) || op->n_results < 0 ||
      (op->n_results > 0 && !op->results) || op->n_regions < 0 ||
      (op->n_regions > 0 && !op->regions))
    return hr_print_error(p, "malformed operands, results or regions");
  return NULL;
}

/* Appends one op line: indentation, `%results = `, the op, newline. */
static hr_status print_op(hr_printer *p, const hr_op *op) {
  const hr_op *outer = p->op;
  p->op = op;
  HR_TRY(check_op(p, op));
  put_indent(p, p->indent);
  if (op->n_results > 0) {
    const hr_value_name *n = NULL;
    HR_TRY(value_slot(p, &op->results[0], &n));
    put_value_name(p, n);
    if (op->n_results > 1) hr_strbuf_printf(p->out, ":%d", op->n_results);
    hr_strbuf_puts(p->out, " = ");
  }
  bool done = false;
  HR_TRY(hr_print_pretty_op(p, op, &done));
  if (!done) HR_TRY(hr_print_pretty_region_op(p, op, &done));
  if (!done) HR_TRY(print_generic_op(p, op));
  hr_strbuf_putc(p->out, '\n');
  p->op = outer;
  return NULL;
}

/* ---- functions and the module ---- */

/* Appends ` {...}` for an optional DICT attribute (nothing when NULL or empty). */
static hr_status print_optional_dict(hr_printer *p, const hr_attr *a) {
  if (!a) return NULL;
  if (a->kind != HR_ATTR_DICT)
    return hr_print_error(p, "argument or result attributes are not a dictionary");
  return hr_print_attr_dict(p, a->u.dict.entries, a->u.dict.n);
}

/* Whether an optional DICT attribute has entries. */
static bool dict_nonempty(const hr_attr *a) {
  return a && a->kind == HR_ATTR_DICT && a->u.dict.n > 0;
}

/* Appends `(%arg0: type {attrs}, ...) -> (type {attrs}, ...)`. */
static hr_status print_signature(hr_printer *p, const hr_func *f) {
  hr_strbuf_putc(p->out, '(');
  for (int i = 0; i < f->n_args; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    if (f->is_declaration) HR_TRY(hr_print_type(p, &f->body.args[i].type)); /* unnamed */
    else HR_TRY(hr_print_block_arg(p, &f->body.args[i]));
    if (f->arg_attrs) HR_TRY(print_optional_dict(p, f->arg_attrs[i]));
  }
  hr_strbuf_putc(p->out, ')');
  if (f->n_results == 0) return NULL;
  hr_strbuf_puts(p->out, " -> ");
  bool parens = f->n_results > 1 || (f->result_attrs && dict_nonempty(f->result_attrs[0]));
  if (parens) hr_strbuf_putc(p->out, '(');
  for (int i = 0; i < f->n_results; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    HR_TRY(hr_print_type(p, &f->result_types[i]));
    if (f->result_attrs) HR_TRY(print_optional_dict(p, f->result_attrs[i]));
  }
  if (parens) hr_strbuf_putc(p->out, ')');
  return NULL;
}

/* Checks the shape of a function before naming and printing it. */
static hr_status check_func(const hr_func *f) {
  if (!f || !f->name) return hr_error(HR_INVALID_ARGUMENT, "function without a name");
  if (f->n_args < 0 || f->n_args != f->body.n_args || (f->n_args > 0 && !f->body.args) ||
      f->n_results < 0 || (f->n_results > 0 && !f->result_types))
    return hr_error(HR_INVALID_ARGUMENT, "@%s: malformed signature", f->name);
  if (f->attrs && f->attrs->kind != HR_ATTR_DICT)
    return hr_error(HR_INVALID_ARGUMENT, "@%s: function attributes are not a dictionary", f->name);
  return NULL;
}

/* Appends `  func.func <visibility> @name(...) -> ... {` ... `  }` (a declaration without the
 * body). */
static hr_status print_func(hr_printer *p, const hr_func *f) {
  HR_TRY(check_func(f));
  hr_value_name *names;
  HR_TRY(hr_print_name_values(f, p->scratch, &names));
  p->func = f;
  p->names = names;
  p->op = NULL;
  p->depth = 0;
  put_indent(p, p->indent);
  hr_strbuf_puts(p->out, f->is_private ? "func.func private " : "func.func public ");
  hr_print_symbol(p, f->name, strlen(f->name));
  HR_TRY(print_signature(p, f));
  if (f->attrs && f->attrs->u.dict.n > 0) {
    hr_strbuf_puts(p->out, " attributes");
    HR_TRY(hr_print_attr_dict(p, f->attrs->u.dict.entries, f->attrs->u.dict.n));
  }
  if (f->is_declaration) {
    hr_strbuf_putc(p->out, '\n');
    return NULL;
  }
  hr_strbuf_puts(p->out, " {\n");
  HR_TRY(print_block_ops(p, &f->body));
  put_indent(p, p->indent);
  hr_strbuf_puts(p->out, "}\n");
  return NULL;
}

/* Appends `  sdy.mesh @name = <[...]>`. */
static hr_status print_mesh(hr_printer *p, const hr_mesh *mesh) {
  const char *body;
  size_t len;
  if (!mesh->name || !hr_opaque_body(mesh->mesh, "sdy.mesh", "", &body, &len))
    return hr_error(HR_INVALID_ARGUMENT, "malformed Shardy mesh");
  hr_strbuf_puts(p->out, "  sdy.mesh ");
  hr_print_symbol(p, mesh->name, strlen(mesh->name));
  hr_strbuf_puts(p->out, " = ");
  hr_strbuf_append(p->out, body, len);
  hr_strbuf_putc(p->out, '\n');
  return NULL;
}

/* Appends the whole module. */
static hr_status print_module(hr_printer *p, const hr_module *m) {
  if (m->n_funcs < 0 || (m->n_funcs > 0 && !m->funcs))
    return hr_error(HR_INVALID_ARGUMENT, "malformed module");
  hr_strbuf_puts(p->out, "module");
  if (m->name) {
    hr_strbuf_putc(p->out, ' ');
    hr_print_symbol(p, m->name, strlen(m->name));
  }
  if (m->attrs) {
    if (m->attrs->kind != HR_ATTR_DICT)
      return hr_error(HR_INVALID_ARGUMENT, "module attributes are not a dictionary");
    if (m->attrs->u.dict.n > 0) {
      hr_strbuf_puts(p->out, " attributes");
      HR_TRY(hr_print_attr_dict(p, m->attrs->u.dict.entries, m->attrs->u.dict.n));
    }
  }
  hr_strbuf_puts(p->out, " {\n");
  p->indent = 2;
  for (int i = 0; i < m->n_meshes; i++) HR_TRY(print_mesh(p, &m->meshes[i]));
  for (int i = 0; i < m->n_funcs; i++) HR_TRY(print_func(p, m->funcs[i]));
  hr_strbuf_puts(p->out, "}\n");
  return NULL;
}

hr_status hr_module_print_to(const hr_module *m, hr_strbuf *out) {
  if (!m || !out) return hr_error(HR_INVALID_ARGUMENT, "hr_module_print_to: NULL argument");
  size_t start = out->len;
  hr_arena scratch;
  hr_arena_init(&scratch, out->allocator);
  hr_printer p;
  memset(&p, 0, sizeof p);
  p.out = out;
  p.scratch = &scratch;
  hr_status s = print_module(&p, m);
  hr_arena_release(&scratch);
  if (!s) s = hr_strbuf_status(out);
  if (s && out->data && !out->failed) {
    out->len = start; /* leave no partial text behind */
    out->data[start] = '\0';
  }
  return s;
}

hr_status hr_module_print(const hr_module *m, FILE *out) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = hr_module_print_to(m, &sb);
  if (!s && sb.len && fwrite(sb.data, 1, sb.len, out) != sb.len)
    s = hr_error(HR_IO_ERROR, "writing the module text failed");
  hr_strbuf_free(&sb);
  return s;
}

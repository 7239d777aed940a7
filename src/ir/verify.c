/*
 * The module verifier.
 *
 * For every function it walks the body and nested regions once, in order, checking:
 *   - structure: operand/result/region counts (hri_op_arity), parent links, well-formed types;
 *   - SSA: every operand is defined before its use in an enclosing scope of the same function
 *     (values of a nested region go out of scope when the region ends), and ids are unique;
 *   - terminators: a function body ends in func.return whose operands match the function's result
 *     types, a region ends in stablehlo.return, and terminators appear nowhere else;
 *   - func.call: the callee exists and its argument and result types match;
 *   - interpreter.run_parallel: its programs exist and take its operands and make its results,
 *     process after process;
 *   - per-op rules and declared result types, via hr_infer_result_types: the declared types must
 *     be compatible with the inferred ones (infer.h).
 * Finally it rejects recursion: StableHLO programs must not call themselves, directly or not.
 * Everything is linear in the module size (function lookups are O(log F)).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "ir/infer_internal.h"

/* Scope state of a value id while walking a function. */
enum { VAL_UNDEFINED = 0, VAL_VISIBLE = 1, VAL_OUT_OF_SCOPE = 2 };

/* A func.call edge of the call graph. */
typedef struct call_edge {
  int caller, callee; /* function indices */
  const hr_op *op;
} call_edge;

/* A function and its index in the module, as sorted by name for lookups. */
typedef struct func_entry {
  const char *name;
  int index;
} func_entry;

/* State of one hr_module_verify run. Scratch memory comes from `a` and is freed at the end. */
typedef struct verifier {
  const hr_module *m;
  const hr_allocator *a;
  func_entry *sorted; /* functions sorted by name, for lookups */
  int cur;            /* index of the function being verified */
  const hr_func *func;
  unsigned char *state; /* per value id of `func`: VAL_* */
  size_t state_cap;
  hr_type *types; /* operand and inferred result types of the op being verified */
  size_t types_cap;
  call_edge *edges;
  size_t n_edges, edges_cap;
} verifier;

/* ---------------------------------------------------------------------------------------------- */
/* Scratch memory and messages                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Returns in *out a buffer of at least `n` elements of `size` bytes: `old` (of *cap elements)
 * when large enough, else a new one (old is freed; contents are not kept). */
static hr_status reserve(verifier *v, void *old, size_t *cap, size_t n, size_t size, void **out) {
  *out = old;
  if (n <= *cap) return NULL;
  size_t want = *cap ? *cap : 16;
  while (want < n) want = want > SIZE_MAX / 2 ? n : want * 2;
  if (want > SIZE_MAX / size) return hr_error(HR_OUT_OF_MEMORY, "verifier: too many values");
  void *p = v->a->alloc(v->a->ctx, want * size, 16);
  if (!p) return hr_error(HR_OUT_OF_MEMORY, "verifier: out of memory");
  if (old) v->a->free(v->a->ctx, old);
  *out = p;
  *cap = want;
  return NULL;
}

/* Appends a call edge, keeping the existing ones. */
static hr_status add_edge(verifier *v, int callee, const hr_op *op) {
  if (v->n_edges == v->edges_cap) {
    size_t want = v->edges_cap ? v->edges_cap * 2 : 16;
    if (want > SIZE_MAX / sizeof(call_edge)) return hr_error(HR_OUT_OF_MEMORY, "verifier: too many calls");
    call_edge *p = v->a->alloc(v->a->ctx, want * sizeof(call_edge), _Alignof(call_edge));
    if (!p) return hr_error(HR_OUT_OF_MEMORY, "verifier: out of memory");
    if (v->edges) {
      memcpy(p, v->edges, v->n_edges * sizeof(call_edge));
      v->a->free(v->a->ctx, v->edges);
    }
    v->edges = p;
    v->edges_cap = want;
  }
  v->edges[v->n_edges++] = (call_edge){v->cur, callee, op};
  return NULL;
}

/* An HR_VERIFY_ERROR naming the function: "file:line:col: func.func @name: <message>". */
static hr_status func_error(const hr_module *m, const hr_func *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static hr_status func_error(const hr_module *m, const hr_func *f, const char *fmt, ...) {
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *file = f->loc.file ? f->loc.file : m->filename ? m->filename : "<input>";
  return hr_error(HR_VERIFY_ERROR, "%s:%u:%u: func.func @%s: %s", file, f->loc.line, f->loc.col,
                  f->name ? f->name : "?", msg);
}

/* An HR_VERIFY_ERROR at `op`. */
static hr_status op_err(const hr_op *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static hr_status op_err(const hr_op *op, const char *fmt, ...) {
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_op_error(op, HR_VERIFY_ERROR, "%s", msg);
}

/* ---------------------------------------------------------------------------------------------- */
/* Function lookup                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* qsort/bsearch order of functions by name. */
static int cmp_func_name(const void *a, const void *b) {
  return strcmp(((const func_entry *)a)->name, ((const func_entry *)b)->name);
}

/* Checks each function's presence and name, sorts them by name, and rejects duplicates. */
static hr_status index_functions(verifier *v) {
  const hr_module *m = v->m;
  const char *file = m->filename ? m->filename : "<input>";
  size_t n = (size_t)m->n_funcs;
  if (n == 0) return NULL;
  if (!m->funcs) return hr_error(HR_VERIFY_ERROR, "%s: malformed module", file);
  if (n > SIZE_MAX / sizeof *v->sorted) return hr_error(HR_OUT_OF_MEMORY, "verifier: too many functions");
  v->sorted = v->a->alloc(v->a->ctx, n * sizeof *v->sorted, _Alignof(func_entry));
  if (!v->sorted) return hr_error(HR_OUT_OF_MEMORY, "verifier: out of memory");
  for (size_t i = 0; i < n; i++) {
    if (!m->funcs[i] || !m->funcs[i]->name)
      return hr_error(HR_VERIFY_ERROR, "%s: malformed module (unnamed function)", file);
    v->sorted[i] = (func_entry){m->funcs[i]->name, (int)i};
  }
  qsort(v->sorted, n, sizeof *v->sorted, cmp_func_name);
  for (size_t i = 1; i < n; i++)
    if (strcmp(v->sorted[i - 1].name, v->sorted[i].name) == 0) {
      int later = v->sorted[i].index > v->sorted[i - 1].index ? v->sorted[i].index : v->sorted[i - 1].index;
      return func_error(m, m->funcs[later], "redefinition of function @%s", m->funcs[later]->name);
    }
  return NULL;
}

/* The index of the function named `name`, or -1. */
static int find_func(const verifier *v, const char *name) {
  if (!v->sorted) return -1;
  func_entry key = {name, -1};
  const func_entry *hit = bsearch(&key, v->sorted, (size_t)v->m->n_funcs, sizeof *v->sorted, cmp_func_name);
  return hit ? hit->index : -1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Values                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* A printable name for a value ("%name", or "value #id" when unnamed). */
static void value_name(const hr_value *val, char *buf, size_t cap) {
  if (val->name)
    snprintf(buf, cap, "%%%s", val->name);
  else
    snprintf(buf, cap, "value #%u", val->id);
}

/* Brings a newly defined value into scope, checking its id and type. `op` names errors. */
static hr_status define_value(verifier *v, const hr_op *op, const hr_value *val) {
  char nm[96];
  value_name(val, nm, sizeof nm);
  if (val->id >= v->func->n_values)
    return op ? op_err(op, "%s has id %u outside the function's %u values", nm, val->id, v->func->n_values)
              : func_error(v->m, v->func, "%s has id %u outside the function's %u values", nm, val->id,
                           v->func->n_values);
  if (v->state[val->id] != VAL_UNDEFINED)
    return op ? op_err(op, "%s is defined twice", nm) : func_error(v->m, v->func, "%s is defined twice", nm);
  const char *problem = hri_type_problem(&val->type);
  if (problem)
    return op ? op_err(op, "%s has an invalid type: %s", nm, problem)
              : func_error(v->m, v->func, "%s has an invalid type: %s", nm, problem);
  v->state[val->id] = VAL_VISIBLE;
  return NULL;
}

/* Takes a value out of scope at the end of its region. */
static void retire_value(verifier *v, const hr_value *val) { v->state[val->id] = VAL_OUT_OF_SCOPE; }

/* The function a value belongs to, or NULL when its links are missing. */
static const hr_func *value_func(const hr_value *val) {
  if (val->def) return val->def->parent ? val->def->parent->func : NULL;
  return val->owner ? val->owner->func : NULL;
}

/* Checks that every operand of `op` is a value of this function visible at this point. */
static hr_status check_operands(verifier *v, const hr_op *op) {
  for (int i = 0; i < op->n_operands; i++) {
    const hr_value *val = op->operands[i];
    if (!val) return op_err(op, "operand #%d is missing", i);
    char nm[96];
    value_name(val, nm, sizeof nm);
    if (value_func(val) != v->func || val->id >= v->func->n_values)
      return op_err(op, "operand #%d (%s) is not a value of this function", i, nm);
    if (v->state[val->id] == VAL_UNDEFINED)
      return op_err(op, "operand #%d (%s) is used before its definition", i, nm);
    if (v->state[val->id] == VAL_OUT_OF_SCOPE)
      return op_err(op, "operand #%d (%s) is used outside the region that defines it", i, nm);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Ops                                                                                             */
/* ---------------------------------------------------------------------------------------------- */

static hr_status verify_block(verifier *v, const hr_block *b, const hr_op *parent, int depth);

/* Checks func.call: the callee exists, argument and result types match; records the edge. */
static hr_status verify_call(verifier *v, const hr_op *op) {
  const hr_attr *a = hr_op_attr(op, "callee");
  if (!a || (a->kind != HR_ATTR_SYMBOL && a->kind != HR_ATTR_STRING) || !a->u.str.data)
    return op_err(op, "missing or malformed attribute 'callee'");
  int callee = find_func(v, a->u.str.data);
  if (callee < 0) return op_err(op, "call to undefined function @%s", a->u.str.data);
  const hr_func *f = v->m->funcs[callee];
  if (op->n_operands != f->n_args)
    return op_err(op, "@%s takes %d arguments, got %d", f->name, f->n_args, op->n_operands);
  if (op->n_results != f->n_results)
    return op_err(op, "@%s returns %d results, got %d", f->name, f->n_results, op->n_results);
  hri_tbuf b1, b2;
  for (int i = 0; i < op->n_operands; i++) {
    const hr_type *want = &f->body.args[i].type, *got = &op->operands[i]->type;
    if (!hr_type_compatible(want, got))
      return op_err(op, "argument #%d has type %s, but @%s expects %s", i, hri_type_str(got, &b1), f->name,
                    hri_type_str(want, &b2));
  }
  for (int i = 0; i < op->n_results; i++) {
    const hr_type *want = &f->result_types[i], *got = &op->results[i].type;
    if (!hr_type_compatible(want, got))
      return op_err(op, "result #%d has type %s, but @%s returns %s", i, hri_type_str(got, &b1), f->name,
                    hri_type_str(want, &b2));
  }
  return add_edge(v, callee, op);
}

/* Checks that `got` (the op's operand or result `index`) may hold `fn`'s parameter or result `k`. */
static hr_status check_slot(const hr_op *op, const char *what, int index, const hr_type *got, const hr_func *fn,
                            int k, const hr_type *want) {
  if (hr_type_compatible(want, got)) return NULL;
  hri_tbuf b1, b2;
  return op_err(op, "%s #%d has type %s, but @%s's #%d is %s", what, index, hri_type_str(got, &b1), fn->name, k,
                hri_type_str(want, &b2));
}

/* Checks interpreter.run_parallel: every program exists, the operands are the programs' arguments
 * and the results their results, process after process; records the call edges. */
static hr_status verify_run_parallel(verifier *v, const hr_op *op) {
  int64_t replicas = 0, partitions = 1;
  HR_TRY(hr_run_parallel_grid(op, &replicas, &partitions));
  if (replicas > HR_LIMIT_PROCESSES / partitions)
    return op_err(op, "`programs` spans more than %d processes", HR_LIMIT_PROCESSES);
  int arg = 0, result = 0;
  for (int64_t p = 0; p < replicas * partitions; p++) {
    const hr_func *fn;
    HR_TRY(hr_run_parallel_program(v->m, op, p, &fn));
    if (fn->n_args > op->n_operands - arg || fn->n_results > op->n_results - result)
      return op_err(op, "the programs take more operands or return more results than the op has");
    for (int k = 0; k < fn->n_args; k++, arg++)
      HR_TRY(check_slot(op, "operand", arg, &op->operands[arg]->type, fn, k, &fn->body.args[k].type));
    for (int k = 0; k < fn->n_results; k++, result++)
      HR_TRY(check_slot(op, "result", result, &op->results[result].type, fn, k, &fn->result_types[k]));
    HR_TRY(add_edge(v, find_func(v, fn->name), op));
  }
  if (arg != op->n_operands || result != op->n_results)
    return op_err(op, "has %d operands and %d results, but its programs take %d and return %d", op->n_operands,
                  op->n_results, arg, result);
  int64_t n_infeed = 0;
  const hr_func *fn = NULL;
  HR_TRY(hr_run_parallel_infeed(v->m, op, 0, &n_infeed, &fn));
  for (int64_t i = 0; i < n_infeed; i++) {
    HR_TRY(hr_run_parallel_infeed(v->m, op, i, &n_infeed, &fn));
    HR_TRY(add_edge(v, find_func(v, fn->name), op));
  }
  return NULL;
}

/* Checks attributes that shape inference does not read. */
static hr_status verify_attrs(const hr_op *op) {
  for (int i = 0; i < op->n_attrs; i++)
    if (!op->attrs[i].name || !op->attrs[i].value) return op_err(op, "malformed attribute #%d", i);
  if (op->code == HR_OP_CUSTOM_CALL) {
    const hr_attr *a = hr_op_attr(op, "call_target_name");
    if (!a || a->kind != HR_ATTR_STRING)
      return op_err(op, "missing or malformed attribute 'call_target_name'");
    const hr_attr *fx = hr_op_attr(op, "has_side_effect");
    if (fx && fx->kind != HR_ATTR_BOOL) return op_err(op, "attribute 'has_side_effect' must be a boolean");
  }
  return NULL;
}

/* Infers the result types from the operands' declared types and compares with the declared ones. */
static hr_status check_result_types(verifier *v, const hr_op *op) {
  size_t n = (size_t)op->n_operands + (size_t)op->n_results;
  if (n == 0) n = 1; /* keep v->types non-NULL so the pointer arithmetic below is defined */
  void *buf;
  hr_status s = reserve(v, v->types, &v->types_cap, n, sizeof(hr_type), &buf);
  v->types = buf;
  HR_TRY(s);
  hr_type *in = v->types, *out = v->types + op->n_operands;
  for (int i = 0; i < op->n_operands; i++) in[i] = op->operands[i]->type;
  HR_TRY(hr_infer_result_types(op, in, NULL, out));
  for (int i = 0; i < op->n_results; i++) {
    const hr_type *declared = &op->results[i].type;
    if (hr_type_compatible(declared, &out[i])) continue;
    hri_tbuf b1, b2;
    char which[32] = "";
    if (op->n_results > 1) snprintf(which, sizeof which, " #%d", i);
    return op_err(op, "result%s type %s does not match inferred %s", which, hri_type_str(declared, &b1),
                  hri_type_str(&out[i], &b2));
  }
  return NULL;
}

/* Checks an op's links and counts before anything reads its operands or regions. */
static hr_status check_structure(const hr_op *op, const hr_block *b) {
  if ((unsigned)op->code >= HR_OP_COUNT) return op_err(op, "unknown op");
  hri_arity a = hri_op_arity(op->code);
  if (op->n_operands < 0 || op->n_results < 0 || op->n_regions < 0 || op->n_attrs < 0 ||
      (op->n_operands > 0 && !op->operands) || (op->n_results > 0 && !op->results) ||
      (op->n_regions > 0 && !op->regions) || (op->n_attrs > 0 && !op->attrs))
    return op_err(op, "malformed op");
  if (op->parent != b) return op_err(op, "op is not linked to its block");
  if (op->n_regions < a.min_regions || (a.max_regions >= 0 && op->n_regions > a.max_regions))
    return op_err(op, "unexpected number of regions (%d)", op->n_regions);
  for (int i = 0; i < op->n_results; i++)
    if (op->results[i].def != op || op->results[i].index != (uint32_t)i)
      return op_err(op, "result #%d is not linked to its op", i);
  return NULL;
}

/* Verifies one op of block `b`: structure, operands, regions, op rules, then defines its results. */
static hr_status verify_op(verifier *v, const hr_op *op, const hr_block *b, int depth) {
  HR_TRY(check_structure(op, b));
  HR_TRY(check_operands(v, op));
  for (int r = 0; r < op->n_regions; r++) HR_TRY(verify_block(v, &op->regions[r], op, depth + 1));
  HR_TRY(verify_attrs(op));
  if (op->code == HR_OP_FUNC_CALL) HR_TRY(verify_call(v, op));
  if (op->code == HR_OP_INTERPRETER_RUN_PARALLEL) HR_TRY(verify_run_parallel(v, op));
  HR_TRY(check_result_types(v, op));
  for (int i = 0; i < op->n_results; i++) HR_TRY(define_value(v, op, &op->results[i]));
  return NULL;
}

/* Checks a func.return against the function's result types. */
static hr_status check_func_return(const verifier *v, const hr_op *ret) {
  const hr_func *f = v->func;
  if (ret->n_operands != f->n_results)
    return op_err(ret, "returns %d values, but @%s has %d results", ret->n_operands, f->name, f->n_results);
  for (int i = 0; i < f->n_results; i++) {
    const hr_type *got = &ret->operands[i]->type;
    if (hr_type_compatible(got, &f->result_types[i])) continue;
    hri_tbuf b1, b2;
    return op_err(ret, "value #%d has type %s, but @%s returns %s", i, hri_type_str(got, &b1), f->name,
                  hri_type_str(&f->result_types[i], &b2));
  }
  return NULL;
}

/* Checks terminator placement: only the last op, and the right kind for the block. */
static hr_status check_terminator(const verifier *v, const hr_op *op, bool last, const hr_op *parent) {
  bool is_term = hr_opcode_flags(op->code) & HR_OPF_TERMINATOR;
  if (!last) return is_term ? op_err(op, "a terminator must be the last op of its block") : NULL;
  hr_opcode want = !parent ? HR_OP_FUNC_RETURN : parent->code == HR_OP_SDY_MANUAL_COMPUTATION ? HR_OP_SDY_RETURN : HR_OP_RETURN;
  if (op->code != want)
    return op_err(op, "%s must end with %s", parent ? "a region" : "a function body", hr_opcode_name(want));
  return parent ? NULL : check_func_return(v, op);
}

/* Verifies a block (a function body when `parent` is NULL, else region of `parent`). */
static hr_status verify_block(verifier *v, const hr_block *b, const hr_op *parent, int depth) {
  if (depth > HR_LIMIT_NESTING_DEPTH) return op_err(parent, "regions nest deeper than %d", HR_LIMIT_NESTING_DEPTH);
  if (b->n_args < 0 || (b->n_args > 0 && !b->args) || b->n_ops < 0 || (b->n_ops > 0 && !b->ops))
    return parent ? op_err(parent, "malformed region") : func_error(v->m, v->func, "malformed body");
  if (b->parent_op != parent || b->func != v->func)
    return parent ? op_err(parent, "region is not linked to its op")
                  : func_error(v->m, v->func, "body is not linked");
  if (b->n_ops == 0)
    return parent ? op_err(parent, "region must end with stablehlo.return")
                  : func_error(v->m, v->func, "function body must end with func.return");
  for (int i = 0; i < b->n_args; i++) {
    if (b->args[i].def || b->args[i].owner != b || b->args[i].index != (uint32_t)i)
      return parent ? op_err(parent, "region argument #%d is not linked", i)
                    : func_error(v->m, v->func, "argument #%d is not linked", i);
    HR_TRY(define_value(v, parent, &b->args[i]));
  }
  for (int i = 0; i < b->n_ops; i++) {
    const hr_op *op = b->ops[i];
    if (!op) return parent ? op_err(parent, "malformed region") : func_error(v->m, v->func, "malformed body");
    HR_TRY(verify_op(v, op, b, depth));
    HR_TRY(check_terminator(v, op, i == b->n_ops - 1, parent));
  }
  if (parent) {
    for (int i = 0; i < b->n_args; i++) retire_value(v, &b->args[i]);
    for (int i = 0; i < b->n_ops; i++)
      for (int k = 0; k < b->ops[i]->n_results; k++) retire_value(v, &b->ops[i]->results[k]);
  }
  return NULL;
}

/* Checks a function's signature (before any body is verified, so calls can rely on it). */
static hr_status verify_signature(const hr_module *m, const hr_func *f) {
  if (f->n_args < 0 || f->n_results < 0 || (f->n_results > 0 && !f->result_types) ||
      (f->body.n_args > 0 && !f->body.args))
    return func_error(m, f, "malformed signature");
  if (f->body.n_args != f->n_args)
    return func_error(m, f, "body takes %d arguments, but the signature has %d", f->body.n_args, f->n_args);
  for (int i = 0; i < f->n_results; i++) {
    const char *problem = hri_type_problem(&f->result_types[i]);
    if (problem) return func_error(m, f, "result #%d has an invalid type: %s", i, problem);
  }
  for (int i = 0; i < f->n_args; i++) {
    const char *problem = hri_type_problem(&f->body.args[i].type);
    if (problem) return func_error(m, f, "argument #%d has an invalid type: %s", i, problem);
  }
  return NULL;
}

/* Verifies one function's body. */
static hr_status verify_body(verifier *v, int index) {
  const hr_func *f = v->m->funcs[index];
  v->cur = index;
  v->func = f;
  if (f->is_declaration) {
    if (f->body.n_ops) return func_error(v->m, f, "a declaration has a body");
    if (!f->is_private) return func_error(v->m, f, "a declaration (no body) must be private");
    return NULL;
  }
  void *buf;
  hr_status s = reserve(v, v->state, &v->state_cap, f->n_values, 1, &buf);
  v->state = buf;
  HR_TRY(s);
  if (f->n_values) memset(v->state, 0, f->n_values);
  return verify_block(v, &f->body, NULL, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* Recursion                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* qsort order of call edges by caller. */
static int cmp_edge(const void *a, const void *b) {
  const call_edge *x = a, *y = b;
  return (x->caller > y->caller) - (x->caller < y->caller);
}

/* Reports the cycle closed by edge `e`: the DFS stack from e's callee to the caller. */
static hr_status cycle_error(const verifier *v, const call_edge *e, const int *stack, int depth) {
  char path[700];
  size_t pos = 0;
  int start = depth - 1;
  while (start > 0 && stack[start] != e->callee) start--;
  for (int k = start; k < depth && pos < sizeof path - 1; k++) {
    int n = snprintf(path + pos, sizeof path - pos, "@%s -> ", v->m->funcs[stack[k]]->name);
    pos = n < 0 ? pos : pos + (size_t)n >= sizeof path ? sizeof path - 1 : pos + (size_t)n;
  }
  snprintf(path + pos, sizeof path - pos, "@%s", v->m->funcs[e->callee]->name);
  return op_err(e->op, "recursive call (%s); StableHLO programs must not recurse", path);
}

/* Depth-first search over the call graph (edges sorted by caller, `first[f]` indexing them);
 * any edge to a function on the current path closes a cycle. */
static hr_status find_cycles(const verifier *v, const size_t *first, unsigned char *color, int *stack,
                             size_t *next) {
  int n = v->m->n_funcs;
  for (int root = 0; root < n; root++) {
    if (color[root]) continue;
    int depth = 0;
    stack[depth++] = root;
    color[root] = 1;
    next[root] = first[root];
    while (depth > 0) {
      int f = stack[depth - 1];
      if (next[f] == first[f + 1]) {
        color[f] = 2;
        depth--;
        continue;
      }
      const call_edge *e = &v->edges[next[f]++];
      if (color[e->callee] == 1) return cycle_error(v, e, stack, depth);
      if (color[e->callee] == 0) {
        color[e->callee] = 1;
        next[e->callee] = first[e->callee];
        stack[depth++] = e->callee;
      }
    }
  }
  return NULL;
}

/* Rejects cycles in the call graph. */
static hr_status check_recursion(verifier *v) {
  size_t n = (size_t)v->m->n_funcs;
  if (v->n_edges == 0) return NULL;
  qsort(v->edges, v->n_edges, sizeof *v->edges, cmp_edge);
  size_t bytes = (n + 1) * sizeof(size_t) + n * sizeof(size_t) + n * sizeof(int) + n;
  unsigned char *mem = v->a->alloc(v->a->ctx, bytes, 16);
  if (!mem) return hr_error(HR_OUT_OF_MEMORY, "verifier: out of memory");
  size_t *first = (size_t *)mem, *next = first + n + 1;
  int *stack = (int *)(next + n);
  unsigned char *color = (unsigned char *)(stack + n);
  memset(color, 0, n);
  size_t e = 0;
  for (size_t f = 0; f <= n; f++) {
    while (e < v->n_edges && (size_t)v->edges[e].caller < f) e++;
    first[f] = e;
  }
  hr_status s = find_cycles(v, first, color, stack, next);
  v->a->free(v->a->ctx, mem);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Entry point                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Frees the verifier's scratch memory. */
static void release(verifier *v) {
  if (v->sorted) v->a->free(v->a->ctx, v->sorted);
  if (v->state) v->a->free(v->a->ctx, v->state);
  if (v->types) v->a->free(v->a->ctx, v->types);
  if (v->edges) v->a->free(v->a->ctx, v->edges);
}

hr_status hr_module_verify(const hr_module *m) {
  if (!m) return hr_error(HR_INVALID_ARGUMENT, "verify: no module");
  if (m->n_funcs < 0)
    return hr_error(HR_VERIFY_ERROR, "%s: malformed module", m->filename ? m->filename : "<input>");
  verifier v;
  memset(&v, 0, sizeof v);
  v.m = m;
  v.a = m->arena.allocator ? m->arena.allocator : hr_default_allocator();
  hr_status s = index_functions(&v);
  for (int i = 0; !s && i < m->n_funcs; i++) s = verify_signature(m, m->funcs[i]);
  for (int i = 0; !s && i < m->n_funcs; i++) s = verify_body(&v, i);
  if (!s) s = check_recursion(&v);
  release(&v);
  return s;
}

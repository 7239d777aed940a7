/* hr_specialize: the forward walk that clones the entry function into a new module, inlining
 * calls, refining types, rewriting and folding op by op (see compiler_internal.h). */
#include <string.h>

#include "base/strbuf.h"
#include "compiler/compiler_internal.h"
#include "interp/custom_call.h"

hr_status hc_frame_init(hc_ctx *c, const hr_func *fn, hc_frame *f) {
  f->func = fn;
  size_t n = fn->n_values ? fn->n_values : 1;
  f->map = c->heap->alloc(c->heap->ctx, n * sizeof *f->map, _Alignof(hr_value *));
  if (!f->map) return hc_oom();
  memset(f->map, 0, n * sizeof *f->map);
  return NULL;
}

void hc_frame_release(hc_ctx *c, hc_frame *f) {
  if (f->map) c->heap->free(c->heap->ctx, f->map);
  f->map = NULL;
}

hr_status hc_lookup(const hc_frame *f, const hr_op *user, const hr_value *v, hr_value **out) {
  *out = v && v->id < f->func->n_values ? f->map[v->id] : NULL;
  return *out ? NULL : hr_op_error(user, HR_INTERNAL, "an operand has no specialized value");
}

void hc_bind(hc_frame *f, const hr_value *src, hr_value *v) { f->map[src->id] = v; }

/* An error naming `op`: `what` #i has type `got` where `want` is expected. */
static hr_status type_mismatch(const hr_op *op, const char *what, int i, const hr_type *got, const hr_type *want) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_type_print(&sb, got);
  hr_strbuf_puts(&sb, ", which is incompatible with ");
  hr_type_print(&sb, want);
  hr_status s = hr_strbuf_status(&sb);
  if (!s) s = hr_op_error(op, HR_INVALID_ARGUMENT, "%s #%d specializes to %s", what, i, sb.data);
  hr_strbuf_free(&sb);
  return s;
}

hr_status hc_enter(hc_ctx *c, const hr_op *op) {
  if (c->depth >= HR_LIMIT_NESTING_DEPTH)
    return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "calls and regions nest deeper than %d", HR_LIMIT_NESTING_DEPTH);
  c->depth++;
  return NULL;
}

/* Binds the results of `src` (in frame `to`) to the values terminator `ret` (of frame `from`)
 * returns: how inlined calls and branches hand back their results. */
static hr_status bind_returned(const hc_frame *from, hc_frame *to, const hr_op *src, const hr_op *ret) {
  for (int i = 0; i < src->n_results; i++) {
    hr_value *v = NULL;
    HR_TRY(hc_lookup(from, ret, ret->operands[i], &v));
    if (!hr_type_compatible(&v->type, &src->results[i].type))
      return type_mismatch(src, "result", i, &v->type, &src->results[i].type);
    hc_bind(to, &src->results[i], v);
  }
  return NULL;
}

/* Emits the first `n` ops of source block `src` into `b`. */
static hr_status emit_ops(hc_ctx *c, hc_frame *f, hc_block *b, const hr_block *src, int n) {
  for (int k = 0; k < n; k++) HR_TRY(hc_emit_op(c, f, b, src->ops[k]));
  return NULL;
}

/* Builds region `r` of `op` from source block `src`. Its arguments keep their declared types,
 * except in stablehlo.while, where they take the (refined) types of the loop operands. */
static hr_status emit_region(hc_ctx *c, hc_frame *f, hr_op *op, int r, const hr_block *src) {
  hr_block *b = &op->regions[r];
  b->parent_op = op;
  b->func = c->fn;
  b->n_args = src->n_args;
  if (src->n_args > 0 && !(b->args = HR_ARENA_ARRAY(&c->dst->arena, hr_value, (size_t)src->n_args)))
    return hc_oom();
  for (int i = 0; i < src->n_args; i++) {
    hr_value *v = &b->args[i];
    bool carried = op->code == HR_OP_WHILE && i < op->n_operands;
    HR_TRY(hc_type(c, carried ? &op->operands[i]->type : &src->args[i].type, &v->type));
    HR_TRY(hc_value_init(c, v));
    v->owner = b;
    v->index = (uint32_t)i;
    hc_bind(f, &src->args[i], v);
  }
  HR_TRY(hc_enter(c, op));
  hc_block body;
  hc_block_init(&body, b);
  hr_status s = emit_ops(c, f, &body, src, src->n_ops);
  c->depth--;
  if (!s) s = hc_block_finish(c, &body);
  hc_block_release(c, &body);
  return s;
}

/* Clones `src` into the new module: operands remapped, attributes copied, declared result types
 * copied (refined later), regions built recursively. */
static hr_status clone_op(hc_ctx *c, hc_frame *f, hr_block *parent, const hr_op *src, hr_op **out) {
  hr_op *op = NULL;
  HR_TRY(hc_op_new(c, src->code, src, parent, src->n_operands, src->n_results, &op));
  for (int i = 0; i < src->n_operands; i++) HR_TRY(hc_lookup(f, src, src->operands[i], &op->operands[i]));
  for (int i = 0; i < src->n_results; i++) HR_TRY(hc_type(c, &src->results[i].type, &op->results[i].type));
  HR_TRY(hc_named_attrs(c, src->attrs, src->n_attrs, &op->attrs));
  op->n_attrs = src->n_attrs;
  if (src->n_regions > 0) {
    op->regions = HR_ARENA_ARRAY(&c->dst->arena, hr_block, (size_t)src->n_regions);
    if (!op->regions) return hc_oom();
    op->n_regions = src->n_regions;
    for (int r = 0; r < src->n_regions; r++) HR_TRY(emit_region(c, f, op, r, &src->regions[r]));
  }
  *out = op;
  return NULL;
}

hr_status hc_place(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src, hr_op *op) {
  hr_value *same = hc_identity_operand(op);
  if (same) {
    hc_bind(f, &src->results[0], same);
    return NULL;
  }
  HR_TRY(hc_scratch_reserve(c, (size_t)op->n_results));
  hr_value **repl = c->scratch.repl;
  bool folded = false;
  HR_TRY(hc_fold(c, b, op, repl, &folded));
  if (folded) {
    for (int i = 0; i < src->n_results; i++) hc_bind(f, &src->results[i], repl[i]);
    return NULL;
  }
  HR_TRY(hc_block_push(c, b, op));
  for (int i = 0; i < src->n_results; i++) hc_bind(f, &src->results[i], &op->results[i]);
  return NULL;
}

/* Inlines func.call `src` (or stablehlo.composite, whose meaning is a call of its decomposition):
 * the callee's body is emitted into `b` with its parameters bound to the call's operands, and the
 * call's results bound to the values the callee returns. */
static hr_status inline_call(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src) {
  const char *attr = src->code == HR_OP_COMPOSITE ? "decomposition" : "callee";
  const hr_attr *callee = hr_op_attr(src, attr);
  if (!callee || (callee->kind != HR_ATTR_SYMBOL && callee->kind != HR_ATTR_STRING))
    return hr_op_error(src, HR_VERIFY_ERROR, "missing attribute '%s'", attr);
  const hr_func *fn = hr_module_find_func(c->src, callee->u.str.data);
  if (!fn) return hr_op_error(src, HR_NOT_FOUND, "no function @%s", callee->u.str.data);
  if (fn->is_declaration)
    return hr_op_error(src, HR_UNIMPLEMENTED, "calls @%s, which is declared without a body", fn->name);
  const hr_op *ret = fn->body.n_ops > 0 ? fn->body.ops[fn->body.n_ops - 1] : NULL;
  if (fn->n_args != src->n_operands || fn->n_results != src->n_results || !ret || ret->code != HR_OP_FUNC_RETURN ||
      ret->n_operands != src->n_results)
    return hr_op_error(src, HR_VERIFY_ERROR, "@%s does not match the call", fn->name);
  hc_frame callee_frame;
  HR_TRY(hc_frame_init(c, fn, &callee_frame));
  hr_status s = NULL;
  for (int i = 0; !s && i < src->n_operands; i++) {
    hr_value *v = NULL;
    s = hc_lookup(f, src, src->operands[i], &v);
    if (!s && !hr_type_compatible(&v->type, &fn->body.args[i].type))
      s = type_mismatch(src, "argument", i, &v->type, &fn->body.args[i].type);
    if (!s) hc_bind(&callee_frame, &fn->body.args[i], v);
  }
  if (!s) s = hc_enter(c, src);
  if (!s) {
    s = emit_ops(c, &callee_frame, b, &fn->body, fn->body.n_ops - 1);
    c->depth--;
  }
  if (!s) s = bind_returned(&callee_frame, f, src, ret);
  hc_frame_release(c, &callee_frame);
  return s;
}

/* The branch a stablehlo.if or stablehlo.case with a constant selector takes, or -1. */
static int constant_branch(const hr_op *src, const hr_value *selector) {
  const hr_attr *k = hc_constant_value(selector);
  if (!k || k->u.dense.type.shape.rank != 0 || !k->u.dense.data) return -1;
  if (src->code == HR_OP_IF && k->u.dense.type.dtype == HR_I1 && k->u.dense.nbytes == 1)
    return *(const uint8_t *)k->u.dense.data ? 0 : 1;
  if (src->code != HR_OP_CASE || k->u.dense.type.dtype != HR_I32 || k->u.dense.nbytes != sizeof(int32_t)) return -1;
  int32_t index;
  memcpy(&index, k->u.dense.data, sizeof index);
  /* Out-of-range indices select the last branch (StableHLO spec). */
  return index < 0 || index >= src->n_regions ? src->n_regions - 1 : index;
}

/* Emits the branch of stablehlo.if / stablehlo.case `src` that a constant selector picks directly
 * into `b` (its ops may use values of enclosing scopes, which stay bound); sets *done when it did. */
static hr_status inline_branch(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src, bool *done) {
  *done = false;
  if ((src->code != HR_OP_IF && src->code != HR_OP_CASE) || src->n_operands != 1) return NULL;
  hr_value *selector = NULL;
  HR_TRY(hc_lookup(f, src, src->operands[0], &selector));
  int r = constant_branch(src, selector);
  if (r < 0 || r >= src->n_regions) return NULL;
  const hr_block *branch = &src->regions[r];
  const hr_op *ret = branch->n_ops > 0 ? branch->ops[branch->n_ops - 1] : NULL;
  if (!ret || ret->code != HR_OP_RETURN || ret->n_operands != src->n_results)
    return hr_op_error(src, HR_VERIFY_ERROR, "branch #%d does not return the op's results", r);
  HR_TRY(hc_enter(c, src));
  hr_status s = emit_ops(c, f, b, branch, branch->n_ops - 1);
  c->depth--;
  if (!s) s = bind_returned(f, f, src, ret);
  *done = !s;
  return s;
}

/* hc_check_static, except that a custom call of a target hlorun does not run, whose shapes nothing
 * could tell, fails naming the target (executables refuse unknown targets when they are made). */
static hr_status check_static(const hr_op *op) {
  hr_status s = hc_check_static(op);
  if (!s || op->code != HR_OP_CUSTOM_CALL) return s;
  hr_status unknown = hr_cc_supported(op);
  if (!unknown) return s;
  hr_status_free(s);
  return unknown;
}

hr_status hc_emit_op(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src) {
  if (src->code == HR_OP_FUNC_CALL || src->code == HR_OP_COMPOSITE) return inline_call(c, f, b, src);
  if (src->code == HR_OP_SDY_MANUAL_COMPUTATION)
    return c->device >= 0 ? hc_device_manual(c, f, b, src) : hc_inline_manual(c, f, b, src);
  bool inlined = false;
  HR_TRY(inline_branch(c, f, b, src, &inlined));
  if (inlined) return NULL;
  hr_op *op = NULL;
  HR_TRY(clone_op(c, f, b->block, src, &op));
  HR_TRY(hc_refine(c, op));
  HR_TRY(check_static(op));
  HR_TRY(hc_rewrite_dynamic(c, op));
  HR_TRY(hc_lower_chlo_broadcast(c, b, op));
  return hc_place(c, f, b, src, op);
}

/* ---------------------------------------------------------------------------------------------- */
/* The entry function                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* Checks the requested argument types: one per parameter, compatible with the declared type (so
 * also well formed: same kinds, element types and ranks), and static. */
static hr_status check_arg_types(const hr_func *fn, const hr_type *arg_types, int n_args) {
  const char *file = fn->loc.file ? fn->loc.file : "<input>";
  if (n_args != fn->n_args)
    return hr_error(HR_INVALID_ARGUMENT, "%s:%u:%u: @%s takes %d arguments, %d types given", file, fn->loc.line,
                    fn->loc.col, fn->name, fn->n_args, n_args);
  if (n_args > 0 && !arg_types) return hr_error(HR_INVALID_ARGUMENT, "specialize: no argument types");
  for (int i = 0; i < n_args; i++) {
    const hr_type *want = &fn->body.args[i].type;
    if (hr_type_compatible(&arg_types[i], want) && hc_type_is_static(&arg_types[i])) continue;
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    hr_type_print(&sb, &arg_types[i]);
    hr_strbuf_puts(&sb, " is not a static type compatible with ");
    hr_type_print(&sb, want);
    hr_status s = hr_strbuf_status(&sb);
    if (!s)
      s = hr_error(HR_INVALID_ARGUMENT, "%s:%u:%u: @%s: argument #%d: %s", file, fn->loc.line, fn->loc.col, fn->name,
                   i, sb.data);
    hr_strbuf_free(&sb);
    return s;
  }
  return NULL;
}

/* Copies an array of `n` optional attributes (parameter or result attributes). */
static hr_status copy_attr_list(hc_ctx *c, hr_attr *const *src, int n, hr_attr ***out) {
  *out = NULL;
  if (!src || n <= 0) return NULL;
  hr_attr **dst = HR_ARENA_ARRAY(&c->dst->arena, hr_attr *, (size_t)n);
  if (!dst) return hc_oom();
  for (int i = 0; i < n; i++) HR_TRY(hc_attr(c, src[i], &dst[i]));
  *out = dst;
  return NULL;
}

/* Appends a function `name` with the signature of `src` and parameters of `arg_types` to the new
 * module and makes it the one being built (c->fn); its results are set once its body is built. */
static hr_status new_func(hc_ctx *c, const hr_func *src, const hr_type *arg_types, const char *name) {
  hr_arena *arena = &c->dst->arena;
  hr_func *fn = HR_ARENA_NEW(arena, hr_func);
  hr_func **funcs = HR_ARENA_ARRAY(arena, hr_func *, (size_t)c->dst->n_funcs + 1);
  if (!fn || !funcs) return hc_oom();
  for (int i = 0; i < c->dst->n_funcs; i++) funcs[i] = c->dst->funcs[i];
  funcs[c->dst->n_funcs] = fn;
  c->dst->funcs = funcs;
  c->dst->n_funcs++;
  c->fn = fn;
  HR_TRY(hc_strdup(c, name, &fn->name));
  fn->is_private = c->dst->n_funcs > 1;
  HR_TRY(hc_loc(c, src->loc, &fn->loc));
  HR_TRY(hc_attr(c, src->attrs, &fn->attrs));
  HR_TRY(copy_attr_list(c, src->arg_attrs, src->n_args, &fn->arg_attrs));
  fn->n_args = src->n_args;
  fn->body.func = fn;
  fn->body.n_args = src->n_args;
  if (src->n_args > 0 && !(fn->body.args = HR_ARENA_ARRAY(arena, hr_value, (size_t)src->n_args))) return hc_oom();
  for (int i = 0; i < src->n_args; i++) {
    hr_value *v = &fn->body.args[i];
    HR_TRY(hc_type(c, &arg_types[i], &v->type));
    HR_TRY(hc_value_init(c, v));
    v->owner = &fn->body;
    v->index = (uint32_t)i;
  }
  return NULL;
}

/* Sets the results of the function being built from its func.return, checking them against the
 * source's. */
static hr_status set_results(hc_ctx *c, const hr_func *src) {
  hr_func *fn = c->fn;
  const hr_op *ret = fn->body.n_ops > 0 ? fn->body.ops[fn->body.n_ops - 1] : NULL;
  if (!ret || ret->code != HR_OP_FUNC_RETURN || ret->n_operands != src->n_results)
    return hr_error(HR_INTERNAL, "specialize: @%s lost its return", src->name);
  fn->n_results = src->n_results;
  if (src->n_results > 0 && !(fn->result_types = HR_ARENA_ARRAY(&c->dst->arena, hr_type, (size_t)src->n_results)))
    return hc_oom();
  for (int i = 0; i < src->n_results; i++) {
    const hr_type *t = &ret->operands[i]->type;
    if (!hr_type_compatible(t, &src->result_types[i])) return type_mismatch(ret, "result", i, t, &src->result_types[i]);
    HR_TRY(hc_type(c, t, &fn->result_types[i]));
  }
  return copy_attr_list(c, src->result_attrs, src->n_results, &fn->result_attrs);
}

/* Builds the body of the function being built (c->fn) from source function `src`, its
 * parameters bound to the new function's. */
static hr_status emit_func(hc_ctx *c, const hr_func *src) {
  hc_frame f;
  HR_TRY(hc_frame_init(c, src, &f));
  for (int i = 0; i < src->n_args; i++) hc_bind(&f, &src->body.args[i], &c->fn->body.args[i]);
  hc_block body;
  hc_block_init(&body, &c->fn->body);
  hr_status s = emit_ops(c, &f, &body, &src->body, src->body.n_ops);
  if (!s) s = hc_block_finish(c, &body);
  hc_block_release(c, &body);
  hc_frame_release(c, &f);
  if (!s) s = set_results(c, src);
  if (!s) s = hc_dce_and_number(c);
  return s;
}

/* Copies the functions the custom calls of block `b` name in called_computations (a reduction
 * body, a comparator: the target runs them) into the new module, each once, with their declared
 * signatures; they are specialized like main, and scanned in turn when their turn comes. */
static hr_status copy_called_in(hc_ctx *c, const hr_block *b) {
  for (int k = 0; k < b->n_ops; k++) {
    const hr_op *op = b->ops[k];
    for (int r = 0; r < op->n_regions; r++) HR_TRY(copy_called_in(c, &op->regions[r]));
    const hr_attr *calls = op->code == HR_OP_CUSTOM_CALL ? hr_op_attr(op, "called_computations") : NULL;
    for (int i = 0; calls && calls->kind == HR_ATTR_ARRAY && i < calls->u.array.n; i++) {
      const hr_attr *sym = calls->u.array.items[i];
      if (sym->kind != HR_ATTR_SYMBOL || hr_module_find_func(c->dst, sym->u.str.data)) continue;
      const hr_func *src = hr_module_find_func(c->src, sym->u.str.data);
      if (!src || src->is_declaration) continue; /* the target names what is missing when it runs */
      hr_type *types = src->n_args ? HR_ARENA_ARRAY(&c->dst->arena, hr_type, (size_t)src->n_args) : NULL;
      if (src->n_args && !types) return hc_oom();
      for (int a = 0; a < src->n_args; a++) types[a] = src->body.args[a].type;
      HR_TRY(new_func(c, src, types, src->name));
      HR_TRY(emit_func(c, src));
    }
  }
  return NULL;
}

/* Builds the specialized module in c->dst: main, then the functions custom calls name. */
static hr_status build(hc_ctx *c, const hr_func *src, const hr_type *arg_types) {
  HR_TRY(hc_strdup(c, c->src->name, &c->dst->name));
  HR_TRY(hc_attr(c, c->src->attrs, &c->dst->attrs));
  HR_TRY(new_func(c, src, arg_types, "main"));
  HR_TRY(emit_func(c, src));
  for (int i = 0; i < c->dst->n_funcs; i++) HR_TRY(copy_called_in(c, &c->dst->funcs[i]->body));
  c->fn = c->dst->funcs[0];
  return NULL;
}

/* hr_specialize, with manual computations as the code of `device` when >= 0. */
static hr_status specialize(const hr_module *m, const char *fn_name, const hr_type *arg_types, int n_args,
                            const hr_folder *folder, const hr_allocator *a, int64_t device, hr_module **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "specialize: no output");
  *out = NULL;
  if (!m) return hr_error(HR_INVALID_ARGUMENT, "specialize: no module");
  const char *name = fn_name ? fn_name : "main";
  const hr_func *src = hr_module_find_func(m, name);
  if (!src || src->is_declaration)
    return hr_error(HR_NOT_FOUND, "%s: no function @%s%s", m->filename ? m->filename : "<input>", name,
                    src ? " with a body (it is only declared)" : "");
  HR_TRY(check_arg_types(src, arg_types, n_args));
  hc_ctx c;
  memset(&c, 0, sizeof c);
  c.src = m;
  c.device = device;
  c.heap = a ? a : hr_default_allocator();
  c.folder = folder;
  c.max_fold_bytes = folder && folder->max_fold_bytes ? folder->max_fold_bytes : HR_LIMIT_FOLD_BYTES;
  HR_TRY(hr_module_new(c.heap, m->filename, &c.dst));
  c.src_file = m->filename; /* op locations usually name the module's file: share its copy */
  c.dst_file = c.dst->filename;
  hr_status s = build(&c, src, arg_types);
  hc_scratch_release(&c);
  if (!s) s = hr_module_verify(c.dst);
  if (s) {
    hr_module_free(c.dst);
    return s;
  }
  *out = c.dst;
  return NULL;
}

hr_status hr_specialize(const hr_module *m, const char *fn_name, const hr_type *arg_types, int n_args,
                        const hr_folder *folder, const hr_allocator *a, hr_module **out) {
  return specialize(m, fn_name, arg_types, n_args, folder, a, -1, out);
}

hr_status hr_specialize_device(const hr_module *m, const char *fn_name, const hr_type *arg_types, int n_args,
                               const hr_folder *folder, const hr_allocator *a, int64_t device, hr_module **out) {
  if (device < 0) return hr_error(HR_INVALID_ARGUMENT, "specialize: device %lld", (long long)device);
  return specialize(m, fn_name, arg_types, n_args, folder, a, device, out);
}

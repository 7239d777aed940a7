/* The reference interpreter: block execution, value lifetimes, calls and control flow. */
#include "interp/interp.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/limits.h"
#include "interp/check.h"
#include "interp/custom_call.h"
#include "ir/infer.h"

/* ---------------------------------------------------------------------------------------------- */
/* Function frames                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* The live values of one function invocation, indexed by hr_value.id. Every block of the function
 * (nested regions included) shares the frame: SSA ids are unique within a function and a block is
 * never active twice at once. */
typedef struct frame {
  const hr_func *func;
  hr_tensor **slots;      /* current tensor of each value, or NULL */
  bool *owned;            /* whether the frame must free slots[id] */
  const hr_op **last_use; /* the op after which a value is dead (NULL: dead at definition) */
  struct frame *caller;
} frame;

/* Per-interpreter state that kernels reach through hr_interp: the innermost frame. The struct
 * hr_interp is public to kernels; the frame pointer is kept here, beside it, in a wrapper. */
/* A value interpreter.probe recorded: the n-th record of an id is its iteration n. */
typedef struct probe_record {
  const char *id; /* the op's probe_id (the module's string; outlives the run) */
  size_t id_len;
  hr_tensor *value; /* a copy, owned */
} probe_record;

/* At most this many probe records per interpreter, and at most opts.max_tensor_bytes in all. */
enum { PROBE_RECORDS_MAX = 1 << 20 };

typedef struct interp_impl {
  hr_interp pub;
  frame *top;
  probe_record *probes;
  int n_probes, cap_probes;
  size_t probe_bytes;
} interp_impl;

static interp_impl *impl_of(hr_interp *in) { return (interp_impl *)in; }

/* The block that defines `v`. */
static const hr_block *defining_block(const hr_value *v) { return v->def ? v->def->parent : v->owner; }

/* Records `user` as the latest user of every value that `op` (its operands, and the operands of
 * ops nested in its regions) reads from `block`, the block `user` lives in. */
static void mark_uses(const hr_op *op, const hr_block *block, const hr_op *user, const hr_op **last_use) {
  for (int i = 0; i < op->n_operands; i++)
    if (defining_block(op->operands[i]) == block) last_use[op->operands[i]->id] = user;
  for (int r = 0; r < op->n_regions; r++)
    for (int k = 0; k < op->regions[r].n_ops; k++) mark_uses(op->regions[r].ops[k], block, user, last_use);
}

/* Computes last_use for every block of the function, nested ones included. */
static void plan_block(const hr_block *block, const hr_op **last_use) {
  for (int k = 0; k < block->n_ops; k++) {
    const hr_op *op = block->ops[k];
    mark_uses(op, block, op, last_use);
    for (int r = 0; r < op->n_regions; r++) plan_block(&op->regions[r], last_use);
  }
}

static hr_status frame_init(hr_interp *in, const hr_func *fn, frame *f) {
  memset(f, 0, sizeof *f);
  f->func = fn;
  const hr_allocator *a = in->allocator;
  size_t n = fn->n_values ? fn->n_values : 1;
  f->slots = a->alloc(a->ctx, n * sizeof *f->slots, 16);
  f->owned = a->alloc(a->ctx, n * sizeof *f->owned, 16);
  f->last_use = a->alloc(a->ctx, n * sizeof *f->last_use, 16);
  if (!f->slots || !f->owned || !f->last_use) {
    if (f->slots) a->free(a->ctx, f->slots);
    if (f->owned) a->free(a->ctx, f->owned);
    if (f->last_use) a->free(a->ctx, (void *)f->last_use);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory entering @%s", fn->name);
  }
  memset(f->slots, 0, n * sizeof *f->slots);
  memset(f->owned, 0, n * sizeof *f->owned);
  memset((void *)f->last_use, 0, n * sizeof *f->last_use);
  plan_block(&fn->body, f->last_use);
  return NULL;
}

static void slot_clear(frame *f, uint32_t id) {
  if (f->owned[id]) hr_tensor_free(f->slots[id]);
  f->slots[id] = NULL;
  f->owned[id] = false;
}

static void frame_release(hr_interp *in, frame *f) {
  for (uint32_t i = 0; i < f->func->n_values; i++) slot_clear(f, i);
  const hr_allocator *a = in->allocator;
  a->free(a->ctx, f->slots);
  a->free(a->ctx, f->owned);
  a->free(a->ctx, (void *)f->last_use);
}

/* ---------------------------------------------------------------------------------------------- */
/* Run control                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

double hr_monotonic_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

hr_code hr_control_poll(const hr_run_control *ctl) {
  if (!ctl) return HR_OK;
  if (ctl->deadline > 0 && hr_monotonic_seconds() >= ctl->deadline) return HR_DEADLINE_EXCEEDED;
  return ctl->cancelled && ctl->cancelled(ctl->cancel_ctx) ? HR_CANCELLED : HR_OK;
}

const char *hr_control_reason(hr_code code) {
  return code == HR_CANCELLED ? "the run was cancelled" : "the run passed its deadline";
}

/* ---------------------------------------------------------------------------------------------- */
/* Tensors                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_interp_alloc(hr_interp *in, const hr_op *op, hr_dtype dtype, const hr_shape *shape,
                          hr_tensor **out) {
  hr_status s = hr_tensor_create(in->allocator, dtype, shape, in->opts.max_tensor_bytes, out);
  if (s && op) {
    hr_status e = hr_op_error(op, hr_status_code(s), "%s", hr_status_message(s));
    hr_status_free(s);
    return e;
  }
  return s;
}

static hr_status tensor_copy(hr_interp *in, const hr_tensor *src, hr_tensor **out) {
  HR_TRY(hr_interp_alloc(in, NULL, src->dtype, &src->shape, out));
  if (src->nbytes) memcpy((*out)->data, src->data, src->nbytes);
  return NULL;
}

static hr_type tensor_type_of(const hr_tensor *t) {
  hr_type ty;
  memset(&ty, 0, sizeof ty);
  ty.kind = HR_TYPE_TENSOR;
  ty.dtype = t->dtype;
  ty.shape = t->shape;
  return ty;
}

static bool tensor_matches(const hr_tensor *t, const hr_type *ty) {
  /* Tuples and tokens travel as packed bytes (kernels_tuple.c). */
  if (ty->kind == HR_TYPE_TUPLE || ty->kind == HR_TYPE_TOKEN) return t->dtype == HR_U8 && t->shape.rank == 1;
  hr_type actual = tensor_type_of(t);
  actual.quant = ty->kind == HR_TYPE_TENSOR ? ty->quant : NULL; /* a tensor holds the stored integers */
  return hr_type_compatible(&actual, ty);
}

/* ---------------------------------------------------------------------------------------------- */
/* Op execution                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Looks up the current tensor of an operand. */
static hr_status operand_tensor(frame *f, const hr_op *op, const hr_value *v, hr_tensor **out) {
  *out = f->slots[v->id];
  if (!*out)
    return hr_op_error(op, HR_INTERNAL, "operand %%%s has no value (used after its last use?)",
                       v->name ? v->name : "?");
  return NULL;
}

/* Runtime types of the operand tensors, for inference. */
static hr_status operand_types_of(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_type **out) {
  *out = in->allocator->alloc(in->allocator->ctx, sizeof(hr_type) * (size_t)(op->n_operands ? op->n_operands : 1), 16);
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < op->n_operands; i++) {
    (*out)[i] = tensor_type_of(operands[i]);
    /* A quantized operand's tensor holds its stored integers: its quantization is the op's. */
    if (op->operands[i]->type.kind == HR_TYPE_TENSOR) (*out)[i].quant = op->operands[i]->type.quant;
  }
  return NULL;
}

/* Determines the concrete result types of `op` for the given operand tensors. */
static hr_status result_types(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_type *types) {
  bool all_static = true;
  for (int i = 0; i < op->n_results; i++) {
    types[i] = op->results[i].type;
    if (!hr_type_is_static(&types[i])) all_static = false;
  }
  if (all_static) return NULL;
  hr_type *operand_types;
  HR_TRY(operand_types_of(in, op, operands, &operand_types));
  hr_status s = hr_infer_result_types(op, operand_types, (const hr_tensor *const *)operands, types);
  in->allocator->free(in->allocator->ctx, operand_types);
  if (s) return s;
  for (int i = 0; i < op->n_results; i++) {
    if (!hr_type_is_static(&types[i]))
      return hr_op_error(op, HR_UNIMPLEMENTED, "cannot determine the shape of result %d at run time", i);
    if (!hr_type_compatible(&types[i], &op->results[i].type))
      return hr_op_error(op, HR_VERIFY_ERROR, "result %d has a run-time shape incompatible with its declared type", i);
  }
  return NULL;
}

/* Allocates the op's result tensors with their concrete types; returns how many were made. */
static hr_status alloc_results(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                               int *made) {
  *made = 0;
  hr_type small[4];
  hr_type *types = small;
  if (op->n_results > 4) {
    types = in->allocator->alloc(in->allocator->ctx, sizeof(hr_type) * (size_t)op->n_results, 16);
    if (!types) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  hr_status s = result_types(in, op, operands, types);
  while (!s && *made < op->n_results) {
    s = hr_interp_alloc(in, op, types[*made].dtype, &types[*made].shape, &results[*made]);
    if (!s) (*made)++;
  }
  if (types != small) in->allocator->free(in->allocator->ctx, types);
  return s;
}

/* Whether the op takes or makes tokens beside tensors: the transfers (kernels_reduce_transfer.c)
 * and interpreter.run_parallel, whose kernels make their results. */
static bool transfers_tokens(hr_opcode code) {
  return code == HR_OP_INFEED || code == HR_OP_OUTFEED || code == HR_OP_SEND || code == HR_OP_RECV ||
         code == HR_OP_INTERPRETER_RUN_PARALLEL;
}

/* Whether the op's kernel creates its results itself (control flow: the results are whatever the
 * region or callee returns, so their shapes are known only afterwards). */
static bool produces_own_results(hr_opcode code) {
  return code == HR_OP_FUNC_CALL || code == HR_OP_WHILE || code == HR_OP_IF || code == HR_OP_CASE ||
         code == HR_OP_TUPLE || code == HR_OP_GET_TUPLE_ELEMENT || code == HR_OP_AFTER_ALL ||
         code == HR_OP_COMPOSITE || code == HR_OP_OPTIMIZATION_BARRIER || transfers_tokens(code);
}

/* Whether the op's kernel takes and makes values of token or tuple type (carried as packed bytes,
 * kernels_tuple.c); other kernels see tensors only. */
static bool handles_tuples(hr_opcode code) {
  return code == HR_OP_TUPLE || code == HR_OP_GET_TUPLE_ELEMENT || code == HR_OP_AFTER_ALL ||
         code == HR_OP_COMPOSITE || code == HR_OP_FUNC_CALL || code == HR_OP_OPTIMIZATION_BARRIER || transfers_tokens(code);
}

/* HR_UNIMPLEMENTED when `op` reads or makes a token or tuple. */
static hr_status reject_non_tensors(const hr_op *op) {
  for (int i = 0; i < op->n_operands; i++)
    if (op->operands[i]->type.kind != HR_TYPE_TENSOR)
      return hr_op_error(op, HR_UNIMPLEMENTED, "operands of token or tuple type are not supported");
  for (int i = 0; i < op->n_results; i++)
    if (op->results[i].type.kind != HR_TYPE_TENSOR)
      return hr_op_error(op, HR_UNIMPLEMENTED, "results of token or tuple type are not supported");
  return NULL;
}

/* HR_UNIMPLEMENTED when `op` reads or makes a token or tuple and its kernel does not handle them. */
static hr_status check_tensor_values(const hr_op *op) {
  return handles_tuples(op->code) ? NULL : reject_non_tensors(op);
}

/* Tensor-pointer arrays sized for one op: on the stack for small counts, else allocated. */
typedef struct tensor_list {
  hr_tensor **items;
  hr_tensor *small[16];
  const hr_allocator *heap; /* set when items was allocated */
} tensor_list;

static hr_status tensor_list_init(hr_interp *in, tensor_list *l, int n) {
  l->heap = NULL;
  l->items = l->small;
  if (n <= (int)(sizeof l->small / sizeof l->small[0])) return NULL;
  l->items = in->allocator->alloc(in->allocator->ctx, (size_t)n * sizeof *l->items, 16);
  if (!l->items) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  l->heap = in->allocator;
  return NULL;
}

static void tensor_list_release(tensor_list *l) {
  if (l->heap) l->heap->free(l->heap->ctx, l->items);
}

/* The element type of `t` no kernel runs yet, or NULL. */
static const char *unsupported_type(const hr_type *t, char *buf, size_t cap) {
  if (t->kind == HR_TYPE_FUTURE || t->kind == HR_TYPE_BUFFER) {
    hr_type_format(t, buf, cap);
    return buf;
  }
  if (t->kind != HR_TYPE_TENSOR || t->dtype != HR_INDEX) return NULL;
  hr_type_format(t, buf, cap);
  return buf;
}

hr_status hr_interp_check_types(const hr_op *op) {
  if (op->code == HR_OP_CUSTOM_CALL) HR_TRY(hr_cc_supported(op));
  char buf[160];
  const char *bad = NULL;
  for (int i = 0; !bad && i < op->n_operands; i++) bad = unsupported_type(&op->operands[i]->type, buf, sizeof buf);
  for (int i = 0; !bad && i < op->n_results; i++) bad = unsupported_type(&op->results[i].type, buf, sizeof buf);
  if (!bad) return NULL;
  return hr_op_error(op, HR_UNIMPLEMENTED, "values of type %s are not run yet (read, printed and written only)", bad);
}

/* Executes `op` with caller-provided arrays for its operand and result tensors. */
static hr_status exec_op_with(hr_interp *in, frame *f, const hr_op *op, hr_tensor **operands_buf,
                              hr_tensor **results_buf) {
  hr_kernel_fn kernel = hr_interp_kernel_for(in, op);
  if (!kernel) return hr_op_error(op, HR_UNIMPLEMENTED, "the interpreter does not implement this op");
  HR_TRY(hr_interp_check_types(op));
  HR_TRY(check_tensor_values(op));
  for (int i = 0; i < op->n_operands; i++) HR_TRY(operand_tensor(f, op, op->operands[i], &operands_buf[i]));
  hr_status s = NULL;
  int made = 0; /* results allocated so far */
  if (produces_own_results(op->code)) {
    for (int i = 0; i < op->n_results; i++) results_buf[i] = NULL;
  } else {
    s = alloc_results(in, op, operands_buf, results_buf, &made);
  }
  if (!s) s = kernel(in, op, operands_buf, results_buf);
  if (s) {
    for (int i = 0; i < made; i++) hr_tensor_free(results_buf[i]);
    return s;
  }
  for (int i = 0; i < op->n_results; i++) {
    uint32_t id = op->results[i].id;
    slot_clear(f, id);
    f->slots[id] = results_buf[i];
    f->owned[id] = true;
  }
  return NULL;
}

/* Executes one non-terminator op, storing its results in the frame. */
static hr_status exec_op(hr_interp *in, frame *f, const hr_op *op) {
  tensor_list operands, results;
  HR_TRY(tensor_list_init(in, &operands, op->n_operands));
  hr_status s = tensor_list_init(in, &results, op->n_results);
  if (!s) {
    s = exec_op_with(in, f, op, operands.items, results.items);
    tensor_list_release(&results);
  }
  tensor_list_release(&operands);
  return s;
}

/* Frees the values of `block` whose last use is `user`: operands of `scan` (the user itself, or an op
 * nested in its regions, where values of `block` may be captured). */
static void release_dead(frame *f, const hr_block *block, const hr_op *user, const hr_op *scan) {
  for (int i = 0; i < scan->n_operands; i++) {
    const hr_value *v = scan->operands[i];
    if (defining_block(v) == block && f->last_use[v->id] == user) slot_clear(f, v->id);
  }
  for (int r = 0; r < scan->n_regions; r++)
    for (int k = 0; k < scan->regions[r].n_ops; k++) release_dead(f, block, user, scan->regions[r].ops[k]);
}

static void release_unused_results(frame *f, const hr_op *op) {
  for (int i = 0; i < op->n_results; i++)
    if (!f->last_use[op->results[i].id]) slot_clear(f, op->results[i].id);
}

/* Produces owned result tensors from the terminator's operands. A value this block owns and
 * returns once is moved out; anything else is copied. */
static hr_status collect_results(hr_interp *in, frame *f, const hr_op *term, hr_tensor **results) {
  for (int i = 0; i < term->n_operands; i++) {
    const hr_value *v = term->operands[i];
    hr_tensor *t;
    hr_status s = operand_tensor(f, term, v, &t);
    bool repeated = false;
    for (int j = i + 1; j < term->n_operands; j++) repeated |= term->operands[j] == v;
    if (!s && f->owned[v->id] && !repeated && defining_block(v) == term->parent) {
      results[i] = t;
      f->slots[v->id] = NULL;
      f->owned[v->id] = false;
    } else if (!s) {
      s = tensor_copy(in, t, &results[i]);
    }
    if (s) {
      for (int j = 0; j < i; j++) hr_tensor_free(results[j]);
      return s;
    }
  }
  return NULL;
}

/* Runs `block` in frame `f` with `args` (borrowed) bound to its arguments. */
static hr_status run_block_in(hr_interp *in, frame *f, const hr_block *block, hr_tensor *const *args,
                              hr_tensor **results) {
  for (int i = 0; i < block->n_args; i++) {
    uint32_t id = block->args[i].id;
    slot_clear(f, id);
    f->slots[id] = args[i];
  }
  hr_status s = NULL;
  /* A run's control is polled before each op of a function body (not of regions such as reduce
   * bodies, which run per element). */
  const hr_run_control *ctl = block == &f->func->body ? in->opts.control : NULL;
  for (int k = 0; k < block->n_ops && !s; k++) {
    const hr_op *op = block->ops[k];
    hr_code stop = hr_control_poll(ctl);
    if (stop) {
      s = hr_op_error(op, stop, "%s (before this op of @%s)", hr_control_reason(stop), f->func->name);
      break;
    }
    if (hr_opcode_flags(op->code) & HR_OPF_TERMINATOR) {
      s = collect_results(in, f, op, results);
      break;
    }
    s = exec_op(in, f, op);
    if (!s) {
      release_dead(f, block, op, op);
      release_unused_results(f, op);
    }
  }
  /* Leave no value of this block behind (also on error): arguments are borrowed. */
  for (int i = 0; i < block->n_args; i++) {
    f->slots[block->args[i].id] = NULL;
    f->owned[block->args[i].id] = false;
  }
  for (int k = 0; k < block->n_ops; k++)
    for (int r = 0; r < block->ops[k]->n_results; r++) slot_clear(f, block->ops[k]->results[r].id);
  return s;
}

/* Calls and regions nest at most HR_LIMIT_CALL_DEPTH deep, counted as the compiler counts them (each
 * level is a C recursion here: base/limits.h). */
hr_status hr_interp_run_block(hr_interp *in, const hr_block *block, hr_tensor *const *args,
                              hr_tensor **results) {
  frame *f = impl_of(in)->top;
  if (!f || block->func != f->func)
    return hr_error(HR_INTERNAL, "region evaluated outside its function's frame");
  int region = block->parent_op != NULL; /* an executable's wrapper block is not a level */
  if (region && in->depth >= HR_LIMIT_CALL_DEPTH)
    return hr_op_error(block->parent_op, HR_RESOURCE_EXHAUSTED, "calls and regions nest deeper than %d",
                       HR_LIMIT_CALL_DEPTH);
  in->depth += region;
  hr_status s = run_block_in(in, f, block, args, results);
  in->depth -= region;
  return s;
}

hr_status hr_interp_call(hr_interp *in, const hr_func *fn, hr_tensor *const *args, hr_tensor **results) {
  interp_impl *impl = impl_of(in);
  int nested = impl->top != NULL; /* a call from a function; the entry function's body is level 0 */
  if (nested && in->depth >= HR_LIMIT_CALL_DEPTH)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s:%u:%u: calls and regions nest deeper than %d entering @%s",
                    fn->loc.file, fn->loc.line, fn->loc.col, HR_LIMIT_CALL_DEPTH, fn->name);
  frame f;
  HR_TRY(frame_init(in, fn, &f));
  f.caller = impl->top;
  impl->top = &f;
  in->depth += nested;
  hr_status s = run_block_in(in, &f, &fn->body, args, results);
  in->depth -= nested;
  impl->top = f.caller;
  frame_release(in, &f);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Control-flow and constant kernels                                                               */
/* ---------------------------------------------------------------------------------------------- */

static hr_status kernel_constant(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_attr *v = hr_op_attr(op, "value");
  if (!v || v->kind != HR_ATTR_DENSE) return hr_op_error(op, HR_VERIFY_ERROR, "missing dense 'value'");
  hr_tensor *r = results[0];
  if (v->u.dense.type.dtype != r->dtype) return hr_op_error(op, HR_VERIFY_ERROR, "value type differs from the result type");
  size_t es = hr_dtype_size(r->dtype);
  if (!v->u.dense.splat) {
    if (v->u.dense.nbytes != r->nbytes) return hr_op_error(op, HR_VERIFY_ERROR, "value size differs from the result size");
    if (r->nbytes) memcpy(r->data, v->u.dense.data, r->nbytes);
    return NULL;
  }
  unsigned char *d = r->data;
  for (size_t off = 0; off < r->nbytes; off += es) memcpy(d + off, v->u.dense.data, es);
  return NULL;
}

/* Checks region or callee results against the op's declared result types; frees them all and
 * clears the array on mismatch. */
static hr_status check_results(const hr_op *op, hr_tensor **results, int n) {
  for (int i = 0; i < n; i++) {
    if (tensor_matches(results[i], &op->results[i].type)) continue;
    for (int j = 0; j < n; j++) {
      hr_tensor_free(results[j]);
      results[j] = NULL;
    }
    return hr_op_error(op, HR_VERIFY_ERROR, "result %d has an unexpected type or shape", i);
  }
  return NULL;
}

static hr_status kernel_call(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_attr *callee = hr_op_attr(op, "callee");
  if (!callee || callee->kind != HR_ATTR_SYMBOL) return hr_op_error(op, HR_VERIFY_ERROR, "missing 'callee'");
  const hr_func *fn = hr_module_find_func(in->module, callee->u.str.data);
  if (!fn) return hr_op_error(op, HR_NOT_FOUND, "no function @%s", callee->u.str.data);
  if (fn->is_declaration)
    return hr_op_error(op, HR_UNIMPLEMENTED, "calls @%s, which is declared without a body", fn->name);
  if (fn->n_args != op->n_operands || fn->n_results != op->n_results)
    return hr_op_error(op, HR_VERIFY_ERROR, "@%s takes %d arguments and returns %d results", fn->name, fn->n_args, fn->n_results);
  return hr_interp_call_checked(in, op, fn, operands, results);
}

hr_status hr_interp_call_checked(hr_interp *in, const hr_op *op, const hr_func *fn, hr_tensor *const *operands,
                                 hr_tensor **results) {
  /* The callee's results land directly in the op's result array. */
  HR_TRY(hr_interp_call(in, fn, operands, results));
  return check_results(op, results, fn->n_results);
}

/* Reads a rank-0 i1 tensor. */
static bool scalar_true(const hr_tensor *t) { return ((const uint8_t *)t->data)[0] != 0; }

static hr_status kernel_while(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  int n = op->n_operands;
  if (op->n_regions != 2 || op->n_results != n) return hr_op_error(op, HR_VERIFY_ERROR, "malformed while");
  tensor_list next;
  HR_TRY(tensor_list_init(in, &next, n));
  /* The loop state: the operands (borrowed) until the body first runs, then `results` (owned). */
  hr_tensor *const *state = operands;
  bool owned = false;
  hr_status s = NULL;
  for (int64_t iter = 0;; iter++) {
    if (iter >= in->opts.max_while_iterations) {
      s = hr_op_error(op, HR_RESOURCE_EXHAUSTED, "more than %lld iterations", (long long)in->opts.max_while_iterations);
      break;
    }
    hr_code stop = hr_control_poll(in->opts.control);
    if (stop) {
      s = hr_op_error(op, stop, "%s (in iteration %lld)", hr_control_reason(stop), (long long)iter);
      break;
    }
    hr_tensor *cond;
    s = hr_interp_run_block(in, &op->regions[0], state, &cond);
    if (s) break;
    bool go_on = cond->nbytes >= 1 && scalar_true(cond);
    hr_tensor_free(cond);
    if (!go_on) break;
    s = hr_interp_run_block(in, &op->regions[1], state, next.items);
    if (s) break;
    for (int i = 0; i < n; i++) {
      if (owned) hr_tensor_free(results[i]);
      results[i] = next.items[i];
    }
    state = results;
    owned = true;
  }
  tensor_list_release(&next);
  if (s) {
    for (int i = 0; owned && i < n; i++) hr_tensor_free(results[i]);
    return s;
  }
  /* When the loop never ran the results are copies of the operands. */
  for (int i = 0; !owned && i < n && !s; i++) {
    s = tensor_copy(in, operands[i], &results[i]);
    if (s)
      for (int j = 0; j < i; j++) hr_tensor_free(results[j]);
  }
  return s ? s : check_results(op, results, n);
}

/* Runs region `index` (no arguments) and adopts its results: the body of if and case. */
static hr_status run_branch(hr_interp *in, const hr_op *op, int index, hr_tensor **results) {
  HR_TRY(hr_interp_run_block(in, &op->regions[index], NULL, results));
  return check_results(op, results, op->n_results);
}

static hr_status kernel_if(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (op->n_regions != 2) return hr_op_error(op, HR_VERIFY_ERROR, "expected two regions");
  return run_branch(in, op, scalar_true(operands[0]) ? 0 : 1, results);
}

static hr_status kernel_case(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (op->n_regions < 1) return hr_op_error(op, HR_VERIFY_ERROR, "expected at least one branch");
  int32_t index = ((const int32_t *)operands[0]->data)[0];
  /* Out-of-range indices select the last branch (StableHLO spec). */
  if (index < 0 || index >= op->n_regions) index = op->n_regions - 1;
  return run_branch(in, op, index, results);
}

/* optimization_barrier and sdy.sharding_constraint: their operands, unchanged. */
/* sdy.sharding_constraint: on one device, the value itself. */
static hr_status kernel_barrier(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  for (int i = 0; i < op->n_operands; i++) memcpy(results[i]->data, operands[i]->data, operands[i]->nbytes);
  return NULL;
}

/* stablehlo.optimization_barrier: its operands, unchanged. The interpreter lets it make its
 * results (NULL on entry): copies of the operands, tokens and tuples (packed bytes) included; an
 * executable gives it buffers for its (tensor) results, which it fills. */
static hr_status kernel_optimization_barrier(hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                                             hr_tensor **results) {
  if (op->n_results > 0 && results[0]) return kernel_barrier(in, op, operands, results);
  hr_status s = NULL;
  int done = 0;
  for (; !s && done < op->n_operands; done++) s = tensor_copy(in, operands[done], &results[done]);
  for (int i = 0; s && i < done; i++) {
    hr_tensor_free(results[i]);
    results[i] = NULL;
  }
  return s;
}

/* The integer value of a scalar integer operand (a dimension size or variable). */
static int64_t scalar_int(const hr_tensor *t) {
  switch (t->dtype) {
    case HR_I32: return ((const int32_t *)t->data)[0];
    case HR_I64: return ((const int64_t *)t->data)[0];
    case HR_U32: return ((const uint32_t *)t->data)[0];
    default: return 0;
  }
}

/* JAX's @shape_assertion(pred, values...) {error_message}: when pred is false, fails with the
 * message, each "{k}" replaced by value k (how jax.export checks that the shapes a shape-
 * polymorphic module is called with satisfy its constraints). */
static hr_status shape_assertion(const hr_op *op, hr_tensor *const *operands, int n) {
  if (n < 1 || operands[0]->dtype != HR_I1 || hr_tensor_num_elements(operands[0]) != 1)
    return hr_op_error(op, HR_VERIFY_ERROR, "@shape_assertion takes a scalar i1 predicate first");
  if (((const uint8_t *)operands[0]->data)[0]) return NULL;
  const hr_attr *msg = hr_op_attr(op, "error_message");
  const char *m = msg && msg->kind == HR_ATTR_STRING ? msg->u.str.data : "a shape assertion failed";
  char text[1024];
  size_t len = 0;
  while (*m && len + 24 < sizeof text) {
    char *end = NULL;
    long k = m[0] == '{' ? strtol(m + 1, &end, 10) : -1;
    if (k >= 0 && k + 1 < n && *end == '}' && end > m + 1) {
      len += (size_t)snprintf(text + len, sizeof text - len, "%lld", (long long)scalar_int(operands[k + 1]));
      m = end + 1;
    } else {
      text[len++] = *m++;
    }
  }
  text[len] = '\0';
  return hr_op_error(op, HR_INVALID_ARGUMENT, "%s", text);
}

static hr_status kernel_custom_call(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_attr *target = hr_op_attr(op, "call_target_name");
  if (!target || target->kind != HR_ATTR_STRING) return hr_op_error(op, HR_VERIFY_ERROR, "missing 'call_target_name'");
  const char *name = target->u.str.data;
  if (strncmp(name, "check.", 6) == 0) {
    if (!in->opts.run_checks) return NULL;
    HR_TRY(hr_check_custom_call(op, name, operands, op->n_operands, results, op->n_results));
    in->checks_passed++;
    return NULL;
  }
  if (strcmp(name, "shape_assertion") == 0) return shape_assertion(op, operands, op->n_operands);
  return hr_cc_run(in, op, operands, results);
}

/* The check dialect's ops: run only with run_checks, counted when they hold. */
/* The probe_id string attribute of `op`. */
static hr_status probe_id_of(const hr_op *op, const char **id, size_t *len) {
  const hr_attr *a = hr_op_attr(op, "probe_id");
  if (!a || a->kind != HR_ATTR_STRING || !a->u.str.data) return hr_op_error(op, HR_VERIFY_ERROR, "missing 'probe_id'");
  *id = a->u.str.data;
  *len = a->u.str.len;
  return NULL;
}

/* interpreter.probe: the operand, passed through and recorded (a copy) under its probe_id; the
 * records live as long as the interpreter. */
static hr_status kernel_probe(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  interp_impl *impl = impl_of(in);
  const char *id = NULL;
  size_t len = 0;
  HR_TRY(probe_id_of(op, &id, &len));
  if (results[0]->nbytes != operands[0]->nbytes)
    return hr_op_error(op, HR_INTERNAL, "result and operand differ in size");
  if (operands[0]->nbytes) memcpy(results[0]->data, operands[0]->data, operands[0]->nbytes);
  if (impl->n_probes >= PROBE_RECORDS_MAX || operands[0]->nbytes > in->opts.max_tensor_bytes - impl->probe_bytes)
    return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "probes recorded more than %d values or %zu bytes in this run",
                       PROBE_RECORDS_MAX, in->opts.max_tensor_bytes);
  if (impl->n_probes == impl->cap_probes) {
    int cap = impl->cap_probes ? impl->cap_probes * 2 : 16;
    probe_record *grown = in->allocator->alloc(in->allocator->ctx, sizeof *grown * (size_t)cap, _Alignof(probe_record));
    if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
    if (impl->n_probes) memcpy(grown, impl->probes, sizeof *grown * (size_t)impl->n_probes);
    if (impl->probes) in->allocator->free(in->allocator->ctx, impl->probes);
    impl->probes = grown;
    impl->cap_probes = cap;
  }
  hr_tensor *copy;
  HR_TRY(tensor_copy(in, operands[0], &copy));
  impl->probes[impl->n_probes++] = (probe_record){id, len, copy};
  impl->probe_bytes += copy->nbytes;
  return NULL;
}

/* interpreter.print: writes the operand to stdout (as StableHLO's interpreter does), whole even
 * when the processes of a grid print at once. */
static hr_status kernel_print(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  (void)in, (void)results;
  flockfile(stdout);
  hr_interp_print_value(stdout, op->operands[0]->name, operands[0]);
  funlockfile(stdout);
  return NULL;
}

/* check.expect_serialized_eq: the operand equals what the probe `probe_id` recorded in its
 * `iteration`-th run (default 0). */
static hr_status check_serialized(hr_interp *in, const hr_op *op, hr_tensor *const *operands) {
  interp_impl *impl = impl_of(in);
  const char *id = NULL;
  size_t len = 0;
  HR_TRY(probe_id_of(op, &id, &len));
  const hr_attr *it = hr_op_attr(op, "iteration");
  int64_t want = it && it->kind == HR_ATTR_INT ? it->u.i.value : 0;
  int64_t seen = 0;
  for (int i = 0; i < impl->n_probes; i++) {
    const probe_record *r = &impl->probes[i];
    if (r->id_len != len || memcmp(r->id, id, len) != 0) continue;
    if (seen++ == want) return hr_check_probed(op, operands[0], r->value);
  }
  return hr_op_error(op, HR_CHECK_FAILED, "check failed: probe \"%.*s\" recorded %lld values, none for iteration %lld",
                     (int)(len > 200 ? 200 : len), id, (long long)seen, (long long)want);
}

static hr_status kernel_check(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  (void)results;
  if (!in->opts.run_checks) return NULL;
  if (op->code == HR_OP_CHECK_EXPECT_SERIALIZED_EQ)
    HR_TRY(check_serialized(in, op, operands));
  else
    HR_TRY(hr_check_op(op, operands));
  in->checks_passed++;
  return NULL;
}

const hr_kernel hr_kernels_control[] = {
    {HR_OP_CONSTANT, kernel_constant},
    {HR_OP_CHLO_CONSTANT, kernel_constant},
    {HR_OP_FUNC_CALL, kernel_call},
    {HR_OP_WHILE, kernel_while},
    {HR_OP_IF, kernel_if},
    {HR_OP_CASE, kernel_case},
    {HR_OP_OPTIMIZATION_BARRIER, kernel_optimization_barrier},
    {HR_OP_SDY_SHARDING_CONSTRAINT, kernel_barrier},
    {HR_OP_CUSTOM_CALL, kernel_custom_call},
    {HR_OP_CHECK_EXPECT_ALMOST_EQ, kernel_check},
    {HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST, kernel_check},
    {HR_OP_CHECK_EXPECT_CLOSE, kernel_check},
    {HR_OP_CHECK_EXPECT_EQ, kernel_check},
    {HR_OP_CHECK_EXPECT_EQ_CONST, kernel_check},
    {HR_OP_CHECK_EXPECT_SERIALIZED_EQ, kernel_check},
    {HR_OP_INTERPRETER_PROBE, kernel_probe},
    {HR_OP_INTERPRETER_PRINT, kernel_print},
    {HR_OP_COUNT, NULL},
};

/* ---------------------------------------------------------------------------------------------- */
/* Entry point                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Fills the kernel table from the kernel groups; an op claimed twice is a bug. */
static hr_status register_kernels(hr_interp *in) {
  const hr_kernel *groups[] = {hr_kernels_control, hr_kernels_elementwise, hr_kernels_data, hr_kernels_reduce,
                               hr_kernels_hlorun, hr_kernels_tuple, hr_kernels_quant,
                               hr_kernels_chlo, hr_kernels_parallel};
  for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
    for (const hr_kernel *k = groups[g]; k->fn; k++) {
      if ((unsigned)k->code >= HR_OP_COUNT) return hr_error(HR_INTERNAL, "kernel table entry with a bad op code");
      if (in->kernels[k->code])
        return hr_error(HR_INTERNAL, "two kernels registered for %s", hr_opcode_name(k->code));
      in->kernels[k->code] = k->fn;
    }
  }
  return NULL;
}

static hr_run_options default_options(const hr_run_options *opts) {
  hr_run_options o = {0};
  if (opts) o = *opts;
  if (!o.allocator) o.allocator = hr_default_allocator();
  if (!o.max_tensor_bytes) o.max_tensor_bytes = HR_LIMIT_TENSOR_BYTES;
  if (!o.max_while_iterations) o.max_while_iterations = HR_LIMIT_WHILE_ITERATIONS;
  return o;
}

/* Checks the inputs against the function's parameter types. */
static hr_status check_inputs(const hr_func *fn, hr_tensor *const *inputs, int n) {
  if (n != fn->n_args)
    return hr_error(HR_INVALID_ARGUMENT, "@%s takes %d inputs, %d given", fn->name, fn->n_args, n);
  for (int i = 0; i < n; i++) {
    const hr_type *want = &fn->body.args[i].type;
    if (!inputs[i]) return hr_error(HR_INVALID_ARGUMENT, "input %d is missing", i);
    if (want->kind != HR_TYPE_TENSOR)
      return hr_error(HR_UNIMPLEMENTED, "@%s: parameter %d is not a tensor", fn->name, i);
    if (!tensor_matches(inputs[i], want))
      return hr_error(HR_INVALID_ARGUMENT, "@%s: input %d is %s with rank %d, which does not match parameter %d",
                      fn->name, i, hr_dtype_name(inputs[i]->dtype), inputs[i]->shape.rank, i);
  }
  return NULL;
}

hr_status hr_interp_create(const hr_module *m, const hr_run_options *opts, hr_interp **out) {
  *out = NULL;
  hr_run_options o = default_options(opts);
  interp_impl *impl = o.allocator->alloc(o.allocator->ctx, sizeof *impl, _Alignof(interp_impl));
  if (!impl) return hr_error(HR_OUT_OF_MEMORY, "out of memory creating an interpreter");
  memset(impl, 0, sizeof *impl);
  hr_interp *in = &impl->pub;
  in->module = m;
  in->opts = o;
  in->allocator = o.allocator;
  hr_status s = register_kernels(in);
  if (!s && o.num_threads != 1) s = hr_threadpool_create(in->allocator, o.num_threads, &in->pool);
  if (s) {
    o.allocator->free(o.allocator->ctx, impl);
    return s;
  }
  *out = in;
  return NULL;
}

void hr_interp_free(hr_interp *in) {
  if (!in) return;
  interp_impl *impl = impl_of(in);
  while (impl->top) hr_interp_leave(in);
  for (int i = 0; i < impl->n_probes; i++) hr_tensor_free(impl->probes[i].value);
  if (impl->probes) in->allocator->free(in->allocator->ctx, impl->probes);
  hr_threadpool_free(in->pool);
  in->allocator->free(in->allocator->ctx, impl);
}

hr_status hr_interp_enter(hr_interp *in, const hr_func *fn) {
  interp_impl *impl = impl_of(in);
  frame *f = in->allocator->alloc(in->allocator->ctx, sizeof *f, _Alignof(frame));
  if (!f) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_status s = frame_init(in, fn, f);
  if (s) {
    in->allocator->free(in->allocator->ctx, f);
    return s;
  }
  f->caller = impl->top;
  impl->top = f;
  return NULL;
}

void hr_interp_leave(hr_interp *in) {
  interp_impl *impl = impl_of(in);
  frame *f = impl->top;
  if (!f) return;
  impl->top = f->caller;
  frame_release(in, f);
  in->allocator->free(in->allocator->ctx, f);
}

hr_status hr_interp_exec_op(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  hr_kernel_fn kernel = hr_interp_kernel_for(in, op);
  if (!kernel) return hr_op_error(op, HR_UNIMPLEMENTED, "the interpreter does not implement this op");
  HR_TRY(hr_interp_check_types(op));
  if (op->code == HR_OP_COMPOSITE)
    return hr_op_error(op, HR_UNIMPLEMENTED, "composites are run only within a module");
  /* Tokens and tuples are carried as bytes inside a run only: a caller of one op sees tensors. */
  HR_TRY(reject_non_tensors(op));
  if (produces_own_results(op->code)) {
    for (int i = 0; i < op->n_results; i++) results[i] = NULL;
    return kernel(in, op, operands, results);
  }
  int made;
  hr_status s = alloc_results(in, op, operands, results, &made);
  if (!s) s = kernel(in, op, operands, results);
  if (s)
    for (int i = 0; i < made; i++) {
      hr_tensor_free(results[i]);
      results[i] = NULL;
    }
  return s;
}

hr_status hr_module_run(const hr_module *m, const char *fn_name, hr_tensor *const *inputs, int num_inputs,
                        const hr_run_options *opts, hr_tensor ***outputs, int *num_outputs) {
  *outputs = NULL;
  *num_outputs = 0;
  const hr_func *fn = hr_module_find_func(m, fn_name ? fn_name : "main");
  if (!fn || fn->is_declaration)
    return hr_error(HR_NOT_FOUND, "%s: no function @%s%s", m->filename, fn_name ? fn_name : "main",
                    fn ? " with a body (it is only declared)" : "");
  HR_TRY(check_inputs(fn, inputs, num_inputs));
  hr_interp *in;
  HR_TRY(hr_interp_create(m, opts, &in));
  const hr_allocator *da = hr_default_allocator();
  size_t n_out = fn->n_results ? (size_t)fn->n_results : 1;
  hr_tensor **out = da->alloc(da->ctx, n_out * sizeof *out, 16);
  hr_status s = out ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!s) s = hr_interp_call(in, fn, inputs, out);
  if (in->opts.checks_passed) *in->opts.checks_passed = in->checks_passed;
  hr_interp_free(in);
  if (s) {
    if (out) da->free(da->ctx, out);
    return s;
  }
  *outputs = out;
  *num_outputs = fn->n_results;
  return NULL;
}

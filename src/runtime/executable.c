/* Executables: one specialized function ("main", static shapes) planned once and run step by step,
 * each step by a fast kernel (fast.h) when one applies, else by the interpreter's kernel.
 *
 * Every top-level value of main owns a "slot", an hr_tensor view of its buffer:
 *   - runtime inputs point at the caller's tensors while a run lasts (used in place);
 *   - bound parameters point at the bound tensors (used in place, never copied);
 *   - constants are materialised once, at create time, into one constant storage (equal
 *     constants, as inlining produces, share one copy);
 *   - the result of a reshape of anything but a runtime input is an alias: it shares its
 *     operand's buffer (row-major data is the same) and its step does nothing;
 *   - the results (up to HR_EXEC_FOLD_MAX_BYTES each) of an op whose operands are all fixed (bound,
 *     constant, or such results) are "folded": computed once at create time, by the op's kernel,
 *     into the constant storage, and their step does nothing per run;
 *   - every other value (an intermediate) has a fixed offset in one arena allocated at create
 *     time. Offsets are assigned greedily by size (largest first, best-fitting gap): values whose
 *     lifetimes overlap get disjoint ranges, others share memory. A lifetime runs from the step
 *     defining the value to the last step reading it or an alias of it, where a read inside the
 *     regions of a later op counts as a read by that op, and the function's return reads at the
 *     end. The scratch memory of a fast kernel is a range of the arena live during its step only.
 * Arena and constants together must fit in hr_exec_options.max_arena_bytes. Placement compares
 * each intermediate with those placed before it: quadratic in the number of top-level values.
 *
 * Fast kernels are chosen once the constants exist (so that constant weights can be packed) and
 * before the arena is laid out (their scratch is part of it); hr_exec_options.disable_fusion
 * turns them off, hr_exec_options.bf16 asks for bf16 matrix products. The arena is zero-filled
 * when allocated, which maps its pages: runs do not page-fault on it.
 *
 * Running points the input slots at the inputs, then runs the steps in order. A reference
 * kernel's results are zero-filled first (those kernels expect zero-filled results); a fast
 * kernel writes every element itself. Results are copied into new tensors at the end. Nothing is
 * allocated per run but those (and what reference kernels allocate internally). An executable
 * split into chunks (hr_executable_set_chunks, a batch split) takes inputs and gives outputs
 * `chunks` times as long along dimension 0 as planned, and does this once per chunk on
 * consecutive slices of the inputs, copying each chunk's results into its slice of the outputs.
 *
 * Updates in place. A donated input (hr_executable_donated_output) whose output is the result of a
 * stablehlo.scatter reading that input as its operand (the KV cache a decode step updates) is
 * found when the executable is planned, if the scatter runs as a reference step on the host, no
 * step after it reads the input, the result is not returned twice, and neither value has a mirror
 * on another device. When hr_executable_run_into then gives the output the very buffer of the
 * input, and no other input shares it, the run points the result (and its aliases) at the
 * input's buffer, chunk by chunk: the scatter is neither zero-filled nor copies its operand (the
 * kernel skips copying a buffer onto itself), it writes only the updated windows, and the output
 * needs no copy at the end. Every other run (hr_executable_run, other buffers) uses the arena.
 *
 * Wrapped steps. Two kinds of ops cannot be called this way: the control-flow kernels that create
 * their own results (func.call, while, if, case), and ops whose regions read values of main
 * directly (captures: the interpreter finds such values in its frame of main, which the direct
 * path leaves empty). Such an op runs through hr_interp_run_block on a "wrapper": a block of main
 * made at create time whose arguments are copies of the main values the op reads (same value
 * ids, so binding the arguments binds those values in the frame), followed by the op itself and a
 * stablehlo.return of the results later steps read. The returned tensors are copied into the
 * arena and freed. Region evaluation needs main to be the interpreter's active function, so the
 * executable enters it at create time and leaves it when freed.
 *
 * Profiling. When the environment variable HLORUN_PROFILE is set (to anything but "" or "0") at
 * create time, every step's run time is accumulated and, when the executable is freed, a profile
 * is printed to stderr: the time per run by op and implementation, then the costliest steps, each
 * as the mean over the runs and the sum of the steps' fastest runs (on a noisy machine the
 * minimum shows what the code costs, the mean what the host added). A chunked call counts a run
 * per chunk; the header then also gives the calls and their chunks.
 */
#include "runtime/executable.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "base/limits.h"
#include "base/mapping.h"
#include "base/strbuf.h"
#include "ir/infer.h"
#include "interp/interp.h"
#include "runtime/exec_internal.h"

enum { BUFFER_ALIGN = 64 };
/* The devices an executable plans over: the host CPU (device 0) and at most one other. */
enum { MAX_DEVICES = 2 };

/* ---------------------------------------------------------------------------------------------- */
/* Plan structures                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

typedef enum slot_kind {
  SLOT_INPUT,    /* a runtime input: the caller's tensor during a run */
  SLOT_BOUND,    /* a parameter bound at create time: that tensor's memory */
  SLOT_CONSTANT, /* a stablehlo.constant: the constant storage */
  SLOT_FOLDED,   /* computed at create time from fixed values: the constant storage */
  SLOT_TEMP,     /* any other op result: a range of the arena */
} slot_kind;

/* A top-level value of main and its buffer, or the scratch memory of a fast kernel (a TEMP slot
 * without a value). */
typedef struct slot {
  hr_tensor view; /* the value's type and buffer; allocator NULL: nothing frees it */
  slot_kind kind;
  const hr_value *value; /* NULL for scratch */
  const hr_op *op;       /* the op defining the value or owning the scratch (NULL for parameters) */
  int def;       /* TEMP: the step defining the value */
  int last_use;  /* the last step reading it (n_steps: the return), -1 when nothing does */
  size_t size;   /* view.nbytes rounded up to BUFFER_ALIGN */
  size_t offset; /* TEMP: offset in the arena; CONSTANT: offset in the constant storage */
  int32_t same_as;  /* CONSTANT: an earlier constant slot whose storage this one shares, or -1 */
  int32_t alias_of; /* an alias (reshape result): the slot whose buffer it shares, or -1 */
  int home;         /* the device whose memory holds the buffer (0: the host) */
  int32_t mirror_of; /* a mirror: the slot whose value it copies onto another device, or -1 */
  bool preloaded;    /* a mirror of a fixed value: copied once at create time, live in every step */
} slot;

/* How a step runs. */
typedef enum step_kind {
  STEP_REFERENCE, /* the interpreter's kernel, on zero-filled results */
  STEP_KERNEL,    /* a kernel prepared by a device (on the CPU: a fast kernel) */
  STEP_WRAPPED,   /* the interpreter's block evaluator on a wrapper */
  STEP_ALIAS,     /* nothing: the result is an alias of the operand */
  STEP_FOLDED,    /* nothing: the results were computed at create time */
} step_kind;

/* One op run per call. */
typedef struct step {
  hr_op *op;
  step_kind kind;
  hr_kernel_fn kernel;         /* the op's reference kernel (NULL: none) */
  hr_device_kernel *prepared;  /* STEP_KERNEL: the device's kernel (owned) */
  int device;                  /* where it runs: STEP_KERNEL's device, else 0 (the host) */
  int32_t scratch;             /* STEP_KERNEL: the slot of its scratch memory (on its device), or -1 */
  int n_copies;
  int32_t *copies;             /* mirrors this step fills before it runs (each from its mirror_of) */
  hr_block *wrapper;    /* STEP_WRAPPED: the block evaluated to run the op */
  bool in_place;       /* this run: the result is its operand's buffer (see "Updates in place") */
  int n_args, n_results;
  hr_tensor **args;    /* direct: the op's operands; wrapped: the wrapper's arguments */
  hr_tensor **results; /* direct: every result; wrapped: the results the wrapper returns */
} step;

/* A donated input that a step may update in place (see "Updates in place" in the file comment). */
typedef struct in_place {
  int input, output;  /* the runtime input and the output it is donated to */
  int step;           /* the scatter defining the output from the input */
  int32_t param;      /* the input's slot */
  int32_t result;     /* the output's slot (the scatter's result) */
  void *planned;      /* the result's buffer in the arena, where other runs compute it */
  bool active;        /* the current run updates in place */
} in_place;

/* Run time of one step (profiling). */
typedef struct step_time {
  double seconds; /* over all runs */
  double fastest; /* the fastest run */
} step_time;

struct hr_executable {
  const hr_allocator *allocator;
  hr_allocator slab_allocator; /* for the prepared state of fast kernels: bump-allocated slabs */
  struct slab *slabs;          /* most recent first */
  hr_module *module; /* owned */
  hr_func *main;
  hr_weights *weights; /* retained, or NULL */
  hr_interp *interp;   /* kernels, thread pool, and the frame of main regions run in */
  bool entered;        /* main is the interpreter's active function */
  hr_arena plan;       /* everything below except the two buffers */
  int n_slots;
  slot *slots;      /* parameters first (slot i is parameter i), then op results in order, then
                       scratch slots (room for one per step) */
  int32_t *slot_of; /* value id -> slot; -1 for values inside regions */
  int n_steps;
  step *steps;
  int n_inputs;
  int *input_params; /* parameter index of each runtime input */
  hr_tensor_spec *input_specs;
  int n_outputs;
  int *output_slots;
  hr_tensor_spec *output_specs;
  hr_tensor **scratch; /* results handed back by a wrapped step */
  int n_devices;
  hr_device *devices[MAX_DEVICES]; /* [0]: the host CPU; [1]: the device asked for, if another */
  hr_stream *streams[MAX_DEVICES];
  bool queued[MAX_DEVICES];   /* work may be queued on the device's stream, not yet waited for */
  hr_buffer arenas[MAX_DEVICES]; /* the temps (and mirrors) of each device */
  hr_buffer constants;          /* host memory */
  int32_t *mirrors;  /* (slot, device) -> mirror slot or -1: n_value_slots * n_devices entries */
  int n_value_slots; /* slots of values (mirrors and scratch come after) */
  int *donor_output; /* per runtime input: the output it is donated to (jax.buffer_donor, tf.aliasing_output), or -1 */
  int n_in_place;
  in_place *in_place; /* the donated inputs that may be updated in place */
  hr_exec_stats stats;
  hr_exec_fast_stats fast_stats;
  hr_kernel_env kernel_env;
  step_time *profile; /* per step when profiling (HLORUN_PROFILE), else NULL */
  int64_t profiled_runs;  /* runs of the steps profiled */
  int64_t profiled_calls; /* calls they made up (fewer in a batch split: a run per chunk) */
  int64_t chunks;         /* runs of the steps per call (a batch split), each on a slice; 1: whole */
  atomic_flag running; /* set while a run is in progress (runs are not reentrant) */
};

/* Allocates zero-filled plan memory; NULL when out of memory or on overflow. */
static void *plan_calloc(hr_executable *e, size_t n, size_t size) {
  return hr_arena_calloc(&e->plan, n ? n : 1, size, 16);
}

static hr_status out_of_memory(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory planning an executable"); }

/* An error naming the position of function `fn`. */
__attribute__((format(printf, 3, 4))) static hr_status func_error(const hr_func *fn, hr_code code, const char *fmt,
                                                                  ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(code, "%s:%u:%u: @%s: %s", fn->loc.file ? fn->loc.file : "?", fn->loc.line, fn->loc.col, fn->name,
                  msg);
}

/* ---------------------------------------------------------------------------------------------- */
/* Slots                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* The slot of a value, or -1 when it is not a top-level value of main. */
static int32_t slot_index(const hr_executable *e, const hr_value *v) {
  return v->id < e->main->n_values ? e->slot_of[v->id] : -1;
}

/* Initialises slot `i` for value `v`, which must be a static tensor; sizes are overflow-checked. */
static hr_status slot_init(hr_executable *e, int32_t i, const hr_value *v, slot_kind kind, const hr_op *def_op) {
  slot *sl = &e->slots[i];
  const hr_type *t = &v->type;
  if (t->kind != HR_TYPE_TENSOR || !hr_type_is_static(t)) {
    const char *what = t->kind != HR_TYPE_TENSOR ? "is not a tensor" : "has a dynamic shape (not specialized?)";
    return def_op ? hr_op_error(def_op, HR_UNIMPLEMENTED, "result %u %s", v->index, what)
                  : func_error(e->main, HR_UNIMPLEMENTED, "parameter %u %s", v->index, what);
  }
  int64_t n = 0;
  size_t esize = hr_dtype_size(t->dtype);
  hr_status s = hr_shape_num_elements(&t->shape, &n);
  if (!s && (esize == 0 || (uint64_t)n > (SIZE_MAX - BUFFER_ALIGN) / esize))
    s = hr_error(HR_RESOURCE_EXHAUSTED, "a tensor of %lld elements is too large", (long long)n);
  if (s) {
    const hr_loc *at = def_op ? &def_op->loc : &e->main->loc;
    return hr_status_wrap(s, "%s:%u:%u: %s %u", at->file ? at->file : "?", at->line, at->col,
                          def_op ? hr_opcode_name(def_op->code) : "parameter", v->index);
  }
  sl->view.dtype = t->dtype;
  sl->view.shape = t->shape;
  sl->view.nbytes = (size_t)n * esize;
  sl->size = (sl->view.nbytes + BUFFER_ALIGN - 1) / BUFFER_ALIGN * BUFFER_ALIGN;
  sl->kind = kind;
  sl->value = v;
  sl->op = def_op;
  sl->def = -1;
  sl->last_use = -1;
  sl->same_as = -1;
  sl->alias_of = -1;
  sl->mirror_of = -1;
  if (v->id >= e->main->n_values) return func_error(e->main, HR_INTERNAL, "value id %u out of range", v->id);
  e->slot_of[v->id] = i;
  return NULL;
}

/* Checks a bound tensor against its parameter and makes the slot point at it. */
static hr_status bind_param(hr_executable *e, int p, const hr_tensor *t) {
  slot *sl = &e->slots[p];
  hr_tensor_spec got = {t->dtype, t->shape}, want = {sl->view.dtype, sl->view.shape};
  if (!hr_spec_equal(&got, &want)) {
    hr_status s = hr_spec_mismatch("the bound tensor", &got, &want);
    return hr_status_wrap(s, "%s:%u:%u: @%s: parameter %d", e->main->loc.file, e->main->loc.line, e->main->loc.col,
                          e->main->name, p);
  }
  if (t->nbytes != sl->view.nbytes || (t->nbytes && !t->data))
    return func_error(e->main, HR_INVALID_ARGUMENT, "the tensor bound to parameter %d has %zu bytes of data, expected %zu",
                      p, t->data ? t->nbytes : 0, sl->view.nbytes);
  sl->kind = SLOT_BOUND;
  sl->view.data = t->data;
  return NULL;
}

/* Creates the slots of the parameters (bound or runtime inputs) and of every op result, with
 * room after them for a scratch slot per op and a mirror of every value on every other device. */
static hr_status make_slots(hr_executable *e, const hr_tensor *const *bound) {
  const hr_block *body = &e->main->body;
  size_t n = (size_t)body->n_args;
  for (int k = 0; k < body->n_ops; k++) n += (size_t)body->ops[k]->n_results;
  size_t room = n * (size_t)e->n_devices + (size_t)body->n_ops;
  if (n > INT32_MAX / MAX_DEVICES || room > INT32_MAX) return func_error(e->main, HR_RESOURCE_EXHAUSTED, "too many values");
  e->n_slots = e->n_value_slots = (int)n;
  e->slots = plan_calloc(e, room, sizeof *e->slots);
  e->slot_of = plan_calloc(e, e->main->n_values, sizeof *e->slot_of);
  if (!e->slots || !e->slot_of) return out_of_memory();
  for (uint32_t i = 0; i < e->main->n_values; i++) e->slot_of[i] = -1;
  int32_t next = 0;
  for (int p = 0; p < body->n_args; p++) {
    HR_TRY(slot_init(e, next++, &body->args[p], SLOT_INPUT, NULL));
    if (bound && bound[p]) HR_TRY(bind_param(e, p, bound[p]));
  }
  for (int k = 0; k < body->n_ops; k++) {
    const hr_op *op = body->ops[k];
    slot_kind kind = op->code == HR_OP_CONSTANT ? SLOT_CONSTANT : SLOT_TEMP;
    for (int r = 0; r < op->n_results; r++) HR_TRY(slot_init(e, next++, &op->results[r], kind, op));
  }
  return NULL;
}

/* Lists the runtime inputs (unbound parameters) and their specs. */
static hr_status list_inputs(hr_executable *e) {
  int n = 0;
  for (int p = 0; p < e->main->n_args; p++) n += e->slots[p].kind == SLOT_INPUT;
  e->n_inputs = n;
  e->input_params = plan_calloc(e, (size_t)n, sizeof *e->input_params);
  e->input_specs = plan_calloc(e, (size_t)n, sizeof *e->input_specs);
  if (!e->input_params || !e->input_specs) return out_of_memory();
  n = 0;
  for (int p = 0; p < e->main->n_args; p++) {
    if (e->slots[p].kind != SLOT_INPUT) continue;
    e->input_params[n] = p;
    e->input_specs[n++] = hr_spec_of_type(&e->main->body.args[p].type);
  }
  return NULL;
}

/* The donation attribute `name` of parameter `p`, or NULL. */
static const hr_attr *param_attr(const hr_func *fn, int p, const char *name) {
  return fn->arg_attrs ? hr_attr_field(fn->arg_attrs[p], name) : NULL;
}

/* Pairs donated inputs with outputs: an input whose parameter says tf.aliasing_output = N is
 * donated to output N, one with jax.buffer_donor = true to the first output of its spec that no
 * other input took; only outputs of the input's exact spec qualify, each to one input. */
static hr_status find_donors(hr_executable *e, hr_arena *tmp) {
  e->donor_output = plan_calloc(e, (size_t)e->n_inputs, sizeof *e->donor_output);
  bool *taken = hr_arena_calloc(tmp, (size_t)e->n_outputs + 1, sizeof *taken, 16);
  if (!e->donor_output || !taken) return out_of_memory();
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < e->n_inputs; i++) {
      if (pass == 0) e->donor_output[i] = -1;
      const hr_attr *to = param_attr(e->main, e->input_params[i], "tf.aliasing_output");
      const hr_attr *donor = param_attr(e->main, e->input_params[i], "jax.buffer_donor");
      bool any = donor && (donor->kind == HR_ATTR_UNIT || (donor->kind == HR_ATTR_BOOL && donor->u.b));
      for (int j = 0; j < e->n_outputs && e->donor_output[i] < 0; j++) {
        bool named = pass == 0 && to && to->kind == HR_ATTR_INT && to->u.i.value == j;
        if (taken[j] || !(named || (pass == 1 && !to && any))) continue;
        if (!hr_spec_equal(&e->input_specs[i], &e->output_specs[j])) continue;
        e->donor_output[i] = j;
        taken[j] = true;
      }
    }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Steps and lifetimes                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* Whether the op's kernel creates its own results (see hr_kernel_fn in interp.h). */
static bool produces_own_results(hr_opcode code) {
  return code == HR_OP_FUNC_CALL || code == HR_OP_WHILE || code == HR_OP_IF || code == HR_OP_CASE;
}

/* Records step `user` as the latest reader of every main value `op` reads (its operands and those
 * of the ops in its regions); sets *captures when a main value is read inside a region. */
static void mark_reads(hr_executable *e, const hr_op *op, int user, bool nested, bool *captures) {
  for (int i = 0; i < op->n_operands; i++) {
    int32_t s = slot_index(e, op->operands[i]);
    if (s < 0) continue;
    e->slots[s].last_use = user;
    if (nested) *captures = true;
  }
  for (int r = 0; r < op->n_regions; r++)
    for (int k = 0; k < op->regions[r].n_ops; k++) mark_reads(e, op->regions[r].ops[k], user, true, captures);
}

/* Makes one step per top-level op except constants and the return, and computes every slot's
 * lifetime. A step is STEP_WRAPPED or STEP_REFERENCE here (fast kernels and aliases are chosen
 * later, wrappers built later); whether it has a kernel at all is checked once fast kernels are
 * known. */
static hr_status make_steps(hr_executable *e) {
  const hr_block *body = &e->main->body;
  int n = 0;
  for (int k = 0; k + 1 < body->n_ops; k++) n += body->ops[k]->code != HR_OP_CONSTANT;
  e->n_steps = n;
  e->steps = plan_calloc(e, (size_t)n, sizeof *e->steps);
  if (!e->steps) return out_of_memory();
  int i = 0;
  for (int k = 0; k + 1 < body->n_ops; k++) {
    hr_op *op = body->ops[k];
    if (op->code == HR_OP_CONSTANT) continue;
    if (hr_opcode_flags(op->code) & HR_OPF_TERMINATOR)
      return hr_op_error(op, HR_VERIFY_ERROR, "a terminator before the end of @%s", e->main->name);
    bool captures = false;
    mark_reads(e, op, i, false, &captures);
    for (int r = 0; r < op->n_results; r++) e->slots[slot_index(e, &op->results[r])].def = i;
    HR_TRY(hr_interp_check_types(op));
    e->steps[i].op = op;
    e->steps[i].kernel = hr_interp_kernel_for(e->interp, op);
    e->steps[i].kind = captures || produces_own_results(op->code) ? STEP_WRAPPED : STEP_REFERENCE;
    e->steps[i].scratch = -1;
    i++;
  }
  bool unused = false;
  mark_reads(e, body->ops[body->n_ops - 1], n, false, &unused);
  return NULL;
}

/* Checks the function's terminator and records which slots are returned. */
static hr_status list_outputs(hr_executable *e) {
  const hr_block *body = &e->main->body;
  const hr_op *ret = body->n_ops ? body->ops[body->n_ops - 1] : NULL;
  if (!ret || !(hr_opcode_flags(ret->code) & HR_OPF_TERMINATOR))
    return func_error(e->main, HR_VERIFY_ERROR, "the body does not end with a return");
  e->n_outputs = ret->n_operands;
  e->output_slots = plan_calloc(e, (size_t)ret->n_operands, sizeof *e->output_slots);
  e->output_specs = plan_calloc(e, (size_t)ret->n_operands, sizeof *e->output_specs);
  if (!e->output_slots || !e->output_specs) return out_of_memory();
  for (int i = 0; i < ret->n_operands; i++) {
    int32_t s = slot_index(e, ret->operands[i]);
    if (s < 0) return hr_op_error(ret, HR_INTERNAL, "operand %d is not a value of @%s", i, e->main->name);
    e->output_slots[i] = s;
    e->output_specs[i] = hr_spec_of_type(&ret->operands[i]->type);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Arena planning                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* The last step during which a temp's buffer is in use (its defining step when nothing reads it). */
static int lifetime_end(const slot *s) { return s->last_use > s->def ? s->last_use : s->def; }

static bool lifetimes_overlap(const slot *a, const slot *b) {
  return a->def <= lifetime_end(b) && b->def <= lifetime_end(a);
}

/* Orders temps by size, largest first; ties by definition order, then slot index. */
typedef struct temp_order {
  size_t size;
  int def;
  int32_t slot;
} temp_order;

static int compare_temps(const void *pa, const void *pb) {
  const temp_order *a = pa, *b = pb;
  if (a->size != b->size) return a->size > b->size ? -1 : 1;
  if (a->def != b->def) return a->def < b->def ? -1 : 1;
  return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Finds the offset for temp `t`: the smallest gap between buffers already placed (sorted by
 * offset in `placed`) that overlap it in time and can hold it, else the end of those buffers.
 * *pos receives the index at which `t` keeps `placed` sorted. */
static void find_gap(const hr_executable *e, const int32_t *placed, int n_placed, const slot *t, size_t *offset,
                     int *pos) {
  size_t end = 0, best = SIZE_MAX, best_gap = SIZE_MAX;
  for (int i = 0; i < n_placed; i++) {
    const slot *p = &e->slots[placed[i]];
    if (!lifetimes_overlap(t, p)) continue;
    if (p->offset > end && p->offset - end >= t->size && p->offset - end < best_gap) {
      best = end;
      best_gap = p->offset - end;
    }
    if (p->offset + p->size > end) end = p->offset + p->size;
  }
  *offset = best != SIZE_MAX ? best : end;
  int i = 0;
  while (i < n_placed && e->slots[placed[i]].offset <= *offset) i++;
  *pos = i;
}

/* Whether a slot gets a range of an arena: a non-empty temp (or mirror) that is not an alias. */
static bool is_placed_temp(const slot *s) { return s->kind == SLOT_TEMP && s->size > 0 && s->alias_of < 0; }

/* The error for temp `t` of device `d` not fitting in `limit` bytes: at the op defining it, or,
 * for the device's copy of a parameter (which no op defines), at the function. */
static hr_status arena_limit_error(const hr_executable *e, int d, const slot *t, size_t limit) {
  if (t->op)
    return hr_op_error(t->op, HR_RESOURCE_EXHAUSTED, "the executable's working memory exceeds the limit of %zu bytes",
                       limit);
  return func_error(e->main, HR_RESOURCE_EXHAUSTED,
                    "the executable's working memory on device %s (the copy of parameter %u) exceeds the limit of %zu "
                    "bytes",
                    e->devices[d]->name, t->value->index, limit);
}

/* Assigns every temp of device `d` an offset in its arena (greedy by size, best fit) within
 * `limit` bytes; returns the arena's size in *bytes. */
static hr_status place_temps_on(hr_executable *e, int d, hr_arena *tmp, size_t limit, size_t *bytes) {
  int n = 0;
  for (int i = 0; i < e->n_slots; i++) n += is_placed_temp(&e->slots[i]) && e->slots[i].home == d;
  temp_order *order = hr_arena_calloc(tmp, (size_t)(n ? n : 1), sizeof *order, 16);
  int32_t *placed = hr_arena_calloc(tmp, (size_t)(n ? n : 1), sizeof *placed, 16);
  if (!order || !placed) return out_of_memory();
  n = 0;
  size_t total = 0;
  for (int32_t i = 0; i < e->n_slots; i++) {
    const slot *s = &e->slots[i];
    if (!is_placed_temp(s) || s->home != d) continue;
    order[n++] = (temp_order){s->size, s->def, i};
    total = s->size > SIZE_MAX - total ? SIZE_MAX : total + s->size;
  }
  qsort(order, (size_t)n, sizeof *order, compare_temps);
  size_t arena_end = 0;
  for (int k = 0; k < n; k++) {
    slot *t = &e->slots[order[k].slot];
    size_t offset = 0;
    int pos = 0;
    find_gap(e, placed, k, t, &offset, &pos);
    if (offset > limit || t->size > limit - offset) return arena_limit_error(e, d, t, limit);
    t->offset = offset;
    memmove(placed + pos + 1, placed + pos, (size_t)(k - pos) * sizeof *placed);
    placed[pos] = order[k].slot;
    if (offset + t->size > arena_end) arena_end = offset + t->size;
  }
  *bytes = arena_end;
  e->stats.intermediate_bytes += total;
  return NULL;
}

/* Lays out the arena of every device; the host's and the other's sizes go to the stats. */
static hr_status place_temps(hr_executable *e, hr_arena *tmp, size_t limit) {
  for (int d = 0; d < e->n_devices; d++)
    HR_TRY(place_temps_on(e, d, tmp, limit, d == 0 ? &e->stats.arena_bytes : &e->stats.device_arena_bytes));
  return NULL;
}

/* An earlier constant slot among `distinct` holding the same value as constant `c`, or -1. */
static int32_t equal_constant(const hr_executable *e, const int32_t *distinct, int n, const slot *c) {
  const hr_attr *value = hr_op_attr(c->value->def, "value");
  for (int k = 0; value && k < n; k++) {
    const slot *d = &e->slots[distinct[k]];
    const hr_attr *other = hr_op_attr(d->value->def, "value");
    hr_tensor_spec sc = {c->view.dtype, c->view.shape}, sd = {d->view.dtype, d->view.shape};
    if (hr_spec_equal(&sc, &sd) && other && hr_attr_equal(value, other)) return distinct[k];
  }
  return -1;
}

/* Lays out the constant storage, where equal constants share one copy; fails when the constants
 * alone exceed `limit` (arena and constants together are checked once the arena is laid out). */
static hr_status place_constants(hr_executable *e, hr_arena *tmp, size_t limit) {
  int32_t *distinct = hr_arena_calloc(tmp, (size_t)e->n_slots + 1, sizeof *distinct, 16);
  if (!distinct) return out_of_memory();
  int n_distinct = 0;
  size_t used = 0;
  for (int32_t i = 0; i < e->n_slots; i++) {
    slot *s = &e->slots[i];
    if (s->kind != SLOT_CONSTANT && s->kind != SLOT_FOLDED) continue;
    s->same_as = s->kind == SLOT_CONSTANT ? equal_constant(e, distinct, n_distinct, s) : -1;
    if (s->same_as >= 0) {
      s->offset = e->slots[s->same_as].offset;
      continue;
    }
    distinct[n_distinct++] = i;
    if (s->size > limit - used)
      return hr_op_error(s->op, HR_RESOURCE_EXHAUSTED,
                         "the executable's constants and working memory exceed the limit of %zu bytes", limit);
    s->offset = used;
    used += s->size;
  }
  e->stats.constant_bytes = used;
  return NULL;
}

/* A slab of prepared state: fast kernels allocate their state (packed weights above all) many
 * blocks at a time from slabs of at least SLAB_BYTES, advised to use huge pages, so that filling
 * them takes few page faults. Blocks are never freed one by one: the slabs go when the executable
 * does. */
typedef struct slab {
  struct slab *next;
  size_t capacity, used;
  _Alignas(64) unsigned char data[];
} slab;

#define SLAB_BYTES ((size_t)4 << 20)

/* The offset in slab `s` of the next block of `size` bytes aligned to `align`, or SIZE_MAX when
 * it does not fit. */
static size_t slab_fit(const slab *s, size_t size, size_t align) {
  uintptr_t start = (uintptr_t)s->data;
  size_t off = (size_t)(((start + s->used + align - 1) & ~(uintptr_t)(align - 1)) - start);
  return off <= s->capacity && size <= s->capacity - off ? off : SIZE_MAX;
}

/* hr_allocator (ctx: the executable) bump-allocating from the executable's slabs. */
static void *slab_alloc(void *ctx, size_t size, size_t align) {
  hr_executable *e = ctx;
  size_t off = e->slabs ? slab_fit(e->slabs, size, align) : SIZE_MAX;
  if (off == SIZE_MAX) {
    if (size > SIZE_MAX - sizeof(slab) - 2 * align) return NULL;
    size_t cap = size + align > SLAB_BYTES ? size + align : SLAB_BYTES;
    slab *s = e->allocator->alloc(e->allocator->ctx, sizeof(slab) + cap, 64);
    if (!s) return NULL;
    hr_advise_huge_pages(s->data, cap);
    *s = (slab){.next = e->slabs, .capacity = cap, .used = 0};
    e->slabs = s;
    off = slab_fit(s, size, align);
  }
  e->slabs->used = off + size;
  return e->slabs->data + off;
}

/* Blocks of slabs are released with their slab. */
static void slab_free(void *ctx, void *p) {}

/* Allocates a zero-filled BUFFER_ALIGN-aligned buffer of device `d` (the CPU's maps its pages
 * now, so that the first run costs what later runs do). */
static hr_status alloc_buffer(hr_executable *e, int d, size_t n, hr_buffer *out) {
  hr_device *dev = e->devices[d];
  hr_status s = dev->backend->buffer_alloc(dev->state, n ? n : BUFFER_ALIGN, BUFFER_ALIGN, out);
  return s ? hr_status_wrap(s, "an executable of @%s on device %s", e->main->name, dev->name) : NULL;
}

/* Points every alias whose buffer owner is of kind `kind` at that buffer. */
static void point_aliases(hr_executable *e, slot_kind kind) {
  for (int i = 0; i < e->n_slots; i++) {
    slot *s = &e->slots[i];
    if (s->alias_of >= 0 && e->slots[s->alias_of].kind == kind) s->view.data = e->slots[s->alias_of].view.data;
  }
}

static hr_status link_direct(hr_executable *e, step *st);
static hr_status preload_mirrors(hr_executable *e);
static void collect_reads(hr_executable *e, const hr_op *op, int stamp, int *seen, int32_t *list, int *n);

/* Links and runs the folded steps, in order (their results are zero-filled, as reference kernels
 * expect). */
static hr_status run_folded(hr_executable *e) {
  for (int i = 0; i < e->n_steps; i++) {
    step *st = &e->steps[i];
    if (st->kind != STEP_FOLDED) continue;
    HR_TRY(link_direct(e, st));
    HR_TRY(st->kernel(e->interp, st->op, st->args, st->results));
  }
  return NULL;
}

/* Allocates the constant storage, points the constant and folded slots (and their aliases) into
 * it, evaluates the constants and runs the folded steps. */
static hr_status materialise_constants(hr_executable *e) {
  HR_TRY(alloc_buffer(e, 0, e->stats.constant_bytes, &e->constants));
  hr_kernel_fn constant = e->interp->kernels[HR_OP_CONSTANT];
  for (int i = 0; i < e->n_slots; i++) {
    slot *s = &e->slots[i];
    if (s->kind != SLOT_CONSTANT && s->kind != SLOT_FOLDED) continue;
    s->view.data = (unsigned char *)e->constants.data + s->offset;
    if (s->kind == SLOT_FOLDED || s->same_as >= 0 || s->view.nbytes == 0) continue; /* shared, or empty */
    hr_tensor *result = &s->view;
    if (!constant) return hr_op_error(s->op, HR_UNIMPLEMENTED, "no kernel implements this op");
    HR_TRY(constant(e->interp, s->op, NULL, &result));
  }
  point_aliases(e, SLOT_CONSTANT);
  point_aliases(e, SLOT_BOUND);
  point_aliases(e, SLOT_FOLDED);
  return run_folded(e);
}

/* Allocates the arenas (after checking them and the constants against `limit`), points the
 * temps, mirrors, scratch ranges and aliases of temps into them, and fills the preloaded mirrors. */
static hr_status materialise_arenas(hr_executable *e, size_t limit) {
  const hr_exec_stats *st = &e->stats;
  if (st->arena_bytes > limit - st->constant_bytes || st->device_arena_bytes > limit - st->constant_bytes - st->arena_bytes)
    return func_error(e->main, HR_RESOURCE_EXHAUSTED,
                      "the executable's constants and working memory exceed the limit of %zu bytes", limit);
  for (int d = 0; d < e->n_devices; d++)
    HR_TRY(alloc_buffer(e, d, d == 0 ? st->arena_bytes : st->device_arena_bytes, &e->arenas[d]));
  for (int i = 0; i < e->n_slots; i++) {
    slot *s = &e->slots[i];
    if (is_placed_temp(s)) s->view.data = (unsigned char *)e->arenas[s->home].data + s->offset;
  }
  point_aliases(e, SLOT_TEMP);
  return preload_mirrors(e);
}

/* ---------------------------------------------------------------------------------------------- */
/* Aliases and fast kernels                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Makes the result of every reshape (but those requantizing, hr_quant_op_role) whose operand is not
 * a runtime input an alias of the buffer the operand uses (the first buffer of a chain of
 * reshapes); its step then does nothing. A temp aliased this way lives as long as its
 * longest-living alias. */
static void make_aliases(hr_executable *e) {
  for (int i = 0; i < e->n_steps; i++) {
    step *st = &e->steps[i];
    if (st->op->code != HR_OP_RESHAPE || st->kind != STEP_REFERENCE) continue;
    if (hr_quant_op_role(st->op) == HR_QUANT_VALUES) continue; /* per-axis: its values are requantized */
    int32_t from = slot_index(e, st->op->operands[0]);
    if (from < 0) continue;
    if (e->slots[from].alias_of >= 0) from = e->slots[from].alias_of;
    slot *owner = &e->slots[from], *to = &e->slots[slot_index(e, &st->op->results[0])];
    if (owner->kind == SLOT_INPUT || to->view.nbytes != owner->view.nbytes) continue;
    to->alias_of = from;
    st->kind = STEP_ALIAS;
    e->fast_stats.num_alias_steps++;
    if (owner->kind == SLOT_TEMP && to->last_use > owner->last_use) owner->last_use = to->last_use;
  }
}

/* Whether a slot's data is the same in every run (a constant, bound parameter or folded value, or
 * an alias of one). */
static bool is_fixed(const hr_executable *e, const slot *s) {
  slot_kind k = s->alias_of >= 0 ? e->slots[s->alias_of].kind : s->kind;
  return k == SLOT_BOUND || k == SLOT_CONSTANT || k == SLOT_FOLDED;
}

/* Whether step `st` can be folded: a direct reference step without side effects (nor randomness,
 * nor results that depend on the process: collectives, device ids) whose operands are all fixed
 * and whose results are at most HR_EXEC_FOLD_MAX_BYTES each. */
static bool is_foldable(const hr_executable *e, const step *st) {
  const hr_op *op = st->op;
  if (st->kind != STEP_REFERENCE || !st->kernel ||
      (hr_opcode_flags(op->code) & (HR_OPF_SIDE_EFFECT | HR_OPF_PROCESS)) ||
      op->code == HR_OP_CUSTOM_CALL || op->code == HR_OP_RNG || op->code == HR_OP_RNG_BIT_GENERATOR)
    return false;
  for (int i = 0; i < op->n_operands; i++) {
    int32_t s = slot_index(e, op->operands[i]);
    if (s < 0 || !is_fixed(e, &e->slots[s])) return false;
  }
  for (int r = 0; r < op->n_results; r++)
    if (e->slots[slot_index(e, &op->results[r])].view.nbytes > HR_EXEC_FOLD_MAX_BYTES) return false;
  return true;
}

/* Marks the foldable steps (in order, so that folded results make later steps foldable) and
 * their results. */
static void mark_folded(hr_executable *e) {
  for (int i = 0; i < e->n_steps; i++) {
    step *st = &e->steps[i];
    if (!is_foldable(e, st)) continue;
    st->kind = STEP_FOLDED;
    for (int r = 0; r < st->op->n_results; r++) e->slots[slot_index(e, &st->op->results[r])].kind = SLOT_FOLDED;
    e->fast_stats.num_folded_steps++;
  }
}

/* Adds a scratch slot of `bytes` on device `d` live during step `i` only; returns its index. */
static int32_t add_scratch(hr_executable *e, int i, int d, size_t bytes) {
  int32_t index = e->n_slots++;
  slot *s = &e->slots[index];
  *s = (slot){.kind = SLOT_TEMP, .op = e->steps[i].op, .def = i, .last_use = i, .same_as = -1, .alias_of = -1,
              .home = d, .mirror_of = -1};
  s->view.dtype = HR_U8;
  s->view.shape = (hr_shape){.rank = 1, .dims = {(int64_t)bytes}};
  s->view.nbytes = bytes;
  s->size = (bytes + BUFFER_ALIGN - 1) / BUFFER_ALIGN * BUFFER_ALIGN;
  return index;
}

/* Prepares a kernel of device `d` for step i when the device supports the op and has one
 * (operand and result arrays from `tmp`; operand data valid where fixed, on the host). */
static hr_status try_kernel(hr_executable *e, int i, int d, hr_arena *tmp) {
  step *st = &e->steps[i];
  const hr_op *op = st->op;
  /* A tensor of quantized values holds stored integers whose meaning is in the op's types, which a
   * device kernel does not see: those ops run the interpreter's kernels (hr_interp_kernel_for). */
  if (hr_quant_op_role(op) != HR_QUANT_NONE) return NULL;
  hr_device *dev = e->devices[d];
  const hr_tensor **operands = hr_arena_calloc(tmp, (size_t)op->n_operands + 1, sizeof *operands, 16);
  const hr_tensor **results = hr_arena_calloc(tmp, (size_t)op->n_results + 1, sizeof *results, 16);
  bool *fixed = hr_arena_calloc(tmp, (size_t)op->n_operands + 1, sizeof *fixed, 16);
  if (!operands || !results || !fixed) return out_of_memory();
  for (int k = 0; k < op->n_operands; k++) {
    int32_t s = slot_index(e, op->operands[k]);
    if (s < 0) return NULL;
    operands[k] = &e->slots[s].view;
    fixed[k] = is_fixed(e, &e->slots[s]);
  }
  for (int k = 0; k < op->n_results; k++) results[k] = &e->slots[slot_index(e, &op->results[k])].view;
  if (!dev->backend->supports(dev->state, op, operands, results)) return NULL;
  HR_TRY(dev->backend->prepare(dev->state, &e->kernel_env, op, operands, fixed, results, &st->prepared));
  if (!st->prepared) return NULL;
  st->kind = STEP_KERNEL;
  st->device = d;
  size_t bytes = dev->backend->kernel_scratch_bytes(st->prepared);
  if (bytes) st->scratch = add_scratch(e, i, d, bytes);
  e->fast_stats.num_fast_steps++;
  e->fast_stats.scratch_bytes += bytes;
  if (d > 0) e->stats.num_device_steps++;
  return NULL;
}

/* Chooses a kernel for every direct step: the other device's when it has one, else the CPU's
 * fast kernel (unless disabled), else the step stays a reference step on the host; checks that
 * every reference or wrapped step has a kernel. */
static hr_status choose_kernels(hr_executable *e, const hr_exec_options *opts, hr_arena *tmp) {
  e->kernel_env = (hr_kernel_env){.allocator = &e->slab_allocator, .pool = e->interp->pool, .bf16 = opts && opts->bf16};
  bool fast = !(opts && opts->disable_fusion);
  for (int i = 0; i < e->n_steps; i++) {
    step *st = &e->steps[i];
    for (int d = e->n_devices - 1; d >= 0 && st->kind == STEP_REFERENCE; d--)
      if (d > 0 || fast) HR_TRY(try_kernel(e, i, d, tmp));
    if ((st->kind == STEP_REFERENCE || st->kind == STEP_WRAPPED) && !st->kernel)
      return hr_op_error(st->op, HR_UNIMPLEMENTED, "no kernel implements this op");
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Devices: homes, mirrors and copies                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* Opens the host CPU (device 0) and, when the options name another device, that one (device 1),
 * with a stream on each. */
static hr_status open_devices(hr_executable *e, const hr_exec_options *opts) {
  const char *name = opts ? opts->device : "";
  if (opts && !memchr(opts->device, 0, sizeof opts->device))
    return hr_error(HR_INVALID_ARGUMENT, "hr_exec_options.device is not a NUL-terminated name");
  HR_TRY(hr_device_open("cpu", e->allocator, &e->devices[0]));
  e->n_devices = 1;
  if (name[0]) {
    hr_device *d = NULL;
    HR_TRY(hr_device_open(name, e->allocator, &d));
    if (d->backend == &hr_cpu_backend)
      hr_device_close(d); /* the host itself */
    else
      e->devices[e->n_devices++] = d;
  }
  for (int d = 0; d < e->n_devices; d++) {
    hr_device *dev = e->devices[d];
    HR_TRY(dev->backend->stream_create(dev->state, &e->streams[d]));
  }
  return NULL;
}

/* Homes every result on the device of the step defining it, every alias with its owner. */
static void set_homes(hr_executable *e) {
  for (int i = 0; i < e->n_steps; i++) {
    const step *st = &e->steps[i];
    for (int r = 0; r < st->op->n_results; r++) e->slots[slot_index(e, &st->op->results[r])].home = st->device;
  }
  for (int i = 0; i < e->n_slots; i++)
    if (e->slots[i].alias_of >= 0) e->slots[i].home = e->slots[e->slots[i].alias_of].home;
}

/* The slot holding slot s's value on device d: s itself when at home there, else its mirror. */
static int32_t slot_on(const hr_executable *e, int32_t s, int d) {
  if (e->slots[s].home == d || !e->mirrors) return s;
  int32_t m = e->mirrors[(size_t)s * (size_t)e->n_devices + (size_t)d];
  return m >= 0 ? m : s;
}

/* The mirror of value slot `s` on device `d` for step `i`, made on first use; *fill says whether
 * step i must fill it (a new mirror of a value that is not fixed: fixed ones are preloaded once). */
static int32_t use_mirror(hr_executable *e, int32_t s, int d, int i, bool *fill) {
  int32_t *m = &e->mirrors[(size_t)s * (size_t)e->n_devices + (size_t)d];
  *fill = false;
  if (*m >= 0) {
    if (!e->slots[*m].preloaded && e->slots[*m].last_use < i) e->slots[*m].last_use = i;
    return *m;
  }
  const slot *src = &e->slots[s];
  bool fixed = is_fixed(e, src);
  *m = e->n_slots++;
  slot *dst = &e->slots[*m];
  *dst = (slot){.view = src->view, .kind = SLOT_TEMP, .value = src->value, .op = src->op, .def = fixed ? 0 : i,
                .last_use = fixed ? e->n_steps : i, .size = src->size, .same_as = -1, .alias_of = -1, .home = d,
                .mirror_of = s, .preloaded = fixed};
  dst->view.data = NULL;
  *fill = !fixed;
  return *m;
}

/* Gives step `i` a mirror of every value it reads that lives on another device, and the list of
 * those it fills (`seen` and `reads`, n_slots entries each, are scratch). */
static hr_status add_step_mirrors(hr_executable *e, int i, int *seen, int32_t *reads) {
  step *st = &e->steps[i];
  int n = 0;
  collect_reads(e, st->op, i + 1, seen, reads, &n); /* a direct step's regions read no main value */
  int32_t *fills = NULL;
  for (int k = 0; k < n; k++) {
    if (e->slots[reads[k]].home == st->device) continue;
    bool fill = false;
    int32_t m = use_mirror(e, reads[k], st->device, i, &fill);
    if (!fill) continue;
    if (!fills && !(fills = plan_calloc(e, (size_t)n, sizeof *fills))) return out_of_memory();
    fills[st->n_copies++] = m;
  }
  st->copies = fills;
  e->stats.num_copies += st->n_copies;
  return NULL;
}

/* Makes the mirrors values need on the devices that read them (none with the host alone). */
static hr_status add_mirrors(hr_executable *e, hr_arena *tmp) {
  if (e->n_devices == 1) return NULL;
  set_homes(e);
  size_t n = (size_t)e->n_value_slots * (size_t)e->n_devices;
  e->mirrors = plan_calloc(e, n, sizeof *e->mirrors);
  int *seen = hr_arena_calloc(tmp, (size_t)e->n_value_slots + 1, sizeof *seen, 16);
  int32_t *reads = hr_arena_calloc(tmp, (size_t)e->n_value_slots + 1, sizeof *reads, 16);
  if (!e->mirrors || !seen || !reads) return out_of_memory();
  for (size_t k = 0; k < n; k++) e->mirrors[k] = -1;
  for (int i = 0; i < e->n_steps; i++)
    if (e->steps[i].kind != STEP_ALIAS && e->steps[i].kind != STEP_FOLDED) HR_TRY(add_step_mirrors(e, i, seen, reads));
  return NULL;
}

/* Copies every preloaded mirror's fixed value onto its device, and waits for the copies. */
static hr_status preload_mirrors(hr_executable *e) {
  for (int i = e->n_value_slots; i < e->n_slots; i++) {
    const slot *m = &e->slots[i];
    if (!m->preloaded || !m->view.nbytes) continue;
    hr_device *dev = e->devices[m->home];
    HR_TRY(dev->backend->copy_from_host(dev->state, e->streams[m->home], m->view.data,
                                        e->slots[m->mirror_of].view.data, m->view.nbytes));
    e->stats.num_preloaded++;
  }
  for (int d = 1; d < e->n_devices; d++) HR_TRY(e->devices[d]->backend->synchronize(e->devices[d]->state, e->streams[d]));
  return NULL;
}

/* Fills the mirrors step `st` reads: copies from the host onto its device, or onto the host from
 * the device holding the value; queued on that device's stream. */
static hr_status fill_mirrors(hr_executable *e, const step *st) {
  for (int k = 0; k < st->n_copies; k++) {
    const slot *m = &e->slots[st->copies[k]], *src = &e->slots[m->mirror_of];
    if (!m->view.nbytes) continue;
    int d = m->home ? m->home : src->home;
    hr_device *dev = e->devices[d];
    hr_status s = m->home ? dev->backend->copy_from_host(dev->state, e->streams[d], m->view.data, src->view.data,
                                                         m->view.nbytes)
                          : dev->backend->copy_to_host(dev->state, e->streams[d], m->view.data, src->view.data,
                                                       m->view.nbytes);
    if (s) return hr_status_wrap(s, "%s:%u:%u: %s: copying an operand", st->op->loc.file ? st->op->loc.file : "?",
                                 st->op->loc.line, st->op->loc.col, hr_opcode_name(st->op->code));
    e->queued[d] = true;
  }
  return NULL;
}

/* Waits for the work queued on the devices other than the host (before the host reads or
 * overwrites memory that work may use: host steps do not overlap device work). */
static hr_status wait_devices(hr_executable *e) {
  for (int d = 1; d < e->n_devices; d++) {
    if (!e->queued[d]) continue;
    HR_TRY(e->devices[d]->backend->synchronize(e->devices[d]->state, e->streams[d]));
    e->queued[d] = false;
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Step operands and wrappers                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Appends to `list` (deduplicated through seen[slot] == stamp) the slots of the main values `op`
 * reads, its regions included. */
static void collect_reads(hr_executable *e, const hr_op *op, int stamp, int *seen, int32_t *list, int *n) {
  for (int i = 0; i < op->n_operands; i++) {
    int32_t s = slot_index(e, op->operands[i]);
    if (s < 0 || seen[s] == stamp) continue;
    seen[s] = stamp;
    list[(*n)++] = s;
  }
  for (int r = 0; r < op->n_regions; r++)
    for (int k = 0; k < op->regions[r].n_ops; k++) collect_reads(e, op->regions[r].ops[k], stamp, seen, list, n);
}

/* Points a direct step's operand and result arrays at the slot views. */
static hr_status link_direct(hr_executable *e, step *st) {
  const hr_op *op = st->op;
  st->n_args = op->n_operands;
  st->n_results = op->n_results;
  st->args = plan_calloc(e, (size_t)op->n_operands, sizeof *st->args);
  st->results = plan_calloc(e, (size_t)op->n_results, sizeof *st->results);
  if (!st->args || !st->results) return out_of_memory();
  for (int i = 0; i < op->n_operands; i++) {
    int32_t s = slot_index(e, op->operands[i]);
    if (s < 0) return hr_op_error(op, HR_INTERNAL, "operand %d is not a value of @%s", i, e->main->name);
    st->args[i] = &e->slots[slot_on(e, s, st->device)].view;
  }
  for (int i = 0; i < op->n_results; i++) st->results[i] = &e->slots[slot_index(e, &op->results[i])].view;
  return NULL;
}

/* Builds the wrapper block of a wrapped step (see the file comment) and its argument and result
 * arrays. `reads` (capacity n_slots) and `seen` are scratch. */
static hr_status link_wrapped(hr_executable *e, step *st, int stamp, int *seen, int32_t *reads) {
  hr_op *op = st->op;
  int n_reads = 0;
  collect_reads(e, op, stamp, seen, reads, &n_reads);
  int n_returned = 0;
  for (int r = 0; r < op->n_results; r++) n_returned += e->slots[slot_index(e, &op->results[r])].last_use >= 0;
  hr_block *w = plan_calloc(e, 1, sizeof *w);
  hr_op *ret = plan_calloc(e, 1, sizeof *ret);
  hr_value *args = plan_calloc(e, (size_t)n_reads, sizeof *args);
  hr_op **ops = plan_calloc(e, 2, sizeof *ops);
  hr_value **returned = plan_calloc(e, (size_t)n_returned, sizeof *returned);
  st->args = plan_calloc(e, (size_t)n_reads, sizeof *st->args);
  st->results = plan_calloc(e, (size_t)n_returned, sizeof *st->results);
  if (!w || !ret || !args || !ops || !returned || !st->args || !st->results) return out_of_memory();
  for (int i = 0; i < n_reads; i++) {
    args[i] = *e->slots[reads[i]].value; /* same id: binds the value itself */
    st->args[i] = &e->slots[slot_on(e, reads[i], 0)].view;
  }
  n_returned = 0;
  for (int r = 0; r < op->n_results; r++) {
    slot *s = &e->slots[slot_index(e, &op->results[r])];
    if (s->last_use < 0) continue;
    returned[n_returned] = &op->results[r];
    st->results[n_returned++] = &s->view;
  }
  ret->code = HR_OP_RETURN;
  ret->n_operands = n_returned;
  ret->operands = returned;
  ret->parent = w;
  ret->loc = op->loc;
  ops[0] = op;
  ops[1] = ret;
  *w = (hr_block){.n_args = n_reads, .args = args, .n_ops = 2, .ops = ops, .func = e->main};
  st->wrapper = w;
  st->n_args = n_reads;
  st->n_results = n_returned;
  return NULL;
}

/* Links every step to its buffers; sizes the scratch array for wrapped steps. */
static hr_status link_steps(hr_executable *e, hr_arena *tmp) {
  int *seen = hr_arena_calloc(tmp, (size_t)e->n_slots + 1, sizeof *seen, 16);
  int32_t *reads = hr_arena_calloc(tmp, (size_t)e->n_slots + 1, sizeof *reads, 16);
  if (!seen || !reads) return out_of_memory();
  int max_returned = 1;
  for (int i = 0; i < e->n_steps; i++) {
    step *st = &e->steps[i];
    if (st->kind == STEP_ALIAS || st->kind == STEP_FOLDED) continue;
    e->stats.num_steps++;
    if (st->kind != STEP_WRAPPED) {
      HR_TRY(link_direct(e, st));
      continue;
    }
    HR_TRY(link_wrapped(e, st, i + 1, seen, reads));
    if (st->n_results > max_returned) max_returned = st->n_results;
    e->stats.num_wrapped_steps++;
  }
  e->scratch = plan_calloc(e, (size_t)max_returned, sizeof *e->scratch);
  return e->scratch ? NULL : out_of_memory();
}

/* ---------------------------------------------------------------------------------------------- */
/* Updates in place                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* Whether [a, a + na) and [b, b + nb) share a byte. */
static bool overlaps(const void *a, size_t na, const void *b, size_t nb) {
  const char *x = a, *y = b;
  return na && nb && x < y + nb && y < x + na;
}

/* Whether slot `s` has a mirror on any device. */
static bool has_mirror(const hr_executable *e, int32_t s) {
  for (int d = 0; e->mirrors && d < e->n_devices; d++)
    if (e->mirrors[(size_t)s * (size_t)e->n_devices + (size_t)d] >= 0) return true;
  return false;
}

/* The step that may update runtime input `i` in place (see the file comment), or -1: a reference
 * scatter on the host with one result, which is output donor_output[i] (returned once), reading
 * the input as its operand and nowhere else, the input read by no later step, no mirrors. */
static int in_place_step(const hr_executable *e, int i) {
  int j = e->donor_output[i];
  if (j < 0) return -1;
  int32_t p = e->input_params[i], r = e->output_slots[j];
  const slot *res = &e->slots[r];
  if (res->kind != SLOT_TEMP || res->alias_of >= 0 || res->def < 0 || res->size == 0) return -1;
  for (int k = 0; k < e->n_outputs; k++)
    if (k != j && e->output_slots[k] == r) return -1;
  const step *st = &e->steps[res->def];
  const hr_op *op = st->op;
  if (op->code != HR_OP_SCATTER || st->kind != STEP_REFERENCE || st->device != 0 || op->n_results != 1 ||
      op->n_operands != 3 || slot_index(e, op->operands[0]) != p || e->slots[p].last_use != res->def)
    return -1;
  for (int k = 1; k < op->n_operands; k++)
    if (slot_index(e, op->operands[k]) == p) return -1;
  if (has_mirror(e, p) || has_mirror(e, r)) return -1;
  return res->def;
}

/* Lists the donated inputs that runs may update in place. */
static hr_status find_in_place(hr_executable *e) {
  e->in_place = plan_calloc(e, (size_t)e->n_inputs, sizeof *e->in_place);
  if (!e->in_place) return out_of_memory();
  for (int i = 0; i < e->n_inputs; i++) {
    int d = in_place_step(e, i);
    if (d < 0) continue;
    int32_t r = e->output_slots[e->donor_output[i]];
    e->stats.num_in_place++;
    e->in_place[e->n_in_place++] = (in_place){.input = i, .output = e->donor_output[i], .step = d,
                                              .param = e->input_params[i], .result = r,
                                              .planned = e->slots[r].view.data};
  }
  return NULL;
}

/* Points the result of in-place update `u` and its aliases at `data`. */
static void point_in_place(hr_executable *e, const in_place *u, void *data) {
  e->slots[u->result].view.data = data;
  for (int k = 0; k < e->n_slots; k++)
    if (e->slots[k].alias_of == u->result) e->slots[k].view.data = data;
}

/* Decides which in-place updates a run_into call makes: those whose output is given the very
 * buffer of the input, which no other input shares. */
static void choose_in_place(hr_executable *e, hr_tensor *const *inputs, hr_tensor *const *outputs) {
  for (int k = 0; k < e->n_in_place; k++) {
    in_place *u = &e->in_place[k];
    const hr_tensor *in = inputs[u->input], *out = outputs[u->output];
    u->active = in->data && in->data == out->data && in->nbytes == out->nbytes;
    for (int i = 0; u->active && i < e->n_inputs; i++)
      if (i != u->input && overlaps(in->data, in->nbytes, inputs[i]->data, inputs[i]->nbytes)) u->active = false;
    e->steps[u->step].in_place = u->active;
  }
}

/* Before each chunk: points the active updates' results at their inputs' current chunk. */
static void bind_in_place(hr_executable *e) {
  for (int k = 0; k < e->n_in_place; k++)
    if (e->in_place[k].active) point_in_place(e, &e->in_place[k], e->slots[e->in_place[k].param].view.data);
}

/* After a call: the results back in the arena, no update active. */
static void unbind_in_place(hr_executable *e) {
  for (int k = 0; k < e->n_in_place; k++) {
    in_place *u = &e->in_place[k];
    if (!u->active) continue;
    point_in_place(e, u, u->planned);
    u->active = false;
    e->steps[u->step].in_place = false;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Creation                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Creates the interpreter whose kernels, thread pool and frame of main the executable uses. */
static hr_status make_interp(hr_executable *e, const hr_exec_options *opts) {
  hr_run_options ro = {.allocator = e->allocator, .num_threads = opts ? opts->num_threads : 0};
  HR_TRY(hr_interp_create(e->module, &ro, &e->interp));
  HR_TRY(hr_interp_enter(e->interp, e->main));
  e->entered = true;
  return NULL;
}

/* Starts profiling when HLORUN_PROFILE asks for it (see the file comment). */
static hr_status start_profile(hr_executable *e) {
  const char *want = getenv("HLORUN_PROFILE");
  if (!want || !*want || strcmp(want, "0") == 0) return NULL;
  e->profile = plan_calloc(e, (size_t)e->n_steps, sizeof *e->profile);
  return e->profile ? NULL : out_of_memory();
}

/* Plans the executable: devices, slots, steps, lifetimes, aliases, donations, constants, kernels
 * and their devices, mirrors, arenas and step links. */
static hr_status plan(hr_executable *e, const hr_tensor *const *bound, const hr_exec_options *opts) {
  e->main = hr_module_find_func(e->module, "main");
  if (!e->main)
    return hr_error(HR_NOT_FOUND, "%s: the specialized module has no function @main",
                    e->module->filename ? e->module->filename : "?");
  size_t limit = opts && opts->max_arena_bytes ? opts->max_arena_bytes : HR_LIMIT_ARENA_BYTES;
  HR_TRY(open_devices(e, opts));
  HR_TRY(make_interp(e, opts));
  HR_TRY(make_slots(e, bound));
  HR_TRY(list_inputs(e));
  HR_TRY(list_outputs(e));
  HR_TRY(make_steps(e));
  make_aliases(e);
  mark_folded(e);
  hr_arena tmp;
  hr_arena_init(&tmp, e->allocator);
  hr_status s = find_donors(e, &tmp);
  if (!s) s = place_constants(e, &tmp, limit);
  if (!s) s = materialise_constants(e);
  if (!s) s = choose_kernels(e, opts, &tmp);
  if (!s) s = add_mirrors(e, &tmp);
  if (!s) s = place_temps(e, &tmp, limit);
  if (!s) s = materialise_arenas(e, limit);
  if (!s) s = link_steps(e, &tmp);
  if (!s) s = find_in_place(e);
  if (!s) s = start_profile(e);
  hr_arena_release(&tmp);
  return s;
}

hr_status hr_executable_create(hr_module *specialized, const hr_tensor *const *bound, hr_weights *weights,
                               const hr_exec_options *opts, hr_executable **out) {
  *out = NULL;
  if (!specialized) return hr_error(HR_INVALID_ARGUMENT, "no module given");
  const hr_allocator *a = opts && opts->allocator ? opts->allocator : hr_default_allocator();
  hr_executable *e = a->alloc(a->ctx, sizeof *e, _Alignof(hr_executable));
  if (!e) {
    hr_module_free(specialized);
    return out_of_memory();
  }
  memset(e, 0, sizeof *e);
  e->allocator = a;
  e->slab_allocator = (hr_allocator){slab_alloc, slab_free, e};
  e->module = specialized;
  e->weights = weights ? hr_weights_retain(weights) : NULL;
  e->chunks = 1;
  hr_arena_init(&e->plan, a);
  atomic_flag_clear(&e->running);
  hr_status s = plan(e, bound, opts);
  if (s) {
    hr_executable_free(e);
    return s;
  }
  *out = e;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Profiles                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* The implementation of a step, as profiles and tests name it. */
static const char *step_impl(const hr_executable *e, const step *st) {
  switch (st->kind) {
  case STEP_KERNEL: return e->devices[st->device]->backend->kernel_name(st->prepared);
  case STEP_WRAPPED: return "wrapped";
  case STEP_ALIAS: return "alias";
  case STEP_FOLDED: return "folded";
  default: return "reference";
  }
}

/* The profile of the steps whose op and implementation equal those of step `i` (seconds and
 * fastest summed), or seconds -1 when an earlier step has them (so each group is printed once). */
static step_time group_time(const hr_executable *e, int i) {
  const step *a = &e->steps[i];
  step_time total = {0, 0};
  for (int k = 0; k < e->n_steps; k++) {
    const step *b = &e->steps[k];
    if (b->op->code != a->op->code || strcmp(step_impl(e, a), step_impl(e, b)) != 0) continue;
    if (k < i) return (step_time){-1, 0};
    total.seconds += e->profile[k].seconds;
    total.fastest += e->profile[k].fastest;
  }
  return total;
}

/* Prints the ten costliest steps of the profile. */
static void print_top_steps(const hr_executable *e, double runs, double pct) {
  int top[10];
  for (int n = 0; n < 10; n++) {
    int best = -1;
    for (int i = 0; i < e->n_steps; i++) {
      bool taken = false;
      for (int k = 0; k < n; k++) taken |= top[k] == i;
      if (!taken && e->profile[i].seconds > 0 && (best < 0 || e->profile[i].seconds > e->profile[best].seconds))
        best = i;
    }
    if (best < 0) return;
    top[n] = best;
    const step *st = &e->steps[best];
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    hr_type_print(&sb, &st->op->results[0].type);
    fprintf(stderr, "  step %4d %6.2f%%  %9.3f ms  (min %8.3f)  %s [%s] -> %s (line %u)\n", best,
            e->profile[best].seconds * pct, 1e3 * e->profile[best].seconds / runs, 1e3 * e->profile[best].fastest,
            hr_opcode_name(st->op->code), step_impl(e, st), sb.data ? sb.data : "?", st->op->loc.line);
    hr_strbuf_free(&sb);
  }
}

/* Prints the profile: time per run by op and implementation, then the costliest steps. */
static void print_profile(const hr_executable *e) {
  double total = 0, fastest = 0;
  for (int i = 0; i < e->n_steps; i++) {
    total += e->profile[i].seconds;
    fastest += e->profile[i].fastest;
  }
  double runs = (double)e->profiled_runs, pct = total > 0 ? 100.0 / total : 0;
  fprintf(stderr, "hlorun profile: @%s, %d steps, %lld runs, %.3f ms per run (steps' minima: %.3f ms)", e->main->name,
          e->stats.num_steps, (long long)e->profiled_runs, 1e3 * total / runs, 1e3 * fastest);
  if (e->profiled_calls != e->profiled_runs) /* a batch split: each call ran in chunks */
    fprintf(stderr, "; %lld calls, each in %lld chunks", (long long)e->profiled_calls,
            (long long)(e->profiled_runs / (e->profiled_calls ? e->profiled_calls : 1)));
  fputc('\n', stderr);
  for (int i = 0; i < e->n_steps; i++) {
    step_time g = group_time(e, i);
    if (g.seconds > 0)
      fprintf(stderr, "  %6.2f%%  %9.3f ms  (min %8.3f)  %s [%s]\n", g.seconds * pct, 1e3 * g.seconds / runs,
              1e3 * g.fastest, hr_opcode_name(e->steps[i].op->code), step_impl(e, &e->steps[i]));
  }
  print_top_steps(e, runs, pct);
}

/* Frees the arenas and constants, the streams, and closes the devices. */
static void free_devices(hr_executable *e) {
  for (int d = 0; d < e->n_devices; d++) {
    hr_device *dev = e->devices[d];
    if (e->arenas[d].data) dev->backend->buffer_free(dev->state, &e->arenas[d]);
    if (d == 0 && e->constants.data) dev->backend->buffer_free(dev->state, &e->constants);
    if (e->streams[d]) dev->backend->stream_free(dev->state, e->streams[d]);
  }
  for (int d = 0; d < MAX_DEVICES; d++) hr_device_close(e->devices[d]);
}

void hr_executable_set_process(hr_executable *e, const struct hr_process *process) { e->interp->process = process; }

void hr_executable_free(hr_executable *e) {
  if (!e) return;
  if (e->profile && e->profiled_runs > 0) print_profile(e);
  for (int i = 0; i < e->n_steps && e->steps; i++)
    if (e->steps[i].prepared) {
      hr_device *dev = e->devices[e->steps[i].device];
      dev->backend->kernel_free(dev->state, e->steps[i].prepared);
    }
  if (e->entered) hr_interp_leave(e->interp);
  hr_interp_free(e->interp);
  free_devices(e);
  const hr_allocator *a = e->allocator;
  while (e->slabs) {
    slab *next = e->slabs->next;
    a->free(a->ctx, e->slabs);
    e->slabs = next;
  }
  hr_arena_release(&e->plan);
  hr_module_free(e->module);
  hr_weights_free(e->weights);
  a->free(a->ctx, e);
}

/* ---------------------------------------------------------------------------------------------- */
/* Running                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The spec of `chunks` runs of an input or output: dimension 0 `chunks` times as long (false
 * when that overflows, or a spec of rank 0 is chunked). */
static bool chunked_spec(const hr_tensor_spec *one, int64_t chunks, hr_tensor_spec *out) {
  *out = *one;
  if (chunks == 1) return true;
  if (one->shape.rank == 0 || one->shape.dims[0] > INT64_MAX / chunks) return false;
  out->shape.dims[0] *= chunks;
  return true;
}

/* Checks the inputs against the executable's specs (the whole batch's when split into chunks):
 * same dtype and shape exactly, consistent data. */
static hr_status check_inputs(const hr_executable *e, hr_tensor *const *inputs, int n) {
  if (n != e->n_inputs)
    return hr_error(HR_INVALID_ARGUMENT, "the executable of @%s takes %d inputs, %d given", e->main->name, e->n_inputs, n);
  for (int i = 0; i < n; i++) {
    const hr_tensor *t = inputs[i];
    if (!t) return hr_error(HR_INVALID_ARGUMENT, "input %d is missing", i);
    hr_tensor_spec got = {t->dtype, t->shape}, want = hr_executable_input_spec(e, i);
    if (!hr_spec_equal(&got, &want)) {
      char what[64];
      snprintf(what, sizeof what, "input %d (parameter %d of @main)", i, e->input_params[i]);
      return hr_spec_mismatch(what, &got, &want);
    }
    size_t need = e->slots[e->input_params[i]].view.nbytes * (size_t)e->chunks; /* no overflow: set_chunks */
    if (t->nbytes != need || (t->nbytes && !t->data))
      return hr_error(HR_INVALID_ARGUMENT, "input %d has %zu bytes of data, its shape needs %zu", i,
                      t->data ? t->nbytes : 0, need);
  }
  return NULL;
}

/* Points the input slots at chunk `c` of the caller's tensors (NULL: detaches them after a run).
 * Empty inputs without data point at the arena, so kernels never see a NULL buffer. */
static void bind_inputs(hr_executable *e, hr_tensor *const *inputs, int64_t c) {
  for (int i = 0; i < e->n_inputs; i++) {
    slot *s = &e->slots[e->input_params[i]];
    char *data = inputs ? inputs[i]->data : NULL;
    s->view.data = !inputs ? NULL : data ? (void *)(data + (size_t)c * s->view.nbytes) : e->arenas[0].data;
  }
}

/* Runs a wrapped step and copies the tensors its wrapper returns into the step's buffers. */
static hr_status run_wrapped(hr_executable *e, const step *st) {
  HR_TRY(hr_interp_run_block(e->interp, st->wrapper, st->args, e->scratch));
  hr_status s = NULL;
  for (int i = 0; i < st->n_results; i++) {
    hr_tensor *got = e->scratch[i], *want = st->results[i];
    if (!s && (got->dtype != want->dtype || got->nbytes != want->nbytes))
      s = hr_op_error(st->op, HR_INTERNAL, "result %d does not have its planned type", i);
    if (!s && want->nbytes) memcpy(want->data, got->data, want->nbytes);
    hr_tensor_free(got);
    e->scratch[i] = NULL;
  }
  return s;
}

/* Runs a step's kernel on its device (queued on the device's stream). */
static hr_status run_kernel(hr_executable *e, const step *st) {
  hr_device *dev = e->devices[st->device];
  void *scratch = st->scratch >= 0 ? e->slots[st->scratch].view.data : NULL;
  hr_status s = dev->backend->run(dev->state, e->streams[st->device], st->prepared, st->args, st->results, scratch);
  e->queued[st->device] = true;
  return s ? hr_status_wrap(s, "%s:%u:%u: %s", st->op->loc.file ? st->op->loc.file : "?", st->op->loc.line,
                            st->op->loc.col, hr_opcode_name(st->op->code))
           : NULL;
}

/* Runs one step, after filling the mirrors it reads; a step on the host first waits for the other
 * device. */
static hr_status run_step(hr_executable *e, const step *st) {
  if (st->kind == STEP_ALIAS || st->kind == STEP_FOLDED) return NULL;
  if (st->n_copies) HR_TRY(fill_mirrors(e, st));
  if (st->device == 0 && e->n_devices > 1) HR_TRY(wait_devices(e));
  switch (st->kind) {
  case STEP_WRAPPED: return run_wrapped(e, st);
  case STEP_KERNEL: return run_kernel(e, st);
  default:
    for (int r = 0; r < st->n_results && !st->in_place; r++)
      if (st->results[r]->nbytes) memset(st->results[r]->data, 0, st->results[r]->nbytes);
    return st->kernel(e->interp, st->op, st->args, st->results);
  }
}

/* Polls the run's control (NULL: none) before step `i` of chunk `c`; the error names the step. */
static hr_status poll_step(const hr_executable *e, const hr_run_control *ctl, int i, int64_t c) {
  const step *st = &e->steps[i];
  if (!ctl || st->kind == STEP_ALIAS || st->kind == STEP_FOLDED) return NULL; /* those do nothing */
  hr_code stop = hr_control_poll(ctl);
  if (!stop) return NULL;
  char chunk[64] = "";
  if (e->chunks > 1) snprintf(chunk, sizeof chunk, ", chunk %lld of %lld", (long long)c + 1, (long long)e->chunks);
  return hr_op_error(st->op, stop, "%s (at step %d of %d%s)", hr_control_reason(stop), i + 1, e->n_steps, chunk);
}

/* Runs every step in order on chunk `c` (timing each when profiling), polling `ctl` before each. */
static hr_status run_steps(hr_executable *e, const hr_run_control *ctl, int64_t c) {
  for (int i = 0; i < e->n_steps; i++) {
    HR_TRY(poll_step(e, ctl, i, c));
    double t0 = e->profile ? hr_monotonic_seconds() : 0;
    HR_TRY(run_step(e, &e->steps[i]));
    if (e->profile) {
      double t = hr_monotonic_seconds() - t0;
      e->profile[i].seconds += t;
      if (e->profiled_runs == 0 || t < e->profile[i].fastest) e->profile[i].fastest = t;
    }
  }
  if (e->profile) e->profiled_runs++;
  return NULL;
}

/* A new tensor (freed by hr_tensor_free) of spec `spec` and `nbytes` bytes, not zero-filled
 * (unlike hr_tensor_create): the run writes all of it. Large ones get huge pages advised, so that
 * a fresh buffer costs few page faults. */
static hr_status new_output(const hr_executable *e, const hr_tensor_spec *spec, size_t nbytes, hr_tensor **out) {
  const hr_allocator *a = e->allocator;
  hr_tensor *t = a->alloc(a->ctx, sizeof *t, _Alignof(hr_tensor));
  void *data = t ? a->alloc(a->ctx, nbytes ? nbytes : 1, BUFFER_ALIGN) : NULL;
  if (!data) {
    if (t) a->free(a->ctx, t);
    return hr_error(HR_OUT_OF_MEMORY, "cannot allocate an output of %zu bytes", nbytes);
  }
  if (nbytes >= HR_HUGE_PAGE_BYTES) hr_advise_huge_pages(data, nbytes);
  *t = (hr_tensor){.dtype = spec->dtype, .shape = spec->shape, .data = data, .nbytes = nbytes, .allocator = a};
  *out = t;
  return NULL;
}

/* New output tensors, for all chunks (the array with the default allocator, as hr_tensors_free
 * expects). */
static hr_status new_outputs(const hr_executable *e, hr_tensor ***outputs) {
  const hr_allocator *da = hr_default_allocator();
  size_t n = e->n_outputs ? (size_t)e->n_outputs : 1;
  hr_tensor **outs = da->alloc(da->ctx, n * sizeof *outs, 16);
  if (!outs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < e->n_outputs; i++) {
    hr_tensor_spec spec = hr_executable_output_spec(e, i);
    hr_status s = new_output(e, &spec, e->slots[e->output_slots[i]].view.nbytes * (size_t)e->chunks, &outs[i]);
    if (s) {
      hr_tensors_free(outs, i);
      return s;
    }
  }
  *outputs = outs;
  return NULL;
}

/* Copies the returned values into chunk `c` of the outputs (from the device holding each), once
 * the devices have finished. */
static hr_status copy_outputs(hr_executable *e, hr_tensor *const *outputs, int64_t c) {
  HR_TRY(wait_devices(e));
  for (int i = 0; i < e->n_outputs; i++) {
    const slot *s = &e->slots[e->output_slots[i]];
    char *to = (char *)outputs[i]->data + (size_t)c * s->view.nbytes;
    if (!s->view.nbytes || to == s->view.data) continue; /* an input returned into its own buffer */
    hr_device *dev = e->devices[s->home];
    if (s->home == 0) {
      memcpy(to, s->view.data, s->view.nbytes);
      continue;
    }
    HR_TRY(dev->backend->copy_to_host(dev->state, e->streams[s->home], to, s->view.data, s->view.nbytes));
    e->queued[s->home] = true;
  }
  return wait_devices(e);
}

hr_status hr_executable_check_outputs(const hr_executable *e, size_t max_bytes) {
  if (!max_bytes) return NULL;
  size_t total = 0;
  bool overflow = false;
  for (int i = 0; i < e->n_outputs; i++) /* each output's bytes fit size_t: set_chunks */
    overflow |= __builtin_add_overflow(total, e->slots[e->output_slots[i]].view.nbytes * (size_t)e->chunks, &total);
  if (overflow)
    return func_error(e->main, HR_RESOURCE_EXHAUSTED,
                      "the outputs for these inputs would take more than %zu bytes, over the limit of %zu", SIZE_MAX,
                      max_bytes);
  if (total > max_bytes)
    return func_error(e->main, HR_RESOURCE_EXHAUSTED,
                      "the outputs for these inputs would take %zu bytes, over the limit of %zu", total, max_bytes);
  return NULL;
}

hr_status hr_executable_run(hr_executable *e, hr_tensor *const *inputs, int num_inputs, hr_tensor ***outputs,
                            int *num_outputs) {
  return hr_executable_run_controlled(e, inputs, num_inputs, NULL, outputs, num_outputs);
}

/* Checks a call's inputs and, against ctl's bound, the size of its outputs. */
static hr_status check_call(const hr_executable *e, hr_tensor *const *inputs, int num_inputs,
                            const hr_run_control *ctl) {
  if (num_inputs > 0 && !inputs) return hr_error(HR_INVALID_ARGUMENT, "inputs missing");
  HR_TRY(check_inputs(e, inputs, num_inputs));
  return hr_executable_check_outputs(e, ctl ? ctl->max_output_bytes : 0);
}

/* Runs the steps once per chunk on the checked inputs, writing the results into `outputs`, with
 * e->running set by the caller (cleared here). */
static hr_status run_call_held(hr_executable *e, hr_tensor *const *inputs, const hr_run_control *ctl,
                               hr_tensor *const *outputs) {
  /* Polled only when it can stop the run: a zeroed control costs what none does. */
  const hr_run_control *poll = ctl && (ctl->deadline > 0 || ctl->cancelled) ? ctl : NULL;
  hr_status s = NULL;
  e->interp->opts.control = poll; /* for the while loops of wrapped steps */
  for (int64_t c = 0; !s && c < e->chunks; c++) {
    bind_inputs(e, inputs, c);
    bind_in_place(e);
    s = run_steps(e, poll, c);
    if (!s) s = copy_outputs(e, outputs, c);
  }
  if (s) hr_status_free(wait_devices(e)); /* nothing of the failed run may still be running */
  e->interp->opts.control = NULL;
  if (e->profile) e->profiled_calls++;
  bind_inputs(e, NULL, 0);
  unbind_in_place(e);
  atomic_flag_clear(&e->running);
  return s;
}

/* run_call_held after taking e->running (runs are not reentrant). */
static hr_status run_call(hr_executable *e, hr_tensor *const *inputs, const hr_run_control *ctl,
                          hr_tensor *const *outputs) {
  if (atomic_flag_test_and_set(&e->running))
    return hr_error(HR_INVALID_ARGUMENT, "the executable of @%s is already running (runs are not reentrant)",
                    e->main->name);
  return run_call_held(e, inputs, ctl, outputs);
}

hr_status hr_executable_run_controlled(hr_executable *e, hr_tensor *const *inputs, int num_inputs,
                                       const hr_run_control *ctl, hr_tensor ***outputs, int *num_outputs) {
  *outputs = NULL;
  *num_outputs = 0;
  HR_TRY(check_call(e, inputs, num_inputs, ctl));
  hr_tensor **outs = NULL;
  HR_TRY(new_outputs(e, &outs));
  hr_status s = run_call(e, inputs, ctl, outs);
  if (s) {
    hr_tensors_free(outs, e->n_outputs);
    return s;
  }
  *outputs = outs;
  *num_outputs = e->n_outputs;
  return NULL;
}

/* Checks caller-given output `j`: the output's spec and size, data present, no overlap with another
 * output, and with an input only as that input's very buffer (see hr_executable_run_into). */
static hr_status check_given_output(const hr_executable *e, hr_tensor *const *inputs, hr_tensor *const *outputs,
                                    int j) {
  const hr_tensor *t = outputs[j];
  if (!t) return hr_error(HR_INVALID_ARGUMENT, "output %d is missing", j);
  hr_tensor_spec got = {t->dtype, t->shape}, want = hr_executable_output_spec(e, j);
  if (!hr_spec_equal(&got, &want)) {
    char what[32];
    snprintf(what, sizeof what, "output %d", j);
    return hr_spec_mismatch(what, &got, &want);
  }
  size_t need = e->slots[e->output_slots[j]].view.nbytes * (size_t)e->chunks; /* no overflow: set_chunks */
  if (t->nbytes != need || (need && !t->data))
    return hr_error(HR_INVALID_ARGUMENT, "output %d has %zu bytes of data, its shape needs %zu", j,
                    t->data ? t->nbytes : 0, need);
  for (int k = 0; k < j; k++)
    if (overlaps(t->data, t->nbytes, outputs[k]->data, outputs[k]->nbytes))
      return hr_error(HR_INVALID_ARGUMENT, "outputs %d and %d share memory", k, j);
  for (int i = 0; i < e->n_inputs; i++) {
    const hr_tensor *in = inputs[i];
    if (!overlaps(t->data, t->nbytes, in->data, in->nbytes)) continue;
    if (in->data != t->data || in->nbytes != t->nbytes)
      return hr_error(HR_INVALID_ARGUMENT, "output %d overlaps input %d without being its buffer", j, i);
    for (int k = 0; k < e->n_outputs; k++)
      if (k != j && e->output_slots[k] == e->input_params[i])
        return hr_error(HR_INVALID_ARGUMENT, "output %d is given the buffer of input %d, which output %d returns", j,
                        i, k);
  }
  return NULL;
}

hr_status hr_executable_run_into(hr_executable *e, hr_tensor *const *inputs, int num_inputs,
                                 const hr_run_control *ctl, hr_tensor *const *outputs, int num_outputs) {
  HR_TRY(check_call(e, inputs, num_inputs, ctl));
  if (num_outputs != e->n_outputs || (num_outputs > 0 && !outputs))
    return hr_error(HR_INVALID_ARGUMENT, "the executable of @%s gives %d outputs, %d buffers given", e->main->name,
                    e->n_outputs, outputs ? num_outputs : 0);
  for (int j = 0; j < num_outputs; j++) HR_TRY(check_given_output(e, inputs, outputs, j));
  if (atomic_flag_test_and_set(&e->running)) /* choose_in_place changes the plan: not while it runs */
    return hr_error(HR_INVALID_ARGUMENT, "the executable of @%s is already running (runs are not reentrant)",
                    e->main->name);
  choose_in_place(e, inputs, outputs);
  return run_call_held(e, inputs, ctl, outputs);
}

size_t hr_executable_arena_bytes(const hr_executable *e) { return e->stats.arena_bytes; }

hr_status hr_executable_use_arena(hr_executable *e, void *base, size_t bytes) {
  if (e->n_devices != 1)
    return hr_error(HR_INVALID_ARGUMENT, "the executable of @%s runs on device %s: only a host arena can be shared",
                    e->main->name, hr_executable_device(e));
  if (bytes < e->stats.arena_bytes || (uintptr_t)base % BUFFER_ALIGN != 0)
    return hr_error(HR_INVALID_ARGUMENT, "the executable of @%s needs an arena of %zu bytes aligned to %d, given %zu",
                    e->main->name, e->stats.arena_bytes, BUFFER_ALIGN, bytes);
  if (atomic_flag_test_and_set(&e->running))
    return hr_error(HR_INVALID_ARGUMENT, "the executable of @%s is running", e->main->name);
  hr_device *host = e->devices[0];
  hr_buffer shared;
  hr_status s = host->backend->buffer_import_host(host->state, base, bytes, &shared);
  if (!s) {
    if (e->arenas[0].data) host->backend->buffer_free(host->state, &e->arenas[0]);
    e->arenas[0] = shared;
    for (int i = 0; i < e->n_slots; i++) {
      slot *sl = &e->slots[i];
      if (is_placed_temp(sl)) sl->view.data = (unsigned char *)base + sl->offset;
    }
    point_aliases(e, SLOT_TEMP);
    for (int k = 0; k < e->n_in_place; k++) e->in_place[k].planned = e->slots[e->in_place[k].result].view.data;
  }
  atomic_flag_clear(&e->running);
  return s;
}

int hr_executable_donated_output(const hr_executable *e, int input) {
  return input >= 0 && input < e->n_inputs ? e->donor_output[input] : -1;
}

const char *hr_executable_device(const hr_executable *e) { return e->devices[e->n_devices - 1]->name; }

hr_status hr_executable_set_chunks(hr_executable *e, int64_t chunks) {
  hr_tensor_spec spec;
  if (chunks < 1) return hr_error(HR_INVALID_ARGUMENT, "a batch split into %lld chunks", (long long)chunks);
  for (int i = 0; i < e->n_inputs + e->n_outputs; i++) {
    bool input = i < e->n_inputs;
    int k = input ? i : i - e->n_inputs;
    const slot *s = &e->slots[input ? e->input_params[k] : e->output_slots[k]];
    if (!chunked_spec(input ? &e->input_specs[k] : &e->output_specs[k], chunks, &spec) ||
        s->view.nbytes > SIZE_MAX / (size_t)chunks)
      return hr_error(HR_INVALID_ARGUMENT, "%s %d of @%s cannot be split into %lld chunks along dimension 0",
                      input ? "input" : "output", k, e->main->name, (long long)chunks);
  }
  e->chunks = chunks;
  return NULL;
}

int64_t hr_executable_chunks(const hr_executable *e) { return e->chunks; }

/* ---------------------------------------------------------------------------------------------- */
/* Accessors                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

int hr_executable_num_inputs(const hr_executable *e) { return e->n_inputs; }

hr_tensor_spec hr_executable_input_spec(const hr_executable *e, int i) {
  hr_tensor_spec spec = {HR_DTYPE_INVALID, {0, {0}}};
  if (i >= 0 && i < e->n_inputs) chunked_spec(&e->input_specs[i], e->chunks, &spec); /* checked by set_chunks */
  return spec;
}

int hr_executable_num_outputs(const hr_executable *e) { return e->n_outputs; }

hr_tensor_spec hr_executable_output_spec(const hr_executable *e, int i) {
  hr_tensor_spec spec = {HR_DTYPE_INVALID, {0, {0}}};
  if (i >= 0 && i < e->n_outputs) chunked_spec(&e->output_specs[i], e->chunks, &spec); /* checked by set_chunks */
  return spec;
}

const hr_module *hr_executable_module(const hr_executable *e) { return e->module; }

const hr_tensor *hr_executable_bound(const hr_executable *e, int param) {
  if (param < 0 || param >= e->main->n_args || e->slots[param].kind != SLOT_BOUND) return NULL;
  return &e->slots[param].view;
}

hr_exec_stats hr_executable_stats(const hr_executable *e) { return e->stats; }

hr_exec_fast_stats hr_executable_fast_stats(const hr_executable *e) { return e->fast_stats; }

int hr_executable_num_plan_steps(const hr_executable *e) { return e->n_steps; }

const hr_op *hr_executable_step_op(const hr_executable *e, int i) {
  return i >= 0 && i < e->n_steps ? e->steps[i].op : NULL;
}

const char *hr_executable_step_impl(const hr_executable *e, int i) {
  return i >= 0 && i < e->n_steps ? step_impl(e, &e->steps[i]) : NULL;
}

const char *hr_executable_step_device(const hr_executable *e, int i) {
  return i >= 0 && i < e->n_steps ? e->devices[e->steps[i].device]->name : NULL;
}

/* Programs: a module's entry function with parameters bound to weights, compiled on demand.
 *
 * Binding: parameter i is bound when its jax.arg_info key path ("params['blocks'][0]['w']") names
 * a weight ("blocks.0.w"); the remaining parameters are the runtime inputs, in order.
 *
 * Compiling specializes the function for the inputs' static shapes (hr_specialize with the
 * interpreter's constant folder), fuses it (hr_fuse, told which parameters are bound; skipped when
 * hr_exec_options.disable_fusion is set) and plans an executable over the bound tensors, which
 * point into the weight set the executable retains.
 *
 * Compiling for a batch B >= 2 (hr_program_plan_split) may compile for a divisor m of B instead,
 * when the largest intermediate at batch B exceeds SPLIT_MAX_BYTES and the compiler proves the
 * function splits (compiler/split.h): the executable then runs B / m chunks per call
 * (hr_executable_set_chunks).
 *
 * Running looks the inputs' shapes and dtypes up in a cache of executables, compiling and inserting
 * one on a miss (JIT). The cache is bounded (CACHE_CAPACITY entries, least recently
 * used evicted); a mutex guards it, and each entry carries a mutex that serialises runs of its
 * executable (which is not reentrant) plus a count of the threads using it, so that an entry in
 * use is never evicted. When every entry is in use the new executable runs uncached and is freed
 * afterwards.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "compiler/fuse.h"
#include "compiler/split.h"
#include "runtime/exec_internal.h"

/* A batch split keeps the largest intermediate of a run at most this size: two of those (an op's
 * input and output) then stay within this CPU class's L2 + L3 share per core. */
#define SPLIT_MAX_BYTES ((size_t)4 << 20)
/* The largest all-constant result the two specializations a batch split compares fold: shape
 * vectors (HR_MAX_RANK 64-bit integers). */
#define SPLIT_FOLD_BYTES ((size_t)HR_MAX_RANK * 8)

enum { CACHE_CAPACITY = 64 };

/* One cached executable, keyed by the input specs it was compiled for. */
typedef struct cache_entry {
  hr_tensor_spec *specs; /* one per runtime input */
  hr_executable *exe;       /* for the specs (in chunks where a batch split applies) */
  pthread_mutex_t run_lock; /* held while the executable runs */
  int users;                /* threads holding the entry (guarded by the program's lock) */
  uint64_t last_used;       /* program clock at the latest lookup (guarded likewise) */
  bool cached;              /* listed in the cache (otherwise freed by its last user) */
} cache_entry;

struct hr_program {
  const hr_allocator *allocator;
  hr_exec_options opts;
  hr_module *module;   /* owned */
  const hr_func *fn;   /* the entry function */
  hr_weights *weights; /* owned reference, or NULL */
  hr_arena tables;     /* the arrays below */
  const hr_tensor **bound; /* per parameter: the weight bound to it, or NULL */
  int n_inputs;
  int *input_params; /* parameter index of each runtime input */
  hr_tensor_spec *input_specs;
  const char **input_names;
  int n_outputs;
  hr_tensor_spec *output_specs;
  int64_t device;       /* >= 0: compiles give this device's code (hr_program_set_device) */
  pthread_mutex_t lock; /* guards the cache */
  cache_entry *cache[CACHE_CAPACITY];
  atomic_int n_cached;
  uint64_t clock;
};

static hr_status out_of_memory(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory creating a program"); }

/* "file:line:col: @fn" for messages about the entry function. */
static void func_position(const hr_func *fn, char *buf, size_t cap) {
  snprintf(buf, cap, "%s:%u:%u: @%s", fn->loc.file ? fn->loc.file : "?", fn->loc.line, fn->loc.col, fn->name);
}

/* ---------------------------------------------------------------------------------------------- */
/* Binding                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The jax.arg_info text of parameter `p`, or NULL. */
static const char *arg_info(const hr_func *fn, int p) {
  const hr_attr *info = fn->arg_attrs ? hr_attr_field(fn->arg_attrs[p], "jax.arg_info") : NULL;
  return info && info->kind == HR_ATTR_STRING ? info->u.str.data : NULL;
}

/* Whether a concrete spec fits a declared type: same dtype and rank, equal static dimensions. */
static bool spec_fits(const hr_tensor_spec *s, const hr_type *declared) {
  if (s->dtype != declared->dtype || s->shape.rank != declared->shape.rank) return false;
  for (int i = 0; i < s->shape.rank; i++)
    if (s->shape.dims[i] < 0 || (declared->shape.dims[i] >= 0 && declared->shape.dims[i] != s->shape.dims[i]))
      return false;
  return true;
}

/* Binds parameter `p` to the weight its key path names, if any; the types must agree. */
static hr_status bind_param(hr_program *prog, int p) {
  const char *info = arg_info(prog->fn, p);
  char name[HR_LIMIT_WEIGHT_NAME_BYTES]; /* longer dotted names are not looked up */
  if (!prog->weights || !info || !hr_keypath_to_dotted(info, name, sizeof name)) return NULL;
  const hr_tensor *t = hr_weights_find(prog->weights, name);
  if (!t) return NULL;
  const hr_type *declared = &prog->fn->body.args[p].type;
  hr_tensor_spec got = {t->dtype, t->shape};
  if (!spec_fits(&got, declared)) {
    hr_tensor_spec want = hr_spec_of_type(declared);
    char what[HR_LIMIT_WEIGHT_NAME_BYTES + 1200], pos[512];
    func_position(prog->fn, pos, sizeof pos);
    snprintf(what, sizeof what, "%s: weight '%s' bound to parameter %d (%s)", pos, name, p, info);
    return hr_spec_mismatch(what, &got, &want);
  }
  prog->bound[p] = t;
  return NULL;
}

/* Binds parameters to weights and lists the runtime inputs with their specs and names. */
static hr_status bind_params(hr_program *prog) {
  const hr_func *fn = prog->fn;
  size_t n_args = (size_t)fn->n_args;
  prog->bound = hr_arena_calloc(&prog->tables, n_args ? n_args : 1, sizeof *prog->bound, 16);
  if (!prog->bound) return out_of_memory();
  int n = 0;
  for (int p = 0; p < fn->n_args; p++) {
    if (fn->body.args[p].type.kind != HR_TYPE_TENSOR) {
      char pos[512];
      func_position(fn, pos, sizeof pos);
      return hr_error(HR_UNIMPLEMENTED, "%s: parameter %d is not a tensor", pos, p);
    }
    HR_TRY(bind_param(prog, p));
    n += !prog->bound[p];
  }
  prog->n_inputs = n;
  prog->input_params = hr_arena_calloc(&prog->tables, (size_t)(n ? n : 1), sizeof *prog->input_params, 16);
  prog->input_specs = hr_arena_calloc(&prog->tables, (size_t)(n ? n : 1), sizeof *prog->input_specs, 16);
  prog->input_names = hr_arena_calloc(&prog->tables, (size_t)(n ? n : 1), sizeof *prog->input_names, 16);
  if (!prog->input_params || !prog->input_specs || !prog->input_names) return out_of_memory();
  n = 0;
  for (int p = 0; p < fn->n_args; p++) {
    if (prog->bound[p]) continue;
    char argn[32];
    snprintf(argn, sizeof argn, "arg%d", p);
    const char *name = arg_info(fn, p) ? arg_info(fn, p) : hr_arena_strdup(&prog->tables, argn);
    if (!name) return out_of_memory();
    prog->input_params[n] = p;
    prog->input_specs[n] = hr_spec_of_type(&fn->body.args[p].type);
    prog->input_names[n++] = name;
  }
  return NULL;
}

/* Lists the output specs from the function's result types. */
static hr_status list_outputs(hr_program *prog) {
  const hr_func *fn = prog->fn;
  prog->n_outputs = fn->n_results;
  prog->output_specs =
      hr_arena_calloc(&prog->tables, (size_t)(fn->n_results ? fn->n_results : 1), sizeof *prog->output_specs, 16);
  if (!prog->output_specs) return out_of_memory();
  for (int i = 0; i < fn->n_results; i++) {
    if (fn->result_types[i].kind != HR_TYPE_TENSOR) {
      char pos[512];
      func_position(fn, pos, sizeof pos);
      return hr_error(HR_UNIMPLEMENTED, "%s: result %d is not a tensor", pos, i);
    }
    prog->output_specs[i] = hr_spec_of_type(&fn->result_types[i]);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Creation                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Finds the entry function and sets up binding, inputs, outputs and the cache lock. */
static hr_status setup(hr_program *prog, const char *fn_name) {
  prog->fn = hr_module_find_func(prog->module, fn_name);
  if (!prog->fn || prog->fn->is_declaration)
    return hr_error(HR_NOT_FOUND, "%s: no function @%s%s", prog->module->filename ? prog->module->filename : "?",
                    fn_name, prog->fn ? " with a body (it is only declared)" : "");
  HR_TRY(bind_params(prog));
  return list_outputs(prog);
}

hr_status hr_program_create(hr_module *m, const char *fn_name, hr_weights *weights, const hr_exec_options *opts,
                            hr_program **out) {
  *out = NULL;
  const hr_allocator *a = opts && opts->allocator ? opts->allocator : hr_default_allocator();
  hr_program *prog = m ? a->alloc(a->ctx, sizeof *prog, _Alignof(hr_program)) : NULL;
  if (prog) memset(prog, 0, sizeof *prog);
  if (!prog || pthread_mutex_init(&prog->lock, NULL) != 0) {
    if (prog) a->free(a->ctx, prog);
    hr_module_free(m);
    hr_weights_free(weights);
    return m ? out_of_memory() : hr_error(HR_INVALID_ARGUMENT, "no module given");
  }
  prog->allocator = a;
  if (opts) prog->opts = *opts;
  prog->opts.allocator = a;
  prog->module = m;
  prog->weights = weights;
  prog->device = -1;
  atomic_init(&prog->n_cached, 0);
  hr_arena_init(&prog->tables, a);
  hr_status s = setup(prog, fn_name ? fn_name : "main");
  if (s) {
    hr_program_free(prog);
    return s;
  }
  *out = prog;
  return NULL;
}

void hr_program_set_device(hr_program *p, int64_t device) { p->device = device; }

/* Frees a cache entry and its executable. */
static void entry_free(const hr_allocator *a, cache_entry *c) {
  hr_executable_free(c->exe);
  pthread_mutex_destroy(&c->run_lock);
  a->free(a->ctx, c->specs);
  a->free(a->ctx, c);
}

void hr_program_free(hr_program *p) {
  if (!p) return;
  const hr_allocator *a = p->allocator;
  int n = atomic_load(&p->n_cached);
  for (int i = 0; i < n; i++) entry_free(a, p->cache[i]);
  pthread_mutex_destroy(&p->lock);
  hr_arena_release(&p->tables);
  hr_module_free(p->module);
  hr_weights_free(p->weights);
  a->free(a->ctx, p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Compiling                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Checks that input `i` has a concrete spec that fits its parameter's declared type. */
static hr_status check_input_spec(const hr_program *p, int i, const hr_tensor_spec *s) {
  if (s->shape.rank < 0 || s->shape.rank > HR_MAX_RANK)
    return hr_error(HR_INVALID_ARGUMENT, "input %d (%s) has rank %d", i, p->input_names[i], s->shape.rank);
  if (spec_fits(s, &p->fn->body.args[p->input_params[i]].type)) return NULL;
  char what[1200];
  snprintf(what, sizeof what, "input %d (%s) of @%s", i, p->input_names[i], p->fn->name);
  hr_status err = hr_spec_mismatch(what, s, &p->input_specs[i]);
  for (int d = 0; d < s->shape.rank; d++)
    if (s->shape.dims[d] < 0) return hr_status_wrap(err, "inputs need static shapes");
  return err;
}

/* The argument types of the entry function for these input specs (bound parameters: their
 * tensors' types), with the parameters' quantization. The array is allocated with the program's allocator. */
static hr_status argument_types(const hr_program *p, const hr_tensor_spec *inputs, hr_type **out) {
  size_t n = (size_t)p->fn->n_args;
  hr_type *types = p->allocator->alloc(p->allocator->ctx, (n ? n : 1) * sizeof *types, _Alignof(hr_type));
  if (!types) return out_of_memory();
  for (int i = 0; i < p->n_inputs; i++) types[p->input_params[i]] = hr_type_of_spec(&inputs[i]);
  for (int k = 0; k < p->fn->n_args; k++) {
    if (p->bound[k]) {
      hr_tensor_spec s = {p->bound[k]->dtype, p->bound[k]->shape};
      types[k] = hr_type_of_spec(&s);
    }
    /* A quantized parameter's tensor holds its stored integers; the quantization is the type's. */
    const hr_type *param = &p->fn->body.args[k].type;
    if (param->kind == HR_TYPE_TENSOR) types[k].quant = param->quant;
  }
  *out = types;
  return NULL;
}

/* Specializes the entry function for the runtime inputs' specs, folding all-constant results of
 * up to `max_fold_bytes` (0: the specializer's default). */
static hr_status specialize(hr_program *p, const hr_tensor_spec *inputs, size_t max_fold_bytes, hr_module **out) {
  hr_type *types = NULL;
  HR_TRY(argument_types(p, inputs, &types));
  hr_folder folder = hr_interp_folder();
  folder.max_fold_bytes = max_fold_bytes;
  hr_status s = p->device >= 0 ? hr_specialize_device(p->module, p->fn->name, types, p->fn->n_args, &folder,
                                                       p->allocator, p->device, out)
                                : hr_specialize(p->module, p->fn->name, types, p->fn->n_args, &folder, p->allocator,
                                                out);
  p->allocator->free(p->allocator->ctx, types);
  return s;
}

/* Fuses a specialized module (ownership passes) and plans its executable. */
static hr_status build(hr_program *p, hr_module *specialized, hr_executable **out) {
  if (!p->opts.disable_fusion) {
    hr_fuse_options fo = {.allocator = p->allocator, .bound = p->bound, .n_bound = p->fn->n_args,
                          .max_joined_bytes = HR_LIMIT_FOLD_BYTES};
    hr_status s = hr_fuse(specialized, &fo);
    if (s) {
      hr_module_free(specialized);
      return s;
    }
  }
  return hr_executable_create(specialized, p->bound, p->weights, &p->opts, out);
}

/* Checks the specs given for compiling. */
static hr_status check_specs(const hr_program *p, const hr_tensor_spec *inputs, int num_inputs) {
  if (num_inputs != p->n_inputs)
    return hr_error(HR_INVALID_ARGUMENT, "@%s takes %d runtime inputs, %d specs given", p->fn->name, p->n_inputs,
                    num_inputs);
  if (num_inputs > 0 && !inputs) return hr_error(HR_INVALID_ARGUMENT, "input specs missing");
  for (int i = 0; i < num_inputs; i++) HR_TRY(check_input_spec(p, i, &inputs[i]));
  return NULL;
}

/* The batch of the inputs when a batch split may apply: every runtime input's dimension 0
 * dynamic in the program and the same size here, at least 2; else 0. */
static int64_t split_candidate(const hr_program *p, const hr_tensor_spec *inputs) {
  if (p->opts.disable_batch_split || p->n_inputs == 0) return 0;
  int64_t batch = 0;
  for (int i = 0; i < p->n_inputs; i++) {
    const hr_tensor_spec *declared = &p->input_specs[i];
    if (declared->shape.rank == 0 || declared->shape.dims[0] != HR_DYNAMIC) return 0;
    if (i > 0 && inputs[i].shape.dims[0] != batch) return 0;
    batch = inputs[i].shape.dims[0];
  }
  return batch >= 2 ? batch : 0;
}

hr_status hr_program_plan_split(hr_program *p, const hr_tensor_spec *inputs, hr_module **full, hr_module **part,
                                int64_t *chunks) {
  *full = *part = NULL;
  *chunks = 1;
  int64_t batch = split_candidate(p, inputs);
  HR_TRY(specialize(p, inputs, 0, full));
  if (batch == 0) return NULL;
  const hr_allocator *a = p->allocator;
  size_t n_params = (size_t)p->fn->n_args;
  bool *is_input = a->alloc(a->ctx, n_params ? n_params : 1, 1);
  if (!is_input) return NULL; /* no split: the full module stands */
  for (size_t k = 0; k < n_params; k++) is_input[k] = !p->bound[k];
  int64_t m = hr_split_batch(*full, is_input, batch, SPLIT_MAX_BYTES, a);
  a->free(a->ctx, is_input);
  if (m == batch) return NULL;
  hr_tensor_spec *part_specs = a->alloc(a->ctx, (size_t)p->n_inputs * sizeof *part_specs, _Alignof(hr_tensor_spec));
  if (!part_specs) return NULL;
  for (int i = 0; i < p->n_inputs; i++) {
    part_specs[i] = inputs[i];
    part_specs[i].shape.dims[0] = m;
  }
  /* The two programs compared fold only small (shape) values: whether a larger all-constant value
   * is folded depends on its size, so on the batch, and would make them differ. The executable
   * folds such values when it is created anyway. */
  hr_module *check = NULL;
  hr_status s = specialize(p, part_specs, SPLIT_FOLD_BYTES, part);
  a->free(a->ctx, part_specs);
  if (!s) s = specialize(p, inputs, SPLIT_FOLD_BYTES, &check);
  if (!s) s = hr_split_check(check, *part, batch / m, a);
  if (check) hr_module_free(check);
  if (s) { /* not provably per example: the call runs whole */
    hr_status_free(s);
    if (*part) hr_module_free(*part);
    *part = NULL;
    return NULL;
  }
  *chunks = batch / m;
  return NULL;
}

hr_status hr_program_compile(hr_program *p, const hr_tensor_spec *inputs, int num_inputs, hr_executable **out) {
  *out = NULL;
  HR_TRY(check_specs(p, inputs, num_inputs));
  hr_module *full, *part;
  int64_t chunks;
  HR_TRY(hr_program_plan_split(p, inputs, &full, &part, &chunks));
  if (part) {
    hr_status s = build(p, part, out);
    if (!s) s = hr_executable_set_chunks(*out, chunks);
    if (!s) {
      hr_module_free(full);
      return NULL;
    }
    hr_status_free(s); /* the whole call reports its own error, if it has one */
    hr_executable_free(*out);
    *out = NULL;
  }
  return build(p, full, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* Running with the cache                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Whether the input tensors have exactly the specs an entry was compiled for. */
static bool entry_matches(const hr_program *p, const cache_entry *c, hr_tensor *const *inputs) {
  for (int i = 0; i < p->n_inputs; i++) {
    hr_tensor_spec s = {inputs[i]->dtype, inputs[i]->shape};
    if (!hr_spec_equal(&s, &c->specs[i])) return false;
  }
  return true;
}

/* Finds the entry for these inputs and takes a use of it; call with the lock held. */
static cache_entry *lookup_locked(hr_program *p, hr_tensor *const *inputs) {
  int n = atomic_load(&p->n_cached);
  for (int i = 0; i < n; i++) {
    cache_entry *c = p->cache[i];
    if (!entry_matches(p, c, inputs)) continue;
    c->users++;
    c->last_used = ++p->clock;
    return c;
  }
  return NULL;
}

/* Lists a new entry, removing the least recently used idle one when the cache is full; returns
 * the removed entry (to free once unlocked) or NULL. When every entry is in use the new one stays
 * unlisted. Call with the lock held. */
static cache_entry *insert_locked(hr_program *p, cache_entry *c) {
  int n = atomic_load(&p->n_cached);
  cache_entry *evicted = NULL;
  if (n == CACHE_CAPACITY) {
    int victim = -1;
    for (int i = 0; i < n; i++)
      if (p->cache[i]->users == 0 && (victim < 0 || p->cache[i]->last_used < p->cache[victim]->last_used)) victim = i;
    if (victim < 0) return NULL;
    evicted = p->cache[victim];
    p->cache[victim] = p->cache[n - 1];
    atomic_store(&p->n_cached, --n);
  }
  c->cached = true;
  c->last_used = ++p->clock;
  p->cache[n] = c;
  atomic_store(&p->n_cached, n + 1);
  return evicted;
}

/* Compiles an executable for the inputs' specs into a new entry with one use taken. */
static hr_status compile_entry(hr_program *p, hr_tensor *const *inputs, cache_entry **out) {
  const hr_allocator *a = p->allocator;
  size_t n = (size_t)(p->n_inputs ? p->n_inputs : 1);
  cache_entry *c = a->alloc(a->ctx, sizeof *c, _Alignof(cache_entry));
  hr_tensor_spec *specs = c ? a->alloc(a->ctx, n * sizeof *specs, _Alignof(hr_tensor_spec)) : NULL;
  if (!specs || pthread_mutex_init(&c->run_lock, NULL) != 0) {
    if (specs) a->free(a->ctx, specs);
    if (c) a->free(a->ctx, c);
    return out_of_memory();
  }
  for (int i = 0; i < p->n_inputs; i++) specs[i] = (hr_tensor_spec){inputs[i]->dtype, inputs[i]->shape};
  c->specs = specs;
  c->exe = NULL;
  c->users = 1;
  c->last_used = 0;
  c->cached = false;
  hr_status s = hr_program_compile(p, specs, p->n_inputs, &c->exe);
  if (s) {
    entry_free(a, c);
    return s;
  }
  *out = c;
  return NULL;
}

/* Returns the entry for the inputs with a use taken: from the cache, or compiled and inserted
 * (another thread may have inserted the same shapes meanwhile: then that entry is used). */
static hr_status acquire_entry(hr_program *p, hr_tensor *const *inputs, cache_entry **out) {
  pthread_mutex_lock(&p->lock);
  *out = lookup_locked(p, inputs);
  pthread_mutex_unlock(&p->lock);
  if (*out) return NULL;
  cache_entry *fresh = NULL;
  HR_TRY(compile_entry(p, inputs, &fresh));
  pthread_mutex_lock(&p->lock);
  cache_entry *existing = lookup_locked(p, inputs);
  cache_entry *evicted = existing ? NULL : insert_locked(p, fresh);
  pthread_mutex_unlock(&p->lock);
  if (evicted) entry_free(p->allocator, evicted);
  if (existing) entry_free(p->allocator, fresh);
  *out = existing ? existing : fresh;
  return NULL;
}

/* Drops a use of an entry; an unlisted entry dies with its last use. */
static void release_entry(hr_program *p, cache_entry *c) {
  pthread_mutex_lock(&p->lock);
  bool drop = --c->users == 0 && !c->cached;
  pthread_mutex_unlock(&p->lock);
  if (drop) entry_free(p->allocator, c);
}

/* Checks the input tensors against the program's input specs. */
static hr_status check_inputs(const hr_program *p, hr_tensor *const *inputs, int n) {
  if (n != p->n_inputs)
    return hr_error(HR_INVALID_ARGUMENT, "@%s takes %d runtime inputs, %d given", p->fn->name, p->n_inputs, n);
  if (n > 0 && !inputs) return hr_error(HR_INVALID_ARGUMENT, "inputs missing");
  for (int i = 0; i < n; i++) {
    if (!inputs[i]) return hr_error(HR_INVALID_ARGUMENT, "input %d (%s) is missing", i, p->input_names[i]);
    hr_tensor_spec s = {inputs[i]->dtype, inputs[i]->shape};
    HR_TRY(check_input_spec(p, i, &s));
  }
  return NULL;
}

hr_status hr_program_run(hr_program *p, hr_tensor *const *inputs, int num_inputs, hr_tensor ***outputs,
                         int *num_outputs) {
  return hr_program_run_controlled(p, inputs, num_inputs, NULL, outputs, num_outputs);
}

hr_status hr_program_run_controlled(hr_program *p, hr_tensor *const *inputs, int num_inputs, const hr_run_control *ctl,
                                    hr_tensor ***outputs, int *num_outputs) {
  *outputs = NULL;
  *num_outputs = 0;
  HR_TRY(check_inputs(p, inputs, num_inputs));
  cache_entry *c = NULL;
  HR_TRY(acquire_entry(p, inputs, &c));
  /* Refused before waiting for the run lock (the executable checks again, at no cost). */
  hr_status s = hr_executable_check_outputs(c->exe, ctl ? ctl->max_output_bytes : 0);
  if (!s) {
    pthread_mutex_lock(&c->run_lock);
    s = hr_executable_run_controlled(c->exe, inputs, num_inputs, ctl, outputs, num_outputs);
    pthread_mutex_unlock(&c->run_lock);
  }
  release_entry(p, c);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Accessors                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

int hr_program_num_inputs(const hr_program *p) { return p->n_inputs; }

hr_tensor_spec hr_program_input_spec(const hr_program *p, int i) {
  hr_tensor_spec none = {HR_DTYPE_INVALID, {0, {0}}};
  return i >= 0 && i < p->n_inputs ? p->input_specs[i] : none;
}

const char *hr_program_input_name(const hr_program *p, int i) {
  return i >= 0 && i < p->n_inputs ? p->input_names[i] : NULL;
}

int hr_program_num_outputs(const hr_program *p) { return p->n_outputs; }

hr_tensor_spec hr_program_output_spec(const hr_program *p, int i) {
  hr_tensor_spec none = {HR_DTYPE_INVALID, {0, {0}}};
  return i >= 0 && i < p->n_outputs ? p->output_specs[i] : none;
}

const hr_module *hr_program_module(const hr_program *p) { return p->module; }

const char *hr_program_function(const hr_program *p) { return p->fn->name; }

int hr_program_cache_size(const hr_program *p) { return atomic_load(&p->n_cached); }

const hr_tensor *hr_program_bound(const hr_program *p, int param) {
  return param >= 0 && param < p->fn->n_args ? p->bound[param] : NULL;
}

hr_weights *hr_program_weights(const hr_program *p) { return p->weights; }

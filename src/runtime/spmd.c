/* SPMD programs (hlorun.h): one program compiled once per device, the devices run at once as the
 * processes of an interpreter process grid (interp/grid.h). The executables run their steps on
 * the compiled kernels; the collectives fall back to the interpreter's kernels, which meet the
 * other devices through the process each executable is given for the run
 * (hr_executable_set_process). Batch splitting is off: a chunk would run each collective once
 * per chunk.
 * A global program (hr_spmd_is_global: JAX's export of a shard_map, say) runs the same way: every
 * device runs the whole function on the global inputs, its manual computations compiled as the
 * device's part (hr_program_set_device), and device 0's results are the program's. */
#include <string.h>
#include <unistd.h>

#include "base/limits.h"
#include "interp/grid.h"
#include "runtime/executable.h"

struct hr_spmd {
  const hr_allocator *a;
  hr_program *program;
  int64_t replicas, partitions;
  int n;                 /* devices */
  bool global;           /* a global program: inputs and outputs are the whole values, given once */
  int n_in, n_out;       /* per device */
  hr_executable **exes;  /* per device; NULL until compiled */
  hr_tensor_spec *specs; /* the input specs the executables were compiled for (n_in) */
};

/* A positive integer module attribute (1 when absent). */
static hr_status module_count(const hr_module *m, const char *name, int64_t *out) {
  const hr_attr *a = m->attrs ? hr_attr_field(m->attrs, name) : NULL;
  *out = a && a->kind == HR_ATTR_INT ? a->u.i.value : 1;
  if (*out < 1 || *out > HR_LIMIT_PROCESSES)
    return hr_error(HR_INVALID_ARGUMENT, "%s: %s is %lld; 1 to %d devices are run", m->filename ? m->filename : "module",
                    name, (long long)*out, HR_LIMIT_PROCESSES);
  return NULL;
}

int64_t hr_module_num_devices(const hr_module *m) {
  int64_t r = 1, p = 1;
  hr_status s = module_count(m, "mhlo.num_replicas", &r);
  if (!s) s = module_count(m, "mhlo.num_partitions", &p);
  hr_status_free(s);
  return r * p;
}

/* Whether one of the `n` attribute dictionaries (entries may be NULL) gives a value a sharding. */
static bool any_sharding(hr_attr *const *dicts, int n) {
  for (int i = 0; dicts && i < n; i++)
    if (dicts[i] && (hr_attr_field(dicts[i], "sdy.sharding") || hr_attr_field(dicts[i], "mhlo.sharding"))) return true;
  return false;
}

bool hr_module_is_spmd(const hr_module *m) {
  if (hr_module_num_devices(m) < 2 || m->n_meshes > 0) return false;
  for (int f = 0; f < m->n_funcs; f++)
    if (any_sharding(m->funcs[f]->arg_attrs, m->funcs[f]->n_args) ||
        any_sharding(m->funcs[f]->result_attrs, m->funcs[f]->n_results))
      return false;
  return true;
}

/* Frees the devices' executables. */
static void drop_executables(hr_spmd *s) {
  for (int d = 0; d < s->n; d++) {
    hr_executable_free(s->exes[d]);
    s->exes[d] = NULL;
  }
}

void hr_spmd_free(hr_spmd *s) {
  if (!s) return;
  drop_executables(s);
  hr_program_free(s->program);
  s->a->free(s->a->ctx, s->exes);
  s->a->free(s->a->ctx, s->specs);
  s->a->free(s->a->ctx, s);
}

/* The options every device's executable is compiled with. */
static hr_exec_options device_options(const hr_exec_options *opts, int devices) {
  hr_exec_options o = {0};
  if (opts) o = *opts;
  o.disable_batch_split = true;
  if (o.num_threads == 0) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.num_threads = cpus > devices ? (int)(cpus / devices) : 1;
  }
  return o;
}

hr_status hr_spmd_create(hr_module *m, const char *fn_name, hr_weights *weights, const hr_exec_options *opts,
                         hr_spmd **out) {
  *out = NULL;
  int64_t replicas = 1, partitions = 1;
  hr_status st = module_count(m, "mhlo.num_replicas", &replicas);
  if (!st) st = module_count(m, "mhlo.num_partitions", &partitions);
  if (!st && replicas * partitions > HR_LIMIT_PROCESSES)
    st = hr_error(HR_INVALID_ARGUMENT, "%lld x %lld devices: at most %d are run", (long long)replicas,
                  (long long)partitions, HR_LIMIT_PROCESSES);
  if (st) {
    hr_module_free(m);
    hr_weights_free(weights);
    return st;
  }
  int n = (int)(replicas * partitions);
  bool global = !hr_module_is_spmd(m);
  hr_exec_options o = device_options(opts, n);
  const hr_allocator *a = o.allocator ? o.allocator : hr_default_allocator();
  hr_program *p;
  HR_TRY(hr_program_create(m, fn_name, weights, &o, &p));
  hr_spmd *s = a->alloc(a->ctx, sizeof *s, _Alignof(hr_spmd));
  if (s) memset(s, 0, sizeof *s);
  int n_in = hr_program_num_inputs(p);
  if (s) {
    *s = (hr_spmd){a, p, replicas, partitions, n, global, n_in, hr_program_num_outputs(p), NULL, NULL};
    s->exes = a->alloc(a->ctx, sizeof *s->exes * (size_t)n, _Alignof(hr_executable *));
    s->specs = a->alloc(a->ctx, sizeof *s->specs * (size_t)(n_in ? n_in : 1), _Alignof(hr_tensor_spec));
  }
  if (!s || !s->exes || !s->specs) {
    if (s && s->exes) a->free(a->ctx, s->exes);
    if (s && s->specs) a->free(a->ctx, s->specs);
    if (s) a->free(a->ctx, s);
    hr_program_free(p);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory creating an SPMD program");
  }
  memset(s->exes, 0, sizeof *s->exes * (size_t)n);
  *out = s;
  return NULL;
}

int hr_spmd_num_devices(const hr_spmd *s) { return s->n; }
bool hr_spmd_is_global(const hr_spmd *s) { return s->global; }
const hr_program *hr_spmd_program(const hr_spmd *s) { return s->program; }

/* Checks that every device's inputs have device 0's specs (a global program's are given once). */
static hr_status check_inputs(const hr_spmd *s, hr_tensor *const *inputs) {
  for (int d = 1; !s->global && d < s->n; d++)
    for (int i = 0; i < s->n_in; i++) {
      const hr_tensor *a = inputs[i], *b = inputs[d * s->n_in + i];
      hr_tensor_spec sa = {a->dtype, a->shape}, sb = {b->dtype, b->shape};
      if (!hr_spec_equal(&sa, &sb))
        return hr_error(HR_INVALID_ARGUMENT, "input %d of device %d differs in type or shape from device 0's", i, d);
    }
  return NULL;
}

/* Compiles every device's executable for device 0's inputs, unless already compiled for them. */
static hr_status prepare(hr_spmd *s, hr_tensor *const *inputs) {
  bool same = s->exes[0] != NULL;
  for (int i = 0; same && i < s->n_in; i++) {
    hr_tensor_spec t = {inputs[i]->dtype, inputs[i]->shape};
    same = hr_spec_equal(&t, &s->specs[i]);
  }
  if (same) return NULL;
  drop_executables(s);
  for (int i = 0; i < s->n_in; i++) s->specs[i] = (hr_tensor_spec){inputs[i]->dtype, inputs[i]->shape};
  for (int d = 0; d < s->n; d++) {
    if (s->global) hr_program_set_device(s->program, d);
    hr_status st = hr_program_compile(s->program, s->specs, s->n_in, &s->exes[d]);
    if (st) {
      drop_executables(s);
      return st;
    }
  }
  return NULL;
}

/* One run of every device. */
typedef struct spmd_run {
  hr_spmd *s;
  hr_tensor *const *inputs;
  hr_tensor ***outs; /* per device */
} spmd_run;

/* The body of device `index`: its executable run as its process. */
static hr_status run_device(void *ctx, const hr_process *process, int index) {
  spmd_run *r = ctx;
  hr_spmd *s = r->s;
  hr_executable *e = s->exes[index];
  hr_executable_set_process(e, process);
  int n_out = 0;
  hr_tensor *const *inputs = s->global ? r->inputs : r->inputs + (size_t)index * (size_t)s->n_in;
  hr_status st = hr_executable_run(e, inputs, s->n_in, &r->outs[index], &n_out);
  hr_executable_set_process(e, NULL);
  return st;
}

/* Moves the devices' outputs into one array, device after device (arrays of outputs are the
 * default allocator's: hr_tensors_free frees them); a global program's are device 0's. */
static hr_status flatten(hr_spmd *s, hr_tensor ***outs, hr_tensor ***outputs, int *num_outputs) {
  if (s->global) {
    *outputs = outs[0];
    *num_outputs = s->n_out;
    outs[0] = NULL;
    return NULL;
  }
  size_t total = (size_t)s->n * (size_t)s->n_out;
  const hr_allocator *da = hr_default_allocator();
  hr_tensor **all = da->alloc(da->ctx, sizeof *all * (total ? total : 1), _Alignof(hr_tensor *));
  if (!all) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int d = 0; d < s->n; d++) {
    if (s->n_out) memcpy(all + (size_t)d * (size_t)s->n_out, outs[d], sizeof *all * (size_t)s->n_out);
    da->free(da->ctx, outs[d]);
    outs[d] = NULL;
  }
  *outputs = all;
  *num_outputs = (int)total;
  return NULL;
}

hr_status hr_spmd_run(hr_spmd *s, hr_tensor *const *inputs, int num_inputs, hr_tensor ***outputs, int *num_outputs) {
  *outputs = NULL;
  *num_outputs = 0;
  if (s->global && num_inputs != s->n_in)
    return hr_error(HR_INVALID_ARGUMENT, "%d inputs expected, %d given", s->n_in, num_inputs);
  if (!s->global && num_inputs != s->n * s->n_in)
    return hr_error(HR_INVALID_ARGUMENT, "%d devices x %d inputs expected, %d given", s->n, s->n_in, num_inputs);
  for (int i = 0; i < num_inputs; i++)
    if (!inputs[i]) return hr_error(HR_INVALID_ARGUMENT, "input %d is missing", i);
  HR_TRY(check_inputs(s, inputs));
  HR_TRY(prepare(s, inputs));
  hr_tensor ***outs = s->a->alloc(s->a->ctx, sizeof *outs * (size_t)s->n, _Alignof(hr_tensor **));
  if (!outs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  memset(outs, 0, sizeof *outs * (size_t)s->n);
  hr_grid *g;
  hr_status st = hr_grid_create(s->a, s->replicas, s->partitions, &g);
  if (!st) {
    spmd_run r = {s, inputs, outs};
    st = hr_grid_run(g, run_device, &r);
    hr_grid_free(g);
  }
  if (!st) st = flatten(s, outs, outputs, num_outputs);
  for (int d = 0; d < s->n; d++)
    if (outs[d]) hr_tensors_free(outs[d], s->n_out);
  s->a->free(s->a->ctx, outs);
  return st;
}

/*
 * hlorun — run JAX-exported StableHLO programs from C.
 *
 * This is the single public header. Everything else under src/ is internal.
 *
 * Conventions
 *  - Every fallible function returns an hr_status. NULL means success; any other value is an owned
 *    error object carrying a code and a message that names the input position at fault
 *    ("model.mlir:12:7: ..."). Free it with hr_status_free().
 *  - Objects are created with an explicit allocator (NULL selects the malloc-based default) and are
 *    owned by the caller until passed to the matching *_free function.
 */
#ifndef HLORUN_HLORUN_H
#define HLORUN_HLORUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------- */
/* Version                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The version of this header: MAJOR.MINOR.PATCH (CMakeLists.txt reads the project version from
 * these three lines). ABI policy: before 1.0 any minor release may change the ABI; from 1.0 on, the
 * ABI changes only with the major version. A program can compare hr_version_number() with
 * HLORUN_VERSION_NUMBER at startup to check that the library it runs with is the one it was
 * compiled against. */
#define HLORUN_VERSION_MAJOR 0
#define HLORUN_VERSION_MINOR 1
#define HLORUN_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH (MINOR and PATCH stay below 100): 0.1.0 is 100, 1.2.3 is 10203. */
#define HLORUN_VERSION_NUMBER (HLORUN_VERSION_MAJOR * 10000 + HLORUN_VERSION_MINOR * 100 + HLORUN_VERSION_PATCH)
#define HLORUN_VERSION_STR_(x) #x
#define HLORUN_VERSION_STR(x) HLORUN_VERSION_STR_(x)
/* "MAJOR.MINOR.PATCH", "0.1.0". */
#define HLORUN_VERSION_STRING                                                                 \
  HLORUN_VERSION_STR(HLORUN_VERSION_MAJOR) "." HLORUN_VERSION_STR(HLORUN_VERSION_MINOR) "." \
      HLORUN_VERSION_STR(HLORUN_VERSION_PATCH)

/* The version of the library itself (what it was compiled with), as HLORUN_VERSION_NUMBER and
 * HLORUN_VERSION_STRING spell it. */
int hr_version_number(void);
const char *hr_version_string(void);

/* ---------------------------------------------------------------------------------------------- */
/* Status                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

typedef enum hr_code {
  HR_OK = 0,
  HR_INVALID_ARGUMENT, /* caller passed something unusable */
  HR_PARSE_ERROR,      /* malformed program text or file */
  HR_VERIFY_ERROR,     /* well-formed but semantically invalid program (types, shapes, attributes) */
  HR_UNIMPLEMENTED,    /* valid input using a feature hlorun does not support yet */
  HR_OUT_OF_MEMORY,    /* an allocation failed */
  HR_RESOURCE_EXHAUSTED, /* a configured limit (tensor size, nesting, iterations) was exceeded */
  HR_IO_ERROR,         /* reading or writing a file failed */
  HR_NOT_FOUND,        /* a named thing (function, file, input) does not exist */
  HR_OUT_OF_RANGE,     /* a runtime value is outside its valid range */
  HR_CHECK_FAILED,     /* a check.* assertion in the program failed */
  HR_INTERNAL,         /* a bug in hlorun */
  HR_DEADLINE_EXCEEDED, /* a run passed its deadline (hr_run_control) */
  HR_CANCELLED,        /* the caller cancelled a run (hr_run_control) */
} hr_code;

typedef struct hr_status_s *hr_status; /* NULL == success */

/* Creates an error status with a printf-style message. Never returns NULL for code != HR_OK; when
 * memory is exhausted a static out-of-memory status is returned (hr_status_free ignores it). */
hr_status hr_error(hr_code code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
hr_code hr_status_code(hr_status s);
const char *hr_status_message(hr_status s); /* "" for success */
const char *hr_code_name(hr_code code);     /* "INVALID_ARGUMENT", ... */
void hr_status_free(hr_status s);
/* Returns a new status whose message is "<prefix>: <old message>", freeing `s`. */
hr_status hr_status_wrap(hr_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Evaluates `expr` (an hr_status expression) and returns it from the enclosing function on error. */
#define HR_TRY(expr)                                                                               \
  do {                                                                                             \
    hr_status hr_try_status_ = (expr);                                                             \
    if (hr_try_status_) return hr_try_status_;                                                     \
  } while (0)

/* ---------------------------------------------------------------------------------------------- */
/* Allocator                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

typedef struct hr_allocator {
  /* Returns `size` bytes aligned to `align` (a power of two <= 4096) or NULL. */
  void *(*alloc)(void *ctx, size_t size, size_t align);
  void (*free)(void *ctx, void *ptr);
  void *ctx;
} hr_allocator;

/* The malloc/free allocator. A constant object: it holds no state. */
const hr_allocator *hr_default_allocator(void);

/* ---------------------------------------------------------------------------------------------- */
/* Element types                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* In-memory layout: i1 is one byte (0 or 1); i2/i4 and ui2/ui4 use one byte each, sign- or
 * zero-extended; f16/bf16 are IEEE/bfloat16 bit patterns in uint16_t; complex types are (re, im)
 * pairs of f32/f64. All multi-byte values are in host (little-endian) order. */
typedef enum hr_dtype {
  HR_DTYPE_INVALID = 0,
  HR_I1,
  HR_I2,
  HR_I4,
  HR_I8,
  HR_I16,
  HR_I32,
  HR_I64,
  HR_U2,
  HR_U4,
  HR_U8,
  HR_U16,
  HR_U32,
  HR_U64,
  HR_F16,
  HR_BF16,
  HR_F32,
  HR_F64,
  HR_C64,
  HR_C128,
  /* The narrow floating-point types of the StableHLO spec, one element a byte (the f4 and f6
   * types in the low bits), and tf32 held as the float32 bit pattern with its low 13 mantissa bits
   * zero (4 bytes). Read, printed, written and carried; which ops run on them is said where they
   * run (the interpreter and compiler refuse what they do not run, naming the type). */
  HR_F8E4M3FN,
  HR_F8E5M2,
  HR_F8E4M3FNUZ,
  HR_F8E5M2FNUZ,
  HR_F8E4M3B11FNUZ,
  HR_F8E3M4,
  HR_F8E4M3,
  HR_F8E8M0FNU,
  HR_F4E2M1FN,
  HR_F6E2M3FN,
  HR_F6E3M2FN,
  HR_TF32,
  /* MLIR's `index` (shape operands of the dynamic ops, custom-call layouts), held as 64 bits. */
  HR_INDEX,
  HR_DTYPE_COUNT
} hr_dtype;

const char *hr_dtype_name(hr_dtype t); /* MLIR spelling: "i1", "ui8", "bf16", "complex<f32>" */
size_t hr_dtype_size(hr_dtype t);      /* bytes per element in memory */
bool hr_dtype_is_float(hr_dtype t);    /* f16, bf16, f32, f64 */
bool hr_dtype_is_narrow_float(hr_dtype t); /* the f8, f6 and f4 types and tf32 */
bool hr_dtype_is_complex(hr_dtype t);
bool hr_dtype_is_signed_int(hr_dtype t);   /* i2..i64 (not i1) */
bool hr_dtype_is_unsigned_int(hr_dtype t); /* ui2..ui64 */
int hr_dtype_bits(hr_dtype t);             /* logical bit width: 1 for i1, 4 for i4, 64 for c64 ... */

/* ---------------------------------------------------------------------------------------------- */
/* Tensors (host buffers)                                                                          */
/* ---------------------------------------------------------------------------------------------- */

#define HR_MAX_RANK 16
/* Bytes of hr_exec_options.device, its NUL included. */
#define HR_DEVICE_NAME_MAX 40
#define HR_DYNAMIC (-1) /* a dimension of unknown size ('?') */

typedef struct hr_shape {
  int rank;
  int64_t dims[HR_MAX_RANK];
} hr_shape;

/* A dense row-major host tensor. `data` is owned by the tensor (allocated with `allocator`). */
typedef struct hr_tensor {
  hr_dtype dtype;
  hr_shape shape;
  void *data;
  size_t nbytes;
  const hr_allocator *allocator;
} hr_tensor;

/* Number of elements; 0 with an error when the product overflows int64 or a dim is dynamic. */
hr_status hr_shape_num_elements(const hr_shape *shape, int64_t *out);
/* Allocates a zero-filled tensor. Fails cleanly on overflow or when the size exceeds `max_bytes`
 * (0 means no limit beyond what fits in size_t). */
hr_status hr_tensor_create(const hr_allocator *a, hr_dtype dtype, const hr_shape *shape,
                           size_t max_bytes, hr_tensor **out);
void hr_tensor_free(hr_tensor *t);
int64_t hr_tensor_num_elements(const hr_tensor *t);

/* ---------------------------------------------------------------------------------------------- */
/* Programs                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

typedef struct hr_weights hr_weights; /* named tensors (see the safetensors section) */

typedef struct hr_module hr_module; /* a parsed and verified StableHLO module */

typedef struct hr_parse_options {
  const hr_allocator *allocator; /* NULL: default */
  size_t max_constant_bytes;     /* largest dense constant accepted; 0: 4 GiB */
  int max_nesting;               /* region / attribute / type nesting bound; 0 or more than 256: 256 */
  /* Skip the verifier: the module is read as written, to be printed or inspected (StableHLO's own
   * verifier accepts some modules the spec's constraints refuse). Verify it (hr_module_verify, in
   * the internal API) before running it: the compiler and interpreter expect verified modules. */
  bool no_verify;
} hr_parse_options;

/* Parses StableHLO text (the form `jax.jit(f).lower(x).as_text()` prints). `filename` is used in
 * error messages only. The module is verified; errors name file:line:col. */
hr_status hr_module_parse(const char *filename, const char *text, size_t len,
                          const hr_parse_options *opts, hr_module **out);
/* Reads a StableHLO portable artifact: MLIR bytecode holding the VHLO dialect (what
 * `jax.export` serializes inside its files and `stablehlo.serialize_portable_artifact` writes),
 * bytecode versions 0 to 6, StableHLO 0.9.0 to 1.20. The module is the one hr_module_parse gives for the artifact's
 * StableHLO text, verified; errors name the file and the byte offset. `data` may be freed after. */
hr_status hr_module_parse_bytecode(const char *filename, const void *data, size_t len, const hr_parse_options *opts,
                                   hr_module **out);
/* Reads and parses a module file, StableHLO text or a portable artifact (told apart by content). */
hr_status hr_module_parse_file(const char *path, const hr_parse_options *opts, hr_module **out);
void hr_module_free(hr_module *m);
/* Reads a jax2tf SavedModel as TF Serving would serve it: `path` is a SavedModel directory
 * (saved_model.pb and variables/) or a file holding a SavedModel or a bare GraphDef. The program of
 * signature `signature` (NULL: "serving_default") becomes *module, whose @main takes the
 * signature's inputs (named after their keys, jax.arg_info) and the variables it reads, bound by
 * name to *weights (set to NULL when there are none; hr_program_create binds them). A name no
 * signature has may name a function of the object graph (deepmd's "call_lower"), whose @main takes
 * the function's arguments (docs/formats.md). */
hr_status hr_savedmodel_read(const char *path, const char *signature, const hr_allocator *a, hr_module **module,
                             hr_weights **weights);
/* Prints the module as StableHLO text that parses back to an equal module. */
hr_status hr_module_print(const hr_module *m, FILE *out);

/* ---------------------------------------------------------------------------------------------- */
/* Execution (reference interpreter)                                                               */
/* ---------------------------------------------------------------------------------------------- */

typedef struct hr_run_options {
  const hr_allocator *allocator; /* allocator for intermediate and result tensors; NULL: default */
  size_t max_tensor_bytes;       /* largest single intermediate tensor; 0: 4 GiB */
  int64_t max_while_iterations;  /* bound on each stablehlo.while; 0: 1e9 */
  int num_threads;               /* 0: number of online CPUs */
  bool run_checks;               /* evaluate check.* custom calls (otherwise they are skipped) */
  int64_t *checks_passed;        /* optional out: number of check.* calls and ops that passed */
  /* optional: a deadline and cancellation, polled before each op of a function body and on each
   * while iteration (max_output_bytes is not used here); NULL: none */
  const struct hr_run_control *control;
} hr_run_options;

/* Runs function `fn_name` (usually "main") with `inputs`. On success *outputs is an array of
 * *num_outputs tensors, each owned by the caller, and the array itself is freed with
 * hr_tensors_free(). A failing check.* call returns HR_CHECK_FAILED naming the op's position. */
hr_status hr_module_run(const hr_module *m, const char *fn_name, hr_tensor *const *inputs,
                        int num_inputs, const hr_run_options *opts, hr_tensor ***outputs,
                        int *num_outputs);
void hr_tensors_free(hr_tensor **tensors, int n);

/* ---------------------------------------------------------------------------------------------- */
/* Compiled execution: programs (JIT) and executables (AOT)                                        */
/* ---------------------------------------------------------------------------------------------- */

/* A tensor's element type and shape; dims may be HR_DYNAMIC where a program accepts any size. */
typedef struct hr_tensor_spec {
  hr_dtype dtype;
  hr_shape shape;
} hr_tensor_spec;

typedef struct hr_exec_options {
  const hr_allocator *allocator; /* NULL: default */
  int num_threads;               /* 0: number of online CPUs */
  size_t max_arena_bytes;        /* bound on an executable's working memory; 0: 16 GiB */
  bool disable_fusion;           /* compile without the fusion pass (reference kernels only) */
  bool bf16;                     /* opt-in: matrix products with bf16 inputs and f32 accumulation */
  bool disable_batch_split;      /* compile large batches whole (see hr_program_compile) */
  /* The device to run on: "" or "cpu" (the host CPU), "template" (the template backend, for
   * tests and as the start of a new one), later "cuda:0". Steps its kernels cannot run stay on the
   * CPU, and values crossing between the two are copied. NUL-terminated. */
  char device[HR_DEVICE_NAME_MAX];
} hr_exec_options;

/* An executable: one function compiled for fixed input shapes, with its working memory planned
 * into one arena and its bound parameters (weights) prepared. Running it allocates nothing but
 * the result tensors it returns. Not safe to run from two threads at once. */
typedef struct hr_executable hr_executable;

int hr_executable_num_inputs(const hr_executable *e);
hr_tensor_spec hr_executable_input_spec(const hr_executable *e, int i);
int hr_executable_num_outputs(const hr_executable *e);
hr_tensor_spec hr_executable_output_spec(const hr_executable *e, int i);
/* Runs on `inputs` (exactly the compiled specs); *outputs is an array of owned tensors, freed with
 * hr_tensors_free(). */
hr_status hr_executable_run(hr_executable *e, hr_tensor *const *inputs, int num_inputs, hr_tensor ***outputs,
                            int *num_outputs);
/* The device the executable was created for ("cpu", "template", ...). */
const char *hr_executable_device(const hr_executable *e);
/* The output that runtime input `input` is donated to, or -1: the program marks the input's
 * parameter tf.aliasing_output = N (output N) or jax.buffer_donor = true (the first output of the
 * same spec not taken by another input). A caller may then give that input's tensor as the
 * output's buffer in hr_executable_run_into (a KV cache updated in place, say). */
int hr_executable_donated_output(const hr_executable *e, int input);
/* The bytes of working memory (the arena of intermediates) the executable holds. */
size_t hr_executable_arena_bytes(const hr_executable *e);
/* Makes the executable keep its intermediates in `base` (at least hr_executable_arena_bytes, 64-byte
 * aligned, owned by the caller and outliving the executable) instead of memory of its own, which is
 * freed: executables that never run at the same time (a generation engine's buckets) can share one
 * arena. Its contents need not survive between runs. Only for executables on the host CPU. */
hr_status hr_executable_use_arena(hr_executable *e, void *base, size_t bytes);

/* Per-call controls of a run (all fields optional; a zeroed struct controls nothing). */
typedef struct hr_run_control {
  double deadline;              /* CLOCK_MONOTONIC time in seconds after which the run stops with HR_DEADLINE_EXCEEDED; 0: none */
  bool (*cancelled)(void *ctx); /* polled with the deadline: true stops the run with HR_CANCELLED */
  void *cancel_ctx;
  size_t max_output_bytes;      /* when the outputs for these input shapes (known once compiled) would take more bytes
                                   in all, fail with HR_RESOURCE_EXHAUSTED before running; 0: no bound */
} hr_run_control;
/* The CLOCK_MONOTONIC time in seconds (for hr_run_control.deadline: hr_monotonic_seconds() + budget). */
double hr_monotonic_seconds(void);
/* hr_executable_run under `ctl` (NULL: none). The deadline and the callback are polled before each
 * step (an op) of each chunk and on each iteration of a stablehlo.while; a run they stop returns
 * no outputs, frees what it made and leaves the executable ready for the next run. */
hr_status hr_executable_run_controlled(hr_executable *e, hr_tensor *const *inputs, int num_inputs,
                                       const hr_run_control *ctl, hr_tensor ***outputs, int *num_outputs);
/* Runs as hr_executable_run_controlled, writing the results into tensors the caller gives (one per
 * output, exactly its spec, data present): nothing is allocated for them. Outputs must not share
 * memory with each other; an output may be given the very buffer of an input (same data and size,
 * the donated one above), as the results are written after the steps of a run (of each chunk of a
 * batch split) have read the inputs, unless another output returns that input unchanged. */
hr_status hr_executable_run_into(hr_executable *e, hr_tensor *const *inputs, int num_inputs,
                                 const hr_run_control *ctl, hr_tensor *const *outputs, int num_outputs);
void hr_executable_free(hr_executable *e);

/* A program: a module's entry function with some parameters bound to weights. Runtime inputs are
 * the unbound parameters, in order. Running compiles an executable for the inputs' shapes on first
 * use and caches it (JIT); hr_program_compile does the same ahead of time. Thread-safe. */
typedef struct hr_program hr_program;

/* Creates a program from `m` (ownership passes to the program, also on error) and its function
 * `fn_name` (NULL: "main"). When `weights` is given (ownership passes too), every parameter whose
 * jax.arg_info key path names a weight is bound to it; the types must match exactly. */
hr_status hr_program_create(hr_module *m, const char *fn_name, hr_weights *weights, const hr_exec_options *opts,
                            hr_program **out);
void hr_program_free(hr_program *p);
int hr_program_num_inputs(const hr_program *p);
/* The input's spec (dynamic dims as HR_DYNAMIC) and name (jax.arg_info, or "argN"). */
hr_tensor_spec hr_program_input_spec(const hr_program *p, int i);
const char *hr_program_input_name(const hr_program *p, int i);
int hr_program_num_outputs(const hr_program *p);
hr_tensor_spec hr_program_output_spec(const hr_program *p, int i);
const hr_module *hr_program_module(const hr_program *p);
const char *hr_program_function(const hr_program *p);
/* Compiles for concrete input shapes (one spec per runtime input). The executable is owned by the
 * caller and stays valid after the program is freed. A large batch (every runtime input's
 * dimension 0 dynamic in the program and the same size B here) whose intermediates would not stay
 * in the caches is compiled for a divisor of B, and each run then runs it on consecutive slices of
 * the inputs and outputs, when the compiler proves the function computes each example alone
 * (same results, same specs; hr_exec_options.disable_batch_split turns this off). */
hr_status hr_program_compile(hr_program *p, const hr_tensor_spec *inputs, int num_inputs, hr_executable **out);
/* Runs with JIT compilation cached by input shapes (compiled as hr_program_compile does). */
hr_status hr_program_run(hr_program *p, hr_tensor *const *inputs, int num_inputs, hr_tensor ***outputs,
                         int *num_outputs);
/* hr_program_run under `ctl` (NULL: none), as hr_executable_run_controlled runs; max_output_bytes is
 * checked once the executable for the inputs' shapes is compiled or found, before it runs. */
hr_status hr_program_run_controlled(hr_program *p, hr_tensor *const *inputs, int num_inputs, const hr_run_control *ctl,
                                    hr_tensor ***outputs, int *num_outputs);
/* Number of executables compiled and cached so far (for tests and metrics). */
int hr_program_cache_size(const hr_program *p);

/* SPMD programs: a module whose entry function is the code of one device of mhlo.num_replicas x
 * mhlo.num_partitions devices (as XLA's SPMD partitioner or a shard_map body produces it). Each
 * device runs its own executable of that function on a thread of its own; collectives
 * (all_reduce, all_gather, ...) exchange values between the devices in memory, with the
 * semantics of StableHLO's process grid, while everything else runs on the compiled kernels.
 * Device d is replica d / partitions, partition d % partitions. Not thread-safe. */
typedef struct hr_spmd hr_spmd;

/* The number of devices a module is written for: mhlo.num_replicas x mhlo.num_partitions (each
 * 1 when absent). */
int64_t hr_module_num_devices(const hr_module *m);
/* Whether `m` holds one device's code: written for several devices and without the sharding
 * annotations (Shardy meshes; sdy.sharding or mhlo.sharding on a function's parameters or
 * results) that mark a global program, one JAX exports for the partitioner to split, which runs
 * on one device (its sdy.manual_computation bodies expanded over their devices). */
bool hr_module_is_spmd(const hr_module *m);
/* Creates an SPMD program from `m` (ownership passes, also on error), as hr_program_create does;
 * `weights` bind the same parameters on every device. With opts->num_threads 0 each device gets
 * an equal share of the online CPUs (at least one thread). `m` may also be a global program for
 * several devices (not hr_module_is_spmd: JAX's export of a shard_map): every device then runs
 * the whole function on the global inputs, each sdy.manual_computation body as that device's part
 * on its own thread (operands sliced by partition_id, results all-gathered), where hr_program_create
 * would expand the bodies over the devices on one; the mesh must have mhlo.num_partitions devices. */
hr_status hr_spmd_create(hr_module *m, const char *fn_name, hr_weights *weights, const hr_exec_options *opts,
                         hr_spmd **out);
void hr_spmd_free(hr_spmd *s);
int hr_spmd_num_devices(const hr_spmd *s);
/* Whether the program is a global one: its inputs and outputs are given once, whole. */
bool hr_spmd_is_global(const hr_spmd *s);
/* The program every device runs: its per-device (global: whole) inputs and outputs (specs, names). */
const hr_program *hr_spmd_program(const hr_spmd *s);
/* Runs every device once: `inputs` holds num_devices x hr_program_num_inputs tensors, device 0's
 * first, then device 1's, ...; the devices' input shapes must agree. Compiles one executable per
 * device on the first run and whenever the shapes change. On success *outputs holds
 * num_devices x hr_program_num_outputs owned tensors in the same order (*num_outputs in all),
 * freed with hr_tensors_free. A device that fails stops the others; the first failure is returned.
 * A global program takes hr_program_num_inputs inputs, shared by the devices, and gives device 0's
 * hr_program_num_outputs outputs. */
hr_status hr_spmd_run(hr_spmd *s, hr_tensor *const *inputs, int num_inputs, hr_tensor ***outputs, int *num_outputs);

/* ---------------------------------------------------------------------------------------------- */
/* NumPy .npy files                                                                                */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_npy_read_file(const char *path, const hr_allocator *a, size_t max_bytes,
                           hr_tensor **out);
hr_status hr_npy_read_buffer(const void *buf, size_t len, const hr_allocator *a, size_t max_bytes,
                             hr_tensor **out);
hr_status hr_npy_write_file(const char *path, const hr_tensor *t);
/* As hr_npy_read_file/_buffer where type `expect` is expected (a model input's; HR_DTYPE_INVALID:
 * nothing): a '|V1' array (how np.save writes every one-byte ml_dtypes type, float8_*, float6_*,
 * float4_e2m1fn, int2, int4, and how hr_npy_write_file writes the f8/f6/f4 types) is read as
 * `expect` when that is a one-byte type, and '|i1' / '|u1' as i2/i4 (ui2/ui4) when one is
 * expected; every byte must be a value of that type. Any other array reads as it says. */
hr_status hr_npy_read_file_as(const char *path, hr_dtype expect, const hr_allocator *a, size_t max_bytes,
                              hr_tensor **out);
hr_status hr_npy_read_buffer_as(const void *buf, size_t len, hr_dtype expect, const hr_allocator *a,
                                size_t max_bytes, hr_tensor **out);

/* ---------------------------------------------------------------------------------------------- */
/* Named weight sets (safetensors files, Orbax checkpoints)                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Reads a .safetensors file. Every header entry is checked: dtype, shape, offsets inside the data
 * section, no overlaps, total size within `max_bytes` (0: 16 GiB). */
hr_status hr_safetensors_read_file(const char *path, const hr_allocator *a, size_t max_bytes, hr_weights **out);
/* Restores the arrays of an Orbax checkpoint directory (StandardCheckpointer / PyTreeCheckpointer,
 * direct or composite, OCDBT or plain zarr, v0 and v1 layouts, the legacy msgpack aggregate, or a
 * CheckpointManager directory: its latest step), each named by its pytree path joined with '.'
 * ("blocks.0.attn.key.kernel"), the name hr_keypath_to_dotted gives a parameter's jax.arg_info.
 * Arrays together above `max_bytes` (0: 16 GiB) are refused. */
hr_status hr_orbax_read_dir(const char *dir, const hr_allocator *a, size_t max_bytes, hr_weights **out);
/* Writes every tensor of `w` to a .safetensors file at `path` (atomically: a temporary file renamed),
 * in the set's order, data 8-byte aligned. */
hr_status hr_safetensors_write_file(const hr_weights *w, const char *path);
/* Saves `w` as a new Orbax checkpoint directory `dir` in the layout orbax-checkpoint's
 * StandardCheckpointer writes (OCDBT database of zarr arrays, zstd; formats/orbax/orbax_write.c),
 * which hr_orbax_read_dir and Orbax restore. `dir` must not exist; it appears only when complete. */
hr_status hr_orbax_write_dir(const hr_weights *w, const char *dir);
/* Reads the weights at `path`: an Orbax checkpoint when it is a directory, else a safetensors file. */
hr_status hr_weights_read(const char *path, const hr_allocator *a, size_t max_bytes, hr_weights **out);
int hr_weights_count(const hr_weights *w);
const char *hr_weights_name(const hr_weights *w, int i);
const hr_tensor *hr_weights_tensor(const hr_weights *w, int i);
/* The tensor called `name`, or NULL. */
const hr_tensor *hr_weights_find(const hr_weights *w, const char *name);
void hr_weights_free(hr_weights *w);

/* ---------------------------------------------------------------------------------------------- */
/* Artifact files                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* A portable artifact (hlorun export) is one file holding a program: its StableHLO text, metadata
 * (entry function, input and output names, dtypes and shapes with -1 for symbolic dims, platforms,
 * format and producer versions) and its bound weights, each 64-byte aligned so the file can be
 * mapped and the weights used in place. An executable file (hlorun compile) holds an executable
 * the same way: its compiled program for fixed shapes, and its weights. */
hr_status hr_artifact_write(const hr_program *p, const char *path);
hr_status hr_executable_write(const hr_executable *e, const char *path);

/* How an artifact or executable file is read (hr_artifact_open_with, hr_executable_open_with).
 * In either mode the file is opened once, and its 80-byte header is read alone and checked
 * (magic, version, kind, file size equal to the file's, section bounds), and max_file_bytes
 * applied, before the rest of the file is mapped or read; then the CRC-32 over the whole file and
 * everything else is checked on the bytes the weights will use.
 *  - Mapping (copy false, the default): the file is mapped read-only and the weights are used in
 *    place. The file must then not be truncated or rewritten in place while the program or
 *    executable lives (a truncated mapping faults the process with SIGBUS); replace it instead by
 *    writing a new file and renaming it over the old one, as hr_artifact_write does.
 *  - Copy: the file is read into one 64-byte aligned buffer from the allocator of the
 *    hr_exec_options (or the default), which the weights then point into (no second copy).
 *    Rewriting, truncating or deleting the file afterwards cannot affect or fault a run. A file
 *    found to change while it is read (it ends early, or its size or times differ afterwards) is
 *    refused with HR_IO_ERROR "... changed while being read ...". */
typedef struct hr_artifact_options {
  size_t max_file_bytes; /* larger files are refused (HR_RESOURCE_EXHAUSTED) having read only the
                            header; 0: no bound */
  bool copy;             /* read the file into memory of its own instead of mapping it */
  /* Copy mode, optional: polled before each 8 MiB chunk is read; returning true stops the open
   * with HR_CANCELLED "<path>: reading the file was cancelled ...", nothing kept. */
  bool (*cancelled)(void *ctx);
  void *cancel_ctx; /* passed to `cancelled` */
} hr_artifact_options;

/* Opens an artifact and creates its program. `ao` NULL: mapping mode without a size bound. */
hr_status hr_artifact_open_with(const char *path, const hr_artifact_options *ao, const hr_exec_options *opts,
                                hr_program **out);
/* Opens an executable file; everything is prepared before it returns, so the first run costs the
 * same as later ones. `ao` as for hr_artifact_open_with. */
hr_status hr_executable_open_with(const char *path, const hr_artifact_options *ao, const hr_exec_options *opts,
                                  hr_executable **out);
/* hr_artifact_open_with and hr_executable_open_with with `ao` NULL: the file is mapped and the
 * weights stay in the mapping (no copy). */
hr_status hr_artifact_open(const char *path, const hr_exec_options *opts, hr_program **out);
hr_status hr_executable_open(const char *path, const hr_exec_options *opts, hr_executable **out);

/* Converts a JAX key path as found in jax.arg_info ("params['blocks'][0]['attn']['key']") to the
 * dotted name used by weight files ("blocks.0.attn.key"): the leading argument name is dropped.
 * Returns false when the text is not a key path or `cap` is too small. */
bool hr_keypath_to_dotted(const char *keypath, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* HLORUN_HLORUN_H */

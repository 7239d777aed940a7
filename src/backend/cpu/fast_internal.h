/* Internals of the fast kernels (fast*.c): the kernel object every kind extends, the vector
 * programs that evaluate elementwise regions (fast_vm.c), and the prepare function of each kind. */
#ifndef HLORUN_BACKEND_CPU_FAST_INTERNAL_H
#define HLORUN_BACKEND_CPU_FAST_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/cpu/cpu_features.h"
#include "backend/cpu/fast.h"
#include "backend/cpu/transpose.h"
#include "backend/cpu/vmath.h"

enum { HR_FAST_ALIGN = 64 };

/* Runs a prepared kernel (see hr_fast_run). */
typedef hr_status (*hr_fast_run_fn)(const hr_fast_kernel *k, hr_tensor *const *operands, hr_tensor *const *results,
                                    void *scratch);

/* The common part of every fast kernel; each kind embeds it as its first member. */
struct hr_fast_kernel {
  const char *name;
  hr_fast_run_fn run;
  void (*destroy)(hr_fast_kernel *k); /* frees what the kind owns besides the object; may be NULL */
  const hr_allocator *allocator;
  hr_threadpool *pool;
  int n_workers;        /* participants of pool (1 without a pool) */
  size_t scratch_bytes; /* for all workers together */
};

/* Allocates a zero-filled kernel object of `size` bytes (a kind's struct) with the common part
 * filled in; NULL when out of memory. */
hr_fast_kernel *hr_fast_kernel_new(const hr_fast_env *env, size_t size, const char *name, hr_fast_run_fn run);

/* The least work (elements times operations per element) worth a chunk of a parallel loop, what a
 * light kernel spends 3 to 6 microseconds on. Within a run the pool's workers are still polling
 * from the previous loop, and a parallel loop costs a microsecond or two more than a serial one
 * (a worker that has gone to sleep only takes the chunks the caller has not claimed yet, so a
 * late one costs little more). In the TinyTransformer at batch 1 (256 rows of 256), a quarter of
 * the former 131072 put its embedding gather, select and layer norms on both cores: 0.23 -> 0.16
 * ms per run. */
enum { HR_FAST_CHUNK_WORK = 32768 };

/* Items per parallel chunk for items of `work` units each (at least 1). */
static inline int64_t hr_fast_chunk(int64_t work) { return HR_FAST_CHUNK_WORK / (work > 0 ? work : 1) + 1; }

/* Rounds a byte count up to HR_FAST_ALIGN. */
static inline size_t hr_fast_round(size_t n) { return (n + HR_FAST_ALIGN - 1) / HR_FAST_ALIGN * HR_FAST_ALIGN; }

/* The first n (clamped to 0..16) of 16 lanes. */
HR_AVX512 static inline __mmask16 hr_lanes_below(int64_t n) {
  return n >= 16 ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

/* Whether `t` is a static f32 tensor. */
bool hr_fast_is_f32(const hr_tensor *t);

/* The product of dims [from, to) of `s`. */
int64_t hr_fast_dims_product(const hr_shape *s, int from, int to);

/* A float attribute of `op` (FLOAT, or a one-element f32 DENSE); false when absent or malformed. */
bool hr_fast_attr_float(const hr_op *op, const char *name, float *out);
/* A boolean attribute of `op` (BOOL, UNIT, INT, or a one-element i1 DENSE); `absent` when missing
 * or of another kind. */
bool hr_fast_attr_bool(const hr_op *op, const char *name, bool absent);

/* ---------------------------------------------------------------------------------------------- */
/* Vector programs (fast_vm.c)                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* An elementwise region (block arguments, constants and elementwise ops on rank-0 f32 tensors,
 * ending in stablehlo.return) compiled into a list of vector instructions. The program runs over
 * tiles of `rows x cols` elements: each instruction is one AVX-512 loop over the tile, reading
 * tile-sized temporaries in scratch memory, region arguments, or constants, and writing a
 * temporary (the last instruction writes the result). */
typedef struct hr_vm hr_vm;

enum { HR_VM_MAX_ARGS = 32 };

/* How region argument i is read over a tile: element (r, c) is p[r * row_stride + c], or
 * p[r * row_stride] for every c when `splat` (a value broadcast along the row). */
typedef struct hr_vm_input {
  const float *p;
  int64_t row_stride;
  bool splat;
} hr_vm_input;

/* Compiles `region`; *out is NULL when it uses something the programs do not support (an op, more
 * than HR_VM_MAX_ARGS arguments). Fails only when out of memory. */
hr_status hr_vm_compile(const hr_allocator *a, const hr_block *region, hr_vm **out);
void hr_vm_free(hr_vm *vm);
/* A one-instruction program applying elementwise op `code` (one of those IEEE arithmetic rounds
 * exactly: add, subtract, multiply, divide, maximum, minimum, negate, abs, sqrt, floor, ceil,
 * round_nearest_even, sign) to its n_operands arguments; *out NULL for other ops. */
hr_status hr_vm_for_op(const hr_allocator *a, hr_opcode code, int n_operands, hr_vm **out);
/* The region argument the region returns unchanged, or -1 when it computes something. */
int hr_vm_returned_arg(const hr_vm *vm);
/* Takes out the chain of adds the program starts with, ((arg0 + x1) + x2) ..., for at most `max`
 * arguments x with addable[x] (never argument 0), when the rest of the program reads the sum but
 * neither arg0 nor a partial sum; the rest then reads the sum as argument 0. Returns the number of
 * adds taken (0: the program is unchanged) and their arguments, in order, in args. A program
 * left with no instructions (hr_vm_instructions 0) must not be run. */
int hr_vm_take_leading_adds(hr_vm *vm, const bool *addable, int max, int *args);
/* The number of instructions. */
int hr_vm_instructions(const hr_vm *vm);
/* Operations per element, a transcendental function counting as 8 (for sizing parallel chunks). */
int64_t hr_vm_cost(const hr_vm *vm);
/* Scratch bytes one hr_vm_run needs (a multiple of HR_FAST_ALIGN). */
size_t hr_vm_scratch_bytes(const hr_vm *vm);
/* Evaluates the program over a rows x cols tile: out[r * ldo + c] for the region arguments read
 * through `inputs` (one per argument). `out` may be one of the inputs (same element positions).
 * `scratch` holds hr_vm_scratch_bytes bytes, 64-byte aligned. */
void hr_vm_run(const hr_vm *vm, const hr_vm_input *inputs, float *out, int64_t ldo, int64_t rows, int64_t cols,
               float *scratch);

/* ---------------------------------------------------------------------------------------------- */
/* Kinds                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Each prepares one kind of fast kernel, with the contract of hr_fast_prepare. */
hr_status hr_fast_prepare_matmul(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                 const bool *fixed, const hr_tensor *const *results, hr_fast_kernel **out);
hr_status hr_fast_prepare_fused(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                const hr_tensor *const *results, hr_fast_kernel **out);
hr_status hr_fast_prepare_layer_norm(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                     const hr_tensor *const *results, hr_fast_kernel **out);
hr_status hr_fast_prepare_softmax(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                  const hr_tensor *const *results, hr_fast_kernel **out);
/* The exact f32 elementwise stablehlo ops of hr_vm_for_op on operands of the result's shape
 * (fast_fused.c). */
hr_status hr_fast_prepare_elementwise(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                      const hr_tensor *const *results, hr_fast_kernel **out);
/* broadcast_in_dim, transpose, slice, gather of rows, select (exact copies; fast_data.c). */
hr_status hr_fast_prepare_data(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                               const hr_tensor *const *results, hr_fast_kernel **out);
/* reduce with a one-op body (exact; fast_reduce.c). */
hr_status hr_fast_prepare_reduce(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                 const hr_tensor *const *results, hr_fast_kernel **out);
/* stablehlo.dot_general as a batch of small products read through strides (fast_dot.c). */
hr_status hr_fast_prepare_dot(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                              const hr_tensor *const *results, hr_fast_kernel **out);
hr_status hr_fast_prepare_attention(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                    const hr_tensor *const *results, hr_fast_kernel **out);
/* hlorun.attention(q, k, v, position): each batch row attends to the keys 0..position[b] only
 * (fast_attention_decode.c). */
hr_status hr_fast_prepare_attention_decode(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                           const hr_tensor *const *results, hr_fast_kernel **out);
/* An hlorun.attention's shapes and where its q, k and v rows are: q [b, s, h, d], k and v
 * [b, t, h, d], given as three operands or as the parts of one qkv [b, s, 3, h, d] (operand 0). The
 * rows of (batch, head) are `pos` floats apart; a head's first row is at `batch` floats per batch
 * plus h * d, plus `off` for k and v within their operand. */
typedef struct hr_attention_shape {
  int64_t b, s, t, h, d;
  float q_scale; /* the op's scale times log2(e): every kernel's scores come out in base 2 */
  bool causal;
  bool packed;                /* q, k and v are operand 0 */
  int64_t q_pos, q_batch;     /* q rows */
  int64_t kv_pos, kv_batch;   /* k and v rows */
  int64_t k_off, v_off;       /* first element of k and of v in their operand */
} hr_attention_shape;

/* q, k and v of one run (operands as given to the kernel). */
static inline const float *hr_attention_q(const hr_attention_shape *a, hr_tensor *const *operands) {
  return operands[0]->data;
}
static inline const float *hr_attention_k(const hr_attention_shape *a, hr_tensor *const *operands) {
  return (const float *)operands[a->packed ? 0 : 1]->data + a->k_off;
}
static inline const float *hr_attention_v(const hr_attention_shape *a, hr_tensor *const *operands) {
  return (const float *)operands[a->packed ? 0 : 2]->data + a->v_off;
}

/* The bf16 attention on AMX (fast_attention_amx.c), all of `a` non-empty: leaves *out NULL unless
 * the bf16 mode is on, the CPU has AMX-BF16 and the shapes suit it. */
hr_status hr_fast_prepare_attention_amx(const hr_fast_env *env, const hr_attention_shape *a, hr_fast_kernel **out);

/* The bf16 attention on AVX512_BF16 (fast_attention_bf16.c), all of `a` non-empty: leaves *out
 * NULL unless the bf16 mode is on, the CPU has AVX512_BF16 and the shapes suit it. */
hr_status hr_fast_prepare_attention_bf16(const hr_fast_env *env, const hr_attention_shape *a, hr_fast_kernel **out);

#endif

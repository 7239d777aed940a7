/*
 * Internal interface of the specialization pass (hr_specialize, specialize.h).
 *
 * The pass builds the specialized module in one forward walk over the source function, inlining
 * callees (func.call, and stablehlo.composite through its decomposition) as it meets their calls
 * and the taken branch of stablehlo.if / stablehlo.case with a constant selector; every other op
 * is cloned into the new module and simplified on the spot. A backward sweep then removes dead
 * ops and numbers the values:
 *   clone.c      deep copies of strings, types and attributes into the new module's arena
 *   build.c      op and block construction in the new module (values get provisional ids)
 *   specialize.c the entry point and the walk: value remapping, inlining, regions
 *   manual.c     sdy.manual_computation emitted once per device, collectives across them
 *   manual_device.c  ... or as one device's code of an SPMD run (hr_specialize_device)
 *   refine.c     result types from shape inference over the refined operand types and values
 *   rewrite.c    dynamic ops to their static forms; identities replaced by their operand
 *   fold.c       get_dimension_size and all-constant ops to stablehlo.constant (via hr_folder)
 *   dce.c        dead-op removal and final value numbering
 */
#ifndef HLORUN_COMPILER_COMPILER_INTERNAL_H
#define HLORUN_COMPILER_COMPILER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "compiler/specialize.h"
#include "ir/ir.h"

/* Bounds on the output (base/limits.h): ops emitted, HR_LIMIT_SPECIALIZED_OPS (inlining can multiply
 * a program's size), and the nesting of inlined calls and regions together, HR_LIMIT_NESTING_DEPTH
 * (each level is a few stack frames; the output's regions then nest no deeper than the verifier and
 * the printer accept). The largest folded result when the folder does not say is
 * HR_LIMIT_FOLD_BYTES. */
/* Constant integer operands up to this many elements are handed to shape inference as values. */
#define HC_MAX_VALUE_ELEMS (2 * HR_MAX_RANK)

/* Scratch arrays reused from op to op (heap memory). */
typedef struct hc_scratch {
  hr_type *types;           /* shape inference: operand types, then result types */
  hr_tensor *tensors;       /* shape inference: operand values (views of small constants) */
  const hr_tensor **values; /* shape inference: pointers to those values, or NULL */
  int64_t *elems;           /* expanded splat operands, HC_MAX_VALUE_ELEMS int64 slots per operand */
  hr_value **repl;          /* folding: the values replacing an op's results */
  size_t cap;               /* entries of each array (elems: cap * HC_MAX_VALUE_ELEMS) */
} hc_scratch;

/* State of one hr_specialize run. */
typedef struct hc_ctx {
  const hr_module *src;
  hr_module *dst;
  hr_func *fn;              /* the new "main" */
  const hr_allocator *heap; /* scratch memory */
  const hr_folder *folder;  /* NULL: no folding beyond get_dimension_size */
  size_t max_fold_bytes;
  uint32_t n_values;        /* values created so far: their provisional ids are 0 .. n_values - 1 */
  size_t n_ops;             /* ops created so far (bounded by HR_LIMIT_SPECIALIZED_OPS) */
  int depth;                /* current nesting of inlined calls and regions */
  int64_t device;           /* >= 0: manual computations as this device's code (hc_device_manual) */
  const char *src_file;     /* the last source location file seen ... */
  const char *dst_file;     /* ... and its copy in dst */
  hc_scratch scratch;
} hc_ctx;

/* A block under construction: its ops gather in a heap vector until hc_block_finish. */
typedef struct hc_block {
  hr_block *block;
  hr_op **ops;
  size_t n, cap;
} hc_block;

/* One instance of a source function being specialized (the entry function, or an inlined
 * callee): the new value standing for each of its values, indexed by hr_value.id. Nested regions
 * share their function's frame, so that ops inside them can reach values of enclosing scopes. */
typedef struct hc_frame {
  const hr_func *func;
  hr_value **map;
} hc_frame;

/* ---- specialize.c ----------------------------------------------------------------------- */

/* Starts an instance of `fn` with no value bound yet. */
hr_status hc_frame_init(hc_ctx *c, const hr_func *fn, hc_frame *f);
/* Frees the frame's map. */
void hc_frame_release(hc_ctx *c, hc_frame *f);
/* The new value standing for source value `v`, read by `user`. */
hr_status hc_lookup(const hc_frame *f, const hr_op *user, const hr_value *v, hr_value **out);
/* Records `v` as the new value of source value `src`. */
void hc_bind(hc_frame *f, const hr_value *src, hr_value *v);
/* Enters one more level of inlined calls or regions at `op` (leave with c->depth--), failing when
 * that exceeds HR_LIMIT_NESTING_DEPTH. */
hr_status hc_enter(hc_ctx *c, const hr_op *op);
/* Emits source op `src` (of the function `f` instantiates) into `b`: cloned, refined, rewritten
 * and folded, or inlined (calls, constant branches, manual computations). */
hr_status hc_emit_op(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src);
/* Appends the refined clone `op` of `src` to `b` (or what replaces it: its operand when it is an
 * identity, constants when it folds) and binds the results of `src` accordingly. */
hr_status hc_place(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src, hr_op *op);

/* ---- manual.c --------------------------------------------------------------------------- */

/* Emits sdy.manual_computation `src` with its global meaning on one device: each operand sliced
 * into the per-device pieces its in_sharding gives, the body emitted once per device of the manual
 * axes (partition_id a constant there, collectives across the devices' values), and each result
 * assembled from the devices' pieces as its out_sharding says. */
hr_status hc_inline_manual(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src);

/* ---- manual_device.c -------------------------------------------------------------------- */

/* Emits sdy.manual_computation `src` as the code of device c->device: its operands cut to the
 * device's pieces, the body once, each result all-gathered whole (manual_device.c). */
hr_status hc_device_manual(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src);

/* ---- clone.c ---------------------------------------------------------------------------- */

/* An out-of-memory error. */
hr_status hc_oom(void);
/* Copies a NUL-terminated string into the new module (NULL stays NULL). */
hr_status hc_strdup(hc_ctx *c, const char *s, const char **out);
/* Copies a source location; the file name is copied once and shared. */
hr_status hc_loc(hc_ctx *c, hr_loc loc, hr_loc *out);
/* Deep-copies a type (tuple element arrays included). */
hr_status hc_type(hc_ctx *c, const hr_type *t, hr_type *out);
/* Deep-copies an attribute. */
hr_status hc_attr(hc_ctx *c, const hr_attr *a, hr_attr **out);
/* Deep-copies `n` named attributes into a new array. */
hr_status hc_named_attrs(hc_ctx *c, const hr_named_attr *attrs, int n, hr_named_attr **out);
/* Whether a type is a static tensor, a token, or a tuple of such. */
bool hc_type_is_static(const hr_type *t);

/* ---- build.c ---------------------------------------------------------------------------- */

/* Creates an op in the new module, positioned at `src` and linked to `parent`, with `n_operands`
 * operand slots and `n_results` results whose types the caller fills in. */
hr_status hc_op_new(hc_ctx *c, hr_opcode code, const hr_op *src, hr_block *parent, int n_operands,
                    int n_results, hr_op **out);
/* Gives a value the next provisional id (and no name). */
hr_status hc_value_init(hc_ctx *c, hr_value *v);
/* Sets or adds attribute `name` of `op` (the name must be a string literal or live in dst). */
hr_status hc_op_set_attr(hc_ctx *c, hr_op *op, const char *name, hr_attr *value);
/* Removes attribute `name` of `op` if present. */
void hc_op_remove_attr(hr_op *op, const char *name);
/* A DENSE_ARRAY<i64> attribute holding `n` integers. */
hr_status hc_i64_array(hc_ctx *c, const int64_t *v, int n, hr_attr **out);
/* A stablehlo.constant op of type `t` (a static tensor type without pointers) holding `data` (`nbytes` bytes, one
 * element when `splat`), copied into the new module; positioned at `src`. */
hr_status hc_constant_op(hc_ctx *c, const hr_op *src, hr_block *parent, const hr_type *t, const void *data,
                         size_t nbytes, bool splat, hr_op **out);

void hc_block_init(hc_block *b, hr_block *block);
/* Appends an op (its parent must be b->block). */
hr_status hc_block_push(hc_ctx *c, hc_block *b, hr_op *op);
/* Moves the gathered ops into the block (arena) and frees the vector. */
hr_status hc_block_finish(hc_ctx *c, hc_block *b);
/* Frees the vector (after an error). */
void hc_block_release(hc_ctx *c, hc_block *b);

/* ---- refine.c --------------------------------------------------------------------------- */

/* The DENSE value of a constant-defined value, or NULL. */
const hr_attr *hc_constant_value(const hr_value *v);
/* Reads the integer elements of constant value `v` (at most `cap`); false when `v` is not an
 * integer constant or has more elements. */
bool hc_constant_ints(const hr_value *v, int64_t *out, int cap, int *n);
/* Sets the result types of `op` (a fresh clone whose operands are refined) to the most precise of
 * its declared and inferred types. */
hr_status hc_refine(hc_ctx *c, hr_op *op);
/* Fails, naming `op`, when a result is not statically shaped. */
hr_status hc_check_static(const hr_op *op);
/* Makes every scratch array hold at least `n` entries. */
hr_status hc_scratch_reserve(hc_ctx *c, size_t n);
/* Frees the scratch arrays. */
void hc_scratch_release(hc_ctx *c);

/* ---- rewrite.c -------------------------------------------------------------------------- */

/* Turns a dynamic op with a static result and constant shape operands into its static form, in
 * place (dynamic_broadcast_in_dim, dynamic_reshape, dynamic_iota, real_dynamic_slice,
 * dynamic_pad, dynamic_gather, dynamic_conv); chlo.constant becomes stablehlo.constant. */
hr_status hc_rewrite_dynamic(hc_ctx *c, hr_op *op);
/* A chlo.broadcast_* op with static types becomes its stablehlo op, each operand of another shape
 * first broadcast (a broadcast_in_dim appended to `b`) to the result's shape, as StableHLO's
 * legalization does, so that the fast kernels and fusion see ordinary ops. */
hr_status hc_lower_chlo_broadcast(hc_ctx *c, hc_block *b, hr_op *op);
/* The operand an identity op (broadcast_in_dim, reshape, convert, transpose that change nothing,
 * sdy.sharding_constraint) stands for, or the element a get_tuple_element reads of a
 * stablehlo.tuple (JAX's old-ABI wrappers of tuple-returning custom calls); else NULL. */
hr_value *hc_identity_operand(const hr_op *op);

/* ---- fold.c ----------------------------------------------------------------------------- */

/* Replaces `op` by constants when possible: get_dimension_size of a static dimension, or an op
 * whose operands are all constants evaluated with the folder. When it does, one constant op per
 * result is appended to `b`, repl[i] (op->n_results entries) receives the value replacing result
 * i, and *folded is set; otherwise nothing changes. */
hr_status hc_fold(hc_ctx *c, hc_block *b, hr_op *op, hr_value **repl, bool *folded);

/* ---- dce.c ------------------------------------------------------------------------------ */

/* Removes ops whose results are unused and that have no side effects, then numbers the values of
 * c->fn densely and sets its n_values. */
hr_status hc_dce_and_number(hc_ctx *c);

#endif /* HLORUN_COMPILER_COMPILER_INTERNAL_H */

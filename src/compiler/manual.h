/* What the two ways of compiling sdy.manual_computation (JAX's shard_map) share: the mesh, its
 * devices, and the piece of a sharded value each device holds.
 *   manual.c        the computation with its global meaning on one device: the body emitted once
 *                   per device in lockstep, collectives combining the devices' values
 *   manual_device.c the computation as the code of one device of an SPMD run (hr_spmd): the
 *                   device's pieces of the operands, the body once, the results all-gathered
 */
#ifndef HLORUN_COMPILER_MANUAL_H
#define HLORUN_COMPILER_MANUAL_H

#include "compiler/compiler_internal.h"
#include "ir/shardy.h"

/* The devices of one manual computation and what each operand and result looks like there. */
typedef struct hc_manual {
  const hr_op *src;
  hr_sdy_mesh mesh;
  bool is_manual[HR_LIMIT_SDY_AXES];
  bool all_manual;
  int64_t n_devices;                                      /* devices numbered (see hc_manual_read) */
  int64_t coord[HR_LIMIT_SDY_DEVICES][HR_LIMIT_SDY_AXES]; /* each device's index along each axis */
  hc_frame frames[HR_LIMIT_SDY_DEVICES];                  /* manual.c: one per device, the body's values */
} hc_manual;

/* A zeroed hc_manual for `src` from c->heap (freed there by the caller). */
hr_status hc_manual_new(hc_ctx *c, const hr_op *src, hc_manual **out);
/* The error for a form of manual computation not compiled yet, naming `op`. */
hr_status hc_manual_unsupported(const hr_op *op, const char *what);
/* Reads m->src's in/out shardings (arena arrays, one per operand / result), its mesh and manual
 * axes, and numbers the devices row-major: over the manual axes (the others at 0), or over every
 * axis of the mesh when `all_axes`. Several replicas are refused. */
hr_status hc_manual_read(hc_ctx *c, hc_manual *m, bool all_axes, hr_sdy_sharding **in, hr_sdy_sharding **out);
/* The device's id as collectives and partition_id name it: its row-major index in the whole mesh. */
int64_t hc_manual_device_id(const hc_manual *m, int64_t d);
/* For device `d` and a value of type `global` sharded as `s`: per dimension, how many pieces the
 * manual axes cut it into (count) and which one the device holds (index). */
hr_status hc_manual_shard_of(const hc_manual *m, const hr_sdy_sharding *s, const hr_type *global, int64_t d,
                             int64_t *count, int64_t *index);
/* The piece [index * extent, (index + 1) * extent) of `v` along each dimension, extent its size
 * there over count: a slice op, or v itself when every count is 1. */
hr_status hc_manual_piece(hc_ctx *c, hc_block *b, const hr_op *src, hr_value *v, const int64_t *count,
                          const int64_t *index, hr_value **out);
/* Appends a new op of `code` over `operands` with one result of type `t`; *out is its result
 * (*op_out the op, when not NULL). */
hr_status hc_manual_emit(hc_ctx *c, hc_block *b, const hr_op *src, hr_opcode code, hr_value *const *operands, int n,
                         const hr_type *t, hr_op **op_out, hr_value **out);

#endif

/* Shared by the two files of the GSPMD import (gspmd_import.c: the manual regions found and
 * rewritten; gspmd_sharding.c: XLA's HloSharding strings read, and the mesh that expresses them). */
#ifndef HLORUN_IR_GSPMD_INTERNAL_H
#define HLORUN_IR_GSPMD_INTERNAL_H

#include "base/strbuf.h"
#include "ir/shardy.h"

/* What an HloSharding string says of one value. */
typedef enum hr_gspmd_kind {
  HR_GSPMD_REPLICATED, /* {replicated}: every device holds all of it */
  HR_GSPMD_MANUAL,     /* {manual}: a per-device value of a manual region */
  HR_GSPMD_TILED,      /* {devices=[...]...}: cut into tiles over the devices */
} hr_gspmd_kind;

/* A sharding read from its text. A tiled one: `tiles[d]` pieces along data dimension d, each held
 * by `replicas` devices (last_tile_dim_replicate); the device of tile index (t_0, ..., t_rank-1)
 * and copy r is devices[row-major index of (t_0, ..., t_rank-1, r)]. */
typedef struct hr_gspmd_sharding {
  hr_gspmd_kind kind;
  int rank;
  int64_t tiles[HR_MAX_RANK + 1]; /* (room for the replicated dimension while it is read) */
  int64_t replicas;
  int64_t n_devices; /* the product of tiles and replicas */
  int64_t *devices;  /* n_devices entries, in the scratch arena the sharding was read with */
} hr_gspmd_sharding;

/* A mesh of devices 0 .. n_devices - 1, row-major over its axes (named "a", "b", ...), each of a
 * prime size. */
typedef struct hr_gspmd_mesh {
  int n_axes;
  int64_t sizes[HR_LIMIT_SDY_AXES];
  int64_t strides[HR_LIMIT_SDY_AXES]; /* the device id step of one index along each axis */
  int64_t n_devices;
} hr_gspmd_mesh;

/* The axes of a mesh that cut each dimension of a value, major to minor (indices into the mesh). */
typedef struct hr_gspmd_axes {
  int rank;
  int n[HR_MAX_RANK];
  int axis[HR_MAX_RANK][HR_LIMIT_SDY_AXES];
} hr_gspmd_axes;

/* Reads the string attribute `key` (mhlo.sharding) of `op`; errors name the op and quote the
 * string. Device lists go into `scratch`. */
hr_status hr_gspmd_read(const hr_module *m, hr_arena *scratch, const hr_op *op, const char *key,
                        hr_gspmd_sharding *out);
/* Checks that tiled sharding `s` (read from attribute `key` of `op`) gives a value of type `global`
 * the pieces of type `local`, and that it spans `n_devices` devices. */
hr_status hr_gspmd_check_shapes(const hr_module *m, const hr_op *op, const char *key, const hr_gspmd_sharding *s,
                                const hr_type *global, const hr_type *local, int64_t n_devices);
/* The mesh of `n_devices` (1 .. HR_LIMIT_GSPMD_DEVICES) whose axes are its prime factors in the
 * order numbered `order` (0: ascending; the orders are the distinct permutations in lexicographic
 * order); false when there are not that many orders. */
bool hr_gspmd_mesh_order(int64_t n_devices, int order, hr_gspmd_mesh *out);
/* Whether tiled sharding `s` is expressed by mesh axes cutting its dimensions (*out, when given),
 * the mesh's other axes replicating it; `seen` has room for the mesh's devices. */
bool hr_gspmd_fit(const hr_gspmd_mesh *mesh, const hr_gspmd_sharding *s, bool *seen, hr_gspmd_axes *out);
/* Appends the mesh as Shardy writes it: `sdy.mesh<["a"=2, "b"=2]>`. */
void hr_gspmd_print_mesh(hr_strbuf *sb, const hr_gspmd_mesh *mesh);
/* Appends `<@mesh_name, [{"a"}, {}]>`: the Shardy sharding of dimensions cut by `axes`. */
void hr_gspmd_print_sharding(hr_strbuf *sb, const char *mesh_name, const hr_gspmd_axes *axes);

/* ---------------------------------------------------------------------------------------------- */
/* The import (gspmd_import.c: the module and its functions; gspmd_regions.c: one block's regions)  */
/* ---------------------------------------------------------------------------------------------- */

/* The custom calls of the GSPMD form. */
typedef enum hr_gspmd_target {
  HR_GSPMD_OTHER,
  HR_GSPMD_SHARDING,       /* @Sharding: a sharding constraint (with_sharding_constraint, shard_map's edges) */
  HR_GSPMD_FULL_TO_SHARD,  /* @SPMDFullToShardShape: a global value enters a manual region as its pieces */
  HR_GSPMD_SHARD_TO_FULL,  /* @SPMDShardToFullShape: the pieces leave it as a global value */
} hr_gspmd_target;

/* The GSPMD custom call `op` is, or HR_GSPMD_OTHER, and its name. */
hr_gspmd_target hr_gspmd_target_of(const hr_op *op);
const char *hr_gspmd_target_name(hr_gspmd_target t);

/* The import of one module. */
typedef struct hr_gspmd_importer {
  hr_module *m;
  hr_arena scratch;
  int64_t n_devices; /* of the manual computations */
  int64_t expanded;  /* device list entries read so far (HR_LIMIT_GSPMD_EXPANDED) */
  hr_gspmd_mesh mesh;
  bool *seen; /* n_devices entries, for hr_gspmd_fit */
} hr_gspmd_importer;

/* The import of one function: maps by the ids of the values it had before the import. */
typedef struct hr_gspmd_func {
  hr_gspmd_importer *imp;
  hr_func *f;
  uint32_t n_ids;
  hr_value **fwd;          /* what a removed op's result stands for */
  const hr_op **holder;    /* of a SPMDFullToShardShape's result: the @Sharding op that fed it */
  const hr_block **owner;  /* the block defining the value */
  int32_t *at;             /* its defining op's index in the block being rewritten */
  hr_value **local;        /* what it is in the manual computation being built */
  const hr_block **ancestors; /* the blocks enclosing the one being rewritten, outermost first */
} hr_gspmd_func;

/* Appends `<@mesh, [...]>`: the Shardy sharding of the global value entering or leaving a manual
 * region through `site` (its @Sharding's or its own mhlo.sharding, on the module's mesh). */
hr_status hr_gspmd_site_sharding(hr_gspmd_func *c, const hr_op *site, hr_strbuf *sb);
/* Rewrites the manual regions whose custom calls are ops of `b` (enclosed by c->ancestors[0 ..
 * depth - 1]) as sdy.manual_computation ops; c->fwd[] then maps the results of their
 * SPMDShardToFullShape ops to the computations' results. */
hr_status hr_gspmd_rewrite_block(hr_gspmd_func *c, hr_block *b, int depth);

#endif

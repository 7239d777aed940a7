/* Shardy's attributes, which the IR keeps as their text (HR_ATTR_OPAQUE), read into structs where
 * a program's meaning depends on them: the mesh of an sdy.manual_computation and the in/out
 * shardings that say how its operands and results divide over the mesh's devices. */
#ifndef HLORUN_IR_SHARDY_H
#define HLORUN_IR_SHARDY_H

#include <stdint.h>

#include "base/limits.h"
#include "ir/ir.h"

/* A name as written between quotes in the attribute's text (which it points into). */
typedef struct hr_sdy_name {
  const char *text;
  size_t len;
} hr_sdy_name;

/* A mesh: named axes, major to minor, over the devices 0 .. product of sizes - 1 in row-major
 * order (explicit device_ids are kept only when they are that order). */
typedef struct hr_sdy_mesh {
  int n_axes;
  hr_sdy_name names[HR_LIMIT_SDY_AXES];
  int64_t sizes[HR_LIMIT_SDY_AXES];
  int64_t n_devices;
} hr_sdy_mesh;

/* A reference to a mesh axis, or to a sub-axis `"a":(pre)size` (sub_size 0: the whole axis). */
typedef struct hr_sdy_axis_ref {
  hr_sdy_name name;
  int64_t sub_pre, sub_size;
} hr_sdy_axis_ref;

/* How one value divides: per dimension, the axes sharding it, major to minor. */
typedef struct hr_sdy_sharding {
  hr_sdy_name mesh_ref; /* the @name of a module mesh; text NULL when the mesh is inline */
  hr_sdy_mesh inline_mesh;
  int rank;
  int n_axes[HR_MAX_RANK];
  hr_sdy_axis_ref axes[HR_MAX_RANK][HR_LIMIT_SDY_AXES];
} hr_sdy_sharding;

/* Reads an OPAQUE "sdy.mesh<[...]>". */
hr_status hr_sdy_read_mesh(const hr_attr *a, hr_sdy_mesh *out);
/* Reads an OPAQUE "sdy.sharding_per_value<[...]>" holding `n` shardings into out[0 .. n-1]. */
hr_status hr_sdy_read_per_value(const hr_attr *a, int n, hr_sdy_sharding *out);
/* Reads an OPAQUE "sdy<manual_axes{...}>" into names (at most HR_LIMIT_SDY_AXES). */
hr_status hr_sdy_read_manual_axes(const hr_attr *a, hr_sdy_name *names, int *n);
/* The index of axis `name` in `mesh`, or -1. */
int hr_sdy_axis_index(const hr_sdy_mesh *mesh, hr_sdy_name name);

/* Scanning the attribute strings of Shardy and GSPMD (HloSharding) text, position *p before end:
 * hr_sdy_skip_space passes white space; hr_sdy_accept consumes `word` (after white space) when it
 * comes next and says whether it did. */
void hr_sdy_skip_space(const char **p, const char *end);
bool hr_sdy_accept(const char **p, const char *end, const char *word);

/* Rewrites Shardy's round-trip form (JAX's exports of 2023 to early 2025, XLA's HLO round trip:
 * the meshes in the module's `mhlo.frontend_attributes = {xla.sdy.meshes = "..."}`, a shard_map as
 * custom_call @xla.sdy.GlobalToLocalShape, a call of an @xla.sdy.manual_computation_body function
 * and custom_call @xla.sdy.LocalToGlobalShape with its shardings in strings, custom_call @Sharding
 * and the other xla.sdy.* custom calls) into the native form: module meshes,
 * sdy.manual_computation, sdy.sharding_constraint (sdy_round_trip.c). Both readers apply it, so
 * every later stage sees the native form. Malformed strings, missing or shared body functions and
 * mismatched counts are errors naming the op. */
hr_status hr_sdy_import_round_trip(hr_module *m);

/* Rewrites the form JAX's exports made before Shardy (XLA's GSPMD partitioner, 2023 to ~2025, also
 * jax2tf SavedModels) give shard_map and sharding constraints into the native form
 * (gspmd_import.c): custom_call @Sharding goes (a constraint leaves values as they are); each
 * manual region, the ops between custom_call @SPMDFullToShardShape and @SPMDShardToFullShape,
 * becomes an sdy.manual_computation on a module mesh (`@mesh`, whose axes are the prime factors of
 * the device count) expressing their HloSharding strings. Both readers apply it after
 * hr_sdy_import_round_trip. Shardings with no such form, nested regions, mismatched shapes and
 * values crossing a region's edge are errors naming the op. */
hr_status hr_gspmd_import(hr_module *m);

#endif

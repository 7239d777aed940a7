/* Serialized `jax.export.Exported` files: what `exported.serialize()` returns (JAX's
 * jax/_src/export/serialization.fbs, root table `Exported`): a FlatBuffer with no magic number,
 * holding the function's name, its flattened input and output abstract values (shapes with
 * symbolic dimensions kept as text), shardings, platforms, effects, the calling convention version
 * and the StableHLO portable artifact (MLIR bytecode, "ML\xefR...") to run.
 *
 * Versions. Serialization versions 1..12 exist (fields were only ever appended), but until 7/2026
 * JAX stored 2 or 3 in `serialization_version` whatever it wrote, so the reader never gates on it:
 * it reads every field the vtables hold, and reports in `serialization_version_min` the lowest
 * version whose schema has every field present. Where a field has an old and a new form, the new
 * one wins as in JAX's own deserializer: `nr_devices` (else `nr_devices_short`), `in_avals_idxs`
 * into `unique_avals` (else `in_avals`), `in_shardings_idxs` into `unique_named_shardings` (else
 * `in_shardings`), `unique_abstract_meshes[abstract_mesh_idx]` (else each NamedSharding's mesh);
 * the same for outputs.
 *
 * Ownership. Everything reachable from an hr_jaxexport is owned by it (one arena, freed by
 * hr_jaxexport_free) except the module: `module` points into the caller's `data`, which must stay
 * alive and unchanged while it is used (`module_offset`/`module_size` locate it there).
 *
 * Bounds (untrusted input): the FlatBuffer reader's checks (flatbuf.h), at most
 * HR_LIMIT_JAXEXPORT_RANK dimensions per value, OpSharding protos nested at most
 * HR_LIMIT_SHARDING_DEPTH deep, and memory at most HR_LIMIT_JAXEXPORT_MEMORY_FACTOR times the
 * file size plus 1 MiB (a file whose tables share subobjects to blow up fails instead). */
#ifndef HLORUN_FORMATS_JAXEXPORT_JAXEXPORT_H
#define HLORUN_FORMATS_JAXEXPORT_JAXEXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "base/limits.h"
#include "hlorun/hlorun.h"


/* One dimension of a shape, as JAX wrote it: str(d), a decimal constant or a symbolic expression
 * over dimension variables ("b", "2*b + 1", "floordiv(b, 2)"). */
typedef struct hr_jaxexport_dim {
  const char *text;
  bool is_constant; /* text is a decimal integer that fits int64 */
  int64_t value;    /* its value when is_constant, else HR_DYNAMIC */
} hr_jaxexport_dim;

/* AbstractValue.memory_space (schema values). */
typedef enum hr_jaxexport_memory_space {
  HR_JAXEXPORT_MEMORY_MISSING = 0, /* not written (before 11/2025): means Device */
  HR_JAXEXPORT_MEMORY_DEVICE = 1,
  HR_JAXEXPORT_MEMORY_HOST = 2,
  HR_JAXEXPORT_MEMORY_ANY = 3,
} hr_jaxexport_memory_space;

/* An abstract value (core.ShapedArray). */
typedef struct hr_jaxexport_aval {
  int kind; /* AbstractValueKind: 0 shapedArray, 1 abstractToken (unused by JAX) */
  int rank;
  hr_jaxexport_dim *dims;
  int jax_dtype;              /* the schema's DType code (0 bool, 10 f32, 14 bf16, 27 key<fry>, ...) */
  const char *jax_dtype_name; /* JAX's name: "float32", "bfloat16", "key<fry>"; NULL for an unknown code */
  hr_dtype dtype;             /* hlorun's type; HR_DTYPE_INVALID for float0, float8/float4 and PRNG keys */
  int memory_space;           /* hr_jaxexport_memory_space (other values kept as read) */
} hr_jaxexport_aval;

/* A PyTreeDef node. */
typedef enum hr_jaxexport_pytree_kind {
  HR_JAXEXPORT_TREE_LEAF = 0,
  HR_JAXEXPORT_TREE_NONE = 1,
  HR_JAXEXPORT_TREE_TUPLE = 2,
  HR_JAXEXPORT_TREE_LIST = 3,
  HR_JAXEXPORT_TREE_DICT = 4,
  HR_JAXEXPORT_TREE_CUSTOM = 5,
} hr_jaxexport_pytree_kind;

typedef struct hr_jaxexport_pytree {
  int kind; /* hr_jaxexport_pytree_kind */
  int num_children;
  struct hr_jaxexport_pytree *children;
  const char **children_names; /* dict: one key per child; else NULL */
  const char *custom_name;     /* custom: the registered serialization name; else NULL */
  const uint8_t *custom_auxdata;
  size_t custom_auxdata_size;
  int64_t num_leaves; /* leaves in this subtree */
} hr_jaxexport_pytree;

/* An abstract mesh (AbstractMesh, with its optional AbstractDevice). */
typedef struct hr_jaxexport_mesh {
  int num_axes;
  const char **axis_names;
  uint32_t *axis_sizes;
  int *axis_types; /* per axis: 0 missing (before 1/2026), 1 Auto, 2 Explicit, 3 Manual */
  bool has_device;
  const char *device_kind;     /* NULL when absent */
  bool has_num_cores;
  uint32_t num_cores;
  const char *device_platform; /* NULL when absent (before v11) */
} hr_jaxexport_mesh;

/* A partition spec entry: the mesh axes one array dimension is split over (none: None). */
typedef struct hr_jaxexport_partition {
  int num_axes;
  const char **axes;
} hr_jaxexport_partition;

/* A NamedSharding: a mesh and a partition spec. */
typedef struct hr_jaxexport_named_sharding {
  const hr_jaxexport_mesh *mesh; /* never NULL (an empty mesh when the file has none) */
  int num_partitions;
  hr_jaxexport_partition *partitions;
  int num_reduced;
  const char **reduced;
  int num_unreduced;
  const char **unreduced;
  const char *memory_kind; /* NULL when absent */
  uint32_t abstract_mesh_idx;
} hr_jaxexport_named_sharding;

/* A decoded xla.OpSharding proto (the fields that say where data lives; metadata is skipped). */
typedef enum hr_jaxexport_hlo_type {
  HR_JAXEXPORT_HLO_REPLICATED = 0,
  HR_JAXEXPORT_HLO_MAXIMAL = 1,
  HR_JAXEXPORT_HLO_TUPLE = 2,
  HR_JAXEXPORT_HLO_OTHER = 3, /* tiled */
  HR_JAXEXPORT_HLO_MANUAL = 4,
  HR_JAXEXPORT_HLO_UNKNOWN = 5,
  HR_JAXEXPORT_HLO_UNREDUCED = 6,
} hr_jaxexport_hlo_type;

typedef struct hr_jaxexport_hlo_sharding {
  int type; /* hr_jaxexport_hlo_type (other values kept as read) */
  int num_tile_dims;
  int64_t *tile_dims; /* tile_assignment_dimensions */
  int num_devices;
  int64_t *devices; /* tile_assignment_devices (explicit form) */
  int num_iota_dims;
  int64_t *iota_dims; /* iota_reshape_dims (compact form: devices = iota reshaped and transposed) */
  int num_iota_perm;
  int32_t *iota_perm; /* iota_transpose_perm */
  bool replicate_on_last_tile_dim;
  int num_last_tile_dims;
  int *last_tile_dims; /* subgroup types of the trailing tile dimensions */
  int num_tuple;
  struct hr_jaxexport_hlo_sharding *tuple; /* TUPLE: one per leaf */
} hr_jaxexport_hlo_sharding;

/* One input's or output's sharding. A file has an HloSharding proto (before 3/2026), a
 * NamedSharding (from 1/2026), both (in between) or neither (unspecified). */
typedef struct hr_jaxexport_sharding {
  bool specified;
  int kind;                      /* Sharding.kind as stored (deprecated): 0 unspecified, 1 hlo, 2 named */
  const uint8_t *hlo_proto;      /* the serialized OpSharding, owned; NULL when absent */
  size_t hlo_proto_size;
  const hr_jaxexport_hlo_sharding *hlo;       /* hlo_proto decoded; NULL when absent */
  const hr_jaxexport_named_sharding *named;   /* NULL when absent */
  /* XLA's text of the HloSharding ("{replicated}", "{maximal device=0}", "{devices=[2,1]<=[2]}"):
   * the proto's, else derived from the NamedSharding as JAX does (plain Auto/Explicit meshes
   * only); NULL when unspecified or not derivable. */
  const char *hlo_text;
} hr_jaxexport_sharding;

/* DisabledSafetyCheck. */
typedef struct hr_jaxexport_disabled_check {
  int kind;                       /* 0 platform, 1 custom_call, 2 shape_assertions */
  const char *custom_call_target; /* NULL when absent */
  const char *text;               /* JAX's form: "platform", "custom_call:<target>", "shape_assertions" */
} hr_jaxexport_disabled_check;

typedef struct hr_jaxexport {
  uint16_t serialization_version; /* as stored (not trustworthy: see above) */
  /* The lowest version consistent with the stored one and the fields present (13: a field newer
   * than the v12 schema). */
  int serialization_version_min;
  int num_slots; /* slots the Exported vtable lists (trailing absent ones are trimmed: 16, 19, 26, 27) */
  const char *function_name;
  const char *jax_version; /* NULL when absent (before v12) */

  const hr_jaxexport_pytree *in_tree, *out_tree; /* NULL when absent */
  int num_in_avals, num_out_avals;
  const hr_jaxexport_aval *in_avals, *out_avals;
  /* 0 entries (none recorded) or as many as the avals. */
  int num_in_shardings, num_out_shardings;
  const hr_jaxexport_sharding *in_shardings, *out_shardings;
  bool uses_unique_tables; /* avals and shardings came from the v10 unique_* tables */

  uint32_t nr_devices;       /* nr_devices, else nr_devices_short */
  bool has_nr_devices;       /* slot 18 present */
  int16_t nr_devices_short;  /* the deprecated 16-bit field as stored (0 when absent) */
  bool has_nr_devices_short; /* slot 6 present */

  int num_platforms;
  const char **platforms; /* "cpu", "cuda", "rocm", "tpu", ... (an open set) */
  int num_ordered_effects, num_unordered_effects;
  const char **ordered_effects, **unordered_effects; /* Effect.type_name: str(cls) */
  int num_disabled_checks;
  const hr_jaxexport_disabled_check *disabled_checks;

  const uint8_t *module; /* the StableHLO portable artifact: a view into the caller's data */
  size_t module_offset, module_size;
  uint16_t calling_convention_version;
  int num_kept_var_idx;
  const uint16_t *module_kept_var_idx; /* sorted indices into in_avals of the module's arguments */
  bool uses_global_constants;
  bool has_vjp;      /* a nested Exported for the VJP is present (not read further) */
  size_t vjp_offset; /* where its table is, 0 when absent */

  /* The v10 deduplication tables as stored (0 entries before v10). */
  int num_unique_avals, num_unique_meshes, num_unique_named_shardings;
  const hr_jaxexport_aval *unique_avals;
  const hr_jaxexport_mesh *unique_meshes;
  const hr_jaxexport_named_sharding *unique_named_shardings;

  hr_arena arena; /* owns everything above except `module` */
} hr_jaxexport;

/* Reads the serialized Exported in `data` (`len` bytes; `filename` names it in messages). On
 * success *out is owned by the caller (hr_jaxexport_free); on error *out is NULL and the message
 * reads "FILE: offset N: what: problem". `a` NULL: the default allocator. */
hr_status hr_jaxexport_read(const char *filename, const uint8_t *data, size_t len, const hr_allocator *a,
                            hr_jaxexport **out);
void hr_jaxexport_free(hr_jaxexport *e);

/* Whether `data` looks like a serialized Exported, by structure alone (the format has no magic
 * number): a whole FlatBuffer (size a multiple of 4) whose root table has a valid vtable, a
 * NUL-terminated function_name and an mlir_module_serialized vector starting with MLIR bytecode's
 * magic "ML\xefR". Reads only those (and most other formats fail at the first word, before any
 * error status is allocated). */
bool hr_jaxexport_sniff(const uint8_t *data, size_t len);

/* Serializes `e` as JAX's serializer does (jaxexport_write.c says which fields and versions), with
 * the `module_len` bytes at `module` (a StableHLO portable artifact) as its module; `e->module` is
 * not used. The VJP is not written (an Exported with one is refused). */
hr_status hr_jaxexport_write(const hr_jaxexport *e, const uint8_t *module, size_t module_len, hr_strbuf *out);
/* The Exported jax.export makes of module `m`'s @main called with positional arrays: fun_name the
 * function's name JAX derived the module's from (module @jit_forward: "forward"; else "main"), in_tree
 * ((*, ..., *), {}), out_tree a leaf for one result, else a tuple; avals from @main's types, every
 * dynamic dimension the one dimension variable "b" (a module keeps no names for JAX's symbolic
 * dimensions; uses_global_constants is then set), a non-tensor argument HR_UNIMPLEMENTED; platform cpu; nr_devices from mhlo.num_partitions and mhlo.num_replicas;
 * calling convention 9; every argument kept; no shardings. Free it with hr_jaxexport_free. */
hr_status hr_jaxexport_describe_module(const hr_module *m, const hr_allocator *a, hr_jaxexport **out);

/* Appends the inspection text of `e` to `out`, fields named and shown as JAX shows them:
 * fun_name, in_tree (PyTreeDef(((*,), {}))), in_avals ((ShapedArray(float32[b,4]),)), out_tree,
 * out_avals, in_shardings_hlo ({devices=[2,1]<=[2]}), NamedShardings, nr_devices, platforms,
 * effects, disabled checks, calling_convention_version, module_kept_var_idx,
 * uses_global_constants, vjp, the module's place and the versions. One "name: value" line each. */
hr_status hr_jaxexport_format(const hr_jaxexport *e, hr_strbuf *out);
/* One abstract value: "ShapedArray(float32[b,4])". */
void hr_jaxexport_format_aval(const hr_jaxexport_aval *v, hr_strbuf *out);
/* One sharding as JAX's in_shardings_hlo shows it: its HloSharding text or "None". */
void hr_jaxexport_format_sharding(const hr_jaxexport_sharding *s, hr_strbuf *out);
/* A NamedSharding: "NamedSharding(mesh=AbstractMesh('x': 2, axis_types=(Auto,)), spec=PartitionSpec('x', None),
 * memory_kind=device)". */
void hr_jaxexport_format_named_sharding(const hr_jaxexport_named_sharding *s, hr_strbuf *out);
/* A pytree as PyTreeDef's repr shows it: "PyTreeDef(((*,), {}))". */
void hr_jaxexport_format_pytree(const hr_jaxexport_pytree *t, hr_strbuf *out);

#endif

/* Shared by the jax.export reader's files: the reading context, bounded allocation into the
 * result's arena, copies of strings and vectors, the sub-table readers (jaxexport_tables.c) and
 * the OpSharding proto decoder and HloSharding text (opsharding.c). */
#ifndef HLORUN_FORMATS_JAXEXPORT_JAXEXPORT_INTERNAL_H
#define HLORUN_FORMATS_JAXEXPORT_JAXEXPORT_INTERNAL_H

#include "formats/jaxexport/flatbuf.h"
#include "formats/jaxexport/jaxexport.h"

/* The schema's slots (serialization.fbs), shared by the reader and the writer. */
/* Table Exported, in declaration order. */
enum {
  EX_SERIALIZATION_VERSION = 0,
  EX_FUNCTION_NAME = 1,
  EX_IN_TREE = 2,
  EX_IN_AVALS = 3,
  EX_OUT_TREE = 4,
  EX_OUT_AVALS = 5,
  EX_NR_DEVICES_SHORT = 6,
  EX_IN_SHARDINGS = 7,
  EX_OUT_SHARDINGS = 8,
  EX_PLATFORMS = 9,
  EX_ORDERED_EFFECTS = 10,
  EX_UNORDERED_EFFECTS = 11,
  EX_DISABLED_CHECKS = 12,
  EX_MODULE = 13,
  EX_CALLING_CONVENTION_VERSION = 14,
  EX_MODULE_KEPT_VAR_IDX = 15,
  EX_USES_GLOBAL_CONSTANTS = 16,
  EX_VJP = 17,
  EX_NR_DEVICES = 18,
  EX_UNIQUE_AVALS = 19,
  EX_UNIQUE_ABSTRACT_MESHES = 20,
  EX_UNIQUE_NAMED_SHARDINGS = 21,
  EX_IN_AVALS_IDXS = 22,
  EX_OUT_AVALS_IDXS = 23,
  EX_IN_SHARDINGS_IDXS = 24,
  EX_OUT_SHARDINGS_IDXS = 25,
  EX_JAX_VERSION = 26,
  EX_NUM_SLOTS_V12 = 27, /* slots of the newest schema known here */
};
/* Slots of Effect and DisabledSafetyCheck. */
enum { EFFECT_TYPE_NAME = 0, CHECK_KIND = 0, CHECK_CUSTOM_CALL_TARGET = 1 };

/* The other tables, in declaration order. */
enum { AVAL_KIND = 0, AVAL_SHAPE = 1, AVAL_DTYPE = 2, AVAL_MEMORY_SPACE = 3 };
enum { TREE_KIND = 0, TREE_CHILDREN = 1, TREE_CHILDREN_NAMES = 2, TREE_CUSTOM_NAME = 3, TREE_CUSTOM_AUXDATA = 4 };
enum { MESH_AXIS_SIZES = 0, MESH_AXIS_NAMES = 1, MESH_AXIS_TYPES = 2, MESH_ABSTRACT_DEVICE = 3 };
enum { DEVICE_KIND = 0, DEVICE_NUM_CORES = 1, DEVICE_PLATFORM = 2 };
enum { SPEC_PARTITIONS = 0, SPEC_REDUCED = 1, SPEC_UNREDUCED = 2, ONE_AXIS_AXES = 0 };
enum { NAMED_MESH = 0, NAMED_SPEC = 1, NAMED_MEMORY_KIND = 2, NAMED_ABSTRACT_MESH_IDX = 3 };
enum { SHARDING_KIND = 0, SHARDING_HLO_PROTO = 1, SHARDING_NAMED = 2 };

/* Bytes of a field path in messages ("in_avals[3].shape[1]"); longer paths are cut. */
enum { JX_NAME = 160 };

/* One read in progress. */
typedef struct jx_reader {
  hr_fb fb;
  hr_jaxexport *e;   /* being filled; its arena holds every allocation */
  size_t mem_cap;    /* the most bytes the arena may hand out */
  int version_min;   /* the lowest serialization version with the fields seen so far */
} jx_reader;

/* Writes a field path into `buf` (JX_NAME bytes), printf-style. */
void jx_name(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Notes that a field of serialization version `v` is present. */
void jx_saw_version(jx_reader *r, int v);

/* A zero-filled array of n elements in the arena, within the memory bound; *out NULL for n == 0. */
hr_status jx_array(jx_reader *r, size_t n, size_t size, size_t align, const char *what, void **out);
/* A NUL-terminated copy of a string; NULL for an absent one. */
hr_status jx_copy_string(jx_reader *r, const hr_fb_string *s, const char *what, const char **out);
/* The string at `slot` of `t`, copied (NULL when absent). */
hr_status jx_string_field(jx_reader *r, const hr_fb_table *t, int slot, const char *what, const char **out);
/* The vector of strings at `slot` of `t`, copied (0 entries when absent). */
hr_status jx_string_vector(jx_reader *r, const hr_fb_table *t, int slot, const char *what, int *n,
                           const char ***out);
/* The byte vector at `slot` of `t`, copied (NULL, 0 when absent). */
hr_status jx_byte_vector(jx_reader *r, const hr_fb_table *t, int slot, const char *what, const uint8_t **out,
                         size_t *size);
/* The vector of uint32 at `slot` of `t` (0 entries when absent); *pos is where its elements are. */
hr_status jx_u32_vector(jx_reader *r, const hr_fb_table *t, int slot, const char *what, int *n, uint32_t **out,
                        size_t *pos);
/* Copies `sb`'s text into the arena (an out-of-memory status when `sb` failed). */
hr_status jx_keep_text(jx_reader *r, hr_strbuf *sb, const char *what, const char **out);

/* The schema's DType code of an hlorun type, -1 for none. */
int jx_dtype_code(hr_dtype t);

/* Sub-tables of Exported (jaxexport_tables.c). */
hr_status jx_read_aval(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_aval *out);
hr_status jx_read_avals(jx_reader *r, const hr_fb_table *t, int slot, const char *what, int *n,
                        hr_jaxexport_aval **out);
hr_status jx_read_pytree(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_pytree *out);
hr_status jx_read_mesh(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_mesh *out);
/* A NamedSharding; its mesh is unique_meshes[abstract_mesh_idx] when the file has that table. */
hr_status jx_read_named_sharding(jx_reader *r, const hr_fb_table *t, const char *what,
                                 hr_jaxexport_named_sharding *out);
/* A Sharding table (in_shardings / out_shardings before v10) of a value of rank `rank` (-1: unknown). */
hr_status jx_read_sharding(jx_reader *r, const hr_fb_table *t, int rank, const char *what,
                           hr_jaxexport_sharding *out);
/* Fills the derived parts of a sharding (its hlo_text) once proto and named sharding are set;
 * `rank` is that of the value it shards (-1: unknown, the partition spec's length is used). */
hr_status jx_finish_sharding(jx_reader *r, hr_jaxexport_sharding *s, int rank, const char *what);

/* The OpSharding proto of `size` bytes at `p` (file offset `pos`, for messages), decoded. */
hr_status jx_decode_op_sharding(jx_reader *r, const uint8_t *p, size_t size, size_t pos, const char *what,
                                hr_jaxexport_hlo_sharding *out);
/* The HloSharding JAX derives from a NamedSharding for a value of rank `rank` (-1: the spec's
 * length; mesh axes give an iota device order); *out NULL when it cannot be derived here (Manual
 * axes, reduced/unreduced axes, unknown or repeated axis names, a spec longer than the rank). */
hr_status jx_named_to_hlo(jx_reader *r, const hr_jaxexport_named_sharding *n, int rank, const char *what,
                          hr_jaxexport_hlo_sharding **out);
/* XLA's text of an HloSharding ("{devices=[2,1]<=[2]}"). */
void jx_print_hlo_sharding(const hr_jaxexport_hlo_sharding *s, hr_strbuf *sb);

#endif

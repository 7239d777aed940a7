/* MLIR bytecode, the container of StableHLO portable artifacts (what jax.export serializes and
 * XlaCallModule carries): the file read into a generic, dialect-neutral form.
 *
 * hr_bc_read checks the whole container up front: the magic "ML\xefR", the bytecode version
 * (0 to 6), every section's id, length and alignment, the string table, the dialects and op
 * names, the attribute/type offset table (every entry's byte range, dialect and encoding kind),
 * the properties records, the resources, and the IR section: ops, regions, blocks and values,
 * with the value numbering of MLIR's writer resolved (below). What it does not interpret are the
 * bytes of the attribute, type and properties entries themselves: those are the dialects' own
 * encodings (builtin, vhlo), decoded by the readers above this one with the cursor functions
 * here. Every error names the file, the byte offset and what was expected there.
 *
 * Values. MLIR numbers values per isolated scope, reusing the numbers of a finished region for its
 * siblings; here every value of the file gets its own id instead: block arguments and op results
 * are numbered in the order they are defined, and operands refer to those ids. An operand that
 * names a value slot not reserved at its point (the writer's forward references to a later block
 * or op in the same region are allowed) is an error.
 *
 * Everything read lives in the file's arena; strings and entries point into `data`, which must
 * outlive the hr_bc_file. Bounds on sizes, counts and nesting come from base/limits.h. */
#ifndef HLORUN_FORMATS_MLIRBC_BYTECODE_H
#define HLORUN_FORMATS_MLIRBC_BYTECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "hlorun/hlorun.h"

/* ---------------------------------------------------------------------------------------------- */
/* Cursor: the primitives every encoding is made of                                               */
/* ---------------------------------------------------------------------------------------------- */

/* A bounded read position in a file's bytes. */
typedef struct hr_bc_cursor {
  const uint8_t *p;     /* the next byte */
  const uint8_t *end;   /* one past the last byte this cursor may read */
  const uint8_t *base;  /* the file's first byte: offsets in messages are p - base */
  const char *filename; /* for messages */
} hr_bc_cursor;

/* A cursor over [begin, end) of a file starting at `base`. */
hr_bc_cursor hr_bc_cursor_at(const char *filename, const uint8_t *base, const uint8_t *begin, const uint8_t *end);
/* An INVALID_ARGUMENT error "FILE: offset N: <message>" at the cursor's position. */
hr_status hr_bc_error(const hr_bc_cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool hr_bc_at_end(const hr_bc_cursor *c);
hr_status hr_bc_byte(hr_bc_cursor *c, uint8_t *out);
/* The bytecode's prefix varint (1 to 9 bytes). */
hr_status hr_bc_varint(hr_bc_cursor *c, uint64_t *out);
/* A zigzag-encoded signed varint. */
hr_status hr_bc_svarint(hr_bc_cursor *c, int64_t *out);
/* A varint that must be below `limit` (an index into a table of `limit` entries); `what` names it
 * in the error ("attribute index"). */
hr_status hr_bc_index(hr_bc_cursor *c, uint64_t limit, const char *what, uint32_t *out);
/* `n` raw bytes (a view into the file). */
hr_status hr_bc_bytes(hr_bc_cursor *c, uint64_t n, const uint8_t **out);
/* A blob: a varint size, then that many bytes. */
hr_status hr_bc_blob(hr_bc_cursor *c, const uint8_t **data, size_t *len);
/* A NUL-terminated string (producer, asm-text entries); *out points into the file. */
hr_status hr_bc_cstring(hr_bc_cursor *c, const char **out, size_t *len);

/* ---------------------------------------------------------------------------------------------- */
/* The file                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

typedef struct hr_bc_string {
  const char *data; /* NUL-terminated, inside the file */
  size_t len;       /* without the NUL */
} hr_bc_string;

typedef struct hr_bc_dialect {
  hr_bc_string name;       /* "builtin", "vhlo", "func", ... */
  const uint8_t *version;  /* the dialect's version bytes (bytecode >= 1), or NULL */
  size_t version_len;
} hr_bc_dialect;

typedef struct hr_bc_opname {
  uint32_t dialect;  /* index into dialects */
  hr_bc_string name; /* the op's name within its dialect ("add_v1") */
  const char *full;  /* "vhlo.add_v1" (in the file's arena) */
  bool registered;   /* the writer knew the op (bytecode >= 5; always true before) */
} hr_bc_opname;

/* An attribute or type entry: its bytes in the attr/type section. */
typedef struct hr_bc_entry {
  uint32_t dialect;     /* index into dialects */
  bool custom;          /* the dialect's own encoding; else NUL-terminated MLIR assembly text */
  const uint8_t *data;  /* inside the file */
  size_t len;
} hr_bc_entry;

/* A properties record (bytecode >= 5): the inherent attributes of a registered op. */
typedef struct hr_bc_props {
  const uint8_t *data;
  size_t len;
} hr_bc_props;

typedef enum hr_bc_resource_kind { HR_BC_RESOURCE_BLOB, HR_BC_RESOURCE_BOOL, HR_BC_RESOURCE_STRING } hr_bc_resource_kind;

/* A resource (dense_resource<...> payloads and other keyed data). */
typedef struct hr_bc_resource {
  hr_bc_string group;  /* the dialect or external group owning it ("builtin") */
  bool external;       /* an external group rather than a dialect's */
  hr_bc_string key;
  hr_bc_resource_kind kind;
  const uint8_t *data; /* BLOB: the blob's bytes (aligned as the writer asked, counted from the
                          file's first byte); BOOL: one byte; NULL (len 0) for a dialect resource
                          declared without a value */
  size_t len;
  uint64_t alignment;  /* BLOB */
  uint32_t string;     /* STRING: index into strings */
} hr_bc_resource;

typedef struct hr_bc_op hr_bc_op;

typedef struct hr_bc_block {
  uint32_t n_args;
  uint32_t *arg_types;  /* type indices */
  int64_t *arg_locs;    /* location attribute indices, -1 where elided (unknown location) */
  uint32_t first_arg;   /* the id of argument 0; argument i has id first_arg + i */
  uint32_t n_ops;
  hr_bc_op *ops;
} hr_bc_block;

typedef struct hr_bc_region {
  uint32_t n_blocks;
  hr_bc_block *blocks;
} hr_bc_region;

struct hr_bc_op {
  uint32_t name;          /* index into opnames */
  uint32_t loc;           /* attribute index of its location */
  int64_t attrs;          /* attribute index of its attribute dictionary, or -1 */
  int64_t props;          /* index into props (a registered op's properties), or -1 */
  int64_t props_attr;     /* attribute index of an unregistered op's properties, or -1 */
  uint32_t n_results;
  uint32_t *result_types; /* type indices */
  uint32_t first_result;  /* the id of result 0; result i has id first_result + i */
  uint32_t n_operands;
  uint32_t *operands;     /* value ids */
  uint32_t n_successors;
  uint32_t *successors;   /* block indices within the enclosing region */
  uint32_t n_regions;
  hr_bc_region *regions;
  bool isolated;          /* IsolatedFromAbove: its regions start a new value scope */
  size_t offset;          /* where the op starts in the file (for messages) */
};

typedef struct hr_bc_file {
  hr_arena arena;
  const char *filename;
  const uint8_t *data;
  size_t len;
  uint64_t version;     /* the bytecode version, 0 to 6 */
  const char *producer; /* "StableHLO_v1.8.0", "MLIR17.0.0git", ... */
  uint32_t n_strings;
  hr_bc_string *strings;
  uint32_t n_dialects;
  hr_bc_dialect *dialects;
  uint32_t n_opnames;
  hr_bc_opname *opnames;
  uint32_t n_attrs;
  hr_bc_entry *attrs;
  uint32_t n_types;
  hr_bc_entry *types;
  uint32_t n_props;
  hr_bc_props *props;
  uint32_t n_resources;
  hr_bc_resource *resources;  /* external groups' first, then the dialects' */
  uint32_t first_dialect_resource; /* index of the first dialect resource: a resource handle h in an
                                      attribute names resources[first_dialect_resource + h] */
  uint32_t n_values;    /* value ids in use: every id is below it */
  hr_bc_block top;      /* the top-level block (normally one builtin.module op) */
} hr_bc_file;

/* Whether `data` starts with the MLIR bytecode magic. */
bool hr_bc_sniff(const uint8_t *data, size_t len);
/* Reads and checks a whole bytecode file (see above). `data` must outlive the result. */
hr_status hr_bc_read(const char *filename, const uint8_t *data, size_t len, const hr_allocator *a, hr_bc_file **out);
void hr_bc_free(hr_bc_file *f);

/* hr_module_parse_bytecode for `data` that outlives the module (`in_place`): its large constants
 * point into `data` instead of being copied (the caller then hands `data` to the module to release,
 * hr_module.backing). */
hr_status hr_bc_parse_module(const char *filename, const void *data, size_t len, const hr_parse_options *opts,
                             bool in_place, hr_module **out);

/* A cursor over an attribute, type or properties entry's bytes, for the dialect decoders. */
hr_bc_cursor hr_bc_entry_cursor(const hr_bc_file *f, const uint8_t *data, size_t len);

/* Bytes MLIR's dense storage (DenseIntOrFPElementsAttr, VHLO's TensorV1, dense arrays) gives one
 * element of `t` other than i1: its bit width rounded up to whole bytes, so tf32's 19 bits take 3
 * (3 low bytes of its 19-bit pattern, where the IR holds the float32 pattern in 4); every other type
 * as the IR holds it. */
static inline size_t hr_bc_dense_storage_bytes(hr_dtype t) { return t == HR_TF32 ? 3 : hr_dtype_size(t); }

#endif

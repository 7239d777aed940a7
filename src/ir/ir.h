/*
 * The in-memory StableHLO IR.
 *
 * A module owns an arena; every node below (functions, ops, values, attributes, strings, constant
 * data) lives in it and is freed with the module. The structure mirrors MLIR's:
 *
 *   module -> functions -> body block -> ops -> regions (one block each) -> ops ...
 *
 * Op attributes are stored in MLIR's canonical (generic-form) names whatever syntax they were
 * written in: `stablehlo.broadcast_in_dim %x, dims = [0]` and
 * `"stablehlo.broadcast_in_dim"(%x) <{broadcast_dimensions = array<i64: 0>}>` parse to the same op.
 * The attribute names follow the StableHLO spec (docs/spec.md) and MLIR's generic printing:
 *   compare: comparison_direction (ENUM), compare_type (ENUM, optional)
 *   broadcast_in_dim: broadcast_dimensions; transpose: permutation; iota: iota_dimension;
 *   slice: start_indices, limit_indices, strides; concatenate: dimension; reduce: dimensions;
 *   pad: edge_padding_low, edge_padding_high, interior_padding; reverse: dimensions;
 *   dynamic_slice: slice_sizes; dot_general: dot_dimension_numbers (STRUCT "stablehlo.dot"),
 *   precision_config; convolution: dimension_numbers (STRUCT "stablehlo.conv"), window_strides,
 *   padding, lhs_dilation, rhs_dilation, window_reversal, feature_group_count,
 *   batch_group_count; custom_call: call_target_name, has_side_effect, backend_config, ...
 *   func.call: callee (SYMBOL).
 * Struct attributes (HR_ATTR_STRUCT) carry these fields; an absent list field means empty, an
 * absent integer field 0:
 *   "stablehlo.dot": lhs_batching_dimensions, rhs_batching_dimensions, lhs_contracting_dimensions,
 *     rhs_contracting_dimensions
 *   "stablehlo.gather": offset_dims, collapsed_slice_dims, operand_batching_dims,
 *     start_indices_batching_dims, start_index_map, index_vector_dim
 *   "stablehlo.scatter": update_window_dims, inserted_window_dims, input_batching_dims,
 *     scatter_indices_batching_dims, scatter_dims_to_operand_dims, index_vector_dim
 *   "stablehlo.conv": input_batch_dimension, input_feature_dimension, input_spatial_dimensions,
 *     kernel_input_feature_dimension, kernel_output_feature_dimension, kernel_spatial_dimensions,
 *     output_batch_dimension, output_feature_dimension, output_spatial_dimensions
 * List fields are HR_ATTR_ARRAY of untyped HR_ATTR_INT; integer fields untyped HR_ATTR_INT.
 */
#ifndef HLORUN_IR_IR_H
#define HLORUN_IR_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "hlorun/hlorun.h"

/* ---------------------------------------------------------------------------------------------- */
/* Operation codes                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

enum {
  HR_OPF_ELEMENTWISE = 1 << 0, /* result[i] depends on operand[i] only */
  HR_OPF_UNARY = 1 << 1,       /* one operand, one result */
  HR_OPF_BINARY = 1 << 2,      /* two operands, one result */
  HR_OPF_TERMINATOR = 1 << 3,  /* ends a block: func.return, stablehlo.return */
  HR_OPF_HAS_REGIONS = 1 << 4, /* carries nested regions */
  HR_OPF_SIDE_EFFECT = 1 << 5, /* must not be removed even if its results are unused */
  HR_OPF_PROCESS = 1 << 6,     /* its results depend on the process running it (a collective or a
                                  process id): never evaluated ahead of a run */
};

typedef enum hr_opcode {
#define HR_OP(id, name, flags) HR_OP_##id,
#include "ir/ops.def"
#undef HR_OP
  HR_OP_COUNT
} hr_opcode;

const char *hr_opcode_name(hr_opcode code); /* "stablehlo.add" */
unsigned hr_opcode_flags(hr_opcode code);
/* Looks an op name up; returns HR_OP_COUNT when unknown. Accepts "func.call" and "call" alike
 * ("return" and "call" are func ops written without the dialect prefix). */
hr_opcode hr_opcode_lookup(const char *name, size_t len);

/* ---------------------------------------------------------------------------------------------- */
/* Locations                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* A position in the parsed text (1-based line and column). */
typedef struct hr_loc {
  const char *file; /* the name given to the parser */
  uint32_t line;
  uint32_t col;
} hr_loc;

/* ---------------------------------------------------------------------------------------------- */
/* Types                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

typedef enum hr_type_kind {
  HR_TYPE_TENSOR = 0, /* tensor<2x?xf32>; rank 0 for tensor<f32> */
  HR_TYPE_TOKEN,      /* !stablehlo.token */
  HR_TYPE_TUPLE,      /* tuple<...> */
  HR_TYPE_FUTURE,     /* !stablehlo.future<T, ...>: what an async_start's computation will give */
  HR_TYPE_BUFFER,     /* memref<2xf32>: a buffer (custom calls pin tensors to them); dtype and shape */
  /* Types that only attributes hold (`accumulation_type = f32`, `stablehlo.attr = none`): */
  HR_TYPE_ELEMENT,    /* a bare element type: dtype (and quant) */
  HR_TYPE_NONE,       /* none */
} hr_type_kind;

/* A uniform quantized element type of the quant dialect: `!quant.uniform<i8:f32, 0.5:-3>` per
 * tensor, `!quant.uniform<i8<-127:127>:f32:1, {0.5:-3, 0.25}>` along axis 1. An element is stored
 * as an integer q of type `storage` and stands for (q - zero_point) * scale in `expressed`. */
typedef struct hr_quant {
  hr_dtype storage;                 /* i2..i64 or ui2..ui64 (also the tensor type's dtype) */
  hr_dtype expressed;               /* f16, bf16, f32 or f64 */
  int64_t storage_min, storage_max; /* the storage range (the storage type's whole range unless narrowed) */
  int32_t axis;                     /* the quantized dimension; -1 per tensor */
  int32_t n;                        /* scales and zero points: 1 per tensor, else one per index of `axis` */
  const double *scales;
  const int64_t *zero_points;
} hr_quant;

typedef struct hr_type {
  hr_type_kind kind;
  hr_dtype dtype;  /* TENSOR, BUFFER and ELEMENT (a quantized type's storage type) */
  hr_shape shape;  /* TENSOR and BUFFER; dims[i] == HR_DYNAMIC for '?' */
  int n_elems;     /* TUPLE and FUTURE only */
  struct hr_type *elems; /* TUPLE and FUTURE only (arena) */
  const hr_quant *quant; /* TENSOR and ELEMENT: the quantized element type, or NULL (arena) */
  /* TENSOR only: the bounds of bounded dynamism (`tensor<?x2xf32, #stablehlo.type_extensions<bounds
   * = [16, ?]>>`), one per dimension (HR_DYNAMIC: '?'), or NULL (arena) */
  const int64_t *bounds;
} hr_type;

/* The whole range of an integer type (storage_min/max of a quantized type that does not narrow it). */
void hr_dtype_int_range(hr_dtype t, int64_t *min, int64_t *max);
bool hr_quant_equal(const hr_quant *a, const hr_quant *b);
bool hr_type_equal(const hr_type *a, const hr_type *b);
bool hr_type_is_static(const hr_type *t); /* a tensor with no dynamic dimension */
/* The bytes of a static tensor type in memory (*out); false for other types, or when they do not
 * fit in size_t. */
bool hr_type_bytes(const hr_type *t, size_t *out);
/* Same element type and rank, and every dimension pair equal or at least one dynamic (bounds are
 * not compared: an encoding does not change what a value is). */
bool hr_type_compatible(const hr_type *a, const hr_type *b);
hr_type hr_tensor_type(hr_dtype dtype, int rank, const int64_t *dims);
/* Appends the MLIR spelling of a type ("tensor<2x?xf32>", "!stablehlo.token", "tuple<...>",
 * "tensor<4x!quant.uniform<i8:f32, 5.000000e-01:-3>>", "!stablehlo.future<tensor<f32>>"). */
struct hr_strbuf;
void hr_type_print(struct hr_strbuf *sb, const hr_type *t);
/* Writes the spelling of `t` into buf[0..cap), NUL-terminated, cut with "..." when longer (for
 * messages; malformed types print as placeholders). */
void hr_type_format(const hr_type *t, char *buf, size_t cap);
/* Appends the element type of a tensor type: its dtype's name or its quantized type. */
void hr_elem_type_print(struct hr_strbuf *sb, const hr_type *t);

/* Tensor specs (ir/spec.c). */
/* The spec of a tensor type (a zeroed spec, dtype HR_DTYPE_INVALID, for other types). */
hr_tensor_spec hr_spec_of_type(const hr_type *t);
/* The tensor type of a spec. */
hr_type hr_type_of_spec(const hr_tensor_spec *s);
/* Same dtype, rank and dimensions. */
bool hr_spec_equal(const hr_tensor_spec *a, const hr_tensor_spec *b);
/* Appends the MLIR spelling of a spec ("tensor<2x?xf32>"). */
void hr_spec_print(struct hr_strbuf *sb, const hr_tensor_spec *s);

/* An INVALID_ARGUMENT error "<what> is <got>, expected <want>", with the specs spelled out. */
hr_status hr_spec_mismatch(const char *what, const hr_tensor_spec *got, const hr_tensor_spec *want);

/* ---------------------------------------------------------------------------------------------- */
/* Attributes                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

typedef enum hr_attr_kind {
  HR_ATTR_UNIT,        /* `unit`, or a bare name in an attribute dictionary */
  HR_ATTR_BOOL,        /* true / false */
  HR_ATTR_INT,         /* 3 : i64 (dtype HR_DTYPE_INVALID when written without a type) */
  HR_ATTR_FLOAT,       /* 1.5 : f32 (dtype HR_DTYPE_INVALID when untyped) */
  HR_ATTR_STRING,      /* "text" (escapes decoded; may contain NUL bytes, see len) */
  HR_ATTR_SYMBOL,      /* @name */
  HR_ATTR_TYPE,        /* a type used as an attribute value */
  HR_ATTR_ARRAY,       /* [a, b, ...] */
  HR_ATTR_DENSE_ARRAY, /* array<i64: 1, 2>  (also array<i1: true>, array<f32: 1.0>) */
  HR_ATTR_DENSE,       /* dense<...> : tensor<...> */
  HR_ATTR_DICT,        /* {a = 1, b} */
  HR_ATTR_ENUM,        /* #stablehlo<comparison_direction LT> */
  HR_ATTR_STRUCT,      /* #stablehlo.dot<lhs_batching_dimensions = [0], ...> and friends */
  HR_ATTR_OPAQUE,      /* #sdy.sharding<@mesh, [{"a"}]>: another dialect's attribute (Shardy's), kept
                          as its text after the '#' (in str) and not interpreted */
} hr_attr_kind;

typedef struct hr_attr hr_attr;

typedef struct hr_named_attr {
  const char *name;
  hr_attr *value;
} hr_named_attr;

struct hr_attr {
  hr_attr_kind kind;
  union {
    bool b; /* BOOL */
    struct {
      int64_t value; /* unsigned types above INT64_MAX are stored as their two's complement bits */
      hr_dtype dtype;
      bool is_index; /* written `: index` */
    } i;             /* INT */
    struct {
      double value;
      hr_dtype dtype;
    } f; /* FLOAT */
    struct {
      const char *data; /* NUL-terminated copy; may also contain embedded NULs */
      size_t len;
    } str;        /* STRING, SYMBOL (symbol name without '@'), OPAQUE (text without '#') */
    hr_type type; /* TYPE */
    struct {
      int n;
      hr_attr **items;
    } array; /* ARRAY */
    struct {
      hr_dtype dtype; /* element type named in array<T: ...> */
      int64_t n;
      int64_t *ints;  /* integer and i1 element types */
      double *floats; /* float element types */
    } dense_array;    /* DENSE_ARRAY */
    struct {
      hr_type type;     /* a static tensor type */
      bool splat;       /* data holds a single element repeated over the shape */
      const void *data; /* elements in the hr_dtype memory layout, row-major */
      size_t nbytes;    /* bytes at data (one element when splat) */
    } dense;            /* DENSE */
    struct {
      int n;
      hr_named_attr *entries;
    } dict; /* DICT */
    struct {
      const char *dialect; /* "stablehlo" */
      const char *name;    /* "comparison_direction" */
      const char *value;   /* "LT" */
    } enm;                 /* ENUM */
    struct {
      const char *name; /* "stablehlo.dot", "stablehlo.gather", "stablehlo.conv", ... */
      int n;
      hr_named_attr *fields; /* canonical field names, e.g. lhs_batching_dimensions */
    } strct;                 /* STRUCT */
  } u;
};

/* A field of a dialect struct the IR keeps canonical (see the list above). */
typedef struct hr_struct_field {
  const char *name;
  bool is_list; /* a list of integers; otherwise one integer */
} hr_struct_field;

typedef struct hr_struct_info {
  const char *name;           /* "stablehlo.dot", "stablehlo.gather", "stablehlo.scatter", "stablehlo.conv" */
  bool keep_defaults;         /* empty lists and zeros kept (conv) rather than left out */
  hr_struct_field fields[9];  /* in canonical order; unused entries have a NULL name */
} hr_struct_info;

/* The struct called `name` whose fields the IR keeps in canonical order, or NULL. */
const hr_struct_info *hr_struct_info_find(const char *name);

/* Structural equality (used by the round-trip tests). */
bool hr_attr_equal(const hr_attr *a, const hr_attr *b);
/* Finds `name` in a DICT's entries or a STRUCT's fields; NULL when absent. */
const hr_attr *hr_attr_field(const hr_attr *a, const char *name);
/* Reads an integer list from an ARRAY of INTs, a DENSE_ARRAY, or a rank-0/1 integer DENSE.
 * Fails when the attribute has another form or more than `cap` entries. */
hr_status hr_attr_to_i64_list(const hr_attr *a, int64_t *out, int cap, int *n);
/* Reads a scalar integer from INT, BOOL, or a one-element integer DENSE/DENSE_ARRAY. */
hr_status hr_attr_to_i64(const hr_attr *a, int64_t *out);
/* Returns element `i` of a DENSE attribute as a pointer into its data (handles splats). */
const void *hr_dense_element(const hr_attr *a, int64_t i);

/* ---------------------------------------------------------------------------------------------- */
/* Values, ops, blocks, functions, modules                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef struct hr_op hr_op;
typedef struct hr_block hr_block;
typedef struct hr_func hr_func;

typedef struct hr_value {
  hr_type type;
  uint32_t id;      /* dense index within the enclosing function, nested regions included */
  hr_op *def;       /* defining op; NULL for a block argument */
  hr_block *owner;  /* for block arguments: the block */
  uint32_t index;   /* result index in def, or argument index in owner */
  const char *name; /* SSA name as written, without '%' ("0", "arg1", "cst_0"); NULL if none */
} hr_value;

struct hr_block {
  int n_args;
  hr_value *args; /* array of n_args */
  int n_ops;
  hr_op **ops;       /* the last op is the terminator */
  hr_op *parent_op;  /* op owning this block as a region; NULL for a function body */
  hr_func *func;     /* the function this block belongs to (also for nested regions) */
};

struct hr_op {
  hr_opcode code;
  int n_operands;
  hr_value **operands;
  int n_results;
  hr_value *results; /* array of n_results */
  int n_attrs;
  hr_named_attr *attrs; /* in the order parsed; names are unique */
  int n_regions;
  hr_block *regions; /* array of n_regions; each region is exactly one block */
  hr_block *parent;  /* the block containing this op */
  hr_loc loc;        /* where the op was written */
  const char *debug_loc; /* the op's loc(...) as written, alias resolved (e.g. "\"a.py\":3:5"),
                            or NULL */
};

struct hr_func {
  const char *name; /* without '@' */
  bool is_private;  /* sym_visibility = "private" */
  /* A declaration (`func.func private @f(tensor<f32>) -> tensor<f32>`): no body; body.args still
   * hold the parameter types and body.n_ops is 0. Calling one is an error where programs run. */
  bool is_declaration;
  int n_args;
  int n_results;
  hr_type *result_types;  /* n_results */
  hr_attr **arg_attrs;    /* n_args DICT attributes or NULL entries (whole array may be NULL) */
  hr_attr **result_attrs; /* n_results, likewise */
  hr_attr *attrs;         /* DICT of other function attributes, or NULL */
  hr_block body;          /* body.args are the parameters; body.n_args == n_args */
  uint32_t n_values;      /* number of hr_value ids used in the function */
  hr_loc loc;
};

/* A named Shardy mesh of a module. */
typedef struct hr_mesh {
  const char *name; /* without '@' */
  hr_attr *mesh;    /* OPAQUE "sdy.mesh<[...]>" */
} hr_mesh;

struct hr_module {
  hr_arena arena;
  /* Memory constants point into (a file mapping: large bytecode constants are used in place),
   * released with `release` when the module is freed; NULL when none. */
  void *backing;
  size_t backing_len;
  void (*release)(void *backing, size_t len);
  const char *filename;
  const char *name; /* module @name, or NULL */
  hr_attr *attrs;   /* DICT of module attributes (mhlo.num_partitions, ...) or NULL */
  int n_funcs;
  hr_func **funcs;
  /* Shardy meshes (`sdy.mesh @name = <["a"=2]>`), which sharding attributes name: kept in order,
   * each mesh an OPAQUE "sdy.mesh<...>". */
  int n_meshes;
  hr_mesh *meshes;
};

/* Finds a function by name (without '@'); NULL when absent. */
hr_func *hr_module_find_func(const hr_module *m, const char *name);
/* interpreter.run_parallel (ir/run_parallel.c): the process grid its `programs` spans (replicas x
 * partitions), the function process `index` (= replica * partitions + partition) runs, and
 * function `index` of its `infeed` queue (*count entries; 0 without one, and *out is set only for
 * an index below *count). Malformed attributes or unknown functions are errors naming `op`. */
hr_status hr_run_parallel_grid(const hr_op *op, int64_t *replicas, int64_t *partitions);
hr_status hr_run_parallel_program(const hr_module *m, const hr_op *op, int64_t index, const hr_func **out);
hr_status hr_run_parallel_infeed(const hr_module *m, const hr_op *op, int64_t index, int64_t *count,
                                 const hr_func **out);
/* Finds an op attribute by name; NULL when absent. */
const hr_attr *hr_op_attr(const hr_op *op, const char *name);
/* Whether attribute `name` of `op` holds StableHLO's default for it, so that the op without it is
 * the same op (ir/defaults.c). */
bool hr_attr_is_default(const hr_op *op, const char *name, const hr_attr *a);
/* Removes the attributes of `op` that hold their defaults; both readers do, so that text and
 * bytecode read to the same IR. */
void hr_op_drop_defaults(hr_op *op);
/* Whether `name` is one of StableHLO's integer-list attributes (slice's start_indices, gather's
 * slice_sizes, ...), array<i64: ...> today where older texts and VHLO hold a tensor. */
bool hr_is_list_attr_name(const char *name);
/* Gives `op`'s integer-list attributes written in the older dense<...> : tensor<Nxi64> form today's
 * array<i64: ...> form (ir/defaults.c); other attributes are left as they are. */
hr_status hr_op_modernize(hr_module *m, hr_op *op);

/* Creates an error whose message starts with the op's position and name:
 * "file.mlir:12:7: stablehlo.add: <message>". */
hr_status hr_op_error(const hr_op *op, hr_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Typed attribute getters that report a missing or malformed attribute via hr_op_error. */
hr_status hr_op_attr_i64(const hr_op *op, const char *name, int64_t *out);
hr_status hr_op_attr_i64_list(const hr_op *op, const char *name, int64_t *out, int cap, int *n);
/* Like hr_op_attr_i64_list, but an absent attribute yields `n == 0` and no error. */
hr_status hr_op_attr_i64_list_opt(const hr_op *op, const char *name, int64_t *out, int cap, int *n);
/* The window of operand b an hlorun.matmul reads: `b_window = array<i64: row0, col0, rows, cols>`
 * in b's own layout (the compiler fuses a slice of a weight this way: the weight is packed once),
 * or all of b when absent. False when the attribute is malformed or reaches past b's static
 * dimensions. */
bool hr_matmul_b_window(const hr_op *op, const hr_shape *b, int64_t window[4]);
/* The `value` of an ENUM attribute (e.g. "LT"); NULL when absent or not an ENUM. */
const char *hr_op_attr_enum(const hr_op *op, const char *name);
/* The integer-list field `field` of the struct attribute `s` of `op` (named `sname` in errors), up
 * to HR_MAX_RANK entries; absent: none. A malformed field is a verify error naming op, attribute
 * and field. */
hr_status hr_op_struct_list(const hr_op *op, const hr_attr *s, const char *sname, const char *field, int64_t *out,
                            int *n);

/* ---------------------------------------------------------------------------------------------- */
/* Building (used by the parser and by passes)                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Allocates an empty module with its own arena. */
hr_status hr_module_new(const hr_allocator *a, const char *filename, hr_module **out);
hr_attr *hr_attr_new(hr_module *m, hr_attr_kind kind); /* zeroed; NULL when out of memory */
/* A #stablehlo.channel_handle struct of `handle` and `type` (integer attributes of `m`); NULL when
 * out of memory. */
hr_attr *hr_attr_channel_handle(hr_module *m, hr_attr *handle, hr_attr *type);

/* ---------------------------------------------------------------------------------------------- */
/* Analysis entry points implemented in other files of src/ir                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Checks the module: SSA dominance, operand/result counts, attributes, and that each op's
 * declared result types agree with the types inferred from its operands (infer.h).
 * Errors name file:line:col of the op at fault. */
hr_status hr_module_verify(const hr_module *m);
/* Custom calls returning one tuple read only by get_tuple_element (JAX's old LAPACK ABI) become
 * calls with the tuple's elements as results (untuple.c); both parsers apply it. */
hr_status hr_module_untuple_calls(hr_module *m);
/* Points every operand in block `b` (and the regions inside it) that reads `from` at `to`. */
void hr_block_replace_uses(hr_block *b, const hr_value *from, hr_value *to);

/* Appends the module's text to `out` (a NUL-terminated hr_strbuf, see base/strbuf.h). */
hr_status hr_module_print_to(const hr_module *m, struct hr_strbuf *out);

#endif /* HLORUN_IR_IR_H */

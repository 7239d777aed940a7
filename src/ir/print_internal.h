/*
 * Internals of the StableHLO text printer (print*.c), which writes modules the way `stablehlo-opt`
 * prints them: MLIR's SSA naming, float and dense-elements spelling, and the pretty syntax of the
 * StableHLO ops, falling back to MLIR's generic op form whenever an op's attributes do not fit
 * its pretty syntax exactly.
 */
#ifndef HLORUN_IR_PRINT_INTERNAL_H
#define HLORUN_IR_PRINT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "ir/ir.h"

/* ---- floats (print_float.c) ---- */

/* Appends a float of type `t` (any float type), given as its bit pattern (hr_float_to_pattern), exactly as
 * MLIR prints float literals: a 6-digit "%e"-like form when it reads back to the same bits, else
 * the shortest form APFloat guarantees to round-trip, else (NaN, infinity, large integers) hex. */
void hr_print_float_bits(hr_strbuf *sb, hr_dtype t, uint64_t bits);

/* ---- SSA names (print_names.c) ---- */

/* How one value is spelled: `%<number>` or `%<name>`, plus `#<index>` for a result of an op with
 * several results. */
typedef struct hr_value_name {
  const hr_value *value; /* the value this slot was assigned to (detects foreign operands) */
  uint32_t number;       /* used when name == NULL */
  const char *name;      /* "cst_0", "arg1", "iterArg_3" (arena string) or NULL */
} hr_value_name;

/* Assigns MLIR's names to every value of `f`: block arguments `%argN` (`%iterArg` in while
 * regions), constants `%c`/`%cst` with `_N` suffixes on conflicts, other results numbered in the
 * order MLIR's SSANameState visits them. `names` gets f->n_values entries (allocated in `arena`).
 */
hr_status hr_print_name_values(const hr_func *f, hr_arena *arena, hr_value_name **names);

/* ---- the printer state shared by the print*.c files ---- */

typedef struct hr_printer {
  hr_strbuf *out;
  hr_arena *scratch;          /* temporary allocations for this print */
  const hr_func *func;        /* function being printed */
  const hr_value_name *names; /* indexed by hr_value.id */
  const hr_op *op;            /* innermost op being printed (names the position in errors) */
  int indent;                 /* spaces before the current op */
  int depth;                  /* region nesting, bounded */
} hr_printer;

/* ---- attributes and types (print_attr.c) ---- */

/* An HR_INVALID_ARGUMENT error for a malformed module, prefixed with the position and name of the
 * op being printed ("file.mlir:3:5: stablehlo.add: ..."), or with the function's name when the op
 * has no position ("@main: stablehlo.add: ...", "@main: ..."). */
hr_status hr_print_error(const hr_printer *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends a type, after checking that it is well formed (rank, dtype, tuple nesting). */
hr_status hr_print_type(hr_printer *p, const hr_type *t);
/* Appends an attribute in MLIR syntax (`dense<...> : tensor<...>`, `array<i64: 1>`, `3 : i32`...).
 */
hr_status hr_print_attr(hr_printer *p, const hr_attr *a);
/* Appends `name` bare when it is an MLIR bare identifier, else as a quoted, escaped string. */
void hr_print_keyword_or_string(hr_printer *p, const char *s, size_t len);
/* Appends a quoted string with MLIR's escapes (`\22`, `\0A`, `\\`). */
void hr_print_escaped_string(hr_printer *p, const char *s, size_t len);
/* Appends `@name` (quoted when needed). */
void hr_print_symbol(hr_printer *p, const char *s, size_t len);
/* Appends `a = 1, b` for `n` named attributes in the given order (no braces). */
hr_status hr_print_named_attrs(hr_printer *p, const hr_named_attr *attrs, int n);
/* Appends ` {a = 1, b}` for `n` named attributes in the given order; nothing when n == 0. */
hr_status hr_print_attr_dict(hr_printer *p, const hr_named_attr *attrs, int n);
/* Appends convolution dimension numbers (a #stablehlo.conv struct) in the compact form
 * `[b, 0, f]x[0, i, o]->[b, 0, f]`; returns false, appending nothing, when they do not fit it. */
bool hr_print_conv_dims(hr_printer *p, const hr_attr *a);
/* Whether hr_print_conv_dims can print the attribute. */
bool hr_print_conv_dims_fit(const hr_attr *a);
/* Whether `a` is an OPAQUE attribute whose text is `prefix`, a nonempty body, then `suffix`; sets
 * the body (what an op's custom form prints of it: "sdy.mesh<[...]>" gives "<[...]>"). */
bool hr_opaque_body(const hr_attr *a, const char *prefix, const char *suffix, const char **body, size_t *len);
/* Appends the elements of a DENSE_ARRAY separated by ", " (no brackets). */
hr_status hr_print_dense_array_elems(hr_printer *p, const hr_attr *a);

/* ---- ops (print.c, print_ops.c, print_regions.c) ---- */

/* Appends `%name` or `%name#i` for a use of `v`; fails when `v` is not a value of the function. */
hr_status hr_print_value_use(hr_printer *p, const hr_value *v);
/* Appends `%name: type` for a block argument. */
hr_status hr_print_block_arg(hr_printer *p, const hr_value *v);
/* Appends the comma-separated uses of `n` values. */
hr_status hr_print_value_list(hr_printer *p, hr_value *const *vals, int n);
/* Appends `(t1, t2) -> t3` (results parenthesised unless exactly one). */
hr_status hr_print_functional_type(hr_printer *p, const hr_op *op);
/* Appends the comma-separated types of `n` values. */
hr_status hr_print_value_types(hr_printer *p, hr_value *const *vals, int n);
/* Appends a region `{\n ...ops... }` at the current indentation; block arguments are printed as
 * `^bb0(...):` only when `print_args` is set. */
hr_status hr_print_region(hr_printer *p, const hr_block *b, bool print_args);
/* Appends the op's name with the default dialect of the enclosing region stripped. */
void hr_print_op_name(hr_printer *p, const hr_op *op);

/* The attributes of `op` sorted by name, except those in `skip` (a NULL-terminated list). MLIR
 * keeps op attributes in a name-sorted dictionary, so every attr-dict is printed in this order. */
hr_status hr_print_sorted_attrs(hr_printer *p, const hr_op *op, const char *const *skip,
                                hr_named_attr **out, int *n);
/* Appends the op's attributes not listed in `skip` as ` {...}` (sorted; nothing when none). */
hr_status hr_print_op_attr_dict(hr_printer *p, const hr_op *op, const char *const *skip);

/* Tries to print the op in its pretty syntax (everything after `%results = `). Returns NULL and
 * sets *done when it did; leaves the buffer untouched and *done false when the op does not fit its
 * pretty form, so that the caller prints the generic form instead. */
hr_status hr_print_pretty_op(hr_printer *p, const hr_op *op, bool *done);
/* Pretty forms of the region-carrying ops (reduce, while). Same contract. */
hr_status hr_print_pretty_region_op(hr_printer *p, const hr_op *op, bool *done);

#endif /* HLORUN_IR_PRINT_INTERNAL_H */

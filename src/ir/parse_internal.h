/*
 * Internal interface shared by the parser's source files:
 *   parse.c         entry points, module and function structure, parser utilities
 *   parse_type.c    types and operation signatures
 *   parse_attr.c    attributes (scalars, strings, arrays, dictionaries, enums, structs)
 *   parse_dense.c   dense<...> elements and array<...> dense arrays
 *   parse_loc.c     loc(...) locations and #loc aliases
 *   parse_op.c      operations in generic form, regions, blocks, SSA value scoping
 *   parse_pretty.c  the custom ("pretty") forms of StableHLO / CHLO / func operations
 *
 * The parser is a recursive-descent parser over hr_lexer tokens with one token of look-ahead
 * (`p->tok`). Every node of the result lives in the module arena; temporary growable arrays live in
 * a scratch arena released when parsing ends. Nesting of regions, attributes, types and locations is
 * bounded by `max_nesting`.
 */
#ifndef HLORUN_IR_PARSE_INTERNAL_H
#define HLORUN_IR_PARSE_INTERNAL_H

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "ir/ir.h"
#include "ir/lexer.h"

/* ---- growable arrays in the scratch arena ---- */

typedef struct hr_pvec {
  void *data;
  size_t len;      /* elements */
  size_t cap;      /* elements */
  hr_arena *arena; /* where it grows: NULL for the parser's scratch arena, or its op_temp arena */
} hr_pvec;

/* ---- SSA names visible at the current point ---- */

typedef struct hr_name_def {
  const char *name; /* points into the source text */
  size_t len;
  uint32_t hash;
  hr_value *values; /* `count` consecutive values (results of one op, or one block argument) */
  int count;
  int next; /* index of the definition this one shadows in its hash bucket, or -1 */
} hr_name_def;

typedef struct hr_scope_table {
  hr_name_def *defs; /* a stack: regions pop back to a mark when they end */
  size_t n, cap;
  int *buckets; /* heads of the hash chains, -1 when empty */
  size_t n_buckets; /* a power of two */
} hr_scope_table;

/* ---- locations ---- */

typedef enum hr_loc_kind {
  HR_LOC_UNKNOWN,
  HR_LOC_TEXT,     /* already rendered text: a file location, or a plain name */
  HR_LOC_NAME,     /* "name"(child) */
  HR_LOC_CALLSITE, /* callsite(callee at caller) */
  HR_LOC_FUSED,    /* fused<metadata>[a, b, ...] */
  HR_LOC_ALIAS,    /* #loc3, resolved after the whole input is read */
} hr_loc_kind;

typedef struct hr_loc_node {
  hr_loc_kind kind;
  const char *text; /* TEXT: the rendering; NAME: the quoted name; FUSED: metadata or NULL;
                       ALIAS: the alias name including '#' */
  size_t len;
  hr_token tok; /* where it was written (for undefined-alias errors) */
  int n_kids;
  struct hr_loc_node **kids;
} hr_loc_node;

typedef struct hr_loc_alias {
  const char *name; /* including '#', points into the source */
  size_t len;
  hr_loc_node *node;
  const char *rendered; /* module-arena string once resolved */
  int state;            /* 0 = not rendered, 1 = rendering (cycle check), 2 = done */
} hr_loc_alias;

/* A string-keyed hash map (open addressing) for location aliases and function names. */
typedef struct hr_strmap_entry {
  const char *key; /* not owned */
  size_t len;
  void *value;
} hr_strmap_entry;

typedef struct hr_strmap {
  hr_strmap_entry *slots; /* key == NULL: empty */
  size_t n, cap;          /* cap is zero or a power of two */
} hr_strmap;

typedef struct hr_pending_loc {
  hr_op *op;
  hr_loc_node *node;
} hr_pending_loc;

/* ---- the parser ---- */

typedef struct hr_parser {
  hr_lexer lx;
  hr_token tok; /* the current (not yet consumed) token */
  hr_module *m;
  hr_arena scratch; /* temporary arrays, released when parsing ends */
  hr_arena op_temp; /* arrays that live while one op is parsed (its builder, its signature): rewound
                       after each op, so their memory is reused instead of growing with the input */
  size_t max_constant_bytes;
  int max_nesting;
  int depth;    /* current nesting of regions / attributes / types / locations */
  hr_func *func; /* the function being parsed */
  hr_scope_table scope;
  hr_strmap aliases;    /* "#name" -> hr_loc_alias* */
  hr_strmap func_names; /* name -> hr_func* */
  hr_pvec funcs;        /* hr_func* in order of appearance */
  hr_pvec pending_locs; /* hr_pending_loc: op locations to resolve at the end */
  hr_pvec alias_uses;   /* hr_loc_node*: every alias reference, checked at the end */
  locale_t c_locale;    /* "C" numeric locale for float literals, created on first use */
} hr_parser;

/* A region argument declared by an op's custom syntax (while iterArgs, reduce reducer args). */
typedef struct hr_region_arg {
  hr_token name; /* the %name token */
  hr_type type;
} hr_region_arg;

/* An operation under construction. */
typedef struct hr_op_builder {
  hr_op *op;         /* allocated up front: regions need their parent pointer */
  hr_token name_tok; /* the op name as written */
  hr_pvec operands;  /* hr_value* */
  hr_pvec attrs;     /* hr_named_attr */
  hr_pvec results;   /* hr_type */
  hr_pvec regions;   /* hr_block, fixed up when the op is finished */
} hr_op_builder;

/* A parsed type signature `: T`, `: T, U`, `: (T, U) -> V`, `: T -> (U, V)`. */
typedef struct hr_sig {
  hr_token at;  /* first token, for messages */
  bool is_func; /* an arrow was present */
  hr_pvec ins;  /* hr_type: the list before the arrow, or the whole list */
  hr_pvec outs; /* hr_type: after the arrow */
} hr_sig;

/* ---- utilities (parse.c) ---- */

void hr_p_next(hr_parser *p);
/* The token after the current one, without consuming anything. */
hr_token hr_p_peek(hr_parser *p);
hr_status hr_p_error(hr_parser *p, const hr_token *at, hr_code code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "expected <what>, found <token>", or the lexical error when the token is malformed. */
hr_status hr_p_unexpected(hr_parser *p, const char *what);
hr_status hr_p_expect(hr_parser *p, hr_tok_kind kind, const char *what);
bool hr_p_accept(hr_parser *p, hr_tok_kind kind);
bool hr_p_is_kw(const hr_parser *p, const char *word);
bool hr_p_accept_kw(hr_parser *p, const char *word);
hr_status hr_p_expect_kw(hr_parser *p, const char *word);
hr_status hr_p_oom(hr_parser *p);
/* Enters one level of nesting; fails with HR_RESOURCE_EXHAUSTED beyond max_nesting. */
hr_status hr_p_enter(hr_parser *p, const hr_token *at);
void hr_p_leave(hr_parser *p);
/* Module-arena copy of `len` bytes plus a NUL; NULL when out of memory. */
char *hr_p_strdup(hr_parser *p, const char *s, size_t len);
/* Appends an element of `size` bytes to a scratch vector. */
hr_status hr_pvec_push(hr_parser *p, hr_pvec *v, const void *elem, size_t size);
/* Looks a key up; NULL when absent. */
void *hr_p_map_find(const hr_strmap *m, const char *key, size_t len);
/* Inserts key -> value; *existing receives the old value when the key is already present (the
 * map is then unchanged). */
hr_status hr_p_map_insert(hr_parser *p, hr_strmap *m, const char *key, size_t len, void *value,
                          void **existing);
/* Copies a scratch vector into the module arena (NULL for an empty vector). */
hr_status hr_pvec_export(hr_parser *p, const hr_pvec *v, size_t size, size_t align, void **out);

/* ---- types (parse_type.c) ---- */

hr_status hr_p_parse_type(hr_parser *p, hr_type *out);
/* Whether the current token can start a type. */
bool hr_p_at_type(const hr_parser *p);
/* A scalar element type (i32, f32, complex<f64>, ...). */
hr_status hr_p_parse_elem_type(hr_parser *p, hr_dtype *out);
/* Parses a type signature after ':'. */
hr_status hr_p_parse_sig(hr_parser *p, hr_sig *sig);
/* Writes a type in MLIR syntax for messages. */
void hr_p_type_str(const hr_type *t, char *buf, size_t cap);

/* ---- attributes (parse_attr.c) ---- */

hr_status hr_p_parse_attr(hr_parser *p, hr_attr **out);
/* Parses `{name = value, ...}` (the current token is '{') appending hr_named_attr entries. */
hr_status hr_p_parse_attr_dict(hr_parser *p, hr_pvec *entries);
/* Appends a named attribute (uniqueness is checked when the list is complete). */
hr_status hr_p_add_attr(hr_parser *p, hr_pvec *entries, const char *name, hr_attr *value,
                        const hr_token *at);
/* Makes a DICT attribute from named entries. */
hr_status hr_p_make_dict(hr_parser *p, const hr_pvec *entries, hr_attr **out);
/* An optionally negative integer literal without a type, in int64 range. */
hr_status hr_p_parse_int(hr_parser *p, int64_t *out);
/* `[i, j, ...]` of integers into an int64_t scratch vector. */
hr_status hr_p_parse_int_list(hr_parser *p, hr_pvec *out);
/* Decodes a string token (with quotes) into module-arena memory. */
hr_status hr_p_decode_string(hr_parser *p, const hr_token *t, const char **data, size_t *len);
hr_attr *hr_p_int_attr(hr_parser *p, int64_t v, hr_dtype dtype);
hr_attr *hr_p_i64_array_attr(hr_parser *p, const int64_t *v, size_t n);
hr_attr *hr_p_bool_array_attr(hr_parser *p, const int64_t *v, size_t n);
hr_attr *hr_p_untyped_int_list_attr(hr_parser *p, const int64_t *v, size_t n);
hr_attr *hr_p_string_attr(hr_parser *p, const char *s, size_t len, hr_attr_kind kind);
/* An ENUM attribute; known enum names have their values checked. */
hr_status hr_p_enum_attr(hr_parser *p, const hr_token *at, const char *dialect, const char *name,
                         const hr_token *value, hr_attr **out);
/* Rejects a list of named attributes that holds a name twice. */
hr_status hr_p_check_unique(hr_parser *p, const hr_pvec *entries, const hr_token *at);
/* Parses `[b, 0, f]x[0, i, o]->[b, 0, f]` into a canonical #stablehlo.conv STRUCT. */
hr_status hr_p_parse_conv_dims(hr_parser *p, hr_attr **out);
/* Parses another dialect's attribute body, a bracketed group (`<...>`, `[...]`, `(...)` or `{...}`,
 * its brackets balanced) from the current opening bracket, into an OPAQUE attribute whose text is
 * `prefix`, the body as written, then `suffix` ("sdy.mesh", `<["a"=2]>` and "" give
 * "sdy.mesh<["a"=2]>"). */
hr_status hr_p_parse_opaque_body(hr_parser *p, const char *prefix, const char *suffix, hr_attr **out);
/* Parses `key = value, ...>` (the '<' already consumed) into a STRUCT named `name`; the fields of
 * known structs (stablehlo.dot, gather, scatter, conv) are put in canonical form. */
hr_status hr_p_parse_struct_body(hr_parser *p, const hr_token *at, const char *name, hr_attr **out);
/* Builds a known struct (e.g. "stablehlo.dot") in canonical form from named fields. */
hr_status hr_p_canonical_struct(hr_parser *p, const hr_token *at, const char *name,
                                const hr_pvec *fields, hr_attr **out);
hr_status hr_p_make_struct(hr_parser *p, const char *name, const hr_named_attr *fields, int n,
                           hr_attr **out);

/* ---- dense elements (parse_dense.c) ---- */

hr_status hr_p_parse_dense(hr_parser *p, hr_attr **out);
hr_status hr_p_parse_dense_array(hr_parser *p, hr_attr **out);
/* A DENSE attribute of type tensor<Nx2xi64> built from 2*N values. */
hr_status hr_p_pairs_dense_attr(hr_parser *p, const int64_t *v, size_t n_pairs, hr_attr **out);
/* The value of a hex digit, or -1. */
int hr_p_hex_value(char c);
/* Reads an integer literal token into magnitude + sign; fails on overflow of 64 bits. */
hr_status hr_p_int_token(hr_parser *p, const hr_token *t, uint64_t *mag);
/* Checks that (neg, mag) fits the integer element type and returns the value in the in-memory
 * convention (sign-extended for signless types, which like MLIR accept -2^(n-1) .. 2^n - 1).
 * HR_DTYPE_INVALID means a plain int64 (-2^63 .. 2^63 - 1). */
hr_status hr_p_int_fits(hr_parser *p, const hr_token *at, hr_dtype dtype, bool neg, uint64_t mag,
                        int64_t *out);
/* Converts a decimal float (or integer) literal token to the value nearest to it in the given
 * float type (HR_DTYPE_INVALID: double), negated when `neg`. */
hr_status hr_p_float_token(hr_parser *p, const hr_token *t, hr_dtype dtype, bool neg, double *out);
/* Rounds a double to the precision of a float element type. */
double hr_p_round_to(hr_dtype dtype, double v);
/* Interprets hex bits as a value of a float element type; fails when they do not fit. */
hr_status hr_p_float_bits(hr_parser *p, const hr_token *at, hr_dtype dtype, uint64_t bits,
                          double *out);

/* ---- locations (parse_loc.c) ---- */

/* Parses an optional trailing `loc(...)`; for an op it is resolved into op->debug_loc later. */
hr_status hr_p_parse_opt_loc(hr_parser *p, hr_op *op);
/* Parses a top-level `#alias = loc(...)` definition. */
hr_status hr_p_parse_loc_alias(hr_parser *p);
/* Checks every alias reference and renders the op locations. */
hr_status hr_p_resolve_locs(hr_parser *p);

/* ---- operations, regions, values (parse_op.c) ---- */

/* Parses ops up to (not including) the closing '}' of a block. */
hr_status hr_p_parse_block_ops(hr_parser *p, hr_block *blk);
/* Parses `{ ... }` into `out`. With `args` (custom forms) the region may not declare a block
 * header; otherwise an optional `^bb0(%a: T, ...):` header declares the arguments. */
hr_status hr_p_parse_region(hr_parser *p, hr_op *parent, const hr_region_arg *args, int n_args,
                            hr_block *out);
/* Creates the arguments of a block (owned by `blk`), defining their names when they have one. */
hr_status hr_p_init_block_args(hr_parser *p, hr_block *blk, const hr_region_arg *args, int n);
/* Turns a builder into its finished op: arrays copied to the arena, results created, region
 * blocks placed and their back pointers fixed. */
hr_status hr_p_finish_op(hr_parser *p, hr_op_builder *b);
/* Parses a region and appends it to the op under construction. */
hr_status hr_p_add_region(hr_parser *p, hr_op_builder *b, const hr_region_arg *args, int n_args);
/* Resolves a use `%name` / `%name#i` at the current token and consumes it. */
hr_status hr_p_parse_use(hr_parser *p, hr_value **out);
/* Parses a use and appends it to the operands. */
hr_status hr_p_add_operand(hr_parser *p, hr_op_builder *b);
/* Parses `%a, %b, ...` (possibly empty) appending operands; stops at a non-value token. */
hr_status hr_p_add_operand_list(hr_parser *p, hr_op_builder *b);
/* Parses an optional attribute dictionary into the op's attributes. */
hr_status hr_p_opt_attr_dict(hr_parser *p, hr_op_builder *b);
hr_status hr_p_add_op_attr(hr_parser *p, hr_op_builder *b, const char *name, hr_attr *value,
                           const hr_token *at);
/* Checks that operand i of the op under construction has type `t`. */
hr_status hr_p_check_operand_type(hr_parser *p, hr_op_builder *b, size_t i, const hr_type *t,
                                  const hr_token *at);
/* Checks that operand i has type types[i] for all operands (after a signature). */
hr_status hr_p_check_operand_types(hr_parser *p, hr_op_builder *b, const hr_type *types, size_t n,
                                   const hr_token *at);
/* Sets the result types. */
hr_status hr_p_set_results(hr_parser *p, hr_op_builder *b, const hr_type *types, size_t n);
/* Defines block-argument or result names in the current scope. */
hr_status hr_p_define(hr_parser *p, const hr_token *name, hr_value *values, int count);
size_t hr_p_scope_mark(const hr_parser *p);
void hr_p_scope_pop(hr_parser *p, size_t mark);
/* Assigns the next value id of the current function. */
hr_status hr_p_new_value_id(hr_parser *p, const hr_token *at, uint32_t *id);

/* ---- custom forms (parse_pretty.c) ---- */

/* Parses everything after the op name of a custom-form op. */
hr_status hr_p_parse_pretty(hr_parser *p, hr_op_builder *b);

#endif

/* The conversion of a StableHLO portable artifact (MLIR bytecode holding the VHLO dialect, read by
 * bytecode.c) into hlorun's IR, as the text parser would have built it from the StableHLO text of
 * the same module: vhlo_types.c decodes types, vhlo_attrs.c attributes, vhlo_ops.c functions, ops
 * and their attributes (VHLO's names and forms mapped to StableHLO's). */
#ifndef HLORUN_FORMATS_MLIRBC_VHLO_INTERNAL_H
#define HLORUN_FORMATS_MLIRBC_VHLO_INTERNAL_H

#include "formats/mlirbc/bytecode.h"
#include "ir/ir.h"

/* What a type entry decodes to. Element types (f32, si32 ...) appear on their own in attributes
 * (an IntegerV1's type) and inside tensor types. */
typedef enum vt_kind {
  VT_ELEM = 1,  /* a scalar element type: dtype (HR_DTYPE_INVALID for one hlorun lacks: `name` says it) */
  VT_INDEX,     /* index (dtype HR_INDEX) */
  VT_QUANT,     /* a quantized element type: quant (dtype its storage type) */
  VT_NONE,      /* none (an absent optional type) */
  VT_TENSOR,    /* type: a ranked tensor */
  VT_TOKEN,     /* type: !stablehlo.token */
  VT_TUPLE,     /* type: a tuple */
  VT_FUTURE,    /* type: a !stablehlo.future */
  VT_FUNC,      /* in / out: a function type */
  VT_OTHER,     /* anything else (unranked tensors, buffers, foreign dialects): `name` */
} vt_kind;

typedef struct vt {
  vt_kind kind;
  hr_dtype dtype;   /* VT_ELEM, VT_INDEX, VT_QUANT */
  int bits;         /* VT_ELEM, VT_INDEX: the width of its values (1 for i1, 64 for index) */
  const hr_quant *quant; /* VT_QUANT */
  hr_type type;     /* VT_TENSOR, VT_TOKEN, VT_TUPLE, VT_FUTURE */
  int n_in, n_out;  /* VT_FUNC */
  hr_type *in, *out;
  const char *name; /* VT_ELEM without a dtype, VT_OTHER: what it is, for messages */
} vt;

/* The state of one conversion. */
typedef struct vhlo_ctx {
  hr_bc_file *f;
  hr_module *m;
  const vt **types;      /* per type entry: decoded, or NULL */
  hr_attr **attrs;       /* per attribute entry: decoded, or NULL */
  uint8_t *busy;         /* per attribute entry then per type entry: being decoded (a cycle) */
  int depth;             /* nesting of the entry being decoded */
  int64_t builtin, vhlo; /* dialect indices, or -1 */
  size_t max_constant_bytes;
  bool in_place;     /* the file outlives the module: large constants may point into it */
  /* ops */
  hr_value **values; /* per bytecode value id: the converted value, or NULL */
  hr_func *func;     /* the function being converted */
  size_t sdy_text;   /* bytes of Shardy attribute text decoded so far (HR_LIMIT_SDY_MODULE_TEXT_BYTES) */
} vhlo_ctx;

/* Decodes type entry `i` (cached). */
hr_status vhlo_type(vhlo_ctx *c, uint32_t i, const vt **out);
/* Decodes type entry `i` and requires a value type (tensor, token, tuple). */
hr_status vhlo_value_type(vhlo_ctx *c, uint32_t i, hr_type *out);
/* An APInt of `bits` bits: one raw byte up to 8 bits, else a zigzag varint of the value; the result
 * is sign-extended from `bits` when `is_signed`, else zero-extended. */
hr_status vhlo_read_apint(hr_bc_cursor *cur, int bits, bool is_signed, int64_t *out);
/* Decodes attribute entry `i` (cached) into the IR form the text parser gives its StableHLO
 * spelling; locations decode to NULL with no error. */
hr_status vhlo_attr(vhlo_ctx *c, uint32_t i, hr_attr **out);
/* Marks attribute entry `i` as being decoded, refusing a cycle (busy) and nesting beyond
 * HR_LIMIT_NESTING_DEPTH (depth); vhlo_leave_attr ends it. */
hr_status vhlo_enter_attr(vhlo_ctx *c, uint32_t i);
void vhlo_leave_attr(vhlo_ctx *c, uint32_t i);
/* The dialect name of attribute entry `i`. */
const char *vhlo_attr_dialect(const vhlo_ctx *c, uint32_t i);
/* An error at an attribute or type entry: "FILE: offset N: <message>". */
hr_status vhlo_entry_error(const vhlo_ctx *c, const hr_bc_entry *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

struct hr_strbuf;
/* Appends the MLIR text spelling, without the leading '#', of Shardy attribute entry `e`
 * (custom-encoded, dialect "sdy") to `sb`: "sdy.sharding<@mesh, [{\"a\"}, {}]>",
 * "sdy<manual_axes{\"a\"}>", "sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>", ... exactly as
 * Shardy prints it (sdy_attrs.c). The entries it references are decoded with the cycle and depth
 * guards of vhlo_attr (c->busy, c->depth); `e` itself is not marked busy, as vhlo_attr marks it.
 * A malformed entry (unknown code, truncated, a Bool not 0 or 1, a reference to the wrong kind of
 * attribute, a cycle, text beyond 1 MiB) is an error naming the file and byte offset; `sb` may
 * then hold part of the text. */
hr_status vhlo_sdy_attr_text(vhlo_ctx *c, const hr_bc_entry *e, struct hr_strbuf *sb);
/* The same for attribute entry `i` (which must be of dialect "sdy") when no vhlo_attr decoding of
 * it is under way: `i` itself is guarded too, so an entry reached again while it is decoded is an
 * error ("attribute N refers to itself"). */
hr_status vhlo_sdy_attr_text_at(vhlo_ctx *c, uint32_t i, struct hr_strbuf *sb);

/* Converts the file's builtin.module into c->m. */
hr_status vhlo_convert_module(vhlo_ctx *c);

#endif

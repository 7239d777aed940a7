/* Shardy's attributes (dialect `sdy`: shardings, meshes, sharding rules) in a portable artifact,
 * decoded from the dialect's own bytecode encoding into the MLIR text Shardy's printers give them.
 *
 * The encoding (Shardy's ir/bytecode.td over MLIR's BytecodeBase.td): an entry is a varint code
 * naming the attribute, then its members in order. An attribute member is a varint attribute index;
 * an optional one a varint (index << 1 | present); a string a varint index into the string table;
 * an integer a zigzag varint; a list a varint count then its items; a Bool one raw byte.
 *
 * The spelling (Shardy's attrs.td assembly formats and printers.cc): a top-level attribute prints
 * as `sdy.<mnemonic><body>` when the body is `<...>` or an identifier (MLIR's pretty form of a
 * dialect attribute), else as `sdy<<mnemonic><body>>`; an attribute nested in another prints its
 * body alone (MLIR's "stripped" form). Lists are separated by ", ", strings are quoted with MLIR's
 * escapes, and factor i of a sharding rule is the letter 'i' + i up to 'z', then z_1, z_2, ... */
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "formats/mlirbc/vhlo_internal.h"

/* The attribute codes of Shardy's bytecode (its DialectAttributes list, in order). */
enum {
  SDY_MANUAL_AXES,
  SDY_MESH_AXIS,
  SDY_MESH,
  SDY_SUB_AXIS_INFO,
  SDY_AXIS_REF,
  SDY_DIM_SHARDING,
  SDY_SHARDING_V1, /* no unreduced axes */
  SDY_SHARDING_PER_VALUE_V1,
  SDY_DIM_MAPPING,
  SDY_TENSOR_MAPPING,
  SDY_OP_SHARDING_RULE,
  SDY_AXIS_REF_LIST,
  SDY_LIST_OF_AXIS_REF_LISTS,
  SDY_ALL_TO_ALL_PARAM,
  SDY_ALL_TO_ALL_PARAM_LIST,
  SDY_SHARDING_V2, /* unreduced axes, summed */
  SDY_SHARDING_PER_VALUE_V2,
  SDY_SHARDING_V3, /* unreduced axes and their reduction */
  SDY_N_CODES
};

/* Per code: the mnemonic, and whether its body is `<...>` or an identifier, so that MLIR prints
 * the attribute in its pretty form `sdy.<mnemonic><body>` rather than `sdy<<mnemonic><body>>`. */
static const struct {
  const char *mnemonic;
  bool pretty;
} sdy_kinds[SDY_N_CODES] = {
    [SDY_MANUAL_AXES] = {"manual_axes", false},
    [SDY_MESH_AXIS] = {"mesh_axis", false},
    [SDY_MESH] = {"mesh", true},
    [SDY_SUB_AXIS_INFO] = {"sub_axis_info", false},
    [SDY_AXIS_REF] = {"axis_ref", false},
    [SDY_DIM_SHARDING] = {"dimension_sharding", false},
    [SDY_SHARDING_V1] = {"sharding", true},
    [SDY_SHARDING_PER_VALUE_V1] = {"sharding_per_value", true},
    [SDY_DIM_MAPPING] = {"dim_mapping", true},
    [SDY_TENSOR_MAPPING] = {"tensor_mapping", false},
    [SDY_OP_SHARDING_RULE] = {"op_sharding_rule", true},
    [SDY_AXIS_REF_LIST] = {"axis_ref_list", false},
    [SDY_LIST_OF_AXIS_REF_LISTS] = {"list_of_axis_ref_lists", false},
    [SDY_ALL_TO_ALL_PARAM] = {"all_to_all_param", false},
    [SDY_ALL_TO_ALL_PARAM_LIST] = {"all_to_all_param_list", false},
    [SDY_SHARDING_V2] = {"sharding", true},
    [SDY_SHARDING_PER_VALUE_V2] = {"sharding_per_value", true},
    [SDY_SHARDING_V3] = {"sharding", true},
};

/* Sets of codes a nested reference may name (bit c for code c). */
#define SDY_BIT(code) ((uint32_t)1 << (code))
#define SDY_ANY_SHARDING (SDY_BIT(SDY_SHARDING_V1) | SDY_BIT(SDY_SHARDING_V2) | SDY_BIT(SDY_SHARDING_V3))


/* The decoding of one top-level attribute into `sb`, from byte `start` of it. */
typedef struct sdy_out {
  vhlo_ctx *c;
  hr_strbuf *sb;
  size_t start;
} sdy_out;

static hr_status sdy_ref(sdy_out *o, hr_bc_cursor *cur, uint32_t codes);
static hr_status sdy_nested(sdy_out *o, const hr_bc_cursor *at, uint32_t i, uint32_t codes);

/* ---------------------------------------------------------------------------------------------- */
/* Text                                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Appends `s` as MLIR prints a string: quoted, '\' as \\, and '"' and every byte that is not
 * printable ASCII as \XX (two upper-case hex digits). */
static void put_quoted(hr_strbuf *sb, const char *s, size_t len) {
  static const char hex[] = "0123456789ABCDEF";
  hr_strbuf_putc(sb, '"');
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch == '\\') {
      hr_strbuf_append(sb, "\\\\", 2);
    } else if (ch >= 0x20 && ch < 0x7F && ch != '"') {
      hr_strbuf_putc(sb, (char)ch);
    } else {
      char esc[3] = {'\\', hex[ch >> 4], hex[ch & 15]};
      hr_strbuf_append(sb, esc, 3);
    }
  }
  hr_strbuf_putc(sb, '"');
}

static bool is_letter(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Whether MLIR prints symbol name `s` bare: a letter or '_', then letters, digits, '_', '$', '.'. */
static bool is_bare_identifier(const char *s, size_t len) {
  if (len == 0 || (!is_letter(s[0]) && s[0] != '_')) return false;
  for (size_t i = 1; i < len; i++)
    if (!is_letter(s[i]) && !is_digit(s[i]) && s[i] != '_' && s[i] != '$' && s[i] != '.') return false;
  return true;
}

/* Appends a symbol reference as MLIR prints it: `@name`, the name quoted when it is not a bare
 * identifier (an empty one as MLIR marks it). */
static void put_symbol(hr_strbuf *sb, const char *s, size_t len) {
  if (len == 0) {
    hr_strbuf_puts(sb, "@<<INVALID EMPTY SYMBOL>>");
    return;
  }
  hr_strbuf_putc(sb, '@');
  if (is_bare_identifier(s, len)) hr_strbuf_append(sb, s, len);
  else put_quoted(sb, s, len);
}

/* Appends the symbol of factor `f` of a sharding rule: 'i' + f up to 'z' (f = 17), then "z_<f - 17>". */
static void put_factor(hr_strbuf *sb, int64_t f) {
  enum { LAST_LETTER = 'z' - 'i' };
  if (f <= LAST_LETTER) hr_strbuf_putc(sb, (char)('i' + f));
  else hr_strbuf_printf(sb, "z_%lld", (long long)(f - LAST_LETTER));
}

/* Fails once the attribute's text has outgrown HR_LIMIT_SDY_TEXT_BYTES. */
static hr_status check_size(const sdy_out *o, const hr_bc_cursor *cur) {
  if (o->sb->len - o->start > HR_LIMIT_SDY_TEXT_BYTES)
    return hr_bc_error(cur, "the text of a Shardy attribute exceeds %d bytes", HR_LIMIT_SDY_TEXT_BYTES);
  return hr_strbuf_status(o->sb);
}

/* ---------------------------------------------------------------------------------------------- */
/* Members                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* A list's item count; each item takes at least one byte of the entry. */
static hr_status read_count(hr_bc_cursor *cur, uint64_t *n) {
  HR_TRY(hr_bc_varint(cur, n));
  if (*n > (uint64_t)(cur->end - cur->p))
    return hr_bc_error(cur, "a list of %llu items overruns its entry", (unsigned long long)*n);
  return NULL;
}

/* The item count of the list at the cursor, which does not move. */
static hr_status peek_count(const hr_bc_cursor *cur, uint64_t *n) {
  hr_bc_cursor at = *cur;
  return read_count(&at, n);
}

/* A Bool member: one raw byte, 0 or 1. */
static hr_status read_bool(hr_bc_cursor *cur, bool *out) {
  hr_bc_cursor at = *cur;
  uint8_t b;
  HR_TRY(hr_bc_byte(cur, &b));
  if (b > 1) return hr_bc_error(&at, "a Bool of value %u (0 or 1 expected)", b);
  *out = b != 0;
  return NULL;
}

/* A String member, appended quoted. */
static hr_status put_string_member(sdy_out *o, hr_bc_cursor *cur) {
  uint32_t i;
  HR_TRY(hr_bc_index(cur, o->c->f->n_strings, "string index", &i));
  put_quoted(o->sb, o->c->f->strings[i].data, o->c->f->strings[i].len);
  return NULL;
}

/* A SignedVarInt member, appended in decimal. */
static hr_status put_int_member(sdy_out *o, hr_bc_cursor *cur) {
  int64_t v;
  HR_TRY(hr_bc_svarint(cur, &v));
  hr_strbuf_printf(o->sb, "%lld", (long long)v);
  return NULL;
}

/* Skips a list of attribute references (checking the indices). */
static hr_status skip_refs(const sdy_out *o, hr_bc_cursor *cur) {
  uint64_t n;
  uint32_t i;
  HR_TRY(read_count(cur, &n));
  for (uint64_t k = 0; k < n; k++) HR_TRY(hr_bc_index(cur, o->c->f->n_attrs, "attribute index", &i));
  return NULL;
}

/* Skips a list of signed varints. */
static hr_status skip_ints(hr_bc_cursor *cur) {
  uint64_t n;
  int64_t v;
  HR_TRY(read_count(cur, &n));
  for (uint64_t k = 0; k < n; k++) HR_TRY(hr_bc_svarint(cur, &v));
  return NULL;
}

/* A list of references to attributes of `codes`, appended between `open` and `close`. */
static hr_status put_refs(sdy_out *o, hr_bc_cursor *cur, uint32_t codes, const char *open, const char *close) {
  uint64_t n;
  HR_TRY(read_count(cur, &n));
  hr_strbuf_puts(o->sb, open);
  for (uint64_t k = 0; k < n; k++) {
    if (k) hr_strbuf_append(o->sb, ", ", 2);
    HR_TRY(sdy_ref(o, cur, codes));
    HR_TRY(check_size(o, cur));
  }
  hr_strbuf_puts(o->sb, close);
  return NULL;
}

/* How a list of integers prints its items. */
typedef enum int_style {
  INTS_DECIMAL,   /* 0, 2, 4 */
  INTS_FACTORS,   /* i, k, m */
  INTS_GLUED,     /* ikm: the factors of one dimension */
  INTS_SIZES,     /* i=4, j=8: factor sizes */
} int_style;

/* A list of signed varints, appended in `style` (factors must not be negative). */
static hr_status put_ints(sdy_out *o, hr_bc_cursor *cur, int_style style) {
  uint64_t n;
  HR_TRY(read_count(cur, &n));
  for (uint64_t k = 0; k < n; k++) {
    hr_bc_cursor at = *cur;
    int64_t v;
    HR_TRY(hr_bc_svarint(cur, &v));
    if (k && style != INTS_GLUED) hr_strbuf_append(o->sb, ", ", 2);
    if (style == INTS_DECIMAL) {
      hr_strbuf_printf(o->sb, "%lld", (long long)v);
    } else if (style == INTS_SIZES) {
      put_factor(o->sb, (int64_t)k);
      hr_strbuf_printf(o->sb, "=%lld", (long long)v);
    } else {
      if (v < 0) return hr_bc_error(&at, "a negative factor index %lld", (long long)v);
      put_factor(o->sb, v);
    }
    HR_TRY(check_size(o, cur));
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Attribute bodies (what each prints after its mnemonic)                                          */
/* ---------------------------------------------------------------------------------------------- */

/* ManualAxesAttr, `{"a", "b"}`: a list of builtin StringAttrs. */
static hr_status manual_axes_body(sdy_out *o, hr_bc_cursor *cur) { return put_refs(o, cur, 0, "{", "}"); }

/* MeshAxisAttr, `"a"=2`: name, size. */
static hr_status mesh_axis_body(sdy_out *o, hr_bc_cursor *cur) {
  HR_TRY(put_string_member(o, cur));
  hr_strbuf_putc(o->sb, '=');
  return put_int_member(o, cur);
}

/* The size of MeshAxisAttr entry `i` (already printed, so well formed). */
static hr_status mesh_axis_size(const sdy_out *o, uint32_t i, int64_t *size) {
  const hr_bc_entry *e = &o->c->f->attrs[i];
  hr_bc_cursor cur = hr_bc_entry_cursor(o->c->f, e->data, e->len);
  uint64_t code;
  uint32_t name;
  HR_TRY(hr_bc_varint(&cur, &code));
  HR_TRY(hr_bc_index(&cur, o->c->f->n_strings, "string index", &name));
  return hr_bc_svarint(&cur, size);
}

/* Whether the device ids listed at `ids` are 0, 1, ... up to the product of the sizes of the mesh
 * axes listed at `axes` (entries already printed, so well formed): MLIR's builder of a MeshAttr
 * with axes drops such ids, so they do not print. */
static hr_status device_ids_are_iota(const sdy_out *o, hr_bc_cursor axes, hr_bc_cursor ids, bool *out) {
  uint64_t n_axes, n;
  int64_t total = 1;
  bool overflow = false;
  *out = false;
  HR_TRY(read_count(&axes, &n_axes));
  for (uint64_t k = 0; k < n_axes; k++) {
    uint32_t i;
    int64_t size;
    HR_TRY(hr_bc_index(&axes, o->c->f->n_attrs, "attribute index", &i));
    HR_TRY(mesh_axis_size(o, i, &size));
    overflow = overflow || __builtin_mul_overflow(total, size, &total);
  }
  HR_TRY(read_count(&ids, &n));
  if (n_axes == 0 || overflow || (uint64_t)total != n) return NULL;
  for (uint64_t k = 0; k < n; k++) {
    int64_t v;
    HR_TRY(hr_bc_svarint(&ids, &v));
    if (v != (int64_t)k) return NULL;
  }
  *out = true;
  return NULL;
}

/* MeshAttr, `<["a"=2, "b"=4], device_ids=[...]>`: axes, device ids (printed unless empty or, with
 * axes, iota). */
static hr_status mesh_body(sdy_out *o, hr_bc_cursor *cur) {
  hr_bc_cursor axes = *cur;
  HR_TRY(put_refs(o, cur, SDY_BIT(SDY_MESH_AXIS), "<[", "]"));
  uint64_t n;
  HR_TRY(peek_count(cur, &n));
  bool iota = false;
  if (n) HR_TRY(device_ids_are_iota(o, axes, *cur, &iota));
  if (n && !iota) {
    hr_strbuf_puts(o->sb, ", device_ids=[");
    HR_TRY(put_ints(o, cur, INTS_DECIMAL));
    hr_strbuf_putc(o->sb, ']');
  } else {
    HR_TRY(skip_ints(cur));
  }
  hr_strbuf_putc(o->sb, '>');
  return NULL;
}

/* SubAxisInfoAttr, `(1)2`: pre-size, size. */
static hr_status sub_axis_info_body(sdy_out *o, hr_bc_cursor *cur) {
  hr_strbuf_putc(o->sb, '(');
  HR_TRY(put_int_member(o, cur));
  hr_strbuf_putc(o->sb, ')');
  return put_int_member(o, cur);
}

/* AxisRefAttr, `"a"` or `"a":(1)2`: name, optional sub-axis info. */
static hr_status axis_ref_body(sdy_out *o, hr_bc_cursor *cur) {
  HR_TRY(put_string_member(o, cur));
  hr_bc_cursor at = *cur;
  uint64_t v;
  HR_TRY(hr_bc_varint(cur, &v)); /* index << 1 | present */
  if (!(v & 1)) return NULL;
  if ((v >> 1) >= o->c->f->n_attrs)
    return hr_bc_error(&at, "attribute index %llu out of range (%u entries)", (unsigned long long)(v >> 1),
                       o->c->f->n_attrs);
  hr_strbuf_putc(o->sb, ':');
  return sdy_nested(o, &at, (uint32_t)(v >> 1), SDY_BIT(SDY_SUB_AXIS_INFO));
}

/* DimensionShardingAttr, `{"a", "b"}`, `{"a", ?}` (open), `{?}`, then `p<priority>` if it has one:
 * axes, is_closed, optional priority. */
static hr_status dim_sharding_body(sdy_out *o, hr_bc_cursor *cur) {
  uint64_t n_axes;
  HR_TRY(peek_count(cur, &n_axes));
  HR_TRY(put_refs(o, cur, SDY_BIT(SDY_AXIS_REF), "{", ""));
  bool closed = false;
  HR_TRY(read_bool(cur, &closed));
  if (!closed) hr_strbuf_puts(o->sb, n_axes ? ", ?" : "?");
  hr_strbuf_putc(o->sb, '}');
  uint64_t priority;
  HR_TRY(hr_bc_varint(cur, &priority)); /* value << 1 | present */
  if (priority & 1) hr_strbuf_printf(o->sb, "p%llu", (unsigned long long)(priority >> 1));
  return NULL;
}

/* Whether attribute entry `i` is of the builtin dialect. */
static bool is_builtin(const vhlo_ctx *c, uint32_t i) { return (int64_t)c->f->attrs[i].dialect == c->builtin; }

/* The mesh of a sharding: an inline MeshAttr as `mesh<...>`, else a symbol reference `@name`. */
static hr_status mesh_or_ref(sdy_out *o, hr_bc_cursor *cur) {
  hr_bc_cursor at = *cur;
  uint32_t i;
  HR_TRY(hr_bc_index(cur, o->c->f->n_attrs, "attribute index", &i));
  if (strcmp(vhlo_attr_dialect(o->c, i), "sdy") == 0) {
    hr_strbuf_puts(o->sb, "mesh");
    return sdy_nested(o, &at, i, SDY_BIT(SDY_MESH));
  }
  hr_attr *a = NULL;
  if (is_builtin(o->c, i)) HR_TRY(vhlo_attr(o->c, i, &a));
  if (!a || a->kind != HR_ATTR_SYMBOL) return hr_bc_error(&at, "a sharding's mesh that is neither a mesh nor a symbol");
  put_symbol(o->sb, a->u.str.data, a->u.str.len);
  return NULL;
}

/* The reduction of a sharding's unreduced axes (V3): sum, max or min. */
static hr_status read_reduction(hr_bc_cursor *cur, const char **out) {
  static const char *const names[] = {"", "max", "min"}; /* sum is not spelled */
  hr_bc_cursor at = *cur;
  int64_t v;
  HR_TRY(hr_bc_svarint(cur, &v));
  if (v < 0 || v > 2) return hr_bc_error(&at, "an unknown reduction %lld of unreduced axes", (long long)v);
  *out = names[v];
  return NULL;
}

/* The unreduced axes of a sharding (V2, V3), `, unreduced={"c"}` or with their reduction (V3,
 * `has_reduction`, after them in the entry) other than sum `, unreduced=max{"c"}`; nothing if none. */
static hr_status put_unreduced(sdy_out *o, hr_bc_cursor *cur, bool has_reduction) {
  hr_bc_cursor axes = *cur;
  const char *reduction = "";
  uint64_t n;
  HR_TRY(peek_count(cur, &n));
  HR_TRY(skip_refs(o, cur));
  if (has_reduction) HR_TRY(read_reduction(cur, &reduction));
  if (!n) return NULL;
  hr_strbuf_printf(o->sb, ", unreduced=%s", reduction);
  return put_refs(o, &axes, SDY_BIT(SDY_AXIS_REF), "{", "}");
}

/* TensorShardingAttr, `<@mesh, [{"a"}, {}], replicated={"b"}, unreduced=max{"c"}>`: mesh, dimension
 * shardings, replicated axes, then (V2, V3) unreduced axes and (V3) their reduction. */
static hr_status sharding_body(sdy_out *o, hr_bc_cursor *cur, uint64_t code) {
  hr_strbuf_putc(o->sb, '<');
  HR_TRY(mesh_or_ref(o, cur));
  HR_TRY(put_refs(o, cur, SDY_BIT(SDY_DIM_SHARDING), ", [", "]"));
  uint64_t n;
  HR_TRY(peek_count(cur, &n));
  HR_TRY(n ? put_refs(o, cur, SDY_BIT(SDY_AXIS_REF), ", replicated={", "}") : skip_refs(o, cur));
  if (code != SDY_SHARDING_V1) HR_TRY(put_unreduced(o, cur, code == SDY_SHARDING_V3));
  hr_strbuf_putc(o->sb, '>');
  return NULL;
}

/* OpShardingRuleAttr, `<([i, j], [j, k])->([i, k]) {i=2, j=4, k=8} reduction={j}, custom>`: factor
 * sizes, operand and result mappings, the reduction, need-replication, permutation and
 * blocked-propagation factors, is_custom_rule (the sizes print after the mappings). */
static hr_status rule_body(sdy_out *o, hr_bc_cursor *cur) {
  static const char *const kinds[] = {"reduction", "need_replication", "permutation", "blocked_propagation"};
  hr_bc_cursor sizes = *cur;
  HR_TRY(skip_ints(cur));
  HR_TRY(put_refs(o, cur, SDY_BIT(SDY_TENSOR_MAPPING), "<(", ")"));
  HR_TRY(put_refs(o, cur, SDY_BIT(SDY_TENSOR_MAPPING), "->(", ")"));
  uint64_t n;
  HR_TRY(peek_count(&sizes, &n));
  if (n) hr_strbuf_puts(o->sb, " {");
  HR_TRY(put_ints(o, &sizes, INTS_SIZES));
  if (n) hr_strbuf_putc(o->sb, '}');
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    HR_TRY(peek_count(cur, &n));
    if (n) hr_strbuf_printf(o->sb, " %s={", kinds[k]);
    HR_TRY(put_ints(o, cur, INTS_FACTORS));
    if (n) hr_strbuf_putc(o->sb, '}');
  }
  bool custom = false;
  HR_TRY(read_bool(cur, &custom));
  hr_strbuf_puts(o->sb, custom ? ", custom>" : ">");
  return NULL;
}

/* AllToAllParamAttr, `{"a", "b"}: 0->1`: axes, source dimension, target dimension. */
static hr_status all_to_all_param_body(sdy_out *o, hr_bc_cursor *cur) {
  HR_TRY(put_refs(o, cur, SDY_BIT(SDY_AXIS_REF), "{", "}: "));
  HR_TRY(put_int_member(o, cur));
  hr_strbuf_append(o->sb, "->", 2);
  return put_int_member(o, cur);
}

/* Appends the body of an attribute of `code` whose members start at the cursor. */
static hr_status sdy_body(sdy_out *o, hr_bc_cursor *cur, uint64_t code) {
  switch (code) {
    case SDY_MANUAL_AXES: return manual_axes_body(o, cur);
    case SDY_MESH_AXIS: return mesh_axis_body(o, cur);
    case SDY_MESH: return mesh_body(o, cur);
    case SDY_SUB_AXIS_INFO: return sub_axis_info_body(o, cur);
    case SDY_AXIS_REF: return axis_ref_body(o, cur);
    case SDY_DIM_SHARDING: return dim_sharding_body(o, cur);
    case SDY_SHARDING_V1:
    case SDY_SHARDING_V2:
    case SDY_SHARDING_V3: return sharding_body(o, cur, code);
    case SDY_SHARDING_PER_VALUE_V1:
    case SDY_SHARDING_PER_VALUE_V2: return put_refs(o, cur, SDY_ANY_SHARDING, "<[", "]>");
    case SDY_DIM_MAPPING: return put_ints(o, cur, INTS_GLUED);
    case SDY_TENSOR_MAPPING: return put_refs(o, cur, SDY_BIT(SDY_DIM_MAPPING), "[", "]");
    case SDY_OP_SHARDING_RULE: return rule_body(o, cur);
    case SDY_AXIS_REF_LIST: return put_refs(o, cur, SDY_BIT(SDY_AXIS_REF), "{", "}");
    case SDY_LIST_OF_AXIS_REF_LISTS: return put_refs(o, cur, SDY_BIT(SDY_AXIS_REF_LIST), "[", "]");
    case SDY_ALL_TO_ALL_PARAM: return all_to_all_param_body(o, cur);
    default: return put_refs(o, cur, SDY_BIT(SDY_ALL_TO_ALL_PARAM), "[", "]"); /* SDY_ALL_TO_ALL_PARAM_LIST */
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Entries                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Reads entry `e`'s code, which must be a known one and, unless `codes` is 0, one of `codes`. */
static hr_status read_code(const vhlo_ctx *c, const hr_bc_entry *e, hr_bc_cursor *cur, uint32_t codes, uint64_t *code) {
  if (!e->custom) return vhlo_entry_error(c, e, "a Shardy attribute in text form where its bytecode was expected");
  hr_bc_cursor at = *cur;
  HR_TRY(hr_bc_varint(cur, code));
  if (*code >= SDY_N_CODES) return hr_bc_error(&at, "unknown Shardy attribute code %llu", (unsigned long long)*code);
  if (codes && !(codes & SDY_BIT(*code)))
    return hr_bc_error(&at, "a Shardy %s where another kind of attribute belongs", sdy_kinds[*code].mnemonic);
  return NULL;
}

/* Appends Shardy entry `e`, whose code must be one of `codes` (0: any), checking that its members
 * fill it: with `full` as a top-level attribute prints (`sdy.<mnemonic><body>`, or
 * `sdy<<mnemonic><body>>` when the body is neither `<...>` nor an identifier), else its body alone
 * as a nested one prints; MLIR prints a nested attribute whose body is empty (a DimMappingAttr of
 * no factors) in full instead, `#sdy.dim_mapping`. */
static hr_status sdy_entry(sdy_out *o, const hr_bc_entry *e, uint32_t codes, bool full) {
  hr_bc_cursor cur = hr_bc_entry_cursor(o->c->f, e->data, e->len);
  uint64_t code;
  HR_TRY(read_code(o->c, e, &cur, codes, &code));
  bool pretty = sdy_kinds[code].pretty;
  if (full) hr_strbuf_printf(o->sb, "sdy%c%s", pretty ? '.' : '<', sdy_kinds[code].mnemonic);
  size_t body = o->sb->len;
  HR_TRY(sdy_body(o, &cur, code));
  if (!hr_bc_at_end(&cur)) return hr_bc_error(&cur, "Shardy %s entry has bytes left over", sdy_kinds[code].mnemonic);
  if (full && !pretty) hr_strbuf_putc(o->sb, '>');
  if (!full && o->sb->len == body)
    hr_strbuf_printf(o->sb, "#sdy%c%s%s", pretty ? '.' : '<', sdy_kinds[code].mnemonic, pretty ? "" : ">");
  return check_size(o, &cur);
}

/* The body of Shardy entry `i` of `codes`, nested in the attribute being decoded and referenced at
 * `at`. */
static hr_status sdy_nested(sdy_out *o, const hr_bc_cursor *at, uint32_t i, uint32_t codes) {
  if (strcmp(vhlo_attr_dialect(o->c, i), "sdy") != 0)
    return hr_bc_error(at, "attribute %u is not a Shardy attribute", i);
  HR_TRY(vhlo_enter_attr(o->c, i));
  hr_status s = sdy_entry(o, &o->c->f->attrs[i], codes, false);
  vhlo_leave_attr(o->c, i);
  return s;
}

/* A reference to an attribute nested in a Shardy one: a Shardy entry of `codes` (its body), or
 * with `codes` 0 a builtin StringAttr (quoted). */
static hr_status sdy_ref(sdy_out *o, hr_bc_cursor *cur, uint32_t codes) {
  hr_bc_cursor at = *cur;
  uint32_t i;
  HR_TRY(hr_bc_index(cur, o->c->f->n_attrs, "attribute index", &i));
  if (codes) return sdy_nested(o, &at, i, codes);
  hr_attr *a = NULL;
  if (is_builtin(o->c, i)) HR_TRY(vhlo_attr(o->c, i, &a));
  if (!a || a->kind != HR_ATTR_STRING) return hr_bc_error(&at, "attribute %u is not a string", i);
  put_quoted(o->sb, a->u.str.data, a->u.str.len);
  return NULL;
}

hr_status vhlo_sdy_attr_text(vhlo_ctx *c, const hr_bc_entry *e, hr_strbuf *sb) {
  const char *dialect = c->f->dialects[e->dialect].name.data;
  if (strcmp(dialect, "sdy") != 0)
    return vhlo_entry_error(c, e, "a %s attribute where a Shardy one was expected", dialect);
  sdy_out o = {c, sb, sb->len};
  return sdy_entry(&o, e, 0, true);
}

hr_status vhlo_sdy_attr_text_at(vhlo_ctx *c, uint32_t i, hr_strbuf *sb) {
  if (i >= c->f->n_attrs) return hr_error(HR_INVALID_ARGUMENT, "%s: attribute %u out of range", c->f->filename, i);
  HR_TRY(vhlo_enter_attr(c, i));
  hr_status s = vhlo_sdy_attr_text(c, &c->f->attrs[i], sb);
  vhlo_leave_attr(c, i);
  return s;
}

/* hr_bc_write_module (writer.h): a module as MLIR bytecode version 6 of the VHLO dialect at VHLO
 * 1.8, laid out as the reader (bytecode.c, vhlo_*.c) and ../shared/research/formats.md §1 describe:
 * header, then the dialect, attribute/type (+ offsets), IR, empty resource, string and properties
 * sections. Strings, attributes, types and properties records are interned (deduplicated) in
 * tables as they are first met; attributes and types refer to earlier entries only.
 *
 * Value numbering: builtin.module, func_v1 and every op whose regions use no value defined above
 * it are written isolated, as MLIR's writer does (what StableHLO's artifacts show): their regions
 * in a nested IR section that starts a new value scope. In a scope a region reserves its values'
 * slots at the top while it is written, its block arguments then its ops' results taking them in
 * order; operands name slots. */
#include "formats/mlirbc/writer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/numeric.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/mlirbc/vhlo_props.h"
#include "ir/shardy.h"


enum { D_BUILTIN = 0, D_VHLO = 1, D_SDY = 2 }; /* dialect indices (sdy only when used) */
enum { MAX_OPNAMES = 512 };             /* distinct op names in one file (VHLO has ~150) */
enum { MAX_LIST = 4096 };               /* entries of one list attribute written */

/* ---------------------------------------------------------------------------------------------- */
/* Primitives                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* The bytecode's prefix varint: n bytes (1 to 8) hold 7n bits, a zero byte then 8 bytes the rest. */
static void put_varint(hr_strbuf *b, uint64_t v) {
  for (unsigned n = 1; n <= 8; n++) {
    if ((v >> (7 * n)) != 0) continue; /* 7n <= 56: the shift is defined */
    uint64_t enc = (v << n) | ((uint64_t)1 << (n - 1));
    for (unsigned i = 0; i < n; i++) hr_strbuf_putc(b, (char)(uint8_t)(enc >> (8 * i)));
    return;
  }
  hr_strbuf_putc(b, 0);
  for (unsigned i = 0; i < 8; i++) hr_strbuf_putc(b, (char)(uint8_t)(v >> (8 * i)));
}

/* A zigzag-encoded signed varint. */
static void put_svarint(hr_strbuf *b, int64_t v) {
  uint64_t u = (uint64_t)v;
  put_varint(b, (u << 1) ^ (0 - (u >> 63)));
}

/* An APInt of `bits` bits (MLIR's writeAPIntWithKnownWidth): up to 8 bits one byte of the low
 * bits, else the sign-extended value as a signed varint. */
static void put_apint(hr_strbuf *b, int bits, int64_t v) {
  uint64_t u = (uint64_t)v;
  if (bits <= 8) {
    hr_strbuf_putc(b, (char)(uint8_t)(u & ((1u << bits) - 1)));
    return;
  }
  if (bits < 64) {
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    u &= mask;
    if ((u >> (bits - 1)) & 1) u |= ~mask;
  }
  put_svarint(b, (int64_t)u);
}

/* A section: id (unaligned), length, bytes. */
static void put_section(hr_strbuf *out, unsigned id, const hr_strbuf *data) {
  hr_strbuf_putc(out, (char)id);
  put_varint(out, data->len);
  if (data->len) hr_strbuf_append(out, data->data, data->len);
}

static hr_status unimpl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An HR_UNIMPLEMENTED error "bytecode writer: <message>". */
static hr_status unimpl(const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_UNIMPLEMENTED, "bytecode writer: %s", msg);
}

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "bytecode writer: out of memory"); }

/* ---------------------------------------------------------------------------------------------- */
/* Interning tables                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* One interned entry: its bytes in the table's pool and its dialect. */
typedef struct wr_entry {
  size_t off, len;
  uint32_t dialect;
  bool text; /* MLIR assembly text (NUL-terminated) rather than the dialect's own encoding */
} wr_entry;

/* A table of distinct byte strings (strings, attributes, types, properties records), indexed in
 * the order they were added; an open-addressing hash over (dialect, bytes) finds duplicates. */
typedef struct wr_table {
  const hr_allocator *a;
  hr_strbuf pool;
  wr_entry *items;
  uint32_t n, cap;
  uint32_t *slots; /* hash slots: index + 1, 0 empty */
  uint32_t n_slots;
} wr_table;

static uint64_t hash_bytes(uint32_t dialect, const char *p, size_t len) {
  uint64_t h = 1469598103934665603ull ^ dialect;
  for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)p[i]) * 1099511628211ull;
  return h;
}

/* Doubles the hash slots (and re-inserts every entry) when the table is half full. */
static hr_status table_rehash(wr_table *t) {
  uint32_t n = t->n_slots ? t->n_slots * 2 : 1024;
  if (n < t->n_slots) return oom();
  uint32_t *s = t->a->alloc(t->a->ctx, (size_t)n * sizeof *s, 16);
  if (!s) return oom();
  memset(s, 0, (size_t)n * sizeof *s);
  for (uint32_t i = 0; i < t->n; i++) {
    const wr_entry *e = &t->items[i];
    uint64_t h = hash_bytes(e->dialect, t->pool.data + e->off, e->len);
    uint32_t k = (uint32_t)(h & (n - 1));
    while (s[k]) k = (k + 1) & (n - 1);
    s[k] = i + 1;
  }
  if (t->slots) t->a->free(t->a->ctx, t->slots);
  t->slots = s;
  t->n_slots = n;
  return NULL;
}

/* The index of (dialect, bytes) in the table, added when new. */
static hr_status table_intern(wr_table *t, uint32_t dialect, const char *p, size_t len, uint32_t *out) {
  if ((uint64_t)(t->n + 1) * 2 > t->n_slots) HR_TRY(table_rehash(t));
  uint64_t h = hash_bytes(dialect, p, len);
  uint32_t k = (uint32_t)(h & (t->n_slots - 1));
  for (; t->slots[k]; k = (k + 1) & (t->n_slots - 1)) {
    const wr_entry *e = &t->items[t->slots[k] - 1];
    if (e->dialect == dialect && e->len == len && (len == 0 || memcmp(t->pool.data + e->off, p, len) == 0)) {
      *out = t->slots[k] - 1;
      return NULL;
    }
  }
  if (t->n == t->cap) {
    uint32_t cap = t->cap ? t->cap * 2 : 256;
    wr_entry *items = t->a->alloc(t->a->ctx, (size_t)cap * sizeof *items, 16);
    if (!items) return oom();
    if (t->n) memcpy(items, t->items, (size_t)t->n * sizeof *items);
    if (t->items) t->a->free(t->a->ctx, t->items);
    t->items = items;
    t->cap = cap;
  }
  t->items[t->n] = (wr_entry){.off = t->pool.len, .len = len, .dialect = dialect};
  if (len) hr_strbuf_append(&t->pool, p, len);
  HR_TRY(hr_strbuf_status(&t->pool));
  t->slots[k] = t->n + 1;
  *out = t->n++;
  return NULL;
}

static void table_free(wr_table *t) {
  hr_strbuf_free(&t->pool);
  if (t->items) t->a->free(t->a->ctx, t->items);
  if (t->slots) t->a->free(t->a->ctx, t->slots);
}

/* ---------------------------------------------------------------------------------------------- */
/* The writer's state                                                                              */
/* ---------------------------------------------------------------------------------------------- */

/* An op name: dialect and name string. */
typedef struct wr_opname {
  uint32_t dialect;
  uint32_t str;
} wr_opname;

typedef struct wr {
  const hr_allocator *a;
  uint16_t version;      /* the VHLO version written (VHLO_PROPS_VERSION) */
  char producer[32];     /* "StableHLO_v1.8.0": the release that version belongs to */
  wr_table strings, attrs, types, props;
  wr_opname opnames[MAX_OPNAMES];
  uint32_t n_opnames;
  uint32_t unknown_loc;  /* attribute index of UnknownLoc */
  bool uses_sdy;         /* a Shardy mesh or attribute was written: the sdy dialect is listed */
  uint32_t *slots;       /* per value id of the function being written: its slot in the scope */
  uint32_t n_slot_ids;
  uint64_t scope_top;    /* slots reserved by the open regions */
} wr;

/* Interns a finished entry buffer `e` (freed) as an attribute or type of `dialect`. */
static hr_status finish(wr_table *t, uint32_t dialect, hr_strbuf *e, uint32_t *out) {
  hr_status s = hr_strbuf_status(e);
  if (!s) s = table_intern(t, dialect, e->data ? e->data : "", e->len, out);
  hr_strbuf_free(e);
  return s;
}

/* The string-table index of `len` bytes (a NUL is added in the section). */
static hr_status string_ref(wr *w, const char *p, size_t len, uint32_t *out) {
  return table_intern(&w->strings, 0, p, len, out);
}

/* The index of op name `dialect`.`name`, added when new. */
static hr_status opname_ref(wr *w, uint32_t dialect, const char *name, uint32_t *out) {
  uint32_t str;
  HR_TRY(string_ref(w, name, strlen(name), &str));
  for (uint32_t i = 0; i < w->n_opnames; i++)
    if (w->opnames[i].dialect == dialect && w->opnames[i].str == str) return (*out = i), NULL;
  if (w->n_opnames == MAX_OPNAMES) return unimpl("more than %d distinct op names", MAX_OPNAMES);
  w->opnames[w->n_opnames] = (wr_opname){dialect, str};
  *out = w->n_opnames++;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Types                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* A type entry of the VHLO dialect whose whole encoding is its code. */
static hr_status code_type(wr *w, uint64_t code, uint32_t *out) {
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, code);
  return finish(&w->types, D_VHLO, &e, out);
}

/* The VHLO element type of `dt` (VhloBytecode.cpp codes; StableHLO's signless integers are SI). */
static hr_status elem_type(wr *w, hr_dtype dt, uint32_t *out) {
  static const struct {
    hr_dtype dt;
    uint8_t code;
    uint16_t since; /* the first VHLO version with the type (0: before 1.0) */
  } codes[] = {{HR_I1, 0, 0},   {HR_BF16, 2, 0}, {HR_F16, 3, 0},  {HR_F32, 4, 0},  {HR_F64, 5, 0},  {HR_I4, 10, 0},
               {HR_I8, 11, 0},  {HR_I16, 12, 0}, {HR_I32, 13, 0}, {HR_I64, 14, 0}, {HR_U4, 15, 0},  {HR_U8, 16, 0},
               {HR_U16, 17, 0}, {HR_U32, 18, 0}, {HR_U64, 19, 0}, {HR_INDEX, 9, 0},
               {HR_F8E4M3FN, 6, 0}, {HR_F8E5M2, 7, 0}, {HR_F8E4M3FNUZ, 27, 0}, {HR_F8E5M2FNUZ, 28, 0},
               {HR_F8E4M3B11FNUZ, 29, 0},
               /* versions from the StableHLO compatibility suite: the releases whose tests first use them */
               {HR_I2, 31, VHLO_PROPS_VERSION(1, 2)},   {HR_U2, 32, VHLO_PROPS_VERSION(1, 2)},
               {HR_TF32, 34, VHLO_PROPS_VERSION(1, 6)}, {HR_F8E4M3, 35, VHLO_PROPS_VERSION(1, 7)},
               {HR_F8E3M4, 36, VHLO_PROPS_VERSION(1, 7)}, {HR_F4E2M1FN, 37, VHLO_PROPS_VERSION(1, 8)},
               {HR_F6E2M3FN, 38, VHLO_PROPS_VERSION(1, 8)}, {HR_F6E3M2FN, 39, VHLO_PROPS_VERSION(1, 8)},
               {HR_F8E8M0FNU, 40, VHLO_PROPS_VERSION(1, 8)}};
  for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
    if (codes[i].dt != dt) continue;
    if (w->version < codes[i].since)
      return unimpl("element type %s is not in VHLO %d.%d (since %d.%d)", hr_dtype_name(dt), w->version / 100,
                    w->version % 100, codes[i].since / 100, codes[i].since % 100);
    return code_type(w, codes[i].code, out);
  }
  if (dt == HR_C64 || dt == HR_C128) {
    uint32_t part;
    HR_TRY(elem_type(w, dt == HR_C64 ? HR_F32 : HR_F64, &part));
    hr_strbuf e;
    hr_strbuf_init(&e, w->a);
    put_varint(&e, 1);
    put_varint(&e, part);
    return finish(&w->types, D_VHLO, &e, out);
  }
  return unimpl("element type %s has no VHLO type here", hr_dtype_name(dt));
}

/* Appends the APFloat of an f64 (a quantized type's scale): its bit pattern as a 64-bit APInt. */
static void put_f64(hr_strbuf *e, double v) { put_apint(e, 64, (int64_t)hr_f64_bits(v)); }

/* UniformQuantizedV1 / UniformQuantizedPerAxisV1 of `q`: flags (1: signed storage), storage type (a
 * signless integer of its width), expressed type, then per tensor scale, zero point, range, or per
 * axis the axis, range, scales and zero points. */
static hr_status quant_type(wr *w, const hr_quant *q, uint32_t *out) {
  static const hr_dtype signless[] = {[2] = HR_I2, [4] = HR_I4, [8] = HR_I8, [16] = HR_I16, [32] = HR_I32, [64] = HR_I64};
  int bits = hr_dtype_bits(q->storage);
  uint32_t storage, expressed;
  HR_TRY(elem_type(w, signless[bits], &storage));
  HR_TRY(elem_type(w, q->expressed, &expressed));
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, q->axis < 0 ? 24 : 30);
  put_varint(&e, hr_dtype_is_signed_int(q->storage) ? 1 : 0);
  put_varint(&e, storage);
  put_varint(&e, expressed);
  if (q->axis < 0) {
    put_f64(&e, q->scales[0]);
    put_svarint(&e, q->zero_points[0]);
  } else {
    put_varint(&e, (uint64_t)q->axis);
  }
  put_svarint(&e, q->storage_min);
  put_svarint(&e, q->storage_max);
  if (q->axis >= 0) {
    put_varint(&e, (uint64_t)q->n);
    for (int i = 0; i < q->n; i++) put_f64(&e, q->scales[i]);
    put_varint(&e, (uint64_t)q->n);
    for (int i = 0; i < q->n; i++) put_svarint(&e, q->zero_points[i]);
  }
  return finish(&w->types, D_VHLO, &e, out);
}

/* TypeExtensionsV1 of a tensor's bounds (INT64_MIN for '?'). */
static hr_status bounds_attr(wr *w, const hr_type *t, uint32_t *out) {
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 18);
  put_varint(&e, (uint64_t)t->shape.rank);
  for (int d = 0; d < t->shape.rank; d++) put_svarint(&e, t->bounds[d] < 0 ? INT64_MIN : t->bounds[d]);
  return finish(&w->attrs, D_VHLO, &e, out);
}

/* The VHLO type of a type: RankedTensorV1 (dynamic dimensions INT64_MIN; with an encoding when
 * bounded), TokenV1, TupleV1, FutureV1, and those of attributes: an element type, NoneV1. */
static hr_status value_type(wr *w, const hr_type *t, uint32_t *out) {
  hr_strbuf e;
  if (t->kind == HR_TYPE_TOKEN) return code_type(w, 22, out);
  if (t->kind == HR_TYPE_NONE) return code_type(w, 33, out);
  if (t->kind == HR_TYPE_ELEMENT) return t->quant ? quant_type(w, t->quant, out) : elem_type(w, t->dtype, out);
  if (t->kind == HR_TYPE_TUPLE || t->kind == HR_TYPE_FUTURE) {
    uint32_t refs[64];
    if (t->n_elems > 64) return unimpl("a tuple of %d elements (at most 64)", t->n_elems);
    if (t->kind == HR_TYPE_FUTURE && w->version < VHLO_PROPS_VERSION(1, 18))
      return unimpl("!stablehlo.future is not in VHLO %d.%d (written from 1.18)", w->version / 100, w->version % 100);
    for (int i = 0; i < t->n_elems; i++) HR_TRY(value_type(w, &t->elems[i], &refs[i]));
    hr_strbuf_init(&e, w->a);
    put_varint(&e, t->kind == HR_TYPE_TUPLE ? 23 : 42);
    put_varint(&e, (uint64_t)t->n_elems);
    for (int i = 0; i < t->n_elems; i++) put_varint(&e, refs[i]);
    return finish(&w->types, D_VHLO, &e, out);
  }
  uint32_t el, enc = 0;
  HR_TRY(t->quant ? quant_type(w, t->quant, &el) : elem_type(w, t->dtype, &el));
  if (t->bounds) HR_TRY(bounds_attr(w, t, &enc));
  hr_strbuf_init(&e, w->a);
  put_varint(&e, t->kind == HR_TYPE_BUFFER ? 41 : t->bounds ? 21 : 20);
  if (t->bounds) put_varint(&e, enc);
  put_varint(&e, (uint64_t)t->shape.rank);
  for (int d = 0; d < t->shape.rank; d++) put_svarint(&e, t->shape.dims[d] == HR_DYNAMIC ? INT64_MIN : t->shape.dims[d]);
  put_varint(&e, el);
  return finish(&w->types, D_VHLO, &e, out);
}

/* FunctionV1: input types, then result types. */
static hr_status function_type(wr *w, const hr_func *f, uint32_t *out) {
  hr_strbuf e;
  uint32_t *refs = w->a->alloc(w->a->ctx, ((size_t)f->n_args + (size_t)f->n_results + 1) * sizeof *refs, 16);
  if (!refs) return oom();
  hr_status s = NULL;
  for (int i = 0; i < f->n_args && !s; i++) s = value_type(w, &f->body.args[i].type, &refs[i]);
  for (int i = 0; i < f->n_results && !s; i++) s = value_type(w, &f->result_types[i], &refs[f->n_args + i]);
  if (!s) {
    hr_strbuf_init(&e, w->a);
    put_varint(&e, 8);
    put_varint(&e, (uint64_t)f->n_args);
    for (int i = 0; i < f->n_args; i++) put_varint(&e, refs[i]);
    put_varint(&e, (uint64_t)f->n_results);
    for (int i = 0; i < f->n_results; i++) put_varint(&e, refs[f->n_args + i]);
    s = finish(&w->types, D_VHLO, &e, out);
  }
  w->a->free(w->a->ctx, refs);
  return s;
}

/* A builtin integer type (module attributes): (width << 2 | signedness), signless or unsigned. */
static hr_status builtin_int_type(wr *w, int bits, bool is_unsigned, uint32_t *out) {
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 0);
  put_varint(&e, ((uint64_t)bits << 2) | (is_unsigned ? 2u : 0u));
  return finish(&w->types, D_BUILTIN, &e, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* VHLO attributes                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* An attribute entry of a code and one varint (BooleanV1, enums, StringV1, TypeV1). */
static hr_status code_varint_attr(wr *w, uint32_t dialect, uint64_t code, uint64_t v, uint32_t *out) {
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, code);
  put_varint(&e, v);
  return finish(&w->attrs, dialect, &e, out);
}

static hr_status vhlo_bool(wr *w, bool v, uint32_t *out) { return code_varint_attr(w, D_VHLO, 2, v ? 1 : 0, out); }

/* StringV1. */
static hr_status vhlo_string(wr *w, const char *p, size_t len, uint32_t *out) {
  uint32_t s;
  HR_TRY(string_ref(w, p, len, &s));
  return code_varint_attr(w, D_VHLO, 14, s, out);
}

/* TypeV1 of a type entry. */
static hr_status vhlo_type_attr(wr *w, uint32_t type, uint32_t *out) { return code_varint_attr(w, D_VHLO, 17, type, out); }

/* ArrayV1 (or DictionaryV1 with pairs) of attribute refs. */
static hr_status vhlo_list(wr *w, uint64_t code, const uint32_t *refs, int n, uint32_t *out) {
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, code);
  put_varint(&e, (uint64_t)(code == 6 ? n / 2 : n));
  for (int i = 0; i < n; i++) put_varint(&e, refs[i]);
  return finish(&w->attrs, D_VHLO, &e, out);
}

/* The bits of an integer element type. */
static int int_bits(hr_dtype dt) {
  switch (dt) {
    case HR_I1: return 1;
    case HR_I2: case HR_U2: return 2;
    case HR_I4: case HR_U4: return 4;
    case HR_I8: case HR_U8: return 8;
    case HR_I16: case HR_U16: return 16;
    case HR_I32: case HR_U32: return 32;
    case HR_I64: case HR_U64: return 64;
    default: return 0;
  }
}

/* IntegerV1 of type `dt` (HR_DTYPE_INVALID: index). */
static hr_status vhlo_int(wr *w, hr_dtype dt, int64_t v, uint32_t *out) {
  uint32_t t;
  int bits = 64;
  if (dt == HR_DTYPE_INVALID) {
    HR_TRY(code_type(w, 9, &t));
  } else {
    bits = int_bits(dt);
    if (!bits) return unimpl("an integer attribute of type %s", hr_dtype_name(dt));
    HR_TRY(elem_type(w, dt, &t));
  }
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 9);
  put_varint(&e, t);
  put_apint(&e, bits, v);
  return finish(&w->attrs, D_VHLO, &e, out);
}

/* The bit pattern of a float of `dt` and its width. */
static hr_status float_bits(hr_dtype dt, double v, int *bits, int64_t *out) {
  if (!hr_dtype_is_real_float(dt)) return unimpl("a float attribute of type %s", hr_dtype_name(dt));
  *bits = hr_float_pattern_bits(dt);
  *out = (int64_t)hr_float_to_pattern(dt, v);
  return NULL;
}

/* FloatV1 of type `dt`. */
static hr_status vhlo_float(wr *w, hr_dtype dt, double v, uint32_t *out) {
  int bits = 0;
  int64_t pattern = 0;
  uint32_t t;
  HR_TRY(float_bits(dt, v, &bits, &pattern));
  HR_TRY(elem_type(w, dt, &t));
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 8);
  put_varint(&e, t);
  put_apint(&e, bits, pattern);
  return finish(&w->attrs, D_VHLO, &e, out);
}

/* TensorV1 of a static tensor type and its elements' blob (MLIR's dense storage). */
static hr_status vhlo_tensor(wr *w, const hr_type *type, const void *blob, size_t len, uint32_t *out) {
  uint32_t t;
  HR_TRY(value_type(w, type, &t));
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 15);
  put_varint(&e, t);
  put_varint(&e, len);
  if (len) hr_strbuf_append(&e, blob, len);
  return finish(&w->attrs, D_VHLO, &e, out);
}

/* TensorV1 of `n` integers of an si64 tensor type `t`. */
static hr_status vhlo_i64_tensor_of(wr *w, const hr_type *t, const int64_t *v, int n, uint32_t *out) {
  uint8_t *blob = w->a->alloc(w->a->ctx, (size_t)n * 8 + 1, 16);
  if (!blob) return oom();
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 8; k++) blob[i * 8 + k] = (uint8_t)((uint64_t)v[i] >> (8 * k));
  hr_status s = vhlo_tensor(w, t, blob, (size_t)n * 8, out);
  w->a->free(w->a->ctx, blob);
  return s;
}

/* TensorV1 tensor<N x si64> of a list of integers (StableHLO's array<i64> attributes, dimension
 * numbers). */
static hr_status vhlo_i64_tensor(wr *w, const int64_t *v, int n, uint32_t *out) {
  int64_t dims[1] = {n};
  hr_type t = hr_tensor_type(HR_I64, 1, dims);
  return vhlo_i64_tensor_of(w, &t, v, n, out);
}

/* The bytes of an i1 tensor of `n` elements at `src` (a byte each): packed LSB first, or one byte
 * 0x00 / 0xFF for a splat, as MLIR stores it (any other single byte packs up to 8 elements). */
static hr_status pack_i1(const uint8_t *src, int64_t n, bool splat, uint8_t *dst, size_t *len) {
  if (n < 1) return unimpl("an i1 constant of %lld elements", (long long)n);
  if (splat || n == 1) { /* MLIR's splat byte, also for one element */
    dst[0] = src[0] ? 0xFF : 0x00;
    *len = 1;
    return NULL;
  }
  size_t bytes = (size_t)((n + 7) / 8);
  memset(dst, 0, bytes);
  for (int64_t i = 0; i < n; i++)
    if (src[i]) dst[i / 8] |= (uint8_t)(1u << (i % 8));
  if (bytes == 1 && (dst[0] == 0 || dst[0] == (uint8_t)((1u << n) - 1)))
    dst[0] = dst[0] ? 0xFF : 0x00; /* all equal: MLIR's splat byte */
  *len = bytes;
  return NULL;
}

/* TensorV1 of a DENSE attribute's elements. */
static hr_status vhlo_dense(wr *w, const hr_attr *a, uint32_t *out) {
  const hr_type *t = &a->u.dense.type;
  int64_t n;
  HR_TRY(hr_shape_num_elements(&t->shape, &n));
  hr_dtype dt = t->dtype;
  int64_t raw_n = a->u.dense.splat ? 1 : n;
  size_t esize = hr_dtype_size(dt);
  if (raw_n > 0 && a->u.dense.nbytes < (size_t)raw_n * esize) return unimpl("a dense constant with too few bytes");
  const uint8_t *src = a->u.dense.data;
  if (dt != HR_I1 && dt != HR_I2 && dt != HR_I4 && dt != HR_U2 && dt != HR_U4 && dt != HR_TF32)
    return vhlo_tensor(w, t, src, (size_t)raw_n * esize, out);
  uint8_t *blob = w->a->alloc(w->a->ctx, (size_t)raw_n * 3 + 1, 16);
  if (!blob) return oom();
  size_t len = (size_t)raw_n;
  hr_status s = NULL;
  if (dt == HR_TF32) { /* float32 patterns to MLIR's 3-byte 19-bit ones */
    len = (size_t)raw_n * 3;
    for (int64_t i = 0; i < raw_n; i++) {
      uint64_t bits = hr_float_load_pattern(dt, src + 4 * i);
      for (int k = 0; k < 3; k++) blob[3 * i + k] = (uint8_t)(bits >> (8 * k));
    }
  } else if (dt == HR_I1) {
    if (n == 0) len = 0;
    else s = pack_i1(src, n, a->u.dense.splat, blob, &len);
  } else {
    uint8_t mask = (dt == HR_I2 || dt == HR_U2) ? 0x3 : 0xF;
    for (int64_t i = 0; i < raw_n; i++) blob[i] = src[i] & mask;
  }
  if (!s) s = vhlo_tensor(w, t, blob, len, out);
  w->a->free(w->a->ctx, blob);
  return s;
}

/* A VHLO enum: its StableHLO name, VHLO attribute code, values by number. */
typedef struct wr_enum {
  const char *name;
  uint8_t code;
  const char *values[6];
} wr_enum;

static const wr_enum enums[] = {
    {"comparison_direction", 3, {"EQ", "NE", "GE", "GT", "LE", "LT"}},
    {"comparison_type", 4, {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
    {"fft_type", 7, {"FFT", "IFFT", "RFFT", "IRFFT"}},
    {"precision", 11, {"DEFAULT", "HIGH", "HIGHEST"}},
    {"rng_algorithm", 12, {"DEFAULT", "THREE_FRY", "PHILOX"}},
    {"rng_distribution", 13, {NULL, "UNIFORM", "NORMAL"}},
    {"transpose", 16, {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
    {"result_accuracy_mode", 19, {"DEFAULT", "HIGHEST", "TOLERANCE"}},
};

/* The VHLO enum attribute of an ENUM. */
static hr_status vhlo_enum(wr *w, const hr_attr *a, uint32_t *out) {
  if (!a->u.enm.dialect || strcmp(a->u.enm.dialect, "stablehlo") != 0)
    return unimpl("enum attribute #%s<%s ...>", a->u.enm.dialect ? a->u.enm.dialect : "?", a->u.enm.name);
  for (size_t i = 0; i < sizeof enums / sizeof *enums; i++) {
    if (strcmp(enums[i].name, a->u.enm.name) != 0) continue;
    for (int v = 0; v < 6; v++)
      if (enums[i].values[v] && strcmp(enums[i].values[v], a->u.enm.value) == 0)
        return code_varint_attr(w, D_VHLO, enums[i].code, (uint64_t)v, out);
    return unimpl("#%s<%s %s>: no such value", a->u.enm.dialect, a->u.enm.name, a->u.enm.value);
  }
  return unimpl("enum attribute #%s<%s ...>", a->u.enm.dialect, a->u.enm.name);
}

/* The integers of an ARRAY of INTs (struct fields). */
static hr_status int_items(const hr_attr *a, int64_t *v, int cap, int *n) {
  if (!a) return (*n = 0), NULL;
  if (a->kind != HR_ATTR_ARRAY || a->u.array.n > cap) return unimpl("a dimension list that is not a list of integers");
  for (int i = 0; i < a->u.array.n; i++) {
    if (a->u.array.items[i]->kind != HR_ATTR_INT) return unimpl("a dimension list that is not a list of integers");
    v[i] = a->u.array.items[i]->u.i.value;
  }
  *n = a->u.array.n;
  return NULL;
}

/* OutputOperandAliasV1 of #stablehlo.output_operand_alias<...>. */
static hr_status vhlo_alias(wr *w, const hr_attr *a, uint32_t *out) {
  int64_t outs[64], ins[64];
  int n_out = 0, n_in = 0;
  const hr_attr *idx = hr_attr_field(a, "operand_index");
  HR_TRY(int_items(hr_attr_field(a, "output_tuple_indices"), outs, 64, &n_out));
  HR_TRY(int_items(hr_attr_field(a, "operand_tuple_indices"), ins, 64, &n_in));
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 10);
  put_varint(&e, (uint64_t)n_out);
  for (int i = 0; i < n_out; i++) put_svarint(&e, outs[i]);
  put_svarint(&e, idx && idx->kind == HR_ATTR_INT ? idx->u.i.value : 0);
  put_varint(&e, (uint64_t)n_in);
  for (int i = 0; i < n_in; i++) put_svarint(&e, ins[i]);
  return finish(&w->attrs, D_VHLO, &e, out);
}

/* ResultAccuracyV1 (atol, rtol, ulps, mode); `a` NULL: the default (0, 0, 0, DEFAULT). */
static hr_status vhlo_accuracy(wr *w, const hr_attr *a, uint32_t *out) {
  const hr_attr *atol = a ? hr_attr_field(a, "atol") : NULL, *rtol = a ? hr_attr_field(a, "rtol") : NULL;
  const hr_attr *ulps = a ? hr_attr_field(a, "ulps") : NULL, *mode = a ? hr_attr_field(a, "mode") : NULL;
  uint32_t m;
  if (mode) HR_TRY(vhlo_enum(w, mode, &m));
  else HR_TRY(code_varint_attr(w, D_VHLO, 19, 0, &m));
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 20);
  put_apint(&e, 64, (int64_t)hr_f64_bits(atol && atol->kind == HR_ATTR_FLOAT ? atol->u.f.value : 0));
  put_apint(&e, 64, (int64_t)hr_f64_bits(rtol && rtol->kind == HR_ATTR_FLOAT ? rtol->u.f.value : 0));
  put_svarint(&e, ulps && ulps->kind == HR_ATTR_INT ? ulps->u.i.value : 0);
  put_varint(&e, m);
  return finish(&w->attrs, D_VHLO, &e, out);
}

static hr_status vhlo_attr(wr *w, const char *name, const hr_attr *a, uint32_t *out);

/* A Shardy attribute (OPAQUE "sdy...") as an entry of the sdy dialect in MLIR's assembly text,
 * which MLIR's reader parses with Shardy's own parser. */
static hr_status sdy_attr(wr *w, const hr_attr *a, uint32_t *out) {
  if (a->u.str.len < 3 || memcmp(a->u.str.data, "sdy", 3) != 0 || memchr(a->u.str.data, 0, a->u.str.len))
    return unimpl("an attribute of another dialect than sdy (#%.40s)", a->u.str.data);
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  hr_strbuf_putc(&e, '#');
  hr_strbuf_append(&e, a->u.str.data, a->u.str.len);
  hr_strbuf_putc(&e, 0);
  HR_TRY(finish(&w->attrs, D_SDY, &e, out));
  w->attrs.items[*out].text = true;
  w->uses_sdy = true;
  return NULL;
}

static hr_status builtin_attr(wr *w, const char *name, const hr_attr *a, uint32_t *out);

/* An ARRAY or DICT attribute as a list entry, its items encoded in the same dialect: VHLO's
 * ArrayV1 / DictionaryV1 (StringV1 keys), or with `builtin` the builtin ArrayAttr / DictionaryAttr
 * (StringAttr keys), as module attributes are. */
static hr_status aggregate(wr *w, const char *name, const hr_attr *a, bool builtin, uint32_t *out) {
  bool dict = a->kind == HR_ATTR_DICT;
  int n = dict ? a->u.dict.n : a->u.array.n;
  if (n > MAX_LIST) return unimpl("attribute '%s' of %d entries (at most %d)", name, n, MAX_LIST);
  uint32_t *refs = w->a->alloc(w->a->ctx, ((size_t)n * 2 + 1) * sizeof *refs, 16);
  if (!refs) return oom();
  hr_status s = NULL;
  for (int i = 0; i < n && !s; i++) {
    const hr_named_attr *e = dict ? &a->u.dict.entries[i] : NULL;
    const hr_attr *item = dict ? e->value : a->u.array.items[i];
    uint32_t *ref = dict ? &refs[2 * i + 1] : &refs[i];
    if (dict) {
      uint32_t key;
      s = builtin ? string_ref(w, e->name, strlen(e->name), &key) : vhlo_string(w, e->name, strlen(e->name), &refs[2 * i]);
      if (!s && builtin) s = code_varint_attr(w, D_BUILTIN, 2, key, &refs[2 * i]);
    }
    if (!s) s = builtin ? builtin_attr(w, dict ? e->name : name, item, ref) : vhlo_attr(w, dict ? e->name : "", item, ref);
  }
  if (!s) {
    hr_strbuf entry;
    hr_strbuf_init(&entry, w->a);
    put_varint(&entry, builtin ? (dict ? 1 : 0) : (dict ? 6 : 1));
    put_varint(&entry, (uint64_t)n);
    for (int i = 0; i < (dict ? 2 * n : n); i++) put_varint(&entry, refs[i]);
    s = finish(&w->attrs, builtin ? D_BUILTIN : D_VHLO, &entry, out);
  }
  w->a->free(w->a->ctx, refs);
  return s;
}

/* A DENSE_ARRAY as TensorV1 (array<i64> as si64, array<i1> as i1). */
static hr_status vhlo_dense_array(wr *w, const hr_attr *a, uint32_t *out) {
  int64_t n = a->u.dense_array.n;
  if (n > MAX_LIST) return unimpl("an array attribute of %lld entries", (long long)n);
  if (a->u.dense_array.dtype == HR_I64) return vhlo_i64_tensor(w, a->u.dense_array.ints, (int)n, out);
  if (a->u.dense_array.dtype != HR_I1) return unimpl("array<%s: ...> attributes", hr_dtype_name(a->u.dense_array.dtype));
  uint8_t bytes[MAX_LIST], blob[MAX_LIST];
  for (int64_t i = 0; i < n; i++) bytes[i] = a->u.dense_array.ints[i] != 0;
  size_t len = 0;
  if (n) HR_TRY(pack_i1(bytes, n, false, blob, &len));
  int64_t dims[1] = {n};
  hr_type t = hr_tensor_type(HR_I1, 1, dims);
  return vhlo_tensor(w, &t, blob, len, out);
}

/* Boolean VHLO attributes StableHLO holds as a unit attribute, present when true. */
static const char *const unit_attrs[] = {"use_global_device_ids", "has_dynamic_root"};
/* Attributes StableHLO holds as symbol references, VHLO as strings. */
static const char *const symbol_attrs[] = {"callee", "called_computations", "decomposition"};

static bool in_list(const char *const *list, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(list[i], name) == 0) return true;
  return false;
}
#define IN_LIST(list, name) in_list((list), sizeof(list) / sizeof *(list), (name))

/* The VHLO form of attribute `name` = `a` (the reverse of vhlo_attrs.c and the reshaping of
 * vhlo_ops.c); a form the reader would not give back as `a` is refused. */
static hr_status vhlo_attr(wr *w, const char *name, const hr_attr *a, uint32_t *out) {
  bool list_attr = hr_is_list_attr_name(name);
  if (a->kind == HR_ATTR_DENSE_ARRAY) {
    if (!list_attr) return unimpl("array attribute '%s' (VHLO has it only for StableHLO's list attributes)", name);
    return vhlo_dense_array(w, a, out);
  }
  if (list_attr) return unimpl("list attribute '%s' that is not an array<i64>", name);
  switch (a->kind) {
    case HR_ATTR_BOOL: return vhlo_bool(w, a->u.b, out);
    case HR_ATTR_INT:
      if (strcmp(name, "api_version") == 0) {
        if (a->u.i.value < 0 || a->u.i.value > 4) return unimpl("custom call api_version %lld", (long long)a->u.i.value);
        return code_varint_attr(w, D_VHLO, 5, (uint64_t)a->u.i.value, out);
      }
      if (a->u.i.is_index) return vhlo_int(w, HR_DTYPE_INVALID, a->u.i.value, out);
      if (a->u.i.dtype == HR_DTYPE_INVALID) return unimpl("integer attribute '%s' without a type", name);
      return vhlo_int(w, a->u.i.dtype, a->u.i.value, out);
    case HR_ATTR_FLOAT:
      if (a->u.f.dtype == HR_DTYPE_INVALID) return unimpl("float attribute '%s' without a type", name);
      return vhlo_float(w, a->u.f.dtype, a->u.f.value, out);
    case HR_ATTR_STRING: return vhlo_string(w, a->u.str.data, a->u.str.len, out);
    case HR_ATTR_SYMBOL:
      if (!IN_LIST(symbol_attrs, name)) return unimpl("symbol attribute '%s'", name);
      return vhlo_string(w, a->u.str.data, a->u.str.len, out);
    case HR_ATTR_TYPE: {
      uint32_t t;
      HR_TRY(value_type(w, &a->u.type, &t));
      return vhlo_type_attr(w, t, out);
    }
    case HR_ATTR_ARRAY:
      if (IN_LIST(symbol_attrs, name)) { /* called_computations: strings inside */
        uint32_t refs[64];
        int n = a->u.array.n;
        if (n > 64) return unimpl("'%s' of %d entries (at most 64)", name, n);
        for (int i = 0; i < n; i++) {
          const hr_attr *it = a->u.array.items[i];
          if (it->kind != HR_ATTR_SYMBOL) return unimpl("'%s' holding something other than symbols", name);
          HR_TRY(vhlo_string(w, it->u.str.data, it->u.str.len, &refs[i]));
        }
        return vhlo_list(w, 1, refs, n, out);
      }
      return aggregate(w, name, a, false, out);
    case HR_ATTR_DICT: return aggregate(w, name, a, false, out);
    case HR_ATTR_DENSE: return vhlo_dense(w, a, out);
    case HR_ATTR_ENUM: return vhlo_enum(w, a, out);
    case HR_ATTR_OPAQUE: return sdy_attr(w, a, out);
    case HR_ATTR_STRUCT:
      if (strcmp(a->u.strct.name, "stablehlo.output_operand_alias") == 0) return vhlo_alias(w, a, out);
      if (strcmp(a->u.strct.name, "stablehlo.result_accuracy") == 0) return vhlo_accuracy(w, a, out);
      return unimpl("attribute '%s' = #%s<...>", name, a->u.strct.name);
    case HR_ATTR_UNIT:
      if (IN_LIST(unit_attrs, name)) return vhlo_bool(w, true, out);
      return unimpl("unit attribute '%s'", name);
    default: return unimpl("attribute '%s' of kind %d", name, (int)a->kind);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* An op's inherent attributes                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* dot_general_v2's algorithm attributes: TypeV1(none) each when there is no algorithm. */
static const char *const algorithm_attrs[] = {
    "accumulation_type", "allow_imprecise_accumulation", "lhs_component_count", "lhs_precision_type",
    "num_primitive_operations", "rhs_component_count", "rhs_precision_type"};
/* Booleans StableHLO leaves out when false. */
static const char *const false_attrs[] = {"indices_are_sorted", "unique_indices", "has_side_effect", "is_stable",
                                          "use_global_device_ids", "has_dynamic_root"};
/* Lists StableHLO leaves out when empty. */
static const char *const empty_list_attrs[] = {"called_computations", "output_operand_aliases", "operand_layouts",
                                               "result_layouts", "layout"};
/* More booleans VHLO materializes as false (StableHLO's defaults). */
static const char *const more_false_attrs[] = {"lower", "is_host_transfer"};

/* The group of op `base` holding field `name`, or NULL. */
static const vhlo_attr_group *group_of(const char *base, const char *name, const hr_struct_field **field) {
  int n_groups;
  const vhlo_attr_group *groups = vhlo_attr_groups(&n_groups);
  for (int g = 0; g < n_groups; g++) {
    if (strcmp(groups[g].op, base) != 0) continue;
    const hr_struct_info *info = hr_struct_info_find(groups[g].strct);
    for (int k = 0; info && k < 9 && info->fields[k].name; k++)
      if (strcmp(info->fields[k].name, name) == 0) return (*field = &info->fields[k]), &groups[g];
  }
  return NULL;
}

/* A dimension-number field of the op's struct as IntegerV1 si64 or TensorV1 of si64. */
static hr_status group_field(wr *w, const hr_op *op, const vhlo_attr_group *g, const hr_struct_field *sf, uint32_t *out) {
  const hr_attr *s = hr_op_attr(op, g->attr);
  if (s && s->kind != HR_ATTR_STRUCT) return unimpl("%s that is not #%s<...>", g->attr, g->strct);
  const hr_attr *v = s ? hr_attr_field(s, sf->name) : NULL;
  if (!sf->is_list) {
    if (v && v->kind != HR_ATTR_INT) return unimpl("%s.%s that is not an integer", g->attr, sf->name);
    return vhlo_int(w, HR_I64, v ? v->u.i.value : 0, out);
  }
  int64_t items[MAX_LIST];
  int n = 0;
  HR_TRY(int_items(v, items, MAX_LIST, &n));
  return vhlo_i64_tensor(w, items, n, out);
}

/* channel_id / channel_type from the op's channel_handle (0 when absent). */
static hr_status channel_field(wr *w, const hr_op *op, const char *name, uint32_t *out) {
  const hr_attr *h = hr_op_attr(op, "channel_handle");
  const hr_attr *v = h ? hr_attr_field(h, strcmp(name, "channel_id") == 0 ? "handle" : "type") : NULL;
  if (v && v->kind != HR_ATTR_INT) return unimpl("channel_handle that is not #stablehlo.channel_handle<...>");
  return vhlo_int(w, HR_I64, v ? v->u.i.value : 0, out);
}

/* How many window dimensions the window attributes of op `base` have: the spatial dimensions of a
 * convolution, the rank of operand 0 of reduce_window and select_and_scatter; -1 for other ops. */
static int window_rank(const hr_op *op, const char *base) {
  if (strcmp(base, "convolution") == 0 || strcmp(base, "dynamic_conv") == 0) {
    const hr_attr *dn = hr_op_attr(op, "dimension_numbers");
    const hr_attr *sp = dn ? hr_attr_field(dn, "input_spatial_dimensions") : NULL;
    return sp && sp->kind == HR_ATTR_ARRAY ? sp->u.array.n : 0;
  }
  if ((strcmp(base, "reduce_window") == 0 || strcmp(base, "select_and_scatter") == 0) && op->n_operands > 0 &&
      op->operands[0]->type.kind == HR_TYPE_TENSOR)
    return op->operands[0]->type.shape.rank;
  return -1;
}

/* The defaults of window attributes: strides and dilations all 1, padding all 0 (tensor<Nx2>),
 * no window reversal. */
static hr_status window_default(wr *w, int n, const char *name, uint32_t *out) {
  int64_t v[2 * HR_MAX_RANK];
  if (n > HR_MAX_RANK) return unimpl("a window of %d dimensions", n);
  bool padding = strcmp(name, "padding") == 0;
  for (int i = 0; i < 2 * n; i++) v[i] = padding ? 0 : 1;
  if (strcmp(name, "window_reversal") == 0) {
    uint8_t bytes[HR_MAX_RANK + 1] = {0}, blob[HR_MAX_RANK + 1];
    size_t len = 0;
    if (n) HR_TRY(pack_i1(bytes, n, false, blob, &len));
    int64_t dims[1] = {n};
    hr_type t = hr_tensor_type(HR_I1, 1, dims);
    return vhlo_tensor(w, &t, blob, len, out);
  }
  if (!padding) return vhlo_i64_tensor(w, v, n, out);
  int64_t dims[2] = {n, 2};
  hr_type t = hr_tensor_type(HR_I64, 2, dims);
  return vhlo_i64_tensor_of(w, &t, v, 2 * n, out);
}

/* Window attributes with a default (window_default). */
static const char *const window_attrs[] = {"window_strides", "lhs_dilation", "rhs_dilation", "padding",
                                           "window_reversal", "base_dilations", "window_dilations"};

/* The default VHLO value of inherent attribute `name`, absent from the StableHLO op: what
 * StableHLO's legalization to VHLO materializes and VhloLegalizeToStablehlo (and the reader)
 * drops again. */
static hr_status default_attr(wr *w, const hr_op *op, const char *base, const char *vhlo_name, const char *name,
                              uint32_t *out) {
  int rank = window_rank(op, base);
  if (rank >= 0 && IN_LIST(window_attrs, name)) return window_default(w, rank, name, out);
  if (IN_LIST(false_attrs, name) || IN_LIST(more_false_attrs, name)) return vhlo_bool(w, false, out);
  if (strcmp(name, "precision_config") == 0) { /* one DEFAULT per operand of the product */
    uint32_t dflt, refs[2];
    HR_TRY(code_varint_attr(w, D_VHLO, 11, 0, &dflt));
    refs[0] = refs[1] = dflt;
    return vhlo_list(w, 1, refs, 2, out);
  }
  if (strcmp(name, "feature_group_count") == 0 || strcmp(name, "batch_group_count") == 0) return vhlo_int(w, HR_I64, 1, out);
  if (strcmp(name, "infeed_config") == 0 || strcmp(name, "outfeed_config") == 0) return vhlo_string(w, "", 0, out);
  if (strcmp(name, "composite_attributes") == 0) return vhlo_list(w, 6, NULL, 0, out);
  if (strcmp(name, "version") == 0 && strcmp(base, "composite") == 0) return vhlo_int(w, HR_I64, 0, out);
  if (strcmp(name, "dimension") == 0 && strcmp(base, "sort") == 0) return vhlo_int(w, HR_I64, -1, out);
  if (IN_LIST(empty_list_attrs, name)) return vhlo_list(w, 1, NULL, 0, out);
  if (IN_LIST(algorithm_attrs, name)) {
    uint32_t none;
    HR_TRY(code_type(w, 33, &none));
    return vhlo_type_attr(w, none, out);
  }
  if (strcmp(name, "compare_type") == 0) return code_varint_attr(w, D_VHLO, 4, 0, out);
  if (strcmp(name, "backend_config") == 0) return vhlo_string(w, "", 0, out);
  if (strcmp(name, "api_version") == 0) return code_varint_attr(w, D_VHLO, 5, 1, out);
  if (strcmp(name, "result_accuracy") == 0) return vhlo_accuracy(w, NULL, out);
  if (strcmp(name, "known_expanding_dimensions") == 0 || strcmp(name, "known_nonexpanding_dimensions") == 0)
    return vhlo_i64_tensor(w, NULL, 0, out);
  return unimpl("%s: attribute '%s' is absent and its default is not written yet", vhlo_name, name);
}

/* The VHLO value of inherent attribute `name` of op `op` (StableHLO op base name `base`); marks
 * the StableHLO attributes it came from in `used`. */
static hr_status inherent_attr(wr *w, const hr_op *op, const char *base, const char *vhlo_name, const char *name,
                               bool *used, uint32_t *out) {
  const hr_struct_field *sf = NULL;
  const vhlo_attr_group *g = group_of(base, name, &sf);
  if (g) {
    for (int i = 0; i < op->n_attrs; i++)
      if (strcmp(op->attrs[i].name, g->attr) == 0) used[i] = true;
    return group_field(w, op, g, sf, out);
  }
  if (strcmp(name, "channel_id") == 0 || strcmp(name, "channel_type") == 0) {
    for (int i = 0; i < op->n_attrs; i++)
      if (strcmp(op->attrs[i].name, "channel_handle") == 0) used[i] = true;
    return channel_field(w, op, name, out);
  }
  for (int i = 0; i < op->n_attrs; i++) {
    if (strcmp(op->attrs[i].name, name) != 0) continue;
    used[i] = true;
    return vhlo_attr(w, name, op->attrs[i].value, out);
  }
  return default_attr(w, op, base, vhlo_name, name, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* Ops                                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* The bytecode op name of an IR op and its properties entry: the VHLO op at the version written
 * ("vhlo.dot_general_v2"), or a Shardy op as it is ("sdy.manual_computation": Shardy ops are not
 * versioned; their attributes are written in MLIR's text, see sdy_attr). */
static hr_status vhlo_op_name(const wr *w, const hr_op *op, char *name, size_t cap, const char **base,
                              const vhlo_prop_op **spec) {
  const char *full = hr_opcode_name(op->code);
  if (strncmp(full, "sdy.", 4) == 0) {
    *spec = vhlo_props_find(full);
    if (!*spec) return unimpl("Shardy op %s", full);
    snprintf(name, cap, "%s", full);
    *base = full + 4;
    return NULL;
  }
  if (op->code == HR_OP_FUNC_RETURN || op->code == HR_OP_RETURN) full = "stablehlo.return";
  else if (op->code == HR_OP_FUNC_CALL) full = "stablehlo.call";
  if (strncmp(full, "stablehlo.", 10) != 0) return unimpl("op %s has no VHLO form", full);
  *base = full + 10;
  for (int v = 1; v <= 9; v++) {
    snprintf(name, cap, "vhlo.%s_v%d", *base, v);
    const vhlo_prop_op *p = vhlo_props_find(name);
    if (p && p->since <= w->version && w->version <= p->until) return (*spec = p), NULL;
  }
  return unimpl("op %s has no VHLO op at VHLO %d.%d", full, w->version / 100, w->version % 100);
}

/* The properties record of an op: its inherent attributes' indices in record order. */
static hr_status props_record(wr *w, const hr_op *op, const char *base, const vhlo_prop_op *spec, bool *used,
                              uint32_t *out) {
  if (hr_op_attr(op, "algorithm")) return unimpl("%s: dot algorithms are not written yet", spec->op);
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  for (int k = 0; k < spec->n; k++) {
    uint32_t idx;
    hr_status s = inherent_attr(w, op, base, spec->op, spec->attrs[k], used, &idx);
    if (s) {
      hr_strbuf_free(&e);
      return s;
    }
    put_varint(&e, idx);
  }
  return finish(&w->props, 0, &e, out);
}

/* Whether `name` is an inherent attribute of another version of op `vhlo_name` ("vhlo.x_vN"): one
 * StableHLO has and the version written lacks (exponential's result_accuracy before 1.9), which cannot be
 * carried along as a discardable attribute. */
static bool inherent_elsewhere(const char *vhlo_name, const char *name) {
  const char *v = strrchr(vhlo_name, 'v');
  char other[96];
  if (!v || v == vhlo_name || v[-1] != '_') return false;
  for (int k = 1; k <= 9; k++) {
    snprintf(other, sizeof other, "%.*s%d", (int)(v + 1 - vhlo_name), vhlo_name, k);
    const vhlo_prop_op *p = vhlo_props_find(other);
    for (int i = 0; p && i < p->n; i++)
      if (strcmp(p->attrs[i], name) == 0) return true;
  }
  return false;
}

/* The op's attribute dictionary (builtin DictionaryAttr, builtin StringAttr keys, VHLO values) of
 * the attributes `used` does not mark: the discardable ones (mhlo.sharding, xla_shape, ...), not
 * one another version of the op has as inherent (inherent_elsewhere). -1: none. */
static hr_status discardable_attrs(wr *w, const char *vhlo_name, const hr_named_attr *attrs, int n, const bool *used,
                                   int64_t *out) {
  uint32_t refs[128];
  int k = 0;
  *out = -1;
  for (int i = 0; i < n; i++) {
    if (used && used[i]) continue;
    if (inherent_elsewhere(vhlo_name, attrs[i].name))
      return unimpl("%s has no attribute '%s' at VHLO %d.%d", vhlo_name, attrs[i].name, w->version / 100,
                    w->version % 100);
    if (k + 2 > 128) return unimpl("%s: more than 64 discardable attributes", vhlo_name);
    uint32_t key;
    HR_TRY(string_ref(w, attrs[i].name, strlen(attrs[i].name), &key));
    HR_TRY(code_varint_attr(w, D_BUILTIN, 2, key, &refs[k]));
    HR_TRY(vhlo_attr(w, attrs[i].name, attrs[i].value, &refs[k + 1]));
    k += 2;
  }
  if (!k) return NULL;
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 1);
  put_varint(&e, (uint64_t)(k / 2));
  for (int i = 0; i < k; i++) put_varint(&e, refs[i]);
  uint32_t idx;
  HR_TRY(finish(&w->attrs, D_BUILTIN, &e, &idx));
  *out = idx;
  return NULL;
}

/* `s` (an error about op `op`'s name or attributes) prefixed with the op's position and name as
 * hr_op_error gives them ("file:line:col: stablehlo.xyz: bytecode writer: ..."); NULL stays NULL. */
static hr_status at_op(const hr_op *op, hr_status s) {
  if (!s || hr_status_code(s) == HR_OUT_OF_MEMORY) return s;
  hr_status r = hr_op_error(op, hr_status_code(s), "%s", hr_status_message(s));
  hr_status_free(s);
  return r;
}

/* Op encoding mask bits. */
enum { M_ATTRS = 0x01, M_RESULTS = 0x02, M_OPERANDS = 0x04, M_REGIONS = 0x10, M_PROPS = 0x40 };

static hr_status write_region(wr *w, const hr_block *b, hr_strbuf *ir, unsigned depth);

/* The slot of an operand. */
static hr_status operand_slot(wr *w, const hr_value *v, uint32_t *out) {
  if (v->id >= w->n_slot_ids || w->slots[v->id] == UINT32_MAX) return unimpl("an operand outside its function");
  *out = w->slots[v->id];
  return NULL;
}

/* Whether value `v` is defined inside a region of op `op`. */
static bool defined_within(const hr_value *v, const hr_op *op) {
  const hr_block *b = v->def ? v->def->parent : v->owner;
  for (int depth = 0; b && depth <= 256; depth++) {
    if (b->parent_op == op) return true;
    b = b->parent_op ? b->parent_op->parent : NULL;
  }
  return false;
}

/* Whether an operand anywhere in `regions` (nested ones included) is a value defined outside op
 * `op`. */
static bool uses_values_from_above(const hr_op *op, const hr_block *regions, int n) {
  for (int r = 0; r < n; r++) {
    const hr_block *b = &regions[r];
    for (int i = 0; i < b->n_ops; i++) {
      const hr_op *o = b->ops[i];
      for (int k = 0; k < o->n_operands; k++)
        if (!defined_within(o->operands[k], op)) return true;
      if (uses_values_from_above(op, o->regions, o->n_regions)) return true;
    }
  }
  return false;
}

/* An op's regions: (count << 1 | isolated), then the regions, inline or, for an op whose regions
 * use no value from above, as MLIR's writer marks isolated (func_v1 always, reduce and while bodies
 * mostly; if and case branches rarely), in a nested IR section starting a new value scope. */
static hr_status write_regions(wr *w, const hr_block *regions, int n, bool isolated, hr_strbuf *ir, unsigned depth) {
  put_varint(ir, ((uint64_t)n << 1) | (isolated ? 1 : 0));
  if (!isolated) {
    for (int r = 0; r < n; r++) HR_TRY(write_region(w, &regions[r], ir, depth + 1));
    return NULL;
  }
  uint64_t saved = w->scope_top;
  hr_strbuf nested;
  hr_strbuf_init(&nested, w->a);
  w->scope_top = 0;
  hr_status s = NULL;
  for (int r = 0; r < n && !s; r++) s = write_region(w, &regions[r], &nested, depth + 1);
  w->scope_top = saved;
  if (!s) s = hr_strbuf_status(&nested);
  if (!s) put_section(ir, 4, &nested);
  hr_strbuf_free(&nested);
  return s;
}

/* One op: name, mask, location, [dictionary], [properties], [results], [operands], [regions]; its
 * results take the next slots of the region (`*next`). */
static hr_status write_op(wr *w, const hr_op *op, hr_strbuf *ir, uint64_t *next, unsigned depth) {
  char name[96];
  const char *base = NULL;
  const vhlo_prop_op *spec = NULL;
  HR_TRY(at_op(op, vhlo_op_name(w, op, name, sizeof name, &base, &spec)));
  uint32_t opname, props = 0;
  bool sdy = strncmp(name, "sdy.", 4) == 0;
  HR_TRY(opname_ref(w, sdy ? D_SDY : D_VHLO, strchr(name, '.') + 1, &opname));
  w->uses_sdy |= sdy;
  bool used[128] = {false};
  if (op->n_attrs > 128) return unimpl("%s with %d attributes", name, op->n_attrs);
  if (spec->n) HR_TRY(at_op(op, props_record(w, op, base, spec, used, &props)));
  int64_t dict;
  HR_TRY(at_op(op, discardable_attrs(w, name, op->attrs, op->n_attrs, used, &dict)));
  uint32_t *types = w->a->alloc(w->a->ctx, ((size_t)op->n_results + 1) * sizeof *types, 16);
  if (!types) return oom();
  hr_status s = NULL;
  for (int i = 0; i < op->n_results && !s; i++) s = value_type(w, &op->results[i].type, &types[i]);
  uint32_t slot = 0;
  unsigned mask = (dict >= 0 ? M_ATTRS : 0) | (spec->n ? M_PROPS : 0) | (op->n_results ? M_RESULTS : 0) |
                  (op->n_operands ? M_OPERANDS : 0) | (op->n_regions ? M_REGIONS : 0);
  put_varint(ir, opname);
  hr_strbuf_putc(ir, (char)mask);
  put_varint(ir, w->unknown_loc);
  if (dict >= 0) put_varint(ir, (uint64_t)dict);
  if (spec->n) put_varint(ir, props);
  if (op->n_results) {
    put_varint(ir, (uint64_t)op->n_results);
    for (int i = 0; i < op->n_results; i++) put_varint(ir, types[i]);
  }
  w->a->free(w->a->ctx, types);
  if (s) return s;
  if (op->n_operands) {
    put_varint(ir, (uint64_t)op->n_operands);
    for (int i = 0; i < op->n_operands; i++) {
      HR_TRY(operand_slot(w, op->operands[i], &slot));
      put_varint(ir, slot);
    }
  }
  for (int i = 0; i < op->n_results; i++) {
    if (op->results[i].id >= w->n_slot_ids) return unimpl("a value id outside its function");
    w->slots[op->results[i].id] = (uint32_t)(*next)++;
  }
  if (op->n_regions) HR_TRY(write_regions(w, op->regions, op->n_regions, !uses_values_from_above(op, op->regions, op->n_regions), ir, depth));
  return NULL;
}

/* A region of one block: numBlocks 1, its number of values, the block (arguments, ops); its
 * values reserve slots at the top of the scope while it is written. */
static hr_status write_region(wr *w, const hr_block *b, hr_strbuf *ir, unsigned depth) {
  if (depth > 256) return unimpl("regions nested more than 256 deep");
  if (!b->parent_op && b->func && b->func->is_declaration) { /* a declaration's body: no block */
    put_varint(ir, 0);
    return NULL;
  }
  uint64_t n_values = (uint64_t)b->n_args;
  for (int i = 0; i < b->n_ops; i++) n_values += (uint64_t)b->ops[i]->n_results;
  uint64_t base = w->scope_top, next = base;
  w->scope_top += n_values;
  put_varint(ir, 1);
  put_varint(ir, n_values);
  put_varint(ir, ((uint64_t)b->n_ops << 1) | (b->n_args ? 1 : 0));
  if (b->n_args) {
    put_varint(ir, (uint64_t)b->n_args);
    for (int i = 0; i < b->n_args; i++) {
      uint32_t t;
      HR_TRY(value_type(w, &b->args[i].type, &t));
      put_varint(ir, (uint64_t)t << 1);
      if (b->args[i].id >= w->n_slot_ids) return unimpl("a value id outside its function");
      w->slots[b->args[i].id] = (uint32_t)next++;
    }
    hr_strbuf_putc(ir, 0); /* no use-list orders */
  }
  for (int i = 0; i < b->n_ops; i++) HR_TRY(write_op(w, b->ops[i], ir, &next, depth));
  w->scope_top = base;
  return NULL;
}

/* Per-argument (or per-result) dictionaries as an ArrayV1 of DictionaryV1 (empty ones for NULL). */
static hr_status slot_dicts(wr *w, hr_attr *const *dicts, int n, uint32_t *out) {
  if (!dicts) return vhlo_list(w, 1, NULL, 0, out);
  uint32_t *refs = w->a->alloc(w->a->ctx, ((size_t)n + 1) * sizeof *refs, 16);
  if (!refs) return oom();
  hr_status s = NULL;
  for (int i = 0; i < n && !s; i++) {
    if (dicts[i] && dicts[i]->kind != HR_ATTR_DICT) s = unimpl("argument attributes that are not a dictionary");
    else if (dicts[i]) s = aggregate(w, "argument or result attributes", dicts[i], false, &refs[i]);
    else s = vhlo_list(w, 6, NULL, 0, &refs[i]);
  }
  if (!s) s = vhlo_list(w, 1, refs, n, out);
  w->a->free(w->a->ctx, refs);
  return s;
}

/* A function as vhlo.func_v1: properties arg_attrs, function_type, res_attrs, sym_name,
 * sym_visibility; its body isolated from above, as StableHLO's writer marks it. */
static hr_status write_func(wr *w, const hr_func *f, hr_strbuf *ir) {
  if (f->attrs && f->attrs->kind == HR_ATTR_DICT && f->attrs->u.dict.n)
    return unimpl("@%s: function attributes (%s, ...) are not written yet", f->name, f->attrs->u.dict.entries[0].name);
  uint32_t refs[5], ft, opname, props;
  HR_TRY(slot_dicts(w, f->arg_attrs, f->n_args, &refs[0]));
  HR_TRY(function_type(w, f, &ft));
  HR_TRY(vhlo_type_attr(w, ft, &refs[1]));
  HR_TRY(slot_dicts(w, f->result_attrs, f->n_results, &refs[2]));
  HR_TRY(vhlo_string(w, f->name, strlen(f->name), &refs[3]));
  HR_TRY(vhlo_string(w, f->is_private ? "private" : "", f->is_private ? 7 : 0, &refs[4]));
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  for (int i = 0; i < 5; i++) put_varint(&e, refs[i]);
  HR_TRY(finish(&w->props, 0, &e, &props));
  HR_TRY(opname_ref(w, D_VHLO, "func_v1", &opname));
  w->n_slot_ids = f->n_values;
  w->slots = w->a->alloc(w->a->ctx, ((size_t)f->n_values + 1) * sizeof *w->slots, 16);
  if (!w->slots) return oom();
  memset(w->slots, 0xFF, ((size_t)f->n_values + 1) * sizeof *w->slots);
  put_varint(ir, opname);
  hr_strbuf_putc(ir, (char)(M_PROPS | M_REGIONS));
  put_varint(ir, w->unknown_loc);
  put_varint(ir, props);
  hr_status s = write_regions(w, &f->body, 1, true, ir, 0);
  w->a->free(w->a->ctx, w->slots);
  w->slots = NULL;
  w->n_slot_ids = 0;
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* The module                                                                                      */
/* ---------------------------------------------------------------------------------------------- */


/* A module attribute in the builtin dialect's encoding: IntegerAttr, BoolAttr (i1), StringAttr,
 * ArrayAttr, DictionaryAttr. */
static hr_status builtin_attr(wr *w, const char *name, const hr_attr *a, uint32_t *out) {
  hr_strbuf e;
  uint32_t t;
  switch (a->kind) {
    case HR_ATTR_STRING: {
      uint32_t s;
      HR_TRY(string_ref(w, a->u.str.data, a->u.str.len, &s));
      return code_varint_attr(w, D_BUILTIN, 2, s, out);
    }
    case HR_ATTR_BOOL:
    case HR_ATTR_INT: {
      bool b = a->kind == HR_ATTR_BOOL;
      int bits = b ? 1 : int_bits(a->u.i.dtype);
      if (!b && (a->u.i.is_index || !bits)) return unimpl("module attribute '%s': an integer without a width", name);
      HR_TRY(builtin_int_type(w, bits, !b && hr_dtype_is_unsigned_int(a->u.i.dtype), &t));
      hr_strbuf_init(&e, w->a);
      put_varint(&e, 8);
      put_varint(&e, t);
      put_apint(&e, bits, b ? a->u.b : a->u.i.value);
      return finish(&w->attrs, D_BUILTIN, &e, out);
    }
    case HR_ATTR_ARRAY:
    case HR_ATTR_DICT: return aggregate(w, name, a, true, out);
    default: return unimpl("module attribute '%s' of kind %d", name, (int)a->kind);
  }
}


/* A mesh in Shardy's own encoding, as StableHLO's writer gives it: MeshAttr (code 2: its axes,
 * no device ids: they are in order), each axis a MeshAxisAttr (code 1: name string, size). */
static hr_status sdy_mesh_attr(wr *w, const hr_attr *a, uint32_t *out) {
  hr_sdy_mesh mesh;
  HR_TRY(hr_sdy_read_mesh(a, &mesh));
  uint32_t axes[HR_LIMIT_SDY_AXES];
  for (int i = 0; i < mesh.n_axes; i++) {
    uint32_t name;
    HR_TRY(string_ref(w, mesh.names[i].text, mesh.names[i].len, &name));
    hr_strbuf e;
    hr_strbuf_init(&e, w->a);
    put_varint(&e, 1);
    put_varint(&e, name);
    put_svarint(&e, mesh.sizes[i]);
    HR_TRY(finish(&w->attrs, D_SDY, &e, &axes[i]));
  }
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 2);
  put_varint(&e, (uint64_t)mesh.n_axes);
  for (int i = 0; i < mesh.n_axes; i++) put_varint(&e, axes[i]);
  put_varint(&e, 0);
  w->uses_sdy = true;
  return finish(&w->attrs, D_SDY, &e, out);
}

/* sdy.mesh @name = <...>: properties mesh and sym_name (Shardy's ODS order, by name). */
static hr_status write_mesh(wr *w, const hr_mesh *mesh, hr_strbuf *ir) {
  uint32_t opname, attr, name_str, name_attr, props;
  HR_TRY(opname_ref(w, D_SDY, "mesh", &opname));
  HR_TRY(sdy_mesh_attr(w, mesh->mesh, &attr));
  HR_TRY(string_ref(w, mesh->name, strlen(mesh->name), &name_str));
  HR_TRY(code_varint_attr(w, D_BUILTIN, 2, name_str, &name_attr));
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, attr);
  put_varint(&e, name_attr);
  HR_TRY(finish(&w->props, 0, &e, &props));
  put_varint(ir, opname);
  hr_strbuf_putc(ir, (char)M_PROPS);
  put_varint(ir, w->unknown_loc);
  put_varint(ir, props);
  return NULL;
}

/* builtin.module: properties (sym_name, sym_visibility, both optional), its attribute dictionary,
 * one isolated region whose body (the functions) is a nested IR section. */
static hr_status write_module_op(wr *w, const hr_module *m, hr_strbuf *ir) {
  uint32_t opname = 0, props = 0, name_ref = 0, dict = 0;
  HR_TRY(opname_ref(w, D_BUILTIN, "module", &opname));
  if (m->name) {
    uint32_t s;
    HR_TRY(string_ref(w, m->name, strlen(m->name), &s));
    HR_TRY(code_varint_attr(w, D_BUILTIN, 2, s, &name_ref));
  }
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, m->name ? ((uint64_t)name_ref << 1) | 1 : 0);
  put_varint(&e, 0);
  HR_TRY(finish(&w->props, 0, &e, &props));
  int n_attrs = m->attrs && m->attrs->kind == HR_ATTR_DICT ? m->attrs->u.dict.n : 0;
  if (n_attrs) {
    uint32_t *refs = w->a->alloc(w->a->ctx, (size_t)n_attrs * 2 * sizeof *refs, 16);
    if (!refs) return oom();
    hr_status s = NULL;
    for (int i = 0; i < n_attrs && !s; i++) {
      const hr_named_attr *na = &m->attrs->u.dict.entries[i];
      uint32_t key;
      s = string_ref(w, na->name, strlen(na->name), &key);
      if (!s) s = code_varint_attr(w, D_BUILTIN, 2, key, &refs[2 * i]);
      if (!s) s = builtin_attr(w, na->name, na->value, &refs[2 * i + 1]);
    }
    if (!s) {
      hr_strbuf_init(&e, w->a);
      put_varint(&e, 1);
      put_varint(&e, (uint64_t)n_attrs);
      for (int i = 0; i < 2 * n_attrs; i++) put_varint(&e, refs[i]);
      s = finish(&w->attrs, D_BUILTIN, &e, &dict);
    }
    w->a->free(w->a->ctx, refs);
    HR_TRY(s);
  }
  hr_strbuf body;
  hr_strbuf_init(&body, w->a);
  put_varint(&body, 1);
  put_varint(&body, 0);
  put_varint(&body, (uint64_t)(m->n_meshes + m->n_funcs) << 1);
  hr_status s = NULL;
  for (int i = 0; i < m->n_meshes && !s; i++) s = write_mesh(w, &m->meshes[i], &body);
  for (int i = 0; i < m->n_funcs && !s; i++) s = write_func(w, m->funcs[i], &body);
  if (!s) s = hr_strbuf_status(&body);
  if (!s) {
    put_varint(ir, opname);
    hr_strbuf_putc(ir, (char)(M_PROPS | M_REGIONS | (n_attrs ? M_ATTRS : 0)));
    put_varint(ir, w->unknown_loc);
    if (n_attrs) put_varint(ir, dict);
    put_varint(ir, props);
    put_varint(ir, (1 << 1) | 1); /* one region, isolated from above */
    put_section(ir, 4, &body);
  }
  hr_strbuf_free(&body);
  return s;
}

/* The dialect section: builtin, vhlo and (when used) sdy, without versions; the op-name count, the
 * op names by dialect. */
static hr_status dialect_section(wr *w, hr_strbuf *sec) {
  static const char *const dialects[3] = {"builtin", "vhlo", "sdy"};
  int n = w->uses_sdy ? 3 : 2;
  put_varint(sec, (uint64_t)n);
  for (int i = 0; i < n; i++) {
    uint32_t name;
    HR_TRY(string_ref(w, dialects[i], strlen(dialects[i]), &name));
    put_varint(sec, (uint64_t)name << 1);
  }
  put_varint(sec, w->n_opnames);
  for (uint32_t i = 0; i < w->n_opnames;) {
    uint32_t j = i;
    while (j < w->n_opnames && w->opnames[j].dialect == w->opnames[i].dialect) j++;
    put_varint(sec, w->opnames[i].dialect);
    put_varint(sec, j - i);
    for (uint32_t k = i; k < j; k++) put_varint(sec, ((uint64_t)w->opnames[k].str << 1) | 1); /* registered */
    i = j;
  }
  return NULL;
}

/* One table's entries in the offset section: runs of one dialect as (dialect, count, sizes). */
static void entry_offsets(const wr_table *t, hr_strbuf *off, hr_strbuf *data) {
  for (uint32_t i = 0; i < t->n;) {
    uint32_t j = i;
    while (j < t->n && t->items[j].dialect == t->items[i].dialect) j++;
    put_varint(off, t->items[i].dialect);
    put_varint(off, j - i);
    for (uint32_t k = i; k < j; k++) {
      put_varint(off, ((uint64_t)t->items[k].len << 1) | !t->items[k].text); /* 1: custom encoding */
      hr_strbuf_append(data, t->pool.data + t->items[k].off, t->items[k].len);
    }
    i = j;
  }
}

/* The string section: count, lengths (with the NUL) last string first, the strings with NULs. */
static void string_section(const wr *w, hr_strbuf *sec) {
  const wr_table *t = &w->strings;
  put_varint(sec, t->n);
  for (uint32_t k = t->n; k-- > 0;) put_varint(sec, t->items[k].len + 1);
  for (uint32_t k = 0; k < t->n; k++) {
    if (t->items[k].len) hr_strbuf_append(sec, t->pool.data + t->items[k].off, t->items[k].len);
    hr_strbuf_putc(sec, 0);
  }
}

/* The properties section: count, then each record as a size and its bytes. */
static void props_section(const wr *w, hr_strbuf *sec) {
  const wr_table *t = &w->props;
  put_varint(sec, t->n);
  for (uint32_t k = 0; k < t->n; k++) {
    put_varint(sec, t->items[k].len);
    if (t->items[k].len) hr_strbuf_append(sec, t->pool.data + t->items[k].off, t->items[k].len);
  }
}

/* Builds every section of the file and appends the file to `out`. */
static hr_status write_file(wr *w, const hr_module *m, hr_strbuf *out) {
  hr_strbuf ir, dial, off, data, res, res_off, str, props;
  hr_strbuf *bufs[] = {&ir, &dial, &off, &data, &res, &res_off, &str, &props};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) hr_strbuf_init(bufs[i], w->a);
  hr_strbuf e;
  hr_strbuf_init(&e, w->a);
  put_varint(&e, 15); /* UnknownLoc */
  hr_status s = finish(&w->attrs, D_BUILTIN, &e, &w->unknown_loc);
  if (!s) {
    put_varint(&ir, 1 << 1); /* the top block: one op, no arguments */
    s = write_module_op(w, m, &ir);
  }
  if (!s) s = dialect_section(w, &dial);
  if (!s) {
    put_varint(&off, w->attrs.n);
    put_varint(&off, w->types.n);
    entry_offsets(&w->attrs, &off, &data);
    entry_offsets(&w->types, &off, &data);
    put_varint(&res_off, 0); /* no external resource groups, no dialect resources */
    string_section(w, &str);
    props_section(w, &props);
    for (size_t i = 0; i < sizeof bufs / sizeof *bufs && !s; i++) s = hr_strbuf_status(bufs[i]);
  }
  if (!s) {
    hr_strbuf_append(out, "ML\xef" "R", 4);
    put_varint(out, 6);
    hr_strbuf_append(out, w->producer, strlen(w->producer) + 1); /* with its NUL */
    put_section(out, 1, &dial);
    put_section(out, 2, &data);
    put_section(out, 3, &off);
    put_section(out, 4, &ir);
    put_section(out, 5, &res);
    put_section(out, 6, &res_off);
    put_section(out, 0, &str);
    put_section(out, 8, &props);
    s = hr_strbuf_status(out);
  }
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) hr_strbuf_free(bufs[i]);
  return s;
}

hr_status hr_bc_parse_version(const char *text, uint16_t *out) {
  unsigned major, minor, patch = 0;
  char end;
  int n = sscanf(text, "%u.%u%c", &major, &minor, &end);
  if (n == 3 && end == '.') n = sscanf(text, "%u.%u.%u%c", &major, &minor, &patch, &end) == 3 ? 2 : 0;
  if (n != 2 || major > 9 || minor > 99 || patch > 99)
    return hr_error(HR_INVALID_ARGUMENT, "'%s' is not a StableHLO version (MAJOR.MINOR or MAJOR.MINOR.PATCH)", text);
  uint16_t v = VHLO_PROPS_VERSION(major, minor);
  if (v < HR_BC_VERSION_MIN || v > HR_BC_VERSION_MAX)
    return hr_error(HR_UNIMPLEMENTED, "StableHLO %u.%u: portable artifacts are written for versions %d.%d to %d.%d",
                    major, minor, HR_BC_VERSION_MIN / 100, HR_BC_VERSION_MIN % 100, HR_BC_VERSION_MAX / 100,
                    HR_BC_VERSION_MAX % 100);
  *out = v;
  return NULL;
}

hr_status hr_bc_write_module(const hr_module *m, uint16_t version, hr_strbuf *out) {
  if (!m || !out) return hr_error(HR_INVALID_ARGUMENT, "hr_bc_write_module: `m` or `out` is NULL");
  if (version < HR_BC_VERSION_MIN || version > HR_BC_VERSION_MAX)
    return hr_error(HR_INVALID_ARGUMENT, "hr_bc_write_module: version %u is outside %d..%d", version,
                    HR_BC_VERSION_MIN, HR_BC_VERSION_MAX);
  const hr_allocator *a = hr_default_allocator();
  wr *w = a->alloc(a->ctx, sizeof *w, _Alignof(wr));
  if (!w) return oom();
  memset(w, 0, sizeof *w);
  w->a = a;
  w->version = version;
  snprintf(w->producer, sizeof w->producer, "StableHLO_v%d.%d.0", version / 100, version % 100);
  wr_table *tables[] = {&w->strings, &w->attrs, &w->types, &w->props};
  for (int i = 0; i < 4; i++) {
    tables[i]->a = w->a;
    hr_strbuf_init(&tables[i]->pool, w->a);
  }
  hr_status s = write_file(w, m, out);
  for (int i = 0; i < 4; i++) table_free(tables[i]);
  if (w->slots) w->a->free(w->a->ctx, w->slots);
  w->a->free(w->a->ctx, w);
  return s;
}

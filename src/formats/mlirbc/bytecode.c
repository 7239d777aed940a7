/* The MLIR bytecode container (bytecode.h): the cursor primitives, the sections, the tables they
 * hold (strings, dialects and op names, attribute/type entries, properties, resources) and the IR
 * section with its values numbered file-wide. The byte layout is MLIR's (mlir/docs/BytecodeFormat.md,
 * versions 0 to 6); notes on it are in ../shared/research/formats.md §1.
 *
 * Hostile input: every count read is checked against the bytes that must follow it before
 * anything is allocated for it; in the IR section, where nested blocks and regions each claim
 * room inside the same bytes, a budget of the section's length is charged the least encoded size
 * of every op, block, region, value and operand claimed, so the arena stays a small multiple of
 * the file whatever the counts say. Nesting is bounded by HR_LIMIT_BC_NESTING_DEPTH. */
#include "formats/mlirbc/bytecode.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/limits.h"

/* ---------------------------------------------------------------------------------------------- */
/* Cursor                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

hr_bc_cursor hr_bc_cursor_at(const char *filename, const uint8_t *base, const uint8_t *begin, const uint8_t *end) {
  return (hr_bc_cursor){.p = begin, .end = end, .base = base, .filename = filename ? filename : "<bytecode>"};
}

/* The bytes left to read. */
static size_t remaining(const hr_bc_cursor *c) { return (size_t)(c->end - c->p); }

/* The cursor's position as a file offset. */
static size_t offset_of(const hr_bc_cursor *c) { return (size_t)(c->p - c->base); }

/* An error with `code` at the cursor's position: "FILE: offset N: message". */
static hr_status fail_v(const hr_bc_cursor *c, hr_code code, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static hr_status fail_v(const hr_bc_cursor *c, hr_code code, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  return hr_error(code, "%s: offset %zu: %s", c->filename, offset_of(c), msg);
}

/* fail_v with a variable argument list. */
static hr_status fail(const hr_bc_cursor *c, hr_code code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static hr_status fail(const hr_bc_cursor *c, hr_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hr_status s = fail_v(c, code, fmt, ap);
  va_end(ap);
  return s;
}

hr_status hr_bc_error(const hr_bc_cursor *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hr_status s = fail_v(c, HR_INVALID_ARGUMENT, fmt, ap);
  va_end(ap);
  return s;
}

bool hr_bc_at_end(const hr_bc_cursor *c) { return c->p >= c->end; }

hr_status hr_bc_byte(hr_bc_cursor *c, uint8_t *out) {
  if (hr_bc_at_end(c)) return hr_bc_error(c, "expected a byte, found the end of the data");
  *out = *c->p++;
  return NULL;
}

/* The first byte's trailing zeros count the bytes after it (0 to 7; a zero byte: 8, the full
 * 64-bit value follows); the value is the little-endian whole shifted right by that count + 1. */
hr_status hr_bc_varint(hr_bc_cursor *c, uint64_t *out) {
  if (hr_bc_at_end(c)) return hr_bc_error(c, "expected a varint, found the end of the data");
  uint8_t first = c->p[0];
  if (first & 1) {
    *out = first >> 1;
    c->p++;
    return NULL;
  }
  unsigned extra = first ? (unsigned)__builtin_ctz(first) : 8;
  if (remaining(c) < extra + 1)
    return hr_bc_error(c, "a %u-byte varint runs past the end of the data (%zu bytes left)", extra + 1, remaining(c));
  uint64_t v = 0;
  if (extra == 8) {
    for (unsigned i = 0; i < 8; i++) v |= (uint64_t)c->p[1 + i] << (8 * i);
  } else {
    for (unsigned i = 0; i <= extra; i++) v |= (uint64_t)c->p[i] << (8 * i);
    v >>= extra + 1;
  }
  c->p += extra + 1;
  *out = v;
  return NULL;
}

hr_status hr_bc_svarint(hr_bc_cursor *c, int64_t *out) {
  uint64_t u = 0;
  HR_TRY(hr_bc_varint(c, &u));
  uint64_t v = (u >> 1) ^ (0 - (u & 1));
  *out = v <= INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
  return NULL;
}

hr_status hr_bc_index(hr_bc_cursor *c, uint64_t limit, const char *what, uint32_t *out) {
  const uint8_t *at = c->p;
  uint64_t v = 0;
  HR_TRY(hr_bc_varint(c, &v));
  if (v >= limit || v > UINT32_MAX) {
    c->p = at;
    return hr_bc_error(c, "%s %llu out of range (%llu entries)", what, (unsigned long long)v,
                       (unsigned long long)limit);
  }
  *out = (uint32_t)v;
  return NULL;
}

hr_status hr_bc_bytes(hr_bc_cursor *c, uint64_t n, const uint8_t **out) {
  if (n > remaining(c))
    return hr_bc_error(c, "%llu bytes run past the end of the data (%zu bytes left)", (unsigned long long)n,
                       remaining(c));
  *out = c->p;
  c->p += n;
  return NULL;
}

hr_status hr_bc_blob(hr_bc_cursor *c, const uint8_t **data, size_t *len) {
  uint64_t n = 0;
  HR_TRY(hr_bc_varint(c, &n));
  HR_TRY(hr_bc_bytes(c, n, data));
  *len = (size_t)n;
  return NULL;
}

hr_status hr_bc_cstring(hr_bc_cursor *c, const char **out, size_t *len) {
  const uint8_t *nul = memchr(c->p, 0, remaining(c));
  if (!nul) return hr_bc_error(c, "a NUL-terminated string runs past the end of the data");
  *out = (const char *)c->p;
  *len = (size_t)(nul - c->p);
  c->p = nul + 1;
  return NULL;
}

/* A varint carrying a flag in its low bit: (value << 1) | flag. */
static hr_status varint_flag(hr_bc_cursor *c, uint64_t *value, bool *flag) {
  uint64_t v = 0;
  HR_TRY(hr_bc_varint(c, &v));
  *value = v >> 1;
  *flag = v & 1;
  return NULL;
}

/* A count of table entries each taking at least `min_bytes` of the `c` bytes that follow: larger
 * counts are errors before anything is allocated for them. */
static hr_status read_count(hr_bc_cursor *c, size_t min_bytes, const char *what, uint32_t *out) {
  const uint8_t *at = c->p;
  uint64_t n = 0;
  HR_TRY(hr_bc_varint(c, &n));
  if (n > remaining(c) / min_bytes || n > UINT32_MAX) {
    c->p = at;
    return hr_bc_error(c, "%llu %s cannot fit in the %zu bytes that follow", (unsigned long long)n, what,
                       remaining(c));
  }
  *out = (uint32_t)n;
  return NULL;
}

/* Skips the padding before data aligned to `alignment` (a power of two) counted from the file's
 * first byte, as MLIR's writer lays it out: every padding byte must be 0xCB. */
static hr_status align_to(hr_bc_cursor *c, uint64_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)))
    return hr_bc_error(c, "alignment %llu is not a power of two", (unsigned long long)alignment);
  size_t pad = (size_t)((0 - (uint64_t)offset_of(c)) & (alignment - 1));
  if (pad > remaining(c)) return hr_bc_error(c, "alignment padding runs past the end of the data");
  for (size_t i = 0; i < pad; i++) {
    if (c->p[0] != 0xCB) return hr_bc_error(c, "alignment padding byte is 0x%02X, not 0xCB", c->p[0]);
    c->p++;
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Sections                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

enum {
  SEC_STRING = 0,
  SEC_DIALECT = 1,
  SEC_ATTR_TYPE = 2,
  SEC_ATTR_TYPE_OFFSET = 3,
  SEC_IR = 4,
  SEC_RESOURCE = 5,
  SEC_RESOURCE_OFFSET = 6,
  SEC_DIALECT_VERSIONS = 7,
  SEC_PROPERTIES = 8,
  SEC_COUNT = 9,
};

static const char *const section_names[SEC_COUNT] = {
    "string", "dialect", "attribute/type", "attribute/type offset", "IR", "resource", "resource offset",
    "dialect version", "properties"};

/* Versions where the format changed (MLIR's Encoding.h). */
enum {
  V_DIALECT_VERSIONING = 1,
  V_LAZY_LOADING = 2,
  V_USE_LIST_ORDERING = 3,
  V_ELIDE_UNKNOWN_BLOCK_ARG_LOCATION = 4,
  V_NATIVE_PROPERTIES = 5,
  V_NEWEST = 6,
};

/* One section: id byte (high bit: aligned), length, [alignment, 0xCB padding], data. `data` is a
 * cursor over the section's bytes. */
static hr_status read_section(hr_bc_cursor *c, unsigned *id, hr_bc_cursor *data) {
  uint8_t head = 0;
  uint64_t len = 0;
  HR_TRY(hr_bc_byte(c, &head));
  *id = head & 0x7F;
  if (*id >= SEC_COUNT) {
    c->p--;
    return hr_bc_error(c, "unknown section id %u", *id);
  }
  HR_TRY(hr_bc_varint(c, &len));
  if (head & 0x80) {
    uint64_t alignment = 0;
    HR_TRY(hr_bc_varint(c, &alignment));
    HR_TRY(align_to(c, alignment));
  }
  if (len > remaining(c))
    return hr_bc_error(c, "the %s section's %llu bytes run past the end of the data (%zu bytes left)",
                       section_names[*id], (unsigned long long)len, remaining(c));
  *data = hr_bc_cursor_at(c->filename, c->base, c->p, c->p + len);
  c->p += len;
  return NULL;
}

/* An error unless the table cursor `c` was read to its end. */
static hr_status expect_end(const hr_bc_cursor *c, const char *what) {
  if (!hr_bc_at_end(c)) return hr_bc_error(c, "%zu unexpected bytes at the end of the %s", remaining(c), what);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Tables                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* What reading one file needs besides the file: its sections, and the IR section's value state. */
typedef struct bc_reader {
  hr_bc_file *f;
  const hr_allocator *a;
  bool have[SEC_COUNT];
  hr_bc_cursor sec[SEC_COUNT];
  /* IR section: bytes its ops, blocks, regions, values and operands may still claim */
  uint64_t budget;
  /* the value slots of every open region (see "Values" below), and forward references */
  uint32_t *slots;
  size_t n_slots, cap_slots;
  struct bc_fixup *fixups;
  size_t n_fixups, cap_fixups;
} bc_reader;

/* An arena array of `n` elements of `size` bytes, or an out-of-memory error. */
static hr_status arena_array(bc_reader *r, size_t n, size_t size, size_t align, void **out) {
  *out = NULL;
  if (n == 0) return NULL;
  *out = hr_arena_calloc(&r->f->arena, n, size, align);
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory reading bytecode", r->f->filename);
  return NULL;
}
#define ARENA_ARRAY(r, n, ptr) arena_array((r), (n), sizeof *(ptr), _Alignof(__typeof__(*(ptr))), (void **)&(ptr))

/* The string section: a count, the lengths (each with its NUL) from the last string to the first,
 * then the strings' bytes in order. */
static hr_status read_strings(bc_reader *r) {
  hr_bc_cursor c = r->sec[SEC_STRING];
  hr_bc_file *f = r->f;
  HR_TRY(read_count(&c, 2, "strings", &f->n_strings));
  HR_TRY(ARENA_ARRAY(r, f->n_strings, f->strings));
  size_t end = remaining(&r->sec[SEC_STRING]); /* where the last string ends */
  for (uint32_t k = f->n_strings; k-- > 0;) {
    uint64_t size = 0;
    HR_TRY(hr_bc_varint(&c, &size));
    if (size == 0) return hr_bc_error(&c, "string %u has length 0 (its NUL is counted)", k);
    if (size > end) return hr_bc_error(&c, "string %u's %llu bytes run past its section", k, (unsigned long long)size);
    end -= (size_t)size;
    const uint8_t *s = r->sec[SEC_STRING].p + end;
    if (s[size - 1] != 0) return hr_bc_error(&c, "string %u does not end with a NUL", k);
    f->strings[k] = (hr_bc_string){(const char *)s, (size_t)size - 1};
  }
  if (r->sec[SEC_STRING].p + end != c.p)
    return hr_bc_error(&c, "the string lengths end at offset %zu but the strings start at offset %zu", offset_of(&c),
                       (size_t)(r->sec[SEC_STRING].p + end - c.base));
  return NULL;
}

/* One dialect entry: before version 1 a string index; since, (index << 1 | hasVersion) and then
 * the version in a nested section (id 7). */
static hr_status read_dialect(bc_reader *r, hr_bc_cursor *c, hr_bc_dialect *d) {
  hr_bc_file *f = r->f;
  uint32_t name = 0;
  bool has_version = false;
  if (f->version < V_DIALECT_VERSIONING) {
    HR_TRY(hr_bc_index(c, f->n_strings, "dialect name string", &name));
  } else {
    const uint8_t *at = c->p;
    uint64_t idx = 0;
    HR_TRY(varint_flag(c, &idx, &has_version));
    if (idx >= f->n_strings) {
      c->p = at;
      return hr_bc_error(c, "dialect name string %llu out of range (%u entries)", (unsigned long long)idx,
                         f->n_strings);
    }
    name = (uint32_t)idx;
  }
  d->name = f->strings[name];
  if (has_version) {
    unsigned id = 0;
    hr_bc_cursor v;
    const uint8_t *at = c->p;
    HR_TRY(read_section(c, &id, &v));
    if (id != SEC_DIALECT_VERSIONS) {
      c->p = at;
      return hr_bc_error(c, "dialect '%s': expected its version section (id 7), found a %s section", d->name.data,
                         section_names[id]);
    }
    d->version = v.p;
    d->version_len = remaining(&v);
  }
  return NULL;
}

/* One op name of a dialect group: a string index (since version 5 with the wasRegistered flag in
 * the low bit); `out` NULL only checks it. */
static hr_status read_opname(bc_reader *r, hr_bc_cursor *c, uint32_t dialect, hr_bc_opname *out) {
  hr_bc_file *f = r->f;
  const uint8_t *at = c->p;
  uint64_t idx = 0;
  bool registered = true;
  if (f->version < V_NATIVE_PROPERTIES) HR_TRY(hr_bc_varint(c, &idx));
  else HR_TRY(varint_flag(c, &idx, &registered));
  if (idx >= f->n_strings) {
    c->p = at;
    return hr_bc_error(c, "op name string %llu out of range (%u entries)", (unsigned long long)idx, f->n_strings);
  }
  if (!out) return NULL;
  const hr_bc_string *dn = &f->dialects[dialect].name, *on = &f->strings[idx];
  out->dialect = dialect;
  out->name = *on;
  out->registered = registered;
  /* "dialect.op"; an empty op name (old unregistered ops) is the dialect name alone, as in MLIR */
  size_t len = dn->len + (on->len ? 1 + on->len : 0);
  char *full = hr_arena_alloc(&f->arena, len + 1, 1);
  if (!full) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory reading bytecode", f->filename);
  memcpy(full, dn->data, dn->len);
  if (on->len) {
    full[dn->len] = '.';
    memcpy(full + dn->len + 1, on->data, on->len);
  }
  full[len] = '\0';
  out->full = full;
  return NULL;
}

/* The op name groups (dialect index, count, names) to the end of the dialect section: counted
 * into *n when `out` is NULL, else stored into out[0 .. *n). */
static hr_status read_opname_groups(bc_reader *r, hr_bc_cursor c, hr_bc_opname *out, uint32_t *n) {
  uint32_t total = 0;
  while (!hr_bc_at_end(&c)) {
    uint32_t dialect = 0, count = 0;
    HR_TRY(hr_bc_index(&c, r->f->n_dialects, "dialect", &dialect));
    HR_TRY(read_count(&c, 1, "op names", &count));
    if (out && count > *n - total) return hr_bc_error(&c, "more op names than counted");
    if (!out && count > UINT32_MAX - total) return hr_bc_error(&c, "too many op names");
    for (uint32_t i = 0; i < count; i++) HR_TRY(read_opname(r, &c, dialect, out ? &out[total + i] : NULL));
    total += count;
  }
  *n = total;
  return NULL;
}

/* The dialect section: the dialects, then (since version 4) the number of op names, then the op
 * names grouped by dialect. The op names are counted first, then read. */
static hr_status read_dialects(bc_reader *r) {
  hr_bc_cursor c = r->sec[SEC_DIALECT];
  hr_bc_file *f = r->f;
  HR_TRY(read_count(&c, 1, "dialects", &f->n_dialects));
  HR_TRY(ARENA_ARRAY(r, f->n_dialects, f->dialects));
  for (uint32_t i = 0; i < f->n_dialects; i++) HR_TRY(read_dialect(r, &c, &f->dialects[i]));
  if (f->version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOCATION) {
    uint64_t hint; /* the writer's total, a capacity hint in MLIR's reader */
    HR_TRY(hr_bc_varint(&c, &hint));
  }
  uint32_t n = 0;
  HR_TRY(read_opname_groups(r, c, NULL, &n));
  HR_TRY(ARENA_ARRAY(r, n, f->opnames));
  f->n_opnames = n;
  return read_opname_groups(r, c, f->opnames, &n);
}

/* The properties section (version 5 on): a count, then that many records, each a size and its
 * bytes. An empty section holds none. */
static hr_status read_properties(bc_reader *r) {
  if (!r->have[SEC_PROPERTIES]) return NULL;
  hr_bc_cursor c = r->sec[SEC_PROPERTIES];
  hr_bc_file *f = r->f;
  if (hr_bc_at_end(&c)) return NULL;
  HR_TRY(read_count(&c, 1, "properties records", &f->n_props));
  HR_TRY(ARENA_ARRAY(r, f->n_props, f->props));
  for (uint32_t i = 0; i < f->n_props; i++) HR_TRY(hr_bc_blob(&c, &f->props[i].data, &f->props[i].len));
  return expect_end(&c, "properties section");
}

/* One resource's value, from its bytes `d`: a blob (alignment, size, 0xCB padding, bytes), a bool
 * (one byte) or a string (a string index); exactly its bytes. */
static hr_status read_resource_value(bc_reader *r, hr_bc_cursor *d, hr_bc_resource *res) {
  switch (res->kind) {
    case HR_BC_RESOURCE_BLOB: {
      uint64_t size = 0;
      HR_TRY(hr_bc_varint(d, &res->alignment));
      HR_TRY(hr_bc_varint(d, &size));
      HR_TRY(align_to(d, res->alignment));
      HR_TRY(hr_bc_bytes(d, size, &res->data));
      res->len = (size_t)size;
      break;
    }
    case HR_BC_RESOURCE_BOOL:
      HR_TRY(hr_bc_bytes(d, 1, &res->data));
      res->len = 1;
      break;
    case HR_BC_RESOURCE_STRING:
      HR_TRY(hr_bc_index(d, r->f->n_strings, "resource string", &res->string));
      break;
  }
  return expect_end(d, "resource entry");
}

/* One group of resources in the offset section (a count, then key, size and kind of each), their
 * values taken in turn from the resource section `data`. A dialect's entry may be empty (a
 * declaration). `out` NULL only counts them into *n. */
static hr_status read_resource_group(bc_reader *r, hr_bc_cursor *off, hr_bc_cursor *data, hr_bc_string group,
                                     bool external, hr_bc_resource *out, uint32_t *n) {
  uint32_t count = 0;
  HR_TRY(read_count(off, 3, "resources", &count));
  if (count > UINT32_MAX - *n) return hr_bc_error(off, "too many resources");
  for (uint32_t i = 0; i < count; i++) {
    uint32_t key = 0;
    uint64_t size = 0;
    uint8_t kind = 0;
    HR_TRY(hr_bc_index(off, r->f->n_strings, "resource key string", &key));
    HR_TRY(hr_bc_varint(off, &size));
    HR_TRY(hr_bc_byte(off, &kind));
    if (kind > HR_BC_RESOURCE_STRING) {
      off->p--;
      return hr_bc_error(off, "unknown resource kind %u", kind);
    }
    const uint8_t *bytes = NULL;
    HR_TRY(hr_bc_bytes(data, size, &bytes));
    if (out) {
      hr_bc_resource *res = &out[*n];
      *res = (hr_bc_resource){.group = group, .external = external, .key = r->f->strings[key],
                              .kind = (hr_bc_resource_kind)kind};
      hr_bc_cursor d = hr_bc_cursor_at(data->filename, data->base, bytes, bytes + size);
      if (size > 0 || external) HR_TRY(read_resource_value(r, &d, res));
    }
    (*n)++;
  }
  return NULL;
}

/* Every resource: the external groups (a count, then key string and resources of each), then
 * dialect groups (dialect index and resources) to the end of the offset section. */
static hr_status read_resource_groups(bc_reader *r, hr_bc_resource *out, uint32_t *n, uint32_t *first_dialect) {
  hr_bc_cursor off = r->sec[SEC_RESOURCE_OFFSET], data = r->sec[SEC_RESOURCE];
  uint32_t groups = 0;
  *n = 0;
  HR_TRY(read_count(&off, 2, "external resource groups", &groups));
  for (uint32_t g = 0; g < groups; g++) {
    uint32_t key = 0;
    HR_TRY(hr_bc_index(&off, r->f->n_strings, "resource group string", &key));
    HR_TRY(read_resource_group(r, &off, &data, r->f->strings[key], true, out, n));
  }
  *first_dialect = *n;
  while (!hr_bc_at_end(&off)) {
    uint32_t dialect = 0;
    HR_TRY(hr_bc_index(&off, r->f->n_dialects, "resource dialect", &dialect));
    HR_TRY(read_resource_group(r, &off, &data, r->f->dialects[dialect].name, false, out, n));
  }
  return NULL;
}

/* The resource sections (5 and 6, both or neither): counted, then read. */
static hr_status read_resources(bc_reader *r) {
  hr_bc_file *f = r->f;
  if (r->have[SEC_RESOURCE] != r->have[SEC_RESOURCE_OFFSET]) {
    hr_bc_cursor at = r->sec[r->have[SEC_RESOURCE] ? SEC_RESOURCE : SEC_RESOURCE_OFFSET];
    return hr_bc_error(&at, "a %s section without a %s section", r->have[SEC_RESOURCE] ? "resource" : "resource offset",
                       r->have[SEC_RESOURCE] ? "resource offset" : "resource");
  }
  if (!r->have[SEC_RESOURCE]) return NULL;
  uint32_t n = 0, first = 0;
  HR_TRY(read_resource_groups(r, NULL, &n, &first));
  HR_TRY(ARENA_ARRAY(r, n, f->resources));
  HR_TRY(read_resource_groups(r, f->resources, &f->n_resources, &f->first_dialect_resource));
  return NULL;
}

/* Checks an assembly-text entry: its bytes are one NUL-terminated string. */
static hr_status check_asm_entry(const hr_bc_cursor *c, const hr_bc_entry *e, const char *what, uint32_t i) {
  if (e->len == 0 || memchr(e->data, 0, e->len) != e->data + e->len - 1)
    return hr_bc_error(c, "%s %u: its assembly text is not one NUL-terminated string", what, i);
  return NULL;
}

/* Attribute or type entries [0, n) from the offset section: groups of (dialect index, count, then
 * (size << 1 | hasCustomEncoding) per entry), their bytes consecutive from *pos in the attr/type
 * section. */
static hr_status read_entries(bc_reader *r, hr_bc_cursor *c, hr_bc_entry *entries, uint32_t n, size_t *pos,
                              const char *what) {
  const hr_bc_cursor *sec = &r->sec[SEC_ATTR_TYPE];
  size_t sec_len = remaining(sec);
  for (uint32_t i = 0; i < n;) {
    uint32_t dialect = 0;
    uint64_t count = 0;
    HR_TRY(hr_bc_index(c, r->f->n_dialects, "dialect", &dialect));
    HR_TRY(hr_bc_varint(c, &count));
    if (count > n - i)
      return hr_bc_error(c, "a group of %llu %ss where %u are left", (unsigned long long)count, what, n - i);
    for (uint64_t k = 0; k < count; k++, i++) {
      uint64_t size = 0;
      bool custom = false;
      HR_TRY(varint_flag(c, &size, &custom));
      if (size > sec_len - *pos)
        return hr_bc_error(c, "%s %u's %llu bytes run past the end of the attribute/type section", what, i,
                           (unsigned long long)size);
      entries[i] = (hr_bc_entry){.dialect = dialect, .custom = custom, .data = sec->p + *pos, .len = (size_t)size};
      *pos += (size_t)size;
      if (!custom) HR_TRY(check_asm_entry(c, &entries[i], what, i));
    }
  }
  return NULL;
}

/* The attribute/type offset section: the numbers of attributes and types, then their entries. */
static hr_status read_attrs_types(bc_reader *r) {
  hr_bc_cursor c = r->sec[SEC_ATTR_TYPE_OFFSET];
  hr_bc_file *f = r->f;
  HR_TRY(read_count(&c, 1, "attributes", &f->n_attrs));
  HR_TRY(read_count(&c, 1, "types", &f->n_types));
  if ((uint64_t)f->n_attrs + f->n_types > remaining(&c))
    return hr_bc_error(&c, "%u attributes and %u types cannot fit in the %zu bytes that follow", f->n_attrs, f->n_types,
                       remaining(&c));
  HR_TRY(ARENA_ARRAY(r, f->n_attrs, f->attrs));
  HR_TRY(ARENA_ARRAY(r, f->n_types, f->types));
  size_t pos = 0;
  HR_TRY(read_entries(r, &c, f->attrs, f->n_attrs, &pos, "attribute"));
  HR_TRY(read_entries(r, &c, f->types, f->n_types, &pos, "type"));
  return expect_end(&c, "attribute/type offset section");
}

/* ---------------------------------------------------------------------------------------------- */
/* Values                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* MLIR's numbering: each isolated scope (the top level and every IsolatedFromAbove op's regions)
 * has an array of value slots; a region, when it starts, reserves its numValues slots at the end
 * of that array and gives them back when it ends; its block arguments and op results fill its
 * slots in order; an operand is an index into the array (an enclosing region's value, or a slot
 * not filled yet: a forward reference). Here one stack of slots holds every open region of every
 * open scope, a scope being the part of it from where it began; a filled slot holds the value's
 * file-wide id, an unfilled one SLOT_EMPTY or, when operands already name it, the head of their
 * list of fixups (SLOT_PENDING | index), patched when it is filled. */
enum { SLOT_EMPTY = 0xFFFFFFFFu, SLOT_PENDING = 0x80000000u, MAX_IDS = 0x7FFFFFFF };

/* An operand waiting for its value: the cell to fill, the next fixup of the same slot. */
typedef struct bc_fixup {
  uint32_t *cell;
  uint32_t next; /* the slot's value before it: SLOT_EMPTY (the last) or SLOT_PENDING | index */
  size_t offset; /* the operand's file offset, for messages */
} bc_fixup;

/* The region being read: its slots and blocks. */
typedef struct bc_frame {
  size_t scope;           /* the first slot of the enclosing isolated scope */
  size_t start, next, end; /* its slots [start, end), the next one to fill */
  uint32_t n_blocks;  /* successor indices are below it */
} bc_frame;

/* Grows `*buf` (of *cap elements of `size` bytes, *len used) to hold `extra` more. */
static hr_status grow(bc_reader *r, void **buf, size_t *cap, size_t len, size_t extra, size_t size) {
  if (len + extra <= *cap) return NULL;
  size_t want = *cap ? *cap : 256;
  while (want < len + extra) want *= 2;
  void *p = r->a->alloc(r->a->ctx, want * size, 16);
  if (!p) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory reading bytecode", r->f->filename);
  if (len) memcpy(p, *buf, len * size);
  if (*buf) r->a->free(r->a->ctx, *buf);
  *buf = p;
  *cap = want;
  return NULL;
}

/* Charges `n` elements of at least `min_bytes` each (ops, blocks, values, operands...) to the IR
 * budget, and checks they fit in what `c` has left. */
static hr_status claim(bc_reader *r, const hr_bc_cursor *c, uint64_t n, unsigned min_bytes, const char *what) {
  if (n > remaining(c) / min_bytes || n * min_bytes > r->budget)
    return hr_bc_error(c, "%llu %s cannot fit in the %zu bytes that follow", (unsigned long long)n, what, remaining(c));
  r->budget -= n * min_bytes;
  return NULL;
}

/* Reserves a starting region's `n` slots at the end of the stack. The slots of all open regions
 * are distinct values of the file, so there can be no more than the IR section has bytes. */
static hr_status reserve_slots(bc_reader *r, const hr_bc_cursor *c, uint64_t n, bc_frame *fr) {
  if (n > remaining(c) || n > remaining(&r->sec[SEC_IR]) - r->n_slots)
    return hr_bc_error(c, "a region of %llu values cannot fit in the %zu bytes that follow", (unsigned long long)n,
                       remaining(c));
  HR_TRY(grow(r, (void **)&r->slots, &r->cap_slots, r->n_slots, (size_t)n, sizeof *r->slots));
  fr->start = fr->next = r->n_slots;
  fr->end = r->n_slots + (size_t)n;
  for (size_t i = fr->next; i < fr->end; i++) r->slots[i] = SLOT_EMPTY;
  r->n_slots = fr->end;
  return NULL;
}

/* Gives a finished region's slots back; an operand still waiting on one of them named a value
 * that was never defined. */
static hr_status release_slots(bc_reader *r, const hr_bc_cursor *c, const bc_frame *fr) {
  for (size_t i = fr->start; i < fr->end; i++) {
    if (r->slots[i] != SLOT_EMPTY && (r->slots[i] & SLOT_PENDING)) {
      const bc_fixup *fx = &r->fixups[r->slots[i] & ~SLOT_PENDING];
      hr_bc_cursor at = hr_bc_cursor_at(c->filename, c->base, c->base + fx->offset, c->base + fx->offset);
      return hr_bc_error(&at, "operand names value %zu of its scope, which its region never defines",
                         i - fr->scope);
    }
  }
  r->n_slots = fr->start;
  return NULL;
}

/* Gives the next `n` values of the region file-wide ids from *first on and fills their slots,
 * patching the operands that named them before. Op results (`results`) in a region that reserved
 * no slots get ids but no slots, as in MLIR's reader (the top level, whose builtin.module has no
 * results); block arguments there are an error. */
static hr_status define_values(bc_reader *r, const hr_bc_cursor *c, bc_frame *fr, uint32_t n, bool results,
                               uint32_t *first) {
  hr_bc_file *f = r->f;
  if (n > MAX_IDS - f->n_values) return hr_bc_error(c, "more than %d values", MAX_IDS);
  *first = f->n_values;
  if (n == 0) return NULL;
  if (results && fr->start == fr->end) {
    f->n_values += n;
    return NULL;
  }
  if (fr->end - fr->next < n)
    return hr_bc_error(c, "%u values where the region has %zu of its %zu value slots left", n, fr->end - fr->next,
                       fr->end - fr->start);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t id = f->n_values++, *slot = &r->slots[fr->next++];
    for (uint32_t k = *slot; k != SLOT_EMPTY;) {
      bc_fixup *fx = &r->fixups[k & ~SLOT_PENDING];
      *fx->cell = id;
      k = fx->next;
    }
    *slot = id;
  }
  return NULL;
}

/* An operand: an index into the scope's slots, resolved to the value's id now or, for a slot not
 * filled yet, when it is filled. */
static hr_status read_operand(bc_reader *r, hr_bc_cursor *c, const bc_frame *fr, uint32_t *cell) {
  size_t at = offset_of(c);
  uint32_t idx = 0;
  HR_TRY(hr_bc_index(c, r->n_slots - fr->scope, "value", &idx));
  uint32_t *slot = &r->slots[fr->scope + idx];
  if (*slot != SLOT_EMPTY && !(*slot & SLOT_PENDING)) {
    *cell = *slot;
    return NULL;
  }
  if (r->n_fixups >= MAX_IDS) return hr_bc_error(c, "too many forward references");
  HR_TRY(grow(r, (void **)&r->fixups, &r->cap_fixups, r->n_fixups, 1, sizeof *r->fixups));
  r->fixups[r->n_fixups] = (bc_fixup){.cell = cell, .next = *slot, .offset = at};
  *slot = SLOT_PENDING | (uint32_t)r->n_fixups++;
  *cell = SLOT_EMPTY;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* IR section                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Op encoding mask bits. */
enum {
  OP_ATTRS = 0x01,
  OP_RESULTS = 0x02,
  OP_OPERANDS = 0x04,
  OP_SUCCESSORS = 0x08,
  OP_REGIONS = 0x10,
  OP_USE_LISTS = 0x20,
  OP_PROPERTIES = 0x40,
};

static hr_status read_region(bc_reader *r, hr_bc_cursor *c, size_t scope, hr_bc_region *region, unsigned depth);

/* A use-list order for `n` values (parsed and ignored: it only permutes use lists): [n > 1: the
 * number of entries], then per entry [n > 1: the value's index], (count << 1 | isPair), indices. */
static hr_status read_use_lists(hr_bc_cursor *c, uint32_t n, bool need_entry) {
  uint64_t entries = 1;
  if (n > 1) HR_TRY(hr_bc_varint(c, &entries));
  if (need_entry && entries == 0) return hr_bc_error(c, "an empty use-list order");
  for (uint64_t e = 0; e < entries; e++) {
    uint32_t value = 0;
    uint64_t count = 0, index = 0;
    bool pairs = false;
    if (n > 1) HR_TRY(hr_bc_index(c, n, "use-list value", &value));
    HR_TRY(varint_flag(c, &count, &pairs));
    if (count > remaining(c))
      return hr_bc_error(c, "a use-list order of %llu indices runs past the end", (unsigned long long)count);
    for (uint64_t i = 0; i < count; i++) HR_TRY(hr_bc_varint(c, &index));
  }
  return NULL;
}

/* A block's arguments: a count, then per argument its type and location (since version 4
 * (type << 1 | hasLocation) and the location only when it has one). */
static hr_status read_block_args(bc_reader *r, hr_bc_cursor *c, bc_frame *fr, hr_bc_block *b) {
  hr_bc_file *f = r->f;
  bool compact = f->version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOCATION;
  uint64_t n = 0;
  HR_TRY(hr_bc_varint(c, &n));
  HR_TRY(claim(r, c, n, compact ? 1 : 2, "block arguments"));
  b->n_args = (uint32_t)n;
  HR_TRY(ARENA_ARRAY(r, b->n_args, b->arg_types));
  HR_TRY(ARENA_ARRAY(r, b->n_args, b->arg_locs));
  for (uint32_t i = 0; i < b->n_args; i++) {
    uint32_t loc = 0;
    if (compact) {
      const uint8_t *at = c->p;
      uint64_t type = 0;
      bool has_loc = false;
      HR_TRY(varint_flag(c, &type, &has_loc));
      if (type >= f->n_types) {
        c->p = at;
        return hr_bc_error(c, "type %llu out of range (%u entries)", (unsigned long long)type, f->n_types);
      }
      b->arg_types[i] = (uint32_t)type;
      b->arg_locs[i] = -1;
      if (has_loc) {
        HR_TRY(hr_bc_index(c, f->n_attrs, "location attribute", &loc));
        b->arg_locs[i] = loc;
      }
    } else {
      HR_TRY(hr_bc_index(c, f->n_types, "type", &b->arg_types[i]));
      HR_TRY(hr_bc_index(c, f->n_attrs, "location attribute", &loc));
      b->arg_locs[i] = loc;
    }
  }
  return define_values(r, c, fr, b->n_args, false, &b->first_arg);
}

/* An op's fields after its name, mask and location, in the order of the mask bits: attribute
 * dictionary, properties, results, operands, successors, use-list orders, region count. */
static hr_status read_op_fields(bc_reader *r, hr_bc_cursor *c, bc_frame *fr, uint8_t mask, hr_bc_op *op) {
  hr_bc_file *f = r->f;
  uint32_t idx = 0;
  op->attrs = op->props = op->props_attr = -1;
  if (mask & OP_ATTRS) {
    HR_TRY(hr_bc_index(c, f->n_attrs, "attribute dictionary", &idx));
    op->attrs = idx;
  }
  if (mask & OP_PROPERTIES) {
    if (f->opnames[op->name].registered) {
      HR_TRY(hr_bc_index(c, f->n_props, "properties record", &idx));
      op->props = idx;
    } else {
      HR_TRY(hr_bc_index(c, f->n_attrs, "properties attribute", &idx));
      op->props_attr = idx;
    }
  }
  uint64_t n = 0;
  if (mask & OP_RESULTS) {
    HR_TRY(hr_bc_varint(c, &n));
    HR_TRY(claim(r, c, n, 1, "results"));
    op->n_results = (uint32_t)n;
    HR_TRY(ARENA_ARRAY(r, op->n_results, op->result_types));
    for (uint32_t i = 0; i < op->n_results; i++) HR_TRY(hr_bc_index(c, f->n_types, "type", &op->result_types[i]));
  }
  if (mask & OP_OPERANDS) {
    HR_TRY(hr_bc_varint(c, &n));
    HR_TRY(claim(r, c, n, 1, "operands"));
    op->n_operands = (uint32_t)n;
    HR_TRY(ARENA_ARRAY(r, op->n_operands, op->operands));
    for (uint32_t i = 0; i < op->n_operands; i++) HR_TRY(read_operand(r, c, fr, &op->operands[i]));
  }
  if (mask & OP_SUCCESSORS) {
    HR_TRY(hr_bc_varint(c, &n));
    HR_TRY(claim(r, c, n, 1, "successors"));
    op->n_successors = (uint32_t)n;
    HR_TRY(ARENA_ARRAY(r, op->n_successors, op->successors));
    for (uint32_t i = 0; i < op->n_successors; i++)
      HR_TRY(hr_bc_index(c, fr->n_blocks, "successor block", &op->successors[i]));
  }
  if (mask & OP_USE_LISTS) HR_TRY(read_use_lists(c, op->n_results, false));
  if (mask & OP_REGIONS) {
    bool isolated = false;
    HR_TRY(varint_flag(c, &n, &isolated));
    HR_TRY(claim(r, c, n, 1, "regions"));
    op->n_regions = (uint32_t)n;
    op->isolated = isolated;
  }
  return define_values(r, c, fr, op->n_results, true, &op->first_result);
}

/* An op's regions: an isolated op's start a new value scope and, since version 2, are wrapped in
 * a nested IR section (which they must fill); the others follow inline. */
static hr_status read_op_regions(bc_reader *r, hr_bc_cursor *c, const bc_frame *fr, hr_bc_op *op, unsigned depth) {
  if (depth >= HR_LIMIT_BC_NESTING_DEPTH)
    return fail(c, HR_RESOURCE_EXHAUSTED, "regions nested more than %d deep", HR_LIMIT_BC_NESTING_DEPTH);
  HR_TRY(ARENA_ARRAY(r, op->n_regions, op->regions));
  hr_bc_cursor nested, *rc = c;
  if (op->isolated && r->f->version >= V_LAZY_LOADING) {
    unsigned id = 0;
    const uint8_t *at = c->p;
    HR_TRY(read_section(c, &id, &nested));
    if (id != SEC_IR) {
      c->p = at;
      return hr_bc_error(c, "expected the IR section (id 4) of an isolated op's regions, found a %s section",
                         section_names[id]);
    }
    rc = &nested;
  }
  size_t scope = op->isolated ? r->n_slots : fr->scope;
  for (uint32_t i = 0; i < op->n_regions; i++) HR_TRY(read_region(r, rc, scope, &op->regions[i], depth + 1));
  if (rc == &nested) return expect_end(&nested, "nested IR section");
  return NULL;
}

/* One op: name index, mask byte, location, its fields, then its regions. */
static hr_status read_op(bc_reader *r, hr_bc_cursor *c, bc_frame *fr, hr_bc_op *op, unsigned depth) {
  hr_bc_file *f = r->f;
  uint8_t mask = 0;
  op->offset = offset_of(c);
  HR_TRY(hr_bc_index(c, f->n_opnames, "op name", &op->name));
  HR_TRY(hr_bc_byte(c, &mask));
  unsigned known = OP_ATTRS | OP_RESULTS | OP_OPERANDS | OP_SUCCESSORS | OP_REGIONS;
  if (f->version >= V_USE_LIST_ORDERING) known |= OP_USE_LISTS;
  if (f->version >= V_NATIVE_PROPERTIES) known |= OP_PROPERTIES;
  if (mask & ~known) {
    c->p--;
    return hr_bc_error(c, "op '%s': encoding mask 0x%02X has bits bytecode version %llu does not define",
                       f->opnames[op->name].full, mask, (unsigned long long)f->version);
  }
  HR_TRY(hr_bc_index(c, f->n_attrs, "location attribute", &op->loc));
  HR_TRY(read_op_fields(r, c, fr, mask, op));
  if (op->n_regions) HR_TRY(read_op_regions(r, c, fr, op, depth));
  return NULL;
}

/* A block: (numOps << 1 | hasArgs), its arguments and (since version 3) whether a use-list order
 * of them follows, then its ops. */
static hr_status read_block(bc_reader *r, hr_bc_cursor *c, bc_frame *fr, hr_bc_block *b, unsigned depth) {
  uint64_t n_ops = 0;
  bool has_args = false;
  HR_TRY(varint_flag(c, &n_ops, &has_args));
  HR_TRY(claim(r, c, n_ops, 3, "ops"));
  b->first_arg = r->f->n_values;
  if (has_args) {
    HR_TRY(read_block_args(r, c, fr, b));
    if (r->f->version >= V_USE_LIST_ORDERING) {
      uint8_t has_use_lists = 0;
      HR_TRY(hr_bc_byte(c, &has_use_lists));
      if (has_use_lists) HR_TRY(read_use_lists(c, b->n_args, true));
    }
  }
  b->n_ops = (uint32_t)n_ops;
  HR_TRY(ARENA_ARRAY(r, b->n_ops, b->ops));
  for (uint32_t i = 0; i < b->n_ops; i++) HR_TRY(read_op(r, c, fr, &b->ops[i], depth));
  return NULL;
}

/* A region: its number of blocks, then (if any) its number of values and the blocks. Its values
 * live in slots it reserves in the scope for as long as it is read. */
static hr_status read_region(bc_reader *r, hr_bc_cursor *c, size_t scope, hr_bc_region *region, unsigned depth) {
  uint64_t n_blocks = 0, n_values = 0;
  HR_TRY(hr_bc_varint(c, &n_blocks));
  if (n_blocks == 0) return NULL;
  HR_TRY(claim(r, c, n_blocks, 1, "blocks"));
  region->n_blocks = (uint32_t)n_blocks;
  HR_TRY(hr_bc_varint(c, &n_values));
  bc_frame fr = {.scope = scope, .n_blocks = region->n_blocks};
  HR_TRY(reserve_slots(r, c, n_values, &fr));
  HR_TRY(ARENA_ARRAY(r, region->n_blocks, region->blocks));
  for (uint32_t i = 0; i < region->n_blocks; i++) HR_TRY(read_block(r, c, &fr, &region->blocks[i], depth));
  return release_slots(r, c, &fr);
}

/* The IR section: the top-level block (as the body of a region of one block with no value slots,
 * as MLIR reads it), which must fill the section. */
static hr_status read_ir(bc_reader *r) {
  hr_bc_cursor c = r->sec[SEC_IR];
  r->budget = remaining(&c);
  bc_frame fr = {.scope = 0, .start = 0, .next = 0, .end = 0, .n_blocks = 1};
  HR_TRY(read_block(r, &c, &fr, &r->f->top, 0));
  return expect_end(&c, "IR section");
}

/* ---------------------------------------------------------------------------------------------- */
/* The file                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

static const uint8_t magic[4] = {'M', 'L', 0xEF, 'R'};

bool hr_bc_sniff(const uint8_t *data, size_t len) { return data && len >= 4 && memcmp(data, magic, 4) == 0; }

/* The header (magic, version, producer) and the top-level sections, each at most once, the
 * required ones present. */
static hr_status read_header(bc_reader *r) {
  hr_bc_file *f = r->f;
  hr_bc_cursor c = hr_bc_cursor_at(f->filename, f->data, f->data, f->data + f->len);
  if (!hr_bc_sniff(f->data, f->len)) return hr_bc_error(&c, "not MLIR bytecode (no \"ML\\xEFR\" magic)");
  c.p += 4;
  HR_TRY(hr_bc_varint(&c, &f->version));
  if (f->version > V_NEWEST)
    return fail(&c, HR_UNIMPLEMENTED, "bytecode version %llu is newer than %d, the newest this reader knows",
                (unsigned long long)f->version, V_NEWEST);
  size_t len = 0;
  HR_TRY(hr_bc_cstring(&c, &f->producer, &len));
  while (!hr_bc_at_end(&c)) {
    unsigned id = 0;
    hr_bc_cursor data;
    const uint8_t *at = c.p;
    HR_TRY(read_section(&c, &id, &data));
    if (r->have[id]) {
      c.p = at;
      return hr_bc_error(&c, "a second %s section", section_names[id]);
    }
    r->have[id] = true;
    r->sec[id] = data;
  }
  for (unsigned id = 0; id <= SEC_PROPERTIES; id++) {
    bool required = id <= SEC_IR || (id == SEC_PROPERTIES && f->version >= V_NATIVE_PROPERTIES);
    if (required && !r->have[id])
      return hr_bc_error(&c, "no %s section (required in bytecode version %llu)", section_names[id],
                         (unsigned long long)f->version);
  }
  return NULL;
}

/* Everything, in MLIR's order: header, strings, properties, dialects, resources, attributes and
 * types, IR. */
static hr_status read_file(bc_reader *r) {
  HR_TRY(read_header(r));
  HR_TRY(read_strings(r));
  HR_TRY(read_properties(r));
  HR_TRY(read_dialects(r));
  HR_TRY(read_resources(r));
  HR_TRY(read_attrs_types(r));
  return read_ir(r);
}

hr_status hr_bc_read(const char *filename, const uint8_t *data, size_t len, const hr_allocator *a, hr_bc_file **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  if (!filename) filename = "<bytecode>";
  hr_bc_file *f = a->alloc(a->ctx, sizeof *f, _Alignof(hr_bc_file));
  if (!f) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory reading bytecode", filename);
  memset(f, 0, sizeof *f);
  hr_arena_init(&f->arena, a);
  f->data = data;
  f->len = data ? len : 0;
  bc_reader r = {.f = f, .a = a};
  hr_status s = NULL;
  f->filename = hr_arena_strdup(&f->arena, filename);
  if (!f->filename) {
    f->filename = filename;
    s = hr_error(HR_OUT_OF_MEMORY, "%s: out of memory reading bytecode", filename);
  }
  if (!s) s = read_file(&r);
  if (r.slots) a->free(a->ctx, r.slots);
  if (r.fixups) a->free(a->ctx, r.fixups);
  if (s) {
    hr_bc_free(f);
    return s;
  }
  *out = f;
  return NULL;
}

void hr_bc_free(hr_bc_file *f) {
  if (!f) return;
  const hr_allocator *a = f->arena.allocator;
  hr_arena_release(&f->arena);
  a->free(a->ctx, f);
}

hr_bc_cursor hr_bc_entry_cursor(const hr_bc_file *f, const uint8_t *data, size_t len) {
  return hr_bc_cursor_at(f->filename, f->data, data, data + len);
}

/* The FlatBuffer builder of flatbuf_write.h. Distances: an object written when `used` bytes were
 * in the buffer sits at position N - used of the finished N-byte buffer, so a reference at
 * distance d to an object at distance t holds d - t, and alignment of a distance (with N a multiple
 * of every alignment used) is alignment of the position. */
#include "formats/jaxexport/flatbuf_write.h"

#include <stdint.h>
#include <string.h>

#include "base/limits.h"

void hr_fbw_init(hr_fbw *b, const hr_allocator *a) {
  memset(b, 0, sizeof *b);
  b->a = a ? a : hr_default_allocator();
  b->max_align = 1;
}

void hr_fbw_free(hr_fbw *b) {
  if (b->buf) b->a->free(b->a->ctx, b->buf);
  hr_status_free(b->error);
  b->buf = NULL;
  b->error = NULL;
}

void hr_fbw_fail(hr_fbw *b, hr_status s) {
  if (!b->failed) b->error = s;
  else hr_status_free(s);
  b->failed = true;
}

hr_fbw_ref *hr_fbw_alloc_refs(hr_fbw *b, size_t n) {
  hr_fbw_ref *r = n <= SIZE_MAX / sizeof *r - 1 ? b->a->alloc(b->a->ctx, (n + 1) * sizeof *r, _Alignof(hr_fbw_ref)) : NULL;
  if (!r) hr_fbw_fail(b, hr_error(HR_OUT_OF_MEMORY, "FlatBuffer: out of memory for %zu references", n));
  return r;
}

void hr_fbw_free_refs(hr_fbw *b, hr_fbw_ref *refs) {
  if (refs) b->a->free(b->a->ctx, refs);
}

/* Makes room for `n` more bytes in front of the written ones. */
static bool grow(hr_fbw *b, size_t n) {
  if (b->failed) return false;
  if (n > HR_LIMIT_FB_BYTES - b->used) {
    hr_fbw_fail(b, hr_error(HR_RESOURCE_EXHAUSTED, "FlatBuffer: more than %zu bytes", (size_t)HR_LIMIT_FB_BYTES));
    return false;
  }
  if (b->cap - b->used >= n) return true;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap - b->used < n) cap *= 2;
  uint8_t *buf = b->a->alloc(b->a->ctx, cap, 8);
  if (!buf) {
    hr_fbw_fail(b, hr_error(HR_OUT_OF_MEMORY, "FlatBuffer: out of memory for %zu bytes", cap));
    return false;
  }
  if (b->used) memcpy(buf + cap - b->used, b->buf + b->cap - b->used, b->used);
  if (b->buf) b->a->free(b->a->ctx, b->buf);
  b->buf = buf;
  b->cap = cap;
  return true;
}

/* Puts `n` bytes (zeros when `data` is NULL) in front of the written ones. */
static void push(hr_fbw *b, const void *data, size_t n) {
  if (!grow(b, n)) return;
  b->used += n;
  uint8_t *p = b->buf + b->cap - b->used;
  if (data) memcpy(p, data, n);
  else memset(p, 0, n);
}

static void push_u32(hr_fbw *b, uint32_t v) { push(b, &v, 4); }

/* Pads so that, once `additional` more bytes are written, the distance is a multiple of `align`. */
static void prep(hr_fbw *b, size_t align, size_t additional) {
  if (align > b->max_align) b->max_align = align;
  size_t pad = (align - ((b->used + additional) & (align - 1))) & (align - 1);
  push(b, NULL, pad);
}

/* The offset a reference written at the current distance holds to `target`. */
static uint32_t offset_to(const hr_fbw *b, hr_fbw_ref target) { return (uint32_t)(b->used - target); }

hr_fbw_ref hr_fbw_string(hr_fbw *b, const char *s, size_t len) {
  if (len >= HR_LIMIT_FB_BYTES) {
    hr_fbw_fail(b, hr_error(HR_RESOURCE_EXHAUSTED, "FlatBuffer: a string of %zu bytes", len));
    return 0;
  }
  prep(b, 4, len + 1);
  push(b, NULL, 1);
  push(b, s, len);
  push_u32(b, (uint32_t)len);
  return b->failed ? 0 : (hr_fbw_ref)b->used;
}

hr_fbw_ref hr_fbw_cstring(hr_fbw *b, const char *s) { return hr_fbw_string(b, s, strlen(s)); }

hr_fbw_ref hr_fbw_scalars(hr_fbw *b, const void *data, size_t count, size_t elem_size) {
  if (count > HR_LIMIT_FB_BYTES / elem_size) {
    hr_fbw_fail(b, hr_error(HR_RESOURCE_EXHAUSTED, "FlatBuffer: a vector of %zu elements", count));
    return 0;
  }
  prep(b, elem_size > 4 ? elem_size : 4, count * elem_size);
  push(b, data, count * elem_size);
  push_u32(b, (uint32_t)count);
  return b->failed ? 0 : (hr_fbw_ref)b->used;
}

hr_fbw_ref hr_fbw_refs(hr_fbw *b, const hr_fbw_ref *refs, size_t count) {
  if (count > HR_LIMIT_FB_BYTES / 4) {
    hr_fbw_fail(b, hr_error(HR_RESOURCE_EXHAUSTED, "FlatBuffer: a vector of %zu references", count));
    return 0;
  }
  prep(b, 4, count * 4);
  for (size_t i = count; i-- > 0 && !b->failed;) {
    push(b, NULL, 4);
    uint32_t off = offset_to(b, refs[i]);
    memcpy(b->buf + b->cap - b->used, &off, 4);
  }
  push_u32(b, (uint32_t)count);
  return b->failed ? 0 : (hr_fbw_ref)b->used;
}

void hr_fbw_table_begin(hr_fbw *b) {
  if (b->in_table) hr_fbw_fail(b, hr_error(HR_INTERNAL, "FlatBuffer: a table begun inside another"));
  b->in_table = true;
  b->n_fields = 0;
  b->table_start = b->used;
}

static void add_field(hr_fbw *b, int slot, int size, bool is_ref, uint32_t value) {
  if (!b->in_table || slot < 0 || slot >= HR_FBW_MAX_SLOTS || b->n_fields == HR_FBW_MAX_SLOTS) {
    hr_fbw_fail(b, hr_error(HR_INTERNAL, "FlatBuffer: field slot %d outside a table or past %d", slot, HR_FBW_MAX_SLOTS));
    return;
  }
  b->fields[b->n_fields++] = (struct hr_fbw_field){.slot = slot, .size = size, .is_ref = is_ref, .value = value};
}

void hr_fbw_add_u8(hr_fbw *b, int slot, uint8_t v, uint8_t dflt) {
  if (v != dflt) add_field(b, slot, 1, false, v);
}
void hr_fbw_add_u16(hr_fbw *b, int slot, uint16_t v, uint16_t dflt) {
  if (v != dflt) add_field(b, slot, 2, false, v);
}
void hr_fbw_add_u32(hr_fbw *b, int slot, uint32_t v, uint32_t dflt) {
  if (v != dflt) add_field(b, slot, 4, false, v);
}
void hr_fbw_add_ref(hr_fbw *b, int slot, hr_fbw_ref r) {
  if (r) add_field(b, slot, 4, true, r);
}

/* Writes the fields (smallest first, so the larger ones sit at the lower addresses with little
 * padding), the table's soffset, then its vtable right before it. */
hr_fbw_ref hr_fbw_table_end(hr_fbw *b) {
  uint32_t dist[HR_FBW_MAX_SLOTS] = {0};
  int n_slots = 0;
  for (int size = 1; size <= 4; size *= 2)
    for (int i = 0; i < b->n_fields; i++) {
      const struct hr_fbw_field *f = &b->fields[i];
      if (f->size != size) continue;
      prep(b, (size_t)size, (size_t)size);
      push(b, NULL, (size_t)size);
      if (b->failed) break;
      uint32_t v = f->is_ref ? offset_to(b, f->value) : f->value;
      memcpy(b->buf + b->cap - b->used, &v, (size_t)size); /* the low bytes: little-endian */
      dist[f->slot] = (uint32_t)b->used;
      if (f->slot + 1 > n_slots) n_slots = f->slot + 1;
    }
  uint16_t vtable[2 + HR_FBW_MAX_SLOTS] = {0};
  uint16_t vt_size = (uint16_t)(4 + 2 * n_slots);
  prep(b, 4, 4);
  int32_t soffset = vt_size;
  push(b, &soffset, 4);
  size_t table = b->used;
  if (table - b->table_start > UINT16_MAX)
    hr_fbw_fail(b, hr_error(HR_RESOURCE_EXHAUSTED, "FlatBuffer: a table of more than 65535 bytes"));
  vtable[0] = vt_size;
  vtable[1] = (uint16_t)(table - b->table_start);
  for (int i = 0; i < b->n_fields; i++)
    vtable[2 + b->fields[i].slot] = (uint16_t)(table - dist[b->fields[i].slot]);
  push(b, vtable, vt_size);
  b->in_table = false;
  return b->failed ? 0 : (hr_fbw_ref)table;
}

hr_status hr_fbw_finish(hr_fbw *b, hr_fbw_ref root, hr_strbuf *out) {
  prep(b, b->max_align > 4 ? b->max_align : 4, 4);
  push(b, NULL, 4);
  if (b->failed) {
    hr_status s = b->error;
    b->error = NULL;
    return s;
  }
  uint32_t off = offset_to(b, root); /* the root offset sits at position 0 */
  memcpy(b->buf + b->cap - b->used, &off, 4);
  hr_strbuf_append(out, (const char *)b->buf + b->cap - b->used, b->used);
  return hr_strbuf_status(out);
}

/* The bounds-checked FlatBuffer reader (flatbuf.h). Positions are size_t offsets into the buffer;
 * every one computed from buffer contents is checked against fb->len before it is dereferenced. */
#include "formats/jaxexport/flatbuf.h"

#include <stdio.h>
#include <string.h>

uint16_t hr_fb_load_u16(const uint8_t *p) { return (uint16_t)(p[0] | (uint16_t)p[1] << 8); }

uint32_t hr_fb_load_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A parse error at buffer position `pos`. */
static hr_status fb_error_at(const hr_fb *fb, size_t pos, const char *what, const char *problem) {
  return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s: %s", fb->filename, pos, what, problem);
}

/* Whether `n` bytes from `pos` lie inside the buffer. */
static bool fb_fits(const hr_fb *fb, size_t pos, size_t n) { return pos <= fb->len && n <= fb->len - pos; }

hr_status hr_fb_init(hr_fb *fb, const char *filename, const uint8_t *data, size_t len) {
  fb->filename = filename ? filename : "<buffer>";
  fb->data = data;
  fb->len = len;
  fb->tables_left = len / 4 + 1;
  if (len > HR_LIMIT_FB_BYTES)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: %zu bytes: a FlatBuffer holds at most %zu", fb->filename, len,
                    HR_LIMIT_FB_BYTES);
  if (len && !data) return hr_error(HR_INVALID_ARGUMENT, "%s: no data", fb->filename);
  return NULL;
}

/* Opens the table at `pos` (reached at nesting `depth`): checks its vtable and size. */
static hr_status fb_open_table(hr_fb *fb, size_t pos, int depth, const char *what, hr_fb_table *out) {
  if (depth > HR_LIMIT_FB_DEPTH)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: offset %zu: %s: tables nested deeper than %d", fb->filename, pos,
                    what, HR_LIMIT_FB_DEPTH);
  if (fb->tables_left == 0)
    return hr_error(HR_RESOURCE_EXHAUSTED,
                    "%s: offset %zu: %s: more tables read than the file could hold (shared subtables?)",
                    fb->filename, pos, what);
  fb->tables_left--;
  if (pos % 4 != 0) return fb_error_at(fb, pos, what, "table is not 4-byte aligned");
  if (!fb_fits(fb, pos, 4)) return fb_error_at(fb, pos, what, "table starts past the end of the file");
  int32_t soff = (int32_t)hr_fb_load_u32(fb->data + pos);
  int64_t vt = (int64_t)pos - (int64_t)soff;
  if (vt < 0 || fb->len < 4 || (uint64_t)vt > fb->len - 4) {
    char msg[96];
    snprintf(msg, sizeof msg, "its vtable (at %lld) lies outside the %zu-byte file", (long long)vt, fb->len);
    return fb_error_at(fb, pos, what, msg);
  }
  size_t vtable = (size_t)vt;
  if (vtable % 2 != 0) return fb_error_at(fb, pos, what, "its vtable is not 2-byte aligned");
  uint16_t vt_size = hr_fb_load_u16(fb->data + vtable), size = hr_fb_load_u16(fb->data + vtable + 2);
  if (vt_size < 4 || vt_size % 2 != 0 || !fb_fits(fb, vtable, vt_size)) {
    char msg[96];
    snprintf(msg, sizeof msg, "vtable at %zu has a bad size %u", vtable, (unsigned)vt_size);
    return fb_error_at(fb, pos, what, msg);
  }
  if (size < 4 || !fb_fits(fb, pos, size)) {
    char msg[96];
    snprintf(msg, sizeof msg, "table size %u runs past the end of the %zu-byte file", (unsigned)size, fb->len);
    return fb_error_at(fb, pos, what, msg);
  }
  *out = (hr_fb_table){.pos = pos, .vtable = vtable, .vt_size = vt_size, .size = size, .depth = depth};
  return NULL;
}

hr_status hr_fb_root(hr_fb *fb, hr_fb_table *out) {
  if (fb->len < 8)
    return hr_error(HR_PARSE_ERROR, "%s: %zu bytes: too short for a FlatBuffer (a root offset and a table)",
                    fb->filename, fb->len);
  return fb_open_table(fb, hr_fb_load_u32(fb->data), 0, "root table", out);
}

int hr_fb_num_slots(const hr_fb_table *t) { return (t->vt_size - 4) / 2; }

/* The field offset (from the table start) of `slot`, 0 when absent. */
static uint16_t fb_field_offset(const hr_fb *fb, const hr_fb_table *t, int slot) {
  if (slot < 0 || slot >= hr_fb_num_slots(t)) return 0;
  return hr_fb_load_u16(fb->data + t->vtable + 4 + 2 * (size_t)slot);
}

bool hr_fb_has(const hr_fb *fb, const hr_fb_table *t, int slot) { return fb_field_offset(fb, t, slot) != 0; }

/* Finds the `size`-byte field at `slot`: *pos is its buffer position, 0 when absent. */
static hr_status fb_field(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, size_t size,
                          size_t *pos) {
  uint16_t off = fb_field_offset(fb, t, slot);
  *pos = 0;
  if (off == 0) return NULL;
  if (off < 4 || off > t->size || size > (size_t)(t->size - off)) {
    char msg[96];
    snprintf(msg, sizeof msg, "field at +%u (%zu bytes) lies outside its %u-byte table", (unsigned)off, size,
             (unsigned)t->size);
    return fb_error_at(fb, t->pos, what, msg);
  }
  if ((t->pos + off) % size != 0) return fb_error_at(fb, t->pos + off, what, "field is not aligned to its size");
  *pos = t->pos + off;
  return NULL;
}

hr_status hr_fb_u8(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, uint8_t dflt, uint8_t *out) {
  size_t pos;
  HR_TRY(fb_field(fb, t, slot, what, 1, &pos));
  *out = pos ? fb->data[pos] : dflt;
  return NULL;
}

hr_status hr_fb_u16(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, uint16_t dflt,
                    uint16_t *out) {
  size_t pos;
  HR_TRY(fb_field(fb, t, slot, what, 2, &pos));
  *out = pos ? hr_fb_load_u16(fb->data + pos) : dflt;
  return NULL;
}

hr_status hr_fb_i16(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, int16_t dflt, int16_t *out) {
  uint16_t v;
  HR_TRY(hr_fb_u16(fb, t, slot, what, (uint16_t)dflt, &v));
  *out = (int16_t)v;
  return NULL;
}

hr_status hr_fb_u32(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, uint32_t dflt,
                    uint32_t *out) {
  size_t pos;
  HR_TRY(fb_field(fb, t, slot, what, 4, &pos));
  *out = pos ? hr_fb_load_u32(fb->data + pos) : dflt;
  return NULL;
}

/* Follows the uoffset stored at `field`: *target is where it points, checked to leave room for
 * `min_size` bytes there. */
static hr_status fb_follow(const hr_fb *fb, size_t field, const char *what, size_t min_size, size_t *target) {
  uint32_t uoff = hr_fb_load_u32(fb->data + field);
  if (uoff == 0) return fb_error_at(fb, field, what, "reference points at itself");
  if (!fb_fits(fb, field, (size_t)uoff) || !fb_fits(fb, field + uoff, min_size)) {
    char msg[96];
    snprintf(msg, sizeof msg, "reference to %zu lies outside the %zu-byte file", field + (size_t)uoff, fb->len);
    return fb_error_at(fb, field, what, msg);
  }
  *target = field + uoff;
  return NULL;
}

hr_status hr_fb_table_field(hr_fb *fb, const hr_fb_table *t, int slot, const char *what, hr_fb_table *out,
                            bool *present) {
  size_t field = 0, target = 0;
  *present = false;
  HR_TRY(fb_field(fb, t, slot, what, 4, &field));
  if (!field) return NULL;
  HR_TRY(fb_follow(fb, field, what, 4, &target));
  HR_TRY(fb_open_table(fb, target, t->depth + 1, what, out));
  *present = true;
  return NULL;
}

/* Reads the string whose length word is at `pos`. */
static hr_status fb_string_at(const hr_fb *fb, size_t pos, const char *what, hr_fb_string *out) {
  if (pos % 4 != 0) return fb_error_at(fb, pos, what, "string is not 4-byte aligned");
  uint32_t n = hr_fb_load_u32(fb->data + pos);
  if (!fb_fits(fb, pos + 4, (size_t)n + 1)) {
    char msg[96];
    snprintf(msg, sizeof msg, "string of %u bytes runs past the end of the %zu-byte file", (unsigned)n, fb->len);
    return fb_error_at(fb, pos, what, msg);
  }
  if (fb->data[pos + 4 + n] != 0) return fb_error_at(fb, pos, what, "string does not end in a NUL");
  *out = (hr_fb_string){.present = true, .pos = pos, .data = (const char *)fb->data + pos + 4, .len = n};
  return NULL;
}

hr_status hr_fb_string_field(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, hr_fb_string *out) {
  size_t field = 0, target = 0;
  *out = (hr_fb_string){0};
  HR_TRY(fb_field(fb, t, slot, what, 4, &field));
  if (!field) return NULL;
  HR_TRY(fb_follow(fb, field, what, 4, &target));
  return fb_string_at(fb, target, what, out);
}

hr_status hr_fb_vector_field(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, size_t elem_size,
                             hr_fb_vector *out) {
  size_t field = 0, target = 0;
  *out = (hr_fb_vector){.elem_size = elem_size, .depth = t->depth};
  HR_TRY(fb_field(fb, t, slot, what, 4, &field));
  if (!field) return NULL;
  HR_TRY(fb_follow(fb, field, what, 4, &target));
  if (target % 4 != 0) return fb_error_at(fb, target, what, "vector is not 4-byte aligned");
  uint32_t n = hr_fb_load_u32(fb->data + target);
  size_t room = fb->len - (target + 4);
  if (elem_size == 0 || n > room / elem_size) {
    char msg[112];
    snprintf(msg, sizeof msg, "vector of %u elements of %zu bytes runs past the end of the %zu-byte file",
             (unsigned)n, elem_size, fb->len);
    return fb_error_at(fb, target, what, msg);
  }
  if ((target + 4) % (elem_size > 4 ? elem_size : 1) != 0)
    return fb_error_at(fb, target, what, "vector elements are not aligned to their size");
  *out = (hr_fb_vector){
      .present = true, .field = field, .pos = target + 4, .count = n, .elem_size = elem_size, .depth = t->depth};
  return NULL;
}

/* The position of element `i` of a vector of uoffsets, checked. */
static hr_status fb_ref_element(const hr_fb *fb, const hr_fb_vector *v, uint32_t i, const char *what,
                                size_t *field) {
  if (i >= v->count || v->elem_size != 4) {
    char msg[64];
    snprintf(msg, sizeof msg, "element %u of a %u-element vector", (unsigned)i, (unsigned)v->count);
    return fb_error_at(fb, v->pos, what, msg);
  }
  *field = v->pos + (size_t)i * 4;
  return NULL;
}

hr_status hr_fb_vector_table(hr_fb *fb, const hr_fb_vector *v, uint32_t i, const char *what, hr_fb_table *out) {
  size_t field = 0, target = 0;
  HR_TRY(fb_ref_element(fb, v, i, what, &field));
  HR_TRY(fb_follow(fb, field, what, 4, &target));
  return fb_open_table(fb, target, v->depth + 1, what, out);
}

hr_status hr_fb_vector_string(const hr_fb *fb, const hr_fb_vector *v, uint32_t i, const char *what,
                              hr_fb_string *out) {
  size_t field = 0, target = 0;
  HR_TRY(fb_ref_element(fb, v, i, what, &field));
  HR_TRY(fb_follow(fb, field, what, 4, &target));
  return fb_string_at(fb, target, what, out);
}

uint8_t hr_fb_vector_u8(const hr_fb *fb, const hr_fb_vector *v, uint32_t i) {
  return i < v->count && v->elem_size == 1 ? fb->data[v->pos + i] : 0;
}

uint16_t hr_fb_vector_u16(const hr_fb *fb, const hr_fb_vector *v, uint32_t i) {
  return i < v->count && v->elem_size == 2 ? hr_fb_load_u16(fb->data + v->pos + (size_t)i * 2) : 0;
}

uint32_t hr_fb_vector_u32(const hr_fb *fb, const hr_fb_vector *v, uint32_t i) {
  return i < v->count && v->elem_size == 4 ? hr_fb_load_u32(fb->data + v->pos + (size_t)i * 4) : 0;
}

/* A small bounds-checked FlatBuffer reader (https://flatbuffers.dev/internals/), for files that come
 * from outside: every offset and size read from the buffer is checked against it before use, and
 * every error names the file and the byte offset at fault ("model.bin: offset 52: ...").
 *
 * What it checks, as FlatBuffers' own verifier does with its defaults: the root offset, each
 * table's vtable (inside the buffer, 2-aligned, at least 4 bytes, an even size) and table size,
 * each field lying inside its table and aligned to its size, each reference (uoffset) landing
 * inside the buffer, vectors and strings fitting the buffer with their elements, strings ending in
 * their NUL, tables nested at most HR_LIMIT_FB_DEPTH deep, and at most one table opened per 4 bytes
 * of buffer (FlatBuffers offsets only point forward, so a well-formed buffer has no cycles, but
 * shared subobjects could otherwise make a small file cost exponential work).
 *
 * Scalars are little-endian; a field absent from the vtable reads as its schema default. Slots are
 * 0-based in declaration order (deprecated fields keep theirs). Nothing here allocates. */
#ifndef HLORUN_FORMATS_JAXEXPORT_FLATBUF_H
#define HLORUN_FORMATS_JAXEXPORT_FLATBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "hlorun/hlorun.h"


/* A buffer being read: its bytes and what remains of its table budget. */
typedef struct hr_fb {
  const char *filename; /* for messages */
  const uint8_t *data;
  size_t len;
  size_t tables_left; /* tables that may still be opened (len / 4 + 1 at the start) */
} hr_fb;

/* An opened table. */
typedef struct hr_fb_table {
  size_t pos;       /* where the table starts (its soffset to the vtable) */
  size_t vtable;    /* where its vtable starts */
  uint16_t vt_size; /* vtable bytes: 4 + 2 per slot it lists */
  uint16_t size;    /* table bytes, the soffset included */
  int depth;        /* 0 for the root */
} hr_fb_table;

/* A vector: `count` elements of `elem_size` bytes from `pos` (after its length word). For vectors
 * of tables or strings the elements are uoffsets (4 bytes). `present` is false for an absent field,
 * which reads as an empty vector. */
typedef struct hr_fb_vector {
  bool present;
  size_t field;     /* where its reference is (for messages), 0 when absent */
  size_t pos;
  uint32_t count;
  size_t elem_size;
  int depth; /* depth of the table holding it */
} hr_fb_vector;

/* A string: `len` bytes at `data` followed by a NUL (both inside the buffer). */
typedef struct hr_fb_string {
  bool present;
  size_t pos; /* where its length word is */
  const char *data;
  size_t len;
} hr_fb_string;

/* Starts reading `len` bytes at `data`; fails when `len` is over HR_LIMIT_FB_BYTES. */
hr_status hr_fb_init(hr_fb *fb, const char *filename, const uint8_t *data, size_t len);
/* Opens the root table (the uoffset at offset 0). */
hr_status hr_fb_root(hr_fb *fb, hr_fb_table *out);

/* The number of slots `t`'s vtable lists (later slots are absent: written before they existed). */
int hr_fb_num_slots(const hr_fb_table *t);
/* Whether slot `slot` of `t` is present (non-zero in its vtable). */
bool hr_fb_has(const hr_fb *fb, const hr_fb_table *t, int slot);

/* Scalar fields: the value at slot `slot`, or `dflt` when absent. `what` names the field in
 * messages. */
hr_status hr_fb_u8(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, uint8_t dflt, uint8_t *out);
hr_status hr_fb_u16(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, uint16_t dflt,
                    uint16_t *out);
hr_status hr_fb_i16(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, int16_t dflt, int16_t *out);
hr_status hr_fb_u32(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, uint32_t dflt,
                    uint32_t *out);

/* Reference fields. An absent one gives `present` false (and for a table, `out` untouched). */
hr_status hr_fb_table_field(hr_fb *fb, const hr_fb_table *t, int slot, const char *what, hr_fb_table *out,
                            bool *present);
hr_status hr_fb_string_field(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, hr_fb_string *out);
hr_status hr_fb_vector_field(const hr_fb *fb, const hr_fb_table *t, int slot, const char *what, size_t elem_size,
                             hr_fb_vector *out);

/* Elements of vectors, i < v->count (checked). */
hr_status hr_fb_vector_table(hr_fb *fb, const hr_fb_vector *v, uint32_t i, const char *what, hr_fb_table *out);
hr_status hr_fb_vector_string(const hr_fb *fb, const hr_fb_vector *v, uint32_t i, const char *what,
                              hr_fb_string *out);
/* Scalar elements: the vector was opened with the matching elem_size, so these cannot fail. */
uint8_t hr_fb_vector_u8(const hr_fb *fb, const hr_fb_vector *v, uint32_t i);
uint16_t hr_fb_vector_u16(const hr_fb *fb, const hr_fb_vector *v, uint32_t i);
uint32_t hr_fb_vector_u32(const hr_fb *fb, const hr_fb_vector *v, uint32_t i);

/* Little-endian loads from a buffer position the caller has checked. */
uint16_t hr_fb_load_u16(const uint8_t *p);
uint32_t hr_fb_load_u32(const uint8_t *p);

#endif

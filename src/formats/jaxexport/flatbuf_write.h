/* A small FlatBuffer builder (https://flatbuffers.dev/internals/), the writing half of flatbuf.h.
 *
 * As FlatBuffers' own builders do, it fills its buffer from the back: an object is finished before
 * the objects that refer to it, so every reference (an unsigned offset) points forward, to a higher
 * address. Objects are named by their offset from the buffer's end (hr_fbw_ref), which does not
 * change as the buffer grows. Every scalar, vector element and table field is aligned to its size
 * relative to the buffer's start, and a table's vtable lies right before it.
 *
 * Errors (out of memory, a buffer past HR_LIMIT_FB_BYTES, more slots than HR_FBW_MAX_SLOTS) are
 * sticky: the calls after one do nothing, and hr_fbw_finish reports it. */
#ifndef HLORUN_FORMATS_JAXEXPORT_FLATBUF_WRITE_H
#define HLORUN_FORMATS_JAXEXPORT_FLATBUF_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "hlorun/hlorun.h"

/* The most slots one table may have (Exported has 27). */
enum { HR_FBW_MAX_SLOTS = 32 };

/* A finished object: its offset from the buffer's end. 0 is no object (an absent field). */
typedef uint32_t hr_fbw_ref;

typedef struct hr_fbw {
  const hr_allocator *a;
  uint8_t *buf; /* the bytes are buf[cap - used .. cap) */
  size_t cap, used;
  size_t max_align; /* the largest alignment seen: the finished buffer's size is a multiple of it */
  bool failed;
  hr_status error; /* the first error */
  /* The table being built (hr_fbw_table_begin .. hr_fbw_table_end). */
  bool in_table;
  size_t table_start; /* `used` when the table began */
  int n_fields;
  struct hr_fbw_field {
    int slot;
    int size;       /* 1, 2 or 4 bytes */
    bool is_ref;    /* the value is an hr_fbw_ref, written as an offset to it */
    uint32_t value; /* the scalar, or the ref */
  } fields[HR_FBW_MAX_SLOTS];
} hr_fbw;

void hr_fbw_init(hr_fbw *b, const hr_allocator *a);
void hr_fbw_free(hr_fbw *b);
/* Records an error of the caller's (e.g. out of memory): hr_fbw_finish returns the first one. */
void hr_fbw_fail(hr_fbw *b, hr_status s);
/* An array of `n` refs from the builder's allocator (NULL, the builder failed, when out of memory);
 * free it with hr_fbw_free_refs. */
hr_fbw_ref *hr_fbw_alloc_refs(hr_fbw *b, size_t n);
void hr_fbw_free_refs(hr_fbw *b, hr_fbw_ref *refs);

/* Objects. Strings get their NUL; vectors of scalars hold `count` elements of `elem_size` (1, 2,
 * 4 or 8) bytes each, copied from `data` (little-endian host); vectors of objects hold refs. */
hr_fbw_ref hr_fbw_string(hr_fbw *b, const char *s, size_t len);
hr_fbw_ref hr_fbw_cstring(hr_fbw *b, const char *s);
hr_fbw_ref hr_fbw_scalars(hr_fbw *b, const void *data, size_t count, size_t elem_size);
hr_fbw_ref hr_fbw_refs(hr_fbw *b, const hr_fbw_ref *refs, size_t count);

/* Tables: begin, add fields in any order (at most one per slot), end. A scalar equal to its
 * schema default and a 0 ref are left out, as FlatBuffers' builders leave them. Tables do not
 * nest: finish the objects a table refers to before beginning it. */
void hr_fbw_table_begin(hr_fbw *b);
void hr_fbw_add_u8(hr_fbw *b, int slot, uint8_t v, uint8_t dflt);
void hr_fbw_add_u16(hr_fbw *b, int slot, uint16_t v, uint16_t dflt);
void hr_fbw_add_u32(hr_fbw *b, int slot, uint32_t v, uint32_t dflt);
void hr_fbw_add_ref(hr_fbw *b, int slot, hr_fbw_ref r);
hr_fbw_ref hr_fbw_table_end(hr_fbw *b);

/* Writes the root offset to `root` and appends the whole buffer to `out`. */
hr_status hr_fbw_finish(hr_fbw *b, hr_fbw_ref root, hr_strbuf *out);

#endif

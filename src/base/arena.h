/* Arena: a bump allocator that frees everything at once. IR modules live in one arena. */
#ifndef HLORUN_BASE_ARENA_H
#define HLORUN_BASE_ARENA_H

#include <stddef.h>

#include "hlorun/hlorun.h"

typedef struct hr_arena_chunk hr_arena_chunk;

typedef struct hr_arena {
  const hr_allocator *allocator;
  hr_arena_chunk *chunks; /* most recent first */
  hr_arena_chunk *spare;  /* chunks freed by hr_arena_rewind, reused before allocating new ones */
  size_t used_bytes;      /* total bytes handed out, for limits and statistics */
} hr_arena;

/* A point in an arena's allocation history (hr_arena_mark). */
typedef struct hr_arena_pos {
  hr_arena_chunk *chunk; /* the front chunk then (NULL: none) */
  size_t used;           /* its bytes in use then */
  size_t used_bytes;
} hr_arena_pos;

void hr_arena_init(hr_arena *arena, const hr_allocator *allocator);
/* Frees every chunk; the arena can be reused afterwards. */
void hr_arena_release(hr_arena *arena);
/* Returns `size` bytes aligned to `align` (power of two <= 64), or NULL when out of memory. */
void *hr_arena_alloc(hr_arena *arena, size_t size, size_t align);
/* Zero-filled array of n elements of `size` bytes; NULL on overflow or out of memory. */
/* The current point: hr_arena_rewind(arena, pos) later frees what was allocated after it. */
hr_arena_pos hr_arena_mark(const hr_arena *arena);
/* Frees everything allocated since `pos` (which must be a mark of this arena taken after its
 * last rewind to an earlier point) and keeps the freed chunks for reuse, so that memory used for
 * temporaries over and over is touched (page-faulted) once. */
void hr_arena_rewind(hr_arena *arena, hr_arena_pos pos);
void *hr_arena_calloc(hr_arena *arena, size_t n, size_t size, size_t align);
/* Copies `len` bytes of `s` and appends a NUL. */
char *hr_arena_strndup(hr_arena *arena, const char *s, size_t len);
char *hr_arena_strdup(hr_arena *arena, const char *s);

#define HR_ARENA_NEW(arena, T) ((T *)hr_arena_calloc((arena), 1, sizeof(T), _Alignof(T)))
#define HR_ARENA_ARRAY(arena, T, n) ((T *)hr_arena_calloc((arena), (n), sizeof(T), _Alignof(T)))

#endif

#include "base/arena.h"

#include <stdint.h>
#include <string.h>

/* Under AddressSanitizer, memory given back by hr_arena_rewind is poisoned until it is handed out
 * again, so a pointer kept past a rewind is reported instead of silently reading reused memory. */
#if defined(__SANITIZE_ADDRESS__)
#define HR_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HR_ARENA_ASAN 1
#endif
#endif
#ifdef HR_ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct hr_arena_chunk {
  hr_arena_chunk *next;
  size_t capacity; /* bytes in data[] */
  size_t used;
  _Alignas(64) unsigned char data[];
};

enum { ARENA_MIN_CHUNK = 64 * 1024 };

void hr_arena_init(hr_arena *arena, const hr_allocator *allocator) {
  arena->allocator = allocator ? allocator : hr_default_allocator();
  arena->chunks = NULL;
  arena->spare = NULL;
  arena->used_bytes = 0;
}

static void free_chunks(const hr_allocator *a, hr_arena_chunk *c) {
  while (c) {
    hr_arena_chunk *next = c->next;
    UNPOISON(c->data, c->capacity);
    a->free(a->ctx, c);
    c = next;
  }
}

void hr_arena_release(hr_arena *arena) {
  free_chunks(arena->allocator, arena->chunks);
  free_chunks(arena->allocator, arena->spare);
  arena->chunks = NULL;
  arena->spare = NULL;
  arena->used_bytes = 0;
}

hr_arena_pos hr_arena_mark(const hr_arena *arena) {
  hr_arena_chunk *c = arena->chunks;
  return (hr_arena_pos){c, c ? c->used : 0, arena->used_bytes};
}

void hr_arena_rewind(hr_arena *arena, hr_arena_pos pos) {
  /* Chunks in front of the marked one are newer; large chunks that were linked in behind the
   * front chunk stay until the arena is released. */
  while (arena->chunks && arena->chunks != pos.chunk) {
    hr_arena_chunk *c = arena->chunks;
    arena->chunks = c->next;
    c->next = arena->spare;
    arena->spare = c;
    POISON(c->data, c->capacity);
  }
  if (arena->chunks) {
    POISON(arena->chunks->data + pos.used, arena->chunks->used - pos.used);
    arena->chunks->used = pos.used;
  }
  arena->used_bytes = pos.used_bytes;
}

/* A spare chunk with room for `size` bytes, unlinked from the spare list; NULL if none. */
static hr_arena_chunk *take_spare(hr_arena *arena, size_t size) {
  for (hr_arena_chunk **link = &arena->spare; *link; link = &(*link)->next) {
    hr_arena_chunk *c = *link;
    if (c->capacity >= size) {
      *link = c->next;
      return c;
    }
  }
  return NULL;
}

void *hr_arena_alloc(hr_arena *arena, size_t size, size_t align) {
  if (align == 0) align = 1;
  hr_arena_chunk *c = arena->chunks;
  if (c) {
    size_t off = (c->used + align - 1) & ~(align - 1);
    if (off <= c->capacity && size <= c->capacity - off) {
      c->used = off + size;
      arena->used_bytes += size;
      UNPOISON(c->data + off, size);
      return c->data + off;
    }
  }
  /* New chunk: large requests get a chunk of their own, small ones share a 64 KiB chunk. */
  if (size > SIZE_MAX - sizeof(hr_arena_chunk) - 64) return NULL;
  c = take_spare(arena, size);
  if (!c) {
    size_t cap = size < ARENA_MIN_CHUNK ? ARENA_MIN_CHUNK : size;
    c = arena->allocator->alloc(arena->allocator->ctx, sizeof(hr_arena_chunk) + cap, 64);
    if (!c) return NULL;
    c->capacity = cap;
  }
  c->used = size;
  UNPOISON(c->data, size);
  if (arena->chunks && size >= ARENA_MIN_CHUNK) {
    /* Keep the partially used chunk in front so small allocations keep filling it. */
    c->next = arena->chunks->next;
    arena->chunks->next = c;
  } else {
    c->next = arena->chunks;
    arena->chunks = c;
  }
  arena->used_bytes += size;
  return c->data;
}

void *hr_arena_calloc(hr_arena *arena, size_t n, size_t size, size_t align) {
  if (size != 0 && n > SIZE_MAX / size) return NULL;
  void *p = hr_arena_alloc(arena, n * size, align);
  if (p) memset(p, 0, n * size);
  return p;
}

char *hr_arena_strndup(hr_arena *arena, const char *s, size_t len) {
  if (len == SIZE_MAX) return NULL;
  char *p = hr_arena_alloc(arena, len + 1, 1);
  if (!p) return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *hr_arena_strdup(hr_arena *arena, const char *s) { return hr_arena_strndup(arena, s, strlen(s)); }

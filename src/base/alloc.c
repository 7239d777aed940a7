/* The default allocator: aligned malloc/free. */
#include <stdlib.h>

#include "hlorun/hlorun.h"

static void *default_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  if (align < sizeof(void *)) align = sizeof(void *);
  if (size == 0) size = 1;
  void *p = NULL;
  if (posix_memalign(&p, align, size) != 0) return NULL;
  return p;
}

static void default_free(void *ctx, void *ptr) {
  (void)ctx;
  free(ptr);
}

static const hr_allocator default_allocator = {default_alloc, default_free, NULL};

const hr_allocator *hr_default_allocator(void) { return &default_allocator; }

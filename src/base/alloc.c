/* The default allocator: aligned malloc/free. Large blocks (executable arenas, packed weights)
 * are aligned to 2 MiB and marked for transparent huge pages, which saves TLB misses and page
 * faults when they are first touched. */
#include <stdlib.h>
#include <sys/mman.h>

#include "hlorun/hlorun.h"

enum { HUGE_PAGE = 2 << 20 };

static void *default_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  if (align < sizeof(void *)) align = sizeof(void *);
  if (size == 0) size = 1;
  bool huge = size >= 2 * (size_t)HUGE_PAGE;
  if (huge && align < HUGE_PAGE) align = HUGE_PAGE;
  void *p = NULL;
  if (posix_memalign(&p, align, size) != 0) return NULL;
  if (huge) madvise(p, size - size % HUGE_PAGE, MADV_HUGEPAGE); /* a hint; failure is harmless */
  return p;
}

static void default_free(void *ctx, void *ptr) {
  (void)ctx;
  free(ptr);
}

static const hr_allocator default_allocator = {default_alloc, default_free, NULL};

const hr_allocator *hr_default_allocator(void) { return &default_allocator; }

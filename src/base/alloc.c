/* The default allocator: aligned malloc/free. Blocks of 2 MiB and more (executable arenas,
 * packed weights) are aligned to 2 MiB, rounded up to whole 2 MiB pages and marked for
 * transparent huge pages: a fresh 4 KiB page costs a page fault when first touched, about 12 us
 * in a virtual machine (16 MiB: 48 ms), a huge page 512 times fewer. */
#include <stdlib.h>
#include <sys/mman.h>

#include "hlorun/hlorun.h"

enum { HUGE_PAGE = 2 << 20 };

static void *default_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  if (align < sizeof(void *)) align = sizeof(void *);
  if (size == 0) size = 1;
  bool huge = size >= HUGE_PAGE && size <= SIZE_MAX - HUGE_PAGE;
  if (huge) {
    size = (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    if (align < HUGE_PAGE) align = HUGE_PAGE;
  }
  void *p = NULL;
  if (posix_memalign(&p, align, size) != 0) return NULL;
  if (huge) madvise(p, size, MADV_HUGEPAGE); /* a hint; failure is harmless */
  return p;
}

static void default_free(void *ctx, void *ptr) {
  (void)ctx;
  free(ptr);
}

static const hr_allocator default_allocator = {default_alloc, default_free, NULL};

const hr_allocator *hr_default_allocator(void) { return &default_allocator; }

/* An LD_PRELOAD shim for test_no_allocation_per_token.sh: counts the calls of malloc, calloc,
 * realloc, aligned_alloc and posix_memalign of a process and prints the count on stderr at exit
 * ("allocations: N"). calloc is served from a static buffer until dlsym has found the real one
 * (dlsym itself calls calloc). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_long calls;
static char early[65536]; /* calloc's memory while dlsym looks up the real calloc */
static size_t early_used;

void *malloc(size_t size) {
  static void *(*real)(size_t);
  if (!real) real = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
  atomic_fetch_add(&calls, 1);
  return real(size);
}

void *calloc(size_t n, size_t size) {
  static void *(*real)(size_t, size_t);
  static atomic_bool looking;
  if (!real) {
    if (atomic_exchange(&looking, true) || !(real = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc"))) {
      size_t bytes = (n * size + 15) & ~(size_t)15;
      if (size && n > sizeof early / size) return NULL;
      if (early_used + bytes > sizeof early) return NULL;
      early_used += bytes;
      return early + early_used - bytes;
    }
  }
  atomic_fetch_add(&calls, 1);
  return real(n, size);
}

void *realloc(void *p, size_t size) {
  static void *(*real)(void *, size_t);
  if (!real) real = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
  atomic_fetch_add(&calls, 1);
  return real(p, size);
}

void *aligned_alloc(size_t align, size_t size) {
  static void *(*real)(size_t, size_t);
  if (!real) real = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
  atomic_fetch_add(&calls, 1);
  return real(align, size);
}

int posix_memalign(void **out, size_t align, size_t size) {
  static int (*real)(void **, size_t, size_t);
  if (!real) real = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
  atomic_fetch_add(&calls, 1);
  return real(out, align, size);
}

void free(void *p) {
  static void (*real)(void *);
  if ((char *)p >= early && (char *)p < early + sizeof early) return;
  if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "free");
  real(p);
}

/* Prints the count when the process exits. */
__attribute__((destructor)) static void report(void) {
  char line[64];
  int n = snprintf(line, sizeof line, "allocations: %ld\n", atomic_load(&calls));
  if (n > 0 && write(2, line, (size_t)n) < 0) return;
}

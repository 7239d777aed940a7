#include "base/mapping.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

hr_status hr_open_regular(const char *path, int *fd, struct stat *st) {
  /* O_NONBLOCK makes opening a FIFO return at once (regular files ignore the flag). */
  *fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (*fd < 0) return hr_error(errno == ENOENT ? HR_NOT_FOUND : HR_IO_ERROR, "%s: %s", path, strerror(errno));
  if (fstat(*fd, st) == 0 && S_ISREG(st->st_mode)) return NULL;
  close(*fd);
  *fd = -1;
  return hr_error(HR_IO_ERROR, "%s: not a regular file", path);
}

hr_status hr_map_fd(int fd, const char *path, size_t len, void **data) {
  /* No MAP_POPULATE: callers validate what they can before the bulk is read. */
  void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) {
    *data = NULL;
    return hr_error(HR_IO_ERROR, "%s: mmap failed: %s", path, strerror(errno));
  }
  madvise(p, len, MADV_WILLNEED); /* a hint: failure changes nothing */
  *data = p;
  return NULL;
}

hr_status hr_map_file(const char *path, size_t max_bytes, void **data, size_t *len) {
  *data = NULL;
  *len = 0;
  int fd;
  struct stat st;
  HR_TRY(hr_open_regular(path, &fd, &st));
  hr_status s = NULL;
  if ((unsigned long long)st.st_size > max_bytes)
    s = hr_error(HR_RESOURCE_EXHAUSTED, "%s: %lld bytes exceed the limit of %zu", path, (long long)st.st_size, max_bytes);
  else if (st.st_size > 0 && !(s = hr_map_fd(fd, path, (size_t)st.st_size, data)))
    *len = (size_t)st.st_size;
  close(fd);
  return s;
}

hr_status hr_map_anonymous(size_t len, void **data) {
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    *data = NULL;
    return hr_error(HR_OUT_OF_MEMORY, "cannot map %zu bytes of memory: %s", len, strerror(errno));
  }
  hr_advise_huge_pages(p, len);
  *data = p;
  return NULL;
}

void hr_unmap_file(void *data, size_t len) {
  if (data && len) munmap(data, len);
}

void hr_advise_huge_pages(void *p, size_t n) {
  uintptr_t begin = ((uintptr_t)p + HR_HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HR_HUGE_PAGE_BYTES - 1);
  uintptr_t end = ((uintptr_t)p + n) & ~(uintptr_t)(HR_HUGE_PAGE_BYTES - 1);
  if (end > begin) madvise((void *)begin, end - begin, MADV_HUGEPAGE);
}

#include "base/mapping.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

hr_status hr_map_file(const char *path, size_t max_bytes, void **data, size_t *len) {
  *data = NULL;
  *len = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return hr_error(errno == ENOENT ? HR_NOT_FOUND : HR_IO_ERROR, "%s: %s", path, strerror(errno));
  struct stat st;
  hr_status s = NULL;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    s = hr_error(HR_IO_ERROR, "%s: not a regular file", path);
  else if ((unsigned long long)st.st_size > max_bytes)
    s = hr_error(HR_RESOURCE_EXHAUSTED, "%s: %lld bytes exceed the limit of %zu", path, (long long)st.st_size, max_bytes);
  if (!s && st.st_size > 0) {
    /* MAP_POPULATE reads the file in now, in bulk, rather than one page fault at a time later. */
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED)
      s = hr_error(HR_IO_ERROR, "%s: mmap failed: %s", path, strerror(errno));
    else {
      *data = p;
      *len = (size_t)st.st_size;
    }
  }
  close(fd);
  return s;
}

void hr_unmap_file(void *data, size_t len) {
  if (data && len) munmap(data, len);
}

/* Read-only file mappings, and the huge-page hint for large buffers. */
#ifndef HLORUN_BASE_MAPPING_H
#define HLORUN_BASE_MAPPING_H

#include <stddef.h>
#include <sys/stat.h>

#include "hlorun/hlorun.h"

/* Opens `path` read-only and checks, with the fstat in *st, that it is a regular file. Opening
 * does not block (a FIFO is refused, not waited on). On error *fd is -1. */
hr_status hr_open_regular(const char *path, int *fd, struct stat *st);
/* Maps the first `len` (> 0) bytes of the open file `fd` read-only (private) and asks the kernel
 * to read them ahead; nothing is read before it returns. `path` names the file in errors. */
hr_status hr_map_fd(int fd, const char *path, size_t len, void **data);
/* Maps `path` read-only (private). Empty files yield data == NULL, len == 0. Files above
 * `max_bytes` are rejected before anything is mapped. */
hr_status hr_map_file(const char *path, size_t max_bytes, void **data, size_t *len);
/* Maps `len` (> 0) bytes of fresh zeroed memory, read-write, with huge pages asked for (hr_advise_huge_pages):
 * a block for many tensors written once (a restored checkpoint), whose pages fault in 2 MiB at a
 * time. Released with hr_unmap_file. */
hr_status hr_map_anonymous(size_t len, void **data);
/* Unmaps a mapping made by hr_map_fd, hr_map_file or hr_map_anonymous (matches hr_backing_release_fn). */
void hr_unmap_file(void *data, size_t len);

/* The size of a transparent huge page on x86-64 Linux. */
#define HR_HUGE_PAGE_BYTES ((size_t)2 << 20)
/* Asks the kernel to back the huge-page-aligned part of [p, p + n) with transparent huge pages:
 * far fewer page faults when the memory is first touched (a fault can cost tens of microseconds
 * in a virtual machine). Only a hint. */
void hr_advise_huge_pages(void *p, size_t n);

#endif

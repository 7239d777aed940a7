/* Whole-file reading with a size bound. */
#ifndef HLORUN_BASE_FILE_H
#define HLORUN_BASE_FILE_H

#include <stddef.h>

#include "hlorun/hlorun.h"

/* Reads `path` into a NUL-terminated buffer allocated with `a` (NULL: default). Files larger than `max_bytes`
 * are rejected with HR_RESOURCE_EXHAUSTED. */
hr_status hr_read_file(const char *path, const hr_allocator *a, size_t max_bytes, char **data,
                       size_t *len);
/* Writes `len` bytes to `path` atomically (temporary file + rename). */
hr_status hr_write_file(const char *path, const void *data, size_t len);
/* The same for `n` parts written one after another (parts[i] of lens[i] bytes). */
hr_status hr_write_file_parts(const char *path, const void *const *parts, const size_t *lens, int n);
/* Creates the directory `path` and its missing parents (as mkdir -p), unless it is one already. */
hr_status hr_make_dir(const char *path);

#endif

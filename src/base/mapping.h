/* Read-only file mappings. */
#ifndef HLORUN_BASE_MAPPING_H
#define HLORUN_BASE_MAPPING_H

#include <stddef.h>

#include "hlorun/hlorun.h"

/* Maps `path` read-only (private). Empty files yield data == NULL, len == 0. Files above
 * `max_bytes` are rejected. */
hr_status hr_map_file(const char *path, size_t max_bytes, void **data, size_t *len);
/* Unmaps a mapping made by hr_map_file (matches hr_backing_release_fn). */
void hr_unmap_file(void *data, size_t len);

#endif

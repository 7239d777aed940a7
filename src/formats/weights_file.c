/* hr_weights_read: a weight source of any kind hlorun reads, told apart by what the path is: a
 * directory is an Orbax checkpoint (formats/orbax), a file a safetensors file. */
#include <sys/stat.h>

#include "hlorun/hlorun.h"

hr_status hr_weights_read(const char *path, const hr_allocator *a, size_t max_bytes, hr_weights **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_weights_read: `out` is NULL");
  *out = NULL;
  if (!path) return hr_error(HR_INVALID_ARGUMENT, "hr_weights_read: `path` is NULL");
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return hr_orbax_read_dir(path, a, max_bytes, out);
  return hr_safetensors_read_file(path, a, max_bytes, out);
}

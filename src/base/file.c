#include "base/file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

hr_status hr_read_file(const char *path, const hr_allocator *a, size_t max_bytes, char **data,
                       size_t *len) {
  *data = NULL;
  *len = 0;
  if (!a) a = hr_default_allocator();
  FILE *f = fopen(path, "rb");
  if (!f) return hr_error(errno == ENOENT ? HR_NOT_FOUND : HR_IO_ERROR, "%s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    return hr_error(HR_IO_ERROR, "%s: not a regular file", path);
  }
  if ((unsigned long long)st.st_size > max_bytes) {
    fclose(f);
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: file is %lld bytes, more than the limit of %zu",
                    path, (long long)st.st_size, max_bytes);
  }
  size_t size = (size_t)st.st_size;
  char *buf = a->alloc(a->ctx, size + 1, 16);
  if (!buf) {
    fclose(f);
    return hr_error(HR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes", path, size + 1);
  }
  size_t got = size ? fread(buf, 1, size, f) : 0;
  int err = ferror(f);
  fclose(f);
  if (got != size || err) {
    a->free(a->ctx, buf);
    return hr_error(HR_IO_ERROR, "%s: short read (%zu of %zu bytes)", path, got, size);
  }
  buf[size] = '\0';
  *data = buf;
  *len = size;
  return NULL;
}

hr_status hr_write_file_parts(const char *path, const void *const *parts, const size_t *lens, int n) {
  size_t plen = strlen(path);
  char *tmp = malloc(plen + 32);
  if (!tmp) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    hr_status s = hr_error(HR_IO_ERROR, "%s: %s", tmp, strerror(errno));
    free(tmp);
    return s;
  }
  bool ok = true;
  for (int i = 0; i < n && ok; i++) ok = !lens[i] || fwrite(parts[i], 1, lens[i], f) == lens[i];
  int err = fclose(f);
  if (!ok || err != 0 || rename(tmp, path) != 0) {
    hr_status s = hr_error(HR_IO_ERROR, "%s: write failed: %s", path, strerror(errno));
    remove(tmp);
    free(tmp);
    return s;
  }
  free(tmp);
  return NULL;
}

hr_status hr_write_file(const char *path, const void *data, size_t len) {
  return hr_write_file_parts(path, &data, &len, 1);
}

/* Creates directory `path` unless it is one already. */
static bool make_one_dir(const char *path) {
  struct stat sb;
  return mkdir(path, 0777) == 0 || (errno == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode));
}

hr_status hr_make_dir(const char *path) {
  char buf[4096];
  size_t n = strlen(path);
  if (n == 0 || n >= sizeof buf) return hr_error(HR_INVALID_ARGUMENT, "%.200s: not a directory path", path);
  memcpy(buf, path, n + 1);
  for (size_t i = 1; i < n; i++) { /* the parents first, as mkdir -p */
    if (buf[i] != '/') continue;
    buf[i] = 0;
    bool ok = make_one_dir(buf);
    buf[i] = '/';
    if (!ok) return hr_error(HR_IO_ERROR, "%.*s: cannot create the directory: %s", (int)i, path, strerror(errno));
  }
  if (make_one_dir(path)) return NULL;
  return hr_error(HR_IO_ERROR, "%s: cannot create the directory: %s", path, strerror(errno));
}

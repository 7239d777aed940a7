/* hr_kvstore_open_dir: a directory as a key-value store. Key "a/0" is the file root/a/0, reached
 * component by component with openat(O_NOFOLLOW) from a descriptor of the root opened once, so
 * that no key can leave the root: "..", "." and empty components and absolute keys are refused,
 * and so is every symbolic link below the root (a link is never followed, wherever it points).
 * Only regular files are values; a FIFO or device is refused before it is read. Listing walks the
 * directories in the byte order of the keys they hold, with bounded depth and entry count. */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/limits.h"
#include "formats/orbax/kvstore.h"

typedef struct kv_dir {
  hr_kvstore base;
  const hr_allocator *a;
  int root_fd;
  char *root; /* the name in messages */
} kv_dir;

/* ---------------------------------------------------------------------------------------------- */
/* Opening a key                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* The error for a failed open of `key` (errno set by openat or fstat). */
static hr_status open_error(const kv_dir *kv, const char *key, int err) {
  if (err == ENOENT || err == ENOTDIR) return hr_error(HR_NOT_FOUND, "%s/%s: no such key", kv->root, key);
  if (err == ELOOP)
    return hr_error(HR_INVALID_ARGUMENT, "%s/%s: the path passes a symbolic link: refused", kv->root, key);
  return hr_error(HR_IO_ERROR, "%s/%s: %s", kv->root, key, strerror(err));
}

/* Checks that `key` is a relative path of plain components within the bounds. */
static hr_status check_key(const kv_dir *kv, const char *key) {
  size_t n = strlen(key);
  if (n == 0 || n >= HR_LIMIT_ORBAX_PATH_BYTES)
    return hr_error(HR_INVALID_ARGUMENT, "%s: key '%.64s' is empty or longer than %d bytes", kv->root, key,
                    HR_LIMIT_ORBAX_PATH_BYTES - 1);
  for (const char *c = key;;) {
    const char *end = strchr(c, '/');
    size_t len = end ? (size_t)(end - c) : strlen(c);
    if (len == 0 || (len == 1 && c[0] == '.') || (len == 2 && c[0] == '.' && c[1] == '.'))
      return hr_error(HR_INVALID_ARGUMENT, "%s: key '%s' has an empty, '.' or '..' component, or is absolute: refused",
                      kv->root, key);
    if (!end) return NULL;
    c = end + 1;
  }
}

/* Opens the regular file `key` below the root; *fd and *size on success. */
static hr_status open_key(const kv_dir *kv, const char *key, int *fd, size_t *size) {
  HR_TRY(check_key(kv, key));
  char comp[HR_LIMIT_ORBAX_PATH_BYTES];
  int dir = kv->root_fd;
  for (const char *c = key;;) {
    const char *end = strchr(c, '/');
    size_t len = end ? (size_t)(end - c) : strlen(c);
    memcpy(comp, c, len);
    comp[len] = '\0';
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below) */
    int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (end ? O_DIRECTORY : O_NONBLOCK);
    int next = openat(dir, comp, flags);
    int err = errno;
    if (dir != kv->root_fd) close(dir);
    if (next < 0) return open_error(kv, key, err);
    dir = next;
    if (!end) break;
    c = end + 1;
  }
  struct stat st;
  if (fstat(dir, &st) != 0) {
    int err = errno;
    close(dir);
    return open_error(kv, key, err);
  }
  if (!S_ISREG(st.st_mode)) {
    close(dir);
    return hr_error(HR_INVALID_ARGUMENT, "%s/%s: not a regular file: refused", kv->root, key);
  }
  *fd = dir;
  *size = (size_t)st.st_size;
  return NULL;
}

static hr_status dir_read(hr_kvstore *base, const char *key, const hr_allocator *a, size_t max_bytes,
                          unsigned char **data, size_t *len) {
  kv_dir *kv = (kv_dir *)base;
  if (!a) a = hr_default_allocator();
  *data = NULL;
  *len = 0;
  int fd;
  size_t size;
  HR_TRY(open_key(kv, key, &fd, &size));
  if (size > max_bytes) {
    close(fd);
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s/%s: %zu bytes exceed the limit of %zu bytes", kv->root, key, size,
                    max_bytes);
  }
  unsigned char *buf = a->alloc(a->ctx, size ? size : 1, 16);
  if (!buf) {
    close(fd);
    return hr_error(HR_OUT_OF_MEMORY, "%s/%s: out of memory for %zu bytes", kv->root, key, size);
  }
  size_t got = 0;
  int err = 0;
  while (got < size) {
    ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) err = errno;
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fd);
  if (got != size) {
    a->free(a->ctx, buf);
    return hr_error(HR_IO_ERROR, "%s/%s: read %zu of %zu bytes (%s)", kv->root, key, got, size,
                    err ? strerror(err) : "the file changed");
  }
  *data = buf;
  *len = size;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Listing                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef struct kv_entry {
  char *name;
  bool dir;
  size_t size;
} kv_entry;

typedef struct kv_listing {
  kv_dir *kv;
  const char *prefix;
  size_t prefix_len;
  hr_kvstore_key_fn fn;
  void *ctx;
  long seen; /* entries looked at so far */
  char key[HR_LIMIT_ORBAX_PATH_BYTES];
} kv_listing;

/* Byte `i` of an entry's name as its keys begin: a directory's name continues with '/'; -1 past
 * the end. */
static int key_byte(const kv_entry *e, size_t i, size_t len) {
  if (i < len) return (unsigned char)e->name[i];
  return i == len && e->dir ? '/' : -1;
}

/* Key order: a directory sorts where its keys sort, as its name followed by '/'. */
static int compare_entries(const void *pa, const void *pb) {
  const kv_entry *a = pa, *b = pb;
  size_t la = strlen(a->name), lb = strlen(b->name);
  for (size_t i = 0;; i++) {
    int x = key_byte(a, i, la), y = key_byte(b, i, lb);
    if (x != y || x < 0) return x - y;
  }
}

static void free_entries(const hr_allocator *a, kv_entry *e, size_t n) {
  for (size_t i = 0; i < n; i++) a->free(a->ctx, e[i].name);
  if (e) a->free(a->ctx, e);
}

/* Reads the directory `fd` into sorted entries: subdirectories and regular files, symbolic links
 * and everything else left out. */
static hr_status read_entries(kv_listing *l, int fd, kv_entry **out, size_t *n_out) {
  const hr_allocator *a = l->kv->a;
  *out = NULL;
  *n_out = 0;
  int dup_fd = dup(fd);
  DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
  if (!d) {
    int err = errno;
    if (dup_fd >= 0) close(dup_fd);
    return hr_error(HR_IO_ERROR, "%s/%s: %s", l->kv->root, l->key, strerror(err));
  }
  kv_entry *e = NULL;
  size_t n = 0, cap = 0;
  hr_status s = NULL;
  for (struct dirent *de = readdir(d); de && !s; de = readdir(d)) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    if (++l->seen > HR_LIMIT_KVSTORE_DIR_ENTRIES) {
      s = hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d entries", l->kv->root, HR_LIMIT_KVSTORE_DIR_ENTRIES);
      break;
    }
    struct stat st;
    if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
      continue;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      kv_entry *ne = a->alloc(a->ctx, ncap * sizeof *ne, _Alignof(kv_entry));
      if (!ne) {
        s = hr_error(HR_OUT_OF_MEMORY, "%s: out of memory listing", l->kv->root);
        break;
      }
      if (n) memcpy(ne, e, n * sizeof *e);
      if (e) a->free(a->ctx, e);
      e = ne;
      cap = ncap;
    }
    size_t len = strlen(de->d_name) + 1;
    char *name = a->alloc(a->ctx, len, 1);
    if (!name) {
      s = hr_error(HR_OUT_OF_MEMORY, "%s: out of memory listing", l->kv->root);
      break;
    }
    memcpy(name, de->d_name, len);
    e[n++] = (kv_entry){name, S_ISDIR(st.st_mode), (size_t)st.st_size};
  }
  closedir(d);
  if (s) {
    free_entries(a, e, n);
    return s;
  }
  if (n) qsort(e, n, sizeof *e, compare_entries);
  *out = e;
  *n_out = n;
  return NULL;
}

/* Whether keys below the current key (l->key, `len` bytes) can begin with the prefix. */
static bool may_match(const kv_listing *l, size_t len) {
  size_t n = len < l->prefix_len ? len : l->prefix_len;
  return memcmp(l->key, l->prefix, n) == 0;
}

/* Lists the directory `fd` (taken over) whose keys begin with l->key[0, len). */
static hr_status list_dir(kv_listing *l, int fd, size_t len, int depth) {
  if (depth > HR_LIMIT_KVSTORE_DIR_DEPTH) {
    close(fd);
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s/%.*s: directories nest deeper than %d levels", l->kv->root, (int)len,
                    l->key, HR_LIMIT_KVSTORE_DIR_DEPTH);
  }
  kv_entry *e;
  size_t n;
  hr_status s = read_entries(l, fd, &e, &n);
  for (size_t i = 0; i < n && !s; i++) {
    size_t nlen = strlen(e[i].name);
    if (len + nlen + 2 > sizeof l->key) {
      s = hr_error(HR_RESOURCE_EXHAUSTED, "%s/%.*s%s: key longer than %zu bytes", l->kv->root, (int)len, l->key,
                   e[i].name, sizeof l->key - 1);
      break;
    }
    memcpy(l->key + len, e[i].name, nlen);
    l->key[len + nlen] = '\0';
    if (e[i].dir) {
      l->key[len + nlen] = '/';
      if (!may_match(l, len + nlen + 1)) continue;
      l->key[len + nlen + 1] = '\0';
      int sub = openat(fd, e[i].name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (sub < 0) s = open_error(l->kv, l->key, errno);
      else s = list_dir(l, sub, len + nlen + 1, depth + 1);
    } else if (len + nlen >= l->prefix_len && may_match(l, len + nlen)) {
      s = l->fn(l->ctx, l->key, e[i].size);
    }
  }
  free_entries(l->kv->a, e, n);
  close(fd);
  return s;
}

static hr_status dir_list(hr_kvstore *base, const char *prefix, hr_kvstore_key_fn fn, void *ctx) {
  kv_dir *kv = (kv_dir *)base;
  kv_listing *l = kv->a->alloc(kv->a->ctx, sizeof *l, _Alignof(kv_listing));
  if (!l) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory listing", kv->root);
  *l = (kv_listing){.kv = kv, .prefix = prefix ? prefix : "", .fn = fn, .ctx = ctx};
  l->prefix_len = strlen(l->prefix);
  int fd = openat(kv->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  hr_status s = fd < 0 ? hr_error(HR_IO_ERROR, "%s: %s", kv->root, strerror(errno)) : list_dir(l, fd, 0, 0);
  kv->a->free(kv->a->ctx, l);
  return s;
}

static void dir_close(hr_kvstore *base) {
  kv_dir *kv = (kv_dir *)base;
  close(kv->root_fd);
  kv->a->free(kv->a->ctx, kv->root);
  kv->a->free(kv->a->ctx, kv);
}

static const hr_kvstore_ops dir_ops = {.read = dir_read, .list = dir_list, .close = dir_close};

hr_status hr_kvstore_open_dir(const char *root, const hr_allocator *a, hr_kvstore **out) {
  if (!a) a = hr_default_allocator();
  *out = NULL;
  int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return hr_error(errno == ENOENT || errno == ENOTDIR ? HR_NOT_FOUND : HR_IO_ERROR, "%s: %s", root,
                              strerror(errno));
  kv_dir *kv = a->alloc(a->ctx, sizeof *kv, _Alignof(kv_dir));
  size_t n = strlen(root) + 1;
  char *name = a->alloc(a->ctx, n, 1);
  if (!kv || !name) {
    close(fd);
    if (kv) a->free(a->ctx, kv);
    if (name) a->free(a->ctx, name);
    return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", root);
  }
  memcpy(name, root, n);
  *kv = (kv_dir){.base = {&dir_ops, name}, .a = a, .root_fd = fd, .root = name};
  *out = &kv->base;
  return NULL;
}

/* Version directories and version policies (versions.h). */
#include "server/versions.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/limits.h"

bool srv_parse_version(const char *name, int64_t *out) {
  if (!name[0]) return false;
  int64_t v = 0;
  for (const char *p = name; *p; p++) {
    if (*p < '0' || *p > '9') return false;
    int d = *p - '0';
    if (v > (INT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (v < 1) return false;
  *out = v;
  return true;
}

hr_status srv_fingerprint_of(const char *path, srv_fingerprint *out) {
  struct stat st;
  if (stat(path, &st) != 0)
    return hr_error(errno == ENOENT ? HR_NOT_FOUND : HR_IO_ERROR, "%s: %s", path, strerror(errno));
  out->dev = (uint64_t)st.st_dev;
  out->ino = (uint64_t)st.st_ino;
  out->size = (int64_t)st.st_size;
  out->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  return NULL;
}

bool srv_fingerprint_equal(const srv_fingerprint *a, const srv_fingerprint *b) {
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

/* "dir/name" in a fresh string. */
static char *join_path(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

/* Whether path is a regular file (following symbolic links). */
static bool is_regular_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether a directory entry name is an artifact name: "*.hlo", not hidden, or a SavedModel's
 * saved_model.pb. */
static bool is_artifact_name(const char *name) {
  size_t n = strlen(name);
  return (n > 4 && name[0] != '.' && strcmp(name + n - 4, ".hlo") == 0) || strcmp(name, "saved_model.pb") == 0;
}

bool srv_is_savedmodel_path(const char *path) {
  const char *slash = strrchr(path, '/');
  return strcmp(slash ? slash + 1 : path, "saved_model.pb") == 0;
}

/* Folds the files of a SavedModel's variables/ directory into fp: their total size added, the
 * latest modification time kept, so that a version still being copied keeps changing. */
static hr_status add_variables(const char *pb_path, srv_fingerprint *fp) {
  char dir[4096];
  const char *slash = strrchr(pb_path, '/');
  int n = snprintf(dir, sizeof dir, "%.*s/variables", slash ? (int)(slash - pb_path) : 1, slash ? pb_path : ".");
  if (n < 0 || (size_t)n >= sizeof dir) return hr_error(HR_INVALID_ARGUMENT, "%s: path too long", pb_path);
  DIR *d = opendir(dir);
  if (!d) return NULL; /* a SavedModel without variables */
  hr_status s = NULL;
  int entries = 0;
  for (struct dirent *e; !s && (e = readdir(d)) != NULL;) {
    if (++entries > HR_LIMIT_DIR_ENTRIES) s = hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d entries", dir, HR_LIMIT_DIR_ENTRIES);
    if (s || e->d_name[0] == '.') continue;
    char *path = join_path(dir, e->d_name);
    srv_fingerprint f = {0};
    if (!path) s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
    if (!s && is_regular_file(path) && !(s = srv_fingerprint_of(path, &f))) {
      fp->size += f.size;
      if (f.mtime_ns > fp->mtime_ns) fp->mtime_ns = f.mtime_ns;
    }
    free(path);
  }
  closedir(d);
  return s;
}

/* Looks into a version directory: finds its artifact (c->kind, c->path, c->fp). */
static hr_status inspect_version(const char *dir, srv_candidate *c) {
  DIR *d = opendir(dir);
  if (!d) return hr_error(HR_IO_ERROR, "%s: %s", dir, strerror(errno));
  char *artifact = NULL;
  hr_status s = NULL;
  c->n_artifacts = 0;
  int entries = 0;
  struct dirent *e;
  while (!s && (e = readdir(d)) != NULL) {
    if (++entries > HR_LIMIT_DIR_ENTRIES)
      s = hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d entries", dir, HR_LIMIT_DIR_ENTRIES);
    if (s || !is_artifact_name(e->d_name)) continue;
    char *path = join_path(dir, e->d_name);
    if (!path) {
      s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
    } else if (!is_regular_file(path)) {
      free(path);
    } else if (c->n_artifacts++ == 0) {
      artifact = path;
    } else {
      free(path);
    }
  }
  closedir(d);
  if (!s && c->n_artifacts == 1) {
    c->kind = SRV_CANDIDATE_READY;
    c->path = artifact;
    artifact = NULL;
  } else if (!s) {
    c->kind = c->n_artifacts ? SRV_CANDIDATE_AMBIGUOUS : SRV_CANDIDATE_EMPTY;
    c->path = strdup(dir);
    if (!c->path) s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  free(artifact);
  if (!s) s = srv_fingerprint_of(c->path, &c->fp);
  if (!s && c->kind == SRV_CANDIDATE_READY && srv_is_savedmodel_path(c->path)) s = add_variables(c->path, &c->fp);
  return s;
}

/* Orders candidates by version, then directory name (kept in path while scanning). */
static int compare_candidates(const void *a, const void *b) {
  const srv_candidate *x = a, *y = b;
  if (x->version != y->version) return x->version < y->version ? -1 : 1;
  return strcmp(x->path, y->path);
}

/* Makes room for one more candidate; false when out of memory. */
static bool reserve_candidate(srv_candidates *c) {
  if (c->n % 64 != 0) return true;
  srv_candidate *grown = realloc(c->items, ((size_t)c->n + 64) * sizeof *grown);
  if (!grown) return false;
  c->items = grown;
  return true;
}

/* Reads the numbered subdirectories of base_path into out (path = the directory, unsorted). */
static hr_status list_version_dirs(const char *base_path, srv_candidates *out) {
  DIR *d = opendir(base_path);
  if (!d) {
    int err = errno;
    return hr_error(err == ENOENT || err == ENOTDIR ? HR_NOT_FOUND : HR_IO_ERROR, "base path %s: %s", base_path,
                    strerror(err));
  }
  hr_status s = NULL;
  int entries = 0;
  struct dirent *e;
  while (!s && (e = readdir(d)) != NULL) {
    int64_t v;
    if (++entries > HR_LIMIT_DIR_ENTRIES)
      s = hr_error(HR_RESOURCE_EXHAUSTED, "base path %s: more than %d entries", base_path, HR_LIMIT_DIR_ENTRIES);
    if (s || !srv_parse_version(e->d_name, &v)) continue;
    char *dir = join_path(base_path, e->d_name);
    struct stat st;
    if (!dir) {
      s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
    } else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      free(dir);
    } else if (out->n >= HR_LIMIT_VERSIONS) {
      free(dir);
      s = hr_error(HR_RESOURCE_EXHAUSTED, "base path %s: more than %d version directories", base_path,
                   HR_LIMIT_VERSIONS);
    } else if (!reserve_candidate(out)) {
      free(dir);
      s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
    } else {
      out->items[out->n++] = (srv_candidate){.version = v, .path = dir};
    }
  }
  closedir(d);
  return s;
}

hr_status srv_scan_versions(const char *base_path, srv_candidates *out) {
  memset(out, 0, sizeof *out);
  hr_status s = list_version_dirs(base_path, out);
  if (!s && out->n) qsort(out->items, (size_t)out->n, sizeof *out->items, compare_candidates);
  /* Keep the first directory of each version ("1" before "01"), then look into each. */
  int kept = 0;
  for (int i = 0; !s && i < out->n; i++) {
    if (kept && out->items[kept - 1].version == out->items[i].version) {
      free(out->items[i].path);
      continue;
    }
    out->items[kept++] = out->items[i];
  }
  if (!s) out->n = kept;
  for (int i = 0; !s && i < out->n; i++) {
    char *dir = out->items[i].path;
    out->items[i].path = NULL;
    s = inspect_version(dir, &out->items[i]);
    free(dir);
  }
  if (s) srv_candidates_free(out);
  return s;
}

void srv_candidates_free(srv_candidates *c) {
  for (int i = 0; i < c->n; i++) free(c->items[i].path);
  free(c->items);
  c->items = NULL;
  c->n = 0;
}

void srv_policy_select(const srv_version_policy *p, const int64_t *versions, int n, bool *selected) {
  for (int i = 0; i < n; i++) {
    switch (p->kind) {
      case SRV_POLICY_LATEST: selected[i] = (int64_t)(n - i) <= p->num_versions; break;
      case SRV_POLICY_ALL: selected[i] = true; break;
      case SRV_POLICY_SPECIFIC:
        selected[i] = false;
        for (int j = 0; j < p->n_versions; j++)
          if (p->versions[j] == versions[i]) selected[i] = true;
        break;
    }
  }
}

/* The StableHLO conformance corpus ($HLORUN_SOURCE_DIR/../shared/conformance/stablehlo-testdata):
 * locating and listing it for tests. Tests that use it exit 77 (skipped) when it is absent. */
#ifndef HLORUN_TESTS_CORPUS_H
#define HLORUN_TESTS_CORPUS_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct corpus {
  char dir[4096];
  int n;
  char **paths; /* sorted full paths of the *.mlir files */
} corpus;

/* The file name part of a corpus path. */
static inline const char *corpus_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int corpus_compare_(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Lists the corpus. Returns 0 when it is absent or empty (after printing why). */
static inline int corpus_open(corpus *c) {
  const char *root = getenv("HLORUN_SOURCE_DIR");
  memset(c, 0, sizeof *c);
  snprintf(c->dir, sizeof c->dir, "%s/../shared/conformance/stablehlo-testdata", root ? root : ".");
  DIR *d = opendir(c->dir);
  if (!d) {
    printf("conformance corpus not found at %s: skipped\n", c->dir);
    return 0;
  }
  int cap = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".mlir") != 0) continue;
    if (c->n == cap) {
      cap = cap ? cap * 2 : 256;
      c->paths = realloc(c->paths, (size_t)cap * sizeof *c->paths);
      if (!c->paths) abort();
    }
    size_t plen = strlen(c->dir) + len + 2;
    c->paths[c->n] = malloc(plen);
    if (!c->paths[c->n]) abort();
    snprintf(c->paths[c->n++], plen, "%s/%s", c->dir, e->d_name);
  }
  closedir(d);
  if (c->n) qsort(c->paths, (size_t)c->n, sizeof *c->paths, corpus_compare_);
  else printf("conformance corpus at %s is empty: skipped\n", c->dir);
  return c->n;
}

static inline void corpus_close(corpus *c) {
  for (int i = 0; i < c->n; i++) free(c->paths[i]);
  free(c->paths);
  memset(c, 0, sizeof *c);
}

#endif

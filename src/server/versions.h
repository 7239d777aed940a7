/* Version directories: what a model's base path holds, and which versions a policy serves.
 *
 * A version is a subdirectory of the base path named by a positive integer (leading zeros allowed,
 * as in TensorFlow Serving: "00000123" is version 123) holding exactly one artifact: a regular
 * file whose name ends in ".hlo" and does not start with '.' (so that temporary files of copy
 * tools are ignored), or a jax2tf SavedModel (saved_model.pb beside its variables/ directory, as
 * TF Serving's version directories hold). Other entries are ignored. */
#ifndef HLORUN_SERVER_VERSIONS_H
#define HLORUN_SERVER_VERSIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "hlorun/hlorun.h"
#include "server/server.h"

/* A file's identity and state, to tell whether it changed between two looks. */
typedef struct srv_fingerprint {
  uint64_t dev, ino;
  int64_t size;
  int64_t mtime_ns;
} srv_fingerprint;

typedef enum srv_candidate_kind {
  SRV_CANDIDATE_READY,     /* one artifact: path names it */
  SRV_CANDIDATE_EMPTY,     /* no artifact (yet): path names the directory */
  SRV_CANDIDATE_AMBIGUOUS, /* several artifacts: path names the directory */
} srv_candidate_kind;

/* One version directory found by a scan. */
typedef struct srv_candidate {
  int64_t version;
  srv_candidate_kind kind;
  int n_artifacts;    /* .hlo files and SavedModels found */
  char *path;         /* see kind; a SavedModel's is its saved_model.pb */
  srv_fingerprint fp; /* of path; a SavedModel's covers its variables/ files too */
} srv_candidate;

typedef struct srv_candidates {
  srv_candidate *items; /* ascending by version, versions unique */
  int n;
} srv_candidates;

/* The version a directory name denotes: digits only, value in [1, INT64_MAX]. */
bool srv_parse_version(const char *name, int64_t *out);
/* Lists the version directories of base_path. NOT_FOUND when it does not exist, IO_ERROR when it
 * cannot be read, RESOURCE_EXHAUSTED beyond 65536 versions. */
hr_status srv_scan_versions(const char *base_path, srv_candidates *out);
void srv_candidates_free(srv_candidates *c);
/* The fingerprint of a file (following symbolic links). */
hr_status srv_fingerprint_of(const char *path, srv_fingerprint *out);
bool srv_fingerprint_equal(const srv_fingerprint *a, const srv_fingerprint *b);
/* Whether a candidate's path names a SavedModel's saved_model.pb. */
bool srv_is_savedmodel_path(const char *path);
/* Sets selected[i] for the versions (ascending, unique) the policy serves: the num_versions
 * highest (LATEST), all (ALL), or those listed (SPECIFIC). */
void srv_policy_select(const srv_version_policy *p, const int64_t *versions, int n, bool *selected);

#endif

/* The model registry: configured models, the state of each of their versions, and the loaded
 * versions (servables) requests use.
 *
 * A poll scans each model's base path, lets the version policy pick versions among those holding
 * one artifact, and loads the picked ones that are not loaded: artifact opened as the signatures
 * it serves (targets.h), each signature's program compiled and warmed up by a run at batch size 1
 * (dynamic dims set to 1), all before the version becomes AVAILABLE. After the initial poll, a version is only loaded once its artifact looks the same in
 * two consecutive polls (size, mtime, inode), so that files still being copied are left alone. A
 * load that fails leaves the version in state END with the error, logged in one line naming the
 * file; it is tried again when the file changes, and with the `latest` policy the next lower
 * version is picked in its place. An AVAILABLE version whose artifact changes (rewritten in place,
 * truncated) is reloaded once the file settles: the new copy replaces the old one only when it
 * loads, otherwise the old copy keeps serving and the refusal is logged. Artifacts must resolve
 * inside the base path (a symbolic link may point elsewhere in it) and have one hard link.
 * Versions the policy no longer picks are unloaded
 * only once one picked version is AVAILABLE (or none is picked at all), so a bad new version never
 * takes the old one down. Unloading waits for the requests using a version: servables are
 * reference-counted, and the last release frees the programs. */
#ifndef HLORUN_SERVER_REGISTRY_H
#define HLORUN_SERVER_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/strbuf.h"
#include "generate/generate.h"
#include "hlorun/hlorun.h"
#include "server/predict.h"
#include "server/server.h"
#include "server/targets.h"
#include "server/versions.h"

/* TensorFlow Serving's ModelVersionStatus.State (START is never reported: versions go straight
 * to LOADING). */
typedef enum srv_state {
  SRV_STATE_LOADING,
  SRV_STATE_AVAILABLE,
  SRV_STATE_UNLOADING,
  SRV_STATE_END,
} srv_state;

const char *srv_state_name(srv_state s); /* "LOADING", "AVAILABLE", ... */

/* A loaded model version, valid between srv_registry_acquire and srv_registry_release. */
typedef struct srv_servable {
  const char *model; /* the model's name */
  int64_t version;
  int n_targets;
  srv_target *targets; /* its signatures, sorted by name (targets.h) */
  hr_gen_engine *generator; /* a module with @prefill and @decode: its generation engine, else NULL */
  /* private to the registry */
  srv_fingerprint loaded; /* the artifact as it was when loaded: a change is reloaded */
  size_t bytes;           /* the artifact's size, counted against max_total_bytes */
  bool superseded;        /* a reload installed a newer copy of the version (guarded by owner's lock) */
  struct srv_model_entry *owner;
  struct srv_version_record *record;
  int refs; /* one for the registry while AVAILABLE, one per request (guarded by owner's lock) */
} srv_servable;

/* Which version a request names. */
typedef enum srv_selector_kind {
  SRV_SELECT_LATEST,  /* no version in the URL: the highest AVAILABLE one (status: all) */
  SRV_SELECT_VERSION, /* /versions/N */
  SRV_SELECT_LABEL,   /* /labels/L */
} srv_selector_kind;

typedef struct srv_selector {
  srv_selector_kind kind;
  int64_t version;   /* SRV_SELECT_VERSION */
  const char *label; /* SRV_SELECT_LABEL */
} srv_selector;

typedef struct srv_registry srv_registry;

/* Bounds on what loading may hold. Artifacts are read into memory the servable owns (never used
 * from a mapping of the file, which a deployment may rewrite or truncate under it), so these bound
 * the memory models take. */
typedef struct srv_load_limits {
  size_t max_model_bytes; /* one artifact file */
  size_t max_total_bytes; /* every loaded or loading artifact together, old and new copies of a reload included */
  int generate_slots;     /* sequences at once in a generation model's engine */
} srv_load_limits;

/* Creates a registry for the models of `config`, whose contents it takes over (*config is
 * zeroed). Programs are compiled with `exec`; events are logged to `log`. */
hr_status srv_registry_create(srv_config *config, const hr_exec_options *exec, const srv_load_limits *limits,
                              FILE *log, srv_registry **out);
/* Polls every model once (see above); `initial` loads without waiting for files to settle. */
void srv_registry_poll(srv_registry *r, bool initial);
/* Starts a thread polling every `seconds` (> 0). */
hr_status srv_registry_start_polling(srv_registry *r, double seconds);
/* Stops the polling thread, if running. */
void srv_registry_stop_polling(srv_registry *r);
/* Stops polling and unloads everything; no servable may be in use. */
void srv_registry_free(srv_registry *r);

/* The configured model called `name` (its name string, valid as long as the registry), or NULL. */
const char *srv_registry_model_name(srv_registry *r, const char *name);
/* Replaces the model configuration (TensorFlow Serving's HandleReloadConfigRequest), taking
 * `config` over: models it no longer names stop taking requests and their versions are unloaded
 * (requests in flight finish), new ones are added, kept ones take its version policy and labels;
 * then every model is polled once, its versions loaded before this returns. A model may not change
 * its base path (INVALID_ARGUMENT: that needs a restart); nothing changes then. */
hr_status srv_registry_reconfigure(srv_registry *r, srv_config *config);
/* The number of models configured now. */
int srv_registry_count(srv_registry *r);
/* The names of up to `cap` models configured now (valid as long as the registry); returns how many. */
int srv_registry_model_names(srv_registry *r, const char **names, int cap);
/* Takes a reference to the servable a request names. NOT_FOUND ("Servable not found for request:
 * Latest(m)" / "Specific(m, 3)") when it is not AVAILABLE; INVALID_ARGUMENT for unknown labels. */
hr_status srv_registry_acquire(srv_registry *r, const char *model, const srv_selector *sel, srv_servable **out);
void srv_registry_release(srv_registry *r, srv_servable *s);
/* Rewrites an error about a servable for its client: the model's base path (as configured and as
 * resolved) is replaced by the model's name, so that answers do not show the server's file
 * system. Takes `s` over and returns the status to answer with. */
hr_status srv_registry_redact(const srv_servable *sv, hr_status s);
/* One version's entry in a model's status (TensorFlow Serving's ModelVersionStatus). */
typedef struct srv_version_status {
  int64_t version;
  srv_state state;
  hr_code error;  /* why the version is in END, or HR_OK */
  char *message;  /* the error's message, or "" */
} srv_version_status;

typedef struct srv_model_status {
  int n_versions;
  srv_version_status *versions; /* descending by version */
} srv_model_status;

/* The state of a model's versions (all, or the one selected), copied out under the model's lock.
 * NOT_FOUND when the model or the selected version is unknown. */
hr_status srv_registry_status(srv_registry *r, const char *model, const srv_selector *sel, srv_model_status *out);
void srv_model_status_free(srv_model_status *s);
/* Whether every model has an AVAILABLE version; else appends why not to `reason`. */
bool srv_registry_ready(srv_registry *r, hr_strbuf *reason);
/* Appends the version state gauge and the load, unload and failed load counters. */
void srv_registry_append_metrics(srv_registry *r, hr_strbuf *sb);

#endif

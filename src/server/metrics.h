/* Prometheus metrics (text exposition format 0.0.4): request counts and latencies, batch sizes,
 * process figures, and helpers for the other parts of the server to write their own families.
 *
 * Recording never fails a request: a new series that cannot be allocated, or one beyond
 * SRV_METRICS_MAX_SERIES, is not recorded. Callers keep label values bounded (configured model
 * names only, a fixed set of endpoints). */
#ifndef HLORUN_SERVER_METRICS_H
#define HLORUN_SERVER_METRICS_H

#include <stdint.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "hlorun/hlorun.h"
#include "server/common.h"

#define SRV_METRICS_MAX_SERIES HR_LIMIT_METRICS_SERIES

typedef struct srv_metrics srv_metrics;

hr_status srv_metrics_create(srv_metrics **out);
void srv_metrics_free(srv_metrics *m);
/* Records one answered HTTP request. `version` is "" when none applies. */
void srv_metrics_request(srv_metrics *m, const char *model, const char *version, const char *endpoint, int http_code,
                         double seconds);
/* TensorFlow Serving's families, beside ours, named as its Prometheus exporter names them:
 *   :tensorflow:serving:request_count{model_name, status}              counter
 *   :tensorflow:serving:request_latency{model_name, API, entrypoint}   histogram, microseconds
 *   :tensorflow:serving:runtime_latency{model_name, API, runtime}      histogram, microseconds
 * with TF Serving's buckets (10 * 1.8^i us, i < 33, then +Inf; a bucket counts values below its
 * bound, as TensorFlow's histograms do).
 *
 * srv_metrics_tfs_request records one answered request of any protocol: counted under its
 * canonical `code` ("OK", "INVALID_ARGUMENT", ...), and, when OK, its latency `seconds` observed.
 * `model`: a configured model's name, or "" (unknown names are not recorded, which keeps the
 * series bounded; TF Serving records the name as sent). `api`: TF Serving's label — over REST the
 * route's method ("predict", "classify", "regress", "" for the GET routes; "infer" and "" for
 * KServe's), over gRPC the RPC ("Predict", "GetModelMetadata", ...); `entrypoint`: "REST" or
 * "GRPC". The REST adapter (rest.c) calls it for every request it answers; the gRPC adapter
 * calls it once per RPC.
 *
 * srv_metrics_tfs_runtime observes one successful program run (API "Predict", runtime
 * "hlorun"); srv_service_predict records it for every protocol, so adapters do not call it. */
void srv_metrics_tfs_request(srv_metrics *m, const char *model, const char *api, const char *entrypoint, srv_code code,
                             double seconds);
void srv_metrics_tfs_runtime(srv_metrics *m, const char *model, const char *api, double seconds);
/* Records one batch run of `rows` rows. */
void srv_metrics_batch(srv_metrics *m, const char *model, int64_t rows);
/* Generation (docs/generation.md): tokens given out (with the time to the first, when these are
 * the first, and since the previous one, when known), requests starting (+1) and ending (-1) for
 * the active gauge, and requests ended by finish reason ("length", "stop", "cancelled", "error"). */
void srv_metrics_gen_tokens(srv_metrics *m, const char *model, int n_tokens, double first_token_seconds,
                            double gap_seconds);
void srv_metrics_gen_active(srv_metrics *m, const char *model, int delta);
void srv_metrics_gen_done(srv_metrics *m, const char *model, const char *finish_reason);
/* Appends the request, generation, batch and process families. */
void srv_metrics_append(srv_metrics *m, hr_strbuf *sb);

/* Appends "# HELP name help\n# TYPE name type\n". */
void srv_prom_family(hr_strbuf *sb, const char *name, const char *type, const char *help);
/* Appends `name{k1="v1",...} value\n`; labels are `n_labels` (key, value) pairs, values escaped. */
void srv_prom_sample(hr_strbuf *sb, const char *name, const char *const *labels, int n_labels, double value);

#endif

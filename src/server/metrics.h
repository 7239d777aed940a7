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

#define SRV_METRICS_MAX_SERIES HR_LIMIT_METRICS_SERIES

typedef struct srv_metrics srv_metrics;

hr_status srv_metrics_create(srv_metrics **out);
void srv_metrics_free(srv_metrics *m);
/* Records one answered HTTP request. `version` is "" when none applies. */
void srv_metrics_request(srv_metrics *m, const char *model, const char *version, const char *endpoint, int http_code,
                         double seconds);
/* Records one batch run of `rows` rows. */
void srv_metrics_batch(srv_metrics *m, const char *model, int64_t rows);
/* Appends the request, batch and process families. */
void srv_metrics_append(srv_metrics *m, hr_strbuf *sb);

/* Appends "# HELP name help\n# TYPE name type\n". */
void srv_prom_family(hr_strbuf *sb, const char *name, const char *type, const char *help);
/* Appends `name{k1="v1",...} value\n`; labels are `n_labels` (key, value) pairs, values escaped. */
void srv_prom_sample(hr_strbuf *sb, const char *name, const char *const *labels, int n_labels, double value);

#endif

/* Prometheus metrics (server/metrics.c): TensorFlow Serving's families beside hlorun's — names,
 * labels, its bucket bounds and their "below the bound" counting, latency only for OK requests —
 * and hlorun's request families. */
#include <string.h>

#include "base/strbuf.h"
#include "server/metrics.h"
#include "test.h"

/* The page of a metrics object, in `sb` (reset first). */
static const char *page(srv_metrics *m, hr_strbuf *sb) {
  sb->len = 0;
  if (sb->data) sb->data[0] = '\0';
  srv_metrics_append(m, sb);
  return sb->data ? sb->data : "";
}

TEST(tensorflow_serving_families) {
  srv_metrics *m = NULL;
  CHECK_OK(srv_metrics_create(&m));
  if (!m) return;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  srv_metrics_tfs_request(m, "plus", "predict", "REST", SRV_OK, 10e-6);  /* exactly a bound */
  srv_metrics_tfs_request(m, "plus", "predict", "REST", SRV_OK, 20e-6);
  srv_metrics_tfs_request(m, "plus", "predict", "REST", SRV_INVALID_ARGUMENT, 5e-6);
  srv_metrics_tfs_request(m, "", "", "REST", SRV_NOT_FOUND, 1);
  srv_metrics_tfs_runtime(m, "plus", "Predict", 1e-3);
  const char *text = page(m, &sb);
  CHECK_STR_CONTAINS(text, "# TYPE :tensorflow:serving:request_count counter\n");
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:request_count{model_name=\"plus\",status=\"OK\"} 2\n");
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:request_count{model_name=\"plus\",status=\"INVALID_ARGUMENT\"} 1\n");
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:request_count{model_name=\"\",status=\"NOT_FOUND\"} 1\n");
  CHECK_STR_CONTAINS(text, "# TYPE :tensorflow:serving:request_latency histogram\n");
  /* 10 us counts in the bucket above 10 (TensorFlow's histograms count values below a bound) */
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:request_latency_bucket{model_name=\"plus\",API=\"predict\","
                           "entrypoint=\"REST\",le=\"10\"} 0\n");
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:request_latency_bucket{model_name=\"plus\",API=\"predict\","
                           "entrypoint=\"REST\",le=\"18\"} 1\n");
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:request_latency_bucket{model_name=\"plus\",API=\"predict\","
                           "entrypoint=\"REST\",le=\"32.4\"} 2\n");
  CHECK_STR_CONTAINS(text, "le=\"1.27482e+06\"}");
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:request_latency_count{model_name=\"plus\",API=\"predict\","
                           "entrypoint=\"REST\"} 2\n");
  /* failed requests are counted, not timed */
  CHECK(strstr(text, "request_latency_count{model_name=\"\"") == NULL);
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:runtime_latency_count{model_name=\"plus\",API=\"Predict\","
                           "runtime=\"hlorun\"} 1\n");
  CHECK_STR_CONTAINS(text, ":tensorflow:serving:runtime_latency_bucket{model_name=\"plus\",API=\"Predict\","
                           "runtime=\"hlorun\",le=\"1102\"} 1\n");
  /* 33 bounds and +Inf per series */
  int buckets = 0;
  for (const char *p = text; (p = strstr(p, ":tensorflow:serving:runtime_latency_bucket{")) != NULL; p++) buckets++;
  CHECK_EQ_INT(buckets, 34);
  /* hlorun's own families are still there */
  srv_metrics_request(m, "plus", "1", "predict", 200, 0.01);
  CHECK_STR_CONTAINS(page(m, &sb), "hlorun_http_requests_total{model=\"plus\",version=\"1\",endpoint=\"predict\",code=\"200\"} 1\n");
  hr_strbuf_free(&sb);
  srv_metrics_free(m);
}

int main(void) {
  RUN(tensorflow_serving_families);
  TEST_MAIN_END();
}

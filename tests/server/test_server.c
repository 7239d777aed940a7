/* The server in process (server/server.c, http.c, rest.c, registry.c) on a free loopback port,
 * spoken to over raw sockets: the REST endpoints and their error codes, request limits, version
 * changes picked up by polling (a corrupt version is refused while the old one keeps serving),
 * concurrent batched predictions, metrics, and a graceful stop. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "server/affine_model.h"
#include "server/server.h"
#include "test.h"

static char base[64];      /* the temporary directory */
static char model_dir[96]; /* base/affine: the model's base path */
static FILE *log_file;     /* the server's log */

/* Creates base/affine/<version>/ holding a good artifact, or `junk` bytes when not NULL. */
static void add_version(int version, const char *junk) { affine_add_version(model_dir, version, junk); }

/* One HTTP/1.1 exchange over a fresh connection ("Connection: close"); returns the status code
 * (0 when the exchange failed) and the body in `body`. `extra` adds header lines. */
static int http(int port, const char *method, const char *path, const char *extra, const char *payload,
                hr_strbuf *body) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    if (fd >= 0) close(fd);
    return 0;
  }
  hr_strbuf req;
  hr_strbuf_init(&req, NULL);
  size_t len = payload ? strlen(payload) : 0;
  hr_strbuf_printf(&req, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%sContent-Length: %zu\r\n\r\n",
                   method, path, extra ? extra : "", len);
  if (payload) hr_strbuf_puts(&req, payload);
  ssize_t sent = send(fd, req.data, req.len, MSG_NOSIGNAL);
  hr_strbuf_free(&req);
  hr_strbuf raw;
  hr_strbuf_init(&raw, NULL);
  char buf[4096];
  ssize_t n;
  while (sent > 0 && (n = recv(fd, buf, sizeof buf, 0)) > 0) hr_strbuf_append(&raw, buf, (size_t)n);
  close(fd);
  int status = 0;
  const char *split = raw.data ? strstr(raw.data, "\r\n\r\n") : NULL;
  if (split && sscanf(raw.data, "HTTP/1.1 %d", &status) == 1 && body) {
    body->len = 0;
    hr_strbuf_puts(body, split + 4);
  }
  hr_strbuf_free(&raw);
  return status;
}

/* Polls GET path until its body contains `needle` (at most ~20 s); returns whether it did. */
static bool eventually(int port, const char *path, const char *needle) {
  hr_strbuf body;
  hr_strbuf_init(&body, NULL);
  bool found = false;
  for (int i = 0; i < 2000 && !found; i++) {
    http(port, "GET", path, NULL, NULL, &body);
    found = body.data && strstr(body.data, needle);
    if (!found) usleep(10000);
  }
  if (!found) fprintf(stderr, "GET %s never contained %s; last: %s\n", path, needle, body.data ? body.data : "");
  hr_strbuf_free(&body);
  return found;
}

/* Starts a server for the affine model with fast polling and batching. */
static srv_server *start_server(void) {
  srv_options o;
  srv_options_defaults(&o);
  o.port = 0;
  o.num_threads = 4;
  o.poll_wait_seconds = 0.02;
  o.enable_batching = true;
  o.batching.max_batch_size = 8;
  o.batching.batch_timeout_micros = 2000;
  o.batching.num_batch_threads = 2;
  o.max_request_bytes = 4096;
  o.max_tensor_elements = 256;
  o.intra_op_threads = 1;
  o.log = log_file;
  srv_config cfg;
  char text[512];
  snprintf(
      text, sizeof text,
      "model_config_list { config { name: \"affine\" base_path: \"%s\" version_labels { key: \"stable\" value: 1 } } }",
      model_dir);
  CHECK_OK(srv_config_parse("inline", text, strlen(text), &cfg));
  srv_server *s = NULL;
  CHECK_OK(srv_server_create(&o, &cfg, &s));
  if (s) CHECK_OK(srv_server_start(s));
  return s;
}

/* Checks one exchange: the status and a piece of the body. */
static void expect(int port, const char *method, const char *path, const char *payload, int status,
                   const char *needle) {
  hr_strbuf body;
  hr_strbuf_init(&body, NULL);
  int got = http(port, method, path, NULL, payload, &body);
  if (got != status || !body.data || !strstr(body.data, needle)) {
    fprintf(stderr, "%s %s: expected %d with \"%s\", got %d: %s\n", method, path, status, needle, got,
            body.data ? body.data : "");
    test_failures_++;
  }
  hr_strbuf_free(&body);
}

TEST(endpoints_and_errors) {
  add_version(1, NULL);
  srv_server *s = start_server();
  if (!s) return;
  int port = srv_server_port(s);
  CHECK(port > 0);
  expect(port, "GET", "/v1/models/affine", NULL, 200, "\"state\": \"AVAILABLE\"");
  expect(port, "GET", "/V1/Models/affine/versions/1", NULL, 200, "\"version\": \"1\"");
  expect(port, "GET", "/v1/models/affine/labels/stable", NULL, 200, "\"version\": \"1\"");
  expect(port, "GET", "/v1/models/affine/metadata", NULL, 200, "\"dtype\": \"DT_FLOAT\"");
  expect(port, "GET", "/v1/models/affine/versions/1/metadata", NULL, 200, "\"serving_default\"");
  expect(port, "POST", "/v1/models/affine:predict", "{\"instances\": [[1, 2, 3, 4]]}", 200,
         "{\"predictions\": [[3.0,5.0,7.0,9.0]]}");
  expect(port, "POST", "/v1/models/affine/labels/stable:predict", "{\"inputs\": [[0, 0, 0, 0.5]]}", 200,
         "{\"outputs\": [[1.0,1.0,1.0,2.0]]}");
  expect(port, "POST", "/v1/models/affine/versions/1:predict", "{\"inputs\": {\"x\": [[1, 1, 1, 1]]}}", 200, "3.0");
  expect(port, "POST", "/v1/models/nope:predict", "{\"instances\": [[1, 2, 3, 4]]}", 404,
         "Servable not found for request: Latest(nope)");
  expect(port, "POST", "/v1/models/affine/versions/7:predict", "{}", 404, "Specific(affine, 7)");
  expect(port, "POST", "/v1/models/affine/labels/beta:predict", "{}", 400, "Unrecognized servable version label: beta");
  expect(port, "GET", "/v1/models/affine/versions/7", NULL, 404, "Could not find version 7 of model affine");
  expect(port, "GET", "/v1/models/nope", NULL, 404, "Could not find any versions of model nope");
  expect(port, "GET", "/v1/models", NULL, 400, "Missing model name in request.");
  expect(port, "GET", "/v1/models/affine:predict", NULL, 400, "Malformed request: GET /v1/models/affine:predict");
  expect(port, "POST", "/v1/models/affine:classify", "{}", 400,
         "When method is classify, key 'examples' is expected and was not found");
  expect(port, "POST", "/v1/models/affine:classify", "{\"examples\": [{}]}", 400,
         "Expected classification signature method_name to be tensorflow/serving/classify. Was: "
         "tensorflow/serving/predict");
  expect(port, "POST", "/v1/models/affine:regress", "{\"signature_name\": \"nope\", \"examples\": [{}]}", 400,
         "No signature was found with the name: nope");
  expect(port, "GET", "/v1/models/affine/versions/99999999999999999999", NULL, 400, "Failed to convert version");
  expect(port, "GET", "/nowhere", NULL, 404, "Not found: GET /nowhere");
  expect(port, "POST", "/v1/models/affine/metadata:predict", "{}", 400, "Malformed request");
  expect(port, "GET", "/v1/models/affine/versions/", NULL, 400, "Malformed request");
  expect(port, "PUT", "/v1/models/affine", "{}", 400, "Malformed request: PUT /v1/models/affine");
  expect(port, "GET", "/v2/models/affine", NULL, 200, "\"datatype\":\"FP32\"");
  expect(port, "POST", "/v2/models/affine/infer",
         "{\"inputs\": [{\"name\": \"x\", \"datatype\": \"FP32\", \"shape\": [1, 4], \"data\": [1, 2, 3, 4]}]}", 200,
         "\"data\":[3.0,5.0,7.0,9.0]");
  expect(port, "POST", "/v1/models/affine:predict", "{\"instances\": [[1, 2, 3]]}", 400, "the model expects 4");
  expect(port, "POST", "/v1/models/affine:predict", "{\"instances\": [[1, 2, 3, 4]", 400, "JSON Parse error");
  expect(port, "GET", "/healthz", NULL, 200, "ok");
  expect(port, "GET", "/readyz", NULL, 200, "ready");
  expect(port, "POST", "/healthz", "", 405, "GET");
  hr_strbuf big;
  hr_strbuf_init(&big, NULL);
  hr_strbuf_puts(&big, "{\"instances\": [");
  for (int i = 0; i < 400; i++) hr_strbuf_printf(&big, "%s[1, 2, 3, 4]", i ? "," : "");
  hr_strbuf_puts(&big, "]}");
  expect(port, "POST", "/v1/models/affine:predict", big.data, 413, "exceeds the limit of 4096 bytes");
  big.len = 0;
  hr_strbuf_puts(&big, "{\"instances\": [");
  for (int i = 0; i < 70; i++) hr_strbuf_printf(&big, "%s[1,2,3,4]", i ? "," : "");
  hr_strbuf_puts(&big, "]}");
  expect(port, "POST", "/v1/models/affine:predict", big.data, 400, "more than 256 tensor elements");
  hr_strbuf_free(&big);
  expect(port, "GET", "/monitoring/prometheus/metrics", NULL, 200,
         "hlorun_http_requests_total{model=\"affine\",version=\"1\",endpoint=\"predict\",code=\"200\"} 3");
  expect(port, "GET", "/monitoring/prometheus/metrics", NULL, 200,
         "hlorun_model_version_state{model=\"affine\",version=\"1\",state=\"AVAILABLE\"} 1");
  srv_server_free(s);
}

TEST(versions_come_and_go) {
  srv_server *s = start_server();
  if (!s) return;
  int port = srv_server_port(s);
  add_version(2, "this is not an artifact");
  CHECK(eventually(port, "/v1/models/affine/versions/2", "\"state\": \"END\""));
  expect(port, "GET", "/v1/models/affine/versions/2", NULL, 200, "INVALID_ARGUMENT");
  expect(port, "POST", "/v1/models/affine:predict", "{\"instances\": [[1, 1, 1, 1]]}", 200, "3.0");
  expect(port, "GET", "/v1/models/affine/metadata", NULL, 200, "\"version\": \"1\"");
  add_version(2, NULL);
  CHECK(eventually(port, "/v1/models/affine/versions/2", "\"state\": \"AVAILABLE\""));
  CHECK(eventually(port, "/v1/models/affine/versions/1", "\"state\": \"END\""));
  expect(port, "GET", "/v1/models/affine/metadata", NULL, 200, "\"version\": \"2\"");
  expect(port, "POST", "/v1/models/affine/labels/stable:predict", "{\"instances\": [[1, 1, 1, 1]]}", 404,
         "Specific(affine, 1)");
  srv_server_free(s);
  fflush(log_file);
  rewind(log_file);
  char line[1024];
  bool logged = false;
  while (fgets(line, sizeof line, log_file))
    logged = logged || (strstr(line, "version 2 failed to load") && strstr(line, "2/model.hlo"));
  CHECK(logged);
}

/* A client thread: predictions with its own values, checked. */
static void *predict_client(void *arg) {
  int port = (int)(intptr_t)arg;
  hr_strbuf body;
  hr_strbuf_init(&body, NULL);
  int failures = 0;
  for (int i = 0; i < 20; i++) {
    char payload[128], want[128];
    snprintf(payload, sizeof payload, "{\"instances\": [[%d, 0, 0, 0], [0, 0, 0, %d]]}", i, port % 7);
    snprintf(want, sizeof want, "[[%d.0,1.0,1.0,1.0],\n[1.0,1.0,1.0,%d.0]]", 2 * i + 1, 2 * (port % 7) + 1);
    if (http(port, "POST", "/v1/models/affine:predict", NULL, payload, &body) != 200 || !strstr(body.data, want))
      failures++;
  }
  hr_strbuf_free(&body);
  return (void *)(intptr_t)failures;
}

TEST(concurrent_batched_predictions) {
  srv_server *s = start_server();
  if (!s) return;
  int port = srv_server_port(s);
  pthread_t threads[6];
  for (int i = 0; i < 6; i++) pthread_create(&threads[i], NULL, predict_client, (void *)(intptr_t)port);
  for (int i = 0; i < 6; i++) {
    void *failures;
    pthread_join(threads[i], &failures);
    CHECK_EQ_INT((intptr_t)failures, 0);
  }
  expect(port, "GET", "/monitoring/prometheus/metrics", NULL, 200, "hlorun_batch_size_count{model=\"affine\"}");
  srv_server_stop(s);
  CHECK_EQ_INT(http(port, "GET", "/healthz", NULL, NULL, NULL), 0);
  srv_server_free(s);
}

int main(void) {
  snprintf(base, sizeof base, "/tmp/hlorun_server_XXXXXX");
  if (!mkdtemp(base)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(model_dir, sizeof model_dir, "%s/affine", base);
  mkdir(model_dir, 0755);
  log_file = tmpfile();
  RUN(endpoints_and_errors);
  RUN(versions_come_and_go);
  RUN(concurrent_batched_predictions);
  fclose(log_file);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", base);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
  TEST_MAIN_END();
}

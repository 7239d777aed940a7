/* The model service (server/service.c) without any transport: status of versions as structs, the
 * signature of an acquired version, predictions run directly and through the batcher, and the
 * controls a call brings (a deadline, a client gone, the output bound). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/affine_model.h"
#include "server/service.h"
#include "test.h"

static char base[64];      /* the temporary directory */
static char model_dir[96]; /* base/affine */
static FILE *log_file;     /* the registry's log */

/* A service over a registry of the affine model, polled once; batching when `batching`. */
static void service_open(srv_service *svc, bool batching) {
  memset(svc, 0, sizeof *svc);
  svc->max_output_bytes = 1 << 20;
  srv_config cfg;
  char text[512];
  snprintf(text, sizeof text,
           "model_config_list { config { name: \"affine\" base_path: \"%s\" version_labels { key: \"stable\" value: 1 } } "
           "config { name: \"empty\" base_path: \"%s/empty\" } }",
           model_dir, base);
  CHECK_OK(srv_config_parse("inline", text, strlen(text), &cfg));
  hr_exec_options exec = {.num_threads = 1};
  srv_load_limits limits = {.max_model_bytes = 1 << 20, .max_total_bytes = 16 << 20};
  CHECK_OK(srv_metrics_create(&svc->metrics));
  CHECK_OK(srv_registry_create(&cfg, &exec, &limits, log_file, &svc->registry));
  if (svc->registry) srv_registry_poll(svc->registry, true);
  if (batching) {
    srv_batching_params p;
    srv_batching_defaults(&p);
    p.max_batch_size = 8;
    p.num_batch_threads = 1;
    CHECK_OK(srv_batcher_create(&p, srv_service_run_batch, svc, &svc->batcher));
  }
}

static void service_close(srv_service *svc) {
  srv_batcher_free(svc->batcher);
  srv_registry_free(svc->registry);
  srv_metrics_free(svc->metrics);
}

/* An f32[rows, 4] input holding 0, 1, 2, ... */
static hr_tensor *counting_input(int64_t rows) {
  hr_shape shape = {.rank = 2, .dims = {rows, 4}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &shape, 0, &t));
  if (t)
    for (int64_t i = 0; i < rows * 4; i++) ((float *)t->data)[i] = (float)i;
  return t;
}

/* Predicts on the latest affine version; returns the status (and *code) and checks a success's
 * outputs are 2x + 1. */
static hr_status predict(srv_service *svc, int64_t rows, const srv_call *call, srv_code *code) {
  srv_servable *sv = NULL;
  srv_selector latest = {.kind = SRV_SELECT_LATEST};
  hr_status st = srv_service_acquire(svc, "affine", &latest, &sv);
  if (st) return st;
  hr_tensor *x = counting_input(rows);
  hr_tensor **outputs = NULL;
  int n_outputs = 0;
  const srv_target *target = NULL;
  CHECK_OK(srv_service_target(sv, "", &target));
  st = target ? srv_service_predict(svc, target, &x, 1, call, &outputs, &n_outputs, code)
              : hr_error(HR_INTERNAL, "no serving_default");
  if (!st) {
    CHECK_EQ_INT(n_outputs, 1);
    CHECK_EQ_INT(outputs[0]->shape.dims[0], rows);
    for (int64_t i = 0; i < rows * 4; i++) CHECK(((float *)outputs[0]->data)[i] == 2.0f * (float)i + 1.0f);
    hr_tensors_free(outputs, n_outputs);
  } else {
    CHECK(outputs == NULL && n_outputs == 0);
  }
  hr_tensor_free(x);
  srv_service_release(svc, sv);
  return st;
}

/* Predicts `rows` rows under `call` and checks the call failed with canonical code `want`. */
static void expect_code(srv_service *svc, int64_t rows, const srv_call *call, srv_code want) {
  srv_code code = SRV_OK;
  hr_status st = predict(svc, rows, call, &code);
  CHECK(st != NULL);
  if (code != want) fprintf(stderr, "expected %s, got %s: %s\n", srv_code_name(want), srv_code_name(code), hr_status_message(st));
  CHECK(code == want);
  hr_status_free(st);
}

TEST(status_as_structs) {
  affine_add_version(model_dir, 1, NULL);
  affine_add_version(model_dir, 2, "not an artifact");
  srv_service svc;
  service_open(&svc, false);
  srv_model_status ms;
  srv_selector latest = {.kind = SRV_SELECT_LATEST};
  CHECK_OK(srv_service_status(&svc, "affine", &latest, &ms));
  CHECK_EQ_INT(ms.n_versions, 2);
  if (ms.n_versions == 2) {
    CHECK_EQ_INT(ms.versions[0].version, 2); /* descending */
    CHECK(ms.versions[0].state == SRV_STATE_END && ms.versions[0].error != HR_OK);
    CHECK(strlen(ms.versions[0].message) > 0);
    CHECK_EQ_INT(ms.versions[1].version, 1);
    CHECK(ms.versions[1].state == SRV_STATE_AVAILABLE && ms.versions[1].error == HR_OK);
    CHECK(ms.versions[1].message[0] == '\0');
  }
  srv_model_status_free(&ms);
  srv_selector stable = {.kind = SRV_SELECT_LABEL, .label = "stable"};
  CHECK_OK(srv_service_status(&svc, "affine", &stable, &ms));
  CHECK(ms.n_versions == 1 && ms.versions[0].version == 1);
  srv_model_status_free(&ms);
  srv_selector seven = {.kind = SRV_SELECT_VERSION, .version = 7};
  hr_status st = srv_service_status(&svc, "affine", &seven, &ms);
  CHECK(st && hr_status_code(st) == HR_NOT_FOUND && ms.n_versions == 0);
  if (st) CHECK_STR_CONTAINS(hr_status_message(st), "Could not find version 7 of model affine");
  hr_status_free(st);
  st = srv_service_status(&svc, "nosuch", &latest, &ms);
  CHECK(st && hr_status_code(st) == HR_NOT_FOUND);
  hr_status_free(st);
  hr_strbuf reason;
  hr_strbuf_init(&reason, NULL);
  CHECK(!srv_service_ready(&svc, &reason)); /* "empty" has no version */
  if (reason.data) CHECK_STR_CONTAINS(reason.data, "model 'empty' has no AVAILABLE version");
  hr_strbuf_free(&reason);
  service_close(&svc);
}

TEST(signature_of_acquired_version) {
  srv_service svc;
  service_open(&svc, false);
  srv_servable *sv = NULL;
  hr_status st_other;
  srv_selector stable = {.kind = SRV_SELECT_LABEL, .label = "stable"};
  CHECK_OK(srv_service_acquire(&svc, "affine", &stable, &sv));
  if (sv) {
    CHECK_EQ_INT(sv->version, 1);
    CHECK_EQ_INT(sv->n_targets, 1);
    const srv_target *t = NULL;
    CHECK_OK(srv_service_target(sv, "serving_default", &t));
    CHECK(t == &sv->targets[0] && t->program && t->servable == sv && t->batchable);
    const srv_signature *sig = &sv->targets[0].signature;
    CHECK(strcmp(srv_signature_name(sig), "serving_default") == 0);
    CHECK(strcmp(srv_signature_method(sig), "tensorflow/serving/predict") == 0);
    CHECK(sig->n_inputs == 1 && strcmp(sig->inputs[0].name, "x") == 0);
    CHECK(sig->inputs[0].spec.dtype == HR_F32 && sig->inputs[0].spec.shape.dims[0] == HR_DYNAMIC);
    /* another name: TensorFlow Serving's error */
    st_other = srv_service_target(sv, "other", &t);
    CHECK(st_other && hr_status_code(st_other) == HR_INVALID_ARGUMENT && !t);
    if (st_other)
      CHECK(strcmp(hr_status_message(st_other), "Serving signature name: \"other\" not found in signature def") == 0);
    hr_status_free(st_other);
    srv_service_release(&svc, sv);
  }
  srv_selector missing = {.kind = SRV_SELECT_LABEL, .label = "canary"};
  hr_status st = srv_service_acquire(&svc, "affine", &missing, &sv);
  CHECK(st && hr_status_code(st) == HR_INVALID_ARGUMENT);
  hr_status_free(st);
  service_close(&svc);
}

/* A transport's poll for a client that hung up. */
static bool always_gone(void *ctx) {
  (void)ctx;
  return true;
}

TEST(predict_direct_and_controlled) {
  srv_service svc;
  service_open(&svc, false);
  srv_code code = SRV_INTERNAL;
  CHECK_OK(predict(&svc, 3, NULL, &code));
  CHECK(code == SRV_OK);
  srv_call gone = {.abandoned = always_gone};
  expect_code(&svc, 3, &gone, SRV_CANCELLED);
  srv_call late = {.deadline = hr_monotonic_seconds() - 1};
  expect_code(&svc, 3, &late, SRV_DEADLINE_EXCEEDED);
  svc.max_output_bytes = 16; /* one row of f32[?, 4] */
  expect_code(&svc, 2, NULL, SRV_RESOURCE_EXHAUSTED);
  CHECK_OK(predict(&svc, 1, NULL, &code));
  service_close(&svc);
}

TEST(predict_batched) {
  srv_service svc;
  service_open(&svc, true);
  srv_code code = SRV_INTERNAL;
  CHECK_OK(predict(&svc, 2, NULL, &code));
  CHECK(code == SRV_OK);
  expect_code(&svc, 9, NULL, SRV_INVALID_ARGUMENT); /* more rows than max_batch_size */
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  srv_metrics_append(svc.metrics, &sb);
  if (sb.data) CHECK_STR_CONTAINS(sb.data, "hlorun_batch_size_count{model=\"affine\"} 1");
  hr_strbuf_free(&sb);
  srv_batcher_stop(svc.batcher);
  expect_code(&svc, 2, NULL, SRV_UNAVAILABLE);
  service_close(&svc);
}

int main(void) {
  snprintf(base, sizeof base, "/tmp/hlorun_service_XXXXXX");
  if (!mkdtemp(base)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(model_dir, sizeof model_dir, "%s/affine", base);
  mkdir(model_dir, 0755);
  char empty[96];
  snprintf(empty, sizeof empty, "%s/empty", base);
  mkdir(empty, 0755);
  log_file = tmpfile();
  RUN(status_as_structs);
  RUN(signature_of_acquired_version);
  RUN(predict_direct_and_controlled);
  RUN(predict_batched);
  fclose(log_file);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", base);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", base);
  TEST_MAIN_END();
}

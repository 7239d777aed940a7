/* Configuration files (server/textproto.c, server/config.c): TensorFlow Serving's ModelServerConfig,
 * BatchingParameters and SSLConfig in protobuf text format — every supported form reads as intended, and
 * malformed or unsupported input is rejected with FILE:LINE:COL and a clear message. */
#include <string.h>

#include "server/server.h"
#include "server/textproto.h"
#include "test.h"

/* Parses a ModelServerConfig that must be valid. */
static void config_ok(const char *text, srv_config *c) {
  hr_status s = srv_config_parse("models.config", text, strlen(text), c);
  if (s) {
    fprintf(stderr, "unexpected error: %s\n", hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
  }
}

/* Checks that a ModelServerConfig fails with a message containing `needle`. */
static void config_fails(const char *text, const char *needle) {
  srv_config c;
  hr_status s = srv_config_parse("models.config", text, strlen(text), &c);
  CHECK(s != NULL);
  if (!s) {
    srv_config_free(&c);
    return;
  }
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(hr_status_message(s), needle);
  CHECK(c.models == NULL && c.n_models == 0);
  hr_status_free(s);
}

TEST(full_model_server_config) {
  static const char text[] =
      "# two models\n"
      "model_config_list {\n"
      "  config {\n"
      "    name: 'tiny'\n"
      "    base_path: \"/models/\" \"tiny\"\n"
      "    model_platform: \"hlorun\"\n"
      "    model_version_policy { specific { versions: 1 versions: 3 } }\n"
      "    version_labels { key: \"stable\" value: 1 }\n"
      "    version_labels { key: \"canary\" value: 3 }\n"
      "  }\n"
      "  config: {\n"
      "    name: \"dense\", base_path: \"/models/dense\";\n"
      "    model_version_policy: { latest: { num_versions: 2 } }\n"
      "  }\n"
      "  config < name: \"all\" base_path: \"/m\" model_version_policy { all {} } >\n"
      "  config { name: \"list\" base_path: \"/l\" model_version_policy { specific { versions: [4, 5] } } }\n"
      "}\n";
  srv_config c;
  config_ok(text, &c);
  CHECK_EQ_INT(c.n_models, 4);
  if (c.n_models != 4) return;
  CHECK(strcmp(c.models[0].name, "tiny") == 0);
  CHECK(strcmp(c.models[0].base_path, "/models/tiny") == 0);
  CHECK_EQ_INT(c.models[0].policy.kind, SRV_POLICY_SPECIFIC);
  CHECK_EQ_INT(c.models[0].policy.n_versions, 2);
  CHECK_EQ_INT(c.models[0].policy.versions[1], 3);
  CHECK_EQ_INT(c.models[0].n_labels, 2);
  CHECK(strcmp(c.models[0].labels[1].name, "canary") == 0);
  CHECK_EQ_INT(c.models[0].labels[1].version, 3);
  CHECK_EQ_INT(c.models[1].policy.kind, SRV_POLICY_LATEST);
  CHECK_EQ_INT(c.models[1].policy.num_versions, 2);
  CHECK_EQ_INT(c.models[2].policy.kind, SRV_POLICY_ALL);
  CHECK_EQ_INT(c.models[3].policy.n_versions, 2);
  CHECK_EQ_INT(c.models[3].policy.versions[0], 4);
  srv_config_free(&c);
}

TEST(defaults_and_single_model) {
  srv_config c;
  config_ok("model_config_list { config { name: \"m\" base_path: \"/b\" } }", &c);
  CHECK_EQ_INT(c.n_models, 1);
  if (c.n_models == 1) {
    CHECK_EQ_INT(c.models[0].policy.kind, SRV_POLICY_LATEST);
    CHECK_EQ_INT(c.models[0].policy.num_versions, 1);
  }
  srv_config_free(&c);
  CHECK_OK(srv_config_single("m", "/b", &c));
  CHECK_EQ_INT(c.n_models, 1);
  srv_config_free(&c);
  hr_status s = srv_config_single("", "/b", &c);
  CHECK(s != NULL);
  hr_status_free(s);
}

TEST(config_errors_name_line_and_column) {
  config_fails("model_config_list {\n  config {\n    nme: \"x\"\n  }\n}\n",
               "models.config:3:5: unknown field 'nme' in 'config'");
  config_fails("model_config_list {\n  config { name: \"x\" base_path: \"/b\"\n", "models.config:3:1: expected '}'");
  config_fails("model_config_list { config { name: x base_path: \"/b\" } }",
               "1:30: field 'name' must be a quoted string");
  config_fails("model_config_list { config { name: \"x\" name: \"y\" base_path: \"/b\" } }",
               "specified multiple times");
  config_fails("model_config_list { config { name: \"x\" } }", "needs a non-empty 'base_path'");
  config_fails("model_config_list { config { base_path: \"/b\" } }", "needs a non-empty 'name'");
  config_fails(
      "model_config_list { config { name: \"x\" base_path: \"/b\" } config { name: \"x\" base_path: \"/c\" } }",
      "configured twice");
  config_fails("model_config_list { config { name: \"x\" base_path: \"/b\" model_platform: \"tensorflow\" } }",
               "model_platform must be \"hlorun\"");
  config_fails(
      "model_config_list { config { name: \"x\" base_path: \"/b\" model_version_policy { latest {} all {} } } }",
      "another member of oneof");
  config_fails("model_config_list { config { name: \"x\" base_path: \"/b\" model_version_policy { specific {} } } }",
               "lists no versions");
  config_fails(
      "model_config_list { config { name: \"x\" base_path: \"/b\" model_version_policy { latest { num_versions: 0 } } "
      "} }",
      "must be an integer in [1,");
  config_fails("model_config_list { config { name: \"x\" base_path: \"/b\" version_labels { key: \"a\" } } }",
               "needs a 'value'");
  config_fails(
      "model_config_list { config { name: \"x\" base_path: \"/b\" version_labels { key: \"a\" value: 1 } "
      "version_labels { key: \"a\" value: 2 } } }",
      "defined twice");
  config_fails("model_config_list { config { name: \"x\" base_path: \"/b\" logging_config {} } }", "not supported");
  config_fails("custom_model_config {}", "not supported");
  config_fails("", "no models configured");
  config_fails("model_config_list { config { name: \"a\\q\" base_path: \"/b\" } }", "invalid escape");
  config_fails("model_config_list { config { name: \"x\n\" } }", "unterminated string");
  config_fails(
      "model_config_list { config { name: \"x\" base_path: \"/b\" model_version_policy { specific { versions: 1.5 } } "
      "} }",
      "expected an integer");
  config_fails("model_config_list { @ }", "unexpected character '@'");
}

TEST(nesting_is_bounded) {
  char text[400] = "a ";
  for (int i = 0; i < 40; i++) strcat(text, "{ b ");
  config_fails(text, "deeper than 32");
}

/* Parses BatchingParameters that must be valid. */
static void batching_ok(const char *text, srv_batching_params *p) {
  hr_status s = srv_batching_parse("batching.config", text, strlen(text), p);
  if (s) {
    fprintf(stderr, "unexpected error: %s\n", hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
  }
}

/* Checks that BatchingParameters fail with a message containing `needle`. */
static void batching_fails(const char *text, const char *needle) {
  srv_batching_params p;
  hr_status s = srv_batching_parse("batching.config", text, strlen(text), &p);
  CHECK(s != NULL);
  if (!s) {
    srv_batching_free(&p);
    return;
  }
  CHECK_STR_CONTAINS(hr_status_message(s), needle);
  hr_status_free(s);
}

TEST(batching_parameters) {
  srv_batching_params p;
  batching_ok(
      "max_batch_size { value: 32 }\nbatch_timeout_micros { value: 5000 }\nmax_enqueued_batches { value: 100 }\n"
      "num_batch_threads { value: 4 }\nthread_pool_name { value: \"batch\" }\nallowed_batch_sizes: 8\n"
      "allowed_batch_sizes: [16, 32]\npad_variable_length_inputs: false\n",
      &p);
  CHECK_EQ_INT(p.max_batch_size, 32);
  CHECK_EQ_INT(p.batch_timeout_micros, 5000);
  CHECK_EQ_INT(p.max_enqueued_batches, 100);
  CHECK_EQ_INT(p.num_batch_threads, 4);
  CHECK_EQ_INT(p.n_allowed_batch_sizes, 3);
  srv_batching_free(&p);
  batching_ok("", &p);
  CHECK_EQ_INT(p.max_batch_size, 1000);
  CHECK_EQ_INT(p.batch_timeout_micros, 0);
  CHECK_EQ_INT(p.max_enqueued_batches, 10);
  CHECK(p.num_batch_threads >= 1);
  srv_batching_free(&p);
}

TEST(batching_parameter_errors) {
  batching_fails("max_batch_size { value: 0 }", "must be an integer in [1,");
  batching_fails("max_batch_size {}", "must be at least 1");
  batching_fails("max_batch_size: 3", "must be a message");
  batching_fails("max_batch_size { value: 8 } max_batch_size { value: 9 }", "specified multiple times");
  batching_fails("max_batch_size { val: 8 }", "unknown field 'val'");
  batching_fails("num_batch_threads { value: 5000 }", "must be an integer in [1, 1024]");
  batching_fails("allowed_batch_sizes: 8 allowed_batch_sizes: 4", "must be increasing");
  batching_fails("max_batch_size { value: 16 } allowed_batch_sizes: 8", "must equal max_batch_size");
  batching_fails("pad_variable_length_inputs: true", "not supported");
  batching_fails("enable_large_batch_splitting { value: true }", "batching.config:1:1: unknown field");
}

TEST(textproto_tree) {
  srv_tp_field root;
  static const char text[] = "a: 1 b { c: \"x\\x41\\101\" d: ident } e: [1, 2]";
  CHECK_OK(srv_tp_parse("t", text, strlen(text), &root));
  CHECK_EQ_INT(root.n_fields, 4);
  if (root.n_fields == 4) {
    CHECK_EQ_INT(root.fields[0].kind, SRV_TP_INT);
    CHECK_EQ_INT(root.fields[1].kind, SRV_TP_MESSAGE);
    CHECK(strcmp(root.fields[1].fields[0].text, "xAA") == 0);
    CHECK_EQ_INT(root.fields[1].fields[1].kind, SRV_TP_IDENT);
    CHECK_EQ_INT(root.fields[3].line, 1);
    CHECK_EQ_INT(root.fields[3].col, 36);
  }
  srv_tp_free(&root);
}

/* Checks that an SSLConfig fails with a message containing `needle`, leaving nothing allocated. */
static void ssl_fails(const char *text, const char *needle) {
  srv_ssl_config c;
  hr_status s = srv_ssl_parse("ssl.config", text, strlen(text), &c);
  CHECK(s != NULL);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), needle);
  CHECK(!c.server_key && !c.server_cert && !c.custom_ca);
  hr_status_free(s);
  srv_ssl_free(&c);
}

TEST(ssl_config) {
  srv_ssl_config c;
  static const char text[] = "server_key: \"-----BEGIN PRIVATE KEY-----\\nk\\n\"\n"
                             "server_cert: '-----BEGIN CERTIFICATE-----\\n' 'c'\n"
                             "custom_ca: \"-----BEGIN CERTIFICATE-----\\na\"  client_verify: true\n";
  CHECK_OK(srv_ssl_parse("ssl.config", text, strlen(text), &c));
  CHECK(c.server_key && strcmp(c.server_key, "-----BEGIN PRIVATE KEY-----\nk\n") == 0);
  CHECK(c.server_cert && strcmp(c.server_cert, "-----BEGIN CERTIFICATE-----\nc") == 0);
  CHECK(c.custom_ca && c.client_verify);
  srv_ssl_free(&c);
  /* proto3: an empty custom_ca is no custom_ca */
  static const char empty_ca[] = "server_key: '-----BEGIN K' server_cert: '-----BEGIN C' custom_ca: ''";
  CHECK_OK(srv_ssl_parse("ssl.config", empty_ca, strlen(empty_ca), &c));
  CHECK(!c.custom_ca && !c.client_verify);
  srv_ssl_free(&c);
}

TEST(ssl_config_errors) {
  ssl_fails("server_cert: '-----BEGIN C'", "needs server_key");
  ssl_fails("server_key: '-----BEGIN K'", "needs server_cert");
  ssl_fails("server_key: '/etc/key.pem' server_cert: '-----BEGIN C'", "server_key is not PEM text");
  ssl_fails("server_key: '-----BEGIN K' server_cert: '-----BEGIN C' client_verify: true", "client_verify needs custom_ca");
  ssl_fails("server_key: '-----BEGIN K' server_key: '-----BEGIN K'", "specified multiple times");
  ssl_fails("server_key: '-----BEGIN K' server_cert: '-----BEGIN C' client_verify: maybe", "must be true or false");
  ssl_fails("server_key: '-----BEGIN K' server_cert: '-----BEGIN C' ssl: 1", "ssl.config:1:56: unknown field 'ssl'");
  ssl_fails("server_key { }", "must be a quoted string");
}

int main(void) {
  RUN(full_model_server_config);
  RUN(defaults_and_single_model);
  RUN(config_errors_name_line_and_column);
  RUN(nesting_is_bounded);
  RUN(batching_parameters);
  RUN(batching_parameter_errors);
  RUN(textproto_tree);
  RUN(ssl_config);
  RUN(ssl_config_errors);
  TEST_MAIN_END();
}

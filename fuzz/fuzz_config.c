/* libFuzzer target for the configuration readers (src/server/textproto.c, config.c): any byte
 * string must parse, as a ModelServerConfig, as BatchingParameters and as an SSLConfig, or fail
 * cleanly; what
 * parses must hold what the schema promises (server.h). */
#include <stddef.h>
#include <stdint.h>

#include "server/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  srv_config c;
  hr_status s = srv_config_parse("fuzz.config", text, size, &c);
  if (!s) {
    if (c.n_models < 1) __builtin_trap();
    for (int i = 0; i < c.n_models; i++) {
      const srv_model_config *m = &c.models[i];
      if (!m->name[0] || !m->base_path[0]) __builtin_trap();
      if (m->policy.kind == SRV_POLICY_LATEST && m->policy.num_versions < 1) __builtin_trap();
      if (m->policy.kind == SRV_POLICY_SPECIFIC && m->policy.n_versions < 1) __builtin_trap();
      for (int j = 0; j < m->policy.n_versions; j++)
        if (m->policy.versions[j] < 1) __builtin_trap();
    }
    srv_config_free(&c);
  }
  hr_status_free(s);

  srv_batching_params p;
  s = srv_batching_parse("fuzz.batching", text, size, &p);
  if (!s) {
    int n = p.n_allowed_batch_sizes;
    if (p.max_batch_size < 1 || (n && p.allowed_batch_sizes[n - 1] != p.max_batch_size)) __builtin_trap();
    for (int i = 1; i < n; i++)
      if (p.allowed_batch_sizes[i] <= p.allowed_batch_sizes[i - 1]) __builtin_trap();
    srv_batching_free(&p);
  }
  hr_status_free(s);

  srv_ssl_config ssl;
  s = srv_ssl_parse("fuzz.ssl", text, size, &ssl);
  if (!s && (!ssl.server_key || !ssl.server_cert || (ssl.client_verify && !ssl.custom_ca))) __builtin_trap();
  if (s && (ssl.server_key || ssl.server_cert || ssl.custom_ca)) __builtin_trap();
  srv_ssl_free(&ssl);
  hr_status_free(s);
  return 0;
}

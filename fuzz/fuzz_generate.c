/* libFuzzer target for generation requests (src/server/generation_request.c): the JSON body of
 * `:generate` or `/v1/completions` must parse or fail cleanly, and what parses must hold bounded
 * values: at most HR_LIMIT_GEN_STOP_STRINGS stop strings of 1 to HR_LIMIT_GEN_STOP_BYTES bytes
 * each pointing into the request, a prompt (string or token ids in the vocabulary's bound).
 *
 * Input: one mode byte ('O': OpenAI's defaults, anything else hlorun's), then the body; e.g.
 * `G{"prompt": "Hello", "max_tokens": 4, "stop": ["\n"], "stream": true}`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/generation_request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  srv_gen_request g;
  hr_status s = srv_gen_request_parse((const char *)data + 1, size - 1, 64, data[0] == 'O', &g);
  if (!s) {
    const hr_gen_params *p = &g.params;
    if (p->n_stop < 0 || p->n_stop > HR_LIMIT_GEN_STOP_STRINGS) __builtin_trap();
    for (int k = 0; k < p->n_stop; k++)
      if (p->stop_len[k] < 1 || p->stop_len[k] > HR_LIMIT_GEN_STOP_BYTES || p->stop[k] != g.stop[k].data)
        __builtin_trap();
    if (!g.prompt.data && !g.prompt_tokens) __builtin_trap();
    for (int i = 0; i < g.n_prompt_tokens; i++)
      if (g.prompt_tokens[i] < 0 || g.prompt_tokens[i] >= HR_LIMIT_GEN_VOCAB) __builtin_trap();
    if (strnlen(g.model, sizeof g.model) == sizeof g.model) __builtin_trap();
  }
  hr_status_free(s);
  srv_gen_request_free(&g);
  return 0;
}

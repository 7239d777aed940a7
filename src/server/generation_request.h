/* Generation requests as their JSON bodies give them (generation_request.c, docs/generation.md). */
#ifndef HLORUN_SERVER_GENERATION_REQUEST_H
#define HLORUN_SERVER_GENERATION_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "generate/generate.h"

/* A generation request as parsed from its JSON body. */
typedef struct srv_gen_request {
  hr_strbuf prompt;       /* a string prompt's bytes */
  int32_t *prompt_tokens; /* or its token ids (a JSON array of integers) */
  int n_prompt_tokens;
  hr_gen_params params; /* its stop strings point into `stop` */
  hr_strbuf stop[HR_LIMIT_GEN_STOP_STRINGS];
  bool stream;
  bool seeded;                      /* "seed" given; else params.seed is a fresh one */
  char model[HR_LIMIT_URL_SEGMENT]; /* OpenAI's "model", or "" */
} srv_gen_request;

/* Parses a body (nesting bounded by max_depth) into `g`, which srv_gen_request_free frees, also
 * after an error (INVALID_ARGUMENT "JSON Parse error: ... at offset: N" naming the member at fault).
 * `openai` sets OpenAI's defaults (temperature 1; hlorun's is 0, greedy). */
hr_status srv_gen_request_parse(const char *body, size_t len, int max_depth, bool openai, srv_gen_request *g);
void srv_gen_request_free(srv_gen_request *g);

#endif

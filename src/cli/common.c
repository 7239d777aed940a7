/* Helpers shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

int cli_parse_model_flag(const char *arg, const char *value, cli_model_args *m) {
  if (strcmp(arg, "--interpret") == 0) {
    m->interpret = true;
    return 1;
  }
  if (strcmp(arg, "--no-fusion") == 0) {
    m->no_fusion = true;
    return 1;
  }
  if (strcmp(arg, "--bf16") == 0) {
    m->bf16 = true;
    return 1;
  }
  if (strcmp(arg, "--no-batch-split") == 0) {
    m->no_batch_split = true;
    return 1;
  }
  if (strcmp(arg, "--spmd") == 0) {
    m->spmd = true;
    return 1;
  }
  if (strcmp(arg, "--weights") != 0 && strcmp(arg, "--function") != 0 && strcmp(arg, "--threads") != 0 &&
      strcmp(arg, "--device") != 0 && strcmp(arg, "--signature") != 0)
    return 0;
  if (!value) {
    fprintf(stderr, "hlorun: %s needs a value\n", arg);
    return -1;
  }
  if (strcmp(arg, "--weights") == 0) {
    m->weights = value;
  } else if (strcmp(arg, "--function") == 0) {
    m->function = value;
  } else if (strcmp(arg, "--signature") == 0) {
    m->signature = value;
  } else if (strcmp(arg, "--device") == 0) {
    m->device = value; /* checked when the model is opened, against the devices there are */
  } else {
    int64_t t;
    if (!cli_parse_int(arg, value, 0, 1024, &t)) return -1;
    m->threads = (int)t;
  }
  return 2;
}

bool cli_parse_int(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno || end == text || *end || v < lo || v > hi) {
    fprintf(stderr, "hlorun: %s: '%s' is not an integer in [%lld, %lld]\n", flag, text, (long long)lo, (long long)hi);
    return false;
  }
  *out = v;
  return true;
}

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

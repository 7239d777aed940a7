/* The hlorun command-line tool: one function per subcommand. */
#ifndef HLORUN_CLI_CLI_H
#define HLORUN_CLI_CLI_H

#include <stdio.h>

#include "hlorun/hlorun.h"

#include "cli/model.h"

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_weights(int argc, char **argv);

/* Handles the flags shared by commands that open a model (--weights W, --function F,
 * --interpret, --threads N, --no-fusion, --bf16, --no-batch-split, --spmd, --device D). Returns how many arguments it
 * consumed (0: not such a flag), or -1 after printing an error. `value` is the next argument or
 * NULL. */
int cli_parse_model_flag(const char *arg, const char *value, cli_model_args *m);
/* Parses a decimal integer in [lo, hi] given for `flag`; prints an error naming the flag and
 * returns false otherwise. */
bool cli_parse_int(const char *flag, const char *text, int64_t lo, int64_t hi, int64_t *out);
/* Monotonic time in seconds. */
double cli_now(void);

/* Prints a tensor numpy-style; arrays over 1000 elements are summarized (3 items per edge). */
void print_tensor(FILE *out, const hr_tensor *t);
/* Prints "tensor<2x3xf32>" style type text for a tensor. */
void print_tensor_type(FILE *out, const hr_tensor *t);
/* Reports an error status on stderr as "hlorun: <message>" and frees it. Returns 1. */
int report_error(hr_status s);

#endif

/* The hlorun command-line tool: one function per subcommand. */
#ifndef HLORUN_CLI_CLI_H
#define HLORUN_CLI_CLI_H

#include <stdio.h>

#include "hlorun/hlorun.h"

int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_inspect(int argc, char **argv);

/* Prints a tensor numpy-style; arrays over 1000 elements are summarized (3 items per edge). */
void print_tensor(FILE *out, const hr_tensor *t);
/* Prints "tensor<2x3xf32>" style type text for a tensor. */
void print_tensor_type(FILE *out, const hr_tensor *t);
/* Reports an error status on stderr as "hlorun: <message>" and frees it. Returns 1. */
int report_error(hr_status s);

#endif

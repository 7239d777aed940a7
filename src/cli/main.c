/* hlorun: entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] =
    "usage: hlorun <command> [options]\n"
    "\n"
    "commands:\n"
    "  run FILE.mlir [--input NAME=FILE.npy]... [--output DIR] [--function NAME]\n"
    "      run a function (default @main), print its results, optionally save them as .npy\n"
    "  check [--dim N] [--quiet] FILE.mlir...\n"
    "      run StableHLO test programs and their check.* assertions; prints PASS/FAIL per file\n"
    "      and a closing line \"N passed, N failed\"\n"
    "  inspect FILE.mlir [--ir]\n"
    "      show the module's functions and signatures; --ir prints the parsed module as text\n"
    "  version\n";

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
  if (strcmp(cmd, "check") == 0) return cmd_check(argc - 2, argv + 2);
  if (strcmp(cmd, "inspect") == 0) return cmd_inspect(argc - 2, argv + 2);
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    puts("hlorun " HLORUN_VERSION_STRING);
    return 0;
  }
  fprintf(stderr, "hlorun: unknown command '%s'\n\n%s", cmd, usage);
  return 2;
}

/* hlorun: entry point and subcommand dispatch. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] =
    "usage: hlorun <command> [options]\n"
    "\n"
    "commands:\n"
    "  run MODEL [--weights W] [--input NAME=FILE.npy]... [--batch N] [--output DIR] [--interpret]\n"
    "      run a model (.mlir, artifact or executable), print its results, optionally save .npy\n"
    "  compile MODEL.mlir --weights W [--shape NAME=1x256]... [--batch N] -o OUT.hlox\n"
    "      compile ahead of time for fixed shapes into an executable file\n"
    "  export MODEL.mlir [--weights W] -o OUT.hlo\n"
    "      write a portable artifact: program, metadata and weights in one mappable file\n"
    "  bench MODEL [--weights W] [--batches 1,4,16,64] [--iters N] [--jit-calls N]\n"
    "      first call versus steady state, and a throughput table over batch sizes\n"
    "  compare A B [--weights W] [--input NAME=FILE.npy]... [--batch N] [--interpret-a|-b]\n"
    "      run two models on the same inputs and print the largest differences\n"
    "  generate MODEL [--weights W] --prompt TEXT [--max-tokens N] [--temperature T] [--top-k K]\n"
    "           [--top-p P] [--seed S] [--stop TEXT]... [--parallel N]\n"
    "      generate text from a model with @prefill and @decode (docs/generation.md), streamed to stdout\n"
    "  serve (--model_base_path DIR [--model_name NAME] | --model_config_file FILE) [--port N] [...]\n"
    "      serve TensorFlow Serving's REST API for hlorun artifacts and jax2tf SavedModels (docs/serving.md)\n"
    "  check [--dim N] [--quiet] [--summary] FILE.mlir...\n"
    "      run StableHLO test programs and their check.* assertions; prints PASS/FAIL per test\n"
    "      case (a file's @main, else each public function without parameters; lit files split\n"
    "      at `// -----` lines, each part a module) and a closing line \"N passed, N failed\";\n"
    "      --summary adds \"FILE: passed/total\" per file and \"total: passed/total\" before it\n"
    "  inspect MODEL [--ir [--out FILE.mlir] [--preview N]]\n"
    "      show a model's functions and signatures; --ir prints (a preview of) its program text\n"
    "  convert IN OUT [--to text|bytecode|jax-export] [--target 1.8]\n"
    "      write a model (text, portable artifact or jax.export file) as StableHLO text, a StableHLO\n"
    "      portable artifact (MLIR bytecode for a StableHLO version) or a jax.export file\n"
    "  weights SRC [--save OUT.safetensors|OUT_DIR]\n"
    "      list the tensors of a weight source (Orbax checkpoint directory or safetensors file) and\n"
    "      save them as a safetensors file or a new Orbax checkpoint\n"
    "  version\n"
    "\n"
    "model options: --weights W (a .safetensors file or an Orbax checkpoint directory), --function NAME, --threads N, --interpret (reference\n"
    "interpreter), --no-fusion (compile without fusing), --bf16 (matrix products in bf16),\n"
    "--no-batch-split (run large batches whole instead of in cache-sized chunks), --device NAME (cpu, or\n"
    "template: the template backend, which runs f32/i32 add, subtract and multiply itself, the rest on the CPU)\n";

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "run") == 0) return cmd_run(argc - 2, argv + 2);
  if (strcmp(cmd, "check") == 0) return cmd_check(argc - 2, argv + 2);
  if (strcmp(cmd, "inspect") == 0) return cmd_inspect(argc - 2, argv + 2);
  if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
  if (strcmp(cmd, "compile") == 0) return cmd_compile(argc - 2, argv + 2);
  if (strcmp(cmd, "export") == 0) return cmd_export(argc - 2, argv + 2);
  if (strcmp(cmd, "convert") == 0) return cmd_convert(argc - 2, argv + 2);
  if (strcmp(cmd, "weights") == 0) return cmd_weights(argc - 2, argv + 2);
  if (strcmp(cmd, "compare") == 0) return cmd_compare(argc - 2, argv + 2);
  if (strcmp(cmd, "serve") == 0) return cmd_serve(argc - 2, argv + 2);
  if (strcmp(cmd, "generate") == 0) return cmd_generate(argc - 2, argv + 2);
  if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
    printf("hlorun %s\n", hr_version_string());
    return 0;
  }
  fprintf(stderr, "hlorun: unknown command '%s'\n\n%s", cmd, usage);
  return 2;
}

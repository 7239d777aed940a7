/* Models as the CLI sees them: a StableHLO file (with optional weights) run through the compiler
 * (JIT; on one thread per device when the module is written for several: hr_spmd) or the
 * reference interpreter, a portable artifact, or an executable file. */
#ifndef HLORUN_CLI_MODEL_H
#define HLORUN_CLI_MODEL_H

#include "generate/generate.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"

typedef struct cli_model_args {
  const char *path;     /* .mlir text, artifact or executable file, or a SavedModel directory */
  const char *weights;  /* .safetensors for .mlir files, or NULL */
  const char *function; /* entry function (NULL: main) */
  const char *signature; /* a SavedModel's signature (NULL: serving_default) */
  bool interpret;       /* run .mlir files with the reference interpreter */
  int threads;          /* 0: all CPUs */
  bool no_fusion;       /* compile without the fusion pass */
  bool bf16;            /* matrix products in bf16 (opt-in) */
  bool no_batch_split;  /* run large batches whole (no batch split) */
  bool spmd;            /* a global program for several devices: one thread per device (hr_spmd) */
  const char *device;   /* the device to run on ("cpu", "template"), or NULL: the CPU */
} cli_model_args;

typedef struct cli_model {
  const char *function;
  hr_program *program; /* compiled path */
  /* compiled path of a module for several devices (mhlo.num_partitions/num_replicas > 1): its
   * inputs are every device's inputs, device after device, named NAME@DEVICE; or of a global
   * program run with --spmd, whose inputs are the global ones */
  hr_spmd *spmd;
  hr_executable *exe;  /* executable file */
  /* Interpreter path: the module, its weights, and which parameters are inputs. */
  hr_module *module;
  hr_weights *weights;
  const hr_func *fn;
  const hr_tensor **bound; /* per parameter: its weight or NULL */
  int *input_params;       /* parameter index of each input */
  int n_inputs;
} cli_model;

hr_status cli_model_open(const cli_model_args *args, cli_model *m);
/* Whether `path` is a jax2tf SavedModel: a directory holding saved_model.pb. */
bool cli_is_savedmodel(const char *path);
/* Whether `path` is an artifact or executable file (rather than StableHLO text). */
bool cli_is_container(const char *path);
void cli_model_close(cli_model *m);
/* Opens a generation model (docs/generation.md): a module file with public @prefill and @decode
 * (and --weights) or an artifact of one, compiled for `slots` sequences at once. */
hr_status cli_gen_model_open(const cli_model_args *args, int slots, hr_gen_model **out);
int cli_model_num_inputs(const cli_model *m);
hr_tensor_spec cli_model_input_spec(const cli_model *m, int i);
/* The input's name (jax.arg_info, else "argN" formatted into buf). */
const char *cli_model_input_name(const cli_model *m, int i, char *buf, size_t cap);
/* Finds an input by name or index text; -1 when absent. */
int cli_find_input(const cli_model *m, const char *name);
hr_status cli_model_run(cli_model *m, hr_tensor *const *inputs, int n, hr_tensor ***outputs, int *n_outputs);
/* Creates deterministic input i with every dynamic dimension set to `dynamic_dim`. */
hr_status cli_generate_input(const cli_model *m, int i, int64_t dynamic_dim, hr_tensor **out);

#endif

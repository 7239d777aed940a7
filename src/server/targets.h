/* The signatures a model version serves (its predict targets), as TensorFlow Serving serves them.
 *
 * An hlorun artifact has one, "serving_default": its program. A jax2tf SavedModel has its
 * SignatureDefs, sorted by name: each whose method_name is tensorflow/serving/predict is followed
 * to its XlaCallModule and becomes a program of its own (src/formats/savedmodel), and the version
 * fails to load, naming the signature, when one of them cannot be built, since TF Serving loads
 * the whole graph or nothing. The others (__saved_model_init_op, which jax2tf's TF2 SavedModels
 * carry with no inputs and an empty method, and classify/regress signatures, which take serialized
 * tf.Examples) are listed in metadata as declared but run nothing.
 *
 * A SavedModel signature's inputs and outputs are its keys, in key order, described in metadata
 * by their SignatureDef TensorInfo (graph tensor name, TF dtype and shape). Its program takes the
 * inputs its XlaCallModule reads, in the call's order: `feeds` maps them to the signature's (an
 * input the call ignores is still required in requests, as TF Serving requires every input). */
#ifndef HLORUN_SERVER_TARGETS_H
#define HLORUN_SERVER_TARGETS_H

#include <stdbool.h>

#include "hlorun/hlorun.h"
#include "server/predict.h"

struct srv_servable;

/* One signature of a loaded version. */
typedef struct srv_target {
  srv_signature signature;       /* how requests name and shape its tensors; metadata */
  hr_program *program;           /* thread-safe; NULL: listed in metadata only */
  int n_feeds;                   /* the program's inputs */
  int *feeds;                    /* per program input: the signature input it takes; NULL: the same index */
  bool batchable;                /* see srv_signature_batchable */
  struct srv_servable *servable; /* the version it belongs to (set by the registry) */
} srv_target;

/* The one target of an artifact's program, which it takes over (also on error). */
hr_status srv_targets_from_program(hr_program *program, srv_target **out, int *n_out);
/* The targets of the SavedModel directory `dir` (see above), programs created with `exec`. Errors
 * name the directory and, for a signature that cannot be built, the signature. */
hr_status srv_targets_from_savedmodel(const char *dir, const hr_exec_options *exec, srv_target **out, int *n_out);
void srv_targets_free(srv_target *targets, int n);

/* The target called `name` ("" names serving_default), or NULL. */
const srv_target *srv_targets_find(const srv_target *targets, int n, const char *name);
/* Fills program_inputs (n_feeds entries, borrowed) from a request's inputs in signature order. */
void srv_target_feed(const srv_target *t, hr_tensor *const *inputs, hr_tensor **program_inputs);

#endif

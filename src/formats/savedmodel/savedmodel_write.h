/* A SavedModel written the way jax2tf and tf.saved_model.save write one for a JAX function with
 * its parameters as variables (jax2tf's saved_model_lib.convert_and_save_model with native
 * serialization), so that TF Serving, tf.saved_model.load and hlorun serve it:
 *
 *   DIR/saved_model.pb       SavedModel -> one MetaGraphDef tagged "serve":
 *     graph_def              placeholders "serving_default_KEY", a VarHandleOp per variable
 *                            ("Variable", "Variable_1", ...), the serving call
 *                            (StatefulPartitionedCall -> __inference_signature_wrapper), the
 *                            object graph constant, saver_filename and the save/restore calls;
 *       library              the jax2tf function (ReadVariableOp of each variable, jax2tf_arg_N
 *                            Identity, XlaSharding, one XlaCallModule of version 9 holding the
 *                            module as a StableHLO portable artifact, platforms ["CPU"]), the
 *                            signature wrapper, and the traced save (SaveV2, MergeV2Checkpoints)
 *                            and restore (RestoreV2 -> AssignVariableOp) functions;
 *     saver_def              saver_filename:0, StatefulPartitionedCall_1:0, StatefulPartitionedCall_2;
 *     collection_def         saved_model_main_op: NoOp;
 *     signature_def          "serving_default" (inputs by key, outputs output_0, output_1, ...)
 *                            and "__saved_model_init_op";
 *     object_graph_def       the module (children _variables, f, signatures), its variables, the
 *                            concrete functions with their bound variables and TensorSpecs.
 *   DIR/variables/variables.{index,data-00000-of-00001}
 *                            a TensorBundle: each variable under
 *                            "_variables/N/.ATTRIBUTES/VARIABLE_VALUE" and the checkpoint's
 *                            object graph under "_CHECKPOINTABLE_OBJECT_GRAPH".
 *
 * Not written: fingerprint.pb (its hashes are FarmHash fingerprints of TF's own serialization,
 * and every loader treats the file as optional) and the MetaInfoDef's stripped_op_list and
 * TensorFlow version strings (no TensorFlow wrote the file). */
#ifndef HLORUN_FORMATS_SAVEDMODEL_SAVEDMODEL_WRITE_H
#define HLORUN_FORMATS_SAVEDMODEL_SAVEDMODEL_WRITE_H

#include <stdint.h>

#include "ir/ir.h"

/* What is written: `module`'s @main, whose parameter p is the variable holding bound[p] when that
 * is not NULL and a signature input otherwise (named after its jax.arg_info when that is a valid
 * TensorFlow name, else "input_N"); `version` is the StableHLO version (VHLO_PROPS_VERSION) of the
 * module's portable artifact inside the XlaCallModule. */
typedef struct hr_savedmodel_source {
  const hr_module *module;
  const hr_tensor *const *bound;
  uint16_t version;
} hr_savedmodel_source;

/* Writes the SavedModel into directory `dir` (created if absent, with its variables/); files of
 * the same names are replaced, each atomically. */
hr_status hr_savedmodel_write(const char *dir, const hr_savedmodel_source *src);

#endif

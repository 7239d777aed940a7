/* jax2tf SavedModels (and bare GraphDefs) as TF Serving loads them, with no TensorFlow: the
 * SavedModel proto's MetaGraphDef tagged "serve", its SignatureDefs, its graph and function
 * library, the functions of its object graph, and every XlaCallModule node (the StableHLO module
 * jax2tf embeds, with its calling convention). A signature becomes one program: the graph is
 * followed from the signature's outputs through the ops jax2tf writes around XlaCallModule
 * (Identity, IdentityN, XlaSharding, ReadVariableOp, StatefulPartitionedCall/PartitionedCall into
 * the library, ...) to one XlaCallModule, whose inputs must come from the signature's inputs or
 * from variables; each variable's checkpoint key is found in the SavedModel's restore function
 * (RestoreV2 -> AssignVariableOp), the way TF Serving's loader restores it. A function of the
 * object graph (a SavedModel with no signature, such as deepmd's) becomes one program with the TF
 * ops jax2tf writes around its XlaCallModules when it branches on shapes lowered to StableHLO
 * (lower.c: Shape, StridedSlice, If, ...). Any other op is an error that lists the ops of the
 * graph and says that only jax2tf native-serialization graphs are supported. */
#ifndef HLORUN_FORMATS_SAVEDMODEL_SAVEDMODEL_H
#define HLORUN_FORMATS_SAVEDMODEL_SAVEDMODEL_H

#include "formats/savedmodel/graph.h"
#include "ir/ir.h"

/* A tensor of a signature: its key, the graph tensor ("serving_default_x:0"), dtype and shape. */
typedef struct tf_tensor_info {
  const char *key;
  const char *name;
  int dtype; /* TF DataType */
  tf_shape shape;
} tf_tensor_info;

typedef struct tf_signature {
  const char *key; /* "serving_default" */
  const char *method;
  int n_inputs, n_outputs;
  tf_tensor_info *inputs, *outputs; /* sorted by key, as TF Serving lists them */
} tf_signature;

/* A function of the object graph (a tf.function attribute of the saved module, such as deepmd's
 * "call_lower"): its name and its concrete functions. */
typedef struct tf_object_function {
  const char *name;
  int n_concrete;
  const char **concrete;
} tf_object_function;

/* An XlaCallModule node and what its attributes say. */
typedef struct tf_xla_call {
  const tf_node *node;
  const char *function; /* the library function holding it; NULL: the graph itself */
  int64_t version;
  const uint8_t *module; /* the module's bytes (inside the file) */
  size_t module_len;
  int n_platforms;
  const char **platforms; /* upper case: "CPU", "CUDA", ... */
  int n_disabled_checks;
  const char **disabled_checks;
  int n_function_list; /* TF functions the module calls back (tf.call_tf_function) */
  bool has_token_input_output;
  int n_outputs;
  int *out_dtypes; /* Tout */
} tf_xla_call;

typedef struct hr_savedmodel {
  hr_arena arena;
  const char *path;      /* the directory (or the GraphDef file) */
  void *map;             /* the mapped saved_model.pb */
  size_t map_len;
  hr_pb file;            /* a cursor of the whole file, for messages */
  int n_tags;
  const char **tags;
  tf_graph graph;
  int n_signatures;
  tf_signature *signatures;
  int n_object_functions;
  tf_object_function *object_functions;
  int n_xla_calls;
  tf_xla_call *xla_calls;
  const char *restore_op; /* SaverDef.restore_op_name's node, or NULL */
} hr_savedmodel;

/* Reads `path`: a SavedModel directory (saved_model.pb), or a file holding a SavedModel or a bare
 * GraphDef (told apart by their first field). */
hr_status hr_savedmodel_open(const char *path, const hr_allocator *a, hr_savedmodel **out);
/* Reads a SavedModel or GraphDef message held in memory (`data` must outlive the result); `name`
 * names it in errors. */
hr_status hr_savedmodel_read_bytes(const char *name, const void *data, size_t len, const hr_allocator *a,
                                   hr_savedmodel **out);
void hr_savedmodel_close(hr_savedmodel *sm);
/* Whether `data` (the first bytes of a file suffice) starts as a SavedModel or a GraphDef does. */
bool hr_savedmodel_sniff(const void *data, size_t len);
/* Whether `path` is a directory holding saved_model.pb. */
bool hr_savedmodel_sniff_dir(const char *path);

/* The signature named `key`, or NULL. */
const tf_signature *hr_savedmodel_signature(const hr_savedmodel *sm, const char *key);

/* What one signature runs: the XlaCallModule it reaches, and where each of that call's inputs
 * comes from (a signature input or a variable's checkpoint key) and which call output each
 * signature output is. */
typedef struct tf_program {
  const tf_xla_call *call;
  int n_args;
  int *arg_input;            /* per call input: the signature input index, or -1 for a variable */
  const char **arg_variable; /* per call input: the variable's checkpoint key, or NULL */
  int *output_of;            /* per signature output: the call's output index */
} tf_program;

/* Follows signature `sig` to its XlaCallModule (see above). */
hr_status hr_savedmodel_resolve(hr_savedmodel *sm, const tf_signature *sig, tf_program *out);

/* The checkpoint key of the variable whose VarHandleOp is graph node `var`: what the restore
 * function (SaverDef.restore_op_name's call) assigns it from RestoreV2's tensor_names. */
hr_status hr_savedmodel_variable_key(hr_savedmodel *sm, const tf_node *var, const char **key);

/* The module of `call`, parsed, with its calling convention applied (the platform index bound,
 * shape assertions dropped when disabled), its @main's parameters named (jax.arg_info) after the
 * signature input or variable key `p` gives each, and its results in the signature's output order
 * and named after its output keys. */
hr_status hr_savedmodel_module(const hr_savedmodel *sm, const tf_signature *sig, const tf_program *p,
                               const hr_parse_options *opts, hr_module **out);

/* The library function object-graph function `name` runs (`name` is the tf.function attribute of
 * the saved object, such as deepmd's "call_lower", or its concrete function's name): NOT_FOUND
 * when there is none, INVALID_ARGUMENT when it has several concrete functions. */
hr_status hr_savedmodel_object_function(const hr_savedmodel *sm, const char *name, const tf_function **out);

/* Library function `fn` as one module (lower.c): @main takes the function's arguments (typed by
 * their DataTypes and recorded shapes, named after them: jax.arg_info) and returns its outputs
 * (named after its output arguments: jax.result_info); each XlaCallModule it reaches is a call of
 * its module's functions, joined into the module, and the TF ops around them (the shape
 * arithmetic and If/StatelessIf of jax2tf's shape-dependent branches) are StableHLO ops; a branch
 * is taken per input shape when the program is specialized. Other ops are refused as
 * hr_savedmodel_resolve refuses them. The module is verified unless opts->no_verify. */
hr_status hr_savedmodel_lower(hr_savedmodel *sm, const tf_function *fn, const hr_parse_options *opts, hr_module **out);

/* Appends the inspection text: tags, signatures (inputs and outputs with TF dtypes and shapes),
 * object-graph functions, and each XlaCallModule's version, platforms and module size. */
void hr_savedmodel_describe(const hr_savedmodel *sm, struct hr_strbuf *out);

#endif

/* TensorFlow graphs as jax2tf writes them (tensorflow/core/framework/graph.proto, node_def.proto,
 * function.proto, attr_value.proto): a GraphDef's nodes and its library of functions, decoded from
 * the protobuf wire format into arena structs. Attribute values stay as their bytes and are read
 * by the typed getters below when a caller needs them. Bounds come from base/limits.h. */
#ifndef HLORUN_FORMATS_SAVEDMODEL_GRAPH_H
#define HLORUN_FORMATS_SAVEDMODEL_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "formats/protobuf/pb.h"

/* An attribute of a node: its key and its AttrValue message's bytes. */
typedef struct tf_attr {
  const char *key;
  hr_pb_field value; /* a LEN field: the AttrValue */
} tf_attr;

/* A NodeDef. Inputs are "node", "node:1" (graphs), "node:out_arg:1" (functions), "^node" (control). */
typedef struct tf_node {
  const char *name, *op;
  int n_inputs;
  const char **inputs;
  int n_attrs;
  tf_attr *attrs;
  size_t offset; /* where the NodeDef is in the file */
} tf_node;

/* A shape: rank -1 when unknown; dims -1 where unknown. */
typedef struct tf_shape {
  int rank;
  int64_t dims[HR_MAX_RANK];
} tf_shape;

/* A FunctionDef: its signature's arguments (names, DataTypes, and the shapes TF recorded for them in
 * the `_output_shapes` argument attribute: rank -1 where none is recorded), its nodes, and what
 * each output is. */
typedef struct tf_function {
  const char *name;
  int n_args;
  const char **args;
  int *arg_types; /* DataType; 0 when an attribute holds the argument's type */
  tf_shape *arg_shapes;
  int n_outputs;
  const char **outputs;
  int n_nodes;
  tf_node *nodes;
  int n_rets;
  const char **ret_keys;   /* output argument names */
  const char **ret_values; /* "node:out_arg:idx" */
} tf_function;

typedef struct tf_graph {
  int n_nodes;
  tf_node *nodes;
  int n_functions;
  tf_function *functions;
} tf_graph;

/* A constant tensor (a Const node's `value`): its DataType, shape and elements, read as integers
 * (integer and bool types) or doubles (float types). */
typedef struct tf_const {
  int dtype;
  tf_shape shape;
  int64_t n;      /* elements */
  int64_t *ints;  /* integer and bool types, else NULL */
  double *floats; /* float types, else NULL */
} tf_const;

/* Decodes a GraphDef message (the LEN field `f` read by cursor `c`) into `out`. */
hr_status tf_graph_read(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, tf_graph *out);
/* Decodes a TensorShapeProto message. */
hr_status tf_shape_read(const hr_pb *c, const hr_pb_field *f, tf_shape *out);

/* The attribute `key` of `node`, or NULL. */
const tf_attr *tf_node_attr(const tf_node *node, const char *key);
/* The node named `name` (a NUL-terminated name, or `len` bytes of one) of `nodes`, or NULL. */
const tf_node *tf_find_node(const tf_node *nodes, int n, const char *name, size_t len);
/* The function named `name`, or NULL. */
const tf_function *tf_find_function(const tf_graph *g, const char *name);
/* Splits a tensor reference "node:out:idx", "node:idx" or "node" into the node name (its length)
 * and output index; false when it is malformed. */
bool tf_parse_ref(const char *ref, size_t *name_len, int *index);
/* The non-control input `i` of `node` ("^x" inputs only order execution), or NULL. */
const char *tf_data_input(const tf_node *node, int i);

/* Typed reads of an AttrValue (c: a cursor of the file, for messages). Each fails, naming the
 * attribute, when the value has another kind. */
hr_status tf_attr_bytes(const hr_pb *c, const tf_attr *a, const uint8_t **data, size_t *len); /* s */
hr_status tf_attr_int(const hr_pb *c, const tf_attr *a, int64_t *out);                        /* i */
hr_status tf_attr_bool(const hr_pb *c, const tf_attr *a, bool *out);                          /* b */
hr_status tf_attr_func(hr_arena *arena, const hr_pb *c, const tf_attr *a, const char **name);  /* func */
hr_status tf_attr_type(const hr_pb *c, const tf_attr *a, int *out);                           /* type */
/* tensor: a TensorProto whose type is an integer, bool, float or double type (UNIMPLEMENTED for
 * other types and for more than `cap` elements). */
hr_status tf_attr_tensor(hr_arena *arena, const hr_pb *c, const tf_attr *a, int64_t cap, tf_const *out);
/* list(...) values: up to `cap` of them; *n receives the count. */
hr_status tf_attr_list_types(const hr_pb *c, const tf_attr *a, int *out, int cap, int *n);
hr_status tf_attr_list_strings(hr_arena *arena, const hr_pb *c, const tf_attr *a, const char **out, int cap, int *n);
hr_status tf_attr_list_funcs(hr_arena *arena, const hr_pb *c, const tf_attr *a, const char **out, int cap, int *n);
hr_status tf_attr_list_shapes(const hr_pb *c, const tf_attr *a, tf_shape *out, int cap, int *n);

/* String field `number` of the message in LEN field `msg` (its last occurrence; "" when absent). */
hr_status tf_message_string(hr_arena *arena, const hr_pb *c, const hr_pb_field *msg, uint32_t number, const char **out);
/* A NUL-terminated arena copy of a LEN field's bytes, which must hold no NUL (names, keys). */
hr_status tf_string(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, const char **out);

#endif

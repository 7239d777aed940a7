/* hr_savedmodel_write (savedmodel_write.h): the SavedModel jax2tf and tf.saved_model.save write for
 * a JAX function over variables. Field numbers are those of tensorflow/core/protobuf/
 * {saved_model,meta_graph,saver,saved_object_graph,struct,trackable_object_graph,config}.proto
 * and tensorflow/core/framework/{graph,node_def,function,op_def,attr_value,tensor,
 * tensor_shape}.proto; node, argument and function names, attributes and their order follow the
 * SavedModels TF 2.x writes (attributes sorted by key, defaults stripped, as
 * stripped_default_attrs says). */
#include "formats/savedmodel/savedmodel_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/strbuf.h"
#include "base/weights.h"
#include "formats/mlirbc/writer.h"
#include "formats/protobuf/pb.h"
#include "formats/savedmodel/bundle.h"
#include "formats/savedmodel/tf_types.h"

/* The functions of the library. */
#define FN_JAX2TF "__inference_f_10"
#define FN_WRAPPER "__inference_signature_wrapper_20"
#define FN_SAVE "__inference__traced_save_30"
#define FN_RESTORE "__inference__traced_restore_40"
#define SIGNATURE "serving_default"
#define XLA_CALL_MODULE_VERSION 9
/* TF 2.18's GraphDef version (TF_GRAPH_DEF_VERSION) and the oldest consumer it allows. */
enum { GRAPH_PRODUCER = 1994, GRAPH_MIN_CONSUMER = 12 };
enum { NAME_CAP = 96 };

enum {
  /* SavedModel, MetaGraphDef, MetaInfoDef, SaverDef */
  SM_VERSION = 1, SM_META_GRAPHS = 2,
  MG_INFO = 1, MG_GRAPH = 2, MG_SAVER = 3, MG_COLLECTIONS = 4, MG_SIGNATURES = 5, MG_OBJECTS = 7,
  INFO_TAGS = 4, INFO_STRIPPED_DEFAULTS = 7,
  SAVER_FILENAME = 1, SAVER_SAVE = 2, SAVER_RESTORE = 3, SAVER_VERSION = 7, SAVER_V2 = 2,
  /* GraphDef, NodeDef, FunctionDef, OpDef, ArgDef */
  GRAPH_NODE = 1, GRAPH_LIBRARY = 2, GRAPH_VERSIONS = 4, LIBRARY_FUNCTION = 1,
  NODE_NAME = 1, NODE_OP = 2, NODE_INPUT = 3, NODE_DEVICE = 4, NODE_ATTR = 5,
  FN_SIGNATURE = 1, FN_NODE = 3, FN_RET = 4, FN_ATTR = 5, FN_CONTROL_RET = 6, FN_ARG_ATTR = 7, ARG_ATTRS_ATTR = 1,
  OP_NAME = 1, OP_INPUT = 2, OP_OUTPUT = 3, OP_STATEFUL = 17, OP_CONTROL_OUTPUT = 20, ARG_NAME = 1, ARG_TYPE = 3,
  /* AttrValue, its ListValue, TensorProto, TensorShapeProto */
  AV_LIST = 1, AV_S = 2, AV_I = 3, AV_B = 5, AV_TYPE = 6, AV_SHAPE = 7, AV_TENSOR = 8, AV_FUNC = 10,
  LIST_I = 3, LIST_TYPE = 6, LIST_SHAPE = 7,
  TENSOR_DTYPE = 1, TENSOR_SHAPE = 2, TENSOR_STRING_VAL = 8, TENSOR_INT_VAL = 7,
  SHAPE_DIM = 2, SHAPE_UNKNOWN_RANK = 3, DIM_SIZE = 1,
  /* SignatureDef, TensorInfo */
  SIG_INPUTS = 1, SIG_OUTPUTS = 2, SIG_METHOD = 3, TI_NAME = 1, TI_DTYPE = 2, TI_SHAPE = 3,
  /* SavedObjectGraph, SavedObject and its kinds, SavedConcreteFunction */
  OG_NODES = 1, OG_CONCRETE = 2, OBJ_CHILDREN = 1, OBJ_USER = 4, OBJ_VARIABLE = 7, OBJ_BARE = 8,
  REF_NODE = 1, REF_NAME = 2, USER_IDENTIFIER = 1, USER_VERSION = 2,
  VAR_DTYPE = 1, VAR_SHAPE = 2, VAR_NAME = 6,
  BARE_NAME = 1, BARE_KEYWORDS = 2, BARE_POSITIONAL = 3, BARE_SPEC = 4, SPEC_FULLARGSPEC = 1, SPEC_INPUT_SIGNATURE = 5,
  CF_BOUND = 2, CF_INPUTS = 3, CF_OUTPUTS = 4,
  /* StructuredValue and its parts */
  SV_NONE = 1, SV_STRING = 13, SV_TENSOR_SPEC = 33, SV_LIST = 51, SV_TUPLE = 52, SV_DICT = 53, SV_NAMED_TUPLE = 54,
  SV_VALUES = 1, DICT_FIELDS = 1, NT_NAME = 1, NT_VALUES = 2, PAIR_KEY = 1, PAIR_VALUE = 2,
  SPEC_NAME = 1, SPEC_SHAPE = 2, SPEC_DTYPE = 3,
  /* TrackableObjectGraph */
  TOG_NODES = 1, TO_CHILDREN = 1, TO_ATTRIBUTES = 2, TO_HAS_VALUES = 5, ST_NAME = 1, ST_FULL_NAME = 2, ST_KEY = 3,
  /* ConfigProto */
  CONFIG_DEVICE_COUNT = 1, CONFIG_SOFT_PLACEMENT = 7,
  /* The object graph's node ids: the variables follow the fixed nodes. */
  OBJ_ROOT = 0, OBJ_LIST = 1, OBJ_F = 2, OBJ_SIGNATURES = 3, OBJ_WRAPPER = 4, OBJ_FIRST_VARIABLE = 5,
};

/* ---------------------------------------------------------------------------------------------- */
/* A protobuf message builder: nested messages are opened and closed like scopes                   */
/* ---------------------------------------------------------------------------------------------- */

enum { PW_DEPTH = 16 }; /* deeper than the deepest message written here */

typedef struct pw {
  hr_strbuf buf[PW_DEPTH]; /* buf[0]: the outermost message; buf[d]: the one open at depth d */
  uint32_t field[PW_DEPTH];
  int depth;
  int lost; /* opens past PW_DEPTH (a bug here), each balanced by its close; an error at the end */
  bool overflowed;
} pw;

static hr_strbuf *top(pw *w) { return &w->buf[w->depth]; }

static void pw_open(pw *w, uint32_t field) {
  if (w->lost || w->depth + 1 == PW_DEPTH) {
    w->lost++;
    w->overflowed = true;
    return;
  }
  w->depth++;
  w->field[w->depth] = field;
  top(w)->len = 0;
}

static void pw_close(pw *w) {
  if (w->lost) {
    w->lost--;
    return;
  }
  const hr_strbuf *m = top(w);
  w->depth--;
  hr_pb_put_bytes(top(w), w->field[w->depth + 1], m->data ? m->data : "", m->len);
}

static void pw_uint(pw *w, uint32_t field, uint64_t v) { hr_pb_put_uint(top(w), field, v); }
static void pw_str(pw *w, uint32_t field, const char *s) { hr_pb_put_bytes(top(w), field, s, strlen(s)); }
static void pw_empty(pw *w, uint32_t field) { hr_pb_put_bytes(top(w), field, "", 0); }

/* A packed repeated varint field. */
static void pw_packed(pw *w, uint32_t field, const int *v, int n) {
  pw_open(w, field);
  for (int i = 0; i < n; i++) hr_pb_put_varint(top(w), (uint64_t)(int64_t)v[i]);
  pw_close(w);
}

/* A TensorShapeProto: `s` NULL is an unknown rank; HR_DYNAMIC dims are -1. */
static void pw_shape(pw *w, uint32_t field, const hr_shape *s) {
  pw_open(w, field);
  if (!s) pw_uint(w, SHAPE_UNKNOWN_RANK, 1);
  for (int d = 0; s && d < s->rank; d++) {
    pw_open(w, SHAPE_DIM);
    if (s->dims[d]) pw_uint(w, DIM_SIZE, (uint64_t)(s->dims[d] == HR_DYNAMIC ? -1 : s->dims[d]));
    pw_close(w);
  }
  pw_close(w);
}

/* The status once everything is written: out of memory, or a nesting bug. */
static hr_status pw_status(const pw *w) {
  for (int d = 0; d < PW_DEPTH; d++) HR_TRY(hr_strbuf_status(&w->buf[d]));
  if (w->overflowed || w->depth) return hr_error(HR_INTERNAL, "SavedModel writer: messages nested wrongly");
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Attributes (map<string, AttrValue> entries of map field `m`)                                    */
/* ---------------------------------------------------------------------------------------------- */

static const hr_shape scalar_shape = {0};

static void attr_open(pw *w, uint32_t m, const char *key) {
  pw_open(w, m);
  pw_str(w, 1, key);
  pw_open(w, 2);
}
static void attr_close(pw *w) {
  pw_close(w);
  pw_close(w);
}

static void a_type(pw *w, uint32_t m, const char *key, int dtype) {
  attr_open(w, m, key);
  pw_uint(w, AV_TYPE, (uint64_t)dtype);
  attr_close(w);
}

/* A list attribute of n varints in ListValue field `field` (LIST_TYPE: types; LIST_I: ints). */
static void a_list(pw *w, uint32_t m, const char *key, uint32_t field, const int *v, int n) {
  attr_open(w, m, key);
  pw_open(w, AV_LIST);
  if (n) pw_packed(w, field, v, n);
  pw_close(w);
  attr_close(w);
}
static void a_types(pw *w, uint32_t m, const char *key, const int *types, int n) { a_list(w, m, key, LIST_TYPE, types, n); }

static void a_shape(pw *w, uint32_t m, const char *key, const hr_shape *s) {
  attr_open(w, m, key);
  pw_shape(w, AV_SHAPE, s);
  attr_close(w);
}

/* A list of `n` shapes (an element NULL: unknown rank). */
static void a_shapes(pw *w, uint32_t m, const char *key, const hr_shape *const *s, int n) {
  attr_open(w, m, key);
  pw_open(w, AV_LIST);
  for (int i = 0; i < n; i++) pw_shape(w, LIST_SHAPE, s[i]);
  pw_close(w);
  attr_close(w);
}

/* "_output_shapes" of one shape (NULL: none). */
static void a_output_shape(pw *w, uint32_t m, const hr_shape *s) { a_shapes(w, m, "_output_shapes", &s, s ? 1 : 0); }

static void a_bytes(pw *w, uint32_t m, const char *key, const void *s, size_t len) {
  attr_open(w, m, key);
  hr_pb_put_bytes(top(w), AV_S, s, len);
  attr_close(w);
}
static void a_string(pw *w, uint32_t m, const char *key, const char *s) { a_bytes(w, m, key, s, strlen(s)); }

static void a_bool(pw *w, uint32_t m, const char *key, bool b) {
  attr_open(w, m, key);
  pw_uint(w, AV_B, b);
  attr_close(w);
}

static void a_int(pw *w, uint32_t m, const char *key, int64_t i) {
  attr_open(w, m, key);
  pw_uint(w, AV_I, (uint64_t)i);
  attr_close(w);
}

static void a_func(pw *w, uint32_t m, const char *key, const char *name) {
  attr_open(w, m, key);
  pw_open(w, AV_FUNC);
  pw_str(w, 1, name);
  pw_close(w);
  attr_close(w);
}

static void a_empty_list(pw *w, uint32_t m, const char *key) {
  attr_open(w, m, key);
  pw_empty(w, AV_LIST);
  attr_close(w);
}

/* "value": a DT_STRING tensor of the `n` strings s[i] (len[i] bytes; len NULL: NUL-terminated),
 * a vector, or a scalar when `scalar` (n 1). */
static void a_string_tensor(pw *w, uint32_t m, const char *const *s, const size_t *len, int n, bool scalar) {
  attr_open(w, m, "value");
  pw_open(w, AV_TENSOR);
  pw_uint(w, TENSOR_DTYPE, HR_TF_DT_STRING);
  hr_shape vec = {.rank = 1, .dims = {n}};
  pw_shape(w, TENSOR_SHAPE, scalar ? &scalar_shape : &vec);
  for (int i = 0; i < n; i++) hr_pb_put_bytes(top(w), TENSOR_STRING_VAL, s[i], len ? len[i] : strlen(s[i]));
  pw_close(w);
  attr_close(w);
}

/* "value": a DT_INT32 scalar. */
static void a_int_tensor(pw *w, uint32_t m, int v) {
  attr_open(w, m, "value");
  pw_open(w, AV_TENSOR);
  pw_uint(w, TENSOR_DTYPE, HR_TF_DT_INT32);
  pw_shape(w, TENSOR_SHAPE, &scalar_shape);
  pw_packed(w, TENSOR_INT_VAL, &v, 1);
  pw_close(w);
  attr_close(w);
}

/* Opens a NodeDef (as field `f`) named `name` of op `op`. */
static void node_open(pw *w, uint32_t f, const char *name, const char *op) {
  pw_open(w, f);
  pw_str(w, NODE_NAME, name);
  pw_str(w, NODE_OP, op);
}


/* A NoOp node (as field f) whose control inputs are "^" + each of `after`; `shapes`: with the
 * empty _output_shapes function bodies give it. */
static void no_op(pw *w, uint32_t f, const char *name, const char *device, const char *const *after, int n,
                  bool manual, bool shapes) {
  node_open(w, f, name, "NoOp");
  char ref[NAME_CAP + 1];
  for (int i = 0; i < n; i++) {
    snprintf(ref, sizeof ref, "^%s", after[i]);
    pw_str(w, NODE_INPUT, ref);
  }
  if (device) pw_str(w, NODE_DEVICE, device);
  if (manual) a_bool(w, NODE_ATTR, "_has_manual_control_dependencies", true);
  if (shapes) a_output_shape(w, NODE_ATTR, NULL);
  pw_close(w);
}

/* An Identity node of `input` (and control input `control`, or NULL). */
static void identity(pw *w, const char *name, const char *input, const char *control, const char *device, int dtype,
                     const hr_shape *shape) {
  node_open(w, FN_NODE, name, "Identity");
  pw_str(w, NODE_INPUT, input);
  if (control) pw_str(w, NODE_INPUT, control);
  if (device) pw_str(w, NODE_DEVICE, device);
  a_type(w, NODE_ATTR, "T", dtype);
  a_output_shape(w, NODE_ATTR, shape);
  pw_close(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* What is written                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

#define CPU "/device:CPU:0"

typedef char name_t[NAME_CAP];

/* An argument or output of a function: name, type, and its _user_specified_name. */
typedef struct fn_arg {
  name_t name;
  int dtype;
  const hr_shape *shape; /* NULL: unknown rank */
  const char *specified;
} fn_arg;

/* The SavedModel being written: @main's parameters split into signature inputs and variables,
 * its results, their TF types, the module's bytes, and scratch arrays the functions are built in
 * (sized for the largest function: every parameter plus two). */
typedef struct plan {
  const hr_func *main;
  const hr_tensor *const *bound;
  int n_params, n_inputs, n_vars, n_outputs;
  int *input_param, *var_param; /* parameter of each signature input / variable */
  name_t *keys;                 /* signature input keys */
  name_t *var_names;            /* "Variable", "Variable_1", ... */
  name_t *ckpt_keys;            /* "_variables/N/.ATTRIBUTES/VARIABLE_VALUE" */
  int *param_dtype, *result_dtype;
  const hr_shape **param_shape, **result_shape;
  hr_strbuf module; /* the portable artifact */
  /* scratch */
  fn_arg *args, *outs;
  name_t *refs;
  int *types;
  const hr_shape **shapes;
  const char **names;
} plan;

/* "pre" (k 0) or "pre_K", then "post": TF's unique names ("Variable_1", "readvariableop_1_resource"). */
static const char *numbered(char *buf, const char *pre, int k, const char *post) {
  if (k) snprintf(buf, NAME_CAP, "%s_%d%s", pre, k, post);
  else snprintf(buf, NAME_CAP, "%s%s", pre, post);
  return buf;
}

/* Whether `s` can be a signature key and, after "serving_default_", a node name. */
static bool valid_key(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n >= NAME_CAP - 32 || !((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return false;
  return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

/* The key of signature input `i` (parameter p): its jax.arg_info when valid and not taken. */
static void input_key(plan *pl, int i, int p) {
  const hr_attr *info = pl->main->arg_attrs ? hr_attr_field(pl->main->arg_attrs[p], "jax.arg_info") : NULL;
  const char *name = info && info->kind == HR_ATTR_STRING ? info->u.str.data : "";
  bool taken = false;
  for (int j = 0; j < i; j++) taken |= strcmp(pl->keys[j], name) == 0;
  if (valid_key(name) && !taken) snprintf(pl->keys[i], NAME_CAP, "%s", name);
  else snprintf(pl->keys[i], NAME_CAP, "input_%d", i);
}

/* The TF type of `t` into *dtype and *shape, or an error naming `what` and its index. */
static hr_status tf_type_of(const hr_type *t, const char *what, int i, int *dtype, const hr_shape **shape) {
  *dtype = t->kind == HR_TYPE_TENSOR && !t->quant ? hr_tf_dtype_from_hr(t->dtype) : HR_TF_DT_INVALID;
  *shape = &t->shape;
  if (*dtype == HR_TF_DT_INVALID)
    return hr_error(HR_UNIMPLEMENTED, "SavedModel: @main's %s %d is a %s, which TensorFlow has no type for", what, i,
                    t->kind == HR_TYPE_TENSOR ? hr_dtype_name(t->dtype) : "non-tensor");
  return NULL;
}

static hr_status plan_alloc(plan *pl) {
  size_t n = (size_t)pl->n_params + 2, r = (size_t)pl->n_outputs + 1, most = 2 * (n + r);
  pl->input_param = calloc(n, sizeof *pl->input_param);
  pl->var_param = calloc(n, sizeof *pl->var_param);
  pl->keys = calloc(n, sizeof *pl->keys);
  pl->var_names = calloc(n, sizeof *pl->var_names);
  pl->ckpt_keys = calloc(n + 1, sizeof *pl->ckpt_keys);
  pl->param_dtype = calloc(n, sizeof *pl->param_dtype);
  pl->result_dtype = calloc(r, sizeof *pl->result_dtype);
  pl->param_shape = calloc(n, sizeof *pl->param_shape);
  pl->result_shape = calloc(r, sizeof *pl->result_shape);
  pl->args = calloc(most, sizeof *pl->args);
  pl->outs = calloc(most, sizeof *pl->outs);
  pl->refs = calloc(most, sizeof *pl->refs);
  pl->types = calloc(most, sizeof *pl->types);
  pl->shapes = calloc(most, sizeof *pl->shapes);
  pl->names = calloc(most, sizeof *pl->names);
  bool ok = pl->input_param && pl->var_param && pl->keys && pl->var_names && pl->ckpt_keys && pl->param_dtype &&
            pl->result_dtype && pl->param_shape && pl->result_shape && pl->args && pl->outs && pl->refs && pl->types &&
            pl->shapes && pl->names;
  return ok ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory writing a SavedModel");
}

static void plan_free(plan *pl) {
  void *all[] = {pl->input_param, pl->var_param, pl->keys, pl->var_names, pl->ckpt_keys, pl->param_dtype,
                 pl->result_dtype, pl->param_shape, pl->result_shape, pl->args, pl->outs, pl->refs, pl->types,
                 pl->shapes, pl->names};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) free(all[i]);
  hr_strbuf_free(&pl->module);
}

static hr_status plan_make(const hr_savedmodel_source *src, plan *pl) {
  memset(pl, 0, sizeof *pl);
  hr_strbuf_init(&pl->module, NULL);
  pl->bound = src->bound;
  pl->main = hr_module_find_func(src->module, "main");
  if (!pl->main || pl->main->is_declaration) return hr_error(HR_NOT_FOUND, "SavedModel: the module has no @main to serve");
  pl->n_params = pl->main->n_args;
  pl->n_outputs = pl->main->n_results;
  HR_TRY(plan_alloc(pl));
  for (int p = 0; p < pl->n_params; p++) {
    HR_TRY(tf_type_of(&pl->main->body.args[p].type, "parameter", p, &pl->param_dtype[p], &pl->param_shape[p]));
    if (src->bound && src->bound[p]) {
      int k = pl->n_vars++;
      numbered(pl->var_names[k], "Variable", k, "");
      snprintf(pl->ckpt_keys[k], NAME_CAP, "_variables/%d/.ATTRIBUTES/VARIABLE_VALUE", k);
      pl->var_param[k] = p;
    } else {
      input_key(pl, pl->n_inputs, p);
      pl->input_param[pl->n_inputs++] = p;
    }
  }
  snprintf(pl->ckpt_keys[pl->n_vars], NAME_CAP, "%s", HR_BUNDLE_OBJECT_GRAPH_KEY);
  for (int i = 0; i < pl->n_outputs; i++)
    HR_TRY(tf_type_of(&pl->main->result_types[i], "result", i, &pl->result_dtype[i], &pl->result_shape[i]));
  return hr_bc_write_module(src->module, src->version, &pl->module);
}

/* ---------------------------------------------------------------------------------------------- */
/* The library                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* Opens FunctionDef `name` with its signature (OpDef), attributes and arg_attr; the caller writes
 * nodes, rets and control rets, then closes it. `compiled`: jax2tf's jit_compile=True function. */
static void function_open(pw *w, const char *name, const fn_arg *args, int n_args, const fn_arg *outs, int n_outs,
                          const char *control_output, bool compiled) {
  pw_open(w, LIBRARY_FUNCTION);
  pw_open(w, FN_SIGNATURE);
  pw_str(w, OP_NAME, name);
  for (int i = 0; i < n_args + n_outs; i++) {
    const fn_arg *a = i < n_args ? &args[i] : &outs[i - n_args];
    pw_open(w, i < n_args ? OP_INPUT : OP_OUTPUT);
    pw_str(w, ARG_NAME, a->name);
    pw_uint(w, ARG_TYPE, (uint64_t)a->dtype);
    pw_close(w);
  }
  pw_uint(w, OP_STATEFUL, 1);
  if (control_output) pw_str(w, OP_CONTROL_OUTPUT, control_output);
  pw_close(w);
  if (compiled) a_bool(w, FN_ATTR, "_XlaMustCompile", true);
  a_string(w, FN_ATTR, "_construction_context", "kEagerRuntime");
  attr_open(w, FN_ATTR, "_input_shapes");
  pw_open(w, AV_LIST);
  for (int i = 0; i < n_args; i++) pw_shape(w, LIST_SHAPE, args[i].shape);
  pw_close(w);
  attr_close(w);
  if (compiled) a_bool(w, FN_ATTR, "_noinline", true);
  for (int i = 0; i < n_args; i++) {
    pw_open(w, FN_ARG_ATTR);
    pw_uint(w, 1, (uint64_t)i);
    pw_open(w, 2);
    a_output_shape(w, ARG_ATTRS_ATTR, args[i].shape);
    a_string(w, ARG_ATTRS_ATTR, "_user_specified_name", args[i].specified);
    pw_close(w);
    pw_close(w);
  }
}

/* A map<string, string> entry (ret, control_ret). */
static void string_entry(pw *w, uint32_t field, const char *key, const char *value) {
  pw_open(w, field);
  pw_str(w, 1, key);
  pw_str(w, 2, value);
  pw_close(w);
}

/* Fills pl->outs with the function outputs "identity", "identity_1", ... of @main's results. */
static void result_args(plan *pl) {
  for (int r = 0; r < pl->n_outputs; r++) {
    pl->outs[r] = (fn_arg){.dtype = pl->result_dtype[r], .shape = pl->result_shape[r]};
    numbered(pl->outs[r].name, "identity", r, "");
  }
}

/* A function argument. */
static fn_arg arg_of(const char *name, int dtype, const hr_shape *shape, const char *specified) {
  fn_arg a = {.dtype = dtype, .shape = shape, .specified = specified};
  snprintf(a.name, NAME_CAP, "%s", name);
  return a;
}

/* Fills pl->args with the signature inputs, then a resource per variable named by `pre`/`post`
 * (numbered); returns their count. */
static int input_and_resource_args(plan *pl, const char *pre, const char *post) {
  for (int i = 0; i < pl->n_inputs; i++) {
    int p = pl->input_param[i];
    pl->args[i] = arg_of(pl->keys[i], pl->param_dtype[p], pl->param_shape[p], pl->keys[i]);
  }
  name_t name;
  for (int k = 0; k < pl->n_vars; k++)
    pl->args[pl->n_inputs + k] = arg_of(numbered(name, pre, k, post), HR_TF_DT_RESOURCE, &scalar_shape, "resource");
  return pl->n_inputs + pl->n_vars;
}

/* The XlaCallModule node over operands pl->refs[0..n_params), in @main's parameter order. */
static void xla_call_module(pw *w, plan *pl) {
  node_open(w, FN_NODE, "XlaCallModule", "XlaCallModule");
  for (int p = 0; p < pl->n_params; p++) pw_str(w, NODE_INPUT, pl->refs[p]);
  a_shapes(w, NODE_ATTR, "Sout", pl->result_shape, pl->n_outputs);
  a_types(w, NODE_ATTR, "Tin", pl->param_dtype, pl->n_params);
  a_types(w, NODE_ATTR, "Tout", pl->result_dtype, pl->n_outputs);
  a_shapes(w, NODE_ATTR, "_output_shapes", pl->result_shape, pl->n_outputs);
  /* dim_args_spec, disabled_checks, function_list and has_token_input_output hold their defaults
   * (empty, false): stripped */
  a_bytes(w, NODE_ATTR, "module", pl->module.data ? pl->module.data : "", pl->module.len);
  attr_open(w, NODE_ATTR, "platforms");
  pw_open(w, AV_LIST);
  pw_str(w, AV_S, "CPU");
  pw_close(w);
  attr_close(w);
  a_int(w, NODE_ATTR, "version", XLA_CALL_MODULE_VERSION);
  pw_close(w);
}

/* Ends a function whose results are the nodes "Identity", "Identity_1", ... (control input ^NoOp):
 * the NoOp after node `control`, the rets, `control` as the control return; closes it. */
static void close_returning(pw *w, const plan *pl, const char *control) {
  no_op(w, FN_NODE, "NoOp", NULL, &control, 1, false, true);
  name_t name;
  for (int r = 0; r < pl->n_outputs; r++) string_entry(w, FN_RET, pl->outs[r].name, numbered(name, "Identity", r, ":output:0"));
  string_entry(w, FN_CONTROL_RET, control, control);
  pw_close(w);
}

/* The jax2tf function: f(inputs..., the variables' resources...) -> @main's results. Variables
 * are read with ReadVariableOp; each operand passes jax2tf_arg_N (Identity) and XlaSharding; each
 * result jax2tf_out (Identity) and Identity after NoOp. */
static void jax2tf_function(pw *w, plan *pl) {
  int n_args = input_and_resource_args(pl, "readvariableop", "_resource");
  result_args(pl);
  function_open(w, FN_JAX2TF, pl->args, n_args, pl->outs, pl->n_outputs, "XlaCallModule", true);
  name_t name, source;
  for (int k = 0; k < pl->n_vars; k++) {
    int p = pl->var_param[k];
    node_open(w, FN_NODE, numbered(name, "ReadVariableOp", k, ""), "ReadVariableOp");
    pw_str(w, NODE_INPUT, pl->args[pl->n_inputs + k].name);
    a_output_shape(w, NODE_ATTR, pl->param_shape[p]);
    a_type(w, NODE_ATTR, "dtype", pl->param_dtype[p]);
    pw_close(w);
  }
  for (int p = 0, i = 0, k = 0; p < pl->n_params; p++) {
    if (k < pl->n_vars && pl->var_param[k] == p) numbered(source, "ReadVariableOp", k++, ":value:0");
    else snprintf(source, NAME_CAP, "%s", pl->keys[i++]);
    identity(w, numbered(name, "jax2tf_arg", p, ""), source, NULL, NULL, pl->param_dtype[p], pl->param_shape[p]);
    numbered(source, "jax2tf_arg", p, ":output:0");
    node_open(w, FN_NODE, numbered(name, "XlaSharding", p, ""), "XlaSharding");
    pw_str(w, NODE_INPUT, source);
    a_type(w, NODE_ATTR, "T", pl->param_dtype[p]);
    a_string(w, NODE_ATTR, "_XlaSharding", "");
    a_output_shape(w, NODE_ATTR, pl->param_shape[p]);
    pw_close(w);
    numbered(pl->refs[p], "XlaSharding", p, ":output:0");
  }
  xla_call_module(w, pl);
  for (int r = 0; r < pl->n_outputs; r++) {
    snprintf(source, NAME_CAP, "XlaCallModule:output:%d", r);
    identity(w, numbered(name, "jax2tf_out", r, ""), source, NULL, NULL, pl->result_dtype[r], pl->result_shape[r]);
    numbered(source, "jax2tf_out", r, ":output:0");
    identity(w, numbered(name, "Identity", r, ""), source, "^NoOp", NULL, pl->result_dtype[r], pl->result_shape[r]);
  }
  close_returning(w, pl, "XlaCallModule");
}

/* A StatefulPartitionedCall node `name` (as field f) calling `fn` on inputs[0..n_in) of types
 * tin, giving n_out results of types tout and shapes `shapes`; `writes`: it assigns the
 * resources it is given (else they are listed as only read). */
static void partitioned_call(pw *w, plan *pl, uint32_t f, const char *name, const char *fn, const char *const *inputs,
                             const int *tin, int n_in, const int *tout, const hr_shape *const *shapes, int n_out,
                             bool writes) {
  node_open(w, f, name, "StatefulPartitionedCall");
  for (int i = 0; i < n_in; i++) pw_str(w, NODE_INPUT, inputs[i]);
  a_types(w, NODE_ATTR, "Tin", tin, n_in);
  a_types(w, NODE_ATTR, "Tout", tout, n_out);
  if (strcmp(fn, FN_JAX2TF) == 0) a_bool(w, NODE_ATTR, "_XlaMustCompile", true); /* jax2tf's jit_compile=True */
  a_empty_list(w, NODE_ATTR, "_collective_manager_ids");
  a_shapes(w, NODE_ATTR, "_output_shapes", shapes, n_out);
  int n_read = 0;
  for (int i = 0; i < n_in && !writes; i++)
    if (tin[i] == HR_TF_DT_RESOURCE) pl->types[n_in + n_read++] = i;
  a_list(w, NODE_ATTR, "_read_only_resource_inputs", LIST_I, pl->types + n_in, n_read);
  attr_open(w, NODE_ATTR, "config_proto"); /* device_count {CPU: 1, GPU: 0}, allow_soft_placement */
  pw_open(w, AV_S);
  for (int gpu = 0; gpu < 2; gpu++) {
    pw_open(w, CONFIG_DEVICE_COUNT);
    pw_str(w, 1, gpu ? "GPU" : "CPU");
    pw_uint(w, 2, !gpu);
    pw_close(w);
  }
  pw_uint(w, CONFIG_SOFT_PLACEMENT, 1);
  pw_close(w);
  attr_close(w);
  a_func(w, NODE_ATTR, "f", fn);
  pw_close(w);
}

/* The signature wrapper: (inputs..., captured variables "unknown", "unknown_1", ...) calls the
 * jax2tf function and returns its results through Identity. */
static void signature_wrapper(pw *w, plan *pl) {
  int n_args = input_and_resource_args(pl, "unknown", "");
  result_args(pl);
  function_open(w, FN_WRAPPER, pl->args, n_args, pl->outs, pl->n_outputs, "StatefulPartitionedCall", false);
  for (int i = 0; i < n_args; i++) {
    pl->names[i] = pl->args[i].name;
    pl->types[i] = pl->args[i].dtype;
  }
  partitioned_call(w, pl, FN_NODE, "StatefulPartitionedCall", FN_JAX2TF, pl->names, pl->types, n_args, pl->result_dtype,
                   pl->result_shape, pl->n_outputs, false);
  name_t name, source;
  for (int r = 0; r < pl->n_outputs; r++) {
    snprintf(source, NAME_CAP, "StatefulPartitionedCall:output:%d", r);
    identity(w, numbered(name, "Identity", r, ""), source, "^NoOp", NULL, pl->result_dtype[r], pl->result_shape[r]);
  }
  close_returning(w, pl, "StatefulPartitionedCall");
}

/* A Const node named `name` holding the DT_STRING vector of the n strings. */
static void string_vector(pw *w, const char *name, const char *const *s, int n) {
  node_open(w, FN_NODE, name, "Const");
  pw_str(w, NODE_DEVICE, CPU);
  hr_shape vec = {.rank = 1, .dims = {n}};
  a_output_shape(w, NODE_ATTR, &vec);
  a_type(w, NODE_ATTR, "dtype", HR_TF_DT_STRING);
  a_string_tensor(w, NODE_ATTR, s, NULL, n, false);
  pw_close(w);
}

/* The tensor_names and shape_and_slices constants of SaveV2 or RestoreV2 (`op`): every
 * variable's checkpoint key, then the object graph's; no slices. */
static void checkpoint_names(pw *w, plan *pl, const char *op) {
  name_t name;
  const char **keys = pl->names;
  for (int k = 0; k <= pl->n_vars; k++) keys[k] = pl->ckpt_keys[k];
  snprintf(name, NAME_CAP, "%s/tensor_names", op);
  string_vector(w, name, keys, pl->n_vars + 1);
  for (int k = 0; k <= pl->n_vars; k++) keys[k] = "";
  snprintf(name, NAME_CAP, "%s/shape_and_slices", op);
  string_vector(w, name, keys, pl->n_vars + 1);
  for (int k = 0; k < pl->n_vars; k++) pl->types[k] = pl->param_dtype[pl->var_param[k]];
  pl->types[pl->n_vars] = HR_TF_DT_STRING;
}

/* A Const node (device /device:CPU:*) holding one string. */
static void string_const(pw *w, const char *name, const char *value) {
  node_open(w, FN_NODE, name, "Const");
  pw_str(w, NODE_DEVICE, "/device:CPU:*");
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  a_type(w, NODE_ATTR, "dtype", HR_TF_DT_STRING);
  a_string_tensor(w, NODE_ATTR, &value, NULL, 1, true);
  pw_close(w);
}

/* An int32 Const node (device `device`, or none). */
static void int_const(pw *w, const char *name, const char *device, int value) {
  node_open(w, FN_NODE, name, "Const");
  if (device) pw_str(w, NODE_DEVICE, device);
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  a_type(w, NODE_ATTR, "dtype", HR_TF_DT_INT32);
  a_int_tensor(w, NODE_ATTR, value);
  pw_close(w);
}

/* The traced save function: (file_prefix, the variables' resources..., savev2_const: the object
 * graph) writes a checkpoint to a temporary shard name and merges it at file_prefix. */
static void traced_save(pw *w, plan *pl) {
  name_t name;
  pl->args[0] = arg_of("file_prefix", HR_TF_DT_STRING, &scalar_shape, "file_prefix");
  for (int k = 0; k < pl->n_vars; k++)
    pl->args[1 + k] = arg_of(numbered(name, "read", k, "_readvariableop_resource"), HR_TF_DT_RESOURCE, &scalar_shape,
                             "resource");
  pl->args[1 + pl->n_vars] = arg_of("savev2_const", HR_TF_DT_STRING, &scalar_shape, "Const");
  fn_arg out = arg_of("identity_1", HR_TF_DT_STRING, &scalar_shape, "");
  function_open(w, FN_SAVE, pl->args, pl->n_vars + 2, &out, 1, "MergeV2Checkpoints", false);
  node_open(w, FN_NODE, "StaticRegexFullMatch", "StaticRegexFullMatch");
  pw_str(w, NODE_INPUT, "file_prefix");
  pw_str(w, NODE_DEVICE, "/device:CPU:*");
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  a_string(w, NODE_ATTR, "pattern", "^s3://.*");
  pw_close(w);
  string_const(w, "Const", ".part");
  string_const(w, "Const_1", "_temp/part");
  node_open(w, FN_NODE, "Select", "Select");
  pw_str(w, NODE_INPUT, "StaticRegexFullMatch:output:0");
  pw_str(w, NODE_INPUT, "Const:output:0");
  pw_str(w, NODE_INPUT, "Const_1:output:0");
  pw_str(w, NODE_DEVICE, "/device:CPU:*");
  a_type(w, NODE_ATTR, "T", HR_TF_DT_STRING);
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  pw_close(w);
  node_open(w, FN_NODE, "StringJoin", "StringJoin");
  pw_str(w, NODE_INPUT, "file_prefix");
  pw_str(w, NODE_INPUT, "Select:output:0");
  pw_str(w, NODE_DEVICE, "/device:CPU:*");
  a_int(w, NODE_ATTR, "N", 2);
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  pw_close(w);
  int_const(w, "num_shards", NULL, 1);
  int_const(w, "ShardedFilename/shard", CPU, 0);
  node_open(w, FN_NODE, "ShardedFilename", "ShardedFilename");
  pw_str(w, NODE_INPUT, "StringJoin:output:0");
  pw_str(w, NODE_INPUT, "ShardedFilename/shard:output:0");
  pw_str(w, NODE_INPUT, "num_shards:output:0");
  pw_str(w, NODE_DEVICE, CPU);
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  pw_close(w);
  for (int k = 0; k < pl->n_vars; k++) {
    int p = pl->var_param[k];
    node_open(w, FN_NODE, numbered(name, "Read", k, "/ReadVariableOp"), "ReadVariableOp");
    pw_str(w, NODE_INPUT, pl->args[1 + k].name);
    pw_str(w, NODE_DEVICE, CPU);
    a_output_shape(w, NODE_ATTR, pl->param_shape[p]);
    a_type(w, NODE_ATTR, "dtype", pl->param_dtype[p]);
    pw_close(w);
  }
  checkpoint_names(w, pl, "SaveV2");
  node_open(w, FN_NODE, "SaveV2", "SaveV2");
  pw_str(w, NODE_INPUT, "ShardedFilename:filename:0");
  pw_str(w, NODE_INPUT, "SaveV2/tensor_names:output:0");
  pw_str(w, NODE_INPUT, "SaveV2/shape_and_slices:output:0");
  for (int k = 0; k < pl->n_vars; k++) pw_str(w, NODE_INPUT, numbered(name, "Read", k, "/ReadVariableOp:value:0"));
  pw_str(w, NODE_INPUT, "savev2_const");
  pw_str(w, NODE_DEVICE, CPU);
  a_bool(w, NODE_ATTR, "_has_manual_control_dependencies", true);
  a_output_shape(w, NODE_ATTR, NULL);
  a_types(w, NODE_ATTR, "dtypes", pl->types, pl->n_vars + 1);
  pw_close(w);
  node_open(w, FN_NODE, "MergeV2Checkpoints/checkpoint_prefixes", "Pack");
  pw_str(w, NODE_INPUT, "ShardedFilename:filename:0");
  pw_str(w, NODE_INPUT, "^SaveV2");
  pw_str(w, NODE_DEVICE, CPU);
  a_int(w, NODE_ATTR, "N", 1);
  a_type(w, NODE_ATTR, "T", HR_TF_DT_STRING);
  hr_shape one = {.rank = 1, .dims = {1}};
  a_output_shape(w, NODE_ATTR, &one);
  pw_close(w);
  node_open(w, FN_NODE, "MergeV2Checkpoints", "MergeV2Checkpoints");
  pw_str(w, NODE_INPUT, "MergeV2Checkpoints/checkpoint_prefixes:output:0");
  pw_str(w, NODE_INPUT, "file_prefix");
  pw_str(w, NODE_DEVICE, CPU);
  a_bool(w, NODE_ATTR, "_has_manual_control_dependencies", true);
  a_output_shape(w, NODE_ATTR, NULL);
  pw_close(w);
  identity(w, "Identity", "file_prefix", "^MergeV2Checkpoints", CPU, HR_TF_DT_STRING, &scalar_shape);
  identity(w, "Identity_1", "Identity:output:0", "^NoOp", NULL, HR_TF_DT_STRING, &scalar_shape);
  for (int k = 0; k < pl->n_vars; k++) pl->names[1 + k] = pl->refs[k];
  for (int k = 0; k < pl->n_vars; k++) numbered(pl->refs[k], "Read", k, "/ReadVariableOp");
  pl->names[0] = "MergeV2Checkpoints";
  no_op(w, FN_NODE, "NoOp", NULL, pl->names, pl->n_vars + 1, false, true);
  string_entry(w, FN_RET, "identity_1", "Identity_1:output:0");
  string_entry(w, FN_CONTROL_RET, "MergeV2Checkpoints", "MergeV2Checkpoints");
  pw_close(w);
}

/* The traced restore function: (file_prefix, the variables' resources...) reads every variable's
 * entry with RestoreV2 and assigns it (the function TF Serving's loader runs, and hlorun reads to
 * pair variables with keys). */
static void traced_restore(pw *w, plan *pl) {
  name_t name, source;
  int n = pl->n_vars;
  pl->args[0] = arg_of("file_prefix", HR_TF_DT_STRING, &scalar_shape, "file_prefix");
  for (int k = 0; k < n; k++)
    pl->args[1 + k] = arg_of(numbered(name, "assignvariableop", k, "_resource"), HR_TF_DT_RESOURCE, &scalar_shape,
                             "resource");
  fn_arg out = arg_of(numbered(name, "identity", n + 1, ""), HR_TF_DT_STRING, &scalar_shape, "");
  function_open(w, FN_RESTORE, pl->args, n + 1, &out, 1, NULL, false);
  checkpoint_names(w, pl, "RestoreV2");
  node_open(w, FN_NODE, "RestoreV2", "RestoreV2");
  pw_str(w, NODE_INPUT, "file_prefix");
  pw_str(w, NODE_INPUT, "RestoreV2/tensor_names:output:0");
  pw_str(w, NODE_INPUT, "RestoreV2/shape_and_slices:output:0");
  pw_str(w, NODE_DEVICE, CPU);
  for (int k = 0; k <= n; k++) pl->shapes[k] = NULL;
  a_shapes(w, NODE_ATTR, "_output_shapes", pl->shapes, n + 1);
  a_types(w, NODE_ATTR, "dtypes", pl->types, n + 1);
  pw_close(w);
  for (int k = 0; k < n; k++) {
    int p = pl->var_param[k];
    snprintf(source, NAME_CAP, "RestoreV2:tensors:%d", k);
    identity(w, numbered(name, "Identity", k, ""), source, NULL, NULL, pl->param_dtype[p], NULL);
    node_open(w, FN_NODE, numbered(name, "AssignVariableOp", k, ""), "AssignVariableOp");
    pw_str(w, NODE_INPUT, pl->args[1 + k].name);
    pw_str(w, NODE_INPUT, numbered(source, "Identity", k, ":output:0"));
    a_bool(w, NODE_ATTR, "_has_manual_control_dependencies", true);
    a_type(w, NODE_ATTR, "dtype", pl->param_dtype[p]);
    pw_close(w);
  }
  no_op(w, FN_NODE, "NoOp", CPU, NULL, 0, true, true);
  node_open(w, FN_NODE, numbered(name, "Identity", n, ""), "Identity");
  pw_str(w, NODE_INPUT, "file_prefix");
  for (int k = 0; k < n; k++) {
    char ref[NAME_CAP + 1];
    snprintf(ref, sizeof ref, "^%s", numbered(source, "AssignVariableOp", k, ""));
    pw_str(w, NODE_INPUT, ref);
  }
  pw_str(w, NODE_INPUT, "^NoOp");
  pw_str(w, NODE_DEVICE, CPU);
  a_type(w, NODE_ATTR, "T", HR_TF_DT_STRING);
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  pw_close(w);
  identity(w, numbered(name, "Identity", n + 1, ""), numbered(source, "Identity", n, ":output:0"), NULL, NULL,
           HR_TF_DT_STRING, &scalar_shape);
  string_entry(w, FN_RET, out.name, numbered(source, "Identity", n + 1, ":output:0"));
  pw_close(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* The graph                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* A Placeholder node of the graph. */
static void placeholder(pw *w, const char *name, int dtype, const hr_shape *shape) {
  node_open(w, GRAPH_NODE, name, "Placeholder");
  a_output_shape(w, NODE_ATTR, shape);
  a_type(w, NODE_ATTR, "dtype", dtype);
  a_shape(w, NODE_ATTR, "shape", shape);
  pw_close(w);
}

/* The GraphDef: inputs, variables, the serving call, the object graph constant `object_graph`,
 * the save and restore calls; then the library and versions. */
static void graph(pw *w, plan *pl, const hr_strbuf *object_graph) {
  pw_open(w, MG_GRAPH);
  name_t name;
  for (int i = 0; i < pl->n_inputs; i++) {
    int p = pl->input_param[i];
    snprintf(name, NAME_CAP, SIGNATURE "_%s", pl->keys[i]);
    placeholder(w, name, pl->param_dtype[p], pl->param_shape[p]);
  }
  for (int k = 0; k < pl->n_vars; k++) {
    int p = pl->var_param[k];
    node_open(w, GRAPH_NODE, pl->var_names[k], "VarHandleOp");
    a_output_shape(w, NODE_ATTR, &scalar_shape);
    a_type(w, NODE_ATTR, "dtype", pl->param_dtype[p]);
    a_shape(w, NODE_ATTR, "shape", pl->param_shape[p]);
    a_string(w, NODE_ATTR, "shared_name", pl->var_names[k]);
    pw_close(w);
  }
  /* the serving call: inputs, then variables */
  name_t *placeholders = pl->refs;
  for (int i = 0; i < pl->n_inputs; i++) {
    snprintf(placeholders[i], NAME_CAP, SIGNATURE "_%s", pl->keys[i]);
    pl->names[i] = placeholders[i];
    pl->types[i] = pl->param_dtype[pl->input_param[i]];
  }
  for (int k = 0; k < pl->n_vars; k++) {
    pl->names[pl->n_inputs + k] = pl->var_names[k];
    pl->types[pl->n_inputs + k] = HR_TF_DT_RESOURCE;
  }
  partitioned_call(w, pl, GRAPH_NODE, "StatefulPartitionedCall", FN_WRAPPER, pl->names, pl->types,
                   pl->n_inputs + pl->n_vars, pl->result_dtype, pl->result_shape, pl->n_outputs, false);
  no_op(w, GRAPH_NODE, "NoOp", NULL, NULL, 0, false, false);
  node_open(w, GRAPH_NODE, "Const", "Const");
  pw_str(w, NODE_DEVICE, CPU);
  a_output_shape(w, NODE_ATTR, &scalar_shape);
  a_type(w, NODE_ATTR, "dtype", HR_TF_DT_STRING);
  const char *bytes = object_graph->data ? object_graph->data : "";
  a_string_tensor(w, NODE_ATTR, &bytes, &object_graph->len, 1, true);
  pw_close(w);
  placeholder(w, "saver_filename", HR_TF_DT_STRING, &scalar_shape);
  /* save: (saver_filename, variables..., Const); restore: (saver_filename, variables...) */
  pl->names[0] = "saver_filename";
  pl->types[0] = HR_TF_DT_STRING;
  for (int k = 0; k < pl->n_vars; k++) {
    pl->names[1 + k] = pl->var_names[k];
    pl->types[1 + k] = HR_TF_DT_RESOURCE;
  }
  pl->names[1 + pl->n_vars] = "Const";
  pl->types[1 + pl->n_vars] = HR_TF_DT_STRING;
  static const int string_type = HR_TF_DT_STRING;
  const hr_shape *scalar = &scalar_shape;
  partitioned_call(w, pl, GRAPH_NODE, "StatefulPartitionedCall_1", FN_SAVE, pl->names, pl->types, pl->n_vars + 2,
                   &string_type, &scalar, 1, false);
  partitioned_call(w, pl, GRAPH_NODE, "StatefulPartitionedCall_2", FN_RESTORE, pl->names, pl->types, pl->n_vars + 1,
                   &string_type, &scalar, 1, true);
  pw_open(w, GRAPH_LIBRARY);
  signature_wrapper(w, pl);
  jax2tf_function(w, pl);
  traced_restore(w, pl);
  traced_save(w, pl);
  pw_close(w);
  pw_open(w, GRAPH_VERSIONS);
  pw_uint(w, 1, GRAPH_PRODUCER);
  pw_uint(w, 2, GRAPH_MIN_CONSUMER);
  pw_close(w);
  pw_close(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* Object graphs: the SavedModel's and the checkpoint's, over the same nodes                       */
/* ---------------------------------------------------------------------------------------------- */

/* Node `node`'s children (ObjectReference: node_id, local_name), field 1 of both SavedObject and
 * TrackableObject: the root holds _variables, f and signatures; the list its variables by index;
 * the signature map serving_default. */
static void object_children(pw *w, const plan *pl, int node) {
  static const char *const root[] = {"_variables", "f", "signatures"};
  static const int root_ids[] = {OBJ_LIST, OBJ_F, OBJ_SIGNATURES};
  int n = node == OBJ_ROOT ? 3 : node == OBJ_LIST ? pl->n_vars : node == OBJ_SIGNATURES ? 1 : 0;
  name_t index;
  for (int i = 0; i < n; i++) {
    pw_open(w, OBJ_CHILDREN);
    pw_uint(w, REF_NODE, (uint64_t)(node == OBJ_ROOT ? root_ids[i] : node == OBJ_LIST ? OBJ_FIRST_VARIABLE + i : OBJ_WRAPPER));
    snprintf(index, NAME_CAP, "%d", i);
    pw_str(w, REF_NAME, node == OBJ_ROOT ? root[i] : node == OBJ_LIST ? index : SIGNATURE);
    pw_close(w);
  }
}

/* The checkpoint's TrackableObjectGraph: the same nodes; each variable's VARIABLE_VALUE
 * attribute names its checkpoint key; has_checkpoint_values marks the nodes above variables. */
static void checkpoint_graph(pw *w, const plan *pl) {
  for (int node = 0; node < OBJ_FIRST_VARIABLE + pl->n_vars; node++) {
    pw_open(w, TOG_NODES);
    object_children(w, pl, node);
    int k = node - OBJ_FIRST_VARIABLE;
    if (k >= 0) {
      pw_open(w, TO_ATTRIBUTES);
      pw_str(w, ST_NAME, "VARIABLE_VALUE");
      pw_str(w, ST_FULL_NAME, pl->var_names[k]);
      pw_str(w, ST_KEY, pl->ckpt_keys[k]);
      pw_close(w);
    }
    pw_open(w, TO_HAS_VALUES);
    if (node == OBJ_ROOT || node == OBJ_LIST || k >= 0) pw_uint(w, 1, 1);
    pw_close(w);
    pw_close(w);
  }
}

/* A TensorSpecProto StructuredValue. */
static void tensor_spec(pw *w, uint32_t field, const char *name, int dtype, const hr_shape *shape) {
  pw_open(w, field);
  pw_open(w, SV_TENSOR_SPEC);
  pw_str(w, SPEC_NAME, name);
  pw_shape(w, SPEC_SHAPE, shape);
  pw_uint(w, SPEC_DTYPE, (uint64_t)dtype);
  pw_close(w);
  pw_close(w);
}

/* A named-tuple pair whose value is None, an empty list, an empty dict or the list of keys. */
typedef enum { PAIR_NONE, PAIR_LIST, PAIR_KEYS, PAIR_DICT } pair_kind;
static void pair(pw *w, const plan *pl, const char *key, pair_kind kind) {
  pw_open(w, NT_VALUES);
  pw_str(w, PAIR_KEY, key);
  pw_open(w, PAIR_VALUE);
  pw_open(w, kind == PAIR_NONE ? SV_NONE : kind == PAIR_DICT ? SV_DICT : SV_LIST);
  for (int i = 0; kind == PAIR_KEYS && i < pl->n_inputs; i++) {
    pw_open(w, SV_VALUES);
    pw_str(w, SV_STRING, pl->keys[i]);
    pw_close(w);
  }
  pw_close(w);
  pw_close(w);
  pw_close(w);
}

/* A SavedBareConcreteFunction node for `fn`, called with the signature inputs by keyword, which
 * are its positional `args` (the jax2tf function) or keyword-only arguments (the wrapper). */
static void bare_function(pw *w, const plan *pl, const char *fn, bool keyword_only) {
  pw_open(w, OBJ_BARE);
  pw_str(w, BARE_NAME, fn);
  for (int i = 0; i < pl->n_inputs; i++) pw_str(w, BARE_KEYWORDS, pl->keys[i]);
  pw_uint(w, BARE_POSITIONAL, (uint64_t)pl->n_inputs);
  pw_open(w, BARE_SPEC);
  pw_open(w, SPEC_FULLARGSPEC);
  pw_open(w, SV_NAMED_TUPLE);
  pw_str(w, NT_NAME, "FullArgSpec");
  pair(w, pl, "args", keyword_only ? PAIR_LIST : PAIR_KEYS);
  pair(w, pl, "varargs", PAIR_NONE);
  pair(w, pl, "varkw", PAIR_NONE);
  pair(w, pl, "defaults", PAIR_NONE);
  pair(w, pl, "kwonlyargs", keyword_only ? PAIR_KEYS : PAIR_LIST);
  pair(w, pl, "kwonlydefaults", PAIR_NONE);
  pair(w, pl, "annotations", PAIR_DICT);
  pw_close(w);
  pw_close(w);
  pw_open(w, SPEC_INPUT_SIGNATURE);
  pw_empty(w, SV_NONE);
  pw_close(w);
  pw_close(w);
  pw_close(w);
}

/* A SavedUserObject of class `identifier`. */
static void user_object(pw *w, const char *identifier) {
  pw_open(w, OBJ_USER);
  pw_str(w, USER_IDENTIFIER, identifier);
  pw_open(w, USER_VERSION);
  pw_uint(w, 1, 1);
  pw_uint(w, 2, 1);
  pw_close(w);
  pw_close(w);
}

/* The concrete function `fn`'s entry: its bound variables, input signature (args, kwargs) and
 * output structure. The jax2tf function takes its inputs by position and returns its result (a
 * tuple of them when several); the wrapper takes them by keyword and returns a dict. */
static void concrete_function(pw *w, plan *pl, const char *fn, bool wrapper) {
  pw_open(w, OG_CONCRETE);
  pw_str(w, 1, fn);
  pw_open(w, 2);
  for (int k = 0; k < pl->n_vars; k++) pl->types[k] = OBJ_FIRST_VARIABLE + k;
  if (pl->n_vars) pw_packed(w, CF_BOUND, pl->types, pl->n_vars);
  pw_open(w, CF_INPUTS);
  pw_open(w, SV_TUPLE);
  pw_open(w, SV_VALUES);
  pw_open(w, SV_TUPLE);
  for (int i = 0; !wrapper && i < pl->n_inputs; i++)
    tensor_spec(w, SV_VALUES, pl->keys[i], pl->param_dtype[pl->input_param[i]], pl->param_shape[pl->input_param[i]]);
  pw_close(w);
  pw_close(w);
  pw_open(w, SV_VALUES);
  pw_open(w, SV_DICT);
  for (int i = 0; wrapper && i < pl->n_inputs; i++) {
    pw_open(w, DICT_FIELDS);
    pw_str(w, 1, pl->keys[i]);
    tensor_spec(w, 2, pl->keys[i], pl->param_dtype[pl->input_param[i]], pl->param_shape[pl->input_param[i]]);
    pw_close(w);
  }
  pw_close(w);
  pw_close(w);
  pw_close(w);
  pw_close(w);
  name_t key;
  if (!wrapper && pl->n_outputs == 1) {
    tensor_spec(w, CF_OUTPUTS, "unknown", pl->result_dtype[0], pl->result_shape[0]);
  } else {
    pw_open(w, CF_OUTPUTS);
    pw_open(w, wrapper ? SV_DICT : SV_TUPLE);
    for (int r = 0; r < pl->n_outputs; r++) {
      snprintf(key, NAME_CAP, "output_%d", r);
      if (wrapper) {
        pw_open(w, DICT_FIELDS);
        pw_str(w, 1, key);
      }
      tensor_spec(w, wrapper ? 2 : SV_VALUES, wrapper ? key : "unknown", pl->result_dtype[r], pl->result_shape[r]);
      if (wrapper) pw_close(w);
    }
    pw_close(w);
    pw_close(w);
  }
  pw_close(w);
  pw_close(w);
}

/* The SavedObjectGraph. */
static void object_graph(pw *w, plan *pl) {
  pw_open(w, MG_OBJECTS);
  for (int node = 0; node < OBJ_FIRST_VARIABLE + pl->n_vars; node++) {
    pw_open(w, OG_NODES);
    object_children(w, pl, node);
    int k = node - OBJ_FIRST_VARIABLE;
    if (node == OBJ_ROOT) user_object(w, "_generic_user_object");
    else if (node == OBJ_LIST) user_object(w, "trackable_list_wrapper");
    else if (node == OBJ_F) bare_function(w, pl, FN_JAX2TF, false);
    else if (node == OBJ_SIGNATURES) user_object(w, "signature_map");
    else if (node == OBJ_WRAPPER) bare_function(w, pl, FN_WRAPPER, true);
    else {
      pw_open(w, OBJ_VARIABLE);
      pw_uint(w, VAR_DTYPE, (uint64_t)pl->param_dtype[pl->var_param[k]]);
      pw_shape(w, VAR_SHAPE, pl->param_shape[pl->var_param[k]]);
      pw_str(w, VAR_NAME, pl->var_names[k]);
      pw_close(w);
    }
    pw_close(w);
  }
  concrete_function(w, pl, FN_JAX2TF, false);
  concrete_function(w, pl, FN_WRAPPER, true);
  pw_close(w);
}

/* ---------------------------------------------------------------------------------------------- */
/* The MetaGraphDef and the files                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* A map<string, TensorInfo> entry. */
static void tensor_info(pw *w, uint32_t field, const char *key, const char *name, int dtype, const hr_shape *shape) {
  pw_open(w, field);
  pw_str(w, 1, key);
  pw_open(w, 2);
  pw_str(w, TI_NAME, name);
  if (dtype) pw_uint(w, TI_DTYPE, (uint64_t)dtype);
  pw_shape(w, TI_SHAPE, shape);
  pw_close(w);
  pw_close(w);
}

/* The SignatureDefs: __saved_model_init_op (the NoOp) and serving_default. */
static void signatures(pw *w, const plan *pl) {
  pw_open(w, MG_SIGNATURES);
  pw_str(w, 1, "__saved_model_init_op");
  pw_open(w, 2);
  tensor_info(w, SIG_OUTPUTS, "__saved_model_init_op", "NoOp", 0, NULL);
  pw_close(w);
  pw_close(w);
  pw_open(w, MG_SIGNATURES);
  pw_str(w, 1, SIGNATURE);
  pw_open(w, 2);
  name_t key, name;
  for (int i = 0; i < pl->n_inputs; i++) {
    int p = pl->input_param[i];
    snprintf(name, NAME_CAP, SIGNATURE "_%s:0", pl->keys[i]);
    tensor_info(w, SIG_INPUTS, pl->keys[i], name, pl->param_dtype[p], pl->param_shape[p]);
  }
  for (int r = 0; r < pl->n_outputs; r++) {
    snprintf(key, NAME_CAP, "output_%d", r);
    snprintf(name, NAME_CAP, "StatefulPartitionedCall:%d", r);
    tensor_info(w, SIG_OUTPUTS, key, name, pl->result_dtype[r], pl->result_shape[r]);
  }
  pw_str(w, SIG_METHOD, "tensorflow/serving/predict");
  pw_close(w);
  pw_close(w);
}

/* The SavedModel message. */
static void saved_model(pw *w, plan *pl, const hr_strbuf *ckpt_graph) {
  pw_uint(w, SM_VERSION, 1);
  pw_open(w, SM_META_GRAPHS);
  pw_open(w, MG_INFO);
  pw_str(w, INFO_TAGS, "serve");
  pw_uint(w, INFO_STRIPPED_DEFAULTS, 1);
  pw_close(w);
  graph(w, pl, ckpt_graph);
  pw_open(w, MG_SAVER);
  pw_str(w, SAVER_FILENAME, "saver_filename:0");
  pw_str(w, SAVER_SAVE, "StatefulPartitionedCall_1:0");
  pw_str(w, SAVER_RESTORE, "StatefulPartitionedCall_2");
  pw_uint(w, SAVER_VERSION, SAVER_V2);
  pw_close(w);
  pw_open(w, MG_COLLECTIONS); /* saved_model_main_op: CollectionDef { node_list { value: "NoOp" } } */
  pw_str(w, 1, "saved_model_main_op");
  pw_open(w, 2);
  pw_open(w, 1);
  pw_str(w, 1, "NoOp");
  pw_close(w);
  pw_close(w);
  pw_close(w);
  signatures(w, pl);
  object_graph(w, pl);
  pw_close(w);
}

static void pw_init(pw *w) {
  memset(w, 0, sizeof *w);
  for (int d = 0; d < PW_DEPTH; d++) hr_strbuf_init(&w->buf[d], NULL);
}
static void pw_free(pw *w) {
  for (int d = 0; d < PW_DEPTH; d++) hr_strbuf_free(&w->buf[d]);
}

/* Writes variables/variables.{index,data-00000-of-00001}: the variables under their checkpoint
 * keys (their bytes where they are) and the object graph. */
static hr_status write_variables(const char *dir, const plan *pl, const hr_strbuf *ckpt_graph) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s/variables", dir) >= (int)sizeof path)
    return hr_error(HR_INVALID_ARGUMENT, "%.200s: path too long", dir);
  HR_TRY(hr_make_dir(path));
  hr_weights *w = NULL;
  HR_TRY(hr_weights_create(NULL, pl->n_vars, NULL, 0, NULL, &w));
  hr_status s = NULL;
  for (int k = 0; !s && k < pl->n_vars; k++) {
    const hr_tensor *t = pl->bound[pl->var_param[k]];
    s = hr_weights_add(w, pl->ckpt_keys[k], t->dtype, &t->shape, t->data, t->nbytes);
  }
  strcat(path, "/variables");
  if (!s) s = hr_bundle_write(path, w, ckpt_graph->data ? ckpt_graph->data : "", ckpt_graph->len);
  hr_weights_free(w);
  return s;
}

/* Checks that each variable's value has its parameter's type and shape. */
static hr_status check_bound(const plan *pl) {
  for (int k = 0; k < pl->n_vars; k++) {
    int p = pl->var_param[k];
    const hr_type *t = &pl->main->body.args[p].type;
    const hr_tensor *v = pl->bound[p];
    bool same = v->dtype == t->dtype && v->shape.rank == t->shape.rank;
    for (int d = 0; same && d < t->shape.rank; d++) same = v->shape.dims[d] == t->shape.dims[d];
    if (same) continue;
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    hr_type_print(&sb, t);
    hr_status s = hr_strbuf_status(&sb);
    if (!s) s = hr_error(HR_INVALID_ARGUMENT, "SavedModel: parameter %d is a %s; the weight bound to it is not", p, sb.data);
    hr_strbuf_free(&sb);
    return s;
  }
  return NULL;
}

hr_status hr_savedmodel_write(const char *dir, const hr_savedmodel_source *src) {
  plan pl;
  pw ckpt, sm;
  pw_init(&ckpt);
  pw_init(&sm);
  hr_status s = plan_make(src, &pl);
  if (!s) s = check_bound(&pl);
  if (!s) {
    checkpoint_graph(&ckpt, &pl);
    s = pw_status(&ckpt);
  }
  if (!s) {
    saved_model(&sm, &pl, &ckpt.buf[0]);
    s = pw_status(&sm);
  }
  char path[4096];
  if (!s && snprintf(path, sizeof path, "%s/saved_model.pb", dir) >= (int)sizeof path)
    s = hr_error(HR_INVALID_ARGUMENT, "%.200s: path too long", dir);
  if (!s) s = hr_make_dir(dir);
  if (!s) s = write_variables(dir, &pl, &ckpt.buf[0]);
  if (!s) s = hr_write_file(path, sm.buf[0].data ? sm.buf[0].data : "", sm.buf[0].len);
  plan_free(&pl);
  pw_free(&ckpt);
  pw_free(&sm);
  return s;
}

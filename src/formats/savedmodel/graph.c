/* GraphDef, NodeDef, FunctionDef and AttrValue decoding (graph.h). Field numbers are those of
 * tensorflow/core/framework/{graph,node_def,function,op_def,attr_value,tensor_shape}.proto. Each
 * repeated field is counted first, then read into an arena array of that size. */
#include "formats/savedmodel/graph.h"

#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/savedmodel/tf_types.h"

enum {
  GRAPH_NODE = 1, GRAPH_LIBRARY = 2,                              /* GraphDef */
  LIBRARY_FUNCTION = 1,                                           /* FunctionDefLibrary */
  NODE_NAME = 1, NODE_OP = 2, NODE_INPUT = 3, NODE_ATTR = 5,      /* NodeDef */
  ENTRY_KEY = 1, ENTRY_VALUE = 2,                                 /* map entries */
  FUNC_SIGNATURE = 1, FUNC_NODE = 3, FUNC_RET = 4, FUNC_ARG_ATTR = 7, /* FunctionDef */
  ARGATTRS_ATTR = 1,                                              /* FunctionDef.ArgAttrs */
  OPDEF_NAME = 1, OPDEF_INPUT = 2, OPDEF_OUTPUT = 3, ARG_NAME = 1, ARG_TYPE = 3, /* OpDef, OpDef.ArgDef */
  ATTR_LIST = 1, ATTR_S = 2, ATTR_I = 3, ATTR_B = 5, ATTR_TYPE = 6, ATTR_TENSOR = 8, ATTR_FUNC = 10, /* AttrValue */
  LIST_S = 2, LIST_TYPE = 6, LIST_SHAPE = 7, LIST_FUNC = 9,       /* AttrValue.ListValue */
  TENSOR_DTYPE = 1, TENSOR_SHAPE = 2, TENSOR_CONTENT = 4, TENSOR_FLOAT = 5, TENSOR_DOUBLE = 6, /* TensorProto */
  TENSOR_INT = 7, TENSOR_INT64 = 10, TENSOR_BOOL = 11,
  NAMEATTR_NAME = 1,                                              /* NameAttrList */
  SHAPE_DIM = 2, SHAPE_UNKNOWN_RANK = 3, DIM_SIZE = 1,            /* TensorShapeProto */
};

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a TensorFlow graph"); }

hr_status tf_string(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, const char **out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "a string"));
  if (memchr(f->data, 0, f->len)) return hr_pb_error(c, f->offset, "a name holds a NUL byte");
  if (!(*out = hr_arena_strndup(arena, (const char *)f->data, f->len))) return oom();
  return NULL;
}

hr_status tf_message_string(hr_arena *arena, const hr_pb *c, const hr_pb_field *msg, uint32_t number, const char **out) {
  HR_TRY(hr_pb_want(c, msg, HR_PB_LEN, "a message"));
  hr_pb sub = hr_pb_sub(c, msg);
  hr_pb_field g;
  bool more;
  *out = "";
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == number) HR_TRY(tf_string(arena, c, &g, out));
  }
}

/* An arena array of `n` elements of `size` bytes (one when n is 0, so it is never NULL). */
static hr_status array(hr_arena *arena, int n, size_t size, void **out) {
  if (!(*out = hr_arena_calloc(arena, n > 0 ? (size_t)n : 1, size, 16))) return oom();
  return NULL;
}

/* Reads a map<string, V> entry's key and value fields; an absent value is an empty LEN field. */
static hr_status map_entry(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, const char **key, hr_pb_field *value) {
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  *key = "";
  *value = (hr_pb_field){.number = ENTRY_VALUE, .wire = HR_PB_LEN, .data = f->data, .len = 0, .offset = f->offset};
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == ENTRY_KEY) HR_TRY(tf_string(arena, c, &g, key));
    if (g.number == ENTRY_VALUE) *value = g;
  }
}

/* Reads a NodeDef. */
static hr_status read_node(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, tf_node *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "a NodeDef"));
  memset(out, 0, sizeof *out);
  out->name = out->op = "";
  out->offset = f->offset;
  HR_TRY(hr_pb_count(c, f, NODE_INPUT, HR_LIMIT_TF_LIST, &out->n_inputs));
  HR_TRY(hr_pb_count(c, f, NODE_ATTR, HR_LIMIT_TF_LIST, &out->n_attrs));
  HR_TRY(array(arena, out->n_inputs, sizeof *out->inputs, (void **)&out->inputs));
  HR_TRY(array(arena, out->n_attrs, sizeof *out->attrs, (void **)&out->attrs));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  int ni = 0, na = 0;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == NODE_NAME) HR_TRY(tf_string(arena, c, &g, &out->name));
    else if (g.number == NODE_OP) HR_TRY(tf_string(arena, c, &g, &out->op));
    else if (g.number == NODE_INPUT) HR_TRY(tf_string(arena, c, &g, &out->inputs[ni++]));
    else if (g.number == NODE_ATTR) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "a node attribute"));
      HR_TRY(map_entry(arena, c, &g, &out->attrs[na].key, &out->attrs[na].value));
      na++;
    }
  }
}

/* Reads the repeated NodeDef field `number` of message `f` into *nodes. */
static hr_status read_nodes(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, uint32_t number, tf_node **nodes, int *n) {
  HR_TRY(hr_pb_count(c, f, number, HR_LIMIT_TF_NODES, n));
  HR_TRY(array(arena, *n, sizeof **nodes, (void **)nodes));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (int i = 0;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == number) HR_TRY(read_node(arena, c, &g, &(*nodes)[i++]));
  }
}

/* The DataType an ArgDef names (0 when it names an attribute holding it instead). */
static hr_status arg_type(const hr_pb *c, const hr_pb_field *arg, int *out) {
  hr_pb sub = hr_pb_sub(c, arg);
  hr_pb_field g;
  bool more;
  *out = 0;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == ARG_TYPE) *out = (int)(g.u & 0xffff);
  }
}

/* Reads the argument names (field `number`: input_arg or output_arg) of an OpDef, and their
 * DataTypes when `types` is not NULL. */
static hr_status read_args(hr_arena *arena, const hr_pb *c, const hr_pb_field *opdef, uint32_t number, const char ***names,
                           int **types, int *n) {
  HR_TRY(hr_pb_count(c, opdef, number, HR_LIMIT_TF_LIST, n));
  HR_TRY(array(arena, *n, sizeof **names, (void **)names));
  if (types) HR_TRY(array(arena, *n, sizeof **types, (void **)types));
  hr_pb sub = hr_pb_sub(c, opdef);
  hr_pb_field g;
  bool more;
  for (int i = 0;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != number) continue;
    HR_TRY(tf_message_string(arena, c, &g, ARG_NAME, &(*names)[i]));
    if (types) HR_TRY(arg_type(c, &g, &(*types)[i]));
    i++;
  }
}

/* Reads an arg_attr entry (map<uint32, ArgAttrs>) of `fn`: the argument's `_output_shapes`, when
 * it records one shape, becomes its shape. */
static hr_status read_arg_attrs(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, tf_function *fn) {
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g, h;
  bool more;
  uint64_t index = UINT64_MAX;
  hr_pb_field attrs = {0};
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == ENTRY_KEY && g.wire == HR_PB_VARINT) index = g.u;
    if (g.number != ENTRY_VALUE) continue;
    HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "argument attributes"));
    attrs = g;
  }
  if (index >= (uint64_t)fn->n_args || !attrs.data) return NULL; /* attributes of no argument of the signature */
  hr_pb entries = hr_pb_sub(c, &attrs);
  for (;;) {
    HR_TRY(hr_pb_next(&entries, &h, &more));
    if (!more) return NULL;
    if (h.number != ARGATTRS_ATTR) continue;
    HR_TRY(hr_pb_want(c, &h, HR_PB_LEN, "an argument attribute"));
    tf_attr a;
    HR_TRY(map_entry(arena, c, &h, &a.key, &a.value));
    if (strcmp(a.key, "_output_shapes") != 0) continue;
    tf_shape shapes[1];
    int n = 0;
    HR_TRY(tf_attr_list_shapes(c, &a, shapes, 1, &n));
    if (n == 1) fn->arg_shapes[index] = shapes[0];
  }
}

/* Reads a FunctionDef. */
static hr_status read_function(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, tf_function *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "a FunctionDef"));
  memset(out, 0, sizeof *out);
  out->name = "";
  HR_TRY(read_nodes(arena, c, f, FUNC_NODE, &out->nodes, &out->n_nodes));
  HR_TRY(hr_pb_count(c, f, FUNC_RET, HR_LIMIT_TF_LIST, &out->n_rets));
  HR_TRY(array(arena, out->n_rets, sizeof *out->ret_keys, (void **)&out->ret_keys));
  HR_TRY(array(arena, out->n_rets, sizeof *out->ret_values, (void **)&out->ret_values));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (int r = 0;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == FUNC_SIGNATURE) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "a function signature"));
      HR_TRY(read_args(arena, c, &g, OPDEF_INPUT, &out->args, &out->arg_types, &out->n_args));
      HR_TRY(read_args(arena, c, &g, OPDEF_OUTPUT, &out->outputs, NULL, &out->n_outputs));
      HR_TRY(tf_message_string(arena, c, &g, OPDEF_NAME, &out->name));
    } else if (g.number == FUNC_RET) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "a function output"));
      hr_pb_field value;
      HR_TRY(map_entry(arena, c, &g, &out->ret_keys[r], &value));
      HR_TRY(tf_string(arena, c, &value, &out->ret_values[r]));
      r++;
    }
  }
  /* The argument shapes, once the signature has said how many arguments there are. */
  if (!out->arg_types) HR_TRY(array(arena, out->n_args, sizeof *out->arg_types, (void **)&out->arg_types));
  HR_TRY(array(arena, out->n_args, sizeof *out->arg_shapes, (void **)&out->arg_shapes));
  for (int i = 0; i < out->n_args; i++) out->arg_shapes[i].rank = -1;
  sub = hr_pb_sub(c, f);
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != FUNC_ARG_ATTR) continue;
    HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "an arg_attr entry"));
    HR_TRY(read_arg_attrs(arena, c, &g, out));
  }
}

hr_status tf_graph_read(hr_arena *arena, const hr_pb *c, const hr_pb_field *f, tf_graph *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "a GraphDef"));
  memset(out, 0, sizeof *out);
  HR_TRY(read_nodes(arena, c, f, GRAPH_NODE, &out->nodes, &out->n_nodes));
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != GRAPH_LIBRARY) continue;
    HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "a function library"));
    if (out->n_functions) return hr_pb_error(c, g.offset, "a second function library");
    HR_TRY(hr_pb_count(c, &g, LIBRARY_FUNCTION, HR_LIMIT_TF_NODES, &out->n_functions));
    HR_TRY(array(arena, out->n_functions, sizeof *out->functions, (void **)&out->functions));
    hr_pb lib = hr_pb_sub(c, &g);
    hr_pb_field h;
    for (int i = 0;;) {
      bool m2;
      HR_TRY(hr_pb_next(&lib, &h, &m2));
      if (!m2) break;
      if (h.number == LIBRARY_FUNCTION) HR_TRY(read_function(arena, c, &h, &out->functions[i++]));
    }
  }
}

hr_status tf_shape_read(const hr_pb *c, const hr_pb_field *f, tf_shape *out) {
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "a shape"));
  out->rank = 0;
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g, h;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == SHAPE_UNKNOWN_RANK && g.u) {
      out->rank = -1;
      return NULL;
    }
    if (g.number != SHAPE_DIM) continue;
    HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "a dimension"));
    if (out->rank == HR_MAX_RANK) return hr_pb_error(c, g.offset, "a shape of more than %d dimensions", HR_MAX_RANK);
    int64_t size = 0;
    hr_pb dim = hr_pb_sub(c, &g);
    for (bool m2;;) {
      HR_TRY(hr_pb_next(&dim, &h, &m2));
      if (!m2) break;
      if (h.number == DIM_SIZE) size = (int64_t)h.u;
    }
    if (size < -1) return hr_pb_error(c, g.offset, "a dimension of size %lld", (long long)size);
    out->dims[out->rank++] = size;
  }
}

const tf_attr *tf_node_attr(const tf_node *node, const char *key) {
  for (int i = 0; i < node->n_attrs; i++)
    if (strcmp(node->attrs[i].key, key) == 0) return &node->attrs[i];
  return NULL;
}

const tf_node *tf_find_node(const tf_node *nodes, int n, const char *name, size_t len) {
  for (int i = 0; i < n; i++)
    if (strlen(nodes[i].name) == len && memcmp(nodes[i].name, name, len) == 0) return &nodes[i];
  return NULL;
}

const tf_function *tf_find_function(const tf_graph *g, const char *name) {
  for (int i = 0; i < g->n_functions; i++)
    if (strcmp(g->functions[i].name, name) == 0) return &g->functions[i];
  return NULL;
}

bool tf_parse_ref(const char *ref, size_t *name_len, int *index) {
  const char *colon = strchr(ref, ':');
  *name_len = colon ? (size_t)(colon - ref) : strlen(ref);
  *index = 0;
  if (!colon) return *name_len > 0;
  const char *last = strrchr(ref, ':');
  char *end;
  long v = strtol(last + 1, &end, 10);
  if (*end || v < 0 || v > INT32_MAX) return false;
  *index = (int)v;
  return true;
}

const char *tf_data_input(const tf_node *node, int i) {
  for (int k = 0; k < node->n_inputs; k++) {
    if (node->inputs[k][0] == '^') continue;
    if (i-- == 0) return node->inputs[k];
  }
  return NULL;
}

/* The field `number` of attribute `a`'s AttrValue, which must be there. */
static hr_status attr_field(const hr_pb *c, const tf_attr *a, uint32_t number, int wire, const char *what, hr_pb_field *out) {
  hr_pb sub = hr_pb_sub(c, &a->value);
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, out, &more));
    if (!more) return hr_pb_error(c, a->value.offset, "attribute '%s' holds no %s", a->key, what);
    if (out->number == number) return hr_pb_want(c, out, wire, what);
  }
}

hr_status tf_attr_bytes(const hr_pb *c, const tf_attr *a, const uint8_t **data, size_t *len) {
  hr_pb_field f;
  HR_TRY(attr_field(c, a, ATTR_S, HR_PB_LEN, "string", &f));
  *data = f.data;
  *len = f.len;
  return NULL;
}

hr_status tf_attr_int(const hr_pb *c, const tf_attr *a, int64_t *out) {
  hr_pb_field f;
  HR_TRY(attr_field(c, a, ATTR_I, HR_PB_VARINT, "integer", &f));
  *out = (int64_t)f.u;
  return NULL;
}

hr_status tf_attr_bool(const hr_pb *c, const tf_attr *a, bool *out) {
  hr_pb_field f;
  HR_TRY(attr_field(c, a, ATTR_B, HR_PB_VARINT, "boolean", &f));
  *out = f.u != 0;
  return NULL;
}

hr_status tf_attr_func(hr_arena *arena, const hr_pb *c, const tf_attr *a, const char **name) {
  hr_pb_field f;
  HR_TRY(attr_field(c, a, ATTR_FUNC, HR_PB_LEN, "function", &f));
  return tf_message_string(arena, c, &f, NAMEATTR_NAME, name);
}

hr_status tf_attr_type(const hr_pb *c, const tf_attr *a, int *out) {
  hr_pb_field f;
  HR_TRY(attr_field(c, a, ATTR_TYPE, HR_PB_VARINT, "type", &f));
  *out = (int)(f.u & 0xffff);
  return NULL;
}

/* ---- constant tensors (TensorProto) ---- */

/* Stores element `i` of a tensor being read: `bits` of a value of its DataType as stored in
 * tensor_content or a *_val field (floats as their IEEE bits, integers sign-extended). */
static void put_element(tf_const *t, int64_t i, uint64_t bits) {
  if (!t->floats) {
    t->ints[i] = (int64_t)bits;
  } else if (t->dtype == 1) { /* DT_FLOAT */
    uint32_t b32 = (uint32_t)bits;
    float f;
    memcpy(&f, &b32, sizeof f);
    t->floats[i] = f;
  } else {
    memcpy(&t->floats[i], &bits, sizeof bits);
  }
}

/* The bits of element `i` of little-endian bytes holding `size`-byte elements, sign-extended to
 * 64 bits when `is_signed`. */
static uint64_t content_element(const uint8_t *data, size_t size, int64_t i, bool is_signed) {
  uint64_t v = 0;
  for (size_t b = 0; b < size; b++) v |= (uint64_t)data[(size_t)i * size + b] << (8 * b);
  if (is_signed && size < 8 && (v >> (8 * size - 1)) & 1) v |= ~(uint64_t)0 << (8 * size);
  return v;
}

/* What the DataType of a tensor being read is: a float type (DT_FLOAT, DT_DOUBLE), a signed
 * integer, or an unsigned integer or bool; and its bytes in tensor_content. Other types are refused. */
static hr_status tensor_kind(const hr_pb *c, size_t offset, int dtype, bool *is_float, bool *is_signed, size_t *size) {
  *is_float = dtype == 1 || dtype == 2;
  *is_signed = dtype == 3 || dtype == 5 || dtype == 6 || dtype == 9;
  bool is_unsigned = dtype == 4 || dtype == 10 || dtype == 17 || dtype == 22 || dtype == 23;
  if (!*is_float && !*is_signed && !is_unsigned)
    return hr_error(HR_UNIMPLEMENTED, "%s: offset %zu: a constant of DataType %d, which hlorun does not read", c->file, offset, dtype);
  *size = hr_tf_dtype_size(dtype);
  return NULL;
}

/* Appends value `v` (bits as put_element takes them) as element *k of `t`. */
static hr_status add_value(const hr_pb *c, size_t offset, tf_const *t, int64_t *k, uint64_t v) {
  if (*k == t->n) return hr_pb_error(c, offset, "a constant holds more values than its %lld elements", (long long)t->n);
  put_element(t, (*k)++, v);
  return NULL;
}

/* Appends the values of one *_val field `g` of a tensor (one value, or a packed array of them). */
static hr_status add_values(const hr_pb *c, const hr_pb_field *g, tf_const *t, int64_t *k) {
  if (g->wire != HR_PB_LEN) return add_value(c, g->offset, t, k, g->u);
  if (g->number == TENSOR_FLOAT || g->number == TENSOR_DOUBLE) { /* packed fixed-size values */
    size_t es = g->number == TENSOR_FLOAT ? 4 : 8;
    if (g->len % es) return hr_pb_error(c, g->offset, "packed values cut short");
    for (size_t i = 0; i < g->len / es; i++) HR_TRY(add_value(c, g->offset, t, k, content_element(g->data, es, (int64_t)i, false)));
    return NULL;
  }
  hr_pb packed = hr_pb_sub(c, g);
  for (uint64_t v;;) {
    bool more;
    HR_TRY(hr_pb_next_packed(&packed, &v, &more));
    if (!more) return NULL;
    HR_TRY(add_value(c, g->offset, t, k, v));
  }
}

/* Reads the *_val values of TensorProto `msg` into `t`: TF repeats the last value over the
 * elements it leaves out, and no values at all mean zeros. */
static hr_status tensor_values(const hr_pb *c, const hr_pb_field *msg, tf_const *t) {
  hr_pb sub = hr_pb_sub(c, msg);
  hr_pb_field g;
  bool more;
  int64_t k = 0;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    bool wanted = t->floats ? (g.number == TENSOR_FLOAT && t->dtype == 1) || (g.number == TENSOR_DOUBLE && t->dtype == 2)
                            : g.number == TENSOR_INT || g.number == TENSOR_INT64 || g.number == TENSOR_BOOL;
    if (wanted) HR_TRY(add_values(c, &g, t, &k));
  }
  for (int64_t i = k; i < t->n; i++) {
    if (t->floats) t->floats[i] = k ? t->floats[k - 1] : 0.0;
    else t->ints[i] = k ? t->ints[k - 1] : 0;
  }
  return NULL;
}

hr_status tf_attr_tensor(hr_arena *arena, const hr_pb *c, const tf_attr *a, int64_t cap, tf_const *out) {
  hr_pb_field msg, g;
  HR_TRY(attr_field(c, a, ATTR_TENSOR, HR_PB_LEN, "tensor", &msg));
  memset(out, 0, sizeof *out);
  hr_pb sub = hr_pb_sub(c, &msg);
  hr_pb_field content = {0};
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == TENSOR_DTYPE) out->dtype = (int)(g.u & 0xffff);
    if (g.number == TENSOR_SHAPE) HR_TRY(tf_shape_read(c, &g, &out->shape));
    if (g.number != TENSOR_CONTENT) continue;
    HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "tensor content"));
    content = g;
  }
  if (out->shape.rank < 0) return hr_pb_error(c, msg.offset, "constant '%s' has no known shape", a->key);
  out->n = 1;
  for (int d = 0; d < out->shape.rank; d++) {
    if (out->shape.dims[d] < 0) return hr_pb_error(c, msg.offset, "constant '%s' has no known shape", a->key);
    if (out->shape.dims[d] > 0 && out->n > cap / out->shape.dims[d])
      return hr_error(HR_UNIMPLEMENTED, "%s: offset %zu: constant '%s' holds more than %lld elements", c->file, msg.offset,
                      a->key, (long long)cap);
    out->n *= out->shape.dims[d];
  }
  bool is_float = false, is_signed = false;
  size_t size = 0;
  HR_TRY(tensor_kind(c, msg.offset, out->dtype, &is_float, &is_signed, &size));
  size_t n = out->n > 0 ? (size_t)out->n : 1;
  if (is_float ? !(out->floats = HR_ARENA_ARRAY(arena, double, n)) : !(out->ints = HR_ARENA_ARRAY(arena, int64_t, n)))
    return oom();
  if (!content.data) return tensor_values(c, &msg, out);
  if (content.len != (size_t)out->n * size)
    return hr_pb_error(c, content.offset, "constant '%s': %zu bytes of content for %lld elements of %zu bytes", a->key,
                       content.len, (long long)out->n, size);
  for (int64_t i = 0; i < out->n; i++) put_element(out, i, content_element(content.data, size, i, is_signed));
  return NULL;
}

/* Calls `each` on every field numbered `number` of the attribute's list (none when it has none). */
typedef hr_status (*list_fn)(void *ctx, const hr_pb *c, const hr_pb_field *f, int i);
static hr_status each_in_list(const hr_pb *c, const tf_attr *a, uint32_t number, int cap, int *n, list_fn each, void *ctx) {
  hr_pb_field list;
  *n = 0;
  hr_pb sub = hr_pb_sub(c, &a->value);
  bool more, found = false;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &list, &more));
    if (!more) break;
    if (list.number == ATTR_LIST) {
      found = true;
      break;
    }
  }
  if (!found) return hr_pb_error(c, a->value.offset, "attribute '%s' is not a list", a->key);
  HR_TRY(hr_pb_want(c, &list, HR_PB_LEN, "a list"));
  hr_pb items = hr_pb_sub(c, &list);
  hr_pb_field g;
  for (;;) {
    HR_TRY(hr_pb_next(&items, &g, &more));
    if (!more) return NULL;
    if (g.number != number) continue;
    if (g.wire == HR_PB_LEN && number == LIST_TYPE) { /* packed types */
      hr_pb packed = hr_pb_sub(c, &g);
      for (uint64_t v;;) {
        bool m2;
        HR_TRY(hr_pb_next_packed(&packed, &v, &m2));
        if (!m2) break;
        if (*n == cap) return hr_pb_error(c, g.offset, "attribute '%s' holds more than %d values", a->key, cap);
        hr_pb_field one = {.number = number, .wire = HR_PB_VARINT, .u = v, .offset = g.offset};
        HR_TRY(each(ctx, c, &one, (*n)++));
      }
      continue;
    }
    if (*n == cap) return hr_pb_error(c, g.offset, "attribute '%s' holds more than %d values", a->key, cap);
    HR_TRY(each(ctx, c, &g, (*n)++));
  }
}

static hr_status put_type(void *ctx, const hr_pb *c, const hr_pb_field *f, int i) {
  HR_TRY(hr_pb_want(c, f, HR_PB_VARINT, "a type"));
  ((int *)ctx)[i] = (int)(f->u & 0xffff);
  return NULL;
}

hr_status tf_attr_list_types(const hr_pb *c, const tf_attr *a, int *out, int cap, int *n) {
  return each_in_list(c, a, LIST_TYPE, cap, n, put_type, out);
}

/* The destination of list strings or function names: an array and the arena to copy into. */
typedef struct names_ctx {
  hr_arena *arena;
  const char **out;
} names_ctx;

static hr_status put_string(void *ctx, const hr_pb *c, const hr_pb_field *f, int i) {
  names_ctx *k = ctx;
  return tf_string(k->arena, c, f, &k->out[i]);
}

hr_status tf_attr_list_strings(hr_arena *arena, const hr_pb *c, const tf_attr *a, const char **out, int cap, int *n) {
  names_ctx k = {arena, out};
  return each_in_list(c, a, LIST_S, cap, n, put_string, &k);
}

static hr_status put_func(void *ctx, const hr_pb *c, const hr_pb_field *f, int i) {
  names_ctx *k = ctx;
  return tf_message_string(k->arena, c, f, NAMEATTR_NAME, &k->out[i]);
}

hr_status tf_attr_list_funcs(hr_arena *arena, const hr_pb *c, const tf_attr *a, const char **out, int cap, int *n) {
  names_ctx k = {arena, out};
  return each_in_list(c, a, LIST_FUNC, cap, n, put_func, &k);
}

static hr_status put_shape(void *ctx, const hr_pb *c, const hr_pb_field *f, int i) {
  return tf_shape_read(c, f, &((tf_shape *)ctx)[i]);
}

hr_status tf_attr_list_shapes(const hr_pb *c, const tf_attr *a, tf_shape *out, int cap, int *n) {
  return each_in_list(c, a, LIST_SHAPE, cap, n, put_shape, out);
}

/* GraphDef, NodeDef, FunctionDef and AttrValue decoding (graph.h). Field numbers are those of
 * tensorflow/core/framework/{graph,node_def,function,op_def,attr_value,tensor_shape}.proto. Each
 * repeated field is counted first, then read into an arena array of that size. */
#include "formats/savedmodel/graph.h"

#include <string.h>

#include "base/limits.h"

enum {
  GRAPH_NODE = 1, GRAPH_LIBRARY = 2,                              /* GraphDef */
  LIBRARY_FUNCTION = 1,                                           /* FunctionDefLibrary */
  NODE_NAME = 1, NODE_OP = 2, NODE_INPUT = 3, NODE_ATTR = 5,      /* NodeDef */
  ENTRY_KEY = 1, ENTRY_VALUE = 2,                                 /* map entries */
  FUNC_SIGNATURE = 1, FUNC_NODE = 3, FUNC_RET = 4,                /* FunctionDef */
  OPDEF_NAME = 1, OPDEF_INPUT = 2, OPDEF_OUTPUT = 3, ARG_NAME = 1, /* OpDef, OpDef.ArgDef */
  ATTR_LIST = 1, ATTR_S = 2, ATTR_I = 3, ATTR_B = 5, ATTR_FUNC = 10, /* AttrValue */
  LIST_S = 2, LIST_TYPE = 6, LIST_FUNC = 9,                        /* AttrValue.ListValue */
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

/* Reads the argument names (field `number`: input_arg or output_arg) of an OpDef. */
static hr_status read_args(hr_arena *arena, const hr_pb *c, const hr_pb_field *opdef, uint32_t number, const char ***names, int *n) {
  HR_TRY(hr_pb_count(c, opdef, number, HR_LIMIT_TF_LIST, n));
  HR_TRY(array(arena, *n, sizeof **names, (void **)names));
  hr_pb sub = hr_pb_sub(c, opdef);
  hr_pb_field g;
  bool more;
  for (int i = 0;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != number) continue;
    HR_TRY(tf_message_string(arena, c, &g, ARG_NAME, &(*names)[i++]));
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
    if (!more) return NULL;
    if (g.number == FUNC_SIGNATURE) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "a function signature"));
      HR_TRY(read_args(arena, c, &g, OPDEF_INPUT, &out->args, &out->n_args));
      HR_TRY(read_args(arena, c, &g, OPDEF_OUTPUT, &out->outputs, &out->n_outputs));
      HR_TRY(tf_message_string(arena, c, &g, OPDEF_NAME, &out->name));
    } else if (g.number == FUNC_RET) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_LEN, "a function output"));
      hr_pb_field value;
      HR_TRY(map_entry(arena, c, &g, &out->ret_keys[r], &value));
      HR_TRY(tf_string(arena, c, &value, &out->ret_values[r]));
      r++;
    }
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

/* SavedModel and GraphDef files (savedmodel.h): the MetaGraphDef tagged "serve", its signatures,
 * object-graph functions and XlaCallModule nodes. Field numbers are those of
 * tensorflow/core/protobuf/{saved_model,meta_graph,saver,saved_object_graph}.proto. */
#include "formats/savedmodel/savedmodel.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/limits.h"
#include "base/mapping.h"
#include "base/strbuf.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/savedmodel/tf_types.h"

enum {
  SM_META_GRAPHS = 2,                                                       /* SavedModel */
  MG_META_INFO = 1, MG_GRAPH = 2, MG_SAVER = 3, MG_SIGNATURES = 5, MG_OBJECT_GRAPH = 7, /* MetaGraphDef */
  INFO_TAGS = 4,                                                            /* MetaInfoDef */
  SAVER_RESTORE_OP = 3,                                                     /* SaverDef */
  SIG_INPUTS = 1, SIG_OUTPUTS = 2, SIG_METHOD = 3,                          /* SignatureDef */
  TI_NAME = 1, TI_DTYPE = 2, TI_SHAPE = 3,                                  /* TensorInfo */
  OG_NODES = 1, OBJ_CHILDREN = 1, OBJ_FUNCTION = 6, REF_NODE = 1, REF_NAME = 2, FN_CONCRETE = 1, /* object graph */
};

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a SavedModel"); }

/* Reads the fields numbered `number` of `f` into an arena array of `size`-byte elements, calling
 * `each` on each. */
typedef hr_status (*field_fn)(hr_savedmodel *sm, const hr_pb_field *f, int i, void *ctx);
static hr_status read_repeated(hr_savedmodel *sm, const hr_pb_field *f, uint32_t number, size_t size, field_fn each,
                               void **items, int *n) {
  HR_TRY(hr_pb_count(&sm->file, f, number, HR_LIMIT_TF_LIST, n));
  if (!(*items = hr_arena_calloc(&sm->arena, *n > 0 ? (size_t)*n : 1, size, 16))) return oom();
  hr_pb sub = hr_pb_sub(&sm->file, f);
  hr_pb_field g;
  bool more;
  for (int i = 0;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == number) HR_TRY(each(sm, &g, i++, *items));
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Signatures                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* A map<string, TensorInfo> entry. */
static hr_status read_tensor_info(hr_savedmodel *sm, const hr_pb_field *f, int i, void *ctx) {
  tf_tensor_info *t = &((tf_tensor_info *)ctx)[i];
  hr_pb entry = hr_pb_sub(&sm->file, f);
  hr_pb_field g, h;
  bool more;
  t->key = t->name = "";
  t->shape.rank = -1;
  for (;;) {
    HR_TRY(hr_pb_next(&entry, &g, &more));
    if (!more) break;
    if (g.number == 1) HR_TRY(tf_string(&sm->arena, &sm->file, &g, &t->key));
    if (g.number != 2) continue;
    HR_TRY(hr_pb_want(&sm->file, &g, HR_PB_LEN, "a TensorInfo"));
    hr_pb info = hr_pb_sub(&sm->file, &g);
    for (bool m2;;) {
      HR_TRY(hr_pb_next(&info, &h, &m2));
      if (!m2) break;
      if (h.number == TI_NAME) HR_TRY(tf_string(&sm->arena, &sm->file, &h, &t->name));
      if (h.number == TI_DTYPE) t->dtype = (int)(h.u & 0xffff);
      if (h.number == TI_SHAPE) HR_TRY(tf_shape_read(&sm->file, &h, &t->shape));
    }
  }
  if (!*t->name) return hr_pb_error(&sm->file, f->offset, "signature tensor '%s' is not a dense tensor", t->key);
  return NULL;
}

static int by_key(const void *a, const void *b) {
  return strcmp(((const tf_tensor_info *)a)->key, ((const tf_tensor_info *)b)->key);
}

/* A map<string, SignatureDef> entry. */
static hr_status read_signature(hr_savedmodel *sm, const hr_pb_field *f, int i, void *ctx) {
  tf_signature *s = &((tf_signature *)ctx)[i];
  hr_pb entry = hr_pb_sub(&sm->file, f);
  hr_pb_field g;
  bool more;
  s->key = s->method = "";
  for (;;) {
    HR_TRY(hr_pb_next(&entry, &g, &more));
    if (!more) break;
    if (g.number == 1) HR_TRY(tf_string(&sm->arena, &sm->file, &g, &s->key));
    if (g.number != 2) continue;
    HR_TRY(hr_pb_want(&sm->file, &g, HR_PB_LEN, "a SignatureDef"));
    HR_TRY(read_repeated(sm, &g, SIG_INPUTS, sizeof *s->inputs, read_tensor_info, (void **)&s->inputs, &s->n_inputs));
    HR_TRY(read_repeated(sm, &g, SIG_OUTPUTS, sizeof *s->outputs, read_tensor_info, (void **)&s->outputs, &s->n_outputs));
    HR_TRY(tf_message_string(&sm->arena, &sm->file, &g, SIG_METHOD, &s->method));
  }
  qsort(s->inputs, (size_t)s->n_inputs, sizeof *s->inputs, by_key);
  qsort(s->outputs, (size_t)s->n_outputs, sizeof *s->outputs, by_key);
  return NULL;
}

const tf_signature *hr_savedmodel_signature(const hr_savedmodel *sm, const char *key) {
  for (int i = 0; i < sm->n_signatures; i++)
    if (strcmp(sm->signatures[i].key, key) == 0) return &sm->signatures[i];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The object graph's functions                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* One SavedObject's SavedFunction concrete function names (none when it is no function). */
static hr_status object_function(hr_savedmodel *sm, const hr_pb_field *object, tf_object_function *out) {
  hr_pb sub = hr_pb_sub(&sm->file, object);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != OBJ_FUNCTION) continue;
    HR_TRY(hr_pb_want(&sm->file, &g, HR_PB_LEN, "a SavedFunction"));
    int n;
    HR_TRY(hr_pb_count(&sm->file, &g, FN_CONCRETE, HR_LIMIT_TF_LIST, &n));
    if (!(out->concrete = HR_ARENA_ARRAY(&sm->arena, const char *, n > 0 ? (size_t)n : 1))) return oom();
    hr_pb fn = hr_pb_sub(&sm->file, &g);
    hr_pb_field h;
    for (bool m2;;) {
      HR_TRY(hr_pb_next(&fn, &h, &m2));
      if (!m2) break;
      if (h.number == FN_CONCRETE) HR_TRY(tf_string(&sm->arena, &sm->file, &h, &out->concrete[out->n_concrete++]));
    }
  }
}

/* The functions among the root object's children (SavedObjectGraph node 0). */
static hr_status read_object_graph(hr_savedmodel *sm, const hr_pb_field *og) {
  int n_nodes;
  HR_TRY(hr_pb_count(&sm->file, og, OG_NODES, HR_LIMIT_TF_NODES, &n_nodes));
  hr_pb_field *nodes = HR_ARENA_ARRAY(&sm->arena, hr_pb_field, n_nodes > 0 ? (size_t)n_nodes : 1);
  if (!nodes) return oom();
  hr_pb sub = hr_pb_sub(&sm->file, og);
  hr_pb_field g;
  bool more;
  for (int i = 0;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == OG_NODES) nodes[i++] = g;
  }
  if (n_nodes == 0) return NULL;
  HR_TRY(hr_pb_want(&sm->file, &nodes[0], HR_PB_LEN, "the root object"));
  int n_children;
  HR_TRY(hr_pb_count(&sm->file, &nodes[0], OBJ_CHILDREN, HR_LIMIT_TF_LIST, &n_children));
  if (!(sm->object_functions = HR_ARENA_ARRAY(&sm->arena, tf_object_function, n_children > 0 ? (size_t)n_children : 1)))
    return oom();
  hr_pb root = hr_pb_sub(&sm->file, &nodes[0]);
  for (;;) {
    HR_TRY(hr_pb_next(&root, &g, &more));
    if (!more) return NULL;
    if (g.number != OBJ_CHILDREN) continue;
    HR_TRY(hr_pb_want(&sm->file, &g, HR_PB_LEN, "a child reference"));
    uint64_t id = UINT64_MAX;
    const char *name = "";
    hr_pb ref = hr_pb_sub(&sm->file, &g);
    hr_pb_field h;
    for (bool m2;;) {
      HR_TRY(hr_pb_next(&ref, &h, &m2));
      if (!m2) break;
      if (h.number == REF_NODE) id = h.u;
      if (h.number == REF_NAME) HR_TRY(tf_string(&sm->arena, &sm->file, &h, &name));
    }
    if (id >= (uint64_t)n_nodes) return hr_pb_error(&sm->file, g.offset, "a child of the root names no object");
    tf_object_function *fn = &sm->object_functions[sm->n_object_functions];
    fn->name = name;
    HR_TRY(hr_pb_want(&sm->file, &nodes[id], HR_PB_LEN, "an object"));
    HR_TRY(object_function(sm, &nodes[id], fn));
    if (fn->n_concrete) sm->n_object_functions++;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* XlaCallModule nodes                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the attributes of XlaCallModule node `node` (in `function`, NULL: the graph). */
static hr_status read_xla_call(hr_savedmodel *sm, const tf_node *node, const char *function, tf_xla_call *x) {
  const hr_pb *c = &sm->file;
  memset(x, 0, sizeof *x);
  x->node = node;
  x->function = function;
  const tf_attr *a = tf_node_attr(node, "module");
  if (!a) return hr_pb_error(c, node->offset, "XlaCallModule '%s' has no module", node->name);
  HR_TRY(tf_attr_bytes(c, a, &x->module, &x->module_len));
  if ((a = tf_node_attr(node, "version"))) HR_TRY(tf_attr_int(c, a, &x->version));
  if ((a = tf_node_attr(node, "has_token_input_output"))) HR_TRY(tf_attr_bool(c, a, &x->has_token_input_output));
  const char *funcs[64];
  if ((a = tf_node_attr(node, "function_list"))) HR_TRY(tf_attr_list_funcs(&sm->arena, c, a, funcs, 64, &x->n_function_list));
  static const char *const lists[2] = {"platforms", "disabled_checks"};
  const char ***dst[2] = {&x->platforms, &x->disabled_checks};
  int *count[2] = {&x->n_platforms, &x->n_disabled_checks};
  for (int k = 0; k < 2; k++) {
    if (!(*dst[k] = HR_ARENA_ARRAY(&sm->arena, const char *, 64))) return oom();
    if ((a = tf_node_attr(node, lists[k]))) HR_TRY(tf_attr_list_strings(&sm->arena, c, a, *dst[k], 64, count[k]));
  }
  if (!(x->out_dtypes = HR_ARENA_ARRAY(&sm->arena, int, HR_LIMIT_TF_LIST))) return oom();
  if ((a = tf_node_attr(node, "Tout"))) HR_TRY(tf_attr_list_types(c, a, x->out_dtypes, HR_LIMIT_TF_LIST, &x->n_outputs));
  return NULL;
}

/* Finds every XlaCallModule of the graph and its functions. */
static hr_status find_xla_calls(hr_savedmodel *sm) {
  int n = 0;
  for (int i = 0; i < sm->graph.n_nodes; i++) n += strcmp(sm->graph.nodes[i].op, "XlaCallModule") == 0;
  for (int f = 0; f < sm->graph.n_functions; f++)
    for (int i = 0; i < sm->graph.functions[f].n_nodes; i++) n += strcmp(sm->graph.functions[f].nodes[i].op, "XlaCallModule") == 0;
  if (!(sm->xla_calls = HR_ARENA_ARRAY(&sm->arena, tf_xla_call, n > 0 ? (size_t)n : 1))) return oom();
  for (int i = 0; i < sm->graph.n_nodes; i++)
    if (strcmp(sm->graph.nodes[i].op, "XlaCallModule") == 0)
      HR_TRY(read_xla_call(sm, &sm->graph.nodes[i], NULL, &sm->xla_calls[sm->n_xla_calls++]));
  for (int f = 0; f < sm->graph.n_functions; f++) {
    const tf_function *fn = &sm->graph.functions[f];
    for (int i = 0; i < fn->n_nodes; i++)
      if (strcmp(fn->nodes[i].op, "XlaCallModule") == 0)
        HR_TRY(read_xla_call(sm, &fn->nodes[i], fn->name, &sm->xla_calls[sm->n_xla_calls++]));
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Opening                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the MetaGraphDef `f`. */
static hr_status read_meta_graph(hr_savedmodel *sm, const hr_pb_field *f) {
  hr_pb sub = hr_pb_sub(&sm->file, f);
  hr_pb_field g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    switch (g.number) {
      case MG_GRAPH: HR_TRY(tf_graph_read(&sm->arena, &sm->file, &g, &sm->graph)); break;
      case MG_OBJECT_GRAPH: HR_TRY(hr_pb_want(&sm->file, &g, HR_PB_LEN, "an object graph")); HR_TRY(read_object_graph(sm, &g)); break;
      case MG_SAVER: HR_TRY(tf_message_string(&sm->arena, &sm->file, &g, SAVER_RESTORE_OP, &sm->restore_op)); break;
      default: break;
    }
  }
  return read_repeated(sm, f, MG_SIGNATURES, sizeof *sm->signatures, read_signature, (void **)&sm->signatures,
                       &sm->n_signatures);
}

/* Whether MetaGraphDef `f` is tagged "serve"; its tags are kept when it is. */
static hr_status is_serving(hr_savedmodel *sm, const hr_pb_field *f, bool *out) {
  hr_pb sub = hr_pb_sub(&sm->file, f);
  hr_pb_field g, h;
  bool more;
  *out = false;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number != MG_META_INFO) continue;
    HR_TRY(hr_pb_want(&sm->file, &g, HR_PB_LEN, "a MetaInfoDef"));
    HR_TRY(hr_pb_count(&sm->file, &g, INFO_TAGS, HR_LIMIT_TF_LIST, &sm->n_tags));
    if (!(sm->tags = HR_ARENA_ARRAY(&sm->arena, const char *, sm->n_tags > 0 ? (size_t)sm->n_tags : 1))) return oom();
    hr_pb info = hr_pb_sub(&sm->file, &g);
    for (int i = 0;;) {
      bool m2;
      HR_TRY(hr_pb_next(&info, &h, &m2));
      if (!m2) break;
      if (h.number != INFO_TAGS) continue;
      HR_TRY(tf_string(&sm->arena, &sm->file, &h, &sm->tags[i]));
      if (strcmp(sm->tags[i++], "serve") == 0) *out = true;
    }
  }
}

/* Reads a SavedModel message: its MetaGraphDef tagged "serve". */
static hr_status read_saved_model(hr_savedmodel *sm) {
  hr_pb c = sm->file;
  hr_pb_field g;
  bool more, found = false;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &g, &more));
    if (!more) break;
    if (g.number != SM_META_GRAPHS || found) continue;
    HR_TRY(hr_pb_want(&sm->file, &g, HR_PB_LEN, "a MetaGraphDef"));
    HR_TRY(is_serving(sm, &g, &found));
    if (found) HR_TRY(read_meta_graph(sm, &g));
  }
  if (!found) return hr_error(HR_NOT_FOUND, "%s: no MetaGraphDef is tagged \"serve\"", sm->path);
  return NULL;
}

bool hr_savedmodel_sniff(const void *data, size_t len) {
  const uint8_t *p = data;
  if (len < 2) return false;
  if (p[0] == 0x08 || p[0] == 0x12) return true; /* SavedModel: schema version (1, varint) or graphs (2) */
  if (p[0] != 0x0a) return false;                 /* GraphDef: a node (1, message) ... */
  size_t i = 1;
  while (i < len && i < 11 && (p[i] & 0x80)) i++; /* ... past its length ... */
  return i + 1 < len && p[i + 1] == 0x0a;         /* ... whose name (1, string) comes first */
}

bool hr_savedmodel_sniff_dir(const char *path) {
  char pb[4096];
  struct stat st;
  int n = snprintf(pb, sizeof pb, "%s/saved_model.pb", path);
  return n > 0 && (size_t)n < sizeof pb && stat(pb, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads the SavedModel or GraphDef in sm->file. */
static hr_status read_file(hr_savedmodel *sm) {
  /* A SavedModel starts with its schema version (field 1, a varint) or its graphs (2); a GraphDef
   * with its nodes (field 1, a message). */
  hr_pb peek = sm->file;
  hr_pb_field first;
  bool more;
  HR_TRY(hr_pb_next(&peek, &first, &more));
  if (more && first.number == 1 && first.wire == HR_PB_LEN) {
    hr_pb_field whole = {.wire = HR_PB_LEN, .data = sm->file.p, .len = (size_t)(sm->file.end - sm->file.p)};
    HR_TRY(tf_graph_read(&sm->arena, &sm->file, &whole, &sm->graph));
  } else {
    HR_TRY(read_saved_model(sm));
  }
  return find_xla_calls(sm);
}

/* A new, empty hr_savedmodel named `path`. */
static hr_status new_savedmodel(const char *path, size_t len, const hr_allocator *a, hr_savedmodel **out) {
  if (!a) a = hr_default_allocator();
  hr_savedmodel *sm = a->alloc(a->ctx, sizeof *sm, _Alignof(hr_savedmodel));
  if (!sm) return oom();
  memset(sm, 0, sizeof *sm);
  hr_arena_init(&sm->arena, a);
  if (!(sm->path = hr_arena_strndup(&sm->arena, path, len))) {
    hr_savedmodel_close(sm);
    return oom();
  }
  *out = sm;
  return NULL;
}

hr_status hr_savedmodel_read_bytes(const char *name, const void *data, size_t len, const hr_allocator *a,
                                   hr_savedmodel **out) {
  *out = NULL;
  hr_savedmodel *sm = NULL;
  HR_TRY(new_savedmodel(name, strlen(name), a, &sm));
  sm->file = hr_pb_open(sm->path, data, len);
  hr_status s = read_file(sm);
  if (s) {
    hr_savedmodel_close(sm);
    return s;
  }
  *out = sm;
  return NULL;
}

hr_status hr_savedmodel_open(const char *path, const hr_allocator *a, hr_savedmodel **out) {
  *out = NULL;
  char file[4096];
  int n = snprintf(file, sizeof file, hr_savedmodel_sniff_dir(path) ? "%s/saved_model.pb" : "%s", path);
  if (n < 0 || (size_t)n >= sizeof file) return hr_error(HR_INVALID_ARGUMENT, "%.200s: path too long", path);
  hr_savedmodel *sm = NULL;
  HR_TRY(new_savedmodel(file, (size_t)n, a, &sm));
  hr_status s = hr_map_file(file, HR_LIMIT_MODULE_FILE_BYTES, &sm->map, &sm->map_len);
  if (!s) {
    sm->file = hr_pb_open(sm->path, sm->map, sm->map_len);
    s = read_file(sm);
  }
  if (s) {
    hr_savedmodel_close(sm);
    return s;
  }
  *out = sm;
  return NULL;
}

void hr_savedmodel_close(hr_savedmodel *sm) {
  if (!sm) return;
  const hr_allocator *a = sm->arena.allocator;
  if (sm->map) hr_unmap_file(sm->map, sm->map_len);
  hr_arena_release(&sm->arena);
  a->free(a->ctx, sm);
}

/* ---------------------------------------------------------------------------------------------- */
/* Inspection                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* "DT_FLOAT [-1,3]" */
static void describe_tensor(const tf_tensor_info *t, hr_strbuf *out) {
  const char *type = hr_tf_dtype_name(t->dtype);
  hr_strbuf_printf(out, "    %s: %s ", t->key, type ? type : "DT_?");
  if (t->shape.rank < 0) {
    hr_strbuf_puts(out, "unknown rank");
  } else {
    hr_strbuf_putc(out, '[');
    for (int d = 0; d < t->shape.rank; d++) hr_strbuf_printf(out, "%s%lld", d ? "," : "", (long long)t->shape.dims[d]);
    hr_strbuf_putc(out, ']');
  }
  hr_strbuf_printf(out, " (%s)\n", t->name);
}

void hr_savedmodel_describe(const hr_savedmodel *sm, hr_strbuf *out) {
  hr_strbuf_printf(out, "TensorFlow %s: %s\n", sm->n_tags ? "SavedModel" : "GraphDef", sm->path);
  if (sm->n_tags) {
    hr_strbuf_puts(out, "tags:");
    for (int i = 0; i < sm->n_tags; i++) hr_strbuf_printf(out, " %s", sm->tags[i]);
    hr_strbuf_putc(out, '\n');
  }
  for (int i = 0; i < sm->n_signatures; i++) {
    const tf_signature *s = &sm->signatures[i];
    if (strcmp(s->key, "__saved_model_init_op") == 0) continue; /* TF's initialization, no signature to call */
    hr_strbuf_printf(out, "signature '%s'%s%s\n  inputs:\n", s->key, *s->method ? ": " : "", s->method);
    for (int k = 0; k < s->n_inputs; k++) describe_tensor(&s->inputs[k], out);
    hr_strbuf_puts(out, "  outputs:\n");
    for (int k = 0; k < s->n_outputs; k++) describe_tensor(&s->outputs[k], out);
  }
  for (int i = 0; i < sm->n_object_functions; i++) {
    const tf_object_function *f = &sm->object_functions[i];
    hr_strbuf_printf(out, "function '%s': %d concrete function%s (", f->name, f->n_concrete, f->n_concrete == 1 ? "" : "s");
    for (int k = 0; k < f->n_concrete; k++) hr_strbuf_printf(out, "%s%s", k ? ", " : "", f->concrete[k]);
    hr_strbuf_puts(out, ")\n");
  }
  for (int i = 0; i < sm->n_xla_calls; i++) {
    const tf_xla_call *x = &sm->xla_calls[i];
    hr_strbuf_printf(out, "XlaCallModule '%s'%s%s: version %lld, module of %zu bytes (%s), platforms", x->node->name,
                     x->function ? " in " : "", x->function ? x->function : "", (long long)x->version, x->module_len,
                     hr_bc_sniff(x->module, x->module_len) ? "portable artifact" : "text");
    for (int k = 0; k < x->n_platforms; k++) hr_strbuf_printf(out, " %s", x->platforms[k]);
    if (!x->n_platforms) hr_strbuf_puts(out, " (any)");
    hr_strbuf_printf(out, ", %d outputs", x->n_outputs);
    if (x->n_function_list) hr_strbuf_printf(out, ", calls %d TF function%s back", x->n_function_list, x->n_function_list == 1 ? "" : "s");
    hr_strbuf_putc(out, '\n');
  }
}

hr_status hr_savedmodel_object_function(const hr_savedmodel *sm, const char *name, const tf_function **out) {
  *out = NULL;
  for (int i = 0; i < sm->n_object_functions; i++) {
    const tf_object_function *f = &sm->object_functions[i];
    bool named = strcmp(f->name, name) == 0;
    for (int k = 0; k < f->n_concrete && !named; k++) named = strcmp(f->concrete[k], name) == 0;
    if (!named) continue;
    if (f->n_concrete != 1 && strcmp(f->name, name) == 0)
      return hr_error(HR_INVALID_ARGUMENT, "%s: function '%s' has %d concrete functions: name one (hlorun inspect lists them)",
                      sm->path, name, f->n_concrete);
    const char *concrete = f->n_concrete == 1 ? f->concrete[0] : name;
    if (!(*out = tf_find_function(&sm->graph, concrete)))
      return hr_error(HR_INVALID_ARGUMENT, "%s: function '%s' runs %s, which the library lacks", sm->path, name, concrete);
    return NULL;
  }
  return hr_error(HR_NOT_FOUND, "%s: no signature '%s', nor an object-graph function of that name (hlorun inspect lists them)", sm->path,
                  name);
}

/* The checkpoint's object graph (bundle.h: hr_bundle_object_*): the TrackableObjectGraph TF2
 * stores under "_CHECKPOINTABLE_OBJECT_GRAPH", from tensorflow/core/protobuf/
 * trackable_object_graph.proto: 1 nodes, each a TrackableObject of 1 children (ObjectReference:
 * 1 node_id, 2 local_name), 2 attributes (SerializedTensor: 1 name, 2 full_name, 3
 * checkpoint_key, 4 optional_restore), 3 slot_variables, 4 registered_saver, 5
 * has_checkpoint_values; only children and attributes are kept. */
#include <string.h>

#include "base/limits.h"
#include "formats/savedmodel/bundle_internal.h"
#include "formats/savedmodel/graph.h"

enum {
  GRAPH_NODES = 1,
  OBJECT_CHILDREN = 1,
  OBJECT_ATTRIBUTES = 2,
  REF_NODE_ID = 1,
  REF_LOCAL_NAME = 2,
  TENSOR_NAME = 1,
  TENSOR_CHECKPOINT_KEY = 3,
};

static hr_status oom(const hr_bundle *b) { return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", b->name); }

/* Reads ObjectReference `f` into `out`; its node must be one of the graph's `n_nodes`. */
static hr_status read_child(hr_bundle *b, const hr_pb *c, const hr_pb_field *f, int n_nodes, bd_child *out) {
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  int64_t node = 0;
  out->name = "";
  for (bool more;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) break;
    if (g.number == REF_NODE_ID) {
      HR_TRY(hr_pb_want(c, &g, HR_PB_VARINT, "node_id"));
      node = (int32_t)g.u;
    } else if (g.number == REF_LOCAL_NAME) {
      HR_TRY(tf_string(&b->arena, c, &g, &out->name));
    }
  }
  if (node < 0 || node >= n_nodes)
    return hr_pb_error(c, f->offset, "child \"%s\" is node %lld; the graph has %d", out->name, (long long)node, n_nodes);
  out->node = (int)node;
  return NULL;
}

/* Reads SerializedTensor `f` into `out`. */
static hr_status read_attr(hr_bundle *b, const hr_pb *c, const hr_pb_field *f, bd_attr *out) {
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  out->name = out->key = "";
  for (bool more;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == TENSOR_NAME) HR_TRY(tf_string(&b->arena, c, &g, &out->name));
    else if (g.number == TENSOR_CHECKPOINT_KEY) HR_TRY(tf_string(&b->arena, c, &g, &out->key));
  }
}

/* Reads TrackableObject `f` into `out`. */
static hr_status read_object(hr_bundle *b, const hr_pb *c, const hr_pb_field *f, int n_nodes, bd_object *out) {
  hr_pb sub = hr_pb_sub(c, f);
  HR_TRY(hr_pb_count_in(&sub, OBJECT_CHILDREN, HR_LIMIT_TF_LIST, &out->n_children));
  HR_TRY(hr_pb_count_in(&sub, OBJECT_ATTRIBUTES, HR_LIMIT_TF_LIST, &out->n_attrs));
  out->children = HR_ARENA_ARRAY(&b->arena, bd_child, out->n_children ? out->n_children : 1);
  out->attrs = HR_ARENA_ARRAY(&b->arena, bd_attr, out->n_attrs ? out->n_attrs : 1);
  if (!out->children || !out->attrs) return oom(b);
  hr_pb_field g;
  int n_children = 0, n_attrs = 0;
  for (bool more;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == OBJECT_CHILDREN) HR_TRY(read_child(b, c, &g, n_nodes, &out->children[n_children++]));
    else if (g.number == OBJECT_ATTRIBUTES) HR_TRY(read_attr(b, c, &g, &out->attrs[n_attrs++]));
  }
}

hr_status bd_objects_read(hr_bundle *b, const hr_pb *c) {
  int n;
  HR_TRY(hr_pb_count_in(c, GRAPH_NODES, HR_LIMIT_BUNDLE_OBJECTS, &n));
  bd_object *objects = HR_ARENA_ARRAY(&b->arena, bd_object, n ? n : 1);
  if (!objects) return oom(b);
  hr_pb sub = *c;
  hr_pb_field f;
  for (int i = 0; i < n;) {
    bool more;
    HR_TRY(hr_pb_next(&sub, &f, &more));
    if (!more) return hr_pb_error(c, 0, "the object graph changed while read"); /* counted above: not reached */
    if (f.number == GRAPH_NODES) HR_TRY(read_object(b, c, &f, n, &objects[i++]));
  }
  b->objects = objects;
  b->n_objects = n;
  return NULL;
}

int hr_bundle_object_count(const hr_bundle *b) { return b->n_objects; }

int hr_bundle_object_child(const hr_bundle *b, int node, const char *local_name) {
  if (node < 0 || node >= b->n_objects) return -1;
  const bd_object *o = &b->objects[node];
  for (int i = 0; i < o->n_children; i++)
    if (strcmp(o->children[i].name, local_name) == 0) return o->children[i].node;
  return -1;
}

const char *hr_bundle_object_key(const hr_bundle *b, int node, const char *attr) {
  if (node < 0 || node >= b->n_objects) return NULL;
  const bd_object *o = &b->objects[node];
  for (int i = 0; i < o->n_attrs; i++)
    if (strcmp(o->attrs[i].name, attr) == 0) return o->attrs[i].key;
  return NULL;
}

/* Which checkpoint entry holds each variable (savedmodel.h: hr_savedmodel_variable_key), found the
 * way TF Serving's loader restores them: SaverDef.restore_op_name names a call node of the graph
 * whose inputs are the variables' VarHandleOps; in its function, RestoreV2 reads the entries named
 * by its tensor_names constant and AssignVariableOp stores output k into a variable argument. */
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/savedmodel/savedmodel.h"

enum { TENSOR_STRING_VAL = 8, ATTR_TENSOR = 8 }; /* TensorProto.string_val, AttrValue.tensor */

/* The node a tensor name of `fn` ("node:out:idx" or "node") refers to, and the output index. */
static const tf_node *ref_node(const tf_function *fn, const char *ref, int *index) {
  const char *colon = strchr(ref, ':');
  size_t len = colon ? (size_t)(colon - ref) : strlen(ref);
  const char *last = strrchr(ref, ':');
  *index = last ? atoi(last + 1) : 0;
  return tf_find_node(fn->nodes, fn->n_nodes, ref, len);
}

/* Follows Identity nodes of `fn` from tensor `ref` to the node producing it. */
static const tf_node *through_identities(const tf_function *fn, const char *ref, int *index) {
  const tf_node *node = ref_node(fn, ref, index);
  for (int hops = 0; node && strcmp(node->op, "Identity") == 0 && node->n_inputs > 0 && hops < HR_LIMIT_TF_LIST; hops++)
    node = ref_node(fn, node->inputs[0], index);
  return node;
}

/* String `k` of Const node `node`'s DT_STRING value (RestoreV2's tensor_names). */
static hr_status const_string(hr_savedmodel *sm, const tf_node *node, int k, const char **out) {
  const tf_attr *a = tf_node_attr(node, "value");
  if (!a || strcmp(node->op, "Const") != 0) return hr_pb_error(&sm->file, node->offset, "'%s' is no constant", node->name);
  hr_pb value = hr_pb_sub(&sm->file, &a->value);
  hr_pb_field f, g;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&value, &f, &more));
    if (!more) return hr_pb_error(&sm->file, node->offset, "constant '%s' holds no tensor", node->name);
    if (f.number == ATTR_TENSOR) break;
  }
  HR_TRY(hr_pb_want(&sm->file, &f, HR_PB_LEN, "a tensor"));
  hr_pb tensor = hr_pb_sub(&sm->file, &f);
  for (int i = 0;;) {
    HR_TRY(hr_pb_next(&tensor, &g, &more));
    if (!more) return hr_pb_error(&sm->file, node->offset, "constant '%s' holds no string %d", node->name, k);
    if (g.number == TENSOR_STRING_VAL && i++ == k) return tf_string(&sm->arena, &sm->file, &g, out);
  }
}

hr_status hr_savedmodel_variable_key(hr_savedmodel *sm, const tf_node *var, const char **key) {
  const tf_node *restore = sm->restore_op ? tf_find_node(sm->graph.nodes, sm->graph.n_nodes, sm->restore_op, strlen(sm->restore_op)) : NULL;
  if (!restore) return hr_error(HR_NOT_FOUND, "%s: variable '%s': the SavedModel has no restore operation", sm->path, var->name);
  const tf_attr *f = tf_node_attr(restore, "f");
  const char *name;
  if (!f) return hr_pb_error(&sm->file, restore->offset, "restore operation '%s' calls no function", restore->name);
  HR_TRY(tf_attr_func(&sm->arena, &sm->file, f, &name));
  const tf_function *fn = tf_find_function(&sm->graph, name);
  if (!fn) return hr_pb_error(&sm->file, restore->offset, "no function %s in the library", name);
  int arg = -1;
  size_t len = strlen(var->name);
  for (int i = 0, data = 0; i < restore->n_inputs && arg < 0; i++) {
    const char *in = restore->inputs[i];
    if (in[0] == '^') continue;
    if (strncmp(in, var->name, len) == 0 && (in[len] == 0 || strcmp(in + len, ":0") == 0)) arg = data;
    data++;
  }
  if (arg < 0 || arg >= fn->n_args) return hr_error(HR_NOT_FOUND, "%s: variable '%s' is not restored", sm->path, var->name);
  for (int i = 0; i < fn->n_nodes; i++) {
    const tf_node *assign = &fn->nodes[i];
    if (strcmp(assign->op, "AssignVariableOp") != 0 || assign->n_inputs < 2 || strcmp(assign->inputs[0], fn->args[arg]) != 0)
      continue;
    int k, unused;
    const tf_node *restore_v2 = through_identities(fn, assign->inputs[1], &k);
    if (!restore_v2 || strcmp(restore_v2->op, "RestoreV2") != 0 || restore_v2->n_inputs < 2)
      return hr_pb_error(&sm->file, assign->offset, "variable '%s' is assigned something other than a restored entry", var->name);
    const tf_node *names = through_identities(fn, restore_v2->inputs[1], &unused);
    if (!names) return hr_pb_error(&sm->file, restore_v2->offset, "RestoreV2 '%s' has no tensor names", restore_v2->name);
    return const_string(sm, names, k, key);
  }
  return hr_error(HR_NOT_FOUND, "%s: variable '%s' is not assigned in %s", sm->path, var->name, fn->name);
}

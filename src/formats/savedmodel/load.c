/* hr_savedmodel_read (hlorun.h): a SavedModel's signature as a module and the weights its variables
 * hold, for the CLI and the server; a name no signature has may name a function of the object
 * graph (deepmd's call_lower), lowered with the TF ops around its XlaCallModule nodes (lower.c). */
#include <string.h>

#include "base/weights.h"
#include "formats/savedmodel/bundle.h"
#include "formats/savedmodel/savedmodel.h"

/* The "variables/variables" prefix of the SavedModel whose saved_model.pb is `pb_path`. */
static hr_status bundle_prefix(const char *pb_path, char *out, size_t cap) {
  const char *slash = strrchr(pb_path, '/');
  size_t dir = slash ? (size_t)(slash - pb_path) : 0;
  int n = snprintf(out, cap, "%.*s%svariables/variables", (int)dir, pb_path, slash ? "/" : "");
  return n > 0 && (size_t)n < cap ? NULL : hr_error(HR_INVALID_ARGUMENT, "%.200s: path too long", pb_path);
}

/* Copies the bundle entry holding variable `key` into a new weight of `w`. */
static hr_status add_variable(hr_weights *w, const hr_bundle *b, const char *key, const hr_allocator *a) {
  const hr_bundle_entry *e = hr_bundle_find(b, key);
  if (!e) return hr_error(HR_NOT_FOUND, "variables: no entry '%s' in the checkpoint", key);
  if (e->dtype == HR_DTYPE_INVALID || !e->data)
    return hr_error(HR_UNIMPLEMENTED, "variables: entry '%s' is not a numeric tensor", key);
  if (hr_weights_find(w, key)) return NULL; /* a variable the call reads twice */
  hr_tensor *t;
  HR_TRY(hr_tensor_create(a, e->dtype, &e->shape, 0, &t));
  if (t->nbytes != e->nbytes) {
    hr_tensor_free(t);
    return hr_error(HR_INVALID_ARGUMENT, "variables: entry '%s' holds %zu bytes, its type %zu", key, e->nbytes, t->nbytes);
  }
  memcpy(t->data, e->data, e->nbytes); /* bundle data need not be aligned for its elements */
  return hr_weights_add_tensor(w, key, t);
}

/* The weights of the variables program `p` reads, from the SavedModel's variables/ checkpoint. */
static hr_status read_variables(const hr_savedmodel *sm, const tf_program *p, const hr_allocator *a, hr_weights **out) {
  *out = NULL;
  int n = 0;
  for (int i = 0; i < p->n_args; i++) n += p->arg_variable[i] != NULL;
  if (n == 0) return NULL;
  char prefix[4096];
  HR_TRY(bundle_prefix(sm->path, prefix, sizeof prefix));
  hr_bundle *b;
  HR_TRY(hr_bundle_open(prefix, a, &b));
  hr_status s = hr_weights_create(a, n, NULL, 0, NULL, out);
  for (int i = 0; !s && i < p->n_args; i++)
    if (p->arg_variable[i]) s = add_variable(*out, b, p->arg_variable[i], a);
  hr_bundle_close(b);
  if (s) {
    hr_weights_free(*out);
    *out = NULL;
  }
  return s;
}

/* The module of object-graph function `name` (no SignatureDef has that name). */
static hr_status read_function(hr_savedmodel *sm, const char *name, hr_module **module) {
  const tf_function *fn;
  HR_TRY(hr_savedmodel_object_function(sm, name, &fn));
  return hr_savedmodel_lower(sm, fn, NULL, module);
}

hr_status hr_savedmodel_read(const char *path, const char *signature, const hr_allocator *a, hr_module **module,
                             hr_weights **weights) {
  if (!path || !module || !weights) return hr_error(HR_INVALID_ARGUMENT, "hr_savedmodel_read: NULL argument");
  *module = NULL;
  *weights = NULL;
  if (!signature) signature = "serving_default";
  hr_savedmodel *sm;
  HR_TRY(hr_savedmodel_open(path, a, &sm));
  const tf_signature *sig = hr_savedmodel_signature(sm, signature);
  hr_status s = NULL;
  tf_program p;
  if (!sig) {
    s = read_function(sm, signature, module);
  } else {
    s = hr_savedmodel_resolve(sm, sig, &p);
    if (!s) s = hr_savedmodel_module(sm, sig, &p, NULL, module);
    if (!s) s = read_variables(sm, &p, a, weights);
  }
  if (s) {
    hr_module_free(*module);
    *module = NULL;
  }
  hr_savedmodel_close(sm);
  return s;
}

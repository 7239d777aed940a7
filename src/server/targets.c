/* The signatures a model version serves (targets.h). */
#include "server/targets.h"

#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/savedmodel/savedmodel.h"
#include "formats/savedmodel/tf_types.h"

/* Copies a C string with malloc; NULL when out of memory. */
static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* Frees one target's program, signature and feeds. */
static void free_target(srv_target *t) {
  hr_program_free(t->program);
  srv_signature_free(&t->signature);
  free(t->feeds);
  memset(t, 0, sizeof *t);
}

void srv_targets_free(srv_target *targets, int n) {
  for (int i = 0; targets && i < n; i++) free_target(&targets[i]);
  free(targets);
}

hr_status srv_targets_from_program(hr_program *program, srv_target **out, int *n_out) {
  *out = NULL;
  *n_out = 0;
  srv_target *t = calloc(1, sizeof *t);
  if (!t) {
    hr_program_free(program);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  t->program = program;
  t->n_feeds = hr_program_num_inputs(program);
  hr_status s = srv_signature_from_program(program, &t->signature);
  if (s) {
    srv_targets_free(t, 1);
    return s;
  }
  t->batchable = srv_signature_batchable(&t->signature);
  *out = t;
  *n_out = 1;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* SavedModel signatures                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* The index of the tensor called `name` in a list, or -1. */
static int find_tensor(const srv_tensor_info *list, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(list[i].name, name) == 0) return i;
  return -1;
}

/* The spec a SignatureDef declares for an input its program does not read (requests still give
 * it): its TF dtype and shape, which hlorun must be able to hold. */
static hr_status declared_spec(const tf_signature *sig, const tf_tensor_info *tf, hr_tensor_spec *out) {
  if (!hr_tf_dtype_to_hr(tf->dtype, &out->dtype) || tf->shape.rank < 0)
    return hr_error(HR_UNIMPLEMENTED,
                    "signature '%s': input '%s' is not read by its XlaCallModule and has no dense type and rank "
                    "hlorun can parse",
                    sig->key, tf->key);
  out->shape.rank = tf->shape.rank;
  for (int d = 0; d < tf->shape.rank; d++) out->shape.dims[d] = tf->shape.dims[d] < 0 ? HR_DYNAMIC : tf->shape.dims[d];
  return NULL;
}

/* Fills a list of tensors from a SignatureDef's TensorInfos: keys as names, TensorInfos as
 * declared (specs are left to the caller). */
static hr_status declare_tensors(const tf_tensor_info *tf, int n, srv_tensor_info **out) {
  *out = calloc((size_t)n + 1, sizeof **out);
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a signature");
  for (int i = 0; i < n; i++) {
    srv_tensor_info *t = &(*out)[i];
    t->name = copy_string(tf[i].key);
    t->declared.tensor = copy_string(tf[i].name);
    t->declared.dtype = tf[i].dtype;
    t->declared.shape = tf[i].shape;
    if (!t->name || !t->declared.tensor) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a signature");
  }
  return NULL;
}

/* Fills a signature as a SignatureDef declares it (names, method, TensorInfos; no specs). */
static hr_status declare_signature(const tf_signature *tf, srv_signature *out) {
  memset(out, 0, sizeof *out);
  out->name = copy_string(tf->key);
  out->method = copy_string(tf->method);
  out->n_inputs = tf->n_inputs;
  out->n_outputs = tf->n_outputs;
  if (!out->name || !out->method) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a signature");
  HR_TRY(declare_tensors(tf->inputs, tf->n_inputs, &out->inputs));
  return declare_tensors(tf->outputs, tf->n_outputs, &out->outputs);
}

/* Gives the declared signature the specs of its program (`prog`, the program's own signature):
 * each input the program reads its spec, the others their declared spec; every output must be one
 * of the program's. Fills the feeds, program input -> signature input. */
static hr_status bind_program(const tf_signature *tf, const srv_signature *prog, srv_target *t) {
  srv_signature *sig = &t->signature;
  for (int i = 0; i < sig->n_inputs; i++) {
    int j = find_tensor(prog->inputs, prog->n_inputs, sig->inputs[i].name);
    if (j >= 0)
      sig->inputs[i].spec = prog->inputs[j].spec;
    else
      HR_TRY(declared_spec(tf, &tf->inputs[i], &sig->inputs[i].spec));
  }
  t->n_feeds = prog->n_inputs;
  t->feeds = calloc((size_t)prog->n_inputs + 1, sizeof *t->feeds);
  if (!t->feeds) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a signature");
  for (int j = 0; j < prog->n_inputs; j++) {
    t->feeds[j] = find_tensor(sig->inputs, sig->n_inputs, prog->inputs[j].name);
    if (t->feeds[j] < 0)
      return hr_error(HR_INVALID_ARGUMENT, "signature '%s': its program takes '%s', which is none of its inputs",
                      tf->key, prog->inputs[j].name);
  }
  if (prog->n_outputs != sig->n_outputs)
    return hr_error(HR_INVALID_ARGUMENT, "signature '%s' has %d outputs, its program %d", tf->key, sig->n_outputs,
                    prog->n_outputs);
  for (int i = 0; i < sig->n_outputs; i++) {
    if (strcmp(prog->outputs[i].name, sig->outputs[i].name) != 0)
      return hr_error(HR_INVALID_ARGUMENT, "signature '%s': output %d is '%s', its program's '%s'", tf->key, i,
                      sig->outputs[i].name, prog->outputs[i].name);
    sig->outputs[i].spec = prog->outputs[i].spec;
  }
  return NULL;
}

/* Builds the target of a predict signature: its program (module and variables read from `dir`),
 * and its signature bound to the program. */
static hr_status build_predict(const char *dir, const tf_signature *tf, const hr_exec_options *exec, srv_target *t) {
  hr_module *mod;
  hr_weights *w;
  HR_TRY(hr_savedmodel_read(dir, tf->key, NULL, &mod, &w));
  HR_TRY(hr_program_create(mod, "main", w, exec, &t->program));
  srv_signature prog;
  HR_TRY(srv_signature_from_program(t->program, &prog));
  hr_status s = bind_program(tf, &prog, t);
  srv_signature_free(&prog);
  if (!s) t->batchable = srv_signature_batchable(&t->signature);
  return s;
}

/* Whether a signature is one hlorun runs (method_name tensorflow/serving/predict). */
static bool is_predict(const tf_signature *tf) { return strcmp(tf->method, SRV_PREDICT_METHOD) == 0; }

/* Orders signatures by key. */
static int by_key(const void *a, const void *b) {
  return strcmp((*(const tf_signature *const *)a)->key, (*(const tf_signature *const *)b)->key);
}

/* Checks that the SavedModel has a predict signature to serve, and not more than the bound. */
static hr_status count_predict(const hr_savedmodel *sm) {
  int n = 0;
  for (int i = 0; i < sm->n_signatures; i++) n += is_predict(&sm->signatures[i]);
  if (n == 0)
    return hr_error(HR_INVALID_ARGUMENT, "%s: no signature has method_name %s, so there is nothing to serve", sm->path,
                    SRV_PREDICT_METHOD);
  if (n > HR_LIMIT_SERVED_SIGNATURES)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s has %d predict signatures; at most %d are served", sm->path, n,
                    HR_LIMIT_SERVED_SIGNATURES);
  return NULL;
}

/* Builds the targets of an opened SavedModel, sorted by signature name, into `targets` (room for
 * every signature). */
static hr_status build_targets(const hr_savedmodel *sm, const char *dir, const hr_exec_options *exec,
                               srv_target *targets) {
  const tf_signature **order = calloc((size_t)sm->n_signatures + 1, sizeof *order);
  if (!order) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < sm->n_signatures; i++) order[i] = &sm->signatures[i];
  qsort(order, (size_t)sm->n_signatures, sizeof *order, by_key);
  hr_status s = NULL;
  for (int i = 0; !s && i < sm->n_signatures; i++) {
    if (i > 0 && strcmp(order[i - 1]->key, order[i]->key) == 0)
      s = hr_error(HR_INVALID_ARGUMENT, "%s: two signatures are named '%s'", sm->path, order[i]->key);
    if (!s) s = declare_signature(order[i], &targets[i].signature);
    if (!s && is_predict(order[i]))
      s = hr_status_wrap(build_predict(dir, order[i], exec, &targets[i]), "signature '%s'", order[i]->key);
  }
  free(order);
  return s;
}

hr_status srv_targets_from_savedmodel(const char *dir, const hr_exec_options *exec, srv_target **out, int *n_out) {
  *out = NULL;
  *n_out = 0;
  hr_savedmodel *sm;
  HR_TRY(hr_savedmodel_open(dir, NULL, &sm));
  hr_status s = count_predict(sm);
  srv_target *targets = s ? NULL : calloc((size_t)sm->n_signatures, sizeof *targets);
  if (!s && !targets) s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!s) s = build_targets(sm, dir, exec, targets);
  int n = sm->n_signatures;
  hr_savedmodel_close(sm);
  if (s) {
    srv_targets_free(targets, n);
    return s;
  }
  *out = targets;
  *n_out = n;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Requests                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

const srv_target *srv_targets_find(const srv_target *targets, int n, const char *name) {
  if (!name[0]) name = SRV_SIGNATURE_NAME;
  for (int i = 0; i < n; i++)
    if (strcmp(srv_signature_name(&targets[i].signature), name) == 0) return &targets[i];
  return NULL;
}

void srv_target_feed(const srv_target *t, hr_tensor *const *inputs, hr_tensor **program_inputs) {
  for (int j = 0; j < t->n_feeds; j++) program_inputs[j] = inputs[t->feeds ? t->feeds[j] : j];
}

/* The model service (service.h): predict, metadata and status for every protocol adapter. */
#include "server/service.h"

#include <stdlib.h>
#include <string.h>

hr_status srv_service_acquire(srv_service *svc, const char *model, const srv_selector *sel, srv_servable **out) {
  return srv_registry_acquire(svc->registry, model, sel, out);
}

void srv_service_release(srv_service *svc, srv_servable *sv) { srv_registry_release(svc->registry, sv); }

hr_status srv_service_target(const srv_servable *sv, const char *name, const srv_target **out) {
  *out = srv_targets_find(sv->targets, sv->n_targets, name);
  if (*out) return NULL;
  return hr_error(HR_INVALID_ARGUMENT, "Serving signature name: \"%s\" not found in signature def",
                  name[0] ? name : SRV_SIGNATURE_NAME);
}

hr_status srv_service_check_runnable(const srv_target *t) {
  const srv_signature *sig = &t->signature;
  if (t->program) return NULL;
  if (sig->n_inputs == 0)
    return hr_error(HR_INVALID_ARGUMENT, "Failed to get input map for signature: %s", srv_signature_name(sig));
  return hr_error(HR_UNIMPLEMENTED, "signature '%s' has method_name '%s': hlorun runs only %s signatures",
                  srv_signature_name(sig), srv_signature_method(sig), SRV_PREDICT_METHOD);
}

hr_status srv_service_check_inference(const srv_servable *sv, bool classify, const char *name) {
  const char *key = name[0] ? name : SRV_SIGNATURE_NAME;
  const srv_target *t = srv_targets_find(sv->targets, sv->n_targets, key);
  const char *want = classify ? "tensorflow/serving/classify" : "tensorflow/serving/regress";
  if (!t) return hr_error(HR_INVALID_ARGUMENT, "No signature was found with the name: %s", key);
  if (strcmp(srv_signature_method(&t->signature), want) != 0)
    return hr_error(HR_INVALID_ARGUMENT, "Expected %s signature method_name to be %s. Was: %s",
                    classify ? "classification" : "regression", want, srv_signature_method(&t->signature));
  return hr_error(HR_UNIMPLEMENTED, "%s is not supported by hlorun: signature '%s' takes serialized tf.Examples",
                  classify ? "classify" : "regress", key);
}

/* Whether a call can go through the batcher: a batchable signature and program inputs of equal
 * size in dimension 0. */
static bool can_batch(const srv_service *svc, const srv_target *t, hr_tensor *const *inputs, int n_inputs) {
  if (!svc->batcher || !t->batchable || n_inputs == 0) return false;
  for (int i = 0; i < n_inputs; i++)
    if (inputs[i]->shape.dims[0] != inputs[0]->shape.dims[0]) return false;
  return true;
}

/* The run control's poll: whether the call's client went away. */
static bool call_cancelled(void *ctx) {
  const srv_call *call = ctx;
  return call->abandoned && call->abandoned(call->ctx);
}

/* Runs the call through the batcher: queued with the calls of the same signature and shapes, run
 * as one batch, its rows given back. */
static hr_status run_batched(srv_service *svc, const srv_target *t, hr_tensor *const *inputs, int n_inputs,
                             const hr_run_control *ctl, hr_tensor ***outputs, int *n_outputs, srv_code *code) {
  srv_batch_task task = {.owner = (void *)t,
                         .model = t->servable->model,
                         .version = t->servable->version,
                         .inputs = inputs,
                         .n_inputs = n_inputs,
                         .ctl = ctl};
  hr_status st = srv_batcher_submit(svc->batcher, &task);
  if (st) {
    *code = hr_status_code(st) == HR_RESOURCE_EXHAUSTED ? SRV_UNAVAILABLE : srv_code_of(hr_status_code(st));
    return st;
  }
  srv_batcher_wait(svc->batcher, &task);
  *outputs = task.outputs;
  *n_outputs = task.n_outputs;
  if (task.status) *code = srv_code_of(hr_status_code(task.status));
  return task.status;
}

/* Runs the program of a target on its inputs (in program order), through the batcher when it can. */
static hr_status run_program(srv_service *svc, const srv_target *t, hr_tensor *const *inputs, const srv_call *call,
                             hr_tensor ***outputs, int *n_outputs, srv_code *code) {
  hr_run_control ctl = {.max_output_bytes = svc->max_output_bytes};
  if (call) {
    ctl.deadline = call->deadline;
    ctl.cancelled = call_cancelled;
    ctl.cancel_ctx = (void *)call;
  }
  if (can_batch(svc, t, inputs, t->n_feeds))
    return run_batched(svc, t, inputs, t->n_feeds, &ctl, outputs, n_outputs, code);
  hr_status st = hr_program_run_controlled(t->program, inputs, t->n_feeds, &ctl, outputs, n_outputs);
  if (st) *code = srv_code_of(hr_status_code(st));
  return st;
}

hr_status srv_service_predict(srv_service *svc, const srv_target *t, hr_tensor *const *inputs, int n_inputs,
                              const srv_call *call, hr_tensor ***outputs, int *n_outputs, srv_code *code) {
  *code = SRV_OK;
  *outputs = NULL;
  *n_outputs = 0;
  hr_status st = NULL;
  if (!t->program || n_inputs != t->signature.n_inputs)
    st = hr_error(HR_INTERNAL, "signature '%s' cannot run %d inputs", srv_signature_name(&t->signature), n_inputs);
  hr_tensor **fed = st ? NULL : calloc((size_t)t->n_feeds + 1, sizeof *fed);
  if (!st && !fed) st = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (st) {
    *code = srv_code_of(hr_status_code(st));
    return st;
  }
  srv_target_feed(t, inputs, fed);
  double start = srv_now();
  st = run_program(svc, t, fed, call, outputs, n_outputs, code);
  if (!st && *n_outputs != t->signature.n_outputs) {
    st = hr_error(HR_INTERNAL, "the program gave %d outputs, its signature has %d", *n_outputs, t->signature.n_outputs);
    *code = SRV_INTERNAL;
    hr_tensors_free(*outputs, *n_outputs);
    *outputs = NULL;
    *n_outputs = 0;
  }
  if (!st && svc->metrics) srv_metrics_tfs_runtime(svc->metrics, t->servable->model, "Predict", srv_now() - start);
  free(fed);
  return srv_registry_redact(t->servable, st);
}

hr_status srv_service_status(srv_service *svc, const char *model, const srv_selector *sel, srv_model_status *out) {
  return srv_registry_status(svc->registry, model, sel, out);
}

hr_status srv_service_reconfigure(srv_service *svc, srv_config *config) {
  return srv_registry_reconfigure(svc->registry, config);
}

bool srv_service_ready(srv_service *svc, hr_strbuf *reason) { return srv_registry_ready(svc->registry, reason); }

hr_status srv_service_run_batch(void *ctx, void *owner, hr_tensor *const *inputs, int n_inputs,
                                const hr_run_control *ctl, hr_tensor ***outputs, int *n_outputs) {
  srv_service *svc = ctx;
  const srv_target *t = owner;
  srv_metrics_batch(svc->metrics, t->servable->model, inputs[0]->shape.dims[0]);
  return hr_program_run_controlled(t->program, inputs, n_inputs, ctl, outputs, n_outputs);
}

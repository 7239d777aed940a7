/* The model service (service.h): predict, metadata and status for every protocol adapter. */
#include "server/service.h"

hr_status srv_service_acquire(srv_service *svc, const char *model, const srv_selector *sel, srv_servable **out) {
  return srv_registry_acquire(svc->registry, model, sel, out);
}

void srv_service_release(srv_service *svc, srv_servable *sv) { srv_registry_release(svc->registry, sv); }

/* Whether a call can go through the batcher: a batchable version and inputs of equal size in
 * dimension 0. */
static bool can_batch(const srv_service *svc, const srv_servable *sv, hr_tensor *const *inputs, int n_inputs) {
  if (!svc->batcher || !sv->batchable) return false;
  for (int i = 0; i < n_inputs; i++)
    if (inputs[i]->shape.dims[0] != inputs[0]->shape.dims[0]) return false;
  return true;
}

/* The run control's poll: whether the call's client went away. */
static bool call_cancelled(void *ctx) {
  const srv_call *call = ctx;
  return call->abandoned && call->abandoned(call->ctx);
}

/* Runs the call through the batcher: queued with the calls of the same version and shapes, run
 * as one batch, its rows given back. */
static hr_status run_batched(srv_service *svc, srv_servable *sv, hr_tensor *const *inputs, int n_inputs,
                             const hr_run_control *ctl, hr_tensor ***outputs, int *n_outputs, srv_code *code) {
  srv_batch_task task = {
      .owner = sv, .model = sv->model, .version = sv->version, .inputs = inputs, .n_inputs = n_inputs, .ctl = ctl};
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

hr_status srv_service_predict(srv_service *svc, srv_servable *sv, hr_tensor *const *inputs, int n_inputs,
                              const srv_call *call, hr_tensor ***outputs, int *n_outputs, srv_code *code) {
  *code = SRV_OK;
  *outputs = NULL;
  *n_outputs = 0;
  hr_run_control ctl = {.max_output_bytes = svc->max_output_bytes};
  if (call) {
    ctl.deadline = call->deadline;
    ctl.cancelled = call_cancelled;
    ctl.cancel_ctx = (void *)call;
  }
  hr_status st;
  if (can_batch(svc, sv, inputs, n_inputs)) {
    st = run_batched(svc, sv, inputs, n_inputs, &ctl, outputs, n_outputs, code);
  } else {
    st = hr_program_run_controlled(sv->program, inputs, n_inputs, &ctl, outputs, n_outputs);
    if (st) *code = srv_code_of(hr_status_code(st));
  }
  return srv_registry_redact(sv, st);
}

hr_status srv_service_status(srv_service *svc, const char *model, const srv_selector *sel, srv_model_status *out) {
  return srv_registry_status(svc->registry, model, sel, out);
}

bool srv_service_ready(srv_service *svc, hr_strbuf *reason) { return srv_registry_ready(svc->registry, reason); }

hr_status srv_service_run_batch(void *ctx, void *owner, hr_tensor *const *inputs, int n_inputs,
                                const hr_run_control *ctl, hr_tensor ***outputs, int *n_outputs) {
  srv_service *svc = ctx;
  srv_servable *sv = owner;
  srv_metrics_batch(svc->metrics, sv->model, inputs[0]->shape.dims[0]);
  return hr_program_run_controlled(sv->program, inputs, n_inputs, ctl, outputs, n_outputs);
}

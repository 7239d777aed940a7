/* The model service: what every protocol of the server answers, on hr_tensors and plain structs,
 * with no wire format in it. A protocol adapter (REST in rest.c; gRPC, KServe v2 and generation
 * beside it) parses its request, asks the service, and encodes the answer:
 *
 *   status    srv_service_status: the state of a model's versions (all, or the one selected)
 *   metadata  srv_service_acquire: a loaded version, whose signatures (targets) name and type its tensors
 *   predict   srv_service_acquire, srv_service_target for the request's signature name, then
 *             srv_service_predict with inputs in the signature's order
 *   ready     srv_service_ready: whether every model has a version to serve
 *
 * A predict runs through the batcher when the version and the inputs allow it, within the call's
 * deadline and the server's output bound, and is cancelled when the call's client goes away. */
#ifndef HLORUN_SERVER_SERVICE_H
#define HLORUN_SERVER_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "hlorun/hlorun.h"
#include "server/batcher.h"
#include "server/common.h"
#include "server/metrics.h"
#include "server/registry.h"

/* The service's parts; the server creates them and owns them. */
typedef struct srv_service {
  srv_registry *registry;
  srv_batcher *batcher;    /* NULL unless batching is enabled */
  srv_metrics *metrics;    /* records the size of every batch run */
  size_t max_output_bytes; /* tensor bytes of one request's outputs, known before its run */
} srv_service;

/* What the service may ask of the transport while a call runs: its deadline, and whether its
 * client went away (then its work is cancelled). */
typedef struct srv_call {
  double deadline;              /* monotonic seconds (srv_now); the run stops with DEADLINE_EXCEEDED after it; 0: none */
  bool (*abandoned)(void *ctx); /* true once the client hung up; may be NULL */
  void *ctx;
} srv_call;

/* Takes a reference to the loaded version a call names (see srv_registry_acquire for its errors);
 * its targets (signatures and programs) stay valid until srv_service_release. */
hr_status srv_service_acquire(srv_service *svc, const char *model, const srv_selector *sel, srv_servable **out);
void srv_service_release(srv_service *svc, srv_servable *sv);

/* The signature of an acquired version called `name` ("": serving_default). INVALID_ARGUMENT with
 * TensorFlow Serving's message ("Serving signature name: "x" not found in signature def") when it
 * has none. */
hr_status srv_service_target(const srv_servable *sv, const char *name, const srv_target **out);

/* Whether a predict may run on target `t`: an error for a signature listed in metadata only,
 * TensorFlow Serving's for one without inputs (__saved_model_init_op: INVALID_ARGUMENT "Failed to
 * get input map for signature: NAME"), else UNIMPLEMENTED naming its method. */
hr_status srv_service_check_runnable(const srv_target *t);

/* Checks a classify (or regress) call on signature `name` ("": serving_default) of an acquired
 * version as TensorFlow Serving does: INVALID_ARGUMENT "No signature was found with the name:
 * NAME" when there is none, "Expected classification signature method_name to be
 * tensorflow/serving/classify. Was: ..." when its method differs; hlorun runs no classify or
 * regress signature (they take serialized tf.Examples), so one that passes is UNIMPLEMENTED.
 * Always returns an error. */
hr_status srv_service_check_inference(const srv_servable *sv, bool classify, const char *name);

/* Runs one prediction on a signature of an acquired version (a target with a program): `inputs`
 * one per signature input, in its order.
 * On success *outputs holds one tensor per signature output (free with hr_tensors_free). On
 * failure *code is the canonical code to answer with (UNAVAILABLE when the batcher turns the call
 * away), and the message names no server path. `call` may be NULL (no deadline, never abandoned). */
hr_status srv_service_predict(srv_service *svc, const srv_target *t, hr_tensor *const *inputs, int n_inputs,
                              const srv_call *call, hr_tensor ***outputs, int *n_outputs, srv_code *code);

/* The status of a model's versions (srv_model_status, freed with srv_model_status_free): all of
 * them, or the one selected by version or label. NOT_FOUND when the model or the version is unknown; INVALID_ARGUMENT for unknown labels. */
hr_status srv_service_status(srv_service *svc, const char *model, const srv_selector *sel, srv_model_status *out);

/* Replaces the model configuration, taking `config` over (srv_registry_reconfigure): returns once
 * the new models' versions have loaded (or failed to). */
hr_status srv_service_reconfigure(srv_service *svc, srv_config *config);

/* Whether every model has an AVAILABLE version; else appends why not to `reason`. */
bool srv_service_ready(srv_service *svc, hr_strbuf *reason);

/* The batcher's run function for a service (ctx), whose tasks' owners are targets: one run of the
 * target's program, its batch size recorded. */
hr_status srv_service_run_batch(void *ctx, void *owner, hr_tensor *const *inputs, int n_inputs,
                                const hr_run_control *ctl, hr_tensor ***outputs, int *n_outputs);

#endif

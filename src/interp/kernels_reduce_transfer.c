/* infeed, outfeed, send and recv: transfers between a process and its host or another process.
 * They run inside a process grid (interpreter.run_parallel, grid.h), as StableHLO's reference
 * interpreter defines them:
 *   infeed returns the results of the next function of the grid's infeed queue (run_parallel's
 *     `infeed` attribute), then a token;
 *   outfeed hands its inputs to the host, which nothing reads (the reference interpreter's outfeed
 *     queue has no reader either): its inputs are checked and its token returned;
 *   send hands its inputs to the recv of the same channel, both waiting until they meet; recv
 *     returns them, then a token.
 * Tokens travel as empty ui8 tensors (kernels_tuple.c); these kernels make their own results. */
#include <string.h>

#include "interp/grid.h"
#include "interp/reduce.h"

/* An error for a transfer run outside a process grid. */
static hr_status needs_grid(const hr_op *op) {
  return hr_op_error(op, HR_UNIMPLEMENTED, "runs only in a process grid (inside interpreter.run_parallel)");
}

/* Allocates the token a transfer returns (an empty ui8 tensor). */
static hr_status alloc_token(hr_interp *in, const hr_op *op, hr_tensor **out) {
  hr_shape empty = {0};
  empty.rank = 1;
  return hr_interp_alloc(in, op, HR_U8, &empty, out);
}

/* Checks that the op's last result is a token and the others are static tensors. */
static hr_status check_transfer_results(const hr_op *op) {
  if (op->n_results < 1 || op->results[op->n_results - 1].type.kind != HR_TYPE_TOKEN)
    return hr_op_error(op, HR_VERIFY_ERROR, "the last result must be a token");
  for (int i = 0; i + 1 < op->n_results; i++)
    if (op->results[i].type.kind != HR_TYPE_TENSOR || !hr_type_is_static(&op->results[i].type))
      return hr_op_error(op, HR_UNIMPLEMENTED, "result %d must be a tensor of static shape", i);
  return NULL;
}

/* Checks that `t` has the type of the op's result i. */
static hr_status check_result(const hr_op *op, int i, const hr_tensor *t) {
  const hr_type *want = &op->results[i].type;
  if (hr_red_tensor_is(t, want->dtype, &want->shape)) return NULL;
  char a[96], b[96];
  return hr_op_error(op, HR_INVALID_ARGUMENT, "result %d is %s %s, but %s %s was transferred", i,
                     hr_dtype_name(want->dtype), hr_red_shape_str(&want->shape, a, sizeof a), hr_dtype_name(t->dtype),
                     hr_red_shape_str(&t->shape, b, sizeof b));
}

/* Frees results[0..n) and clears them. */
static void drop_results(hr_tensor **results, int n) {
  for (int i = 0; i < n; i++) {
    hr_tensor_free(results[i]);
    results[i] = NULL;
  }
}

HR_RED_KERNEL(hr_red_kernel_infeed) {
  (void)operands;
  if (!in->process) return needs_grid(op);
  HR_TRY(check_transfer_results(op));
  const hr_func *fn;
  HR_TRY(hr_grid_infeed(in->process, op, &fn));
  int n = op->n_results - 1;
  if (fn->n_args != 0 || fn->n_results != n)
    return hr_op_error(op, HR_INVALID_ARGUMENT, "infeed function @%s must take no arguments and return %d values",
                       fn->name, n);
  HR_TRY(hr_interp_call(in, fn, NULL, results));
  hr_status s = NULL;
  for (int i = 0; i < n && !s; i++) s = check_result(op, i, results[i]);
  if (!s) s = alloc_token(in, op, &results[n]);
  if (s) drop_results(results, n);
  return s;
}

HR_RED_KERNEL(hr_red_kernel_outfeed) {
  (void)operands;
  if (!in->process) return needs_grid(op);
  if (op->n_results != 1 || op->results[0].type.kind != HR_TYPE_TOKEN)
    return hr_op_error(op, HR_VERIFY_ERROR, "expects one token result");
  return alloc_token(in, op, &results[0]);
}

/* send(inputs..., token): meets the recv of its channel (slot 0 of the pair) and hands over its
 * inputs. */
HR_RED_KERNEL(hr_red_kernel_send) {
  if (!in->process) return needs_grid(op);
  if (op->n_results != 1 || op->results[0].type.kind != HR_TYPE_TOKEN || op->n_operands < 1)
    return hr_op_error(op, HR_VERIFY_ERROR, "expects inputs and a token, and one token result");
  hr_rendezvous *rv;
  HR_TRY(hr_grid_rendezvous(in->process, op, HR_OP_SEND, hr_grid_channel(op), NULL, 2, 0, operands, op->n_operands - 1,
                            &rv));
  hr_grid_leave(in->process, rv); /* the receiver copied the inputs before leaving */
  return alloc_token(in, op, &results[0]);
}

/* Copies the sender's inputs into new results of the recv `op`. */
static hr_status take_sent(hr_interp *in, const hr_op *op, const hr_rendezvous *rv, hr_tensor **results) {
  hr_tensor *const *sent;
  int n = hr_rendezvous_operands(rv, 0, &sent);
  if (n != op->n_results - 1)
    return hr_op_error(op, HR_INVALID_ARGUMENT, "the send of channel %lld sent %d values, recv expects %d",
                       (long long)hr_grid_channel(op), n, op->n_results - 1);
  for (int i = 0; i < n; i++) {
    hr_status s = check_result(op, i, sent[i]);
    if (!s) s = hr_interp_alloc(in, op, sent[i]->dtype, &sent[i]->shape, &results[i]);
    if (s) {
      drop_results(results, i);
      return s;
    }
    memcpy(results[i]->data, sent[i]->data, sent[i]->nbytes);
  }
  return NULL;
}

/* recv(token): meets the send of its channel (slot 1 of the pair) and returns its inputs. */
HR_RED_KERNEL(hr_red_kernel_recv) {
  (void)operands;
  if (!in->process) return needs_grid(op);
  HR_TRY(check_transfer_results(op));
  hr_rendezvous *rv;
  HR_TRY(hr_grid_rendezvous(in->process, op, HR_OP_SEND, hr_grid_channel(op), NULL, 2, 1, NULL, 0, &rv));
  hr_status s = take_sent(in, op, rv, results);
  hr_grid_leave(in->process, rv);
  int n = op->n_results - 1;
  if (!s) {
    s = alloc_token(in, op, &results[n]);
    if (s) drop_results(results, n);
  }
  return s;
}

/* Collective ops for a single process (one replica, one partition), the only configuration the
 * interpreter runs. Every process group then holds just this process, so:
 *   all_reduce, all_gather, reduce_scatter, all_to_all, collective_broadcast and
 *   cross-replica-sum return their operands unchanged (a reduction over one value is that value;
 *   gathering, scattering or exchanging one block is the identity);
 *   collective_permute returns its operand when the pair (0, 0) is listed, zeros otherwise;
 *   replica_id and partition_id are 0.
 * Programs written for several processes show up as results whose shapes differ from the
 * operands' (all_gather, all_to_all with split_count > 1) and are rejected. */
#include <string.h>

#include "interp/reduce.h"

/* Checks that result i has operand i's type and copies it. */
static hr_status copy_through(const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (op->n_results > op->n_operands) return hr_op_error(op, HR_VERIFY_ERROR, "more results than operands");
  for (int i = 0; i < op->n_results; i++) {
    if (!hr_red_tensor_is(results[i], operands[i]->dtype, &operands[i]->shape))
      return hr_op_error(op, HR_UNIMPLEMENTED,
                         "result %d differs from its operand: only a single replica and partition are supported", i);
    memcpy(results[i]->data, operands[i]->data, operands[i]->nbytes);
  }
  return NULL;
}

/* all_reduce, all_gather, reduce_scatter, all_to_all, collective_broadcast, cross-replica-sum. */
HR_RED_KERNEL(hr_red_kernel_identity_collective) {
  (void)in;
  return copy_through(op, operands, results);
}

/* True when source_target_pairs lists the pair (0, 0). */
static hr_status sends_to_self(const hr_op *op, bool *out) {
  *out = false;
  const hr_attr *a = hr_op_attr(op, "source_target_pairs");
  if (!a) return NULL;
  if (a->kind != HR_ATTR_DENSE || a->u.dense.type.shape.rank != 2 || a->u.dense.type.shape.dims[1] != 2 ||
      !(hr_dtype_is_signed_int(a->u.dense.type.dtype) || hr_dtype_is_unsigned_int(a->u.dense.type.dtype)))
    return hr_op_error(op, HR_VERIFY_ERROR, "source_target_pairs must be an Nx2 integer tensor");
  hr_dtype t = a->u.dense.type.dtype;
  for (int64_t p = 0; p < a->u.dense.type.shape.dims[0]; p++)
    if (hr_load_int(t, hr_dense_element(a, 2 * p), 0) == 0 && hr_load_int(t, hr_dense_element(a, 2 * p + 1), 0) == 0)
      *out = true;
  return NULL;
}

/* collective_permute(operand). */
HR_RED_KERNEL(hr_red_kernel_collective_permute) {
  (void)in;
  if (op->n_operands != 1 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects one operand");
  bool self;
  HR_TRY(sends_to_self(op, &self));
  if (!hr_red_tensor_is(results[0], operands[0]->dtype, &operands[0]->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "result must have the operand's type");
  if (self) memcpy(results[0]->data, operands[0]->data, operands[0]->nbytes);
  return NULL;
}

/* replica_id and partition_id: the (zero-filled) scalar result is already 0. */
HR_RED_KERNEL(hr_red_kernel_process_id) {
  (void)in;
  (void)operands;
  if (op->n_results != 1 || hr_tensor_num_elements(results[0]) != 1)
    return hr_op_error(op, HR_VERIFY_ERROR, "expects one scalar result");
  return NULL;
}

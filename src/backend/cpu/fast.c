/* Fast kernels: choosing one for an op (the kinds' prepare functions), and running and freeing
 * the kernel object. */
#include "backend/cpu/fast_internal.h"

hr_status hr_fast_prepare(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands, const bool *fixed,
                          const hr_tensor *const *results, hr_fast_kernel **out) {
  *out = NULL;
  if (!hr_cpu_avx512_ok()) return NULL;
  switch (op->code) {
    case HR_OP_HLORUN_MATMUL:
      return hr_fast_prepare_matmul(env, op, operands, fixed, results, out);
    case HR_OP_HLORUN_FUSED:
      return hr_fast_prepare_fused(env, op, operands, results, out);
    case HR_OP_HLORUN_LAYER_NORM:
      return hr_fast_prepare_layer_norm(env, op, operands, results, out);
    case HR_OP_HLORUN_SOFTMAX:
      return hr_fast_prepare_softmax(env, op, operands, results, out);
    case HR_OP_HLORUN_ATTENTION:
      return hr_fast_prepare_attention(env, op, operands, results, out);
    case HR_OP_REDUCE:
      return hr_fast_prepare_reduce(env, op, operands, results, out);
    case HR_OP_DOT_GENERAL:
      return hr_fast_prepare_dot(env, op, operands, results, out);
    default:
      if (hr_opcode_flags(op->code) & HR_OPF_ELEMENTWISE)
        HR_TRY(hr_fast_prepare_elementwise(env, op, operands, results, out));
      return *out ? NULL : hr_fast_prepare_data(env, op, operands, results, out);
  }
}

size_t hr_fast_scratch_bytes(const hr_fast_kernel *k) { return k->scratch_bytes; }

const char *hr_fast_name(const hr_fast_kernel *k) { return k->name; }

hr_status hr_fast_run(const hr_fast_kernel *k, hr_tensor *const *operands, hr_tensor *const *results, void *scratch) {
  return k->run(k, operands, results, scratch);
}

void hr_fast_free(hr_fast_kernel *k) {
  if (!k) return;
  if (k->destroy) k->destroy(k);
  k->allocator->free(k->allocator->ctx, k);
}

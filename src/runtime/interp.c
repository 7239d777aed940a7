#include "runtime/interp.h"
const hr_kernel hr_kernels_control[] = {{HR_OP_COUNT, NULL}};
hr_status hr_interp_alloc(hr_interp *in, const hr_op *op, hr_dtype dtype, const hr_shape *shape, hr_tensor **out) {
  (void)op; return hr_tensor_create(in->allocator, dtype, shape, in->opts.max_tensor_bytes, out);
}
hr_status hr_interp_run_block(hr_interp *in, const hr_block *block, hr_tensor *const *args, hr_tensor **results) {
  (void)in; (void)block; (void)args; (void)results; return hr_error(HR_UNIMPLEMENTED, "interpreter being written");
}
hr_status hr_interp_call(hr_interp *in, const hr_func *fn, hr_tensor *const *args, hr_tensor **results) {
  (void)in; (void)fn; (void)args; (void)results; return hr_error(HR_UNIMPLEMENTED, "interpreter being written");
}
hr_status hr_module_run(const hr_module *m, const char *fn_name, hr_tensor *const *inputs, int num_inputs, const hr_run_options *opts, hr_tensor ***outputs, int *num_outputs) {
  (void)m; (void)fn_name; (void)inputs; (void)num_inputs; (void)opts; *outputs = NULL; *num_outputs = 0; return hr_error(HR_UNIMPLEMENTED, "interpreter being written");
}

/* The constant folder hr_specialize uses: evaluates one op with the interpreter's kernels. */
#include "interp/interp.h"
#include "runtime/executable.h"

/* Evaluates `op` (no regions, no calls) on `operands` with a single-threaded interpreter created
 * for this call; `results` receive newly allocated tensors. */
static hr_status interp_fold(void *ctx, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (op->n_regions > 0 || op->code == HR_OP_FUNC_CALL)
    return hr_op_error(op, HR_UNIMPLEMENTED, "ops with regions or callees are not folded");
  hr_run_options opts = {.num_threads = 1};
  hr_interp *in = NULL;
  /* A region-free op never reaches the interpreter's module (only func.call looks callees up). */
  HR_TRY(hr_interp_create(NULL, &opts, &in));
  hr_status s = hr_interp_exec_op(in, op, operands, results);
  hr_interp_free(in);
  return s;
}

hr_folder hr_interp_folder(void) {
  hr_folder f = {.fn = interp_fold, .ctx = NULL, .max_fold_bytes = 0};
  return f;
}

/* hlorun.fused: an elementwise region over broadcast operands, evaluated by a vector program; and,
 * with a one-instruction program, the f32 elementwise stablehlo ops that are exact in IEEE
 * arithmetic (add, subtract, multiply, divide, maximum, minimum, negate, abs, sqrt, floor, ceil,
 * round_nearest_even, sign), whose results equal the reference kernels' bit for bit.
 *
 * Preparing maps every operand onto the result shape (element strides per result dimension, 0
 * where broadcast), drops unit dimensions and merges adjacent dimensions along which every
 * operand is laid out contiguously. The last merged dimension is the row: each operand must step
 * through it by 1 (contiguous) or 0 (a value broadcast along the row); otherwise the reference
 * kernel runs the op. The dimension before it is the tile's row dimension; any dimensions before
 * that are iterated. Rows are spread over the pool in chunks of a few thousand elements. */
#include <string.h>

#include "backend/cpu/fast_internal.h"

typedef struct fused_kernel {
  hr_fast_kernel base;
  hr_vm *vm;
  int n_in;
  int rank;                                     /* merged rank, >= 1 */
  int64_t dims[HR_MAX_RANK];                    /* merged result dims */
  int64_t strides[HR_VM_MAX_ARGS][HR_MAX_RANK]; /* element strides of each operand per merged dim */
  int64_t n_rows;                               /* product of all merged dims but the last */
  size_t worker_scratch;                        /* bytes per worker */
} fused_kernel;

/* Element strides of `operand` over the dims of `result` given its broadcast dimensions `bd`
 * (operand dim j -> result dim bd[j]); false when bd does not fit. */
static bool operand_strides(const hr_shape *operand, const int64_t *bd, int n_bd, const hr_shape *result,
                            int64_t *strides) {
  if (n_bd != operand->rank) return false;
  for (int d = 0; d < result->rank; d++) strides[d] = 0;
  int64_t stride = 1;
  for (int j = operand->rank - 1; j >= 0; j--) {
    if (bd[j] < 0 || bd[j] >= result->rank) return false;
    int64_t od = operand->dims[j], rd = result->dims[bd[j]];
    if (od != rd && od != 1) return false;
    if (od == rd && od != 1) strides[bd[j]] = stride;
    stride *= od;
  }
  return true;
}

/* Drops unit dims and merges adjacent dims where every operand's layout is contiguous across
 * them, filling k->dims/strides/rank from the per-result-dim strides `full`. */
static void merge_dims(fused_kernel *k, const hr_shape *result, int64_t (*full)[HR_MAX_RANK]) {
  int rank = 0;
  for (int d = 0; d < result->rank; d++) {
    if (result->dims[d] == 1) continue;
    bool merge = rank > 0;
    for (int i = 0; i < k->n_in && merge; i++) merge = k->strides[i][rank - 1] == full[i][d] * result->dims[d];
    if (merge) {
      k->dims[rank - 1] *= result->dims[d];
      for (int i = 0; i < k->n_in; i++) k->strides[i][rank - 1] = full[i][d];
      continue;
    }
    k->dims[rank] = result->dims[d];
    for (int i = 0; i < k->n_in; i++) k->strides[i][rank] = full[i][d];
    rank++;
  }
  if (rank == 0) { /* a single element */
    k->dims[0] = 1;
    for (int i = 0; i < k->n_in; i++) k->strides[i][0] = 0;
    rank = 1;
  }
  k->rank = rank;
  k->n_rows = 1;
  for (int d = 0; d + 1 < rank; d++) k->n_rows *= k->dims[d];
}

/* The per-run view of a fused kernel. */
typedef struct fused_job {
  const fused_kernel *k;
  const float *in[HR_VM_MAX_ARGS];
  float *out;
  unsigned char *scratch;
} fused_job;

/* Runs the program over rows [begin, end) of one run of the row dimension (same outer index). */
static void run_rows(const fused_job *j, int64_t begin, int64_t end, float *scratch) {
  const fused_kernel *k = j->k;
  int64_t cols = k->dims[k->rank - 1];
  int rd = k->rank - 2; /* the row dim, -1 when rank 1 */
  int64_t rows_per_outer = rd >= 0 ? k->dims[rd] : 1;
  int64_t outer = begin / rows_per_outer, r0 = begin % rows_per_outer;
  hr_vm_input inputs[HR_VM_MAX_ARGS];
  for (int i = 0; i < k->n_in; i++) {
    int64_t off = 0, rest = outer;
    for (int d = rd - 1; d >= 0; d--) {
      off += rest % k->dims[d] * k->strides[i][d];
      rest /= k->dims[d];
    }
    int64_t rs = rd >= 0 ? k->strides[i][rd] : 0;
    inputs[i] = (hr_vm_input){j->in[i] + off + r0 * rs, rs, k->strides[i][k->rank - 1] == 0};
  }
  hr_vm_run(k->vm, inputs, j->out + begin * cols, cols, end - begin, cols, scratch);
}

/* hr_parallel_fn over rows: splits [begin, end) at outer-index boundaries. */
static void fused_chunk(void *ctx, int64_t begin, int64_t end, int worker) {
  const fused_job *j = ctx;
  int64_t per = j->k->rank >= 2 ? j->k->dims[j->k->rank - 2] : 1;
  float *scratch = (float *)(j->scratch + (size_t)worker * j->k->worker_scratch);
  while (begin < end) {
    int64_t stop = (begin / per + 1) * per;
    if (stop > end) stop = end;
    run_rows(j, begin, stop, scratch);
    begin = stop;
  }
}

static hr_status fused_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                           void *scratch) {
  const fused_kernel *k = (const fused_kernel *)base;
  int64_t cols = k->dims[k->rank - 1];
  if (cols == 0 || k->n_rows == 0) return NULL;
  fused_job j = {.k = k, .out = results[0]->data, .scratch = scratch};
  for (int i = 0; i < k->n_in; i++) j.in[i] = operands[i]->data;
  hr_parallel_for(base->pool, k->n_rows, hr_fast_chunk(cols * hr_vm_cost(k->vm)), fused_chunk, &j);
  return NULL;
}

static void fused_destroy(hr_fast_kernel *base) { hr_vm_free(((fused_kernel *)base)->vm); }

/* Reads the broadcast dimensions of every operand into full[i] (strides per result dim). */
static bool layout_operands(const hr_op *op, const hr_tensor *const *operands, const hr_shape *result,
                            int64_t (*full)[HR_MAX_RANK]) {
  const hr_attr *bds = hr_op_attr(op, "broadcast_dimensions");
  if (!bds || bds->kind != HR_ATTR_ARRAY || bds->u.array.n != op->n_operands) return false;
  for (int i = 0; i < op->n_operands; i++) {
    int64_t bd[HR_MAX_RANK];
    int n = 0;
    hr_status s = hr_attr_to_i64_list(bds->u.array.items[i], bd, HR_MAX_RANK, &n);
    if (s) {
      hr_status_free(s);
      return false;
    }
    if (!hr_fast_is_f32(operands[i]) || !operand_strides(&operands[i]->shape, bd, n, result, full[i])) return false;
  }
  return true;
}

/* Creates a fused kernel evaluating `vm` (owned: freed on failure) over operands laid out on the
 * result shape `rs` by `full`; *out stays NULL when some operand does not read its rows
 * contiguously or by a broadcast value. */
static hr_status new_fused(const hr_fast_env *env, hr_vm *vm, int n_in, const hr_shape *rs,
                           int64_t (*full)[HR_MAX_RANK], const char *name, hr_fast_kernel **out) {
  fused_kernel *k = (fused_kernel *)hr_fast_kernel_new(env, sizeof *k, name, fused_run);
  if (!k) {
    hr_vm_free(vm);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing a %s kernel", name);
  }
  k->base.destroy = fused_destroy;
  k->vm = vm;
  k->n_in = n_in;
  merge_dims(k, rs, full);
  bool ok = true;
  for (int i = 0; i < k->n_in && ok; i++) ok = k->strides[i][k->rank - 1] <= 1;
  if (!ok) {
    hr_fast_free(&k->base);
    return NULL;
  }
  k->worker_scratch = hr_vm_scratch_bytes(vm);
  k->base.scratch_bytes = k->worker_scratch * (size_t)k->base.n_workers;
  *out = &k->base;
  return NULL;
}

hr_status hr_fast_prepare_fused(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                const hr_tensor *const *results, hr_fast_kernel **out) {
  if (op->n_results != 1 || op->n_regions != 1 || op->n_operands > HR_VM_MAX_ARGS || !hr_fast_is_f32(results[0]) ||
      op->regions[0].n_args != op->n_operands)
    return NULL;
  const hr_shape *rs = &results[0]->shape;
  int64_t full[HR_VM_MAX_ARGS][HR_MAX_RANK];
  if (!layout_operands(op, operands, rs, full)) return NULL;
  hr_vm *vm = NULL;
  HR_TRY(hr_vm_compile(env->allocator, &op->regions[0], &vm));
  return vm ? new_fused(env, vm, op->n_operands, rs, full, "fused", out) : NULL;
}

hr_status hr_fast_prepare_elementwise(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                      const hr_tensor *const *results, hr_fast_kernel **out) {
  const hr_shape *rs = &results[0]->shape;
  int64_t full[2][HR_MAX_RANK], identity[HR_MAX_RANK];
  if (op->n_results != 1 || op->n_operands < 1 || op->n_operands > 2 || !hr_fast_is_f32(results[0])) return NULL;
  for (int d = 0; d < rs->rank; d++) identity[d] = d;
  for (int i = 0; i < op->n_operands; i++)
    if (!hr_fast_is_f32(operands[i]) || !operand_strides(&operands[i]->shape, identity, rs->rank, rs, full[i]))
      return NULL;
  hr_vm *vm = NULL;
  HR_TRY(hr_vm_for_op(env->allocator, op->code, op->n_operands, &vm));
  return vm ? new_fused(env, vm, op->n_operands, rs, full, "elementwise", out) : NULL;
}

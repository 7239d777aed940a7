/* hlorun.matmul: the GEMM of gemm.h with the epilogue region evaluated by a vector program on each
 * finished block of C while it is in cache.
 *
 * A fixed right operand (a weight: bound parameter or constant) is packed once when preparing, in
 * bf16 when the executable asks for bf16 and the CPU has AVX512_BF16. Otherwise it is packed per
 * run (f32) by every thread into the kernel's scratch memory, ahead of the epilogue's
 * (hr_gemm_unpacked_into): no allocation per run. The epilogue operands are read per block: argument 0 of the
 * region is the accumulator (C itself, updated in place), a rank-0 operand is a splat, a [N]
 * operand a per-column vector, a full-shape operand (a residual) is read at the block's rows and
 * columns. An identity region (return %acc) needs no epilogue at all. A region that starts by
 * adding per-column vectors or full-shape operands to the accumulator (a bias, a residual) has
 * those adds done by the GEMM as it stores each tile (hr_gemm_addends); the program keeps the
 * rest, if anything. */
#include <string.h>

#include "backend/cpu/fast_internal.h"
#include "backend/cpu/gemm.h"

typedef enum epilogue_kind { EP_SCALAR, EP_COLUMN, EP_FULL } epilogue_kind;

typedef struct matmul_kernel {
  hr_fast_kernel base;
  hr_gemm_packed_b *packed; /* the fixed right operand; NULL when it changes per run */
  bool transpose_b;
  int64_t m, k, n;
  int64_t b_offset, ldb; /* where b's window starts (elements) and b's row length (b_window) */
  hr_vm *vm; /* NULL: nothing left to do after the addends */
  int n_addends;
  int addend_args[HR_GEMM_MAX_ADDENDS]; /* region arguments added by the GEMM, in order */
  int n_epilogue;
  epilogue_kind kinds[HR_VM_MAX_ARGS]; /* of operands 2, 3, ... */
  size_t pack_bytes;     /* scratch for a right operand packed per run (rounded to 64); 0 when fixed */
  size_t worker_scratch; /* each worker's epilogue scratch, after the packed operand */
} matmul_kernel;

/* The per-run view. */
typedef struct matmul_job {
  const matmul_kernel *k;
  const float *operand[HR_VM_MAX_ARGS]; /* the epilogue operands */
  unsigned char *scratch;
} matmul_job;

/* hr_gemm_epilogue_fn: evaluates the region over one finished block of C. */
static void epilogue_block(void *ctx, float *c, int64_t ldc, int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                           int worker) {
  const matmul_job *j = ctx;
  const matmul_kernel *k = j->k;
  hr_vm_input in[HR_VM_MAX_ARGS];
  in[0] = (hr_vm_input){c, ldc, false};
  for (int i = 0; i < k->n_epilogue; i++) {
    const float *p = j->operand[i];
    switch (k->kinds[i]) {
      case EP_SCALAR:
        in[i + 1] = (hr_vm_input){p, 0, true};
        break;
      case EP_COLUMN:
        in[i + 1] = (hr_vm_input){p + col0, 0, false};
        break;
      case EP_FULL:
        in[i + 1] = (hr_vm_input){p + row0 * k->n + col0, k->n, false};
        break;
    }
  }
  hr_vm_run(k->vm, in, c, ldc, rows, cols, (float *)(j->scratch + (size_t)worker * k->worker_scratch));
}

static hr_status matmul_run(const hr_fast_kernel *base, hr_tensor *const *operands, hr_tensor *const *results,
                            void *scratch) {
  const matmul_kernel *k = (const matmul_kernel *)base;
  unsigned char *pack = scratch;
  matmul_job j = {.k = k, .scratch = pack + k->pack_bytes};
  for (int i = 0; i < k->n_epilogue; i++) j.operand[i] = operands[i + 2]->data;
  hr_gemm_addends add = {.n = k->n_addends};
  for (int i = 0; i < k->n_addends; i++) {
    int e = k->addend_args[i] - 1; /* region argument r is epilogue operand r - 1 */
    add.a[i] = (hr_gemm_addend){j.operand[e], k->kinds[e] == EP_FULL ? k->n : 0};
  }
  hr_gemm_epilogue_fn ep = k->vm ? epilogue_block : NULL;
  const float *a = operands[0]->data;
  float *c = results[0]->data;
  if (k->packed) {
    hr_gemm(base->pool, a, k->k, k->m, k->packed, c, k->n, &add, ep, &j);
    return NULL;
  }
  return hr_gemm_unpacked_into(base->pool, pack, a, k->k, k->m, k->k, (const float *)operands[1]->data + k->b_offset,
                               k->ldb, k->n, k->transpose_b, c, k->n, &add, ep, &j);
}

static void matmul_destroy(hr_fast_kernel *base) {
  matmul_kernel *k = (matmul_kernel *)base;
  hr_gemm_packed_b_free(k->packed);
  hr_vm_free(k->vm);
}

/* Whether two f32 tensors have the same shape. */
static bool same_shape(const hr_tensor *a, const hr_tensor *b) {
  if (a->shape.rank != b->shape.rank) return false;
  for (int i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return false;
  return true;
}

/* Checks the operand and result shapes and fills m, k, n, transpose_b and the epilogue kinds. */
static bool check_shapes(matmul_kernel *k, const hr_op *op, const hr_tensor *const *operands, const hr_tensor *y) {
  const hr_tensor *a = operands[0], *b = operands[1];
  if (!hr_fast_is_f32(a) || !hr_fast_is_f32(b) || !hr_fast_is_f32(y) || a->shape.rank < 2 || b->shape.rank != 2 ||
      y->shape.rank != a->shape.rank)
    return false;
  int64_t w[4];
  if (!hr_matmul_b_window(op, &b->shape, w)) return false;
  k->transpose_b = hr_fast_attr_bool(op, "transpose_b", false);
  k->k = a->shape.dims[a->shape.rank - 1];
  k->m = hr_fast_dims_product(&a->shape, 0, a->shape.rank - 1);
  k->n = w[k->transpose_b ? 2 : 3];
  k->ldb = b->shape.dims[1];
  k->b_offset = w[0] * k->ldb + w[1];
  if (w[k->transpose_b ? 3 : 2] != k->k || y->shape.dims[y->shape.rank - 1] != k->n) return false;
  for (int d = 0; d + 1 < a->shape.rank; d++)
    if (y->shape.dims[d] != a->shape.dims[d]) return false;
  k->n_epilogue = op->n_operands - 2;
  for (int i = 0; i < k->n_epilogue; i++) {
    const hr_tensor *e = operands[i + 2];
    if (!hr_fast_is_f32(e)) return false;
    if (e->shape.rank == 0)
      k->kinds[i] = EP_SCALAR;
    else if (e->shape.rank == 1 && e->shape.dims[0] == k->n)
      k->kinds[i] = EP_COLUMN;
    else if (same_shape(e, y))
      k->kinds[i] = EP_FULL;
    else
      return false;
  }
  return true;
}

/* Compiles the epilogue region and hands its leading bias/residual adds to the GEMM; false when
 * unsupported. An identity region, or one that only adds, leaves k->vm NULL. */
static hr_status compile_epilogue(const hr_fast_env *env, matmul_kernel *k, const hr_op *op, bool *ok) {
  *ok = false;
  if (op->regions[0].n_args != op->n_operands - 1) return NULL;
  HR_TRY(hr_vm_compile(env->allocator, &op->regions[0], &k->vm));
  if (!k->vm) return NULL;
  bool addable[HR_VM_MAX_ARGS] = {false};
  for (int i = 0; i < k->n_epilogue; i++) addable[i + 1] = k->kinds[i] != EP_SCALAR;
  k->n_addends = hr_vm_take_leading_adds(k->vm, addable, HR_GEMM_MAX_ADDENDS, k->addend_args);
  if (hr_vm_returned_arg(k->vm) == 0 || hr_vm_instructions(k->vm) == 0) {
    hr_vm_free(k->vm);
    k->vm = NULL;
  }
  *ok = true;
  return NULL;
}

/* Packs a fixed right operand in the precision the executable asks for. */
static hr_status pack_weights(const hr_fast_env *env, matmul_kernel *k, const hr_tensor *b) {
  hr_gemm_precision p = env->bf16 && hr_gemm_supported(HR_GEMM_BF16) ? HR_GEMM_BF16 : HR_GEMM_F32;
  if (p == HR_GEMM_BF16) k->base.name = "matmul_bf16";
  return hr_gemm_pack_b(env->allocator, (const float *)b->data + k->b_offset, k->ldb, k->k, k->n, k->transpose_b, p,
                        &k->packed);
}

hr_status hr_fast_prepare_matmul(const hr_fast_env *env, const hr_op *op, const hr_tensor *const *operands,
                                 const bool *fixed, const hr_tensor *const *results, hr_fast_kernel **out) {
  if (op->n_operands < 2 || op->n_operands - 1 > HR_VM_MAX_ARGS || op->n_results != 1 || op->n_regions != 1 ||
      !hr_gemm_supported(HR_GEMM_F32))
    return NULL;
  matmul_kernel *k = (matmul_kernel *)hr_fast_kernel_new(env, sizeof *k, "matmul", matmul_run);
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "out of memory preparing a matmul kernel");
  k->base.destroy = matmul_destroy;
  bool ok = check_shapes(k, op, operands, results[0]);
  hr_status s = ok ? compile_epilogue(env, k, op, &ok) : NULL;
  if (!s && ok && fixed[1]) s = pack_weights(env, k, operands[1]);
  if (s || !ok) {
    hr_fast_free(&k->base);
    return s;
  }
  k->pack_bytes = k->packed ? 0 : (hr_gemm_unpacked_bytes(k->k, k->n) + 63) / 64 * 64;
  k->worker_scratch = k->vm ? hr_vm_scratch_bytes(k->vm) : 0;
  k->base.scratch_bytes = k->pack_bytes + k->worker_scratch * (size_t)k->base.n_workers;
  *out = &k->base;
  return NULL;
}

/* Reference kernels of the fused hlorun.* ops (docs/fast-cpu.md).
 *
 * They are written to give, wherever the semantics allow, the very bits the unfused program
 * computes with the reference kernels, so that tests can compare fused and unfused programs
 * exactly:
 *   - hlorun.matmul computes a . b with dot_general's contraction engine (hr_red_contract: f32
 *     accumulation from +0 in increasing contraction order), then runs its epilogue;
 *   - the scalar bodies of hlorun.matmul and hlorun.fused are evaluated on chunks of elements by
 *     calling the elementwise kernels of their ops on rank-1 views, so every op computes exactly
 *     what it computes unfused;
 *   - hlorun.softmax follows JAX's graph in f32: a NaN-propagating maximum, x - max, exp rounded
 *     from double (as the exponential kernel), a sum from +0 in increasing order, a division;
 *   - hlorun.attention computes scale * (q . k) in f32 (the graph's (scale * q) . k when scale is
 *     a power of two), -inf above the diagonal when causal, the softmax above, and p . v in f32;
 *   - hlorun.layer_norm computes mean and (two-pass, population) variance in double and
 *     (x - mean) / sqrt(var + eps) * scale + bias in double, rounded once: it is the exact
 *     formula, which no f32 graph reproduces bit for bit.
 * Row loops run on the interpreter's thread pool; the elementwise kernels run from this thread
 * only (they use the pool themselves). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/elem.h"
#include "interp/interp.h"
#include "interp/reduce.h"

/* Elements per evaluation of a scalar body: large enough for the elementwise kernels to split
 * over the pool; smaller for bodies with so many values that they would need more than
 * BODY_BYTES, but never below MIN_CHUNK. */
enum { CHUNK = 1 << 16, MIN_CHUNK = 1 << 10, BODY_BYTES = 1 << 24 };
/* Smallest amount of work (multiply-adds or elements) worth one parallel chunk. */
enum { MIN_PARALLEL_WORK = 1 << 15 };

/* Rows per parallel chunk for rows costing `per_row` units of work each. */
static int64_t rows_per_chunk(int64_t per_row) {
  return per_row >= MIN_PARALLEL_WORK ? 1 : MIN_PARALLEL_WORK / (per_row > 0 ? per_row : 1);
}

/* Reads the f32 FLOAT attribute `name` (verified to exist). */
static float attr_f32(const hr_op *op, const char *name) {
  const hr_attr *a = hr_op_attr(op, name);
  return a && a->kind == HR_ATTR_FLOAT ? (float)a->u.f.value : 0.0f;
}

/* Reads the boolean attribute `name`; absent is false. */
static bool attr_bool(const hr_op *op, const char *name) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return false;
  return a->kind == HR_ATTR_BOOL ? a->u.b : a->kind == HR_ATTR_INT && a->u.i.value != 0;
}

/* Checks that tensor `t` is f32 with the given shape; `what` names it in errors. */
static hr_status want_f32_shape(const hr_op *op, const hr_tensor *t, const hr_shape *shape, const char *what) {
  bool ok = t->dtype == HR_F32 && t->shape.rank == shape->rank;
  for (int d = 0; ok && d < shape->rank; d++) ok = t->shape.dims[d] == shape->dims[d];
  return ok ? NULL : hr_op_error(op, HR_VERIFY_ERROR, "%s does not have the expected f32 shape", what);
}

/* ---------------------------------------------------------------------------------------------- */
/* Scalar bodies                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* A scalar body (region 0 of hlorun.matmul / hlorun.fused) prepared for chunked evaluation. Each
 * value of the body owns a "slot" of `chunk` floats: the arguments first, then one per body op. */
typedef struct body {
  hr_interp *in;
  const hr_block *block;
  int n_args;
  int n_ops;          /* body ops before the return */
  int64_t chunk;      /* elements per evaluation */
  int *operand_slots; /* per body op, its operands' slots, from operand_start[k] */
  int *operand_start; /* n_ops + 1 offsets */
  int result_slot;    /* the returned value's slot */
  hr_tensor *slots;   /* (n_args + n_ops) * chunk floats */
} body;

/* An op of a block and its position, for looking definitions up. */
typedef struct op_pos {
  const hr_op *op;
  int pos;
} op_pos;

/* Orders op_pos entries by op address. */
static int compare_op_pos(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const op_pos *)a)->op, y = (uintptr_t)((const op_pos *)b)->op;
  return x < y ? -1 : x > y;
}

/* The slot of body value `v` (verified to be an argument or a body op result). */
static int value_slot(const body *bd, const op_pos *sorted, const hr_value *v) {
  if (!v->def) return (int)v->index;
  op_pos key = {v->def, 0};
  const op_pos *hit = bsearch(&key, sorted, (size_t)bd->n_ops, sizeof *sorted, compare_op_pos);
  return hit ? bd->n_args + hit->pos : -1;
}

/* Frees what body_prepare allocated. */
static void body_release(body *bd) {
  const hr_allocator *a = bd->in->allocator;
  if (bd->operand_slots) a->free(a->ctx, bd->operand_slots);
  if (bd->operand_start) a->free(a->ctx, bd->operand_start);
  hr_tensor_free(bd->slots);
  memset(bd, 0, sizeof *bd);
}

/* Allocates `n` ints (at least one) with the interpreter's allocator. */
static int *alloc_ints(hr_interp *in, size_t n) {
  return in->allocator->alloc(in->allocator->ctx, (n ? n : 1) * sizeof(int), _Alignof(int));
}

/* Fills the slot of body constant `op` (a rank-0 f32 constant) with its value. */
static hr_status fill_constant(const body *bd, const hr_op *op, int slot) {
  const hr_attr *v = hr_op_attr(op, "value");
  const void *p = v && v->kind == HR_ATTR_DENSE ? hr_dense_element(v, 0) : NULL;
  if (!p || v->u.dense.type.dtype != HR_F32)
    return hr_op_error(op, HR_VERIFY_ERROR, "body constant is not an f32 scalar");
  float x;
  memcpy(&x, p, sizeof x);
  float *dst = (float *)bd->slots->data + slot * bd->chunk;
  for (int64_t i = 0; i < bd->chunk; i++) dst[i] = x;
  return NULL;
}

/* Maps every operand of the body ops to its slot and fills the constants' slots. */
static hr_status body_link(body *bd, const hr_op *owner, op_pos *sorted) {
  const hr_block *b = bd->block;
  int n = 0;
  for (int k = 0; k < bd->n_ops; k++) {
    const hr_op *op = b->ops[k];
    bd->operand_start[k] = n;
    if (op->code == HR_OP_CONSTANT) HR_TRY(fill_constant(bd, op, bd->n_args + k));
    else if (!bd->in->kernels[op->code]) return hr_op_error(op, HR_UNIMPLEMENTED, "no kernel implements this body op");
    for (int i = 0; i < op->n_operands; i++) bd->operand_slots[n++] = value_slot(bd, sorted, op->operands[i]);
  }
  bd->operand_start[bd->n_ops] = n;
  bd->result_slot = value_slot(bd, sorted, b->ops[b->n_ops - 1]->operands[0]);
  for (int i = 0; i < n; i++)
    if (bd->operand_slots[i] < 0) return hr_op_error(owner, HR_VERIFY_ERROR, "body reads a value it does not define");
  return bd->result_slot < 0 ? hr_op_error(owner, HR_VERIFY_ERROR, "body returns a value it does not define") : NULL;
}

/* Prepares region 0 of `owner` (a verified scalar body). Release with body_release, also after
 * an error. */
static hr_status body_prepare(body *bd, hr_interp *in, const hr_op *owner) {
  memset(bd, 0, sizeof *bd);
  bd->in = in;
  bd->block = &owner->regions[0];
  bd->n_args = bd->block->n_args;
  bd->n_ops = bd->block->n_ops - 1;
  if (bd->n_ops < 0) return hr_op_error(owner, HR_VERIFY_ERROR, "empty body");
  size_t n_operands = 0;
  for (int k = 0; k < bd->n_ops; k++) n_operands += (size_t)bd->block->ops[k]->n_operands;
  int64_t n_slots = (int64_t)bd->n_args + bd->n_ops;
  bd->chunk = BODY_BYTES / (int64_t)sizeof(float) / (n_slots > 0 ? n_slots : 1);
  bd->chunk = bd->chunk > CHUNK ? CHUNK : bd->chunk < MIN_CHUNK ? MIN_CHUNK : bd->chunk;
  hr_shape s = {.rank = 1, .dims = {n_slots * bd->chunk}};
  HR_TRY(hr_interp_alloc(in, owner, HR_F32, &s, &bd->slots));
  bd->operand_slots = alloc_ints(in, n_operands);
  bd->operand_start = alloc_ints(in, (size_t)bd->n_ops + 1);
  op_pos *sorted = in->allocator->alloc(in->allocator->ctx, (size_t)(bd->n_ops ? bd->n_ops : 1) * sizeof *sorted,
                                        _Alignof(op_pos));
  if (!bd->operand_slots || !bd->operand_start || !sorted) {
    if (sorted) in->allocator->free(in->allocator->ctx, sorted);
    return hr_op_error(owner, HR_OUT_OF_MEMORY, "out of memory preparing the body");
  }
  for (int k = 0; k < bd->n_ops; k++) sorted[k] = (op_pos){bd->block->ops[k], k};
  if (bd->n_ops) qsort(sorted, (size_t)bd->n_ops, sizeof *sorted, compare_op_pos);
  hr_status st = body_link(bd, owner, sorted);
  in->allocator->free(in->allocator->ctx, sorted);
  return st;
}

/* The floats of slot `slot`. */
static float *slot_data(const body *bd, int slot) { return (float *)bd->slots->data + slot * bd->chunk; }

/* A rank-1 f32 view of the first `n` floats of `data`. */
static hr_tensor view_f32(float *data, int64_t n) {
  hr_tensor t = {HR_F32, {.rank = 1, .dims = {n}}, data, (size_t)n * sizeof(float), NULL};
  return t;
}

/* Evaluates the body on the first `n` (<= chunk) elements of the argument slots, filled by the
 * caller; the result is in slot bd->result_slot. */
static hr_status body_run(const body *bd, int64_t n) {
  hr_tensor views[4];
  hr_tensor *ptrs[4];
  for (int k = 0; k < bd->n_ops; k++) {
    const hr_op *op = bd->block->ops[k];
    if (op->code == HR_OP_CONSTANT) continue;
    int first = bd->operand_start[k], count = bd->operand_start[k + 1] - first;
    if (count > 3) return hr_op_error(op, HR_UNIMPLEMENTED, "body ops take at most 3 operands");
    for (int i = 0; i < count; i++) {
      views[i] = view_f32(slot_data(bd, bd->operand_slots[first + i]), n);
      ptrs[i] = &views[i];
    }
    views[3] = view_f32(slot_data(bd, bd->n_args + k), n);
    ptrs[3] = &views[3];
    memset(views[3].data, 0, views[3].nbytes);
    HR_TRY(bd->in->kernels[op->code](bd->in, op, ptrs, &ptrs[3]));
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.matmul                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* Fills `n` floats of `dst` with elements [first, first + n) of epilogue operand `e` as seen
 * by an [M x N] result: a scalar, a per-column [N] vector, or a full [M x N] tensor. */
static void fill_epilogue_arg(float *dst, const hr_tensor *e, int64_t first, int64_t n, int64_t cols) {
  const float *src = e->data;
  if (e->shape.rank == 0) {
    for (int64_t i = 0; i < n; i++) dst[i] = src[0];
  } else if (e->shape.rank == 1) {
    for (int64_t i = 0, c = first % cols; i < n; i++, c = c + 1 == cols ? 0 : c + 1) dst[i] = src[c];
  } else {
    memcpy(dst, src + first, (size_t)n * sizeof *dst);
  }
}

/* Whether a scalar body only returns its first argument (no epilogue). */
static bool body_is_identity(const hr_block *b) {
  return b->n_ops == 1 && b->ops[0]->n_operands == 1 && b->ops[0]->operands[0] == &b->args[0];
}

/* Applies the epilogue of `op` to c [M x N] in place, chunk by chunk. */
static hr_status run_epilogue(hr_interp *in, const hr_op *op, hr_tensor *const *operands, float *c, int64_t total,
                              int64_t cols) {
  body bd;
  hr_status s = body_prepare(&bd, in, op);
  for (int64_t first = 0; !s && first < total; first += bd.chunk) {
    int64_t n = total - first < bd.chunk ? total - first : bd.chunk;
    memcpy(slot_data(&bd, 0), c + first, (size_t)n * sizeof(float));
    for (int i = 1; i < bd.n_args; i++) fill_epilogue_arg(slot_data(&bd, i), operands[i + 1], first, n, cols);
    s = body_run(&bd, n);
    if (!s) memcpy(c + first, slot_data(&bd, bd.result_slot), (size_t)n * sizeof(float));
  }
  body_release(&bd);
  return s;
}

/* Checks the epilogue operands against the result shape: rank 0, [N], or the result's shape. */
static hr_status check_epilogue_operands(const hr_op *op, hr_tensor *const *operands, const hr_shape *result) {
  hr_shape column = {.rank = 1, .dims = {result->dims[result->rank - 1]}}, scalar = {.rank = 0};
  for (int i = 2; i < op->n_operands; i++) {
    int rank = operands[i]->shape.rank;
    HR_TRY(want_f32_shape(op, operands[i], rank == 0 ? &scalar : rank == 1 ? &column : result, "an epilogue operand"));
  }
  return NULL;
}

/* The window of f32 matrix `b` at (row0, col0), rows x cols, copied into a new tensor. */
static hr_status copy_window(hr_interp *in, const hr_op *op, const hr_tensor *b, const int64_t *w, hr_tensor **out) {
  hr_shape shape = {.rank = 2, .dims = {w[2], w[3]}};
  HR_TRY(hr_interp_alloc(in, op, HR_F32, &shape, out));
  const float *src = b->data;
  for (int64_t r = 0; r < w[2]; r++)
    memcpy((float *)(*out)->data + r * w[3], src + (w[0] + r) * b->shape.dims[1] + w[1], (size_t)w[3] * sizeof(float));
  return NULL;
}

/* hlorun.matmul: y = epilogue(a . b, e1, ..., ek), b read through its b_window. */
static hr_status kernel_matmul(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_tensor *a = operands[0], *b = operands[1];
  hr_tensor *y = results[0];
  bool tb = attr_bool(op, "transpose_b");
  int rank = a->shape.rank;
  int64_t w[4];
  if (rank < 2 || b->shape.rank != 2) return hr_op_error(op, HR_VERIFY_ERROR, "a or b has a bad rank");
  if (b->dtype != HR_F32 || !hr_matmul_b_window(op, &b->shape, w))
    return hr_op_error(op, HR_VERIFY_ERROR, "b is not an f32 matrix holding its b_window");
  int64_t k = a->shape.dims[rank - 1], n = w[tb ? 2 : 3];
  hr_shape b_shape = {.rank = 2, .dims = {tb ? n : k, tb ? k : n}}, y_shape = a->shape;
  y_shape.dims[rank - 1] = n;
  HR_TRY(want_f32_shape(op, a, &a->shape, "a"));
  HR_TRY(want_f32_shape(op, y, &y_shape, "the result"));
  HR_TRY(check_epilogue_operands(op, operands, &y_shape));
  hr_tensor *window = NULL;
  bool whole = w[2] == b->shape.dims[0] && w[3] == b->shape.dims[1];
  if (!whole) HR_TRY(copy_window(in, op, b, w, &window));
  hr_status s = want_f32_shape(op, whole ? b : window, &b_shape, "b");
  int64_t total = hr_tensor_num_elements(y);
  if (!s && total > 0) {
    hr_red_dot_dims dd = {.nb = 0, .nc = 1, .lc = {rank - 1}, .rc = {tb ? 1 : 0}};
    memset(y->data, 0, y->nbytes);
    s = hr_red_contract(in, op, a, whole ? b : window, &dd, y);
    if (!s && !body_is_identity(&op->regions[0])) s = run_epilogue(in, op, operands, y->data, total, n);
  }
  hr_tensor_free(window);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.fused                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* How an operand of hlorun.fused maps onto the result: its element stride per result dimension
 * (0 where it is broadcast). */
typedef struct fused_input {
  const float *data;
  int64_t strides[HR_MAX_RANK];
  bool same_shape; /* laid out exactly like the result */
} fused_input;

/* Computes the result-space strides of operand `t` broadcast along `bd` onto `result`. */
static hr_status map_fused_input(const hr_op *op, int i, const hr_tensor *t, const hr_shape *result, fused_input *out) {
  const hr_attr *bds = hr_op_attr(op, "broadcast_dimensions");
  int64_t bd[HR_MAX_RANK], own[HR_MAX_RANK];
  int n_bd = 0;
  if (!bds || bds->kind != HR_ATTR_ARRAY || i >= bds->u.array.n)
    return hr_op_error(op, HR_VERIFY_ERROR, "missing broadcast_dimensions");
  HR_TRY(hr_attr_to_i64_list(bds->u.array.items[i], bd, HR_MAX_RANK, &n_bd));
  if (t->dtype != HR_F32 || n_bd != t->shape.rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "operand #%d does not match its broadcast dimensions", i);
  memset(out, 0, sizeof *out);
  out->data = t->data;
  out->same_shape = t->shape.rank == result->rank;
  hr_row_major_strides(&t->shape, own);
  for (int j = 0; j < n_bd; j++) {
    if (bd[j] < 0 || bd[j] >= result->rank || (t->shape.dims[j] != 1 && t->shape.dims[j] != result->dims[bd[j]]))
      return hr_op_error(op, HR_VERIFY_ERROR, "operand #%d does not match its broadcast dimensions", i);
    out->strides[bd[j]] = t->shape.dims[j] == 1 ? 0 : own[j];
    out->same_shape &= bd[j] == j && t->shape.dims[j] == result->dims[j];
  }
  return NULL;
}

/* Fills `n` floats of `dst` with the operand elements for result elements [first, first + n),
 * walking the result index like an odometer. */
static void fill_fused_arg(float *dst, const fused_input *x, const hr_shape *result, int64_t first, int64_t n) {
  if (x->same_shape) {
    memcpy(dst, x->data + first, (size_t)n * sizeof *dst);
    return;
  }
  int64_t idx[HR_MAX_RANK], offset = 0, rest = first;
  for (int d = result->rank - 1; d >= 0; d--) {
    idx[d] = rest % result->dims[d];
    rest /= result->dims[d];
    offset += idx[d] * x->strides[d];
  }
  for (int64_t i = 0; i < n; i++) {
    dst[i] = x->data[offset];
    for (int d = result->rank - 1; d >= 0; d--) {
      offset += x->strides[d];
      if (++idx[d] < result->dims[d]) break;
      offset -= idx[d] * x->strides[d];
      idx[d] = 0;
    }
  }
}

/* Runs the body of a hlorun.fused op over its result, chunk by chunk. */
static hr_status run_fused(hr_interp *in, const hr_op *op, const fused_input *inputs, hr_tensor *y) {
  body bd;
  hr_status s = body_prepare(&bd, in, op);
  int64_t total = hr_tensor_num_elements(y);
  float *out = y->data;
  for (int64_t first = 0; !s && first < total; first += bd.chunk) {
    int64_t n = total - first < bd.chunk ? total - first : bd.chunk;
    for (int i = 0; i < bd.n_args; i++) fill_fused_arg(slot_data(&bd, i), &inputs[i], &y->shape, first, n);
    s = body_run(&bd, n);
    if (!s) memcpy(out + first, slot_data(&bd, bd.result_slot), (size_t)n * sizeof(float));
  }
  body_release(&bd);
  return s;
}

/* hlorun.fused: y = body(x1, ..., xk), each operand broadcast onto y's shape. */
static hr_status kernel_fused(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  hr_tensor *y = results[0];
  if (y->dtype != HR_F32) return hr_op_error(op, HR_VERIFY_ERROR, "the result is not f32");
  const hr_allocator *a = in->allocator;
  fused_input *inputs = a->alloc(a->ctx, (size_t)op->n_operands * sizeof *inputs, _Alignof(fused_input));
  if (!inputs) return hr_op_error(op, HR_OUT_OF_MEMORY, "out of memory");
  hr_status st = NULL;
  for (int i = 0; !st && i < op->n_operands; i++) st = map_fused_input(op, i, operands[i], &y->shape, &inputs[i]);
  if (!st && hr_tensor_num_elements(y) > 0) st = run_fused(in, op, inputs, y);
  a->free(a->ctx, inputs);
  return st;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.softmax and hlorun.attention                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* stablehlo.maximum on f32: NaN-propagating, +0 above -0. */
static float max_f32(float x, float y) {
  if (x != x) return x;
  if (y != y) return y;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}

/* Softmax of row[0..n) in place, in JAX's f32 order (see the file comment). */
static void softmax_row(float *row, int64_t n) {
  float m = -INFINITY, sum = 0.0f;
  for (int64_t i = 0; i < n; i++) m = max_f32(m, row[i]);
  for (int64_t i = 0; i < n; i++) {
    row[i] = (float)exp((double)(row[i] - m));
    sum += row[i];
  }
  for (int64_t i = 0; i < n; i++) row[i] = row[i] / sum;
}

/* Rows of length `n` of x, softmaxed into y. */
typedef struct softmax_job {
  const float *x;
  float *y;
  int64_t n;
} softmax_job;

/* hr_parallel_fn over the rows of a softmax_job. */
static void softmax_rows(void *ctx, int64_t begin, int64_t end, int worker) {
  const softmax_job *j = ctx;
  (void)worker;
  for (int64_t r = begin; r < end; r++) {
    memcpy(j->y + r * j->n, j->x + r * j->n, (size_t)j->n * sizeof(float));
    softmax_row(j->y + r * j->n, j->n);
  }
}

/* hlorun.softmax over the last dimension. */
static hr_status kernel_softmax(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_tensor *x = operands[0];
  hr_tensor *y = results[0];
  int64_t total = hr_tensor_num_elements(y);
  if (x->shape.rank < 1) return hr_op_error(op, HR_VERIFY_ERROR, "x must have rank >= 1");
  HR_TRY(want_f32_shape(op, x, &y->shape, "x"));
  int64_t n = x->shape.dims[x->shape.rank - 1];
  if (total == 0) return NULL;
  softmax_job job = {x->data, y->data, n};
  hr_parallel_for(in->pool, total / n, rows_per_chunk(n * 8), softmax_rows, &job);
  return NULL;
}

/* One attention: q [B, S, H, D], k and v [B, T, H, D], o [B, S, H, D]; `scores` holds T floats
 * per pool participant. q, k and v are read through strides (floats between consecutive positions
 * and between batches), so that they may also be the three parts of one [B, S, 3, H, D] tensor. */
typedef struct attention_job {
  const float *q, *k, *v;
  float *o;
  int64_t s, t, h, d;
  int64_t q_pos, q_batch, kv_pos, kv_batch; /* strides of q, and of k and v */
  float scale;
  bool causal;
  const int32_t *position; /* [B]: the last key of each batch row, or NULL */
  float *scores;
} attention_job;

/* Computes output row (b, h, i) of an attention_job, rows numbered ((b * H) + h) * S + i. */
static void attention_row(const attention_job *j, int64_t row, float *scores) {
  int64_t i = row % j->s, bh = row / j->s, h = bh % j->h, b = bh / j->h;
  const float *q = j->q + b * j->q_batch + i * j->q_pos + h * j->d;
  float *o = j->o + ((b * j->s + i) * j->h + h) * j->d;
  int64_t last = j->position ? j->position[b] : j->t; /* keys after it are masked */
  for (int64_t t = 0; t < j->t; t++) {
    const float *k = j->k + b * j->kv_batch + t * j->kv_pos + h * j->d;
    float acc = 0.0f;
    for (int64_t e = 0; e < j->d; e++) acc += q[e] * k[e];
    scores[t] = (j->causal && t > i) || t > last ? -INFINITY : j->scale * acc;
    if (last < 0) scores[t] = 0.0f; /* every key masked: equal weights, as equal fill scores get */
  }
  softmax_row(scores, j->t);
  for (int64_t e = 0; e < j->d; e++) o[e] = 0.0f;
  for (int64_t t = 0; t < j->t; t++) {
    const float *v = j->v + b * j->kv_batch + t * j->kv_pos + h * j->d;
    for (int64_t e = 0; e < j->d; e++) o[e] += scores[t] * v[e];
  }
}

/* hr_parallel_fn over the rows of an attention_job. */
static void attention_rows(void *ctx, int64_t begin, int64_t end, int worker) {
  const attention_job *j = ctx;
  for (int64_t r = begin; r < end; r++) attention_row(j, r, j->scores + (int64_t)worker * j->t);
}

/* hlorun.attention: o = softmax(scale * q . k + mask) . v per batch and head; q, k, v given
 * separately or as one qkv [B, S, 3, H, D]. With a fourth operand position (i32 [B]) the keys
 * after position[b] are masked in batch row b (a decode step over its KV cache); when that masks
 * every key (position[b] < 0), every key gets the same weight. */
static hr_status kernel_attention(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  hr_tensor *o = results[0];
  attention_job job = {.scale = attr_f32(op, "scale"), .causal = attr_bool(op, "causal")};
  int64_t b, s, h, d, t;
  if (op->n_operands == 1) {
    const hr_tensor *qkv = operands[0];
    if (qkv->shape.rank != 5 || qkv->shape.dims[2] != 3)
      return hr_op_error(op, HR_VERIFY_ERROR, "qkv must have shape [B, S, 3, H, D]");
    b = qkv->shape.dims[0], s = t = qkv->shape.dims[1], h = qkv->shape.dims[3], d = qkv->shape.dims[4];
    HR_TRY(want_f32_shape(op, qkv, &qkv->shape, "qkv"));
    const float *x = qkv->data;
    job.q = x, job.k = x + h * d, job.v = x + 2 * h * d;
    job.q_pos = job.kv_pos = 3 * h * d;
    job.q_batch = job.kv_batch = s * 3 * h * d;
  } else {
    const hr_tensor *q = operands[0], *k = operands[1], *v = operands[2];
    if (op->n_operands == 4) {
      const hr_tensor *p = operands[3];
      if (p->dtype != HR_I32 || p->shape.rank != 1 || q->shape.rank < 1 || p->shape.dims[0] != q->shape.dims[0])
        return hr_op_error(op, HR_VERIFY_ERROR, "position must be i32 [B]");
      job.position = p->data;
    }
    if (q->shape.rank != 4 || k->shape.rank != 4) return hr_op_error(op, HR_VERIFY_ERROR, "q and k must have rank 4");
    b = q->shape.dims[0], s = q->shape.dims[1], h = q->shape.dims[2], d = q->shape.dims[3];
    t = k->shape.dims[1];
    hr_shape kv = {.rank = 4, .dims = {b, t, h, d}};
    HR_TRY(want_f32_shape(op, q, &q->shape, "q"));
    HR_TRY(want_f32_shape(op, k, &kv, "k"));
    HR_TRY(want_f32_shape(op, v, &kv, "v"));
    job.q = q->data, job.k = k->data, job.v = v->data;
    job.q_pos = job.kv_pos = h * d;
    job.q_batch = s * h * d;
    job.kv_batch = t * h * d;
  }
  hr_shape out = {.rank = 4, .dims = {b, s, h, d}};
  HR_TRY(want_f32_shape(op, o, &out, "the result"));
  if (hr_tensor_num_elements(o) == 0) return NULL;
  int64_t rows = b * h * s;
  int workers = in->pool ? hr_threadpool_size(in->pool) : 1;
  hr_shape shape = {.rank = 1, .dims = {(int64_t)workers * (t > 0 ? t : 1)}};
  hr_tensor *scores = NULL;
  HR_TRY(hr_interp_alloc(in, op, HR_F32, &shape, &scores));
  job.o = o->data, job.s = s, job.t = t, job.h = h, job.d = d, job.scores = scores->data;
  hr_parallel_for(in->pool, rows, rows_per_chunk(2 * t * d), attention_rows, &job);
  hr_tensor_free(scores);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.layer_norm                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Rows of length `n` of x normalised into y. */
typedef struct layer_norm_job {
  const float *x, *scale, *bias;
  float *y;
  int64_t n;
  double eps;
} layer_norm_job;

/* hr_parallel_fn over the rows of a layer_norm_job. */
static void layer_norm_rows(void *ctx, int64_t begin, int64_t end, int worker) {
  const layer_norm_job *j = ctx;
  (void)worker;
  for (int64_t r = begin; r < end; r++) {
    const float *x = j->x + r * j->n;
    float *y = j->y + r * j->n;
    double mean = 0.0, var = 0.0;
    for (int64_t i = 0; i < j->n; i++) mean += x[i];
    mean /= (double)j->n;
    for (int64_t i = 0; i < j->n; i++) var += ((double)x[i] - mean) * ((double)x[i] - mean);
    double root = sqrt(var / (double)j->n + j->eps);
    for (int64_t i = 0; i < j->n; i++) y[i] = (float)(((double)x[i] - mean) / root * j->scale[i] + j->bias[i]);
  }
}

/* hlorun.layer_norm over the last dimension. */
static hr_status kernel_layer_norm(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_tensor *x = operands[0];
  hr_tensor *y = results[0];
  int64_t total = hr_tensor_num_elements(y);
  if (x->shape.rank < 1) return hr_op_error(op, HR_VERIFY_ERROR, "x must have rank >= 1");
  int64_t n = x->shape.dims[x->shape.rank - 1];
  hr_shape vec = {.rank = 1, .dims = {n}};
  HR_TRY(want_f32_shape(op, x, &y->shape, "x"));
  HR_TRY(want_f32_shape(op, operands[1], &vec, "scale"));
  HR_TRY(want_f32_shape(op, operands[2], &vec, "bias"));
  if (total == 0) return NULL;
  layer_norm_job job = {x->data, operands[1]->data, operands[2]->data, y->data, n, (double)attr_f32(op, "epsilon")};
  hr_parallel_for(in->pool, total / n, rows_per_chunk(n * 4), layer_norm_rows, &job);
  return NULL;
}

const hr_kernel hr_kernels_hlorun[] = {
    {HR_OP_HLORUN_ATTENTION, kernel_attention},
    {HR_OP_HLORUN_FUSED, kernel_fused},
    {HR_OP_HLORUN_LAYER_NORM, kernel_layer_norm},
    {HR_OP_HLORUN_MATMUL, kernel_matmul},
    {HR_OP_HLORUN_SOFTMAX, kernel_softmax},
    {HR_OP_COUNT, NULL},
};

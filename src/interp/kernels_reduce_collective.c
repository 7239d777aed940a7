/* Collective ops (all_reduce, all_gather, reduce_scatter, all_to_all, collective_permute,
 * collective_broadcast, collective_reduce, cross-replica-sum, replica_id, partition_id).
 *
 * Inside a process grid (in->process set: interpreter.run_parallel, the SPMD executor) they have
 * the spec's semantics: each op finds its process group as docs/spec.md's "process groups"
 * section builds them from replica_groups (or source_target_pairs), its channel_handle and
 * use_global_device_ids
 *   all_reduce, reduce_scatter, all_gather, collective_reduce: channel <= 0: cross_replica;
 *     channel > 0: cross_replica_and_partition, or flattened_ids with use_global_device_ids;
 *   all_to_all, collective_permute, collective_broadcast: channel <= 0: cross_replica, else
 *     cross_partition;
 * (-1 entries pad ragged groups; no group at all means one group of every id, as in XLA), meets the
 * other members at a rendezvous (grid.h) and computes its own results from their operands.
 * Reductions combine the members in process-id order, as StableHLO's reference interpreter does.
 *
 * Without a grid the program runs as a single process (one replica, one partition): every process
 * group holds just this process, so reductions, gathers, scatters and exchanges of one block
 * return their operands, collective_permute returns its operand when the pair (0, 0) is listed
 * (zeros otherwise), replica_id and partition_id are 0; results whose shapes differ from the
 * operands' (a program written for several processes) are rejected. */
#include <string.h>

#include "base/limits.h"
#include "interp/elementwise.h"
#include "interp/grid.h"
#include "interp/reduce.h"

/* ---------------------------------------------------------------------------------------------- */
/* A single process                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* Checks that result i has operand i's type and copies it. */
static hr_status copy_through(const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  if (op->n_results > op->n_operands) return hr_op_error(op, HR_VERIFY_ERROR, "more results than operands");
  for (int i = 0; i < op->n_results; i++) {
    if (!hr_red_tensor_is(results[i], operands[i]->dtype, &operands[i]->shape))
      return hr_op_error(op, HR_UNIMPLEMENTED,
                         "result %d differs from its operand: a program for several processes runs in a process "
                         "grid (interpreter.run_parallel, or a module's mhlo.num_partitions/num_replicas)",
                         i);
    memcpy(results[i]->data, operands[i]->data, operands[i]->nbytes);
  }
  return NULL;
}

/* The source_target_pairs attribute: an N x 2 integer tensor. */
static hr_status read_pairs(const hr_op *op, const hr_attr **out, int64_t *n) {
  const hr_attr *a = hr_op_attr(op, "source_target_pairs");
  *out = a;
  *n = 0;
  if (!a) return NULL;
  if (a->kind != HR_ATTR_DENSE || a->u.dense.type.shape.rank != 2 || a->u.dense.type.shape.dims[1] != 2 ||
      !(hr_dtype_is_signed_int(a->u.dense.type.dtype) || hr_dtype_is_unsigned_int(a->u.dense.type.dtype)))
    return hr_op_error(op, HR_VERIFY_ERROR, "source_target_pairs must be an Nx2 integer tensor");
  *n = a->u.dense.type.shape.dims[0];
  return NULL;
}

/* Element i of an integer DENSE attribute. */
static int64_t dense_int(const hr_attr *a, int64_t i) {
  return hr_load_int(a->u.dense.type.dtype, hr_dense_element(a, i), 0);
}

/* collective_permute of one process: its operand when (0, 0) is listed. */
static hr_status permute_alone(const hr_op *op, hr_tensor *const *operands, hr_tensor **results) {
  const hr_attr *pairs;
  int64_t n;
  HR_TRY(read_pairs(op, &pairs, &n));
  for (int64_t p = 0; p < n; p++)
    if (dense_int(pairs, 2 * p) == 0 && dense_int(pairs, 2 * p + 1) == 0) {
      memcpy(results[0]->data, operands[0]->data, operands[0]->nbytes);
      break;
    }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Process groups                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* How an op's id groups name processes (docs/spec.md, "process groups"). */
typedef enum group_mode { CROSS_REPLICA, CROSS_PARTITION, CROSS_REPLICA_AND_PARTITION, FLATTENED_IDS } group_mode;

/* The mode of all_reduce, reduce_scatter, all_gather and collective_reduce. */
static hr_status reduce_mode(const hr_op *op, group_mode *mode) {
  const hr_attr *g = hr_op_attr(op, "use_global_device_ids"); /* a unit attribute */
  bool global = g && (g->kind == HR_ATTR_UNIT || (g->kind == HR_ATTR_BOOL && g->u.b));
  bool channel = hr_grid_channel(op) > 0;
  if (global && !channel) return hr_op_error(op, HR_VERIFY_ERROR, "use_global_device_ids needs a channel_handle > 0");
  *mode = global ? FLATTENED_IDS : channel ? CROSS_REPLICA_AND_PARTITION : CROSS_REPLICA;
  return NULL;
}

/* The mode of all_to_all, collective_permute and collective_broadcast. */
static group_mode exchange_mode(const hr_op *op) { return hr_grid_channel(op) > 0 ? CROSS_PARTITION : CROSS_REPLICA; }

/* An op's id groups: a G x W integer tensor, -1 padding ragged rows; none means one group of all. */
typedef struct id_groups {
  const hr_attr *a; /* NULL: one group of every id */
  int64_t n, width;
  int64_t limit; /* ids run over [0, limit) */
} id_groups;

static hr_status read_groups(const hr_op *op, const char *name, int64_t limit, id_groups *g) {
  const hr_attr *a = hr_op_attr(op, name);
  *g = (id_groups){NULL, 1, limit, limit};
  if (!a) return NULL;
  if (a->kind != HR_ATTR_DENSE || a->u.dense.type.shape.rank != 2 ||
      !(hr_dtype_is_signed_int(a->u.dense.type.dtype) || hr_dtype_is_unsigned_int(a->u.dense.type.dtype)))
    return hr_op_error(op, HR_VERIFY_ERROR, "%s must be a rank-2 integer tensor", name);
  if (a->u.dense.type.shape.dims[0] == 0 || a->u.dense.type.shape.dims[1] == 0) return NULL;
  *g = (id_groups){a, a->u.dense.type.shape.dims[0], a->u.dense.type.shape.dims[1], limit};
  return NULL;
}

/* Id j of group i (-1: padding); an error naming `op` when out of range. */
static hr_status group_id(const hr_op *op, const id_groups *g, int64_t i, int64_t j, int64_t *id) {
  *id = g->a ? dense_int(g->a, i * g->width + j) : j;
  if (*id < -1 || *id >= g->limit)
    return hr_op_error(op, HR_OUT_OF_RANGE, "process group id %lld is outside [0, %lld)", (long long)*id,
                       (long long)g->limit);
  return NULL;
}

/* The first group listing `id`, or -1. */
static hr_status group_holding(const hr_op *op, const id_groups *g, int64_t id, int64_t *which) {
  *which = -1;
  for (int64_t i = 0; i < g->n && *which < 0; i++)
    for (int64_t j = 0; j < g->width; j++) {
      int64_t v;
      HR_TRY(group_id(op, g, i, j, &v));
      if (v == id) {
        *which = i;
        break;
      }
    }
  return NULL;
}

/* A process group: its members in order and this process's slot. */
typedef struct pgroup {
  hr_pid ids[HR_LIMIT_PROCESSES];
  int n, self;
} pgroup;

/* Appends `id` to the group; a process listed twice (or more processes than the grid has) is an
 * error. */
static hr_status group_add(const hr_op *op, pgroup *pg, hr_pid id) {
  for (int k = 0; k < pg->n; k++)
    if (pg->ids[k].replica == id.replica && pg->ids[k].partition == id.partition)
      return hr_op_error(op, HR_VERIFY_ERROR, "a process group lists process (%u, %u) twice", id.replica, id.partition);
  if (pg->n >= HR_LIMIT_PROCESSES) return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "a process group is too large");
  pg->ids[pg->n++] = id;
  return NULL;
}

/* The process group of `self` that `mode` builds from group `which` of `g`. */
static hr_status build_group(const hr_op *op, group_mode mode, const id_groups *g, int64_t which, hr_pid self,
                             uint32_t partitions, pgroup *pg) {
  pg->n = 0;
  pg->self = -1;
  uint32_t outer = mode == CROSS_REPLICA_AND_PARTITION ? partitions : 1;
  for (uint32_t p = 0; p < outer; p++)
    for (int64_t j = 0; j < g->width; j++) {
      int64_t v;
      HR_TRY(group_id(op, g, which, j, &v));
      if (v < 0) continue;
      hr_pid id = self;
      if (mode == CROSS_REPLICA) id.replica = (uint32_t)v;
      if (mode == CROSS_PARTITION) id.partition = (uint32_t)v;
      if (mode == CROSS_REPLICA_AND_PARTITION) id = (hr_pid){(uint32_t)v, p};
      if (mode == FLATTENED_IDS) id = (hr_pid){(uint32_t)(v / partitions), (uint32_t)(v % partitions)};
      if (id.replica == self.replica && id.partition == self.partition) pg->self = pg->n;
      HR_TRY(group_add(op, pg, id));
    }
  return NULL;
}

/* The process group holding this process; pg->n = 0 when no group does. */
static hr_status find_group(const hr_interp *in, const hr_op *op, group_mode mode, const char *attr, pgroup *pg) {
  const hr_process *p = in->process;
  uint32_t R = hr_grid_replicas(p->grid), P = hr_grid_partitions(p->grid);
  int64_t limit = mode == CROSS_PARTITION ? P : mode == FLATTENED_IDS ? (int64_t)R * P : R;
  int64_t self_id = mode == CROSS_PARTITION ? p->id.partition
                    : mode == FLATTENED_IDS ? (int64_t)p->id.replica * P + p->id.partition
                                            : p->id.replica;
  id_groups g;
  HR_TRY(read_groups(op, attr, limit, &g));
  int64_t which;
  HR_TRY(group_holding(op, &g, self_id, &which));
  pg->n = 0;
  return which < 0 ? NULL : build_group(op, mode, &g, which, p->id, P, pg);
}

/* Allocates a process group (too large for the stack). */
static hr_status group_alloc(hr_interp *in, pgroup **out) {
  *out = in->allocator->alloc(in->allocator->ctx, sizeof **out, _Alignof(pgroup));
  return *out ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory");
}

static void group_free(hr_interp *in, pgroup *pg) { in->allocator->free(in->allocator->ctx, pg); }

/* The group holding this process, which must exist. */
static hr_status required_group(hr_interp *in, const hr_op *op, group_mode mode, pgroup *pg) {
  HR_TRY(find_group(in, op, mode, "replica_groups", pg));
  if (pg->n == 0)
    return hr_op_error(op, HR_INVALID_ARGUMENT, "no process group holds process (%u, %u)", in->process->id.replica,
                       in->process->id.partition);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Members' operands                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Joins the rendezvous of `op` in group `pg` with `operands`. */
static hr_status meet(hr_interp *in, const hr_op *op, const pgroup *pg, hr_tensor *const *operands, int n,
                      hr_rendezvous **rv) {
  return hr_grid_rendezvous(in->process, op, op->code, hr_grid_channel(op), pg->ids, pg->n, pg->self, operands, n, rv);
}

/* Checks that every member gave `n` operands with the dtypes and shapes of this process's. */
static hr_status check_members(const hr_op *op, const pgroup *pg, const hr_rendezvous *rv, hr_tensor *const *own,
                               int n) {
  for (int m = 0; m < pg->n; m++) {
    hr_tensor *const *theirs;
    int count = hr_rendezvous_operands(rv, m, &theirs);
    if (count != n)
      return hr_op_error(op, HR_INVALID_ARGUMENT, "process (%u, %u) gave %d operands, this process %d",
                         pg->ids[m].replica, pg->ids[m].partition, count, n);
    for (int i = 0; i < n; i++) {
      if (hr_red_tensor_is(theirs[i], own[i]->dtype, &own[i]->shape)) continue;
      char a[96], b[96];
      return hr_op_error(op, HR_INVALID_ARGUMENT, "process (%u, %u) gave operand %d as %s %s, this process as %s %s",
                         pg->ids[m].replica, pg->ids[m].partition, i, hr_dtype_name(theirs[i]->dtype),
                         hr_red_shape_str(&theirs[i]->shape, a, sizeof a), hr_dtype_name(own[i]->dtype),
                         hr_red_shape_str(&own[i]->shape, b, sizeof b));
    }
  }
  return NULL;
}

/* Meets the group and checks the members' operands; on success the caller leaves `*rv`. */
static hr_status gather_members(hr_interp *in, const hr_op *op, const pgroup *pg, hr_tensor *const *operands, int n,
                                hr_rendezvous **rv) {
  HR_TRY(meet(in, op, pg, operands, n, rv));
  hr_status s = check_members(op, pg, *rv, operands, n);
  if (s) {
    hr_grid_leave(in->process, *rv);
    *rv = NULL;
  }
  return s;
}

/* Copies the box of extent `box` at `src_at` in `src` to `dst_at` in `dst` (same dtype and rank). */
static void copy_box(const hr_tensor *src, const int64_t *src_at, hr_tensor *dst, const int64_t *dst_at,
                     const int64_t *box) {
  int rank = src->shape.rank;
  size_t es = hr_dtype_size(src->dtype);
  hr_shape outer = {0};
  outer.rank = rank > 0 ? rank - 1 : 0;
  for (int d = 0; d < outer.rank; d++) outer.dims[d] = box[d];
  for (int d = 0; d < rank; d++)
    if (box[d] == 0) return;
  int64_t ss[HR_MAX_RANK], ds[HR_MAX_RANK], idx[HR_MAX_RANK] = {0};
  hr_row_major_strides(&src->shape, ss);
  hr_row_major_strides(&dst->shape, ds);
  size_t row = rank > 0 ? (size_t)box[rank - 1] * es : es;
  do {
    int64_t so = 0, dof = 0;
    for (int d = 0; d < rank; d++) {
      int64_t k = d < outer.rank ? idx[d] : 0;
      so += (src_at[d] + k) * ss[d];
      dof += (dst_at[d] + k) * ds[d];
    }
    memcpy((char *)dst->data + (size_t)dof * es, (const char *)src->data + (size_t)so * es, row);
  } while (hr_next_index(&outer, idx));
}

/* Checks that `result` is `operand`'s shape with dimension `dim` scaled by `num` / `den`. */
static hr_status check_scaled(const hr_op *op, const hr_tensor *operand, const hr_tensor *result, int64_t dim,
                              int64_t num, int64_t den, int i) {
  bool ok = result->dtype == operand->dtype && result->shape.rank == operand->shape.rank && dim >= 0 &&
            dim < operand->shape.rank && operand->shape.dims[dim] % den == 0;
  for (int d = 0; ok && d < operand->shape.rank; d++) {
    int64_t want = d == dim ? operand->shape.dims[d] / den * num : operand->shape.dims[d];
    ok = result->shape.dims[d] == want;
  }
  if (ok) return NULL;
  return hr_op_error(op, HR_VERIFY_ERROR, "result %d does not fit operand %d over a group of this size", i, i);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reductions                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* The members' slots in process-id order (the order reductions combine them in). */
static void sorted_slots(const pgroup *pg, int *order) {
  for (int m = 0; m < pg->n; m++) {
    int k = m;
    while (k > 0) {
      hr_pid a = pg->ids[order[k - 1]], b = pg->ids[m];
      if (a.replica < b.replica || (a.replica == b.replica && a.partition < b.partition)) break;
      order[k] = order[k - 1];
      k--;
    }
    order[k] = m;
  }
}

/* dst = region(...region(x[0], x[1])..., x[n-1]) elementwise over operand i of every member in
 * process-id order. */
static hr_status reduce_members(hr_interp *in, const hr_op *op, const pgroup *pg, const hr_rendezvous *rv, int i,
                                hr_tensor *dst) {
  int *order = in->allocator->alloc(in->allocator->ctx, sizeof *order * (size_t)pg->n, _Alignof(int));
  if (!order) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  sorted_slots(pg, order);
  hr_red_reducer r;
  hr_status s = hr_red_reducer_init(&r, in, op, 0, 1, &dst->dtype);
  if (!s && r.acc_types[0] != dst->dtype)
    s = hr_op_error(op, HR_VERIFY_ERROR, "the reduction body's type differs from operand %d's", i);
  size_t es = hr_dtype_size(dst->dtype);
  int64_t count = hr_tensor_num_elements(dst);
  hr_tensor *const *first;
  hr_rendezvous_operands(rv, order[0], &first);
  if (!s) memcpy(dst->data, first[i]->data, dst->nbytes);
  bool whole = r.fast != HR_OP_COUNT && r.acc_types[0] == dst->dtype && r.x_types[0] == dst->dtype;
  for (int m = 1; m < pg->n && !s; m++) {
    hr_tensor *const *x;
    hr_rendezvous_operands(rv, order[m], &x);
    if (whole) { /* a one-op body: the elementwise kernel's loop over the whole operand */
      s = hr_elementwise_binary_array(r.fast_op, r.fast, dst->dtype, dst->data, x[i]->data, dst->data, count);
      continue;
    }
    for (int64_t e = 0; e < count && !s; e++) {
      void *acc = (char *)dst->data + (size_t)e * es;
      const void *xe = (const char *)x[i]->data + (size_t)e * es;
      s = hr_red_reducer_apply(&r, &acc, &xe);
    }
  }
  hr_red_reducer_release(&r);
  in->allocator->free(in->allocator->ctx, order);
  return s;
}

/* all_reduce in a grid. */
static hr_status all_reduce(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                            pgroup *pg) {
  group_mode mode = CROSS_REPLICA;
  HR_TRY(reduce_mode(op, &mode));
  HR_TRY(required_group(in, op, mode, pg));
  for (int i = 0; i < op->n_results; i++)
    if (!hr_red_tensor_is(results[i], operands[i]->dtype, &operands[i]->shape))
      return hr_op_error(op, HR_VERIFY_ERROR, "result %d must have operand %d's type", i, i);
  hr_rendezvous *rv;
  HR_TRY(gather_members(in, op, pg, operands, op->n_operands, &rv));
  hr_status s = NULL;
  for (int i = 0; i < op->n_results && !s; i++) s = reduce_members(in, op, pg, rv, i, results[i]);
  hr_grid_leave(in->process, rv);
  return s;
}

/* reduce_scatter in a grid: the all-reduced operand, split along scatter_dimension into one part
 * per member; this process keeps the part of its slot. */
static hr_status reduce_scatter(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                                pgroup *pg) {
  group_mode mode = CROSS_REPLICA;
  HR_TRY(reduce_mode(op, &mode));
  HR_TRY(required_group(in, op, mode, pg));
  const hr_attr *dim_attr = hr_op_attr(op, "scatter_dimension");
  int64_t dim = dim_attr && dim_attr->kind == HR_ATTR_INT ? dim_attr->u.i.value : -1;
  HR_TRY(check_scaled(op, operands[0], results[0], dim, 1, pg->n, 0));
  hr_tensor *reduced;
  HR_TRY(hr_interp_alloc(in, op, operands[0]->dtype, &operands[0]->shape, &reduced));
  hr_rendezvous *rv;
  hr_status s = gather_members(in, op, pg, operands, 1, &rv);
  if (!s) {
    s = reduce_members(in, op, pg, rv, 0, reduced);
    hr_grid_leave(in->process, rv);
  }
  if (!s) {
    int64_t at[HR_MAX_RANK] = {0}, zero[HR_MAX_RANK] = {0};
    at[dim] = results[0]->shape.dims[dim] * pg->self;
    copy_box(reduced, at, results[0], zero, results[0]->shape.dims);
  }
  hr_tensor_free(reduced);
  return s;
}

/* collective_reduce in a grid: the group's first member (its root) receives the reduction, the
 * others and processes in no group zeros. */
static hr_status collective_reduce(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                                   pgroup *pg) {
  bool dynamic_root = false;
  HR_TRY(hr_red_read_bool(op, "has_dynamic_root", false, &dynamic_root));
  if (dynamic_root) return hr_op_error(op, HR_UNIMPLEMENTED, "a dynamic root is not supported");
  group_mode mode = CROSS_REPLICA;
  HR_TRY(reduce_mode(op, &mode));
  HR_TRY(find_group(in, op, mode, "replica_groups", pg));
  if (pg->n == 0) return NULL;
  hr_rendezvous *rv;
  HR_TRY(gather_members(in, op, pg, operands, op->n_operands, &rv));
  hr_status s = NULL;
  for (int i = 0; i < op->n_results && !s && pg->self == 0; i++) {
    if (!hr_red_tensor_is(results[i], operands[i]->dtype, &operands[i]->shape))
      s = hr_op_error(op, HR_VERIFY_ERROR, "result %d must have operand %d's type", i, i);
    else
      s = reduce_members(in, op, pg, rv, i, results[i]);
  }
  hr_grid_leave(in->process, rv);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Data exchange                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* all_gather in a grid: every member's operand concatenated along all_gather_dim in group order. */
static hr_status all_gather(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                            pgroup *pg) {
  group_mode mode = CROSS_REPLICA;
  HR_TRY(reduce_mode(op, &mode));
  HR_TRY(required_group(in, op, mode, pg));
  const hr_attr *dim_attr = hr_op_attr(op, "all_gather_dim");
  int64_t dim = dim_attr && dim_attr->kind == HR_ATTR_INT ? dim_attr->u.i.value : -1;
  for (int i = 0; i < op->n_results; i++) HR_TRY(check_scaled(op, operands[i], results[i], dim, pg->n, 1, i));
  hr_rendezvous *rv;
  HR_TRY(gather_members(in, op, pg, operands, op->n_operands, &rv));
  for (int m = 0; m < pg->n; m++) {
    hr_tensor *const *theirs;
    hr_rendezvous_operands(rv, m, &theirs);
    for (int i = 0; i < op->n_results; i++) {
      int64_t zero[HR_MAX_RANK] = {0}, at[HR_MAX_RANK] = {0};
      at[dim] = operands[i]->shape.dims[dim] * m;
      copy_box(theirs[i], zero, results[i], at, operands[i]->shape.dims);
    }
  }
  hr_grid_leave(in->process, rv);
  return NULL;
}

/* An integer attribute of `op`, required. */
static hr_status int_attr(const hr_op *op, const char *name, int64_t *out) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a || a->kind != HR_ATTR_INT) return hr_op_error(op, HR_VERIFY_ERROR, "missing integer attribute '%s'", name);
  *out = a->u.i.value;
  return NULL;
}

/* all_to_all in a grid: every member splits its operand along split_dimension into split_count
 * parts and sends part k to the group's k-th member, which concatenates the parts it receives
 * along concat_dimension in group order. */
static hr_status all_to_all(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                            pgroup *pg) {
  HR_TRY(required_group(in, op, exchange_mode(op), pg));
  int64_t split = 0, concat = 0, count = 0;
  HR_TRY(int_attr(op, "split_dimension", &split));
  HR_TRY(int_attr(op, "concat_dimension", &concat));
  HR_TRY(int_attr(op, "split_count", &count));
  if (count != pg->n)
    return hr_op_error(op, HR_INVALID_ARGUMENT, "split_count is %lld but the process group has %d members",
                       (long long)count, pg->n);
  for (int i = 0; i < op->n_operands; i++) {
    const hr_shape *s = &operands[i]->shape;
    if (split < 0 || split >= s->rank || concat < 0 || concat >= s->rank || s->dims[split] % count != 0)
      return hr_op_error(op, HR_VERIFY_ERROR, "operand %d does not split into %lld parts", i, (long long)count);
  }
  hr_rendezvous *rv;
  HR_TRY(gather_members(in, op, pg, operands, op->n_operands, &rv));
  for (int i = 0; i < op->n_results; i++) {
    int64_t part[HR_MAX_RANK];
    memcpy(part, operands[i]->shape.dims, sizeof part);
    part[split] /= count;
    for (int m = 0; m < pg->n; m++) {
      hr_tensor *const *theirs;
      hr_rendezvous_operands(rv, m, &theirs);
      int64_t from[HR_MAX_RANK] = {0}, to[HR_MAX_RANK] = {0};
      from[split] = part[split] * pg->self;
      to[concat] = part[concat] * m;
      copy_box(theirs[i], from, results[i], to, part);
    }
  }
  hr_grid_leave(in->process, rv);
  return NULL;
}

/* collective_permute in a grid: for each pair (source, target) naming this process, in order, the
 * two meet and the target receives the source's operand; a process that receives nothing gets
 * zeros. */
static hr_status collective_permute(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                                    pgroup *pg) {
  const hr_attr *pairs;
  int64_t n;
  HR_TRY(read_pairs(op, &pairs, &n));
  group_mode mode = exchange_mode(op);
  const hr_process *p = in->process;
  int64_t limit = mode == CROSS_PARTITION ? hr_grid_partitions(p->grid) : hr_grid_replicas(p->grid);
  int64_t me = mode == CROSS_PARTITION ? p->id.partition : p->id.replica;
  id_groups g = {pairs, n, 2, limit};
  for (int64_t k = 0; k < n; k++) {
    int64_t from, to;
    HR_TRY(group_id(op, &g, k, 0, &from));
    HR_TRY(group_id(op, &g, k, 1, &to));
    if (from < 0 || to < 0) return hr_op_error(op, HR_OUT_OF_RANGE, "source_target_pairs holds a negative id");
    if (from != me && to != me) continue;
    if (from == to) {
      memcpy(results[0]->data, operands[0]->data, operands[0]->nbytes);
      continue;
    }
    HR_TRY(build_group(op, mode, &g, k, p->id, hr_grid_partitions(p->grid), pg));
    hr_rendezvous *rv;
    HR_TRY(gather_members(in, op, pg, operands, 1, &rv));
    hr_tensor *const *source;
    hr_rendezvous_operands(rv, 0, &source);
    if (to == me) memcpy(results[0]->data, source[0]->data, results[0]->nbytes);
    hr_grid_leave(p, rv);
  }
  return NULL;
}

/* collective_broadcast in a grid: every member receives the operands of its group's first member;
 * processes in no group get zeros. */
static hr_status collective_broadcast(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                                      pgroup *pg) {
  bool dynamic_root = false;
  HR_TRY(hr_red_read_bool(op, "has_dynamic_root", false, &dynamic_root));
  if (dynamic_root) return hr_op_error(op, HR_UNIMPLEMENTED, "a dynamic root is not supported");
  HR_TRY(find_group(in, op, exchange_mode(op), "replica_groups", pg));
  if (pg->n == 0) return NULL;
  hr_rendezvous *rv;
  HR_TRY(gather_members(in, op, pg, operands, op->n_operands, &rv));
  hr_tensor *const *root;
  hr_rendezvous_operands(rv, 0, &root);
  for (int i = 0; i < op->n_results; i++) memcpy(results[i]->data, root[i]->data, results[i]->nbytes);
  hr_grid_leave(in->process, rv);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Kernels                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

typedef hr_status (*grid_collective)(hr_interp *in, const hr_op *op, hr_tensor *const *operands, hr_tensor **results,
                                     pgroup *pg);

/* Runs `fn` with a scratch process group, once the op has one result per operand (exactly one
 * for reduce_scatter and collective_permute). */
static hr_status with_group(grid_collective fn, hr_interp *in, const hr_op *op, hr_tensor *const *operands,
                            hr_tensor **results) {
  if (op->n_results != op->n_operands || op->n_operands < 1 ||
      ((op->code == HR_OP_REDUCE_SCATTER || op->code == HR_OP_COLLECTIVE_PERMUTE) && op->n_operands != 1))
    return hr_op_error(op, HR_VERIFY_ERROR, "unexpected number of operands or results");
  pgroup *pg;
  HR_TRY(group_alloc(in, &pg));
  hr_status s = fn(in, op, operands, results, pg);
  group_free(in, pg);
  return s;
}

/* The grid semantics of each collective op, or NULL. */
static grid_collective grid_kernel_of(hr_opcode code) {
  switch (code) {
    case HR_OP_ALL_REDUCE: return all_reduce;
    case HR_OP_REDUCE_SCATTER: return reduce_scatter;
    case HR_OP_COLLECTIVE_REDUCE: return collective_reduce;
    case HR_OP_ALL_GATHER: return all_gather;
    case HR_OP_ALL_TO_ALL: return all_to_all;
    case HR_OP_COLLECTIVE_PERMUTE: return collective_permute;
    case HR_OP_COLLECTIVE_BROADCAST: return collective_broadcast;
    default: return NULL;
  }
}

/* Every collective op except collective_permute: the grid semantics in a grid, else one process. */
HR_RED_KERNEL(hr_red_kernel_collective) {
  if (!in->process) return copy_through(op, operands, results);
  grid_collective fn = grid_kernel_of(op->code);
  if (!fn) return hr_op_error(op, HR_UNIMPLEMENTED, "this collective is not run in a process grid");
  return with_group(fn, in, op, operands, results);
}

/* collective_permute. */
HR_RED_KERNEL(hr_red_kernel_collective_permute) {
  if (op->n_operands != 1 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects one operand");
  if (!hr_red_tensor_is(results[0], operands[0]->dtype, &operands[0]->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "result must have the operand's type");
  if (!in->process) return permute_alone(op, operands, results);
  return with_group(collective_permute, in, op, operands, results);
}

/* replica_id and partition_id: this process's (0 outside a grid: the result is zero-filled). */
HR_RED_KERNEL(hr_red_kernel_process_id) {
  (void)operands;
  if (op->n_results != 1 || hr_tensor_num_elements(results[0]) != 1 || hr_dtype_is_float(results[0]->dtype))
    return hr_op_error(op, HR_VERIFY_ERROR, "expects one integer scalar result");
  if (!in->process) return NULL;
  const hr_pid *id = &in->process->id;
  hr_store_int(results[0]->dtype, results[0]->data, 0, op->code == HR_OP_REPLICA_ID ? id->replica : id->partition);
  return NULL;
}

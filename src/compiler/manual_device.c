/* sdy.manual_computation as the code of one device of an SPMD run (runtime/spmd.c compiles the
 * program once per device and runs each on its own thread). Every device runs the whole function,
 * so what lies outside manual computations computes the same global values on each; a manual
 * computation becomes the device's own part of the work:
 *   - each operand is cut to the device's piece (a static slice: the device is known when it is
 *     compiled);
 *   - the body is emitted once: its collectives, partition_id and replica_id keep their meaning
 *     and meet the other devices at run time;
 *   - each result is made whole again by one all_gather per dimension its out_sharding cuts, among
 *     the devices that hold the pieces along that dimension, in piece order (devices differing only
 *     along axes the result is replicated over hold the same piece and gather alike).
 * The devices are the mesh's, numbered row-major over all its axes as partition ids; the module's
 * mhlo.num_partitions must be their number. */
#include <string.h>

#include "compiler/manual.h"

/* Checks that the run's partitions are the mesh's devices, and the device one of them. */
static hr_status check_partitions(const hc_ctx *c, const hc_manual *m) {
  const hr_attr *a = c->src->attrs ? hr_attr_field(c->src->attrs, "mhlo.num_partitions") : NULL;
  int64_t partitions = a && a->kind == HR_ATTR_INT ? a->u.i.value : 1;
  if (partitions != m->n_devices)
    return hr_op_error(m->src, HR_INVALID_ARGUMENT,
                       "the mesh has %lld devices but the module's mhlo.num_partitions is %lld: a device's code "
                       "needs one partition per device of the mesh",
                       (long long)m->n_devices, (long long)partitions);
  if (c->device < 0 || c->device >= m->n_devices)
    return hr_op_error(m->src, HR_INVALID_ARGUMENT, "device %lld is not one of the mesh's %lld", (long long)c->device,
                       (long long)m->n_devices);
  return NULL;
}

/* The attributes that make an all_gather's groups name partition ids (a channel and
 * use_global_device_ids, flattened ids: with one replica, a device's id is its partition). */
static hr_status set_global_ids(hc_ctx *c, hr_op *op) {
  hr_attr *handle = hr_attr_new(c->dst, HR_ATTR_INT), *type = hr_attr_new(c->dst, HR_ATTR_INT),
          *unit = hr_attr_new(c->dst, HR_ATTR_UNIT);
  if (!handle || !type || !unit) return hc_oom();
  handle->u.i.value = 1; /* any channel > 0: the devices meet op after op in the same order */
  type->u.i.value = 1;   /* DEVICE_TO_DEVICE */
  hr_attr *ch = hr_attr_channel_handle(c->dst, handle, type);
  if (!ch) return hc_oom();
  HR_TRY(hc_op_set_attr(c, op, "channel_handle", ch));
  return hc_op_set_attr(c, op, "use_global_device_ids", unit);
}

/* Whether devices d and e sit at the same coordinates along every mesh axis but those in `skip`. */
static bool same_coords(const hc_manual *m, int64_t d, int64_t e, const bool *skip) {
  for (int a = 0; a < m->mesh.n_axes; a++)
    if (!skip[a] && m->coord[d][a] != m->coord[e][a]) return false;
  return true;
}

/* The groups of devices that hold the count_k pieces of a value sharded as `s` along dimension k:
 * devices at the same coordinates along every axis but k's manual ones gather together, each at its piece's
 * index along k. A dense i64 attribute of (devices / count_k) x count_k partition ids. */
static hr_status gather_groups(hc_ctx *c, const hc_manual *m, const hr_sdy_sharding *s, const hr_type *global, int k,
                               int64_t count_k, hr_attr **out) {
  bool along_k[HR_LIMIT_SDY_AXES] = {false};
  for (int j = 0; j < s->n_axes[k]; j++) {
    int a = hr_sdy_axis_index(&m->mesh, s->axes[k][j].name);
    if (a >= 0 && m->is_manual[a]) along_k[a] = true; /* a free axis does not cut the value */
  }
  int64_t n = m->n_devices, rows = 0, row[HR_LIMIT_SDY_DEVICES], count[HR_MAX_RANK], index[HR_MAX_RANK];
  int64_t *ids = HR_ARENA_ARRAY(&c->dst->arena, int64_t, (size_t)n);
  hr_attr *a = hr_attr_new(c->dst, HR_ATTR_DENSE);
  if (!ids || !a) return hc_oom();
  for (int64_t i = 0; i < n; i++) ids[i] = -1;
  for (int64_t d = 0; d < n; d++) {
    HR_TRY(hc_manual_shard_of(m, s, global, d, count, index));
    row[d] = -1;
    for (int64_t e = 0; e < d && row[d] < 0; e++)
      if (same_coords(m, d, e, along_k)) row[d] = row[e];
    if (row[d] < 0) row[d] = rows++;
    int64_t slot = row[d] * count_k + index[k];
    if (rows * count_k > n || ids[slot] >= 0)
      return hr_op_error(m->src, HR_INTERNAL, "devices do not form groups of %lld pieces along dimension %d",
                         (long long)count_k, k);
    ids[slot] = hc_manual_device_id(m, d);
  }
  int64_t dims[2] = {n / count_k, count_k};
  a->u.dense.type = hr_tensor_type(HR_I64, 2, dims);
  a->u.dense.data = ids;
  a->u.dense.nbytes = sizeof *ids * (size_t)n;
  *out = a;
  return NULL;
}

/* all_gather(v) along dimension k among the devices holding its count_k pieces there. */
static hr_status emit_gather(hc_ctx *c, const hc_manual *m, hc_block *b, const hr_sdy_sharding *s,
                             const hr_type *global, int k, int64_t count_k, hr_value *v, hr_value **out) {
  hr_type t = v->type;
  t.shape.dims[k] *= count_k;
  hr_op *op;
  HR_TRY(hc_manual_emit(c, b, m->src, HR_OP_ALL_GATHER, &v, 1, &t, &op, out));
  hr_attr *dim = hr_attr_new(c->dst, HR_ATTR_INT), *groups = NULL;
  if (!dim) return hc_oom();
  dim->u.i.value = k;
  dim->u.i.dtype = HR_I64;
  HR_TRY(hc_op_set_attr(c, op, "all_gather_dim", dim));
  HR_TRY(gather_groups(c, m, s, global, k, count_k, &groups));
  HR_TRY(hc_op_set_attr(c, op, "replica_groups", groups));
  return set_global_ids(c, op);
}

/* Result i whole on every device: the body's value gathered along each dimension it is cut on. */
static hr_status emit_whole(hc_ctx *c, const hc_manual *m, hc_block *b, const hr_sdy_sharding *s, int i, hr_value *v,
                            hr_value **out) {
  const hr_type *global = &m->src->results[i].type;
  int64_t count[HR_MAX_RANK], index[HR_MAX_RANK];
  HR_TRY(hc_manual_shard_of(m, s, global, 0, count, index));
  for (int k = 0; k < global->shape.rank; k++)
    if (count[k] > 1) HR_TRY(emit_gather(c, m, b, s, global, k, count[k], v, &v));
  *out = v;
  return NULL;
}

hr_status hc_device_manual(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src) {
  hc_manual *m = NULL;
  HR_TRY(hc_manual_new(c, src, &m));
  hr_sdy_sharding *in, *out;
  const hr_block *body = &src->regions[0];
  hr_status s = hc_manual_read(c, m, true, &in, &out);
  if (!s) s = check_partitions(c, m);
  for (int i = 0; !s && i < src->n_operands; i++) {
    hr_value *v, *piece;
    int64_t count[HR_MAX_RANK], index[HR_MAX_RANK];
    s = hc_lookup(f, src, src->operands[i], &v);
    if (!s) s = hc_manual_shard_of(m, &in[i], &v->type, c->device, count, index);
    if (!s) s = hc_manual_piece(c, b, src, v, count, index, &piece);
    if (!s && !hr_type_equal(&piece->type, &body->args[i].type))
      s = hr_op_error(src, HR_INVALID_ARGUMENT, "operand #%d's piece does not have the body argument's type", i);
    if (!s) hc_bind(f, &body->args[i], piece);
  }
  if (!s) s = hc_enter(c, src);
  if (!s) {
    for (int k = 0; !s && k < body->n_ops - 1; k++) s = hc_emit_op(c, f, b, body->ops[k]);
    c->depth--;
  }
  const hr_op *ret = body->ops[body->n_ops - 1];
  for (int i = 0; !s && i < src->n_results; i++) {
    hr_value *v;
    s = hc_lookup(f, ret, ret->operands[i], &v);
    if (!s) s = emit_whole(c, m, b, &out[i], i, v, &v);
    if (!s && !hr_type_equal(&v->type, &src->results[i].type))
      s = hr_op_error(src, HR_INVALID_ARGUMENT, "result #%d gathers to another type than declared", i);
    if (!s) hc_bind(f, &src->results[i], v);
  }
  c->heap->free(c->heap->ctx, m);
  return s;
}

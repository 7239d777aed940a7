/* sdy.manual_computation with its global meaning on one device (JAX's shard_map). Its body is
 * per-device code: it sees each operand's piece on one device of the manual axes and may talk to
 * the other devices through collectives. Here the body is emitted once per device, in lockstep op
 * by op, so that a collective finds every device's operand emitted before it:
 *   - each operand is sliced into the piece its in_sharding gives the device;
 *   - partition_id is the device's id (its row-major index in the mesh), replica_id 0;
 *   - collective_permute binds each target to its source's value (zeros where no source sends),
 *     all_reduce combines the group's values with the reduction's op, all_gather concatenates them;
 *   - each result is assembled from the devices' pieces as its out_sharding says (devices that
 *     differ only along axes the result is replicated over hold the same piece; the first is taken).
 * What this does not express (sub-axes, collectives inside nested regions, collectives other than
 * those above, several replicas, partially manual meshes with collectives) is refused with an
 * error naming the op. */
#include <string.h>

#include "compiler/manual.h"

hr_status hc_manual_unsupported(const hr_op *op, const char *what) {
  return hr_op_error(op, HR_UNIMPLEMENTED, "%s is not supported yet", what);
}

/* ---------------------------------------------------------------------------------------------- */
/* Layout                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Finds the module mesh named by `s` (or takes its inline mesh) and checks it is the computation's. */
static hr_status sharding_mesh(const hc_ctx *c, const hr_op *op, const hr_sdy_sharding *s, hr_sdy_mesh *out) {
  if (!s->mesh_ref.text) {
    *out = s->inline_mesh;
    return NULL;
  }
  for (int i = 0; i < c->src->n_meshes; i++) {
    const hr_mesh *m = &c->src->meshes[i];
    if (strlen(m->name) == s->mesh_ref.len && memcmp(m->name, s->mesh_ref.text, s->mesh_ref.len) == 0)
      return hr_sdy_read_mesh(m->mesh, out);
  }
  return hr_op_error(op, HR_NOT_FOUND, "no mesh @%.*s in the module", (int)s->mesh_ref.len, s->mesh_ref.text);
}

/* Reads the mesh and the manual axes, and numbers the devices row-major over the manual axes (over
 * every axis when `all_axes`). */
static hr_status layout(const hc_ctx *c, const hr_op *op, const hr_sdy_sharding *first, bool all_axes, hc_manual *m) {
  HR_TRY(sharding_mesh(c, op, first, &m->mesh));
  hr_sdy_name names[HR_LIMIT_SDY_AXES];
  int n_names;
  HR_TRY(hr_sdy_read_manual_axes(hr_op_attr(op, "manual_axes"), names, &n_names));
  for (int i = 0; i < n_names; i++) {
    int a = hr_sdy_axis_index(&m->mesh, names[i]);
    if (a < 0) return hr_op_error(op, HR_INVALID_ARGUMENT, "manual axis \"%.*s\" is not in the mesh", (int)names[i].len, names[i].text);
    m->is_manual[a] = true;
  }
  m->n_devices = 1;
  m->all_manual = true;
  for (int a = 0; a < m->mesh.n_axes; a++) {
    if (!m->is_manual[a]) m->all_manual = false;
    if (m->is_manual[a] || all_axes) m->n_devices *= m->mesh.sizes[a];
    if (m->n_devices > HR_LIMIT_SDY_DEVICES)
      return hr_op_error(op, HR_RESOURCE_EXHAUSTED, "more than %d devices to expand over", HR_LIMIT_SDY_DEVICES);
  }
  for (int64_t d = 0; d < m->n_devices; d++) {
    int64_t rest = d;
    for (int a = m->mesh.n_axes - 1; a >= 0; a--) {
      bool counted = m->is_manual[a] || all_axes;
      m->coord[d][a] = counted ? rest % m->mesh.sizes[a] : 0;
      if (counted) rest /= m->mesh.sizes[a];
    }
  }
  return NULL;
}

int64_t hc_manual_device_id(const hc_manual *m, int64_t d) {
  int64_t id = 0;
  for (int a = 0; a < m->mesh.n_axes; a++) id = id * m->mesh.sizes[a] + m->coord[d][a];
  return id;
}

hr_status hc_manual_shard_of(const hc_manual *m, const hr_sdy_sharding *s, const hr_type *global, int64_t d,
                             int64_t *count, int64_t *index) {
  int rank = global->shape.rank;
  if (s->rank != rank)
    return hr_op_error(m->src, HR_INVALID_ARGUMENT, "a sharding of rank %d for a value of rank %d", s->rank, rank);
  for (int k = 0; k < rank; k++) {
    count[k] = 1;
    index[k] = 0;
    for (int j = 0; j < s->n_axes[k]; j++) {
      const hr_sdy_axis_ref *r = &s->axes[k][j];
      if (r->sub_size) return hc_manual_unsupported(m->src, "a sharding over a sub-axis");
      int a = hr_sdy_axis_index(&m->mesh, r->name);
      if (a < 0) return hr_op_error(m->src, HR_INVALID_ARGUMENT, "axis \"%.*s\" is not in the mesh", (int)r->name.len, r->name.text);
      if (!m->is_manual[a]) continue; /* a free axis: the piece stays whole along it */
      index[k] = index[k] * m->mesh.sizes[a] + m->coord[d][a];
      count[k] *= m->mesh.sizes[a];
    }
    if (global->shape.dims[k] % count[k] != 0)
      return hr_op_error(m->src, HR_INVALID_ARGUMENT, "dimension %d of size %lld does not divide into %lld pieces", k,
                         (long long)global->shape.dims[k], (long long)count[k]);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Building ops                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

hr_status hc_manual_emit(hc_ctx *c, hc_block *b, const hr_op *src, hr_opcode code, hr_value *const *operands, int n,
                         const hr_type *t, hr_op **op_out, hr_value **out) {
  hr_op *op;
  HR_TRY(hc_op_new(c, code, src, b->block, n, 1, &op));
  for (int i = 0; i < n; i++) op->operands[i] = operands[i];
  op->results[0].type = *t;
  HR_TRY(hc_block_push(c, b, op));
  if (op_out) *op_out = op;
  *out = &op->results[0];
  return NULL;
}

hr_status hc_manual_piece(hc_ctx *c, hc_block *b, const hr_op *src, hr_value *v, const int64_t *count,
                          const int64_t *index, hr_value **out) {
  hr_type t = v->type;
  int rank = t.shape.rank;
  int64_t start[HR_MAX_RANK], limit[HR_MAX_RANK], strides[HR_MAX_RANK];
  bool whole = true;
  for (int k = 0; k < rank; k++) {
    t.shape.dims[k] = v->type.shape.dims[k] / count[k];
    start[k] = index[k] * t.shape.dims[k];
    limit[k] = start[k] + t.shape.dims[k];
    strides[k] = 1;
    whole = whole && count[k] == 1;
  }
  if (whole) {
    *out = v;
    return NULL;
  }
  hr_op *op;
  HR_TRY(hc_manual_emit(c, b, src, HR_OP_SLICE, &v, 1, &t, &op, out));
  hr_attr *a;
  HR_TRY(hc_i64_array(c, start, rank, &a));
  HR_TRY(hc_op_set_attr(c, op, "start_indices", a));
  HR_TRY(hc_i64_array(c, limit, rank, &a));
  HR_TRY(hc_op_set_attr(c, op, "limit_indices", a));
  HR_TRY(hc_i64_array(c, strides, rank, &a));
  return hc_op_set_attr(c, op, "strides", a);
}

/* concatenate(vals[0 .. n-1]) along `dim`. */
static hr_status emit_concat(hc_ctx *c, hc_block *b, const hr_op *src, hr_value **vals, int n, int dim, hr_value **out) {
  if (n == 1) {
    *out = vals[0];
    return NULL;
  }
  hr_type t = vals[0]->type;
  t.shape.dims[dim] *= n;
  hr_op *op;
  HR_TRY(hc_manual_emit(c, b, src, HR_OP_CONCATENATE, vals, n, &t, &op, out));
  hr_attr *a = hr_attr_new(c->dst, HR_ATTR_INT);
  if (!a) return hc_oom();
  a->u.i.value = dim;
  a->u.i.dtype = HR_I64;
  return hc_op_set_attr(c, op, "dimension", a);
}

/* A constant of type `t` (a static tensor) with every element `v` (as a 64-bit pattern, low bytes
 * taken; 0 gives zeros of any type). */
static hr_status emit_splat(hc_ctx *c, hc_block *b, const hr_op *src, const hr_type *t, uint64_t v, hr_value **out) {
  hr_op *op;
  unsigned char bytes[16] = {0};
  size_t size = hr_dtype_size(t->dtype);
  if (size == 0 || size > sizeof bytes) return hc_manual_unsupported(src, "a value of this element type");
  memcpy(bytes, &v, size < sizeof v ? size : sizeof v);
  HR_TRY(hc_constant_op(c, src, b->block, t, bytes, size, true, &op));
  HR_TRY(hc_block_push(c, b, op));
  *out = &op->results[0];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Collectives                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

/* The device of the computation whose id is `id`, or -1. */
static int64_t device_of(const hc_manual *m, int64_t id) {
  for (int64_t d = 0; d < m->n_devices; d++)
    if (hc_manual_device_id(m, d) == id) return d;
  return -1;
}

/* Reads a 2-D i64 DENSE attribute `name` of `op` (rows x cols) into an arena array; an absent or
 * empty one gives 0 rows. */
static hr_status id_matrix(hc_ctx *c, const hr_op *op, const char *name, int64_t **vals, int64_t *rows, int64_t *cols) {
  const hr_attr *a = hr_op_attr(op, name);
  *rows = *cols = 0;
  if (!a) return NULL;
  const hr_type *t = &a->u.dense.type;
  if (a->kind != HR_ATTR_DENSE || t->shape.rank != 2 || t->dtype != HR_I64)
    return hr_op_error(op, HR_INVALID_ARGUMENT, "'%s' must be a 2-D tensor of i64", name);
  *rows = t->shape.dims[0];
  *cols = t->shape.dims[1];
  int64_t n = *rows * *cols;
  if (!(*vals = HR_ARENA_ARRAY(&c->dst->arena, int64_t, n > 0 ? (size_t)n : 1))) return hc_oom();
  for (int64_t i = 0; i < n; i++) memcpy(&(*vals)[i], hr_dense_element(a, i), sizeof(int64_t));
  return NULL;
}

/* The devices of each group of `op` (replica_groups; absent: one group of all devices), as a
 * rows x cols matrix of devices. */
static hr_status groups(hc_ctx *c, const hc_manual *m, const hr_op *op, int64_t **devs, int64_t *rows, int64_t *cols) {
  HR_TRY(id_matrix(c, op, "replica_groups", devs, rows, cols));
  if (*rows == 0 || *cols == 0) {
    *rows = 1;
    *cols = m->n_devices;
    if (!(*devs = HR_ARENA_ARRAY(&c->dst->arena, int64_t, (size_t)m->n_devices))) return hc_oom();
    for (int64_t d = 0; d < m->n_devices; d++) (*devs)[d] = d;
    return NULL;
  }
  for (int64_t i = 0; i < *rows * *cols; i++)
    if (((*devs)[i] = device_of(m, (*devs)[i])) < 0)
      return hr_op_error(op, HR_INVALID_ARGUMENT, "a replica group names a device outside the computation");
  return NULL;
}

/* collective_permute: each target takes its source's value, others get zeros. */
static hr_status collective_permute(hc_ctx *c, hc_manual *m, hc_block *b, const hr_op *op) {
  int64_t *pairs, rows, cols;
  HR_TRY(id_matrix(c, op, "source_target_pairs", &pairs, &rows, &cols));
  if (rows > 0 && cols != 2) return hr_op_error(op, HR_INVALID_ARGUMENT, "source_target_pairs must be pairs");
  for (int64_t d = 0; d < m->n_devices; d++) {
    hr_value *v = NULL;
    for (int64_t p = 0; p < rows && !v; p++) {
      if (pairs[2 * p + 1] != hc_manual_device_id(m, d)) continue;
      int64_t s = device_of(m, pairs[2 * p]);
      if (s < 0) return hr_op_error(op, HR_INVALID_ARGUMENT, "a source outside the computation");
      HR_TRY(hc_lookup(&m->frames[s], op, op->operands[0], &v));
    }
    if (!v) HR_TRY(emit_splat(c, b, op, &op->results[0].type, 0, &v));
    hc_bind(&m->frames[d], &op->results[0], v);
  }
  return NULL;
}

/* The elementwise op an all_reduce's region applies: its body must be `return op(arg0, arg1)`. */
static hr_status reduction_op(const hr_op *op, hr_opcode *out) {
  const hr_block *r = op->n_regions == 1 ? &op->regions[0] : NULL;
  const hr_op *inner = r && r->n_ops == 2 ? r->ops[0] : NULL;
  const hr_op *ret = r && r->n_ops == 2 ? r->ops[1] : NULL;
  bool binary = inner && (hr_opcode_flags(inner->code) & HR_OPF_BINARY) && inner->n_operands == 2 &&
                inner->operands[0] == &r->args[0] && inner->operands[1] == &r->args[1];
  if (!binary || ret->n_operands != 1 || ret->operands[0] != &inner->results[0])
    return hc_manual_unsupported(op, "an all_reduce whose reduction is not one binary op");
  *out = inner->code;
  return NULL;
}

/* all_reduce: every member of a group gets the group's values combined. */
static hr_status all_reduce(hc_ctx *c, hc_manual *m, hc_block *b, const hr_op *op) {
  hr_opcode code = HR_OP_COUNT;
  HR_TRY(reduction_op(op, &code));
  int64_t *devs, rows, cols;
  HR_TRY(groups(c, m, op, &devs, &rows, &cols));
  for (int i = 0; i < op->n_operands; i++)
    for (int64_t g = 0; g < rows; g++) {
      hr_value *acc = NULL;
      for (int64_t j = 0; j < cols; j++) {
        hr_value *v;
        HR_TRY(hc_lookup(&m->frames[devs[g * cols + j]], op, op->operands[i], &v));
        hr_value *pair[2] = {acc, v};
        if (!acc) acc = v;
        else HR_TRY(hc_manual_emit(c, b, op, code, pair, 2, &v->type, NULL, &acc));
      }
      for (int64_t j = 0; j < cols; j++) hc_bind(&m->frames[devs[g * cols + j]], &op->results[i], acc);
    }
  return NULL;
}

/* all_gather: every member of a group gets the group's values concatenated in group order. */
static hr_status all_gather(hc_ctx *c, hc_manual *m, hc_block *b, const hr_op *op) {
  int64_t dim;
  HR_TRY(hr_op_attr_i64(op, "all_gather_dim", &dim));
  int64_t *devs, rows, cols;
  HR_TRY(groups(c, m, op, &devs, &rows, &cols));
  hr_value **vals = HR_ARENA_ARRAY(&c->dst->arena, hr_value *, (size_t)cols);
  if (!vals) return hc_oom();
  for (int i = 0; i < op->n_operands; i++)
    for (int64_t g = 0; g < rows; g++) {
      for (int64_t j = 0; j < cols; j++) HR_TRY(hc_lookup(&m->frames[devs[g * cols + j]], op, op->operands[i], &vals[j]));
      hr_value *all;
      HR_TRY(emit_concat(c, b, op, vals, (int)cols, (int)dim, &all));
      for (int64_t j = 0; j < cols; j++) hc_bind(&m->frames[devs[g * cols + j]], &op->results[i], all);
    }
  return NULL;
}

/* Whether an op's meaning depends on the device it runs on. */
static bool is_device_op(hr_opcode code) {
  switch (code) {
    case HR_OP_COLLECTIVE_PERMUTE:
    case HR_OP_ALL_REDUCE:
    case HR_OP_ALL_GATHER:
    case HR_OP_ALL_TO_ALL:
    case HR_OP_REDUCE_SCATTER:
    case HR_OP_COLLECTIVE_BROADCAST:
    case HR_OP_COLLECTIVE_REDUCE:
    case HR_OP_PARTITION_ID:
    case HR_OP_REPLICA_ID: return true;
    default: return false;
  }
}

/* Whether a region, or a region nested in it, holds such an op. */
static bool uses_device(const hr_block *blk) {
  for (int i = 0; i < blk->n_ops; i++) {
    if (is_device_op(blk->ops[i]->code)) return true;
    for (int r = 0; r < blk->ops[i]->n_regions; r++)
      if (uses_device(&blk->ops[i]->regions[r])) return true;
  }
  return false;
}

/* Emits body op `op` for every device. */
static hr_status emit_all_devices(hc_ctx *c, hc_manual *m, hc_block *b, const hr_op *op) {
  bool collective = op->code == HR_OP_COLLECTIVE_PERMUTE || op->code == HR_OP_ALL_REDUCE || op->code == HR_OP_ALL_GATHER;
  if (collective && !m->all_manual) return hc_manual_unsupported(op, "a collective in a partly manual computation");
  if (op->code == HR_OP_COLLECTIVE_PERMUTE) return collective_permute(c, m, b, op);
  if (op->code == HR_OP_ALL_REDUCE) return all_reduce(c, m, b, op);
  if (op->code == HR_OP_ALL_GATHER) return all_gather(c, m, b, op);
  if (op->code == HR_OP_PARTITION_ID || op->code == HR_OP_REPLICA_ID) {
    for (int64_t d = 0; d < m->n_devices; d++) {
      hr_value *v;
      uint64_t id = op->code == HR_OP_PARTITION_ID ? (uint64_t)hc_manual_device_id(m, d) : 0;
      HR_TRY(emit_splat(c, b, op, &op->results[0].type, id, &v));
      hc_bind(&m->frames[d], &op->results[0], v);
    }
    return NULL;
  }
  if (is_device_op(op->code)) return hc_manual_unsupported(op, hr_opcode_name(op->code));
  for (int r = 0; r < op->n_regions; r++)
    if (uses_device(&op->regions[r]))
      return hc_manual_unsupported(op, "a collective or device id inside a nested region");
  for (int64_t d = 0; d < m->n_devices; d++) HR_TRY(hc_emit_op(c, &m->frames[d], b, op));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Operands in, results out                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Binds the body's arguments, per device, to the operands' pieces. */
static hr_status bind_pieces(hc_ctx *c, hc_manual *m, hc_frame *f, hc_block *b, const hr_sdy_sharding *in) {
  const hr_op *src = m->src;
  const hr_block *body = &src->regions[0];
  for (int i = 0; i < src->n_operands; i++) {
    hr_value *v;
    HR_TRY(hc_lookup(f, src, src->operands[i], &v));
    for (int64_t d = 0; d < m->n_devices; d++) {
      int64_t count[HR_MAX_RANK], index[HR_MAX_RANK];
      HR_TRY(hc_manual_shard_of(m, &in[i], &v->type, d, count, index));
      hr_value *piece;
      HR_TRY(hc_manual_piece(c, b, src, v, count, index, &piece));
      if (!hr_type_equal(&piece->type, &body->args[i].type))
        return hr_op_error(src, HR_INVALID_ARGUMENT, "operand #%d's piece does not have the body argument's type", i);
      hc_bind(&m->frames[d], &body->args[i], piece);
    }
  }
  return NULL;
}

/* The part of result `i` whose pieces along dimensions [0, k) are `at`, from the devices' pieces. */
static hr_status assemble(hc_ctx *c, hc_manual *m, hc_block *b, const hr_sdy_sharding *s, int i, int k, int64_t *at,
                          hr_value **out) {
  const hr_op *src = m->src, *ret = src->regions[0].ops[src->regions[0].n_ops - 1];
  const hr_type *global = &src->results[i].type;
  int rank = global->shape.rank;
  int64_t count[HR_MAX_RANK], index[HR_MAX_RANK];
  if (k == rank) { /* the first device holding exactly this piece */
    for (int64_t d = 0; d < m->n_devices; d++) {
      HR_TRY(hc_manual_shard_of(m, s, global, d, count, index));
      if (memcmp(index, at, sizeof *at * (size_t)rank) == 0) return hc_lookup(&m->frames[d], ret, ret->operands[i], out);
    }
    return hr_op_error(src, HR_INTERNAL, "no device holds a piece of result #%d", i);
  }
  HR_TRY(hc_manual_shard_of(m, s, global, 0, count, index));
  hr_value **parts = HR_ARENA_ARRAY(&c->dst->arena, hr_value *, (size_t)count[k]);
  if (!parts) return hc_oom();
  for (int64_t j = 0; j < count[k]; j++) {
    at[k] = j;
    HR_TRY(assemble(c, m, b, s, i, k + 1, at, &parts[j]));
  }
  return emit_concat(c, b, src, parts, (int)count[k], k, out);
}

hr_status hc_manual_read(hc_ctx *c, hc_manual *m, bool all_axes, hr_sdy_sharding **in, hr_sdy_sharding **out) {
  const hr_op *src = m->src;
  size_t n_in = (size_t)src->n_operands, n_out = (size_t)src->n_results;
  *in = HR_ARENA_ARRAY(&c->dst->arena, hr_sdy_sharding, n_in ? n_in : 1);
  *out = HR_ARENA_ARRAY(&c->dst->arena, hr_sdy_sharding, n_out ? n_out : 1);
  if (!*in || !*out) return hc_oom();
  HR_TRY(hr_sdy_read_per_value(hr_op_attr(src, "in_shardings"), src->n_operands, *in));
  HR_TRY(hr_sdy_read_per_value(hr_op_attr(src, "out_shardings"), src->n_results, *out));
  if (n_in + n_out == 0) return hc_manual_unsupported(src, "a manual computation without operands or results");
  HR_TRY(layout(c, src, n_in ? &(*in)[0] : &(*out)[0], all_axes, m));
  const hr_attr *replicas = c->src->attrs ? hr_attr_field(c->src->attrs, "mhlo.num_replicas") : NULL;
  if (replicas && replicas->kind == HR_ATTR_INT && replicas->u.i.value > 1)
    return hc_manual_unsupported(src, "a manual computation with several replicas");
  return NULL;
}

/* Reads the computation's shardings and mesh, and gives each device a frame. */
static hr_status start(hc_ctx *c, hc_manual *m, hc_frame *f, hr_sdy_sharding **in, hr_sdy_sharding **out) {
  HR_TRY(hc_manual_read(c, m, false, in, out));
  size_t bytes = (f->func->n_values ? f->func->n_values : 1) * sizeof *f->map;
  for (int64_t d = 0; d < m->n_devices; d++) {
    HR_TRY(hc_frame_init(c, f->func, &m->frames[d]));
    memcpy(m->frames[d].map, f->map, bytes);
  }
  return NULL;
}

hr_status hc_manual_new(hc_ctx *c, const hr_op *src, hc_manual **out) {
  hc_manual *m = c->heap->alloc(c->heap->ctx, sizeof *m, _Alignof(hc_manual));
  if (!m) return hc_oom();
  memset(m, 0, sizeof *m);
  m->src = src;
  *out = m;
  return NULL;
}

hr_status hc_inline_manual(hc_ctx *c, hc_frame *f, hc_block *b, const hr_op *src) {
  hc_manual *m = NULL;
  HR_TRY(hc_manual_new(c, src, &m));
  hr_sdy_sharding *in, *out;
  hr_status s = start(c, m, f, &in, &out);
  if (!s) s = bind_pieces(c, m, f, b, in);
  if (!s) s = hc_enter(c, src);
  if (!s) {
    const hr_block *body = &src->regions[0];
    for (int k = 0; !s && k < body->n_ops - 1; k++) s = emit_all_devices(c, m, b, body->ops[k]);
    c->depth--;
  }
  for (int i = 0; !s && i < src->n_results; i++) {
    int64_t at[HR_MAX_RANK] = {0};
    hr_value *v;
    s = assemble(c, m, b, &out[i], i, 0, at, &v);
    if (!s && !hr_type_equal(&v->type, &src->results[i].type))
      s = hr_op_error(src, HR_INVALID_ARGUMENT, "result #%d assembles to another type than declared", i);
    if (!s) hc_bind(f, &src->results[i], v);
  }
  for (int64_t d = 0; d < m->n_devices; d++) hc_frame_release(c, &m->frames[d]);
  c->heap->free(c->heap->ctx, m);
  return s;
}

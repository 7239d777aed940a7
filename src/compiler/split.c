/* Batch splitting (split.h): the chunk size for a batch, and the proof that a specialized
 * function splits into runs of its smaller specialization. */
#include "compiler/split.h"

#include <string.h>

/* What is known of a value of the full program (indexed by value id). */
enum {
  UNSEEN = 0, /* not defined at the top level of main (or not reached yet) */
  SAME,       /* equal types and equal values in both programs */
  ROWS,       /* dimension 0 chunks times as long; rows split into the part's values */
};

typedef struct split_check {
  const hr_func *full, *part;
  int64_t chunks;
  unsigned char *cls; /* per value id of the full program */
} split_check;

/* SAME for equal types, ROWS for tensors whose dimension 0 is `chunks` times the part's (the
 * other dimensions equal), else UNSEEN (types that do not correspond). */
static int type_class(const hr_type *f, const hr_type *p, int64_t chunks) {
  if (hr_type_equal(f, p)) return SAME;
  if (f->kind != HR_TYPE_TENSOR || p->kind != HR_TYPE_TENSOR || f->dtype != p->dtype ||
      f->shape.rank != p->shape.rank || f->shape.rank == 0)
    return UNSEEN;
  for (int d = 1; d < f->shape.rank; d++)
    if (f->shape.dims[d] != p->shape.dims[d]) return UNSEEN;
  int64_t rows = p->shape.dims[0];
  return rows >= 1 && rows <= INT64_MAX / chunks && rows * chunks == f->shape.dims[0] ? ROWS : UNSEEN;
}

/* Integer list attribute `name` of `op` (absent: empty); false when malformed. */
static bool op_list(const hr_op *op, const char *name, int64_t *out, int *n) {
  hr_status s = hr_op_attr_i64_list_opt(op, name, out, HR_MAX_RANK, n);
  hr_status_free(s);
  return s == NULL;
}

/* Integer list field `name` of struct attribute `a` of `op` (absent: empty); false when malformed. */
static bool field_list(const hr_op *op, const char *attr, const char *name, int64_t *out, int *n) {
  const hr_attr *a = hr_op_attr(op, attr);
  const hr_attr *f = a ? hr_attr_field(a, name) : NULL;
  *n = 0;
  if (!a) return false;
  if (!f) return true;
  hr_status s = hr_attr_to_i64_list(f, out, HR_MAX_RANK, n);
  hr_status_free(s);
  return s == NULL;
}

static bool contains(const int64_t *list, int n, int64_t x) {
  for (int i = 0; i < n; i++)
    if (list[i] == x) return true;
  return false;
}

/* Whether integer attribute `name` of `op` is present and differs from `x`. */
static bool attr_not(const hr_op *op, const char *name, int64_t x) {
  int64_t v;
  hr_status s = hr_op_attr_i64(op, name, &v);
  hr_status_free(s);
  return !s && v != x;
}

/* Whether the two ops have the same opcode, operands (by value id) and numbers of results and
 * regions. */
static bool same_form(const hr_op *f, const hr_op *p) {
  if (f->code != p->code || f->n_operands != p->n_operands || f->n_results != p->n_results ||
      f->n_regions != p->n_regions)
    return false;
  for (int k = 0; k < f->n_operands; k++)
    if (f->operands[k]->id != p->operands[k]->id) return false;
  return true;
}

/* Whether the attributes of the two ops are equal; at the top level of main (`top`) but for those
 * the op's rule compares itself: a constant's value (its type differs for rows) and a slice's
 * limits (dimension 0 differs). */
static bool same_attrs(const hr_op *f, const hr_op *p, bool top) {
  if (f->n_attrs != p->n_attrs) return false;
  for (int i = 0; i < f->n_attrs; i++) {
    const char *name = f->attrs[i].name;
    const hr_attr *other = hr_op_attr(p, name);
    if (!other) return false;
    if (top && ((f->code == HR_OP_CONSTANT && strcmp(name, "value") == 0) ||
                (f->code == HR_OP_SLICE && strcmp(name, "limit_indices") == 0)))
      continue;
    if (!hr_attr_equal(f->attrs[i].value, other)) return false;
  }
  return true;
}

/* Whether two region blocks are the same: ops, operands, attributes (constants' values included)
 * and result types, recursively. A region computes per element or per window, so it must not
 * depend on the batch at all. */
static bool same_block(const hr_block *f, const hr_block *p) {
  if (f->n_ops != p->n_ops || f->n_args != p->n_args) return false;
  for (int a = 0; a < f->n_args; a++)
    if (!hr_type_equal(&f->args[a].type, &p->args[a].type)) return false;
  for (int i = 0; i < f->n_ops; i++) {
    const hr_op *fo = f->ops[i], *po = p->ops[i];
    if (!same_form(fo, po) || !same_attrs(fo, po, false)) return false;
    for (int r = 0; r < fo->n_results; r++)
      if (!hr_type_equal(&fo->results[r].type, &po->results[r].type)) return false;
    for (int r = 0; r < fo->n_regions; r++)
      if (!same_block(&fo->regions[r], &po->regions[r])) return false;
  }
  return true;
}

/* Whether an op inside the regions of `op` (at any depth) reads a value whose mark is `value`
 * (marks: one byte per value id). */
static bool regions_read(const hr_op *op, const unsigned char *marks, unsigned char value) {
  for (int r = 0; r < op->n_regions; r++) {
    const hr_block *b = &op->regions[r];
    for (int i = 0; i < b->n_ops; i++) {
      const hr_op *inner = b->ops[i];
      for (int k = 0; k < inner->n_operands; k++)
        if (marks[inner->operands[k]->id] == value) return true;
      if (regions_read(inner, marks, value)) return true;
    }
  }
  return false;
}

/* Whether every operand is rows. */
static bool all_rows(const split_check *c, const hr_op *op) {
  for (int k = 0; k < op->n_operands; k++)
    if (c->cls[op->operands[k]->id] != ROWS) return false;
  return true;
}

/* dot_general: rows only on the lhs, at a free dimension 0 (the result's dimension 0 then), or on
 * batching dimension 0 of both operands (the result's first dimension). */
static const char *dot_rule(const split_check *c, const hr_op *op) {
  int64_t lb[HR_MAX_RANK], rb[HR_MAX_RANK], lc[HR_MAX_RANK];
  int nlb, nrb, nlc;
  const char *dn = "dot_dimension_numbers";
  if (!field_list(op, dn, "lhs_batching_dimensions", lb, &nlb) ||
      !field_list(op, dn, "rhs_batching_dimensions", rb, &nrb) ||
      !field_list(op, dn, "lhs_contracting_dimensions", lc, &nlc))
    return "has malformed dimension numbers";
  int lhs = c->cls[op->operands[0]->id], rhs = c->cls[op->operands[1]->id];
  if (lhs == ROWS && rhs == SAME && nlb == 0 && !contains(lc, nlc, 0)) return NULL;
  if (lhs == ROWS && rhs == ROWS && nlb > 0 && nrb > 0 && lb[0] == 0 && rb[0] == 0) return NULL;
  return "mixes examples of the batch (it contracts over dimension 0 or does not keep it first)";
}

/* gather of a same operand at rows start indices whose dimension 0 becomes the result's. */
static const char *gather_rule(const split_check *c, const hr_op *op) {
  int64_t offset[HR_MAX_RANK], batching[HR_MAX_RANK], ivd = 0;
  int n_offset, n_batching;
  const char *dn = "dimension_numbers";
  const hr_attr *f = hr_op_attr(op, dn) ? hr_attr_field(hr_op_attr(op, dn), "index_vector_dim") : NULL;
  hr_status s = f ? hr_attr_to_i64(f, &ivd) : NULL;
  hr_status_free(s);
  if (s || !field_list(op, dn, "offset_dims", offset, &n_offset) ||
      !field_list(op, dn, "operand_batching_dims", batching, &n_batching))
    return "has malformed dimension numbers";
  if (c->cls[op->operands[0]->id] == SAME && c->cls[op->operands[1]->id] == ROWS && n_batching == 0 && ivd != 0 &&
      !contains(offset, n_offset, 0))
    return NULL;
  return "does not gather per example (rows in the operand, or dimension 0 not the indices' first)";
}

/* Whether element 0 of integer list attribute `name` is `want` (an absent list counts as `want`,
 * the attribute's default). */
static bool first_is(const hr_op *op, const char *name, int64_t want) {
  int64_t list[HR_MAX_RANK];
  int n;
  if (!hr_op_attr(op, name)) return true;
  return op_list(op, name, list, &n) && n > 0 && list[0] == want;
}

/* Whether the [rank, 2] i64 padding attribute `name` (absent: none) pads dimension 0 (or cannot
 * be read). */
static bool pads_dim0(const hr_op *op, const char *name) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return false;
  if (a->kind != HR_ATTR_DENSE || a->u.dense.type.dtype != HR_I64 || a->u.dense.type.shape.rank != 2 ||
      a->u.dense.type.shape.dims[0] < 1 || a->u.dense.type.shape.dims[1] != 2)
    return true;
  for (int64_t i = 0; i < 2; i++) {
    const void *e = hr_dense_element(a, i);
    int64_t v;
    if (!e) return true;
    memcpy(&v, e, sizeof v);
    if (v != 0) return true;
  }
  return false;
}

/* reduce_window: rows inputs, same inits, a window of one example along dimension 0. */
static const char *reduce_window_rule(const split_check *c, const hr_op *op) {
  for (int k = 0; k < op->n_operands; k++)
    if (c->cls[op->operands[k]->id] != (k < op->n_operands / 2 ? ROWS : SAME))
      return "reduces windows of values that are not batch-shaped";
  bool one = first_is(op, "window_dimensions", 1) && first_is(op, "window_strides", 1) &&
             first_is(op, "base_dilations", 1) && first_is(op, "window_dilations", 1) && !pads_dim0(op, "padding");
  return hr_op_attr(op, "window_dimensions") && one ? NULL : "has windows across examples";
}

/* convolution of a rows input (batch dimension 0, also in the output) with a same kernel. */
static const char *convolution_rule(const split_check *c, const hr_op *op) {
  const hr_attr *dn = hr_op_attr(op, "dimension_numbers");
  const hr_attr *in = dn ? hr_attr_field(dn, "input_batch_dimension") : NULL;
  const hr_attr *out = dn ? hr_attr_field(dn, "output_batch_dimension") : NULL;
  int64_t ib = -1, ob = -1, groups = 1;
  hr_status s1 = in ? hr_attr_to_i64(in, &ib) : NULL, s2 = out ? hr_attr_to_i64(out, &ob) : NULL;
  hr_status s3 = hr_op_attr(op, "batch_group_count") ? hr_op_attr_i64(op, "batch_group_count", &groups) : NULL;
  bool ok = !s1 && !s2 && !s3 && in && out && ib == 0 && ob == 0 && groups == 1 &&
            c->cls[op->operands[0]->id] == ROWS && c->cls[op->operands[1]->id] == SAME;
  hr_status_free(s1);
  hr_status_free(s2);
  hr_status_free(s3);
  return ok ? NULL : "convolves across examples (batch not dimension 0, grouped, or a batch-shaped kernel)";
}

/* scatter of rows inputs by rows updates, either at same indices with dimension 0 a whole update
 * window (each example's updates land in its own rows), or batched on dimension 0 of the inputs
 * and of rows indices. */
static const char *scatter_rule(const split_check *c, const hr_op *op) {
  int64_t window[HR_MAX_RANK], inserted[HR_MAX_RANK], to_operand[HR_MAX_RANK], in_batch[HR_MAX_RANK],
      idx_batch[HR_MAX_RANK], ivd = 0;
  int n_window, n_inserted, n_to_operand, n_in_batch, n_idx_batch;
  const char *dn = "scatter_dimension_numbers";
  const hr_attr *f = hr_op_attr(op, dn) ? hr_attr_field(hr_op_attr(op, dn), "index_vector_dim") : NULL;
  hr_status s = f ? hr_attr_to_i64(f, &ivd) : NULL;
  hr_status_free(s);
  if (s || !field_list(op, dn, "update_window_dims", window, &n_window) ||
      !field_list(op, dn, "inserted_window_dims", inserted, &n_inserted) ||
      !field_list(op, dn, "scatter_dims_to_operand_dims", to_operand, &n_to_operand) ||
      !field_list(op, dn, "input_batching_dims", in_batch, &n_in_batch) ||
      !field_list(op, dn, "scatter_indices_batching_dims", idx_batch, &n_idx_batch) || n_in_batch != n_idx_batch ||
      op->n_operands < 3 || op->n_operands % 2 == 0)
    return "has malformed dimension numbers";
  int n = (op->n_operands - 1) / 2; /* inputs, indices, updates */
  int indices = c->cls[op->operands[n]->id];
  for (int k = 0; k < op->n_operands; k++)
    if (k != n && c->cls[op->operands[k]->id] != ROWS) return "scatters values that are not batch-shaped";
  if (indices == SAME && n_in_batch == 0 && n_window > 0 && window[0] == 0 && !contains(inserted, n_inserted, 0) &&
      !contains(to_operand, n_to_operand, 0) &&
      op->operands[n + 1]->type.shape.dims[0] == op->operands[0]->type.shape.dims[0])
    return NULL; /* whole windows along dimension 0 */
  if (indices == ROWS && n_in_batch > 0 && in_batch[0] == 0 && idx_batch[0] == 0 && ivd != 0 &&
      !contains(window, n_window, 0))
    return NULL; /* batched on dimension 0 */
  return "scatters across examples";
}

/* The reason an op with a rows operand or result does not split, or NULL when it does (its
 * results are then rows, which the caller checked against their types). */
static const char *rows_rule(const split_check *c, const hr_op *op) {
  if (hr_opcode_flags(op->code) & HR_OPF_ELEMENTWISE) {
    for (int k = 0; k < op->n_operands; k++) {
      const hr_value *v = op->operands[k];
      if (c->cls[v->id] != ROWS && !(c->cls[v->id] == SAME && v->type.shape.rank == 0))
        return "combines a batch-shaped operand with one that is not";
    }
    return NULL;
  }
  int64_t list[HR_MAX_RANK];
  int n;
  switch (op->code) {
  case HR_OP_CONSTANT: return NULL; /* check_op compared the data */
  case HR_OP_IOTA: return attr_not(op, "iota_dimension", 0) ? NULL : "counts along the batch dimension";
  case HR_OP_BROADCAST_IN_DIM:
    if (c->cls[op->operands[0]->id] == SAME) return NULL; /* the same rows for every example */
    return op_list(op, "broadcast_dimensions", list, &n) && n > 0 && list[0] == 0 ? NULL
                                                                                  : "moves the batch dimension";
  case HR_OP_RESHAPE: return all_rows(c, op) ? NULL : "reshapes a value that is not batch-shaped";
  case HR_OP_TRANSPOSE:
    return all_rows(c, op) && op_list(op, "permutation", list, &n) && n > 0 && list[0] == 0
               ? NULL
               : "moves the batch dimension";
  case HR_OP_DOT_GENERAL: return dot_rule(c, op);
  case HR_OP_REDUCE:
    for (int k = 0; k < op->n_operands; k++)
      if (c->cls[op->operands[k]->id] != (k < op->n_operands / 2 ? ROWS : SAME))
        return "reduces values that are not batch-shaped";
    return op_list(op, "dimensions", list, &n) && !contains(list, n, 0) ? NULL : "reduces over the batch dimension";
  case HR_OP_CONCATENATE:
    return all_rows(c, op) && attr_not(op, "dimension", 0) ? NULL : "concatenates along the batch dimension";
  case HR_OP_SLICE: {
    int64_t stride[HR_MAX_RANK];
    int n_stride;
    bool whole = all_rows(c, op) && op_list(op, "start_indices", list, &n) && n > 0 && list[0] == 0 &&
                 op_list(op, "strides", stride, &n_stride) && (n_stride == 0 || stride[0] == 1);
    return whole ? NULL : "slices the batch dimension";
  }
  case HR_OP_GATHER: return gather_rule(c, op);
  case HR_OP_REVERSE:
    return all_rows(c, op) && op_list(op, "dimensions", list, &n) && !contains(list, n, 0)
               ? NULL
               : "reverses the batch dimension";
  case HR_OP_BITCAST_CONVERT: return all_rows(c, op) ? NULL : "reinterprets a value that is not batch-shaped";
  case HR_OP_SORT: {
    int64_t dim = -1;
    if (hr_op_attr(op, "dimension")) {
      hr_status s = hr_op_attr_i64(op, "dimension", &dim);
      hr_status_free(s);
      if (s) return "has a malformed dimension";
    }
    if (dim < 0) dim += op->operands[0]->type.shape.rank;
    return all_rows(c, op) && dim != 0 ? NULL : "sorts along the batch dimension";
  }
  case HR_OP_REDUCE_WINDOW: return reduce_window_rule(c, op);
  case HR_OP_PAD:
    return c->cls[op->operands[0]->id] == ROWS && c->cls[op->operands[1]->id] == SAME &&
                   first_is(op, "edge_padding_low", 0) && first_is(op, "edge_padding_high", 0) &&
                   first_is(op, "interior_padding", 0)
               ? NULL
               : "pads the batch dimension";
  case HR_OP_CONVOLUTION: return convolution_rule(c, op);
  case HR_OP_SCATTER: return scatter_rule(c, op);
  default: return "has no rule for splitting the batch";
  }
}

/* Whether the value of batch-shaped constant `f` is that of `p` once per chunk. */
static bool repeats_per_chunk(const split_check *c, const hr_op *f, const hr_op *p) {
  const hr_attr *fv = hr_op_attr(f, "value"), *pv = hr_op_attr(p, "value");
  if (!fv || !pv || fv->kind != HR_ATTR_DENSE || pv->kind != HR_ATTR_DENSE) return false;
  int64_t n;
  hr_status s = hr_shape_num_elements(&pv->u.dense.type.shape, &n);
  hr_status_free(s);
  size_t es = hr_dtype_size(pv->u.dense.type.dtype);
  if (s || es == 0) return false;
  for (int64_t i = 0; i < n * c->chunks; i++) {
    const void *a = hr_dense_element(fv, i), *b = hr_dense_element(pv, i % n);
    if (!a || !b || memcmp(a, b, es) != 0) return false;
  }
  return true;
}

/* Checks top-level op `i` of main and records its results' classes. */
static hr_status check_op(split_check *c, int i) {
  const hr_op *f = c->full->body.ops[i], *p = c->part->body.ops[i];
  if (!same_form(f, p) || !same_attrs(f, p, true))
    return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: the specialization for a smaller batch differs here");
  for (int r = 0; r < f->n_regions; r++)
    if (!same_block(&f->regions[r], &p->regions[r]))
      return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: a region differs between the specializations");
  bool rows = false;
  for (int k = 0; k < f->n_operands; k++) rows |= c->cls[f->operands[k]->id] == ROWS;
  if (f->code == HR_OP_FUNC_RETURN) {
    return rows && all_rows(c, f) ? NULL
                                  : hr_op_error(f, HR_UNIMPLEMENTED, "batch split: a result is not batch-shaped");
  }
  int want = SAME;
  for (int r = 0; r < f->n_results; r++) {
    int cls = type_class(&f->results[r].type, &p->results[r].type, c->chunks);
    if (cls == UNSEEN || (r > 0 && cls != want))
      return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: result %d does not scale with the batch", r);
    want = cls;
  }
  if (want == ROWS && f->code == HR_OP_CONSTANT && !repeats_per_chunk(c, f, p))
    return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: a batch-shaped constant differs between examples");
  if (want == SAME && f->code == HR_OP_CONSTANT && !hr_attr_equal(hr_op_attr(f, "value"), hr_op_attr(p, "value")))
    return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: a constant depends on the batch size");
  if (want == ROWS || rows) {
    const char *why = want == SAME ? "reduces the batch to a value of fixed shape" : rows_rule(c, f);
    if (why) return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: %s", why);
  }
  if (hr_opcode_flags(f->code) & HR_OPF_SIDE_EFFECT)
    return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: has side effects, which would repeat per chunk");
  if (regions_read(f, c->cls, ROWS)) /* a capture */
    return hr_op_error(f, HR_UNIMPLEMENTED, "batch split: a region reads a batch-shaped value of main");
  for (int r = 0; r < f->n_results; r++) c->cls[f->results[r].id] = (unsigned char)want;
  return NULL;
}

hr_status hr_split_check(const hr_module *full, const hr_module *part, int64_t chunks, const hr_allocator *a) {
  split_check c = {hr_module_find_func(full, "main"), hr_module_find_func(part, "main"), chunks, NULL};
  if (!c.full || !c.part || chunks < 2 || c.full->n_args != c.part->n_args || c.full->body.n_ops != c.part->body.n_ops)
    return hr_error(HR_UNIMPLEMENTED, "batch split: the specialization for a smaller batch differs");
  c.cls = a->alloc(a->ctx, c.full->n_values ? c.full->n_values : 1, 1);
  if (!c.cls) return hr_error(HR_OUT_OF_MEMORY, "out of memory checking a batch split");
  memset(c.cls, UNSEEN, c.full->n_values);
  hr_status s = NULL;
  for (int i = 0; !s && i < c.full->n_args; i++) {
    int cls = type_class(&c.full->body.args[i].type, &c.part->body.args[i].type, chunks);
    if (cls == UNSEEN)
      s = hr_error(HR_UNIMPLEMENTED, "batch split: parameter %d of @main does not scale with the batch", i);
    else
      c.cls[c.full->body.args[i].id] = (unsigned char)cls;
  }
  for (int i = 0; !s && i < c.full->body.n_ops; i++) s = check_op(&c, i);
  a->free(a->ctx, c.cls);
  return s;
}

/* Whether an operand of `op`, or a value its regions read, is marked 1 in `dep`. */
static bool reads_marked(const hr_op *op, const unsigned char *dep) {
  for (int k = 0; k < op->n_operands; k++)
    if (dep[op->operands[k]->id]) return true;
  return regions_read(op, dep, 1);
}

int64_t hr_split_batch(const hr_module *full, const bool *is_input, int64_t batch, size_t max_bytes,
                       const hr_allocator *a) {
  const hr_func *fn = hr_module_find_func(full, "main");
  if (!fn || batch < 2) return batch;
  /* Marks, in value-id order (defs come before uses), the values computed from runtime inputs. */
  unsigned char *dep = a->alloc(a->ctx, fn->n_values ? fn->n_values : 1, 1);
  if (!dep) return batch;
  memset(dep, 0, fn->n_values);
  for (int i = 0; i < fn->n_args; i++) dep[fn->body.args[i].id] = is_input[i] ? 1 : 0;
  size_t largest = 0;
  for (int i = 0; i < fn->body.n_ops; i++) {
    const hr_op *op = fn->body.ops[i];
    if (!reads_marked(op, dep)) continue;
    for (int r = 0; r < op->n_results; r++) {
      dep[op->results[r].id] = 1;
      size_t bytes = 0;
      if (hr_type_bytes(&op->results[r].type, &bytes) && bytes > largest) largest = bytes;
    }
  }
  a->free(a->ctx, dep);
  if (largest <= max_bytes) return batch;
  /* The largest divisor m of batch with largest * m / batch <= max_bytes, over the divisor pairs
   * (d, batch / d) with d up to the square root. */
  double fits = (double)max_bytes * (double)batch / (double)largest;
  int64_t best = 1;
  for (int64_t d = 1; d <= batch / d; d++) {
    if (batch % d != 0) continue;
    if ((double)d <= fits && d > best) best = d;
    if ((double)(batch / d) <= fits && batch / d > best) best = batch / d;
  }
  return best;
}

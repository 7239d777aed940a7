/* Matchers shared by the fusions: definitions, splat constants, unit reshapes, reductions, row and
 * column broadcasts, the fusable elementwise ops, and small op sets (patterns). */
#include <string.h>

#include "compiler/fuse_internal.h"

/* Largest non-splat constant scanned to see whether all its elements are equal. */
#define MAX_UNIFORM_SCAN 65536

bool hf_ok(hr_status s) {
  bool ok = s == NULL;
  hr_status_free(s);
  return ok;
}

const hr_op *hf_def(const hf_graph *g, const hr_value *v, hr_opcode code) {
  const hr_op *op = v->def;
  return op && op->code == code && op->parent == &g->fn->body ? op : NULL;
}

bool hf_is_f32(const hr_value *v) {
  return v->type.kind == HR_TYPE_TENSOR && v->type.dtype == HR_F32 && hr_type_is_static(&v->type);
}

bool hf_same_type(const hr_value *a, const hr_value *b) { return hr_type_equal(&a->type, &b->type); }

/* Reads the single value of an f32 DENSE attribute whose elements are all equal. */
static bool uniform_f32(const hr_attr *a, float *out) {
  if (!a || a->kind != HR_ATTR_DENSE || a->u.dense.type.dtype != HR_F32 || a->u.dense.nbytes < sizeof(float))
    return false;
  const unsigned char *d = a->u.dense.data;
  size_t n = a->u.dense.splat ? 1 : a->u.dense.nbytes / sizeof(float);
  if (n > MAX_UNIFORM_SCAN) return false;
  for (size_t i = 1; i < n; i++)
    if (memcmp(d, d + i * sizeof(float), sizeof(float)) != 0) return false;
  memcpy(out, d, sizeof *out);
  return true;
}

bool hf_splat_f32(const hf_graph *g, const hr_value *v, float *out) {
  while (v->type.kind == HR_TYPE_TENSOR && v->type.dtype == HR_F32) {
    const hr_op *op = v->def;
    if (!op || op->parent != &g->fn->body) return false;
    if (op->code == HR_OP_CONSTANT) return uniform_f32(hr_op_attr(op, "value"), out);
    if (op->code != HR_OP_BROADCAST_IN_DIM && op->code != HR_OP_RESHAPE) return false;
    v = op->operands[0];
  }
  return false;
}

bool hf_is_splat(const hf_graph *g, const hr_value *v, float want) {
  float x;
  return hf_splat_f32(g, v, &x) && x == want;
}

/* Whether shapes a and b have the same dimensions once those of size 1 are dropped. */
static bool same_but_unit_dims(const hr_shape *a, const hr_shape *b) {
  int i = 0, j = 0;
  for (;;) {
    while (i < a->rank && a->dims[i] == 1) i++;
    while (j < b->rank && b->dims[j] == 1) j++;
    if (i == a->rank || j == b->rank) return i == a->rank && j == b->rank;
    if (a->dims[i++] != b->dims[j++]) return false;
  }
}

bool hf_is_unit_reshape(const hr_op *op) {
  return op->code == HR_OP_RESHAPE && same_but_unit_dims(&op->results[0].type.shape, &op->operands[0]->type.shape);
}

hr_value *hf_strip_unit_reshapes(const hf_graph *g, hr_value *v, hf_ops *p) {
  const hr_op *op;
  while ((op = hf_def(g, v, HR_OP_RESHAPE)) && hf_is_unit_reshape(op)) {
    if (p && !hf_ops_add(p, op)) break;
    v = op->operands[0];
  }
  return v;
}

/* Whether region `b` is `%r = <code> %arg0, %arg1` (or swapped arguments); return %r. */
static bool is_binary_body(const hr_block *b, hr_opcode code) {
  if (b->n_args != 2 || b->n_ops != 2) return false;
  const hr_op *op = b->ops[0], *ret = b->ops[1];
  if (op->code != code || op->n_operands != 2 || op->n_regions != 0 || ret->code != HR_OP_RETURN ||
      ret->n_operands != 1 || ret->operands[0] != &op->results[0])
    return false;
  const hr_value *x = op->operands[0], *y = op->operands[1];
  return (x == &b->args[0] && y == &b->args[1]) || (x == &b->args[1] && y == &b->args[0]);
}

bool hf_is_reduce(const hf_graph *g, const hr_op *op, hr_opcode body_code, float init, int64_t dim) {
  if (op->code != HR_OP_REDUCE || op->n_operands != 2 || op->n_results != 1 || op->n_regions != 1) return false;
  if (!hf_is_f32(op->operands[0]) || !hf_is_f32(&op->results[0]) || op->operands[1]->type.shape.rank != 0 ||
      !hf_is_splat(g, op->operands[1], init))
    return false;
  int64_t dims[HR_MAX_RANK];
  int n = 0;
  if (!hf_ok(hr_op_attr_i64_list(op, "dimensions", dims, HR_MAX_RANK, &n))) return false;
  return n == 1 && dims[0] == dim && is_binary_body(&op->regions[0], body_code);
}

/* Reads the broadcast_dimensions of broadcast_in_dim `op`; false when malformed. */
static bool broadcast_dims(const hr_op *op, int64_t *dims, int *n) {
  return hf_ok(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, n));
}

hr_value *hf_row_source(const hf_graph *g, const hr_value *v, hf_ops *p) {
  const hr_op *op = hf_def(g, v, HR_OP_BROADCAST_IN_DIM);
  int64_t dims[HR_MAX_RANK];
  int n;
  if (!op || !hf_is_f32(v) || !broadcast_dims(op, dims, &n)) return NULL;
  const hr_shape *r = &v->type.shape, *s = &op->operands[0]->type.shape;
  bool keeps_unit = s->rank == r->rank && r->rank > 0 && s->dims[r->rank - 1] == 1;
  if (r->rank < 1 || n != s->rank || (s->rank != r->rank - 1 && !keeps_unit)) return NULL;
  for (int j = 0; j < r->rank - 1; j++)
    if (dims[j] != j || s->dims[j] != r->dims[j]) return NULL;
  if ((keeps_unit && dims[r->rank - 1] != r->rank - 1) || !hf_ops_add(p, op)) return NULL;
  return hf_strip_unit_reshapes(g, op->operands[0], p);
}

/* Whether `v` is an f32 constant (rank >= 1) whose rows along the last dimension are all equal. */
static bool constant_with_equal_rows(const hf_graph *g, const hr_value *v) {
  const hr_op *op = hf_def(g, v, HR_OP_CONSTANT);
  const hr_attr *a = op ? hr_op_attr(op, "value") : NULL;
  if (!a || a->kind != HR_ATTR_DENSE || a->u.dense.type.dtype != HR_F32 || !hf_is_f32(v) || v->type.shape.rank < 1)
    return false;
  if (a->u.dense.splat) return true;
  int64_t cols = v->type.shape.dims[v->type.shape.rank - 1], n;
  if (!hf_ok(hr_shape_num_elements(&v->type.shape, &n)) || cols < 1 || a->u.dense.nbytes != (size_t)n * sizeof(float))
    return false;
  const unsigned char *d = a->u.dense.data;
  size_t row = (size_t)cols * sizeof(float);
  for (int64_t r = 1; r < n / cols; r++)
    if (memcmp(d + (size_t)r * row, d, row) != 0) return false;
  return true;
}

hr_value *hf_column_source(const hf_graph *g, hr_value *v) {
  if (constant_with_equal_rows(g, v)) return v;
  const hr_op *op = hf_def(g, v, HR_OP_BROADCAST_IN_DIM);
  int64_t dims[HR_MAX_RANK];
  int n;
  if (!op || !hf_is_f32(v) || !hf_is_f32(op->operands[0]) || !broadcast_dims(op, dims, &n)) return NULL;
  const hr_shape *r = &v->type.shape, *s = &op->operands[0]->type.shape;
  if (r->rank < 1 || n != s->rank) return NULL;
  int64_t cols = r->dims[r->rank - 1], count = 1;
  for (int j = 0; j < s->rank; j++) {
    if (s->dims[j] != 1 && (dims[j] != r->rank - 1 || s->dims[j] != cols)) return NULL;
    count *= s->dims[j];
  }
  return count == cols ? op->operands[0] : NULL;
}

hr_status hf_column_vector(hf_graph *g, hr_value *s, int64_t n, int pos, hr_value **out) {
  hr_value *v = hf_strip_unit_reshapes(g, s, NULL);
  if (v->type.shape.rank == 1 && v->type.shape.dims[0] == n) {
    *out = v;
    return NULL;
  }
  hr_type t = hr_tensor_type(HR_F32, 1, &n);
  hr_op *op;
  const hr_op *c = hf_def(g, s, HR_OP_CONSTANT);
  if (c) {
    const hr_attr *a = hr_op_attr(c, "value");
    size_t bytes = a->u.dense.splat ? sizeof(float) : (size_t)n * sizeof(float);
    HR_TRY(hf_new_constant(g, hf_op_at(g, pos), &t, a->u.dense.data, bytes, a->u.dense.splat, &op));
  } else {
    HR_TRY(hf_new_op(g, HR_OP_RESHAPE, hf_op_at(g, pos), &s, 1, &t, &op));
  }
  HR_TRY(hf_insert_before(g, pos, op));
  *out = &op->results[0];
  return NULL;
}

/* Reads integer-list field `name` of dimension-numbers struct `dn` (absent: empty). */
static bool dims_field(const hr_attr *dn, const char *name, int64_t *out, int *n) {
  const hr_attr *f = hr_attr_field(dn, name);
  *n = 0;
  return !f || hf_ok(hr_attr_to_i64_list(f, out, HR_MAX_RANK, n));
}

bool hf_dot_dims_of(const hr_op *op, hf_dot_dims *d) {
  const hr_attr *dn = hr_op_attr(op, "dot_dimension_numbers");
  int nlb, nrb, nlc, nrc;
  if (!dn || (dn->kind != HR_ATTR_STRUCT && dn->kind != HR_ATTR_DICT)) return false;
  if (!dims_field(dn, "lhs_batching_dimensions", d->lhs_batch, &nlb) ||
      !dims_field(dn, "rhs_batching_dimensions", d->rhs_batch, &nrb) ||
      !dims_field(dn, "lhs_contracting_dimensions", d->lhs_contract, &nlc) ||
      !dims_field(dn, "rhs_contracting_dimensions", d->rhs_contract, &nrc) || nlb != nrb || nlc != nrc)
    return false;
  d->n_batch = nlb;
  d->n_contract = nlc;
  return true;
}

bool hf_list_is(const int64_t *list, int n, const int64_t *want, int n_want) {
  if (n != n_want) return false;
  for (int i = 0; i < n; i++)
    if (list[i] != want[i]) return false;
  return true;
}

/* Whether fusions may move ops of this code into a scalar body (the list in fuse.h). */
static bool fusable_code(hr_opcode code) {
  switch (code) {
    case HR_OP_ADD: case HR_OP_SUBTRACT: case HR_OP_MULTIPLY: case HR_OP_DIVIDE: case HR_OP_MAXIMUM:
    case HR_OP_MINIMUM: case HR_OP_POWER: case HR_OP_NEGATE: case HR_OP_ABS: case HR_OP_SIGN: case HR_OP_FLOOR:
    case HR_OP_CEIL: case HR_OP_EXPONENTIAL: case HR_OP_EXPONENTIAL_MINUS_ONE: case HR_OP_LOG:
    case HR_OP_LOG_PLUS_ONE: case HR_OP_LOGISTIC: case HR_OP_TANH: case HR_OP_SQRT: case HR_OP_RSQRT:
    case HR_OP_SINE: case HR_OP_COSINE: case HR_OP_CLAMP: case HR_OP_CHLO_ERF: return true;
    default: return false;
  }
}

bool hf_fusable(const hr_op *op) {
  if (!fusable_code(op->code) || op->n_results != 1 || op->n_regions != 0 || op->n_operands < 1 ||
      !hf_is_f32(&op->results[0]))
    return false;
  for (int i = 0; i < op->n_operands; i++) {
    const hr_value *x = op->operands[i];
    bool scalar_ok = op->code == HR_OP_CLAMP && x->type.shape.rank == 0;
    if (!hf_is_f32(x) || (!scalar_ok && !hf_same_type(x, &op->results[0]))) return false;
  }
  return true;
}

bool hf_ops_has(const hf_ops *p, const hr_op *op) {
  for (int i = 0; i < p->n; i++)
    if (p->ops[i] == op) return true;
  return false;
}

bool hf_ops_add(hf_ops *p, const hr_op *op) {
  if (hf_ops_has(p, op)) return true;
  if (p->n == HF_MAX_PATTERN) return false;
  p->ops[p->n++] = op;
  return true;
}

bool hf_ops_closed(const hf_graph *g, const hf_ops *p, const hr_op *root) {
  for (int i = 0; i < p->n; i++) {
    if (p->ops[i] == root) continue;
    for (int r = 0; r < p->ops[i]->n_results; r++) {
      const hr_value *v = &p->ops[i]->results[r];
      uint32_t inside = 0;
      for (int k = 0; k < p->n; k++)
        for (int j = 0; j < p->ops[k]->n_operands; j++) inside += p->ops[k]->operands[j] == v;
      if (inside != hf_uses(g, v)) return false;
    }
  }
  return true;
}

hr_value *hf_other(const hr_op *op, int i) { return op->operands[1 - i]; }

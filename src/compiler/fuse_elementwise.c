/* Chains of elementwise ops left over by the other fusions:
 *
 *   %b = broadcast_in_dim %pos, dims = [0, 1, 2]
 *   %y = add %x, %b
 *
 * becomes %y = "hlorun.fused"(%x, %pos) ({add}) {broadcast_dimensions = [[0, 1, 2], [0, 1, 2]]}.
 *
 * Roots are taken last to first; a root's group grows backwards over the fusable elementwise ops
 * (fuse.h) of the same type whose results only the group reads, largest position first, so that
 * when an op is considered every reader of its result has already been decided. Values read
 * from outside the group become operands: splat constants go into the body, a broadcast_in_dim
 * (strictly increasing dimensions) is read through its source, anything else as it is. A group is
 * fused when that removes at least one intermediate tensor (a second op, or a broadcast whose
 * every reader is in the group) and reads at least one value that is not a constant (constant
 * computations are left to constant folding). */
#include <string.h>

#include "compiler/fuse_internal.h"

/* Most producers waiting to be considered for one group. */
#define MAX_CANDIDATES (3 * HF_MAX_PATTERN)
/* Most operands (and body values) of one hlorun.fused. */
#define MAX_INPUTS (3 * HF_MAX_PATTERN)

/* The ops of a group, largest position first (the root first). */
typedef struct group {
  int n;
  const hr_op *ops[HF_MAX_PATTERN];
  int pos[HF_MAX_PATTERN];
} group;

/* An operand of the fused op: a value read through broadcast dimensions, or a body constant. */
typedef struct input {
  const hr_value *read; /* the value the group's ops read */
  hr_value *value;      /* the fused op's operand; for a constant, its body value once made */
  int64_t bd[HR_MAX_RANK];
  int n_bd;
  bool is_constant;
  float constant;
} input;

/* ---------------------------------------------------------------------------------------------- */
/* Groups                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Operand slots of the group's ops reading `v`. */
static uint32_t group_reads(const group *grp, const hr_value *v) {
  uint32_t reads = 0;
  for (int k = 0; k < grp->n; k++)
    for (int j = 0; j < grp->ops[k]->n_operands; j++) reads += grp->ops[k]->operands[j] == v;
  return reads;
}

/* Whether the group holds the op defining `v`. */
static bool produced_in(const group *grp, const hr_value *v) {
  for (int k = 0; k < grp->n; k++)
    if (&grp->ops[k]->results[0] == v) return true;
  return false;
}

/* Queues the producers of `op`'s operands that could join a group rooted at a value of type
 * `t`. */
static void queue_producers(const hf_graph *g, const hr_op *op, const hr_value *t, int *cand, int *n_cand) {
  for (int j = 0; j < op->n_operands; j++) {
    int p = hf_pos_of(g, op->operands[j]);
    if (p < 0 || g->claimed[p] || !hf_fusable(hf_op_at(g, p)) || !hf_same_type(op->operands[j], t)) continue;
    bool queued = false;
    for (int i = 0; i < *n_cand; i++) queued |= cand[i] == p;
    if (!queued && *n_cand < MAX_CANDIDATES) cand[(*n_cand)++] = p;
  }
}

/* Grows the group of the root at `root_pos` (see the file comment). */
static void collect(const hf_graph *g, int root_pos, group *grp) {
  int cand[MAX_CANDIDATES], n_cand = 0;
  const hr_op *root = hf_op_at(g, root_pos);
  grp->n = 1;
  grp->ops[0] = root;
  grp->pos[0] = root_pos;
  queue_producers(g, root, &root->results[0], cand, &n_cand);
  while (n_cand > 0 && grp->n < HF_MAX_PATTERN) {
    int best = 0;
    for (int i = 1; i < n_cand; i++)
      if (cand[i] > cand[best]) best = i;
    int p = cand[best];
    cand[best] = cand[--n_cand];
    const hr_op *op = hf_op_at(g, p);
    if (group_reads(grp, &op->results[0]) != hf_uses(g, &op->results[0])) continue;
    grp->ops[grp->n] = op;
    grp->pos[grp->n++] = p;
    queue_producers(g, op, &root->results[0], cand, &n_cand);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Operands                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Reads the broadcast dimensions of broadcast_in_dim `op` when strictly increasing. */
static bool increasing_dims(const hr_op *op, int64_t *dims, int *n) {
  if (!hf_ok(hr_op_attr_i64_list(op, "broadcast_dimensions", dims, HR_MAX_RANK, n))) return false;
  for (int j = 1; j < *n; j++)
    if (dims[j] <= dims[j - 1]) return false;
  return true;
}

/* Reads `x` through broadcast source `src` (dimensions `dims`), or through src's own operand
 * when src only reshapes one without unit dimensions (a [D] bias reshaped to [1, 1, D]). */
static void read_through(const hf_graph *g, hr_value *src, const int64_t *dims, input *x) {
  hr_value *inner = hf_strip_unit_reshapes(g, src, NULL);
  bool plain = true;
  for (int j = 0; j < inner->type.shape.rank; j++) plain &= inner->type.shape.dims[j] > 1;
  if (inner == src || !plain) {
    x->value = src;
    x->n_bd = src->type.shape.rank;
    memcpy(x->bd, dims, sizeof *dims * (size_t)x->n_bd);
    return;
  }
  x->value = inner;
  x->n_bd = 0;
  for (int j = 0; j < src->type.shape.rank; j++)
    if (src->type.shape.dims[j] > 1) x->bd[x->n_bd++] = dims[j];
}

/* How the group reads `w` from outside: a constant, a broadcast's source, or `w` itself. */
static input classify(const hf_graph *g, hr_value *w) {
  input x;
  memset(&x, 0, sizeof x);
  x.read = w;
  const hr_op *b = hf_def(g, w, HR_OP_BROADCAST_IN_DIM);
  int64_t dims[HR_MAX_RANK];
  int n;
  if (hf_splat_f32(g, w, &x.constant)) {
    x.is_constant = true;
  } else if (b && hf_is_f32(b->operands[0]) && increasing_dims(b, dims, &n) &&
             n == b->operands[0]->type.shape.rank) {
    read_through(g, b->operands[0], dims, &x);
  } else {
    x.value = w;
    x.n_bd = w->type.shape.rank;
    for (int j = 0; j < x.n_bd; j++) x.bd[j] = j;
  }
  return x;
}

/* Lists the group's inputs in program order, each read value once; counts the broadcasts that
 * die. */
static int list_inputs(const hf_graph *g, const group *grp, input *inputs, int *n_inputs) {
  int dead = 0;
  for (int k = grp->n - 1; k >= 0; k--)
    for (int j = 0; j < grp->ops[k]->n_operands; j++) {
      hr_value *w = grp->ops[k]->operands[j];
      bool seen = produced_in(grp, w);
      for (int i = 0; !seen && i < *n_inputs; i++) seen = inputs[i].read == w;
      if (seen) continue;
      input x = classify(g, w);
      inputs[(*n_inputs)++] = x;
      dead += !x.is_constant && x.value != w && group_reads(grp, w) == hf_uses(g, w);
    }
  return dead;
}

/* ---------------------------------------------------------------------------------------------- */
/* Building hlorun.fused                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* The body value for `w`: an inner value, an argument or a constant (created once). */
static hr_status body_value(hf_graph *g, hf_body *b, const group *grp, input *inputs, int n_inputs,
                            hr_value **inner, const hr_value *w, hr_value **out) {
  for (int k = 0; k < grp->n; k++)
    if (&grp->ops[k]->results[0] == w) {
      *out = inner[k];
      return NULL;
    }
  int arg = 0;
  for (int i = 0; i < n_inputs; i++) {
    if (inputs[i].read == w && !inputs[i].is_constant) {
      *out = &b->block->args[arg];
      return NULL;
    }
    if (inputs[i].read == w) {
      if (!inputs[i].value) HR_TRY(hf_body_constant(g, b, grp->ops[0], inputs[i].constant, &inputs[i].value));
      *out = inputs[i].value;
      return NULL;
    }
    arg += !inputs[i].is_constant;
  }
  return hr_error(HR_INTERNAL, "fusion: a body operand has no source");
}

/* Fills the body with the group's ops in program order; *result receives the root's value. */
static hr_status fill_body(hf_graph *g, hf_body *b, const group *grp, input *inputs, int n_inputs, hr_value **result) {
  hr_value *inner[HF_MAX_PATTERN] = {0};
  for (int k = grp->n - 1; k >= 0; k--) {
    const hr_op *op = grp->ops[k];
    hr_value *operands[4];
    for (int j = 0; j < op->n_operands; j++)
      HR_TRY(body_value(g, b, grp, inputs, n_inputs, inner, op->operands[j], &operands[j]));
    HR_TRY(hf_body_clone(g, b, op, operands, &inner[k]));
  }
  *result = inner[0];
  return NULL;
}

/* The broadcast_dimensions attribute and operand list of the fused op. */
static hr_status operands_of(hf_graph *g, const input *inputs, int n_inputs, hr_value **operands, int *n,
                             hr_attr **bds) {
  *n = 0;
  for (int i = 0; i < n_inputs; i++) *n += !inputs[i].is_constant;
  HR_TRY(hf_attr_list(g, *n, bds));
  for (int i = 0, k = 0; i < n_inputs; i++) {
    if (inputs[i].is_constant) continue;
    operands[k] = inputs[i].value;
    HR_TRY(hf_attr_i64s(g, inputs[i].bd, inputs[i].n_bd, &(*bds)->u.array.items[k]));
    k++;
  }
  return NULL;
}

/* Replaces the group with hlorun.fused. */
static hr_status emit(hf_graph *g, const group *grp, input *inputs, int n_inputs) {
  hr_op *root = hf_op_at(g, grp->pos[0]), *op;
  hr_value *operands[MAX_INPUTS], *result;
  hr_attr *bds;
  int n;
  HR_TRY(operands_of(g, inputs, n_inputs, operands, &n, &bds));
  HR_TRY(hf_new_op(g, HR_OP_HLORUN_FUSED, root, operands, n, &root->results[0].type, &op));
  HR_TRY(hf_set_attr(g, op, "broadcast_dimensions", bds));
  hf_body body;
  hr_status s = hf_body_begin(g, op, n, &body);
  if (!s) s = fill_body(g, &body, grp, inputs, n_inputs, &result);
  if (!s) s = hf_body_finish(g, &body, root, result);
  hf_body_release(g, &body);
  HR_TRY(s);
  HR_TRY(hf_insert_before(g, grp->pos[0], op));
  hf_replace(g, &root->results[0], &op->results[0]);
  g->stats.fused++;
  g->stats.fused_ops += grp->n;
  return NULL;
}

hr_status hf_fuse_elementwise(hf_graph *g) {
  for (int pos = g->n_ops - 1; pos >= 0; pos--) {
    if (g->claimed[pos] || !hf_fusable(hf_op_at(g, pos))) continue;
    group grp;
    input inputs[MAX_INPUTS];
    int n_inputs = 0;
    collect(g, pos, &grp);
    for (int k = 0; k < grp.n; k++) g->claimed[grp.pos[k]] = true;
    int dead = list_inputs(g, &grp, inputs, &n_inputs), n_values = 0;
    for (int i = 0; i < n_inputs; i++) n_values += !inputs[i].is_constant;
    if (grp.n - 1 + dead >= 1 && n_values > 0) HR_TRY(emit(g, &grp, inputs, n_inputs));
  }
  return NULL;
}

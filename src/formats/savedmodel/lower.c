/* A function of the object graph as one StableHLO module (savedmodel.h: hr_savedmodel_lower).
 *
 * jax2tf puts a few TF ops around its XlaCallModule nodes when the JAX code branches on shapes:
 * deepmd's call_lower pads or sorts the neighbour list (format_nlist: StatelessIf on the list's
 * width against sum(sel)) and picks one of two exported modules (If on whether there are ghost
 * atoms). Such a function is written as StableHLO text and parsed: @main takes the function's
 * arguments; the TF ops become StableHLO ops (Shape: get_dimension_size, StridedSlice on a shape:
 * slice, Cast: convert, Equal/Less/...: compare, Pack and ConcatV2: concatenate, Reshape and
 * BroadcastTo: their dynamic forms, Sub/AddV2/Mul); each XlaCallModule's module joins the output
 * module with its functions renamed and is called; If/StatelessIf becomes stablehlo.if.
 *
 * Branches are decided per input shape, when the program is specialized for them: a predicate
 * must be computed from shapes and constants only (else the function is refused), so it folds to
 * a constant for every static input shape and the compiler keeps only the branch taken. A
 * predicate known while lowering (constants, static dimensions) picks its branch here. A branch
 * holding an op hlorun does not lower (deepmd's neighbour-list sort: TopKV2, GatherV2, ...) calls
 * a function declared without a body whose name is the error, so that the shapes taking it fail
 * with that error when the program is specialized for them and every other shape runs; an If
 * none of whose branches lowers is refused here, as is any other op hlorun does not lower. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "formats/savedmodel/savedmodel_internal.h"
#include "formats/savedmodel/tf_types.h"
#include "ir/ir.h"

/* Elements of an integer vector (shapes) whose values lowering keeps track of. */
enum { KNOWN_MAX = HR_MAX_RANK, TYPE_TEXT = 512, CONST_MAX = 4096 };

/* A lowered tensor: its SSA name in the text, its type, and what lowering knows of it. */
typedef struct gval {
  char ssa[32];     /* "%g12", "%g12#3", "%a0" */
  hr_type type;     /* a ranked tensor type, HR_DYNAMIC where unknown */
  bool from_shapes; /* computed from input shapes and constants only */
  int n_known;      /* an integer or bool value of rank 0 or 1: its elements; else -1 */
  bool known[KNOWN_MAX];
  int64_t value[KNOWN_MAX];
} gval;

/* A function instance being lowered: the function, the node that entered it in the caller's scope
 * (its data input i + arg_offset is argument i), and the text block its values go to. */
typedef struct lscope {
  int id;
  const tf_function *fn;
  const struct lscope *caller; /* NULL: the function lowered, whose arguments are @main's */
  const tf_node *call;
  int arg_offset; /* 1 for If (the predicate comes first), else 0 */
  hr_strbuf *block;
  int depth;
} lscope;

/* What lowering remembers of node `node` in scope `scope`: its output `index` (v), or, with
 * index -1, the scope a call node (PartitionedCall) entered, so that each of its outputs is read
 * from the same instance. Kept in a hash table (open addressing) by those three. */
typedef struct memo {
  int scope;
  const tf_node *node;
  int index;
  gval v;
  lscope *call;
} memo;

/* An XlaCallModule's module, to be added to the output with its functions renamed "xcmN_". */
typedef struct called_module {
  const tf_node *node;
  hr_module *module;
} called_module;

typedef struct lowering {
  hr_savedmodel *sm;
  const hr_parse_options *opts;
  int next_value, next_scope, steps, depth;
  memo **table; /* hash table of cap (a power of two) slots, at most half of them used */
  int n_memos, cap;
  hr_type *main_types; /* the types of @main's parameters */
  called_module *modules; /* one per XlaCallModule node at most (sm->n_xla_calls) */
  int n_modules;
  hr_strbuf decls; /* declarations of the functions refused branches call */
  int n_refused;
} lowering;

static hr_status lower_ref(lowering *l, const lscope *s, const char *ref, gval *out);

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory lowering a TensorFlow function"); }

/* ---------------------------------------------------------------------------------------------- */
/* Values and text                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* A fresh SSA name ("%g7"; of an op with several results, the base of "%g7#i"). */
static void fresh(lowering *l, char *ssa) { snprintf(ssa, 32, "%%g%d", l->next_value++); }

/* The MLIR spelling of a type. */
static const char *type_text(const hr_type *t, char *buf) {
  hr_type_format(t, buf, TYPE_TEXT);
  return buf;
}

/* A value of `type` named `ssa`, with nothing known of it. */
static gval make_value(const char *ssa, hr_type type, bool from_shapes) {
  gval v = {.type = type, .from_shapes = from_shapes, .n_known = -1};
  snprintf(v.ssa, sizeof v.ssa, "%.*s", (int)sizeof v.ssa - 1, ssa);
  return v;
}

/* Whether every element of `v` is known. */
static bool all_known(const gval *v) {
  if (v->n_known < 0) return false;
  for (int i = 0; i < v->n_known; i++)
    if (!v->known[i]) return false;
  return true;
}

/* The number of elements of an integer value of rank 0 or 1 whose values can be tracked, or -1. */
static int trackable(const hr_type *t) {
  bool integer = t->dtype == HR_I1 || t->dtype == HR_I8 || t->dtype == HR_I16 || t->dtype == HR_I32 || t->dtype == HR_I64 ||
                 t->dtype == HR_U8 || t->dtype == HR_U16 || t->dtype == HR_U32 || t->dtype == HR_U64;
  if (!integer || t->shape.rank > 1) return -1;
  if (t->shape.rank == 0) return 1;
  return t->shape.dims[0] >= 0 && t->shape.dims[0] <= KNOWN_MAX ? (int)t->shape.dims[0] : -1;
}

/* Writes a float element as MLIR reads it back exactly (hexadecimal bits for inf and NaN). */
static void put_float(hr_strbuf *b, double v, hr_dtype dt) {
  if (isfinite(v)) {
    char num[40];
    snprintf(num, sizeof num, "%.17g", v);
    hr_strbuf_printf(b, "%s%s", num, strpbrk(num, ".en") ? "" : ".0");
    return;
  }
  if (dt == HR_F32) {
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    hr_strbuf_printf(b, "0x%08" PRIX32, bits);
  } else {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    hr_strbuf_printf(b, "0x%016" PRIX64, bits);
  }
}

/* Writes the elements [*i, ...) of dimensions d.. of a constant as a dense literal's nested lists. */
static void put_elements(hr_strbuf *b, const tf_const *k, hr_dtype dt, int d, int64_t *i) {
  if (d == k->shape.rank) {
    if (k->floats) put_float(b, k->floats[*i], dt);
    else if (dt == HR_I1) hr_strbuf_puts(b, k->ints[*i] ? "true" : "false");
    else hr_strbuf_printf(b, "%" PRId64, k->ints[*i]);
    (*i)++;
    return;
  }
  hr_strbuf_putc(b, '[');
  for (int64_t j = 0; j < k->shape.dims[d]; j++) {
    if (j) hr_strbuf_puts(b, ", ");
    put_elements(b, k, dt, d + 1, i);
  }
  hr_strbuf_putc(b, ']');
}

/* Whether every element of constant `k` equals its first. */
static bool is_splat(const tf_const *k) {
  for (int64_t i = 1; i < k->n; i++)
    if (k->floats ? memcmp(&k->floats[i], &k->floats[0], sizeof(double)) != 0 : k->ints[i] != k->ints[0]) return false;
  return k->n > 0;
}

/* Emits constant `k` (of hr_dtype dt) into scope s's block as a new value. */
static hr_status emit_constant(lowering *l, const lscope *s, const tf_const *k, hr_dtype dt, gval *out) {
  int64_t dims[HR_MAX_RANK];
  for (int d = 0; d < k->shape.rank; d++) dims[d] = k->shape.dims[d];
  hr_type t = hr_tensor_type(dt, k->shape.rank, dims);
  char ssa[32], tt[TYPE_TEXT];
  fresh(l, ssa);
  hr_strbuf_printf(s->block, "    %s = \"stablehlo.constant\"() {value = dense<", ssa);
  if (is_splat(k)) {
    tf_const one = *k;
    one.shape.rank = 0;
    int64_t i = 0;
    put_elements(s->block, &one, dt, 0, &i);
  } else if (k->n > 0) {
    int64_t i = 0;
    put_elements(s->block, k, dt, 0, &i);
  }
  hr_strbuf_printf(s->block, "> : %s} : () -> %s\n", type_text(&t, tt), tt);
  *out = make_value(ssa, t, true);
  int n = trackable(&t);
  if (n >= 0 && k->ints) {
    out->n_known = n;
    for (int i = 0; i < n; i++) out->known[i] = true, out->value[i] = k->ints[i];
  }
  return NULL;
}

/* Emits an integer value of type `t` whose elements are all known (v->value) as a constant. */
static hr_status emit_known(lowering *l, const lscope *s, const hr_type *t, const gval *v, gval *out) {
  int64_t ints[KNOWN_MAX];
  tf_const k = {.shape.rank = t->shape.rank, .n = v->n_known, .ints = ints};
  if (t->shape.rank == 1) k.shape.dims[0] = v->n_known;
  for (int i = 0; i < v->n_known; i++) ints[i] = v->value[i];
  return emit_constant(l, s, &k, t->dtype, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* Graph references                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* The number of non-control inputs of `node`. */
static int n_data_inputs(const tf_node *node) {
  int n = 0;
  for (int k = 0; k < node->n_inputs; k++) n += node->inputs[k][0] != '^';
  return n;
}

/* Lowers data input `i` of `node` in scope `s`. */
static hr_status lower_input(lowering *l, const lscope *s, const tf_node *node, int i, gval *out) {
  const char *in = tf_data_input(node, i);
  if (!in) return hr_pb_error(&l->sm->file, node->offset, "node '%s' (%s) lacks input %d", node->name, node->op, i);
  return lower_ref(l, s, in, out);
}

/* The hash table slot of (scope, node, index): where it is, or the empty slot it would take. */
static memo **slot(const lowering *l, int scope, const tf_node *node, int index) {
  uint64_t h = ((uint64_t)(uintptr_t)node * 0x9E3779B97F4A7C15u) ^ ((uint64_t)(uint32_t)scope << 20) ^ (uint64_t)(uint32_t)index;
  h ^= h >> 29;
  for (size_t i = (size_t)h & (size_t)(l->cap - 1);; i = (i + 1) & (size_t)(l->cap - 1)) {
    memo *m = l->table[i];
    if (!m || (m->scope == scope && m->node == node && m->index == index)) return &l->table[i];
  }
}

/* What is remembered of (scope, node, index), or NULL. */
static memo *recall(const lowering *l, int scope, const tf_node *node, int index) {
  return l->cap ? *slot(l, scope, node, index) : NULL;
}

/* Remembers `m`, doubling the table when it is half full. */
static hr_status remember_memo(lowering *l, const memo *m) {
  if (l->n_memos >= HR_LIMIT_TF_NODES) return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the function is too large to lower", l->sm->path);
  if (2 * (l->n_memos + 1) > l->cap) {
    int cap = l->cap ? 2 * l->cap : 256;
    memo **old = l->table;
    int old_cap = l->cap;
    if (!(l->table = HR_ARENA_ARRAY(&l->sm->arena, memo *, (size_t)cap))) return oom();
    l->cap = cap;
    for (int i = 0; i < old_cap; i++)
      if (old[i]) *slot(l, old[i]->scope, old[i]->node, old[i]->index) = old[i];
  }
  memo *copy = HR_ARENA_NEW(&l->sm->arena, memo);
  if (!copy) return oom();
  *copy = *m;
  *slot(l, m->scope, m->node, m->index) = copy;
  l->n_memos++;
  return NULL;
}

/* Remembers `v` as output `index` of `node` in scope `s`. */
static hr_status remember(lowering *l, const lscope *s, const tf_node *node, int index, const gval *v) {
  return remember_memo(l, &(memo){.scope = s->id, .node = node, .index = index, .v = *v});
}

/* An integer attribute of `node`, `dflt` when absent. */
static hr_status int_attr(lowering *l, const tf_node *node, const char *key, int64_t dflt, int64_t *out) {
  const tf_attr *a = tf_node_attr(node, key);
  *out = dflt;
  return a ? tf_attr_int(&l->sm->file, a, out) : NULL;
}

/* The hr_dtype of type attribute `key` of `node` (`dflt`, a DataType, when absent). */
static hr_status dtype_attr(lowering *l, const tf_node *node, const char *key, int dflt, hr_dtype *out) {
  const tf_attr *a = tf_node_attr(node, key);
  int tf = dflt;
  if (a) HR_TRY(tf_attr_type(&l->sm->file, a, &tf));
  if (!hr_tf_dtype_to_hr(tf, out))
    return hr_pb_error(&l->sm->file, node->offset, "node '%s' (%s): attribute %s is DataType %d, which hlorun has no type for",
                       node->name, node->op, key, tf);
  return NULL;
}

/* The UNIMPLEMENTED error for a form of a supported op that is not lowered. */
static hr_status not_lowered(lowering *l, const tf_node *node, const char *why) {
  return hr_error(HR_UNIMPLEMENTED, "%s: offset %zu: node '%s' (%s): %s", l->sm->path, node->offset, node->name, node->op, why);
}

/* ---------------------------------------------------------------------------------------------- */
/* Shape ops                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Const: its value, as a constant (integers and bools of rank 0 or 1 known to lowering). */
static hr_status lower_const(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  const tf_attr *a = tf_node_attr(node, "value");
  if (!a) return hr_pb_error(&l->sm->file, node->offset, "Const '%s' has no value", node->name);
  tf_const k;
  hr_status st = tf_attr_tensor(&l->sm->arena, &l->sm->file, a, CONST_MAX, &k);
  if (st && hr_status_code(st) == HR_UNIMPLEMENTED) { /* strings, halves, ...: name the node */
    hr_status_free(st);
    int tf = 0;
    const tf_attr *dtype = tf_node_attr(node, "dtype");
    if (dtype) HR_TRY(tf_attr_type(&l->sm->file, dtype, &tf));
    char why[160];
    snprintf(why, sizeof why, "a constant of type %s or of more than %d elements, which hlorun does not lower",
             hr_tf_dtype_name(tf) ? hr_tf_dtype_name(tf) : "?", CONST_MAX);
    return not_lowered(l, node, why);
  }
  HR_TRY(st);
  hr_dtype dt;
  if (!hr_tf_dtype_to_hr(k.dtype, &dt)) return not_lowered(l, node, "a constant of a type hlorun has no type for");
  return emit_constant(l, s, &k, dt, out);
}

/* Shape: a vector of the input's dimension sizes (get_dimension_size each, where not static). */
static hr_status lower_shape(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  gval x;
  HR_TRY(lower_input(l, s, node, 0, &x));
  hr_dtype dt;
  HR_TRY(dtype_attr(l, node, "out_type", 3 /* DT_INT32 */, &dt));
  if (dt != HR_I32 && dt != HR_I64) return not_lowered(l, node, "out_type must be int32 or int64");
  int rank = x.type.shape.rank;
  int64_t n = rank;
  hr_type t = hr_tensor_type(dt, 1, &n);
  gval v = {.n_known = rank};
  for (int d = 0; d < rank; d++) v.known[d] = x.type.shape.dims[d] >= 0, v.value[d] = x.type.shape.dims[d];
  if (all_known(&v)) return emit_known(l, s, &t, &v, out);
  char pieces[HR_MAX_RANK][32], xt[TYPE_TEXT], ssa[32];
  for (int d = 0; d < rank; d++) {
    char size[32];
    fresh(l, size);
    fresh(l, pieces[d]);
    hr_strbuf_printf(s->block,
                     "    %s = \"stablehlo.get_dimension_size\"(%s) {dimension = %d : i64} : (%s) -> tensor<i32>\n"
                     "    %s = \"stablehlo.reshape\"(%s) : (tensor<i32>) -> tensor<1xi32>\n",
                     size, x.ssa, d, type_text(&x.type, xt), pieces[d], size);
  }
  fresh(l, ssa);
  hr_strbuf_printf(s->block, "    %s = \"stablehlo.concatenate\"(", ssa);
  for (int d = 0; d < rank; d++) hr_strbuf_printf(s->block, "%s%s", d ? ", " : "", pieces[d]);
  hr_strbuf_puts(s->block, ") {dimension = 0 : i64} : (");
  for (int d = 0; d < rank; d++) hr_strbuf_printf(s->block, "%stensor<1xi32>", d ? ", " : "");
  hr_strbuf_printf(s->block, ") -> tensor<%dxi32>\n", rank);
  if (dt == HR_I64) {
    char wide[32];
    fresh(l, wide);
    hr_strbuf_printf(s->block, "    %s = \"stablehlo.convert\"(%s) : (tensor<%dxi32>) -> tensor<%dxi64>\n", wide, ssa, rank, rank);
    memcpy(ssa, wide, sizeof ssa);
  }
  *out = make_value(ssa, t, true);
  out->n_known = rank;
  memcpy(out->known, v.known, sizeof v.known);
  memcpy(out->value, v.value, sizeof v.value);
  return NULL;
}

/* StridedSlice of a vector with constant bounds and a positive stride: slice (and reshape to a
 * scalar for shrink_axis_mask). Other forms are not lowered. */
static hr_status lower_strided_slice(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  gval x, b, e, st;
  HR_TRY(lower_input(l, s, node, 0, &x));
  HR_TRY(lower_input(l, s, node, 1, &b));
  HR_TRY(lower_input(l, s, node, 2, &e));
  HR_TRY(lower_input(l, s, node, 3, &st));
  int64_t begin_mask, end_mask, ellipsis, new_axis, shrink;
  HR_TRY(int_attr(l, node, "begin_mask", 0, &begin_mask));
  HR_TRY(int_attr(l, node, "end_mask", 0, &end_mask));
  HR_TRY(int_attr(l, node, "ellipsis_mask", 0, &ellipsis));
  HR_TRY(int_attr(l, node, "new_axis_mask", 0, &new_axis));
  HR_TRY(int_attr(l, node, "shrink_axis_mask", 0, &shrink));
  int64_t len = x.type.shape.rank == 1 ? x.type.shape.dims[0] : -1;
  if (len < 0 || b.n_known != 1 || e.n_known != 1 || st.n_known != 1 || !all_known(&b) || !all_known(&e) || !all_known(&st) ||
      ellipsis || new_axis || (begin_mask | end_mask | shrink) & ~1 || st.value[0] <= 0)
    return not_lowered(l, node, "only slices of a static vector with constant bounds and a positive stride are lowered");
  int64_t stride = st.value[0], lo = b.value[0] < 0 ? b.value[0] + len : b.value[0];
  int64_t hi = e.value[0] < 0 ? e.value[0] + len : e.value[0];
  lo = begin_mask & 1 ? 0 : lo < 0 ? 0 : lo > len ? len : lo;
  hi = end_mask & 1 ? len : hi < 0 ? 0 : hi > len ? len : hi;
  if (shrink & 1) {
    if (lo >= len) return hr_pb_error(&l->sm->file, node->offset, "StridedSlice '%s': index out of range", node->name);
    hi = lo + 1;
  }
  int64_t count = hi > lo ? 1 + (hi - lo - 1) / stride : 0;
  hr_type t = hr_tensor_type(x.type.dtype, shrink & 1 ? 0 : 1, &count);
  gval v = {.n_known = trackable(&t)};
  for (int64_t i = 0; i < count && v.n_known >= 0 && x.n_known >= 0; i++) {
    v.known[i] = x.known[lo + i * stride];
    v.value[i] = x.value[lo + i * stride];
  }
  if (x.n_known < 0) v.n_known = -1;
  if (all_known(&v)) return emit_known(l, s, &t, &v, out);
  char ssa[32], xt[TYPE_TEXT], tt[TYPE_TEXT];
  fresh(l, ssa);
  hr_type sliced = hr_tensor_type(x.type.dtype, 1, &count);
  hr_strbuf_printf(s->block,
                   "    %s = \"stablehlo.slice\"(%s) {start_indices = array<i64: %" PRId64 ">, limit_indices = array<i64: %" PRId64
                   ">, strides = array<i64: %" PRId64 ">} : (%s) -> %s\n",
                   ssa, x.ssa, lo, hi, stride, type_text(&x.type, xt), type_text(&sliced, tt));
  if (shrink & 1) {
    char scalar[32];
    fresh(l, scalar);
    hr_strbuf_printf(s->block, "    %s = \"stablehlo.reshape\"(%s) : (%s) -> %s\n", scalar, ssa, tt, type_text(&t, xt));
    memcpy(ssa, scalar, sizeof ssa);
  }
  *out = v;
  out->type = t;
  out->from_shapes = x.from_shapes;
  snprintf(out->ssa, sizeof out->ssa, "%s", ssa);
  return NULL;
}

/* Whether integer `v` is representable in integer or bool type `t`. */
static bool fits(int64_t v, hr_dtype t) {
  if (t == HR_I1) return v == 0 || v == 1;
  int64_t lo, hi;
  hr_dtype_int_range(t, &lo, &hi);
  return v >= lo && v <= hi;
}

/* Cast: convert (nothing when the types agree). */
static hr_status lower_cast(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  gval x;
  HR_TRY(lower_input(l, s, node, 0, &x));
  hr_dtype dt;
  HR_TRY(dtype_attr(l, node, "DstT", 0, &dt));
  if (dt == x.type.dtype) {
    *out = x;
    return NULL;
  }
  hr_type t = x.type;
  t.dtype = dt;
  gval v = x;
  v.n_known = trackable(&t) >= 0 ? x.n_known : -1;
  for (int i = 0; i < v.n_known; i++) {
    if (dt == HR_I1) v.value[i] = v.value[i] != 0;
    v.known[i] = v.known[i] && fits(v.value[i], dt);
  }
  if (all_known(&v)) return emit_known(l, s, &t, &v, out);
  char xt[TYPE_TEXT], tt[TYPE_TEXT];
  fresh(l, v.ssa);
  hr_strbuf_printf(s->block, "    %s = \"stablehlo.convert\"(%s) : (%s) -> %s\n", v.ssa, x.ssa, type_text(&x.type, xt),
                   type_text(&t, tt));
  v.type = t;
  *out = v;
  return NULL;
}

/* Whether dtype `t` is a float type. */
static bool is_float(hr_dtype t) { return t == HR_F16 || t == HR_BF16 || t == HR_F32 || t == HR_F64; }

/* Whether dtype `t` is unsigned (or bool). */
static bool is_unsigned(hr_dtype t) { return t == HR_I1 || t == HR_U8 || t == HR_U16 || t == HR_U32 || t == HR_U64; }

/* Two operands of a binary op, which must have equal types (TF's broadcasting is not lowered). */
static hr_status binary_operands(lowering *l, const lscope *s, const tf_node *node, gval *x, gval *y) {
  HR_TRY(lower_input(l, s, node, 0, x));
  HR_TRY(lower_input(l, s, node, 1, y));
  if (!hr_type_equal(&x->type, &y->type)) return not_lowered(l, node, "operands of different types (broadcasting) are not lowered");
  return NULL;
}

/* The comparison an op name makes, or NULL. */
static const char *comparison(const char *op) {
  static const char *const names[][2] = {{"Equal", "EQ"},   {"NotEqual", "NE"}, {"Less", "LT"},
                                         {"LessEqual", "LE"}, {"Greater", "GT"}, {"GreaterEqual", "GE"}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(op, names[i][0]) == 0) return names[i][1];
  return NULL;
}

/* Whether comparison `dir` holds between a and b. */
static bool compare_known(const char *dir, int64_t a, int64_t b) {
  switch (dir[0] == 'E' ? 0 : dir[0] == 'N' ? 1 : dir[0] == 'L' ? (dir[1] == 'T' ? 2 : 3) : (dir[1] == 'T' ? 4 : 5)) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
  }
}

/* Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual: compare. */
static hr_status lower_compare(lowering *l, const lscope *s, const tf_node *node, const char *dir, gval *out) {
  gval x, y;
  HR_TRY(binary_operands(l, s, node, &x, &y));
  hr_type t = x.type;
  t.dtype = HR_I1;
  gval v = {.n_known = x.n_known >= 0 && y.n_known >= 0 && !is_unsigned(x.type.dtype) ? x.n_known : -1};
  for (int i = 0; i < v.n_known; i++) {
    v.known[i] = x.known[i] && y.known[i];
    v.value[i] = compare_known(dir, x.value[i], y.value[i]);
  }
  if (all_known(&v)) return emit_known(l, s, &t, &v, out);
  char xt[TYPE_TEXT], tt[TYPE_TEXT];
  fresh(l, v.ssa);
  const char *kind = is_float(x.type.dtype) ? "FLOAT" : is_unsigned(x.type.dtype) ? "UNSIGNED" : "SIGNED";
  hr_strbuf_printf(s->block,
                   "    %s = \"stablehlo.compare\"(%s, %s) {comparison_direction = #stablehlo<comparison_direction %s>, "
                   "compare_type = #stablehlo<comparison_type %s>} : (%s, %s) -> %s\n",
                   v.ssa, x.ssa, y.ssa, dir, kind, type_text(&x.type, xt), xt, type_text(&t, tt));
  v.type = t;
  v.from_shapes = x.from_shapes && y.from_shapes;
  *out = v;
  return NULL;
}

/* Sub, Add, AddV2, Mul: subtract, add, multiply (shape arithmetic). */
static hr_status lower_arith(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  gval x, y;
  HR_TRY(binary_operands(l, s, node, &x, &y));
  char which = node->op[0]; /* 'S', 'A' or 'M' */
  gval v = {.n_known = x.n_known >= 0 && y.n_known >= 0 && !is_unsigned(x.type.dtype) ? x.n_known : -1};
  for (int i = 0; i < v.n_known; i++) {
    uint64_t a = (uint64_t)x.value[i], b = (uint64_t)y.value[i];
    int64_t r = (int64_t)(which == 'S' ? a - b : which == 'A' ? a + b : a * b);
    v.known[i] = x.known[i] && y.known[i] && fits(r, x.type.dtype);
    v.value[i] = r;
  }
  if (all_known(&v)) return emit_known(l, s, &x.type, &v, out);
  char xt[TYPE_TEXT];
  fresh(l, v.ssa);
  const char *op = which == 'S' ? "subtract" : which == 'A' ? "add" : "multiply";
  hr_strbuf_printf(s->block, "    %s = \"stablehlo.%s\"(%s, %s) : (%s, %s) -> %s\n", v.ssa, op, x.ssa, y.ssa,
                   type_text(&x.type, xt), xt, xt);
  v.type = x.type;
  v.from_shapes = x.from_shapes && y.from_shapes;
  *out = v;
  return NULL;
}

/* Writes "%r = concatenate(pieces) along `dim`" into s's block; `types` are the pieces' types. */
static void put_concatenate(hr_strbuf *b, const char *r, char (*pieces)[32], const hr_type *types, int n, int dim,
                            const hr_type *result) {
  char tt[TYPE_TEXT];
  hr_strbuf_printf(b, "    %s = \"stablehlo.concatenate\"(", r);
  for (int i = 0; i < n; i++) hr_strbuf_printf(b, "%s%s", i ? ", " : "", pieces[i]);
  hr_strbuf_printf(b, ") {dimension = %d : i64} : (", dim);
  for (int i = 0; i < n; i++) hr_strbuf_printf(b, "%s%s", i ? ", " : "", type_text(&types[i], tt));
  hr_strbuf_printf(b, ") -> %s\n", type_text(result, tt));
}

/* Pack of scalars along axis 0: a vector (each reshaped to one element, then concatenated). */
static hr_status lower_pack(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  int64_t axis;
  HR_TRY(int_attr(l, node, "axis", 0, &axis));
  int n = n_data_inputs(node);
  if (axis != 0 || n < 1 || n > HR_MAX_RANK) return not_lowered(l, node, "only Pack of up to 16 scalars along axis 0 is lowered");
  gval *items = HR_ARENA_ARRAY(&l->sm->arena, gval, (size_t)n); /* not on the stack: lowering recurses deeply */
  char pieces[HR_MAX_RANK][32], xt[TYPE_TEXT];
  hr_type one[HR_MAX_RANK];
  if (!items) return oom();
  for (int i = 0; i < n; i++) {
    HR_TRY(lower_input(l, s, node, i, &items[i]));
    if (items[i].type.shape.rank != 0 || items[i].type.dtype != items[0].type.dtype)
      return not_lowered(l, node, "only Pack of scalars of one type is lowered");
  }
  int64_t len = n, unit = 1;
  hr_type t = hr_tensor_type(items[0].type.dtype, 1, &len);
  gval v = {.n_known = trackable(&t), .from_shapes = true};
  for (int i = 0; i < n; i++) {
    v.from_shapes = v.from_shapes && items[i].from_shapes;
    if (v.n_known < 0) continue;
    v.known[i] = items[i].n_known == 1 && items[i].known[0];
    v.value[i] = items[i].value[0];
  }
  if (all_known(&v)) return emit_known(l, s, &t, &v, out);
  for (int i = 0; i < n; i++) {
    fresh(l, pieces[i]);
    one[i] = hr_tensor_type(t.dtype, 1, &unit);
    hr_strbuf_printf(s->block, "    %s = \"stablehlo.reshape\"(%s) : (%s) -> ", pieces[i], items[i].ssa,
                     type_text(&items[i].type, xt));
    hr_strbuf_printf(s->block, "%s\n", type_text(&one[i], xt));
  }
  fresh(l, v.ssa);
  put_concatenate(s->block, v.ssa, pieces, one, n, 0, &t);
  v.type = t;
  *out = v;
  return NULL;
}

/* ConcatV2: concatenate along the constant axis (its last input). */
static hr_status lower_concat(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  int n = n_data_inputs(node) - 1;
  gval axis;
  if (n < 1 || n > HR_MAX_RANK) return not_lowered(l, node, "only ConcatV2 of 1 to 16 tensors is lowered");
  HR_TRY(lower_input(l, s, node, n, &axis));
  gval *items = HR_ARENA_ARRAY(&l->sm->arena, gval, (size_t)n); /* not on the stack: lowering recurses deeply */
  char pieces[HR_MAX_RANK][32];
  hr_type types[HR_MAX_RANK];
  if (!items) return oom();
  for (int i = 0; i < n; i++) {
    HR_TRY(lower_input(l, s, node, i, &items[i]));
    memcpy(pieces[i], items[i].ssa, sizeof pieces[i]);
    types[i] = items[i].type;
    if (types[i].dtype != types[0].dtype || types[i].shape.rank != types[0].shape.rank)
      return not_lowered(l, node, "inputs of different types or ranks");
  }
  int rank = types[0].shape.rank;
  int64_t a = axis.n_known == 1 && axis.known[0] ? axis.value[0] : INT64_MIN;
  if (a < -rank || a >= rank) return not_lowered(l, node, "the axis must be a constant within the inputs' rank");
  if (a < 0) a += rank;
  hr_type t = types[0];
  for (int d = 0; d < rank; d++) {
    int64_t size = d == a ? 0 : HR_DYNAMIC;
    for (int i = 0; i < n; i++) {
      int64_t di = types[i].shape.dims[d];
      if (d == a) size = size == HR_DYNAMIC || di == HR_DYNAMIC || di > INT64_MAX - size ? HR_DYNAMIC : size + di;
      else if (di != HR_DYNAMIC) size = di;
    }
    t.shape.dims[d] = size;
  }
  gval v = make_value("", t, true);
  for (int i = 0; i < n; i++) v.from_shapes = v.from_shapes && items[i].from_shapes;
  fresh(l, v.ssa);
  put_concatenate(s->block, v.ssa, pieces, types, n, (int)a, &t);
  *out = v;
  return NULL;
}

/* The result type of Reshape/BroadcastTo to shape vector `shape` of element type `dt`: static
 * where the shape's element is known (-1 is not lowered), else dynamic. */
static hr_status target_type(lowering *l, const tf_node *node, const gval *shape, hr_dtype dt, hr_type *out) {
  int64_t n = shape->type.shape.rank == 1 ? shape->type.shape.dims[0] : -1;
  if (n < 0 || n > HR_MAX_RANK || shape->n_known != n || is_float(shape->type.dtype))
    return not_lowered(l, node, "only shapes that are integer vectors of static length built from values lowering follows are lowered");
  int64_t dims[HR_MAX_RANK];
  for (int d = 0; d < n; d++) {
    if (shape->known[d] && shape->value[d] < 0) return not_lowered(l, node, "a dimension of -1 is not lowered");
    dims[d] = shape->known[d] ? shape->value[d] : HR_DYNAMIC;
  }
  *out = hr_tensor_type(dt, (int)n, dims);
  return NULL;
}

/* Reshape: reshape to a static shape, dynamic_reshape otherwise. */
static hr_status lower_reshape(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  gval x, shape;
  HR_TRY(lower_input(l, s, node, 0, &x));
  HR_TRY(lower_input(l, s, node, 1, &shape));
  hr_type t;
  HR_TRY(target_type(l, node, &shape, x.type.dtype, &t));
  gval v = make_value("", t, x.from_shapes);
  char xt[TYPE_TEXT], st[TYPE_TEXT], tt[TYPE_TEXT];
  fresh(l, v.ssa);
  if (hr_type_is_static(&t))
    hr_strbuf_printf(s->block, "    %s = \"stablehlo.reshape\"(%s) : (%s) -> %s\n", v.ssa, x.ssa, type_text(&x.type, xt),
                     type_text(&t, tt));
  else
    hr_strbuf_printf(s->block, "    %s = \"stablehlo.dynamic_reshape\"(%s, %s) : (%s, %s) -> %s\n", v.ssa, x.ssa, shape.ssa,
                     type_text(&x.type, xt), type_text(&shape.type, st), type_text(&t, tt));
  *out = v;
  return NULL;
}

/* BroadcastTo: dynamic_broadcast_in_dim, the operand's dimensions aligned to the result's last. */
static hr_status lower_broadcast(lowering *l, const lscope *s, const tf_node *node, gval *out) {
  gval x, shape;
  HR_TRY(lower_input(l, s, node, 0, &x));
  HR_TRY(lower_input(l, s, node, 1, &shape));
  hr_type t;
  HR_TRY(target_type(l, node, &shape, x.type.dtype, &t));
  if (x.type.shape.rank > t.shape.rank) return not_lowered(l, node, "the operand has more dimensions than the shape");
  gval v = make_value("", t, x.from_shapes);
  char xt[TYPE_TEXT], st[TYPE_TEXT], tt[TYPE_TEXT];
  fresh(l, v.ssa);
  hr_strbuf_printf(s->block, "    %s = \"stablehlo.dynamic_broadcast_in_dim\"(%s, %s) {broadcast_dimensions = array<i64", v.ssa,
                   x.ssa, shape.ssa);
  for (int d = 0; d < x.type.shape.rank; d++)
    hr_strbuf_printf(s->block, "%s %d", d ? "," : ":", t.shape.rank - x.type.shape.rank + d);
  hr_strbuf_printf(s->block, ">} : (%s, %s) -> %s\n", type_text(&x.type, xt), type_text(&shape.type, st), type_text(&t, tt));
  *out = v;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Calls, branches and XlaCallModule                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* The library function attribute `key` of `node` names. */
static hr_status function_attr(lowering *l, const tf_node *node, const char *key, const tf_function **out) {
  const tf_attr *a = tf_node_attr(node, key);
  const char *name;
  if (!a) return hr_pb_error(&l->sm->file, node->offset, "node '%s' (%s) has no attribute %s", node->name, node->op, key);
  HR_TRY(tf_attr_func(&l->sm->arena, &l->sm->file, a, &name));
  if (!(*out = tf_find_function(&l->sm->graph, name)))
    return hr_pb_error(&l->sm->file, node->offset, "node '%s': no function %s in the library", node->name, name);
  return NULL;
}

/* A new scope for `fn` entered by `call` from `caller`, writing to `block`. */
static hr_status new_scope(lowering *l, const lscope *caller, const tf_node *call, const tf_function *fn, int arg_offset,
                           hr_strbuf *block, lscope **out) {
  if (caller->depth >= HR_LIMIT_NESTING_DEPTH / 2)
    return hr_pb_error(&l->sm->file, call->offset, "calls and branches nest deeper than %d", HR_LIMIT_NESTING_DEPTH / 2);
  if (n_data_inputs(call) - arg_offset != fn->n_args)
    return hr_pb_error(&l->sm->file, call->offset, "node '%s' passes %d inputs to %s, which takes %d", call->name,
                       n_data_inputs(call) - arg_offset, fn->name, fn->n_args);
  lscope *s = HR_ARENA_NEW(&l->sm->arena, lscope);
  if (!s) return oom();
  *s = (lscope){l->next_scope++, fn, caller, call, arg_offset, block, caller->depth + 1};
  *out = s;
  return NULL;
}

/* Lowers output `index` of function scope `s`: what the function returns for it. */
static hr_status lower_return(lowering *l, const lscope *s, int index, gval *out) {
  const tf_function *fn = s->fn;
  for (int k = 0; k < fn->n_rets; k++)
    if (strcmp(fn->ret_keys[k], fn->outputs[index]) == 0) return lower_ref(l, s, fn->ret_values[k], out);
  return hr_error(HR_INVALID_ARGUMENT, "%s: function %s does not say what output %s is", l->sm->path, fn->name, fn->outputs[index]);
}

/* PartitionedCall/StatefulPartitionedCall: output `index` of the called function, lowered in one
 * scope per call node. */
static hr_status lower_call(lowering *l, const lscope *s, const tf_node *node, int index, gval *out) {
  const memo *m = recall(l, s->id, node, -1);
  lscope *inner = m ? m->call : NULL;
  if (!inner) {
    const tf_function *fn;
    HR_TRY(function_attr(l, node, "f", &fn));
    HR_TRY(new_scope(l, s, node, fn, 0, s->block, &inner));
    HR_TRY(remember_memo(l, &(memo){.scope = s->id, .node = node, .index = -1, .call = inner}));
  }
  if (index >= inner->fn->n_outputs) return hr_pb_error(&l->sm->file, node->offset, "call '%s' has no output %d", node->name, index);
  return lower_return(l, inner, index, out);
}

/* The index of the module of XlaCallModule `node` in l->modules, read on first use. */
static hr_status called(lowering *l, const tf_node *node, int *index) {
  for (int i = 0; i < l->n_modules; i++)
    if (l->modules[i].node == node) {
      *index = i;
      return NULL;
    }
  const tf_xla_call *call = hr_sm_xla_call(l->sm, node);
  if (!call) return hr_pb_error(&l->sm->file, node->offset, "XlaCallModule '%s' was not read", node->name);
  if (call->n_function_list)
    return not_lowered(l, node, "its module calls TensorFlow functions back (tf.call_tf_function), which hlorun does not run");
  if (!l->modules && !(l->modules = HR_ARENA_ARRAY(&l->sm->arena, called_module, (size_t)l->sm->n_xla_calls))) return oom();
  hr_module *m;
  HR_TRY(hr_sm_call_module(l->sm, call, l->opts, &m));
  l->modules[l->n_modules] = (called_module){node, m};
  *index = l->n_modules++;
  return NULL;
}

/* XlaCallModule: a call of its module's @main (renamed @xcmN_main); all its outputs. */
static hr_status lower_xla_call(lowering *l, const lscope *s, const tf_node *node) {
  int k = 0;
  HR_TRY(called(l, node, &k));
  const hr_func *main = hr_module_find_func(l->modules[k].module, "main");
  int n = n_data_inputs(node);
  if (n != main->n_args)
    return hr_pb_error(&l->sm->file, node->offset, "XlaCallModule '%s' has %d inputs, its module's @main %d parameters",
                       node->name, n, main->n_args);
  gval *args = HR_ARENA_ARRAY(&l->sm->arena, gval, n > 0 ? (size_t)n : 1);
  if (!args) return oom();
  for (int i = 0; i < n; i++) HR_TRY(lower_input(l, s, node, i, &args[i]));
  char base[32], tt[TYPE_TEXT];
  fresh(l, base);
  hr_strbuf_printf(s->block, "    %s:%d = \"func.call\"(", base, main->n_results);
  for (int i = 0; i < n; i++) hr_strbuf_printf(s->block, "%s%s", i ? ", " : "", args[i].ssa);
  hr_strbuf_printf(s->block, ") {callee = @xcm%d_main} : (", k);
  for (int i = 0; i < n; i++) hr_strbuf_printf(s->block, "%s%s", i ? ", " : "", type_text(&args[i].type, tt));
  hr_strbuf_puts(s->block, ") -> (");
  for (int i = 0; i < main->n_results; i++) hr_strbuf_printf(s->block, "%s%s", i ? ", " : "", type_text(&main->result_types[i], tt));
  hr_strbuf_puts(s->block, ")\n");
  for (int i = 0; i < main->n_results; i++) {
    char ssa[48];
    snprintf(ssa, sizeof ssa, "%s#%d", base, i);
    gval v = make_value(ssa, main->result_types[i], false);
    HR_TRY(remember(l, s, node, i, &v));
  }
  return NULL;
}

/* Copies `text` into a symbol name or string attribute: at most `cap` bytes, anything outside
 * printable ASCII and quotes or backslashes replaced, so that it needs no escapes. */
static void put_safe(hr_strbuf *b, const char *text, size_t cap) {
  for (size_t i = 0; text[i] && i < cap; i++) {
    unsigned char ch = (unsigned char)text[i];
    hr_strbuf_putc(b, ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\' ? '?' : (char)ch);
  }
}

/* The text of a refused branch: a call of a new function declared without a body, whose name
 * says why (the error specializing the program for shapes that take it reports), returning values
 * of the If's result types. */
static hr_status refused_branch(lowering *l, hr_strbuf *region, const tf_node *node, const tf_function *fn, hr_status why,
                                const hr_type *types, int n) {
  char tt[TYPE_TEXT], ssa[32];
  hr_strbuf sym;
  hr_strbuf_init(&sym, NULL);
  hr_strbuf_printf(&sym, "@\"hlorun %d: If '", l->n_refused++);
  put_safe(&sym, node->name, 200);
  hr_strbuf_puts(&sym, "' takes branch ");
  put_safe(&sym, fn->name, 200);
  hr_strbuf_puts(&sym, " for these input shapes, and hlorun cannot run it: ");
  const char *msg = hr_status_message(why), *list = strstr(msg, "; this graph holds");
  put_safe(&sym, msg, list ? (size_t)(list - msg) : 600); /* the graph's ops are listed where it is refused as a whole */
  hr_strbuf_putc(&sym, '"');
  hr_status st = hr_strbuf_status(&sym);
  if (st) {
    hr_strbuf_free(&sym);
    return st;
  }
  hr_strbuf_printf(&l->decls, "  func.func private %s() -> (", sym.data);
  fresh(l, ssa);
  hr_strbuf_printf(region, "    %s:%d = \"func.call\"() {callee = %s} : () -> (", ssa, n, sym.data);
  for (int i = 0; i < n; i++) {
    type_text(&types[i], tt);
    hr_strbuf_printf(&l->decls, "%s%s", i ? ", " : "", tt);
    hr_strbuf_printf(region, "%s%s", i ? ", " : "", tt);
  }
  hr_strbuf_puts(&l->decls, ")\n");
  hr_strbuf_puts(region, ")\n    \"stablehlo.return\"(");
  for (int i = 0; i < n; i++) hr_strbuf_printf(region, "%s%s#%d", i ? ", " : "", ssa, i);
  hr_strbuf_puts(region, ") : (");
  for (int i = 0; i < n; i++) hr_strbuf_printf(region, "%s%s", i ? ", " : "", type_text(&types[i], tt));
  hr_strbuf_puts(region, ") -> ()\n");
  hr_strbuf_free(&sym);
  return NULL;
}

/* The type both `a` and `b` can be: equal dimensions kept, others dynamic. */
static hr_status join_types(lowering *l, const tf_node *node, const hr_type *a, const hr_type *b, hr_type *out) {
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank)
    return hr_pb_error(&l->sm->file, node->offset, "the branches of '%s' return values of different types", node->name);
  *out = *a;
  for (int d = 0; d < a->shape.rank; d++)
    if (a->shape.dims[d] != b->shape.dims[d]) out->shape.dims[d] = HR_DYNAMIC;
  return NULL;
}

/* Lowers every output of branch `fn` of If `node` (scope s) into `region`; an op hlorun does not
 * lower leaves *why set (and no error). */
static hr_status lower_branch(lowering *l, const lscope *s, const tf_node *node, const tf_function *fn, hr_strbuf *region,
                              gval *results, hr_status *why) {
  *why = NULL;
  lscope *b;
  HR_TRY(new_scope(l, s, node, fn, 1, region, &b));
  for (int i = 0; i < fn->n_outputs; i++) {
    hr_status st = lower_return(l, b, i, &results[i]);
    if (st && hr_status_code(st) == HR_UNIMPLEMENTED) {
      *why = st;
      return NULL;
    }
    HR_TRY(st);
  }
  return NULL;
}

/* Writes the stablehlo.if of `pred` over the two region texts into s's block and remembers its
 * results as the outputs of `node`. */
static hr_status emit_if(lowering *l, const lscope *s, const tf_node *node, const gval *pred, hr_strbuf regions[2],
                         const hr_type *types, int n, bool from_shapes) {
  char base[32], tt[TYPE_TEXT];
  fresh(l, base);
  hr_strbuf_printf(s->block, "    %s:%d = \"stablehlo.if\"(%s) ({\n", base, n, pred->ssa);
  hr_strbuf_append(s->block, regions[0].data ? regions[0].data : "", regions[0].len);
  hr_strbuf_puts(s->block, "    }, {\n");
  hr_strbuf_append(s->block, regions[1].data ? regions[1].data : "", regions[1].len);
  hr_strbuf_puts(s->block, "    }) : (tensor<i1>) -> (");
  for (int i = 0; i < n; i++) hr_strbuf_printf(s->block, "%s%s", i ? ", " : "", type_text(&types[i], tt));
  hr_strbuf_puts(s->block, ")\n");
  for (int i = 0; i < n; i++) {
    char ssa[48];
    snprintf(ssa, sizeof ssa, "%s#%d", base, i);
    gval v = make_value(ssa, types[i], from_shapes);
    HR_TRY(remember(l, s, node, i, &v));
  }
  return NULL;
}

/* Writes "stablehlo.return" of a lowered branch's results into its region. */
static void put_branch_return(hr_strbuf *region, const gval *results, int n) {
  char tt[TYPE_TEXT];
  hr_strbuf_puts(region, "    \"stablehlo.return\"(");
  for (int i = 0; i < n; i++) hr_strbuf_printf(region, "%s%s", i ? ", " : "", results[i].ssa);
  hr_strbuf_puts(region, ") : (");
  for (int i = 0; i < n; i++) hr_strbuf_printf(region, "%s%s", i ? ", " : "", type_text(&results[i].type, tt));
  hr_strbuf_puts(region, ") -> ()\n");
}

/* Lowers both branches of If `node` (predicate `pred`, decided per input shape) into regions and
 * emits the stablehlo.if. */
static hr_status lower_both_branches(lowering *l, const lscope *s, const tf_node *node, const gval *pred,
                                     const tf_function *fns[2]) {
  int n = fns[0]->n_outputs;
  if (fns[1]->n_outputs != n || n < 1 || n > HR_LIMIT_TF_LIST)
    return hr_pb_error(&l->sm->file, node->offset, "the branches of '%s' return %d and %d values", node->name, n, fns[1]->n_outputs);
  gval *results[2] = {HR_ARENA_ARRAY(&l->sm->arena, gval, (size_t)n), HR_ARENA_ARRAY(&l->sm->arena, gval, (size_t)n)};
  hr_type *types = HR_ARENA_ARRAY(&l->sm->arena, hr_type, (size_t)n);
  if (!results[0] || !results[1] || !types) return oom();
  hr_strbuf regions[2];
  hr_status why[2] = {NULL, NULL}, st = NULL;
  for (int r = 0; r < 2; r++) hr_strbuf_init(&regions[r], NULL);
  for (int r = 0; r < 2 && !st; r++) st = lower_branch(l, s, node, fns[r], &regions[r], results[r], &why[r]);
  bool from_shapes = pred->from_shapes;
  for (int i = 0; i < n && !st; i++) {
    int r0 = why[0] ? 1 : 0;
    types[i] = results[r0][i].type;
    from_shapes = from_shapes && results[r0][i].from_shapes;
    if (!why[0] && !why[1]) {
      st = join_types(l, node, &results[0][i].type, &results[1][i].type, &types[i]);
      from_shapes = from_shapes && results[1][i].from_shapes;
    }
  }
  if (!st && why[0] && why[1]) { /* neither branch runs: refused here */
    st = why[0];
    why[0] = NULL;
  }
  for (int r = 0; r < 2 && !st; r++) {
    if (why[r]) {
      hr_strbuf_free(&regions[r]);
      hr_strbuf_init(&regions[r], NULL);
      st = refused_branch(l, &regions[r], node, fns[r], why[r], types, n);
    } else {
      put_branch_return(&regions[r], results[r], n);
    }
  }
  for (int r = 0; r < 2 && !st; r++) st = hr_strbuf_status(&regions[r]);
  if (!st) st = emit_if(l, s, node, pred, regions, types, n, from_shapes);
  for (int r = 0; r < 2; r++) {
    hr_strbuf_free(&regions[r]);
    hr_status_free(why[r]);
  }
  return st;
}

/* If/StatelessIf: the branch a known predicate picks, lowered in place; else both, as a
 * stablehlo.if, when the predicate comes from shapes and constants. */
static hr_status lower_if(lowering *l, const lscope *s, const tf_node *node) {
  gval pred;
  HR_TRY(lower_input(l, s, node, 0, &pred));
  if (pred.type.dtype != HR_I1 || pred.type.shape.rank != 0)
    return not_lowered(l, node, "only a scalar bool predicate is lowered");
  const tf_function *fns[2];
  HR_TRY(function_attr(l, node, "then_branch", &fns[0]));
  HR_TRY(function_attr(l, node, "else_branch", &fns[1]));
  if (all_known(&pred)) { /* decided now: the branch taken, in the caller's block */
    const tf_function *fn = fns[pred.value[0] ? 0 : 1];
    lscope *b;
    HR_TRY(new_scope(l, s, node, fn, 1, s->block, &b));
    for (int i = 0; i < fn->n_outputs; i++) {
      gval v;
      HR_TRY(lower_return(l, b, i, &v));
      HR_TRY(remember(l, s, node, i, &v));
    }
    return NULL;
  }
  if (!pred.from_shapes)
    return not_lowered(l, node,
                       "its predicate depends on tensor values: hlorun decides branches from input shapes and constants only");
  return lower_both_branches(l, s, node, &pred, fns);
}

/* ---------------------------------------------------------------------------------------------- */
/* Following references                                                                            */
/* ---------------------------------------------------------------------------------------------- */

/* Lowers output `index` of `node` in scope `s`, which is not lowered yet. */
static hr_status lower_node(lowering *l, const lscope *s, const tf_node *node, int index, gval *out) {
  const char *op = node->op, *dir = comparison(op);
  if (!strcmp(op, "Identity") || !strcmp(op, "Snapshot") || !strcmp(op, "StopGradient") || !strcmp(op, "XlaSharding"))
    return lower_input(l, s, node, 0, out);
  if (!strcmp(op, "IdentityN")) return lower_input(l, s, node, index, out);
  if (!strcmp(op, "PartitionedCall") || !strcmp(op, "StatefulPartitionedCall")) return lower_call(l, s, node, index, out);
  if (!strcmp(op, "XlaCallModule") || !strcmp(op, "If") || !strcmp(op, "StatelessIf")) {
    HR_TRY(op[0] == 'X' ? lower_xla_call(l, s, node) : lower_if(l, s, node));
    const memo *m = recall(l, s->id, node, index);
    if (!m) return hr_pb_error(&l->sm->file, node->offset, "node '%s' (%s) has no output %d", node->name, op, index);
    *out = m->v;
    return NULL;
  }
  hr_status st = index ? hr_pb_error(&l->sm->file, node->offset, "node '%s' (%s) has one output", node->name, op)
                 : !strcmp(op, "Const")                          ? lower_const(l, s, node, out)
                 : !strcmp(op, "Shape")                          ? lower_shape(l, s, node, out)
                 : !strcmp(op, "StridedSlice")                   ? lower_strided_slice(l, s, node, out)
                 : !strcmp(op, "Cast")                           ? lower_cast(l, s, node, out)
                 : dir                                           ? lower_compare(l, s, node, dir, out)
                 : !strcmp(op, "Sub") || !strcmp(op, "AddV2") || !strcmp(op, "Add") || !strcmp(op, "Mul")
                     ? lower_arith(l, s, node, out)
                 : !strcmp(op, "Pack")        ? lower_pack(l, s, node, out)
                 : !strcmp(op, "ConcatV2")    ? lower_concat(l, s, node, out)
                 : !strcmp(op, "Reshape")     ? lower_reshape(l, s, node, out)
                 : !strcmp(op, "BroadcastTo") ? lower_broadcast(l, s, node, out)
                                              : hr_sm_unsupported(l->sm, node);
  HR_TRY(st);
  return remember(l, s, node, index, out);
}

/* lower_ref(), one frame deeper. */
static hr_status lower_ref_at(lowering *l, const lscope *s, const char *ref, gval *out) {
  if (++l->steps > HR_LIMIT_TF_NODES) return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the function is followed for too long", l->sm->path);
  if (ref[0] == '^') return hr_error(HR_INVALID_ARGUMENT, "%s: '%s' is a control input", l->sm->path, ref);
  if (!strchr(ref, ':')) /* an argument: @main's, or the caller's input */
    for (int i = 0; i < s->fn->n_args; i++) {
      if (strcmp(s->fn->args[i], ref) != 0) continue;
      if (!s->caller) {
        char ssa[32];
        snprintf(ssa, sizeof ssa, "%%a%d", i);
        *out = make_value(ssa, l->main_types[i], false);
        return NULL;
      }
      return lower_input(l, s->caller, s->call, i + s->arg_offset, out);
    }
  size_t len;
  int index;
  if (!tf_parse_ref(ref, &len, &index)) return hr_error(HR_INVALID_ARGUMENT, "%s: malformed tensor name '%s'", l->sm->path, ref);
  const tf_node *node = tf_find_node(s->fn->nodes, s->fn->n_nodes, ref, len);
  if (!node) return hr_error(HR_INVALID_ARGUMENT, "%s: no node '%.*s' in function %s", l->sm->path, (int)len, ref, s->fn->name);
  const memo *m = index >= 0 ? recall(l, s->id, node, index) : NULL;
  if (m) {
    *out = m->v;
    return NULL;
  }
  return lower_node(l, s, node, index, out);
}

/* The type of @main's parameter `i`: the argument's DataType and recorded shape. */
static hr_status main_arg_type(lowering *l, const tf_function *fn, int i, hr_type *out) {
  hr_dtype dt;
  if (fn->arg_types[i] == HR_TF_DT_RESOURCE)
    return hr_error(HR_UNIMPLEMENTED, "%s: function %s reads a variable (argument '%s'), which hlorun does not lower", l->sm->path,
                    fn->name, fn->args[i]);
  if (!hr_tf_dtype_to_hr(fn->arg_types[i], &dt))
    return hr_error(HR_UNIMPLEMENTED, "%s: argument '%s' of function %s has DataType %d, which hlorun has no type for",
                    l->sm->path, fn->args[i], fn->name, fn->arg_types[i]);
  const tf_shape *sh = &fn->arg_shapes[i];
  if (sh->rank < 0)
    return hr_error(HR_UNIMPLEMENTED, "%s: argument '%s' of function %s has no recorded shape", l->sm->path, fn->args[i], fn->name);
  int64_t dims[HR_MAX_RANK];
  for (int d = 0; d < sh->rank; d++) dims[d] = sh->dims[d] < 0 ? HR_DYNAMIC : sh->dims[d];
  *out = hr_tensor_type(dt, sh->rank, dims);
  return NULL;
}

static hr_status lower_ref(lowering *l, const lscope *s, const char *ref, gval *out) {
  if (l->depth >= HR_LIMIT_TF_FOLLOW_DEPTH)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: '%.100s' is reached through more than %d ops (a cycle?)", l->sm->path, ref,
                    HR_LIMIT_TF_FOLLOW_DEPTH);
  l->depth++;
  hr_status st = lower_ref_at(l, s, ref, out);
  l->depth--;
  return st;
}

/* ---------------------------------------------------------------------------------------------- */
/* The module                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Renames symbol attribute `a` (and those inside arrays) when it names a function of `m` whose
 * old name is in `old`. */
static hr_status rename_symbols(hr_module *m, hr_attr *a, const char **old, const char *prefix) {
  if (!a) return NULL;
  if (a->kind == HR_ATTR_ARRAY)
    for (int i = 0; i < a->u.array.n; i++) HR_TRY(rename_symbols(m, a->u.array.items[i], old, prefix));
  if (a->kind != HR_ATTR_SYMBOL) return NULL;
  for (int f = 0; f < m->n_funcs; f++) {
    if (strcmp(a->u.str.data, old[f]) != 0) continue;
    size_t n = strlen(prefix) + strlen(old[f]) + 1;
    char *name = hr_arena_alloc(&m->arena, n, 1);
    if (!name) return oom();
    snprintf(name, n, "%s%s", prefix, old[f]);
    a->u.str.data = name;
    a->u.str.len = n - 1;
    return NULL;
  }
  return NULL;
}

/* Renames the symbols the ops of `b` (and their regions) hold. */
static hr_status rename_in_block(hr_module *m, hr_block *b, const char **old, const char *prefix) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int k = 0; k < op->n_attrs; k++) HR_TRY(rename_symbols(m, op->attrs[k].value, old, prefix));
    for (int r = 0; r < op->n_regions; r++) HR_TRY(rename_in_block(m, &op->regions[r], old, prefix));
  }
  return NULL;
}

/* Appends the functions of module `m`, renamed "<prefix>name" and all private, to `text`. */
static hr_status append_module(lowering *l, hr_module *m, const char *prefix, hr_strbuf *text) {
  const char **old = HR_ARENA_ARRAY(&m->arena, const char *, m->n_funcs > 0 ? (size_t)m->n_funcs : 1);
  if (!old) return oom();
  for (int f = 0; f < m->n_funcs; f++) old[f] = m->funcs[f]->name;
  for (int f = 0; f < m->n_funcs; f++) HR_TRY(rename_in_block(m, &m->funcs[f]->body, old, prefix));
  for (int f = 0; f < m->n_funcs; f++) {
    size_t n = strlen(prefix) + strlen(old[f]) + 1;
    char *name = hr_arena_alloc(&m->arena, n, 1);
    if (!name) return oom();
    snprintf(name, n, "%s%s", prefix, old[f]);
    m->funcs[f]->name = name;
    m->funcs[f]->is_private = true;
  }
  hr_strbuf printed;
  hr_strbuf_init(&printed, NULL);
  hr_status st = hr_module_print_to(m, &printed);
  if (!st) st = hr_strbuf_status(&printed);
  /* The printed module is "module ... {\n<functions>}\n": its functions are what lies between. */
  const char *body = st ? NULL : strchr(printed.data, '\n');
  const char *end = st ? NULL : strrchr(printed.data, '}');
  if (!st && (strncmp(printed.data, "module", 6) != 0 || !body || !end || end < body))
    st = hr_error(HR_INTERNAL, "%s: the module of an XlaCallModule printed unexpectedly", l->sm->path);
  if (!st) hr_strbuf_append(text, body + 1, (size_t)(end - body - 1));
  hr_strbuf_free(&printed);
  return st;
}

/* Writes @main: its parameters (the function's arguments) and its body returning the outputs. */
static hr_status write_main(lowering *l, const tf_function *fn, hr_strbuf *body, hr_strbuf *text) {
  lscope top = {.id = l->next_scope++, .fn = fn, .block = body};
  gval *results = HR_ARENA_ARRAY(&l->sm->arena, gval, fn->n_outputs > 0 ? (size_t)fn->n_outputs : 1);
  if (!results || !(l->main_types = HR_ARENA_ARRAY(&l->sm->arena, hr_type, fn->n_args > 0 ? (size_t)fn->n_args : 1)))
    return oom();
  for (int i = 0; i < fn->n_args; i++) HR_TRY(main_arg_type(l, fn, i, &l->main_types[i]));
  for (int i = 0; i < fn->n_outputs; i++) HR_TRY(lower_return(l, &top, i, &results[i]));
  char tt[TYPE_TEXT];
  hr_strbuf_puts(text, "module @jax2tf_function {\n  func.func public @main(");
  for (int i = 0; i < fn->n_args; i++) {
    hr_strbuf_printf(text, "%s%%a%d: %s {jax.arg_info = \"", i ? ", " : "", i, type_text(&l->main_types[i], tt));
    put_safe(text, fn->args[i], HR_LIMIT_TF_KEY_BYTES);
    hr_strbuf_puts(text, "\"}");
  }
  hr_strbuf_puts(text, ") -> (");
  for (int i = 0; i < fn->n_outputs; i++) {
    hr_strbuf_printf(text, "%s%s {jax.result_info = \"", i ? ", " : "", type_text(&results[i].type, tt));
    put_safe(text, fn->outputs[i], HR_LIMIT_TF_KEY_BYTES);
    hr_strbuf_puts(text, "\"}");
  }
  hr_strbuf_puts(text, ") {\n");
  hr_strbuf_append(text, body->data ? body->data : "", body->len);
  hr_strbuf_puts(text, "    \"func.return\"(");
  for (int i = 0; i < fn->n_outputs; i++) hr_strbuf_printf(text, "%s%s", i ? ", " : "", results[i].ssa);
  hr_strbuf_puts(text, ") : (");
  for (int i = 0; i < fn->n_outputs; i++) hr_strbuf_printf(text, "%s%s", i ? ", " : "", type_text(&results[i].type, tt));
  hr_strbuf_puts(text, ") -> ()\n  }\n");
  return NULL;
}

/* Writes the whole module text: @main, the declarations refused branches call, and the functions
 * of every XlaCallModule's module. */
static hr_status write_module(lowering *l, const tf_function *fn, hr_strbuf *text) {
  hr_strbuf body;
  hr_strbuf_init(&body, NULL);
  hr_status st = write_main(l, fn, &body, text);
  hr_strbuf_free(&body);
  if (!st) hr_strbuf_append(text, l->decls.data ? l->decls.data : "", l->decls.len);
  for (int k = 0; !st && k < l->n_modules; k++) {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "xcm%d_", k);
    st = append_module(l, l->modules[k].module, prefix, text);
  }
  hr_strbuf_puts(text, "}\n");
  return st ? st : hr_strbuf_status(text);
}

hr_status hr_savedmodel_lower(hr_savedmodel *sm, const tf_function *fn, const hr_parse_options *opts, hr_module **out) {
  *out = NULL;
  lowering l = {.sm = sm, .opts = opts};
  hr_strbuf_init(&l.decls, NULL);
  hr_strbuf text;
  hr_strbuf_init(&text, NULL);
  hr_status st = write_module(&l, fn, &text);
  if (!st) st = hr_strbuf_status(&l.decls);
  if (!st) {
    char name[600];
    snprintf(name, sizeof name, "%s (function %.200s lowered to StableHLO)", sm->path, fn->name);
    st = hr_module_parse(name, text.data, text.len, opts, out);
  }
  for (int k = 0; k < l.n_modules; k++) hr_module_free(l.modules[k].module);
  hr_strbuf_free(&text);
  hr_strbuf_free(&l.decls);
  return st;
}

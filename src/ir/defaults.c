/* StableHLO's default attribute values: an op holding one is the same op without it. They are the
 * ODS defaults of StableHLO's ops (DefaultValuedOptionalAttr: api_version ORIGINAL, sort's dimension
 * -1, false flags, empty configs) and the values an OptionalAttr's absence stands for (unit strides
 * and dilations, zero padding, all-DEFAULT precisions, a channel handle of 0). StableHLO's printer
 * elides the former and its VHLO deserializer drops both, so both of our readers drop them too
 * (hr_op_drop_defaults): a module reads to the same IR from its text and from its bytecode, and
 * prints the same. Attributes a program requires (send and recv's channel handle) are kept.
 *
 * Likewise older spellings of today's forms: before StableHLO 1.0 the integer lists of ops (slice's
 * start_indices, gather's slice_sizes, ...) were dense<...> : tensor<Nxi64>; today they are
 * array<i64: ...>, which is what VHLO's deserializer gives for either, so hr_op_modernize gives the
 * text parser's ops the same. */
#include <string.h>

#include "ir/ir.h"

/* Whether `name` is one of the NULL-terminated `names`. */
static bool named(const char *name, const char *const *names) {
  for (; *names; names++)
    if (strcmp(name, *names) == 0) return true;
  return false;
}

/* Whether every integer of a DENSE_ARRAY equals `v` (true for an empty one). */
static bool dense_array_all(const hr_attr *a, int64_t v) {
  if (a->kind != HR_ATTR_DENSE_ARRAY || !a->u.dense_array.ints) return a->kind == HR_ATTR_DENSE_ARRAY && a->u.dense_array.n == 0;
  for (int64_t i = 0; i < a->u.dense_array.n; i++)
    if (a->u.dense_array.ints[i] != v) return false;
  return true;
}

/* Whether a DENSE integer attribute holds only zeros. */
static bool dense_all_zero(const hr_attr *a) {
  if (a->kind != HR_ATTR_DENSE || !a->u.dense.data) return false;
  const unsigned char *p = a->u.dense.data;
  for (size_t i = 0; i < a->u.dense.nbytes; i++)
    if (p[i]) return false;
  return true;
}

/* Whether an ARRAY of precision ENUMs is empty or all DEFAULT. */
static bool all_default_precisions(const hr_attr *a) {
  if (a->kind != HR_ATTR_ARRAY) return false;
  for (int i = 0; i < a->u.array.n; i++) {
    const hr_attr *p = a->u.array.items[i];
    if (p->kind != HR_ATTR_ENUM || strcmp(p->u.enm.value, "DEFAULT") != 0) return false;
  }
  return true;
}

/* Whether a result_accuracy struct is the default: tolerances 0 and mode DEFAULT. */
static bool default_accuracy(const hr_attr *a) {
  if (a->kind != HR_ATTR_STRUCT || strcmp(a->u.strct.name, "stablehlo.result_accuracy") != 0) return false;
  const hr_attr *atol = hr_attr_field(a, "atol"), *rtol = hr_attr_field(a, "rtol"), *ulps = hr_attr_field(a, "ulps"),
                *mode = hr_attr_field(a, "mode");
  return (!atol || (atol->kind == HR_ATTR_FLOAT && atol->u.f.value == 0)) &&
         (!rtol || (rtol->kind == HR_ATTR_FLOAT && rtol->u.f.value == 0)) &&
         (!ulps || (ulps->kind == HR_ATTR_INT && ulps->u.i.value == 0)) &&
         (!mode || (mode->kind == HR_ATTR_ENUM && strcmp(mode->u.enm.value, "DEFAULT") == 0));
}

/* Whether a channel_handle struct has handle 0 (no channel). */
static bool no_channel(const hr_attr *a) {
  const hr_attr *h = a->kind == HR_ATTR_STRUCT ? hr_attr_field(a, "handle") : NULL;
  return h && h->kind == HR_ATTR_INT && h->u.i.value == 0;
}

bool hr_attr_is_default(const hr_op *op, const char *name, const hr_attr *a) {
  static const char *const false_flags[] = {"indices_are_sorted", "unique_indices", "has_side_effect", "is_stable",
                                            "is_host_transfer", "use_global_device_ids", "has_dynamic_root", NULL};
  static const char *const empty_strings[] = {"backend_config", "infeed_config", "outfeed_config", NULL};
  static const char *const empty_lists[] = {"called_computations", "output_operand_aliases", "layout", "result_tilings",
                                           NULL};
  static const char *const unit_lists[] = {"window_strides", "base_dilations", "window_dilations", "lhs_dilation",
                                           "rhs_dilation", NULL};
  static const char *const empty_dense_arrays[] = {"known_expanding_dimensions", "known_nonexpanding_dimensions", NULL};
  /* cholesky's `lower` defaults to false; triangular_solve's is required */
  if (op->code == HR_OP_CHOLESKY && strcmp(name, "lower") == 0) return a->kind == HR_ATTR_BOOL && !a->u.b;
  if (named(name, false_flags)) return a->kind == HR_ATTR_BOOL && !a->u.b;
  if (named(name, empty_strings))
    return (a->kind == HR_ATTR_STRING && a->u.str.len == 0) || (a->kind == HR_ATTR_DICT && a->u.dict.n == 0);
  if (named(name, empty_lists)) return a->kind == HR_ATTR_ARRAY && a->u.array.n == 0;
  if (named(name, unit_lists)) return dense_array_all(a, 1);
  if (named(name, empty_dense_arrays)) return a->kind == HR_ATTR_DENSE_ARRAY && a->u.dense_array.n == 0;
  if (strcmp(name, "window_reversal") == 0) return dense_array_all(a, 0);
  if (strcmp(name, "padding") == 0) return dense_all_zero(a);
  if (strcmp(name, "precision_config") == 0) return all_default_precisions(a);
  if (strcmp(name, "result_accuracy") == 0) return default_accuracy(a);
  if (strcmp(name, "compare_type") == 0) return a->kind == HR_ATTR_ENUM && strcmp(a->u.enm.value, "NOTYPE") == 0;
  if (strcmp(name, "composite_attributes") == 0) return a->kind == HR_ATTR_DICT && a->u.dict.n == 0;
  if (strcmp(name, "channel_handle") == 0)
    return op->code != HR_OP_SEND && op->code != HR_OP_RECV && no_channel(a); /* send and recv require one */
  if ((op->code == HR_OP_SEND || op->code == HR_OP_RECV) && strcmp(name, "source_target_pairs") == 0)
    return a->kind == HR_ATTR_DENSE && a->u.dense.nbytes == 0; /* optional there, required elsewhere */
  if (op->code == HR_OP_CUSTOM_CALL && strcmp(name, "api_version") == 0) return a->kind == HR_ATTR_INT && a->u.i.value == 1;
  if (op->code == HR_OP_COMPOSITE && strcmp(name, "version") == 0) return a->kind == HR_ATTR_INT && a->u.i.value == 0;
  if (op->code == HR_OP_SORT && strcmp(name, "dimension") == 0) return a->kind == HR_ATTR_INT && a->u.i.value == -1;
  return false;
}

/* Whether a custom call's layouts are absent-equivalent: both empty lists (StableHLO requires both or
 * neither, so one empty list beside a full one is kept). */
static bool empty_layouts(const hr_op *op) {
  const hr_attr *in = hr_op_attr(op, "operand_layouts"), *out = hr_op_attr(op, "result_layouts");
  return (!in || (in->kind == HR_ATTR_ARRAY && in->u.array.n == 0)) &&
         (!out || (out->kind == HR_ATTR_ARRAY && out->u.array.n == 0));
}

void hr_op_drop_defaults(hr_op *op) {
  bool layouts = op->code == HR_OP_CUSTOM_CALL && empty_layouts(op);
  int kept = 0;
  for (int i = 0; i < op->n_attrs; i++) {
    const char *name = op->attrs[i].name;
    bool drop = hr_attr_is_default(op, name, op->attrs[i].value) ||
                (layouts && (strcmp(name, "operand_layouts") == 0 || strcmp(name, "result_layouts") == 0));
    if (!drop) op->attrs[kept++] = op->attrs[i];
  }
  op->n_attrs = kept;
}

/* StableHLO's integer-list attributes, array<i64: ...> today (array<i1: ...> for window_reversal). */
static const char *const i64_list_attrs[] = {
    "fft_length",          "broadcast_sizes",      "slice_sizes",      "dimensions",      "permutation",
    "edge_padding_low",    "edge_padding_high",    "interior_padding", "start_indices",   "limit_indices",
    "strides",             "broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions",
    "window_dimensions",   "window_strides",       "base_dilations",   "window_dilations", "lhs_dilation",
    "rhs_dilation",        "window_reversal",      NULL};

bool hr_is_list_attr_name(const char *name) { return named(name, i64_list_attrs); }

/* Sets *out to the array<i64/i1: ...> holding the elements of `a` when it is a rank-0 or rank-1
 * DENSE of `want`, else to NULL. */
static hr_status dense_to_array(hr_module *m, const hr_attr *a, hr_dtype want, hr_attr **out) {
  *out = NULL;
  const hr_type *t = &a->u.dense.type;
  if (t->kind != HR_TYPE_TENSOR || t->dtype != want || t->shape.rank > 1) return NULL;
  int64_t n = t->shape.rank ? t->shape.dims[0] : 1;
  hr_attr *r = hr_attr_new(m, HR_ATTR_DENSE_ARRAY);
  int64_t *ints = HR_ARENA_ARRAY(&m->arena, int64_t, n > 0 ? (size_t)n : 1);
  if (!r || !ints) return hr_error(HR_RESOURCE_EXHAUSTED, "out of memory");
  for (int64_t i = 0; i < n; i++) {
    const void *e = hr_dense_element(a, i);
    if (want == HR_I1)
      ints[i] = *(const uint8_t *)e != 0;
    else
      memcpy(&ints[i], e, sizeof ints[i]);
  }
  r->u.dense_array.dtype = want;
  r->u.dense_array.n = n;
  r->u.dense_array.ints = ints;
  *out = r;
  return NULL;
}

hr_status hr_op_modernize(hr_module *m, hr_op *op) {
  for (int i = 0; i < op->n_attrs; i++) {
    const char *name = op->attrs[i].name;
    if (op->attrs[i].value->kind != HR_ATTR_DENSE || !hr_is_list_attr_name(name)) continue;
    hr_attr *r;
    HR_TRY(dense_to_array(m, op->attrs[i].value, strcmp(name, "window_reversal") == 0 ? HR_I1 : HR_I64, &r));
    if (r) op->attrs[i].value = r;
  }
  return NULL;
}

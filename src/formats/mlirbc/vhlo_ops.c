/* Functions and ops of a portable artifact converted into the IR: VHLO op names (`vhlo.add_v1`)
 * mapped to StableHLO's, their attributes reshaped as StableHLO spells them (the rules of
 * StableHLO's VhloLegalizeToStablehlo: grouped dimension numbers, array<i64> lists, symbols, and
 * default values dropped), values and regions rebuilt as the text parser builds them. */
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "formats/mlirbc/vhlo_internal.h"
#include "formats/mlirbc/vhlo_props.h"

static hr_status oom(void) { return hr_error(HR_OUT_OF_MEMORY, "out of memory converting bytecode"); }

/* An error at op `op`: "FILE: offset N: <op name>: <message>". */
static hr_status op_error(const vhlo_ctx *c, const hr_bc_op *op, const char *what) {
  hr_bc_cursor at = hr_bc_entry_cursor(c->f, c->f->data + op->offset, 0);
  return hr_bc_error(&at, "%s: %s", c->f->opnames[op->name].full, what);
}

/* ---------------------------------------------------------------------------------------------- */
/* An op's attributes as (name, attribute index) pairs                                             */
/* ---------------------------------------------------------------------------------------------- */

enum { MAX_OP_ATTRS = 64 }; /* VHLO's largest op (convolution) has 17 */

typedef struct raw_attrs {
  int n;
  const char *names[MAX_OP_ATTRS];
  uint32_t values[MAX_OP_ATTRS]; /* attribute indices */
} raw_attrs;

/* Reads the attribute dictionary entry `dict` (builtin DictionaryAttr or vhlo DictionaryV1) as
 * pairs without decoding the values. */
static hr_status read_raw_attrs(vhlo_ctx *c, const hr_bc_op *op, uint32_t dict, raw_attrs *out) {
  const hr_bc_entry *e = &c->f->attrs[dict];
  hr_bc_cursor cur = hr_bc_entry_cursor(c->f, e->data, e->len);
  uint64_t code, n;
  if (!e->custom) return op_error(c, op, "an attribute dictionary in text form");
  HR_TRY(hr_bc_varint(&cur, &code));
  bool is_dict = ((int64_t)e->dialect == c->builtin && code == 1) || ((int64_t)e->dialect == c->vhlo && code == 6);
  if (!is_dict) return op_error(c, op, "its attribute dictionary is not a dictionary");
  HR_TRY(hr_bc_varint(&cur, &n));
  if (n > MAX_OP_ATTRS) return op_error(c, op, "more attributes than an op may have");
  out->n = (int)n;
  for (int i = 0; i < out->n; i++) {
    uint32_t name;
    hr_attr *key;
    HR_TRY(hr_bc_index(&cur, c->f->n_attrs, "attribute index", &name));
    HR_TRY(vhlo_attr(c, name, &key));
    if (!key || key->kind != HR_ATTR_STRING) return op_error(c, op, "an attribute name that is not a string");
    out->names[i] = key->u.str.data;
    HR_TRY(hr_bc_index(&cur, c->f->n_attrs, "attribute index", &out->values[i]));
  }
  return NULL;
}

/* Appends the inherent attributes of a registered op's properties record (bytecode >= 5): the
 * attribute references in the order vhlo_props.h gives for the op. */
static hr_status read_props(vhlo_ctx *c, const hr_bc_op *op, raw_attrs *out) {
  const vhlo_prop_op *spec = vhlo_props_find(c->f->opnames[op->name].full);
  if (!spec) return op_error(c, op, "an op with properties that hlorun does not know");
  const hr_bc_props *rec = &c->f->props[op->props];
  hr_bc_cursor cur = hr_bc_entry_cursor(c->f, rec->data, rec->len);
  if (out->n + spec->n > MAX_OP_ATTRS) return op_error(c, op, "more attributes than an op may have");
  for (int k = 0; k < spec->n; k++) {
    uint64_t ref;
    HR_TRY(hr_bc_varint(&cur, &ref));
    if (spec->optional_bits && !(ref & 1)) continue; /* an absent optional attribute */
    if (spec->optional_bits) ref >>= 1;
    if (ref >= c->f->n_attrs) return hr_bc_error(&cur, "attribute index %llu out of range", (unsigned long long)ref);
    out->names[out->n] = spec->attrs[k];
    out->values[out->n] = (uint32_t)ref;
    out->n++;
  }
  if (!hr_bc_at_end(&cur)) return hr_bc_error(&cur, "%s: properties record has bytes left over", spec->op);
  return NULL;
}

/* The op's attributes: its dictionary (all of them before bytecode 5, the discardable ones after)
 * and, from bytecode 5 on, the inherent ones in its properties record. */
static hr_status op_raw_attrs(vhlo_ctx *c, const hr_bc_op *op, raw_attrs *out) {
  out->n = 0;
  if (op->props_attr >= 0) return op_error(c, op, "an unregistered op with properties");
  if (op->attrs >= 0) HR_TRY(read_raw_attrs(c, op, (uint32_t)op->attrs, out));
  if (op->props >= 0) HR_TRY(read_props(c, op, out));
  return NULL;
}

/* The index of attribute `name`, or -1. */
static int find_raw(const raw_attrs *a, const char *name) {
  for (int i = 0; i < a->n; i++)
    if (strcmp(a->names[i], name) == 0) return i;
  return -1;
}

/* ---------------------------------------------------------------------------------------------- */
/* Attribute reshaping                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* The integers of a rank-0/1 integer DENSE, an INT, or an ARRAY of INTs. */
static hr_status int_values(const vhlo_ctx *c, const hr_bc_op *op, const hr_attr *a, int64_t *out, int cap, int *n) {
  hr_status s = hr_attr_to_i64_list(a, out, cap, n);
  if (s && a->kind == HR_ATTR_INT) {
    hr_status_free(s);
    out[0] = a->u.i.value;
    *n = 1;
    return NULL;
  }
  if (s) {
    hr_status_free(s);
    return op_error(c, op, "an attribute that should hold integers does not");
  }
  return NULL;
}

enum { MAX_LIST = HR_MAX_RANK * 4 }; /* longest integer list attribute (padding pairs, dims) */

/* array<i64: ...> (or array<i1: ...> when `is_bool`) holding a list attribute's integers. */
static hr_status to_dense_array(vhlo_ctx *c, const hr_bc_op *op, const hr_attr *a, bool is_bool, hr_attr **out) {
  int64_t v[MAX_LIST];
  int n;
  HR_TRY(int_values(c, op, a, v, MAX_LIST, &n));
  hr_attr *r = hr_attr_new(c->m, HR_ATTR_DENSE_ARRAY);
  int64_t *ints = HR_ARENA_ARRAY(&c->m->arena, int64_t, n ? (size_t)n : 1);
  if (!r || !ints) return oom();
  memcpy(ints, v, (size_t)n * sizeof *v);
  r->u.dense_array.dtype = is_bool ? HR_I1 : HR_I64;
  r->u.dense_array.n = n;
  r->u.dense_array.ints = ints;
  *out = r;
  return NULL;
}

/* A struct field: an untyped INT, or an ARRAY of untyped INTs when `is_list`. */
static hr_status struct_field_value(vhlo_ctx *c, const hr_bc_op *op, const hr_attr *a, bool is_list, hr_attr **out) {
  int64_t v[MAX_LIST];
  int n;
  HR_TRY(int_values(c, op, a, v, MAX_LIST, &n));
  if (!is_list) {
    if (n != 1) return op_error(c, op, "a dimension number that is not one integer");
    if (!(*out = hr_attr_new(c->m, HR_ATTR_INT))) return oom();
    (*out)->u.i.value = v[0];
    return NULL;
  }
  hr_attr *arr = hr_attr_new(c->m, HR_ATTR_ARRAY);
  hr_attr **items = HR_ARENA_ARRAY(&c->m->arena, hr_attr *, n ? (size_t)n : 1);
  if (!arr || !items) return oom();
  for (int i = 0; i < n; i++) {
    if (!(items[i] = hr_attr_new(c->m, HR_ATTR_INT))) return oom();
    items[i]->u.i.value = v[i];
  }
  arr->u.array.n = n;
  arr->u.array.items = items;
  *out = arr;
  return NULL;
}

/* Boolean attributes StableHLO holds as a unit attribute, present when true. */
static const char *const unit_attrs[] = {"use_global_device_ids", "has_dynamic_root"};

static bool in_list(const char *const *list, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(list[i], name) == 0) return true;
  return false;
}
#define IN_LIST(list, name) in_list((list), sizeof(list) / sizeof *(list), (name))

/* Whether a decoded attribute is VHLO's stand-in for an absent one (then dropped; StableHLO's own
 * defaults are dropped from the finished op by hr_op_drop_defaults): a none type (an absent optional
 * type, such as dot_general's algorithm fields), a false unit flag, or bounds (a tensor encoding). */
static bool is_absent(const char *name, const hr_attr *a) {
  if (a->kind == HR_ATTR_UNIT) return true;
  if (a->kind == HR_ATTR_TYPE && a->u.type.kind == HR_TYPE_NONE) return true;
  return a->kind == HR_ATTR_BOOL && !a->u.b && IN_LIST(unit_attrs, name);
}

/* A STRING (or ARRAY of STRINGs) as SYMBOLs: callees and called computations. */
static hr_status to_symbols(vhlo_ctx *c, const hr_bc_op *op, hr_attr *a, hr_attr **out) {
  if (a->kind == HR_ATTR_STRING || a->kind == HR_ATTR_SYMBOL) {
    hr_attr *s = hr_attr_new(c->m, HR_ATTR_SYMBOL);
    if (!s) return oom();
    s->u.str = a->u.str;
    *out = s;
    return NULL;
  }
  if (a->kind != HR_ATTR_ARRAY) return op_error(c, op, "a symbol attribute that is not a string");
  hr_attr *arr = hr_attr_new(c->m, HR_ATTR_ARRAY);
  hr_attr **items = HR_ARENA_ARRAY(&c->m->arena, hr_attr *, a->u.array.n ? (size_t)a->u.array.n : 1);
  if (!arr || !items) return oom();
  for (int i = 0; i < a->u.array.n; i++) HR_TRY(to_symbols(c, op, a->u.array.items[i], &items[i]));
  arr->u.array.n = a->u.array.n;
  arr->u.array.items = items;
  *out = arr;
  return NULL;
}

/* The op's attributes being built. */
typedef struct attr_list {
  int n;
  hr_named_attr items[MAX_OP_ATTRS];
} attr_list;

static void add_attr(attr_list *l, const char *name, hr_attr *value) {
  l->items[l->n].name = name;
  l->items[l->n].value = value;
  l->n++;
}

/* Builds a group's struct from the op's flat attributes (marking them used). */
static hr_status add_group(vhlo_ctx *c, const hr_bc_op *op, const vhlo_attr_group *g, const raw_attrs *raw, bool *used,
                           attr_list *out) {
  const hr_struct_info *info = hr_struct_info_find(g->strct);
  hr_named_attr fields[9];
  int n = 0;
  for (int k = 0; k < 9 && info->fields[k].name; k++) {
    const hr_struct_field *sf = &info->fields[k];
    int i = find_raw(raw, sf->name);
    hr_attr *v = NULL;
    if (i >= 0) {
      used[i] = true;
      hr_attr *a;
      HR_TRY(vhlo_attr(c, raw->values[i], &a));
      if (a) HR_TRY(struct_field_value(c, op, a, sf->is_list, &v));
    }
    bool dflt = !v || (sf->is_list ? v->u.array.n == 0 : v->u.i.value == 0);
    if (dflt && !info->keep_defaults) continue;
    if (!v && !(v = hr_attr_new(c->m, sf->is_list ? HR_ATTR_ARRAY : HR_ATTR_INT))) return oom(); /* [] or 0 */
    fields[n].name = sf->name;
    fields[n].value = v;
    n++;
  }
  hr_attr *s = hr_attr_new(c->m, HR_ATTR_STRUCT);
  hr_named_attr *f = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, n ? (size_t)n : 1);
  if (!s || !f) return oom();
  memcpy(f, fields, (size_t)n * sizeof *fields);
  s->u.strct.name = g->strct;
  s->u.strct.n = n;
  s->u.strct.fields = f;
  add_attr(out, g->attr, s);
  return NULL;
}

/* channel_id (and send/recv's channel_type) as StableHLO's channel_handle struct (one of id 0, no
 * channel, is dropped with the other defaults except where required). */
static hr_status add_channel_handle(vhlo_ctx *c, const hr_bc_op *op, const raw_attrs *raw, bool *used,
                                    attr_list *out) {
  int id = find_raw(raw, "channel_id"), type = find_raw(raw, "channel_type");
  if (id < 0) return NULL;
  used[id] = true;
  if (type >= 0) used[type] = true;
  hr_attr *v[2] = {NULL, NULL}, *f[2];
  HR_TRY(vhlo_attr(c, raw->values[id], &v[0]));
  if (type >= 0) HR_TRY(vhlo_attr(c, raw->values[type], &v[1]));
  for (int k = 0; k < 2; k++) {
    if (v[k]) HR_TRY(struct_field_value(c, op, v[k], false, &f[k]));
    else HR_TRY(struct_field_value(c, op, &(hr_attr){.kind = HR_ATTR_INT}, false, &f[k]));
  }
  hr_attr *h = hr_attr_channel_handle(c->m, f[0], f[1]);
  if (!h) return oom();
  add_attr(out, "channel_handle", h);
  return NULL;
}

/* dot_general_v2's seven algorithm attributes as StableHLO's `algorithm` struct, fields in the order
 * #stablehlo.dot_algorithm prints them (types as element types, counts as plain integers); none at
 * all (the types are none) when the op has no algorithm. */
static hr_status add_dot_algorithm(vhlo_ctx *c, const hr_bc_op *op, const raw_attrs *raw, bool *used,
                                   attr_list *out) {
  static const char *const fields[] = {"lhs_precision_type", "rhs_precision_type", "accumulation_type",
                                       "lhs_component_count", "rhs_component_count", "num_primitive_operations",
                                       "allow_imprecise_accumulation"};
  enum { N = sizeof fields / sizeof *fields };
  hr_named_attr *f = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, N);
  if (!f) return oom();
  bool present = false;
  for (int k = 0; k < N; k++) {
    int i = find_raw(raw, fields[k]);
    if (i < 0) return NULL; /* dot_general_v1: no algorithm */
    used[i] = true;
    hr_attr *a;
    HR_TRY(vhlo_attr(c, raw->values[i], &a));
    if (!a) return op_error(c, op, "a location as a dot_general algorithm field");
    if (a->kind == HR_ATTR_TYPE && a->u.type.kind != HR_TYPE_NONE) present = true;
    if (a->kind == HR_ATTR_INT) { /* untyped, as the struct's syntax has it */
      hr_attr *v = hr_attr_new(c->m, HR_ATTR_INT);
      if (!v) return oom();
      v->u.i.value = a->u.i.value;
      a = v;
    }
    f[k] = (hr_named_attr){fields[k], a};
  }
  if (!present) return NULL;
  hr_attr *s = hr_attr_new(c->m, HR_ATTR_STRUCT);
  if (!s) return oom();
  s->u.strct.name = "stablehlo.dot_algorithm";
  s->u.strct.n = N;
  s->u.strct.fields = f;
  add_attr(out, "algorithm", s);
  return NULL;
}

/* The StableHLO attributes of an op from its VHLO ones (`base`: the VHLO name without version). */
static hr_status convert_attrs(vhlo_ctx *c, const hr_bc_op *op, const char *base, const raw_attrs *raw,
                               attr_list *out) {
  bool used[MAX_OP_ATTRS] = {false};
  out->n = 0;
  int n_groups;
  const vhlo_attr_group *groups = vhlo_attr_groups(&n_groups);
  for (int g = 0; g < n_groups; g++)
    if (strcmp(groups[g].op, base) == 0) HR_TRY(add_group(c, op, &groups[g], raw, used, out));
  HR_TRY(add_channel_handle(c, op, raw, used, out));
  if (strcmp(base, "dot_general") == 0) HR_TRY(add_dot_algorithm(c, op, raw, used, out));
  for (int i = 0; i < raw->n; i++) {
    if (used[i]) continue;
    const char *name = raw->names[i];
    hr_attr *a;
    HR_TRY(vhlo_attr(c, raw->values[i], &a));
    if (!a || is_absent(name, a)) continue;
    if (IN_LIST(unit_attrs, name) && a->kind == HR_ATTR_BOOL) {
      if (!(a = hr_attr_new(c->m, HR_ATTR_UNIT))) return oom();
    } else if (a->kind == HR_ATTR_DENSE && hr_is_list_attr_name(name)) {
      HR_TRY(to_dense_array(c, op, a, strcmp(name, "window_reversal") == 0, &a));
    } else if (strcmp(name, "callee") == 0 || strcmp(name, "called_computations") == 0 ||
               strcmp(name, "decomposition") == 0) {
      HR_TRY(to_symbols(c, op, a, &a));
    }
    add_attr(out, name, a);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Ops                                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* The VHLO op name without its dialect and version: "add_v1" -> "add". Returns false for names
 * of another dialect or without a version suffix. */
static bool vhlo_base_name(const vhlo_ctx *c, const hr_bc_op *op, char *out, size_t cap) {
  const hr_bc_opname *n = &c->f->opnames[op->name];
  if ((int64_t)n->dialect != c->vhlo) return false;
  const char *v = NULL;
  for (const char *p = n->name.data; (p = strstr(p, "_v")) != NULL; p++) v = p;
  if (!v || v == n->name.data || (size_t)(v - n->name.data) >= cap) return false;
  for (const char *d = v + 2; *d; d++)
    if (*d < '0' || *d > '9') return false;
  memcpy(out, n->name.data, (size_t)(v - n->name.data));
  out[v - n->name.data] = '\0';
  return true;
}

/* The IR opcode of a VHLO op; `in_function_body` tells the two returns apart (VHLO has one). */
static hr_status op_code(const vhlo_ctx *c, const hr_bc_op *op, const char *base, bool in_function_body,
                         hr_opcode *out) {
  char name[96];
  if (strcmp(base, "return") == 0) {
    *out = in_function_body ? HR_OP_FUNC_RETURN : HR_OP_RETURN;
    return NULL;
  }
  if (strcmp(base, "call") == 0) {
    *out = HR_OP_FUNC_CALL;
    return NULL;
  }
  snprintf(name, sizeof name, "stablehlo.%s", base);
  *out = hr_opcode_lookup(name, strlen(name));
  if (*out == HR_OP_COUNT) return op_error(c, op, "hlorun has no such operation");
  return NULL;
}

static hr_status convert_block(vhlo_ctx *c, const hr_bc_block *b, hr_op *parent, hr_block *out);

/* A new value of the function being converted, for bytecode value `id`. */
static hr_status define_value(vhlo_ctx *c, uint32_t id, hr_value *v) {
  if (id >= c->f->n_values || c->values[id]) return hr_error(HR_INVALID_ARGUMENT, "%s: value %u defined twice", c->f->filename, id);
  if (c->func->n_values == UINT32_MAX) return hr_error(HR_RESOURCE_EXHAUSTED, "%s: too many values in one function", c->f->filename);
  v->id = c->func->n_values++;
  c->values[id] = v;
  return NULL;
}

/* Copies the converted attributes into the op. */
static hr_status set_op_attrs(vhlo_ctx *c, hr_op *o, const attr_list *l) {
  o->n_attrs = l->n;
  if (!l->n) return NULL;
  o->attrs = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, (size_t)l->n);
  if (!o->attrs) return oom();
  memcpy(o->attrs, l->items, (size_t)l->n * sizeof *l->items);
  return NULL;
}

/* Converts the operands, results and regions of one op. */
static hr_status convert_op_body(vhlo_ctx *c, const hr_bc_op *op, hr_op *o) {
  o->n_operands = (int)op->n_operands;
  o->operands = op->n_operands ? HR_ARENA_ARRAY(&c->m->arena, hr_value *, op->n_operands) : NULL;
  if (op->n_operands && !o->operands) return oom();
  for (uint32_t i = 0; i < op->n_operands; i++) {
    uint32_t id = op->operands[i];
    if (id >= c->f->n_values || !c->values[id]) return op_error(c, op, "an operand used before it is defined");
    o->operands[i] = c->values[id];
  }
  if (op->n_successors) return op_error(c, op, "successor blocks are not supported");
  o->n_regions = (int)op->n_regions;
  o->regions = op->n_regions ? HR_ARENA_ARRAY(&c->m->arena, hr_block, op->n_regions) : NULL;
  if (op->n_regions && !o->regions) return oom();
  for (uint32_t r = 0; r < op->n_regions; r++) {
    if (op->regions[r].n_blocks != 1) return op_error(c, op, "a region of other than one block");
    HR_TRY(convert_block(c, &op->regions[r].blocks[0], o, &o->regions[r]));
  }
  o->n_results = (int)op->n_results;
  o->results = op->n_results ? HR_ARENA_ARRAY(&c->m->arena, hr_value, op->n_results) : NULL;
  if (op->n_results && !o->results) return oom();
  for (uint32_t i = 0; i < op->n_results; i++) {
    hr_value *v = &o->results[i];
    HR_TRY(vhlo_value_type(c, op->result_types[i], &v->type));
    v->def = o;
    v->index = i;
    HR_TRY(define_value(c, op->first_result + i, v));
  }
  return NULL;
}

/* builtin.unrealized_conversion_cast between VHLO's and the builtin spelling of one type, which
 * JAX's serializer puts around Shardy's ops (they take builtin types): here the same value. */
static hr_status convert_cast(vhlo_ctx *c, const hr_bc_op *op) {
  if (op->n_operands != 1 || op->n_results != 1 || op->n_regions)
    return op_error(c, op, "a conversion cast of other than one value");
  uint32_t from = op->operands[0], to = op->first_result;
  if (from >= c->f->n_values || !c->values[from]) return op_error(c, op, "an operand used before it is defined");
  hr_type t;
  HR_TRY(vhlo_value_type(c, op->result_types[0], &t));
  if (!hr_type_equal(&t, &c->values[from]->type)) return op_error(c, op, "a conversion cast that changes the type");
  if (to >= c->f->n_values || c->values[to]) return hr_error(HR_INVALID_ARGUMENT, "%s: value %u defined twice", c->f->filename, to);
  c->values[to] = c->values[from];
  return NULL;
}

/* The attributes of a Shardy op (sdy.manual_computation, ...), decoded as they are. */
static hr_status convert_sdy_attrs(vhlo_ctx *c, const hr_bc_op *op, const raw_attrs *raw, attr_list *out) {
  out->n = 0;
  for (int i = 0; i < raw->n; i++) {
    hr_attr *a;
    HR_TRY(vhlo_attr(c, raw->values[i], &a));
    if (a) add_attr(out, raw->names[i], a);
  }
  return NULL;
}

/* Converts one op of a block of the function being converted; a cast converts to no op (NULL). */
static hr_status convert_op(vhlo_ctx *c, const hr_bc_op *op, hr_block *parent, hr_op **out) {
  const hr_bc_opname *name = &c->f->opnames[op->name];
  *out = NULL;
  if (strcmp(name->full, "builtin.unrealized_conversion_cast") == 0) return convert_cast(c, op);
  bool sdy = strcmp(c->f->dialects[name->dialect].name.data, "sdy") == 0;
  char base[80];
  if (!sdy && !vhlo_base_name(c, op, base, sizeof base)) return op_error(c, op, "not a VHLO operation");
  hr_op *o = HR_ARENA_NEW(&c->m->arena, hr_op);
  if (!o) return oom();
  if (sdy) {
    o->code = hr_opcode_lookup(name->full, strlen(name->full));
    if (o->code == HR_OP_COUNT) return op_error(c, op, "a Shardy operation hlorun does not know");
  } else {
    HR_TRY(op_code(c, op, base, parent->parent_op == NULL, &o->code));
  }
  o->parent = parent;
  o->loc = (hr_loc){c->m->filename, 0, (uint32_t)(op->offset > UINT32_MAX ? UINT32_MAX : op->offset)};
  raw_attrs raw;
  attr_list attrs;
  HR_TRY(op_raw_attrs(c, op, &raw));
  HR_TRY(sdy ? convert_sdy_attrs(c, op, &raw, &attrs) : convert_attrs(c, op, base, &raw, &attrs));
  HR_TRY(set_op_attrs(c, o, &attrs));
  hr_op_drop_defaults(o);
  HR_TRY(convert_op_body(c, op, o));
  *out = o;
  return NULL;
}

/* Converts a block (a function body or an op's region) of the function being converted. */
static hr_status convert_block(vhlo_ctx *c, const hr_bc_block *b, hr_op *parent, hr_block *out) {
  memset(out, 0, sizeof *out);
  out->parent_op = parent;
  out->func = c->func;
  if (c->depth >= HR_LIMIT_NESTING_DEPTH)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: regions nest deeper than %d", c->f->filename, HR_LIMIT_NESTING_DEPTH);
  out->n_args = (int)b->n_args;
  out->args = b->n_args ? HR_ARENA_ARRAY(&c->m->arena, hr_value, b->n_args) : NULL;
  out->n_ops = (int)b->n_ops;
  out->ops = b->n_ops ? HR_ARENA_ARRAY(&c->m->arena, hr_op *, b->n_ops) : NULL;
  if ((b->n_args && !out->args) || (b->n_ops && !out->ops)) return oom();
  for (uint32_t i = 0; i < b->n_args; i++) {
    hr_value *v = &out->args[i];
    HR_TRY(vhlo_value_type(c, b->arg_types[i], &v->type));
    v->owner = out;
    v->index = i;
    HR_TRY(define_value(c, b->first_arg + i, v));
  }
  c->depth++;
  hr_status s = NULL;
  int n = 0;
  for (uint32_t i = 0; i < b->n_ops && !s; i++) {
    hr_op *o;
    s = convert_op(c, &b->ops[i], out, &o);
    if (!s && o) out->ops[n++] = o;
  }
  out->n_ops = n;
  c->depth--;
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Functions and the module                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* The function type a func_v1's function_type attribute (TypeV1 or builtin TypeAttr) holds. */
static hr_status function_type(vhlo_ctx *c, const hr_bc_op *op, uint32_t attr, const vt **out) {
  const hr_bc_entry *e = &c->f->attrs[attr];
  hr_bc_cursor cur = hr_bc_entry_cursor(c->f, e->data, e->len);
  uint64_t code;
  uint32_t type;
  if (!e->custom) return op_error(c, op, "a function type in text form");
  HR_TRY(hr_bc_varint(&cur, &code));
  bool is_type = ((int64_t)e->dialect == c->vhlo && code == 17) || ((int64_t)e->dialect == c->builtin && code == 6);
  if (!is_type) return op_error(c, op, "function_type is not a type attribute");
  HR_TRY(hr_bc_index(&cur, c->f->n_types, "type index", &type));
  HR_TRY(vhlo_type(c, type, out));
  if ((*out)->kind != VT_FUNC) return op_error(c, op, "function_type is not a function type");
  return NULL;
}

/* Per-argument (or per-result) attribute dictionaries: an ARRAY of DICTs, empty ones as NULL. */
static hr_status slot_attrs(vhlo_ctx *c, const hr_bc_op *op, const raw_attrs *raw, const char *name, int n,
                            hr_attr ***out) {
  *out = NULL;
  int i = find_raw(raw, name);
  if (i < 0) return NULL;
  hr_attr *a;
  HR_TRY(vhlo_attr(c, raw->values[i], &a));
  if (!a || a->kind != HR_ATTR_ARRAY || (a->u.array.n != 0 && a->u.array.n != n))
    return op_error(c, op, "argument or result attributes that do not match the function type");
  bool any = false;
  for (int k = 0; k < a->u.array.n; k++) {
    const hr_attr *d = a->u.array.items[k];
    if (d->kind != HR_ATTR_DICT) return op_error(c, op, "argument or result attributes that are not dictionaries");
    any = any || d->u.dict.n > 0;
  }
  if (!any) return NULL;
  *out = HR_ARENA_ARRAY(&c->m->arena, hr_attr *, (size_t)n);
  if (!*out) return oom();
  for (int k = 0; k < n; k++) (*out)[k] = a->u.array.items[k]->u.dict.n ? a->u.array.items[k] : NULL;
  return NULL;
}

/* A string attribute of a func_v1 (sym_name, sym_visibility), or NULL when absent. */
static hr_status func_string(vhlo_ctx *c, const hr_bc_op *op, const raw_attrs *raw, const char *name,
                             const char **out) {
  *out = NULL;
  int i = find_raw(raw, name);
  if (i < 0) return NULL;
  hr_attr *a;
  HR_TRY(vhlo_attr(c, raw->values[i], &a));
  if (!a || a->kind != HR_ATTR_STRING) return op_error(c, op, "a function name or visibility that is not a string");
  *out = a->u.str.data;
  return NULL;
}

/* A func_v1's attributes other than its inherent ones (sym_name, function_type, ...), as the DICT
 * of the function's other attributes, or NULL when there are none. */
static hr_status func_extra_attrs(vhlo_ctx *c, const raw_attrs *raw, hr_attr **out) {
  static const char *const inherent[] = {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"};
  *out = NULL;
  hr_attr *d = hr_attr_new(c->m, HR_ATTR_DICT);
  hr_named_attr *e = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, raw->n ? (size_t)raw->n : 1);
  if (!d || !e) return oom();
  for (int i = 0; i < raw->n; i++) {
    if (IN_LIST(inherent, raw->names[i])) continue;
    hr_attr *a;
    HR_TRY(vhlo_attr(c, raw->values[i], &a));
    if (!a) continue;
    e[d->u.dict.n].name = raw->names[i];
    e[d->u.dict.n].value = a;
    d->u.dict.n++;
  }
  d->u.dict.entries = e;
  if (d->u.dict.n) *out = d;
  return NULL;
}

/* Completes `f` as a declaration (a func_v1 whose region has no block): its parameters are
 * unnamed values of the function type's inputs. MLIR requires a declaration to be private. */
static hr_status declare_func(vhlo_ctx *c, const hr_bc_op *op, hr_func *f, const vt *ft, hr_func **out) {
  if (!f->is_private) return op_error(c, op, "a function declaration (no body) that is not private");
  f->is_declaration = true;
  f->body.func = f;
  f->body.n_args = f->n_args;
  if (f->n_args && !(f->body.args = HR_ARENA_ARRAY(&c->m->arena, hr_value, (size_t)f->n_args))) return oom();
  for (int i = 0; i < f->n_args; i++)
    f->body.args[i] = (hr_value){.type = ft->in[i], .id = f->n_values++, .owner = &f->body, .index = (uint32_t)i};
  *out = f;
  return NULL;
}

/* Converts a vhlo.func_v1 into a function of the module. */
static hr_status convert_func(vhlo_ctx *c, const hr_bc_op *op, hr_func **out) {
  raw_attrs raw;
  HR_TRY(op_raw_attrs(c, op, &raw));
  hr_func *f = HR_ARENA_NEW(&c->m->arena, hr_func);
  if (!f) return oom();
  const char *visibility;
  HR_TRY(func_string(c, op, &raw, "sym_name", &f->name));
  HR_TRY(func_string(c, op, &raw, "sym_visibility", &visibility));
  if (!f->name) return op_error(c, op, "a function without a name");
  f->is_private = visibility && strcmp(visibility, "private") == 0;
  int t = find_raw(&raw, "function_type");
  if (t < 0) return op_error(c, op, "a function without a function_type");
  const vt *ft;
  HR_TRY(function_type(c, op, raw.values[t], &ft));
  f->n_args = ft->n_in;
  f->n_results = ft->n_out;
  f->result_types = ft->out;
  f->loc = (hr_loc){c->m->filename, 0, (uint32_t)(op->offset > UINT32_MAX ? UINT32_MAX : op->offset)};
  HR_TRY(slot_attrs(c, op, &raw, "arg_attrs", f->n_args, &f->arg_attrs));
  HR_TRY(slot_attrs(c, op, &raw, "res_attrs", f->n_results, &f->result_attrs));
  HR_TRY(func_extra_attrs(c, &raw, &f->attrs));
  if (op->n_regions != 1 || op->regions[0].n_blocks > 1) return op_error(c, op, "a function body of more than one block");
  if (op->regions[0].n_blocks == 0) return declare_func(c, op, f, ft, out);
  const hr_bc_block *body = &op->regions[0].blocks[0];
  if ((int)body->n_args != f->n_args) return op_error(c, op, "a function body whose arguments do not match its type");
  c->func = f;
  HR_TRY(convert_block(c, body, NULL, &f->body));
  for (int i = 0; i < f->n_args; i++)
    if (!hr_type_equal(&f->body.args[i].type, &ft->in[i])) return op_error(c, op, "a parameter whose type differs from the function type");
  c->func = NULL;
  *out = f;
  return NULL;
}

/* The module's name and discardable attributes (mhlo.num_partitions, ...) from its dictionary. */
static hr_status module_attrs(vhlo_ctx *c, const hr_bc_op *op) {
  raw_attrs raw;
  HR_TRY(op_raw_attrs(c, op, &raw));
  hr_attr *d = hr_attr_new(c->m, HR_ATTR_DICT);
  hr_named_attr *e = HR_ARENA_ARRAY(&c->m->arena, hr_named_attr, raw.n ? (size_t)raw.n : 1);
  if (!d || !e) return oom();
  for (int i = 0; i < raw.n; i++) {
    hr_attr *a;
    HR_TRY(vhlo_attr(c, raw.values[i], &a));
    if (!a) continue;
    if (strcmp(raw.names[i], "sym_name") == 0 && a->kind == HR_ATTR_STRING) {
      c->m->name = a->u.str.data;
      continue;
    }
    if (strcmp(raw.names[i], "sym_visibility") == 0) continue;
    e[d->u.dict.n].name = raw.names[i];
    e[d->u.dict.n].value = a;
    d->u.dict.n++;
  }
  d->u.dict.entries = e;
  if (d->u.dict.n) c->m->attrs = d;
  return NULL;
}

static int compare_func_names(const void *a, const void *b) {
  return strcmp((*(hr_func *const *)a)->name, (*(hr_func *const *)b)->name);
}

/* Fails when two functions share a name (sorting a copy of the list). */
static hr_status check_unique_names(vhlo_ctx *c) {
  if (c->m->n_funcs < 2) return NULL;
  hr_func **sorted = HR_ARENA_ARRAY(&c->m->arena, hr_func *, (size_t)c->m->n_funcs);
  if (!sorted) return oom();
  memcpy(sorted, c->m->funcs, (size_t)c->m->n_funcs * sizeof *sorted);
  qsort(sorted, (size_t)c->m->n_funcs, sizeof *sorted, compare_func_names);
  for (int i = 1; i < c->m->n_funcs; i++)
    if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0)
      return hr_error(HR_INVALID_ARGUMENT, "%s: two functions are called @%s", c->f->filename, sorted[i]->name);
  return NULL;
}

/* A Shardy mesh, `sdy.mesh @name = <[...]>`: what sharding attributes name. */
static hr_status convert_mesh(vhlo_ctx *c, const hr_bc_op *op, hr_mesh *out) {
  raw_attrs raw;
  HR_TRY(op_raw_attrs(c, op, &raw));
  int name = find_raw(&raw, "sym_name"), mesh = find_raw(&raw, "mesh");
  hr_attr *n = NULL;
  if (name >= 0) HR_TRY(vhlo_attr(c, raw.values[name], &n));
  if (mesh >= 0) HR_TRY(vhlo_attr(c, raw.values[mesh], &out->mesh));
  if (!n || n->kind != HR_ATTR_STRING || mesh < 0 || !out->mesh || out->mesh->kind != HR_ATTR_OPAQUE)
    return op_error(c, op, "a mesh without a name or a mesh attribute");
  out->name = n->u.str.data;
  return NULL;
}

hr_status vhlo_convert_module(vhlo_ctx *c) {
  const hr_bc_block *top = &c->f->top;
  if (top->n_ops != 1 || strcmp(c->f->opnames[top->ops[0].name].full, "builtin.module") != 0)
    return hr_error(HR_INVALID_ARGUMENT, "%s: the top level does not hold one builtin.module", c->f->filename);
  const hr_bc_op *mod = &top->ops[0];
  HR_TRY(module_attrs(c, mod));
  if (mod->n_regions != 1 || mod->regions[0].n_blocks != 1)
    return op_error(c, mod, "a module body of other than one block");
  const hr_bc_block *body = &mod->regions[0].blocks[0];
  c->m->funcs = body->n_ops ? HR_ARENA_ARRAY(&c->m->arena, hr_func *, body->n_ops) : NULL;
  c->m->meshes = body->n_ops ? HR_ARENA_ARRAY(&c->m->arena, hr_mesh, body->n_ops) : NULL;
  if (body->n_ops && (!c->m->funcs || !c->m->meshes)) return oom();
  for (uint32_t i = 0; i < body->n_ops; i++) {
    const hr_bc_op *op = &body->ops[i];
    const char *name = c->f->opnames[op->name].full;
    if (strcmp(name, "sdy.mesh") == 0) {
      HR_TRY(convert_mesh(c, op, &c->m->meshes[c->m->n_meshes++]));
      continue;
    }
    if (strcmp(name, "vhlo.func_v1") != 0) return op_error(c, op, "only functions and meshes may appear in a module");
    HR_TRY(convert_func(c, op, &c->m->funcs[c->m->n_funcs++]));
  }
  return check_unique_names(c);
}

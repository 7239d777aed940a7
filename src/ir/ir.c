/* Core IR helpers: the op table, type and attribute utilities, errors. */
#include "ir/ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/numeric.h"
#include "base/limits.h"
#include "base/strbuf.h"
#include "ir/print_internal.h"

typedef struct op_info {
  const char *name;
  unsigned flags;
} op_info;

static const op_info op_table[HR_OP_COUNT] = {
#define HR_OP(id, name, flags) [HR_OP_##id] = {name, flags},
#include "ir/ops.def"
#undef HR_OP
};

const char *hr_opcode_name(hr_opcode code) {
  return (unsigned)code < HR_OP_COUNT ? op_table[code].name : "<invalid op>";
}

unsigned hr_opcode_flags(hr_opcode code) {
  return (unsigned)code < HR_OP_COUNT ? op_table[code].flags : 0;
}

hr_opcode hr_opcode_lookup(const char *name, size_t len) {
  if (len == 4 && memcmp(name, "call", 4) == 0) return HR_OP_FUNC_CALL;
  if (len == 6 && memcmp(name, "return", 6) == 0) return HR_OP_FUNC_RETURN;
  for (int i = 0; i < HR_OP_COUNT; i++) {
    const char *n = op_table[i].name;
    if (strlen(n) == len && memcmp(n, name, len) == 0) return (hr_opcode)i;
  }
  return HR_OP_COUNT;
}

/* ---- types ---- */

void hr_dtype_int_range(hr_dtype t, int64_t *min, int64_t *max) {
  int bits = hr_dtype_bits(t);
  if (hr_dtype_is_unsigned_int(t)) {
    *min = 0;
    *max = bits >= 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << bits) - 1); /* ui64 above INT64_MAX is not held */
  } else {
    *min = bits >= 64 ? INT64_MIN : -(INT64_C(1) << (bits - 1));
    *max = bits >= 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1;
  }
}

bool hr_quant_equal(const hr_quant *a, const hr_quant *b) {
  if (!a || !b) return a == b;
  if (a->storage != b->storage || a->expressed != b->expressed || a->storage_min != b->storage_min ||
      a->storage_max != b->storage_max || a->axis != b->axis || a->n != b->n)
    return false;
  for (int i = 0; i < a->n; i++)
    if (hr_f64_bits(a->scales[i]) != hr_f64_bits(b->scales[i]) || a->zero_points[i] != b->zero_points[i]) return false;
  return true;
}

/* Whether two tensor types have the same bounds (both none, or equal lists). */
static bool bounds_equal(const hr_type *a, const hr_type *b) {
  if (!a->bounds || !b->bounds) return a->bounds == b->bounds;
  return memcmp(a->bounds, b->bounds, sizeof *a->bounds * (size_t)a->shape.rank) == 0;
}

/* Whether the element lists of two tuple or future types satisfy `same` pairwise. */
static bool elems_match(const hr_type *a, const hr_type *b, bool (*same)(const hr_type *, const hr_type *)) {
  if (a->n_elems != b->n_elems) return false;
  for (int i = 0; i < a->n_elems; i++)
    if (!same(&a->elems[i], &b->elems[i])) return false;
  return true;
}

bool hr_type_equal(const hr_type *a, const hr_type *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case HR_TYPE_TOKEN:
    case HR_TYPE_NONE: return true;
    case HR_TYPE_ELEMENT: return a->dtype == b->dtype && hr_quant_equal(a->quant, b->quant);
    case HR_TYPE_TUPLE:
    case HR_TYPE_FUTURE: return elems_match(a, b, hr_type_equal);
    case HR_TYPE_TENSOR:
    case HR_TYPE_BUFFER:
      if (a->dtype != b->dtype || a->shape.rank != b->shape.rank || !hr_quant_equal(a->quant, b->quant) ||
          !bounds_equal(a, b))
        return false;
      for (int i = 0; i < a->shape.rank; i++)
        if (a->shape.dims[i] != b->shape.dims[i]) return false;
      return true;
  }
  return false;
}

bool hr_type_is_static(const hr_type *t) {
  if (t->kind != HR_TYPE_TENSOR) return false;
  for (int i = 0; i < t->shape.rank; i++)
    if (t->shape.dims[i] < 0) return false;
  return true;
}

bool hr_type_bytes(const hr_type *t, size_t *out) {
  int64_t n = 0;
  if (!hr_type_is_static(t)) return false;
  hr_status s = hr_shape_num_elements(&t->shape, &n);
  if (s) {
    hr_status_free(s);
    return false;
  }
  size_t es = hr_dtype_size(t->dtype);
  if (es == 0 || (uint64_t)n > SIZE_MAX / es) return false;
  *out = (size_t)n * es;
  return true;
}

bool hr_type_compatible(const hr_type *a, const hr_type *b) {
  if (a->kind != b->kind) return false;
  if (a->kind == HR_TYPE_TUPLE || a->kind == HR_TYPE_FUTURE) return elems_match(a, b, hr_type_compatible);
  if (a->kind == HR_TYPE_ELEMENT) return hr_type_equal(a, b);
  if (a->kind != HR_TYPE_TENSOR && a->kind != HR_TYPE_BUFFER) return true;
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank || !hr_quant_equal(a->quant, b->quant)) return false;
  for (int i = 0; i < a->shape.rank; i++) {
    int64_t x = a->shape.dims[i], y = b->shape.dims[i];
    if (x >= 0 && y >= 0 && x != y) return false;
  }
  return true;
}

hr_type hr_tensor_type(hr_dtype dtype, int rank, const int64_t *dims) {
  hr_type t;
  memset(&t, 0, sizeof t);
  t.kind = HR_TYPE_TENSOR;
  t.dtype = dtype;
  t.shape.rank = rank;
  for (int i = 0; i < rank && i < HR_MAX_RANK; i++) t.shape.dims[i] = dims[i];
  return t;
}

/* Appends a scale and zero point as the quant dialect prints them ("3.400000e+01:16"; no zero point
 * when it is 0). */
static void print_quant_params(hr_strbuf *sb, double scale, int64_t zero_point) {
  hr_print_float_bits(sb, HR_F64, hr_f64_bits(scale));
  if (zero_point) hr_strbuf_printf(sb, ":%lld", (long long)zero_point);
}

/* Appends `!quant.uniform<...>` as MLIR's quant dialect prints it: the storage type as i<N> or
 * u<N>, its range only when narrower than the type's, the expressed type, the axis of a per-axis
 * type, and the scales with their zero points (per axis in braces, separated by bare commas). */
static void print_quant(hr_strbuf *sb, const hr_quant *q) {
  int64_t min, max;
  hr_dtype_int_range(q->storage, &min, &max);
  hr_strbuf_printf(sb, "!quant.uniform<%c%d", hr_dtype_is_unsigned_int(q->storage) ? 'u' : 'i',
                   hr_dtype_bits(q->storage));
  if (q->storage_min != min || q->storage_max != max)
    hr_strbuf_printf(sb, "<%lld:%lld>", (long long)q->storage_min, (long long)q->storage_max);
  hr_strbuf_printf(sb, ":%s", hr_dtype_name(q->expressed));
  if (q->axis < 0) {
    hr_strbuf_puts(sb, ", ");
    print_quant_params(sb, q->scales[0], q->zero_points[0]);
  } else {
    hr_strbuf_printf(sb, ":%d, {", (int)q->axis);
    for (int i = 0; i < q->n; i++) {
      if (i) hr_strbuf_putc(sb, ',');
      print_quant_params(sb, q->scales[i], q->zero_points[i]);
    }
    hr_strbuf_putc(sb, '}');
  }
  hr_strbuf_putc(sb, '>');
}

void hr_elem_type_print(hr_strbuf *sb, const hr_type *t) {
  if (t->quant) print_quant(sb, t->quant);
  else hr_strbuf_puts(sb, hr_dtype_name(t->dtype));
}

/* Appends `t`, `depth` levels below the outermost type; malformed types and tuples nested deeper
 * than HR_LIMIT_TUPLE_DEPTH print as placeholders (messages print types the verifier rejects). */
static void type_print_at(hr_strbuf *sb, const hr_type *t, int depth) {
  switch (t->kind) {
    case HR_TYPE_TOKEN: hr_strbuf_puts(sb, "!stablehlo.token"); return;
    case HR_TYPE_NONE: hr_strbuf_puts(sb, "none"); return;
    case HR_TYPE_ELEMENT: hr_elem_type_print(sb, t); return;
    case HR_TYPE_TUPLE:
    case HR_TYPE_FUTURE:
      hr_strbuf_puts(sb, t->kind == HR_TYPE_TUPLE ? "tuple<" : "!stablehlo.future<");
      if (depth >= HR_LIMIT_TUPLE_DEPTH || t->n_elems < 0 || (t->n_elems > 0 && !t->elems)) {
        hr_strbuf_puts(sb, "...>");
        return;
      }
      for (int i = 0; i < t->n_elems; i++) {
        if (i) hr_strbuf_puts(sb, ", ");
        type_print_at(sb, &t->elems[i], depth + 1);
      }
      hr_strbuf_putc(sb, '>');
      return;
    case HR_TYPE_TENSOR:
    case HR_TYPE_BUFFER: break;
    default: hr_strbuf_puts(sb, "<invalid type>"); return;
  }
  hr_strbuf_puts(sb, t->kind == HR_TYPE_TENSOR ? "tensor<" : "memref<");
  int rank = t->shape.rank < 0 || t->shape.rank > HR_MAX_RANK ? 0 : t->shape.rank;
  for (int i = 0; i < rank; i++) {
    if (t->shape.dims[i] < 0)
      hr_strbuf_puts(sb, "?x");
    else
      hr_strbuf_printf(sb, "%lldx", (long long)t->shape.dims[i]);
  }
  hr_elem_type_print(sb, t);
  if (t->bounds) {
    hr_strbuf_puts(sb, ", #stablehlo.type_extensions<bounds = [");
    for (int i = 0; i < rank; i++) {
      if (i) hr_strbuf_puts(sb, ", ");
      if (t->bounds[i] < 0) hr_strbuf_putc(sb, '?');
      else hr_strbuf_printf(sb, "%lld", (long long)t->bounds[i]);
    }
    hr_strbuf_puts(sb, "]>");
  }
  hr_strbuf_putc(sb, '>');
}

void hr_type_print(hr_strbuf *sb, const hr_type *t) { type_print_at(sb, t, 0); }

void hr_type_format(const hr_type *t, char *buf, size_t cap) {
  if (cap == 0) return;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  type_print_at(&sb, t, 0);
  size_t n = hr_strbuf_status(&sb) ? 0 : sb.len;
  if (n >= cap) {
    n = cap - 1;
    if (cap >= 4) memcpy(sb.data + n - 3, "...", 3);
  }
  if (n) memcpy(buf, sb.data, n);
  buf[n] = '\0';
  hr_strbuf_free(&sb);
}

/* ---- attributes ---- */

static bool named_attrs_equal(int n, const hr_named_attr *a, int m, const hr_named_attr *b) {
  if (n != m) return false;
  for (int i = 0; i < n; i++)
    if (strcmp(a[i].name, b[i].name) != 0 || !hr_attr_equal(a[i].value, b[i].value)) return false;
  return true;
}

static size_t dense_elem_size(const hr_attr *a) { return hr_dtype_size(a->u.dense.type.dtype); }

bool hr_attr_equal(const hr_attr *a, const hr_attr *b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case HR_ATTR_UNIT: return true;
    case HR_ATTR_BOOL: return a->u.b == b->u.b;
    case HR_ATTR_INT:
      return a->u.i.value == b->u.i.value && a->u.i.dtype == b->u.i.dtype &&
             a->u.i.is_index == b->u.i.is_index;
    case HR_ATTR_FLOAT:
      return a->u.f.dtype == b->u.f.dtype &&
             memcmp(&a->u.f.value, &b->u.f.value, sizeof(double)) == 0;
    case HR_ATTR_STRING:
    case HR_ATTR_SYMBOL:
    case HR_ATTR_OPAQUE:
      return a->u.str.len == b->u.str.len && memcmp(a->u.str.data, b->u.str.data, a->u.str.len) == 0;
    case HR_ATTR_TYPE: return hr_type_equal(&a->u.type, &b->u.type);
    case HR_ATTR_ARRAY:
      if (a->u.array.n != b->u.array.n) return false;
      for (int i = 0; i < a->u.array.n; i++)
        if (!hr_attr_equal(a->u.array.items[i], b->u.array.items[i])) return false;
      return true;
    case HR_ATTR_DENSE_ARRAY:
      if (a->u.dense_array.dtype != b->u.dense_array.dtype || a->u.dense_array.n != b->u.dense_array.n)
        return false;
      for (int64_t i = 0; i < a->u.dense_array.n; i++) {
        if (a->u.dense_array.ints && a->u.dense_array.ints[i] != b->u.dense_array.ints[i]) return false;
        if (a->u.dense_array.floats &&
            memcmp(&a->u.dense_array.floats[i], &b->u.dense_array.floats[i], sizeof(double)) != 0)
          return false;
      }
      return true;
    case HR_ATTR_DENSE: {
      if (!hr_type_equal(&a->u.dense.type, &b->u.dense.type)) return false;
      /* A splat equals a full tensor holding the same element everywhere. */
      int64_t n;
      hr_status s = hr_shape_num_elements(&a->u.dense.type.shape, &n);
      if (s) {
        hr_status_free(s);
        return false;
      }
      size_t es = dense_elem_size(a);
      if (!a->u.dense.splat && !b->u.dense.splat)
        return a->u.dense.nbytes == b->u.dense.nbytes &&
               memcmp(a->u.dense.data, b->u.dense.data, a->u.dense.nbytes) == 0;
      for (int64_t i = 0; i < n; i++)
        if (memcmp(hr_dense_element(a, i), hr_dense_element(b, i), es) != 0) return false;
      return true;
    }
    case HR_ATTR_DICT:
      return named_attrs_equal(a->u.dict.n, a->u.dict.entries, b->u.dict.n, b->u.dict.entries);
    case HR_ATTR_ENUM:
      return strcmp(a->u.enm.dialect, b->u.enm.dialect) == 0 &&
             strcmp(a->u.enm.name, b->u.enm.name) == 0 && strcmp(a->u.enm.value, b->u.enm.value) == 0;
    case HR_ATTR_STRUCT:
      return strcmp(a->u.strct.name, b->u.strct.name) == 0 &&
             named_attrs_equal(a->u.strct.n, a->u.strct.fields, b->u.strct.n, b->u.strct.fields);
  }
  return false;
}

const hr_attr *hr_attr_field(const hr_attr *a, const char *name) {
  if (!a) return NULL;
  int n;
  const hr_named_attr *e;
  if (a->kind == HR_ATTR_DICT) {
    n = a->u.dict.n;
    e = a->u.dict.entries;
  } else if (a->kind == HR_ATTR_STRUCT) {
    n = a->u.strct.n;
    e = a->u.strct.fields;
  } else {
    return NULL;
  }
  for (int i = 0; i < n; i++)
    if (strcmp(e[i].name, name) == 0) return e[i].value;
  return NULL;
}

const void *hr_dense_element(const hr_attr *a, int64_t i) {
  const unsigned char *d = a->u.dense.data;
  return a->u.dense.splat ? d : d + (size_t)i * dense_elem_size(a);
}

hr_status hr_attr_to_i64_list(const hr_attr *a, int64_t *out, int cap, int *n) {
  *n = 0;
  switch (a->kind) {
    case HR_ATTR_ARRAY:
      if (a->u.array.n > cap) return hr_error(HR_VERIFY_ERROR, "list of %d integers exceeds %d", a->u.array.n, cap);
      for (int i = 0; i < a->u.array.n; i++) {
        const hr_attr *it = a->u.array.items[i];
        if (it->kind != HR_ATTR_INT) return hr_error(HR_VERIFY_ERROR, "expected a list of integers");
        out[i] = it->u.i.value;
      }
      *n = a->u.array.n;
      return NULL;
    case HR_ATTR_DENSE_ARRAY:
      if (!a->u.dense_array.ints) return hr_error(HR_VERIFY_ERROR, "expected an integer array");
      if (a->u.dense_array.n > cap)
        return hr_error(HR_VERIFY_ERROR, "list of %lld integers exceeds %d", (long long)a->u.dense_array.n, cap);
      for (int64_t i = 0; i < a->u.dense_array.n; i++) out[i] = a->u.dense_array.ints[i];
      *n = (int)a->u.dense_array.n;
      return NULL;
    case HR_ATTR_DENSE: {
      if (a->u.dense.type.shape.rank > 1) return hr_error(HR_VERIFY_ERROR, "expected a 1-D integer tensor");
      int64_t cnt = a->u.dense.type.shape.rank == 0 ? 1 : a->u.dense.type.shape.dims[0];
      if (cnt > cap) return hr_error(HR_VERIFY_ERROR, "list of %lld integers exceeds %d", (long long)cnt, cap);
      for (int64_t i = 0; i < cnt; i++)
        if (!hr_read_int_element(a->u.dense.type.dtype, hr_dense_element(a, i), &out[i]))
          return hr_error(HR_VERIFY_ERROR, "expected an integer tensor");
      *n = (int)cnt;
      return NULL;
    }
    default:
      return hr_error(HR_VERIFY_ERROR, "expected a list of integers");
  }
}

hr_status hr_op_struct_list(const hr_op *op, const hr_attr *s, const char *sname, const char *field, int64_t *out,
                            int *n) {
  *n = 0;
  const hr_attr *f = hr_attr_field(s, field);
  if (!f) return NULL;
  hr_status st = hr_attr_to_i64_list(f, out, HR_MAX_RANK, n);
  if (!st) return NULL;
  hr_status e = hr_op_error(op, HR_VERIFY_ERROR, "attribute '%s', field '%s': %s", sname, field, hr_status_message(st));
  hr_status_free(st);
  return e;
}

hr_status hr_attr_to_i64(const hr_attr *a, int64_t *out) {
  if (a->kind == HR_ATTR_INT) {
    *out = a->u.i.value;
    return NULL;
  }
  if (a->kind == HR_ATTR_BOOL) {
    *out = a->u.b;
    return NULL;
  }
  int64_t buf[1] = {0};
  int n = 0;
  HR_TRY(hr_attr_to_i64_list(a, buf, 1, &n));
  if (n != 1) return hr_error(HR_VERIFY_ERROR, "expected one integer");
  *out = buf[0];
  return NULL;
}

/* ---- ops, functions, modules ---- */

hr_func *hr_module_find_func(const hr_module *m, const char *name) {
  for (int i = 0; i < m->n_funcs; i++)
    if (strcmp(m->funcs[i]->name, name) == 0) return m->funcs[i];
  return NULL;
}

const hr_attr *hr_op_attr(const hr_op *op, const char *name) {
  for (int i = 0; i < op->n_attrs; i++)
    if (strcmp(op->attrs[i].name, name) == 0) return op->attrs[i].value;
  return NULL;
}

hr_status hr_op_error(const hr_op *op, hr_code code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *file = op->loc.file ? op->loc.file : "<input>";
  if (op->loc.line == 0) /* read from bytecode: the column is the op's byte offset */
    return hr_error(code, "%s: offset %u: %s: %s", file, op->loc.col, hr_opcode_name(op->code), msg);
  if (op->debug_loc)
    return hr_error(code, "%s:%u:%u: %s (at %s): %s", file, op->loc.line, op->loc.col,
                    hr_opcode_name(op->code), op->debug_loc, msg);
  return hr_error(code, "%s:%u:%u: %s: %s", file, op->loc.line, op->loc.col, hr_opcode_name(op->code), msg);
}

hr_status hr_op_attr_i64(const hr_op *op, const char *name, int64_t *out) {
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute '%s'", name);
  hr_status s = hr_attr_to_i64(a, out);
  if (s) {
    hr_status_free(s);
    return hr_op_error(op, HR_VERIFY_ERROR, "attribute '%s' must be an integer", name);
  }
  return NULL;
}

hr_status hr_op_attr_i64_list_opt(const hr_op *op, const char *name, int64_t *out, int cap, int *n) {
  *n = 0;
  const hr_attr *a = hr_op_attr(op, name);
  if (!a) return NULL;
  hr_status s = hr_attr_to_i64_list(a, out, cap, n);
  if (s) {
    hr_status e = hr_op_error(op, HR_VERIFY_ERROR, "attribute '%s': %s", name, hr_status_message(s));
    hr_status_free(s);
    return e;
  }
  return NULL;
}

hr_status hr_op_attr_i64_list(const hr_op *op, const char *name, int64_t *out, int cap, int *n) {
  if (!hr_op_attr(op, name)) return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute '%s'", name);
  return hr_op_attr_i64_list_opt(op, name, out, cap, n);
}

const char *hr_op_attr_enum(const hr_op *op, const char *name) {
  const hr_attr *a = hr_op_attr(op, name);
  return a && a->kind == HR_ATTR_ENUM ? a->u.enm.value : NULL;
}

hr_status hr_module_new(const hr_allocator *a, const char *filename, hr_module **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  hr_arena arena;
  hr_arena_init(&arena, a);
  hr_module *m = HR_ARENA_NEW(&arena, hr_module);
  if (!m) {
    hr_arena_release(&arena);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  m->arena = arena;
  m->filename = hr_arena_strdup(&m->arena, filename ? filename : "<input>");
  if (!m->filename) {
    hr_arena local = m->arena;
    hr_arena_release(&local);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  *out = m;
  return NULL;
}

void hr_module_free(hr_module *m) {
  if (!m) return;
  hr_arena arena = m->arena; /* the module itself lives in its arena */
  void *backing = m->backing;
  size_t len = m->backing_len;
  void (*release)(void *, size_t) = m->release;
  hr_arena_release(&arena);
  if (release) release(backing, len);
}

hr_attr *hr_attr_new(hr_module *m, hr_attr_kind kind) {
  hr_attr *a = HR_ARENA_NEW(&m->arena, hr_attr);
  if (a) a->kind = kind;
  return a;
}

hr_attr *hr_attr_channel_handle(hr_module *m, hr_attr *handle, hr_attr *type) {
  hr_attr *h = hr_attr_new(m, HR_ATTR_STRUCT);
  hr_named_attr *fields = HR_ARENA_ARRAY(&m->arena, hr_named_attr, 2);
  if (!h || !fields) return NULL;
  fields[0] = (hr_named_attr){"handle", handle};
  fields[1] = (hr_named_attr){"type", type};
  h->u.strct.name = "stablehlo.channel_handle";
  h->u.strct.n = 2;
  h->u.strct.fields = fields;
  return h;
}

/* Structs whose printed form omits default fields; their fields in MLIR's canonical order. */
static const hr_struct_info known_structs[] = {
    {"stablehlo.dot",
     false,
     {{"lhs_batching_dimensions", true},
      {"rhs_batching_dimensions", true},
      {"lhs_contracting_dimensions", true},
      {"rhs_contracting_dimensions", true}}},
    {"stablehlo.gather",
     false,
     {{"offset_dims", true},
      {"collapsed_slice_dims", true},
      {"operand_batching_dims", true},
      {"start_indices_batching_dims", true},
      {"start_index_map", true},
      {"index_vector_dim", false}}},
    {"stablehlo.scatter",
     false,
     {{"update_window_dims", true},
      {"inserted_window_dims", true},
      {"input_batching_dims", true},
      {"scatter_indices_batching_dims", true},
      {"scatter_dims_to_operand_dims", true},
      {"index_vector_dim", false}}},
    {"stablehlo.conv",
     true,
     {{"input_batch_dimension", false},
      {"input_feature_dimension", false},
      {"input_spatial_dimensions", true},
      {"kernel_input_feature_dimension", false},
      {"kernel_output_feature_dimension", false},
      {"kernel_spatial_dimensions", true},
      {"output_batch_dimension", false},
      {"output_feature_dimension", false},
      {"output_spatial_dimensions", true}}},
};

const hr_struct_info *hr_struct_info_find(const char *name) {
  for (size_t i = 0; i < sizeof known_structs / sizeof *known_structs; i++)
    if (strcmp(known_structs[i].name, name) == 0) return &known_structs[i];
  return NULL;
}

void hr_block_replace_uses(hr_block *b, const hr_value *from, hr_value *to) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int k = 0; k < op->n_operands; k++)
      if (op->operands[k] == from) op->operands[k] = to;
    for (int r = 0; r < op->n_regions; r++) hr_block_replace_uses(&op->regions[r], from, to);
  }
}

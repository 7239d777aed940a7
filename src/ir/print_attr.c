/*
 * Attributes and types in MLIR syntax, spelled as MLIR's AsmPrinter spells them:
 * `3 : i32`, `array<i64: 1, 2>`, `dense<[[1, 2]]> : tensor<1x2xi32>`, `dense<"0x0A0B..."> : ...`
 * for more than 100 elements, `#stablehlo<comparison_direction LT>`, `#stablehlo.dot<...>`.
 * Every attribute is printed as stored, so that reading the text back yields an equal attribute.
 */
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "base/numeric.h"
#include "ir/print_internal.h"

/* Tuple types and attributes nest at most HR_LIMIT_NESTING_DEPTH deep (what the parser accepts). */
enum {
  HEX_THRESHOLD = 100, /* MLIR prints dense data with more elements than this in hex */
};

/* ---- types ---- */

/* Checks a type and the types nested in it, `depth` levels deep already. */
static hr_status check_type_at(const hr_printer *p, const hr_type *t, int depth) {
  if (depth > HR_LIMIT_NESTING_DEPTH) return hr_print_error(p, "type nesting exceeds %d", HR_LIMIT_NESTING_DEPTH);
  switch (t->kind) {
    case HR_TYPE_TOKEN:
    case HR_TYPE_NONE: return NULL;
    case HR_TYPE_ELEMENT:
      if (t->dtype <= HR_DTYPE_INVALID || t->dtype >= HR_DTYPE_COUNT) return hr_print_error(p, "an invalid element type");
      return NULL;
    case HR_TYPE_TUPLE:
    case HR_TYPE_FUTURE:
      if (t->n_elems < 0 || (t->n_elems > 0 && !t->elems))
        return hr_print_error(p, "malformed tuple type");
      for (int i = 0; i < t->n_elems; i++) HR_TRY(check_type_at(p, &t->elems[i], depth + 1));
      return NULL;
    case HR_TYPE_TENSOR:
    case HR_TYPE_BUFFER:
      if (t->dtype <= HR_DTYPE_INVALID || t->dtype >= HR_DTYPE_COUNT)
        return hr_print_error(p, "tensor type with an invalid element type");
      if (t->shape.rank < 0 || t->shape.rank > HR_MAX_RANK)
        return hr_print_error(p, "tensor type of rank %d", t->shape.rank);
      for (int i = 0; i < t->shape.rank; i++)
        if (t->shape.dims[i] < 0 && t->shape.dims[i] != HR_DYNAMIC)
          return hr_print_error(p, "tensor type with dimension %lld", (long long)t->shape.dims[i]);
      if (t->quant && (t->quant->n < 1 || !t->quant->scales || !t->quant->zero_points))
        return hr_print_error(p, "malformed quantized type");
      return NULL;
  }
  return hr_print_error(p, "type of unknown kind %d", (int)t->kind);
}

hr_status hr_print_type(hr_printer *p, const hr_type *t) {
  HR_TRY(check_type_at(p, t, 0));
  hr_type_print(p->out, t);
  return NULL;
}

/* ---- identifiers and strings ---- */

/* ASCII letters (independent of the C library's locale). */
static bool is_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* MLIR's bare identifiers: [a-zA-Z_][a-zA-Z0-9_$.]* */
static bool is_bare_identifier(const char *s, size_t len) {
  if (len == 0 || !(is_letter((unsigned char)s[0]) || s[0] == '_')) return false;
  for (size_t i = 1; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!(is_letter(c) || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.')) return false;
  }
  return true;
}

void hr_print_escaped_string(hr_printer *p, const char *s, size_t len) {
  static const char hex[] = "0123456789ABCDEF";
  hr_strbuf_putc(p->out, '"');
  size_t run = 0; /* bytes copied verbatim in one append */
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    bool plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
    if (plain) {
      run++;
      continue;
    }
    hr_strbuf_append(p->out, s + i - run, run);
    run = 0;
    char esc[3] = {'\\', c == '\\' ? '\\' : hex[c >> 4], hex[c & 15]};
    hr_strbuf_append(p->out, esc, c == '\\' ? 2 : 3);
  }
  hr_strbuf_append(p->out, s + len - run, run);
  hr_strbuf_putc(p->out, '"');
}

void hr_print_keyword_or_string(hr_printer *p, const char *s, size_t len) {
  if (is_bare_identifier(s, len))
    hr_strbuf_append(p->out, s, len);
  else
    hr_print_escaped_string(p, s, len);
}

void hr_print_symbol(hr_printer *p, const char *s, size_t len) {
  hr_strbuf_putc(p->out, '@');
  hr_print_keyword_or_string(p, s, len);
}

/* ---- scalars ---- */

/* The dtype's MLIR spelling, or an error for an invalid one. */
static hr_status dtype_name(const hr_printer *p, hr_dtype t, const char **out) {
  if (t <= HR_DTYPE_INVALID || t >= HR_DTYPE_COUNT)
    return hr_print_error(p, "attribute with an invalid element type");
  *out = hr_dtype_name(t);
  return NULL;
}

/* Appends an integer of type t, stored as int64 (unsigned values as their bits). */
static void put_int(hr_printer *p, hr_dtype t, int64_t v) {
  if (hr_dtype_is_unsigned_int(t)) {
    int bits = hr_dtype_bits(t);
    uint64_t u = (uint64_t)v;
    if (bits < 64) u &= (UINT64_C(1) << bits) - 1;
    hr_strbuf_printf(p->out, "%llu", (unsigned long long)u);
  } else {
    hr_strbuf_printf(p->out, "%lld", (long long)v);
  }
}

/* Appends one element of a dense attribute: `true`, `-3`, `1.500000e+00`, `(1.0,2.0)`. */
static void put_dense_element(hr_printer *p, hr_dtype t, const unsigned char *e) {
  if (t == HR_I1) {
    hr_strbuf_puts(p->out, *e ? "true" : "false");
  } else if (t == HR_C64 || t == HR_C128) {
    hr_dtype part = t == HR_C64 ? HR_F32 : HR_F64;
    size_t half = hr_dtype_size(t) / 2;
    hr_strbuf_putc(p->out, '(');
    hr_print_float_bits(p->out, part, hr_float_load_pattern(part, e));
    hr_strbuf_putc(p->out, ',');
    hr_print_float_bits(p->out, part, hr_float_load_pattern(part, e + half));
    hr_strbuf_putc(p->out, ')');
  } else if (hr_dtype_is_real_float(t)) {
    hr_print_float_bits(p->out, t, hr_float_load_pattern(t, e));
  } else {
    int64_t v = 0;
    hr_read_int_element(t, e, &v); /* every remaining type is an integer type */
    put_int(p, t, v);
  }
}

/* ---- dense elements ---- */

/* Whether every element of a non-splat DENSE equals the first one (MLIR then prints a splat). */
static bool all_elements_equal(const unsigned char *data, int64_t n, size_t es) {
  for (int64_t i = 1; i < n; i++)
    if (memcmp(data, data + (size_t)i * es, es) != 0) return false;
  return true;
}

/* Appends the raw data as MLIR's hex string; sub-byte integers keep only their low bits, as in
 * MLIR's storage. */
static void put_hex_data(hr_printer *p, hr_dtype t, const unsigned char *data, size_t nbytes) {
  static const char hex[] = "0123456789ABCDEF";
  int bits = hr_dtype_bits(t);
  unsigned mask = (t == HR_I2 || t == HR_U2 || t == HR_I4 || t == HR_U4) ? (1u << bits) - 1 : 0xffu;
  hr_strbuf_puts(p->out, "\"0x");
  char chunk[512];
  size_t used = 0;
  for (size_t i = 0; i < nbytes; i++) {
    unsigned b = data[i] & mask;
    chunk[used++] = hex[b >> 4];
    chunk[used++] = hex[b & 15];
    if (used == sizeof chunk) {
      hr_strbuf_append(p->out, chunk, used);
      used = 0;
    }
  }
  hr_strbuf_append(p->out, chunk, used);
  hr_strbuf_putc(p->out, '"');
}

/* Appends n elements as nested lists following the shape: [[1, 2], [3, 4]]. */
static void put_nested_elements(hr_printer *p, const hr_shape *shape, hr_dtype t,
                                const unsigned char *data, int64_t n, size_t es) {
  int64_t counter[HR_MAX_RANK] = {0};
  int rank = shape->rank, open = 0;
  for (int64_t idx = 0; idx < n; idx++) {
    if (idx) hr_strbuf_puts(p->out, ", ");
    for (; open < rank; open++) hr_strbuf_putc(p->out, '[');
    put_dense_element(p, t, data + (size_t)idx * es);
    /* Bump the mixed-radix counter, closing a bracket for every dimension that rolls over. */
    counter[rank - 1]++;
    for (int i = rank - 1; i > 0 && counter[i] >= shape->dims[i]; i--) {
      counter[i] = 0;
      counter[i - 1]++;
      open--;
      hr_strbuf_putc(p->out, ']');
    }
  }
  for (; open > 0; open--) hr_strbuf_putc(p->out, ']');
}

/* Appends `dense<...> : tensor<...>`. */
static hr_status print_dense(hr_printer *p, const hr_attr *a) {
  const hr_type *type = &a->u.dense.type;
  HR_TRY(check_type_at(p, type, 0));
  if (type->kind != HR_TYPE_TENSOR || !hr_type_is_static(type))
    return hr_print_error(p, "dense attribute of a non-static type");
  int64_t n;
  hr_status s = hr_shape_num_elements(&type->shape, &n);
  size_t es = hr_dtype_size(type->dtype);
  if (s || (uint64_t)n > SIZE_MAX / es) {
    hr_status_free(s);
    return hr_print_error(p, "dense attribute with too many elements");
  }
  size_t expect = a->u.dense.splat ? es : (size_t)n * es;
  if ((n > 0 && !a->u.dense.data) || a->u.dense.nbytes != expect)
    return hr_print_error(p, "dense attribute holds %zu bytes for %lld elements of %s",
                          a->u.dense.nbytes, (long long)n, hr_dtype_name(type->dtype));
  const unsigned char *data = a->u.dense.data;
  hr_strbuf_puts(p->out, "dense<");
  if (n > 0) {
    if (a->u.dense.splat || all_elements_equal(data, n, es))
      put_dense_element(p, type->dtype, data);
    else if (n > HEX_THRESHOLD && type->dtype != HR_I1)
      put_hex_data(p, type->dtype, data, expect);
    else
      put_nested_elements(p, &type->shape, type->dtype, data, n, es);
  }
  hr_strbuf_puts(p->out, "> : ");
  hr_type_print(p->out, type);
  return NULL;
}

hr_status hr_print_dense_array_elems(hr_printer *p, const hr_attr *a) {
  hr_dtype t = a->u.dense_array.dtype;
  const char *name = NULL;
  HR_TRY(dtype_name(p, t, &name));
  int64_t n = a->u.dense_array.n;
  if (n < 0) return hr_print_error(p, "dense array of %lld elements", (long long)n);
  bool is_float = hr_dtype_is_real_float(t);
  if (hr_dtype_is_complex(t) ||
      (n > 0 && !(is_float ? (void *)a->u.dense_array.floats : (void *)a->u.dense_array.ints)))
    return hr_print_error(p, "malformed array<%s> attribute", name);
  for (int64_t i = 0; i < n; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    if (is_float)
      hr_print_float_bits(p->out, t, hr_float_to_pattern(t, a->u.dense_array.floats[i]));
    else if (t == HR_I1)
      hr_strbuf_puts(p->out, a->u.dense_array.ints[i] ? "true" : "false");
    else
      put_int(p, t, a->u.dense_array.ints[i]);
  }
  return NULL;
}

/* Appends `array<T: a, b>` (`array<T>` when empty). */
static hr_status print_dense_array(hr_printer *p, const hr_attr *a) {
  const char *name = NULL;
  HR_TRY(dtype_name(p, a->u.dense_array.dtype, &name));
  hr_strbuf_printf(p->out, "array<%s", name);
  if (a->u.dense_array.n > 0) {
    hr_strbuf_puts(p->out, ": ");
    HR_TRY(hr_print_dense_array_elems(p, a));
  }
  hr_strbuf_putc(p->out, '>');
  return NULL;
}

/* ---- composite attributes ---- */

static hr_status print_attr_at(hr_printer *p, const hr_attr *a, int depth);

/* Appends `name = value` pairs separated by ", " (units print as the bare name). */
static hr_status print_named_list(hr_printer *p, const hr_named_attr *e, int n, int depth) {
  if (n < 0 || (n > 0 && !e)) return hr_print_error(p, "malformed attribute list");
  for (int i = 0; i < n; i++) {
    if (!e[i].name || !e[i].value) return hr_print_error(p, "attribute without a name or value");
    if (i) hr_strbuf_puts(p->out, ", ");
    hr_print_keyword_or_string(p, e[i].name, strlen(e[i].name));
    if (e[i].value->kind == HR_ATTR_UNIT) continue;
    hr_strbuf_puts(p->out, " = ");
    HR_TRY(print_attr_at(p, e[i].value, depth + 1));
  }
  return NULL;
}

/* The convolution dimension numbers read from a #stablehlo.conv struct. */
typedef struct conv_dims {
  int64_t batch[3], feature[3]; /* input, kernel (input feature, output feature), output */
  int64_t spatial[3][HR_MAX_RANK];
  int n_spatial[3];
} conv_dims;

/* Reads an untyped integer field. */
static bool int_field(const hr_named_attr *f, const char *name, int64_t *out) {
  if (strcmp(f->name, name) != 0 || f->value->kind != HR_ATTR_INT ||
      f->value->u.i.dtype != HR_DTYPE_INVALID || f->value->u.i.is_index)
    return false;
  *out = f->value->u.i.value;
  return true;
}

/* Reads a field holding an array of untyped integers. */
static bool list_field(const hr_named_attr *f, const char *name, int64_t *out, int *n) {
  if (strcmp(f->name, name) != 0 || f->value->kind != HR_ATTR_ARRAY ||
      f->value->u.array.n > HR_MAX_RANK - 2 || f->value->u.array.n < 0)
    return false;
  *n = f->value->u.array.n;
  for (int i = 0; i < *n; i++) {
    const hr_attr *it = f->value->u.array.items[i];
    if (!it || it->kind != HR_ATTR_INT || it->u.i.dtype != HR_DTYPE_INVALID || it->u.i.is_index)
      return false;
    out[i] = it->u.i.value;
  }
  return true;
}

/* Whether one operand's layout (two non-spatial dims and the spatial list) is a permutation of
 * 0..rank-1, which is what the compact [b, 0, 1, f] syntax can express. */
static bool layout_is_permutation(int64_t a, int64_t b, const int64_t *spatial, int ns) {
  int rank = ns + 2;
  bool seen[HR_MAX_RANK] = {false};
  int64_t all[HR_MAX_RANK];
  all[0] = a;
  all[1] = b;
  for (int i = 0; i < ns; i++) all[i + 2] = spatial[i];
  for (int i = 0; i < rank; i++) {
    if (all[i] < 0 || all[i] >= rank || seen[all[i]]) return false;
    seen[all[i]] = true;
  }
  return true;
}

/* Reads a #stablehlo.conv struct whose nine fields are in canonical order and form valid layouts;
 * false when it cannot be printed in the compact form. */
static bool read_conv_dims(const hr_attr *a, conv_dims *d) {
  static const char *const names[9] = {
      "input_batch_dimension",           "input_feature_dimension",
      "input_spatial_dimensions",        "kernel_input_feature_dimension",
      "kernel_output_feature_dimension", "kernel_spatial_dimensions",
      "output_batch_dimension",          "output_feature_dimension",
      "output_spatial_dimensions"};
  if (a->kind != HR_ATTR_STRUCT || strcmp(a->u.strct.name, "stablehlo.conv") != 0 ||
      a->u.strct.n != 9)
    return false;
  const hr_named_attr *f = a->u.strct.fields;
  for (int i = 0; i < 9; i++)
    if (!f[i].name || !f[i].value) return false;
  for (int k = 0; k < 3; k++) {
    if (!int_field(&f[3 * k], names[3 * k], &d->batch[k]) ||
        !int_field(&f[3 * k + 1], names[3 * k + 1], &d->feature[k]) ||
        !list_field(&f[3 * k + 2], names[3 * k + 2], d->spatial[k], &d->n_spatial[k]) ||
        !layout_is_permutation(d->batch[k], d->feature[k], d->spatial[k], d->n_spatial[k]))
      return false;
  }
  return true;
}

/* Appends one layout: [b, 0, 1, f] (letters for the non-spatial dims, indices for spatial ones). */
static void put_conv_layout(hr_printer *p, int64_t a, char ca, int64_t b, char cb,
                            const int64_t *spatial, int ns) {
  char label[HR_MAX_RANK][24];
  int rank = ns + 2;
  snprintf(label[a], sizeof label[a], "%c", ca);
  snprintf(label[b], sizeof label[b], "%c", cb);
  for (int i = 0; i < ns; i++) snprintf(label[spatial[i]], sizeof label[0], "%d", i);
  hr_strbuf_putc(p->out, '[');
  for (int i = 0; i < rank; i++) {
    if (i) hr_strbuf_puts(p->out, ", ");
    hr_strbuf_puts(p->out, label[i]);
  }
  hr_strbuf_putc(p->out, ']');
}

bool hr_print_conv_dims_fit(const hr_attr *a) {
  conv_dims d;
  return read_conv_dims(a, &d);
}

bool hr_print_conv_dims(hr_printer *p, const hr_attr *a) {
  conv_dims d;
  if (!read_conv_dims(a, &d)) return false;
  put_conv_layout(p, d.batch[0], 'b', d.feature[0], 'f', d.spatial[0], d.n_spatial[0]);
  hr_strbuf_putc(p->out, 'x');
  put_conv_layout(p, d.batch[1], 'i', d.feature[1], 'o', d.spatial[1], d.n_spatial[1]);
  hr_strbuf_puts(p->out, "->");
  put_conv_layout(p, d.batch[2], 'b', d.feature[2], 'f', d.spatial[2], d.n_spatial[2]);
  return true;
}

/* Appends `#name<fields>`; convolution dimension numbers use their compact `[b, 0, f]x...` form
 * when they can, and MLIR's `raw` struct form otherwise. */
static hr_status print_struct(hr_printer *p, const hr_attr *a, int depth) {
  if (!a->u.strct.name) return hr_print_error(p, "struct attribute without a name");
  const hr_attr *pre = hr_attr_field(a, "pre_size"), *size = hr_attr_field(a, "size");
  if (strcmp(a->u.strct.name, "stablehlo.sub_axis_info") == 0 && pre && size && pre->kind == HR_ATTR_INT &&
      size->kind == HR_ATTR_INT) { /* an axis_ref's `(pre_size)size` */
    hr_strbuf_printf(p->out, "(%lld)%lld", (long long)pre->u.i.value, (long long)size->u.i.value);
    return NULL;
  }
  hr_strbuf_printf(p->out, "#%s<", a->u.strct.name);
  if (strcmp(a->u.strct.name, "stablehlo.conv") == 0) {
    if (hr_print_conv_dims(p, a)) {
      hr_strbuf_putc(p->out, '>');
      return NULL;
    }
    hr_strbuf_puts(p->out, "raw ");
  }
  HR_TRY(print_named_list(p, a->u.strct.fields, a->u.strct.n, depth));
  hr_strbuf_putc(p->out, '>');
  return NULL;
}

/* Appends one attribute, `depth` levels deep. */
static hr_status print_attr_at(hr_printer *p, const hr_attr *a, int depth) {
  if (!a) return hr_print_error(p, "missing attribute value");
  if (depth > HR_LIMIT_NESTING_DEPTH)
    return hr_print_error(p, "attribute nesting exceeds %d", HR_LIMIT_NESTING_DEPTH);
  const char *tname = NULL;
  switch (a->kind) {
    case HR_ATTR_UNIT: hr_strbuf_puts(p->out, "unit"); return NULL;
    case HR_ATTR_BOOL: hr_strbuf_puts(p->out, a->u.b ? "true" : "false"); return NULL;
    case HR_ATTR_INT:
      if (a->u.i.is_index) {
        hr_strbuf_printf(p->out, "%lld : index", (long long)a->u.i.value);
        return NULL;
      }
      if (a->u.i.dtype == HR_DTYPE_INVALID) {
        hr_strbuf_printf(p->out, "%lld", (long long)a->u.i.value);
        return NULL;
      }
      HR_TRY(dtype_name(p, a->u.i.dtype, &tname));
      if (hr_dtype_is_real_float(a->u.i.dtype) || hr_dtype_is_complex(a->u.i.dtype))
        return hr_print_error(p, "integer attribute of type %s", tname);
      put_int(p, a->u.i.dtype, a->u.i.value);
      hr_strbuf_printf(p->out, " : %s", tname);
      return NULL;
    case HR_ATTR_FLOAT:
      if (a->u.f.dtype == HR_DTYPE_INVALID) {
        hr_print_float_bits(p->out, HR_F64, hr_float_to_pattern(HR_F64, a->u.f.value));
        return NULL;
      }
      HR_TRY(dtype_name(p, a->u.f.dtype, &tname));
      if (!hr_dtype_is_real_float(a->u.f.dtype))
        return hr_print_error(p, "float attribute of type %s", tname);
      hr_print_float_bits(p->out, a->u.f.dtype, hr_float_to_pattern(a->u.f.dtype, a->u.f.value));
      hr_strbuf_printf(p->out, " : %s", tname);
      return NULL;
    case HR_ATTR_STRING:
    case HR_ATTR_SYMBOL:
      if (!a->u.str.data && a->u.str.len) return hr_print_error(p, "string attribute without data");
      if (a->kind == HR_ATTR_SYMBOL)
        hr_print_symbol(p, a->u.str.data ? a->u.str.data : "", a->u.str.len);
      else
        hr_print_escaped_string(p, a->u.str.data ? a->u.str.data : "", a->u.str.len);
      return NULL;
    case HR_ATTR_TYPE: return hr_print_type(p, &a->u.type);
    case HR_ATTR_ARRAY:
      if (a->u.array.n < 0 || (a->u.array.n > 0 && !a->u.array.items))
        return hr_print_error(p, "malformed array attribute");
      hr_strbuf_putc(p->out, '[');
      for (int i = 0; i < a->u.array.n; i++) {
        if (i) hr_strbuf_puts(p->out, ", ");
        HR_TRY(print_attr_at(p, a->u.array.items[i], depth + 1));
      }
      hr_strbuf_putc(p->out, ']');
      return NULL;
    case HR_ATTR_DENSE_ARRAY: return print_dense_array(p, a);
    case HR_ATTR_DENSE: return print_dense(p, a);
    case HR_ATTR_DICT:
      hr_strbuf_putc(p->out, '{');
      HR_TRY(print_named_list(p, a->u.dict.entries, a->u.dict.n, depth));
      hr_strbuf_putc(p->out, '}');
      return NULL;
    case HR_ATTR_ENUM:
      if (!a->u.enm.dialect || !a->u.enm.name || !a->u.enm.value)
        return hr_print_error(p, "malformed enum attribute");
      hr_strbuf_printf(p->out, "#%s<%s %s>", a->u.enm.dialect, a->u.enm.name, a->u.enm.value);
      return NULL;
    case HR_ATTR_STRUCT: return print_struct(p, a, depth);
    case HR_ATTR_OPAQUE:
      if (!a->u.str.data) return hr_print_error(p, "opaque attribute without text");
      hr_strbuf_putc(p->out, '#');
      hr_strbuf_append(p->out, a->u.str.data, a->u.str.len);
      return NULL;
  }
  return hr_print_error(p, "attribute of unknown kind %d", (int)a->kind);
}

hr_status hr_print_attr(hr_printer *p, const hr_attr *a) { return print_attr_at(p, a, 0); }

hr_status hr_print_named_attrs(hr_printer *p, const hr_named_attr *attrs, int n) {
  return print_named_list(p, attrs, n, 0);
}

hr_status hr_print_attr_dict(hr_printer *p, const hr_named_attr *attrs, int n) {
  if (n == 0) return NULL;
  hr_strbuf_puts(p->out, " {");
  HR_TRY(print_named_list(p, attrs, n, 0));
  hr_strbuf_putc(p->out, '}');
  return NULL;
}

bool hr_opaque_body(const hr_attr *a, const char *prefix, const char *suffix, const char **body, size_t *len) {
  if (!a || a->kind != HR_ATTR_OPAQUE || !a->u.str.data) return false;
  size_t np = strlen(prefix), ns = strlen(suffix), n = a->u.str.len;
  if (n < np + ns + 1 || memcmp(a->u.str.data, prefix, np) != 0 || memcmp(a->u.str.data + n - ns, suffix, ns) != 0)
    return false;
  *body = a->u.str.data + np;
  *len = n - np - ns;
  return true;
}

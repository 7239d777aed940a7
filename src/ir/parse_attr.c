/* Parsing of attributes: scalars, strings, symbols, types, arrays, dictionaries, dialect enums and
 * structs (#stablehlo.dot<...> and friends, canonicalised so that every spelling of the same value
 * compares equal with hr_attr_equal). Dense elements and dense arrays are in parse_dense.c. */
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "base/numeric.h"
#include "ir/parse_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* Small constructors                                                                              */
/* ---------------------------------------------------------------------------------------------- */

hr_attr *hr_p_int_attr(hr_parser *p, int64_t v, hr_dtype dtype) {
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_INT);
  if (a) {
    a->u.i.value = v;
    a->u.i.dtype = dtype;
  }
  return a;
}

/* A DENSE_ARRAY of integers of the given element type. */
static hr_attr *int_array_attr(hr_parser *p, hr_dtype dtype, const int64_t *v, size_t n) {
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_DENSE_ARRAY);
  if (!a) return NULL;
  a->u.dense_array.dtype = dtype;
  a->u.dense_array.n = (int64_t)n;
  a->u.dense_array.ints = HR_ARENA_ARRAY(&p->m->arena, int64_t, n ? n : 1);
  if (!a->u.dense_array.ints) return NULL;
  if (n) memcpy(a->u.dense_array.ints, v, n * sizeof *v);
  return a;
}

hr_attr *hr_p_i64_array_attr(hr_parser *p, const int64_t *v, size_t n) {
  return int_array_attr(p, HR_I64, v, n);
}

hr_attr *hr_p_bool_array_attr(hr_parser *p, const int64_t *v, size_t n) {
  return int_array_attr(p, HR_I1, v, n);
}

hr_attr *hr_p_untyped_int_list_attr(hr_parser *p, const int64_t *v, size_t n) {
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_ARRAY);
  if (!a || n > INT32_MAX) return NULL;
  a->u.array.n = (int)n;
  a->u.array.items = HR_ARENA_ARRAY(&p->m->arena, hr_attr *, n ? n : 1);
  if (!a->u.array.items) return NULL;
  for (size_t i = 0; i < n; i++) {
    a->u.array.items[i] = hr_p_int_attr(p, v[i], HR_DTYPE_INVALID);
    if (!a->u.array.items[i]) return NULL;
  }
  return a;
}

hr_attr *hr_p_string_attr(hr_parser *p, const char *s, size_t len, hr_attr_kind kind) {
  hr_attr *a = hr_attr_new(p->m, kind);
  if (a) {
    a->u.str.data = s;
    a->u.str.len = len;
  }
  return a;
}

hr_status hr_p_make_struct(hr_parser *p, const char *name, const hr_named_attr *fields, int n,
                           hr_attr **out) {
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_STRUCT);
  if (!a) return hr_p_oom(p);
  a->u.strct.name = name;
  a->u.strct.n = n;
  if (n) {
    a->u.strct.fields = HR_ARENA_ARRAY(&p->m->arena, hr_named_attr, (size_t)n);
    if (!a->u.strct.fields) return hr_p_oom(p);
    memcpy(a->u.strct.fields, fields, (size_t)n * sizeof *fields);
  }
  *out = a;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Strings and integers                                                                            */
/* ---------------------------------------------------------------------------------------------- */


hr_status hr_p_decode_string(hr_parser *p, const hr_token *t, const char **data, size_t *len) {
  /* The lexer validated the escapes; the token includes both quotes. */
  const char *s = t->text + 1;
  size_t n = t->len - 2;
  char *d = hr_arena_alloc(&p->m->arena, n + 1, 1);
  if (!d) return hr_p_oom(p);
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\') {
      d[o++] = s[i];
      continue;
    }
    char e = s[++i];
    if (e == 'n') {
      d[o++] = '\n';
    } else if (e == 't') {
      d[o++] = '\t';
    } else if (e == '"' || e == '\\') {
      d[o++] = e;
    } else {
      d[o++] = (char)(hr_p_hex_value(e) * 16 + hr_p_hex_value(s[i + 1]));
      i++;
    }
  }
  d[o] = '\0';
  *data = d;
  *len = o;
  return NULL;
}

hr_status hr_p_parse_int(hr_parser *p, int64_t *out) {
  hr_token at = p->tok;
  bool neg = hr_p_accept(p, HR_TOK_MINUS);
  if (p->tok.kind != HR_TOK_INTEGER) return hr_p_unexpected(p, "an integer");
  uint64_t mag;
  HR_TRY(hr_p_int_token(p, &p->tok, &mag));
  HR_TRY(hr_p_int_fits(p, &at, HR_DTYPE_INVALID, neg, mag, out));
  hr_p_next(p);
  return NULL;
}

hr_status hr_p_parse_int_list(hr_parser *p, hr_pvec *out) {
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  if (hr_p_accept(p, HR_TOK_RSQUARE)) return NULL;
  for (;;) {
    int64_t v;
    HR_TRY(hr_p_parse_int(p, &v));
    HR_TRY(hr_pvec_push(p, out, &v, sizeof v));
    if (hr_p_accept(p, HR_TOK_RSQUARE)) return NULL;
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Named attribute lists                                                                           */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_p_add_attr(hr_parser *p, hr_pvec *entries, const char *name, hr_attr *value,
                        const hr_token *at) {
  (void)at;
  if (!name || !value) return hr_p_oom(p);
  hr_named_attr e = {name, value};
  return hr_pvec_push(p, entries, &e, sizeof e);
}

/* qsort order of attribute names. */
static int compare_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

hr_status hr_p_check_unique(hr_parser *p, const hr_pvec *entries, const hr_token *at) {
  const hr_named_attr *e = entries->data;
  size_t n = entries->len;
  if (n < 2) return NULL;
  const char *dup = NULL;
  if (n <= 16) {
    for (size_t i = 0; i < n && !dup; i++)
      for (size_t j = i + 1; j < n && !dup; j++)
        if (strcmp(e[i].name, e[j].name) == 0) dup = e[i].name;
  } else {
    const char **names = HR_ARENA_ARRAY(&p->scratch, const char *, n);
    if (!names) return hr_p_oom(p);
    for (size_t i = 0; i < n; i++) names[i] = e[i].name;
    qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 1; i < n && !dup; i++)
      if (strcmp(names[i - 1], names[i]) == 0) dup = names[i];
  }
  if (dup) return hr_p_error(p, at, HR_PARSE_ERROR, "duplicate attribute name '%s'", dup);
  return NULL;
}

static int compare_entry_names(const void *a, const void *b) {
  return strcmp(((const hr_named_attr *)a)->name, ((const hr_named_attr *)b)->name);
}

hr_status hr_p_make_dict(hr_parser *p, const hr_pvec *entries, hr_attr **out) {
  if (entries->len > INT32_MAX)
    return hr_p_error(p, &p->tok, HR_RESOURCE_EXHAUSTED, "too many attributes");
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_DICT);
  if (!a) return hr_p_oom(p);
  void *data;
  HR_TRY(hr_pvec_export(p, entries, sizeof(hr_named_attr), _Alignof(hr_named_attr), &data));
  a->u.dict.n = (int)entries->len;
  a->u.dict.entries = data;
  /* MLIR keeps a dictionary's entries sorted by name, however they were written. */
  if (entries->len > 1) qsort(a->u.dict.entries, entries->len, sizeof(hr_named_attr), compare_entry_names);
  *out = a;
  return NULL;
}

/* Reads a dictionary key: a bare identifier or a string. */
static hr_status parse_key(hr_parser *p, const char **out) {
  if (p->tok.kind == HR_TOK_BARE_ID) {
    *out = hr_p_strdup(p, p->tok.text, p->tok.len);
    if (!*out) return hr_p_oom(p);
  } else if (p->tok.kind == HR_TOK_STRING) {
    size_t len;
    HR_TRY(hr_p_decode_string(p, &p->tok, out, &len));
    if (strlen(*out) != len)
      return hr_p_error(p, &p->tok, HR_PARSE_ERROR, "attribute name contains a NUL byte");
  } else {
    return hr_p_unexpected(p, "an attribute name");
  }
  hr_p_next(p);
  return NULL;
}

hr_status hr_p_parse_attr_dict(hr_parser *p, hr_pvec *entries) {
  hr_token open = p->tok;
  HR_TRY(hr_p_expect(p, HR_TOK_LBRACE, "'{'"));
  HR_TRY(hr_p_enter(p, &open));
  size_t first = entries->len;
  if (!hr_p_accept(p, HR_TOK_RBRACE)) {
    for (;;) {
      hr_token key_tok = p->tok;
      const char *key;
      HR_TRY(parse_key(p, &key));
      hr_attr *value;
      if (hr_p_accept(p, HR_TOK_EQUAL)) {
        HR_TRY(hr_p_parse_attr(p, &value));
      } else {
        value = hr_attr_new(p->m, HR_ATTR_UNIT);
      }
      HR_TRY(hr_p_add_attr(p, entries, key, value, &key_tok));
      if (hr_p_accept(p, HR_TOK_RBRACE)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or '}'"));
    }
  }
  hr_p_leave(p);
  if (entries->len - first < 2) return NULL;
  hr_pvec added = {(char *)entries->data + first * sizeof(hr_named_attr), entries->len - first, 0, NULL};
  return hr_p_check_unique(p, &added, &open);
}

/* ---------------------------------------------------------------------------------------------- */
/* Numbers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Parses the type after `literal :` for a scalar attribute. */
static hr_status parse_scalar_attr_type(hr_parser *p, hr_dtype *dtype, bool *is_index) {
  *is_index = false;
  if (hr_p_accept_kw(p, "index")) {
    *dtype = HR_I64;
    *is_index = true;
    return NULL;
  }
  hr_token at = p->tok;
  HR_TRY(hr_p_parse_elem_type(p, dtype));
  if (hr_dtype_is_complex(*dtype))
    return hr_p_error(p, &at, HR_UNIMPLEMENTED, "complex scalar attributes are not supported");
  return NULL;
}

/* Parses `[-]integer-or-float [: type]` into an INT or FLOAT attribute. */
static hr_status parse_number_attr(hr_parser *p, hr_attr **out) {
  hr_token at = p->tok;
  bool neg = hr_p_accept(p, HR_TOK_MINUS);
  hr_token lit = p->tok;
  if (lit.kind != HR_TOK_INTEGER && lit.kind != HR_TOK_FLOAT) return hr_p_unexpected(p, "a number");
  hr_p_next(p);
  hr_dtype dtype = HR_DTYPE_INVALID;
  bool is_index = false;
  if (hr_p_accept(p, HR_TOK_COLON)) HR_TRY(parse_scalar_attr_type(p, &dtype, &is_index));

  if (lit.kind == HR_TOK_INTEGER && !hr_dtype_is_real_float(dtype)) {
    uint64_t mag;
    HR_TRY(hr_p_int_token(p, &lit, &mag));
    int64_t v;
    HR_TRY(hr_p_int_fits(p, &at, dtype, neg, mag, &v));
    *out = hr_p_int_attr(p, v, dtype);
    if (!*out) return hr_p_oom(p);
    (*out)->u.i.is_index = is_index;
    return NULL;
  }
  if (dtype != HR_DTYPE_INVALID && !hr_dtype_is_real_float(dtype))
    return hr_p_error(p, &lit, HR_PARSE_ERROR, "floating-point literal for integer type %s",
                      hr_dtype_name(dtype));
  double v;
  if (lit.kind == HR_TOK_INTEGER && lit.len > 2 && lit.text[1] == 'x') {
    if (neg)
      return hr_p_error(p, &at, HR_PARSE_ERROR, "hexadecimal float literal cannot be negative");
    uint64_t bits;
    HR_TRY(hr_p_int_token(p, &lit, &bits));
    HR_TRY(hr_p_float_bits(p, &lit, dtype, bits, &v));
  } else {
    HR_TRY(hr_p_float_token(p, &lit, dtype, neg, &v));
  }
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_FLOAT);
  if (!a) return hr_p_oom(p);
  a->u.f.value = v;
  a->u.f.dtype = dtype;
  *out = a;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Enums                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

typedef struct enum_info {
  const char *name;
  const char *values[6];
} enum_info;

static const enum_info known_enums[] = {
    {"comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}},
    {"comparison_type", {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
    {"precision", {"DEFAULT", "HIGH", "HIGHEST"}},
    {"fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
    {"transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
    {"rng_distribution", {"UNIFORM", "NORMAL"}},
    {"rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}},
    {"result_accuracy_mode", {"DEFAULT", "HIGHEST", "TOLERANCE"}},
};

hr_status hr_p_enum_attr(hr_parser *p, const hr_token *at, const char *dialect, const char *name,
                         const hr_token *value, hr_attr **out) {
  if (value->kind != HR_TOK_BARE_ID)
    return hr_p_error(p, value, HR_PARSE_ERROR, "expected an enum value for %s", name);
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_ENUM);
  if (!a) return hr_p_oom(p);
  a->u.enm.dialect = dialect;
  a->u.enm.name = name;
  for (size_t i = 0; i < sizeof known_enums / sizeof *known_enums; i++) {
    if (strcmp(known_enums[i].name, name) != 0) continue;
    for (size_t j = 0; j < 6 && known_enums[i].values[j]; j++) {
      if (hr_tok_is(value, known_enums[i].values[j])) {
        a->u.enm.value = known_enums[i].values[j];
        *out = a;
        return NULL;
      }
    }
    return hr_p_error(p, at, HR_PARSE_ERROR, "invalid %s value '%.*s'", name,
                      (int)(value->len > 40 ? 40 : value->len), value->text);
  }
  a->u.enm.value = hr_p_strdup(p, value->text, value->len);
  if (!a->u.enm.value) return hr_p_oom(p);
  *out = a;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Dialect structs                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* Whether an attribute is an untyped integer or a list of them, as struct fields must be. */
static bool is_int_field(const hr_attr *a, bool is_list) {
  if (!is_list) return a->kind == HR_ATTR_INT && a->u.i.dtype == HR_DTYPE_INVALID;
  if (a->kind != HR_ATTR_ARRAY) return false;
  for (int i = 0; i < a->u.array.n; i++)
    if (!is_int_field(a->u.array.items[i], false)) return false;
  return true;
}

/* Rebuilds the fields of a known struct in canonical order, dropping defaults unless the struct
 * keeps them, and checking names and value kinds. */
static hr_status canonical_struct(hr_parser *p, const hr_token *at, const hr_struct_info *info,
                                  const hr_pvec *parsed, hr_attr **out) {
  const hr_named_attr *e = parsed->data;
  for (size_t i = 0; i < parsed->len; i++) {
    bool known = false;
    for (size_t f = 0; f < 9 && info->fields[f].name; f++)
      known = known || strcmp(info->fields[f].name, e[i].name) == 0;
    if (!known)
      return hr_p_error(p, at, HR_PARSE_ERROR, "unknown field '%s' in #%s", e[i].name, info->name);
  }
  hr_named_attr fields[9];
  int n = 0;
  for (size_t f = 0; f < 9 && info->fields[f].name; f++) {
    const hr_struct_field *sf = &info->fields[f];
    hr_attr *v = NULL;
    for (size_t i = 0; i < parsed->len; i++)
      if (strcmp(e[i].name, sf->name) == 0) v = e[i].value;
    if (v && !is_int_field(v, sf->is_list))
      return hr_p_error(p, at, HR_PARSE_ERROR, "field '%s' of #%s must be %s", sf->name,
                        info->name, sf->is_list ? "a list of integers" : "an integer");
    bool is_default = !v || (sf->is_list ? v->u.array.n == 0 : v->u.i.value == 0);
    if (is_default && !info->keep_defaults) continue;
    if (!v) v = sf->is_list ? hr_p_untyped_int_list_attr(p, NULL, 0)
                            : hr_p_int_attr(p, 0, HR_DTYPE_INVALID);
    if (!v) return hr_p_oom(p);
    fields[n].name = sf->name;
    fields[n].value = v;
    n++;
  }
  return hr_p_make_struct(p, info->name, fields, n, out);
}

/* Parses the `key = value, ...>` body of a dialect struct (after '<'). */
/* Parses an axis_ref's `(pre_size)size` into a #stablehlo.sub_axis_info STRUCT (the current token is
 * '('). */
static hr_status parse_sub_axis_info(hr_parser *p, hr_attr **out) {
  int64_t pre, size;
  hr_p_next(p);
  HR_TRY(hr_p_parse_int(p, &pre));
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  HR_TRY(hr_p_parse_int(p, &size));
  hr_named_attr f[2] = {{"pre_size", hr_p_int_attr(p, pre, HR_DTYPE_INVALID)},
                        {"size", hr_p_int_attr(p, size, HR_DTYPE_INVALID)}};
  if (!f[0].value || !f[1].value) return hr_p_oom(p);
  return hr_p_make_struct(p, "stablehlo.sub_axis_info", f, 2, out);
}

static hr_status parse_struct_fields(hr_parser *p, hr_pvec *fields) {
  if (hr_p_accept(p, HR_TOK_GREATER)) return NULL;
  for (;;) {
    if (p->tok.kind != HR_TOK_BARE_ID) return hr_p_unexpected(p, "a field name");
    hr_token key_tok = p->tok;
    const char *key = hr_p_strdup(p, p->tok.text, p->tok.len);
    if (!key) return hr_p_oom(p);
    hr_p_next(p);
    HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
    hr_attr *v;
    HR_TRY(p->tok.kind == HR_TOK_LPAREN ? parse_sub_axis_info(p, &v) : hr_p_parse_attr(p, &v));
    HR_TRY(hr_p_add_attr(p, fields, key, v, &key_tok));
    if (hr_p_accept(p, HR_TOK_GREATER)) return NULL;
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or '>'"));
  }
}

hr_status hr_p_canonical_struct(hr_parser *p, const hr_token *at, const char *name,
                                const hr_pvec *fields, hr_attr **out) {
  const hr_struct_info *info = hr_struct_info_find(name);
  if (info) return canonical_struct(p, at, info, fields, out);
  if (fields->len > INT32_MAX) return hr_p_error(p, at, HR_RESOURCE_EXHAUSTED, "too many fields");
  return hr_p_make_struct(p, name, fields->data, (int)fields->len, out);
}

hr_status hr_p_parse_struct_body(hr_parser *p, const hr_token *at, const char *name, hr_attr **out) {
  hr_pvec fields = {0};
  HR_TRY(parse_struct_fields(p, &fields));
  HR_TRY(hr_p_check_unique(p, &fields, at));
  return hr_p_canonical_struct(p, at, name, &fields, out);
}

/* Parses `#dialect.name<...>` after the '<' into a STRUCT (or an ENUM for `<VALUE>`). */
static hr_status parse_dialect_struct(hr_parser *p, const hr_token *at, const char *full_name,
                                      const char *dialect, const char *mnemonic, hr_attr **out) {
  if (strcmp(full_name, "stablehlo.conv") == 0) {
    if (hr_p_accept_kw(p, "raw")) return hr_p_parse_struct_body(p, at, full_name, out);
    HR_TRY(hr_p_parse_conv_dims(p, out));
    return hr_p_expect(p, HR_TOK_GREATER, "'>'");
  }
  if (p->tok.kind == HR_TOK_BARE_ID && hr_p_peek(p).kind == HR_TOK_GREATER) {
    hr_token value = p->tok;
    hr_p_next(p);
    hr_p_next(p);
    return hr_p_enum_attr(p, at, dialect, mnemonic, &value, out);
  }
  return hr_p_parse_struct_body(p, at, full_name, out);
}

/* Parses `<name VALUE>` after `#dialect` into an ENUM; the current token is '<'. */
static hr_status parse_dialect_enum(hr_parser *p, const hr_token *at, const char *dialect,
                                    hr_attr **out) {
  hr_p_next(p);
  if (p->tok.kind != HR_TOK_BARE_ID) return hr_p_unexpected(p, "an enum name");
  const char *name = NULL;
  for (size_t i = 0; i < sizeof known_enums / sizeof *known_enums; i++)
    if (hr_tok_is(&p->tok, known_enums[i].name)) name = known_enums[i].name;
  if (hr_p_is_kw(p, "bounds"))
    return hr_p_error(p, at, HR_UNIMPLEMENTED, "bounded dynamic dimensions are not supported");
  if (!name) name = hr_p_strdup(p, p->tok.text, p->tok.len);
  if (!name) return hr_p_oom(p);
  hr_p_next(p);
  hr_token value = p->tok;
  if (value.kind != HR_TOK_BARE_ID) return hr_p_unexpected(p, "an enum value");
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_GREATER, "'>'"));
  return hr_p_enum_attr(p, at, dialect, name, &value, out);
}

/* The closing token of an opening bracket token, or HR_TOK_EOF for any other token. */
static hr_tok_kind closer_of(hr_tok_kind open) {
  switch (open) {
    case HR_TOK_LESS: return HR_TOK_GREATER;
    case HR_TOK_LPAREN: return HR_TOK_RPAREN;
    case HR_TOK_LSQUARE: return HR_TOK_RSQUARE;
    case HR_TOK_LBRACE: return HR_TOK_RBRACE;
    default: return HR_TOK_EOF;
  }
}

static bool is_closer(hr_tok_kind k) {
  return k == HR_TOK_GREATER || k == HR_TOK_RPAREN || k == HR_TOK_RSQUARE || k == HR_TOK_RBRACE;
}

hr_status hr_p_parse_opaque_body(hr_parser *p, const char *prefix, const char *suffix, hr_attr **out) {
  if (closer_of(p->tok.kind) == HR_TOK_EOF) return hr_p_unexpected(p, "'<', '[', '(' or '{'");
  hr_token start = p->tok;
  hr_tok_kind owed[HR_LIMIT_NESTING_DEPTH]; /* the closing brackets owed, innermost last */
  int depth = 0;
  const char *end;
  do {
    hr_tok_kind close = closer_of(p->tok.kind);
    if (close != HR_TOK_EOF) {
      if (depth >= p->max_nesting) return hr_p_error(p, &p->tok, HR_RESOURCE_EXHAUSTED, "attribute nested too deeply");
      owed[depth++] = close;
    } else if (is_closer(p->tok.kind)) {
      if (p->tok.kind != owed[depth - 1]) return hr_p_unexpected(p, "the matching closing bracket");
      depth--;
    } else if (p->tok.kind == HR_TOK_EOF || p->tok.kind == HR_TOK_ERROR) {
      return hr_p_unexpected(p, "the rest of the attribute");
    }
    end = p->tok.text + p->tok.len;
    hr_p_next(p);
  } while (depth > 0);
  size_t prefix_len = strlen(prefix), body_len = (size_t)(end - start.text), suffix_len = strlen(suffix);
  size_t len = prefix_len + body_len + suffix_len;
  char *text = hr_arena_alloc(&p->m->arena, len + 1, 1);
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_OPAQUE);
  if (!text || !a) return hr_p_oom(p);
  memcpy(text, prefix, prefix_len);
  memcpy(text + prefix_len, start.text, body_len);
  memcpy(text + prefix_len + body_len, suffix, suffix_len);
  text[len] = 0;
  a->u.str.data = text;
  a->u.str.len = len;
  *out = a;
  return NULL;
}

/* The dialects whose attribute syntax is known; others are parsed as generic structs/enums. */
static const char *known_dialect(const char *id, size_t len) {
  static const char *const dialects[] = {"stablehlo", "chlo", "mhlo"};
  for (size_t i = 0; i < sizeof dialects / sizeof *dialects; i++)
    if (strlen(dialects[i]) == len && memcmp(dialects[i], id, len) == 0) return dialects[i];
  return NULL;
}

/* Parses `#dialect<name VALUE>` or `#dialect.name<...>`; the current token is the hash id. An
 * attribute of another dialect whose body is not `key = value, ...` is reported as unsupported. */
static hr_status parse_hash_attr(hr_parser *p, hr_attr **out) {
  hr_token at = p->tok;
  const char *id = at.text + 1;
  size_t id_len = at.len - 1;
  hr_p_next(p);
  if (p->tok.kind != HR_TOK_LESS || p->tok.text != at.text + at.len)
    return hr_p_error(p, &at, HR_UNIMPLEMENTED, "attribute aliases ('%.*s') are not supported",
                      (int)(at.len > 40 ? 40 : at.len), at.text);
  const char *full = hr_p_strdup(p, id, id_len);
  if (!full) return hr_p_oom(p);
  const char *dot = strchr(full, '.');
  size_t dialect_len = dot ? (size_t)(dot - full) : id_len;
  const char *dialect = known_dialect(full, dialect_len);
  bool known = dialect != NULL;
  if (!dialect) dialect = hr_p_strdup(p, full, dialect_len);
  if (!dialect) return hr_p_oom(p);
  const char *mnemonic = dot ? dot + 1 : NULL;
  if (strcmp(dialect, "sdy") == 0) { /* Shardy's annotations: kept as written */
    return hr_p_parse_opaque_body(p, full, "", out);
  }
  if (mnemonic && (strcmp(mnemonic, "bounds") == 0 || strcmp(mnemonic, "type_extensions") == 0))
    return hr_p_error(p, &at, HR_UNIMPLEMENTED, "bounded dynamic dimensions are not supported");
  HR_TRY(hr_p_enter(p, &at));
  hr_status s;
  if (mnemonic) {
    hr_p_next(p); /* '<' */
    s = parse_dialect_struct(p, &at, full, dialect, mnemonic, out);
  } else {
    s = parse_dialect_enum(p, &at, dialect, out);
  }
  if (s && !known && hr_status_code(s) == HR_PARSE_ERROR) {
    hr_status_free(s);
    return hr_p_error(p, &at, HR_UNIMPLEMENTED, "attribute '%.*s<...>' is not supported",
                      (int)(at.len > 40 ? 40 : at.len), at.text);
  }
  hr_p_leave(p);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Convolution dimension numbers: [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]                          */
/* ---------------------------------------------------------------------------------------------- */

typedef struct conv_layout {
  int64_t letter_pos[2]; /* positions of the two letters (b/f or i/o) */
  int64_t spatial[HR_MAX_RANK];
  int n_spatial;
} conv_layout;

/* Parses one bracketed layout whose non-spatial letters are `l0` and `l1`. */
static hr_status parse_conv_layout(hr_parser *p, char l0, char l1, conv_layout *out) {
  hr_token open = p->tok;
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'[' starting convolution dimensions"));
  out->letter_pos[0] = out->letter_pos[1] = -1;
  out->n_spatial = 0;
  bool seen[HR_MAX_RANK] = {false};
  int64_t pos = 0;
  for (;; pos++) {
    hr_token t = p->tok;
    if (pos >= HR_MAX_RANK)
      return hr_p_error(p, &t, HR_RESOURCE_EXHAUSTED, "convolution rank exceeds %d", HR_MAX_RANK);
    if (t.kind == HR_TOK_INTEGER) {
      int64_t s;
      HR_TRY(hr_p_parse_int(p, &s));
      if (s < 0 || s >= HR_MAX_RANK || seen[s])
        return hr_p_error(p, &t, HR_PARSE_ERROR, "invalid or duplicate spatial dimension %lld",
                          (long long)s);
      seen[s] = true;
      out->spatial[s] = pos;
      if (s + 1 > out->n_spatial) out->n_spatial = (int)s + 1;
    } else if (t.kind == HR_TOK_BARE_ID && t.len == 1 && (t.text[0] == l0 || t.text[0] == l1)) {
      int which = t.text[0] == l0 ? 0 : 1;
      if (out->letter_pos[which] >= 0)
        return hr_p_error(p, &t, HR_PARSE_ERROR, "duplicate dimension '%c'", t.text[0]);
      out->letter_pos[which] = pos;
      hr_p_next(p);
    } else {
      char what[48];
      snprintf(what, sizeof what, "a spatial dimension, '%c' or '%c'", l0, l1);
      return hr_p_unexpected(p, what);
    }
    if (hr_p_accept(p, HR_TOK_RSQUARE)) break;
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
  }
  if (out->letter_pos[0] < 0 || out->letter_pos[1] < 0)
    return hr_p_error(p, &open, HR_PARSE_ERROR, "convolution dimensions must name '%c' and '%c'",
                      l0, l1);
  for (int s = 0; s < out->n_spatial; s++)
    if (!seen[s])
      return hr_p_error(p, &open, HR_PARSE_ERROR, "spatial dimension %d is not specified", s);
  return NULL;
}

hr_status hr_p_parse_conv_dims(hr_parser *p, hr_attr **out) {
  conv_layout in, kernel, res;
  HR_TRY(parse_conv_layout(p, 'b', 'f', &in));
  HR_TRY(hr_p_expect_kw(p, "x"));
  HR_TRY(parse_conv_layout(p, 'i', 'o', &kernel));
  HR_TRY(hr_p_expect(p, HR_TOK_ARROW, "'->'"));
  HR_TRY(parse_conv_layout(p, 'b', 'f', &res));
  const conv_layout *layouts[3] = {&in, &kernel, &res};
  const hr_struct_info *conv = hr_struct_info_find("stablehlo.conv");
  hr_named_attr fields[9];
  for (int l = 0; l < 3; l++) {
    const hr_struct_field *names = &conv->fields[l * 3];
    fields[l * 3].value = hr_p_int_attr(p, layouts[l]->letter_pos[0], HR_DTYPE_INVALID);
    fields[l * 3 + 1].value = hr_p_int_attr(p, layouts[l]->letter_pos[1], HR_DTYPE_INVALID);
    fields[l * 3 + 2].value =
        hr_p_untyped_int_list_attr(p, layouts[l]->spatial, (size_t)layouts[l]->n_spatial);
    for (int k = 0; k < 3; k++) {
      fields[l * 3 + k].name = names[k].name;
      if (!fields[l * 3 + k].value) return hr_p_oom(p);
    }
  }
  return hr_p_make_struct(p, conv->name, fields, 9, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* Generic attribute values                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Parses `[a, b, ...]`. */
static hr_status parse_array_attr(hr_parser *p, hr_attr **out) {
  hr_token open = p->tok;
  HR_TRY(hr_p_enter(p, &open));
  hr_p_next(p);
  hr_pvec items = {0};
  if (!hr_p_accept(p, HR_TOK_RSQUARE)) {
    for (;;) {
      hr_attr *it;
      HR_TRY(hr_p_parse_attr(p, &it));
      HR_TRY(hr_pvec_push(p, &items, &it, sizeof it));
      if (hr_p_accept(p, HR_TOK_RSQUARE)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
    }
  }
  hr_p_leave(p);
  if (items.len > INT32_MAX)
    return hr_p_error(p, &open, HR_RESOURCE_EXHAUSTED, "array has too many elements");
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_ARRAY);
  if (!a) return hr_p_oom(p);
  void *data;
  HR_TRY(hr_pvec_export(p, &items, sizeof(hr_attr *), _Alignof(hr_attr *), &data));
  a->u.array.n = (int)items.len;
  a->u.array.items = data;
  *out = a;
  return NULL;
}

/* Parses a type used as an attribute value: a value type, a bare element type or `none`. */
static hr_status parse_type_attr(hr_parser *p, hr_attr **out) {
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_TYPE);
  if (!a) return hr_p_oom(p);
  if (hr_p_accept_kw(p, "none")) {
    a->u.type.kind = HR_TYPE_NONE;
  } else if (p->tok.kind == HR_TOK_BARE_ID && !hr_p_is_kw(p, "tensor") && !hr_p_is_kw(p, "tuple")) {
    a->u.type.kind = HR_TYPE_ELEMENT;
    HR_TRY(hr_p_parse_elem_type(p, &a->u.type.dtype));
  } else {
    HR_TRY(hr_p_parse_type(p, &a->u.type));
  }
  *out = a;
  return NULL;
}

/* Parses `@name` (a flat symbol reference). */
static hr_status parse_symbol_attr(hr_parser *p, hr_attr **out) {
  hr_token t = p->tok;
  const char *data;
  size_t len;
  if (t.text[1] == '"') {
    hr_token quoted = t;
    quoted.text++;
    quoted.len--;
    HR_TRY(hr_p_decode_string(p, &quoted, &data, &len));
  } else {
    len = t.len - 1;
    data = hr_p_strdup(p, t.text + 1, len);
    if (!data) return hr_p_oom(p);
  }
  hr_p_next(p);
  if (p->tok.kind == HR_TOK_DOUBLE_COLON)
    return hr_p_error(p, &t, HR_UNIMPLEMENTED, "nested symbol references are not supported");
  *out = hr_p_string_attr(p, data, len, HR_ATTR_SYMBOL);
  return *out ? NULL : hr_p_oom(p);
}

/* Parses an attribute that starts with a bare identifier. */
static hr_status parse_keyword_attr(hr_parser *p, hr_attr **out) {
  hr_token t = p->tok;
  if (hr_tok_is(&t, "unit") || hr_tok_is(&t, "true") || hr_tok_is(&t, "false")) {
    hr_p_next(p);
    *out = hr_attr_new(p->m, hr_tok_is(&t, "unit") ? HR_ATTR_UNIT : HR_ATTR_BOOL);
    if (!*out) return hr_p_oom(p);
    if ((*out)->kind == HR_ATTR_BOOL) (*out)->u.b = hr_tok_is(&t, "true");
    return NULL;
  }
  if (hr_tok_is(&t, "dense")) return hr_p_parse_dense(p, out);
  if (hr_tok_is(&t, "array")) return hr_p_parse_dense_array(p, out);
  if (hr_p_at_type(p) || hr_tok_is(&t, "none") || hr_tok_is(&t, "vector") ||
      hr_tok_is(&t, "memref"))
    return parse_type_attr(p, out);
  static const char *const unsupported[] = {"dense_resource", "sparse", "affine_map", "affine_set",
                                            "strided", "distinct", "opaque"};
  for (size_t i = 0; i < sizeof unsupported / sizeof *unsupported; i++)
    if (hr_tok_is(&t, unsupported[i]))
      return hr_p_error(p, &t, HR_UNIMPLEMENTED, "'%s' attributes are not supported",
                        unsupported[i]);
  return hr_p_unexpected(p, "an attribute value");
}

hr_status hr_p_parse_attr(hr_parser *p, hr_attr **out) {
  switch (p->tok.kind) {
    case HR_TOK_BARE_ID: return parse_keyword_attr(p, out);
    case HR_TOK_BANG_ID: return parse_type_attr(p, out);
    case HR_TOK_MINUS:
    case HR_TOK_INTEGER:
    case HR_TOK_FLOAT: return parse_number_attr(p, out);
    case HR_TOK_STRING: {
      const char *data;
      size_t len;
      HR_TRY(hr_p_decode_string(p, &p->tok, &data, &len));
      hr_p_next(p);
      *out = hr_p_string_attr(p, data, len, HR_ATTR_STRING);
      return *out ? NULL : hr_p_oom(p);
    }
    case HR_TOK_SYMBOL: return parse_symbol_attr(p, out);
    case HR_TOK_LSQUARE: return parse_array_attr(p, out);
    case HR_TOK_LBRACE: {
      hr_pvec entries = {0};
      HR_TRY(hr_p_parse_attr_dict(p, &entries));
      return hr_p_make_dict(p, &entries, out);
    }
    case HR_TOK_HASH_ID: return parse_hash_attr(p, out);
    default: return hr_p_unexpected(p, "an attribute value");
  }
}

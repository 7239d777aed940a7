/* Parsing of types (tensor<...>, tuple<...>, !stablehlo.token, element types) and of operation
 * type signatures. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/parse_internal.h"

/* Element types by their MLIR spelling. */
static const struct {
  const char *name;
  hr_dtype dtype;
} elem_types[] = {
    {"i1", HR_I1},    {"i2", HR_I2},    {"i4", HR_I4},    {"i8", HR_I8},      {"i16", HR_I16},
    {"i32", HR_I32},  {"i64", HR_I64},  {"ui2", HR_U2},   {"ui4", HR_U4},     {"ui8", HR_U8},
    {"ui16", HR_U16}, {"ui32", HR_U32}, {"ui64", HR_U64}, {"f16", HR_F16},    {"bf16", HR_BF16},
    {"f32", HR_F32},  {"f64", HR_F64},  {"index", HR_INDEX},
    {"f8E4M3FN", HR_F8E4M3FN},         {"f8E5M2", HR_F8E5M2},       {"f8E4M3FNUZ", HR_F8E4M3FNUZ},
    {"f8E5M2FNUZ", HR_F8E5M2FNUZ},     {"f8E4M3B11FNUZ", HR_F8E4M3B11FNUZ}, {"f8E3M4", HR_F8E3M4},
    {"f8E4M3", HR_F8E4M3},             {"f8E8M0FNU", HR_F8E8M0FNU}, {"f4E2M1FN", HR_F4E2M1FN},
    {"f6E2M3FN", HR_F6E2M3FN},         {"f6E3M2FN", HR_F6E3M2FN},   {"tf32", HR_TF32},
};

/* A token standing for the lexer's current position, for messages during raw scanning. */
static hr_token raw_token(const hr_parser *p) {
  hr_token t;
  memset(&t, 0, sizeof t);
  t.kind = HR_TOK_BARE_ID;
  t.text = p->lx.src + p->lx.pos;
  t.line = p->lx.line;
  t.col = hr_lexer_col(&p->lx);
  t.line_start = p->lx.line_start;
  return t;
}

/* Whether a bare identifier names a scalar type we recognise but do not support. */
static bool is_unsupported_scalar(const hr_token *t) {
  static const char *const prefixes[] = {"si", "f8", "f4", "f6", "f80", "f128"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
    size_t n = strlen(prefixes[i]);
    if (t->len >= n && memcmp(t->text, prefixes[i], n) == 0) return true;
  }
  /* Integer widths other than the supported ones: i3, i128, ui7, ... */
  size_t skip = t->len > 2 && t->text[0] == 'u' && t->text[1] == 'i' ? 2 : 1;
  if (t->len <= skip || (t->text[0] != 'i' && skip == 1)) return false;
  for (size_t i = skip; i < t->len; i++)
    if (t->text[i] < '0' || t->text[i] > '9') return false;
  return true;
}

hr_status hr_p_parse_elem_type(hr_parser *p, hr_dtype *out) {
  hr_token t = p->tok;
  if (t.kind == HR_TOK_BANG_ID)
    return hr_p_error(p, &t, HR_UNIMPLEMENTED, "element type '%.*s' is not supported here",
                      (int)(t.len > 40 ? 40 : t.len), t.text);
  if (t.kind != HR_TOK_BARE_ID) return hr_p_unexpected(p, "an element type");
  for (size_t i = 0; i < sizeof elem_types / sizeof *elem_types; i++) {
    if (hr_tok_is(&t, elem_types[i].name)) {
      *out = elem_types[i].dtype;
      hr_p_next(p);
      return NULL;
    }
  }
  if (hr_tok_is(&t, "complex")) {
    hr_p_next(p);
    HR_TRY(hr_p_expect(p, HR_TOK_LESS, "'<'"));
    if (hr_p_is_kw(p, "f32"))
      *out = HR_C64;
    else if (hr_p_is_kw(p, "f64"))
      *out = HR_C128;
    else if (p->tok.kind == HR_TOK_BARE_ID)
      return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED, "complex<%.*s> is not supported",
                        (int)(p->tok.len > 20 ? 20 : p->tok.len), p->tok.text);
    else
      return hr_p_unexpected(p, "f32 or f64");
    hr_p_next(p);
    return hr_p_expect(p, HR_TOK_GREATER, "'>'");
  }
  if (is_unsupported_scalar(&t))
    return hr_p_error(p, &t, HR_UNIMPLEMENTED, "element type '%.*s' is not supported",
                      (int)(t.len > 20 ? 20 : t.len), t.text);
  return hr_p_unexpected(p, "an element type");
}

/* Reads a decimal dimension size at the lexer position (raw scanning). */
static hr_status scan_dim(hr_parser *p, int64_t *out) {
  hr_token at = raw_token(p);
  uint64_t v = 0;
  while (hr_lexer_peek(&p->lx) >= '0' && hr_lexer_peek(&p->lx) <= '9') {
    uint64_t d = (uint64_t)(hr_lexer_peek(&p->lx) - '0');
    if (v > ((uint64_t)INT64_MAX - d) / 10)
      return hr_p_error(p, &at, HR_RESOURCE_EXHAUSTED, "dimension size is too large");
    v = v * 10 + d;
    p->lx.pos++;
  }
  *out = (int64_t)v;
  return NULL;
}

/* Checks that a tensor type's element count and byte size are representable. */
static hr_status check_tensor_size(hr_parser *p, const hr_token *at, const hr_type *t) {
  int64_t n = 1;
  for (int i = 0; i < t->shape.rank; i++) {
    int64_t d = t->shape.dims[i];
    if (d < 0) continue;
    if (__builtin_mul_overflow(n, d, &n)) n = -1;
    if (n < 0) break;
  }
  int64_t bytes;
  if (n < 0 || __builtin_mul_overflow(n, (int64_t)hr_dtype_size(t->dtype), &bytes)) {
    char buf[160];
    hr_p_type_str(t, buf, sizeof buf);
    return hr_p_error(p, at, HR_RESOURCE_EXHAUSTED, "type %s has too many elements", buf);
  }
  return NULL;
}

/* ---- quantized element types ---- */

/* Parses a quant storage type: `i8`, `u8`, ... with an optional `<min:max>` range (the current
 * token is the bare identifier). */
static hr_status parse_quant_storage(hr_parser *p, hr_quant *q) {
  hr_token t = p->tok;
  static const struct {
    const char *name;
    hr_dtype dtype;
  } storages[] = {{"i2", HR_I2},  {"i4", HR_I4},   {"i8", HR_I8},   {"i16", HR_I16}, {"i32", HR_I32},
                  {"i64", HR_I64}, {"u2", HR_U2},  {"u4", HR_U4},   {"u8", HR_U8},   {"u16", HR_U16},
                  {"u32", HR_U32}};
  q->storage = HR_DTYPE_INVALID;
  for (size_t i = 0; i < sizeof storages / sizeof *storages; i++)
    if (t.kind == HR_TOK_BARE_ID && hr_tok_is(&t, storages[i].name)) q->storage = storages[i].dtype;
  if (q->storage == HR_DTYPE_INVALID)
    return hr_p_error(p, &t, HR_UNIMPLEMENTED, "quantized storage type '%.*s' is not supported (i2 to i64, u2 to u32)",
                      (int)(t.len > 20 ? 20 : t.len), t.text);
  hr_p_next(p);
  hr_dtype_int_range(q->storage, &q->storage_min, &q->storage_max);
  if (!hr_p_accept(p, HR_TOK_LESS)) return NULL;
  int64_t min, max;
  HR_TRY(hr_p_parse_int(p, &min));
  HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':' in the storage range"));
  HR_TRY(hr_p_parse_int(p, &max));
  if (min < q->storage_min || max > q->storage_max || min > max)
    return hr_p_error(p, &t, HR_PARSE_ERROR, "storage range <%lld:%lld> is not within the storage type's",
                      (long long)min, (long long)max);
  q->storage_min = min;
  q->storage_max = max;
  return hr_p_expect(p, HR_TOK_GREATER, "'>' closing the storage range");
}

/* Parses `scale[:zero_point]` into the vectors; the zero point must lie in the storage range. */
static hr_status parse_quant_param(hr_parser *p, const hr_quant *q, hr_pvec *scales, hr_pvec *zero_points) {
  hr_token at = p->tok;
  bool neg = hr_p_accept(p, HR_TOK_MINUS);
  hr_token num = p->tok;
  if (num.kind != HR_TOK_FLOAT && num.kind != HR_TOK_INTEGER) return hr_p_unexpected(p, "a scale");
  double scale;
  HR_TRY(hr_p_float_token(p, &num, HR_F64, neg, &scale));
  hr_p_next(p);
  int64_t zp = 0;
  if (hr_p_accept(p, HR_TOK_COLON)) HR_TRY(hr_p_parse_int(p, &zp));
  if (zp < q->storage_min || zp > q->storage_max)
    return hr_p_error(p, &at, HR_PARSE_ERROR, "zero point %lld is outside the storage range [%lld, %lld]",
                      (long long)zp, (long long)q->storage_min, (long long)q->storage_max);
  HR_TRY(hr_pvec_push(p, scales, &scale, sizeof scale));
  return hr_pvec_push(p, zero_points, &zp, sizeof zp);
}

/* Parses `!quant.uniform<storage:expressed[:axis], params>`; the current token is the BANG_ID. */
static hr_status parse_quant_type(hr_parser *p, const hr_quant **out) {
  hr_token start = p->tok;
  if (!hr_tok_text_is(&start, "!quant.uniform"))
    return hr_p_error(p, &start, HR_UNIMPLEMENTED, "element type '%.*s' is not supported (of the quant dialect, "
                      "!quant.uniform)", (int)(start.len > 40 ? 40 : start.len), start.text);
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_LESS, "'<' after !quant.uniform"));
  hr_quant *q = HR_ARENA_NEW(&p->m->arena, hr_quant);
  if (!q) return hr_p_oom(p);
  HR_TRY(parse_quant_storage(p, q));
  HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':' before the expressed type"));
  hr_token et = p->tok;
  HR_TRY(hr_p_parse_elem_type(p, &q->expressed));
  if (!hr_dtype_is_float(q->expressed))
    return hr_p_error(p, &et, HR_PARSE_ERROR, "the expressed type of a quantized type must be f16, bf16, f32 or f64");
  q->axis = -1;
  if (hr_p_accept(p, HR_TOK_COLON)) {
    int64_t axis;
    HR_TRY(hr_p_parse_int(p, &axis));
    if (axis < 0 || axis >= HR_MAX_RANK) return hr_p_error(p, &et, HR_PARSE_ERROR, "quantized dimension %lld", (long long)axis);
    q->axis = (int32_t)axis;
  }
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' before the scale"));
  hr_pvec scales = {0}, zero_points = {0};
  if (q->axis < 0) {
    HR_TRY(parse_quant_param(p, q, &scales, &zero_points));
  } else {
    HR_TRY(hr_p_expect(p, HR_TOK_LBRACE, "'{' opening the per-axis scales"));
    do HR_TRY(parse_quant_param(p, q, &scales, &zero_points));
    while (hr_p_accept(p, HR_TOK_COMMA));
    HR_TRY(hr_p_expect(p, HR_TOK_RBRACE, "'}' closing the per-axis scales"));
  }
  HR_TRY(hr_p_expect(p, HR_TOK_GREATER, "'>' closing the quantized type"));
  if (scales.len > INT32_MAX) return hr_p_error(p, &start, HR_RESOURCE_EXHAUSTED, "too many scales");
  q->n = (int32_t)scales.len;
  void *data;
  HR_TRY(hr_pvec_export(p, &scales, sizeof(double), _Alignof(double), &data));
  q->scales = data;
  HR_TRY(hr_pvec_export(p, &zero_points, sizeof(int64_t), _Alignof(int64_t), &data));
  q->zero_points = data;
  *out = q;
  return NULL;
}

/* Parses a tensor encoding after the element type's ',': `#stablehlo.type_extensions<bounds =
 * [16, ?]>` (bounded dynamism; one bound per dimension, only dynamic dimensions bounded). */
static hr_status parse_tensor_encoding(hr_parser *p, hr_type *t) {
  hr_token at = p->tok;
  if (at.kind != HR_TOK_HASH_ID || !hr_tok_text_is(&at, "#stablehlo.type_extensions"))
    return hr_p_error(p, &at, HR_UNIMPLEMENTED, "tensor encoding '%.*s' is not supported (only "
                      "#stablehlo.type_extensions)", (int)(at.len > 40 ? 40 : at.len), at.text);
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_LESS, "'<'"));
  HR_TRY(hr_p_expect_kw(p, "bounds"));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  int64_t *bounds = HR_ARENA_ARRAY(&p->m->arena, int64_t, t->shape.rank ? (size_t)t->shape.rank : 1);
  if (!bounds) return hr_p_oom(p);
  int n = 0;
  while (p->tok.kind != HR_TOK_RSQUARE) {
    if (n && !hr_p_accept(p, HR_TOK_COMMA)) return hr_p_unexpected(p, "',' or ']'");
    if (n == t->shape.rank) return hr_p_error(p, &at, HR_PARSE_ERROR, "more bounds than the tensor's %d dimensions", t->shape.rank);
    int64_t b = HR_DYNAMIC;
    if (!hr_p_accept(p, HR_TOK_QUESTION)) HR_TRY(hr_p_parse_int(p, &b));
    if (b < 0 && b != HR_DYNAMIC) return hr_p_error(p, &at, HR_PARSE_ERROR, "a negative bound");
    if (b >= 0 && t->shape.dims[n] != HR_DYNAMIC)
      return hr_p_error(p, &at, HR_PARSE_ERROR, "dimension %d is static and cannot have a bound", n);
    bounds[n++] = b;
  }
  hr_p_next(p);
  if (n != t->shape.rank) return hr_p_error(p, &at, HR_PARSE_ERROR, "%d bounds for a tensor of rank %d", n, t->shape.rank);
  t->bounds = bounds;
  return hr_p_expect(p, HR_TOK_GREATER, "'>'");
}

/* Parses `tensor<d0xd1x...xT>`; the current token is `tensor`. The dimension list is scanned
 * character by character because `2x3xf32` is not a sequence of ordinary tokens. */
static hr_status parse_tensor_type(hr_parser *p, hr_type_kind kind, hr_type *out) {
  hr_token start = p->tok;
  hr_lexer_seek_after(&p->lx, &start);
  hr_lexer_skip_space(&p->lx);
  if (hr_lexer_peek(&p->lx) != '<') {
    hr_p_next(p);
    return hr_p_unexpected(p, "'<' after the type's name");
  }
  p->lx.pos++;
  out->kind = kind;
  for (;;) {
    hr_lexer_skip_space(&p->lx);
    hr_token at = raw_token(p);
    int c = hr_lexer_peek(&p->lx);
    int64_t dim = 0;
    if (c == '*')
      return hr_p_error(p, &at, HR_UNIMPLEMENTED, "unranked tensor types are not supported");
    if (c == '?') {
      dim = HR_DYNAMIC;
      p->lx.pos++;
    } else if (c >= '0' && c <= '9') {
      HR_TRY(scan_dim(p, &dim));
    } else {
      break;
    }
    if (hr_lexer_peek(&p->lx) != 'x') {
      hr_token x = raw_token(p);
      return hr_p_error(p, &x, HR_PARSE_ERROR, "expected 'x' after a dimension size");
    }
    p->lx.pos++;
    if (out->shape.rank == HR_MAX_RANK)
      return hr_p_error(p, &at, HR_RESOURCE_EXHAUSTED, "tensor rank exceeds the limit of %d",
                        HR_MAX_RANK);
    out->shape.dims[out->shape.rank++] = dim;
  }
  hr_p_next(p);
  if (kind == HR_TYPE_BUFFER) { /* memref<2xf32>: no quantization, layout or memory space */
    HR_TRY(hr_p_parse_elem_type(p, &out->dtype));
    if (p->tok.kind == HR_TOK_COMMA)
      return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED, "memref layouts and memory spaces are not supported");
  } else if (p->tok.kind == HR_TOK_BANG_ID) {
    HR_TRY(parse_quant_type(p, &out->quant));
    out->dtype = out->quant->storage;
    if (out->quant->axis >= out->shape.rank ||
        (out->quant->axis >= 0 && out->shape.dims[out->quant->axis] >= 0 &&
         out->shape.dims[out->quant->axis] != out->quant->n))
      return hr_p_error(p, &start, HR_PARSE_ERROR, "the per-axis scales do not match the quantized dimension");
  } else {
    HR_TRY(hr_p_parse_elem_type(p, &out->dtype));
  }
  if (kind == HR_TYPE_TENSOR && hr_p_accept(p, HR_TOK_COMMA)) HR_TRY(parse_tensor_encoding(p, out));
  HR_TRY(hr_p_expect(p, HR_TOK_GREATER, "'>' closing the tensor type"));
  return check_tensor_size(p, &start, out);
}

/* Parses `tuple<T, ...>` or `!stablehlo.future<T, ...>` (the current token) as a `kind` type. */
static hr_status parse_tuple_type(hr_parser *p, hr_type_kind kind, hr_type *out) {
  hr_token start = p->tok;
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_LESS, "'<'"));
  HR_TRY(hr_p_enter(p, &start));
  hr_pvec elems = {0};
  if (!hr_p_accept(p, HR_TOK_GREATER)) {
    for (;;) {
      hr_type t;
      HR_TRY(hr_p_parse_type(p, &t));
      HR_TRY(hr_pvec_push(p, &elems, &t, sizeof t));
      if (hr_p_accept(p, HR_TOK_GREATER)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or '>'"));
    }
  }
  hr_p_leave(p);
  if (elems.len > INT32_MAX)
    return hr_p_error(p, &start, HR_RESOURCE_EXHAUSTED, "tuple has too many elements");
  out->kind = kind;
  out->n_elems = (int)elems.len;
  void *data;
  HR_TRY(hr_pvec_export(p, &elems, sizeof(hr_type), _Alignof(hr_type), &data));
  out->elems = data;
  return NULL;
}

bool hr_p_at_type(const hr_parser *p) {
  if (p->tok.kind == HR_TOK_BANG_ID) return true;
  if (p->tok.kind != HR_TOK_BARE_ID) return false;
  if (hr_p_is_kw(p, "tensor") || hr_p_is_kw(p, "tuple") || hr_p_is_kw(p, "complex") || hr_p_is_kw(p, "memref")) return true;
  for (size_t i = 0; i < sizeof elem_types / sizeof *elem_types; i++)
    if (hr_tok_is(&p->tok, elem_types[i].name)) return true;
  return is_unsupported_scalar(&p->tok);
}

hr_status hr_p_parse_type(hr_parser *p, hr_type *out) {
  memset(out, 0, sizeof *out);
  hr_token t = p->tok;
  if (t.kind == HR_TOK_BANG_ID) {
    if (hr_tok_text_is(&t, "!stablehlo.token")) {
      out->kind = HR_TYPE_TOKEN;
      hr_p_next(p);
      return NULL;
    }
    if (hr_tok_text_is(&t, "!stablehlo.future")) return parse_tuple_type(p, HR_TYPE_FUTURE, out);
    return hr_p_error(p, &t, HR_UNIMPLEMENTED, "type '%.*s' is not supported",
                      (int)(t.len > 40 ? 40 : t.len), t.text);
  }
  if (hr_tok_is(&t, "tensor")) return parse_tensor_type(p, HR_TYPE_TENSOR, out);
  if (hr_tok_is(&t, "memref")) return parse_tensor_type(p, HR_TYPE_BUFFER, out);
  if (hr_tok_is(&t, "tuple")) return parse_tuple_type(p, HR_TYPE_TUPLE, out);
  if (hr_tok_is(&t, "vector") || hr_tok_is(&t, "none") ||
      hr_p_at_type(p))
    return hr_p_error(p, &t, HR_UNIMPLEMENTED,
                      "type '%.*s' is not supported (expected a tensor, tuple or token type)",
                      (int)(t.len > 40 ? 40 : t.len), t.text);
  return hr_p_unexpected(p, "a type");
}

/* Parses a parenthesised, possibly empty, comma-separated type list; '(' is current. */
static hr_status parse_paren_types(hr_parser *p, hr_pvec *out) {
  hr_p_next(p);
  if (hr_p_accept(p, HR_TOK_RPAREN)) return NULL;
  for (;;) {
    hr_type t;
    HR_TRY(hr_p_parse_type(p, &t));
    HR_TRY(hr_pvec_push(p, out, &t, sizeof t));
    if (hr_p_accept(p, HR_TOK_RPAREN)) return NULL;
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ')'"));
  }
}

/* Parses the result part of a function type: `T` or `(T, ...)`. */
static hr_status parse_sig_results(hr_parser *p, hr_sig *sig) {
  if (p->tok.kind == HR_TOK_LPAREN) return parse_paren_types(p, &sig->outs);
  hr_type t;
  HR_TRY(hr_p_parse_type(p, &t));
  return hr_pvec_push(p, &sig->outs, &t, sizeof t);
}

hr_status hr_p_parse_sig(hr_parser *p, hr_sig *sig) {
  memset(sig, 0, sizeof *sig);
  sig->ins.arena = sig->outs.arena = &p->op_temp; /* a signature is used up by its op */
  sig->at = p->tok;
  if (p->tok.kind == HR_TOK_LPAREN) {
    HR_TRY(parse_paren_types(p, &sig->ins));
    HR_TRY(hr_p_expect(p, HR_TOK_ARROW, "'->' in function type"));
    sig->is_func = true;
    return parse_sig_results(p, sig);
  }
  for (;;) {
    hr_type t;
    HR_TRY(hr_p_parse_type(p, &t));
    HR_TRY(hr_pvec_push(p, &sig->ins, &t, sizeof t));
    if (!hr_p_accept(p, HR_TOK_COMMA)) break;
  }
  if (!hr_p_accept(p, HR_TOK_ARROW)) return NULL;
  sig->is_func = true;
  return parse_sig_results(p, sig);
}

void hr_p_type_str(const hr_type *t, char *buf, size_t cap) { hr_type_format(t, buf, cap); }

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
    {"f32", HR_F32},  {"f64", HR_F64},
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
  static const char *const prefixes[] = {"si", "f8", "f4", "f6", "tf32", "f80", "f128", "index"};
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
    return hr_p_error(p, &t, HR_UNIMPLEMENTED,
                      "element type '%.*s' is not supported (quantized and dialect types are not "
                      "implemented)", (int)(t.len > 40 ? 40 : t.len), t.text);
  if (t.kind != HR_TOK_BARE_ID) return hr_p_unexpected(p, "an element type");
  for (size_t i = 0; i < sizeof elem_types / sizeof *elem_types; i++) {
    if (hr_tok_is(&t, elem_types[i].name)) {
      *out = elem_types[i].dtype;
      hr_p_next(p);
      return NULL;
    }
  }
  if (p->index_as_i64 && hr_tok_is(&t, "index")) {
    *out = HR_I64;
    hr_p_next(p);
    return NULL;
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

/* Parses `tensor<d0xd1x...xT>`; the current token is `tensor`. The dimension list is scanned
 * character by character because `2x3xf32` is not a sequence of ordinary tokens. */
static hr_status parse_tensor_type(hr_parser *p, hr_type *out) {
  hr_token start = p->tok;
  hr_lexer_seek_after(&p->lx, &start);
  hr_lexer_skip_space(&p->lx);
  if (hr_lexer_peek(&p->lx) != '<') {
    hr_p_next(p);
    return hr_p_unexpected(p, "'<' after 'tensor'");
  }
  p->lx.pos++;
  out->kind = HR_TYPE_TENSOR;
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
  HR_TRY(hr_p_parse_elem_type(p, &out->dtype));
  if (p->tok.kind == HR_TOK_COMMA)
    return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED,
                      "tensor encodings (such as bounded dynamic dimensions) are not supported");
  HR_TRY(hr_p_expect(p, HR_TOK_GREATER, "'>' closing the tensor type"));
  return check_tensor_size(p, &start, out);
}

/* Parses `tuple<T, ...>`; the current token is `tuple`. */
static hr_status parse_tuple_type(hr_parser *p, hr_type *out) {
  hr_token start = p->tok;
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_LESS, "'<' after 'tuple'"));
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
  out->kind = HR_TYPE_TUPLE;
  out->n_elems = (int)elems.len;
  void *data;
  HR_TRY(hr_pvec_export(p, &elems, sizeof(hr_type), _Alignof(hr_type), &data));
  out->elems = data;
  return NULL;
}

bool hr_p_at_type(const hr_parser *p) {
  if (p->tok.kind == HR_TOK_BANG_ID) return true;
  if (p->tok.kind != HR_TOK_BARE_ID) return false;
  if (hr_p_is_kw(p, "tensor") || hr_p_is_kw(p, "tuple") || hr_p_is_kw(p, "complex")) return true;
  for (size_t i = 0; i < sizeof elem_types / sizeof *elem_types; i++)
    if (hr_tok_is(&p->tok, elem_types[i].name)) return true;
  return is_unsupported_scalar(&p->tok);
}

hr_status hr_p_parse_type(hr_parser *p, hr_type *out) {
  memset(out, 0, sizeof *out);
  hr_token t = p->tok;
  if (t.kind == HR_TOK_BANG_ID) {
    if (t.len == 16 && memcmp(t.text, "!stablehlo.token", 16) == 0) {
      out->kind = HR_TYPE_TOKEN;
      hr_p_next(p);
      return NULL;
    }
    return hr_p_error(p, &t, HR_UNIMPLEMENTED, "type '%.*s' is not supported",
                      (int)(t.len > 40 ? 40 : t.len), t.text);
  }
  if (hr_tok_is(&t, "tensor")) return parse_tensor_type(p, out);
  if (hr_tok_is(&t, "tuple")) return parse_tuple_type(p, out);
  if (hr_tok_is(&t, "vector") || hr_tok_is(&t, "memref") || hr_tok_is(&t, "none") ||
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

/* Appends formatted text to buf at *pos, never overflowing. */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t cap, size_t *pos,
                                                         const char *fmt, ...) {
  if (*pos >= cap) return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf + *pos, cap - *pos, fmt, ap);
  va_end(ap);
  if (n > 0) *pos += (size_t)n < cap - *pos ? (size_t)n : cap - *pos - 1;
}

/* Formats a type into buf at *pos; tuples are shown to a bounded depth. */
static void type_str_at(const hr_type *t, char *buf, size_t cap, size_t *pos, int depth) {
  switch (t->kind) {
    case HR_TYPE_TOKEN: append(buf, cap, pos, "!stablehlo.token"); return;
    case HR_TYPE_TUPLE:
      append(buf, cap, pos, "tuple<");
      for (int i = 0; i < t->n_elems && depth < 8; i++) {
        if (i) append(buf, cap, pos, ", ");
        type_str_at(&t->elems[i], buf, cap, pos, depth + 1);
      }
      append(buf, cap, pos, ">");
      return;
    case HR_TYPE_TENSOR:
      append(buf, cap, pos, "tensor<");
      for (int i = 0; i < t->shape.rank && i < HR_MAX_RANK; i++) {
        if (t->shape.dims[i] < 0)
          append(buf, cap, pos, "?x");
        else
          append(buf, cap, pos, "%lldx", (long long)t->shape.dims[i]);
      }
      append(buf, cap, pos, "%s>", hr_dtype_name(t->dtype));
      return;
  }
}

void hr_p_type_str(const hr_type *t, char *buf, size_t cap) {
  size_t pos = 0;
  if (cap == 0) return;
  buf[0] = '\0';
  type_str_at(t, buf, cap, &pos, 0);
}

/* Parsing of numeric literals, dense<...> element attributes and array<T: ...> dense arrays.
 *
 * A dense literal precedes its type (`dense<[1, 2]> : tensor<2xi32>`), so the parser first skips
 * over the literal to read the type, then rewinds and converts the elements straight into an arena
 * buffer of the right size (hex blobs are decoded in place, without intermediate copies). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/numeric.h"
#include "ir/parse_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* Numbers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */


/* Values of hex digits plus one; zero marks a byte that is not a hex digit. */
static const unsigned char hex_plus_one[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,
    ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
    ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
    ['F'] = 16,
};

int hr_p_hex_value(char c) { return (int)hex_plus_one[(unsigned char)c] - 1; }

hr_status hr_p_int_token(hr_parser *p, const hr_token *t, uint64_t *mag) {
  uint64_t v = 0;
  if (t->len > 2 && t->text[1] == 'x') {
    for (size_t i = 2; i < t->len; i++) {
      if (v >> 60) return hr_p_error(p, t, HR_PARSE_ERROR, "integer literal does not fit 64 bits");
      v = v << 4 | (uint64_t)hr_p_hex_value(t->text[i]);
    }
  } else {
    for (size_t i = 0; i < t->len; i++) {
      uint64_t d = (uint64_t)(t->text[i] - '0');
      if (v > (UINT64_MAX - d) / 10)
        return hr_p_error(p, t, HR_PARSE_ERROR, "integer literal does not fit 64 bits");
      v = v * 10 + d;
    }
  }
  *mag = v;
  return NULL;
}

/* Sign-extends the low `bits` bits of v. */
static int64_t sign_extend(uint64_t v, int bits) {
  if (bits >= 64) return (int64_t)v;
  uint64_t mask = ((uint64_t)1 << bits) - 1, sign = (uint64_t)1 << (bits - 1);
  v &= mask;
  return (int64_t)((v ^ sign) - sign);
}

hr_status hr_p_int_fits(hr_parser *p, const hr_token *at, hr_dtype dtype, bool neg, uint64_t mag,
                        int64_t *out) {
  if (dtype == HR_DTYPE_INVALID) {
    if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
      return hr_p_error(p, at, HR_PARSE_ERROR, "integer value out of the int64 range");
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return NULL;
  }
  int bits = hr_dtype_bits(dtype);
  uint64_t umax = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
  uint64_t neg_max = bits >= 64 ? (uint64_t)1 << 63 : (uint64_t)1 << (bits - 1);
  if (dtype == HR_I1) neg_max = 1;
  if (hr_dtype_is_unsigned_int(dtype)) {
    if (neg && mag)
      return hr_p_error(p, at, HR_PARSE_ERROR, "negative value for unsigned type %s",
                        hr_dtype_name(dtype));
    if (mag > umax)
      return hr_p_error(p, at, HR_PARSE_ERROR, "value out of range for type %s",
                        hr_dtype_name(dtype));
    *out = (int64_t)mag;
    return NULL;
  }
  if (neg ? mag > neg_max : mag > umax)
    return hr_p_error(p, at, HR_PARSE_ERROR, "value out of range for type %s", hr_dtype_name(dtype));
  uint64_t bitsv = neg ? 0 - mag : mag;
  *out = dtype == HR_I1 ? (int64_t)(bitsv & 1) : sign_extend(bitsv, bits);
  return NULL;
}

double hr_p_round_to(hr_dtype dtype, double v) {
  if (dtype == HR_DTYPE_INVALID || dtype == HR_F64) return v;
  return hr_float_from_pattern(dtype, hr_float_to_pattern(dtype, v));
}

hr_status hr_p_float_token(hr_parser *p, const hr_token *t, hr_dtype dtype, bool neg, double *out) {
  char buf[256];
  if (t->len >= sizeof buf) return hr_p_error(p, t, HR_PARSE_ERROR, "numeric literal is too long");
  memcpy(buf, t->text, t->len);
  buf[t->len] = '\0';
  /* Literals always use '.', whatever locale the application has set. */
  if (!p->c_locale) p->c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (!p->c_locale) return hr_p_oom(p);
  /* f32 is converted directly from the decimal text to avoid rounding twice. */
  double v = dtype == HR_F32 ? (double)strtof_l(buf, NULL, p->c_locale)
                             : hr_p_round_to(dtype, strtod_l(buf, NULL, p->c_locale));
  *out = neg ? -v : v;
  return NULL;
}

hr_status hr_p_float_bits(hr_parser *p, const hr_token *at, hr_dtype dtype, uint64_t bits,
                          double *out) {
  int w = dtype == HR_DTYPE_INVALID ? 64 : hr_float_pattern_bits(dtype);
  if (w < 64 && bits >> w)
    return hr_p_error(p, at, HR_PARSE_ERROR, "hexadecimal literal does not fit %d bits", w);
  *out = dtype == HR_DTYPE_INVALID ? hr_bits_f64(bits) : hr_float_from_pattern(dtype, bits);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Scalar elements                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* Writes an integer value of an integer element type in its memory layout. */
static void store_int(hr_dtype dtype, int64_t v, void *dst) {
  switch (hr_dtype_size(dtype)) {
    case 1: *(uint8_t *)dst = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
    default: memcpy(dst, &v, 8); break;
  }
}

/* Writes a float value (or raw bits when `is_bits`) of a real float type. */
static void store_float(hr_dtype dtype, double v, bool is_bits, uint64_t bits, void *dst) {
  if (is_bits) hr_float_store_pattern(dtype, bits, dst);
  else hr_float_store(dtype, v, dst);
}

/* Parses one real float element (`1.5`, `-2`, `0x7FC00000`, `inf`, `-nan`) of type `dtype`. */
static hr_status parse_float_elem(hr_parser *p, hr_dtype dtype, void *dst) {
  hr_token at = p->tok;
  bool neg = hr_p_accept(p, HR_TOK_MINUS);
  hr_token t = p->tok;
  if (t.kind == HR_TOK_INTEGER && t.len > 2 && t.text[1] == 'x') {
    if (neg)
      return hr_p_error(p, &at, HR_PARSE_ERROR, "hexadecimal float literal cannot be negative");
    uint64_t bits;
    double unused;
    HR_TRY(hr_p_int_token(p, &t, &bits));
    HR_TRY(hr_p_float_bits(p, &t, dtype, bits, &unused));
    store_float(dtype, 0, true, bits, dst);
  } else if (t.kind == HR_TOK_INTEGER || t.kind == HR_TOK_FLOAT) {
    double v;
    HR_TRY(hr_p_float_token(p, &t, dtype, neg, &v));
    store_float(dtype, v, false, 0, dst);
  } else if (hr_tok_is(&t, "inf") || hr_tok_is(&t, "nan")) {
    double v = hr_tok_is(&t, "inf") ? INFINITY : NAN;
    store_float(dtype, neg ? -v : v, false, 0, dst);
  } else {
    return hr_p_unexpected(p, "a floating-point value");
  }
  hr_p_next(p);
  return NULL;
}

/* Parses one integer element (`3`, `-1`, `0xFF`, `true`) of integer type `dtype`. */
static hr_status parse_int_elem(hr_parser *p, hr_dtype dtype, int64_t *out) {
  hr_token at = p->tok;
  if (dtype == HR_I1 && (hr_p_is_kw(p, "true") || hr_p_is_kw(p, "false"))) {
    *out = hr_p_is_kw(p, "true");
    hr_p_next(p);
    return NULL;
  }
  bool neg = hr_p_accept(p, HR_TOK_MINUS);
  if (p->tok.kind == HR_TOK_FLOAT)
    return hr_p_error(p, &p->tok, HR_PARSE_ERROR, "floating-point value for integer type %s",
                      hr_dtype_name(dtype));
  if (p->tok.kind != HR_TOK_INTEGER) return hr_p_unexpected(p, "an integer value");
  uint64_t mag;
  HR_TRY(hr_p_int_token(p, &p->tok, &mag));
  HR_TRY(hr_p_int_fits(p, &at, dtype, neg, mag, out));
  hr_p_next(p);
  return NULL;
}

/* Parses one element of any supported element type into `dst`. */
static hr_status parse_elem(hr_parser *p, hr_dtype dtype, void *dst) {
  if (hr_dtype_is_complex(dtype)) {
    hr_dtype part = dtype == HR_C64 ? HR_F32 : HR_F64;
    size_t half = hr_dtype_size(part);
    HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'(' starting a complex value"));
    HR_TRY(parse_float_elem(p, part, dst));
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
    HR_TRY(parse_float_elem(p, part, (char *)dst + half));
    return hr_p_expect(p, HR_TOK_RPAREN, "')'");
  }
  if (hr_dtype_is_real_float(dtype)) return parse_float_elem(p, dtype, dst);
  int64_t v;
  HR_TRY(parse_int_elem(p, dtype, &v));
  store_int(dtype, v, dst);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* dense<...>                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Skips the literal of dense<...> up to and including its closing '>', counting the scalar
 * tokens in it (an upper bound on the number of elements it can hold). */
static hr_status skip_dense_literal(hr_parser *p, size_t *scalars) {
  size_t depth = 0;
  *scalars = 0;
  for (;;) {
    switch (p->tok.kind) {
      case HR_TOK_LSQUARE:
      case HR_TOK_LPAREN: depth++; break;
      case HR_TOK_RSQUARE:
      case HR_TOK_RPAREN:
        if (depth == 0) return hr_p_unexpected(p, "'>' closing the dense literal");
        depth--;
        break;
      case HR_TOK_GREATER:
        if (depth == 0) {
          hr_p_next(p);
          return NULL;
        }
        return hr_p_unexpected(p, "']' or ')'");
      case HR_TOK_INTEGER:
      case HR_TOK_FLOAT:
      case HR_TOK_BARE_ID: (*scalars)++; break;
      case HR_TOK_MINUS:
      case HR_TOK_COMMA:
      case HR_TOK_STRING: break;
      default: return hr_p_unexpected(p, "a dense literal element");
    }
    hr_p_next(p);
  }
}

/* Normalises raw bytes of sub-byte types to the in-memory convention (0/1 for i1, sign- or
 * zero-extended 2- and 4-bit values). */
static void normalise_small_ints(hr_dtype dtype, uint8_t *d, size_t n) {
  int bits = hr_dtype_bits(dtype);
  if (bits >= 8) return;
  for (size_t i = 0; i < n; i++) {
    if (dtype == HR_I1)
      d[i] = d[i] != 0;
    else if (hr_dtype_is_unsigned_int(dtype))
      d[i] &= (uint8_t)((1u << bits) - 1);
    else
      d[i] = (uint8_t)sign_extend(d[i], bits);
  }
}


/* Reads `bytes` bytes of hex digits after "0x" in `t` into `d`. */
static hr_status hex_bytes(hr_parser *p, const hr_token *t, uint8_t *d, size_t bytes) {
  const unsigned char *h = (const unsigned char *)t->text + 3;
  for (size_t i = 0; i < bytes; i++) {
    unsigned hi = hex_plus_one[h[2 * i]], lo = hex_plus_one[h[2 * i + 1]];
    if (!hi || !lo) return hr_p_error(p, t, HR_PARSE_ERROR, "invalid hex digit in dense data");
    d[i] = (uint8_t)((hi - 1) << 4 | (lo - 1));
  }
  return NULL;
}

/* An i1 hex blob as MLIR writes bit-packed booleans: ceil(n / 8) bytes, element i in bit i % 8 of
 * byte i / 8; unpacked into a byte per element. */
static hr_status parse_packed_bools(hr_parser *p, const hr_token *t, hr_attr *a, int64_t n) {
  size_t bytes = ((size_t)n + 7) / 8;
  uint8_t *packed = hr_arena_alloc(&p->scratch, bytes, 16);
  uint8_t *d = hr_arena_alloc(&p->m->arena, (size_t)n, 16);
  if (!packed || !d) return hr_p_oom(p);
  HR_TRY(hex_bytes(p, t, packed, bytes));
  for (int64_t i = 0; i < n; i++) d[i] = (packed[i / 8] >> (i % 8)) & 1;
  a->u.dense.data = d;
  a->u.dense.nbytes = (size_t)n;
  a->u.dense.splat = false;
  return NULL;
}

/* Decodes the hex blob token `t` ("0x...") holding either all elements or one (a splat). */
static hr_status parse_dense_hex(hr_parser *p, const hr_token *t, hr_attr *a, int64_t n) {
  if (t->len < 4 || t->text[1] != '0' || t->text[2] != 'x')
    return hr_p_error(p, t, HR_UNIMPLEMENTED,
                      "string elements are not supported (expected a \"0x...\" hex blob)");
  size_t digits = t->len - 4;
  size_t es = hr_dtype_size(a->u.dense.type.dtype);
  size_t full = (size_t)n * es;
  /* One byte for several i1 elements is a splat (hlorun's printer writes "0x01" for true ones);
   * more bytes, as many as the packed form needs, are MLIR's bit-packed booleans. */
  bool packed = a->u.dense.type.dtype == HR_I1 && n > 1 && digits % 2 == 0 && digits / 2 == ((size_t)n + 7) / 8 &&
                digits / 2 != es;
  if (packed) return parse_packed_bools(p, t, a, n);
  if (digits % 2 != 0 || (digits / 2 != full && digits / 2 != es))
    return hr_p_error(p, t, HR_PARSE_ERROR,
                      "hex data holds %zu bytes, expected %zu (%lld elements of %zu bytes)",
                      digits / 2, full, (long long)n, es);
  size_t bytes = digits / 2;
  uint8_t *d = hr_arena_alloc(&p->m->arena, bytes ? bytes : 1, 16);
  if (!d) return hr_p_oom(p);
  HR_TRY(hex_bytes(p, t, d, bytes));
  normalise_small_ints(a->u.dense.type.dtype, d, bytes);
  a->u.dense.data = d;
  a->u.dense.nbytes = bytes;
  a->u.dense.splat = bytes != full;
  return NULL;
}

/* Parses nested lists for dimensions level.. of the type, writing elements from *index on. */
static hr_status parse_dense_list(hr_parser *p, const hr_type *type, int level, uint8_t *data,
                                  int64_t *index) {
  hr_token open = p->tok;
  if (level >= type->shape.rank)
    return hr_p_error(p, &open, HR_PARSE_ERROR, "dense literal is nested deeper than rank %d",
                      type->shape.rank);
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  int64_t want = type->shape.dims[level], count = 0;
  size_t es = hr_dtype_size(type->dtype);
  if (p->tok.kind != HR_TOK_RSQUARE) {
    for (;;) {
      if (count == want)
        return hr_p_error(p, &p->tok, HR_PARSE_ERROR,
                          "dense literal has more than %lld elements in dimension %d",
                          (long long)want, level);
      if (level + 1 < type->shape.rank) {
        HR_TRY(parse_dense_list(p, type, level + 1, data, index));
      } else if (p->tok.kind == HR_TOK_LSQUARE) {
        return hr_p_error(p, &p->tok, HR_PARSE_ERROR, "dense literal is nested deeper than rank %d",
                          type->shape.rank);
      } else {
        HR_TRY(parse_elem(p, type->dtype, data + (size_t)*index * es));
        (*index)++;
      }
      count++;
      if (!hr_p_accept(p, HR_TOK_COMMA)) break;
    }
  }
  if (count != want)
    return hr_p_error(p, &open, HR_PARSE_ERROR,
                      "dense literal has %lld elements in dimension %d, expected %lld",
                      (long long)count, level, (long long)want);
  return hr_p_expect(p, HR_TOK_RSQUARE, "',' or ']'");
}

/* Parses the literal between `dense<` and `>` for a known type into `a`. */
static hr_status parse_dense_body(hr_parser *p, hr_attr *a, int64_t n) {
  const hr_type *type = &a->u.dense.type;
  size_t es = hr_dtype_size(type->dtype);
  if (p->tok.kind == HR_TOK_GREATER) {
    if (n != 0)
      return hr_p_error(p, &p->tok, HR_PARSE_ERROR, "empty dense literal for %lld elements",
                        (long long)n);
    a->u.dense.data = hr_arena_alloc(&p->m->arena, 1, 16);
    return a->u.dense.data ? NULL : hr_p_oom(p);
  }
  if (p->tok.kind == HR_TOK_STRING) {
    HR_TRY(parse_dense_hex(p, &p->tok, a, n));
    hr_p_next(p);
    return NULL;
  }
  bool list = p->tok.kind == HR_TOK_LSQUARE;
  size_t bytes = list ? (size_t)n * es : es;
  uint8_t *data = hr_arena_alloc(&p->m->arena, bytes ? bytes : 1, 16);
  if (!data) return hr_p_oom(p);
  if (list) {
    int64_t index = 0;
    HR_TRY(parse_dense_list(p, type, 0, data, &index));
  } else {
    HR_TRY(parse_elem(p, type->dtype, data));
  }
  a->u.dense.data = data;
  a->u.dense.nbytes = bytes;
  a->u.dense.splat = !list;
  return NULL;
}

hr_status hr_p_parse_dense(hr_parser *p, hr_attr **out) {
  hr_token start = p->tok;
  hr_p_next(p);
  if (p->tok.kind != HR_TOK_LESS) return hr_p_unexpected(p, "'<' after 'dense'");
  hr_p_next(p);
  hr_token literal = p->tok;
  size_t scalars;
  HR_TRY(skip_dense_literal(p, &scalars));
  HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':' and the type of the dense literal"));
  hr_token type_tok = p->tok;
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_DENSE);
  if (!a) return hr_p_oom(p);
  HR_TRY(hr_p_parse_type(p, &a->u.dense.type));
  const hr_type *type = &a->u.dense.type;
  if (type->kind != HR_TYPE_TENSOR)
    return hr_p_error(p, &type_tok, HR_PARSE_ERROR, "a dense literal needs a tensor type");
  if (!hr_type_is_static(type))
    return hr_p_error(p, &type_tok, HR_PARSE_ERROR, "a dense literal needs a static shape");
  int64_t n;
  hr_status s = hr_shape_num_elements(&type->shape, &n);
  if (s) {
    hr_status_free(s);
    return hr_p_error(p, &type_tok, HR_RESOURCE_EXHAUSTED, "dense literal has too many elements");
  }
  size_t es = hr_dtype_size(type->dtype);
  if ((uint64_t)n > SIZE_MAX / es || (size_t)n * es > p->max_constant_bytes)
    return hr_p_error(p, &start, HR_RESOURCE_EXHAUSTED,
                      "dense constant of %lld elements exceeds the limit of %zu bytes",
                      (long long)n, p->max_constant_bytes);

  /* A list cannot hold more elements than it has scalar tokens: reject before allocating. */
  if (literal.kind == HR_TOK_LSQUARE && (uint64_t)n > scalars)
    return hr_p_error(p, &literal, HR_PARSE_ERROR,
                      "dense literal has at most %zu elements, expected %lld", scalars,
                      (long long)n);
  /* A hex blob (the usual form of large constants) is decoded from the token already read. */
  if (literal.kind == HR_TOK_STRING && literal.text + literal.len < p->lx.src + p->lx.len &&
      literal.text[literal.len] == '>') {
    HR_TRY(parse_dense_hex(p, &literal, a, n));
    *out = a;
    return NULL;
  }
  /* Otherwise convert the literal now that the type is known, then continue after the type. */
  hr_lexer after_lx = p->lx;
  hr_token after_tok = p->tok;
  hr_lexer_rewind(&p->lx, &literal);
  hr_p_next(p);
  HR_TRY(parse_dense_body(p, a, n));
  HR_TRY(hr_p_expect(p, HR_TOK_GREATER, "'>' closing the dense literal"));
  p->lx = after_lx;
  p->tok = after_tok;
  *out = a;
  return NULL;
}

hr_status hr_p_pairs_dense_attr(hr_parser *p, const int64_t *v, size_t n_pairs, hr_attr **out) {
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_DENSE);
  if (!a) return hr_p_oom(p);
  int64_t dims[2] = {(int64_t)n_pairs, 2};
  a->u.dense.type = hr_tensor_type(HR_I64, 2, dims);
  size_t bytes = n_pairs * 2 * sizeof(int64_t);
  int64_t *data = hr_arena_alloc(&p->m->arena, bytes ? bytes : 1, 16);
  if (!data) return hr_p_oom(p);
  if (bytes) memcpy(data, v, bytes);
  a->u.dense.data = data;
  a->u.dense.nbytes = bytes;
  *out = a;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* array<T: ...>                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_p_parse_dense_array(hr_parser *p, hr_attr **out) {
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_LESS, "'<' after 'array'"));
  hr_token type_tok = p->tok;
  hr_dtype dtype;
  HR_TRY(hr_p_parse_elem_type(p, &dtype));
  if (hr_dtype_is_complex(dtype))
    return hr_p_error(p, &type_tok, HR_UNIMPLEMENTED, "complex dense arrays are not supported");
  bool is_float = hr_dtype_is_real_float(dtype);
  hr_pvec ints = {0}, floats = {0};
  if (!hr_p_accept(p, HR_TOK_GREATER)) {
    HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':' or '>'"));
    for (;;) {
      if (is_float) {
        uint8_t raw[8];
        HR_TRY(parse_float_elem(p, dtype, raw));
        double v = hr_float_load(dtype, raw);
        HR_TRY(hr_pvec_push(p, &floats, &v, sizeof v));
      } else {
        int64_t v;
        HR_TRY(parse_int_elem(p, dtype, &v));
        HR_TRY(hr_pvec_push(p, &ints, &v, sizeof v));
      }
      if (hr_p_accept(p, HR_TOK_GREATER)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or '>'"));
    }
  }
  hr_attr *a = hr_attr_new(p->m, HR_ATTR_DENSE_ARRAY);
  if (!a) return hr_p_oom(p);
  a->u.dense_array.dtype = dtype;
  const hr_pvec *v = is_float ? &floats : &ints;
  a->u.dense_array.n = (int64_t)v->len;
  /* The element array is never NULL, so an empty array still says which kind it holds. */
  void *data = hr_arena_calloc(&p->m->arena, v->len ? v->len : 1, 8, 8);
  if (!data) return hr_p_oom(p);
  if (v->len) memcpy(data, v->data, v->len * 8);
  if (is_float)
    a->u.dense_array.floats = data;
  else
    a->u.dense_array.ints = data;
  *out = a;
  return NULL;
}

/* Parsing of the custom ("pretty") op forms that stablehlo-opt and JAX print, following the
 * assembly formats of StableHLO (StablehloOps.td, AssemblyFormat.cpp), CHLO and func. Every form
 * stores its attributes under the generic (MLIR property) names, so that the pretty and generic
 * spellings of an op parse to equal attributes. */
#include <string.h>

#include "ir/chlo.h"
#include "ir/parse_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* Type signatures                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* How an op's trailing `: ...` type signature relates to its operands and results. */
typedef enum sig_kind {
  SIG_FUNC,     /* (operand types) -> result types */
  SIG_SAME,     /* T (all operands and the result), or a function type */
  SIG_RESULT,   /* T: the single result (no operands) */
  SIG_SELECT,   /* pred_type, T  or a function type */
  SIG_COMPLEX,  /* complex result type (operands are its real parts), or a function type */
  SIG_TUPLE,    /* tuple<...>: the result; operands are the elements */
  SIG_PAIRWISE, /* T1, T2, ...: operand i and result i have type Ti */
  SIG_OPERANDS, /* T (every operand) or T1, T2, ... (operand i): no results (the check ops) */
} sig_kind;

/* Checks a function-type signature against the operands and takes its results. */
static hr_status apply_func_sig(hr_parser *p, hr_op_builder *b, const hr_sig *sig) {
  if (!sig->is_func) return hr_p_error(p, &sig->at, HR_PARSE_ERROR, "expected a function type");
  HR_TRY(hr_p_check_operand_types(p, b, sig->ins.data, sig->ins.len, &sig->at));
  return hr_p_set_results(p, b, sig->outs.data, sig->outs.len);
}

/* Expects exactly one plain type in a non-function signature. */
static hr_status single_type(hr_parser *p, const hr_sig *sig, const hr_type **out) {
  if (sig->is_func || sig->ins.len != 1)
    return hr_p_error(p, &sig->at, HR_PARSE_ERROR, "expected a single type");
  *out = sig->ins.data;
  return NULL;
}

/* Checks that every operand has type `t`. */
static hr_status all_operands_have(hr_parser *p, hr_op_builder *b, const hr_type *t,
                                   const hr_token *at) {
  for (size_t i = 0; i < b->operands.len; i++) HR_TRY(hr_p_check_operand_type(p, b, i, t, at));
  return NULL;
}

/* The real tensor type whose complex counterpart is `t`. */
static hr_status real_part_type(hr_parser *p, const hr_sig *sig, const hr_type *t, hr_type *out) {
  if (t->kind != HR_TYPE_TENSOR || !hr_dtype_is_complex(t->dtype))
    return hr_p_error(p, &sig->at, HR_PARSE_ERROR, "expected a tensor with complex elements");
  *out = *t;
  out->dtype = t->dtype == HR_C64 ? HR_F32 : HR_F64;
  return NULL;
}

/* Parses `: signature` and applies it to the op according to `kind`. */
static hr_status parse_and_apply_sig(hr_parser *p, hr_op_builder *b, sig_kind kind) {
  HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':' and the operation's type"));
  hr_sig sig;
  HR_TRY(hr_p_parse_sig(p, &sig));
  if (sig.is_func && kind != SIG_RESULT && kind != SIG_TUPLE && kind != SIG_PAIRWISE && kind != SIG_OPERANDS)
    return apply_func_sig(p, b, &sig);
  const hr_type *t = NULL;
  switch (kind) {
    case SIG_FUNC: return apply_func_sig(p, b, &sig);
    case SIG_SAME:
      HR_TRY(single_type(p, &sig, &t));
      HR_TRY(all_operands_have(p, b, t, &sig.at));
      return hr_p_set_results(p, b, t, 1);
    case SIG_RESULT:
      HR_TRY(single_type(p, &sig, &t));
      return hr_p_set_results(p, b, t, 1);
    case SIG_SELECT: {
      if (sig.ins.len != 2)
        return hr_p_error(p, &sig.at, HR_PARSE_ERROR,
                          "expected 'pred_type, result_type' or a function type");
      const hr_type *ts = sig.ins.data;
      hr_type want[3] = {ts[0], ts[1], ts[1]};
      HR_TRY(hr_p_check_operand_types(p, b, want, 3, &sig.at));
      return hr_p_set_results(p, b, &ts[1], 1);
    }
    case SIG_COMPLEX: {
      HR_TRY(single_type(p, &sig, &t));
      hr_type real;
      HR_TRY(real_part_type(p, &sig, t, &real));
      hr_type want[2] = {real, real};
      HR_TRY(hr_p_check_operand_types(p, b, want, 2, &sig.at));
      return hr_p_set_results(p, b, t, 1);
    }
    case SIG_TUPLE:
      HR_TRY(single_type(p, &sig, &t));
      if (t->kind != HR_TYPE_TUPLE)
        return hr_p_error(p, &sig.at, HR_PARSE_ERROR, "expected a tuple type");
      HR_TRY(hr_p_check_operand_types(p, b, t->elems, (size_t)t->n_elems, &sig.at));
      return hr_p_set_results(p, b, t, 1);
    case SIG_PAIRWISE:
      if (sig.is_func) return hr_p_error(p, &sig.at, HR_PARSE_ERROR, "expected a list of types");
      HR_TRY(hr_p_check_operand_types(p, b, sig.ins.data, sig.ins.len, &sig.at));
      return hr_p_set_results(p, b, sig.ins.data, sig.ins.len);
    case SIG_OPERANDS:
      if (sig.is_func) return hr_p_error(p, &sig.at, HR_PARSE_ERROR, "expected a list of types");
      if (sig.ins.len == 1) return all_operands_have(p, b, sig.ins.data, &sig.at);
      return hr_p_check_operand_types(p, b, sig.ins.data, sig.ins.len, &sig.at);
  }
  return NULL;
}

/* The common tail of most forms: `attr-dict : signature`. */
static hr_status finish_form(hr_parser *p, hr_op_builder *b, sig_kind kind) {
  HR_TRY(hr_p_opt_attr_dict(p, b));
  return parse_and_apply_sig(p, b, kind);
}

/* `operands attr-dict : signature` */
static hr_status parse_operands_form(hr_parser *p, hr_op_builder *b, sig_kind kind) {
  HR_TRY(hr_p_add_operand_list(p, b));
  return finish_form(p, b, kind);
}

/* ---------------------------------------------------------------------------------------------- */
/* Attribute values of custom forms                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* `[1, 2, 3]` as a DENSE_ARRAY of i64 (MLIR's DenseI64ArrayAttr). */
static hr_status parse_i64_array(hr_parser *p, hr_attr **out) {
  hr_pvec v = {0};
  HR_TRY(hr_p_parse_int_list(p, &v));
  *out = hr_p_i64_array_attr(p, v.data, v.len);
  return *out ? NULL : hr_p_oom(p);
}

/* An integer literal as a typed INT attribute. */
static hr_status parse_typed_int(hr_parser *p, hr_dtype dtype, hr_attr **out) {
  hr_token at = p->tok;
  int64_t v;
  HR_TRY(hr_p_parse_int(p, &v));
  if ((dtype == HR_I32 && (v < INT32_MIN || v > INT32_MAX)))
    return hr_p_error(p, &at, HR_PARSE_ERROR, "value out of range for i32");
  *out = hr_p_int_attr(p, v, dtype);
  return *out ? NULL : hr_p_oom(p);
}

/* A bare enum value (`LT`, `DEFAULT`) as an ENUM attribute of the stablehlo dialect. */
static hr_status parse_enum_value(hr_parser *p, const char *enum_name, hr_attr **out) {
  hr_token v = p->tok;
  if (v.kind != HR_TOK_BARE_ID) return hr_p_unexpected(p, "an enum value");
  hr_p_next(p);
  return hr_p_enum_attr(p, &v, "stablehlo", enum_name, &v, out);
}

/* `true` / `false` as a BOOL attribute. */
static hr_status parse_bool(hr_parser *p, hr_attr **out) {
  if (!hr_p_is_kw(p, "true") && !hr_p_is_kw(p, "false")) return hr_p_unexpected(p, "true or false");
  *out = hr_attr_new(p->m, HR_ATTR_BOOL);
  if (!*out) return hr_p_oom(p);
  (*out)->u.b = hr_p_is_kw(p, "true");
  hr_p_next(p);
  return NULL;
}

/* A number without a type (`0.1`, `1`) as a FLOAT attribute of type f64 (MLIR's F64Attr). */
static hr_status parse_f64(hr_parser *p, hr_attr **out) {
  bool neg = hr_p_accept(p, HR_TOK_MINUS);
  hr_token lit = p->tok;
  if (lit.kind != HR_TOK_INTEGER && lit.kind != HR_TOK_FLOAT) return hr_p_unexpected(p, "a number");
  double v;
  HR_TRY(hr_p_float_token(p, &lit, HR_F64, neg, &v));
  hr_p_next(p);
  *out = hr_attr_new(p->m, HR_ATTR_FLOAT);
  if (!*out) return hr_p_oom(p);
  (*out)->u.f.value = v;
  (*out)->u.f.dtype = HR_F64;
  return NULL;
}

/* A string literal as a STRING attribute. */
static hr_status parse_string(hr_parser *p, hr_attr **out) {
  if (p->tok.kind != HR_TOK_STRING) return hr_p_unexpected(p, "a string");
  const char *s;
  size_t len;
  HR_TRY(hr_p_decode_string(p, &p->tok, &s, &len));
  hr_p_next(p);
  *out = hr_p_string_attr(p, s, len, HR_ATTR_STRING);
  return *out ? NULL : hr_p_oom(p);
}

/* `e5m10` into exponent_bits and mantissa_bits (reduce_precision). */
static hr_status parse_exp_mantissa(hr_parser *p, hr_op_builder *b) {
  hr_token t = p->tok;
  int64_t e = 0, m = 0;
  size_t i = 1;
  bool ok = t.kind == HR_TOK_BARE_ID && t.len >= 4 && t.text[0] == 'e';
  int64_t *dst = &e;
  int digits = 0;
  for (; ok && i < t.len; i++) {
    char c = t.text[i];
    if (c == 'm' && dst == &e && digits) {
      dst = &m;
      digits = 0;
    } else if (c >= '0' && c <= '9' && digits < 9) {
      *dst = *dst * 10 + (c - '0');
      digits++;
    } else {
      ok = false;
    }
  }
  if (!ok || dst != &m || !digits)
    return hr_p_error(p, &t, HR_PARSE_ERROR, "expected exponent and mantissa bits as e#m#");
  hr_p_next(p);
  HR_TRY(hr_p_add_op_attr(p, b, "exponent_bits", hr_p_int_attr(p, e, HR_I32), &t));
  return hr_p_add_op_attr(p, b, "mantissa_bits", hr_p_int_attr(p, m, HR_I32), &t);
}

/* `precision = [DEFAULT, HIGHEST]` as precision_config: an ARRAY of precision ENUMs. */
static hr_status parse_precision(hr_parser *p, hr_op_builder *b) {
  hr_token at = p->tok;
  HR_TRY(hr_p_expect_kw(p, "precision"));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  hr_pvec items = {0};
  if (!hr_p_accept(p, HR_TOK_RSQUARE)) {
    for (;;) {
      hr_attr *e;
      HR_TRY(parse_enum_value(p, "precision", &e));
      HR_TRY(hr_pvec_push(p, &items, &e, sizeof e));
      if (hr_p_accept(p, HR_TOK_RSQUARE)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
    }
  }
  hr_attr *arr = hr_attr_new(p->m, HR_ATTR_ARRAY);
  if (!arr || items.len > 64) return arr ? hr_p_error(p, &at, HR_PARSE_ERROR, "too many precisions")
                                         : hr_p_oom(p);
  void *data;
  HR_TRY(hr_pvec_export(p, &items, sizeof(hr_attr *), _Alignof(hr_attr *), &data));
  arr->u.array.n = (int)items.len;
  arr->u.array.items = data;
  return hr_p_add_op_attr(p, b, "precision_config", arr, &at);
}

/* ---------------------------------------------------------------------------------------------- */
/* Keyword-clause forms: `operands, kw = value, ... attr-dict : signature`                         */
/* ---------------------------------------------------------------------------------------------- */

typedef enum clause_kind {
  CL_I64_ARRAY, /* [1, 2] -> DENSE_ARRAY i64 */
  CL_I64,       /* 3 -> INT i64 */
  CL_U64,       /* 3 -> INT ui64 */
  CL_U32,       /* 3 -> INT ui32 */
  CL_F64,       /* 0.1 -> FLOAT f64 */
  CL_BOOL,      /* true -> BOOL */
  CL_ENUM,      /* NAME -> ENUM */
  CL_STRING,    /* "..." -> STRING */
  CL_EXP_MANT,  /* e5m10 -> exponent_bits, mantissa_bits */
} clause_kind;

typedef struct clause {
  const char *keyword;
  const char *attr;      /* generic attribute name (or enum name for CL_ENUM, see enum_name) */
  clause_kind kind;
  const char *enum_name; /* CL_ENUM */
  bool optional;
} clause;

typedef struct clause_form {
  hr_opcode code;
  sig_kind sig;
  clause clauses[3];
} clause_form;

/* check.expect_almost_eq*'s optional `, tolerance = 0.1`. */
#define TOLERANCE_CLAUSE {"tolerance", "tolerance", CL_F64, NULL, true}

static const clause_form clause_forms[] = {
    {HR_OP_BROADCAST, SIG_FUNC, {{"sizes", "broadcast_sizes", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_BROADCAST_IN_DIM, SIG_FUNC,
     {{"dims", "broadcast_dimensions", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_DYNAMIC_BROADCAST_IN_DIM, SIG_FUNC,
     {{"dims", "broadcast_dimensions", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_TRANSPOSE, SIG_FUNC, {{"dims", "permutation", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_REVERSE, SIG_SAME, {{"dims", "dimensions", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_CONCATENATE, SIG_FUNC, {{"dim", "dimension", CL_I64, NULL, false}}},
    {HR_OP_PAD, SIG_FUNC,
     {{"low", "edge_padding_low", CL_I64_ARRAY, NULL, false},
      {"high", "edge_padding_high", CL_I64_ARRAY, NULL, false},
      {"interior", "interior_padding", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_DYNAMIC_SLICE, SIG_FUNC, {{"sizes", "slice_sizes", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_GET_DIMENSION_SIZE, SIG_FUNC, {{"dim", "dimension", CL_I64, NULL, false}}},
    {HR_OP_SET_DIMENSION_SIZE, SIG_FUNC, {{"dim", "dimension", CL_I64, NULL, false}}},
    {HR_OP_DYNAMIC_IOTA, SIG_FUNC, {{"dim", "iota_dimension", CL_I64, NULL, false}}},
    {HR_OP_IOTA, SIG_RESULT, {{"dim", "iota_dimension", CL_I64, NULL, false}}},
    {HR_OP_FFT, SIG_FUNC,
     {{"type", "fft_type", CL_ENUM, "fft_type", false},
      {"length", "fft_length", CL_I64_ARRAY, NULL, false}}},
    {HR_OP_RNG, SIG_FUNC,
     {{"distribution", "rng_distribution", CL_ENUM, "rng_distribution", false}}},
    {HR_OP_RNG_BIT_GENERATOR, SIG_FUNC,
     {{"algorithm", "rng_algorithm", CL_ENUM, "rng_algorithm", false}}},
    {HR_OP_EINSUM, SIG_FUNC, {{"config", "einsum_config", CL_STRING, NULL, false}}},
    {HR_OP_UNARY_EINSUM, SIG_FUNC, {{"config", "einsum_config", CL_STRING, NULL, false}}},
    {HR_OP_CHOLESKY, SIG_SAME, {{"lower", "lower", CL_BOOL, NULL, true}}},
    {HR_OP_REDUCE_PRECISION, SIG_SAME, {{"format", NULL, CL_EXP_MANT, NULL, false}}},
    {.code = HR_OP_CHECK_EXPECT_EQ, .sig = SIG_OPERANDS},
    {HR_OP_CHECK_EXPECT_ALMOST_EQ, SIG_OPERANDS, {TOLERANCE_CLAUSE}},
    {HR_OP_CHECK_EXPECT_CLOSE, SIG_OPERANDS,
     {{"max_ulp_difference", "max_ulp_difference", CL_U64, NULL, false},
      {"min_ulp_difference", "min_ulp_difference", CL_U64, NULL, true}}},
    {HR_OP_CHECK_EXPECT_SERIALIZED_EQ, SIG_OPERANDS,
     {{"probe_id", "probe_id", CL_STRING, NULL, false}, {"iter", "iteration", CL_U32, NULL, true}}},
    {.code = HR_OP_INTERPRETER_PRINT, .sig = SIG_OPERANDS},
    {HR_OP_INTERPRETER_PROBE, SIG_SAME, {{"probe_id", "probe_id", CL_STRING, NULL, false}}},
};

/* Whether the tokens ahead are `, keyword` (for optional clauses). */
static bool comma_then_keyword(hr_parser *p, const char *keyword) {
  if (p->tok.kind != HR_TOK_COMMA) return false;
  hr_token t = hr_p_peek(p);
  return hr_tok_is(&t, keyword);
}

/* Parses one `keyword = value` clause into the op's attributes. */
static hr_status parse_clause(hr_parser *p, hr_op_builder *b, const clause *c) {
  hr_token at = p->tok;
  HR_TRY(hr_p_expect_kw(p, c->keyword));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  hr_attr *v = NULL;
  switch (c->kind) {
    case CL_I64_ARRAY: HR_TRY(parse_i64_array(p, &v)); break;
    case CL_I64: HR_TRY(parse_typed_int(p, HR_I64, &v)); break;
    case CL_U64: HR_TRY(parse_typed_int(p, HR_U64, &v)); break;
    case CL_U32: HR_TRY(parse_typed_int(p, HR_U32, &v)); break;
    case CL_F64: HR_TRY(parse_f64(p, &v)); break;
    case CL_BOOL: HR_TRY(parse_bool(p, &v)); break;
    case CL_ENUM: HR_TRY(parse_enum_value(p, c->enum_name, &v)); break;
    case CL_STRING: HR_TRY(parse_string(p, &v)); break;
    case CL_EXP_MANT: return parse_exp_mantissa(p, b);
  }
  return hr_p_add_op_attr(p, b, c->attr, v, &at);
}

/* Parses `operands[, kw = value]... attr-dict : signature` following a clause table entry. */
static hr_status parse_clause_form(hr_parser *p, hr_op_builder *b, const clause_form *f) {
  HR_TRY(hr_p_add_operand_list(p, b));
  bool need_comma = b->operands.len > 0;
  for (int i = 0; i < 3 && f->clauses[i].keyword; i++) {
    const clause *c = &f->clauses[i];
    if (c->optional) {
      if (!comma_then_keyword(p, c->keyword)) continue;
      hr_p_next(p);
    } else if (need_comma) {
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
    }
    HR_TRY(parse_clause(p, b, c));
    need_comma = true;
  }
  return finish_form(p, b, f->sig);
}

/* ---------------------------------------------------------------------------------------------- */
/* Individual forms                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* stablehlo.compare LT, %a, %b[, FLOAT] attr-dict : (T, T) -> U */
static hr_status parse_compare(hr_parser *p, hr_op_builder *b) {
  hr_token at = p->tok;
  hr_attr *dir, *type;
  HR_TRY(parse_enum_value(p, "comparison_direction", &dir));
  HR_TRY(hr_p_add_op_attr(p, b, "comparison_direction", dir, &at));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  HR_TRY(hr_p_add_operand(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  HR_TRY(hr_p_add_operand(p, b));
  if (hr_p_accept(p, HR_TOK_COMMA)) {
    at = p->tok;
    HR_TRY(parse_enum_value(p, "comparison_type", &type));
    HR_TRY(hr_p_add_op_attr(p, b, "compare_type", type, &at));
  }
  return finish_form(p, b, SIG_FUNC);
}

/* stablehlo.slice %x [0:2, 1:5:2] attr-dict : (T) -> U */
static hr_status parse_slice(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_add_operand(p, b));
  hr_token at = p->tok;
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'[' starting the slice ranges"));
  hr_pvec start = {0}, limit = {0}, stride = {0};
  if (!hr_p_accept(p, HR_TOK_RSQUARE)) {
    for (;;) {
      int64_t s, l, st = 1;
      HR_TRY(hr_p_parse_int(p, &s));
      HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
      HR_TRY(hr_p_parse_int(p, &l));
      if (hr_p_accept(p, HR_TOK_COLON)) HR_TRY(hr_p_parse_int(p, &st));
      HR_TRY(hr_pvec_push(p, &start, &s, sizeof s));
      HR_TRY(hr_pvec_push(p, &limit, &l, sizeof l));
      HR_TRY(hr_pvec_push(p, &stride, &st, sizeof st));
      if (hr_p_accept(p, HR_TOK_RSQUARE)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
    }
  }
  hr_attr *starts = hr_p_i64_array_attr(p, start.data, start.len);
  hr_attr *limits = hr_p_i64_array_attr(p, limit.data, limit.len);
  hr_attr *strides = hr_p_i64_array_attr(p, stride.data, stride.len);
  HR_TRY(hr_p_add_op_attr(p, b, "start_indices", starts, &at));
  HR_TRY(hr_p_add_op_attr(p, b, "limit_indices", limits, &at));
  HR_TRY(hr_p_add_op_attr(p, b, "strides", strides, &at));
  return finish_form(p, b, SIG_FUNC);
}

/* stablehlo.dot %a, %b[, precision = [...]] attr-dict : (T, U) -> V */
static hr_status parse_dot(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_add_operand(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  HR_TRY(hr_p_add_operand(p, b));
  if (hr_p_accept(p, HR_TOK_COMMA)) HR_TRY(parse_precision(p, b));
  return finish_form(p, b, SIG_FUNC);
}

/* Parses `[..] x [..]` into two untyped integer lists. */
static hr_status parse_dims_pair(hr_parser *p, hr_attr **lhs, hr_attr **rhs) {
  hr_pvec l = {0}, r = {0};
  HR_TRY(hr_p_parse_int_list(p, &l));
  HR_TRY(hr_p_expect_kw(p, "x"));
  HR_TRY(hr_p_parse_int_list(p, &r));
  *lhs = hr_p_untyped_int_list_attr(p, l.data, l.len);
  *rhs = hr_p_untyped_int_list_attr(p, r.data, r.len);
  return *lhs && *rhs ? NULL : hr_p_oom(p);
}

/* stablehlo.dot_general %a, %b, [batching_dims = [..] x [..],] contracting_dims = [..] x [..]
 *   [, precision = [...]] [, algorithm = <...>] attr-dict : (T, U) -> V */
static hr_status parse_dot_general(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_add_operand(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  HR_TRY(hr_p_add_operand(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  hr_token at = p->tok;
  hr_pvec fields = {0};
  hr_attr *l, *r;
  if (hr_p_accept_kw(p, "batching_dims")) {
    HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
    HR_TRY(parse_dims_pair(p, &l, &r));
    HR_TRY(hr_p_add_attr(p, &fields, "lhs_batching_dimensions", l, &at));
    HR_TRY(hr_p_add_attr(p, &fields, "rhs_batching_dimensions", r, &at));
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  }
  HR_TRY(hr_p_expect_kw(p, "contracting_dims"));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  HR_TRY(parse_dims_pair(p, &l, &r));
  HR_TRY(hr_p_add_attr(p, &fields, "lhs_contracting_dimensions", l, &at));
  HR_TRY(hr_p_add_attr(p, &fields, "rhs_contracting_dimensions", r, &at));
  hr_attr *dims;
  HR_TRY(hr_p_canonical_struct(p, &at, "stablehlo.dot", &fields, &dims));
  HR_TRY(hr_p_add_op_attr(p, b, "dot_dimension_numbers", dims, &at));
  if (hr_p_accept(p, HR_TOK_COMMA)) {
    if (!hr_p_is_kw(p, "algorithm")) {
      HR_TRY(parse_precision(p, b));
      if (!hr_p_accept(p, HR_TOK_COMMA)) return finish_form(p, b, SIG_FUNC);
    }
    hr_token alg = p->tok;
    HR_TRY(hr_p_expect_kw(p, "algorithm"));
    HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
    HR_TRY(hr_p_expect(p, HR_TOK_LESS, "'<'"));
    hr_attr *a;
    HR_TRY(hr_p_parse_struct_body(p, &alg, "stablehlo.dot_algorithm", &a));
    HR_TRY(hr_p_add_op_attr(p, b, "algorithm", a, &alg));
  }
  return finish_form(p, b, SIG_FUNC);
}

/* Parses `[[lo, hi], ...]` into window padding. */
static hr_status parse_window_pad(hr_parser *p, hr_attr **out) {
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  hr_pvec v = {0};
  if (!hr_p_accept(p, HR_TOK_RSQUARE)) {
    for (;;) {
      hr_token at = p->tok;
      size_t before = v.len;
      HR_TRY(hr_p_parse_int_list(p, &v));
      if (v.len - before != 2)
        return hr_p_error(p, &at, HR_PARSE_ERROR, "expected a pair [low, high]");
      if (hr_p_accept(p, HR_TOK_RSQUARE)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
    }
  }
  return hr_p_pairs_dense_attr(p, v.data, v.len / 2, out);
}

/* Parses `[true, false]` / `[1, 0]` into window_reversal. */
static hr_status parse_window_reverse(hr_parser *p, hr_attr **out) {
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  hr_pvec v = {0};
  if (!hr_p_accept(p, HR_TOK_RSQUARE)) {
    for (;;) {
      hr_token at = p->tok;
      int64_t x;
      if (hr_p_accept_kw(p, "true")) {
        x = 1;
      } else if (hr_p_accept_kw(p, "false")) {
        x = 0;
      } else {
        HR_TRY(hr_p_parse_int(p, &x));
        if (x != 0 && x != 1) return hr_p_error(p, &at, HR_PARSE_ERROR, "expected 0 or 1");
      }
      HR_TRY(hr_pvec_push(p, &v, &x, sizeof x));
      if (hr_p_accept(p, HR_TOK_RSQUARE)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
    }
  }
  *out = hr_p_bool_array_attr(p, v.data, v.len);
  return *out ? NULL : hr_p_oom(p);
}

/* Parses `{stride = [..], pad = [[..]], lhs_dilate = [..], rhs_dilate = [..], reverse = [..]}`. */
static hr_status parse_window(hr_parser *p, hr_op_builder *b) {
  static const char *const keys[5] = {"stride", "pad", "lhs_dilate", "rhs_dilate", "reverse"};
  static const char *const names[5] = {"window_strides", "padding", "lhs_dilation", "rhs_dilation",
                                       "window_reversal"};
  HR_TRY(hr_p_expect(p, HR_TOK_LBRACE, "'{' starting the window"));
  if (hr_p_accept(p, HR_TOK_RBRACE)) return NULL;
  for (;;) {
    hr_token at = p->tok;
    int k = 0;
    while (k < 5 && !hr_tok_is(&at, keys[k])) k++;
    if (k == 5) return hr_p_unexpected(p, "stride, pad, lhs_dilate, rhs_dilate or reverse");
    hr_p_next(p);
    HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
    hr_attr *v;
    if (k == 1)
      HR_TRY(parse_window_pad(p, &v));
    else if (k == 4)
      HR_TRY(parse_window_reverse(p, &v));
    else
      HR_TRY(parse_i64_array(p, &v));
    HR_TRY(hr_p_add_op_attr(p, b, names[k], v, &at));
    if (hr_p_accept(p, HR_TOK_RBRACE)) return NULL;
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or '}'"));
  }
}

/* stablehlo.convolution(%a, %b) dim_numbers = [..]x[..]->[..], window = {...} attr-dict : sig */
static hr_status parse_convolution(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  HR_TRY(hr_p_add_operand_list(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  hr_token at = p->tok;
  HR_TRY(hr_p_expect_kw(p, "dim_numbers"));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  hr_attr *dims;
  HR_TRY(hr_p_parse_conv_dims(p, &dims));
  HR_TRY(hr_p_add_op_attr(p, b, "dimension_numbers", dims, &at));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  HR_TRY(hr_p_expect_kw(p, "window"));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  HR_TRY(parse_window(p, b));
  return finish_form(p, b, SIG_FUNC);
}

/* Reads `@name` into a module string attribute of the given kind. */
static hr_status parse_symbol(hr_parser *p, hr_attr_kind kind, hr_attr **out) {
  hr_token t = p->tok;
  if (t.kind != HR_TOK_SYMBOL) return hr_p_unexpected(p, "a symbol (@name)");
  const char *s;
  size_t len;
  if (t.text[1] == '"') {
    hr_token quoted = t;
    quoted.text++;
    quoted.len--;
    HR_TRY(hr_p_decode_string(p, &quoted, &s, &len));
  } else {
    len = t.len - 1;
    s = hr_p_strdup(p, t.text + 1, len);
    if (!s) return hr_p_oom(p);
  }
  hr_p_next(p);
  *out = hr_p_string_attr(p, s, len, kind);
  return *out ? NULL : hr_p_oom(p);
}

/* stablehlo.custom_call @target(%a, ...) attr-dict : sig   and   call @f(%a, ...) : sig */
static hr_status parse_call_like(hr_parser *p, hr_op_builder *b, const char *attr,
                                 hr_attr_kind kind) {
  hr_token at = p->tok;
  hr_attr *target;
  HR_TRY(parse_symbol(p, kind, &target));
  HR_TRY(hr_p_add_op_attr(p, b, attr, target, &at));
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  HR_TRY(hr_p_add_operand_list(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  return finish_form(p, b, SIG_FUNC);
}

/* return / stablehlo.return: `%a, %b attr-dict : T, U` or nothing. */
static hr_status parse_return(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_add_operand_list(p, b));
  HR_TRY(hr_p_opt_attr_dict(p, b));
  if (b->operands.len == 0 && p->tok.kind != HR_TOK_COLON) return NULL;
  HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':' and the returned types"));
  hr_sig sig;
  HR_TRY(hr_p_parse_sig(p, &sig));
  if (sig.is_func) return hr_p_error(p, &sig.at, HR_PARSE_ERROR, "expected a list of types");
  return hr_p_check_operand_types(p, b, sig.ins.data, sig.ins.len, &sig.at);
}

/* stablehlo.constant [attr-dict] dense<...> : T, or the form `() <{value = ...}> : () -> T`. */
static hr_status parse_constant(hr_parser *p, hr_op_builder *b) {
  if (hr_p_accept(p, HR_TOK_LPAREN)) {
    HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
    if (hr_p_accept(p, HR_TOK_LESS)) {
      HR_TRY(hr_p_parse_attr_dict(p, &b->attrs));
      HR_TRY(hr_p_expect(p, HR_TOK_GREATER, "'>'"));
    }
    return finish_form(p, b, SIG_FUNC);
  }
  HR_TRY(hr_p_opt_attr_dict(p, b));
  hr_token at = p->tok;
  hr_attr *value;
  HR_TRY(hr_p_parse_attr(p, &value));
  if (value->kind != HR_ATTR_DENSE)
    return hr_p_error(p, &at, HR_PARSE_ERROR, "expected a dense<...> constant value");
  HR_TRY(hr_p_add_op_attr(p, b, "value", value, &at));
  return hr_p_set_results(p, b, &value->u.dense.type, 1);
}

/* check.expect_eq_const / expect_almost_eq_const %x, dense<...> : T[, tolerance = t] attr-dict:
 * the operand has the constant's type. */
static hr_status parse_check_const(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_add_operand(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  hr_token at = p->tok;
  hr_attr *value;
  HR_TRY(hr_p_parse_attr(p, &value));
  if (value->kind != HR_ATTR_DENSE) return hr_p_error(p, &at, HR_PARSE_ERROR, "expected a dense<...> value");
  HR_TRY(hr_p_check_operand_type(p, b, 0, &value->u.dense.type, &at));
  HR_TRY(hr_p_add_op_attr(p, b, "value", value, &at));
  static const clause tolerance = TOLERANCE_CLAUSE;
  if (b->op->code == HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST && comma_then_keyword(p, "tolerance")) {
    hr_p_next(p);
    HR_TRY(parse_clause(p, b, &tolerance));
  }
  return hr_p_opt_attr_dict(p, b);
}

/* stablehlo.get_tuple_element %t[i] attr-dict : (T) -> U */
static hr_status parse_get_tuple_element(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_add_operand(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  hr_token at = p->tok;
  hr_attr *index;
  HR_TRY(parse_typed_int(p, HR_I32, &index));
  HR_TRY(hr_p_add_op_attr(p, b, "index", index, &at));
  HR_TRY(hr_p_expect(p, HR_TOK_RSQUARE, "']'"));
  return finish_form(p, b, SIG_FUNC);
}

/* stablehlo.optimization_barrier attr-dict (%a, %b : T, U | ()) */
static hr_status parse_optimization_barrier(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_opt_attr_dict(p, b));
  if (hr_p_accept(p, HR_TOK_LPAREN)) return hr_p_expect(p, HR_TOK_RPAREN, "')'");
  HR_TRY(hr_p_add_operand_list(p, b));
  if (b->operands.len == 0) return hr_p_unexpected(p, "operands or '()'");
  return parse_and_apply_sig(p, b, SIG_PAIRWISE);
}

/* stablehlo.while(%iterArg = %init, ...) : T, ... [attributes {...}] cond { ... } do { ... } */
static hr_status parse_while(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  hr_pvec args = {0};
  if (!hr_p_accept(p, HR_TOK_RPAREN)) {
    for (;;) {
      hr_region_arg a;
      memset(&a, 0, sizeof a);
      a.name = p->tok;
      if (a.name.kind != HR_TOK_VALUE_ID || memchr(a.name.text, '#', a.name.len))
        return hr_p_unexpected(p, "an iteration argument name (%name)");
      hr_p_next(p);
      HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
      HR_TRY(hr_p_add_operand(p, b));
      HR_TRY(hr_pvec_push(p, &args, &a, sizeof a));
      if (hr_p_accept(p, HR_TOK_RPAREN)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ')'"));
    }
  }
  if (args.len) {
    HR_TRY(parse_and_apply_sig(p, b, SIG_PAIRWISE));
    hr_region_arg *a = args.data;
    const hr_type *types = b->results.data;
    for (size_t i = 0; i < args.len; i++) a[i].type = types[i];
  }
  if (hr_p_accept_kw(p, "attributes")) {
    if (p->tok.kind != HR_TOK_LBRACE) return hr_p_unexpected(p, "'{'");
    HR_TRY(hr_p_opt_attr_dict(p, b));
  }
  static const hr_region_arg none;
  const hr_region_arg *region_args = args.len ? args.data : &none;
  HR_TRY(hr_p_expect_kw(p, "cond"));
  HR_TRY(hr_p_add_region(p, b, region_args, (int)args.len));
  HR_TRY(hr_p_expect_kw(p, "do"));
  return hr_p_add_region(p, b, region_args, (int)args.len);
}

/* Builds the single-op reducer region of `stablehlo.reduce ... applies stablehlo.add ...`: two
 * scalar arguments, the op applied to them, and stablehlo.return of its result. */
static hr_status build_applies_region(hr_parser *p, hr_op_builder *b, hr_opcode inner,
                                      const hr_token *at, hr_dtype dtype) {
  hr_region_arg args[2];
  memset(args, 0, sizeof args);
  args[0].name = args[1].name = *at;
  args[0].name.kind = args[1].name.kind = HR_TOK_BARE_ID; /* unnamed */
  args[0].type = args[1].type = hr_tensor_type(dtype, 0, NULL);
  hr_block blk;
  memset(&blk, 0, sizeof blk);
  blk.parent_op = b->op;
  blk.func = p->func;
  HR_TRY(hr_p_init_block_args(p, &blk, args, 2));
  hr_op *ops[2];
  hr_opcode codes[2] = {inner, HR_OP_RETURN};
  for (int i = 0; i < 2; i++) {
    hr_op_builder ib;
    memset(&ib, 0, sizeof ib);
    ib.name_tok = *at;
    ib.op = HR_ARENA_NEW(&p->m->arena, hr_op);
    if (!ib.op) return hr_p_oom(p);
    ib.op->code = codes[i];
    ib.op->parent = &blk;
    ib.op->loc = (hr_loc){p->m->filename, at->line, at->col};
    if (i == 0) {
      hr_value *operands[2] = {&blk.args[0], &blk.args[1]};
      HR_TRY(hr_pvec_push(p, &ib.operands, &operands[0], sizeof operands[0]));
      HR_TRY(hr_pvec_push(p, &ib.operands, &operands[1], sizeof operands[1]));
      HR_TRY(hr_p_set_results(p, &ib, &args[0].type, 1));
    } else {
      hr_value *result = &ops[0]->results[0];
      HR_TRY(hr_pvec_push(p, &ib.operands, &result, sizeof result));
    }
    HR_TRY(hr_p_finish_op(p, &ib));
    ops[i] = ib.op;
  }
  blk.n_ops = 2;
  blk.ops = HR_ARENA_ARRAY(&p->m->arena, hr_op *, 2);
  if (!blk.ops) return hr_p_oom(p);
  blk.ops[0] = ops[0];
  blk.ops[1] = ops[1];
  return hr_pvec_push(p, &b->regions, &blk, sizeof blk);
}

/* Parses `(%a: T, %b: T)` pairs of the reducer block, first and second elements separately. */
static hr_status parse_reducer_args(hr_parser *p, hr_pvec *firsts, hr_pvec *seconds) {
  while (hr_p_accept(p, HR_TOK_LPAREN)) {
    for (int k = 0; k < 2; k++) {
      hr_region_arg a;
      memset(&a, 0, sizeof a);
      a.name = p->tok;
      if (a.name.kind != HR_TOK_VALUE_ID || memchr(a.name.text, '#', a.name.len))
        return hr_p_unexpected(p, "a reducer argument (%name)");
      hr_p_next(p);
      HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
      HR_TRY(hr_p_parse_type(p, &a.type));
      HR_TRY(hr_p_parse_opt_loc(p, NULL));
      HR_TRY(hr_pvec_push(p, k ? seconds : firsts, &a, sizeof a));
      if (k == 0) HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
    }
    HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  }
  for (size_t i = 0; i < seconds->len; i++)
    HR_TRY(hr_pvec_push(p, firsts, (hr_region_arg *)seconds->data + i, sizeof(hr_region_arg)));
  return NULL;
}

/* The binary ops that `applies` may name: commutative, no regions, one result. */
static bool is_applies_op(hr_opcode c) {
  return c == HR_OP_ADD || c == HR_OP_MULTIPLY || c == HR_OP_MAXIMUM || c == HR_OP_MINIMUM ||
         c == HR_OP_AND || c == HR_OP_OR || c == HR_OP_XOR;
}

/* stablehlo.reduce(%x init: %c), ... (applies OP | ) across dimensions = [..] attr-dict : sig
 *   [reducer(%a: T, %c: T) (%b: U, %d: U) { ... }] */
static hr_status parse_reduce(hr_parser *p, hr_op_builder *b) {
  hr_pvec inits = {0};
  do {
    HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
    HR_TRY(hr_p_add_operand(p, b));
    HR_TRY(hr_p_expect_kw(p, "init"));
    HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
    hr_value *init;
    HR_TRY(hr_p_parse_use(p, &init));
    HR_TRY(hr_pvec_push(p, &inits, &init, sizeof init));
    HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  } while (hr_p_accept(p, HR_TOK_COMMA));
  for (size_t i = 0; i < inits.len; i++)
    HR_TRY(hr_pvec_push(p, &b->operands, (hr_value **)inits.data + i, sizeof(hr_value *)));

  hr_token inner_tok = p->tok;
  hr_opcode inner = HR_OP_COUNT;
  if (hr_p_accept_kw(p, "applies")) {
    inner_tok = p->tok;
    if (inner_tok.kind == HR_TOK_BARE_ID) inner = hr_opcode_lookup(inner_tok.text, inner_tok.len);
    if (!is_applies_op(inner))
      return hr_p_error(p, &inner_tok, HR_PARSE_ERROR,
                        "expected a commutative binary stablehlo op after 'applies'");
    hr_p_next(p);
  }
  hr_token at = p->tok;
  HR_TRY(hr_p_expect_kw(p, "across"));
  HR_TRY(hr_p_expect_kw(p, "dimensions"));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  hr_attr *dims;
  HR_TRY(parse_i64_array(p, &dims));
  HR_TRY(hr_p_add_op_attr(p, b, "dimensions", dims, &at));
  HR_TRY(finish_form(p, b, SIG_FUNC));
  if (inner != HR_OP_COUNT) {
    const hr_value *first = *(hr_value **)b->operands.data;
    if (first->type.kind != HR_TYPE_TENSOR)
      return hr_p_error(p, &inner_tok, HR_PARSE_ERROR, "reduce inputs must be tensors");
    return build_applies_region(p, b, inner, &inner_tok, first->type.dtype);
  }
  HR_TRY(hr_p_expect_kw(p, "reducer"));
  hr_pvec args = {0}, seconds = {0};
  HR_TRY(parse_reducer_args(p, &args, &seconds));
  static const hr_region_arg none;
  return hr_p_add_region(p, b, args.len ? args.data : &none, (int)args.len);
}

/* stablehlo.composite "name" %a, ... [(regions)] attr-dict : sig */
static hr_status parse_composite(hr_parser *p, hr_op_builder *b) {
  hr_token at = p->tok;
  hr_attr *name;
  HR_TRY(parse_string(p, &name));
  HR_TRY(hr_p_add_op_attr(p, b, "name", name, &at));
  HR_TRY(hr_p_add_operand_list(p, b));
  if (hr_p_accept(p, HR_TOK_LPAREN)) {
    do {
      HR_TRY(hr_p_add_region(p, b, NULL, 0));
    } while (hr_p_accept(p, HR_TOK_COMMA));
    HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  }
  return finish_form(p, b, SIG_FUNC);
}

/* chlo.top_k(%x, k = 3[, is_stable = true]) attr-dict : T -> (T, U) */
static hr_status parse_top_k(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  HR_TRY(hr_p_add_operand(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "','"));
  static const clause k = {"k", "k", CL_I64, NULL, false};
  static const clause stable = {"is_stable", "is_stable", CL_BOOL, NULL, true};
  HR_TRY(parse_clause(p, b, &k));
  if (hr_p_accept(p, HR_TOK_COMMA)) HR_TRY(parse_clause(p, b, &stable));
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  return finish_form(p, b, SIG_FUNC);
}

/* An i32 dense array attribute `array<i32: a, b>` (MLIR's segment sizes). */
static hr_status add_segment_sizes(hr_parser *p, hr_op_builder *b, const char *name, int64_t a, int64_t c) {
  int64_t v[2] = {a, c};
  hr_attr *attr = hr_p_i64_array_attr(p, v, 2);
  if (!attr) return hr_p_oom(p);
  attr->u.dense_array.dtype = HR_I32;
  return hr_p_add_op_attr(p, b, name, attr, &b->name_tok);
}

/* chlo.scan(%in, ...) inits(%init, ...) dimension=N [attributes {...}] {^bb0(...): ...} : (T...) -> (R...)
 * The operand and result splits (inputs / inits, outputs / carries) become operandSegmentSizes and
 * resultSegmentSizes, as in the generic form. */
static hr_status parse_scan(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  HR_TRY(hr_p_add_operand_list(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  int64_t n_inputs = (int64_t)b->operands.len;
  HR_TRY(hr_p_expect_kw(p, "inits"));
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  HR_TRY(hr_p_add_operand_list(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  int64_t n_inits = (int64_t)b->operands.len - n_inputs;
  static const clause dim = {"dimension", "dimension", CL_I64, NULL, false};
  HR_TRY(parse_clause(p, b, &dim));
  if (hr_p_accept_kw(p, "attributes")) {
    if (p->tok.kind != HR_TOK_LBRACE) return hr_p_unexpected(p, "'{'");
    HR_TRY(hr_p_opt_attr_dict(p, b));
  }
  HR_TRY(hr_p_add_region(p, b, NULL, 0));
  HR_TRY(parse_and_apply_sig(p, b, SIG_FUNC));
  HR_TRY(add_segment_sizes(p, b, "operandSegmentSizes", n_inputs, n_inits));
  return add_segment_sizes(p, b, "resultSegmentSizes", (int64_t)b->results.len - n_inits, n_inits);
}

/* ---------------------------------------------------------------------------------------------- */
/* Shardy                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* sdy.sharding_constraint %x <@mesh, [{"a"}, {}]> attr-dict : T */
static hr_status parse_sharding_constraint(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_add_operand(p, b));
  hr_token at = p->tok;
  hr_attr *sharding;
  HR_TRY(hr_p_parse_opaque_body(p, "sdy.sharding", "", &sharding));
  HR_TRY(hr_p_add_op_attr(p, b, "sharding", sharding, &at));
  return finish_form(p, b, SIG_SAME);
}

/* `key=` and the bracketed body of a Shardy attribute after it, kept as the OPAQUE
 * prefix + body + suffix under `key`. */
static hr_status parse_keyed_opaque(hr_parser *p, hr_op_builder *b, const char *key, const char *prefix,
                                    const char *suffix) {
  hr_token at = p->tok;
  HR_TRY(hr_p_expect_kw(p, key));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  hr_attr *a;
  HR_TRY(hr_p_parse_opaque_body(p, prefix, suffix, &a));
  return hr_p_add_op_attr(p, b, key, a, &at);
}

/* `(%a: T loc(...), ...)`: the arguments of a region written before it. */
static hr_status parse_region_args(hr_parser *p, hr_pvec *args) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  if (hr_p_accept(p, HR_TOK_RPAREN)) return NULL;
  do {
    hr_region_arg a;
    memset(&a, 0, sizeof a);
    a.name = p->tok;
    if (a.name.kind != HR_TOK_VALUE_ID || memchr(a.name.text, '#', a.name.len))
      return hr_p_unexpected(p, "a region argument (%name)");
    hr_p_next(p);
    HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
    HR_TRY(hr_p_parse_type(p, &a.type));
    HR_TRY(hr_p_parse_opt_loc(p, NULL));
    HR_TRY(hr_pvec_push(p, args, &a, sizeof a));
  } while (hr_p_accept(p, HR_TOK_COMMA));
  return hr_p_expect(p, HR_TOK_RPAREN, "')'");
}

/* sdy.manual_computation(%a, ...) in_shardings=[<...>, ...] out_shardings=[...] manual_axes={"a"}
 *   (%arg: T, ...) { ... } attr-dict : (T, ...) -> (U, ...) */
static hr_status parse_manual_computation(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  HR_TRY(hr_p_add_operand_list(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "')'"));
  HR_TRY(parse_keyed_opaque(p, b, "in_shardings", "sdy.sharding_per_value<", ">"));
  HR_TRY(parse_keyed_opaque(p, b, "out_shardings", "sdy.sharding_per_value<", ">"));
  HR_TRY(parse_keyed_opaque(p, b, "manual_axes", "sdy<manual_axes", ">"));
  hr_pvec args = {0};
  HR_TRY(parse_region_args(p, &args));
  static const hr_region_arg none;
  HR_TRY(hr_p_add_region(p, b, args.len ? args.data : &none, (int)args.len));
  return finish_form(p, b, SIG_FUNC);
}

/* ---------------------------------------------------------------------------------------------- */
/* Dispatch                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Forms that do not follow a shared pattern. */
static hr_status parse_special(hr_parser *p, hr_op_builder *b, bool *handled) {
  *handled = true;
  switch (b->op->code) {
    case HR_OP_FUNC_RETURN:
    case HR_OP_SDY_RETURN:
    case HR_OP_RETURN: return parse_return(p, b);
    case HR_OP_SDY_SHARDING_CONSTRAINT: return parse_sharding_constraint(p, b);
    case HR_OP_SDY_MANUAL_COMPUTATION: return parse_manual_computation(p, b);
    case HR_OP_FUNC_CALL: return parse_call_like(p, b, "callee", HR_ATTR_SYMBOL);
    case HR_OP_CUSTOM_CALL: return parse_call_like(p, b, "call_target_name", HR_ATTR_STRING);
    case HR_OP_CONSTANT:
    case HR_OP_CHLO_CONSTANT: return parse_constant(p, b);
    case HR_OP_CHECK_EXPECT_EQ_CONST:
    case HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST: return parse_check_const(p, b);
    case HR_OP_COMPARE: return parse_compare(p, b);
    case HR_OP_SLICE: return parse_slice(p, b);
    case HR_OP_DOT: return parse_dot(p, b);
    case HR_OP_DOT_GENERAL: return parse_dot_general(p, b);
    case HR_OP_CONVOLUTION: return parse_convolution(p, b);
    case HR_OP_GET_TUPLE_ELEMENT: return parse_get_tuple_element(p, b);
    case HR_OP_TUPLE: return parse_operands_form(p, b, SIG_TUPLE);
    case HR_OP_OPTIMIZATION_BARRIER: return parse_optimization_barrier(p, b);
    case HR_OP_WHILE: return parse_while(p, b);
    case HR_OP_REDUCE: return parse_reduce(p, b);
    case HR_OP_COMPOSITE: return parse_composite(p, b);
    case HR_OP_CHLO_TOP_K: return parse_top_k(p, b);
    case HR_OP_CHLO_SCAN: return parse_scan(p, b);
    case HR_OP_SELECT: return parse_operands_form(p, b, SIG_SELECT);
    case HR_OP_COMPLEX: return parse_operands_form(p, b, SIG_COMPLEX);
    case HR_OP_CLAMP:
    case HR_OP_AFTER_ALL: return parse_operands_form(p, b, SIG_SAME);
    case HR_OP_CREATE_TOKEN:
    case HR_OP_REPLICA_ID:
    case HR_OP_PARTITION_ID: return finish_form(p, b, SIG_RESULT);
    case HR_OP_BITCAST_CONVERT:
    case HR_OP_RESHAPE:
    case HR_OP_DYNAMIC_RESHAPE:
    case HR_OP_DYNAMIC_UPDATE_SLICE:
    case HR_OP_REAL_DYNAMIC_SLICE:
    case HR_OP_DYNAMIC_PAD: return parse_operands_form(p, b, SIG_FUNC);
    default: break;
  }
  if (hr_chlo_broadcast_base(b->op->code) != HR_OP_COUNT) return parse_operands_form(p, b, SIG_FUNC);
  *handled = false;
  return NULL;
}

hr_status hr_p_parse_pretty(hr_parser *p, hr_op_builder *b) {
  bool handled;
  hr_status s = parse_special(p, b, &handled);
  if (handled) return s;
  hr_opcode code = b->op->code;
  for (size_t i = 0; i < sizeof clause_forms / sizeof *clause_forms; i++)
    if (clause_forms[i].code == code) return parse_clause_form(p, b, &clause_forms[i]);
  const char *name = hr_opcode_name(code);
  unsigned flags = hr_opcode_flags(code);
  bool chlo = strncmp(name, "chlo.", 5) == 0;
  if (flags & (HR_OPF_UNARY | HR_OPF_BINARY))
    return parse_operands_form(p, b, chlo ? SIG_FUNC : SIG_SAME);
  return hr_p_error(p, &b->name_tok, HR_PARSE_ERROR,
                    "'%s' has no custom syntax; write it in the generic form \"%s\"(...)", name,
                    name);
}

/* Parsing of operations (result bindings, the generic form), regions, blocks, and the SSA name
 * scopes that resolve value uses. */
#include <limits.h>
#include <string.h>

#include "ir/parse_internal.h"

/* ---------------------------------------------------------------------------------------------- */
/* SSA name scopes                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

/* FNV-1a, 32 bits. */
static uint32_t name_hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* Finds the visible definition of a name, or NULL. */
static hr_name_def *scope_find(const hr_scope_table *t, const char *name, size_t len) {
  if (t->n_buckets == 0) return NULL;
  uint32_t h = name_hash(name, len);
  for (int i = t->buckets[h & (t->n_buckets - 1)]; i >= 0; i = t->defs[i].next) {
    hr_name_def *d = &t->defs[i];
    if (d->hash == h && d->len == len && memcmp(d->name, name, len) == 0) return d;
  }
  return NULL;
}

/* Grows the definition stack and rebuilds the hash chains (newest definition first). */
static hr_status scope_grow(hr_parser *p) {
  hr_scope_table *t = &p->scope;
  size_t cap = t->cap ? t->cap * 2 : 256;
  if (cap > (size_t)INT_MAX) return hr_p_error(p, &p->tok, HR_RESOURCE_EXHAUSTED, "too many values");
  hr_name_def *defs = HR_ARENA_ARRAY(&p->scratch, hr_name_def, cap);
  int *buckets = HR_ARENA_ARRAY(&p->scratch, int, cap);
  if (!defs || !buckets) return hr_p_oom(p);
  if (t->n) memcpy(defs, t->defs, t->n * sizeof *defs);
  memset(buckets, 0xff, cap * sizeof *buckets); /* all -1 */
  for (size_t i = 0; i < t->n; i++) {
    size_t b = defs[i].hash & (cap - 1);
    defs[i].next = buckets[b];
    buckets[b] = (int)i;
  }
  t->defs = defs;
  t->buckets = buckets;
  t->cap = t->n_buckets = cap;
  return NULL;
}

hr_status hr_p_define(hr_parser *p, const hr_token *name, hr_value *values, int count) {
  const char *s = name->text + 1;
  size_t len = name->len - 1;
  if (scope_find(&p->scope, s, len))
    return hr_p_error(p, name, HR_PARSE_ERROR, "redefinition of SSA value '%%%.*s'",
                      (int)(len > 60 ? 60 : len), s);
  hr_scope_table *t = &p->scope;
  if (t->n == t->cap) HR_TRY(scope_grow(p));
  hr_name_def *d = &t->defs[t->n];
  d->name = s;
  d->len = len;
  d->hash = name_hash(s, len);
  d->values = values;
  d->count = count;
  size_t b = d->hash & (t->n_buckets - 1);
  d->next = t->buckets[b];
  t->buckets[b] = (int)t->n;
  t->n++;
  return NULL;
}

size_t hr_p_scope_mark(const hr_parser *p) { return p->scope.n; }

void hr_p_scope_pop(hr_parser *p, size_t mark) {
  hr_scope_table *t = &p->scope;
  while (t->n > mark) {
    t->n--;
    const hr_name_def *d = &t->defs[t->n];
    t->buckets[d->hash & (t->n_buckets - 1)] = d->next;
  }
}

hr_status hr_p_new_value_id(hr_parser *p, const hr_token *at, uint32_t *id) {
  if (p->func->n_values == UINT32_MAX)
    return hr_p_error(p, at, HR_RESOURCE_EXHAUSTED, "too many values in one function");
  *id = p->func->n_values++;
  return NULL;
}

hr_status hr_p_parse_use(hr_parser *p, hr_value **out) {
  hr_token t = p->tok;
  if (t.kind != HR_TOK_VALUE_ID) return hr_p_unexpected(p, "a value (%name)");
  const char *hash = memchr(t.text, '#', t.len);
  size_t len = (hash ? (size_t)(hash - t.text) : t.len) - 1;
  uint64_t index = 0;
  if (hash) {
    hr_token num = t;
    num.text = hash + 1;
    num.len = t.len - (size_t)(hash + 1 - t.text);
    HR_TRY(hr_p_int_token(p, &num, &index));
  }
  hr_name_def *d = scope_find(&p->scope, t.text + 1, len);
  if (!d)
    return hr_p_error(p, &t, HR_PARSE_ERROR, "use of undefined value '%%%.*s'",
                      (int)(len > 60 ? 60 : len), t.text + 1);
  if (index >= (uint64_t)d->count)
    return hr_p_error(p, &t, HR_PARSE_ERROR, "result number %llu of '%%%.*s' is out of range "
                      "(it has %d results)", (unsigned long long)index, (int)(len > 60 ? 60 : len),
                      t.text + 1, d->count);
  *out = &d->values[index];
  hr_p_next(p);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Op builder helpers                                                                              */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_p_add_operand(hr_parser *p, hr_op_builder *b) {
  hr_value *v;
  HR_TRY(hr_p_parse_use(p, &v));
  return hr_pvec_push(p, &b->operands, &v, sizeof v);
}

hr_status hr_p_add_operand_list(hr_parser *p, hr_op_builder *b) {
  if (p->tok.kind != HR_TOK_VALUE_ID) return NULL;
  for (;;) {
    HR_TRY(hr_p_add_operand(p, b));
    /* Stop before a comma that introduces something else (`%a, %b, dim = 0`). */
    if (p->tok.kind != HR_TOK_COMMA || hr_p_peek(p).kind != HR_TOK_VALUE_ID) return NULL;
    hr_p_next(p);
  }
}

hr_status hr_p_opt_attr_dict(hr_parser *p, hr_op_builder *b) {
  if (p->tok.kind != HR_TOK_LBRACE) return NULL;
  return hr_p_parse_attr_dict(p, &b->attrs);
}

hr_status hr_p_add_op_attr(hr_parser *p, hr_op_builder *b, const char *name, hr_attr *value,
                           const hr_token *at) {
  return hr_p_add_attr(p, &b->attrs, name, value, at);
}

hr_status hr_p_check_operand_type(hr_parser *p, hr_op_builder *b, size_t i, const hr_type *t,
                                  const hr_token *at) {
  const hr_value *v = ((hr_value **)b->operands.data)[i];
  if (hr_type_equal(&v->type, t)) return NULL;
  char have[160], want[160];
  hr_p_type_str(&v->type, have, sizeof have);
  hr_p_type_str(t, want, sizeof want);
  return hr_p_error(p, at, HR_PARSE_ERROR, "operand #%zu has type %s but the type signature says %s",
                    i, have, want);
}

hr_status hr_p_check_operand_types(hr_parser *p, hr_op_builder *b, const hr_type *types, size_t n,
                                   const hr_token *at) {
  if (n != b->operands.len)
    return hr_p_error(p, at, HR_PARSE_ERROR,
                      "the type signature lists %zu operand types but the operation has %zu "
                      "operands", n, b->operands.len);
  for (size_t i = 0; i < n; i++) HR_TRY(hr_p_check_operand_type(p, b, i, &types[i], at));
  return NULL;
}

hr_status hr_p_set_results(hr_parser *p, hr_op_builder *b, const hr_type *types, size_t n) {
  for (size_t i = 0; i < n; i++) HR_TRY(hr_pvec_push(p, &b->results, &types[i], sizeof *types));
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Blocks and regions                                                                              */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_p_init_block_args(hr_parser *p, hr_block *blk, const hr_region_arg *args, int n) {
  blk->n_args = n;
  if (n == 0) return NULL;
  blk->args = HR_ARENA_ARRAY(&p->m->arena, hr_value, (size_t)n);
  if (!blk->args) return hr_p_oom(p);
  for (int i = 0; i < n; i++) {
    hr_value *v = &blk->args[i];
    v->type = args[i].type;
    v->owner = blk;
    v->index = (uint32_t)i;
    HR_TRY(hr_p_new_value_id(p, &args[i].name, &v->id));
    if (args[i].name.kind != HR_TOK_VALUE_ID) continue;
    v->name = hr_p_strdup(p, args[i].name.text + 1, args[i].name.len - 1);
    if (!v->name) return hr_p_oom(p);
    HR_TRY(hr_p_define(p, &args[i].name, v, 1));
  }
  return NULL;
}

/* Parses a block argument `%name: type [loc(...)]`. */
static hr_status parse_block_arg(hr_parser *p, hr_region_arg *out) {
  if (p->tok.kind != HR_TOK_VALUE_ID || memchr(p->tok.text, '#', p->tok.len))
    return hr_p_unexpected(p, "a block argument name (%name)");
  out->name = p->tok;
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
  HR_TRY(hr_p_parse_type(p, &out->type));
  return hr_p_parse_opt_loc(p, NULL);
}

/* Parses `^bb0(%a: T, ...):` (the argument list is optional) into region arguments. */
static hr_status parse_block_header(hr_parser *p, hr_pvec *args) {
  hr_p_next(p); /* ^bb0 */
  if (hr_p_accept(p, HR_TOK_LPAREN) && !hr_p_accept(p, HR_TOK_RPAREN)) {
    for (;;) {
      hr_region_arg a;
      HR_TRY(parse_block_arg(p, &a));
      HR_TRY(hr_pvec_push(p, args, &a, sizeof a));
      if (hr_p_accept(p, HR_TOK_RPAREN)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ')'"));
    }
  }
  if (args->len > INT_MAX)
    return hr_p_error(p, &p->tok, HR_RESOURCE_EXHAUSTED, "too many block arguments");
  return hr_p_expect(p, HR_TOK_COLON, "':' after the block header");
}

hr_status hr_p_parse_region(hr_parser *p, hr_op *parent, const hr_region_arg *args, int n_args,
                            hr_block *out) {
  hr_token open = p->tok;
  if (open.kind != HR_TOK_LBRACE) return hr_p_unexpected(p, "'{' starting a region");
  HR_TRY(hr_p_enter(p, &open));
  hr_p_next(p);
  memset(out, 0, sizeof *out);
  out->parent_op = parent;
  out->func = p->func;
  size_t mark = hr_p_scope_mark(p);
  if (args) {
    if (p->tok.kind == HR_TOK_CARET_ID)
      return hr_p_error(p, &p->tok, HR_PARSE_ERROR,
                        "this region's arguments are declared by the operation; it cannot have a "
                        "block header");
    HR_TRY(hr_p_init_block_args(p, out, args, n_args));
  } else if (p->tok.kind == HR_TOK_CARET_ID) {
    hr_pvec header = {0};
    HR_TRY(parse_block_header(p, &header));
    HR_TRY(hr_p_init_block_args(p, out, header.data, (int)header.len));
  }
  HR_TRY(hr_p_parse_block_ops(p, out));
  HR_TRY(hr_p_expect(p, HR_TOK_RBRACE, "'}'"));
  hr_p_scope_pop(p, mark);
  hr_p_leave(p);
  return NULL;
}

hr_status hr_p_add_region(hr_parser *p, hr_op_builder *b, const hr_region_arg *args, int n_args) {
  hr_block blk;
  HR_TRY(hr_p_parse_region(p, b->op, args, n_args, &blk));
  return hr_pvec_push(p, &b->regions, &blk, sizeof blk);
}

/* ---------------------------------------------------------------------------------------------- */
/* Operations                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* Creates the op's result values. */
static hr_status make_results(hr_parser *p, hr_op_builder *b) {
  hr_op *op = b->op;
  op->n_results = (int)b->results.len;
  if (!op->n_results) return NULL;
  op->results = HR_ARENA_ARRAY(&p->m->arena, hr_value, b->results.len);
  if (!op->results) return hr_p_oom(p);
  const hr_type *types = b->results.data;
  for (int i = 0; i < op->n_results; i++) {
    hr_value *v = &op->results[i];
    v->type = types[i];
    v->def = op;
    v->index = (uint32_t)i;
    HR_TRY(hr_p_new_value_id(p, &b->name_tok, &v->id));
  }
  return NULL;
}

/* Copies the region blocks into the op and points their ops and arguments at the final blocks. */
static hr_status place_regions(hr_parser *p, hr_op_builder *b) {
  hr_op *op = b->op;
  op->n_regions = (int)b->regions.len;
  void *data;
  HR_TRY(hr_pvec_export(p, &b->regions, sizeof(hr_block), _Alignof(hr_block), &data));
  op->regions = data;
  for (int r = 0; r < op->n_regions; r++) {
    hr_block *blk = &op->regions[r];
    for (int i = 0; i < blk->n_ops; i++) blk->ops[i]->parent = blk;
    for (int i = 0; i < blk->n_args; i++) blk->args[i].owner = blk;
  }
  return NULL;
}

hr_status hr_p_finish_op(hr_parser *p, hr_op_builder *b) {
  hr_op *op = b->op;
  size_t counts[4] = {b->operands.len, b->attrs.len, b->results.len, b->regions.len};
  for (int i = 0; i < 4; i++)
    if (counts[i] > INT_MAX)
      return hr_p_error(p, &b->name_tok, HR_RESOURCE_EXHAUSTED, "operation is too large");
  HR_TRY(hr_p_check_unique(p, &b->attrs, &b->name_tok));
  void *data;
  op->n_operands = (int)b->operands.len;
  HR_TRY(hr_pvec_export(p, &b->operands, sizeof(hr_value *), _Alignof(hr_value *), &data));
  op->operands = data;
  op->n_attrs = (int)b->attrs.len;
  HR_TRY(hr_pvec_export(p, &b->attrs, sizeof(hr_named_attr), _Alignof(hr_named_attr), &data));
  op->attrs = data;
  HR_TRY(hr_op_modernize(p->m, op));
  hr_op_drop_defaults(op);
  HR_TRY(make_results(p, b));
  return place_regions(p, b);
}

/* Parses the generic form after the op name:
 *   (operands) [<{properties}>] [(regions)] [{attributes}] : (types) -> results */
static hr_status parse_generic(hr_parser *p, hr_op_builder *b) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'(' after the operation name"));
  if (p->tok.kind != HR_TOK_RPAREN) {
    for (;;) {
      HR_TRY(hr_p_add_operand(p, b));
      if (!hr_p_accept(p, HR_TOK_COMMA)) break;
    }
  }
  HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "',' or ')'"));
  if (p->tok.kind == HR_TOK_LSQUARE)
    return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED, "successor blocks are not supported");
  if (hr_p_accept(p, HR_TOK_LESS)) {
    if (p->tok.kind != HR_TOK_LBRACE) return hr_p_unexpected(p, "'{' starting the properties");
    HR_TRY(hr_p_parse_attr_dict(p, &b->attrs));
    HR_TRY(hr_p_expect(p, HR_TOK_GREATER, "'>' closing the properties"));
  }
  if (hr_p_accept(p, HR_TOK_LPAREN)) {
    for (;;) {
      HR_TRY(hr_p_add_region(p, b, NULL, 0));
      if (!hr_p_accept(p, HR_TOK_COMMA)) break;
    }
    HR_TRY(hr_p_expect(p, HR_TOK_RPAREN, "',' or ')' after the regions"));
  }
  HR_TRY(hr_p_opt_attr_dict(p, b));
  HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':' and the operation's type"));
  hr_sig sig;
  HR_TRY(hr_p_parse_sig(p, &sig));
  if (!sig.is_func || sig.at.kind != HR_TOK_LPAREN)
    return hr_p_error(p, &sig.at, HR_PARSE_ERROR, "expected a function type '(...) -> ...'");
  HR_TRY(hr_p_check_operand_types(p, b, sig.ins.data, sig.ins.len, &sig.at));
  return hr_p_set_results(p, b, sig.outs.data, sig.outs.len);
}

/* A group of result names: `%name` or `%name:count`. */
typedef struct result_name {
  hr_token tok;
  int count;
} result_name;

/* Parses `%a, %b:2 =` before an op. */
static hr_status parse_result_names(hr_parser *p, hr_pvec *names) {
  for (;;) {
    result_name r = {p->tok, 1};
    if (r.tok.kind != HR_TOK_VALUE_ID || memchr(r.tok.text, '#', r.tok.len))
      return hr_p_unexpected(p, "a result name (%name)");
    hr_p_next(p);
    if (hr_p_accept(p, HR_TOK_COLON)) {
      hr_token at = p->tok;
      if (at.kind != HR_TOK_INTEGER) return hr_p_unexpected(p, "a result count");
      uint64_t n;
      HR_TRY(hr_p_int_token(p, &at, &n));
      if (n == 0 || n > INT_MAX)
        return hr_p_error(p, &at, HR_PARSE_ERROR, "invalid result count");
      r.count = (int)n;
      hr_p_next(p);
    }
    HR_TRY(hr_pvec_push(p, names, &r, sizeof r));
    if (!hr_p_accept(p, HR_TOK_COMMA)) break;
  }
  return hr_p_expect(p, HR_TOK_EQUAL, "'=' after the result names");
}

/* Gives the op's results their names and makes them visible. */
static hr_status bind_results(hr_parser *p, hr_op *op, const hr_pvec *names, const hr_token *at) {
  if (names->len == 0) return NULL;
  const result_name *r = names->data;
  int64_t total = 0;
  for (size_t i = 0; i < names->len; i++) total += r[i].count;
  if (total != op->n_results)
    return hr_p_error(p, at, HR_PARSE_ERROR, "operation has %d results but %lld names are bound",
                      op->n_results, (long long)total);
  int offset = 0;
  for (size_t i = 0; i < names->len; i++) {
    const char *name = hr_p_strdup(p, r[i].tok.text + 1, r[i].tok.len - 1);
    if (!name) return hr_p_oom(p);
    for (int k = 0; k < r[i].count; k++) op->results[offset + k].name = name;
    HR_TRY(hr_p_define(p, &r[i].tok, &op->results[offset], r[i].count));
    offset += r[i].count;
  }
  return NULL;
}

/* Parses one operation (generic or custom form) into `blk`. */
static hr_status parse_op(hr_parser *p, hr_block *blk, hr_op **out) {
  hr_token start = p->tok;
  hr_pvec names = {.arena = &p->op_temp};
  if (start.kind == HR_TOK_VALUE_ID) HR_TRY(parse_result_names(p, &names));
  hr_op_builder b;
  memset(&b, 0, sizeof b);
  b.operands.arena = b.attrs.arena = b.results.arena = b.regions.arena = &p->op_temp;
  b.name_tok = p->tok;
  bool generic = b.name_tok.kind == HR_TOK_STRING;
  if (!generic && b.name_tok.kind != HR_TOK_BARE_ID) return hr_p_unexpected(p, "an operation");
  const char *name = generic ? b.name_tok.text + 1 : b.name_tok.text;
  size_t len = generic ? b.name_tok.len - 2 : b.name_tok.len;
  hr_opcode code = hr_opcode_lookup(name, len);
  if (code == HR_OP_COUNT)
    return hr_p_error(p, &b.name_tok, HR_PARSE_ERROR, "unknown operation '%.*s'",
                      (int)(len > 60 ? 60 : len), name);
  b.op = HR_ARENA_NEW(&p->m->arena, hr_op);
  if (!b.op) return hr_p_oom(p);
  b.op->code = code;
  b.op->parent = blk;
  b.op->loc = (hr_loc){p->m->filename, start.line, start.col};
  hr_p_next(p);
  HR_TRY(generic ? parse_generic(p, &b) : hr_p_parse_pretty(p, &b));
  HR_TRY(hr_p_finish_op(p, &b));
  HR_TRY(hr_p_parse_opt_loc(p, b.op));
  HR_TRY(bind_results(p, b.op, &names, &start));
  *out = b.op;
  return NULL;
}

hr_status hr_p_parse_block_ops(hr_parser *p, hr_block *blk) {
  hr_pvec ops = {0};
  while (p->tok.kind != HR_TOK_RBRACE) {
    if (p->tok.kind == HR_TOK_CARET_ID)
      return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED,
                        "regions with more than one block are not supported");
    if (p->tok.kind == HR_TOK_EOF) return hr_p_unexpected(p, "'}'");
    hr_op *op;
    /* What the op's builder used in op_temp is dead once the op is made (nested ops rewind to
     * their own, later marks first). */
    hr_arena_pos mark = hr_arena_mark(&p->op_temp);
    HR_TRY(parse_op(p, blk, &op));
    hr_arena_rewind(&p->op_temp, mark);
    HR_TRY(hr_pvec_push(p, &ops, &op, sizeof op));
  }
  if (ops.len > INT_MAX)
    return hr_p_error(p, &p->tok, HR_RESOURCE_EXHAUSTED, "too many operations in one block");
  blk->n_ops = (int)ops.len;
  void *data;
  HR_TRY(hr_pvec_export(p, &ops, sizeof(hr_op *), _Alignof(hr_op *), &data));
  blk->ops = data;
  return NULL;
}

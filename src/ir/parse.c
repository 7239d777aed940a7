/* The StableHLO text parser: entry points, module and function structure, shared utilities.
 * See parse_internal.h for how the parser is split across files. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "ir/parse_internal.h"
#include "ir/shardy.h"

/* ---------------------------------------------------------------------------------------------- */
/* Token helpers and errors                                                                        */
/* ---------------------------------------------------------------------------------------------- */

void hr_p_next(hr_parser *p) { hr_lexer_next(&p->lx, &p->tok); }

hr_token hr_p_peek(hr_parser *p) {
  hr_lexer saved = p->lx;
  hr_token t;
  hr_lexer_next(&p->lx, &t);
  p->lx = saved;
  return t;
}

hr_status hr_p_error(hr_parser *p, const hr_token *at, hr_code code, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(code, "%s:%u:%u: %s", p->lx.file, at->line, at->col, msg);
}

hr_status hr_p_unexpected(hr_parser *p, const char *what) {
  if (p->tok.kind == HR_TOK_ERROR) return hr_lexer_error_status(&p->lx);
  char found[64];
  hr_tok_describe(&p->tok, found, sizeof found);
  return hr_p_error(p, &p->tok, HR_PARSE_ERROR, "expected %s, found %s", what, found);
}

hr_status hr_p_expect(hr_parser *p, hr_tok_kind kind, const char *what) {
  if (p->tok.kind != kind) return hr_p_unexpected(p, what);
  hr_p_next(p);
  return NULL;
}

bool hr_p_accept(hr_parser *p, hr_tok_kind kind) {
  if (p->tok.kind != kind) return false;
  hr_p_next(p);
  return true;
}

bool hr_p_is_kw(const hr_parser *p, const char *word) { return hr_tok_is(&p->tok, word); }

bool hr_p_accept_kw(hr_parser *p, const char *word) {
  if (!hr_tok_is(&p->tok, word)) return false;
  hr_p_next(p);
  return true;
}

hr_status hr_p_expect_kw(hr_parser *p, const char *word) {
  if (hr_p_accept_kw(p, word)) return NULL;
  char what[64];
  snprintf(what, sizeof what, "'%s'", word);
  return hr_p_unexpected(p, what);
}

hr_status hr_p_oom(hr_parser *p) {
  return hr_p_error(p, &p->tok, HR_OUT_OF_MEMORY, "out of memory");
}

hr_status hr_p_enter(hr_parser *p, const hr_token *at) {
  if (p->depth >= p->max_nesting)
    return hr_p_error(p, at, HR_RESOURCE_EXHAUSTED, "nesting is deeper than the limit of %d",
                      p->max_nesting);
  p->depth++;
  return NULL;
}

void hr_p_leave(hr_parser *p) { p->depth--; }

char *hr_p_strdup(hr_parser *p, const char *s, size_t len) {
  return hr_arena_strndup(&p->m->arena, s, len);
}

/* ---------------------------------------------------------------------------------------------- */
/* Scratch vectors and string maps                                                                 */
/* ---------------------------------------------------------------------------------------------- */

enum { VEC_ALIGN = 16 };

hr_status hr_pvec_push(hr_parser *p, hr_pvec *v, const void *elem, size_t size) {
  if (v->len == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 8;
    if (cap < v->cap || cap > SIZE_MAX / size) return hr_p_oom(p);
    void *data = hr_arena_alloc(v->arena ? v->arena : &p->scratch, cap * size, VEC_ALIGN);
    if (!data) return hr_p_oom(p);
    if (v->len) memcpy(data, v->data, v->len * size);
    v->data = data;
    v->cap = cap;
  }
  memcpy((char *)v->data + v->len * size, elem, size);
  v->len++;
  return NULL;
}

hr_status hr_pvec_export(hr_parser *p, const hr_pvec *v, size_t size, size_t align, void **out) {
  *out = NULL;
  if (v->len == 0) return NULL;
  void *data = hr_arena_calloc(&p->m->arena, v->len, size, align);
  if (!data) return hr_p_oom(p);
  memcpy(data, v->data, v->len * size);
  *out = data;
  return NULL;
}

/* FNV-1a over the key bytes. */
static uint64_t hash_key(const char *key, size_t len) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
  return h;
}

/* The slot holding `key`, or the empty slot where it would go. */
static hr_strmap_entry *map_slot(const hr_strmap *m, const char *key, size_t len) {
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)hash_key(key, len) & mask;; i = (i + 1) & mask) {
    hr_strmap_entry *e = &m->slots[i];
    if (!e->key || (e->len == len && memcmp(e->key, key, len) == 0)) return e;
  }
}

void *hr_p_map_find(const hr_strmap *m, const char *key, size_t len) {
  if (m->cap == 0) return NULL;
  hr_strmap_entry *e = map_slot(m, key, len);
  return e->key ? e->value : NULL;
}

/* Doubles the table (keeping the load factor at most one half). */
static hr_status map_grow(hr_parser *p, hr_strmap *m) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  if (cap < m->cap || cap > SIZE_MAX / sizeof(hr_strmap_entry)) return hr_p_oom(p);
  hr_strmap grown = {HR_ARENA_ARRAY(&p->scratch, hr_strmap_entry, cap), 0, cap};
  if (!grown.slots) return hr_p_oom(p);
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->slots[i].key) continue;
    *map_slot(&grown, m->slots[i].key, m->slots[i].len) = m->slots[i];
    grown.n++;
  }
  *m = grown;
  return NULL;
}

hr_status hr_p_map_insert(hr_parser *p, hr_strmap *m, const char *key, size_t len, void *value,
                          void **existing) {
  *existing = NULL;
  if ((m->n + 1) * 2 > m->cap) HR_TRY(map_grow(p, m));
  hr_strmap_entry *e = map_slot(m, key, len);
  if (e->key) {
    *existing = e->value;
    return NULL;
  }
  e->key = key;
  e->len = len;
  e->value = value;
  m->n++;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Functions                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* One declared parameter or result of a function. */
typedef struct func_slot {
  hr_token name; /* parameters only */
  hr_type type;
  hr_attr *attrs; /* DICT or NULL */
} func_slot;

/* Reads the symbol at the current token (`@name` or `@"name"`) into a module string. */
static hr_status parse_symbol_name(hr_parser *p, const char **out, size_t *len) {
  if (p->tok.kind != HR_TOK_SYMBOL) return hr_p_unexpected(p, "a symbol name (@name)");
  if (p->tok.text[1] == '"') {
    hr_token quoted = p->tok;
    quoted.text++;
    quoted.len--;
    HR_TRY(hr_p_decode_string(p, &quoted, out, len));
  } else {
    *len = p->tok.len - 1;
    *out = hr_p_strdup(p, p->tok.text + 1, *len);
    if (!*out) return hr_p_oom(p);
  }
  hr_p_next(p);
  return NULL;
}

/* Parses an optional attribute dictionary into a DICT attribute (NULL when absent). */
static hr_status parse_opt_dict_attr(hr_parser *p, hr_attr **out) {
  *out = NULL;
  if (p->tok.kind != HR_TOK_LBRACE) return NULL;
  hr_pvec entries = {0};
  HR_TRY(hr_p_parse_attr_dict(p, &entries));
  return hr_p_make_dict(p, &entries, out);
}

/* Parses `%name: type {attrs} loc(...)` entries of a function signature, or the `type {attrs}`
 * entries of a declaration's (*unnamed set: the parameters have no names, as in
 * `func.func private @f(tensor<f32>) -> tensor<f32>`). */
static hr_status parse_func_params(hr_parser *p, hr_pvec *params, bool *unnamed) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  *unnamed = p->tok.kind != HR_TOK_VALUE_ID && p->tok.kind != HR_TOK_RPAREN && hr_p_at_type(p);
  if (hr_p_accept(p, HR_TOK_RPAREN)) return NULL;
  for (;;) {
    func_slot s = {0};
    if (!*unnamed) {
      if (p->tok.kind != HR_TOK_VALUE_ID) return hr_p_unexpected(p, "a parameter name (%name)");
      s.name = p->tok;
      if (memchr(s.name.text, '#', s.name.len))
        return hr_p_error(p, &s.name, HR_PARSE_ERROR, "a parameter name cannot have a result number");
      hr_p_next(p);
      HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
    }
    HR_TRY(hr_p_parse_type(p, &s.type));
    HR_TRY(parse_opt_dict_attr(p, &s.attrs));
    HR_TRY(hr_p_parse_opt_loc(p, NULL));
    HR_TRY(hr_pvec_push(p, params, &s, sizeof s));
    if (hr_p_accept(p, HR_TOK_RPAREN)) return NULL;
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ')'"));
  }
}

/* Parses `-> T`, `-> (T {attrs}, ...)` or nothing. */
static hr_status parse_func_results(hr_parser *p, hr_pvec *results) {
  if (!hr_p_accept(p, HR_TOK_ARROW)) return NULL;
  func_slot s = {0};
  if (!hr_p_accept(p, HR_TOK_LPAREN)) {
    HR_TRY(hr_p_parse_type(p, &s.type));
    return hr_pvec_push(p, results, &s, sizeof s);
  }
  if (hr_p_accept(p, HR_TOK_RPAREN)) return NULL;
  for (;;) {
    memset(&s, 0, sizeof s);
    HR_TRY(hr_p_parse_type(p, &s.type));
    HR_TRY(parse_opt_dict_attr(p, &s.attrs));
    HR_TRY(hr_pvec_push(p, results, &s, sizeof s));
    if (hr_p_accept(p, HR_TOK_RPAREN)) return NULL;
    HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ')'"));
  }
}

/* Copies the per-slot attribute dictionaries, or leaves NULL when no slot has any. */
static hr_status export_slot_attrs(hr_parser *p, const hr_pvec *slots, hr_attr ***out) {
  *out = NULL;
  const func_slot *s = slots->data;
  bool any = false;
  for (size_t i = 0; i < slots->len; i++) any = any || s[i].attrs;
  if (!any) return NULL;
  hr_attr **a = HR_ARENA_ARRAY(&p->m->arena, hr_attr *, slots->len);
  if (!a) return hr_p_oom(p);
  for (size_t i = 0; i < slots->len; i++) a[i] = s[i].attrs;
  *out = a;
  return NULL;
}

/* Creates the parameter values (the entry block arguments) and puts their names in scope. */
static hr_status define_params(hr_parser *p, hr_func *f, const hr_pvec *params) {
  const func_slot *s = params->data;
  f->body.n_args = f->n_args;
  f->body.func = f;
  if (f->n_args == 0) return NULL;
  f->body.args = HR_ARENA_ARRAY(&p->m->arena, hr_value, params->len);
  if (!f->body.args) return hr_p_oom(p);
  for (int i = 0; i < f->n_args; i++) {
    hr_value *v = &f->body.args[i];
    v->type = s[i].type;
    v->owner = &f->body;
    v->index = (uint32_t)i;
    if (!s[i].name.text) { /* a declaration's parameter: no name, no scope */
      v->id = f->n_values++;
      continue;
    }
    v->name = hr_p_strdup(p, s[i].name.text + 1, s[i].name.len - 1);
    if (!v->name) return hr_p_oom(p);
    HR_TRY(hr_p_new_value_id(p, &s[i].name, &v->id));
    HR_TRY(hr_p_define(p, &s[i].name, v, 1));
  }
  return NULL;
}

/* Parses the `{ ... }` body of a function whose parameters are already defined; a function
 * without one is a declaration, which MLIR requires to be private and to have unnamed parameters. */
static hr_status parse_func_body(hr_parser *p, hr_func *f, const hr_token *name_tok, bool unnamed) {
  if (p->tok.kind != HR_TOK_LBRACE) {
    if (p->tok.kind != HR_TOK_EOF && !hr_p_is_kw(p, "func.func") && !hr_p_is_kw(p, "loc") &&
        p->tok.kind != HR_TOK_RBRACE)
      return hr_p_unexpected(p, "'{' starting the function body");
    if (!f->is_private)
      return hr_p_error(p, name_tok, HR_PARSE_ERROR, "a function declaration (no body) must be private");
    if (f->n_args && !unnamed)
      return hr_p_error(p, name_tok, HR_PARSE_ERROR, "a function declaration's parameters have no names");
    f->is_declaration = true;
    return NULL;
  }
  if (unnamed) return hr_p_error(p, name_tok, HR_PARSE_ERROR, "a function with a body names its parameters");
  hr_token open = p->tok;
  HR_TRY(hr_p_enter(p, &open));
  hr_p_next(p);
  if (p->tok.kind == HR_TOK_CARET_ID)
    return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED,
                      "labelled blocks in function bodies are not supported");
  HR_TRY(hr_p_parse_block_ops(p, &f->body));
  HR_TRY(hr_p_expect(p, HR_TOK_RBRACE, "'}'"));
  hr_p_leave(p);
  return NULL;
}

/* Checks that a count of parsed items fits the int fields of the IR. */
static hr_status check_count(hr_parser *p, const hr_token *at, size_t n, const char *what) {
  if (n > INT_MAX)
    return hr_p_error(p, at, HR_RESOURCE_EXHAUSTED, "too many %s (%zu)", what, n);
  return NULL;
}

/* Parses `func.func [visibility] @name(params) [-> results] [attributes {...}] { body } [loc]`. */
static hr_status parse_func(hr_parser *p) {
  hr_token start = p->tok;
  hr_p_next(p);
  hr_func *f = HR_ARENA_NEW(&p->m->arena, hr_func);
  if (!f) return hr_p_oom(p);
  f->loc = (hr_loc){p->m->filename, start.line, start.col};
  if (hr_p_accept_kw(p, "private") || hr_p_accept_kw(p, "nested"))
    f->is_private = true;
  else
    hr_p_accept_kw(p, "public");
  hr_token name_tok = p->tok;
  size_t name_len;
  HR_TRY(parse_symbol_name(p, &f->name, &name_len));
  void *existing;
  HR_TRY(hr_p_map_insert(p, &p->func_names, f->name, name_len, f, &existing));
  if (existing)
    return hr_p_error(p, &name_tok, HR_PARSE_ERROR, "redefinition of function '@%s'", f->name);

  hr_pvec params = {0}, results = {0};
  bool unnamed;
  HR_TRY(parse_func_params(p, &params, &unnamed));
  HR_TRY(parse_func_results(p, &results));
  HR_TRY(check_count(p, &name_tok, params.len, "parameters"));
  HR_TRY(check_count(p, &name_tok, results.len, "results"));
  if (hr_p_accept_kw(p, "attributes")) {
    if (p->tok.kind != HR_TOK_LBRACE) return hr_p_unexpected(p, "'{'");
    HR_TRY(parse_opt_dict_attr(p, &f->attrs));
  }
  f->n_args = (int)params.len;
  f->n_results = (int)results.len;
  if (results.len) {
    f->result_types = HR_ARENA_ARRAY(&p->m->arena, hr_type, results.len);
    if (!f->result_types) return hr_p_oom(p);
    const func_slot *r = results.data;
    for (size_t i = 0; i < results.len; i++) f->result_types[i] = r[i].type;
  }
  HR_TRY(export_slot_attrs(p, &params, &f->arg_attrs));
  HR_TRY(export_slot_attrs(p, &results, &f->result_attrs));

  p->func = f;
  size_t mark = hr_p_scope_mark(p);
  HR_TRY(define_params(p, f, &params));
  HR_TRY(parse_func_body(p, f, &name_tok, unnamed));
  hr_p_scope_pop(p, mark);
  p->func = NULL;
  HR_TRY(hr_p_parse_opt_loc(p, NULL));
  return hr_pvec_push(p, &p->funcs, &f, sizeof f);
}

/* ---------------------------------------------------------------------------------------------- */
/* Modules                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Reports an operation other than func.func where only functions may appear. */
static hr_status unexpected_in_module(hr_parser *p) {
  if (p->tok.kind == HR_TOK_BARE_ID || p->tok.kind == HR_TOK_STRING) {
    int n = p->tok.len > 60 ? 60 : (int)p->tok.len;
    return hr_p_error(p, &p->tok, HR_PARSE_ERROR,
                      "unknown operation '%.*s' in module body (expected func.func)", n,
                      p->tok.text);
  }
  return hr_p_unexpected(p, "'func.func' or '}'");
}

/* Parses `sdy.mesh @name = <[...]> [loc(...)]` into the module's meshes. */
static hr_status parse_mesh(hr_parser *p, hr_pvec *meshes) {
  hr_p_next(p);
  hr_mesh mesh;
  size_t len;
  HR_TRY(parse_symbol_name(p, &mesh.name, &len));
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'='"));
  HR_TRY(hr_p_parse_opaque_body(p, "sdy.mesh", "", &mesh.mesh));
  HR_TRY(hr_p_parse_opt_loc(p, NULL));
  return hr_pvec_push(p, meshes, &mesh, sizeof mesh);
}

/* Parses `module [@name] [attributes {...}] { func.func ... } [loc(...)]`. */
static hr_status parse_module(hr_parser *p) {
  hr_p_next(p);
  if (p->tok.kind == HR_TOK_SYMBOL) {
    size_t len;
    HR_TRY(parse_symbol_name(p, &p->m->name, &len));
  }
  if (hr_p_accept_kw(p, "attributes")) {
    if (p->tok.kind != HR_TOK_LBRACE) return hr_p_unexpected(p, "'{'");
    HR_TRY(parse_opt_dict_attr(p, &p->m->attrs));
  }
  /* The module's braces are no level of nesting (they hold functions only), so that a module nests
   * as deep as its functions alone: what parses without them parses again once printed with them. */
  hr_token body = p->tok;
  HR_TRY(hr_p_expect(p, HR_TOK_LBRACE, "'{' starting the module body"));
  hr_pvec meshes = {0};
  while (p->tok.kind != HR_TOK_RBRACE) {
    if (hr_p_is_kw(p, "sdy.mesh")) {
      HR_TRY(parse_mesh(p, &meshes));
      continue;
    }
    if (!hr_p_is_kw(p, "func.func")) return unexpected_in_module(p);
    HR_TRY(parse_func(p));
  }
  hr_p_next(p);
  HR_TRY(check_count(p, &body, meshes.len, "meshes"));
  p->m->n_meshes = (int)meshes.len;
  void *data;
  HR_TRY(hr_pvec_export(p, &meshes, sizeof(hr_mesh), _Alignof(hr_mesh), &data));
  p->m->meshes = data;
  return hr_p_parse_opt_loc(p, NULL);
}

/* Parses the whole input: location aliases, and either one module or a list of functions. */
static hr_status parse_top_level(hr_parser *p) {
  bool seen_module = false, seen_func = false;
  hr_p_next(p);
  while (p->tok.kind != HR_TOK_EOF) {
    if (p->tok.kind == HR_TOK_HASH_ID) {
      HR_TRY(hr_p_parse_loc_alias(p));
    } else if (p->tok.kind == HR_TOK_BANG_ID) {
      return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED, "type aliases are not supported");
    } else if (p->tok.kind == HR_TOK_FILE_METADATA) {
      return hr_p_error(p, &p->tok, HR_UNIMPLEMENTED,
                        "dialect resource sections ({-# ... #-}) are not supported");
    } else if (hr_p_is_kw(p, "module")) {
      if (seen_module || seen_func)
        return hr_p_error(p, &p->tok, HR_PARSE_ERROR,
                          "expected a single module (or only top-level functions)");
      seen_module = true;
      HR_TRY(parse_module(p));
    } else if (hr_p_is_kw(p, "func.func")) {
      if (seen_module)
        return hr_p_error(p, &p->tok, HR_PARSE_ERROR, "function outside of the module");
      seen_func = true;
      HR_TRY(parse_func(p));
    } else {
      return hr_p_unexpected(p, "'module', 'func.func' or a location alias");
    }
  }
  HR_TRY(check_count(p, &p->tok, p->funcs.len, "functions"));
  p->m->n_funcs = (int)p->funcs.len;
  void *funcs;
  HR_TRY(hr_pvec_export(p, &p->funcs, sizeof(hr_func *), _Alignof(hr_func *), &funcs));
  p->m->funcs = funcs;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Entry points                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

hr_status hr_module_parse(const char *filename, const char *text, size_t len,
                          const hr_parse_options *opts, hr_module **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_module_parse: `out` is NULL");
  *out = NULL;
  if (!text && len) return hr_error(HR_INVALID_ARGUMENT, "hr_module_parse: `text` is NULL");
  const hr_allocator *a = opts && opts->allocator ? opts->allocator : hr_default_allocator();
  hr_module *m;
  HR_TRY(hr_module_new(a, filename, &m));

  hr_parser p;
  memset(&p, 0, sizeof p);
  p.m = m;
  p.max_constant_bytes = opts && opts->max_constant_bytes ? opts->max_constant_bytes
                                                          : HR_LIMIT_CONSTANT_BYTES;
  /* Never deeper than the later stages accept (base/limits.h). */
  p.max_nesting = opts && opts->max_nesting > 0 && opts->max_nesting < HR_LIMIT_NESTING_DEPTH
                      ? opts->max_nesting
                      : HR_LIMIT_NESTING_DEPTH;
  hr_arena_init(&p.scratch, a);
  hr_arena_init(&p.op_temp, a);
  hr_lexer_init(&p.lx, m->filename, text, len);

  hr_status s = parse_top_level(&p);
  if (!s) s = hr_p_resolve_locs(&p);
  hr_arena_release(&p.scratch);
  hr_arena_release(&p.op_temp);
  if (p.c_locale) freelocale(p.c_locale);
  if (!s) s = hr_module_untuple_calls(m);
  if (!s) s = hr_sdy_import_round_trip(m);
  if (!s) s = hr_gspmd_import(m);
  if (!s && !(opts && opts->no_verify)) s = hr_module_verify(m);
  if (s) {
    hr_module_free(m);
    return s;
  }
  *out = m;
  return NULL;
}


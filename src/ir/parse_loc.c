/* Parsing of source locations: trailing `loc(...)` on ops, arguments and functions, and top-level
 * `#alias = loc(...)` definitions, which may come after their uses. Locations are parsed into small
 * trees; once the whole input is read, every alias reference is checked and each op's location is
 * rendered as compact text with aliases substituted (hr_op.debug_loc). Each alias is rendered once
 * and shared, and renderings are capped in length, so hostile alias graphs cannot blow up. */
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "ir/parse_internal.h"

enum { LOC_TEXT_CAP = 4096 };

/* ---------------------------------------------------------------------------------------------- */
/* Parsing                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static hr_status parse_location(hr_parser *p, hr_loc_node **out);

/* Allocates a location node of the given kind written at `at`. */
static hr_status new_node(hr_parser *p, hr_loc_kind kind, const hr_token *at, hr_loc_node **out) {
  hr_loc_node *n = HR_ARENA_NEW(&p->scratch, hr_loc_node);
  if (!n) return hr_p_oom(p);
  n->kind = kind;
  n->tok = *at;
  *out = n;
  return NULL;
}

/* Stores child nodes collected in a scratch vector. */
static hr_status set_kids(hr_parser *p, hr_loc_node *n, const hr_pvec *kids) {
  if (kids->len > INT32_MAX)
    return hr_p_error(p, &n->tok, HR_RESOURCE_EXHAUSTED, "too many locations");
  n->n_kids = (int)kids->len;
  n->kids = kids->data;
  return NULL;
}

/* Parses `:line:col` and an optional range end (`to line:col` or `to :col`) after a file name,
 * producing the compact text `"file":line:col[ to ...]`. */
static hr_status parse_file_loc(hr_parser *p, const hr_token *file, hr_loc_node **out) {
  hr_token parts[4];
  memset(parts, 0, sizeof parts);
  parts[2].text = "";
  int n = 0;
  bool range = false;
  for (int i = 0; i < 2; i++) {
    HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
    if (p->tok.kind != HR_TOK_INTEGER) return hr_p_unexpected(p, "a line or column number");
    parts[n++] = p->tok;
    hr_p_next(p);
  }
  if (hr_p_accept_kw(p, "to")) {
    range = true;
    if (p->tok.kind == HR_TOK_INTEGER) {
      parts[2] = p->tok;
      hr_p_next(p);
    }
    HR_TRY(hr_p_expect(p, HR_TOK_COLON, "':'"));
    if (p->tok.kind != HR_TOK_INTEGER) return hr_p_unexpected(p, "a column number");
    parts[3] = p->tok;
    hr_p_next(p);
  }
  HR_TRY(new_node(p, HR_LOC_TEXT, file, out));
  size_t cap = file->len + parts[0].len + parts[1].len + 8 +
               (range ? parts[2].len + parts[3].len + 8 : 0);
  char *text = hr_arena_alloc(&p->scratch, cap, 1);
  if (!text) return hr_p_oom(p);
  int len = snprintf(text, cap, "%.*s:%.*s:%.*s", (int)file->len, file->text, (int)parts[0].len,
                     parts[0].text, (int)parts[1].len, parts[1].text);
  if (range)
    len += snprintf(text + len, cap - (size_t)len, " to %.*s:%.*s", (int)parts[2].len,
                    parts[2].text, (int)parts[3].len, parts[3].text);
  (*out)->text = text;
  (*out)->len = (size_t)len;
  return NULL;
}

/* Parses a location starting with a string: a file location or a (possibly nested) name. */
static hr_status parse_string_loc(hr_parser *p, hr_loc_node **out) {
  hr_token str = p->tok;
  hr_p_next(p);
  if (p->tok.kind == HR_TOK_COLON) return parse_file_loc(p, &str, out);
  HR_TRY(new_node(p, HR_LOC_NAME, &str, out));
  (*out)->text = str.text;
  (*out)->len = str.len;
  if (!hr_p_accept(p, HR_TOK_LPAREN)) return NULL;
  hr_loc_node **kid = HR_ARENA_NEW(&p->scratch, hr_loc_node *);
  if (!kid) return hr_p_oom(p);
  HR_TRY(parse_location(p, kid));
  (*out)->kids = kid;
  (*out)->n_kids = 1;
  return hr_p_expect(p, HR_TOK_RPAREN, "')'");
}

/* Parses `callsite(callee at caller)` after the keyword. */
static hr_status parse_callsite_loc(hr_parser *p, const hr_token *at, hr_loc_node **out) {
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'('"));
  HR_TRY(new_node(p, HR_LOC_CALLSITE, at, out));
  hr_loc_node **kids = HR_ARENA_ARRAY(&p->scratch, hr_loc_node *, 2);
  if (!kids) return hr_p_oom(p);
  HR_TRY(parse_location(p, &kids[0]));
  HR_TRY(hr_p_expect_kw(p, "at"));
  HR_TRY(parse_location(p, &kids[1]));
  (*out)->kids = kids;
  (*out)->n_kids = 2;
  return hr_p_expect(p, HR_TOK_RPAREN, "')'");
}

/* Parses `fused[<metadata>][a, b, ...]` after the keyword; the metadata is kept as written. */
static hr_status parse_fused_loc(hr_parser *p, const hr_token *at, hr_loc_node **out) {
  HR_TRY(new_node(p, HR_LOC_FUSED, at, out));
  if (p->tok.kind == HR_TOK_LESS) {
    hr_token open = p->tok;
    hr_p_next(p);
    hr_attr *unused;
    HR_TRY(hr_p_parse_attr(p, &unused));
    if (p->tok.kind != HR_TOK_GREATER) return hr_p_unexpected(p, "'>'");
    (*out)->text = open.text + 1;
    (*out)->len = (size_t)(p->tok.text - open.text - 1);
    hr_p_next(p);
  }
  HR_TRY(hr_p_expect(p, HR_TOK_LSQUARE, "'['"));
  hr_pvec kids = {0};
  if (!hr_p_accept(p, HR_TOK_RSQUARE)) {
    for (;;) {
      hr_loc_node *kid;
      HR_TRY(parse_location(p, &kid));
      HR_TRY(hr_pvec_push(p, &kids, &kid, sizeof kid));
      if (hr_p_accept(p, HR_TOK_RSQUARE)) break;
      HR_TRY(hr_p_expect(p, HR_TOK_COMMA, "',' or ']'"));
    }
  }
  return set_kids(p, *out, &kids);
}

/* Parses one location (the part inside `loc(...)`). */
static hr_status parse_location(hr_parser *p, hr_loc_node **out) {
  hr_token at = p->tok;
  HR_TRY(hr_p_enter(p, &at));
  hr_status s;
  if (at.kind == HR_TOK_STRING) {
    s = parse_string_loc(p, out);
  } else if (at.kind == HR_TOK_HASH_ID) {
    hr_p_next(p);
    s = new_node(p, HR_LOC_ALIAS, &at, out);
    if (!s) {
      (*out)->text = at.text;
      (*out)->len = at.len;
      s = hr_pvec_push(p, &p->alias_uses, out, sizeof *out);
    }
  } else if (hr_tok_is(&at, "unknown")) {
    hr_p_next(p);
    s = new_node(p, HR_LOC_UNKNOWN, &at, out);
  } else if (hr_tok_is(&at, "callsite")) {
    hr_p_next(p);
    s = parse_callsite_loc(p, &at, out);
  } else if (hr_tok_is(&at, "fused")) {
    hr_p_next(p);
    s = parse_fused_loc(p, &at, out);
  } else {
    s = hr_p_unexpected(p, "a location");
  }
  hr_p_leave(p);
  return s;
}

/* Parses `loc(...)`; the current token is `loc`. */
static hr_status parse_loc_wrapper(hr_parser *p, hr_loc_node **out) {
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_LPAREN, "'(' after 'loc'"));
  HR_TRY(parse_location(p, out));
  return hr_p_expect(p, HR_TOK_RPAREN, "')' closing the location");
}

hr_status hr_p_parse_opt_loc(hr_parser *p, hr_op *op) {
  if (!hr_p_is_kw(p, "loc")) return NULL;
  hr_loc_node *node;
  HR_TRY(parse_loc_wrapper(p, &node));
  if (!op) return NULL;
  hr_pending_loc pending = {op, node};
  return hr_pvec_push(p, &p->pending_locs, &pending, sizeof pending);
}

hr_status hr_p_parse_loc_alias(hr_parser *p) {
  hr_token name = p->tok;
  hr_p_next(p);
  HR_TRY(hr_p_expect(p, HR_TOK_EQUAL, "'=' after the alias name"));
  if (!hr_p_is_kw(p, "loc"))
    return hr_p_error(p, &name, HR_UNIMPLEMENTED,
                      "attribute aliases other than locations are not supported");
  hr_loc_alias *alias = HR_ARENA_NEW(&p->scratch, hr_loc_alias);
  if (!alias) return hr_p_oom(p);
  alias->name = name.text;
  alias->len = name.len;
  HR_TRY(parse_loc_wrapper(p, &alias->node));
  void *existing;
  HR_TRY(hr_p_map_insert(p, &p->aliases, name.text, name.len, alias, &existing));
  if (existing)
    return hr_p_error(p, &name, HR_PARSE_ERROR, "redefinition of location alias '%.*s'",
                      (int)(name.len > 60 ? 60 : name.len), name.text);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Rendering                                                                                       */
/* ---------------------------------------------------------------------------------------------- */

/* Returns the rendering of an alias (defined below). */
static hr_status alias_text(hr_parser *p, hr_loc_alias *alias, const hr_token *use, int depth,
                            const char **out);

/* Appends text unless the rendering already reached its length cap. */
static void put(hr_strbuf *sb, const char *s, size_t n) {
  if (sb->len >= LOC_TEXT_CAP) return;
  if (n > LOC_TEXT_CAP - sb->len) {
    hr_strbuf_append(sb, s, LOC_TEXT_CAP - sb->len);
    hr_strbuf_puts(sb, "...");
    return;
  }
  hr_strbuf_append(sb, s, n);
}

/* Renders a location tree as MLIR location text with aliases substituted. */
static hr_status render(hr_parser *p, const hr_loc_node *n, hr_strbuf *sb, int depth) {
  switch (n->kind) {
    case HR_LOC_UNKNOWN: put(sb, "unknown", 7); return NULL;
    case HR_LOC_TEXT: put(sb, n->text, n->len); return NULL;
    case HR_LOC_ALIAS: {
      const char *text = "";
      hr_loc_alias *alias = hr_p_map_find(&p->aliases, n->text, n->len);
      HR_TRY(alias_text(p, alias, &n->tok, depth + 1, &text));
      put(sb, text, strlen(text));
      return NULL;
    }
    case HR_LOC_NAME:
      put(sb, n->text, n->len);
      if (n->n_kids) {
        put(sb, "(", 1);
        HR_TRY(render(p, n->kids[0], sb, depth));
        put(sb, ")", 1);
      }
      return NULL;
    case HR_LOC_CALLSITE:
      put(sb, "callsite(", 9);
      HR_TRY(render(p, n->kids[0], sb, depth));
      put(sb, " at ", 4);
      HR_TRY(render(p, n->kids[1], sb, depth));
      put(sb, ")", 1);
      return NULL;
    case HR_LOC_FUSED:
      put(sb, "fused", 5);
      if (n->text) {
        put(sb, "<", 1);
        put(sb, n->text, n->len);
        put(sb, ">", 1);
      }
      put(sb, "[", 1);
      for (int i = 0; i < n->n_kids && sb->len < LOC_TEXT_CAP; i++) {
        if (i) put(sb, ", ", 2);
        HR_TRY(render(p, n->kids[i], sb, depth));
      }
      put(sb, "]", 1);
      return NULL;
  }
  return NULL;
}

/* Renders a location tree into a module-arena string. */
static hr_status render_to_string(hr_parser *p, const hr_loc_node *n, int depth, const char **out) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, p->m->arena.allocator);
  hr_status s = render(p, n, &sb, depth);
  if (!s) s = hr_strbuf_status(&sb);
  if (!s) {
    *out = hr_p_strdup(p, sb.data ? sb.data : "", sb.len);
    if (!*out) s = hr_p_oom(p);
  }
  hr_strbuf_free(&sb);
  return s;
}

/* Returns the rendering of an alias, rendering it on first use; detects cycles and over-long
 * alias chains. */
static hr_status alias_text(hr_parser *p, hr_loc_alias *alias, const hr_token *use, int depth,
                            const char **out) {
  if (alias->state == 2) {
    *out = alias->rendered;
    return NULL;
  }
  if (alias->state == 1)
    return hr_p_error(p, use, HR_PARSE_ERROR, "location alias '%.*s' refers to itself",
                      (int)(alias->len > 60 ? 60 : alias->len), alias->name);
  if (depth > p->max_nesting)
    return hr_p_error(p, use, HR_RESOURCE_EXHAUSTED,
                      "location aliases nest deeper than the limit of %d", p->max_nesting);
  alias->state = 1;
  HR_TRY(render_to_string(p, alias->node, depth, &alias->rendered));
  alias->state = 2;
  *out = alias->rendered;
  return NULL;
}

hr_status hr_p_resolve_locs(hr_parser *p) {
  hr_loc_node **uses = p->alias_uses.data;
  for (size_t i = 0; i < p->alias_uses.len; i++)
    if (!hr_p_map_find(&p->aliases, uses[i]->text, uses[i]->len))
      return hr_p_error(p, &uses[i]->tok, HR_PARSE_ERROR, "undefined location alias '%.*s'",
                        (int)(uses[i]->len > 60 ? 60 : uses[i]->len), uses[i]->text);
  hr_pending_loc *pending = p->pending_locs.data;
  for (size_t i = 0; i < p->pending_locs.len; i++) {
    const hr_loc_node *n = pending[i].node;
    if (n->kind == HR_LOC_ALIAS)
      HR_TRY(alias_text(p, hr_p_map_find(&p->aliases, n->text, n->len), &n->tok, 1,
                        &pending[i].op->debug_loc));
    else
      HR_TRY(render_to_string(p, n, 0, &pending[i].op->debug_loc));
  }
  return NULL;
}

/* Protocol buffer text format, the subset TensorFlow Serving's config files use (textproto.h). */
#include "server/textproto.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"

typedef enum tok_kind { T_EOF, T_IDENT, T_INT, T_STRING, T_PUNCT } tok_kind;

typedef struct token {
  tok_kind kind;
  const char *start; /* the token's text; for strings, including the quotes */
  size_t len;
  int line, col;
} token;

typedef struct lexer {
  const char *filename;
  const char *p, *end;
  int line, col; /* position of p */
  token tok;     /* the current token */
  int fields;    /* fields created so far */
} lexer;

hr_status srv_tp_error(const char *filename, const srv_tp_field *f, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_INVALID_ARGUMENT, "%s:%d:%d: %s", filename, f->line, f->col, msg);
}

/* An error at a line and column. */
__attribute__((format(printf, 4, 5))) static hr_status error_at(const lexer *lx, int line, int col, const char *fmt,
                                                                ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_INVALID_ARGUMENT, "%s:%d:%d: %s", lx->filename, line, col, msg);
}

/* Consumes one byte, tracking the position. */
static void advance_byte(lexer *lx) {
  if (*lx->p == '\n') {
    lx->line++;
    lx->col = 1;
  } else {
    lx->col++;
  }
  lx->p++;
}

/* Skips whitespace and # comments. */
static void skip_blank(lexer *lx) {
  while (lx->p < lx->end) {
    char c = *lx->p;
    if (c == '#') {
      while (lx->p < lx->end && *lx->p != '\n') advance_byte(lx);
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      advance_byte(lx);
    } else {
      return;
    }
  }
}

static bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Scans a quoted string token (the position at its opening quote). */
static hr_status scan_string(lexer *lx) {
  char quote = *lx->p;
  advance_byte(lx);
  while (lx->p < lx->end && *lx->p != quote) {
    if (*lx->p == '\n') return error_at(lx, lx->tok.line, lx->tok.col, "unterminated string");
    if (*lx->p == '\\' && lx->p + 1 < lx->end) advance_byte(lx);
    advance_byte(lx);
  }
  if (lx->p == lx->end) return error_at(lx, lx->tok.line, lx->tok.col, "unterminated string");
  advance_byte(lx);
  return NULL;
}

/* Reads the next token into lx->tok. */
static hr_status next_token(lexer *lx) {
  skip_blank(lx);
  token *t = &lx->tok;
  t->start = lx->p;
  t->line = lx->line;
  t->col = lx->col;
  if (lx->p == lx->end) {
    t->kind = T_EOF;
    t->len = 0;
    return NULL;
  }
  char c = *lx->p;
  if (is_ident_start(c)) {
    t->kind = T_IDENT;
    while (lx->p < lx->end && (is_ident_start(*lx->p) || is_digit(*lx->p))) advance_byte(lx);
  } else if (is_digit(c) || (c == '-' && lx->p + 1 < lx->end && is_digit(lx->p[1]))) {
    t->kind = T_INT;
    advance_byte(lx);
    while (lx->p < lx->end && is_digit(*lx->p)) advance_byte(lx);
    if (lx->p < lx->end && (*lx->p == '.' || is_ident_start(*lx->p)))
      return error_at(lx, t->line, t->col, "expected an integer");
  } else if (c == '"' || c == '\'') {
    t->kind = T_STRING;
    HR_TRY(scan_string(lx));
  } else if (strchr("{}<>[]:,;", c)) {
    t->kind = T_PUNCT;
    advance_byte(lx);
  } else {
    return error_at(lx, t->line, t->col, "unexpected character '%c'", c);
  }
  t->len = (size_t)(lx->p - t->start);
  return NULL;
}

static bool at_punct(const lexer *lx, char c) { return lx->tok.kind == T_PUNCT && lx->tok.start[0] == c; }

/* The value of an octal or hex digit, or -1. */
static int digit_value(char c, int base) {
  int v = c >= '0' && c <= '9'   ? c - '0'
          : c >= 'a' && c <= 'f' ? c - 'a' + 10
          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                 : 99;
  return v < base ? v : -1;
}

/* Decodes one escape sequence at s[i] (just past the backslash); returns the byte, advances *i. */
static int decode_escape(const char *s, size_t n, size_t *i) {
  char e = s[(*i)++];
  switch (e) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'a': return '\a';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'v': return '\v';
    case '\\':
    case '\'':
    case '"':
    case '?': return e;
    default: break;
  }
  int base = e == 'x' ? 16 : 8, max_digits = e == 'x' ? 2 : 3, v = 0, digits = 0;
  if (e != 'x') (*i)--;
  while (digits < max_digits && *i < n && digit_value(s[*i], base) >= 0) {
    v = v * base + digit_value(s[(*i)++], base);
    digits++;
  }
  return digits && v < 256 ? v : -1;
}

/* Appends the decoded contents of the string token t to *buf (*len bytes so far). */
static hr_status append_string(lexer *lx, const token *t, char **buf, size_t *len) {
  char *grown = realloc(*buf, *len + t->len + 1);
  if (!grown) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", lx->filename);
  *buf = grown;
  const char *s = t->start + 1;
  size_t n = t->len - 2;
  for (size_t i = 0; i < n;) {
    if (s[i] != '\\') {
      grown[(*len)++] = s[i++];
      continue;
    }
    i++;
    int b = decode_escape(s, n, &i);
    if (b < 0) return error_at(lx, t->line, t->col, "invalid escape sequence in string");
    grown[(*len)++] = (char)b;
  }
  grown[*len] = '\0';
  return NULL;
}

/* Adds a field to a message; returns it (zeroed but for name and position) or NULL. */
static srv_tp_field *add_field(srv_tp_field *msg, const token *name) {
  if (msg->n_fields % 8 == 0) {
    srv_tp_field *grown = realloc(msg->fields, ((size_t)msg->n_fields + 8) * sizeof *grown);
    if (!grown) return NULL;
    msg->fields = grown;
  }
  srv_tp_field *f = &msg->fields[msg->n_fields];
  memset(f, 0, sizeof *f);
  f->name = malloc(name->len + 1);
  if (!f->name) return NULL;
  msg->n_fields++;
  memcpy(f->name, name->start, name->len);
  f->name[name->len] = '\0';
  f->line = name->line;
  f->col = name->col;
  return f;
}

/* Reads a scalar value (integer, identifier, or adjacent strings) into f. */
static hr_status parse_scalar(lexer *lx, srv_tp_field *f) {
  token t = lx->tok;
  if (t.kind == T_STRING) {
    f->kind = SRV_TP_STRING;
    while (lx->tok.kind == T_STRING) {
      HR_TRY(append_string(lx, &lx->tok, &f->text, &f->len));
      HR_TRY(next_token(lx));
    }
    return NULL;
  }
  if (t.kind != T_INT && t.kind != T_IDENT)
    return error_at(lx, t.line, t.col, "expected a value for field '%s'", f->name);
  f->kind = t.kind == T_INT ? SRV_TP_INT : SRV_TP_IDENT;
  f->text = malloc(t.len + 1);
  if (!f->text) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", lx->filename);
  memcpy(f->text, t.start, t.len);
  f->text[t.len] = '\0';
  f->len = t.len;
  return next_token(lx);
}

static hr_status parse_fields(lexer *lx, srv_tp_field *msg, char close, int depth);

/* Reads `{ ... }` or `< ... >` into f. */
static hr_status parse_message(lexer *lx, srv_tp_field *f, int depth) {
  if (depth >= HR_LIMIT_TEXTPROTO_DEPTH)
    return error_at(lx, lx->tok.line, lx->tok.col, "messages nest deeper than %d levels", HR_LIMIT_TEXTPROTO_DEPTH);
  char close = at_punct(lx, '{') ? '}' : '>';
  f->kind = SRV_TP_MESSAGE;
  HR_TRY(next_token(lx));
  return parse_fields(lx, f, close, depth + 1);
}

/* Reads one value of field `name` (a message or scalar) into a new field of msg. */
static hr_status parse_value(lexer *lx, srv_tp_field *msg, const token *name, bool colon, int depth) {
  if (++lx->fields > HR_LIMIT_TEXTPROTO_FIELDS)
    return error_at(lx, name->line, name->col, "more than %d fields", HR_LIMIT_TEXTPROTO_FIELDS);
  srv_tp_field *f = add_field(msg, name);
  if (!f) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", lx->filename);
  if (at_punct(lx, '{') || at_punct(lx, '<')) return parse_message(lx, f, depth);
  if (!colon) return error_at(lx, lx->tok.line, lx->tok.col, "expected ':' or '{' after field name '%s'", f->name);
  return parse_scalar(lx, f);
}

/* Reads `[v, v, ...]`, each element becoming a field called `name`. */
static hr_status parse_list(lexer *lx, srv_tp_field *msg, const token *name, int depth) {
  HR_TRY(next_token(lx));
  if (at_punct(lx, ']')) return next_token(lx);
  for (;;) {
    HR_TRY(parse_value(lx, msg, name, true, depth));
    if (at_punct(lx, ']')) return next_token(lx);
    if (!at_punct(lx, ',')) return error_at(lx, lx->tok.line, lx->tok.col, "expected ',' or ']' in a list");
    HR_TRY(next_token(lx));
  }
}

/* Reads fields until `close` (or the end of the document when close is 0). */
static hr_status parse_fields(lexer *lx, srv_tp_field *msg, char close, int depth) {
  for (;;) {
    if (lx->tok.kind == T_EOF) {
      if (close) return error_at(lx, lx->tok.line, lx->tok.col, "expected '%c' before the end of the file", close);
      return NULL;
    }
    if (close && at_punct(lx, close)) return next_token(lx);
    if (lx->tok.kind != T_IDENT) return error_at(lx, lx->tok.line, lx->tok.col, "expected a field name");
    token name = lx->tok;
    HR_TRY(next_token(lx));
    bool colon = at_punct(lx, ':');
    if (colon) HR_TRY(next_token(lx));
    if (colon && at_punct(lx, '[')) {
      HR_TRY(parse_list(lx, msg, &name, depth));
    } else {
      HR_TRY(parse_value(lx, msg, &name, colon, depth));
    }
    if (at_punct(lx, ',') || at_punct(lx, ';')) HR_TRY(next_token(lx));
  }
}

hr_status srv_tp_parse(const char *filename, const char *text, size_t len, srv_tp_field *root) {
  memset(root, 0, sizeof *root);
  root->kind = SRV_TP_MESSAGE;
  root->line = root->col = 1;
  lexer lx = {.filename = filename, .p = text, .end = text + len, .line = 1, .col = 1};
  hr_status s = next_token(&lx);
  if (!s) s = parse_fields(&lx, root, 0, 0);
  if (s) srv_tp_free(root);
  return s;
}

void srv_tp_free(srv_tp_field *root) {
  for (int i = 0; i < root->n_fields; i++) {
    srv_tp_field *f = &root->fields[i];
    free(f->name);
    free(f->text);
    srv_tp_free(f);
  }
  free(root->fields);
  root->fields = NULL;
  root->n_fields = 0;
}

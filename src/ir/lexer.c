/* Tokenizer for StableHLO / MLIR text. See lexer.h. */
#include "ir/lexer.h"

#include <stdio.h>
#include <string.h>

void hr_lexer_init(hr_lexer *lx, const char *file, const char *src, size_t len) {
  memset(lx, 0, sizeof *lx);
  lx->file = file ? file : "<input>";
  lx->src = src ? src : "";
  lx->len = src ? len : 0;
  lx->line = 1;
}

/* Character classes of the MLIR lexical grammar. */
static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
/* Characters allowed after the first one of a bare identifier (MLIR `bare-id`). */
static bool is_bare_char(int c) {
  return is_alpha(c) || is_digit(c) || c == '_' || c == '$' || c == '.';
}
/* Characters of a `suffix-id` (the part after %, ^ and #). */
static bool is_suffix_char(int c) { return is_bare_char(c) || c == '-'; }

/* The byte at offset `off` from the current position, or -1 beyond the input. */
static int at(const hr_lexer *lx, size_t off) {
  size_t i = lx->pos + off;
  return (off < lx->len && i < lx->len) ? (unsigned char)lx->src[i] : -1;
}

int hr_lexer_peek(const hr_lexer *lx) { return at(lx, 0); }

uint32_t hr_lexer_col(const hr_lexer *lx) {
  size_t c = lx->pos - lx->line_start + 1;
  return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

/* Advances over a newline that is at the current position. */
static void take_newline(hr_lexer *lx) {
  lx->pos++;
  if (lx->line < UINT32_MAX) lx->line++;
  lx->line_start = lx->pos;
}

void hr_lexer_skip_space(hr_lexer *lx) {
  while (lx->pos < lx->len) {
    char c = lx->src[lx->pos];
    if (c == ' ' || c == '\t' || c == '\r') {
      lx->pos++;
    } else if (c == '\n') {
      take_newline(lx);
    } else if (c == '/' && at(lx, 1) == '/') {
      /* A comment runs to the end of the line; a NUL inside it stops here so it is reported. */
      while (lx->pos < lx->len && lx->src[lx->pos] != '\n' && lx->src[lx->pos] != '\0') lx->pos++;
      if (lx->pos < lx->len && lx->src[lx->pos] == '\0') return;
    } else {
      return;
    }
  }
}

/* Records a lexical error at the token start and turns `tok` into an error token. */
static void lex_error(hr_lexer *lx, hr_token *tok, const char *msg, int ch) {
  tok->kind = HR_TOK_ERROR;
  lx->err_code = HR_PARSE_ERROR;
  lx->err_line = tok->line;
  lx->err_col = tok->col;
  if (ch >= 0 && (ch < 0x20 || ch >= 0x7f))
    snprintf(lx->err_msg, sizeof lx->err_msg, "%s (byte 0x%02x)", msg, (unsigned)ch);
  else if (ch >= 0)
    snprintf(lx->err_msg, sizeof lx->err_msg, "%s '%c'", msg, ch);
  else
    snprintf(lx->err_msg, sizeof lx->err_msg, "%s", msg);
  /* Make progress so a caller that keeps reading cannot loop forever. */
  if (lx->pos < lx->len && lx->src + lx->pos == tok->text) lx->pos++;
  tok->len = (size_t)(lx->src + lx->pos - tok->text);
}

hr_status hr_lexer_error_status(const hr_lexer *lx) {
  return hr_error(lx->err_code ? lx->err_code : HR_PARSE_ERROR, "%s:%u:%u: %s", lx->file,
                  lx->err_line, lx->err_col, lx->err_msg[0] ? lx->err_msg : "invalid input");
}

/* Consumes characters while `pred` holds. */
static void take_while(hr_lexer *lx, bool (*pred)(int)) {
  while (lx->pos < lx->len && pred((unsigned char)lx->src[lx->pos])) lx->pos++;
}

/* The first byte among '\\', '\n' and (unless `nul_ok`) NUL in [from, to), or NULL. */
static const char *first_special(const char *from, const char *to, bool nul_ok) {
  const char *hit = memchr(from, '\\', (size_t)(to - from));
  if (hit) to = hit;
  const char *nl = memchr(from, '\n', (size_t)(to - from));
  if (nl) to = hit = nl;
  const char *nul = nul_ok ? NULL : memchr(from, '\0', (size_t)(to - from));
  return nul ? nul : hit;
}

/* Lexes a string literal whose opening quote is at the current position. Escapes are checked
 * here (\" \\ \n \t and two hex digits) and decoded later by the attribute parser. The scan uses
 * memchr, since hex blobs of constants can be megabytes long; the position of the next quote is
 * kept across escapes so the work stays linear. Raw NUL bytes are part of a string when `nul_ok`
 * (MLIR accepts them, and JAX's 2023 text of some modules holds binary backend configs raw); a
 * symbol's name may not hold one. */
static bool lex_string(hr_lexer *lx, hr_token *tok, bool nul_ok) {
  lx->pos++; /* opening quote */
  const char *end = lx->src + lx->len;
  const char *quote = memchr(lx->src + lx->pos, '"', lx->len - lx->pos);
  for (;;) {
    const char *cur = lx->src + lx->pos;
    if (quote && quote < cur) quote = memchr(cur, '"', (size_t)(end - cur));
    const char *special = first_special(cur, quote ? quote : end, nul_ok);
    if (!special) {
      lx->pos = quote ? (size_t)(quote - lx->src) + 1 : lx->len;
      if (quote) return true;
      lex_error(lx, tok, "unterminated string literal", -1);
      return false;
    }
    lx->pos = (size_t)(special - lx->src);
    if (*special != '\\') {
      lex_error(lx, tok,
                *special == '\n' ? "newline in string literal" : "NUL byte in string literal", -1);
      return false;
    }
    int e = at(lx, 1);
    if (e == '"' || e == '\\' || e == 'n' || e == 't') {
      lx->pos += 2;
    } else if (is_hex(e) && is_hex(at(lx, 2))) {
      lx->pos += 3;
    } else {
      lex_error(lx, tok, "invalid escape sequence in string literal", -1);
      return false;
    }
  }
}

/* Lexes a number starting at the current digit: decimal or 0x hex integer, or a float. */
static void lex_number(hr_lexer *lx, hr_token *tok) {
  if (at(lx, 0) == '0' && at(lx, 1) == 'x' && is_hex(at(lx, 2))) {
    lx->pos += 2;
    take_while(lx, is_hex);
    tok->kind = HR_TOK_INTEGER;
    return;
  }
  take_while(lx, is_digit);
  tok->kind = HR_TOK_INTEGER;
  if (at(lx, 0) != '.') return;
  lx->pos++;
  take_while(lx, is_digit);
  tok->kind = HR_TOK_FLOAT;
  int e = at(lx, 0);
  if (e == 'e' || e == 'E') {
    size_t off = (at(lx, 1) == '+' || at(lx, 1) == '-') ? 2 : 1;
    if (is_digit(at(lx, off))) {
      lx->pos += off;
      take_while(lx, is_digit);
    }
  }
}

/* Lexes a prefixed identifier (%x, ^bb, #a, !t, @s); the prefix is at the current position. */
static void lex_prefixed(hr_lexer *lx, hr_token *tok, hr_tok_kind kind) {
  char prefix = lx->src[lx->pos];
  lx->pos++;
  int c = at(lx, 0);
  if (prefix == '@' && c == '"') {
    if (lex_string(lx, tok, false)) tok->kind = kind;
    return;
  }
  bool ok = prefix == '!' || prefix == '@' ? (is_alpha(c) || c == '_' || is_digit(c))
                                           : (is_suffix_char(c));
  if (!ok) {
    lex_error(lx, tok, "expected an identifier after", prefix);
    return;
  }
  take_while(lx, prefix == '!' || prefix == '@' ? is_bare_char : is_suffix_char);
  /* A use of one result of a multi-result op: %name#3 */
  if (prefix == '%' && at(lx, 0) == '#' && is_digit(at(lx, 1))) {
    lx->pos++;
    take_while(lx, is_digit);
  }
  tok->kind = kind;
}

/* Lexes one punctuation token; returns false when `c` is not punctuation. */
static bool lex_punct(hr_lexer *lx, hr_token *tok, char c) {
  hr_tok_kind k;
  size_t n = 1;
  switch (c) {
    case '(': k = HR_TOK_LPAREN; break;
    case ')': k = HR_TOK_RPAREN; break;
    case '[': k = HR_TOK_LSQUARE; break;
    case ']': k = HR_TOK_RSQUARE; break;
    case '}': k = HR_TOK_RBRACE; break;
    case '<': k = HR_TOK_LESS; break;
    case '>': k = HR_TOK_GREATER; break;
    case ',': k = HR_TOK_COMMA; break;
    case '=': k = HR_TOK_EQUAL; break;
    case '+': k = HR_TOK_PLUS; break;
    case '*': k = HR_TOK_STAR; break;
    case '?': k = HR_TOK_QUESTION; break;
    case '{':
      k = HR_TOK_LBRACE;
      if (at(lx, 1) == '-' && at(lx, 2) == '#') {
        k = HR_TOK_FILE_METADATA;
        n = 3;
      }
      break;
    case ':':
      k = HR_TOK_COLON;
      if (at(lx, 1) == ':') {
        k = HR_TOK_DOUBLE_COLON;
        n = 2;
      }
      break;
    case '-':
      k = HR_TOK_MINUS;
      if (at(lx, 1) == '>') {
        k = HR_TOK_ARROW;
        n = 2;
      }
      break;
    default: return false;
  }
  tok->kind = k;
  lx->pos += n;
  return true;
}

void hr_lexer_next(hr_lexer *lx, hr_token *tok) {
  hr_lexer_skip_space(lx);
  tok->text = lx->src + lx->pos;
  tok->line = lx->line;
  tok->col = hr_lexer_col(lx);
  tok->line_start = lx->line_start;
  tok->kind = HR_TOK_EOF;
  if (lx->pos >= lx->len) {
    tok->len = 0;
    return;
  }
  unsigned char c = (unsigned char)lx->src[lx->pos];
  if (is_alpha(c) || c == '_') {
    take_while(lx, is_bare_char);
    tok->kind = HR_TOK_BARE_ID;
  } else if (is_digit(c)) {
    lex_number(lx, tok);
  } else if (c == '"') {
    if (lex_string(lx, tok, true)) tok->kind = HR_TOK_STRING;
  } else if (c == '%') {
    lex_prefixed(lx, tok, HR_TOK_VALUE_ID);
  } else if (c == '@') {
    lex_prefixed(lx, tok, HR_TOK_SYMBOL);
  } else if (c == '^') {
    lex_prefixed(lx, tok, HR_TOK_CARET_ID);
  } else if (c == '#') {
    lex_prefixed(lx, tok, HR_TOK_HASH_ID);
  } else if (c == '!') {
    lex_prefixed(lx, tok, HR_TOK_BANG_ID);
  } else if (!lex_punct(lx, tok, (char)c)) {
    lex_error(lx, tok, c == 0 ? "embedded NUL byte" : "unexpected character", c == 0 ? -1 : c);
    return;
  }
  if (tok->kind != HR_TOK_ERROR) tok->len = (size_t)(lx->src + lx->pos - tok->text);
}

void hr_lexer_rewind(hr_lexer *lx, const hr_token *tok) {
  lx->pos = (size_t)(tok->text - lx->src);
  lx->line = tok->line;
  lx->line_start = tok->line_start;
}

void hr_lexer_seek_after(hr_lexer *lx, const hr_token *tok) {
  lx->pos = (size_t)(tok->text - lx->src) + tok->len;
  lx->line = tok->line;
  lx->line_start = tok->line_start;
}

bool hr_tok_text_is(const hr_token *tok, const char *text) {
  size_t n = strlen(text);
  return tok->len == n && memcmp(tok->text, text, n) == 0;
}

bool hr_tok_is(const hr_token *tok, const char *word) { return tok->kind == HR_TOK_BARE_ID && hr_tok_text_is(tok, word); }

void hr_tok_describe(const hr_token *tok, char *buf, size_t cap) {
  if (tok->kind == HR_TOK_EOF) {
    snprintf(buf, cap, "end of input");
    return;
  }
  int n = tok->len > 40 ? 40 : (int)tok->len;
  snprintf(buf, cap, "'%.*s%s'", n, tok->text, tok->len > 40 ? "..." : "");
}

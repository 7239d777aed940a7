/*
 * Tokenizer for the MLIR textual syntax subset that StableHLO programs use.
 *
 * The lexer walks a byte buffer of known length (it need not be NUL-terminated) and produces one
 * token at a time. It never fails through its return value: malformed input yields a token of kind
 * HR_TOK_ERROR and the lexer records the message, which the parser reports as soon as it finds an
 * unexpected token. Each token remembers its position so that the parser can rewind to it (used for
 * look-ahead over dense literals) and so that errors name file:line:col.
 */
#ifndef HLORUN_IR_LEXER_H
#define HLORUN_IR_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hlorun/hlorun.h"

typedef enum hr_tok_kind {
  HR_TOK_EOF = 0,
  HR_TOK_ERROR,    /* malformed input; see hr_lexer.err_* */
  HR_TOK_BARE_ID,  /* module, stablehlo.add, f32, x, true */
  HR_TOK_VALUE_ID, /* %name or %name#3 (the result number is part of the token) */
  HR_TOK_SYMBOL,   /* @name or @"quoted name" */
  HR_TOK_CARET_ID, /* ^bb0 */
  HR_TOK_HASH_ID,  /* #loc3, #stablehlo, #stablehlo.dot */
  HR_TOK_BANG_ID,  /* !stablehlo.token */
  HR_TOK_INTEGER,  /* 42, 0x7FC00000 (no sign; '-' is its own token) */
  HR_TOK_FLOAT,    /* 1.5, 2.000000e+00 */
  HR_TOK_STRING,   /* "text" including the quotes; escapes are validated, not decoded */
  HR_TOK_LPAREN,
  HR_TOK_RPAREN,
  HR_TOK_LSQUARE,
  HR_TOK_RSQUARE,
  HR_TOK_LBRACE,
  HR_TOK_RBRACE,
  HR_TOK_LESS,
  HR_TOK_GREATER,
  HR_TOK_COMMA,
  HR_TOK_COLON,
  HR_TOK_DOUBLE_COLON,
  HR_TOK_EQUAL,
  HR_TOK_ARROW,
  HR_TOK_MINUS,
  HR_TOK_PLUS,
  HR_TOK_STAR,
  HR_TOK_QUESTION,
  HR_TOK_FILE_METADATA, /* `{-#`, the start of a dialect resource section */
} hr_tok_kind;

typedef struct hr_token {
  hr_tok_kind kind;
  const char *text; /* points into the source */
  size_t len;
  uint32_t line, col;       /* 1-based (saturating for absurdly long inputs) */
  size_t line_start;        /* offset of the first byte of the token's line */
} hr_token;

typedef struct hr_lexer {
  const char *file; /* name used in messages */
  const char *src;
  size_t len;
  size_t pos;        /* next byte to read */
  uint32_t line;     /* line of `pos` */
  size_t line_start; /* offset of the first byte of that line */
  /* The first lexical error, reported when the parser meets the HR_TOK_ERROR token. */
  hr_code err_code;
  uint32_t err_line, err_col;
  char err_msg[160];
} hr_lexer;

void hr_lexer_init(hr_lexer *lx, const char *file, const char *src, size_t len);
/* Reads the next token into *tok. */
void hr_lexer_next(hr_lexer *lx, hr_token *tok);
/* Moves the lexer back so that the next token read is `tok` again. */
void hr_lexer_rewind(hr_lexer *lx, const hr_token *tok);
/* Moves the lexer to just after `tok` (the position it had after reading it). */
void hr_lexer_seek_after(hr_lexer *lx, const hr_token *tok);
/* Skips spaces and comments without producing a token. */
void hr_lexer_skip_space(hr_lexer *lx);
/* The byte at the current position, or -1 at the end of input. */
int hr_lexer_peek(const hr_lexer *lx);
/* Column of the current position (1-based). */
uint32_t hr_lexer_col(const hr_lexer *lx);
/* Builds the status for the recorded lexical error. */
hr_status hr_lexer_error_status(const hr_lexer *lx);
/* Whether the token is the bare identifier `word`. */
bool hr_tok_is(const hr_token *tok, const char *word);
/* Whether a token of any kind is spelled `text` ("!quant.uniform", "#stablehlo.type_extensions"). */
bool hr_tok_text_is(const hr_token *tok, const char *text);
/* A short printable description of a token for messages ("'foo'", "end of input"). */
void hr_tok_describe(const hr_token *tok, char *buf, size_t cap);

#endif

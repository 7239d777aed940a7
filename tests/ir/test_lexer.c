/* Tests for the StableHLO text tokenizer (src/ir/lexer.c). */
#include <string.h>

#include "ir/lexer.h"
#include "test.h"

/* Lexes `text` (of length len) and returns the kinds of its tokens up to EOF or ERROR. */
static int lex_kinds(const char *text, size_t len, hr_tok_kind *kinds, int cap) {
  hr_lexer lx;
  hr_lexer_init(&lx, "t.mlir", text, len);
  int n = 0;
  for (;;) {
    hr_token t;
    hr_lexer_next(&lx, &t);
    if (n < cap) kinds[n] = t.kind;
    n++;
    if (t.kind == HR_TOK_EOF || t.kind == HR_TOK_ERROR || n > 1000) return n;
  }
}

/* The first token of `text`. */
static hr_token first_token(const char *text, hr_lexer *lx) {
  hr_lexer_init(lx, "t.mlir", text, strlen(text));
  hr_token t;
  hr_lexer_next(lx, &t);
  return t;
}

TEST(punctuation_and_identifiers) {
  const char *src = "( ) [ ] { } < > , : :: = -> - + * ? {-# foo.bar %x %0#1 @s @\"q s\" ^bb0 #loc3 "
                    "!stablehlo.token";
  hr_tok_kind want[] = {HR_TOK_LPAREN,   HR_TOK_RPAREN,   HR_TOK_LSQUARE,  HR_TOK_RSQUARE,
                        HR_TOK_LBRACE,   HR_TOK_RBRACE,   HR_TOK_LESS,     HR_TOK_GREATER,
                        HR_TOK_COMMA,    HR_TOK_COLON,    HR_TOK_DOUBLE_COLON, HR_TOK_EQUAL,
                        HR_TOK_ARROW,    HR_TOK_MINUS,    HR_TOK_PLUS,     HR_TOK_STAR,
                        HR_TOK_QUESTION, HR_TOK_FILE_METADATA, HR_TOK_BARE_ID, HR_TOK_VALUE_ID,
                        HR_TOK_VALUE_ID, HR_TOK_SYMBOL,   HR_TOK_SYMBOL,   HR_TOK_CARET_ID,
                        HR_TOK_HASH_ID,  HR_TOK_BANG_ID,  HR_TOK_EOF};
  hr_tok_kind got[64];
  int n = lex_kinds(src, strlen(src), got, 64);
  CHECK_EQ_INT(n, (int)(sizeof want / sizeof *want));
  for (int i = 0; i < n && i < (int)(sizeof want / sizeof *want); i++) CHECK_EQ_INT(got[i], want[i]);
}

TEST(numbers) {
  hr_lexer lx;
  hr_token t = first_token("42", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_INTEGER);
  t = first_token("0x7FC00000", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_INTEGER);
  CHECK_EQ_INT(t.len, 10);
  t = first_token("1.500000e+00", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_FLOAT);
  CHECK_EQ_INT(t.len, 12);
  t = first_token("2.", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_FLOAT);
  /* "0x" without hex digits is the integer 0 followed by the identifier x. */
  t = first_token("0xg", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_INTEGER);
  CHECK_EQ_INT(t.len, 1);
}

TEST(value_ids_keep_result_numbers) {
  hr_lexer lx;
  hr_token t = first_token("%iterArg_9#12 ", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_VALUE_ID);
  CHECK_EQ_INT(t.len, 13);
  t = first_token("%cst-1.x", &lx);
  CHECK_EQ_INT(t.len, 8);
}

TEST(positions_and_comments) {
  const char *src = "// comment\n  module // trailing\n\tfoo";
  hr_lexer lx;
  hr_lexer_init(&lx, "t.mlir", src, strlen(src));
  hr_token t;
  hr_lexer_next(&lx, &t);
  CHECK(hr_tok_is(&t, "module"));
  CHECK_EQ_INT(t.line, 2);
  CHECK_EQ_INT(t.col, 3);
  hr_lexer_next(&lx, &t);
  CHECK(hr_tok_is(&t, "foo"));
  CHECK_EQ_INT(t.line, 3);
  CHECK_EQ_INT(t.col, 2);
  /* Rewinding re-reads the same token at the same position. */
  hr_lexer_rewind(&lx, &t);
  hr_token again;
  hr_lexer_next(&lx, &again);
  CHECK(again.text == t.text && again.line == 3 && again.col == 2);
}

TEST(strings) {
  hr_lexer lx;
  hr_token t = first_token("\"a\\\"b\\\\c\\n\\t\\41\" x", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_STRING);
  CHECK_EQ_INT(t.len, 16);
  t = first_token("\"unterminated", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_ERROR);
  hr_status s = hr_lexer_error_status(&lx);
  CHECK_STR_CONTAINS(hr_status_message(s), "t.mlir:1:1: unterminated string");
  hr_status_free(s);
  t = first_token("\"bad \\q escape\"", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_ERROR);
  t = first_token("\"new\nline\"", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_ERROR);
}

TEST(errors_and_length_bound) {
  hr_lexer lx;
  hr_token t = first_token("  $", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_ERROR);
  hr_status s = hr_lexer_error_status(&lx);
  CHECK_STR_CONTAINS(hr_status_message(s), "t.mlir:1:3: unexpected character '$'");
  hr_status_free(s);
  t = first_token("% x", &lx);
  CHECK_EQ_INT(t.kind, HR_TOK_ERROR);
  /* An embedded NUL is an error, even inside a comment. */
  const char nul[] = "module\0x";
  hr_tok_kind kinds[4];
  int n = lex_kinds(nul, sizeof nul - 1, kinds, 4);
  CHECK_EQ_INT(n, 2);
  CHECK_EQ_INT(kinds[1], HR_TOK_ERROR);
  const char nul_comment[] = "// a\0b\nx";
  n = lex_kinds(nul_comment, sizeof nul_comment - 1, kinds, 4);
  CHECK_EQ_INT(kinds[0], HR_TOK_ERROR);
  /* The length is honoured: nothing beyond it is read. */
  n = lex_kinds("abc def", 3, kinds, 4);
  CHECK_EQ_INT(n, 2);
  CHECK_EQ_INT(kinds[1], HR_TOK_EOF);
  n = lex_kinds("\"abc\"", 3, kinds, 4);
  CHECK_EQ_INT(kinds[0], HR_TOK_ERROR);
}

int main(void) {
  RUN(punctuation_and_identifiers);
  RUN(numbers);
  RUN(value_ids_keep_result_numbers);
  RUN(positions_and_comments);
  RUN(strings);
  RUN(errors_and_length_bound);
  TEST_MAIN_END();
}

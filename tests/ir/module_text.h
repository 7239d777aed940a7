/* Reading and printing small modules in the ir tests of the readers' import steps
 * (test_sdy_round_trip.c, test_gspmd_import.c): a module's text as printed, and a text that must
 * fail to read with INVALID_ARGUMENT naming the file and the fault. Include after test.h. */
#ifndef HLORUN_TESTS_IR_MODULE_TEXT_H
#define HLORUN_TESTS_IR_MODULE_TEXT_H

#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "ir/ir.h"

/* The text of module `m` (NULL: ""), which is freed; valid until the next call. */
static char printed[1 << 16];
static const char *print_and_free(hr_module *m) {
  printed[0] = '\0';
  if (!m) return printed;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(m, &sb));
  if (sb.data && sb.len < sizeof printed) memcpy(printed, sb.data, sb.len + 1);
  hr_strbuf_free(&sb);
  hr_module_free(m);
  return printed;
}

/* The printed module `text` reads to ("" when it does not read; the failure is recorded). */
static const char *read_and_print(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("t.mlir", text, strlen(text), NULL, &m));
  return print_and_free(m);
}

/* Reading `text` fails with INVALID_ARGUMENT, a message naming t.mlir and containing `want`. */
static void expect_error_at(const char *text, const char *want, int line) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse("t.mlir", text, strlen(text), NULL, &m);
  const char *msg = hr_status_message(s);
  if (!s || hr_status_code(s) != HR_INVALID_ARGUMENT || !strstr(msg, want) || !strstr(msg, "t.mlir") || m) {
    fprintf(stderr, "%s:%d: expected an INVALID_ARGUMENT error naming t.mlir and containing \"%s\", got \"%s\"\n",
            __FILE__, line, want, s ? msg : "success");
    test_failures_++;
  }
  hr_status_free(s);
  hr_module_free(m);
}
#define EXPECT_ERROR(text, want) expect_error_at((text), (want), __LINE__)

#endif

/* A minimal unit-test harness: TEST(name) functions registered in main via RUN(name).
 * Prints one line per failure and closes with "N passed, N failed". */
#ifndef HLORUN_TESTS_TEST_H
#define HLORUN_TESTS_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlorun/hlorun.h"

static int test_failures_;      /* checks failed in the current test */
static int tests_passed_, tests_failed_;

#define TEST(name) static void name(void)

#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);        \
      test_failures_++;                                                                \
    }                                                                                  \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                             \
  do {                                                                                 \
    long long a_ = (long long)(a), b_ = (long long)(b);                               \
    if (a_ != b_) {                                                                    \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, %s == %lld\n", __FILE__,   \
              __LINE__, #a, a_, #b, b_);                                               \
      test_failures_++;                                                                \
    }                                                                                  \
  } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                           \
  do {                                                                                 \
    const char *h_ = (haystack), *n_ = (needle);                                       \
    if (!h_ || !strstr(h_, n_)) {                                                      \
      fprintf(stderr, "%s:%d: expected \"%s\" to contain \"%s\"\n", __FILE__, __LINE__, \
              h_ ? h_ : "(null)", n_);                                                 \
      test_failures_++;                                                                \
    }                                                                                  \
  } while (0)

/* Checks that a status is OK; frees and reports it otherwise. */
#define CHECK_OK(expr)                                                                 \
  do {                                                                                 \
    hr_status s_ = (expr);                                                             \
    if (s_) {                                                                          \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,            \
              hr_status_message(s_));                                                  \
      hr_status_free(s_);                                                              \
      test_failures_++;                                                                \
    }                                                                                  \
  } while (0)

#define RUN(name)                                                                      \
  do {                                                                                 \
    test_failures_ = 0;                                                                \
    name();                                                                            \
    if (test_failures_) {                                                              \
      tests_failed_++;                                                                 \
      fprintf(stderr, "FAIL %s\n", #name);                                             \
    } else {                                                                           \
      tests_passed_++;                                                                 \
    }                                                                                  \
  } while (0)

#define TEST_MAIN_END()                                                                \
  do {                                                                                 \
    printf("%d passed, %d failed\n", tests_passed_, tests_failed_);                    \
    return tests_failed_ ? 1 : 0;                                                      \
  } while (0)

#endif

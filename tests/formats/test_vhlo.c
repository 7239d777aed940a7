/* StableHLO portable artifacts into modules (formats/mlirbc: bytecode.c, vhlo_*.c): a real file of
 * each bytecode generation read the same by hr_module_parse_bytecode and hr_module_parse_file (told
 * apart from text by content); damaged copies (every byte of the first kilobytes flipped, and
 * truncations) give errors, never a crash or a leak; errors name the byte offset. Needs
 * ../shared/real (exit 77 without it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"
#include "test.h"

/* Real files: bytecode v0 (StableHLO 0.9.0), v1 (MLIR trunk 2023) and v6 (StableHLO 1.x). */
static const char *const samples[] = {
    "real/vhlo-testdata-0_9_0/dot_general_batch_dimensions_lhs_float32_4_4_3_3_4__rhs_float32_4_4_3_4_2__dimensionnumbers____4____3______0_1_2___0_1_2.mlir.0_9_0.bc",
    "real/vhlo/cpu_lu_lapack_getrf__data_2023_06_14_f64/module.mlirbc",
    "real/vhlo/cpu_eig_lapack_geev__data_2024_08_19_f32/module.mlirbc",
};

static char shared[4096];

/* Reads a whole file into memory (NULL when absent). */
static unsigned char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *data = n > 0 ? malloc((size_t)n) : NULL;
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *len = data ? (size_t)n : 0;
  return data;
}

/* The module's printed text (empty on error). */
static void print_module(const hr_module *m, hr_strbuf *sb) {
  hr_strbuf_init(sb, NULL);
  CHECK_OK(hr_module_print_to(m, sb));
}

/* Reads sample `path` both ways and checks the modules print the same. */
static void check_sample(const char *path, const unsigned char *data, size_t len) {
  hr_module *a = NULL, *b = NULL;
  CHECK_OK(hr_module_parse_bytecode(path, data, len, NULL, &a));
  CHECK_OK(hr_module_parse_file(path, NULL, &b));
  if (!a || !b) {
    hr_module_free(a);
    hr_module_free(b);
    return;
  }
  hr_strbuf ta, tb;
  print_module(a, &ta);
  print_module(b, &tb);
  CHECK(ta.data && tb.data && strcmp(ta.data, tb.data) == 0);
  CHECK(a->n_funcs >= 1);
  hr_strbuf_free(&ta);
  hr_strbuf_free(&tb);
  hr_module_free(a);
  hr_module_free(b);
}

/* Damaged copies: each of the first `span` bytes flipped, and every truncation up to `span` bytes
 * short; each read either fails cleanly or gives a module that verifies. */
static void check_damage(const char *path, const unsigned char *data, size_t len) {
  unsigned char *copy = malloc(len);
  if (!copy) return;
  size_t span = len < 4096 ? len : 4096;
  int errors = 0, modules = 0;
  for (size_t i = 0; i < span; i++) {
    memcpy(copy, data, len);
    copy[i] ^= (unsigned char)(0x5A + i);
    hr_module *m = NULL;
    hr_status s = hr_module_parse_bytecode(path, copy, len, NULL, &m);
    if (s) {
      CHECK(m == NULL);
      CHECK(strlen(hr_status_message(s)) > 0);
      errors++;
    } else {
      modules++;
    }
    hr_status_free(s);
    hr_module_free(m);
  }
  for (size_t cut = 1; cut <= span; cut++) {
    hr_module *m = NULL;
    hr_status s = hr_module_parse_bytecode(path, data, len - cut, NULL, &m);
    CHECK(s != NULL && m == NULL);
    hr_status_free(s);
    hr_module_free(m);
  }
  printf("%s: %zu bytes; %zu flips: %d errors, %d still valid; %zu truncations refused\n", path + strlen(shared), len,
         span, errors, modules, span);
  free(copy);
}

TEST(real_files) {
  int found = 0;
  for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
    char path[4352];
    snprintf(path, sizeof path, "%s/%s", shared, samples[i]);
    size_t len;
    unsigned char *data = read_all(path, &len);
    if (!data) {
      fprintf(stderr, "missing sample %s\n", path);
      test_failures_++;
      continue;
    }
    found++;
    check_sample(path, data, len);
    check_damage(path, data, len);
    free(data);
  }
  CHECK_EQ_INT(found, (int)(sizeof samples / sizeof *samples));
}

TEST(errors_name_the_offset) {
  /* The magic, bytecode version 0, an empty producer, then a section id past the last. */
  static const unsigned char bad[] = {'M', 'L', 0xEF, 'R', 0x01, 0x00, 0x7F, 0x01, 0x00};
  hr_module *m = NULL;
  hr_status s = hr_module_parse_bytecode("bad.mlirbc", bad, sizeof bad, NULL, &m);
  CHECK(s != NULL && m == NULL);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "bad.mlirbc: offset");
  hr_status_free(s);
}

int main(void) {
  const char *root = getenv("HLORUN_SOURCE_DIR");
  snprintf(shared, sizeof shared, "%s/../shared", root ? root : ".");
  char probe[4352];
  snprintf(probe, sizeof probe, "%s/real/vhlo", shared);
  FILE *f = fopen(probe, "r");
  if (!f) {
    printf("../shared/real not found at %s: skipped\n", shared);
    RUN(errors_name_the_offset);
    return tests_failed_ ? 1 : 77;
  }
  fclose(f);
  RUN(real_files);
  RUN(errors_name_the_offset);
  TEST_MAIN_END();
}

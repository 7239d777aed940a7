/* The version macros of hlorun.h against each other and against the library's hr_version_*. */
#include <stdio.h>

#include "test.h"

TEST(library_matches_header) {
  CHECK_EQ_INT(hr_version_number(), HLORUN_VERSION_NUMBER);
  CHECK(strcmp(hr_version_string(), HLORUN_VERSION_STRING) == 0);
}

TEST(number_is_major_minor_patch) {
  CHECK(HLORUN_VERSION_MAJOR >= 0);
  CHECK(HLORUN_VERSION_MINOR >= 0 && HLORUN_VERSION_MINOR < 100);
  CHECK(HLORUN_VERSION_PATCH >= 0 && HLORUN_VERSION_PATCH < 100);
  CHECK_EQ_INT(HLORUN_VERSION_NUMBER,
               HLORUN_VERSION_MAJOR * 10000 + HLORUN_VERSION_MINOR * 100 + HLORUN_VERSION_PATCH);
}

TEST(string_spells_the_numbers) {
  char want[64];
  snprintf(want, sizeof want, "%d.%d.%d", HLORUN_VERSION_MAJOR, HLORUN_VERSION_MINOR, HLORUN_VERSION_PATCH);
  CHECK(strcmp(HLORUN_VERSION_STRING, want) == 0);
  /* Read back from the library's string alone. */
  int major = -1, minor = -1, patch = -1, end = 0;
  CHECK(sscanf(hr_version_string(), "%d.%d.%d%n", &major, &minor, &patch, &end) == 3);
  CHECK_EQ_INT(end, (int)strlen(hr_version_string()));
  CHECK_EQ_INT(major * 10000 + minor * 100 + patch, hr_version_number());
}

int main(void) {
  RUN(library_matches_header);
  RUN(number_is_major_minor_patch);
  RUN(string_spells_the_numbers);
  TEST_MAIN_END();
}

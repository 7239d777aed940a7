/* The library's compiled-in version (hlorun.h): a program compares these with the header's
 * HLORUN_VERSION_NUMBER / HLORUN_VERSION_STRING to find out which library it runs with. */
#include "hlorun/hlorun.h"

_Static_assert(HLORUN_VERSION_MINOR >= 0 && HLORUN_VERSION_MINOR < 100 && HLORUN_VERSION_PATCH >= 0 &&
                   HLORUN_VERSION_PATCH < 100,
               "HLORUN_VERSION_NUMBER gives MINOR and PATCH two decimal digits each");

int hr_version_number(void) { return HLORUN_VERSION_NUMBER; }

const char *hr_version_string(void) { return HLORUN_VERSION_STRING; }

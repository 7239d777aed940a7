#include "ir/ir.h"
hr_status hr_module_parse(const char *filename, const char *text, size_t len, const hr_parse_options *opts, hr_module **out) {
  (void)filename; (void)text; (void)len; (void)opts; *out = NULL;
  return hr_error(HR_UNIMPLEMENTED, "parser not written yet");
}
hr_status hr_module_parse_file(const char *path, const hr_parse_options *opts, hr_module **out) {
  (void)path; (void)opts; *out = NULL;
  return hr_error(HR_UNIMPLEMENTED, "parser not written yet");
}

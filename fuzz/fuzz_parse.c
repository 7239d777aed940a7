/* libFuzzer target for the StableHLO text parser and the bytecode writer: any byte string must
 * parse or fail cleanly, and a module that parses keeps the writer's promise (fuzz_write.h). */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_write.h"
#include "hlorun/hlorun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hr_parse_options opts = {0};
  opts.max_constant_bytes = (size_t)1 << 20; /* keep hostile splat constants small */
  hr_module *m = NULL;
  hr_status s = hr_module_parse("fuzz.mlir", (const char *)data, size, &opts, &m);
  if (!s) {
    check_written(m, &opts);
    hr_module_free(m);
  }
  hr_status_free(s);
  return 0;
}

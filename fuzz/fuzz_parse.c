/* libFuzzer target for the StableHLO text parser and the bytecode writer: any byte string must
 * parse or fail cleanly, and a module that parses must be written as a portable artifact or refused
 * (HR_UNIMPLEMENTED naming what), and what is written must read back (a broken promise traps). */
#include <stddef.h>
#include <stdint.h>

#include "formats/mlirbc/writer.h"
#include "hlorun/hlorun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes `m` as bytecode and reads it back: a write may be refused, a written file may not. */
static void round_trip(const hr_module *m, const hr_parse_options *opts) {
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  hr_status s = hr_bc_write_module(m, HR_BC_VERSION_DEFAULT, &bc);
  if (s) {
    if (hr_status_code(s) != HR_UNIMPLEMENTED && hr_status_code(s) != HR_OUT_OF_MEMORY) __builtin_trap();
    hr_status_free(s);
  } else {
    hr_module *back = NULL;
    s = hr_module_parse_bytecode("fuzz.mlirbc", bc.data, bc.len, opts, &back);
    if (s) __builtin_trap();
    hr_module_free(back);
  }
  hr_strbuf_free(&bc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hr_parse_options opts = {0};
  opts.max_constant_bytes = (size_t)1 << 20; /* keep hostile splat constants small */
  hr_module *m = NULL;
  hr_status s = hr_module_parse("fuzz.mlir", (const char *)data, size, &opts, &m);
  if (!s) {
    round_trip(m, &opts);
    hr_module_free(m);
  }
  hr_status_free(s);
  return 0;
}

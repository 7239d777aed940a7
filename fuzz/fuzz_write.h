/* The bytecode writer's promise, which the text and bytecode fuzz targets both check on every
 * module they read: the module is written as a portable artifact or refused (HR_UNIMPLEMENTED
 * naming what), and what is written reads back (a broken promise traps). */
#ifndef HLORUN_FUZZ_FUZZ_WRITE_H
#define HLORUN_FUZZ_FUZZ_WRITE_H

#include "formats/mlirbc/writer.h"
#include "hlorun/hlorun.h"

static inline void check_written(const hr_module *m, const hr_parse_options *opts) {
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

#endif

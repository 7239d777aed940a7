/* jax.export's calling convention applied to a parsed module (module_file.c): used for jax.export
 * files and for the modules of jax2tf's XlaCallModule nodes (formats/savedmodel). */
#ifndef HLORUN_FORMATS_MODULE_FILE_H
#define HLORUN_FORMATS_MODULE_FILE_H

#include "ir/ir.h"

/* A module exported for several platforms takes the index of the platform it runs on first (a
 * scalar i32, i64 in newer exports): bound here to the CPU's index (compared without case), else the
 * first platform's (a module lowered for an accelerator runs on the CPU when it calls nothing
 * platform-specific), and the parameter removed. `path` names the file in errors. */
hr_status hr_module_bind_platform(hr_module *m, const char *const *platforms, int n, const char *path);
/* Removes every @shape_assertion custom call (when the export disabled those checks). */
void hr_module_drop_shape_assertions(hr_module *m);

#endif

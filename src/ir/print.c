#include "ir/ir.h"
#include "base/strbuf.h"
hr_status hr_module_print_to(const hr_module *m, hr_strbuf *out) { (void)m; (void)out; return hr_error(HR_UNIMPLEMENTED, "printer not written yet"); }

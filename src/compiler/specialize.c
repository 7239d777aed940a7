#include "compiler/specialize.h"
hr_status hr_specialize(const hr_module *m, const char *fn_name, const hr_type *arg_types, int n_args,
                        const hr_folder *folder, const hr_allocator *a, hr_module **out) {
  (void)m; (void)fn_name; (void)arg_types; (void)n_args; (void)folder; (void)a;
  *out = NULL;
  return hr_error(HR_UNIMPLEMENTED, "specialization is being written");
}

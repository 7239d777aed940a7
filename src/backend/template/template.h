/* The template backend (template.c) beyond its table: what tests read. */
#ifndef HLORUN_BACKEND_TEMPLATE_TEMPLATE_H
#define HLORUN_BACKEND_TEMPLATE_TEMPLATE_H

#include <stdint.h>

/* Kernels run by template devices so far in this process. */
int64_t hr_template_runs(void);

#endif

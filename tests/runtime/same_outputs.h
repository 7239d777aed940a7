/* Test helpers shared by the runtime tests that run one program two ways (interpreter and
 * executable, JIT and AOT) and expect the same results bit for bit. Include after test.h. */
#ifndef HLORUN_TESTS_RUNTIME_SAME_OUTPUTS_H
#define HLORUN_TESTS_RUNTIME_SAME_OUTPUTS_H

#include <stdio.h>
#include <string.h>

#include "runtime/exec_internal.h" /* hr_spec_equal */

/* Same dtype, shape and bytes. */
static inline bool tensors_identical(const hr_tensor *a, const hr_tensor *b) {
  hr_tensor_spec sa = {a->dtype, a->shape}, sb = {b->dtype, b->shape};
  return hr_spec_equal(&sa, &sb) && a->nbytes == b->nbytes && memcmp(a->data, b->data, a->nbytes) == 0;
}

/* Checks that two result lists are equal bit for bit; `what` names the comparison in failures. */
static inline void check_same_outputs(hr_tensor **a, int na, hr_tensor **b, int nb, const char *what) {
  CHECK_EQ_INT(na, nb);
  for (int i = 0; i < na && i < nb; i++)
    if (!tensors_identical(a[i], b[i])) {
      fprintf(stderr, "%s: output %d differs\n", what, i);
      test_failures_++;
    }
}

#endif

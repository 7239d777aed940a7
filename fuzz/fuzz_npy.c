/* libFuzzer target for the .npy reader: any byte string must load or fail cleanly, read as it says
 * and read where a type is expected (the type picked by the input's length, so that every one-byte
 * type meets '|V1', '|i1' and '|u1' arrays). */
#include <stddef.h>
#include <stdint.h>

#include "hlorun/hlorun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hr_dtype expect[2] = {HR_DTYPE_INVALID, (hr_dtype)(size % HR_DTYPE_COUNT)};
  for (int i = 0; i < 2; i++) {
    hr_tensor *t = NULL;
    hr_status s = hr_npy_read_buffer_as(data, size, expect[i], NULL, (size_t)1 << 24, &t);
    hr_tensor_free(t);
    hr_status_free(s);
  }
  return 0;
}

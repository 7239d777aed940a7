/* libFuzzer target for the .npy reader: any byte string must load or fail cleanly. */
#include <stddef.h>
#include <stdint.h>

#include "hlorun/hlorun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hr_tensor *t = NULL;
  hr_status s = hr_npy_read_buffer(data, size, NULL, (size_t)1 << 24, &t);
  hr_tensor_free(t);
  hr_status_free(s);
  return 0;
}

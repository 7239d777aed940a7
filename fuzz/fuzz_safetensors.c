/* libFuzzer target for the safetensors reader: the input is written to a temporary file (the
 * reader maps files) and must load or fail cleanly. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "hlorun/hlorun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[] = "/tmp/hlorun_fuzz_stXXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 0;
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    close(fd);
    unlink(path);
    return 0;
  }
  fwrite(data, 1, size, f);
  fclose(f);
  hr_weights *w = NULL;
  hr_status s = hr_safetensors_read_file(path, NULL, (size_t)1 << 24, &w);
  if (w) {
    for (int i = 0; i < hr_weights_count(w); i++) {
      const hr_tensor *t = hr_weights_tensor(w, i);
      volatile unsigned char sink = t->nbytes ? ((const unsigned char *)t->data)[t->nbytes - 1] : 0;
      (void)sink; /* touch the last byte: it must lie inside the mapping */
    }
    hr_weights_free(w);
  }
  hr_status_free(s);
  unlink(path);
  return 0;
}

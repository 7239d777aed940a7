/* libFuzzer target for artifact files: any byte string, written to a file, must open as a program
 * or an executable or fail cleanly. Unless its last byte is 0xFF, an input of at least header +
 * trailer size gets the correct file size and CRC-32 patched in, so that mutations reach the
 * section, metadata, weight and program checks instead of stopping at the checksum. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifact/artifact_internal.h"
#include "base/crc.h"
#include "hlorun/hlorun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stores `n` little-endian bytes of `v` at `p`. */
static void store_le(uint8_t *p, int n, uint64_t v) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Patches the file size and the checksum of an input that has room for them. */
static void seal(uint8_t *b, size_t size) {
  if (size < HR_ARTIFACT_HEADER_SIZE + HR_ARTIFACT_TRAILER_SIZE || b[size - 1] == 0xFF) return;
  store_le(b + HR_AF_FILE_SIZE, 8, size);
  size_t body = size - HR_ARTIFACT_TRAILER_SIZE;
  store_le(b + body, HR_ARTIFACT_TRAILER_SIZE, hr_crc32(0, b, body));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/fuzz_artifact.%ld.hlo", (long)getpid());
  uint8_t *b = malloc(size ? size : 1);
  FILE *f = b ? fopen(path, "wb") : NULL;
  if (f) {
    memcpy(b, data, size);
    seal(b, size);
    size_t put = fwrite(b, 1, size, f);
    if (fclose(f) == 0 && put == size) {
      hr_exec_options opts = {.num_threads = 1, .max_arena_bytes = (size_t)64 << 20};
      hr_program *p = NULL;
      hr_status s = hr_artifact_open(path, &opts, &p);
      if (!s) hr_program_free(p);
      hr_status_free(s);
      hr_executable *e = NULL;
      s = hr_executable_open(path, &opts, &e);
      if (!s) hr_executable_free(e);
      hr_status_free(s);
    }
  }
  free(b);
  return 0;
}

/* libFuzzer target for the OCDBT reader. The input is a manifest and a data file split at the first
 * "OCDBT-DATA-FILE:" (without it, a manifest alone), written as manifest.ocdbt and
 * d/00000000000000000000000000000000 (the data file hr_ocdbt_write makes for a zero uuid, as the
 * seeds in fuzz/corpus_ocdbt/ were written) in a temporary directory; the store must open, list
 * and read every key, or fail cleanly. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/orbax/kvstore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MARKER "OCDBT-DATA-FILE:"
#define DATA_FILE "d/00000000000000000000000000000000"

/* Writes data[0..n) to `path`. */
static void write_part(const char *path, const uint8_t *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  if (n) fwrite(data, 1, n, f);
  fclose(f);
}

/* Reads the value of each listed key: it must match its listed length. */
static hr_status read_key(void *ctx, const char *key, size_t len) {
  unsigned char *value = NULL;
  size_t got = 0;
  hr_status s = hr_kvstore_read(ctx, key, NULL, (size_t)1 << 24, &value, &got);
  if (!s && got != len) __builtin_trap();
  hr_status_free(s);
  free(value);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char dir[] = "/tmp/hlorun_fuzz_ocdbtXXXXXX", path[64];
  if (!mkdtemp(dir)) return 0;
  const uint8_t *mark = memmem(data, size, MARKER, strlen(MARKER));
  snprintf(path, sizeof path, "%s/manifest.ocdbt", dir);
  write_part(path, data, mark ? (size_t)(mark - data) : size);
  if (mark) {
    snprintf(path, sizeof path, "%s/d", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/" DATA_FILE, dir);
    const uint8_t *rest = mark + strlen(MARKER);
    write_part(path, rest, size - (size_t)(rest - data));
  }
  hr_kvstore *kv = NULL;
  hr_status s = hr_kvstore_open_ocdbt(dir, NULL, &kv);
  if (kv) {
    hr_status_free(hr_kvstore_list(kv, "", read_key, kv));
    hr_kvstore_close(kv);
  }
  hr_status_free(s);
  snprintf(path, sizeof path, "%s/" DATA_FILE, dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/d", dir);
  rmdir(path);
  snprintf(path, sizeof path, "%s/manifest.ocdbt", dir);
  unlink(path);
  rmdir(dir);
  return 0;
}

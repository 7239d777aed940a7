/* libFuzzer target for the TensorBundle reader (src/formats/savedmodel/bundle*.c). The input is an
 * index followed by its data files, each after the marker "BUNDLE-DATA-FILE:" (data file 0 first);
 * without a marker it is an index read alone, without data files. Each part is copied to a buffer
 * of exactly its size, so that the sanitizer sees a read past it. The bundle must read or fail
 * cleanly; when it reads, every entry's bytes and strings are touched, every key is found again,
 * and every object-graph node is asked for its variable's key, which must name an entry or none.
 * Seeds: fuzz/corpus_bundle/ (bundles test_bundle writes with HLORUN_WRITE_FUZZ_SEEDS set) and,
 * from scripts/fuzz.sh, real variables.index files alone. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/savedmodel/bundle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MARKER "BUNDLE-DATA-FILE:"
enum { MAX_PARTS = 9 }; /* the index and up to 8 data files */

/* Checks what a read bundle gives: entries' bytes and strings, lookups, the object graph. */
static void exercise(const hr_bundle *b) {
  volatile unsigned sum = 0;
  for (int i = 0; i < hr_bundle_count(b); i++) {
    const hr_bundle_entry *e = hr_bundle_at(b, i);
    for (size_t k = 0; e->data && k < e->nbytes; k++) sum += ((const uint8_t *)e->data)[k];
    for (int64_t k = 0; e->strings && k < e->num_elements; k++)
      if (e->strings[k].len) sum += (uint8_t)e->strings[k].data[e->strings[k].len - 1];
    if (hr_bundle_find(b, e->key) != e) __builtin_trap();
  }
  for (int node = 0; node < hr_bundle_object_count(b); node++) {
    const char *key = hr_bundle_object_key(b, node, "VARIABLE_VALUE");
    if (key) sum += hr_bundle_find(b, key) != NULL;
    int child = hr_bundle_object_child(b, node, "_variables");
    if (child < -1 || child >= hr_bundle_object_count(b)) __builtin_trap();
  }
  (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *parts[MAX_PARTS] = {0};
  size_t lens[MAX_PARTS];
  int n = 0;
  const uint8_t *p = data, *end = data + size;
  while (n < MAX_PARTS) {
    const uint8_t *mark = n + 1 < MAX_PARTS ? memmem(p, (size_t)(end - p), MARKER, strlen(MARKER)) : NULL;
    lens[n] = mark ? (size_t)(mark - p) : (size_t)(end - p);
    parts[n] = malloc(lens[n] ? lens[n] : 1);
    if (lens[n]) memcpy(parts[n], p, lens[n]);
    n++;
    if (!mark) break;
    p = mark + strlen(MARKER);
  }
  hr_bundle *b = NULL;
  hr_status s = hr_bundle_read_index("fuzz/variables", parts[0], lens[0], n > 1 ? (const void *const *)(parts + 1) : NULL,
                                     lens + 1, n - 1, NULL, &b);
  if (b) exercise(b);
  hr_bundle_close(b);
  hr_status_free(s);
  for (int i = 0; i < n; i++) free(parts[i]);
  return 0;
}

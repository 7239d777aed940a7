/* libFuzzer target for the legacy Flax/Orbax msgpack checkpoint reader: the input is a whole
 * `checkpoint` file; every leaf it yields is touched and freed, or the read fails cleanly. */
#include <stddef.h>
#include <stdint.h>

#include "formats/orbax/msgpack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Touches the last byte of each array (it must lie inside the tensor) and frees it. */
static hr_status take_leaf(void *ctx, const char *path, hr_tensor *t, const char *placeholder) {
  (void)ctx, (void)path, (void)placeholder;
  if (t && t->nbytes) {
    volatile unsigned char sink = ((const unsigned char *)t->data)[t->nbytes - 1];
    (void)sink;
  }
  hr_tensor_free(t);
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hr_status_free(hr_msgpack_read_checkpoint("fuzz/checkpoint", data, size, NULL, (size_t)1 << 24, take_leaf, NULL));
  return 0;
}

/* libFuzzer target for the jax.export reader: any byte string must sniff, read or fail cleanly, and
 * whatever reads must format; the module view must lie inside the input. */
#include <stddef.h>
#include <stdint.h>

#include "formats/jaxexport/jaxexport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)hr_jaxexport_sniff(data, size);
  hr_jaxexport *e = NULL;
  hr_status s = hr_jaxexport_read("fuzz.bin", data, size, NULL, &e);
  if (e) {
    volatile uint8_t sink = e->module[e->module_size - 1]; /* the last module byte: inside the input */
    (void)sink;
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    hr_status_free(hr_jaxexport_format(e, &sb));
    hr_strbuf_free(&sb);
    hr_jaxexport_free(e);
  }
  hr_status_free(s);
  return 0;
}

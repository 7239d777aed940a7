/* libFuzzer target for the SavedModel / GraphDef reader: any byte string must read or fail cleanly;
 * what reads is described, each signature is followed to its XlaCallModule and, where that
 * works, its module built (or refused cleanly), and each object-graph function is lowered to a
 * module (or refused cleanly). */
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "formats/savedmodel/savedmodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  (void)hr_savedmodel_sniff(data, size);
  hr_savedmodel *sm = NULL;
  hr_status s = hr_savedmodel_read_bytes("fuzz.pb", data, size, NULL, &sm);
  if (sm) {
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    hr_savedmodel_describe(sm, &sb);
    hr_strbuf_free(&sb);
    for (int i = 0; i < sm->n_signatures; i++) {
      tf_program p;
      hr_status r = hr_savedmodel_resolve(sm, &sm->signatures[i], &p);
      hr_module *m = NULL;
      if (!r) r = hr_savedmodel_module(sm, &sm->signatures[i], &p, NULL, &m);
      hr_module_free(m);
      hr_status_free(r);
    }
    for (int i = 0; i < sm->n_object_functions; i++) {
      const tf_function *fn = NULL;
      hr_module *m = NULL;
      hr_status r = hr_savedmodel_object_function(sm, sm->object_functions[i].name, &fn);
      if (!r) r = hr_savedmodel_lower(sm, fn, NULL, &m);
      hr_module_free(m);
      hr_status_free(r);
    }
    hr_savedmodel_close(sm);
  }
  hr_status_free(s);
  return 0;
}

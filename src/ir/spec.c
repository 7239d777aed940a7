/* Tensor specs (hr_tensor_spec, the public API's shapes) and IR tensor types. */
#include <string.h>

#include "base/strbuf.h"
#include "ir/ir.h"

hr_tensor_spec hr_spec_of_type(const hr_type *t) {
  hr_tensor_spec s;
  memset(&s, 0, sizeof s);
  if (t->kind != HR_TYPE_TENSOR) return s;
  s.dtype = t->dtype;
  s.shape = t->shape;
  return s;
}

hr_type hr_type_of_spec(const hr_tensor_spec *s) {
  hr_type t;
  memset(&t, 0, sizeof t);
  t.kind = HR_TYPE_TENSOR;
  t.dtype = s->dtype;
  t.shape = s->shape;
  return t;
}

bool hr_spec_equal(const hr_tensor_spec *a, const hr_tensor_spec *b) {
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank) return false;
  if (a->shape.rank < 0 || a->shape.rank > HR_MAX_RANK) return false;
  for (int i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return false;
  return true;
}

void hr_spec_print(hr_strbuf *sb, const hr_tensor_spec *s) {
  hr_type t = hr_type_of_spec(s);
  hr_type_print(sb, &t);
}

hr_status hr_spec_mismatch(const char *what, const hr_tensor_spec *got, const hr_tensor_spec *want) {
  hr_strbuf g, w;
  hr_strbuf_init(&g, NULL);
  hr_strbuf_init(&w, NULL);
  hr_spec_print(&g, got);
  hr_spec_print(&w, want);
  hr_status s = hr_error(HR_INVALID_ARGUMENT, "%s is %s, expected %s", what, g.data ? g.data : "?",
                         w.data ? w.data : "?");
  hr_strbuf_free(&g);
  hr_strbuf_free(&w);
  return s;
}

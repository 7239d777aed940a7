/* interpreter.print's output: a tensor as StableHLO's reference interpreter prints it,
 *   %x = tensor<2x2xi8> {
 *     [
 *       [1, 2],
 *       [3, 4]
 *     ]
 *   }
 * (a scalar on one line: `tensor<ui8> {1}`), floats as %e, i1 as true/false. */
#include <inttypes.h>
#include <stdio.h>

#include "base/elem.h"
#include "interp/interp.h"

static void put_element(FILE *out, const hr_tensor *t, int64_t i) {
  hr_dtype d = t->dtype;
  if (d == HR_I1) {
    fputs(hr_load_int(d, t->data, i) ? "true" : "false", out);
  } else if (hr_dtype_is_complex(d)) {
    hr_c128 c = hr_load_complex(d, t->data, i);
    fprintf(out, "(%e, %e)", c.re, c.im);
  } else if (hr_dtype_is_real_float(d)) {
    fprintf(out, "%e", hr_load_float(d, t->data, i));
  } else if (hr_dtype_is_unsigned_int(d)) {
    fprintf(out, "%" PRIu64, (uint64_t)hr_load_int(d, t->data, i));
  } else {
    fprintf(out, "%" PRId64, hr_load_int(d, t->data, i));
  }
}

/* Prints dimension `dim` of the sub-array at flat offset `base`, indented by `indent` spaces. */
static void put_dim(FILE *out, const hr_tensor *t, const int64_t *strides, int dim, int64_t base, int indent) {
  int64_t n = t->shape.dims[dim];
  if (n == 0) {
    fprintf(out, "%*s[]", indent, "");
    return;
  }
  if (dim == t->shape.rank - 1) {
    fprintf(out, "%*s[", indent, "");
    for (int64_t i = 0; i < n; i++) {
      if (i) fputs(", ", out);
      put_element(out, t, base + i);
    }
    fputc(']', out);
    return;
  }
  fprintf(out, "%*s[\n", indent, "");
  for (int64_t i = 0; i < n; i++) {
    put_dim(out, t, strides, dim + 1, base + i * strides[dim], indent + 2);
    fputs(i + 1 < n ? ",\n" : "\n", out);
  }
  fprintf(out, "%*s]", indent, "");
}

void hr_interp_print_value(FILE *out, const char *name, const hr_tensor *t) {
  if (name) fprintf(out, "%%%s = ", name);
  fputs("tensor<", out);
  for (int i = 0; i < t->shape.rank; i++) fprintf(out, "%" PRId64 "x", t->shape.dims[i]);
  fprintf(out, "%s> {", hr_dtype_name(t->dtype));
  if (t->shape.rank == 0) {
    put_element(out, t, 0);
    fputs("}\n", out);
  } else {
    int64_t strides[HR_MAX_RANK];
    int64_t s = 1;
    for (int d = t->shape.rank - 1; d >= 0; d--) {
      strides[d] = s;
      s *= t->shape.dims[d];
    }
    fputc('\n', out);
    put_dim(out, t, strides, 0, 0, 2);
    fputs("\n}\n", out);
  }
  fflush(out);
}

/* Human-readable tensor printing for the CLI. */
#include <inttypes.h>

#include "base/elem.h"
#include "cli/cli.h"

enum { SUMMARIZE_ABOVE = 1000, EDGE_ITEMS = 3 };

void print_tensor_type(FILE *out, const hr_tensor *t) {
  fputs("tensor<", out);
  for (int i = 0; i < t->shape.rank; i++) fprintf(out, "%" PRId64 "x", t->shape.dims[i]);
  fprintf(out, "%s>", hr_dtype_name(t->dtype));
}

static void print_element(FILE *out, const hr_tensor *t, int64_t i) {
  hr_dtype d = t->dtype;
  if (d == HR_I1)
    fputs(hr_load_int(d, t->data, i) ? "true" : "false", out);
  else if (hr_dtype_is_complex(d)) {
    hr_c128 c = hr_load_complex(d, t->data, i);
    fprintf(out, "(%.8g%+.8gj)", c.re, c.im);
  } else if (hr_dtype_is_real_float(d))
    fprintf(out, "%.8g", hr_load_float(d, t->data, i));
  else if (d == HR_U64)
    fprintf(out, "%" PRIu64, (uint64_t)hr_load_int(d, t->data, i));
  else
    fprintf(out, "%" PRId64, hr_load_int(d, t->data, i));
}

/* Prints dimension `dim` of the sub-array starting at flat offset `base`. */
static void print_dim(FILE *out, const hr_tensor *t, const int64_t *strides, int dim, int64_t base, bool summarize) {
  if (dim == t->shape.rank) {
    print_element(out, t, base);
    return;
  }
  int64_t n = t->shape.dims[dim];
  fputc('[', out);
  for (int64_t i = 0; i < n; i++) {
    if (summarize && n > 2 * EDGE_ITEMS && i == EDGE_ITEMS) {
      fputs("..., ", out);
      i = n - EDGE_ITEMS;
    }
    print_dim(out, t, strides, dim + 1, base + i * strides[dim], summarize);
    if (i + 1 < n) fputs(dim + 1 < t->shape.rank ? ",\n " : ", ", out);
  }
  fputc(']', out);
}

void print_tensor(FILE *out, const hr_tensor *t) {
  int64_t strides[HR_MAX_RANK];
  hr_row_major_strides(&t->shape, strides);
  print_dim(out, t, strides, 0, 0, hr_tensor_num_elements(t) > SUMMARIZE_ABOVE);
  fputc('\n', out);
}

int report_error(hr_status s) {
  fprintf(stderr, "hlorun: %s: %s\n", hr_code_name(hr_status_code(s)), hr_status_message(s));
  hr_status_free(s);
  return 1;
}

/* hlorun check: run StableHLO test programs and report PASS/FAIL per file.
 *
 * A file passes when it parses and verifies, @main runs to completion, and every check.* custom
 * call in it holds. Files whose @main takes parameters (shape-polymorphic exports) are run on
 * generated inputs: every dynamic dimension and every scalar integer parameter (JAX passes the
 * dimension variables that way) gets the value of --dim (default 3), other elements get small
 * deterministic values; such a file passes when it runs and its results have the declared types. */
#include <stdlib.h>
#include <string.h>

#include "base/elem.h"
#include "base/limits.h"
#include "cli/cli.h"
#include "ir/ir.h"

typedef struct check_args {
  int64_t dim;
  bool quiet;
  int first_file; /* index in argv */
} check_args;

/* Fills element i of a generated input. */
static void fill_element(hr_tensor *t, int64_t i) {
  hr_dtype d = t->dtype;
  if (hr_dtype_is_complex(d)) {
    hr_c128 c = {(double)((i * 37) % 23) / 7.0 - 1.5, (double)((i * 11) % 13) / 5.0 - 1.0};
    hr_store_complex(d, t->data, i, c);
  } else if (hr_dtype_is_real_float(d)) {
    hr_store_float(d, t->data, i, (double)((i * 37) % 23) / 7.0 - 1.5);
  } else if (d == HR_I1) {
    hr_store_int(d, t->data, i, i % 2);
  } else {
    int64_t v = (i * 7 + 3) % 11;
    hr_store_int(d, t->data, i, hr_dtype_is_signed_int(d) ? v - 5 : v);
  }
}

/* Creates the generated input for parameter `p`. */
static hr_status make_input(const hr_func *fn, int p, int64_t dim, hr_tensor **out) {
  const hr_type *ty = &fn->body.args[p].type;
  if (ty->kind != HR_TYPE_TENSOR) return hr_error(HR_UNIMPLEMENTED, "parameter %d is not a tensor", p);
  hr_shape shape = ty->shape;
  for (int d = 0; d < shape.rank; d++)
    if (shape.dims[d] < 0) shape.dims[d] = dim;
  HR_TRY(hr_tensor_create(NULL, ty->dtype, &shape, HR_LIMIT_CHECK_TENSOR_BYTES, out));
  bool dimension_var = shape.rank == 0 && (hr_dtype_is_signed_int(ty->dtype) || hr_dtype_is_unsigned_int(ty->dtype)) &&
                       !(fn->arg_attrs && fn->arg_attrs[p]);
  int64_t n = hr_tensor_num_elements(*out);
  for (int64_t i = 0; i < n; i++) fill_element(*out, i);
  if (dimension_var) hr_store_int(ty->dtype, (*out)->data, 0, dim);
  return NULL;
}

/* Checks results against the function's declared result types. */
static hr_status check_result_types(const hr_func *fn, hr_tensor **outs, int n) {
  for (int i = 0; i < n; i++) {
    hr_type actual = hr_tensor_type(outs[i]->dtype, outs[i]->shape.rank, outs[i]->shape.dims);
    if (!hr_type_compatible(&actual, &fn->result_types[i]))
      return hr_error(HR_VERIFY_ERROR, "result %d does not have the declared type", i);
  }
  return NULL;
}

/* Runs one file; returns its status and the number of checks that passed. */
static hr_status check_file(const char *path, const check_args *a, int64_t *checks) {
  *checks = 0;
  hr_module *m;
  HR_TRY(hr_module_parse_file(path, NULL, &m));
  const hr_func *fn = hr_module_find_func(m, "main");
  hr_status s = fn ? NULL : hr_error(HR_NOT_FOUND, "%s: no function @main", path);
  hr_tensor *inputs[HR_LIMIT_CHECK_PARAMS] = {0};
  if (!s && fn->n_args > HR_LIMIT_CHECK_PARAMS)
    s = hr_error(HR_UNIMPLEMENTED, "@main has more than %d parameters", HR_LIMIT_CHECK_PARAMS);
  for (int p = 0; !s && p < fn->n_args; p++) s = make_input(fn, p, a->dim, &inputs[p]);
  hr_tensor **outs = NULL;
  int n_outs = 0;
  hr_run_options opts = {.run_checks = true, .num_threads = 1, .checks_passed = checks};
  if (!s) s = hr_module_run(m, "main", inputs, fn->n_args, &opts, &outs, &n_outs);
  if (!s) s = check_result_types(fn, outs, n_outs);
  hr_tensors_free(outs, n_outs);
  for (int p = 0; p < HR_LIMIT_CHECK_PARAMS; p++) hr_tensor_free(inputs[p]);
  hr_module_free(m);
  return s;
}

static int parse_check_args(int argc, char **argv, check_args *a) {
  a->dim = 3;
  a->quiet = false;
  int i = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "--quiet") == 0) {
      a->quiet = true;
    } else if (strcmp(argv[i], "--dim") == 0 && i + 1 < argc) {
      char *end;
      long long v = strtoll(argv[++i], &end, 10);
      if (*end || v < 0 || v > 1 << 20) {
        fprintf(stderr, "hlorun check: --dim takes an integer in [0, 1048576]\n");
        return 2;
      }
      a->dim = v;
    } else {
      fprintf(stderr, "hlorun check: unknown option '%s'\n", argv[i]);
      return 2;
    }
  }
  if (i == argc) {
    fprintf(stderr, "usage: hlorun check [--dim N] [--quiet] FILE.mlir...\n");
    return 2;
  }
  a->first_file = i;
  return 0;
}

int cmd_check(int argc, char **argv) {
  check_args a;
  int rc = parse_check_args(argc, argv, &a);
  if (rc) return rc;
  int passed = 0, failed = 0;
  for (int i = a.first_file; i < argc; i++) {
    int64_t checks;
    hr_status s = check_file(argv[i], &a, &checks);
    if (s) {
      failed++;
      printf("FAIL %s: %s: %s\n", argv[i], hr_code_name(hr_status_code(s)), hr_status_message(s));
      hr_status_free(s);
    } else {
      passed++;
      if (!a.quiet) printf("PASS %s (%lld checks)\n", argv[i], (long long)checks);
    }
    fflush(stdout);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

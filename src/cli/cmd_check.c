/* hlorun check: run StableHLO test programs and report PASS/FAIL per test case.
 *
 * A file may hold several modules, split as lit's -split-input-file does at lines `// -----`;
 * each part is parsed on its own, with the line numbers of the file. A module with @main is one
 * test case (named by the file alone when the file is not split); one without @main has a test
 * case per public function without parameters, run in order and named `file:function`. A case
 * passes when its module parses and verifies, the function runs to completion, and every check.*
 * custom call and check dialect op in it holds. Files whose @main takes parameters (shape-polymorphic exports) are run on
 * generated inputs: every dynamic dimension and every scalar integer parameter (JAX passes the
 * dimension variables that way) gets the value of --dim (default 3), other elements get small
 * deterministic values; such a file passes when it runs and its results have the declared types.
 * With --summary, a line `FILE: passed/total` per file follows, before the closing total. */
#include <stdlib.h>
#include <string.h>

#include "base/elem.h"
#include "base/file.h"
#include "base/limits.h"
#include "cli/cli.h"
#include "ir/ir.h"

typedef struct check_args {
  int64_t dim;
  bool quiet;
  bool summary;   /* print each file's passed/total after the cases */
  int first_file; /* index in argv */
} check_args;

/* The counts of test cases so far. */
typedef struct tally {
  int passed, failed;
} tally;

/* The line lit's -split-input-file splits a file at. */
static const char split_marker[] = "// -----";

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

/* Runs @main of `m` on generated inputs; sets *checks to the number of checks that held. */
static hr_status run_main(const hr_module *m, const hr_func *fn, const check_args *a, int64_t *checks) {
  hr_tensor *inputs[HR_LIMIT_CHECK_PARAMS] = {0};
  hr_status s = NULL;
  if (fn->n_args > HR_LIMIT_CHECK_PARAMS)
    s = hr_error(HR_UNIMPLEMENTED, "@main has more than %d parameters", HR_LIMIT_CHECK_PARAMS);
  for (int p = 0; !s && p < fn->n_args; p++) s = make_input(fn, p, a->dim, &inputs[p]);
  hr_tensor **outs = NULL;
  int n_outs = 0;
  hr_run_options opts = {.run_checks = true, .num_threads = 1, .checks_passed = checks};
  if (!s) s = hr_module_run(m, fn->name, inputs, fn->n_args, &opts, &outs, &n_outs);
  if (!s) s = check_result_types(fn, outs, n_outs);
  hr_tensors_free(outs, n_outs);
  for (int p = 0; p < HR_LIMIT_CHECK_PARAMS; p++) hr_tensor_free(inputs[p]);
  return s;
}

/* Prints the outcome of the test case `file[:function]`, takes `s` and counts the case. */
static void report(const check_args *a, tally *t, const char *file, const char *function, hr_status s,
                   int64_t checks) {
  const char *sep = function ? ":" : "";
  if (s) {
    t->failed++;
    printf("FAIL %s%s%s: %s: %s\n", file, sep, function ? function : "", hr_code_name(hr_status_code(s)),
           hr_status_message(s));
    hr_status_free(s);
  } else {
    t->passed++;
    if (!a->quiet) printf("PASS %s%s%s (%lld checks)\n", file, sep, function ? function : "", (long long)checks);
  }
  fflush(stdout);
}

/* Whether `f` is a test case of a module without @main: public, defined, without parameters. */
static bool is_test_function(const hr_func *f) {
  return !f->is_private && !f->is_declaration && f->n_args == 0;
}

/* Runs the test cases of one module parsed from `path`; `split` when the file held several. */
static void check_module(const char *path, const hr_module *m, bool split, const check_args *a, tally *t) {
  int64_t checks = 0;
  const hr_func *fn = hr_module_find_func(m, "main");
  if (fn) {
    hr_status s = run_main(m, fn, a, &checks);
    report(a, t, path, split ? "main" : NULL, s, checks);
    return;
  }
  int cases = 0;
  for (int i = 0; i < m->n_funcs; i++) {
    const hr_func *f = m->funcs[i];
    if (!is_test_function(f)) continue;
    cases++;
    checks = 0;
    hr_run_options opts = {.run_checks = true, .num_threads = 1, .checks_passed = &checks};
    hr_tensor **outs = NULL;
    int n_outs = 0;
    hr_status s = hr_module_run(m, f->name, NULL, 0, &opts, &outs, &n_outs);
    hr_tensors_free(outs, n_outs);
    report(a, t, path, f->name, s, checks);
  }
  if (!cases && !(split && m->n_funcs == 0)) /* an empty part of a split file tests only parsing */
    report(a, t, path, NULL,
           hr_error(HR_NOT_FOUND, "%s: no function @main and no public function without parameters", path), 0);
}

/* The length of the line at `p` (up to `end`), without its newline. */
static size_t line_length(const char *p, const char *end) {
  const char *nl = memchr(p, '\n', (size_t)(end - p));
  return (size_t)((nl ? nl : end) - p);
}

/* Whether the line [p, p + len) is the split marker, blanks around it allowed. */
static bool is_marker_line(const char *p, size_t len) {
  while (len && (*p == ' ' || *p == '\t')) p++, len--;
  while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r')) len--;
  return len == sizeof split_marker - 1 && memcmp(p, split_marker, len) == 0;
}

/* The start of the next part after `p`: just past the next marker line, or NULL when none. Sets
 * *part_end to where the current part ends (the marker line's start, or `end`). */
static const char *next_part(const char *p, const char *end, const char **part_end) {
  for (const char *line = p; line < end;) {
    size_t len = line_length(line, end);
    if (is_marker_line(line, len)) {
      *part_end = line;
      return line + len < end ? line + len + 1 : end;
    }
    line += len + 1;
  }
  *part_end = end;
  return NULL;
}

/* Parses the part [from, to) of `text` as a module: the text before it becomes blank lines, so
 * that positions name the file's own lines. */
static hr_status parse_part(const char *path, const char *text, const char *from, const char *to, hr_module **out) {
  size_t lines = 0;
  for (const char *c = text; c < from; c++) lines += *c == '\n';
  size_t len = lines + (size_t)(to - from);
  char *buf = malloc(len + 1);
  if (!buf) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  memset(buf, '\n', lines);
  memcpy(buf + lines, from, (size_t)(to - from));
  buf[len] = '\0';
  hr_status s = hr_module_parse(path, buf, len, NULL, out);
  free(buf);
  return s;
}

/* Runs the modules of a file split at marker lines, each part on its own. */
static void check_split_file(const char *path, const char *text, size_t len, const check_args *a, tally *t) {
  const char *end = text + len;
  for (const char *p = text; p;) {
    const char *part_end;
    const char *next = next_part(p, end, &part_end);
    hr_module *m = NULL;
    hr_status s = parse_part(path, text, p, part_end, &m);
    if (s)
      report(a, t, path, NULL, s, 0);
    else
      check_module(path, m, true, a, t);
    hr_module_free(m);
    p = next;
  }
}

/* Runs the test cases of one file: a split text file part by part, any other module file (text,
 * bytecode, jax.export) whole. */
static void check_file(const char *path, const check_args *a, tally *t) {
  char *text = NULL;
  size_t len = 0;
  hr_status s = hr_read_file(path, NULL, HR_LIMIT_MODULE_FILE_BYTES, &text, &len);
  const char *part_end;
  if (!s && next_part(text, text + len, &part_end)) {
    check_split_file(path, text, len, a, t);
  } else if (!s) {
    hr_module *m = NULL;
    s = hr_module_parse_file(path, NULL, &m);
    if (!s) check_module(path, m, false, a, t);
    hr_module_free(m);
  }
  if (s) report(a, t, path, NULL, s, 0);
  hr_default_allocator()->free(NULL, text);
}

static int parse_check_args(int argc, char **argv, check_args *a) {
  a->dim = 3;
  a->quiet = false;
  a->summary = false;
  int i = 0;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "--quiet") == 0) {
      a->quiet = true;
    } else if (strcmp(argv[i], "--summary") == 0) {
      a->summary = true;
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
    fprintf(stderr, "usage: hlorun check [--dim N] [--quiet] [--summary] FILE.mlir...\n");
    return 2;
  }
  a->first_file = i;
  return 0;
}

/* --summary: `FILE: passed/total` for each of the n files, then `total: passed/total`. */
static void print_summary(char *const *files, const tally *per_file, int n, const tally *total) {
  for (int i = 0; i < n; i++)
    printf("%s: %d/%d\n", files[i], per_file[i].passed, per_file[i].passed + per_file[i].failed);
  printf("total: %d/%d\n", total->passed, total->passed + total->failed);
}

int cmd_check(int argc, char **argv) {
  check_args a;
  int rc = parse_check_args(argc, argv, &a);
  if (rc) return rc;
  tally t = {0, 0};
  tally *per_file = calloc((size_t)(argc - a.first_file), sizeof *per_file);
  if (!per_file) {
    fprintf(stderr, "hlorun check: out of memory\n");
    return 1;
  }
  for (int i = a.first_file; i < argc; i++) {
    tally *f = &per_file[i - a.first_file];
    check_file(argv[i], &a, f);
    t.passed += f->passed;
    t.failed += f->failed;
  }
  if (a.summary) print_summary(argv + a.first_file, per_file, argc - a.first_file, &t);
  free(per_file);
  printf("%d passed, %d failed\n", t.passed, t.failed);
  return t.failed ? 1 : 0;
}

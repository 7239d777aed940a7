/* Parses every program of the conformance corpus (../shared/conformance/stablehlo-testdata) and
 * requires all of them to be accepted. Each parsed module is then written back in MLIR's generic op
 * form (by a small writer in this file, independent of the printer) and parsed again; the two
 * modules must match op for op: same op codes, operands, result types, regions, and attributes
 * equal under hr_attr_equal. That checks, for every op in the corpus, that its pretty spelling and
 * its generic spelling parse to the same thing. Exits 77 (skipped) when the corpus is absent. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/file.h"
#include "base/numeric.h"
#include "base/strbuf.h"
#include "ir/ir.h"
#include "corpus.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Generic-form writer                                                                             */
/* ---------------------------------------------------------------------------------------------- */

static void put_type(hr_strbuf *sb, const hr_type *t) {
  if (t->kind == HR_TYPE_TOKEN) {
    hr_strbuf_puts(sb, "!stablehlo.token");
  } else if (t->kind == HR_TYPE_TUPLE) {
    hr_strbuf_puts(sb, "tuple<");
    for (int i = 0; i < t->n_elems; i++) {
      if (i) hr_strbuf_puts(sb, ", ");
      put_type(sb, &t->elems[i]);
    }
    hr_strbuf_putc(sb, '>');
  } else {
    hr_strbuf_puts(sb, "tensor<");
    for (int i = 0; i < t->shape.rank; i++) {
      if (t->shape.dims[i] < 0)
        hr_strbuf_puts(sb, "?x");
      else
        hr_strbuf_printf(sb, "%" PRId64 "x", t->shape.dims[i]);
    }
    hr_strbuf_printf(sb, "%s>", hr_dtype_name(t->dtype));
  }
}

/* A quoted string with every non-printable byte, quote and backslash escaped as \XX. */
static void put_string(hr_strbuf *sb, const char *s, size_t n) {
  hr_strbuf_putc(sb, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
      hr_strbuf_putc(sb, (char)c);
    else
      hr_strbuf_printf(sb, "\\%02X", c);
  }
  hr_strbuf_putc(sb, '"');
}

/* A float value in a form the parser reads back exactly. */
static void put_float(hr_strbuf *sb, double v) {
  if (isnan(v))
    hr_strbuf_puts(sb, "nan");
  else if (isinf(v))
    hr_strbuf_puts(sb, v < 0 ? "-inf" : "inf");
  else
    hr_strbuf_printf(sb, "%.17e", v);
}

/* The bit pattern of a value of a float type, for `0x... : type` literals. */
static uint64_t float_bits(hr_dtype t, double v) {
  switch (t) {
    case HR_F16: return hr_f64_to_f16(v);
    case HR_BF16: return hr_f64_to_bf16(v);
    case HR_F32: return hr_f32_bits((float)v);
    default: return hr_f64_bits(v);
  }
}

static void put_attr(hr_strbuf *sb, const hr_attr *a);

static void put_named(hr_strbuf *sb, const hr_named_attr *e, int n, bool quote) {
  for (int i = 0; i < n; i++) {
    if (i) hr_strbuf_puts(sb, ", ");
    if (quote)
      put_string(sb, e[i].name, strlen(e[i].name));
    else
      hr_strbuf_puts(sb, e[i].name);
    hr_strbuf_puts(sb, " = ");
    put_attr(sb, e[i].value);
  }
}

static void put_attr(hr_strbuf *sb, const hr_attr *a) {
  switch (a->kind) {
    case HR_ATTR_UNIT: hr_strbuf_puts(sb, "unit"); break;
    case HR_ATTR_BOOL: hr_strbuf_puts(sb, a->u.b ? "true" : "false"); break;
    case HR_ATTR_INT:
      if (a->u.i.dtype == HR_U64)
        hr_strbuf_printf(sb, "%" PRIu64 " : ui64", (uint64_t)a->u.i.value);
      else
        hr_strbuf_printf(sb, "%" PRId64, a->u.i.value);
      if (a->u.i.is_index)
        hr_strbuf_puts(sb, " : index");
      else if (a->u.i.dtype != HR_DTYPE_INVALID && a->u.i.dtype != HR_U64)
        hr_strbuf_printf(sb, " : %s", hr_dtype_name(a->u.i.dtype));
      break;
    case HR_ATTR_FLOAT:
      if (a->u.f.dtype == HR_DTYPE_INVALID)
        put_float(sb, a->u.f.value);
      else
        hr_strbuf_printf(sb, "0x%" PRIX64 " : %s", float_bits(a->u.f.dtype, a->u.f.value),
                         hr_dtype_name(a->u.f.dtype));
      break;
    case HR_ATTR_STRING: put_string(sb, a->u.str.data, a->u.str.len); break;
    case HR_ATTR_SYMBOL:
      hr_strbuf_putc(sb, '@');
      put_string(sb, a->u.str.data, a->u.str.len);
      break;
    case HR_ATTR_OPAQUE:
      hr_strbuf_putc(sb, '#');
      hr_strbuf_append(sb, a->u.str.data, a->u.str.len);
      break;
    case HR_ATTR_TYPE: put_type(sb, &a->u.type); break;
    case HR_ATTR_ARRAY:
      hr_strbuf_putc(sb, '[');
      for (int i = 0; i < a->u.array.n; i++) {
        if (i) hr_strbuf_puts(sb, ", ");
        put_attr(sb, a->u.array.items[i]);
      }
      hr_strbuf_putc(sb, ']');
      break;
    case HR_ATTR_DENSE_ARRAY:
      hr_strbuf_printf(sb, "array<%s", hr_dtype_name(a->u.dense_array.dtype));
      for (int64_t i = 0; i < a->u.dense_array.n; i++) {
        hr_strbuf_puts(sb, i ? ", " : ": ");
        if (a->u.dense_array.floats)
          put_float(sb, a->u.dense_array.floats[i]);
        else if (a->u.dense_array.dtype == HR_I1)
          hr_strbuf_puts(sb, a->u.dense_array.ints[i] ? "true" : "false");
        else if (a->u.dense_array.dtype == HR_U64)
          hr_strbuf_printf(sb, "%" PRIu64, (uint64_t)a->u.dense_array.ints[i]);
        else
          hr_strbuf_printf(sb, "%" PRId64, a->u.dense_array.ints[i]);
      }
      hr_strbuf_putc(sb, '>');
      break;
    case HR_ATTR_DENSE: {
      hr_strbuf_puts(sb, "dense<\"0x");
      const unsigned char *d = a->u.dense.data;
      for (size_t i = 0; i < a->u.dense.nbytes; i++) hr_strbuf_printf(sb, "%02X", d[i]);
      hr_strbuf_puts(sb, "\"> : ");
      put_type(sb, &a->u.dense.type);
      break;
    }
    case HR_ATTR_DICT:
      hr_strbuf_putc(sb, '{');
      put_named(sb, a->u.dict.entries, a->u.dict.n, true);
      hr_strbuf_putc(sb, '}');
      break;
    case HR_ATTR_ENUM:
      hr_strbuf_printf(sb, "#%s<%s %s>", a->u.enm.dialect, a->u.enm.name, a->u.enm.value);
      break;
    case HR_ATTR_STRUCT:
      hr_strbuf_printf(sb, "#%s<%s", a->u.strct.name,
                       strcmp(a->u.strct.name, "stablehlo.conv") == 0 ? "raw " : "");
      put_named(sb, a->u.strct.fields, a->u.strct.n, false);
      hr_strbuf_putc(sb, '>');
      break;
  }
}

static void put_block(hr_strbuf *sb, const hr_block *b, bool header);

/* Writes one op in generic form, naming every value %v<id>. */
static void put_op(hr_strbuf *sb, const hr_op *op) {
  for (int i = 0; i < op->n_results; i++)
    hr_strbuf_printf(sb, "%s%%v%u", i ? ", " : "", op->results[i].id);
  if (op->n_results) hr_strbuf_puts(sb, " = ");
  hr_strbuf_printf(sb, "\"%s\"(", hr_opcode_name(op->code));
  for (int i = 0; i < op->n_operands; i++)
    hr_strbuf_printf(sb, "%s%%v%u", i ? ", " : "", op->operands[i]->id);
  hr_strbuf_putc(sb, ')');
  if (op->n_regions) {
    hr_strbuf_puts(sb, " (");
    for (int r = 0; r < op->n_regions; r++) {
      if (r) hr_strbuf_puts(sb, ", ");
      hr_strbuf_puts(sb, "{\n");
      put_block(sb, &op->regions[r], true);
      hr_strbuf_putc(sb, '}');
    }
    hr_strbuf_putc(sb, ')');
  }
  if (op->n_attrs) {
    hr_strbuf_puts(sb, " {");
    put_named(sb, op->attrs, op->n_attrs, true);
    hr_strbuf_putc(sb, '}');
  }
  hr_strbuf_puts(sb, " : (");
  for (int i = 0; i < op->n_operands; i++) {
    if (i) hr_strbuf_puts(sb, ", ");
    put_type(sb, &op->operands[i]->type);
  }
  hr_strbuf_puts(sb, ") -> (");
  for (int i = 0; i < op->n_results; i++) {
    if (i) hr_strbuf_puts(sb, ", ");
    put_type(sb, &op->results[i].type);
  }
  hr_strbuf_puts(sb, ")\n");
}

static void put_block(hr_strbuf *sb, const hr_block *b, bool header) {
  if (header && b->n_args) {
    hr_strbuf_puts(sb, "^bb0(");
    for (int i = 0; i < b->n_args; i++) {
      hr_strbuf_printf(sb, "%s%%v%u: ", i ? ", " : "", b->args[i].id);
      put_type(sb, &b->args[i].type);
    }
    hr_strbuf_puts(sb, "):\n");
  }
  for (int i = 0; i < b->n_ops; i++) put_op(sb, b->ops[i]);
}

static void put_module(hr_strbuf *sb, const hr_module *m) {
  for (int f = 0; f < m->n_funcs; f++) {
    const hr_func *fn = m->funcs[f];
    hr_strbuf_puts(sb, "func.func @");
    put_string(sb, fn->name, strlen(fn->name));
    hr_strbuf_putc(sb, '(');
    for (int i = 0; i < fn->n_args; i++) {
      hr_strbuf_printf(sb, "%s%%v%u: ", i ? ", " : "", fn->body.args[i].id);
      put_type(sb, &fn->body.args[i].type);
    }
    hr_strbuf_puts(sb, ") -> (");
    for (int i = 0; i < fn->n_results; i++) {
      if (i) hr_strbuf_puts(sb, ", ");
      put_type(sb, &fn->result_types[i]);
    }
    hr_strbuf_puts(sb, ") {\n");
    put_block(sb, &fn->body, false);
    hr_strbuf_puts(sb, "}\n");
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Structural comparison                                                                           */
/* ---------------------------------------------------------------------------------------------- */

static bool same_block(const hr_block *a, const hr_block *b, long *ops);

static bool same_op(const hr_op *a, const hr_op *b, long *ops) {
  if (a->code != b->code || a->n_operands != b->n_operands || a->n_results != b->n_results ||
      a->n_regions != b->n_regions || a->n_attrs != b->n_attrs)
    return false;
  for (int i = 0; i < a->n_operands; i++)
    if (a->operands[i]->id != b->operands[i]->id) return false;
  for (int i = 0; i < a->n_results; i++)
    if (a->results[i].id != b->results[i].id ||
        !hr_type_equal(&a->results[i].type, &b->results[i].type))
      return false;
  for (int i = 0; i < a->n_attrs; i++)
    if (!hr_attr_equal(a->attrs[i].value, hr_op_attr(b, a->attrs[i].name))) return false;
  for (int r = 0; r < a->n_regions; r++)
    if (!same_block(&a->regions[r], &b->regions[r], ops)) return false;
  (*ops)++;
  return true;
}

static bool same_block(const hr_block *a, const hr_block *b, long *ops) {
  if (a->n_args != b->n_args || a->n_ops != b->n_ops) return false;
  for (int i = 0; i < a->n_args; i++)
    if (a->args[i].id != b->args[i].id || !hr_type_equal(&a->args[i].type, &b->args[i].type))
      return false;
  for (int i = 0; i < a->n_ops; i++)
    if (!same_op(a->ops[i], b->ops[i], ops)) {
      fprintf(stderr, "  first difference: %s at %u:%u\n", hr_opcode_name(a->ops[i]->code),
              a->ops[i]->loc.line, a->ops[i]->loc.col);
      return false;
    }
  return true;
}

static bool same_module(const hr_module *a, const hr_module *b, long *ops) {
  if (a->n_funcs != b->n_funcs) return false;
  for (int f = 0; f < a->n_funcs; f++) {
    const hr_func *x = a->funcs[f], *y = b->funcs[f];
    if (strcmp(x->name, y->name) != 0 || x->n_values != y->n_values ||
        x->n_results != y->n_results || !same_block(&x->body, &y->body, ops))
      return false;
    for (int i = 0; i < x->n_results; i++)
      if (!hr_type_equal(&x->result_types[i], &y->result_types[i])) return false;
  }
  return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Driver                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


/* Parses the generic rewrite of `m` and compares it with `m`. */
static void check_round_trip(const char *path, const hr_module *m, long *ops) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  put_module(&sb, m);
  CHECK_OK(hr_strbuf_status(&sb));
  hr_module *g = NULL;
  hr_status s = hr_module_parse(path, sb.data ? sb.data : "", sb.len, NULL, &g);
  if (s) {
    fprintf(stderr, "%s: generic rewrite does not parse: %s\n", path, hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
  } else if (!same_module(m, g, ops)) {
    fprintf(stderr, "%s: generic rewrite differs from the original\n", path);
    test_failures_++;
  }
  hr_module_free(g);
  hr_strbuf_free(&sb);
}

TEST(every_corpus_file_parses) {
  corpus c;
  if (!corpus_open(&c)) exit(77);
  int n = c.n;
  char **files = c.paths;
  int failed = 0;
  long ops = 0;
  size_t bytes = 0;
  double parse_time = 0;
  for (int i = 0; i < n; i++) {
    char *text;
    size_t len;
    hr_status s = hr_read_file(files[i], hr_default_allocator(), (size_t)1 << 30, &text, &len);
    hr_module *m = NULL;
    if (!s) {
      double t0 = now_s();
      s = hr_module_parse(files[i], text, len, NULL, &m);
      parse_time += now_s() - t0;
      bytes += len;
      free(text);
    }
    if (s) {
      if (failed++ < 20) fprintf(stderr, "%s\n", hr_status_message(s));
      hr_status_free(s);
      continue;
    }
    check_round_trip(files[i], m, &ops);
    hr_module_free(m);
  }
  printf("parsed %d of %d files (%.1f MB) in %.3f s; generic round trip matched %ld ops\n",
         n - failed, n, (double)bytes / 1e6, parse_time, ops);
  CHECK_EQ_INT(failed, 0);
  corpus_close(&c);
}

int main(void) {
  RUN(every_corpus_file_parses);
  TEST_MAIN_END();
}

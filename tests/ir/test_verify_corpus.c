/* Conformance corpus check: every stablehlo-testdata program parses and verifies, and shape
 * inference reproduces every statically shaped declared result type exactly. Then, as a robustness
 * sweep, every op's attributes and types are corrupted one at a time (extreme integers, truncated
 * lists, changed ranks and element types, missing terminators): inference must answer each with
 * a result or an HR_VERIFY_ERROR, never crash (run it under -DHLORUN_SANITIZE=ON), and the module
 * must verify again once restored.
 * Skipped (exit 77) when ../shared/conformance/stablehlo-testdata is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/infer_internal.h"
#include "corpus.h"
#include "test.h"

#define MAX_OPERANDS 4096
#define MAX_REPORTS 20

/* Counters over the whole corpus. */
typedef struct stats {
  int files, parsed, failed;
  long ops, checked, mismatches;
  long probes, probe_failures; /* inference calls on corrupted ops, and wrong answers */
} stats;

/* Values written into integer attributes and dimensions by the robustness sweep. */
static const int64_t extremes[] = {-2, -1, 0, 1, 2, 3, 17, INT64_MAX, INT64_MIN, (int64_t)1 << 40};
#define N_EXTREMES ((int)(sizeof extremes / sizeof extremes[0]))

/* Reports an inference mismatch (only the first MAX_REPORTS). */
static void report_mismatch(stats *st, const char *file, const hr_op *op, int i, const hr_type *declared,
                            const hr_type *inferred) {
  if (st->mismatches++ >= MAX_REPORTS) return;
  hri_tbuf b1, b2;
  fprintf(stderr, "%s:%u:%u: %s: result #%d declared %s, inferred %s\n", file, op->loc.line, op->loc.col,
          hr_opcode_name(op->code), i, hri_type_str(declared, &b1), hri_type_str(inferred, &b2));
}

/* Infers op's results from its declared operand types and compares static declared results. */
static void check_op(stats *st, const char *file, const hr_op *op) {
  static hr_type in[MAX_OPERANDS], out[MAX_OPERANDS];
  st->ops++;
  if (op->n_operands > MAX_OPERANDS || op->n_results > MAX_OPERANDS) return;
  for (int i = 0; i < op->n_operands; i++) in[i] = op->operands[i]->type;
  hr_status s = hr_infer_result_types(op, in, NULL, out);
  if (s) {
    if (st->mismatches++ < MAX_REPORTS) fprintf(stderr, "%s: %s\n", file, hr_status_message(s));
    hr_status_free(s);
    return;
  }
  for (int i = 0; i < op->n_results; i++) {
    const hr_type *declared = &op->results[i].type;
    if (!hr_type_is_static(declared)) continue;
    st->checked++;
    if (!hr_type_equal(declared, &out[i])) report_mismatch(st, file, op, i, declared, &out[i]);
  }
}

/* Checks every op of a block and its nested regions. */
static void check_block(stats *st, const char *file, const hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    const hr_op *op = b->ops[i];
    for (int r = 0; r < op->n_regions; r++) check_block(st, file, &op->regions[r]);
    check_op(st, file, op);
  }
}

/* Runs inference on a (possibly corrupted) op: it must succeed with well-formed results or fail
 * with HR_VERIFY_ERROR. */
static void probe(stats *st, const char *file, const hr_op *op) {
  static hr_type in[MAX_OPERANDS], out[MAX_OPERANDS];
  if (op->n_operands > MAX_OPERANDS || op->n_results > MAX_OPERANDS) return;
  for (int i = 0; i < op->n_operands; i++) in[i] = op->operands[i]->type;
  hr_status s = hr_infer_result_types(op, in, NULL, out);
  st->probes++;
  bool ok = s ? hr_status_code(s) == HR_VERIFY_ERROR : true;
  for (int i = 0; !s && i < op->n_results; i++) {
    int64_t n;
    hr_status e = hr_type_is_static(&out[i]) ? hr_shape_num_elements(&out[i].shape, &n) : NULL;
    ok = ok && !e && !hri_type_problem(&out[i]);
    hr_status_free(e);
  }
  if (!ok && st->probe_failures++ < MAX_REPORTS)
    fprintf(stderr, "%s:%u:%u: %s: bad answer to a corrupted op: %s\n", file, op->loc.line, op->loc.col,
            hr_opcode_name(op->code), s ? hr_status_message(s) : "malformed result type");
  hr_status_free(s);
}

/* Corrupts the integers of attribute `a` (and nested lists and structs) one at a time. */
static void corrupt_attr(stats *st, const char *file, const hr_op *op, hr_attr *a, int depth) {
  if (!a || depth > 3) return;
  if (a->kind == HR_ATTR_INT) {
    int64_t saved = a->u.i.value;
    for (int v = 0; v < N_EXTREMES; v++) {
      a->u.i.value = extremes[v];
      probe(st, file, op);
    }
    a->u.i.value = saved;
  } else if (a->kind == HR_ATTR_DENSE_ARRAY && a->u.dense_array.ints) {
    for (int64_t k = 0; k < a->u.dense_array.n && k < 8; k++) {
      int64_t saved = a->u.dense_array.ints[k];
      for (int v = 0; v < N_EXTREMES; v++) {
        a->u.dense_array.ints[k] = extremes[v];
        probe(st, file, op);
      }
      a->u.dense_array.ints[k] = saved;
    }
    if (a->u.dense_array.n > 0) {
      a->u.dense_array.n--;
      probe(st, file, op);
      a->u.dense_array.n++;
    }
  } else if (a->kind == HR_ATTR_DENSE && a->u.dense.type.dtype == HR_I64 && !a->u.dense.splat) {
    int64_t *data = (int64_t *)a->u.dense.data;
    for (size_t k = 0; k < a->u.dense.nbytes / sizeof(int64_t) && k < 8; k++) {
      int64_t saved = data[k];
      for (int v = 0; v < N_EXTREMES; v++) {
        data[k] = extremes[v];
        probe(st, file, op);
      }
      data[k] = saved;
    }
  } else if (a->kind == HR_ATTR_ARRAY) {
    for (int k = 0; k < a->u.array.n && k < 8; k++) corrupt_attr(st, file, op, a->u.array.items[k], depth + 1);
  } else if (a->kind == HR_ATTR_STRUCT) {
    for (int k = 0; k < a->u.strct.n; k++) corrupt_attr(st, file, op, a->u.strct.fields[k].value, depth + 1);
    int n = a->u.strct.n;
    for (a->u.strct.n = 0; a->u.strct.n < n; a->u.strct.n++) probe(st, file, op); /* drop trailing fields */
  }
}

/* Corrupts a tensor type: each dim, the rank (one more, one less) and the element type. */
static void corrupt_type(stats *st, const char *file, const hr_op *op, hr_type *t) {
  if (t->kind != HR_TYPE_TENSOR) return;
  hr_type saved = *t;
  for (int d = 0; d < t->shape.rank; d++)
    for (int v = 0; v < N_EXTREMES; v++) {
      t->shape.dims[d] = extremes[v] < 0 ? HR_DYNAMIC : extremes[v];
      probe(st, file, op);
      *t = saved;
    }
  if (t->shape.rank < HR_MAX_RANK) {
    t->shape.dims[t->shape.rank++] = 1;
    probe(st, file, op);
    *t = saved;
  }
  if (t->shape.rank > 0) {
    t->shape.rank--;
    probe(st, file, op);
    *t = saved;
  }
  for (int dt = HR_I1; dt < HR_DTYPE_COUNT; dt += 3) {
    t->dtype = (hr_dtype)dt;
    probe(st, file, op);
    *t = saved;
  }
}

/* Removes the terminator's operands, then the terminator, of each region of op. */
static void corrupt_regions(stats *st, const char *file, const hr_op *op) {
  for (int r = 0; r < op->n_regions; r++) {
    hr_block *b = &op->regions[r];
    for (int k = 0; k < b->n_args && k < 4; k++) corrupt_type(st, file, op, &b->args[k].type);
    if (b->n_ops == 0) continue;
    hr_op *ret = b->ops[b->n_ops - 1];
    int n = ret->n_operands;
    ret->n_operands = 0;
    probe(st, file, op);
    ret->n_operands = n;
    b->n_ops--;
    probe(st, file, op);
    b->n_ops++;
  }
}

/* Runs the corruption sweep over every op of a block and its regions. */
static void corrupt_block(stats *st, const char *file, hr_block *b) {
  for (int i = 0; i < b->n_ops; i++) {
    hr_op *op = b->ops[i];
    for (int r = 0; r < op->n_regions; r++) corrupt_block(st, file, &op->regions[r]);
    for (int k = 0; k < op->n_attrs; k++) corrupt_attr(st, file, op, op->attrs[k].value, 0);
    for (int k = 0; k < op->n_operands && k < 6; k++) corrupt_type(st, file, op, &op->operands[k]->type);
    for (int k = 0; k < op->n_results && k < 6; k++) corrupt_type(st, file, op, &op->results[k].type);
    corrupt_regions(st, file, op);
  }
}

/* Parses (and so verifies) one file, checks its ops, then runs the corruption sweep. */
static void check_file(stats *st, const char *path) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse_file(path, NULL, &m);
  st->files++;
  if (s) {
    if (st->failed++ < MAX_REPORTS) fprintf(stderr, "%s\n", hr_status_message(s));
    hr_status_free(s);
    return;
  }
  st->parsed++;
  for (int f = 0; f < m->n_funcs; f++) check_block(st, corpus_name(path), &m->funcs[f]->body);
  for (int f = 0; f < m->n_funcs; f++) corrupt_block(st, corpus_name(path), &m->funcs[f]->body);
  s = hr_module_verify(m);
  if (s && st->probe_failures++ < MAX_REPORTS) fprintf(stderr, "after the sweep: %s\n", hr_status_message(s));
  hr_status_free(s);
  hr_module_free(m);
}

/* The corpus, listed once by main. */
static corpus files;

TEST(corpus_verifies_inference_matches_and_survives_corruption) {
  stats st = {0};
  for (int i = 0; i < files.n; i++) check_file(&st, files.paths[i]);
  printf("%d files: %d verified, %d failed; %ld ops, %ld static results checked, %ld mismatches; "
         "%ld probes of corrupted ops, %ld bad answers\n",
         st.files, st.parsed, st.failed, st.ops, st.checked, st.mismatches, st.probes, st.probe_failures);
  CHECK_EQ_INT(st.failed, 0);
  CHECK_EQ_INT(st.mismatches, 0);
  CHECK_EQ_INT(st.probe_failures, 0);
}

int main(void) {
  if (!corpus_open(&files)) return 77;
  RUN(corpus_verifies_inference_matches_and_survives_corruption);
  corpus_close(&files);
  TEST_MAIN_END();
}

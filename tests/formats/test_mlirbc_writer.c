/* Tests for the bytecode writer (src/formats/mlirbc/writer.h): the file's header, then round trips
 * through the reader. Every program of the conformance corpus that parses is written and read back
 * with hr_module_parse_bytecode, and the two modules must print identically (up to the defaults
 * StableHLO drops that the reader keeps, see kept_default); programs the writer refuses
 * (HR_UNIMPLEMENTED) are counted per op name and per reason, and at least 80% must be written.
 * examples/tiny_transformer/model.mlir must round-trip, and so must every real artifact of
 * ../shared/real the reader reads, its ops' attribute encodings matching StableHLO's own writer's.
 * Exits 77 without ../shared. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "corpus.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/mlirbc/vhlo_props.h"
#include "formats/mlirbc/writer.h"
#include "ir/ir.h"
#include "test.h"

/* The whole of a file (NUL-terminated, malloc'd), or NULL. */
static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t cap = 0, n = 0;
  for (;;) {
    if (n + 65536 + 1 > cap) {
      cap = cap ? cap * 2 : 131072;
      char *p = realloc(buf, cap);
      if (!p) abort();
      buf = p;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* The printed text of a module (malloc'd). */
static char *print_module(const hr_module *m) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = hr_module_print_to(m, &sb);
  CHECK(s == NULL);
  hr_status_free(s);
  char *text = strdup(sb.data ? sb.data : "");
  hr_strbuf_free(&sb);
  return text;
}

/* Prints the first line where two texts differ. */
static void show_difference(const char *a, const char *b) {
  size_t line_start = 0, i = 0;
  for (; a[i] && a[i] == b[i]; i++)
    if (a[i] == '\n') line_start = i + 1;
  printf("    text:     %.200s\n", a + line_start);
  printf("    bytecode: %.200s\n", b + line_start);
}

/* Whether `a` is the VHLO default of attribute `name` that StableHLO's VhloLegalizeToStablehlo
 * drops but hlorun's reader keeps (strides and dilations of ones, zero padding, no window reversal,
 * empty known_(non)expanding_dimensions, all-DEFAULT precision_config, group counts of 1, sort's
 * dimension -1, lower / is_host_transfer false, empty infeed config and layout, composite version 0
 * and no composite attributes): the writer must materialize them (StableHLO's compatibility suite
 * shows each), the reader gives them back explicitly. */
static bool kept_default(const char *op, const char *name, const hr_attr *a) {
  static const char *const ones[] = {"window_strides", "lhs_dilation", "rhs_dilation", "base_dilations",
                                     "window_dilations"};
  bool is_ones = false;
  for (size_t i = 0; i < sizeof ones / sizeof *ones; i++) is_ones = is_ones || strcmp(name, ones[i]) == 0;
  bool reversal = strcmp(name, "window_reversal") == 0;
  bool known = strcmp(name, "known_expanding_dimensions") == 0 || strcmp(name, "known_nonexpanding_dimensions") == 0;
  if (a->kind == HR_ATTR_DENSE_ARRAY && (is_ones || reversal || known)) {
    if (known) return a->u.dense_array.n == 0;
    for (int64_t i = 0; i < a->u.dense_array.n; i++)
      if (!a->u.dense_array.ints || a->u.dense_array.ints[i] != (is_ones ? 1 : 0)) return false;
    return true;
  }
  if (a->kind == HR_ATTR_BOOL && (strcmp(name, "lower") == 0 || strcmp(name, "is_host_transfer") == 0)) return !a->u.b;
  if (a->kind == HR_ATTR_STRING && (strcmp(name, "infeed_config") == 0 || strcmp(name, "outfeed_config") == 0))
    return a->u.str.len == 0;
  if (a->kind == HR_ATTR_ARRAY && strcmp(name, "layout") == 0) return a->u.array.n == 0;
  if (a->kind == HR_ATTR_DICT && strcmp(name, "composite_attributes") == 0) return a->u.dict.n == 0;
  if (a->kind == HR_ATTR_INT && (strcmp(name, "feature_group_count") == 0 || strcmp(name, "batch_group_count") == 0))
    return a->u.i.value == 1;
  if (a->kind == HR_ATTR_INT && strcmp(name, "dimension") == 0 && strcmp(op, "stablehlo.sort") == 0) return a->u.i.value == -1;
  if (a->kind == HR_ATTR_INT && strcmp(name, "version") == 0 && strcmp(op, "stablehlo.composite") == 0) return a->u.i.value == 0;
  if (a->kind == HR_ATTR_ARRAY && strcmp(name, "precision_config") == 0) {
    for (int i = 0; i < a->u.array.n; i++) {
      const hr_attr *e = a->u.array.items[i];
      if (e->kind != HR_ATTR_ENUM || strcmp(e->u.enm.value, "DEFAULT") != 0) return false;
    }
    return true;
  }
  if (a->kind == HR_ATTR_DENSE && strcmp(name, "padding") == 0) {
    const uint8_t *p = a->u.dense.data;
    for (size_t i = 0; i < a->u.dense.nbytes; i++)
      if (p[i]) return false;
    return true;
  }
  return false;
}

/* Whether `a` is a default StableHLO may also spell out (`indices_are_sorted = false`) and the
 * reader, as VhloLegalizeToStablehlo does, leaves out. */
static bool explicit_default(const char *name, const hr_attr *a) {
  static const char *const falses[] = {"indices_are_sorted", "unique_indices", "has_side_effect", "is_stable"};
  for (size_t i = 0; i < sizeof falses / sizeof *falses; i++)
    if (strcmp(name, falses[i]) == 0) return a->kind == HR_ATTR_BOOL && !a->u.b;
  return false;
}

/* Removes from the ops of `back` the kept defaults (kept_default) that the same op of `orig`
 * does not have, and from `orig` the explicit defaults (explicit_default) `back` does not have,
 * walking the two blocks in step; counts them into *n. */
static void drop_kept_defaults(hr_block *orig, hr_block *back, int *n) {
  if (orig->n_ops != back->n_ops) return;
  for (int i = 0; i < back->n_ops; i++) {
    hr_op *o = orig->ops[i];
    int j = 0;
    for (int a = 0; a < o->n_attrs; a++) {
      if (!hr_op_attr(back->ops[i], o->attrs[a].name) && explicit_default(o->attrs[a].name, o->attrs[a].value)) {
        (*n)++;
        continue;
      }
      o->attrs[j++] = o->attrs[a];
    }
    o->n_attrs = j;
    hr_op *b = back->ops[i];
    int k = 0;
    for (int a = 0; a < b->n_attrs; a++) {
      if (!hr_op_attr(o, b->attrs[a].name) && kept_default(hr_opcode_name(b->code), b->attrs[a].name, b->attrs[a].value)) {
        (*n)++;
        continue;
      }
      b->attrs[k++] = b->attrs[a];
    }
    b->n_attrs = k;
    for (int r = 0; r < b->n_regions && r < o->n_regions; r++) drop_kept_defaults(&o->regions[r], &b->regions[r], n);
  }
}

static int kept_defaults_total = 0; /* attributes drop_kept_defaults removed */

typedef enum { RT_WRITTEN, RT_REFUSED, RT_FAILED } rt_result;

/* Writes `m` to bytecode, reads it back and compares the prints; *reason receives the writer's
 * HR_UNIMPLEMENTED message (malloc'd) when it refuses. */
static rt_result round_trip(const char *name, hr_module *m, char **reason) {
  *reason = NULL;
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  hr_status s = hr_bc_write_module(m, HR_BC_VERSION_DEFAULT, &bc);
  if (s) {
    rt_result r = hr_status_code(s) == HR_UNIMPLEMENTED ? RT_REFUSED : RT_FAILED;
    if (r == RT_FAILED) printf("  %s: write failed: %s\n", name, hr_status_message(s));
    *reason = strdup(hr_status_message(s));
    hr_status_free(s);
    hr_strbuf_free(&bc);
    return r;
  }
  hr_module *back = NULL;
  s = hr_module_parse_bytecode(name, bc.data, bc.len, NULL, &back);
  hr_strbuf_free(&bc);
  if (s) {
    printf("  %s: reading the written bytecode failed: %s\n", name, hr_status_message(s));
    hr_status_free(s);
    return RT_FAILED;
  }
  for (int f = 0; f < m->n_funcs && f < back->n_funcs; f++)
    drop_kept_defaults(&m->funcs[f]->body, &back->funcs[f]->body, &kept_defaults_total);
  char *want = print_module(m), *got = print_module(back);
  rt_result r = strcmp(want, got) == 0 ? RT_WRITTEN : RT_FAILED;
  if (r == RT_FAILED) {
    printf("  %s: the module read back prints differently\n", name);
    show_difference(want, got);
  }
  free(want);
  free(got);
  hr_module_free(back);
  return r;
}

/* ---------------------------------------------------------------------------------------------- */
/* Counting                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

enum { MAX_KEYS = 1024 };

/* Counts per key (op name or reason). */
typedef struct tally {
  int n;
  char *keys[MAX_KEYS];
  int written[MAX_KEYS], refused[MAX_KEYS];
} tally;

static int tally_slot(tally *t, const char *key) {
  for (int i = 0; i < t->n; i++)
    if (strcmp(t->keys[i], key) == 0) return i;
  if (t->n == MAX_KEYS) return -1;
  t->keys[t->n] = strdup(key);
  return t->n++;
}

static void tally_add(tally *t, const char *key, bool written) {
  int i = tally_slot(t, key);
  if (i < 0) return;
  if (written) t->written[i]++;
  else t->refused[i]++;
}

/* Adds each distinct op name of a block (and its regions) to `names` (at most `cap`). */
static void collect_ops(const hr_block *b, const char **names, int *n, int cap) {
  for (int i = 0; i < b->n_ops; i++) {
    const hr_op *op = b->ops[i];
    const char *nm = hr_opcode_name(op->code);
    bool seen = false;
    for (int k = 0; k < *n && !seen; k++) seen = strcmp(names[k], nm) == 0;
    if (!seen && *n < cap) names[(*n)++] = nm;
    for (int r = 0; r < op->n_regions; r++) collect_ops(&op->regions[r], names, n, cap);
  }
}

static void tally_print(const tally *t, const char *title) {
  printf("%s:\n", title);
  for (int i = 0; i < t->n; i++) printf("  %-60.60s written %5d  refused %5d\n", t->keys[i], t->written[i], t->refused[i]);
}

static void tally_free(tally *t) {
  for (int i = 0; i < t->n; i++) free(t->keys[i]);
}

/* ---------------------------------------------------------------------------------------------- */
/* Tests                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* Parses `text`; NULL (a failed check, the error printed) when it does not parse. */
static hr_module *parse_or_report(const char *name, const char *text) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse(name, text, strlen(text), NULL, &m);
  CHECK(s == NULL);
  if (s) printf("  %s\n", hr_status_message(s));
  hr_status_free(s);
  return m;
}

/* A small module: the header is version 6 with the 1.8.0 producer, and it reads back equal. */
TEST(test_header_and_small_module) {
  const char *text =
      "module @m attributes {mhlo.num_partitions = 1 : i32} {\n"
      "  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {\n"
      "    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
      "    %1 = stablehlo.add %arg0, %0 : tensor<2x3xf32>\n"
      "    return %1 : tensor<2x3xf32>\n"
      "  }\n"
      "}\n";
  hr_module *m = parse_or_report("small.mlir", text);
  if (!m) return;
  hr_status s;
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  s = hr_bc_write_module(m, HR_BC_VERSION_DEFAULT, &bc);
  CHECK(s == NULL);
  hr_status_free(s);
  CHECK(bc.len > 22 && memcmp(bc.data, "ML\xef" "R", 4) == 0);
  CHECK(bc.len > 22 && (uint8_t)bc.data[4] == ((6 << 1) | 1));
  CHECK(bc.len > 22 && strcmp(bc.data + 5, "StableHLO_v1.8.0") == 0);
  hr_strbuf_free(&bc);
  char *reason;
  CHECK(round_trip("small.mlir", m, &reason) == RT_WRITTEN);
  free(reason);
  hr_module_free(m);
}

/* An op VHLO 1.8 lacks (or an attribute the writer does not write) is HR_UNIMPLEMENTED naming it. */
TEST(test_refusal_names_what) {
  const char *text =
      "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.exponential %arg0 {result_accuracy = #stablehlo.result_accuracy<atol = 1.0e-05, rtol = 0.0, ulps = 1, mode = #stablehlo.result_accuracy_mode<TOLERANCE>>} : tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n";
  hr_module *m = parse_or_report("refuse.mlir", text);
  if (!m) return;
  hr_status s;
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  s = hr_bc_write_module(m, HR_BC_VERSION_DEFAULT, &bc);
  CHECK(s != NULL && hr_status_code(s) == HR_UNIMPLEMENTED);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "result_accuracy");
  hr_status_free(s);
  hr_strbuf_free(&bc);
  hr_module_free(m);
}

/* Target versions: parsed as users write them, written into the producer string, and an attribute
 * only later versions have is refused at the earlier ones, naming the version. */
TEST(test_target_versions) {
  uint16_t v = 0;
  hr_status s = hr_bc_parse_version("1.8", &v);
  CHECK(s == NULL && v == 108);
  hr_status_free(s);
  s = hr_bc_parse_version("1.20.1", &v);
  CHECK(s == NULL && v == 120);
  hr_status_free(s);
  const char *bad[] = {"0.9.0", "1.21", "2.0", "1", "1.x", "1.8.0.1", "", "1.8 "};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    s = hr_bc_parse_version(bad[i], &v);
    CHECK(s != NULL);
    hr_status_free(s);
  }
  s = hr_bc_parse_version("1.21", &v);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "1.0 to 1.20");
  hr_status_free(s);
  const char *text =
      "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.tan %arg0 : tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n";
  hr_module *m = parse_or_report("tan.mlir", text);
  if (!m) return;
  const struct {
    uint16_t version;
    const char *producer; /* NULL: refused, naming `reason` */
    const char *reason;
  } cases[] = {{100, NULL, "no VHLO op at VHLO 1.0"}, {104, "StableHLO_v1.4.0", NULL}, {120, "StableHLO_v1.20.0", NULL}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    hr_strbuf bc;
    hr_strbuf_init(&bc, NULL);
    s = hr_bc_write_module(m, cases[i].version, &bc);
    if (cases[i].producer) {
      CHECK(s == NULL);
      CHECK(bc.len > 22 && strcmp(bc.data + 5, cases[i].producer) == 0);
      hr_module *back = NULL;
      hr_status r = hr_module_parse_bytecode("tan.mlirbc", bc.data, bc.len, NULL, &back);
      CHECK(r == NULL && back != NULL);
      hr_status_free(r);
      hr_module_free(back);
    } else {
      CHECK(s != NULL && hr_status_code(s) == HR_UNIMPLEMENTED);
      if (s) CHECK_STR_CONTAINS(hr_status_message(s), cases[i].reason);
    }
    hr_status_free(s);
    hr_strbuf_free(&bc);
  }
  hr_module_free(m);
}

/* Parses a text file; NULL (and no failure) when it does not parse. */
static hr_module *parse_file(const char *path) {
  size_t len = 0;
  char *text = read_text(path, &len);
  if (!text) return NULL;
  hr_module *m = NULL;
  hr_status s = hr_module_parse(path, text, len, NULL, &m);
  free(text);
  hr_status_free(s);
  return s ? NULL : m;
}

/* The reason of a refusal without the file-specific details: up to the first quote's end. */
static void reason_key(const char *msg, char *key, size_t cap) {
  const char *p = strstr(msg, "bytecode writer: ");
  p = p ? p + 17 : msg;
  snprintf(key, cap, "%s", p);
  char *q = strchr(key, '\'');
  if (q && (q = strchr(q + 1, '\''))) q[1] = '\0';
}

static int corpus_status = 0; /* 77 when the corpus is absent */

/* Every parsing corpus program: written and read back equal, or refused with HR_UNIMPLEMENTED. */
TEST(test_corpus_round_trip) {
  corpus c;
  if (!corpus_open(&c)) {
    corpus_status = 77;
    return;
  }
  static tally ops, reasons;
  int parsed = 0, written = 0, refused = 0, failed = 0;
  for (int i = 0; i < c.n; i++) {
    hr_module *m = parse_file(c.paths[i]);
    if (!m) continue;
    parsed++;
    char *reason = NULL;
    rt_result r = round_trip(corpus_name(c.paths[i]), m, &reason);
    const char *names[256];
    int n = 0;
    for (int f = 0; f < m->n_funcs; f++) collect_ops(&m->funcs[f]->body, names, &n, 256);
    for (int k = 0; k < n; k++) tally_add(&ops, names[k], r == RT_WRITTEN);
    if (r == RT_WRITTEN) written++;
    else if (r == RT_REFUSED) refused++;
    else failed++;
    if (r == RT_REFUSED) {
      char key[160];
      reason_key(reason, key, sizeof key);
      tally_add(&reasons, key, false);
    }
    free(reason);
    hr_module_free(m);
  }
  tally_print(&ops, "files per op (written: the file round-tripped; refused: the writer said HR_UNIMPLEMENTED)");
  tally_print(&reasons, "refusals by reason");
  printf("corpus: %d files, %d parsed, %d written and read back equal, %d refused, %d failed\n", c.n, parsed, written,
         refused, failed);
  printf("default attributes one side spells out and the other does not, ignored: %d\n",
         kept_defaults_total);
  CHECK_EQ_INT(failed, 0);
  CHECK(parsed > 0 && written * 5 >= parsed * 4);
  tally_free(&ops);
  tally_free(&reasons);
  corpus_close(&c);
}

/* ---------------------------------------------------------------------------------------------- */
/* Encodings compared with StableHLO's own writer                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* "dialect:code" of attribute entry `i` (its first varint), and for IntegerV1 / TensorV1 / TypeV1
 * the code of the type it names, into `out`. */
static void attr_form(const hr_bc_file *f, uint32_t i, char *out, size_t cap) {
  const hr_bc_entry *e = &f->attrs[i];
  hr_bc_cursor c = hr_bc_entry_cursor(f, e->data, e->len);
  uint64_t code = 0, type = 0, tcode = 0;
  const char *dialect = f->dialects[e->dialect].name.data;
  if (!e->custom || hr_bc_varint(&c, &code)) {
    snprintf(out, cap, "%s:text", dialect);
    return;
  }
  bool typed = strcmp(dialect, "vhlo") == 0 && (code == 9 || code == 15 || code == 17);
  if (typed && !hr_bc_varint(&c, &type) && type < f->n_types) {
    const hr_bc_entry *t = &f->types[type];
    hr_bc_cursor tc = hr_bc_entry_cursor(f, t->data, t->len);
    hr_status s = hr_bc_varint(&tc, &tcode);
    hr_status_free(s);
    snprintf(out, cap, "%s:%llu(type %llu)", dialect, (unsigned long long)code, (unsigned long long)tcode);
    return;
  }
  snprintf(out, cap, "%s:%llu", dialect, (unsigned long long)code);
}

/* Compares, op by op where the two files have the same op, whether it is isolated from above and
 * the forms of its properties record's attributes (attr_form); mismatches are tallied as
 * "op attr: theirs -> ours". With `same_version` (b was written at a's VHLO version) every VHLO op
 * facing a VHLO op must also have the same name: "vhlo.x_vN -> vhlo.x_vM" is tallied otherwise (a
 * VHLO op facing a Shardy op is where the reader rewrote JAX's round-trip Shardy form: the custom
 * calls and body function became an sdy.manual_computation, the mesh string an sdy.mesh). */
static void compare_blocks(const hr_bc_file *a, const hr_bc_block *ba, const hr_bc_file *b, const hr_bc_block *bb,
                           bool same_version, tally *diffs, int *compared) {
  if (ba->n_ops != bb->n_ops) return;
  for (uint32_t i = 0; i < ba->n_ops; i++) {
    const hr_bc_op *oa = &ba->ops[i], *ob = &bb->ops[i];
    const char *name = a->opnames[oa->name].full;
    if (strcmp(name, b->opnames[ob->name].full) != 0) {
      if (same_version && strncmp(name, "vhlo.", 5) == 0 && strncmp(b->opnames[ob->name].full, "vhlo.", 5) == 0) {
        char key[200];
        snprintf(key, sizeof key, "%s -> %s at %s", name, b->opnames[ob->name].full, a->producer);
        tally_add(diffs, key, false);
      }
      continue;
    }
    if (a->version >= 6 && oa->isolated != ob->isolated) { /* older writers marked fewer ops */
      char key[200];
      snprintf(key, sizeof key, "%s isolated from above: %d -> %d", name, oa->isolated, ob->isolated);
      tally_add(diffs, key, false);
    }
    const vhlo_prop_op *spec = vhlo_props_find(name);
    if (spec && !spec->optional_bits && oa->props >= 0 && ob->props >= 0) {
      hr_bc_cursor ca = hr_bc_entry_cursor(a, a->props[oa->props].data, a->props[oa->props].len);
      hr_bc_cursor cb = hr_bc_entry_cursor(b, b->props[ob->props].data, b->props[ob->props].len);
      for (int k = 0; k < spec->n; k++) {
        uint64_t ia = 0, ib = 0;
        hr_status s1 = hr_bc_varint(&ca, &ia), s2 = hr_bc_varint(&cb, &ib);
        bool ok = !s1 && !s2 && ia < a->n_attrs && ib < b->n_attrs;
        hr_status_free(s1);
        hr_status_free(s2);
        if (!ok) break;
        char fa[64], fb[64], key[200];
        attr_form(a, (uint32_t)ia, fa, sizeof fa);
        attr_form(b, (uint32_t)ib, fb, sizeof fb);
        (*compared)++;
        if (strcmp(fa, fb) == 0) continue;
        snprintf(key, sizeof key, "%s %s: %s -> %s", name, spec->attrs[k], fa, fb);
        tally_add(diffs, key, false);
      }
    }
    for (uint32_t r = 0; r < oa->n_regions && r < ob->n_regions; r++)
      if (oa->regions[r].n_blocks == 1 && ob->regions[r].n_blocks == 1)
        compare_blocks(a, &oa->regions[r].blocks[0], b, &ob->regions[r].blocks[0], same_version, diffs, compared);
  }
}

/* Writes module `m` read from the bytecode `data` at the original's VHLO version (its producer's,
 * "StableHLO_v1.5.0"; the default where that is outside what we write) and compares the two files'
 * op names and attribute forms. *versions counts the files written at their own version. */
static void compare_with_original(const char *name, const char *data, size_t n, const hr_module *m, tally *diffs,
                                  int *compared, int *versions) {
  hr_bc_file *fa = NULL, *fb = NULL;
  hr_status s = hr_bc_read(name, (const uint8_t *)data, n, NULL, &fa);
  uint16_t version = HR_BC_VERSION_DEFAULT;
  bool same_version = false;
  if (!s && strncmp(fa->producer, "StableHLO_v", 11) == 0) {
    hr_status v = hr_bc_parse_version(fa->producer + 11, &version);
    same_version = v == NULL;
    if (v) version = HR_BC_VERSION_DEFAULT;
    hr_status_free(v);
  }
  *versions += same_version;
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  if (!s) s = hr_bc_write_module(m, version, &bc);
  if (!s) s = hr_bc_read(name, (const uint8_t *)bc.data, bc.len, NULL, &fb);
  if (!s) compare_blocks(fa, &fa->top, fb, &fb->top, same_version, diffs, compared);
  hr_status_free(s);
  hr_bc_free(fa);
  hr_bc_free(fb);
  hr_strbuf_free(&bc);
}

/* Counts of the real-artifact round trips. */
typedef struct real_counts {
  int read, written, refused, failed, compared, own_version;
  tally reasons, diffs;
} real_counts;

/* Round-trips every bytecode file (*.bc, *.mlirbc) under `dir` (to depth 4) that the reader reads. */
static void real_dir(const char *dir, int depth, real_counts *rc) {
  DIR *d = opendir(dir);
  if (!d || depth > 4) {
    if (d) closedir(d);
    return;
  }
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t len = strlen(e->d_name);
    bool bc = (len > 3 && strcmp(e->d_name + len - 3, ".bc") == 0) || (len > 7 && strcmp(e->d_name + len - 7, ".mlirbc") == 0);
    if (!bc) {
      if (e->d_type == DT_DIR) real_dir(path, depth + 1, rc);
      continue;
    }
    size_t n = 0;
    char *data = read_text(path, &n);
    if (!data) continue;
    hr_module *m = NULL;
    hr_status s = hr_module_parse_bytecode(e->d_name, data, n, NULL, &m);
    if (s) {
      free(data);
      hr_status_free(s);
      continue;
    }
    compare_with_original(e->d_name, data, n, m, &rc->diffs, &rc->compared, &rc->own_version);
    free(data);
    rc->read++;
    char *reason = NULL;
    rt_result r = round_trip(e->d_name, m, &reason);
    if (r == RT_WRITTEN) rc->written++;
    else if (r == RT_REFUSED) rc->refused++;
    else rc->failed++;
    if (r == RT_REFUSED) {
      char key[160];
      reason_key(reason, key, sizeof key);
      tally_add(&rc->reasons, key, false);
    }
    free(reason);
    hr_module_free(m);
  }
  closedir(d);
}

/* Every real portable artifact in ../shared/real the reader reads (any bytecode and VHLO version)
 * is written at VHLO 1.8 and read back equal, or refused with HR_UNIMPLEMENTED. Written again at
 * its own VHLO version (1.0 to 1.20), every op has the original's VHLO name; where the original
 * has the same op, the forms of its inherent attributes and (bytecode 6) its isolation agree. */
TEST(test_real_artifacts_round_trip) {
  const char *root = getenv("HLORUN_SOURCE_DIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/../shared/real", root ? root : ".");
  static real_counts rc;
  real_dir(dir, 0, &rc);
  tally_print(&rc.reasons, "real artifacts: refusals by reason");
  tally_print(&rc.diffs, "real artifacts: attribute forms that differ from StableHLO's writer (op attr: theirs -> ours)");
  printf("real artifacts: %d properties attributes compared with StableHLO's writer, %d files rewritten at "
         "their own VHLO version with the same op names\n", rc.compared, rc.own_version);
  printf("real artifacts: %d read, %d written and read back equal, %d refused, %d failed\n", rc.read, rc.written,
         rc.refused, rc.failed);
  CHECK_EQ_INT(rc.failed, 0);
  CHECK_EQ_INT(rc.diffs.n, 0);
  CHECK(rc.read == 0 || rc.compared > 0);
  tally_free(&rc.reasons);
  tally_free(&rc.diffs);
}

/* The example transformer round-trips. */
TEST(test_tiny_transformer) {
  const char *root = getenv("HLORUN_SOURCE_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/examples/tiny_transformer/model.mlir", root ? root : ".");
  hr_module *m = parse_file(path);
  CHECK(m != NULL);
  if (!m) return;
  char *reason = NULL;
  rt_result r = round_trip("model.mlir", m, &reason);
  if (r != RT_WRITTEN) printf("  model.mlir: %s\n", reason ? reason : "differs");
  CHECK(r == RT_WRITTEN);
  free(reason);
  hr_module_free(m);
}

int main(void) {
  RUN(test_header_and_small_module);
  RUN(test_refusal_names_what);
  RUN(test_target_versions);
  RUN(test_tiny_transformer);
  RUN(test_corpus_round_trip);
  RUN(test_real_artifacts_round_trip);
  if (tests_failed_) return 1;
  return corpus_status;
}

/* Shardy attributes decoded from bytecode into their MLIR text (src/formats/mlirbc/sdy_attrs.c):
 * hand-made entries of every attribute code (sub-axes, open dimensions, priorities, replicated and
 * unreduced axes, inline meshes and device ids, sharding rules with factors past 'z') and damaged
 * ones (cycles, truncations, a Bool of 2, unknown codes, text blow-up) that must give errors; then
 * every Shardy attribute of every ../shared/real/vhlo/<case>/module.mlirbc, whose text must occur in
 * the twin module.mlir that MLIR printed (literally, or escaped inside a string attribute). Without
 * ../shared the real-file part is skipped (exit 77 when everything else passed). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "formats/mlirbc/vhlo_internal.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* A decoding context over a file                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* The index of dialect `name` in `f`, or -1. */
static int64_t find_dialect(const hr_bc_file *f, const char *name) {
  for (uint32_t i = 0; i < f->n_dialects; i++)
    if (strcmp(f->dialects[i].name.data, name) == 0) return i;
  return -1;
}

/* A vhlo_ctx over `f` with a module of its own, as hr_bc_parse_module sets one up. */
static void ctx_open(vhlo_ctx *c, hr_bc_file *f) {
  memset(c, 0, sizeof *c);
  c->f = f;
  c->builtin = find_dialect(f, "builtin");
  c->vhlo = find_dialect(f, "vhlo");
  c->max_constant_bytes = HR_LIMIT_CONSTANT_BYTES;
  c->types = calloc((size_t)f->n_types + 1, sizeof *c->types);
  c->attrs = calloc((size_t)f->n_attrs + 1, sizeof *c->attrs);
  c->busy = calloc((size_t)f->n_attrs + f->n_types + 1, 1);
  if (!c->types || !c->attrs || !c->busy) abort();
  hr_status s = hr_module_new(hr_default_allocator(), f->filename, &c->m);
  if (s) abort();
}

static void ctx_close(vhlo_ctx *c) {
  free((void *)c->types);
  free(c->attrs);
  free(c->busy);
  hr_module_free(c->m);
}

/* The text of attribute `i` (malloc'd), or NULL with the error message in `err` (malloc'd). */
static char *text_at(vhlo_ctx *c, uint32_t i, char **err) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = vhlo_sdy_attr_text_at(c, i, &sb);
  *err = NULL;
  if (s) {
    *err = strdup(hr_status_message(s));
    hr_status_free(s);
    hr_strbuf_free(&sb);
    return NULL;
  }
  char *text = strdup(sb.data ? sb.data : "");
  hr_strbuf_free(&sb);
  return text;
}

/* ---------------------------------------------------------------------------------------------- */
/* Hand-made files                                                                                 */
/* ---------------------------------------------------------------------------------------------- */

enum { BUILTIN = 0, SDY = 1, MAX_ENTRIES = 64, MAX_STRINGS = 16 };

/* A file of attribute entries built in memory: dialects builtin and sdy, strings, entries. */
typedef struct tf {
  uint8_t *buf;
  size_t n, cap;
  size_t starts[MAX_ENTRIES];
  hr_bc_entry attrs[MAX_ENTRIES];
  hr_bc_string strings[MAX_STRINGS];
  hr_bc_dialect dialects[2];
  hr_bc_file f;
} tf;

static void tf_init(tf *t) {
  memset(t, 0, sizeof *t);
  t->dialects[BUILTIN].name = (hr_bc_string){"builtin", 7};
  t->dialects[SDY].name = (hr_bc_string){"sdy", 3};
  t->f.filename = "hand.mlirbc";
  t->f.n_dialects = 2;
  t->f.dialects = t->dialects;
  t->f.attrs = t->attrs;
  t->f.strings = t->strings;
}

static void tf_free(tf *t) { free(t->buf); }

/* Adds string `s` to the string table; returns its index. */
static uint32_t tf_string(tf *t, const char *s) {
  if (t->f.n_strings == MAX_STRINGS) abort();
  t->strings[t->f.n_strings] = (hr_bc_string){s, strlen(s)};
  return t->f.n_strings++;
}

static void tf_byte(tf *t, uint8_t b) {
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 1024;
    if (!(t->buf = realloc(t->buf, t->cap))) abort();
  }
  t->buf[t->n++] = b;
}

/* MLIR's prefix varint, shortest form. */
static void tf_varint(tf *t, uint64_t v) {
  for (unsigned n = 1; n <= 8; n++) {
    if (n * 7 < 64 && v >> (7 * n)) continue;
    uint64_t enc = (v << n) | ((uint64_t)1 << (n - 1));
    for (unsigned i = 0; i < n; i++) tf_byte(t, (uint8_t)(enc >> (8 * i)));
    return;
  }
  tf_byte(t, 0);
  for (unsigned i = 0; i < 8; i++) tf_byte(t, (uint8_t)(v >> (8 * i)));
}

static void tf_svarint(tf *t, int64_t v) { tf_varint(t, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); }

/* Starts entry number `i` (entries are added in order) of `dialect`, custom-encoded, with `code`. */
static void tf_entry(tf *t, uint32_t i, int dialect, uint64_t code) {
  if (i != t->f.n_attrs || i == MAX_ENTRIES) abort();
  t->starts[i] = t->n;
  t->attrs[i] = (hr_bc_entry){.dialect = (uint32_t)dialect, .custom = true};
  t->f.n_attrs++;
  tf_varint(t, code);
}

/* Ends the entries: their byte ranges in the final buffer. */
static void tf_done(tf *t) {
  for (uint32_t i = 0; i < t->f.n_attrs; i++) {
    size_t end = i + 1 < t->f.n_attrs ? t->starts[i + 1] : t->n;
    t->attrs[i].data = t->buf + t->starts[i];
    t->attrs[i].len = end - t->starts[i];
  }
  t->f.data = t->buf;
  t->f.len = t->n;
}

/* Varints (a list's count and items) from an array. */
static void tf_list(tf *t, const uint64_t *v, size_t n) {
  tf_varint(t, n);
  for (size_t i = 0; i < n; i++) tf_varint(t, v[i]);
}
static void tf_slist(tf *t, const int64_t *v, size_t n) {
  tf_varint(t, n);
  for (size_t i = 0; i < n; i++) tf_svarint(t, v[i]);
}
#define COUNT_OF(type, ...) (sizeof((const type[]){__VA_ARGS__}) / sizeof(type))
#define LIST(t, ...) tf_list(t, (const uint64_t[]){__VA_ARGS__}, COUNT_OF(uint64_t, __VA_ARGS__))
#define SLIST(t, ...) tf_slist(t, (const int64_t[]){__VA_ARGS__}, COUNT_OF(int64_t, __VA_ARGS__))
#define EMPTY(t) tf_varint(t, 0)

/* Checks that attribute `i` of `t` reads as `want`. */
static void expect_text(tf *t, uint32_t i, const char *want) {
  vhlo_ctx c;
  ctx_open(&c, &t->f);
  char *err, *got = text_at(&c, i, &err);
  if (!got || strcmp(got, want) != 0) {
    fprintf(stderr, "attribute %u: expected %s\n  got %s\n", i, want, got ? got : err);
    test_failures_++;
  }
  CHECK_EQ_INT(c.depth, 0);
  for (uint32_t k = 0; k < t->f.n_attrs; k++) CHECK_EQ_INT(c.busy[k], 0);
  free(got);
  free(err);
  ctx_close(&c);
}

/* Checks that attribute `i` of `t` fails with a message holding `want` and "hand.mlirbc: offset". */
static void expect_error(tf *t, uint32_t i, const char *want) {
  vhlo_ctx c;
  ctx_open(&c, &t->f);
  char *err, *got = text_at(&c, i, &err);
  if (got) {
    fprintf(stderr, "attribute %u: expected an error \"%s\", got %s\n", i, want, got);
    test_failures_++;
  } else {
    CHECK_STR_CONTAINS(err, want);
    CHECK_STR_CONTAINS(err, "hand.mlirbc: offset");
  }
  CHECK_EQ_INT(c.depth, 0);
  for (uint32_t k = 0; k < t->f.n_attrs; k++) CHECK_EQ_INT(c.busy[k], 0);
  free(got);
  free(err);
  ctx_close(&c);
}

/* Shardy's codes (bytecode.td) and builtin's (MLIR's BuiltinDialectBytecode.td). */
enum {
  MANUAL_AXES, MESH_AXIS, MESH, SUB_AXIS_INFO, AXIS_REF, DIM_SHARDING, SHARDING_V1, PER_VALUE_V1, DIM_MAPPING,
  TENSOR_MAPPING, RULE, AXIS_REF_LIST, LIST_OF_LISTS, A2A_PARAM, A2A_LIST, SHARDING_V2, PER_VALUE_V2, SHARDING_V3,
  B_STRING = 2, B_FLAT_SYMBOL = 4,
};

/* Entries shared by the sharding cases: strings, axes "a", "b", "b":(2)2, a mesh, @mesh. */
enum { A_NAME, B_NAME, MESH_NAME, A_REF, B_REF, SUB, B_SUB_REF, AXIS_A2, AXIS_B4, MESH_AB, SYM, N_COMMON };

static void common_entries(tf *t) {
  uint32_t a = tf_string(t, "a"), b = tf_string(t, "b"), mesh = tf_string(t, "mesh");
  tf_entry(t, A_NAME, BUILTIN, B_STRING), tf_varint(t, a);
  tf_entry(t, B_NAME, BUILTIN, B_STRING), tf_varint(t, b);
  tf_entry(t, MESH_NAME, BUILTIN, B_STRING), tf_varint(t, mesh);
  tf_entry(t, A_REF, SDY, AXIS_REF), tf_varint(t, a), tf_varint(t, 0);
  tf_entry(t, B_REF, SDY, AXIS_REF), tf_varint(t, b), tf_varint(t, 0);
  tf_entry(t, SUB, SDY, SUB_AXIS_INFO), tf_svarint(t, 2), tf_svarint(t, 2);
  tf_entry(t, B_SUB_REF, SDY, AXIS_REF), tf_varint(t, b), tf_varint(t, (uint64_t)SUB << 1 | 1);
  tf_entry(t, AXIS_A2, SDY, MESH_AXIS), tf_varint(t, a), tf_svarint(t, 2);
  tf_entry(t, AXIS_B4, SDY, MESH_AXIS), tf_varint(t, b), tf_svarint(t, 4);
  tf_entry(t, MESH_AB, SDY, MESH), LIST(t, AXIS_A2, AXIS_B4), EMPTY(t);
  tf_entry(t, SYM, BUILTIN, B_FLAT_SYMBOL), tf_varint(t, MESH_NAME);
}

TEST(axes_and_meshes) {
  tf t;
  tf_init(&t);
  common_entries(&t);
  uint32_t i = N_COMMON;
  tf_entry(&t, i++, SDY, MANUAL_AXES), LIST(&t, A_NAME, B_NAME);           /* 11 */
  tf_entry(&t, i++, SDY, MANUAL_AXES), EMPTY(&t);                          /* 12 */
  tf_entry(&t, i++, SDY, MESH), LIST(&t, AXIS_A2), SLIST(&t, 1, 0);        /* 13: device ids */
  tf_entry(&t, i++, SDY, MESH), LIST(&t, AXIS_A2, AXIS_B4), SLIST(&t, 0, 1, 2, 3, 4, 5, 6, 7); /* 14: iota */
  tf_entry(&t, i++, SDY, MESH), EMPTY(&t), SLIST(&t, 3);                   /* 15: maximal */
  tf_entry(&t, i++, SDY, MESH), EMPTY(&t), EMPTY(&t);                      /* 16: empty */
  tf_entry(&t, i++, SDY, AXIS_REF_LIST), LIST(&t, A_REF, B_SUB_REF);       /* 17 */
  tf_entry(&t, i++, SDY, LIST_OF_LISTS), LIST(&t, 17, 19);                 /* 18 */
  tf_entry(&t, i++, SDY, AXIS_REF_LIST), EMPTY(&t);                        /* 19 */
  tf_entry(&t, i++, SDY, A2A_PARAM), LIST(&t, A_REF), tf_svarint(&t, 0), tf_svarint(&t, 1); /* 20 */
  tf_entry(&t, i++, SDY, A2A_PARAM), LIST(&t, B_REF, A_REF), tf_svarint(&t, 1), tf_svarint(&t, 0);
  tf_entry(&t, i++, SDY, A2A_LIST), LIST(&t, 20, 21);                      /* 22 */
  tf_done(&t);
  expect_text(&t, 11, "sdy<manual_axes{\"a\", \"b\"}>");
  expect_text(&t, 12, "sdy<manual_axes{}>");
  expect_text(&t, AXIS_A2, "sdy<mesh_axis\"a\"=2>");
  expect_text(&t, MESH_AB, "sdy.mesh<[\"a\"=2, \"b\"=4]>");
  expect_text(&t, 13, "sdy.mesh<[\"a\"=2], device_ids=[1, 0]>");
  expect_text(&t, 14, "sdy.mesh<[\"a\"=2, \"b\"=4]>");
  expect_text(&t, 15, "sdy.mesh<[], device_ids=[3]>");
  expect_text(&t, 16, "sdy.mesh<[]>");
  expect_text(&t, SUB, "sdy<sub_axis_info(2)2>");
  expect_text(&t, A_REF, "sdy<axis_ref\"a\">");
  expect_text(&t, B_SUB_REF, "sdy<axis_ref\"b\":(2)2>");
  expect_text(&t, 17, "sdy<axis_ref_list{\"a\", \"b\":(2)2}>");
  expect_text(&t, 18, "sdy<list_of_axis_ref_lists[{\"a\", \"b\":(2)2}, {}]>");
  expect_text(&t, 20, "sdy<all_to_all_param{\"a\"}: 0->1>");
  expect_text(&t, 22, "sdy<all_to_all_param_list[{\"a\"}: 0->1, {\"b\", \"a\"}: 1->0]>");
  tf_free(&t);
}

TEST(shardings) {
  tf t;
  tf_init(&t);
  common_entries(&t);
  uint32_t odd = tf_string(&t, "my mesh\"\\\x01");
  uint32_t i = N_COMMON;
  tf_entry(&t, i++, SDY, DIM_SHARDING), LIST(&t, A_REF), tf_byte(&t, 1), tf_varint(&t, 0);        /* 11 {"a"} */
  tf_entry(&t, i++, SDY, DIM_SHARDING), EMPTY(&t), tf_byte(&t, 1), tf_varint(&t, 0);              /* 12 {} */
  tf_entry(&t, i++, SDY, DIM_SHARDING), LIST(&t, A_REF, B_SUB_REF), tf_byte(&t, 0), tf_varint(&t, 1 << 1 | 1); /* 13 */
  tf_entry(&t, i++, SDY, DIM_SHARDING), EMPTY(&t), tf_byte(&t, 0), tf_varint(&t, 0 << 1 | 1);     /* 14 {?}p0 */
  tf_entry(&t, i++, SDY, SHARDING_V1), tf_varint(&t, SYM), LIST(&t, 11, 12), EMPTY(&t);           /* 15 */
  tf_entry(&t, i++, SDY, SHARDING_V1), tf_varint(&t, SYM), LIST(&t, 13, 14), LIST(&t, B_REF);     /* 16 */
  tf_entry(&t, i++, SDY, SHARDING_V1), tf_varint(&t, MESH_AB), LIST(&t, 11), EMPTY(&t);           /* 17 inline */
  tf_entry(&t, i++, SDY, SHARDING_V2), tf_varint(&t, SYM), LIST(&t, 12, 12), LIST(&t, A_REF), LIST(&t, B_REF);
  tf_entry(&t, i++, SDY, SHARDING_V3), tf_varint(&t, SYM), LIST(&t, 12, 12), EMPTY(&t), LIST(&t, A_REF, B_REF),
      tf_svarint(&t, 1);                                                                            /* 19 max */
  tf_entry(&t, i++, SDY, SHARDING_V3), tf_varint(&t, SYM), LIST(&t, 12), EMPTY(&t), LIST(&t, B_SUB_REF),
      tf_svarint(&t, 2);                                                                            /* 20 min */
  tf_entry(&t, i++, SDY, SHARDING_V3), tf_varint(&t, SYM), EMPTY(&t), EMPTY(&t), LIST(&t, A_REF),
      tf_svarint(&t, 0);                                                                            /* 21 sum */
  tf_entry(&t, i++, SDY, PER_VALUE_V1), LIST(&t, 15, 17, 21);                                     /* 22 */
  tf_entry(&t, i++, SDY, PER_VALUE_V2), EMPTY(&t);                                                /* 23 */
  tf_entry(&t, i++, BUILTIN, B_STRING), tf_varint(&t, odd);                                       /* 24 */
  tf_entry(&t, i++, BUILTIN, B_FLAT_SYMBOL), tf_varint(&t, 24);                                   /* 25 */
  tf_entry(&t, i++, SDY, SHARDING_V1), tf_varint(&t, 25), EMPTY(&t), EMPTY(&t);                   /* 26 */
  tf_entry(&t, i++, SDY, PER_VALUE_V2), LIST(&t, 18, 16);                                         /* 27 */
  tf_entry(&t, i++, BUILTIN, B_STRING), tf_varint(&t, tf_string(&t, ""));                         /* 28 */
  tf_entry(&t, i++, BUILTIN, B_FLAT_SYMBOL), tf_varint(&t, 28);                                   /* 29 */
  tf_entry(&t, i++, SDY, SHARDING_V2), tf_varint(&t, 29), LIST(&t, 11), EMPTY(&t), EMPTY(&t);     /* 30 */
  tf_done(&t);
  expect_text(&t, 11, "sdy<dimension_sharding{\"a\"}>");
  expect_text(&t, 13, "sdy<dimension_sharding{\"a\", \"b\":(2)2, ?}p1>");
  expect_text(&t, 14, "sdy<dimension_sharding{?}p0>");
  expect_text(&t, 15, "sdy.sharding<@mesh, [{\"a\"}, {}]>");
  expect_text(&t, 16, "sdy.sharding<@mesh, [{\"a\", \"b\":(2)2, ?}p1, {?}p0], replicated={\"b\"}>");
  expect_text(&t, 17, "sdy.sharding<mesh<[\"a\"=2, \"b\"=4]>, [{\"a\"}]>");
  expect_text(&t, 18, "sdy.sharding<@mesh, [{}, {}], replicated={\"a\"}, unreduced={\"b\"}>");
  expect_text(&t, 19, "sdy.sharding<@mesh, [{}, {}], unreduced=max{\"a\", \"b\"}>");
  expect_text(&t, 20, "sdy.sharding<@mesh, [{}], unreduced=min{\"b\":(2)2}>");
  expect_text(&t, 21, "sdy.sharding<@mesh, [], unreduced={\"a\"}>");
  expect_text(&t, 22, "sdy.sharding_per_value<[<@mesh, [{\"a\"}, {}]>, <mesh<[\"a\"=2, \"b\"=4]>, [{\"a\"}]>, "
                      "<@mesh, [], unreduced={\"a\"}>]>");
  expect_text(&t, 23, "sdy.sharding_per_value<[]>");
  expect_text(&t, 26, "sdy.sharding<@\"my mesh\\22\\\\\\01\", []>");
  expect_text(&t, 27, "sdy.sharding_per_value<[<@mesh, [{}, {}], replicated={\"a\"}, unreduced={\"b\"}>, "
                      "<@mesh, [{\"a\", \"b\":(2)2, ?}p1, {?}p0], replicated={\"b\"}>]>");
  expect_text(&t, 30, "sdy.sharding<@<<INVALID EMPTY SYMBOL>>, [{\"a\"}]>"); /* as MLIR prints it */
  tf_free(&t);
}

TEST(sharding_rules) {
  tf t;
  tf_init(&t);
  uint32_t i = 0;
  tf_entry(&t, i++, SDY, DIM_MAPPING), SLIST(&t, 0);                         /* 0: i */
  tf_entry(&t, i++, SDY, DIM_MAPPING), SLIST(&t, 1, 2);                      /* 1: jk */
  tf_entry(&t, i++, SDY, DIM_MAPPING), SLIST(&t, 17, 18);                    /* 2: zz_1 */
  tf_entry(&t, i++, SDY, DIM_MAPPING), SLIST(&t, 19);                        /* 3: z_2 */
  tf_entry(&t, i++, SDY, TENSOR_MAPPING), LIST(&t, 0, 1);                    /* 4: [i, jk] */
  tf_entry(&t, i++, SDY, TENSOR_MAPPING), LIST(&t, 2, 3);                    /* 5: [zz_1, z_2] */
  tf_entry(&t, i++, SDY, TENSOR_MAPPING), EMPTY(&t);                         /* 6: [] */
  /* 7: every list, custom; factors 0..19 */
  tf_entry(&t, i++, SDY, RULE), SLIST(&t, 2, 3, 5, 7, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 8, 9, 10), LIST(&t, 4, 6),
      LIST(&t, 5), SLIST(&t, 1), SLIST(&t, 0, 2), SLIST(&t, 19), SLIST(&t, 18), tf_byte(&t, 1);
  /* 8: no factors, scalars */
  tf_entry(&t, i++, SDY, RULE), EMPTY(&t), LIST(&t, 6, 6), LIST(&t, 6), EMPTY(&t), EMPTY(&t), EMPTY(&t), EMPTY(&t),
      tf_byte(&t, 0);
  /* 9: only blocked propagation */
  tf_entry(&t, i++, SDY, RULE), SLIST(&t, 4), LIST(&t, 10), LIST(&t, 10), EMPTY(&t), EMPTY(&t), EMPTY(&t), SLIST(&t, 0),
      tf_byte(&t, 0);
  tf_entry(&t, i++, SDY, TENSOR_MAPPING), LIST(&t, 0); /* 10: [i] */
  tf_entry(&t, i++, SDY, DIM_MAPPING), EMPTY(&t);       /* 11: no factors */
  tf_entry(&t, i++, SDY, TENSOR_MAPPING), LIST(&t, 11, 0);
  tf_done(&t);
  expect_text(&t, 1, "sdy.dim_mappingjk");
  expect_text(&t, 4, "sdy<tensor_mapping[i, jk]>");
  expect_text(&t, 5, "sdy<tensor_mapping[zz_1, z_2]>");
  expect_text(&t, 7, "sdy.op_sharding_rule<([i, jk], [])->([zz_1, z_2]) {i=2, j=3, k=5, l=7, m=1, n=1, o=1, p=1, q=1, "
                     "r=1, s=1, t=1, u=1, v=1, w=1, x=1, y=1, z=8, z_1=9, z_2=10} reduction={j} "
                     "need_replication={i, k} permutation={z_2} blocked_propagation={z_1}, custom>");
  expect_text(&t, 8, "sdy.op_sharding_rule<([], [])->([])>");
  expect_text(&t, 9, "sdy.op_sharding_rule<([i])->([i]) {i=4} blocked_propagation={i}>");
  /* A nested attribute that prints nothing is printed in full instead (MLIR's AsmPrinter). */
  expect_text(&t, 11, "sdy.dim_mapping");
  expect_text(&t, 12, "sdy<tensor_mapping[#sdy.dim_mapping, i]>");
  tf_free(&t);
}

/* Error cases: every one names the file and the offset. */
TEST(damaged_entries) {
  tf t;
  tf_init(&t);
  common_entries(&t);
  uint32_t i = N_COMMON;
  tf_entry(&t, i++, SDY, PER_VALUE_V1), LIST(&t, 11);                                      /* 11: itself */
  tf_entry(&t, i++, SDY, AXIS_REF_LIST), LIST(&t, 13);                                     /* 12 -> 13 */
  tf_entry(&t, i++, SDY, LIST_OF_LISTS), LIST(&t, 12);                                     /* 13 -> 12 */
  tf_entry(&t, i++, SDY, DIM_SHARDING), LIST(&t, A_REF), tf_byte(&t, 2), tf_varint(&t, 0); /* 14: Bool 2 */
  tf_entry(&t, i++, SDY, 18);                                                              /* 15: code 18 */
  tf_entry(&t, i++, SDY, DIM_SHARDING), LIST(&t, MESH_AB), tf_byte(&t, 1), tf_varint(&t, 0); /* 16: wrong kind */
  tf_entry(&t, i++, SDY, AXIS_REF), tf_varint(&t, 0), tf_varint(&t, 0), tf_byte(&t, 0);   /* 17: left over */
  tf_entry(&t, i++, SDY, DIM_MAPPING), SLIST(&t, -1);                                      /* 18: negative */
  tf_entry(&t, i++, SDY, AXIS_REF), tf_varint(&t, 99), tf_varint(&t, 0);                   /* 19: string 99 */
  tf_entry(&t, i++, SDY, SHARDING_V1), tf_varint(&t, A_NAME), EMPTY(&t), EMPTY(&t);        /* 20: mesh a string */
  tf_entry(&t, i++, SDY, SHARDING_V3), tf_varint(&t, SYM), EMPTY(&t), EMPTY(&t), EMPTY(&t), tf_svarint(&t, 3);
  tf_entry(&t, i++, SDY, MANUAL_AXES), LIST(&t, A_REF);                                    /* 22: not a string */
  tf_entry(&t, i++, SDY, AXIS_REF_LIST), LIST(&t, A_NAME);                                 /* 23: not Shardy */
  tf_entry(&t, i++, SDY, AXIS_REF_LIST), tf_varint(&t, 1000), tf_varint(&t, 0);            /* 24: count */
  tf_entry(&t, i++, SDY, AXIS_REF), tf_varint(&t, 0), tf_varint(&t, 500 << 1 | 1);         /* 25: index */
  tf_done(&t);
  expect_error(&t, 11, "attribute 11 refers to itself");
  expect_error(&t, 12, "a Shardy list_of_axis_ref_lists where another kind of attribute belongs");
  expect_error(&t, 14, "a Bool of value 2");
  char want[80];
  snprintf(want, sizeof want, "offset %zu: unknown Shardy attribute code 18", t.starts[15]);
  expect_error(&t, 15, want);
  expect_error(&t, 16, "a Shardy mesh where another kind of attribute belongs");
  expect_error(&t, 17, "bytes left over");
  expect_error(&t, 18, "negative factor index -1");
  expect_error(&t, 19, "string index 99 out of range");
  expect_error(&t, 20, "neither a mesh nor a symbol");
  expect_error(&t, 21, "unknown reduction 3");
  expect_error(&t, 22, "is not a string");
  expect_error(&t, 23, "is not a Shardy attribute");
  expect_error(&t, 24, "overruns its entry");
  expect_error(&t, 25, "attribute index 500 out of range");
  expect_error(&t, SYM, "a builtin attribute where a Shardy one was expected");

  /* The entry point vhlo_attr uses stops the cycle too, with the entry marked busy as vhlo_attr
   * marks it, or not. */
  vhlo_ctx c;
  ctx_open(&c, &t.f);
  for (int marked = 0; marked < 2; marked++) {
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
    c.busy[11] = (uint8_t)marked;
    hr_status s = vhlo_sdy_attr_text(&c, &t.attrs[11], &sb);
    CHECK(s != NULL);
    if (s && marked) CHECK_STR_CONTAINS(hr_status_message(s), "attribute 11 refers to itself");
    hr_status_free(s);
    hr_strbuf_free(&sb);
    CHECK_EQ_INT(c.busy[11], marked);
  }
  c.busy[11] = 0;
  hr_strbuf sb;
  /* ... and the depth bound holds. */
  c.depth = HR_LIMIT_NESTING_DEPTH - 1;
  hr_strbuf_init(&sb, NULL);
  hr_status s = vhlo_sdy_attr_text_at(&c, MESH_AB, &sb);
  CHECK(s != NULL);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "nest deeper than");
  hr_status_free(s);
  hr_strbuf_free(&sb);
  CHECK_EQ_INT(c.depth, HR_LIMIT_NESTING_DEPTH - 1);
  ctx_close(&c);
  tf_free(&t);
}

/* Every truncation of every entry of a file of well-formed ones is an error, never a crash. */
TEST(truncations) {
  tf t;
  tf_init(&t);
  common_entries(&t);
  uint32_t i = N_COMMON;
  tf_entry(&t, i++, SDY, DIM_SHARDING), LIST(&t, A_REF, B_SUB_REF), tf_byte(&t, 0), tf_varint(&t, 300 << 1 | 1);
  tf_entry(&t, i++, SDY, SHARDING_V3), tf_varint(&t, SYM), LIST(&t, 11, 11), LIST(&t, A_REF), LIST(&t, B_REF),
      tf_svarint(&t, 1);
  tf_entry(&t, i++, SDY, PER_VALUE_V2), LIST(&t, 12, 12);
  tf_entry(&t, i++, SDY, DIM_MAPPING), SLIST(&t, 0, 300);
  tf_entry(&t, i++, SDY, TENSOR_MAPPING), LIST(&t, 14);
  tf_entry(&t, i++, SDY, RULE), SLIST(&t, 2, 3), LIST(&t, 15), LIST(&t, 15), SLIST(&t, 1), SLIST(&t, 0), EMPTY(&t),
      EMPTY(&t), tf_byte(&t, 1);
  tf_entry(&t, i++, SDY, MESH), LIST(&t, AXIS_A2), SLIST(&t, 1, 0);
  tf_entry(&t, i++, SDY, A2A_PARAM), LIST(&t, A_REF), tf_svarint(&t, 0), tf_svarint(&t, 1);
  tf_done(&t);
  int refused = 0;
  for (uint32_t e = MESH_AB; e < t.f.n_attrs; e++) {
    if (t.attrs[e].dialect != SDY) continue;
    vhlo_ctx c;
    ctx_open(&c, &t.f);
    char *err, *whole = text_at(&c, e, &err);
    CHECK(whole != NULL);
    free(whole);
    free(err);
    size_t len = t.attrs[e].len;
    for (size_t cut = 0; cut < len; cut++) {
      t.attrs[e].len = cut;
      char *got = text_at(&c, e, &err);
      if (got) {
        fprintf(stderr, "attribute %u cut to %zu bytes: no error (%s)\n", e, cut, got);
        test_failures_++;
      } else {
        refused++;
        CHECK_STR_CONTAINS(err, "hand.mlirbc: offset");
      }
      free(got);
      free(err);
    }
    t.attrs[e].len = len;
    ctx_close(&c);
  }
  printf("truncations: %d refused\n", refused);
  tf_free(&t);
}

/* Entries that name the same entries over and over expand beyond the bound on one text. */
TEST(text_blowup) {
  tf t;
  tf_init(&t);
  char name[201];
  memset(name, 'x', 200);
  name[200] = '\0';
  uint32_t s = tf_string(&t, name);
  tf_entry(&t, 0, SDY, AXIS_REF), tf_varint(&t, s), tf_varint(&t, 0);
  tf_entry(&t, 1, SDY, DIM_SHARDING), tf_varint(&t, 100);
  for (int k = 0; k < 100; k++) tf_varint(&t, 0);
  tf_byte(&t, 1), tf_varint(&t, 0);
  tf_entry(&t, 2, BUILTIN, B_STRING), tf_varint(&t, s);
  tf_entry(&t, 3, BUILTIN, B_FLAT_SYMBOL), tf_varint(&t, 2);
  tf_entry(&t, 4, SDY, SHARDING_V1), tf_varint(&t, 3), tf_varint(&t, 100);
  for (int k = 0; k < 100; k++) tf_varint(&t, 1);
  EMPTY(&t);
  tf_entry(&t, 5, SDY, PER_VALUE_V1), tf_varint(&t, 100);
  for (int k = 0; k < 100; k++) tf_varint(&t, 4);
  tf_done(&t);
  expect_error(&t, 5, "exceeds");
  tf_free(&t);
}

/* ---------------------------------------------------------------------------------------------- */
/* Real files                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static char shared[4096];

/* Reads a whole file into memory (NULL when absent). */
static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  if (data) data[n] = '\0';
  *len = data ? (size_t)n : 0;
  return data;
}

/* `s` as the body of an MLIR string literal: '"' as \22, '\' as \\ (then, with `c_quoted`, first
 * C-escaped: '"' as \", '\' as \\, as frontend attributes quote text within text). */
static char *escaped(const char *s, bool c_quoted) {
  size_t n = strlen(s);
  char *out = malloc(8 * n + 1), *p = out;
  if (!out) abort();
  for (; *s; s++) {
    if (c_quoted && (*s == '"' || *s == '\\')) p += sprintf(p, "\\\\");
    if (*s == '"') p += sprintf(p, "\\22");
    else if (*s == '\\') p += sprintf(p, "\\\\");
    else *p++ = *s;
  }
  *p = '\0';
  return out;
}

/* Whether `#<text>` occurs in `mlir` as MLIR printed it: literally, inside a string attribute, or
 * inside text quoted within a string attribute. */
static bool printed_as_attribute(const char *mlir, const char *text) {
  bool found = false;
  for (int form = 0; form < 3 && !found; form++) {
    char *body = form ? escaped(text, form == 2) : strdup(text);
    char *want = malloc(strlen(body) + 2);
    if (!body || !want) abort();
    sprintf(want, "#%s", body);
    found = strstr(mlir, want) != NULL;
    free(want);
    free(body);
  }
  return found;
}

/* Whether `text` occurs in `mlir` as a Shardy op's custom syntax prints that attribute: a mesh as
 * `sdy.mesh @m = <...>`, a sharding as `sdy.sharding_constraint %x <...>` or `out_sharding=<...>`,
 * shardings per value as `in_shardings=[...]`, manual axes as `manual_axes={...}`. */
static bool printed_by_op(const char *mlir, const char *text) {
  static const struct {
    const char *prefix, *before; /* `text` starts with `prefix`; the op prints `before` + the rest */
    int front, back;             /* ... less this many bytes at its front and back (<, >) */
  } forms[] = {
      {"sdy.mesh", "= ", 0, 0},           {"sdy.sharding<", " <", 0, 0},  {"sdy.sharding<", "=<", 0, 0},
      {"sdy.sharding_per_value", "=", 1, 1}, {"sdy<manual_axes", "manual_axes=", 0, 1},
  };
  bool found = false;
  for (size_t k = 0; k < sizeof forms / sizeof *forms && !found; k++) {
    size_t plen = strlen(forms[k].prefix);
    if (strncmp(text, forms[k].prefix, plen) != 0) continue;
    const char *rest = text + plen + forms[k].front;
    size_t len = strlen(rest) - (size_t)forms[k].back;
    char *want = malloc(strlen(forms[k].before) + len + 1);
    if (!want) abort();
    sprintf(want, "%s%.*s", forms[k].before, (int)len, rest);
    found = strstr(mlir, want) != NULL;
    free(want);
  }
  return found;
}

/* The code of custom entry `e` (its first varint), or -1. */
static int64_t entry_code(const hr_bc_file *f, const hr_bc_entry *e) {
  hr_bc_cursor cur = hr_bc_entry_cursor(f, e->data, e->len);
  uint64_t code;
  hr_status s = hr_bc_varint(&cur, &code);
  if (s) {
    hr_status_free(s);
    return -1;
  }
  return (int64_t)code;
}

/* Whether Shardy code `code` is one an op or argument holds (not only nested in another). */
static bool is_top_level_code(int64_t code) {
  return code == MANUAL_AXES || code == MESH || code == SHARDING_V1 || code == PER_VALUE_V1 || code == RULE ||
         code == SHARDING_V2 || code == PER_VALUE_V2 || code == SHARDING_V3;
}

typedef struct real_counts {
  int files, with_sdy, matched, matched_op, mismatched, nested, failed;
  int by_code[SHARDING_V3 + 1]; /* decoded entries per Shardy code */
} real_counts;

/* Checks the Shardy attributes of one case directory. */
static void check_case(const char *dir, real_counts *n) {
  char path[8300];
  size_t blen, tlen;
  snprintf(path, sizeof path, "%s/module.mlirbc", dir);
  char *bc = read_all(path, &blen);
  snprintf(path, sizeof path, "%s/module.mlir", dir);
  char *mlir = read_all(path, &tlen);
  if (!bc || !mlir) {
    free(bc);
    free(mlir);
    return;
  }
  n->files++;
  hr_bc_file *f;
  hr_status s = hr_bc_read(dir, (const uint8_t *)bc, blen, hr_default_allocator(), &f);
  if (s) {
    fprintf(stderr, "%s: %s\n", dir, hr_status_message(s));
    hr_status_free(s);
    test_failures_++;
    free(bc);
    free(mlir);
    return;
  }
  vhlo_ctx c;
  ctx_open(&c, f);
  int64_t sdy = find_dialect(f, "sdy");
  bool any = false;
  for (uint32_t i = 0; sdy >= 0 && i < f->n_attrs; i++) {
    const hr_bc_entry *e = &f->attrs[i];
    if ((int64_t)e->dialect != sdy || !e->custom) continue;
    any = true;
    int64_t code = entry_code(f, e);
    if (code >= 0 && code <= SHARDING_V3) n->by_code[code]++;
    char *err, *text = text_at(&c, i, &err);
    if (text && getenv("SDY_ATTRS_VERBOSE")) printf("%s: attribute %u: #%s\n", dir + strlen(shared), i, text);
    if (!text) {
      fprintf(stderr, "%s: attribute %u: %s\n", dir, i, err);
      n->failed++;
      test_failures_++;
    } else if (!is_top_level_code(code)) {
      n->nested++;
    } else if (printed_as_attribute(mlir, text)) {
      n->matched++;
    } else if (printed_by_op(mlir, text)) {
      n->matched_op++;
    } else {
      fprintf(stderr, "%s: attribute %u: #%s is not in module.mlir\n", dir, i, text);
      n->mismatched++;
      test_failures_++;
    }
    free(text);
    free(err);
  }
  n->with_sdy += any;
  ctx_close(&c);
  hr_bc_free(f);
  free(bc);
  free(mlir);
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

TEST(real_files) {
  char root[4352];
  snprintf(root, sizeof root, "%s/real/vhlo", shared);
  DIR *d = opendir(root);
  if (!d) return;
  char *names[4096];
  int n_names = 0;
  for (struct dirent *de = readdir(d); de && n_names < 4096; de = readdir(d))
    if (de->d_name[0] != '.') names[n_names++] = strdup(de->d_name);
  closedir(d);
  qsort(names, (size_t)n_names, sizeof *names, compare_names);
  real_counts n = {0};
  for (int k = 0; k < n_names; k++) {
    char dir[8192];
    snprintf(dir, sizeof dir, "%s/%.255s", root, names[k]);
    check_case(dir, &n);
    free(names[k]);
  }
  printf("real files: %d read, %d with Shardy attributes: of their top-level attributes %d found in module.mlir "
         "as attributes, %d in an op's syntax, %d not; %d nested ones decoded; %d errors\n",
         n.files, n.with_sdy, n.matched, n.matched_op, n.mismatched, n.nested, n.failed);
  printf("entries by Shardy code:");
  for (int k = 0; k <= SHARDING_V3; k++) printf(" %d:%d", k, n.by_code[k]);
  printf("\n");
  CHECK(n.matched > 0);
}

int main(void) {
  RUN(axes_and_meshes);
  RUN(shardings);
  RUN(sharding_rules);
  RUN(damaged_entries);
  RUN(truncations);
  RUN(text_blowup);
  const char *root = getenv("HLORUN_SOURCE_DIR");
  snprintf(shared, sizeof shared, "%s/../shared", root ? root : ".");
  char probe[4352];
  snprintf(probe, sizeof probe, "%s/real/vhlo", shared);
  DIR *d = opendir(probe);
  if (!d) {
    printf("../shared/real not found at %s: skipped\n", shared);
    printf("%d passed, %d failed\n", tests_passed_, tests_failed_);
    return tests_failed_ ? 1 : 77;
  }
  closedir(d);
  RUN(real_files);
  TEST_MAIN_END();
}

/* Tests for the MLIR bytecode container reader (src/formats/mlirbc/bytecode.h): the primitives,
 * small files built here for every bytecode version (value numbering, forward references, errors,
 * hostile counts), then every real file in ../shared/real (vhlo-testdata-0_9_0, vhlo-suite, vhlo)
 * with the reader's invariants checked on each, a per-directory summary, truncations at every
 * offset of one file per bytecode version, and random byte flips. Without ../shared the real-file
 * part is skipped (exit 77 when everything else passed). */
#include <dirent.h>
#include <stdint.h>
#include <time.h>

#include "base/file.h"
#include "base/limits.h"
#include "formats/mlirbc/bytecode.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* Building bytecode                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* A growable byte buffer. */
typedef struct bb {
  uint8_t *p;
  size_t n, cap;
} bb;

/* GCC's -O3 overflow check loses the capacity once a test rewinds b->n and reports writes past
 * the reallocated block that cannot happen (b->n < b->cap here); it is off for this one function. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
static void bb_byte(bb *b, uint8_t v) {
  if (b->n == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    uint8_t *p = realloc(b->p, cap);
    if (!p) abort();
    b->p = p;
    b->cap = cap;
  }
  b->p[b->n++] = v;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

static void bb_bytes(bb *b, const void *p, size_t n) {
  for (size_t i = 0; i < n; i++) bb_byte(b, ((const uint8_t *)p)[i]);
}

/* The shortest prefix varint of v. */
static void bb_varint(bb *b, uint64_t v) {
  for (unsigned n = 1; n <= 8; n++) {
    if (n * 7 < 64 && v >> (7 * n)) continue;
    uint64_t enc = (v << n) | ((uint64_t)1 << (n - 1));
    for (unsigned i = 0; i < n; i++) bb_byte(b, (uint8_t)(enc >> (8 * i)));
    return;
  }
  bb_byte(b, 0);
  for (unsigned i = 0; i < 8; i++) bb_byte(b, (uint8_t)(v >> (8 * i)));
}

/* A section: id, length, data; aligned when `align` > 1 (padding bytes `pad`). */
static void bb_section(bb *b, unsigned id, const bb *data, uint64_t align, uint8_t pad) {
  bb_byte(b, (uint8_t)(id | (align > 1 ? 0x80 : 0)));
  bb_varint(b, data->n);
  if (align > 1) {
    bb_varint(b, align);
    while (b->n % align) bb_byte(b, pad);
  }
  bb_bytes(b, data->p, data->n);
}

static void bb_free(bb *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* What build_file puts in a file besides its IR. */
typedef struct file_spec {
  unsigned version;
  const char *const *ops; /* op names of the "test" dialect; builtin.module is op name 0 */
  unsigned n_ops;
  unsigned n_attrs, n_types; /* one-byte builtin entries (UnknownLoc / index) */
  uint64_t ir_align;         /* > 1: the IR section is aligned, padded with ir_pad */
  uint8_t ir_pad;
} file_spec;

/* The string section of `strs`: count, lengths (with NUL) last first, bytes. */
static void build_strings(bb *sec, const char *const *strs, unsigned n) {
  bb_varint(sec, n);
  for (unsigned i = n; i-- > 0;) bb_varint(sec, strlen(strs[i]) + 1);
  for (unsigned i = 0; i < n; i++) bb_bytes(sec, strs[i], strlen(strs[i]) + 1);
}

/* A whole file: header, strings ("builtin", "module", "test", the op names), dialects builtin and
 * test with their op names, the attribute/type tables, `ir` and (version >= 5) an empty
 * properties section. */
static void build_file(bb *out, const file_spec *s, const bb *ir) {
  const char *strs[64] = {"builtin", "module", "test"};
  unsigned n_strs = 3;
  for (unsigned i = 0; i < s->n_ops; i++) strs[n_strs++] = s->ops[i];
  bb_bytes(out, "ML\xefR", 4);
  bb_varint(out, s->version);
  bb_bytes(out, "MLIR-test", 10);
  bb sec = {0};
  build_strings(&sec, strs, n_strs);
  bb_section(out, 0, &sec, 1, 0);
  sec.n = 0;
  bb_varint(&sec, 2);
  bb_varint(&sec, s->version >= 1 ? 0 << 1 : 0);
  bb_varint(&sec, s->version >= 1 ? 2 << 1 : 2);
  if (s->version >= 4) bb_varint(&sec, 1 + s->n_ops);
  bool flag = s->version >= 5;
  bb_varint(&sec, 0);
  bb_varint(&sec, 1);
  bb_varint(&sec, flag ? (1 << 1) | 1 : 1);
  bb_varint(&sec, 1);
  bb_varint(&sec, s->n_ops);
  for (unsigned i = 0; i < s->n_ops; i++) bb_varint(&sec, flag ? ((3 + i) << 1) | 1 : 3 + i);
  bb_section(out, 1, &sec, 1, 0);
  sec.n = 0;
  for (unsigned i = 0; i < s->n_attrs + s->n_types; i++) bb_byte(&sec, i < s->n_attrs ? 0x1F : 0x03);
  bb_section(out, 2, &sec, 1, 0);
  sec.n = 0;
  bb_varint(&sec, s->n_attrs);
  bb_varint(&sec, s->n_types);
  for (int k = 0; k < 2; k++) {
    unsigned n = k ? s->n_types : s->n_attrs;
    if (!n) continue;
    bb_varint(&sec, 0);
    bb_varint(&sec, n);
    for (unsigned i = 0; i < n; i++) bb_varint(&sec, (1 << 1) | 1);
  }
  bb_section(out, 3, &sec, 1, 0);
  bb_section(out, 4, ir, s->ir_align, s->ir_pad);
  if (s->version >= 5) {
    sec.n = 0;
    bb_section(out, 8, &sec, 1, 0);
  }
  bb_free(&sec);
}

/* An op header: name, mask, location 0. */
static void op_head(bb *b, unsigned name, uint8_t mask) {
  bb_varint(b, name);
  bb_byte(b, mask);
  bb_varint(b, 0);
}

/* A list: count, then the values. */
static void list(bb *b, unsigned n, const unsigned *v) {
  bb_varint(b, n);
  for (unsigned i = 0; i < n; i++) bb_varint(b, v[i]);
}

/* A block header with `n_args` arguments of type 0 at location 0 (as version v encodes them). */
static void block_head(bb *b, unsigned v, unsigned n_ops, unsigned n_args) {
  bb_varint(b, (uint64_t)n_ops << 1 | (n_args > 0));
  if (!n_args) return;
  bb_varint(b, n_args);
  for (unsigned i = 0; i < n_args; i++) {
    if (v >= 4) {
      bb_varint(b, 0 << 1 | 0);
    } else {
      bb_varint(b, 0);
      bb_varint(b, 0);
    }
  }
  if (v >= 3) bb_byte(b, 0);
}

/* An isolated op's regions `body` after its header (version 2 on: in a nested IR section). */
static void isolated_regions(bb *b, unsigned v, unsigned n_regions, const bb *body) {
  bb_varint(b, (uint64_t)n_regions << 1 | 1);
  if (v >= 2) bb_section(b, 4, body, 1, 0);
  else bb_bytes(b, body->p, body->n);
}

/* The top level: one builtin.module whose body block holds `body_ops` ops encoded in `ops`. */
static void module_ir(bb *ir, unsigned v, unsigned body_ops, const bb *ops) {
  bb body = {0};
  bb_varint(&body, 1); /* one block */
  bb_varint(&body, 0); /* no values */
  block_head(&body, v, body_ops, 0);
  bb_bytes(&body, ops->p, ops->n);
  block_head(ir, v, 1, 0);
  op_head(ir, 0, 0x10);
  isolated_regions(ir, v, 1, &body);
  bb_free(&body);
}

/* A built file read from a copy of exactly its size (so that ASan sees any read past it). */
typedef struct built {
  uint8_t *copy;
  hr_bc_file *f;
} built;

static hr_status read_built(const bb *file, built *out) {
  out->copy = malloc(file->n ? file->n : 1);
  if (!out->copy) abort();
  memcpy(out->copy, file->p, file->n);
  out->f = NULL;
  return hr_bc_read("built.mlirbc", out->copy, file->n, NULL, &out->f);
}

static void built_free(built *b) {
  hr_bc_free(b->f);
  free(b->copy);
  memset(b, 0, sizeof *b);
}

/* Reads a built file that must fail with a message containing `want`; returns its code. */
static hr_code expect_error(const bb *file, const char *want) {
  built b;
  hr_status s = read_built(file, &b);
  CHECK(s != NULL && b.f == NULL);
  CHECK_STR_CONTAINS(hr_status_message(s), want);
  hr_code code = hr_status_code(s);
  hr_status_free(s);
  built_free(&b);
  return code;
}

/* ---------------------------------------------------------------------------------------------- */
/* Invariants of a file read                                                                       */
/* ---------------------------------------------------------------------------------------------- */

typedef struct checker {
  const hr_bc_file *f;
  const char *path;
  uint8_t *defined; /* per value id: defined once */
  long ops;
  int errors;
  bool quiet;
} checker;

/* Records one violated invariant. */
static void bad(checker *k, const char *what, size_t at) {
  if (!k->quiet && k->errors < 5) fprintf(stderr, "%s: offset %zu: %s\n", k->path, at, what);
  k->errors++;
}

/* Marks `n` value ids from `first` as defined (each at most once). */
static void define(checker *k, uint32_t first, uint32_t n, size_t at) {
  if (n > k->f->n_values || first > k->f->n_values - n) {
    bad(k, "value ids past n_values", at);
    return;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (k->defined[first + i]) bad(k, "value id defined twice", at);
    k->defined[first + i] = 1;
  }
}

static void walk_block(checker *k, const hr_bc_block *b, uint32_t n_blocks, bool operands, int depth);

/* One op's indices and values (operands pass: its operands are defined). */
static void walk_op(checker *k, const hr_bc_op *op, uint32_t n_blocks, bool operands, int depth) {
  const hr_bc_file *f = k->f;
  if (operands) {
    for (uint32_t i = 0; i < op->n_operands; i++)
      if (op->operands[i] >= f->n_values || !k->defined[op->operands[i]]) bad(k, "operand never defined", op->offset);
  } else {
    k->ops++;
    if (op->name >= f->n_opnames) bad(k, "op name index", op->offset);
    if (op->loc >= f->n_attrs) bad(k, "location index", op->offset);
    if (op->attrs >= (int64_t)f->n_attrs || op->props >= (int64_t)f->n_props || op->props_attr >= (int64_t)f->n_attrs)
      bad(k, "attribute or properties index", op->offset);
    for (uint32_t i = 0; i < op->n_results; i++)
      if (op->result_types[i] >= f->n_types) bad(k, "result type index", op->offset);
    for (uint32_t i = 0; i < op->n_successors; i++)
      if (op->successors[i] >= n_blocks) bad(k, "successor index", op->offset);
    define(k, op->first_result, op->n_results, op->offset);
  }
  if (depth > HR_LIMIT_BC_NESTING_DEPTH) {
    bad(k, "nesting", op->offset);
    return;
  }
  for (uint32_t r = 0; r < op->n_regions; r++)
    for (uint32_t b = 0; b < op->regions[r].n_blocks; b++)
      walk_block(k, &op->regions[r].blocks[b], op->regions[r].n_blocks, operands, depth + 1);
}

/* A block's arguments and ops. */
static void walk_block(checker *k, const hr_bc_block *b, uint32_t n_blocks, bool operands, int depth) {
  if (!operands) {
    for (uint32_t i = 0; i < b->n_args; i++)
      if (b->arg_types[i] >= k->f->n_types || b->arg_locs[i] >= (int64_t)k->f->n_attrs || b->arg_locs[i] < -1)
        bad(k, "block argument type or location index", 0);
    define(k, b->first_arg, b->n_args, 0);
  }
  for (uint32_t i = 0; i < b->n_ops; i++) walk_op(k, &b->ops[i], n_blocks, operands, depth);
}

/* Checks everything bytecode.h promises about a file read; `module` also the top block's single
 * builtin.module. Returns the number of violations. */
static int check_file(const hr_bc_file *f, const char *path, bool module, bool quiet, long *ops) {
  checker k = {.f = f, .path = path, .quiet = quiet};
  k.defined = calloc(f->n_values ? f->n_values : 1, 1);
  if (!k.defined) abort();
  if (module && (f->top.n_ops != 1 || strcmp(f->opnames[f->top.ops[0].name].full, "builtin.module") != 0))
    bad(&k, "the top block is not one builtin.module", 0);
  for (uint32_t i = 0; i < f->n_opnames; i++)
    if (f->opnames[i].dialect >= f->n_dialects || !f->opnames[i].full) bad(&k, "op name's dialect", 0);
  for (int t = 0; t < 2; t++) {
    const hr_bc_entry *e = t ? f->types : f->attrs;
    uint32_t n = t ? f->n_types : f->n_attrs;
    for (uint32_t i = 0; i < n; i++)
      if (e[i].dialect >= f->n_dialects || e[i].data < f->data || e[i].len > f->len ||
          (size_t)(e[i].data - f->data) > f->len - e[i].len)
        bad(&k, "attribute/type entry", 0);
  }
  for (uint32_t i = 0; i < f->n_strings; i++)
    if (f->strings[i].data[f->strings[i].len] != 0) bad(&k, "string without NUL", 0);
  if (f->first_dialect_resource > f->n_resources) bad(&k, "first dialect resource", 0);
  walk_block(&k, &f->top, 1, false, 0);
  walk_block(&k, &f->top, 1, true, 0);
  free(k.defined);
  if (ops) *ops = k.ops;
  return k.errors;
}

/* ---------------------------------------------------------------------------------------------- */
/* Primitives                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static hr_bc_cursor cursor_of(const uint8_t *p, size_t n) { return hr_bc_cursor_at("t", p, p, p + n); }

/* v encoded in exactly n bytes (1 to 8; 9: the 0x00 form). */
static size_t encode_varint_n(uint8_t *out, uint64_t v, unsigned n) {
  if (n == 9) {
    out[0] = 0;
    for (unsigned i = 0; i < 8; i++) out[1 + i] = (uint8_t)(v >> (8 * i));
    return 9;
  }
  uint64_t enc = (v << n) | ((uint64_t)1 << (n - 1));
  for (unsigned i = 0; i < n; i++) out[i] = (uint8_t)(enc >> (8 * i));
  return n;
}

TEST(varint_every_length) {
  for (unsigned n = 1; n <= 9; n++) {
    uint64_t max = n >= 9 ? UINT64_MAX : ((uint64_t)1 << (7 * n)) - 1;
    const uint64_t vals[] = {0, 1, max / 3, max - 1, max};
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
      uint8_t buf[16]; /* 9 used; GCC's -O3 overflow check cannot tell */
      size_t len = encode_varint_n(buf, vals[k], n);
      hr_bc_cursor c = cursor_of(buf, len);
      uint64_t got = 0;
      CHECK_OK(hr_bc_varint(&c, &got));
      CHECK(got == vals[k]);
      CHECK(hr_bc_at_end(&c));
      for (size_t cut = 0; cut < len; cut++) {
        hr_bc_cursor t = cursor_of(buf, cut);
        hr_status s = hr_bc_varint(&t, &got);
        CHECK(s != NULL);
        hr_status_free(s);
      }
    }
  }
  /* the 9-byte form holds the full 64 bits */
  uint8_t nine[9] = {0x00, 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01};
  hr_bc_cursor c = cursor_of(nine, 9);
  uint64_t v = 0;
  CHECK_OK(hr_bc_varint(&c, &v));
  CHECK(v == 0x0123456789ABCDEFull);
  /* 2-byte form: 0b10 marker */
  uint8_t two[2] = {0x56, 0x02}; /* (0x95 << 2 | 0b10) little-endian */
  c = cursor_of(two, 2);
  CHECK_OK(hr_bc_varint(&c, &v));
  CHECK_EQ_INT(v, 0x95);
}

TEST(svarint_zigzag) {
  const struct {
    uint64_t enc;
    int64_t val;
  } cases[] = {{0, 0}, {1, -1}, {2, 1}, {3, -2}, {4, 2}, {UINT64_MAX - 1, INT64_MAX}, {UINT64_MAX, INT64_MIN}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bb b = {0};
    bb_varint(&b, cases[i].enc);
    hr_bc_cursor c = cursor_of(b.p, b.n);
    int64_t v = 7;
    CHECK_OK(hr_bc_svarint(&c, &v));
    CHECK(v == cases[i].val);
    bb_free(&b);
  }
}

TEST(index_blob_cstring_bounds) {
  uint8_t buf[] = {4 << 1 | 1, 5 << 1 | 1};
  hr_bc_cursor c = cursor_of(buf, 2);
  uint32_t idx = 99;
  CHECK_OK(hr_bc_index(&c, 5, "op name", &idx));
  CHECK_EQ_INT(idx, 4);
  hr_status s = hr_bc_index(&c, 5, "op name", &idx);
  CHECK_STR_CONTAINS(hr_status_message(s), "t: offset 1: op name 5 out of range (5 entries)");
  hr_status_free(s);
  /* a blob longer than what is left */
  uint8_t blob[] = {3 << 1 | 1, 'a', 'b'};
  c = cursor_of(blob, 3);
  const uint8_t *d = NULL;
  size_t len = 0;
  s = hr_bc_blob(&c, &d, &len);
  CHECK(s != NULL);
  hr_status_free(s);
  c = cursor_of(blob, 3);
  blob[0] = 2 << 1 | 1;
  CHECK_OK(hr_bc_blob(&c, &d, &len));
  CHECK(len == 2 && d == blob + 1);
  /* cstring without NUL */
  const char *str = NULL;
  c = cursor_of(blob, 3);
  s = hr_bc_cstring(&c, &str, &len);
  CHECK(s != NULL);
  hr_status_free(s);
  uint8_t zs[] = {'h', 'i', 0, 'x'};
  c = cursor_of(zs, 4);
  CHECK_OK(hr_bc_cstring(&c, &str, &len));
  CHECK(len == 2 && strcmp(str, "hi") == 0 && c.p == zs + 3);
  uint8_t byte = 0;
  c = cursor_of(zs, 0);
  s = hr_bc_byte(&c, &byte);
  CHECK(s != NULL);
  hr_status_free(s);
}

/* ---------------------------------------------------------------------------------------------- */
/* Built files                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

static const char *const test_ops[] = {"func", "a"};

/* The value-numbering example of version v (see value_numbering_every_version). */
static void numbering_ir(bb *ir, unsigned v) {
  bb func = {0}, ops = {0};
  /* region A: 2 blocks, 4 values */
  bb_varint(&func, 2);
  bb_varint(&func, 4);
  block_head(&func, v, 2, 1);           /* block 0: arg slot 0 */
  op_head(&func, 2, 0x06);              /* op1: result slot 1, operand slot 2 (forward) */
  list(&func, 1, (unsigned[]){0});
  list(&func, 1, (unsigned[]){2});
  op_head(&func, 2, 0x1E);              /* op2: result slot 2, operand slot 0, successor 1, region C */
  list(&func, 1, (unsigned[]){0});
  list(&func, 1, (unsigned[]){0});
  list(&func, 1, (unsigned[]){1});
  bb_varint(&func, 1 << 1 | 0);         /* one inline region */
  bb_varint(&func, 1);                  /* region C: 1 block, 1 value (slot 4) */
  bb_varint(&func, 1);
  block_head(&func, v, 1, 0);
  op_head(&func, 2, 0x06);
  list(&func, 1, (unsigned[]){0});
  list(&func, 1, (unsigned[]){1});
  block_head(&func, v, 1, 1);           /* block 1: arg slot 3 */
  op_head(&func, 2, 0x04);
  list(&func, 2, (unsigned[]){3, 1});
  /* region B: 1 block, 1 value, reusing slot 0 */
  bb_varint(&func, 1);
  bb_varint(&func, 1);
  block_head(&func, v, 2, 0);
  op_head(&func, 2, 0x02);
  list(&func, 1, (unsigned[]){0});
  op_head(&func, 2, 0x04);
  list(&func, 1, (unsigned[]){0});
  op_head(&ops, 1, 0x10);
  isolated_regions(&ops, v, 2, &func);
  module_ir(ir, v, 1, &ops);
  bb_free(&func);
  bb_free(&ops);
}

TEST(value_numbering_every_version) {
  for (unsigned v = 0; v <= 6; v++) {
    bb ir = {0}, file = {0};
    numbering_ir(&ir, v);
    file_spec spec = {.version = v, .ops = test_ops, .n_ops = 2, .n_attrs = 1, .n_types = 1};
    build_file(&file, &spec, &ir);
    built bt;
    CHECK_OK(read_built(&file, &bt));
    const hr_bc_file *f = bt.f;
    if (f) {
      CHECK_EQ_INT(f->version, v);
      CHECK(strcmp(f->producer, "MLIR-test") == 0);
      CHECK_EQ_INT(f->n_opnames, 3);
      CHECK(strcmp(f->opnames[0].full, "builtin.module") == 0 && strcmp(f->opnames[2].full, "test.a") == 0);
      CHECK_EQ_INT(f->n_values, 6);
      CHECK_EQ_INT(f->top.n_ops, 1);
      const hr_bc_op *module = &f->top.ops[0];
      CHECK(module->isolated && module->n_regions == 1);
      const hr_bc_op *func = &module->regions[0].blocks[0].ops[0];
      CHECK(func->isolated && func->n_regions == 2);
      const hr_bc_region *a = &func->regions[0], *b = &func->regions[1];
      CHECK_EQ_INT(a->n_blocks, 2);
      CHECK_EQ_INT(a->blocks[0].first_arg, 0);
      CHECK_EQ_INT(a->blocks[0].arg_locs[0], v >= 4 ? -1 : 0);
      const hr_bc_op *op1 = &a->blocks[0].ops[0], *op2 = &a->blocks[0].ops[1];
      CHECK_EQ_INT(op1->first_result, 1);
      CHECK_EQ_INT(op1->operands[0], 2);
      CHECK_EQ_INT(op2->first_result, 2);
      CHECK_EQ_INT(op2->operands[0], 0);
      CHECK_EQ_INT(op2->successors[0], 1);
      const hr_bc_op *inner = &op2->regions[0].blocks[0].ops[0];
      CHECK_EQ_INT(inner->first_result, 3);
      CHECK_EQ_INT(inner->operands[0], 1);
      CHECK_EQ_INT(a->blocks[1].first_arg, 4);
      const hr_bc_op *op3 = &a->blocks[1].ops[0];
      CHECK(op3->n_operands == 2 && op3->operands[0] == 4 && op3->operands[1] == 1);
      CHECK_EQ_INT(b->blocks[0].ops[0].first_result, 5);
      CHECK_EQ_INT(b->blocks[0].ops[1].operands[0], 5);
      CHECK_EQ_INT(check_file(f, "built", true, false, NULL), 0);
    }
    built_free(&bt);
    bb_free(&ir);
    bb_free(&file);
  }
}

/* Reads a v6 file whose module body is `ops` (n ops, op names test.func and test.a, one
 * attribute and one type) and checks it fails with a message containing `want`. */
static void expect_body_error(unsigned n, const bb *ops, const char *want) {
  bb ir = {0}, file = {0};
  module_ir(&ir, 6, n, ops);
  file_spec spec = {.version = 6, .ops = test_ops, .n_ops = 2, .n_attrs = 1, .n_types = 1};
  build_file(&file, &spec, &ir);
  expect_error(&file, want);
  bb_free(&ir);
  bb_free(&file);
}

/* An isolated test.func holding one region of one block whose ops are `body` (n ops, nv values). */
static void func_with(bb *ops, unsigned nv, unsigned n, const bb *body) {
  bb region = {0};
  bb_varint(&region, 1);
  bb_varint(&region, nv);
  block_head(&region, 6, n, 0);
  bb_bytes(&region, body->p, body->n);
  op_head(ops, 1, 0x10);
  isolated_regions(ops, 6, 1, &region);
  bb_free(&region);
}

TEST(value_errors) {
  bb body = {0}, ops = {0};
  /* a forward reference to a slot nothing defines */
  op_head(&body, 2, 0x02);
  list(&body, 1, (unsigned[]){0});
  op_head(&body, 2, 0x04);
  list(&body, 1, (unsigned[]){1});
  func_with(&ops, 2, 2, &body);
  expect_body_error(1, &ops, "which its region never defines");
  /* more values than the region reserved */
  body.n = ops.n = 0;
  op_head(&body, 2, 0x02);
  list(&body, 2, (unsigned[]){0, 0});
  func_with(&ops, 1, 1, &body);
  expect_body_error(1, &ops, "2 values where the region has 1 of its 1 value slots left");
  /* an operand beyond the scope's slots */
  body.n = ops.n = 0;
  op_head(&body, 2, 0x06);
  list(&body, 1, (unsigned[]){0});
  list(&body, 1, (unsigned[]){5});
  func_with(&ops, 1, 1, &body);
  expect_body_error(1, &ops, "value 5 out of range (1 entries)");
  /* a successor beyond the region's blocks */
  body.n = ops.n = 0;
  op_head(&body, 2, 0x08);
  list(&body, 1, (unsigned[]){1});
  func_with(&ops, 0, 1, &body);
  expect_body_error(1, &ops, "successor block 1 out of range (1 entries)");
  /* a properties bit on an op of bytecode that has no properties section records */
  body.n = ops.n = 0;
  op_head(&body, 2, 0x40);
  bb_varint(&body, 0);
  func_with(&ops, 0, 1, &body);
  expect_body_error(1, &ops, "properties record 0 out of range (0 entries)");
  /* an unknown mask bit */
  body.n = ops.n = 0;
  op_head(&body, 2, 0x80);
  func_with(&ops, 0, 1, &body);
  expect_body_error(1, &ops, "encoding mask 0x80");
  /* an isolated op whose regions are not in an IR section */
  ops.n = 0;
  op_head(&ops, 1, 0x10);
  bb_varint(&ops, 1 << 1 | 1);
  bb_byte(&ops, 5);
  bb_varint(&ops, 0);
  expect_body_error(1, &ops, "expected the IR section (id 4)");
  bb_free(&body);
  bb_free(&ops);
}

/* A well-formed minimal v6 file (an empty module) with the IR section aligned to `align` (> 1)
 * and padded with `pad`. */
static void aligned_file(bb *file, uint64_t align, uint8_t pad) {
  bb ir = {0}, none = {0};
  module_ir(&ir, 6, 0, &none);
  file_spec spec = {.version = 6, .ops = test_ops, .n_ops = 2, .n_attrs = 1, .n_types = 1, .ir_align = align,
                    .ir_pad = pad};
  build_file(file, &spec, &ir);
  bb_free(&ir);
}

TEST(hostile_counts_and_nesting) {
  bb ops = {0}, ir = {0}, file = {0};
  /* a block claiming 2^30 ops in a few bytes */
  bb_varint(&ops, 0);
  expect_body_error((unsigned)1 << 30, &ops, "1073741824 ops cannot fit");
  /* regions nested deeper than the limit (non-isolated test.a ops, one region of one block each) */
  ops.n = 0;
  for (int d = 0; d < HR_LIMIT_BC_NESTING_DEPTH + 5; d++) {
    op_head(&ops, 2, 0x10);
    bb_varint(&ops, 1 << 1 | 0);
    bb_varint(&ops, 1);
    bb_varint(&ops, 0);
    bb_varint(&ops, 1 << 1);
  }
  module_ir(&ir, 6, 1, &ops);
  file_spec spec = {.version = 6, .ops = test_ops, .n_ops = 2, .n_attrs = 1, .n_types = 1};
  build_file(&file, &spec, &ir);
  CHECK(expect_error(&file, "nested more than") == HR_RESOURCE_EXHAUSTED);
  /* a string table claiming 2^50 strings (the other sections as built) */
  bb sec = {0}, good = {0};
  aligned_file(&good, 1, 0);
  hr_bc_cursor c = hr_bc_cursor_at("t", good.p, good.p + 16, good.p + good.n); /* after the header and id 0 */
  uint64_t len = 0;
  CHECK_OK(hr_bc_varint(&c, &len));
  file.n = 0;
  bb_bytes(&file, good.p, 15);
  bb_varint(&sec, (uint64_t)1 << 50);
  bb_section(&file, 0, &sec, 1, 0);
  bb_bytes(&file, c.p + len, (size_t)(good.p + good.n - (c.p + len)));
  expect_error(&file, "1125899906842624 strings cannot fit");
  bb_free(&good);
  bb_free(&sec);
  bb_free(&ir);
  bb_free(&file);
  bb_free(&ops);
}

TEST(alignment_padding) {
  bb file = {0};
  aligned_file(&file, 256, 0xCB);
  built b;
  CHECK_OK(read_built(&file, &b));
  if (b.f) {
    CHECK(b.f->top.n_ops == 1 && strcmp(b.f->opnames[b.f->top.ops[0].name].full, "builtin.module") == 0);
    CHECK_EQ_INT(check_file(b.f, "built", true, false, NULL), 0);
  }
  built_free(&b);
  bb_free(&file);
  aligned_file(&file, 256, 0x00);
  expect_error(&file, "alignment padding byte is 0x00, not 0xCB");
  bb_free(&file);
  aligned_file(&file, 3, 0xCB);
  expect_error(&file, "alignment 3 is not a power of two");
  bb_free(&file);
}

TEST(container_errors) {
  bb file = {0};
  aligned_file(&file, 1, 0);
  file.p[0] = 'X';
  expect_error(&file, "built.mlirbc: offset 0: not MLIR bytecode");
  file.p[0] = 'M';
  file.p[4] = 7 << 1 | 1;
  CHECK(expect_error(&file, "bytecode version 7 is newer than 6") == HR_UNIMPLEMENTED);
  file.p[4] = 6 << 1 | 1;
  /* an unknown section, a second string section, no sections */
  bb extra = {0}, empty = {0};
  bb_bytes(&extra, file.p, file.n);
  bb_section(&extra, 9, &empty, 1, 0);
  expect_error(&extra, "unknown section id 9");
  extra.n = file.n;
  bb_section(&extra, 0, &empty, 1, 0);
  expect_error(&extra, "a second string section");
  extra.n = 0;
  bb_bytes(&extra, "ML\xefR\x0d" "p", 7);
  expect_error(&extra, "no string section (required in bytecode version 6)");
  /* a resource section without its offsets */
  extra.n = 0;
  bb_bytes(&extra, file.p, file.n);
  bb_section(&extra, 5, &empty, 1, 0);
  expect_error(&extra, "a resource section without a resource offset section");
  bb_free(&extra);
  bb_free(&file);
}

/* ---------------------------------------------------------------------------------------------- */
/* Real files                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A set of strings (distinct op names, producers). */
typedef struct strset {
  char **s;
  size_t n, cap;
} strset;

static void strset_add(strset *set, const char *s) {
  for (size_t i = 0; i < set->n; i++)
    if (strcmp(set->s[i], s) == 0) return;
  if (set->n == set->cap) {
    set->cap = set->cap ? set->cap * 2 : 64;
    set->s = realloc(set->s, set->cap * sizeof *set->s);
    if (!set->s) abort();
  }
  set->s[set->n++] = strdup(s);
}

static void strset_free(strset *set) {
  for (size_t i = 0; i < set->n; i++) free(set->s[i]);
  free(set->s);
  memset(set, 0, sizeof *set);
}

/* The file of each bytecode version picked for the truncation and flip passes. */
typedef struct sample {
  char path[4096];
  size_t len;
  long ops;
} sample;

/* What the walk over the real directories gathers. */
typedef struct survey {
  sample by_version[7];
  int failures;
} survey;

/* The producer prefixes of real files. */
static bool known_producer(const char *p) {
  return strncmp(p, "StableHLO_v", 11) == 0 || strncmp(p, "MLIR", 4) == 0;
}

/* Reads one real file and checks it; adds to the directory's tallies. */
static void survey_file(survey *sv, const char *path, int versions[7], long *ops, strset *names, strset *producers,
                        double *secs) {
  char *data = NULL;
  size_t len = 0;
  hr_status s = hr_read_file(path, NULL, (size_t)1 << 30, &data, &len);
  if (s) {
    fprintf(stderr, "%s: %s\n", path, hr_status_message(s));
    hr_status_free(s);
    sv->failures++;
    return;
  }
  hr_bc_file *f = NULL;
  double t0 = now_s();
  s = hr_bc_read(path, (const uint8_t *)data, len, NULL, &f);
  *secs += now_s() - t0;
  if (s) {
    fprintf(stderr, "FAIL %s\n", hr_status_message(s));
    hr_status_free(s);
    sv->failures++;
    free(data);
    return;
  }
  long n_ops = 0;
  if (check_file(f, path, true, false, &n_ops)) sv->failures++;
  if (!known_producer(f->producer)) {
    fprintf(stderr, "%s: unexpected producer \"%s\"\n", path, f->producer);
    sv->failures++;
  }
  versions[f->version]++;
  *ops += n_ops;
  strset_add(producers, f->producer);
  for (uint32_t i = 0; i < f->n_opnames; i++) strset_add(names, f->opnames[i].full);
  sample *sm = &sv->by_version[f->version]; /* the one with the most ops, up to 32 KiB */
  if (len <= (32 << 10) && (!sm->len || n_ops > sm->ops)) {
    snprintf(sm->path, sizeof sm->path, "%s", path);
    sm->len = len;
    sm->ops = n_ops;
  }
  hr_bc_free(f);
  free(data);
}

/* Whether `name` ends with `suffix`. */
static bool ends_with(const char *name, const char *suffix) {
  size_t n = strlen(name), m = strlen(suffix);
  return n >= m && strcmp(name + n - m, suffix) == 0;
}

static int compare_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The paths under `dir` that can be opened: dir/NAME where NAME ends with `suffix` (sub NULL) or
 * dir/NAME/sub (sub "." lists the subdirectories), sorted. */
static int list_files(const char *dir, const char *suffix, const char *sub, char ***out) {
  DIR *d = opendir(dir);
  if (!d) return -1;
  char **paths = NULL;
  int n = 0, cap = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    bool dirs = sub && strcmp(sub, ".") == 0;
    if (sub && !dirs) snprintf(path, sizeof path, "%s/%s/%s", dir, e->d_name, sub);
    else if (dirs || ends_with(e->d_name, suffix)) snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    else continue;
    if (dirs) {
      DIR *probe = opendir(path);
      if (!probe) continue;
      closedir(probe);
    } else {
      FILE *probe = fopen(path, "rb");
      if (!probe) continue;
      fclose(probe);
    }
    if (n == cap) {
      cap = cap ? cap * 2 : 256;
      paths = realloc(paths, (size_t)cap * sizeof *paths);
      if (!paths) abort();
    }
    paths[n++] = strdup(path);
  }
  closedir(d);
  if (n) qsort(paths, (size_t)n, sizeof *paths, compare_str);
  *out = paths;
  return n;
}

/* Reads every file of one directory kind and prints its summary line. */
static void survey_dir(survey *sv, const char *label, char **paths, int n) {
  int versions[7] = {0};
  long ops = 0;
  strset names = {0}, producers = {0};
  double secs = 0, t0 = now_s();
  for (int i = 0; i < n; i++) survey_file(sv, paths[i], versions, &ops, &names, &producers, &secs);
  char vs[128] = "";
  for (int v = 0; v < 7; v++)
    if (versions[v]) snprintf(vs + strlen(vs), sizeof vs - strlen(vs), " v%d:%d", v, versions[v]);
  printf("%s: %d files, bytecode%s, %ld ops, %zu distinct op names, %zu producers (", label, n, vs, ops, names.n,
         producers.n);
  qsort(producers.s, producers.n, sizeof *producers.s, compare_str);
  for (size_t i = 0; i < producers.n && i < 6; i++) printf("%s%s", i ? ", " : "", producers.s[i]);
  printf("%s), read %.1f ms (%.1f ms with checks)\n", producers.n > 6 ? ", ..." : "", secs * 1e3, (now_s() - t0) * 1e3);
  strset_free(&names);
  strset_free(&producers);
}

/* Every prefix of the file must fail cleanly (reading from a buffer of exactly that size). */
static void truncation_pass(const sample *sm, int version) {
  char *data = NULL;
  size_t len = 0;
  hr_status s = hr_read_file(sm->path, NULL, (size_t)1 << 30, &data, &len);
  CHECK_OK(s);
  if (!data) return;
  size_t step = len > 40000 ? len / 40000 + 1 : 1, tried = 0, ok = 0;
  double t0 = now_s();
  for (size_t cut = 0; cut < len; cut += step) {
    uint8_t *copy = malloc(cut ? cut : 1);
    if (!copy) abort();
    memcpy(copy, data, cut);
    hr_bc_file *f = NULL;
    s = hr_bc_read("trunc", copy, cut, NULL, &f);
    tried++;
    if (!s) {
      ok++; /* a prefix ending where optional sections would start is a file too */
      CHECK_EQ_INT(check_file(f, sm->path, true, false, NULL), 0);
    }
    hr_status_free(s);
    hr_bc_free(f);
    free(copy);
  }
  printf("truncation v%d: %s (%zu bytes): %zu prefixes, %zu read (must be 0), %.0f ms\n", version, sm->path, len,
         tried, ok, (now_s() - t0) * 1e3);
  CHECK_EQ_INT(ok, 0);
  free(data);
}

/* Random byte changes: each read must succeed with every invariant or fail cleanly. */
static void flip_pass(const sample *sm, int version, int rounds) {
  char *data = NULL;
  size_t len = 0;
  CHECK_OK(hr_read_file(sm->path, NULL, (size_t)1 << 30, &data, &len));
  if (!data || !len) return;
  uint64_t x = 0x9E3779B97F4A7C15ull ^ (uint64_t)version;
  int ok = 0, bad_invariants = 0;
  uint8_t *copy = malloc(len);
  if (!copy) abort();
  for (int r = 0; r < rounds; r++) {
    memcpy(copy, data, len);
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int flips = 1 + (int)(x % 4);
    for (int i = 0; i < flips; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      copy[(x >> 8) % len] = (uint8_t)x;
    }
    hr_bc_file *f = NULL;
    hr_status s = hr_bc_read("flip", copy, len, NULL, &f);
    if (!s) {
      ok++;
      if (check_file(f, "flip", false, true, NULL)) bad_invariants++;
    }
    hr_status_free(s);
    hr_bc_free(f);
  }
  printf("flips v%d: %d rounds, %d still read, %d broke an invariant (must be 0)\n", version, rounds, ok,
         bad_invariants);
  CHECK_EQ_INT(bad_invariants, 0);
  free(copy);
  free(data);
}

/* The large-file timing: a module of one function with `n` ops of one result and two operands. */
static void large_file_timing(void) {
  unsigned n = 1000000;
  bb body = {0}, region = {0}, ops = {0}, ir = {0}, file = {0};
  for (unsigned i = 0; i < n; i++) {
    op_head(&body, 2, 0x06);
    list(&body, 1, (unsigned[]){0});
    list(&body, 2, (unsigned[]){i / 2, i});
  }
  bb_varint(&region, 1);
  bb_varint(&region, n + 1);
  block_head(&region, 6, n, 1);
  bb_bytes(&region, body.p, body.n);
  op_head(&ops, 1, 0x10);
  isolated_regions(&ops, 6, 1, &region);
  module_ir(&ir, 6, 1, &ops);
  file_spec spec = {.version = 6, .ops = test_ops, .n_ops = 2, .n_attrs = 1, .n_types = 1};
  build_file(&file, &spec, &ir);
  hr_bc_file *f = NULL;
  double t0 = now_s();
  CHECK_OK(hr_bc_read("large", file.p, file.n, NULL, &f)); /* file.p is not read past file.n */
  double dt = now_s() - t0;
  if (f) {
    CHECK_EQ_INT(f->n_values, n + 1);
    const hr_bc_block *b = &f->top.ops[0].regions[0].blocks[0].ops[0].regions[0].blocks[0];
    CHECK_EQ_INT(b->ops[n - 1].operands[1], n - 1);
    CHECK_EQ_INT(b->ops[n - 1].first_result, n);
    CHECK_EQ_INT(check_file(f, "large", true, false, NULL), 0);
  }
  printf("large file: %zu bytes, %u ops, read in %.1f ms\n", file.n, n, dt * 1e3);
  const char *dump = getenv("HLORUN_MLIRBC_DUMP_LARGE");
  if (dump) CHECK_OK(hr_write_file(dump, file.p, file.n));
  hr_bc_free(f);
  bb_free(&body);
  bb_free(&region);
  bb_free(&ops);
  bb_free(&ir);
  bb_free(&file);
}

/* The real files: all read with their invariants, then truncations and flips. Returns false when
 * ../shared/real is absent. */
static bool real_files(void) {
  const char *root = getenv("HLORUN_SOURCE_DIR");
  char base[4096];
  snprintf(base, sizeof base, "%s/../shared/real", root ? root : ".");
  DIR *probe = opendir(base);
  if (!probe) {
    printf("real files not found at %s: skipped\n", base);
    return false;
  }
  closedir(probe);
  double t0 = now_s();
  survey sv = {0};
  char dir[4200];
  char **paths = NULL;
  int n;
  snprintf(dir, sizeof dir, "%s/vhlo-testdata-0_9_0", base);
  if ((n = list_files(dir, ".bc", NULL, &paths)) > 0) survey_dir(&sv, "vhlo-testdata-0_9_0", paths, n);
  for (int i = 0; i < n; i++) free(paths[i]);
  free(paths);
  /* vhlo-suite/<version>/<anything>.mlir.bc */
  snprintf(dir, sizeof dir, "%s/vhlo-suite", base);
  char **versions = NULL;
  int nv = list_files(dir, NULL, ".", &versions);
  char **suite = NULL;
  int ns = 0;
  for (int i = 0; i < nv; i++) {
    char **sub = NULL;
    int k = list_files(versions[i], ".mlir.bc", NULL, &sub);
    for (int j = 0; j < k; j++) {
      suite = realloc(suite, (size_t)(ns + 1) * sizeof *suite);
      if (!suite) abort();
      suite[ns++] = sub[j];
    }
    free(sub);
    free(versions[i]);
  }
  free(versions);
  if (ns > 0) survey_dir(&sv, "vhlo-suite", suite, ns);
  for (int i = 0; i < ns; i++) free(suite[i]);
  free(suite);
  snprintf(dir, sizeof dir, "%s/vhlo", base);
  if ((n = list_files(dir, NULL, "module.mlirbc", &paths)) > 0) survey_dir(&sv, "vhlo", paths, n);
  for (int i = 0; i < n; i++) free(paths[i]);
  free(paths);
  CHECK_EQ_INT(sv.failures, 0);
  printf("real files read and checked in %.2f s\n", now_s() - t0);
  t0 = now_s();
  for (int v = 0; v < 7; v++) {
    if (!sv.by_version[v].len) continue;
    truncation_pass(&sv.by_version[v], v);
    flip_pass(&sv.by_version[v], v, 3000);
  }
  printf("truncations and flips in %.2f s\n", now_s() - t0);
  return true;
}

TEST(real_and_large_files) { large_file_timing(); }

int main(void) {
  RUN(varint_every_length);
  RUN(svarint_zigzag);
  RUN(index_blob_cstring_bounds);
  RUN(value_numbering_every_version);
  RUN(value_errors);
  RUN(hostile_counts_and_nesting);
  RUN(alignment_padding);
  RUN(container_errors);
  RUN(real_and_large_files);
  test_failures_ = 0;
  bool have_real = real_files();
  if (test_failures_) {
    tests_failed_++;
    fprintf(stderr, "FAIL real_files\n");
  } else if (have_real) {
    tests_passed_++;
  }
  if (!have_real && !tests_failed_) {
    printf("%d passed, 0 failed (real files skipped)\n", tests_passed_);
    return 77;
  }
  TEST_MAIN_END();
}

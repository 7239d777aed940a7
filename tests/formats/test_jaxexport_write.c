/* Tests for the jax.export writer (src/formats/jaxexport/jaxexport_write.c) and its FlatBuffer
 * builder (flatbuf_write.c): what the builder writes reads back through the bounds-checked reader
 * (flatbuf.h) with every scalar aligned; a module described and written reads back as the Exported
 * jax.export would make of it, with a module that parses; non-tensor arguments are refused; every
 * truncation of a written file is rejected. The real files' round trips are in test_exported.sh. */
#include <stdint.h>

#include "base/strbuf.h"
#include "formats/jaxexport/flatbuf.h"
#include "formats/jaxexport/flatbuf_write.h"
#include "formats/jaxexport/jaxexport.h"
#include "formats/mlirbc/writer.h"
#include "ir/ir.h"
#include "test.h"

/* A table of every field kind, a vector of 8-byte scalars and a vector of tables read back. */
TEST(builder_round_trip) {
  hr_fbw b;
  hr_fbw_init(&b, NULL);
  hr_fbw_ref name = hr_fbw_cstring(&b, "hello");
  const uint64_t wide[3] = {1, 2, UINT64_MAX};
  hr_fbw_ref vec = hr_fbw_scalars(&b, wide, 3, 8);
  hr_fbw_ref kids[2];
  for (int i = 0; i < 2; i++) {
    hr_fbw_table_begin(&b);
    hr_fbw_add_u16(&b, 0, (uint16_t)(100 + i), 0);
    kids[i] = hr_fbw_table_end(&b);
  }
  hr_fbw_ref kid_vec = hr_fbw_refs(&b, kids, 2);
  hr_fbw_table_begin(&b);
  hr_fbw_add_u8(&b, 0, 7, 0);
  hr_fbw_add_u16(&b, 1, 0x1234, 0);
  hr_fbw_add_u32(&b, 2, 0xdeadbeefu, 0);
  hr_fbw_add_u32(&b, 3, 5, 5); /* equal to its default: left out */
  hr_fbw_add_ref(&b, 4, name);
  hr_fbw_add_ref(&b, 5, vec);
  hr_fbw_add_ref(&b, 6, kid_vec);
  hr_fbw_ref root = hr_fbw_table_end(&b);
  hr_strbuf out;
  hr_strbuf_init(&out, NULL);
  hr_status s = hr_fbw_finish(&b, root, &out);
  hr_fbw_free(&b);
  CHECK(s == NULL);
  hr_status_free(s);
  CHECK(out.len % 8 == 0);
  hr_fb fb;
  hr_fb_table t, k;
  uint8_t u8 = 0;
  uint16_t u16 = 0;
  uint32_t u32 = 0;
  hr_fb_string str;
  hr_fb_vector v, kv;
  s = hr_fb_init(&fb, "built", (const uint8_t *)out.data, out.len);
  if (!s) s = hr_fb_root(&fb, &t);
  if (!s) s = hr_fb_u8(&fb, &t, 0, "u8", 0, &u8);
  if (!s) s = hr_fb_u16(&fb, &t, 1, "u16", 0, &u16);
  if (!s) s = hr_fb_u32(&fb, &t, 2, "u32", 0, &u32);
  if (!s) s = hr_fb_string_field(&fb, &t, 4, "name", &str);
  if (!s) s = hr_fb_vector_field(&fb, &t, 5, "wide", 8, &v);
  if (!s) s = hr_fb_vector_field(&fb, &t, 6, "kids", 4, &kv);
  CHECK(s == NULL);
  if (s) printf("  %s\n", hr_status_message(s));
  hr_status_free(s);
  CHECK_EQ_INT(u8, 7);
  CHECK_EQ_INT(u16, 0x1234);
  CHECK_EQ_INT(u32, 0xdeadbeefu);
  CHECK(!hr_fb_has(&fb, &t, 3));
  CHECK(str.present && str.len == 5 && memcmp(str.data, "hello", 5) == 0);
  CHECK(v.present && v.count == 3 && v.pos % 8 == 0);
  if (v.present && v.count == 3) {
    uint64_t last;
    memcpy(&last, out.data + v.pos + 16, 8);
    CHECK(last == UINT64_MAX);
  }
  CHECK(kv.present && kv.count == 2);
  for (uint32_t i = 0; kv.present && i < kv.count; i++) {
    s = hr_fb_vector_table(&fb, &kv, i, "kid", &k);
    if (!s) s = hr_fb_u16(&fb, &k, 0, "kid.v", 0, &u16);
    CHECK(s == NULL && u16 == 100 + i);
    hr_status_free(s);
  }
  hr_strbuf_free(&out);
}

/* Parses a module from text. */
static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse("t.mlir", text, strlen(text), NULL, &m);
  if (s) printf("  parse: %s\n", hr_status_message(s));
  hr_status_free(s);
  return m;
}

/* Describes and writes `m`; the file's bytes go to `out`. */
static hr_status write_described(const hr_module *m, hr_strbuf *out) {
  hr_jaxexport *e = NULL;
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  hr_status s = hr_jaxexport_describe_module(m, NULL, &e);
  if (!s) s = hr_bc_write_module(m, HR_BC_VERSION_DEFAULT, &bc);
  if (!s) s = hr_jaxexport_write(e, (const uint8_t *)bc.data, bc.len, out);
  hr_strbuf_free(&bc);
  hr_jaxexport_free(e);
  return s;
}

TEST(described_module_reads_back) {
  hr_module *m = parse(
      "module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {\n"
      "  func.func public @main(%arg0: tensor<?x3xf32>, %arg1: tensor<i32>) -> (tensor<?x3xf32>, tensor<i32>) {\n"
      "    return %arg0, %arg1 : tensor<?x3xf32>, tensor<i32>\n"
      "  }\n"
      "}\n");
  if (!m) return;
  hr_strbuf file;
  hr_strbuf_init(&file, NULL);
  hr_status s = write_described(m, &file);
  CHECK(s == NULL);
  hr_status_free(s);
  CHECK(hr_jaxexport_sniff((const uint8_t *)file.data, file.len));
  hr_jaxexport *e = NULL;
  s = hr_jaxexport_read("written.bin", (const uint8_t *)file.data, file.len, NULL, &e);
  CHECK(s == NULL);
  if (s) printf("  %s\n", hr_status_message(s));
  hr_status_free(s);
  if (e) {
    CHECK(strcmp(e->function_name, "main") == 0);
    CHECK_EQ_INT(e->num_in_avals, 2);
    CHECK_EQ_INT(e->num_out_avals, 2);
    CHECK(e->num_in_avals == 2 && e->in_avals[0].rank == 2 && strcmp(e->in_avals[0].dims[0].text, "b") == 0 &&
          strcmp(e->in_avals[0].dims[1].text, "3") == 0 && e->in_avals[0].dtype == HR_F32);
    CHECK(e->num_in_avals == 2 && e->in_avals[1].rank == 0 && e->in_avals[1].dtype == HR_I32);
    CHECK(e->in_tree && e->in_tree->kind == HR_JAXEXPORT_TREE_TUPLE && e->in_tree->num_children == 2);
    CHECK(e->out_tree && e->out_tree->kind == HR_JAXEXPORT_TREE_TUPLE && e->out_tree->num_leaves == 2);
    CHECK(e->num_platforms == 1 && strcmp(e->platforms[0], "cpu") == 0);
    CHECK_EQ_INT(e->nr_devices, 2);
    CHECK(e->uses_global_constants);
    CHECK_EQ_INT(e->calling_convention_version, 9);
    CHECK_EQ_INT(e->num_kept_var_idx, 2);
    CHECK(e->uses_unique_tables);
    hr_module *back = NULL;
    s = hr_module_parse_bytecode("module", e->module, e->module_size, NULL, &back);
    CHECK(s == NULL && back != NULL);
    hr_status_free(s);
    hr_module_free(back);
    /* every truncation is refused */
    int accepted = 0;
    for (size_t n = 0; n < file.len; n++) {
      hr_jaxexport *t = NULL;
      hr_status r = hr_jaxexport_read("cut.bin", (const uint8_t *)file.data, n, NULL, &t);
      accepted += r == NULL;
      hr_status_free(r);
      hr_jaxexport_free(t);
    }
    CHECK_EQ_INT(accepted, 0);
  }
  hr_jaxexport_free(e);
  hr_strbuf_free(&file);
  hr_module_free(m);
}

/* One result is a leaf, as JAX's out_tree of a function returning one array. */
TEST(one_result_is_a_leaf) {
  hr_module *m = parse("func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n  return %arg0 : tensor<2xf32>\n}\n");
  if (!m) return;
  hr_jaxexport *e = NULL;
  hr_status s = hr_jaxexport_describe_module(m, NULL, &e);
  CHECK(s == NULL && e && e->out_tree && e->out_tree->kind == HR_JAXEXPORT_TREE_LEAF);
  CHECK(e && !e->uses_global_constants && e->nr_devices == 1);
  hr_status_free(s);
  hr_jaxexport_free(e);
  hr_module_free(m);
}

/* A token argument (an ordered effect's) has no aval: refused, naming it. */
TEST(token_argument_is_refused) {
  hr_module *m = parse(
      "func.func @main(%arg0: !stablehlo.token, %arg1: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  return %arg1 : tensor<2xf32>\n}\n");
  if (!m) return;
  hr_jaxexport *e = NULL;
  hr_status s = hr_jaxexport_describe_module(m, NULL, &e);
  CHECK(s != NULL && hr_status_code(s) == HR_UNIMPLEMENTED && e == NULL);
  if (s) CHECK_STR_CONTAINS(hr_status_message(s), "argument 0 is not a tensor");
  hr_status_free(s);
  hr_module_free(m);
}

int main(void) {
  RUN(builder_round_trip);
  RUN(described_module_reads_back);
  RUN(one_result_is_a_leaf);
  RUN(token_argument_is_refused);
  TEST_MAIN_END();
}

/* The TensorBundle reader (src/formats/savedmodel/bundle*.c) and the TF DataType table (tf_types.c).
 *
 * Real files (../shared/real): every variables.index of the jax2tf SavedModels and TF Serving's
 * test models opens and lists its entries; half_plus_two's variables hold 0.5 and 2.0 (its index
 * is snappy-compressed, as TF 1.x wrote them); the jax2tf object graphs decode and their nodes are
 * walked by child names; every truncation of an index and every flipped byte of an index or data
 * file is an error or a read, never a crash (the sanitizer build runs the same).
 *
 * Bundles built here (tf_build.h's LevelDB table writer, snappy encoder and bundle builder):
 * tensors of several dtypes over two data files, string tensors, an object graph, several data
 * blocks with restart points, uncompressed and snappy; files opened by prefix; the index alone;
 * and each thing the reader refuses (big-endian, a newer version, slices, variants, sizes,
 * checksums, ranges, key order, missing files, corrupt blocks and snappy streams).
 *
 * With HLORUN_WRITE_FUZZ_SEEDS=DIR set, the built bundles are also written to DIR in
 * fuzz_bundle's input form (how fuzz/corpus_bundle/ was made). When ../shared is absent the
 * real-file tests are skipped and, the others passing, the test exits 77. */
#include <glob.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/crc.h"
#include "base/file.h"
#include "base/mapping.h"
#include "formats/savedmodel/bundle.h"
#include "formats/savedmodel/tf_types.h"
#include "test.h"
#include "tf_build.h"

static char root[2048];

/* ---------------------------------------------------------------------------------------------- */
/* Bundles                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The object graph used below: root (0) with children "v" (1) and "w" (2), each a variable with
 * a VARIABLE_VALUE attribute, and "w" also reachable from "v" as "alias". */
static buf object_graph(void) {
  buf g = {0}, node = {0}, ref = {0}, attr = {0};
  pb_varint(&ref, 1, 1), pb_str(&ref, 2, "v"), pb_msg(&node, 1, &ref);
  pb_varint(&ref, 1, 2), pb_str(&ref, 2, "w"), pb_msg(&node, 1, &ref);
  pb_msg(&g, 1, &node);
  pb_varint(&ref, 1, 2), pb_str(&ref, 2, "alias"), pb_msg(&node, 1, &ref);
  pb_str(&attr, 1, "VARIABLE_VALUE"), pb_str(&attr, 2, "v"), pb_str(&attr, 3, "v/.ATTRIBUTES/VARIABLE_VALUE");
  pb_msg(&node, 2, &attr);
  pb_msg(&g, 1, &node);
  pb_str(&attr, 1, "VARIABLE_VALUE"), pb_str(&attr, 3, "w/.ATTRIBUTES/VARIABLE_VALUE");
  pb_msg(&node, 2, &attr);
  pb_msg(&g, 1, &node);
  return g;
}

/* The bundle most tests start from: floats, an int64 scalar, bf16, bools, strings, and an object
 * graph naming two of the floats, over two data files. */
static void standard_bundle(bundle_builder *bb) {
  builder_init(bb);
  static const float v[6] = {1, 2, 3, 4, 5, 6}, w[2] = {0.5f, -2};
  static const int64_t step = 1234567890123;
  static const uint16_t half[3] = {0x3f80, 0x4000, 0xc040};
  static const uint8_t flags[4] = {1, 0, 0, 1};
  add_tensor(bb, "v/.ATTRIBUTES/VARIABLE_VALUE", DT_FLOAT, 2, (int64_t[]){2, 3}, v, sizeof v, 0);
  add_tensor(bb, "w/.ATTRIBUTES/VARIABLE_VALUE", DT_FLOAT, 1, (int64_t[]){2}, w, sizeof w, 1);
  add_tensor(bb, "step", DT_INT64, 0, NULL, &step, sizeof step, 1);
  add_tensor(bb, "half", DT_BFLOAT16, 1, (int64_t[]){3}, half, sizeof half, 0);
  add_tensor(bb, "flags", DT_BOOL, 2, (int64_t[]){2, 2}, flags, sizeof flags, 0);
  add_tensor(bb, "empty", DT_FLOAT, 2, (int64_t[]){0, 7}, NULL, 0, 1);
  static char long_string[301];
  memset(long_string, 'x', 300);
  add_strings(bb, "words", 1, (int64_t[]){3}, (const char *[]){"", "ab", long_string}, 3);
  buf g = object_graph();
  char *graph = strndup((const char *)g.p, g.n); /* no NUL inside: the test graph has none */
  add_strings(bb, "_CHECKPOINTABLE_OBJECT_GRAPH", 0, NULL, (const char *[]){graph}, 1);
  free(graph);
  free(g.p);
}

/* Reads the built bundle from memory; only the status is kept (a bundle read is closed). */
static hr_status read_built(const bundle_builder *bb, const table_opts *o) {
  buf index = build_index(bb, o);
  const void *shards[2] = {bb->shards[0].p, bb->shards[1].p};
  size_t lens[2] = {bb->shards[0].n, bb->shards[1].n};
  hr_bundle *b = NULL;
  hr_status s = hr_bundle_read_index("built/variables", index.p, index.n, shards, lens, 2, NULL, &b);
  hr_bundle_close(b);
  free(index.p);
  return s;
}

/* Checks that the built bundle is refused with a message holding `needle`. */
static void expect_refused(const bundle_builder *bb, const table_opts *o, const char *needle) {
  hr_status s = read_built(bb, o);
  CHECK(s != NULL);
  if (s) printf("  refused: %s\n", hr_status_message(s));
  CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", needle);
  hr_status_free(s);
}

/* Writes `index` and the data files as one fuzz_bundle input (each data file after the marker) to
 * $HLORUN_WRITE_FUZZ_SEEDS/`name`, when that is set. */
static void write_seed(const char *name, const buf *index, const buf *shards, int n_shards) {
  const char *dir = getenv("HLORUN_WRITE_FUZZ_SEEDS");
  if (!dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  static const char marker[] = "BUNDLE-DATA-FILE:";
  const void *parts[5] = {index->p};
  size_t lens[5] = {index->n};
  for (int i = 0; i < n_shards; i++) {
    parts[1 + 2 * i] = marker, lens[1 + 2 * i] = strlen(marker);
    parts[2 + 2 * i] = shards[i].p, lens[2 + 2 * i] = shards[i].n;
  }
  CHECK_OK(hr_write_file_parts(path, parts, lens, 1 + 2 * n_shards));
}

/* ---------------------------------------------------------------------------------------------- */
/* Built bundles                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* Checks every entry of the standard bundle as read. */
static void check_standard(const hr_bundle *b) {
  CHECK_EQ_INT(hr_bundle_count(b), 8);
  const hr_bundle_entry *v = hr_bundle_find(b, "v/.ATTRIBUTES/VARIABLE_VALUE");
  CHECK(v && v->dtype == HR_F32 && v->shape.rank == 2 && v->shape.dims[1] == 3 && v->nbytes == 24);
  if (v) {
    float x[6];
    memcpy(x, v->data, sizeof x);
    CHECK(x[0] == 1 && x[5] == 6);
  }
  const hr_bundle_entry *step = hr_bundle_find(b, "step");
  CHECK(step && step->dtype == HR_I64 && step->shape.rank == 0 && step->shard == 1 && step->num_elements == 1);
  if (step) {
    int64_t x;
    memcpy(&x, step->data, 8);
    CHECK(x == 1234567890123);
  }
  const hr_bundle_entry *flags = hr_bundle_find(b, "flags"), *half = hr_bundle_find(b, "half");
  CHECK(flags && flags->dtype == HR_I1 && flags->tf_dtype == DT_BOOL && half && half->dtype == HR_BF16);
  const hr_bundle_entry *empty = hr_bundle_find(b, "empty");
  CHECK(empty && empty->num_elements == 0 && empty->nbytes == 0 && empty->data == NULL);
  const hr_bundle_entry *words = hr_bundle_find(b, "words");
  CHECK(words && words->tf_dtype == DT_STRING && words->dtype == HR_DTYPE_INVALID && words->strings);
  if (words && words->strings) {
    CHECK(words->strings[0].len == 0 && words->strings[1].len == 2 && memcmp(words->strings[1].data, "ab", 2) == 0);
    CHECK(words->strings[2].len == 300 && words->strings[2].data[299] == 'x');
  }
  CHECK(hr_bundle_find(b, "") == NULL && hr_bundle_find(b, "zzz") == NULL && hr_bundle_find(b, "ste") == NULL);
  for (int i = 1; i < hr_bundle_count(b); i++) CHECK(strcmp(hr_bundle_at(b, i - 1)->key, hr_bundle_at(b, i)->key) < 0);
  CHECK(hr_bundle_at(b, -1) == NULL && hr_bundle_at(b, hr_bundle_count(b)) == NULL);
  /* the object graph, walked by child names */
  CHECK_EQ_INT(hr_bundle_object_count(b), 3);
  int vn = hr_bundle_object_child(b, 0, "v"), wn = hr_bundle_object_child(b, 0, "w");
  CHECK_EQ_INT(vn, 1);
  CHECK_EQ_INT(hr_bundle_object_child(b, vn, "alias"), wn);
  CHECK_EQ_INT(hr_bundle_object_child(b, 0, "x"), -1);
  CHECK_EQ_INT(hr_bundle_object_child(b, 7, "v"), -1);
  const char *wkey = hr_bundle_object_key(b, wn, "VARIABLE_VALUE");
  CHECK(wkey && strcmp(wkey, "w/.ATTRIBUTES/VARIABLE_VALUE") == 0);
  const hr_bundle_entry *w = wkey ? hr_bundle_find(b, wkey) : NULL;
  if (w) {
    float x[2];
    memcpy(x, w->data, sizeof x);
    CHECK(x[0] == 0.5f && x[1] == -2);
  }
  CHECK(hr_bundle_object_key(b, 0, "VARIABLE_VALUE") == NULL && hr_bundle_object_key(b, -1, "VARIABLE_VALUE") == NULL);
}

/* The standard bundle reads back in every table layout: one block or many, restart points every
 * entry or every few, uncompressed or snappy. */
TEST(built_bundles_read_back) {
  bundle_builder bb;
  standard_bundle(&bb);
  static const table_opts layouts[] = {{0, 0, false}, {2, 1, false}, {3, 2, false}, {0, 0, true}, {1, 1, true}, {4, 3, true}};
  static const char *const names[] = {"one_block", "blocks_of_2", "blocks_of_3", "snappy", "snappy_blocks_of_1", "snappy_blocks_of_4"};
  for (int k = 0; k < 6; k++) {
    buf index = build_index(&bb, &layouts[k]);
    const void *shards[2] = {bb.shards[0].p, bb.shards[1].p};
    size_t lens[2] = {bb.shards[0].n, bb.shards[1].n};
    hr_bundle *b = NULL;
    CHECK_OK(hr_bundle_read_index("built/variables", index.p, index.n, shards, lens, 2, NULL, &b));
    if (b) check_standard(b);
    hr_bundle_close(b);
    /* the index alone: the entries without their bytes, no object graph */
    CHECK_OK(hr_bundle_read_index("built/variables", index.p, index.n, NULL, NULL, 0, NULL, &b));
    if (b) {
      CHECK_EQ_INT(hr_bundle_count(b), 8);
      CHECK(hr_bundle_find(b, "step")->data == NULL && hr_bundle_find(b, "words")->strings == NULL);
      CHECK_EQ_INT(hr_bundle_object_count(b), 0);
    }
    hr_bundle_close(b);
    char seed[64];
    snprintf(seed, sizeof seed, "built_%s", names[k]);
    if (k == 0 || k == 4) write_seed(seed, &index, bb.shards, 2);
    if (k == 2) write_seed("built_index_alone", &index, NULL, 0);
    free(index.p);
  }
  builder_free(&bb);
}

/* The same bundle as files: opened by prefix, its data files mapped; a missing data file is named. */
TEST(built_bundle_files) {
  bundle_builder bb;
  standard_bundle(&bb);
  char dir[] = "/tmp/hlorun_bundleXXXXXX", prefix[128], path[160];
  CHECK(mkdtemp(dir) != NULL);
  snprintf(prefix, sizeof prefix, "%s/variables", dir);
  buf index = build_index(&bb, &(table_opts){2, 2, true});
  snprintf(path, sizeof path, "%s.index", prefix);
  CHECK_OK(hr_write_file(path, index.p, index.n));
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s.data-%05d-of-00002", prefix, i);
    CHECK_OK(hr_write_file(path, bb.shards[i].p, bb.shards[i].n));
  }
  hr_bundle *b = NULL;
  CHECK_OK(hr_bundle_open(prefix, NULL, &b));
  if (b) check_standard(b);
  hr_bundle_close(b);
  unlink(path); /* data file 1 */
  hr_status s = hr_bundle_open(prefix, NULL, &b);
  CHECK(s && hr_status_code(s) == HR_NOT_FOUND && b == NULL);
  CHECK_STR_CONTAINS(hr_status_message(s), "variables.data-00001-of-00002");
  hr_status_free(s);
  snprintf(path, sizeof path, "%s.data-00000-of-00002", prefix);
  unlink(path);
  snprintf(path, sizeof path, "%s.index", prefix);
  unlink(path);
  s = hr_bundle_open(prefix, NULL, &b);
  CHECK(s && b == NULL);
  hr_status_free(s);
  rmdir(dir);
  free(index.p);
  builder_free(&bb);
}

/* What the header may say: big-endian and newer versions are refused. */
TEST(built_headers_refused) {
  bundle_builder bb;
  table_opts one = {0};
  standard_bundle(&bb);
  set_header(&bb, 2, 1, 0);
  expect_refused(&bb, &one, "big-endian");
  set_header(&bb, 2, 0, 2);
  expect_refused(&bb, &one, "needs a reader of version 2");
  set_header(&bb, 1, 0, 0);
  expect_refused(&bb, &one, "data file 1, the header says 1");
  set_header(&bb, 0, 0, 0);
  expect_refused(&bb, &one, "0 data files");
  set_header(&bb, 100000, 0, 0);
  expect_refused(&bb, &one, "more than 4096");
  builder_free(&bb);
  /* no header: the first key is another */
  builder_init(&bb);
  const char *keys[1] = {"a"};
  buf values[1] = {entry_proto(DT_FLOAT, 0, NULL, 0, 0, 4)};
  buf index = build_table(keys, values, 1, &one);
  hr_bundle *b = NULL;
  hr_status s = hr_bundle_read_index("nohdr", index.p, index.n, NULL, NULL, 0, NULL, &b);
  CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", "not the header's");
  hr_status_free(s);
  free(index.p);
  free(values[0].p);
  builder_free(&bb);
}

/* What an entry may say: each refusal names the key. */
TEST(built_entries_refused) {
  table_opts one = {0};
  static const float x[2] = {1, 2};
  bundle_builder bb;
  /* slices */
  standard_bundle(&bb);
  buf e = entry_proto(DT_FLOAT, 1, (int64_t[]){4}, 0, 0, 0), slice = {0};
  pb_msg(&e, 7, &slice);
  add_raw(&bb, "part", e);
  expect_refused(&bb, &one, "key \"part\" is a partitioned variable");
  builder_free(&bb);
  /* variant */
  standard_bundle(&bb);
  add_raw(&bb, "iter", entry_proto(DT_VARIANT, 0, NULL, 0, 0, 10));
  expect_refused(&bb, &one, "key \"iter\": DT_VARIANT tensors are not read");
  builder_free(&bb);
  /* an unknown dtype */
  standard_bundle(&bb);
  add_raw(&bb, "odd", entry_proto(99, 0, NULL, 0, 0, 10));
  expect_refused(&bb, &one, "key \"odd\": dtype 99");
  builder_free(&bb);
  /* a size other than the shape's */
  standard_bundle(&bb);
  add_raw(&bb, "short", entry_proto(DT_FLOAT, 1, (int64_t[]){3}, 0, 0, 8));
  expect_refused(&bb, &one, "key \"short\": 8 bytes stored, 3 DT_FLOAT elements take 12");
  builder_free(&bb);
  /* bytes outside the data file */
  standard_bundle(&bb);
  add_raw(&bb, "far", entry_proto(DT_FLOAT, 1, (int64_t[]){2}, 1, 1000, 8));
  expect_refused(&bb, &one, "key \"far\": bytes [1000, 1008) lie outside");
  builder_free(&bb);
  /* a wrong checksum */
  standard_bundle(&bb);
  buf bad = entry_proto(DT_FLOAT, 1, (int64_t[]){2}, 0, bb.shards[0].n, 8);
  pb_fixed32(&bad, 6, mask(hr_crc32c(0, x, 8)) ^ 1);
  put(&bb.shards[0], x, 8);
  add_raw(&bb, "crc", bad);
  expect_refused(&bb, &one, "key \"crc\": the checksum of its 8 bytes does not match");
  builder_free(&bb);
  /* a data file the bundle was not given */
  standard_bundle(&bb);
  set_header(&bb, 3, 0, 0);
  add_raw(&bb, "third", entry_proto(DT_FLOAT, 0, NULL, 2, 0, 4));
  expect_refused(&bb, &one, "data file 2 of 3 was not given");
  builder_free(&bb);
  /* an unknown rank, a negative offset */
  standard_bundle(&bb);
  buf unknown = {0}, shape = {0};
  pb_varint(&unknown, 1, DT_FLOAT);
  pb_varint(&shape, 3, 1);
  pb_msg(&unknown, 2, &shape);
  add_raw(&bb, "unknown", unknown);
  expect_refused(&bb, &one, "key \"unknown\": a shape of unknown rank");
  builder_free(&bb);
  standard_bundle(&bb);
  buf neg = {0};
  pb_varint(&neg, 1, DT_FLOAT);
  pb_varint(&neg, 4, (uint64_t)-5);
  add_raw(&bb, "neg", neg);
  expect_refused(&bb, &one, "key \"neg\": offset -5");
  builder_free(&bb);
}

/* String tensors: the lengths' own checksum and the total are checked. */
TEST(built_strings_refused) {
  table_opts one = {0};
  bundle_builder bb;
  standard_bundle(&bb);
  /* flip a byte of each part of "words" (lengths 0, 2, 300, their checksum, the strings) */
  buf index = build_index(&bb, &one);
  hr_bundle *b = NULL;
  const void *shards[2] = {bb.shards[0].p, bb.shards[1].p};
  size_t lens[2] = {bb.shards[0].n, bb.shards[1].n};
  CHECK_OK(hr_bundle_read_index("s", index.p, index.n, shards, lens, 2, NULL, &b));
  const hr_bundle_entry *w = b ? hr_bundle_find(b, "words") : NULL;
  size_t at = w ? (size_t)w->offset : 0;
  hr_bundle_close(b);
  static const struct {
    size_t delta;
    uint8_t flip;
    const char *needle;
  } flips[] = {{1, 1, "the string lengths' checksum does not match"}, {5, 1, "the string lengths' checksum does not match"},
               {10, 1, "key \"words\": the checksum of its 310 bytes does not match"},
               {0, 0x40, "the string lengths run past its bytes"}};
  for (int k = 0; k < 4; k++) {
    uint8_t *p = bb.shards[0].p + at + flips[k].delta, saved = *p;
    *p ^= flips[k].flip;
    hr_status s = hr_bundle_read_index("s", index.p, index.n, shards, lens, 2, NULL, &b);
    CHECK(s != NULL);
    if (s) printf("  refused: %s\n", hr_status_message(s));
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", flips[k].needle);
    hr_status_free(s);
    *p = saved;
  }
  free(index.p);
  builder_free(&bb);
}

/* Checks that the table `t` (freed) is refused with a message holding `needle`. */
static void expect_table_refused(buf *t, const char *needle) {
  hr_bundle *b = NULL;
  hr_status s = hr_bundle_read_index("table", t->p, t->n, NULL, NULL, 0, NULL, &b);
  CHECK(s != NULL && b == NULL);
  if (s) printf("  refused: %s\n", hr_status_message(s));
  CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", needle);
  hr_status_free(s);
  free(t->p);
  *t = (buf){0};
}

/* A block's entry: shared and own key bytes, and the value. */
static void put_entry(buf *b, size_t shared, const char *own, const buf *value) {
  put_varint(b, shared);
  put_varint(b, strlen(own));
  put_varint(b, value->n);
  put(b, own, strlen(own));
  put(b, value->p, value->n);
}

/* Damaged tables: keys out of order or repeated, corrupt blocks (with right checksums), wrong
 * checksums, unknown compressions, corrupt snappy streams, a cut footer. */
TEST(built_tables_refused) {
  table_opts one = {0};
  bundle_builder bb;
  builder_init(&bb);
  const buf *hdr = &bb.header;
  const char *keys[3] = {"", "b", "a"};
  buf values[3] = {bb.header, entry_proto(DT_FLOAT, 0, NULL, 0, 0, 4), entry_proto(DT_FLOAT, 0, NULL, 0, 0, 4)};
  buf t = build_table(keys, values, 3, &one);
  expect_table_refused(&t, "the key \"a\" does not sort after \"b\"");
  keys[2] = "b";
  t = build_table(keys, values, 3, &one);
  expect_table_refused(&t, "the key \"b\" does not sort after \"b\"");
  /* a flipped byte in a block: its checksum */
  keys[2] = "c";
  t = build_table(keys, values, 3, &one);
  t.p[3] ^= 1;
  expect_table_refused(&t, "the block's checksum does not match");
  /* the footer */
  t = build_table(keys, values, 3, &one);
  t.p[t.n - 1] ^= 1;
  expect_table_refused(&t, "not a LevelDB table");
  t = build_table(keys, values, 3, &one);
  t.n = 47;
  expect_table_refused(&t, "shorter than a LevelDB table's 48-byte footer");
  /* blocks that decode wrong, with checksums that match */
  buf blk = {0};
  put(&blk, "\1\2\3", 3);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "a block of 3 bytes has no restart count");
  put_le32(&blk, 100);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "100 restart points do not fit");
  put_entry(&blk, 0, "", hdr), put_le32(&blk, 5), put_le32(&blk, 1);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "do not start at its first restart point");
  put_entry(&blk, 0, "", hdr), put_entry(&blk, 2, "x", hdr), put_le32(&blk, 0), put_le32(&blk, 1);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "an entry shares 2 bytes of a 0-byte key");
  put_entry(&blk, 0, "", hdr), put_entry(&blk, 0, "x", hdr), put_le32(&blk, 0), put_le32(&blk, 7), put_le32(&blk, 2);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "restart point 1 (7) is not where an entry starts");
  put_entry(&blk, 0, "", hdr), put_entry(&blk, 0, "a", &values[1]), put_entry(&blk, 1, "b", &values[1]);
  put_le32(&blk, 0), put_le32(&blk, (uint32_t)(3 + hdr->n + 4 + values[1].n)), put_le32(&blk, 2);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "the entry at restart point 1 shares key bytes");
  put_entry(&blk, 0, "", hdr), put_varint(&blk, 0), put_varint(&blk, 1), put_varint(&blk, 50), put_le32(&blk, 0), put_le32(&blk, 1);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "runs past the block's entries");
  put_entry(&blk, 0, "", hdr), put_varint(&blk, 0), put_varint(&blk, 2), put_varint(&blk, 0);
  put(&blk, "a\0", 2), put_le32(&blk, 0), put_le32(&blk, 1);
  t = raw_table(&blk, 0);
  expect_table_refused(&t, "a key holds a NUL byte");
  put_entry(&blk, 0, "", hdr), put_le32(&blk, 0), put_le32(&blk, 1);
  t = raw_table(&blk, 2);
  expect_table_refused(&t, "block compression 2 (0 is none, 1 snappy)");
  /* snappy streams */
  put_varint(&blk, 10), put_byte(&blk, 2 << 2), put(&blk, "abc", 3);
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "decodes to 3 bytes, its header says 10");
  put_varint(&blk, 10), put_byte(&blk, 1 << 2), put(&blk, "ab", 2), put_byte(&blk, 1), put_byte(&blk, 5);
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "a snappy copy from 5 bytes back, 2 are decoded");
  put_varint(&blk, 10), put_byte(&blk, 1 << 2), put(&blk, "ab", 2), put_byte(&blk, 2 | 20 << 2), put_byte(&blk, 1), put_byte(&blk, 0);
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "a snappy copy runs past the decoded length 10");
  put_varint(&blk, 10), put_byte(&blk, 9 << 2), put(&blk, "abc", 3);
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "a snappy literal of 10 bytes is cut short");
  put_varint(&blk, 2), put_byte(&blk, 2 << 2), put(&blk, "abc", 3);
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "a snappy literal runs past the decoded length 2");
  put_varint(&blk, 10), put_byte(&blk, 62 << 2), put_byte(&blk, 1);
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "a snappy element is cut short");
  put_varint(&blk, (uint64_t)1 << 31);
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "decodes to 2147483648 bytes, more than");
  t = raw_table(&blk, 1);
  expect_table_refused(&t, "an empty snappy block");
  free(values[1].p);
  free(values[2].p);
  builder_free(&bb);
}

/* ---------------------------------------------------------------------------------------------- */
/* Real files                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

static bool real_skipped;

/* The real bundles' prefixes (".index" cut off): jax2tf SavedModels, then TF Serving's models. */
static int real_prefixes(glob_t *g) {
  char pattern[2][2400];
  snprintf(pattern[0], sizeof pattern[0], "%s/../shared/real/jax2tf-savedmodel/*/saved_model/variables/variables.index", root);
  snprintf(pattern[1], sizeof pattern[1], "%s/../shared/real/tfserving/*/model/*/variables/variables.index", root);
  memset(g, 0, sizeof *g);
  glob(pattern[0], 0, NULL, g);
  glob(pattern[1], GLOB_APPEND, NULL, g);
  for (size_t i = 0; i < g->gl_pathc; i++) g->gl_pathv[i][strlen(g->gl_pathv[i]) - strlen(".index")] = 0;
  if (g->gl_pathc == 0) real_skipped = true;
  return (int)g->gl_pathc;
}

/* The case's name: the path below shared/real. */
static const char *case_name(const char *prefix) {
  const char *p = strstr(prefix, "shared/real/");
  return p ? p + strlen("shared/real/") : prefix;
}

/* Prints one entry: key, dtype, shape, bytes, and the first values of small float tensors. */
static void print_entry(const hr_bundle_entry *e) {
  printf("    %-40s %-10s [", e->key, hr_tf_dtype_name(e->tf_dtype));
  for (int d = 0; d < e->shape.rank; d++) printf("%s%lld", d ? "," : "", (long long)e->shape.dims[d]);
  printf("] %zu bytes", e->nbytes);
  if (e->dtype == HR_F32 && e->num_elements <= 4) {
    for (int64_t i = 0; i < e->num_elements; i++) {
      float x;
      memcpy(&x, (const char *)e->data + 4 * i, 4);
      printf(" %g", x);
    }
  }
  if (e->tf_dtype == HR_TF_DT_STRING && e->num_elements == 1) printf(" (a string of %zu bytes)", e->strings[0].len);
  printf("\n");
}

/* Every real index opens: its entries are listed, its object graph walked from the root. */
TEST(real_bundles_open) {
  glob_t g;
  int n = real_prefixes(&g), jax2tf = 0;
  for (int i = 0; i < n; i++) {
    const char *prefix = g.gl_pathv[i];
    hr_bundle *b = NULL;
    CHECK_OK(hr_bundle_open(prefix, NULL, &b));
    if (!b) continue;
    int objects = hr_bundle_object_count(b);
    printf("  %s: %d entries, %d object graph nodes\n", case_name(prefix), hr_bundle_count(b), objects);
    for (int k = 0; k < hr_bundle_count(b); k++) print_entry(hr_bundle_at(b, k));
    int variables = 0;
    for (int node = 0; node < objects; node++) {
      const char *key = hr_bundle_object_key(b, node, "VARIABLE_VALUE");
      if (!key) continue;
      printf("    node %d -> %s\n", node, key);
      CHECK(hr_bundle_find(b, key) != NULL);
      variables++;
    }
    if (strstr(prefix, "jax2tf-savedmodel")) {
      jax2tf++;
      CHECK(objects > 0 && hr_bundle_find(b, "_CHECKPOINTABLE_OBJECT_GRAPH") != NULL);
      int sig = hr_bundle_object_child(b, 0, "signatures");
      printf("    root -> \"signatures\": node %d; %d variables\n", sig, variables);
      CHECK(sig > 0);
    }
    hr_bundle_close(b);
  }
  printf("  %d real bundles (%d jax2tf)\n", n, jax2tf);
  CHECK(n == 0 || (n >= 10 && jax2tf == 2));
  globfree(&g);
}

/* Reads a variable of a real model: a float scalar. */
static float real_scalar(const hr_bundle *b, const char *key) {
  const hr_bundle_entry *e = hr_bundle_find(b, key);
  float x = -1;
  CHECK(e && e->dtype == HR_F32 && e->num_elements == 1 && e->nbytes == 4);
  if (e && e->nbytes == 4) memcpy(&x, e->data, 4);
  return x;
}

/* half_plus_two computes 0.5 * x + 2: a = 0.5, b = 2 (its index is snappy-compressed, written by
 * TF 1.x); half_plus_three's b is 3. */
TEST(real_half_plus_two_values) {
  static const struct {
    const char *model;
    float b;
  } cases[] = {{"saved_model_half_plus_two_cpu", 2}, {"saved_model_half_plus_two_gpu", 2}, {"saved_model_half_plus_three", 3}};
  for (int k = 0; k < 3; k++) {
    char prefix[2400];
    snprintf(prefix, sizeof prefix, "%s/../shared/real/tfserving/%s/model/00000123/variables/variables", root, cases[k].model);
    hr_bundle *b = NULL;
    hr_status s = hr_bundle_open(prefix, NULL, &b);
    if (s && hr_status_code(s) == HR_NOT_FOUND && real_skipped) {
      hr_status_free(s);
      return;
    }
    CHECK_OK(s);
    if (!b) continue;
    float a = real_scalar(b, "a"), bv = real_scalar(b, "b");
    printf("  %s: a = %g, b = %g\n", cases[k].model, a, bv);
    CHECK(a == 0.5f && bv == cases[k].b);
    hr_bundle_close(b);
  }
}

/* A heap copy of exactly `n` bytes of `p` (so that the sanitizer sees any read past them). */
static uint8_t *exact_copy(const uint8_t *p, size_t n) {
  uint8_t *c = malloc(n ? n : 1);
  if (n) memcpy(c, p, n);
  return c;
}

/* Reads `index` with data file `data` from memory; true when it read. Touches every entry's bytes
 * and strings, so that the sanitizer sees a pointer outside them. */
static bool read_copy(const char *name, const uint8_t *index, size_t len, const uint8_t *data, size_t data_len) {
  const void *shards[1] = {data};
  hr_bundle *b = NULL;
  hr_status s = hr_bundle_read_index(name, index, len, shards, &data_len, 1, NULL, &b);
  unsigned sum = 0;
  for (int i = 0; b && i < hr_bundle_count(b); i++) {
    const hr_bundle_entry *e = hr_bundle_at(b, i);
    for (size_t k = 0; k < e->nbytes; k++) sum += ((const uint8_t *)e->data)[k];
    for (int64_t k = 0; e->strings && k < e->num_elements; k++)
      if (e->strings[k].len) sum += (uint8_t)e->strings[k].data[e->strings[k].len - 1];
  }
  (void)sum;
  hr_bundle_close(b);
  hr_status_free(s);
  return s == NULL;
}

/* Reads a varint at *p. */
static uint64_t get_varint(const uint8_t **p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    uint8_t b = *(*p)++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
}

/* The index block's handle in table `t`'s footer. */
static void index_handle(const uint8_t *t, size_t len, uint64_t *offset, uint64_t *size) {
  const uint8_t *p = t + len - 48;
  get_varint(&p), get_varint(&p);
  *offset = get_varint(&p);
  *size = get_varint(&p);
}

/* Whether a read of `copy`, table `t` with byte `at` flipped, is right: the byte is one no reader
 * looks at (the metaindex block: bundles have no filter there; its handle; the footer's padding),
 * or the footer still says the same index block (a varint's end flipped into a longer encoding
 * of the same value). */
static bool flip_unseen(const uint8_t *t, const uint8_t *copy, size_t len, size_t at) {
  const uint8_t *p = t + len - 48;
  uint64_t meta = get_varint(&p), meta_size = get_varint(&p), o1, s1, o2, s2;
  index_handle(t, len, &o1, &s1);
  index_handle(copy, len, &o2, &s2);
  return (at >= meta && at < meta + meta_size + 5) || (at >= len - 48 && o1 == o2 && s1 == s2);
}

/* Every prefix of a real index is refused; flipped bytes of the index and of the data file are
 * errors, or reads only where no reader looks (the metaindex, the footer's padding); never
 * crashes. */
TEST(real_bundles_damaged) {
  glob_t g;
  int n = real_prefixes(&g);
  static const uint8_t masks[] = {0x01, 0x80, 0xff};
  for (int i = 0; i < n; i++) {
    char path[2500];
    char *index = NULL, *data = NULL;
    size_t len = 0, data_len = 0;
    snprintf(path, sizeof path, "%s.index", g.gl_pathv[i]);
    CHECK_OK(hr_read_file(path, NULL, 1 << 20, &index, &len));
    snprintf(path, sizeof path, "%s.data-00000-of-00001", g.gl_pathv[i]);
    CHECK_OK(hr_read_file(path, NULL, 1 << 20, &data, &data_len));
    if (!index || !data) continue;
    const uint8_t *ix = (const uint8_t *)index, *dx = (const uint8_t *)data;
    CHECK(read_copy("real", ix, len, dx, data_len));
    int cut_read = 0, index_read = 0, data_read = 0;
    for (size_t cut = 0; cut < len; cut++) {
      uint8_t *c = exact_copy(ix, cut);
      cut_read += read_copy("cut", c, cut, dx, data_len);
      free(c);
    }
    for (size_t at = 0; at < len; at++)
      for (int k = 0; k < 3; k++) {
        uint8_t *c = exact_copy(ix, len);
        c[at] ^= masks[k];
        bool read = read_copy("flipped", c, len, dx, data_len);
        index_read += read;
        CHECK(!read || flip_unseen(ix, c, len, at));
        free(c);
      }
    for (size_t at = 0; at < data_len; at++)
      for (int k = 0; k < 3; k++) {
        uint8_t *c = exact_copy(dx, data_len);
        c[at] ^= masks[k];
        data_read += read_copy("flipped data", ix, len, c, data_len);
        free(c);
      }
    printf("  %s: %zu cuts, %d read; %zu index flips, %d read; %zu data flips, %d read\n", case_name(g.gl_pathv[i]), len, cut_read,
           3 * len, index_read, 3 * data_len, data_read);
    CHECK_EQ_INT(cut_read, 0);
    CHECK_EQ_INT(data_read, 0); /* TF writes tensors back to back: every byte is covered */
    hr_default_allocator()->free(NULL, index);
    hr_default_allocator()->free(NULL, data);
  }
  globfree(&g);
}

TEST(tf_types) {
  for (int t = HR_DTYPE_INVALID + 1; t < HR_DTYPE_COUNT; t++) {
    int tf = hr_tf_dtype_from_hr((hr_dtype)t);
    hr_dtype back;
    if (tf == 0) continue;
    CHECK(hr_tf_dtype_to_hr(tf, &back) && back == (hr_dtype)t);
    CHECK_EQ_INT(hr_tf_dtype_size(tf), hr_dtype_size((hr_dtype)t));
  }
  hr_dtype d;
  CHECK(hr_tf_dtype_from_hr(HR_F32) == 1 && strcmp(hr_tf_dtype_name(1), "DT_FLOAT") == 0);
  CHECK(hr_tf_dtype_from_hr(HR_I1) == 10 && hr_tf_dtype_from_hr(HR_BF16) == 14 && hr_tf_dtype_from_hr(HR_F16) == 19);
  CHECK(hr_tf_dtype_from_hr(HR_U32) == 22 && hr_tf_dtype_from_hr(HR_F8E4M3FN) == 25 && hr_tf_dtype_from_hr(HR_I4) == 29);
  CHECK(hr_tf_dtype_from_hr(HR_TF32) == 0 && hr_tf_dtype_from_hr(HR_INDEX) == 0 && hr_tf_dtype_from_hr(HR_DTYPE_INVALID) == 0);
  CHECK(!hr_tf_dtype_to_hr(HR_TF_DT_STRING, &d) && d == HR_DTYPE_INVALID && !hr_tf_dtype_to_hr(101, &d) && !hr_tf_dtype_to_hr(-1, &d));
  CHECK(strcmp(hr_tf_dtype_name(HR_TF_DT_RESOURCE), "DT_RESOURCE") == 0 && hr_tf_dtype_name(34) == NULL && hr_tf_dtype_name(101) == NULL);
  CHECK(hr_tf_dtype_size(HR_TF_DT_STRING) == 0 && hr_tf_dtype_size(13) == 4 && hr_tf_dtype_size(18) == 16);
}

int main(void) {
  const char *src = getenv("HLORUN_SOURCE_DIR");
  snprintf(root, sizeof root, "%s", src ? src : ".");
  RUN(tf_types);
  RUN(built_bundles_read_back);
  RUN(built_bundle_files);
  RUN(built_headers_refused);
  RUN(built_entries_refused);
  RUN(built_strings_refused);
  RUN(built_tables_refused);
  RUN(real_bundles_open);
  RUN(real_half_plus_two_values);
  RUN(real_bundles_damaged);
  if (real_skipped && !tests_failed_) {
    printf("%d passed, real files absent: skipped (77)\n", tests_passed_);
    return 77;
  }
  TEST_MAIN_END();
}

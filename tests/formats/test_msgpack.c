/* Tests for the legacy Flax/Orbax msgpack checkpoint reader (src/formats/orbax/msgpack.c): every
 * leaf kind flax.serialization writes (ndarray, npscalar and complex extensions, chunked arrays,
 * Python scalars, placeholders) in file order with dotted paths, and hostile inputs — truncations
 * at every byte, bit flips, lying lengths and counts, deep nesting — refused with a clear error. */
#include "formats/orbax/msgpack.h"
#include "test.h"

/* A checkpoint written as flax.serialization.msgpack_serialize writes the tree
 * {w: f32[2,2], n: {i: 5, f: 0.5}, p: "PLACEHOLDER://w", c: 1+2j, l: [np.int32(7), True],
 *  k: chunked f32[4] in two chunks}. */
static const unsigned char tree[] = {
    0x86, 0xa1, 0x77, 0xc7, 0x1e, 0x01, 0x93, 0x92, 0x02, 0x02, 0xa7, 0x66, 0x6c, 0x6f, 0x61, 0x74,
    0x33, 0x32, 0xc4, 0x10, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40,
    0x00, 0x00, 0x80, 0x40, 0xa1, 0x6e, 0x82, 0xa1, 0x69, 0x05, 0xa1, 0x66, 0xcb, 0x3f, 0xe0, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0xa1, 0x70, 0xaf, 0x50, 0x4c, 0x41, 0x43, 0x45, 0x48, 0x4f, 0x4c,
    0x44, 0x45, 0x52, 0x3a, 0x2f, 0x2f, 0x77, 0xa1, 0x63, 0xc7, 0x0b, 0x02, 0x92, 0xca, 0x3f, 0x80,
    0x00, 0x00, 0xca, 0x40, 0x00, 0x00, 0x00, 0xa1, 0x6c, 0x92, 0xc7, 0x0e, 0x03, 0x93, 0x90, 0xa5,
    0x69, 0x6e, 0x74, 0x33, 0x32, 0xc4, 0x04, 0x07, 0x00, 0x00, 0x00, 0xc3, 0xa1, 0x6b, 0x83, 0xb9,
    0x5f, 0x5f, 0x6d, 0x73, 0x67, 0x70, 0x61, 0x63, 0x6b, 0x5f, 0x63, 0x68, 0x75, 0x6e, 0x6b, 0x65,
    0x64, 0x5f, 0x61, 0x72, 0x72, 0x61, 0x79, 0x5f, 0x5f, 0xc3, 0xa5, 0x73, 0x68, 0x61, 0x70, 0x65,
    0x91, 0x04, 0xa6, 0x63, 0x68, 0x75, 0x6e, 0x6b, 0x73, 0x82, 0xa1, 0x30, 0xc7, 0x15, 0x01, 0x93,
    0x91, 0x02, 0xa7, 0x66, 0x6c, 0x6f, 0x61, 0x74, 0x33, 0x32, 0xc4, 0x08, 0x00, 0x00, 0x80, 0x3f,
    0x00, 0x00, 0x00, 0x40, 0xa1, 0x31, 0xc7, 0x15, 0x01, 0x93, 0x91, 0x02, 0xa7, 0x66, 0x6c, 0x6f,
    0x61, 0x74, 0x33, 0x32, 0xc4, 0x08, 0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x80, 0x40,
};

/* What the callback saw. */
typedef struct seen {
  int n;
  char paths[16][64];
  hr_tensor *tensors[16];
  char placeholders[16][64];
} seen;

static hr_status record(void *ctx, const char *path, hr_tensor *t, const char *placeholder) {
  seen *s = ctx;
  if (s->n == 16) {
    hr_tensor_free(t);
    return hr_error(HR_INTERNAL, "too many leaves");
  }
  snprintf(s->paths[s->n], sizeof s->paths[0], "%s", path);
  s->tensors[s->n] = t;
  snprintf(s->placeholders[s->n], sizeof s->placeholders[0], "%s", placeholder ? placeholder : "");
  s->n++;
  return NULL;
}

static void seen_free(seen *s) {
  for (int i = 0; i < s->n; i++) hr_tensor_free(s->tensors[i]);
  s->n = 0;
}

static hr_status read_tree(const unsigned char *data, size_t len, seen *s) {
  memset(s, 0, sizeof *s);
  return hr_msgpack_read_checkpoint("ckpt/checkpoint", data, len, NULL, 1 << 20, record, s);
}

TEST(every_leaf_kind_in_file_order) {
  seen s;
  CHECK_OK(read_tree(tree, sizeof tree, &s));
  CHECK_EQ_INT(s.n, 8);
  const char *paths[] = {"w", "n.i", "n.f", "p", "c", "l.0", "l.1", "k"};
  for (int i = 0; i < 8 && i < s.n; i++) CHECK(strcmp(s.paths[i], paths[i]) == 0);
  if (s.n == 8) {
    hr_tensor *w = s.tensors[0];
    CHECK(w && w->dtype == HR_F32 && w->shape.rank == 2 && w->shape.dims[1] == 2 && ((float *)w->data)[3] == 4.0f);
    CHECK(s.tensors[1] && s.tensors[1]->dtype == HR_I64 && *(int64_t *)s.tensors[1]->data == 5);
    CHECK(s.tensors[2] && s.tensors[2]->dtype == HR_F64 && *(double *)s.tensors[2]->data == 0.5);
    CHECK(!s.tensors[3] && strcmp(s.placeholders[3], "w") == 0);
    CHECK(s.tensors[4] && s.tensors[4]->dtype == HR_C128 && ((double *)s.tensors[4]->data)[1] == 2.0);
    CHECK(s.tensors[5] && s.tensors[5]->dtype == HR_I32 && s.tensors[5]->shape.rank == 0 && *(int32_t *)s.tensors[5]->data == 7);
    CHECK(s.tensors[6] && s.tensors[6]->dtype == HR_I1 && *(uint8_t *)s.tensors[6]->data == 1);
    /* the chunked array: its two chunks concatenated into its shape */
    hr_tensor *k = s.tensors[7];
    CHECK(k && k->dtype == HR_F32 && k->shape.rank == 1 && k->shape.dims[0] == 4 && ((float *)k->data)[2] == 3.0f);
  }
  seen_free(&s);
}

/* Every prefix of the file is refused (an unfinished tree), with the offset in the message. */
TEST(truncation_at_every_byte_fails_cleanly) {
  int refused = 0;
  for (size_t n = 0; n < sizeof tree; n++) {
    seen s;
    hr_status st = read_tree(tree, n, &s);
    seen_free(&s);
    if (st) {
      refused++;
      CHECK_STR_CONTAINS(hr_status_message(st), "ckpt/checkpoint");
    }
    hr_status_free(st);
  }
  CHECK_EQ_INT(refused, (int)sizeof tree);
}

/* Flipping any bit gives a tree or an error, never a crash (ASan checks the reads). */
TEST(bit_flips_never_crash) {
  unsigned char copy[sizeof tree];
  for (size_t i = 0; i < sizeof tree; i++)
    for (int b = 0; b < 8; b++) {
      memcpy(copy, tree, sizeof tree);
      copy[i] ^= (unsigned char)(1u << b);
      seen s;
      hr_status_free(read_tree(copy, sizeof copy, &s));
      seen_free(&s);
    }
}

TEST(hostile_lengths_counts_and_nesting) {
  seen s;
  /* a map claiming 2^32 - 1 entries in 5 bytes */
  static const unsigned char huge_map[] = {0xdf, 0xff, 0xff, 0xff, 0xff};
  hr_status st = read_tree(huge_map, sizeof huge_map, &s);
  CHECK(st && strstr(hr_status_message(st), "more elements than bytes left"));
  hr_status_free(st);
  seen_free(&s);
  /* an array of 2^31 float32s declared in 20 bytes: refused by the size bound before allocating */
  static const unsigned char big[] = {0x81, 0xa1, 'x', 0xc7, 0x12, 0x01, 0x93, 0x91, 0xce, 0x80, 0x00,
                                      0x00, 0x00, 0xa7, 'f', 'l', 'o', 'a', 't', '3', '2', 0xc4, 0x00};
  st = read_tree(big, sizeof big, &s);
  CHECK(st != NULL);
  hr_status_free(st);
  seen_free(&s);
  /* maps nested far deeper than any pytree */
  unsigned char deep[2000];
  size_t n = 0;
  while (n + 3 <= sizeof deep) deep[n++] = 0x81, deep[n++] = 0xa1, deep[n++] = 'a';
  deep[n++] = 0x01;
  st = read_tree(deep, n, &s);
  CHECK(st && strstr(hr_status_message(st), "nested deeper"));
  hr_status_free(st);
  seen_free(&s);
  /* an unknown dtype and a 0xc1 byte */
  static const unsigned char bad_dtype[] = {0x81, 0xa1, 'x', 0xc7, 0x09, 0x01, 0x93, 0x90, 0xa4, 'q', 'u', 'u', 'x', 0xc4, 0x00};
  st = read_tree(bad_dtype, sizeof bad_dtype, &s);
  CHECK(st && strstr(hr_status_message(st), "'quux'"));
  hr_status_free(st);
  seen_free(&s);
  static const unsigned char never_used[] = {0x81, 0xa1, 'x', 0xc1};
  st = read_tree(never_used, sizeof never_used, &s);
  CHECK(st && strstr(hr_status_message(st), "offset 3"));
  hr_status_free(st);
  seen_free(&s);
}

int main(void) {
  RUN(every_leaf_kind_in_file_order);
  RUN(truncation_at_every_byte_fails_cleanly);
  RUN(bit_flips_never_crash);
  RUN(hostile_lengths_counts_and_nesting);
  TEST_MAIN_END();
}

/* Tests for .npy reading and writing, including hostile headers. */
#include <unistd.h>

#include "test.h"

/* Builds an npy v1 file image from a header dict and payload. */
static size_t make_npy(unsigned char *buf, const char *dict, const void *payload, size_t n) {
  size_t hl = strlen(dict) + 1;
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)(hl & 0xff);
  buf[9] = (unsigned char)(hl >> 8);
  memcpy(buf + 10, dict, hl - 1);
  buf[10 + hl - 1] = '\n';
  memcpy(buf + 10 + hl, payload, n);
  return 10 + hl + n;
}

TEST(write_then_read_every_dtype) {
  const hr_dtype types[] = {HR_I1, HR_I8, HR_I16, HR_I32, HR_I64, HR_U8, HR_U16, HR_U32,
                            HR_U64, HR_F16, HR_BF16, HR_F32, HR_F64, HR_C64, HR_C128};
  char path[] = "/tmp/hlorun_npyXXXXXX";
  int fd = mkstemp(path);
  close(fd);
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    hr_shape shape = {3, {2, 1, 3}};
    hr_tensor *t, *back;
    CHECK_OK(hr_tensor_create(NULL, types[k], &shape, 0, &t));
    for (size_t i = 0; i < t->nbytes; i++) ((unsigned char *)t->data)[i] = (unsigned char)(types[k] == HR_I1 ? i % 2 : i * 7 + 1);
    CHECK_OK(hr_npy_write_file(path, t));
    CHECK_OK(hr_npy_read_file(path, NULL, 0, &back));
    if (back) {
      CHECK_EQ_INT(back->dtype, types[k]);
      CHECK_EQ_INT(back->shape.rank, 3);
      CHECK_EQ_INT(back->shape.dims[2], 3);
      CHECK(back->nbytes == t->nbytes && memcmp(back->data, t->data, t->nbytes) == 0);
      hr_tensor_free(back);
    }
    hr_tensor_free(t);
  }
  unlink(path);
}

/* The narrow floats: f8/f6/f4 bytes written as '|V1' (ml_dtypes' descriptor), which reading refuses
 * as ambiguous unless a one-byte type is expected there (then read as it, bytes unchanged); tf32
 * written as the '<f4' of the same values. */
TEST(narrow_floats) {
  char path[] = "/tmp/hlorun_npyXXXXXX";
  int fd = mkstemp(path);
  close(fd);
  hr_shape shape = {1, {4}};
  hr_tensor *t, *back = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F8E4M3FN, &shape, 0, &t));
  memcpy(t->data, "8@¸", 4); /* 1, 2, -1, NaN */
  CHECK_OK(hr_npy_write_file(path, t));
  hr_status s = hr_npy_read_file(path, NULL, 0, &back);
  CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
  CHECK(back == NULL && s && strstr(hr_status_message(s), "'|V1'") != NULL);
  hr_status_free(s);
  s = hr_npy_read_file_as(path, HR_F32, NULL, 0, &back); /* not a one-byte type: still refused */
  CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
  CHECK(back == NULL && s && strstr(hr_status_message(s), "expected here: f32") != NULL);
  hr_status_free(s);
  const hr_dtype one_byte[] = {HR_F8E4M3FN, HR_F8E5M2, HR_F8E8M0FNU, HR_F8E4M3B11FNUZ};
  for (size_t k = 0; k < sizeof one_byte / sizeof one_byte[0]; k++) {
    CHECK_OK(hr_npy_read_file_as(path, one_byte[k], NULL, 0, &back));
    if (!back) continue;
    CHECK_EQ_INT(back->dtype, one_byte[k]);
    CHECK(back->nbytes == 4 && memcmp(back->data, t->data, 4) == 0);
    hr_tensor_free(back);
  }
  /* f4E2M1FN: one value per byte, its upper four bits clear (0x38 is not one) */
  s = hr_npy_read_file_as(path, HR_F4E2M1FN, NULL, 0, &back);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  CHECK(back == NULL && s && strstr(hr_status_message(s), "not a f4E2M1FN value") != NULL);
  hr_status_free(s);
  hr_tensor_free(t);
  CHECK_OK(hr_tensor_create(NULL, HR_TF32, &shape, 0, &t));
  const float vals[4] = {1.0f, -2.5f, 0.0078125f, 65536.0f}; /* each a tf32 value */
  memcpy(t->data, vals, sizeof vals);
  CHECK_OK(hr_npy_write_file(path, t));
  CHECK_OK(hr_npy_read_file(path, NULL, 0, &back));
  if (back) {
    CHECK_EQ_INT(back->dtype, HR_F32);
    CHECK(back->nbytes == sizeof vals && memcmp(back->data, vals, sizeof vals) == 0);
    hr_tensor_free(back);
  }
  hr_tensor_free(t);
  unlink(path);
}

/* Sub-byte integers: written one per byte as '|i1' / '|u1' (and ml_dtypes' '|V1'), read as i4 /
 * ui2 where one is expected, each byte within the type's range; as i8 / ui8 otherwise. */
TEST(sub_byte_integers) {
  unsigned char buf[256];
  const int8_t i4[4] = {-8, -1, 0, 7};
  hr_tensor *t = NULL;
  size_t n = make_npy(buf, "{'descr': '|i1', 'fortran_order': False, 'shape': (4,), }", i4, 4);
  CHECK_OK(hr_npy_read_buffer_as(buf, n, HR_I4, NULL, 0, &t));
  if (t) CHECK(t->dtype == HR_I4 && memcmp(t->data, i4, 4) == 0);
  hr_tensor_free(t);
  CHECK_OK(hr_npy_read_buffer_as(buf, n, HR_F32, NULL, 0, &t)); /* nothing one-byte expected: i8 */
  if (t) CHECK_EQ_INT(t->dtype, HR_I8);
  hr_tensor_free(t);
  const int8_t too_big[4] = {-8, -9, 0, 7};
  n = make_npy(buf, "{'descr': '|i1', 'fortran_order': False, 'shape': (4,), }", too_big, 4);
  hr_status s = hr_npy_read_buffer_as(buf, n, HR_I4, NULL, 0, &t);
  CHECK(hr_status_code(s) == HR_INVALID_ARGUMENT && t == NULL);
  hr_status_free(s);
  const uint8_t u2[3] = {0, 3, 1};
  n = make_npy(buf, "{'descr': '|V1', 'fortran_order': False, 'shape': (3,), }", u2, 3);
  CHECK_OK(hr_npy_read_buffer_as(buf, n, HR_U2, NULL, 0, &t));
  if (t) CHECK(t->dtype == HR_U2 && memcmp(t->data, u2, 3) == 0);
  hr_tensor_free(t);
  const uint8_t bools[3] = {0, 2, 255}; /* numpy's bools are 0/1, but any non-zero byte reads as true */
  n = make_npy(buf, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", bools, 3);
  CHECK_OK(hr_npy_read_buffer_as(buf, n, HR_I1, NULL, 0, &t));
  if (t) CHECK(t->dtype == HR_I1 && memcmp(t->data, "\0\1\1", 3) == 0);
  hr_tensor_free(t);
  const uint8_t u2_bad[3] = {0, 4, 1};
  n = make_npy(buf, "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", u2_bad, 3);
  s = hr_npy_read_buffer_as(buf, n, HR_U2, NULL, 0, &t);
  CHECK(hr_status_code(s) == HR_INVALID_ARGUMENT && t == NULL);
  hr_status_free(s);
}

TEST(reads_scalars_and_python_formats) {
  unsigned char buf[256];
  float v = 2.5f;
  size_t n = make_npy(buf, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", &v, 4);
  hr_tensor *t;
  CHECK_OK(hr_npy_read_buffer(buf, n, NULL, 0, &t));
  if (t) {
    CHECK_EQ_INT(t->shape.rank, 0);
    CHECK(((float *)t->data)[0] == 2.5f);
    hr_tensor_free(t);
  }
  int32_t xs[3] = {1, 2, 3};
  n = make_npy(buf, "{\"descr\":\"<i4\",\"fortran_order\":False,\"shape\":(3,)}", xs, sizeof xs);
  CHECK_OK(hr_npy_read_buffer(buf, n, NULL, 0, &t));
  if (t) {
    CHECK_EQ_INT(t->shape.dims[0], 3);
    CHECK_EQ_INT(((int32_t *)t->data)[2], 3);
    hr_tensor_free(t);
  }
}

/* Expects reading `dict` + `n` payload bytes to fail with `code`. */
static void expect_bad(const char *dict, size_t n, hr_code code) {
  unsigned char buf[512] = {0};
  unsigned char payload[64] = {0};
  size_t len = make_npy(buf, dict, payload, n);
  hr_tensor *t;
  hr_status s = hr_npy_read_buffer(buf, len, NULL, 1 << 20, &t);
  if (hr_status_code(s) != code)
    fprintf(stderr, "for %s: got %s (%s)\n", dict, hr_code_name(hr_status_code(s)), hr_status_message(s));
  CHECK_EQ_INT(hr_status_code(s), code);
  CHECK(t == NULL);
  hr_status_free(s);
}

TEST(rejects_bad_files) {
  expect_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 8, HR_PARSE_ERROR); /* short data */
  expect_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 16, HR_PARSE_ERROR); /* long data */
  expect_bad("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", 4, HR_UNIMPLEMENTED);
  expect_bad("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16, HR_UNIMPLEMENTED);
  expect_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", 0,
             HR_RESOURCE_EXHAUSTED);
  expect_bad("{'descr': '<f4', 'fortran_order': False, 'shape': (1024, 1024), }", 0, HR_RESOURCE_EXHAUSTED);
  expect_bad("{'descr': '<f4', 'fortran_order': False}", 0, HR_PARSE_ERROR);
  expect_bad("{'descr': '<f4', 'shape': (1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)}", 0, HR_PARSE_ERROR);
  expect_bad("{'descr': [('a', '<f4')], 'shape': (1,)}", 4, HR_UNIMPLEMENTED);
  hr_tensor *t;
  hr_status s = hr_npy_read_buffer("\x93NUMPY\x01\x00\xff\xff", 10, NULL, 0, &t);
  CHECK_EQ_INT(hr_status_code(s), HR_PARSE_ERROR);
  hr_status_free(s);
  s = hr_npy_read_buffer("hello", 5, NULL, 0, &t);
  CHECK_EQ_INT(hr_status_code(s), HR_PARSE_ERROR);
  hr_status_free(s);
}

TEST(truncations_never_crash) {
  unsigned char buf[256];
  double xs[4] = {1, 2, 3, 4};
  size_t n = make_npy(buf, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", xs, sizeof xs);
  for (size_t cut = 0; cut < n; cut++) {
    hr_tensor *t;
    hr_status s = hr_npy_read_buffer(buf, cut, NULL, 0, &t);
    CHECK(s != NULL && t == NULL);
    hr_status_free(s);
  }
}

int main(void) {
  RUN(write_then_read_every_dtype);
  RUN(narrow_floats);
  RUN(sub_byte_integers);
  RUN(reads_scalars_and_python_formats);
  RUN(rejects_bad_files);
  RUN(truncations_never_crash);
  TEST_MAIN_END();
}

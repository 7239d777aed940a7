/* The TensorProto codec (server/grpc_tensor.c): tensor_content and typed values read as
 * TensorFlow reads them (fewer values repeat the last, ranges checked), bad messages refused with
 * a message naming the input, the element budget kept, and what is written reads back. Messages
 * are built by hand with the protobuf writers (field numbers of tensor.proto). */
#include <string.h>

#include "formats/protobuf/pb.h"
#include "server/grpc_tensor.h"
#include "test.h"

enum { DT_FLOAT = 1, DT_DOUBLE = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_STRING = 7, DT_INT64 = 9, DT_BOOL = 10,
       DT_HALF = 19 };

/* Starts a TensorProto: dtype and shape. */
static void head(hr_strbuf *b, int dtype, const int64_t *dims, int rank) {
  hr_strbuf shape, dim;
  hr_strbuf_init(&shape, NULL);
  hr_strbuf_init(&dim, NULL);
  for (int i = 0; i < rank; i++) {
    dim.len = 0;
    hr_pb_put_uint(&dim, 1, (uint64_t)dims[i]);
    hr_pb_put_bytes(&shape, 2, dim.data, dim.len);
  }
  hr_pb_put_uint(b, 1, (uint64_t)dtype);
  hr_pb_put_bytes(b, 2, shape.data ? shape.data : "", shape.len);
  hr_strbuf_free(&shape);
  hr_strbuf_free(&dim);
}

/* Decodes a message; the status is returned, the tensor in *t (NULL on error). */
static hr_status decode(const hr_strbuf *b, hr_tensor **t) {
  int64_t budget = 1000;
  return srv_grpc_tensor_decode("x", (const uint8_t *)b->data, b->len, &budget, t);
}

/* Expects decoding to fail with `code` and a message holding `text`. */
static void expect_error(const hr_strbuf *b, hr_code code, const char *text) {
  hr_tensor *t = NULL;
  hr_status st = decode(b, &t);
  CHECK(st != NULL);
  CHECK(t == NULL);
  if (st) {
    CHECK_EQ_INT(hr_status_code(st), code);
    CHECK_STR_CONTAINS(hr_status_message(st), text);
    hr_status_free(st);
  }
}

TEST(content_is_copied) {
  hr_strbuf b;
  hr_strbuf_init(&b, NULL);
  int64_t dims[] = {2, 3};
  head(&b, DT_FLOAT, dims, 2);
  float v[6] = {1, 2, 3, 4, 5, 6.5f};
  hr_pb_put_bytes(&b, 4, v, sizeof v);
  hr_tensor *t = NULL;
  CHECK_OK(decode(&b, &t));
  if (t) {
    CHECK_EQ_INT(t->dtype, HR_F32);
    CHECK_EQ_INT(t->shape.rank, 2);
    CHECK(t->shape.dims[0] == 2 && t->shape.dims[1] == 3);
    CHECK(memcmp(t->data, v, sizeof v) == 0);
    /* written back: the same bytes read again */
    hr_strbuf out;
    hr_strbuf_init(&out, NULL);
    srv_grpc_tensor_put(&out, t);
    CHECK(out.len == srv_grpc_tensor_size(t));
    hr_tensor *u = NULL;
    CHECK_OK(decode(&out, &u));
    CHECK(u && u->nbytes == t->nbytes && memcmp(u->data, t->data, t->nbytes) == 0);
    hr_tensor_free(u);
    hr_strbuf_free(&out);
  }
  hr_tensor_free(t);
  hr_strbuf_free(&b);
}

TEST(typed_values_packed_and_not) {
  hr_strbuf b, packed;
  hr_strbuf_init(&b, NULL);
  hr_strbuf_init(&packed, NULL);
  int64_t dims[] = {4};
  head(&b, DT_INT32, dims, 1);
  hr_pb_put_varint(&packed, 7);
  hr_pb_put_varint(&packed, (uint64_t)(int64_t)-5); /* int32 negatives are 10-byte varints */
  hr_pb_put_bytes(&b, 7, packed.data, packed.len);
  hr_pb_put_uint(&b, 7, 100); /* then one unpacked value: both forms may be mixed */
  hr_tensor *t = NULL;
  CHECK_OK(decode(&b, &t));
  if (t) {
    const int32_t *d = t->data;
    CHECK(d[0] == 7 && d[1] == -5 && d[2] == 100 && d[3] == 100); /* the last value repeats */
  }
  hr_tensor_free(t);
  hr_strbuf_free(&b);
  hr_strbuf_free(&packed);
}

TEST(float_double_bool_half) {
  hr_strbuf b;
  hr_strbuf_init(&b, NULL);
  int64_t two[] = {2};
  head(&b, DT_DOUBLE, two, 1);
  double dv[2] = {1.25, -3.5};
  hr_pb_put_bytes(&b, 6, dv, sizeof dv);
  hr_tensor *t = NULL;
  CHECK_OK(decode(&b, &t));
  CHECK(t && memcmp(t->data, dv, sizeof dv) == 0);
  hr_tensor_free(t);

  b.len = 0;
  head(&b, DT_BOOL, two, 1);
  hr_pb_put_uint(&b, 11, 5); /* any non-zero value is true */
  hr_pb_put_uint(&b, 11, 0);
  CHECK_OK(decode(&b, &t));
  CHECK(t && ((uint8_t *)t->data)[0] == 1 && ((uint8_t *)t->data)[1] == 0);
  hr_tensor_free(t);

  b.len = 0;
  head(&b, DT_HALF, two, 1);
  hr_pb_put_uint(&b, 13, 0x3c00);
  CHECK_OK(decode(&b, &t));
  CHECK(t && ((uint16_t *)t->data)[0] == 0x3c00 && ((uint16_t *)t->data)[1] == 0x3c00);
  hr_tensor_free(t);

  b.len = 0;
  head(&b, DT_BOOL, two, 1);
  hr_pb_put_bytes(&b, 4, "\x07\x00", 2); /* tensor_content booleans become 0 or 1 */
  CHECK_OK(decode(&b, &t));
  CHECK(t && ((uint8_t *)t->data)[0] == 1 && ((uint8_t *)t->data)[1] == 0);
  hr_tensor_free(t);
  hr_strbuf_free(&b);
}

TEST(no_values_are_zeros) {
  hr_strbuf b;
  hr_strbuf_init(&b, NULL);
  int64_t dims[] = {3};
  head(&b, DT_FLOAT, dims, 1);
  hr_tensor *t = NULL;
  CHECK_OK(decode(&b, &t));
  CHECK(t && ((float *)t->data)[2] == 0.0f);
  hr_tensor_free(t);
  hr_strbuf_free(&b);
}

TEST(errors) {
  hr_strbuf b;
  hr_strbuf_init(&b, NULL);
  int64_t dims[] = {2};
  head(&b, DT_UINT8, dims, 1);
  hr_pb_put_uint(&b, 7, 256);
  expect_error(&b, HR_INVALID_ARGUMENT, "out of range");

  b.len = 0;
  head(&b, DT_FLOAT, dims, 1);
  hr_pb_put_bytes(&b, 4, "abc", 3);
  expect_error(&b, HR_INVALID_ARGUMENT, "tensor_content holds 3 bytes, the shape needs 8");

  b.len = 0;
  head(&b, DT_FLOAT, dims, 1);
  float three[3] = {1, 2, 3};
  hr_pb_put_bytes(&b, 5, three, sizeof three);
  expect_error(&b, HR_INVALID_ARGUMENT, "3 values for a tensor of 2 elements");

  b.len = 0;
  head(&b, DT_STRING, dims, 1);
  hr_pb_put_bytes(&b, 8, "hi", 2);
  expect_error(&b, HR_UNIMPLEMENTED, "DT_STRING");

  b.len = 0;
  hr_pb_put_uint(&b, 1, DT_FLOAT);
  expect_error(&b, HR_INVALID_ARGUMENT, "no shape");

  b.len = 0;
  int64_t negative[] = {-1};
  head(&b, DT_FLOAT, negative, 1);
  expect_error(&b, HR_INVALID_ARGUMENT, "fully defined");

  b.len = 0;
  int64_t big[] = {1000, 1000};
  head(&b, DT_INT64, big, 2);
  expect_error(&b, HR_INVALID_ARGUMENT, "--max_tensor_elements");

  b.len = 0;
  head(&b, 99, dims, 1);
  expect_error(&b, HR_INVALID_ARGUMENT, "unknown dtype 99");

  b.len = 0;
  head(&b, DT_FLOAT, dims, 1);
  hr_strbuf_append(&b, "\x2a\x10\x00", 3); /* float_val announcing 16 bytes, 1 there */
  expect_error(&b, HR_PARSE_ERROR, "field 5 holds 16 bytes");

  b.len = 0;
  head(&b, DT_FLOAT, dims, 1);
  hr_pb_put_bytes(&b, 5, "abcde", 5); /* packed floats: not a multiple of 4 */
  expect_error(&b, HR_PARSE_ERROR, "not a whole number");
  hr_strbuf_free(&b);
}

TEST(values_for_kserve_contents) {
  /* InferTensorContents.int_contents (field 2) into an i8 tensor: exact count, range checked */
  hr_strbuf b;
  hr_strbuf_init(&b, NULL);
  hr_pb_put_uint(&b, 2, 5);
  hr_pb_put_uint(&b, 2, (uint64_t)(int64_t)-128);
  srv_grpc_values vf = {2, SRV_VALUE_VARINT, 1, true};
  int64_t n = 0;
  CHECK_OK(srv_grpc_values_count((const uint8_t *)b.data, b.len, vf, &n));
  CHECK(n == 2);
  hr_shape shape = {.rank = 1, .dims = {2}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_I8, &shape, 0, &t));
  if (t) {
    CHECK_OK(srv_grpc_values_read("k", (const uint8_t *)b.data, b.len, vf, t));
    CHECK(((int8_t *)t->data)[0] == 5 && ((int8_t *)t->data)[1] == -128);
    hr_pb_put_uint(&b, 2, 1); /* a third value does not fit */
    hr_status st = srv_grpc_values_read("k", (const uint8_t *)b.data, b.len, vf, t);
    CHECK(st != NULL);
    hr_status_free(st);
  }
  hr_tensor_free(t);
  hr_strbuf_free(&b);
}

int main(void) {
  RUN(content_is_copied);
  RUN(typed_values_packed_and_not);
  RUN(float_double_bool_half);
  RUN(no_values_are_zeros);
  RUN(errors);
  RUN(values_for_kserve_contents);
  TEST_MAIN_END();
}

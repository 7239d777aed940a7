/* Unit tests of the data-movement machinery that programs cannot reach directly: the strided
 * copy engine (including its refusal of plans that would leave their tensors), fills, index
 * loading and axis checks. End-to-end kernel behaviour is covered by test_data.sh. */
#include <stdint.h>

#include "interp/data.h"
#include "test.h"

/* A dummy op for error messages. */
static hr_op dummy_op(void) {
  hr_op op;
  memset(&op, 0, sizeof op);
  op.code = HR_OP_SLICE;
  op.loc.file = "plan.mlir";
  op.loc.line = 3;
  op.loc.col = 5;
  return op;
}

/* Creates a 1-D i32 tensor holding 0, 1, 2, ... */
static hr_tensor *iota_i32(int64_t n) {
  hr_shape s = {.rank = 1, .dims = {n}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_I32, &s, 0, &t));
  for (int64_t i = 0; t && i < n; i++) ((int32_t *)t->data)[i] = (int32_t)i;
  return t;
}

/* A 2x3 -> 3x2 transpose through explicit strides. */
TEST(plan_transposes) {
  hr_op op = dummy_op();
  hr_tensor *src = iota_i32(6), *dst = iota_i32(6);
  hr_copy_plan p;
  int64_t box[2] = {3, 2};
  hr_copy_plan_init(&p, 2, box);
  p.src_stride[0] = 1; /* result dim 0 walks source columns */
  p.src_stride[1] = 3;
  p.dst_stride[0] = 2;
  p.dst_stride[1] = 1;
  CHECK_OK(hr_copy_plan_run(&op, &p, src, dst));
  const int32_t want[6] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; i++) CHECK_EQ_INT(((int32_t *)dst->data)[i], want[i]);
  hr_tensor_free(src);
  hr_tensor_free(dst);
}

/* A transpose large enough to go tile by tile, with ragged edges. */
TEST(plan_tiles_large_transpose) {
  hr_op op = dummy_op();
  enum { ROWS = 48, COLS = 40 };
  hr_tensor *src = iota_i32(ROWS * COLS), *dst = iota_i32(ROWS * COLS);
  hr_copy_plan p;
  int64_t box[2] = {COLS, ROWS};
  hr_copy_plan_init(&p, 2, box);
  p.src_stride[0] = 1;
  p.src_stride[1] = COLS;
  p.dst_stride[0] = ROWS;
  p.dst_stride[1] = 1;
  CHECK_OK(hr_copy_plan_run(&op, &p, src, dst));
  int bad = 0;
  for (int i = 0; i < COLS; i++)
    for (int j = 0; j < ROWS; j++) bad += ((int32_t *)dst->data)[i * ROWS + j] != j * COLS + i;
  CHECK_EQ_INT(bad, 0);
  hr_tensor_free(src);
  hr_tensor_free(dst);
}

/* Negative strides reverse, zero strides broadcast, and contiguous dims merge into one run. */
TEST(plan_reverses_and_broadcasts) {
  hr_op op = dummy_op();
  hr_tensor *src = iota_i32(4), *dst = iota_i32(8);
  hr_copy_plan p;
  int64_t box[2] = {2, 4};
  hr_copy_plan_init(&p, 2, box);
  p.src_offset = 3;
  p.src_stride[0] = 0;
  p.src_stride[1] = -1;
  p.dst_stride[0] = 4;
  p.dst_stride[1] = 1;
  CHECK_OK(hr_copy_plan_run(&op, &p, src, dst));
  const int32_t want[8] = {3, 2, 1, 0, 3, 2, 1, 0};
  for (int i = 0; i < 8; i++) CHECK_EQ_INT(((int32_t *)dst->data)[i], want[i]);
  hr_copy_plan_init(&p, 2, box);
  p.src_stride[0] = 0;
  p.src_stride[1] = 1;
  p.dst_stride[0] = 4;
  p.dst_stride[1] = 1;
  CHECK_OK(hr_copy_plan_run(&op, &p, src, dst));
  for (int i = 0; i < 8; i++) CHECK_EQ_INT(((int32_t *)dst->data)[i], i % 4);
  hr_tensor_free(src);
  hr_tensor_free(dst);
}

/* Plans that reach outside a tensor, or whose offsets overflow, fail and write nothing. */
TEST(plan_refuses_out_of_bounds) {
  hr_op op = dummy_op();
  hr_tensor *src = iota_i32(4), *dst = iota_i32(4);
  hr_copy_plan p;
  int64_t four = 4, two = 2;
  hr_copy_plan_init(&p, 1, &four);
  p.src_stride[0] = p.dst_stride[0] = 1;
  p.src_offset = 1; /* reads element 4 */
  hr_status s = hr_copy_plan_run(&op, &p, src, dst);
  CHECK(s && hr_status_code(s) == HR_INTERNAL);
  CHECK_STR_CONTAINS(hr_status_message(s), "plan.mlir:3:5: stablehlo.slice");
  hr_status_free(s);
  hr_copy_plan_init(&p, 1, &two);
  p.src_stride[0] = INT64_MAX; /* (2 - 1) * INT64_MAX lands far outside */
  p.dst_stride[0] = 1;
  s = hr_copy_plan_run(&op, &p, src, dst);
  CHECK(s != NULL);
  hr_status_free(s);
  hr_copy_plan_init(&p, 1, &two);
  p.src_stride[0] = 1;
  p.dst_stride[0] = INT64_MIN; /* negative overflow */
  p.dst_offset = 3;
  s = hr_copy_plan_run(&op, &p, src, dst);
  CHECK(s != NULL);
  hr_status_free(s);
  for (int i = 0; i < 4; i++) CHECK_EQ_INT(((int32_t *)dst->data)[i], i);
  hr_tensor_free(src);
  hr_tensor_free(dst);
}

/* An empty box copies nothing, whatever its strides. */
TEST(plan_empty_box) {
  hr_op op = dummy_op();
  hr_tensor *src = iota_i32(2), *dst = iota_i32(2);
  hr_copy_plan p;
  int64_t box[2] = {0, 1000};
  hr_copy_plan_init(&p, 2, box);
  p.src_stride[1] = INT64_MAX;
  CHECK_OK(hr_copy_plan_run(&op, &p, src, dst));
  hr_tensor_free(src);
  hr_tensor_free(dst);
}

/* Fills with element sizes that are not powers of two. */
TEST(fill_any_element_size) {
  unsigned char buf[21];
  const unsigned char elem[3] = {1, 2, 3};
  memset(buf, 0xAA, sizeof buf);
  hr_data_fill(buf, 6, elem, 3);
  for (int i = 0; i < 18; i++) CHECK_EQ_INT(buf[i], i % 3 + 1);
  for (int i = 18; i < 21; i++) CHECK_EQ_INT(buf[i], 0xAA);
}

/* ui64 indices above INT64_MAX saturate instead of turning negative. */
TEST(index_loading_saturates) {
  const uint64_t u[2] = {UINT64_MAX, 7};
  CHECK(hr_data_load_index(HR_U64, u, 0) == INT64_MAX);
  CHECK_EQ_INT(hr_data_load_index(HR_U64, u, 1), 7);
  const int8_t s[1] = {-128};
  CHECK_EQ_INT(hr_data_load_index(HR_I8, s, 0), -128);
  CHECK_EQ_INT(hr_clamp_i64(INT64_MIN, 0, 5), 0);
  CHECK_EQ_INT(hr_clamp_i64(INT64_MAX, 0, 5), 5);
}

/* Strides of an empty shape are zero, however large its other dims. */
TEST(empty_shape_strides) {
  hr_shape big = {.rank = 3, .dims = {0, (int64_t)1 << 62, 4}};
  int64_t st[3] = {1, 1, 1};
  hr_data_strides(&big, st);
  CHECK(st[0] == 0 && st[1] == 0 && st[2] == 0);
  hr_shape s = {.rank = 3, .dims = {2, 3, 4}};
  hr_data_strides(&s, st);
  CHECK(st[0] == 12 && st[1] == 4 && st[2] == 1);
}

/* Axis lists must be distinct and in range. */
TEST(axes_are_checked) {
  hr_op op = dummy_op();
  const int64_t ok[2] = {1, 0}, dup[2] = {1, 1}, out[1] = {-1};
  CHECK_OK(hr_data_check_axes(&op, "dims", ok, 2, 2));
  hr_status s = hr_data_check_axes(&op, "dims", dup, 2, 2);
  CHECK_STR_CONTAINS(hr_status_message(s), "appears twice");
  hr_status_free(s);
  s = hr_data_check_axes(&op, "dims", out, 1, 2);
  CHECK_STR_CONTAINS(hr_status_message(s), "outside");
  hr_status_free(s);
}

int main(void) {
  RUN(plan_transposes);
  RUN(plan_tiles_large_transpose);
  RUN(plan_reverses_and_broadcasts);
  RUN(plan_refuses_out_of_bounds);
  RUN(plan_empty_box);
  RUN(fill_any_element_size);
  RUN(index_loading_saturates);
  RUN(empty_shape_strides);
  RUN(axes_are_checked);
  TEST_MAIN_END();
}

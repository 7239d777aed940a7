/* Unit tests of the reduce group's shared engine (src/interp/reduce.h): scalar
 * conversion, packing of strided views, and the batched matrix multiplication, which must give
 * bit-identical results to a naive loop that accumulates in increasing k order, with or without
 * threads, on the register-blocked f32 path and the generic paths alike. */
#include <math.h>
#include <string.h>

#include "interp/reduce.h"
#include "test.h"

/* A deterministic pseudo-random sequence (xorshift) for test data. */
static uint32_t next_rand(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* Converts one value and returns the destination bytes as an integer or double for checking. */
static int64_t conv_int(hr_dtype from, const void *src, hr_dtype to) {
  unsigned char buf[16] = {0};
  hr_red_convert_scalar(from, src, to, buf);
  return hr_load_int(to, buf, 0);
}

static double conv_float(hr_dtype from, const void *src, hr_dtype to) {
  unsigned char buf[16] = {0};
  hr_red_convert_scalar(from, src, to, buf);
  return hr_load_float(to, buf, 0);
}

TEST(convert_saturates_and_wraps) {
  float big = 300.5f, low = -1e9f, nan_f = NAN, half = 0.5f, neg_zero = -0.0f;
  CHECK_EQ_INT(conv_int(HR_F32, &big, HR_I8), 127);
  CHECK_EQ_INT(conv_int(HR_F32, &low, HR_I8), -128);
  CHECK_EQ_INT(conv_int(HR_F32, &nan_f, HR_I32), 0);
  CHECK_EQ_INT(conv_int(HR_F32, &half, HR_I1), 1);
  CHECK_EQ_INT(conv_int(HR_F32, &neg_zero, HR_I1), 0);
  double minus3 = -3.0, huge = 1e30;
  CHECK_EQ_INT(conv_int(HR_F64, &minus3, HR_U8), 0);
  CHECK_EQ_INT(conv_int(HR_F64, &huge, HR_I64), INT64_MAX);
  CHECK(conv_int(HR_F64, &huge, HR_U64) == (int64_t)UINT64_MAX);
  int32_t m1 = -1;
  CHECK_EQ_INT(conv_int(HR_I32, &m1, HR_U16), 65535);
  CHECK_EQ_INT(conv_int(HR_I32, &m1, HR_I4), -1);
  uint64_t umax = UINT64_MAX;
  CHECK(conv_float(HR_U64, &umax, HR_F32) == 18446744073709551616.0);
  CHECK(conv_float(HR_U64, &umax, HR_F64) == 18446744073709551616.0);
  float c[2] = {2.5f, -7.0f};
  CHECK(conv_float(HR_C64, c, HR_F32) == 2.5);
  CHECK_EQ_INT(conv_int(HR_C64, c, HR_I1), 1);
  /* 1 + 2^-8 is a tie between two bf16 values and rounds to even (1.0). */
  double tie = 1.00390625;
  CHECK(conv_float(HR_F64, &tie, HR_BF16) == 1.0);
}

TEST(pack_transposed_view) {
  /* A 2x3 int32 matrix viewed as its 3x2 transpose and packed into f32 accumulators. */
  int32_t m[6] = {1, 2, 3, 4, 5, 6};
  hr_red_view v = {.rank = 2, .dims = {3, 2}, .strides = {1, 3}};
  float out[6];
  hr_red_pack(&v, HR_I32, m, HR_F32, HR_RED_ACC_F32, out);
  const float want[6] = {1, 4, 2, 5, 3, 6};
  for (int i = 0; i < 6; i++) CHECK(out[i] == want[i]);
}

/* Fills `count` accumulator elements of kind k with small pseudo-random values. */
static void fill(hr_red_acc k, void *buf, int64_t count, uint32_t *seed) {
  for (int64_t i = 0; i < count; i++) {
    double v = (double)(next_rand(seed) % 2001) / 256.0 - 3.9;
    switch (k) {
      case HR_RED_ACC_F32: ((float *)buf)[i] = (float)v; break;
      case HR_RED_ACC_F64: ((double *)buf)[i] = v; break;
      case HR_RED_ACC_INT: ((uint64_t *)buf)[i] = next_rand(seed); break;
      case HR_RED_ACC_C64:
        ((float *)buf)[2 * i] = (float)v;
        ((float *)buf)[2 * i + 1] = (float)(v * 0.5);
        break;
      case HR_RED_ACC_C128:
        ((double *)buf)[2 * i] = v;
        ((double *)buf)[2 * i + 1] = v * 0.5;
        break;
    }
  }
}

/* The reference: c[b][i][j] = sum over increasing k of a[b][i][k] * b[b][k][j], in the
 * accumulator's own arithmetic. */
static void naive(const hr_red_matmul *mm, void *c) {
  for (int64_t bt = 0; bt < mm->batch; bt++)
    for (int64_t i = 0; i < mm->m; i++)
      for (int64_t j = 0; j < mm->n; j++) {
        int64_t ai = (bt * mm->m + i) * mm->k, bi = bt * mm->k * mm->n + j, ci = (bt * mm->m + i) * mm->n + j;
        if (mm->kind == HR_RED_ACC_F32) {
          float acc = 0;
          for (int64_t k = 0; k < mm->k; k++) acc += ((const float *)mm->a)[ai + k] * ((const float *)mm->b)[bi + k * mm->n];
          ((float *)c)[ci] = acc;
        } else if (mm->kind == HR_RED_ACC_F64) {
          double acc = 0;
          for (int64_t k = 0; k < mm->k; k++) acc += ((const double *)mm->a)[ai + k] * ((const double *)mm->b)[bi + k * mm->n];
          ((double *)c)[ci] = acc;
        } else if (mm->kind == HR_RED_ACC_INT) {
          uint64_t acc = 0;
          for (int64_t k = 0; k < mm->k; k++)
            acc += ((const uint64_t *)mm->a)[ai + k] * ((const uint64_t *)mm->b)[bi + k * mm->n];
          ((uint64_t *)c)[ci] = acc;
        } else { /* HR_RED_ACC_C64, the only complex kind tested */
          const float *a = mm->a, *b = mm->b;
          float re = 0, im = 0;
          for (int64_t k = 0; k < mm->k; k++) {
            float ar = a[2 * (ai + k)], aim = a[2 * (ai + k) + 1];
            float br = b[2 * (bi + k * mm->n)], bim = b[2 * (bi + k * mm->n) + 1];
            re += ar * br - aim * bim;
            im += ar * bim + aim * br;
          }
          ((float *)c)[2 * ci] = re;
          ((float *)c)[2 * ci + 1] = im;
        }
      }
}

/* Runs one product serially and on `pool`, and compares both with the naive loop bit for bit. */
static void check_matmul(hr_threadpool *pool, hr_red_acc kind, int64_t batch, int64_t m, int64_t k, int64_t n) {
  hr_interp in;
  memset(&in, 0, sizeof in);
  in.allocator = hr_default_allocator();
  hr_red_matmul mm = {.kind = kind, .batch = batch, .m = m, .k = k, .n = n};
  hr_tensor *a, *b, *c1, *c2, *ref;
  CHECK_OK(hr_red_scratch(&in, NULL, kind, batch * m * k, &a));
  CHECK_OK(hr_red_scratch(&in, NULL, kind, batch * k * n, &b));
  CHECK_OK(hr_red_scratch(&in, NULL, kind, batch * m * n, &c1));
  CHECK_OK(hr_red_scratch(&in, NULL, kind, batch * m * n, &c2));
  CHECK_OK(hr_red_scratch(&in, NULL, kind, batch * m * n, &ref));
  uint32_t seed = 12345u + (uint32_t)(m * 7 + n);
  fill(kind, a->data, batch * m * k, &seed);
  fill(kind, b->data, batch * k * n, &seed);
  mm.a = a->data;
  mm.b = b->data;
  mm.c = c1->data;
  CHECK_OK(hr_red_matmul_run(&in, NULL, &mm));
  in.pool = pool;
  mm.c = c2->data;
  CHECK_OK(hr_red_matmul_run(&in, NULL, &mm));
  naive(&mm, ref->data);
  if (memcmp(c1->data, ref->data, ref->nbytes) != 0 || memcmp(c2->data, ref->data, ref->nbytes) != 0) {
    fprintf(stderr, "matmul kind %d %lldx%lldx%lldx%lld differs from the naive loop\n", (int)kind, (long long)batch,
            (long long)m, (long long)k, (long long)n);
    test_failures_++;
  }
  hr_tensor_free(a);
  hr_tensor_free(b);
  hr_tensor_free(c1);
  hr_tensor_free(c2);
  hr_tensor_free(ref);
}

TEST(matmul_matches_naive_order) {
  hr_threadpool *pool = NULL;
  CHECK_OK(hr_threadpool_create(hr_default_allocator(), 3, &pool));
  /* f32: register blocks with leftover rows and columns, k and n across tiles, rows of one
   * parallel chunk spanning batches; then shapes that take the row kernel only. */
  check_matmul(pool, HR_RED_ACC_F32, 3, 13, 300, 530);
  check_matmul(pool, HR_RED_ACC_F32, 2, 4, 129, 8);
  check_matmul(pool, HR_RED_ACC_F32, 5, 3, 17, 700);
  check_matmul(pool, HR_RED_ACC_F32, 1, 64, 1, 1);
  check_matmul(pool, HR_RED_ACC_F64, 2, 9, 140, 270);
  check_matmul(pool, HR_RED_ACC_INT, 2, 5, 33, 21);
  check_matmul(pool, HR_RED_ACC_C64, 2, 6, 130, 19);
  hr_threadpool_free(pool);
}

int main(void) {
  RUN(convert_saturates_and_wraps);
  RUN(pack_transposed_view);
  RUN(matmul_matches_naive_order);
  TEST_MAIN_END();
}

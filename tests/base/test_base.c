/* Unit tests for the base layer: status, arena, strbuf, files, tensors, thread pool. */
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/crc.h"
#include "base/file.h"
#include "base/strbuf.h"
#include "base/threadpool.h"
#include "test.h"

TEST(status_carries_code_and_message) {
  hr_status s = hr_error(HR_PARSE_ERROR, "%s:%d:%d: bad token", "m.mlir", 3, 7);
  CHECK_EQ_INT(hr_status_code(s), HR_PARSE_ERROR);
  CHECK(strcmp(hr_status_message(s), "m.mlir:3:7: bad token") == 0);
  s = hr_status_wrap(s, "loading %s", "model");
  CHECK(strcmp(hr_status_message(s), "loading model: m.mlir:3:7: bad token") == 0);
  CHECK_EQ_INT(hr_status_code(s), HR_PARSE_ERROR);
  hr_status_free(s);
  CHECK_EQ_INT(hr_status_code(NULL), HR_OK);
  CHECK(strcmp(hr_status_message(NULL), "") == 0);
  CHECK(strcmp(hr_code_name(HR_CHECK_FAILED), "CHECK_FAILED") == 0);
}

TEST(arena_aligns_and_grows) {
  hr_arena a;
  hr_arena_init(&a, NULL);
  for (int i = 0; i < 10000; i++) {
    void *p = hr_arena_alloc(&a, (size_t)(i % 97) + 1, 16);
    CHECK(p && ((uintptr_t)p & 15) == 0);
  }
  char *big = hr_arena_alloc(&a, 1 << 20, 64);
  CHECK(big && ((uintptr_t)big & 63) == 0);
  memset(big, 1, 1 << 20);
  char *s = hr_arena_strndup(&a, "hello world", 5);
  CHECK(strcmp(s, "hello") == 0);
  CHECK(hr_arena_calloc(&a, SIZE_MAX / 2, 4, 8) == NULL); /* overflow is refused */
  hr_arena_release(&a);
}

/* Rewinding frees what came after the mark and reuses its chunks instead of allocating new ones. */
TEST(arena_rewinds_and_reuses_chunks) {
  hr_arena a;
  hr_arena_init(&a, NULL);
  char *keep = hr_arena_strdup(&a, "kept");
  hr_arena_pos mark = hr_arena_mark(&a);
  size_t used = a.used_bytes;
  void *first_round[64];
  for (int i = 0; i < 64; i++) first_round[i] = hr_arena_alloc(&a, 4096, 64); /* spans several chunks */
  CHECK(a.used_bytes == used + 64 * 4096);
  hr_arena_rewind(&a, mark);
  CHECK(a.used_bytes == used);
  CHECK(a.spare != NULL);
  for (int i = 0; i < 64; i++) CHECK(hr_arena_alloc(&a, 4096, 64) == first_round[i]); /* same memory again */
  CHECK(strcmp(keep, "kept") == 0);
  hr_arena_rewind(&a, mark);
  void *big = hr_arena_alloc(&a, 1 << 20, 64); /* larger than any spare chunk: a new one */
  CHECK(big != NULL);
  memset(big, 1, 1 << 20);
  hr_arena_rewind(&a, (hr_arena_pos){0}); /* back to empty */
  CHECK(a.used_bytes == 0 && a.chunks == NULL);
  hr_arena_release(&a);
  CHECK(a.spare == NULL);
}

TEST(strbuf_appends_and_formats) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  for (int i = 0; i < 1000; i++) hr_strbuf_printf(&sb, "%d,", i);
  CHECK(sb.len > 2000);
  CHECK(strncmp(sb.data, "0,1,2,", 6) == 0);
  CHECK(hr_strbuf_status(&sb) == NULL);
  hr_strbuf_free(&sb);
}

TEST(file_round_trip_and_limits) {
  char path[] = "/tmp/hlorun_test_fileXXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  CHECK_OK(hr_write_file(path, "abcdef", 6));
  char *data;
  size_t len;
  CHECK_OK(hr_read_file(path, hr_default_allocator(), 100, &data, &len));
  CHECK_EQ_INT(len, 6);
  CHECK(memcmp(data, "abcdef", 7) == 0); /* NUL-terminated */
  hr_default_allocator()->free(NULL, data);
  hr_status s = hr_read_file(path, hr_default_allocator(), 3, &data, &len);
  CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
  hr_status_free(s);
  unlink(path);
  s = hr_read_file(path, hr_default_allocator(), 100, &data, &len);
  CHECK_EQ_INT(hr_status_code(s), HR_NOT_FOUND);
  hr_status_free(s);
}

TEST(tensor_sizes_are_checked) {
  hr_shape shape = {2, {3, 4}};
  hr_tensor *t;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &shape, 0, &t));
  CHECK_EQ_INT(t->nbytes, 48);
  CHECK_EQ_INT(hr_tensor_num_elements(t), 12);
  hr_tensor_free(t);
  hr_shape huge = {3, {INT64_MAX / 2, 4, 4}};
  hr_status s = hr_tensor_create(NULL, HR_F32, &huge, 0, &t);
  CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
  hr_status_free(s);
  hr_shape big = {1, {1000}};
  s = hr_tensor_create(NULL, HR_F64, &big, 1000, &t);
  CHECK_EQ_INT(hr_status_code(s), HR_RESOURCE_EXHAUSTED);
  hr_status_free(s);
  hr_shape dyn = {1, {HR_DYNAMIC}};
  s = hr_tensor_create(NULL, HR_F32, &dyn, 0, &t);
  CHECK(s != NULL);
  hr_status_free(s);
}

TEST(dtype_properties) {
  CHECK(strcmp(hr_dtype_name(HR_C64), "complex<f32>") == 0);
  CHECK_EQ_INT(hr_dtype_size(HR_C128), 16);
  CHECK_EQ_INT(hr_dtype_size(HR_I4), 1);
  CHECK_EQ_INT(hr_dtype_bits(HR_I4), 4);
  CHECK(hr_dtype_is_float(HR_BF16) && !hr_dtype_is_float(HR_C64));
  CHECK(hr_dtype_is_signed_int(HR_I2) && !hr_dtype_is_signed_int(HR_I1));
  CHECK(hr_dtype_is_unsigned_int(HR_U64));
}

typedef struct sum_ctx {
  atomic_llong sum;
  atomic_int calls;
} sum_ctx;

static void sum_range(void *ctx, int64_t begin, int64_t end, int worker) {
  sum_ctx *c = ctx;
  long long s = 0;
  for (int64_t i = begin; i < end; i++) s += i;
  atomic_fetch_add(&c->sum, s);
  atomic_fetch_add(&c->calls, 1);
}

TEST(threadpool_covers_every_item_once) {
  hr_threadpool *pool;
  CHECK_OK(hr_threadpool_create(NULL, 4, &pool));
  CHECK_EQ_INT(hr_threadpool_size(pool), 4);
  for (int round = 0; round < 50; round++) {
    sum_ctx c;
    atomic_init(&c.sum, 0);
    atomic_init(&c.calls, 0);
    int64_t n = 1000 + round * 37;
    hr_parallel_for(pool, n, 7, sum_range, &c);
    CHECK_EQ_INT(atomic_load(&c.sum), n * (n - 1) / 2);
  }
  hr_threadpool_free(pool);
  sum_ctx c;
  atomic_init(&c.sum, 0);
  atomic_init(&c.calls, 0);
  hr_parallel_for(NULL, 10, 1, sum_range, &c); /* serial without a pool */
  CHECK_EQ_INT(atomic_load(&c.sum), 45);
  CHECK_EQ_INT(atomic_load(&c.calls), 1);
}

/* Back-to-back tiny jobs: each must see exactly its own items even when workers arrive late
 * (they are still busy with, or waking up for, an earlier job). */
TEST(threadpool_back_to_back_jobs) {
  hr_threadpool *pool;
  CHECK_OK(hr_threadpool_create(NULL, 3, &pool));
  int bad = 0;
  for (int round = 0; round < 20000; round++) {
    sum_ctx c;
    atomic_init(&c.sum, 0);
    atomic_init(&c.calls, 0);
    int64_t n = 2 + round % 7;
    hr_parallel_for(pool, n, 1, sum_range, &c);
    bad += atomic_load(&c.sum) != n * (n - 1) / 2;
  }
  CHECK_EQ_INT(bad, 0);
  hr_threadpool_free(pool);
}

/* Both CRCs against their published check values, and continued over a split input. */
TEST(crcs_match_their_check_values) {
  CHECK_EQ_INT(hr_crc32(0, "123456789", 9), 0xCBF43926u);
  CHECK_EQ_INT(hr_crc32(0, "", 0), 0);
  const char *text = "The quick brown fox jumps over the lazy dog";
  CHECK_EQ_INT(hr_crc32(0, text, strlen(text)), 0x414FA339u);
  CHECK_EQ_INT(hr_crc32(hr_crc32(0, text, 13), text + 13, strlen(text) - 13), 0x414FA339u);
  CHECK_EQ_INT(hr_crc32c(0, "123456789", 9), 0xE3069283u);
  CHECK_EQ_INT(hr_crc32c(0, "", 0), 0);
  CHECK_EQ_INT(hr_crc32c(0, text, strlen(text)), 0x22620404u);
  CHECK_EQ_INT(hr_crc32c(hr_crc32c(0, text, 13), text + 13, strlen(text) - 13), 0x22620404u);
}

int main(void) {
  RUN(status_carries_code_and_message);
  RUN(crcs_match_their_check_values);
  RUN(arena_aligns_and_grows);
  RUN(arena_rewinds_and_reuses_chunks);
  RUN(strbuf_appends_and_formats);
  RUN(file_round_trip_and_limits);
  RUN(tensor_sizes_are_checked);
  RUN(dtype_properties);
  RUN(threadpool_covers_every_item_once);
  RUN(threadpool_back_to_back_jobs);
  TEST_MAIN_END();
}

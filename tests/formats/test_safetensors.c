/* Tests for .safetensors dtypes: the 8-bit float dtypes written and read back as hlorun's types,
 * the packed sub-byte dtypes (F4, F6_*) refused by name, types safetensors has no name for refused
 * on write. */
#include <unistd.h>

#include "base/weights.h"
#include "test.h"

/* Writes a safetensors file holding one tensor `name` of safetensors dtype `dtype`, shape [n],
 * with `nbytes` payload bytes. */
static void write_raw(const char *path, const char *dtype, int n, const void *payload, size_t nbytes) {
  char header[256];
  int len = snprintf(header, sizeof header, "{\"x\":{\"dtype\":\"%s\",\"shape\":[%d],\"data_offsets\":[0,%zu]}}",
                     dtype, n, nbytes);
  while (len % 8) header[len++] = ' '; /* keep the data 8-byte aligned */
  unsigned char prefix[8] = {(unsigned char)len};
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  fwrite(prefix, 1, 8, f);
  fwrite(header, 1, (size_t)len, f);
  fwrite(payload, 1, nbytes, f);
  fclose(f);
}

TEST(float8_dtypes_round_trip) {
  static const struct {
    const char *name;
    hr_dtype dtype;
  } cases[] = {{"F8_E5M2", HR_F8E5M2}, {"F8_E4M3", HR_F8E4M3FN}, {"F8_E8M0", HR_F8E8M0FNU}};
  char path[] = "/tmp/hlorun_stXXXXXX";
  int fd = mkstemp(path);
  close(fd);
  unsigned char bytes[4] = {0x38, 0x40, 0xb8, 0x7f};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    write_raw(path, cases[k].name, 4, bytes, 4);
    hr_weights *w = NULL;
    CHECK_OK(hr_safetensors_read_file(path, NULL, 0, &w));
    const hr_tensor *t = w ? hr_weights_find(w, "x") : NULL;
    CHECK(t != NULL);
    if (t) {
      CHECK_EQ_INT(t->dtype, cases[k].dtype);
      CHECK(t->nbytes == 4 && memcmp(t->data, bytes, 4) == 0);
    }
    /* written back under the same name */
    char path2[] = "/tmp/hlorun_stXXXXXX";
    fd = mkstemp(path2);
    close(fd);
    if (w) CHECK_OK(hr_safetensors_write_file(w, path2));
    hr_weights_free(w);
    w = NULL;
    CHECK_OK(hr_safetensors_read_file(path2, NULL, 0, &w));
    t = w ? hr_weights_find(w, "x") : NULL;
    CHECK(t != NULL && t->dtype == cases[k].dtype && memcmp(t->data, bytes, 4) == 0);
    hr_weights_free(w);
    unlink(path2);
  }
  unlink(path);
}

TEST(packed_dtypes_are_refused_by_name) {
  const char *names[] = {"F4", "F6_E2M3", "F6_E3M2"};
  char path[] = "/tmp/hlorun_stXXXXXX";
  int fd = mkstemp(path);
  close(fd);
  unsigned char bytes[3] = {0x21, 0x43, 0x65};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
    write_raw(path, names[k], k == 0 ? 6 : 4, bytes, 3);
    hr_weights *w = NULL;
    hr_status s = hr_safetensors_read_file(path, NULL, 0, &w);
    CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
    CHECK(w == NULL && s && strstr(hr_status_message(s), names[k]) != NULL);
    hr_status_free(s);
  }
  unlink(path);
}

TEST(types_without_a_name_are_refused_on_write) {
  hr_weights *w = NULL;
  CHECK_OK(hr_weights_create(NULL, 1, NULL, 0, NULL, &w));
  hr_shape shape = {1, {2}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F8E4M3FNUZ, &shape, 0, &t));
  if (!w || !t) return;
  CHECK_OK(hr_weights_add_tensor(w, "fnuz", t));
  char path[] = "/tmp/hlorun_stXXXXXX";
  int fd = mkstemp(path);
  close(fd);
  hr_status s = hr_safetensors_write_file(w, path);
  CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
  CHECK(s && strstr(hr_status_message(s), "f8E4M3FNUZ") != NULL);
  hr_status_free(s);
  hr_weights_free(w);
  unlink(path);
}

int main(void) {
  RUN(float8_dtypes_round_trip);
  RUN(packed_dtypes_are_refused_by_name);
  RUN(types_without_a_name_are_refused_on_write);
  TEST_MAIN_END();
}

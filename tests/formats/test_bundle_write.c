/* hr_bundle_write (src/formats/savedmodel/bundle_write.c): weights of several types written as a
 * TensorBundle read back equal through hr_bundle_open (which checks the table, its block CRCs and
 * each entry's CRC), keys in byte order; a type TensorFlow lacks is refused. */
#include <stdlib.h>
#include <unistd.h>

#include "base/weights.h"
#include "formats/savedmodel/bundle.h"
#include "test.h"

/* A weight set of `n` tensors named names[i], of dtypes[i] and shape [i + 1], filled with a pattern. */
static hr_weights *make_weights(const char *const *names, const hr_dtype *dtypes, int n) {
  hr_weights *w = NULL;
  CHECK_OK(hr_weights_create(NULL, n, NULL, 0, NULL, &w));
  for (int i = 0; w && i < n; i++) {
    hr_shape shape = {.rank = 1, .dims = {i + 1}};
    hr_tensor *t = NULL;
    CHECK_OK(hr_tensor_create(NULL, dtypes[i], &shape, 0, &t));
    for (size_t b = 0; t && b < t->nbytes; b++) ((unsigned char *)t->data)[b] = (unsigned char)(b * 7 + (size_t)i);
    if (t) CHECK_OK(hr_weights_add_tensor(w, names[i], t));
  }
  return w;
}

TEST(weights_round_trip) {
  char dir[] = "/tmp/hlorun_bundle_write_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char prefix[64], path[96];
  snprintf(prefix, sizeof prefix, "%s/variables", dir);
  static const char *const names[] = {"zeta/kernel", "alpha", "mid/bias", "Upper"};
  static const hr_dtype dtypes[] = {HR_F32, HR_I64, HR_BF16, HR_I1};
  hr_weights *w = make_weights(names, dtypes, 4);
  CHECK_OK(hr_bundle_write(prefix, w, NULL, 0));
  hr_bundle *b = NULL;
  CHECK_OK(hr_bundle_open(prefix, NULL, &b));
  CHECK_EQ_INT(b ? hr_bundle_count(b) : 0, 4);
  for (int i = 0; b && i + 1 < hr_bundle_count(b); i++) CHECK(strcmp(hr_bundle_at(b, i)->key, hr_bundle_at(b, i + 1)->key) < 0);
  for (int i = 0; b && i < 4; i++) {
    const hr_bundle_entry *e = hr_bundle_find(b, names[i]);
    const hr_tensor *t = hr_weights_find(w, names[i]);
    CHECK(e && t && e->dtype == t->dtype && e->shape.rank == 1 && e->shape.dims[0] == i + 1 && e->nbytes == t->nbytes &&
          memcmp(e->data, t->data, t->nbytes) == 0);
  }
  hr_bundle_close(b);
  hr_weights_free(w);
  /* a type TensorFlow has no DataType for */
  static const char *const tf32_name[] = {"x"};
  static const hr_dtype tf32[] = {HR_TF32};
  w = make_weights(tf32_name, tf32, 1);
  hr_status s = hr_bundle_write(prefix, w, NULL, 0);
  CHECK(s && hr_status_code(s) == HR_UNIMPLEMENTED);
  hr_status_free(s);
  hr_weights_free(w);
  snprintf(path, sizeof path, "%s.index", prefix);
  unlink(path);
  snprintf(path, sizeof path, "%s.data-00000-of-00001", prefix);
  unlink(path);
  rmdir(dir);
}

int main(void) {
  RUN(weights_round_trip);
  TEST_MAIN_END();
}

/* Tests for the 16-bit float conversions: exhaustive round trips and rounding ties. */
#include <math.h>

#include "base/numeric.h"
#include "test.h"

TEST(f16_round_trips_every_pattern) {
  int bad = 0;
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = hr_f16_to_f32((uint16_t)h);
    uint16_t back = hr_f32_to_f16(f);
    if (isnan(f)) {
      bad += (back & 0x7c00) != 0x7c00 || (back & 0x3ff) == 0;
    } else {
      bad += back != h;
      bad += hr_f64_to_f16((double)f) != h;
    }
  }
  CHECK_EQ_INT(bad, 0);
}

TEST(f16_rounds_to_nearest_even) {
  CHECK_EQ_INT(hr_f32_to_f16(1.0f), 0x3c00);
  CHECK_EQ_INT(hr_f32_to_f16(65504.0f), 0x7bff);
  CHECK_EQ_INT(hr_f32_to_f16(65520.0f), 0x7c00);      /* rounds up to infinity */
  CHECK_EQ_INT(hr_f32_to_f16(65519.0f), 0x7bff);
  CHECK_EQ_INT(hr_f32_to_f16(1.0f + 0x1p-11f), 0x3c00); /* tie to even (down) */
  CHECK_EQ_INT(hr_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3c02); /* tie to even (up) */
  CHECK_EQ_INT(hr_f32_to_f16(0x1p-25f), 0x0000);      /* half of the smallest subnormal: to even 0 */
  CHECK_EQ_INT(hr_f32_to_f16(0x1.8p-25f), 0x0001);
  CHECK_EQ_INT(hr_f32_to_f16(-0.0f), 0x8000);
  CHECK_EQ_INT(hr_f32_to_f16(-INFINITY), 0xfc00);
}

TEST(bf16_rounds_to_nearest_even) {
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = hr_bf16_to_f32((uint16_t)h);
    if (isnan(f)) continue;
    CHECK_EQ_INT(hr_f32_to_bf16(f), h);
    CHECK_EQ_INT(hr_f64_to_bf16((double)f), h);
  }
  CHECK_EQ_INT(hr_f32_to_bf16(1.0f + 0x1p-8f), 0x3f80);      /* tie to even */
  CHECK_EQ_INT(hr_f32_to_bf16(1.0f + 3 * 0x1p-8f), 0x3f82);
  CHECK(isnan(hr_bf16_to_f32(hr_f32_to_bf16(NAN))));
  /* f64 -> bf16 must not double-round through f32. */
  double x = 1.0 + 0x1p-8 + 0x1p-40;
  CHECK_EQ_INT(hr_f64_to_bf16(x), 0x3f81);
}

int main(void) {
  RUN(f16_round_trips_every_pattern);
  RUN(f16_rounds_to_nearest_even);
  RUN(bf16_rounds_to_nearest_even);
  TEST_MAIN_END();
}

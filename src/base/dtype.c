/* Element type properties. */
#include "hlorun/hlorun.h"

typedef struct dtype_info {
  const char *name;
  unsigned char size;
  unsigned char bits;
} dtype_info;

static const dtype_info infos[HR_DTYPE_COUNT] = {
    [HR_DTYPE_INVALID] = {"<invalid>", 0, 0},
    [HR_I1] = {"i1", 1, 1},          [HR_I2] = {"i2", 1, 2},
    [HR_I4] = {"i4", 1, 4},          [HR_I8] = {"i8", 1, 8},
    [HR_I16] = {"i16", 2, 16},       [HR_I32] = {"i32", 4, 32},
    [HR_I64] = {"i64", 8, 64},       [HR_U2] = {"ui2", 1, 2},
    [HR_U4] = {"ui4", 1, 4},         [HR_U8] = {"ui8", 1, 8},
    [HR_U16] = {"ui16", 2, 16},      [HR_U32] = {"ui32", 4, 32},
    [HR_U64] = {"ui64", 8, 64},      [HR_F16] = {"f16", 2, 16},
    [HR_BF16] = {"bf16", 2, 16},     [HR_F32] = {"f32", 4, 32},
    [HR_F64] = {"f64", 8, 64},       [HR_C64] = {"complex<f32>", 8, 64},
    [HR_C128] = {"complex<f64>", 16, 128},
    [HR_F8E4M3FN] = {"f8E4M3FN", 1, 8},       [HR_F8E5M2] = {"f8E5M2", 1, 8},
    [HR_F8E4M3FNUZ] = {"f8E4M3FNUZ", 1, 8},   [HR_F8E5M2FNUZ] = {"f8E5M2FNUZ", 1, 8},
    [HR_F8E4M3B11FNUZ] = {"f8E4M3B11FNUZ", 1, 8}, [HR_F8E3M4] = {"f8E3M4", 1, 8},
    [HR_F8E4M3] = {"f8E4M3", 1, 8},           [HR_F8E8M0FNU] = {"f8E8M0FNU", 1, 8},
    [HR_F4E2M1FN] = {"f4E2M1FN", 1, 4},       [HR_F6E2M3FN] = {"f6E2M3FN", 1, 6},
    [HR_F6E3M2FN] = {"f6E3M2FN", 1, 6},       [HR_TF32] = {"tf32", 4, 19},
    [HR_INDEX] = {"index", 8, 64},
};

static int valid(hr_dtype t) { return t > HR_DTYPE_INVALID && t < HR_DTYPE_COUNT; }

const char *hr_dtype_name(hr_dtype t) { return valid(t) ? infos[t].name : "<invalid>"; }
size_t hr_dtype_size(hr_dtype t) { return valid(t) ? infos[t].size : 0; }
int hr_dtype_bits(hr_dtype t) { return valid(t) ? infos[t].bits : 0; }
bool hr_dtype_is_float(hr_dtype t) { return t == HR_F16 || t == HR_BF16 || t == HR_F32 || t == HR_F64; }
bool hr_dtype_is_narrow_float(hr_dtype t) { return t >= HR_F8E4M3FN && t <= HR_TF32; }
bool hr_dtype_is_complex(hr_dtype t) { return t == HR_C64 || t == HR_C128; }
bool hr_dtype_is_signed_int(hr_dtype t) { return t >= HR_I2 && t <= HR_I64; }
bool hr_dtype_is_unsigned_int(hr_dtype t) { return t >= HR_U2 && t <= HR_U64; }

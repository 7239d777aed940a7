/* TensorFlow's DataType numbers (tf_types.h), from tensorflow/core/framework/types.proto: 0-19
 * since TF 1.0, RESOURCE 20 to UINT64 23, the float8 types 24-28, INT4 29, UINT4 30, INT2 31,
 * UINT2 32, FLOAT4_E2M1FN 33. Narrow types (int4, int2, float8, float4) take one byte an element in
 * TF's tensors, as in hlorun's. */
#include "formats/savedmodel/tf_types.h"

/* One DataType: its name, its element size as stored (0: not fixed) and its hr_dtype (or
 * HR_DTYPE_INVALID). */
typedef struct tf_type_info {
  const char *name;
  unsigned char size;
  hr_dtype dtype;
} tf_type_info;

/* Indexed by DataType number. */
static const tf_type_info types[] = {
    [0] = {"DT_INVALID", 0, HR_DTYPE_INVALID},
    [1] = {"DT_FLOAT", 4, HR_F32},
    [2] = {"DT_DOUBLE", 8, HR_F64},
    [3] = {"DT_INT32", 4, HR_I32},
    [4] = {"DT_UINT8", 1, HR_U8},
    [5] = {"DT_INT16", 2, HR_I16},
    [6] = {"DT_INT8", 1, HR_I8},
    [7] = {"DT_STRING", 0, HR_DTYPE_INVALID},
    [8] = {"DT_COMPLEX64", 8, HR_C64},
    [9] = {"DT_INT64", 8, HR_I64},
    [10] = {"DT_BOOL", 1, HR_I1},
    [11] = {"DT_QINT8", 1, HR_DTYPE_INVALID},
    [12] = {"DT_QUINT8", 1, HR_DTYPE_INVALID},
    [13] = {"DT_QINT32", 4, HR_DTYPE_INVALID},
    [14] = {"DT_BFLOAT16", 2, HR_BF16},
    [15] = {"DT_QINT16", 2, HR_DTYPE_INVALID},
    [16] = {"DT_QUINT16", 2, HR_DTYPE_INVALID},
    [17] = {"DT_UINT16", 2, HR_U16},
    [18] = {"DT_COMPLEX128", 16, HR_C128},
    [19] = {"DT_HALF", 2, HR_F16},
    [20] = {"DT_RESOURCE", 0, HR_DTYPE_INVALID},
    [21] = {"DT_VARIANT", 0, HR_DTYPE_INVALID},
    [22] = {"DT_UINT32", 4, HR_U32},
    [23] = {"DT_UINT64", 8, HR_U64},
    [24] = {"DT_FLOAT8_E5M2", 1, HR_F8E5M2},
    [25] = {"DT_FLOAT8_E4M3FN", 1, HR_F8E4M3FN},
    [26] = {"DT_FLOAT8_E4M3FNUZ", 1, HR_F8E4M3FNUZ},
    [27] = {"DT_FLOAT8_E4M3B11FNUZ", 1, HR_F8E4M3B11FNUZ},
    [28] = {"DT_FLOAT8_E5M2FNUZ", 1, HR_F8E5M2FNUZ},
    [29] = {"DT_INT4", 1, HR_I4},
    [30] = {"DT_UINT4", 1, HR_U4},
    [31] = {"DT_INT2", 1, HR_I2},
    [32] = {"DT_UINT2", 1, HR_U2},
    [33] = {"DT_FLOAT4_E2M1FN", 1, HR_F4E2M1FN},
};

enum { N_TYPES = (int)(sizeof types / sizeof types[0]) };

/* The entry of DataType `tf`, or NULL when TF defines no such number. */
static const tf_type_info *info(int tf) { return tf >= 0 && tf < N_TYPES ? &types[tf] : NULL; }

bool hr_tf_dtype_to_hr(int tf, hr_dtype *out) {
  const tf_type_info *t = info(tf);
  *out = t ? t->dtype : HR_DTYPE_INVALID;
  return *out != HR_DTYPE_INVALID;
}

int hr_tf_dtype_from_hr(hr_dtype t) {
  for (int tf = 1; tf < N_TYPES; tf++)
    if (t != HR_DTYPE_INVALID && types[tf].dtype == t) return tf;
  return HR_TF_DT_INVALID;
}

const char *hr_tf_dtype_name(int tf) {
  const tf_type_info *t = info(tf);
  return t ? t->name : NULL;
}

size_t hr_tf_dtype_size(int tf) {
  const tf_type_info *t = info(tf);
  return t ? t->size : 0;
}

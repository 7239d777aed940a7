/* Element type names of numpy / ml_dtypes / zarr v3 (see dtypes_internal.h). */
#include <string.h>

#include "formats/orbax/dtypes_internal.h"

static const struct {
  const char *name;
  hr_dtype dtype;
} ob_names[] = {
    {"bool", HR_I1},        {"int2", HR_I2},         {"int4", HR_I4},       {"int8", HR_I8},
    {"int16", HR_I16},      {"int32", HR_I32},       {"int64", HR_I64},     {"uint2", HR_U2},
    {"uint4", HR_U4},       {"uint8", HR_U8},
    {"uint16", HR_U16},     {"uint32", HR_U32},      {"uint64", HR_U64},    {"float16", HR_F16},
    {"bfloat16", HR_BF16},  {"float32", HR_F32},     {"float64", HR_F64},   {"complex64", HR_C64},
    {"complex128", HR_C128},
};

hr_dtype ob_dtype_by_name(const char *name) {
  for (size_t i = 0; i < sizeof ob_names / sizeof ob_names[0]; i++)
    if (strcmp(ob_names[i].name, name) == 0) return ob_names[i].dtype;
  return HR_DTYPE_INVALID;
}

bool ob_dtype_is_unsupported(const char *name) {
  return strncmp(name, "float8_", 7) == 0 || strncmp(name, "float6_", 7) == 0 || strncmp(name, "float4_", 7) == 0 ||
         (name[0] == 'r' && name[1] >= '1' && name[1] <= '9');
}

void ob_normalize(hr_dtype t, void *data, size_t n) {
  unsigned char *p = data;
  int shift = t == HR_I2 ? 6 : t == HR_I4 ? 4 : 0;
  if (t == HR_I1)
    for (size_t i = 0; i < n; i++) p[i] = p[i] != 0;
  else if (shift)
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)((signed char)(unsigned char)(p[i] << shift) >> shift);
  else if (t == HR_U2 || t == HR_U4)
    for (size_t i = 0; i < n; i++) p[i] &= t == HR_U2 ? 3 : 15;
}

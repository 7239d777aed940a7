/* KServe v2 tensor types (kserve_types.h). */
#include "server/kserve_types.h"

#include <stdbool.h>
#include <string.h>

/* One KServe datatype and the element type it names. */
typedef struct datatype {
  const char *name;
  hr_dtype dtype;
} datatype;

/* Every KServe datatype with an hr_dtype (BYTES has none). */
static const datatype kDatatypes[] = {
    {"BOOL", HR_I1},    {"UINT8", HR_U8},  {"UINT16", HR_U16}, {"UINT32", HR_U32}, {"UINT64", HR_U64},
    {"INT8", HR_I8},    {"INT16", HR_I16}, {"INT32", HR_I32},  {"INT64", HR_I64},  {"FP16", HR_F16},
    {"BF16", HR_BF16},  {"FP32", HR_F32},  {"FP64", HR_F64},
};

enum { N_DATATYPES = (int)(sizeof kDatatypes / sizeof kDatatypes[0]) };

const char *srv_kserve_datatype_name(hr_dtype t) {
  if (t == HR_INDEX) t = HR_I64;
  for (int i = 0; i < N_DATATYPES; i++)
    if (kDatatypes[i].dtype == t) return kDatatypes[i].name;
  return NULL;
}

hr_status srv_kserve_datatype_parse(const char *name, size_t len, hr_dtype *out) {
  for (int i = 0; i < N_DATATYPES; i++)
    if (strlen(kDatatypes[i].name) == len && memcmp(kDatatypes[i].name, name, len) == 0) {
      *out = kDatatypes[i].dtype;
      return NULL;
    }
  if (len == 5 && memcmp(name, "BYTES", 5) == 0)
    return hr_error(HR_UNIMPLEMENTED, "datatype BYTES is not supported: hlorun serves no model taking strings");
  return hr_error(HR_INVALID_ARGUMENT, "invalid datatype '%.*s'", (int)(len < 64 ? len : 64), name);
}

size_t srv_kserve_element_size(hr_dtype t) { return srv_kserve_datatype_name(t) ? hr_dtype_size(t) : 0; }

hr_status srv_kserve_shape(const char *tensor, const int64_t *dims, int rank, int64_t max_elements, hr_shape *out,
                           int64_t *elements) {
  if (rank < 0 || rank > HR_MAX_RANK)
    return hr_error(HR_INVALID_ARGUMENT, "tensor '%s': shape has %d dimensions, at most %d are supported", tensor,
                    rank, HR_MAX_RANK);
  memset(out, 0, sizeof *out);
  out->rank = rank;
  bool empty = false;
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0)
      return hr_error(HR_INVALID_ARGUMENT, "tensor '%s': shape dimension %d is %lld, not >= 0", tensor, d,
                      (long long)dims[d]);
    out->dims[d] = dims[d];
    empty = empty || dims[d] == 0;
  }
  int64_t n = 1;
  for (int d = 0; !empty && d < rank; d++) {
    if (dims[d] > max_elements / n)
      return hr_error(HR_INVALID_ARGUMENT,
                      "tensor '%s': shape holds more than %lld elements (--max_tensor_elements)", tensor,
                      (long long)max_elements);
    n *= dims[d];
  }
  *elements = empty ? 0 : n;
  return NULL;
}

hr_status srv_kserve_byte_size(const char *tensor, hr_dtype t, int64_t elements, size_t *out) {
  size_t size = srv_kserve_element_size(t);
  if (size == 0)
    return hr_error(HR_INVALID_ARGUMENT, "tensor '%s': element type %s has no KServe datatype", tensor,
                    hr_dtype_name(t));
  if (elements < 0 || (uint64_t)elements > SIZE_MAX / size)
    return hr_error(HR_INVALID_ARGUMENT, "tensor '%s': %lld elements of %s overflow a byte count", tensor,
                    (long long)elements, srv_kserve_datatype_name(t));
  *out = (size_t)elements * size;
  return NULL;
}

hr_status srv_kserve_tensor_from_raw(const char *tensor, hr_dtype t, const hr_shape *shape, const void *bytes,
                                     size_t len, hr_tensor **out) {
  int64_t elements;
  HR_TRY(hr_shape_num_elements(shape, &elements));
  size_t want;
  HR_TRY(srv_kserve_byte_size(tensor, t, elements, &want));
  if (len != want)
    return hr_error(HR_INVALID_ARGUMENT, "tensor '%s': %zu bytes of raw data given, its shape and datatype %s need %zu",
                    tensor, len, srv_kserve_datatype_name(t), want);
  HR_TRY(hr_tensor_create(NULL, t, shape, 0, out));
  if (want) memcpy((*out)->data, bytes, want);
  if (t == HR_I1) {
    unsigned char *p = (*out)->data;
    for (size_t i = 0; i < want; i++) p[i] = p[i] != 0;
  }
  return NULL;
}

/* .safetensors files: an 8-byte little-endian header length, a JSON header mapping tensor names to
 * {dtype, shape, data_offsets}, then the raw little-endian data. The file is mapped and tensors
 * point into the mapping; a file whose data section is not 8-byte aligned is copied into an
 * aligned heap buffer instead.
 *
 * The 8-bit float dtypes are PyTorch's: F8_E5M2 <-> f8E5M2, F8_E4M3 <-> f8E4M3FN (float8_e4m3fn),
 * F8_E8M0 <-> f8E8M0FNU (float8_e8m0fnu), one byte each. F4 and F6_E2M3/F6_E3M2 pack their 4- and
 * 6-bit elements into bytes, while hlorun holds one element per byte: they are refused, by name. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/limits.h"
#include "base/mapping.h"
#include "base/weights.h"
#include "hlorun/hlorun.h"

static const struct {
  const char *name;
  hr_dtype dtype;
} st_dtypes[] = {
    {"BOOL", HR_I1},   {"I8", HR_I8},   {"I16", HR_I16}, {"I32", HR_I32}, {"I64", HR_I64},
    {"U8", HR_U8},     {"U16", HR_U16}, {"U32", HR_U32}, {"U64", HR_U64}, {"F16", HR_F16},
    {"BF16", HR_BF16}, {"F32", HR_F32}, {"F64", HR_F64}, {"C64", HR_C64},
    {"F8_E5M2", HR_F8E5M2}, {"F8_E4M3", HR_F8E4M3FN}, {"F8_E8M0", HR_F8E8M0FNU},
};

/* Whether `name` is one of safetensors' bit-packed sub-byte dtypes. */
static bool is_packed_dtype(const char *name) {
  return strcmp(name, "F4") == 0 || strcmp(name, "F6_E2M3") == 0 || strcmp(name, "F6_E3M2") == 0;
}

/* The safetensors name of an hlorun type, or NULL. */
static const char *name_of(hr_dtype t) {
  for (size_t i = 0; i < sizeof st_dtypes / sizeof st_dtypes[0]; i++)
    if (st_dtypes[i].dtype == t) return st_dtypes[i].name;
  return NULL;
}

static hr_dtype dtype_of(const char *name) {
  for (size_t i = 0; i < sizeof st_dtypes / sizeof st_dtypes[0]; i++)
    if (strcmp(st_dtypes[i].name, name) == 0) return st_dtypes[i].dtype;
  return HR_DTYPE_INVALID;
}

/* Validates one header entry and adds it to `w` as a view into `data`. */
static hr_status add_entry(const char *path, const char *name, json_t *info, unsigned char *data, size_t data_len,
                           hr_weights *w) {
  json_t *dtype = json_object_get(info, "dtype"), *shape = json_object_get(info, "shape");
  json_t *offsets = json_object_get(info, "data_offsets");
  if (!json_is_string(dtype) || !json_is_array(shape) || !json_is_array(offsets) || json_array_size(offsets) != 2)
    return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': malformed header entry", path, name);
  hr_dtype t = dtype_of(json_string_value(dtype));
  if (is_packed_dtype(json_string_value(dtype)))
    return hr_error(HR_UNIMPLEMENTED,
                    "%s: tensor '%s': dtype %s packs several elements per byte, which hlorun does not read "
                    "(it holds f4/f6 values one per byte)", path, name, json_string_value(dtype));
  if (t == HR_DTYPE_INVALID)
    return hr_error(HR_UNIMPLEMENTED, "%s: tensor '%s': dtype %s is not supported", path, name, json_string_value(dtype));
  if (json_array_size(shape) > HR_MAX_RANK)
    return hr_error(HR_UNIMPLEMENTED, "%s: tensor '%s': rank above %d", path, name, HR_MAX_RANK);
  hr_shape s = {.rank = (int)json_array_size(shape)};
  for (int i = 0; i < s.rank; i++) {
    json_t *d = json_array_get(shape, (size_t)i);
    if (!json_is_integer(d) || json_integer_value(d) < 0)
      return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': bad shape", path, name);
    s.dims[i] = json_integer_value(d);
  }
  int64_t count;
  hr_status st = hr_shape_num_elements(&s, &count);
  if (st) return hr_status_wrap(st, "%s: tensor '%s'", path, name);
  json_t *b = json_array_get(offsets, 0), *e = json_array_get(offsets, 1);
  if (!json_is_integer(b) || !json_is_integer(e) || json_integer_value(b) < 0 ||
      json_integer_value(e) < json_integer_value(b) || (uint64_t)json_integer_value(e) > data_len)
    return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': data offsets outside the file", path, name);
  size_t begin = (size_t)json_integer_value(b), end = (size_t)json_integer_value(e);
  size_t esize = hr_dtype_size(t);
  if ((uint64_t)count > (end - begin) / esize || (size_t)count * esize != end - begin)
    return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': %zu data bytes do not match its shape", path, name, end - begin);
  if (begin % esize != 0)
    return hr_error(HR_UNIMPLEMENTED, "%s: tensor '%s': data is not aligned to its element size", path, name);
  return hr_weights_add(w, name, t, &s, data + begin, end - begin);
}

static void free_heap_copy(void *data, size_t len) {
  (void)len;
  hr_default_allocator()->free(NULL, data);
}

hr_status hr_safetensors_read_file(const char *path, const hr_allocator *a, size_t max_bytes, hr_weights **out) {
  *out = NULL;
  if (!max_bytes) max_bytes = HR_LIMIT_SAFETENSORS_BYTES;
  void *map;
  size_t len;
  HR_TRY(hr_map_file(path, max_bytes + HR_LIMIT_SAFETENSORS_HEADER_BYTES + 8, &map, &len));
  const unsigned char *raw = map;
  uint64_t hlen = 0;
  if (len < 8) {
    hr_unmap_file(map, len);
    return hr_error(HR_PARSE_ERROR, "%s: too short for a safetensors file", path);
  }
  for (int i = 7; i >= 0; i--) hlen = hlen << 8 | raw[i];
  if (hlen > HR_LIMIT_SAFETENSORS_HEADER_BYTES || hlen > len - 8) {
    hr_unmap_file(map, len);
    return hr_error(HR_PARSE_ERROR, "%s: header length %llu is invalid", path, (unsigned long long)hlen);
  }
  json_error_t err;
  json_t *header = json_loadb((const char *)raw + 8, (size_t)hlen, JSON_REJECT_DUPLICATES, &err);
  if (!header || !json_is_object(header) || json_object_size(header) > HR_LIMIT_SAFETENSORS_TENSORS) {
    json_decref(header);
    hr_unmap_file(map, len);
    return hr_error(HR_PARSE_ERROR, "%s: header is not a JSON object of at most %d tensors (%s)", path,
                    HR_LIMIT_SAFETENSORS_TENSORS, header ? "" : err.text);
  }
  /* Keep the mapping when the data section is 8-byte aligned, else copy it to an aligned buffer. */
  size_t data_len = len - 8 - (size_t)hlen;
  unsigned char *data = (unsigned char *)map + 8 + hlen;
  void *backing = map;
  size_t backing_len = len;
  hr_backing_release_fn release = hr_unmap_file;
  if ((8 + hlen) % 8 != 0) {
    void *copy = hr_default_allocator()->alloc(NULL, data_len ? data_len : 1, 64);
    if (copy && data_len) memcpy(copy, data, data_len);
    hr_unmap_file(map, len);
    if (!copy) {
      json_decref(header);
      return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    data = copy;
    backing = copy;
    backing_len = data_len;
    release = free_heap_copy;
  }
  hr_weights *w;
  hr_status s = hr_weights_create(a, (int)json_object_size(header), backing, backing_len, release, &w);
  const char *key;
  json_t *info;
  if (!s) {
    json_object_foreach(header, key, info) {
      if (strcmp(key, "__metadata__") == 0) continue;
      s = add_entry(path, key, info, data, data_len, w);
      if (s) break;
    }
  }
  json_decref(header);
  if (s) {
    if (w) hr_weights_free(w);
    return s;
  }
  *out = w;
  return NULL;
}

/* The header: one entry per tensor, data laid out in the set's order, padded with spaces to a
 * multiple of 8 bytes so that the data section (and each tensor, all sizes being multiples of
 * their element sizes) stays aligned when the file is mapped. */
static hr_status header_text(const hr_weights *w, char **text, size_t *len) {
  json_t *h = json_object();
  hr_status s = h ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  size_t offset = 0;
  for (int i = 0; !s && i < hr_weights_count(w); i++) {
    const hr_tensor *t = hr_weights_tensor(w, i);
    const char *dtype = name_of(t->dtype);
    if (!dtype) {
      s = hr_error(HR_UNIMPLEMENTED, "tensor '%s': safetensors has no %s", hr_weights_name(w, i), hr_dtype_name(t->dtype));
      break;
    }
    json_t *shape = json_array();
    for (int d = 0; shape && d < t->shape.rank; d++) json_array_append_new(shape, json_integer(t->shape.dims[d]));
    json_t *entry = json_pack("{s:s, s:o, s:[I, I]}", "dtype", dtype, "shape", shape, "data_offsets",
                              (json_int_t)offset, (json_int_t)(offset + t->nbytes));
    if (!entry || json_object_set_new(h, hr_weights_name(w, i), entry) != 0) s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
    offset += t->nbytes;
  }
  char *dumped = s ? NULL : json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(h);
  if (!s && !dumped) s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (s) return s;
  size_t n = strlen(dumped), padded = (n + 8 + 7) / 8 * 8 - 8; /* the 8-byte length word included */
  *text = malloc(8 + padded);
  if (!*text) {
    free(dumped);
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  for (int b = 0; b < 8; b++) (*text)[b] = (char)(((uint64_t)padded >> (8 * b)) & 0xFF);
  memcpy(*text + 8, dumped, n);
  memset(*text + 8 + n, ' ', padded - n);
  *len = 8 + padded;
  free(dumped);
  return NULL;
}

hr_status hr_safetensors_write_file(const hr_weights *w, const char *path) {
  if (!w || !path) return hr_error(HR_INVALID_ARGUMENT, "hr_safetensors_write_file: NULL argument");
  int n = hr_weights_count(w);
  const void **parts = malloc((size_t)(n + 1) * sizeof *parts);
  size_t *lens = malloc((size_t)(n + 1) * sizeof *lens);
  char *header = NULL;
  hr_status s = parts && lens ? header_text(w, &header, &lens[0]) : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!s) {
    parts[0] = header;
    for (int i = 0; i < n; i++) {
      parts[i + 1] = hr_weights_tensor(w, i)->data;
      lens[i + 1] = hr_weights_tensor(w, i)->nbytes;
    }
    s = hr_write_file_parts(path, parts, lens, n + 1);
  }
  free(header);
  free(parts);
  free(lens);
  return s ? hr_status_wrap(s, "%s", path) : NULL;
}

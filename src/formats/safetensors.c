/* .safetensors files: an 8-byte little-endian header length, a JSON header mapping tensor names to
 * {dtype, shape, data_offsets}, then the raw little-endian data. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "hlorun/hlorun.h"

#define DEFAULT_MAX_BYTES ((size_t)16 << 30)
enum { MAX_HEADER = 100 << 20, MAX_TENSORS = 1 << 20 };

struct hr_weights {
  const hr_allocator *allocator;
  int n;
  char **names;
  hr_tensor **tensors;
};

static const struct {
  const char *name;
  hr_dtype dtype;
} st_dtypes[] = {
    {"BOOL", HR_I1}, {"I8", HR_I8},   {"I16", HR_I16}, {"I32", HR_I32},   {"I64", HR_I64},
    {"U8", HR_U8},   {"U16", HR_U16}, {"U32", HR_U32}, {"U64", HR_U64},   {"F16", HR_F16},
    {"BF16", HR_BF16}, {"F32", HR_F32}, {"F64", HR_F64}, {"C64", HR_C64},
};

static hr_dtype dtype_of(const char *name) {
  for (size_t i = 0; i < sizeof st_dtypes / sizeof st_dtypes[0]; i++)
    if (strcmp(st_dtypes[i].name, name) == 0) return st_dtypes[i].dtype;
  return HR_DTYPE_INVALID;
}

void hr_weights_free(hr_weights *w) {
  if (!w) return;
  const hr_allocator *a = w->allocator;
  for (int i = 0; i < w->n; i++) {
    if (w->names) a->free(a->ctx, w->names[i]);
    if (w->tensors) hr_tensor_free(w->tensors[i]);
  }
  if (w->names) a->free(a->ctx, w->names);
  if (w->tensors) a->free(a->ctx, w->tensors);
  a->free(a->ctx, w);
}

int hr_weights_count(const hr_weights *w) { return w->n; }
const char *hr_weights_name(const hr_weights *w, int i) { return w->names[i]; }
const hr_tensor *hr_weights_tensor(const hr_weights *w, int i) { return w->tensors[i]; }

const hr_tensor *hr_weights_find(const hr_weights *w, const char *name) {
  for (int i = 0; i < w->n; i++)
    if (strcmp(w->names[i], name) == 0) return w->tensors[i];
  return NULL;
}

/* Parses one header entry into a tensor whose data is copied from the data section. */
static hr_status read_entry(const char *path, const char *name, json_t *info, const unsigned char *data,
                            size_t data_len, const hr_allocator *a, size_t max_bytes, hr_tensor **out) {
  json_t *dtype = json_object_get(info, "dtype"), *shape = json_object_get(info, "shape");
  json_t *offsets = json_object_get(info, "data_offsets");
  if (!json_is_string(dtype) || !json_is_array(shape) || !json_is_array(offsets) || json_array_size(offsets) != 2)
    return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': malformed header entry", path, name);
  hr_dtype t = dtype_of(json_string_value(dtype));
  if (t == HR_DTYPE_INVALID)
    return hr_error(HR_UNIMPLEMENTED, "%s: tensor '%s': dtype %s is not supported", path, name, json_string_value(dtype));
  hr_shape s = {0};
  if (json_array_size(shape) > HR_MAX_RANK)
    return hr_error(HR_UNIMPLEMENTED, "%s: tensor '%s': rank above %d", path, name, HR_MAX_RANK);
  s.rank = (int)json_array_size(shape);
  for (int i = 0; i < s.rank; i++) {
    json_t *d = json_array_get(shape, (size_t)i);
    if (!json_is_integer(d) || json_integer_value(d) < 0)
      return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': bad shape", path, name);
    s.dims[i] = json_integer_value(d);
  }
  json_t *b = json_array_get(offsets, 0), *e = json_array_get(offsets, 1);
  if (!json_is_integer(b) || !json_is_integer(e) || json_integer_value(b) < 0 ||
      json_integer_value(e) < json_integer_value(b) || (uint64_t)json_integer_value(e) > data_len)
    return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': data offsets outside the file", path, name);
  size_t begin = (size_t)json_integer_value(b), end = (size_t)json_integer_value(e);
  HR_TRY(hr_tensor_create(a, t, &s, max_bytes, out));
  if ((*out)->nbytes != end - begin) {
    hr_tensor_free(*out);
    *out = NULL;
    return hr_error(HR_PARSE_ERROR, "%s: tensor '%s': %zu data bytes for a shape needing %zu", path, name,
                    end - begin, (*out ? (*out)->nbytes : (size_t)0));
  }
  memcpy((*out)->data, data + begin, end - begin);
  return NULL;
}

/* Fills `w` from a parsed header. */
static hr_status read_entries(const char *path, json_t *header, const unsigned char *data, size_t data_len,
                              size_t max_bytes, hr_weights *w) {
  const hr_allocator *a = w->allocator;
  size_t n = json_object_size(header);
  if (n > MAX_TENSORS) return hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d tensors", path, MAX_TENSORS);
  w->names = a->alloc(a->ctx, (n ? n : 1) * sizeof *w->names, 16);
  w->tensors = a->alloc(a->ctx, (n ? n : 1) * sizeof *w->tensors, 16);
  if (!w->names || !w->tensors) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", path);
  size_t total = 0;
  const char *key;
  json_t *info;
  json_object_foreach(header, key, info) {
    if (strcmp(key, "__metadata__") == 0) continue;
    size_t klen = strlen(key);
    char *name = a->alloc(a->ctx, klen + 1, 1);
    if (!name) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", path);
    memcpy(name, key, klen + 1);
    w->names[w->n] = name;
    w->tensors[w->n] = NULL;
    w->n++;
    HR_TRY(read_entry(path, key, info, data, data_len, a, max_bytes, &w->tensors[w->n - 1]));
    total += w->tensors[w->n - 1]->nbytes;
    if (total > max_bytes) return hr_error(HR_RESOURCE_EXHAUSTED, "%s: tensors exceed %zu bytes", path, max_bytes);
  }
  return NULL;
}

hr_status hr_safetensors_read_file(const char *path, const hr_allocator *a, size_t max_bytes, hr_weights **out) {
  *out = NULL;
  if (!a) a = hr_default_allocator();
  if (!max_bytes) max_bytes = DEFAULT_MAX_BYTES;
  char *raw;
  size_t len;
  HR_TRY(hr_read_file(path, a, max_bytes + MAX_HEADER + 8, &raw, &len));
  hr_status s = NULL;
  uint64_t hlen = 0;
  if (len < 8) s = hr_error(HR_PARSE_ERROR, "%s: too short for a safetensors file", path);
  if (!s) {
    for (int i = 7; i >= 0; i--) hlen = hlen << 8 | (unsigned char)raw[i];
    if (hlen > MAX_HEADER || hlen > len - 8) s = hr_error(HR_PARSE_ERROR, "%s: header length %llu is invalid", path, (unsigned long long)hlen);
  }
  json_t *header = NULL;
  if (!s) {
    json_error_t err;
    header = json_loadb(raw + 8, (size_t)hlen, JSON_REJECT_DUPLICATES, &err);
    if (!header || !json_is_object(header))
      s = hr_error(HR_PARSE_ERROR, "%s: header is not a JSON object (%s at %d)", path, header ? "not an object" : err.text,
                   header ? 0 : err.position);
  }
  hr_weights *w = NULL;
  if (!s) {
    w = a->alloc(a->ctx, sizeof *w, _Alignof(hr_weights));
    if (!w) s = hr_error(HR_OUT_OF_MEMORY, "out of memory");
  }
  if (!s) {
    *w = (hr_weights){.allocator = a};
    s = read_entries(path, header, (const unsigned char *)raw + 8 + hlen, len - 8 - (size_t)hlen, max_bytes, w);
  }
  json_decref(header);
  a->free(a->ctx, raw);
  if (s) {
    hr_weights_free(w);
    return s;
  }
  *out = w;
  return NULL;
}

bool hr_keypath_to_dotted(const char *keypath, char *out, size_t cap) {
  const char *p = strchr(keypath, '[');
  if (!p || cap == 0) return false;
  size_t n = 0;
  while (*p == '[') {
    p++;
    const char *end;
    if (*p == '\'' || *p == '"') {
      char q = *p++;
      end = strchr(p, q);
      if (!end || end[1] != ']') return false;
    } else {
      end = strchr(p, ']');
      if (!end) return false;
    }
    size_t len = (size_t)(end - p);
    if (n + len + 2 > cap) return false;
    if (n) out[n++] = '.';
    memcpy(out + n, p, len);
    n += len;
    p = end + (*end == ']' ? 1 : 2);
  }
  out[n] = '\0';
  return *p == '\0' && n > 0;
}

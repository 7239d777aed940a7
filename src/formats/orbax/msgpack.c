/* The legacy Flax/Orbax msgpack checkpoint (see msgpack.h). What flax.serialization writes:
 *  - the state dict as nested msgpack maps with string keys (lists were turned into maps with
 *    keys "0", "1", ...; a plain msgpack array is read the same way);
 *  - arrays as extension type 1 (ndarray) holding the msgpack triple [shape, dtype name, C-order
 *    bytes]; numpy scalars as extension type 3 with the same triple (shape []); Python complex
 *    numbers as extension type 2 holding [real, imag];
 *  - arrays above 2^30 bytes as a map {"__msgpack_chunked_array__": true, "shape": [...],
 *    "chunks": {"0": ndarray, "1": ndarray, ...}}: the chunks, flattened, concatenated;
 *  - Python ints, floats and bools as msgpack scalars (rank-0 int64, float64 / float32, bool);
 *  - strings: "PLACEHOLDER://<path>" for an array Orbax saved elsewhere, any other string (and nil
 *    and binary values) is not an array and is skipped.
 * Every length is checked against the bytes left before it is used; nesting is bounded. */
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "formats/orbax/dtypes_internal.h"
#include "formats/orbax/msgpack.h"

/* Flax's extension type codes (flax.serialization._MsgpackExtType). */
enum { EXT_NDARRAY = 1, EXT_NATIVE_COMPLEX = 2, EXT_NPSCALAR = 3 };

#define PLACEHOLDER_PREFIX "PLACEHOLDER://"
#define CHUNKED_ARRAY_KEY "__msgpack_chunked_array__"

/* A reader over one msgpack buffer. */
typedef struct mp_reader {
  const char *name;
  const unsigned char *data;
  size_t len, pos;
  const hr_allocator *a;
  size_t max_bytes;
  hr_msgpack_leaf_fn fn;
  void *ctx;
  char path[HR_LIMIT_WEIGHT_NAME_BYTES]; /* the dotted path of the value being read */
} mp_reader;

/* The kinds of msgpack values, with what the header says of each. */
typedef enum mp_kind { MP_NIL, MP_BOOL, MP_INT, MP_UINT, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP, MP_EXT } mp_kind;

typedef struct mp_value {
  mp_kind kind;
  size_t at;  /* offset of the header, for messages */
  bool b;
  int64_t i;
  uint64_t u;
  double f;
  bool f32;                   /* MP_FLOAT: stored as a float32 */
  const unsigned char *bytes; /* MP_STR, MP_BIN, MP_EXT: the payload */
  size_t n;                   /* payload bytes, or MP_ARRAY / MP_MAP elements */
  int8_t ext_type;
} mp_value;

static hr_status mp_error(const mp_reader *r, size_t at, const char *what) {
  return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s", r->name, at, what);
}

/* Takes `n` bytes; NULL past the end. */
static const unsigned char *take(mp_reader *r, size_t n) {
  if (n > r->len - r->pos) return NULL;
  const unsigned char *p = r->data + r->pos;
  r->pos += n;
  return p;
}

/* A big-endian unsigned integer of `n` bytes (1, 2, 4 or 8). */
static hr_status take_uint(mp_reader *r, size_t n, uint64_t *out) {
  const unsigned char *p = take(r, n);
  if (!p) return mp_error(r, r->pos, "truncated");
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v = v << 8 | p[i];
  *out = v;
  return NULL;
}

/* Takes a payload of `n` bytes (n from the header) into v. */
static hr_status take_payload(mp_reader *r, uint64_t n, mp_value *v) {
  if (n > r->len - r->pos) return mp_error(r, v->at, "a string, binary or extension value runs past the end");
  v->n = (size_t)n;
  v->bytes = take(r, v->n);
  return NULL;
}

/* An element count of an array or map: each element takes at least one byte (maps two), so a
 * count above the bytes left is refused before anything is allocated or looped over. */
static hr_status take_count(mp_reader *r, uint64_t n, size_t per, mp_value *v) {
  if (n > (r->len - r->pos) / per) return mp_error(r, v->at, "an array or map holds more elements than bytes left");
  v->n = (size_t)n;
  return NULL;
}

/* Reads one value's header (and a string's, binary's or extension's payload). */
static hr_status read_header(mp_reader *r, mp_value *v) {
  *v = (mp_value){.at = r->pos};
  const unsigned char *p = take(r, 1);
  if (!p) return mp_error(r, v->at, "truncated: a value was expected");
  unsigned c = *p;
  uint64_t u = 0;
  if (c <= 0x7f) return v->kind = MP_UINT, v->u = c, NULL;
  if (c >= 0xe0) return v->kind = MP_INT, v->i = (int8_t)c, NULL;
  if ((c & 0xf0) == 0x80) return v->kind = MP_MAP, take_count(r, c & 0x0f, 2, v);
  if ((c & 0xf0) == 0x90) return v->kind = MP_ARRAY, take_count(r, c & 0x0f, 1, v);
  if ((c & 0xe0) == 0xa0) return v->kind = MP_STR, take_payload(r, c & 0x1f, v);
  switch (c) {
  case 0xc0: v->kind = MP_NIL; return NULL;
  case 0xc2:
  case 0xc3: v->kind = MP_BOOL, v->b = c == 0xc3; return NULL;
  case 0xc4: case 0xc5: case 0xc6: /* bin 8/16/32 */
    v->kind = MP_BIN;
    HR_TRY(take_uint(r, (size_t)1 << (c - 0xc4), &u));
    return take_payload(r, u, v);
  case 0xd9: case 0xda: case 0xdb: /* str 8/16/32 */
    v->kind = MP_STR;
    HR_TRY(take_uint(r, (size_t)1 << (c - 0xd9), &u));
    return take_payload(r, u, v);
  case 0xdc: case 0xdd: /* array 16/32 */
    v->kind = MP_ARRAY;
    HR_TRY(take_uint(r, c == 0xdc ? 2 : 4, &u));
    return take_count(r, u, 1, v);
  case 0xde: case 0xdf: /* map 16/32 */
    v->kind = MP_MAP;
    HR_TRY(take_uint(r, c == 0xde ? 2 : 4, &u));
    return take_count(r, u, 2, v);
  case 0xcc: case 0xcd: case 0xce: case 0xcf: /* uint 8/16/32/64 */
    v->kind = MP_UINT;
    return take_uint(r, (size_t)1 << (c - 0xcc), &v->u);
  case 0xd0: case 0xd1: case 0xd2: case 0xd3: { /* int 8/16/32/64: sign-extended */
    size_t n = (size_t)1 << (c - 0xd0);
    HR_TRY(take_uint(r, n, &u));
    v->kind = MP_INT;
    v->i = n == 8 ? (int64_t)u : (int64_t)(u ^ (1ull << (8 * n - 1))) - (int64_t)(1ull << (8 * n - 1));
    return NULL;
  }
  case 0xca: { /* float 32 */
    HR_TRY(take_uint(r, 4, &u));
    uint32_t bits = (uint32_t)u;
    float f;
    memcpy(&f, &bits, 4);
    v->kind = MP_FLOAT, v->f = f, v->f32 = true;
    return NULL;
  }
  case 0xcb: /* float 64 */
    HR_TRY(take_uint(r, 8, &u));
    memcpy(&v->f, &u, 8);
    v->kind = MP_FLOAT;
    return NULL;
  case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: /* fixext 1/2/4/8/16 */
    u = (uint64_t)1 << (c - 0xd4);
    break;
  case 0xc7: case 0xc8: case 0xc9: /* ext 8/16/32 */
    HR_TRY(take_uint(r, (size_t)1 << (c - 0xc7), &u));
    break;
  default: return mp_error(r, v->at, "not a msgpack type byte (0xc1 is never used)");
  }
  const unsigned char *type = take(r, 1);
  if (!type) return mp_error(r, v->at, "truncated extension value");
  v->kind = MP_EXT;
  v->ext_type = (int8_t)*type;
  return take_payload(r, u, v);
}

/* Skips the value whose header is `v` (its elements, for arrays and maps). */
static hr_status skip_value(mp_reader *r, const mp_value *v, int depth) {
  if (v->kind != MP_ARRAY && v->kind != MP_MAP) return NULL;
  if (depth >= HR_LIMIT_MSGPACK_DEPTH) return mp_error(r, v->at, "nested deeper than the limit");
  size_t n = v->kind == MP_MAP ? 2 * v->n : v->n;
  for (size_t i = 0; i < n; i++) {
    mp_value e;
    HR_TRY(read_header(r, &e));
    HR_TRY(skip_value(r, &e, depth + 1));
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Arrays                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Reads msgpack shape [d0, d1, ...] at r (non-negative integers, at most HR_MAX_RANK). */
static hr_status read_shape(mp_reader *r, hr_shape *shape) {
  mp_value v;
  HR_TRY(read_header(r, &v));
  if (v.kind != MP_ARRAY) return mp_error(r, v.at, "an array's shape is not a list");
  if (v.n > HR_MAX_RANK) return mp_error(r, v.at, "an array's rank is above 16");
  shape->rank = (int)v.n;
  for (size_t i = 0; i < v.n; i++) {
    mp_value d;
    HR_TRY(read_header(r, &d));
    if (!(d.kind == MP_UINT && d.u <= INT64_MAX) && !(d.kind == MP_INT && d.i >= 0))
      return mp_error(r, d.at, "an array dimension is not a non-negative integer");
    shape->dims[i] = d.kind == MP_UINT ? (int64_t)d.u : d.i;
  }
  return NULL;
}

/* Decodes an ndarray / npscalar payload ([shape, dtype name, bytes]) into a new tensor. */
static hr_status decode_ndarray(const mp_reader *outer, const mp_value *ext, hr_tensor **out) {
  mp_reader r = *outer;
  r.data = ext->bytes, r.len = ext->n, r.pos = 0;
  mp_value tuple, dtype, raw;
  HR_TRY(read_header(&r, &tuple));
  if (tuple.kind != MP_ARRAY || tuple.n != 3)
    return mp_error(outer, ext->at, "an ndarray extension does not hold [shape, dtype, bytes]");
  hr_shape shape;
  HR_TRY(read_shape(&r, &shape));
  HR_TRY(read_header(&r, &dtype));
  HR_TRY(read_header(&r, &raw));
  char name[32];
  if (dtype.kind != MP_STR || dtype.n >= sizeof name || raw.kind != MP_BIN)
    return mp_error(outer, ext->at, "an ndarray extension's dtype is not a name or its data not binary");
  memcpy(name, dtype.bytes, dtype.n);
  name[dtype.n] = '\0';
  hr_dtype t = ob_dtype_by_name(name);
  if (t == HR_DTYPE_INVALID)
    return hr_error(ob_dtype_is_unsupported(name) ? HR_UNIMPLEMENTED : HR_PARSE_ERROR, "%s: offset %zu: array '%s': "
                    "element type '%s' is not supported", outer->name, ext->at, outer->path, name);
  HR_TRY(hr_tensor_create(outer->a, t, &shape, outer->max_bytes, out));
  if ((*out)->nbytes != raw.n) {
    size_t want = (*out)->nbytes;
    hr_tensor_free(*out);
    *out = NULL;
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: array '%s': %zu data bytes for a %s array of %zu bytes",
                    outer->name, ext->at, outer->path, raw.n, name, want);
  }
  if (raw.n) memcpy((*out)->data, raw.bytes, raw.n);
  ob_normalize(t, (*out)->data, raw.n);
  return NULL;
}

/* A rank-0 tensor of type `t` holding the `size` bytes at `value`. */
static hr_status scalar_tensor(const mp_reader *r, hr_dtype t, const void *value, hr_tensor **out) {
  hr_shape scalar = {.rank = 0};
  HR_TRY(hr_tensor_create(r->a, t, &scalar, r->max_bytes, out));
  memcpy((*out)->data, value, hr_dtype_size(t));
  return NULL;
}

/* A number at r as a double (native_complex's parts). */
static hr_status read_number(mp_reader *r, double *out) {
  mp_value v;
  HR_TRY(read_header(r, &v));
  if (v.kind == MP_FLOAT) *out = v.f;
  else if (v.kind == MP_INT) *out = (double)v.i;
  else if (v.kind == MP_UINT) *out = (double)v.u;
  else return mp_error(r, v.at, "a complex number's part is not a number");
  return NULL;
}

/* Decodes a native_complex payload ([real, imag]) into a rank-0 complex128 tensor. */
static hr_status decode_complex(const mp_reader *outer, const mp_value *ext, hr_tensor **out) {
  mp_reader r = *outer;
  r.data = ext->bytes, r.len = ext->n, r.pos = 0;
  mp_value pair;
  HR_TRY(read_header(&r, &pair));
  if (pair.kind != MP_ARRAY || pair.n != 2)
    return mp_error(outer, ext->at, "a complex extension does not hold [real, imag]");
  double parts[2];
  HR_TRY(read_number(&r, &parts[0]));
  HR_TRY(read_number(&r, &parts[1]));
  return scalar_tensor(outer, HR_C128, parts, out);
}

/* ---------------------------------------------------------------------------------------------- */
/* The tree                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Appends ".`key`" (or `key` at the root) to r->path; *old_len receives the length to restore. */
static hr_status push_key(mp_reader *r, const mp_value *key, size_t *old_len) {
  char num[24];
  const char *text;
  size_t n;
  if (key->kind == MP_STR) text = (const char *)key->bytes, n = key->n;
  else if (key->kind == MP_UINT) n = (size_t)snprintf(num, sizeof num, "%llu", (unsigned long long)key->u), text = num;
  else if (key->kind == MP_INT) n = (size_t)snprintf(num, sizeof num, "%lld", (long long)key->i), text = num;
  else return mp_error(r, key->at, "a map key is not a string or an integer");
  if (n == 0 || memchr(text, '\0', n)) return mp_error(r, key->at, "a map key is empty or holds a NUL byte");
  *old_len = strlen(r->path);
  size_t dot = *old_len ? 1 : 0;
  if (*old_len + dot + n >= sizeof r->path)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: offset %zu: the path '%s...' is longer than %zu bytes", r->name,
                    key->at, r->path, sizeof r->path - 1);
  if (dot) r->path[*old_len] = '.';
  memcpy(r->path + *old_len + dot, text, n);
  r->path[*old_len + dot + n] = '\0';
  return NULL;
}

/* Hands a leaf to the callback (the tensor taken over by it). */
static hr_status emit(mp_reader *r, hr_tensor *t, const char *placeholder) {
  if (!r->path[0]) {
    hr_tensor_free(t);
    return hr_error(HR_PARSE_ERROR, "%s: the checkpoint is a single value, not a tree of named arrays", r->name);
  }
  return r->fn(r->ctx, r->path, t, placeholder);
}

static hr_status read_tree(mp_reader *r, const mp_value *v, int depth);

/* Whether the map at `v` (its header read; r is after it) is a chunked array: Flax writes the
 * marker key first. r is left where it was. */
static bool is_chunked_array(mp_reader *r, const mp_value *v) {
  size_t start = r->pos;
  mp_value key;
  hr_status s = v->n ? read_header(r, &key) : NULL;
  bool found = v->n && !s && key.kind == MP_STR && key.n == strlen(CHUNKED_ARRAY_KEY) &&
               memcmp(key.bytes, CHUNKED_ARRAY_KEY, key.n) == 0;
  hr_status_free(s);
  r->pos = start;
  return found;
}

/* Reads a chunked array's map (header `v`): its shape and its chunks, concatenated. */
static hr_status read_chunked_array(mp_reader *r, const mp_value *v) {
  hr_shape shape = {.rank = -1};
  hr_tensor *t = NULL;
  size_t filled = 0;
  hr_status s = NULL;
  for (size_t i = 0; !s && i < v->n; i++) {
    mp_value key, value;
    if ((s = read_header(r, &key)) || (s = key.kind == MP_STR ? NULL : mp_error(r, key.at, "a chunked array's key is not a string")))
      break;
    bool is_shape = key.n == 5 && !memcmp(key.bytes, "shape", 5), is_chunks = key.n == 6 && !memcmp(key.bytes, "chunks", 6);
    if (is_shape) {
      s = read_shape(r, &shape);
      continue;
    }
    if ((s = read_header(r, &value))) break;
    if (!is_chunks) {
      s = skip_value(r, &value, 1);
      continue;
    }
    if (value.kind != MP_MAP || shape.rank < 0) {
      s = mp_error(r, value.at, "a chunked array's chunks are not a map after its shape");
      break;
    }
    for (size_t c = 0; !s && c < value.n; c++) {
      mp_value ckey, chunk;
      hr_tensor *part = NULL;
      if ((s = read_header(r, &ckey)) || (s = read_header(r, &chunk))) break;
      if (chunk.kind != MP_EXT || chunk.ext_type != EXT_NDARRAY) {
        s = mp_error(r, chunk.at, "a chunk of a chunked array is not an ndarray");
        break;
      }
      if ((s = decode_ndarray(r, &chunk, &part))) break;
      if (!t && !(s = hr_tensor_create(r->a, part->dtype, &shape, r->max_bytes, &t))) filled = 0;
      if (!s && (part->dtype != t->dtype || part->nbytes > t->nbytes - filled))
        s = mp_error(r, chunk.at, "a chunked array's chunks do not fit its shape and type");
      if (!s) memcpy((char *)t->data + filled, part->data, part->nbytes), filled += part->nbytes;
      hr_tensor_free(part);
    }
  }
  if (!s && (!t || filled != t->nbytes)) s = mp_error(r, v->at, "a chunked array's chunks do not fill its shape");
  if (s) {
    hr_tensor_free(t);
    return s;
  }
  return emit(r, t, NULL);
}

/* Reads a map or array of the tree: each element under its key (an array's under its index). */
static hr_status read_container(mp_reader *r, const mp_value *v, int depth) {
  if (depth >= HR_LIMIT_MSGPACK_DEPTH) return mp_error(r, v->at, "nested deeper than the limit");
  if (v->kind == MP_MAP && is_chunked_array(r, v)) return read_chunked_array(r, v);
  for (size_t i = 0; i < v->n; i++) {
    mp_value key = {.kind = MP_UINT, .u = i, .at = r->pos}, value;
    if (v->kind == MP_MAP) HR_TRY(read_header(r, &key));
    size_t old_len = 0;
    HR_TRY(push_key(r, &key, &old_len));
    HR_TRY(read_header(r, &value));
    HR_TRY(read_tree(r, &value, depth + 1));
    r->path[old_len] = '\0';
  }
  return NULL;
}

/* Reads the value whose header is `v` at the current path. */
static hr_status read_tree(mp_reader *r, const mp_value *v, int depth) {
  hr_tensor *t = NULL;
  switch (v->kind) {
  case MP_MAP:
  case MP_ARRAY: return read_container(r, v, depth);
  case MP_EXT:
    if (v->ext_type == EXT_NDARRAY || v->ext_type == EXT_NPSCALAR) HR_TRY(decode_ndarray(r, v, &t));
    else if (v->ext_type == EXT_NATIVE_COMPLEX) HR_TRY(decode_complex(r, v, &t));
    else return hr_error(HR_PARSE_ERROR, "%s: offset %zu: '%s': msgpack extension type %d is not one Flax writes",
                         r->name, v->at, r->path, v->ext_type);
    return emit(r, t, NULL);
  case MP_STR: {
    size_t n = strlen(PLACEHOLDER_PREFIX);
    if (v->n <= n || memcmp(v->bytes, PLACEHOLDER_PREFIX, n) != 0) return NULL; /* a string leaf: no array */
    char target[HR_LIMIT_WEIGHT_NAME_BYTES];
    if (v->n - n >= sizeof target || memchr(v->bytes + n, '\0', v->n - n))
      return mp_error(r, v->at, "a placeholder's path is too long or holds a NUL byte");
    memcpy(target, v->bytes + n, v->n - n);
    target[v->n - n] = '\0';
    return emit(r, NULL, target);
  }
  case MP_BOOL: {
    unsigned char b = v->b;
    HR_TRY(scalar_tensor(r, HR_I1, &b, &t));
    return emit(r, t, NULL);
  }
  case MP_INT:
  case MP_UINT: {
    if (v->kind == MP_UINT && v->u > INT64_MAX) return mp_error(r, v->at, "an integer leaf does not fit int64");
    int64_t i = v->kind == MP_UINT ? (int64_t)v->u : v->i;
    HR_TRY(scalar_tensor(r, HR_I64, &i, &t));
    return emit(r, t, NULL);
  }
  case MP_FLOAT: {
    float f = (float)v->f;
    HR_TRY(v->f32 ? scalar_tensor(r, HR_F32, &f, &t) : scalar_tensor(r, HR_F64, &v->f, &t));
    return emit(r, t, NULL);
  }
  case MP_NIL:
  case MP_BIN: return NULL; /* None and bytes leaves hold no array */
  }
  return NULL;
}

hr_status hr_msgpack_read_checkpoint(const char *name, const unsigned char *data, size_t len, const hr_allocator *a,
                                     size_t max_bytes, hr_msgpack_leaf_fn fn, void *ctx) {
  mp_reader r = {.name = name, .data = data, .len = data ? len : 0, .a = a ? a : hr_default_allocator(),
                 .max_bytes = max_bytes, .fn = fn, .ctx = ctx};
  mp_value root;
  HR_TRY(read_header(&r, &root));
  if (root.kind != MP_MAP && root.kind != MP_ARRAY)
    return mp_error(&r, 0, "the checkpoint is not a msgpack map of named values");
  HR_TRY(read_tree(&r, &root, 0));
  if (r.pos != r.len) return mp_error(&r, r.pos, "bytes after the checkpoint's tree");
  return NULL;
}

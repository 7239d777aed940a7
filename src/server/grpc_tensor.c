/* TensorProto read into hr_tensors and written from them (grpc_tensor.h). */
#include "server/grpc_tensor.h"

#include <string.h>

#include "base/elem.h"
#include "formats/protobuf/pb.h"
#include "formats/savedmodel/tf_types.h"

/* TensorProto's field numbers. */
enum {
  F_DTYPE = 1,
  F_SHAPE = 2,
  F_CONTENT = 4,
  F_FLOAT = 5,
  F_DOUBLE = 6,
  F_INT = 7,
  F_STRING = 8,
  F_SCOMPLEX = 9,
  F_INT64 = 10,
  F_BOOL = 11,
  F_DCOMPLEX = 12,
  F_HALF = 13,
  F_UINT32 = 16,
  F_UINT64 = 17,
  F_FLOAT8 = 18,
  SHAPE_DIM = 2,
  SHAPE_UNKNOWN_RANK = 3,
  DIM_SIZE = 1,
};

/* The typed field TensorFlow reads for element type t; number 0 when there is none. */
static srv_grpc_values field_of(hr_dtype t) {
  switch (t) {
    case HR_F32: return (srv_grpc_values){F_FLOAT, SRV_VALUE_FIXED32, 1, false};
    case HR_F64: return (srv_grpc_values){F_DOUBLE, SRV_VALUE_FIXED64, 1, false};
    case HR_C64: return (srv_grpc_values){F_SCOMPLEX, SRV_VALUE_FIXED32, 2, false};
    case HR_C128: return (srv_grpc_values){F_DCOMPLEX, SRV_VALUE_FIXED64, 2, false};
    case HR_I64: return (srv_grpc_values){F_INT64, SRV_VALUE_VARINT, 1, false};
    case HR_I1: return (srv_grpc_values){F_BOOL, SRV_VALUE_VARINT, 1, false};
    case HR_F16:
    case HR_BF16: return (srv_grpc_values){F_HALF, SRV_VALUE_VARINT, 1, false};
    case HR_U32: return (srv_grpc_values){F_UINT32, SRV_VALUE_VARINT, 1, false};
    case HR_U64: return (srv_grpc_values){F_UINT64, SRV_VALUE_VARINT, 1, false};
    case HR_I32:
    case HR_I16:
    case HR_U16:
    case HR_I8:
    case HR_U8:
    case HR_I4:
    case HR_U4:
    case HR_I2:
    case HR_U2: return (srv_grpc_values){F_INT, SRV_VALUE_VARINT, 1, true};
    case HR_F8E5M2:
    case HR_F8E4M3FN:
    case HR_F8E4M3FNUZ:
    case HR_F8E4M3B11FNUZ:
    case HR_F8E5M2FNUZ:
    case HR_F4E2M1FN: return (srv_grpc_values){F_FLOAT8, SRV_VALUE_BYTE, 1, false};
    default: return (srv_grpc_values){0, SRV_VALUE_VARINT, 1, false};
  }
}

/* What a first pass over a TensorProto found. */
typedef struct proto_head {
  int tf_dtype;
  hr_shape shape;
  bool has_shape, unknown_rank;
  const uint8_t *content; /* tensor_content, or NULL */
  size_t content_len;
  int64_t values; /* typed values of the dtype's field */
  bool strings;   /* string_val is set */
} proto_head;

/* Counts the values of one occurrence of the typed field `vf` (packed or not) into *n. */
static hr_status count_values(const hr_pb *c, const hr_pb_field *f, srv_grpc_values vf, int64_t *n) {
  if (vf.kind == SRV_VALUE_BYTE) return *n += (int64_t)f->len, NULL;
  int want = vf.kind == SRV_VALUE_VARINT ? HR_PB_VARINT : vf.kind == SRV_VALUE_FIXED32 ? HR_PB_I32 : HR_PB_I64;
  if (f->wire == want) return *n += 1, NULL;
  HR_TRY(hr_pb_want(c, f, HR_PB_LEN, "a tensor's values"));
  if (vf.kind == SRV_VALUE_VARINT) {
    for (size_t i = 0; i < f->len; i++) *n += !(f->data[i] & 0x80);
    return NULL;
  }
  size_t size = vf.kind == SRV_VALUE_FIXED32 ? 4 : 8;
  if (f->len % size) return hr_pb_error(c, f->offset, "packed values of %zu bytes are not a whole number", size);
  *n += (int64_t)(f->len / size);
  return NULL;
}

/* Reads a TensorShapeProto: every dim's size (at most HR_MAX_RANK of them), unknown_rank. */
static hr_status read_shape(const hr_pb *c, const hr_pb_field *f, const char *name, proto_head *h) {
  hr_pb sub = hr_pb_sub(c, f);
  hr_pb_field g;
  bool more;
  h->has_shape = true;
  h->shape.rank = 0;
  for (;;) {
    HR_TRY(hr_pb_next(&sub, &g, &more));
    if (!more) return NULL;
    if (g.number == SHAPE_UNKNOWN_RANK && g.wire == HR_PB_VARINT) h->unknown_rank = g.u != 0;
    if (g.number != SHAPE_DIM) continue;
    HR_TRY(hr_pb_want(&sub, &g, HR_PB_LEN, "tensor_shape.dim"));
    if (h->shape.rank == HR_MAX_RANK)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': more than %d dimensions", name, HR_MAX_RANK);
    hr_pb dim = hr_pb_sub(&sub, &g);
    hr_pb_field d;
    int64_t size = 0;
    for (;;) {
      HR_TRY(hr_pb_next(&dim, &d, &more));
      if (!more) break;
      if (d.number == DIM_SIZE && d.wire == HR_PB_VARINT) size = (int64_t)d.u;
    }
    if (size < 0)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': dimension %d is %lld: the shape must be fully defined", name,
                      h->shape.rank, (long long)size);
    h->shape.dims[h->shape.rank++] = size;
  }
}

/* The first pass: dtype, shape, tensor_content, and how many typed values the dtype's field holds
 * (the dtype comes first on the wire as protobuf writes it, but any order is read). */
static hr_status read_head(const char *name, const uint8_t *data, size_t len, proto_head *h) {
  memset(h, 0, sizeof *h);
  hr_pb c = hr_pb_open("TensorProto", data, len);
  hr_pb_field f;
  bool more;
  for (;;) { /* the dtype first: the typed field to count depends on it */
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) break;
    if (f.number == F_DTYPE && f.wire == HR_PB_VARINT) h->tf_dtype = f.u > 1000 ? -1 : (int)f.u;
  }
  hr_dtype t;
  hr_tf_dtype_to_hr(h->tf_dtype, &t);
  srv_grpc_values vf = field_of(t);
  c = hr_pb_open("TensorProto", data, len);
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) return NULL;
    if (f.number == F_SHAPE) {
      HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, "tensor_shape"));
      HR_TRY(read_shape(&c, &f, name, h));
    } else if (f.number == F_CONTENT) {
      HR_TRY(hr_pb_want(&c, &f, HR_PB_LEN, "tensor_content"));
      h->content = f.data;
      h->content_len = f.len;
    } else if (f.number == F_STRING) {
      h->strings = true;
    } else if (vf.number && f.number == vf.number) {
      HR_TRY(count_values(&c, &f, vf, &h->values));
    }
  }
}

/* Checks the head against what hlorun can hold: a known dtype, a defined shape. */
static hr_status check_head(const char *name, const proto_head *h, hr_dtype *t) {
  const char *tf_name = hr_tf_dtype_name(h->tf_dtype);
  if (h->tf_dtype == HR_TF_DT_STRING || h->strings)
    return hr_error(HR_UNIMPLEMENTED, "input '%s': DT_STRING tensors are not supported: hlorun programs take no "
                    "strings", name);
  if (!hr_tf_dtype_to_hr(h->tf_dtype, t)) {
    if (tf_name) return hr_error(HR_INVALID_ARGUMENT, "input '%s': %s tensors are not supported", name, tf_name);
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': unknown dtype %d", name, h->tf_dtype);
  }
  if (!h->has_shape || h->unknown_rank)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': the tensor has no shape (tensor_shape must be set)", name);
  return NULL;
}

/* A decoder of typed values into a tensor's bytes. */
typedef struct value_sink {
  hr_tensor *t;
  srv_grpc_values vf;
  int64_t next; /* values written so far */
  const char *name;
} value_sink;

/* Writes one value `v` (its bits as read) at the sink's next position. Integers are range-checked
 * by a round trip through the element type. */
static hr_status put_value(value_sink *s, uint64_t v) {
  uint8_t *d = s->t->data;
  int64_t i = s->next++;
  hr_dtype t = s->t->dtype;
  size_t size = s->vf.kind == SRV_VALUE_FIXED32 ? 4 : s->vf.kind == SRV_VALUE_FIXED64 ? 8 : hr_dtype_size(t);
  if ((uint64_t)i >= s->t->nbytes / size)
    return hr_error(HR_INVALID_ARGUMENT, "tensor '%s': more values than elements", s->name);
  switch (s->vf.kind) {
    case SRV_VALUE_FIXED32: {
      uint32_t w = (uint32_t)v;
      memcpy(d + i * 4, &w, 4);
      return NULL;
    }
    case SRV_VALUE_FIXED64: memcpy(d + i * 8, &v, 8); return NULL;
    case SRV_VALUE_BYTE: d[i] = (uint8_t)v; return NULL;
    case SRV_VALUE_VARINT: break;
  }
  if (t == HR_I1) {
    d[i] = v != 0;
  } else if (t == HR_F16 || t == HR_BF16) {
    uint16_t h = (uint16_t)v;
    memcpy(d + i * 2, &h, 2);
  } else {
    /* int_val is int32 (sign-extended on the wire), uint32_val 32 bits, the 64-bit fields whole */
    int64_t x = s->vf.int32 ? (int64_t)(int32_t)v : (int64_t)v;
    if (s->vf.int32 && (int64_t)v != x)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': int_val %lld is not an int32", s->name, (long long)v);
    hr_store_int(t, d, i, x);
    if (t != HR_U64 && t != HR_I64 && hr_load_int(t, d, i) != x)
      return hr_error(HR_INVALID_ARGUMENT, "input '%s': value %lld is out of range for %s", s->name, (long long)x,
                      hr_tf_dtype_name(hr_tf_dtype_from_hr(t)));
  }
  return NULL;
}

/* Writes the values of one occurrence of the typed field. */
static hr_status put_field(value_sink *s, const hr_pb *c, const hr_pb_field *f) {
  if (s->vf.kind == SRV_VALUE_BYTE) {
    for (size_t i = 0; i < f->len; i++) HR_TRY(put_value(s, f->data[i]));
    return NULL;
  }
  if (f->wire != HR_PB_LEN) return put_value(s, f->u);
  hr_pb p = hr_pb_sub(c, f);
  bool more = true;
  while (more) {
    uint64_t v = 0;
    if (s->vf.kind == SRV_VALUE_VARINT) {
      HR_TRY(hr_pb_next_packed(&p, &v, &more));
    } else {
      size_t size = s->vf.kind == SRV_VALUE_FIXED32 ? 4 : 8;
      more = (size_t)(p.end - p.p) >= size;
      for (size_t k = 0; more && k < size; k++) v |= (uint64_t)p.p[k] << (8 * k);
      if (more) p.p += size;
    }
    if (more) HR_TRY(put_value(s, v));
  }
  return NULL;
}

hr_status srv_grpc_values_count(const uint8_t *data, size_t len, srv_grpc_values vf, int64_t *n) {
  *n = 0;
  hr_pb c = hr_pb_open("message", data, len);
  hr_pb_field f;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) return NULL;
    if (f.number == vf.number) HR_TRY(count_values(&c, &f, vf, n));
  }
}

hr_status srv_grpc_values_read(const char *name, const uint8_t *data, size_t len, srv_grpc_values vf, hr_tensor *t) {
  value_sink s = {.t = t, .vf = vf, .name = name};
  hr_pb c = hr_pb_open("message", data, len);
  hr_pb_field f;
  bool more;
  for (;;) {
    HR_TRY(hr_pb_next(&c, &f, &more));
    if (!more) return NULL;
    if (f.number == s.vf.number) HR_TRY(put_field(&s, &c, &f));
  }
}

/* The typed values of a TensorProto into its tensor (their count already checked), then the last
 * element repeated over the rest, as TensorFlow fills a tensor from fewer values. */
static hr_status read_values(const char *name, const uint8_t *data, size_t len, int64_t values, hr_tensor *t) {
  HR_TRY(srv_grpc_values_read(name, data, len, field_of(t->dtype), t));
  size_t elem = hr_dtype_size(t->dtype);
  int64_t written = values / field_of(t->dtype).per_element;
  uint8_t *d = t->data;
  for (size_t at = (size_t)written * elem; written > 0 && at < t->nbytes; at += elem)
    memcpy(d + at, d + (size_t)(written - 1) * elem, elem);
  return NULL;
}

hr_status srv_grpc_tensor_decode(const char *name, const uint8_t *data, size_t len, int64_t *budget, hr_tensor **out) {
  *out = NULL;
  proto_head h;
  hr_dtype t;
  HR_TRY(read_head(name, data, len, &h));
  HR_TRY(check_head(name, &h, &t));
  int64_t n;
  HR_TRY(hr_shape_num_elements(&h.shape, &n));
  if (n > *budget)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': its %lld elements exceed what is left (%lld) of the request's "
                    "bound (--max_tensor_elements)", name, (long long)n, (long long)*budget);
  srv_grpc_values vf = field_of(t);
  size_t elem = hr_dtype_size(t);
  if (h.content && h.content_len != (size_t)n * elem)
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': tensor_content holds %zu bytes, the shape needs %zu", name,
                    h.content_len, (size_t)n * elem);
  if (!h.content && (h.values % vf.per_element || h.values / vf.per_element > n))
    return hr_error(HR_INVALID_ARGUMENT, "input '%s': %lld values for a tensor of %lld elements", name,
                    (long long)h.values, (long long)n);
  *budget -= n;
  hr_tensor *tensor;
  HR_TRY(hr_tensor_create(NULL, t, &h.shape, 0, &tensor));
  hr_status st = NULL;
  if (h.content && h.content_len) {
    memcpy(tensor->data, h.content, h.content_len);
    if (t == HR_I1) /* hlorun's booleans are bytes 0 or 1 */
      for (size_t i = 0; i < h.content_len; i++) ((uint8_t *)tensor->data)[i] = h.content[i] != 0;
  }
  else if (!h.content && h.values)
    st = read_values(name, data, len, h.values, tensor);
  if (st) {
    hr_tensor_free(tensor);
    return st;
  }
  *out = tensor;
  return NULL;
}

/* Bytes of the TensorShapeProto of `s`. */
static size_t shape_size(const hr_shape *s) {
  size_t n = 0;
  for (int i = 0; i < s->rank; i++)
    n += hr_pb_len_size(SHAPE_DIM, 1 + hr_pb_varint_size((uint64_t)s->dims[i]));
  return n;
}

size_t srv_grpc_tensor_size(const hr_tensor *t) {
  int tf = hr_tf_dtype_from_hr(t->dtype);
  if (tf == HR_TF_DT_INVALID) return 0;
  return 1 + hr_pb_varint_size((uint64_t)tf) + hr_pb_len_size(F_SHAPE, shape_size(&t->shape)) +
         hr_pb_len_size(F_CONTENT, t->nbytes);
}

void srv_grpc_tensor_put(hr_strbuf *b, const hr_tensor *t) {
  hr_pb_put_uint(b, F_DTYPE, (uint64_t)hr_tf_dtype_from_hr(t->dtype));
  hr_pb_put_len(b, F_SHAPE, shape_size(&t->shape));
  for (int i = 0; i < t->shape.rank; i++) {
    hr_pb_put_len(b, SHAPE_DIM, 1 + hr_pb_varint_size((uint64_t)t->shape.dims[i]));
    hr_pb_put_uint(b, DIM_SIZE, (uint64_t)t->shape.dims[i]);
  }
  hr_pb_put_bytes(b, F_CONTENT, t->data, t->nbytes);
}

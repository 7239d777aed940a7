/* TensorFlow's TensorProto on the wire (proto/tensorflow/core/framework/tensor.proto), read into
 * hr_tensors and written from them, without generated code (formats/protobuf/pb.h).
 *
 * Reading takes the elements from tensor_content when it is set (one memcpy: the bytes are
 * row-major, little-endian, as hlorun holds them) and otherwise from the typed field of the dtype,
 * as TensorFlow's Tensor::FromProto does: fewer values than elements repeat the last one (none:
 * zeros), more are an error. Writing always uses tensor_content. Every count and size is checked
 * against the message and the request's element budget before anything is allocated. */
#ifndef HLORUN_SERVER_GRPC_TENSOR_H
#define HLORUN_SERVER_GRPC_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "hlorun/hlorun.h"

/* How a message carries a tensor's typed values: the repeated field, how each value is encoded (a
 * varint, 4 or 8 little-endian bytes, or one byte of a bytes field), values per element (2 for
 * complex), and whether varints are int32 (sign-extended on the wire, range-checked). Integers are
 * checked against the element type's range. */
typedef enum srv_grpc_value_kind {
  SRV_VALUE_VARINT,
  SRV_VALUE_FIXED32,
  SRV_VALUE_FIXED64,
  SRV_VALUE_BYTE,
} srv_grpc_value_kind;

typedef struct srv_grpc_values {
  uint32_t number;
  srv_grpc_value_kind kind;
  int per_element;
  bool int32;
} srv_grpc_values;

/* Counts the values of field vf.number in the message (packed or not) into *n. */
hr_status srv_grpc_values_count(const uint8_t *data, size_t len, srv_grpc_values vf, int64_t *n);
/* Writes the values of field vf.number into t's elements from the first (at most t's element
 * count of them: count first). `name` names the tensor in errors. */
hr_status srv_grpc_values_read(const char *name, const uint8_t *data, size_t len, srv_grpc_values vf, hr_tensor *t);

/* Decodes the TensorProto in `data` (`len` bytes) called `name` (for messages) into a new tensor.
 * *budget is the number of elements the request may still hold; the tensor's are taken from it
 * (INVALID_ARGUMENT naming --max_tensor_elements beyond). Errors: INVALID_ARGUMENT for a malformed
 * message, a dtype hlorun has no type for, a shape that is not fully defined, or values that do
 * not fit the shape or the dtype; UNIMPLEMENTED for DT_STRING values. */
hr_status srv_grpc_tensor_decode(const char *name, const uint8_t *data, size_t len, int64_t *budget, hr_tensor **out);

/* Bytes the TensorProto of `t` takes (dtype, tensor_shape, tensor_content); 0 when TensorFlow has
 * no DataType for its element type. */
size_t srv_grpc_tensor_size(const hr_tensor *t);
/* Appends the TensorProto of `t` (srv_grpc_tensor_size bytes, which must be non-zero). */
void srv_grpc_tensor_put(hr_strbuf *b, const hr_tensor *t);

#endif

/* KServe v2 (Open Inference Protocol) tensor types, shared by its REST (kserve.c) and gRPC
 * adapters: datatype names <-> hr_dtype, element sizes, shapes checked against the request
 * limits, and tensors made from raw little-endian bytes (the binary tensor data extension over
 * REST, raw_input_contents over gRPC).
 *
 *   BOOL  UINT8 UINT16 UINT32 UINT64  INT8 INT16 INT32 INT64  FP16 BF16 FP32 FP64  BYTES
 *
 * Every datatype but BYTES has an hr_dtype (BOOL is i1: one byte, 0 or 1). BYTES names strings,
 * which no program hlorun runs takes: it is recognised and refused with UNIMPLEMENTED. The
 * hr_dtypes KServe has no name for (i2/i4/ui2/ui4, complex, the narrow floats) have none here:
 * metadata shows their MLIR spelling, and requests cannot feed them. */
#ifndef HLORUN_SERVER_KSERVE_TYPES_H
#define HLORUN_SERVER_KSERVE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "hlorun/hlorun.h"

/* KServe's name of an element type ("FP32", ...); NULL when KServe has none. HR_INDEX is INT64. */
const char *srv_kserve_datatype_name(hr_dtype t);

/* The element type a KServe datatype name (`len` bytes, case-sensitive as the protocol spells it)
 * names. UNIMPLEMENTED for BYTES; INVALID_ARGUMENT naming the datatype for anything else unknown. */
hr_status srv_kserve_datatype_parse(const char *name, size_t len, hr_dtype *out);

/* Bytes per element of a type on the wire (the raw format: little-endian, BOOL one byte); 0 for a
 * type with no KServe name. */
size_t srv_kserve_element_size(hr_dtype t);

/* Checks a request's shape (dims as sent; `rank` of them) and makes it an hr_shape: rank at most
 * HR_MAX_RANK, every dim >= 0, the element count (*elements) within `max_elements` without
 * overflowing. INVALID_ARGUMENT naming `tensor` otherwise. */
hr_status srv_kserve_shape(const char *tensor, const int64_t *dims, int rank, int64_t max_elements, hr_shape *out,
                           int64_t *elements);

/* Bytes of a tensor of `elements` elements of type t on the wire; INVALID_ARGUMENT naming `tensor`
 * when the type has no KServe name or the size overflows. */
hr_status srv_kserve_byte_size(const char *tensor, hr_dtype t, int64_t elements, size_t *out);

/* Makes a tensor from raw bytes (`len` of them, the tensor's exact wire size, else
 * INVALID_ARGUMENT naming `tensor` and both sizes). BOOL bytes other than 0 become 1. */
hr_status srv_kserve_tensor_from_raw(const char *tensor, hr_dtype t, const hr_shape *shape, const void *bytes,
                                     size_t len, hr_tensor **out);

#endif

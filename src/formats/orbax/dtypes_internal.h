/* Element types as the Orbax formats name them, shared by the zarr and msgpack readers: numpy's
 * dtype names (Flax's msgpack arrays: "float32", "bfloat16") are also zarr v3's data_type names. */
#ifndef HLORUN_FORMATS_ORBAX_DTYPES_INTERNAL_H
#define HLORUN_FORMATS_ORBAX_DTYPES_INTERNAL_H

#include <stddef.h>

#include "hlorun/hlorun.h"

/* The type named `name` ("bool", "int4", "uint4", "uint16", "bfloat16", "complex64", ...); HR_DTYPE_INVALID
 * for any other name. */
hr_dtype ob_dtype_by_name(const char *name);
/* Whether `name` is a type tensorstore or ml_dtypes knows and hlorun does not hold (float8 and
 * float4 variants, raw bits "r<N>"): those get HR_UNIMPLEMENTED, other unknown names a parse error. */
bool ob_dtype_is_unsupported(const char *name);
/* Canonicalizes `n` elements stored one byte each: bool bytes to 0/1, int2/int4 sign-extended and
 * uint2/uint4 zero-extended from their low bits, as the in-memory layout requires whatever the file
 * held. Other types: nothing. */
void ob_normalize(hr_dtype t, void *data, size_t n);

#endif

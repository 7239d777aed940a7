/* TensorFlow's element types (the DataType enum of tensorflow/core/framework/types.proto) beside
 * hlorun's: their numbers, their names ("DT_FLOAT", for inspection and metadata output), their
 * sizes as TensorFlow stores them, and the hr_dtype each holds. TF types hlorun has no dtype for
 * (strings, resources, variants, the quantized integers) map to none; the `_REF` types (number
 * + 100, TF1 reference variables) are not element types and have no entry. */
#ifndef HLORUN_FORMATS_SAVEDMODEL_TF_TYPES_H
#define HLORUN_FORMATS_SAVEDMODEL_TF_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include "hlorun/hlorun.h"

/* The DataType numbers readers and writers name. */
enum {
  HR_TF_DT_INVALID = 0,
  HR_TF_DT_FLOAT = 1,
  HR_TF_DT_INT32 = 3,
  HR_TF_DT_STRING = 7,
  HR_TF_DT_RESOURCE = 20,
  HR_TF_DT_VARIANT = 21,
};

/* The hr_dtype of TF type `tf` into *out; false (and *out HR_DTYPE_INVALID) when it has none. */
bool hr_tf_dtype_to_hr(int tf, hr_dtype *out);
/* The TF type holding hr_dtype `t`; HR_TF_DT_INVALID when TensorFlow has none (tf32, f8e3m4, ...). */
int hr_tf_dtype_from_hr(hr_dtype t);
/* TF's name of type `tf` ("DT_FLOAT", "DT_BFLOAT16", ...), or NULL for a number it does not define. */
const char *hr_tf_dtype_name(int tf);
/* Bytes one element of type `tf` takes in a tensor's stored bytes (a TensorBundle entry, a
 * TensorProto's tensor_content); 0 for types whose elements have no fixed size (strings,
 * variants, resources) and for numbers TF does not define. */
size_t hr_tf_dtype_size(int tf);

#endif

/* jaxlib's CPU FFT for shape-polymorphic programs (custom_call.h): dynamic_ducc_fft(descriptor,
 * operand, shape, strides in, strides out, scale, output shape). The descriptor is a FlatBuffer
 * (jaxlib's DynamicDuccFftDescriptor: ndims u32, dtype u8, fft_type u8 (C2C 0, C2R 1, R2C 2),
 * axes [u32], forward bool). JAX transforms the trailing axes of row-major arrays, which is
 * stablehlo.fft's transform (kernels_reduce_fft.c) times a scale: ducc multiplies by `scale`
 * (JAX passes 1/n for inverse transforms) where stablehlo.fft divides its inverses by n. */
#include <string.h>

#include "formats/jaxexport/flatbuf.h"
#include "interp/custom_call.h"
#include "interp/reduce.h"

enum { DUCC_C2C = 0, DUCC_C2R = 1, DUCC_R2C = 2 };

/* What the descriptor says. */
typedef struct ducc_desc {
  uint32_t ndims;
  uint8_t fft_type;
  bool forward;
  int n_axes;
  uint32_t axes[3];
} ducc_desc;

static hr_status read_desc(const hr_cc_call *c, ducc_desc *d) {
  const hr_tensor *t = c->operands[0];
  if (t->dtype != HR_U8 || t->shape.rank != 1) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the FFT descriptor must be ui8 bytes");
  hr_fb fb;
  hr_fb_table root;
  hr_fb_vector axes;
  uint8_t forward;
  HR_TRY(hr_fb_init(&fb, "the FFT descriptor", t->data, t->nbytes));
  HR_TRY(hr_fb_root(&fb, &root));
  HR_TRY(hr_fb_u32(&fb, &root, 0, "ndims", 0, &d->ndims));
  HR_TRY(hr_fb_u8(&fb, &root, 2, "fft_type", DUCC_C2C, &d->fft_type));
  HR_TRY(hr_fb_vector_field(&fb, &root, 3, "axes", 4, &axes));
  HR_TRY(hr_fb_u8(&fb, &root, 4, "forward", 0, &forward));
  d->forward = forward != 0;
  if (axes.count < 1 || axes.count > 3 || d->fft_type > DUCC_R2C)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the FFT descriptor needs 1 to 3 axes and a known fft_type");
  d->n_axes = (int)axes.count;
  for (uint32_t i = 0; i < axes.count; i++) d->axes[i] = hr_fb_vector_u32(&fb, &axes, i);
  return NULL;
}

/* Fails unless the axes are the trailing ones of a rank-`rank` array, in order. */
static hr_status check_axes(const hr_cc_call *c, const ducc_desc *d, int rank) {
  if ((int)d->ndims != rank) return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the descriptor's ndims is not the operand's rank");
  for (int i = 0; i < d->n_axes; i++)
    if ((int64_t)d->axes[i] != rank - d->n_axes + i)
      return hr_op_error(c->op, HR_UNIMPLEMENTED, "FFT axes other than the trailing ones in order are not supported");
  return NULL;
}

/* Fails unless strides operand `i` holds the row-major strides (in elements) of `shape`. */
static hr_status check_strides(const hr_cc_call *c, int i, const hr_shape *shape) {
  const hr_tensor *t = c->operands[i];
  int64_t want = 1;
  if (t->dtype != HR_I32 || t->shape.rank != 1 || t->shape.dims[0] != shape->rank)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "operand %d must hold one i32 stride per dimension", i);
  for (int d = shape->rank - 1; d >= 0; d--) {
    if (((const int32_t *)t->data)[d] != want && shape->dims[d] > 1)
      return hr_op_error(c->op, HR_UNIMPLEMENTED, "FFT operands that are not row-major are not supported");
    want *= shape->dims[d];
  }
  return NULL;
}

hr_status hr_cc_ducc_fft(const hr_cc_call *c) {
  if (c->op->n_operands != 7 || c->op->n_results != 1)
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "dynamic_ducc_fft takes 7 operands and gives one result");
  ducc_desc d;
  HR_TRY(read_desc(c, &d));
  const hr_tensor *x = c->operands[1], *scale = c->operands[5];
  hr_tensor *res = c->results[0];
  HR_TRY(check_axes(c, &d, x->shape.rank));
  HR_TRY(check_strides(c, 3, &x->shape));
  HR_TRY(check_strides(c, 4, &res->shape));
  if (scale->dtype != HR_F64 || scale->nbytes != sizeof(double))
    return hr_op_error(c->op, HR_INVALID_ARGUMENT, "the FFT scale must be one f64");
  hr_red_fft_kind kind = d.fft_type == DUCC_R2C ? HR_FFT_REAL_FORWARD
                         : d.fft_type == DUCC_C2R ? HR_FFT_REAL_INVERSE
                         : d.forward              ? HR_FFT_FORWARD
                                                  : HR_FFT_INVERSE;
  const hr_shape *full = kind == HR_FFT_REAL_INVERSE ? &res->shape : &x->shape;
  int64_t lengths[3], n = 1;
  for (int i = 0; i < d.n_axes; i++) n *= lengths[i] = full->dims[d.axes[i]];
  HR_TRY(hr_red_fft(c->in, c->op, kind, lengths, d.n_axes, x, res));
  double factor = *(const double *)scale->data * (kind == HR_FFT_INVERSE || kind == HR_FFT_REAL_INVERSE ? (double)n : 1.0);
  if (factor == 1.0) return NULL;
  int64_t count = (int64_t)(res->nbytes / hr_dtype_size(hr_cc_real(res->dtype)));
  for (int64_t i = 0; i < count; i++) /* real and imaginary parts alike */
    hr_store_float(hr_cc_real(res->dtype), res->data, i, hr_load_float(hr_cc_real(res->dtype), res->data, i) * factor);
  return NULL;
}

/* stablehlo.fft: FFT, IFFT, RFFT and IRFFT over the trailing fft_length dimensions.
 *
 * Everything is computed in complex double on a buffer with the full (untruncated) trailing
 * shape, one axis at a time: radix-2 Cooley-Tukey for power-of-two lengths, a direct O(n^2) DFT
 * otherwise. IFFT scales by 1/n per axis. RFFT is the full complex transform truncated to
 * n/2 + 1 entries along the last axis; IRFFT inverts the leading axes, then rebuilds each last-axis
 * line from Hermitian symmetry (ignoring the imaginary parts of the DC and Nyquist terms, as
 * pocketfft does) and keeps the real part. */
#include <math.h>
#include <string.h>

#include "interp/reduce.h"

/* Longest non-power-of-two axis the direct DFT accepts (its cost grows with the square). */
#define HR_RED_MAX_DFT_LENGTH 65536

static hr_c128 c_add(hr_c128 a, hr_c128 b) { return (hr_c128){a.re + b.re, a.im + b.im}; }
static hr_c128 c_sub(hr_c128 a, hr_c128 b) { return (hr_c128){a.re - b.re, a.im - b.im}; }
static hr_c128 c_mul(hr_c128 a, hr_c128 b) {
  return (hr_c128){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* In-place radix-2 transform of x (length n, a power of two); tw[j] = exp(+-2 pi i j / n). */
static void dft_pow2(hr_c128 *x, int64_t n, const hr_c128 *tw) {
  for (int64_t i = 1, j = 0; i < n; i++) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) {
      hr_c128 t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    int64_t half = len / 2, step = n / len;
    for (int64_t i = 0; i < n; i += len)
      for (int64_t j = 0; j < half; j++) {
        hr_c128 u = x[i + j], v = c_mul(x[i + j + half], tw[j * step]);
        x[i + j] = c_add(u, v);
        x[i + j + half] = c_sub(u, v);
      }
  }
}

/* Direct transform y = DFT(x) of length n; tw[j] = exp(+-2 pi i j / n). */
static void dft_direct(const hr_c128 *x, hr_c128 *y, int64_t n, const hr_c128 *tw) {
  for (int64_t k = 0; k < n; k++) {
    hr_c128 acc = {0, 0};
    int64_t idx = 0;
    for (int64_t j = 0; j < n; j++) {
      acc = c_add(acc, c_mul(x[j], tw[idx]));
      idx += k;
      if (idx >= n) idx -= n;
    }
    y[k] = acc;
  }
}

/* exp(2 pi i j / n), computed in the first octant and mapped by symmetry so that multiples of a
 * quarter turn are exact and conjugate roots agree. */
static hr_c128 unit_root(int64_t j, int64_t n) {
  int64_t t = 4 * j, quadrant = t / n, rem = t % n;
  bool flip = 2 * rem > n;
  double theta = M_PI / 2 * (double)(flip ? n - rem : rem) / (double)n;
  double c = cos(theta), s = sin(theta);
  if (flip) {
    double tmp = c;
    c = s;
    s = tmp;
  }
  switch (quadrant) {
    case 1: return (hr_c128){-s, c};
    case 2: return (hr_c128){-c, -s};
    case 3: return (hr_c128){s, -c};
    default: return (hr_c128){c, s};
  }
}

/* One axis pass over the full buffer. */
typedef struct fft_axis {
  int64_t n, outer, inner; /* axis length, product of dims before it, product after it */
  bool inverse;
  bool hermitian; /* rebuild entries n/2+1.. from symmetry first (IRFFT's last axis) */
} fft_axis;

/* Transforms every line of `buf` along the axis; `work` holds 3n complex values. */
static void transform_lines(hr_c128 *buf, const fft_axis *ax, hr_c128 *work) {
  int64_t n = ax->n;
  hr_c128 *tw = work, *line = work + n, *out = work + 2 * n;
  double sign = ax->inverse ? 1.0 : -1.0;
  for (int64_t j = 0; j < n; j++) {
    hr_c128 w = unit_root(j, n);
    tw[j] = (hr_c128){w.re, sign * w.im};
  }
  double scale = ax->inverse ? 1.0 / (double)n : 1.0;
  for (int64_t o = 0; o < ax->outer; o++)
    for (int64_t i = 0; i < ax->inner; i++) {
      hr_c128 *base = buf + o * n * ax->inner + i;
      for (int64_t j = 0; j < n; j++) line[j] = base[j * ax->inner];
      if (ax->hermitian)
        for (int64_t j = n / 2 + 1; j < n; j++) line[j] = (hr_c128){line[n - j].re, -line[n - j].im};
      const hr_c128 *res = line;
      if (is_pow2(n)) {
        dft_pow2(line, n, tw);
      } else {
        dft_direct(line, out, n, tw);
        res = out;
      }
      for (int64_t j = 0; j < n; j++) base[j * ax->inner] = (hr_c128){res[j].re * scale, res[j].im * scale};
    }
}

/* Runs one axis pass, allocating its twiddle and line buffers. */
static hr_status run_axis(hr_interp *in, const hr_op *op, hr_c128 *buf, const hr_shape *full, int axis, bool inverse,
                          bool hermitian) {
  fft_axis ax = {.n = full->dims[axis], .outer = 1, .inner = 1, .inverse = inverse, .hermitian = hermitian};
  for (int d = 0; d < axis; d++) ax.outer *= full->dims[d];
  for (int d = axis + 1; d < full->rank; d++) ax.inner *= full->dims[d];
  if (!is_pow2(ax.n) && ax.n > HR_RED_MAX_DFT_LENGTH)
    return hr_op_error(op, HR_UNIMPLEMENTED, "FFT length %lld is not a power of two and exceeds %d",
                       (long long)ax.n, HR_RED_MAX_DFT_LENGTH);
  hr_tensor *work;
  HR_TRY(hr_red_scratch(in, op, HR_RED_ACC_C128, 3 * ax.n, &work));
  transform_lines(buf, &ax, work->data);
  hr_tensor_free(work);
  return NULL;
}

/* Reads fft_type and fft_length. */
static hr_status read_fft(const hr_op *op, hr_red_fft_kind *kind, int64_t *lengths, int *nl) {
  const char *t = hr_op_attr_enum(op, "fft_type");
  if (!t) return hr_op_error(op, HR_VERIFY_ERROR, "missing attribute 'fft_type'");
  if (strcmp(t, "FFT") == 0) *kind = HR_FFT_FORWARD;
  else if (strcmp(t, "IFFT") == 0) *kind = HR_FFT_INVERSE;
  else if (strcmp(t, "RFFT") == 0) *kind = HR_FFT_REAL_FORWARD;
  else if (strcmp(t, "IRFFT") == 0) *kind = HR_FFT_REAL_INVERSE;
  else return hr_op_error(op, HR_VERIFY_ERROR, "unknown fft_type %s", t);
  HR_TRY(hr_op_attr_i64_list(op, "fft_length", lengths, 3, nl));
  if (*nl < 1) return hr_op_error(op, HR_VERIFY_ERROR, "fft_length must have 1 to 3 entries");
  for (int i = 0; i < *nl; i++)
    if (lengths[i] < 1) return hr_op_error(op, HR_VERIFY_ERROR, "fft_length entries must be positive");
  return NULL;
}

/* Checks the operand and result types and derives the full (complex, untruncated) shape. */
static hr_status check_fft(const hr_op *op, hr_red_fft_kind kind, const int64_t *lengths, int nl, const hr_tensor *x,
                           const hr_tensor *res, hr_shape *full) {
  bool real_in = kind == HR_FFT_REAL_FORWARD, real_out = kind == HR_FFT_REAL_INVERSE;
  const hr_tensor *real_side = real_in ? x : res, *half_side = real_in ? res : x;
  if (real_in || real_out) {
    bool wide = real_side->dtype == HR_F64;
    if ((real_side->dtype != HR_F32 && !wide) || half_side->dtype != (wide ? HR_C128 : HR_C64))
      return hr_op_error(op, HR_VERIFY_ERROR, "real side must be f32/f64 and complex side the matching complex type");
  } else if (!hr_dtype_is_complex(x->dtype) || res->dtype != x->dtype) {
    return hr_op_error(op, HR_VERIFY_ERROR, "operand and result must have the same complex type");
  }
  *full = (real_in || real_out) ? real_side->shape : x->shape;
  if (full->rank < nl) return hr_op_error(op, HR_VERIFY_ERROR, "rank is smaller than fft_length");
  for (int i = 0; i < nl; i++)
    if (full->dims[full->rank - nl + i] != lengths[i])
      return hr_op_error(op, HR_VERIFY_ERROR, "trailing dimensions must equal fft_length");
  hr_shape half = *full;
  if (real_in || real_out) half.dims[half.rank - 1] = lengths[nl - 1] / 2 + 1;
  if (!hr_red_tensor_is(half_side, half_side->dtype, &half) || (!real_in && !real_out && !hr_red_tensor_is(res, res->dtype, full)))
    return hr_op_error(op, HR_VERIFY_ERROR, "operand and result shapes do not match fft_length");
  return NULL;
}

/* Copies the operand into the full buffer (zero-extending a half spectrum along the last axis). */
static void load_input(const hr_tensor *x, const hr_shape *full, hr_c128 *buf) {
  int64_t n = full->dims[full->rank - 1], h = x->shape.dims[x->shape.rank - 1];
  int64_t lines = n == 0 ? 0 : hr_tensor_num_elements(x) / (h ? h : 1);
  bool is_complex = hr_dtype_is_complex(x->dtype);
  for (int64_t l = 0; l < lines; l++)
    for (int64_t j = 0; j < n; j++) {
      hr_c128 v = {0, 0};
      if (j < h) {
        if (is_complex) v = hr_load_complex(x->dtype, x->data, l * h + j);
        else v.re = hr_load_float(x->dtype, x->data, l * h + j);
      }
      buf[l * n + j] = v;
    }
}

/* Copies the full buffer to the result (truncating the last axis for RFFT, real parts for
 * IRFFT). */
static void store_output(const hr_c128 *buf, const hr_shape *full, hr_tensor *res) {
  int64_t n = full->dims[full->rank - 1], h = res->shape.dims[res->shape.rank - 1];
  int64_t lines = h == 0 ? 0 : hr_tensor_num_elements(res) / h;
  bool is_complex = hr_dtype_is_complex(res->dtype);
  for (int64_t l = 0; l < lines; l++)
    for (int64_t j = 0; j < h; j++) {
      if (is_complex) hr_store_complex(res->dtype, res->data, l * h + j, buf[l * n + j]);
      else hr_store_float(res->dtype, res->data, l * h + j, buf[l * n + j].re);
    }
}

hr_status hr_red_fft(hr_interp *in, const hr_op *op, hr_red_fft_kind kind, const int64_t *lengths, int nl,
                     const hr_tensor *x, hr_tensor *res) {
  hr_shape full;
  HR_TRY(check_fft(op, kind, lengths, nl, x, res, &full));
  int64_t count;
  HR_TRY(hr_shape_num_elements(&full, &count));
  if (count == 0) return NULL;
  hr_tensor *buf;
  HR_TRY(hr_red_scratch(in, op, HR_RED_ACC_C128, count, &buf));
  hr_c128 *b = buf->data;
  load_input(x, &full, b);
  bool inverse = kind == HR_FFT_INVERSE || kind == HR_FFT_REAL_INVERSE;
  hr_status s = NULL;
  for (int i = 0; i < nl && !s; i++) {
    /* IRFFT handles the last axis last (with Hermitian reconstruction); the rest go innermost first. */
    int axis = kind == HR_FFT_REAL_INVERSE ? full.rank - nl + i : full.rank - 1 - i;
    bool hermitian = kind == HR_FFT_REAL_INVERSE && axis == full.rank - 1;
    s = run_axis(in, op, b, &full, axis, inverse, hermitian);
  }
  if (!s) store_output(b, &full, res);
  hr_tensor_free(buf);
  return s;
}

/* stablehlo.fft(operand). */
HR_RED_KERNEL(hr_red_kernel_fft) {
  if (op->n_operands != 1 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects one operand");
  hr_red_fft_kind kind = HR_FFT_FORWARD;
  int64_t lengths[3];
  int nl;
  HR_TRY(read_fft(op, &kind, lengths, &nl));
  return hr_red_fft(in, op, kind, lengths, nl, operands[0], results[0]);
}

/* The signature header the predict and KServe fuzz targets share (fuzz_predict.c says its
 * spelling): N inputs, then per input a dtype letter (kDtypeCodes), a rank and its dims, then the
 * first name; the signature's outputs are its inputs. Every byte value is valid. */
#ifndef HLORUN_FUZZ_FUZZ_SIGNATURE_H
#define HLORUN_FUZZ_FUZZ_SIGNATURE_H

#include <stdint.h>
#include <string.h>

#include "server/predict.h"

/* Every element type, one letter each in enum order from HR_I1 (i1 i2 i4 i8 i16 i32 i64 ui2 ui4
 * ui8 ui16 ui32 ui64 f16 bf16 f32 f64 complex<f32> complex<f64>); other bytes pick by value. */
static const char kDtypeCodes[] = "b24BsilxyuSWLhgfdcC";
enum { N_DTYPES = HR_C128 - HR_I1 + 1 };

/* Reads the next header byte (0 once the input is exhausted). */
static inline uint8_t take(const uint8_t **p, const uint8_t *end) { return *p < end ? *(*p)++ : 0; }

static inline hr_dtype pick_dtype(uint8_t b) {
  const char *c = b ? strchr(kDtypeCodes, b) : NULL;
  return (hr_dtype)(HR_I1 + (c ? c - kDtypeCodes : b % N_DTYPES));
}

/* Builds the signature (at most 3 inputs into infos, named from `names`); returns the header
 * bytes used. */
static inline size_t read_signature(const uint8_t *data, size_t size, const char *const *names, int n_names,
                                    srv_tensor_info *infos, srv_signature *sig) {
  const uint8_t *p = data, *end = data + size;
  int n = (uint8_t)(take(&p, end) - '1') % 3 + 1;
  for (int i = 0; i < n; i++) {
    memset(&infos[i], 0, sizeof infos[i]); /* no declared TensorInfo: metadata shows the spec */
    hr_tensor_spec *s = &infos[i].spec;
    s->dtype = pick_dtype(take(&p, end));
    s->shape.rank = (uint8_t)(take(&p, end) - '0') % 5;
    for (int d = 0; d < s->shape.rank; d++) {
      uint8_t b = take(&p, end);
      int v = b == '?' ? 0 : (uint8_t)(b - '0') % 8;
      s->shape.dims[d] = v ? v : HR_DYNAMIC;
    }
  }
  int first = take(&p, end) - 'a';
  for (int i = 0; i < n; i++) infos[i].name = (char *)names[(unsigned)(first + i) % (unsigned)n_names];
  *sig = (srv_signature){.n_inputs = n, .inputs = infos, .n_outputs = n, .outputs = infos};
  return (size_t)(p - data);
}

#endif

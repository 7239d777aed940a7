/* stablehlo.rng_bit_generator with the bit output of XLA's RngBitGeneratorExpander.
 *
 * The state is [key, counter...] of ui64 (or i64):
 *   THREE_FRY (state of 2): Threefry-2x32 with 20 rounds keyed by the key's two 32-bit halves.
 *     64-bit outputs: element i encrypts the 64-bit block counter + i (low word first) and joins
 *     the two output words (first word low). Narrower outputs split the shape in two halves along
 *     its first even dimension (else its largest): the pair of elements 2h, 2h + 1 along that
 *     dimension comes from the two words of block counter + h (row-major index in the half
 *     shape); words are truncated to the element width. The new counter adds the blocks used.
 *   PHILOX (state of 2 or 3): Philox-4x32 with 10 rounds keyed by the key's halves, on a 128-bit
 *     counter (state[1] low, state[2] high; for a state of 2 the key doubles as the high half).
 *     Block j encrypts counter + j; its four words (or two 64-bit values, words 0|1 and 2|3) fill
 *     consecutive elements; narrow outputs truncate 32-bit words. The new counter adds the blocks.
 *   DEFAULT: PHILOX, as XLA's CPU and GPU compilers configure the expander.
 * The output bits are stored in the element type's memory layout (float outputs get raw bits). */
#include <string.h>

#include "interp/reduce.h"

/* ---------------------------------------------------------------------------------------------- */
/* Block ciphers                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static uint32_t rotl32(uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }

/* Threefry-2x32 (20 rounds) of the block (x0, x1) under key (k0, k1). */
static void threefry2x32(uint32_t k0, uint32_t k1, uint32_t x[2]) {
  static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  x[0] += ks[0];
  x[1] += ks[1];
  for (int group = 0; group < 5; group++) {
    const int *r = rot + (group % 2) * 4;
    for (int i = 0; i < 4; i++) {
      x[0] += x[1];
      x[1] = rotl32(x[1], r[i]) ^ x[0];
    }
    x[0] += ks[(group + 1) % 3];
    x[1] += ks[(group + 2) % 3] + (uint32_t)(group + 1);
  }
}

/* Philox-4x32 (10 rounds) of the block x under key (k0, k1). */
static void philox4x32(uint32_t k0, uint32_t k1, uint32_t x[4]) {
  for (int round = 0; round < 10; round++) {
    uint64_t p0 = (uint64_t)x[0] * 0xD2511F53u, p1 = (uint64_t)x[2] * 0xCD9E8D57u;
    uint32_t y0 = (uint32_t)(p1 >> 32) ^ x[1] ^ k0, y2 = (uint32_t)(p0 >> 32) ^ x[3] ^ k1;
    x[0] = y0;
    x[1] = (uint32_t)p1;
    x[2] = y2;
    x[3] = (uint32_t)p0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Output                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Stores the low bits of `bits` as element i of the output (raw bits for floats: a narrow float's
 * 4, 6, 8 or 19-bit pattern). */
static void store_bits(hr_tensor *out, int64_t i, uint64_t bits) {
  hr_dtype t = out->dtype;
  if (hr_dtype_is_narrow_float(t)) {
    uint64_t mask = ((uint64_t)1 << hr_float_pattern_bits(t)) - 1u;
    hr_float_store_pattern(t, bits & mask, (unsigned char *)out->data + (size_t)i * hr_dtype_size(t));
    return;
  }
  switch (hr_dtype_size(t)) {
    case 8: memcpy((unsigned char *)out->data + (size_t)i * 8, &bits, 8); break;
    case 4: ((uint32_t *)out->data)[i] = (uint32_t)bits; break;
    case 2: ((uint16_t *)out->data)[i] = (uint16_t)bits; break;
    default: hr_store_int(out->dtype, out->data, i, (int64_t)bits); break;
  }
}

/* Threefry output; returns the number of blocks used. */
static uint64_t threefry_fill(uint64_t key, uint64_t counter, hr_tensor *out) {
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  int64_t count = hr_tensor_num_elements(out);
  if (hr_dtype_size(out->dtype) == 8) {
    for (int64_t i = 0; i < count; i++) {
      uint64_t c = counter + (uint64_t)i;
      uint32_t x[2] = {(uint32_t)c, (uint32_t)(c >> 32)};
      threefry2x32(k0, k1, x);
      store_bits(out, i, (uint64_t)x[0] | (uint64_t)x[1] << 32);
    }
    return (uint64_t)count;
  }
  /* Split dimension: the first even one, else the first largest; a scalar acts as [1]. */
  const hr_shape *s = &out->shape;
  int split = -1;
  for (int d = 0; d < s->rank && split < 0; d++)
    if (s->dims[d] % 2 == 0) split = d;
  if (split < 0)
    for (int d = 0; d < s->rank; d++)
      if (split < 0 || s->dims[d] > s->dims[split]) split = d;
  hr_shape half = *s;
  if (split >= 0) half.dims[split] = (s->dims[split] + 1) / 2;
  int64_t hstrides[HR_MAX_RANK], idx[HR_MAX_RANK] = {0}, half_count = 1;
  hr_row_major_strides(&half, hstrides);
  for (int d = 0; d < half.rank; d++) half_count *= half.dims[d];
  for (int64_t i = 0; i < count; i++, hr_next_index(s, idx)) {
    int64_t h = 0;
    for (int d = 0; d < s->rank; d++) h += (d == split ? idx[d] / 2 : idx[d]) * hstrides[d];
    uint64_t c = counter + (uint64_t)h;
    uint32_t x[2] = {(uint32_t)c, (uint32_t)(c >> 32)};
    threefry2x32(k0, k1, x);
    store_bits(out, i, x[split >= 0 ? idx[split] % 2 : 0]);
  }
  return (uint64_t)half_count;
}

/* Philox output; returns the number of 128-bit blocks used. */
static uint64_t philox_fill(uint64_t key, uint64_t lo, uint64_t hi, hr_tensor *out) {
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  int64_t count = hr_tensor_num_elements(out);
  bool wide = hr_dtype_size(out->dtype) == 8;
  int per_block = wide ? 2 : 4;
  uint64_t blocks = (uint64_t)((count + per_block - 1) / per_block);
  for (uint64_t j = 0; j < blocks; j++) {
    uint64_t c_lo = lo + j, c_hi = hi + (c_lo < lo);
    uint32_t x[4] = {(uint32_t)c_lo, (uint32_t)(c_lo >> 32), (uint32_t)c_hi, (uint32_t)(c_hi >> 32)};
    philox4x32(k0, k1, x);
    for (int w = 0; w < per_block; w++) {
      int64_t i = (int64_t)j * per_block + w;
      if (i >= count) break;
      store_bits(out, i, wide ? (uint64_t)x[2 * w] | (uint64_t)x[2 * w + 1] << 32 : x[w]);
    }
  }
  return blocks;
}

/* stablehlo.rng_bit_generator(initial_state) -> (output_state, output). */
HR_RED_KERNEL(hr_red_kernel_rng_bit_generator) {
  (void)in;
  if (op->n_operands != 1 || op->n_results != 2) return hr_op_error(op, HR_VERIFY_ERROR, "expects one state operand");
  const hr_tensor *state = operands[0];
  hr_tensor *new_state = results[0], *out = results[1];
  const char *alg = hr_op_attr_enum(op, "rng_algorithm");
  bool threefry = alg && strcmp(alg, "THREE_FRY") == 0;
  if (alg && !threefry && strcmp(alg, "PHILOX") != 0 && strcmp(alg, "DEFAULT") != 0)
    return hr_op_error(op, HR_VERIFY_ERROR, "unknown rng_algorithm %s", alg);
  int64_t n = state->shape.rank == 1 ? state->shape.dims[0] : -1;
  if ((state->dtype != HR_U64 && state->dtype != HR_I64) || (threefry ? n != 2 : n != 2 && n != 3) ||
      !hr_red_tensor_is(new_state, state->dtype, &state->shape))
    return hr_op_error(op, HR_VERIFY_ERROR, "state must be a ui64 vector of %s", threefry ? "2" : "2 or 3");
  if (out->dtype == HR_I1 || hr_dtype_is_complex(out->dtype))
    return hr_op_error(op, HR_UNIMPLEMENTED, "random bits of type %s", hr_dtype_name(out->dtype));
  uint64_t s[3] = {0};
  memcpy(s, state->data, (size_t)n * 8);
  if (threefry) {
    s[1] += threefry_fill(s[0], s[1], out);
  } else {
    uint64_t hi = n == 3 ? s[2] : s[0];
    uint64_t blocks = philox_fill(s[0], s[1], hi, out), lo = s[1] + blocks;
    if (n == 3) s[2] += lo < s[1];
    s[1] = lo;
  }
  memcpy(new_state->data, s, (size_t)n * 8);
  return NULL;
}

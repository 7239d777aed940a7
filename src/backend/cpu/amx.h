/* Intel AMX (tile registers) helpers shared by the AMX kernels (gemm_amx.c,
 * fast_attention_amx.c). Callers check hr_cpu_amx_enable() (cpu_features.h) first. */
#ifndef HLORUN_BACKEND_CPU_AMX_H
#define HLORUN_BACKEND_CPU_AMX_H

#include <immintrin.h>
#include <stdint.h>

/* The target of every function that uses tiles (with the AVX-512 that surrounds them). */
#define HR_AMX __attribute__((target("amx-tile,amx-bf16,avx512f,avx512bw,avx512dq,avx512vl,avx512bf16,fma")))

enum {
  HR_TILE_ROWS = 16,      /* rows of a full tile register */
  HR_TILE_ROW_BYTES = 64, /* bytes of a tile row: 16 f32, or 32 bf16 (16 pairs) */
};

/* The 64-byte operand of ldtilecfg (palette 1): rows and bytes per row of each tile register. */
typedef struct hr_amx_config {
  uint8_t palette, start_row, reserved[14];
  uint16_t row_bytes[16];
  uint8_t rows[16];
} hr_amx_config;
_Static_assert(sizeof(hr_amx_config) == 64, "ldtilecfg reads 64 bytes");

/* Loads the tile configuration: tile register t gets rows[t] rows of HR_TILE_ROW_BYTES bytes
 * (0: left unconfigured). */
HR_AMX static inline void hr_amx_load_config(const uint8_t rows[8]) {
  hr_amx_config cfg = {.palette = 1};
  for (int t = 0; t < 8; t++) {
    cfg.rows[t] = rows[t];
    cfg.row_bytes[t] = rows[t] ? HR_TILE_ROW_BYTES : 0;
  }
  _tile_loadconfig(&cfg);
}

/* GCC's tile intrinsics paste their register arguments into the assembly text, so tile register
 * numbers must be literal: callers name them with macros and pass them through these, which
 * expand the names first. */
#define HR_TILE_ZERO(t) _tile_zero(t)
#define HR_TILE_LOAD(t, p, stride) _tile_loadd(t, p, stride)
#define HR_TILE_STORE(t, p, stride) _tile_stored(t, p, stride)
#define HR_TILE_DP(c, a, b) _tile_dpbf16ps(c, a, b)

#endif

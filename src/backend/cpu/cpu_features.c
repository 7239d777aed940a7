/* CPU feature detection (cpu_features.h). */
#include "backend/cpu/cpu_features.h"

#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

/* __builtin_cpu_supports reports AVX-512 features only when the OS saves their register state. */
bool hr_cpu_avx512_ok(void) {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma");
}

bool hr_cpu_has_avx512f(void) { return __builtin_cpu_supports("avx512f"); }

bool hr_cpu_has_avx512bf16(void) {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
}

enum {
  ARCH_REQ_XCOMP_PERM = 0x1023, /* Linux arch_prctl: ask for an XSAVE feature's state */
  XFEATURE_XTILEDATA = 18,      /* the tile data state */
};

/* CPUID.(7,0):EDX bits 22 (AMX-BF16) and 24 (AMX-TILE); XCR0 bits 17 and 18 (tile config and
 * data state enabled by the OS). */
static bool cpu_has_amx_bf16(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(d & (1u << 22)) || !(d & (1u << 24))) return false;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27))) return false; /* OSXSAVE */
  unsigned lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo & (3u << 17)) == (3u << 17);
}

bool hr_cpu_amx_enable(void) {
  /* The AMX kernels' A panels are packed by the AVX512_BF16 code; every AMX-BF16 CPU has it. */
  return hr_cpu_has_avx512bf16() && cpu_has_amx_bf16() &&
         syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) == 0;
}

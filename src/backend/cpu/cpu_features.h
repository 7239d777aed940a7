/* What this CPU, and the OS, let the CPU backend's kernels use: the one place that asks
 * (__builtin_cpu_supports, cpuid, xgetbv, arch_prctl). Each call asks again; the answers are cheap
 * and never change within a process. */
#ifndef HLORUN_BACKEND_CPU_CPU_FEATURES_H
#define HLORUN_BACKEND_CPU_CPU_FEATURES_H

#include <stdbool.h>

/* AVX-512 F/BW/DQ/VL and FMA: what every fast kernel (fast.h) needs (HR_AVX512, vmath.h). */
bool hr_cpu_avx512_ok(void);

/* AVX512F, with OS support for its register state (the AVX-512 GEMM kernels, f32). */
bool hr_cpu_has_avx512f(void);

/* AVX512F and AVX512_BF16 (the AVX-512 GEMM kernels, bf16). */
bool hr_cpu_has_avx512bf16(void);

/* AVX512_BF16 and AMX-BF16, with the tile state enabled by the OS and granted to this process
 * (asking Linux for the permission the first time; asking again once granted is a no-op). */
bool hr_cpu_amx_enable(void);

#endif

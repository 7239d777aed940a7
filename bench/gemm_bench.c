/* gemm_bench: GF/s of hr_gemm at the TinyTransformer's shapes, on 1 and 2 threads, next to
 * oneDNN's dnnl_sgemm in the same process when libdnnl is installed (loaded with dlopen, so the
 * benchmark builds without it). See bench/gemm.md.
 *
 *   gemm_bench [--seconds S] [--m M1,M2,...] [--threads T1,T2,...] [--no-dnnl]
 *
 * Each measurement repeats the call for at least S seconds (default 0.3) and reports the fastest
 * and the median call. bf16 is measured with the AVX512_BF16 kernels and, where the CPU has
 * AMX-BF16, with the AMX kernels (what --bf16 uses there), interleaved with the f32 calls. The machine's FMA peak is measured too, since a VM's clock may be below the
 * nominal one. */
#include <dlfcn.h>
#include <errno.h>
#include <immintrin.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cpu/gemm.h"
#include "backend/cpu/gemm_internal.h"
#include "base/threadpool.h"

#define NOMINAL_PEAK_PER_CORE 253.5 /* GF/s: 2 FMA pipes x 16 lanes x 2 flops x 3.96 GHz (Zen 5) */
#define MAX_SAMPLES 4096
#define MAX_LIST 16

/* ---- options ------------------------------------------------------------------------------------ */

typedef struct options {
  double seconds;
  int64_t ms[MAX_LIST];
  int n_ms;
  int threads[MAX_LIST];
  int n_threads;
  bool dnnl;
} options;

/* Parses "a,b,c" into at most MAX_LIST positive integers; returns the count, 0 when malformed. */
static int parse_list(const char *s, int64_t *out) {
  int n = 0;
  while (*s && n < MAX_LIST) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || v <= 0 || (*end && *end != ',')) return 0;
    out[n++] = v;
    s = *end ? end + 1 : end;
  }
  return *s ? 0 : n;
}

static bool parse_options(int argc, char **argv, options *o) {
  *o = (options){.seconds = 0.3, .ms = {256, 1024, 4096, 16384}, .n_ms = 4, .threads = {1, 2}, .n_threads = 2,
                 .dnnl = true};
  for (int i = 1; i < argc; i++) {
    int64_t list[MAX_LIST];
    if (!strcmp(argv[i], "--no-dnnl")) {
      o->dnnl = false;
    } else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
      o->seconds = atof(argv[++i]);
      if (!(o->seconds > 0)) return false;
    } else if (!strcmp(argv[i], "--m") && i + 1 < argc) {
      if (!(o->n_ms = parse_list(argv[++i], o->ms))) return false;
    } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
      if (!(o->n_threads = parse_list(argv[++i], list))) return false;
      for (int t = 0; t < o->n_threads; t++) o->threads[t] = (int)(list[t] > 256 ? 256 : list[t]);
    } else {
      return false;
    }
  }
  return true;
}

/* ---- timing ------------------------------------------------------------------------------------- */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int compare_doubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

typedef struct timing {
  double min, median; /* seconds per call */
} timing;

typedef void (*call_fn)(void *ctx);

#define MAX_CALLEES 4
#define ROUNDS 3

/* Measures `count` functions in ROUNDS rounds; in each round each function runs in a block of
 * consecutive calls (one warm-up call, then seconds / ROUNDS of calls, at least 3), so that all
 * share the machine's changing load while one's threads (oneDNN's OpenMP workers spin after a
 * call) do not run into the other's calls. */
static void measure_all(int count, const call_fn *fns, void *const *ctxs, double seconds, timing *out) {
  double samples[MAX_CALLEES][MAX_SAMPLES];
  int n[MAX_CALLEES] = {0};
  for (int round = 0; round < ROUNDS; round++) {
    for (int i = 0; i < count; i++) {
      fns[i](ctxs[i]);
      double start = now();
      for (int calls = 0; n[i] < MAX_SAMPLES && (calls < 3 || now() - start < seconds / ROUNDS); calls++) {
        double t = now();
        fns[i](ctxs[i]);
        samples[i][n[i]++] = now() - t;
      }
    }
  }
  for (int i = 0; i < count; i++) {
    qsort(samples[i], (size_t)n[i], sizeof samples[i][0], compare_doubles);
    out[i] = (timing){samples[i][0], samples[i][n[i] / 2]};
  }
}

/* ---- the machine's FMA peak --------------------------------------------------------------------- */

/* 24 independent accumulator chains: enough to keep two FMA pipes busy at latency 4. */
__attribute__((target("avx512f"), noinline)) static float fma_loop(int64_t iters, float seed) {
  __m512 b = _mm512_set1_ps(0.999999f), c = _mm512_set1_ps(1e-7f);
  /* Distinct starting values, so that the compiler cannot merge identical chains. */
#define X(i) x##i = _mm512_set1_ps(seed + (float)(i))
  __m512 X(0), X(1), X(2), X(3), X(4), X(5), X(6), X(7), X(8), X(9), X(10), X(11), X(12), X(13), X(14), X(15),
      X(16), X(17), X(18), X(19), X(20), X(21), X(22), X(23);
#undef X
  for (int64_t i = 0; i < iters; i++) {
#define F(x) x = _mm512_fmadd_ps(x, b, c)
    F(x0), F(x1), F(x2), F(x3), F(x4), F(x5), F(x6), F(x7), F(x8), F(x9), F(x10), F(x11);
    F(x12), F(x13), F(x14), F(x15), F(x16), F(x17), F(x18), F(x19), F(x20), F(x21), F(x22), F(x23);
#undef F
  }
  __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(x0, x1), _mm512_add_ps(x2, x3)),
                           _mm512_add_ps(_mm512_add_ps(x4, x5), _mm512_add_ps(x6, x7)));
  s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(x8, x9), _mm512_add_ps(x10, x11)),
                                     _mm512_add_ps(_mm512_add_ps(x12, x13), _mm512_add_ps(x14, x15))));
  s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(x16, x17), _mm512_add_ps(x18, x19)),
                                     _mm512_add_ps(_mm512_add_ps(x20, x21), _mm512_add_ps(x22, x23))));
  return _mm512_reduce_add_ps(s);
}

#define PEAK_ITERS 100000

static void peak_call(void *ctx) {
  float *sink = ctx;
  *sink += fma_loop(PEAK_ITERS, 1.0f);
}

/* GF/s of the FMA loop on this thread: what one core can do at the clock it runs at now. */
static double measured_core_peak(double seconds) {
  float sink = 0;
  call_fn fn = peak_call;
  void *ctx = &sink;
  timing t;
  measure_all(1, &fn, &ctx, seconds, &t);
  return PEAK_ITERS * 24.0 * 32 / t.min * 1e-9;
}

/* ---- oneDNN ------------------------------------------------------------------------------------- */

typedef int (*dnnl_sgemm_fn)(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha, const float *a,
                             int64_t lda, const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
typedef void (*omp_set_num_threads_fn)(int n);

typedef struct dnnl_lib {
  void *handle;
  dnnl_sgemm_fn sgemm;
  omp_set_num_threads_fn set_threads; /* from the OpenMP runtime oneDNN links, if any */
} dnnl_lib;

static dnnl_lib load_dnnl(void) {
  static const char *const names[] = {"libdnnl.so.3", "libdnnl.so.2", "libdnnl.so"};
  dnnl_lib lib = {0};
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib.handle; i++) lib.handle = dlopen(names[i], RTLD_NOW);
  if (!lib.handle) return lib;
  *(void **)&lib.sgemm = dlsym(lib.handle, "dnnl_sgemm");
  *(void **)&lib.set_threads = dlsym(lib.handle, "omp_set_num_threads");
  if (!lib.sgemm) {
    dlclose(lib.handle);
    lib.handle = NULL;
  }
  return lib;
}

/* ---- the calls measured ------------------------------------------------------------------------- */

typedef struct shape {
  const char *name;
  int64_t m, k, n;
  bool unpacked;    /* activations x activations (attention): B packed inside every call */
  bool transpose_b; /* B given as [N x K] */
} shape;

typedef struct gemm_ctx {
  hr_threadpool *pool;
  const shape *s;
  const float *a, *b;
  float *c;
  const hr_gemm_packed_b *packed;
  const dnnl_lib *dnnl;
} gemm_ctx;

static int64_t ldb(const shape *s) { return s->transpose_b ? s->k : s->n; }

static void call_ours(void *ctx) {
  gemm_ctx *g = ctx;
  if (g->s->unpacked) {
    hr_status st = hr_gemm_unpacked(g->pool, NULL, g->a, g->s->k, g->s->m, g->s->k, g->b, ldb(g->s), g->s->n,
                                    g->s->transpose_b, g->c, g->s->n, NULL, NULL, NULL);
    hr_status_free(st);
  } else {
    hr_gemm(g->pool, g->a, g->s->k, g->s->m, g->packed, g->c, g->s->n, NULL, NULL, NULL);
  }
}

static void call_dnnl(void *ctx) {
  gemm_ctx *g = ctx;
  g->dnnl->sgemm('N', g->s->transpose_b ? 'T' : 'N', g->s->m, g->s->n, g->s->k, 1.0f, g->a, g->s->k, g->b, ldb(g->s),
                 0.0f, g->c, g->s->n);
}

static double gflops(const shape *s, double seconds) { return 2.0 * (double)(s->m * s->k * s->n) / seconds * 1e-9; }

/* Largest |x - y| over sum |a b| for a sample of rows (x: bf16 result, y: f32 result). */
static double bf16_error(const shape *s, const float *a, const float *b, const float *x, const float *y) {
  double worst = 0;
  for (int64_t i = 0; i < s->m && i < 64; i++) {
    for (int64_t j = 0; j < s->n; j++) {
      double mag = 0;
      for (int64_t kk = 0; kk < s->k; kk++) mag += fabs((double)a[i * s->k + kk] * b[kk * s->n + j]);
      double e = fabs((double)x[i * s->n + j] - y[i * s->n + j]) / (mag + 1e-30);
      if (e > worst) worst = e;
    }
  }
  return worst;
}

/* Packs B for bf16 with the kernels of `isa`; NULL where this CPU lacks them. */
static hr_gemm_packed_b *pack_bf16(const shape *s, const float *b, hr_gemm_isa isa) {
  hr_gemm_packed_b *p = NULL;
  if (s->unpacked || !hr_gemm_isa_supported(HR_GEMM_BF16, isa)) return NULL;
  hr_status st = hr_gemm_pack_b_isa(NULL, b, ldb(s), s->k, s->n, s->transpose_b, HR_GEMM_BF16, isa, &p);
  if (st) {
    fprintf(stderr, "gemm_bench: %s\n", hr_status_message(st));
    exit(1);
  }
  return p;
}

/* Prints the bf16 columns of one kernel set: GF/s, speed over f32, error against f32. */
static void print_bf16(const shape *s, const timing *t, const timing *f32, gemm_ctx *g, const float *c) {
  call_ours(g);
  printf(" | %6.1f %5.2fx %8.1e", gflops(s, t->min), f32->min / t->min, bf16_error(s, g->a, g->b, g->c, c));
}

/* Measures one shape at one thread count: ours in f32, oneDNN, ours in bf16 (AVX512_BF16, AMX);
 * prints a row. */
static void bench_shape(const options *o, const shape *s, hr_threadpool *pool, int threads, const dnnl_lib *dnnl,
                        double peak) {
  float *a = malloc((size_t)(s->m * s->k) * sizeof(float)), *b = malloc((size_t)(s->k * s->n) * sizeof(float));
  float *c = malloc((size_t)(s->m * s->n) * sizeof(float)), *c16 = malloc((size_t)(s->m * s->n) * sizeof(float));
  if (!a || !b || !c || !c16) {
    fprintf(stderr, "gemm_bench: out of memory\n");
    exit(1);
  }
  for (int64_t i = 0; i < s->m * s->k; i++) a[i] = (float)((i * 7919) % 2001 - 1000) * 1e-3f;
  for (int64_t i = 0; i < s->k * s->n; i++) b[i] = (float)((i * 104729) % 2003 - 1001) * 1e-3f;
  hr_gemm_packed_b *packed = NULL;
  hr_status st = hr_gemm_pack_b(NULL, b, ldb(s), s->k, s->n, s->transpose_b, HR_GEMM_F32, &packed);
  if (st) {
    fprintf(stderr, "gemm_bench: %s\n", hr_status_message(st));
    exit(1);
  }
  hr_gemm_packed_b *packed16 = pack_bf16(s, b, HR_GEMM_ISA_AVX512), *packed_amx = pack_bf16(s, b, HR_GEMM_ISA_AMX);
  gemm_ctx g = {pool, s, a, b, c, packed, dnnl}, g16 = {pool, s, a, b, c16, packed16, dnnl};
  gemm_ctx gamx = {pool, s, a, b, c16, packed_amx, dnnl};
  if (dnnl->set_threads) dnnl->set_threads(threads);
  /* Ours, then oneDNN and our bf16 kernels when present. */
  call_fn fns[MAX_CALLEES] = {call_ours};
  void *ctxs[MAX_CALLEES] = {&g};
  int count = 1, dnnl_at = 0, bf16_at = 0, amx_at = 0;
  if (dnnl->sgemm) fns[dnnl_at = count] = call_dnnl, ctxs[count++] = &g;
  if (packed16) fns[bf16_at = count] = call_ours, ctxs[count++] = &g16;
  if (packed_amx) fns[amx_at = count] = call_ours, ctxs[count++] = &gamx;
  timing t[MAX_CALLEES];
  measure_all(count, fns, ctxs, o->seconds, t);
  double nominal = NOMINAL_PEAK_PER_CORE * threads;
  printf("%-12s %6lld %5lld %5lld %2d | %6.1f %6.1f %5.1f%% %5.1f%% |", s->name, (long long)s->m, (long long)s->k,
         (long long)s->n, threads, gflops(s, t[0].min), gflops(s, t[0].median), 100 * gflops(s, t[0].min) / nominal,
         100 * gflops(s, t[0].min) / peak);
  if (dnnl_at)
    printf(" %6.1f %6.1f %5.2fx", gflops(s, t[dnnl_at].min), gflops(s, t[dnnl_at].median), t[dnnl_at].min / t[0].min);
  else
    printf(" %6s %6s %6s", "-", "-", "-");
  if (bf16_at || amx_at) call_ours(&g);
  if (bf16_at) print_bf16(s, &t[bf16_at], &t[0], &g16, c);
  else if (amx_at) printf(" | %6s %6s %8s", "-", "-", "-");
  if (amx_at) print_bf16(s, &t[amx_at], &t[0], &gamx, c);
  printf("\n");
  fflush(stdout);
  hr_gemm_packed_b_free(packed_amx);
  hr_gemm_packed_b_free(packed);
  hr_gemm_packed_b_free(packed16);
  free(a);
  free(b);
  free(c);
  free(c16);
}

int main(int argc, char **argv) {
  options o;
  if (!parse_options(argc, argv, &o)) {
    fprintf(stderr, "usage: gemm_bench [--seconds S] [--m M1,M2,...] [--threads T1,T2,...] [--no-dnnl]\n");
    return 2;
  }
  if (!hr_gemm_supported(HR_GEMM_F32)) {
    fprintf(stderr, "gemm_bench: this CPU lacks AVX-512F; the portable kernels are not worth measuring\n");
    return 77;
  }
  dnnl_lib dnnl = o.dnnl ? load_dnnl() : (dnnl_lib){0};
  double core_peak = measured_core_peak(o.seconds);
  double load[3] = {0};
  if (getloadavg(load, 3) < 0) load[0] = -1;
  bool amx = hr_gemm_isa_supported(HR_GEMM_BF16, HR_GEMM_ISA_AMX);
  printf("gemm_bench: load average %.2f %.2f %.2f; oneDNN %s; bf16: AVX512_BF16 %s, AMX-BF16 %s\n", load[0], load[1],
         load[2], dnnl.sgemm ? "loaded" : "not available",
         hr_gemm_isa_supported(HR_GEMM_BF16, HR_GEMM_ISA_AVX512) ? "yes" : "no", amx ? "yes" : "no");
  for (int t = 0; t < o.n_threads; t++) {
    hr_threadpool *pool = NULL;
    hr_status st = hr_threadpool_create(NULL, o.threads[t], &pool);
    if (st) {
      fprintf(stderr, "gemm_bench: %s\n", hr_status_message(st));
      return 1;
    }
    double peak = core_peak * o.threads[t];
    printf("\n%d thread(s): nominal peak %.0f GF/s, measured FMA peak %.0f GF/s (%d x %.0f)\n", o.threads[t],
           NOMINAL_PEAK_PER_CORE * o.threads[t], peak, o.threads[t], core_peak);
    printf("%-12s %6s %5s %5s %2s | %6s %6s %6s %6s | %6s %6s %6s | %6s %6s %8s", "shape", "M", "K", "N", "T",
           "best", "median", "%nom", "%meas", "dnnl", "median", "ratio", "bf16", "speed", "bf16 err");
    printf(amx ? " | %6s %6s %8s\n" : "\n", "amx", "speed", "amx err");
    for (int i = 0; i < o.n_ms; i++) {
      int64_t m = o.ms[i];
      const shape shapes[] = {
          {"qkv/out", m, 256, 256, false, false},
          {"qkv fused", m, 256, 768, false, false},
          {"ffn in", m, 256, 1024, false, false},
          {"ffn out", m, 1024, 256, false, false},
      };
      for (size_t j = 0; j < sizeof shapes / sizeof shapes[0]; j++) bench_shape(&o, &shapes[j], pool, o.threads[t], &dnnl, peak);
    }
    const shape attention[] = {{"attn q.kT", 256, 64, 256, true, true}, {"attn p.v", 256, 256, 64, true, false}};
    for (size_t j = 0; j < sizeof attention / sizeof attention[0]; j++)
      bench_shape(&o, &attention[j], pool, o.threads[t], &dnnl, peak);
    hr_threadpool_free(pool);
  }
  printf("\nGF/s: best and median call; %%nom: of the nominal peak; %%meas: of the measured FMA peak;\n"
         "ratio: oneDNN time / our time (> 1: ours faster); bf16: AVX512_BF16 kernels, amx: AMX-BF16 kernels\n"
         "(best call); speed: over f32; err: max |bf16 - f32| / sum |a b| over the first 64 rows. Attention shapes call hr_gemm_unpacked (packs B every call).\n");
  if (dnnl.handle) dlclose(dnnl.handle);
  return 0;
}

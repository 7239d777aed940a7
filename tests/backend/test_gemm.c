/* GEMM (src/backend/cpu/gemm.h): every shape class against a double-precision reference loop. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>

#include "backend/cpu/gemm.h"
#include "backend/cpu/gemm_internal.h"
#include "base/numeric.h"
#include "test.h"

/* ---- helpers ------------------------------------------------------------------------------------ */

/* Deterministic values in [-1, 1). */
static void fill_random(float *x, int64_t count, uint32_t seed) {
  uint32_t s = seed * 2654435761u + 12345u;
  for (int64_t i = 0; i < count; i++) {
    s = s * 1664525u + 1013904223u;
    x[i] = (float)(s >> 8) / (float)(1u << 23) - 1.0f;
  }
}

static float *alloc_floats(int64_t count) { return malloc((size_t)(count > 0 ? count : 1) * sizeof(float)); }

static float round_bf16(float x) { return hr_bf16_to_f32(hr_f32_to_bf16(x)); }

/* A problem: A [m x k] (stride lda), B [k x n] or [n x k] (stride ldb), C [m x n] (stride ldc). */
typedef struct problem {
  int64_t m, n, k, lda, ldb, ldc;
  bool transpose_b;
  float *a, *b;
} problem;

static problem make_problem(int64_t m, int64_t n, int64_t k, int64_t pad, bool transpose_b, uint32_t seed) {
  problem p = {m, n, k, k + pad, (transpose_b ? k : n) + pad, n + pad, transpose_b, NULL, NULL};
  p.a = alloc_floats(m * p.lda);
  p.b = alloc_floats((transpose_b ? n : k) * p.ldb);
  fill_random(p.a, m * p.lda, seed);
  fill_random(p.b, (transpose_b ? n : k) * p.ldb, seed + 7);
  return p;
}

static void free_problem(problem *p) {
  free(p->a);
  free(p->b);
}

static float b_elem(const problem *p, int64_t kk, int64_t j) {
  return p->transpose_b ? p->b[j * p->ldb + kk] : p->b[kk * p->ldb + j];
}

/* Largest |c - reference| / (sum |a b| + tiny) over the problem; inputs rounded to bf16 first when
 * `bf16` (so the bf16 kernels are held to f32 accumulation error). */
static double max_rel_error(const problem *p, const float *c, bool bf16) {
  double worst = 0;
  for (int64_t i = 0; i < p->m; i++) {
    for (int64_t j = 0; j < p->n; j++) {
      double sum = 0, mag = 0;
      for (int64_t kk = 0; kk < p->k; kk++) {
        double x = p->a[i * p->lda + kk], y = b_elem(p, kk, j);
        if (bf16) x = round_bf16((float)x), y = round_bf16((float)y);
        sum += x * y;
        mag += fabs(x * y);
      }
      double err = fabs((double)c[i * p->ldc + j] - sum) / (mag + 1e-30);
      if (err > worst) worst = err;
    }
  }
  return worst;
}

/* f32 accumulation over k terms: a bound well above the usual error, far below any real mistake. */
static double f32_tolerance(int64_t k) { return (double)(k + 4) * 1.2e-7; }

/* Fills C (whole leading-dimension rows) with a sentinel that a correct GEMM never writes. */
static float *alloc_c(const problem *p) {
  float *c = alloc_floats(p->m * p->ldc);
  for (int64_t i = 0; i < p->m * p->ldc; i++) c[i] = 12345.0f;
  return c;
}

static bool padding_untouched(const problem *p, const float *c) {
  for (int64_t i = 0; i < p->m; i++)
    for (int64_t j = p->n; j < p->ldc; j++)
      if (c[i * p->ldc + j] != 12345.0f) return false;
  return true;
}

/* The bf16 kernels, each tested where the machine has it. */
static const hr_gemm_isa bf16_isas[] = {HR_GEMM_ISA_AVX512, HR_GEMM_ISA_AMX};
enum { N_BF16_ISAS = sizeof bf16_isas / sizeof bf16_isas[0] };
static const char *isa_name(hr_gemm_isa isa) { return isa == HR_GEMM_ISA_AMX ? "AMX" : "AVX-512"; }

/* Packs B for the kernels of `isa` and runs hr_gemm; returns C (caller frees) or NULL when packing
 * failed. */
static float *run_gemm_isa(const problem *p, hr_threadpool *pool, hr_gemm_precision precision, hr_gemm_isa isa,
                           hr_gemm_epilogue_fn epilogue, void *ctx) {
  hr_gemm_packed_b *packed = NULL;
  hr_status s = hr_gemm_pack_b_isa(NULL, p->b, p->ldb, p->k, p->n, p->transpose_b, precision, isa, &packed);
  if (s) {
    fprintf(stderr, "pack failed: %s\n", hr_status_message(s));
    hr_status_free(s);
    return NULL;
  }
  float *c = alloc_c(p);
  hr_gemm(pool, p->a, p->lda, p->m, packed, c, p->ldc, NULL, epilogue, ctx);
  hr_gemm_packed_b_free(packed);
  return c;
}

static float *run_gemm(const problem *p, hr_threadpool *pool, hr_gemm_precision precision,
                       hr_gemm_epilogue_fn epilogue, void *ctx) {
  return run_gemm_isa(p, pool, precision, HR_GEMM_ISA_BEST, epilogue, ctx);
}

/* Checks one problem in f32 against the reference; returns whether it passed. */
static bool check_f32(int64_t m, int64_t n, int64_t k, int64_t pad, bool transpose_b, hr_threadpool *pool) {
  problem p = make_problem(m, n, k, pad, transpose_b, (uint32_t)(m * 131 + n * 17 + k));
  float *c = run_gemm(&p, pool, HR_GEMM_F32, NULL, NULL);
  bool ok = c && max_rel_error(&p, c, false) <= f32_tolerance(k) && padding_untouched(&p, c);
  if (!ok)
    fprintf(stderr, "f32 gemm wrong: m=%lld n=%lld k=%lld pad=%lld transpose_b=%d\n", (long long)m, (long long)n,
            (long long)k, (long long)pad, transpose_b);
  free(c);
  free_problem(&p);
  return ok;
}

/* ---- shapes ------------------------------------------------------------------------------------- */

/* Every small M, N and K around the tile sizes (MR = 14, NR = 32, 16-lane halves). */
TEST(small_shapes_exhaustive) {
  static const int64_t dims[] = {1, 2, 3, 7, 13, 14, 15, 16, 17, 28, 31, 32, 33, 47};
  int n_dims = (int)(sizeof dims / sizeof dims[0]);
  for (int x = 0; x < n_dims; x++)
    for (int y = 0; y < n_dims; y++)
      for (int z = 0; z < n_dims; z += 3) CHECK(check_f32(dims[x], dims[y], dims[z], 0, false, NULL));
}

/* Primes, exact multiples, several K blocks (K > 256), and the attention shapes. */
TEST(larger_shapes) {
  static const int64_t shapes[][3] = {
      {97, 101, 103}, {256, 64, 256}, {256, 256, 64}, {56, 64, 257}, {29, 96, 600}, {70, 33, 513},
      {3, 1000, 40},  {200, 160, 1},  {1, 1, 1000},   {127, 255, 129},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    CHECK(check_f32(shapes[i][0], shapes[i][1], shapes[i][2], 0, false, NULL));
}

TEST(transpose_b_and_leading_dimensions) {
  static const int64_t shapes[][3] = {{1, 1, 1}, {14, 32, 16}, {15, 33, 17}, {45, 70, 300}, {64, 40, 31}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    for (int pad = 0; pad <= 5; pad += 5) {
      CHECK(check_f32(shapes[i][0], shapes[i][1], shapes[i][2], pad, true, NULL));
      CHECK(check_f32(shapes[i][0], shapes[i][1], shapes[i][2], pad, false, NULL));
    }
  }
}

/* ---- epilogue ----------------------------------------------------------------------------------- */

typedef struct epilogue_record {
  const problem *p;
  float *c;          /* the C passed to hr_gemm */
  int *visits;       /* per element of C */
  int workers;       /* pool size */
  int bad_calls;     /* calls with inconsistent arguments */
} epilogue_record;

/* Counts each element it is given and maps it to 2c + 1 (so it must see finished values). */
static void record_epilogue(void *ctx, float *c, int64_t ldc, int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                            int worker) {
  epilogue_record *r = ctx;
  if (c != r->c + row0 * r->p->ldc + col0 || ldc != r->p->ldc || rows < 1 || cols < 1 || row0 < 0 || col0 < 0 ||
      row0 + rows > r->p->m || col0 + cols > r->p->n || worker < 0 || worker >= r->workers) {
    r->bad_calls++;
    return;
  }
  for (int64_t i = 0; i < rows; i++) {
    for (int64_t j = 0; j < cols; j++) {
      r->visits[(row0 + i) * r->p->n + col0 + j]++;
      c[i * ldc + j] = 2 * c[i * ldc + j] + 1;
    }
  }
}

/* Runs with the recording epilogue; checks coverage and the final values against `plain` (a run
 * without an epilogue on the same problem). */
static void check_epilogue_run(const problem *p, hr_threadpool *pool, const float *plain) {
  hr_gemm_packed_b *packed = NULL;
  CHECK_OK(hr_gemm_pack_b(NULL, p->b, p->ldb, p->k, p->n, p->transpose_b, HR_GEMM_F32, &packed));
  if (!packed) return;
  float *c = alloc_c(p);
  epilogue_record r = {p, c, calloc((size_t)(p->m * p->n + 1), sizeof(int)), hr_threadpool_size(pool), 0};
  hr_gemm(pool, p->a, p->lda, p->m, packed, c, p->ldc, NULL, record_epilogue, &r);
  CHECK_EQ_INT(r.bad_calls, 0);
  int wrong_visits = 0, wrong_values = 0;
  for (int64_t i = 0; i < p->m; i++) {
    for (int64_t j = 0; j < p->n; j++) {
      wrong_visits += r.visits[i * p->n + j] != 1;
      wrong_values += c[i * p->ldc + j] != 2 * plain[i * p->ldc + j] + 1;
    }
  }
  CHECK_EQ_INT(wrong_visits, 0);
  CHECK_EQ_INT(wrong_values, 0);
  CHECK(padding_untouched(p, c));
  free(r.visits);
  free(c);
  hr_gemm_packed_b_free(packed);
}

TEST(epilogue_sees_every_element_once) {
  hr_threadpool *pool = NULL;
  CHECK_OK(hr_threadpool_create(NULL, 3, &pool));
  static const int64_t shapes[][3] = {{1, 1, 1}, {14, 32, 8}, {300, 70, 20}, {29, 1100, 9}, {45, 600, 300}, {5, 3, 0}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    problem p = make_problem(shapes[i][0], shapes[i][1], shapes[i][2], 3, false, (uint32_t)i);
    float *plain = run_gemm(&p, NULL, HR_GEMM_F32, NULL, NULL);
    CHECK(plain != NULL);
    if (plain) {
      check_epilogue_run(&p, NULL, plain);
      check_epilogue_run(&p, pool, plain);
    }
    free(plain);
    free_problem(&p);
  }
  hr_threadpool_free(pool);
}

TEST(k_zero_gives_epilogue_of_zero) {
  problem p = make_problem(20, 40, 0, 2, false, 1);
  float *c = run_gemm(&p, NULL, HR_GEMM_F32, NULL, NULL);
  CHECK(c != NULL);
  int nonzero = 0;
  for (int64_t i = 0; c && i < p.m; i++)
    for (int64_t j = 0; j < p.n; j++) nonzero += c[i * p.ldc + j] != 0.0f;
  CHECK_EQ_INT(nonzero, 0);
  CHECK(c && padding_untouched(&p, c));
  free(c);
  free_problem(&p);
}

static void count_calls(void *ctx, float *c, int64_t ldc, int64_t row0, int64_t rows, int64_t col0, int64_t cols,
                        int worker) {
  (*(int *)ctx)++;
}

TEST(empty_m_or_n_calls_nothing) {
  problem p = make_problem(4, 0, 5, 1, false, 3);
  int calls = 0;
  float *c = run_gemm(&p, NULL, HR_GEMM_F32, count_calls, &calls);
  CHECK_EQ_INT(calls, 0);
  free(c);
  free_problem(&p);
  problem q = make_problem(0, 6, 5, 1, false, 3);
  free(run_gemm(&q, NULL, HR_GEMM_F32, count_calls, &calls));
  CHECK_EQ_INT(calls, 0);
  free_problem(&q);
}

/* ---- threads ------------------------------------------------------------------------------------ */

/* Every element's sum runs in the same order whatever the work split, so results are identical.
 * Pools of 2, 3 and 66 participants (more than the GEMM's 64 home ranges, and more than some
 * shapes have row groups, so homes are shared or empty and the rest is stolen); K within one block,
 * over several blocks whose whole column block fits in L2 (1024), the same with an A too large to
 * read once per column block (2100 x 1024 floats), and K too long for that (5000). */
TEST(multithreaded_matches_single_thread_exactly) {
  static const int sizes[] = {2, 3, 66};
  static const int64_t shapes[][3] = {{256, 256, 64},   {1, 300, 70},     {33, 1024, 40}, {100, 40, 700},
                                      {200, 1024, 256}, {2100, 1024, 160}, {60, 5000, 40}};
  for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
    hr_threadpool *pool = NULL;
    CHECK_OK(hr_threadpool_create(NULL, sizes[t], &pool));
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
      problem p = make_problem(shapes[i][0], shapes[i][1], shapes[i][2], 1, i % 2 == 1, (uint32_t)i);
      float *one = run_gemm(&p, NULL, HR_GEMM_F32, NULL, NULL), *many = run_gemm(&p, pool, HR_GEMM_F32, NULL, NULL);
      CHECK(one && many && memcmp(one, many, (size_t)(p.m * p.ldc) * sizeof(float)) == 0);
      free(one);
      free(many);
      free_problem(&p);
    }
    hr_threadpool_free(pool);
  }
}

typedef struct concurrent_call {
  const problem *p;
  const hr_gemm_packed_b *packed;
  float *c;
} concurrent_call;

static void *concurrent_main(void *arg) {
  concurrent_call *call = arg;
  for (int rep = 0; rep < 4; rep++)
    hr_gemm(NULL, call->p->a, call->p->lda, call->p->m, call->packed, call->c, call->p->ldc, NULL, NULL, NULL);
  return NULL;
}

/* Threads sharing one packed B, each with its own C. */
TEST(concurrent_calls_share_packed_b) {
  problem p = make_problem(90, 100, 300, 0, false, 5);
  hr_gemm_packed_b *packed = NULL;
  CHECK_OK(hr_gemm_pack_b(NULL, p.b, p.ldb, p.k, p.n, false, HR_GEMM_F32, &packed));
  if (!packed) return;
  float *expected = run_gemm(&p, NULL, HR_GEMM_F32, NULL, NULL);
  concurrent_call calls[3];
  pthread_t threads[3];
  for (int t = 0; t < 3; t++) {
    calls[t] = (concurrent_call){&p, packed, alloc_c(&p)};
    CHECK(pthread_create(&threads[t], NULL, concurrent_main, &calls[t]) == 0);
  }
  for (int t = 0; t < 3; t++) {
    pthread_join(threads[t], NULL);
    CHECK(memcmp(calls[t].c, expected, (size_t)(p.m * p.ldc) * sizeof(float)) == 0);
    free(calls[t].c);
  }
  free(expected);
  hr_gemm_packed_b_free(packed);
  free_problem(&p);
}

/* ---- bf16 --------------------------------------------------------------------------------------- */

/* Against the reference on bf16-rounded inputs: only f32 accumulation error remains. Every bf16
 * kernel the machine has; partial tiles of both (14- and 32-row tiles, 16-column halves, K not a
 * multiple of 32), several K blocks, transposed B, one thread and the pool. */
TEST(bf16_matches_rounded_reference) {
  if (!hr_gemm_supported(HR_GEMM_BF16)) {
    problem p = make_problem(2, 2, 2, 0, false, 1);
    hr_gemm_packed_b *packed = NULL;
    hr_status s = hr_gemm_pack_b(NULL, p.b, p.ldb, 2, 2, false, HR_GEMM_BF16, &packed);
    CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
    hr_status_free(s);
    free_problem(&p);
    return;
  }
  hr_threadpool *pool = NULL;
  CHECK_OK(hr_threadpool_create(NULL, 2, &pool));
  static const int64_t shapes[][3] = {{1, 1, 1},     {14, 32, 2},  {15, 33, 3},   {29, 70, 513}, {40, 64, 1025},
                                      {3, 17, 64},   {32, 32, 32}, {33, 48, 33},  {70, 96, 256}, {17, 16, 31},
                                      {100, 40, 600}};
  for (int i = 0; i < N_BF16_ISAS; i++) {
    if (!hr_gemm_isa_supported(HR_GEMM_BF16, bf16_isas[i])) continue;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      for (int t = 0; t < 2; t++) {
        problem p = make_problem(shapes[s][0], shapes[s][1], shapes[s][2], 2 * t, t == 1, (uint32_t)s);
        float *c = run_gemm_isa(&p, t == 1 ? pool : NULL, HR_GEMM_BF16, bf16_isas[i], NULL, NULL);
        bool ok = c && max_rel_error(&p, c, true) <= f32_tolerance(p.k) && padding_untouched(&p, c);
        if (!ok)
          fprintf(stderr, "bf16 %s gemm wrong: m=%lld n=%lld k=%lld\n", isa_name(bf16_isas[i]), (long long)p.m,
                  (long long)p.n, (long long)p.k);
        CHECK(ok);
        free(c);
        free_problem(&p);
      }
    }
  }
  hr_threadpool_free(pool);
}

/* Against the exact f32 product: bf16 keeps 8 significant bits, so each product is off by < 2^-8. */
TEST(bf16_error_vs_f32_is_bounded) {
  for (int i = 0; i < N_BF16_ISAS; i++) {
    if (!hr_gemm_isa_supported(HR_GEMM_BF16, bf16_isas[i])) continue;
    problem p = make_problem(64, 96, 256, 0, false, 11);
    float *c = run_gemm_isa(&p, NULL, HR_GEMM_BF16, bf16_isas[i], NULL, NULL);
    double err = c ? max_rel_error(&p, c, false) : 1;
    CHECK(err < 1.0 / 256);
    free(c);
    free_problem(&p);
  }
}

/* Asking for kernels the machine lacks fails cleanly; bf16 has no portable kernels. */
TEST(missing_isa_is_unimplemented) {
  float x[4] = {1, 2, 3, 4};
  hr_gemm_packed_b *packed = NULL;
  hr_status s = hr_gemm_pack_b_isa(NULL, x, 2, 2, 2, false, HR_GEMM_BF16, HR_GEMM_ISA_PORTABLE, &packed);
  CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
  CHECK(packed == NULL);
  hr_status_free(s);
  s = hr_gemm_pack_b_isa(NULL, x, 2, 2, 2, false, HR_GEMM_F32, HR_GEMM_ISA_AMX, &packed);
  CHECK_EQ_INT(hr_status_code(s), HR_UNIMPLEMENTED);
  hr_status_free(s);
}

/* ---- kernels and API edges ---------------------------------------------------------------------- */

/* The kernel tables directly (the portable one is not reached through hr_gemm on AVX-512 CPUs):
 * every row count, both accumulate modes, a partial last panel. */
static void check_kernel_table(const hr_gemm_kernels *kern) {
  problem p = make_problem(HR_GEMM_MR, 2 * HR_GEMM_NR - 5, 37, 0, false, 9);
  hr_gemm_packed_b *packed = NULL;
  CHECK_OK(hr_gemm_pack_b(NULL, p.b, p.ldb, p.k, p.n, false, HR_GEMM_F32, &packed));
  if (!packed) return;
  _Alignas(64) union {
    float f[HR_GEMM_MR * HR_GEMM_A_STRIDE];
  } apanel;
  float *c = alloc_c(&p);
  hr_gemm_prefetch next = {p.a, p.lda, p.k * (int64_t)sizeof(float), 3};
  for (int rows = 1; rows <= HR_GEMM_MR; rows++) {
    problem q = p;
    q.m = rows;
    kern->pack_a(p.a, p.lda, rows, p.k, &apanel);
    kern->panels(rows, p.k, &apanel, packed->data, packed->n_panels, (int)(p.n - HR_GEMM_NR), c, p.ldc, false, NULL,
                 &next);
    CHECK(max_rel_error(&q, c, false) <= f32_tolerance(p.k));
    /* Accumulating adds the same product again. */
    kern->panels(rows, p.k, &apanel, packed->data, packed->n_panels, (int)(p.n - HR_GEMM_NR), c, p.ldc, true, NULL,
                 &next);
    for (int64_t i = 0; i < rows * p.ldc; i++) c[i] *= 0.5f;
    CHECK(max_rel_error(&q, c, false) <= f32_tolerance(p.k));
    /* Addends: the product plus a column addend plus a full one, rounded in that order. */
    kern->panels(rows, p.k, &apanel, packed->data, packed->n_panels, (int)(p.n - HR_GEMM_NR), c, p.ldc, false, NULL,
                 &next);
    float *with = alloc_c(&p), *full = alloc_floats(HR_GEMM_MR * p.n);
    fill_random(full, HR_GEMM_MR * p.n, 5);
    hr_gemm_tile_addends add = {2, {{p.b, 0}, {full, p.n}}}; /* B's first row serves as the column addend */
    kern->panels(rows, p.k, &apanel, packed->data, packed->n_panels, (int)(p.n - HR_GEMM_NR), with, p.ldc, false,
                 &add, &next);
    bool same = true;
    for (int i = 0; i < rows; i++)
      for (int64_t j = 0; j < p.n; j++) {
        float want = c[i * p.ldc + j] + p.b[j];
        want += full[i * p.n + j];
        same &= memcmp(&want, &with[i * p.ldc + j], sizeof want) == 0;
      }
    CHECK(same);
    free(with);
    free(full);
  }
  free(c);
  hr_gemm_packed_b_free(packed);
  free_problem(&p);
}

/* With addends, C equals the plain product with each addend then added in f32, in order, bit for
 * bit: every shape class (partial tiles, several K blocks, K = 0), column and full addends in both
 * orders, f32 and bf16, one thread and the pool. */
static void check_addends(int64_t m, int64_t n, int64_t k, hr_gemm_precision precision, hr_gemm_isa isa,
                          hr_threadpool *pool) {
  problem p = make_problem(m, n, k, 3, false, (uint32_t)(m + 7 * n + 11 * k));
  float *column = alloc_floats(n), *full = alloc_floats(m * (n + 5));
  fill_random(column, n, 3);
  fill_random(full, m * (n + 5), 4);
  hr_gemm_packed_b *packed = NULL;
  CHECK_OK(hr_gemm_pack_b_isa(NULL, p.b, p.ldb, p.k, p.n, false, precision, isa, &packed));
  const hr_gemm_addend col = {column, 0}, all = {full, n + 5};
  const hr_gemm_addends cases[] = {{1, {col}}, {1, {all}}, {2, {col, all}}, {2, {all, col}}};
  float *plain = alloc_c(&p);
  if (packed) hr_gemm(pool, p.a, p.lda, p.m, packed, plain, p.ldc, NULL, NULL, NULL);
  for (size_t t = 0; packed && t < sizeof cases / sizeof cases[0]; t++) {
    float *c = alloc_c(&p);
    hr_gemm(pool, p.a, p.lda, p.m, packed, c, p.ldc, &cases[t], NULL, NULL);
    bool same = padding_untouched(&p, c);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        float want = plain[i * p.ldc + j];
        for (int q = 0; q < cases[t].n; q++) want += cases[t].a[q].p[i * cases[t].a[q].ld + j];
        same &= memcmp(&want, &c[i * p.ldc + j], sizeof want) == 0;
      }
    if (!same)
      fprintf(stderr, "addends case %zu wrong: m=%lld n=%lld k=%lld %s %s\n", t, (long long)m, (long long)n,
              (long long)k, precision == HR_GEMM_BF16 ? "bf16" : "f32", isa_name(isa));
    CHECK(same);
    free(c);
  }
  free(plain);
  hr_gemm_packed_b_free(packed);
  free(column);
  free(full);
  free_problem(&p);
}

TEST(addends_are_added_in_order) {
  hr_threadpool *pool = NULL;
  CHECK_OK(hr_threadpool_create(NULL, 3, &pool));
  static const int64_t shapes[][3] = {{1, 1, 1},   {13, 31, 5}, {15, 33, 256}, {29, 70, 600},
                                      {40, 64, 0}, {3, 100, 513}, {70, 40, 96}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    check_addends(shapes[s][0], shapes[s][1], shapes[s][2], HR_GEMM_F32, HR_GEMM_ISA_BEST, NULL);
    check_addends(shapes[s][0], shapes[s][1], shapes[s][2], HR_GEMM_F32, HR_GEMM_ISA_BEST, pool);
    for (int i = 0; i < N_BF16_ISAS; i++)
      if (hr_gemm_isa_supported(HR_GEMM_BF16, bf16_isas[i]))
        check_addends(shapes[s][0], shapes[s][1], shapes[s][2], HR_GEMM_BF16, bf16_isas[i], pool);
  }
  hr_threadpool_free(pool);
}

TEST(kernel_tables) {
  check_kernel_table(hr_gemm_portable_kernels());
  if (hr_gemm_supported(HR_GEMM_F32)) check_kernel_table(hr_gemm_avx512_kernels(HR_GEMM_F32));
}

TEST(unpacked_matches_packed) {
  hr_threadpool *pool = NULL;
  CHECK_OK(hr_threadpool_create(NULL, 2, &pool));
  for (int t = 0; t < 2; t++) {
    problem p = make_problem(256, 64, 256, 3, t == 1, 21);
    float *expected = run_gemm(&p, NULL, HR_GEMM_F32, NULL, NULL), *c = alloc_c(&p);
    CHECK_OK(hr_gemm_unpacked(pool, NULL, p.a, p.lda, p.m, p.k, p.b, p.ldb, p.n, t == 1, c, p.ldc, NULL, NULL, NULL));
    CHECK(expected && memcmp(c, expected, (size_t)(p.m * p.ldc) * sizeof(float)) == 0);
    /* Packed by both threads into the caller's buffer, twice (the second pack overwrites the first). */
    size_t bytes = hr_gemm_unpacked_bytes(p.k, p.n);
    void *buf = aligned_alloc(64, (bytes + 63) / 64 * 64);
    CHECK(bytes > 0 && buf);
    for (int rep = 0; buf && rep < 2; rep++) {
      CHECK_OK(hr_gemm_unpacked_into(pool, buf, p.a, p.lda, p.m, p.k, p.b, p.ldb, p.n, t == 1, c, p.ldc, NULL, NULL,
                                     NULL));
      CHECK(expected && memcmp(c, expected, (size_t)(p.m * p.ldc) * sizeof(float)) == 0);
    }
    free(buf);
    free(expected);
    free(c);
    free_problem(&p);
  }
  hr_threadpool_free(pool);
}

TEST(invalid_arguments) {
  float x[16] = {0};
  hr_gemm_packed_b *packed = NULL;
  hr_status s = hr_gemm_pack_b(NULL, x, 4, -1, 4, false, HR_GEMM_F32, &packed);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
  s = hr_gemm_pack_b(NULL, x, 3, 4, 4, false, HR_GEMM_F32, &packed); /* ldb < n */
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
  s = hr_gemm_pack_b(NULL, x, 3, 2, 4, true, HR_GEMM_F32, &packed); /* [n x k] with ldb >= k: fine */
  CHECK(s == NULL);
  CHECK(packed && hr_gemm_packed_k(packed) == 2 && hr_gemm_packed_n(packed) == 4);
  hr_gemm_packed_b_free(packed);
  s = hr_gemm_pack_b(NULL, x, 4, INT64_MAX / 2, INT64_MAX / 2, false, HR_GEMM_F32, &packed);
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
  s = hr_gemm_unpacked(NULL, NULL, x, 1, 2, 2, x, 2, 2, false, x, 2, NULL, NULL, NULL); /* lda < k */
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
  s = hr_gemm_unpacked(NULL, NULL, x, 2, 2, 2, x, 2, 2, false, x, 1, NULL, NULL, NULL); /* ldc < n */
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
  s = hr_gemm_unpacked_into(NULL, NULL, x, 2, 2, 2, x, 2, 2, false, x, 2, NULL, NULL, NULL); /* no buffer */
  CHECK_EQ_INT(hr_status_code(s), HR_INVALID_ARGUMENT);
  hr_status_free(s);
  CHECK(hr_gemm_unpacked_bytes(INT64_MAX / 2, INT64_MAX / 2) == 0); /* too large: reported by the call */
  CHECK(hr_gemm_unpacked_bytes(0, 4) == 0);
}

int main(void) {
  RUN(small_shapes_exhaustive);
  RUN(larger_shapes);
  RUN(transpose_b_and_leading_dimensions);
  RUN(epilogue_sees_every_element_once);
  RUN(k_zero_gives_epilogue_of_zero);
  RUN(empty_m_or_n_calls_nothing);
  RUN(multithreaded_matches_single_thread_exactly);
  RUN(concurrent_calls_share_packed_b);
  RUN(bf16_matches_rounded_reference);
  RUN(bf16_error_vs_f32_is_bounded);
  RUN(missing_isa_is_unimplemented);
  RUN(addends_are_added_in_order);
  RUN(kernel_tables);
  RUN(unpacked_matches_packed);
  RUN(invalid_arguments);
  TEST_MAIN_END();
}
